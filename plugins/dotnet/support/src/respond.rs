//! Turning what an action computed into a tool result: prose for the model
//! in `content`, strict JSON for programs in `structuredContent`, never the
//! same JSON dumped into both.
//!
//! The client's content-negotiation tags choose the presentation of the
//! prose, never what was computed: `format=text` (default), `markdown` or
//! `json` (the structured data, compact, for agents that asked for it), and
//! `verbosity=compact` (the summary line), `standard` (default: summary and
//! details) or `verbose` (also the command's output).

use mcp_plugin_api::{CallContext, ToolResult};
use serde_json::{Map, Value, json};

use crate::errors::ErrorResponse;

/// How the model-facing text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Plain text.
    #[default]
    Text,
    /// Markdown.
    Markdown,
    /// The structured data as compact JSON.
    Json,
}

/// How much the model-facing text says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verbosity {
    /// The summary line only.
    Compact,
    /// The summary and its details.
    #[default]
    Standard,
    /// Everything, including the command's output.
    Verbose,
}

/// The presentation a client negotiated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Presentation {
    /// The format.
    pub format: Format,
    /// The verbosity.
    pub verbosity: Verbosity,
}

impl Presentation {
    /// Reads `format=` and `verbosity=` from feature tags; unknown values keep the defaults.
    pub fn from_features(features: &[String]) -> Self {
        let value = |key: &str| {
            features.iter().find_map(|tag| tag.split_once('=').filter(|(name, _)| *name == key).map(|(_, v)| v))
        };
        let format = match value("format") {
            Some("markdown") => Format::Markdown,
            Some("json") => Format::Json,
            _ => Format::Text,
        };
        let verbosity = match value("verbosity") {
            Some("compact") => Verbosity::Compact,
            Some("verbose") => Verbosity::Verbose,
            _ => Verbosity::Standard,
        };
        Self { format, verbosity }
    }

    /// The presentation of a call.
    pub fn of(ctx: &CallContext) -> Self {
        Self::from_features(ctx.features())
    }
}

/// One titled list of lines in a reply (diagnostics, failed tests, SDKs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// The lines.
    pub lines: Vec<String>,
    /// Whether the lines are shown as they are, unredacted (see [`Reply::verbatim_section`]).
    pub verbatim: bool,
}

/// What an action has to say.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    summary: String,
    sections: Vec<Section>,
    output: Option<String>,
    pub(crate) structured: Option<Value>,
    verbatim: Map<String, Value>,
    identifiers: Vec<&'static str>,
    /// The type the structured content was serialized from, when the action returned a typed
    /// result (`kit::ActionSpec::result`): the kit checks it against the declared one.
    pub(crate) result_type: Option<(std::any::TypeId, &'static str)>,
}

impl Reply {
    /// A reply whose first line is `summary`.
    pub fn new(summary: impl Into<String>) -> Self {
        Self { summary: summary.into(), ..Self::default() }
    }

    /// Adds a section (omitted when it has no lines).
    pub fn section(mut self, heading: impl Into<String>, lines: Vec<String>) -> Self {
        if !lines.is_empty() {
            self.sections.push(Section { heading: heading.into(), lines, verbatim: false });
        }
        self
    }

    /// Adds a section that is shown unredacted. Only for what the operator explicitly allowed to
    /// show (secret values with `ShowSecretValues`): everything else in a reply is redacted.
    pub fn verbatim_section(mut self, heading: impl Into<String>, lines: Vec<String>) -> Self {
        if !lines.is_empty() {
            self.sections.push(Section { heading: heading.into(), lines, verbatim: true });
        }
        self
    }

    /// Sets a field of the structured content that is not redacted: data the action has made
    /// safe itself or the operator allowed to show (a secrets listing, whose keys a redaction by
    /// field name would hide). Everything else in the structured content is redacted.
    pub fn verbatim(mut self, key: &str, value: Value) -> Self {
        self.verbatim.insert(key.to_owned(), value);
        self
    }

