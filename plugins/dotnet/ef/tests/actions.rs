//! The `dotnet_ef` tool called in process against the real dotnet test double: the exact argument
//! vector of every action, the redaction of connection strings (arguments, output, the echoed
//! command, errors, progress), the missing dotnet-ef tool, confirmation through elicitation, roots
//! discovery, locks and read-only service. The test kit checks every result against the
//! advertised schemas, as the host does.

use std::path::Path;

mod common;

use common::{Setup, plain, with_project};
use dotnet_ef::INSTALL_COMMAND;
use dotnet_support::{
    locking::LockTarget,
    testkit::{assert_hidden, client, code, failed, parameter, secret_values, strings, succeeded, visible},
};
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::{Value, json};

/// A connection string with a password, passed with `--connection`.
const CONNECTION: &str =
    "Server=db.internal;Database=app;User Id=sa;Password=Conn-Arg-Pw-91;TrustServerCertificate=True";

#[test]
fn migrations_add_reads_the_files_from_json() {
    let setup = plain(None);
    let call = TestCall::new();
    let result = setup.call_with(
        &call,
        json!({
            "action": "MigrationsAdd",
            "name": "AddCustomerEmail",
            "project": "App.csproj",
            "startupProject": "Web/Web.csproj",
            "context": "AppDbContext",
            "framework": "net10.0",
            "outputDir": "Data/Migrations"
        }),
    );
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "migrations",
            "add",
            "AddCustomerEmail",
            "--project",
            "App.csproj",
            "--startup-project",
            "Web/Web.csproj",
            "--context",
            "AppDbContext",
            "--framework",
            "net10.0",
            "--output-dir",
            "Data/Migrations",
            "--prefix-output",
            "--json"
        ])
    );
    let base = setup.path().join("Data/Migrations/20260115100000_AddCustomerEmail");
    assert_eq!(value["action"], "MigrationsAdd");
    assert_eq!(value["name"], "AddCustomerEmail");
    assert_eq!(value["migrationFile"], format!("{}.cs", base.display()));
    assert_eq!(value["metadataFile"], format!("{}.Designer.cs", base.display()));
    assert!(value["snapshotFile"].as_str().unwrap().ends_with("Data/Migrations/AppDbContextModelSnapshot.cs"));
    assert_eq!(value["lockInfo"]["lockScope"], "project");
    assert_eq!(
        value["lockInfo"]["lockKey"],
        setup.path().canonicalize().unwrap().join("App.csproj").display().to_string()
    );
    assert!(value["command"].as_str().unwrap().starts_with("dotnet ef migrations add AddCustomerEmail"));
    assert!(result.joined_text().starts_with("Added the migration AddCustomerEmail."), "{}", result.joined_text());
    let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    assert_eq!(progress, ["dotnet ef migrations add", "building the project", "project built"]);
}

