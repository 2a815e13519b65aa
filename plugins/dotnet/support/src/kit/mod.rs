//! The action-tool kit: every dotnet tool family is one MCP tool whose `action` parameter picks
//! what to do, and this kit is the one implementation of that shape.
//!
//! A family declares itself as data ([`Declaration`]: its parameters, and per action, in a function
//! that matches on the action enum ([`Declaration::each_action`]), what it takes and needs, whether
//! it reads or changes, what it locks, whether it runs dotnet and the Rust type of its result) and
//! writes its actions ([`Family::run`], one match arm per action). From the declaration the kit
//! derives:
//! - the input schema (`action` an enum, the parameters flat) and the output schema (the envelope's
//!   fields once at the root, one branch per result type derived with the plugin API's schema
//!   settings, shared types under `$defs`, the error envelope, under a root `"type": "object"`)
//!   ([`schema`]);
//! - the annotations, from the actions' effects ([`schema::annotations`]);
//! - the per-action parameter check, with one rule for the defaults clients send ([`check`]);
//! - read-only service: with `ReadOnly` set, only the actions that read are offered, listed and
//!   run; another is refused with `READ_ONLY`.
//!
//! [`ActionTool`] serves a family: it checks the call, hands the action a [`Call`] (params,
//! working directory, locks, confirmation, dotnet runs) and finishes every result alike:
//! `success` always set; `action`, `lockInfo`, and `command` and `exitCode` of an action that runs
//! dotnet, added; the result's type checked against the declared one; content and structured
//! content redacted.
//!
//! The middle layer every family reads its call through, so that no family writes its own:
//! - the target project or solution, from the parameter, the client's roots or the working
//!   directory ([`TargetParam`], [`Call::cli_target`], [`Call::target_file`]);
//! - list parameters by one rule ([`crate::params::Params::list`], [`Split`]);
//! - one invalid-argument constructor ([`invalid`], [`Reason`]);
//! - counted nouns and sentence starts for the prose ([`prose`]);
//! - parameter schemas ([`Param`]'s constructors and constraints).
//!
//! The shape follows a pattern several plugin systems share: a command declares its signature
//! as data and a blanket adapter turns it into the host's tool (mcp-plugin-api's `TypedTool`
//! does this for typed arguments).

mod call;
pub mod check;
mod declare;
pub mod prose;
mod result;
pub mod schema;
mod target;
mod tool;

pub use crate::params::{Reason, Split, invalid};
pub use call::{Call, Consent};
pub use declare::{ActionEnum, ActionSpec, Declaration, Effect, Lock, Param};
pub use result::ActionResult;
pub use target::TargetParam;
pub use tool::{ActionTool, Family, Outcome};
