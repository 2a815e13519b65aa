//! The sample plugin: three small tools that show, in the fewest lines, how
//! a plugin returns structured output, reports progress and honours
//! cancellation, and reads its configuration and logs.

use std::time::Duration;

use mcp_plugin_api::{CallContext, PluginContext, Tool, ToolError, ToolOutcome, ToolResult, ToolSpec, export_plugin};
use serde_json::{Value, json};

export_plugin! {
    name: "sample",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: settings_schema(),
    tools: |ctx| Ok(vec![Echo.into(), Countdown.into(), Greeter::new(ctx)?.into()]),
}

/// The JSON Schema of `Plugins.Settings.sample`, which `mcp-plugin-host check` validates: the
/// settings [`Greeter::new`] reads, and no others.
pub fn settings_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "Greeting": { "type": "string", "description": "What the greet tool says before the name (default: Hello)." }
        },
        "additionalProperties": false
    })
}

/// Returns its input, as text for the model and as structured content.
pub struct Echo;

impl Tool for Echo {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new("echo", "Returns the text it is given, unchanged, with its length.")
            .title("Echo")
            .input_schema(json!({
                "type": "object",
                "properties": { "text": { "type": "string", "description": "The text to return." } },
                "required": ["text"],
                "additionalProperties": false
            }))
            .output_schema(json!({
                "type": "object",
                "properties": {
                    "text": { "type": "string" },
                    "length": { "type": "integer", "minimum": 0 }
                },
                "required": ["text", "length"]
            }))
            .read_only(true)
            .idempotent(true)
            .open_world(false)
    }

    async fn call(&self, args: Value, _ctx: CallContext) -> ToolOutcome {
        let text = args["text"].as_str().unwrap_or_default();
        Ok(ToolResult::text(text).with_structured(json!({ "text": text, "length": text.chars().count() })))
    }
}

/// Counts down, one step per interval, reporting progress; stops early
/// when the call is cancelled.
pub struct Countdown;

impl Tool for Countdown {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "countdown",
            "Counts down from `steps` to zero, waiting `intervalMs` between steps and reporting progress. \
             Stops early when cancelled.",
        )
        .title("Countdown")
        .input_schema(json!({
            "type": "object",
            "properties": {
                "steps": { "type": "integer", "minimum": 1, "maximum": 10000 },
                "intervalMs": { "type": "integer", "minimum": 0, "maximum": 60000, "default": 100 }
            },
            "required": ["steps"],
            "additionalProperties": false
        }))
        .output_schema(json!({
            "type": "object",
            "properties": {
                "completed": { "type": "integer" },
                "cancelled": { "type": "boolean" }
            },
            "required": ["completed", "cancelled"]
        }))
        .read_only(true)
        .open_world(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let steps = args["steps"].as_u64().unwrap_or(1);
        let interval = Duration::from_millis(args["intervalMs"].as_u64().unwrap_or(100));
        let mut completed = 0;
        while completed < steps {
            tokio::select! {
                _ = ctx.cancelled() => break,
                _ = tokio::time::sleep(interval) => {}
            }
            completed += 1;
            let left = steps - completed;
            ctx.progress(completed as f64, Some(steps as f64), Some(&format!("{left} to go")));
        }
        let cancelled = completed < steps;
        let text = if cancelled {
            format!("Cancelled after {completed} of {steps} steps.")
        } else {
            format!("Counted down {steps} steps.")
        };
        Ok(ToolResult::text(text).with_structured(json!({ "completed": completed, "cancelled": cancelled })))
    }
}

/// Greets by a configured greeting, and logs each greeting.
pub struct Greeter {
    greeting: String,
}