#[test]
fn the_real_tool_s_output_is_read_past_the_app_s_start_up_logging() {
    // The double replays dotnet-ef 10.0.15 on SDK 10.0.401 (the real-SDK scenario `tools`): the
    // DbContext writes "[12:00:00 INF] BloggingContext starting" before the tool's JSON.
    let setup = Setup::with(|dir, double| {
        std::fs::write(dir.join("Data.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />").unwrap();
        double
    });
    let call = |action: &str, extra: Value| {
        let mut args = json!({ "action": action, "project": "Data.csproj", "context": "BloggingContext" });
        args.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        setup.call(args)
    };
    let added = call("MigrationsAdd", json!({ "name": "Initial" }));
    let added = succeeded(&added);
    assert!(added["migrationFile"].as_str().unwrap().ends_with("Migrations/20260101000000_Initial.cs"), "{added}");
    let listed = call("MigrationsList", json!({}));
    assert_eq!(
        succeeded(&listed)["migrations"],
        json!([{ "id": "20260101000000_Initial", "name": "Initial", "safeName": "Initial", "applied": false }])
    );
    let info = call("DbContextInfo", json!({ "noBuild": true }));
    assert_eq!(succeeded(&info)["context"]["providerName"], "Microsoft.EntityFrameworkCore.Sqlite");
    let script = call("MigrationsScript", json!({ "noBuild": true }));
    let script = succeeded(&script)["script"].as_str().unwrap().to_owned();
    assert!(script.starts_with("CREATE TABLE IF NOT EXISTS \"__EFMigrationsHistory\""), "{script}");
    assert!(!script.contains("BloggingContext starting"), "{script}");
    let dry = call("DatabaseDrop", json!({ "noBuild": true, "dryRun": true }));
    assert_eq!(
        (succeeded(&dry)["database"].as_str(), succeeded(&dry)["server"].as_str()),
        (Some("main"), Some("blogging.db"))
    );
}

#[test]
fn migrations_list_passes_the_connection_value_and_returns_each_migration() {
    let setup = plain(None);
    let call = TestCall::new();
    let result = setup.call_with(
        &call,
        json!({ "action": "MigrationsList", "project": "App.csproj", "connection": CONNECTION, "noBuild": true }),
    );
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "migrations",
            "list",
            "--project",
            "App.csproj",
            "--connection",
            CONNECTION,
            "--no-build",
            "--prefix-output",
            "--json"
        ])
    );
    assert_eq!(value["pendingCount"], 1);
    assert_eq!(value["migrations"].as_array().unwrap().len(), 3);
    assert_eq!(
        value["migrations"][2],
        json!({ "id": "20250301080000_AddCustomerEmail", "name": "AddCustomerEmail", "safeName": "AddCustomerEmail", "applied": false })
    );
    assert!(value.get("lockInfo").is_none(), "a listing takes no lock");
    assert!(value["command"].as_str().unwrap().contains("--connection [REDACTED]"), "{}", value["command"]);
    assert!(result.joined_text().contains("20250301080000_AddCustomerEmail (pending)"), "{}", result.joined_text());
    assert_hidden(&visible(&call, &result), &[CONNECTION, "Conn-Arg-Pw-91", "Server=db.internal"]);
}

#[test]
fn migrations_list_without_connecting_does_not_know_what_is_applied() {
    let setup = plain(None);
    let result = setup.call(json!({ "action": "MigrationsList", "noConnect": true }));
    let value = succeeded(&result);
    assert_eq!(setup.only_argv(), strings(&["ef", "migrations", "list", "--no-connect", "--prefix-output", "--json"]));
    assert_eq!(value["pendingCount"], Value::Null);
    assert_eq!(value["migrations"][0]["applied"], Value::Null);
}

#[test]
fn migrations_remove_runs_when_the_client_cannot_ask() {
    let setup = plain(None);
    let call = TestCall::new();
    let result =
        setup.call_with(&call, json!({ "action": "MigrationsRemove", "project": "App.csproj", "force": true }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&["ef", "migrations", "remove", "--project", "App.csproj", "--force", "--prefix-output"])
    );
    assert_eq!(value["removedMigration"], "20250301080000_AddCustomerEmail");
    assert_eq!(value["force"], true);
    let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    assert!(progress.contains(&"removing migration 20250301080000_AddCustomerEmail".to_owned()), "{progress:?}");
    assert!(progress.contains(&"reverting the model snapshot".to_owned()), "{progress:?}");
}

