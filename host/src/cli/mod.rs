//! The commands besides serving: finding the configuration file
//! ([`locate`]), writing a first one ([`init`]), telling MCP clients how to
//! start this installation ([`client_config`], which also words the hint
//! printed when the server is started by hand on a terminal), reporting on
//! the plugin folder ([`report`], for `plugins`), validating everything
//! ([`check`]) and pinning the libraries ([`lock`], for `plugins lock`).

pub mod check;
pub mod client_config;
pub mod init;
pub mod locate;
pub mod lock;
pub mod report;
