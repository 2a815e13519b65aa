//! Editing global.json without losing what its author wrote: comments, blank lines, indentation,
//! property order and every setting this tool does not touch stay as they were; only the values
//! asked for change (or are added, in the file's own indentation style).
//!
//! The file is read as JSON with comments and trailing commas, the two extensions the .NET host
//! accepts in global.json, and nothing looser: a file the SDK could not read is refused rather
//! than rewritten. Edits go through [`jsonc_parser::cst`], a lossless syntax tree.

use jsonc_parser::{
    ParseOptions,
    cst::{CstInputValue, CstNode, CstObject, CstRootNode},
};
use serde_json::{Value, json};

/// The settings to write; `None` leaves a setting alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settings<'a> {
    /// `sdk.version`.
    pub sdk_version: Option<&'a str>,
    /// `sdk.rollForward`.
    pub roll_forward: Option<&'a str>,
    /// `sdk.allowPrerelease`.
    pub allow_prerelease: Option<bool>,
    /// `test.runner`.
    pub test_runner: Option<&'a str>,
}

impl Settings<'_> {
    /// Whether nothing was asked for.
    pub fn is_empty(&self) -> bool {
        *self == Settings::default()
    }

    /// `(section, key, value)` of every setting asked for, in the file's conventional order.
    fn entries(&self) -> Vec<(&'static str, &'static str, Value)> {
        let mut entries = Vec::new();
        if let Some(version) = self.sdk_version {
            entries.push(("sdk", "version", json!(version)));
        }
        if let Some(allow) = self.allow_prerelease {
            entries.push(("sdk", "allowPrerelease", json!(allow)));
        }
        if let Some(roll_forward) = self.roll_forward {
            entries.push(("sdk", "rollForward", json!(roll_forward)));
        }
        if let Some(runner) = self.test_runner {
            entries.push(("test", "runner", json!(runner)));
        }
        entries
    }
}

/// One setting written: its dotted name, its value before (`null` when absent) and after.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// `sdk.version`, `sdk.rollForward`, `sdk.allowPrerelease` or `test.runner`.
    pub setting: String,
    /// The value before the edit, `null` when the setting was absent.
    pub previous: Value,
    /// The value written.
    pub value: Value,
}

impl Change {
    /// Whether the edit changed the value.
    pub fn changed(&self) -> bool {
        self.previous != self.value
    }
}

/// The file after the edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    /// The whole new text.
    pub text: String,
    /// What each requested setting was and is.
    pub changes: Vec<Change>,
}

impl Edited {
    /// Whether the text differs from what was read.
    pub fn changed_anything(&self) -> bool {
        self.changes.iter().any(Change::changed)
    }
}

fn to_input(value: &Value) -> CstInputValue {
    match value {
        Value::Bool(flag) => CstInputValue::Bool(*flag),
        Value::String(text) => CstInputValue::String(text.clone()),
        other => CstInputValue::String(other.to_string()),
    }
}

/// The JSON value of a scalar node (string, boolean, number, null); other nodes read as their text.
fn scalar(node: &CstNode) -> Value {
    if let Some(text) = node.as_string_lit() {
        return text.decoded_value().map(Value::String).unwrap_or_else(|_| json!(text.raw_value()));
    }
    if let Some(flag) = node.as_boolean_lit() {
        return json!(flag.value());
    }
    if node.as_null_keyword().is_some() {
        return Value::Null;
    }
    json!(node.to_string())
}

/// The parse options of the .NET host: comments and trailing commas, nothing looser.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// The section object `name` of `root`, created at the end when missing; an existing value
/// that is not an object is an error (it is the author's, and not ours to replace).
fn section(root: &CstObject, name: &str) -> Result<CstObject, String> {
    match root.get(name) {
        None => Ok(root.object_value_or_set(name)),
        Some(_) => root.object_value(name).ok_or_else(|| format!("its \"{name}\" property is not an object")),
    }
}

