//! The shape every MCP client accepts for a tool, prompt, resource and
//! resource template, for every protocol version the host serves
//! (2024-11-05 to 2026-07-28).
//!
//! The rules are the strictest reading of three sources, because a
//! descriptor must pass all of them: the specification's schema of each
//! version, the TypeScript SDK client (inside most desktop and IDE clients)
//! and the Python SDK client. Both clients reject a whole `tools/list`
//! answer when one element fails, so one bad tool costs every tool of the
//! server. docs/clients.md lists where the three disagree; in short:
//!
//! * optional fields are omitted, never `null`; strings are strings and
//!   hints are booleans (one client coerces, the other refuses);
//! * `inputSchema` and `outputSchema` have `"type": "object"` at the root,
//!   every value under `properties` is an object, `required` is a list of
//!   strings;
//! * an `outputSchema` must compile in both clients' validators (JSON Schema
//!   draft-07 in one, 2020-12 in the other): only local `$ref`s that
//!   resolve, no `$id`, no keyword whose meaning differs between the two
//!   drafts, and patterns that both regular-expression dialects accept;
//! * tool names are 1 to 128 of `A-Z a-z 0-9 _ - .`; `_meta` keys follow
//!   the specification's key grammar and avoid its reserved prefixes;
//!   icons, annotations, sizes and dates have the specified shapes.

use std::fmt;

use serde_json::{Map, Value};

/// One way a descriptor fails: the field (a path such as
/// `outputSchema.type` or `icons[0].src`) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where, as a path from the descriptor's root.
    pub field: String,
    /// What is wrong, and what a client does about it when that helps.
    pub reason: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.reason)
    }
}

/// Collects problems under a path.
struct Check {
    problems: Vec<Problem>,
}

impl Check {
    fn new() -> Self {
        Self { problems: Vec::new() }
    }

    fn fail(&mut self, field: &str, reason: impl Into<String>) {
        self.problems.push(Problem { field: field.to_owned(), reason: reason.into() });
    }

