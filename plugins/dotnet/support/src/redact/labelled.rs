//! Labelled values: how a value shows under a label of each class (`key=value`, JSON, YAML,
//! XML attributes, cookies, authorization parameters, EF Core parameters, call arguments).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::{
    REDACTED,
    cli::{IDENTIFIER, split_option_list},
    connection::{own_labels, redact_connection_string, split_connection_string},
    keys::{
        KeyClass, basic_credentials, classify_key, is_guid, is_qualified_name, is_session_key, key_like, key_words,
        looks_generated, named_digest, normalize, password_shaped,
    },
    patterns::{CONTEXT_FREE, SHAPES, named_call, redact_with, url_scheme},
    prose::{generated_token, other_script, password_like},
    replace::LAYOUT_FIELD,
    stand_in::{is_stand_in, mask, unwrap},
    tokens::secret_like_token,
};

/// .NET calls that take a credential by position, and which of their arguments (from 0) hold it:
/// an HTTP authorization header's parameter, a user's password, a cloud SDK's key or secret.
pub(super) const CREDENTIAL_CALLS: &[(&str, &[usize])] = &[
    ("AuthenticationHeaderValue", &[1]),
    ("NetworkCredential", &[1]),
    ("BasicAWSCredentials", &[1]),
    ("SessionAWSCredentials", &[1, 2]),
    ("StorageSharedKeyCredential", &[1]),
    ("AzureNamedKeyCredential", &[1]),
    ("ClientSecretCredential", &[2]),
    ("UsernamePasswordCredential", &[1]),
    ("AzureKeyCredential", &[0]),
    ("AzureSasCredential", &[0]),
    ("ApiKeyCredential", &[0]),
    ("ApiKeyServiceClientCredentials", &[0]),
    ("TwilioClient.Init", &[1]),
    ("TwilioRestClient", &[1]),
];

/// The arguments (`args`, between the parentheses) of `call`, one of [`CREDENTIAL_CALLS`]: a
/// string literal at a secret position is masked inside its quotes; every other argument, also
/// one passed by name (`password: "..."`), is scanned as text.
pub(super) fn credential_arguments(call: &str, args: &str) -> String {
    let secret = CREDENTIAL_CALLS
        .iter()
        .find(|(name, _)| call.trim_end_matches(['(', ' ', '\t']).ends_with(name))
        .map_or(&[][..], |(_, positions)| *positions);
    let mut pieces = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (at, c) in args.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                pieces.push(&args[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    pieces.push(&args[start..]);
    let shown: Vec<String> = pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            let body = piece.trim();
            let literal = body.strip_prefix('@').unwrap_or(body);
            if secret.contains(&i) && literal.len() >= 2 && literal.starts_with('"') && literal.ends_with('"') {
                let at = piece.find(literal).unwrap_or_default();
                format!("{}{}{}", &piece[..at], mask(literal), &piece[at + literal.len()..])
            } else {
                redact_with(&CONTEXT_FREE, piece).into_owned()
            }
        })
        .collect();
    shown.join(",")
}

/// How `value` (quoted or not) shows under a label of class `class`: `Some` with what the label
/// makes secret replaced, or `None` when the label makes nothing of it secret (the caller scans
/// it as ordinary text).
pub(super) fn redact_labelled(class: KeyClass, value: &str) -> Option<String> {
    let (open, inner, close) = unwrap(value);
    match class {
        KeyClass::Secret => Some(mask(value)),
        KeyClass::Connection if is_stand_in(inner) => Some(value.to_owned()),
        KeyClass::Connection => {
            Some(redact_connection_string(inner).map_or_else(|| mask(value), |shown| format!("{open}{shown}{close}")))
        }
        KeyClass::Weak
            if looks_generated(inner) && !named_digest(inner) || password_shaped(inner) || basic_credentials(inner) =>
        {
            Some(mask(value))
        }
        KeyClass::Neutral if key_like(inner) => Some(mask(value)),
        _ => None,
    }
}

/// A member of a map of keys (see [`names_key_map`](super::keys::names_key_map)), the JSON
/// member's name and its quoted value: `"name": "value"`, the value captured.
pub(super) static KEY_MAP_MEMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?P<member>"(?P<member_name>(?:[^"\\\r\n]|\\.)*)"[ \t]*:[ \t]*)(?P<member_val>"(?:[^"\\\r\n]|\\.)*")"#,
    )
    .expect("key map member pattern is valid")
});

/// How the quoted `value` of a member of a map of keys shows: as secret as the member's own name
/// says when that says more (`password`), else as a key's (hidden when it looks generated).
pub(super) fn key_map_member(name: &str, value: &str) -> String {
    let class = match classify_key(name) {
        class @ (KeyClass::Secret | KeyClass::Connection) => class,
        _ => KeyClass::Weak,
    };
    redact_labelled(class, value).unwrap_or_else(|| redact_with(&SHAPES, value).into_owned())
}

/// The members of a map of keys (see [`names_key_map`](super::keys::names_key_map)), each value
/// as [`key_map_member`] shows it.
pub(super) fn key_map_members(members: &str) -> String {
    KEY_MAP_MEMBER
        .replace_all(members, |m: &Captures<'_>| {
            format!("{}{}", &m["member"], key_map_member(&m["member_name"], &m["member_val"]))
        })
        .into_owned()
}

pub(super) fn text<'h>(caps: &Captures<'h>, name: &str) -> &'h str {
    caps.name(name).map_or("", |m| m.as_str())
}

/// A label that turned out not to be secret, kept, with its value scanned again.
pub(super) fn keep(label: &str, value: &str) -> String {
    format!("{label}{}", redact_with(&SHAPES, value))
}

/// A label of class `class` and its value: the value redacted as the label makes it secret,
/// else scanned for the forms known by their shape.
pub(super) fn labelled(label: &str, class: KeyClass, value: &str) -> String {
    match redact_labelled(class, value) {
        Some(shown) => format!("{label}{shown}"),
        None => keep(label, value),
    }
}

