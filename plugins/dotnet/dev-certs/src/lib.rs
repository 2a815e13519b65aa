//! The `dotnet_dev_certs` plugin: one tool, `dotnet_dev_certs`, for the ASP.NET Core HTTPS
//! development certificate (`dotnet dev-certs https`) and a project's user secrets
//! (`dotnet user-secrets`).
//!
//! | action | command |
//! |---|---|
//! | `CertificateTrust` | `dev-certs https --trust` |
//! | `CertificateCheck` | `dev-certs https --check [--trust]` |
//! | `CertificateClean` | `dev-certs https --clean` |
//! | `CertificateExport` | `dev-certs https --export-path PATH [--format pfx\|pem] [--password PW \| --no-password]` |
//! | `SecretsInit` | `user-secrets init [--project P]` |
//! | `SecretsSet` | `user-secrets set KEY VALUE [--project P]` |
//! | `SecretsList` | `user-secrets list [--project P] --json` |
//! | `SecretsRemove` | `user-secrets remove KEY [--project P]` |
//! | `SecretsClear` | `user-secrets clear [--project P]` |
//!
//! Every success returns structured content (the shapes of [`schema::output`]).
//!
//! Decisions:
//! - Secrets: the export password and a secret's value are declared secret to the runner, so
//!   they are masked whole in the echoed command, the output, progress and errors, besides the
//!   support library's redaction of `--password`, `-p` and `user-secrets set KEY VALUE`. Both may
//!   be given as numbers or booleans (taken as text), so no type error repeats them, and no
//!   validation message ever quotes them.
//! - `SecretsList` reads `user-secrets list --json` and returns every key with its value
//!   `[REDACTED]`, unless the operator set `ShowSecretValues` in the plugin's settings; only then
//!   are the values shown, as the store holds them. The keys are read from the unredacted JSON
//!   (kept inside the plugin), so redaction can never make the list unreadable.
//! - `CertificateExport` checks the format (pfx or pem, in any case), that the file's folder
//!   exists and the path is not a folder, that the extension does not name the other format,
//!   and that `noPassword` goes with pem and without a password.
//! - `CertificateCheck` reports a missing certificate (exit code 6) and an untrusted one (7) as
//!   results (`valid`, `trusted`), not as errors.
//! - Confirmation: `CertificateClean` and `SecretsClear` ask the user through elicitation when
//!   the client supports it; anything but a clear yes refuses them (OPERATION_CANCELLED) and
//!   nothing runs. A client that cannot be asked relies on the tool's `destructiveHint`.
//! - Locks: the certificate store is machine-wide, so `CertificateTrust`, `CertificateClean` and
//!   `CertificateExport` (which creates a certificate when there is none) lock the global key
//!   `dev-certs`; `SecretsInit` edits the project file and takes the project lock;
//!   `SecretsSet`, `SecretsRemove` and `SecretsClear` lock the project's secret store
//!   (`<project>#user-secrets`), so they do not wait for a build or a running app of the project
//!   but cannot lose each other's writes.

#![deny(missing_docs)]

mod parse;
pub mod schema;

use dotnet_support::respond::Failure;
use std::path::{Path, PathBuf};

use dotnet_support::{
    actions,
    confirm::{self, Confirmation},
    errors::{ErrorResponse, ErrorResult},
    exec::{self, Command, Ran},
    locking::{self, LockTarget},
    params::{Kind, Params},
    redact::{REDACTED, redact_json, redacted_command_line},
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace::{self, Target},
};
use mcp_plugin_api::{
    CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin, locks::LockScope,
};
use serde_json::{Map, Value, json};

export_plugin! {
    name: "dotnet_dev_certs",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![DevCertsTool::new(ctx)?.into()]),
}

actions! {
    /// What the `dotnet_dev_certs` tool can do.
    pub enum DevCertsAction {
        /// Trusts the HTTPS development certificate, creating it when needed.
        CertificateTrust,
        /// Checks that a valid (and optionally trusted) certificate exists.
        CertificateCheck,
        /// Removes every HTTPS development certificate; destructive, confirmed first.
        CertificateClean,
        /// Exports the certificate (pfx or pem), with its private key when a password is given.
        CertificateExport,
        /// Gives the project a UserSecretsId.
        SecretsInit,
        /// Sets one secret.
        SecretsSet,
        /// Lists the secrets, values hidden unless the operator allows them.
        SecretsList,
        /// Removes one secret.
        SecretsRemove,
        /// Deletes every secret of the project; destructive, confirmed first.
        SecretsClear,
    }
}

