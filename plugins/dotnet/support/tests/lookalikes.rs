//! Over-redaction (issue 24): clean text that looks like a secret must survive redaction
//! unchanged. Generated look-alikes (random values of each public format's alphabet and length,
//! from a fixed seed) are placed where a .NET developer meets them daily: hashes and digests,
//! GUIDs and trace ids, certificate thumbprints, ETags, subresource integrity, public keys and
//! certificates, client ids and publishable keys, connection strings without credentials,
//! placeholders and masked values, names of secrets without their values, help text, test names
//! and paths with secret words. Each is checked on the whole-text path ([`redact`]) and line by
//! line ([`LineRedactor`]), and as an argument vector ([`redact_args`]) where it is a command line.

mod common;

use common::{BASE64, HEX, Rng, render};
use dotnet_support::redact::{LineRedactor, redact, redact_args};

/// A look-alike of the public format `kind`.
fn lookalike(rng: &mut Rng, kind: &str) -> String {
    match kind {
        "sha1" => rng.chars(HEX, 40),
        "sha256" => rng.chars(HEX, 64),
        "sha512_b64" => format!("{}==", rng.chars(BASE64, 86)),
        "thumbprint" => rng.chars("0123456789ABCDEF", 40),
        "guid" => rng.guid(),
        "trace" => rng.chars(HEX, 32),
        "span" => rng.chars(HEX, 16),
        "commit" => rng.chars(HEX, 7),
        "pkt" => rng.chars(HEX, 16),
        other => panic!("no generator for look-alike kind {other}"),
    }
}

fn by_lines(text: &str) -> String {
    let mut redactor = LineRedactor::new();
    text.split('\n').filter_map(|line| redactor.line(line).map(|line| line.into_owned())).collect::<Vec<_>>().join("\n")
}

const ROUNDS: u64 = 24;

/// Every template rendered [`ROUNDS`] times on both text paths; the failures, one per case.
fn changed(templates: &[&str]) -> Vec<String> {
    let mut failures = Vec::new();
    for (t, template) in templates.iter().enumerate() {
        let mut failed = 0;
        let mut first = None;
        for round in 0..ROUNDS {
            let mut rng = Rng(0xc1ea_0000 + (t as u64) * 1000 + round);
            let (text, _) = render(&mut rng, template, lookalike);
            for (path, got) in [("redact", redact(&text).into_owned()), ("lines", by_lines(&text))] {
                if got != text {
                    failed += 1;
                    first.get_or_insert_with(|| format!("{path} of template {t}:\n  in:  {text}\n  got: {got}"));
                }
            }
        }
        if let Some(first) = first {
            failures.push(format!("{first}\n  ({failed} of {} runs)", ROUNDS * 2));
        }
    }
    failures
}

