//! Reading `dotnet nuget why`: the dependency graphs NuGet prints as trees, per project and
//! target framework, turned into paths from the project down to the package.
//!
//! What SDK 10.0.401 prints (recordings under `test-double/recordings/library/`), for a project
//! or for each project of a solution:
//!
//! ```text
//! Project 'App' has the following dependency graph(s) for 'xunit.abstractions':
//!
//!   [net10.0]
//!   └── xunit (v2.9.3)
//!       └── xunit.core (v2.9.3)
//!           ├── xunit.extensibility.core (v2.9.3)
//!           │   └── xunit.abstractions (v2.0.3)
//!           └── ...
//!
//! Project 'Lib' does not have a dependency on 'xunit.abstractions'.
//! ```
//!
//! NuGet lays the text out for an 80-column console even when redirected: every line is padded
//! with spaces, a longer line is wrapped (a node's name continues on the next line under it,
//! without a branch), and the package itself may be coloured. A project reference appears as its
//! name, without a version; a framework with no path says `No dependency graph(s) found for this
//! target framework.`; anything else (a framework the assets file lacks, a project never
//! restored) is a message, kept whole.

use schemars::JsonSchema;
use serde::Serialize;

/// One step of a dependency path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// The package id, or the project's name.
    pub id: String,
    /// The resolved version (packages only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// A package, or a project (the one asked about, or one it references).
    pub kind: StepKind,
}

/// What a step of a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum StepKind {
    /// A NuGet package.
    Package,
    /// A project.
    Project,
}

/// The paths of one target framework.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrameworkPaths {
    /// The target framework, as NuGet names it (`net10.0`).
    pub framework: String,
    /// Each path from the project (first step) down to the package (last step); empty when the
    /// package is not in this framework's graph.
    pub paths: Vec<Vec<Step>>,
}

/// What NuGet said about one project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectGraph {
    /// The project's name.
    pub project: String,
    /// Whether the package is in its dependency graph.
    pub depends: bool,
    /// The paths per target framework (empty when it does not depend on the package).
    pub frameworks: Vec<FrameworkPaths>,
}

/// Everything `dotnet nuget why` printed: the projects' graphs and its other messages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// One entry per project NuGet looked at.
    pub projects: Vec<ProjectGraph>,
    /// Its other sentences (wrapped lines joined), in order.
    pub messages: Vec<String>,
}

