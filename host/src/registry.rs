//! The tools the host serves: each tool's MCP description, the plugin
//! that runs it, and the compiled validators for its input and output.

use std::{
    collections::HashMap,
    sync::{Arc, OnceLock},
};

use mcp_plugin_api::check::ToolSchemas;
use rmcp::model::{Prompt, Tool};
use serde_json::{Map, Value, value::RawValue};

use crate::plugin::PluginBackend;

/// One served tool.
pub struct ToolEntry {
    /// The description clients see in `tools/list` (under its served name,
    /// with the operator's overrides).
    pub tool: Tool,
    /// The plugin that runs it.
    pub plugin: Arc<dyn PluginBackend>,
    /// Its position in the plugin's own list.
    pub index: u32,
    /// Argument values filled in when a call leaves them out (`Tools.Overrides`).
    defaults: Map<String, Value>,
    schemas: OnceLock<Result<ToolSchemas, String>>,
}

impl ToolEntry {
    /// Reads a plugin's tool descriptor.
    pub fn parse(descriptor: &RawValue) -> Result<Tool, String> {
        serde_json::from_str(descriptor.get()).map_err(|error| format!("its descriptor is not an MCP tool: {error}"))
    }

    /// An entry serving `tool` as tool number `index` of `plugin`, filling
    /// in `defaults`. Its schemas are compiled on first use;
    /// [`Self::compile`] compiles them now.
    pub fn new(plugin: Arc<dyn PluginBackend>, index: u32, tool: Tool, defaults: Map<String, Value>) -> Self {
        Self { tool, plugin, index, defaults, schemas: OnceLock::new() }
    }

    /// Fills in the operator's defaults for arguments the call left out.
    pub fn fill_defaults(&self, arguments: &mut Map<String, Value>) {
        for (name, value) in &self.defaults {
            arguments.entry(name.clone()).or_insert_with(|| value.clone());
        }
    }

    /// Compiles the tool's schemas (once), or says why they do not compile.
    pub fn compile(&self) -> Result<(), String> {
        self.schemas().map(|_| ())
    }

    fn schemas(&self) -> Result<&ToolSchemas, String> {
        let compiled = self.schemas.get_or_init(|| {
            let input = Value::Object((*self.tool.input_schema).clone());
            let output = self.tool.output_schema.as_ref().map(|schema| Value::Object((**schema).clone()));
            ToolSchemas::compile(&input, output.as_ref())
        });
        compiled.as_ref().map_err(Clone::clone)
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// Checks arguments against the input schema; the error names the
    /// parameter and the reason, for the model to correct its call.
    pub fn check_arguments(&self, arguments: &Value) -> Result<(), String> {
        self.schemas()?.check_arguments(arguments)
    }

    /// Checks a successful result's structured content against the output
    /// schema, if the tool declared one.
    pub fn check_output(&self, structured: Option<&Value>) -> Result<(), String> {
        self.schemas()?.check_output(structured)
    }
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

impl ResourceAt {
    /// Where a resource descriptor answers, or why it is no resource.
    pub fn of(descriptor: &Value) -> Result<Self, String> {
        let address = match (descriptor.get("uri"), descriptor.get("uriTemplate")) {
            (Some(Value::String(uri)), None) => ResourceAt::Uri(uri.clone()),
            (None, Some(Value::String(template))) => ResourceAt::Template(template.clone()),
            _ => return Err("a resource needs exactly one of \"uri\" and \"uriTemplate\"".to_owned()),
        };
        if descriptor.get("name").and_then(Value::as_str).is_none_or(str::is_empty) {
            return Err("a resource needs a name".to_owned());
        }
        Ok(address)
    }
}

impl ResourceEntry {
    /// Builds an entry from a plugin's descriptor.
    pub fn new(plugin: Arc<dyn PluginBackend>, index: u32, descriptor: Value) -> Result<Self, String> {
        let address = ResourceAt::of(&descriptor)?;
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
