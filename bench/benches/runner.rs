//! Issue 21, point 2: what the dotnet plugins' runner (`dotnet_support::runner::Invocation::run`)
//! costs on top of starting the same program plainly, inside the window the runner times.
//!
//! For each program, the ways of running it are taken in turn, one run of each per round, in a
//! new random order every round (so a burst of load from the rest of the machine hits every way
//! alike), and each run is timed from the call to its outcome:
//!
//! * `std`: `std::process::Command::output()`, what a terminal-like spawn costs;
//! * `tokio`: `tokio::process::Command::output()`, the same through the runtime's reactor;
//! * `run`: `Invocation::run` (process group, parent-death signal, line collection, env pins);
//! * `run+servers`: the same with `keep_build_servers(true)` (pidfd exit watch, then the group's
//!   `/proc` scan by `servers::settle` before the leader is reaped).
//!
//! Programs: `/bin/true`; a shell printing 30 lines; `dotnet --version` (when a `dotnet` is on
//! `PATH`); a shell that leaves a 50 ms `sleep` holding the pipes behind it (the drain and the
//! settle). `settle` alone (a `/proc` scan for a group that has no member) is timed as well. Every
//! async way runs on a runtime like a plugin's (multi-thread, one worker).
//!
//! Prints min, median and p90 in milliseconds per way and program. `MCP_BENCH_RUNS` sets the
//! rounds (default 200; `dotnet` gets a fifth of them, at least 5); `MCP_BENCH_QUICK` makes it 5.

use std::{future::pending, process::Stdio, time::Instant};

use dotnet_support::runner::Invocation;

/// One way of running a program; returns the nanoseconds it took.
type Way = fn(&tokio::runtime::Runtime, &[&str]) -> u64;

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks programs by name.
    let filter: Vec<String> = std::env::args().skip(1).filter(|arg| !arg.starts_with("--")).collect();
    let quick = std::env::var_os("MCP_BENCH_QUICK").is_some();
    let rounds: usize = match std::env::var("MCP_BENCH_RUNS").ok().and_then(|runs| runs.parse().ok()) {
        Some(runs) => runs,
        None if quick => 5,
        None => 200,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime like a plugin's");
    let ways: [(&str, Way); 4] =
        [("std", std_output), ("tokio", tokio_output), ("run", run_off), ("run+servers", run_on)];
    let printer = "for i in $(seq 30); do echo line $i; done";
    let leaver = "sleep 0.05 & echo started";
    let mut programs: Vec<(&str, Vec<&str>, usize)> = vec![
        ("true", vec!["/bin/true"], rounds),
        ("30 lines", vec!["sh", "-c", printer], rounds),
        ("grandchild 50 ms", vec!["sh", "-c", leaver], rounds),
    ];
    if which_dotnet() {
        programs.push(("dotnet --version", vec!["dotnet", "--version"], (rounds / 5).max(5)));
    } else {
        eprintln!("runner bench: no dotnet on PATH, `dotnet --version` left out");
    }
    println!("| program | way | runs | min, ms | median, ms | p90, ms |");
    println!("|---|---|---:|---:|---:|---:|");
    let mut seed = 0x5eed_u64;
    for (name, command, rounds) in programs {
        if !filter.is_empty() && !filter.iter().any(|wanted| name.contains(wanted.as_str())) {
            continue;
        }
        // The work must be real: every way sees the program succeed.
        for (way, run) in ways {
            assert!(run(&runtime, &command) > 0, "{way} of {name} took no time");
        }
        let mut samples: Vec<Vec<u64>> = vec![Vec::with_capacity(rounds); ways.len()];
        let mut order: Vec<usize> = (0..ways.len()).collect();
        for _ in 0..rounds {
            shuffle(&mut order, &mut seed);
            for &way in &order {
                samples[way].push((ways[way].1)(&runtime, &command));
            }
        }
        for ((way, _), samples) in ways.iter().zip(&mut samples) {
            row(name, way, samples);
        }
    }
    let mut scans: Vec<u64> = (0..rounds)
        .map(|_| {
            let started = Instant::now();
            // A group id no process has: our own id, which heads no group here (cargo's does).
            dotnet_support::servers::settle(std::process::id());
            started.elapsed().as_nanos() as u64
        })
        .collect();
    row("(none)", "settle alone", &mut scans);
}

fn row(program: &str, way: &str, samples: &mut [u64]) {
    samples.sort_unstable();
    let ms = |nanos: u64| nanos as f64 / 1e6;
    println!(
        "| {program} | {way} | {} | {:.2} | {:.2} | {:.2} |",
        samples.len(),
        ms(samples[0]),
        ms(mcp_plugin_bench::stats::quantile(samples, 0.5)),
        ms(mcp_plugin_bench::stats::quantile(samples, 0.9)),
    );
}

/// A Fisher-Yates shuffle driven by a xorshift generator (no crate for it).
fn shuffle(order: &mut [usize], seed: &mut u64) {
    for i in (1..order.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        order.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}

fn which_dotnet() -> bool {
    std::process::Command::new("dotnet").arg("--version").output().is_ok_and(|out| out.status.success())
}

fn std_output(_: &tokio::runtime::Runtime, command: &[&str]) -> u64 {
    let started = Instant::now();
    let out = std::process::Command::new(command[0]).args(&command[1..]).stdin(Stdio::null()).output();
    let nanos = started.elapsed().as_nanos() as u64;
    assert!(out.expect("std spawn").status.success());
    nanos
}

fn tokio_output(runtime: &tokio::runtime::Runtime, command: &[&str]) -> u64 {
    let mut plain = tokio::process::Command::new(command[0]);
    plain.args(&command[1..]).stdin(Stdio::null());
    let task = runtime.spawn(async move {
        let started = Instant::now();
        let out = plain.output().await;
        (started.elapsed().as_nanos() as u64, out)
    });
    let (nanos, out) = runtime.block_on(task).expect("the spawn's task");
    assert!(out.expect("tokio spawn").status.success());
    nanos
}

fn run_off(runtime: &tokio::runtime::Runtime, command: &[&str]) -> u64 {
    invocation(runtime, command, false)
}

fn run_on(runtime: &tokio::runtime::Runtime, command: &[&str]) -> u64 {
    invocation(runtime, command, true)
}

fn invocation(runtime: &tokio::runtime::Runtime, command: &[&str], keep_build_servers: bool) -> u64 {
    let invocation = Invocation::new(command[0], command[1..].iter().copied()).keep_build_servers(keep_build_servers);
    // Spawned onto the worker, as a plugin's call runs, and awaited from here.
    let task = runtime.spawn(async move {
        let started = Instant::now();
        let outcome = invocation.run(pending(), |_, _| {}).await;
        (started.elapsed().as_nanos() as u64, outcome)
    });
    let (nanos, outcome) = runtime.block_on(task).expect("the run's task");
    assert!(outcome.end.is_success(), "{:?}: {}", outcome.end, outcome.stderr);
    nanos
}
