//! The actions of `dotnet_workload`, by what they do to the SDK installation.

pub mod change;
pub mod list;

use dotnet_support::{exec::Ran, redact::redacted_command_line};
use serde_json::{Map, Value, json};

/// The structured content every success starts with: the command as run and its exit code.
fn ran_fields(args: &[String], ran: &Ran) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("command".into(), json!(redacted_command_line("dotnet", args)));
    fields.insert("exitCode".into(), json!(ran.exit_code()));
    fields
}

/// `1 workload`, `2 workloads`.
fn count(number: usize, noun: &str) -> String {
    if number == 1 { format!("1 {noun}") } else { format!("{number} {noun}s") }
}
