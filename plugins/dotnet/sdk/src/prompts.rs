//! The reference server's five prompts, each one user message that walks the model through
//! calls of these plugins' tools, named with their real actions and parameters, and the
//! completion of their arguments.
//!
//! | prompt | arguments | calls |
//! |---|---|---|
//! | `new_console_app` | projectName, outputDirectory?, framework?, runtime? | `dotnet_project` New, Build, Run (Publish for a runtime) |
//! | `create_new_webapi` | projectName, outputDirectory?, framework?, template? | `dotnet_project` New, Build, Run in the background |
//! | `new_webapi_with_ef` | projectName, dbProvider?, outputDirectory?, framework? | `dotnet_project` New, `dotnet_package` Add ×2, `dotnet_tool` Install, `dotnet_ef` MigrationsAdd and DatabaseUpdate |
//! | `add_package_and_restore` | packageId, projectPath?, version?, framework? | `dotnet_package` Add, `dotnet_project` Restore |
//! | `run_tests_with_coverage` | projectPath?, filter?, configuration?, framework? | `dotnet_project` Test with the coverage collector |
//!
//! Where the reference was silent or wrong:
//! - Its completion answered by argument name whatever the prompt, for names no prompt had
//!   (`template`, `framework`, `configuration`, `runtime`). Here the prompts take such arguments
//!   and completion is keyed by prompt and argument: `template` (create_new_webapi) from the
//!   installed templates' short names, `framework` (every prompt that has it) from the modern
//!   frameworks the installed SDKs build (the supported ones of the table when dotnet does not
//!   answer), `configuration` Debug and Release, `runtime` the common runtime identifiers,
//!   `dbProvider` the four providers. Matching is a case-insensitive prefix.
//! - Completion is synchronous in the plugin API, so the two that ask dotnet (`template`,
//!   `framework`) run it on a runtime of their own, on the thread that asks (the host asks
//!   from its blocking pool). No cache, like the resources: each such completion runs one
//!   listing.
//! - Arguments are checked before they are written into the message: a project name, a package
//!   id or a framework that could not be passed on is refused with the parameter named.

use dotnet_support::{
    frameworks,
    params::{Kind, check},
    resources::block_on,
    settings::DotnetSettings,
};
use mcp_plugin_api::{
    BoxedPrompt, Content, Prompt, PromptArgument, PromptMessage, PromptResult, PromptSpec, ToolError,
};
use serde_json::{Map, Value, json};

use crate::resources::{buildable_frameworks, installed_sdks, installed_templates};

/// The common runtime identifiers (the reference's ten).
const RUNTIMES: [&str; 10] = [
    "linux-arm",
    "linux-arm64",
    "linux-musl-arm64",
    "linux-musl-x64",
    "linux-x64",
    "osx-arm64",
    "osx-x64",
    "win-arm64",
    "win-x64",
    "win-x86",
];

/// The configurations every project has.
const CONFIGURATIONS: [&str; 2] = ["Debug", "Release"];

/// The database providers of `new_webapi_with_ef`, and their EF Core provider packages.
const PROVIDERS: [(&str, &str); 4] = [
    ("SqlServer", "Microsoft.EntityFrameworkCore.SqlServer"),
    ("SQLite", "Microsoft.EntityFrameworkCore.Sqlite"),
    ("PostgreSQL", "Npgsql.EntityFrameworkCore.PostgreSQL"),
    ("InMemory", "Microsoft.EntityFrameworkCore.InMemory"),
];

/// Completions are capped like the reference's.
const MAX_COMPLETIONS: usize = 20;

#[derive(Debug, Clone, Copy)]
enum Which {
    NewConsoleApp,
    CreateNewWebapi,
    NewWebapiWithEf,
    AddPackageAndRestore,
    RunTestsWithCoverage,
}

/// One of the five prompts, with the settings its completions run dotnet with.
struct DotnetPrompt {
    kind: Which,
    settings: DotnetSettings,
}

/// The five prompts.
pub fn all(settings: &DotnetSettings) -> Vec<BoxedPrompt> {
    use Which::*;
    [NewConsoleApp, CreateNewWebapi, NewWebapiWithEf, AddPackageAndRestore, RunTestsWithCoverage]
        .into_iter()
        .map(|kind| DotnetPrompt { kind, settings: settings.clone() }.into())
        .collect()
}

fn framework_argument() -> PromptArgument {
    PromptArgument::optional("framework", "Target framework, e.g. net10.0 (default: the SDK's).")
}

