//! A tool family described as data: its parameters, and for each action what it takes, what it
//! needs, whether it reads or changes, what it locks and what a success looks like. Everything
//! else (schemas, annotations, the per-action parameter check) is derived from it
//! ([`super::schema`], [`super::check`]).
//!
//! Declare the actions with [`Declaration::each_action`] and a function that matches on the
//! action enum without a wildcard arm: an action added to the enum and not declared does not
//! compile. Each action names its result type ([`ActionSpec::result`]), from which its branch of
//! the output schema is derived.

use serde_json::{Value, json};

use super::result::{ActionResult, ResultType};

/// An action enum, as [`crate::actions!`] declares it: wire names in declaration order.
pub trait ActionEnum: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// Every action, in declaration order.
    const ALL: &'static [Self];

    /// Every action's wire name, in declaration order.
    const NAMES: &'static [&'static str];

    /// The action's wire name (PascalCase, as the reference server spells it).
    fn name(self) -> &'static str;

    /// The action named `text`, without regard to case.
    fn from_name(text: &str) -> Option<Self>;
}

/// What an action does to the world, which decides the tool's annotations and whether a
/// read-only server offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It only reads: listings, info, analysis, validation, logs, searches.
    Reads,
    /// It adds or updates something (a file, a package, an installation) without destroying data.
    Writes,
    /// It may delete or overwrite something the user cannot get back from the action itself.
    Destroys,
}

/// What an action locks (see [`crate::locking`]). Locks are taken by the action through
/// [`super::Call::lock`]; the declaration says which actions may take one, for the front-door
/// table and a check at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// Nothing.
    None,
    /// Machine-wide state: SDK workloads, global tools, template packs, certificates, caches.
    Machine,
    /// The project, solution or folder it works on (or the machine, for a `global` tool).
    Target,
}

/// One parameter of the tool: its name and its JSON Schema (with its description).
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub(crate) name: &'static str,
    pub(crate) schema: Value,
}

impl Param {
    /// A parameter with its own schema.
    pub fn new(name: &'static str, schema: Value) -> Self {
        Self { name, schema }
    }

    /// A string parameter.
    pub fn string(name: &'static str, description: &str) -> Self {
        Self::new(name, json!({ "type": "string", "description": description }))
    }

    /// A boolean parameter (absent and `false` mean the same).
    pub fn flag(name: &'static str, description: &str) -> Self {
        Self::new(name, json!({ "type": "boolean", "description": description }))
    }

    /// An array of strings.
    pub fn strings(name: &'static str, description: &str) -> Self {
        Self::new(name, json!({ "type": "array", "items": { "type": "string" }, "description": description }))
    }

    /// A string enum.
    pub fn choice(name: &'static str, values: &[&str], description: &str) -> Self {
        Self::new(name, json!({ "type": "string", "enum": values, "description": description }))
    }

    /// A list that may also be given as one string ([`crate::params::Params::list`] says how a
    /// string is split).
    pub fn string_or_list(name: &'static str, description: &str) -> Self {
        Self::new(
            name,
            json!({
                "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }],
                "description": description
            }),
        )
    }

    /// An integer from `minimum` to `maximum` (when given).
    pub fn integer(name: &'static str, minimum: i64, maximum: Option<i64>, description: &str) -> Self {
        let mut schema = json!({ "type": "integer", "minimum": minimum, "description": description });
        if let Some(maximum) = maximum {
            schema["maximum"] = json!(maximum);
        }
        Self::new(name, schema)
    }

    /// The strings it holds (the parameter itself, or the items of a list) are at most `chars`
    /// characters long.
    pub fn max_length(self, chars: usize) -> Self {
        self.string_constraint("maxLength", json!(chars))
    }

    /// The strings it holds (the parameter itself, or the items of a list) match `pattern` (a
    /// regular expression, searched as JSON Schema does: anchor it with `^...$`).
    pub fn pattern(self, pattern: &str) -> Self {
        self.string_constraint("pattern", json!(pattern))
    }

    /// A list holds at most `items` entries.
    pub fn max_items(mut self, items: usize) -> Self {
        self.schema["maxItems"] = json!(items);
        self
    }

    fn string_constraint(mut self, keyword: &str, value: Value) -> Self {
        match self.schema.get_mut("items") {
            Some(items) => items[keyword] = value,
            None => self.schema[keyword] = value,
        }
        self
    }
}