fn assert_unchanged(templates: &[&str]) {
    let failures = changed(templates);
    assert!(failures.is_empty(), "{} over-redacted cases:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn hashes_ids_and_digests_survive() {
    assert_unchanged(&[
        "commit «sha1»",
        "HEAD is now at «commit» Merge pull request #42 from contoso/feature/token-refresh",
        "  \"sha512\": \"«sha512_b64»\",",
        "  \"contentHash\": \"«sha512_b64»\",",
        "integrity=\"sha384-«sha512_b64»\" crossorigin=\"anonymous\"",
        "  \"integrity\": \"sha512-«sha512_b64»\",",
        "Digest: sha256:«sha256»",
        "FROM mcr.microsoft.com/dotnet/aspnet:10.0@sha256:«sha256»",
        "Status: Downloaded newer image for mcr.microsoft.com/dotnet/sdk@sha256:«sha256»",
        "ETag: \"0x8DC«commit»«span»\"",
        "ETag: W/\"«trace»\"",
        "traceparent: 00-«trace»-«span»-01",
        "info: Request starting HTTP/1.1 GET http://localhost:5000/ - - - TraceId=«trace» SpanId=«span»",
        "RequestId: «guid»",
        "x-ms-request-id: «guid»",
        "Thumbprint: «thumbprint»",
        "CertificateThumbprint=«thumbprint»",
        "  Certificate thumbprint: «thumbprint»",
        "A valid HTTPS certificate with thumbprint «thumbprint» is already present.",
        "Project '«guid»' is up to date.",
        "<ProjectGuid>{«guid»}</ProjectGuid>",
        "<UserSecretsId>«guid»</UserSecretsId>",
        "Microsoft.Extensions.Logging, Version=10.0.0.0, Culture=neutral, PublicKeyToken=«pkt»",
        "\"ClientId\": \"«guid»\",",
        "\"TenantId\": \"«guid»\",",
        "AZURE_CLIENT_ID=«guid»",
        "\"InstrumentationKey\": \"«guid»\"",
        "Build FAILED. Build id «guid», cache key Linux-nuget-«sha256»",
        "Restored /src/App/App.csproj (in 312 ms). Hash: «sha512_b64»",
        "  Certificate fingerprint(s):\n    SHA256 hash: «sha256»",
        "A valid certificate was found: «thumbprint» - CN=localhost - Valid from 2026-11-01 to 2027-11-01 - IsHttpsDevelopmentCertificate: true",
        "Secret identifier: https://contoso-kv.vault.azure.net/secrets/DbPassword/«trace»",
        "\"keyId\": \"«guid»\",",
        "X-Correlation-Id: «guid»",
        "MSBuildRestoreSessionId = «guid»",
        "  \"resetToken\": null,\n  \"tokenLifetime\": \"00:05:00\",",
        "options.TokenValidationParameters.ValidateIssuerSigningKey = true;",
    ]);
}

#[test]
fn public_keys_certificates_and_publishable_keys_survive() {
    assert_unchanged(&[
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE«sha1»\n-----END CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA«sha1»\n-----END PUBLIC KEY-----",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI«sha1» dev@contoso",
        "\"PublishableKey\": \"pk_live_«trace»\"",
        "STRIPE_PUBLISHABLE_KEY=pk_test_«trace»",
        "Public key token: «pkt»",
        "SigningCertificate: CN=Contoso Code Signing, Thumbprint=«thumbprint»",
    ]);
}

#[test]
fn connection_strings_without_credentials_survive() {
    assert_unchanged(&[
        "Server=(localdb)\\mssqllocaldb;Database={db};Trusted_Connection=True;MultipleActiveResultSets=true",
        "Server={host};Database={db};Integrated Security=SSPI;TrustServerCertificate=True",
        "Host={host};Port={port};Database={db};Username={user}",
        "Data Source=app.db",
        "Data Source=:memory:",
        "mongodb://{host}:{port}/{db}",
        "{host}:{port},abortConnect=false",
        "UseDevelopmentStorage=true",
        "Server=tcp:{host}.database.windows.net,1433;Database={db};Authentication=Active Directory Default;",
        "Endpoint=sb://{host}/;Authentication=ManagedIdentity",
        "ConnectionStrings__Default=Host={host};Database={db};Username={user}",
        "  \"DefaultConnection\": \"Server={host};Database={db};Trusted_Connection=True\"",
        "InstrumentationKey=«guid»;IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/",
    ]);
}

#[test]
fn placeholders_masks_and_names_without_values_survive() {
    assert_unchanged(&[
        "password: ${{ secrets.DB_PASSWORD }}",
        "NUGET_API_KEY: ${{ secrets.NUGET_API_KEY }}",
        "dotnet nuget push *.nupkg --api-key $NUGET_API_KEY --source https://api.nuget.org/v3/index.json",
        "dotnet nuget push *.nupkg --api-key ${NUGET_API_KEY} --source nuget.org",
        "--password $(cat /run/secrets/db)",
        "ConnectionStrings__Default: Server=db;Password=%DB_PASSWORD%",
        "\"ApiKey\": \"<your-api-key>\",",
        "\"ApiKey\": \"YOUR_API_KEY_HERE\",",
        "Password=********",
        "Password: ***",
        "\"Password\": \"\",",
        "Password=",
        "token: env:GITHUB_TOKEN",
        "Smtp__Password",
        "The secret 'Smtp:Password' was not found.",
        "Successfully removed 'Smtp:Password' from the secret store.",
        "No secrets configured for this application.",
        "SecretKey is required.",
        "Set the ApiKey option in appsettings.json.",
    ]);
}

#[test]
fn help_text_test_names_and_paths_with_secret_words_survive() {
    assert_unchanged(&[
        "  user-secrets      Manage development user secrets.",
        "  user-jwts         Manage JSON Web Tokens in development.",
        "  -p, --password <password>  Password to use when exporting the certificate with the private key into a pfx file or to encrypt the Pem exported key.",
        "  -k, --api-key <api-key>    The API key for the server.",
        "  --store-password-in-clear-text  Enables storing portable package source credentials by disabling password encryption.",
        "  set     Sets the user secret to the specified value.",
        "  Passed App.Tests.AuthTests.Login_with_wrong_password_fails [12 ms]",
        "  Failed App.Tests.TokenTests.Refresh_token_expires(lifetime: 00:05:00) [3 ms]",
        "/home/dev/src/App/Secrets/TokenService.cs(42,13): warning CS0168: The variable 'ex' is declared but never used [/home/dev/src/App/App.csproj]",
        "  App -> /home/dev/src/PasswordManager/bin/Debug/net10.0/PasswordManager.dll",
        "Copying file from \"obj/Debug/net10.0/ApiKeyAuth.dll\" to \"bin/Debug/net10.0/ApiKeyAuth.dll\".",
        "Property reassignment: $(GenerateUserSecretsAttribute)=\"true\" (previous value: \"\")",
        "  UserSecretsId = «guid»",
        "TargetFramework = net10.0",
    ]);
}

/// Command lines that name secrets but carry none.
#[test]
fn command_lines_without_secrets_survive_as_argument_vectors() {
    for args in [
        &["user-secrets", "list", "--project", "src/Api"][..],
        &["user-secrets", "remove", "Smtp:Password"],
        &["user-secrets", "init", "--id", "0b2f6a3c-6a7e-4f55-9b1a-2c0de0d6f7a1"],
        &["nuget", "push", "bin/App.1.0.0.nupkg", "--source", "https://api.nuget.org/v3/index.json"],
        &["test", "--filter", "FullyQualifiedName~PasswordHasher"],
        &["build", "-p:SignAssembly=true", "-p:AssemblyOriginatorKeyFile=key.snk"],
        &["dev-certs", "https", "--check", "--trust"],
    ] {
        assert_eq!(redact_args(args), args, "the argument vector {args:?}");
    }
}
