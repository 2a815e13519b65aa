//! Output: every line is written and flushed at once, so that stdout and stderr interleave the
//! way the real CLI's do when both go to one pipe or terminal.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::ctx::{Ctx, Scenario};

/// Writes one line to stdout and flushes it. Write errors (a closed pipe) are ignored, as the
/// real CLI does not fail on them either.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// Writes one line to stderr and flushes it.
pub fn err(text: &str) {
    let mut out = std::io::stderr().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// Writes a rendered text fixture line by line: lines starting with `2> ` go to stderr, those
/// starting with `1> ` to stdout without it, the rest to stdout. A final newline does not
/// produce an extra empty line.
pub fn text(text: &str) {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.is_empty() && text.is_empty() {
        return;
    }
    for l in body.split('\n') {
        let l = l.strip_suffix('\r').unwrap_or(l);
        if l == "2>" {
            err("");
        } else if let Some(e) = l.strip_prefix("2> ") {
            err(e);
        } else if l == "1>" {
            line("");
        } else if let Some(o) = l.strip_prefix("1> ") {
            line(o);
        } else {
            line(l);
        }
    }
}

/// Prints a value as indented JSON, the way System.Text.Json writes it (two spaces).
pub fn json<T: Serialize>(value: &T) {
    let text = serde_json::to_string_pretty(value).expect("fixture data serializes");
    text.lines().for_each(line);
}

/// The secret-laden log lines the `secrets` scenario injects.
const SECRETS: &str = crate::fixture::body(include_str!("../fixtures/secrets/log.txt"));

/// The point in a long command where time passes: the `secrets` scenario emits its secrets
/// here (on stdout, or on stderr when stdout carries machine-readable output), and the `slow`
/// scenario streams one line every 200 ms for `DOTNET_DOUBLE_SLOW_SECS` seconds, and with
/// `DOTNET_DOUBLE_HOLD` the command waits here while that file exists. Only the
/// first call in a process does anything, so a command that passes several such points (a
/// test run builds first) is slow, and shows its secrets, once.
pub fn phase(ctx: &Ctx, label: &str, machine_readable: bool) {
    static DONE: AtomicBool = AtomicBool::new(false);
    if DONE.swap(true, Ordering::SeqCst) {
        return;
    }
    if ctx.has(Scenario::Secrets) {
        secrets(machine_readable);
    }
    if ctx.has(Scenario::Slow) {
        ticks(ctx.slow, label);
    }
    held(ctx);
}

/// Waits while the `DOTNET_DOUBLE_HOLD` file exists, polled every 20 ms, at most 600 s (the real
/// compiler server's idle timeout, so a test that forgets its file leaves no process behind for
/// long).
pub fn held(ctx: &Ctx) {
    let Some(hold) = ctx.hold.as_deref() else { return };
    let deadline = Instant::now() + Duration::from_secs(600);
    while hold.exists() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
}

/// Emits the secrets fixture: like any text fixture (mostly stdout, a few lines on stderr), or
/// entirely on stderr when `all_to_stderr`.
fn secrets(all_to_stderr: bool) {
    if all_to_stderr {
        SECRETS.lines().for_each(|l| err(l.strip_prefix("2> ").unwrap_or(l)));
    } else {
        text(SECRETS);
    }
}

/// Streams `label (i/n)` lines, one every 200 ms, for `total`.
fn ticks(total: Duration, label: &str) {
    let count = (total.as_millis() / 200) as u64;
    for i in 1..=count {
        line(&format!("{label} ({i}/{count})"));
        thread::sleep(Duration::from_millis(200));
    }
}
