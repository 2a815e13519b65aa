//! The prompts the conformance suite gets by name (prompts-get-* scenarios)
//! and the completion of `test_prompt_with_arguments` (completion-complete).

use mcp_plugin_api::{Content, Prompt, PromptArgument, PromptMessage, PromptResult, PromptSpec, ToolError};
use serde_json::{Map, Value};

use crate::IMAGE_PNG_BASE64;

/// A prompt without arguments.
pub struct TestSimplePrompt;

impl Prompt for TestSimplePrompt {
    fn spec(&self) -> PromptSpec {
        PromptSpec::new("test_simple_prompt", "A simple prompt without arguments.").title("Simple prompt")
    }

    async fn get(&self, _arguments: Map<String, Value>) -> Result<PromptResult, ToolError> {
        Ok(PromptResult::new(vec![PromptMessage::user(Content::text("This is a simple prompt for testing."))]))
    }
}

/// A prompt with two required arguments, whose values appear in its text.
pub struct TestPromptWithArguments;

impl Prompt for TestPromptWithArguments {
    fn spec(&self) -> PromptSpec {
        PromptSpec::new("test_prompt_with_arguments", "A prompt that repeats its two arguments.")
            .title("Prompt with arguments")
            .argument(PromptArgument::required("arg1", "First test argument"))
            .argument(PromptArgument::required("arg2", "Second test argument"))
    }

    async fn get(&self, arguments: Map<String, Value>) -> Result<PromptResult, ToolError> {
        let value = |name: &str| arguments.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
        let text = format!("Prompt with arguments: arg1='{}', arg2='{}'", value("arg1"), value("arg2"));
        Ok(PromptResult::new(vec![PromptMessage::user(Content::text(text))]))
    }

    fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        let candidates: &[&str] = match argument {
            "arg1" => &["test", "testValue1", "other"],
            "arg2" => &["testValue2", "second"],
            _ => &[],
        };
        candidates
            .iter()
            .filter(|candidate| candidate.starts_with(value))
            .map(|candidate| candidate.to_string())
            .collect()
    }
}

/// A prompt that embeds the resource named by its argument.
pub struct TestPromptWithEmbeddedResource;

impl Prompt for TestPromptWithEmbeddedResource {
    fn spec(&self) -> PromptSpec {
        PromptSpec::new("test_prompt_with_embedded_resource", "A prompt that embeds a resource.")
            .title("Prompt with an embedded resource")
            .argument(PromptArgument::required("resourceUri", "URI of the resource to embed"))
    }

    async fn get(&self, arguments: Map<String, Value>) -> Result<PromptResult, ToolError> {
        let uri = arguments.get("resourceUri").and_then(Value::as_str).unwrap_or("test://example-resource");
        Ok(PromptResult::new(vec![
            PromptMessage::user(Content::embedded_text(uri, "text/plain", "Embedded resource content for testing.")),
            PromptMessage::user(Content::text("Please process the embedded resource above.")),
        ]))
    }
}

/// A prompt with an image.
pub struct TestPromptWithImage;

impl Prompt for TestPromptWithImage {
    fn spec(&self) -> PromptSpec {
        PromptSpec::new("test_prompt_with_image", "A prompt that shows an image.").title("Prompt with an image")
    }

    async fn get(&self, _arguments: Map<String, Value>) -> Result<PromptResult, ToolError> {
        Ok(PromptResult::new(vec![
            PromptMessage::user(Content::image(IMAGE_PNG_BASE64, "image/png")),
            PromptMessage::user(Content::text("Please analyze the image above.")),
        ]))
    }
}
