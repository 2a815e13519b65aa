//! The commands the .NET host (the `dotnet` muxer) answers itself, with or without an SDK:
//! `--version`, `--info`, `--list-sdks`, `--list-runtimes`, usage, the "no SDK" failure of the
//! `runtime-only` scenario and the "command not found" answer for unknown commands.

use std::path::PathBuf;

use crate::ctx::{Ctx, HostStyle, Scenario};
use crate::out;

const INFO: &str = crate::fixture::body(include_str!("../fixtures/host/info.txt"));
const INFO_NO_SDK: &str = crate::fixture::body(include_str!("../fixtures/host/info-no-sdk.txt"));
const USAGE_MUXER: &str = crate::fixture::body(include_str!("../fixtures/host/usage-muxer.txt"));
const USAGE_SHORT: &str = crate::fixture::body(include_str!("../fixtures/host/usage-short.txt"));
const NO_SDK_NETCORE3: &str = crate::fixture::body(include_str!("../fixtures/host/no-sdk-netcore3.txt"));
const NO_SDK_NET5: &str = crate::fixture::body(include_str!("../fixtures/host/no-sdk-net5.txt"));
const NO_SDK_NET6: &str = crate::fixture::body(include_str!("../fixtures/host/no-sdk-net6.txt"));
const NO_SDK_NET8: &str = crate::fixture::body(include_str!("../fixtures/host/no-sdk-net8.txt"));
const COMMAND_NOT_FOUND: &str = crate::fixture::body(include_str!("../fixtures/host/command-not-found.txt"));
/// The `workload --info` block for the installed workload, shared with `--info`.
pub const WORKLOAD_INFO_BLOCK: &str = crate::fixture::body(include_str!("../fixtures/workload/info-block.txt"));

/// The host's status code for "no SDK found" (0x80008091), as a Unix exit code.
pub const EXIT_SDK_NOT_FOUND: u8 = 145;
/// The host's status code for invalid arguments (0x80008081), as a Unix exit code.
pub const EXIT_INVALID_ARGS: u8 = 129;

/// The installed SDK versions, oldest first.
pub fn sdk_versions(ctx: &Ctx) -> Vec<String> {
    let mut versions = vec!["8.0.416".to_string(), ctx.sdk_version.clone()];
    versions.sort_by_key(|v| version_key(v));
    versions.dedup();
    versions
}

/// The installed runtime versions, oldest first.
pub fn runtime_versions(ctx: &Ctx) -> Vec<String> {
    let mut versions = vec!["8.0.22".to_string(), ctx.runtime_version.clone()];
    versions.sort_by_key(|v| version_key(v));
    versions.dedup();
    versions
}

/// A sort key for dotted versions: numeric parts, then a release before its prereleases'
/// absence (`10.0.100` sorts after `10.0.100-rc.2`).
fn version_key(v: &str) -> (Vec<u64>, bool, String) {
    let (core, pre) = v.split_once('-').unwrap_or((v, ""));
    let nums = core.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    (nums, pre.is_empty(), pre.to_string())
}

fn sdk_lines(ctx: &Ctx, indent: &str) -> Vec<String> {
    sdk_versions(ctx).iter().map(|v| format!("{indent}{v} [{}/sdk]", ctx.root)).collect()
}

fn runtime_lines(ctx: &Ctx, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for name in ["Microsoft.AspNetCore.App", "Microsoft.NETCore.App"] {
        for v in runtime_versions(ctx) {
            lines.push(format!("{indent}{name} {v} [{}/shared/{name}]", ctx.root));
        }
    }
    lines
}

/// `dotnet --list-sdks`: one `version [dir]` line per SDK; nothing without an SDK.
pub fn list_sdks(ctx: &Ctx, sdk_installed: bool) -> u8 {
    if sdk_installed {
        sdk_lines(ctx, "").iter().for_each(|l| out::line(l));
    }
    0
}

