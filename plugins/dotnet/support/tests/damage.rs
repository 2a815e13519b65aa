//! Damage (issue 24): the text beside a secret must survive redaction byte for byte. Generated
//! fake secrets (each of a real format's alphabet and length, from a fixed seed) are placed
//! between realistic neighbours in the forms a .NET developer meets daily: connection strings of
//! the common providers, appsettings JSON (pretty and compact), YAML, INI and `.env` files, XML,
//! command lines and their argument vectors, `dotnet user-secrets`, HTTP headers, URLs, and log
//! lines of ASP.NET Core and EF Core. Each case is checked on the whole-text path
//! ([`redact`]), line by line ([`LineRedactor`]), where it is a command line as an argument
//! vector ([`redact_args`]), and where it is a JSON document as structured content
//! ([`redact_json`]): every secret is gone and the output is exactly the input with each
//! secret replaced by [`REDACTED`], so the rest of its line, the next value of its connection
//! string, JSON object or section, the next line, a user name, a URL's host and the paths and
//! placeholders beside it all survive.

mod common;

use common::{ALNUM, BASE64, BASE64URL, HEX, Rng, render};
use dotnet_support::redact::{LineRedactor, REDACTED, redact, redact_args, redact_json};
use serde_json::Value;

/// A secret of the format `kind`, random within that format's alphabet and length.
fn secret(rng: &mut Rng, kind: &str) -> String {
    match kind {
        // A password people choose or a generator makes: letters, digits and the symbols that
        // are safe inside a key/value connection string, JSON and YAML without quoting.
        "pw" => {
            let len = 10 + rng.below(15);
            let mut pw = rng.chars(ALNUM, 2);
            pw.push_str(
                &rng.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789!#%^*-_+.~@", len - 3),
            );
            pw.push_str(&rng.chars(ALNUM, 1));
            pw
        }
        // A password as a URL's user information holds it unencoded.
        "urlpw" => {
            let len = 8 + rng.below(12);
            let mut pw = rng.chars(ALNUM, len);
            pw.push_str(&rng.chars("-_.~!*", 1));
            pw.push_str(&rng.chars(ALNUM, 3));
            pw
        }
        // An Azure Storage account key or Service Bus / Cosmos shared access key (64 bytes or
        // 32 bytes, base64).
        "account_key" => format!("{}==", rng.chars(BASE64, 86)),
        "sas_key" => format!("{}=", rng.chars(BASE64, 43)),
        // A SAS signature as it appears in a query, URL-encoded.
        "sig" => format!("{}%3D", rng.chars(ALNUM, 43)),
        "ghp" => format!("ghp_{}", rng.chars(ALNUM, 36)),
        "nuget" => format!("oy2{}", rng.chars("abcdefghijklmnopqrstuvwxyz0123456789", 43)),
        "aws_secret" => rng.chars(BASE64, 40),
        "stripe" => format!("sk_live_{}", rng.chars(ALNUM, 24)),
        "google" => format!("AIza{}", rng.chars(BASE64URL, 35)),
        "sendgrid" => format!("SG.{}.{}", rng.chars(BASE64URL, 22), rng.chars(BASE64URL, 43)),
        "slack" => {
            format!("xoxb-{}-{}-{}", rng.chars("0123456789", 12), rng.chars("0123456789", 13), rng.chars(ALNUM, 24))
        }
        "jwt" => {
            let len = 40 + rng.below(40);
            format!(
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{}.{}",
                rng.chars(BASE64URL, len),
                rng.chars(BASE64URL, 43)
            )
        }
        "hex32" => rng.chars(HEX, 32),
        "opaque" => {
            let len = 32 + rng.below(16);
            rng.chars(ALNUM, len)
        }
        other => panic!("no generator for secret kind {other}"),
    }
}

/// What the text must read after redaction: each secret replaced by [`REDACTED`], nothing else
/// changed.
fn expected(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_owned();
    for secret in secrets {
        out = out.replacen(secret.as_str(), REDACTED, 1);
    }
    out
}

/// The prefixes that say which vendor issued a token (`ghp_`, `sk_live_`): redaction may keep one
/// before [`REDACTED`], as it tells the reader what was hidden and none of the secret.
const VENDOR_PREFIXES: &[&str] = &["ghp_", "oy2", "sk_live_", "AIza", "SG.", "xoxb-"];

