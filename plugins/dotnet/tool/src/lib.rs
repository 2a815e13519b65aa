//! The `dotnet_tool` plugin: .NET tools through the dotnet CLI, in all three places a tool can
//! live (a local manifest, the user's global tools, a tool path).
//!
//! One tool, `dotnet_tool`, with the actions of the reference server:
//!
//! | action | runs |
//! |---|---|
//! | `Install` | `dotnet tool install <packageId> [scope] [--version] [--framework] [--prerelease] [--allow-downgrade] [--add-source] [--configfile]` |
//! | `Update` | `dotnet tool update <packageId>` with the same options |
//! | `Uninstall` | `dotnet tool uninstall <packageId> [scope]` (asks the user first) |
//! | `List` | `dotnet tool list [<packageId>] [--global \| --tool-path <p>]` |
//! | `Restore` | `dotnet tool restore [--tool-manifest <m>] [--add-source] [--configfile]` |
//! | `CreateManifest` | `dotnet new tool-manifest [-o <output>] [--force]` |
//! | `Search` | `dotnet tool search <searchTerm> [--detail] [--take N] [--skip N] [--prerelease]` |
//! | `Run` | `dotnet tool run <toolName> [-- <args>...]` |
//!
//! The scope is `--global`, `--tool-path <toolPath>` or `--tool-manifest <manifest>`, at most one;
//! none means the local manifest the CLI finds from the working directory up. When the call names
//! no working directory, a local action runs in the client's root that holds a tool manifest, if
//! exactly one does.
//!
//! Every action returns structured content (see the output schema): the parsed table of `List`
//! and `Search`, what changed for the others, with `lockInfo` for the ones that change something.
//! Installs, updates, uninstalls, restores and manifest creation take the shared lock: the whole
//! machine for global tools, the folder for a tool path, the manifest's folder for local tools.
//! `Uninstall` asks the user through elicitation when the client supports it.

mod parse;
mod plan;

use dotnet_support::respond::Failure;
use std::path::PathBuf;

use dotnet_support::{
    confirm::{self, Confirmation},
    errors::{ErrorResponse, ErrorResult},
    exec::{self, Command, Ran},
    locking::{self, lock_info_schema},
    params::{Kind, Params, action_schema},
    redact::{redact_args, redacted_command_line},
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace::{self, file_uri_path},
};
use mcp_plugin_api::{CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin};
use serde_json::{Map, Value, json};

use plan::{Action, Plan, Scope};

export_plugin! {
    name: "dotnet_tool",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![DotnetTool::new(ctx)?.into()]),
}

/// The `dotnet_tool` tool.
pub struct DotnetTool {
    plugin: PluginContext,
    settings: DotnetSettings,
}

impl DotnetTool {
    /// Reads the dotnet settings of the plugin's section; a malformed setting refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { plugin: ctx.clone(), settings: DotnetSettings::from_context(ctx)? })
    }
}

