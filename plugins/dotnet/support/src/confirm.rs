//! Asking the user before a destructive action (dropping a database, removing a migration,
//! clearing secrets or certificates, uninstalling), through the client's elicitation.
//!
//! [`confirm`] sends a one-field form (`confirm`, a boolean). The action goes ahead only when the
//! user accepts and does not untick the box (an accepted form without content counts as yes, for
//! clients that only show accept and decline). Decline, cancel, an unticked box, or a client that
//! claims elicitation but fails to answer all refuse the action: when a question was asked and
//! no clear yes came back, nothing runs. A client without elicitation gets
//! [`Confirmation::NotAsked`], and the plugin applies its own rule (the tool's `destructiveHint`
//! is the client's cue to ask before the call; some actions also want an explicit parameter).

use std::collections::BTreeMap;

use mcp_plugin_api::{CallContext, ClientError};
use serde_json::{Value, json};

use crate::errors::{ErrorData, ErrorResponse, ErrorResult, code};

/// What came of asking the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// The user said yes.
    Confirmed,
    /// The user did not say yes; the reason says how (`declined`, `cancelled`, `not confirmed`,
    /// or why the request failed).
    Refused(String),
    /// The client cannot be asked (it declared no elicitation capability).
    NotAsked,
}

/// Asks the user to confirm `message` (one or two sentences saying what will be destroyed).
pub async fn confirm(ctx: &CallContext, message: &str) -> Confirmation {
    let schema = json!({
        "type": "object",
        "properties": {
            "confirm": {
                "type": "boolean",
                "title": "Confirm",
                "description": "Tick to go ahead; this cannot be undone.",
                "default": false
            }
        },
        "required": ["confirm"]
    });
    match ctx.elicit(message, schema).await {
        Ok(answer) if answer.accepted() => {
            match answer.content.as_ref().and_then(|content| content.get("confirm")).and_then(Value::as_bool) {
                Some(false) => Confirmation::Refused("not confirmed".to_owned()),
                Some(true) | None => Confirmation::Confirmed,
            }
        }
        Ok(answer) if answer.action == "cancel" => Confirmation::Refused("cancelled".to_owned()),
        Ok(_) => Confirmation::Refused("declined".to_owned()),
        Err(ClientError::Unsupported(_)) => Confirmation::NotAsked,
        Err(ClientError::Failed(reason)) => Confirmation::Refused(format!("the confirmation request failed: {reason}")),
    }
}

/// The refusal of `operation` on `target` the user did not confirm: OPERATION_CANCELLED
/// (category Cancellation), exit code -1 (nothing ran), `additionalData {operation, target,
/// reason}`.
pub fn refused(operation: &str, target: &str, reason: &str) -> ErrorResponse {
    let message = format!(
        "'{operation}' on '{target}' was not run: the user did not confirm it ({reason}). Nothing was changed."
    );
    let additional: BTreeMap<String, String> = [("operation", operation), ("target", target), ("reason", reason)]
        .into_iter()
        .map(|(key, value)| (key.to_owned(), crate::redact::redact(value).into_owned()))
        .collect();
    ErrorResponse::from(
        ErrorResult::new(code::OPERATION_CANCELLED, &message)
            .with_hint("Run it again only if the user asks for it explicitly.")
            .with_data(ErrorData { exit_code: Some(-1), additional_data: Some(additional), ..ErrorData::default() }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_plugin_api::testkit::TestCall;

    fn answered(answer: Result<Value, ClientError>) -> Confirmation {
        let call = TestCall::new().with_client(move |method, params| {
            assert_eq!(method, "elicitation/create");
            assert_eq!(params["message"], "Drop the database?");
            assert_eq!(params["requestedSchema"]["required"], json!(["confirm"]));
            answer.clone()
        });
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(confirm(&call.context(), "Drop the database?"))
    }

    #[test]
    fn only_a_clear_yes_confirms() {
        assert_eq!(
            answered(Ok(json!({ "action": "accept", "content": { "confirm": true } }))),
            Confirmation::Confirmed
        );
        assert_eq!(answered(Ok(json!({ "action": "accept" }))), Confirmation::Confirmed);
        assert_eq!(
            answered(Ok(json!({ "action": "accept", "content": { "confirm": false } }))),
            Confirmation::Refused("not confirmed".into())
        );
        assert_eq!(answered(Ok(json!({ "action": "decline" }))), Confirmation::Refused("declined".into()));
        assert_eq!(answered(Ok(json!({ "action": "cancel" }))), Confirmation::Refused("cancelled".into()));
        assert_eq!(answered(Err(ClientError::Unsupported("elicitation".into()))), Confirmation::NotAsked);
        let failed = answered(Err(ClientError::Failed("timeout".into())));
        assert_eq!(failed, Confirmation::Refused("the confirmation request failed: timeout".into()));
    }

    #[test]
    fn a_client_without_elicitation_is_not_asked() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        assert_eq!(runtime.block_on(confirm(&TestCall::new().context(), "x")), Confirmation::NotAsked);
    }

    #[test]
    fn a_refusal_is_a_cancellation_that_names_the_operation() {
        let error = &refused("DatabaseDrop", "/src/App/App.csproj", "declined").errors[0];
        assert_eq!((error.code.as_str(), error.mcp_error_code), ("OPERATION_CANCELLED", Some(-32603)));
        assert!(error.message.contains("DatabaseDrop") && error.message.contains("declined"), "{}", error.message);
        let data = error.data.as_ref().unwrap();
        assert_eq!(data.exit_code, Some(-1));
        assert_eq!(data.additional_data.as_ref().unwrap()["reason"], "declined");
    }
}