impl Prompt for DotnetPrompt {
    fn spec(&self) -> PromptSpec {
        let output = || PromptArgument::optional("outputDirectory", "Folder for the project (default: projectName).");
        match self.kind {
            Which::NewConsoleApp => PromptSpec::new(
                "new_console_app",
                "Create a console application, build it and run it (and publish it for a runtime).",
            )
            .title("New console app")
            .argument(PromptArgument::required("projectName", "The project's name."))
            .argument(output())
            .argument(framework_argument())
            .argument(PromptArgument::optional("runtime", "Runtime identifier to publish for, e.g. linux-x64.")),
            Which::CreateNewWebapi => {
                PromptSpec::new("create_new_webapi", "Create an ASP.NET Core Web API project, build it and start it.")
                    .title("New Web API")
                    .argument(PromptArgument::required("projectName", "The project's name."))
                    .argument(output())
                    .argument(framework_argument())
                    .argument(PromptArgument::optional("template", "The template's short name (default: webapi)."))
            }
            Which::NewWebapiWithEf => PromptSpec::new(
                "new_webapi_with_ef",
                "Create a Web API with Entity Framework Core: the provider package, the EF tools, a first migration.",
            )
            .title("New Web API with EF Core")
            .argument(PromptArgument::required("projectName", "The project's name."))
            .argument(PromptArgument::optional("dbProvider", "SqlServer (default), SQLite, PostgreSQL or InMemory."))
            .argument(output())
            .argument(framework_argument()),
            Which::AddPackageAndRestore => {
                PromptSpec::new("add_package_and_restore", "Add a NuGet package to a project and restore it.")
                    .title("Add a package")
                    .argument(PromptArgument::required("packageId", "The NuGet package id."))
                    .argument(PromptArgument::optional(
                        "projectPath",
                        "The project file (default: the one in the workspace).",
                    ))
                    .argument(PromptArgument::optional("version", "The version (default: the latest stable)."))
                    .argument(PromptArgument::optional("framework", "Add it for this target framework only."))
            }
            Which::RunTestsWithCoverage => {
                PromptSpec::new("run_tests_with_coverage", "Run tests with code coverage and summarise the results.")
                    .title("Run tests with coverage")
                    .argument(PromptArgument::optional(
                        "projectPath",
                        "Test project or solution (default: the one in the workspace).",
                    ))
                    .argument(PromptArgument::optional(
                        "filter",
                        "Test filter expression, e.g. FullyQualifiedName~Orders.",
                    ))
                    .argument(PromptArgument::optional(
                        "configuration",
                        "Build configuration: Debug (default) or Release.",
                    ))
                    .argument(framework_argument())
            }
        }
    }

    async fn get(&self, arguments: Map<String, Value>) -> Result<PromptResult, ToolError> {
        let args = Arguments(&arguments);
        let text = match self.kind {
            Which::NewConsoleApp => new_console_app(&args)?,
            Which::CreateNewWebapi => create_new_webapi(&args)?,
            Which::NewWebapiWithEf => new_webapi_with_ef(&args)?,
            Which::AddPackageAndRestore => add_package_and_restore(&args)?,
            Which::RunTestsWithCoverage => run_tests_with_coverage(&args)?,
        };
        Ok(PromptResult::new(vec![PromptMessage::user(Content::text(text))]))
    }

    fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        let candidates: Vec<String> = match (self.kind, argument) {
            (Which::CreateNewWebapi, "template") => template_names(&self.settings),
            (Which::RunTestsWithCoverage, "configuration") => owned(&CONFIGURATIONS),
            (Which::NewConsoleApp, "runtime") => owned(&RUNTIMES),
            (Which::NewWebapiWithEf, "dbProvider") => PROVIDERS.iter().map(|(name, _)| (*name).to_owned()).collect(),
            (_, "framework") => framework_names(&self.settings),
            _ => Vec::new(),
        };
        let typed = value.to_ascii_lowercase();
        let mut matching: Vec<String> =
            candidates.into_iter().filter(|candidate| candidate.to_ascii_lowercase().starts_with(&typed)).collect();
        matching.dedup();
        matching.truncate(MAX_COMPLETIONS);
        matching
    }
}

fn owned(values: &[&str]) -> Vec<String> {
    values.iter().map(|value| (*value).to_owned()).collect()
}

/// The short names of the installed templates, sorted; none when dotnet does not answer.
fn template_names(settings: &DotnetSettings) -> Vec<String> {
    let templates = block_on(installed_templates(settings)).and_then(Result::ok).unwrap_or_default();
    let mut names: Vec<String> = templates.into_iter().flat_map(|template| template.short_names).collect();
    names.sort();
    names.dedup();
    names
}

