//! The error model of the machine-readable JSON contract: the `ErrorResponse` envelope, its
//! categories, the MCP error-code mapping, constructors for the common failures, and a JSON
//! Schema of the envelope for tools' `outputSchema`.
//!
//! Every constructor redacts the text it stores (messages, `rawOutput`, `command`, `stderr`,
//! `additionalData` values), so an envelope built here is safe to return as is.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Value, json};

use crate::codes;
use crate::diagnostics::{self, Diagnostic, Severity};
use crate::redact::{redact, redacted_command_line};

/// The synthetic codes of the contract, for errors that are not a tool's diagnostic.
pub mod code {
    /// A parameter failed validation before anything ran.
    pub const INVALID_PARAMS: &str = "INVALID_PARAMS";
    /// The feature exists but cannot run in this environment.
    pub const CAPABILITY_NOT_AVAILABLE: &str = "CAPABILITY_NOT_AVAILABLE";
    /// Another operation holds the lock on the same target.
    pub const CONCURRENCY_CONFLICT: &str = "CONCURRENCY_CONFLICT";
    /// The client cancelled the operation.
    pub const OPERATION_CANCELLED: &str = "OPERATION_CANCELLED";
    /// The operator made the server read-only, and the action would change something.
    pub const READ_ONLY: &str = "READ_ONLY";
    /// A test project and the runner `dotnet test` runs in disagree (a Microsoft.Testing.Platform
    /// project under VSTest or the other way round): the SDK's own error has no code.
    pub const TEST_RUNNER_MISMATCH: &str = "TEST_RUNNER_MISMATCH";
    /// Prefix of `EXIT_<n>`, used when a failed run printed no diagnostic with a code.
    pub const EXIT_PREFIX: &str = "EXIT_";
}

/// The JSON-RPC 2.0 / MCP error codes the contract maps errors to (`mcpErrorCode`).
pub mod mcp_code {
    /// InvalidParams: every `INVALID_PARAMS` (validation) error.
    pub const INVALID_PARAMS: i32 = -32602;
    /// InternalError: concurrency conflicts, cancellations and failed runs nobody classified.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// CapabilityNotAvailable: `CAPABILITY_NOT_AVAILABLE`.
    pub const CAPABILITY_NOT_AVAILABLE: i32 = -32001;
    /// ResourceNotFound: a package, project, SDK or assets file that does not exist.
    pub const RESOURCE_NOT_FOUND: i32 = -32002;
}

/// Diagnostic codes that mean "the thing you asked for does not exist" (contract: ResourceNotFound).
const RESOURCE_NOT_FOUND_CODES: &[&str] = &["NU1101", "NU1102", "MSB1003", "NETSDK1004", "MSB4236"];

/// Longest `message` taken from raw output when no diagnostic was parsed.
const MAX_MESSAGE_CHARS: usize = 500;
/// Longest `data.stderr`; the end is kept because failures are reported last.
const MAX_STDERR_CHARS: usize = 2_000;
/// Longest `rawOutput` of a whole run; the end is kept.
const MAX_RAW_OUTPUT_CHARS: usize = 4_000;

/// What kind of failure an error is, so a client can decide what to do without reading text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCategory {
    /// A parameter failed validation before execution (`INVALID_PARAMS`).
    Validation,
    /// The C# (or VB/F#) compiler or an analyzer rejected the code (`CS####`).
    Compilation,
    /// MSBuild failed (`MSB####`).
    Build,
    /// NuGet failed (`NU####`).
    Package,
    /// The .NET SDK, host or runtime failed outside the categories above (`NETSDK####`).
    Runtime,
    /// The feature is not available in this environment (`CAPABILITY_NOT_AVAILABLE`).
    Capability,
    /// A conflicting operation holds the target (`CONCURRENCY_CONFLICT`).
    Concurrency,
    /// The operation was cancelled (`OPERATION_CANCELLED`).
    Cancellation,
    /// Nothing more specific is known (`EXIT_<n>`).
    Unknown,
}

impl ErrorCategory {
    /// Every category, in the contract's order (for schemas and documentation).
    pub const ALL: [ErrorCategory; 9] = [
        ErrorCategory::Validation,
        ErrorCategory::Compilation,
        ErrorCategory::Build,
        ErrorCategory::Package,
        ErrorCategory::Runtime,
        ErrorCategory::Capability,
        ErrorCategory::Concurrency,
        ErrorCategory::Cancellation,
        ErrorCategory::Unknown,
    ];