/// `got` with each kept vendor prefix of a placed secret folded into its [`REDACTED`], to compare
/// with [`expected`].
fn without_vendor_prefixes(got: &str, secrets: &[String]) -> String {
    let mut out = got.to_owned();
    for prefix in VENDOR_PREFIXES.iter().filter(|prefix| secrets.iter().any(|secret| secret.starts_with(*prefix))) {
        out = out.replace(&format!("{prefix}{REDACTED}"), REDACTED);
    }
    out
}

fn by_lines(text: &str) -> String {
    let mut redactor = LineRedactor::new();
    text.split('\n').filter_map(|line| redactor.line(line).map(|line| line.into_owned())).collect::<Vec<_>>().join("\n")
}

/// Seeds per template: each template is rendered this many times with fresh secrets and
/// neighbours.
const ROUNDS: u64 = 24;

/// Checks every template on the text paths and returns the failures, each with its case.
fn check_text(templates: &[&str]) -> Vec<String> {
    let mut failures = Vec::new();
    for (t, template) in templates.iter().enumerate() {
        for round in 0..ROUNDS {
            let mut rng = Rng(0x5eed_0000 + (t as u64) * 1000 + round);
            let (text, secrets) = render(&mut rng, template, secret);
            let want = expected(&text, &secrets);
            for (path, got) in [("redact", redact(&text).into_owned()), ("lines", by_lines(&text))] {
                if without_vendor_prefixes(&got, &secrets) != want {
                    failures.push(format!(
                        "{path} of template {t} round {round}:\n  in:   {text}\n  want: {want}\n  got:  {got}"
                    ));
                }
            }
        }
    }
    failures
}

fn assert_none(failures: Vec<String>) {
    // One failure per case (path and template) with how many rounds of it failed.
    let mut cases: Vec<(String, String, usize)> = Vec::new();
    for failure in &failures {
        let case = failure.split(" round ").next().unwrap_or_default().to_owned();
        match cases.iter_mut().find(|(seen, _, _)| *seen == case) {
            Some((_, _, count)) => *count += 1,
            None => cases.push((case, failure.clone(), 1)),
        }
    }
    let shown: Vec<String> =
        cases.iter().map(|(_, first, count)| format!("{first}\n  ({count} of {ROUNDS} rounds)")).collect();
    assert!(failures.is_empty(), "{} damaged or leaking cases:\n{}", failures.len(), shown.join("\n"));
}

/// Templates whose lines are wrapped between an unrelated line before and after, so the line
/// after a secret is part of every case.
fn framed(body: &str) -> String {
    format!("info: Application starting\n{body}\ninfo: Now listening on: http://localhost:5000")
}

