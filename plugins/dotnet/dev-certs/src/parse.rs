//! Reading what `dotnet dev-certs https` and `dotnet user-secrets` print: the JSON of
//! `--check-trust-machine-readable`, the certificate descriptions of `--check`, the result lines
//! of `--trust` and `init`, and the `//BEGIN` / `//END`-framed JSON of `user-secrets list
//! --json`. None of these fails on lines it does not know.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How far the machine trusts a certificate, as `--check-trust-machine-readable` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub enum TrustLevel {
    /// Not trusted.
    None,
    /// Trusted by some clients, not by others (Linux: OpenSSL-based clients until SSL_CERT_DIR
    /// lists the SDK's trust folder).
    Partial,
    /// Trusted.
    Full,
}

/// One certificate as `dev-certs https --check` describes it:
/// `THUMBPRINT - CN=localhost - Valid from A to B - IsHttpsDevelopmentCertificate: true - IsExportable: true`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Certificate {
    /// The SHA-1 thumbprint, as printed.
    pub thumbprint: String,
    /// The subject (`CN=localhost`).
    pub subject: String,
    /// Start of validity, as printed.
    pub valid_from: Option<String>,
    /// End of validity, as printed.
    pub valid_to: Option<String>,
    /// Whether it is an ASP.NET Core HTTPS development certificate.
    pub is_https_development_certificate: Option<bool>,
    /// Whether its private key can be exported.
    pub is_exportable: Option<bool>,
    /// How far the machine trusts it (machine-readable check only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trust_level: Option<TrustLevel>,
    /// The names it is valid for (machine-readable check only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject_alternative_names: Option<Vec<String>>,
    /// The development certificate's version (machine-readable check only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
}

/// One certificate of `--check-trust-machine-readable` (SDK 10.0.401, an array of these).
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Reported {
    thumbprint: String,
    subject: String,
    #[serde(rename = "X509SubjectAlternativeNameExtension", default)]
    alternative_names: Option<Vec<String>>,
    version: Option<u32>,
    validity_not_before: Option<String>,
    validity_not_after: Option<String>,
    is_https_development_certificate: Option<bool>,
    is_exportable: Option<bool>,
    trust_level: Option<TrustLevel>,
}

/// The certificates `dev-certs https --check-trust-machine-readable` reported (`[]` when there
/// is none), or `None` when its output holds no such JSON: an SDK without the option answers
/// `Specify --help for a list of available options and commands.` (exit 255).
pub fn machine_readable(stdout: &str) -> Option<Vec<Certificate>> {
    let start = stdout.find('[')?;
    let reported: Vec<Reported> = serde_json::from_str(stdout[start..].trim_end()).ok()?;
    Some(
        reported
            .into_iter()
            .map(|cert| Certificate {
                thumbprint: cert.thumbprint,
                subject: cert.subject,
                valid_from: cert.validity_not_before,
                valid_to: cert.validity_not_after,
                is_https_development_certificate: cert.is_https_development_certificate,
                is_exportable: cert.is_exportable,
                trust_level: cert.trust_level,
                subject_alternative_names: cert.alternative_names,
                version: cert.version,
            })
            .collect(),
    )
}

/// Every certificate described in the output, in order (one per description; a line may hold
/// a prefix such as `A valid certificate was found: `).
pub fn certificates(output: &str) -> Vec<Certificate> {
    output.lines().filter_map(certificate).collect()
}

fn certificate(line: &str) -> Option<Certificate> {
    let description = line.rsplit_once("found: ").map_or(line, |(_, rest)| rest).trim();
    let mut parts = description.split(" - ");
    let thumbprint = parts.next()?.trim();
    if thumbprint.len() < 32 || !thumbprint.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let subject = parts.next()?.trim().to_owned();
    let mut found = Certificate {
        thumbprint: thumbprint.to_owned(),
        subject,
        valid_from: None,
        valid_to: None,
        is_https_development_certificate: None,
        is_exportable: None,
        trust_level: None,
        subject_alternative_names: None,
        version: None,
    };
    for part in parts {
        let part = part.trim();
        if let Some(range) = part.strip_prefix("Valid from ")
            && let Some((from, to)) = range.split_once(" to ")
        {
            found.valid_from = Some(from.to_owned());
            found.valid_to = Some(to.to_owned());
        } else if let Some(value) = part.strip_prefix("IsHttpsDevelopmentCertificate: ") {
            found.is_https_development_certificate = value.parse().ok();
        } else if let Some(value) = part.strip_prefix("IsExportable: ") {
            found.is_exportable = value.parse().ok();
        }
    }
    Some(found)
}