/// The key of the lock on the machine's HTTPS development certificates.
pub const CERTIFICATE_LOCK_KEY: &str = "dev-certs";

/// `dev-certs https --check`: no valid certificate.
const NO_VALID_CERTIFICATE: i32 = 6;
/// `dev-certs https --check --trust`: certificates, none of them trusted.
const CERTIFICATE_NOT_TRUSTED: i32 = 7;

const DESCRIPTION: &str = "The ASP.NET Core HTTPS development certificate and a project's user secrets. \
CertificateTrust, CertificateCheck (trust), CertificateClean (asks the user), CertificateExport (path, format pfx|pem, \
password or noPassword); SecretsInit, SecretsSet (key, value), SecretsList (values hidden unless the operator allows \
them), SecretsRemove (key), SecretsClear (asks the user). The project defaults to the one in the client's roots. \
Passwords and secret values never appear in any output.";

/// The `dotnet_dev_certs` tool.
pub struct DevCertsTool {
    settings: DotnetSettings,
    plugin: PluginContext,
}

impl DevCertsTool {
    /// Reads the dotnet settings of the plugin's section; a bad value refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { settings: DotnetSettings::from_context(ctx)?, plugin: ctx.clone() })
    }
}

impl Tool for DevCertsTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new("dotnet_dev_certs", DESCRIPTION)
            .title("Dev Certs & User Secrets")
            .input_schema(schema::input())
            .output_schema(schema::output())
            .read_only(false)
            .destructive(true)
            .idempotent(false)
            .open_world(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        Ok(respond::finish(self.execute(&args, &ctx).await, presentation))
    }
}

impl DevCertsAction {
    /// The parameters the action takes besides `action`.
    fn parameters(self) -> &'static [&'static str] {
        match self {
            Self::CertificateTrust | Self::CertificateClean => &["workingDirectory"],
            Self::CertificateCheck => &["trust", "workingDirectory"],
            Self::CertificateExport => &["path", "format", "password", "noPassword", "workingDirectory"],
            Self::SecretsInit | Self::SecretsList | Self::SecretsClear => &["project", "workingDirectory"],
            Self::SecretsSet => &["key", "value", "project", "workingDirectory"],
            Self::SecretsRemove => &["key", "project", "workingDirectory"],
        }
    }

    /// Whether the action works on a project's user secrets.
    fn is_secrets(self) -> bool {
        matches!(
            self,
            Self::SecretsInit | Self::SecretsSet | Self::SecretsList | Self::SecretsRemove | Self::SecretsClear
        )
    }
}

/// A secret parameter (`password`, `value`): text, a number or a boolean taken as text. No error
/// about it quotes it.
fn secret_text(params: &Params<'_>, name: &str) -> Result<Option<String>, ErrorResponse> {
    let invalid = |reason: &str, message: String| Err(ErrorResult::invalid_params(name, reason, &message).into());
    let text = match params.raw(name) {
        None => return Ok(None),
        Some(Value::String(text)) if text.is_empty() => return Ok(None),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.to_string(),
        Some(Value::Bool(flag)) => flag.to_string(),
        Some(_) => return invalid("invalid type", format!("Parameter '{name}' must be text.")),
    };
    if text.starts_with('-') {
        return invalid(
            "invalid characters",
            format!("Parameter '{name}' starts with '-', which the dotnet CLI would read as an option."),
        );
    }
    if text.contains('\0') {
        return invalid("invalid characters", format!("Parameter '{name}' contains a NUL character."));
    }
    Ok(Some(text))
}

/// The format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Pfx,
    Pem,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Self::Pfx => "pfx",
            Self::Pem => "pem",
        }
    }

    /// File extensions that say the file holds this format.
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Self::Pfx => &["pfx", "p12"],
            Self::Pem => &["pem", "crt", "cer"],
        }
    }
}

/// A checked `CertificateExport`.
struct Export {
    /// The path as given (passed to the CLI, relative to the working directory).
    path: String,
    /// The path made absolute.
    absolute: PathBuf,
    format: Option<Format>,
    password: Option<String>,
    no_password: bool,
}

