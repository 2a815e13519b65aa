//! Help: the command words checked, `dotnet <words> --help` run, its text parsed.

use dotnet_support::{
    errors::ErrorResult,
    exec,
    kit::{Call, Outcome, Shape},
    redact::redacted_command_line,
    respond::Reply,
};
use serde_json::{Value, json};

use crate::{commands, parse};

/// The exit code of the dotnet host when it prints its own usage (`dotnet --help` without an SDK).
const HOST_USAGE_EXIT: i32 = 129;

/// The structured content of a help: the command words, usage lines, description and sections.
pub fn shape() -> Shape {
    let entry = json!({
        "type": "object",
        "required": ["name", "description"],
        "properties": { "name": { "type": "string" }, "description": { "type": "string" } }
    });
    Shape::new(
        json!({
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
        }),
        &["commandPath", "usage", "sections"],
    )
    .ran()
}

/// Runs the help of the `command` words.
pub async fn run(call: &Call<'_>) -> Outcome {
    let command = match call.params().raw("command") {
        None => None,
        Some(Value::String(command)) => Some(command.as_str()),
        Some(other) => {
            let message = format!("Invalid argument 'command': must be a string of command words, not {other}.");
            return Err(ErrorResult::invalid_params("command", "invalid type", &message).into());
        }
    };
    let words = commands::words(command)?;
    let mut argv = words.clone();
    argv.push("--help".to_owned());
    let shown = if words.is_empty() { "dotnet".to_owned() } else { format!("dotnet {}", words.join(" ")) };
    let ran = call.run(call.command(argv.clone(), format!("reading the help of {shown}"))).await?;
    if !ran.succeeded() {
        // `dotnet --help` answered by the dotnet host alone (its own usage, exit code 129) means
        // there is no SDK to list commands: the SDK's help always exits 0.
        if words.is_empty() && ran.exit_code() == HOST_USAGE_EXIT {
            return Err(exec::sdk_not_found(&ran.outcome.transcript).into());
        }
        return Err(ran.failure().into());
    }
    let text = ran.outcome.stdout.clone();
    let help = parse::parse(&text);
    let usage = help.usage.first().map(|usage| format!(" Usage: {usage}")).unwrap_or_default();
    let mut structured = json!({
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