#[test]
fn migrations_script_returns_the_sql_or_the_file() {
    let setup = plain(None);
    let result = setup.call(json!({
        "action": "MigrationsScript",
        "project": "App.csproj",
        "from": "InitialCreate",
        "to": "AddOrders",
        "idempotent": true
    }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "migrations",
            "script",
            "InitialCreate",
            "AddOrders",
            "--project",
            "App.csproj",
            "--idempotent",
            "--prefix-output"
        ])
    );
    let script = value["script"].as_str().unwrap();
    assert!(script.starts_with("CREATE TABLE IF NOT EXISTS \"__EFMigrationsHistory\""), "{script}");
    assert!(script.ends_with("COMMIT;"), "{script}");
    assert!(!script.contains("Build started"), "{script}");
    assert_eq!(
        (value["from"].as_str(), value["to"].as_str(), value["idempotent"].as_bool()),
        (Some("InitialCreate"), Some("AddOrders"), Some(true))
    );
    assert!(result.joined_text().contains("CREATE TABLE \"Customers\""), "{}", result.joined_text());

    let setup = plain(None);
    let result = setup.call(json!({ "action": "MigrationsScript", "to": "AddOrders", "output": "out.sql" }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&["ef", "migrations", "script", "0", "AddOrders", "--output", "out.sql", "--prefix-output"])
    );
    assert_eq!(value["outputFile"], setup.path().join("out.sql").display().to_string());
    assert!(value.get("script").is_none());
}

#[test]
fn database_update_reports_the_migrations_applied_or_reverted() {
    let setup = plain(None);
    let call = TestCall::new();
    let result = setup.call_with(
        &call,
        json!({ "action": "DatabaseUpdate", "project": "App.csproj", "migration": "AddCustomerEmail", "connection": CONNECTION }),
    );
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "database",
            "update",
            "AddCustomerEmail",
            "--project",
            "App.csproj",
            "--connection",
            CONNECTION,
            "--prefix-output"
        ])
    );
    assert_eq!(value["appliedMigrations"], json!(["20250301080000_AddCustomerEmail"]));
    assert_eq!(value["revertedMigrations"], json!([]));
    assert_eq!(
        (value["upToDate"].as_bool(), value["targetMigration"].as_str()),
        (Some(false), Some("AddCustomerEmail"))
    );
    assert_eq!(value["lockInfo"]["lockScope"], "project");
    let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    assert_eq!(
        progress,
        [
            "dotnet ef database update",
            "building the project",
            "project built",
            "applying migration 20250301080000_AddCustomerEmail",
            "done"
        ]
    );
    assert_hidden(&visible(&call, &result), &[CONNECTION, "Conn-Arg-Pw-91"]);

    let setup = plain(None);
    let value =
        succeeded(&setup.call(json!({ "action": "DatabaseUpdate", "migration": "0", "noBuild": true }))).clone();
    assert_eq!(setup.only_argv(), strings(&["ef", "database", "update", "0", "--no-build", "--prefix-output"]));
    assert_eq!(value["revertedMigrations"], json!(["20250201141500_AddOrders", "20250110093000_InitialCreate"]));
}

#[test]
fn database_drop_dry_run_needs_no_confirmation_and_takes_no_lock() {
    let setup = plain(None);
    let (call, asked) = client(&[], Some(json!({ "action": "decline" })));
    let result = setup
        .call_with(&call, json!({ "action": "DatabaseDrop", "project": "App.csproj", "dryRun": true, "force": true }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&["ef", "database", "drop", "--project", "App.csproj", "--dry-run", "--prefix-output"])
    );
    assert!(asked.lock().unwrap().is_empty(), "a dry run asks nothing");
    assert_eq!(
        (value["dryRun"].as_bool(), value["dropped"].as_bool(), value["database"].as_str(), value["server"].as_str()),
        (Some(true), Some(false), Some("main"), Some("app.db"))
    );
    assert!(value.get("lockInfo").is_none());
}

#[test]
fn database_drop_asks_and_forces_only_after_a_yes() {
    let setup = plain(None);
    let (call, asked) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let result =
        setup.call_with(&call, json!({ "action": "DatabaseDrop", "project": "App.csproj", "context": "AppDbContext" }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "database",
            "drop",
            "--project",
            "App.csproj",
            "--context",
            "AppDbContext",
            "--force",
            "--prefix-output"
        ])
    );
    assert_eq!((value["dropped"].as_bool(), value["database"].as_str()), (Some(true), Some("main")));
    assert_eq!(value["lockInfo"]["lockScope"], "project");
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert!(asked[0].contains("AppDbContext") && asked[0].contains("App.csproj"), "{}", asked[0]);
}

