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

/// The command's output attached to a reply, and whether the action read it (see
/// [`Reply::output`] and [`Reply::read_output`]).
#[derive(Debug, Clone, PartialEq)]
struct Output {
    text: String,
    read: bool,
}

/// What an action has to say.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    summary: String,
    sections: Vec<Section>,
    output: Option<Output>,
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
            clean(&mut output.text);
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

    /// Attaches the command's output: shown at `verbosity=verbose`, and at standard verbosity when
    /// the reply has no sections, since it may say more than the summary does (a hint, the name
    /// of a command, what `dotnet new` or an application printed). See `Reply::shows_output`.
    pub fn output(self, output: impl Into<String>) -> Self {
        self.attach(output.into(), false)
    }

    /// Attaches output the action has read completely, every fact of it in the summary, sections
    /// and result (a JSON report, a listing's table, a build log whose diagnostics and outputs
    /// are sections): shown only at `verbosity=verbose`, never a second time at standard. For an
    /// action whose parser reads only part of the output, use [`Reply::output`].
    pub fn read_output(self, output: impl Into<String>) -> Self {
        self.attach(output.into(), true)
    }

    fn attach(mut self, text: String, read: bool) -> Self {
        if !text.trim().is_empty() {
            self.output = Some(Output { text, read });
        }
        self
    }

    /// Whether the text under `verbosity` shows the attached output: always at verbose; at
    /// standard only output the action did not read whole ([`Reply::output`]), and only when the
    /// reply has no sections; never at compact. Output read whole ([`Reply::read_output`]) is
    /// never shown twice: once as the summary and sections, again raw.
    fn shows_output(&self, verbosity: Verbosity) -> bool {
        match verbosity {
            Verbosity::Verbose => true,
            Verbosity::Standard => self.output.as_ref().is_some_and(|output| !output.read) && self.sections.is_empty(),
            Verbosity::Compact => false,
        }
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
            // A line that starts with spaces is nested under the line before it (a failing
            // test under its class): deeper in text, a nested bullet in markdown.
            for line in &section.lines {
                let rest = line.trim_start_matches(' ');
                let indent = &line[..line.len() - rest.len()];
                text.push_str(&format!("\n{indent}{bullet}{rest}"));
            }
        }
        if let Some(output) = self.output.as_ref().filter(|_| self.shows_output(presentation.verbosity)) {
            if markdown {
                text.push_str(&format!("\n\n```text\n{}\n```", output.text.trim_end()));
            } else {
                text.push_str(&format!("\n\n{}", output.text.trim_end()));
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

/// The failure's errors for the model, and their section's heading. Errors are grouped by code,
/// in the order their codes first appear. A group whose messages differ only in quoted names
/// (`The name 'x' does not exist`) is one line with the message written once, each varying name
/// as `{0}`, `{1}`, ..., then one `at` line listing every location followed by its names in
/// quotes; errors with the same message share that line too. Every error keeps its location, code
/// and message (put the names back into the placeholders); a code's hint and alternatives are
/// said once, after its message; the folder all locations share is named once in the heading, so
/// each location is short. A single error without a location is already the summary: its section
/// gives only its code and hints. Programs read every field of every error in `structuredContent`.
fn error_lines(error: &ErrorResponse) -> (String, Vec<String>) {
    let base = common_folder(error.errors.iter().filter_map(|item| location(item).map(|(file, _)| file)));
    if let [only] = error.errors.as_slice()
        && location(only).is_none()
    {
        return ("Error".to_owned(), std::iter::once(only.code.clone()).chain(hints(only)).collect());
    }
    // Each code once, in the order it first came; under it, its errors whose messages have the
    // same words outside quotes, in order.
    fn skeleton<'a>(item: &&'a crate::errors::ErrorResult) -> Vec<&'a str> {
        item.message.split('\'').step_by(2).collect()
    }
    let mut lines = Vec::new();
    for (code, items) in group_in_order(&error.errors, |item| item.code.as_str()) {
        let first = items[0];
        for (_, group) in group_in_order(items, skeleton) {
            let (template, values) = factor(group.iter().map(|item| item.message.as_str()));
            lines.push(format!("{code}: {template}"));
            let located: Vec<String> = group
                .iter()
                .zip(&values)
                .map(|(item, names)| {
                    let at = location(item)
                        .map(|(file, at)| format!("{}{at}", file.strip_prefix(base.as_str()).unwrap_or(file)));
                    let names = names.iter().map(|name| format!("'{name}'"));
                    at.into_iter().chain(names).collect::<Vec<_>>().join(" ")
                })
                .filter(|entry| !entry.is_empty())
                .collect();
            if !located.is_empty() {
                lines.push(format!("at {}", located.join(", ")));
            }
        }
        lines.extend(hints(first));
    }
    let heading = if base.is_empty() { "Errors".to_owned() } else { format!("Errors (files under {base})") };
    (heading, lines)
}

