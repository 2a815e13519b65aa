//! [`Call`]: what an action gets to do its work, with the rules every family shares built in:
//! locks named after the tool and action, whose `lockInfo` the kit reports on success and
//! failure alike; confirmation through elicitation; dotnet runs whose every error is the
//! contract's envelope.

use std::{
    path::{Path, PathBuf},
    sync::Mutex,
};

use mcp_plugin_api::{CallContext, PluginContext, locks::LockGuard};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::declare::Lock;
use crate::{
    confirm::{self, Confirmation},
    exec::{self, Command, Ran},
    locking::{self, LockTarget},
    params::Params,
    respond::Failure,
    settings::DotnetSettings,
};

/// What the user said to a confirmation that let the action go ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    /// The user confirmed.
    Confirmed,
    /// The client cannot ask (no elicitation); the tool's `destructiveHint` was its cue.
    NotAsked,
}

impl Consent {
    /// Every consent, in the order of the schema's enum.
    const ALL: [Consent; 2] = [Consent::Confirmed, Consent::NotAsked];

    /// The name results use: `confirmed` or `notAsked`.
    pub fn as_str(self) -> &'static str {
        match self {
            Consent::Confirmed => "confirmed",
            Consent::NotAsked => "notAsked",
        }
    }
}

impl Serialize for Consent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

crate::string_enum_schema!(Consent, "Consent", Consent::ALL.map(Consent::as_str));

/// One call of one action, after the kit checked it.
pub struct Call<'a> {
    pub(crate) ctx: &'a CallContext,
    pub(crate) params: Params<'a>,
    pub(crate) cwd: PathBuf,
    pub(crate) settings: &'a DotnetSettings,
    pub(crate) plugin: &'a PluginContext,
    pub(crate) operation: String,
    pub(crate) action: &'static str,
    pub(crate) lock: Lock,
    pub(crate) lock_info: Mutex<Option<Value>>,
    /// `command` and `exitCode` of the last dotnet run (see [`super::ActionSpec::runs_dotnet`]).
    pub(crate) last_run: Mutex<Option<Map<String, Value>>>,
}

impl<'a> Call<'a> {
    /// The client's side of the call: progress, cancellation, roots, feature tags.
    pub fn ctx(&self) -> &'a CallContext {
        self.ctx
    }

    /// The arguments (already checked against the action's declaration).
    pub fn params(&self) -> &Params<'a> {
        &self.params
    }

    /// The folder the action works in: `workingDirectory` (relative to the configured one),
    /// else the configured one, else the server's. It exists.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The plugin's side of the host: shared configuration, and what the host serves
    /// ([`PluginContext::host_info`]).
    pub fn plugin(&self) -> &'a PluginContext {
        self.plugin
    }

    /// The plugin's settings.
    pub fn settings(&self) -> &'a DotnetSettings {
        self.settings
    }

    /// The action's wire name.
    pub fn action_name(&self) -> &'static str {
        self.action
    }

    /// Takes the host-wide lock on `target` for this action (operation `<tool> <Action>`),
    /// waiting up to `LockWaitSeconds`. While the call lasts, its `lockInfo` goes into the result,
    /// success or failure; a refusal is CONCURRENCY_CONFLICT with the holder's `lockInfo`.
    pub async fn lock(&self, target: &LockTarget) -> Result<LockGuard, Failure> {
        debug_assert!(self.lock != Lock::None, "action {} is declared without a lock but takes one", self.action);
        let guard = locking::acquire(self.plugin, target, &self.operation, self.settings.lock_wait).await?;
        *locked(&self.lock_info) = Some(locking::lock_info_json(guard.info()));
        Ok(guard)
    }

    /// Asks the user to confirm `question` before a destructive step on `target`. Anything but a
    /// clear yes from a client that can ask refuses the action (OPERATION_CANCELLED, nothing
    /// ran); a client that cannot ask lets it go ahead as [`Consent::NotAsked`].
    pub async fn confirm(&self, question: &str, target: &str) -> Result<Consent, Failure> {
        match confirm::confirm(self.ctx, question).await {
            Confirmation::Confirmed => Ok(Consent::Confirmed),
            Confirmation::NotAsked => Ok(Consent::NotAsked),
            Confirmation::Refused(reason) => Err(confirm::refused(self.action, target, &reason).into()),
        }
    }

    /// `dotnet ARGS` in the working directory; `description` is the first progress message.
    pub fn command(&self, args: Vec<String>, description: impl Into<String>) -> Command {
        Command::new(args, &self.cwd, description)
    }

    /// Runs `command` for this call (cancellation, progress, redaction). Only a run that did not
    /// end by itself (no dotnet, no SDK, cancelled, timed out) is an error here. The run's
    /// `command` and `exitCode` are what a success of an action that
    /// [runs dotnet](super::ActionSpec::runs_dotnet) reports, the last run's if it ran several.
    pub async fn run(&self, command: Command) -> Result<Ran, Failure> {
        let ran = exec::run(self.settings, self.ctx, command).await?;
        *locked(&self.last_run) = Some(ran_fields(&ran));
        Ok(ran)
    }

    /// Runs `command` and requires exit code 0; another is the contract's error for it.
    pub async fn run_ok(&self, command: Command) -> Result<Ran, Failure> {
        let ran = self.run(command).await?;
        if ran.succeeded() { Ok(ran) } else { Err(ran.failure().into()) }
    }

    /// The `lockInfo` of the lock this call took, if it took one.
    pub(crate) fn take_lock_info(&self) -> Option<Value> {
        locked(&self.lock_info).take()
    }

    /// `command` and `exitCode` of the last dotnet run, if the call ran dotnet.
    pub(crate) fn take_last_run(&self) -> Option<Map<String, Value>> {
        locked(&self.last_run).take()
    }
}

/// `command` (values declared secret masked, the rest redacted) and `exitCode` of `ran`, as the
/// success of an action that [runs dotnet](super::ActionSpec::runs_dotnet) reports them.
fn ran_fields(ran: &Ran) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("command".into(), json!(ran.command_line()));
    fields.insert("exitCode".into(), json!(ran.exit_code()));
    fields
}

/// The value behind `mutex`, even if a panicking thread held it (a plain value stays valid).
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
