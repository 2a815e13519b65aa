//! Resident memory of a process, from `/proc/PID/status` (Linux).

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
    fn reads_own_process() {
        let memory = read(std::process::id()).expect("own status");
        assert!(memory.vm_hwm_kb >= memory.vm_rss_kb && memory.vm_rss_kb > 0);
    }
}
