//! Reading a help text into its parts: description, usage lines and titled sections of
//! `name  description` entries.
//!
//! It reads the three layouts the CLI prints: System.CommandLine's (`Description:`, `Usage:`,
//! `Arguments:`, `Options:`, `Commands:` headings with indented entries), the dotnet host's
//! (`Usage: dotnet ...` inline, `sdk-options:`, `SDK commands:`) and the older one of `ef` and
//! `dev-certs` (`Usage: dotnet ef [options] [command]`, `Options:`, `Commands:`). Lines that fit
//! none of them (banners, closing remarks) stay in the text only.

use schemars::JsonSchema;
use serde::Serialize;

/// One `name  description` line of a section (wrapped descriptions joined).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Entry {
    /// The option, argument or subcommand as printed (`-o, --output <DIR>`, `install <PACKAGE_ID>`).
    pub name: String,
    pub description: String,
}

/// A titled list of entries (`Options`, `Commands`, `SDK commands`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Section {
    /// The heading without its colon.
    pub title: String,
    pub entries: Vec<Entry>,
}

/// A parsed help text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Help {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub usage: Vec<String>,
    pub sections: Vec<Section>,
}

/// Where the lines after a heading go.
enum Target {
    /// Before any heading, or after text that is no heading.
    Nowhere,
    Description,
    Usage,
    /// The last section of `Help::sections`.
    Section,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A heading: unindented, ending with `:` (`Options:`, `SDK commands:`), or `Title: text` inline
/// for `Usage:` and `Description:`.
fn heading(line: &str) -> Option<(&str, Option<&str>)> {
    if indent(line) > 0 {
        return None;
    }
    let line = line.trim_end();
    if let Some(title) = line.strip_suffix(':') {
        return (!title.is_empty() && !title.contains(": ")).then_some((title, None));
    }
    let (title, rest) = line.split_once(": ")?;
    ["Usage", "Description"].iter().any(|known| title.eq_ignore_ascii_case(known)).then_some((title, Some(rest.trim())))
}

/// A line of prose: no `name  description` column, a capital first and a full stop last. No
/// option (`--depsfile`), argument (`<PROJECT>`) or command (`build`) the CLI lists looks so.
fn is_prose(text: &str) -> bool {
    !text.contains("  ") && text.starts_with(|c: char| c.is_uppercase()) && text.ends_with('.')
}

/// Parses a help text.
pub fn parse(text: &str) -> Help {
    let mut help = Help::default();
    let mut target = Target::Nowhere;
    let mut entry_indent = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if let Some((title, inline)) = heading(line) {
            target = if title.eq_ignore_ascii_case("Usage") {
                help.usage.extend(inline.map(str::to_owned));
                Target::Usage
            } else if title.eq_ignore_ascii_case("Description") {
                help.description = inline.map(str::to_owned);
                Target::Description
            } else {
                help.sections.push(Section { title: title.to_owned(), entries: Vec::new() });
                entry_indent = usize::MAX;
                Target::Section
            };
            continue;
        }
        let text = line.trim();
        match target {
            Target::Nowhere => {}
            _ if indent(line) == 0 => target = Target::Nowhere,
            Target::Description => {
                let description = help.description.get_or_insert_with(String::new);
                if !description.is_empty() {
                    description.push(' ');
                }
                description.push_str(text);
            }
            Target::Usage => help.usage.push(text.to_owned()),
            Target::Section => {
                let Some(section) = help.sections.last_mut() else { continue };
                entry_indent = entry_indent.min(indent(line));
                match section.entries.last_mut() {
                    // Deeper than the entries: a wrapped description.
                    Some(last) if indent(line) > entry_indent + 1 => {
                        if !last.description.is_empty() {
                            last.description.push(' ');
                        }
                        last.description.push_str(text);
                    }
                    // A sentence under a heading, not a `name  description` line (the host's
                    // `path-to-application:` explains itself in prose): the text keeps it.
                    _ if is_prose(text) => {}
                    _ => {
                        let (name, description) = match text.split_once("  ") {
                            Some((name, description)) => (name.trim(), description.trim()),
                            None => (text, ""),
                        };
                        section.entries.push(Entry { name: name.to_owned(), description: description.to_owned() });
                    }
                }
            }
        }
    }
    help.sections.retain(|section| !section.entries.is_empty());
    help
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_command_line_help() {
        let text = "Description:\n  Install or work with tools that extend the .NET experience.\n\nUsage:\n  dotnet tool [command] [options]\n\n\
            Options:\n  -?, -h, --help  Show command line help.\n\nCommands:\n  install <PACKAGE_ID>    Install global or local tool. Local tools\n\
            \x20                         are added to manifest and restored.\n  restore                 Restore tools defined in the local tool manifest.\n";
        let help = parse(text);
        assert_eq!(help.description.as_deref(), Some("Install or work with tools that extend the .NET experience."));
        assert_eq!(help.usage, ["dotnet tool [command] [options]"]);
        assert_eq!(help.sections.len(), 2);
        assert_eq!(help.sections[0].entries[0].name, "-?, -h, --help");
        let install = &help.sections[1].entries[0];
        assert_eq!(install.name, "install <PACKAGE_ID>");
        assert_eq!(
            install.description,
            "Install global or local tool. Local tools are added to manifest and restored."
        );
        assert_eq!(help.sections[1].entries[1].name, "restore");
    }

