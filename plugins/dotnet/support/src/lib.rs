//! Pure building blocks shared by the dotnet plugins: no I/O, no MCP types.
//!
//! - [`redact`]: removes secrets from text, argument vectors and JSON before anything reaches a client.
//! - [`diagnostics`]: turns MSBuild / compiler / NuGet console lines into structured [`diagnostics::Diagnostic`]s.
//! - [`errors`]: the machine-readable error envelope (`ErrorResponse`) and its MCP error-code mapping.
//! - [`codes`]: explanations, documentation links and fixes for common CS / MSB / NU / NETSDK codes.
//!
//! Dependencies and why they are here:
//! - `serde` (derive): the envelope and diagnostics are serialized into `structuredContent`, with the
//!   contract's camelCase names.
//! - `serde_json`: [`redact::redact_json`] walks JSON values, and the `outputSchema` fragment is a
//!   `serde_json::Value`.
//! - `regex`: finite-automata matching that runs in time linear in the input, so hostile or huge
//!   process output cannot stall redaction or parsing.
//!
//! `thiserror` is not a dependency: nothing in this crate returns a `Result` (every parser and
//! constructor here is total), so there is no error type to derive.

#![deny(missing_docs)]

pub mod codes;
pub mod diagnostics;
pub mod errors;
pub mod redact;