    /// Names a field whose values, wherever they are in the structured content, are identifiers
    /// this plugin made itself (a background session's id) and are kept as they are: a redaction
    /// by field name would take `sessionId` for a web session's cookie (`ASP.NET_SessionId`).
    /// Everything else in the structured content is redacted.
    pub fn identifier(mut self, field: &'static str) -> Self {
        self.identifiers.push(field);
        self
    }

    /// Redacts the summary, the sections, the output and the structured content (but for its
    /// [identifiers](Self::identifier)), then sets the verbatim fields: what the kit does to every
    /// reply before it leaves the plugin.
    pub(crate) fn redact(&mut self) {
        let clean = |text: &mut String| {
            if let std::borrow::Cow::Owned(redacted) = crate::redact::redact(text) {
                *text = redacted;
            }
        };
        clean(&mut self.summary);
        for section in self.sections.iter_mut().filter(|section| !section.verbatim) {
            clean(&mut section.heading);
            section.lines.iter_mut().for_each(clean);
        }
        if let Some(output) = self.output.as_mut() {
            clean(output);
        }
        if let Some(structured) = self.structured.as_mut() {
            let original = (!self.identifiers.is_empty()).then(|| structured.clone());
            crate::redact::redact_json(structured);
            if let Some(original) = original {
                keep_identifiers(&original, structured, &self.identifiers);
            }
            if let Value::Object(fields) = structured {
                fields.extend(std::mem::take(&mut self.verbatim));
            }
        }
    }

    /// Attaches the command's (redacted) output, shown at `verbosity=verbose`, or at standard
    /// verbosity when the reply has nothing else to show.
    pub fn output(mut self, output: impl Into<String>) -> Self {
        let output = output.into();
        if !output.trim().is_empty() {
            self.output = Some(output);
        }
        self
    }

    /// Attaches the structured content.
    pub fn structured(mut self, value: Value) -> Self {
        self.structured = Some(value);
        self
    }

    /// The model-facing text under `presentation`.
    pub fn render(&self, presentation: Presentation) -> String {
        if presentation.format == Format::Json {
            let value = self.structured.clone().unwrap_or_else(|| json!({ "summary": self.summary }));
            return value.to_string();
        }
        let markdown = presentation.format == Format::Markdown;
        let mut text = if markdown { format!("**{}**", self.summary) } else { self.summary.clone() };
        if presentation.verbosity == Verbosity::Compact {
            return text;
        }
        for section in &self.sections {
            let (heading, bullet) = if markdown {
                (format!("### {}", section.heading), "- ")
            } else {
                (format!("{}:", section.heading), "  ")
            };
            text.push_str(&format!("\n\n{heading}"));
            for line in &section.lines {
                text.push_str(&format!("\n{bullet}{line}"));
            }
        }
        let show_output = presentation.verbosity == Verbosity::Verbose || self.sections.is_empty();
        if let Some(output) = self.output.as_ref().filter(|_| show_output) {
            if markdown {
                text.push_str(&format!("\n\n```text\n{}\n```", output.trim_end()));
            } else {
                text.push_str(&format!("\n\n{}", output.trim_end()));
            }
        }
        text.trim_end().to_owned()
    }

    /// A successful tool result.
    pub fn into_result(self, presentation: Presentation) -> ToolResult {
        let text = self.render(presentation);
        match self.structured {
            Some(structured) => ToolResult::text(text).with_structured(structured),
            None => ToolResult::text(text),
        }
    }
}

/// A failed action: the error envelope, fields to merge into its structured content
/// (`lockInfo`, counts), and lists the model reads after the errors (each failing test with its
/// message). Every dotnet plugin's actions fail with it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The envelope.
    pub error: ErrorResponse,
    /// Fields merged into the structured content.
    pub extra: Option<Value>,
    /// Titled lists for the model's text, after the errors (never in the structured content,
    /// which carries the same facts as fields).
    pub sections: Vec<Section>,
}