/// The non-blank lines of the output, trimmed.
pub fn messages(output: &str) -> Vec<String> {
    output.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_owned).collect()
}

/// Whether `dev-certs https --trust` trusted the certificate only partly, as on Linux, where
/// it exits 4 with `There was an error trusting the HTTPS developer certificate. It will be
/// trusted by some clients but not by others.`
pub fn partially_trusted(output: &str) -> bool {
    output.contains("It will be trusted by some clients but not by others")
}

/// The command the SDK gives for OpenSSL's trust after a partial trust: `export
/// SSL_CERT_DIR="$HOME/.aspnet/dev-certs/trust:$SSL_CERT_DIR"` (from its `For example, `...``).
pub fn ssl_cert_dir_command(output: &str) -> Option<String> {
    output
        .lines()
        .filter(|line| line.contains("SSL_CERT_DIR"))
        .find_map(|line| line.split_once("For example, `").and_then(|(_, rest)| rest.split_once('`')))
        .map(|(command, _)| command.to_owned())
}

/// The id in `Set UserSecretsId to '<id>' for MSBuild project '<path>'.`.
pub fn user_secrets_id(output: &str) -> Option<String> {
    output
        .lines()
        .find_map(|line| line.trim().strip_prefix("Set UserSecretsId to '"))
        .and_then(|rest| rest.split('\'').next())
        .map(str::to_owned)
}