/// Whether a cookie is one of the markers ASP.NET Core's remote authentication writes with the
/// constant value `N` (`.AspNetCore.Correlation.*`, `.AspNetCore.OpenIdConnect.Nonce.*`): the
/// value is not a secret, and the random part of the name is a correlation id. Also the count
/// its chunking cookie manager writes under the cookie's own name when it splits a large cookie
/// (`.AspNetCore.Cookies=chunks-2`; the chunks `...C1`, `...C2` hold the payload).
fn is_marker_cookie(name: &str, value: &str) -> bool {
    value == "N" && [".AspNetCore.Correlation.", ".AspNetCore.OpenIdConnect.Nonce."].iter().any(|m| name.contains(m))
        || value.strip_prefix("chunks-").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Cookies that carry no credential: analytics ids (Application Insights' `ai_user` and
/// `ai_session`, Google Analytics' `_ga*`, `_gid`), consent, culture and load-balancer affinity.
fn is_public_cookie(name: &str) -> bool {
    let name = name.trim();
    [
        "ai_user",
        "ai_session",
        "_gid",
        "_gat",
        "_gcl_au",
        "_fbp",
        "ARRAffinity",
        "ARRAffinitySameSite",
        ".AspNetCore.Culture",
        ".AspNetCore.Consent",
        "cookieconsent_status",
        "OptanonConsent",
    ]
    .contains(&name)
        || name == "_ga"
        || name.starts_with("_ga_")
}

/// The pairs of a cookie header with their values redacted: every pair of `Cookie:`, the first
/// of `Set-Cookie:` (the attributes after it stay). Names and parts without a value are scanned
/// again: a Data Protection payload can be a cookie's name (`.AspNetCore.OpenIdConnect.Nonce.CfDJ8...`).
pub(super) fn mask_cookies(pairs: &str, first_only: bool) -> String {
    pairs
        .split(';')
        .enumerate()
        .map(|(i, pair)| match pair.split_once('=') {
            Some((name, value))
                if (i == 0 || !first_only)
                    && !value.trim().is_empty()
                    && !is_marker_cookie(name, value)
                    && !is_public_cookie(name) =>
            {
                format!("{}={REDACTED}", redact_with(&SHAPES, name))
            }
            _ => redact_with(&SHAPES, pair).into_owned(),
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// The part after `Name:` in a configuration key path used as a name (`ConnectionStrings:Default`,
/// `Jwt:Secret:Key`): segments in PascalCase without digits, which a secret value is not.
static CONFIG_SEGMENTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Z][a-z]+(?:[A-Z][a-z]*)*(?::[A-Z][A-Za-z0-9]*)*$").expect("segments pattern is valid")
});

/// The value of an HTTP authorization header named `name` (`Authorization`, `Proxy-Authorization`)
/// as text shows it after `Authorization: `: the scheme kept (`Bearer [REDACTED]`), and the public
/// fields of a scheme with parameters (a SAS token's `sr`, `se`, `skn`; Digest's `realm`). The
/// same rule as text, so structured content shows what the model sees. `None` for another name,
/// or when text would hide nothing of it, so the caller hides it whole.
pub(super) fn authorization_value(name: &str, value: &str) -> Option<String> {
    const HEADER: &str = "Authorization: ";
    let header = ["authorization", "proxy-authorization"].iter().any(|header| name.eq_ignore_ascii_case(header));
    header
        .then(|| redact_with(&CONTEXT_FREE, &format!("{HEADER}{value}")).into_owned())
        .and_then(|shown| shown.strip_prefix(HEADER).filter(|shown| shown.contains(REDACTED)).map(str::to_owned))
}

/// Parameters of an authorization scheme that are public: the realm, user, URI, nonces and
/// options of Digest (RFC 7616: the server's `nonce` and the client's `cnonce` travel in the clear
/// so that each `response` differs; the `response`, a hash of the password with them, is what
/// is secret), the OAuth 1.0 consumer, method, time and nonce, an HTTP signature's key id and headers,
/// AWS Signature V4's credential scope and signed headers. Every other parameter is masked.
const PUBLIC_AUTH_PARAMS: &[&str] = &[
    "realm",
    "username",
    "uri",
    "qop",
    "nc",
    "algorithm",
    "opaque",
    "nonce",
    "cnonce",
    "charset",
    "userhash",
    "oauthconsumerkey",
    "oauthsignaturemethod",
    "oauthtimestamp",
    "oauthnonce",
    "oauthversion",
    "oauthcallback",
    "keyid",
    "headers",
    "created",
    "expires",
    "signedheaders",
];

/// The value of an authorization scheme's parameter: quoted, also JSON-escaped inside a JSON
/// string (`response=\"...\"` of a logged header, escaped again at each level of JSON in JSON,
/// or System.Text.Json's `\u0022...\u0022`),
/// or bare to a `,`, a blank, a quote or a backslash (an escaped line break, `\r\n`, ends the
/// header). One pattern for the `hdrp` form, which finds the parameters, and
/// [`mask_auth_params`], which judges each.
pub(super) const AUTH_PARAM_VALUE: &str =
    r#""[^"\r\n]*"|\\+"(?:[^"\\\r\n]|\\+[^"\\\r\n])*\\+"|\\u0022[^"\\\r\n]*\\u0022|[^\s,"'\\]+"#;

/// The `name="value"` parameters of an authorization scheme with every value masked but the
/// public ones (see [`PUBLIC_AUTH_PARAMS`]), which are scanned for the forms known by their shape.
pub(super) fn mask_auth_params(params: &str) -> String {
    static PARAM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(r"(?P<name>[A-Za-z_][A-Za-z0-9_-]*)(?P<eq>[ \t]*=[ \t]*)(?P<value>{AUTH_PARAM_VALUE})"))
            .expect("parameter pattern is valid")
    });
    PARAM
        .replace_all(params, |caps: &Captures<'_>| {
            let (name, value) = (&caps["name"], &caps["value"]);
            let shown = if normalize(name) == "credential" {
                // AWS Signature V4's scope: the access key id, date, region and service, which
                // every request sends in the clear; the signature is what is secret.
                value.to_owned()
            } else if PUBLIC_AUTH_PARAMS.contains(&normalize(name).as_str()) {
                redact_with(&SHAPES, value).into_owned()
            } else {
                mask(value)
            };
            format!("{name}{}{shown}", &caps["eq"])
        })
        .into_owned()
}

/// An XML start tag whose `key` or `name` attribute names a secret, with its `value` attribute
/// judged by that name as any label is; the other attributes are scanned for the forms known
/// by their shape.
pub(super) fn mask_xml_attributes(tag: &str) -> String {
    static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?P<name>[A-Za-z_:][A-Za-z0-9_.:-]*)(?P<eq>[ \t]*=[ \t]*)(?P<value>"[^"\r\n]*"|'[^'\r\n]*')"#)
            .expect("attribute pattern is valid")
    });
    let class = ATTRIBUTE
        .captures_iter(tag)
        .find(|caps| ["key", "name", "include"].iter().any(|name| caps["name"].eq_ignore_ascii_case(name)))
        .map_or(KeyClass::Plain, |caps| classify_key(unwrap(&caps["value"]).1));
    ATTRIBUTE
        .replace_all(tag, |caps: &Captures<'_>| {
            let (name, value) = (&caps["name"], &caps["value"]);
            let shown = match redact_labelled(class, value) {
                Some(shown) if name.eq_ignore_ascii_case("value") => shown,
                _ => redact_with(&SHAPES, value).into_owned(),
            };
            format!("{name}{}{shown}", &caps["eq"])
        })
        .into_owned()
}

/// EF Core's logged parameters (`@p0='mkoenig@contoso.com' (Size = 256), @p1='...'`) with the
/// values masked whose name says secret (`@__password_0`, `@ApiKey`), that fill a column whose name
/// says secret (`secret`, from the SQL logged after the list, see [`secret_parameters`]: a weak
/// password looks like any word), or that look like a generated secret (mixed case and digits, no
/// blank, also random bytes in base64 with its `/`, see [`random_base64`]: a line-by-line reader
/// has no SQL to go by).
pub(super) fn mask_ef_parameters(list: &str, secret: &[&str]) -> String {
    static PARAMETER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?P<name>@[A-Za-z0-9_]+)(?P<eq>=')(?P<value>(?:[^'\r\n]|'')*)'")
            .expect("parameter pattern is valid")
    });
    PARAMETER
        .replace_all(list, |caps: &Captures<'_>| {
            let (name, value) = (&caps["name"], &caps["value"]);
            let secret = !is_stand_in(value)
                && (matches!(classify_key(name.trim_start_matches('@')), KeyClass::Secret | KeyClass::Connection)
                    || secret.contains(&name)
                    || secret_like_token(value)
                    || random_base64(value));
            let shown = if secret { REDACTED.to_owned() } else { redact_with(&SHAPES, value).into_owned() };
            format!("{name}{}{shown}'", &caps["eq"])
        })
        .into_owned()
}