    #[test]
    fn host_usage_and_ef_banner() {
        let host = "Usage: dotnet [sdk-options] [command] [command-options] [arguments]\n\nExecute a .NET SDK command.\n\n\
            sdk-options:\n  -d|--diagnostics  Enable diagnostic output.\n\nSDK commands:\n  add               Add a package.\n  build             Build a .NET project.\n\n\
            Run 'dotnet [command] --help' for more information on a command.\n";
        let help = parse(host);
        assert_eq!(help.usage, ["dotnet [sdk-options] [command] [command-options] [arguments]"]);
        assert_eq!(help.description, None);
        assert_eq!(help.sections[0].title, "sdk-options");
        assert_eq!(help.sections[1].title, "SDK commands");
        assert_eq!(
            help.sections[1].entries[1],
            Entry { name: "build".into(), description: "Build a .NET project.".into() }
        );

        let ef = "\n                     _/\\__\n               ---==/    \\\\\n\nEntity Framework Core .NET Command-line Tools 10.0.0\n\n\
            Usage: dotnet ef [options] [command]\n\nOptions:\n  --version        Show version information\n\nCommands:\n  database    Commands to manage the database.\n\n\
            Use \"dotnet ef [command] --help\" for more information about a command.\n";
        let help = parse(ef);
        assert_eq!(help.usage, ["dotnet ef [options] [command]"]);
        assert_eq!(help.sections.iter().map(|s| s.title.as_str()).collect::<Vec<_>>(), ["Options", "Commands"]);
        assert_eq!(help.sections[1].entries.len(), 1);
    }

    #[test]
    fn the_host_s_prose_under_a_heading_is_no_entry() {
        // `dotnet --help` of SDK 10.0.401 (recordings/sdk/015-help.txt).
        let host = "Usage: dotnet [runtime-options] [path-to-application] [arguments]\n\nExecute a .NET application.\n\n\
            runtime-options:\n  --depsfile                       Path to <application>.deps.json file.\n\n\
            path-to-application:\n  The path to an application .dll file to execute.\n\n\
            SDK commands:\n  build             Build a .NET project.\n";
        let help = parse(host);
        assert_eq!(
            help.sections.iter().map(|s| s.title.as_str()).collect::<Vec<_>>(),
            ["runtime-options", "SDK commands"]
        );
        assert_eq!(help.sections[0].entries[0].name, "--depsfile");
        assert_eq!(help.sections[1].entries[0].name, "build");
    }

    #[test]
    fn a_template_help_with_inline_description_and_author() {
        let text = "Console App (C#)\nAuthor: Microsoft\nDescription: A project for creating a command-line application\n\n\
            Usage:\n  dotnet new console [options] [template options]\n\nOptions:\n  -n, --name <name>       The name for the output.\n";
        let help = parse(text);
        assert_eq!(help.description.as_deref(), Some("A project for creating a command-line application"));
        assert_eq!(help.sections[0].entries[0].name, "-n, --name <name>");
        assert!(parse("no help here\n").sections.is_empty());
    }
}