/// The secrets of `user-secrets list --json`: the object between `//BEGIN` and `//END`, as
/// key and value pairs in key order. Values that are not strings keep their JSON text. A list
/// without markers (`No secrets configured for this application.`) is empty.
pub fn secrets(stdout: &str) -> Result<Vec<(String, String)>, String> {
    let Some((_, rest)) = stdout.split_once("//BEGIN") else {
        return Ok(Vec::new());
    };
    let body = rest.split_once("//END").map_or(rest, |(body, _)| body);
    let object: Map<String, Value> = serde_json::from_str(body.trim())
        .map_err(|error| format!("the JSON between //BEGIN and //END is malformed ({error})"))?;
    Ok(object
        .into_iter()
        .map(|(key, value)| {
            let value = match value {
                Value::String(text) => text,
                other => other.to_string(),
            };
            (key, value)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = "A valid certificate was found: 8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF - CN=localhost - Valid from 2026-01-15 10:00:00Z to 2027-01-15 10:00:00Z - IsHttpsDevelopmentCertificate: true - IsExportable: true\nRun the command with both --check and --trust options to ensure that the certificate is not only valid but also trusted.\n";

    #[test]
    fn certificate_descriptions_are_read_field_by_field() {
        let found = certificates(VALID);
        assert_eq!(
            found,
            [Certificate {
                thumbprint: "8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF".into(),
                subject: "CN=localhost".into(),
                valid_from: Some("2026-01-15 10:00:00Z".into()),
                valid_to: Some("2027-01-15 10:00:00Z".into()),
                is_https_development_certificate: Some(true),
                is_exportable: Some(true),
                trust_level: None,
                subject_alternative_names: None,
                version: None,
            }]
        );
        let two = "2 trusted certificates were found: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - CN=localhost - Valid from a to b\nBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB - CN=localhost - IsExportable: false\n";
        let found = certificates(two);
        assert_eq!(found.len(), 2);
        assert_eq!((found[1].is_exportable, found[1].valid_from.as_deref()), (Some(false), None));
        assert!(certificates("No valid certificate found.\n").is_empty());
    }

    #[test]
    fn the_machine_readable_check_as_sdk_10_prints_it() {
        // dotnet dev-certs https --check-trust-machine-readable after a partial trust on Linux.
        let printed = "[\n  {\n    \"Thumbprint\": \"0D2DFE5B3CE1AB9B2FC103C341EBE416B0C03B79\",\n    \"Subject\": \"CN=localhost\",\n    \
\"X509SubjectAlternativeNameExtension\": [\n      \"localhost\",\n      \"*.dev.localhost\"\n    ],\n    \"Version\": 6,\n    \
\"ValidityNotBefore\": \"2026-11-28T00:25:04+00:00\",\n    \"ValidityNotAfter\": \"2027-11-28T00:25:04+00:00\",\n    \
\"IsHttpsDevelopmentCertificate\": true,\n    \"IsExportable\": true,\n    \"TrustLevel\": \"Partial\"\n  }\n]\n";
        let [cert] = machine_readable(printed).unwrap().try_into().unwrap();
        assert_eq!(cert.trust_level, Some(TrustLevel::Partial));
        assert_eq!(cert.valid_to.as_deref(), Some("2027-11-28T00:25:04+00:00"));
        assert_eq!(cert.subject_alternative_names.unwrap(), ["localhost", "*.dev.localhost"]);
        assert_eq!((cert.version, cert.is_exportable), (Some(6), Some(true)));
        assert_eq!(machine_readable("[]\n"), Some(Vec::new()));
        assert_eq!(machine_readable("Specify --help for a list of available options and commands.\n"), None);
        assert!(TrustLevel::Full > TrustLevel::Partial && TrustLevel::Partial > TrustLevel::None);
    }

    #[test]
    fn partial_trust_and_its_remedy_as_sdk_10_prints_them() {
        // dotnet dev-certs https --trust on a headless Linux (SDK 10.0.401, exit 4).
        let trust = "Trusting the HTTPS development certificate was requested. Trust is per-user and may require additional configuration. See https://aka.ms/dev-certs-trust for more information.\n\
[114] For OpenSSL trust to take effect, '$HOME/.aspnet/dev-certs/trust' must be listed in the SSL_CERT_DIR environment variable. For example, `export SSL_CERT_DIR=\"$HOME/.aspnet/dev-certs/trust:$SSL_CERT_DIR\"`. See https://aka.ms/dev-certs-trust for more information.\n\
There was an error trusting the HTTPS developer certificate. It will be trusted by some clients but not by others.\n";
        assert!(partially_trusted(trust));
        assert_eq!(
            ssl_cert_dir_command(trust).as_deref(),
            Some("export SSL_CERT_DIR=\"$HOME/.aspnet/dev-certs/trust:$SSL_CERT_DIR\"")
        );
        assert!(!partially_trusted("Successfully trusted the existing HTTPS certificate.\n"));
        assert_eq!(ssl_cert_dir_command("You may wish to update the SSL_CERT_DIR environment variable.\n"), None);
    }

    #[test]
    fn messages_and_the_user_secrets_id() {
        assert_eq!(messages("  a\n\n b \n"), ["a", "b"]);
        let init =
            "Set UserSecretsId to '4f7b1c2e-9d3a-4b8e-a6f5-2c1d0e9b8a7f' for MSBuild project '/src/App/App.csproj'.\n";
        assert_eq!(user_secrets_id(init).as_deref(), Some("4f7b1c2e-9d3a-4b8e-a6f5-2c1d0e9b8a7f"));
        assert_eq!(user_secrets_id("The MSBuild project has already been assigned a UserSecretsId.\n"), None);
    }

    #[test]
    fn the_secrets_json_is_read_between_its_markers() {
        let stdout =
            "//BEGIN\n{\n  \"Smtp:Host\": \"smtp.example.test\",\n  \"Retries\": 3,\n  \"A\": \"x = y\"\n}\n//END\n";
        assert_eq!(
            secrets(stdout).unwrap(),
            [
                ("A".into(), "x = y".into()),
                ("Retries".into(), "3".into()),
                ("Smtp:Host".into(), "smtp.example.test".into())
            ]
        );
        assert!(secrets("No secrets configured for this application.\n").unwrap().is_empty());
        assert!(secrets("//BEGIN\n{}\n//END\n").unwrap().is_empty());
        assert!(secrets("//BEGIN\n{ \"a\": \n//END\n").unwrap_err().contains("malformed"));
    }
}
