//! The `dotnet_dev_certs` tool called in process against the real dotnet test double: the exact
//! argument vector of every action, every structured result against the advertised
//! outputSchema, the redaction of passwords and secret values (arguments, output, the echoed
//! command, errors, progress), `ShowSecretValues`, confirmation through elicitation, roots
//! discovery and locks.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use dotnet_dev_certs::{CERTIFICATE_LOCK_KEY, DevCertsTool};
use dotnet_support::{
    locking::{self, LockTarget},
    testkit::Double,
};
use mcp_plugin_api::{
    ClientError, Tool, ToolResult,
    locks::LockScope,
    testkit::{TestCall, TestPluginContext},
};
use serde_json::{Value, json};
use tempfile::TempDir;

/// The fake secrets the double's `secrets` scenario prints, one per line.
const SECRET_VALUES: &str = include_str!("../../test-double/fixtures/secrets/values.txt");

/// A project folder, the double logging into it, and the tool configured to run the double.
struct Setup {
    dir: TempDir,
    double: Double,
    plugin: TestPluginContext,
    tool: DevCertsTool,
}

impl Setup {
    fn new(scenario: Option<&str>) -> Self {
        Self::configured(scenario, false)
    }

    fn configured(scenario: Option<&str>, show_secret_values: bool) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />").unwrap();
        let mut double = Double::new(dir.path());
        if let Some(names) = scenario {
            double = double.scenario(names);
        }
        if show_secret_values {
            double = double.setting("ShowSecretValues", json!(true));
        }
        let plugin = double.context();
        let tool = DevCertsTool::new(plugin.context()).unwrap();
        Self { dir, double, plugin, tool }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn call(&self, args: Value) -> ToolResult {
        self.call_with(&TestCall::new().unchecked(), args)
    }

    fn call_with(&self, call: &TestCall, args: Value) -> ToolResult {
        let mut args = args;
        args["workingDirectory"] = json!(self.path().display().to_string());
        let result = call.run(&self.tool, args);
        check_schema(&self.tool, &result);
        result
    }

    fn argv(&self) -> Vec<String> {
        let argvs = self.double.argvs();
        assert_eq!(argvs.len(), 1, "expected exactly one invocation: {argvs:?}");
        argvs.into_iter().next().unwrap()
    }
}

fn check_schema(tool: &DevCertsTool, result: &ToolResult) {
    let spec = tool.spec();
    let schema = spec.get_output_schema().expect("the tool advertises an outputSchema");
    let validator = jsonschema::validator_for(schema).expect("the outputSchema compiles");
    let structured = result.structured_content.as_ref().expect("every result has structuredContent");
    let errors: Vec<String> = validator.iter_errors(structured).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{structured:#}");
}

fn structured(result: &ToolResult) -> &Value {
    result.structured_content.as_ref().unwrap()
}

fn ok(result: &ToolResult) -> &Value {
    assert!(!result.is_error, "{}\n{:#}", result.joined_text(), structured(result));
    let value = structured(result);
    assert_eq!(value["success"], true);
    value
}

fn error_code(result: &ToolResult) -> String {
    assert!(result.is_error, "{}", result.joined_text());
    structured(result)["errors"][0]["code"].as_str().unwrap().to_owned()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|item| (*item).to_owned()).collect()
}

fn visible(call: &TestCall, result: &ToolResult) -> String {
    let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    format!("{}\n{}", serde_json::to_string(result).unwrap(), progress.join("\n"))
}

fn assert_hidden(text: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(!text.contains(secret), "'{secret}' leaked:\n{text}");
    }
}

