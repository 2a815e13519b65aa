//! `dotnet tool install|list|update|uninstall|restore|search|run|exec`, local (manifest in
//! `dotnet-tools.json` in the working directory, where SDK 10 writes it) or global (`-g`). The double keeps
//! no state: what is installed comes from `fixtures/tool/tools.json`. `tool list --format json`
//! prints the SDK's versioned contract (`{"version":1,"data":[{packageId, version, commands,
//! manifest (local only)}]}`) from SDK 9 on; SDK 8 rejects the option, as the real one does.

use serde::{Deserialize, Serialize};

use crate::args;
use crate::cmd::help;
use crate::ctx::Ctx;
use crate::out;
use crate::table::{Rule, Table};

const TOOLS: &str = crate::fixture::body(include_str!("../../fixtures/tool/tools.json"));
const INSTALL_FAILED: &str = crate::fixture::body(include_str!("../../fixtures/tool/install-failed.txt"));
const NOT_INSTALLED: &str = crate::fixture::body(include_str!("../../fixtures/tool/not-installed.txt"));

#[derive(Deserialize)]
struct Tools {
    catalog: Vec<Tool>,
    local: Vec<String>,
    global: Vec<String>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Tool {
    id: String,
    version: String,
    previous_version: String,
    commands: Vec<String>,
    authors: String,
    downloads: u64,
    verified: bool,
    description: String,
    run_output: String,
}

/// `tool list --format json`'s versioned contract.
#[derive(Serialize)]
struct Listing<'a> {
    version: u8,
    data: Vec<ListedTool<'a>>,
}

/// One tool of [`Listing`]; `manifest` only for a local tool.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListedTool<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<&'a str>,
    package_id: &'a str,
    version: &'a str,
    commands: &'a [String],
}

fn tools(ctx: &Ctx) -> Tools {
    let text = ctx.vars().with("ef_version", &help::ef_version(ctx)).render(TOOLS);
    serde_json::from_str(&text).expect("tool/tools.json is valid")
}

