//! The actions of `dotnet_tool`: listings and searches, changes to where tools live, and running
//! a local tool.

pub mod change;
pub mod list;
pub mod run;

use dotnet_support::{exec::Ran, redact::redacted_command_line};
use serde_json::{Map, Value, json};

/// The structured content every success starts with: the command as run and its exit code.
fn ran_fields(args: &[String], ran: &Ran) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("command".into(), json!(redacted_command_line("dotnet", args)));
    fields.insert("exitCode".into(), json!(ran.exit_code()));
    fields
}

fn count(number: usize, noun: &str) -> String {
    if number == 1 { format!("1 {noun}") } else { format!("{number} {noun}s") }
}

fn string_list() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// An installed tool, as List and Restore report it.
fn installed_schema() -> Value {
    json!({
        "type": "object",
        "required": ["packageId", "version", "commands"],
        "properties": {
            "packageId": { "type": "string" },
            "version": { "type": "string" },
            "commands": string_list(),
            "manifest": { "type": "string" }
        }
    })
}

fn scope_schema() -> Value {
    json!({ "enum": ["local", "global", "toolPath"] })
}
