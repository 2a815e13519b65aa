//! The calls of the client matrix (`scripts/client-matrix/scenarios.json`, run through the
//! official MCP clients by `scripts/clients`) cover everything the default configuration serves:
//! every tool, and every value of each tool's `action` enum, has a call expected to succeed and a
//! call expected to fail whether or not the client can be asked to confirm (elicitation); every
//! served prompt is got and every served resource has an expectation (`offer`). This
//! runs in `cargo test`, so an action added without scenarios fails here even where no client
//! can be installed. And what the default configuration lists stays within the tool list's
//! budgets: every client downloads it, and what it shows the model costs context on every turn.

mod common;

use std::collections::BTreeSet;

use common::Setup;
use mcp_plugin_bench::toollist::ToolListSize;
use serde_json::{Value, json};

fn read_json(relative: &str) -> Value {
    let path = common::workspace_root().join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// What the host answers to `method` (`field` of its result) with the repository's
/// appsettings.json (its plugin selection and plugin settings) and every workspace plugin built,
/// as scripts/clients runs it.
async fn served(method: &str, field: &str) -> Vec<Value> {
    let defaults = read_json("appsettings.json");
    let plugins = &defaults["Plugins"];
    let selection = json!({ "Plugins": {
        "Directory": common::workspace_plugins(),
        "Enabled": plugins["Enabled"], "Disabled": plugins["Disabled"], "Settings": plugins["Settings"]
    } });
    let setup = Setup::new(&[], &[], selection);
    let client = setup.stdio().await;
    let answer = client.request(method, json!({})).await;
    client.close().await;
    answer["result"][field].as_array().unwrap_or_else(|| panic!("{method} failed: {answer}")).clone()
}

async fn served_tools() -> Vec<Value> {
    served("tools/list", "tools").await
}

#[tokio::test]
async fn every_served_prompt_and_resource_is_asked_for() {
    let offer = &read_json("scripts/client-matrix/scenarios.json")["offer"];
    let names = |items: Vec<Value>, key: &str| -> BTreeSet<String> {
        items.iter().filter_map(|item| item[key].as_str().map(str::to_owned)).collect()
    };
    let prompts = names(served("prompts/list", "prompts").await, "name");
    let asked: BTreeSet<String> = names(offer["prompts"].as_array().unwrap().clone(), "name");
    assert_eq!(prompts, asked, "scenarios.json's offer.prompts gets every served prompt");
    let completed: BTreeSet<&str> =
        offer["completions"].as_array().unwrap().iter().filter_map(|entry| entry["prompt"].as_str()).collect();
    assert!(completed.iter().all(|prompt| prompts.contains(*prompt)), "completions of served prompts: {completed:?}");
    let resources = names(served("resources/list", "resources").await, "uri");
    let expected: BTreeSet<String> = offer["resources"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(resources, expected, "scenarios.json's offer.resources names every served resource");
}

/// A call's expectation without conditions (`expect` is a string or has a `default`).
fn default_expectation(call: &Value) -> &str {
    call["expect"].as_str().or_else(|| call["expect"]["default"].as_str()).unwrap_or_default()
}

#[tokio::test]
async fn every_action_of_every_served_tool_has_a_success_and_a_failure_call() {
    let scenarios = read_json("scripts/client-matrix/scenarios.json");
    let calls = scenarios["calls"].as_array().expect("scenarios.json has a calls array");
    let mut problems = Vec::new();

    let mut ids = BTreeSet::new();
    for call in calls {
        let id = call["id"].as_str().unwrap_or_default();
        if !ids.insert(id) {
            problems.push(format!("the id {id:?} is used twice"));
        }
        if default_expectation(call).is_empty() {
            problems.push(format!("{id}: no expectation (expect, or expect.default)"));
        }
    }

    let tools = served_tools().await;
    let mut served = BTreeSet::new();
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        let actions: Vec<Option<&str>> = match tool["inputSchema"]["properties"]["action"]["enum"].as_array() {
            Some(values) => values.iter().map(|value| value.as_str()).collect(),
            None => vec![None],
        };
        for action in actions {
            served.insert((name, action));
            let of_action = |call: &&Value| call["tool"] == name && call["arguments"]["action"].as_str() == action;
            let label = action.map_or_else(|| name.to_owned(), |action| format!("{name} {action}"));
            if !calls.iter().filter(of_action).any(|call| default_expectation(call) == "ok") {
                problems.push(format!("{label}: no call expected to succeed"));
            }
            // Failing for every client: also for one that cannot be asked (see "about" in the file).
            let fails = |call: &&Value| default_expectation(call) != "ok" && call["expect"]["noElicitation"] != "ok";
            if !calls.iter().filter(of_action).any(|call| fails(&call)) {
                problems.push(format!("{label}: no call expected to fail, with and without elicitation"));
            }
        }
    }
    for call in calls {
        // A tool without an action enum takes any arguments here (a failure path may pass a bad one).
        let (tool, action) = (call["tool"].as_str().unwrap_or_default(), call["arguments"]["action"].as_str());
        if !served.contains(&(tool, action)) && !served.contains(&(tool, None)) {
            problems.push(format!("{}: the host serves no such tool or action", call["id"]));
        }
    }
    assert!(problems.is_empty(), "scripts/client-matrix/scenarios.json:\n{}", problems.join("\n"));
}

/// At most this many bytes of what a client shows the model (names, titles, descriptions and
/// input schemas of the default configuration's tools, compact JSON, as `mcp-toollist` counts).
const SHOWN_BUDGET: usize = 30_000;
/// At most this many bytes of output schemas (59,606 bytes when this ceiling was set; 73,731
/// before the kit left out descriptions and the type an enum of strings implies).
const OUTPUT_SCHEMAS_BUDGET: usize = 60_000;

#[tokio::test]
async fn the_default_tool_list_stays_within_its_budgets() {
    let size = ToolListSize::of(&json!({ "tools": served_tools().await })).expect("a tool list");
    let table = size.table();
    assert!(size.shown <= SHOWN_BUDGET, "shown to the model: {} bytes > {SHOWN_BUDGET}\n{table}", size.shown);
    assert!(
        size.output_schemas <= OUTPUT_SCHEMAS_BUDGET,
        "output schemas: {} bytes > {OUTPUT_SCHEMAS_BUDGET}\n{table}",
        size.output_schemas
    );
}
