//! Tests of redaction as a whole (idempotence, ordinary output left alone, pathological input,
//! JSON and known values, and held-out batches' mixed classes), and the helpers that every
//! module's tests share (`r`, `args`, `lines`, `each`, `each_and_lines`).

use std::borrow::Cow;

use serde_json::json;

use crate::redact::{REDACTED, lines::LineRedactor, mask_known, redact, redact_args, redact_json};

/// The redacted form of `input`, owned.
pub(super) fn r(input: &str) -> String {
    redact(input).into_owned()
}

/// [`redact_args`] of string literals.
pub(super) fn args(list: &[&str]) -> Vec<String> {
    redact_args(&list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
}

/// Each line through [`LineRedactor`], joined: what progress messages and session logs show.
pub(super) fn lines(text: &str) -> String {
    let mut redactor = LineRedactor::new();
    text.lines().filter_map(|line| redactor.line(line)).map(Cow::into_owned).collect::<Vec<_>>().join("\n")
}

/// Asserts each `(input, expected)` pair; `expected` empty means the input comes out untouched.
pub(super) fn each(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        let expected = if expected.is_empty() { input } else { expected };
        assert_eq!(r(input), *expected, "input: {input}");
    }
}

/// Asserts each case on the whole text and line by line.
pub(super) fn each_and_lines(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        let expected = if expected.is_empty() { input } else { expected };
        assert_eq!(r(input), *expected, "{input}");
        assert_eq!(lines(input), *expected, "line by line: {input}");
    }
}

#[test]
fn dashboard_login_token() {
    assert_eq!(
        r("Login to the dashboard at https://localhost:17178/login?t=4f2c9e8d7b6a5f4e3d2c1b0a9f8e7d6c"),
        "Login to the dashboard at https://localhost:17178/login?t=[REDACTED]"
    );
}

#[test]
fn user_secrets_list_lines_and_saved_message() {
    // `KEY = VALUE` lines are judged by their key, as any label is (a `TargetFramework =
    // net10.0` line is not a secret); the values of the user's secret stores are hidden
    // wherever they appear by known-value redaction (see `known`), whatever their key.
    let list =
        "Greeting = hello\nSmtp:Password = x\nConnectionStrings:Db = Server=.;Password=x\nTargetFramework = net10.0\n";
    assert_eq!(
        r(list),
        "Greeting = hello\nSmtp:Password = [REDACTED]\nConnectionStrings:Db = Server=.;Password=[REDACTED]\nTargetFramework = net10.0\n"
    );
    assert_eq!(
        r("info: Successfully saved Foo = bar baz to the secret store."),
        "info: Successfully saved Foo = [REDACTED] to the secret store."
    );
    // A saved value whose own form says which part is secret keeps the rest.
    for (saved, shown) in [
        (
            "ConnectionStrings:Db = Host=db.local;Database=shop;Password=Qx7-pp!2;Ssl Mode=Require",
            "ConnectionStrings:Db = Host=db.local;Database=shop;Password=[REDACTED];Ssl Mode=Require",
        ),
        (
            "DB_URL = postgres://shop:Qx7-pp!2@db.local:5432/shop?sslmode=require",
            "DB_URL = postgres://shop:[REDACTED]@db.local:5432/shop?sslmode=require",
        ),
        ("Db = Host=db.local;Database=shop", "Db = [REDACTED]"),
        ("Home = https://shop.example.com/", "Home = [REDACTED]"),
    ] {
        assert_eq!(
            r(&format!("Successfully saved {saved} to the secret store.")),
            format!("Successfully saved {shown} to the secret store.")
        );
    }
}

#[test]
fn application_log_keeps_context_and_loses_every_secret() {
    let secrets = [
        "S3cret-Pw!",
        "pg-77",
        "ab1",
        "Mongo-42",
        "Url-Pw",
        "ya29.OpaqueAccessToken0123456789",
        "c2lnbmF0dXJl",
        "AIDAEXAMPLE0123456789",
        "Tm90QVJlYWxTdG9yYWdlS2V5PT0=",
        "rk_live_0123456789abcdefABCDEF",
        "Cl~Secret_01",
        "pem-body-line",
    ];
    let log = "\
info: Startup[0]
  Using Server=db;Database=app;User Id=sa;Password=S3cret-Pw!;TrustServerCertificate=True
  Npgsql: Host=pg;Port=5432;Username=orders;Password=pg-77
  Cache: Server=cache;Pwd=ab1
  mongodb+srv://mongo_user:Mongo-42@cluster0.example.net/app?retryWrites=true
warn: System.Net.Http.HttpClient[0]
  GET https://deploy:Url-Pw@registry.example.com/v2/app
  Authorization: Bearer ya29.OpaqueAccessToken0123456789
  id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl
  AWS_SECRET_ACCESS_KEY=AIDAEXAMPLE0123456789
  DefaultEndpointsProtocol=https;AccountName=store;AccountKey=Tm90QVJlYWxTdG9yYWdlS2V5PT0=;EndpointSuffix=core.windows.net
  stripe rk_live_0123456789abcdefABCDEF
  client_secret: Cl~Secret_01
-----BEGIN EC PRIVATE KEY-----
pem-body-line
-----END EC PRIVATE KEY-----
";
    let out = r(log);
    for secret in secrets {
        assert!(!out.contains(secret), "{secret} leaked:\n{out}");
    }
    for context in [
        "Server=db;Database=app;User Id=sa;Password=[REDACTED];",
        "mongo_user:[REDACTED]@cluster0",
        "AccountName=store;",
        "warn: System.Net.Http.HttpClient[0]",
    ] {
        assert!(out.contains(context), "{context} lost:\n{out}");
    }
}

#[test]
fn redaction_is_idempotent() {
    let inputs = [
        "Password=[REDACTED];",
        "https://user:[REDACTED]@host",
        "-----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY-----",
        "ghp_[REDACTED] Authorization: Bearer [REDACTED]",
        "dotnet user-secrets set K [REDACTED]",
        "Key = [REDACTED]",
    ];
    for input in inputs {
        assert_eq!(r(input), input, "{input}");
    }
}

// --- held-out batch 3: the classes it found -------------------------------------------

#[test]
fn cdata_value_of_a_secret_named_element() {
    assert_eq!(
        r("<SMTP_PASSWORD><![CDATA[Tr0ub4dor&3]]></SMTP_PASSWORD>"),
        "<SMTP_PASSWORD><![CDATA[[REDACTED]]]></SMTP_PASSWORD>"
    );
    let kept = "<ASPNETCORE_ENVIRONMENT><![CDATA[Staging]]></ASPNETCORE_ENVIRONMENT>";
    assert_eq!(r(kept), kept);
}

#[test]
fn first_line_of_a_password_store_entry() {
    let entry = "$ pass show infra/smtp\nS3cr3t-Horse-42\nlogin: ops@example.test\nurl: https://mail.example.test";
    let expected = "$ pass show infra/smtp\n[REDACTED]\nlogin: ops@example.test\nurl: https://mail.example.test";
    assert_eq!(r(entry), expected);
    assert_eq!(lines(entry), expected);
}

#[test]
fn random_token_after_the_word_key() {
    for (input, expected) in [
        ("Acme rejected key 'v9bp1oj6zkovrj8lin52e7r6a92bx8' (401)", "Acme rejected key '[REDACTED]' (401)"),
        (
            "client configured with key LVqgmDpPe7GSEZrHiziGhU4MESUJZxeXq2 (timeout 30 s)",
            "client configured with key [REDACTED] (timeout 30 s)",
        ),
        (
            "Your new Acme key for the sandbox is:\n\nv9bp1oj6zkovrj8lin52e7r6a92bx8\n\nRegards",
            "Your new Acme key for the sandbox is:\n\n[REDACTED]\n\nRegards",
        ),
    ] {
        assert_eq!(r(input), expected, "{input}");
        assert_eq!(lines(input), expected, "{input}");
    }
    for kept in [
        "signed with key 993b36d66fbc78e428133f7ff365d24f49c24903",
        "gpg: using RSA key 3AA5C34371567BD2A1B2C3D4E5F60718293A4B5C",
        "Server accepted key AAAAC3NzaC1lZDI1NTE5AAAAIGgGoLGYaZ8jMz7gtdsfpsm4vroEYiM",
        "public key RWQgGoLGYaZ8jMz7gtdsfpsm4vroEYiMvCTWBb6EvF4DTdDHS4bFZJnR",
        "Using key vault-prod-westeurope-001 for secrets",
        "Your API key expires in:\n\n30 days",
    ] {
        assert_eq!(r(kept), kept);
    }
}

// --- what must stay visible -----------------------------------------------------------

#[test]
fn ordinary_build_output_is_untouched() {
    let output = "\
  Determining projects to restore...
  All projects are up-to-date for restore.
/src/App/Services/PasswordHasher.cs(12,5): error CS0103: The name 'password' does not exist in the current context [/src/App/App.csproj]
/src/App/TokenService.cs(3,1): warning CS8618: Non-nullable property 'Token' must contain a non-null value [/src/App/App.csproj]
/src/Secrets/Secrets.csproj : error NU1101: Unable to find package Foo. No packages exist with this id in source(s): nuget.org
MSBUILD : error MSB1009: Project file does not exist.
  App -> /src/App/bin/Debug/net10.0/App.dll
warning MSB3277: Found conflicts between different versions of \"System.Net.Http, Version=4.2.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a\".
Failed!  - Failed:     2, Passed:    40, Skipped:     1, Total:    43, Duration: 4210 ms - App.Tests.dll (net10.0)
  at App.TokenService.Validate(String token) in /src/App/TokenService.cs:line 42
0 Warning(s)
1 Error(s)
Time Elapsed 00:00:03.45";
    assert_eq!(r(output), output);
    assert!(matches!(redact(output), Cow::Borrowed(_)));
}

#[test]
fn paths_guids_and_versions_are_untouched() {
    let text = "C:\\Users\\me\\.nuget\\packages\\newtonsoft.json\\13.0.3\\lib \
                /home/me/.microsoft/usersecrets/3f2a8c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f/secrets.json \
                3f2a8c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f Serilog 4.0.0-dev-02113 net10.0 \
                Microsoft.AspNetCore.App 10.0.0 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App] \
                https://api.nuget.org/v3/index.json http://localhost:5000 sk-SE PWD";
    assert_eq!(r(text), text);
}

// --- JSON -----------------------------------------------------------------------------

#[test]
fn json_values_by_key_name_and_content() {
    let mut value = json!({
        "password": "pw",
        "ConnectionStrings": { "Default": "Server=.;Database=x", "Cache": "Server=c;Password=pw", "Opaque": "x7" },
        "apiKey": ["a", "b"],
        "subscriptionKey": "0123456789abcdef0123",
        "keyFile": "app.snk",
        "log": "connecting with Password=x;",
        "tokenCount": 5,
        "emptySecret": "",
        "name": "app"
    });
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({
            "password": "[REDACTED]",
            "ConnectionStrings": { "Default": "Server=.;Database=x", "Cache": "Server=c;Password=[REDACTED]", "Opaque": "[REDACTED]" },
            "apiKey": ["[REDACTED]", "[REDACTED]"],
            "subscriptionKey": "[REDACTED]",
            "keyFile": "app.snk",
            "log": "connecting with Password=[REDACTED];",
            "tokenCount": 5,
            "emptySecret": "",
            "name": "app"
        })
    );
}

/// `{"key": "value"}` through both paths: as text (what the model reads) and through
/// [`redact_json`] (what programs read), the value each shows.
fn through_both(key: &str, value: &str) -> (serde_json::Value, serde_json::Value) {
    let text = json!({ key: value }).to_string();
    let mut read: serde_json::Value = serde_json::from_str(&r(&text)).expect("redacted text is still JSON");
    let mut structured = json!({ key: value });
    redact_json(&mut structured);
    (read[key].take(), structured[key].take())
}

/// Each `(key, value, expected)` through both paths (see [`through_both`]): each must show
/// `expected` (empty: the value unchanged).
fn both_paths(cases: &[(&str, &str, &str)]) {
    for (key, value, expected) in cases {
        let expected = if expected.is_empty() { value } else { expected };
        let (text, structured) = through_both(key, value);
        assert_eq!(text, *expected, "text: {key}: {value}");
        assert_eq!(structured, *expected, "structured: {key}: {value}");
    }
}

/// Structured content and text show the same of every value, so what programs read and what the
/// model reads cannot drift apart: a secret hidden in one is hidden in the other, a public part
/// kept in one is kept in the other.
#[test]
fn json_and_text_show_the_same_of_each_value() {
    let pairs = [
        ("password", "Qx7-pp.2"),
        ("Smtp__Password", "hunter2"),
        ("DB_PWD", "Lm9Vt4Rs8"),
        ("clientSecret", "Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7"),
        ("apiKey", "Zr8Kq2Lm9Vt4Rs8Ws3Yz"),
        ("subscriptionKey", "0123456789abcdef0123"),
        ("storageKey", "app-settings"),
        ("githubToken", "ghp_Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj0Q"),
        ("TokenLifetimeMinutes", "60"),
        ("PASSWORD_FILE", "/run/secrets/db"),
        ("passwordHint", ""),
        ("password", "${DB_PASSWORD}"),
        ("password", "***"),
        ("Authorization", "Bearer Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1"),
        ("Authorization", "Basic YnVpbGQ6UXc4LXp6LldtMg=="),
        ("Authorization", "token Lq8zzWm2Pv7Rt5"),
        ("Authorization", "SharedAccessSignature sr=sb%3A%2F%2Fns&sig=Zm9vU2ln%3D&se=1767225600&skn=listen"),
        ("ConnectionStrings__Cache", "localhost:6379"),
        ("ConnectionStrings__Db", "Server=.;Database=app;Trusted_Connection=True"),
        ("ConnectionStrings__Sql", "Server=db;Database=app;User Id=sa;Password=Qx7-pp.2;Encrypt=true"),
        (
            "ConnectionStrings__Blob",
            "DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=Zm9vYmFy;EndpointSuffix=core.windows.net",
        ),
        ("ConnectionStrings__Opaque", "opaque-token-1"),
        (
            "APPLICATIONINSIGHTS_CONNECTION_STRING",
            "InstrumentationKey=5c1c77e8-efa1-454a-aa4f-58727c0c47ac;IngestionEndpoint=https://in.example/",
        ),
        ("accessKeyId", "AKIAZR8KQ2LM9VT4RS8W"),
        ("AWS_SECRET_ACCESS_KEY", "Qx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn4Pq8/"),
        ("url", "https://build:Qx7-pp.2@feed.example/v3/index.json"),
        ("message", "connecting with Password=x;"),
        ("TargetFramework", "net10.0"),
        ("name", "app"),
    ];
    for (key, value) in pairs {
        let (text, structured) = through_both(key, value);
        assert_eq!(structured, text, "{key}: {value}");
    }
}