/// `dotnet tool <subcommand> ...`.
pub fn tool(ctx: &Ctx, args: &[String]) -> u8 {
    let Some(sub) = args.first() else {
        return help::unrecognized(ctx, "tool", None);
    };
    let rest = &args[1..];
    let data = tools(ctx);
    let global = args::flag(rest, &["-g", "--global"]) || args::value(rest, &["--tool-path"]).is_some();
    // Where SDK 10's `dotnet new tool-manifest` writes it (recordings/tools).
    let manifest = format!("{}/dotnet-tools.json", ctx.cwd.display());
    let id = args::positionals(rest).into_iter().next();
    let installed = |id: &str| {
        let list = if global { &data.global } else { &data.local };
        list.iter().any(|t| t.eq_ignore_ascii_case(id))
    };
    let find = |id: &str| data.catalog.iter().find(|t| t.id.eq_ignore_ascii_case(id)).cloned();
    match sub.as_str() {
        "-h" | "--help" | "-?" => help::print(ctx, "tool"),
        "install" | "update" | "uninstall" if id.is_none() => {
            out::err(&format!("Required argument missing for command: '{sub}'."));
            1
        }
        "install" | "update" => {
            let id = id.unwrap_or_default();
            out::phase(ctx, "Installing...", false);
            let Some(t) = find(&id) else {
                out::text(&ctx.vars().with("id", &id).render(INSTALL_FAILED));
                return 1;
            };
            let version = args::value(rest, &["--version"]).unwrap_or_else(|| t.version.clone());
            if sub == "update" && installed(&t.id) {
                let scope = if global { String::new() } else { format!(" (manifest file {manifest})") };
                out::line(&format!(
                    "Tool '{}' was successfully updated from version '{}' to version '{version}'{scope}.",
                    t.id, t.previous_version
                ));
                return 0;
            }
            if installed(&t.id) {
                out::line(&format!("Tool '{}' was reinstalled with the stable version (version '{version}').", t.id));
                return 0;
            }
            if global {
                out::line(&format!("You can invoke the tool using the following command: {}", t.commands[0]));
                out::line(&format!("Tool '{}' (version '{version}') was successfully installed.", t.id));
            } else {
                out::line(&format!(
                    "You can invoke the tool from this directory using the following commands: 'dotnet tool run {0}' or 'dotnet {0}'.",
                    t.commands[0]
                ));
                out::line(&format!(
                    "Tool '{}' (version '{version}') was successfully installed. Entry is added to the manifest file {manifest}.",
                    t.id
                ));
            }
            0
        }
        "uninstall" => {
            let id = id.unwrap_or_default();
            match find(&id).filter(|t| installed(&t.id)) {
                None => {
                    out::text(&ctx.vars().with("id", &id).render(NOT_INSTALLED));
                    1
                }
                Some(t) if global => {
                    out::line(&format!("Tool '{}' (version '{}') was successfully uninstalled.", t.id, t.version));
                    0
                }
                Some(t) => {
                    out::line(&format!(
                        "Tool '{}' (version '{}') was successfully uninstalled and removed from manifest file {manifest}.",
                        t.id, t.version
                    ));
                    0
                }
            }
        }
        "list" => {
            let listed: Vec<&Tool> = data
                .catalog
                .iter()
                .filter(|t| installed(&t.id))
                .filter(|t| id.as_deref().is_none_or(|i| t.id.eq_ignore_ascii_case(i)))
                .collect();
            match args::value(rest, &["--format"]).map(|format| format.to_ascii_lowercase()) {
                // SDK 9.0.100 added `--format` (dotnet/sdk#37394); SDK 8 rejects both tokens.
                Some(format) if ctx.sdk_major() < 9 => help::usage_error(
                    ctx,
                    "tool",
                    &[
                        "Unrecognized command or argument '--format'.".to_owned(),
                        format!("Unrecognized command or argument '{format}'."),
                    ],
                ),
                Some(format) if format == "json" => {
                    // The versioned contract, printed on one line as System.Text.Json writes it, its
                    // fields in the SDK's order (recordings/tools/003-tool-list-json.txt).
                    let data = listed
                        .iter()
                        .map(|t| ListedTool {
                            manifest: (!global).then_some(manifest.as_str()),
                            package_id: &t.id,
                            version: &t.version,
                            commands: &t.commands,
                        })
                        .collect();
                    out::line(&serde_json::to_string(&Listing { version: 1, data }).expect("a listing serializes"));
                    0
                }
                Some(format) if format != "table" => help::usage_error(
                    ctx,
                    "tool",
                    &[format!(
                        "Cannot parse argument '{format}' for option '--format' as expected type \
                         'Microsoft.DotNet.Tools.Tool.List.ToolListOutputFormat'. Did you mean one of the following?"
                    )],
                ),
                _ => {
                    let rows: Vec<Vec<String>> = listed
                        .iter()
                        .map(|t| {
                            let mut row = vec![t.id.clone(), t.version.clone(), t.commands.join(", ")];
                            if !global {
                                row.push(manifest.clone());
                            }
                            row
                        })
                        .collect();
                    let headers: &[&str] = if global {
                        &["Package Id", "Version", "Commands"]
                    } else {
                        &["Package Id", "Version", "Commands", "Manifest"]
                    };
                    Table { headers, rows, gap: 6, rule: Rule::Full, right: &[] }
                        .lines()
                        .iter()
                        .for_each(|l| out::line(l));
                    0
                }
            }
        }
        "restore" => {
            out::phase(ctx, "Restoring...", false);
            for t in data.catalog.iter().filter(|t| data.local.contains(&t.id)) {
                out::line(&format!(
                    "Tool '{}' (version '{}') was restored. Available commands: {}",
                    t.id,
                    t.version,
                    t.commands.join(", ")
                ));
            }
            out::line("");
            out::line("Restore was successful.");
            0
        }
        "search" => {
            let term = id.unwrap_or_default().to_lowercase();
            let take = args::value(rest, &["--take"]).and_then(|t| t.parse().ok()).unwrap_or(20);
            let skip = args::value(rest, &["--skip"]).and_then(|t| t.parse().ok()).unwrap_or(0);
            let hits: Vec<&Tool> = data
                .catalog
                .iter()
                .filter(|t| t.id.contains(&term) || t.description.to_lowercase().contains(&term))
                .skip(skip)
                .take(take)
                .collect();
            if args::flag(rest, &["--detail"]) {
                for t in hits {
                    out::line("----------------");
                    out::line(&t.id);
                    out::line(&format!("Latest Version: {}", t.version));
                    out::line(&format!("Authors: {}", t.authors));
                    out::line(&format!("Downloads: {}", t.downloads));
                    out::line(&format!("Verified: {}", if t.verified { "True" } else { "False" }));
                    out::line(&format!("Description: {}", t.description));
                    out::line("Versions:");
                    out::line(&format!("\t{} Downloads: {}", t.version, t.downloads));
                    out::line("");
                }
                return 0;
            }
            let rows = hits
                .iter()
                .map(|t| {
                    vec![
                        t.id.clone(),
                        t.version.clone(),
                        t.authors.clone(),
                        t.downloads.to_string(),
                        if t.verified { "x".into() } else { String::new() },
                    ]
                })
                .collect();
            Table {
                headers: &["Package ID", "Latest Version", "Authors", "Downloads", "Verified"],
                rows,
                gap: 6,
                rule: Rule::Full,
                right: &[],
            }
            .lines()
            .iter()
            .for_each(|l| out::line(l));
            0
        }
        "run" => {
            let Some(command) = id else {
                out::err("Required argument missing for command: 'run'.");
                return 1;
            };
            let tool =
                data.catalog.iter().filter(|t| data.local.contains(&t.id)).find(|t| t.commands.contains(&command));
            match tool {
                Some(t) => {
                    out::line(&t.run_output);
                    out::phase(ctx, "Running...", false);
                    0
                }
                None => {
                    out::err(&format!("Cannot find a tool in the manifest file that has a command named '{command}'."));
                    1
                }
            }
        }
        // SDK 10's one-shot tools (`dotnet tool execute`, alias `exec`): the package's tool runs
        // without an install. Unknown packages fail as SDK 10.0.401 answered `tool exec
        // no-such-tool-xyz --yes` (on stderr, exit 1).
        "exec" | "execute" if ctx.sdk_major() >= 10 => {
            let id = id.unwrap_or_default();
            let id = id.split_once('@').map_or(id.as_str(), |(id, _)| id);
            match find(id) {
                Some(t) => {
                    out::line(&t.run_output);
                    0
                }
                None => {
                    out::err(&format!("{id} is not found in NuGet feeds https://api.nuget.org/v3/index.json."));
                    1
                }
            }
        }
        other => help::unrecognized(ctx, "tool", Some(&other.to_string())),
    }
}
