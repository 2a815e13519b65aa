//! `dotnet help`, `dotnet --help` and `dotnet <command> --help`, plus the System.CommandLine
//! style usage errors (messages on stderr, the command's help on stdout, exit 1).

use crate::ctx::Ctx;
use crate::out;

const SDK_USAGE: &str = crate::fixture::body(include_str!("../../fixtures/host/usage-sdk.txt"));

/// The help fixture of a command, if the double knows the command.
pub fn fixture(command: &str) -> Option<&'static str> {
    Some(match command {
        "add" => crate::fixture::body(include_str!("../../fixtures/help/add.txt")),
        "build" => crate::fixture::body(include_str!("../../fixtures/help/build.txt")),
        "clean" => crate::fixture::body(include_str!("../../fixtures/help/clean.txt")),
        "dev-certs" => crate::fixture::body(include_str!("../../fixtures/help/dev-certs.txt")),
        "ef" => crate::fixture::body(include_str!("../../fixtures/help/ef.txt")),
        "format" => crate::fixture::body(include_str!("../../fixtures/help/format.txt")),
        "list" => crate::fixture::body(include_str!("../../fixtures/help/list.txt")),
        "msbuild" => crate::fixture::body(include_str!("../../fixtures/help/msbuild.txt")),
        "new" => crate::fixture::body(include_str!("../../fixtures/help/new.txt")),
        "nuget" => crate::fixture::body(include_str!("../../fixtures/help/nuget.txt")),
        "pack" => crate::fixture::body(include_str!("../../fixtures/help/pack.txt")),
        "package" => crate::fixture::body(include_str!("../../fixtures/help/package.txt")),
        "publish" => crate::fixture::body(include_str!("../../fixtures/help/publish.txt")),
        "reference" => crate::fixture::body(include_str!("../../fixtures/help/reference.txt")),
        "remove" => crate::fixture::body(include_str!("../../fixtures/help/remove.txt")),
        "restore" => crate::fixture::body(include_str!("../../fixtures/help/restore.txt")),
        "run" => crate::fixture::body(include_str!("../../fixtures/help/run.txt")),
        "sln" | "solution" => crate::fixture::body(include_str!("../../fixtures/help/solution.txt")),
        "test" => crate::fixture::body(include_str!("../../fixtures/help/test.txt")),
        "tool" => crate::fixture::body(include_str!("../../fixtures/help/tool.txt")),
        "user-secrets" => crate::fixture::body(include_str!("../../fixtures/help/user-secrets.txt")),
        "watch" => crate::fixture::body(include_str!("../../fixtures/help/watch.txt")),
        "workload" => crate::fixture::body(include_str!("../../fixtures/help/workload.txt")),
        "help" => SDK_USAGE,
        _ => return None,
    })
}

/// The fixture values help texts use.
fn vars(ctx: &Ctx) -> crate::fixture::Vars {
    ctx.vars().with("ef_version", &ef_version(ctx))
}

/// The dotnet-ef version that matches the SDK.
pub fn ef_version(ctx: &Ctx) -> String {
    format!("{}.0.0", ctx.sdk_major())
}

/// Prints the help of `command` (the SDK's own usage for an unknown one) and returns 0.
pub fn print(ctx: &Ctx, command: &str) -> u8 {
    out::text(&vars(ctx).render(fixture(command).unwrap_or(SDK_USAGE)));
    0
}

/// `dotnet --help` / `dotnet -h`: the SDK's usage.
pub fn sdk_usage() -> u8 {
    out::text(SDK_USAGE);
    0
}

/// A usage error the way System.CommandLine reports it: each message on stderr, then a blank
/// line and the command's help on stdout; exit code 1.
pub fn usage_error(ctx: &Ctx, command: &str, messages: &[String]) -> u8 {
    messages.iter().for_each(|m| out::err(m));
    out::line("");
    print(ctx, command);
    1
}

/// The error for an unknown subcommand or argument of `command`.
pub fn unrecognized(ctx: &Ctx, command: &str, token: Option<&String>) -> u8 {
    let message = match token {
        Some(t) => format!("Unrecognized command or argument '{t}'."),
        None => "Required command was not provided.".to_string(),
    };
    usage_error(ctx, command, &[message])
}

/// `dotnet help [command]`. The real CLI opens the command's documentation page in a browser;
/// the double prints the command's `--help` text instead.
pub fn help(ctx: &Ctx, args: &[String]) -> u8 {
    match args.first() {
        None => sdk_usage(),
        Some(c) if fixture(c).is_some() => print(ctx, c),
        Some(c) => {
            out::err(&format!(
                "Specified command '{c}' is not a valid SDK command. Specify a valid SDK command. For more information, run dotnet help."
            ));
            1
        }
    }
}