/// An authorization header's value keeps its scheme and a SAS token's public fields in
/// structured content, as in text.
#[test]
fn json_authorization_values_keep_their_scheme() {
    both_paths(&[
        ("Authorization", "Bearer Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1", "Bearer [REDACTED]"),
        ("authorization", "Basic YnVpbGQ6UXc4LXp6LldtMg==", "Basic [REDACTED]"),
        ("Authorization", "token Lq8zzWm2Pv7Rt5", "token [REDACTED]"),
        ("Proxy-Authorization", "Basic cHJveHk6cHc=", "Basic [REDACTED]"),
        (
            "Authorization",
            "SharedAccessSignature sr=sb%3A%2F%2Fbus.example.net%2Forders&sig=Qm9ndXNTaWc%2Fxyz%3D&se=1767225600&skn=send",
            "SharedAccessSignature sr=sb%3A%2F%2Fbus.example.net%2Forders&sig=[REDACTED]&se=1767225600&skn=send",
        ),
    ]);
    // Nested (a request's headers) and in a list, the same; another secret name still hides all.
    let mut value = json!({
        "request": { "headers": { "Authorization": ["Bearer Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1"] } },
        "accessToken": "Bearer Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1"
    });
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({
            "request": { "headers": { "Authorization": ["Bearer [REDACTED]"] } },
            "accessToken": "[REDACTED]"
        })
    );
}

/// A connection string under a connection-named key is judged part by part in structured
/// content as in text: one with no secret part (hosts and ports only, or integrated security)
/// stays, a password in one is hidden, and a bare key or token under such a name stays hidden.
#[test]
fn json_connection_strings_are_judged_part_by_part() {
    const KEY: &str = "CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao+02f4jSG2St9wBJg==";
    both_paths(&[
        ("ConnectionStrings__Cache", "localhost:6379", ""),
        ("ConnectionStrings__Redis", "cache-a.example.net:6380,cache-b.example.net:6380", ""),
        ("ConnectionStrings__Queue", "rabbit:5672", ""),
        ("ConnectionStrings__Db", "Server=.;Database=app;Trusted_Connection=True", ""),
        (
            "ConnectionStrings:Sql",
            "Server=db.example.net;Database=app;User Id=app;Password=Qx7-pp.2",
            "Server=db.example.net;Database=app;User Id=app;Password=[REDACTED]",
        ),
        ("ConnectionStrings__Storage", KEY, "[REDACTED]"),
        ("ConnectionStrings__Pin", "4711", "[REDACTED]"),
        ("ConnectionStrings__Token", "Zr8Kq2.Lm9Vt4Rs8", "[REDACTED]"),
    ]);
    let mut value = json!({ "ConnectionStrings": {
        "Cache": "localhost:6379",
        "Db": "Server=.;Database=app;Trusted_Connection=True",
        "Storage": KEY
    }});
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({ "ConnectionStrings": {
            "Cache": "localhost:6379",
            "Db": "Server=.;Database=app;Trusted_Connection=True",
            "Storage": "[REDACTED]"
        }})
    );
}

/// An AWS access key id is hidden but for its prefix (`AKIA[REDACTED]`, `ASIA[REDACTED]`) in text
/// and in structured content alike, under any name, `keyId` too (see `access_key` in
/// `STRONG_KEY_WORDS` for why).
#[test]
fn json_aws_access_key_ids_are_hidden_as_in_text() {
    both_paths(&[
        ("accessKeyId", "AKIAZR8KQ2LM9VT4RS8W", "AKIA[REDACTED]"),
        ("AccessKeyId", "ASIAZR8KQ2LM9VT4RS8W", "ASIA[REDACTED]"),
        ("aws_access_key_id", "AKIAZR8KQ2LM9VT4RS8W", "AKIA[REDACTED]"),
        ("keyId", "AKIAZR8KQ2LM9VT4RS8W", "AKIA[REDACTED]"),
        ("accessKeyId", "Zr8Kq2Lm9Vt4Rs8Ws3Yz", "[REDACTED]"),
    ]);
}

/// An MSAL token cache's keys end in the scope's URL: read in text, its `https:` is no label.
#[test]
fn a_name_ending_in_a_url_scheme_is_no_label() {
    each_and_lines(&[
        (
            r#"    "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.9a8b7c6d-5e4f-3a2b-1c0d-e9f8a7b6c5d4-login.microsoftonline.com-accesstoken-04b07795-8ddb-461a-bbee-02f9e1bf7b46-organizations-https://management.core.windows.net//.default": {"#,
            "",
        ),
        // A URL with credentials after it still loses its password; a token label keeps its value hidden.
        ("cache-token-https://bob:Pw-9x2Lm@host.example.com/", "cache-token-https://bob:[REDACTED]@host.example.com/"),
        ("access_token: https-9Xw2Vt7Rb1Zc8Yd4Pn6Hs0", "access_token: [REDACTED]"),
    ]);
}

/// An MSAL token cache (`~/.azure/msal_token_cache.json`): under its secret-named sections and
/// cache keys, each record names its own secret (`secret`); its client id, environment and times
/// stay. A secret object with no secret-named member of its own stays secret whole.
#[test]
fn json_records_under_a_secret_name_that_name_their_own_secret() {
    let key = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.9a8b7c6d-5e4f-3a2b-1c0d-e9f8a7b6c5d4-login.microsoftonline.com-accesstoken-04b07795-8ddb-461a-bbee-02f9e1bf7b46-organizations-https://management.core.windows.net//.default";
    let mut cache = json!({ "AccessToken": { key: {
        "credential_type": "AccessToken",
        "secret": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwcyJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg",
        "client_id": "04b07795-8ddb-461a-bbee-02f9e1bf7b46",
        "environment": "login.microsoftonline.com",
        "cached_at": "1714561200",
    }}});
    redact_json(&mut cache);
    assert_eq!(
        cache,
        json!({ "AccessToken": { key: {
            "credential_type": "AccessToken",
            "secret": REDACTED,
            "client_id": "04b07795-8ddb-461a-bbee-02f9e1bf7b46",
            "environment": "login.microsoftonline.com",
            "cached_at": "1714561200",
        }}})
    );
    let mut whole = json!({ "clientSecret": { "data": "Qf3kLm9Xw2", "note": "rotate monthly" } });
    redact_json(&mut whole);
    assert_eq!(whole, json!({ "clientSecret": { "data": REDACTED, "note": REDACTED } }));
}

/// `az functionapp keys list`: the keys under `systemKeys` are named for their extension; the
/// ids and names beside keys under a weak name stay.
#[test]
fn json_members_of_an_object_under_a_weak_name_are_keys_when_they_look_like_keys() {
    let key = "P6qXwXvIDacSUAq5Ui4bTwHgktfvmqqIa53oGP8T56Fag-p1QqI8gY==";
    let mut keys = json!({
        "functionKeys": { "default": key },
        "masterKey": key,
        "systemKeys": { "durabletask_extension": key, "mcp_extension": key },
    });
    redact_json(&mut keys);
    assert_eq!(
        keys,
        json!({
            "functionKeys": { "default": REDACTED },
            "masterKey": REDACTED,
            "systemKeys": { "durabletask_extension": REDACTED, "mcp_extension": REDACTED },
        })
    );
    let signing = json!({ "SigningKey": {
        "KeyId": "804e2561213c44a5338892f167c58335",
        "ClientId": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
        "Algorithm": "RS256",
        "Thumbprint": "3AA5C34371567BD2C4F8E1B07D2A9F6E81C3D5B7",
    }});
    let mut shown = signing.clone();
    redact_json(&mut shown);
    assert_eq!(shown, signing);
}

#[test]
fn json_prefixed_name_value_pairs_are_as_secret_as_their_name() {
    let mut value = json!({ "propertyName": "SigningPassword", "propertyValue": "S3cret!", "isSet": true });
    redact_json(&mut value);
    assert_eq!(value["propertyValue"], REDACTED);
    let mut plain = json!({ "propertyName": "TargetFramework", "propertyValue": "net10.0" });
    redact_json(&mut plain);
    assert_eq!(plain["propertyValue"], "net10.0");
}

#[test]
fn json_name_value_pairs_are_as_secret_as_their_name() {
    let mut value = json!({ "settings": [
        { "name": "SMTP_PASS", "value": "relay" },
        { "key": "Logging:LogLevel", "value": "Information" },
        { "Name": "x", "value": "kept" },
    ]});
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({ "settings": [
            { "name": "SMTP_PASS", "value": "[REDACTED]" },
            { "key": "Logging:LogLevel", "value": "Information" },
            { "Name": "x", "value": "kept" },
        ]})
    );
}

// --- known values -----------------------------------------------------------------------

#[test]
fn known_values_are_masked_wherever_they_occur() {
    let conn = "Data Source=app.db;Cache=Shared";
    let text = format!("Scaffolding from {conn}\nusing {conn} again, pw ok");
    assert_eq!(
        mask_known(&text, &[conn, "", "pw"]),
        "Scaffolding from [REDACTED]\nusing [REDACTED] again, [REDACTED] ok"
    );
    assert_eq!(mask_known("Server=a;Password=b", &["Server=a;Password=b", "Password"]), REDACTED);
    assert!(matches!(mask_known("nothing here", &["secret"]), Cow::Borrowed(_)));
    assert!(matches!(mask_known("empty values are ignored", &[""]), Cow::Borrowed(_)));
}

#[test]
fn credential_files() {
    each(&[
        ("db.internal:5432:orders:app:Pg-S3cret", "db.internal:5432:orders:app:[REDACTED]"),
        ("*:*:*:postgres:pg\\:with\\:colons", "*:*:*:postgres:[REDACTED]"),
        // A compiler message has the same number of colons, but blanks in its fields.
        ("src/main.c:12:5: error: expected ';'", ""),
        // Nor is a SAS query whose start and expiry times are written with their colons.
        (
            "SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-12-31T18:00:00Z&st=2026-01-01T10:00:00Z&spr=https&sig=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo%3D",
            "SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-12-31T18:00:00Z&st=2026-01-01T10:00:00Z&spr=https&sig=[REDACTED]",
        ),
        ("se=18:00:00Z&st=10:00:00Z&comp=list", ""),
        (
            "machine nuget.example.com login bob password Netrc-S3cret",
            "machine nuget.example.com login bob password [REDACTED]",
        ),
        (
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIB\nxyz=\nPrivate-Lines: 1\nAAAAIFt0cmluZ3MgYXJlIG5vdCBrZXlz\nPrivate-MAC: 8f1e",
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIB\nxyz=\nPrivate-Lines: 1\n[REDACTED]\nPrivate-MAC: 8f1e",
        ),
    ]);
}

/// A `.netrc` written one token pair a line, as most of its documentation shows it: the password
/// of a word-like value on the line after `login` is hidden in whole text and line by line; the
/// machine, the login and the next entry stay.
#[test]
fn netrc_entries_over_lines() {
    each_and_lines(&[
        (
            "machine db.internal\nlogin app\npassword AIAqEiNwbA\nmachine api.example.com\n  login ci\n  password hunter\ndefault login anonymous",
            "machine db.internal\nlogin app\npassword [REDACTED]\nmachine api.example.com\n  login ci\n  password [REDACTED]\ndefault login anonymous",
        ),
        (
            "machine ftp.example.com login bob\npassword Tr0ub4dor",
            "machine ftp.example.com login bob\npassword [REDACTED]",
        ),
        // A `login` line followed by anything but `password VALUE` is no entry.
        ("login app\npassword: see the vault\nlogin succeeded", ""),
    ]);
}

#[test]
fn escaped_quotes_auth_parameters_aws_configure_age_and_odbc_braces() {
    each(&[
        (
            r#"msg="login {\"user\":\"bob\",\"password\":\"Esc-S3cret\"}""#,
            r#"msg="login {\"user\":\"bob\",\"password\":\"[REDACTED]\"}""#,
        ),
        (
            r#"Authorization: Token token="Tk-S3cret-123", scope="read""#,
            r#"Authorization: Token token="[REDACTED]", scope="[REDACTED]""#,
        ),
        (
            r#"Authorization: Digest username="bob", realm="api", nonce="abc", uri="/x", response="6629fae49393a05397450978507c4ef1""#,
            r#"Authorization: Digest username="bob", realm="api", nonce="abc", uri="/x", response="[REDACTED]""#,
        ),
        (
            r#"Authorization: OAuth oauth_consumer_key="ck", oauth_token="ot-123", oauth_signature="c2ln%3D""#,
            r#"Authorization: OAuth oauth_consumer_key="ck", oauth_token="[REDACTED]", oauth_signature="[REDACTED]""#,
        ),
        (
            "aws configure set aws_secret_access_key Aws/S3cret+Key",
            "aws configure set aws_secret_access_key [REDACTED]",
        ),
        ("aws configure set region eu-west-1", ""),
        ("setx API_TOKEN Setx-S3cret-1", "setx API_TOKEN [REDACTED]"),
        (
            "# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\nAGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQY",
            "# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\nAGE-SECRET-KEY-1[REDACTED]",
        ),
        (
            "Driver={ODBC Driver 18};UID=app;PWD={Od}}bc;S3cret};Encrypt=yes",
            "Driver={ODBC Driver 18};UID=app;PWD={[REDACTED]};Encrypt=yes",
        ),
    ]);
}

