//! [`Family`], what a tool family writes, and [`ActionTool`], the one [`Tool`] every family is
//! served through: it checks the call ([`super::check`]), gives the action a [`Call`], and
//! finishes every result the same way.
//!
//! After a success, the resources the action declares it changes ([`ActionSpec::announces`]) are
//! announced updated to the host.
//!
//! Finishing: a success's structured content gets `success: true`, its `action`, the `lockInfo`
//! of the lock the call took, and for an action that runs dotnet the `command` and `exitCode` of
//! its last run; a failure is the error envelope with that `lockInfo` merged in. A typed result
//! must be of the type the action declares ([`super::result`]). Then the prose and the structured content are redacted, whatever the action
//! produced, apart from the fields an action marked verbatim ([`Reply::verbatim`]) and the
//! identifiers it made itself ([`Reply::identifier`], a background session's id). Progress
//! messages are redacted where they are sent ([`crate::exec::run`], the only sender).

use std::{future::Future, path::PathBuf, sync::Mutex};

use mcp_plugin_api::{
    Announcement, CallContext, Content, InitError, PluginContext, Tool, ToolOutcome, ToolResult, ToolSpec,
};
use serde_json::{Map, Value};

use super::{
    call::Call,
    check,
    declare::{ActionEnum, ActionSpec, Declaration, Effect},
    schema,
};
use crate::{
    errors::ErrorResponse,
    params::{Kind, Params},
    redact::{redact, redact_json},
    respond::{self, Failure, Presentation, Reply},
    settings::DotnetSettings,
    workspace,
};

/// What an action returns: its reply, or why it failed.
pub type Outcome = Result<Reply, Failure>;

/// A tool family: its declaration, and its actions. The kit does the rest; serve it with
/// [`ActionTool::new`] in `export_plugin!`.
pub trait Family: Send + Sync + 'static {
    /// The family's action enum (declared with [`crate::actions!`]).
    type Action: ActionEnum;

    /// The tool: parameters, and what each action takes, does, locks and returns.
    fn declare() -> Declaration<Self::Action>;

    /// Runs one checked action. The reply's structured content holds the action's own fields;
    /// the kit adds `success`, `action` and `lockInfo`.
    fn run(&self, action: Self::Action, call: &Call<'_>) -> impl Future<Output = Outcome> + Send;
}

/// A family served as an MCP tool.
pub struct ActionTool<F: Family> {
    family: F,
    declaration: Declaration<F::Action>,
    settings: DotnetSettings,
    plugin: PluginContext,
    spec: ToolSpec,
}

impl<F: Family> ActionTool<F> {
    /// Serves `family` with the plugin's settings (see [`DotnetSettings`]; `ReadOnly` narrows
    /// it to the actions that read). A malformed setting or declaration refuses the plugin.
    pub fn new(family: F, ctx: &PluginContext) -> Result<Self, InitError> {
        let settings = DotnetSettings::from_context(ctx)?;
        // Every answer is redacted: the patterns compile beside the first call, not inside it.
        // A thread that cannot start leaves them to compile on first use, as before.
        let _ = std::thread::Builder::new().name("redact-warm-up".to_owned()).spawn(crate::redact::warm_up);
        // Known-value redaction starts with what the machine holds when the plugin starts.
        crate::redact::learn::refresh(settings.working_directory.as_slice(), &settings.environment);
        let declaration = F::declare();
        let problems = declaration.problems();
        if !problems.is_empty() {
            return Err(
                format!("the declaration of {} is inconsistent: {}", declaration.name, problems.join("; ")).into()
            );
        }
        let offered: Vec<&ActionSpec<F::Action>> =
            declaration.actions.iter().filter(|spec| !settings.read_only || spec.effect == Effect::Reads).collect();
        let spec = ToolSpec::new(declaration.name, declaration.description)
            .title(declaration.title)
            .input_schema(schema::input(&declaration, &offered))
            .output_schema(schema::output(&declaration, &offered))
            .annotations(schema::annotations(&offered));
        Ok(Self { family, declaration, settings, plugin: ctx.clone(), spec })
    }

    /// The family.
    pub fn family(&self) -> &F {
        &self.family
    }

    /// The family's declaration.
    pub fn declaration(&self) -> &Declaration<F::Action> {
        &self.declaration
    }

