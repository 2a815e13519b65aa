//! Key names: which words make a label, option or variable name secret, weakly secret or a
//! connection string (`classify_key`), and what a generated value under a weak name looks like.

use std::sync::LazyLock;

use super::prose::FOREIGN_SECRET_WORDS;

/// Words that make a key name secret wherever they occur in it. `_` stands for an optional
/// separator (`-`, `_` or `.`), so `api_key` also covers `apikey`, `api-key` and `Api.Key`.
pub(super) const STRONG_KEY_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pass_phrase",
    "secret",
    "token",
    "api_key",
    // Also an access key id (`accessKeyId`, `AWS_ACCESS_KEY_ID`): not the secret half of the pair,
    // but it names the account it belongs to (`aws sts get-access-key-info` answers any caller
    // with it) and is half of what signs in, so it is hidden but for its prefix (`AKIA[REDACTED]`),
    // which says what kind of key it is; only `aws iam list-access-keys`' text table keeps it.
    "access_key",
    "account_key",
    "private_key",
    "shared_access_signature",
    "authorization",
    // Honeycomb's API key header (`x-honeycomb-team=...` in `OTEL_EXPORTER_OTLP_HEADERS`).
    "honeycomb_team",
    // OAuth's PKCE verifier (the challenge derived from it is public) and a SAML response, a
    // signed assertion that logs its bearer in (`SAMLResponse=` of a form post).
    "code_verifier",
    "saml_response",
    // Microsoft Graph's change notifications: the subscription's `clientState`, which Graph
    // documents as a secret value sent back with each notification so the receiver can trust it.
    "client_state",
];

/// A strong word followed by `server`, normalised as key names are (`authorizationserver`,
/// `tokenserver`): a server named for what it issues, taken out of a name before it is judged (see
/// [`classify_key`]). Built once: names are judged for every labelled value.
static SERVER_NAMES: LazyLock<Vec<String>> =
    LazyLock::new(|| STRONG_KEY_WORDS.iter().map(|word| format!("{}server", word.replace('_', ""))).collect());

/// Words that make a key name hold a connection string (`ConnectionStrings__Default`,
/// `APPLICATIONINSIGHTS_CONNECTION_STRING`): its secret parts are secret, the rest of it is not
/// (see [`redact_connection_string`](super::connection::redact_connection_string)).
pub(super) const CONNECTION_KEY_WORDS: &[&str] = &["connection_string"];

/// Words that make a key name secret when they are its last word (`DB_PWD`, `SMTP_PASS`,
/// `smtpPass`, `userPWD`, `Pwd`, `AZURE_DEVOPS_PAT`, `SDK_CONTAINER_REGISTRY_PWORD`, `SMTP_PW`),
/// but not inside another word (`OLDPWD`, `bypass`, `PATH`); also a Wi-Fi pre-shared key
/// (`psk="..."` of `wpa_supplicant.conf`, `802-11-wireless-security.psk:` of `nmcli`), but not
/// its `psk-flags`, and an Azure shared access signature or key (`sas=...`, `BlobSas`), but not
/// `Kansas`.
pub(super) const LAST_KEY_WORDS: &[&str] = &["pwd", "pass", "pat", "pword", "pw", "psk", "sas"];

/// Normalised key names that are secret as a whole: the SAS signature, HTTP cookie headers,
/// a Kubernetes registry secret.
pub(super) const EXACT_KEY_WORDS: &[&str] =
    &["sig", "cookie", "setcookie", "dockerconfigjson", "requirepass", "masterauth", "masterpassword"];

/// Endings of normalised key names of session identifiers (`ASP.NET_SessionId`, `PHPSESSID`).
const SESSION_KEY_ENDINGS: &[&str] = &["sessionid", "sessid"];

/// Whether a key names a session identifier (see [`SESSION_KEY_ENDINGS`]).
pub(super) fn is_session_key(name: &str) -> bool {
    let normalized = normalize(name);
    SESSION_KEY_ENDINGS.iter().any(|ending| normalized.ends_with(ending))
}

/// Whether `value` is a GUID in its usual form (`0f1e2d3c-...`): an id, never generated as a secret
/// by the tools whose output we see.
pub(super) fn is_guid(value: &str) -> bool {
    value.len() == 36
        && value
            .bytes()
            .enumerate()
            .all(|(i, b)| if [8, 13, 18, 23].contains(&i) { b == b'-' } else { b.is_ascii_hexdigit() })
}

/// Words that make a key name suspicious: its value is redacted only when it looks generated
/// (see [`looks_generated`]), so `KeyFile=app.snk` and `PARTITION_KEY=/customerId` stay readable.
/// Agora's `App Certificate` is the secret that signs its tokens (`AGORA_APP_CERTIFICATE`).
/// A license (`MT_LICENSE`, `SyncfusionLicense`) is one only as a name's last word, and its value
/// is a secret only when it looks like a key (see [`classify_key`]).
pub(super) const WEAK_KEY_WORDS: &[&str] =
    &["key", "credential", "signature", "auth", "signing", "app_certificate", "license", "licence"];

