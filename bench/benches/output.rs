//! Point 6: throughput of the dotnet plugins' output processing on a generated build log with
//! diagnostics and secrets in it (`mcp_plugin_bench::buildlog`), on one core.
//!
//! * `redact`: `dotnet_support::redact::redact` over the whole log;
//! * `diagnostics`: `dotnet_support::diagnostics::summarize` over its lines;
//! * `pipeline`: both, as a tool's output goes: redact, then summarize the redacted lines.
//!
//! `MCP_BENCH_LOG_LINES` sets the log's length (default 100,000 lines); `MCP_BENCH_QUICK`
//! shortens every measurement (smoke test).

use std::{hint::black_box, time::Duration};

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use dotnet_support::{diagnostics, redact};
use mcp_plugin_bench::buildlog;

fn output(c: &mut Criterion) {
    let lines = std::env::var("MCP_BENCH_LOG_LINES").ok().and_then(|lines| lines.parse().ok()).unwrap_or(100_000);
    let log = buildlog::generate(lines, 0x5eed);

    // The work must be real before its speed means anything.
    let redacted = redact::redact(&log.text);
    for secret in &log.secrets {
        assert!(!redacted.contains(secret.as_str()), "secret {secret} survived redaction");
    }
    let summary = diagnostics::summarize(redacted.lines());
    assert!(summary.error_count > 0 && summary.warning_count > 0, "no diagnostics found");
    eprintln!(
        "build log: {} lines, {:.1} MB, {} diagnostic lines, {} secrets; found {} errors and {} warnings ({} unique)",
        log.lines,
        log.text.len() as f64 / 1e6,
        log.diagnostic_lines,
        log.secrets.len(),
        summary.error_count,
        summary.warning_count,
        summary.errors.len() + summary.warnings.len()
    );

    let mut group = c.benchmark_group("output");
    let quick = std::env::var_os("MCP_BENCH_QUICK").is_some();
    group
        .throughput(Throughput::Bytes(log.text.len() as u64))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(if quick { 100 } else { 1_000 }))
        .measurement_time(Duration::from_millis(if quick { 500 } else { 8_000 }));
    group.bench_function("redact", |b| b.iter(|| redact::redact(black_box(&log.text)).len()));
    group.bench_function("diagnostics", |b| b.iter(|| diagnostics::summarize(black_box(&log.text).lines())));
    group.bench_function("pipeline", |b| {
        b.iter(|| {
            let redacted = redact::redact(black_box(&log.text));
            diagnostics::summarize(redacted.lines())
        })
    });
    group.finish();
}

criterion_group!(benches, output);
criterion_main!(benches);