    /// The descriptor as an object, or a problem at its root.
    fn object<'a>(&mut self, value: &'a Value, what: &str) -> Option<&'a Map<String, Value>> {
        let object = value.as_object();
        if object.is_none() {
            self.fail("(root)", format!("a {what} descriptor must be a JSON object, not {}", kind(value)));
        }
        object
    }

    /// A required string.
    fn string<'a>(&mut self, object: &'a Map<String, Value>, key: &str, path: &str) -> Option<&'a str> {
        match object.get(key) {
            None => {
                self.fail(&join(path, key), "is required");
                None
            }
            Some(value) => self.string_value(value, &join(path, key)),
        }
    }

    fn string_value<'a>(&mut self, value: &'a Value, field: &str) -> Option<&'a str> {
        let text = value.as_str();
        if text.is_none() {
            self.fail(field, format!("must be a string, not {}", kind(value)));
        }
        text
    }

    /// An optional field: present means not `null`, and of the right kind.
    fn optional<'a>(&mut self, object: &'a Map<String, Value>, key: &str, path: &str) -> Option<&'a Value> {
        match object.get(key) {
            Some(Value::Null) => {
                self.fail(
                    &join(path, key),
                    "must be omitted rather than null (the TypeScript SDK client rejects null)",
                );
                None
            }
            other => other,
        }
    }

    fn optional_string<'a>(&mut self, object: &'a Map<String, Value>, key: &str, path: &str) -> Option<&'a str> {
        let value = self.optional(object, key, path)?;
        self.string_value(value, &join(path, key))
    }

    fn optional_bool(&mut self, object: &Map<String, Value>, key: &str, path: &str) {
        if let Some(value) = self.optional(object, key, path)
            && !value.is_boolean()
        {
            self.fail(&join(path, key), format!("must be true or false, not {}", kind(value)));
        }
    }

    /// `title` and `description`, shared by every descriptor.
    fn texts(&mut self, object: &Map<String, Value>, path: &str) {
        self.optional_string(object, "title", path);
        self.optional_string(object, "description", path);
    }

    /// `_meta`: an object whose keys follow the specification's grammar.
    fn meta(&mut self, object: &Map<String, Value>, path: &str) {
        let Some(meta) = self.optional(object, "_meta", path) else { return };
        let field = join(path, "_meta");
        let Some(meta) = meta.as_object() else {
            self.fail(&field, format!("must be an object, not {}", kind(meta)));
            return;
        };
        for key in meta.keys() {
            if let Err(reason) = meta_key(key) {
                self.fail(&format!("{field}.{key}"), reason);
            }
        }
    }

    /// `icons`: objects with an `https:` or `data:` source, sizes as a list
    /// of `WxH` or `any`, a theme of `light` or `dark`.
    fn icons(&mut self, object: &Map<String, Value>, path: &str) {
        let Some(icons) = self.optional(object, "icons", path) else { return };
        let field = join(path, "icons");
        let Some(icons) = icons.as_array() else {
            self.fail(&field, format!("must be a list of icons, not {}", kind(icons)));
            return;
        };
        for (index, icon) in icons.iter().enumerate() {
            let at = format!("{field}[{index}]");
            let Some(icon) = icon.as_object() else {
                self.fail(&at, format!("an icon must be an object, not {}", kind(icon)));
                continue;
            };
            if let Some(src) = self.string(icon, "src", &at) {
                let scheme = src.split_once(':').map(|(scheme, _)| scheme.to_ascii_lowercase());
                if !matches!(scheme.as_deref(), Some("https" | "data")) {
                    self.fail(&join(&at, "src"), "must be an https: or data: URI (clients must refuse other schemes)");
                }
            }
            self.optional_string(icon, "mimeType", &at);
            if let Some(sizes) = self.optional(icon, "sizes", &at) {
                match sizes.as_array() {
                    Some(sizes) => {
                        for (position, size) in sizes.iter().enumerate() {
                            let size_field = format!("{at}.sizes[{position}]");
                            if let Some(size) = self.string_value(size, &size_field)
                                && !is_icon_size(size)
                            {
                                self.fail(
                                    &size_field,
                                    format!("must be WIDTHxHEIGHT (\"48x48\") or \"any\", not {size:?}"),
                                );
                            }
                        }
                    }
                    None => self.fail(
                        &join(&at, "sizes"),
                        format!("must be a list of strings such as [\"48x48\"], not {}", kind(sizes)),
                    ),
                }
            }
            if let Some(theme) = self.optional_string(icon, "theme", &at)
                && !matches!(theme, "light" | "dark")
            {
                self.fail(&join(&at, "theme"), format!("must be \"light\" or \"dark\", not {theme:?}"));
            }
        }
    }

    /// Resource `annotations`: audience, priority, lastModified.
    fn resource_annotations(&mut self, object: &Map<String, Value>, path: &str) {
        let Some(annotations) = self.optional(object, "annotations", path) else { return };
        let field = join(path, "annotations");
        let Some(annotations) = annotations.as_object() else {
            self.fail(&field, format!("must be an object, not {}", kind(annotations)));
            return;
        };
        if let Some(audience) = self.optional(annotations, "audience", &field) {
            let ok = audience
                .as_array()
                .is_some_and(|roles| roles.iter().all(|role| matches!(role.as_str(), Some("user" | "assistant"))));
            if !ok {
                self.fail(&join(&field, "audience"), "must be a list of \"user\" and \"assistant\"");
            }
        }
        if let Some(priority) = self.optional(annotations, "priority", &field)
            && !priority.as_f64().is_some_and(|priority| (0.0..=1.0).contains(&priority))
        {
            self.fail(&join(&field, "priority"), "must be a number from 0 to 1");
        }
        if let Some(modified) = self.optional_string(annotations, "lastModified", &field)
            && !is_rfc3339(modified)
        {
            self.fail(
                &join(&field, "lastModified"),
                format!(
                    "must be an RFC 3339 date and time with seconds and an offset, such as \"2025-01-12T15:00:58Z\", \
                     not {modified:?}"
                ),
            );
        }
    }
}

