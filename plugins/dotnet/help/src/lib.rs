//! The `dotnet_help` plugin: the help of any dotnet command, read-only.
//!
//! One tool, `dotnet_help`, with one optional parameter, `command`: the command and its
//! subcommands as words (`"tool install"`, `"ef migrations add"`, `"new console"`), checked against
//! the commands the SDK has (see [`commands`]) so nothing but command words reaches the command
//! line. It runs `dotnet <command...> --help`, or `dotnet --help` without a command. (The CLI's
//! `dotnet help <command>` opens a web page instead, so it is not used.)
//!
//! The help text is the reply for the model; the structured content carries the parts a program
//! can use: the usage lines, the description and the sections of options, arguments and
//! subcommands.

pub mod commands;
mod parse;

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::{self, Command},
    params::{Kind, Params},
    redact::redacted_command_line,
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace,
};
use mcp_plugin_api::{CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin};
use serde_json::{Value, json};

export_plugin! {
    name: "dotnet_help",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![DotnetHelp::new(ctx)?.into()]),
}

/// The `dotnet_help` tool.
pub struct DotnetHelp {
    settings: DotnetSettings,
}

impl DotnetHelp {
    /// Reads the dotnet settings of the plugin's section; a malformed setting refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { settings: DotnetSettings::from_context(ctx)? })
    }
}

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "command": {
                "type": "string",
                "maxLength": 200,
                "description": "The command and subcommands to explain, as words without options: \"build\", \"tool install\", \"ef migrations add\", \"new console\". Omit it for the list of all commands."
            },
            "workingDirectory": {
                "type": "string",
                "description": "Folder to run in; its global.json chooses the SDK (and so which help text) answers."
            }
        },
        "additionalProperties": false
    })
}

fn output_schema() -> Value {
    let entry = json!({
        "type": "object",
        "required": ["name", "description"],
        "properties": { "name": { "type": "string" }, "description": { "type": "string" } }
    });
    json!({
        "type": "object",
        "anyOf": [
            {
                "type": "object",
                "required": ["success", "command", "exitCode", "commandPath", "usage", "sections"],
                "properties": {
                    "success": { "const": true },
                    "command": { "type": "string", "description": "The dotnet command that ran." },
                    "exitCode": { "type": "integer" },
                    "commandPath": { "type": "array", "items": { "type": "string" }, "description": "The command words, as the CLI spells them." },
                    "description": { "type": "string" },
                    "usage": { "type": "array", "items": { "type": "string" } },
                    "sections": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["title", "entries"],
                            "properties": { "title": { "type": "string" }, "entries": { "type": "array", "items": entry } }
                        }
                    }
                }
            },
            dotnet_support::errors::error_response_schema()
        ]
    })
}

impl Tool for DotnetHelp {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_help",
            "Show the help of a dotnet command: its usage, options, arguments and subcommands. `command` is the \
             command and its subcommands as words, without options (\"build\", \"tool install\", \"ef migrations \
             add\", \"new console\"); omit it for the list of all dotnet commands. Read-only.",
        )
        .title(".NET CLI Help")
        .input_schema(input_schema())
        .output_schema(output_schema())
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        Ok(match self.execute(&args, &ctx).await {
            Ok(reply) => reply.into_result(presentation),
            Err(error) => respond::failure(error, None, presentation),
        })
    }
}

impl DotnetHelp {
    async fn execute(&self, args: &Value, ctx: &CallContext) -> Result<Reply, ErrorResponse> {
        let params = Params::new(args);
        let command = match params.raw("command") {
            None => None,
            Some(Value::String(command)) => Some(command.as_str()),
            Some(other) => {
                let message = format!("Parameter 'command' must be a string of command words, not {other}.");
                return Err(ErrorResult::invalid_params("command", "invalid type", &message).into());
            }
        };
        let words = commands::words(command)?;
        let cwd = workspace::working_directory(
            params.opt("workingDirectory", Kind::Path)?,
            self.settings.working_directory.as_deref(),
        )?;
        let mut argv = words.clone();
        argv.push("--help".to_owned());
        let shown = if words.is_empty() { "dotnet".to_owned() } else { format!("dotnet {}", words.join(" ")) };
        let command = Command::new(argv.clone(), &cwd, format!("reading the help of {shown}"));
        let ran = exec::run(&self.settings, ctx, command).await?;
        if !ran.succeeded() {
            return Err(ran.failure());
        }
        let text = ran.outcome.stdout.clone();
        let help = parse::parse(&text);
        let usage = help.usage.first().map(|usage| format!(" Usage: {usage}")).unwrap_or_default();
        let mut structured = json!({
            "success": true,
            "command": redacted_command_line("dotnet", &argv),
            "exitCode": ran.exit_code(),
            "commandPath": words,
            "usage": help.usage,
            "sections": help.sections
        });
        if let Some(description) = help.description {
            structured["description"] = json!(description);
        }
        Ok(Reply::new(format!("Help for '{shown}'.{usage}")).output(text).structured(structured))
    }
}
