//! The runner against real processes (`sh`, `sleep`); no dotnet needed. Linux: liveness is read
//! from /proc.
#![cfg(target_os = "linux")]

use std::cell::{Cell, RefCell};
use std::future::{Future, pending};
use std::path::{Path, PathBuf};
use std::time::Duration;

use dotnet_support::runner::{Invocation, PINNED_ENV, RunEnd, RunOutcome, Stream};

/// Generous bound on any single run; only a hang trips it.
const BOUND: Duration = Duration::from_secs(60);

fn sh(script: &str) -> Invocation {
    Invocation::new("sh", ["-c", script])
}

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(BOUND, future).await.expect("the run did not finish within the bound")
}

async fn run(invocation: &Invocation) -> (Vec<(Stream, String)>, RunOutcome) {
    let mut lines = Vec::new();
    let outcome = bounded(invocation.run(pending(), |stream, line: &str| lines.push((stream, line.to_owned())))).await;
    (lines, outcome)
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dotnet-support-runner-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Dead means: no /proc entry any more, or a zombie waiting for its new parent to reap it.
fn is_dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) == Some("Z"),
    }
}

/// Waits (up to the bound) for the process to die; the kernel may take a moment after SIGKILL.
async fn assert_dies(pid: u32) {
    let deadline = tokio::time::Instant::now() + BOUND;
    while !is_dead(pid) {
        assert!(tokio::time::Instant::now() < deadline, "process {pid} is still alive");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A script that starts a grandchild (`sleep 300` in the background), prints its PID and waits.
const TREE: &str = "sleep 300 & echo $! ; wait";

fn pid_in(line: &str) -> Option<u32> {
    line.trim().parse().ok()
}

#[tokio::test]
async fn arguments_reach_the_process_verbatim_without_a_shell() {
    let tricky =
        ["two words", "\"double\" 'single'", "a;b", "$(echo injected)", "`id`", "", "*", "\\n", "--password=hunter2"];
    let script = r#"for a in "$@"; do printf '[%s]\n' "$a"; done"#;
    let args = ["-c", script, "argv0"].into_iter().chain(tricky);
    let (lines, outcome) = run(&Invocation::new("sh", args)).await;

    assert_eq!(outcome.end, RunEnd::Exited(0));
    let expected: Vec<String> = tricky.iter().map(|a| format!("[{a}]")).collect();
    assert_eq!(lines.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>(), expected);
    assert!(lines.iter().all(|(s, _)| *s == Stream::Stdout));
    assert!(outcome.program.as_deref().is_some_and(|p| p.is_absolute() && p.ends_with("sh")));
    // The echoed command line is the redacted display form.
    assert!(outcome.command_line.starts_with("sh -c "), "{}", outcome.command_line);
    assert!(outcome.command_line.contains("\"two words\""), "{}", outcome.command_line);
    assert!(!outcome.command_line.contains("hunter2"), "{}", outcome.command_line);
}

#[tokio::test]
async fn working_directory_and_environment_are_pinned() {
    let dir = scratch("cwd");
    let names: Vec<&str> = PINNED_ENV.iter().map(|(k, _)| *k).chain(["EXTRA_VAR", "DOTNET_NOLOGO"]).collect();
    let script = names.iter().map(|n| format!("echo \"{n}=${n}\"")).collect::<Vec<_>>().join("; ");
    let invocation = sh(&format!("pwd -P; {script}; cat; echo stdin-was-empty"))
        .current_dir(&dir)
        .env("EXTRA_VAR", "x y")
        .env("DOTNET_NOLOGO", "0");
    let (lines, outcome) = run(&invocation).await;

    assert_eq!(outcome.end, RunEnd::Exited(0), "{}", outcome.transcript);
    let lines: Vec<String> = lines.into_iter().map(|(_, l)| l).collect();
    assert_eq!(Path::new(&lines[0]), dir.canonicalize().unwrap());
    for (key, value) in PINNED_ENV.iter().filter(|(k, _)| *k != "DOTNET_NOLOGO") {
        assert!(lines.contains(&format!("{key}={value}")), "{key} missing in {lines:?}");
    }
    assert!(lines.contains(&"EXTRA_VAR=x y".to_owned()));
    // The caller's value wins over a pinned one.
    assert_eq!(lines.iter().filter(|l| l.starts_with("DOTNET_NOLOGO=")).collect::<Vec<_>>(), ["DOTNET_NOLOGO=0"; 2]);
    assert_eq!(lines.last().unwrap(), "stdin-was-empty");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn stdout_and_stderr_lines_arrive_interleaved_in_order() {
    // Two pipes have no common order, and pauses do not give them one on a loaded machine: the
    // script writes each line only once the reader has handed the line before to the callback
    // (which touches a file named after it), so the order of arrival is the order of writing.
    let dir = scratch("interleaved");
    let after = |line: &str| format!("until [ -e '{}' ]; do sleep 0.01; done", dir.join(line).display());
    let script = format!(
        "echo out1; {}; echo err1 >&2; {}; echo out2; {}; echo err2 >&2; {}; printf 'out3-no-newline'",
        after("out1"),
        after("err1"),
        after("out2"),
        after("err2")
    );
    let mut lines = Vec::new();
    let outcome = bounded(sh(&script).run(pending(), |stream, line: &str| {
        std::fs::write(dir.join(line), "").unwrap();
        lines.push((stream, line.to_owned()));
    }))
    .await;

    let expected = [
        (Stream::Stdout, "out1"),
        (Stream::Stderr, "err1"),
        (Stream::Stdout, "out2"),
        (Stream::Stderr, "err2"),
        (Stream::Stdout, "out3-no-newline"),
    ];
    assert_eq!(lines, expected.map(|(s, l)| (s, l.to_owned())));
    assert_eq!(outcome.transcript, "out1\nerr1\nout2\nerr2\nout3-no-newline\n");
    assert_eq!(outcome.stdout, "out1\nout2\nout3-no-newline\n");
    assert_eq!(outcome.stderr, "err1\nerr2\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn output_past_the_cap_is_dropped_with_a_marker_while_the_process_is_drained() {
    // 8 MB through stdout, far more than a pipe buffer holds: a reader that stopped at the cap
    // would leave the process blocked on write forever.
    let script = "yes 'line of output' | head -n 500000; echo done >&2";
    let mut count = 0usize;
    let outcome = bounded(sh(script).max_output_bytes(1000).run(pending(), |_, _| count += 1)).await;

    assert_eq!(outcome.end, RunEnd::Exited(0));
    assert_eq!(count, 500_001, "the callback sees every line");
    let total = 500_000 * "line of output\n".len() as u64;
    let kept_lines = 2 * (500 / "line of output\n".len());
    assert_eq!(outcome.stdout_dropped_bytes, total - (kept_lines * "line of output\n".len()) as u64);
    let marker = format!(
        "[output truncated: {} bytes in {} lines of stdout were dropped here; at most 1000 bytes are kept per stream]",
        outcome.stdout_dropped_bytes,
        500_000 - kept_lines
    );
    let stdout: Vec<&str> = outcome.stdout.lines().collect();
    assert_eq!(stdout.len(), kept_lines + 1);
    assert_eq!(stdout[kept_lines / 2], marker);
    assert!(stdout.iter().enumerate().all(|(i, l)| i == kept_lines / 2 || *l == "line of output"));
    assert!(outcome.stdout.len() <= 1000 + marker.len() + 1);
    assert_eq!(outcome.stderr, "done\n");
    assert_eq!(outcome.stderr_dropped_bytes, 0);
    // The two pipes are read concurrently: stdout still buffered when `done` reaches stderr may be
    // read after it, so only membership is certain, not which line comes last.
    assert!(outcome.transcript.contains(&marker) && outcome.transcript.lines().any(|line| line == "done"));
}

#[tokio::test]
async fn timeout_kills_the_whole_process_tree() {
    let started = std::time::Instant::now();
    let (lines, outcome) = run(&sh(TREE).timeout(Duration::from_secs(2))).await;

    assert_eq!(outcome.end, RunEnd::TimedOut);
    assert!(started.elapsed() < BOUND);
    let grandchild = lines.iter().find_map(|(_, l)| pid_in(l)).expect("the script printed no PID");
    assert_eq!(outcome.stdout, format!("{grandchild}\n"), "partial output is kept");
    assert_dies(grandchild).await;
}

#[tokio::test]
async fn cancellation_kills_the_whole_process_tree() {
    let grandchild = Cell::new(None);
    let cancel = async {
        while grandchild.get().is_none() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let outcome = bounded(sh(TREE).run(cancel, |_, line: &str| {
        if let Some(pid) = pid_in(line) {
            grandchild.set(Some(pid));
        }
    }))
    .await;

    assert_eq!(outcome.end, RunEnd::Cancelled);
    assert_eq!(outcome.end.exit_code(), -1);
    let grandchild = grandchild.get().unwrap();
    assert_eq!(outcome.stdout, format!("{grandchild}\n"));
    assert_dies(grandchild).await;
}

#[tokio::test]
async fn dropping_the_run_future_kills_the_whole_process_tree() {
    let seen = RefCell::new(Vec::new());
    let invocation = sh("echo $$; sleep 300 & echo $! ; wait");
    {
        let mut run = Box::pin(invocation.run(pending(), |_, line: &str| seen.borrow_mut().extend(pid_in(line))));
        bounded(async {
            while seen.borrow().len() < 2 {
                tokio::select! {
                    outcome = &mut run => panic!("the run ended by itself: {outcome:?}"),
                    () = tokio::time::sleep(Duration::from_millis(10)) => {}
                }
            }
        })
        .await;
        let pids = seen.borrow();
        assert!(!is_dead(pids[0]) && !is_dead(pids[1]), "both run until the future is dropped");
        // `run` is dropped here, mid-run: the host's hard cancel.
    }
    let pids = seen.into_inner();
    let (child, grandchild) = (pids[0], pids[1]);
    assert_dies(grandchild).await;
    assert_dies(child).await;
}

#[test]
fn the_child_dies_with_the_thread_that_started_it() {
    // The run future is leaked, so its guard never fires: only PR_SET_PDEATHSIG can end the child.
    let child = std::thread::spawn(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let pid = Cell::new(None);
            let invocation = sh("echo $$; exec sleep 300");
            let mut run = Box::pin(invocation.run(pending(), |_, line: &str| pid.set(pid.get().or(pid_in(line)))));
            bounded(async {
                while pid.get().is_none() {
                    tokio::select! {
                        outcome = &mut run => panic!("the run ended by itself: {outcome:?}"),
                        () = tokio::time::sleep(Duration::from_millis(10)) => {}
                    }
                }
            })
            .await;
            std::mem::forget(run);
            let pid = pid.get().unwrap();
            assert!(!is_dead(pid));
            pid
        })
    })
    .join()
    .unwrap();
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(assert_dies(child));
}

#[tokio::test]
async fn a_missing_program_is_reported_as_not_found() {
    let (lines, outcome) = run(&Invocation::new("no-such-program-for-the-runner-test", ["--version"])).await;
    match &outcome.end {
        RunEnd::ProgramNotFound(message) => assert!(message.contains("PATH"), "{message}"),
        other => panic!("expected ProgramNotFound, got {other:?}"),
    }
    assert!(lines.is_empty() && outcome.program.is_none() && outcome.stdout.is_empty());
    assert_eq!(outcome.command_line, "no-such-program-for-the-runner-test --version");

    // A configured path that does not exist, and a PATH (given by the caller) without the program.
    let configured = Path::new("/nonexistent/dotnet");
    let (_, outcome) = run(&Invocation::dotnet(Some(configured), ["--info"])).await;
    assert!(matches!(&outcome.end, RunEnd::ProgramNotFound(m) if m.contains("/nonexistent/dotnet")));
    let (_, outcome) = run(&Invocation::dotnet(None, ["--info"]).env("PATH", "/nonexistent")).await;
    assert!(matches!(&outcome.end, RunEnd::ProgramNotFound(m) if m.contains("`dotnet`")));
}

#[tokio::test]
async fn other_start_failures_are_not_mistaken_for_a_missing_program() {
    let dir = scratch("start");
    let script = dir.join("not-executable");
    std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
    let (_, outcome) = run(&Invocation::new(&script, Vec::<String>::new())).await;
    assert!(
        matches!(&outcome.end, RunEnd::FailedToStart { kind: std::io::ErrorKind::PermissionDenied, .. }),
        "{:?}",
        outcome.end
    );

    let (_, outcome) = run(&sh("true").current_dir(dir.join("missing"))).await;
    assert!(
        matches!(&outcome.end, RunEnd::FailedToStart { kind: std::io::ErrorKind::NotFound, message } if message.contains("working directory")),
        "{:?}",
        outcome.end
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn exit_codes_and_signals_are_reported() {
    let (_, outcome) = run(&sh("echo partial; exit 3")).await;
    assert_eq!(outcome.end, RunEnd::Exited(3));
    assert_eq!(outcome.stdout, "partial\n");
    let (_, outcome) = run(&sh("kill -TERM $$")).await;
    assert_eq!(outcome.end, RunEnd::Signalled(15));
    assert_eq!(outcome.end.exit_code(), 143);
    let (_, outcome) = run(&Invocation::new("/bin/sleep", ["0"])).await;
    assert!(outcome.end.is_success());
}

#[tokio::test]
async fn a_runtime_only_install_is_flagged() {
    // What .NET 5-7 hosts print (to stderr) when no SDK is installed.
    let net5 = "echo 'It was not possible to find any installed .NET SDKs' >&2; \
                echo '  Did you mean to run .NET SDK commands? Install a .NET SDK from:' >&2; exit 145";
    let (_, outcome) = run(&sh(net5)).await;
    assert!(outcome.sdk_missing);
    assert_eq!(outcome.end, RunEnd::Exited(145));
    // .NET 8 and later.
    let net8 = "printf 'The command could not be loaded, possibly because:\\n  * You intended to execute a .NET \
                SDK command:\\n      No .NET SDKs were found.\\n' >&2; exit 145";
    let (_, outcome) = run(&sh(net8)).await;
    assert!(outcome.sdk_missing);
    // .NET Core 2.1 to 3.1 say ".NET Core SDKs".
    let core3 = "echo 'It was not possible to find any installed .NET Core SDKs' >&2; exit 145";
    let (_, outcome) = run(&sh(core3)).await;
    assert!(outcome.sdk_missing);
    // Whatever a future host prints, its exit code 145 says the SDK could not be resolved.
    let (_, outcome) = run(&sh("echo 'Some new wording about a missing SDK' >&2; exit 145")).await;
    assert!(outcome.sdk_missing);
    let (_, outcome) = run(&sh("echo 'Build succeeded.'")).await;
    assert!(!outcome.sdk_missing);
    let (_, outcome) = run(&sh("echo 'error CS0103' >&2; exit 1")).await;
    assert!(!outcome.sdk_missing);
}

#[tokio::test]
async fn into_redacted_removes_secrets_from_every_text() {
    let (_, outcome) = run(&sh("echo 'Password=hunter2;Server=db'; echo 'token=abc123' >&2")).await;
    let redacted = outcome.into_redacted();
    for text in [&redacted.stdout, &redacted.stderr, &redacted.transcript] {
        assert!(!text.contains("hunter2") && !text.contains("abc123"), "{text}");
        assert!(text.contains("[REDACTED]"));
    }
    assert!(redacted.stdout.contains("Server=db"));
}

#[test]
fn the_run_future_is_send_when_its_inputs_are() {
    fn assert_send<T: Send>(_: T) {}
    let invocation = sh("true");
    assert_send(invocation.run(pending(), |_, _| {}));
}
