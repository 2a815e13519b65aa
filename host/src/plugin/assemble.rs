//! Assembling: the registry built from the loaded slots under the
//! operator's surface rules (filters first, then names, then overrides; see
//! [`crate::surface`]), and what plugins read of it through `host_info`.

use std::{collections::HashSet, sync::Arc};

use rmcp::model::Prompt;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{
    load::{Serving, Shared, Slot},
    report::{PluginReport, PluginStatus},
};
use crate::{
    registry::{PromptEntry, Registry, ResourceEntry, ToolEntry},
    settings::Settings,
    surface::{self, Candidate},
};

/// What [`assemble`] built.
pub struct Assembly {
    /// What is served.
    pub registry: Registry,
    /// One report per slot, with what it serves.
    pub reports: Vec<PluginReport>,
    /// Problems with the operator's rules that concern no single plugin.
    pub problems: Vec<String>,
}

/// A tool admitted by the filters, waiting for its served name.
struct Pending {
    slot: usize,
    index: u32,
    tool: rmcp::model::Tool,
}

/// Builds the registry from the slots, in order, under the operator's
/// surface rules: filters first, then names (prefixes, then the first-come
/// rule for what still collides), then overrides. Updates what plugins
/// read through `host_info`.
pub fn assemble(slots: &[Slot], settings: &Settings, shared: &Shared) -> Assembly {
    let surface = &settings.surface;
    let mut registry = Registry::default();
    let mut reports: Vec<PluginReport> = slots.iter().map(|slot| slot.report.clone()).collect();
    let serving = |at: usize| slots[at].serving.as_ref().expect("only serving slots have candidates");

    let mut pending = Vec::new();
    let mut candidates = Vec::new();
    for (at, slot) in slots.iter().enumerate() {
        let Some(serving) = &slot.serving else { continue };
        let plugin = serving.plugin.name();
        for (index, descriptor) in serving.offer.tools.iter().enumerate() {
            if serving.verdicts.tools.get(index).is_some_and(Option::is_some) {
                continue;
            }
            let tool = match ToolEntry::parse(descriptor) {
                Ok(tool) => tool,
                Err(error) => {
                    reports[at].refuse(format!("a tool of plugin '{plugin}' is refused: {error}"));
                    continue;
                }
            };
            if !surface.tools.admits(plugin, &tool.name) {
                reports[at].hidden.tools.push(tool.name.to_string());
                continue;
            }
            candidates.push(Candidate { plugin: plugin.to_owned(), name: tool.name.to_string() });
            pending.push(Pending { slot: at, index: index as u32, tool });
        }
    }
    let mut used_overrides = HashSet::new();
    for (Pending { slot: at, index, mut tool }, served) in
        pending.into_iter().zip(surface::served_names(&candidates, surface))
    {
        let plugin = Arc::clone(&serving(at).plugin);
        let report = &mut reports[at];
        let own = tool.name.to_string();
        let served = match served {
            Ok(served) => served,
            Err(reason) => {
                report.refuse(format!("tool '{own}' of plugin '{}' is refused: {reason}", plugin.name()));
                continue;
            }
        };
        if let Some(owner) = registry.owner_of(&served) {
            report.refuse(format!(
                "tool '{served}' of plugin '{}' is refused: plugin '{owner}' already provides a tool of that name",
                plugin.name()
            ));
            continue;
        }
        tool.name = served.clone().into();
        let mut defaults = Map::new();
        if let Some((key, change)) = surface::override_for(surface, plugin.name(), &own, &served) {
            used_overrides.insert(key.to_owned());
            let (overridden, applied, problem) = surface::apply_override(&mut tool, key, change);
            if let Some(problem) = problem {
                tracing::error!("{problem}");
                report.problems.push(problem);
            }
            report.overrides.push(overridden);
            defaults = applied;
        }
        if served != own {
            report.renamed.insert(own, served.clone());
        }
        registry.insert(ToolEntry::new(plugin, index, tool, defaults));
        report.tools.push(served);
    }

    for (at, slot) in slots.iter().enumerate() {
        let Some(serving) = &slot.serving else { continue };
        register_extras(&mut registry, serving, settings, &mut reports[at]);
    }

    let mut problems = Vec::new();
    for key in surface.overrides.keys().filter(|key| !used_overrides.contains(*key)) {
        let problem = format!("Tools.Overrides.{key} matches no served tool (give a served name or <plugin>/<tool>)");
        tracing::warn!("{problem}");
        problems.push(problem);
    }
    for (report, slot) in reports.iter_mut().zip(slots) {
        if slot.serving.is_some() {
            let serves_nothing = report.tools.is_empty() && report.prompts.is_empty() && report.resources.is_empty();
            report.status = if serves_nothing && !report.problems.is_empty() {
                PluginStatus::Refused
            } else {
                PluginStatus::Loaded
            };
        }
    }
    shared.catalog.store(Arc::new(host_info(settings, &reports)));
    Assembly { registry, reports, problems }
}