/// Checks a tool descriptor (the MCP `Tool` object a plugin offers).
pub fn check_tool(tool: &Value) -> Vec<Problem> {
    let mut check = Check::new();
    let Some(object) = check.object(tool, "tool") else { return check.problems };
    if let Some(name) = check.string(object, "name", "")
        && !is_tool_name(name)
    {
        check.fail("name", format!("{name:?} is not a tool name: 1 to 128 of A-Z a-z 0-9 _ - ."));
    }
    check.texts(object, "");
    match object.get("inputSchema") {
        None => check.fail("inputSchema", "is required"),
        Some(schema) => schema_rules(&mut check, schema, "inputSchema", false),
    }
    if let Some(schema) = check.optional(object, "outputSchema", "") {
        schema_rules(&mut check, schema, "outputSchema", true);
    }
    if let Some(annotations) = check.optional(object, "annotations", "") {
        match annotations.as_object() {
            Some(annotations) => {
                check.optional_string(annotations, "title", "annotations");
                for hint in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
                    check.optional_bool(annotations, hint, "annotations");
                }
            }
            None => check.fail("annotations", format!("must be an object, not {}", kind(annotations))),
        }
    }
    if let Some(execution) = check.optional(object, "execution", "") {
        let support = execution.get("taskSupport");
        let valid = execution.is_object()
            && support.is_none_or(|support| matches!(support.as_str(), Some("forbidden" | "optional" | "required")));
        if !valid {
            check.fail("execution", "must be {\"taskSupport\": \"forbidden\" | \"optional\" | \"required\"}");
        }
    }
    check.icons(object, "");
    check.meta(object, "");
    check.problems
}

/// Checks a prompt descriptor (the MCP `Prompt` object).
pub fn check_prompt(prompt: &Value) -> Vec<Problem> {
    let mut check = Check::new();
    let Some(object) = check.object(prompt, "prompt") else { return check.problems };
    if check.string(object, "name", "").is_some_and(str::is_empty) {
        check.fail("name", "must not be empty");
    }
    check.texts(object, "");
    if let Some(arguments) = check.optional(object, "arguments", "") {
        match arguments.as_array() {
            Some(arguments) => {
                let mut names = Vec::new();
                for (index, argument) in arguments.iter().enumerate() {
                    let at = format!("arguments[{index}]");
                    let Some(argument) = argument.as_object() else {
                        check.fail(&at, format!("an argument must be an object, not {}", kind(argument)));
                        continue;
                    };
                    if let Some(name) = check.string(argument, "name", &at) {
                        if names.contains(&name) {
                            check.fail(&join(&at, "name"), format!("the argument {name:?} is declared twice"));
                        }
                        names.push(name);
                    }
                    check.texts(argument, &at);
                    check.optional_bool(argument, "required", &at);
                }
            }
            None => check.fail("arguments", format!("must be a list, not {}", kind(arguments))),
        }
    }
    check.icons(object, "");
    check.meta(object, "");
    check.problems
}

/// Checks a resource descriptor (the MCP `Resource` object).
pub fn check_resource(resource: &Value) -> Vec<Problem> {
    let mut check = Check::new();
    let Some(object) = check.object(resource, "resource") else { return check.problems };
    if let Some(uri) = check.string(object, "uri", "")
        && !is_absolute_uri(uri)
    {
        check.fail("uri", format!("{uri:?} is not an absolute URI (RFC 3986: a scheme, a colon, then the rest)"));
    }
    resource_common(&mut check, object);
    if let Some(size) = check.optional(object, "size", "")
        && !size.is_u64()
    {
        check.fail("size", format!("must be a whole number of bytes, 0 or more, not {size}"));
    }
    check.problems
}

/// Checks a resource template descriptor (the MCP `ResourceTemplate` object).
pub fn check_resource_template(template: &Value) -> Vec<Problem> {
    let mut check = Check::new();
    let Some(object) = check.object(template, "resource template") else { return check.problems };
    if let Some(template) = check.string(object, "uriTemplate", "")
        && let Err(reason) = uri_template(template)
    {
        check.fail("uriTemplate", reason);
    }
    resource_common(&mut check, object);
    check.problems
}

/// What resources and templates share: name, texts, MIME type, annotations, icons, `_meta`.
fn resource_common(check: &mut Check, object: &Map<String, Value>) {
    check.string(object, "name", "");
    check.texts(object, "");
    check.optional_string(object, "mimeType", "");
    check.resource_annotations(object, "");
    check.icons(object, "");
    check.meta(object, "");
}

/// Keywords whose meaning differs between JSON Schema draft-07 (the
/// TypeScript client's validator) and 2020-12 (the Python client's), or
/// that one of them ignores: structured content checked against them would
/// pass in one client and fail in the other.
const DIALECT_SPLIT_KEYWORDS: [&str; 11] = [
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentRequired",
    "dependentSchemas",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "minContains",
    "maxContains",
    "dependencies",
];

