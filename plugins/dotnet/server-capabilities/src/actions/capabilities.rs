//! Capabilities: what the server supports (facts of the host and its plugin API), the plugins
//! the host loaded, and the .NET SDKs and frameworks of this machine.
//!
//! The parts of the result whose names say what they hold carry plain comments: a doc comment
//! becomes a description in the output schema every client downloads.

use std::borrow::Cow;

use chrono::NaiveDate;
use dotnet_support::{
    errors::{self, code},
    frameworks,
    kit::{Call, Outcome, prose::count_of},
    listings,
    respond::{Failure, Reply},
};
use mcp_plugin_api::abi::ABI_VERSION;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::{PLUGIN_NAME, PROTOCOL_VERSIONS, TOOL_NAME};

/// What the server supports, with a line of explanation each (for the model-facing text).
const SUPPORTS: [(&str, bool, &str); 16] = [
    ("structuredErrors", true, "failures carry the error envelope (code, category, hint, MCP error code) with isError"),
    ("machineReadable", true, "structuredContent checked against each tool's outputSchema"),
    ("cancellation", true, "a cancelled call stops its dotnet process and every process it started"),
    ("timeouts", true, "every dotnet command runs under the configured timeout"),
    ("progressNotifications", true, "progress read from the command's output as it arrives"),
    ("mcpLogging", true, "plugin logs reach clients as notifications/message"),
    ("contentNegotiation", true, "format (text, markdown, json) and verbosity (compact, standard, verbose)"),
    ("elicitation", true, "tools may ask the user through clients that support elicitation"),
    ("sampling", true, "tools may ask the client's model through clients that support sampling"),
    ("roots", true, "projects are found in the client's workspace roots"),
    ("locks", true, "operations on the same project, solution or machine-wide state exclude each other across plugins"),
    ("secretRedaction", true, "secrets are removed from commands, output and structured content"),
    ("telemetry", false, "no telemetry is collected"),
    ("metrics", false, "no usage metrics are kept"),
    ("tokenSavings", false, "no token-savings estimates"),
    ("asyncTasks", false, "MCP tasks are not offered; long calls report progress instead"),
];

/// The `format=` values of content negotiation.
const FORMATS: [&str; 3] = ["text", "markdown", "json"];

/// The `verbosity=` values of content negotiation.
const VERBOSITIES: [&str; 3] = ["compact", "standard", "verbose"];

/// What the server supports and what it finds on the machine.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    /// The server's configured name.
    server_name: String,
    host_version: Option<String>,
    /// The plugin ABI version this plugin was built against; any host of the same major loads it.
    plugin_api_version: &'static str,
    plugin: PluginInfo,
    protocol_versions: Vec<String>,
    supports: Supports,
    content_negotiation: ContentNegotiation,
    loaded_plugins: LoadedPlugins,
    dotnet: Dotnet,
    sdk_versions: SdkVersions,
}

// This plugin.
#[derive(Debug, Serialize, JsonSchema)]
struct PluginInfo {
    name: &'static str,
    version: &'static str,
    tools: [&'static str; 1],
}

/// Each feature of [`SUPPORTS`], and whether the server has it.
#[derive(Debug)]
struct Supports;

impl Serialize for Supports {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(SUPPORTS.iter().map(|(name, supported, _)| (name, supported)))
    }
}

/// Every feature of [`SUPPORTS`] a required boolean, from the same table as the values.
impl JsonSchema for Supports {
    fn schema_name() -> Cow<'static, str> {
        "Supports".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = SUPPORTS.iter().map(|(name, _, _)| *name).collect();
        let properties: Map<String, Value> =
            names.iter().map(|name| ((*name).to_owned(), json!({ "type": "boolean" }))).collect();
        json_schema!({ "type": "object", "properties": properties, "required": names })
    }
}

// The content negotiation extension and its tags.
#[derive(Debug, Serialize, JsonSchema)]
struct ContentNegotiation {
    extension: &'static str,
    formats: [&'static str; 3],
    verbosities: [&'static str; 3],
}

// The plugins the host loaded, as it describes them.
#[derive(Debug, Serialize, JsonSchema)]
struct LoadedPlugins {
    known: Vec<String>,
    /// Whether the host described its plugins (false: only this plugin is known).
    complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    plugins: Option<Vec<Map<String, Value>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'static str>,
}

// Whether dotnet answered, and why not.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Dotnet {
    found: bool,
    sdk_installed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    alternatives: Option<Vec<String>>,
}

// The installed SDKs and the frameworks to use.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SdkVersions {
    installed: Vec<String>,
    sdks: Vec<listings::Sdk>,
    recommended: Option<&'static str>,
    recommended_installed: bool,
    lts: Option<&'static str>,
    latest: Option<&'static str>,
    newer_than_table: Vec<String>,
    /// The day support was judged on (today, UTC).
    as_of: NaiveDate,
    /// The day the framework table's facts were last checked.
    table_as_of: NaiveDate,
}

