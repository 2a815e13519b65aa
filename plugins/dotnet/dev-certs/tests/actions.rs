//! The `dotnet_dev_certs` tool called in process against the real dotnet test double: the exact
//! argument vector of every action, the redaction of passwords and secret values (arguments,
//! output, the echoed command, errors, progress), `ShowSecretValues`, confirmation through
//! elicitation, roots discovery, locks and read-only service. The test kit checks every result
//! against the advertised schemas, as the host does.

use dotnet_dev_certs::{CERTIFICATE_LOCK_KEY, DotnetDevCerts};
use dotnet_support::{
    locking::LockTarget,
    testkit::{Harness, assert_hidden, client, code, failed, parameter, secret_values, strings, succeeded, visible},
};
use mcp_plugin_api::{Tool, locks::LockScope, testkit::TestCall};
use serde_json::{Value, json};

/// A project folder (`App.csproj`), the double logging into it, and the tool configured to run
/// the double there.
type Setup = Harness<DotnetDevCerts>;

fn plain(scenario: Option<&'static str>) -> Setup {
    configured(scenario, false)
}

fn configured(scenario: Option<&'static str>, show_secret_values: bool) -> Setup {
    Setup::with(|dir, mut double| {
        std::fs::write(dir.join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />").unwrap();
        if let Some(names) = scenario {
            double = double.scenario(names);
        }
        if show_secret_values {
            double = double.setting("ShowSecretValues", json!(true));
        }
        double
    })
}

// --- certificates -------------------------------------------------------------------------

#[test]
fn certificate_trust_on_linux_is_partial_with_the_ssl_cert_dir_remedy() {
    // The double replays the real SDK 10.0.401's answer on this headless Linux (exit 4).
    let setup = plain(None);
    let value = succeeded(&setup.call(json!({ "action": "CertificateTrust" }))).clone();
    assert_eq!(setup.only_argv(), strings(&["dev-certs", "https", "--trust"]));
    assert_eq!(value["exitCode"], 4);
    assert_eq!((value["trusted"].as_bool(), value["trustLevel"].as_str()), (Some(false), Some("Partial")));
    assert!(
        value["remedy"]
            .as_str()
            .unwrap()
            .contains("export SSL_CERT_DIR=\"$HOME/.aspnet/dev-certs/trust:$SSL_CERT_DIR\""),
        "{value}"
    );
    assert_eq!(value["lockInfo"], json!({ "lockScope": "global", "lockKey": CERTIFICATE_LOCK_KEY }));
}

#[test]
fn certificate_trust_in_full() {
    // What Windows and macOS print (no recording can be made on this Linux).
    let setup = scripted(
        "Trusting the HTTPS development certificate was requested.\nA valid HTTPS certificate is already present.\n\
         Successfully trusted the existing HTTPS certificate.",
        0,
    );
    let value = succeeded(&setup.call(json!({ "action": "CertificateTrust" }))).clone();
    assert_eq!((value["trusted"].as_bool(), value["created"].as_bool()), (Some(true), Some(false)));
    assert_eq!((value["trustLevel"].as_str(), value.get("remedy")), (Some("Full"), None));
    // Exit 4 without the partial-trust sentence is an error.
    let failed_trust = scripted("There was an error trusting the HTTPS developer certificate.", 4);
    assert_eq!(code(failed(&failed_trust.call(json!({ "action": "CertificateTrust" })))), "EXIT_4");
}

#[test]
fn certificate_check_reads_the_machine_readable_trust_level() {
    // The double replays SDK 10.0.401's JSON for the certificate the secrets scenario exported.
    let setup = plain(None);
    let value = succeeded(&setup.call(json!({ "action": "CertificateCheck" }))).clone();
    assert_eq!(setup.only_argv(), strings(&["dev-certs", "https", "--check-trust-machine-readable"]));
    assert_eq!((value["valid"].as_bool(), value["trusted"].as_bool()), (Some(true), Some(false)));
    assert_eq!((value["trustLevel"].as_str(), value.get("remedy")), (Some("None"), None));
    let certificate = &value["certificates"][0];
    assert_eq!(
        (certificate["subject"].as_str(), certificate["trustLevel"].as_str()),
        (Some("CN=localhost"), Some("None"))
    );
    assert!(certificate["subjectAlternativeNames"].to_string().contains("host.docker.internal"), "{certificate}");
    assert!(value.get("lockInfo").is_none(), "a check takes no lock");
}

#[test]
fn certificate_check_falls_back_to_the_text_check_before_sdk_10() {
    let old_sdk = || Setup::with(|_, double| double.env("DOTNET_DOUBLE_SDK_VERSION", "9.0.300"));
    let setup = old_sdk();
    let value = succeeded(&setup.call(json!({ "action": "CertificateCheck", "trust": true }))).clone();
    let check = |more: &[&str]| strings(&[&["dev-certs", "https"][..], more].concat());
    assert_eq!(
        setup.double.argvs(),
        [check(&["--check-trust-machine-readable"]), check(&["--check", "--trust"])],
        "the option is unknown before SDK 10, so the text check follows"
    );
    assert_eq!((value["valid"].as_bool(), value["trusted"].as_bool()), (Some(true), Some(true)));
    assert_eq!((value["trustLevel"].as_str(), value["exitCode"].as_i64()), (Some("Full"), Some(0)));
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

    let setup = old_sdk();
    let value = succeeded(&setup.call(json!({ "action": "CertificateCheck" }))).clone();
    assert_eq!(setup.double.argvs()[1], check(&["--check"]));
    assert_eq!(
        (value["valid"].as_bool(), value["trusted"].clone(), value.get("trustLevel")),
        (Some(true), Value::Null, None)
    );
}

/// A stand-in for dotnet that prints `output` and exits with `code`, for the answers of
/// `dev-certs https --check` the double does not give.
fn scripted(output: &str, code: i32) -> Setup {
    Setup::with(|dir, double| {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("dotnet-check");
        std::fs::write(&script, format!("#!/bin/sh\ncat <<'EOF'\n{output}\nEOF\nexit {code}\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        double.setting("DotnetPath", json!(script.display().to_string()))
    })
}

#[test]
fn a_missing_or_untrusted_certificate_is_a_result_not_an_error() {
    let call = |setup: &Setup, trust: bool| setup.call(json!({ "action": "CertificateCheck", "trust": trust }));
    let missing = scripted("No valid certificate found.", 6);
    let result = call(&missing, false);
    let value = succeeded(&result);
    assert_eq!(
        (value["valid"].as_bool(), value["trusted"].clone(), value["exitCode"].as_i64()),
        (Some(false), Value::Null, Some(6))
    );
    assert_eq!(value["certificates"], json!([]));
    assert!(result.joined_text().starts_with("No valid HTTPS development certificate"), "{}", result.joined_text());

    let untrusted = scripted(
        "The following certificates were found, but none of them is trusted: 1 certificate\n\
         8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF - CN=localhost - Valid from 2026-01-15 10:00:00Z to 2027-01-15 10:00:00Z - IsHttpsDevelopmentCertificate: true - IsExportable: true\n\
         Run the command with --verbose for more details.",
        7,
    );
    let value = succeeded(&call(&untrusted, true)).clone();
    assert_eq!((value["valid"].as_bool(), value["trusted"].as_bool()), (Some(true), Some(false)));
    assert_eq!(value["certificates"][0]["thumbprint"], "8F4C2B1A9E7D6C5B4A39281706F5E4D3C2B1A0FF");

    let broken = scripted("The certificate is in an invalid state.", 9);
    assert_eq!(code(failed(&call(&broken, false))), "EXIT_9");
}

#[test]
fn certificate_clean_asks_and_a_decline_runs_nothing() {
    let setup = plain(None);
    let (call, asked) = client(&[], Some(json!({ "action": "decline" })));
    let result = setup.call_with(&call, json!({ "action": "CertificateClean" }));
    assert_eq!(code(failed(&result)), "OPERATION_CANCELLED");
    assert!(setup.double.argvs().is_empty());
    assert!(asked.lock().unwrap()[0].contains("HTTPS development certificate"), "{:?}", asked.lock().unwrap());

    let (call, _) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let value = succeeded(&setup.call_with(&call, json!({ "action": "CertificateClean" }))).clone();
    assert_eq!(setup.only_argv(), strings(&["dev-certs", "https", "--clean"]));
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
    let setup = plain(None);
    succeeded(&setup.call(json!({ "action": "CertificateClean" })));
    assert_eq!(setup.only_argv(), strings(&["dev-certs", "https", "--clean"]));
}

#[test]
fn certificate_export_never_shows_the_password() {
    let password = "Export-Pw-Secret-77";
    let setup = plain(Some("secrets"));
    std::fs::create_dir(setup.path().join("certs")).unwrap();
    let call = TestCall::new().with_features(&["verbosity=verbose"]);
    let result = setup.call_with(
        &call,
        json!({ "action": "CertificateExport", "path": "certs/dev.pem", "format": "PEM", "password": password }),
    );
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
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
    let secrets = secret_values();
    let seen = visible(&call, &result);
    assert!(seen.contains("Password=[REDACTED]"), "the secrets were printed and redacted:\n{seen}");
    assert_hidden(&seen, &secrets);
    assert_hidden(&seen, &[password]);
}

#[test]
fn certificate_export_without_a_password() {
    let setup = plain(None);
    let value = succeeded(
        &setup.call(json!({ "action": "CertificateExport", "path": "dev.pem", "format": "pem", "noPassword": true })),
    )
    .clone();
    assert_eq!(
        setup.only_argv(),
        strings(&["dev-certs", "https", "--export-path", "dev.pem", "--format", "pem", "--no-password"])
    );
    assert_eq!(
        (value["privateKeyIncluded"].as_bool(), value["passwordProtected"].as_bool()),
        (Some(true), Some(false))
    );

    let setup = plain(None);
    let value = succeeded(&setup.call(json!({ "action": "CertificateExport", "path": "dev.pfx" }))).clone();
    assert_eq!(setup.only_argv(), strings(&["dev-certs", "https", "--export-path", "dev.pfx"]));
    assert_eq!((value["format"].as_str(), value["privateKeyIncluded"].as_bool()), (Some("pfx"), Some(false)));
    assert!(value.get("keyFile").is_none());
}

#[test]
fn certificate_export_validates_the_format_and_the_path_without_quoting_the_password() {
    let password = "Never-Quoted-Pw-5";
    let setup = plain(None);
    let cases = [
        (json!({ "path": "dev.pfx", "format": "der", "password": password }), "format", "invalid value"),
        (json!({ "path": "dev.pfx", "format": "pem", "password": password }), "format", "conflict"),
        (json!({ "path": "missing/dev.pfx", "password": password }), "path", "not found"),
        (json!({ "path": ".", "password": password }), "path", "invalid value"),
        (json!({ "format": "pfx", "password": password }), "path", "required"),
        (json!({ "path": "dev.pfx", "password": format!("-{password}") }), "password", "invalid characters"),
        (
            json!({ "path": "dev.pem", "format": "pem", "noPassword": true, "password": password }),
            "noPassword",
            "conflict",
        ),
    ];
    for (args, parameter, reason) in cases {
        let mut args = args;
        args["action"] = json!("CertificateExport");
        let result = setup.call(args.clone());
        assert_eq!(code(failed(&result)), "INVALID_PARAMS", "{args}");
        let data = &result.structured_content.as_ref().unwrap()["errors"][0]["data"]["additionalData"];
        assert_eq!((data["parameter"].as_str(), data["reason"].as_str()), (Some(parameter), Some(reason)), "{args}");
        assert_hidden(&serde_json::to_string(&result).unwrap(), &[password]);
    }
    let message =
        failed(&setup.call(json!({ "action": "CertificateExport", "path": "dev.pfx", "format": "der" })))["errors"][0]
            ["message"]
            .clone();
    assert_eq!(message, "Invalid argument 'format': must be 'pfx' or 'pem'.");
    assert!(setup.double.argvs().is_empty());
}

// --- user secrets -------------------------------------------------------------------------

#[test]
fn secrets_init_reads_the_id_and_takes_the_project_lock() {
    let setup = plain(None);
    let value = succeeded(&setup.call(json!({ "action": "SecretsInit", "project": "App.csproj" }))).clone();
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "init", "--project", "App.csproj"]));
    assert_eq!(value["userSecretsId"], "4f7b1c2e-9d3a-4b8e-a6f5-2c1d0e9b8a7f");
    assert_eq!(value["project"], "App.csproj");
    let project = setup.path().canonicalize().unwrap().join("App.csproj").display().to_string();
    assert_eq!(value["lockInfo"], json!({ "lockScope": "project", "lockKey": project }));
}

