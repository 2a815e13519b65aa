//! Every answer of `dotnet_help` held against its derived output schema, as the host and the
//! official clients check structured content: the help of the SDK, of commands and subcommands in
//! the three layouts the CLI prints, and the failure modes: a tool that is not installed, a
//! runtime-only dotnet (with and without a command), no dotnet, and refused command words.

use dotnet_help::{Action, DotnetHelp};
use dotnet_support::{
    kit::ActionEnum,
    testkit::{Answers, Harness, code},
};
use serde_json::json;

type Help = Harness<DotnetHelp>;

#[test]
fn every_answer_holds_against_the_derived_schema() {
    let harness = Help::new();
    let mut answers = Answers::new(&harness.tool);
    for command in [None, Some("build"), Some("tool install"), Some("ef"), Some("dev-certs https"), Some("new console")]
    {
        let args = command.map_or_else(|| json!({}), |command| json!({ "command": command }));
        let help = answers.hold("Help", harness.call(args));
        assert!(help["usage"].is_array() && help["sections"].is_array(), "{help}");
        assert!(help["command"].as_str().is_some_and(|command| command.ends_with("--help")), "{help}");
        assert_eq!(help["exitCode"], 0);
    }
    let no_ef = Help::with(|_, double| double.scenario("no-ef"));
    assert_eq!(code(&answers.hold("Help", no_ef.call(json!({ "command": "ef" })))), "EXIT_1");
    let runtime_only = Help::with(|_, double| double.scenario("runtime-only"));
    for args in [json!({}), json!({ "command": "build" })] {
        assert_eq!(code(&answers.hold("Help", runtime_only.call(args))), "SDK_NOT_FOUND");
    }
    let no_dotnet = Help::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    assert_eq!(code(&answers.hold("Help", no_dotnet.call(json!({})))), "CAPABILITY_NOT_AVAILABLE");
    for command in ["build --force", "frobnicate", "tool $(rm)"] {
        assert_eq!(code(&answers.hold("Help", harness.call(json!({ "command": command })))), "INVALID_PARAMS");
    }
    answers.assert_every_action(Action::NAMES);
}