/// The schema of `command`: the dotnet command a success ran.
pub(crate) fn command_schema() -> Value {
    json!({ "type": "string", "description": "The command that ran, redacted." })
}

/// The schema of `exitCode`, of a success that ran dotnet and of the error envelope alike.
pub(crate) fn exit_code_schema() -> Value {
    json!({ "type": "integer" })
}

/// One action: what it does, takes, needs, locks and returns.
#[derive(Debug, Clone)]
pub struct ActionSpec<A> {
    pub(crate) action: A,
    pub(crate) effect: Effect,
    pub(crate) idempotent: bool,
    pub(crate) open_world: bool,
    pub(crate) lock: Lock,
    pub(crate) takes: Vec<&'static str>,
    pub(crate) requires: Vec<&'static str>,
    pub(crate) result: Option<ResultType>,
    pub(crate) runs_dotnet: bool,
    pub(crate) announces: Vec<&'static str>,
}

impl<A: ActionEnum> ActionSpec<A> {
    fn with(action: A, effect: Effect, idempotent: bool) -> Self {
        Self {
            action,
            effect,
            idempotent,
            open_world: false,
            lock: Lock::None,
            takes: Vec::new(),
            requires: Vec::new(),
            result: None,
            runs_dotnet: false,
            announces: Vec::new(),
        }
    }

    /// An action that only reads (and so is idempotent).
    pub fn reads(action: A) -> Self {
        Self::with(action, Effect::Reads, true)
    }

    /// An action that adds or updates something; not idempotent unless said.
    pub fn writes(action: A) -> Self {
        Self::with(action, Effect::Writes, false)
    }

    /// An action that may delete or overwrite something; not idempotent unless said.
    pub fn destroys(action: A) -> Self {
        Self::with(action, Effect::Destroys, false)
    }

    /// Calling it again with the same arguments changes nothing more.
    pub fn idempotent(mut self) -> Self {
        self.idempotent = true;
        self
    }

    /// It reaches outside the machine (NuGet feeds, nuget.org, a database server).
    pub fn open_world(mut self) -> Self {
        self.open_world = true;
        self
    }

    /// What it may lock.
    pub fn locks(mut self, lock: Lock) -> Self {
        self.lock = lock;
        self
    }

