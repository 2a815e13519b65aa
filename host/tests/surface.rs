//! End-to-end tests of the operator's tool surface through the real host
//! binary: filters (`Tools`/`Prompts`/`Resources` `.Enabled`/`.Disabled`),
//! names (`Tools.Prefix`) and overrides (`Tools.Overrides`: title,
//! description, annotations, argument defaults), as clients see them in
//! lists and calls, as `plugins --json` reports them, and as plugins read
//! them through `host_info`.

mod common;

use common::{Setup, text_of};
use serde_json::{Value, json};

fn tools(list: &Value) -> Vec<Value> {
    list["result"]["tools"].as_array().unwrap_or_else(|| panic!("a tool list: {list}")).clone()
}

fn names(list: &Value) -> Vec<String> {
    let mut names: Vec<String> = tools(list).iter().map(|tool| tool["name"].as_str().unwrap().to_owned()).collect();
    names.sort();
    names
}

fn tool<'a>(tools: &'a [Value], name: &str) -> &'a Value {
    tools.iter().find(|tool| tool["name"] == name).unwrap_or_else(|| panic!("no tool {name} in {tools:?}"))
}

fn plugin<'a>(reports: &'a Value, name: &str) -> &'a Value {
    let reports = reports.as_array().unwrap_or_else(|| panic!("reports: {reports}"));
    reports.iter().find(|report| report["plugin"] == name || report["name"] == name).unwrap()
}

#[tokio::test]
async fn prefixes_let_two_plugins_serve_the_same_tool_name() {
    // sample and duplicate both offer `echo`; duplicate yields by prefixing.
    let setup = Setup::new(
        &["sample"],
        &["duplicate", "introspect"],
        json!({ "Tools": { "Prefix": { "duplicate": "on-collision", "introspect": "plugin" } } }),
    );
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    assert_eq!(
        names(&list),
        [
            "countdown",
            "duplicate__echo",
            "duplicate_unique",
            "echo",
            "greet",
            "introspect__introspect_features",
            "introspect__introspect_host_info",
            "introspect__introspect_roots"
        ]
    );
    assert_eq!(text_of(&client.call("duplicate__echo", json!({})).await), "duplicate echo");
    assert_eq!(text_of(&client.call("echo", json!({ "text": "mine" })).await), "mine", "sample keeps its name");
    assert!(!client.stderr().contains("already provides"), "no collision left: {}", client.stderr());

    let report = setup.plugins_json();
    assert_eq!(plugin(&report["plugins"], "duplicate")["renamed"], json!({ "echo": "duplicate__echo" }));
    assert_eq!(plugin(&report["plugins"], "duplicate")["tools"], json!(["duplicate__echo", "duplicate_unique"]));

    let info = client.call("introspect__introspect_host_info", json!({})).await;
    let info = &info["structuredContent"]["hostInfo"];
    assert_eq!(plugin(&info["plugins"], "duplicate")["renamed"], json!({ "echo": "duplicate__echo" }), "{info}");
    assert_eq!(info["surface"]["prefix"], json!({ "*": "none", "duplicate": "on-collision", "introspect": "plugin" }));

    // Both prefixed when both yield; everything prefixed under "plugin".
    for (prefix, expected) in [
        (json!("on-collision"), vec!["countdown", "duplicate__echo", "duplicate_unique", "greet", "sample__echo"]),
        (
            json!("plugin"),
            vec![
                "duplicate__duplicate_unique",
                "duplicate__echo",
                "sample__countdown",
                "sample__echo",
                "sample__greet",
            ],
        ),
    ] {
        let setup = Setup::new(&["sample"], &["duplicate"], json!({ "Tools": { "Prefix": prefix } }));
        let client = setup.stdio().await;
        assert_eq!(names(&client.request("tools/list", json!({})).await), expected, "Tools.Prefix {prefix}");
    }
}

