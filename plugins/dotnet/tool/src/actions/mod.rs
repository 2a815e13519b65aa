//! The actions of `dotnet_tool`: listings and searches, changes to where tools live, and running
//! a local tool.

pub mod change;
pub mod list;
pub mod run;

use serde_json::{Value, json};

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