    /// Parameters it reads (besides the tool's common ones); any other parameter set to more
    /// than a default is refused.
    pub fn takes(mut self, names: &[&'static str]) -> Self {
        self.takes.extend_from_slice(names);
        self
    }

    /// Parameters it cannot do without (they are also taken).
    pub fn requires(mut self, names: &[&'static str]) -> Self {
        self.requires.extend_from_slice(names);
        self.takes.extend_from_slice(names);
        self
    }

    /// The resource (a URI of [`crate::resources`]) whose contents a success of the action
    /// changes: the kit announces it updated after each success, so that subscribed clients
    /// read it again.
    pub fn announces(mut self, uri: &'static str) -> Self {
        self.announces.push(uri);
        self
    }

    /// The type its successes answer with ([`crate::respond::Reply::result`]). Its schema, with
    /// the envelope's fields the kit adds, is the action's branch of the output schema. An action
    /// with several kinds of success answers with an enum (`#[serde(untagged)]`) or with optional
    /// fields.
    pub fn result<T: ActionResult>(mut self) -> Self {
        self.result = Some(ResultType::of::<T>());
        self
    }

    /// Its success reports the dotnet command it ran: `command` (redacted, values declared secret
    /// masked) and `exitCode`, which the kit takes from the call's last run ([`super::Call::run`],
    /// [`super::Call::run_ok`]) and the output schema requires.
    pub fn runs_dotnet(mut self) -> Self {
        self.runs_dotnet = true;
        self
    }

    /// The action.
    pub fn action(&self) -> A {
        self.action
    }

    /// What it does to the world.
    pub fn effect(&self) -> Effect {
        self.effect
    }

    /// What it may lock.
    pub fn lock(&self) -> Lock {
        self.lock
    }

    /// Whether it takes `parameter`.
    pub fn takes_parameter(&self, parameter: &str) -> bool {
        self.takes.contains(&parameter)
    }
}

/// A whole tool: its name, prose, parameters and actions.
#[derive(Debug, Clone)]
pub struct Declaration<A> {
    pub(crate) name: &'static str,
    pub(crate) title: &'static str,
    pub(crate) description: &'static str,
    pub(crate) action_help: Option<&'static str>,
    pub(crate) params: Vec<Param>,
    pub(crate) common: Vec<&'static str>,
    pub(crate) actions: Vec<ActionSpec<A>>,
    pub(crate) failure_fields: Vec<ResultType>,
}

impl<A: ActionEnum> Declaration<A> {
    /// A tool with its MCP name, title and description for the model. Its input has an
    /// `action` parameter ([`Self::action_help`] describes it) unless it is
    /// [`Self::single_action`].
    pub fn new(name: &'static str, title: &'static str, description: &'static str) -> Self {
        Self {
            name,
            title,
            description,
            action_help: Some("What to do."),
            params: Vec::new(),
            common: Vec::new(),
            actions: Vec::new(),
            failure_fields: Vec::new(),
        }
    }

    /// The description of the `action` parameter.
    pub fn action_help(mut self, help: &'static str) -> Self {
        self.action_help = Some(help);
        self
    }

    /// A tool that does one thing: no `action` parameter, and no `action` in its results.
    pub fn single_action(mut self) -> Self {
        self.action_help = None;
        self
    }

    /// Declares a parameter.
    pub fn param(mut self, param: Param) -> Self {
        self.params.push(param);
        self
    }

    /// Parameters every action takes (`workingDirectory`).
    pub fn common(mut self, names: &[&'static str]) -> Self {
        self.common.extend_from_slice(names);
        self
    }

    /// Declares every action of the enum, in its order, with `spec`: a function that matches on
    /// the action without a wildcard arm, so that an action added to the enum does not compile
    /// until it is declared.
    pub fn each_action(mut self, spec: fn(A) -> ActionSpec<A>) -> Self {
        self.actions.extend(A::ALL.iter().map(|action| spec(*action)));
        self
    }

    /// Fields that failures of this tool may carry beside the error envelope: the fields of `T`
    /// (the counts of a failed build or test run), each optional; `lockInfo` is always there.
    /// Derived with the results, so a type they share is defined once in the output schema.
    pub fn failure_fields<T: ActionResult>(mut self) -> Self {
        self.failure_fields.push(ResultType::of::<T>());
        self
    }

    /// The tool's MCP name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The declaration of `action`.
    pub fn spec_of(&self, action: A) -> &ActionSpec<A> {
        self.actions.iter().find(|spec| spec.action == action).expect("every action is declared (checked at load)")
    }

    /// Every declared action, in declaration order.
    pub fn actions(&self) -> &[ActionSpec<A>] {
        &self.actions
    }

    /// Whether the tool has an `action` parameter.
    pub fn has_action_parameter(&self) -> bool {
        self.action_help.is_some()
    }

    /// What is wrong with the declaration, if anything: every action of the enum declared once,
    /// every parameter named by an action declared, every declared parameter used, a single-action
    /// tool with one action, every action with a result type (an object without the fields the
    /// kit sets).
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for name in A::NAMES {
            let count = self.actions.iter().filter(|spec| spec.action.name() == *name).count();
            if count != 1 {
                problems.push(format!("action {name} is declared {count} times"));
            }
        }
        let declared: Vec<&str> = self.params.iter().map(|param| param.name).collect();
        for (index, name) in declared.iter().enumerate() {
            if declared[..index].contains(name) || *name == "action" {
                problems.push(format!("parameter {name} is declared twice (or is 'action')"));
            }
        }
        for spec in &self.actions {
            for name in spec.takes.iter().chain(&self.common) {
                if !declared.contains(name) {
                    problems.push(format!("action {} takes {name}, which is not declared", spec.action.name()));
                }
            }
            match &spec.result {
                None => problems.push(format!("action {} declares no result type", spec.action.name())),
                Some(result) => problems.extend(result.problems(spec.runs_dotnet)),
            }
        }
        for name in &declared {
            let used = self.common.contains(name) || self.actions.iter().any(|spec| spec.takes.contains(name));
            if !used {
                problems.push(format!("parameter {name} is taken by no action"));
            }
        }
        if self.action_help.is_none() && self.actions.len() != 1 {
            problems.push("a single-action tool declares exactly one action".to_owned());
        }
        problems
    }
}
