//! End-to-end tests of plugin trust through the real host binary: the lock
//! file `plugins lock` writes, the libraries a start (and a reload) refuses
//! against it, and the ssh-like permission checks.
//!
//! Each case breaks the trust one way (a library changed by one byte, the
//! same bytes offering another surface, a library the lock does not name,
//! a world-writable file), sees it refused with its one line, then mends it
//! (`plugins lock`, or `chmod`) and sees it served again. Then: without
//! `RequireLock` a difference is a warning; a reload refuses an unpinned
//! replacement and reads a changed lock; a plugin created on first use is
//! created only from the file that was verified.

#![cfg(unix)]

mod common;

use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    time::Duration,
};

use common::{Client, Setup, fixture_plugins, lib_name, text_of};
use serde_json::{Value, json};

/// `libreload.so` in the plugin folder: a copy of the fixture (so it can be changed), mode 0644.
fn reload_library(setup: &Setup) -> PathBuf {
    setup.dir.path().join("plugins").join(lib_name("reload"))
}

/// The sample plugin (linked) and a copy of `reload_v1` as `libreload.so`, with `config` merged in.
fn setup_with(config: Value) -> Setup {
    let setup = Setup::new(&["sample"], &[], config);
    let library = reload_library(&setup);
    std::fs::copy(fixture_plugins().join(lib_name("reload_v1")), &library).unwrap();
    std::fs::set_permissions(&library, std::fs::Permissions::from_mode(0o644)).unwrap();
    setup
}

fn lock_file(setup: &Setup) -> PathBuf {
    setup.dir.path().join("plugins.lock.json")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `plugins lock`, which must succeed; returns what it printed.
fn lock(setup: &Setup) -> String {
    let output = setup.run(&["plugins", "lock"]);
    assert!(output.status.success(), "plugins lock failed:\n{}\n{}", text(&output.stdout), text(&output.stderr));
    text(&output.stdout)
}

/// Runs `check`; returns whether it passed and what it printed (stdout, stderr).
fn check(setup: &Setup) -> (bool, String, String) {
    let output = setup.run(&["check"]);
    (output.status.success(), text(&output.stdout), text(&output.stderr))
}

/// Starts a host, lists its tools and stops it: the tool names and its log.
async fn serve(setup: &Setup) -> (Vec<String>, String) {
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap_or_else(|| panic!("a tool list: {list}"));
    let names = tools.iter().map(|tool| tool["name"].as_str().unwrap().to_owned()).collect();
    let stderr = client.stderr();
    client.close().await;
    (names, stderr)
}

/// Waits until the host has applied `count` reloads in all.
async fn reloads(client: &Client, count: usize) {
    let done =
        client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.matches("reloaded:").count() >= count).await;
    assert!(done, "{count} reload(s) did not happen:\n{}", client.stderr());
}

/// The log lines that mention `needle`.
fn lines_with<'a>(log: &'a str, needle: &str) -> Vec<&'a str> {
    log.lines().filter(|line| line.contains(needle)).collect()
}

/// Appends one byte to a library (it still loads: nothing reads past its sections).
fn change_one_byte(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    bytes.push(0);
    let staging = file.with_extension("part");
    std::fs::write(&staging, bytes).unwrap();
    std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::rename(&staging, file).unwrap();
}

#[tokio::test]
async fn plugins_lock_pins_every_library_and_an_unchanged_folder_serves_and_checks_clean() {
    let setup = setup_with(json!({}));
    let printed = lock(&setup);
    assert!(printed.contains("added libreload.so: plugin reload"), "{printed}");
    assert!(printed.contains("added libsample.so: plugin sample"), "{printed}");
    let lock: Value = serde_json::from_str(&std::fs::read_to_string(lock_file(&setup)).unwrap()).unwrap();
    let pinned = &lock["libraries"]["libreload.so"];
    assert_eq!(pinned["plugin"], "reload");
    assert_eq!(pinned["sha256"].as_str().unwrap().len(), 64, "{pinned}");
    assert!(pinned["surface"]["tools"]["reload_version"]["description"].is_string(), "{pinned}");

    let again = self::lock(&setup);
    assert!(again.contains("2 libraries pinned, no change"), "{again}");
    let (passed, stdout, stderr) = check(&setup);
    assert!(passed, "{stdout}\n{stderr}");
    // Twice: the second start serves from the plugin cache and takes the verified hashes from it.
    for _ in 0..2 {
        let (tools, log) = serve(&setup).await;
        assert!(tools.contains(&"reload_version".to_owned()) && tools.contains(&"echo".to_owned()), "{tools:?}");
        assert!(lines_with(&log, "ERROR").is_empty() && lines_with(&log, "WARN").is_empty(), "{log}");
    }
    // What the next start compares without hashing: the file's hash and the offer's surface hash, in the cache.
    let cache: Value =
        serde_json::from_str(&std::fs::read_to_string(setup.dir.path().join("plugin-cache.json")).unwrap()).unwrap();
    let key = std::fs::canonicalize(reload_library(&setup)).unwrap().display().to_string();
    assert_eq!(cache["verified"][&key]["sha256"], pinned["sha256"], "{cache}");
    assert_eq!(cache["libraries"][&key]["offer"]["offer"]["surfaceSha256"], pinned["surface"]["sha256"], "{cache}");
}

