//! Capabilities: what the server supports (facts of the host and its plugin API), the plugins
//! the host loaded, and the .NET SDKs and frameworks of this machine.

use dotnet_support::{
    errors::{self, code},
    frameworks,
    kit::{Call, Outcome, Shape},
    listings,
    respond::{Failure, Reply},
};
use mcp_plugin_api::abi::ABI_VERSION;
use serde_json::{Value, json};

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

/// The capabilities: the server, its plugins, what it supports, and .NET on this machine.
pub fn shape() -> Shape {
    let text = json!({ "type": "string" });
    let strings = json!({ "type": "array", "items": { "type": "string" } });
    let supports: serde_json::Map<String, Value> =
        SUPPORTS.iter().map(|(name, _, _)| ((*name).to_owned(), json!({ "type": "boolean" }))).collect();
    let supports_required: Vec<&str> = SUPPORTS.iter().map(|(name, _, _)| *name).collect();
    Shape::new(
        json!({
            "serverName": { "type": "string", "description": "The server's configured name." },
            "hostVersion": { "type": ["string", "null"] },
            "pluginApiVersion": { "type": "string", "description": "The plugin ABI version this plugin was built against; any host of the same major loads it." },
            "plugin": {
                "type": "object",
                "properties": { "name": text, "version": text, "tools": strings },
                "required": ["name", "version", "tools"]
            },
            "protocolVersions": strings,
            "supports": { "type": "object", "properties": supports, "required": supports_required },
            "contentNegotiation": {
                "type": "object",
                "properties": { "extension": text, "formats": strings, "verbosities": strings },
                "required": ["extension", "formats", "verbosities"]
            },
            "loadedPlugins": {
                "type": "object",
                "properties": {
                    "known": strings,
                    "complete": { "type": "boolean" },
                    "plugins": { "type": "array", "items": { "type": "object" } },
                    "tools": strings,
                    "note": text
                },
                "required": ["known", "complete"]
            },
            "dotnet": {
                "type": "object",
                "properties": {
                    "found": { "type": "boolean" },
                    "sdkInstalled": { "type": "boolean" },
                    "reason": text,
                    "alternatives": strings
                },
                "required": ["found", "sdkInstalled"]
            },
            "sdkVersions": {
                "type": "object",
                "properties": {
                    "installed": strings,
                    "sdks": { "type": "array", "items": listings::sdk_schema() },
                    "recommended": { "type": ["string", "null"] },
                    "recommendedInstalled": { "type": "boolean" },
                    "lts": { "type": ["string", "null"] },
                    "latest": { "type": ["string", "null"] },
                    "newerThanTable": strings,
                    "asOf": { "type": "string", "format": "date", "description": "The day support was judged on (today, UTC)." },
                    "tableAsOf": { "type": "string", "format": "date", "description": "The day the framework table's facts were last checked." }
                },
                "required": ["installed", "sdks", "recommended", "recommendedInstalled", "lts", "latest", "asOf", "tableAsOf"]
            }
        }),
        &[
            "serverName",
            "pluginApiVersion",
            "plugin",
            "protocolVersions",
            "supports",
            "contentNegotiation",
            "loadedPlugins",
            "dotnet",
            "sdkVersions",
        ],
    )
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

/// What the server supports and what it finds on the machine.
pub async fn run(call: &Call<'_>) -> Outcome {
    let sdks = sdks(call).await?;
    let today = frameworks::today();
    let (sdk_list, dotnet) = match sdks {
        Ok(sdks) => {
            let installed = !sdks.is_empty();
            (sdks, json!({ "found": true, "sdkInstalled": installed }))
        }
        Err(error) => {
            let mut dotnet = json!({ "found": false, "sdkInstalled": false, "reason": error.message });
            if let Some(alternatives) = error.alternatives {
                dotnet["alternatives"] = json!(alternatives);
            }
            (Vec::new(), dotnet)
        }
    };
    let versions: Vec<&str> = sdk_list.iter().map(|sdk| sdk.version.as_str()).collect();
    let recommended = frameworks::recommended(&today, &versions);
    let lts = frameworks::newest_supported(&today, Some(frameworks::ReleaseType::Lts)).map(|f| f.tfm);
    let latest = frameworks::newest_supported(&today, None).map(|f| f.tfm);
    let newer = frameworks::newer_than_table(&versions);
    let supports: serde_json::Map<String, Value> =
        SUPPORTS.iter().map(|(name, supported, _)| ((*name).to_owned(), json!(supported))).collect();
    let host = call.plugin().host_info();
    let loaded = match host.as_ref().and_then(|host| host["plugins"].as_array()) {
        Some(plugins) => {
            let names: Vec<&str> = plugins.iter().filter_map(|plugin| plugin["name"].as_str()).collect();
            let tools: Vec<&str> = plugins
                .iter()
                .flat_map(|plugin| plugin["tools"].as_array().into_iter().flatten())
                .filter_map(Value::as_str)
                .collect();
            json!({ "known": names, "complete": true, "plugins": plugins, "tools": tools })
        }
        None => json!({
            "known": [PLUGIN_NAME],
            "complete": false,
            "note": "This host does not describe its plugins; the client's tools/list names every tool.",
        }),
    };
    let protocols = host
        .as_ref()
        .and_then(|host| host.get("protocolVersions").cloned())
        .unwrap_or_else(|| json!(PROTOCOL_VERSIONS));
    let structured = json!({
        "serverName": host.as_ref().and_then(|host| host["serverName"].as_str()).unwrap_or("mcp-plugin-host"),
        "hostVersion": host.as_ref().and_then(|host| host["hostVersion"].as_str()),
        "pluginApiVersion": ABI_VERSION,
        "plugin": { "name": PLUGIN_NAME, "version": env!("CARGO_PKG_VERSION"), "tools": [TOOL_NAME] },
        "protocolVersions": protocols,
        "supports": supports,
        "contentNegotiation": {
            "extension": "io.modelcontextprotocol/content-negotiation",
            "formats": FORMATS,
            "verbosities": VERBOSITIES,
        },
        "loadedPlugins": loaded,
        "dotnet": dotnet,
        "sdkVersions": {
            "installed": versions,
            "sdks": sdk_list,
            "recommended": recommended.map(|(framework, _)| framework.tfm),
            "recommendedInstalled": recommended.is_some_and(|(_, installed)| installed),
            "lts": lts,
            "latest": latest,
            "newerThanTable": newer,
            "asOf": today,
            "tableAsOf": frameworks::TABLE_AS_OF,
        },
    });

    let dotnet_line = match (structured["dotnet"]["found"].as_bool(), versions.as_slice()) {
        (Some(false), _) => {
            format!("dotnet was not found ({}).", structured["dotnet"]["reason"].as_str().unwrap_or("no reason given"))
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
    let protocol_list: Vec<&str> =
        structured["protocolVersions"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let loaded_count = structured["loadedPlugins"]["known"].as_array().map_or(0, Vec::len);
    let summary = format!(
        "{} (plugin API {ABI_VERSION}), MCP {}, {loaded_count} plugin(s) loaded. {dotnet_line} {framework_line}",
        structured["serverName"].as_str().unwrap_or("mcp-plugin-host"),
        protocol_list.join(", ")
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
    if let Some(alternatives) = structured["dotnet"]["alternatives"].as_array() {
        dotnet_notes.extend(alternatives.iter().filter_map(Value::as_str).map(|a| format!("To fix: {a}")));
    }
    Ok(Reply::new(summary)
        .section("Supported", supported)
        .section("Not offered", unsupported)
        .section(".NET", dotnet_notes)
        .section(
            "Plugins",
            structured["loadedPlugins"]["plugins"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|plugin| {
                    let tools: Vec<&str> =
                        plugin["tools"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                    format!(
                        "{} {}: {}{}",
                        plugin["name"].as_str().unwrap_or("?"),
                        plugin["version"].as_str().unwrap_or("?"),
                        tools.join(", "),
                        operator_changes(plugin)
                    )
                })
                .collect(),
        )
        .structured(structured))
}

/// What the operator changed in how `plugin` is served, as the host reports it in `host_info`
/// (`Tools.Enabled`/`Disabled`, `Tools.Prefix`, `Tools.Overrides`): " (hidden: …; renamed: …;
/// overridden: …)", or nothing when the plugin serves as it offers.
fn operator_changes(plugin: &Value) -> String {
    let names = |value: &Value| -> Vec<String> {
        value.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
    };
    let mut changes = Vec::new();
    let hidden: Vec<String> =
        ["tools", "prompts", "resources"].iter().flat_map(|kind| names(&plugin["hidden"][kind])).collect();
    if !hidden.is_empty() {
        changes.push(format!("hidden: {}", hidden.join(", ")));
    }
    if let Some(renamed) = plugin["renamed"].as_object().filter(|renamed| !renamed.is_empty()) {
        let pairs: Vec<String> =
            renamed.iter().map(|(own, served)| format!("{own} as {}", served.as_str().unwrap_or("?"))).collect();
        changes.push(format!("renamed: {}", pairs.join(", ")));
    }
    let overridden: Vec<String> = plugin["overrides"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            let changed: Vec<String> = names(&item["fields"])
                .into_iter()
                .chain(names(&item["defaults"]).into_iter().map(|argument| format!("default {argument}")))
                .collect();
            format!("{} ({})", item["tool"].as_str().unwrap_or("?"), changed.join(", "))
        })
        .collect();
    if !overridden.is_empty() {
        changes.push(format!("overridden: {}", overridden.join(", ")));
    }
    if changes.is_empty() { String::new() } else { format!(" ({})", changes.join("; ")) }
}
