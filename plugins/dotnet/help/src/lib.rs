//! The `dotnet_help` plugin: the help of any dotnet command, read-only.
//!
//! One tool, `dotnet_help`, with one action (so no `action` parameter):
//!
//! | action | runs | lock |
//! |---|---|---|
//! | (help) | `dotnet <command...> --help`, or `dotnet --help` without a command | none |
//!
//! `command` is the command and its subcommands as words (`"tool install"`, `"ef migrations
//! add"`, `"new console"`), checked against the commands the SDK has ([`commands`]) so nothing but
//! command words reaches the command line. (The CLI's `dotnet help <command>` opens a web page
//! instead, so it is not used.) The help text is the reply for the model; the structured content
//! carries the parts a program can use: the usage lines, the description and the sections of
//! options, arguments and subcommands.
//!
//! Annotations: read-only, not destructive, idempotent, closed-world — it only prints help,
//! which the SDK on this machine has.

#![deny(missing_docs)]

mod actions;
pub mod commands;
mod parse;

use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Outcome, Param};
use mcp_plugin_api::export_plugin;

export_plugin! {
    name: "dotnet_help",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetHelp, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The one action of `dotnet_help`.
    pub enum Action {
        /// The help of a command.
        Help,
    }
}

/// The `dotnet_help` family.
#[derive(Debug, Default)]
pub struct DotnetHelp;

/// What the action takes, does and answers.
fn spec(action: Action) -> ActionSpec<Action> {
    match action {
        Action::Help => ActionSpec::reads(action).takes(&["command"]).runs_dotnet().result::<actions::help::Help>(),
    }
}

impl Family for DotnetHelp {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        Declaration::new(
            "dotnet_help",
            ".NET CLI Help",
            "Show the help of a dotnet command: its usage, options, arguments and subcommands. `command` is the \
             command and its subcommands as words, without options (\"build\", \"tool install\", \"ef migrations \
             add\", \"new console\"); omit it for the list of all dotnet commands. Read-only.",
        )
        .single_action()
        .param(
            Param::string(
                "command",
                "The command and subcommands to explain, as words without options: \"build\", \"tool install\", \
                 \"ef migrations add\", \"new console\". Omit it for the list of all commands.",
            )
            .max_length(200),
        )
        .param(Param::string(
            "workingDirectory",
            "Folder to run in; its global.json chooses the SDK (and so which help text) answers.",
        ))
        .common(&["workingDirectory"])
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Help => actions::help::run(call).await,
        }
    }
}
