//! The actions of `dotnet_dev_certs`: the HTTPS development certificate (`certificate`) and a
//! project's user secrets (`secrets`).

pub mod certificate;
pub mod secrets;

use dotnet_support::{
    errors::ErrorResponse,
    kit::{Reason, invalid},
    params::Params,
};
use serde_json::Value;

/// A secret parameter (`password`, `value`): text, a number or a boolean taken as text. No error
/// about it quotes it.
fn secret_text(params: &Params<'_>, name: &str) -> Result<Option<String>, ErrorResponse> {
    let invalid = |reason: Reason, message: String| Err(invalid(name, reason, message));
    let text = match params.raw(name) {
        None => return Ok(None),
        Some(Value::String(text)) if text.is_empty() => return Ok(None),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.to_string(),
        Some(Value::Bool(flag)) => flag.to_string(),
        Some(_) => return invalid(Reason::Type, format!("Invalid argument '{name}': must be text.")),
    };
    if text.starts_with('-') {
        return invalid(
            Reason::Characters,
            format!("Invalid argument '{name}': starts with '-', which the dotnet CLI would read as an option."),
        );
    }
    if text.contains('\0') {
        return invalid(Reason::Characters, format!("Invalid argument '{name}': contains a NUL character."));
    }
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn secret_parameters_are_text_and_never_quoted_in_errors() {
        let args = json!({ "a": 1234, "b": true, "c": "-secret-", "d": ["x"], "e": "" });
        let params = Params::new(&args);
        assert_eq!(secret_text(&params, "a").unwrap().as_deref(), Some("1234"));
        assert_eq!(secret_text(&params, "b").unwrap().as_deref(), Some("true"));
        assert_eq!(secret_text(&params, "e").unwrap(), None);
        for name in ["c", "d"] {
            let error = &secret_text(&params, name).unwrap_err().errors[0];
            assert!(!error.message.contains("secret-") && !error.message.contains("\"x\""), "{}", error.message);
        }
    }
}
