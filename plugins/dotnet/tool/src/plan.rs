//! From a call's arguments to what will run: every value checked, the argument vector, the lock,
//! the confirmation to ask for and the progress to read. Nothing here runs a process.

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::ProgressKind,
    locking::{LockTarget, canonical},
    params::{Kind, Params},
};
use mcp_plugin_api::locks::LockScope;

dotnet_support::actions! {
    /// The actions of `dotnet_tool`.
    pub enum Action { Install, List, Update, Uninstall, Restore, CreateManifest, Search, Run }
}

/// The parameters each action accepts besides `action` and `workingDirectory`.
pub fn accepted(action: Action) -> &'static [&'static str] {
    match action {
        Action::Install | Action::Update => &[
            "packageId",
            "global",
            "toolPath",
            "manifest",
            "version",
            "framework",
            "prerelease",
            "allowDowngrade",
            "source",
            "configFile",
        ],
        Action::Uninstall => &["packageId", "global", "toolPath", "manifest"],
        Action::List => &["packageId", "global", "toolPath"],
        Action::Restore => &["manifest", "source", "configFile"],
        Action::CreateManifest => &["output", "force"],
        Action::Search => &["searchTerm", "detail", "take", "skip", "prerelease"],
        Action::Run => &["toolName", "args"],
    }
}

fn invalid(parameter: &str, reason: &str, message: String) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, &message))
}

/// Refuses a parameter the action does not use, naming the ones it does: a value that would be
/// silently dropped is a mistake the model should hear about.
pub fn check_accepted(action: Action, args: &serde_json::Value) -> Result<(), ErrorResponse> {
    let accepted = accepted(action);
    let Some(object) = args.as_object() else { return Ok(()) };
    for (name, value) in object {
        if value.is_null() || name == "action" || name == "workingDirectory" || accepted.contains(&name.as_str()) {
            continue;
        }
        return Err(invalid(
            name,
            "not applicable",
            format!(
                "Parameter '{name}' does not apply to action '{}'. It accepts: {}.",
                action.name(),
                if accepted.is_empty() { "no other parameters".to_owned() } else { accepted.join(", ") }
            ),
        ));
    }
    Ok(())
}

/// Where a tool is installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// For the user, on the PATH (`--global`).
    Global,
    /// In a folder (`--tool-path`).
    ToolPath(String),
    /// In a local manifest: the one named (`--tool-manifest`), else the one the CLI finds from
    /// the working directory up.
    Local(Option<String>),
}

impl Scope {
    /// Reads `global`, `toolPath` and `manifest`; at most one of them.
    pub fn read(params: &Params) -> Result<Self, ErrorResponse> {
        let global = params.flag("global");
        let tool_path = params.opt("toolPath", Kind::Path)?;
        let manifest = params.opt("manifest", Kind::Path)?;
        let given: Vec<&str> =
            [("global", global), ("toolPath", tool_path.is_some()), ("manifest", manifest.is_some())]
                .into_iter()
                .filter_map(|(name, set)| set.then_some(name))
                .collect();
        if given.len() > 1 {
            return Err(invalid(
                given[1],
                "conflicting",
                format!("Parameters {} choose different places for a tool; give at most one.", given.join(" and ")),
            ));
        }
        Ok(match (global, tool_path, manifest) {
            (true, _, _) => Scope::Global,
            (_, Some(path), _) => Scope::ToolPath(path.to_owned()),
            (_, _, manifest) => Scope::Local(manifest.map(str::to_owned)),
        })
    }

    /// The name of the scope in results: `global`, `toolPath` or `local`.
    pub fn name(&self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::ToolPath(_) => "toolPath",
            Scope::Local(_) => "local",
        }
    }

    /// The scope's options for install, update and uninstall.
    fn args(&self) -> Vec<String> {
        match self {
            Scope::Global => vec!["--global".into()],
            Scope::ToolPath(path) => vec!["--tool-path".into(), path.clone()],
            Scope::Local(Some(manifest)) => vec!["--tool-manifest".into(), manifest.clone()],
            Scope::Local(None) => Vec::new(),
        }
    }

    /// What an operation in this scope locks: the machine for global tools, the folder for a
    /// tool path, the manifest's folder for local tools.
    pub fn lock(&self, cwd: &Path) -> LockTarget {
        match self {
            Scope::Global => LockTarget::global(),
            Scope::ToolPath(path) => folder_lock(&cwd.join(path)),
            Scope::Local(Some(manifest)) => {
                let manifest = cwd.join(manifest);
                folder_lock(manifest.parent().unwrap_or(cwd))
            }
            Scope::Local(None) => {
                let manifest = find_manifest(cwd);
                folder_lock(manifest.as_deref().and_then(Path::parent).unwrap_or(&cwd.join(".config")))
            }
        }
    }

    /// How the scope reads in prose.
    pub fn describe(&self) -> String {
        match self {
            Scope::Global => "globally".to_owned(),
            Scope::ToolPath(path) => format!("in the tool path '{path}'"),
            Scope::Local(Some(manifest)) => format!("in the local manifest '{manifest}'"),
            Scope::Local(None) => "in the local tool manifest".to_owned(),
        }
    }
}

