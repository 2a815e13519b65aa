//! Every action of every dotnet tool, played in scenarios on real temporary workspaces (see
//! `scenarios.rs`: a console app, a class library, NuGet's diagnostics, test projects on both
//! runners, two solutions, a file-based app, a tool manifest with an EF Core project, user
//! secrets and certificates, workloads, a template pack), over MCP through the real host binary.
//!
//! The same scenarios run two ways:
//! - against a real .NET SDK on `PATH`: `every_action_against_the_real_sdk`, `#[ignore]`d so that
//!   a machine without an SDK reports it as not run rather than passed; `scripts/real-sdk` runs it
//!   whenever `dotnet --list-sdks` finds an SDK, and `scripts/record-sdk` with the recording
//!   shim. A call this machine cannot serve must answer with its tool's classified error and
//!   remedy ("not possible here"); `known-failures.txt` lists the calls still known to fail.
//! - against the test double: `every_action_against_the_test_double`, in every `cargo test`, so
//!   the scenarios cannot rot. The double writes no files, so after `New` and the like the
//!   scenario writes what the real command would have written; checks of what only the real SDK
//!   does apply against it alone.
//!
//! Each run prints one line per tool (calls passed, failed and how many of those are known, not
//! possible here) and the time of each scenario, and fails on a failed call the known-failures
//! list does not name, on a listed call that passed or was not made, on an answer carrying
//! colour escapes or German text, and on an action that no scenario plays (read from the tools'
//! own `tools/list`, so a new action without a scenario fails here).

#[path = "../common/mod.rs"]
mod common;
mod scenarios;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    time::Duration,
};

use common::{Client, DOTNET_PLUGINS, Setup, text_of};
use serde_json::{Value, json};

/// What answers as `dotnet`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The `dotnet` on `PATH`, with an SDK.
    RealSdk,
    /// `plugins/dotnet/test-double`.
    Double,
}

impl Target {
    fn describe(self) -> &'static str {
        match self {
            Target::RealSdk => "the real SDK",
            Target::Double => "the test double",
        }
    }
}

/// How one call ended.
#[derive(Debug)]
enum Outcome {
    Passed,
    Failed(String),
    /// What this machine cannot have (a public search endpoint, a workload, a trusted system
    /// certificate store): the tool answered with its own classified error and remedy.
    NotPossible(String),
}

/// One tool's calls, counted for its summary line.
#[derive(Default)]
struct Tally<'a> {
    /// The actions with at least one call that ran.
    actions: BTreeSet<&'a str>,
    passed: usize,
    failed: usize,
    /// Failed calls the known-failures list names.
    known: usize,
    not_possible: usize,
}

/// One call of a scenario and its outcome.
#[derive(Debug)]
struct Played {
    /// `workspace: tool action (note)`, unique in a run: what the known-failures list names.
    id: String,
    tool: String,
    action: String,
    outcome: Outcome,
}

/// The committed list of scenario calls still known to fail on the real SDK, each with its
/// cause: `id: cause` lines (`#` starts a comment). CI reports them without failing on them;
/// a listed call that passes, or one no scenario makes, fails the run, as does a failing call
/// the list does not name.
const KNOWN_FAILURES: &str = include_str!("known-failures.txt");

/// The known failures: id and cause.
fn known_failures() -> Vec<(String, String)> {
    KNOWN_FAILURES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (id, cause) = line.rsplit_once(" => ").unwrap_or((line, ""));
            (id.trim().to_owned(), cause.trim().to_owned())
        })
        .collect()
}

/// A host with every dotnet plugin and an MCP client that accepts every confirmation, driven
/// through the scenarios; records what each call did.
pub struct Runner {
    client: Client,
    target: Target,
    /// The folder the workspaces live in.
    root: PathBuf,
    played: Vec<Played>,
    /// The SDK's version, once `dotnet_sdk Version` answered.
    pub sdk_version: String,
    /// The workspace (scenario) being played, the first part of each call's id.
    scenario: String,
    /// A note that tells the next call from others of the same action (its id's last part).
    note: Option<String>,
    /// Where `dotnet-record` writes what the real SDK did (`scripts/record-sdk`), if anywhere.
    recording: Option<PathBuf>,
    /// When the scenario under way started, and how long each one took.
    scenario_started: std::time::Instant,
    timings: Vec<(String, Duration)>,
    /// Answers that carried colour escapes or German text (the environment leaked).
    leaks: Vec<String>,
    /// The environment the plugins give dotnet (beyond what they pin), for commands run by hand.
    environment: Value,
}