#[tokio::test]
async fn a_library_changed_by_one_byte_is_refused_until_it_is_locked_again() {
    let setup = setup_with(json!({}));
    lock(&setup);
    // A start first, so that the plugin cache knows the unchanged file.
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()));
    change_one_byte(&reload_library(&setup));

    let (tools, log) = serve(&setup).await;
    assert!(!tools.contains(&"reload_version".to_owned()), "{tools:?}");
    assert!(tools.contains(&"echo".to_owned()), "the other plugin still serves: {tools:?}");
    let refused = lines_with(&log, "refused libreload.so");
    assert_eq!(refused.len(), 1, "{log}");
    assert!(refused[0].contains("ERROR"), "{}", refused[0]);
    assert!(refused[0].contains("its SHA-256") && refused[0].contains("differs from the"), "{}", refused[0]);
    let (passed, stdout, _) = check(&setup);
    assert!(!passed, "check fails on a changed library: {stdout}");

    let printed = lock(&setup);
    assert!(printed.contains("changed libreload.so: SHA-256"), "{printed}");
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()), "served once locked again");
}

#[tokio::test]
async fn the_same_bytes_offering_another_surface_are_refused_before_any_tool_serves() {
    let setup = setup_with(json!({}));
    lock(&setup);
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()));
    // Nothing on disk changes but the configuration, which rewrites a description.
    let config = json!({
        "Host": { "LogLevel": "info", "LockDirectory": "locks" },
        "Plugins": {
            "Directory": "plugins",
            "CacheFile": "plugin-cache.json",
            "Settings": { "reload": { "Description": "Answers, and also mails ~/.ssh to a stranger." } }
        }
    });
    std::fs::write(setup.config(), config.to_string()).unwrap();

    let (tools, log) = serve(&setup).await;
    assert!(!tools.iter().any(|tool| tool.starts_with("reload_")), "no tool of the plugin serves: {tools:?}");
    let refused = lines_with(&log, "refused libreload.so");
    assert_eq!(refused.len(), 1, "{log}");
    assert!(
        refused[0].contains("it offers another surface than pinned in")
            && refused[0].contains("tool 'reload_version' changed its description"),
        "{}",
        refused[0]
    );

    let printed = lock(&setup);
    assert!(printed.contains("changed libreload.so: tool 'reload_version' changed its description"), "{printed}");
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()), "served once locked again");
}

#[tokio::test]
async fn a_library_the_lock_does_not_name_is_refused_until_it_is_locked() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    lock(&setup);
    let library = reload_library(&setup);
    std::fs::copy(fixture_plugins().join(lib_name("reload_v1")), &library).unwrap();
    std::fs::set_permissions(&library, std::fs::Permissions::from_mode(0o644)).unwrap();

    let (tools, log) = serve(&setup).await;
    assert!(!tools.contains(&"reload_version".to_owned()), "{tools:?}");
    let refused = lines_with(&log, "refused libreload.so");
    assert_eq!(refused.len(), 1, "{log}");
    assert!(refused[0].contains("it is not pinned in") && refused[0].contains("plugins.lock.json"), "{}", refused[0]);
    // Refused before it was opened: the report knows no plugin name.
    let document = setup.plugins_json();
    let report = document["plugins"].as_array().unwrap().iter().find(|report| report["file"] == "libreload.so");
    assert_eq!(report.unwrap()["plugin"], Value::Null, "{document}");

    let printed = lock(&setup);
    assert!(printed.contains("added libreload.so"), "{printed}");
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()), "served once locked");
}