/// Whether a parameter's value is random bytes in base64 whose alphabet put a `/` in it (a
/// refresh token, a key, a password hash: `...Xq/Lm4...==`), which [`secret_like_token`] leaves
/// for a path: base64 characters only, whole groups of four with at most two `=` of padding, 20
/// or more, a piece between slashes of 16 or more mixing cases and digits, and capitals and
/// small letters each an eighth of it or more, as random letters are and a path's words
/// (`docs/Release/Notes/Version10Final2027/v2`) are not.
fn random_base64(value: &str) -> bool {
    let data = value.trim_end_matches('=');
    let count = |test: fn(&u8) -> bool| data.bytes().filter(test).count();
    value.len() >= 20
        && value.len().is_multiple_of(4)
        && value.len() - data.len() <= 2
        && data.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        && data.split('/').any(|piece| piece.len() >= 16 && secret_like_token(piece))
        && count(u8::is_ascii_uppercase).min(count(u8::is_ascii_lowercase)) >= value.len() / 8
}

/// The parameters of an EF Core command's SQL that fill a column whose name says secret
/// (`[PasswordHash]`, `"ApiToken"`): by position in an `INSERT ... (columns) ... VALUES (@p0, ...),
/// (...)` and in SQL Server's batched `MERGE ... USING (VALUES (@p0, ..., 0), ...) AS i (columns,
/// _Position)`, and by name in `column = @p0` (`UPDATE ... SET`, `WHERE`).
pub(super) fn secret_parameters(sql: &str) -> Vec<&str> {
    static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"([A-Za-z0-9_]+)["\]`]?[ \t]*=[ \t]*(@[A-Za-z0-9_]+)"#).expect("assignment pattern is valid")
    });
    static INSERTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)insert[ \t]+into[^(;]*\(([^()]*)\)[^();]*?values\s*((?:\([^()]*\)\s*,?\s*)+)")
            .expect("insert pattern is valid")
    });
    static MERGED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)using\s*\(\s*values\s*((?:\([^()]*\)\s*,?\s*)+)\)\s*as[ \t]+[A-Za-z0-9_]+[ \t]*\(([^()]*)\)")
            .expect("merge pattern is valid")
    });
    static ROW: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\(([^()]*)\)").expect("row pattern is valid"));
    let secret_column = |name: &str| {
        matches!(classify_key(name.trim().trim_matches(['"', '[', ']', '`'])), KeyClass::Secret | KeyClass::Connection)
    };
    let mut secret: Vec<&str> = ASSIGNED
        .captures_iter(sql)
        .filter(|caps| secret_column(&caps[1]))
        .map(|caps| caps.get(2).map_or("", |m| m.as_str()))
        .collect();
    let by_position = INSERTED
        .captures_iter(sql)
        .filter_map(|caps| Some((caps.get(1)?.as_str(), caps.get(2)?.as_str())))
        .chain(MERGED.captures_iter(sql).filter_map(|caps| Some((caps.get(2)?.as_str(), caps.get(1)?.as_str()))));
    for (columns, rows) in by_position {
        let columns: Vec<bool> = columns.split(',').map(secret_column).collect();
        for row in ROW.captures_iter(rows).filter_map(|caps| caps.get(1)) {
            secret.extend(
                row.as_str()
                    .split(',')
                    .map(str::trim)
                    .zip(&columns)
                    .filter(|(item, secret)| **secret && item.starts_with('@'))
                    .map(|(item, _)| item),
            );
        }
    }
    secret
}

/// A secret-labelled value (the `key` form of `rules`) as it shows, its label kept.
pub(super) fn labelled_value(caps: &Captures<'_>, key: &str, label: &str, value: &str) -> String {
    // A PEM private key whose BEGIN line ends the label's line (`GitHub:PrivateKey = -----BEGIN
    // RSA PRIVATE KEY-----`, the key's lines after it): the PEM form shows it, its BEGIN and END
    // lines kept, as without the label.
    let first_line = value.lines().next().unwrap_or_default().trim_end();
    if first_line.starts_with("-----BEGIN ") && first_line.ends_with("-----") && !first_line.contains("-----END ") {
        return format!("{label}{}", redact_with(&CONTEXT_FREE, value));
    }
    // `ConnectionStrings:Default`, `Jwt:Secret:Key`: a configuration key path used as a name.
    if &caps["key_sep"] == ":" && CONFIG_SEGMENTS.is_match(value) {
        return format!("{label}{value}");
    }
    // `path:rule:LINE`, a scanner's fingerprint (`...:generic-api-key:12`): a line number.
    if &caps["key_sep"] == ":" && value.len() <= 6 && value.bytes().all(|b| b.is_ascii_digit()) {
        return format!("{label}{value}");
    }
    // A setting's quoted name with dots (`"Security.Certificate.Password": ...`) is not a .NET
    // name: its last part says what it holds.
    let quoted_name = caps["key_sep"].starts_with(['"', '\'']);
    let class = match key.rsplit_once('.') {
        Some((_, last)) if quoted_name && is_qualified_name(key) => classify_key(last),
        _ => classify_key(key),
    };
    // A session id that is a GUID names a build's, a test run's or telemetry's session
    // (`MSBuildRestoreSessionId = <guid>` in a diagnostic build log); a web session's id is none.
    if is_session_key(key) && is_guid(unwrap(value).1) {
        return format!("{label}{value}");
    }
    // A reference to a parameter or variable named for the same secret (Bicep's
    // `administratorLoginPassword: adminPassword`): an identifier in camelCase, letters only.
    if IDENTIFIER.is_match(value) && key_words(value).last() == key_words(key).last() {
        return format!("{label}{value}");
    }
    // A SAS signature is URL-encoded base64: a comma ends it (`sig=...%3D,readwrite`).
    if normalize(key) == "sig"
        && let Some((head, tail)) = value.split_once(',')
    {
        return format!("{},{}", labelled(label, class, head), redact_with(&SHAPES, tail));
    }
    let (open, inner, close) = unwrap(value);
    if class == KeyClass::Secret
        && let Some(shown) = own_labels(inner)
    {
        return format!("{label}{open}{shown}{close}");
    }
    // `cat -A`'s line end (`^M$`: the carriage return shown, then the end of the line) is not part
    // of a bare value.
    if open.is_empty()
        && let Some(head) = value.strip_suffix("^M$").filter(|head| !head.is_empty())
    {
        return format!("{}^M$", labelled_value(caps, key, label, head));
    }
    // A layout's field separator ends a bare value (NLog's `...|AuthToken=x|url: ...`).
    if open.is_empty()
        && let Some(at) = value.find('|').filter(|at| *at > 0 && LAYOUT_FIELD.is_match(&value[at + 1..]))
    {
        return format!("{}{}", labelled(label, class, &value[..at]), redact_with(&SHAPES, &value[at..]));
    }
    // A bare value followed by more options of the same list (`password=x,ssl=True`,
    // StackExchange.Redis): the value ends at the first comma after which the rest is a list.
    if open.is_empty()
        && class != KeyClass::Connection
        && let Some((head, tail)) = split_option_list(value)
    {
        return format!("{}{tail}", labelled(label, class, head));
    }
    // A YAML flow mapping under a secret name (Envoy's `password: { inline_string: "..." }`): each
    // member holds it (a file's path or a reference stays, see [`mask`]); so does each argument
    // of a call with named arguments (`setSecret(name: "env:TOKEN")`).
    if class == KeyClass::Secret
        && let Some(shown) = flow_mapping(value).or_else(|| named_arguments(value))
    {
        return format!("{label}{shown}");
    }
    // A list of strings on one line under a secret or weak name (Duende's `"ClientSecrets": [
    // "..." ]`, `"ApiKeys": ["...", "..."]`): each string is judged as the name's value, the
    // brackets, quotes and commas stay.
    if matches!(class, KeyClass::Secret | KeyClass::Weak)
        && let Some(shown) = string_list(class, value)
    {
        return format!("{label}{shown}");
    }
    // A bare value inside a JSON string ends at an escaped line break, and so does the full stop of
    // the sentence before it (`...?access_token=VALUE.\n  Response status code ...`); a PEM key's
    // escaped line breaks are its own.
    if open.is_empty()
        && !value.starts_with("-----BEGIN ")
        && let Some(at) = value.find("\\n").or_else(|| value.find("\\r")).filter(|at| *at > 0)
    {
        let head = value[..at].strip_suffix('.').filter(|head| !head.is_empty()).unwrap_or(&value[..at]);
        return format!("{}{}", labelled(label, class, head), redact_with(&SHAPES, &value[head.len()..]));
    }
    // A bare value glued to a message in another script (`= VALUE을(를) 저장했습니다.`) ends there.
    if open.is_empty()
        && let Some(at) = value.find(other_script).filter(|at| *at > 0)
    {
        return format!("{}{}", labelled(label, class, &value[..at]), redact_with(&SHAPES, &value[at..]));
    }
    // A secret given as `USER:PASSWORD` (Milvus' `token="user:password"`): the user stays.
    if class == KeyClass::Secret
        && let Some((user, secret)) = user_and_secret(inner)
    {
        return format!("{label}{open}{user}:{}{close}", mask(secret));
    }
    labelled(label, class, value)
}

