//! Every action of every dotnet tool, played in scenarios on real temporary workspaces (a console
//! project, a class library, a test project, a solution with two projects, a local tool manifest
//! with an EF Core project, user secrets), over MCP through the real host binary.
//!
//! The same scenarios run two ways:
//! - against a real .NET SDK on `PATH`: `every_action_against_the_real_sdk`, `#[ignore]`d so that
//!   a machine without an SDK reports it as not run rather than passed; `scripts/real-sdk` runs it
//!   whenever `dotnet --list-sdks` finds an SDK. Only what needs the network beyond NuGet, or a
//!   workload, is skipped there, each with its reason.
//! - against the test double: `every_action_against_the_test_double`, in every `cargo test`, so
//!   the scenarios cannot rot. The double writes no files, so after `New` and the like the
//!   scenario writes what the real command would have written; a step the double cannot play
//!   says why.
//!
//! Each run prints one line per tool (actions run, calls passed, failed, skipped), and fails when
//! any call failed or when a tool declares an action that no scenario plays (read from the
//! tools' own `tools/list`, so a new action without a scenario fails here).

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
    Skipped(String),
}

/// One tool's calls, counted for its summary line.
#[derive(Default)]
struct Tally<'a> {
    /// The actions with at least one call that ran.
    actions: BTreeSet<&'a str>,
    passed: usize,
    failed: usize,
    skipped: usize,
}

/// One call of a scenario and its outcome.
#[derive(Debug)]
struct Played {
    tool: String,
    action: String,
    outcome: Outcome,
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
        let runner = Self { client, target, root: root.to_owned(), played: Vec::new(), sdk_version: String::new() };
        (setup, runner)
    }

    /// Whether the real SDK answers (checks of files the CLI writes apply then only).
    pub fn real(&self) -> bool {
        self.target == Target::RealSdk
    }

    /// A new folder for a workspace.
    pub fn workspace(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
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
        let answer = self.request(tool, action, args).await;
        let (outcome, passed) = match answer.get("result") {
            None => (Outcome::Failed(format!("protocol error: {}", answer["error"])), None),
            Some(result) if result["isError"] == true => {
                (Outcome::Failed(format!("tool error: {}", shorten(&text_of(result)))), None)
            }
            Some(result) => match check(result) {
                Ok(()) => (Outcome::Passed, Some(result.clone())),
                Err(reason) => (Outcome::Failed(format!("{reason}; the answer: {}", shorten(&text_of(result)))), None),
            },
        };
        self.record(tool, action, outcome);
        passed
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
    async fn request(&self, tool: &str, action: &str, mut args: Value) -> Value {
        if !action.is_empty() {
            args["action"] = json!(action);
        }
        let limit = match self.target {
            // Builds, restores and EF commands against a real SDK can take minutes.
            Target::RealSdk => Duration::from_secs(900),
            Target::Double => Duration::from_secs(60),
        };
        self.client.request_within("tools/call", json!({ "name": tool, "arguments": args }), limit).await
    }

    fn record(&mut self, tool: &str, action: &str, outcome: Outcome) {
        self.played.push(Played { tool: tool.to_owned(), action: action.to_owned(), outcome });
    }

    /// A call that needs the network beyond NuGet, or a workload: skipped with `reason` against
    /// the real SDK, played against the double.
    pub async fn beyond_nuget(&mut self, tool: &str, action: &str, args: Value, reason: &str) {
        match self.target {
            Target::RealSdk => self.skip(tool, action, reason),
            Target::Double => {
                self.ok(tool, action, args).await;
            }
        }
    }

    /// Records `action` as not played, with the reason.
    pub fn skip(&mut self, tool: &str, action: &str, reason: &str) {
        self.record(tool, action, Outcome::Skipped(reason.to_owned()));
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
    fn summary(&self) -> Vec<String> {
        let mut tools: BTreeMap<&str, Tally> = BTreeMap::new();
        for played in &self.played {
            let tally = tools.entry(&played.tool).or_default();
            match played.outcome {
                Outcome::Passed => tally.passed += 1,
                Outcome::Failed(_) => tally.failed += 1,
                Outcome::Skipped(_) => {
                    tally.skipped += 1;
                    continue;
                }
            }
            tally.actions.insert(&played.action);
        }
        tools
            .iter()
            .map(|(tool, tally)| {
                format!(
                    "real-sdk: {tool}: {} action(s) run against {}, {} call(s): {} passed, {} failed; {} skipped",
                    tally.actions.len(),
                    self.target.describe(),
                    tally.passed + tally.failed,
                    tally.passed,
                    tally.failed,
                    tally.skipped,
                )
            })
            .collect()
    }

    /// The actions each dotnet tool declares that no call played or skipped.
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

/// Plays every scenario against `target`, prints the summary and fails on any failed call or
/// unplayed action.
async fn play_everything(target: Target) {
    let root = tempfile::tempdir().unwrap();
    let (_setup, mut runner) = Runner::start(target, root.path()).await;
    scenarios::play(&mut runner).await;
    for line in runner.summary() {
        println!("{line}");
    }
    let mut problems: Vec<String> = runner
        .played
        .iter()
        .filter_map(|played| match &played.outcome {
            Outcome::Failed(reason) => Some(format!("{} {}: {reason}", played.tool, played.action)),
            Outcome::Skipped(reason) => {
                println!("real-sdk: skipped {} {}: {reason}", played.tool, played.action);
                None
            }
            Outcome::Passed => None,
        })
        .collect();
    problems.extend(runner.unplayed().await.into_iter().map(|action| format!("{action}: no scenario plays it")));
    assert!(problems.is_empty(), "against {}:\n{}", target.describe(), problems.join("\n"));
}

#[tokio::test]
#[ignore = "needs a .NET SDK on PATH; run by scripts/real-sdk"]
async fn every_action_against_the_real_sdk() {
    play_everything(Target::RealSdk).await;
}

#[tokio::test]
async fn every_action_against_the_test_double() {
    play_everything(Target::Double).await;
}
