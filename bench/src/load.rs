//! The load generator behind `mcp-loadgen`: pipelined `tools/call` requests of `echo`, at a
//! chosen concurrency, for a bounded number of calls and a bounded time.
//!
//! Concurrency is the number of requests in flight. Over stdio the requests are pipelined on the
//! one connection: the first `concurrency` are written at once, and every response read lets one
//! more go. Over HTTP each in-flight request is its own POST (HTTP/1.1 keeps up to `concurrency`
//! connections alive). A run first sends `warmup` calls that are not measured, then the measured
//! calls, `runs` times over, and reports the run with the median rate; a run stops issuing new
//! calls when its call budget or its time budget is spent and waits for the calls in flight.
//!
//! The generator runs on one thread (a current-thread runtime), so that on a small machine it
//! takes one core and leaves the rest to the server under test.

use std::{
    cell::Cell,
    process::Stdio,
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

use crate::{
    Result,
    client::{DEFAULT_PROTOCOL_VERSION, Handshake, HttpServer, Incoming, Outcome, StdioServer, classify, echo_request},
    error,
    memory::{self, Memory},
    stats::Latency,
};

/// How hard and how long to drive a server.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// A name for the server in reports (`host`, `floor`, `python`...).
    pub label: String,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Measured calls at most.
    pub calls: u64,
    /// Unmeasured calls sent first.
    pub warmup: u64,
    /// The longest the measured phase may run.
    pub duration: Duration,
    /// The text every call echoes.
    pub text: String,
    /// The protocol version to ask for.
    pub protocol_version: String,
    /// How long to wait for an HTTP server to accept connections.
    pub wait: Duration,
    /// Measured runs (each of `calls` calls, after one warm-up); the median one is reported.
    pub runs: usize,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            label: "server".to_owned(),
            concurrency: 16,
            calls: 20_000,
            warmup: 1_000,
            duration: Duration::from_secs(20),
            text: "hello, world".to_owned(),
            protocol_version: DEFAULT_PROTOCOL_VERSION.to_owned(),
            wait: Duration::from_secs(30),
            runs: 1,
        }
    }
}

/// The server's memory before and after the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryReport {
    /// The process measured.
    pub pid: u32,
    /// After the handshake, before any call.
    pub idle: Memory,
    /// After the measured calls.
    pub loaded: Memory,
}

/// What one run of the load generator measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadReport {
    /// The server's name in reports.
    pub label: String,
    /// `stdio` or `http`.
    pub transport: String,
    /// The command line or URL driven.
    pub target: String,
    /// The server's own name, from `initialize`.
    pub server_name: String,
    /// The protocol version the server chose.
    pub protocol_version: String,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// The measured-call budget.
    pub requested_calls: u64,
    /// Measured calls completed.
    pub calls: u64,
    /// Measured calls answered with an error (JSON-RPC error or `isError`).
    pub errors: u64,
    /// The first error's message, if any.
    pub first_error: Option<String>,
    /// Unmeasured calls sent first.
    pub warmup: u64,
    /// Whether the time budget, not the call budget, ended the run.
    pub stopped_by_time: bool,
    /// Wall time of the measured phase.
    pub seconds: f64,
    /// Measured calls per second (of the reported run).
    pub calls_per_sec: f64,
    /// Calls per second of every measured run; the report is the one with the median rate.
    pub runs_calls_per_sec: Vec<f64>,
    /// Latency of the measured calls, request written to response read.
    pub latency_us: Latency,
    /// Bytes of the echoed text.
    pub text_bytes: usize,
    /// The server's memory, when its process id is known.
    pub memory: Option<MemoryReport>,
    /// CPU time (user + system, all threads) the server spent per measured call, in µs, when its
    /// process id is known. On a machine where client and server share few cores this, not
    /// calls per second, is the server's own cost.
    pub server_cpu_us_per_call: Option<f64>,
}

/// What one phase of calls produced.
struct Phase {
    latencies: Vec<u64>,
    errors: u64,
    first_error: Option<String>,
    elapsed: Duration,
    stopped_by_time: bool,
}

impl Phase {
    fn new(calls: u64) -> Self {
        Self {
            latencies: Vec::with_capacity(calls as usize),
            errors: 0,
            first_error: None,
            elapsed: Duration::ZERO,
            stopped_by_time: false,
        }
    }

