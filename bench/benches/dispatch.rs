//! Point 1: one `echo` call through the plugin ABI against the same echo compiled in.
//!
//! libsample.so is loaded with the host library's own loader (`Library::open`, `create`) and
//! called through `PluginBackend::call` with a minimal `CallSession`, exactly as the host calls
//! it, minus MCP. The benches (see `mcp_plugin_bench::report` for the table):
//!
//! * `native`: the floor's echo, arguments map → rmcp `CallToolResult`;
//! * `compiled_tool`: the sample plugin's `Echo` compiled in, `Value` → `ToolResult`;
//! * `compiled_json`: the same with the JSON text contract the ABI uses, text → text;
//! * `abi`: through the library: text → FFI future → text, polled on the plugin's own call threads
//!   as the host polls it in process;
//! * `abi_inline`: the same polled by the caller (`CallThreads::inline`), as a worker process polls
//!   its plugin: the difference to `abi` is the hand-over to the plugin's threads and back;
//! * `abi_host_path`: what the host does around it: `Value` → text → `abi` → rmcp `CallToolResult`;
//! * `lookup`: how a call finds its tool: the generation in force (swapped whole on reload) and the
//!   registry's name lookup;
//! * `record_off`, `record_logged`, `record_metrics`: what the host adds to each call to record it
//!   (`telemetry::CallRecord`, start and finish): with no subscriber and no metrics; with the host's
//!   default log (`info`, text) written to a sink; and with the metrics of an HTTP host (the
//!   Prometheus reader) on top.
//!
//! The library is looked for in `MCP_BENCH_PLUGIN_DIR`, else in `target/release` of the
//! workspace. Build the workspace first (`cargo build --release --workspace`); `scripts/bench`
//! does. `MCP_BENCH_QUICK` shortens every measurement (smoke test).

use std::{hint::black_box, path::PathBuf, sync::Arc, time::Duration};

use criterion::{Criterion, criterion_group, criterion_main};
use futures::future::BoxFuture;
use mcp_plugin_api::{Tool, testkit::TestCall};
use mcp_plugin_host::{
    locks::LockTable,
    logging::{self, PluginLog},
    plugin::{
        CallSession, ClientRequestError, Level, PluginBackend, RequestKind, Requested, dylib::Library, link::HostLink,
        threads::CallThreads,
    },
    registry::{Registry, ToolEntry},
    settings::{Overrides, Settings},
    state::{Generation, HostState, ResourceUpdates},
    telemetry::{self, CallRecord, Transport, call::Request},
};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, RequestId};
use sample::Echo;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

/// The least a call session can be: nothing to report to, never cancelled.
struct QuietSession {
    requested: Requested,
    cancel: CancellationToken,
}

impl CallSession for QuietSession {
    fn requested(&self) -> &Requested {
        &self.requested
    }

    fn progress(&self, _progress: f64, _total: Option<f64>, _message: Option<String>) {}

    fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    fn features(&self) -> &[String] {
        &[]
    }

    fn log(&self, _level: Level, _message: &str) {}

    fn client_request(&self, method: String, _params: Value) -> BoxFuture<'static, Result<Value, ClientRequestError>> {
        Box::pin(std::future::ready(Err(ClientRequestError::Unsupported(method))))
    }
}

fn plugin_library() -> PathBuf {
    let dir = std::env::var_os("MCP_BENCH_PLUGIN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release")));
    let file = format!("{}sample{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    let path = dir.join(&file);
    assert!(
        path.is_file(),
        "{} not found: build the workspace (cargo build --release --workspace) or set MCP_BENCH_PLUGIN_DIR",
        path.display()
    );
    path
}

