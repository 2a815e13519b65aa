//! The `Tools`, `Prompts` and `Resources` sections, resolved: what of the
//! plugins' offer is served, under which names (`crate::surface` applies
//! them).

use std::collections::BTreeMap;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::{Map, Value};

use super::raw::{RawToolOverride, StringList};

/// The operator's control of what is served (`Tools`, `Prompts`,
/// `Resources` sections); see `crate::surface` for how it applies.
#[derive(Debug, Clone, Default)]
pub struct SurfaceSettings {
    /// Which tools are served (`Tools.Enabled`, `Tools.Disabled`).
    pub tools: ItemFilter,
    /// How tool names are prefixed with their plugin's name (`Tools.Prefix`).
    pub prefix: PrefixSettings,
    /// Title, description, annotations and argument defaults per tool
    /// (`Tools.Overrides`), keyed by served name or `<plugin>/<tool>`.
    pub overrides: BTreeMap<String, ToolOverride>,
    /// Which prompts are served (`Prompts.Enabled`, `Prompts.Disabled`).
    pub prompts: ItemFilter,
    /// Which resources and templates are served (`Resources.Enabled`, `Resources.Disabled`).
    pub resources: ItemFilter,
}

/// Glob patterns that select items: served when some `enabled` pattern
/// matches and no `disabled` one does.
#[derive(Debug, Clone, Default)]
pub struct ItemFilter {
    /// `None` serves every item.
    pub enabled: Option<Patterns>,
    /// Never served.
    pub disabled: Patterns,
}

/// Whether a plugin's tools are served under `<plugin>__<tool>`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrefixMode {
    /// Never: a tool whose name another plugin took first is refused.
    #[default]
    None,
    /// Always.
    Plugin,
    /// Only a tool whose name another served plugin's tool also has.
    OnCollision,
}

/// `Tools.Prefix`: one mode for all plugins, or one per plugin name.
#[derive(Debug, Clone, Default)]
pub struct PrefixSettings {
    /// The mode of plugins not named in [`Self::per_plugin`] (`"*"` in the map form).
    pub default: PrefixMode,
    /// Modes by plugin name (matched without regard to case).
    pub per_plugin: BTreeMap<String, PrefixMode>,
}

impl PrefixSettings {
    /// The mode for plugin `name`.
    pub fn mode_for(&self, name: &str) -> PrefixMode {
        self.per_plugin
            .iter()
            .find(|(plugin, _)| plugin.eq_ignore_ascii_case(name))
            .map_or(self.default, |(_, mode)| *mode)
    }
}

/// What the operator changes in one tool's description (`Tools.Overrides.<tool>`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOverride {
    /// Replaces the tool's `title`.
    pub title: Option<String>,
    /// Replaces the tool's `description`.
    pub description: Option<String>,
    /// Replaces these annotation hints; the others stay as the plugin set them.
    pub annotations: AnnotationOverrides,
    /// Argument values filled in when a call leaves them out, before the
    /// arguments are validated; listed as `default` in the input schema.
    pub defaults: Map<String, Value>,
}

/// The MCP tool annotation hints an operator may set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnnotationOverrides {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl ItemFilter {
    pub(super) fn from_raw(
        section: &str,
        enabled: Option<StringList>,
        disabled: Option<StringList>,
    ) -> Result<Self, String> {
        let enabled = enabled.map(StringList::into_vec).filter(|patterns| !patterns.iter().any(|p| p == "*"));
        Ok(Self {
            enabled: enabled.map(|patterns| Patterns::new(&format!("{section}.Enabled"), patterns)).transpose()?,
            disabled: Patterns::new(
                &format!("{section}.Disabled"),
                disabled.map(StringList::into_vec).unwrap_or_default(),
            )?,
        })
    }
}

pub(super) fn prefix_mode(key: &str, text: &str) -> Result<PrefixMode, String> {
    match text.to_ascii_lowercase().as_str() {
        "none" => Ok(PrefixMode::None),
        "plugin" => Ok(PrefixMode::Plugin),
        "on-collision" => Ok(PrefixMode::OnCollision),
        _ => Err(format!("{key} must be \"none\", \"plugin\" or \"on-collision\", not \"{text}\"")),
    }
}

impl From<RawToolOverride> for ToolOverride {
    fn from(raw: RawToolOverride) -> Self {
        let hints = raw.annotations;
        Self {
            title: raw.title,
            description: raw.description,
            annotations: AnnotationOverrides {
                read_only: hints.read_only_hint,
                destructive: hints.destructive_hint,
                idempotent: hints.idempotent_hint,
                open_world: hints.open_world_hint,
            },
            defaults: raw.defaults,
        }
    }
}

/// A list of glob patterns (`*`, `?`, `[…]`, `{a,b}`), compiled.
#[derive(Debug, Clone, Default)]
pub struct Patterns {
    sources: Vec<String>,
    set: GlobSet,
}

impl Patterns {
    /// Compiles `patterns`; the error names the configuration `key` and the pattern.
    pub fn new(key: &str, patterns: Vec<String>) -> Result<Self, String> {
        let mut builder = GlobSetBuilder::new();
        for pattern in &patterns {
            let glob =
                Glob::new(pattern).map_err(|error| format!("{key}: '{pattern}' is not a glob pattern: {error}"))?;
            builder.add(glob);
        }
        let set = builder.build().map_err(|error| format!("{key}: {error}"))?;
        Ok(Self { sources: patterns, set })
    }

    /// Whether a pattern matches `text`.
    pub fn matches(&self, text: &str) -> bool {
        self.set.is_match(text)
    }

    /// The patterns as the operator wrote them.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }
}
