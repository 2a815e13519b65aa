//! Tools that ask the client for something while they run: a completion
//! from its model (`sampling/createMessage`) or input from its user
//! (`elicitation/create`, form mode).

use mcp_plugin_api::{CallContext, ClientError, ElicitResponse, Tool, ToolError, ToolOutcome, ToolResult, ToolSpec};
use serde_json::{Value, json};

use crate::fixture;

/// The most tokens a sampling request lets the client's model generate.
const MAX_TOKENS: u64 = 100;

/// Sends its `prompt` to the client's model and returns the answer
/// (`tools-call-sampling`).
pub struct TestSampling;

impl Tool for TestSampling {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_sampling",
            "Sampling",
            "Asks the client's model to answer the prompt (sampling/createMessage, at most 100 \
             tokens) and returns the model's text. Fails if the client does not support sampling.",
        )
        .input_schema(json!({
            "type": "object",
            "properties": {
                "prompt": { "type": "string", "description": "The prompt to send to the client's model." }
            },
            "required": ["prompt"],
            "additionalProperties": false
        }))
        .idempotent(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let prompt =
            args["prompt"].as_str().ok_or_else(|| ToolError::invalid_argument("prompt", "must be a string"))?;
        let answer = ctx
            .sample(json!({
                "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
                "maxTokens": MAX_TOKENS
            }))
            .await
            .map_err(|error| client_error("sampling", error))?;
        Ok(ToolResult::text(format!("LLM response: {}", sampled_text(&answer))))
    }
}

/// The text of a `sampling/createMessage` answer, whose `content` is one
/// block or an array of blocks.
fn sampled_text(answer: &Value) -> String {
    let content = &answer["content"];
    let blocks = match content {
        Value::Array(blocks) => blocks.iter().collect(),
        block => vec![block],
    };
    let texts: Vec<&str> =
        blocks.into_iter().filter(|block| block["type"] == "text").filter_map(|block| block["text"].as_str()).collect();
    if texts.is_empty() { format!("(no text; the model answered {content})") } else { texts.join("\n") }
}

/// Asks the user for a username and an email address with the given
/// `message` (`tools-call-elicitation`).
pub struct TestElicitation;

impl Tool for TestElicitation {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_elicitation",
            "Elicitation",
            "Asks the user, through the client, for a username and an email address \
             (elicitation/create) with the given message, and returns what the user did and \
             entered. Fails if the client does not support elicitation.",
        )
        .input_schema(json!({
            "type": "object",
            "properties": {
                "message": { "type": "string", "description": "The message to show the user." }
            },
            "required": ["message"],
            "additionalProperties": false
        }))
        .idempotent(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let message =
            args["message"].as_str().ok_or_else(|| ToolError::invalid_argument("message", "must be a string"))?;
        let schema = json!({
            "type": "object",
            "properties": {
                "username": { "type": "string", "description": "User's response" },
                "email": { "type": "string", "description": "User's email address" }
            },
            "required": ["username", "email"]
        });
        let response = elicit(&ctx, message, schema).await?;
        Ok(ToolResult::text(format!("User response: {}", describe(&response))))
    }
}

/// Asks the user to review a form whose five fields all have defaults, one
/// per primitive type (`elicitation-sep1034-defaults`).
pub struct TestElicitationSep1034Defaults;

impl Tool for TestElicitationSep1034Defaults {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_elicitation_sep1034_defaults",
            "Elicitation with defaults (SEP-1034)",
            "Asks the user, through the client, to review a form whose string, integer, number, \
             enum and boolean fields all have default values (elicitation/create), and returns \
             what the user did and entered. Fails if the client does not support elicitation. \
             Takes no arguments.",
        )
        .idempotent(false)
    }

    async fn call(&self, _args: Value, ctx: CallContext) -> ToolOutcome {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "Your full name", "default": "John Doe" },
                "age": { "type": "integer", "description": "Your age in years", "default": 30 },
                "score": { "type": "number", "description": "Your test score", "default": 95.5 },
                "status": {
                    "type": "string",
                    "description": "Your account status",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active"
                },
                "verified": {
                    "type": "boolean",
                    "description": "Whether your account is verified",
                    "default": true
                }
            }
        });
        let message = "Please review and update the form fields with defaults";
        let response = elicit(&ctx, message, schema).await?;
        Ok(ToolResult::text(format!("Elicitation completed: {}", describe(&response))))
    }
}

