//! `dotnet-record`: records what the real SDK does, for `dotnet-double` to replay.
//!
//! Two modes:
//!
//! - **Shim** (when `DOTNET_RECORD_RAW` names a folder): the dotnet plugins' `DotnetPath` points
//!   here while the real-SDK scenarios play (`scripts/record-sdk`). It runs the real `dotnet`
//!   (`DOTNET_RECORD_REAL`, default `dotnet` on `PATH`) with the same arguments, working
//!   directory, environment and standard input, passes every output line on at once (so progress
//!   and streaming behave as without it), ends with the real exit code, and writes the
//!   invocation raw (absolute paths and all) to `<raw>/<scenario>/NNN-<words>.txt`. The scenario
//!   is what the file `<raw>/scenario` says when the command starts (`name` or `name
//!   double-scenario`: the double's scenario, such as `build-fail`, under which the recording is
//!   replayed); the runner writes it before each scenario. The file is rewritten after every
//!   line, so a background session that is killed leaves its output with `exit: killed`.
//! - **Normaliser** (`dotnet-record normalise RAW OUT`): turns the raw recordings into the
//!   committed ones: paths into placeholders, GUIDs, durations, timestamps and process ids into
//!   fixed values, and a header naming the SDK version and the scenario (`recording.rs`).

#[path = "recording.rs"]
mod recording;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;

use recording::{Recording, file_name};
use regex::{Captures, Regex};

fn main() -> ExitCode {
    match std::env::var_os("DOTNET_RECORD_RAW").filter(|raw| !raw.is_empty()) {
        Some(raw) => shim(Path::new(&raw)),
        None => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            match args.as_slice() {
                [mode, raw, out] if mode == "normalise" => match normalise_all(Path::new(raw), Path::new(out)) {
                    Ok(count) => {
                        println!("dotnet-record: {count} recording(s) written to {out}");
                        ExitCode::SUCCESS
                    }
                    Err(message) => {
                        eprintln!("dotnet-record: {message}");
                        ExitCode::FAILURE
                    }
                },
                _ => {
                    eprintln!(
                        "usage: DOTNET_RECORD_RAW=DIR dotnet-record <dotnet arguments>   (the recording shim)\n       \
                         dotnet-record normalise RAW OUT                        (raw recordings to committed ones)"
                    );
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Runs the real dotnet, passing its output on and recording it.
fn shim(raw: &Path) -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    let real = std::env::var_os("DOTNET_RECORD_REAL").filter(|r| !r.is_empty()).unwrap_or_else(|| "dotnet".into());
    let marker = fs::read_to_string(raw.join("scenario")).unwrap_or_default();
    let mut words = marker.split_whitespace();
    let scenario = words.next().unwrap_or("unnamed").to_owned();
    let double_scenario = words.next().map(str::to_owned);
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    let cwd = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
    let mut header = vec![
        ("scenario".to_owned(), scenario.clone()),
        ("workspace".to_owned(), env("DOTNET_RECORD_WORKSPACE")),
        ("home".to_owned(), env("HOME")),
        ("nuget_packages".to_owned(), env("NUGET_PACKAGES")),
        ("root".to_owned(), dotnet_root(&real)),
        ("temp".to_owned(), std::env::temp_dir().display().to_string()),
    ];
    if let Some(double_scenario) = double_scenario {
        header.push(("double-scenario".to_owned(), double_scenario));
    }
    let mut recording = Recording {
        header,
        argv: argv.iter().map(|a| a.to_string_lossy().into_owned()).collect(),
        cwd,
        exit: None,
        lines: Vec::new(),
    };
    let folder = raw.join(&scenario);
    let path = claim(&folder, &recording.argv);

    let mut command = Command::new(&real);
    command.args(&argv).stdin(Stdio::inherit()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("DOTNET_RECORD_") {
            command.env_remove(name);
        }
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            eprintln!("dotnet-record: cannot start {}: {error}", Path::new(&real).display());
            return ExitCode::from(127);
        }
    };
    let (sender, lines) = mpsc::channel::<(u8, String)>();
    let readers = [
        (1u8, child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>)),
        (2, child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>)),
    ]
    .into_iter()
    .filter_map(|(stream, pipe)| {
        let sender = sender.clone();
        pipe.map(|pipe| {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(pipe);
                let mut buffer = Vec::new();
                while reader.read_until(b'\n', &mut buffer).map(|n| n > 0).unwrap_or(false) {
                    let line = String::from_utf8_lossy(&buffer);
                    let line = line.strip_suffix('\n').unwrap_or(&line);
                    let line = line.strip_suffix('\r').unwrap_or(line).to_owned();
                    if sender.send((stream, line)).is_err() {
                        break;
                    }
                    buffer.clear();
                }
            })
        })
    })
    .collect::<Vec<_>>();
    drop(sender);
    let _ = fs::write(&path, recording.render());
    for (stream, line) in lines {
        if stream == 2 {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{line}");
            let _ = err.flush();
        } else {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
        recording.lines.push((stream, line));
        let _ = fs::write(&path, recording.render());
    }
    for reader in readers {
        let _ = reader.join();
    }
    let code = match child.wait() {
        Ok(status) => status.code().unwrap_or_else(|| {
            use std::os::unix::process::ExitStatusExt;
            128 + status.signal().unwrap_or(0)
        }),
        Err(_) => 1,
    };
    recording.exit = Some(code);
    let _ = fs::write(&path, recording.render());
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// The folder the real dotnet lives in (symbolic links followed), as listings show it.
fn dotnet_root(real: &OsString) -> String {
    let found = if Path::new(real).components().count() > 1 {
        Some(PathBuf::from(real))
    } else {
        std::env::var_os("PATH")
            .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join(real)).find(|path| path.is_file()))
    };
    found
        .and_then(|path| fs::canonicalize(path).ok())
        .and_then(|path| path.parent().map(|dir| dir.display().to_string()))
        .unwrap_or_default()
}