/// The two dialects both clients read the same way when declared.
const KNOWN_DIALECTS: [&str; 3] = [
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft/2020-12/schema",
];

/// The root rules of `inputSchema` and `outputSchema`, then, for an output
/// schema (which clients compile), the rules that make it compile in both.
fn schema_rules(check: &mut Check, schema: &Value, field: &str, compiled_by_clients: bool) {
    let Some(object) = schema.as_object() else {
        check.fail(field, format!("must be a JSON Schema object, not {}", kind(schema)));
        return;
    };
    match object.get("type") {
        Some(Value::String(kind)) if kind == "object" => {}
        Some(other) => check.fail(
            &join(field, "type"),
            format!(
                "must be \"object\", not {other} (every MCP client requires an object schema at the root; put \
                 anyOf/oneOf under it)"
            ),
        ),
        None => check.fail(
            &join(field, "type"),
            "is required and must be \"object\" (the official SDK clients reject the whole tools/list without it; \
             put anyOf/oneOf under a root that says \"type\": \"object\")",
        ),
    }
    if let Some(properties) = check.optional(object, "properties", field) {
        match properties.as_object() {
            Some(properties) => {
                for (name, property) in properties {
                    if !property.is_object() {
                        check.fail(
                            &format!("{field}.properties.{name}"),
                            format!("must be a schema object, not {} (boolean schemas are refused)", kind(property)),
                        );
                    }
                }
            }
            None => check.fail(&join(field, "properties"), format!("must be an object, not {}", kind(properties))),
        }
    }
    if let Some(required) = check.optional(object, "required", field)
        && !required.as_array().is_some_and(|names| names.iter().all(Value::is_string))
    {
        check.fail(&join(field, "required"), "must be a list of property names");
    }
    if let Some(dialect) = check.optional(object, "$schema", field) {
        match dialect.as_str() {
            Some(dialect) if compiled_by_clients && !KNOWN_DIALECTS.contains(&dialect) => check.fail(
                &join(field, "$schema"),
                format!("{dialect:?} is not draft-07 or 2020-12, the dialects both SDK clients read alike"),
            ),
            Some(_) => {}
            None => check.fail(&join(field, "$schema"), format!("must be a string, not {}", kind(dialect))),
        }
    }
    headers(check, object, field);
    if compiled_by_clients {
        portable_schema(check, schema, schema, field);
    }
}

/// Rules that make a schema compile the same in both SDK clients, applied
/// to every subschema: local `$ref`s that resolve, no `$id`, no keyword
/// that the two drafts read differently, array-form `items` nowhere, and
/// patterns both regular-expression dialects accept.
fn portable_schema(check: &mut Check, root: &Value, schema: &Value, path: &str) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object {
                let field = join(path, key);
                match key.as_str() {
                    "$id" => check.fail(
                        &field,
                        "must not be set in an outputSchema (one client caches validators by $id across tools)",
                    ),
                    "$ref" => match value.as_str() {
                        Some(reference) if reference.starts_with('#') => {
                            if resolve_pointer(root, &reference[1..]).is_none() {
                                check.fail(&field, format!("{reference:?} does not resolve inside the schema"));
                            }
                        }
                        _ => check.fail(&field, "must be a local reference (\"#/…\"); schemas are never fetched"),
                    },
                    "items" | "additionalItems" if value.is_array() || key == "additionalItems" => check.fail(
                        &field,
                        "array-form items and additionalItems mean different things in draft-07 and 2020-12",
                    ),
                    "pattern" => {
                        if let Some(pattern) = value.as_str()
                            && let Err(reason) = portable_pattern(pattern)
                        {
                            check.fail(&field, reason);
                        }
                    }
                    "patternProperties" => {
                        if let Some(patterns) = value.as_object() {
                            for pattern in patterns.keys() {
                                if let Err(reason) = portable_pattern(pattern) {
                                    check.fail(&format!("{field}.{pattern}"), reason);
                                }
                            }
                        }
                    }
                    keyword if DIALECT_SPLIT_KEYWORDS.contains(&keyword) => check.fail(
                        &field,
                        "is read differently (or ignored) by one of the two SDK clients' JSON Schema drafts",
                    ),
                    _ => {}
                }
                // Values under these keys are names, not schemas.
                if !matches!(key.as_str(), "enum" | "const" | "examples" | "default" | "required") {
                    portable_schema(check, root, value, &field);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                portable_schema(check, root, item, &format!("{path}[{index}]"));
            }
        }
        _ => {}
    }
}