    /// The name as serialized (`"Compilation"`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCategory::Validation => "Validation",
            ErrorCategory::Compilation => "Compilation",
            ErrorCategory::Build => "Build",
            ErrorCategory::Package => "Package",
            ErrorCategory::Runtime => "Runtime",
            ErrorCategory::Capability => "Capability",
            ErrorCategory::Concurrency => "Concurrency",
            ErrorCategory::Cancellation => "Cancellation",
            ErrorCategory::Unknown => "Unknown",
        }
    }

    /// The category a code belongs to: by its letter prefix for diagnostics (`CS`, `MSB`, `NU`,
    /// `NETSDK`, case-insensitive and exact, so `NUnit1001` is not NuGet), `dotnet format`'s ids
    /// without digits (`WHITESPACE`: the source's formatting), or the synthetic code's own
    /// category; `Unknown` otherwise.
    pub fn from_code(code: &str) -> ErrorCategory {
        let prefix = code.trim_end_matches(|c: char| c.is_ascii_digit());
        let is = |p: &str| prefix.eq_ignore_ascii_case(p) && prefix.len() < code.len();
        if is("CS") {
            ErrorCategory::Compilation
        } else if is("MSB") {
            ErrorCategory::Build
        } else if is("NU") {
            ErrorCategory::Package
        } else if is("NETSDK") {
            ErrorCategory::Runtime
        } else {
            match code {
                _ if diagnostics::FORMAT_IDS.contains(&code) => ErrorCategory::Compilation,
                code::TEST_RUNNER_MISMATCH => ErrorCategory::Build,
                code::INVALID_PARAMS => ErrorCategory::Validation,
                code::CAPABILITY_NOT_AVAILABLE | code::READ_ONLY => ErrorCategory::Capability,
                code::CONCURRENCY_CONFLICT => ErrorCategory::Concurrency,
                code::OPERATION_CANCELLED => ErrorCategory::Cancellation,
                _ => ErrorCategory::Unknown,
            }
        }
    }
}

/// The contract's MCP error code for an error, or `None` when it defines none (compilation and
/// build errors that are not about a missing resource):
/// resource-not-found codes (NU1101, NU1102, MSB1003, NETSDK1004, MSB4236) → -32002;
/// Validation → -32602; Capability → -32001; Concurrency, Cancellation and an unclassified
/// non-zero exit → -32603.
pub fn mcp_error_code(code: &str, category: ErrorCategory, exit_code: i32) -> Option<i32> {
    if RESOURCE_NOT_FOUND_CODES.iter().any(|c| c.eq_ignore_ascii_case(code)) {
        return Some(mcp_code::RESOURCE_NOT_FOUND);
    }
    match category {
        ErrorCategory::Validation => Some(mcp_code::INVALID_PARAMS),
        ErrorCategory::Capability => Some(mcp_code::CAPABILITY_NOT_AVAILABLE),
        ErrorCategory::Concurrency | ErrorCategory::Cancellation => Some(mcp_code::INTERNAL_ERROR),
        ErrorCategory::Unknown if exit_code != 0 => Some(mcp_code::INTERNAL_ERROR),
        _ => None,
    }
}

/// Structured context of an error, for programs rather than the model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorData {
    /// The executed command line, redacted; absent when nothing ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The process exit code, `-1` when nothing ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The end of the standard error output, redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// Context that depends on the error (parameter and reason, feature, lock target, location).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_data: Option<BTreeMap<String, String>>,
}

/// One error of an [`ErrorResponse`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorResult {
    /// Diagnostic code (`CS0103`, `NU1101`) or synthetic code ([`code`]).
    pub code: String,
    /// What went wrong, in one sentence.
    pub message: String,
    /// Kind of failure.
    pub category: ErrorCategory,
    /// What to try first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// What the code means, in plain words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// Page documenting the code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documentation_url: Option<String>,
    /// Fixes to try, most likely first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_fixes: Option<Vec<String>>,
    /// Other ways to reach the goal when this one cannot work here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Vec<String>>,
    /// The output this error was read from, redacted (empty when nothing ran).
    pub raw_output: String,
    /// JSON-RPC error code per [`mcp_error_code`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_error_code: Option<i32>,
    /// Structured context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<ErrorData>,
}

/// `additionalData` from key/value pairs, values redacted.
fn additional(pairs: &[(&str, &str)]) -> Option<BTreeMap<String, String>> {
    Some(pairs.iter().map(|(k, v)| ((*k).to_owned(), redact(v).into_owned())).collect())
}

/// The last `max_chars` characters of `text`, marked when something was cut.
fn keep_end(text: &str, max_chars: usize) -> String {
    match text.char_indices().rev().nth(max_chars) {
        Some((cut, c)) => format!("[... earlier output omitted]\n{}", &text[cut + c.len_utf8()..]),
        None => text.to_owned(),
    }
}

