//! Creating projects: New (`dotnet new <template>`, locking the folder it writes),
//! ListTemplateOptions (`dotnet new <template> --help`, parsed), and Convert (`dotnet project
//! convert <app.cs>`, SDK 10: a file-based app becomes a project).

use std::{path::Path, sync::LazyLock};

use dotnet_support::{
    errors::ErrorResponse,
    exec::ProgressKind,
    kit::{Call, Outcome, Reason, Split, TargetParam, invalid, prose},
    locking::{self, LockTarget},
    params::Kind,
    respond::{Failure, Reply},
    template_help::{self, TemplateHelp},
};
use mcp_plugin_api::locks::LockScope;
use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;

use super::{MAX_LIST, Made, command_reply, completed, push, push_flag, run::is_file_based_app, run_here, simple};

/// One template option token of `dotnet new`.
static TEMPLATE_OPTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_.=:+\-]{1,200}$").expect("template option pattern is valid"));

// ListTemplateOptions: the template's options, as its help describes them.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TemplateOptions {
    // The template's short name, as asked for.
    template: String,
    #[serde(flatten)]
    help: TemplateHelp,
}

/// ListTemplateOptions: `dotnet new <template> --help`, parsed.
pub(super) async fn template_options(call: &Call<'_>) -> Outcome {
    let template = call.params().req("template", Kind::Identifier)?;
    let args = vec!["new".to_owned(), template.to_owned(), "--help".to_owned()];
    let command = call.command(args, format!("Reading the options of '{template}'")).progress(ProgressKind::None);
    let ran = call.run(command).await?;
    if !ran.succeeded() {
        let mut failure = Failure::from(ran.failure());
        template_not_found(&mut failure.error, template);
        return Err(failure);
    }
    let help = template_help::parse(&ran.outcome.stdout);
    let lines: Vec<String> = help
        .options
        .iter()
        .map(|option| {
            let default = option.default_value.as_ref().map(|value| format!(" (default {value})")).unwrap_or_default();
            format!("{}: {}{default}", option.option, option.description)
        })
        .collect();
    let summary = format!("'{template}' ({}) has {}.", help.name, prose::count(help.options.len(), "template option"));
    Ok(Reply::new(summary).section("Options", lines).result(TemplateOptions { template: template.to_owned(), help }))
}

/// Convert: `dotnet project convert <app.cs> [-o <output>] [--force] [--delete-source]`. The SDK
/// prints nothing on success; the project file it wrote (`<output>/<name>.csproj`, the output
/// defaulting to a folder named after the file beside it) is checked and reported.
pub(super) async fn convert(call: &Call<'_>) -> Outcome {
    let given = call.target_given(TargetParam::project())?;
    let app = match given {
        Some(app) if is_file_based_app(app) => app,
        given => {
            let reason = if given.is_some() { Reason::Value } else { Reason::Required };
            let message = "Convert needs 'project': the file-based app (a .cs file) to turn into a project.";
            return Err(invalid("project", reason, message).into());
        }
    };
    let mut args = vec!["project".to_owned(), "convert".to_owned(), app.to_owned()];
    push(call, &mut args, "-o", "output", Kind::Path)?;
    push_flag(call, &mut args, "--force", "force");
    push_flag(call, &mut args, "--delete-source", "deleteSource");
    let file = call.cwd().join(app);
    let name = file.file_stem().and_then(|stem| stem.to_str()).unwrap_or("app").to_owned();
    let folder = match call.params().opt("output", Kind::Path)? {
        Some(output) => call.cwd().join(output),
        None => file.parent().unwrap_or(Path::new(".")).join(&name),
    };
    let project_file = locking::canonical(&folder).join(format!("{name}.csproj"));
    simple(call, args, Some(app), ProgressKind::None, move |_| {
        let summary = if project_file.is_file() {
            format!("Converted {app} into the project {}.", project_file.display())
        } else {
            format!("Converted {app}; the project file was expected at {}.", project_file.display())
        };
        (summary, Made { project_file: Some(project_file.display().to_string()), ..Made::default() })
    })
    .await
}

