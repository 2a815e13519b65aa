//! Test helpers for the dotnet plugins (feature `testkit`, for dev-dependencies only): the
//! dotnet test double built once per test process, a plugin context whose settings point at
//! it, and its invocation log ([`Double`]); the harness every family's tests share
//! ([`Harness`]: a family served on the double in a scratch folder, every result checked as a
//! client sees it); a client that lists roots and answers elicitation ([`client`]); and the
//! checks that no secret reaches a client ([`visible`], [`assert_hidden`]); and the check that a
//! process ended ([`assert_dies`]).
//!
//! The host's own checks (arguments against the input schema, structured content against the
//! output schema, the tool descriptor) are applied by `mcp_plugin_api::testkit::TestCall`.
//!
//! ```no_run
//! use dotnet_support::testkit::Double;
//!
//! let scratch = std::env::temp_dir().join("my-plugin-test");
//! std::fs::create_dir_all(&scratch).unwrap();
//! let double = Double::new(&scratch).scenario("restore-fail");
//! let plugin = double.context(); // DotnetPath, Environment {DOTNET_DOUBLE_LOG, DOTNET_DOUBLE_SCENARIO}
//! // ... build the plugin's tool from plugin.context() and call it ...
//! assert!(double.argvs().is_empty());
//! ```

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{Arc, Mutex, OnceLock},
    time::{Duration, Instant},
};

use mcp_plugin_api::{
    ClientError, Tool, ToolResult,
    locks::LockGuard,
    testkit::{TestCall, TestPluginContext},
};
use serde_json::{Map, Value, json};

use crate::{
    kit::{ActionTool, Family},
    locking::{self, LockTarget},
};

/// The test double's executable (`target/debug/dotnet-double`), built on first use with the
/// cargo that is running the tests. Panics, with cargo's messages on stderr, if it cannot be
/// built.
pub fn dotnet_double() -> &'static Path {
    static DOUBLE: OnceLock<PathBuf> = OnceLock::new();
    DOUBLE.get_or_init(|| {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
        let output = Command::new(env!("CARGO"))
            .args(["build", "-p", "dotnet-test-double", "--message-format=json-render-diagnostics"])
            .current_dir(&workspace)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .expect("cargo runs to build the dotnet test double");
        assert!(output.status.success(), "building the dotnet test double failed");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|message| message["reason"] == "compiler-artifact" && message["target"]["name"] == "dotnet-double")
            .find_map(|message| message["executable"].as_str().map(PathBuf::from))
            .expect("cargo reports the dotnet-double executable")
    })
}

/// One invocation of the double, from its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The arguments after the program name.
    pub argv: Vec<String>,
    /// The working directory it ran in.
    pub cwd: PathBuf,
    /// Its `DOTNET_*` and `MSBUILD*` variables.
    pub env: BTreeMap<String, String>,
}

/// The settings of a plugin under test that runs the double: `DotnetPath`, and `Environment`
/// with the invocation log (in a folder the caller owns), scenarios and any other variables.
#[derive(Debug, Clone)]
pub struct Double {
    log: PathBuf,
    environment: Map<String, Value>,
    settings: Map<String, Value>,
}

impl Double {
    /// A double that logs to `dir/dotnet-double.log` (emptied now), with no scenario.
    pub fn new(dir: &Path) -> Self {
        let log = dir.join("dotnet-double.log");
        let _ = std::fs::remove_file(&log);
        let mut environment = Map::new();
        environment.insert("DOTNET_DOUBLE_LOG".into(), json!(log.display().to_string()));
        let mut settings = Map::new();
        settings.insert("DotnetPath".into(), json!(dotnet_double().display().to_string()));
        Self { log, environment, settings }
    }

    /// Switches on scenarios (`DOTNET_DOUBLE_SCENARIO`, comma-separated names).
    pub fn scenario(self, names: &str) -> Self {
        self.env("DOTNET_DOUBLE_SCENARIO", names)
    }

