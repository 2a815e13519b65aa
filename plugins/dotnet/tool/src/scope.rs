//! Where a tool lives ([`Scope`]): the user's global tools, a tool path, or a local manifest;
//! what an operation in each locks; and which folder a local action runs in.

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::ErrorResponse,
    kit::{Call, Reason, invalid},
    locking::{LockTarget, canonical},
    params::{Kind, Params},
    respond::Failure,
    workspace::file_uri_path,
};
use mcp_plugin_api::locks::LockScope;
use schemars::JsonSchema;
use serde::Serialize;

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

// Which place a [`Scope`] is, as results name it.
// Its variants carry no doc comments: those would make its schema a `oneOf` with a description per
// variant instead of a string enum (and a type's doc comment is its description in the schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ScopeKind {
    Local,
    Global,
    ToolPath,
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
            let message =
                format!("Parameters {} choose different places for a tool; give at most one.", given.join(" and "));
            return Err(invalid(given[1], Reason::Conflict, message));
        }
        Ok(match (global, tool_path, manifest) {
            (true, _, _) => Scope::Global,
            (_, Some(path), _) => Scope::ToolPath(path.to_owned()),
            (_, _, manifest) => Scope::Local(manifest.map(str::to_owned)),
        })
    }

    /// Which of the three places it is, as results name it.
    pub fn kind(&self) -> ScopeKind {
        match self {
            Scope::Global => ScopeKind::Global,
            Scope::ToolPath(_) => ScopeKind::ToolPath,
            Scope::Local(_) => ScopeKind::Local,
        }
    }

    /// The scope's options for install, update, uninstall, list and restore.
    pub fn args(&self) -> Vec<String> {
        match self {
            Scope::Global => vec!["--global".into()],
            Scope::ToolPath(path) => vec!["--tool-path".into(), path.clone()],
            Scope::Local(Some(manifest)) => vec!["--tool-manifest".into(), manifest.clone()],
            Scope::Local(None) => Vec::new(),
        }
    }

    /// What an operation in this scope locks: the machine for global tools, the folder for a
    /// tool path, the manifest's home folder ([`manifest_home`]) for local tools (the working
    /// folder when there is no manifest yet: an install creates one there).
    pub fn lock(&self, cwd: &Path) -> LockTarget {
        match self {
            Scope::Global => LockTarget::global(),
            Scope::ToolPath(path) => folder_lock(&cwd.join(path)),
            Scope::Local(Some(manifest)) => folder_lock(manifest_home(&cwd.join(manifest)).unwrap_or(cwd)),
            Scope::Local(None) => {
                let manifest = find_manifest(cwd);
                folder_lock(manifest.as_deref().and_then(manifest_home).unwrap_or(cwd))
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

/// The lock on a folder's tools or manifest.
pub fn folder_lock(folder: &Path) -> LockTarget {
    LockTarget { scope: LockScope::WorkingDirectory, key: canonical(folder).display().to_string() }
}

/// The manifest the CLI would use from `dir`: `.config/dotnet-tools.json` or `dotnet-tools.json`
/// in `dir` or the nearest folder above it that has one.
pub fn find_manifest(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find_map(manifest_in)
}

/// Where a local tool manifest of `dir` can be, in the order the CLI looks:
/// `.config/dotnet-tools.json`, then `dotnet-tools.json` (where SDK 10's `dotnet new
/// tool-manifest` writes it; earlier SDKs wrote the first).
pub fn manifest_places(dir: &Path) -> [PathBuf; 2] {
    [dir.join(".config").join("dotnet-tools.json"), dir.join("dotnet-tools.json")]
}

/// The manifest directly in `dir` (in its `.config` folder, or at its top).
pub fn manifest_in(dir: &Path) -> Option<PathBuf> {
    manifest_places(dir).into_iter().find(|path| path.is_file())
}

/// The folder a manifest belongs to: the one holding it, or holding its `.config` folder. Both
/// places of one folder's manifest lock the same key, whichever the SDK wrote.
pub fn manifest_home(manifest: &Path) -> Option<&Path> {
    let parent = manifest.parent()?;
    match parent.file_name() {
        Some(name) if name == ".config" => parent.parent(),
        _ => Some(parent),
    }
}

/// The folder an action runs in: the `workingDirectory` asked for; for an action on the local
/// manifest the CLI finds (`local`), else the client's root that holds a tool manifest; else the
/// configured one or the server's.
pub async fn folder(call: &Call<'_>, local: bool) -> Result<PathBuf, Failure> {
    if call.params().opt("workingDirectory", Kind::Path)?.is_none()
        && local
        && let Some(root) = manifest_root(call).await?
    {
        return Ok(root);
    }
    Ok(call.cwd().to_owned())
}

/// The one client root holding a tool manifest at its top (`None` when the client has no roots or
/// none holds one); several are an error that lists them.
async fn manifest_root(call: &Call<'_>) -> Result<Option<PathBuf>, ErrorResponse> {
    let Ok(roots) = call.ctx().roots().await else { return Ok(None) };
    let mut found: Vec<PathBuf> = roots
        .iter()
        .filter_map(|root| file_uri_path(&root.uri))
        .filter(|folder| manifest_in(folder).is_some())
        .collect();
    match found.len() {
        0 | 1 => Ok(found.pop()),
        _ => Err(invalid(
            "workingDirectory",
            Reason::Ambiguous,
            format!(
                "Invalid argument 'workingDirectory': was not given and several of the client's roots hold a tool manifest: {}. \
                 Name one of them.",
                found.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reason(error: &ErrorResponse) -> (String, String) {
        let data = error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap();
        (data["parameter"].clone(), data["reason"].clone())
    }

    #[test]
    fn scopes_are_exclusive() {
        let args = json!({ "global": true, "toolPath": "t" });
        assert_eq!(reason(&Scope::read(&Params::new(&args)).unwrap_err()), ("toolPath".into(), "conflict".into()));
        let args = json!({ "manifest": "--evil" });
        assert_eq!(reason(&Scope::read(&Params::new(&args)).unwrap_err()).0, "manifest");
        assert_eq!(Scope::read(&Params::new(&json!({ "global": false }))).unwrap(), Scope::Local(None));
    }

    #[test]
    fn locks_follow_the_scope() {
        let dir = tempfile::tempdir().unwrap();
        let root = canonical(dir.path());
        std::fs::create_dir_all(root.join("repo/.config")).unwrap();
        std::fs::write(root.join("repo/.config/dotnet-tools.json"), "{}").unwrap();
        std::fs::create_dir_all(root.join("repo/src/App")).unwrap();
        let local = Scope::Local(None).lock(&root.join("repo/src/App"));
        assert_eq!(local.key, root.join("repo").display().to_string(), "the folder the manifest belongs to");
        std::fs::write(root.join("repo/dotnet-tools.json"), "{}").unwrap();
        let top = Scope::Local(Some("dotnet-tools.json".into())).lock(&root.join("repo"));
        assert_eq!(top.key, local.key, "SDK 10's place of the manifest locks the same folder");
        assert_eq!(Scope::Local(None).lock(&root).key, root.display().to_string(), "no manifest: the folder");
        assert_eq!(Scope::Global.lock(&root), LockTarget::global());
        assert_eq!(Scope::ToolPath("tools".into()).lock(&root).key, root.join("tools").display().to_string());
    }
}