impl Export {
    fn read(params: &Params<'_>, cwd: &Path) -> Result<Self, ErrorResponse> {
        let invalid = |name: &str, reason: &str, message: String| -> ErrorResponse {
            ErrorResult::invalid_params(name, reason, &message).into()
        };
        let format = match params.opt("format", Kind::Identifier) {
            Ok(None) => None,
            Ok(Some(text)) if text.eq_ignore_ascii_case("pfx") => Some(Format::Pfx),
            Ok(Some(text)) if text.eq_ignore_ascii_case("pem") => Some(Format::Pem),
            _ => {
                return Err(invalid(
                    "format",
                    "invalid value",
                    "Parameter 'format' must be 'pfx' or 'pem'.".to_owned(),
                ));
            }
        };
        let path = params.req("path", Kind::Path)?.to_owned();
        let absolute = cwd.join(&path);
        if absolute.is_dir() {
            return Err(invalid(
                "path",
                "is a folder",
                format!("Parameter 'path': '{}' is a folder; name the file to export to.", absolute.display()),
            ));
        }
        let folder = absolute.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(cwd);
        if !folder.is_dir() {
            return Err(invalid(
                "path",
                "not found",
                format!(
                    "Parameter 'path': the folder '{}' does not exist. Create it first, with permissions only you \
                     can read: the export can hold the private key.",
                    folder.display()
                ),
            ));
        }
        let extension =
            absolute.extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
        let chosen = format.unwrap_or(Format::Pfx);
        let other = if chosen == Format::Pfx { Format::Pem } else { Format::Pfx };
        if other.extensions().contains(&extension.as_str()) {
            return Err(invalid(
                "format",
                "format mismatch",
                format!(
                    "Parameter 'path' ends in .{extension}, a {} file, but the export format is {}. Set format to \
                     '{}', or change the file name.",
                    other.name(),
                    chosen.name(),
                    other.name()
                ),
            ));
        }
        let password = secret_text(params, "password")?;
        let no_password = params.flag("noPassword");
        if no_password && (chosen != Format::Pem || password.is_some()) {
            return Err(invalid(
                "noPassword",
                "invalid combination",
                "Parameter 'noPassword' exports an unencrypted private key: it needs format 'pem' and no password."
                    .to_owned(),
            ));
        }
        Ok(Self { path, absolute, format, password, no_password })
    }

    fn format(&self) -> Format {
        self.format.unwrap_or(Format::Pfx)
    }
}

