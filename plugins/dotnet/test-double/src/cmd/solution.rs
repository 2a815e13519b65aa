//! Solutions and project references: `sln`/`solution` `list`/`add`/`remove` and
//! `add`/`remove`/`list reference` (also as `reference add|remove|list`). The double never
//! edits files; a solution always lists `fixtures/solution/projects.txt`, and a project's
//! references come from `fixtures/solution/references.json` (by project name, `*` otherwise).

use std::path::{Path, PathBuf};

use crate::args;
use crate::cmd::help;
use crate::ctx::{Ctx, Scenario};
use crate::json::Ordered;
use crate::out;
use crate::target::{self, SOLUTION_PROJECTS};

const REFERENCES: &str = crate::fixture::body(include_str!("../../fixtures/solution/references.json"));

/// The solution a `sln` command works on: the explicit one, or the single one in the working
/// directory (an empty directory counts as holding `<directory name>.sln`).
fn find_solution(ctx: &Ctx, explicit: Option<&str>) -> Result<PathBuf, u8> {
    if let Some(p) = explicit {
        return Ok(target::normalize(&ctx.cwd.join(p)));
    }
    let dir = format!("{}/", ctx.cwd.display());
    if ctx.has(Scenario::NoProject) {
        out::err(&format!(
            "Specified solution file {dir} does not exist, or there is no solution file in the directory."
        ));
        return Err(1);
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(&ctx.cwd)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sln" || e == "slnx"))
        .collect();
    match found.len() {
        0 => {
            let name = ctx.cwd.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            Ok(ctx.cwd.join(format!("{name}.sln")))
        }
        1 => Ok(found.remove(0)),
        _ => {
            out::err(&format!("Found more than one solution file in {dir}. Specify which one to use."));
            Err(1)
        }
    }
}

/// `dotnet sln|solution [<SLN_FILE>] <list|add|remove> [...]`.
pub fn solution(ctx: &Ctx, command: &str, args: &[String]) -> u8 {
    let positionals = args::positionals(args);
    let (explicit, rest): (Option<&str>, &[String]) = match positionals.first() {
        Some(first) if !matches!(first.as_str(), "list" | "add" | "remove") => (Some(first), &positionals[1..]),
        _ => (None, &positionals[..]),
    };
    let Some(sub) = rest.first() else {
        return help::unrecognized(ctx, command, None);
    };
    let items = &rest[1..];
    if let Err(code) = find_solution(ctx, explicit) {
        return code;
    }
    match sub.as_str() {
        "list" => {
            out::line("Project(s)");
            out::line("----------");
            SOLUTION_PROJECTS.lines().filter(|l| !l.trim().is_empty()).for_each(|l| out::line(l.trim()));
            0
        }
        "add" | "remove" if items.is_empty() => {
            out::err(&format!("Required argument missing for command: '{sub}'."));
            1
        }
        "add" => {
            items.iter().for_each(|p| out::line(&format!("Project `{p}` added to the solution.")));
            0
        }
        "remove" => {
            for p in items {
                let name = Path::new(p).file_name().map(|n| n.to_string_lossy().into_owned());
                let known = SOLUTION_PROJECTS
                    .lines()
                    .any(|l| Path::new(l.trim()).file_name().map(|n| n.to_string_lossy().into_owned()) == name);
                if known {
                    out::line(&format!("Project `{p}` removed from the solution."));
                } else {
                    out::line(&format!("Project `{p}` could not be found in the solution."));
                }
            }
            0
        }
        other => help::unrecognized(ctx, command, Some(&other.to_string())),
    }
}

fn references_of(name: &str) -> Vec<String> {
    let all: Ordered<Vec<String>> = serde_json::from_str(REFERENCES).expect("references.json is valid");
    all.get(name).or_else(|| all.get("*")).cloned().unwrap_or_default()
}

/// `dotnet add [<project>] reference <paths>`, `remove ... reference` and `list ... reference`.
pub fn reference(ctx: &Ctx, verb: &str, project: Option<String>, refs: &[String]) -> u8 {
    let target = match target::resolve(ctx, project.as_deref()) {
        Ok(t) => t,
        Err(m) => return m.report_cli(),
    };
    let p = &target.projects[0];
    match verb {
        "list" => {
            let refs = references_of(&p.name);
            if refs.is_empty() {
                out::line(&format!("There are no Project to Project references in project {}.", p.path.display()));
                return 0;
            }
            out::line("Project reference(s)");
            out::line("--------------------");
            refs.iter().for_each(|r| out::line(r));
            0
        }
        _ if refs.is_empty() => {
            out::err("Required argument missing for command: 'reference'.");
            1
        }
        "add" => {
            refs.iter().for_each(|r| out::line(&format!("Reference `{r}` added to the project.")));
            0
        }
        _ => {
            refs.iter().for_each(|r| out::line(&format!("Project reference `{r}` removed.")));
            0
        }
    }
}
