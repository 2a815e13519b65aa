//! The operator's control of the tool surface: which of the plugins' tools,
//! prompts and resources are served (`Tools`/`Prompts`/`Resources`
//! `.Enabled` and `.Disabled` glob patterns), under which names
//! (`Tools.Prefix`), and with which title, description, annotations and
//! argument defaults (`Tools.Overrides`).
//!
//! These rules apply when the registry is built, at start-up and on every
//! reload; discovery calls them for each plugin's offer. The plugin never
//! learns of them: it is called with its own tool index, and arguments
//! with the defaults already filled in.

use std::collections::{BTreeMap, HashMap};

use mcp_plugin_api::check::{ToolSchemas, descriptor::is_tool_name};
use rmcp::model::{Tool, ToolAnnotations};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::settings::{ItemFilter, Patterns, PrefixMode, SurfaceSettings, ToolOverride};

/// What separates a plugin's name from its tool's in a prefixed name.
pub const PREFIX_SEPARATOR: &str = "__";

impl ItemFilter {
    /// Whether the item `key` (a tool or prompt name, a resource URI or URI
    /// template) of plugin `plugin` is served. Each pattern is tried on the
    /// key and on `<plugin>/<key>`.
    pub fn admits(&self, plugin: &str, key: &str) -> bool {
        let qualified = format!("{plugin}/{key}");
        let matches = |patterns: &Patterns| patterns.matches(key) || patterns.matches(&qualified);
        self.enabled.as_ref().is_none_or(matches) && !matches(&self.disabled)
    }

    /// The filter as configured, for reports (`None` when it lets everything through).
    pub fn describe(&self) -> Option<Value> {
        if self.enabled.is_none() && self.disabled.sources().is_empty() {
            return None;
        }
        let mut described = Map::new();
        if let Some(enabled) = &self.enabled {
            described.insert("enabled".to_owned(), enabled.sources().into());
        }
        if !self.disabled.sources().is_empty() {
            described.insert("disabled".to_owned(), self.disabled.sources().into());
        }
        Some(Value::Object(described))
    }
}

/// Items of one plugin that the operator's filters keep from being served.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Hidden {
    /// Tools, by the plugin's own name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
    /// Prompts, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prompts: Vec<String>,
    /// Resources and templates, by URI or URI template.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
}

impl Hidden {
    /// Whether nothing is hidden.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty() && self.prompts.is_empty() && self.resources.is_empty()
    }
}

/// What an override changed in one served tool, for reports.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Overridden {
    /// The tool's served name.
    pub tool: String,
    /// The descriptor fields replaced: `title`, `description`, `annotations.<hint>`.
    pub fields: Vec<String>,
    /// The arguments given defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<String>,
}

/// A tool a plugin offers and the filters admit, waiting for its served name.
pub struct Candidate {
    /// The plugin's name.
    pub plugin: String,
    /// The tool's own name.
    pub name: String,
}

/// The served name of each candidate (in order), or why it has none.
/// `Tools.Prefix` decides: `plugin` always prefixes, `on-collision` only
/// when another candidate has the same name; what still collides is left
/// to the registry's first-come rule.
pub fn served_names(candidates: &[Candidate], surface: &SurfaceSettings) -> Vec<Result<String, String>> {
    let modes: Vec<PrefixMode> = candidates.iter().map(|tool| surface.prefix.mode_for(&tool.plugin)).collect();
    let provisional: Vec<String> = candidates
        .iter()
        .zip(&modes)
        .map(|(tool, mode)| match mode {
            PrefixMode::Plugin => prefixed(&tool.plugin, &tool.name),
            PrefixMode::None | PrefixMode::OnCollision => tool.name.clone(),
        })
        .collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for name in &provisional {
        *counts.entry(name).or_default() += 1;
    }
    candidates
        .iter()
        .zip(&modes)
        .zip(&provisional)
        .map(|((tool, mode), name)| {
            let name = match mode {
                PrefixMode::OnCollision if counts[name.as_str()] > 1 => prefixed(&tool.plugin, &tool.name),
                _ => name.clone(),
            };
            if is_tool_name(&name) {
                Ok(name)
            } else {
                Err(format!(
                    "its prefixed name '{name}' is not a valid MCP tool name (at most 128 of A-Z a-z 0-9 _ - .)"
                ))
            }
        })
        .collect()
}

/// `<plugin>__<tool>`, with characters a tool name may not hold replaced by `_`.
pub fn prefixed(plugin: &str, tool: &str) -> String {
    let plugin: String = plugin
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' })
        .collect();
    format!("{plugin}{PREFIX_SEPARATOR}{tool}")
}