/// New: `dotnet new <template>`, under the lock of the folder it writes.
pub(super) async fn new_project(call: &Call<'_>) -> Outcome {
    let template = call.params().req("template", Kind::Identifier)?;
    let mut args = vec!["new".to_owned(), template.to_owned()];
    push(call, &mut args, "-n", "name", Kind::Text)?;
    push(call, &mut args, "-o", "output", Kind::Path)?;
    push(call, &mut args, "-f", "framework", Kind::Framework)?;
    push_flag(call, &mut args, "--no-restore", "noRestore");
    let options = call.params().list_with("additionalOptions", Split::Whitespace, MAX_LIST, |name, token| {
        if TEMPLATE_OPTION.is_match(token) {
            return Ok(());
        }
        let message = format!("Invalid argument '{name}': '{token}' may hold only letters, digits and _ . = : + -.");
        Err(invalid(name, Reason::Characters, message))
    })?;
    args.extend(options.into_iter().map(str::to_owned));
    // The folder the template writes to, whether it exists yet or not.
    let output = call.params().opt("output", Kind::Path)?.unwrap_or(".");
    let folder = locking::canonical(&call.cwd().join(output));
    let target = LockTarget { scope: LockScope::WorkingDirectory, key: folder.display().to_string() };
    let _guard = call.lock(&target).await?;
    let ran = run_here(call, args, format!("Creating a '{template}' project"), ProgressKind::Lines).await?;
    if !ran.succeeded() {
        let mut failure = Failure::from(ran.failure());
        template_not_found(&mut failure.error, template);
        return Err(failure);
    }
    let summary = ran
        .outcome
        .stdout
        .lines()
        .find(|line| line.contains("was created successfully"))
        .map_or_else(|| format!("The '{template}' template ran."), |line| line.trim().to_owned());
    let summary = match post_action_failure(&ran.outcome.stdout) {
        Some(failure) => format!("{summary} {failure}"),
        None => summary,
    };
    let made = Made {
        template: Some(template.to_owned()),
        name: call.params().opt("name", Kind::Text)?.map(str::to_owned),
        ..Made::default()
    };
    // What `dotnet new` printed beyond its first line (post-action notes, what to do next) is
    // read by nobody: the model sees it.
    Ok(command_reply(completed(&ran, summary, None, made)).output(ran.outcome.transcript.clone()))
}

/// What `dotnet new` says when the template was written but a post-creation action (the restore)
/// failed, which it reports with exit code 0: `Post action failed.` and the SDK's
/// `Manual instructions: ...` line after it.
fn post_action_failure(stdout: &str) -> Option<String> {
    let mut lines = stdout.lines().map(str::trim).skip_while(|line| *line != "Post action failed.");
    let failed = lines.next()?;
    let instructions = lines.find(|line| line.starts_with("Manual instructions:"));
    Some(instructions.map_or_else(|| failed.to_owned(), |instructions| format!("{failed} {instructions}")))
}

/// Adds the way out to a `dotnet new` failure for an unknown template (exit code 103).
fn template_not_found(error: &mut ErrorResponse, template: &str) {
    if error.exit_code != 103 {
        return;
    }
    let first = &mut error.errors[0];
    first.hint = Some(format!("No installed template is named '{template}'."));
    first.alternatives = Some(vec![
        "List the installed templates: dotnet_sdk with action ListTemplates.".to_owned(),
        format!("Search NuGet.org for a template package: dotnet_sdk with action SearchTemplates and '{template}'."),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_post_action_is_said_with_the_sdks_instructions() {
        // SDK 10.0.401: `dotnet new console -o C1` under a Directory.Build.props that references
        // a package no source serves (exit code 0).
        let stdout = "The template \"Console App\" was created successfully.\n\n\
                      Processing post-creation actions...\n\
                      Restoring /src/C1/C1.csproj:\n\
                      \x20 Determining projects to restore...\n\
                      /src/C1/C1.csproj : error NU1101: Unable to find package Contoso.Internal.Logging. No packages exist with this id in source(s): nuget.org\n\
                      \x20 Failed to restore /src/C1/C1.csproj (in 313 ms).\n\
                      Restore failed.\n\
                      Post action failed.\n\
                      Manual instructions: Run 'dotnet restore'\n\n\n";
        assert_eq!(
            post_action_failure(stdout).as_deref(),
            Some("Post action failed. Manual instructions: Run 'dotnet restore'")
        );
        let restored = "The template \"Console App\" was created successfully.\n\nProcessing post-creation actions...\n\
                        Restoring /src/C1/C1.csproj:\nRestore succeeded.\n";
        assert_eq!(post_action_failure(restored), None);
    }

    #[test]
    fn template_tokens() {
        assert!(TEMPLATE_OPTION.is_match("--use-program-main") && TEMPLATE_OPTION.is_match("--langVersion=12"));
        assert!(!TEMPLATE_OPTION.is_match("--output=/etc") && !TEMPLATE_OPTION.is_match("a;b"));
    }
}