#[test]
fn secrets_set_never_shows_the_value() {
    let secret = "sk_live_SetValue0123456789abcdefXYZ";
    let setup = plain(None);
    let call = TestCall::new().with_features(&["verbosity=verbose"]);
    let result = setup.call_with(
        &call,
        json!({ "action": "SecretsSet", "project": "App.csproj", "key": "Stripe:ApiKey", "value": secret }),
    );
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&["user-secrets", "set", "Stripe:ApiKey", secret, "--project", "App.csproj"])
    );
    assert_eq!(value["key"], "Stripe:ApiKey");
    assert_eq!(value["command"], "dotnet user-secrets set Stripe:ApiKey [REDACTED] --project App.csproj");
    let project = setup.path().canonicalize().unwrap().join("App.csproj").display().to_string();
    assert_eq!(value["lockInfo"]["lockKey"], format!("{project}#user-secrets"));
    assert_hidden(&visible(&call, &result), &[secret, "SetValue0123456789"]);
}

#[test]
fn secrets_set_takes_numbers_as_text_and_hides_them_too() {
    let setup = plain(None);
    let call = TestCall::new();
    let result = setup.call_with(&call, json!({ "action": "SecretsSet", "key": "Pin", "value": 90817263 }));
    succeeded(&result);
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "set", "Pin", "90817263"]));
    assert_hidden(&visible(&call, &result), &["90817263"]);
}

