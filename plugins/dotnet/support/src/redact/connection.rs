//! URLs and connection strings: a connection string or SAS query shown part by part, only its
//! secret parts hidden, and values whose own labels say which of their parts is secret.

use std::sync::LazyLock;

use regex::Regex;

use super::{
    keys::{KeyClass, classify_key},
    labelled::redact_labelled,
    patterns::{CONTEXT_FREE, SHAPES, redact_with},
    stand_in::unwrap,
};

/// The names that start a connection string's pairs (ADO.NET, Npgsql, MySQL, ODBC): a
/// `name=value;` list that holds one is a connection string, so its password runs to the next
/// `;` even through blanks (see `cs_pw` in the combined pattern).
pub(super) const CONNECTION_KEYWORDS: &[&str] = &[
    "server",
    "data source",
    "datasource",
    "host",
    "hostname",
    "address",
    "addr",
    "network address",
    "endpoint",
    "database",
    "initial catalog",
    "user id",
    "userid",
    "uid",
    "username",
    "user",
    "port",
    "driver",
    "dsn",
    "provider",
];

/// libpq's connection keywords that come before a password in a keyword/value string
/// (`host=db port=5432 user=app password=...`): see `libpq` in the combined pattern.
pub(super) const LIBPQ_KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "sslmode",
    "connect_timeout",
    "application_name",
    "options",
    "service",
    "target_session_attrs",
    "client_encoding",
];

/// A host, `host:port` or port between the separators of a connection string
/// (`localhost:6379,abortConnect=false`, `Server=tcp:db.example,1433`), also as an Aspire
/// manifest's references (`{cache.bindings.tcp.host}:{cache.bindings.tcp.port}`).
pub(super) static CONNECTION_HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::[0-9]+)?|[A-Za-z0-9-]+:[0-9]+|[0-9]+|\{[A-Za-z0-9_.-]+\}(?::\{[A-Za-z0-9_.-]+\})?)$")
        .expect("connection host pattern is valid")
});

/// The last host of a URI that lists several (`mongodb://a:27017,b:27017/orders?...`), with the
/// URI's path, which it carries after it.
static URI_LAST_HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::[0-9]+)?/[A-Za-z0-9_.-]*$").expect("URI host pattern is valid")
});

/// A connection string with only its secret parts redacted, or `None` when `value` is not one.
/// A connection string is made of `Name=Value` pairs (at least one), URIs, hosts and ports,
/// separated by `;`, `,`, `?` or `&` (ADO.NET, Npgsql, StackExchange.Redis, MongoDB and AMQP
/// URIs, `UseDevelopmentStorage=true`). Each pair is judged by its name as any label is; URIs
/// and the values of other pairs are scanned for the forms known by their shape (URL
/// credentials). Anything else (an opaque token, a base64 key whose `=` is padding) is `None`,
/// so the caller hides it whole.
pub(super) fn redact_connection_string(value: &str) -> Option<String> {
    redact_connection_string_at(value, 0)
}

