//! Every answer of `dotnet_dev_certs` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (which
//! replays SDK 10.0.401's answers from recordings/secrets: the partial trust on Linux, the
//! machine-readable check, a pem export, the user-secrets commands), an SDK before 10 (the text
//! check), and its failure modes: the command failing, no dotnet, refused arguments and the locks
//! held elsewhere.

use dotnet_dev_certs::{Action, CERTIFICATE_LOCK_KEY, DotnetDevCerts};
use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, Harness, code},
};
use mcp_plugin_api::locks::LockScope;
use serde_json::{Value, json};

type Certs = Harness<DotnetDevCerts>;

/// A project folder (`App.csproj`) and the double, with `scenario` when given.
fn with_project(scenario: Option<&'static str>) -> Certs {
    Certs::with(|dir, mut double| {
        std::fs::write(dir.join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />").unwrap();
        if let Some(names) = scenario {
            double = double.scenario(names);
        }
        double
    })
}

/// One call of each action that succeeds on the double, with the action's name; every kind of
/// success an action has (a pem export with and without its key, a pfx one).
fn successes() -> Vec<(&'static str, Value)> {
    vec![
        ("CertificateTrust", json!({ "action": "CertificateTrust" })),
        ("CertificateCheck", json!({ "action": "CertificateCheck" })),
        ("CertificateClean", json!({ "action": "CertificateClean" })),
        ("CertificateExport", json!({ "action": "CertificateExport", "path": "dev.pfx" })),
        (
            "CertificateExport",
            json!({ "action": "CertificateExport", "path": "dev.pem", "format": "pem", "password": "Pw-0123456789" }),
        ),
        (
            "CertificateExport",
            json!({ "action": "CertificateExport", "path": "dev.pem", "format": "pem", "noPassword": true }),
        ),
        ("SecretsInit", json!({ "action": "SecretsInit", "project": "App.csproj" })),
        ("SecretsSet", json!({ "action": "SecretsSet", "key": "Movies:ApiKey", "value": "v-0123456789" })),
        ("SecretsList", json!({ "action": "SecretsList", "project": "App.csproj" })),
        ("SecretsRemove", json!({ "action": "SecretsRemove", "key": "Movies:ApiKey" })),
        ("SecretsClear", json!({ "action": "SecretsClear" })),
    ]
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let s = with_project(Some("secrets"));
    let mut answers = Answers::new(&s.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, s.call(args));
        assert!(structured["command"].as_str().unwrap_or_default().starts_with("dotnet "), "{structured}");
        assert!(structured["exitCode"].is_i64(), "{structured}");
    }
    // Operator-shown values, and an SDK before 10 (the text check, with and without trust).
    let shown = Certs::with(|dir, double| {
        std::fs::write(dir.join("App.csproj"), "<Project />").unwrap();
        double.scenario("secrets").setting("ShowSecretValues", json!(true))
    });
    assert_eq!(answers.hold("SecretsList", shown.call(json!({ "action": "SecretsList" })))["valuesShown"], true);
    let old_sdk = Certs::with(|_, double| double.env("DOTNET_DOUBLE_SDK_VERSION", "9.0.300"));
    for trust in [false, true] {
        answers.hold("CertificateCheck", old_sdk.call(json!({ "action": "CertificateCheck", "trust": trust })));
    }
    // The command fails: no project in the working directory.
    let no_project = with_project(Some("no-project"));
    for (action, mut args) in successes().into_iter().filter(|(action, _)| action.starts_with("Secrets")) {
        args.as_object_mut().unwrap().remove("project");
        assert_eq!(code(&answers.hold(action, no_project.call(args))), "EXIT_1", "{action}");
    }
    // Refused arguments.
    let refused = [
        ("CertificateExport", json!({ "action": "CertificateExport", "path": "dev.pfx", "format": "der" })),
        ("CertificateExport", json!({ "action": "CertificateExport", "path": "dev.pem" })),
        ("CertificateExport", json!({ "action": "CertificateExport", "path": "dev.pfx", "noPassword": true })),
        ("SecretsSet", json!({ "action": "SecretsSet", "key": "A", "value": "-v" })),
        ("SecretsRemove", json!({ "action": "SecretsRemove" })),
        ("SecretsInit", json!({ "action": "SecretsInit", "project": "-App.csproj" })),
    ];
    for (action, args) in refused {
        assert_eq!(code(&answers.hold(action, s.call(args))), "INVALID_PARAMS", "{action}");
    }
    // A parameter the action does not take.
    for (action, mut args) in successes() {
        match action.starts_with("Certificate") {
            true => args["project"] = json!("App.csproj"),
            false => args["trust"] = json!(true),
        }
        assert_eq!(code(&answers.hold(action, s.call(args))), "INVALID_PARAMS", "{action}");
    }
    // Another operation holds the certificate store, or the project's secret store.
    {
        let _held = s.hold(
            &LockTarget { scope: LockScope::Global, key: CERTIFICATE_LOCK_KEY.to_owned() },
            "another CertificateTrust",
        );
        for (action, args) in successes().into_iter().filter(|(action, _)| *action != "CertificateCheck") {
            if action.starts_with("Certificate") {
                assert_eq!(code(&answers.hold(action, s.call(args))), "CONCURRENCY_CONFLICT", "{action}");
            }
        }
    }
    // No dotnet at all: every action fails.
    let no_dotnet = Certs::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        assert_eq!(code(&answers.hold(action, no_dotnet.call(args))), "CAPABILITY_NOT_AVAILABLE", "{action}");
    }
    answers.assert_every_action(Action::NAMES);
}