/// `x-mcp-header` (2026-07-28): a property sent as an HTTP header must be a
/// primitive other than `number`, named by a unique token, and reachable
/// from the root through `properties` only.
fn headers(check: &mut Check, schema: &Map<String, Value>, field: &str) {
    let mut names: Vec<String> = Vec::new();
    reachable_headers(check, schema, field, &mut names);
    misplaced_headers(check, &Value::Object(schema.clone()), field, true);
}

fn reachable_headers(check: &mut Check, schema: &Map<String, Value>, field: &str, names: &mut Vec<String>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return };
    for (name, property) in properties {
        let at = format!("{field}.properties.{name}");
        let Some(property) = property.as_object() else { continue };
        if let Some(header) = property.get("x-mcp-header") {
            let at = join(&at, "x-mcp-header");
            match header.as_str() {
                Some(header) if is_http_token(header) => {
                    if names.iter().any(|known| known.eq_ignore_ascii_case(header)) {
                        check.fail(&at, format!("the header {header:?} is used twice"));
                    }
                    names.push(header.to_owned());
                }
                _ => check.fail(&at, "must be an HTTP field name (letters, digits and !#$%&'*+-.^_`|~)"),
            }
            if !matches!(property.get("type").and_then(Value::as_str), Some("string" | "integer" | "boolean")) {
                check.fail(&at, "may only mark a string, integer or boolean property");
            }
        }
        reachable_headers(check, property, &at, names);
    }
}

/// Reports `x-mcp-header` anywhere it is not reachable through `properties`.
fn misplaced_headers(check: &mut Check, schema: &Value, field: &str, reachable: bool) {
    let Value::Object(object) = schema else {
        if let Value::Array(items) = schema {
            for (index, item) in items.iter().enumerate() {
                misplaced_headers(check, item, &format!("{field}[{index}]"), false);
            }
        }
        return;
    };
    if !reachable && object.contains_key("x-mcp-header") {
        check.fail(
            &join(field, "x-mcp-header"),
            "must sit on a property reachable from the root through \"properties\" only",
        );
    }
    for (key, value) in object {
        if key == "properties" {
            if let Some(properties) = value.as_object() {
                for (name, property) in properties {
                    misplaced_headers(check, property, &format!("{field}.properties.{name}"), reachable);
                }
            }
        } else {
            misplaced_headers(check, value, &join(field, key), false);
        }
    }
}

/// Constructs that one of the two clients' regular-expression dialects
/// refuses: ECMAScript with the `u` flag (TypeScript) and Python's `re`.
fn portable_pattern(pattern: &str) -> Result<(), String> {
    const JS_REFUSES: [(&str, &str); 6] = [
        ("(?P<", "Python-style named groups"),
        ("(?P=", "Python-style back-references"),
        ("\\Z", "\\Z"),
        ("\\A", "\\A"),
        ("(?#", "comments"),
        ("\\z", "\\z"),
    ];
    const PY_REFUSES: [(&str, &str); 2] = [("\\p{", "Unicode property classes"), ("\\P{", "Unicode property classes")];
    for (construct, name) in JS_REFUSES {
        if pattern.contains(construct) {
            return Err(format!(
                "uses {name}, which JavaScript regular expressions (the TypeScript client) refuse: {pattern:?}"
            ));
        }
    }
    if has_inline_flags(pattern) {
        return Err(format!(
            "uses inline flags such as (?i), which JavaScript regular expressions (the TypeScript client) refuse: \
             {pattern:?}"
        ));
    }
    for (construct, name) in PY_REFUSES {
        if pattern.contains(construct) {
            return Err(format!("uses {name}, which Python's re module (the Python client) refuses: {pattern:?}"));
        }
    }
    Ok(())
}

/// `(?i)`, `(?ms:…)` and the like.
fn has_inline_flags(pattern: &str) -> bool {
    pattern.match_indices("(?").any(|(at, _)| {
        let rest = &pattern[at + 2..];
        let flags: String = rest.chars().take_while(|c| "aiLmsux-".contains(*c)).collect();
        !flags.is_empty() && rest[flags.len()..].starts_with([')', ':'])
    })
}

/// Follows a JSON pointer (`/a/b`) inside `root`.
fn resolve_pointer<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let pointer = percent_decode(pointer);
    root.pointer(&pointer)
}

