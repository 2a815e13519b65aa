//! Help: the command words checked, `dotnet <words> --help` run, its text parsed.

use dotnet_support::{
    exec,
    kit::{Call, Outcome, Reason, invalid},
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::{commands, parse};

/// The exit code of the dotnet host when it prints its own usage (`dotnet --help` without an SDK).
const HOST_USAGE_EXIT: i32 = 129;

/// The help of a command: its words, and the parts of its help text.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Help {
    /// The command words, as the CLI spells them.
    command_path: Vec<String>,
    #[serde(flatten)]
    help: parse::Help,
}

/// Runs the help of the `command` words.
pub async fn run(call: &Call<'_>) -> Outcome {
    let command = match call.params().raw("command") {
        None => None,
        Some(Value::String(command)) => Some(command.as_str()),
        Some(other) => {
            let message = format!("Invalid argument 'command': must be a string of command words, not {other}.");
            return Err(invalid("command", Reason::Type, message).into());
        }
    };
    let words = commands::words(command)?;
    let mut argv = words.clone();
    argv.push("--help".to_owned());
    let shown = if words.is_empty() { "dotnet".to_owned() } else { format!("dotnet {}", words.join(" ")) };
    let ran = call.run(call.command(argv, format!("reading the help of {shown}"))).await?;
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
    Ok(Reply::new(format!("Help for '{shown}'.{usage}")).output(text).result(Help { command_path: words, help }))
}