/// [`redact_connection_string`] at `depth`: a connection string inside one (Entity Framework's
/// `provider connection string="..."`, quoted, or `&quot;...&quot;` in an XML attribute) is
/// judged part by part too, one level deep; deeper, it is hidden whole, so hostile input cannot
/// nest deep.
fn redact_connection_string_at(text: &str, depth: usize) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut described = false;
    let parts = connection_string_parts(text);
    // Where each part starts in `text`: the parts cover it end to end.
    let starts: Vec<usize> = parts
        .iter()
        .scan(0, |next, (body, separator)| {
            let start = *next;
            *next += body.len() + separator.len();
            Some(start)
        })
        .collect();
    // The parts before `read` were read as the fields of a SAS query: none is read so twice.
    let (mut at, mut read) = (0, 0);
    while let Some(&(body, separator)) = parts.get(at) {
        at += 1;
        let pair = body.split_once('=').filter(|(name, value)| {
            name.trim().starts_with(|c: char| c.is_ascii_alphabetic())
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b" _.-".contains(&b))
                && !value.trim_start_matches('=').is_empty()
        });
        if let Some((name, value)) = pair {
            described = true;
            // A SAS query as the value (`SharedAccessSignature=sv=...&ss=b&sp=rl&sig=...`, also a
            // Service Bus token, `SharedAccessSignature=SharedAccessSignature sr=...&sig=...`):
            // its `&` cut the query's fields into parts of their own; whole again, its own names
            // say that only the signature is secret.
            const SCHEME: &str = "SharedAccessSignature ";
            let scheme = if value.starts_with(SCHEME) { SCHEME } else { "" };
            if separator == "&" && at >= read && SAS_FIELD.is_match(&value[scheme.len()..]) {
                let fields = parts[at..].iter().take_while(|(part, _)| SAS_FIELD.is_match(part)).count();
                read = at + fields;
                let (last, last_separator) = parts[read - 1];
                let query = &text[starts[at - 1] + name.len() + 1 + scheme.len()..starts[read - 1] + last.len()];
                if fields > 0 && SAS_QUERY.is_match(query) {
                    let shown = redact_with(&CONTEXT_FREE, query);
                    out.push_str(&format!("{name}={scheme}{shown}{last_separator}"));
                    at = read;
                    continue;
                }
            }
            let class = classify_key(name);
            let nested = (class == KeyClass::Connection && depth == 0)
                .then(|| {
                    let (open, inner, close) = unwrap_entity_quotes(value);
                    redact_connection_string_at(inner, depth + 1).map(|shown| format!("{open}{shown}{close}"))
                })
                .flatten();
            let class = if class == KeyClass::Connection { KeyClass::Secret } else { class };
            let shown = nested.unwrap_or_else(|| {
                redact_labelled(class, value).unwrap_or_else(|| redact_with(&SHAPES, value).into_owned())
            });
            out.push_str(&format!("{name}={shown}"));
        } else if body.contains("://") {
            described = true;
            out.push_str(&redact_with(&SHAPES, body));
        } else if body.trim().is_empty()
            || CONNECTION_HOST.is_match(body.trim())
            || described && URI_LAST_HOST.is_match(body)
        {
            out.push_str(body);
        } else {
            return None;
        }
        out.push_str(separator);
    }
    (described || only_hosts(&parts)).then_some(out)
}