/// What a check says about a successful call: `Err` with the reason it is wrong.
pub type Check = Result<(), String>;

impl Runner {
    async fn start(target: Target, root: &Path) -> (Setup, Self) {
        let mut environment = json!({});
        let mut config = json!({});
        match target {
            Target::Double => {
                // Watch and background runs of the double last this long.
                environment["DOTNET_DOUBLE_SLOW_SECS"] = json!("1");
                config["DotnetPath"] = json!(common::workspace_plugins().join("dotnet-double"));
            }
            Target::RealSdk => environment = isolated_home(root),
        }
        // scripts/record-sdk: the plugins run the recording shim, which runs the real dotnet.
        let recording = std::env::var_os("MCP_RECORD_SDK").filter(|_| target == Target::RealSdk).map(PathBuf::from);
        if let Some(raw) = &recording {
            std::fs::create_dir_all(raw).unwrap();
            std::fs::write(raw.join("sdk-version"), scenarios::dotnet(&["--version"])).unwrap();
            config["DotnetPath"] = json!(common::workspace_plugins().join("dotnet-record"));
            environment["DOTNET_RECORD_RAW"] = json!(raw);
            environment["DOTNET_RECORD_WORKSPACE"] = json!(root);
        }
        let mut settings = json!({});
        for plugin in DOTNET_PLUGINS {
            settings[plugin] = json!({ "WorkingDirectory": root, "Environment": environment });
        }
        let setup = Setup::new(
            &DOTNET_PLUGINS,
            &[],
            json!({ "Host": { "ToolTimeoutSeconds": 900 }, "Plugins": { "Settings": settings, "Config": config } }),
        );
        let client = setup.stdio_with(&[], json!({ "elicitation": {} })).await;
        // Every confirmation the tools ask for is given, as a user would in a real client.
        client
            .answers
            .lock()
            .unwrap()
            .insert("elicitation/create".to_owned(), json!({ "action": "accept", "content": { "confirm": true } }));
        let runner = Self {
            client,
            target,
            root: root.to_owned(),
            played: Vec::new(),
            // What the sdk scenario's Version call confirms (and sets again) when it plays.
            sdk_version: match target {
                Target::RealSdk => scenarios::dotnet(&["--version"]).trim().to_owned(),
                Target::Double => "10.0.100".to_owned(),
            },
            scenario: String::new(),
            note: None,
            recording,
            environment: environment.clone(),
            scenario_started: std::time::Instant::now(),
            timings: Vec::new(),
            leaks: Vec::new(),
        };
        (setup, runner)
    }

    /// Whether the real SDK answers (checks of files the CLI writes apply then only).
    pub fn real(&self) -> bool {
        self.target == Target::RealSdk
    }

    /// The folder the workspaces live in.
    pub fn root_dir(&self) -> PathBuf {
        self.root.clone()
    }