/// The first `max_chars` characters of `text`, marked when something was cut.
fn keep_start(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

impl ErrorResult {
    /// A bare error with the category and MCP code its `code` implies for a run that never
    /// started; add context with the `with_*` methods. The message is redacted.
    pub fn new(code: impl Into<String>, message: &str) -> Self {
        let code = code.into();
        let category = ErrorCategory::from_code(&code);
        ErrorResult {
            mcp_error_code: mcp_error_code(&code, category, -1),
            code,
            message: redact(message).into_owned(),
            category,
            hint: None,
            explanation: None,
            documentation_url: None,
            suggested_fixes: None,
            alternatives: None,
            raw_output: String::new(),
            data: None,
        }
    }

    /// Sets the hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Sets the structured data.
    pub fn with_data(mut self, data: ErrorData) -> Self {
        self.data = Some(data);
        self
    }

    /// Fills `explanation`, `documentationUrl`, `suggestedFixes` and (when empty) `hint` from
    /// the [`codes`] dictionary, or only the documentation link for an unlisted code with a
    /// known documentation pattern, so every error carries guidance when there is some.
    pub fn with_code_details(mut self) -> Self {
        if let Some(info) = codes::lookup(&self.code) {
            self.explanation = Some(info.explanation.to_owned());
            self.suggested_fixes = Some(info.suggested_fixes.iter().map(|f| (*f).to_owned()).collect());
            if self.hint.is_none() {
                self.hint = info.suggested_fixes.first().map(|f| (*f).to_owned());
            }
            self.documentation_url = info.documentation_url();
        } else {
            self.documentation_url = codes::documentation_url(&self.code);
        }
        self
    }

    /// A parameter failed validation: `INVALID_PARAMS`, category Validation, MCP -32602,
    /// `additionalData {parameter, reason}`, exit code -1 (nothing ran).
    /// `reason` is a short label (`required`, `invalid value`); `message` is the sentence.
    pub fn invalid_params(parameter: &str, reason: &str, message: &str) -> Self {
        ErrorResult::new(code::INVALID_PARAMS, message)
            .with_hint("Correct the parameter named in additionalData.parameter and call the tool again.")
            .with_data(ErrorData {
                exit_code: Some(-1),
                additional_data: additional(&[("parameter", parameter), ("reason", reason)]),
                ..ErrorData::default()
            })
    }

    /// A feature that cannot run here (missing SDK, workload, OS support, not implemented):
    /// `CAPABILITY_NOT_AVAILABLE`, category Capability, MCP -32001, with the alternatives to
    /// offer and `additionalData {feature, reason}`.
    pub fn capability_not_available(feature: &str, reason: &str, alternatives: Vec<String>) -> Self {
        let mut error =
            ErrorResult::new(code::CAPABILITY_NOT_AVAILABLE, &format!("'{feature}' is not available here: {reason}"))
                .with_hint("Use one of the alternatives, or change the environment so the capability is present.")
                .with_data(ErrorData {
                    exit_code: Some(-1),
                    additional_data: additional(&[("feature", feature), ("reason", reason)]),
                    ..ErrorData::default()
                });
        error.explanation = Some(
            "The server knows this feature, but the environment it runs in cannot provide it \
             (a missing tool, SDK or workload, an operating-system limit, or a disabled or unfinished feature)."
                .to_owned(),
        );
        error.alternatives = Some(alternatives.iter().map(|a| redact(a).into_owned()).collect());
        error
    }

    /// An action that changes something, named while the operator has made the server read-only:
    /// `READ_ONLY`, category Capability, MCP -32001, `additionalData {action, readOnlyActions}`.
    pub fn read_only(action: &str, offered: &[&str]) -> Self {
        let offered = offered.join(", ");
        ErrorResult::new(
            code::READ_ONLY,
            &format!(
                "Action '{action}' changes files or the machine, and this server is read-only (its operator set \
                 ReadOnly). The actions offered here: {offered}."
            ),
        )
        .with_hint("Use one of the read-only actions, or ask the operator to turn ReadOnly off.")
        .with_data(ErrorData {
            exit_code: Some(-1),
            additional_data: additional(&[("action", action), ("readOnlyActions", &offered)]),
            ..ErrorData::default()
        })
    }

    /// Another operation holds the target: `CONCURRENCY_CONFLICT`, category Concurrency,
    /// MCP -32603, `additionalData {operationType, target, conflictingOperation}`.
    pub fn concurrency_conflict(operation: &str, target: &str, conflicting_operation: &str) -> Self {
        ErrorResult::new(
            code::CONCURRENCY_CONFLICT,
            &format!("'{operation}' on '{target}' was refused: {conflicting_operation} is still running on it"),
        )
        .with_hint("Retry when the other operation has finished, or cancel it first.")
        .with_data(ErrorData {
            exit_code: Some(-1),
            additional_data: additional(&[
                ("operationType", operation),
                ("target", target),
                ("conflictingOperation", conflicting_operation),
            ]),
            ..ErrorData::default()
        })
    }

    /// The client cancelled a run: `OPERATION_CANCELLED`, category Cancellation, MCP -32603,
    /// with what the process had printed so far (redacted, its end kept) in `rawOutput`.
    pub fn operation_cancelled(command: Option<&str>, partial_output: &str) -> Self {
        let mut error = ErrorResult::new(code::OPERATION_CANCELLED, "The operation was cancelled before it finished.")
            .with_hint("Nothing was rolled back; run the command again to complete it.")
            .with_data(ErrorData {
                command: command.map(|c| redact(c).into_owned()),
                exit_code: Some(-1),
                ..ErrorData::default()
            });
        error.raw_output = keep_end(&redact(partial_output), MAX_RAW_OUTPUT_CHARS);
        error
    }
}

/// The category of a parsed diagnostic: by code prefix; an analyzer id (`CA1822`, `IDE0005`,
/// `xUnit1004`) reported at a source location is a compilation error too.
fn diagnostic_category(diagnostic: &Diagnostic) -> ErrorCategory {
    match ErrorCategory::from_code(&diagnostic.code) {
        ErrorCategory::Unknown if !diagnostic.code.is_empty() && diagnostic.line.is_some() => {
            ErrorCategory::Compilation
        }
        category => category,
    }
}

/// Serializes and deserializes as the constant `false`: an error envelope is never a success.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct AlwaysFalse;

impl Serialize for AlwaysFalse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(false)
    }
}

