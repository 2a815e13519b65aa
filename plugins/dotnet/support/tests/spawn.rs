//! Background processes ([`Invocation::spawn`]) against real processes (`sh`, `sleep`); no
//! dotnet and no tokio runtime needed. Linux: liveness is read from /proc.
#![cfg(target_os = "linux")]

use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use dotnet_support::{
    runner::{Invocation, RunEnd, Stream},
    testkit::assert_dies,
};

/// Generous bound on anything that should happen at once; only a hang trips it.
const BOUND: Duration = Duration::from_secs(30);

type Lines = Arc<Mutex<Vec<(Stream, String)>>>;

/// Spawns `sh -c script`, collecting its lines; the receiver gets the end once.
fn spawn(script: &str) -> (dotnet_support::runner::Spawned, Lines, mpsc::Receiver<RunEnd>) {
    let lines: Lines = Arc::default();
    let (ended, on_end) = mpsc::channel();
    let sink = Arc::clone(&lines);
    let spawned = Invocation::new("sh", ["-c", script])
        .spawn(
            move |stream, line: &str| sink.lock().unwrap().push((stream, line.to_owned())),
            move |end: &RunEnd| ended.send(end.clone()).unwrap(),
        )
        .expect("sh starts");
    (spawned, lines, on_end)
}

/// Waits for a line that is a PID (the grandchild's).
fn grandchild(lines: &Lines) -> u32 {
    let deadline = Instant::now() + BOUND;
    loop {
        if let Some(pid) = lines.lock().unwrap().iter().find_map(|(_, line)| line.trim().parse().ok()) {
            return pid;
        }
        assert!(Instant::now() < deadline, "no PID was printed");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_session_reports_its_lines_and_its_exit_after_the_last_line() {
    let (spawned, lines, ended) = spawn("echo one; echo two >&2; echo three; exit 3");
    assert_eq!(ended.recv_timeout(BOUND).unwrap(), RunEnd::Exited(3));
    assert_eq!(spawned.wait(BOUND), Some(RunEnd::Exited(3)));
    assert_eq!(spawned.end(), Some(RunEnd::Exited(3)));
    let lines = lines.lock().unwrap().clone();
    let texts: Vec<&str> = lines.iter().map(|(_, line)| line.as_str()).collect();
    assert_eq!(texts.len(), 3);
    assert!(texts.contains(&"one") && texts.contains(&"three"));
    assert!(lines.contains(&(Stream::Stderr, "two".to_owned())));
    // Killing an ended session does nothing and keeps its end.
    spawned.kill();
    assert_eq!(spawned.end(), Some(RunEnd::Exited(3)));
}

#[test]
fn kill_ends_the_whole_tree_as_cancelled() {
    let (spawned, lines, ended) = spawn("sleep 300 & echo $!; wait");
    let sleeper = grandchild(&lines);
    assert_eq!(spawned.end(), None);
    assert_eq!(spawned.wait(Duration::from_millis(50)), None);
    spawned.kill();
    assert_eq!(ended.recv_timeout(BOUND).unwrap(), RunEnd::Cancelled);
    assert_eq!(spawned.wait(BOUND), Some(RunEnd::Cancelled));
    assert_dies(spawned.pid());
    assert_dies(sleeper);
}

#[test]
fn dropping_the_handle_kills_the_tree() {
    let (spawned, lines, ended) = spawn("sleep 300 & echo $!; wait");
    let sleeper = grandchild(&lines);
    let leader = spawned.pid();
    drop(spawned);
    assert_eq!(ended.recv_timeout(BOUND).unwrap(), RunEnd::Cancelled);
    assert_dies(leader);
    assert_dies(sleeper);
}

#[test]
fn what_the_leader_leaves_behind_is_killed_when_it_exits() {
    // The shell exits at once; its background sleep keeps the output pipes open.
    let (spawned, lines, ended) = spawn("sleep 300 & echo $!");
    let sleeper = grandchild(&lines);
    assert_eq!(ended.recv_timeout(BOUND).unwrap(), RunEnd::Exited(0));
    assert_dies(sleeper);
    assert_eq!(spawned.wait(BOUND), Some(RunEnd::Exited(0)));
}

#[test]
fn a_missing_program_or_folder_does_not_start() {
    let missing = Invocation::new("/nonexistent/dotnet", ["--version"]).spawn(|_, _: &str| {}, |_: &RunEnd| {});
    assert!(matches!(missing, Err(RunEnd::ProgramNotFound(_))), "{missing:?}");
    let no_dir = Invocation::new("sh", ["-c", "true"])
        .current_dir("/nonexistent/folder")
        .spawn(|_, _: &str| {}, |_: &RunEnd| {});
    assert!(matches!(no_dir, Err(RunEnd::FailedToStart { .. })), "{no_dir:?}");
}