#[test]
fn database_drop_declined_runs_nothing() {
    for answer in [
        json!({ "action": "decline" }),
        json!({ "action": "cancel" }),
        json!({ "action": "accept", "content": { "confirm": false } }),
    ] {
        let setup = plain(None);
        let (call, _) = client(&[], Some(answer.clone()));
        let result = setup.call_with(&call, json!({ "action": "DatabaseDrop", "force": true }));
        assert_eq!(code(failed(&result)), "OPERATION_CANCELLED", "{answer}");
        assert!(result.joined_text().contains("not run"), "{}", result.joined_text());
        assert!(setup.double.argvs().is_empty(), "nothing ran after {answer}");
    }
}

#[test]
fn database_drop_without_a_way_to_ask_needs_force() {
    let setup = plain(None);
    let result = setup.call(json!({ "action": "DatabaseDrop" }));
    assert_eq!(code(failed(&result)), "INVALID_PARAMS");
    assert_eq!(parameter(failed(&result)), "force");
    assert!(setup.double.argvs().is_empty());

    let result = setup.call(json!({ "action": "DatabaseDrop", "force": true }));
    assert_eq!(succeeded(&result)["dropped"], true);
    assert_eq!(setup.only_argv(), strings(&["ef", "database", "drop", "--force", "--prefix-output"]));
}

#[test]
fn migrations_remove_asks_and_a_decline_runs_nothing() {
    let setup = plain(None);
    let (call, asked) = client(&[], Some(json!({ "action": "decline" })));
    let result = setup.call_with(&call, json!({ "action": "MigrationsRemove", "force": true }));
    assert_eq!(code(failed(&result)), "OPERATION_CANCELLED");
    assert!(setup.double.argvs().is_empty());
    assert!(asked.lock().unwrap()[0].contains("reverted in the database"), "{:?}", asked.lock().unwrap());

    let (call, _) = client(&[], Some(json!({ "action": "accept" })));
    let result = setup.call_with(&call, json!({ "action": "MigrationsRemove" }));
    assert_eq!(succeeded(&result)["force"], false);
    assert_eq!(setup.only_argv(), strings(&["ef", "migrations", "remove", "--prefix-output"]));
}

#[test]
fn dbcontext_list_and_info_read_the_json() {
    let setup = plain(None);
    let result = setup.call(json!({ "action": "DbContextList", "project": "App.csproj", "framework": "net10.0" }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "dbcontext",
            "list",
            "--project",
            "App.csproj",
            "--framework",
            "net10.0",
            "--prefix-output",
            "--json"
        ])
    );
    assert_eq!(
        value["contexts"],
        json!([{
            "fullName": "App.Data.AppDbContext",
            "safeName": "AppDbContext",
            "name": "AppDbContext",
            "assemblyQualifiedName": "App.Data.AppDbContext, App, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null"
        }])
    );

    let setup = plain(None);
    let result = setup.call(json!({ "action": "DbContextInfo", "project": "App.csproj", "context": "AppDbContext" }));
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "dbcontext",
            "info",
            "--project",
            "App.csproj",
            "--context",
            "AppDbContext",
            "--prefix-output",
            "--json"
        ])
    );
    assert_eq!(
        value["context"],
        json!({
            "type": "App.Data.AppDbContext",
            "providerName": "Microsoft.EntityFrameworkCore.Sqlite",
            "databaseName": "main",
            "dataSource": "app.db",
            "options": "None"
        })
    );
    assert!(result.joined_text().starts_with("App.Data.AppDbContext uses Microsoft.EntityFrameworkCore.Sqlite."));
}

