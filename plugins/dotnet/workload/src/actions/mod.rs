//! The actions of `dotnet_workload`, by what they do to the SDK installation.

pub mod change;
pub mod list;

/// `1 workload`, `2 workloads`.
fn count(number: usize, noun: &str) -> String {
    if number == 1 { format!("1 {noun}") } else { format!("{number} {noun}s") }
}