/// Normalised key names that contain a secret word but name public data (assembly identities,
/// the user-secrets store id, a SAS policy name, and the Application Insights instrumentation
/// key, which Microsoft documents as an identifier that is not a secret and which browsers'
/// telemetry scripts carry in the clear).
const NON_SECRET_KEYS: &[&str] = &[
    "publickeytoken",
    // detect-secrets' baseline: a SHA-1 of the secret it found, not the secret.
    "hashedsecret",
    "publickey",
    "keyid",
    "kid",
    "usersecretsid",
    "sharedaccesskeyname",
    "tokentype",
    "instrumentationkey",
    "appinsightsinstrumentationkey",
    // git's `user.signingKey` (`git config --list`): the GPG key id or SSH public key commits are
    // signed with, not the private key.
    "usersigningkey",
];

/// Words before a last `key` that make it a key to data, not a secret (see [`classify_key`]).
const DATA_KEY_WORDS: &[&str] =
    &["partition", "row", "sort", "cache", "idempotency", "dedup", "deduplication", "lookup", "project"];

/// Last words that make a key name describe a secret rather than hold one:
/// `TokenLifetimeMinutes`, `PASSWORD_MIN_LENGTH`, `MYSQL_PASSWORD_FILE`, `KeyVault:SecretName`.
pub(super) const DESCRIBING_WORDS: &[&str] = &[
    "length",
    "lifetime",
    "minutes",
    "seconds",
    "hours",
    "days",
    "duration",
    "ttl",
    "expiry",
    "expiration",
    "timeout",
    "count",
    "type",
    "url",
    "uri",
    "endpoint",
    "path",
    "file",
    "dir",
    "directory",
    "folder",
    "location",
    "name",
    "header",
    "policy",
    "enabled",
    "required",
    "format",
    "algorithm",
    "version",
    "provider",
    "prefix",
    "scheme",
    // .NET type names that carry a secret word (`DenyAnonymousAuthorizationRequirement:`,
    // `SecurityTokenExpiredException:`, `PasswordHasherOptions`).
    "requirement",
    "exception",
    "handler",
    "options",
    "validator",
    "hasher",
    "parameters",
    "service",
    "middleware",
    // References to a secret kept elsewhere (`secretKeyRef`, `passwordRef`).
    "ref",
    "reference",
    // Rules and errors about a secret (ASP.NET Core Identity's `PasswordTooShort`,
    // `PasswordMismatch`), and what derives from one.
    "short",
    "long",
    "mismatch",
    "invalid",
    "incorrect",
    "expired",
    // When a key was made and whether it is in use (`aws iam create-access-key`'s `CreateDate` and
    // `Status` inside its secret-named `AccessKey`, Graph's `endDateTime`).
    "date",
    "time",
    "status",
    "missing",
    "reset",
    "changed",
    "strength",
    "history",
    "complexity",
    "hint",
    "prompt",
    "requirements",
    "rules",
    // Counts: `prompt_tokens`, `max_tokens`, `SaveTokens`.
    "tokens",
    // Identifiers of a key or account, not the key (Twilio's `ApiKeySid`, `AccountSid`), and
    // digests of public material (`SigningCertificateThumbprint`, `KeyFingerprint`).
    "sid",
    "thumbprint",
    "fingerprint",
    // Where a secret is kept, not the secret (an IDE's `<secret-storage>master_key</secret-storage>`,
    // Dapr's `secretStore: kubernetes`).
    "storage",
    "store",
    "stores",
    // What identifies a key (`customKeyIdentifier`, a certificate's thumbprint in `az ad app
    // credential list`), not the key.
    "identifier",
    // Batch 11: what a server supports (an OpenID Connect discovery document's
    // `token_endpoint_auth_methods_supported`), the stages of a secret's versions (`aws
    // secretsmanager`'s `SecretVersionsToStages`), a token's accessor (Vault's
    // `secret_id_accessor`, which looks a token up but does not log in), and the name of the
    // variable that holds a secret (`apiKeyEnvironmentVariable`).
    "supported",
    "stages",
    "accessor",
    "variable",
];

/// Words that make a name of three or more words a sentence (a test or method name), not a label.
const SENTENCE_WORDS: &[&str] = &[
    "is", "are", "was", "were", "be", "should", "must", "when", "fails", "throws", "returns", "rejects", "accepts",
    "can", "cannot", "does", "not", "given", "then", "if", "requires", "require", "used",
];

/// How sensitive a key name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyClass {
    /// The value is a secret whatever it looks like.
    Secret,
    /// The value is a connection string: its secret parts are secret, and an opaque value is
    /// secret whole (see [`redact_connection_string`](super::connection::redact_connection_string)).
    Connection,
    /// The value is a secret when it looks generated.
    Weak,
    /// A neutral label (`value`, `default`): the value is a secret when it looks like a key
    /// (see [`key_like`]).
    Neutral,
    /// The value is not a secret.
    Plain,
}