#[test]
fn redacting_a_value_leaves_its_neighbours() {
    each(&[
        (
            "[database]\nuser = admin\npassword = Ini-S3cret\nhost = db.local\n",
            "[database]\nuser = admin\npassword = [REDACTED]\nhost = db.local\n",
        ),
        (
            "{\n  \"password\": \"Js-S3cret\",\n  \"next\": \"value\"\n}",
            "{\n  \"password\": \"[REDACTED]\",\n  \"next\": \"value\"\n}",
        ),
        ("(password=Paren-S3cret)", "(password=[REDACTED])"),
        ("[token=Br-S3cret]", "[token=[REDACTED]]"),
        ("Password=P@ss,w0rd;Host=x", "Password=[REDACTED];Host=x"),
    ]);
}

#[test]
fn ef_core_parameters_directives_and_oracle_logins() {
    each(&[
        (
            "Executed DbCommand (2ms) [Parameters=[@p0='ada@contoso.com' (Size = 256), @p1='Ef5ecretX9q' (Size = 4000), @__apiKey_0='k-123'], CommandType='Text', CommandTimeout='30']",
            "Executed DbCommand (2ms) [Parameters=[@p0='ada@contoso.com' (Size = 256), @p1='[REDACTED]' (Size = 4000), @__apiKey_0='[REDACTED]'], CommandType='Text', CommandTimeout='30']",
        ),
        ("requirepass Rd-pass-77\nmaxmemory 256mb", "requirepass [REDACTED]\nmaxmemory 256mb"),
        ("Password required", ""),
        ("sqlplus -s scott/T1ger-Pw@//db:1521/ORCL @run.sql", "sqlplus -s scott/[REDACTED]@//db:1521/ORCL @run.sql"),
        ("SQL> connect system/Man4ger-Pw", "SQL> connect system/[REDACTED]"),
        ("PsExec64.exe \\\\web -u admin -p Px-Pw-1 cmd", "PsExec64.exe \\\\web -u admin -p [REDACTED] cmd"),
    ]);
}

#[test]
fn raw_hex_keys_sql_literals_and_localized_values_end_at_their_punctuation() {
    each(&[
        (
            "sqlite> PRAGMA key = \"X'9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b'\";",
            "sqlite> PRAGMA key = \"X'[REDACTED]'\";",
        ),
        (
            "openssl enc -d -aes-128-cbc -K 00112233445566778899aabbccddeeff -iv 0f0e0d0c0b0a09080706050403020100 -in a.enc",
            "openssl enc -d -aes-128-cbc -K [REDACTED] -iv 0f0e0d0c0b0a09080706050403020100 -in a.enc",
        ),
        (
            "ALTER LOGIN [etl] WITH PASSWORD = N'Qw3rty!It''s-9', CHECK_EXPIRATION = OFF;",
            "ALTER LOGIN [etl] WITH PASSWORD = N'[REDACTED]', CHECK_EXPIRATION = OFF;",
        ),
        ("新密码：Zx9-Lp2qRw7k，已保存", "新密码：[REDACTED]，已保存"),
    ]);
}

#[test]
fn jwts_broken_at_a_column_after_other_words() {
    let one_dot = "12:00:01 INF issued for orders-api: eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhcHAi\nLCJleHAiOjE4MDAwMDAwMDB9.c2lnbmF0dXJlLXBhcnQtdHdvLXNpZw\n12:00:02 INF next";
    let expected = "12:00:01 INF issued for orders-api: [REDACTED]\n[REDACTED]\n12:00:02 INF next";
    assert_eq!(r(one_dot), expected);
    assert_eq!(lines(one_dot), expected);
    let no_dot =
        "12:00:03 DBG refreshed eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ\n9.eyJzdWIiOiJiIn0.c2lnbmF0dXJlLXRocmVl\nok";
    assert_eq!(r(no_dot), "12:00:03 DBG refreshed [REDACTED]\n[REDACTED]\nok");
    assert_eq!(lines(no_dot), r(no_dot));
}

#[test]
fn cloud_clis_that_print_a_bare_secret_at_a_prompt() {
    each(&[
        (
            "$ aws ecr-public get-login-password --region us-east-1\nZXlKd1lYbHNiMkZrSWpvaVpHRjBZU0o5\n$ echo done",
            "$ aws ecr-public get-login-password --region us-east-1\n[REDACTED]\n$ echo done",
        ),
        (
            "> gcloud auth print-access-token\nya29-like-Opaque-Value-0123456789",
            "> gcloud auth print-access-token\n[REDACTED]",
        ),
        (
            "$ az storage account keys list -g rg -n st01 --query \"[].value\" -o tsv\nQmFzZTY0S2V5T25lMDEyMzQ1Njc4OQ==\tQmFzZTY0S2V5VHdvMDEyMzQ1Njc4OQ==",
            "$ az storage account keys list -g rg -n st01 --query \"[].value\" -o tsv\n[REDACTED]",
        ),
        // Inside `$(...)` the value is not printed on the next line.
        (
            "$ export PW=$(az keyvault secret show --vault-name kv --name pw --query value -o tsv)\n$ ./deploy.sh",
            "$ export PW=$(az keyvault secret show --vault-name kv --name pw --query value -o tsv)\n$ ./deploy.sh",
        ),
        // Other output of the same CLIs is not.
        ("$ az storage account list -o tsv\nst01\teastus", "$ az storage account list -o tsv\nst01\teastus"),
    ]);
}

#[test]
fn masking_commands_constructors_metadata_entries_and_localized_api_keys() {
    each(&[
        ("+ echo \"::add-mask::k2v9q4x7m1z8w3r6\"", "+ echo \"::add-mask::[REDACTED]\""),
        (
            r#"    ClientSecrets = { new Secret("Yq2-Wd8_Kp4xLm7Nz3Rb".Sha256()) },"#,
            r#"    ClientSecrets = { new Secret("[REDACTED]".Sha256()) },"#,
        ),
        (
            "metadata [Entry: key=authorization-token, value=Zk3mQ8rT1vW6yB9c], [Entry: key=x-request-id, value=42]",
            "metadata [Entry: key=authorization-token, value=[REDACTED]], [Entry: key=x-request-id, value=42]",
        ),
        ("Clave de API 4f2a9c1e7b3d8a6f0e5c2b9d7a1f3e8c cargada", "Clave de API [REDACTED] cargada"),
        ("API-Schlüssel 0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d geladen", "API-Schlüssel [REDACTED] geladen"),
        // A word after the same words is not a key.
        ("Chave da API inválida para este ambiente", "Chave da API inválida para este ambiente"),
        (
            "<Message>401. Authorization: Bearer Zm9vYmFyYmF6cXV4MTIzNDU2</Message>",
            "<Message>401. Authorization: Bearer [REDACTED]</Message>",
        ),
        // A placeholder in help text is not cut at its `<`.
        (
            r#"--header "Authorization: Token <api-token>"  Send it"#,
            r#"--header "Authorization: Token <api-token>"  Send it"#,
        ),
    ]);
}

#[test]
fn msbuild_reassignments_named_quotes_and_entity_quoted_passwords() {
    each(&[
        (
            r#"Property reassignment: $(SignPassword)="Kv8!mRt2#q" (previous value: "old-Zx4$w") at /b/Sign.targets (3,5)"#,
            r#"Property reassignment: $(SignPassword)="[REDACTED]" (previous value: "[REDACTED]") at /b/Sign.targets (3,5)"#,
        ),
        (
            r#"Property reassignment: $(Configuration)="Release" (previous value: "Debug") at /b/x.props (1,1)"#,
            r#"Property reassignment: $(Configuration)="Release" (previous value: "Debug") at /b/x.props (1,1)"#,
        ),
        (
            "Validation failed for 'SmtpOptions': RelayPassword 'q9#Lm2!vX' is not accepted; Host 'smtp.local' is set.",
            "Validation failed for 'SmtpOptions': RelayPassword '[REDACTED]' is not accepted; Host 'smtp.local' is set.",
        ),
        (
            "<StdOut>created user with password &quot;Wq7_pLm3-Xz&quot; &amp; role &lt;Admin&gt;</StdOut>",
            "<StdOut>created user with password &quot;[REDACTED]&quot; &amp; role &lt;Admin&gt;</StdOut>",
        ),
    ]);
}