#[test]
fn connection_strings_keep_every_part_but_the_secret() {
    let templates = [
        // SQL Server / Azure SQL.
        "Server=tcp:{host},1433;Initial Catalog={db};Persist Security Info=False;User ID={user};Password=«pw»;MultipleActiveResultSets=False;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;",
        "Data Source={host};Initial Catalog={db};User Id={user};Password=«pw»;TrustServerCertificate=True",
        "Server={host};Database={db};User Id={user};Password=«pw»;",
        "Server={host};Database={db};Uid={user};Pwd=«pw»;Encrypt=yes",
        // PostgreSQL (Npgsql) key/value and URL.
        "Host={host};Port={port};Database={db};Username={user};Password=«pw»;SSL Mode=Require;Trust Server Certificate=true",
        "postgres://{user}:«urlpw»@{host}:{port}/{db}?sslmode=require",
        "postgresql://{user}:«urlpw»@{host}/{db}",
        // MySQL.
        "Server={host};Port={port};Database={db};Uid={user};Pwd=«pw»;SslMode=Preferred;",
        "mysql://{user}:«urlpw»@{host}:{port}/{db}",
        // SQLite with a password.
        "Data Source=app.db;Password=«pw»",
        // MongoDB.
        "mongodb://{user}:«urlpw»@{host}:{port}/{db}?authSource=admin&retryWrites=true",
        "mongodb+srv://{user}:«urlpw»@cluster0.ab1cd.mongodb.net/{db}?retryWrites=true&w=majority",
        // Redis (StackExchange.Redis) and a Redis URL.
        "{host}:{port},password=«pw»,ssl=True,abortConnect=False",
        "redis://:«urlpw»@{host}:{port}/0",
        "rediss://default:«urlpw»@{host}:{port}",
        // Azure Storage, Service Bus, Event Hubs, Cosmos DB, App Insights (whose key is no secret).
        "DefaultEndpointsProtocol=https;AccountName={account};AccountKey=«account_key»;EndpointSuffix=core.windows.net",
        "BlobEndpoint=https://{account}.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-12-31T00:00:00Z&sig=«sig»",
        "Endpoint=sb://{account}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=«sas_key»",
        "Endpoint=sb://{account}.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=«sas_key»;EntityPath=orders",
        "AccountEndpoint=https://{account}.documents.azure.com:443/;AccountKey=«account_key»;",
        "InstrumentationKey={guid};IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/;LiveEndpoint=https://westeurope.livediagnostics.monitor.azure.com/",
    ];
    let mut all = Vec::new();
    for template in templates {
        // Alone, inside the forms that carry a connection string, and framed by other lines.
        all.push(template.to_owned());
        all.push(framed(&format!("ConnectionStrings__Default={template}")));
        all.push(framed(&format!(
            "  \"ConnectionStrings\": {{\n    \"Default\": \"{template}\",\n    \"Cache\": \"{{host}}:6379\"\n  }},"
        )));
        all.push(format!(
            "{{\"ConnectionStrings\":{{\"Default\":\"{template}\",\"Next\":\"keep-me\"}},\"Logging\":{{}}}}"
        ));
        all.push(framed(&format!("info: Connecting with connection string '{template}' (attempt 1 of 3)")));
    }
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    assert_none(check_text(&refs));
}

#[test]
fn configuration_files_keep_the_next_key_line_and_section() {
    let templates = [
        // appsettings.json, pretty and compact.
        "{\n  \"Smtp\": {\n    \"Host\": \"smtp.{host}\",\n    \"Password\": \"«pw»\",\n    \"Port\": 587\n  },\n  \"AllowedHosts\": \"*\"\n}",
        "{\"Jwt\":{\"Issuer\":\"https://{host}\",\"Key\":\"«opaque»\",\"Audience\":\"api\"},\"Next\":1}",
        "{\"Stripe\":{\"SecretKey\":\"«stripe»\",\"PublishableKey\":\"pk_live_51HxYz\"}}",
        "{\n  \"GitHub\": { \"Token\": \"«ghp»\", \"Owner\": \"{user}\" },\n  \"Next\": \"value\"\n}",
        "  \"ApiKey\": \"«opaque»\",\n  \"BaseUrl\": \"https://api.{host}/v2/\",",
        // YAML.
        "database:\n  host: {host}\n  password: «pw»\n  port: {port}\nlogging:\n  level: info",
        "env:\n  - name: DB_PASSWORD\n    value: \"«pw»\"\n  - name: ASPNETCORE_ENVIRONMENT\n    value: Production",
        "stringData:\n  api-key: «opaque»\n  region: westeurope",
        // INI and .env.
        "[database]\nhost = {host}\npassword = «pw»\nname = {db}\n\n[smtp]\nuser = {user}",
        "DB_HOST={host}\nDB_PASSWORD=«pw»\nDB_NAME={db}",
        "SENDGRID_API_KEY=«sendgrid»\nSENDGRID_FROM=noreply@contoso.com",
        "export AWS_SECRET_ACCESS_KEY=«aws_secret»\nexport AWS_REGION=eu-west-1",
        "GITHUB_TOKEN=«ghp» # set by CI\nNEXT_VAR=1",
        "# .env\nDB_PASSWORD=\"«pw»\"\nDB_USER={user}\nLOG_DIR=/var/log/app",
        // XML: NuGet.Config, MSBuild, App.config.
        "<packageSourceCredentials>\n  <feed>\n    <add key=\"Username\" value=\"{user}\" />\n    <add key=\"ClearTextPassword\" value=\"«pw»\" />\n  </feed>\n</packageSourceCredentials>",
        "<PropertyGroup>\n  <DeployPassword>«pw»</DeployPassword>\n  <DeployUser>{user}</DeployUser>\n</PropertyGroup>",
        "<add name=\"Default\" connectionString=\"Server={host};Database={db};User Id={user};Password=«pw»;\" providerName=\"System.Data.SqlClient\" />",
        "<add key=\"ApiKey\" value=\"«opaque»\" /><add key=\"Region\" value=\"eu\" />",
        // Containers, CI and shells.
        "services:\n  db:\n    environment:\n      - POSTGRES_USER={user}\n      - POSTGRES_PASSWORD=«pw»\n      - POSTGRES_DB={db}\n    ports:\n      - \"{port}:{port}\"",
        "ENV ASPNETCORE_URLS=http://+:8080\nENV Stripe__SecretKey=«stripe»\nWORKDIR /app",
        "env:\n  NUGET_AUTH_TOKEN: «ghp»\n  DOTNET_NOLOGO: true\nsteps:\n  - run: dotnet restore",
        "$env:OPENAI_API_KEY = \"«opaque»\"\n$env:ASPNETCORE_ENVIRONMENT = \"Development\"",
        "setx SENDGRID_API_KEY «sendgrid»\nSUCCESS: Specified value was saved.",
        "data:\n  password: «account_key»\n  username: YWRtaW4=\nkind: Secret",
        "Password='«pw»';Server={host};Database={db}",
        "Server={host};Database={db};User Id={user};Password=\"«pw»\";Encrypt=False",
    ];
    assert_none(check_text(&templates));
}

