//! Building blocks shared by the dotnet plugins, with no MCP types. All are pure (no I/O) except
//! [`runner`], the one place that runs the dotnet CLI.
//!
//! - [`redact`]: removes secrets from text, argument vectors and JSON before anything reaches a client.
//! - [`diagnostics`]: turns MSBuild / compiler / NuGet console lines into structured [`diagnostics::Diagnostic`]s.
//! - [`errors`]: the machine-readable error envelope (`ErrorResponse`) and its MCP error-code mapping.
//! - [`codes`]: explanations, documentation links and fixes for common CS / MSB / NU / NETSDK codes.
//! - [`runner`] (Unix): runs the dotnet CLI with an argument vector and a pinned environment,
//!   streams its lines, caps its output and kills its whole process tree on timeout or cancellation.
//!
//! Dependencies and why they are here:
//! - `serde` (derive): the envelope and diagnostics are serialized into `structuredContent`, with the
//!   contract's camelCase names.
//! - `serde_json`: [`redact::redact_json`] walks JSON values, and the `outputSchema` fragment is a
//!   `serde_json::Value`.
//! - `regex`: finite-automata matching that runs in time linear in the input, so hostile or huge
//!   process output cannot stall redaction or parsing.
//! - `tokio` (Unix, for [`runner`]): async child processes, pipe reading, timers and `select!`. A
//!   plugin owns its tokio runtime (a cdylib cannot use the host's), so `tokio::process` works there.
//! - `libc` (Unix, for [`runner`]): `killpg` to kill the whole process group, and
//!   `prctl(PR_SET_PDEATHSIG)` with `getppid` before exec; std offers none of them, and tokio
//!   depends on libc already, so no new code enters the build. `PATH` is searched by a few lines
//!   of [`runner`] rather than the `which` crate: one Unix rule, no extra dependencies.
//!
//! `thiserror` is not a dependency: nothing in this crate returns a `Result` (every parser and
//! constructor here is total), so there is no error type to derive.

#![deny(missing_docs)]

pub mod codes;
pub mod diagnostics;
pub mod errors;
pub mod redact;
#[cfg(unix)]
pub mod runner;
