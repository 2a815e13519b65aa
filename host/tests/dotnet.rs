//! End-to-end tests of the dotnet plugins through the real host binary,
//! against the dotnet test double: every tool is served, locks conflict
//! across plugins, a cancel or a timeout leaves no process behind, the
//! build servers our builds leave end with the host or its worker and the
//! user's never do, a missing dotnet or SDK is a clear error, content
//! negotiation reaches the plugins, no secret leaves the server, and
//! `ReadOnly` narrows every tool.
//!
//! Each plugin's own tests cover the argument vector and parsing of every
//! action in process; these cover what only the whole server can show.

mod common;

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use common::{DOTNET_PLUGINS, Setup, process_alive, text_of};
use serde_json::{Value, json};

/// The test double, built with the workspace plugins.
fn double() -> PathBuf {
    common::workspace_plugins().join("dotnet-double")
}

/// A host with every dotnet plugin, pointed at the double; `per_plugin` adds
/// settings (an `Environment` with scenarios, a timeout) for single plugins.
fn setup(project: &Path, per_plugin: Value) -> Setup {
    setup_config(project, json!({ "Plugins": { "Settings": per_plugin } }))
}

/// As [`setup`], with `patch` merged into the whole configuration (`Plugins.Config` keys).
fn setup_config(project: &Path, patch: Value) -> Setup {
    let mut settings = json!({});
    for plugin in DOTNET_PLUGINS {
        settings[plugin] = json!({ "WorkingDirectory": project, "Environment": { "DOTNET_DOUBLE_SLOW_SECS": "20" } });
    }
    let mut config = json!({ "Plugins": { "Settings": settings, "Config": { "DotnetPath": double() } } });
    common::merge(&mut config, patch);
    Setup::new(&DOTNET_PLUGINS, &[], config)
}

/// A folder with one project file.
fn project_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("App.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n",
    )
    .unwrap();
    dir
}

