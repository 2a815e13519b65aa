//! The actions of `dotnet_help`: one, the help of a command.

pub mod help;
