//! Stand-ins: values that only stand in for a secret (empty, masked, references, placeholders,
//! paths), which stay visible under any label, and the masking of a value that keeps its quotes.

use std::sync::LazyLock;

use regex::Regex;

use super::{
    REDACTED,
    patterns::{sasl_credential_mechanisms, source_call},
    tokens::{PREFIXED_TOKEN, VENDOR_WHOLE, vendor_secret},
};

/// Every SASL mechanism a server lists: those whose `AUTH` carries the credential, and the rest.
macro_rules! sasl_mechanism {
    () => {
        concat!(sasl_credential_mechanisms!(), r"|DIGEST-MD5|NTLM|GSSAPI|SCRAM-SHA-(?:1|256)(?:-PLUS)?")
    };
}

/// A version (`v2.3.1`, `2.3.1`, `10.0.401`, `10.0.100-rc.2.25502.107`, `1.2.3+build.5`), what a
/// tool, an SDK or a package prints after a login line or under a label: never a secret value.
/// Three or four numbers, or two after a `v`; a pre-release only of the usual names, so a secret
/// cannot pass for one's label. One pattern for [`STAND_IN`] and [`is_version`].
macro_rules! version {
    () => {
        r"v?[0-9]{1,5}(?:\.[0-9]{1,9}){2,3}(?:-(?i:alpha|beta|preview|rc|pre|dev|nightly|canary)(?:[.-]?[0-9A-Za-z]+)*)?(?:\+[0-9A-Za-z.-]+)?|v[0-9]{1,5}\.[0-9]{1,9}"
    };
}

/// Whether `value` is a version (see [`version`]): a word that reads as a password or a generated
/// token by its letters and digits (`v2.3.1`, `10.0.100-preview.7.25380.108`) but is none.
pub(super) fn is_version(value: &str) -> bool {
    static VERSION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(concat!("^(?:", version!(), ")$")).expect("version pattern is valid"));
    VERSION.is_match(value)
}

