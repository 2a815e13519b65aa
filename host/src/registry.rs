//! The tools the host serves: each tool's MCP description, the plugin
//! that runs it, and the compiled validators for its input and output.

use std::{
    collections::HashMap,
    sync::{Arc, OnceLock},
};

use jsonschema::Validator;
use rmcp::model::{Prompt, Tool};
use serde_json::{Value, value::RawValue};

use crate::plugin::PluginBackend;

/// One served tool.
pub struct ToolEntry {
    /// The description clients see in `tools/list`.
    pub tool: Tool,
    /// The plugin that runs it.
    pub plugin: Arc<dyn PluginBackend>,
    /// Its position in the plugin's own list.
    pub index: u32,
    validators: OnceLock<Result<Validators, String>>,
}

/// A tool's compiled schemas. Compiling is the dearest part of loading a
/// tool, so a tool from the plugin cache compiles on its first call.
struct Validators {
    input: Validator,
    output: Option<Validator>,
}

impl ToolEntry {
    /// Builds an entry from a plugin's descriptor. Its schemas are compiled
    /// on first use; [`Self::compile`] compiles them now.
    pub fn new(plugin: Arc<dyn PluginBackend>, index: u32, descriptor: &RawValue) -> Result<Self, String> {
        let tool: Tool = serde_json::from_str(descriptor.get())
            .map_err(|error| format!("its descriptor is not an MCP tool: {error}"))?;
        if tool.input_schema.get("type").and_then(Value::as_str) != Some("object") {
            return Err("its inputSchema must be a schema of \"type\": \"object\"".to_owned());
        }
        Ok(Self { tool, plugin, index, validators: OnceLock::new() })
    }

    /// Compiles the tool's schemas (once), or says why they do not compile.
    pub fn compile(&self) -> Result<(), String> {
        self.validators().map(|_| ())
    }

