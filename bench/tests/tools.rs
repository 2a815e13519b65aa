//! The bench tools end to end, against the floor server: the load generator over stdio and over
//! HTTP, the start-up timer, and the report built from their JSON output.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
};

use mcp_plugin_bench::{
    load::LoadReport,
    report::{self, Inputs},
    startup::StartupReport,
};

const FLOOR: &str = env!("CARGO_BIN_EXE_mcp-floor");
const LOADGEN: &str = env!("CARGO_BIN_EXE_mcp-loadgen");
const STARTUP: &str = env!("CARGO_BIN_EXE_mcp-startup");

fn run_json(program: &str, args: &[&str]) -> String {
    let output = Command::new(program).args(args).output().expect("the tool runs");
    assert!(output.status.success(), "{program} {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn load(args: &[&str]) -> LoadReport {
    let mut all = vec!["--calls", "300", "--warmup", "30", "--duration", "20", "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(run_json(LOADGEN, &all).trim()).expect("a load report")
}

fn check(report: &LoadReport, transport: &str) {
    assert_eq!(report.transport, transport);
    assert_eq!(report.server_name, "mcp-floor");
    assert_eq!(report.calls, 300, "{report:?}");
    assert_eq!(report.errors, 0, "{report:?}");
    assert!(report.calls_per_sec > 0.0);
    assert!(report.latency_us.p50 > 0.0 && report.latency_us.p99 >= report.latency_us.p50);
    let memory = report.memory.expect("the server's memory");
    assert!(memory.loaded.vm_hwm_kb >= memory.idle.vm_hwm_kb && memory.idle.vm_hwm_kb > 0);
}

#[test]
fn load_over_stdio_both_transports_of_the_floor() {
    for extra in [&[][..], &["--blocking-stdio"][..]] {
        let mut args = vec!["--label", "floor", "--concurrency", "8", "--", FLOOR];
        args.extend_from_slice(extra);
        let report = load(&args);
        check(&report, "stdio");
        assert_eq!(report.concurrency, 8);
    }
}

/// Starts the floor on an ephemeral loopback port and returns it with its URL.
fn floor_http() -> (Child, String) {
    let mut child =
        Command::new(FLOOR).args(["--http", "127.0.0.1:0"]).stderr(Stdio::piped()).spawn().expect("the floor starts");
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("stderr")).read_line(&mut line).expect("the floor says where");
    let url = line.trim().rsplit(' ').next().expect("a URL").to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    (child, url)
}

#[test]
fn load_over_http() {
    let (mut child, url) = floor_http();
    let pid = child.id().to_string();
    let report = load(&["--label", "floor", "--concurrency", "4", "--url", &url, "--pid", &pid]);
    child.kill().expect("stopped");
    let _ = child.wait();
    check(&report, "http");
    assert!(report.server_cpu_us_per_call.is_some());
}

#[test]
fn refuses_hosts_off_loopback() {
    let output = Command::new(LOADGEN)
        .args(["--calls", "1", "--url", "http://192.0.2.1:80/mcp", "--wait", "0"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("loopback"), "{output:?}");
}

#[test]
fn startup_and_report() {
    let line = run_json(STARTUP, &["--label", "floor", "--repeat", "3", "--warmup", "0", "--json", "--", FLOOR]);
    let startup: StartupReport = serde_json::from_str(line.trim()).expect("a start-up report");
    assert_eq!((startup.repeat, startup.tools), (3, 1));
    assert!(startup.tools_list_ms.median >= startup.initialize_ms.median);
    assert!(startup.initialize_ms.min > 0.0);

    let run = load(&["--label", "floor", "--", FLOOR]);
    let text = report::render(&Inputs { load: vec![run], startup: vec![startup], ..Inputs::default() });
    assert!(text.contains("| floor | stdio |"), "{text}");
    assert!(text.contains("| floor | 1 | 3 |"), "{text}");
}
