//! What `plugins` and `check` print: each library found, with its status and
//! tools, then what each host serving under the same configuration serves.

use std::io::Write;

use crate::{
    plugin::{
        discovery::{self, Discovery},
        load::{Loading, Shared},
        report::PluginReport,
    },
    settings::Settings,
    status::ServingHost,
    trust::Trust,
};

/// Loads every plugin now, for the commands that report on them (and so
/// refresh the plugin cache).
pub fn discover(settings: &Settings) -> Discovery {
    discovery::discover(settings, &Shared::default(), Loading::Eager, Trust::load(&settings.plugins))
}

/// Prints what the plugin folder holds, then what each host running under
/// the same configuration serves now.
pub fn print_reports(out: &mut dyn Write, reports: &[PluginReport], serving: &[ServingHost], json: bool) {
    if json {
        let document = serde_json::json!({
            "hostAbiVersion": mcp_plugin_api::abi::ABI_VERSION,
            "plugins": reports,
            "serving": serving,
        });
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&document).unwrap_or_default());
        return;
    }
    print_table(out, reports);
    let _ = writeln!(out, "host ABI: mcp-plugin-api {}", mcp_plugin_api::abi::ABI_VERSION);
    for host in serving {
        let _ = writeln!(
            out,
            "\nserving now: PID {} over {} since {}, {} reload(s), last change {}",
            host.pid, host.transport, host.since, host.reloads, host.updated
        );
        print_table(out, &host.plugins);
        for problem in &host.problems {
            let _ = writeln!(out, "  {problem}");
        }
    }
}

/// One row per library, then each library's problems and what the
/// operator's rules changed.
fn print_table(out: &mut dyn Write, reports: &[PluginReport]) {
    let rows: Vec<[String; 6]> = reports
        .iter()
        .map(|report| {
            [
                report.file.clone(),
                report.plugin.clone().unwrap_or_else(|| "-".into()),
                report.version.clone().unwrap_or_else(|| "-".into()),
                match &report.abi_version {
                    Some(version) => format!("{} ({version})", report.abi_status),
                    None => report.abi_status.to_string(),
                },
                if report.isolated { format!("{} (process)", report.status) } else { report.status.to_string() },
                if report.tools.is_empty() { "-".into() } else { report.tools.join(", ") },
            ]
        })
        .collect();
    let header = ["FILE", "PLUGIN", "VERSION", "ABI", "STATUS", "TOOLS"].map(str::to_owned);
    let widths: Vec<usize> =
        (0..6).map(|column| rows.iter().chain([&header]).map(|row| row[column].len()).max().unwrap_or(0)).collect();
    for row in [&header].into_iter().chain(&rows) {
        let line: Vec<String> = row.iter().zip(&widths).map(|(cell, width)| format!("{cell:width$}")).collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    for report in reports {
        for (own, served) in &report.renamed {
            let _ = writeln!(out, "  {}: tool '{own}' is served as '{served}'", report.file);
        }
        let hidden = [
            ("tools", &report.hidden.tools),
            ("prompts", &report.hidden.prompts),
            ("resources", &report.hidden.resources),
        ];
        for (kind, items) in hidden.iter().filter(|(_, items)| !items.is_empty()) {
            let _ = writeln!(out, "  {}: {kind} hidden by configuration: {}", report.file, items.join(", "));
        }
        for overridden in &report.overrides {
            let mut changed = overridden.fields.clone();
            changed.extend(overridden.defaults.iter().map(|argument| format!("default {argument}")));
            let _ = writeln!(out, "  {}: tool '{}' overridden: {}", report.file, overridden.tool, changed.join(", "));
        }
        for problem in &report.problems {
            let _ = writeln!(out, "  {}: {problem}", report.file);
        }
        for differs in &report.lock_mismatch {
            let _ = writeln!(out, "  {}: served although {differs}", report.file);
        }
    }
}