impl Failure {
    /// The envelope with fields merged into its structured content.
    pub fn with_fields(error: ErrorResponse, extra: Option<Value>) -> Self {
        Self { error, extra, sections: Vec::new() }
    }

    /// Adds a titled list to the model's text; an empty list adds nothing.
    pub fn section(mut self, heading: impl Into<String>, lines: Vec<String>) -> Self {
        if !lines.is_empty() {
            self.sections.push(Section { heading: heading.into(), lines, verbatim: false });
        }
        self
    }
}

impl From<crate::errors::ErrorResult> for Failure {
    fn from(error: crate::errors::ErrorResult) -> Self {
        Self::with_fields(ErrorResponse::from(error), None)
    }
}

impl From<ErrorResponse> for Failure {
    fn from(error: ErrorResponse) -> Self {
        Self::with_fields(error, None)
    }
}

impl From<(ErrorResponse, Value)> for Failure {
    /// A refused lock: the envelope and its `lockInfo` (as [`crate::locking::acquire`] returns them).
    fn from((error, extra): (ErrorResponse, Value)) -> Self {
        Self::with_fields(error, Some(extra).filter(|extra| !extra.is_null()))
    }
}

/// A failed tool result: `isError`, the error envelope as `structuredContent` (with `extra`
/// fields such as `lockInfo` merged in), and a short prose account for the model.
pub fn failure(failure: Failure, presentation: Presentation) -> ToolResult {
    let Failure { error, extra, sections } = failure;
    let mut structured = serde_json::to_value(&error).unwrap_or_else(|_| json!({ "success": false }));
    if let (Some(Value::Object(extra)), Some(object)) = (extra, structured.as_object_mut()) {
        object.extend(extra);
    }
    let mut reply = Reply::new(prose_summary(&error));
    let (heading, details) = error_lines(&error);
    reply = reply.section(&heading, details);
    reply.sections.extend(sections);
    if let Some(first) = error.errors.first() {
        reply = reply.output(first.raw_output.clone());
    }
    let mut result = ToolResult::error(reply.render(presentation));
    result.structured_content = Some(structured);
    result
}

/// The failure's errors for the model, and their section's heading. Every error keeps its
/// location, code and message; errors with the same code and message are one line listing all
/// their locations; a hint or an alternative is said once per code; the folder all locations
/// share is named once in the heading, so each location is short. Programs read every field of
/// every error in `structuredContent`.
fn error_lines(error: &ErrorResponse) -> (String, Vec<String>) {
    let base = common_folder(error.errors.iter().filter_map(|item| location(item).map(|(file, _)| file)));
    let mut groups: Vec<(&crate::errors::ErrorResult, Vec<String>)> = Vec::new();
    for item in &error.errors {
        let short =
            location(item).map(|(file, at)| format!("{}{at}", file.strip_prefix(base.as_str()).unwrap_or(file)));
        match groups.iter_mut().find(|(first, _)| first.code == item.code && first.message == item.message) {
            Some((_, locations)) => locations.extend(short),
            None => groups.push((item, short.into_iter().collect())),
        }
    }
    let mut said = std::collections::HashSet::new();
    let mut lines = Vec::new();
    for (item, locations) in groups {
        let at = if locations.is_empty() { String::new() } else { format!("{}: ", locations.join(", ")) };
        lines.push(format!("{at}{}: {}", item.code, item.message));
        if said.insert(&item.code) {
            lines.extend(item.hint.iter().map(|hint| format!("hint: {hint}")));
            lines.extend(item.alternatives.iter().flatten().map(|alternative| format!("alternative: {alternative}")));
        }
    }
    let heading = if base.is_empty() { "Errors".to_owned() } else { format!("Errors (files under {base})") };
    (heading, lines)
}

