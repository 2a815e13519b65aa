//! The process's standard streams: a stdout that only the protocol writes to.
//!
//! Over stdio the host's stdout is the client's JSON-RPC stream, and a plugin
//! in process shares the host's file descriptors: a `print!` in a plugin (or
//! in a C library it links) would land between two messages, or glue itself
//! to the next one, which no client can parse. So before any plugin is
//! loaded, [`take_stdout`] duplicates the stdout the client gave into a
//! descriptor of the host's own (closed on exec, so children do not inherit
//! it) and points descriptor 1 at stderr: whatever else is printed ends in
//! the log. The protocol (or the report of `plugins` and `check`) is then
//! written to the duplicate only. A worker process does the same with the
//! pipe its host reads (`crate::isolation::worker`).
//!
//! [`protocol_streams`] makes async halves for the transport: when stdin and
//! the duplicate are pipes (how most clients start servers) they are driven
//! by tokio's non-blocking pipe driver on descriptors reopened through
//! `/proc/self/fd`, so the non-blocking flag stays private to the host (as
//! rmcp's `stdio_pipes` does for the plain streams); anything else (a socket
//! pair, as Node.js clients give, a file, a terminal) is read and written on
//! tokio's blocking pool.

use std::{
    io,
    pin::Pin,
    task::{Context, Poll},
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The stdout the client gave, now the host's alone.
pub struct ProtocolStdout {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

/// Takes stdout for the protocol: duplicates descriptor 1 into a descriptor
/// of the process's own and points descriptor 1 at stderr. Call it before any
/// plugin is loaded and before other threads print.
#[cfg(unix)]
pub fn take_stdout() -> io::Result<ProtocolStdout> {
    use std::{io::Write, os::fd::AsFd};
    std::io::stdout().flush()?;
    // F_DUPFD_CLOEXEC: a descriptor of 3 or more that children do not inherit.
    let fd = std::io::stdout().as_fd().try_clone_to_owned()?;
    nix::unistd::dup2_stdout(std::io::stderr())?;
    Ok(ProtocolStdout { fd })
}

/// Where descriptors cannot be moved, stdout stays as it is.
#[cfg(not(unix))]
pub fn take_stdout() -> io::Result<ProtocolStdout> {
    Ok(ProtocolStdout {})
}

impl ProtocolStdout {
    /// A blocking writer, for a command's report or a worker's messages.
    pub fn into_writer(self) -> Box<dyn io::Write + Send> {
        #[cfg(unix)]
        return Box::new(std::fs::File::from(self.fd));
        #[cfg(not(unix))]
        Box::new(std::io::stdout())
    }
}

/// The transport's halves: stdin, and the protocol's stdout. Must be called
/// inside a tokio runtime with I/O enabled.
pub fn protocol_streams(stdout: ProtocolStdout) -> (Input, Output) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let input = match reopened_pipe(std::io::stdin().as_raw_fd(), false)
            .and_then(|fd| tokio::net::unix::pipe::Receiver::from_owned_fd(fd).ok())
        {
            Some(pipe) => Input::Pipe(pipe),
            None => Input::Blocking(tokio::io::stdin()),
        };
        let output = match reopened_pipe(stdout.fd.as_raw_fd(), true)
            .and_then(|fd| tokio::net::unix::pipe::Sender::from_owned_fd(fd).ok())
        {
            Some(pipe) => Output::Pipe(pipe),
            None => Output::Blocking(tokio::fs::File::from_std(std::fs::File::from(stdout.fd))),
        };
        (input, output)
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    return (Input::Blocking(tokio::io::stdin()), Output::Blocking(tokio::fs::File::from_std(stdout.fd.into())));
    #[cfg(not(unix))]
    {
        let _ = stdout;
        (Input::Blocking(tokio::io::stdin()), Output::Blocking(tokio::io::stdout()))
    }
}

/// Reopens descriptor `fd` through `/proc/self/fd` with `O_NONBLOCK`, on an open file
/// description of its own, when it is a pipe.
#[cfg(target_os = "linux")]
fn reopened_pipe(fd: std::os::fd::RawFd, write: bool) -> Option<std::os::fd::OwnedFd> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let file = std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(libc::O_NONBLOCK)
        .open(format!("/proc/self/fd/{fd}"))
        .ok()?;
    file.metadata().is_ok_and(|metadata| metadata.file_type().is_fifo()).then(|| file.into())
}

/// The transport's input: stdin.
pub enum Input {
    /// A pipe, on tokio's non-blocking driver.
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Receiver),
    /// Anything else, read on the blocking pool.
    Blocking(tokio::io::Stdin),
}

/// The transport's output: the protocol's stdout.
pub enum Output {
    /// A pipe, on tokio's non-blocking driver.
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Sender),
    /// Anything else, written on the blocking pool.
    #[cfg(unix)]
    Blocking(tokio::fs::File),
    /// Where stdout cannot be taken.
    #[cfg(not(unix))]
    Blocking(tokio::io::Stdout),
}

impl AsyncRead for Input {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Input::Pipe(pipe) => Pin::new(pipe).poll_read(cx, buf),
            Input::Blocking(stdin) => Pin::new(stdin).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Output {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Output::Pipe(pipe) => Pin::new(pipe).poll_write(cx, buf),
            Output::Blocking(out) => Pin::new(out).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Output::Pipe(pipe) => Pin::new(pipe).poll_flush(cx),
            Output::Blocking(out) => Pin::new(out).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            Output::Pipe(pipe) => Pin::new(pipe).poll_shutdown(cx),
            Output::Blocking(out) => Pin::new(out).poll_shutdown(cx),
        }
    }
}
