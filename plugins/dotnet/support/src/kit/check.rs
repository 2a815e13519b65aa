//! The check every call goes through before its action runs, the same for every family: the
//! action is one the tool offers (a read-only server refuses the others with `READ_ONLY`), no
//! parameter is set that the action does not take, and every parameter it needs is there.
//!
//! One rule for the defaults clients send when they fill in every parameter of a form: `null`,
//! `false`, a blank string, `[]` and `{}` ask for nothing, so they count as absent, both for
//! "does not apply" and for "is required".

use serde_json::Value;

use super::declare::{ActionEnum, ActionSpec, Declaration, Effect};
use crate::{
    errors::{ErrorResponse, ErrorResult},
    params::{Kind, Params, Reason, invalid},
};

/// Whether a value asks for nothing (see the module documentation).
pub fn is_default(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::String(text) => text.trim().is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        Value::Number(_) | Value::Bool(true) => false,
    }
}

/// The action of a call, checked with its parameters. `read_only` says whether the server offers
/// only the actions that read.
pub fn check<'d, A: ActionEnum>(
    declaration: &'d Declaration<A>,
    read_only: bool,
    params: &Params<'_>,
) -> Result<&'d ActionSpec<A>, ErrorResponse> {
    let spec = action(declaration, read_only, params)?;
    let name = spec.action.name();
    let applies = |parameter: &str| {
        (parameter == "action" && declaration.has_action_parameter())
            || declaration.common.contains(&parameter)
            || spec.takes.contains(&parameter)
    };
    let stray = params.entries().find(|(parameter, value)| !is_default(value) && !applies(parameter));
    if let Some((parameter, _)) = stray {
        let mut takes: Vec<&str> = spec.takes.clone();
        takes.dedup();
        let takes = if takes.is_empty() { "no other parameters".to_owned() } else { takes.join(", ") };
        let message = match declaration.has_action_parameter() {
            true => format!("Invalid argument '{parameter}': does not apply to action '{name}', which takes: {takes}."),
            false => format!("Invalid argument '{parameter}': is not a parameter of this tool, which takes: {takes}."),
        };
        return Err(invalid(parameter, Reason::NotApplicable, message));
    }
    if let Some(missing) = spec.requires.iter().find(|parameter| params.raw(parameter).is_none_or(is_default)) {
        let message = format!("Invalid argument '{missing}': is required and cannot be empty.");
        return Err(invalid(missing, Reason::Required, message));
    }
    Ok(spec)
}

/// The declaration of the action named in `params`.
fn action<'d, A: ActionEnum>(
    declaration: &'d Declaration<A>,
    read_only: bool,
    params: &Params<'_>,
) -> Result<&'d ActionSpec<A>, ErrorResponse> {
    let offered: Vec<&str> = declaration
        .actions
        .iter()
        .filter(|spec| !read_only || spec.effect == Effect::Reads)
        .map(|spec| spec.action.name())
        .collect();
    if !declaration.has_action_parameter() {
        return Ok(&declaration.actions[0]);
    }
    let text = params.req("action", Kind::Identifier)?;
    let Some(action) = A::from_name(text) else {
        let message = format!(
            "Invalid argument 'action': is '{text}', which is not an action of this tool. Valid actions: {}.",
            offered.join(", ")
        );
        return Err(invalid("action", Reason::Value, message));
    };
    let spec = declaration.spec_of(action);
    if read_only && spec.effect != Effect::Reads {
        return Err(ErrorResult::read_only(action.name(), &offered).into());
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::declare::Param;
    use serde_json::json;

    /// The result of both test actions: nothing of their own.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Done {}

    crate::actions! {
        /// Test actions.
        enum Act { Version, Install }
    }

    fn declaration() -> Declaration<Act> {
        Declaration::new("test_tool", "Test", "A tool for tests.")
            .param(Param::string("workingDirectory", "Where."))
            .param(Param::string("id", "Install: what."))
            .param(Param::flag("force", "Install: again."))
            .param(Param::strings("sources", "Install: where from."))
            .common(&["workingDirectory"])
            .each_action(|action| match action {
                Act::Version => ActionSpec::reads(action).result::<Done>(),
                Act::Install => {
                    ActionSpec::writes(action).requires(&["id"]).takes(&["force", "sources"]).result::<Done>()
                }
            })
    }

    fn checked(args: Value, read_only: bool) -> Result<Act, (String, String, String)> {
        let declaration = declaration();
        check(&declaration, read_only, &Params::new(&args)).map(|spec| spec.action).map_err(|error| {
            let first = &error.errors[0];
            let data = first.data.as_ref().and_then(|data| data.additional_data.clone()).unwrap_or_default();
            let field = |key: &str| data.get(key).cloned().unwrap_or_default();
            (first.code.clone(), field("parameter"), field("reason"))
        })
    }

    #[test]
    fn defaults_clients_fill_in_are_absent() {
        let filled = json!({
            "action": "version", "workingDirectory": "", "id": " ", "force": false, "sources": [], "unset": null
        });
        assert_eq!(checked(filled, false), Ok(Act::Version));
        for value in [json!(true), json!("x"), json!(["a"]), json!(0)] {
            let args = json!({ "action": "Version", "force": value });
            assert_eq!(checked(args, false).unwrap_err().1, "force", "{value} asks for something");
        }
    }

    #[test]
    fn required_parameters_must_hold_more_than_a_default() {
        let (code, parameter, reason) = checked(json!({ "action": "Install", "id": "" }), false).unwrap_err();
        assert_eq!((code.as_str(), parameter.as_str(), reason.as_str()), ("INVALID_PARAMS", "id", "required"));
        assert_eq!(checked(json!({ "action": "Install", "id": "x", "force": true }), false), Ok(Act::Install));
    }

    #[test]
    fn stray_parameters_name_what_the_action_takes() {
        let declaration = declaration();
        let args = json!({ "action": "Version", "id": "x" });
        let error = check(&declaration, false, &Params::new(&args)).unwrap_err();
        assert_eq!(
            error.errors[0].message,
            "Invalid argument 'id': does not apply to action 'Version', which takes: no other parameters."
        );
    }

    #[test]
    fn unknown_actions_list_the_offered_ones_and_a_read_only_server_refuses_changes() {
        let declaration = declaration();
        let args = json!({ "action": "Deploy" });
        let error = check(&declaration, true, &Params::new(&args)).unwrap_err();
        assert!(error.errors[0].message.ends_with("Valid actions: Version."), "{}", error.errors[0].message);
        let (code, _, _) = checked(json!({ "action": "Install", "id": "x" }), true).unwrap_err();
        assert_eq!(code, "READ_ONLY");
        let args = json!({ "action": "Install", "id": "x" });
        let error = &check(&declaration, true, &Params::new(&args)).unwrap_err().errors[0];
        assert_eq!(error.category, crate::errors::ErrorCategory::Capability);
        assert_eq!(error.mcp_error_code, Some(-32001));
        assert!(error.message.contains("read-only") && error.message.contains("Version"), "{}", error.message);
        assert_eq!(checked(json!({ "action": "Version" }), true), Ok(Act::Version));
        assert_eq!(checked(json!({}), false).unwrap_err().2, "required");
    }
}