    fn validators(&self) -> Result<&Validators, String> {
        let compiled = self.validators.get_or_init(|| {
            let input = jsonschema::validator_for(&Value::Object((*self.tool.input_schema).clone()))
                .map_err(|error| format!("its inputSchema is not a valid JSON Schema: {error}"))?;
            let output = match &self.tool.output_schema {
                Some(schema) => Some(
                    jsonschema::validator_for(&Value::Object((**schema).clone()))
                        .map_err(|error| format!("its outputSchema is not a valid JSON Schema: {error}"))?,
                ),
                None => None,
            };
            Ok(Validators { input, output })
        });
        compiled.as_ref().map_err(Clone::clone)
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// Checks arguments against the input schema. The error names the
    /// parameter and the reason, for the model to correct its call.
    pub fn check_arguments(&self, arguments: &Value) -> Result<(), String> {
        check(&self.validators()?.input, arguments, "argument")
    }

    /// Checks a successful result's structured content against the output
    /// schema, if the tool declared one.
    pub fn check_output(&self, structured: Option<&Value>) -> Result<(), String> {
        let Some(output) = &self.validators()?.output else {
            return Ok(());
        };
        let Some(structured) = structured else {
            return Err("the tool declares an outputSchema but returned no structuredContent".to_owned());
        };
        check(output, structured, "field")
    }
}

/// Checks `instance` against `validator`: the common valid case costs one
/// pass; only an invalid instance has its errors described.
fn check(validator: &Validator, instance: &Value, noun: &str) -> Result<(), String> {
    if validator.is_valid(instance) {
        return Ok(());
    }
    let problems = describe_errors(validator.iter_errors(instance), noun);
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// One sentence per schema violation, each naming where it is.
fn describe_errors<'a>(errors: impl Iterator<Item = jsonschema::ValidationError<'a>>, noun: &str) -> String {
    errors
        .take(5)
        .map(|error| {
            let path = error.instance_path().to_string();
            // The validator shortens long enums ("or 11 other candidates"); the model needs them all.
            let reason = match error.kind() {
                jsonschema::error::ValidationErrorKind::Enum { options } => match options.as_array() {
                    Some(values) => format!(
                        "{} is not one of: {}",
                        error.instance(),
                        values
                            .iter()
                            .map(|value| value.as_str().map_or_else(|| value.to_string(), str::to_owned))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => error.to_string(),
                },
                _ => error.to_string(),
            };
            match parameter_of(&path) {
                Some(parameter) => format!("{noun} '{parameter}': {reason}"),
                None => reason,
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `/a/0/b` → `a[0].b`; the root → `None`.
fn parameter_of(pointer: &str) -> Option<String> {
    let mut name = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if segment.bytes().all(|byte| byte.is_ascii_digit()) && !name.is_empty() {
            name.push_str(&format!("[{segment}]"));
        } else {
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(&segment);
        }
    }
    (!name.is_empty()).then_some(name)
}

/// One served prompt.
pub struct PromptEntry {
    /// The description clients see in `prompts/list`.
    pub prompt: Prompt,
    /// The plugin that renders it.
    pub plugin: Arc<dyn PluginBackend>,
    /// Its position in the plugin's own list.
    pub index: u32,
}

/// One served resource, or family of resources at a template's URIs.
pub struct ResourceEntry {
    /// The MCP `Resource` or `ResourceTemplate` object.
    pub descriptor: Value,
    /// Its URI, or its URI template.
    pub address: ResourceAt,
    /// The plugin that reads it.
    pub plugin: Arc<dyn PluginBackend>,
    /// Its position in the plugin's own list.
    pub index: u32,
}

/// Where a resource entry answers.
pub enum ResourceAt {
    /// Exactly this URI.
    Uri(String),
    /// Every URI of this template.
    Template(String),
}

impl ResourceEntry {
    /// Builds an entry from a plugin's descriptor.
    pub fn new(plugin: Arc<dyn PluginBackend>, index: u32, descriptor: Value) -> Result<Self, String> {
        let address = match (descriptor.get("uri"), descriptor.get("uriTemplate")) {
            (Some(Value::String(uri)), None) => ResourceAt::Uri(uri.clone()),
            (None, Some(Value::String(template))) => ResourceAt::Template(template.clone()),
            _ => return Err("a resource needs exactly one of \"uri\" and \"uriTemplate\"".to_owned()),
        };
        if descriptor.get("name").and_then(Value::as_str).is_none_or(str::is_empty) {
            return Err("a resource needs a name".to_owned());
        }
        Ok(Self { descriptor, address, plugin, index })
    }

    /// The URI or template, for messages and uniqueness.
    pub fn key(&self) -> &str {
        match &self.address {
            ResourceAt::Uri(uri) | ResourceAt::Template(uri) => uri,
        }
    }

    /// Whether this entry answers `uri`.
    pub fn answers(&self, uri: &str) -> bool {
        match &self.address {
            ResourceAt::Uri(own) => own == uri,
            ResourceAt::Template(template) => mcp_plugin_api::template_values(template, uri).is_some(),
        }
    }
}

/// Everything served, in the order plugins and their items were loaded.
#[derive(Default)]
pub struct Registry {
    entries: Vec<Arc<ToolEntry>>,
    by_name: HashMap<String, usize>,
    prompts: Vec<Arc<PromptEntry>>,
    resources: Vec<Arc<ResourceEntry>>,
}

impl Registry {
    /// Adds a tool; the caller has checked the name is free.
    pub fn insert(&mut self, entry: ToolEntry) {
        self.by_name.insert(entry.name().to_owned(), self.entries.len());
        self.entries.push(Arc::new(entry));
    }

    /// The plugin that already serves `name`, if any.
    pub fn owner_of(&self, name: &str) -> Option<&str> {
        self.get(name).map(|entry| entry.plugin.name())
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<ToolEntry>> {
        self.by_name.get(name).map(|&index| &self.entries[index])
    }

    /// All tools.
    pub fn entries(&self) -> &[Arc<ToolEntry>] {
        &self.entries
    }

    /// Adds a prompt, unless another plugin took its name; `Err` names that plugin.
    pub fn insert_prompt(&mut self, entry: PromptEntry) -> Result<(), String> {
        if let Some(owner) = self.prompt(&entry.prompt.name) {
            return Err(owner.plugin.name().to_owned());
        }
        self.prompts.push(Arc::new(entry));
        Ok(())
    }

    /// The prompt called `name`.
    pub fn prompt(&self, name: &str) -> Option<&Arc<PromptEntry>> {
        self.prompts.iter().find(|entry| entry.prompt.name == name)
    }

    /// All prompts.
    pub fn prompts(&self) -> &[Arc<PromptEntry>] {
        &self.prompts
    }

    /// Adds a resource, unless another plugin took its URI or template;
    /// `Err` names that plugin.
    pub fn insert_resource(&mut self, entry: ResourceEntry) -> Result<(), String> {
        if let Some(owner) = self.resources.iter().find(|known| known.key() == entry.key()) {
            return Err(owner.plugin.name().to_owned());
        }
        self.resources.push(Arc::new(entry));
        Ok(())
    }

    /// The resource that answers `uri`: an exact URI first, then the first
    /// template that matches.
    pub fn resource_for(&self, uri: &str) -> Option<&Arc<ResourceEntry>> {
        let exact = self.resources.iter().find(|entry| matches!(&entry.address, ResourceAt::Uri(own) if own == uri));
        exact.or_else(|| self.resources.iter().find(|entry| entry.answers(uri)))
    }

    /// All resources and templates.
    pub fn resources(&self) -> &[Arc<ResourceEntry>] {
        &self.resources
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enum_violation_lists_every_allowed_value() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "action": { "enum": ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M"] } }
        });
        let validator = jsonschema::validator_for(&schema).unwrap();
        let text = describe_errors(validator.iter_errors(&serde_json::json!({ "action": "Z" })), "argument");
        assert_eq!(text, "argument 'action': \"Z\" is not one of: A, B, C, D, E, F, G, H, I, J, K, L, M");
    }

    #[test]
    fn json_pointers_become_parameter_names() {
        assert_eq!(parameter_of(""), None);
        assert_eq!(parameter_of("/steps"), Some("steps".to_owned()));
        assert_eq!(parameter_of("/items/0/name"), Some("items[0].name".to_owned()));
        assert_eq!(parameter_of("/a~1b"), Some("a/b".to_owned()));
    }
}
