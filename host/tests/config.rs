//! End-to-end tests of strict configuration through the real binary: a key
//! that is not a setting stops the host (exit 2) naming the closest known
//! one, `check` lists it with its other problems, a plugin's section is
//! checked against the schema the plugin declares, and `config-schema`
//! prints the schema that the committed `appsettings.schema.json` holds and
//! that the default configuration and `init`'s template follow.

mod common;

use std::process::{Command, Output};

use common::{Setup, workspace_root};
use serde_json::{Value, json};

const HOST: &str = env!("CARGO_BIN_EXE_mcp-plugin-host");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn config_schema() -> Value {
    let output = Command::new(HOST).arg("config-schema").output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Parses a configuration file as the host does (comments allowed).
fn read_config(path: &std::path::Path) -> Value {
    let file = std::fs::File::open(path).unwrap();
    serde_json::from_reader(json_comments::StripComments::new(file)).unwrap()
}

fn assert_valid(schema: &Value, instance: &Value, what: &str) {
    let validator = jsonschema::validator_for(schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(instance).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "{what} does not follow the schema: {errors:?}");
}

#[test]
fn an_unknown_key_stops_the_host_with_exit_2_and_names_the_closest_setting() {
    let setup = Setup::new(&["sample"], &[], json!({ "Plugins": { "Disable": ["sample"] } }));
    for args in [&[][..], &["plugins"][..]] {
        let output = setup.run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output.stderr));
        let stderr = text(&output.stderr);
        assert!(stderr.contains("`Plugins.Disable` is not a setting; did you mean `Plugins.Disabled`?"), "{stderr}");
    }
}

#[test]
fn an_unknown_key_in_an_environment_override_stops_the_host_too() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let output = Command::new(HOST)
        .arg("--config")
        .arg(setup.config())
        .arg("plugins")
        .env("MCP_PLUGIN_HOST__HTTP__ADRESS", "127.0.0.1:9")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("environment variable MCP_PLUGIN_HOST__HTTP__ADRESS: `Http.adress` is not a setting; did you mean `Http.Address`?"),
        "{stderr}"
    );
}