/// The installed SDKs, or why dotnet could not be asked (a missing dotnet is not an error).
async fn sdks(call: &Call<'_>) -> Result<Result<Vec<listings::Sdk>, errors::ErrorResult>, Failure> {
    let command = call.command(vec!["--list-sdks".to_owned()], "dotnet --list-sdks");
    match call.run(command).await {
        Ok(ran) if ran.succeeded() => Ok(Ok(listings::parse_sdks(&ran.outcome.stdout))),
        Ok(ran) => Ok(Err(ran.failure().errors.remove(0))),
        Err(mut failure) if failure.error.errors[0].code == code::CAPABILITY_NOT_AVAILABLE => {
            Ok(Err(failure.error.errors.remove(0)))
        }
        Err(error) => Err(error),
    }
}

/// The strings of a JSON array (of the host's description).
fn strings(list: &Value) -> Vec<String> {
    list.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// The plugins the host loaded, or only this one when the host does not say.
fn loaded_plugins(host: Option<&Value>) -> LoadedPlugins {
    match host.and_then(|host| host["plugins"].as_array()) {
        Some(plugins) => LoadedPlugins {
            known: plugins.iter().filter_map(|plugin| plugin["name"].as_str()).map(str::to_owned).collect(),
            complete: true,
            tools: Some(plugins.iter().flat_map(|plugin| strings(&plugin["tools"])).collect()),
            plugins: Some(plugins.iter().filter_map(|plugin| plugin.as_object().cloned()).collect()),
            note: None,
        },
        None => LoadedPlugins {
            known: vec![PLUGIN_NAME.to_owned()],
            complete: false,
            plugins: None,
            tools: None,
            note: Some("This host does not describe its plugins; the client's tools/list names every tool."),
        },
    }
}

/// What the server supports and what it finds on the machine.
pub async fn run(call: &Call<'_>) -> Outcome {
    let sdks = sdks(call).await?;
    let today = frameworks::today();
    let (sdk_list, dotnet) = match sdks {
        Ok(sdks) => {
            let installed = !sdks.is_empty();
            (sdks, Dotnet { found: true, sdk_installed: installed, reason: None, alternatives: None })
        }
        Err(error) => {
            let dotnet = Dotnet {
                found: false,
                sdk_installed: false,
                reason: Some(error.message),
                alternatives: error.alternatives,
            };
            (Vec::new(), dotnet)
        }
    };
    let versions: Vec<&str> = sdk_list.iter().map(|sdk| sdk.version.as_str()).collect();
    let recommended = frameworks::recommended(&today, &versions);
    let lts = frameworks::newest_supported(&today, Some(frameworks::ReleaseType::Lts)).map(|f| f.tfm);
    let latest = frameworks::newest_supported(&today, None).map(|f| f.tfm);
    let newer: Vec<String> = frameworks::newer_than_table(&versions).into_iter().map(str::to_owned).collect();
    let host = call.plugin().host_info();
    let server_name =
        host.as_ref().and_then(|host| host["serverName"].as_str()).unwrap_or("mcp-plugin-host").to_owned();
    let protocols = match host.as_ref().and_then(|host| host.get("protocolVersions")) {
        Some(listed) => strings(listed),
        None => PROTOCOL_VERSIONS.map(str::to_owned).to_vec(),
    };
    let loaded = loaded_plugins(host.as_ref());

    let dotnet_line = match (&dotnet, versions.as_slice()) {
        (Dotnet { found: false, reason, .. }, _) => {
            format!("dotnet was not found ({}).", reason.as_deref().unwrap_or("no reason given"))
        }
        (_, []) => "dotnet is installed but has no SDK (runtime only), so SDK commands cannot run.".to_owned(),
        (_, versions) => format!("SDKs installed: {}.", versions.join(", ")),
    };
    let framework_line = match recommended {
        Some((framework, true)) => format!("Use {} for new projects (the newest supported LTS).", framework.tfm),
        Some((framework, false)) => {
            format!(
                "{} is the framework to use for new projects, but no installed SDK can build for it yet.",
                framework.tfm
            )
        }
        None => "No supported LTS framework is known to this server's table.".to_owned(),
    };
    let summary = format!(
        "{server_name} (plugin API {ABI_VERSION}), MCP {}, {} loaded. {dotnet_line} {framework_line}",
        protocols.join(", "),
        count_of(loaded.known.len(), "plugin", "plugins")
    );
    let supported: Vec<String> =
        SUPPORTS.iter().filter(|(_, on, _)| *on).map(|(name, _, detail)| format!("{name}: {detail}")).collect();
    let unsupported: Vec<String> =
        SUPPORTS.iter().filter(|(_, on, _)| !on).map(|(name, _, detail)| format!("{name}: {detail}")).collect();
    let mut dotnet_notes = vec![
        format!("Newest LTS: {}.", lts.unwrap_or("unknown")),
        format!("Newest supported release: {}.", latest.unwrap_or("unknown")),
    ];
    dotnet_notes.push(format!("Framework facts as of {}.", frameworks::TABLE_AS_OF));
    if !newer.is_empty() {
        dotnet_notes.push(format!("SDKs newer than this server's framework table: {}.", newer.join(", ")));
    }
    dotnet_notes.extend(dotnet.alternatives.iter().flatten().map(|alternative| format!("To fix: {alternative}")));
    let plugin_lines = loaded
        .plugins
        .iter()
        .flatten()
        .map(|plugin| {
            format!(
                "{} {}: {}{}",
                plugin.get("name").and_then(Value::as_str).unwrap_or("?"),
                plugin.get("version").and_then(Value::as_str).unwrap_or("?"),
                strings(plugin.get("tools").unwrap_or(&Value::Null)).join(", "),
                operator_changes(plugin)
            )
        })
        .collect();
    let capabilities = Capabilities {
        server_name,
        host_version: host.as_ref().and_then(|host| host["hostVersion"].as_str()).map(str::to_owned),
        plugin_api_version: ABI_VERSION,
        plugin: PluginInfo { name: PLUGIN_NAME, version: env!("CARGO_PKG_VERSION"), tools: [TOOL_NAME] },
        protocol_versions: protocols,
        supports: Supports,
        content_negotiation: ContentNegotiation {
            extension: "io.modelcontextprotocol/content-negotiation",
            formats: FORMATS,
            verbosities: VERBOSITIES,
        },
        loaded_plugins: loaded,
        dotnet,
        sdk_versions: SdkVersions {
            installed: versions.iter().map(|version| (*version).to_owned()).collect(),
            recommended: recommended.map(|(framework, _)| framework.tfm),
            recommended_installed: recommended.is_some_and(|(_, installed)| installed),
            sdks: sdk_list,
            lts,
            latest,
            newer_than_table: newer,
            as_of: today,
            table_as_of: frameworks::TABLE_AS_OF,
        },
    };
    Ok(Reply::new(summary)
        .section("Supported", supported)
        .section("Not offered", unsupported)
        .section(".NET", dotnet_notes)
        .section("Plugins", plugin_lines)
        .result(capabilities))
}

/// What the operator changed in how `plugin` is served, as the host reports it in `host_info`
/// (`Tools.Enabled`/`Disabled`, `Tools.Prefix`, `Tools.Overrides`): " (hidden: …; renamed: …;
/// overridden: …)", or nothing when the plugin serves as it offers.
fn operator_changes(plugin: &Map<String, Value>) -> String {
    let field = |key: &str| plugin.get(key).unwrap_or(&Value::Null);
    let mut changes = Vec::new();
    let hidden: Vec<String> =
        ["tools", "prompts", "resources"].iter().flat_map(|kind| strings(&field("hidden")[kind])).collect();
    if !hidden.is_empty() {
        changes.push(format!("hidden: {}", hidden.join(", ")));
    }
    if let Some(renamed) = field("renamed").as_object().filter(|renamed| !renamed.is_empty()) {
        let pairs: Vec<String> =
            renamed.iter().map(|(own, served)| format!("{own} as {}", served.as_str().unwrap_or("?"))).collect();
        changes.push(format!("renamed: {}", pairs.join(", ")));
    }
    let overridden: Vec<String> = field("overrides")
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            let changed: Vec<String> = strings(&item["fields"])
                .into_iter()
                .chain(strings(&item["defaults"]).into_iter().map(|argument| format!("default {argument}")))
                .collect();
            format!("{} ({})", item["tool"].as_str().unwrap_or("?"), changed.join(", "))
        })
        .collect();
    if !overridden.is_empty() {
        changes.push(format!("overridden: {}", overridden.join(", ")));
    }
    if changes.is_empty() { String::new() } else { format!(" ({})", changes.join("; ")) }
}
