//! Says why the host went down, when it goes down the unusual way: a panic,
//! a fatal signal or an `exit()` the host did not make.
//!
//! In-process plugins run with the host's rights in the host's process: a
//! plugin that aborts, writes through a bad pointer, overflows its stack or
//! calls `exit()` takes the host with it, and a client only sees its pipe
//! close. What can be done is to leave the cause in the log on the way out:
//!
//! * a panic of the host's own code is logged through `tracing` (a plugin's
//!   panic runs the plugin's own copy of std and its own hook, and
//!   mcp-plugin-api turns it into an error result);
//! * SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT write one line to stderr,
//!   with `write(2)` only (nothing else is safe in a signal handler), naming
//!   the signal and pointing at `Plugins.Isolation = "process"`, then hand the
//!   signal to the handler that was there before. Rust's runtime installs a
//!   SIGSEGV/SIGBUS handler to report stack overflows; it still runs, after
//!   this line, and still prints which thread overflowed its stack. The
//!   handler runs on the thread's alternate signal stack, which Rust gives
//!   every thread it starts; a thread a plugin started with its own copy of
//!   std has none, and a stack overflow there kills the process before any
//!   handler can run;
//! * an `exit()` during serving that the host's own shutdown did not make
//!   (code of a plugin, or of a library it uses) is logged from an exit hook
//!   with its exit code. glibc's `on_exit` hands the hook the code; with
//!   another C library only `atexit` exists, and the line says the code is
//!   unknown. `_exit()` and SIGKILL (the OOM killer's) run no hook at all.
//!
//! Unix only. On Windows none of this is installed: structured exceptions
//! would need `SetUnhandledExceptionFilter` and `exit()` an `atexit` of the C
//! runtime the plugin links, which is not necessarily the host's.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set when the host itself decides to exit, so the exit hook stays quiet.
static HOST_EXITS: AtomicBool = AtomicBool::new(false);

/// Installs the panic hook, the fatal-signal handlers and the exit hook.
/// Call once, after logging started.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let thread = std::thread::current();
        let location = info.location().map(ToString::to_string).unwrap_or_else(|| "an unknown place".to_owned());
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".to_owned());
        let backtrace = std::backtrace::Backtrace::capture();
        let backtrace = match backtrace.status() {
            std::backtrace::BacktraceStatus::Captured => format!("\n{backtrace}"),
            _ => String::new(),
        };
        tracing::error!(
            target: "mcp_plugin_host::fatal",
            "the host panicked on thread '{}' at {location}: {message}{backtrace}",
            thread.name().unwrap_or("unnamed")
        );
        if thread.name() == Some("main") {
            // The process exits with code 101 next: its cause is this line, not a plugin's exit().
            host_exits();
        }
    }));
    #[cfg(unix)]
    unix::install();
}

/// Marks the exit that follows as the host's own (its shutdown, or a start-up
/// error), so the exit hook does not report it.
pub fn host_exits() {
    HOST_EXITS.store(true, Ordering::Release);
}

#[cfg(unix)]
mod unix {
    use std::sync::{OnceLock, atomic::Ordering};

    use super::HOST_EXITS;

    /// The line a fatal signal writes to stderr.
    macro_rules! fatal_line {
        ($signal:literal) => {
            concat!(
                "mcp-plugin-host: fatal signal ",
                $signal,
                "; code of an in-process plugin may be the cause. Plugins.Isolation = \"process\" runs a plugin \
                 where such a fault costs its calls, not the server.\n"
            )
            .as_bytes()
        };
    }

    /// The signals that end a process with a fault, each with the line it writes.
    const FATAL: [(libc::c_int, &[u8]); 5] = [
        (libc::SIGSEGV, fatal_line!("SIGSEGV (invalid memory access)")),
        (libc::SIGBUS, fatal_line!("SIGBUS (bad memory access)")),
        (libc::SIGILL, fatal_line!("SIGILL (illegal instruction)")),
        (libc::SIGFPE, fatal_line!("SIGFPE (arithmetic fault)")),
        (libc::SIGABRT, fatal_line!("SIGABRT (abort)")),
    ];

    /// The disposition each signal of [`FATAL`] had before ours, in the same order.
    static PREVIOUS: [OnceLock<libc::sigaction>; 5] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];

    pub(super) fn install() {
        for (index, (signal, _)) in FATAL.iter().enumerate() {
            // SAFETY: sigaction with a zeroed struct (a valid empty mask) and a handler of the
            // three-argument form SA_SIGINFO asks for; the previous disposition is kept for chaining.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fatal_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(*signal, &action, &mut previous) == 0 {
                    let _ = PREVIOUS[index].set(previous);
                }
            }
        }
        install_exit_hook();
    }

    /// Writes the signal's line, then hands the signal on: to the previous handler, or to the
    /// default disposition (which ends the process once this handler returns).
    extern "C" fn on_fatal_signal(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
        let Some(index) = FATAL.iter().position(|(fatal, _)| *fatal == signal) else { return };
        let line = FATAL[index].1;
        // SAFETY: write(2), sigaction(2) and raise(3) are async-signal-safe; the previous
        // disposition was stored before this handler could run and is only read here.
        unsafe {
            libc::write(libc::STDERR_FILENO, line.as_ptr().cast(), line.len());
            let previous = PREVIOUS[index].get();
            match previous.map(|previous| (previous.sa_sigaction, previous.sa_flags)) {
                Some((handler, flags)) if handler != libc::SIG_DFL && handler != libc::SIG_IGN => {
                    if flags & libc::SA_SIGINFO != 0 {
                        let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                            std::mem::transmute(handler);
                        handler(signal, info, context);
                    } else {
                        let handler: extern "C" fn(libc::c_int) = std::mem::transmute(handler);
                        handler(signal);
                    }
                }
                _ => {
                    // The default disposition, then the signal again: it is blocked while this
                    // handler runs and ends the process as it returns (a fault would recur anyway).
                    let mut default: libc::sigaction = std::mem::zeroed();
                    default.sa_sigaction = libc::SIG_DFL;
                    libc::sigaction(signal, &default, std::ptr::null_mut());
                    libc::raise(signal);
                }
            }
        }
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn install_exit_hook() {
        unsafe extern "C" {
            /// glibc's exit hook that is told the exit status (the libc crate does not bind it).
            fn on_exit(
                function: extern "C" fn(libc::c_int, *mut libc::c_void),
                argument: *mut libc::c_void,
            ) -> libc::c_int;
        }
        extern "C" fn on_exit_hook(status: libc::c_int, _: *mut libc::c_void) {
            report_exit(Some(status));
        }
        // SAFETY: registers a function that lives as long as the program.
        unsafe { on_exit(on_exit_hook, std::ptr::null_mut()) };
    }

    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    fn install_exit_hook() {
        extern "C" fn atexit_hook() {
            report_exit(None);
        }
        // SAFETY: registers a function that lives as long as the program.
        unsafe { libc::atexit(atexit_hook) };
    }

    fn report_exit(status: Option<libc::c_int>) {
        if HOST_EXITS.load(Ordering::Acquire) {
            return;
        }
        let status = status.map_or_else(|| "an unknown code".to_owned(), |status| format!("code {status}"));
        tracing::error!(
            target: "mcp_plugin_host::fatal",
            "the process is exiting with {status} through exit() called outside the host's shutdown; code of an \
             in-process plugin may have called it. Plugins.Isolation = \"process\" runs a plugin where its exit \
             costs its calls, not the server."
        );
    }
}