    /// Adds a variable to the plugin's `Environment` setting.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.environment.insert(key.to_owned(), json!(value));
        self
    }

    /// Sets another key of the plugin's section (`WorkingDirectory`, `LockWaitSeconds`...).
    pub fn setting(mut self, key: &str, value: Value) -> Self {
        self.settings.insert(key.to_owned(), value);
        self
    }

    /// The plugin's section as configured.
    pub fn config(&self) -> Value {
        let mut settings = self.settings.clone();
        settings.insert("Environment".into(), Value::Object(self.environment.clone()));
        Value::Object(settings)
    }

    /// A plugin context with [`Self::config`] as the plugin's section.
    pub fn context(&self) -> TestPluginContext {
        TestPluginContext::new(self.config(), Map::new())
    }

    /// Every invocation logged so far, in order.
    pub fn invocations(&self) -> Vec<Invocation> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        text.lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .map(|record| Invocation {
                argv: record["argv"]
                    .as_array()
                    .map(|args| args.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                    .unwrap_or_default(),
                cwd: PathBuf::from(record["cwd"].as_str().unwrap_or_default()),
                env: serde_json::from_value(record["env"].clone()).unwrap_or_default(),
            })
            .collect()
    }

    /// The argument vectors logged so far, in order.
    pub fn argvs(&self) -> Vec<Vec<String>> {
        self.invocations().into_iter().map(|invocation| invocation.argv).collect()
    }

    /// Forgets the invocations logged so far.
    pub fn clear_log(&self) {
        let _ = std::fs::remove_file(&self.log);
    }
}

/// A family served on the test double, in a scratch folder that is both the double's log folder
/// and the plugin's `WorkingDirectory`.
pub struct Harness<F: Family> {
    scratch: tempfile::TempDir,
    /// The double, to read what ran.
    pub double: Double,
    /// The plugin context the tool was built from (its lock table is the one calls use).
    pub plugin: TestPluginContext,
    /// The tool under test.
    pub tool: ActionTool<F>,
}

impl<F: Family + Default> Default for Harness<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: Family + Default> Harness<F> {
    /// The family with default settings.
    pub fn new() -> Self {
        Self::with(|_, double| double)
    }

    /// The family with the double as `configure` leaves it; `configure` gets the scratch folder
    /// first, to write files into it or point settings at them.
    pub fn with(configure: impl FnOnce(&Path, Double) -> Double) -> Self {
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let double =
            Double::new(scratch.path()).setting("WorkingDirectory", json!(scratch.path().display().to_string()));
        let double = configure(scratch.path(), double);
        let plugin = double.context();
        let tool = ActionTool::new(F::default(), plugin.context()).expect("the family loads");
        Self { scratch, double, plugin, tool }
    }

    /// The scratch folder.
    pub fn path(&self) -> &Path {
        self.scratch.path()
    }

    /// Calls the tool with a client that supports nothing.
    pub fn call(&self, args: Value) -> ToolResult {
        self.call_with(&TestCall::new(), args)
    }

    /// Calls the tool through `call` (the host's checks apply) and checks what every result
    /// satisfies (see [`check_result`]).
    pub fn call_with(&self, call: &TestCall, args: Value) -> ToolResult {
        let result = call.run(&self.tool, args);
        check_result(&result);
        result
    }

    /// Calls and expects a success; its structured content.
    pub fn ok(&self, args: Value) -> Value {
        let result = self.call(args.clone());
        assert!(!result.is_error, "{args} failed: {}", result.joined_text());
        result.structured_content.expect("checked")
    }

    /// Calls and expects a failure; its error envelope.
    pub fn err(&self, args: Value) -> Value {
        let result = self.call(args.clone());
        assert!(result.is_error, "{args} succeeded: {}", result.joined_text());
        result.structured_content.expect("checked")
    }

    /// The argument vectors the double got so far.
    pub fn argvs(&self) -> Vec<Vec<String>> {
        self.double.argvs()
    }

    /// The argument vector of the only invocation so far.
    pub fn only_argv(&self) -> Vec<String> {
        let argvs = self.argvs();
        assert_eq!(argvs.len(), 1, "expected exactly one invocation: {argvs:?}");
        argvs.into_iter().next().expect("one")
    }

    /// How many times dotnet ran.
    pub fn runs(&self) -> usize {
        self.double.invocations().len()
    }

    /// Takes the lock on `target` in the plugin's lock table, as another plugin's `operation`
    /// would; calls that need it are refused until the guard is dropped.
    pub fn hold(&self, target: &LockTarget, operation: &str) -> LockGuard {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime to take a lock");
        runtime
            .block_on(locking::acquire(self.plugin.context(), target, operation, Duration::ZERO))
            .unwrap_or_else(|(error, _)| panic!("{target:?} is free: {:?}", error.errors[0].message))
    }
}

