//! End-to-end tests of the commands that set an installation up, through the
//! real binary: where the configuration is found (and the host saying which
//! it used), `init`, `client-config` for every client, the hint printed
//! when the stdio server is started by hand on a terminal, and which flags
//! each command takes.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use serde_json::Value;

const HOST: &str = env!("CARGO_BIN_EXE_mcp-plugin-host");

/// The host run in `cwd` with `XDG_CONFIG_HOME` pointing into `home` (and no configuration
/// named by the environment).
fn host(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(HOST)
        .args(args)
        .current_dir(cwd)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("HOME", home)
        .env_remove("MCP_PLUGIN_HOST_CONFIG")
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

struct Dirs {
    _temp: tempfile::TempDir,
    home: PathBuf,
    work: PathBuf,
}

fn dirs() -> Dirs {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let (home, work) = (root.join("home"), root.join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    Dirs { _temp: temp, home, work }
}

#[test]
#[cfg(target_os = "linux")]
fn the_configuration_is_found_in_the_current_folder_then_the_users_and_the_host_says_which() {
    let Dirs { _temp: _keep, home, work } = dirs();
    let user_file = home.join("config/mcp-plugin-host/appsettings.json");

    let none = host(&work, &home, &["check"]);
    assert_eq!(none.status.code(), Some(2));
    let stderr = text(&none.stderr);
    assert!(stderr.contains("no configuration found"), "{stderr}");
    assert!(stderr.contains(&user_file.display().to_string()), "{stderr}");
    assert!(stderr.contains("mcp-plugin-host init"), "{stderr}");

    let init = host(&work, &home, &["init", "--plugin-dir", "libs"]);
    assert!(init.status.success(), "{}", text(&init.stderr));
    assert!(text(&init.stdout).contains(&format!("wrote {}", user_file.display())));
    let again = host(&work, &home, &["init"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("already exists"), "{}", text(&again.stderr));

    // The user's file is used, and named on stderr.
    let plugins = host(&work, &home, &["plugins", "--json"]);
    assert!(plugins.status.success(), "{}", text(&plugins.stderr));
    let stderr = text(&plugins.stderr);
    assert!(
        stderr.contains(&format!("configuration {} (found in the user configuration folder)", user_file.display())),
        "{stderr}"
    );

    // A file in the current folder comes first.
    std::fs::write(work.join("appsettings.json"), r#"{ "Plugins": { "Directory": "." } }"#).unwrap();
    let plugins = host(&work, &home, &["plugins", "--json"]);
    let stderr = text(&plugins.stderr);
    assert!(stderr.contains("(found in the current folder)"), "{stderr}");
}

/// `client-config` for every client: what it prints parses, in the shape that client reads,
/// and starts this very binary with the configuration's absolute path.
#[test]
fn client_config_prints_each_clients_shape_with_absolute_paths() {
    let Dirs { _temp: _keep, home, work } = dirs();
    std::fs::write(work.join("appsettings.json"), "{}").unwrap();
    let config = work.join("appsettings.json").display().to_string();
    let host_path = PathBuf::from(HOST).canonicalize().unwrap().display().to_string();

    for client in ["claude-desktop", "cursor", "generic", "vscode"] {
        let output = host(&work, &home, &["client-config", "--client", client]);
        assert!(output.status.success(), "{client}: {}", text(&output.stderr));
        let snippet: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|error| panic!("{client} printed no JSON ({error}):\n{}", text(&output.stdout)));
        let section = if client == "vscode" { "servers" } else { "mcpServers" };
        let servers = snippet[section].as_object().unwrap_or_else(|| panic!("{client}: no {section} in {snippet}"));
        let entry = &servers["mcp-plugin-host"];
        assert_eq!(entry["command"], host_path.as_str(), "{client}");
        assert_eq!(entry["args"], serde_json::json!(["--config", config]), "{client}");
        if client == "vscode" {
            assert_eq!(entry["type"], "stdio");
        }
        assert!(!text(&output.stderr).is_empty(), "{client}: where the snippet goes is said on stderr");
    }

    let output = host(&work, &home, &["client-config", "--client", "claude-code", "--name", "plugins"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let words = shell_words::split(text(&output.stdout).trim()).unwrap();
    assert_eq!(words[..9], ["claude", "mcp", "add", "--transport", "stdio", "--scope", "user", "plugins", "--"]);
    assert_eq!(words[9..], [host_path.as_str(), "--config", config.as_str()]);

    let http = ["client-config", "--client", "vscode", "--http", "http://127.0.0.1:8080/mcp", "--token-env", "TOKEN"];
    let output = host(&work, &home, &http);
    let snippet: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(snippet["servers"]["mcp-plugin-host"]["headers"]["Authorization"], "Bearer ${env:TOKEN}");

    let refused = host(&work, &home, &["client-config", "--client", "claude-desktop", "--http", "http://h/mcp"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("leave out --http"), "{}", text(&refused.stderr));
    let refused = host(&work, &home, &["client-config", "--client", "vscode", "--token-env", "T"]);
    assert!(!refused.status.success(), "--token-env without --http is refused");
}

/// Started on a terminal, the stdio server says in one line what it waits for and how to try it.
#[test]
#[cfg(unix)]
fn started_by_hand_on_a_terminal_it_prints_how_to_try_it() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::ffi::OsStrExt;
    use std::process::Stdio;

    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

    let Dirs { _temp: _keep, home, work } = dirs();
    std::fs::write(work.join("appsettings.json"), r#"{ "Plugins": { "Directory": "." } }"#).unwrap();
    let controller = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&controller).unwrap();
    unlockpt(&controller).unwrap();
    let terminal_path = ptsname(&controller, Vec::new()).unwrap();
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(std::ffi::OsStr::from_bytes(terminal_path.as_bytes()))
        .unwrap();

    let mut child = Command::new(HOST)
        .current_dir(&work)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read on a thread, so that a host waiting silently fails the test instead of hanging it.
    let stderr = child.stderr.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stderr).read_line(&mut line);
        let _ = sender.send(line);
    });
    let line = receiver.recv_timeout(std::time::Duration::from_secs(30)).unwrap_or_default();
    child.kill().unwrap();
    child.wait().unwrap();
    let config = work.join("appsettings.json");
    let host_path = PathBuf::from(HOST).canonicalize().unwrap();
    assert!(line.starts_with("mcp-plugin-host speaks MCP on stdio"), "{line}");
    assert!(
        line.contains(&format!(
            "npx @modelcontextprotocol/inspector {} --config {}",
            host_path.display(),
            config.display()
        )),
        "{line}"
    );
    drop(controller);
}

/// Over a pipe (how clients start it) there is no hint: stderr stays for logs.
#[test]
fn started_by_a_client_on_a_pipe_it_prints_no_hint() {
    let Dirs { _temp: _keep, home, work } = dirs();
    std::fs::write(work.join("appsettings.json"), r#"{ "Plugins": { "Directory": "." } }"#).unwrap();
    let output = Command::new(HOST)
        .current_dir(&work)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!text(&output.stderr).contains("speaks MCP on stdio"), "{}", text(&output.stderr));
}

/// Each command takes the flags that do something for it: `serve --http` serves HTTP as `--http`
/// does, a serving flag given to another command is refused with the reason, and a command's help
/// lists only its own flags.
#[test]
fn each_command_takes_its_own_flags() {
    let dirs = dirs();
    let (work, home) = (&dirs.work, &dirs.home);
    let serve_help = text(&host(work, home, &["serve", "--help"]).stdout);
    assert!(serve_help.contains("--http") && serve_help.contains("--tool-timeout"), "{serve_help}");
    let init_help = text(&host(work, home, &["init", "--help"]).stdout);
    assert!(init_help.contains("--plugin-dir"), "{init_help}");
    for serving in ["--tool-timeout", "--server-name", "--http", "--log-level"] {
        assert!(!init_help.contains(serving), "init --help lists {serving}:\n{init_help}");
    }
    let check_help = text(&host(work, home, &["check", "--help"]).stdout);
    assert!(!check_help.contains("--tool-timeout") && check_help.contains("--plugin-dir"), "{check_help}");

    let refused = host(work, home, &["--tool-timeout", "5", "init"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("--tool-timeout does nothing with `init`"), "{}", text(&refused.stderr));
    let refused = host(work, home, &["init", "--tool-timeout", "5"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
}
