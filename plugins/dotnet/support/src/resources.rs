//! What the dotnet plugins offer beside their tools, as the reference server does: the URIs of
//! their resources (which actions announce updated, [`crate::kit::ActionSpec::announces`]), the
//! contents of a read (JSON, redacted like a tool's output), and dotnet runs for a read or a
//! completion, where there is no call to take cancellation or progress from.
//!
//! No resource keeps a cache: every read asks the CLI or the files again, so a read after a
//! change made by hand (an edited project file, an SDK installed outside the server) is current
//! even though nothing announced it.

use std::{future::Future, path::PathBuf};

use mcp_plugin_api::{ResourceContents, ToolError};
use serde_json::Value;

use crate::{
    exec::{self, Command, Ran},
    redact::redact_json,
    settings::DotnetSettings,
};

/// The installed SDKs (`dotnet --list-sdks`), served by `dotnet_sdk`.
pub const SDK_INFO: &str = "dotnet://sdk-info";
/// The installed runtimes (`dotnet --list-runtimes`), served by `dotnet_sdk`.
pub const RUNTIME_INFO: &str = "dotnet://runtime-info";
/// The installed templates (`dotnet new list`), served by `dotnet_sdk`; announced updated after
/// a template package install or uninstall and a rebuild of the template cache.
pub const TEMPLATES: &str = "dotnet://templates";
/// The target frameworks and which the installed SDKs build, served by `dotnet_sdk`.
pub const FRAMEWORKS: &str = "dotnet://frameworks";
/// The solutions and projects in the client's roots, served by `dotnet_solution`; announced
/// updated by every action that writes a project or solution file.
pub const WORKSPACE: &str = "dotnet://workspace";

/// The MIME type of every dotnet resource.
pub const JSON: &str = "application/json";

/// The contents of a read of `uri`: `value` redacted (as every tool result is) and pretty-printed.
pub fn json_contents(uri: &str, mut value: Value) -> Vec<ResourceContents> {
    redact_json(&mut value);
    let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
    vec![ResourceContents::text(uri, JSON, text)]
}

/// The moment a read's contents were made, in RFC 3339 (UTC, whole seconds), for `generatedAt`.
pub fn generated_at() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Where a read runs dotnet: the configured working directory, else the host's current folder
/// (what the listings print does not depend on it).
fn read_directory(settings: &DotnetSettings) -> PathBuf {
    settings
        .working_directory
        .clone()
        .filter(|dir| dir.is_dir())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// Runs `dotnet ARGS` for a read or a completion and requires exit code 0; a failure is the
/// contract's first error (message and hint), already redacted.
pub async fn run_listing(settings: &DotnetSettings, args: &[&str]) -> Result<Ran, ToolError> {
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let description = format!("dotnet {}", args.join(" "));
    let command = Command::new(args, &read_directory(settings), description);
    let ran = exec::run_unattended(settings, command).await;
    let failure = match ran {
        Ok(ran) if ran.succeeded() => return Ok(ran),
        Ok(ran) => ran.failure(),
        Err(error) => error,
    };
    let first = &failure.errors[0];
    let hint = first.hint.as_deref().map(|hint| format!(" {hint}")).unwrap_or_default();
    Err(ToolError::new(format!("{} ({}){hint}", first.message, first.code)))
}

/// Runs `future` to its end on a runtime of its own, for the synchronous parts of the plugin
/// API (completion) that must ask dotnet. The host calls them outside any runtime of the
/// plugin's, so a fresh current-thread runtime is free to block this thread.
pub fn block_on<F: Future>(future: F) -> Option<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
    Some(runtime.block_on(future))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn contents_are_redacted_like_a_tool_result() {
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let value =
            json!({ "projects": [{ "path": "/src/App", "note": format!("--password hunter2 token {token}") }] });
        let contents = serde_json::to_value(json_contents(WORKSPACE, value)).unwrap();
        let text = contents[0]["text"].as_str().unwrap();
        assert!(!text.contains(token) && !text.contains("hunter2"), "{text}");
        assert!(text.contains("[REDACTED]") && text.contains("/src/App"), "{text}");
        assert_eq!((contents[0]["uri"].as_str(), contents[0]["mimeType"].as_str()), (Some(WORKSPACE), Some(JSON)));
    }
}
