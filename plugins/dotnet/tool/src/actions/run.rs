//! Run: a local tool's command, with its own arguments after `--`, each checked so none can
//! reach dotnet or read as more than one token.

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    kit::{Call, Outcome, Shape, ran_fields},
    params::{Kind, Params},
    redact::redact_args,
    respond::Reply,
};
use serde_json::{Value, json};

use super::{
    change::{push_value, sources},
    string_list,
};
use crate::scope;

/// Run: the tool and its arguments (redacted).
pub fn shape() -> Shape {
    Shape::new(json!({ "toolName": { "type": "string" }, "args": string_list() }), &["toolName", "args"]).ran()
}

/// Characters a `Run` argument may hold besides letters and digits: enough for words, paths,
/// versions, glob-free patterns and `key=value`, nothing a shell or a response file would read.
const RUN_ARG_PUNCTUATION: &str = " _.,:=/\\+@%~-";
/// Most arguments `Run` passes to a tool.
const MAX_RUN_ARGS: usize = 64;
/// Longest single `Run` argument.
const MAX_RUN_ARG_CHARS: usize = 1024;

fn invalid(parameter: &str, reason: &str, message: String) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, &message))
}

/// Checks one argument for the tool that `Run` starts. Each becomes one argv entry after `--`, so
/// none can reach dotnet itself; these rules keep them plain for the tool too: only letters,
/// digits and [`RUN_ARG_PUNCTUATION`]; no `@file` response files; an option is one well-formed
/// token (`-v`, `--check`, `--format=json`), never several glued together.
pub fn check_run_arg(index: usize, arg: &str) -> Result<(), ErrorResponse> {
    let name = format!("args[{index}]");
    let fail = |reason: &str, message: String| Err(invalid(&name, reason, message));
    if arg.is_empty() || arg.chars().count() > MAX_RUN_ARG_CHARS {
        return fail(
            "invalid value",
            format!("Invalid argument '{name}': must be 1 to {MAX_RUN_ARG_CHARS} characters long."),
        );
    }
    if let Some(bad) = arg.chars().find(|c| !c.is_ascii_alphanumeric() && !RUN_ARG_PUNCTUATION.contains(*c)) {
        return fail(
            "invalid characters",
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
            "invalid value",
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
                "invalid value",
                format!(
                    "Invalid argument '{name}': ('{arg}') is not one well-formed option such as -v, --check or --format=json."
                ),
            );
        }
    }
    Ok(())
}

/// The `args` of `Run`, checked.
fn run_args(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let Some(value) = params.raw("args") else { return Ok(Vec::new()) };
    let Some(items) = value.as_array() else {
        return Err(invalid(
            "args",
            "invalid type",
            "Invalid argument 'args': must be an array of strings.".to_owned(),
        ));
    };
    if items.len() > MAX_RUN_ARGS {
        return Err(invalid(
            "args",
            "too many",
            format!("Invalid argument 'args': holds more than {MAX_RUN_ARGS} arguments."),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let arg = item.as_str().ok_or_else(|| {
                invalid(
                    &format!("args[{index}]"),
                    "invalid type",
                    format!("Invalid argument 'args[{index}]': must be a string."),
                )
            })?;
            check_run_arg(index, arg).map(|()| arg.to_owned())
        })
        .collect()
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
    let ran = call.run_ok(dotnet_support::exec::Command::new(args.clone(), &cwd, description)).await?;
    let mut structured = ran_fields(&ran);
    structured.insert("toolName".into(), json!(command));
    structured.insert("args".into(), json!(redact_args(&tool_args)));
    Ok(Reply::new(format!("The local tool '{command}' ran and exited with code 0."))
        .output(ran.outcome.transcript.clone())
        .structured(Value::Object(structured)))
}

/// Exec: the package, the version asked for, and its arguments (redacted).
pub fn exec_shape() -> Shape {
    Shape::new(
        json!({ "packageId": { "type": "string" }, "version": { "type": "string" }, "args": string_list() }),
        &["packageId", "args"],
    )
    .ran()
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
    let mut structured = ran_fields(&ran);
    structured.insert("packageId".into(), json!(package));
    if let Some(version) = version {
        structured.insert("version".into(), json!(version));
    }
    structured.insert("args".into(), json!(redact_args(&tool_args)));
    let at = version.map(|v| format!(" {v}")).unwrap_or_default();
    Ok(Reply::new(format!(
        "The tool package '{package}'{at} ran once, without being installed, and exited with code 0."
    ))
    .output(ran.outcome.transcript.clone())
    .structured(Value::Object(structured)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_arguments_are_plain_tokens() {
        for good in ["--check", ".", "-v", "--format=json", "src/My App", "a,b", "x@1.0", "C:\\dir", "-"] {
            check_run_arg(0, good).unwrap_or_else(|error| panic!("{good}: {}", error.errors[0].message));
        }
        for bad in ["", "@extra.rsp", "a;b", "$(id)", "`id`", "a|b", "x\ny", "---x", "--a --b", "-=x", "\"q\""] {
            assert!(check_run_arg(2, bad).is_err(), "{bad:?} was accepted");
        }
        let error = check_run_arg(2, "@extra.rsp").unwrap_err();
        let data = error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap();
        assert_eq!(data["parameter"], "args[2]");
    }
}
