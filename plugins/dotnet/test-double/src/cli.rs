//! Dispatch: host options first (they work without an SDK), then the `runtime-only` failure,
//! then the SDK commands.

use crate::args;
use crate::cmd::{build, devcerts, ef, help, msbuild, new, package, solution, test, tool, workload};
use crate::ctx::{Ctx, Scenario};
use crate::host;

const HELP_FLAGS: &[&str] = &["-h", "--help", "-?", "/?"];

/// Runs the command in `ctx.args` and returns the exit code.
pub fn run(ctx: &Ctx) -> u8 {
    let Some(first) = ctx.args.first() else {
        return host::no_arguments();
    };
    let rest = &ctx.args[1..];
    let sdk = !ctx.has(Scenario::RuntimeOnly);
    match first.as_str() {
        "--list-sdks" => return host::list_sdks(ctx, sdk),
        "--list-runtimes" => return host::list_runtimes(ctx),
        "--info" => return host::info(ctx, sdk),
        f if !sdk && HELP_FLAGS.contains(&f) => return host::muxer_help(),
        f if !sdk => return host::no_sdk(ctx, f),
        _ => {}
    }
    let wants_help = args::flag(rest, HELP_FLAGS);
    if wants_help && !matches!(first.as_str(), "new" | "ef" | "dev-certs") && help::fixture(first).is_some() {
        return help::print(ctx, first);
    }
    match first.as_str() {
        "--version" => host::version(ctx),
        f if HELP_FLAGS.contains(&f) => help::sdk_usage(),
        "help" => help::help(ctx, rest),
        "new" => new::new(ctx, rest),
        "restore" => build::restore(ctx, rest),
        "build" => build::build(ctx, rest),
        "publish" => build::publish(ctx, rest),
        "pack" => build::pack(ctx, rest),
        "clean" => build::clean(ctx, rest),
        "run" => build::run(ctx, rest),
        "watch" => build::watch(ctx, rest),
        "format" => build::format(ctx, rest),
        "test" => test::test(ctx, rest),
        "msbuild" => msbuild::msbuild(ctx, rest),
        "add" | "remove" | "list" => verb_first(ctx, first, rest),
        "package" => package_noun(ctx, rest),
        "reference" => reference_noun(ctx, rest),
        "sln" | "solution" => solution::solution(ctx, first, rest),
        "ef" => ef::ef(ctx, rest),
        "tool" => tool::tool(ctx, rest),
        "workload" => workload::workload(ctx, rest),
        "dev-certs" => devcerts::dev_certs(ctx, rest),
        "user-secrets" => devcerts::user_secrets(ctx, rest),
        "nuget" => match rest.first().map(String::as_str) {
            Some("locals") => package::locals(ctx, &rest[1..]),
            other => help::unrecognized(ctx, "nuget", other.map(str::to_string).as_ref()),
        },
        f if f.starts_with('-') => {
            help::usage_error(ctx, "help", &[format!("Unrecognized command or argument '{f}'.")])
        }
        other => host::command_not_found(ctx, other),
    }
}

/// `dotnet add|remove|list [<PROJECT>] package|reference ...`.
fn verb_first(ctx: &Ctx, verb: &str, rest: &[String]) -> u8 {
    let positionals = args::positionals(rest);
    let Some(kw) = positionals.iter().position(|p| p == "package" || p == "reference") else {
        return help::unrecognized(ctx, verb, positionals.first());
    };
    let project = match kw {
        0 => None,
        _ => Some(positionals[0].clone()),
    };
    let operands = &positionals[kw + 1..];
    match (verb, positionals[kw].as_str()) {
        ("add", "package") => package::add(ctx, project, operands.first().cloned(), rest),
        ("remove", "package") => package::remove(ctx, project, operands.first().cloned()),
        ("list", "package") => package::list(ctx, project, rest),
        (verb, _) => solution::reference(ctx, verb, project, operands),
    }
}

/// `dotnet package search|add|list|remove ... [--project <P>]` (SDK 10's noun-first form).
fn package_noun(ctx: &Ctx, rest: &[String]) -> u8 {
    let Some(sub) = rest.first() else {
        return help::unrecognized(ctx, "package", None);
    };
    let tail = &rest[1..];
    let project = args::value(tail, &["--project"]);
    let operand = args::positionals(tail).into_iter().next();
    match sub.as_str() {
        "search" => package::search(ctx, tail),
        "add" => package::add(ctx, project, operand, tail),
        "remove" => package::remove(ctx, project, operand),
        "list" => package::list(ctx, project, tail),
        other => help::unrecognized(ctx, "package", Some(&other.to_string())),
    }
}

/// `dotnet reference add|list|remove ... [--project <P>]`.
fn reference_noun(ctx: &Ctx, rest: &[String]) -> u8 {
    let Some(sub) = rest.first() else {
        return help::unrecognized(ctx, "reference", None);
    };
    let tail = &rest[1..];
    let project = args::value(tail, &["--project"]);
    match sub.as_str() {
        "add" | "remove" | "list" => solution::reference(ctx, sub, project, &args::positionals(tail)),
        other => help::unrecognized(ctx, "reference", Some(&other.to_string())),
    }
}