impl Greeter {
    /// Reads `Greeting` from the plugin's section (default "Hello"); a
    /// greeting that is not a string refuses the plugin with a clear message.
    pub fn new(ctx: &PluginContext) -> Result<Self, mcp_plugin_api::InitError> {
        let greeting = ctx.setting::<String>("Greeting")?.unwrap_or_else(|| "Hello".to_owned());
        ctx.logger().info(format!("greeter ready with greeting '{greeting}'"));
        Ok(Self { greeting })
    }
}

impl Tool for Greeter {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new("greet", "Greets a person by name with the greeting the operator configured.")
            .title("Greet")
            .input_schema(json!({
                "type": "object",
                "properties": { "name": { "type": "string", "minLength": 1 } },
                "required": ["name"],
                "additionalProperties": false
            }))
            .read_only(true)
            .idempotent(true)
            .open_world(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let name = args["name"].as_str().ok_or_else(|| ToolError::invalid_argument("name", "must be a string"))?;
        ctx.logger().info(format!("greeting {name}"));
        Ok(ToolResult::text(format!("{}, {name}!", self.greeting)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_plugin_api::testkit::{TestCall, TestPluginContext, settings_problems};

    #[test]
    fn echo_returns_text_and_structured_content() {
        let result = TestCall::new().run(&Echo, json!({ "text": "héllo" }));
        assert_eq!(result.joined_text(), "héllo");
        assert_eq!(result.structured_content, Some(json!({ "text": "héllo", "length": 5 })));
    }

    #[test]
    fn countdown_reports_each_step() {
        let call = TestCall::new();
        let result = call.run(&Countdown, json!({ "steps": 3, "intervalMs": 1 }));
        assert_eq!(result.structured_content, Some(json!({ "completed": 3, "cancelled": false })));
        let progress: Vec<f64> = call.progress().iter().map(|report| report.progress).collect();
        assert_eq!(progress, vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn countdown_stops_when_cancelled() {
        let call = TestCall::new();
        call.cancel_handle().cancel();
        let result = call.run(&Countdown, json!({ "steps": 1000, "intervalMs": 1000 }));
        assert_eq!(result.structured_content, Some(json!({ "completed": 0, "cancelled": true })));
    }

    #[test]
    fn greeter_uses_the_configured_greeting_and_logs() {
        let plugin = TestPluginContext::new(json!({ "Greeting": "Hej" }), Default::default());
        let greeter = Greeter::new(plugin.context()).unwrap();
        let call = TestCall::new();
        assert_eq!(call.run(&greeter, json!({ "name": "Ada" })).joined_text(), "Hej, Ada!");
        assert_eq!(call.logs().len(), 1);
        assert_eq!(plugin.logs().len(), 1);
    }

    #[test]
    fn the_greeting_key_is_read_whatever_its_case_as_check_accepts_it() {
        let plugin = TestPluginContext::new(json!({ "greeting": "Hej" }), Default::default());
        let greeter = Greeter::new(plugin.context()).unwrap();
        assert_eq!(TestCall::new().run(&greeter, json!({ "name": "Ada" })).joined_text(), "Hej, Ada!");
        assert!(settings_problems(&super::settings_schema(), &json!({ "greeting": "Hej" })).is_empty());
    }

    #[test]
    fn the_settings_schema_accepts_what_the_greeter_reads_and_names_what_it_does_not() {
        let schema = super::settings_schema();
        assert!(settings_problems(&schema, &json!({ "Greeting": "Hej" })).is_empty());
        assert_eq!(
            settings_problems(&schema, &json!({ "Greeting": 42, "Greting": "Hej" })),
            [
                "Invalid setting 'Greeting': 42 is not of type \"string\"",
                "Invalid setting 'Greting': is not a setting of this plugin"
            ]
        );
    }

    #[test]
    fn greeter_refuses_a_greeting_that_is_not_text() {
        let plugin = TestPluginContext::new(json!({ "Greeting": 42 }), Default::default());
        let error = Greeter::new(plugin.context()).err().unwrap().to_string();
        assert!(error.contains("Greeting"), "{error}");
    }
}