/// Creates the next numbered file of `folder` for `argv` and returns its path.
fn claim(folder: &Path, argv: &[String]) -> PathBuf {
    let _ = fs::create_dir_all(folder);
    let mut number = fs::read_dir(folder).map(|entries| entries.count()).unwrap_or(0) + 1;
    loop {
        let path = folder.join(file_name(number, argv));
        let taken = fs::read_dir(folder)
            .map(|entries| {
                entries.flatten().any(|entry| entry.file_name().to_string_lossy().starts_with(&format!("{number:03}-")))
            })
            .unwrap_or(false);
        if !taken && fs::OpenOptions::new().write(true).create_new(true).open(&path).is_ok() {
            return path;
        }
        number += 1;
    }
}

/// Normalises every raw recording under `raw` into `out`: each scenario recorded replaces that
/// scenario's folder; other scenarios' recordings and files that are not recordings (`PENDING`)
/// stay. Returns how many.
fn normalise_all(raw: &Path, out: &Path) -> Result<usize, String> {
    let sdk = fs::read_to_string(raw.join("sdk-version")).map_err(|e| format!("{}/sdk-version: {e}", raw.display()))?;
    let sdk = sdk.trim();
    let rid = fs::read_to_string(raw.join("rid")).unwrap_or_else(|_| "linux-x64".to_owned());
    let mut count = 0;
    let mut scenarios: Vec<PathBuf> =
        fs::read_dir(raw).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    scenarios.sort();
    // The scenarios recorded this time replace theirs; the others' recordings stay.
    for folder in &scenarios {
        let old = out.join(folder.file_name().unwrap());
        if old.is_dir() {
            fs::remove_dir_all(&old).map_err(|e| format!("{}: {e}", old.display()))?;
        }
    }
    for folder in scenarios {
        let mut files: Vec<PathBuf> =
            fs::read_dir(&folder).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files {
            let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let raw_recording =
                Recording::parse(&text).ok_or_else(|| format!("{}: not a recording", file.display()))?;
            let normalised = Normaliser::new(&raw_recording).recording(&raw_recording, sdk, rid.trim());
            let target = out.join(folder.file_name().unwrap()).join(file.file_name().unwrap());
            fs::create_dir_all(target.parent().unwrap()).map_err(|e| e.to_string())?;
            fs::write(&target, normalised.render()).map_err(|e| format!("{}: {e}", target.display()))?;
            count += 1;
        }
    }
    Ok(count)
}