    /// Runs the real `dotnet` by hand in `dir`, with the environment the plugins give it, to
    /// compare a tool's answer with: the exit code and stdout.
    pub fn dotnet_by_hand(&self, dir: &Path, args: &[&str]) -> (i32, String) {
        let mut command = std::process::Command::new("dotnet");
        command.args(args).current_dir(dir).stdin(std::process::Stdio::null());
        command.envs([("DOTNET_CLI_UI_LANGUAGE", "en"), ("DOTNET_NOLOGO", "1"), ("MSBUILDTERMINALLOGGER", "off")]);
        for (key, value) in self.environment.as_object().into_iter().flatten() {
            command.env(key, value.as_str().unwrap_or_default());
        }
        let output = command.output().expect("dotnet is on PATH");
        (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// A new folder for a workspace; the calls from now on belong to its scenario.
    pub fn workspace(&mut self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        self.end_scenario();
        self.scenario = name.to_owned();
        self.mark_recording(None);
        dir
    }

    /// Notes how long the scenario under way took.
    fn end_scenario(&mut self) {
        if !self.scenario.is_empty() {
            self.timings.push((self.scenario.clone(), self.scenario_started.elapsed()));
        }
        self.scenario_started = std::time::Instant::now();
    }

    /// Tells the next call from the others of its action, in its id: `console: dotnet_project
    /// Build (broken)`.
    pub fn note(&mut self, note: &str) -> &mut Self {
        self.note = Some(note.to_owned());
        self
    }

    /// Records the next calls (when recording) as what the double replays under its scenario
    /// `double_scenario` (`build-fail`, `test-fail`, `no-ef`, ...) rather than by default.
    pub fn replayed_under(&mut self, double_scenario: &str) -> &mut Self {
        self.mark_recording(Some(double_scenario));
        self
    }

    /// Writes the recording shim's scenario file: the workspace, and the double's scenario.
    fn mark_recording(&self, double_scenario: Option<&str>) {
        if let Some(raw) = &self.recording {
            let marker = format!("{} {}", self.scenario, double_scenario.unwrap_or_default());
            std::fs::write(raw.join("scenario"), marker.trim()).unwrap();
        }
    }

    /// Calls `tool` with `action` (none when empty) and `args`; the call passes when it is not
    /// an error and `check` accepts its result. Returns the result when the call passed.
    pub async fn call(
        &mut self,
        tool: &str,
        action: &str,
        args: Value,
        check: impl FnOnce(&Value) -> Check,
    ) -> Option<Value> {
        self.answer(tool, action, args, |result| {
            if result["isError"] == true { Err("tool error".to_owned()) } else { check(result) }
        })
        .await
    }

    /// A call whose answer, success or error, `check` judges (a test run with failing tests, a
    /// build that must fail with given diagnostics).
    pub async fn answer(
        &mut self,
        tool: &str,
        action: &str,
        args: Value,
        check: impl FnOnce(&Value) -> Check,
    ) -> Option<Value> {
        let answer = self.request(tool, action, args).await;
        let (outcome, passed) = match answer.get("result") {
            None => (Outcome::Failed(format!("protocol error: {}", answer["error"])), None),
            Some(result) => match check(result) {
                Ok(()) => (Outcome::Passed, Some(result.clone())),
                Err(reason) => (Outcome::Failed(format!("{reason}; the answer: {}", shorten(&text_of(result)))), None),
            },
        };
        self.record(tool, action, outcome);
        passed
    }

    /// A call that cannot succeed on this machine (`reason`: what it lacks): it passes as "not
    /// possible here" when the tool answers with its own classified error (a code that is not a
    /// bare `EXIT_<n>`) and a remedy (a hint or suggested fixes); against the double too, which
    /// replays what the real SDK answered here.
    pub async fn not_possible_here(&mut self, tool: &str, action: &str, args: Value, reason: &str) {
        let answer = self.request(tool, action, args).await;
        let result = &answer["result"];
        let error = &result["structuredContent"]["errors"][0];
        let code = error["code"].as_str().unwrap_or_default();
        let remedy = error["hint"].as_str().is_some_and(|hint| !hint.is_empty())
            || error["suggestedFixes"].as_array().is_some_and(|fixes| !fixes.is_empty());
        let outcome = if result["isError"] != true {
            Outcome::Failed(format!("expected a classified error ({reason}); got {}", shorten(&text_of(result))))
        } else if code.is_empty() || code.starts_with("EXIT_") || !remedy {
            Outcome::Failed(format!(
                "{reason}, but the error is not classified (code {code:?}, remedy {remedy}): {}",
                shorten(&text_of(result))
            ))
        } else {
            Outcome::NotPossible(format!("{reason}: answered {code}"))
        };
        self.record(tool, action, outcome);
    }

    /// A call whose effect, made by the CLI (a file it writes, a value it reports), `check` checks
    /// against the real SDK only: the double writes nothing and reports its fixtures.
    pub async fn effect(
        &mut self,
        tool: &str,
        action: &str,
        args: Value,
        check: impl FnOnce(&Value) -> Check,
    ) -> Option<Value> {
        let real = self.real();
        self.call(tool, action, args, |result| if real { check(result) } else { Ok(()) }).await
    }

    /// A call that must succeed, with no further check.
    pub async fn ok(&mut self, tool: &str, action: &str, args: Value) -> Option<Value> {
        self.call(tool, action, args, |_| Ok(())).await
    }

    /// A call that must end in an error result that mentions `expected`.
    pub async fn fails(&mut self, tool: &str, action: &str, args: Value, expected: &str) {
        let answer = self.request(tool, action, args).await;
        let result = answer.get("result").map(Value::to_string).unwrap_or_else(|| answer.to_string());
        let outcome = if answer["result"]["isError"] != true {
            Outcome::Failed(format!("expected an error mentioning {expected}; got {}", shorten(&result)))
        } else if !result.contains(expected) {
            Outcome::Failed(format!("the error does not mention {expected}: {}", shorten(&result)))
        } else {
            Outcome::Passed
        };
        self.record(tool, action, outcome);
    }

    /// Sends `tools/call` and returns the JSON-RPC answer.
    async fn request(&mut self, tool: &str, action: &str, mut args: Value) -> Value {
        if !action.is_empty() {
            args["action"] = json!(action);
        }
        let limit = match self.target {
            // Builds, restores and EF commands against a real SDK can take minutes.
            Target::RealSdk => Duration::from_secs(900),
            Target::Double => Duration::from_secs(60),
        };
        let answer = self.client.request_within("tools/call", json!({ "name": tool, "arguments": args }), limit).await;
        // Colour escapes or German text in any answer: the plugins' environment leaked.
        let text = answer.to_string();
        if text.contains("\\u001b[")
            || ["Der Buildvorgang", "Warnung(en)", "Wiederherstellung", "erfolgreich", "Korrigieren Sie", "Löschen Sie"]
                .iter()
                .any(|de| text.contains(de))
        {
            self.leaks.push(format!("{}: {tool} {action}: {}", self.scenario, shorten(&text)));
        }
        answer
    }

    fn record(&mut self, tool: &str, action: &str, outcome: Outcome) {
        let mut id = format!("{}: {tool} {action}", self.scenario).trim_end().to_owned();
        if let Some(note) = self.note.take() {
            id.push_str(&format!(" ({note})"));
        }
        let same =
            self.played.iter().filter(|played| played.id == id || played.id.starts_with(&format!("{id} #"))).count();
        if same > 0 {
            id.push_str(&format!(" #{}", same + 1));
        }
        self.played.push(Played { id, tool: tool.to_owned(), action: action.to_owned(), outcome });
        self.mark_recording(None);
    }

    /// Records a call of `action` that a check by hand, after it, found wrong.
    pub fn record_failure(&mut self, tool: &str, action: &str, reason: &str) {
        self.record(tool, action, Outcome::Failed(reason.to_owned()));
    }

    /// Writes what a dotnet command would have written, when the double (which writes no files)
    /// played it; against the real SDK the command wrote it.
    pub fn as_the_cli_would(&self, path: &Path, text: &str) {
        if self.target == Target::Double {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    /// The one summary line of each tool.
    fn summary(&self, known: &[(String, String)]) -> Vec<String> {
        let mut tools: BTreeMap<&str, Tally> = BTreeMap::new();
        for played in &self.played {
            let tally = tools.entry(&played.tool).or_default();
            match played.outcome {
                Outcome::Passed => tally.passed += 1,
                Outcome::Failed(_) if known.iter().any(|(id, _)| *id == played.id) => tally.known += 1,
                Outcome::Failed(_) => tally.failed += 1,
                Outcome::NotPossible(_) => tally.not_possible += 1,
            }
            tally.actions.insert(&played.action);
        }
        tools
            .iter()
            .map(|(tool, tally)| {
                format!(
                    "real-sdk: {tool}: {} passed, {} failed ({} known), {} not possible here; {} action(s) played against {}",
                    tally.passed,
                    tally.failed + tally.known,
                    tally.known,
                    tally.not_possible,
                    tally.actions.len(),
                    self.target.describe(),
                )
            })
            .collect()
    }

    /// The actions each dotnet tool declares that no call played.
    async fn unplayed(&self) -> Vec<String> {
        let list = self.client.request("tools/list", json!({})).await;
        let mut missing = Vec::new();
        for tool in list["result"]["tools"].as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            if !DOTNET_PLUGINS.contains(&name) {
                continue;
            }
            let actions: Vec<&str> = match tool["inputSchema"]["properties"]["action"]["enum"].as_array() {
                Some(actions) => actions.iter().filter_map(Value::as_str).collect(),
                None => vec![""],
            };
            for action in actions {
                if !self.played.iter().any(|played| played.tool == name && played.action == action) {
                    missing.push(format!("{name} {action}"));
                }
            }
        }
        missing
    }
}

/// The environment of the dotnet commands against the real SDK: a HOME of their own, so that
/// template packs, certificates, user secrets and caches they change are the scenario's, not
/// the user's; NuGet still reads the user's configuration (its sources) and package folder.
fn isolated_home(root: &Path) -> Value {
    let home = root.join("home");
    let user_home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let config = user_home.join(".nuget/NuGet/NuGet.Config");
    if config.is_file() {
        std::fs::create_dir_all(home.join(".nuget/NuGet")).unwrap();
        std::fs::copy(&config, home.join(".nuget/NuGet/NuGet.Config")).unwrap();
    }
    std::fs::create_dir_all(&home).unwrap();
    let packages =
        std::env::var_os("NUGET_PACKAGES").map(PathBuf::from).unwrap_or_else(|| user_home.join(".nuget/packages"));
    json!({ "HOME": home, "DOTNET_CLI_HOME": home, "NUGET_PACKAGES": packages })
}

fn shorten(text: &str) -> String {
    const MOST: usize = 600;
    if text.len() <= MOST {
        return text.to_owned();
    }
    let mut end = MOST;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Plays every scenario against `target`, prints the summary and fails on any failed call the
/// known-failures list does not name (against the real SDK; against the double every call must
/// pass), on a listed call that passed or was not made, and on an unplayed action.
async fn play_everything(target: Target) {
    let root = tempfile::tempdir().unwrap();
    let (_setup, mut runner) = Runner::start(target, root.path()).await;
    // MCP_REAL_SDK_SCENARIOS=nuget,tests plays only those (scripts/record-sdk NAME...).
    let only: Vec<String> = std::env::var("MCP_REAL_SDK_SCENARIOS")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(unknown) = only.iter().find(|name| !scenarios::SCENARIOS.contains(&name.as_str())) {
        panic!("MCP_REAL_SDK_SCENARIOS: no scenario {unknown} (there are {:?})", scenarios::SCENARIOS);
    }
    scenarios::play(&mut runner, &only).await;
    runner.end_scenario();
    let timings: Vec<String> =
        runner.timings.iter().map(|(name, took)| format!("{name} {} s", took.as_secs())).collect();
    println!("real-sdk: time per scenario: {}", timings.join(", "));
    // The double replays the real SDK's recordings, so what fails on the real SDK may fail
    // against it too; only against the real SDK must a listed call still fail and be made.
    let known = known_failures();
    let real = target == Target::RealSdk;
    for line in runner.summary(&known) {
        println!("{line}");
    }
    let mut problems = Vec::new();
    for played in &runner.played {
        let listed = known.iter().find(|(id, _)| *id == played.id);
        match (&played.outcome, listed) {
            (Outcome::Failed(reason), Some((_, cause))) => {
                println!("real-sdk: known failure: {}: {cause}\n    now: {reason}", played.id)
            }
            (Outcome::Failed(reason), None) => problems.push(format!("{}: {reason}", played.id)),
            (Outcome::NotPossible(reason), _) => println!("real-sdk: not possible here: {}: {reason}", played.id),
            (Outcome::Passed, _) => {}
        }
        if real && listed.is_some() && !matches!(played.outcome, Outcome::Failed(_)) {
            problems.push(format!("{}: passes now; remove it from host/tests/real_sdk/known-failures.txt", played.id));
        }
    }
    let played_scenario = |id: &str| only.is_empty() || only.iter().any(|name| id.starts_with(&format!("{name}: ")));
    for (id, _) in &known {
        if real && played_scenario(id) && !runner.played.iter().any(|played| played.id == *id) {
            problems.push(format!("{id}: listed in known-failures.txt, but no scenario makes this call"));
        }
    }
    problems.extend(runner.leaks.iter().map(|leak| format!("colour escapes or German text reached a client: {leak}")));
    if only.is_empty() {
        problems.extend(runner.unplayed().await.into_iter().map(|action| format!("{action}: no scenario plays it")));
    }
    assert!(problems.is_empty(), "against {}:\n{}", target.describe(), problems.join("\n"));
}

#[tokio::test]
#[ignore = "needs a .NET SDK on PATH; run by scripts/real-sdk"]
async fn every_action_against_the_real_sdk() {
    // The host runs where a user's shell would put it: a German locale, and the variable CI-style
    // environments export for colour in redirected output. The plugins' environment must keep
    // every dotnet answer English and free of escapes (docs/dotnet-sdk.md, "The environment").
    for (name, value) in HOSTILE_ENVIRONMENT {
        // SAFETY: run alone (`--ignored ... --exact`, scripts/real-sdk), before the host or any
        // other thread that reads the environment starts.
        unsafe { std::env::set_var(name, value) };
    }
    play_everything(Target::RealSdk).await;
}

/// What the host inherits in the real-SDK run (see `every_action_against_the_real_sdk`).
const HOSTILE_ENVIRONMENT: [(&str, &str); 3] =
    [("LANG", "de_DE.UTF-8"), ("VSLANG", "1031"), ("DOTNET_SYSTEM_CONSOLE_ALLOW_ANSI_COLOR_REDIRECTION", "1")];

#[tokio::test]
async fn every_action_against_the_test_double() {
    play_everything(Target::Double).await;
}