/// The modern frameworks the installed SDKs build, newest first; the supported ones of the
/// table when dotnet does not answer.
fn framework_names(settings: &DotnetSettings) -> Vec<String> {
    match block_on(installed_sdks(settings)).and_then(Result::ok) {
        Some(versions) => buildable_frameworks(&versions).into_iter().map(str::to_owned).collect(),
        None => {
            let today = frameworks::today();
            frameworks::TABLE
                .iter()
                .filter(|f| f.family == frameworks::Family::Modern && f.status(&today) == frameworks::Status::Supported)
                .map(|f| f.tfm.to_owned())
                .collect()
        }
    }
}

/// A prompt's arguments, checked as a tool's parameters would be before they reach a command line.
struct Arguments<'a>(&'a Map<String, Value>);

impl Arguments<'_> {
    /// The argument `name` if given (an empty string counts as absent), checked as `kind`.
    fn opt(&self, name: &str, kind: Kind) -> Result<Option<&str>, ToolError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
            Some(Value::String(text)) => {
                check(name, kind, text).map_err(|error| ToolError::invalid_argument(name, first_message(&error)))?;
                Ok(Some(text.as_str()))
            }
            Some(other) => Err(ToolError::invalid_argument(name, format!("expected a string, got {other}"))),
        }
    }

    fn req(&self, name: &str, kind: Kind) -> Result<&str, ToolError> {
        self.opt(name, kind)?.ok_or_else(|| ToolError::invalid_argument(name, "it is required"))
    }
}

fn first_message(error: &dotnet_support::errors::ErrorResponse) -> String {
    error.errors.first().map(|error| error.message.clone()).unwrap_or_default()
}

/// One tool call, as the message shows it.
fn call(tool: &str, arguments: Value) -> String {
    format!("`{tool}` with `{arguments}`")
}

/// `arguments` with `key` set when `value` is given.
fn with(mut arguments: Value, key: &str, value: Option<&str>) -> Value {
    if let Some(value) = value {
        arguments[key] = json!(value);
    }
    arguments
}

/// Numbered steps after an introduction.
fn steps(intro: String, steps: Vec<String>) -> String {
    let mut text = intro;
    for (number, step) in steps.iter().enumerate() {
        text.push_str(&format!("\n{}. {step}", number + 1));
    }
    text
}

/// The project's name, folder and file, as the New call will create them.
fn project_location<'a>(args: &'a Arguments<'_>) -> Result<(&'a str, &'a str, String), ToolError> {
    let name = args.req("projectName", Kind::Identifier)?;
    let output = args.opt("outputDirectory", Kind::Path)?.unwrap_or(name);
    let project = format!("{}/{name}.csproj", output.trim_end_matches('/'));
    Ok((name, output, project))
}

fn new_console_app(args: &Arguments<'_>) -> Result<String, ToolError> {
    let (name, output, project) = project_location(args)?;
    let framework = args.opt("framework", Kind::Framework)?;
    let runtime = args.opt("runtime", Kind::Runtime)?;
    let mut list = vec![
        format!(
            "Create it: {}.",
            call(
                "dotnet_project",
                with(
                    json!({ "action": "New", "template": "console", "name": name, "output": output }),
                    "framework",
                    framework
                )
            )
        ),
        format!(
            "Build it: {}; fix any compiler errors it reports.",
            call("dotnet_project", json!({ "action": "Build", "project": project }))
        ),
        format!("Run it: {}.", call("dotnet_project", json!({ "action": "Run", "project": project }))),
    ];
    if let Some(runtime) = runtime {
        list.push(format!(
            "Publish it for {runtime}: {}.",
            call(
                "dotnet_project",
                json!({ "action": "Publish", "project": project, "runtime": runtime, "configuration": "Release" })
            )
        ));
    }
    Ok(steps(format!("Create a new .NET console application named {name} in {output}."), list))
}

fn create_new_webapi(args: &Arguments<'_>) -> Result<String, ToolError> {
    let (name, output, project) = project_location(args)?;
    let framework = args.opt("framework", Kind::Framework)?;
    let template = args.opt("template", Kind::Identifier)?.unwrap_or("webapi");
    Ok(steps(
        format!("Create a new ASP.NET Core Web API named {name} in {output} from the {template} template."),
        vec![
            format!(
                "Create it: {}.",
                call(
                    "dotnet_project",
                    with(
                        json!({ "action": "New", "template": template, "name": name, "output": output }),
                        "framework",
                        framework
                    )
                )
            ),
            format!(
                "Build it: {}; fix any errors.",
                call("dotnet_project", json!({ "action": "Build", "project": project }))
            ),
            format!(
                "Start it in the background: {}; it returns a sessionId.",
                call("dotnet_project", json!({ "action": "Run", "project": project, "startMode": "Background" }))
            ),
            format!(
                "Read its log for the URLs it listens on ({}), and stop it when done ({}).",
                call("dotnet_project", json!({ "action": "Logs", "sessionId": "<sessionId>" })),
                call("dotnet_project", json!({ "action": "Stop", "sessionId": "<sessionId>" }))
            ),
        ],
    ))
}