#[test]
fn a_failed_secrets_set_keeps_the_value_out_of_the_error() {
    let secret = "Failing-Secret-Value-3";
    let setup = plain(Some("no-project"));
    let call = TestCall::new();
    let result = setup.call_with(&call, json!({ "action": "SecretsSet", "key": "Db:Password", "value": secret }));
    assert_eq!(code(failed(&result)), "EXIT_1");
    let error = &result.structured_content.as_ref().unwrap()["errors"][0];
    assert!(error["message"].as_str().unwrap().contains("Could not find a MSBuild project file"), "{error}");
    assert_eq!(error["data"]["command"], "dotnet user-secrets set Db:Password [REDACTED]");
    assert_hidden(&visible(&call, &result), &[secret]);
}

#[test]
fn secrets_list_hides_values_unless_the_operator_allows_them() {
    let secrets = secret_values();
    let setup = plain(Some("secrets"));
    let call = TestCall::new().with_features(&["verbosity=verbose"]);
    let result = setup.call_with(&call, json!({ "action": "SecretsList", "project": "App.csproj" }));
    let value = succeeded(&result);
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "list", "--project", "App.csproj", "--json"]));
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

    let setup = configured(Some("secrets"), true);
    let result = setup.call(json!({ "action": "SecretsList" }));
    let value = succeeded(&result);
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "list", "--json"]));
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
    let setup = plain(None);
    let value = succeeded(&setup.call(json!({ "action": "SecretsList" }))).clone();
    assert_eq!(value["count"], 3);
    assert_eq!(value["secrets"][0], json!({ "key": "FeatureFlags:NewCheckout", "value": "[REDACTED]" }));
}