#[test]
fn check_lists_unknown_keys_with_its_other_problems_and_still_checks_the_plugins() {
    let setup = Setup::new(
        &["sample"],
        &[],
        json!({ "Host": { "LogLevle": "debug" }, "Tools": { "Overrides": { "greet": { "Titel": "Hi" } } } }),
    );
    let output = setup.run(&["check"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(stdout.contains("sample"), "the plugins were still checked: {stdout}");
    assert!(stderr.contains("2 problem(s)"), "{stderr}");
    assert!(stderr.contains("`Host.LogLevle` is not a setting; did you mean `Host.LogLevel`?"), "{stderr}");
    assert!(
        stderr.contains("`Tools.Overrides.greet.Titel` is not a setting; did you mean `Tools.Overrides.greet.Title`?"),
        "{stderr}"
    );
}

#[test]
fn keys_in_any_case_are_settings() {
    let setup =
        Setup::new(&["sample"], &[], json!({ "HOST": { "servername": "x" }, "plugins": { "LAZYLOADING": false } }));
    let output = setup.run(&["check"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
}

#[test]
fn the_committed_schema_is_what_config_schema_prints() {
    let committed = std::fs::read_to_string(workspace_root().join("appsettings.schema.json")).unwrap();
    let output = Command::new(HOST).arg("config-schema").output().unwrap();
    assert_eq!(
        committed,
        text(&output.stdout),
        "appsettings.schema.json is stale: run `mcp-plugin-host config-schema > appsettings.schema.json`"
    );
}

#[test]
fn the_default_configuration_and_the_one_init_writes_follow_the_schema_they_name() {
    let schema = config_schema();
    let default = read_config(&workspace_root().join("appsettings.json"));
    assert_eq!(default["$schema"], "./appsettings.schema.json");
    assert_valid(&schema, &default, "appsettings.json");

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("appsettings.json");
    let output: Output = Command::new(HOST).arg("--config").arg(&config).arg("init").output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let written = read_config(&config);
    assert_valid(&schema, &written, "init's configuration");
    let beside: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(written["$schema"].as_str().unwrap())).unwrap())
            .unwrap();
    assert_eq!(beside, schema, "init writes the schema its configuration names beside it");

    let mut misspelled = written.clone();
    misspelled["Plugins"]["Disable"] = json!([]);
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(!validator.is_valid(&misspelled), "editors flag a key that is not a setting");
}

#[test]
fn check_validates_each_plugins_section_against_the_schema_it_declares() {
    check_validates_plugin_sections(json!({}));
}

/// A plugin that runs in a worker is never opened in the host, not even by `check`: a probe
/// worker reads its settings schema, and its section is checked the same.
#[cfg(unix)]
#[test]
fn check_validates_the_section_of_a_plugin_that_runs_in_a_worker_alike() {
    check_validates_plugin_sections(json!({ "Plugins": { "Isolation": { "*": "process" } } }));
}

/// `check` on misspelled and mistyped plugin settings, then on the fixed ones, under `config`.
fn check_validates_plugin_sections(config: Value) {
    let mut broken = json!({ "Plugins": { "Settings": {
        "sample": { "greeting": 5, "Greting": "Hej" },
        "dotnet_sdk": { "readonly": true, "TimeoutSecs": 5 }
    } } });
    common::merge(&mut broken, config.clone());
    let setup = Setup::new(&["sample", "dotnet_sdk"], &[], broken);
    let output = setup.run(&["check"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    // Its own report (stdout) says why it failed, and so does its error (stderr).
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    for expected in [
        "`Plugins.Settings.sample.Greting` is not a setting; did you mean `Plugins.Settings.sample.Greeting`?",
        "Plugins.Settings.sample: Invalid setting 'Greeting': 5 is not of type \"string\"",
        "`Plugins.Settings.dotnet_sdk.TimeoutSecs` is not a setting; did you mean \
         `Plugins.Settings.dotnet_sdk.TimeoutSeconds`?",
    ] {
        assert!(stdout.contains(expected), "the report lacks {expected}:\n{stdout}");
        assert!(stderr.contains(expected), "missing {expected}:\n{stderr}");
    }
    assert!(stdout.contains("4 problem(s):"), "{stdout}");
    assert!(!stderr.contains("readonly"), "keys are matched without regard to case:\n{stderr}");

    let mut fixed = json!({ "Plugins": { "Settings": {
        "sample": { "Greeting": "Hej" }, "dotnet_sdk": { "ReadOnly": true }
    } } });
    common::merge(&mut fixed, config);
    let fixed = Setup::new(&["sample", "dotnet_sdk"], &[], fixed);
    let output = fixed.run(&["check"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
}

/// Every `Section.Key` the schema knows, spelled as the schema spells it.
fn documented_keys(schema: &Value) -> Vec<String> {
    let resolve = |node: &Value| -> Value {
        let reference = node["$ref"]
            .as_str()
            .or_else(|| node["anyOf"].as_array()?.iter().find_map(|branch| branch["$ref"].as_str()));
        match reference {
            Some(reference) => schema.pointer(reference.trim_start_matches('#')).cloned().unwrap_or(Value::Null),
            None => node.clone(),
        }
    };
    let mut keys = Vec::new();
    for (section, node) in schema["properties"].as_object().unwrap() {
        if let Some(properties) = resolve(node)["properties"].as_object() {
            keys.extend(properties.keys().map(|key| format!("{section}.{key}")));
        }
    }
    keys
}

#[test]
fn every_setting_is_in_the_readmes_table_spelled_as_the_schema_spells_it() {
    let keys = documented_keys(&config_schema());
    assert!(keys.contains(&"Plugins.Disabled".to_owned()) && keys.len() > 20, "{keys:?}");
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let missing: Vec<&String> = keys.iter().filter(|key| !readme.contains(&format!("`{key}"))).collect();
    assert!(
        missing.is_empty(),
        "README.md's configuration table lacks {missing:?} (a field named `logformat` is the key `Logformat`: \
         name it `log_format`)"
    );
}