#[test]
fn logs_headers_and_urls_keep_the_rest_of_the_line() {
    let templates = [
        // HTTP headers.
        "Authorization: Bearer «jwt»\nContent-Type: application/json",
        "GET /api/orders HTTP/1.1\nHost: {host}\nAuthorization: Bearer «opaque»\nAccept: */*",
        "X-Api-Key: «opaque»\nUser-Agent: dotnet/10.0",
        "Ocp-Apim-Subscription-Key: «hex32»\nAccept: application/json",
        "curl -H \"Authorization: Bearer «ghp»\" https://api.github.com/user",
        // URLs with credentials and query tokens.
        "Cloning https://{user}:«ghp»@github.com/contoso/app.git into /src/app",
        "GET https://{account}.blob.core.windows.net/data/report.csv?sv=2022-11-02&se=2026-12-31T00%3A00%3A00Z&sr=b&sp=r&sig=«sig» 200",
        "https://api.example.com/v1/items?api_key=«hex32»&page=2",
        "fetch https://hooks.example.com/notify?token=«opaque»&channel=builds failed",
        // Log lines with a secret in the middle.
        "warn: Worker[0] Retrying with token «opaque» after 3 failures (attempt 2)",
        "info: Startup[0] Using API key «google» for region eu-west-1",
        "2026-11-29 08:00:01 [INF] Login for {user} with password «pw» succeeded from 10.1.2.3",
        "dbug: Client[0] Sending request with Authorization: Bearer «jwt» to https://{host}/api",
        "Slack token: «slack» (workspace contoso)",
        // Paths and placeholders beside a secret.
        "Read token «opaque» from /home/dev/.config/contoso/credentials.json",
        "ApiKey=«hex32» ; see %APPDATA%\\Contoso\\settings.ini and ${HOME}/.contoso",
        "password=«pw» user=${DB_USER} host={host}",
        "NuGet push with key «nuget» to https://api.nuget.org/v3/index.json",
        // ASP.NET Core and EF Core logs.
        "info: Microsoft.EntityFrameworkCore.Database.Command[20101]\n      Executed DbCommand (3ms) [Parameters=[@__password_0='«pw»' (Size = 4000), @__email_1='{user}' (Size = 4000)], CommandType='Text', CommandTimeout='30']\n      SELECT TOP(1) [u].[Id] FROM [Users] AS [u]",
        "fail: Microsoft.EntityFrameworkCore.Database.Connection[20004]\n      An error occurred using the connection to database '{db}' on server '{host}'.",
        "info: System.Net.Http.HttpClient.Default.ClientHandler[102]\n      Request Headers:\n      Authorization: Bearer «opaque»\n      User-Agent: App/1.0",
        "dotnet ef database update --connection \"Server={host};Database={db};User Id={user};Password=«pw»;TrustServerCertificate=True\" --project src/Data",
        "az webapp config connection-string set -g rg -n {word} -t SQLAzure --settings Default=\"Server={host};Database={db};Password=«pw»;\"",
        "info: Microsoft.EntityFrameworkCore.Database.Command[20101]\n      Executed DbCommand (1ms) [Parameters=[@__apiKey_0='«opaque»' (Size = 64), @__tenant_1='{word}' (Size = 4000)], CommandType='Text', CommandTimeout='30']\n      SELECT [k].[Id] FROM [ApiKeys] AS [k] WHERE [k].[Key] = @__apiKey_0",
        "info: Microsoft.Hosting.Lifetime[14]\n      Now listening on: https://localhost:7001\ninfo: Configuration[0] Smtp:Password = «pw»\ninfo: Microsoft.Hosting.Lifetime[0]\n      Application started.",
    ];
    assert_none(check_text(&templates));
}