#[test]
fn dbcontext_scaffold_masks_the_positional_connection_string_everywhere() {
    let connection = "Data Source=scaffold-source.db;Cache=Shared";
    let setup = plain(None);
    let call = TestCall::new();
    let result = setup.call_with(
        &call,
        json!({
            "action": "DbContextScaffold",
            "project": "App.csproj",
            "connection": connection,
            "provider": "Microsoft.EntityFrameworkCore.Sqlite",
            "context": "ShopContext",
            "outputDir": "Models",
            "contextDir": "Data",
            "tables": ["Customers", "Orders"],
            "schemas": "main",
            "useDatabaseNames": true,
            "force": true
        }),
    );
    let value = succeeded(&result);
    assert_eq!(
        setup.only_argv(),
        strings(&[
            "ef",
            "dbcontext",
            "scaffold",
            connection,
            "Microsoft.EntityFrameworkCore.Sqlite",
            "--project",
            "App.csproj",
            "--context",
            "ShopContext",
            "--output-dir",
            "Models",
            "--context-dir",
            "Data",
            "--table",
            "Customers",
            "--table",
            "Orders",
            "--schema",
            "main",
            "--use-database-names",
            "--force",
            "--prefix-output"
        ])
    );
    assert_eq!(value["provider"], "Microsoft.EntityFrameworkCore.Sqlite");
    assert_eq!(value["outputDir"], setup.path().join("Models").display().to_string());
    assert!(value["messages"][0].as_str().unwrap().starts_with("To protect potentially sensitive information"));
    assert!(
        value["command"]
            .as_str()
            .unwrap()
            .starts_with("dotnet ef dbcontext scaffold [REDACTED] Microsoft.EntityFrameworkCore.Sqlite"),
        "{}",
        value["command"]
    );
    assert_eq!(value["lockInfo"]["lockScope"], "project");
    assert_hidden(&visible(&call, &result), &[connection, "scaffold-source.db"]);
}

#[test]
fn required_and_stray_parameters_are_refused_before_anything_runs() {
    let setup = plain(None);
    let cases = [
        (json!({ "action": "MigrationsAdd" }), "name"),
        (json!({ "action": "DbContextScaffold", "provider": "P" }), "connection"),
        (json!({ "action": "DbContextScaffold", "connection": "Data Source=x" }), "provider"),
        (json!({ "action": "MigrationsList", "force": true }), "force"),
        (json!({ "action": "DbContextList", "context": "A" }), "context"),
        (json!({ "action": "MigrationsAdd", "name": "--force" }), "name"),
        (json!({ "action": "MigrationsList", "connection": "--no-build" }), "connection"),
        (json!({ "action": "Migrate" }), "action"),
    ];
    for (args, named) in cases {
        // The tool's own check, for arguments the host's schema check would also refuse.
        let result = setup.call_with(&TestCall::new().unchecked(), args.clone());
        assert_eq!(code(failed(&result)), "INVALID_PARAMS", "{args}");
        assert_eq!(parameter(failed(&result)), named, "{args}");
    }
    assert!(setup.double.argvs().is_empty());
}

// --- redaction --------------------------------------------------------------------------

#[test]
fn secrets_in_the_output_never_reach_the_client() {
    let secrets = secret_values();
    for (action, extra) in [
        ("MigrationsList", json!({ "connection": CONNECTION })),
        ("DatabaseUpdate", json!({ "connection": CONNECTION })),
        ("MigrationsScript", json!({})),
        ("DbContextInfo", json!({})),
    ] {
        let setup = plain(Some("secrets"));
        let call = TestCall::new().with_features(&["verbosity=verbose"]);
        let mut args = extra.clone();
        args["action"] = json!(action);
        let result = setup.call_with(&call, args);
        succeeded(&result);
        let seen = visible(&call, &result);
        if action == "MigrationsScript" {
            // The script is the tool's `data:` lines alone: the app's log is not part of it.
            assert!(!seen.contains("Password="), "{action}: the app's log reached the script:\n{seen}");
        } else {
            assert!(seen.contains("Password=[REDACTED]"), "{action}: the secrets were printed and redacted:\n{seen}");
        }
        assert_hidden(&seen, &secrets);
        assert_hidden(&seen, &[CONNECTION, "Conn-Arg-Pw-91"]);
    }
}