impl DevCertsTool {
    async fn execute(&self, args: &Value, ctx: &CallContext) -> Result<Reply, Failure> {
        let params = Params::new(args);
        let action = params.action(DevCertsAction::parse)?;
        params.allow_only(action.name(), action.parameters())?;
        let cwd = workspace::working_directory(
            params.opt("workingDirectory", Kind::Path)?,
            self.settings.working_directory.as_deref(),
        )?;
        let export = match action {
            DevCertsAction::CertificateExport => Some(Export::read(&params, &cwd)?),
            _ => None,
        };
        let key = match action {
            DevCertsAction::SecretsSet | DevCertsAction::SecretsRemove => Some(params.req("key", Kind::Text)?),
            _ => None,
        };
        let value = match action {
            DevCertsAction::SecretsSet => Some(secret_text(&params, "value")?.ok_or_else(|| {
                ErrorResponse::from(ErrorResult::invalid_params(
                    "value",
                    "required",
                    "Parameter 'value' is required and cannot be empty.",
                ))
            })?),
            _ => None,
        };
        let project = match action.is_secrets() {
            false => None,
            true => match params.opt("project", Kind::ProjectPath)? {
                Some(project) => Some(project.to_owned()),
                None => {
                    workspace::discover(ctx, Target::Project, "project").await?.map(|path| path.display().to_string())
                }
            },
        };

        let mut argv: Vec<String> = Vec::new();
        let mut push = |items: &[&str]| argv.extend(items.iter().map(|item| (*item).to_owned()));
        match action {
            DevCertsAction::CertificateTrust => push(&["dev-certs", "https", "--trust"]),
            DevCertsAction::CertificateCheck => {
                push(&["dev-certs", "https", "--check"]);
                if params.flag("trust") {
                    push(&["--trust"]);
                }
            }
            DevCertsAction::CertificateClean => push(&["dev-certs", "https", "--clean"]),
            DevCertsAction::CertificateExport => {
                let export = export.as_ref().expect("read above");
                push(&["dev-certs", "https", "--export-path", &export.path]);
                if let Some(format) = export.format {
                    push(&["--format", format.name()]);
                }
                if let Some(password) = &export.password {
                    push(&["--password", password]);
                }
                if export.no_password {
                    push(&["--no-password"]);
                }
            }
            DevCertsAction::SecretsInit => push(&["user-secrets", "init"]),
            DevCertsAction::SecretsSet => {
                push(&["user-secrets", "set", key.unwrap_or_default(), value.as_deref().unwrap_or_default()])
            }
            DevCertsAction::SecretsList => push(&["user-secrets", "list"]),
            DevCertsAction::SecretsRemove => push(&["user-secrets", "remove", key.unwrap_or_default()]),
            DevCertsAction::SecretsClear => push(&["user-secrets", "clear"]),
        }
        if let Some(project) = &project {
            push(&["--project", project]);
        }
        if action == DevCertsAction::SecretsList {
            push(&["--json"]);
        }

        let project_target = LockTarget::for_path(project.as_deref().map(Path::new), &cwd);
        self.confirm(action, &project_target.key, ctx).await?;
        let lock_target = match action {
            DevCertsAction::CertificateTrust | DevCertsAction::CertificateClean | DevCertsAction::CertificateExport => {
                Some(LockTarget { scope: LockScope::Global, key: CERTIFICATE_LOCK_KEY.to_owned() })
            }
            DevCertsAction::SecretsInit => Some(project_target.clone()),
            DevCertsAction::SecretsSet | DevCertsAction::SecretsRemove | DevCertsAction::SecretsClear => {
                Some(LockTarget { scope: project_target.scope, key: format!("{}#user-secrets", project_target.key) })
            }
            DevCertsAction::CertificateCheck | DevCertsAction::SecretsList => None,
        };
        let lock = match &lock_target {
            Some(target) => Some(
                locking::acquire(
                    &self.plugin,
                    target,
                    &format!("dotnet_dev_certs {}", action.name()),
                    self.settings.lock_wait,
                )
                .await
                .map_err(|(error, extra)| Failure { error, extra: Some(extra) })?,
            ),
            None => None,
        };
        let lock_info = lock.as_ref().map(|guard| json!({ "lockInfo": locking::lock_info_json(guard.info()) }));

        let description = format!("dotnet {} {}", argv[0], argv[1]);
        let mut command = Command::new(argv, &cwd, description);
        for secret in
            [value.as_deref(), export.as_ref().and_then(|export| export.password.as_deref())].into_iter().flatten()
        {
            command = command.secret(secret);
        }
        if action == DevCertsAction::SecretsList {
            command = command.reveal_stdout();
        }
        let ran = exec::run(&self.settings, ctx, command).await?;
        drop(lock);
        let fail = |error: ErrorResponse| Failure { error, extra: lock_info.clone() };
        let checked = action == DevCertsAction::CertificateCheck
            && matches!(ran.exit_code(), NO_VALID_CERTIFICATE | CERTIFICATE_NOT_TRUSTED);
        if !ran.succeeded() && !checked {
            return Err(fail(ran.failure()));
        }

        let mut structured = Map::new();
        structured.insert("success".into(), json!(true));
        structured.insert("action".into(), json!(action.name()));
        structured.insert("command".into(), json!(redacted_command_line(&ran.argv[0], &ran.argv[1..])));
        structured.insert("exitCode".into(), json!(ran.exit_code()));
        if let Some(Value::Object(info)) = lock_info.clone() {
            structured.extend(info);
        }
        if action.is_secrets() {
            structured.insert("project".into(), json!(project));
        }
        let request =
            Answered { action, ran: &ran, export: export.as_ref(), key, show_values: self.settings.show_secret_values };
        let reply = request.reply(&mut structured).map_err(|reason| fail(unreadable(&ran, &reason)))?;
        let mut structured = Value::Object(structured);
        // The secrets list holds keys and either `[REDACTED]` or the values the operator allowed;
        // redacting it by field name would hide the keys too (they sit under `secrets`).
        if action != DevCertsAction::SecretsList {
            redact_json(&mut structured);
        }
        Ok(reply.structured(structured))
    }

    /// Asks before a destructive action; `Err` when the user did not confirm it.
    async fn confirm(&self, action: DevCertsAction, project: &str, ctx: &CallContext) -> Result<(), Failure> {
        let (question, target) = match action {
            DevCertsAction::CertificateClean => (
                "Remove every ASP.NET Core HTTPS development certificate from this machine? Apps served over HTTPS \
                 locally fail until a new certificate is created (CertificateTrust or CertificateExport creates one)."
                    .to_owned(),
                "the HTTPS development certificates",
            ),
            DevCertsAction::SecretsClear => {
                (format!("Delete every user secret of {project}? The values cannot be recovered."), project)
            }
            _ => return Ok(()),
        };
        match confirm::confirm(ctx, &question).await {
            Confirmation::Confirmed | Confirmation::NotAsked => Ok(()),
            Confirmation::Refused(reason) => Err(confirm::refused(action.name(), target, &reason).into()),
        }
    }
}

