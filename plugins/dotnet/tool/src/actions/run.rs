//! Run: a local tool's command, with its own arguments after `--`, each checked so none can
//! reach dotnet or read as more than one token.

use dotnet_support::{
    errors::ErrorResponse,
    exec::Command,
    kit::{Call, Outcome, Reason, Split, invalid},
    params::{Kind, Params},
    redact::redact_args,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::change::{push_value, sources};
use crate::{MAX_TOOL_ARG_CHARS, MAX_TOOL_ARGS, scope};

// Run: the tool and its arguments.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolRan {
    tool_name: String,
    /// Redacted.
    args: Vec<String>,
}

// Exec: the package, the version asked for, and its arguments.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Executed {
    package_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    /// Redacted.
    args: Vec<String>,
}

/// Characters a tool argument may hold besides letters and digits: enough for words, paths,
/// versions, glob-free patterns and `key=value`, nothing a shell or a response file would read.
const RUN_ARG_PUNCTUATION: &str = " _.,:=/\\+@%~-";

/// Checks one argument for the tool that `Run` starts. Each becomes one argv entry after `--`, so
/// none can reach dotnet itself; these rules keep them plain for the tool too: only letters,
/// digits and [`RUN_ARG_PUNCTUATION`]; no `@file` response files; an option is one well-formed
/// token (`-v`, `--check`, `--format=json`), never several glued together.
pub fn check_run_arg(name: &str, arg: &str) -> Result<(), ErrorResponse> {
    let fail = |reason: Reason, message: String| Err(invalid(name, reason, message));
    if arg.is_empty() || arg.chars().count() > MAX_TOOL_ARG_CHARS {
        return fail(
            Reason::Value,
            format!("Invalid argument '{name}': must be 1 to {MAX_TOOL_ARG_CHARS} characters long."),
        );
    }
    if let Some(bad) = arg.chars().find(|c| !c.is_ascii_alphanumeric() && !RUN_ARG_PUNCTUATION.contains(*c)) {
        return fail(
            Reason::Characters,
            format!(
                "Invalid argument '{name}': contains {bad:?}; tool arguments may hold letters, digits and \"{RUN_ARG_PUNCTUATION}\" only."
            ),
        );
    }
    if arg == "-" {
        // The usual name of standard input.
        return Ok(());
    }
    if arg.starts_with('@') {
        return fail(
            Reason::Value,
            format!(
                "Invalid argument '{name}': starts with '@', which tools read as a response file of more arguments."
            ),
        );
    }
    if let Some(option) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) {
        let option_name = option.split(['=', ':']).next().unwrap_or_default();
        let well_formed = option_name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && option_name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !option.contains(' ');
        if !well_formed {
            return fail(
                Reason::Value,
                format!(
                    "Invalid argument '{name}': ('{arg}') is not one well-formed option such as -v, --check or --format=json."
                ),
            );
        }
    }
    Ok(())
}

/// The `args` of `Run` and `Exec`, by the kit's list rule (an array; blank entries dropped),
/// each checked by [`check_run_arg`].
fn run_args(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let args = params.list_with("args", Split::Never, MAX_TOOL_ARGS, check_run_arg)?;
    Ok(args.into_iter().map(str::to_owned).collect())
}

/// Runs `dotnet tool run <toolName> [-- <args>...]` in the folder whose manifest lists the tool.
pub async fn run(call: &Call<'_>) -> Outcome {
    let command = call.params().req("toolName", Kind::Identifier)?;
    let tool_args = run_args(call.params())?;
    let cwd = scope::folder(call, true).await?;
    let mut args = vec!["tool".to_owned(), "run".to_owned(), command.to_owned()];
    if !tool_args.is_empty() {
        args.push("--".into());
        args.extend(tool_args.iter().cloned());
    }
    let description = format!("running the local tool {command}");
    let ran = call.run_ok(Command::new(args, &cwd, description)).await?;
    Ok(Reply::new(format!("The local tool '{command}' ran and exited with code 0."))
        .output(ran.outcome.transcript.clone())
        .result(ToolRan { tool_name: command.to_owned(), args: redact_args(&tool_args) }))
}

/// What an SDK before 10 says to `dotnet tool exec`.
const EXEC_UNKNOWN: &str = "Unrecognized command or argument 'exec'";

/// Exec: `dotnet tool exec <packageId> [--version <v>] [--prerelease] [--add-source <s>]
/// [--configfile <f>] --yes [-- <args>...]`, SDK 10's one-shot run of a tool package without
/// installing it (the package goes to NuGet's cache). `--yes` answers the download question
/// nobody could answer here.
pub async fn exec(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let package = params.req("packageId", Kind::PackageId)?;
    let version = params.opt("version", Kind::Version)?;
    let tool_args = run_args(params)?;
    let mut args = vec!["tool".to_owned(), "exec".to_owned(), package.to_owned()];
    push_value(&mut args, "--version", version);
    if params.flag("prerelease") {
        args.push("--prerelease".into());
    }
    sources(&mut args, params)?;
    args.push("--yes".into());
    if !tool_args.is_empty() {
        args.push("--".into());
        args.extend(tool_args.iter().cloned());
    }
    let description = format!("running the tool package {package} once, without installing it");
    let ran = call.run(call.command(args, description)).await?;
    if !ran.succeeded() {
        if ran.outcome.transcript.contains(EXEC_UNKNOWN) {
            return Err(ran
                .not_available(
                    "Exec",
                    "dotnet tool exec (one-shot tools) needs .NET SDK 10 or later",
                    vec![
                        "Install the .NET SDK 10 or later: https://dotnet.microsoft.com/download".to_owned(),
                        "Install the tool (Install), then Run it.".to_owned(),
                    ],
                )
                .into());
        }
        return Err(ran.failure().into());
    }
    let at = version.map(|v| format!(" {v}")).unwrap_or_default();
    Ok(Reply::new(format!(
        "The tool package '{package}'{at} ran once, without being installed, and exited with code 0."
    ))
    .output(ran.outcome.transcript.clone())
    .result(Executed {
        package_id: package.to_owned(),
        version: version.map(str::to_owned),
        args: redact_args(&tool_args),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_arguments_are_plain_tokens() {
        for good in ["--check", ".", "-v", "--format=json", "src/My App", "a,b", "x@1.0", "C:\\dir", "-"] {
            check_run_arg("args[0]", good).unwrap_or_else(|error| panic!("{good}: {}", error.errors[0].message));
        }
        for bad in ["", "@extra.rsp", "a;b", "$(id)", "`id`", "a|b", "x\ny", "---x", "--a --b", "-=x", "\"q\""] {
            assert!(check_run_arg("args[2]", bad).is_err(), "{bad:?} was accepted");
        }
        let error = check_run_arg("args[2]", "@extra.rsp").unwrap_err();
        let data = error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap();
        assert_eq!(data["parameter"], "args[2]");
    }
}