impl<'de> Deserialize<'de> for AlwaysFalse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if bool::deserialize(deserializer)? {
            Err(serde::de::Error::custom("an error envelope has success: false"))
        } else {
            Ok(AlwaysFalse)
        }
    }
}

/// The error envelope of the contract: `{success: false, errors, exitCode, metadata?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorResponse {
    success: AlwaysFalse,
    /// One or more errors, most important first.
    pub errors: Vec<ErrorResult>,
    /// The process exit code, or -1 when nothing ran.
    pub exit_code: i32,
    /// Tool-specific context (for example how the test runner was chosen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, String>>,
}

impl From<ErrorResult> for ErrorResponse {
    /// Wraps one error; the envelope's exit code is the error's `data.exitCode`, else -1.
    fn from(error: ErrorResult) -> Self {
        let exit_code = error.data.as_ref().and_then(|d| d.exit_code).unwrap_or(-1);
        ErrorResponse::new(error, exit_code)
    }
}

impl ErrorResponse {
    /// An envelope with its first error (the contract requires at least one).
    pub fn new(first: ErrorResult, exit_code: i32) -> Self {
        ErrorResponse { success: AlwaysFalse, errors: vec![first], exit_code, metadata: None }
    }

    /// Adds one metadata entry (value redacted).
    pub fn with_metadata(mut self, key: impl Into<String>, value: &str) -> Self {
        self.metadata.get_or_insert_with(BTreeMap::new).insert(key.into(), redact(value).into_owned());
        self
    }

    /// Builds the envelope for a process that exited with `exit_code != 0`. `command` is the
    /// program followed by its arguments. Each unique error diagnostic in stdout and stderr
    /// becomes one error (code, category by prefix, location in `additionalData`, guidance from
    /// [`codes`]); when there is none, one `EXIT_<n>` error of category Unknown carries the first
    /// line of stderr (or the last of stdout) and the end of the output. Everything is redacted.
    pub fn from_failed_run<S: AsRef<str>>(command: &[S], exit_code: i32, stdout: &str, stderr: &str) -> Self {
        let command_line = match command.split_first() {
            Some((program, args)) => redacted_command_line(program.as_ref(), args),
            None => String::new(),
        };
        let stdout = redact(stdout);
        let stderr = redact(stderr);
        let data = ErrorData {
            command: (!command_line.is_empty()).then_some(command_line),
            exit_code: Some(exit_code),
            stderr: (!stderr.trim().is_empty()).then(|| keep_end(stderr.trim_end(), MAX_STDERR_CHARS)),
            additional_data: None,
        };

        let mut seen = HashSet::new();
        let mut errors = Vec::new();
        for line in stdout.lines().chain(stderr.lines()) {
            let Some(diagnostic) = diagnostics::parse_line(line) else { continue };
            if diagnostic.severity != Severity::Error || !seen.insert(diagnostic.clone()) {
                continue;
            }
            errors.push(error_from_diagnostic(diagnostic, line.trim(), exit_code, &data));
        }

        let mut errors = errors.into_iter();
        let first = errors.next().unwrap_or_else(|| exit_error(exit_code, &stdout, &stderr, data));
        let mut response = ErrorResponse::new(first, exit_code);
        response.errors.extend(errors);
        response
    }
}

/// One error of a failed run from one parsed (already redacted) error diagnostic.
fn error_from_diagnostic(diagnostic: Diagnostic, line: &str, exit_code: i32, data: &ErrorData) -> ErrorResult {
    // A codeless error the SDK is known to print gets the contract's code for it.
    let known = diagnostic.code.is_empty().then(|| codes::code_for_message(&diagnostic.message)).flatten();
    let diagnostic = Diagnostic { code: known.map_or(diagnostic.code.clone(), str::to_owned), ..diagnostic };
    let category = diagnostic_category(&diagnostic);
    let code =
        if diagnostic.code.is_empty() { format!("{}{exit_code}", code::EXIT_PREFIX) } else { diagnostic.code.clone() };
    let mut location = BTreeMap::new();
    let numbers = [
        ("line", diagnostic.line),
        ("column", diagnostic.column),
        ("endLine", diagnostic.end_line),
        ("endColumn", diagnostic.end_column),
    ];
    for (key, value) in numbers {
        if let Some(value) = value {
            location.insert(key.to_owned(), value.to_string());
        }
    }
    for (key, value) in [("file", diagnostic.file), ("project", diagnostic.project)] {
        if let Some(value) = value {
            location.insert(key.to_owned(), value);
        }
    }
    ErrorResult {
        mcp_error_code: mcp_error_code(&code, category, exit_code),
        code,
        message: diagnostic.message,
        category,
        hint: None,
        explanation: None,
        documentation_url: None,
        suggested_fixes: None,
        alternatives: None,
        raw_output: line.to_owned(),
        data: Some(ErrorData { additional_data: (!location.is_empty()).then_some(location), ..data.clone() }),
    }
    .with_code_details()
}