#[tokio::test]
async fn files_others_can_write_are_refused_with_their_mode_until_mended() {
    let setup = setup_with(json!({}));
    lock(&setup);
    let library = reload_library(&setup);
    std::fs::set_permissions(&library, std::fs::Permissions::from_mode(0o666)).unwrap();

    let (tools, log) = serve(&setup).await;
    assert!(!tools.contains(&"reload_version".to_owned()) && tools.contains(&"echo".to_owned()), "{tools:?}");
    let refused = lines_with(&log, "refused libreload.so");
    assert_eq!(refused.len(), 1, "{log}");
    assert!(refused[0].contains("(mode 0666) is writable by its group and others"), "{}", refused[0]);
    assert!(refused[0].contains(&library.display().to_string()), "{}", refused[0]);
    // The lock does not pin what others could have changed.
    let output = setup.run(&["plugins", "lock"]);
    assert!(!output.status.success(), "{}", text(&output.stdout));
    assert!(text(&output.stdout).contains("libreload.so: not pinned: it is not loaded:"), "{}", text(&output.stdout));
    std::fs::set_permissions(&library, std::fs::Permissions::from_mode(0o644)).unwrap();
    lock(&setup);
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()), "served once mended");

    // A lock file others can write vouches for nothing: every library is refused, in one line.
    std::fs::set_permissions(lock_file(&setup), std::fs::Permissions::from_mode(0o646)).unwrap();
    let (tools, log) = serve(&setup).await;
    assert!(tools.is_empty(), "{tools:?}");
    let line = lines_with(&log, "the lock file cannot be trusted");
    assert_eq!(line.len(), 1, "{log}");
    assert!(line[0].contains("(mode 0646) is writable by others"), "{}", line[0]);
    std::fs::set_permissions(lock_file(&setup), std::fs::Permissions::from_mode(0o644)).unwrap();

    // So does a plugin folder others can write.
    let folder = setup.dir.path().join("plugins");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    let (tools, log) = serve(&setup).await;
    assert!(tools.is_empty(), "{tools:?}");
    let line = lines_with(&log, "no plugin is loaded from a folder others can change");
    assert_eq!(line.len(), 1, "{log}");
    assert!(line[0].contains("(mode 0777)"), "{}", line[0]);
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[tokio::test]
async fn without_require_lock_a_difference_is_served_with_one_warning_and_check_still_fails() {
    let setup = setup_with(json!({ "Plugins": { "RequireLock": false } }));
    lock(&setup);
    change_one_byte(&reload_library(&setup));

    let (tools, log) = serve(&setup).await;
    assert!(tools.contains(&"reload_version".to_owned()), "served anyway: {tools:?}");
    let warned = lines_with(&log, "serving libreload.so although");
    assert_eq!(warned.len(), 1, "{log}");
    assert!(warned[0].contains("WARN") && warned[0].contains("its SHA-256"), "{}", warned[0]);
    assert!(lines_with(&log, "ERROR").is_empty(), "{log}");
    let (passed, stdout, _) = check(&setup);
    assert!(!passed, "check fails on a difference from the lock: {stdout}");
    assert!(stdout.contains("served although its SHA-256"), "{stdout}");
}

#[tokio::test]
async fn a_reload_refuses_an_unpinned_replacement_and_rereads_a_changed_lock() {
    let setup = setup_with(json!({ "Plugins": { "WatchQuietMs": 100 } }));
    lock(&setup);
    let client = setup.stdio().await;
    // Created now (the plugin cache would otherwise create it on first use, from the file as it is then).
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
    // Version 2 is put in place: it is not pinned, so version 1 goes on serving.
    let library = reload_library(&setup);
    let staging = library.with_extension("part");
    std::fs::copy(fixture_plugins().join(lib_name("reload_v2")), &staging).unwrap();
    std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::rename(&staging, &library).unwrap();
    reloads(&client, 1).await;
    let answer = client.call("reload_version", json!({})).await;
    assert_eq!(text_of(&answer), "v1", "{answer}");
    assert_eq!(lines_with(&client.stderr(), "its SHA-256").len(), 1, "{}", client.stderr());

    // Pinning it changes the lock file, which the host reads again: version 2 serves.
    lock(&setup);
    reloads(&client, 2).await;
    let answer = client.call("reload_version", json!({})).await;
    assert_eq!(text_of(&answer), "v2", "{answer}\n{}", client.stderr());
    client.close().await;
}

#[tokio::test]
async fn a_plugin_created_on_first_use_is_created_only_from_the_file_that_was_verified() {
    let setup = setup_with(json!({ "Plugins": { "Watch": false } }));
    lock(&setup);
    assert!(serve(&setup).await.0.contains(&"reload_version".to_owned()), "fills the plugin cache");
    // Served from the cache, not created yet; then the file changes and no reload looks at it.
    let client = setup.stdio().await;
    change_one_byte(&reload_library(&setup));
    let answer = client.call("reload_version", json!({})).await;
    assert_eq!(answer["isError"], true, "{answer}");
    assert!(
        text_of(&answer).contains("its library changed after the host checked it against the lock file"),
        "{answer}"
    );
    client.close().await;
}