/// What every result of every family satisfies, success or failure: structured content whose
/// `success` says whether it failed, an error envelope with at least one error on failure, and
/// prose for the model rather than the JSON (unless the client asked for `format=json`).
pub fn check_result(result: &ToolResult) {
    let structured = result.structured_content.as_ref().expect("every result carries structuredContent");
    assert_eq!(structured["success"], json!(!result.is_error), "success says whether it failed: {structured}");
    if result.is_error {
        assert!(structured["errors"][0]["code"].is_string(), "a failure is the error envelope: {structured}");
    }
    let text = result.joined_text();
    assert!(!text.trim().is_empty(), "every result has prose for the model");
}

/// The structured content of a result that must be a success.
pub fn succeeded(result: &ToolResult) -> &Value {
    let structured = result.structured_content.as_ref().expect("every result carries structuredContent");
    assert!(!result.is_error, "{}\n{structured:#}", result.joined_text());
    structured
}

/// The error envelope of a result that must be a failure.
pub fn failed(result: &ToolResult) -> &Value {
    assert!(result.is_error, "{}", result.joined_text());
    result.structured_content.as_ref().expect("a failure carries the error envelope")
}

/// The code of an envelope's first error.
pub fn code(envelope: &Value) -> &str {
    envelope["errors"][0]["code"].as_str().unwrap_or_default()
}

/// The parameter an INVALID_PARAMS envelope names.
pub fn parameter(envelope: &Value) -> &str {
    envelope["errors"][0]["data"]["additionalData"]["parameter"].as_str().unwrap_or_default()
}

/// The reason an INVALID_PARAMS envelope gives (`required`, `not applicable`, ...).
pub fn reason(envelope: &Value) -> &str {
    envelope["errors"][0]["data"]["additionalData"]["reason"].as_str().unwrap_or_default()
}

/// Owned strings, for comparing argument vectors.
pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// The questions a [`client`] was asked through elicitation.
pub type Questions = Arc<Mutex<Vec<String>>>;

/// A call whose client lists `roots` (as `file://` URIs) and answers every elicitation with
/// `answer`; without roots or an answer it does not support that request. The questions it was
/// asked are recorded.
pub fn client(roots: &[&Path], answer: Option<Value>) -> (TestCall, Questions) {
    let questions = Questions::default();
    let asked = Arc::clone(&questions);
    let roots: Vec<Value> = roots.iter().map(|root| json!({ "uri": format!("file://{}", root.display()) })).collect();
    let call = TestCall::new().with_client(move |method, params| match method {
        "roots/list" if !roots.is_empty() => Ok(json!({ "roots": roots })),
        "elicitation/create" if answer.is_some() => {
            asked
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(params["message"].as_str().unwrap_or_default().to_owned());
            Ok(answer.clone().unwrap_or_default())
        }
        other => Err(ClientError::Unsupported(other.to_owned())),
    });
    (call, questions)
}

/// The fake secrets the double's `secrets` scenario prints, one per entry.
pub fn secret_values() -> Vec<&'static str> {
    include_str!("../../test-double/fixtures/secrets/values.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect()
}

/// Everything a client could see of a call: the result and the progress messages.
pub fn visible(call: &TestCall, result: &ToolResult) -> String {
    let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    format!("{}\n{}", serde_json::to_string(result).expect("a result serializes"), progress.join("\n"))
}

/// Fails when any of `secrets` occurs in `text`.
pub fn assert_hidden(text: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(!text.contains(secret), "'{secret}' leaked:\n{text}");
    }
}

/// `args` with every other parameter of the tool set to the default a form-filling client sends
/// for it (`false`, `""`, `[]`, `{}`; for a parameter of several types, the first one's), where
/// the input schema admits that default (not for enums, patterns, or minimum lengths and counts).
pub fn with_defaults(tool: &impl Tool, args: &Value) -> Value {
    let spec = tool.spec();
    let mut filled = args.clone();
    let properties = spec.get_input_schema()["properties"].as_object().cloned().unwrap_or_default();
    for (name, schema) in properties {
        if filled.get(&name).is_some() {
            continue;
        }
        let strict =
            ["enum", "pattern", "minLength", "minItems", "minProperties"].iter().any(|key| schema.get(key).is_some());
        let kind = match &schema["type"] {
            Value::Array(kinds) => kinds.first().and_then(Value::as_str),
            kind => kind.as_str(),
        };
        let default = match kind {
            _ if strict => continue,
            Some("boolean") => json!(false),
            Some("string") => json!(""),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => continue,
        };
        filled[name] = default;
    }
    filled
}

