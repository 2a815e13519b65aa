//! The conformance plugin: the fixture tools that the official MCP
//! conformance suite (`@modelcontextprotocol/conformance`, server side)
//! calls by name.
//!
//! Each tool answers exactly one scenario of the suite's active set:
//!
//! | Tool | Scenario |
//! |---|---|
//! | `test_simple_text` | tools-call-simple-text |
//! | `test_image_content` | tools-call-image |
//! | `test_audio_content` | tools-call-audio |
//! | `test_embedded_resource` | tools-call-embedded-resource |
//! | `test_multiple_content_types` | tools-call-mixed-content |
//! | `test_error_handling` | tools-call-error |
//! | `test_tool_with_progress` | tools-call-with-progress |
//! | `test_tool_with_logging` | tools-call-with-logging |
//! | `test_sampling` | tools-call-sampling |
//! | `test_elicitation` | tools-call-elicitation |
//! | `test_elicitation_sep1034_defaults` | elicitation-sep1034-defaults |
//! | `test_elicitation_sep1330_enums` | elicitation-sep1330-enums |
//!
//! The suite calls the bare names above, so the host must expose this
//! plugin's tools under exactly these names, without a plugin prefix.
//!
//! The plugin also offers the prompts (`test_simple_prompt`,
//! `test_prompt_with_arguments`, `test_prompt_with_embedded_resource`,
//! `test_prompt_with_image`) and resources (`test://static-text`,
//! `test://static-binary`, `test://watched-resource`, the template
//! `test://template/{id}/data`) that the prompts-* and resources-*
//! scenarios ask for.

use mcp_plugin_api::{BoxedPrompt, BoxedResource, BoxedTool, ToolSpec, export_plugin};
use serde_json::json;

mod client;
mod content;
mod notifications;
mod prompts;
mod resources;

pub use client::{TestElicitation, TestElicitationSep1034Defaults, TestElicitationSep1330Enums, TestSampling};
pub use content::{
    AUDIO_WAV_BASE64, IMAGE_PNG_BASE64, TestAudioContent, TestEmbeddedResource, TestErrorHandling, TestImageContent,
    TestMultipleContentTypes, TestSimpleText,
};
pub use notifications::{TestToolWithLogging, TestToolWithProgress};
pub use prompts::{TestPromptWithArguments, TestPromptWithEmbeddedResource, TestPromptWithImage, TestSimplePrompt};
pub use resources::{StaticBinary, StaticText, TemplateData, WatchedResource};

export_plugin! {
    name: "conformance",
    version: env!("CARGO_PKG_VERSION"),
    tools: |_ctx| Ok(tools()),
    prompts: |_ctx| Ok(prompts()),
    resources: |_ctx| Ok(resources()),
}

/// Every prompt of the plugin.
pub fn prompts() -> Vec<BoxedPrompt> {
    vec![
        TestSimplePrompt.into(),
        TestPromptWithArguments.into(),
        TestPromptWithEmbeddedResource.into(),
        TestPromptWithImage.into(),
    ]
}

/// Every resource of the plugin.
pub fn resources() -> Vec<BoxedResource> {
    vec![StaticText.into(), StaticBinary.into(), WatchedResource.into(), TemplateData.into()]
}

/// Every tool of the plugin, in the order the conformance spec lists them.
pub fn tools() -> Vec<BoxedTool> {
    vec![
        TestSimpleText.into(),
        TestImageContent.into(),
        TestAudioContent.into(),
        TestEmbeddedResource.into(),
        TestMultipleContentTypes.into(),
        TestErrorHandling.into(),
        TestToolWithProgress.into(),
        TestToolWithLogging.into(),
        TestSampling.into(),
        TestElicitation.into(),
        TestElicitationSep1034Defaults.into(),
        TestElicitationSep1330Enums.into(),
    ]
}

/// The description of a fixture tool that takes no arguments, reads and
/// changes nothing outside the call, and gives the same answer every time.
/// Tools that differ override the schema or the hints.
fn fixture(name: &str, title: &str, description: &str) -> ToolSpec {
    ToolSpec::new(name, description)
        .title(title)
        .input_schema(json!({
            "type": "object",
            "properties": {},
            "additionalProperties": false
        }))
        .read_only(true)
        .idempotent(true)
        .open_world(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn listed() -> Vec<Value> {
        tools().iter().map(|tool| serde_json::to_value(tool.spec()).unwrap()).collect()
    }

    #[test]
    fn lists_exactly_the_tools_the_suite_calls() {
        let names: Vec<String> = listed().iter().map(|spec| spec["name"].as_str().unwrap().to_owned()).collect();
        assert_eq!(
            names,
            [
                "test_simple_text",
                "test_image_content",
                "test_audio_content",
                "test_embedded_resource",
                "test_multiple_content_types",
                "test_error_handling",
                "test_tool_with_progress",
                "test_tool_with_logging",
                "test_sampling",
                "test_elicitation",
                "test_elicitation_sep1034_defaults",
                "test_elicitation_sep1330_enums",
            ]
        );
    }

    #[test]
    fn every_tool_passes_the_tools_list_checks() {
        for spec in listed() {
            let name = spec["name"].as_str().unwrap();
            assert!(
                (1..=128).contains(&name.len())
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')),
                "{name}"
            );
            assert!(!spec["description"].as_str().unwrap().is_empty(), "{name}");
            assert!(!spec["title"].as_str().unwrap().is_empty(), "{name}");
            assert_eq!(spec["inputSchema"]["type"], "object", "{name}");
            let properties = spec["inputSchema"]["properties"].as_object().unwrap();
            assert!(properties.values().all(Value::is_object), "{name}");
            assert_eq!(spec["annotations"]["readOnlyHint"], true, "{name}");
            assert_eq!(spec["annotations"]["openWorldHint"], false, "{name}");
            assert!(spec.get("outputSchema").is_none(), "{name}");
        }
    }

    #[test]
    fn only_sampling_and_elicitation_take_arguments() {
        for spec in listed() {
            let required = spec["inputSchema"].get("required").cloned();
            let expected = match spec["name"].as_str().unwrap() {
                "test_sampling" => Some(json!(["prompt"])),
                "test_elicitation" => Some(json!(["message"])),
                _ => None,
            };
            assert_eq!(required, expected, "{}", spec["name"]);
        }
    }

    #[test]
    fn answers_from_the_client_are_not_idempotent() {
        for spec in listed() {
            let name = spec["name"].as_str().unwrap();
            let asks_the_client = name == "test_sampling" || name.starts_with("test_elicitation");
            assert_eq!(spec["annotations"]["idempotentHint"], !asks_the_client, "{name}");
        }
    }
}