/// The lines a bare value goes on over after a `\` glued to its end (the `key_more` part of the
/// `key` form of `rules`: `sed -n l` folds a long line with a `\`, a shell joins `VALUE\` and the
/// next line into one word): hidden when the value was, each line keeping its `\`, its line break
/// and `sed`'s `$`; scanned as any text otherwise (a quoted value does not go on).
pub(super) fn continued_value<'a>(more: &'a str, shown: &str) -> Cow<'a, str> {
    if !shown.ends_with(REDACTED) {
        return redact_with(&CONTEXT_FREE, more);
    }
    let lines: Vec<String> = more
        .split('\n')
        .enumerate()
        .map(|(i, line)| {
            let body = line.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || "+/=_.~-".contains(c));
            if i == 0 { line.to_owned() } else { format!("{REDACTED}{body}") }
        })
        .collect();
    Cow::Owned(lines.join("\n"))
}

/// `value` as `USER:SECRET` when it reads as a user name and a secret after a colon: the user a
/// word (letters first, then letters, digits, `_`, `.`, `-` or `@`) that reads as neither a
/// password nor a generated token, the secret a blank-free run that is no path, URL or stand-in.
fn user_and_secret(value: &str) -> Option<(&str, &str)> {
    let (user, secret) = value.split_once(':')?;
    let user_like = user.len() <= 64
        && user.starts_with(|c: char| c.is_ascii_alphabetic())
        && user.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-@".contains(&b))
        && !password_like(user)
        && !generated_token(user);
    let secret_like = !secret.is_empty()
        && !secret.starts_with(['/', '\\'])
        && !secret.contains(char::is_whitespace)
        && !is_stand_in(secret);
    (user_like && secret_like && !is_stand_in(value)).then_some((user, secret))
}

/// A value `dotnet user-secrets set` saved: secret whatever its key, hidden whole unless its own
/// form says which part is secret (a connection string's password, a URL's credentials, a JSON
/// object's secret members), so the server, database and options beside it stay readable. A
/// connection string whose secret parts only stand in for one (`User ID=bob;Password=***`, the
/// example of `dotnet user-secrets set -h`) shows as it is.
pub(super) fn saved_secret(value: &str) -> String {
    static URL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(concat!("^", url_scheme!())).expect("URL scheme pattern is valid"));
    let pairs = split_connection_string(value);
    let secret = |name: &str| classify_key(name) == KeyClass::Secret;
    if pairs.len() >= 2
        && pairs.iter().any(|(name, _)| secret(name))
        && pairs.iter().all(|(name, part)| !secret(name) || is_stand_in(unwrap(part).1))
    {
        return value.to_owned();
    }
    own_labels(value)
        .or_else(|| URL.is_match(value).then(|| redact_with(&CONTEXT_FREE, value).into_owned()))
        .filter(|shown| shown != value)
        .unwrap_or_else(|| mask(value))
}

/// A YAML flow mapping (`{ name: value, ... }`) with every member's value masked, or `None` when
/// `value` is not one (an ODBC `{...}` value).
fn flow_mapping(value: &str) -> Option<String> {
    static OPENING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\{[ \t]*[A-Za-z_][A-Za-z0-9_.-]*:[ \t]").expect("flow mapping pattern is valid")
    });
    static MEMBER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?P<name>[A-Za-z_][A-Za-z0-9_.-]*:[ \t]*)(?P<value>"[^"\r\n]*"|'[^'\r\n]*'|[^,{}\s](?:[^,{}\r\n]*[^,{}\s])?)"#)
            .expect("flow mapping member pattern is valid")
    });
    OPENING.is_match(value).then(|| {
        MEMBER
            .replace_all(value, |caps: &Captures<'_>| format!("{}{}", &caps["name"], mask(&caps["value"])))
            .into_owned()
    })
}

/// `value` with each string of it judged under a label of class `class`, when it is a list of
/// strings on one line (`[ "a", "b" ]`); `None` otherwise.
fn string_list(class: KeyClass, value: &str) -> Option<String> {
    static LIST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"^\[[ \t]*"(?:[^"\\\r\n]|\\.)*"(?:[ \t]*,[ \t]*"(?:[^"\\\r\n]|\\.)*")*[ \t]*\]$"#)
            .expect("string list pattern is valid")
    });
    static ITEM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""(?:[^"\\\r\n]|\\.)*""#).expect("string list item pattern is valid"));
    LIST.is_match(value).then(|| {
        ITEM.replace_all(value, |caps: &Captures<'_>| {
            redact_labelled(class, &caps[0]).unwrap_or_else(|| caps[0].to_owned())
        })
        .into_owned()
    })
}

/// The named arguments of a test's display name (`password: "abc", n: 3`): a test's data, hidden
/// under a secret name only when it reads as a password or a generated token (`"abc"`, `""`
/// and `null` stay); the other values are scanned for the forms known by their shape.
pub(super) fn test_arguments(args: &str) -> String {
    static ARGUMENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?P<name>[a-z][A-Za-z0-9_]*:[ \t])(?P<value>"(?:[^"\\\r\n]|\\.)*"|[^",()\r\n]*)"#)
            .expect("argument pattern is valid")
    });
    ARGUMENT
        .replace_all(args, |caps: &Captures<'_>| {
            let (name, value) = (&caps["name"], &caps["value"]);
            let inner = unwrap(value).1;
            let secret = matches!(classify_key(name.trim_end_matches([':', ' ', '\t'])), KeyClass::Secret)
                && (password_like(inner) || generated_token(inner));
            // A connection string as a test's data is judged part by part.
            if secret {
                format!("{name}{}", mask(value))
            } else {
                format!("{name}{}", redact_with(&CONTEXT_FREE, value))
            }
        })
        .into_owned()
}

