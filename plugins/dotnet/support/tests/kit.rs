//! The kit's middle layer as a family uses it, on the test double: a typed result with the
//! envelope the kit adds (`command` and `exitCode` of the run it declares), the type an action
//! returns checked against the one it declares, the target resolved from parameters, the client's
//! roots and the working directory, and list parameters read by the one rule.

#![cfg(unix)]

use std::{fs, panic::AssertUnwindSafe, path::Path};

use dotnet_support::{
    kit::{ActionSpec, Call, Declaration, Family, Outcome, Param, Split, TargetParam, prose},
    params::Kind,
    respond::Reply,
    testkit::{Answers, Harness, client, code, parameter, reason},
};
use mcp_plugin_api::{schemars::JsonSchema, testkit::TestCall};
use serde::Serialize;
use serde_json::{Value, json};

dotnet_support::actions! {
    /// What the probe family does.
    pub enum Act {
        /// `dotnet --version`.
        Version,
        /// The target a dotnet command would get.
        CliTarget,
        /// The target file an action would read.
        TargetFile,
        /// The `items` list.
        Items,
        /// Declares one result type and answers with another.
        Mismatch,
        /// Declares that it runs dotnet and runs nothing.
        Silent,
    }
}

/// The SDK's version.
#[derive(Serialize, JsonSchema)]
struct Version {
    version: String,
}

/// A target, or none (the CLI's default).
#[derive(Serialize, JsonSchema)]
struct Target {
    target: Option<String>,
}

/// The items of a list.
#[derive(Serialize, JsonSchema)]
struct Items {
    items: Vec<String>,
    /// How many, in words.
    counted: String,
}

/// The probe family: each action exercises one part of the kit.
#[derive(Default)]
struct Probe;

fn spec(action: Act) -> ActionSpec<Act> {
    let targets = ["kind", "project", "projectPath", "solution"];
    match action {
        Act::Version => ActionSpec::reads(action).runs_dotnet().result::<Version>(),
        Act::CliTarget | Act::TargetFile => ActionSpec::reads(action).takes(&targets).result::<Target>(),
        Act::Items => ActionSpec::reads(action).takes(&["items", "split"]).result::<Items>(),
        Act::Mismatch => ActionSpec::reads(action).result::<Version>(),
        Act::Silent => ActionSpec::reads(action).runs_dotnet().result::<Items>(),
    }
}

/// The target parameter `kind` asks for.
fn target_param(call: &Call<'_>) -> TargetParam {
    match call.params().opt_any("kind").unwrap_or("project") {
        "solution" => TargetParam::solution(),
        "projectOrSolution" => TargetParam::project().or_solution().alias("projectPath"),
        _ => TargetParam::project().alias("projectPath"),
    }
}

impl Family for Probe {
    type Action = Act;

    fn declare() -> Declaration<Act> {
        Declaration::new("probe", "Probe", "Exercises the kit.")
            .param(Param::choice("kind", &["project", "projectOrSolution", "solution"], "What to look for."))
            .param(Param::string("project", "A project."))
            .param(Param::string("projectPath", "Deprecated: project."))
            .param(Param::string("solution", "A solution."))
            .param(Param::string_or_list("items", "Names; a string is split as `split` says.").max_items(3))
            .param(Param::choice("split", &["commas", "whitespace", "never"], "How a string is split."))
            .each_action(spec)
    }

