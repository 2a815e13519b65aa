//! The test kit's host harness against the real host binary and the
//! workspace's sample plugin: it finds (builds) the host, loads a library,
//! speaks MCP over stdio, and reports a refused library with the host's
//! reason.

use std::path::{Path, PathBuf};

use mcp_plugin_api::testkit::host::{HostError, HostUnderTest, built_library, host_binary};
use serde_json::{Value, json};

/// Builds the sample plugin in this workspace and returns its library. The
/// features are resolved as for `cargo build --workspace`, so that build is
/// reused rather than repeated with another feature set.
fn sample_library() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = std::process::Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--workspace", "--lib", "--message-format=json-render-diagnostics"])
        .current_dir(&workspace)
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "building the sample plugin failed");
    let suffix = format!(".{}", std::env::consts::DLL_EXTENSION);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact" && message["target"]["name"] == "sample")
        .flat_map(|message| message["filenames"].as_array().cloned().unwrap_or_default())
        .filter_map(|file| file.as_str().map(PathBuf::from))
        .find(|file| file.to_string_lossy().ends_with(&suffix))
        .expect("cargo names the sample plugin's library")
}

#[tokio::test]
async fn loads_a_plugin_into_the_real_host_and_calls_it_over_mcp() {
    let host = HostUnderTest::builder(sample_library())
        .settings("sample", json!({ "Greeting": "Hej" }))
        .start()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(host.initialize_result()["serverInfo"]["name"], "mcp-plugin-host");

    let tools = host.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().filter_map(|tool| tool["name"].as_str()).collect();
    assert_eq!(names, ["echo", "countdown", "greet"]);

    let echo = host.call_tool("echo", json!({ "text": "héllo" })).await.unwrap();
    assert!(!echo.is_error);
    assert_eq!(echo.joined_text(), "héllo");
    assert_eq!(echo.structured_content, Some(json!({ "text": "héllo", "length": 5 })));

    let greeting = host.call_tool("greet", json!({ "name": "Ada" })).await.unwrap();
    assert_eq!(greeting.joined_text(), "Hej, Ada!", "the settings reached the plugin");

    let invalid = host.call_tool("countdown", json!({ "steps": "many" })).await.unwrap();
    assert!(invalid.is_error);
    assert!(invalid.joined_text().contains("argument 'steps'"), "{}", invalid.joined_text());

    let unknown = host.call_tool("no_such_tool", json!({})).await.unwrap_err();
    assert!(matches!(unknown, HostError::Rpc { code: -32602, .. }), "{unknown}");

    assert!(host.stderr().contains("plugin::sample"), "the host's log is captured: {}", host.stderr());
    let status = host.shutdown().await.unwrap();
    assert!(status.success(), "the host exits cleanly when stdin closes: {status}");
}

#[tokio::test]
async fn a_library_the_host_refuses_fails_with_the_hosts_reason() {
    let dir = std::env::temp_dir().join(format!("mcp-testkit-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bogus = dir.join(format!("{}bogus.{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_EXTENSION));
    std::fs::write(&bogus, b"not a library").unwrap();
    let error = HostUnderTest::start(&bogus).await.err().expect("a file that is not a library is refused");
    std::fs::remove_dir_all(&dir).unwrap();
    match error {
        HostError::Refused(report) => assert!(report.contains("bogus"), "{report}"),
        other => panic!("expected a refusal, got {other}"),
    }
}

#[test]
fn finds_the_host_binary_and_explains_a_missing_library() {
    let binary = host_binary().unwrap();
    assert!(binary.is_file(), "{}", binary.display());
    let error = built_library("no-such-plugin").unwrap_err().to_string();
    assert!(error.contains("no_such_plugin") && error.contains("cdylib"), "{error}");
}