/// Whether process `pid` has ended: no `/proc` entry any more, or a zombie waiting for its new
/// parent to reap it. Linux: where there is no `/proc`, every process counts as ended.
pub fn is_dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) == Some("Z"),
    }
}

/// Waits for process `pid` to end ([`is_dead`]); panics if it is still alive after 30 seconds,
/// a bound only a hang reaches.
pub fn assert_dies(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !is_dead(pid) {
        assert!(Instant::now() < deadline, "process {pid} is still alive");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Cancels `call` after `delay`, from another thread, as a client's `notifications/cancelled`
/// would; join the handle once the call has returned.
pub fn cancel_after(call: &TestCall, delay: Duration) -> std::thread::JoinHandle<()> {
    let cancel = call.cancel_handle();
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        cancel.cancel();
    })
}

/// Answers of a family held against its derived output schema, as the host and the official
/// clients check structured content; and the proof that every action was held on a success and
/// on a failure. A family's `tests/schema.rs` holds the double's success and failure modes here;
/// recorded transcripts of the real SDK are held the same way.
///
/// ```no_run
/// # use dotnet_support::testkit::{Answers, Harness};
/// # fn demo<F: dotnet_support::kit::Family + Default>(args: serde_json::Value) {
/// let harness = Harness::<F>::new();
/// let mut answers = Answers::new(&harness.tool);
/// answers.hold("List", harness.call(args));
/// answers.assert_every_action(&["List"]);
/// # }
/// ```
pub struct Answers {
    schemas: mcp_plugin_api::check::ToolSchemas,
    has_action: bool,
    held: BTreeMap<String, (usize, usize)>,
}

impl Answers {
    /// Answers of `tool`, checked against its output schema as it lists it.
    pub fn new(tool: &impl Tool) -> Self {
        let spec = tool.spec();
        let schemas = mcp_plugin_api::check::ToolSchemas::compile(spec.get_input_schema(), spec.get_output_schema())
            .unwrap_or_else(|error| panic!("the schemas compile: {error}"));
        let has_action = spec.get_input_schema()["properties"].get("action").is_some();
        Self { schemas, has_action, held: BTreeMap::new() }
    }

    /// Holds one answer of `action` (its wire name): its structured content passes the output
    /// schema, every field it holds is declared with its type there (the answer with any one
    /// field of another type fails), it says whether it failed, and a success names its action.
    /// Returns the structured content.
    pub fn hold(&mut self, action: &str, result: ToolResult) -> Value {
        let structured = result.structured_content.clone().expect("every answer carries structuredContent");
        if let Err(problem) = self.schemas.check_output(Some(&structured)) {
            panic!("{action}: the answer breaks the output schema: {problem}\n{structured:#}");
        }
        check_result(&result);
        // Exact, not merely permissive: every field the answer holds is declared with its type,
        // so the same answer with any one field of another type breaks the schema.
        for (field, value) in structured.as_object().into_iter().flatten() {
            let mut changed = structured.clone();
            changed[field] = if value.is_string() { json!(12345) } else { json!([12345]) };
            assert!(
                self.schemas.check_output(Some(&changed)).is_err(),
                "{action}: the output schema does not say the type of '{field}': {structured:#}"
            );
        }
        if self.has_action && !result.is_error {
            assert_eq!(structured["action"], action, "a success names its action: {structured}");
        }
        let counts = self.held.entry(action.to_owned()).or_default();
        if result.is_error {
            counts.1 += 1
        } else {
            counts.0 += 1
        }
        structured
    }

    /// Panics unless every one of `actions` was held on at least one success and one failure.
    pub fn assert_every_action(&self, actions: &[&str]) {
        for action in actions {
            let (successes, failures) = self.held.get(*action).copied().unwrap_or_default();
            assert!(successes > 0 && failures > 0, "{action}: {successes} successes and {failures} failures held");
        }
    }
}