    /// The working directory of a call: `workingDirectory` for a tool that takes it (the folder
    /// must exist), else the configured one when it exists, else the server's.
    fn working_directory(&self, params: &Params<'_>) -> Result<PathBuf, ErrorResponse> {
        let configured = self.settings.working_directory.as_deref();
        if self.declaration.params.iter().any(|param| param.name == "workingDirectory") {
            return workspace::working_directory(params.opt("workingDirectory", Kind::Path)?, configured);
        }
        let server = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Ok(configured.filter(|dir| dir.is_dir()).map_or(server, |dir| dir.to_owned()))
    }
}

/// The plugin's tool goes when the plugin is dropped (the host shutting down, a reload): the build
/// servers its commands started go with it ([`crate::servers`]).
impl<F: Family> Drop for ActionTool<F> {
    fn drop(&mut self) {
        crate::servers::shut_down();
    }
}

impl<F: Family> Tool for ActionTool<F> {
    fn spec(&self) -> ToolSpec {
        self.spec.clone()
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        let params = Params::new(&args);
        let checked = check::check(&self.declaration, self.settings.read_only, &params)
            .and_then(|spec| Ok((spec, self.working_directory(&params)?)));
        let (spec, cwd) = match checked {
            Ok(checked) => checked,
            Err(error) => return Ok(finish(Err(error.into()), Envelope::default(), presentation)),
        };
        crate::redact::learn::refresh(&[&cwd], &self.settings.environment);
        let call = Call {
            ctx: &ctx,
            params,
            cwd,
            settings: &self.settings,
            plugin: &self.plugin,
            operation: format!("{} {}", self.declaration.name, spec.action.name()),
            action: spec.action.name(),
            lock: spec.lock,
            lock_info: Mutex::new(None),
            last_run: Mutex::new(None),
        };
        let outcome = self.family.run(spec.action, &call).await;
        if let Ok(reply) = &outcome {
            check_result(spec, reply);
            for uri in &spec.announces {
                self.plugin.announce(Announcement::ResourceUpdated((*uri).to_owned()));
            }
        }
        let run = call.take_last_run().filter(|_| spec.runs_dotnet);
        if outcome.is_ok() && spec.runs_dotnet && run.is_none() {
            panic!("action {} declares that it runs dotnet, but it ran nothing", spec.action.name());
        }
        let envelope = Envelope {
            action: self.declaration.has_action_parameter().then(|| spec.action.name()),
            lock_info: call.take_lock_info(),
            run,
        };
        Ok(finish(outcome, envelope, presentation))
    }
}

/// A reply of the type its action declares (when it declares one), or a panic naming both: the
/// call fails, and the family's tests, which call every action, show the bug.
fn check_result<A: ActionEnum>(spec: &ActionSpec<A>, reply: &Reply) {
    if let Some(declared) = &spec.result {
        let found = reply.result_type.map_or("untyped structured content", |(_, name)| name);
        assert!(
            reply.result_type == Some(declared.tag),
            "action {} answered with {found}, but declares {}",
            spec.action.name(),
            declared.tag.1
        );
    }
}

/// What the kit adds to an action's answer.
#[derive(Debug, Default)]
struct Envelope {
    /// The action's name, for a tool with an `action` parameter.
    action: Option<&'static str>,
    /// The lock the call took (success and failure).
    lock_info: Option<Value>,
    /// `command` and `exitCode` of the run a success reports.
    run: Option<Map<String, Value>>,
}