/// Replaces the machine-specific parts of one recording's strings.
struct Normaliser {
    /// Literal text and its placeholder, longest first.
    paths: Vec<(String, String)>,
    /// GUIDs in order of appearance, each replaced by its number.
    guids: BTreeMap<String, usize>,
    guid: Regex,
    /// Durations, timestamps and the like, with what replaces them.
    fixed: Vec<(Regex, &'static str)>,
}

impl Normaliser {
    fn new(raw: &Recording) -> Self {
        let mut paths: Vec<(String, String)> = ["home", "nuget_packages", "workspace", "root"]
            .iter()
            .filter_map(|key| {
                raw.get(key).filter(|value| value.len() > 1).map(|value| (value.to_owned(), format!("{{{{{key}}}}}")))
            })
            .collect();
        // MSBuild's item metadata (`Directory`) holds the workspace without its leading slash.
        if let Some(workspace) = raw.get("workspace").filter(|w| w.len() > 1) {
            paths.push((workspace.trim_start_matches('/').to_owned(), "{{workspace_rootless}}".to_owned()));
        }
        paths.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
        if let Some(temp) = raw.get("temp").filter(|t| t.len() > 1) {
            paths.push((format!("{}/", temp.trim_end_matches('/')), "{{temp}}/".to_owned()));
        }
        let fixed = FIXED.iter().map(|(pattern, with)| (Regex::new(pattern).expect("valid pattern"), *with)).collect();
        Self {
            paths,
            guids: BTreeMap::new(),
            guid: Regex::new(r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b").unwrap(),
            fixed,
        }
    }

    fn recording(mut self, raw: &Recording, sdk: &str, rid: &str) -> Recording {
        let mut header = vec![(
            "recorded".to_owned(),
            format!(".NET SDK {sdk} ({rid}), scenario {}", raw.get("scenario").unwrap_or("unnamed")),
        )];
        if let Some(double_scenario) = raw.get("double-scenario") {
            header.push(("double-scenario".to_owned(), double_scenario.to_owned()));
        }
        let argv = raw.argv.iter().map(|arg| self.text(arg)).collect();
        let cwd = self.text(&raw.cwd);
        let cwd = match cwd.strip_prefix("{{workspace}}") {
            Some("") => ".".to_owned(),
            Some(rest) => rest.trim_start_matches('/').to_owned(),
            None => cwd,
        };
        let lines = raw.lines.iter().map(|(stream, line)| (*stream, self.text(line))).collect();
        Recording { header, argv, cwd, exit: raw.exit, lines }
    }

    fn text(&mut self, text: &str) -> String {
        let mut text = text.to_owned();
        for (path, placeholder) in &self.paths {
            text = text.replace(path.as_str(), placeholder);
        }
        let guids = &mut self.guids;
        let text = self
            .guid
            .replace_all(&text, |caps: &Captures| {
                let next = guids.len() + 1;
                let number = *guids.entry(caps[0].to_lowercase()).or_insert(next);
                format!("00000000-0000-0000-0000-{number:012}")
            })
            .into_owned();
        self.fixed.iter().fold(text, |text, (pattern, with)| pattern.replace_all(&text, *with).into_owned())
    }
}

/// Machine- and moment-specific values and their fixed replacements (`$n` keeps a group).
const FIXED: &[(&str, &str)] = &[
    // MSBuild: `Time Elapsed 00:00:03.45`; NuGet: `Restored X (in 1.2 sec).`, `(in 345 ms)`.
    (r"Time Elapsed \d\d:\d\d:\d\d\.\d+", "Time Elapsed 00:00:01.00"),
    (r"\(in [\d.,]+ (?:ms|sec)\)", "(in 100 ms)"),
    // VSTest: `Passed X [12 ms]`, `[< 1 ms]`, `Duration: 3 ms`, `Total time: 1.2345 Seconds`.
    (r"\[(?:< )?\d+(?:[.,]\d+)? (?:ms|s|m)\]", "[1 ms]"),
    (r"Duration: (?:< )?\d+(?:[.,]\d+)? (?:ms|s|m)\b", "Duration: 1 ms"),
    (r"Total time: [\d.,]+ (?:Seconds|Minutes)", "Total time: 1.0000 Seconds"),
    // xUnit's own lines: `[xUnit.net 00:00:02.55]`.
    (r"\[xUnit\.net \d\d:\d\d:\d\d\.\d+\]", "[xUnit.net 00:00:01.00]"),
    // Microsoft.Testing.Platform: `(4ms)`, `(1s 002ms)`, `duration: 5s 212ms`.
    (r"\((?:\d+h )?(?:\d+m )?(?:\d+s )?\d+ms\)", "(1ms)"),
    (r"duration: (?:\d+h )?(?:\d+m )?(?:\d+s )?\d+ms", "duration: 1s 000ms"),
    // NuGet's HTTP log: `OK https://... 911ms`.
    (r"(?m)^(info :   (?:OK|NotFound|GET|CACHE|Unauthorized|Forbidden|InternalServerError) [^ ]+) \d+ms$", "$1 100ms"),
    // Certificate thumbprints (upper-case SHA-1).
    (r"\b[0-9A-F]{40}\b", "0123456789ABCDEF0123456789ABCDEF01234567"),
    // A file-based app's build folder is named after a hash of the file's path.
    (
        r"/runfile/([^/\s]+)-[0-9a-f]{64}/",
        "/runfile/$1-0000000000000000000000000000000000000000000000000000000000000000/",
    ),
    // MSBuild's `Build started 11/27/2026 17:32:13.` (in the culture's date format).
    (r"Build started [0-9./-]+ [0-9:]+\.", "Build started 1/1/2026 00:00:00."),
    // EF Core's log lines: `info: 11/27/2026 17:49:36.649 RelationalEventId...`.
    (r"(?m)^(info|dbug|warn|fail|crit|trce): [0-9./-]+ \d\d:\d\d:\d\d\.\d+ ", "$1: 1/1/2026 00:00:00.000 "),
    // EF Core migration ids are timestamps: `20261127162400_Initial`.
    (r"\b20\d{12}_", "20260101000000_"),
    // A TRX report's default name: `<user>_<machine>_<time>.trx` (MTP adds fractional seconds).
    (r"/[^/\s]*_\d{4}-\d\d-\d\d_\d\d_\d\d_\d\d(?:[._]\d+)?\.trx\b", "/user_machine_2026-01-01_00_00_00.trx"),
    // ISO and file-name timestamps (TRX files, logs).
    (r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?", "2026-01-01T00:00:00"),
    (r"\b\d{4}-\d\d-\d\d_\d\d_\d\d_\d\d(?:_\d+)?\b", "2026-01-01_00_00_00"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trx_report_name_loses_the_user_the_machine_and_the_time() {
        let mut normaliser = Normaliser::new(&Recording::default());
        for (raw, normalised) in [
            (
                "    - /w/tests/mtp/trx-results/root_vm_2026-11-28_00_47_38.141562.trx",
                "    - /w/tests/mtp/trx-results/user_machine_2026-01-01_00_00_00.trx",
            ),
            (
                "Results File: /w/TestResults/jane_build_host_2026-11-28_00_47_38.trx",
                "Results File: /w/TestResults/user_machine_2026-01-01_00_00_00.trx",
            ),
        ] {
            assert_eq!(normaliser.text(raw), normalised);
        }
    }
}