#[test]
fn secrets_remove() {
    let setup = plain(None);
    let value =
        succeeded(&setup.call(json!({ "action": "SecretsRemove", "project": "App.csproj", "key": "Smtp:Password" })))
            .clone();
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "remove", "Smtp:Password", "--project", "App.csproj"]));
    assert_eq!(value["key"], "Smtp:Password");
}

#[test]
fn secrets_clear_asks_with_the_project_and_a_decline_runs_nothing() {
    let setup = plain(None);
    let (call, asked) = client(&[setup.path()], Some(json!({ "action": "cancel" })));
    let result = setup.call_with(&call, json!({ "action": "SecretsClear" }));
    assert_eq!(code(failed(&result)), "OPERATION_CANCELLED");
    assert!(setup.double.argvs().is_empty());
    assert!(asked.lock().unwrap()[0].contains("App.csproj"), "{:?}", asked.lock().unwrap());

    let (call, _) = client(&[setup.path()], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let value = succeeded(&setup.call_with(&call, json!({ "action": "SecretsClear" }))).clone();
    let project = setup.path().join("App.csproj").display().to_string();
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "clear", "--project", &project]));
    assert_eq!(value["project"], project);
}

#[test]
fn the_project_comes_from_the_roots_when_omitted() {
    let setup = plain(None);
    let (call, _) = client(&[setup.path()], None);
    succeeded(&setup.call_with(&call, json!({ "action": "SecretsList" })));
    let project = setup.path().join("App.csproj").display().to_string();
    assert_eq!(setup.only_argv(), strings(&["user-secrets", "list", "--project", &project, "--json"]));

    setup.double.clear_log();
    succeeded(&setup.call_with(&call, json!({ "action": "CertificateCheck" })));
    assert_eq!(
        setup.only_argv(),
        strings(&["dev-certs", "https", "--check-trust-machine-readable"]),
        "certificates are not per project"
    );
}