#[test]
fn a_failed_run_keeps_the_connection_string_out_of_the_error() {
    let setup = plain(Some("build-fail"));
    let call = TestCall::new();
    let result = setup.call_with(&call, json!({ "action": "DatabaseUpdate", "connection": CONNECTION }));
    assert_eq!(code(failed(&result)), "EXIT_1");
    let error = &result.structured_content.as_ref().unwrap()["errors"][0];
    assert!(error["message"].as_str().unwrap().contains("Build failed"), "{error}");
    assert!(error["data"]["command"].as_str().unwrap().contains("--connection [REDACTED]"), "{error}");
    assert_eq!(result.structured_content.as_ref().unwrap()["lockInfo"]["lockScope"], "project");
    assert_hidden(&visible(&call, &result), &[CONNECTION, "Conn-Arg-Pw-91"]);

    let connection = "Data Source=failing-scaffold.db";
    let setup = plain(Some("build-fail"));
    let result = setup.call(json!({ "action": "DbContextScaffold", "connection": connection, "provider": "Microsoft.EntityFrameworkCore.Sqlite" }));
    assert_eq!(code(failed(&result)), "EXIT_1");
    assert_hidden(&serde_json::to_string(&result).unwrap(), &[connection, "failing-scaffold.db"]);
}

// --- the missing tool, roots, locks -----------------------------------------------------

#[test]
fn a_missing_dotnet_ef_tool_is_a_capability_error_with_the_install_command() {
    // A home without global tools, whatever the machine's own holds.
    let home = tempfile::tempdir().unwrap();
    let setup =
        with_project(|double| double.scenario("no-ef").env("DOTNET_CLI_HOME", &home.path().display().to_string()));
    let result = setup.call(json!({ "action": "MigrationsList", "connection": CONNECTION }));
    assert_eq!(code(failed(&result)), "CAPABILITY_NOT_AVAILABLE");
    let value = result.structured_content.as_ref().unwrap();
    let error = &value["errors"][0];
    assert_eq!(error["mcpErrorCode"], -32001);
    assert_eq!(error["category"], "Capability");
    assert!(error["message"].as_str().unwrap().contains(INSTALL_COMMAND), "{error}");
    assert_eq!(error["data"]["additionalData"]["installCommand"], INSTALL_COMMAND);
    assert_eq!(error["data"]["exitCode"], 1);
    assert_eq!(value["exitCode"], 1);
    assert!(
        error["alternatives"].as_array().unwrap().iter().any(|alt| alt.as_str().unwrap().contains("tool-manifest"))
    );
    assert!(result.joined_text().contains(INSTALL_COMMAND), "{}", result.joined_text());
    assert_hidden(&serde_json::to_string(&result).unwrap(), &[CONNECTION, "Conn-Arg-Pw-91"]);
}

#[test]
fn a_global_dotnet_ef_off_the_path_is_named_with_its_folder_instead_of_installed_again() {
    // SDK 10.0.401: after `dotnet tool install -g dotnet-ef`, `dotnet ef` still answers "Could not
    // execute ..." when ~/.dotnet/tools is not on PATH; installing it again would fail.
    let home = tempfile::tempdir().unwrap();
    let tools = home.path().join(".dotnet/tools");
    std::fs::create_dir_all(&tools).unwrap();
    std::fs::write(tools.join("dotnet-ef"), "").unwrap();
    let setup =
        with_project(|double| double.scenario("no-ef").env("DOTNET_CLI_HOME", &home.path().display().to_string()));
    let result = setup.call(json!({ "action": "MigrationsList" }));
    assert_eq!(code(failed(&result)), "CAPABILITY_NOT_AVAILABLE");
    let error = &result.structured_content.as_ref().unwrap()["errors"][0];
    let folder = tools.display().to_string();
    assert!(error["message"].as_str().unwrap().contains(&folder), "{error}");
    assert!(!error["message"].as_str().unwrap().contains(INSTALL_COMMAND), "{error}");
    assert_eq!(error["data"]["additionalData"]["globalToolsFolder"], folder.as_str());
    assert!(error["hint"].as_str().unwrap().contains("PATH"), "{error}");
}