fn dispatch(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let library = Library::open(&plugin_library()).expect("libsample loads");
    let link = || HostLink {
        plugin: "sample".to_owned(),
        config: json!({}),
        shared: Arc::new(Map::new()),
        log: PluginLog::new("sample"),
        locks: Arc::new(LockTable::default()),
        runtime: runtime.handle().clone(),
        catalog: Arc::default(),
        updates: ResourceUpdates::default(),
        relist: None,
    };
    let plugin: Arc<dyn PluginBackend> =
        Arc::new(library.create(link(), CallThreads::new("sample")).expect("the sample plugin starts"));
    let inline = library.create(link(), CallThreads::inline("sample")).expect("the sample plugin starts");
    let descriptors = plugin.tools().expect("the sample plugin lists its tools");
    let echo_index = descriptors
        .iter()
        .position(|tool| serde_json::from_str::<Value>(tool.get()).is_ok_and(|tool| tool["name"] == "echo"))
        .expect("the sample plugin has echo") as u32;
    let state = host_state(&plugin, echo_index, &descriptors[echo_index as usize]);
    let requested = Requested { kind: RequestKind::Tool, item: "echo".to_owned() };
    let session: Arc<dyn CallSession> = Arc::new(QuietSession { requested, cancel: CancellationToken::new() });
    let arguments = json!({ "text": "hello, world" });
    let arguments_text = arguments.to_string();
    let arguments_map = arguments.as_object().cloned().expect("an object");
    let kit = TestCall::new();

    // Every path must give the same answer before its time means anything.
    let through_abi = runtime
        .block_on(plugin.call(echo_index, arguments_text.clone(), Arc::clone(&session)))
        .expect("the plugin answers");
    let compiled = runtime.block_on(Echo.call(arguments.clone(), kit.context())).expect("echo answers");
    assert_eq!(
        serde_json::from_str::<Value>(&through_abi).expect("JSON"),
        serde_json::to_value(&compiled).expect("JSON"),
        "the plugin and the compiled-in tool disagree"
    );

    let mut group = c.benchmark_group("dispatch");
    if std::env::var_os("MCP_BENCH_QUICK").is_some() {
        group.warm_up_time(Duration::from_millis(100)).measurement_time(Duration::from_millis(300)).sample_size(10);
    } else {
        group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    }
    group.bench_function("native", |b| {
        b.iter(|| mcp_plugin_bench::floor::echo(Some(black_box(&arguments_map))).expect("echo"))
    });
    group.bench_function("compiled_tool", |b| {
        b.to_async(&runtime).iter(|| async { Echo.call(black_box(arguments.clone()), kit.context()).await })
    });
    group.bench_function("compiled_json", |b| {
        b.to_async(&runtime).iter(|| async {
            let args: Value = serde_json::from_str(black_box(&arguments_text)).expect("JSON");
            let result = Echo.call(args, kit.context()).await.expect("echo");
            serde_json::to_string(&result).expect("JSON")
        })
    });
    group.bench_function("abi", |b| {
        b.to_async(&runtime).iter(|| plugin.call(echo_index, black_box(arguments_text.clone()), Arc::clone(&session)))
    });
    group.bench_function("abi_inline", |b| {
        b.to_async(&runtime).iter(|| inline.call(echo_index, black_box(arguments_text.clone()), Arc::clone(&session)))
    });
    group.bench_function("abi_host_path", |b| {
        b.to_async(&runtime).iter(|| async {
            let text = black_box(&arguments).to_string();
            let answer = plugin.call(echo_index, text, Arc::clone(&session)).await.expect("the plugin answers");
            serde_json::from_str::<CallToolResult>(&answer).expect("a CallToolResult")
        })
    });
    group.bench_function("lookup", |b| {
        b.iter(|| state.peek(|current| current.registry.get(black_box("echo")).cloned()).expect("echo is served"))
    });

    let entry = state.peek(|current| current.registry.get("echo").cloned()).expect("echo is served");
    let settings = state.peek(|current| current.settings.clone());
    let (id, meta) = (RequestId::Number(7), JsonObject::new());
    let request = Request { id: &id, meta: &meta, session: None, protocol: Some("2025-06-18") };
    let answer = CallToolResult::success(vec![ContentBlock::text("hello, world")]);
    let record = |b: &mut criterion::Bencher| b.iter(|| CallRecord::start(&entry, &request).finish(black_box(&answer)));
    group.bench_function("record_off", record);
    let log = logging::subscriber(&settings.host, std::io::sink).expect("the default log filter parses");
    tracing::subscriber::with_default(log, || {
        group.bench_function("record_logged", record);
        // Process-wide from here on: the last bench of the process.
        let _telemetry = telemetry::init(&settings, Transport::Http).expect("metrics start");
        group.bench_function("record_metrics", record);
    });
    group.finish();
}

/// A host serving the sample plugin's echo under the default configuration.
fn host_state(plugin: &Arc<dyn PluginBackend>, index: u32, descriptor: &serde_json::value::RawValue) -> HostState {
    let config = std::env::temp_dir().join(format!("mcp-bench-dispatch-{}.json", std::process::id()));
    std::fs::write(&config, "{}").expect("a scratch configuration file");
    let settings = Settings::load_with_env(&config, &Overrides::default(), []).expect("the defaults load");
    let _ = std::fs::remove_file(&config);
    let mut registry = Registry::default();
    let tool = ToolEntry::parse(descriptor).expect("echo's descriptor parses");
    registry.insert(ToolEntry::new(Arc::clone(plugin), index, tool, Map::new()));
    HostState::new(
        Generation { settings, registry, reports: Vec::new(), problems: Vec::new() },
        ResourceUpdates::default(),
    )
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