/// A run that succeeded, to be turned into a reply.
struct Answered<'a> {
    action: DevCertsAction,
    ran: &'a Ran,
    export: Option<&'a Export>,
    key: Option<&'a str>,
    show_values: bool,
}

impl Answered<'_> {
    /// The prose and the action's own structured fields.
    fn reply(&self, out: &mut Map<String, Value>) -> Result<Reply, String> {
        let stdout = &self.ran.outcome.stdout;
        let messages = parse::messages(&self.ran.outcome.transcript);
        let mut set = |key: &str, value: Value| {
            out.insert(key.to_owned(), value);
        };
        let reply = match self.action {
            DevCertsAction::CertificateTrust => {
                let trusted = messages.iter().any(|line| line.starts_with("Successfully") && line.contains("trusted"));
                let created = messages.iter().any(|line| {
                    line.contains("was generated successfully") || line.starts_with("Successfully created")
                });
                set("trusted", json!(trusted));
                set("created", json!(created));
                Reply::new(match (trusted, created) {
                    (true, true) => "Created and trusted a new HTTPS development certificate.",
                    (true, false) => "Trusted the existing HTTPS development certificate.",
                    (false, _) => "Trust was requested; read the messages for what the platform needs.",
                })
            }
            DevCertsAction::CertificateCheck => {
                let certificates = parse::certificates(stdout);
                let asked_trust = self.ran.argv.iter().any(|arg| arg == "--trust");
                let (valid, trusted) = match self.ran.exit_code() {
                    NO_VALID_CERTIFICATE => (false, asked_trust.then_some(false)),
                    CERTIFICATE_NOT_TRUSTED => (true, Some(false)),
                    _ => (true, asked_trust.then_some(true)),
                };
                let summary = match (valid, trusted) {
                    (false, _) => "No valid HTTPS development certificate was found.",
                    (true, Some(true)) => "A valid, trusted HTTPS development certificate is present.",
                    (true, Some(false)) => "A valid HTTPS development certificate is present, but it is not trusted.",
                    (true, None) => "A valid HTTPS development certificate is present (trust was not checked).",
                };
                let lines = certificates
                    .iter()
                    .map(|cert| {
                        let until = cert.valid_to.as_deref().map(|to| format!(", valid to {to}")).unwrap_or_default();
                        format!("{} {}{until}", cert.thumbprint, cert.subject)
                    })
                    .collect();
                set("valid", json!(valid));
                set("trusted", json!(trusted));
                set("certificates", json!(certificates));
                Reply::new(summary).section("Certificates", lines)
            }
            DevCertsAction::CertificateClean => {
                Reply::new("Removed the HTTPS development certificates from this machine.")
            }
            DevCertsAction::CertificateExport => {
                let export = self.export.expect("an export was read");
                let format = export.format();
                let private_key = export.password.is_some() || export.no_password;
                set("path", json!(export.absolute.display().to_string()));
                set("format", json!(format.name()));
                set("privateKeyIncluded", json!(private_key));
                set("passwordProtected", json!(export.password.is_some()));
                if format == Format::Pem && private_key {
                    set("keyFile", json!(export.absolute.with_extension("key").display().to_string()));
                }
                let what = match (private_key, export.password.is_some()) {
                    (false, _) => "the certificate without its private key",
                    (true, true) => "the certificate and its password-protected private key",
                    (true, false) => "the certificate and its unencrypted private key",
                };
                Reply::new(format!("Exported {what} to {} ({}).", export.absolute.display(), format.name()))
            }
            DevCertsAction::SecretsInit => {
                let id = parse::user_secrets_id(stdout);
                let summary = match &id {
                    Some(id) => format!("User secrets are enabled for the project (UserSecretsId {id})."),
                    None => "User secrets are enabled for the project.".to_owned(),
                };
                set("userSecretsId", json!(id));
                Reply::new(summary)
            }
            DevCertsAction::SecretsSet => {
                let key = self.key.unwrap_or_default();
                set("key", json!(key));
                Reply::new(format!("Saved the secret {key}; its value is not shown."))
            }
            DevCertsAction::SecretsList => {
                let raw = self.ran.revealed_stdout.as_deref().unwrap_or_default();
                let secrets = parse::secrets(raw)?;
                let value_of = |value: &str| if self.show_values { value.to_owned() } else { REDACTED.to_owned() };
                let lines = secrets
                    .iter()
                    .map(|(key, value)| match self.show_values {
                        true => format!("{key} = {value}"),
                        false => key.clone(),
                    })
                    .collect();
                let listed: Vec<Value> =
                    secrets.iter().map(|(key, value)| json!({ "key": key, "value": value_of(value) })).collect();
                set("count", json!(secrets.len()));
                set("valuesShown", json!(self.show_values));
                set("secrets", Value::Array(listed));
                let summary = match (secrets.len(), self.show_values) {
                    (0, _) => "The project has no user secrets.".to_owned(),
                    (count, true) => format!("{count} user secret(s)."),
                    (count, false) => format!(
                        "{count} user secret(s); values are hidden (the operator can show them with the \
                         ShowSecretValues setting)."
                    ),
                };
                // The output is the JSON the list was read from: shown only through the list itself.
                return Ok(Reply::new(summary).section("Secrets", lines));
            }
            DevCertsAction::SecretsRemove => {
                let key = self.key.unwrap_or_default();
                set("key", json!(key));
                Reply::new(format!("Removed the secret {key}."))
            }
            DevCertsAction::SecretsClear => Reply::new("Deleted every user secret of the project."),
        };
        if !matches!(
            self.action,
            DevCertsAction::SecretsSet | DevCertsAction::SecretsRemove | DevCertsAction::SecretsClear
        ) {
            out.insert("messages".into(), json!(messages));
        }
        Ok(reply.section("Messages", messages).output(self.ran.outcome.transcript.clone()))
    }
}

