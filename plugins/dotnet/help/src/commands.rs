//! The dotnet commands `dotnet_help` knows, and the check that turns a `command` parameter into
//! the words before `--help`.
//!
//! The first word must be a command of the SDK (or of a tool bundled with it, or `ef`); each
//! further word must be one of that command's subcommands. `new` takes one free word (a template
//! short name or one of its own subcommands). Options, paths and anything else are refused: the
//! help of a command never needs them, and a value such as `--output x` or `build; rm` could
//! otherwise reach the command line.

use dotnet_support::{
    errors::ErrorResponse,
    kit::{Reason, invalid},
};

/// What may follow a command word.
#[derive(Debug)]
enum Children {
    /// Nothing.
    Leaf,
    /// One of these subcommands.
    Fixed(&'static [Node]),
    /// One free word (a template short name).
    Open,
}

/// A command word and what may follow it.
#[derive(Debug)]
struct Node {
    name: &'static str,
    children: Children,
}

const fn leaf(name: &'static str) -> Node {
    Node { name, children: Children::Leaf }
}

const fn with(name: &'static str, children: &'static [Node]) -> Node {
    Node { name, children: Children::Fixed(children) }
}

const PACKAGE_OR_REFERENCE: &[Node] = &[leaf("package"), leaf("reference")];
const ADD_LIST_REMOVE: &[Node] = &[leaf("add"), leaf("list"), leaf("remove")];
const NUGET_SOURCE: &[Node] = &[leaf("source"), leaf("client-cert")];

/// The commands of SDK 8 to 10 (`dotnet --help`), the bundled tools and `ef`.
const COMMANDS: &[Node] = &[
    with("add", PACKAGE_OR_REFERENCE),
    leaf("build"),
    with("build-server", &[leaf("shutdown")]),
    leaf("clean"),
    with("dev-certs", &[leaf("https")]),
    with(
        "ef",
        &[
            with("database", &[leaf("drop"), leaf("update")]),
            with("dbcontext", &[leaf("info"), leaf("list"), leaf("optimize"), leaf("scaffold"), leaf("script")]),
            with(
                "migrations",
                &[
                    leaf("add"),
                    leaf("bundle"),
                    leaf("has-pending-model-changes"),
                    leaf("list"),
                    leaf("remove"),
                    leaf("script"),
                ],
            ),
        ],
    ),
    with("format", &[leaf("analyzers"), leaf("style"), leaf("whitespace")]),
    leaf("fsi"),
    leaf("help"),
    with("list", PACKAGE_OR_REFERENCE),
    leaf("msbuild"),
    Node { name: "new", children: Children::Open },
    with(
        "nuget",
        &[
            with("add", NUGET_SOURCE),
            leaf("config"),
            leaf("delete"),
            with("disable", &[leaf("source")]),
            with("enable", &[leaf("source")]),
            with("list", NUGET_SOURCE),
            leaf("locals"),
            leaf("push"),
            with("remove", NUGET_SOURCE),
            leaf("sign"),
            leaf("trust"),
            with("update", NUGET_SOURCE),
            leaf("verify"),
            leaf("why"),
        ],
    ),
    leaf("pack"),
    with("package", &[leaf("add"), leaf("list"), leaf("remove"), leaf("search"), leaf("update")]),
    leaf("publish"),
    with("reference", ADD_LIST_REMOVE),
    with("remove", PACKAGE_OR_REFERENCE),
    leaf("restore"),
    leaf("run"),
    with("sdk", &[leaf("check")]),
    with("sln", &[leaf("add"), leaf("list"), leaf("migrate"), leaf("remove")]),
    with("solution", &[leaf("add"), leaf("list"), leaf("migrate"), leaf("remove")]),
    leaf("store"),
    leaf("test"),
    with(
        "tool",
        &[
            leaf("execute"),
            leaf("install"),
            leaf("list"),
            leaf("restore"),
            leaf("run"),
            leaf("search"),
            leaf("uninstall"),
            leaf("update"),
        ],
    ),
    with("user-jwts", &[leaf("clear"), leaf("create"), leaf("key"), leaf("list"), leaf("print"), leaf("remove")]),
    with("user-secrets", &[leaf("clear"), leaf("init"), leaf("list"), leaf("remove"), leaf("set")]),
    leaf("vstest"),
    with("watch", &[leaf("build"), leaf("publish"), leaf("run"), leaf("test")]),
    with(
        "workload",
        &[
            leaf("clean"),
            leaf("config"),
            leaf("history"),
            leaf("install"),
            leaf("list"),
            leaf("repair"),
            leaf("restore"),
            leaf("search"),
            leaf("uninstall"),
            leaf("update"),
        ],
    ),
];

/// Longest free word (a template short name).
const MAX_WORD_CHARS: usize = 64;

fn names(nodes: &[Node]) -> String {
    nodes.iter().map(|node| node.name).collect::<Vec<_>>().join(", ")
}

/// A free word: letters, digits, `.`, `_` and `-`, starting with a letter or digit.
fn plain_word(word: &str) -> bool {
    word.chars().count() <= MAX_WORD_CHARS
        && word.starts_with(|c: char| c.is_ascii_alphanumeric())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The words of `command` (`"tool install"`, also `"dotnet tool install"`), each checked against
/// the known commands and lower-cased as the CLI spells them; no words for the SDK's own help.
pub fn words(command: Option<&str>) -> Result<Vec<String>, ErrorResponse> {
    let mut given: Vec<&str> = command.unwrap_or_default().split_whitespace().collect();
    if given.first().is_some_and(|first| first.eq_ignore_ascii_case("dotnet")) {
        given.remove(0);
    }
    if let Some(option) = given.iter().find(|word| word.starts_with('-')) {
        return Err(invalid(
            "command",
            Reason::Value,
            format!(
                "Invalid argument 'command': names a command and its subcommands only, without options (got '{option}'); \
                 '--help' is added by the tool."
            ),
        ));
    }
    if let Some(word) = given.iter().find(|word| !plain_word(word)) {
        return Err(invalid(
            "command",
            Reason::Characters,
            format!(
                "Invalid argument 'command': holds '{word}', which is not a command word (letters, digits, '.', '_', '-')."
            ),
        ));
    }
    let mut level: &Children = &Children::Fixed(COMMANDS);
    let mut path: Vec<String> = Vec::new();
    for word in given {
        level = match level {
            Children::Fixed(nodes) => {
                let Some(node) = nodes.iter().find(|node| node.name.eq_ignore_ascii_case(word)) else {
                    let message = if path.is_empty() {
                        format!(
                            "Invalid argument 'command': '{word}' is not a dotnet command. Known commands: {}.",
                            names(nodes)
                        )
                    } else {
                        format!(
                            "Invalid argument 'command': 'dotnet {}' has no subcommand '{word}'. Its subcommands: {}.",
                            path.join(" "),
                            names(nodes)
                        )
                    };
                    return Err(invalid("command", Reason::Value, message));
                };
                path.push(node.name.to_owned());
                &node.children
            }
            Children::Open => {
                path.push(word.to_ascii_lowercase());
                &Children::Leaf
            }
            Children::Leaf => {
                return Err(invalid(
                    "command",
                    Reason::Value,
                    format!("Invalid argument 'command': 'dotnet {}' has no subcommand '{word}'.", path.join(" ")),
                ));
            }
        };
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(command: &str) -> (String, String) {
        let error = words(Some(command)).unwrap_err();
        let message = error.errors[0].message.clone();
        let data = error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap();
        assert_eq!(data["parameter"], "command");
        (data["reason"].clone(), message)
    }

    #[test]
    fn known_commands_and_subcommands_pass_in_the_cli_spelling() {
        assert!(words(None).unwrap().is_empty());
        assert!(words(Some("  ")).unwrap().is_empty());
        assert_eq!(words(Some("Tool  Install")).unwrap(), ["tool", "install"]);
        assert_eq!(words(Some("dotnet ef migrations add")).unwrap(), ["ef", "migrations", "add"]);
        assert_eq!(words(Some("new console")).unwrap(), ["new", "console"]);
        assert_eq!(words(Some("nuget add source")).unwrap(), ["nuget", "add", "source"]);
        assert_eq!(words(Some("dev-certs https")).unwrap(), ["dev-certs", "https"]);
    }

    #[test]
    fn options_unknown_words_and_smuggling_are_refused() {
        assert!(reason("build --output x").1.contains("without options"));
        assert!(reason("--info").1.contains("'--info'"));
        assert_eq!(reason("build;rm").0, "invalid characters");
        assert_eq!(reason("$(id)").0, "invalid characters");
        let (_, message) = reason("deploy");
        assert!(message.contains("'deploy' is not a dotnet command") && message.contains("workload"), "{message}");
        let (_, message) = reason("tool explode");
        assert!(message.contains("'dotnet tool' has no subcommand 'explode'") && message.contains("install"));
        assert!(reason("build App.csproj").1.contains("'dotnet build' has no subcommand"));
        assert!(reason("new console extra").1.contains("'dotnet new console' has no subcommand 'extra'"));
        assert_eq!(reason("new ../x").0, "invalid characters");
    }
}