fn error_code(result: &Value) -> &str {
    result["structuredContent"]["errors"][0]["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn every_dotnet_tool_is_served_with_a_required_action_enum() {
    let dir = project_dir();
    let setup = setup(dir.path(), json!({}));
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    for plugin in DOTNET_PLUGINS {
        let tool = tools.iter().find(|tool| tool["name"] == plugin).unwrap_or_else(|| panic!("{plugin} is served"));
        assert!(!tool["description"].as_str().unwrap_or_default().is_empty(), "{plugin} has a description");
        let schema = &tool["inputSchema"];
        if schema["properties"].get("action").is_some() {
            assert!(schema["required"].as_array().unwrap().contains(&json!("action")), "{plugin}: action is required");
            assert!(schema["properties"]["action"]["enum"].is_array(), "{plugin}: action is an enum");
        }
    }
    for plugin in ["dotnet_sdk", "dotnet_project", "dotnet_package", "dotnet_solution", "dotnet_server_capabilities"] {
        let tool = tools.iter().find(|tool| tool["name"] == plugin).unwrap();
        assert!(tool["outputSchema"].is_object(), "{plugin} declares an outputSchema");
    }
}

#[tokio::test]
async fn server_capabilities_lists_every_loaded_plugin_from_the_host() {
    let dir = project_dir();
    let setup = setup(dir.path(), json!({}));
    let client = setup.stdio().await;
    let result = client.call("dotnet_server_capabilities", json!({})).await;
    let loaded = &result["structuredContent"]["loadedPlugins"];
    assert_eq!(loaded["complete"], true, "{result}");
    let mut known: Vec<&str> = loaded["known"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    known.sort();
    let mut expected = DOTNET_PLUGINS.to_vec();
    expected.sort();
    assert_eq!(known, expected);
    assert!(loaded["tools"].as_array().unwrap().contains(&json!("dotnet_project")));
    assert_eq!(result["structuredContent"]["serverName"], "mcp-plugin-host");
    assert!(result["structuredContent"]["protocolVersions"].as_array().unwrap().contains(&json!("2025-11-25")));
}

#[tokio::test]
async fn server_capabilities_shows_the_operators_filters_prefixes_and_overrides() {
    let dir = project_dir();
    let setup = setup_config(
        dir.path(),
        json!({ "Tools": {
            "Disabled": ["dotnet_workload"],
            "Prefix": { "dotnet_help": "plugin" },
            "Overrides": { "dotnet_sdk": { "Title": "SDKs here", "Annotations": { "ReadOnlyHint": true } } }
        } }),
    );
    let client = setup.stdio().await;
    let result = client.call("dotnet_server_capabilities", json!({})).await;
    let plugins =
        result["structuredContent"]["loadedPlugins"]["plugins"].as_array().unwrap_or_else(|| panic!("{result}"));
    let plugin = |name: &str| plugins.iter().find(|plugin| plugin["name"] == name).unwrap_or_else(|| panic!("{name}"));
    assert_eq!(plugin("dotnet_workload")["hidden"], json!({ "tools": ["dotnet_workload"] }));
    assert_eq!(plugin("dotnet_help")["renamed"], json!({ "dotnet_help": "dotnet_help__dotnet_help" }));
    assert_eq!(
        plugin("dotnet_sdk")["overrides"],
        json!([{ "tool": "dotnet_sdk", "fields": ["title", "annotations.readOnlyHint"] }])
    );
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("(hidden: dotnet_workload)"), "{text}");
    assert!(text.contains("(renamed: dotnet_help as dotnet_help__dotnet_help)"), "{text}");
    assert!(text.contains("(overridden: dotnet_sdk (title, annotations.readOnlyHint))"), "{text}");
}

#[tokio::test]
async fn background_sessions_die_with_the_host() {
    let dir = project_dir();
    let pid_file = dir.path().join("run.pid");
    let setup = setup(
        dir.path(),
        json!({ "dotnet_project": { "Environment": {
            "DOTNET_DOUBLE_SCENARIO": "slow,spawn-child", "DOTNET_DOUBLE_PID_FILE": pid_file } } }),
    );
    let client = setup.stdio().await;
    let started = client.call("dotnet_project", json!({ "action": "Run", "startMode": "Background" })).await;
    assert!(started["structuredContent"]["sessionId"].is_string(), "{started}");
    // The start's own `dotnet --version` writes the PID file first; the session's process writes
    // it once it runs, which on a loaded machine can be after the start answered.
    let pid = started["structuredContent"]["pid"].as_u64().and_then(|pid| u32::try_from(pid).ok()).expect("pid");
    wait_for_pid_file(&pid_file, |named| named == pid).await;
    assert!(!group_members(pid).is_empty());
    let status = client.close().await;
    assert!(status.success(), "{status:?}");
    wait_gone(pid).await;
}

#[tokio::test]
async fn a_build_and_a_package_add_on_one_project_conflict_across_plugins() {
    let dir = project_dir();
    let setup = setup(
        dir.path(),
        // Long enough for the package add below, on a loaded machine too.
        json!({ "dotnet_project": { "Environment": { "DOTNET_DOUBLE_SCENARIO": "slow", "DOTNET_DOUBLE_SLOW_SECS": "10" } } }),
    );
    let client = setup.stdio().await;
    let project = dir.path().join("App.csproj");
    let (_, build) = client
        .start(
            "tools/call",
            json!({ "name": "dotnet_project", "arguments": { "action": "Build", "project": project },
                    "_meta": { "progressToken": "build" } }),
        )
        .await;
    // The build reports progress once its dotnet runs, which it does holding the project's lock.
    client.expect_notifications("notifications/progress", 1).await;
    let add = client
        .call("dotnet_package", json!({ "action": "Add", "project": dir.path(), "packageId": "Newtonsoft.Json" }))
        .await;
    assert_eq!(add["isError"], true, "{add}");
    assert_eq!(error_code(&add), "CONCURRENCY_CONFLICT", "{add}");
    let lock = &add["structuredContent"]["lockInfo"];
    assert_eq!(lock["lockContended"], true);
    assert_eq!(lock["lockScope"], "project");
    assert_eq!(lock["lockKey"], project.canonicalize().unwrap().display().to_string());
    assert_eq!(lock["holder"]["plugin"], "dotnet_project");
    let build = tokio::time::timeout(Duration::from_secs(60), build).await.unwrap().unwrap();
    assert_eq!(build["result"]["structuredContent"]["lockInfo"]["lockKey"], lock["lockKey"]);
    // Released after the build: the package add goes through.
    let add = client
        .call("dotnet_package", json!({ "action": "Add", "project": project, "packageId": "Newtonsoft.Json" }))
        .await;
    assert!(add["isError"].is_null() || add["isError"] == false, "{add}");
}

/// Processes whose process group is `group`.
fn group_members(group: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().is_some_and(|stat| {
                let fields: Vec<&str> = stat.rsplit(") ").next().unwrap_or_default().split(' ').collect();
                fields.first() != Some(&"Z") && fields.get(2).and_then(|pgrp| pgrp.parse::<u32>().ok()) == Some(group)
            })
        })
        .collect()
}

