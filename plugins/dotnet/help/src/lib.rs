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

mod actions;
pub mod commands;
mod parse;

use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Outcome, Param};
use mcp_plugin_api::export_plugin;
use serde_json::json;

export_plugin! {
    name: "dotnet_help",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetHelp, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The one action of `dotnet_help`.
    pub enum Action { Help }
}

/// The `dotnet_help` family.
#[derive(Debug, Default)]
pub struct DotnetHelp;

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
        .param(Param::new(
            "command",
            json!({
                "type": "string",
                "maxLength": 200,
                "description": "The command and subcommands to explain, as words without options: \"build\", \"tool install\", \"ef migrations add\", \"new console\". Omit it for the list of all commands."
            }),
        ))
        .param(Param::string(
            "workingDirectory",
            "Folder to run in; its global.json chooses the SDK (and so which help text) answers.",
        ))
        .common(&["workingDirectory"])
        .action(ActionSpec::reads(Action::Help).takes(&["command"]).returns(actions::help::shape()))
    }

    async fn run(&self, _action: Action, call: &Call<'_>) -> Outcome {
        actions::help::run(call).await
    }
}
