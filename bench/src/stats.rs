//! Latency quantiles and medians.
//!
//! The load generator keeps every latency of a run in a `Vec<u64>` of nanoseconds and sorts it
//! once at the end, rather than recording into an HDR histogram. A run is bounded by its call
//! count, so the memory is known up front (8 bytes a call, reserved before the run: one million
//! calls are 8 MB in the load generator, never in the server under test), recording is a push
//! into reserved memory, and the quantiles are exact instead of rounded to a histogram bucket.

use serde::{Deserialize, Serialize};

/// Latency quantiles of one run, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Latency {
    /// Fastest call.
    pub min: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Slowest call.
    pub max: f64,
}

impl Latency {
    /// Summarizes latencies given in nanoseconds (sorting them in place); all zero when empty.
    pub fn from_nanos(samples: &mut [u64]) -> Self {
        if samples.is_empty() {
            return Self::default();
        }
        samples.sort_unstable();
        let micros = |nanos: u64| nanos as f64 / 1_000.0;
        let total: u128 = samples.iter().map(|&sample| u128::from(sample)).sum();
        Self {
            min: micros(samples[0]),
            mean: total as f64 / samples.len() as f64 / 1_000.0,
            p50: micros(quantile(samples, 0.50)),
            p90: micros(quantile(samples, 0.90)),
            p99: micros(quantile(samples, 0.99)),
            max: micros(samples[samples.len() - 1]),
        }
    }
}

/// The nearest-rank quantile `q` (0–1) of sorted, non-empty samples.
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The median of `values` (sorting them in place); the mean of the middle two for an even count,
/// zero when empty.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 { values[middle] } else { (values[middle - 1] + values[middle]) / 2.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let mut samples: Vec<u64> = (1..=100).rev().map(|n| n * 1_000).collect();
        let latency = Latency::from_nanos(&mut samples);
        assert_eq!(latency.min, 1.0);
        assert_eq!(latency.p50, 50.0);
        assert_eq!(latency.p90, 90.0);
        assert_eq!(latency.p99, 99.0);
        assert_eq!(latency.max, 100.0);
        assert_eq!(latency.mean, 50.5);
    }

    #[test]
    fn one_sample_is_every_quantile() {
        let latency = Latency::from_nanos(&mut [2_500]);
        assert_eq!((latency.min, latency.p50, latency.p99, latency.max), (2.5, 2.5, 2.5, 2.5));
    }

    #[test]
    fn empty_is_zero() {
        assert_eq!(Latency::from_nanos(&mut []), Latency::default());
        assert_eq!(median(&mut []), 0.0);
    }

    #[test]
    fn medians() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
