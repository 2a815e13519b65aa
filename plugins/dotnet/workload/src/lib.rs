//! The `dotnet_workload` plugin: the optional workloads of the .NET SDK (Android, iOS, MAUI,
//! WebAssembly tools...) through the dotnet CLI.
//!
//! One tool, `dotnet_workload`, with the actions of the reference server:
//!
//! | action | runs |
//! |---|---|
//! | `List` | `dotnet workload list` |
//! | `Info` | `dotnet workload --info` |
//! | `Search` | `dotnet workload search [<searchTerm>]` |
//! | `Install` | `dotnet workload install <id>... [--skip-manifest-update] [--include-previews] [--source <s>] [--configfile <f>]` |
//! | `Update` | `dotnet workload update [--include-previews] [--source <s>] [--configfile <f>]` |
//! | `Uninstall` | `dotnet workload uninstall <id>...` (asks the user first) |
//!
//! Workloads belong to the SDK installation, so installs, updates and uninstalls take the
//! machine-wide (`global`) lock and report `lockInfo`. The working directory still matters: a
//! `global.json` there chooses the SDK, and so the feature band, the command acts on.
//! `Uninstall` asks the user through elicitation when the client supports it. Every action
//! returns structured content: the parsed tables of `List` and `Search`, the blocks of `Info`,
//! and what changed for the others.

mod parse;

use dotnet_support::respond::Failure;
use dotnet_support::{
    confirm::{self, Confirmation},
    errors::{ErrorResponse, ErrorResult},
    exec::{self, Command, ProgressKind, Ran},
    locking::{self, LockTarget, lock_info_schema},
    params::{Kind, Params, action_schema},
    redact::redacted_command_line,
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace,
};
use mcp_plugin_api::{CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin};
use serde_json::{Map, Value, json};

