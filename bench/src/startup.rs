//! Start-up time of a stdio MCP server: from exec to its `initialize` answer, and to its
//! `tools/list` answer, the way a client sees it.
//!
//! The clock starts just before the process is spawned. The `initialize` request is written at
//! once (it waits in the pipe until the server reads it); `notifications/initialized` and
//! `tools/list` follow the `initialize` answer, as a client sends them. Each start is a fresh
//! process; untimed warm-up starts come first, so the executable and its libraries are in the
//! page cache for every timed start.

use std::{
    process::Stdio,
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

use crate::{
    Result,
    client::{StdioServer, initialize_request, initialized_notification, list_tools_request},
    error, memory,
    stats::median,
};

/// The median, fastest and slowest of repeated timings, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Spread {
    /// Median.
    pub median: f64,
    /// Fastest.
    pub min: f64,
    /// Slowest.
    pub max: f64,
}

impl Spread {
    /// The spread of `values`.
    pub fn of(values: &[f64]) -> Self {
        let mut sorted = values.to_vec();
        Self {
            median: median(&mut sorted),
            min: sorted.first().copied().unwrap_or(0.0),
            max: sorted.last().copied().unwrap_or(0.0),
        }
    }
}

/// One timed start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Exec to the `initialize` answer.
    pub initialize: Duration,
    /// Exec to the `tools/list` answer.
    pub tools_list: Duration,
    /// Tools listed.
    pub tools: usize,
    /// `VmHWM` right after the `tools/list` answer, in kB.
    pub vm_hwm_kb: u64,
}

/// Start-up of one server over repeated starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartupReport {
    /// The server's name in reports.
    pub label: String,
    /// The command line started.
    pub command: String,
    /// Timed starts.
    pub repeat: usize,
    /// Exec to the `initialize` answer.
    pub initialize_ms: Spread,
    /// Exec to the `tools/list` answer.
    pub tools_list_ms: Spread,
    /// Tools listed (the last start's count).
    pub tools: usize,
    /// Median `VmHWM` right after the `tools/list` answer, in kB.
    pub vm_hwm_kb: u64,
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1_000.0
}

/// Starts `command` once, times its handshake and stops it.
pub async fn measure_once(command: &[String], protocol_version: &str) -> Result<Sample> {
    let started = Instant::now();
    let mut server = StdioServer::spawn(command, Stdio::null())?;
    let init = server.request(0, &initialize_request(0, protocol_version)).await?;
    let initialize = started.elapsed();
    if init.get("result").is_none() {
        return Err(error(format!("initialize failed: {init}")));
    }
    server.send(&initialized_notification()).await?;
    let list = server.request(1, &list_tools_request(1)).await?;
    let tools_list = started.elapsed();
    let tools = list.pointer("/result/tools").and_then(serde_json::Value::as_array).map_or(0, Vec::len);
    let vm_hwm_kb = match server.pid() {
        Some(pid) => memory::read(pid)?.vm_hwm_kb,
        None => 0,
    };
    server.shutdown(Duration::from_secs(5)).await?;
    Ok(Sample { initialize, tools_list, tools, vm_hwm_kb })
}

/// Starts `command` `warmup` times untimed, then `repeat` times timed.
pub async fn measure(
    label: &str,
    command: &[String],
    repeat: usize,
    warmup: usize,
    protocol_version: &str,
) -> Result<StartupReport> {
    for _ in 0..warmup {
        measure_once(command, protocol_version).await?;
    }
    let mut samples = Vec::with_capacity(repeat);
    for _ in 0..repeat.max(1) {
        samples.push(measure_once(command, protocol_version).await?);
    }
    let initialize: Vec<f64> = samples.iter().map(|sample| millis(sample.initialize)).collect();
    let tools_list: Vec<f64> = samples.iter().map(|sample| millis(sample.tools_list)).collect();
    let mut hwm: Vec<f64> = samples.iter().map(|sample| sample.vm_hwm_kb as f64).collect();
    Ok(StartupReport {
        label: label.to_owned(),
        command: command.join(" "),
        repeat: samples.len(),
        initialize_ms: Spread::of(&initialize),
        tools_list_ms: Spread::of(&tools_list),
        tools: samples.last().map_or(0, |sample| sample.tools),
        vm_hwm_kb: median(&mut hwm) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_values() {
        assert_eq!(Spread::of(&[3.0, 1.0, 2.0]), Spread { median: 2.0, min: 1.0, max: 3.0 });
        assert_eq!(Spread::of(&[]), Spread::default());
    }
}