/// Values that stand in for a secret without holding one, so they stay visible under any label:
/// empty, already masked (`***`, `*` by .NET's HTTP logging, `xxxx`, Terraform's
/// `(sensitive value)`, `[FILTERED]` by Rails, `[REDACTED]`), nothing (`None`, `null`, `nil`), a
/// reference to where the secret lives (`${DB_PASSWORD}`, `${KEY:?message}`, `${{ secrets.X }}`,
/// `$(DbPassword)`, `$(cat /run/secrets/db)`, `%DB_PASSWORD%`, `$env:DB_PASSWORD`, `env:VAR` /
/// `file:PATH` / `fd:N` / `stdin` as openssl takes them, `@Microsoft.KeyVault(...)`), a
/// placeholder (`<your-api-key>`, `YOUR_API_KEY_HERE`, `your-api-key`, `REPLACE_ME`). A
/// `${VAR:-default}` is not one: its default can be a secret.
static STAND_IN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:\**|(?i:x{3,})|\.{3}|\((?i:sensitive(?: value)?|not set|unset|empty|none|null|hidden|redacted|masked|secret)\)",
        r"|(?i:\[(?:filtered|redacted|hidden|masked|secret|sensitive|removed|protected)\]|<(?:hidden|redacted|masked|secret)>)",
        // Already masked, with a few characters shown (`sk-...redacted`, `ghp_****`, `AKIA…WXYZ`,
        // SendGrid's `SG.***`). An ellipsis with nothing after it may instead end a value a table
        // cut at its column's width (PowerShell's `Get-ChildItem env:`: `Password=L0hWFt-Xaj…`),
        // which shows the secret's start: a mask only after four characters, or a vendor's prefix
        // and up to four (`npm token list`'s `npm_7K…`).
        r"|[A-Za-z0-9_-]{0,12}\.?(?:(?:\.{3}|…|\*{3,})(?:[A-Za-z0-9_-]{1,8}|(?i:redacted|masked|hidden))|\*{3,})",
        r"|(?:[A-Za-z0-9]{0,4}|[A-Za-z0-9_-]{0,11}[_-]|[a-z]{2,8}(?:[_-][a-z]{2,8})*[_-][A-Za-z0-9]{1,4})\.?(?:\.{3}|…)",
        r"|None|null|nil|NULL|undefined|true|false|True|False|TRUE|FALSE|yes|no|Yes|No|YES|NO",
        // C#'s `new` before the object a setting gets (`Authorization = new
        // AuthenticationHeaderValue(...)`): its arguments are judged on their own.
        r"|new",
        // A time or age, as listings show it in a secret's row (`gh secret list`: `about 3 days ago`).
        r"|(?:about |almost |over |less than )?(?:a|an|[0-9]+) (?:second|minute|hour|day|week|month|year)s? ago",
        // Microsoft.IdentityModel's placeholder for a value it hides (`[PII of type '...' is hidden...]`,
        // a token's `[Security Artifact of type '...' is hidden...]`).
        r"|\[(?:PII|Security Artifact) of type '[^'\r\n]*' is hidden[^\]\r\n]*\]",
        // References to a secret in a secret manager, resolved when the app runs: 1Password's
        // `op://vault/item/field`, vals' `ref+vault://...` / `ref+azurekeyvault://...`, and the
        // same scheme for other stores (`akv://`, `gsm://`, `awssm://`); the token placeholders of
        // release pipelines' replace-tokens steps (`__StripeSecretKey__`, `#{SqlPassword}#`).
        r"|(?:op|ref\+[a-z0-9]+|akv|azurekeyvault|keyvault|gsm|gcpsm|awssm|awsssm|secretsmanager|bws)://\S+",
        r"|__[A-Za-z][A-Za-z0-9_.]*__|#\{[^{}]*\}#",
        // A token's prefix before a placeholder in capitals (`sk-proj-PLACEHOLDER`,
        // `sk_live_YOUR_KEY`): a generated token mixes cases and digits.
        r"|[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*[_-][A-Z][A-Z_]{3,}",
        // A value that is itself a secret's word names a field, it does not hold one (an
        // ExternalSecret's `secretKey: password`, a `secretKeyRef`'s `key: password`), also a
        // kind of token (`TokenValidated: id_token validated ...` of an OpenID Connect handler).
        r"|(?i:password|passwd|secret|(?:(?:id|access|refresh|bearer|session|auth|api|csrf|xsrf)[-_]?)?token|api[-_]?key|secret[-_]?key|access[-_]?key|client[-_]?secret|credentials?|private[-_]?key|connection[-_]?string)",
        // Another tool's mask between stars or dashes (`***REDACTED***`, Duende's raw request log,
        // azcopy's `sig=-REDACTED-`).
        r"|[*_-]+(?i:redacted|masked|hidden|filtered)[*_-]+",
        // A call in source code that computes the value (a traceback's line): see [`source_call`].
        "|",
        source_call!(),
        // A SQL parameter that holds the value elsewhere (`[PasswordHash] = @p1`, EF Core's `@__password_0`).
        r"|@p[0-9]+|@__[A-Za-z_][A-Za-z0-9_]*_[0-9]+",
        // A SealedSecret's ciphertext (`AgB...`, hundreds of base64 characters) and a Terraform
        // or Bicep reference (`var.db_password`, `local.x`, `module.db.password`).
        r"|Ag[A-Za-z0-9+/]{300,}={0,2}|(?:var|local|module|data)\.[A-Za-z_][A-Za-z0-9_.-]*",
        // Shell and CI variables, TeamCity parameters and credential references.
        r"|\$[A-Z_][A-Z0-9_]*|%[^%\s]+%|credentialsJSON:[0-9a-fA-F-]+",
        r"|\$\{[A-Za-z_][A-Za-z0-9_]*(?::?\?[^}]*)?\}|\$\{\{[^}]*\}\}|\$\([^)]*\)|%[A-Za-z_][A-Za-z0-9_]*%",
        r"|\$?(?i:env):[A-Za-z_][A-Za-z0-9_]*|(?:file|fd):\S+|stdin|@Microsoft\.KeyVault\([^)]*\)|<[^<>]+>",
        r"|(?:[A-Za-z0-9]+_)*(?:YOUR|INSERT|REPLACE|ENTER|PUT)_[A-Z0-9_]+|[A-Za-z0-9_]*_HERE|(?i:replace_?me|change_?me)|CHANGE_?ME_?[A-Z0-9_]*",
        r"|(?:your|insert|replace|enter)-[a-z0-9-]+|[a-z0-9-]+-here",
        // Template references: Jinja and Helm (`{{ vault_db_password }}`), Octopus
        // (`#{Sql.Password}`), Aspire manifests (`{pwd.value}`); SOPS ciphertext (`ENC[AES256_GCM,...]`)
        // and a value another tool already replaced (`REDACTED`, `(protected)`).
        r"|\{\{[^{}]*\}\}|#\{[^{}]*\}|\{[A-Za-z0-9_.-]+\}|ENC\[[^\]]*\]|REDACTED|\((?i:protected)\)",
        // Batch 11: Cirrus CI's ciphertext (`ENCRYPTED[...]`), Maven's encrypted password between
        // braces (`{base64}` of `mvn --encrypt-password`), VS Code's input and environment
        // references (`${input:github-pat}`, `${env:TOKEN}` in `mcp.json`).
        r"|ENCRYPTED\[[^\]]*\]|\{[A-Za-z0-9+/]{24,}={0,2}\}|\$\{(?:input|env|config|command):[^}\s]+\}",
        // Tencent Cloud's SecretId (`AKID` and 32 letters and digits, `tccli configure list`): the
        // id that goes with a secret key, sent in the clear with every signed request.
        r"|AKID[A-Za-z0-9]{32}",
        // Batch 14: a Cosmos DB continuation token (`"token":"+RID:~...#RT:2#TRC:200#ISV:2"` in a
        // query's continuation, logged to page on): a resource id and the query's progress, no key.
        r"|[+-]RID:~?[A-Za-z0-9+/=]+#RT:[0-9]+(?:#[A-Z]{2,4}:[A-Za-z0-9+/=.~-]*)*",
        "|",
        version!(),
        // A certificate or public key in base64 (a kubeconfig's `certificate-authority-data` and
        // `client-certificate-data`, a Kubernetes TLS secret's `tls.crt`): what it encodes starts
        // `-----BEGIN CERTIFICATE-----`, `-----BEGIN PUBLIC KEY-----` or `-----BEGIN RSA PUBLIC KEY-----`.
        r"|LS0tLS1CRUdJTiB(?:DRVJUSUZJQ0FURS0tLS0t|QVUJMSUMgS0VZLS0tLS0|SU0EgUFVCTElDIEtFWS0tLS0t)[A-Za-z0-9+/]*={0,2}",
        // Batch 12: a command substitution cut at its first blank (`Bearer $(gcloud auth
        // print-access-token)`); a placeholder in brackets (`[Enter the client secret here]`) and
        // a help text's `[options]`; SMTP's list of SASL mechanisms (`250-AUTH LOGIN XOAUTH2`); a
        // value read by an indexer (`builder.Configuration["SendGrid:ApiKey"]`), cut at its `[`,
        // or by a call (`Configuration.GetRequiredValue("Stripe:SecretKey")`, batch 13), cut at its `(`.
        r"|\$\([A-Za-z_][A-Za-z0-9_./-]*",
        r"|\[(?i:(?:enter|insert|paste|put|add|your|replace)[ \t][^\]\r\n]*|[^\]\r\n]*[ \t]here)\]|\[[a-z][a-z -]*\]",
        r"|(?:",
        sasl_mechanism!(),
        r")(?:[ \t]+(?:",
        sasl_mechanism!(),
        r"))*",
        r"|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+[\[(]",
        // A YAML block scalar's indicator: the value is on the lines that follow.
        r"|[|>][+-]?[0-9]?",
        // EF Core's `'?'` for a parameter it does not log; a .NET type's name printed for an
        // object (PowerShell's `SecurePassword : System.Security.SecureString`).
        r"|\?|System(?:\.[A-Z][A-Za-z0-9]*)+)$",
    ))
    .expect("stand-in pattern is valid")
});