#[test]
fn authorization_schemes_webhooks_and_vendor_prefixes() {
    each(&[
        (
            "Authorization: Splunk 0b5e2c1a-8d3f-4e6a-9b7c-1d2e3f4a5b6c Content-Length: 12",
            "Authorization: Splunk [REDACTED] Content-Length: 12",
        ),
        (r#"{"Authorization": "Bot MTIzNDU2Nzg5.Gx1y2z.abcdefghijklmnop"}"#, r#"{"Authorization": "Bot [REDACTED]"}"#),
        (
            "Authorization: SharedAccessSignature sr=https%3A%2F%2Fns.servicebus.windows.net&sig=c2lnbmF0dXJl%3D&se=1741083164&skn=send",
            "Authorization: SharedAccessSignature sr=https%3A%2F%2Fns.servicebus.windows.net&sig=[REDACTED]&se=1741083164&skn=send",
        ),
        (
            "POST https://contoso.webhook.office.com/webhookb2/a@b/IncomingWebhook/0123456789abcdef0123456789abcdef/c-d/V2abcdefghijklmnop failed",
            "POST https://contoso.webhook.office.com/webhookb2/a@b/IncomingWebhook/[REDACTED] failed",
        ),
        (
            "GET https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe",
            "GET https://api.telegram.org/bot123456789:[REDACTED]/getMe",
        ),
        ("netlify deploy --auth nfp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "netlify deploy --auth nfp_[REDACTED]"),
        ("indexing with admin key 0123456789abcdef0123456789abcdef) done", "indexing with admin key [REDACTED]) done"),
    ]);
}

#[test]
fn batch_5_over_redactions_are_not_secrets() {
    each(&[
        ("run: dotnet nuget push a.nupkg --api-key ${{ secrets.NUGET_API_KEY }} --source nuget.org", ""),
        ("existingSecret: db-credentials\nadminPasswordKey: postgres-password\nsecretKeyRef: app", ""),
        ("Reading secret 'stripe-secret-key' from Key Vault", ""),
        (
            "PasswordTooShort: Passwords must be at least 12 characters.; PasswordRequiresDigit: Passwords must have a digit.",
            "",
        ),
        ("OpenAI:ApiKey = sk-...redacted\nRedis:Password = (not set)", ""),
        (r#"{"usage":{"prompt_tokens":1204,"total_tokens":1522},"SaveTokens": false}"#, ""),
        ("--header \"Authorization: Bearer $TOKEN\"", ""),
        ("Settings(db_password=SecretStr('**********'), batch_size=500)", ""),
        (
            "env.DEPLOY_PASSWORD = credentialsJSON:2a712fcd-718d-4a7e-96dd-1994cd45c7ab\nenv.KEY = %vault:kv/data/ci!/key%",
            "",
        ),
    ]);
}

#[test]
fn batch_5_neighbours_of_a_secret_stay() {
    each(&[
        (
            r#"The command "ef database update --connection "Host=pg;Username=app;Password=Ef-Pw-1;SSL Mode=Require"" exited with code 1."#,
            r#"The command "ef database update --connection "Host=pg;Username=app;Password=[REDACTED];SSL Mode=Require"" exited with code 1."#,
        ),
        ("<_SavePWD>true</_SavePWD>", ""),
        (
            "Cookie: .AspNetCore.Identity.Application=CfDJ8abcdefghijklmnopqrstuvwx; ai_user=Qx7f2|2025-03-01T10:11:12.000Z",
            "Cookie: .AspNetCore.Identity.Application=[REDACTED]; ai_user=Qx7f2|2025-03-01T10:11:12.000Z",
        ),
        (
            r#"{"access_token":"at-123","expires_in":3599,"id_token_expires_in":3599}"#,
            r#"{"access_token":"[REDACTED]","expires_in":3599,"id_token_expires_in":3599}"#,
        ),
        (
            "Connecting to cache:6380,password=Rds-Pw-1,ssl=True,abortConnect=False",
            "Connecting to cache:6380,password=[REDACTED],ssl=True,abortConnect=False",
        ),
        ("password=Rds-Pw-2=,cache.example.net:6380,ssl=True", "password=[REDACTED],cache.example.net:6380,ssl=True"),
        (
            r#"connectionString="metadata=res://*/M.csdl;provider connection string=&quot;data source=db;password=Ef-Pw-3;App=EntityFramework&quot;""#,
            r#"connectionString="metadata=res://*/M.csdl;provider connection string=&quot;data source=db;password=[REDACTED];App=EntityFramework&quot;""#,
        ),
        ("WARNING! Using --password via the CLI is insecure. Use --password-stdin.", ""),
        (r#""ARN": "arn:aws:secretsmanager:eu-central-1:123456789012:secret:prod/db-Ab12Cd""#, ""),
        (
            r#""SecretString": "{\"username\": \"app\", \"password\": \"Sm-Pw-1\", \"engine\": \"postgres\"}""#,
            r#""SecretString": "{\"username\": \"app\", \"password\": \"[REDACTED]\", \"engine\": \"postgres\"}""#,
        ),
        (
            "'Authorization': 'AWS4-HMAC-SHA256 Credential=ASIAQ3EGXMPL4TEMPCRD/20250304/eu-central-1/s3/aws4_request, SignedHeaders=host, Signature=0123abcd'",
            "'Authorization': 'AWS4-HMAC-SHA256 Credential=ASIAQ3EGXMPL4TEMPCRD/20250304/eu-central-1/s3/aws4_request, SignedHeaders=host, Signature=[REDACTED]'",
        ),
    ]);
}

#[test]
fn huge_line_finishes() {
    let line = "a".repeat(10 * 1024 * 1024);
    assert_eq!(redact(&line).len(), line.len());
}

#[test]
fn passwords_in_protocol_transcripts_are_hidden() {
    for (input, expected) in [
        (
            r#"1700000000.000001 [0 127.0.0.1:6000] "AUTH" "Kq7-wLz2Pt""#,
            r#"1700000000.000001 [0 127.0.0.1:6000] "AUTH" "[REDACTED]""#,
        ),
        (r#"[1 10.1.1.1:5000] "auth" "ops" "Rt4.mQx8Zn""#, r#"[1 10.1.1.1:5000] "auth" "ops" "[REDACTED]""#),
        (r#"C: a001 LOGIN bob@ex.org "Wp2~nLk7Tz""#, r#"C: a001 LOGIN bob@ex.org "[REDACTED]""#),
        ("> USER ops\n> PASS Hy6-qRw3Lm\n< 230 Logged in", "> USER ops\n> PASS [REDACTED]\n< 230 Logged in"),
    ] {
        assert_eq!(r(input), expected, "{input}");
    }
    let kept = "--- PASS: TestLogin (0.00s)\n PASS  src/app.test.js\nPASS\nok  \tgithub.com/ex/app\t0.01s";
    assert_eq!(r(kept), kept);
}

#[test]
fn private_key_members_outside_pem_are_hidden() {
    let b64 = "Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=";
    let url = "q8Rt2Lm0Xv7Yp4Nk1Bw9Hs6Jd3Fg5Zc8Ae2Uo7Iy4Tr1";
    each(&[
        (
            &format!(
                "<RSAKeyValue><Modulus>{b64}</Modulus><Exponent>AQAB</Exponent><P>{b64}</P><DQ>{b64}</DQ><InverseQ>{b64}</InverseQ><D>{b64}</D></RSAKeyValue>"
            ),
            &format!(
                "<RSAKeyValue><Modulus>{b64}</Modulus><Exponent>AQAB</Exponent><P>[REDACTED]</P><DQ>[REDACTED]</DQ><InverseQ>[REDACTED]</InverseQ><D>[REDACTED]</D></RSAKeyValue>"
            ),
        ),
        (
            &format!(r#"{{"kty":"EC","crv":"P-256","x":"{url}","d":"{url}","kid":"k1"}}"#),
            &format!(r#"{{"kty":"EC","crv":"P-256","x":"{url}","d":"[REDACTED]","kid":"k1"}}"#),
        ),
        (&format!("  \"qi\": \"{url}\",\n  \"k\": \"{url}\""), "  \"qi\": \"[REDACTED]\",\n  \"k\": \"[REDACTED]\""),
        // A short member is not a key: `"p": "1"`.
        (r#"{"p": "1", "q": "search words"}"#, ""),
    ]);
    let mut jwks = json!({"keys": [{"kty": "RSA", "kid": "k2", "n": url, "e": "AQAB", "d": url, "dp": url}]});
    redact_json(&mut jwks);
    assert_eq!(
        jwks,
        json!({"keys": [{"kty": "RSA", "kid": "k2", "n": url, "e": "AQAB", "d": REDACTED, "dp": REDACTED}]})
    );
}

#[test]
fn key_material_of_more_tools_is_hidden() {
    let hex = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
    each(&[
        // `vault operator init`: numbered key shares.
        (
            "Unseal Key 1: Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4f\nRecovery Key 12: Qw8eRt5yUi2oPa9sDf6gHj3kLz0xCv7b",
            "Unseal Key 1: [REDACTED]\nRecovery Key 12: [REDACTED]",
        ),
        // A TLS key log.
        (&format!("CLIENT_RANDOM {hex} {hex}"), &format!("CLIENT_RANDOM {hex} [REDACTED]")),
        (
            &format!("SERVER_HANDSHAKE_TRAFFIC_SECRET {hex} {hex}"),
            &format!("SERVER_HANDSHAKE_TRAFFIC_SECRET {hex} [REDACTED]"),
        ),
        // A key with its encoding before it (Laravel's `APP_KEY`).
        (
            "APP_KEY=base64:Kx9mQ2wE7rT4yU1iO8pA5sD3fG6hJ0kL9zXcVbNm2Q4=\nAPP_ENV=local",
            "APP_KEY=base64:[REDACTED]\nAPP_ENV=local",
        ),
        // PowerShell's `Format-List` of a key object.
        (
            "KeyName     : key2\nValue       : Pq7Rs2Tu9Vw4Xy1Za6Bc3De8Fg5Hi0Jk2Lm7No4Pq9Rs==\nPermissions : Full",
            "KeyName     : key2\nValue       : [REDACTED]\nPermissions : Full",
        ),
        // A PEM key flattened on one line by an environment variable.
        (
            "Jwt__PrivateKey=-----BEGIN EC PRIVATE KEY----- MHcCAQEEIFakeFakeFakeBody0123 AoGCCqGSM49AwEHoUQDQgAEabc -----END EC PRIVATE KEY-----\nJwt__Alg=ES256",
            "Jwt__PrivateKey=[REDACTED]\nJwt__Alg=ES256",
        ),
        (
            "Signing__Key=-----BEGIN EC PRIVATE KEY----- MHcCAQEEIFakeFakeFakeBody0123 -----END EC PRIVATE KEY-----",
            "Signing__Key=-----BEGIN EC PRIVATE KEY----- [REDACTED] -----END EC PRIVATE KEY-----",
        ),
    ]);
}

#[test]
fn containers_block_scalars_and_more_labels_hide_their_value() {
    each(&[
        // An ARM parameter file and unattend.xml: a secret-named container and its value.
        (
            "    \"sqlAdminPassword\": {\n      \"value\": \"Vx7-pLm2Qr\"\n    },\n    \"location\": {\n      \"value\": \"westeurope\"",
            "    \"sqlAdminPassword\": {\n      \"value\": \"[REDACTED]\"\n    },\n    \"location\": {\n      \"value\": \"westeurope\"",
        ),
        (
            "<AdministratorPassword>\n  <Value>Tq4!mZr8Ws</Value>\n  <PlainText>true</PlainText>",
            "<AdministratorPassword>\n  <Value>[REDACTED]</Value>\n  <PlainText>true</PlainText>",
        ),
        // A YAML block scalar under a secret name; the next key stays.
        (
            "auth:\n  api_token: |-\n    Tk4mW9qZ2xLp7Rv3Ns8Bc1Hd6Jf0Gy5\n    Ue2Io7Pa4Sd9\n  url: https://ex.org",
            "auth:\n  api_token: |-\n    [REDACTED]\n    [REDACTED]\n  url: https://ex.org",
        ),
        ("notes: >-\n  Some folded text that is\n  not a secret at all", ""),
        // SMTP's SASL exchange.
        (
            "C: AUTH PLAIN AHVzZXJAZXgub3JnAFN3MHJkZmlzaA==\nS: 235 2.7.0 OK",
            "C: AUTH PLAIN [REDACTED]\nS: 235 2.7.0 OK",
        ),
        (
            "S: 334 UGFzc3dvcmQ6\nC: U3cwcmRmaXNoMTIz\nS: 235 2.7.0 OK",
            "S: 334 UGFzc3dvcmQ6\nC: [REDACTED]\nS: 235 2.7.0 OK",
        ),
        ("C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6", ""),
        // Azure Pipelines logging commands that mark a secret.
        (
            "##vso[task.setsecret]Ab1Cd2Ef3Gh4\n##vso[task.setvariable variable=tok;issecret=true]Zx9Yw8",
            "##vso[task.setsecret][REDACTED]\n##vso[task.setvariable variable=tok;issecret=true][REDACTED]",
        ),
        ("##vso[task.setvariable variable=env]production", ""),
        // Commands that print a secret bare on the next line.
        (
            "$ kubectl get secret db -o jsonpath='{.data.pw}' | base64 --decode\nHq3!zPw7Lx\n$ echo ok",
            "$ kubectl get secret db -o jsonpath='{.data.pw}' | base64 --decode\n[REDACTED]\n$ echo ok",
        ),
        ("argocd admin initial-password -n ops\nWk8Rt2Yu6Io\n", "argocd admin initial-password -n ops\n[REDACTED]\n"),
        // An element with attributes named for a secret (WS-Security).
        (
            "<wsse:Password Type=\"ns#PasswordText\">Lm4?Nq8Rs</wsse:Password><wsu:Created>2025</wsu:Created>",
            "<wsse:Password Type=\"ns#PasswordText\">[REDACTED]</wsse:Password><wsu:Created>2025</wsu:Created>",
        ),
        // System.Text.Json's escaped quotes.
        (
            r#""{\u0022ApiSecret\u0022:\u0022Pz8.Qw3-Er5\u0022,\u0022Region\u0022:\u0022eu\u0022}""#,
            r#""{\u0022ApiSecret\u0022:\u0022[REDACTED]\u0022,\u0022Region\u0022:\u0022eu\u0022}""#,
        ),
        // Wi-Fi pre-shared keys and OCI's `pass_phrase`.
        ("\tpsk=\"Hn5#kQ2!wZ\"\n\tkey_mgmt=WPA-PSK", "\tpsk=\"[REDACTED]\"\n\tkey_mgmt=WPA-PSK"),
        (
            "wifi-sec.psk:            Gt6$mY1@pX\nwifi-sec.psk-flags:      0 (none)",
            "wifi-sec.psk:            [REDACTED]\nwifi-sec.psk-flags:      0 (none)",
        ),
        ("pass_phrase=Jk2#Lm9!Np\nregion=eu-1", "pass_phrase=[REDACTED]\nregion=eu-1"),
    ]);
    // Line by line, the same.
    for (input, expected) in [
        ("  api_token: >\n    Tk4mW9qZ2xLp7Rv3Ns8Bc1Hd6Jf0Gy5\n  url: x", "  api_token: >\n    [REDACTED]\n  url: x"),
        ("\"dbPassword\": {\n  \"value\": \"Vx7-pLm2Qr\"\n}", "\"dbPassword\": {\n  \"value\": \"[REDACTED]\"\n}"),
        ("S: 334 UGFzc3dvcmQ6\nC: U3cwcmRmaXNoMTIz", "S: 334 UGFzc3dvcmQ6\nC: [REDACTED]"),
    ] {
        assert_eq!(lines(input), expected, "{input}");
    }
}

#[test]
fn batch_6_neighbours_of_a_secret_stay() {
    each(&[
        // `?` is part of a value outside a URI.
        (
            "--connection \"Host=db;Database=shop;Password=ab?Cd9!x\"",
            "--connection \"Host=db;Database=shop;Password=[REDACTED]\"",
        ),
        ("Db:   Server=s1;Password=q?7Lm;Encrypt=true", "Db:   Server=s1;Password=[REDACTED];Encrypt=true"),
        ("mongodb://h1/app?ssl=true", ""),
        // A SAS signature ends at a comma.
        (
            "SRC=x-azblob,https://a.blob.core.windows.net/c,sv=2022-11-02&sig=Zm9vYmFy%3D,readwrite",
            "SRC=x-azblob,https://a.blob.core.windows.net/c,sv=2022-11-02&sig=[REDACTED],readwrite",
        ),
        // A token known by its shape under a label keeps its prefix.
        ("SCW_ACCESS_KEY=SCWQ4R7T2Y9U1I3O5P7A", "SCW_ACCESS_KEY=SCW[REDACTED]"),
    ]);
}

#[test]
fn url_path_secrets_seeds_and_more_dump_forms_are_hidden() {
    each(&[
        // Secrets as a URL path segment after a marker; a readable segment stays.
        ("POST https://chat.ex.org/hooks/k3m9x2q7w1e5r8t4y6u0i2o4p1", "POST https://chat.ex.org/hooks/[REDACTED]"),
        (
            "https://maker.ifttt.com/trigger/done/with/key/Qw8Er4Ty2Ui6Op0As3Df",
            "https://maker.ifttt.com/trigger/done/with/key/[REDACTED]",
        ),
        (
            "https://logs-01.loggly.com/inputs/5b1c9e2a-7d3f-4e8a-9c6b-2f4d8e1a3c5b/tag/http/",
            "https://logs-01.loggly.com/inputs/[REDACTED]/tag/http/",
        ),
        (
            "https://www.myget.org/F/team/auth/5b1c9e2a-7d3f-4e8a-9c6b-2f4d8e1a3c5b/api/v3/index.json",
            "https://www.myget.org/F/team/auth/[REDACTED]/api/v3/index.json",
        ),
        ("https://conda.ex.org/t/Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7/team", "https://conda.ex.org/t/[REDACTED]/team"),
        ("https://forum.ex.org/t/how-to-configure-the-build/123", ""),
        // NATS seeds, Mollie keys, ConfigCat SDK keys, minisign secret keys.
        (&format!("seed: SU{}", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTUV"), "seed: SU[REDACTED]"),
        ("Mollie rejected key test_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Xc0: 401", "Mollie rejected key test_[REDACTED]: 401"),
        ("test_ThisNameHasNoDigitsAtAllXYZW passed", ""),
        (
            "key configcat-sdk-1/Ab3De6Gh9Jk2Mn5Pq8St1V/Wx4Yz7Ab0Cd3Ef6Gh9Ij2K (AutoPoll)",
            "key configcat-sdk-1/[REDACTED] (AutoPoll)",
        ),
        (
            "untrusted comment: minisign encrypted secret key\nRWQAAEIyAAAAAAAAAAAAAAAAAAAAAFakeFakeFakeFakeFakeFake0123456789==",
            "untrusted comment: minisign encrypted secret key\n[REDACTED]",
        ),
        ("untrusted comment: minisign public key\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3", ""),
        // Erlang and Elixir tuples, CSV rows, YAML's doubled quotes, JSON in JSON in JSON.
        (
            r#"[{user,<<"ops">>},{password,<<"Rq5!mW2x">>},{port,5672}]"#,
            r#"[{user,<<"ops">>},{password,<<"[REDACTED]">>},{port,5672}]"#,
        ),
        (r#"[{:api_token, "Tz8Lp3Qw"}, {:pool, 10}]"#, r#"[{:api_token, "[REDACTED]"}, {:pool, 10}]"#),
        (
            "\"Db:Password\",\"Kq7?Lm2x\",\"String\"\n\"Db:Host\",\"db1\",\"String\"",
            "\"Db:Password\",\"[REDACTED]\",\"String\"\n\"Db:Host\",\"db1\",\"String\"",
        ),
        ("secret: 'Ab1''Cd2'\nname: 'o''neil'", "secret: '[REDACTED]'\nname: 'o''neil'"),
        (
            r#"{"m":"{\"c\":\"{\\\"apiKey\\\":\\\"0f1e2d3c4b5a6978\\\",\\\"r\\\":\\\"eu\\\"}\"}"}"#,
            r#"{"m":"{\"c\":\"{\\\"apiKey\\\":\\\"[REDACTED]\\\",\\\"r\\\":\\\"eu\\\"}\"}"}"#,
        ),
        // A Python bytes repr of a request: the header's escaped line break ends its value.
        (
            r"send: b'GET / HTTP/1.1\r\nAuthorization: Bearer Zx8Cv2Bn6Mq4Wr7Ty1Ui3\r\nAccept: */*\r\n'",
            r"send: b'GET / HTTP/1.1\r\nAuthorization: Bearer [REDACTED]\r\nAccept: */*\r\n'",
        ),
        // Honeycomb's header, its neighbours kept; Elasticsearch's `encoded` key.
        (
            "OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team=Ab3De6Gh9Jk2Mn5Pq8,x-honeycomb-dataset=api",
            "OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team=[REDACTED],x-honeycomb-dataset=api",
        ),
        (
            r#"{"id":"abc","encoded":"QWIzRGU2R2g5SmsyTW41UHE4U3QxVnc0WXo3WGMw"}"#,
            r#"{"id":"abc","encoded":"[REDACTED]"}"#,
        ),
    ]);
    assert_eq!(
        lines(
            "untrusted comment: minisign encrypted secret key\nRWQAAEIyAAAAAAAAAAAAAAAAAAAAAFakeFakeFakeFakeFakeFake0123456789=="
        ),
        "untrusted comment: minisign encrypted secret key\n[REDACTED]"
    );
}

#[test]
fn secret_named_records_lists_name_secrets_and_records_fields_judge_themselves() {
    let mut listing = json!({"credentials": [{"name": "smtp-password", "updated": "2026-01-02"}]});
    let before = listing.clone();
    redact_json(&mut listing);
    assert_eq!(listing, before);
    let mut records = json!({"credentials": [{"name": "smtp", "password": "hunter2-Xy"}], "tokens": ["t0k3n-Abc"]});
    redact_json(&mut records);
    assert_eq!(records, json!({"credentials": [{"name": "smtp", "password": REDACTED}], "tokens": [REDACTED]}));
}

#[test]
fn a_bare_value_glued_to_the_next_prompt_keeps_the_prompt_and_its_output() {
    let text = "$ terraform output -raw db_password\nS3cr3tValue9$ terraform output -raw db_host\ndb.internal";
    let expected = "$ terraform output -raw db_password\n[REDACTED]$ terraform output -raw db_host\ndb.internal";
    assert_eq!(r(text), expected);
    assert_eq!(lines(text), expected);
}

#[test]
fn secrets_in_calls_pairs_rows_and_escaped_queries() {
    for (input, expected) in [
        (
            r#"Expected invocation: x => x.SignInAsync("ops-bot", "Zq9!tr-44Wm", It.IsAny<CancellationToken>())"#,
            r#"Expected invocation: x => x.SignInAsync("ops-bot", "[REDACTED]", It.IsAny<CancellationToken>())"#,
        ),
        (
            r#"  Failed Authenticate_rejects("a@example.org","Pw_77xQ-r") [12 ms]"#,
            r#"  Failed Authenticate_rejects("a@example.org","[REDACTED]") [12 ms]"#,
        ),
        ("Created user ops@example.org / Gh7-kL2!pQ9", "Created user ops@example.org / [REDACTED]"),
        ("owner: dana@example.org / Admin", "owner: dana@example.org / Admin"),
        (
            "arn:aws:secretsmanager:us-east-2:210987654321:secret:app/db-XyZ123\t2026-02-03T04:05:06Z\tapp/db\tb7#Qz-91LmP\tv1\tAWSCURRENT",
            "arn:aws:secretsmanager:us-east-2:210987654321:secret:app/db-XyZ123\t2026-02-03T04:05:06Z\tapp/db\t[REDACTED]\tv1\tAWSCURRENT",
        ),
        (
            "||  AKIAZXCVBNMASDFGHJKL  |  2026-01-01T00:00:00Z |  q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0  | Active  ||",
            "||  AKIA[REDACTED]  |  2026-01-01T00:00:00Z |  [REDACTED]  | Active  ||",
        ),
        (
            "$ acme-cli messages send --to +100 -u ACab12cd34ef:f00dbabe1234567890abcdef12345678 --body hi",
            "$ acme-cli messages send --to +100 -u ACab12cd34ef:[REDACTED] --body hi",
        ),
        ("docker run -u 1000:1000 app", "docker run -u 1000:1000 app"),
        (
            r#"{"url":"https://a.blob.core.windows.net/c/f?sv=2024-01-01\u0026sp=r\u0026sig=AbC123%2Fxyz%3D","ttl":60}"#,
            r#"{"url":"https://a.blob.core.windows.net/c/f?sv=2024-01-01\u0026sp=r\u0026sig=[REDACTED]","ttl":60}"#,
        ),
        (
            "GET /login?next=%2Fapi%3Ftoken%3DQwErTy123456%2525%26page%3D2 - -",
            "GET /login?next=%2Fapi%3Ftoken%3D[REDACTED]%26page%3D2 - -",
        ),
        ("next=%2Fa%3Fbypass%3Dtrue%26x%3D1", "next=%2Fa%3Fbypass%3Dtrue%26x%3D1"),
        ("ftp://deploy:ab#Cd9-xYz@files.example.com/in", "ftp://deploy:[REDACTED]@files.example.com/in"),
        ("String:      Q2hhbmdlZEtleTAxMjM0NTY3ODlhYmNkZWZnaGlqaw==", "String:      [REDACTED]"),
        ("String:      Hello, world", "String:      Hello, world"),
    ] {
        assert_eq!(r(input), expected, "{input}");
    }
}

#[test]
fn more_key_shapes_and_labels() {
    for (input, expected) in [
        (
            "POST /v3/x/messages with api:0a1b2c3d4e5f60718293a4b5c6d7e8f9-1a2b3c4d-5e6f7a8b",
            "POST /v3/x/messages with api:[REDACTED]",
        ),
        ("{'code': '4/0AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'}", "{'code': '4/0A[REDACTED]'}"),
        (
            "Webhooks:Stripe:Signing = 0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
            "Webhooks:Stripe:Signing = [REDACTED]",
        ),
        (
            "body: grant_type=authorization_code&code_verifier=Ab9_cD8-eF7.gH6~iJ5&client_id=app",
            "body: grant_type=authorization_code&code_verifier=[REDACTED]&client_id=app",
        ),
        (
            "POST /acs SAMLResponse=PHNhbWw6QXNzZXJ0aW9uPjwvc2FtbDpBc3NlcnRpb24+&RelayState=abc",
            "POST /acs SAMLResponse=[REDACTED]&RelayState=abc",
        ),
        ("    Key Content            : Wifi-Pass99", "    Key Content            : [REDACTED]"),
        ("    Schlüsselinhalt        : wLan!Key42", "    Schlüsselinhalt        : [REDACTED]"),
        ("      X-Api-Key Zx81abcDEF0123456789gh=-Q9 region=eu", "      X-Api-Key [REDACTED] region=eu"),
        ("access_token received: aBcD1234eFgH5678iJkL9012", "access_token received: [REDACTED]"),
        (
            "bind as cn=svc with credential Rt5-~Lp0qZ (AuthType=Basic)",
            "bind as cn=svc with credential [REDACTED] (AuthType=Basic)",
        ),
        ("using credential manager store", "using credential manager store"),
        ("map key: \x1b[1mAbCdEfGh0123456789IjKlMnOp\x1b[22m (x)", "map key: \x1b[1m[REDACTED]\x1b[22m (x)"),
    ] {
        assert_eq!(r(input), expected, "{input}");
    }
}

#[test]
fn sql_declarations_logins_validation_messages_and_pipeline_variables_hide_their_secret() {
    each(&[
        (
            "DECLARE @__apiToken_0 nvarchar(4000) = N'Qm7-xx!Lp02';",
            "DECLARE @__apiToken_0 nvarchar(4000) = N'[REDACTED]';",
        ),
        ("DECLARE @__name_0 nvarchar(64) = N'alice';", ""),
        ("CREATE USER app IDENTIFIED BY 'Zx-81!qq';", "CREATE USER app IDENTIFIED BY '[REDACTED]';"),
        (
            "ALTER USER ro IDENTIFIED WITH mysql_native_password BY \"Hh7#kk2\";",
            "ALTER USER ro IDENTIFIED WITH mysql_native_password BY \"[REDACTED]\";",
        ),
        (
            "EXEC(N'CREATE LOGIN [svc] WITH PASSWORD = N''Kd9!xx-2'', CHECK_EXPIRATION = OFF');",
            "EXEC(N'CREATE LOGIN [svc] WITH PASSWORD = N''[REDACTED]'', CHECK_EXPIRATION = OFF');",
        ),
        (
            "members: 'ApiToken' with the error: 'It is too long.' (value 'Tq8-pp!z'); 'Port' with the error: 'Out of range.' (value '70000').",
            "members: 'ApiToken' with the error: 'It is too long.' (value '[REDACTED]'); 'Port' with the error: 'Out of range.' (value '70000').",
        ),
        (
            "##[debug]Processed: ##vso[task.setvariable variable=DEPLOY_TOKEN;isOutput=true]abc123XYZ",
            "##[debug]Processed: ##vso[task.setvariable variable=DEPLOY_TOKEN;isOutput=true][REDACTED]",
        ),
        ("##vso[task.setvariable variable=Region]westus2", ""),
        (
            "Signing Key for issuer 'local-issuer' is: 'QWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY='.",
            "Signing Key for issuer 'local-issuer' is: '[REDACTED]'.",
        ),
    ]);
}

#[test]
fn headers_credentials_and_passwords_set_by_more_tools_and_configs() {
    each(&[
        ("header_up X-Api-Key 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "header_up X-Api-Key [REDACTED]"),
        ("header_up Host {upstream_hostport}", ""),
        ("proxy_set_header X-Real-IP $remote_addr;", ""),
        (
            "skopeo copy --src-creds bot:Pq7-vv!x2 docker://a/b:1 docker://c/d:1",
            "skopeo copy --src-creds bot:[REDACTED] docker://a/b:1 docker://c/d:1",
        ),
        ("skopeo copy --dest-creds AWS:$(aws ecr get-login-password) docker://a/b:1", ""),
        ("+ cqlsh db.local 9042 -u app -p 'Gx3!aa-1' --ssl", "+ cqlsh db.local 9042 -u app -p '[REDACTED]' --ssl"),
        (
            "sqlplus -S 'app/\"Zq7.k2x\"@//db:1521/PDB' @run.sql",
            "sqlplus -S 'app/\"[REDACTED]\"@//db:1521/PDB' @run.sql",
        ),
        (
            "openssl pkcs12 -export -out a.pfx -passout 'pass:Rr4-77x'",
            "openssl pkcs12 -export -out a.pfx -passout 'pass:[REDACTED]'",
        ),
        (
            "'--header=Authorization: Api-Token dt0c01.ABCDEFGHIJKLMNOPQRSTUVWX.ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'",
            "'--header=Authorization: Api-Token dt0c01.[REDACTED]'",
        ),
        (
            r#"<- "GET / HTTP/1.1\r\nAuthorization: Token token=abc123DEF456ghi789\r\nAccept: */*\r\n""#,
            r#"<- "GET / HTTP/1.1\r\nAuthorization: Token token=[REDACTED]\r\nAccept: */*\r\n""#,
        ),
        (
            "Generated password for svc_app: Mq8#kk2-L (length 9)",
            "Generated password for svc_app: [REDACTED] (length 9)",
        ),
        ("Setting DB_PASSWORD from environment: Zq8^kk2x", "Setting DB_PASSWORD from environment: [REDACTED]"),
        (
            "Password reset link: https://x.example/reset?code=Ab12Cd34Ef56Gh78",
            "Password reset link: https://x.example/reset?code=[REDACTED]",
        ),
        ("+ echo 'using token Ab12Cd34Ef56Gh78Ij90'", "+ echo 'using token [REDACTED]'"),
        (
            "Не удалось обновить токен доступа Ab12Cd34Ef56Gh78Ij90Kl для клиента",
            "Не удалось обновить токен доступа [REDACTED] для клиента",
        ),
        (
            "QueryString: ?next=%2Fmap%3Fkey%3DZz9Kq2Lm8Np4Rt6Vx1Cb%26z%3D3",
            "QueryString: ?next=%2Fmap%3Fkey%3D[REDACTED]%26z%3D3",
        ),
        ("QueryString: ?next=%2Fmap%3Fkey%3Dnorth%26z%3D3", ""),
    ]);
}

#[test]
fn values_bounded_or_wrapped_by_what_surrounds_them() {
    for (input, expected) in [
        ("Db:Password = Zk8-ww!2을(를) 저장했습니다.", "Db:Password = [REDACTED]을(를) 저장했습니다."),
        ("Xq7Lm2Pz9Rt4Vb8Nc1dev@box:~/app$ ls", "[REDACTED]dev@box:~/app$ ls"),
        ("ops@box:~/app$ ls -l", ""),
        (
            "Token:\neyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkw\nIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2\nMjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\ninfo: done",
            "Token:\n[REDACTED]\n[REDACTED]\n[REDACTED]\ninfo: done",
        ),
        (
            r"App:PrivateKey = -----BEGIN RSA PRIVATE KEY-----\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\nMTIzNDU2Nzg5MA==\n-----END RSA PRIVATE KEY-----\n",
            "App:PrivateKey = [REDACTED]",
        ),
        (
            "  echo \"-----BEGIN EC PRIVATE KEY-----\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVoxMjM0NTY3ODkw\n-----END EC PRIVATE KEY-----\" > k.pem",
            "  echo \"-----BEGIN EC PRIVATE KEY-----\n[REDACTED]\n-----END EC PRIVATE KEY-----\" > k.pem",
        ),
        ("    password: { inline_string: \"Tk8!pp-2\" }", "    password: { inline_string: \"[REDACTED]\" }"),
        ("    private_key: { filename: /etc/certs/k.pem }", ""),
        ("  \"Smtp.Relay.Password\": \"Hh2!kk9\",", "  \"Smtp.Relay.Password\": \"[REDACTED]\","),
        (
            "      Name: API_TOKEN\n      Value: Pp9xx2Lm4Qr\n      Ensure: Present",
            "      Name: API_TOKEN\n      Value: [REDACTED]\n      Ensure: Present",
        ),
        ("Value            Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg", "Value            [REDACTED]"),
        (
            "  | Login | Password | Role |\n  |-------|----------|------|\n  | ana   | Zx8!kq   | Dev  |\n-> done",
            "  | Login | Password | Role |\n  |-------|----------|------|\n  | ana   | [REDACTED]   | Dev  |\n-> done",
        ),
        (
            "User,Team,ApiToken,Notes\n\"Ana, B\",web,\"Qq7!xx\",first\nbob,ops,,none",
            "User,Team,ApiToken,Notes\n\"Ana, B\",web,\"[REDACTED]\",first\nbob,ops,,none",
        ),
        ("| Name | Role |\n| ana | Dev |", ""),
        (
            "variable \"admin_password\" {\n  type      = string\n  default   = \"Wq8!rr-2\"\n  sensitive = true\n}\nvariable \"region\" {\n  default = \"westus\"\n}",
            "variable \"admin_password\" {\n  type      = string\n  default   = \"[REDACTED]\"\n  sensitive = true\n}\nvariable \"region\" {\n  default = \"westus\"\n}",
        ),
    ] {
        let expected = if expected.is_empty() { input } else { expected };
        assert_eq!(r(input), expected, "{input}");
        assert_eq!(lines(input), expected, "line by line: {input}");
    }
}

#[test]
fn pathological_inputs_finish() {
    const N: usize = 20_000;
    let cases = [
        "password=".repeat(N),
        "Password=x;".repeat(N),
        "-----BEGIN PRIVATE KEY-----".repeat(N),
        "https://a:".repeat(N),
        "key=key=".repeat(N),
        format!("user-secrets set {}", "x ".repeat(N)),
        format!("dev-certs https {}", "-p ".repeat(N)),
        "eyJ.".repeat(N),
        "Bearer ".repeat(N),
        " = ".repeat(N),
        "\"".repeat(N),
        "ConnectionStrings__A=".repeat(N),
        "ConnectionStrings__A=a=b;".repeat(N),
        "- name: Password\n".repeat(N),
        "expect \"password\"; ".repeat(N),
        "terraform output x\n".repeat(N),
        "Token  Token  ".repeat(N),
        format!("| Password |\n{}", "| x |\n".repeat(N)),
        format!("a,b,Password\n{}", "1,\"2,3\n".repeat(N)),
        format!("{}dev@box:~$ ", "x".repeat(N)),
        "{ a: { b: ".repeat(N),
        "password = N''x".repeat(N),
        "variable \"password\" {\n  a = b\n".repeat(N),
        "Geslo za a ".repeat(N),
        "Secret ID  = ".repeat(N),
        "a1b2c-d3e4f\n".repeat(N),
        "recovery codes: a1b2-c3d4, ".repeat(N),
        "\x1b[1mghp_".repeat(N),
        "Host=h\\;Password=x\\".repeat(N),
    ];
    for input in &cases {
        assert!(!redact(input).is_empty());
    }
    assert_eq!(r(&"Password=x;".repeat(2)), "Password=[REDACTED];Password=[REDACTED];");
}

// --- the classes of held-out batch 10 (issue 24), each with our own examples ---------------

#[test]
fn bare_secrets_of_secret_managers_and_values_of_secure_types() {
    each_and_lines(&[
        (
            "PS C:\\src> Get-Secret -Name Feed -AsPlainText\nKp3!xx-9Zq\nPS C:\\src> exit",
            "PS C:\\src> Get-Secret -Name Feed -AsPlainText\n[REDACTED]\nPS C:\\src> exit",
        ),
        ("$ op read op://Prod/db/password\nZx9-kk!2\n$ ls", "$ op read op://Prod/db/password\n[REDACTED]\n$ ls"),
        (
            "PARAMETER\tarn:aws:ssm:us-east-1:1:parameter/db\tDbPw\t2026-01-01\tSecureString\tQq8-zz!1\t3",
            "PARAMETER\tarn:aws:ssm:us-east-1:1:parameter/db\tDbPw\t2026-01-01\tSecureString\t[REDACTED]\t3",
        ),
    ]);
    assert_eq!(
        r(r#"{"Name": "/app/db", "Type": "SecureString", "Value": "Hh2-xx!7"}"#),
        r#"{"Name": "/app/db", "Type": "SecureString", "Value": "[REDACTED]"}"#
    );
    let mut value = json!({
        "fields": [{"label": "api token", "value": "abc"}, {"label": "user", "value": "svc"}],
        "param": {"Type": "SecureString", "Value": "x1"},
        "adminPassword": {"type": "SecureString", "value": "Pw1!"},
        "sealing": {"key_id": "5678", "key": "c2VhbGluZy1wdWJsaWMta2V5LWV4YW1wbGUtMDEyMzQ="},
        "SecretString": "{\"user\": \"svc\", \"password\": \"Pp1!\"}",
    });
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({
            "fields": [{"label": "api token", "value": REDACTED}, {"label": "user", "value": "svc"}],
            "param": {"Type": "SecureString", "Value": REDACTED},
            "adminPassword": {"type": "SecureString", "value": REDACTED},
            "sealing": {"key_id": "5678", "key": "c2VhbGluZy1wdWJsaWMta2V5LWV4YW1wbGUtMDEyMzQ="},
            "SecretString": "{\"user\": \"svc\", \"password\": \"[REDACTED]\"}",
        })
    );
}

#[test]
fn labels_shapes_quotes_and_escapes_of_batch_10() {
    each(&[
        ("Secret ID    = 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "Secret ID    = [REDACTED]"),
        ("Create Index = 7\nAccessor ID  = 42", ""),
        (
            "opts { Key = abcdef.ghijkl:Zx9Qw8Er7Ty6Ui5Op4, Env = eu }",
            "opts { Key = abcdef.ghijkl:[REDACTED], Env = eu }",
        ),
        ("\x1b[31mghp_0123456789abcdefABCDEF0123456789ab\x1b[0m", "\x1b[31mghp_[REDACTED]\x1b[0m"),
        (r#"{"key":"Zm9v\/YmFy\/YmF6MTIzNDU2Nzg5MA==","n":1}"#, r#"{"key":"[REDACTED]","n":1}"#),
        (
            "<ContainerEnvironmentVariable Include=\"Smtp__Password\" Value=\"Pp7-qq!2\" />",
            "<ContainerEnvironmentVariable Include=\"Smtp__Password\" Value=\"[REDACTED]\" />",
        ),
        ("<PackageReference Include=\"Azure.Security.KeyVault.Secrets\" Version=\"4.6.0\" />", ""),
        ("New signing key created: 8fQ2xL0pV7rT4bN9cM1dK5gH3jW6sA0e", "New signing key created: [REDACTED]"),
        (
            "https://collectors.example.sumologic.com/receiver/v1/http/ZaVnC4dhaV0XbKp2mQ7rT9sW1",
            "https://collectors.example.sumologic.com/receiver/v1/http/[REDACTED]",
        ),
        ("AGORA_APP_CERTIFICATE=0f1e2d3c4b5a69788796a5b4c3d2e1f0", "AGORA_APP_CERTIFICATE=[REDACTED]"),
        ("{'X-Api-Token': b'Zx9Qw8Er7Ty6Ui5Op4As3', 'n': b'1'}", "{'X-Api-Token': b'[REDACTED]', 'n': b'1'}"),
        ("Authorization: key=Zx9Qw8Er7Ty6Ui5Op4As3Df2", "Authorization: key=[REDACTED]"),
        ("Host=h\\;Password=Pw9-xx\\;Port=5432", "Host=h\\;Password=[REDACTED]\\;Port=5432"),
        ("set CS=Server=s;Password=Pw9-xx^&Port=1", "set CS=Server=s;Password=[REDACTED]^&Port=1"),
        ("connect(token=\"svc_reader:Zx9-qq!2Lm\")", "connect(token=\"svc_reader:[REDACTED]\")"),
        ("password=\"env:DB_PW\"", ""),
    ]);
}

// --- the classes of held-out batch 11 (issue 24), each with our own examples ---------------

#[test]
fn a_quoted_name_with_its_value_in_a_sentence_is_as_secret_as_the_name() {
    each_and_lines(&[
        (
            "/src/Web/Web.csproj : warning CT0001: Key 'Smtp:Password' with value 'Mq7!zx-Pw2' in appsettings.Staging.json overrides a value from appsettings.json",
            "/src/Web/Web.csproj : warning CT0001: Key 'Smtp:Password' with value '[REDACTED]' in appsettings.Staging.json overrides a value from appsettings.json",
        ),
        (
            r#"  setting "Auth:SigningKey" has value "q2VtZ0pLm8Rs4Wx1Yb7Nc3Df6Gh9Jk0L=" (from environment)"#,
            r#"  setting "Auth:SigningKey" has value "[REDACTED]" (from environment)"#,
        ),
        (
            "warning CT0001: Key 'Logging:LogLevel:Default' with value 'Warning' in appsettings.Release.json overrides a value",
            "",
        ),
    ]);
}

#[test]
fn installer_logs_set_properties_and_variables_as_secret_as_their_names() {
    each_and_lines(&[
        (
            "MSI (c) (10:2C) [01:02:03:004]: PROPERTY CHANGE: Adding DB_PASSWORD property. Its value is 'Zq8!mm-30x'.",
            "MSI (c) (10:2C) [01:02:03:004]: PROPERTY CHANGE: Adding DB_PASSWORD property. Its value is '[REDACTED]'.",
        ),
        (
            "MSI (s) (10:2C) [01:02:03:005]: PROPERTY CHANGE: Modifying API_TOKEN property. Its current value is 'old-7Qa'. Its new value: 'new-8Rb'.",
            "MSI (s) (10:2C) [01:02:03:005]: PROPERTY CHANGE: Modifying API_TOKEN property. Its current value is '[REDACTED]'. Its new value: '[REDACTED]'.",
        ),
        ("MSI (s) (10:2C) [01:02:03:006]: PROPERTY CHANGE: Adding TARGETDIR property. Its value is 'D:\\Apps\\'.", ""),
        (
            "[0A0B:0C0D][2026-01-02T03:04:05]i000: Setting string variable 'AdminPassword' to value 'k#9=Lm-2'",
            "[0A0B:0C0D][2026-01-02T03:04:05]i000: Setting string variable 'AdminPassword' to value '[REDACTED]'",
        ),
        ("[0A0B:0C0D][2026-01-02T03:04:05]i000: Setting numeric variable 'RebootPending' to value 0", ""),
    ]);
}

#[test]
fn key_and_value_options_pairs_and_call_arguments_follow_the_name() {
    each_and_lines(&[
        ("envman add --key SIGNING_PASSWORD --value Wq3.tt9Z", "envman add --key SIGNING_PASSWORD --value [REDACTED]"),
        ("envman add --key APP_FLAVOR --value prod-eu", ""),
        (
            r#"[assembly: AssemblyMetadata("ThirdPartyLicense", "Hx7Pq2Lm9Vt4Rs8Wk3Yz6Bn1Cd5Fg0Jh2Kl4Mn6Pq8=")]"#,
            r#"[assembly: AssemblyMetadata("ThirdPartyLicense", "[REDACTED]")]"#,
        ),
        (r#"[assembly: AssemblyMetadata("SourceRevision", "4f2a9c1")]"#, ""),
        (
            r#"Environment.SetEnvironmentVariable("SMTP_PASSWORD", "pa55-word")"#,
            r#"Environment.SetEnvironmentVariable("SMTP_PASSWORD", "[REDACTED]")"#,
        ),
        ("ACME_LICENSE=Yw5Ht8Kq2Zr9Lm3Nx6Pv1Bc4Df7Gh0Jk3Lm6Np9Qr2St5Vw8=", "ACME_LICENSE=[REDACTED]"),
        ("<PackageLicenseExpression>MIT OR Apache-2.0</PackageLicenseExpression>", ""),
        ("ACME_LICENSE_FILE=/etc/acme/license.lic", ""),
    ]);
}

#[test]
fn verbatim_strings_encoded_separators_and_escaped_line_breaks_end_values() {
    each(&[
        (
            r#"internal const string SentryToken = @"Vb7Kx2Qp9Lm4Rt8Ws3Yz";"#,
            r#"internal const string SentryToken = @"[REDACTED]";"#,
        ),
        (
            "/open?c=Host%3Ddb%3BPassword%3Dp%40ss%23w1%3BPort%3D5432&x=1",
            "/open?c=Host%3Ddb%3BPassword%3D[REDACTED]%3BPort%3D5432&x=1",
        ),
        (
            r#""message": "source https://feed.example/?token=Zr8Kq2Lm9Vt4Rs8Wx.\n  Response 401.""#,
            r#""message": "source https://feed.example/?token=[REDACTED].\n  Response 401.""#,
        ),
        (
            "Confirm <a href='https://app.example/Account/Confirm?userId=42&amp;code=Qx7-Lm2_Vt9Rs4Wk8Yz3Bn&amp;returnUrl=%2F'>here</a>",
            "Confirm <a href='https://app.example/Account/Confirm?userId=42&amp;code=[REDACTED]&amp;returnUrl=%2F'>here</a>",
        ),
        ("(db:5432, app, Passwort: 8Qx!z^^) retry", "(db:5432, app, Passwort: [REDACTED]) retry"),
    ]);
}

#[test]
fn csv_names_with_blanks_user_store_tokens_and_authenticator_keys() {
    each(&[
        (
            "Account name,Access key id,Secret access key\nsvc,AKIA0123456789ABCDEF,Lm3Nx6Pv1Bc4/Df7Gh0Jk3Lm6Np9Qr2St5Vw8+Yz1\n",
            "Account name,Access key id,Secret access key\nsvc,AKIA[REDACTED],[REDACTED]\n",
        ),
        (
            "9f1c|[AspNetUserStore]|AuthenticatorKey|QWERTYUIOPASDFGH23456JKLZXCVBNM7",
            "9f1c|[AspNetUserStore]|AuthenticatorKey|[REDACTED]",
        ),
        (
            "9f1c\t[AspNetUserStore]\tRecoveryCodes\tAB12C-DE34F;GH56I-JK78L",
            "9f1c\t[AspNetUserStore]\tRecoveryCodes\t[REDACTED]",
        ),
        (
            "Enter the key <kbd>ab2c de3f gh4i jk5l mn6o pq7r</kbd> in your app.",
            "Enter the key <kbd>[REDACTED]</kbd> in your app.",
        ),
        ("KEY: QW2E RT3Y UI4O PA5S DF6G HJ7K", "KEY: [REDACTED]"),
        ("they said that this time will make some more", ""),
    ]);
}

#[test]
fn secret_generators_and_license_files_print_the_line_after_them() {
    each_and_lines(&[
        ("$ mix phx.gen.secret\nVt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn/Pq8Lm3Nx6", "$ mix phx.gen.secret\n[REDACTED]"),
        (
            "$ openssl rand -base64 32\nQx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn4Pq8=",
            "$ openssl rand -base64 32\n[REDACTED]",
        ),
        (
            "PS C:\\w> Get-Content .\\Acme\\Acme_License.txt\nQx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0==\nPS C:\\w> dir",
            "PS C:\\w> Get-Content .\\Acme\\Acme_License.txt\n[REDACTED]\nPS C:\\w> dir",
        ),
    ]);
    assert_eq!(r("$ bin/rails secret\nab12cd34ef56ab12cd34ef56ab12cd34$ ls"), "$ bin/rails secret\n[REDACTED]$ ls");
}

#[test]
fn keys_files_account_keys_and_private_keys_in_structured_content() {
    let mut value = json!({
        "keys": {"anthropic": "sk-ant-Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg", "cohere": "Qx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl"},
        "names": {"first": "Ada", "last": "Lovelace"},
        "Stripe": {"PublishableKey": "pk_live_Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg", "SecretKey": "sk_live_Qx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1"},
        "account": {"name": "acme", "primary": "Hq7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn4Pq8=", "secondary": "Pz4Qw8Er2Ty6Ui0Op3As7Df1Gh5Jk9Lz2Xc4Vb6="},
        "privateKey": "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBqW8Er2Ty6Ui0Op3As7Df1Gh5Jk9Lz2Xc4Vb6\n-----END EC PRIVATE KEY-----\n",
    });
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({
            "keys": {"anthropic": "sk-[REDACTED]", "cohere": REDACTED},
            "names": {"first": "Ada", "last": "Lovelace"},
            "Stripe": {"PublishableKey": "pk_live_Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg", "SecretKey": "sk_live_[REDACTED]"},
            "account": {"name": "acme", "primary": REDACTED, "secondary": REDACTED},
            "privateKey": "-----BEGIN EC PRIVATE KEY-----\n[REDACTED]\n-----END EC PRIVATE KEY-----\n",
        })
    );
    // `az cosmosdb keys list --type connection-strings`: each record's connection string is read
    // part by part, what describes it stays.
    let mut value = json!({"connectionStrings": [{"connectionString": "AccountEndpoint=https://shop.documents.azure.com:443/;AccountKey=Hq7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn4Pq8==;",
        "description": "Primary SQL Connection String", "keyKind": "Primary", "type": "Sql"}]});
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({"connectionStrings": [{"connectionString": "AccountEndpoint=https://shop.documents.azure.com:443/;AccountKey=[REDACTED];",
            "description": "Primary SQL Connection String", "keyKind": "Primary", "type": "Sql"}]})
    );
    // `aws iam create-access-key`: what describes the key inside its secret-named record stays.
    let mut value = json!({"AccessKey": {"UserName": "deploy", "AccessKeyId": "AKIAZR8KQ2LM9VT4RS8W",
        "Status": "Active", "SecretAccessKey": "Qx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn4Pq8/", "CreateDate": "2025-03-01T10:15:02+00:00"}});
    redact_json(&mut value);
    assert_eq!(
        value,
        json!({"AccessKey": {"UserName": "deploy", "AccessKeyId": "AKIA[REDACTED]", "Status": "Active",
            "SecretAccessKey": REDACTED, "CreateDate": "2025-03-01T10:15:02+00:00"}})
    );
    assert_eq!(
        r(r#"{"primary": "Hq7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn4Pq8=", "isPrimary": true}"#),
        r#"{"primary": "[REDACTED]", "isPrimary": true}"#
    );
}

// --- the context classes of held-out batch 11 (issue 24), each with our own examples -------

#[test]
fn ansi_codes_before_a_labels_separator_and_before_a_quoted_value() {
    each_and_lines(&[
        // `grep --color=always`: file, line number, then the highlighted label, its highlight
        // ended before the `=`.
        (
            "\x1b[35m\x1b[Kconf/prod.env\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[KSMTP_PASSWORD\x1b[m\x1b[K=Wq8-zz!4Lp",
            "\x1b[35m\x1b[Kconf/prod.env\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[KSMTP_PASSWORD\x1b[m\x1b[K=[REDACTED]",
        ),
        (
            "\x1b[01;31m\x1b[KSTORAGE_KEY\x1b[m\x1b[K=9c1f0e2d3b4a59687f6e5d4c3b2a1908",
            "\x1b[01;31m\x1b[KSTORAGE_KEY\x1b[m\x1b[K=[REDACTED]",
        ),
        // A themed logger colours the value after the word `key`.
        (
            "Connected with key \x1b[38;5;0045m\"Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm9Nb8Vc7X\"\x1b[0m in 3 ms",
            "Connected with key \x1b[38;5;0045m\"[REDACTED]\"\x1b[0m in 3 ms",
        ),
        // A highlighted name without a value, a placeholder, a commit under a plain name, a
        // key's name in colour.
        ("GetEnvironmentVariable(\"\x1b[01;31m\x1b[KAPI_TOKEN\x1b[m\x1b[K\");", ""),
        ("export \x1b[01;31m\x1b[KSMTP_PASSWORD\x1b[m\x1b[K=<from the vault>", ""),
        ("\x1b[01;31m\x1b[KCOMMIT_SHA\x1b[m\x1b[K=9c1f0e2d3b4a59687f6e5d4c3b2a1908", ""),
        ("Loaded key \x1b[38;5;0045m\"orders-signing\"\x1b[0m", ""),
    ]);
}

#[test]
fn elements_named_by_a_name_attribute_hide_their_value_child() {
    each_and_lines(&[
        // A `.resx` string and an `App.config` setting, the value on the next line or the same.
        (
            "  <data name=\"MailApiKey\" xml:space=\"preserve\">\n    <value>5f0c1e2d3b4a59687f6e5d4c3b2a1908</value>\n  </data>",
            "  <data name=\"MailApiKey\" xml:space=\"preserve\">\n    <value>[REDACTED]</value>\n  </data>",
        ),
        (
            "<setting name=\"SyncToken\" serializeAs=\"String\">\n  <value>Zx9Qw8Er</value>\n</setting>",
            "<setting name=\"SyncToken\" serializeAs=\"String\">\n  <value>[REDACTED]</value>\n</setting>",
        ),
        (
            "<data name=\"Db.Password\"><value>Pw9-xx</value></data>",
            "<data name=\"Db.Password\"><value>[REDACTED]</value></data>",
        ),
        // Text, a key's id, a shortcut and a description stay.
        ("<data name=\"WelcomeTitle\" xml:space=\"preserve\">\n  <value>Welcome</value>\n</data>", ""),
        (
            "<setting name=\"SigningKeyId\" serializeAs=\"String\">\n  <value>0d6f1c2e-4a5b-4c3d-9e8f-7a6b5c4d3e2f</value>",
            "",
        ),
        ("<data name=\"ShortcutKey\"><value>Ctrl+K</value></data>", ""),
        ("<data name=\"TokenExpiryLabel\"><value>Expires in 5f0c1e2d3b4a5968 days</value></data>", ""),
    ]);
}

#[test]
fn argv_lists_and_calls_that_set_a_named_value() {
    each_and_lines(&[
        // strace's `execve` argv, a Python list: the item after a secret option.
        (
            "execve(\"/usr/bin/sync\", [\"sync\", \"--mail-key\", \"9c1f0e2d3b4a59687f6e5d4c3b2a1908\", \"--region\", \"eu\"], 0x7ffc /* 3 vars */) = 0",
            "execve(\"/usr/bin/sync\", [\"sync\", \"--mail-key\", \"[REDACTED]\", \"--region\", \"eu\"], 0x7ffc /* 3 vars */) = 0",
        ),
        ("['app', '--password', 'Pw9-xx', '-v']", "['app', '--password', '[REDACTED]', '-v']"),
        // Aspire's `WithEnvironment`, an environment variable, a default request header.
        (
            "    .WithEnvironment(\"MAIL_API_KEY\", \"5f0c1e2d-3b4a-4968-9f6e-5d4c3b2a1908:eu\")",
            "    .WithEnvironment(\"MAIL_API_KEY\", \"[REDACTED]\")",
        ),
        (
            "Environment.SetEnvironmentVariable(\"DB_PASSWORD\", \"Pw9-xx\");",
            "Environment.SetEnvironmentVariable(\"DB_PASSWORD\", \"[REDACTED]\");",
        ),
        (
            "http.DefaultRequestHeaders.Add(\"X-Sync-Key\", \"Zx9Qw8Er7Ty6Ui5Op4As3\");",
            "http.DefaultRequestHeaders.Add(\"X-Sync-Key\", \"[REDACTED]\");",
        ),
        // A word after a weak option, a public key, names that say nothing secret, ids.
        ("[\"tool\", \"--sort-key\", \"name\", \"--commit\", \"9c1f0e2d3b4a59687f6e5d4c3b2a1908\"]", ""),
        ("[\"ssh\", \"--public-key\", \"AAAAC3NzaC1lZDI1NTE5AAAAIG9vZm9vZm9v\"]", ""),
        ("    .WithEnvironment(\"OTEL_SERVICE_NAME\", \"orders\")", ""),
        ("    .WithEnvironment(\"BUILD_ID\", \"5f0c1e2d-3b4a-4968-9f6e-5d4c3b2a1908\")", ""),
        ("req.Headers.Add(\"X-Correlation-Id\", \"5f0c1e2d-3b4a-4968-9f6e-5d4c3b2a1908\");", ""),
    ]);
}

#[test]
fn line_ends_and_folds_that_cat_sed_and_diff_put_beside_a_value() {
    each_and_lines(&[
        // `cat -A`: `^M$` ends a line of a file with CRLF endings.
        ("SMTP_PASSWORD=Pw9-xx^M$\nNEXT=1^M$", "SMTP_PASSWORD=[REDACTED]^M$\nNEXT=1^M$"),
        ("MAIL_API_KEY=9c1f0e2d3b4a59687f6e5d4c3b2a1908^M$", "MAIL_API_KEY=[REDACTED]^M$"),
        // `sed -n l` folds a long line with a `\` and ends each line with `$`.
        (
            "MAIL_TOKEN=Zx9Qw8Er7Ty6\\\nUi5Op4As3$\nDOTNET_gcServer=1$",
            "MAIL_TOKEN=[REDACTED]\\\n[REDACTED]$\nDOTNET_gcServer=1$",
        ),
        // A quoted value does not go on; the next line is scanned as any.
        ("API_TOKEN=\"Pw9-xx\"\\\n--verbose", "API_TOKEN=\"[REDACTED]\"\\\n--verbose"),
        // A token qualified by its deployment, also in `diff -y`'s right column.
        ("DEPLOY_KEY=preview:blue-fox-42|Zx9Qw8Er7Ty6Ui5Op4As3Df2", "DEPLOY_KEY=[REDACTED]"),
        (
            "DEPLOY_KEY=\t\t\t  |\tDEPLOY_KEY=prod:blue-fox-42|Zx9Qw8Er7Ty6Ui5Op4As3Df2",
            "DEPLOY_KEY=\t\t\t  |\tDEPLOY_KEY=[REDACTED]",
        ),
        // Values that are no secret keep their line ends.
        ("ASPNETCORE_ENVIRONMENT=Development^M$", ""),
        ("SORT_KEY=prod:orders|by-date", ""),
    ]);
}

// --- the classes of held-out batch 12 (issue 24), each with our own examples ---------------

#[test]
fn batch_12_configuration_paths_commands_after_a_bare_secret_and_stand_ins() {
    each_and_lines(&[
        // A configuration path goes on with an array's index and `Value`.
        (
            "Auth:Bearer:SigningKeys:0:Value = Lm3Nx6Pv1Bc4/Df7Gh0Jk3Lm6Np9Qr2St5Vw8Yz1Ab=",
            "Auth:Bearer:SigningKeys:0:Value = [REDACTED]",
        ),
        ("Auth:Bearer:SigningKeys:0:Length = 32", ""),
        ("Mail:Passwords:1 = Zq8-mm!30x", "Mail:Passwords:1 = [REDACTED]"),
        // Redis' password options on its command line.
        (
            "command: redis-server --requirepass Zq8*mm_30x --appendonly yes",
            "command: redis-server --requirepass [REDACTED] --appendonly yes",
        ),
        ("redis-server --masterauth Qw7-zz!4 --port 6380", "redis-server --masterauth [REDACTED] --port 6380"),
        // A command substitution, bracketed placeholders, SASL mechanisms, an indexer.
        ("curl -H \"Authorization: Bearer $(az account get-access-token -o tsv)\" https://x.test", ""),
        ("\"ClientSecret\": \"[Enter the client secret here]\",", ""),
        ("\"ApiKey\": \"[your key]\",", ""),
        ("Usage: dotnet user-secrets set [arguments] [options]", ""),
        ("S: 250-AUTH LOGIN PLAIN XOAUTH2", ""),
        ("var apiKey = builder.Configuration[\"Mail:ApiKey\"];", ""),
        ("C: AUTH LOGIN dXNlcjpQdzlfeHg=", "C: AUTH LOGIN [REDACTED]"),
        // A test's data in `dotnet test`'s result line, not a password.
        ("  Passed LoginTests.Rejects_short_password(password: \"abc\") [3 ms]", ""),
    ]);
    // The line after a cloud CLI's bare secret is the next command when it starts with a
    // trace or prompt marker: its arguments are judged as any command line's.
    each(&[(
        "+ aws ecr get-login-password --region eu-west-1\n+ docker login --username AWS --password eyJwYXlsb2FkIjoiTG0zTng2UHYxQmM0In0= 123456789012.dkr.ecr.eu-west-1.amazonaws.com",
        "+ aws ecr get-login-password --region eu-west-1\n+ docker login --username AWS --password [REDACTED] 123456789012.dkr.ecr.eu-west-1.amazonaws.com",
    )]);
}

#[test]
fn libpq_keyword_strings_and_a_first_password_with_blanks_hide_the_whole_password() {
    each_and_lines(&[
        // libpq's keyword/value string, its pairs separated by blanks: the password alone goes,
        // host, port, user and dbname stay.
        (
            "psql: error: host=db port=5432 user=app password=Zq8mm30x dbname=shop",
            "psql: error: host=db port=5432 user=app password=[REDACTED] dbname=shop",
        ),
        (
            "host=db port=5432 user=app password='correct horse battery' dbname=shop",
            "host=db port=5432 user=app password='[REDACTED]' dbname=shop",
        ),
        // libpq reads `\'` and `\\` in a value as a quote and a backslash, and `\ ` in a bare
        // value as a blank: the value runs past them.
        (
            r"host=db port=5432 user=app password='it\'s a b\\c' dbname=shop",
            "host=db port=5432 user=app password='[REDACTED]' dbname=shop",
        ),
        (r"host=db user=app password=Zq8\ mm\ 30x dbname=shop", "host=db user=app password=[REDACTED] dbname=shop"),
        (r"password='Zq8\'mm 30x' host=db", "password='[REDACTED]' host=db"),
        // An Npgsql or ADO.NET string whose first pair is the password with blanks in it: it runs
        // to the `;` before the next pair, whatever its name.
        ("Password=a b;Host=db.example;Username=app", "Password=[REDACTED];Host=db.example;Username=app"),
        ("Pwd=my pass phrase;Connect Timeout=30;Server=db", "Pwd=[REDACTED];Connect Timeout=30;Server=db"),
        ("Password=a b;Timeout=30", "Password=[REDACTED];Timeout=30"),
        (
            "Npgsql: Password=correct horse battery; Host=db; Port=5432; Database=shop",
            "Npgsql: Password=[REDACTED]; Host=db; Port=5432; Database=shop",
        ),
        ("\"Pwd=my pass phrase;Server=tcp:db,1433\"", "\"Pwd=[REDACTED];Server=tcp:db,1433\""),
        // Look-alikes: prose and options that name a password without one.
        ("set password= in the file", ""),
        ("use --password-file=/run/secrets/db to read it", ""),
        ("password=abc was rejected by the server", ""),
        ("Password must be set; Host=db is reachable", ""),
    ]);
}

/// RFC 7616: a Digest `response` is a hash of the password with the nonces, the one parameter
/// that is secret; the username, realm, URI, `nonce` and `cnonce` travel in the clear.
#[test]
fn a_digest_response_is_hidden_in_plain_json_escaped_and_structured_headers() {
    each_and_lines(&[
        (
            r#"Authorization: Digest username="bob", realm="api", nonce="dcd98b7102dd", uri="/x", qop=auth, nc=00000001, cnonce="0a4f113b", response="6629fae49393a05397450978507c4ef1", opaque="5ccc069c403e""#,
            r#"Authorization: Digest username="bob", realm="api", nonce="dcd98b7102dd", uri="/x", qop=auth, nc=00000001, cnonce="0a4f113b", response="[REDACTED]", opaque="5ccc069c403e""#,
        ),
        // A log line of JSON whose header value escapes its quotes.
        (
            r#"{"headers":{"Authorization":"Digest username=\"bob\", realm=\"api\", nonce=\"dcd98b\", uri=\"/x\", response=\"6629fae49393a05397450978507c4ef1\""}}"#,
            r#"{"headers":{"Authorization":"Digest username=\"bob\", realm=\"api\", nonce=\"dcd98b\", uri=\"/x\", response=\"[REDACTED]\""}}"#,
        ),
        // The same JSON logged inside a JSON string: its quotes escaped once more.
        (
            r#"{"log":"{\"headers\":{\"Authorization\":\"Digest username=\\\"bob\\\", cnonce=\\\"0a4f113b\\\", response=\\\"6629fae49393a05397450978507c4ef1\\\"\"}}"}"#,
            r#"{"log":"{\"headers\":{\"Authorization\":\"Digest username=\\\"bob\\\", cnonce=\\\"0a4f113b\\\", response=\\\"[REDACTED]\\\"\"}}"}"#,
        ),
        // System.Text.Json escapes the quotes as `\u0022`.
        (
            r#"{"Authorization":"Digest username=\u0022bob\u0022, realm=\u0022api\u0022, response=\u00226629fae49393a05397450978507c4ef1\u0022"}"#,
            r#"{"Authorization":"Digest username=\u0022bob\u0022, realm=\u0022api\u0022, response=\u0022[REDACTED]\u0022"}"#,
        ),
        // A server's challenge holds no credential.
        (r#"WWW-Authenticate: Digest realm="api", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093""#, ""),
    ]);
    both_paths(&[(
        "Authorization",
        r#"Digest username="bob", realm="api", nonce="dcd98b", cnonce="0a4f113b", response="6629fae49393a05397450978507c4ef1""#,
        r#"Digest username="bob", realm="api", nonce="dcd98b", cnonce="0a4f113b", response="[REDACTED]""#,
    )]);
}

/// A JSON member whose value has the exact shape of an Azure Storage account key (the base64 of
/// 64 bytes) is hidden under any name but one that says the bytes are public (a SHA-512 digest,
/// a signature, a public key), in text and in structured content alike.
#[test]
fn a_value_shaped_as_an_account_key_is_hidden_under_any_json_name_but_a_digest_s() {
    const KEY: &str = "fFJ9doLL7a+4xo7OAzoOhBD0WrGZvOViD+BW8AYfNjdZ7Qje1Ga9Ofhbt+b9POEF3hTyM53rDqfXLNGOc/D3bQ==";
    const OTHER: &str = "G6XuneJntJaB9kvYWzmY7QVQ1yeR4OT0wwiOR83OxaKjzajq0ab0PwJDyG7ThRvIqBmMEKUBlOcl90iyjCj4AA==";
    let line = |name: &str, value: &str| format!("    \"{name}\": \"{value}\",");
    let hidden = |name: &str| format!("    \"{name}\": \"[REDACTED]\",");
    for name in ["Storage", "Primary", "data", "passwordHash"] {
        assert_eq!(r(&line(name, KEY)), hidden(name), "{name}");
    }
    // Names of digests, signatures and public keys keep 64 random bytes; so does a value whose
    // last character before `==` no 64 bytes end with, or one character short.
    let not_a_key = [
        ("contentHash", KEY),
        ("sha512", OTHER),
        ("signature", KEY),
        ("publicKey", OTHER),
        ("Storage", &KEY.replace("bQ==", "bZ==")),
        ("Storage", &KEY[1..]),
        // A process's output as structured content: a line read from a file, not a setting.
        ("stdout", KEY),
    ];
    for (name, value) in not_a_key {
        let input = line(name, value);
        assert_eq!(r(&input), input);
    }
    // A compact object: only the key goes, the digest beside it stays; so in JSON logged inside
    // a JSON string, its quotes escaped.
    each(&[
        (
            &format!(r#"{{"log":"{{\"Storage\":\"{KEY}\",\"sha512\":\"{OTHER}\"}}"}}"#),
            &format!(r#"{{"log":"{{\"Storage\":\"[REDACTED]\",\"sha512\":\"{OTHER}\"}}"}}"#),
        ),
        (
            &format!(r#"{{"log":"{{\u0022Storage\u0022:\u0022{KEY}\u0022}}"}}"#),
            r#"{"log":"{\u0022Storage\u0022:\u0022[REDACTED]\u0022}"}"#,
        ),
    ]);
    each(&[(
        &format!(r#"{{"sha512":"{OTHER}","Storage":"{KEY}"}}"#),
        &format!(r#"{{"sha512":"{OTHER}","Storage":"[REDACTED]"}}"#),
    )]);
    // A line of a name and such a value: `dotnet user-secrets list`, an environment dump, YAML.
    each_and_lines(&[
        (&format!("Storage = {KEY}\nSmtp:Host = mail"), "Storage = [REDACTED]\nSmtp:Host = mail"),
        (&format!("export AZURE_STORAGE={KEY}"), "export AZURE_STORAGE=[REDACTED]"),
        (&format!("  primary: {KEY}\n  region: westeurope"), "  primary: [REDACTED]\n  region: westeurope"),
        (&format!("sha512: {KEY}"), ""),
        (&format!("Checksum = {OTHER}"), ""),
    ]);
    // The line redactor reads lines without their `\r`.
    each(&[(&format!("Storage={KEY}\r\nRegion=westeurope"), "Storage=[REDACTED]\r\nRegion=westeurope")]);
    both_paths(&[
        ("Storage", KEY, "[REDACTED]"),
        ("Secondary", OTHER, "[REDACTED]"),
        ("contentHash", KEY, ""),
        ("stdout", OTHER, ""),
    ]);
}

/// A switch that negates a setting (`--no-password` of `psql` and `pg_dump`: never prompt) takes
/// no value: the word after it is judged as any other word, in text and in an argument list.
#[test]
fn a_negated_password_switch_takes_no_value() {
    each(&[
        (r"pg_dump --dbname=shop --no-password -f C:\dumps\shop.sql", ""),
        ("psql -h db -U app --no-password -c \"select 1\"", ""),
        // A token after it is still hidden by its shape, and a password option after it by its name.
        ("tool --no-password ghp_0123456789abcdefABCDEF0123456789abcd", "tool --no-password ghp_[REDACTED]"),
        ("tool --no-password --db-password Zq8mm30x", "tool --no-password --db-password [REDACTED]"),
    ]);
    assert_eq!(args(&["pg_dump", "--no-password", "-f", "shop.sql"]), ["pg_dump", "--no-password", "-f", "shop.sql"]);
    assert_eq!(
        args(&["tool", "--no-password", "--db-password", "Zq8mm30x"]),
        ["tool", "--no-password", "--db-password", "[REDACTED]"]
    );
}