/// The error of a run that succeeded but printed something this plugin cannot read.
fn unreadable(ran: &Ran, reason: &str) -> ErrorResponse {
    let mut error = ErrorResult::new(
        format!("EXIT_{}", ran.exit_code()),
        &format!("The command succeeded, but its output could not be read: {reason}."),
    )
    .with_hint("Check the .NET SDK version (dotnet --version); user-secrets list --json needs .NET Core 3.0 or later.");
    error.raw_output = ran.outcome.stdout.clone();
    ErrorResponse::new(error, ran.exit_code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_parameters_are_text_and_never_quoted_in_errors() {
        let args = json!({ "a": 1234, "b": true, "c": "-secret-", "d": ["x"], "e": "" });
        let params = Params::new(&args);
        assert_eq!(secret_text(&params, "a").unwrap().as_deref(), Some("1234"));
        assert_eq!(secret_text(&params, "b").unwrap().as_deref(), Some("true"));
        assert_eq!(secret_text(&params, "e").unwrap(), None);
        for name in ["c", "d"] {
            let error = &secret_text(&params, name).unwrap_err().errors[0];
            assert!(!error.message.contains("secret-") && !error.message.contains("\"x\""), "{}", error.message);
        }
    }

    #[test]
    fn exports_check_the_format_the_folder_and_the_key_options() {
        let dir = std::env::temp_dir();
        let read = |args: Value| Export::read(&Params::new(&args), &dir).map(|export| export.format());
        let reason = |args: Value| {
            let error = Export::read(&Params::new(&args), &dir).err().unwrap();
            error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap()["reason"].clone()
        };
        assert_eq!(read(json!({ "path": "c.pem", "format": "PEM" })).unwrap(), Format::Pem);
        assert_eq!(read(json!({ "path": "c.pfx" })).unwrap(), Format::Pfx);
        assert_eq!(reason(json!({ "path": "c.pfx", "format": "der" })), "invalid value");
        assert_eq!(reason(json!({ "path": "c.pem" })), "format mismatch");
        assert_eq!(reason(json!({ "path": "no/such/folder/c.pfx" })), "not found");
        assert_eq!(reason(json!({ "path": "." })), "is a folder");
        assert_eq!(reason(json!({ "path": "c.pfx", "noPassword": true })), "invalid combination");
        assert_eq!(
            reason(json!({ "path": "c.pem", "format": "pem", "noPassword": true, "password": "x" })),
            "invalid combination"
        );
        assert_eq!(reason(json!({ "format": "pem" })), "required");
    }

    #[test]
    fn each_action_takes_its_own_parameters() {
        assert!(DevCertsAction::SecretsSet.parameters().contains(&"value"));
        assert!(!DevCertsAction::CertificateTrust.parameters().contains(&"project"));
        assert!(DevCertsAction::SecretsClear.is_secrets() && !DevCertsAction::CertificateClean.is_secrets());
    }
}