/// Decodes `%XX` escapes in a URI fragment (a `$ref` is a URI).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |at: usize| bytes.get(at).and_then(|byte| (*byte as char).to_digit(16));
        match (bytes[at], hex(at + 1), hex(at + 2)) {
            (b'%', Some(high), Some(low)) => {
                decoded.push((high * 16 + low) as u8);
                at += 3;
            }
            (byte, _, _) => {
                decoded.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// Whether `name` is a valid MCP tool name: 1–128 of `A-Z a-z 0-9 _ - .`.
pub fn is_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.'))
}

/// The `_meta` key grammar of 2025-06-18 and later, and the reserved
/// prefixes of both its definitions (2025-06-18: a `mcp` or
/// `modelcontextprotocol` label followed by another label; 2025-11-25: the
/// second label is one of them).
fn meta_key(key: &str) -> Result<(), String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    let name_ok = name.is_empty()
        || (name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.ends_with(|c: char| c.is_ascii_alphanumeric())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')));
    if !name_ok {
        return Err(format!(
            "{key:?} is not a valid _meta key: its name must start and end with a letter or digit and hold only \
             letters, digits, '-', '_' and '.'"
        ));
    }
    let Some(prefix) = prefix else { return Ok(()) };
    let labels: Vec<&str> = prefix.split('.').collect();
    let label_ok = |label: &&str| {
        label.starts_with(|c: char| c.is_ascii_alphabetic())
            && label.ends_with(|c: char| c.is_ascii_alphanumeric())
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if !labels.iter().all(label_ok) {
        return Err(format!(
            "{key:?} is not a valid _meta key: its prefix must be dot-separated labels that start with a letter \
             and end with a letter or digit"
        ));
    }
    let reserved = |label: &str| matches!(label, "mcp" | "modelcontextprotocol");
    let second = labels.get(1).is_some_and(|label| reserved(label));
    let followed = labels.iter().take(labels.len().saturating_sub(1)).any(|label| reserved(label));
    if second || followed {
        return Err(format!("{key:?} uses a _meta prefix reserved for MCP itself; use your own (reverse DNS)"));
    }
    Ok(())
}

/// `48x48` or `any`.
fn is_icon_size(size: &str) -> bool {
    size == "any"
        || size.split_once('x').is_some_and(|(width, height)| {
            [width, height].iter().all(|part| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()))
        })
}

/// An HTTP field name: one or more `tchar` (RFC 9110, section 5.6.2).
fn is_http_token(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
}

/// A scheme (a letter, then letters, digits, `+ - .`), a colon, and more.
fn is_absolute_uri(uri: &str) -> bool {
    let Some((scheme, rest)) = uri.split_once(':') else { return false };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !uri.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// An RFC 6570 URI template: balanced expressions with a valid operator and
/// variable names, on an absolute URI.
fn uri_template(template: &str) -> Result<(), String> {
    let mut rest = template;
    let mut literal = String::new();
    while let Some(open) = rest.find(['{', '}']) {
        literal.push_str(&rest[..open]);
        if rest[open..].starts_with('}') {
            return Err(format!("{template:?} has a '}}' without its '{{'"));
        }
        let Some(close) = rest[open..].find('}') else {
            return Err(format!("{template:?} has a '{{' without its '}}'"));
        };
        let expression = &rest[open + 1..open + close];
        let variables = expression.strip_prefix(['+', '#', '.', '/', ';', '?', '&']).unwrap_or(expression);
        let valid = !variables.is_empty()
            && variables.split(',').all(|variable| {
                let name = variable.strip_suffix('*').unwrap_or(variable);
                let name = name.split_once(':').map_or(name, |(name, length)| {
                    if length.is_empty() || !length.bytes().all(|byte| byte.is_ascii_digit()) { "" } else { name }
                });
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '%'))
            });
        if !valid {
            return Err(format!("{template:?} has an invalid expression {{{expression}}} (RFC 6570)"));
        }
        literal.push('x');
        rest = &rest[open + close + 1..];
    }
    literal.push_str(rest);
    if !is_absolute_uri(&literal) {
        return Err(format!("{template:?} does not expand to an absolute URI (a scheme, a colon, then the rest)"));
    }
    Ok(())
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` on a real calendar day.
fn is_rfc3339(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = text.get(range)?;
        part.bytes().all(|byte| byte.is_ascii_digit()).then(|| part.parse().ok())?
    };
    let shape = bytes.len() >= 20
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes[10] == b'T'
        && bytes[13] == b':'
        && bytes[16] == b':';
    if !shape {
        return false;
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) =
        (digits(0..4), digits(5..7), digits(8..10), digits(11..13), digits(14..16), digits(17..19))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || hour > 23 || minute > 59 || second > 59 {
        return false;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let length = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if length == 0 {
            return false;
        }
        rest = &fraction[length..];
    }
    match rest.as_bytes() {
        [b'Z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            let number =
                |a: u8, b: u8| (a.is_ascii_digit() && b.is_ascii_digit()).then(|| (a - b'0') * 10 + (b - b'0'));
            number(*h1, *h2).is_some_and(|hours| hours <= 23) && number(*m1, *m2).is_some_and(|minutes| minutes <= 59)
        }
        _ => false,
    }
}

/// `path.key`, or `key` at the root.
fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") }
}

/// A JSON value's kind, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(problems: &[Problem]) -> Vec<&str> {
        problems.iter().map(|problem| problem.field.as_str()).collect()
    }

    fn tool(extra: Value) -> Value {
        let mut tool = json!({ "name": "t", "inputSchema": { "type": "object" } });
        tool.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        tool
    }

    #[test]
    fn a_well_formed_tool_passes() {
        let good = tool(json!({
            "title": "T", "description": "d",
            "inputSchema": { "type": "object", "properties": { "a": { "type": "string", "pattern": "^[a-z]+$" } },
                             "required": ["a"] },
            "outputSchema": { "type": "object", "anyOf": [ { "$ref": "#/$defs/ok" }, { "type": "object" } ],
                              "$defs": { "ok": { "type": "object", "properties": { "n": { "type": "integer" } } } } },
            "annotations": { "title": "T", "readOnlyHint": true, "destructiveHint": false },
            "icons": [ { "src": "https://example.com/i.png", "sizes": ["48x48", "any"], "theme": "dark" } ],
            "_meta": { "com.example/flag": true, "plain": 1 }
        }));
        assert_eq!(check_tool(&good), Vec::new());
    }

    #[test]
    fn an_output_schema_without_a_root_object_type_is_refused() {
        let problems = check_tool(&tool(json!({ "outputSchema": { "anyOf": [ { "type": "object" } ] } })));
        assert_eq!(fields(&problems), ["outputSchema.type"]);
        assert!(problems[0].reason.contains("reject the whole tools/list"), "{}", problems[0]);
        let problems = check_tool(&json!({ "name": "t", "inputSchema": { "type": ["object", "null"] } }));
        assert_eq!(fields(&problems), ["inputSchema.type"]);
    }

    #[test]
    fn nulls_wrong_kinds_and_boolean_schemas_are_named() {
        let problems = check_tool(&tool(json!({
            "title": null, "description": 3,
            "inputSchema": { "type": "object", "properties": { "a": true }, "required": "a" },
            "annotations": { "readOnlyHint": "true" }
        })));
        assert_eq!(
            fields(&problems),
            ["title", "description", "inputSchema.properties.a", "inputSchema.required", "annotations.readOnlyHint"]
        );
    }

    #[test]
    fn output_schemas_must_compile_alike_in_both_clients() {
        let problems = check_tool(&tool(json!({ "outputSchema": {
            "type": "object", "$id": "https://x/out",
            "properties": {
                "a": { "$ref": "#/$defs/missing" },
                "b": { "$ref": "https://example.com/s.json" },
                "c": { "type": "string", "pattern": "(?i)abc" },
                "d": { "type": "string", "pattern": "^\\p{L}+$" },
                "e": { "type": "array", "items": [ { "type": "string" } ] },
                "f": { "type": "array", "prefixItems": [ { "type": "string" } ] }
            }
        } })));
        assert_eq!(
            fields(&problems),
            [
                "outputSchema.$id",
                "outputSchema.properties.a.$ref",
                "outputSchema.properties.b.$ref",
                "outputSchema.properties.c.pattern",
                "outputSchema.properties.d.pattern",
                "outputSchema.properties.e.items",
                "outputSchema.properties.f.prefixItems"
            ]
        );
        // Names under `required` and values under `enum` are not schemas.
        let fine = tool(json!({ "outputSchema": { "type": "object", "required": ["$id"],
            "properties": { "k": { "enum": ["$ref", "(?i)"] } } } }));
        assert_eq!(check_tool(&fine), Vec::new());
    }

    #[test]
    fn tool_names_icons_and_meta_keys_follow_the_specification() {
        let problems = check_tool(&json!({
            "name": "has space", "inputSchema": { "type": "object" },
            "icons": [ { "src": "file:///i.png", "sizes": "48x48", "theme": "auto" }, { "sizes": ["big"] } ],
            "_meta": { "io.modelcontextprotocol/x": 1, "modelcontextprotocol.io/y": 2, "-bad-": 3, "com.example.mcp/ok": 4 }
        }));
        assert_eq!(
            fields(&problems),
            [
                "name",
                "icons[0].src",
                "icons[0].sizes",
                "icons[0].theme",
                "icons[1].src",
                "icons[1].sizes[0]",
                "_meta.-bad-",
                "_meta.io.modelcontextprotocol/x",
                "_meta.modelcontextprotocol.io/y"
            ]
        );
    }

    #[test]
    fn mcp_headers_must_be_tokens_on_reachable_primitives() {
        let problems = check_tool(&json!({ "name": "t", "inputSchema": {
            "type": "object",
            "properties": {
                "a": { "type": "string", "x-mcp-header": "Region" },
                "b": { "type": "number", "x-mcp-header": "region" },
                "c": { "type": "string", "x-mcp-header": "bad header" }
            },
            "anyOf": [ { "properties": { "d": { "type": "string", "x-mcp-header": "D" } } } ]
        } }));
        assert_eq!(
            fields(&problems),
            [
                "inputSchema.properties.b.x-mcp-header",
                "inputSchema.properties.b.x-mcp-header",
                "inputSchema.properties.c.x-mcp-header",
                "inputSchema.anyOf[0].properties.d.x-mcp-header"
            ]
        );
    }

    #[test]
    fn prompts_need_a_name_and_well_formed_arguments() {
        let good = json!({ "name": "p", "arguments": [ { "name": "a", "required": true } ] });
        assert_eq!(check_prompt(&good), Vec::new());
        let problems = check_prompt(&json!({ "name": "", "arguments": [
            { "name": "a", "title": 3 }, { "name": "a", "required": "yes" }, "x" ] }));
        assert_eq!(
            fields(&problems),
            ["name", "arguments[0].title", "arguments[1].name", "arguments[1].required", "arguments[2]"]
        );
    }

    #[test]
    fn resources_and_templates_have_uris_sizes_and_dates_as_specified() {
        let good = json!({ "uri": "dotnet://sdk-info", "name": "sdk", "size": 12, "mimeType": "application/json",
                           "annotations": { "audience": ["user"], "priority": 0.5,
                                            "lastModified": "2025-01-12T15:00:58.5+02:00" } });
        assert_eq!(check_resource(&good), Vec::new());
        let problems = check_resource(&json!({ "uri": "not a uri", "name": "r", "size": 1.5,
            "annotations": { "audience": ["everyone"], "priority": 2, "lastModified": "2025-02-30T10:00:00Z" } }));
        assert_eq!(
            fields(&problems),
            ["uri", "annotations.audience", "annotations.priority", "annotations.lastModified", "size"]
        );
        assert_eq!(check_resource_template(&json!({ "uriTemplate": "file:///{path*}{?q,r:3}", "name": "f" })), []);
        let problems = check_resource_template(&json!({ "uriTemplate": "file:///{a", "name": "f" }));
        assert_eq!(fields(&problems), ["uriTemplate"]);
        assert_eq!(fields(&check_resource_template(&json!({ "uriTemplate": "{x}", "name": "f" }))), ["uriTemplate"]);
    }

    #[test]
    fn dates_are_rfc3339_with_seconds_and_an_offset() {
        for good in ["2025-01-12T15:00:58Z", "2024-02-29T23:59:59.123456789-00:00", "2025-01-12T15:00:58+02:00"] {
            assert!(is_rfc3339(good), "{good}");
        }
        for bad in [
            "2025-01-12",
            "2025-01-12T15:00:58",
            "2025-01-12T15:00Z",
            "2025-01-12t15:00:58z",
            "2023-02-29T00:00:00Z",
            "2025-01-12T24:00:00Z",
            "2025-01-12T15:00:58+0200",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }
}
