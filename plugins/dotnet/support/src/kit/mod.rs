//! The action-tool kit: every dotnet tool family is one MCP tool whose `action` parameter picks
//! what to do, and this kit is the one implementation of that shape.
//!
//! A family declares itself as data ([`Declaration`]: its parameters, and per action what it
//! takes and needs, whether it reads or changes, what it locks, what a success looks like) and
//! writes its actions ([`Family::run`]). From the declaration the kit derives:
//! - the input schema (`action` an enum, the parameters flat) and the output schema (one branch
//!   per success shape and the error envelope, under a root `"type": "object"`) ([`schema`]);
//! - the annotations, from the actions' effects ([`schema::annotations`]);
//! - the per-action parameter check, with one rule for the defaults clients send ([`check`]);
//! - read-only service: with `ReadOnly` set, only the actions that read are offered, listed and
//!   run; another is refused with `READ_ONLY`.
//!
//! [`ActionTool`] serves a family: it checks the call, hands the action a [`Call`] (params,
//! working directory, locks, confirmation, dotnet runs) and finishes every result alike:
//! `success` always set, `action` and `lockInfo` added, content and structured content redacted.
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
pub use declare::{ActionEnum, ActionSpec, Declaration, Effect, Lock, Param, Shape, ran_fields};
pub use result::ActionResult;
pub use target::TargetParam;
pub use tool::{ActionTool, Family, Outcome};
