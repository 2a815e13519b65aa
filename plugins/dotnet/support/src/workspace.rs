//! Where a command runs and what it targets when the caller did not say:
//! the working directory (validated), and the project or solution found in
//! the client's MCP roots.
//!
//! Roots discovery: the top level of every `file://` root is searched for
//! the kind of file asked for. Exactly one candidate is used; several are an
//! INVALID_PARAMS error that lists them, so the model can pick; none leaves
//! the choice to the dotnet CLI (the current folder).

use std::path::{Path, PathBuf};

use mcp_plugin_api::{CallContext, ClientError};
use url::Url;

use crate::{
    errors::ErrorResponse,
    params::{Reason, invalid},
};

/// What to look for in the roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A project file (`.csproj`, `.fsproj`, `.vbproj`).
    Project,
    /// A solution file (`.sln`, `.slnx`).
    Solution,
    /// A project, or else a solution.
    ProjectOrSolution,
}

const PROJECT_EXTENSIONS: [&str; 3] = ["csproj", "fsproj", "vbproj"];
const SOLUTION_EXTENSIONS: [&str; 2] = ["sln", "slnx"];

/// The folder a command runs in: `requested` (relative to the configured default), else the
/// configured default, else the host's current folder. It must exist.
pub fn working_directory(requested: Option<&str>, configured: Option<&Path>) -> Result<PathBuf, ErrorResponse> {
    let base = match configured {
        Some(dir) => dir.to_owned(),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    let dir = match requested {
        Some(dir) => base.join(dir),
        None => base,
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        let message = format!("Invalid argument 'workingDirectory': the folder '{}' does not exist.", dir.display());
        Err(invalid("workingDirectory", Reason::NotFound, message))
    }
}

/// Files of `target` kind directly inside `dir`, sorted.
pub fn candidates_in(dir: &Path, target: Target) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && is_target(path, target))
        .collect();
    found.sort();
    found
}

/// Whether `path` names a file of `target` kind (by its extension).
pub fn is_target(path: &Path, target: Target) -> bool {
    let extension = path.extension().and_then(|ext| ext.to_str()).unwrap_or_default().to_ascii_lowercase();
    let project = PROJECT_EXTENSIONS.contains(&extension.as_str());
    let solution = SOLUTION_EXTENSIONS.contains(&extension.as_str());
    match target {
        Target::Project => project,
        Target::Solution => solution,
        Target::ProjectOrSolution => project || solution,
    }
}

/// The candidates of `target` kind that could be meant: for a project or solution, a solution
/// and its projects stand for the one solution.
pub fn preferred(found: Vec<PathBuf>, target: Target) -> Vec<PathBuf> {
    if target == Target::ProjectOrSolution && found.len() > 1 {
        let solutions: Vec<PathBuf> = found.iter().filter(|path| is_target(path, Target::Solution)).cloned().collect();
        if solutions.len() == 1 {
            return solutions;
        }
    }
    found
}