/// `value` without what wraps it, and that wrapping: quotes (also JSON-escaped `\"...\"` inside
/// a JSON string), ODBC braces, Rust's `Some(...)` and `Ok(...)` around either, openssl's `pass:`.
pub(super) fn unwrap(value: &str) -> (&str, &str, &str) {
    // A call around a quoted value: Rust's `Some("...")`, Python's `SecretStr('...')`.
    let call = value.find("(\"").or_else(|| value.find("('")).filter(|at| {
        *at > 0 && value[..*at].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && value.ends_with(')')
    });
    let wrappers = [("\\\"", "\\\""), ("\\u0022", "\\u0022"), ("&quot;", "&quot;")];
    let open_call = call.map(|at| &value[..=at]);
    for (open, close) in open_call.map(|open| (open, ")")).into_iter().chain(wrappers) {
        if value.len() >= open.len() + close.len()
            && let Some(inner) = value.strip_prefix(open).and_then(|rest| rest.strip_suffix(close))
        {
            let (more_open, inner, more_close) = unwrap(inner);
            let at = open.len() + more_open.len();
            return (&value[..at], inner, &value[value.len() - close.len() - more_close.len()..]);
        }
    }
    // Quotes escaped again for each level of JSON inside JSON (`\\\"...\\\"`).
    let slashes = value.bytes().take_while(|b| *b == b'\\').count();
    if slashes >= 2 && value.as_bytes().get(slashes) == Some(&b'"') {
        let quote = &value[..=slashes];
        if value.len() >= 2 * quote.len() && value.ends_with(quote) {
            return (quote, &value[quote.len()..value.len() - quote.len()], quote);
        }
    }
    if let Some(inner) = value.strip_prefix("pass:") {
        return (&value[..5], inner, "");
    }
    // A SQL Server Unicode literal (`N'...'`), its quotes doubled inside dynamic SQL (`N''...''`).
    for (open, close) in [("N''", "''"), ("''", "''"), ("N'", "'")] {
        if value.len() > open.len() + close.len() && value.starts_with(open) && value.ends_with(close) {
            return (
                &value[..open.len()],
                &value[open.len()..value.len() - close.len()],
                &value[value.len() - close.len()..],
            );
        }
    }
    let bytes = value.as_bytes();
    // A Python bytes literal: `b` and its quotes; a C# verbatim or interpolated string (`@"..."`).
    if bytes.len() >= 3
        && (bytes[0] == b'b' && matches!(bytes[1], b'"' | b'\'') || matches!(bytes[0], b'@' | b'$') && bytes[1] == b'"')
        && bytes[bytes.len() - 1] == bytes[1]
    {
        return (&value[..2], &value[2..value.len() - 1], &value[value.len() - 1..]);
    }
    let wrapped =
        bytes.len() >= 2 && matches!((bytes[0], bytes[bytes.len() - 1]), (b'"', b'"') | (b'\'', b'\'') | (b'{', b'}'));
    if !wrapped {
        return ("", value, "");
    }
    // openssl's `pass:` inside the quotes (`-passout 'pass:...'`).
    let open = if value[1..].starts_with("pass:") { 6 } else { 1 };
    (&value[..open], &value[open..value.len() - 1], &value[value.len() - 1..])
}

