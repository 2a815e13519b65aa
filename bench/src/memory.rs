//! Resident memory and CPU time of a process, from `/proc/PID/status` and `/proc/PID/stat` (Linux).

use serde::{Deserialize, Serialize};

use crate::{Result, error};

/// A process's resident set, in kB (1024 bytes, as the kernel prints it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Memory {
    /// `VmHWM`: the peak resident set since the process started.
    pub vm_hwm_kb: u64,
    /// `VmRSS`: the resident set now.
    pub vm_rss_kb: u64,
}

/// Reads the memory of process `pid`.
pub fn read(pid: u32) -> Result<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|cause| error(format!("cannot read /proc/{pid}/status: {cause}")))?;
    parse(&status).ok_or_else(|| error(format!("/proc/{pid}/status has no VmHWM/VmRSS lines")))
}

/// Reads `VmHWM` and `VmRSS` from the text of a `/proc/PID/status` file.
pub fn parse(status: &str) -> Option<Memory> {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|value| value.split_whitespace().next()?.parse::<u64>().ok())
    };
    Some(Memory { vm_hwm_kb: field("VmHWM")?, vm_rss_kb: field("VmRSS")? })
}

/// The CPU time (user + system) process `pid` has used so far, in seconds.
///
/// `/proc/PID/stat` counts in clock ticks of `USER_HZ`, which is 100 on every Linux
/// architecture this runs on; the resolution is therefore 10 ms.
pub fn cpu_seconds(pid: u32) -> Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|cause| error(format!("cannot read /proc/{pid}/stat: {cause}")))?;
    parse_cpu_ticks(&stat)
        .map(|ticks| ticks as f64 / 100.0)
        .ok_or_else(|| error(format!("/proc/{pid}/stat has no utime/stime fields")))
}

/// `utime + stime` in clock ticks from the text of a `/proc/PID/stat` file.
pub fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    // The command name is in parentheses and may hold spaces: count fields after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name come state (field 3) ... utime (field 14) and stime (field 15).
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status() {
        let status = "Name:\tcat\nVmPeak:\t  8000 kB\nVmHWM:\t    1234 kB\nVmRSS:\t    1000 kB\nThreads:\t1\n";
        assert_eq!(parse(status), Some(Memory { vm_hwm_kb: 1234, vm_rss_kb: 1000 }));
        assert_eq!(parse("Name:\tzombie\n"), None);
    }

    #[test]
    fn parses_stat() {
        let stat = "1234 (tokio rt) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 9 0 100 1000 500";
        assert_eq!(parse_cpu_ticks(stat), Some(281));
        assert_eq!(parse_cpu_ticks("garbage"), None);
    }

    #[test]
    fn reads_own_process() {
        assert!(cpu_seconds(std::process::id()).expect("own stat") >= 0.0);
        let memory = read(std::process::id()).expect("own status");
        assert!(memory.vm_hwm_kb >= memory.vm_rss_kb && memory.vm_rss_kb > 0);
    }
}