    fn record(&mut self, nanos: u64, outcome: Outcome) {
        self.latencies.push(nanos);
        let problem = match outcome {
            Outcome::Ok => return,
            Outcome::ToolError(text) => format!("tool error: {text}"),
            Outcome::RpcError(text) => format!("JSON-RPC error: {text}"),
        };
        self.errors += 1;
        self.first_error.get_or_insert(problem);
    }
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

fn check_echo(handshake: &Handshake) -> Result<()> {
    if handshake.tools.iter().any(|tool| tool == "echo") {
        Ok(())
    } else {
        Err(error(format!("the server lists no tool named echo (it lists: {})", handshake.tools.join(", "))))
    }
}

/// Pipelined calls over one stdio connection, ids `first_id..`.
async fn stdio_phase(
    server: &mut StdioServer,
    first_id: u64,
    calls: u64,
    concurrency: usize,
    deadline: Option<Instant>,
    text_json: &str,
) -> Result<Phase> {
    let mut phase = Phase::new(calls);
    let mut sent_at: Vec<Instant> = Vec::with_capacity(calls as usize);
    let started = Instant::now();
    let mut in_flight = 0usize;
    while (sent_at.len() as u64) < calls && in_flight < concurrency.max(1) {
        server.send(&echo_request(first_id + sent_at.len() as u64, text_json)).await?;
        sent_at.push(Instant::now());
        in_flight += 1;
    }
    while in_flight > 0 {
        // Answer every message already read before writing, so that one write carries many
        // requests; but never wait for input with requests still queued.
        if !server.has_buffered_input() {
            server.flush().await?;
        }
        let incoming = classify(server.read_line().await?)?;
        let now = Instant::now();
        let Incoming::Response { id, outcome } = incoming else {
            continue;
        };
        let Some(sent) = id.checked_sub(first_id).and_then(|index| sent_at.get(index as usize)) else {
            return Err(error(format!("the server answered request {id}, which was never sent")));
        };
        phase.record(nanos(now - *sent), outcome);
        in_flight -= 1;
        let out_of_time = deadline.is_some_and(|deadline| now >= deadline);
        phase.stopped_by_time |= out_of_time && (sent_at.len() as u64) < calls;
        if (sent_at.len() as u64) < calls && !out_of_time {
            server.send(&echo_request(first_id + sent_at.len() as u64, text_json)).await?;
            sent_at.push(Instant::now());
            in_flight += 1;
        }
    }
    phase.elapsed = started.elapsed();
    Ok(phase)
}

/// `concurrency` POST loops over one HTTP session, ids `first_id..`.
async fn http_phase(
    server: &HttpServer,
    first_id: u64,
    calls: u64,
    concurrency: usize,
    deadline: Option<Instant>,
    text_json: &str,
) -> Result<Phase> {
    let next = Cell::new(0u64);
    let out_of_time = Cell::new(false);
    let started = Instant::now();
    let worker = || async {
        let mut phase = Phase::new(calls / concurrency.max(1) as u64 + 1);
        loop {
            let index = next.get();
            if index >= calls {
                break;
            }
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                out_of_time.set(true);
                break;
            }
            next.set(index + 1);
            let sent = Instant::now();
            let outcome = server.call_echo(first_id + index, text_json).await?;
            phase.record(nanos(sent.elapsed()), outcome);
        }
        Result::<Phase>::Ok(phase)
    };
    let workers = futures::future::join_all((0..concurrency.max(1)).map(|_| worker())).await;
    let mut phase = Phase::new(calls);
    for worker in workers {
        let worker = worker?;
        phase.latencies.extend(worker.latencies);
        phase.errors += worker.errors;
        if phase.first_error.is_none() {
            phase.first_error = worker.first_error;
        }
    }
    phase.elapsed = started.elapsed();
    phase.stopped_by_time = out_of_time.get();
    Ok(phase)
}

/// One way of sending calls.
enum Driver<'a> {
    Stdio(&'a mut StdioServer),
    Http(&'a HttpServer),
}

impl Driver<'_> {
    async fn phase(
        &mut self,
        first_id: u64,
        calls: u64,
        concurrency: usize,
        deadline: Option<Instant>,
        text_json: &str,
    ) -> Result<Phase> {
        match self {
            Driver::Stdio(server) => stdio_phase(server, first_id, calls, concurrency, deadline, text_json).await,
            Driver::Http(server) => http_phase(server, first_id, calls, concurrency, deadline, text_json).await,
        }
    }
}

