//! End-to-end tests of the plugin cache through the real host binary: a
//! library the cache knows, unchanged, is served from the cache and created
//! on first use; anything changed is loaded afresh; a broken cache or a
//! library swapped after start-up costs a call, never the server.

mod common;

use std::time::Duration;

use common::{Setup, text_of};
use serde_json::{Value, json};

fn cache_file(setup: &Setup) -> std::path::PathBuf {
    setup.dir.path().join("plugin-cache.json")
}

/// Fills the cache the way an operator would: `mcp-plugin-host check`.
fn warm(setup: &Setup) {
    let output = setup.run(&["check"]);
    assert!(output.status.success(), "check passes: {}", String::from_utf8_lossy(&output.stderr));
    assert!(cache_file(setup).is_file(), "check wrote the plugin cache");
}

#[tokio::test]
async fn a_cached_plugin_is_served_at_once_and_created_on_first_use() {
    let setup = Setup::new(&["sample"], &[], json!({ "Plugins": { "Settings": { "sample": { "Greeting": "Hej" } } } }));
    let eager = setup.stdio().await;
    let eager_list = eager.request("tools/list", json!({})).await;
    assert!(eager.stderr().contains("greeter ready"), "a first start creates the plugin: {}", eager.stderr());
    eager.close().await;

    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    assert_eq!(list["result"], eager_list["result"], "the cache serves the very same tool list");
    let stderr = client.stderr();
    assert!(stderr.contains("serving (created on first use) plugin sample"), "{stderr}");
    assert!(!stderr.contains("greeter ready"), "the plugin is not created before it is used: {stderr}");

    let result = client.call("greet", json!({ "name": "Ada" })).await;
    assert_eq!(text_of(&result), "Hej, Ada!", "the plugin got its configuration when created: {result}");
    assert!(
        client
            .wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("greeter ready with greeting 'Hej'")
                && stderr.contains("created plugin sample"))
            .await,
        "{}",
        client.stderr()
    );
    let again = client.call("echo", json!({ "text": "twice" })).await;
    assert_eq!(again["structuredContent"]["text"], "twice", "{again}");
    assert_eq!(client.stderr().matches("created plugin sample").count(), 1, "created once: {}", client.stderr());
}

#[tokio::test]
async fn a_new_configuration_loads_the_plugin_afresh() {
    let setup = Setup::new(&["sample"], &[], json!({ "Plugins": { "Settings": { "sample": { "Greeting": "Hej" } } } }));
    warm(&setup);
    let config: Value = serde_json::from_str(&std::fs::read_to_string(setup.config()).unwrap()).unwrap();
    let mut config = config;
    config["Plugins"]["Settings"]["sample"]["Greeting"] = json!("Hallo");
    std::fs::write(setup.config(), config.to_string()).unwrap();

    let client = setup.stdio().await;
    let stderr = client.stderr();
    assert!(stderr.contains("loaded plugin sample"), "a changed section is not served from the cache: {stderr}");
    assert!(stderr.contains("greeter ready with greeting 'Hallo'"), "{stderr}");
    assert_eq!(text_of(&client.call("greet", json!({ "name": "Ada" })).await), "Hallo, Ada!");
}

#[tokio::test]
async fn disabled_plugins_known_to_the_cache_are_not_even_opened() {
    let setup = Setup::new(&["sample", "conformance"], &[], json!({ "Plugins": { "Disabled": ["conformance"] } }));
    warm(&setup);
    let cache: Value = serde_json::from_str(&std::fs::read_to_string(cache_file(&setup)).unwrap()).unwrap();
    let names: Vec<&str> =
        cache["libraries"].as_object().unwrap().values().map(|entry| entry["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"conformance") && names.contains(&"sample"), "{cache}");
    let disabled = cache["libraries"].as_object().unwrap().values().find(|entry| entry["name"] == "conformance");
    assert!(disabled.unwrap().get("offer").is_none(), "a disabled plugin is remembered without an offer");

    let client = setup.stdio().await;
    let pid = client.pid();
    let list = client.request("tools/list", json!({})).await;
    assert!(list["result"]["tools"].as_array().unwrap().iter().all(|tool| tool["name"] != "test_simple_text"));
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    if !maps.is_empty() {
        assert!(!maps.contains("libconformance"), "the disabled library was not mapped");
        assert!(!maps.contains("libsample"), "the cached library is not mapped before its first use");
        client.call("echo", json!({ "text": "load it" })).await;
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap();
        assert!(maps.contains("libsample"), "the first call loaded the library");
    }
}

#[tokio::test]
async fn a_malformed_cache_is_reported_and_rebuilt() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    std::fs::write(cache_file(&setup), "{ this is not json").unwrap();
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("echo", json!({ "text": "still here" })).await), "still here");
    assert!(client.stderr().contains("is malformed"), "{}", client.stderr());
    let rebuilt: Value = serde_json::from_str(&std::fs::read_to_string(cache_file(&setup)).unwrap())
        .expect("the cache was written back as JSON");
    assert_eq!(rebuilt["libraries"].as_object().unwrap().len(), 1, "{rebuilt}");
}

#[tokio::test]
async fn a_library_swapped_after_start_up_fails_its_calls_and_leaves_the_cache() {
    // Without watching: the swap is seen only by the cached plugin's first use (tests/reload.rs has the rest).
    let setup = Setup::new(&["sample"], &[], json!({ "Plugins": { "Watch": false } }));
    warm(&setup);
    let client = setup.stdio().await;
    assert!(client.stderr().contains("serving (created on first use) plugin sample"), "{}", client.stderr());

    // Another plugin now sits where the cached one was.
    let link = setup.dir.path().join("plugins").join(common::lib_name("sample"));
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(common::workspace_plugins().join(common::lib_name("conformance")), &link).unwrap();

    let result = client.call("echo", json!({ "text": "hello" })).await;
    assert_eq!(result["isError"], true, "{result}");
    let message = text_of(&result);
    assert!(message.contains("now holds plugin 'conformance'") && message.contains("restart"), "{message}");
    let ping = client.request("ping", json!({})).await;
    assert!(ping.get("result").is_some(), "the host lives on: {ping}");
    let cache: Value = serde_json::from_str(&std::fs::read_to_string(cache_file(&setup)).unwrap()).unwrap();
    assert!(
        cache["libraries"].as_object().unwrap().values().all(|entry| entry["name"] != "sample"),
        "the wrong entry was dropped: {cache}"
    );
}
