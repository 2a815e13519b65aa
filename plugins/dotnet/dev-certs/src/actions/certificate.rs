//! The HTTPS development certificate: CertificateTrust, CertificateCheck, CertificateClean and
//! CertificateExport. The certificate store is the machine's, so changes lock its global key.

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::ErrorResponse,
    exec::Command,
    kit::{Call, Outcome, Reason, invalid},
    locking::LockTarget,
    params::{Kind, Params},
    respond::Reply,
};
use mcp_plugin_api::locks::LockScope;
use schemars::JsonSchema;
use serde::Serialize;

use super::secret_text;
use crate::{
    CERTIFICATE_LOCK_KEY,
    parse::{self, Certificate, TrustLevel},
};

/// `dev-certs https --check`: no valid certificate.
const NO_VALID_CERTIFICATE: i32 = 6;
/// `dev-certs https --check --trust`: certificates, none of them trusted.
const CERTIFICATE_NOT_TRUSTED: i32 = 7;
/// `dev-certs https --trust`: trusting failed, or (on Linux) succeeded for some clients only.
const ERROR_TRUSTING: i32 = 4;

/// The SDK's advice after a partial trust, when its output gives no command.
const SSL_CERT_DIR_ADVICE: &str = "list the folder $HOME/.aspnet/dev-certs/trust in the SSL_CERT_DIR environment \
                                   variable of the programs that should trust the certificate";

// CertificateTrust: whether the certificate is trusted, how far, and whether it was created.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Trusted {
    /// Trusted by every client (false for a partial trust).
    trusted: bool,
    /// Full or Partial; null when the output does not say.
    trust_level: Option<TrustLevel>,
    /// After a partial trust: what makes OpenSSL-based clients trust it too.
    #[serde(skip_serializing_if = "Option::is_none")]
    remedy: Option<String>,
    created: bool,
    messages: Vec<String>,
}

/// CertificateCheck: whether a valid certificate is there, and how far the machine trusts it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    /// Whether a valid HTTPS development certificate exists.
    valid: bool,
    /// Whether every client trusts it; null when trust was not checked (an SDK without the
    /// machine-readable check, asked without `trust`).
    trusted: Option<bool>,
    /// How far the best certificate is trusted: None, Partial (some clients only, as on Linux
    /// until SSL_CERT_DIR lists the SDK's trust folder) or Full. Absent when the SDK does not say
    /// (an SDK without `--check-trust-machine-readable`, or no certificate).
    #[serde(skip_serializing_if = "Option::is_none")]
    trust_level: Option<TrustLevel>,
    /// After a partial trust: what makes OpenSSL-based clients trust it too.
    #[serde(skip_serializing_if = "Option::is_none")]
    remedy: Option<String>,
    /// The certificates found.
    certificates: Vec<Certificate>,
    /// What the CLI said besides.
    messages: Vec<String>,
}

// CertificateClean: what the CLI said.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cleaned {
    messages: Vec<String>,
}

// CertificateExport: where the certificate went, in which format, with which key.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Exported {
    path: String,
    format: Format,
    private_key_included: bool,
    password_protected: bool,
    /// Where a pem export put the private key.
    #[serde(skip_serializing_if = "Option::is_none")]
    key_file: Option<String>,
    messages: Vec<String>,
}

/// The format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Format {
    Pfx,
    Pem,
}

dotnet_support::string_enum_schema!(Format, "Format", ["pfx", "pem"]);

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
        let format = match params.opt("format", Kind::Identifier) {
            Ok(None) => None,
            Ok(Some(text)) if text.eq_ignore_ascii_case("pfx") => Some(Format::Pfx),
            Ok(Some(text)) if text.eq_ignore_ascii_case("pem") => Some(Format::Pem),
            _ => {
                return Err(invalid("format", Reason::Value, "Invalid argument 'format': must be 'pfx' or 'pem'."));
            }
        };
        let path = params.req("path", Kind::Path)?.to_owned();
        let absolute = cwd.join(&path);
        if absolute.is_dir() {
            return Err(invalid(
                "path",
                Reason::Value,
                format!("Invalid argument 'path': '{}' is a folder; name the file to export to.", absolute.display()),
            ));
        }
        let folder = absolute.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(cwd);
        if !folder.is_dir() {
            return Err(invalid(
                "path",
                Reason::NotFound,
                format!(
                    "Invalid argument 'path': the folder '{}' does not exist. Create it first, with permissions only you \
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
                Reason::Conflict,
                format!(
                    "Invalid argument 'path': ends in .{extension}, a {} file, but the export format is {}. Set format to \
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
                Reason::Conflict,
                "Invalid argument 'noPassword': exports an unencrypted private key: it needs format 'pem' and no password.",
            ));
        }
        Ok(Self { path, absolute, format, password, no_password })
    }

    fn format(&self) -> Format {
        self.format.unwrap_or(Format::Pfx)
    }
}