#[test]
fn the_project_comes_from_the_roots_when_omitted() {
    let setup = plain(None);
    let (call, _) = client(&[setup.path()], None);
    let result = setup.call_with(&call, json!({ "action": "DbContextList" }));
    succeeded(&result);
    let project = setup.path().join("App.csproj").display().to_string();
    assert_eq!(
        setup.only_argv(),
        strings(&["ef", "dbcontext", "list", "--project", &project, "--prefix-output", "--json"])
    );

    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("Other.csproj"), "<Project />").unwrap();
    let (call, _) = client(&[setup.path(), other.path()], None);
    setup.double.clear_log();
    let result = setup.call_with(&call, json!({ "action": "DbContextList" }));
    assert_eq!(code(failed(&result)), "INVALID_PARAMS");
    let message = result.structured_content.as_ref().unwrap()["errors"][0]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("App.csproj") && message.contains("Other.csproj"), "{message}");
    assert!(setup.double.argvs().is_empty());
}

#[test]
fn a_held_project_lock_refuses_mutations_but_not_listings() {
    let setup = plain(None);
    let target = LockTarget::for_path(Some(Path::new("App.csproj")), setup.path());
    let _held = setup.hold(&target, "dotnet_project Build");

    let result = setup.call(json!({ "action": "MigrationsAdd", "name": "Blocked" }));
    assert_eq!(code(failed(&result)), "CONCURRENCY_CONFLICT");
    let value = result.structured_content.as_ref().unwrap();
    assert_eq!(value["lockInfo"]["lockContended"], true);
    assert_eq!(value["lockInfo"]["lockKey"], target.key);
    assert!(setup.double.argvs().is_empty());

    let result = setup.call(json!({ "action": "MigrationsList" }));
    succeeded(&result);
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let setup = plain(None);
    let args = json!({ "action": "DbContextList", "project": "App.csproj" });
    succeeded(&setup.call(args.clone()));
    let plain_argv = setup.only_argv();
    setup.double.clear_log();
    let mut filled = dotnet_support::testkit::with_defaults(&setup.tool, &args);
    assert_eq!(filled["force"], json!(false), "{filled}");
    // `tables` and `schemas` are a string or a list: a client fills in either empty form.
    for empty in [json!(""), json!([])] {
        filled["tables"] = empty.clone();
        filled["schemas"] = empty;
        setup.double.clear_log();
        succeeded(&setup.call(filled.clone()));
        assert_eq!(setup.only_argv(), plain_argv);
    }
}

#[test]
fn a_read_only_server_lists_and_describes_only() {
    let setup = Setup::with(|dir, double| {
        std::fs::write(dir.join("App.csproj"), "<Project />").unwrap();
        double.setting("ReadOnly", json!(true))
    });
    let spec = setup.tool.spec();
    assert_eq!(
        spec.get_input_schema()["properties"]["action"]["enum"],
        json!(["MigrationsList", "DbContextList", "DbContextInfo"])
    );
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(true), Some(false), Some(true), Some(true)),
        "MigrationsList asks the database"
    );
    let refused = setup.call_with(&TestCall::new().unchecked(), json!({ "action": "DatabaseDrop", "force": true }));
    assert_eq!(code(failed(&refused)), "READ_ONLY");
    assert!(setup.double.argvs().is_empty(), "nothing ran");
}