/// `text` without ANSI colour escapes (`ESC [ ... letter`).
pub fn without_escapes(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// The text between the first pair of single quotes after `start`.
fn quoted(line: &str) -> Option<&str> {
    line.split('\'').nth(1)
}

/// A node of a tree line: its depth (0 under the framework) and its text.
fn node(line: &str) -> Option<(usize, &str)> {
    let glyph = line.find("── ")?;
    let column = line[..glyph].chars().count().checked_sub(1)?;
    Some((column.saturating_sub(2) / 4, line[glyph + "── ".len()..].trim()))
}

/// A step from a node's text: `Id (v1.2.3)` is a package, a bare name a project.
fn step(text: &str) -> Step {
    match text.strip_suffix(')').and_then(|rest| rest.rsplit_once("(v")) {
        Some((id, version)) => {
            Step { id: id.trim().to_owned(), version: Some(version.to_owned()), kind: StepKind::Package }
        }
        None => Step { id: text.to_owned(), version: None, kind: StepKind::Project },
    }
}

/// Reads `dotnet nuget why`'s output about `package`.
pub fn read(stdout: &str, package: &str) -> Report {
    // Lines first: wrapped node names joined to their node, wrapped sentences to their sentence.
    enum Line {
        Project { name: String, depends: bool },
        Framework(String),
        Node { depth: usize, text: String },
        Message(String),
        Break,
    }
    let mut lines: Vec<Line> = Vec::new();
    let mut in_tree = false;
    for raw in stdout.lines() {
        let line = without_escapes(raw);
        let line = line.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            lines.push(Line::Break);
            in_tree = false;
        } else if trimmed.starts_with("Project '") && trimmed.contains("has the following dependency graph") {
            lines.push(Line::Project { name: quoted(trimmed).unwrap_or_default().to_owned(), depends: true });
        } else if trimmed.starts_with("Project '") && trimmed.contains("does not have a dependency on") {
            lines.push(Line::Project { name: quoted(trimmed).unwrap_or_default().to_owned(), depends: false });
        } else if trimmed.starts_with('[') && trimmed.ends_with(']') && !trimmed.contains(' ') {
            lines.push(Line::Framework(trimmed[1..trimmed.len() - 1].to_owned()));
            in_tree = true;
        } else if let Some((depth, text)) = node(line).filter(|_| in_tree) {
            lines.push(Line::Node { depth, text: text.to_owned() });
        } else if in_tree {
            // A node's name NuGet wrapped: no branch, only the tree's indentation before it.
            let rest = trimmed.trim_start_matches(['│', ' ']);
            if let Some(Line::Node { text, .. }) = lines.last_mut() {
                text.push_str(rest);
            }
        } else {
            match lines.last_mut() {
                Some(Line::Message(text)) => {
                    text.push(' ');
                    text.push_str(trimmed);
                }
                _ => lines.push(Line::Message(trimmed.to_owned())),
            }
        }
    }

    let mut why = Report::default();
    let mut stack: Vec<Step> = Vec::new();
    for line in lines {
        match line {
            Line::Project { name, depends } => {
                why.projects.push(ProjectGraph { project: name, depends, frameworks: Vec::new() })
            }
            Line::Framework(framework) => {
                if let Some(project) = why.projects.last_mut() {
                    project.frameworks.push(FrameworkPaths { framework, paths: Vec::new() });
                }
                stack.clear();
            }
            Line::Node { text, .. } if text.starts_with("No dependency graph") => {}
            Line::Node { depth, text } => {
                stack.truncate(depth);
                let step = step(&text);
                let reached = step.kind == StepKind::Package && step.id.eq_ignore_ascii_case(package);
                stack.push(step);
                let Some(project) = why.projects.last_mut() else { continue };
                let root = Step { id: project.project.clone(), version: None, kind: StepKind::Project };
                if let (true, Some(framework)) = (reached, project.frameworks.last_mut()) {
                    framework.paths.push(std::iter::once(root).chain(stack.iter().cloned()).collect());
                }
            }
            Line::Message(text) => why.messages.push(text),
            Line::Break => {}
        }
    }
    why
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(id: &str, version: &str) -> Step {
        Step { id: id.to_owned(), version: Some(version.to_owned()), kind: StepKind::Package }
    }

    fn project(id: &str) -> Step {
        Step { id: id.to_owned(), version: None, kind: StepKind::Project }
    }

    fn pad(text: &str) -> String {
        text.lines().map(|line| format!("{line:<80}\n")).collect()
    }

    #[test]
    fn reads_every_path_per_framework_through_project_references_and_colours() {
        let printed = pad(
            "Project 'M' has the following dependency graph(s) for 'xunit.assert':\n\n  [net10.0]\n  ├── T\n  \
             │   └── xunit (v2.9.3)\n  │       └── \u{1b}[38;5;14mxunit.assert (v2.9.3)\u{1b}[0m\n  └── xunit (v2.9.3)\n      \
             └── \u{1b}[38;5;14mxunit.assert (v2.9.3)\u{1b}[0m\n\n  [net8.0]\n  └── No dependency graph(s) found for this \
             target framework.\n",
        );
        let why = read(&printed, "XUNIT.ASSERT");
        assert!(why.messages.is_empty(), "{:?}", why.messages);
        let [graph] = why.projects.as_slice() else { panic!("{why:?}") };
        assert_eq!((graph.project.as_str(), graph.depends), ("M", true));
        assert_eq!(graph.frameworks[0].framework, "net10.0");
        assert_eq!(
            graph.frameworks[0].paths,
            [
                vec![project("M"), project("T"), package("xunit", "2.9.3"), package("xunit.assert", "2.9.3")],
                vec![project("M"), package("xunit", "2.9.3"), package("xunit.assert", "2.9.3")],
            ]
        );
        assert_eq!((graph.frameworks[1].framework.as_str(), graph.frameworks[1].paths.len()), ("net8.0", 0));
    }

    #[test]
    fn joins_names_wrapped_at_eighty_columns() {
        let printed = pad("Project 'W' has the following dependency graph(s) for 'xunit.core':\n\n  [net10.0]\n  └── \
             AVeryLongProjectNameThatGoesOnAndOnForeverAndEverToExceedEightyColumnsOfTe\n      xt\n      └── \
             xunit (v2.9.3)\n          └── xunit.core\n              (v2.9.3)\n");
        let why = read(&printed, "xunit.core");
        assert_eq!(
            why.projects[0].frameworks[0].paths,
            [vec![
                project("W"),
                project("AVeryLongProjectNameThatGoesOnAndOnForeverAndEverToExceedEightyColumnsOfText"),
                package("xunit", "2.9.3"),
                package("xunit.core", "2.9.3"),
            ]]
        );
    }

    #[test]
    fn a_project_without_the_package_and_the_sdks_messages() {
        let printed =
            pad("\u{1b}[38;5;11mThe assets file '/src/T/obj/project.assets.json' for project 'T' does not \u{1b}[0m\n\
             \u{1b}[38;5;11mcontain a target for the specified input framework 'net8.0'.\u{1b}[0m\n\
             Project 'T' does not have a dependency on 'xunit.core'.\n");
        let why = read(&printed, "xunit.core");
        assert_eq!(
            why.messages,
            ["The assets file '/src/T/obj/project.assets.json' for project 'T' does not contain a target for the \
                 specified input framework 'net8.0'."]
        );
        assert_eq!(why.projects, [ProjectGraph { project: "T".into(), depends: false, frameworks: Vec::new() }]);
    }
}