fn new_webapi_with_ef(args: &Arguments<'_>) -> Result<String, ToolError> {
    let (name, output, project) = project_location(args)?;
    let framework = args.opt("framework", Kind::Framework)?;
    let provider = args.opt("dbProvider", Kind::Text)?.unwrap_or("SqlServer");
    let Some((provider, package)) = PROVIDERS.iter().find(|(known, _)| known.eq_ignore_ascii_case(provider)) else {
        let known: Vec<&str> = PROVIDERS.iter().map(|(name, _)| *name).collect();
        return Err(ToolError::invalid_argument(
            "dbProvider",
            format!("'{provider}' is not one of {}", known.join(", ")),
        ));
    };
    let mut list = vec![
        format!(
            "Create the project: {}.",
            call(
                "dotnet_project",
                with(
                    json!({ "action": "New", "template": "webapi", "name": name, "output": output }),
                    "framework",
                    framework
                )
            )
        ),
        format!(
            "Add the {provider} provider: {}.",
            call("dotnet_package", json!({ "action": "Add", "packageId": package, "project": project }))
        ),
        format!(
            "Add the design-time package: {}.",
            call(
                "dotnet_package",
                json!({ "action": "Add", "packageId": "Microsoft.EntityFrameworkCore.Design", "project": project })
            )
        ),
        format!(
            "Make sure the EF Core tools are installed: {}.",
            call("dotnet_tool", json!({ "action": "Install", "packageId": "dotnet-ef", "global": true }))
        ),
        format!(
            "Write a DbContext with one entity, register it in Program.cs with {provider}, and add its connection string to appsettings.json."
        ),
        format!(
            "Add the first migration: {}.",
            call("dotnet_ef", json!({ "action": "MigrationsAdd", "name": "InitialCreate", "project": project }))
        ),
    ];
    if *provider != "InMemory" {
        list.push(format!(
            "Create the database: {}.",
            call("dotnet_ef", json!({ "action": "DatabaseUpdate", "project": project }))
        ));
    }
    Ok(steps(
        format!("Create an ASP.NET Core Web API named {name} in {output} with Entity Framework Core on {provider}."),
        list,
    ))
}

fn add_package_and_restore(args: &Arguments<'_>) -> Result<String, ToolError> {
    let package = args.req("packageId", Kind::PackageId)?;
    let project = args.opt("projectPath", Kind::Path)?;
    let version = args.opt("version", Kind::Version)?;
    let framework = args.opt("framework", Kind::Framework)?;
    let add = with(
        with(with(json!({ "action": "Add", "packageId": package }), "project", project), "version", version),
        "framework",
        framework,
    );
    Ok(steps(
        format!(
            "Add the NuGet package {package} to {} and restore.",
            project.unwrap_or("the project in the workspace")
        ),
        vec![
            format!("Add it: {}.", call("dotnet_package", add)),
            format!("Restore: {}.", call("dotnet_project", with(json!({ "action": "Restore" }), "project", project))),
            "Report the version that was resolved, and any NU warnings or errors.".to_owned(),
        ],
    ))
}

fn run_tests_with_coverage(args: &Arguments<'_>) -> Result<String, ToolError> {
    let project = args.opt("projectPath", Kind::Path)?;
    let filter = args.opt("filter", Kind::Text)?;
    let configuration = args.opt("configuration", Kind::Configuration)?;
    let framework = args.opt("framework", Kind::Framework)?;
    let test = json!({ "action": "Test", "collect": "XPlat Code Coverage" });
    let test = with(
        with(with(with(test, "project", project), "filter", filter), "configuration", configuration),
        "framework",
        framework,
    );
    Ok(steps(
        format!("Run the tests of {} with code coverage.", project.unwrap_or("the workspace")),
        vec![
            format!("Run them: {}.", call("dotnet_project", test)),
            "Summarise: passed, failed and skipped counts, each failure with its message, and where the coverage report was written.".to_owned(),
        ],
    ))
}
