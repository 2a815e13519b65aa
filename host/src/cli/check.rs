//! `check`: the configuration and every plugin validated, each problem in the
//! report and in the error, and a non-zero exit on any.

use std::io::Write;

use super::report::{discover, print_reports};
use crate::{
    config_schema,
    plugin::{load::Slot, report::PluginStatus},
    settings::Settings,
    status::serving_hosts,
};

/// `check`: `unknown_keys` are the configuration's keys that are not settings.
pub fn check(settings: &Settings, unknown_keys: Vec<String>, out: &mut dyn Write) -> Result<(), String> {
    let discovery = discover(settings);
    let serving = serving_hosts(&settings.path);
    print_reports(out, &discovery.reports, &serving, false);
    let mut problems: Vec<String> =
        unknown_keys.into_iter().map(|key| format!("{}: {key}", settings.path.display())).collect();
    problems.extend(discovery.problems.iter().cloned());
    for report in &discovery.reports {
        problems.extend(report.problems.iter().map(|problem| format!("{}: {problem}", report.file)));
        problems.extend(report.lock_mismatch.iter().map(|differs| format!("{}: {differs}", report.file)));
    }
    problems.extend(plugin_settings_problems(settings, &discovery.slots));
    for host in &serving {
        let refused = host.plugins.iter().filter_map(|report| Some((report, report.refused_on_reload.as_ref()?)));
        problems.extend(refused.map(|(report, reason)| {
            format!("{}: refused on reload by the host serving as PID {}: {reason}", report.file, host.pid)
        }));
    }
    if discovery.reports.iter().all(|report| report.status != PluginStatus::Loaded) {
        problems.push(format!("no plugin was loaded from {}", settings.plugins.directory.display()));
    }
    if problems.is_empty() {
        let _ = writeln!(
            out,
            "ok: configuration {} and {} plugin libraries are valid",
            settings.path.display(),
            discovery.reports.len()
        );
        Ok(())
    } else {
        // The report says why it failed; stderr says it again for whoever reads only that.
        let listed = format!("{} problem(s):\n  {}", problems.len(), problems.join("\n  "));
        let _ = writeln!(out, "{listed}");
        Err(listed)
    }
}

/// Each enabled plugin's section checked against the settings schema it declares (read when its
/// library was opened, or by the probe worker of a plugin that runs in one).
fn plugin_settings_problems(settings: &Settings, slots: &[Slot]) -> Vec<String> {
    let mut problems = Vec::new();
    for slot in slots.iter().filter(|slot| slot.report.status != PluginStatus::Disabled) {
        let (Some(name), Some(declared)) = (&slot.report.plugin, &slot.settings_schema) else { continue };
        let file = &slot.report.file;
        match declared {
            Ok(schema) => {
                let found = config_schema::check_plugin_section(name, schema, settings.plugins.section(name));
                problems.extend(found.into_iter().map(|problem| format!("{file}: {problem}")));
            }
            Err(problem) => problems.push(format!("{file}: {problem}")),
        }
    }
    problems
}
