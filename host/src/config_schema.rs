//! The JSON Schema of `appsettings.json` and the key check it drives.
//!
//! Both come from the settings' own Rust types (`settings::Raw` and the
//! structs it holds, through schemars), so a field added there is at once a
//! known key and part of `mcp-plugin-host config-schema`. The check walks a
//! configuration tree beside the schema: each key of the host's own sections
//! is matched without regard to case and rewritten in its canonical spelling;
//! a key the schema does not know is removed and reported with the closest
//! known one. Sections the schema leaves open (a plugin's own settings, tool
//! names, argument defaults) are not the host's and are not walked.

use serde_json::Value;

use crate::settings::raw::Raw;

/// Where the committed schema lives, relative to the repository root; the
/// default `appsettings.json` and the `init` template name it in `$schema`.
pub const COMMITTED_PATH: &str = "appsettings.schema.json";

/// The JSON Schema of `appsettings.json`, as `config-schema` prints it.
pub fn schema() -> Value {
    let mut schema = schemars::schema_for!(Raw).to_value();
    drop_defaults(&mut schema);
    schema
}

/// Removes the `default` schemars takes from the structs' `Default`: every
/// field there is an empty `Option`, while the real defaults are applied in
/// `Settings::from_raw` and stated in each key's description.
fn drop_defaults(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            map.remove("default");
            map.values_mut().for_each(drop_defaults);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_defaults),
        _ => {}
    }
}

/// The schema as `config-schema` prints it and the committed file holds it:
/// pretty-printed, ending with a newline.
pub fn text() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// A key of the host's sections that is not a setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    /// The key's path: known parents in their canonical spelling, then the
    /// key as written.
    pub path: Vec<String>,
    /// The known key at the same level closest to it, if any is close.
    pub suggestion: Option<String>,
    /// Every key known at that level, for when none is close.
    pub known: Vec<String>,
}

impl std::fmt::Display for UnknownKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parents = &self.path[..self.path.len() - 1];
        let dotted = |key: &str| parents.iter().map(String::as_str).chain([key]).collect::<Vec<_>>().join(".");
        write!(f, "`{}` is not a setting; ", dotted(&self.path[self.path.len() - 1]))?;
        match &self.suggestion {
            Some(suggestion) => write!(f, "did you mean `{}`?", dotted(suggestion)),
            None => write!(f, "the settings there are {}", self.known.join(", ")),
        }
    }
}

/// Rewrites the host's keys in `tree` in their canonical spelling, removes
/// the keys that are not settings and returns them.
pub fn canonicalize(tree: &mut Value, schema: &Value) -> Vec<UnknownKey> {
    let mut unknown = Vec::new();
    walk(tree, schema, schema, &mut Vec::new(), &mut unknown);
    unknown
}

/// What is wrong with `section`, plugin `plugin`'s settings, by the JSON Schema
/// the plugin declares: keys matched without regard to case as the host's
/// are (a key the schema does not allow is named with the closest one it
/// does), then values checked by the schema, in `mcp_plugin_api::check`'s words.
pub fn check_plugin_section(plugin: &str, schema: &Value, mut section: Value) -> Vec<String> {
    let mut path = vec!["Plugins".to_owned(), "Settings".to_owned(), plugin.to_owned()];
    let mut unknown = Vec::new();
    walk(&mut section, schema, schema, &mut path, &mut unknown);
    let mut problems: Vec<String> = unknown.iter().map(ToString::to_string).collect();
    let values = mcp_plugin_api::check::check_settings(schema, &section).err().unwrap_or_default();
    problems.extend(values.into_iter().map(|problem| format!("Plugins.Settings.{plugin}: {problem}")));
    problems
}

