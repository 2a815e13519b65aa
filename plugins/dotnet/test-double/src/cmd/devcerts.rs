//! `dotnet dev-certs https ...` and `dotnet user-secrets ...`. Under `secrets`,
//! `user-secrets list` shows secret values of every common shape.

use crate::args;
use crate::cmd::help;
use crate::ctx::{Ctx, Scenario};
use crate::out;
use crate::target;

const CHECK: &str = crate::fixture::body(include_str!("../../fixtures/devcerts/check.txt"));
const CHECK_TRUST: &str = crate::fixture::body(include_str!("../../fixtures/devcerts/check-trust.txt"));
const CHECK_MACHINE_READABLE: &str =
    crate::fixture::body(include_str!("../../fixtures/devcerts/check-machine-readable.txt"));
const TRUST: &str = crate::fixture::body(include_str!("../../fixtures/devcerts/trust.txt"));
const CLEAN: &str = crate::fixture::body(include_str!("../../fixtures/devcerts/clean.txt"));
const PRESENT: &str = crate::fixture::body(include_str!("../../fixtures/devcerts/present.txt"));
const SECRETS_LIST: &str = crate::fixture::body(include_str!("../../fixtures/user-secrets/list.txt"));
const SECRETS_LIST_SENSITIVE: &str = crate::fixture::body(include_str!("../../fixtures/user-secrets/list-secrets.txt"));

/// `dotnet dev-certs https [--check] [--trust] [--clean] [--export-path P [--format F] [--password X]]`,
/// and `--check-trust-machine-readable` (SDK 10 and later).
pub fn dev_certs(ctx: &Ctx, args: &[String]) -> u8 {
    match args.first().map(String::as_str) {
        Some("https") => {}
        None | Some("-h" | "--help" | "-?") => return help::print(ctx, "dev-certs"),
        Some(other) => {
            out::err(&format!("Unrecognized command or argument '{other}'"));
            return 1;
        }
    }
    let rest = &args[1..];
    if args::flag(rest, &["-h", "--help", "-?"]) {
        return help::print(ctx, "dev-certs");
    }
    if args::flag(rest, &["--check-trust-machine-readable"]) {
        // SDK 10 knows the option; an older dev-certs answers an unknown option as SDK 10.0.401's
        // does (`dotnet dev-certs https --bogus-option`, checked by hand): one line, exit 255.
        if ctx.sdk_major() < 10 {
            out::line("Specify --help for a list of available options and commands.");
            return 255;
        }
        out::text(CHECK_MACHINE_READABLE);
        return 0;
    }
    let check = args::flag(rest, &["-c", "--check"]);
    let trust = args::flag(rest, &["-t", "--trust"]);
    if let Some(format) = args::value(rest, &["--format"])
        && !format.eq_ignore_ascii_case("pfx")
        && !format.eq_ignore_ascii_case("pem")
    {
        out::err(&format!("Unknown key format '{format}'."));
        return 1;
    }
    let text = if args::flag(rest, &["--clean"]) {
        CLEAN
    } else if check && trust {
        CHECK_TRUST
    } else if check {
        CHECK
    } else if trust {
        TRUST
    } else {
        PRESENT
    };
    out::text(text);
    out::phase(ctx, "Working...", false);
    0
}

/// `dotnet user-secrets init|set|list|remove|clear [--project P] [--json]`.
pub fn user_secrets(ctx: &Ctx, args: &[String]) -> u8 {
    let Some(sub) = args::positionals(args).into_iter().next() else {
        return help::print(ctx, "user-secrets");
    };
    let project = args::value(args, &["-p", "--project"]);
    let target = match target::resolve(ctx, project.as_deref()) {
        Ok(t) => t,
        Err(m) => {
            out::err(&format!(
                "Could not find a MSBuild project file in '{}'. Specify which project to use with the --project option.",
                m.dir().display()
            ));
            return 1;
        }
    };
    let positionals = args::positionals(args);
    let operands = &positionals[1..];
    match sub.as_str() {
        "init" => {
            out::line(&format!(
                "Set UserSecretsId to '4f7b1c2e-9d3a-4b8e-a6f5-2c1d0e9b8a7f' for MSBuild project '{}'.",
                target.projects[0].path.display()
            ));
            0
        }
        "set" => match operands {
            [key, _value, ..] => {
                out::line(&format!("Successfully saved {key} to the secret store."));
                0
            }
            [_] => {
                out::err("Missing parameter value for 'value'.");
                out::err("Use the '--help' flag to see info.");
                1
            }
            [] => {
                out::err("Missing parameter value for 'name'.");
                out::err("Use the '--help' flag to see info.");
                1
            }
        },
        "list" => {
            let list = if ctx.has(Scenario::Secrets) { SECRETS_LIST_SENSITIVE } else { SECRETS_LIST };
            if args::flag(args, &["--json"]) {
                let pairs: Vec<(String, String)> = list
                    .lines()
                    .filter_map(|l| l.split_once(" = "))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                out::line("//BEGIN");
                out::json(&crate::json::Ordered(pairs));
                out::line("//END");
            } else {
                out::text(list);
            }
            0
        }
        "remove" => {
            if operands.is_empty() {
                out::err("Missing parameter value for 'name'.");
                out::err("Use the '--help' flag to see info.");
                return 1;
            }
            0
        }
        "clear" => 0,
        other => {
            out::err(&format!("Unrecognized command or argument '{other}'"));
            1
        }
    }
}
