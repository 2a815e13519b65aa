//! The commands that set an installation up rather than serve: finding the
//! configuration file ([`locate`]), writing a first one ([`init`]), and
//! telling MCP clients how to start this installation ([`client_config`],
//! which also words the hint printed when the server is started by hand on
//! a terminal).

pub mod client_config;
pub mod init;
pub mod locate;