/// A file or folder path: rooted in a home (`~/`), the current folder (`./`, `../`), a drive
/// (`C:\`, `C:/`), a share (`\\server\`), or `/` with a first folder every Unix-like system or
/// container has, or a last part with an extension (`/src/Api/Secrets/TokenService.cs`). A
/// value under a secret label that is a path names where the secret is, not the secret; a
/// base64 key that starts with `/` (`/K7MDENG/bPxRfiCY`) has neither a known first folder nor
/// an extension.
pub(super) static PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:(?:~|\.\.?)[/\\]|[A-Za-z]:[/\\]|\\\\[A-Za-z0-9._-]+\\",
        r"|/(?:home|Users|usr|var|etc|tmp|opt|run|mnt|srv|src|app|root|proc|dev|data|workspace|workspaces|build|Library|Applications|Volumes|private|snap|nix)/",
        r"|/(?:[A-Za-z0-9._ -]+/)+[A-Za-z0-9_ -]+\.[A-Za-z][A-Za-z0-9]{0,5}$)",
    ))
    .expect("path pattern is valid")
});

/// `value` replaced by [`REDACTED`], keeping what wraps it (see [`unwrap`]); a stand-in (see
/// [`STAND_IN`]) or a path (see [`PATH`]) stays as it is.
pub(super) fn mask(value: &str) -> String {
    let (open, inner, close) = unwrap(value);
    // A Helm or Jinja reference (`{{ .Values.x }}`) is a stand-in with its braces, not inside them.
    // A placeholder that closes the parenthesis of help text (`set "Smtp:Password" <value>)`).
    let closed = inner.strip_suffix(')').filter(|rest| rest.starts_with('<'));
    if is_stand_in(inner) || is_stand_in(value) || closed.is_some_and(is_stand_in) || PATH.is_match(inner) {
        return value.to_owned();
    }
    // A token known by its shape keeps its prefix, as it does without a label (`SCW[REDACTED]`,
    // `xai-[REDACTED]`).
    let vendor = || {
        VENDOR_WHOLE
            .captures(inner)
            .filter(|caps| vendor_secret(&caps["vendor"], &caps["vendor_body"]))
            .map_or("", |caps| caps.name("vendor").map_or("", |m| m.as_str()))
    };
    let prefix = PREFIXED_TOKEN.captures(inner).map_or_else(vendor, |caps| caps.get(1).map_or("", |m| m.as_str()));
    // The ellipsis of a value a table cut short stays after it (see [`STAND_IN`]).
    let cut = if inner.ends_with('…') { "…" } else { "" };
    format!("{open}{prefix}{REDACTED}{cut}{close}")
}

/// Whether `value` only stands in for a secret (see [`STAND_IN`]).
/// Also a token's known prefix before a run of lower-case `x` (`sk_test_xxxxxxxxxxxxxxxxxxxxxxxx` of
/// a `.env.example`, `ghp_xxxx...` of a README): the prefix says which kind of token goes there,
/// the run that none is. Upper-case `X` is a letter of some tokens' alphabets (an AWS key id's
/// `ASIAXXXXXXXXXXXXXXXX` stays a key id).
pub(super) fn is_stand_in(value: &str) -> bool {
    STAND_IN.is_match(value)
        || PREFIXED_TOKEN
            .captures(value)
            .and_then(|caps| caps.get(1))
            .is_some_and(|prefix| value[prefix.end()..].bytes().all(|b| b == b'x'))
}

#[cfg(test)]
mod tests {
    use crate::redact::{
        REDACTED, redact_json,
        tests::{each, r},
    };
    use serde_json::json;

    #[test]
    fn values_a_ci_system_masked_stay_as_they_are() {
        for kept in ["dotnet nuget push a.nupkg --api-key *** -s nuget.org", "DB_PASSWORD=***"] {
            assert_eq!(r(kept), kept);
        }
        assert_eq!(r("redis-cli -h cache -a pw1 PING"), "redis-cli -h cache -a [REDACTED] PING");
        assert_eq!(r("sshpass -p pw2 scp a b"), "sshpass -p [REDACTED] scp a b");
    }