/// The override for a tool of `plugin` whose own name is `own` and served
/// name `served`: `<plugin>/<own>` first, then the served name. Returns
/// the key it was found under.
pub fn override_for<'a>(
    surface: &'a SurfaceSettings,
    plugin: &str,
    own: &str,
    served: &str,
) -> Option<(&'a str, &'a ToolOverride)> {
    let qualified = format!("{plugin}/{own}");
    surface
        .overrides
        .get_key_value(&qualified)
        .or_else(|| surface.overrides.get_key_value(served))
        .map(|(key, value)| (key.as_str(), value))
}

/// Applies an override to a served tool; returns what it changed, the
/// defaults to fill in, and a problem when the defaults were refused (they
/// must pass the tool's input schema, or every call would fail).
pub fn apply_override(
    tool: &mut Tool,
    key: &str,
    change: &ToolOverride,
) -> (Overridden, Map<String, Value>, Option<String>) {
    let mut fields = Vec::new();
    if let Some(title) = &change.title {
        tool.title = Some(title.clone());
        fields.push("title".to_owned());
    }
    if let Some(description) = &change.description {
        tool.description = Some(description.clone().into());
        fields.push("description".to_owned());
    }
    let hints = &change.annotations;
    let settable = [
        ("readOnlyHint", hints.read_only),
        ("destructiveHint", hints.destructive),
        ("idempotentHint", hints.idempotent),
        ("openWorldHint", hints.open_world),
    ];
    if settable.iter().any(|(_, value)| value.is_some()) {
        let annotations = tool.annotations.get_or_insert_with(ToolAnnotations::default);
        for (hint, value) in settable {
            let Some(value) = value else { continue };
            let slot = match hint {
                "readOnlyHint" => &mut annotations.read_only_hint,
                "destructiveHint" => &mut annotations.destructive_hint,
                "idempotentHint" => &mut annotations.idempotent_hint,
                _ => &mut annotations.open_world_hint,
            };
            *slot = Some(value);
            fields.push(format!("annotations.{hint}"));
        }
    }
    let mut report = Overridden { tool: tool.name.to_string(), fields, defaults: Vec::new() };
    if change.defaults.is_empty() {
        return (report, Map::new(), None);
    }
    if let Err(reason) = check_defaults(tool, &change.defaults) {
        let problem =
            format!("the defaults of Tools.Overrides.{key} are not applied to tool '{}': {reason}", tool.name);
        return (report, Map::new(), Some(problem));
    }
    let mut schema = (*tool.input_schema).clone();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (argument, value) in &change.defaults {
            if let Some(Value::Object(property)) = properties.get_mut(argument) {
                property.insert("default".to_owned(), value.clone());
            }
        }
    }
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| name.as_str().is_none_or(|name| !change.defaults.contains_key(name)));
    }
    tool.input_schema = schema.into();
    report.defaults = change.defaults.keys().cloned().collect();
    (report, change.defaults.clone(), None)
}

/// Checks defaults against the tool's input schema, as a call that gave
/// only them would be checked, less the schema's `required` list.
fn check_defaults(tool: &Tool, defaults: &Map<String, Value>) -> Result<(), String> {
    let mut schema = (*tool.input_schema).clone();
    schema.remove("required");
    let schemas = ToolSchemas::compile(&Value::Object(schema), None)?;
    schemas.check_arguments(&Value::Object(defaults.clone()))
}