async fn wait_for_file(path: &Path) -> u32 {
    wait_for_pid_file(path, |_| true).await
}

/// Waits (60 s at most) until the PID file at `path` holds a PID that `wanted` accepts.
async fn wait_for_pid_file(path: &Path, wanted: impl Fn(u32) -> bool) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(pid) = std::fs::read_to_string(path).ok().and_then(|text| text.trim().parse().ok())
            && wanted(pid)
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "{} was never written as expected", path.display());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn wait_gone(group: u32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !group_members(group).is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        group_members(group).is_empty(),
        "processes of group {group} outlived the call: {:?}",
        group_members(group)
    );
}

#[tokio::test]
async fn a_cancelled_build_leaves_no_process_alive() {
    let dir = project_dir();
    let pid_file = dir.path().join("dotnet.pid");
    let setup = setup(
        dir.path(),
        json!({ "dotnet_project": { "Environment": {
            "DOTNET_DOUBLE_SCENARIO": "slow,spawn-child", "DOTNET_DOUBLE_PID_FILE": pid_file } } }),
    );
    let client = setup.stdio().await;
    let (id, _) =
        client.start("tools/call", json!({ "name": "dotnet_project", "arguments": { "action": "Build" } })).await;
    let pid = wait_for_file(&pid_file).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while group_members(pid).len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(group_members(pid).len() >= 2, "the double and its child run in their own group");
    client.notify("notifications/cancelled", json!({ "requestId": id })).await;
    wait_gone(pid).await;
    assert!(!process_alive(pid));
}

#[tokio::test]
async fn a_timed_out_build_is_stopped_with_its_children_and_reports_partial_output() {
    let dir = project_dir();
    let pid_file = dir.path().join("dotnet.pid");
    let setup = setup(
        dir.path(),
        // Time for the double to start (and write its PID) on a loaded machine; it would run 30 s.
        json!({ "dotnet_project": { "TimeoutSeconds": 5, "Environment": {
            "DOTNET_DOUBLE_SCENARIO": "slow,spawn-child", "DOTNET_DOUBLE_PID_FILE": pid_file } } }),
    );
    let client = setup.stdio().await;
    let result = client.call("dotnet_project", json!({ "action": "Build" })).await;
    assert_eq!(result["isError"], true);
    assert_eq!(error_code(&result), "OPERATION_CANCELLED", "{result}");
    assert!(text_of(&result).contains("timed out"), "{}", text_of(&result));
    let pid = wait_for_file(&pid_file).await;
    wait_gone(pid).await;
}

/// Build servers (`BuildServers`, Linux): what the plugin adopts from its builds and stops, and
/// what it never touches, through the real host, in process and in a worker.
#[cfg(target_os = "linux")]
mod build_servers {
    use nix::sys::signal::Signal;

    use super::*;

    /// A host whose `dotnet_project` builds in `project` leave a compiler server running (the
    /// double's `build-server` scenario, which lists them in `project/servers.pid`), with
    /// `settings` merged into that plugin's and `patch` into the whole configuration.
    fn leaving_a_server(project: &Path, settings: Value, patch: Value) -> Setup {
        let pid_file = project.join("servers.pid");
        let mut plugin = json!({ "Environment": {
            "DOTNET_DOUBLE_SCENARIO": "build-server", "DOTNET_DOUBLE_SERVER_PID_FILE": pid_file } });
        common::merge(&mut plugin, settings);
        let mut config = json!({ "Plugins": { "Settings": { "dotnet_project": plugin } } });
        common::merge(&mut config, patch);
        setup_config(project, config)
    }