fn walk(value: &mut Value, node: &Value, root: &Value, path: &mut Vec<String>, unknown: &mut Vec<UnknownKey>) {
    let Value::Object(map) = value else { return };
    let Some(node) = object_schema(node, root) else { return };
    let properties = node.get("properties").and_then(Value::as_object);
    let additional = node.get("additionalProperties");
    for (key, mut child) in std::mem::take(map) {
        let known =
            properties.and_then(|properties| properties.iter().find(|(name, _)| name.eq_ignore_ascii_case(&key)));
        let (name, child_schema) = match (known, additional) {
            (Some((name, schema)), _) => (name.clone(), schema),
            (None, Some(Value::Bool(false))) => {
                let known: Vec<String> = properties.map(|p| p.keys().cloned().collect()).unwrap_or_default();
                path.push(key.clone());
                unknown.push(UnknownKey { path: path.clone(), suggestion: closest(&key, &known), known });
                path.pop();
                continue;
            }
            (None, Some(schema @ Value::Object(_))) => (key, schema),
            (None, _) => {
                map.insert(key, child);
                continue;
            }
        };
        path.push(name.clone());
        walk(&mut child, child_schema, root, path, unknown);
        path.pop();
        map.insert(name, child);
    }
}

/// The schema an object value is checked against: `node` itself, through
/// `$ref`, or the branch of an `anyOf`/`oneOf` that describes objects.
fn object_schema<'a>(node: &'a Value, root: &'a Value) -> Option<&'a Value> {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(reference) => root.pointer(reference.strip_prefix('#')?)?,
        None => node,
    };
    if node.get("properties").is_some() || node.get("additionalProperties").is_some() {
        return Some(node);
    }
    let branches = node.get("anyOf").or_else(|| node.get("oneOf")).and_then(Value::as_array)?;
    branches.iter().find_map(|branch| object_schema(branch, root))
}

/// The known key closest to `key`, when it is close enough to be what was meant.
fn closest(key: &str, known: &[String]) -> Option<String> {
    let key = key.to_ascii_lowercase();
    known
        .iter()
        .map(|name| (strsim::normalized_damerau_levenshtein(&key, &name.to_ascii_lowercase()), name))
        .filter(|(similarity, _)| *similarity >= 0.5)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(mut tree: Value) -> (Value, Vec<String>) {
        let unknown = canonicalize(&mut tree, &schema());
        (tree, unknown.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn keys_are_matched_without_case_and_written_canonically() {
        let (tree, unknown) = check(json!({"plugins": {"DIRECTORY": "x", "settings": {"sample": {"greeting": 1}}}}));
        assert!(unknown.is_empty(), "{unknown:?}");
        assert_eq!(tree, json!({"Plugins": {"Directory": "x", "Settings": {"sample": {"greeting": 1}}}}));
    }

    #[test]
    fn an_unknown_key_is_removed_and_named_with_the_closest_known_one() {
        let (tree, unknown) = check(json!({"Plugins": {"Disable": ["a"], "Directory": "x"}}));
        assert_eq!(unknown, ["`Plugins.Disable` is not a setting; did you mean `Plugins.Disabled`?"]);
        assert_eq!(tree, json!({"Plugins": {"Directory": "x"}}));
        let (_, unknown) =
            check(json!({"Tools": {"Overrides": {"build": {"Titel": "B", "Annotations": {"readonly": true}}}}}));
        assert_eq!(
            unknown,
            [
                "`Tools.Overrides.build.Annotations.readonly` is not a setting; did you mean \
                 `Tools.Overrides.build.Annotations.readOnlyHint`?",
                "`Tools.Overrides.build.Titel` is not a setting; did you mean `Tools.Overrides.build.Title`?",
            ]
        );
    }

    #[test]
    fn a_key_like_no_setting_lists_the_settings_of_its_level() {
        let (_, unknown) = check(json!({"Http": {"Zzzzzzzz": 1}}));
        assert_eq!(unknown.len(), 1);
        assert!(
            unknown[0].starts_with("`Http.Zzzzzzzz` is not a setting; the settings there are Address,"),
            "{unknown:?}"
        );
    }

    #[test]
    fn open_sections_are_the_plugins_and_are_not_walked() {
        let tree = json!({"Plugins": {"Config": {"Anything": 1}}, "Host": {"ToolTimeouts": {"any_tool": 3}}});
        let (checked, unknown) = check(tree.clone());
        assert!(unknown.is_empty(), "{unknown:?}");
        assert_eq!(checked, tree);
    }
}