/// Adds a plugin's prompts and resources that passed their checks and the
/// operator's filters, refusing each whose name or URI another plugin took.
fn register_extras(registry: &mut Registry, serving: &Serving, settings: &Settings, report: &mut PluginReport) {
    let plugin = &serving.plugin;
    let surface = &settings.surface;
    for (index, descriptor) in serving.offer.prompts.iter().enumerate() {
        if serving.verdicts.prompts.get(index).is_some_and(Option::is_some) {
            continue;
        }
        let Ok(prompt) = Prompt::deserialize(descriptor) else { continue };
        let name = prompt.name.clone();
        if !surface.prompts.admits(plugin.name(), &name) {
            report.hidden.prompts.push(name);
            continue;
        }
        let entry = PromptEntry { prompt, plugin: Arc::clone(plugin), index: index as u32 };
        match registry.insert_prompt(entry) {
            Ok(()) => report.prompts.push(name),
            Err(owner) => report.refuse(format!(
                "prompt '{name}' of plugin '{}' is refused: plugin '{owner}' already provides a prompt of that name",
                plugin.name()
            )),
        }
    }
    for (index, descriptor) in serving.offer.resources.iter().enumerate() {
        if serving.verdicts.resources.get(index).is_some_and(Option::is_some) {
            continue;
        }
        let Ok(entry) = ResourceEntry::new(Arc::clone(plugin), index as u32, descriptor.clone()) else { continue };
        let key = entry.key().to_owned();
        if !surface.resources.admits(plugin.name(), &key) {
            report.hidden.resources.push(key);
            continue;
        }
        match registry.insert_resource(entry) {
            Ok(()) => report.resources.push(key),
            Err(owner) => report.refuse(format!(
                "resource '{key}' of plugin '{}' is refused: plugin '{owner}' already provides it",
                plugin.name()
            )),
        }
    }
}

/// What plugins learn of the host through `PluginContext::host_info`: the
/// plugins served, each with its served tool names and what the operator's
/// rules changed, and the rules themselves.
fn host_info(settings: &Settings, reports: &[PluginReport]) -> Value {
    let plugins: Vec<Value> = reports
        .iter()
        .filter(|report| report.status == PluginStatus::Loaded)
        .map(|report| {
            serde_json::json!({
                "name": report.plugin,
                "version": report.version,
                "tools": report.tools,
                "prompts": report.prompts,
                "resources": report.resources,
                "renamed": report.renamed,
                "hidden": report.hidden,
                "overrides": report.overrides,
            })
        })
        .collect();
    let protocols: Vec<&str> =
        rmcp::model::ProtocolVersion::KNOWN_VERSIONS.iter().map(|version| version.as_str()).collect();
    serde_json::json!({
        "serverName": settings.host.server_name,
        "hostVersion": env!("CARGO_PKG_VERSION"),
        "pluginApiVersion": mcp_plugin_api::abi::ABI_VERSION,
        "protocolVersions": protocols,
        "plugins": plugins,
        "surface": surface::describe(&settings.surface),
    })
}