    /// Builds through `client` in `project`; returns the compiler server the build left.
    async fn build_leaving_a_server(client: &common::Client, project: &Path) -> u32 {
        let built = client.call("dotnet_project", json!({ "action": "Build" })).await;
        assert_ne!(built["isError"], true, "{built}");
        let listed = std::fs::read_to_string(project.join("servers.pid")).unwrap_or_default();
        listed
            .lines()
            .last()
            .and_then(|pid| pid.parse().ok())
            .unwrap_or_else(|| panic!("the build left no server: {built}"))
    }

    /// A compiler server the user's own build left, in a shell in `project`: the double's, with
    /// the very command line of ours, in the test's process group, none of the host's. Killed when
    /// dropped.
    struct UsersServer(u32);

    impl UsersServer {
        fn start(project: &Path) -> Self {
            let pid_file = project.join("users-server.pid");
            let status = std::process::Command::new(double())
                .arg("build")
                .current_dir(project)
                .env("DOTNET_DOUBLE_SCENARIO", "build-server")
                .env("DOTNET_DOUBLE_SERVER_PID_FILE", &pid_file)
                .env("UseSharedCompilation", "true")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "the user's build: {status:?}");
            Self(std::fs::read_to_string(pid_file).unwrap().trim().parse().unwrap())
        }

        fn pid(&self) -> u32 {
            self.0
        }
    }

    impl Drop for UsersServer {
        fn drop(&mut self) {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(self.0 as i32), Signal::SIGKILL);
        }
    }

    /// Whether process `pid` runs and has no `SIGKILL` pending. A process sent `SIGKILL` is gone, a
    /// zombie, or has the signal pending until it next gets the CPU, so once whoever could have
    /// killed it has exited, this says for sure that it did not (no waiting for what did not happen).
    fn untouched(pid: u32) -> bool {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else { return false };
        let sigkill_pending = status
            .lines()
            .filter_map(|line| line.strip_prefix("SigPnd:").or_else(|| line.strip_prefix("ShdPnd:")))
            .any(|mask| u64::from_str_radix(mask.trim(), 16).is_ok_and(|mask| mask & (1 << (libc::SIGKILL - 1)) != 0));
        process_alive(pid) && !sigkill_pending
    }

    /// `signal` to process `pid`.
    fn send(pid: u32, signal: Signal) {
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), signal).unwrap();
    }

    /// Waits until process `pid` is gone ([`common::wait_dead`]; the double's server would idle
    /// 600 s), or fails saying `what` still runs.
    async fn wait_dead(pid: u32, what: &str) {
        assert!(common::wait_dead(pid).await, "{what} (process {pid}) still runs");
    }

    #[tokio::test]
    async fn a_build_server_our_build_left_runs_on_until_the_host_exits_and_the_users_own_is_never_touched() {
        let dir = project_dir();
        let users = UsersServer::start(dir.path());
        let setup = leaving_a_server(dir.path(), json!({}), json!({}));
        // The host ends as a client ends it (stdin closed), then as a service manager does (SIGTERM).
        for terminated in [false, true] {
            let client = setup.stdio().await;
            let server = build_leaving_a_server(&client, dir.path()).await;
            // Adopted when the build ended, where anything else left in the build's group is killed.
            assert!(untouched(server), "the server was killed with the build's group");
            let status = if terminated {
                send(client.pid(), Signal::SIGTERM);
                client.wait_exit().await
            } else {
                client.close().await
            };
            assert!(status.success(), "{status:?}");
            wait_dead(server, &format!("the server our build left, after the host exited (SIGTERM: {terminated})"))
                .await;
        }
        assert!(untouched(users.pid()), "the user's server was killed");
    }

    #[tokio::test]
    async fn a_worker_or_host_killed_outright_leaves_no_build_server_of_ours_behind_and_the_users_own_runs_on() {
        let dir = project_dir();
        let users = UsersServer::start(dir.path());
        let patch = json!({ "Plugins": {
            "Isolation": { "dotnet_project": "process" },
            "Workers": { "dotnet_project": { "WritePaths": [dir.path()] } }
        } });
        let setup = leaving_a_server(dir.path(), json!({}), patch);
        let client = setup.stdio().await;
        let server = build_leaving_a_server(&client, dir.path()).await;
        assert!(untouched(server), "the server was killed with the build's group");
        // A worker killed with SIGKILL runs no exit handler: the guard it started stops the server.
        let workers = common::children(client.pid());
        assert_eq!(workers.len(), 1, "dotnet_project's worker alone: {workers:?}");
        send(workers[0], Signal::SIGKILL);
        wait_dead(server, "the server our build left, after its worker was killed").await;

        // The next build runs in a new worker; the host killed outright takes that worker with it,
        // and that worker's guard stops the server.
        let server = build_leaving_a_server(&client, dir.path()).await;
        assert!(untouched(server), "the server was killed with the build's group");
        send(client.pid(), Signal::SIGKILL);
        wait_dead(server, "the server our build left, after the host was killed").await;
        assert!(untouched(users.pid()), "the user's server was killed");
    }

    #[tokio::test]
    async fn with_build_servers_off_a_server_the_build_still_left_is_not_adopted() {
        let dir = project_dir();
        // `Environment` wins over `BuildServers`: the operator's UseSharedCompilation=true makes the
        // build start a compiler server anyway, which the plugin then neither adopts nor stops.
        let settings = json!({ "BuildServers": false, "Environment": { "UseSharedCompilation": "true" } });
        let setup = leaving_a_server(dir.path(), settings, json!({}));
        let client = setup.stdio().await;
        let server = build_leaving_a_server(&client, dir.path()).await;
        let status = client.close().await;
        assert!(status.success(), "{status:?}");
        let left_alone = untouched(server);
        send(server, Signal::SIGKILL); // It would idle 600 s.
        assert!(left_alone, "the server was stopped although BuildServers is false");
    }
}

