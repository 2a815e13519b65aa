//! The actions of `dotnet_solution`: edits through the CLI (`edit`: Create, Add, Remove;
//! `migrate`: Migrate) and
//! reading (`inspect`: List through the CLI; Analyze, Dependencies and Validate from the files);
//! and what they share: the solution named or found, the projects given, runs and results.

pub mod edit;
pub mod inspect;
pub mod migrate;

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::Ran,
    kit::Call,
    params::{self, Kind},
    redact::redacted_command_line,
    respond::Failure,
    workspace::{self, Target},
};
use serde_json::{Value, json};

fn invalid(parameter: &str, reason: &str, message: &str) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, message))
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The `solution` parameter: a `.sln` or `.slnx` file, or a folder.
fn solution_param<'a>(call: &Call<'a>) -> Result<Option<&'a str>, ErrorResponse> {
    let Some(solution) = call.params().opt("solution", Kind::ProjectPath)? else { return Ok(None) };
    match Path::new(solution).extension().and_then(|ext| ext.to_str()) {
        Some(ext) if !ext.eq_ignore_ascii_case("sln") && !ext.eq_ignore_ascii_case("slnx") => Err(invalid(
            "solution",
            "invalid value",
            &format!("Invalid argument 'solution': must be a .sln or .slnx file or a folder, not a .{ext} file."),
        )),
        _ => Ok(Some(solution)),
    }
}

/// The solution for a dotnet command: the parameter, else the one in the client's roots,
/// else `None` (dotnet's default: the one in the working directory).
async fn solution_for_cli(call: &Call<'_>) -> Result<Option<String>, ErrorResponse> {
    if let Some(solution) = solution_param(call)? {
        return Ok(Some(solution.to_owned()));
    }
    let found = workspace::discover(call.ctx(), Target::Solution, "solution").await?;
    Ok(found.map(|path| path.display().to_string()))
}

/// The solution file to read: the parameter (a folder stands for the one solution in it),
/// else the one in the client's roots, else the one in the working directory.
async fn solution_file(call: &Call<'_>) -> Result<PathBuf, ErrorResponse> {
    let path = match solution_param(call)? {
        Some(given) => call.cwd().join(given),
        None => match workspace::discover(call.ctx(), Target::Solution, "solution").await? {
            Some(found) => found,
            None => call.cwd().to_owned(),
        },
    };
    if path.is_file() {
        return Ok(path);
    }
    if !path.is_dir() {
        let message = format!("Invalid argument 'solution': the file '{}' does not exist.", path.display());
        return Err(invalid("solution", "not found", &message));
    }
    match workspace::candidates_in(&path, Target::Solution).as_slice() {
        [only] => Ok(only.clone()),
        [] => Err(invalid(
            "solution",
            "not found",
            &format!("There is no .sln or .slnx file in '{}'; name one with 'solution'.", path.display()),
        )),
        several => Err(invalid(
            "solution",
            "ambiguous",
            &format!(
                "'{}' holds several solutions: {}. Name one with 'solution'.",
                path.display(),
                several.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// How prose names the target solution.
fn target_name(call: &Call<'_>, solution: Option<&str>) -> String {
    match solution {
        Some(solution) => solution.to_owned(),
        None => format!("the solution in {}", call.cwd().display()),
    }
}

/// The `projects` parameter: one or more project paths.
fn projects<'a>(call: &Call<'a>) -> Result<Vec<&'a str>, ErrorResponse> {
    let required =
        || invalid("projects", "required", "Invalid argument 'projects': is required: a list of project files.");
    let items = match call.params().raw("projects") {
        None => return Err(required()),
        Some(Value::Array(items)) if items.is_empty() => return Err(required()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            let message = format!("Invalid argument 'projects': must be a list of project files, not {other}.");
            return Err(invalid("projects", "invalid type", &message));
        }
    };
    items
        .iter()
        .map(|item| {
            let path = item.as_str().filter(|path| !path.trim().is_empty()).ok_or_else(|| {
                invalid("projects", "invalid type", "Every item of 'projects' must be a non-empty string.")
            })?;
            params::check("projects", Kind::ProjectPath, path)?;
            Ok(path)
        })
        .collect()
}

/// Runs dotnet; a non-zero exit is the contract's error for it.
async fn run(call: &Call<'_>, args: Vec<String>, description: &str) -> Result<Ran, Failure> {
    call.run_ok(call.command(args, description)).await
}

/// Finishes structured content: the command as run (redacted), nulls dropped.
fn fields_of(ran: Option<&Ran>, mut fields: Value) -> Value {
    if let Some(ran) = ran {
        fields["command"] = json!(redacted_command_line("dotnet", &ran.argv[1..]));
    }
    if let Some(object) = fields.as_object_mut() {
        object.retain(|_, value| !value.is_null());
    }
    fields
}

/// `text` with its first letter in upper case, to start a sentence.
fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn strings_of(list: &Value) -> Vec<String> {
    list.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}
