//! What machine the numbers were measured on.

use serde::{Deserialize, Serialize};

/// The machine, as `/proc` describes it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Machine {
    /// Cores available to this process (what `nproc` prints).
    pub cores: usize,
    /// The CPU's model name.
    pub cpu: String,
    /// Total memory in kB.
    pub memory_kb: u64,
    /// The kernel release.
    pub kernel: String,
}

impl Machine {
    /// Describes this machine; fields that cannot be read stay empty.
    pub fn this() -> Self {
        let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
        let cpuinfo = read("/proc/cpuinfo");
        let meminfo = read("/proc/meminfo");
        Self {
            cores: std::thread::available_parallelism().map(usize::from).unwrap_or(0),
            cpu: field(&cpuinfo, "model name").unwrap_or_default(),
            memory_kb: field(&meminfo, "MemTotal")
                .and_then(|value| value.split_whitespace().next()?.parse().ok())
                .unwrap_or(0),
            kernel: read("/proc/sys/kernel/osrelease").trim().to_owned(),
        }
    }
}

/// The value of the first `name : value` line.
fn field(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim().to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields() {
        let cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu\n";
        assert_eq!(field(cpuinfo, "model name").as_deref(), Some("AMD EPYC"));
        assert_eq!(field(cpuinfo, "cache size"), None);
    }

    #[test]
    fn this_machine_has_cores_and_memory() {
        let machine = Machine::this();
        assert!(machine.cores >= 1);
        assert!(machine.memory_kb > 0);
    }
}