fn folder_lock(folder: &Path) -> LockTarget {
    LockTarget { scope: LockScope::WorkingDirectory, key: canonical(folder).display().to_string() }
}

/// The manifest the CLI would use from `dir`: `.config/dotnet-tools.json` or `dotnet-tools.json`
/// in `dir` or the nearest folder above it that has one.
pub fn find_manifest(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find_map(manifest_in)
}

/// The manifest directly in `dir` (in its `.config` folder, or at its top).
pub fn manifest_in(dir: &Path) -> Option<PathBuf> {
    [dir.join(".config").join("dotnet-tools.json"), dir.join("dotnet-tools.json")]
        .into_iter()
        .find(|path| path.is_file())
}

/// Whether the action works on a local manifest found from the working directory, so that the
/// client's roots may say where that is.
pub fn uses_local_manifest(action: Action, scope: &Scope) -> bool {
    match action {
        Action::Install | Action::Update | Action::Uninstall | Action::List | Action::Restore => {
            *scope == Scope::Local(None)
        }
        Action::Run => true,
        Action::CreateManifest | Action::Search => false,
    }
}

/// Everything decided about a call before it runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The action.
    pub action: Action,
    /// The arguments after `dotnet`.
    pub args: Vec<String>,
    /// Where the tool goes, for the actions that have a scope.
    pub scope: Option<Scope>,
    /// The package, tool command or search term the action is about.
    pub subject: Option<String>,
    /// The lock to take, for the actions that change something.
    pub lock: Option<LockTarget>,
    /// The question to ask the user first, for destructive actions.
    pub confirm: Option<String>,
    /// What the output says about progress.
    pub progress: ProgressKind,
    /// One line about what runs, for the first progress message.
    pub description: String,
}

/// Characters a `Run` argument may hold besides letters and digits: enough for words, paths,
/// versions, globs-free patterns and `key=value`, nothing a shell or a response file would read.
const RUN_ARG_PUNCTUATION: &str = " _.,:=/\\+@%~-";
/// Most arguments `Run` passes to a tool.
const MAX_RUN_ARGS: usize = 64;
/// Longest single `Run` argument.
const MAX_RUN_ARG_CHARS: usize = 1024;

/// Checks one argument for the tool that `Run` starts. Each becomes one argv entry after `--`, so
/// none can reach dotnet itself; these rules keep them plain for the tool too: only letters,
/// digits and [`RUN_ARG_PUNCTUATION`]; no `@file` response files; an option is one well-formed
/// token (`-v`, `--check`, `--format=json`), never several glued together.
pub fn check_run_arg(index: usize, arg: &str) -> Result<(), ErrorResponse> {
    let name = format!("args[{index}]");
    let fail = |reason: &str, message: String| Err(invalid(&name, reason, message));
    if arg.is_empty() || arg.chars().count() > MAX_RUN_ARG_CHARS {
        return fail("invalid value", format!("Parameter '{name}' must be 1 to {MAX_RUN_ARG_CHARS} characters long."));
    }
    if let Some(bad) = arg.chars().find(|c| !c.is_ascii_alphanumeric() && !RUN_ARG_PUNCTUATION.contains(*c)) {
        return fail(
            "invalid characters",
            format!(
                "Parameter '{name}' contains {bad:?}; tool arguments may hold letters, digits and \"{RUN_ARG_PUNCTUATION}\" only."
            ),
        );
    }
    if arg == "-" {
        // The usual name of standard input.
        return Ok(());
    }
    if arg.starts_with('@') {
        return fail(
            "invalid value",
            format!("Parameter '{name}' starts with '@', which tools read as a response file of more arguments."),
        );
    }
    if let Some(option) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) {
        let option_name = option.split(['=', ':']).next().unwrap_or_default();
        let well_formed = option_name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && option_name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !option.contains(' ');
        if !well_formed {
            return fail(
                "invalid value",
                format!(
                    "Parameter '{name}' ('{arg}') is not one well-formed option such as -v, --check or --format=json."
                ),
            );
        }
    }
    Ok(())
}