    async fn run(&self, action: Act, call: &Call<'_>) -> Outcome {
        match action {
            Act::Version => {
                let ran = call.run_ok(call.command(vec!["--version".into()], "version")).await?;
                let version = ran.outcome.stdout.trim().to_owned();
                Ok(Reply::new(format!("SDK {version}.")).result(Version { version }))
            }
            Act::CliTarget => {
                let target = call.cli_target(target_param(call)).await?;
                Ok(Reply::new("Resolved.").result(Target { target }))
            }
            Act::TargetFile => {
                let file = call.target_file(target_param(call)).await?;
                Ok(Reply::new("Resolved.").result(Target { target: Some(file.display().to_string()) }))
            }
            Act::Items => {
                let split = match call.params().opt_any("split") {
                    Some("whitespace") => Split::Whitespace,
                    Some("never") => Split::Never,
                    _ => Split::Commas,
                };
                let items: Vec<String> =
                    call.params().list("items", Kind::Identifier, split, 3)?.into_iter().map(str::to_owned).collect();
                let counted = prose::count(items.len(), "item");
                Ok(Reply::new(counted.clone()).result(Items { items, counted }))
            }
            Act::Mismatch => Ok(Reply::new("Wrong.").result(Target { target: None })),
            Act::Silent => Ok(Reply::new("Nothing ran.").result(Items { items: Vec::new(), counted: String::new() })),
        }
    }
}

type Probed = Harness<Probe>;

fn write(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, "<Project />").unwrap();
}

#[test]
fn a_typed_result_gets_the_envelope_and_the_command_it_declares() {
    let harness = Probed::new();
    let mut answers = Answers::new(&harness.tool);
    let version = answers.hold("Version", harness.call(json!({ "action": "Version" })));
    let keys: Vec<&String> = version.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["action", "command", "exitCode", "success", "version"]);
    assert_eq!((version["command"].clone(), version["exitCode"].clone()), (json!("dotnet --version"), json!(0)));
    let runtime_only = Probed::with(|_, double| double.scenario("runtime-only"));
    answers.hold("Version", runtime_only.call(json!({ "action": "Version" })));
    answers.assert_every_action(&["Version"]);
}

#[test]
fn an_answer_of_another_type_or_without_its_run_fails_the_call_naming_the_bug() {
    let harness = Probed::new();
    for (action, expected) in [
        ("Mismatch", "answered with kit::Target, but declares kit::Version"),
        ("Silent", "declares that it runs dotnet, but it ran nothing"),
    ] {
        let panic = std::panic::catch_unwind(AssertUnwindSafe(|| harness.call(json!({ "action": action }))))
            .expect_err("the call fails");
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains(expected), "{action}: {message}");
    }
}

/// Resolves with `args` through a client whose roots are `roots`; the target or the failure.
fn resolve(harness: &Probed, roots: &[&Path], args: Value) -> Result<Option<String>, (String, String, String)> {
    let (call, _) = client(roots, None);
    let result = harness.call_with(&call, args);
    let structured = result.structured_content.unwrap();
    match result.is_error {
        false => Ok(structured["target"].as_str().map(str::to_owned)),
        true => Err((code(&structured).to_owned(), parameter(&structured).to_owned(), reason(&structured).to_owned())),
    }
}

#[test]
fn the_target_is_the_parameter_else_the_one_in_the_roots_else_the_working_directory() {
    let harness = Probed::new();
    let dir = harness.path();
    let root = dir.join("root");
    write(&root.join("App.csproj"));
    let path = |name: &str| Some(dir.join(name).display().to_string());
    let cli = |mut args: Value| {
        args["action"] = json!("CliTarget");
        args
    };

    // Given: as given, an alias read too, two different values a conflict.
    assert_eq!(resolve(&harness, &[&root], cli(json!({ "project": "src/X.csproj" }))), Ok(Some("src/X.csproj".into())));
    assert_eq!(resolve(&harness, &[], cli(json!({ "projectPath": "Y.fsproj" }))), Ok(Some("Y.fsproj".into())));
    let conflict = resolve(&harness, &[], cli(json!({ "project": "a.csproj", "projectPath": "b.csproj" })));
    assert_eq!(conflict.unwrap_err().2, "conflict");
    let not_a_solution = resolve(&harness, &[], cli(json!({ "kind": "solution", "solution": "App.csproj" })));
    assert_eq!(not_a_solution.unwrap_err(), ("INVALID_PARAMS".into(), "solution".into(), "invalid value".into()));
    // Found: the one project in the roots; none: the CLI's default.
    assert_eq!(resolve(&harness, &[&root], cli(json!({}))), Ok(path("root/App.csproj")));
    assert_eq!(resolve(&harness, &[], cli(json!({}))), Ok(None));
    // A solution and its projects stand for the solution; two projects are ambiguous.
    write(&root.join("Lib.csproj"));
    fs::write(root.join("All.slnx"), "<Solution />").unwrap();
    assert_eq!(resolve(&harness, &[&root], cli(json!({ "kind": "projectOrSolution" }))), Ok(path("root/All.slnx")));
    assert_eq!(resolve(&harness, &[&root], cli(json!({ "kind": "solution" }))), Ok(path("root/All.slnx")));
    let ambiguous = resolve(&harness, &[&root], cli(json!({}))).unwrap_err();
    assert_eq!((ambiguous.1.as_str(), ambiguous.2.as_str()), ("project", "ambiguous"));
}

