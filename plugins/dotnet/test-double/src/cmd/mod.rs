//! The SDK commands, one module per family.

pub mod build;
pub mod devcerts;
pub mod ef;
pub mod help;
pub mod msbuild;
pub mod new;
pub mod package;
pub mod solution;
pub mod test;
pub mod tool;
pub mod workload;