/// The error of a failed run that printed no error diagnostic: a codeless message the SDK is
/// known to print gets its code ([`codes::code_for_message`]), anything else is `EXIT_<n>`.
fn exit_error(exit_code: i32, stdout: &str, stderr: &str, data: ErrorData) -> ErrorResult {
    let output =
        [stdout.trim_end(), stderr.trim_end()].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("\n");
    let known =
        stderr.lines().chain(stdout.lines()).find_map(|line| Some((line.trim(), codes::code_for_message(line)?)));
    if let Some((line, code)) = known {
        let mut error = ErrorResult::new(code, &keep_start(line, MAX_MESSAGE_CHARS));
        error.mcp_error_code = mcp_error_code(code, error.category, exit_code);
        error.raw_output = keep_end(&output, MAX_RAW_OUTPUT_CHARS);
        error.data = Some(data);
        return error.with_code_details();
    }
    let first_stderr = stderr.lines().map(str::trim).find(|l| !l.is_empty());
    let last_stdout = stdout.lines().map(str::trim).rfind(|l| !l.is_empty());
    let message = match first_stderr.or(last_stdout) {
        Some(line) => keep_start(line, MAX_MESSAGE_CHARS),
        None => format!("The command exited with code {exit_code} without printing anything."),
    };
    let code = format!("{}{exit_code}", code::EXIT_PREFIX);
    ErrorResult {
        mcp_error_code: mcp_error_code(&code, ErrorCategory::Unknown, exit_code),
        code,
        message,
        category: ErrorCategory::Unknown,
        hint: Some("Read rawOutput for the cause; check the arguments, paths and the installed SDK.".to_owned()),
        explanation: None,
        documentation_url: None,
        suggested_fixes: None,
        alternatives: None,
        raw_output: keep_end(&output, MAX_RAW_OUTPUT_CHARS),
        data: Some(data),
    }
}

