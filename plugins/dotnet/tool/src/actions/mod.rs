//! The actions of `dotnet_tool`: listings and searches, changes to where tools live, and running
//! a tool.
//!
//! Each action answers with a result type of its file. Their comments are plain (`//`) where the
//! action's name says what the type holds: a doc comment would be a description in the output
//! schema, which every client downloads with `tools/list`.

pub mod change;
pub mod list;
pub mod run;