/// The one `target` in the client's roots, if the client has roots and exactly one candidate
/// is there. `parameter` names the parameter the caller left out, for the error listing
/// several candidates.
pub async fn discover(ctx: &CallContext, target: Target, parameter: &str) -> Result<Option<PathBuf>, ErrorResponse> {
    let roots = match ctx.roots().await {
        Ok(roots) => roots,
        // No roots capability, or the client failed: fall back to the CLI's own default.
        Err(ClientError::Unsupported(_) | ClientError::Failed(_)) => return Ok(None),
    };
    let folders: Vec<PathBuf> = roots.iter().filter_map(|root| file_uri_path(&root.uri)).collect();
    let mut found = preferred(folders.iter().flat_map(|folder| candidates_in(folder, target)).collect(), target);
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(invalid(
            parameter,
            Reason::Ambiguous,
            format!(
                "Invalid argument '{parameter}': was not given and the client's roots hold several candidates: {}. \
                 Name one of them.",
                found.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// The local path of a `file://` URI, or `None` for another scheme or a URI that names no path
/// on this machine. The `url` crate reads it as the platform does: percent-decoding (to bytes,
/// so a non-UTF-8 name survives on Unix), `file://localhost/`, and on Windows drive letters
/// (`file:///C:/src` is `C:\src`) and UNC shares (`file://server/share` is `\\server\share`).
pub fn file_uri_path(uri: &str) -> Option<PathBuf> {
    Url::parse(uri).ok().filter(|url| url.scheme() == "file").and_then(|url| url.to_file_path().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_plugin_api::testkit::TestCall;
    use serde_json::json;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(file_uri_path("https://example.com"), None);
        assert_eq!(file_uri_path("not a uri"), None);
    }

    #[cfg(unix)]
    #[test]
    fn unix_file_uris() {
        use std::os::unix::ffi::OsStrExt;
        assert_eq!(file_uri_path("file:///work/My%20App"), Some(PathBuf::from("/work/My App")));
        assert_eq!(file_uri_path("file://localhost/x"), Some(PathBuf::from("/x")));
        assert_eq!(file_uri_path("FILE:///x"), Some(PathBuf::from("/x")));
        assert_eq!(file_uri_path("file:///caf%C3%A9/%23tag"), Some(PathBuf::from("/café/#tag")));
        // Percent-decoding gives bytes: a name that is not UTF-8 still has its path.
        let latin1 = file_uri_path("file:///caf%E9").unwrap();
        assert_eq!(latin1.as_os_str().as_bytes(), b"/caf\xe9");
        // A share on another machine is no local path here.
        assert_eq!(file_uri_path("file://server/share/src"), None);
    }

    #[cfg(windows)]
    #[test]
    fn windows_file_uris() {
        assert_eq!(file_uri_path("file:///C:/src/My%20App"), Some(PathBuf::from(r"C:\src\My App")));
        assert_eq!(file_uri_path("file:///c%3A/src"), Some(PathBuf::from(r"c:\src")));
        assert_eq!(file_uri_path("file://server/share/src"), Some(PathBuf::from(r"\\server\share\src")));
    }

    fn with_roots(dirs: &[&Path]) -> TestCall {
        let roots: Vec<_> = dirs.iter().map(|dir| json!({ "uri": format!("file://{}", dir.display()) })).collect();
        TestCall::new().with_client(move |method, _| {
            assert_eq!(method, "roots/list");
            Ok(json!({ "roots": roots }))
        })
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
    }

    #[test]
    fn one_candidate_is_used_several_are_listed_none_falls_back() {
        let one = tempfile::tempdir().unwrap();
        std::fs::write(one.path().join("App.csproj"), "<Project/>").unwrap();
        std::fs::write(one.path().join("README.md"), "").unwrap();
        let call = with_roots(&[one.path()]);
        let found = block_on(discover(&call.context(), Target::Project, "project")).unwrap();
        assert_eq!(found, Some(one.path().join("App.csproj")));

        let two = tempfile::tempdir().unwrap();
        std::fs::write(two.path().join("Lib.csproj"), "<Project/>").unwrap();
        let call = with_roots(&[one.path(), two.path()]);
        let error = &block_on(discover(&call.context(), Target::Project, "project")).unwrap_err().errors[0];
        assert!(error.message.contains("App.csproj") && error.message.contains("Lib.csproj"), "{}", error.message);

        let call = with_roots(&[one.path()]);
        assert_eq!(block_on(discover(&call.context(), Target::Solution, "solution")).unwrap(), None);
        assert_eq!(block_on(discover(&TestCall::new().context(), Target::Project, "project")).unwrap(), None);
    }

    #[test]
    fn a_solution_beside_its_projects_is_the_target() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("App.csproj"), "").unwrap();
        std::fs::write(dir.path().join("App.slnx"), "").unwrap();
        let call = with_roots(&[dir.path()]);
        let found = block_on(discover(&call.context(), Target::ProjectOrSolution, "project")).unwrap();
        assert_eq!(found, Some(dir.path().join("App.slnx")));
    }

    #[test]
    fn a_missing_working_directory_is_named() {
        let error = &working_directory(Some("nope"), Some(Path::new("/tmp"))).unwrap_err().errors[0];
        assert!(error.message.contains("/tmp/nope"), "{}", error.message);
    }
}