/// Asks the user to fill a form with the five enum forms: untitled and
/// titled single choice, legacy `enumNames`, untitled and titled multiple
/// choice (`elicitation-sep1330-enums`).
pub struct TestElicitationSep1330Enums;

impl Tool for TestElicitationSep1330Enums {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_elicitation_sep1330_enums",
            "Elicitation with enums (SEP-1330)",
            "Asks the user, through the client, to choose from five enum fields: single choice \
             with and without titles, legacy enumNames, and multiple choice with and without \
             titles (elicitation/create); returns what the user did and chose. Fails if the \
             client does not support elicitation. Takes no arguments.",
        )
        .idempotent(false)
    }

    async fn call(&self, _args: Value, ctx: CallContext) -> ToolOutcome {
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string",
                    "description": "Choose one option",
                    "enum": ["option1", "option2", "option3"]
                },
                "titledSingle": {
                    "type": "string",
                    "description": "Choose one titled option",
                    "oneOf": [
                        { "const": "value1", "title": "First Option" },
                        { "const": "value2", "title": "Second Option" },
                        { "const": "value3", "title": "Third Option" }
                    ]
                },
                "legacyEnum": {
                    "type": "string",
                    "description": "Choose one option (legacy enumNames)",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"]
                },
                "untitledMulti": {
                    "type": "array",
                    "description": "Choose any options",
                    "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
                },
                "titledMulti": {
                    "type": "array",
                    "description": "Choose any titled options",
                    "items": {
                        "anyOf": [
                            { "const": "value1", "title": "First Choice" },
                            { "const": "value2", "title": "Second Choice" },
                            { "const": "value3", "title": "Third Choice" }
                        ]
                    }
                }
            }
        });
        let message = "Please select options from the enum fields";
        let response = elicit(&ctx, message, schema).await?;
        Ok(ToolResult::text(format!("Elicitation completed: {}", describe(&response))))
    }
}

/// Sends `elicitation/create` in form mode and turns a failure into an
/// error the model can read.
async fn elicit(ctx: &CallContext, message: &str, schema: Value) -> Result<ElicitResponse, ToolError> {
    ctx.elicit(message, schema).await.map_err(|error| client_error("elicitation", error))
}

/// What the user did, and what they entered when there is content.
fn describe(response: &ElicitResponse) -> String {
    match &response.content {
        Some(content) => format!("action={}, content={content}", response.action),
        None => format!("action={}", response.action),
    }
}

