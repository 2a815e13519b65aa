//! The `dotnet_dev_certs` plugin: one tool, `dotnet_dev_certs`, for the ASP.NET Core HTTPS
//! development certificate (`dotnet dev-certs https`) and a project's user secrets
//! (`dotnet user-secrets`).
//!
//! | action | command | lock |
//! |---|---|---|
//! | `CertificateTrust` | `dev-certs https --trust` | machine (`dev-certs`) |
//! | `CertificateCheck` | `dev-certs https --check-trust-machine-readable`; without it (SDKs before 10) `--check [--trust]` | none |
//! | `CertificateClean` | `dev-certs https --clean` (asks the user first) | machine (`dev-certs`) |
//! | `CertificateExport` | `dev-certs https --export-path PATH [--format pfx\|pem] [--password PW \| --no-password]` | machine (`dev-certs`) |
//! | `SecretsInit` | `user-secrets init [--project P]` | the project |
//! | `SecretsSet` | `user-secrets set KEY VALUE [--project P]` | the project's secret store |
//! | `SecretsList` | `user-secrets list [--project P] --json` | none |
//! | `SecretsRemove` | `user-secrets remove KEY [--project P]` | the project's secret store |
//! | `SecretsClear` | `user-secrets clear [--project P]` (asks the user first) | the project's secret store |
//!
//! Decisions:
//! - Secrets: the export password and a secret's value are declared secret to the runner, so
//!   they are masked whole in the echoed command, the output, progress and errors, besides the
//!   support library's redaction of `--password`, `-p` and `user-secrets set KEY VALUE`. Both may
//!   be given as numbers or booleans (taken as text), so no type error repeats them, and no
//!   validation message ever quotes them.
//! - `SecretsList` reads `user-secrets list --json` and returns every key with its value
//!   `[REDACTED]`, unless the operator set `ShowSecretValues` in the plugin's settings; only then
//!   are the values shown, as the store holds them (the one place a reply is not redacted). The
//!   keys are read from the unredacted JSON (kept inside the plugin), so redaction can never make
//!   the list unreadable.
//! - `CertificateExport` checks the format (pfx or pem, in any case), that the file's folder
//!   exists and the path is not a folder, that the extension does not name the other format,
//!   and that `noPassword` goes with pem and without a password.
//! - `CertificateCheck` reads SDK 10's `--check-trust-machine-readable` JSON: each certificate
//!   with its `trustLevel` (None, Partial, Full), the best of them as the result's `trustLevel`,
//!   `trusted` only for Full, and after a partial trust the same SSL_CERT_DIR `remedy` as
//!   `CertificateTrust`. An SDK whose answer holds no such JSON (before 10: `Specify --help for a
//!   list of available options and commands.`, exit 255) is checked again with the text check
//!   `--check [--trust]`, whose missing certificate (exit code 6) and untrusted one (7) are
//!   results (`valid`, `trusted`), not errors; `trustLevel` is then Full or absent.
//! - `CertificateTrust` on Linux trusts partly: the SDK exits 4 with "It will be trusted by some
//!   clients but not by others" (docs/dotnet-sdk.md). That is a result, not an error (the
//!   certificate exists and some clients trust it now, so calling again changes nothing):
//!   `trusted` false, `trustLevel` `Partial`, and `remedy` with the SDK's own `export
//!   SSL_CERT_DIR=...` command for OpenSSL-based clients. Exit 4 without that sentence stays an
//!   error.
//! - Confirmation: `CertificateClean` and `SecretsClear` ask the user through elicitation when
//!   the client supports it; anything but a clear yes refuses them (OPERATION_CANCELLED) and
//!   nothing runs. A client that cannot be asked relies on the tool's `destructiveHint`.
//! - Locks: the certificate store is machine-wide, so `CertificateTrust`, `CertificateClean` and
//!   `CertificateExport` (which creates a certificate when there is none) lock the global key
//!   `dev-certs`; `SecretsInit` edits the project file and takes the project lock;
//!   `SecretsSet`, `SecretsRemove` and `SecretsClear` lock the project's secret store
//!   (`<project>#user-secrets`), so they do not wait for a build or a running app of the project
//!   but cannot lose each other's writes.
//! - Annotations, per action: `CertificateCheck` and `SecretsList` read; `CertificateTrust`,
//!   `CertificateExport` and `SecretsInit` write; `CertificateClean`, `SecretsRemove` and
//!   `SecretsClear` destroy, and so does `SecretsSet`, which overwrites a value without returning
//!   the old one. Every action is idempotent (doing it again leaves the same state), and none
//!   leaves the machine. So the tool is destructive, idempotent and closed-world; with `ReadOnly`
//!   it is read-only.

#![deny(missing_docs)]

mod actions;
mod parse;

use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param};
use mcp_plugin_api::export_plugin;
use serde_json::json;