    #[test]
    fn csharp_expressions_quoted_in_errors_and_stack_traces_stay_and_literals_do_not() {
        each(&[
            (
                "/src/Program.cs(12,31): error CS0103: The name 'configuration' does not exist in the current context [/src/App.csproj]\n    var apiKey = configuration.GetValue<string>(\"ApiKey\");",
                "",
            ),
            (
                "   at Program.<Main>$(String[] args) in /src/Program.cs:line 12: var apiKey = configuration.GetValue<string>(\"ApiKey\");",
                "",
            ),
            ("   12 |     string secret = options.Value.ClientSecret;", ""),
            ("Program.cs(8,19): warning CS8600: token = await client.GetTokenAsync(ct);", ""),
            ("    var password = GetPassword();", ""),
            ("    var secret = new string('x', 10);", ""),
            ("        password: _settings.Password,", ""),
            // A literal assigned in the same code is the secret.
            (
                "    var apiKey = \"sk1\"; var token = ab.cd;",
                "    var apiKey = \"[REDACTED]\"; var token = [REDACTED];",
            ),
            (
                "   12 |     private const string Password = \"hunter2\";",
                "   12 |     private const string Password = \"[REDACTED]\";",
            ),
        ]);
    }

    #[test]
    fn a_version_after_a_login_line_or_a_secret_word_is_no_secret() {
        each(&[
            ("$ docker login -u ci-bot ghcr.io\nLogin ci-bot / v2.3.1", ""),
            ("Login Succeeded / 10.0.401", ""),
            ("basic auth admin / 2.3.1 accepted", ""),
            ("credentials: ops / v10.0.100-rc.2.25502.107 (sdk)", ""),
            ("using token 10.0.100-preview.7.25380.108 for upload", ""),
            // A password beside it, or one that only starts like a version, is still hidden.
            ("login ops / v2.3.1x accepted", "login ops / [REDACTED] accepted"),
            ("Login ci-bot / Wq9vbTx2 (v2.3.1)", "Login ci-bot / [REDACTED] (v2.3.1)"),
            (
                "docker login -u ci-bot -p Xy12abc ghcr.io\nv2.3.1",
                "docker login -u ci-bot -p [REDACTED] ghcr.io\nv2.3.1",
            ),
        ]);
    }