/// The result of an outcome: the envelope's fields set, everything redacted.
fn finish(outcome: Outcome, envelope: Envelope, presentation: Presentation) -> ToolResult {
    let Envelope { action, lock_info, run } = envelope;
    match outcome {
        Ok(mut reply) => {
            let mut fields = match reply.structured.take() {
                Some(Value::Object(fields)) => fields,
                Some(other) => panic!("structured content is a JSON object, not {other}"),
                None => Map::new(),
            };
            fields.insert("success".into(), Value::Bool(true));
            if let Some(action) = action {
                fields.insert("action".into(), Value::from(action));
            }
            if let Some(info) = lock_info {
                fields.insert("lockInfo".into(), info);
            }
            fields.extend(run.unwrap_or_default());
            reply.structured = Some(Value::Object(fields));
            reply.redact();
            reply.into_result(presentation)
        }
        Err(mut failure) => {
            let mut extra = match failure.extra.take() {
                Some(Value::Object(extra)) => extra,
                _ => Map::new(),
            };
            if let Some(info) = lock_info {
                extra.entry("lockInfo").or_insert(info);
            }
            failure.extra = (!extra.is_empty()).then_some(Value::Object(extra));
            let mut result = respond::failure(failure, presentation);
            for block in &mut result.content {
                if let Content::Text { text } = block
                    && let std::borrow::Cow::Owned(redacted) = redact(text)
                {
                    *text = redacted;
                }
            }
            if let Some(structured) = result.structured_content.as_mut() {
                redact_json(structured);
            }
            result
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        errors::ErrorResult,
        kit::{ActionSpec, Lock, Param},
        locking::LockTarget,
    };
    use mcp_plugin_api::testkit::{TestCall, TestPluginContext};
    use serde_json::json;

    crate::actions! {
        /// Test actions.
        pub enum Act { Show, Change }
    }

    /// A family whose actions return what the test asks for, to see what the kit adds.
    #[derive(Default)]
    struct Echo;

    /// What Echo says.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Said {
        note: String,
    }

    impl Family for Echo {
        type Action = Act;

        fn declare() -> Declaration<Act> {
            Declaration::new("echo_tool", "Echo", "Says what it is told.")
                .param(Param::string("note", "What to say."))
                .param(Param::flag("fail", "Fail instead."))
                .each_action(|action| match action {
                    Act::Show => ActionSpec::reads(action).requires(&["note"]).takes(&["fail"]).result::<Said>(),
                    Act::Change => {
                        ActionSpec::writes(action).locks(Lock::Machine).takes(&["note", "fail"]).result::<Said>()
                    }
                })
        }

        async fn run(&self, action: Act, call: &Call<'_>) -> Outcome {
            let note = call.params().opt_any("note").unwrap_or_default().to_owned();
            if action == Act::Change {
                let _guard = call.lock(&LockTarget::global()).await?;
            }
            if call.params().flag("fail") {
                return Err(ErrorResponse::from(ErrorResult::new("EXIT_1", &format!("failed: {note}"))).into());
            }
            Ok(Reply::new(format!("Said {note}")).result(Said { note }))
        }
    }

    fn tool(config: Value) -> ActionTool<Echo> {
        ActionTool::new(Echo, TestPluginContext::new(config, Map::new()).context()).unwrap()
    }

    #[test]
    fn every_success_says_success_and_its_action() {
        let result = TestCall::new().run(&tool(json!({})), json!({ "action": "Show", "note": "hi" }));
        assert_eq!(result.structured_content, Some(json!({ "success": true, "action": "Show", "note": "hi" })));
    }

    #[test]
    fn the_lock_a_call_took_is_reported_on_success_and_failure() {
        let tool = tool(json!({}));
        let result = TestCall::new().run(&tool, json!({ "action": "Change", "note": "x" }));
        assert_eq!(result.structured_content.unwrap()["lockInfo"]["lockKey"], "global");
        let failed = TestCall::new().run(&tool, json!({ "action": "Change", "note": "x", "fail": true }));
        assert!(failed.is_error);
        let envelope = failed.structured_content.unwrap();
        assert_eq!(
            (envelope["success"].clone(), envelope["lockInfo"]["lockKey"].clone()),
            (json!(false), json!("global"))
        );
        let schema = tool.spec().get_output_schema().cloned().unwrap();
        assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&envelope), "{envelope}");
    }

    #[test]
    fn prose_and_structured_content_are_redacted_whatever_the_action_returned() {
        let leaky = "Server=db;Password=hunter2";
        for fail in [false, true] {
            let result =
                TestCall::new().run(&tool(json!({})), json!({ "action": "Show", "note": leaky, "fail": fail }));
            let seen = serde_json::to_string(&result).unwrap();
            assert!(!seen.contains("hunter2"), "{seen}");
        }
    }

    #[test]
    fn a_read_only_server_lists_and_runs_only_what_reads() {
        let tool = tool(json!({ "ReadOnly": true }));
        let spec = tool.spec();
        assert_eq!(spec.get_input_schema()["properties"]["action"]["enum"], json!(["Show"]));
        let annotations = spec.get_annotations();
        assert_eq!((annotations.read_only, annotations.destructive), (Some(true), Some(false)));
        let refused = TestCall::new().unchecked().run(&tool, json!({ "action": "Change", "note": "x" }));
        assert!(refused.is_error);
        assert_eq!(refused.structured_content.unwrap()["errors"][0]["code"], "READ_ONLY");
        let shown = TestCall::new().run(&tool, json!({ "action": "Show", "note": "x" }));
        assert!(!shown.is_error);
    }
}
