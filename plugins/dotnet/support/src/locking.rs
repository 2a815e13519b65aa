//! Which lock an operation takes, and what a refusal looks like.
//!
//! Keys are canonical so that the same target is one key whichever way it
//! was named: an existing path is resolved (symlinks, `..`), a missing one
//! is made absolute lexically. A folder that holds exactly one project or
//! solution locks as that file, so `build` on `src/App` and `package add`
//! on `src/App/App.csproj` conflict. Machine-wide operations (workloads,
//! global tools, template packs) lock `global`.

use std::path::{Component, Path, PathBuf};

use mcp_plugin_api::{
    PluginContext,
    locks::{LockError, LockGuard, LockInfo, LockRequest, LockScope},
};
use serde_json::{Value, json};

use crate::{
    errors::{ErrorResponse, ErrorResult},
    workspace::{Target, candidates_in},
};

/// What an operation locks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockTarget {
    /// What the key names.
    pub scope: LockScope,
    /// The canonical key.
    pub key: String,
}

impl LockTarget {
    /// The machine-wide target.
    pub fn global() -> Self {
        Self { scope: LockScope::Global, key: "global".to_owned() }
    }

    /// The target of an operation on `path` (a project, a solution or a folder), relative to
    /// `cwd`; with no path, the working directory (or the one project or solution in it).
    pub fn for_path(path: Option<&Path>, cwd: &Path) -> Self {
        let path = canonical(&path.map_or_else(|| cwd.to_owned(), |path| cwd.join(path)));
        let file = if path.is_dir() {
            match candidates_in(&path, Target::ProjectOrSolution).as_slice() {
                [only] => Some(canonical(only)),
                _ => None,
            }
        } else {
            Some(path.clone())
        };
        match file {
            Some(file) => {
                let extension = file.extension().and_then(|ext| ext.to_str()).unwrap_or_default().to_ascii_lowercase();
                let scope = if extension.starts_with("sln") { LockScope::Solution } else { LockScope::Project };
                Self { scope, key: file.display().to_string() }
            }
            None => Self { scope: LockScope::WorkingDirectory, key: path.display().to_string() },
        }
    }
}

/// An absolute, normalized form of `path`: resolved on disk when it exists, lexically otherwise.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(resolved) = path.canonicalize() {
        return resolved;
    }
    let absolute = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")).join(path)
    };
    let mut normal = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    normal
}

/// Takes the lock on `target` for `operation`, waiting up to `wait`. A refusal is a
/// CONCURRENCY_CONFLICT envelope plus the `lockInfo` to merge into the structured content.
pub async fn acquire(
    ctx: &PluginContext,
    target: &LockTarget,
    operation: &str,
    wait: std::time::Duration,
) -> Result<LockGuard, (ErrorResponse, Value)> {
    let request = LockRequest { scope: target.scope, key: target.key.clone(), operation: operation.to_owned(), wait };
    match ctx.lock(&request).await {
        Ok(guard) => Ok(guard),
        Err(LockError::Contended(info)) => {
            let holder = info
                .holder
                .as_ref()
                .map(|holder| format!("'{}' (plugin {}, since {})", holder.operation, holder.plugin, holder.since))
                .unwrap_or_else(|| "another operation".to_owned());
            let error = ErrorResult::concurrency_conflict(operation, &target.key, &holder);
            Err((ErrorResponse::from(error), json!({ "lockInfo": lock_info_json(&info) })))
        }
        Err(LockError::Unsupported) => {
            let error = ErrorResult::capability_not_available(
                "locks",
                "this host does not offer the lock service the dotnet plugins need",
                vec!["Upgrade mcp-plugin-host.".to_owned()],
            );
            Err((ErrorResponse::from(error), Value::Null))
        }
    }
}

/// `lockInfo` as the contract spells it.
pub fn lock_info_json(info: &LockInfo) -> Value {
    serde_json::to_value(info).unwrap_or(Value::Null)
}

/// The JSON Schema of `lockInfo`.
pub fn lock_info_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "lockScope": { "enum": ["project", "solution", "workingDirectory", "global"] },
            "lockKey": { "type": "string" },
            "lockContended": { "type": "boolean" },
            "lockWaitedMs": { "type": "integer", "minimum": 0 },
            "holder": { "type": "object" }
        },
        "required": ["lockScope", "lockKey"]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_plugin_api::testkit::TestPluginContext;
    use std::time::Duration;

    #[test]
    fn the_same_target_named_three_ways_is_one_key() {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("src/App");
        std::fs::create_dir_all(&app).unwrap();
        std::fs::write(app.join("App.csproj"), "<Project/>").unwrap();
        let by_file = LockTarget::for_path(Some(Path::new("src/App/App.csproj")), dir.path());
        let by_folder = LockTarget::for_path(Some(Path::new("src/./App")), dir.path());
        let by_cwd = LockTarget::for_path(None, &app);
        assert_eq!(by_file, by_folder);
        assert_eq!(by_file, by_cwd);
        assert_eq!(by_file.scope, LockScope::Project);
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(LockTarget::for_path(None, empty.path()).scope, LockScope::WorkingDirectory);
        assert_eq!(LockTarget::for_path(Some(Path::new("x/../App.sln")), dir.path()).scope, LockScope::Solution);
    }

    #[test]
    fn a_held_target_is_a_concurrency_conflict_with_lock_info() {
        let plugin = TestPluginContext::new(json!({}), Default::default());
        let target = LockTarget::global();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let _held = acquire(plugin.context(), &target, "install", Duration::ZERO).await.unwrap();
            let (error, extra) = acquire(plugin.context(), &target, "update", Duration::ZERO).await.unwrap_err();
            assert_eq!(error.errors[0].code, "CONCURRENCY_CONFLICT");
            assert_eq!(extra["lockInfo"]["lockKey"], "global");
            assert_eq!(extra["lockInfo"]["lockContended"], true);
        });
    }
}
