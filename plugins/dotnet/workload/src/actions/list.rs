//! List, Info and Search: what is installed, and what could be.

use dotnet_support::{
    kit::{Call, Outcome, Shape, ran_fields},
    params::Kind,
    respond::Reply,
};
use serde_json::{Value, json};

use super::count;
use crate::{Action, parse};

/// List and Info: the installed workloads.
pub fn installed_shape() -> Shape {
    let optional_string = json!({ "type": "string" });
    let installed = json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": { "type": "string" },
            "manifestVersion": optional_string,
            "installationSource": optional_string,
            "manifestPath": optional_string,
            "installType": optional_string
        }
    });
    Shape::new(
        json!({
            "workloads": { "type": "array", "items": installed },
            "workloadVersion": { "type": "string", "description": "The workload set version, when the SDK prints one." }
        }),
        &["workloads"],
    )
    .ran()
}

/// Search: the workloads found.
pub fn found_shape() -> Shape {
    let found = json!({
        "type": "object",
        "required": ["id", "description"],
        "properties": { "id": { "type": "string" }, "description": { "type": "string" } }
    });
    Shape::new(
        json!({ "searchTerm": { "type": "string" }, "workloads": { "type": "array", "items": found } }),
        &["workloads"],
    )
    .ran()
}

/// Runs List, Info or Search.
pub async fn run(action: Action, call: &Call<'_>) -> Outcome {
    let mut args = vec!["workload".to_owned()];
    let term = call.params().opt("searchTerm", Kind::Text)?;
    let description = match action {
        Action::List => {
            args.push("list".into());
            "listing the installed workloads"
        }
        Action::Info => {
            args.push("--info".into());
            "reading the installed workloads' details"
        }
        _ => {
            args.push("search".into());
            args.extend(term.map(str::to_owned));
            "searching the available workloads"
        }
    };
    let ran = call.run_ok(call.command(args.clone(), description)).await?;
    let stdout = &ran.outcome.stdout;
    let mut structured = ran_fields(&ran);
    let reply = if action == Action::Search {
        let found = parse::search(stdout);
        let lines = found.iter().map(|workload| format!("{}: {}", workload.id, workload.description)).collect();
        let summary = match term {
            Some(term) => {
                structured.insert("searchTerm".into(), json!(term));
                format!("{} available for '{term}'.", count(found.len(), "workload"))
            }
            None => format!("{} available.", count(found.len(), "workload")),
        };
        structured.insert("workloads".into(), json!(found));
        Reply::new(summary).section("Workloads", lines)
    } else {
        let workloads = if action == Action::List { parse::list(stdout) } else { parse::info(stdout) };
        let lines = workloads
            .iter()
            .map(|workload| {
                let details: Vec<&str> =
                    [&workload.manifest_version, &workload.installation_source, &workload.install_type]
                        .into_iter()
                        .flatten()
                        .map(String::as_str)
                        .collect();
                if details.is_empty() {
                    workload.id.clone()
                } else {
                    format!("{} ({})", workload.id, details.join(", "))
                }
            })
            .collect();
        let mut summary = format!("{} installed", count(workloads.len(), "workload"));
        if let Some(version) = parse::workload_version(stdout) {
            summary.push_str(&format!(" (workload version {version})"));
            structured.insert("workloadVersion".into(), json!(version));
        }
        structured.insert("workloads".into(), json!(workloads));
        Reply::new(format!("{summary}.")).section("Workloads", lines)
    };
    Ok(reply.output(ran.outcome.transcript.clone()).structured(Value::Object(structured)))
}
