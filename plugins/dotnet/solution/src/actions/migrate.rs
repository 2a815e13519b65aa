//! Migrate: `dotnet sln <file.sln> migrate`, which writes the solution again as `.slnx` (SDK
//! 9.0.200 and later) beside it, same name, and leaves the `.sln` as it was.
//!
//! What SDK 10.0.401 does (recordings under `test-double/recordings/solution/`): it prints
//! ``.slnx file <absolute path> generated.`` and exits 0; it overwrites an existing `.slnx`
//! without a word, so the action refuses to unless `overwrite` is set; given a `.slnx` it exits 1
//! with `Only .sln files can be migrated to .slnx format.`, which the action says before running.

use std::path::{Path, PathBuf};

use dotnet_support::{
    kit::{Call, Outcome, Reason, invalid, prose::count},
    locking::LockTarget,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::SOLUTION;
use crate::{command, solution_file as file};

// Migrate: the `.slnx` written from the `.sln`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Migrated {
    /// The `.sln` migrated (left as it was).
    solution: String,
    /// The `.slnx` written.
    slnx: String,
    /// Whether a `.slnx` of that name was there before and was replaced (only with `overwrite`).
    replaced: bool,
    /// The projects the `.slnx` lists, read back from it (paths relative to it).
    #[serde(skip_serializing_if = "Option::is_none")]
    projects: Option<Vec<String>>,
}

/// The path in ``.slnx file <path> generated.``.
fn generated(stdout: &str) -> Option<PathBuf> {
    stdout.lines().map(str::trim).find_map(|line| {
        line.strip_prefix(".slnx file ").and_then(|rest| rest.strip_suffix(" generated.")).map(PathBuf::from)
    })
}

/// Runs Migrate, under the locks of both files (the `.sln` read, the `.slnx` written), in that
/// order.
pub async fn migrate(call: &Call<'_>) -> Outcome {
    let sln = call.target_file(SOLUTION).await?;
    if file::Format::of(&sln) != Some(file::Format::Sln) {
        let message = format!(
            "Invalid argument 'solution': Migrate turns a .sln into a .slnx; {} is not a .sln file.",
            sln.display()
        );
        return Err(invalid("solution", Reason::Value, message).into());
    }
    let slnx = sln.with_extension("slnx");
    let replaced = slnx.exists();
    if replaced && !call.params().flag("overwrite") {
        let message = format!(
            "{} already exists and the SDK would overwrite it without asking; set 'overwrite' to replace it.",
            slnx.display()
        );
        return Err(invalid("overwrite", Reason::Conflict, message).into());
    }
    let _sln_guard = call.lock(&LockTarget::for_path(Some(&sln), call.cwd())).await?;
    let _slnx_guard = call.lock(&LockTarget::for_path(Some(&slnx), call.cwd())).await?;
    let sln_text = sln.display().to_string();
    let ran = call.run_ok(call.command(command::migrate(&sln_text), "migrating the solution to .slnx")).await?;
    let written = generated(&ran.outcome.stdout).unwrap_or(slnx);
    let projects =
        file::read(&written).ok().map(|projects| projects.into_iter().map(|project| project.path).collect::<Vec<_>>());
    let listed = projects.as_ref().map(|projects| format!(", listing {}", count(projects.len(), "project")));
    let summary = format!(
        "Migrated {} to {}{}{}.",
        name_of(&sln),
        written.display(),
        listed.unwrap_or_default(),
        if replaced { " (the .slnx that was there is replaced)" } else { "" }
    );
    Ok(Reply::new(summary).output(ran.outcome.transcript.clone()).result(Migrated {
        solution: sln_text,
        slnx: written.display().to_string(),
        replaced,
        projects,
    }))
}

fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_path_the_sdk_wrote() {
        assert_eq!(
            generated(".slnx file /src/Shop/Shop.slnx generated.\n"),
            Some(PathBuf::from("/src/Shop/Shop.slnx"))
        );
        assert_eq!(generated("Only .sln files can be migrated to .slnx format.\n"), None);
    }
}