/// A call with named arguments (see [`named_call`]) with each quoted argument masked as a value of
/// its own, so a reference (`env:NUGET_TOKEN`, `file:./secret`) stays, or `None` when `value` is
/// not one.
fn named_arguments(value: &str) -> Option<String> {
    static CALL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(concat!("^", named_call!(), "$")).expect("named call pattern is valid"));
    static LITERAL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""[^"\r\n]*"|'[^'\r\n]*'"#).expect("literal pattern is valid"));
    CALL.is_match(value).then(|| LITERAL.replace_all(value, |caps: &Captures<'_>| mask(&caps[0])).into_owned())
}

/// A value under a weak label (the `weak` form of `rules`).
pub(super) fn weak(caps: &Captures<'_>) -> String {
    // Only the weak-label alternative is left; a `public key: ...` is not a secret.
    let label = &caps["weak"];
    // A word with a password's symbol is a secret only when it reads as a password (a URL with a
    // `#fragment` is not one, however generated it looks).
    let not_password = caps.name("weak_pwd").is_some_and(|word| !password_shaped(word.as_str()));
    if caps.name("weak_public").is_some() || not_password {
        return keep(label, &caps["weak_val"]);
    }
    labelled(label, classify_key(label), &caps["weak_val"])
}

#[cfg(test)]
mod tests {
    use crate::redact::{
        REDACTED,
        lines::LineRedactor,
        tests::{each, each_and_lines, r},
    };

    use std::borrow::Cow;

    #[test]
    fn a_pem_private_key_that_starts_on_its_label_s_line_is_hidden_to_its_end_line() {
        // `dotnet user-secrets list` prints a multi-line value as it is: the BEGIN line after
        // `KEY = `, the body and END lines after it; other labels and kinds alike.
        let body = "MIIBOwIBAAJBAL7qz3Fk9Rt2Wc+Yp0Lm4Xs8Dv1Nq6Hj5Ke2Ui7Oa3Pb9Zr0Tx4S\nVd8Gf2Hk6Jl0Mn4Qp8Rs2Tu6Wx0Yz4Ab8Cd2Ef6Gh0Ij4Kl8Mn2Op6Qr0St4Uv==";
        for (label, kind, after) in [
            ("Signing:PrivateKey = ", "RSA PRIVATE KEY", "\nSigning:KeyId = 4411"),
            ("DEPLOY_PRIVATE_KEY=", "PRIVATE KEY", "\nDEPLOY_USER=ci"),
            ("  sshKey: ", "OPENSSH PRIVATE KEY", ""),
            ("Jwt:Password = ", "EC PRIVATE KEY", "\r\nJwt:Issuer = fabrikam"),
        ] {
            let input = format!("{label}-----BEGIN {kind}-----\n{body}\n-----END {kind}-----{after}");
            let shown = format!("{label}-----BEGIN {kind}-----\n{REDACTED}\n-----END {kind}-----{after}");
            // The line redactor reads lines without their `\r`.
            if after.contains('\r') {
                assert_eq!(r(&input), shown, "{input}");
            } else {
                each_and_lines(&[(&input, &shown)]);
            }
        }
        // Cut off before its END line, the key's lines are hidden as without the label, and
        // the next line stays.
        let cut = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOwIBAAJBAL7qz3Fk9Rt2Wc+Yp0Lm4Xs8\nGitHub:AppId = 7";
        assert_eq!(r(&format!("GitHub:PrivateKey = {cut}")), format!("GitHub:PrivateKey = {}", r(cut)));
        assert_eq!(r(cut), "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\nGitHub:AppId = 7");
        // A public key or certificate is not hidden, after a label or not.
        each(&[(
            "Signing:PublicKey = -----BEGIN PUBLIC KEY-----\nMFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAL7q\n-----END PUBLIC KEY-----",
            "",
        )]);
    }

    #[test]
    fn ef_core_positional_parameters_of_a_secret_column_are_hidden_whatever_they_look_like() {
        // The console logger's entry: parameters, then the SQL indented under them.
        let insert = "info: Microsoft.EntityFrameworkCore.Database.Command[20101]
      Executed DbCommand (12ms) [Parameters=[@p0='ada@contoso.com' (Nullable = false) (Size = 256), @p1='sunshine' (Nullable = false) (Size = 4000), @p2='ada' (Size = 256)], CommandType='Text', CommandTimeout='30']
      SET IMPLICIT_TRANSACTIONS OFF;
      SET NOCOUNT ON;
      INSERT INTO [AspNetUsers] ([Email], [PasswordHash], [UserName])
      OUTPUT INSERTED.[Id]
      VALUES (@p0, @p1, @p2);
info: Microsoft.EntityFrameworkCore.Update[30100]
      Saved 1 entities to in-memory store.";
        assert_eq!(r(insert), insert.replace("@p1='sunshine'", &format!("@p1='{REDACTED}'")));
        // Npgsql's quoting, two rows, and an UPDATE's `column = @p`.
        each(&[
            (
                "Executed DbCommand (3ms) [Parameters=[@p0='bob', @p1='tok1', @p2='eve', @p3='tok2'], CommandType='Text', CommandTimeout='30']\nINSERT INTO \"Clients\" (\"Name\", \"ApiToken\")\nVALUES (@p0, @p1), (@p2, @p3);",
                "Executed DbCommand (3ms) [Parameters=[@p0='bob', @p1='[REDACTED]', @p2='eve', @p3='[REDACTED]'], CommandType='Text', CommandTimeout='30']\nINSERT INTO \"Clients\" (\"Name\", \"ApiToken\")\nVALUES (@p0, @p1), (@p2, @p3);",
            ),
            (
                "Executed DbCommand (1ms) [Parameters=[@p1='7', @p0='letmein' (Size = 4000)], CommandType='Text', CommandTimeout='30']\n      UPDATE [Users] SET [ClientSecret] = @p0\n      WHERE [Id] = @p1;",
                "Executed DbCommand (1ms) [Parameters=[@p1='7', @p0='[REDACTED]' (Size = 4000)], CommandType='Text', CommandTimeout='30']\n      UPDATE [Users] SET [ClientSecret] = @p0\n      WHERE [Id] = @p1;",
            ),
            // SQL Server's batched MERGE: the columns come after the rows.
            (
                "Executed DbCommand (4ms) [Parameters=[@p0='a', @p1='pw1', @p2='b', @p3='pw2'], CommandType='Text', CommandTimeout='30']\n      MERGE [Users] USING (\n      VALUES (@p0, @p1, 0),\n      (@p2, @p3, 1)) AS i ([Name], [Password], _Position) ON 1=0",
                "Executed DbCommand (4ms) [Parameters=[@p0='a', @p1='[REDACTED]', @p2='b', @p3='[REDACTED]'], CommandType='Text', CommandTimeout='30']\n      MERGE [Users] USING (\n      VALUES (@p0, @p1, 0),\n      (@p2, @p3, 1)) AS i ([Name], [Password], _Position) ON 1=0",
            ),
            // A column that names no secret keeps its short value, and a secret column's null stays.
            (
                "Executed DbCommand (2ms) [Parameters=[@p0='blue', @p1=NULL], CommandType='Text', CommandTimeout='30']\n      INSERT INTO [Themes] ([Colour], [PasswordHash]) VALUES (@p0, @p1);",
                "",
            ),
        ]);
    }

    #[test]
    fn ef_core_parameters_of_random_base64_are_hidden_line_by_line_too() {
        // Line by line, the SQL that names the column (`"Token"`, `[SecretHash]`) comes after the
        // parameters: a value of random bytes in base64 is hidden by its shape, `/` and all.
        let token = "Vq7/Rk2Lm9Xs4Tb8Nw1Pz5Hc3Jd6Gf0Ya+Ue2Io8Kp4Qr7St1Vw3Xy5Za9Bc2De6Fg0Hi4Jk8Lm1No3Pq5Rs7Tu9Vw2/xQ==";
        let text = format!(
            "info: Microsoft.EntityFrameworkCore.Database.Command[20101]
      Executed DbCommand (3ms) [Parameters=[@p0='0c5d1e2f-3a4b-4c5d-8e9f-a0b1c2d3e4f5', @p1='{token}' (Nullable = false) (Size = 100), @p2='2027-01-05T10:00:00.0000000+00:00'], CommandType='Text', CommandTimeout='30']
      INSERT INTO \"UserSessions\" (\"Id\", \"Token\", \"ExpiresAt\")
      VALUES (@p0, @p1, @p2);"
        );
        each_and_lines(&[(&text, &text.replace(token, REDACTED))]);
        // Alone on its line, a Data Protection key's base64 under a positional name.
        let line = "      Executed DbCommand (1ms) [Parameters=[@p0='k9/Hq2Lm7Xs4Tb8Nw1Pz5Hc3Jd6Gf0YaUe2Io8Kp4QA=' (Size = 4000)], CommandType='Text', CommandTimeout='30']";
        each_and_lines(&[(line, &line.replace("k9/Hq2Lm7Xs4Tb8Nw1Pz5Hc3Jd6Gf0YaUe2Io8Kp4QA=", REDACTED))]);
        // Paths and content types under positional names stay, a long name with digits too.
        each_and_lines(&[(
            "      Executed DbCommand (2ms) [Parameters=[@p0='images/Products/Widget2024.png', @p1='Orders/2027/Q1/Batch0042', @p2='application/vnd.ms-excel', @p3='Assets/Icons/Large/Home1234', @p4='docs/Release/Notes/Version10Final2027/v2'], CommandType='Text', CommandTimeout='30']",
            "",
        )]);
    }

    #[test]
    fn password_variants_quoted_braced_and_spaced() {
        assert_eq!(r("Host=h; Password = 'p w;d'; Port=5432"), "Host=h; Password = '[REDACTED]'; Port=5432");
        assert_eq!(r(r#"password="hunter2""#), r#"password="[REDACTED]""#);
        assert_eq!(r("Driver={SQL};PWD={a;b};"), "Driver={SQL};PWD={[REDACTED]};");
        assert_eq!(r("passwd: abc"), "passwd: [REDACTED]");
        assert_eq!(r("DB_PASSWORD=abc"), "DB_PASSWORD=[REDACTED]");
    }

    #[test]
    fn short_passwords_have_no_minimum_length() {
        assert_eq!(r("Password=a;"), "Password=[REDACTED];");
        assert_eq!(r("pass=ab"), "pass=[REDACTED]");
    }

    #[test]
    fn api_keys_and_tokens_by_label() {
        assert_eq!(r("api_key=abc123"), "api_key=[REDACTED]");
        assert_eq!(r("apikey: xyz"), "apikey: [REDACTED]");
        assert_eq!(r("token=t0k"), "token=[REDACTED]");
        assert_eq!(r("secret=s"), "secret=[REDACTED]");
        assert_eq!(r("client_secret=abc&grant_type=x"), "client_secret=[REDACTED]&grant_type=x");
        assert_eq!(r("access_token=abc.def"), "access_token=[REDACTED]");
        assert_eq!(r("X-Api-Key: 12345"), "X-Api-Key: [REDACTED]");
    }

    #[test]
    fn json_text_keeps_quotes() {
        assert_eq!(r(r#"{"ApiKey": "sk-1", "Name": "app"}"#), r#"{"ApiKey": "[REDACTED]", "Name": "app"}"#);
    }

    #[test]
    fn aws_access_key_id_and_secret_key() {
        assert_eq!(r("id AKIAIOSFODNN7EXAMPLE used"), "id AKIA[REDACTED] used");
        assert_eq!(
            r("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            "aws_secret_access_key = [REDACTED]"
        );
        // Under a label too, a token known by its shape keeps its prefix.
        assert_eq!(r("AWS_ACCESS_KEY_ID=ASIAXXXXXXXXXXXXXXXX"), "AWS_ACCESS_KEY_ID=ASIA[REDACTED]");
    }

    #[test]
    fn azure_storage_keys() {
        assert_eq!(
            r("DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=abc+/def==;EndpointSuffix=core.windows.net"),
            "DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=[REDACTED];EndpointSuffix=core.windows.net"
        );
        assert_eq!(
            r(
                "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=k3y="
            ),
            "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=[REDACTED]"
        );
    }

    #[test]
    fn labelled_high_entropy_values_only_when_generated() {
        assert_eq!(r("SigningKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5"), "SigningKey=[REDACTED]");
        assert_eq!(
            r("AssemblyOriginatorKeyFile=MyCompanyStrongName.snk"),
            "AssemblyOriginatorKeyFile=MyCompanyStrongName.snk"
        );
        assert_eq!(r("KeyFile=/home/u/keys/strong2024.snk"), "KeyFile=/home/u/keys/strong2024.snk");
    }

    #[test]
    fn a_short_value_shaped_like_a_password_under_a_weak_label() {
        // Shorter than a generated key, but mixing both cases, digits and a symbol that names,
        // versions and paths never hold: typed as a password.
        assert_eq!(
            r("helm install api ./chart --set-string Encryption__Key=Wq4^tR~z9k"),
            "helm install api ./chart --set-string Encryption__Key=[REDACTED]"
        );
        assert_eq!(r(r#"{"SigningKey": "Hp7!xM#2va"}"#), r#"{"SigningKey": "[REDACTED]"}"#);
        assert_eq!(r("JWT_KEY=c9*Lp?Ze3w"), "JWT_KEY=[REDACTED]");
        // Names, versions, globs and URLs under the same labels stay.
        for kept in [
            "PartitionKey=Tenant_2024",
            "CacheKey=Catalog.V2:item",
            "Signing__Algorithm=HS256",
            "SIGNING_KEY_FILE=Keys/Dev1.pem",
            "Key=https://Cfg.example/App1#Top",
            "otpauth://totp/Shop:Bo?issuer=Shop1&digits=6",
        ] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn authorization_headers() {
        assert_eq!(r("Authorization: Bearer abc"), "Authorization: Bearer [REDACTED]");
        assert_eq!(r("authorization: Basic dXNlcjpwYXNz"), "authorization: Basic [REDACTED]");
        assert_eq!(r(r#"-H "Authorization: token123""#), r#"-H "Authorization: [REDACTED]""#);
        assert_eq!(r("sent Bearer 0123456789abcdef"), "sent Bearer [REDACTED]");
        assert_eq!(r("uses bearer authentication"), "uses bearer authentication");
    }

    #[test]
    fn cookies_and_session_tokens() {
        assert_eq!(
            r("Cookie: .AspNetCore.Cookies=chunks-2; .AspNetCore.CookiesC1=abc; .AspNetCore.CookiesC2=def"),
            "Cookie: .AspNetCore.Cookies=chunks-2; .AspNetCore.CookiesC1=[REDACTED]; .AspNetCore.CookiesC2=[REDACTED]"
        );
        assert_eq!(
            r("set-cookie: .AspNetCore.Session=xyz; path=/; samesite=lax; httponly"),
            "set-cookie: .AspNetCore.Session=[REDACTED]; path=/; samesite=lax; httponly"
        );
        // A session id that is a GUID is a build's or a test run's (`dotnet build -v:diag`); a web
        // session's id stays hidden.
        let restore = "                   MSBuildRestoreSessionId = f99e7c1e-1d01-4e27-9f1a-bc7a697a29a1";
        assert_eq!(r(restore), restore);
        assert_eq!(r("ASP.NET_SessionId=yq2vbwzkhm4tqtsmxaxbtq1d"), "ASP.NET_SessionId=[REDACTED]");
        let cleared = "Set-Cookie: .AspNetCore.Identity.Application=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/";
        assert_eq!(r(cleared), cleared);
        // Data Protection payloads (auth, session and antiforgery cookies and tokens) wherever they are.
        assert_eq!(
            r("__RequestVerificationToken=CfDJ8Nq3x_AbCdEfGhIjKlMnOpQrStUv&x=1"),
            "__RequestVerificationToken=CfDJ8[REDACTED]&x=1"
        );
        assert_eq!(
            r("nonce .AspNetCore.OpenIdConnect.Nonce.CfDJ8AbCdEfGhIjKlMnOpQr=N"),
            "nonce .AspNetCore.OpenIdConnect.Nonce.CfDJ8[REDACTED]=N"
        );
        // The constant `N` of the remote-authentication marker cookies is no secret.
        assert_eq!(
            r("Set-Cookie: .AspNetCore.OpenIdConnect.Nonce.CfDJ8AbCdEfGhIjKlMnOpQr=N; path=/signin-oidc"),
            "Set-Cookie: .AspNetCore.OpenIdConnect.Nonce.CfDJ8[REDACTED]=N; path=/signin-oidc"
        );
        let correlation =
            "Set-Cookie: .AspNetCore.Correlation.BkwpW0ikHZzgfuvdhaeLCHk1VeOJsbqcRiODHL5zqJo=N; path=/signin-oidc";
        assert_eq!(r(correlation), correlation);
        assert_eq!(r(r#"{"Cookie": "sid=42; theme=dark"}"#), r#"{"Cookie": "sid=[REDACTED]; theme=[REDACTED]"}"#);
        assert_eq!(r("CookieAuthenticationHandler signed in"), "CookieAuthenticationHandler signed in");
    }

    #[test]
    fn key_like_json_values_and_user_jwts_signing_keys() {
        assert_eq!(r(r#"  "value": "Zm9vYmFyQmF6MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u==""#), r#"  "value": "[REDACTED]""#);
        for kept in
            [r#""value": "C:\Users\me\source\repos\App1""#, r#""value": "0b6e3c1a-52f7-4d2e-9a8b-7c6d5e4f3a2b""#]
        {
            assert_eq!(r(kept), kept);
        }
        assert_eq!(r("Signing Key: 'Zm9vYmFyYmF6MTIzNDU2Nzg5MA=='"), "Signing Key: '[REDACTED]'");
        assert_eq!(
            r("New signing key created: 'Zm9vYmFyYmF6MTIzNDU2Nzg5MA=='"),
            "New signing key created: '[REDACTED]'"
        );
    }

    #[test]
    fn every_member_of_a_map_of_keys_is_a_key_whatever_its_name() {
        // `az functionapp keys list`: function keys, the master key and the extensions' system
        // keys, under names the app or its extensions chose.
        let (default, webhook, master, extension) = (
            "Vq3LmZ8pRt6Yw2Nk9Hd4Fs7Gx1Bc5Jh0Ea3Tu8Io2Pl6Kn9Mb4Cv7Zx==",
            "Yt5Rb8Nm2Kq7Wp4Xs9Gd1Lh6Fz3Jc0Ve5Ua8Oi2Pe7Tn4My9Bk1Sw6Hr==",
            "Qp2Wn7Xc4Rt9Ym1Kb6Fs3Hd8Lj5Gz0Va2Eu7Io4Pt9Nk1Mc6By3Sh8Ja==",
            "Hs6Kd1Pz8Wm3Xt5Rn0Yb2Lq7Gf4Jc9Vu1Ea6To3Ip8Nk5Mw0Bx2Cz7Se==",
        );
        let json = format!(
            "{{\n  \"functionKeys\": {{\n    \"default\": \"{default}\",\n    \"github-webhook\": \"{webhook}\"\n  }},\n  \
             \"masterKey\": \"{master}\",\n  \"systemKeys\": {{\n    \"eventgrid_extension\": \"{extension}\"\n  }}\n}}"
        );
        let expected =
            [default, webhook, master, extension].iter().fold(json.clone(), |shown, key| shown.replace(key, REDACTED));
        assert_eq!(r(&json), expected);
        let mut redactor = LineRedactor::new();
        let by_line: Vec<String> = json.lines().filter_map(|line| redactor.line(line)).map(Cow::into_owned).collect();
        assert_eq!(by_line.join("\n"), expected);
        // On one line, and in structured content.
        let flat = format!(
            r#"{{"functionKeys": {{"orders-sync": "{webhook}"}}, "systemKeys": {{"blobs_extension": "{extension}"}}}}"#
        );
        assert_eq!(r(&flat), flat.replace(webhook, REDACTED).replace(extension, REDACTED));
        let mut value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        crate::redact::redact_json(&mut value);
        assert_eq!(value["functionKeys"]["github-webhook"], REDACTED);
        assert_eq!(value["systemKeys"]["eventgrid_extension"], REDACTED);
        // Members that are no keys stay: a short word in a map of keys, and the members of an object
        // under another weak name or of the records of a JWKS's `keys` list.
        each_and_lines(&[
            (r#"{"functionKeys": {"state": "enabled"}}"#, ""),
            (r#"{"monkeys": {"favourite": "Zt4Kq9Wm2Xs7Rb1Nd6Gh3Lf8Jc5Vp0Yu2Ea7To4Iw9Pn1Mk6"}}"#, ""),
        ]);
        let mut value = serde_json::json!({
            "auth": {"tenant": "Mk4Zt9Wq2Xs7Rb1Nd6Gh3Lf8Jc5Vp0Yu2Ea7To4Iw9Pn1"},
            "keys": [{"kid": "k1", "n": "u8Jc5Vp0Yu2Ea7To4Iw9Pn1Mk6Zt4Kq9Wm2Xs7Rb1Nd6Gh3Lf"}]
        });
        let before = value.clone();
        crate::redact::redact_json(&mut value);
        assert_eq!(value, before);
    }

    #[test]
    fn signing_key_named_for_its_issuer_or_scheme() {
        // The issuer or scheme named before the colon, with or without `is`.
        for (input, expected) in [
            (
                "Signing Key for issuer 'https://id.local': 'b2NrZXRzTW9vbkxpZ2h0OTk5ODg3NzY2NTU='",
                "Signing Key for issuer 'https://id.local': '[REDACTED]'",
            ),
            (
                "New signing key for scheme 'Admin' created: 'RnJvc3RlZEZsYWtlczEyMzQ1Njc4OTA='.",
                "New signing key for scheme 'Admin' created: '[REDACTED]'.",
            ),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        let kept = "Signing key for issuer 'local' was reset.";
        assert_eq!(r(kept), kept);
    }

    #[test]
    fn name_value_pairs_in_json_text() {
        let listing = "[\n  {\n    \"name\": \"Smtp__Password\",\n    \"tags\": {},\n    \"value\": \"relay-9\"\n  },\n  {\n    \"name\": \"Logging__LogLevel\",\n    \"value\": \"Information\"\n  }\n]";
        let expected = listing.replace("relay-9", REDACTED);
        assert_eq!(r(listing), expected);
        // Line by line, as progress and session logs see it, with the same result.
        let mut redactor = LineRedactor::new();
        let lines: Vec<String> = listing.lines().filter_map(|line| redactor.line(line)).map(Cow::into_owned).collect();
        assert_eq!(lines.join("\n"), expected);
        assert_eq!(
            r(r#"{"Name": "/prod/DbPassword", "Type": "SecureString", "Value": "pw-1"}"#),
            r#"{"Name": "/prod/DbPassword", "Type": "SecureString", "Value": "[REDACTED]"}"#
        );
        assert_eq!(
            r(r#"{"functionKeys": {"default": "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bD1fH3jL5=="}}"#),
            r#"{"functionKeys": {"default": "[REDACTED]"}}"#
        );
        assert_eq!(r("<value>aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bD1fH3jL5==</value>"), "<value>[REDACTED]</value>");
    }

    #[test]
    fn nuget_config_credentials() {
        assert_eq!(
            r(r#"<add key="ClearTextPassword" value="p@ss" />"#),
            r#"<add key="ClearTextPassword" value="[REDACTED]" />"#
        );
        assert_eq!(r("<Password>x</Password>"), "<Password>[REDACTED]</Password>");
        assert_eq!(r("<UserSecretsId>abc-123</UserSecretsId>"), "<UserSecretsId>abc-123</UserSecretsId>");
    }

    #[test]
    fn msbuild_property_password() {
        assert_eq!(
            r("dotnet publish -p:Password=x -p:Configuration=Release"),
            "dotnet publish -p:Password=[REDACTED] -p:Configuration=Release"
        );
        assert_eq!(r("/p:DeployPassword=ab"), "/p:DeployPassword=[REDACTED]");
    }

    #[test]
    fn xml_attributes_in_any_order_and_msbuild_password_properties() {
        each(&[
            (
                r#"<add value="Nu-S3cret" key="ClearTextPassword" />"#,
                r#"<add value="[REDACTED]" key="ClearTextPassword" />"#,
            ),
            (
                r#"<setting name="SmtpPassword" serializeAs="String" value="Smtp-S3cret"/>"#,
                r#"<setting name="SmtpPassword" serializeAs="String" value="[REDACTED]"/>"#,
            ),
            (r#"<add key="Username" value="bob" />"#, ""),
            ("<DeployPwd>Dp-S3cret</DeployPwd>", "<DeployPwd>[REDACTED]</DeployPwd>"),
            (
                "<SigningCertificatePassword>Sc-S3cret</SigningCertificatePassword>",
                "<SigningCertificatePassword>[REDACTED]</SigningCertificatePassword>",
            ),
            (
                "dotnet publish -p:DeployPwd=Dp-S3cret -p:Configuration=Release",
                "dotnet publish -p:DeployPwd=[REDACTED] -p:Configuration=Release",
            ),
        ]);
    }

    #[test]
    fn name_value_pairs_in_any_quoting_and_secret_named_elements() {
        each(&[
            (
                r#"dotnet test -- TestRunParameters.Parameter(name=\"ClientSecret\", value=\"Trp-S3cret-9\")"#,
                r#"dotnet test -- TestRunParameters.Parameter(name=\"ClientSecret\", value=\"[REDACTED]\")"#,
            ),
            (
                "##teamcity[setParameter name='env.SMTP_PASSWORD' value='Tc-S3cret-9']",
                "##teamcity[setParameter name='env.SMTP_PASSWORD' value='[REDACTED]']",
            ),
            ("##teamcity[setParameter name='env.REGION' value='westeurope']", ""),
            (
                "<SERVICEBUS_KEY>Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi</SERVICEBUS_KEY>",
                "<SERVICEBUS_KEY>[REDACTED]</SERVICEBUS_KEY>",
            ),
            ("<KeyFile>signing.snk</KeyFile>", ""),
        ]);
    }

    #[test]
    fn each_string_of_a_list_under_a_secret_name() {
        each_and_lines(&[
            (
                r#"  { "ClientId": "m2m", "ClientSecrets": [ "Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9" ], "AllowedScopes": [ "api" ] },"#,
                r#"  { "ClientId": "m2m", "ClientSecrets": [ "[REDACTED]" ], "AllowedScopes": [ "api" ] },"#,
            ),
            (
                r#"  "ApiKeys": ["Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9", "Qx7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl"],"#,
                r#"  "ApiKeys": ["[REDACTED]", "[REDACTED]"],"#,
            ),
            // Under a weak name only what looks generated is a key.
            (r#"  "KeyNames": ["primary", "secondary"],"#, ""),
        ]);
    }

    #[test]
    fn credentials_passed_by_position_to_dotnet_calls() {
        each_and_lines(&[
            (
                r#"client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7");"#,
                r#"client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "[REDACTED]");"#,
            ),
            (
                r#"smtp.Credentials = new NetworkCredential("svc_mail", "Qx7-pp!2Lm", "CONTOSO");"#,
                r#"smtp.Credentials = new NetworkCredential("svc_mail", "[REDACTED]", "CONTOSO");"#,
            ),
            (
                r#"var c = new ClientSecretCredential("72f988bf-86f1-41af-91ab-2d7cd011db47", clientId, @"Ab18Q~Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9Kl");"#,
                r#"var c = new ClientSecretCredential("72f988bf-86f1-41af-91ab-2d7cd011db47", clientId, @"[REDACTED]");"#,
            ),
            (
                r#"TwilioClient.Init("AC0123456789abcdef0123456789abcdef", "9c1f0e2d3b4a59687f6e5d4c3b2a1908");"#,
                r#"TwilioClient.Init("AC0123456789abcdef0123456789abcdef", "[REDACTED]");"#,
            ),
            // A name argument is judged by its name, a variable or another call stays.
            (
                r#"new NetworkCredential(password: "Qx7-pp!2Lm", userName: "svc_mail")"#,
                r#"new NetworkCredential(password: "[REDACTED]", userName: "svc_mail")"#,
            ),
            (r#"var k = new AzureKeyCredential(builder.Configuration["Search:ApiKey"]!);"#, ""),
            (r#"request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);"#, ""),
        ]);
    }
}