#[test]
fn stray_and_missing_parameters_are_refused() {
    let setup = plain(None);
    let cases = [
        (json!({ "action": "CertificateTrust", "project": "App.csproj" }), "project"),
        (json!({ "action": "SecretsSet", "key": "A" }), "value"),
        (json!({ "action": "SecretsSet", "value": "v" }), "key"),
        (json!({ "action": "SecretsRemove" }), "key"),
        (json!({ "action": "SecretsList", "value": "x" }), "value"),
        (json!({ "action": "SecretsSet", "key": "--id", "value": "v" }), "key"),
    ];
    for (args, named) in cases {
        let result = setup.call(args.clone());
        assert_eq!(code(failed(&result)), "INVALID_PARAMS", "{args}");
        assert_eq!(parameter(failed(&result)), named, "{args}");
    }
    assert!(setup.double.argvs().is_empty());
}

#[test]
fn held_locks_refuse_with_lock_info() {
    let setup = plain(None);
    let certificates = LockTarget { scope: LockScope::Global, key: CERTIFICATE_LOCK_KEY.to_owned() };
    let held = setup.hold(&certificates, "other");
    let result = setup.call(json!({ "action": "CertificateTrust" }));
    assert_eq!(code(failed(&result)), "CONCURRENCY_CONFLICT");
    assert_eq!(result.structured_content.as_ref().unwrap()["lockInfo"]["lockContended"], true);
    succeeded(&setup.call(json!({ "action": "CertificateCheck" })));
    drop(held);

    let project = LockTarget::for_path(None, setup.path());
    let _build = setup.hold(&project, "dotnet_project Run");
    assert_eq!(code(failed(&setup.call(json!({ "action": "SecretsInit" })))), "CONCURRENCY_CONFLICT");
    succeeded(&setup.call(json!({ "action": "SecretsSet", "key": "A", "value": "b" })));
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let setup = plain(None);
    let args = json!({ "action": "SecretsList", "project": "App.csproj" });
    succeeded(&setup.call(args.clone()));
    let plain_argv = setup.only_argv();
    setup.double.clear_log();
    let filled = dotnet_support::testkit::with_defaults(&setup.tool, &args);
    assert_eq!((filled["trust"].clone(), filled["key"].clone()), (json!(false), json!("")), "{filled}");
    succeeded(&setup.call(filled));
    assert_eq!(setup.only_argv(), plain_argv);
}

#[test]
fn a_read_only_server_checks_and_lists_only() {
    let setup = Setup::with(|dir, double| {
        std::fs::write(dir.join("App.csproj"), "<Project />").unwrap();
        double.setting("ReadOnly", json!(true))
    });
    let spec = setup.tool.spec();
    assert_eq!(spec.get_input_schema()["properties"]["action"]["enum"], json!(["CertificateCheck", "SecretsList"]));
    assert!(spec.get_input_schema()["properties"].get("password").is_none(), "no parameter of a hidden action");
    assert_eq!(spec.get_annotations().read_only, Some(true));
    let refused = setup.call_with(&TestCall::new().unchecked(), json!({ "action": "CertificateClean" }));
    assert_eq!(code(failed(&refused)), "READ_ONLY");
    assert!(setup.double.argvs().is_empty());
    let full = plain(None).tool.spec();
    let annotations = full.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(false), Some(true), Some(true), Some(false))
    );
}