    #[test]
    fn a_value_a_table_cut_short_is_hidden_and_keeps_its_ellipsis() {
        for (input, expected) in [
            (
                "SQLCONNSTR_Default             Server=tcp:sql-01,1433;User ID=app;Password=L0hWFt-Xaj…",
                "SQLCONNSTR_Default             Server=tcp:sql-01,1433;User ID=app;Password=[REDACTED]…",
            ),
            ("AZURE_CLIENT_SECRET            Qf3~kLm9Xw2Vt7…", "AZURE_CLIENT_SECRET            [REDACTED]…"),
        ] {
            assert_eq!(r(input), expected);
        }
        // Masks that show a vendor's prefix or a few characters stay as they are.
        for kept in [
            "OPENAI_API_KEY=sk-proj-…",
            "GITHUB_TOKEN=ghp_…",
            "AWS_ACCESS_KEY_ID=AKIA…",
            "DB_PASSWORD=ab…yz",
            "NPM_TOKEN=npm_7K…",
            "OPENAI_API_KEY=sk-proj-Ab3x…",
        ] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn a_token_prefix_before_a_run_of_x_is_a_placeholder() {
        for kept in [
            "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
            "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "  \"ApiKey\": \"sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\",",
        ] {
            assert_eq!(r(kept), kept);
        }
        // A body with anything but the run of `x` is a token.
        assert_eq!(r("STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxx4eC39HqLyjWD"), "STRIPE_SECRET_KEY=sk_test_[REDACTED]");
        assert_eq!(r("token ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1"), "token ghp_[REDACTED]");
    }

    #[test]
    fn values_that_stand_in_for_a_secret_stay() {
        for kept in [
            "      - ConnectionStrings__Default=Host=db;Username=app;Password=${POSTGRES_PASSWORD}",
            "      - Stripe__SecretKey=${STRIPE_SECRET_KEY:?set STRIPE_SECRET_KEY}",
            "DbPassword: $(DbPassword)",
            r#"    "value": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/Db/)""#,
            r#"  "Stripe": { "SecretKey": "<your-stripe-secret-key>", "WebhookSecret": "" },"#,
            r#"  "ConnectionStrings": { "Default": "" }"#,
            "      Authorization: *",
            r#"dotnet nuget push "a.nupkg" --api-key "***" --source nuget.org"#,
        ] {
            assert_eq!(r(kept), kept);
        }
        // A default after `:-` can be the secret itself.
        assert_eq!(r("Password=${DB_PASSWORD:-pw-1}"), "Password=[REDACTED]");
    }

    #[test]
    fn public_keys_and_embedded_files_stay() {
        let ivt = r#"<InternalsVisibleTo Include="App.Tests" Key="0024000004800000940000000602000000240000525341310004000001000100c547cac3" />"#;
        assert_eq!(r(ivt), ivt);
        let png = "<value>iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA+v8Qs71kMveF07X8</value>";
        assert_eq!(r(png), png);
        // `kubectl config view --raw`: the certificates in base64 stay, the client's key and
        // token do not.
        let cert = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUU2RENDQXRDZ0F3SUJBZ0lRT0xNa1lyT3l3bDd";
        let key = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdDVyTmFxS3o";
        each(&[(
            &format!(
                "- name: aks\n  user:\n    client-certificate-data: {cert}\n    client-key-data: {key}\n    token: 9f8e7d6c5b4a39281706f5e4d3c2b1a0\n- cluster:\n    certificate-authority-data: {cert}"
            ),
            &format!(
                "- name: aks\n  user:\n    client-certificate-data: {cert}\n    client-key-data: [REDACTED]\n    token: [REDACTED]\n- cluster:\n    certificate-authority-data: {cert}"
            ),
        )]);
    }

    #[test]
    fn public_identity_keys_are_untouched() {
        let text = "PublicKeyToken=b77a5c561934e089 PublicKey=0024000004800000940000000602000000240000 UserSecretsId=aspnet-App-1234";
        assert_eq!(r(text), text);
    }

    #[test]
    fn placeholders_key_paths_and_paths_are_not_secrets() {
        each(&[
            ("password: ${{ secrets.DB_PASSWORD }}", ""),
            ("DB_PASSWORD=$(cat /run/secrets/db_password)", ""),
            ("set DB_PASSWORD=%DB_PASSWORD%", ""),
            ("$env:API_KEY = $env:API_KEY_FROM_VAULT", ""),
            ("api_key: YOUR_API_KEY_HERE", ""),
            ("\"ApiKey\": \"your-api-key-here\"", ""),
            ("password: [FILTERED]", ""),
            ("{\"token\": null, \"next\": 1}", ""),
            ("Missing ConnectionStrings:Default in configuration", ""),
            ("Read Jwt:Secret:Key from the vault", ""),
            ("TargetFramework = net10.0", ""),
            ("Tests.Auth.Password_is_hashed: Assert.Equal() Failure", ""),
            ("Login_with_wrong_password_fails: expected 401", ""),
            ("Contoso.Tests.Config.Password: Assert.Equal() Failure: Values differ", ""),
            ("Contoso.Tests.TokenTests.Token: Expected: True", ""),
            ("  Contoso.Tests.SecretTests.Load    12 ms    /src/Tests/SecretTests.cs", ""),
            ("SECRET_FILE: /run/secrets/api_key.txt", ""),
            ("password: /home/dev/.config/app/password.txt", ""),
        ]);
    }

    #[test]
    fn masks_and_references_of_other_tools_stay() {
        for kept in [
            r#"{"client_id": "svc", "client_secret": "***MASKED***"}"#,
            "Looking in indexes: https://ci:*****@feed.example.org/simple/",
            "  SET [ApiKeyHash] = @p3, [Salt] = @p4",
            "WHERE [Password] = @__password_0",
            "Smtp__Password={{ .Values.smtp.password }}",
            r#"  "hashed_secret": "0f4c6a1e9b2d3c5e7f8a9b0c1d2e3f4a5b6c7d8e","#,
        ] {
            assert_eq!(r(kept), kept);
        }
        assert_eq!(r("Public key token is 0f1e2d3c4b5a6978"), "Public key token is 0f1e2d3c4b5a6978");
        let aspire =
            r#"  "connectionString": "{db.bindings.tcp.host}:{db.bindings.tcp.port},password={db-password.value}","#;
        assert_eq!(r(aspire), aspire);
        // A real password in a URL is still hidden.
        assert_eq!(r("https://ci:p4ss*w0rd@feed.example.org/"), "https://ci:[REDACTED]@feed.example.org/");
    }

    #[test]
    fn template_references_and_ciphertext_stand_in_for_a_secret() {
        for kept in [
            "db_password: \"{{ vault_db_password }}\"",
            "\"Parameters__pwd\": \"{pwd.value}\"",
            "Authorization:REDACTED",
            "//npm.ex.org/:_authToken = (protected)",
        ] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn masked_encrypted_public_and_referenced_values_are_not_secrets() {
        for kept in [
            // SOPS ciphertext with its `iv:` and `tag:`, a SealedSecret's ciphertext.
            "  api_key: ENC[AES256_GCM,data:Qm9ndXM=,iv:aXZpdml2aXY=,tag:dGFndGFn,type:str]",
            &format!("    password: Ag{}", "Qk".repeat(180)),
            // Octopus references inside a connection string, Terraform and Bicep references.
            "ConnectionStrings__Main=Server=#{Db.Host};Password=#{Db.Password}",
            "  admin_password = var.admin_password",
            "    adminLoginPassword: adminPassword",
            // Values another tool masked, followed by more columns; relative times in a listing.
            "secret_key     ****************Qx7z shared-credentials-file",
            "NPM_TOKEN            about 2 months ago",
            // Public by design: publishable tokens, site keys, key ids.
            r#""PublicToken": "pk.eyJ1IjoiZXgiLCJhIjoiY2sxMjM0NTY3ODkwIn0.Zm9vYmFyYmF6cXV4""#,
            r#"<div data-sitekey="6LdAbCdEfGhIjKlMnOpQrStUvWxYz0123456789"></div>"#,
            r#""keyId": "0b1e5c2a-7d3f-4e8a-9c6b-2f4d8e1a3c5b""#,
            "STRIPE_KEY_ID=kid_4Fz8Qw2Lm7Xp9Rt3",
            // IdentityModel's hidden-PII placeholder; a scanner's `file:rule:LINE`.
            "token: '[PII of type 'System.String' is hidden. For more details, see https://aka.ms/IdentityModel/PII.]'.",
            "Fingerprint: 0a1b2c:src/app.json:generic-api-key:42",
            // Help text, a `--secret` spec, a variable as an option's value, a Windows option's `no`.
            "  -W, --password           force password prompt",
            "docker buildx build --secret id=npmrc,src=/home/u/.npmrc --secret id=pat,env=PAT .",
            "Import-PfxCertificate -FilePath .\\a.pfx -Password $pfxPassword",
            "net user /passwordchg:no",
        ] {
            assert_eq!(r(kept), kept);
        }
        // A Mapbox secret token (`sk.`) is secret.
        assert_eq!(r("sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjazEyMyJ9.Zm9vYmFyYmF6cXV4"), "sk.eyJ[REDACTED]");
    }

    #[test]
    fn digests_dates_stores_computed_and_masked_values_and_sentences_under_secret_words_stay() {
        each(&[
            ("Api__Token        \t0a1b2c3d4e5f6789\t2026-01-02T03:04:05Z", ""),
            ("    <secret-storage>keychain</secret-storage>", ""),
            ("    <ToolSecretsId>none</ToolSecretsId>", ""),
            ("    api_token = make_token(size=48)", ""),
            ("    secret = os.urandom(32)", ""),
            ("config: {Dsn:postgres://svc:xxxxx@db:5432/app Debug:false}", ""),
            ("Destination: https://a.blob.core.windows.net/c?sv=2025-01-05&sig=-REDACTED-&sp=r", ""),
            ("1a2b3c4 secret: drop the unused feed settings", ""),
            ("$GITHUB_TOKEN: set in global scope, exported, with 1 elements", ""),
            ("$GITHUB_TOKEN: originally inherited as |ghp-sample|", ""),
        ]);
    }

    #[test]
    fn secret_manager_references_placeholders_and_field_names_stay() {
        each(&[
            ("Db__Password=op://Prod/db/password", ""),
            ("ApiKey: ref+awsssm://prod/api-key", ""),
            ("  \"ClientSecret\": \"__ClientSecret__\",", ""),
            ("Password=#{DbPassword}#", ""),
            ("    - secretKey: token", ""),
            ("  credentialStore: vault", ""),
            ("OPENAI_API_KEY=sk-live-EXAMPLE_VALUE", ""),
            ("token: '[Security Artifact of type 'Jwt' is hidden. See https://aka.ms/x.]'.", ""),
            ("ACCESSKEYMETADATA\tAKIA0123456789ABCDEF\t2026-01-02T03:04:05+00:00\tActive\tdeploy", ""),
            ("xcrun altool --validate-app -f a.ipa --apiKey AB12CD34EF --apiIssuer 5f0e", ""),
            ("AWS_ACCESS_KEY_ID=AKIA0123456789ABCDEF", "AWS_ACCESS_KEY_ID=AKIA[REDACTED]"),
        ]);
    }

    #[test]
    fn a_value_read_by_a_call_in_source_stays() {
        each(&[
            (r#"-        smtp.Password = Environment.GetEnvironmentVariable("SMTP_PASSWORD");"#, ""),
            (r#"+        o.ClientSecret = ctx.Configuration.GetSection("Auth").GetValue("ClientSecret");"#, ""),
            (r#"    var apiKey = vault.Secrets.Get("payments-key").Value;"#, ""),
            (r#"    o.ClientSecret = "Lq8-zz.Wm(";"#, r#"    o.ClientSecret = "[REDACTED]";"#),
        ]);
    }

    #[test]
    fn a_mask_after_a_dotted_prefix_stays() {
        each(&[
            (r#"{"SendGridApiKey": "SG.****", "Region": "eu"}"#, ""),
            ("Mailgun__ApiKey=key.***", ""),
            ("Mailgun__ApiKey=key.Zq81kdQe7Lm2", "Mailgun__ApiKey=[REDACTED]"),
        ]);
    }

    #[test]
    fn a_kind_of_token_named_as_a_value_names_a_field() {
        each(&[
            ("      TokenValidated: access_token validated for client web-portal", ""),
            ("  - secretKey: refresh_token", ""),
            ("tokenField = id-token", ""),
            // A value that only starts with such a name is no name.
            ("token: access_token_Zq81kdQe", "token: [REDACTED]"),
            (
                "      TokenValidated: Qm7x2Lr9Tt4Kz8 for client web-portal",
                "      TokenValidated: [REDACTED] for client web-portal",
            ),
        ]);
    }

    #[test]
    fn a_cosmos_db_continuation_token_is_no_secret() {
        each(&[
            (
                r#"      next page: [{"token":"-RID:~Lq8AAJ3Ft2kBAAAAAAAAAA==#RT:2#TRC:200#ISV:2#IEO:65551","range":{"min":"05C1","max":"FF"}}]"#,
                "",
            ),
            (
                r#"{"compositeToken":{"token":"+RID:~Zx0TAKs7Pp4CAAAAAAAAAA==#RT:5#TRC:500#ISV:2#IEO:65567#QCF:8#FPC:AgEAAAAAAA==","range":{"min":"","max":"05C1"}}}"#,
                "",
            ),
            ("ContinuationToken = +RID:~Zx0TAKs7Pp4#RT:1#TRC:10", ""),
            // Without a resource id's prefix and its progress, a token under the label is a token.
            (r#"{"token":"Zx0TAKs7Pp4CAAAAAAAAAA9Lq8AAJ3Ft2kB"}"#, r#"{"token":"[REDACTED]"}"#),
            (r#"{"token":"Zx0TAKs7Pp4CAAAAAAAAAA#RT:2#TRC:200"}"#, r#"{"token":"[REDACTED]"}"#),
        ]);
    }

    #[test]
    fn stand_ins_public_ids_and_describing_names_of_batch_11() {
        each(&[
            ("  GITHUB_TOKEN: ENCRYPTED[0a1b2c3d4e5f60718293a4b5c6d7e8f9]", ""),
            ("  NPM_TOKEN: ENCRYPTED[!0a1b2c3d4e5f60718293a4b5c6d7e8f9!]", ""),
            ("<password>{Zm9vYmFyYmF6cXV4cXV1eFpZWDEyMzQ1Njc4OTA=}</password>", ""),
            (r#""X-Api-Key": "${input:acme-key}""#, ""),
            (r#"{ "Authorization": "Bearer ${input:gh-token}" }"#, ""),
            ("  apiToken: setSecret(name: \"env:ACME_TOKEN\"): Secret!", ""),
            (
                "  apiToken: setSecret(name: \"raw\", value: \"Qx7Lm2Vt9\"): Secret!",
                "  apiToken: setSecret(name: \"[REDACTED]\", value: \"[REDACTED]\"): Secret!",
            ),
            ("  const s = x({ clientSecret: document.querySelector(\"#cs\").value });", ""),
            ("secretId = AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", ""),
            ("  live_mode_pub_key = 'pk_live_Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1'", ""),
            (
                "Cookie: .AspNetCore.Session=chunks-3; .AspNetCore.SessionC1=Zr8Kq2Lm9",
                "Cookie: .AspNetCore.Session=chunks-3; .AspNetCore.SessionC1=[REDACTED]",
            ),
            ("#   api_token: 123", ""),
            ("    Acme.Tests.LoginTests.Rejects_short(password: \"abc\", user: \"bob\")", ""),
            (
                "    Acme.Tests.Db.Parses(raw: \"Host=h;Password=Pw9-x\", host: \"h\")",
                "    Acme.Tests.Db.Parses(raw: \"Host=h;Password=[REDACTED]\", host: \"h\")",
            ),
            (
                "    Acme.Tests.LoginTests.Accepts(password: \"Pw9-long!x\", user: \"bob\")",
                "    Acme.Tests.LoginTests.Accepts(password: \"[REDACTED]\", user: \"bob\")",
            ),
        ]);
        let mut value = json!({
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt"],
            "SecretVersionsToStages": {"v1": ["AWSCURRENT"]},
            "secret_id": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
            "secret_id_accessor": "1a2b3c4d-5e6f-7081-9203-a4b5c6d7e8f9",
            "apiKeyVariable": {"default": "ACME_API_KEY"},
        });
        redact_json(&mut value);
        assert_eq!(
            value,
            json!({
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt"],
                "SecretVersionsToStages": {"v1": ["AWSCURRENT"]},
                "secret_id": REDACTED,
                "secret_id_accessor": "1a2b3c4d-5e6f-7081-9203-a4b5c6d7e8f9",
                "apiKeyVariable": {"default": "ACME_API_KEY"},
            })
        );
    }
}
