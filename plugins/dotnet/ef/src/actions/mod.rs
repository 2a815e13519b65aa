//! The flow every `dotnet_ef` action shares (the request checked, the project found, the user
//! asked, the project locked, `dotnet ef` run, a missing tool recognised), and the replies by
//! group: migrations, the database, DbContext types.

pub mod database;
pub mod dbcontext;
pub mod migrations;

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::ErrorResponse,
    exec::{ProgressKind, Ran},
    kit::{Call, Consent, Outcome, Reason, TargetParam, invalid},
    locking::LockTarget,
    respond::{Failure, Reply},
    settings::DotnetSettings,
};

use crate::{Action, INSTALL_COMMAND, parse, request::Request};

/// Runs one `dotnet ef` action up to its output: the request checked, the project found (the
/// parameter, else the one in the client's roots), the user asked, the project locked while
/// `dotnet ef` runs, a failure (a missing tool recognised) answered.
pub async fn run<'a>(action: Action, call: &Call<'a>) -> Result<(Request<'a>, Ran), Failure> {
    let request = Request::read(action, call.params())?;
    let project = call.cli_target(TargetParam::project()).await?;
    let target = LockTarget::for_path(project.as_deref().map(Path::new), call.cwd());
    confirm(&request, &target.key, call).await?;
    let lock = match request.mutates() {
        true => Some(call.lock(&target).await?),
        false => None,
    };
    let argv = request.argv(project.as_deref());
    let description = format!("dotnet {}", argv[..3].join(" "));
    let mut command = call.command(argv, description).progress(ProgressKind::Ef);
    if let Some(connection) = request.connection {
        command = command.secret(connection);
    }
    let ran = call.run(command).await?;
    drop(lock);
    if !ran.succeeded() {
        return Err(failure_of(&ran, call.settings()).into());
    }
    Ok((request, ran))
}

/// The answer of an action from what it read of the run: its reply, or (the output was not
/// what this plugin reads) the contract's error for unreadable output.
pub fn answer(ran: &Ran, replied: Result<Reply, String>) -> Outcome {
    let hint = "Check the version of dotnet-ef (dotnet ef --version); this plugin reads the --json output of EF \
                Core 5 and later.";
    replied.map_err(|reason| Failure::from(ran.unreadable(&reason, hint)))
}

/// Asks before a destructive action; `Err` when the action must not run.
async fn confirm(request: &Request<'_>, target: &str, call: &Call<'_>) -> Result<(), Failure> {
    let (question, needs_force) = match request.action {
        Action::DatabaseDrop if request.dry_run => return Ok(()),
        Action::DatabaseDrop => {
            let context = request.context.unwrap_or("the project's DbContext");
            (
                format!(
                    "Drop the database of {context} used by {target}? The database and all its data are deleted; \
                     this cannot be undone."
                ),
                true,
            )
        }
        Action::MigrationsRemove => {
            let revert = if request.force {
                " Because force is set, it is also reverted in the database if it was applied."
            } else {
                ""
            };
            (
                format!(
                    "Remove the last migration of {target}? Its migration files are deleted and the model snapshot \
                     is reverted.{revert}"
                ),
                false,
            )
        }
        Action::MigrationsAdd
        | Action::MigrationsList
        | Action::MigrationsScript
        | Action::DatabaseUpdate
        | Action::DbContextList
        | Action::DbContextInfo
        | Action::DbContextScaffold => return Ok(()),
    };
    match call.confirm(&question, target).await? {
        Consent::NotAsked if needs_force && !request.force => Err(invalid(
            "force",
            Reason::Required,
            "DatabaseDrop deletes the database and all its data, and this client cannot be asked to confirm it. \
             Ask the user, then call again with force=true; or call with dryRun=true to see which database would \
             be dropped.",
        )
        .into()),
        Consent::Confirmed | Consent::NotAsked => Ok(()),
    }
}

/// The folder of the user's global .NET tools as the SDK places it (`$DOTNET_CLI_HOME/.dotnet/tools`,
/// else `$HOME/.dotnet/tools`), read from the plugin's `Environment` first, then the server's.
fn global_tools_folder(settings: &DotnetSettings) -> Option<PathBuf> {
    let var = |name: &str| {
        settings
            .environment
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .or_else(|| std::env::var(name).ok())
            .filter(|value| !value.is_empty())
    };
    var("DOTNET_CLI_HOME").or_else(|| var("HOME")).map(|home| Path::new(&home).join(".dotnet").join("tools"))
}

/// `CAPABILITY_NOT_AVAILABLE` for dotnet-ef from the failed run (its command, exit code, stderr
/// and output kept by [`Ran::not_available`]), with the remedy as `hint` and one fact a program
/// can act on in `additionalData`.
fn ef_unavailable(
    ran: &Ran,
    reason: &str,
    alternatives: Vec<String>,
    hint: String,
    fact: (&str, &str),
) -> ErrorResponse {
    let mut response = ran.not_available("dotnet-ef", reason, alternatives);
    let error = &mut response.errors[0];
    error.hint = Some(hint);
    if let Some(data) = error.data.as_mut() {
        data.additional_data.get_or_insert_with(Default::default).insert(fact.0.to_owned(), fact.1.to_owned());
    }
    response
}

/// The error of a failed run: the missing dotnet-ef tool, or what the output says.
fn failure_of(ran: &Ran, settings: &DotnetSettings) -> ErrorResponse {
    let Some(manifest_lists_it) = parse::ef_missing(&ran.outcome.transcript) else {
        return ran.failure();
    };
    let local =
        "Or as a local tool of the repository: dotnet new tool-manifest (once), then dotnet tool install dotnet-ef";
    if !manifest_lists_it
        && let Some(folder) = global_tools_folder(settings).filter(|folder| folder.join("dotnet-ef").is_file())
    {
        // `dotnet ef` finds global tools only through PATH (SDK 10.0.401 answers "Could not
        // execute ..."), so installing it again would fail as "already installed".
        let folder = folder.display().to_string();
        return ef_unavailable(
            ran,
            &format!(
                "dotnet-ef is installed as a global tool in {folder}, but that folder is not on the PATH the server gives dotnet, and dotnet finds global tools only through PATH"
            ),
            vec![
                format!(
                    "Add {folder} to the PATH of the server process, or set PATH in the plugin's Environment setting (Plugins.Settings.<plugin>.Environment)."
                ),
                local.to_owned(),
            ],
            format!("Put {folder} on the server's PATH, then call again."),
            ("globalToolsFolder", &folder),
        );
    }
    if manifest_lists_it {
        return ef_unavailable(
            ran,
            "the repository's tool manifest lists dotnet-ef, but it is not restored; run `dotnet tool restore`",
            vec![
                "Restore the tools of the repository's manifest: dotnet tool restore".to_owned(),
                format!("Install the EF Core tools for the user: {INSTALL_COMMAND}"),
                local.to_owned(),
            ],
            "Run `dotnet tool restore`, then call again.".to_owned(),
            ("installCommand", "dotnet tool restore"),
        );
    }
    ef_unavailable(
        ran,
        &format!("the dotnet-ef tool is not installed; install it with `{INSTALL_COMMAND}`"),
        vec![format!("Install the EF Core tools for the user: {INSTALL_COMMAND}"), local.to_owned()],
        format!("Run `{INSTALL_COMMAND}`, then call again."),
        ("installCommand", INSTALL_COMMAND),
    )
}