/// Whether a connection string is only hosts and ports (StackExchange.Redis' `localhost:6379`,
/// `cache-a.example:6380,cache-b.example:6380`), which names no credential: each part a host by
/// name (`localhost`, a dotted name ending in letters, an IPv4 address, a `name:port`) or a port,
/// at least one a host; bare digits or a token that only has dots in it is none.
fn only_hosts(parts: &[(&str, &str)]) -> bool {
    let named = |host: &str| {
        let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
        let last = name.rsplit('.').next().unwrap_or(name);
        let dotted = name.contains('.')
            && (last.bytes().all(|b| b.is_ascii_alphabetic()) || name.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
        CONNECTION_HOST.is_match(host)
            && (dotted
                || host.contains(':') && name.bytes().any(|b| b.is_ascii_alphabetic())
                || name.eq_ignore_ascii_case("localhost"))
    };
    let hosts = parts.iter().map(|(body, _)| body.trim()).filter(|body| !body.is_empty());
    hosts.clone().all(|body| named(body) || body.bytes().all(|b| b.is_ascii_digit())) && hosts.clone().any(named)
}

/// `value` without the quotes around it, also XML's `&quot;` (see [`unwrap`]).
fn unwrap_entity_quotes(value: &str) -> (&str, &str, &str) {
    match value.strip_prefix("&quot;").and_then(|rest| rest.strip_suffix("&quot;")) {
        Some(inner) => (&value[..6], inner, &value[value.len() - 6..]),
        None => unwrap(value),
    }
}

/// The parts of a connection string, each with the separator that ends it (`;`, `,`, `?` or
/// `&`; empty for the last part), as `str::split` would cut them but never inside an ODBC `{...}` value (where
/// `}}` stands for a `}`) or a quoted one: `PWD={a;b}}c};` is one part.
fn connection_string_parts(value: &str) -> Vec<(&str, &str)> {
    const QUOT: &[u8] = b"&quot;";
    let bytes = value.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    let mut value_start = true;
    while i < bytes.len() {
        if value_start && bytes[i..].starts_with(QUOT) {
            // A value quoted with XML's `&quot;` (in an attribute): to the next one.
            i += QUOT.len();
            while i < bytes.len() && !bytes[i..].starts_with(QUOT) {
                i += 1;
            }
            i = (i + QUOT.len()).min(bytes.len());
            value_start = false;
            continue;
        }
        match bytes[i] {
            // A braced or quoted value starts right after `=`.
            open @ (b'{' | b'"' | b'\'') if value_start => {
                let close = if open == b'{' { b'}' } else { open };
                i += 1;
                while i < bytes.len() {
                    if bytes[i] == close {
                        if close == b'}' && bytes.get(i + 1) == Some(&b'}') {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
            }
            // An XML entity (`&amp;`, `&quot;`) is not a separator.
            b'&' if ENTITIES.iter().any(|entity| bytes[i + 1..].starts_with(entity)) => {}
            // `?` starts a URI's query (`mongodb://h/db?ssl=true`, also after the last of its
            // hosts and its path: `mongodb://a:27017,b:27017/db?...`); elsewhere it is part of a
            // value (`Password=ab?cd`).
            b'?' if !(value[start..i].contains("://")
                || value[..start].contains("://") && URI_LAST_HOST.is_match(&value[start..i])) => {}
            b';' | b',' | b'?' | b'&' => {
                parts.push((&value[start..i], &value[i..=i]));
                start = i + 1;
            }
            _ => {}
        }
        value_start = bytes[i.min(bytes.len() - 1)] == b'=';
        i += 1;
    }
    if start < value.len() {
        parts.push((&value[start..], ""));
    }
    parts
}

/// The XML entities an attribute escapes a connection string's characters with, after `&`.
const ENTITIES: &[&[u8]] = &[b"quot;", b"amp;", b"apos;", b"lt;", b"gt;"];

/// The `name=value` pairs of a connection string (values as written, braces and quotes kept).
pub(super) fn split_connection_string(value: &str) -> Vec<(&str, &str)> {
    connection_string_parts(value)
        .into_iter()
        .filter_map(|(part, _)| part.split_once('='))
        .filter(|(name, _)| !name.trim().is_empty())
        .map(|(name, value)| (name.trim(), value))
        .collect()
}

/// A field of a SAS token's query (`sv=2022-11-02`, `sig=...`): a short lower-case name.
static SAS_FIELD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[a-z]{2,5}=").expect("SAS field pattern is valid"));

/// A SAS token's query: `name=value` fields joined by `&`, one of them the signature.
static SAS_QUERY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\??(?:[a-z]+=[^&\s]*&)+sig=[^&\s]+(?:&[a-z]+=[^&\s]*)*$|^\??sig=[^&\s]+(?:&[a-z]+=[^&\s]*)+$")
        .expect("SAS query pattern is valid")
});

/// A secret-labelled value shown part by part when its own names say which part is secret: a SAS
/// token's query, or a connection string of two or more pairs one of which is secret. `None`
/// when it is neither, so the caller hides it whole.
fn self_describing(value: &str) -> Option<String> {
    if SAS_QUERY.is_match(value) {
        return Some(redact_with(&CONTEXT_FREE, value).into_owned());
    }
    let pairs = split_connection_string(value).len();
    redact_connection_string(value).filter(|shown| pairs >= 2 && shown != value)
}

/// A secret-labelled value shown part by part when its own labels say which parts are secret:
/// a JSON object (`"SecretString": "{\"username\": ..., \"password\": ...}"`), a SAS token's
/// query (`SECRET = 'sv=...&sig=...'` of a database scoped credential) or a connection string
/// (Event Hubs' Kafka `password="Endpoint=...;SharedAccessKey=..."`). `None` when it is none of
/// them, so the caller hides it whole. In text and in structured content alike.
pub(super) fn own_labels(inner: &str) -> Option<String> {
    if (inner.starts_with("{\\\"") || inner.starts_with("{\"")) && inner.ends_with('}') {
        return Some(redact_with(&CONTEXT_FREE, inner).into_owned());
    }
    self_describing(inner)
}

#[cfg(test)]
mod tests {
    use crate::redact::tests::{args, lines, r};

    #[test]
    fn a_connection_named_by_its_configuration_path_is_judged_whole() {
        // `ConnectionStrings:Storage` is one name, not the label `ConnectionStrings` with
        // `Storage=...` as its value: a bare key under it is hidden, in text and JSON text alike.
        let key = "Qf3kLm9Xw2Vt7Rb1Zc8Yd4Pn6Hs0Wq9LQf3kLm9Xw2Vt7Rb1Zc8Yd4Pn6Hs0Wq9LQf3kLm9Xw2Vt7Rb1Zc8Yd+/A==";
        for (input, expected) in [
            (format!("ConnectionStrings:Storage={key}"), "ConnectionStrings:Storage=[REDACTED]".to_owned()),
            (format!("ConnectionStrings:Storage = {key}"), "ConnectionStrings:Storage = [REDACTED]".to_owned()),
            (
                format!(r#"  "ConnectionStrings:Storage": "{key}","#),
                r#"  "ConnectionStrings:Storage": "[REDACTED]","#.to_owned(),
            ),
        ] {
            assert_eq!(r(&input), expected);
            assert_eq!(lines(&input), expected);
        }
        // A connection string under such a path keeps its public parts, a value with blanks too.
        for (input, expected) in [
            (
                "ConnectionStrings:Default = Server=db;Database=shop;User Id=app;Password=Xk3p9Lm2Qw",
                "ConnectionStrings:Default = Server=db;Database=shop;User Id=app;Password=[REDACTED]",
            ),
            (
                "ConnectionStrings:events = Contact Points=c1.example.net,c2.example.net;Port=9042;Password=Xk3p9Lm2Qw;Default Keyspace=events",
                "ConnectionStrings:events = Contact Points=c1.example.net,c2.example.net;Port=9042;Password=[REDACTED];Default Keyspace=events",
            ),
            ("ConnectionStrings:Cache = localhost:6379", "ConnectionStrings:Cache = localhost:6379"),
        ] {
            assert_eq!(r(input), expected);
        }
    }

    #[test]
    fn connection_string_password_keeps_other_parts() {
        assert_eq!(
            r("Server=localhost;Database=MyDb;User=admin;Password=SuperSecret123!"),
            "Server=localhost;Database=MyDb;User=admin;Password=[REDACTED]"
        );
        assert_eq!(r("Server=db;User Id=sa;Pwd=x;Encrypt=true"), "Server=db;User Id=sa;Pwd=[REDACTED];Encrypt=true");
    }

    #[test]
    fn an_unquoted_password_with_blanks_runs_to_the_next_separator_inside_a_connection_string() {
        let json = |text: &str| {
            let mut value = serde_json::json!({ "log": text });
            crate::redact::redact_json(&mut value);
            value["log"].as_str().map(str::to_owned)
        };
        for (text, shown) in [
            (
                "Server=db;User Id=app;Password=my pass phrase;Encrypt=true",
                "Server=db;User Id=app;Password=[REDACTED];Encrypt=true",
            ),
            ("Server=db;User Id=app;Pwd=my pass phrase", "Server=db;User Id=app;Pwd=[REDACTED]"),
            (
                r#"warn: opening "Data Source=db01;Initial Catalog=shop;password=correct horse battery" failed"#,
                r#"warn: opening "Data Source=db01;Initial Catalog=shop;password=[REDACTED]" failed"#,
            ),
            (
                "ConnectionStrings__Default=Host=db.local;Username=app;Password=two words;Ssl Mode=Require",
                "ConnectionStrings__Default=Host=db.local;Username=app;Password=[REDACTED];Ssl Mode=Require",
            ),
            ("Server=db;Password=abc was rejected by the server", "Server=db;Password=[REDACTED]"),
        ] {
            assert_eq!(r(text), shown, "{text}");
            assert_eq!(lines(text), shown, "line by line: {text}");
            assert_eq!(json(text).as_deref(), Some(shown), "JSON: {text}");
        }
        assert_eq!(
            args(&[
                "ef",
                "database",
                "update",
                "--connection",
                "Server=db;User Id=app;Password=my pass phrase;Encrypt=true"
            ]),
            ["ef", "database", "update", "--connection", "Server=db;User Id=app;Password=[REDACTED];Encrypt=true"]
        );
        // Outside a connection string a blank ends the value: the sentence stays.
        for (text, shown) in [
            ("password=abc was rejected by the server", ""),
            ("Login failed: Password=abc was rejected; retry", "Login failed: Password=[REDACTED] was rejected; retry"),
            ("Server=db is up; password policy applies", ""),
        ] {
            let shown = if shown.is_empty() { text } else { shown };
            assert_eq!(r(text), shown, "{text}");
        }
    }

    #[test]
    fn sas_signature_in_query_string() {
        // A SAS query as a connection string's value keeps its public parameters.
        assert_eq!(
            r(
                "BlobEndpoint=https://acc.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sp=rl&sig=AbC%2Bd%3D;Next=1"
            ),
            "BlobEndpoint=https://acc.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sp=rl&sig=[REDACTED];Next=1"
        );
        assert_eq!(
            r("https://acc.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=AbC%2Bd%3D&se=2030"),
            "https://acc.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=[REDACTED]&se=2030"
        );
    }

    #[test]
    fn a_sas_query_in_a_connection_string_keeps_its_fields_under_any_label() {
        // Judged part by part (a connection string named so, `--connection`), the query's `&`
        // cuts it into parts; only its signature is secret, whatever fields come before it.
        let query = "sv=2024-08-04&ss=bq&srt=sco&sp=rwl&se=2027-03-01T08:00:00Z&st=2027-02-01T08:00:00Z&spr=https";
        for (before, after) in [
            (r#""ConnectionStrings__Media": ""#, r#"""#),
            (r#"dotnet ef database update --connection ""#, r#";QueueEndpoint=https://acc.queue.core.windows.net/""#),
            ("ConnectionStrings:Media = ", ""),
        ] {
            let text = format!(
                "{before}BlobEndpoint=https://acc.blob.core.windows.net/;SharedAccessSignature={query}&sig=Qm9ndXNTaWc%2Fxyz%3D{after}"
            );
            let shown = format!(
                "{before}BlobEndpoint=https://acc.blob.core.windows.net/;SharedAccessSignature={query}&sig=[REDACTED]{after}"
            );
            assert_eq!(r(&text), shown);
        }
        // A Service Bus token under the same name keeps its resource, expiry and key name.
        assert_eq!(
            r(
                r#"--connection "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessSignature=SharedAccessSignature sr=sb%3A%2F%2Fns&sig=Zm9vU2ln%3D&se=1767225600&skn=listen""#
            ),
            r#"--connection "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessSignature=SharedAccessSignature sr=sb%3A%2F%2Fns&sig=[REDACTED]&se=1767225600&skn=listen""#
        );
        // Without a signature the value is no SAS: the secret name hides it as before.
        assert_eq!(
            r(
                r#""ConnectionStrings__Media": "BlobEndpoint=https://acc.blob.core.windows.net/;SharedAccessSignature=sv=2024-08-04&sp=r""#
            ),
            r#""ConnectionStrings__Media": "BlobEndpoint=https://acc.blob.core.windows.net/;SharedAccessSignature=[REDACTED]&sp=r""#
        );
    }

    #[test]
    fn url_credentials_keep_user_and_host() {
        assert_eq!(r("https://user:pass@host/x"), "https://user:[REDACTED]@host/x");
        assert_eq!(r("postgres://app:s3cr3t@db:5432/app"), "postgres://app:[REDACTED]@db:5432/app");
        assert_eq!(r("redis://:pw@cache"), "redis://:[REDACTED]@cache");
        assert_eq!(r("mongodb+srv://u:p@cluster0"), "mongodb+srv://u:[REDACTED]@cluster0");
        // A user name with an unencoded `@` (an e-mail, Azure Database's `user@server`).
        assert_eq!(
            r("postgres://admin@contoso.com:Qx7-pp.2@db.internal:5432/shop?sslmode=require"),
            "postgres://admin@contoso.com:[REDACTED]@db.internal:5432/shop?sslmode=require"
        );
        assert_eq!(
            r("mysql://app@srv-01:s3cr3t@srv-01.mysql.database.azure.com/shop"),
            "mysql://app@srv-01:[REDACTED]@srv-01.mysql.database.azure.com/shop"
        );
        // An `@` then a port and a path is no password.
        assert_eq!(r("ssh://git@github.com:22/contoso/app.git"), "ssh://git@github.com:22/contoso/app.git");
    }

    #[test]
    fn url_tokens_as_user_and_generated_query_codes() {
        assert_eq!(
            r("https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/42"),
            "https://[REDACTED]@o1.ingest.sentry.io/42"
        );
        assert_eq!(r("GET /api/run?code=aB3dE5gH7jK9mN1pQ3sT5v=="), "GET /api/run?code=[REDACTED]");
        for kept in ["ssh://git@github.com/org/repo", "https://build@contoso.com/feed", "?code=CS0103&x=1"] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn connection_strings_without_credentials_stay() {
        for kept in [
            "ConnectionStrings__Sql=Server=tcp:db.example.net,1433;Database=app;Authentication=Active Directory Default;",
            "ConnectionStrings__Mongo=mongodb://localhost:27017/?replicaSet=rs0&directConnection=true",
            "ConnectionStrings__Redis=localhost:6379,abortConnect=false",
            "ConnectionStrings__Storage=UseDevelopmentStorage=true",
            "ConnectionStrings__Rabbit=amqp://localhost:5672/",
            "APPLICATIONINSIGHTS_CONNECTION_STRING=InstrumentationKey=5c1c77e8-efa1-454a-aa4f-58727c0c47ac;IngestionEndpoint=https://in.example/",
        ] {
            assert_eq!(r(kept), kept);
        }
        assert_eq!(
            r("ConnectionStrings__Redis=cache.example:6380,password=pw-1,ssl=True"),
            "ConnectionStrings__Redis=cache.example:6380,password=[REDACTED],ssl=True"
        );
        assert_eq!(r("ConnectionStrings__Db=opaque-token-1"), "ConnectionStrings__Db=[REDACTED]");
        assert_eq!(r("ConnectionStrings__Blob=dGVzdGtleQ=="), "ConnectionStrings__Blob=[REDACTED]");
    }

    #[test]
    fn a_uri_with_several_hosts_is_judged_part_by_part() {
        for kept in [
            r#"  "OrdersConnectionString": "mongodb://db-a.svc:27017,db-b.svc:27017,db-c.svc:27017/orders?replicaSet=prod&readPreference=secondary","#,
            "ConnectionStrings__Events=mongodb://ev-1:27017,ev-2:27017/?tls=true",
        ] {
            assert_eq!(r(kept), kept);
        }
        assert_eq!(
            r("ConnectionStrings__Events=mongodb://app:Wq9-pw@ev-1:27017,ev-2:27017/events?replicaSet=rs1"),
            "ConnectionStrings__Events=mongodb://app:[REDACTED]@ev-1:27017,ev-2:27017/events?replicaSet=rs1"
        );
        // A `?` in a value after a URI is no query of a host.
        assert_eq!(
            r("ConnectionStrings__Bus=amqp://mq.svc:5672,Password=ab?c.d"),
            "ConnectionStrings__Bus=amqp://mq.svc:5672,Password=[REDACTED]"
        );
    }

    #[test]
    fn values_whose_own_names_say_which_part_is_secret() {
        assert_eq!(
            r(
                "SqlOptions { ConnectionString = Data Source=db01;Initial Catalog=shop;User ID=app;Password=Pa55word!, Retries = 3 }"
            ),
            "SqlOptions { ConnectionString = Data Source=db01;Initial Catalog=shop;User ID=app;Password=[REDACTED], Retries = 3 }"
        );
        assert_eq!(
            r(
                "CREATE DATABASE SCOPED CREDENTIAL [Logs] WITH IDENTITY = 'SAS', SECRET = 'sv=2023-01-03&ss=f&sp=r&sig=AbCdEf0123456789%2B%3D';"
            ),
            "CREATE DATABASE SCOPED CREDENTIAL [Logs] WITH IDENTITY = 'SAS', SECRET = 'sv=2023-01-03&ss=f&sp=r&sig=[REDACTED]';"
        );
        assert_eq!(
            r(
                r#"login required username="$ConnectionString" password="Endpoint=sb://bus.example.net/;SharedAccessKeyName=send;SharedAccessKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==";"#
            ),
            r#"login required username="$ConnectionString" password="Endpoint=sb://bus.example.net/;SharedAccessKeyName=send;SharedAccessKey=[REDACTED]";"#
        );
        assert_eq!(
            r("2026-01-01|WARN|App.Sms|client ApiToken=abc123def456ghi789|url: /status"),
            "2026-01-01|WARN|App.Sms|client ApiToken=[REDACTED]|url: /status"
        );
    }
}