#[tokio::test]
async fn a_missing_dotnet_and_a_runtime_only_dotnet_are_clear_errors() {
    let dir = project_dir();
    let setup = setup(dir.path(), json!({ "dotnet_sdk": { "DotnetPath": "/nonexistent/dotnet" } }));
    let client = setup.stdio().await;
    let result = client.call("dotnet_sdk", json!({ "action": "Version" })).await;
    assert_eq!(result["isError"], true);
    assert_eq!(error_code(&result), "CAPABILITY_NOT_AVAILABLE", "{result}");
    assert!(result["structuredContent"]["errors"][0]["alternatives"].as_array().is_some_and(|list| !list.is_empty()));

    let setup = self::setup(
        dir.path(),
        json!({ "dotnet_sdk": { "Environment": { "DOTNET_DOUBLE_SCENARIO": "runtime-only" } } }),
    );
    let client = setup.stdio().await;
    let result = client.call("dotnet_sdk", json!({ "action": "Version" })).await;
    assert_eq!(result["isError"], true);
    assert_eq!(error_code(&result), "SDK_NOT_FOUND", "{result}");
    assert!(text_of(&result).contains("no SDK"), "{}", text_of(&result));
}

#[tokio::test]
async fn content_negotiation_shapes_the_text_not_the_data() {
    let dir = project_dir();
    let setup = setup(dir.path(), json!({}));
    let plain = setup.stdio().await;
    let text_result = plain.call("dotnet_sdk", json!({ "action": "ListSdks" })).await;
    let negotiated = setup
        .stdio_with(
            &[],
            json!({ "extensions": { "io.modelcontextprotocol/content-negotiation": { "features": ["agent", "format=json"] } } }),
        )
        .await;
    let json_result = negotiated.call("dotnet_sdk", json!({ "action": "ListSdks" })).await;
    assert_eq!(text_result["structuredContent"], json_result["structuredContent"], "the data is the same");
    assert_ne!(text_of(&text_result), text_of(&json_result), "the presentation differs");
    let parsed: Value = serde_json::from_str(&text_of(&json_result)).expect("format=json gives JSON text");
    assert!(parsed.is_object());
}