/// Command lines: checked as text (a shell history, a CI log) and as an argument vector.
#[test]
fn command_lines_keep_the_next_option_and_the_positionals() {
    let templates: &[&[&str]] = &[
        &[
            "dotnet",
            "nuget",
            "push",
            "bin/Release/App.1.0.0.nupkg",
            "--api-key",
            "«nuget»",
            "--source",
            "https://api.nuget.org/v3/index.json",
        ],
        &["dotnet", "nuget", "push", "App.1.0.0.nupkg", "-k", "«nuget»", "-s", "https://api.nuget.org/v3/index.json"],
        &[
            "dotnet",
            "nuget",
            "add",
            "source",
            "https://pkgs.dev.azure.com/contoso/_packaging/feed/nuget/v3/index.json",
            "--name",
            "contoso",
            "--username",
            "{user}",
            "--password",
            "«pw»",
            "--store-password-in-clear-text",
        ],
        &["dotnet", "dev-certs", "https", "-ep", "/tmp/cert.pfx", "-p", "«pw»", "--trust"],
        &["docker", "login", "contoso.azurecr.io", "-u", "{user}", "-p", "«pw»"],
        &[
            "az",
            "storage",
            "blob",
            "upload",
            "--account-name",
            "{account}",
            "--account-key",
            "«account_key»",
            "--container-name",
            "data",
            "--file",
            "report.csv",
        ],
        &["sqlcmd", "-S", "{host}", "-U", "{user}", "-P", "«pw»", "-d", "{db}", "-Q", "SELECT 1"],
        &["dotnet", "run", "--", "--password", "«pw»", "--next", "value"],
        &["dotnet", "user-secrets", "set", "Smtp:Password", "«pw»", "--project", "src/Api"],
        &["dotnet", "user-secrets", "set", "Stripe:SecretKey", "«stripe»"],
        &["gh", "auth", "login", "--with-token", "«ghp»"],
    ];
    let mut failures = Vec::new();
    for (t, template) in templates.iter().enumerate() {
        for round in 0..ROUNDS {
            let mut rng = Rng(0xc11_0000 + (t as u64) * 1000 + round);
            let mut secrets = Vec::new();
            let args: Vec<String> = template
                .iter()
                .map(|arg| {
                    let (arg, mut placed) = render(&mut rng, arg, secret);
                    secrets.append(&mut placed);
                    arg
                })
                .collect();
            let want: Vec<String> = args.iter().map(|arg| expected(arg, &secrets)).collect();
            let got: Vec<String> =
                redact_args(&args).iter().map(|arg| without_vendor_prefixes(arg, &secrets)).collect();
            if got != want {
                failures.push(format!(
                    "redact_args of command {t} round {round}:\n  in:   {args:?}\n  want: {want:?}\n  got:  {got:?}"
                ));
            }
            let line = args.join(" ");
            let want_line = expected(&line, &secrets);
            let text = framed(&format!("$ {line}"));
            let want_text = framed(&format!("$ {want_line}"));
            for (path, got) in [("redact", redact(&text).into_owned()), ("lines", by_lines(&text))] {
                if without_vendor_prefixes(&got, &secrets) != want_text {
                    failures.push(format!(
                        "{path} of command {t} round {round}:\n  in:   {text}\n  want: {want_text}\n  got:  {got}"
                    ));
                }
            }
        }
    }
    assert_none(failures);
}

