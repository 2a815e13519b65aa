//! Recording: the PID file and the JSON-lines invocation log.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

/// One line of the invocation log.
#[derive(Serialize)]
struct Invocation<'a> {
    argv: &'a [String],
    cwd: String,
    env: BTreeMap<String, String>,
}

/// Writes this process's PID to the file named by `DOTNET_DOUBLE_PID_FILE`, if set.
pub fn write_pid_file() {
    if let Some(path) = std::env::var_os("DOTNET_DOUBLE_PID_FILE").filter(|p| !p.is_empty())
        && let Err(e) = std::fs::write(&path, format!("{}\n", std::process::id()))
    {
        crate::out::err(&format!("dotnet-double: cannot write PID file {}: {e}", Path::new(&path).display()));
    }
}

/// Appends the process id of a compiler server this process started (the `build-server`
/// scenario) as a line to the file named by `DOTNET_DOUBLE_SERVER_PID_FILE`, if set.
pub fn append_server_pid(pid: u32) {
    append_line("DOTNET_DOUBLE_SERVER_PID_FILE", "server PID file", &format!("{pid}\n"));
}

/// Appends the process id of the child the `spawn-child` scenario started, once its
/// `double-child-pid` line is written, to the file named by `DOTNET_DOUBLE_CHILD_PID_FILE`, if set.
pub fn append_child_pid(pid: u32) {
    append_line("DOTNET_DOUBLE_CHILD_PID_FILE", "child PID file", &format!("{pid}\n"));
}

/// Appends `line` with one `write` call to the file named by the variable `var`, if set, on a
/// file opened for appending, so that concurrent invocations do not interleave their lines; says
/// on stderr when it cannot (`what` names the file there).
pub fn append_line(var: &str, what: &str, line: &str) {
    let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) else {
        return;
    };
    let written =
        OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        crate::out::err(&format!("dotnet-double: cannot append to {what} {}: {e}", Path::new(&path).display()));
    }
}

/// Appends `{"argv": [...], "cwd": "...", "env": {...}}` to the file named by
/// `DOTNET_DOUBLE_LOG`, if set. `env` holds only the `DOTNET_*` and `MSBUILD*` variables.
pub fn log_invocation(argv: &[String]) {
    if std::env::var_os("DOTNET_DOUBLE_LOG").is_none_or(|p| p.is_empty()) {
        return;
    }
    let env = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
        .filter(|(k, _)| k.starts_with("DOTNET_") || k.starts_with("MSBUILD"))
        .collect();
    let cwd = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
    let record = Invocation { argv, cwd, env };
    let mut line = serde_json::to_string(&record).expect("invocation serializes");
    line.push('\n');
    append_line("DOTNET_DOUBLE_LOG", "log", &line);
}