#[test]
fn a_target_file_is_a_file_a_folder_stands_for_the_one_inside() {
    let harness = Probed::new();
    let dir = harness.path();
    let file = |mut args: Value| {
        args["action"] = json!("TargetFile");
        resolve(&harness, &[], args)
    };
    let path = |name: &str| Some(dir.join(name).display().to_string());
    assert_eq!(file(json!({})).unwrap_err().2, "not found", "no project in the working directory");
    write(&dir.join("src/App/App.csproj"));
    assert_eq!(file(json!({ "project": "src/App" })), Ok(path("src/App/App.csproj")));
    assert_eq!(file(json!({ "project": "src/App/App.csproj" })), Ok(path("src/App/App.csproj")));
    assert_eq!(file(json!({ "project": "src/Gone.csproj" })).unwrap_err().2, "not found");
    write(&dir.join("src/App/Other.csproj"));
    let several = file(json!({ "project": "src/App" })).unwrap_err();
    assert_eq!(several.2, "ambiguous");
    fs::write(dir.join("All.sln"), "").unwrap();
    assert_eq!(
        file(json!({ "project": "All.sln" })).unwrap_err().2,
        "invalid value",
        "a project target is no solution"
    );
    assert_eq!(file(json!({ "kind": "solution" })), Ok(path("All.sln")));
}

#[test]
fn lists_follow_one_rule() {
    let harness = Probed::new();
    let items = |items: Value, split: &str| {
        let result = harness.call_with(&TestCall::new(), json!({ "action": "Items", "items": items, "split": split }));
        let structured = result.structured_content.unwrap();
        match result.is_error {
            false => Ok((structured["items"].clone(), structured["counted"].clone())),
            true => Err((parameter(&structured).to_owned(), reason(&structured).to_owned())),
        }
    };
    assert_eq!(items(json!(["a", " b ", ""]), "commas"), Ok((json!(["a", "b"]), json!("2 items"))));
    assert_eq!(items(json!("a, b,,c"), "commas"), Ok((json!(["a", "b", "c"]), json!("3 items"))));
    assert_eq!(items(json!("a  b"), "whitespace"), Ok((json!(["a", "b"]), json!("2 items"))));
    assert_eq!(items(json!("a"), "never"), Ok((json!(["a"]), json!("1 item"))));
    assert_eq!(items(json!([]), "commas"), Ok((json!([]), json!("0 items"))));
    assert_eq!(items(json!("a,b,c,d"), "commas"), Err(("items".into(), "too many".into())));
    assert_eq!(items(json!(["a", "--x"]), "commas"), Err(("items[1]".into(), "invalid characters".into())));
    let unchecked = harness.call_with(&TestCall::new().unchecked(), json!({ "action": "Items", "items": ["a", 1] }));
    assert_eq!(parameter(unchecked.structured_content.as_ref().unwrap()), "items[1]");
}
