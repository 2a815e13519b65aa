//! Replaying the recordings of the real SDK (`recordings/`, written by `scripts/record-sdk`):
//! before the double's own commands answer, an invocation that matches a recording gets that
//! recording's output and exit code, with the recording's paths mapped onto the invocation's.
//!
//! An invocation matches a recording when their argument vectors are equal once every argument
//! that holds a path is cut to its last component (`build /tmp/x/App/App.csproj` matches the
//! recorded `build {{workspace}}/console/App/App.csproj`), and the double's scenarios are the
//! one the recording was made for (`double-scenario`: `build-fail`, `test-fail`, ...) or, for a
//! recording without one, none at all. The first match in path order wins. Nothing is replayed
//! when `DOTNET_DOUBLE_SDK_VERSION` asks for another SDK than the recordings', nor a `test`
//! when `DOTNET_DOUBLE_TEST_RUNNER` forces a runner. Recordings listed in `recordings/PENDING`
//! are not replayed: a family misreads them until the next phase fixes its parser, so the
//! double's hand-made fixture answers those commands meanwhile.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::ctx::Ctx;
use crate::out;
use crate::recording::Recording;

include!(concat!(env!("OUT_DIR"), "/recordings.rs"));

/// Recordings not replayed yet: `path => divergence` lines.
const PENDING: &str = include_str!("../recordings/PENDING");

/// The recordings that are replayed (not pending), with their paths.
pub fn replayable() -> impl Iterator<Item = (&'static str, Recording)> {
    RECORDINGS
        .iter()
        .filter_map(|(path, text)| Some((*path, Recording::parse(text)?)))
        .filter(|(path, recording)| !pending(&pending_id(path, recording)))
}

/// How `PENDING` names a recording, stable across re-recordings: its scenario, its command
/// with paths cut (as matched), and its double scenario in brackets, e.g.
/// `console/build App.csproj [build-fail]`.
pub fn pending_id(path: &str, recording: &Recording) -> String {
    let scenario = path.split('/').next().unwrap_or_default();
    let mut id = format!("{scenario}/{}", key(&recording.argv).join(" "));
    if let Some(double_scenario) = recording.get("double-scenario") {
        id.push_str(&format!(" [{double_scenario}]"));
    }
    id
}

/// Whether `PENDING` lists the recording named `id` (a line's name ending in ` *` names every
/// recording whose name starts with the rest).
fn pending(id: &str) -> bool {
    PENDING
        .lines()
        .filter(|line| !line.starts_with('#'))
        .any(|line| names(line.split(" => ").next().unwrap_or_default(), id))
}

/// Whether the name `pattern` of a `PENDING` line covers the recording named `id`.
fn names(pattern: &str, id: &str) -> bool {
    let pattern = pattern.trim();
    match pattern.strip_suffix(" *") {
        Some(prefix) => id.starts_with(prefix),
        None => pattern == id,
    }
}

/// Replays the recording that matches this invocation, if any: prints its output and returns
/// its exit code.
pub fn replay(ctx: &Ctx) -> Option<u8> {
    let wanted_sdk = std::env::var("DOTNET_DOUBLE_SDK_VERSION").ok().filter(|v| !v.trim().is_empty());
    let forced_runner = std::env::var_os("DOTNET_DOUBLE_TEST_RUNNER").is_some_and(|v| !v.is_empty());
    if forced_runner && ctx.args.first().is_some_and(|a| a == "test") {
        return None;
    }
    let key = key(&ctx.args);
    let (path, recording) = replayable().find(|(_, recording)| {
        let sdk_matches = match &wanted_sdk {
            Some(wanted) => recording.get("recorded").is_some_and(|r| r.contains(&format!("SDK {wanted} "))),
            None => true,
        };
        let scenario_matches = match recording.get("double-scenario") {
            Some(name) => ctx.scenario_names() == [name],
            None => ctx.scenario_names().is_empty(),
        };
        sdk_matches && scenario_matches && key == self::key(&recording.argv)
    })?;
    note_replayed(path);
    let paths = PathMap::new(&recording, ctx);
    for (stream, line) in &recording.lines {
        let line = paths.apply(line);
        if *stream == 2 { out::err(&line) } else { out::line(&line) }
    }
    // A replayed app, like a simulated one, runs on while the test holds it.
    if ctx.args.first().is_some_and(|a| a == "run") {
        out::held(ctx);
    }
    match recording.exit {
        Some(code) => Some(u8::try_from(code).unwrap_or(1)),
        // A background session the scenario stopped: it runs on until the double's slow time.
        None => {
            std::thread::sleep(ctx.slow.min(Duration::from_secs(3600)));
            Some(0)
        }
    }
}

