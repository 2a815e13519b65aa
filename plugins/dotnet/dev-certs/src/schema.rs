//! The `dotnet_dev_certs` tool's input schema and output schema. The output schema is an
//! `anyOf` of one shape per action (each with its `action` as a constant) and the error
//! envelope, so every result the tool returns validates against it.

use dotnet_support::{errors::error_response_schema, params::action_schema, respond};
use serde_json::{Value, json};

use crate::DevCertsAction;

/// The arguments: the action, then every parameter any action takes (each action refuses the
/// ones it does not take).
pub fn input() -> Value {
    let text = |description: &str| json!({ "type": "string", "description": description });
    // Secret values may arrive as numbers or booleans; they are accepted as text so that no
    // type error anywhere repeats them.
    let secret = |description: &str| json!({ "type": ["string", "number", "boolean"], "description": description });
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(DevCertsAction::NAMES, "What to do with the HTTPS development certificate or the user secrets."),
            "workingDirectory": text("The folder to run in (default: the configured WorkingDirectory, else the server's)."),
            "trust": { "type": "boolean", "description": "CertificateCheck: also check that the certificate is trusted (--trust)." },
            "path": text("CertificateExport: the file to export to; its folder must exist. Relative to the working directory."),
            "format": text("CertificateExport: pfx (the default) or pem, in any case."),
            "password": secret("CertificateExport: protects the exported private key (pfx, or an encrypted pem key). It never appears in any output."),
            "noPassword": { "type": "boolean", "description": "CertificateExport with format pem: export the private key unencrypted (--no-password)." },
            "project": text("Secrets actions: the project whose user secrets to use (.csproj or its folder). Omitted: the one project in the client's roots, else the working directory's."),
            "key": text("SecretsSet, SecretsRemove: the secret's name, e.g. ConnectionStrings:Default or Movies:ApiKey."),
            "value": secret("SecretsSet: the secret's value. It never appears in any output.")
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

/// A success shape of `action` (see [`respond::success_schema`]).
fn success(action: DevCertsAction, properties: Value, required: &[&str]) -> Value {
    respond::success_schema(action.name(), properties, required)
}

/// Every result of the tool: one shape per action, or the error envelope.
pub fn output() -> Value {
    let string = json!({ "type": "string" });
    let maybe_string = json!({ "type": ["string", "null"] });
    let boolean = json!({ "type": "boolean" });
    let messages = json!({ "type": "array", "items": { "type": "string" } });
    let project = json!({ "type": ["string", "null"], "description": "The project passed to the CLI; null for the working directory's." });
    let certificate = json!({
        "type": "object",
        "properties": {
            "thumbprint": string,
            "subject": string,
            "validFrom": maybe_string,
            "validTo": maybe_string,
            "isHttpsDevelopmentCertificate": { "type": ["boolean", "null"] },
            "isExportable": { "type": ["boolean", "null"] }
        },
        "required": ["thumbprint", "subject"]
    });
    let secret = json!({
        "type": "object",
        "properties": {
            "key": string,
            "value": { "type": "string", "description": "[REDACTED] unless the operator set ShowSecretValues." }
        },
        "required": ["key", "value"]
    });
    let shapes = [
        success(
            DevCertsAction::CertificateTrust,
            json!({ "trusted": boolean, "created": boolean, "messages": messages }),
            &["trusted", "created", "messages"],
        ),
        success(
            DevCertsAction::CertificateCheck,
            json!({
                "valid": boolean,
                "trusted": { "type": ["boolean", "null"], "description": "null when trust was not checked." },
                "certificates": { "type": "array", "items": certificate },
                "messages": messages
            }),
            &["valid", "trusted", "certificates", "messages"],
        ),
        success(DevCertsAction::CertificateClean, json!({ "messages": messages }), &["messages"]),
        success(
            DevCertsAction::CertificateExport,
            json!({
                "path": string,
                "format": { "enum": ["pfx", "pem"] },
                "privateKeyIncluded": boolean,
                "passwordProtected": boolean,
                "keyFile": { "type": "string", "description": "Where a pem export put the private key." },
                "messages": messages
            }),
            &["path", "format", "privateKeyIncluded", "passwordProtected", "messages"],
        ),
        success(
            DevCertsAction::SecretsInit,
            json!({ "project": project, "userSecretsId": maybe_string, "messages": messages }),
            &["project", "userSecretsId", "messages"],
        ),
        success(DevCertsAction::SecretsSet, json!({ "project": project, "key": string }), &["project", "key"]),
        success(
            DevCertsAction::SecretsList,
            json!({
                "project": project,
                "secrets": { "type": "array", "items": secret },
                "count": { "type": "integer", "minimum": 0 },
                "valuesShown": boolean
            }),
            &["project", "secrets", "count", "valuesShown"],
        ),
        success(DevCertsAction::SecretsRemove, json!({ "project": project, "key": string }), &["project", "key"]),
        success(DevCertsAction::SecretsClear, json!({ "project": project }), &["project"]),
    ];
    let mut any_of: Vec<Value> = shapes.into_iter().collect();
    any_of.push(error_response_schema());
    json!({ "type": "object", "anyOf": any_of })
}
