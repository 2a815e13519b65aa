//! What an action works on when it takes a project or a solution, resolved one way for every
//! family ([`TargetParam`], through [`Call::cli_target`] and [`Call::target_file`]):
//!
//! 1. the parameter as given (`project`, or a deprecated alias such as `projectPath`; two
//!    different values are a conflict), checked as a project path ([`Kind::ProjectPath`]; a
//!    `solution` parameter takes only `.sln`, `.slnx` or a folder);
//! 2. else the one candidate at the top of the client's roots ([`workspace::discover`]: several
//!    are refused as ambiguous, listing them);
//! 3. else the dotnet CLI's own default, the working directory.
//!
//! A dotnet command takes the target as given ([`Call::cli_target`]); an action that reads or
//! edits the file itself needs the file ([`Call::target_file`]): a folder stands for the one
//! project or solution in it.

use std::path::{Path, PathBuf};

use super::Call;
use crate::{
    errors::ErrorResponse,
    params::{Kind, Reason, invalid},
    workspace::{self, Target},
};

/// The parameter that names an action's target, and what to look for without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetParam {
    parameter: &'static str,
    alias: Option<&'static str>,
    kind: Target,
}

impl TargetParam {
    /// `project`: a project file (a dotnet command also takes a solution or a folder there);
    /// without it, the one project in the roots.
    pub const fn project() -> Self {
        Self { parameter: "project", alias: None, kind: Target::Project }
    }

    /// `solution`: a `.sln` or `.slnx` file, or a folder; without it, the one solution in the roots.
    pub const fn solution() -> Self {
        Self { parameter: "solution", alias: None, kind: Target::Solution }
    }

    /// Without the parameter, looks for a project or else a solution (a folder holding a solution
    /// and its projects stands for the solution).
    pub const fn or_solution(mut self) -> Self {
        self.kind = Target::ProjectOrSolution;
        self
    }

    /// A deprecated name of the parameter that is still read (`projectPath`).
    pub const fn alias(mut self, alias: &'static str) -> Self {
        self.alias = Some(alias);
        self
    }

    /// The parameter's name.
    pub fn parameter(&self) -> &'static str {
        self.parameter
    }

    /// What the files it looks for are called in messages.
    fn described(&self) -> &'static str {
        match self.kind {
            Target::Project => "project file (.csproj, .fsproj, .vbproj)",
            Target::Solution => "solution file (.sln, .slnx)",
            Target::ProjectOrSolution => "project or solution file",
        }
    }
}

impl<'a> Call<'a> {
    /// The target as the caller gave it (the parameter, or its alias), checked; `None` when not
    /// given.
    pub fn target_given(&self, target: TargetParam) -> Result<Option<&'a str>, ErrorResponse> {
        let name = target.parameter;
        let given = self.params.opt(name, Kind::ProjectPath)?;
        let alias = match target.alias {
            Some(alias) => self.params.opt(alias, Kind::ProjectPath)?.map(|value| (alias, value)),
            None => None,
        };
        let given = match (given, alias) {
            (Some(value), Some((alias, other))) if value != other => {
                let message = format!("Parameters '{name}' and '{alias}' name different targets; give only '{name}'.");
                return Err(invalid(alias, Reason::Conflict, message));
            }
            (Some(value), _) | (None, Some((_, value))) => value,
            (None, None) => return Ok(None),
        };
        if target.kind == Target::Solution
            && let Some(extension) = Path::new(given).extension().and_then(|ext| ext.to_str())
            && !workspace::is_target(Path::new(given), Target::Solution)
        {
            let message = format!(
                "Invalid argument '{name}': must be a .sln or .slnx file or a folder, not a .{extension} file."
            );
            return Err(invalid(name, Reason::Value, message));
        }
        Ok(Some(given))
    }

    /// The target for a dotnet command: as given, else the one in the client's roots, else `None`
    /// (the CLI looks in the working directory).
    pub async fn cli_target(&self, target: TargetParam) -> Result<Option<String>, ErrorResponse> {
        if let Some(given) = self.target_given(target)? {
            return Ok(Some(given.to_owned()));
        }
        let found = workspace::discover(self.ctx, target.kind, target.parameter).await?;
        Ok(found.map(|path| path.display().to_string()))
    }

    /// The target file, for an action that reads or edits it: as given (relative to the working
    /// directory; a folder stands for the one file of the kind in it), else the one in the
    /// client's roots, else the one in the working directory. A project target refuses a
    /// solution file.
    pub async fn target_file(&self, target: TargetParam) -> Result<PathBuf, ErrorResponse> {
        let name = target.parameter;
        let path = match self.target_given(target)? {
            Some(given) => self.cwd.join(given),
            None => match workspace::discover(self.ctx, target.kind, name).await? {
                Some(found) => found,
                None => self.cwd.clone(),
            },
        };
        let file = if path.is_dir() { only_candidate(&path, target)? } else { path };
        if target.kind == Target::Project && workspace::is_target(&file, Target::Solution) {
            let message = format!(
                "Invalid argument '{name}': action '{}' works on a project file, not a solution ({}).",
                self.action,
                file.display()
            );
            return Err(invalid(name, Reason::Value, message));
        }
        if !file.is_file() {
            let message = format!("Invalid argument '{name}': the file '{}' does not exist.", file.display());
            return Err(invalid(name, Reason::NotFound, message));
        }
        Ok(file)
    }
}

/// The one file of the target's kind in `folder` (for a project or solution: the solution when
/// there is exactly one).
fn only_candidate(folder: &Path, target: TargetParam) -> Result<PathBuf, ErrorResponse> {
    let name = target.parameter;
    match workspace::preferred(workspace::candidates_in(folder, target.kind), target.kind).as_slice() {
        [only] => Ok(only.clone()),
        [] => {
            let message = format!(
                "Invalid argument '{name}': there is no {} in '{}'; name one with '{name}'.",
                target.described(),
                folder.display()
            );
            Err(invalid(name, Reason::NotFound, message))
        }
        several => {
            let listed: Vec<String> = several.iter().map(|path| path.display().to_string()).collect();
            let message = format!(
                "Invalid argument '{name}': '{}' holds several: {}. Name one with '{name}'.",
                folder.display(),
                listed.join(", ")
            );
            Err(invalid(name, Reason::Ambiguous, message))
        }
    }
}