/// JSON Schema (draft 2020-12) of [`ErrorResponse`], self-contained (no `$ref`) so it can be
/// embedded in a tool's `outputSchema`, for example as one branch of an `anyOf`.
///
/// Every tool's `tools/list` entry carries it, so it holds types, not prose: what each field means
/// is written once, in `plugins/dotnet/README.md` ("The error envelope"), and on the Rust types.
pub fn error_response_schema() -> Value {
    let string = json!({ "type": "string" });
    let integer = json!({ "type": "integer" });
    let string_list = json!({ "type": "array", "items": string });
    let string_map = json!({ "type": "object", "additionalProperties": string });
    let categories: Vec<&str> = ErrorCategory::ALL.iter().map(|c| c.as_str()).collect();
    let error_data = json!({
        "type": "object",
        "properties": {
            "command": string,
            "exitCode": integer,
            "stderr": string,
            "additionalData": string_map
        }
    });
    let error_result = json!({
        "type": "object",
        "required": ["code", "message", "category", "rawOutput"],
        "properties": {
            "code": { "type": "string", "description": "A diagnostic code (CS0103, NU1101) or the server's own (INVALID_PARAMS, EXIT_<n>...)." },
            "message": string,
            "category": { "type": "string", "enum": categories },
            "hint": string,
            "explanation": string,
            "documentationUrl": { "type": "string", "format": "uri" },
            "suggestedFixes": string_list,
            "alternatives": string_list,
            "rawOutput": string,
            "mcpErrorCode": integer,
            "data": error_data
        }
    });
    json!({
        "type": "object",
        "description": "A failure: its errors, and the exit code (-1 when nothing ran).",
        "required": ["success", "errors", "exitCode"],
        "properties": {
            "success": { "const": false },
            "errors": { "type": "array", "minItems": 1, "items": error_result },
            "exitCode": integer,
            "metadata": string_map
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_serialize_as_the_contract_spells_them() {
        let names: Vec<Value> =
            ErrorCategory::ALL.iter().map(|c| serde_json::to_value(c).expect("serializes")).collect();
        assert_eq!(
            names,
            [
                "Validation",
                "Compilation",
                "Build",
                "Package",
                "Runtime",
                "Capability",
                "Concurrency",
                "Cancellation",
                "Unknown"
            ]
            .map(Value::from)
        );
        for category in ErrorCategory::ALL {
            assert_eq!(serde_json::to_value(category).expect("serializes"), category.as_str());
        }
    }

    #[test]
    fn category_from_code_prefix() {
        for (code, category) in [
            ("CS0103", ErrorCategory::Compilation),
            ("cs1002", ErrorCategory::Compilation),
            ("MSB4236", ErrorCategory::Build),
            ("NU1101", ErrorCategory::Package),
            ("NETSDK1045", ErrorCategory::Runtime),
            ("NUnit1001", ErrorCategory::Unknown),
            ("CA1822", ErrorCategory::Unknown),
            ("CS", ErrorCategory::Unknown),
            ("EXIT_1", ErrorCategory::Unknown),
            ("INVALID_PARAMS", ErrorCategory::Validation),
            ("CAPABILITY_NOT_AVAILABLE", ErrorCategory::Capability),
            ("CONCURRENCY_CONFLICT", ErrorCategory::Concurrency),
            ("OPERATION_CANCELLED", ErrorCategory::Cancellation),
        ] {
            assert_eq!(ErrorCategory::from_code(code), category, "{code}");
        }
    }

    #[test]
    fn mcp_error_code_mapping_of_the_contract() {
        use ErrorCategory::*;
        for code in ["NU1101", "NU1102", "MSB1003", "NETSDK1004", "MSB4236", "nu1101"] {
            assert_eq!(mcp_error_code(code, ErrorCategory::from_code(code), 1), Some(-32002), "{code}");
        }
        assert_eq!(mcp_error_code("INVALID_PARAMS", Validation, -1), Some(-32602));
        assert_eq!(mcp_error_code("CAPABILITY_NOT_AVAILABLE", Capability, -1), Some(-32001));
        assert_eq!(mcp_error_code("CONCURRENCY_CONFLICT", Concurrency, -1), Some(-32603));
        assert_eq!(mcp_error_code("OPERATION_CANCELLED", Cancellation, -1), Some(-32603));
        assert_eq!(mcp_error_code("EXIT_1", Unknown, 1), Some(-32603));
        assert_eq!(mcp_error_code("CS0103", Compilation, 1), None);
        assert_eq!(mcp_error_code("MSB3644", Build, 1), None);
        assert_eq!(mcp_error_code("NU1605", Package, 1), None);
    }

    #[test]
    fn invalid_params_matches_contract_shape() {
        let error = ErrorResult::invalid_params(
            "packageName",
            "required",
            "Invalid argument 'packageName': is required and cannot be empty",
        );
        let json = serde_json::to_value(ErrorResponse::from(error)).expect("serializes");
        assert_eq!(json["success"], false);
        assert_eq!(json["exitCode"], -1);
        let e = &json["errors"][0];
        assert_eq!(e["code"], "INVALID_PARAMS");
        assert_eq!(e["category"], "Validation");
        assert_eq!(e["mcpErrorCode"], -32602);
        assert_eq!(e["rawOutput"], "");
        assert_eq!(
            e["data"],
            json!({ "exitCode": -1, "additionalData": { "parameter": "packageName", "reason": "required" } })
        );
        assert!(e.get("explanation").is_none(), "unset optional fields are omitted");
        assert!(e["data"].get("command").is_none());
    }

    #[test]
    fn capability_not_available_with_alternatives() {
        let error = ErrorResult::capability_not_available(
            "dotnet CLI",
            "not found on PATH",
            vec!["Install the .NET SDK".into(), "Check 'dotnet --info'".into()],
        );
        assert_eq!(
            (error.code.as_str(), error.category, error.mcp_error_code),
            ("CAPABILITY_NOT_AVAILABLE", ErrorCategory::Capability, Some(-32001))
        );
        assert_eq!(error.alternatives.as_deref().map(<[String]>::len), Some(2));
        let extra = error.data.and_then(|d| d.additional_data).expect("additional data");
        assert_eq!(extra["feature"], "dotnet CLI");
        assert_eq!(extra["reason"], "not found on PATH");
    }

    #[test]
    fn concurrency_conflict_names_both_operations() {
        let error = ErrorResult::concurrency_conflict("build", "/src/App/App.csproj", "test");
        assert_eq!((error.category, error.mcp_error_code), (ErrorCategory::Concurrency, Some(-32603)));
        assert!(error.message.contains("build") && error.message.contains("test"));
        let extra = error.data.and_then(|d| d.additional_data).expect("additional data");
        assert_eq!(extra["operationType"], "build");
        assert_eq!(extra["target"], "/src/App/App.csproj");
        assert_eq!(extra["conflictingOperation"], "test");
    }

    #[test]
    fn cancellation_keeps_redacted_partial_output() {
        let error = ErrorResult::operation_cancelled(
            Some("dotnet nuget push a.nupkg -k oy2secret"),
            "Pushing a.nupkg to https://u:pw@feed...\n",
        );
        assert_eq!((error.category, error.mcp_error_code), (ErrorCategory::Cancellation, Some(-32603)));
        assert_eq!(error.raw_output, "Pushing a.nupkg to https://u:[REDACTED]@feed...\n");
        let data = error.data.expect("data");
        assert_eq!(data.command.as_deref(), Some("dotnet nuget push a.nupkg -k [REDACTED]"));
        assert_eq!(data.exit_code, Some(-1));
        let long = "x".repeat(MAX_RAW_OUTPUT_CHARS * 2);
        let error = ErrorResult::operation_cancelled(None, &long);
        assert!(error.raw_output.starts_with("[... earlier output omitted]\n"));
        assert!(error.raw_output.len() < long.len());
    }

    const BUILD_OUTPUT: &str = "\
/src/App/Program.cs(5,9): error CS0103: The name 'Console' does not exist in the current context [/src/App/App.csproj]
/src/App/Program.cs(3,1): warning IDE0005: Using directive is unnecessary. [/src/App/App.csproj]
/src/App/Program.cs(7,13): error CA2007: Consider calling ConfigureAwait on the awaited task [/src/App/App.csproj]

Build FAILED.

/src/App/Program.cs(5,9): error CS0103: The name 'Console' does not exist in the current context [/src/App/App.csproj]
/src/App/Program.cs(7,13): error CA2007: Consider calling ConfigureAwait on the awaited task [/src/App/App.csproj]
    1 Warning(s)
    2 Error(s)
";

    #[test]
    fn failed_build_becomes_enriched_deduplicated_errors() {
        let response = ErrorResponse::from_failed_run(
            &["dotnet", "build", "/src/App/App.csproj", "-p:Password=x"],
            1,
            BUILD_OUTPUT,
            "",
        );
        assert_eq!(response.exit_code, 1);
        assert_eq!(response.errors.len(), 2);
        let cs = &response.errors[0];
        assert_eq!((cs.code.as_str(), cs.category, cs.mcp_error_code), ("CS0103", ErrorCategory::Compilation, None));
        assert_eq!(cs.message, "The name 'Console' does not exist in the current context");
        assert!(cs.raw_output.starts_with("/src/App/Program.cs(5,9): error CS0103"));
        assert!(cs.explanation.is_some() && cs.hint.is_some() && cs.suggested_fixes.is_some());
        assert_eq!(
            cs.documentation_url.as_deref(),
            Some("https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/cs0103")
        );
        let data = cs.data.as_ref().expect("data");
        assert_eq!(data.command.as_deref(), Some("dotnet build /src/App/App.csproj -p:Password=[REDACTED]"));
        assert_eq!(data.stderr, None);
        let location = data.additional_data.as_ref().expect("location");
        assert_eq!(location["file"], "/src/App/Program.cs");
        assert_eq!((location["line"].as_str(), location["column"].as_str()), ("5", "9"));
        assert_eq!(location["project"], "/src/App/App.csproj");
        let ca = &response.errors[1];
        assert_eq!((ca.code.as_str(), ca.category), ("CA2007", ErrorCategory::Compilation));
        assert_eq!(
            ca.documentation_url.as_deref(),
            Some("https://learn.microsoft.com/en-us/dotnet/fundamentals/code-analysis/quality-rules/ca2007")
        );
    }

    #[test]
    fn package_not_found_maps_to_resource_not_found() {
        let stdout = "  Determining projects to restore...\n/src/App/App.csproj : error NU1101: Unable to find package NonExistentPackage. No packages exist with this id in source(s): nuget.org\n";
        let response =
            ErrorResponse::from_failed_run(&["dotnet", "add", "package", "NonExistentPackage"], 1, stdout, "");
        let error = &response.errors[0];
        assert_eq!(
            (error.code.as_str(), error.category, error.mcp_error_code),
            ("NU1101", ErrorCategory::Package, Some(-32002))
        );
        assert_eq!(
            error.documentation_url.as_deref(),
            Some("https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1101")
        );
    }

    #[test]
    fn failed_run_without_diagnostics_is_exit_code_error() {
        let stderr =
            "Unhandled exception. System.InvalidOperationException: token=abc123 rejected\n   at Program.Main()\n";
        let response = ErrorResponse::from_failed_run(&["dotnet", "run"], 134, "Starting...\n", stderr);
        assert_eq!(response.errors.len(), 1);
        let error = &response.errors[0];
        assert_eq!(
            (error.code.as_str(), error.category, error.mcp_error_code),
            ("EXIT_134", ErrorCategory::Unknown, Some(-32603))
        );
        assert_eq!(error.message, "Unhandled exception. System.InvalidOperationException: token=[REDACTED] rejected");
        assert!(error.raw_output.contains("Starting...") && error.raw_output.contains("at Program.Main()"));
        assert!(!error.raw_output.contains("abc123"));
        let data = error.data.as_ref().expect("data");
        assert_eq!(data.stderr.as_deref().map(|s| s.contains("[REDACTED]")), Some(true));

        let silent = ErrorResponse::from_failed_run(&["dotnet", "x"], 1, "", "");
        assert_eq!(silent.errors[0].message, "The command exited with code 1 without printing anything.");
        assert_eq!(silent.errors[0].raw_output, "");
    }

    #[test]
    fn codeless_error_diagnostic_gets_exit_code() {
        let stdout = "error: Package 'Foo' is incompatible with 'all' frameworks in project '/src/App/App.csproj'.\n";
        let response = ErrorResponse::from_failed_run(&["dotnet", "add", "package", "Foo"], 1, stdout, "");
        assert_eq!((response.errors[0].code.as_str(), response.errors[0].category), ("EXIT_1", ErrorCategory::Unknown));
    }

    #[test]
    fn envelope_round_trips_and_rejects_success_true() {
        let response = ErrorResponse::from(ErrorResult::concurrency_conflict("build", "a.csproj", "test"))
            .with_metadata("selectedTestRunner", "vstest");
        let text = serde_json::to_string(&response).expect("serializes");
        let back: ErrorResponse = serde_json::from_str(&text).expect("deserializes");
        assert_eq!(back, response);
        let mut value: Value = serde_json::from_str(&text).expect("json");
        value["success"] = Value::Bool(true);
        assert!(serde_json::from_value::<ErrorResponse>(value).is_err());
    }

    /// A small validator for the subset of JSON Schema the envelope schema uses.
    fn validate(schema: &Value, value: &Value, path: &str) -> Result<(), String> {
        if let Some(kind) = schema.get("type").and_then(Value::as_str) {
            let ok = match kind {
                "object" => value.is_object(),
                "array" => value.is_array(),
                "string" => value.is_string(),
                "integer" => value.is_i64(),
                "boolean" => value.is_boolean(),
                other => return Err(format!("{path}: unsupported type {other}")),
            };
            if !ok {
                return Err(format!("{path}: expected {kind}, got {value}"));
            }
        }
        if let Some(constant) = schema.get("const")
            && constant != value
        {
            return Err(format!("{path}: expected {constant}"));
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            return Err(format!("{path}: {value} not in enum"));
        }
        if let Some(required) = schema.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if value.get(name).is_none() {
                    return Err(format!("{path}: missing {name}"));
                }
            }
        }
        if let (Some(properties), Some(object)) = (schema.get("properties"), value.as_object()) {
            for (name, child) in object {
                let child_schema = properties.get(name).ok_or_else(|| format!("{path}: undeclared {name}"))?;
                validate(child_schema, child, &format!("{path}.{name}"))?;
            }
        }
        if let (Some(extra), Some(object)) = (schema.get("additionalProperties"), value.as_object()) {
            for (name, child) in object {
                validate(extra, child, &format!("{path}.{name}"))?;
            }
        }
        if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
            if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
                && (array.len() as u64) < min
            {
                return Err(format!("{path}: fewer than {min} items"));
            }
            for (i, item) in array.iter().enumerate() {
                validate(items, item, &format!("{path}[{i}]"))?;
            }
        }
        Ok(())
    }

    #[test]
    fn schema_accepts_every_envelope_this_module_builds() {
        let schema = error_response_schema();
        let envelopes = [
            ErrorResponse::from(ErrorResult::invalid_params(
                "format",
                "invalid value",
                "Invalid argument 'format': must be 'pfx' or 'pem'",
            )),
            ErrorResponse::from(ErrorResult::capability_not_available("x", "y", vec!["z".into()]))
                .with_metadata("k", "v"),
            ErrorResponse::from(ErrorResult::concurrency_conflict("build", "a", "test")),
            ErrorResponse::from(ErrorResult::operation_cancelled(Some("dotnet restore"), "partial")),
            ErrorResponse::from_failed_run(&["dotnet", "build"], 1, BUILD_OUTPUT, "warning: x"),
            ErrorResponse::from_failed_run(&["dotnet", "run"], 3, "", "boom"),
        ];
        for envelope in &envelopes {
            let value = serde_json::to_value(envelope).expect("serializes");
            validate(&schema, &value, "$").unwrap_or_else(|e| panic!("{e}\n{value:#}"));
        }
    }

    #[test]
    fn schema_rejects_broken_envelopes() {
        let schema = error_response_schema();
        let good = serde_json::to_value(ErrorResponse::from(ErrorResult::concurrency_conflict("a", "b", "c")))
            .expect("serializes");
        let mut no_errors = good.clone();
        no_errors["errors"] = json!([]);
        let mut bad_category = good.clone();
        bad_category["errors"][0]["category"] = json!("SDK");
        let mut success = good.clone();
        success["success"] = json!(true);
        let mut no_raw = good;
        no_raw["errors"][0].as_object_mut().expect("object").remove("rawOutput");
        for broken in [no_errors, bad_category, success, no_raw] {
            assert!(validate(&schema, &broken, "$").is_err(), "{broken}");
        }
    }
}
