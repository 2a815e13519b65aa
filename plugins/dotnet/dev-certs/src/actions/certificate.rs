//! The HTTPS development certificate: CertificateTrust, CertificateCheck, CertificateClean and
//! CertificateExport. The certificate store is the machine's, so changes lock its global key.

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    kit::{Call, Outcome, Shape, ran_fields},
    locking::{LockTarget, lock_info_schema},
    params::{Kind, Params},
    respond::Reply,
};
use mcp_plugin_api::locks::LockScope;
use serde_json::{Value, json};

use schemars::JsonSchema;
use serde::Serialize;

use super::{messages_schema, secret_text};
use crate::{
    Action, CERTIFICATE_LOCK_KEY,
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

/// CertificateTrust: whether the certificate is trusted, how far, and whether it was created.
pub fn trusted_shape() -> Shape {
    let boolean = json!({ "type": "boolean" });
    Shape::new(
        json!({
            "trusted": { "type": "boolean", "description": "Trusted by every client (false for a partial trust)." },
            "trustLevel": {
                "enum": ["Full", "Partial", null],
                "description": "Partial: some clients trust it, others not (Linux: OpenSSL-based clients until SSL_CERT_DIR lists the SDK's trust folder); null when the output does not say."
            },
            "remedy": { "type": "string", "description": "After a partial trust: what makes OpenSSL-based clients trust it too." },
            "created": boolean,
            "messages": messages_schema(),
            "lockInfo": lock_info_schema()
        }),
        &["trusted", "trustLevel", "created", "messages"],
    )
    .ran()
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

/// CertificateClean: what the CLI said.
pub fn cleaned_shape() -> Shape {
    Shape::new(json!({ "messages": messages_schema() }), &["messages"]).ran()
}

/// CertificateExport: where the certificate went, in which format, with which key.
pub fn exported_shape() -> Shape {
    let boolean = json!({ "type": "boolean" });
    Shape::new(
        json!({
            "path": { "type": "string" },
            "format": { "enum": ["pfx", "pem"] },
            "privateKeyIncluded": boolean,
            "passwordProtected": boolean,
            "keyFile": { "type": "string", "description": "Where a pem export put the private key." },
            "messages": messages_schema()
        }),
        &["path", "format", "privateKeyIncluded", "passwordProtected", "messages"],
    )
    .ran()
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
                    "Invalid argument 'format': must be 'pfx' or 'pem'.".to_owned(),
                ));
            }
        };
        let path = params.req("path", Kind::Path)?.to_owned();
        let absolute = cwd.join(&path);
        if absolute.is_dir() {
            return Err(invalid(
                "path",
                "is a folder",
                format!("Invalid argument 'path': '{}' is a folder; name the file to export to.", absolute.display()),
            ));
        }
        let folder = absolute.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(cwd);
        if !folder.is_dir() {
            return Err(invalid(
                "path",
                "not found",
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
                "format mismatch",
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
                "invalid combination",
                "Invalid argument 'noPassword': exports an unencrypted private key: it needs format 'pem' and no password."
                    .to_owned(),
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
async fn check(call: &Call<'_>) -> Outcome {
    let args = |more: &[&str]| ["dev-certs", "https"].iter().chain(more).map(|arg| (*arg).to_owned()).collect();
    let ran = call.run(call.command(args(&["--check-trust-machine-readable"]), "dotnet dev-certs https")).await?;
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
    let ran = call
        .run(
            call.command(
                args(if asked_trust { &["--check", "--trust"] } else { &["--check"] }),
                "dotnet dev-certs https",
            ),
        )
        .await?;
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

/// Runs a certificate action: the argument vector, the confirmation of a clean, the machine's
/// certificate lock for changes, the run and what it reported.
pub async fn run(action: Action, call: &Call<'_>) -> Outcome {
    if action == Action::CertificateCheck {
        return check(call).await;
    }
    let params = call.params();
    let export = match action {
        Action::CertificateExport => Some(Export::read(params, call.cwd())?),
        _ => None,
    };
    let mut argv: Vec<String> = ["dev-certs", "https"].map(str::to_owned).to_vec();
    match action {
        Action::CertificateTrust => argv.push("--trust".into()),
        Action::CertificateClean => argv.push("--clean".into()),
        _ => {
            let export = export.as_ref().expect("read above");
            argv.extend(["--export-path".to_owned(), export.path.clone()]);
            if let Some(format) = export.format {
                argv.extend(["--format".to_owned(), format.name().to_owned()]);
            }
            if let Some(password) = &export.password {
                argv.extend(["--password".to_owned(), password.clone()]);
            }
            if export.no_password {
                argv.push("--no-password".into());
            }
        }
    }
    if action == Action::CertificateClean {
        let question = "Remove every ASP.NET Core HTTPS development certificate from this machine? Apps served over \
                        HTTPS locally fail until a new certificate is created (CertificateTrust or CertificateExport \
                        creates one).";
        call.confirm(question, "the HTTPS development certificates").await?;
    }
    let _guard = call.lock(&LockTarget { scope: LockScope::Global, key: CERTIFICATE_LOCK_KEY.to_owned() }).await?;
    let mut command = call.command(argv, "dotnet dev-certs https");
    if let Some(password) = export.as_ref().and_then(|export| export.password.as_deref()) {
        command = command.secret(password);
    }
    let ran = call.run(command).await?;
    // A partial trust is a result: the certificate exists and some clients trust it now.
    let partial = action == Action::CertificateTrust
        && ran.exit_code() == ERROR_TRUSTING
        && parse::partially_trusted(&ran.outcome.transcript);
    if !ran.succeeded() && !partial {
        return Err(ran.failure().into());
    }
    let messages = parse::messages(&ran.outcome.transcript);
    let mut structured = ran_fields(&ran);
    let reply = match action {
        Action::CertificateTrust => {
            let trusted = messages.iter().any(|line| line.starts_with("Successfully") && line.contains("trusted"));
            let created = messages
                .iter()
                .any(|line| line.contains("was generated successfully") || line.starts_with("Successfully created"));
            let level = match (trusted, partial) {
                (true, _) => json!("Full"),
                (false, true) => json!("Partial"),
                (false, false) => Value::Null,
            };
            structured.insert("trusted".into(), json!(trusted));
            structured.insert("trustLevel".into(), level);
            structured.insert("created".into(), json!(created));
            if partial {
                let remedy = partial_trust_remedy(&ran.outcome.transcript);
                structured.insert("remedy".into(), json!(remedy));
                Reply::new(format!(
                    "The HTTPS development certificate is trusted by some clients but not by others (dotnet dev-certs \
                     exit code 4: partial trust, as on Linux). {remedy}"
                ))
            } else {
                Reply::new(match (trusted, created) {
                    (true, true) => "Created and trusted a new HTTPS development certificate.",
                    (true, false) => "Trusted the existing HTTPS development certificate.",
                    (false, _) => "Trust was requested; read the messages for what the platform needs.",
                })
            }
        }
        Action::CertificateClean => Reply::new("Removed the HTTPS development certificates from this machine."),
        _ => {
            let export = export.expect("an export was read");
            let format = export.format();
            let private_key = export.password.is_some() || export.no_password;
            structured.insert("path".into(), json!(export.absolute.display().to_string()));
            structured.insert("format".into(), json!(format.name()));
            structured.insert("privateKeyIncluded".into(), json!(private_key));
            structured.insert("passwordProtected".into(), json!(export.password.is_some()));
            if format == Format::Pem && private_key {
                structured.insert("keyFile".into(), json!(export.absolute.with_extension("key").display().to_string()));
            }
            let what = match (private_key, export.password.is_some()) {
                (false, _) => "the certificate without its private key",
                (true, true) => "the certificate and its password-protected private key",
                (true, false) => "the certificate and its unencrypted private key",
            };
            Reply::new(format!("Exported {what} to {} ({}).", export.absolute.display(), format.name()))
        }
    };
    structured.insert("messages".into(), json!(messages));
    Ok(reply.section("Messages", messages).output(ran.outcome.transcript.clone()).structured(Value::Object(structured)))
}

#[cfg(test)]
mod tests {
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
}