/// The `args` of `Run`, checked.
fn run_args(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let Some(value) = params.raw("args") else { return Ok(Vec::new()) };
    let Some(items) = value.as_array() else {
        return Err(invalid("args", "invalid type", "Parameter 'args' must be an array of strings.".to_owned()));
    };
    if items.len() > MAX_RUN_ARGS {
        return Err(invalid("args", "too many", format!("Parameter 'args' holds more than {MAX_RUN_ARGS} arguments.")));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let arg = item.as_str().ok_or_else(|| {
                invalid(
                    &format!("args[{index}]"),
                    "invalid type",
                    format!("Parameter 'args[{index}]' must be a string."),
                )
            })?;
            check_run_arg(index, arg).map(|()| arg.to_owned())
        })
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// Appends `flag value` when the parameter is set.
fn push_value(args: &mut Vec<String>, flag: &str, value: Option<&str>) {
    if let Some(value) = value {
        args.push(flag.to_owned());
        args.push(value.to_owned());
    }
}

/// Plans `action` in `cwd` with `scope` (already read by [`Scope::read`]).
pub fn plan(action: Action, params: &Params, scope: Scope, cwd: &Path) -> Result<Plan, ErrorResponse> {
    let mut plan = Plan {
        action,
        args: Vec::new(),
        scope: None,
        subject: None,
        lock: None,
        confirm: None,
        progress: ProgressKind::None,
        description: String::new(),
    };
    match action {
        Action::Install | Action::Update => {
            let id = params.req("packageId", Kind::PackageId)?;
            let verb = if action == Action::Install { "install" } else { "update" };
            plan.args = strings(&["tool", verb, id]);
            plan.args.extend(scope.args());
            push_value(&mut plan.args, "--version", params.opt("version", Kind::Version)?);
            push_value(&mut plan.args, "--framework", params.opt("framework", Kind::Framework)?);
            if params.flag("prerelease") {
                plan.args.push("--prerelease".into());
            }
            if params.flag("allowDowngrade") {
                plan.args.push("--allow-downgrade".into());
            }
            push_value(&mut plan.args, "--add-source", params.opt("source", Kind::Text)?);
            push_value(&mut plan.args, "--configfile", params.opt("configFile", Kind::Path)?);
            plan.description = format!("{verb}ing the tool {id} {}", scope.describe());
            plan.lock = Some(scope.lock(cwd));
            plan.progress = ProgressKind::Lines;
            plan.subject = Some(id.to_owned());
            plan.scope = Some(scope);
        }
        Action::Uninstall => {
            let id = params.req("packageId", Kind::PackageId)?;
            plan.args = strings(&["tool", "uninstall", id]);
            plan.args.extend(scope.args());
            plan.confirm = Some(format!(
                "Uninstall the .NET tool '{id}' {}? Its commands will no longer be available{}.",
                scope.describe(),
                if matches!(scope, Scope::Local(_)) { " and its entry leaves the manifest" } else { "" }
            ));
            plan.description = format!("uninstalling the tool {id} {}", scope.describe());
            plan.lock = Some(scope.lock(cwd));
            plan.progress = ProgressKind::Lines;
            plan.subject = Some(id.to_owned());
            plan.scope = Some(scope);
        }
        Action::List => {
            plan.args = strings(&["tool", "list"]);
            if let Some(id) = params.opt("packageId", Kind::PackageId)? {
                plan.args.push(id.to_owned());
                plan.subject = Some(id.to_owned());
            }
            plan.args.extend(scope.args());
            plan.description = format!("listing the tools installed {}", scope.describe());
            plan.scope = Some(scope);
        }
        Action::Restore => {
            plan.args = strings(&["tool", "restore"]);
            plan.args.extend(scope.args());
            push_value(&mut plan.args, "--add-source", params.opt("source", Kind::Text)?);
            push_value(&mut plan.args, "--configfile", params.opt("configFile", Kind::Path)?);
            plan.description = format!("restoring the tools {}", scope.describe());
            plan.lock = Some(scope.lock(cwd));
            plan.progress = ProgressKind::Lines;
            plan.scope = Some(scope);
        }
        Action::CreateManifest => {
            let output = params.opt("output", Kind::Path)?;
            plan.args = strings(&["new", "tool-manifest"]);
            push_value(&mut plan.args, "-o", output);
            if params.flag("force") {
                plan.args.push("--force".into());
            }
            let folder = output.map_or_else(|| cwd.to_owned(), |output| cwd.join(output));
            plan.subject = Some(folder.join(".config").join("dotnet-tools.json").display().to_string());
            plan.lock = Some(folder_lock(&folder.join(".config")));
            plan.description = format!("creating a tool manifest in {}", folder.display());
        }
        Action::Search => {
            let term = params.req("searchTerm", Kind::Text)?;
            plan.args = strings(&["tool", "search", term]);
            if params.flag("detail") {
                plan.args.push("--detail".into());
            }
            for name in ["take", "skip"] {
                if let Some(count) = params.opt_u64(name) {
                    plan.args.push(format!("--{name}"));
                    plan.args.push(count.to_string());
                }
            }
            if params.flag("prerelease") {
                plan.args.push("--prerelease".into());
            }
            plan.subject = Some(term.to_owned());
            plan.description = format!("searching nuget.org for tools matching '{term}'");
        }
        Action::Run => {
            let command = params.req("toolName", Kind::Identifier)?;
            let args = run_args(params)?;
            plan.args = strings(&["tool", "run", command]);
            if !args.is_empty() {
                plan.args.push("--".into());
                plan.args.extend(args);
            }
            plan.subject = Some(command.to_owned());
            plan.description = format!("running the local tool {command}");
        }
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn planned(args: serde_json::Value, cwd: &Path) -> Result<Plan, ErrorResponse> {
        let params = Params::new(&args);
        let action = params.action(Action::parse)?;
        check_accepted(action, &args)?;
        plan(action, &params, Scope::read(&params)?, cwd)
    }

    fn reason(error: &ErrorResponse) -> (String, String) {
        let data = error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap();
        (data["parameter"].clone(), data["reason"].clone())
    }

    #[test]
    fn scopes_are_exclusive_and_parameters_must_apply() {
        let cwd = Path::new("/tmp");
        let error = planned(json!({ "action": "Install", "packageId": "x", "global": true, "toolPath": "t" }), cwd)
            .unwrap_err();
        assert_eq!(reason(&error), ("toolPath".into(), "conflicting".into()));
        let error = planned(json!({ "action": "List", "detail": true }), cwd).unwrap_err();
        assert_eq!(reason(&error), ("detail".into(), "not applicable".into()));
        assert!(error.errors[0].message.contains("packageId, global, toolPath"), "{}", error.errors[0].message);
        let error = planned(json!({ "action": "Install", "packageId": "--add-source=evil" }), cwd).unwrap_err();
        assert_eq!(reason(&error).0, "packageId");
    }

    #[test]
    fn locks_follow_the_scope() {
        let dir = tempfile::tempdir().unwrap();
        let root = canonical(dir.path());
        std::fs::create_dir_all(root.join("repo/.config")).unwrap();
        std::fs::write(root.join("repo/.config/dotnet-tools.json"), "{}").unwrap();
        std::fs::create_dir_all(root.join("repo/src/App")).unwrap();
        let local = planned(json!({ "action": "Install", "packageId": "x" }), &root.join("repo/src/App")).unwrap();
        assert_eq!(local.lock.unwrap().key, root.join("repo/.config").display().to_string());
        let fresh = planned(json!({ "action": "Restore" }), &root).unwrap();
        assert_eq!(fresh.lock.unwrap().key, root.join(".config").display().to_string());
        let global = planned(json!({ "action": "Update", "packageId": "x", "global": true }), &root).unwrap();
        assert_eq!(global.lock, Some(LockTarget::global()));
        let path = planned(json!({ "action": "Uninstall", "packageId": "x", "toolPath": "tools" }), &root).unwrap();
        assert_eq!(path.lock.unwrap().key, root.join("tools").display().to_string());
        assert!(path.confirm.unwrap().contains("'x' in the tool path 'tools'"));
        assert!(planned(json!({ "action": "List" }), &root).unwrap().lock.is_none());
    }

    #[test]
    fn run_arguments_are_plain_tokens() {
        for good in ["--check", ".", "-v", "--format=json", "src/My App", "a,b", "x@1.0", "C:\\dir", "-"] {
            check_run_arg(0, good).unwrap_or_else(|error| panic!("{good}: {}", error.errors[0].message));
        }
        for bad in ["", "@extra.rsp", "a;b", "$(id)", "`id`", "a|b", "x\ny", "---x", "--a --b", "-=x", "\"q\""] {
            assert!(check_run_arg(2, bad).is_err(), "{bad:?} was accepted");
        }
        let error = check_run_arg(2, "@extra.rsp").unwrap_err();
        assert_eq!(reason(&error).0, "args[2]");
    }
}