use actions::{certificate, secrets};

export_plugin! {
    name: "dotnet_dev_certs",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetDevCerts, ctx)?.into()]),
}

dotnet_support::actions! {
    /// What the `dotnet_dev_certs` tool can do.
    pub enum Action {
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

const DESCRIPTION: &str = "The ASP.NET Core HTTPS development certificate and a project's user secrets. \
CertificateTrust, CertificateCheck (trust level None, Partial or Full), CertificateClean (asks the user), \
CertificateExport; SecretsInit, SecretsSet, SecretsList (values hidden unless the operator allows them), \
SecretsRemove, SecretsClear (asks the user). The project defaults to the one in the client's roots. Passwords and \
secret values never appear in any output.";

/// The `dotnet_dev_certs` family.
#[derive(Debug, Default)]
pub struct DotnetDevCerts;

impl Family for DotnetDevCerts {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        // Secret values may arrive as numbers or booleans; they are accepted as text so that no
        // type error anywhere repeats them.
        let secret = |name, description: &str| {
            Param::new(name, json!({ "type": ["string", "number", "boolean"], "description": description }))
        };
        Declaration::new("dotnet_dev_certs", "Dev Certs & User Secrets", DESCRIPTION)
            .action_help("What to do with the HTTPS development certificate or the user secrets.")
            .param(Param::string(
                "workingDirectory",
                "The folder to run in (default: the configured WorkingDirectory, else the server's).",
            ))
            .param(Param::flag(
                "trust",
                "CertificateCheck on an SDK without the machine-readable check (before 10): also check trust (--trust). SDK 10 always reports the trust level.",
            ))
            .param(Param::string(
                "path",
                "CertificateExport: the file to export to; its folder must exist. Relative to the working directory.",
            ))
            .param(Param::string("format", "CertificateExport: pfx (the default) or pem, in any case."))
            .param(secret(
                "password",
                "CertificateExport: protects the exported private key (pfx, or an encrypted pem key). It never appears in any output.",
            ))
            .param(Param::flag(
                "noPassword",
                "CertificateExport with format pem: export the private key unencrypted (--no-password).",
            ))
            .param(Param::string(
                "project",
                "Secrets actions: the project whose user secrets to use (.csproj or its folder). Omitted: the one project in the client's roots, else the working directory's.",
            ))
            .param(Param::string(
                "key",
                "SecretsSet, SecretsRemove: the secret's name, e.g. ConnectionStrings:Default or Movies:ApiKey.",
            ))
            .param(secret("value", "SecretsSet: the secret's value. It never appears in any output."))
            .common(&["workingDirectory"])
            .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::CertificateTrust => certificate::trust(call).await,
            Action::CertificateCheck => certificate::check(call).await,
            Action::CertificateClean => certificate::clean(call).await,
            Action::CertificateExport => certificate::export(call).await,
            Action::SecretsInit => secrets::init(call).await,
            Action::SecretsSet => secrets::set(call).await,
            Action::SecretsList => secrets::list(call).await,
            Action::SecretsRemove => secrets::remove(call).await,
            Action::SecretsClear => secrets::clear(call).await,
        }
    }
}

/// What each action takes, needs, locks and answers with. Every action runs dotnet. The result
/// types carry line comments, not doc comments, where the action's name says what they hold: a
/// doc comment would become their branch's description in every client's tool list.
fn spec(action: Action) -> ActionSpec<Action> {
    let spec = match action {
        Action::CertificateTrust => {
            ActionSpec::writes(action).idempotent().locks(Lock::Machine).result::<certificate::Trusted>()
        }
        Action::CertificateCheck => ActionSpec::reads(action).takes(&["trust"]).result::<certificate::Checked>(),
        Action::CertificateClean => {
            ActionSpec::destroys(action).idempotent().locks(Lock::Machine).result::<certificate::Cleaned>()
        }
        Action::CertificateExport => ActionSpec::writes(action)
            .idempotent()
            .locks(Lock::Machine)
            .requires(&["path"])
            .takes(&["format", "password", "noPassword"])
            .result::<certificate::Exported>(),
        Action::SecretsInit => ActionSpec::writes(action)
            .idempotent()
            .locks(Lock::Target)
            .takes(&["project"])
            .result::<secrets::Initialized>(),
        Action::SecretsSet => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["key", "value"])
            .takes(&["project"])
            .result::<secrets::Keyed>(),
        Action::SecretsList => ActionSpec::reads(action).takes(&["project"]).result::<secrets::Listed>(),
        Action::SecretsRemove => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["key"])
            .takes(&["project"])
            .result::<secrets::Keyed>(),
        Action::SecretsClear => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .takes(&["project"])
            .result::<secrets::Cleared>(),
    };
    spec.runs_dotnet()
}