/// Appends the replayed recording's path to the file `DOTNET_DOUBLE_REPLAY_LOG` names, if any:
/// which recordings answered a test (to tell which to mark pending when a family misreads one).
fn note_replayed(path: &str) {
    crate::record::append_line("DOTNET_DOUBLE_REPLAY_LOG", "replay log", &format!("{path}\n"));
}

/// The argument vector with each path cut to its last component.
pub fn key(argv: &[String]) -> Vec<String> {
    argv.iter()
        .map(|arg| match arg.contains('/') {
            true => arg.trim_end_matches('/').rsplit('/').next().unwrap_or(arg).to_owned(),
            false => arg.clone(),
        })
        .collect()
}

/// What a recording's placeholders and paths become for this invocation.
struct PathMap {
    /// Recorded path (with `{{workspace}}`) and the invocation's, longest recorded path first.
    paths: Vec<(String, String)>,
    /// The remaining placeholders' values.
    placeholders: Vec<(&'static str, String)>,
}

impl PathMap {
    fn new(recording: &Recording, ctx: &Ctx) -> Self {
        let mut paths: Vec<(String, String)> = Vec::new();
        let mut add = |recorded: &str, actual: &Path| {
            let mut recorded = recorded.trim_end_matches('/').to_owned();
            let mut actual = Some(actual.to_path_buf());
            while let Some(now) = actual.filter(|_| recorded.starts_with("{{workspace}}/")) {
                if !paths.iter().any(|(r, _)| *r == recorded) {
                    paths.push((recorded.clone(), now.display().to_string()));
                }
                recorded = recorded.rsplit_once('/').map(|(parent, _)| parent.to_owned()).unwrap_or_default();
                actual = now.parent().map(Path::to_path_buf);
            }
        };
        for (recorded, actual) in recording.argv.iter().zip(&ctx.args) {
            if recorded.starts_with("{{workspace}}/") && actual.contains('/') {
                add(recorded, &absolute(&ctx.cwd, actual));
            }
        }
        let recorded_cwd = match recording.cwd.as_str() {
            "." | "" => "{{workspace}}".to_owned(),
            relative => format!("{{{{workspace}}}}/{relative}"),
        };
        add(&recorded_cwd, &ctx.cwd);
        paths.sort_by_key(|(recorded, _)| std::cmp::Reverse(recorded.len()));
        // The workspace itself: as far above the working directory as the recording's was.
        let depth = recorded_cwd.matches('/').count();
        let workspace = ctx.cwd.ancestors().nth(depth).unwrap_or(&ctx.cwd).display().to_string();
        let placeholders = vec![
            ("{{workspace_rootless}}", workspace.trim_start_matches('/').to_owned()),
            ("{{workspace}}", workspace),
            ("{{nuget_packages}}", format!("{}/.nuget/packages", ctx.home)),
            ("{{home}}", ctx.home.clone()),
            ("{{root}}", ctx.root.clone()),
            ("{{temp}}", std::env::temp_dir().display().to_string().trim_end_matches('/').to_owned()),
        ];
        Self { paths, placeholders }
    }

    fn apply(&self, line: &str) -> String {
        let mut line = line.to_owned();
        if line.contains("{{") {
            for (recorded, actual) in &self.paths {
                line = line.replace(recorded.as_str(), actual);
                let rootless = recorded.replacen("{{workspace}}/", "{{workspace_rootless}}/", 1);
                line = line.replace(rootless.as_str(), actual.trim_start_matches('/'));
            }
            for (placeholder, value) in &self.placeholders {
                line = line.replace(placeholder, value);
            }
        }
        line
    }
}

/// `path` against `cwd` when it is relative.
fn absolute(cwd: &Path, path: &str) -> PathBuf {
    let path = Path::new(path);
    if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) }
}

#[cfg(test)]
mod tests {
    use super::{PENDING, RECORDINGS, key, names, pending_id};
    use crate::recording::Recording;

    #[test]
    fn every_pending_line_names_a_recording() {
        let ids: Vec<String> =
            RECORDINGS.iter().filter_map(|(path, text)| Some(pending_id(path, &Recording::parse(text)?))).collect();
        for line in PENDING.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()) {
            let (id, why) = line.split_once(" => ").unwrap_or((line, ""));
            assert!(ids.iter().any(|known| names(id, known)), "PENDING names no recording: {id}");
            assert!(!why.trim().is_empty(), "PENDING gives no reason for {id}");
        }
    }

    #[test]
    fn paths_are_cut_to_their_last_component() {
        let argv: Vec<String> =
            ["build", "{{workspace}}/console/App/App.csproj", "-o", "/tmp/x/publish/", "-c", "Release"]
                .iter()
                .map(|a| a.to_string())
                .collect();
        assert_eq!(key(&argv), ["build", "App.csproj", "-o", "publish", "-c", "Release"]);
    }
}