/// The operator's rules as plugins see them in `host_info` (`surface`).
pub fn describe(surface: &SurfaceSettings) -> Value {
    let mut described = Map::new();
    for (section, filter) in
        [("tools", &surface.tools), ("prompts", &surface.prompts), ("resources", &surface.resources)]
    {
        if let Some(filter) = filter.describe() {
            described.insert(section.to_owned(), filter);
        }
    }
    let mut prefix: BTreeMap<String, PrefixMode> = surface.prefix.per_plugin.clone();
    prefix.insert("*".to_owned(), surface.prefix.default);
    described.insert("prefix".to_owned(), serde_json::to_value(prefix).unwrap_or_default());
    Value::Object(described)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::PrefixSettings;

    fn filter(enabled: Option<&[&str]>, disabled: &[&str]) -> ItemFilter {
        let list = |items: &[&str]| items.iter().map(|item| item.to_string()).collect();
        ItemFilter {
            enabled: enabled.map(|items| Patterns::new("Tools.Enabled", list(items)).unwrap()),
            disabled: Patterns::new("Tools.Disabled", list(disabled)).unwrap(),
        }
    }

    #[test]
    fn patterns_match_the_name_or_the_plugin_qualified_name() {
        let only_sample = filter(Some(&["sample/*"]), &["*count*"]);
        assert!(only_sample.admits("sample", "echo"));
        assert!(!only_sample.admits("sample", "countdown"), "disabled wins over enabled");
        assert!(!only_sample.admits("other", "echo"));
        assert!(filter(None, &[]).admits("any", "thing"));
        assert!(!filter(None, &["fixture://*"]).admits("res", "fixture://a/b"), "* crosses slashes in URIs");
    }

    #[test]
    fn a_bad_pattern_is_named_with_its_key() {
        let error = Patterns::new("Tools.Disabled", vec!["a[".to_owned()]).unwrap_err();
        assert!(error.contains("Tools.Disabled") && error.contains("'a['"), "{error}");
    }

    fn candidates(pairs: &[(&str, &str)]) -> Vec<Candidate> {
        pairs.iter().map(|(plugin, name)| Candidate { plugin: plugin.to_string(), name: name.to_string() }).collect()
    }

    fn surface(default: PrefixMode, per_plugin: &[(&str, PrefixMode)]) -> SurfaceSettings {
        SurfaceSettings {
            prefix: PrefixSettings {
                default,
                per_plugin: per_plugin.iter().map(|(plugin, mode)| (plugin.to_string(), *mode)).collect(),
            },
            ..SurfaceSettings::default()
        }
    }

    #[test]
    fn prefix_modes_name_tools() {
        let tools = candidates(&[("a", "echo"), ("b", "echo"), ("b", "only_b")]);
        let names = |surface: &SurfaceSettings| -> Vec<String> {
            served_names(&tools, surface).into_iter().map(Result::unwrap).collect()
        };
        assert_eq!(
            names(&surface(PrefixMode::None, &[])),
            ["echo", "echo", "only_b"],
            "collisions left to the registry"
        );
        assert_eq!(names(&surface(PrefixMode::Plugin, &[])), ["a__echo", "b__echo", "b__only_b"]);
        assert_eq!(names(&surface(PrefixMode::OnCollision, &[])), ["a__echo", "b__echo", "only_b"]);
        assert_eq!(
            names(&surface(PrefixMode::None, &[("B", PrefixMode::OnCollision)])),
            ["echo", "b__echo", "only_b"],
            "only the plugin that yields is prefixed; plugin names match without regard to case"
        );
    }

    #[test]
    fn a_prefixed_name_that_is_no_tool_name_is_refused() {
        let long = "t".repeat(127);
        let tools = candidates(&[("my plugin", "echo"), ("p", long.as_str())]);
        let names = served_names(&tools, &surface(PrefixMode::Plugin, &[]));
        assert_eq!(names[0].as_deref(), Ok("my_plugin__echo"), "characters a name may not hold become _");
        assert!(names[1].as_ref().is_err_and(|error| error.contains("128")), "{:?}", names[1]);
    }

    fn tool() -> Tool {
        serde_json::from_value(serde_json::json!({
            "name": "greet",
            "description": "Greets.",
            "inputSchema": {
                "type": "object",
                "properties": { "name": { "type": "string" }, "loud": { "type": "boolean" } },
                "required": ["name"],
                "additionalProperties": false
            },
            "annotations": { "destructiveHint": true }
        }))
        .unwrap()
    }

    #[test]
    fn an_override_replaces_fields_and_lists_defaults_in_the_schema() {
        let mut served = tool();
        let change = ToolOverride {
            title: Some("Greeter".into()),
            annotations: crate::settings::AnnotationOverrides { read_only: Some(true), ..Default::default() },
            defaults: serde_json::json!({ "name": "Ada" }).as_object().unwrap().clone(),
            ..ToolOverride::default()
        };
        let (report, defaults, problem) = apply_override(&mut served, "greet", &change);
        assert_eq!(problem, None);
        assert_eq!(served.title.as_deref(), Some("Greeter"));
        assert_eq!(served.description.as_deref(), Some("Greets."), "what is not overridden stays");
        let annotations = served.annotations.as_ref().unwrap();
        assert_eq!((annotations.read_only_hint, annotations.destructive_hint), (Some(true), Some(true)));
        assert_eq!(served.input_schema["properties"]["name"]["default"], "Ada");
        assert_eq!(served.input_schema["required"], serde_json::json!([]), "a defaulted argument is optional");
        assert_eq!(report.fields, ["title", "annotations.readOnlyHint"]);
        assert_eq!(report.defaults, ["name"]);
        assert_eq!(defaults["name"], "Ada");
    }

    #[test]
    fn defaults_the_schema_refuses_are_not_applied() {
        for defaults in [serde_json::json!({ "name": 7 }), serde_json::json!({ "colour": "red" })] {
            let mut served = tool();
            let change = ToolOverride { defaults: defaults.as_object().unwrap().clone(), ..ToolOverride::default() };
            let (report, applied, problem) = apply_override(&mut served, "greet", &change);
            let problem = problem.expect("refused");
            assert!(problem.contains("Tools.Overrides.greet") && problem.contains("Invalid argument"), "{problem}");
            assert!(applied.is_empty() && report.defaults.is_empty());
            assert_eq!(served.input_schema["required"], serde_json::json!(["name"]), "the schema is untouched");
        }
    }
}
