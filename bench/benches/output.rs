//! Point 6: throughput of the dotnet plugins' output processing on a generated build log with
//! diagnostics and secrets in it (`mcp_plugin_bench::buildlog`), on one core.
//!
//! * `redact`: `dotnet_support::redact::redact` over the whole log;
//! * `diagnostics`: `dotnet_support::diagnostics::summarize` over its lines;
//! * `pipeline`: both, as a tool's output goes: redact, then summarize the redacted lines;
//! * `redact_known`: `redact` again with 50 known secret values installed (the known-value layer
//!   of `redact::known`, each value searched with its encodings): 10 of the log's planted secrets
//!   and 40 values that do not occur, as a developer's machine would hold them. Measured last,
//!   because the installed values stay for the rest of the process.
//!
//! `MCP_BENCH_LOG_LINES` sets the log's length (default 100,000 lines); `MCP_BENCH_QUICK`
//! shortens every measurement (smoke test).

use std::{hint::black_box, time::Duration};

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use dotnet_support::{diagnostics, redact, redact::known::Secret};
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
    let mut known: Vec<Secret> = log.secrets.iter().take(10).map(|value| Secret::value(value.as_str())).collect();
    known.extend((0..40u64).map(|i| {
        let mixed = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed;
        Secret::password(format!("user{i}"), format!("Kv{mixed:016x}!{i}"))
    }));
    redact::known::install(redact::known::KnownValues::new(&known));
    group.bench_function("redact_known", |b| b.iter(|| redact::redact(black_box(&log.text)).len()));
    group.finish();
}

criterion_group!(benches, output);
criterion_main!(benches);