/// `dotnet user-secrets set KEY VALUE`: its argument vector and the message it prints agree, and
/// a connection string keeps its non-secret parts in both.
#[test]
fn user_secrets_set_keeps_a_connection_strings_non_secret_parts_in_argv_and_message() {
    for round in 0..ROUNDS {
        let mut rng = Rng(0x5ec_0000 + round);
        let (value, secrets) = render(
            &mut rng,
            "Server={host};Database={db};User Id={user};Password=«pw»;TrustServerCertificate=True",
            secret,
        );
        let shown = expected(&value, &secrets);
        let args = ["user-secrets", "set", "ConnectionStrings:Default", value.as_str(), "--project", "src/Api"];
        assert_eq!(
            redact_args(&args),
            ["user-secrets", "set", "ConnectionStrings:Default", shown.as_str(), "--project", "src/Api"],
            "the argument vector of round {round}"
        );
        let message = format!("Successfully saved ConnectionStrings:Default = {value} to the secret store.");
        assert_eq!(
            redact(&message),
            format!("Successfully saved ConnectionStrings:Default = {shown} to the secret store."),
            "the saved message of round {round}"
        );
    }
}

/// JSON documents as structured content (a tool's `structuredContent`, what `az ... -o json` and
/// appsettings hold): each secret inside a string value is replaced, every other string, number,
/// boolean, key and the document's shape survive, and the result is still JSON.
#[test]
fn json_documents_keep_every_other_value_and_stay_valid() {
    let templates = [
        // appsettings.json: a connection string, a section with a password, settings beside them.
        r#"{"ConnectionStrings": {"Default": "Server={host};Database={db};User Id={user};Password=«pw»;TrustServerCertificate=True", "Reporting": "Server={host};Database={db};Integrated Security=true"}, "Smtp": {"Host": "{host}", "Port": 587, "User": "{user}", "Password": "«pw»", "EnableSsl": true}, "Logging": {"LogLevel": {"Default": "Information"}}}"#,
        r#"{"Stripe": {"SecretKey": "«stripe»", "WebhookPath": "/webhooks/stripe"}, "GitHub": {"Token": "«ghp»", "Owner": "{user}"}, "Storage": "DefaultEndpointsProtocol=https;AccountName={account};AccountKey=«account_key»;EndpointSuffix=core.windows.net"}"#,
        // `az webapp config appsettings list` and `az keyvault secret show`.
        r#"[{"name": "Smtp__Password", "slotSetting": false, "value": "«pw»"}, {"name": "ASPNETCORE_ENVIRONMENT", "slotSetting": false, "value": "Production"}, {"name": "Db__Host", "slotSetting": true, "value": "{host}"}]"#,
        r#"{"attributes": {"enabled": true, "recoveryLevel": "Recoverable+Purgeable"}, "contentType": null, "id": "https://{account}.vault.azure.net/secrets/db-password/{guid}", "name": "db-password", "value": "«pw»"}"#,
        // Secrets inside free text of a string, and in records of an array.
        r#"{"level": "Information", "message": "Connecting with connection string 'Host={host};Database={db};Username={user};Password=«pw»' (attempt 1 of 3)", "eventId": 20000}"#,
        r#"{"clients": [{"clientId": "{user}", "clientSecret": "«opaque»", "redirectUris": ["https://{host}/signin-oidc"]}, {"clientId": "{word}", "clientSecret": "«opaque»", "redirectUris": []}]}"#,
        r#"{"request": {"url": "https://{host}/api/{db}?page=2", "headers": {"X-Session": "«jwt»", "Accept": "application/json"}}, "aws": {"secretAccessKey": "«aws_secret»", "region": "eu-west-1"}}"#,
    ];
    let mut failures = Vec::new();
    for (t, template) in templates.iter().enumerate() {
        for round in 0..ROUNDS {
            let mut rng = Rng(0x150_0000 + (t as u64) * 1000 + round);
            let (text, secrets) = render(&mut rng, template, secret);
            let mut value: Value = serde_json::from_str(&text).expect("the template renders to JSON");
            redact_json(&mut value);
            let got = without_vendor_prefixes(&value.to_string(), &secrets);
            let want: Value = serde_json::from_str(&expected(&text, &secrets)).expect("the expected text is JSON");
            // What a client receives, read back: still JSON, and equal to the expected document.
            if serde_json::from_str::<Value>(&got).ok().as_ref() != Some(&want) {
                failures.push(format!(
                    "json of template {t} round {round}:\n  in:   {text}\n  want: {want}\n  got:  {got}"
                ));
            }
        }
    }
    assert_none(failures);
}