fn string_list() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// The input schema: `action` is required, every other parameter is checked against the action
/// at call time (see `plan::accepted`).
fn input_schema() -> Value {
    let string = |description: &str| json!({ "type": "string", "description": description });
    let flag = |description: &str| json!({ "type": "boolean", "description": description });
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(Action::NAMES, "What to do."),
            "workingDirectory": string("Folder the command runs in (default: the client's root holding a tool manifest, else the server's)."),
            "packageId": string("NuGet package id of the tool (Install, Update, Uninstall; a filter for List)."),
            "global": flag("The user's global tools instead of the local manifest (Install, Update, Uninstall, List)."),
            "toolPath": string("Install into, list or remove from this folder instead of the local manifest."),
            "manifest": string("Path of the local tool manifest (dotnet-tools.json) to use (Install, Update, Uninstall, Restore)."),
            "version": string("Version or version range to install or update to."),
            "framework": string("Target framework to install the tool for, such as net10.0."),
            "prerelease": flag("Allow prerelease versions (Install, Update, Search)."),
            "allowDowngrade": flag("Allow installing or updating to a lower version."),
            "source": string("An extra NuGet source (URL or folder) to look for the tool in."),
            "configFile": string("NuGet.Config file to use."),
            "searchTerm": string("What to search nuget.org for (Search)."),
            "detail": flag("Show descriptions and versions of the search results."),
            "take": { "type": "integer", "minimum": 1, "maximum": 1000, "description": "How many search results to return (the CLI's default: 20)." },
            "skip": { "type": "integer", "minimum": 0, "description": "How many search results to skip." },
            "toolName": string("Command of the local tool to run (Run), such as dotnet-ef."),
            "args": {
                "type": "array",
                "maxItems": 64,
                "items": { "type": "string", "minLength": 1, "maxLength": 1024 },
                "description": "Arguments for the tool (Run), one per entry: letters, digits and \" _.,:=/\\+@%~-\"; options as single tokens (-v, --check, --format=json); no @response files."
            },
            "output": string("Folder to create the .config/dotnet-tools.json manifest in (CreateManifest)."),
            "force": flag("Overwrite an existing manifest (CreateManifest).")
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
    let installed = json!({
        "type": "object",
        "required": ["packageId", "version", "commands"],
        "properties": {
            "packageId": { "type": "string" },
            "version": { "type": "string" },
            "commands": string_list(),
            "manifest": { "type": "string" }
        }
    });
    let found = json!({
        "type": "object",
        "required": ["packageId", "latestVersion", "verified"],
        "properties": {
            "packageId": { "type": "string" },
            "latestVersion": { "type": "string" },
            "authors": { "type": "string" },
            "downloads": { "type": "integer", "minimum": 0 },
            "verified": { "type": "boolean" },
            "description": { "type": "string" },
            "versions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["version"],
                    "properties": { "version": { "type": "string" }, "downloads": { "type": "integer", "minimum": 0 } }
                }
            }
        }
    });
    let scope = json!({ "enum": ["local", "global", "toolPath"] });
    json!({
        "type": "object",
        "anyOf": [
            success_branch(&["List"], &["scope", "tools"], json!({
                "scope": scope, "packageId": { "type": "string" }, "tools": { "type": "array", "items": installed }
            })),
            success_branch(&["Search"], &["searchTerm", "packages"], json!({
                "searchTerm": { "type": "string" }, "packages": { "type": "array", "items": found }
            })),
            success_branch(&["Install", "Update"], &["packageId", "scope", "lockInfo"], json!({
                "packageId": { "type": "string" }, "scope": scope, "version": { "type": "string" },
                "previousVersion": { "type": "string" }, "manifest": { "type": "string" }, "lockInfo": lock_info_schema()
            })),
            success_branch(&["Uninstall"], &["packageId", "scope", "consent", "lockInfo"], json!({
                "packageId": { "type": "string" }, "scope": scope, "version": { "type": "string" },
                "manifest": { "type": "string" }, "consent": { "enum": ["confirmed", "notAsked"] },
                "lockInfo": lock_info_schema()
            })),
            success_branch(&["Restore"], &["tools", "lockInfo"], json!({
                "tools": { "type": "array", "items": installed }, "lockInfo": lock_info_schema()
            })),
            success_branch(&["CreateManifest"], &["manifest", "lockInfo"], json!({
                "manifest": { "type": "string" }, "lockInfo": lock_info_schema()
            })),
            success_branch(&["Run"], &["toolName", "args"], json!({
                "toolName": { "type": "string" }, "args": string_list()
            })),
            dotnet_support::errors::error_response_schema()
        ]
    })
}

impl Tool for DotnetTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_tool",
            "Manage .NET tools: Install, Update and Uninstall a tool (local manifest by default, `global`, or \
             `toolPath`), List installed tools, Restore a manifest's tools, CreateManifest, Search nuget.org, \
             and Run a local tool with `args`. List and Search return the parsed tables. Uninstall asks the user \
             to confirm when the client supports elicitation.",
        )
        .title(".NET Tool Manager")
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