/// Applies `settings` to `existing` (the current text, `None` or blank for a new file) and
/// returns the new text with what changed. An `Err` says, for the user, why the file cannot be
/// edited (not valid JSON with comments, or not an object where one is expected).
pub fn edit(existing: Option<&str>, settings: &Settings<'_>) -> Result<Edited, String> {
    // A new file starts as an empty object and grows like an existing one, so the layout of
    // the sections is the same either way.
    let existing = existing.filter(|text| !text.trim().is_empty()).unwrap_or("{}\n");
    let root = CstRootNode::parse(existing, &options()).map_err(|error| format!("it is not valid JSON: {error}"))?;
    let object = root.object_value().ok_or("its top level is not a JSON object")?;
    let mut changes = Vec::new();
    for (section_name, key, value) in settings.entries() {
        let section = section(&object, section_name)?;
        let previous = section.get(key).and_then(|property| property.value()).map(|node| scalar(&node));
        let previous = previous.unwrap_or(Value::Null);
        if previous != value {
            match section.get(key) {
                Some(property) => property.set_value(to_input(&value)),
                None => {
                    section.append(key, to_input(&value));
                }
            }
        }
        changes.push(Change { setting: format!("{section_name}.{key}"), previous, value });
    }
    Ok(Edited { text: root.to_string(), changes })
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMENTED: &str = r#"// Pins the SDK for the whole repository.
{
    "sdk": {
        "version": "8.0.100", // the LTS we ship on
        /* keep */ "rollForward": "latestPatch"
    },

    "msbuild-sdks": { "Microsoft.Build.Traversal": "4.1.0" },
}
"#;

    #[test]
    fn comments_blank_lines_and_other_settings_survive_an_edit() {
        let settings = Settings {
            sdk_version: Some("10.0.100"),
            test_runner: Some("Microsoft.Testing.Platform"),
            ..Default::default()
        };
        let edited = edit(Some(COMMENTED), &settings).unwrap();
        assert_eq!(
            edited.text,
            r#"// Pins the SDK for the whole repository.
{
    "sdk": {
        "version": "10.0.100", // the LTS we ship on
        /* keep */ "rollForward": "latestPatch"
    },

    "msbuild-sdks": { "Microsoft.Build.Traversal": "4.1.0" },
    "test": {
        "runner": "Microsoft.Testing.Platform"
    },
}
"#
        );
        assert_eq!(
            edited.changes[0],
            Change { setting: "sdk.version".into(), previous: json!("8.0.100"), value: json!("10.0.100") }
        );
        assert_eq!(edited.changes[1].previous, Value::Null);
        assert!(edited.changed_anything());
    }

    #[test]
    fn an_unchanged_value_leaves_the_text_alone() {
        let settings = Settings { roll_forward: Some("latestPatch"), ..Default::default() };
        let edited = edit(Some(COMMENTED), &settings).unwrap();
        assert_eq!(edited.text, COMMENTED);
        assert!(!edited.changed_anything());
    }

    #[test]
    fn booleans_are_written_as_booleans() {
        let settings = Settings { allow_prerelease: Some(false), ..Default::default() };
        let edited = edit(Some("{ \"sdk\": { \"allowPrerelease\": true } }\n"), &settings).unwrap();
        assert_eq!(edited.text, "{ \"sdk\": { \"allowPrerelease\": false } }\n");
        assert_eq!(edited.changes[0].previous, json!(true));
    }

    #[test]
    fn a_new_file_is_written_in_the_usual_layout() {
        let settings =
            Settings { sdk_version: Some("10.0.100"), roll_forward: Some("latestFeature"), ..Default::default() };
        let edited = edit(None, &settings).unwrap();
        assert_eq!(
            edited.text,
            "{\n  \"sdk\": {\n    \"version\": \"10.0.100\",\n    \"rollForward\": \"latestFeature\"\n  }\n}\n"
        );
        assert_eq!(edit(Some("  \n"), &settings).unwrap().text, edited.text);
    }

    #[test]
    fn files_the_sdk_could_not_read_are_refused() {
        let settings = Settings { sdk_version: Some("10.0.100"), ..Default::default() };
        assert!(edit(Some("{ sdk: { } }"), &settings).unwrap_err().contains("not valid JSON"));
        assert!(edit(Some("[1]"), &settings).unwrap_err().contains("not a JSON object"));
        assert!(
            edit(Some("{ \"sdk\": \"10.0.100\" }"), &settings)
                .unwrap_err()
                .contains("\"sdk\" property is not an object")
        );
    }
}
