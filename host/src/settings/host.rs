//! The `Host` section, resolved: server identity, logging and the limits of
//! every request.

use std::{collections::BTreeMap, path::PathBuf, time::Duration};

/// Default for `Host.MaxMessageBytes`: 16 MiB, the limit rmcp's own transports use, so a
/// message acceptable over HTTP is acceptable over stdio.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Server identity, logging and call limits (`Host` section).
#[derive(Debug, Clone)]
pub struct HostSettings {
    /// The name the server gives in `initialize`.
    pub server_name: String,
    /// The host's log filter (`RUST_LOG` syntax); `RUST_LOG` overrides it.
    pub log_level: String,
    /// The longest a tool call may run; `None` means no limit.
    pub tool_timeout: Option<Duration>,
    /// Per-tool limits that override [`Self::tool_timeout`].
    pub tool_timeouts: BTreeMap<String, Duration>,
    /// The longest a prompt may take to render (`prompts/get`); `None` means no limit.
    pub prompt_timeout: Option<Duration>,
    /// The longest a resource read may take (`resources/read`); `None` means no limit.
    pub resource_timeout: Option<Duration>,
    /// The longest a completion may take (`completion/complete`); `None` means no limit.
    pub completion_timeout: Option<Duration>,
    /// How long before its time limit a request is asked to stop (its cancel
    /// signal), so that it can wind down and report partial output by then;
    /// after a client's cancel or at shutdown, how long it may wind down
    /// before the host drops it.
    pub cancel_grace: Duration,
    /// The longest JSON-RPC message accepted on stdio; a longer one is
    /// answered with an error instead of being read into memory.
    pub max_message_bytes: usize,
    /// Where the lock files that plugins' locks take live, shared by every
    /// host process of the user; `None` keeps locks within this process.
    pub lock_directory: Option<PathBuf>,
    /// How each log record is written (`Host.LogFormat`).
    pub log_format: LogFormat,
    /// A file that receives the log besides stderr (`Host.LogFile`), for
    /// clients that hide or drop a server's stderr.
    pub log_file: Option<PathBuf>,
}

/// How log records are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One line of text a record (the default).
    #[default]
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}