#[tokio::test]
async fn no_secret_leaves_the_server() {
    let dir = project_dir();
    let secrets = std::fs::read_to_string(
        common::workspace_root().join("plugins/dotnet/test-double/fixtures/secrets/values.txt"),
    )
    .unwrap();
    let values: Vec<&str> =
        secrets.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect();
    assert!(!values.is_empty());
    let mut settings = json!({});
    for plugin in DOTNET_PLUGINS {
        settings[plugin] = json!({ "Environment": { "DOTNET_DOUBLE_SCENARIO": "secrets" } });
    }
    let setup = setup(dir.path(), settings);
    let client = setup.stdio().await;
    let calls = [
        ("dotnet_project", json!({ "action": "Build" })),
        ("dotnet_dev_certs", json!({ "action": "SecretsList" })),
        ("dotnet_dev_certs", json!({ "action": "SecretsSet", "key": "Db:Password", "value": "hunter2-hunter2" })),
        ("dotnet_sdk", json!({ "action": "Info" })),
    ];
    for (tool, arguments) in calls {
        let answer = client.request("tools/call", json!({ "name": tool, "arguments": arguments })).await;
        let wire = answer.to_string();
        for secret in &values {
            assert!(!wire.contains(secret), "{tool} leaked '{secret}' in {wire}");
        }
        assert!(!wire.contains("hunter2-hunter2"), "{tool} leaked the value it was given");
    }
}