/// The words of a name, lower-cased: split at separators and case changes (`DB_PWD` → db, pwd;
/// `smtpPass` → smtp, pass; `APIKey` → api, key).
pub(super) fn key_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let after_lower = i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
        let ends_acronym =
            i > 0 && chars[i - 1].is_ascii_uppercase() && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
        if c.is_ascii_uppercase() && !word.is_empty() && (after_lower || ends_acronym) {
            words.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether `name` names a map of keys (`functionKeys` and `systemKeys` of `az functionapp keys
/// list`, `apiKeys`): its last word is `keys`, so each member's value is a key whatever the
/// member's own name says (`default`, `durabletask_extension`, a name its user chose).
pub(super) fn names_key_map(name: &str) -> bool {
    key_words(name).last().is_some_and(|word| word == "keys")
}

/// `name` lower-cased, letters and digits only.
pub(super) fn normalize(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// Whether `name` names what is public by design (see [`public_by_design`]).
pub(super) fn names_public(name: &str) -> bool {
    public_by_design(&key_words(name), &normalize(name))
}

pub(super) fn classify_key(name: &str) -> KeyClass {
    // A configuration path whose last segment only points into the setting before it (an array's
    // index, `SigningKeys:0:Value` of `dotnet user-jwts`' user secrets): the setting names it.
    if let Some((setting, last)) = name.rsplit_once(':').or_else(|| name.rsplit_once("__"))
        && !setting.is_empty()
        && (last.eq_ignore_ascii_case("value") || !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()))
    {
        return classify_key(setting);
    }
    // A connection's name under the `ConnectionStrings` section (`ConnectionStrings__Storage`,
    // `ConnectionStrings:Store`) is a name, never a word that describes the value: every value of
    // that section is a connection string.
    if let Some((section, _)) = name.rsplit_once(':').or_else(|| name.rsplit_once("__"))
        && section.rsplit([':', '_']).next().is_some_and(|last| last.eq_ignore_ascii_case("connectionstrings"))
    {
        return KeyClass::Connection;
    }
    let normalized = normalize(name);
    // A test runner's status (`--- PASS: TestLogin`, Jest's ` PASS  src/app.test.js`), not a label.
    if NON_SECRET_KEYS.contains(&normalized.as_str())
        || name.trim_matches(|c: char| !c.is_ascii_alphanumeric()) == "PASS"
    {
        return KeyClass::Plain;
    }
    let words = key_words(name);
    // A name for what is kept elsewhere: Helm's `existingSecret`, the key of a password inside
    // a Kubernetes secret (`adminPasswordKey`, `existingSecretPasswordKey`).
    let first = words.first().map_or("", String::as_str);
    let ends_password_key = words.len() >= 2
        && words[words.len() - 1] == "key"
        && ["password", "passwd", "pwd"].contains(&words[words.len() - 2].as_str());
    // The id of a secret store (`UserSecretsId`, `PackageSecretsId`), not a secret.
    let store_id = words.len() >= 2 && words[words.len() - 2] == "secrets" && words[words.len() - 1] == "id";
    // A key that finds data, often a GUID: Azure Table Storage's `PartitionKey` and `RowKey`, a
    // cache entry's key, an HTTP request's `Idempotency-Key`, SonarQube's `projectKey`.
    let data_key = words.len() >= 2
        && words[words.len() - 1] == "key"
        && DATA_KEY_WORDS.contains(&words[words.len() - 2].as_str());
    if first == "existing" || ends_password_key || store_id || data_key || public_by_design(&words, &normalized) {
        return KeyClass::Plain;
    }
    // Durations and times of a secret (`expires_in`, `id_token_expires_in`, `token_issued_at`).
    if words.iter().any(|word| ["expires", "expiry", "issued"].contains(&word.as_str())) {
        return KeyClass::Plain;
    }
    let lower = name.to_lowercase();
    if FOREIGN_SECRET_WORDS.iter().any(|word| lower.contains(word)) {
        return KeyClass::Secret;
    }
    // A trailing number does not change what a name holds: `DB_PWD_2` is a password.
    let mut named = words.iter().map(String::as_str).rev().skip_while(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let last = named.next().unwrap_or_default();
    if named.next().is_some() && DESCRIBING_WORDS.contains(&last) {
        return KeyClass::Plain;
    }
    // A test or method name written as a sentence (`Password_is_hashed`,
    // `Login_with_wrong_password_fails`) describes a secret, it does not label one; so does a
    // qualified .NET name (`Tests.Config.Password`, a failed test's name before its message).
    if words.len() >= 3 && words.iter().any(|word| SENTENCE_WORDS.contains(&word.as_str())) || is_qualified_name(name) {
        return KeyClass::Plain;
    }
    // A server named for what it issues or checks (OAuth's authorization server, a token server:
    // `AuthorizationServerId`, `TokenServerHost`) is no secret; the words around it still count.
    let subject = SERVER_NAMES.iter().fold(normalized.clone(), |name, server| name.replace(server.as_str(), " "));
    let contains = |words: &[&str]| words.iter().any(|w| subject.contains(&w.replace('_', "")));
    let secret = contains(STRONG_KEY_WORDS)
        || LAST_KEY_WORDS.contains(&last)
        || EXACT_KEY_WORDS.contains(&normalized.as_str())
        || is_session_key(name);
    if secret {
        KeyClass::Secret
    } else if contains(CONNECTION_KEY_WORDS) {
        KeyClass::Connection
    } else if WEAK_KEY_WORDS
        .iter()
        .any(|w| !w.starts_with("licen") && weak_subject(&subject).contains(&w.replace('_', "")))
    {
        KeyClass::Weak
    } else if ["license", "licence"].contains(&last) {
        // A product's license key (`MT_LICENSE=...`), but not `PackageLicenseExpression`.
        KeyClass::Neutral
    } else {
        KeyClass::Plain
    }
}

/// Words that hold the weak word `auth` without meaning an authentication value: a certificate
/// authority (kubeconfig's public `certificate-authority-data`), an OpenID `Authority` URL, an
/// `Authentication` section (`Authentication:Google:ClientId`, whose client id is public).
const NOT_AUTH_WORDS: &[&str] = &["authority", "authentication", "author"];

/// A normalised name with [`NOT_AUTH_WORDS`] taken out, for the weak words to be looked for in:
/// `auth` counts as a word of its own (`"auth"` of Docker's `config.json`, npm's `_auth`,
/// `BASIC_AUTH`), not as the start of a longer one.
fn weak_subject(subject: &str) -> String {
    NOT_AUTH_WORDS.iter().fold(subject.to_owned(), |name, word| name.replace(word, " "))
}

/// Whether a name's words say its value is public by design: a public or publishable key or
/// token (Mapbox's `PublicToken`, Stripe's `PublishableKey`, the Stripe CLI's `test_mode_pub_key`),
/// a CAPTCHA site key (`data-sitekey`), a key's id (`RAZORPAY_KEY_ID`, `keyId`; an access key id
/// stays secret, see [`STRONG_KEY_WORDS`]). `normalized` is the name as [`normalize`] writes it.
/// Such a value stays even beside secrets of its own shape (`redact_json`'s keys files).
fn public_by_design(words: &[String], normalized: &str) -> bool {
    let strong = STRONG_KEY_WORDS.iter().any(|w| normalized.contains(&w.replace('_', "")));
    let key_id = words.len() >= 2 && words[words.len() - 2] == "key" && words[words.len() - 1] == "id";
    let public_key =
        words.windows(2).any(|pair| ["pub", "public", "publishable"].contains(&pair[0].as_str()) && pair[1] == "key");
    (public_key || key_id) && !strong
        || words.first().is_some_and(|first| ["public", "publishable"].contains(&first.as_str()))
        || normalized.ends_with("sitekey")
}

/// Whether `name` is a qualified .NET name of three or more parts, each in PascalCase
/// (`Contoso.Tests.PasswordTests.Hashes`): a namespace, type and member, not a setting's key
/// (settings are written `Smtp:Password`, `Smtp__Password` or `spring.datasource.password`).
pub(super) fn is_qualified_name(name: &str) -> bool {
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3
        && parts.iter().all(|part| {
            part.starts_with(|c: char| c.is_ascii_uppercase())
                && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && part.bytes().any(|b| b.is_ascii_lowercase())
        })
}

/// Whether a value under a weak label looks machine-generated rather than a word or a path.
/// A strong-name public key blob (`InternalsVisibleTo ... Key="0024000004800000..."`: the
/// `PUBLICKEYBLOB` header every .NET public key starts with) is generated but public.
pub(super) fn looks_generated(value: &str) -> bool {
    value.len() >= 16
        && value.bytes().any(|b| b.is_ascii_digit())
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && !value.starts_with(['/', '.', '~'])
        && !value.starts_with("0024000004800000")
        && !is_timestamp(value)
}

/// Whether `value` is the base64 of `user:password`, as HTTP Basic credentials are kept (Docker's
/// `config.json` `"auth"`, npm's `_auth`, `git config`'s `AUTHORIZATION: basic ...`): a secret
/// under a weak label even when it is too short or holds no digit to look generated.
pub(super) fn basic_credentials(value: &str) -> bool {
    base64_decoded(value).is_some_and(|decoded| {
        decoded.iter().all(|b| b.is_ascii_graphic())
            && decoded.iter().position(|&b| b == b':').is_some_and(|colon| colon > 0 && colon + 1 < decoded.len())
    })
}

/// The bytes `value` encodes in padded standard base64, or `None` when it is not such base64.
fn base64_decoded(value: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let body = value.strip_suffix("==").or_else(|| value.strip_suffix('=')).unwrap_or(value);
    if !value.len().is_multiple_of(4) || body.is_empty() {
        return None;
    }
    let sextets: Vec<u32> =
        body.bytes().map(|b| ALPHABET.iter().position(|&a| a == b).map(|at| at as u32)).collect::<Option<_>>()?;
    let mut bytes = Vec::with_capacity(sextets.len() * 3 / 4);
    for chunk in sextets.chunks(4) {
        let bits = chunk.iter().fold(0u32, |bits, sextet| bits << 6 | sextet) << (6 * (4 - chunk.len()));
        bytes.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    Some(bytes)
}

/// Whether a value under a weak label, too short to look generated, is typed as a password
/// (`Jwt__Key=Wq4^tR~z9k`): 8 or more characters without blanks that mix upper and lower case
/// letters, digits and a symbol that names, versions, paths and URLs do not hold (`~ ^ ! # * ?`;
/// not `-`, `_`, `.`, `:`, `/`, `@`, `$`, `%` or `&`). A URL (`...#fragment`), a path and a
/// query (`//totp/App:a?secret=...` after `otpauth:`) are no password.
pub(super) fn password_shaped(value: &str) -> bool {
    let has = |test: fn(&u8) -> bool| value.bytes().any(|b| test(&b));
    value.len() >= 8
        && !value.bytes().any(|b| b.is_ascii_whitespace())
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && has(u8::is_ascii_digit)
        && value.bytes().any(|b| b"~^!#*?".contains(&b))
        && !value.contains("://")
        && !value.starts_with(['/', '.'])
        && !(value.contains('?') && value.contains('='))
}

/// Whether `value` is a digest named by two or more words before it (a CI cache key
/// `Linux-nuget-<sha256>`, `node-cache-Linux-x64-npm-<sha256>`): generated, but a hash of public
/// content. One word before hex (`prod-<hex>`) can be a key's environment, so it does not count.
/// Also a digest named by its algorithm before `=` (a webhook's signature, `X-Hub-Signature-256:
/// sha256=<hex>`, sent in the clear with each delivery).
pub(super) fn named_digest(value: &str) -> bool {
    if let Some((algorithm, digest)) = value.split_once('=')
        && ["sha1", "sha256", "sha384", "sha512", "md5"].contains(&algorithm.to_ascii_lowercase().as_str())
    {
        return digest.len() >= 32 && digest.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let mut segments: Vec<&str> = value.split('-').collect();
    let digest = segments.pop().unwrap_or_default();
    digest.len() >= 32
        && digest.bytes().all(|b| b.is_ascii_hexdigit())
        && segments
            .iter()
            .filter(|segment| segment.len() >= 2 && segment.bytes().all(|b| b.is_ascii_alphabetic()))
            .count()
            >= 2
        && segments.iter().all(|segment| !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Whether `value` starts with an ISO 8601 date and time (`2026-01-02T03:04:05Z`).
fn is_timestamp(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() >= 16
        && [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15].iter().all(|&i| b[i].is_ascii_digit())
        && b[4] == b'-'
        && b[7] == b'-'
        && matches!(b[10], b'T' | b' ')
        && b[13] == b':'
}

/// Base64 openings of file formats that resources embed (`.resx` `<value>` data): PNG, JPEG,
/// GIF, ICO, BMP, PDF, ZIP.
const FILE_DATA_OPENINGS: &[&str] = &["iVBORw0KGgo", "/9j/", "R0lGOD", "AAABAA", "Qk0", "JVBERi0", "UEsDB"];

/// The exact shape of an Azure Storage account key (also a Cosmos DB, Batch or Service Bus
/// namespace key of the same size): the base64 of 64 random bytes, 86 characters of which the
/// last holds only the last byte's two low bits (`A`, `Q`, `g` or `w`), then `==`. One pattern for
/// the `account_key` and `account_line` forms, which find it as a JSON member's value or a
/// line's (`Name = value`), and [`account_key_under`].
pub(super) const ACCOUNT_KEY_SHAPE: &str = "[A-Za-z0-9+/]{85}[AQgw]==";

/// Words of a name that say its 64 random-looking bytes are public by nature: a SHA-512 digest
/// (NuGet's `contentHash` and `sha512` in lock and assets files), a checksum, an ETag, an Ed25519
/// signature, a certificate's fingerprint.
const PUBLIC_BLOB_WORDS: &[&str] = &[
    "hash",
    "hashes",
    "sha",
    "sha512",
    "sha384",
    "sha256",
    "checksum",
    "checksums",
    "digest",
    "digests",
    "integrity",
    "fingerprint",
    "thumbprint",
    "etag",
    "signature",
    "signatures",
];

/// Members that hold a process's output or a file's content (our tools' `stdout`, `stderr` and
/// `output`, MCP's `content` and `text`): their value is text that says on its own what is in
/// it, as a command's output in text does, not a setting the member names; a bare line of 64
/// random bytes there (`cat x.nupkg.sha512`, NuGet's package digest) stays as it does in text.
const OUTPUT_MEMBERS: &[&str] = &["stdout", "stderr", "output", "content", "text"];

/// Whether `value`, held by the member (or a line's label) `name`, is hidden as an account key
/// by its shape alone (an excerpt of `appsettings.json` whose `"ConnectionStrings": {` parent is
/// not visible: `"Storage": "<key>"`; `Storage = <key>` of `dotnet user-secrets list`). By its shape such a key cannot be told from any other 64 random bytes
/// (a SHA-512 digest, an Ed25519 signature, an uncompressed P-256 public key, random test data),
/// so the rule is the name's: a member whose name says the bytes are public by nature (see
/// [`PUBLIC_BLOB_WORDS`], and public keys, see [`names_public`]) keeps its value unless the name
/// also says secret (`passwordHash`), and so does a member that holds output (see
/// [`OUTPUT_MEMBERS`]); under any other name, however plain (`Storage`, `Primary`, `data`), it
/// is hidden: a leaked account key costs more than a random blob hidden by mistake.
pub(super) fn account_key_under(name: &str, value: &str) -> bool {
    static ACCOUNT_KEY: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(&format!("^(?:{ACCOUNT_KEY_SHAPE})$")).expect("account key pattern is valid")
    });
    let public = key_words(name).iter().any(|word| PUBLIC_BLOB_WORDS.contains(&word.as_str())) || names_public(name);
    let output = OUTPUT_MEMBERS.contains(&normalize(name).as_str());
    ACCOUNT_KEY.is_match(value)
        && (!public && !output || matches!(classify_key(name), KeyClass::Secret | KeyClass::Connection))
}

/// Whether a value under a neutral label (`"value"`, `<value>`, `"default"`) looks like a key:
/// 32 or more base64 characters mixing upper case, lower case and digits, and not the data of
/// an embedded file (a `.resx` image).
pub(super) fn key_like(value: &str) -> bool {
    token_like(value, 32)
}

/// Whether `value` is `min` or more base64 characters mixing upper case, lower case and digits,
/// and not the data of an embedded file.
pub(super) fn token_like(value: &str, min: usize) -> bool {
    value.len() >= min
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=_-".contains(&b))
        && [u8::is_ascii_uppercase, u8::is_ascii_lowercase, u8::is_ascii_digit]
            .iter()
            .all(|class| value.bytes().any(|b| class(&b)))
        && !FILE_DATA_OPENINGS.iter().any(|opening| value.starts_with(opening))
}

/// Regex fragment matching one of `words`, where `_` may be `-`, `_`, `.` or nothing.
pub(super) fn words_pattern(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| w.split('_').map(regex::escape).collect::<Vec<_>>().join("[-_.]?"))
        .collect::<Vec<_>>()
        .join("|")
}

/// Whether `value` is the name of a .NET setting, a section's name and a key's joined by `__` or
/// `:` (`ConnectionStrings__Default`, `Jwt:Key`, `Serilog__WriteTo__0__Name`): each part letters,
/// or digits alone (an array's index). A list of such names (`printenv | cut -d= -f1`, an app
/// service's setting names) holds no value, though its names look like a password's mix of cases
/// and symbols.
pub(super) fn is_setting_name(value: &str) -> bool {
    let mut parts = value.split("__").flat_map(|part| part.split(':'));
    let first = parts.next().unwrap_or_default();
    first.starts_with(|c: char| c.is_ascii_alphabetic())
        && first.bytes().all(|b| b.is_ascii_alphabetic())
        && value.len() > first.len()
        && parts.all(|part| {
            !part.is_empty()
                && (part.bytes().all(|b| b.is_ascii_alphabetic()) || part.bytes().all(|b| b.is_ascii_digit()))
        })
}

#[cfg(test)]
mod tests {
    use crate::redact::{
        is_secret_key,
        tests::{each, r},
    };

    #[test]
    fn keys_that_find_data_are_no_secrets() {
        each(&[
            (
                r#"{"PartitionKey": "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "RowKey": "9c1f0e2d3b4a59687f6e5d4c3b2a1908"}"#,
                "",
            ),
            ("Idempotency-Key: 3f2504e0-4f89-11d3-9a0c-0305e82c3301", ""),
            ("CacheKey=Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9", ""),
            // A device's or a storage account's key is a secret.
            (r#""deviceKey": "Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9=""#, r#""deviceKey": "[REDACTED]""#),
            ("StorageKey=Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9", "StorageKey=[REDACTED]"),
            // PagerDuty's `routing_key` is an integration's secret.
            ("routing_key=9c1f0e2d3b4a59687f6e5d4c3b2a1908", "routing_key=[REDACTED]"),
        ]);
    }

    #[test]
    fn a_webhook_signature_named_by_its_algorithm_is_a_digest() {
        each(&[
            ("X-Hub-Signature-256: sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17", ""),
            ("X-Hub-Signature: sha1=7d38cdd689735b008b3c702edd92eea23791c5f6", ""),
            // A generated value under the same weak name that is no digest is still hidden.
            ("X-Signature: Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9", "X-Signature: [REDACTED]"),
        ]);
    }

    #[test]
    fn a_list_of_setting_names_holds_no_value() {
        each(&[
            ("Smtp__Password\nStripe__SecretKey\nConnectionStrings__Default\nJwt:Key", ""),
            ("Stripe__SecretKey\nSerilog__WriteTo__0__Name", ""),
            // A password-like word after a secret-named identifier (`strings app.dll | grep -A1`) is
            // still its value.
            ("SmtpPassword\nWinter__2024!", "SmtpPassword\n[REDACTED]"),
            ("SmtpPassword\nQx7:pp-Lm2", "SmtpPassword\n[REDACTED]"),
        ]);
    }

    #[test]
    fn basic_credentials_in_base64_are_secret_under_a_weak_label() {
        // `jdoe:SB+O%V-ihVIK`: no digit, so they do not look generated.
        for (input, expected) in [
            ("\"auth\": \"amRvZTpTQitPJVYtaWhWSUs=\",", "\"auth\": \"[REDACTED]\","),
            ("//npm.contoso.com/:_auth=amRvZTpTQitPJVYtaWhWSUs=", "//npm.contoso.com/:_auth=[REDACTED]"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        let mut config = serde_json::json!({"auths": {"contoso.azurecr.io": {"auth": "amRvZTpTQitPJVYtaWhWSUs="}}, "credsStore": "desktop"});
        crate::redact::redact_json(&mut config);
        assert_eq!(
            config,
            serde_json::json!({"auths": {"contoso.azurecr.io": {"auth": "[REDACTED]"}}, "credsStore": "desktop"})
        );
        // Base64 of a word is no pair of credentials.
        for kept in ["\"auth\": \"YmFzaWM=\"", "auth: dG9rZW4=", "AUTH_MODE=Q29va2llcw=="] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn git_user_signing_key_stays() {
        let kept = "file:/home/dev/.gitconfig\tuser.signingkey=3AA5C34371567BD2C4F8E1B07D2A9F6E81C3D5B7";
        assert_eq!(r(kept), kept);
        // An app's signing key stays secret.
        assert_eq!(r("Jwt:SigningKey=3AA5C34371567BD2C4F8E1B07D2A9F6E81C3D5B7"), "Jwt:SigningKey=[REDACTED]");
    }

    #[test]
    fn a_public_key_stays_beside_secrets_of_its_shape() {
        let publishable = "pk_live_51Hq8XkLm2Vt9Rb4Zc7Yd1Pn6Hs0Qf3kW8Xw2Vt7Rb1Zc8Yd4Pn6Hs0Qf3kLm9Xw2Vt7Rb1Zc8Yd4P";
        let mut stripe = serde_json::json!({"Stripe": {
            "PublishableKey": publishable,
            "SecretKey": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "WebhookSecret": "whsec_5Wq9Lm2Xk8Vt4Rb7Zc1Yd6Pn3Hs0Qf8K",
        }});
        crate::redact::redact_json(&mut stripe);
        assert_eq!(stripe["Stripe"]["PublishableKey"], publishable);
        for secret in ["SecretKey", "WebhookSecret"] {
            assert!(stripe["Stripe"][secret].as_str().is_some_and(|shown| shown.ends_with("[REDACTED]")), "{stripe}");
        }
        // A keys file's values under names that say nothing are keys.
        let mut keys = serde_json::json!({"openai": "sk-4eC39HqLyjWDarjtT1zdp7dcQf3kLm9Xw2Vt7Rb1", "mistral": "Qf3kLm9Xw2Vt7Rb1Zc8Yd4Pn6Hs0Wq9L"});
        crate::redact::redact_json(&mut keys);
        assert_eq!(keys["mistral"], "[REDACTED]");
    }

    #[test]
    fn auth_inside_authority_or_authentication_is_no_weak_word() {
        // kubeconfig's certificate authority is public; the client key beside it is not.
        let ca = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM1ekNDQWMrZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmw=";
        let kubeconfig = format!(
            "- cluster:\n    certificate-authority-data: {ca}\n    server: https://10.0.0.1:6443\n  name: prod\n"
        );
        assert_eq!(r(&kubeconfig), kubeconfig);
        // An `Authentication` section's public client id stays in text and in JSON; its secret goes.
        let id = "229769682777-5q1gh1a6qs0nn9hqfiv4j38pvws84wm0.apps.googleusercontent.com";
        let mut value = serde_json::json!({
            "Authentication:Google:ClientId": id,
            "Authentication:Google:ClientSecret": "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",
            "Authority": "https://login.microsoftonline.com/4b1f0e6a-9c2d-4e8f-a1b3-c5d7e9f0a2b4/v2.0",
        });
        crate::redact::redact_json(&mut value);
        assert_eq!(value["Authentication:Google:ClientId"], id);
        assert_eq!(value["Authentication:Google:ClientSecret"], "GOCSPX-[REDACTED]");
        assert!(value["Authority"].as_str().is_some_and(|url| url.starts_with("https://login.")));
        // `auth` as a word of its own is still weak: Docker's `"auth"`, `BASIC_AUTH`.
        assert_eq!(r(r#""auth": "ZGVwbG95OnM0eVRxOXdMMnZa""#), r#""auth": "[REDACTED]""#);
        assert_eq!(r("BASIC_AUTH=ZGVwbG95OnM0eVRxOXdMMnZa"), "BASIC_AUTH=[REDACTED]");
    }

    #[test]
    fn key_names_ending_in_a_secret_word() {
        for (input, expected) in [
            ("DB_PWD=orders-7", "DB_PWD=[REDACTED]"),
            ("SMTP_PASS=relay!", "SMTP_PASS=[REDACTED]"),
            ("smtpPass: relay", "smtpPass: [REDACTED]"),
            (r#"userPWD="Abc123""#, r#"userPWD="[REDACTED]""#),
            ("DB_PWD_2=q", "DB_PWD_2=[REDACTED]"),
            ("JwtSecret=long-enough-signing-secret", "JwtSecret=[REDACTED]"),
            ("AzureAd__ClientSecret=abc", "AzureAd__ClientSecret=[REDACTED]"),
            ("ASP.NET_SessionId=x4bq0vj2", "ASP.NET_SessionId=[REDACTED]"),
            ("ENCRYPTION_KEY=9f8e7d6c5b4a39281706f5e4d3c2b1a0", "ENCRYPTION_KEY=[REDACTED]"),
            ("ADO_PAT=abcdefghijklmnopqrstuvwxyz234567", "ADO_PAT=[REDACTED]"),
            ("SDK_CONTAINER_REGISTRY_PWORD=pw-1", "SDK_CONTAINER_REGISTRY_PWORD=[REDACTED]"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        for kept in [
            "OLDPWD=/home/dev",
            "bypass=1",
            "DEFAULT_SORT_KEY=createdAt",
            "COSMOS_PARTITION_KEY=/tenantId",
            "TokenLifetimeMinutes: 60",
            "PASSWORD_MIN_LENGTH=12",
            "MYSQL_PASSWORD_FILE=/run/secrets/db",
            "KeyVault__SecretName=DbPassword",
            "PATH=/usr/bin",
            // Microsoft documents the instrumentation key as an identifier, not a secret.
            "APPINSIGHTS_INSTRUMENTATIONKEY=0b6e3c1a-52f7-4d2e-9a8b-7c6d5e4f3a2b",
            "DenyAnonymousAuthorizationRequirement: Requires an authenticated user.",
            "Microsoft.IdentityModel.Tokens.SecurityTokenExpiredException: IDX10223: Lifetime validation failed.",
        ] {
            assert_eq!(r(kept), kept);
        }
        // A name that turns out not to be secret still has its value scanned.
        assert_eq!(r("TokenEndpoint=https://ci:hunter2@id.example"), "TokenEndpoint=https://ci:[REDACTED]@id.example");
    }

    #[test]
    fn a_shared_access_signature_named_sas() {
        for (input, expected) in [
            (
                "      Uploader ready: container=invoices, sas=Xk2pQ9vLrT7mWz4bYc1NdF8hJs3GaE6uKo0Ri5Vt+yA=",
                "      Uploader ready: container=invoices, sas=[REDACTED]",
            ),
            (r#"{ "BlobSas": "se=2031-01-01&sp=r&sv=2024-05-04&sr=b" }"#, r#"{ "BlobSas": "[REDACTED]" }"#),
            ("EVENTS_SAS=q7Ls0aXw", "EVENTS_SAS=[REDACTED]"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        for kept in ["Region=Kansas", "SasExpiryHours=12", "sas_url_path=/upload"] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn a_graph_subscription_client_state() {
        for (input, expected) in [
            (
                "Renewed subscription for /teams/all/messages, clientState=Zr8kQ2mW-pL5xN7vB3cT9yH1, expires in 1h",
                "Renewed subscription for /teams/all/messages, clientState=[REDACTED], expires in 1h",
            ),
            (
                r#"{ "changeType": "created", "clientState": "hooks-4711" }"#,
                r#"{ "changeType": "created", "clientState": "[REDACTED]" }"#,
            ),
            ("GRAPH_CLIENT_STATE=abc", "GRAPH_CLIENT_STATE=[REDACTED]"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        let kept = "state=af0ifjsldkj&session_state=0b6e3c1a";
        assert_eq!(r(kept), kept);
    }

    #[test]
    fn secret_key_names() {
        for name in [
            "password",
            "Pwd",
            "client_secret",
            "AccessToken",
            "apiKey",
            "connectionString",
            "AccountKey",
            "SharedAccessSignature",
        ] {
            assert!(is_secret_key(name), "{name}");
        }
        for name in ["name", "PublicKeyToken", "UserSecretsId", "keyFile", "bypass", "OLDPWD"] {
            assert!(!is_secret_key(name), "{name}");
        }
    }

    #[test]
    fn a_connection_named_with_a_describing_word_is_still_a_connection_string() {
        each(&[
            (
                r#"        "ConnectionStrings__Blobs": "AccountName=fab;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net","#,
                r#"        "ConnectionStrings__Blobs": "AccountName=fab;AccountKey=[REDACTED];EndpointSuffix=core.windows.net","#,
            ),
            (
                r#"    "ConnectionStrings__Store": "Host=pg;Username=u;Password=Pw-77x;Pooling=true","#,
                r#"    "ConnectionStrings__Store": "Host=pg;Username=u;Password=[REDACTED];Pooling=true","#,
            ),
            (r#""CONNECTIONSTRINGS__STORAGE": "UseDevelopmentStorage=true""#, ""),
        ]);
        assert!(is_secret_key("Api__ConnectionStrings__Path"));
        assert!(!is_secret_key("Database__ConnectionTimeout"));
    }

    #[test]
    fn a_server_named_for_what_it_issues_is_no_secret() {
        each(&[
            (r#"  "AuthorizationServerId": "ausq9Zt2rLm4Hk7Wd1x6","#, ""),
            ("Identity__TokenServerHost=sts.fabrikam.example", ""),
            ("authorization_server: default", ""),
            // A secret of such a server, or a secret word after it, is still one.
            ("AuthorizationServerClientSecret=Lq8-zz.Wm", "AuthorizationServerClientSecret=[REDACTED]"),
            ("TokenServer__Password=s3rv3r-pw", "TokenServer__Password=[REDACTED]"),
            ("CosmosAuthorizationKey=pw-kept-out", "CosmosAuthorizationKey=[REDACTED]"),
        ]);
    }

    #[test]
    fn identifiers_digests_and_rule_names_under_secret_words_stay() {
        for kept in [
            "Vonage:ApiKeySid = SKa1b2c3d4e5f60718293a4b5c6d7e8f90",
            "Signing:CertificateThumbprint = 3F2A8C1E5B7D4E2A9C1F0A1B2C3D4E5F6A7B8C9D",
            " - TokenUsedInLog: Avoid writing access tokens to the log (line 12)",
            r#"{ "Password": "ChangeMe", "SecretKey": "rk_test_INSERT_KEY_HERE" }"#,
            "[Parameters=[@__apiKey_0='?' (Size = 64), @__user_1='?' (Size = 256)], CommandType='Text'",
            r#"Missing Api:Token (run: dotnet user-secrets set "Api:Token" <token>)"#,
            "SecurePassword : System.Security.SecureString",
        ] {
            assert_eq!(r(kept), kept);
        }
    }
}
