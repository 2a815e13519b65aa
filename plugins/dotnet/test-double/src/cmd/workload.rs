//! `dotnet workload list|search|install|update|uninstall|--info|--version`. The catalogue and
//! what is installed come from `fixtures/workload/workloads.json`.

use serde::Deserialize;

use crate::args;
use crate::cmd::help;
use crate::ctx::Ctx;
use crate::host;
use crate::out;
use crate::table::{Rule, Table};

const WORKLOADS: &str = crate::fixture::body(include_str!("../../fixtures/workload/workloads.json"));

#[derive(Deserialize)]
struct Workload {
    id: String,
    description: String,
    installed: bool,
    packs: Vec<String>,
}

/// `dotnet workload ...`.
pub fn workload(ctx: &Ctx, args: &[String]) -> u8 {
    let all: Vec<Workload> = serde_json::from_str(WORKLOADS).expect("workload/workloads.json is valid");
    let band = host::sdk_band(ctx);
    let vars = ctx.vars().with("sdk_band", &band);
    let Some(sub) = args.first() else {
        return help::unrecognized(ctx, "workload", None);
    };
    let rest = &args[1..];
    let ids = args::positionals(rest);
    match sub.as_str() {
        "-h" | "--help" | "-?" => help::print(ctx, "workload"),
        "--version" => {
            out::line(&format!("{}-manifests.5fb86115", ctx.sdk_version));
            0
        }
        "--info" => {
            out::line(&format!(" Workload version: {}-manifests.5fb86115", ctx.sdk_version));
            out::text(&vars.render(host::WORKLOAD_INFO_BLOCK));
            out::line("");
            0
        }
        "list" => {
            let rows = all
                .iter()
                .filter(|w| w.installed)
                .map(|w| {
                    vec![w.id.clone(), format!("{}/{band}", ctx.runtime_version), format!("SDK {}", ctx.sdk_version)]
                })
                .collect();
            out::line("");
            Table {
                headers: &["Installed Workload Id", "Manifest Version", "Installation Source"],
                rows,
                gap: 6,
                rule: Rule::Full,
                right: &[],
            }
            .lines()
            .iter()
            .for_each(|l| out::line(l));
            out::line("");
            out::line("Use `dotnet workload search` to find additional workloads to install.");
            0
        }
        "search" => {
            let term = ids.first().map(|t| t.to_lowercase()).unwrap_or_default();
            let rows = all
                .iter()
                .filter(|w| w.id.contains(&term) || w.description.to_lowercase().contains(&term))
                .map(|w| vec![w.id.clone(), w.description.clone()])
                .collect();
            out::line("");
            Table { headers: &["Workload ID", "Description"], rows, gap: 6, rule: Rule::Full, right: &[] }
                .lines()
                .iter()
                .for_each(|l| out::line(l));
            0
        }
        "install" | "uninstall" if ids.is_empty() => {
            out::err(&format!("Required argument missing for command: '{sub}'."));
            1
        }
        "install" => {
            let unknown: Vec<&String> = ids.iter().filter(|i| !all.iter().any(|w| &w.id == *i)).collect();
            if let Some(id) = unknown.first() {
                out::err(&format!("Workload ID {id} is not recognized."));
                return 1;
            }
            if !args::flag(rest, &["--skip-manifest-update"]) {
                out::line("Updated advertising manifest microsoft.net.workload.mono.toolchain.current.");
                out::line("Updated advertising manifest microsoft.net.sdk.android.");
            }
            out::phase(ctx, "Downloading packs...", false);
            for w in all.iter().filter(|w| ids.contains(&w.id)) {
                for pack in &w.packs {
                    out::line(&format!("Installing pack {pack} version {}...", ctx.runtime_version));
                    out::line(&format!(
                        "Writing workload pack installation record for {pack} version {}...",
                        ctx.runtime_version
                    ));
                }
            }
            out::line(&format!("Garbage collecting for SDK feature band(s) {band}..."));
            out::line("");
            out::line(&format!("Successfully installed workload(s) {}.", ids.join(" ")));
            0
        }
        "update" => {
            out::line("Updated advertising manifest microsoft.net.workload.mono.toolchain.current.");
            out::phase(ctx, "Downloading packs...", false);
            let installed: Vec<&str> = all.iter().filter(|w| w.installed).map(|w| w.id.as_str()).collect();
            out::line(&format!("Garbage collecting for SDK feature band(s) {band}..."));
            out::line("");
            out::line(&format!("Successfully updated workload(s): {}.", installed.join(" ")));
            0
        }
        "uninstall" => {
            let missing: Vec<&String> =
                ids.iter().filter(|i| !all.iter().any(|w| &w.id == *i && w.installed)).collect();
            if !missing.is_empty() {
                let list = missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
                out::err(&format!("Couldn't find workload ID(s): {list}"));
                return 1;
            }
            for id in &ids {
                out::line(&format!("Removing workload installation record for {id}..."));
            }
            out::line(&format!("Garbage collecting for SDK feature band(s) {band}..."));
            out::line("");
            out::line(&format!("Successfully uninstalled workload(s): {}", ids.join(" ")));
            0
        }
        other => help::unrecognized(ctx, "workload", Some(&other.to_string())),
    }
}