/// The argument vectors the double logged to `log`, in order.
fn logged(log: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .map(|record| serde_json::from_value(record["argv"].clone()).unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn a_read_only_server_offers_only_what_reads_and_refuses_the_rest() {
    let dir = project_dir();
    let log = dir.path().join("double.log");
    let mut per_plugin = json!({});
    for plugin in DOTNET_PLUGINS {
        per_plugin[plugin] = json!({ "Environment": { "DOTNET_DOUBLE_LOG": log } });
    }
    // `ReadOnly` in Plugins.Config holds for every dotnet plugin.
    let setup =
        setup_config(dir.path(), json!({ "Plugins": { "Settings": per_plugin, "Config": { "ReadOnly": true } } }));
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    let tool = |name: &str| tools.iter().find(|tool| tool["name"] == name).unwrap_or_else(|| panic!("{name}")).clone();
    for plugin in DOTNET_PLUGINS {
        let annotations = &tool(plugin)["annotations"];
        assert_eq!(annotations["readOnlyHint"], true, "{plugin}: {annotations}");
        assert_eq!(annotations["destructiveHint"], false, "{plugin}: {annotations}");
        assert_eq!(annotations["idempotentHint"], true, "{plugin}: {annotations}");
    }
    let workload = tool("dotnet_workload");
    assert_eq!(workload["inputSchema"]["properties"]["action"]["enum"], json!(["List", "Info", "Search"]));
    assert!(workload["inputSchema"]["properties"].get("workloadIds").is_none(), "no parameter of a hidden action");
    let actions = tool("dotnet_project")["inputSchema"]["properties"]["action"]["enum"].clone();
    assert!(!actions.as_array().unwrap().contains(&json!("Build")), "{actions}");
    assert!(actions.as_array().unwrap().contains(&json!("Analyze")), "{actions}");
    let branches = workload["outputSchema"]["anyOf"][0]["anyOf"].as_array().unwrap().len();
    assert_eq!(branches, 2, "two success shapes (List/Info, Search) under the successes' success: true");

    let listed = client.call("dotnet_workload", json!({ "action": "List" })).await;
    assert_ne!(listed["isError"], true, "{listed}");
    assert_eq!(listed["structuredContent"]["success"], true);

    // A client that names a mutating action anyway is refused before anything runs: the host
    // checks the narrowed enum (the plugin would answer READ_ONLY to a host that did not).
    let refused = client.call("dotnet_workload", json!({ "action": "Install", "workloadIds": ["ios"] })).await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(text_of(&refused).contains("List, Info, Search"), "{}", text_of(&refused));
    let built = client.call("dotnet_project", json!({ "action": "Build" })).await;
    assert_eq!(built["isError"], true, "{built}");
    assert_eq!(logged(&log), [vec!["workload".to_owned(), "list".to_owned()]], "only the listing ran");
    client.close().await;

    // In one plugin's own section, it narrows that plugin only.
    let setup = self::setup(dir.path(), json!({ "dotnet_tool": { "ReadOnly": true } }));
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    let hints = |name: &str| {
        let tool = tools.iter().find(|tool| tool["name"] == name).unwrap();
        (tool["annotations"]["readOnlyHint"].clone(), tool["inputSchema"]["properties"]["action"]["enum"].clone())
    };
    assert_eq!(hints("dotnet_tool"), (json!(true), json!(["List", "Search"])));
    assert_eq!(hints("dotnet_sdk").0, json!(false), "the others keep every action");
    client.close().await;
}

/// Known-value redaction end to end: the secret values the machine holds (a user secret, a
/// `.pgpass` and a `.netrc` password, the user's and the project's NuGet.Config passwords, an
/// environment variable with a secret name) are learned by the plugins and never leave the host
/// when a dotnet prints them bare, inside words or encoded: not in the answer, not in a progress
/// notification, not in the host's log at trace level.
#[tokio::test]
async fn secret_values_the_machine_holds_never_leave_the_host_in_any_form() {
    let dir = project_dir();
    let home = tempfile::tempdir().unwrap();
    let write = |path: &Path, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let nuget = |user: &str, password: &str| {
        format!(
            r#"<configuration><packageSourceCredentials><feed><add key="Username" value="{user}" /><add key="ClearTextPassword" value="{password}" /></feed></packageSourceCredentials></configuration>"#
        )
    };
    let h = home.path();
    write(&h.join(".microsoft/usersecrets/app-1/secrets.json"), r#"{ "Api:Password": "us-Pa55-word-1" }"#);
    write(&h.join(".pgpass"), "db.local:5432:app:pguser:pg-Pa55/word+2\n");
    write(&h.join(".netrc"), "machine feed.local login nuser password nr-Pa55-word-3\n");
    write(&h.join(".nuget/NuGet/NuGet.Config"), &nuget("nguser", "ng-Pa55&amp;word-4"));
    write(&dir.path().join("nuget.config"), &nuget("proj", "proj-Pa55-word-5"));
    // What the fake dotnet prints: each value where no pattern could know it is secret.
    let printed = [
        ("out", "using us-Pa55-word-1 now"),
        ("err", "url http://pguser:pg-Pa55%2Fword%2B2@db.local/app"),
        ("out", "basic bmd1c2VyOm5nLVBhNTUmd29yZC00 sent"),
        ("err", "netrc gave nr-Pa55-word-3;"),
        ("out", "feed key=proj-Pa55-word-5xyz"),
        ("out", "{\"v\":\"env-Pa55-word-6\"}"),
    ];
    let script = h.join("fake-dotnet");
    let mut body = String::from("#!/bin/sh\n");
    for (stream, line) in printed {
        body.push_str(&format!("printf '%s\\n' '{line}'{}\n", if stream == "err" { " >&2" } else { "" }));
    }
    write(&script, &body);
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let setup = setup_config(
        dir.path(),
        json!({ "Host": { "LogLevel": "trace" }, "Plugins": { "Config": { "DotnetPath": script } } }),
    );
    let token = h.join("unused");
    let client = setup
        .stdio_env(
            &[],
            json!({ "extensions": { "io.modelcontextprotocol/content-negotiation": { "features": ["verbosity=verbose"] } } }),
            &[("HOME", h), ("MY_SERVICE_TOKEN", Path::new("env-Pa55-word-6")), ("UNRELATED", &token)],
        )
        .await;
    let answer = client
        .request(
            "tools/call",
            json!({ "name": "dotnet_project", "arguments": { "action": "Build" }, "_meta": { "progressToken": "p1" } }),
        )
        .await;
    let shown = text_of(&answer["result"]);
    assert!(shown.contains("using [REDACTED] now") && shown.contains("netrc gave [REDACTED];"), "{shown}");
    let forms = [
        "us-Pa55-word-1",
        "pg-Pa55/word+2",
        "pg-Pa55%2Fword%2B2",
        "nr-Pa55-word-3",
        "ng-Pa55&word-4",
        // base64 of `nguser:ng-Pa55&word-4`, as HTTP Basic carries it.
        "bmd1c2VyOm5nLVBhNTUmd29yZC00",
        "proj-Pa55-word-5",
        "env-Pa55-word-6",
    ];
    let notifications = serde_json::to_string(&client.notifications()).unwrap();
    let log = client.stderr();
    assert!(log.contains("call finished"), "the host logged the call: {log}");
    for form in forms {
        for (what, text) in [("answer", &answer.to_string()), ("progress", &notifications), ("host log", &log)] {
            assert!(!text.contains(form), "{form} reached the {what}: {text}");
        }
    }
}