export_plugin! {
    name: "dotnet_workload",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![DotnetWorkload::new(ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_workload`.
    pub enum Action { List, Info, Search, Install, Update, Uninstall }
}

/// The parameters each action accepts besides `action` and `workingDirectory`.
fn accepted(action: Action) -> &'static [&'static str] {
    match action {
        Action::List | Action::Info => &[],
        Action::Search => &["searchTerm"],
        Action::Install => &["workloadIds", "skipManifestUpdate", "includePreviews", "source", "configFile"],
        Action::Update => &["includePreviews", "source", "configFile"],
        Action::Uninstall => &["workloadIds"],
    }
}

/// Most workload ids one call may name.
const MAX_WORKLOAD_IDS: usize = 32;
/// Longest workload id.
const MAX_WORKLOAD_ID_CHARS: usize = 64;

/// The `dotnet_workload` tool.
pub struct DotnetWorkload {
    plugin: PluginContext,
    settings: DotnetSettings,
}

impl DotnetWorkload {
    /// Reads the dotnet settings of the plugin's section; a malformed setting refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { plugin: ctx.clone(), settings: DotnetSettings::from_context(ctx)? })
    }
}

fn invalid(parameter: &str, reason: &str, message: String) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, &message))
}

/// Refuses a parameter the action does not use, naming the ones it does.
fn check_accepted(action: Action, args: &Value) -> Result<(), ErrorResponse> {
    let accepted = accepted(action);
    let Some(object) = args.as_object() else { return Ok(()) };
    for (name, value) in object {
        if value.is_null() || name == "action" || name == "workingDirectory" || accepted.contains(&name.as_str()) {
            continue;
        }
        let takes = if accepted.is_empty() { "no other parameters".to_owned() } else { accepted.join(", ") };
        return Err(invalid(
            name,
            "not applicable",
            format!("Parameter '{name}' does not apply to action '{}'. It accepts: {takes}.", action.name()),
        ));
    }
    Ok(())
}

/// Checks one workload id: letters, digits, `_` and `-`, not starting with `-`.
fn check_workload_id(index: usize, id: &str) -> Result<(), ErrorResponse> {
    let name = format!("workloadIds[{index}]");
    let well_formed = !id.is_empty()
        && id.chars().count() <= MAX_WORKLOAD_ID_CHARS
        && id.starts_with(|c: char| c.is_ascii_alphanumeric())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if well_formed {
        Ok(())
    } else {
        Err(invalid(
            &name,
            "invalid value",
            format!(
                "Parameter '{name}' must be a workload id such as wasm-tools or maui-android: letters, digits, \
                 '_' and '-', 1 to {MAX_WORKLOAD_ID_CHARS} characters, not starting with '-' (got {id:?})."
            ),
        ))
    }
}

/// The `workloadIds`, required and checked.
fn workload_ids(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let items = match params.raw("workloadIds") {
        None => Vec::new(),
        Some(Value::Array(items)) => items.clone(),
        Some(_) => {
            return Err(invalid(
                "workloadIds",
                "invalid type",
                "Parameter 'workloadIds' must be an array of workload ids.".to_owned(),
            ));
        }
    };
    if items.is_empty() {
        return Err(invalid(
            "workloadIds",
            "required",
            "Parameter 'workloadIds' is required: name at least one workload (see the Search action).".to_owned(),
        ));
    }
    if items.len() > MAX_WORKLOAD_IDS {
        return Err(invalid(
            "workloadIds",
            "too many",
            format!("Parameter 'workloadIds' names more than {MAX_WORKLOAD_IDS} workloads."),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let id = item.as_str().unwrap_or_default();
            check_workload_id(index, id).map(|()| id.to_owned())
        })
        .collect()
}

/// Everything decided about a call before it runs.
#[derive(Debug, Clone)]
struct Plan {
    action: Action,
    args: Vec<String>,
    ids: Vec<String>,
    search_term: Option<String>,
    lock: bool,
    confirm: Option<String>,
    progress: ProgressKind,
    description: String,
}

/// Appends the options Install and Update share.
fn push_sources(args: &mut Vec<String>, params: &Params) -> Result<(), ErrorResponse> {
    if params.flag("includePreviews") {
        args.push("--include-previews".into());
    }
    if let Some(source) = params.opt("source", Kind::Text)? {
        args.extend(["--source".into(), source.to_owned()]);
    }
    if let Some(file) = params.opt("configFile", Kind::Path)? {
        args.extend(["--configfile".into(), file.to_owned()]);
    }
    Ok(())
}

/// Plans `action`: the argument vector, the lock, the confirmation and the progress.
fn plan(action: Action, params: &Params) -> Result<Plan, ErrorResponse> {
    let mut plan = Plan {
        action,
        args: vec!["workload".into()],
        ids: Vec::new(),
        search_term: None,
        lock: false,
        confirm: None,
        progress: ProgressKind::None,
        description: String::new(),
    };
    match action {
        Action::List => {
            plan.args.push("list".into());
            plan.description = "listing the installed workloads".into();
        }
        Action::Info => {
            plan.args.push("--info".into());
            plan.description = "reading the installed workloads' details".into();
        }
        Action::Search => {
            plan.args.push("search".into());
            if let Some(term) = params.opt("searchTerm", Kind::Text)? {
                plan.args.push(term.to_owned());
                plan.search_term = Some(term.to_owned());
            }
            plan.description = "searching the available workloads".into();
        }
        Action::Install => {
            plan.ids = workload_ids(params)?;
            plan.args.push("install".into());
            plan.args.extend(plan.ids.iter().cloned());
            if params.flag("skipManifestUpdate") {
                plan.args.push("--skip-manifest-update".into());
            }
            push_sources(&mut plan.args, params)?;
            plan.lock = true;
            plan.progress = ProgressKind::Lines;
            plan.description = format!("installing the workload(s) {}", plan.ids.join(", "));
        }
        Action::Update => {
            plan.args.push("update".into());
            push_sources(&mut plan.args, params)?;
            plan.lock = true;
            plan.progress = ProgressKind::Lines;
            plan.description = "updating the installed workloads".into();
        }
        Action::Uninstall => {
            plan.ids = workload_ids(params)?;
            plan.args.push("uninstall".into());
            plan.args.extend(plan.ids.iter().cloned());
            plan.lock = true;
            plan.progress = ProgressKind::Lines;
            plan.confirm = Some(format!(
                "Uninstall the .NET SDK workload(s) {} from this machine? Projects that need them will not build \
                 until they are installed again.",
                plan.ids.join(", ")
            ));
            plan.description = format!("uninstalling the workload(s) {}", plan.ids.join(", "));
        }
    }
    Ok(plan)
}

fn string_list() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// The input schema: `action` is required; the other parameters are checked against it at call
/// time (see `accepted`).
fn input_schema() -> Value {
    let flag = |description: &str| json!({ "type": "boolean", "description": description });
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(Action::NAMES, "What to do."),
            "workingDirectory": { "type": "string", "description": "Folder the command runs in; a global.json there chooses the SDK whose workloads are managed." },
            "workloadIds": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_WORKLOAD_IDS,
                "items": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*$", "maxLength": MAX_WORKLOAD_ID_CHARS },
                "description": "Workload ids to install or uninstall, such as wasm-tools or maui-android."
            },
            "searchTerm": { "type": "string", "description": "Text to look for in workload ids and descriptions (Search)." },
            "skipManifestUpdate": flag("Install without updating the workload manifests first."),
            "includePreviews": flag("Allow prerelease workload manifests (Install, Update)."),
            "source": { "type": "string", "description": "NuGet source to get workload packs from (Install, Update)." },
            "configFile": { "type": "string", "description": "NuGet.Config file to use (Install, Update)." }
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

/// One success shape of the output schema: the common fields plus `properties`.
fn success_branch(actions: &[&str], required: &[&str], properties: Value) -> Value {
    let mut all = json!({
        "success": { "const": true },
        "action": { "enum": actions },
        "command": { "type": "string", "description": "The dotnet command that ran, redacted." },
        "exitCode": { "type": "integer" }
    });
    if let (Some(all), Value::Object(extra)) = (all.as_object_mut(), properties) {
        all.extend(extra);
    }
    let mut needed = vec!["success", "action", "command", "exitCode"];
    needed.extend_from_slice(required);
    json!({ "type": "object", "required": needed, "properties": all })
}

/// The output schema: one shape per action, or the error envelope.
fn output_schema() -> Value {
    let optional_string = json!({ "type": "string" });
    let installed = json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": { "type": "string" },
            "manifestVersion": optional_string,
            "installationSource": optional_string,
            "manifestPath": optional_string,
            "installType": optional_string
        }
    });
    let found = json!({
        "type": "object",
        "required": ["id", "description"],
        "properties": { "id": { "type": "string" }, "description": { "type": "string" } }
    });
    let pack = json!({
        "type": "object",
        "required": ["id", "version"],
        "properties": { "id": { "type": "string" }, "version": { "type": "string" } }
    });
    json!({
        "type": "object",
        "anyOf": [
            success_branch(&["List", "Info"], &["workloads"], json!({
                "workloads": { "type": "array", "items": installed },
                "workloadVersion": { "type": "string", "description": "The workload set version, when the SDK prints one." }
            })),
            success_branch(&["Search"], &["workloads"], json!({
                "searchTerm": { "type": "string" }, "workloads": { "type": "array", "items": found }
            })),
            success_branch(&["Install"], &["workloadIds", "packs", "lockInfo"], json!({
                "workloadIds": string_list(), "packs": { "type": "array", "items": pack }, "lockInfo": lock_info_schema()
            })),
            success_branch(&["Update"], &["updated", "lockInfo"], json!({
                "updated": string_list(), "lockInfo": lock_info_schema()
            })),
            success_branch(&["Uninstall"], &["workloadIds", "consent", "lockInfo"], json!({
                "workloadIds": string_list(), "consent": { "enum": ["confirmed", "notAsked"] }, "lockInfo": lock_info_schema()
            })),
            dotnet_support::errors::error_response_schema()
        ]
    })
}

impl Tool for DotnetWorkload {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_workload",
            "Manage .NET SDK workloads: List the installed ones, Info for their details, Search the available \
             ones, Install or Uninstall `workloadIds`, and Update all installed workloads. List, Info and Search \
             return parsed results. Install, Update and Uninstall change the SDK installation for the whole \
             machine; Uninstall asks the user to confirm when the client supports elicitation.",
        )
        .title(".NET Workload Manager")
        .input_schema(input_schema())
        .output_schema(output_schema())
        .read_only(false)
        .destructive(true)
        .idempotent(false)
        .open_world(true)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        Ok(respond::finish(self.execute(&args, &ctx).await, presentation))
    }
}

impl DotnetWorkload {
    async fn execute(&self, args: &Value, ctx: &CallContext) -> Result<Reply, Failure> {
        let params = Params::new(args);
        let action = params.action(Action::parse)?;
        check_accepted(action, args)?;
        let cwd = workspace::working_directory(
            params.opt("workingDirectory", Kind::Path)?,
            self.settings.working_directory.as_deref(),
        )?;
        let plan = plan(action, &params)?;
        let consent = match &plan.confirm {
            Some(question) => match confirm::confirm(ctx, question).await {
                Confirmation::Refused(reason) => {
                    return Err(confirm::refused(action.name(), &plan.ids.join(", "), &reason).into());
                }
                answer => Some(answer),
            },
            None => None,
        };
        let guard = if plan.lock {
            let operation = format!("dotnet_workload {}", action.name());
            let guard = locking::acquire(&self.plugin, &LockTarget::global(), &operation, self.settings.lock_wait)
                .await
                .map_err(|(error, extra)| Failure { error, extra: Some(extra) })?;
            Some(guard)
        } else {
            None
        };
        let lock_info = guard.as_ref().map(|guard| locking::lock_info_json(guard.info()));
        let command = Command::new(plan.args.clone(), &cwd, plan.description.clone()).progress(plan.progress);
        let ran = exec::run(&self.settings, ctx, command)
            .await
            .map_err(|error| Failure::with_lock(error, lock_info.as_ref()))?;
        if !ran.succeeded() {
            return Err(Failure::with_lock(ran.failure(), lock_info.as_ref()));
        }
        Ok(reply(&plan, &ran, lock_info, consent))
    }
}

fn count(number: usize, noun: &str) -> String {
    if number == 1 { format!("1 {noun}") } else { format!("{number} {noun}s") }
}

/// The reply of a successful run.
fn reply(plan: &Plan, ran: &Ran, lock_info: Option<Value>, consent: Option<Confirmation>) -> Reply {
    let stdout = &ran.outcome.stdout;
    let mut structured = Map::new();
    structured.insert("success".into(), Value::Bool(true));
    structured.insert("action".into(), json!(plan.action.name()));
    structured.insert("command".into(), json!(redacted_command_line("dotnet", &plan.args)));
    structured.insert("exitCode".into(), json!(ran.exit_code()));
    let ids = plan.ids.join(", ");
    let reply = match plan.action {
        Action::List | Action::Info => {
            let workloads = if plan.action == Action::List { parse::list(stdout) } else { parse::info(stdout) };
            let version = parse::workload_version(stdout);
            let lines = workloads
                .iter()
                .map(|workload| {
                    let details: Vec<&str> =
                        [&workload.manifest_version, &workload.installation_source, &workload.install_type]
                            .into_iter()
                            .flatten()
                            .map(String::as_str)
                            .collect();
                    if details.is_empty() {
                        workload.id.clone()
                    } else {
                        format!("{} ({})", workload.id, details.join(", "))
                    }
                })
                .collect();
            let mut summary = format!("{} installed", count(workloads.len(), "workload"));
            if let Some(version) = &version {
                summary.push_str(&format!(" (workload version {version})"));
                structured.insert("workloadVersion".into(), json!(version));
            }
            structured.insert("workloads".into(), json!(workloads));
            Reply::new(format!("{summary}.")).section("Workloads", lines)
        }
        Action::Search => {
            let found = parse::search(stdout);
            let lines = found.iter().map(|workload| format!("{}: {}", workload.id, workload.description)).collect();
            let summary = match &plan.search_term {
                Some(term) => {
                    structured.insert("searchTerm".into(), json!(term));
                    format!("{} available for '{term}'.", count(found.len(), "workload"))
                }
                None => format!("{} available.", count(found.len(), "workload")),
            };
            structured.insert("workloads".into(), json!(found));
            Reply::new(summary).section("Workloads", lines)
        }
        Action::Install => {
            let packs = parse::packs(stdout);
            let lines = packs.iter().map(|pack| format!("{} {}", pack.id, pack.version)).collect();
            structured.insert("workloadIds".into(), json!(plan.ids));
            structured.insert("packs".into(), json!(packs));
            Reply::new(format!("Installed the workload(s) {ids} ({} written).", count(packs.len(), "pack")))
                .section("Packs", lines)
        }
        Action::Update => {
            let updated = parse::updated(stdout);
            let summary = if updated.is_empty() {
                "The workloads are up to date.".to_owned()
            } else {
                format!("Updated the workload(s) {}.", updated.join(", "))
            };
            structured.insert("updated".into(), json!(updated));
            Reply::new(summary)
        }
        Action::Uninstall => {
            let consent = if consent == Some(Confirmation::Confirmed) { "confirmed" } else { "notAsked" };
            structured.insert("workloadIds".into(), json!(plan.ids));
            structured.insert("consent".into(), json!(consent));
            Reply::new(format!("Uninstalled the workload(s) {ids}."))
        }
    };
    if let Some(info) = lock_info {
        structured.insert("lockInfo".into(), info);
    }
    reply.output(ran.outcome.transcript.clone()).structured(Value::Object(structured))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(args: Value) -> Result<Plan, ErrorResponse> {
        let params = Params::new(&args);
        let action = params.action(Action::parse)?;
        check_accepted(action, &args)?;
        plan(action, &params)
    }

    fn parameter(error: &ErrorResponse) -> String {
        error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap()["parameter"].clone()
    }

    #[test]
    fn workload_ids_are_required_and_plain() {
        assert_eq!(parameter(&planned(json!({ "action": "Install" })).unwrap_err()), "workloadIds");
        assert_eq!(
            parameter(&planned(json!({ "action": "Uninstall", "workloadIds": [] })).unwrap_err()),
            "workloadIds"
        );
        for bad in ["--source=x", "wasm tools", "a;b", "", "maui.android"] {
            let error = planned(json!({ "action": "Install", "workloadIds": ["ios", bad] })).unwrap_err();
            assert_eq!(parameter(&error), "workloadIds[1]", "{bad}");
        }
        let error = planned(json!({ "action": "Install", "workloadIds": "ios" })).unwrap_err();
        assert_eq!(parameter(&error), "workloadIds");
        let plan = planned(json!({ "action": "Uninstall", "workloadIds": ["wasm-tools", "maui_x"] })).unwrap();
        assert_eq!(plan.args, ["workload", "uninstall", "wasm-tools", "maui_x"]);
        assert!(plan.lock && plan.confirm.unwrap().contains("wasm-tools, maui_x"));
    }

    #[test]
    fn parameters_must_apply_to_the_action() {
        let error = planned(json!({ "action": "Update", "workloadIds": ["ios"] })).unwrap_err();
        assert_eq!(parameter(&error), "workloadIds");
        assert!(error.errors[0].message.contains("includePreviews, source, configFile"));
        let error = planned(json!({ "action": "List", "searchTerm": "x" })).unwrap_err();
        assert!(error.errors[0].message.contains("no other parameters"), "{}", error.errors[0].message);
        let error = planned(json!({ "action": "Search", "searchTerm": "-x" })).unwrap_err();
        assert_eq!(parameter(&error), "searchTerm");
    }

    #[test]
    fn every_parameter_belongs_to_an_action_and_every_action_has_a_shape() {
        let input = input_schema();
        let properties = input["properties"].as_object().unwrap();
        let actions: Vec<Action> = Action::NAMES.iter().map(|name| Action::parse(name).unwrap()).collect();
        for name in properties.keys().filter(|name| *name != "action" && *name != "workingDirectory") {
            assert!(actions.iter().any(|action| accepted(*action).contains(&name.as_str())), "{name}");
        }
        for action in &actions {
            assert!(accepted(*action).iter().all(|name| properties.contains_key(*name)), "{action:?}");
        }
        let output = output_schema();
        let shapes = output["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|branch| branch["properties"]["action"]["enum"].as_array())
            .flatten()
            .count();
        assert_eq!(shapes, Action::NAMES.len());
    }
}