/// After a partial trust: the SDK's own SSL_CERT_DIR command from `output`, else its advice.
fn partial_trust_remedy(output: &str) -> String {
    match parse::ssl_cert_dir_command(output) {
        Some(command) => format!(
            "For OpenSSL-based clients to trust it, run `{command}` in the environment of the programs that should \
             trust it (for this server's dotnet: the plugin's Environment setting)."
        ),
        None => format!("For OpenSSL-based clients to trust it, {SSL_CERT_DIR_ADVICE}."),
    }
}

/// CertificateCheck: `dev-certs https --check-trust-machine-readable` (the JSON SDK 10 prints:
/// every certificate with its trust level); on an SDK without it (no JSON in its answer), the
/// text check `--check [--trust]`, whose exit codes say valid (6: none) and trusted (7: not).
pub async fn check(call: &Call<'_>) -> Outcome {
    let ran = call.run(certificate_command(call, &["--check-trust-machine-readable"])).await?;
    if ran.succeeded()
        && let Some(certificates) = parse::machine_readable(&ran.outcome.stdout)
    {
        let level = certificates.iter().filter_map(|cert| cert.trust_level).max();
        let valid = !certificates.is_empty();
        let summary = match level {
            _ if !valid => "No valid HTTPS development certificate was found.",
            Some(TrustLevel::Full) => "A valid HTTPS development certificate is present and fully trusted.",
            Some(TrustLevel::Partial) => {
                "A valid HTTPS development certificate is present, trusted by some clients but not by others."
            }
            _ => "A valid HTTPS development certificate is present, but it is not trusted.",
        };
        let remedy = (level == Some(TrustLevel::Partial)).then(|| partial_trust_remedy(""));
        let mut reply = Reply::new(summary).section("Certificates", certificate_lines(&certificates));
        if let Some(remedy) = &remedy {
            reply = reply.section("Remedy", vec![remedy.clone()]);
        }
        let messages = parse::messages(&ran.outcome.stderr);
        return Ok(reply.section("Messages", messages.clone()).output(ran.outcome.transcript.clone()).result(
            Checked {
                valid,
                trusted: Some(level == Some(TrustLevel::Full)),
                trust_level: level,
                remedy,
                certificates,
                messages,
            },
        ));
    }
    let asked_trust = call.params().flag("trust");
    let ran =
        call.run(certificate_command(call, if asked_trust { &["--check", "--trust"] } else { &["--check"] })).await?;
    if !ran.succeeded() && !matches!(ran.exit_code(), NO_VALID_CERTIFICATE | CERTIFICATE_NOT_TRUSTED) {
        return Err(ran.failure().into());
    }
    let certificates = parse::certificates(&ran.outcome.stdout);
    let (valid, trusted) = match ran.exit_code() {
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
    let messages = parse::messages(&ran.outcome.transcript);
    Ok(Reply::new(summary)
        .section("Certificates", certificate_lines(&certificates))
        .section("Messages", messages.clone())
        .output(ran.outcome.transcript.clone())
        .result(Checked {
            valid,
            trusted,
            trust_level: (trusted == Some(true)).then_some(TrustLevel::Full),
            remedy: None,
            certificates,
            messages,
        }))
}

/// The certificates in prose: thumbprint, subject, end of validity and trust level.
fn certificate_lines(certificates: &[Certificate]) -> Vec<String> {
    certificates
        .iter()
        .map(|cert| {
            let until = cert.valid_to.as_deref().map(|to| format!(", valid to {to}")).unwrap_or_default();
            let trust = cert.trust_level.map(|level| format!(", trust {level:?}")).unwrap_or_default();
            format!("{} {}{until}{trust}", cert.thumbprint, cert.subject)
        })
        .collect()
}

/// The machine's certificate lock, taken by every action that changes the store.
fn certificate_lock() -> LockTarget {
    LockTarget { scope: LockScope::Global, key: CERTIFICATE_LOCK_KEY.to_owned() }
}

/// `dotnet dev-certs https` with `more`.
fn certificate_command(call: &Call<'_>, more: &[&str]) -> Command {
    let argv = ["dev-certs", "https"].iter().chain(more).map(|arg| (*arg).to_owned()).collect();
    call.command(argv, "dotnet dev-certs https")
}

/// CertificateTrust: `dev-certs https --trust` under the certificate lock. On Linux the SDK
/// exits 4 after a partial trust, which is a result: the certificate exists and some clients
/// trust it now.
pub async fn trust(call: &Call<'_>) -> Outcome {
    let _guard = call.lock(&certificate_lock()).await?;
    let ran = call.run(certificate_command(call, &["--trust"])).await?;
    let partial = ran.exit_code() == ERROR_TRUSTING && parse::partially_trusted(&ran.outcome.transcript);
    if !ran.succeeded() && !partial {
        return Err(ran.failure().into());
    }
    let messages = parse::messages(&ran.outcome.transcript);
    let trusted = messages.iter().any(|line| line.starts_with("Successfully") && line.contains("trusted"));
    let created = messages
        .iter()
        .any(|line| line.contains("was generated successfully") || line.starts_with("Successfully created"));
    let remedy = partial.then(|| partial_trust_remedy(&ran.outcome.transcript));
    let reply = match &remedy {
        Some(remedy) => Reply::new(format!(
            "The HTTPS development certificate is trusted by some clients but not by others (dotnet dev-certs exit \
             code 4: partial trust, as on Linux). {remedy}"
        )),
        None => Reply::new(match (trusted, created) {
            (true, true) => "Created and trusted a new HTTPS development certificate.",
            (true, false) => "Trusted the existing HTTPS development certificate.",
            (false, _) => "Trust was requested; read the messages for what the platform needs.",
        }),
    };
    let trust_level = match (trusted, partial) {
        (true, _) => Some(TrustLevel::Full),
        (false, true) => Some(TrustLevel::Partial),
        (false, false) => None,
    };
    Ok(reply.section("Messages", messages.clone()).output(ran.outcome.transcript.clone()).result(Trusted {
        trusted,
        trust_level,
        remedy,
        created,
        messages,
    }))
}

/// CertificateClean: asks the user, then `dev-certs https --clean` under the certificate lock.
pub async fn clean(call: &Call<'_>) -> Outcome {
    let question = "Remove every ASP.NET Core HTTPS development certificate from this machine? Apps served over HTTPS \
                    locally fail until a new certificate is created (CertificateTrust or CertificateExport creates \
                    one).";
    call.confirm(question, "the HTTPS development certificates").await?;
    let _guard = call.lock(&certificate_lock()).await?;
    let ran = call.run_ok(certificate_command(call, &["--clean"])).await?;
    let messages = parse::messages(&ran.outcome.transcript);
    Ok(Reply::new("Removed the HTTPS development certificates from this machine.")
        .section("Messages", messages.clone())
        .output(ran.outcome.transcript.clone())
        .result(Cleaned { messages }))
}

/// CertificateExport: the checked export, then `dev-certs https --export-path PATH ...` under the
/// certificate lock (an export creates the certificate when there is none), the password
/// declared secret.
pub async fn export(call: &Call<'_>) -> Outcome {
    let export = Export::read(call.params(), call.cwd())?;
    let mut more = vec!["--export-path", export.path.as_str()];
    if let Some(format) = export.format {
        more.extend(["--format", format.name()]);
    }
    if let Some(password) = &export.password {
        more.extend(["--password", password.as_str()]);
    }
    if export.no_password {
        more.push("--no-password");
    }
    let mut command = certificate_command(call, &more);
    if let Some(password) = &export.password {
        command = command.secret(password);
    }
    let _guard = call.lock(&certificate_lock()).await?;
    let ran = call.run_ok(command).await?;
    let messages = parse::messages(&ran.outcome.transcript);
    let format = export.format();
    let private_key = export.password.is_some() || export.no_password;
    let what = match (private_key, export.password.is_some()) {
        (false, _) => "the certificate without its private key",
        (true, true) => "the certificate and its password-protected private key",
        (true, false) => "the certificate and its unencrypted private key",
    };
    Ok(Reply::new(format!("Exported {what} to {} ({}).", export.absolute.display(), format.name()))
        .section("Messages", messages.clone())
        .output(ran.outcome.transcript.clone())
        .result(Exported {
            path: export.absolute.display().to_string(),
            format,
            private_key_included: private_key,
            password_protected: export.password.is_some(),
            key_file: (format == Format::Pem && private_key)
                .then(|| export.absolute.with_extension("key").display().to_string()),
            messages,
        }))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

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
        assert_eq!(reason(json!({ "path": "c.pem" })), "conflict");
        assert_eq!(reason(json!({ "path": "no/such/folder/c.pfx" })), "not found");
        assert_eq!(reason(json!({ "path": "." })), "invalid value");
        assert_eq!(reason(json!({ "path": "c.pfx", "noPassword": true })), "conflict");
        assert_eq!(
            reason(json!({ "path": "c.pem", "format": "pem", "noPassword": true, "password": "x" })),
            "conflict"
        );
        assert_eq!(reason(json!({ "format": "pem" })), "required");
    }
}
