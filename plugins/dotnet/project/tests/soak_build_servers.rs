//! A soak of `BuildServers: true` against the real SDK, run by hand (it takes minutes and needs
//! `dotnet` on PATH):
//!
//! ```text
//! SOAK_CANCELS=20 SOAK_BUILDS=5 cargo test -p dotnet-project-plugin --test soak_build_servers -- --ignored --nocapture
//! ```
//!
//! Through `dotnet_project`'s Build action, of a two-project solution: first a build server of "the user" is made sure of (a
//! plain `dotnet build` of another project, as in a shell); then SOAK_CANCELS builds, each after
//! one changed file, are cancelled at a varying moment of their compile, and SOAK_BUILDS normal
//! builds follow. It then counts build servers that are neither the user's nor adopted by the
//! plugin (orphans, goal 0) and processes holding files under the project's `obj/` or `bin/`
//! (held locks, goal 0 besides adopted servers), drops the tool (the plugin ending) and counts the
//! plugin's servers still alive (goal 0) and the user's (all still alive). It fails if nothing
//! was adopted: then it would have tested no adoption at all.
//!
//! The user's compiler server listens on a pipe of its own (`SharedCompilationId`): on the
//! default pipe, which the SDK derives from the user and the SDK's folder, every build of ours
//! would use the user's server and start none of its own, so no compiler server would ever be
//! in a group of ours. MSBuild keeps its worker nodes for reuse only when dotnet runs at normal
//! priority (SDK 10.0.401: under `nice`, even `nice -n 5`, a node started with `/nodeReuse:true`
//! exits with the build), so a soak run under `nice` adopts compiler servers only.
#![cfg(target_os = "linux")]

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use dotnet_support::servers;
use dotnet_support::testkit::{assert_dies, cancel_after, is_dead};
use mcp_plugin_api::testkit::TestCall;
use serde_json::json;

mod common;

/// Every live build server on the machine (any user of ours), by process id.
fn build_servers() -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| !is_dead(pid))
        .filter(|&pid| {
            let bytes = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let args: Vec<String> = bytes
                .split(|&b| b == 0)
                .filter(|arg| !arg.is_empty())
                .map(|arg| String::from_utf8_lossy(arg).into_owned())
                .collect();
            servers::is_build_server(&args)
        })
        .collect()
}

/// Processes with a file under `dir` open, with the file.
fn holders(dir: &Path) -> Vec<(u32, PathBuf)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut held = Vec::new();
    for pid in entries.filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok()) {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { continue };
        for fd in fds.flatten() {
            if let Ok(target) = std::fs::read_link(fd.path())
                && target.starts_with(dir)
            {
                held.push((pid, target));
            }
        }
    }
    held
}

fn dotnet(args: &[&str], dir: &Path, servers_on: bool) {
    let status = Command::new("dotnet")
        .args(args)
        .current_dir(dir)
        .env("UseSharedCompilation", if servers_on { "true" } else { "false" })
        .env("MSBUILDDISABLENODEREUSE", if servers_on { "0" } else { "1" })
        .env("DOTNET_NOLOGO", "1")
        .stdout(std::process::Stdio::null())
        .status()
        .expect("dotnet runs");
    assert!(status.success(), "dotnet {args:?}");
}

fn count(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|value| value.parse().ok()).unwrap_or(default)
}

#[test]
#[ignore = "a soak against the real SDK, minutes long; run by hand (see the module docs)"]
fn cancelled_and_normal_builds_leave_no_orphan_no_held_lock_and_no_server_of_ours_after_the_plugin() {
    let (cancels, builds) = (count("SOAK_CANCELS", 20), count("SOAK_BUILDS", 5));
    let scratch = tempfile::tempdir().unwrap();
    // The user's: a build in a shell, servers on, leaves (or reuses) a compiler server not ours.
    dotnet(&["new", "console", "-o", "Users"], scratch.path(), false);
    dotnet(&["build", "Users", "-nologo", "-v:q", "-p:SharedCompilationId=soak-users-own"], scratch.path(), true);
    let users = build_servers();
    println!("servers before the soak (the user's): {users:?}");

    let fx = common::fixture_with(|double| double.setting("DotnetPath", json!("dotnet")));
    std::fs::remove_dir_all(fx.path().join("App")).unwrap();
    dotnet(&["new", "console", "-o", "App"], fx.path(), false);
    // A two-project solution, so that MSBuild's worker nodes are reused (and adopted) as well.
    dotnet(&["new", "classlib", "-o", "Lib"], fx.path(), false);
    dotnet(&["new", "sln", "-n", "Both"], fx.path(), false);
    dotnet(&["sln", "Both.slnx", "add", "App/App.csproj", "Lib/Lib.csproj"], fx.path(), false);
    let program = fx.path().join("App/Program.cs");
    let touch = |n: u32| {
        let text = std::fs::read_to_string(&program).unwrap();
        std::fs::write(&program, format!("{text}// {n}\n")).unwrap();
    };
    let build = json!({ "action": "Build", "project": "Both.slnx" });
    let mut cancelled = 0;
    for n in 0..cancels {
        touch(n);
        let call = TestCall::new();
        // From 0.5 s to 4.3 s: restore, evaluation, and the compile itself on a loaded machine.
        let canceller = cancel_after(&call, Duration::from_millis(500 + u64::from(n % 20) * 200));
        let result = fx.call_with(&call, build.clone());
        canceller.join().unwrap();
        cancelled += u32::from(result.is_error);
    }
    for n in 0..builds {
        touch(1000 + n);
        let result = fx.call(build.clone());
        assert!(!result.is_error, "{}", result.joined_text());
    }
    let ours: Vec<u32> = servers::adopted().iter().map(|known| known.pid).collect();
    let orphans: Vec<u32> =
        build_servers().into_iter().filter(|pid| !users.contains(pid) && !ours.contains(pid)).collect();
    let held: Vec<(u32, PathBuf)> = ["App/obj", "App/bin"]
        .iter()
        .flat_map(|dir| holders(&fx.path().join(dir).canonicalize().unwrap()))
        .filter(|(pid, _)| !ours.contains(pid))
        .collect();
    println!(
        "{cancels} builds cancelled ({cancelled} ended cancelled), {builds} built; servers of ours: {ours:?}; \
         orphans: {orphans:?}; files held under obj/ and bin/: {held:?}"
    );
    drop(fx);
    // Killed at the drop; waited for (as their new parent reaps them), a hang ends the test.
    for &pid in &ours {
        assert_dies(pid);
    }
    let left: Vec<u32> = ours.iter().copied().filter(|&pid| !is_dead(pid)).collect();
    let users_alive = users.iter().filter(|&&pid| !is_dead(pid)).count();
    println!(
        "after the plugin ended: servers of ours alive {left:?}; the user's alive {users_alive} of {}",
        users.len()
    );
    assert!(!ours.is_empty(), "no server was adopted: the soak tested no adoption");
    assert!(orphans.is_empty() && held.is_empty() && left.is_empty());
    assert_eq!(users_alive, users.len(), "the user's servers are never touched");
}