/// Where an error was found, from its location data: the file, and `(line,column)` (or
/// `(line)`, or nothing) to write after it.
fn location(item: &crate::errors::ErrorResult) -> Option<(&str, String)> {
    let data = item.data.as_ref()?.additional_data.as_ref()?;
    let file = data.get("file")?;
    let at = match (data.get("line"), data.get("column")) {
        (Some(line), Some(column)) => format!("({line},{column})"),
        (Some(line), None) => format!("({line})"),
        _ => String::new(),
    };
    Some((file, at))
}

/// The folder (with its trailing separator) that holds every one of `files`, or empty: named once
/// above a list, it keeps each line's path short.
pub fn common_folder<'a>(files: impl Iterator<Item = &'a str>) -> String {
    let separator = |byte: &u8| matches!(byte, b'/' | b'\\');
    let mut common: Option<&str> = None;
    for file in files {
        let current = common.unwrap_or(file);
        let shared = current.bytes().zip(file.bytes()).take_while(|(a, b)| a == b).count();
        let end = current.as_bytes()[..shared.min(current.len())].iter().rposition(separator).map_or(0, |at| at + 1);
        common = Some(&current[..end]);
    }
    common.unwrap_or_default().to_owned()
}

/// One sentence for the model about a failure.
fn prose_summary(error: &ErrorResponse) -> String {
    let count = error.errors.len();
    match error.errors.first() {
        Some(first) if count == 1 => first.message.clone(),
        Some(first) => format!("{count} errors; the first: {}", first.message),
        None => format!("The command failed with exit code {}.", error.exit_code),
    }
}