/// Memory after a short settle, so that idle means idle.
async fn settled_memory(pid: Option<u32>) -> Result<Option<(u32, Memory)>> {
    let Some(pid) = pid else {
        return Ok(None);
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(Some((pid, memory::read(pid)?)))
}

/// Warm-up, then `options.runs` measured phases; the report is the phase with the median rate.
async fn drive(
    mut driver: Driver<'_>,
    pid: Option<u32>,
    transport: &str,
    target: String,
    handshake: Handshake,
    options: &LoadOptions,
) -> Result<LoadReport> {
    let text_json = serde_json::to_string(&options.text)?;
    let idle = settled_memory(pid).await?;
    let mut next_id = 2;
    let warmup = driver.phase(next_id, options.warmup, options.concurrency, None, &text_json).await?;
    if let Some(problem) = warmup.first_error {
        return Err(error(format!("the warm-up calls failed: {problem}")));
    }
    next_id += options.warmup;
    let mut runs = Vec::new();
    for _ in 0..options.runs.max(1) {
        let cpu_before = pid.map(memory::cpu_seconds).transpose()?;
        let deadline = Instant::now() + options.duration;
        let phase = driver.phase(next_id, options.calls, options.concurrency, Some(deadline), &text_json).await?;
        let cpu = match (pid, cpu_before) {
            (Some(pid), Some(before)) => Some(memory::cpu_seconds(pid)? - before),
            _ => None,
        };
        next_id += options.calls;
        runs.push((phase, cpu));
    }
    let loaded = idle.map(|(pid, idle)| memory::read(pid).map(|loaded| MemoryReport { pid, idle, loaded }));
    let memory = loaded.transpose()?;
    let rate = |phase: &Phase| phase.latencies.len() as f64 / phase.elapsed.as_secs_f64().max(1e-9);
    let mut rates: Vec<f64> = runs.iter().map(|(phase, _)| rate(phase)).collect();
    runs.sort_by(|(a, _), (b, _)| rate(a).total_cmp(&rate(b)));
    let (mut phase, cpu) = runs.swap_remove(runs.len() / 2);
    rates.iter_mut().for_each(|rate| *rate = rate.round());
    let calls = phase.latencies.len() as u64;
    let seconds = phase.elapsed.as_secs_f64();
    Ok(LoadReport {
        label: options.label.clone(),
        transport: transport.to_owned(),
        target,
        server_name: handshake.server_name,
        protocol_version: handshake.protocol_version,
        concurrency: options.concurrency,
        requested_calls: options.calls,
        calls,
        errors: phase.errors,
        first_error: phase.first_error.take(),
        warmup: options.warmup,
        stopped_by_time: phase.stopped_by_time,
        seconds,
        calls_per_sec: rate(&phase),
        runs_calls_per_sec: rates,
        latency_us: Latency::from_nanos(&mut phase.latencies),
        text_bytes: options.text.len(),
        memory,
        server_cpu_us_per_call: cpu.filter(|_| calls > 0).map(|cpu| cpu * 1e6 / calls as f64),
    })
}

/// Starts `command`, drives it over stdio and stops it. Its stderr goes to `stderr`.
pub async fn run_stdio(command: &[String], stderr: Stdio, options: &LoadOptions) -> Result<LoadReport> {
    let mut server = StdioServer::spawn(command, stderr)?;
    let handshake = server.handshake(&options.protocol_version).await?;
    check_echo(&handshake)?;
    let pid = server.pid();
    let report = drive(Driver::Stdio(&mut server), pid, "stdio", command.join(" "), handshake, options).await;
    server.shutdown(Duration::from_secs(5)).await?;
    report
}

/// Drives the streamable HTTP endpoint `url` (loopback only). When `pid` is given, the memory
/// and CPU time of that process are reported too.
pub async fn run_http(url: &str, pid: Option<u32>, options: &LoadOptions) -> Result<LoadReport> {
    let mut server = HttpServer::new(url, options.concurrency).await?;
    let handshake = server.handshake(&options.protocol_version, options.wait).await?;
    check_echo(&handshake)?;
    let target = server.url().to_string();
    let report = drive(Driver::Http(&server), pid, "http", target, handshake, options).await;
    server.close().await;
    report
}