/// Explains why a request to the client produced no answer.
fn client_error(feature: &str, error: ClientError) -> ToolError {
    match error {
        ClientError::Unsupported(_) => ToolError::new(format!(
            "The client does not support {feature}, which this tool needs: connect with a client \
             that declares the {feature} capability."
        )),
        ClientError::Failed(message) => {
            ToolError::new(format!("The {feature} request to the client failed: {message}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use mcp_plugin_api::testkit::TestCall;

    /// The requests a test client received: method and params.
    type Requests = Arc<Mutex<Vec<(String, Value)>>>;

    /// A call whose client records every request and answers `answer`.
    fn client_answering(answer: Value) -> (TestCall, Requests) {
        let requests = Requests::default();
        let seen = Arc::clone(&requests);
        let call = TestCall::new().with_client(move |method, params| {
            seen.lock().unwrap().push((method.to_owned(), params));
            Ok(answer.clone())
        });
        (call, requests)
    }

    /// The one request the client received.
    fn only_request(requests: &Requests) -> (String, Value) {
        let requests = requests.lock().unwrap();
        assert_eq!(requests.len(), 1, "{requests:?}");
        requests[0].clone()
    }

    /// The JSON after `prefix` in a result's text.
    fn json_after(text: &str, prefix: &str) -> Value {
        let rest = text.strip_prefix(prefix).unwrap_or_else(|| panic!("{text:?} lacks {prefix:?}"));
        serde_json::from_str(rest).unwrap()
    }

    #[test]
    fn sampling_sends_the_prompt_and_returns_the_answer() {
        let (call, requests) = client_answering(json!({
            "role": "assistant",
            "content": { "type": "text", "text": "This is a test response from the client" },
            "model": "test-model",
            "stopReason": "endTurn"
        }));
        let result = call.run(&TestSampling, json!({ "prompt": "Test prompt for sampling" }));
        assert_eq!(
            only_request(&requests),
            (
                "sampling/createMessage".to_owned(),
                json!({
                    "messages": [{ "role": "user", "content": { "type": "text", "text": "Test prompt for sampling" } }],
                    "maxTokens": 100
                })
            )
        );
        assert!(!result.is_error);
        assert_eq!(result.joined_text(), "LLM response: This is a test response from the client");
    }

    #[test]
    fn sampling_reads_answers_with_several_blocks_or_none_in_text() {
        let (call, _) = client_answering(json!({
            "role": "assistant",
            "content": [{ "type": "text", "text": "one" }, { "type": "text", "text": "two" }],
            "model": "test-model"
        }));
        let result = call.run(&TestSampling, json!({ "prompt": "p" }));
        assert_eq!(result.joined_text(), "LLM response: one\ntwo");

        let (call, _) = client_answering(json!({
            "role": "assistant",
            "content": { "type": "image", "data": "AAAA", "mimeType": "image/png" },
            "model": "test-model"
        }));
        let result = call.run(&TestSampling, json!({ "prompt": "p" }));
        assert!(!result.is_error);
        assert!(result.joined_text().starts_with("LLM response: (no text;"), "{}", result.joined_text());
    }

    #[test]
    fn sampling_without_the_capability_is_an_error_result() {
        let result = TestCall::new().run(&TestSampling, json!({ "prompt": "Test prompt for sampling" }));
        assert!(result.is_error);
        assert!(result.joined_text().contains("does not support sampling"), "{}", result.joined_text());
    }

    #[test]
    fn a_failed_client_request_is_an_error_result() {
        let call =
            TestCall::new().with_client(|_, _| Err(ClientError::Failed("the user closed the dialog".to_owned())));
        let result = call.run(&TestSampling, json!({ "prompt": "p" }));
        assert!(result.is_error);
        assert_eq!(result.joined_text(), "The sampling request to the client failed: the user closed the dialog");
    }

    #[test]
    fn elicitation_asks_for_username_and_email_with_the_given_message() {
        let (call, requests) = client_answering(json!({
            "action": "accept",
            "content": { "username": "testuser", "email": "test@example.com" }
        }));
        let result = call.run(&TestElicitation, json!({ "message": "Please provide your information" }));
        assert_eq!(
            only_request(&requests),
            (
                "elicitation/create".to_owned(),
                json!({
                    "message": "Please provide your information",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "username": { "type": "string", "description": "User's response" },
                            "email": { "type": "string", "description": "User's email address" }
                        },
                        "required": ["username", "email"]
                    }
                })
            )
        );
        assert!(!result.is_error);
        assert_eq!(
            json_after(&result.joined_text(), "User response: action=accept, content="),
            json!({ "username": "testuser", "email": "test@example.com" })
        );
    }

    #[test]
    fn a_declined_elicitation_says_so() {
        let (call, _) = client_answering(json!({ "action": "decline" }));
        let result = call.run(&TestElicitation, json!({ "message": "m" }));
        assert!(!result.is_error);
        assert_eq!(result.joined_text(), "User response: action=decline");
    }

    #[test]
    fn sep1034_asks_for_five_fields_with_defaults() {
        let (call, requests) = client_answering(json!({
            "action": "accept",
            "content": { "name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false }
        }));
        let result = call.run(&TestElicitationSep1034Defaults, json!({}));
        let (method, params) = only_request(&requests);
        assert_eq!(method, "elicitation/create");
        assert_eq!(params["message"], "Please review and update the form fields with defaults");
        assert_eq!(params["requestedSchema"]["type"], "object");
        let properties = &params["requestedSchema"]["properties"];
        assert_eq!(properties.as_object().unwrap().len(), 5);
        for (field, expected) in [
            ("name", json!({ "type": "string", "default": "John Doe" })),
            ("age", json!({ "type": "integer", "default": 30 })),
            ("score", json!({ "type": "number", "default": 95.5 })),
            ("status", json!({ "type": "string", "enum": ["active", "inactive", "pending"], "default": "active" })),
            ("verified", json!({ "type": "boolean", "default": true })),
        ] {
            let mut actual = properties[field].clone();
            let description = actual.as_object_mut().unwrap().remove("description");
            assert!(description.is_some_and(|text| text.as_str().is_some_and(|text| !text.is_empty())));
            assert_eq!(actual, expected, "{field}");
        }
        assert!(!result.is_error);
        assert_eq!(
            json_after(&result.joined_text(), "Elicitation completed: action=accept, content="),
            json!({ "name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false })
        );
    }

    #[test]
    fn sep1330_asks_with_the_five_enum_forms() {
        let (call, requests) = client_answering(json!({
            "action": "accept",
            "content": {
                "untitledSingle": "option1",
                "titledSingle": "value1",
                "legacyEnum": "opt1",
                "untitledMulti": ["option1", "option2"],
                "titledMulti": ["value1", "value2"]
            }
        }));
        let result = call.run(&TestElicitationSep1330Enums, json!({}));
        let (method, params) = only_request(&requests);
        assert_eq!(method, "elicitation/create");
        assert!(!params["message"].as_str().unwrap().is_empty());
        assert_eq!(params["requestedSchema"]["type"], "object");
        let properties = &params["requestedSchema"]["properties"];
        assert_eq!(properties.as_object().unwrap().len(), 5);
        for (field, expected) in [
            ("untitledSingle", json!({ "type": "string", "enum": ["option1", "option2", "option3"] })),
            (
                "titledSingle",
                json!({ "type": "string", "oneOf": [
                    { "const": "value1", "title": "First Option" },
                    { "const": "value2", "title": "Second Option" },
                    { "const": "value3", "title": "Third Option" }
                ] }),
            ),
            (
                "legacyEnum",
                json!({
                    "type": "string",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"]
                }),
            ),
            (
                "untitledMulti",
                json!({ "type": "array", "items": { "type": "string", "enum": ["option1", "option2", "option3"] } }),
            ),
            (
                "titledMulti",
                json!({ "type": "array", "items": { "anyOf": [
                    { "const": "value1", "title": "First Choice" },
                    { "const": "value2", "title": "Second Choice" },
                    { "const": "value3", "title": "Third Choice" }
                ] } }),
            ),
        ] {
            let mut actual = properties[field].clone();
            let description = actual.as_object_mut().unwrap().remove("description");
            assert!(description.is_some_and(|text| text.as_str().is_some_and(|text| !text.is_empty())));
            assert_eq!(actual, expected, "{field}");
        }
        assert!(!result.is_error);
        assert_eq!(
            json_after(&result.joined_text(), "Elicitation completed: action=accept, content="),
            json!({
                "untitledSingle": "option1",
                "titledSingle": "value1",
                "legacyEnum": "opt1",
                "untitledMulti": ["option1", "option2"],
                "titledMulti": ["value1", "value2"]
            })
        );
    }

    #[test]
    fn elicitation_without_the_capability_is_an_error_result() {
        let message = json!({ "message": "Please provide your information" });
        for result in [
            TestCall::new().run(&TestElicitation, message),
            TestCall::new().run(&TestElicitationSep1034Defaults, json!({})),
            TestCall::new().run(&TestElicitationSep1330Enums, json!({})),
        ] {
            assert!(result.is_error);
            assert!(result.joined_text().contains("does not support elicitation"), "{}", result.joined_text());
        }
    }
}