impl DotnetTool {
    async fn execute(&self, args: &Value, ctx: &CallContext) -> Result<Reply, Failure> {
        let params = Params::new(args);
        let action = params.action(Action::parse)?;
        plan::check_accepted(action, args)?;
        let scope = Scope::read(&params)?;
        let cwd = self.working_directory(&params, ctx, plan::uses_local_manifest(action, &scope)).await?;
        let plan = plan::plan(action, &params, scope, &cwd)?;
        let consent = match &plan.confirm {
            Some(question) => match confirm::confirm(ctx, question).await {
                Confirmation::Refused(reason) => {
                    return Err(
                        confirm::refused(action.name(), plan.subject.as_deref().unwrap_or_default(), &reason).into()
                    );
                }
                answer => Some(answer),
            },
            None => None,
        };
        let guard = match &plan.lock {
            Some(target) => {
                let operation = format!("dotnet_tool {}", action.name());
                let guard = locking::acquire(&self.plugin, target, &operation, self.settings.lock_wait)
                    .await
                    .map_err(|(error, extra)| Failure { error, extra: Some(extra) })?;
                Some(guard)
            }
            None => None,
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

    /// The folder to run in: the one asked for; for a local action, else the client's root that
    /// holds a tool manifest; else the configured or the server's.
    async fn working_directory(&self, params: &Params<'_>, ctx: &CallContext, local: bool) -> Result<PathBuf, Failure> {
        let requested = params.opt("workingDirectory", Kind::Path)?;
        if requested.is_none()
            && local
            && let Some(root) = manifest_root(ctx).await?
        {
            return Ok(root);
        }
        Ok(workspace::working_directory(requested, self.settings.working_directory.as_deref())?)
    }
}

/// The one client root holding a tool manifest at its top (`None` when the client has no roots or
/// none holds one); several are an error that lists them.
async fn manifest_root(ctx: &CallContext) -> Result<Option<PathBuf>, ErrorResponse> {
    let Ok(roots) = ctx.roots().await else { return Ok(None) };
    let mut found: Vec<PathBuf> = roots
        .iter()
        .filter_map(|root| file_uri_path(&root.uri))
        .filter(|folder| plan::manifest_in(folder).is_some())
        .collect();
    match found.len() {
        0 | 1 => Ok(found.pop()),
        _ => Err(ErrorResponse::from(ErrorResult::invalid_params(
            "workingDirectory",
            "ambiguous",
            &format!(
                "Parameter 'workingDirectory' was not given and several of the client's roots hold a tool manifest: {}. \
                 Name one of them.",
                found.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
        ))),
    }
}

fn count(number: usize, noun: &str) -> String {
    if number == 1 { format!("1 {noun}") } else { format!("{number} {noun}s") }
}

/// The structured content every success starts with.
fn base(plan: &Plan, ran: &Ran) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("success".into(), Value::Bool(true));
    map.insert("action".into(), json!(plan.action.name()));
    map.insert("command".into(), json!(redacted_command_line("dotnet", &plan.args)));
    map.insert("exitCode".into(), json!(ran.exit_code()));
    map
}

/// Where the plan's tools are, in prose.
fn scope_words(plan: &Plan) -> String {
    plan.scope.as_ref().map_or_else(|| "in the local tool manifest".to_owned(), Scope::describe)
}

/// The reply of a successful run.
fn reply(plan: &Plan, ran: &Ran, lock_info: Option<Value>, consent: Option<Confirmation>) -> Reply {
    let stdout = &ran.outcome.stdout;
    let subject = plan.subject.clone().unwrap_or_default();
    let mut structured = base(plan, ran);
    if let Some(scope) = &plan.scope {
        structured.insert("scope".into(), json!(scope.name()));
    }
    let reply = match plan.action {
        Action::List => {
            let tools = parse::list(stdout);
            if let Some(id) = &plan.subject {
                structured.insert("packageId".into(), json!(id));
            }
            structured.insert("tools".into(), json!(tools));
            let lines = tools
                .iter()
                .map(|tool| {
                    let manifest = tool.manifest.as_ref().map(|m| format!(", manifest {m}")).unwrap_or_default();
                    format!("{} {} (commands: {}{manifest})", tool.package_id, tool.version, tool.commands.join(", "))
                })
                .collect();
            Reply::new(format!("{} installed {}.", count(tools.len(), "tool"), scope_words(plan)))
                .section("Tools", lines)
        }
        Action::Search => {
            let found = parse::search(stdout);
            structured.insert("searchTerm".into(), json!(subject));
            structured.insert("packages".into(), json!(found));
            let lines = found
                .iter()
                .map(|tool| {
                    let mut line = format!("{} {}", tool.package_id, tool.latest_version);
                    if let Some(authors) = &tool.authors {
                        line.push_str(&format!(" by {authors}"));
                    }
                    if let Some(downloads) = tool.downloads {
                        line.push_str(&format!(", {downloads} downloads"));
                    }
                    if tool.verified {
                        line.push_str(", verified");
                    }
                    if let Some(description) = &tool.description {
                        line.push_str(&format!(": {description}"));
                    }
                    line
                })
                .collect();
            Reply::new(format!("{} found for '{subject}'.", count(found.len(), "tool"))).section("Tools", lines)
        }
        Action::Install | Action::Update | Action::Uninstall => {
            let change = parse::change(stdout);
            structured.insert("packageId".into(), json!(subject));
            for (key, value) in [
                ("version", &change.version),
                ("previousVersion", &change.previous_version),
                ("manifest", &change.manifest),
            ] {
                if let Some(value) = value {
                    structured.insert(key.into(), json!(value));
                }
            }
            if plan.action == Action::Uninstall {
                let consent = if consent == Some(Confirmation::Confirmed) { "confirmed" } else { "notAsked" };
                structured.insert("consent".into(), json!(consent));
            }
            let verb = match plan.action {
                Action::Install => "Installed",
                Action::Update => "Updated",
                _ => "Uninstalled",
            };
            let version = match (&change.previous_version, &change.version) {
                (Some(from), Some(to)) => format!(" from {from} to {to}"),
                (None, Some(version)) => format!(" {version}"),
                _ => String::new(),
            };
            let manifest = change.manifest.as_ref().map(|m| format!(" ({m})")).unwrap_or_default();
            Reply::new(format!("{verb} {subject}{version} {}{manifest}.", scope_words(plan)))
        }
        Action::Restore => {
            let tools = parse::restored(stdout);
            structured.insert("tools".into(), json!(tools));
            let lines = tools
                .iter()
                .map(|tool| format!("{} {} (commands: {})", tool.package_id, tool.version, tool.commands.join(", ")))
                .collect();
            Reply::new(format!("Restored {} from the local tool manifest.", count(tools.len(), "tool")))
                .section("Tools", lines)
        }
        Action::CreateManifest => {
            structured.insert("manifest".into(), json!(subject));
            Reply::new(format!("Created the tool manifest {subject}."))
        }
        Action::Run => {
            let args: Vec<String> = plan.args.iter().skip_while(|arg| *arg != "--").skip(1).cloned().collect();
            structured.insert("toolName".into(), json!(subject));
            structured.insert("args".into(), json!(redact_args(&args)));
            Reply::new(format!("The local tool '{subject}' ran and exited with code 0."))
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

    #[test]
    fn every_parameter_belongs_to_an_action_and_every_action_has_a_shape() {
        let input = input_schema();
        let properties = input["properties"].as_object().unwrap();
        let actions: Vec<Action> = Action::NAMES.iter().map(|name| Action::parse(name).unwrap()).collect();
        for action in &actions {
            assert!(plan::accepted(*action).iter().all(|name| properties.contains_key(*name)), "{action:?}");
        }
        for name in properties.keys().filter(|name| *name != "action" && *name != "workingDirectory") {
            assert!(actions.iter().any(|action| plan::accepted(*action).contains(&name.as_str())), "{name}");
        }
        let output = output_schema();
        let shapes: Vec<&Value> = output["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|branch| branch["properties"]["action"]["enum"].as_array())
            .flatten()
            .collect();
        assert_eq!(shapes.len(), Action::NAMES.len());
    }
}