/// Puts back into `redacted` the values of the `fields` named in `original`; redaction changes
/// strings only, so both have the same shape.
fn keep_identifiers(original: &Value, redacted: &mut Value, fields: &[&str]) {
    match (original, redacted) {
        (Value::Object(before), Value::Object(after)) => {
            for (key, value) in after.iter_mut() {
                match before.get(key) {
                    Some(kept) if fields.contains(&key.as_str()) => *value = kept.clone(),
                    Some(kept) => keep_identifiers(kept, value, fields),
                    None => {}
                }
            }
        }
        (Value::Array(before), Value::Array(after)) => {
            for (kept, value) in before.iter().zip(after.iter_mut()) {
                keep_identifiers(kept, value, fields);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::ErrorResult;

    fn reply() -> Reply {
        Reply::new("Build succeeded with 1 warning.")
            .section("Warnings", vec!["Program.cs(3,1): CS0168: unused".into()])
            .output("raw build output")
            .structured(json!({ "success": true, "warningCount": 1 }))
    }

    #[test]
    fn tags_change_the_presentation_not_the_data() {
        let tags = |list: &[&str]| Presentation::from_features(&list.iter().map(|t| t.to_string()).collect::<Vec<_>>());
        let compact = reply().render(tags(&["verbosity=compact"]));
        assert_eq!(compact, "Build succeeded with 1 warning.");
        let standard = reply().render(tags(&[]));
        assert!(standard.contains("Warnings:\n  Program.cs") && !standard.contains("raw build output"), "{standard}");
        let verbose = reply().render(tags(&["verbosity=verbose"]));
        assert!(verbose.contains("raw build output"), "{verbose}");
        let markdown = reply().render(tags(&["format=markdown"]));
        assert!(markdown.starts_with("**Build succeeded") && markdown.contains("### Warnings"), "{markdown}");
        let json = reply().render(tags(&["format=json"]));
        assert_eq!(serde_json::from_str::<Value>(&json).unwrap()["warningCount"], 1);
        let result = reply().into_result(tags(&["format=markdown"]));
        assert_eq!(result.structured_content, Some(json!({ "success": true, "warningCount": 1 })));
    }

    #[test]
    fn failures_carry_the_envelope_and_prose() {
        let error = ErrorResponse::from(ErrorResult::invalid_params(
            "project",
            "required",
            "Invalid argument 'project': is required.",
        ));
        let result = failure(
            Failure::with_fields(error, Some(json!({ "lockInfo": { "lockKey": "/x" } }))),
            Presentation::default(),
        );
        assert!(result.is_error);
        let structured = result.structured_content.clone().unwrap();
        assert_eq!(structured["success"], false);
        assert_eq!(structured["errors"][0]["code"], "INVALID_PARAMS");
        assert_eq!(structured["lockInfo"]["lockKey"], "/x");
        let text = result.joined_text();
        assert!(text.starts_with("Invalid argument 'project': is required.") && !text.contains("\"errors\""), "{text}");
    }

    #[test]
    fn a_failed_build_names_every_error_where_it_is_and_says_each_hint_once() {
        let stdout = [
            "/src/App/Broken.cs(7,18): error CS0029: Cannot implicitly convert type 'string' to 'int' [/src/App/App.csproj]",
            "/src/App/Broken.cs(8,9): error CS0103: The name 'missing1' does not exist in the current context [/src/App/App.csproj]",
            "/src/App/Deep/More.cs(10,18): error CS0029: Cannot implicitly convert type 'string' to 'int' [/src/App/App.csproj]",
            "/src/App/Deep/More.cs(11,9): error CS0103: The name 'missing2' does not exist in the current context [/src/App/App.csproj]",
        ]
        .join("\n");
        let error = ErrorResponse::from_failed_run(&["dotnet", "build"], 1, &stdout, "");
        assert_eq!(error.errors.len(), 4);
        let text = failure(error.into(), Presentation::default()).joined_text();
        let lines: Vec<&str> = text.lines().skip_while(|line| !line.starts_with("Errors")).collect();
        assert_eq!(lines[0], "Errors (files under /src/App/):", "{text}");
        assert_eq!(
            lines[1],
            "  Broken.cs(7,18), Deep/More.cs(10,18): CS0029: Cannot implicitly convert type 'string' to 'int'"
        );
        assert!(lines[2].starts_with("  hint: "), "{text}");
        assert_eq!(lines[3], "  Broken.cs(8,9): CS0103: The name 'missing1' does not exist in the current context");
        assert!(lines[4].starts_with("  hint: "), "{text}");
        assert_eq!(lines[5], "  Deep/More.cs(11,9): CS0103: The name 'missing2' does not exist in the current context");
        assert_eq!(lines.len(), 6, "a hint is said once per code: {text}");
    }

    #[test]
    fn the_shared_folder_ends_at_a_separator() {
        let folder = |files: &[&str]| common_folder(files.iter().copied());
        assert_eq!(folder(&["/a/bc/x.cs", "/a/bd/y.cs"]), "/a/");
        assert_eq!(folder(&["/a/b/x.cs"]), "/a/b/");
        assert_eq!(folder(&["C:\\src\\A\\x.cs", "C:\\src\\B\\y.cs"]), "C:\\src\\");
        assert_eq!(folder(&["x.cs", "/a/y.cs"]), "");
        assert_eq!(folder(&[]), "");
    }

    #[test]
    fn identifiers_the_plugin_made_survive_redaction_wherever_they_are() {
        let id = "0b5c8e2a-41d7-4f0e-9a63-7d2f1c9e8b40";
        let structured = json!({
            "sessionId": id,
            "sessions": [{ "sessionId": id, "command": "dotnet run --password hunter2" }],
            "password": "hunter2",
        });
        let mut marked = Reply::new("s").structured(structured.clone()).identifier("sessionId");
        marked.redact();
        let marked = marked.structured.unwrap();
        assert_eq!((marked["sessionId"].as_str(), marked["sessions"][0]["sessionId"].as_str()), (Some(id), Some(id)));
        assert_eq!(marked["password"], crate::redact::REDACTED);
        assert!(!marked["sessions"][0]["command"].as_str().unwrap().contains("hunter2"), "{marked}");
        // Unmarked, the same field is redacted by its name.
        let mut unmarked = Reply::new("s").structured(structured);
        unmarked.redact();
        assert_eq!(unmarked.structured.unwrap()["sessionId"], crate::redact::REDACTED);
    }
}
