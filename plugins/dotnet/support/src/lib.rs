//! The support library of the dotnet plugins: everything they share, so that each plugin is
//! only its actions.
//!
//! Building blocks with no MCP types:
//! - [`redact`]: removes secrets from text, argument vectors and JSON before anything reaches a client.
//! - [`diagnostics`]: turns MSBuild / compiler / NuGet console lines into structured [`diagnostics::Diagnostic`]s.
//! - [`errors`]: the machine-readable error envelope (`ErrorResponse`) and its MCP error-code mapping.
//! - [`codes`]: explanations, documentation links and fixes for common CS / MSB / NU / NETSDK codes.
//! - [`listings`]: the host's `--list-sdks` / `--list-runtimes` output, parsed, and version ordering.
//! - [`frameworks`]: facts about target frameworks (LTS/STS, support dates) and the one to recommend.
//! - [`template_help`]: `dotnet new <template> --help`, parsed into the template's options.
//! - [`runner`] (Unix): runs the dotnet CLI with an argument vector and a pinned environment,
//!   streams its lines, caps its output and kills its whole process tree on timeout or cancellation;
//!   or starts it as a background session ([`runner::Spawned`]) whose tree is killed on drop.
//!
//! The plugin side, on `mcp-plugin-api`:
//! - [`servers`]: the build servers (compiler server, MSBuild nodes) our commands started, adopted
//!   when a command exits and stopped when the plugin ends (Linux).
//! - [`settings`]: what operators configure (dotnet path, timeout, output cap, lock wait).
//! - [`kit`] (Unix): the action-tool kit every family is served through: a family declares its
//!   actions as data and gets its schemas, annotations, parameter check, read-only mode and one
//!   `Tool` implementation that finishes and redacts every result.
//! - [`params`]: typed access to a call's parameters, and the checks of values that reach the
//!   dotnet command line.
//! - [`workspace`]: the working directory, and the project or solution found in the client's roots.
//! - [`locking`]: canonical lock keys and CONCURRENCY_CONFLICT refusals, across plugins.
//! - [`exec`] (Unix): one dotnet command for one call: cancellation, progress from the output,
//!   redaction, and the contract's errors for a missing dotnet or SDK, a cancel or a timeout.
//! - [`respond`]: prose for the model, structured content for programs, shaped by content negotiation.
//! - [`xml`] and [`project_file`]: reading project files (frameworks, packages, references) and XML
//!   solutions without starting dotnet.
//! - `testkit` (feature `testkit`, tests only): the dotnet test double built once, a plugin
//!   context pointing at it, its invocation log, and the harness every family's tests share
//!   (a family served on the double, client answers for roots and elicitation, secret checks).
//! - [`resources`] (Unix): the URIs of the resources the plugins serve, their redacted JSON
//!   contents, and dotnet runs for a read or a completion (no call behind them).
//! - [`confirm`]: asking the user, through elicitation, before a destructive action.
//! - [`table`]: reading the fixed-width tables the CLI prints (tool, workload and template listings).
//!
//! Dependencies and why they are here:
//! - `mcp-plugin-api`: the plugin side speaks its types (contexts, results, locks).
//! - `serde` (derive): the envelope and diagnostics are serialized into `structuredContent`, with the
//!   contract's camelCase names.
//! - `serde_json`: [`redact::redact_json`] walks JSON values, and the `outputSchema` fragment is a
//!   `serde_json::Value`.
//! - `regex`: finite-automata matching that runs in time linear in the input, so hostile or huge
//!   process output cannot stall redaction or parsing.
//! - `tokio` (for [`runner`]): async child processes, pipe reading, timers and `select!`. A
//!   plugin owns its tokio runtime (a cdylib cannot use the host's), so `tokio::process` works there.
//! - `process-wrap` (for [`runner`]): the child heads a process tree that is killed whole, by each
//!   platform's means (a process group on Unix, a job object on Windows).
//! - `which` (for [`runner`]): `PATH` searched by each platform's rules (execute bits, `PATHEXT`).
//! - `libc` (Unix, for [`runner`]): `waitid(WNOWAIT)` to see a background session's leader exit
//!   without reaping it, and on Linux `prctl(PR_SET_PDEATHSIG)` with `getppid` before exec; std
//!   offers none of them, and tokio depends on libc already.

#![deny(missing_docs)]

pub mod codes;
pub mod confirm;
pub mod diagnostics;
pub mod errors;
pub mod exec;
pub mod frameworks;
#[cfg(unix)]
pub mod kit;
pub mod listings;
pub mod locking;
pub mod params;
pub mod project_file;
pub mod redact;
#[cfg(unix)]
pub mod resources;
pub mod respond;
pub mod runner;
pub mod servers;
pub mod settings;
pub mod table;
pub mod template_help;
#[cfg(all(unix, feature = "testkit"))]
pub mod testkit;
pub mod workspace;
pub mod xml;