/// An error's hint and alternatives, a line each.
fn hints(item: &crate::errors::ErrorResult) -> impl Iterator<Item = String> + '_ {
    let hint = item.hint.iter().map(|hint| format!("hint: {hint}"));
    hint.chain(item.alternatives.iter().flatten().map(|alternative| format!("alternative: {alternative}")))
}

/// Messages that differ only inside quotes, written once: the first message with each quoted
/// part that varies replaced by `{n}` (parts that always carry the same names share a number),
/// and each message's names for those placeholders, in order. Messages all the same give the
/// message and no names.
fn factor<'a>(messages: impl Iterator<Item = &'a str>) -> (String, Vec<Vec<&'a str>>) {
    let split: Vec<Vec<&str>> = messages.map(|message| message.split('\'').collect()).collect();
    let quoted = |parts: &Vec<&'a str>| parts.iter().skip(1).step_by(2).copied().collect::<Vec<&'a str>>();
    let columns: Vec<Vec<&str>> = split.iter().map(quoted).collect();
    let width = columns.first().map_or(0, Vec::len);
    // For each quoted position: the placeholder it shows, when its names vary.
    let mut numbers: Vec<Option<usize>> = vec![None; width];
    let mut shown: Vec<usize> = Vec::new();
    for position in 0..width {
        let names: Vec<&str> = columns.iter().map(|names| names[position]).collect();
        if names.iter().all(|name| *name == names[0]) {
            continue;
        }
        let same = shown.iter().position(|&other| columns.iter().all(|names| names[other] == names[position]));
        numbers[position] = Some(same.unwrap_or_else(|| {
            shown.push(position);
            shown.len() - 1
        }));
    }
    let Some(first) = split.first() else { return (String::new(), Vec::new()) };
    let template = first
        .iter()
        .enumerate()
        .map(|(at, part)| match at % 2 {
            1 => numbers[at / 2].map_or_else(|| (*part).to_owned(), |number| format!("{{{number}}}")),
            _ => (*part).to_owned(),
        })
        .collect::<Vec<_>>()
        .join("'");
    let values = columns.iter().map(|names| shown.iter().map(|&position| names[position]).collect()).collect();
    (template, values)
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

/// `items` grouped by `key`: the groups in the order their first item came, each group's items in
/// their order. A list for the model names each group (a code, a test class) once this way.
pub fn group_in_order<T, K: PartialEq>(items: impl IntoIterator<Item = T>, key: impl Fn(&T) -> K) -> Vec<(K, Vec<T>)> {
    let mut groups: Vec<(K, Vec<T>)> = Vec::new();
    for item in items {
        let item_key = key(&item);
        match groups.iter_mut().find(|(known, _)| *known == item_key) {
            Some((_, members)) => members.push(item),
            None => groups.push((item_key, vec![item])),
        }
    }
    groups
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
    fn output_the_action_read_is_shown_only_at_verbose_even_when_the_reply_has_no_sections() {
        // An empty tool list: the summary says there is none, the JSON report says the same.
        let report = r#"{"version":1,"data":[]}"#;
        let empty = || Reply::new("No tools installed globally.").section("Tools", Vec::new()).read_output(report);
        for format in ["text", "markdown"] {
            let standard = empty().render(Presentation::from_features(&[format!("format={format}")]));
            assert!(!standard.contains(report), "{standard}");
        }
        let verbose = empty().render(Presentation::from_features(&["verbosity=verbose".to_owned()]));
        assert!(verbose.ends_with(&format!("\n\n{report}")), "{verbose}");
    }

    #[test]
    fn output_nobody_read_is_shown_at_standard_when_the_reply_has_nothing_else() {
        let printed = "The template \"Console App\" was created successfully.\nRestore succeeded.";
        let new = || Reply::new("The template \"Console App\" was created successfully.").output(printed);
        let standard = new().render(Presentation::default());
        assert!(standard.ends_with(&format!("\n\n{printed}")), "{standard}");
        let markdown = new().render(Presentation::from_features(&["format=markdown".to_owned()]));
        assert!(markdown.ends_with(&format!("```text\n{printed}\n```")), "{markdown}");
        let compact = new().render(Presentation::from_features(&["verbosity=compact".to_owned()]));
        assert!(!compact.contains("Restore succeeded"), "{compact}");
        // With sections, the sections are the account: the output waits for verbose.
        let warned = new().section("Warnings", vec!["Program.cs(3,1): CS0168: unused".into()]);
        assert!(!warned.render(Presentation::default()).contains("Restore succeeded"));
        let verbose = warned.render(Presentation::from_features(&["verbosity=verbose".to_owned()]));
        assert!(verbose.contains("Restore succeeded"), "{verbose}");
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
        assert_eq!(lines[1], "  CS0029: Cannot implicitly convert type 'string' to 'int'");
        assert_eq!(lines[2], "  at Broken.cs(7,18), Deep/More.cs(10,18)");
        assert!(lines[3].starts_with("  hint: "), "{text}");
        assert_eq!(lines[4], "  CS0103: The name '{0}' does not exist in the current context", "{text}");
        assert_eq!(lines[5], "  at Broken.cs(8,9) 'missing1', Deep/More.cs(11,9) 'missing2'");
        assert!(lines[6].starts_with("  hint: "), "{text}");
        assert_eq!(lines.len(), 7, "a hint is said once per code: {text}");
    }

    #[test]
    fn messages_that_differ_in_names_are_written_once_with_placeholders() {
        let messages = [
            "'int' does not contain a definition for 'Nope2' and no accessible extension method 'Nope2' accepting 'int'",
            "'int' does not contain a definition for 'Nope5' and no accessible extension method 'Nope5' accepting 'int'",
            "'long' does not contain a definition for 'Nope8' and no accessible extension method 'Nope8' accepting 'long'",
        ];
        let (template, names) = factor(messages.iter().copied());
        assert_eq!(
            template,
            "'{0}' does not contain a definition for '{1}' and no accessible extension method '{1}' accepting '{0}'"
        );
        assert_eq!(names, vec![vec!["int", "Nope2"], vec!["int", "Nope5"], vec!["long", "Nope8"]]);
        // Every message comes back from the template and its names.
        for (message, names) in messages.iter().zip(&names) {
            let back = names
                .iter()
                .enumerate()
                .fold(template.clone(), |text, (number, name)| text.replace(&format!("{{{number}}}"), name));
            assert_eq!(&back, message);
        }
        // The same message twice has nothing to factor; other words outside quotes are another line.
        let (same, names) = factor(["Cannot convert 'a'", "Cannot convert 'a'"].into_iter());
        assert_eq!((same.as_str(), names), ("Cannot convert 'a'", vec![Vec::<&str>::new(), Vec::new()]));
        let stdout = [
            "/src/A.cs(1,1): error CS0246: The type or namespace name 'Foo' could not be found [/src/A.csproj]",
            "/src/A.cs(2,1): error CS0246: The type or namespace name 'Bar' could not be found (are you missing 'x'?) [/src/A.csproj]",
        ]
        .join("\n");
        let error = ErrorResponse::from_failed_run(&["dotnet", "build"], 1, &stdout, "");
        let text = failure(error.into(), Presentation::default()).joined_text();
        assert!(
            text.contains("  CS0246: The type or namespace name 'Foo' could not be found\n  at A.cs(1,1)\n")
                && text.contains("  CS0246: The type or namespace name 'Bar' could not be found (are you missing 'x'?)\n  at A.cs(2,1)\n"),
            "{text}"
        );
    }

    #[test]
    fn no_error_is_left_out_of_a_long_build() {
        let stdout: Vec<String> = (1..=300)
            .map(|n| format!("/src/A.cs({n},5): error CS0103: The name 'm{n}' does not exist in the current context [/src/A.csproj]"))
            .collect();
        let error = ErrorResponse::from_failed_run(&["dotnet", "build"], 1, &stdout.join("\n"), "");
        let text = failure(error.into(), Presentation::default()).joined_text();
        for n in 1..=300 {
            assert!(text.contains(&format!("A.cs({n},5) 'm{n}'")), "error {n} is missing: {text}");
        }
    }

    #[test]
    fn a_single_error_without_a_location_is_said_once() {
        let error = ErrorResponse::from(
            ErrorResult::new("NU1101", "Unable to find package Nope.").with_hint("Check the package id."),
        );
        let text = failure(error.into(), Presentation::default()).joined_text();
        assert_eq!(text, "Unable to find package Nope.\n\nError:\n  NU1101\n  hint: Check the package id.");
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