/// `dotnet --list-runtimes`: one `name version [dir]` line per shared framework.
pub fn list_runtimes(ctx: &Ctx) -> u8 {
    runtime_lines(ctx, "").iter().for_each(|l| out::line(l));
    0
}

/// `dotnet --version`.
pub fn version(ctx: &Ctx) -> u8 {
    out::line(&ctx.sdk_version);
    0
}

/// The nearest global.json at or above the working directory.
pub fn global_json(ctx: &Ctx) -> Option<PathBuf> {
    ctx.cwd.ancestors().map(|d| d.join("global.json")).find(|p| p.is_file())
}

/// The SDK feature band of the SDK (`10.0.100` for `10.0.104`).
pub fn sdk_band(ctx: &Ctx) -> String {
    let core = ctx.sdk_version.split('-').next().unwrap_or("");
    let mut parts: Vec<String> = core.split('.').map(str::to_string).collect();
    if let Some(patch) = parts.get_mut(2) {
        let n: u32 = patch.parse().unwrap_or(100);
        *patch = (n / 100 * 100).to_string();
    }
    parts.join(".")
}

/// `dotnet --info`, with or without an SDK.
pub fn info(ctx: &Ctx, sdk_installed: bool) -> u8 {
    let env_list = match std::env::var("DOTNET_ROOT") {
        Ok(v) if !v.is_empty() => format!("  DOTNET_ROOT       [{v}]"),
        _ => "  Not set".to_string(),
    };
    let global_json = global_json(ctx).map(|p| p.display().to_string()).unwrap_or_else(|| "Not found".into());
    let vars = ctx
        .vars()
        .with("sdk_band", &sdk_band(ctx))
        .with("sdk_list", &sdk_lines(ctx, "  ").join("\n"))
        .with("runtime_list", &runtime_lines(ctx, "  ").join("\n"))
        .with("env_list", &env_list)
        .with("global_json", &global_json);
    let vars = vars.clone().with("workloads", &vars.render(WORKLOAD_INFO_BLOCK));
    out::text(&vars.render(if sdk_installed { INFO } else { INFO_NO_SDK }));
    0
}

/// `dotnet` alone: the short usage, exit 129.
pub fn no_arguments() -> u8 {
    out::text(USAGE_SHORT);
    EXIT_INVALID_ARGS
}

/// `dotnet --help` without an SDK: the host's usage, exit 129.
pub fn muxer_help() -> u8 {
    out::text(USAGE_MUXER);
    EXIT_INVALID_ARGS
}

/// Any SDK command without an SDK: the host's message in the configured style, exit 145.
pub fn no_sdk(ctx: &Ctx, command: &str) -> u8 {
    if ctx.has(Scenario::Slow) {
        // A loaded machine: the host's answer comes late, long after any fixed waiting window.
        std::thread::sleep(ctx.slow);
    }
    let fixture = match ctx.host_style {
        HostStyle::NetCore3 => NO_SDK_NETCORE3,
        HostStyle::Net5 => NO_SDK_NET5,
        HostStyle::Net6 => NO_SDK_NET6,
        HostStyle::Net8 => NO_SDK_NET8,
    };
    out::text(&ctx.vars().with("command", command).render(fixture));
    EXIT_SDK_NOT_FOUND
}

/// An unknown command (or a missing `dotnet-<name>` tool): the SDK's message, exit 1.
pub fn command_not_found(ctx: &Ctx, command: &str) -> u8 {
    out::text(&ctx.vars().with("command", command).render(COMMAND_NOT_FOUND));
    1
}

#[cfg(test)]
mod tests {
    use super::version_key;

    #[test]
    fn versions_sort_numerically_with_prereleases_first() {
        let mut v = vec!["10.0.100", "8.0.416", "10.0.100-rc.2.25502.107", "9.0.306"];
        v.sort_by_key(|s| version_key(s));
        assert_eq!(v, ["8.0.416", "9.0.306", "10.0.100-rc.2.25502.107", "10.0.100"]);
    }
}