#[tokio::test]
async fn filters_hide_tools_prompts_and_resources() {
    let setup = Setup::new(
        &["sample", "conformance"],
        &[],
        json!({
            "Tools": { "Enabled": ["sample/*", "test_simple_text"], "Disabled": ["count*"] },
            "Prompts": { "Disabled": ["conformance/test_prompt_with_arguments"] },
            "Resources": { "Disabled": ["test://template/*"] }
        }),
    );
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    assert_eq!(names(&list), ["echo", "greet", "test_simple_text"]);
    let hidden = client.request("tools/call", json!({ "name": "countdown", "arguments": { "steps": 1 } })).await;
    assert_eq!(hidden["error"]["code"], -32602, "a hidden tool is unknown: {hidden}");

    let prompts = client.request("prompts/list", json!({})).await;
    let prompt_names: Vec<&str> =
        prompts["result"]["prompts"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert!(!prompt_names.contains(&"test_prompt_with_arguments") && !prompt_names.is_empty(), "{prompt_names:?}");
    let templates = client.request("resources/templates/list", json!({})).await;
    assert_eq!(templates["result"]["resourceTemplates"], json!([]), "{templates}");
    let read = client.request("resources/read", json!({ "uri": "test://template/7/data" })).await;
    assert!(read.get("error").is_some(), "a hidden template answers no URI: {read}");
    let text = client.request("resources/read", json!({ "uri": "test://static-text" })).await;
    assert!(text.get("result").is_some(), "{text}");

    let report = setup.plugins_json();
    assert_eq!(plugin(&report["plugins"], "sample")["hidden"], json!({ "tools": ["countdown"] }));
    let conformance = plugin(&report["plugins"], "conformance");
    assert_eq!(conformance["hidden"]["prompts"], json!(["test_prompt_with_arguments"]));
    assert_eq!(conformance["hidden"]["resources"], json!(["test://template/{id}/data"]));
    assert!(conformance["hidden"]["tools"].as_array().unwrap().iter().any(|tool| tool == "test_image_content"));
}

#[tokio::test]
async fn overrides_change_what_clients_see_and_defaults_fill_in_calls() {
    let setup = Setup::new(
        &["sample"],
        &["introspect"],
        json!({ "Tools": { "Overrides": {
            "echo": {
                "Title": "Parrot",
                "Description": "Repeats what it is told.",
                "Annotations": { "ReadOnlyHint": false, "destructiveHint": true }
            },
            "sample/greet": { "Defaults": { "name": "Ada" } }
        } } }),
    );
    let client = setup.stdio().await;
    let list = tools(&client.request("tools/list", json!({})).await);
    let echo = tool(&list, "echo");
    assert_eq!(echo["title"], "Parrot");
    assert_eq!(echo["description"], "Repeats what it is told.");
    assert_eq!(echo["annotations"]["readOnlyHint"], false);
    assert_eq!(echo["annotations"]["destructiveHint"], true);
    assert_eq!(echo["annotations"]["idempotentHint"], true, "hints not overridden stay the plugin's");
    let greet = tool(&list, "greet");
    assert_eq!(greet["inputSchema"]["properties"]["name"]["default"], "Ada", "{greet}");
    assert!(
        !greet["inputSchema"]["required"].to_string().contains("name"),
        "a defaulted argument is optional: {greet}"
    );

    assert_eq!(text_of(&client.call("greet", json!({})).await), "Hello, Ada!", "the default filled in");
    assert_eq!(text_of(&client.call("greet", json!({ "name": "Bob" })).await), "Hello, Bob!", "the caller's wins");
    assert_eq!(text_of(&client.call("echo", json!({ "text": "x" })).await), "x", "the plugin runs as before");

    let report = setup.plugins_json();
    assert_eq!(
        plugin(&report["plugins"], "sample")["overrides"],
        json!([
            { "tool": "echo", "fields": ["title", "description", "annotations.readOnlyHint", "annotations.destructiveHint"] },
            { "tool": "greet", "fields": [], "defaults": ["name"] }
        ])
    );
    let info = client.call("introspect_host_info", json!({})).await;
    let sample = plugin(&info["structuredContent"]["hostInfo"]["plugins"], "sample").clone();
    assert_eq!(sample["overrides"], plugin(&report["plugins"], "sample")["overrides"], "{sample}");
}

#[tokio::test]
async fn an_override_that_does_not_fit_is_reported_and_not_applied() {
    let setup = Setup::new(
        &["sample"],
        &[],
        json!({ "Tools": { "Overrides": {
            "greet": { "Defaults": { "name": 42 } },
            "nothing_by_this_name": { "Title": "?" }
        } } }),
    );
    let check = setup.run(&["check"]);
    assert!(!check.status.success());
    let said = String::from_utf8_lossy(&check.stderr);
    assert!(said.contains("Tools.Overrides.greet") && said.contains("Invalid argument 'name'"), "{said}");
    assert!(said.contains("Tools.Overrides.nothing_by_this_name matches no served tool"), "{said}");

    let client = setup.stdio().await;
    let list = tools(&client.request("tools/list", json!({})).await);
    assert_eq!(tool(&list, "greet")["inputSchema"]["required"], json!(["name"]), "the schema is the plugin's");
    let result = client.call("greet", json!({})).await;
    assert_eq!(result["isError"], true, "no default was filled in: {result}");

    // A configuration the host cannot read is refused at start, naming the key.
    let bad = Setup::new(&["sample"], &[], json!({ "Tools": { "Prefix": "sometimes" } }));
    let output = bad.run(&["check"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("Tools.Prefix must be"), "{output:?}");
}