fn client(roots: Vec<PathBuf>, answer: Option<Value>) -> (TestCall, Arc<Mutex<Vec<String>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let call = TestCall::new().unchecked().with_client(move |method, params| match method {
        "roots/list" if !roots.is_empty() => {
            let roots: Vec<Value> =
                roots.iter().map(|root| json!({ "uri": format!("file://{}", root.display()) })).collect();
            Ok(json!({ "roots": roots }))
        }
        "elicitation/create" if answer.is_some() => {
            seen.lock().unwrap().push(params["message"].as_str().unwrap_or_default().to_owned());
            Ok(answer.clone().unwrap())
        }
        other => Err(ClientError::Unsupported(other.to_owned())),
    });
    (call, asked)
}

// --- certificates -------------------------------------------------------------------------

#[test]
fn certificate_trust() {
    let setup = Setup::new(None);
    let value = ok(&setup.call(json!({ "action": "CertificateTrust" }))).clone();
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--trust"]));
    assert_eq!((value["trusted"].as_bool(), value["created"].as_bool()), (Some(true), Some(false)));
    assert_eq!(value["lockInfo"], json!({ "lockScope": "global", "lockKey": CERTIFICATE_LOCK_KEY }));
    assert!(
        value["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|line| line == "Successfully trusted the existing HTTPS certificate.")
    );
}

#[test]
fn certificate_check_reads_the_certificate() {
    let setup = Setup::new(None);
    let value = ok(&setup.call(json!({ "action": "CertificateCheck", "trust": true }))).clone();
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--check", "--trust"]));
    assert_eq!((value["valid"].as_bool(), value["trusted"].as_bool()), (Some(true), Some(true)));
    assert_eq!(
        value["certificates"],
        json!([{
            "thumbprint": "8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF",
            "subject": "CN=localhost",
            "validFrom": "2026-01-15 10:00:00Z",
            "validTo": "2027-01-15 10:00:00Z",
            "isHttpsDevelopmentCertificate": true,
            "isExportable": true
        }])
    );
    assert!(value.get("lockInfo").is_none(), "a check takes no lock");

    let setup = Setup::new(None);
    let value = ok(&setup.call(json!({ "action": "CertificateCheck" }))).clone();
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--check"]));
    assert_eq!((value["valid"].as_bool(), value["trusted"].clone()), (Some(true), Value::Null));
}

/// A stand-in for dotnet that prints `output` and exits with `code`, for the answers of
/// `dev-certs https --check` the double does not give.
fn scripted(dir: &Path, output: &str, code: i32) -> DevCertsTool {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("dotnet-check");
    std::fs::write(&script, format!("#!/bin/sh\ncat <<'EOF'\n{output}\nEOF\nexit {code}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let plugin = TestPluginContext::new(json!({ "DotnetPath": script.display().to_string() }), Default::default());
    DevCertsTool::new(plugin.context()).unwrap()
}

#[test]
fn a_missing_or_untrusted_certificate_is_a_result_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let call = |tool: &DevCertsTool, trust: bool| {
        let result = TestCall::new().unchecked().run(tool, json!({ "action": "CertificateCheck", "trust": trust }));
        check_schema(tool, &result);
        result
    };
    let missing = scripted(dir.path(), "No valid certificate found.", 6);
    let result = call(&missing, false);
    let value = ok(&result);
    assert_eq!(
        (value["valid"].as_bool(), value["trusted"].clone(), value["exitCode"].as_i64()),
        (Some(false), Value::Null, Some(6))
    );
    assert_eq!(value["certificates"], json!([]));
    assert!(result.joined_text().starts_with("No valid HTTPS development certificate"), "{}", result.joined_text());

    let untrusted = scripted(
        dir.path(),
        "The following certificates were found, but none of them is trusted: 1 certificate\n\
         8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF - CN=localhost - Valid from 2026-01-15 10:00:00Z to 2027-01-15 10:00:00Z - IsHttpsDevelopmentCertificate: true - IsExportable: true\n\
         Run the command with --verbose for more details.",
        7,
    );
    let value = ok(&call(&untrusted, true)).clone();
    assert_eq!((value["valid"].as_bool(), value["trusted"].as_bool()), (Some(true), Some(false)));
    assert_eq!(value["certificates"][0]["thumbprint"], "8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF");

    let broken = scripted(dir.path(), "The certificate is in an invalid state.", 9);
    assert_eq!(error_code(&call(&broken, false)), "EXIT_9");
}

#[test]
fn certificate_clean_asks_and_a_decline_runs_nothing() {
    let setup = Setup::new(None);
    let (call, asked) = client(Vec::new(), Some(json!({ "action": "decline" })));
    let result = setup.call_with(&call, json!({ "action": "CertificateClean" }));
    assert_eq!(error_code(&result), "OPERATION_CANCELLED");
    assert!(setup.double.argvs().is_empty());
    assert!(asked.lock().unwrap()[0].contains("HTTPS development certificate"), "{:?}", asked.lock().unwrap());

    let (call, _) = client(Vec::new(), Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let value = ok(&setup.call_with(&call, json!({ "action": "CertificateClean" }))).clone();
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--clean"]));
    assert_eq!(value["lockInfo"]["lockKey"], CERTIFICATE_LOCK_KEY);
    assert!(
        value["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|line| line.as_str().unwrap().contains("successfully removed"))
    );
}

#[test]
fn certificate_clean_runs_when_the_client_cannot_ask() {
    let setup = Setup::new(None);
    ok(&setup.call(json!({ "action": "CertificateClean" })));
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--clean"]));
}

#[test]
fn certificate_export_never_shows_the_password() {
    let password = "Export-Pw-Secret-77";
    let setup = Setup::new(Some("secrets"));
    std::fs::create_dir(setup.path().join("certs")).unwrap();
    let call = TestCall::new().unchecked().with_features(&["verbosity=verbose"]);
    let result = setup.call_with(
        &call,
        json!({ "action": "CertificateExport", "path": "certs/dev.pem", "format": "PEM", "password": password }),
    );
    let value = ok(&result);
    assert_eq!(
        setup.argv(),
        strings(&["dev-certs", "https", "--export-path", "certs/dev.pem", "--format", "pem", "--password", password])
    );
    assert_eq!(value["path"], setup.path().join("certs/dev.pem").display().to_string());
    assert_eq!(value["keyFile"], setup.path().join("certs/dev.key").display().to_string());
    assert_eq!(
        (value["format"].as_str(), value["privateKeyIncluded"].as_bool(), value["passwordProtected"].as_bool()),
        (Some("pem"), Some(true), Some(true))
    );
    assert_eq!(
        value["command"],
        "dotnet dev-certs https --export-path certs/dev.pem --format pem --password [REDACTED]"
    );
    let secrets: Vec<&str> = SECRET_VALUES.lines().filter(|line| !line.is_empty()).collect();
    let seen = visible(&call, &result);
    assert!(seen.contains("Password=[REDACTED]"), "the secrets were printed and redacted:\n{seen}");
    assert_hidden(&seen, &secrets);
    assert_hidden(&seen, &[password]);
}

#[test]
fn certificate_export_without_a_password() {
    let setup = Setup::new(None);
    let value =
        ok(&setup
            .call(json!({ "action": "CertificateExport", "path": "dev.pem", "format": "pem", "noPassword": true })))
        .clone();
    assert_eq!(
        setup.argv(),
        strings(&["dev-certs", "https", "--export-path", "dev.pem", "--format", "pem", "--no-password"])
    );
    assert_eq!(
        (value["privateKeyIncluded"].as_bool(), value["passwordProtected"].as_bool()),
        (Some(true), Some(false))
    );

    let setup = Setup::new(None);
    let value = ok(&setup.call(json!({ "action": "CertificateExport", "path": "dev.pfx" }))).clone();
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--export-path", "dev.pfx"]));
    assert_eq!((value["format"].as_str(), value["privateKeyIncluded"].as_bool()), (Some("pfx"), Some(false)));
    assert!(value.get("keyFile").is_none());
}

#[test]
fn certificate_export_validates_the_format_and_the_path_without_quoting_the_password() {
    let password = "Never-Quoted-Pw-5";
    let setup = Setup::new(None);
    let cases = [
        (json!({ "path": "dev.pfx", "format": "der", "password": password }), "format", "invalid value"),
        (json!({ "path": "dev.pfx", "format": "pem", "password": password }), "format", "format mismatch"),
        (json!({ "path": "missing/dev.pfx", "password": password }), "path", "not found"),
        (json!({ "path": ".", "password": password }), "path", "is a folder"),
        (json!({ "format": "pfx", "password": password }), "path", "required"),
        (json!({ "path": "dev.pfx", "password": format!("-{password}") }), "password", "invalid characters"),
        (
            json!({ "path": "dev.pem", "format": "pem", "noPassword": true, "password": password }),
            "noPassword",
            "invalid combination",
        ),
    ];
    for (args, parameter, reason) in cases {
        let mut args = args;
        args["action"] = json!("CertificateExport");
        let result = setup.call(args.clone());
        assert_eq!(error_code(&result), "INVALID_PARAMS", "{args}");
        let data = &structured(&result)["errors"][0]["data"]["additionalData"];
        assert_eq!((data["parameter"].as_str(), data["reason"].as_str()), (Some(parameter), Some(reason)), "{args}");
        assert_hidden(&serde_json::to_string(&result).unwrap(), &[password]);
    }
    let message = structured(&setup.call(json!({ "action": "CertificateExport", "path": "dev.pfx", "format": "der" })))
        ["errors"][0]["message"]
        .clone();
    assert_eq!(message, "Parameter 'format' must be 'pfx' or 'pem'.");
    assert!(setup.double.argvs().is_empty());
}

// --- user secrets -------------------------------------------------------------------------

#[test]
fn secrets_init_reads_the_id_and_takes_the_project_lock() {
    let setup = Setup::new(None);
    let value = ok(&setup.call(json!({ "action": "SecretsInit", "project": "App.csproj" }))).clone();
    assert_eq!(setup.argv(), strings(&["user-secrets", "init", "--project", "App.csproj"]));
    assert_eq!(value["userSecretsId"], "4f7b1c2e-9d3a-4b8e-a6f5-2c1d0e9b8a7f");
    assert_eq!(value["project"], "App.csproj");
    let project = setup.path().canonicalize().unwrap().join("App.csproj").display().to_string();
    assert_eq!(value["lockInfo"], json!({ "lockScope": "project", "lockKey": project }));
}

#[test]
fn secrets_set_never_shows_the_value() {
    let secret = "sk_live_SetValue0123456789abcdefXYZ";
    let setup = Setup::new(None);
    let call = TestCall::new().unchecked().with_features(&["verbosity=verbose"]);
    let result = setup.call_with(
        &call,
        json!({ "action": "SecretsSet", "project": "App.csproj", "key": "Stripe:ApiKey", "value": secret }),
    );
    let value = ok(&result);
    assert_eq!(setup.argv(), strings(&["user-secrets", "set", "Stripe:ApiKey", secret, "--project", "App.csproj"]));
    assert_eq!(value["key"], "Stripe:ApiKey");
    assert_eq!(value["command"], "dotnet user-secrets set Stripe:ApiKey [REDACTED] --project App.csproj");
    let project = setup.path().canonicalize().unwrap().join("App.csproj").display().to_string();
    assert_eq!(value["lockInfo"]["lockKey"], format!("{project}#user-secrets"));
    assert_hidden(&visible(&call, &result), &[secret, "SetValue0123456789"]);
}

#[test]
fn secrets_set_takes_numbers_as_text_and_hides_them_too() {
    let setup = Setup::new(None);
    let call = TestCall::new().unchecked();
    let result = setup.call_with(&call, json!({ "action": "SecretsSet", "key": "Pin", "value": 90817263 }));
    ok(&result);
    assert_eq!(setup.argv(), strings(&["user-secrets", "set", "Pin", "90817263"]));
    assert_hidden(&visible(&call, &result), &["90817263"]);
}

#[test]
fn a_failed_secrets_set_keeps_the_value_out_of_the_error() {
    let secret = "Failing-Secret-Value-3";
    let setup = Setup::new(Some("no-project"));
    let call = TestCall::new().unchecked();
    let result = setup.call_with(&call, json!({ "action": "SecretsSet", "key": "Db:Password", "value": secret }));
    assert_eq!(error_code(&result), "EXIT_1");
    let error = &structured(&result)["errors"][0];
    assert!(error["message"].as_str().unwrap().contains("Could not find a MSBuild project file"), "{error}");
    assert_eq!(error["data"]["command"], "dotnet user-secrets set Db:Password [REDACTED]");
    assert_hidden(&visible(&call, &result), &[secret]);
}

#[test]
fn secrets_list_hides_values_unless_the_operator_allows_them() {
    let secrets: Vec<&str> = SECRET_VALUES.lines().filter(|line| !line.is_empty()).collect();
    let setup = Setup::new(Some("secrets"));
    let call = TestCall::new().unchecked().with_features(&["verbosity=verbose"]);
    let result = setup.call_with(&call, json!({ "action": "SecretsList", "project": "App.csproj" }));
    let value = ok(&result);
    assert_eq!(setup.argv(), strings(&["user-secrets", "list", "--project", "App.csproj", "--json"]));
    assert_eq!((value["count"].as_u64(), value["valuesShown"].as_bool()), (Some(6), Some(false)));
    let keys: Vec<&str> =
        value["secrets"].as_array().unwrap().iter().map(|secret| secret["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "AWS:AccessKeyId",
            "AWS:SecretAccessKey",
            "ConnectionStrings:Default",
            "Jwt:Token",
            "Smtp:Password",
            "Stripe:ApiKey"
        ]
    );
    assert!(value["secrets"].as_array().unwrap().iter().all(|secret| secret["value"] == "[REDACTED]"));
    assert!(value.get("lockInfo").is_none());
    assert!(result.joined_text().contains("Stripe:ApiKey"), "{}", result.joined_text());
    assert_hidden(&visible(&call, &result), &secrets);
    assert_hidden(&visible(&call, &result), &["Server=db.internal"]);

    let setup = Setup::configured(Some("secrets"), true);
    let result = setup.call(json!({ "action": "SecretsList" }));
    let value = ok(&result);
    assert_eq!(setup.argv(), strings(&["user-secrets", "list", "--json"]));
    assert_eq!(value["valuesShown"], true);
    let listed = &value["secrets"];
    assert!(listed.as_array().unwrap().contains(&json!({ "key": "Smtp:Password", "value": "hunter2" })), "{listed}");
    assert!(
        listed.as_array().unwrap().contains(&json!({
            "key": "ConnectionStrings:Default",
            "value": "Server=db.internal;Database=app;User Id=sa;Password=Sup3r-Secret-Dbl-Pw!;TrustServerCertificate=True"
        })),
        "{listed}"
    );
    assert!(result.joined_text().contains("Smtp:Password = hunter2"), "{}", result.joined_text());
}

#[test]
fn secrets_list_of_plain_settings() {
    let setup = Setup::new(None);
    let value = ok(&setup.call(json!({ "action": "SecretsList" }))).clone();
    assert_eq!(value["count"], 3);
    assert_eq!(value["secrets"][0], json!({ "key": "FeatureFlags:NewCheckout", "value": "[REDACTED]" }));
}

#[test]
fn secrets_remove() {
    let setup = Setup::new(None);
    let value =
        ok(&setup.call(json!({ "action": "SecretsRemove", "project": "App.csproj", "key": "Smtp:Password" }))).clone();
    assert_eq!(setup.argv(), strings(&["user-secrets", "remove", "Smtp:Password", "--project", "App.csproj"]));
    assert_eq!(value["key"], "Smtp:Password");
}

#[test]
fn secrets_clear_asks_with_the_project_and_a_decline_runs_nothing() {
    let setup = Setup::new(None);
    let (call, asked) = client(vec![setup.path().to_owned()], Some(json!({ "action": "cancel" })));
    let result = setup.call_with(&call, json!({ "action": "SecretsClear" }));
    assert_eq!(error_code(&result), "OPERATION_CANCELLED");
    assert!(setup.double.argvs().is_empty());
    assert!(asked.lock().unwrap()[0].contains("App.csproj"), "{:?}", asked.lock().unwrap());

    let (call, _) =
        client(vec![setup.path().to_owned()], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let value = ok(&setup.call_with(&call, json!({ "action": "SecretsClear" }))).clone();
    let project = setup.path().join("App.csproj").display().to_string();
    assert_eq!(setup.argv(), strings(&["user-secrets", "clear", "--project", &project]));
    assert_eq!(value["project"], project);
}

#[test]
fn the_project_comes_from_the_roots_when_omitted() {
    let setup = Setup::new(None);
    let (call, _) = client(vec![setup.path().to_owned()], None);
    ok(&setup.call_with(&call, json!({ "action": "SecretsList" })));
    let project = setup.path().join("App.csproj").display().to_string();
    assert_eq!(setup.argv(), strings(&["user-secrets", "list", "--project", &project, "--json"]));

    setup.double.clear_log();
    ok(&setup.call_with(&call, json!({ "action": "CertificateCheck" })));
    assert_eq!(setup.argv(), strings(&["dev-certs", "https", "--check"]), "certificates are not per project");
}

#[test]
fn stray_and_missing_parameters_are_refused() {
    let setup = Setup::new(None);
    let cases = [
        (json!({ "action": "CertificateTrust", "project": "App.csproj" }), "project"),
        (json!({ "action": "SecretsSet", "key": "A" }), "value"),
        (json!({ "action": "SecretsSet", "value": "v" }), "key"),
        (json!({ "action": "SecretsRemove" }), "key"),
        (json!({ "action": "SecretsList", "value": "x" }), "value"),
        (json!({ "action": "SecretsSet", "key": "--id", "value": "v" }), "key"),
    ];
    for (args, parameter) in cases {
        let result = setup.call(args.clone());
        assert_eq!(error_code(&result), "INVALID_PARAMS", "{args}");
        assert_eq!(structured(&result)["errors"][0]["data"]["additionalData"]["parameter"], parameter, "{args}");
    }
    assert!(setup.double.argvs().is_empty());
}

#[test]
fn held_locks_refuse_with_lock_info() {
    let setup = Setup::new(None);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let certificates = LockTarget { scope: LockScope::Global, key: CERTIFICATE_LOCK_KEY.to_owned() };
    let held =
        runtime.block_on(locking::acquire(setup.plugin.context(), &certificates, "other", Duration::ZERO)).unwrap();
    let result = setup.call(json!({ "action": "CertificateTrust" }));
    assert_eq!(error_code(&result), "CONCURRENCY_CONFLICT");
    assert_eq!(structured(&result)["lockInfo"]["lockContended"], true);
    ok(&setup.call(json!({ "action": "CertificateCheck" })));
    drop(held);

    let project = LockTarget::for_path(None, setup.path());
    let _build = runtime
        .block_on(locking::acquire(setup.plugin.context(), &project, "dotnet_project Run", Duration::ZERO))
        .unwrap();
    assert_eq!(error_code(&setup.call(json!({ "action": "SecretsInit" }))), "CONCURRENCY_CONFLICT");
    ok(&setup.call(json!({ "action": "SecretsSet", "key": "A", "value": "b" })));
}
