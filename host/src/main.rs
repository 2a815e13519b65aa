//! `mcp-plugin-host`: an MCP server whose tools are plugins.
//!
//! `mcp-plugin-host --config appsettings.json` serves over stdio;
//! `--http 127.0.0.1:8080` serves streamable HTTP at `/mcp`;
//! `plugins` lists what was found; `check` validates and exits non-zero on
//! any problem; `init` writes a starting configuration; `client-config`
//! prints what an MCP client needs to start this installation.

use std::{io::IsTerminal, net::SocketAddr, path::PathBuf, process::ExitCode, sync::Arc};

use clap::{Args, Parser, Subcommand};
use rmcp::ServiceExt;

use mcp_plugin_host::{
    cli::{
        check,
        client_config::{self, Client},
        init,
        locate::{self, Candidates},
        lock, report,
    },
    config_schema, fatal, http,
    locks::LockTable,
    logging,
    plugin::{
        copies,
        discovery::{self, Discovery},
        load::{Loading, Shared},
        report::PluginStatus,
    },
    reload::{Inbox, Reloader},
    server::McpServer,
    settings::{Overrides, Settings},
    state::{Generation, HostState},
    status::serving_hosts,
    stdio::LineTransport,
    streams::{self, ProtocolStdout},
    telemetry::{self, Transport},
    trust::Trust,
};

/// An MCP server that loads its tools from plugin libraries.
///
/// Without a command it serves, and takes the flags of `serve`.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,

    #[command(subcommand)]
    command: Option<Command>,
}

/// Which configuration file.
#[derive(Debug, Clone, Default, Args)]
struct ConfigArg {
    /// The configuration file [default: $MCP_PLUGIN_HOST_CONFIG, else ./appsettings.json, else
    /// appsettings.json in the user's configuration folder].
    #[arg(long, short)]
    config: Option<PathBuf>,
}

/// What every command that loads plugins reads.
#[derive(Debug, Clone, Default, Args)]
struct LoadArgs {
    #[command(flatten)]
    config: ConfigArg,

    /// Folder with plugin libraries (overrides Plugins.Directory).
    #[arg(long)]
    plugin_dir: Option<PathBuf>,

    /// Log filter, e.g. `info` or `info,plugin::sample=debug` (overrides Host.LogLevel; RUST_LOG wins over both).
    #[arg(long)]
    log_level: Option<String>,
}

/// What serving reads besides.
#[derive(Debug, Clone, Default, Args)]
struct ServeArgs {
    #[command(flatten)]
    load: LoadArgs,

    /// The server name given to clients (overrides Host.ServerName).
    #[arg(long)]
    server_name: Option<String>,

    /// Longest a tool call may run, in seconds; 0 for no limit (overrides Host.ToolTimeoutSeconds).
    #[arg(long)]
    tool_timeout: Option<u64>,

    /// Serve streamable HTTP instead of stdio, at this address or Http.Address.
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    http: Option<String>,
}

#[derive(Debug, Subcommand)]
enum PluginsAction {
    /// Pin every library in the plugin folder (SHA-256, identity, offered surface) in the lock file
    /// (Plugins.LockFile, default plugins.lock.json beside the configuration), printing what changed.
    Lock,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve MCP (the default).
    Serve(ServeArgs),
    /// List the plugin libraries found, with their status and tools.
    Plugins {
        #[command(flatten)]
        load: LoadArgs,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
        #[command(subcommand)]
        action: Option<PluginsAction>,
    },
    /// Validate the configuration and every plugin; exit non-zero on any problem.
    Check(LoadArgs),
    /// Write a commented starting configuration to the user's configuration folder (or to
    /// --config FILE); never overwrites.
    Init {
        #[command(flatten)]
        config: ConfigArg,
        /// The plugin folder it names [default: `plugins` beside this executable when there is
        /// one, else `plugins` beside the configuration, created empty].
        #[arg(long, value_name = "DIR", alias = "plugins")]
        plugin_dir: Option<PathBuf>,
    },
    /// Print the JSON Schema of appsettings.json (what editors complete and check keys with).
    ConfigSchema,
    /// Print what an MCP client needs to start (or reach) this installation, in its own shape.
    ClientConfig {
        #[command(flatten)]
        config: ConfigArg,
        /// The client.
        #[arg(long, value_enum)]
        client: Client,
        /// Reach a running `mcp-plugin-host --http` at this URL instead of starting it over stdio.
        #[arg(long, value_name = "URL")]
        http: Option<String>,
        /// The environment variable holding the bearer token the client sends over HTTP.
        #[arg(long, value_name = "VAR", requires = "http")]
        token_env: Option<String>,
        /// The server's name in the client's configuration.
        #[arg(long, default_value = "mcp-plugin-host")]
        name: String,
    },
    /// Serve one plugin library to the host that started it (Plugins.Isolation: process); the
    /// host starts it, never a person.
    #[command(hide = true)]
    PluginWorker {
        /// The host's process id: the worker ends when that process does.
        #[arg(long)]
        parent_pid: u32,
    },
}

impl Command {
    /// The command's name, for messages.
    fn name(&self) -> &'static str {
        match self {
            Command::Serve(_) => "serve",
            Command::Plugins { action: Some(PluginsAction::Lock), .. } => "plugins lock",
            Command::Plugins { .. } => "plugins",
            Command::Check(_) => "check",
            Command::Init { .. } => "init",
            Command::ConfigSchema => "config-schema",
            Command::ClientConfig { .. } => "client-config",
            Command::PluginWorker { .. } => "plugin-worker",
        }
    }
}

impl Cli {
    /// The command to run, with the flags given before it merged into its own (a flag given after
    /// the command wins); a flag given before a command that does not take it is refused, since it
    /// would do nothing.
    fn command(self) -> Result<Command, String> {
        let top = self.serve;
        let Some(mut command) = self.command else { return Ok(Command::Serve(top)) };
        let serving = matches!(command, Command::Serve(_));
        let initialising = matches!(command, Command::Init { .. });
        let mut unused = Vec::new();
        let mut take = |given: bool, flag: &'static str, taken: bool| {
            if given && !taken {
                unused.push(flag);
            }
        };
        let (load, config): (Option<&mut LoadArgs>, Option<&mut ConfigArg>) = match &mut command {
            Command::Serve(serve) => {
                serve.server_name = serve.server_name.take().or(top.server_name.clone());
                serve.tool_timeout = serve.tool_timeout.or(top.tool_timeout);
                serve.http = serve.http.take().or(top.http.clone());
                (Some(&mut serve.load), None)
            }
            Command::Plugins { load, .. } | Command::Check(load) => (Some(load), None),
            Command::Init { config, plugin_dir } => {
                *plugin_dir = plugin_dir.take().or(top.load.plugin_dir.clone());
                (None, Some(config))
            }
            Command::ClientConfig { config, .. } => (None, Some(config)),
            Command::ConfigSchema | Command::PluginWorker { .. } => (None, None),
        };
        let (loads, named_config) = (load.is_some(), load.is_some() || config.is_some());
        let plugin_dir_taken = loads || initialising;
        if let Some(load) = load {
            load.config.config = load.config.config.take().or(top.load.config.config.clone());
            load.plugin_dir = load.plugin_dir.take().or(top.load.plugin_dir.clone());
            load.log_level = load.log_level.take().or(top.load.log_level.clone());
        } else if let Some(config) = config {
            config.config = config.config.take().or(top.load.config.config.clone());
        }
        take(top.load.config.config.is_some(), "--config", named_config);
        take(top.load.plugin_dir.is_some(), "--plugin-dir", plugin_dir_taken);
        take(top.load.log_level.is_some(), "--log-level", loads);
        take(top.server_name.is_some(), "--server-name", serving);
        take(top.tool_timeout.is_some(), "--tool-timeout", serving);
        take(top.http.is_some(), "--http", serving);
        if unused.is_empty() {
            Ok(command)
        } else {
            Err(format!("{} does nothing with `{}`", unused.join(", "), command.name()))
        }
    }
}

fn main() -> ExitCode {
    let code = run();
    fatal::host_exits();
    code
}

fn run() -> ExitCode {
    let command = match Cli::parse().command() {
        Ok(command) => command,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let load = match command {
        Command::PluginWorker { parent_pid } => return mcp_plugin_host::isolation::run_worker(parent_pid),
        Command::Init { config, plugin_dir } => {
            let candidates = Candidates::from_process(config.config);
            return finish_setup(init::run(&candidates, plugin_dir.as_deref()));
        }
        Command::ClientConfig { config, client, http, token_env, name } => {
            let candidates = Candidates::from_process(config.config);
            return finish_setup(client_config::run(&candidates, client, &name, http, token_env));
        }
        Command::ConfigSchema => {
            println!("{}", config_schema::text());
            return ExitCode::SUCCESS;
        }
        Command::Serve(ref serve) => serve.load.clone(),
        Command::Plugins { ref load, .. } | Command::Check(ref load) => load.clone(),
    };
    let candidates = Candidates::from_process(load.config.config.clone());
    let config = match locate::locate(&candidates) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let (server_name, tool_timeout_secs) = match &command {
        Command::Serve(serve) => (serve.server_name.clone(), serve.tool_timeout),
        _ => (None, None),
    };
    let overrides =
        Overrides { plugin_dir: load.plugin_dir, log_level: load.log_level, server_name, tool_timeout_secs };
    // `check` lists keys that are not settings with its other problems; every other command
    // refuses to start on them.
    let listed = match command {
        Command::Check(_) => Settings::load_listing_unknown(&config.path, &overrides, std::env::vars()),
        _ => Settings::load(&config.path, &overrides).map(|settings| (settings, Vec::new())),
    };
    let (settings, unknown_keys) = match listed {
        Ok(listed) => listed,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    // Before any plugin is loaded: from here on, only the protocol (or the command's report)
    // reaches the stdout the caller gave; whatever else is printed goes to stderr.
    let stdout = match streams::take_stdout() {
        Ok(stdout) => stdout,
        Err(error) => {
            eprintln!("error: stdout could not be set aside for the protocol: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = logging::init(&settings.host) {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    fatal::install();
    tracing::info!("configuration {} ({})", config.path.display(), config.origin);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: could not start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async move {
        if let Command::Serve(serve_args) = command {
            return serve(settings, serve_args.http, config.path.clone(), overrides, stdout).await;
        }
        let mut out = std::io::LineWriter::new(stdout.into_writer());
        match command {
            Command::Plugins { action: Some(PluginsAction::Lock), .. } => lock::lock(&settings, &mut out),
            Command::Plugins { json, action: None, .. } => {
                let discovery = report::discover(&settings);
                report::print_reports(&mut out, &discovery.reports, &serving_hosts(&settings.path), json);
                Ok(())
            }
            Command::Check(_) => check::check(&settings, unknown_keys, &mut out),
            Command::Serve(_)
            | Command::Init { .. }
            | Command::ClientConfig { .. }
            | Command::ConfigSchema
            | Command::PluginWorker { .. } => {
                unreachable!("handled before the runtime starts")
            }
        }
    });
    // Plugin runtimes and tasks are not waited for: nothing a plugin left
    // behind may keep the process alive.
    runtime.shutdown_background();
    copies::remove_all();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // Once, and not through tracing: a log filter must not hide why the host stopped.
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The exit of a command that sets an installation up: its error, if any, on stderr.
fn finish_setup(outcome: Result<(), String>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The lock table of a serving host: machine-wide in `Host.LockDirectory`.
fn machine_wide_locks(settings: &Settings) -> LockTable {
    match &settings.host.lock_directory {
        None => LockTable::default(),
        Some(directory) => LockTable::machine_wide(directory.clone()).unwrap_or_else(|error| {
            tracing::warn!(
                "the lock directory {} cannot be created ({error}); plugins' locks hold within this process only",
                directory.display()
            );
            LockTable::default()
        }),
    }
}

async fn serve(
    settings: Settings,
    http: Option<String>,
    config: PathBuf,
    overrides: Overrides,
    stdout: ProtocolStdout,
) -> Result<(), String> {
    let telemetry = telemetry::init(&settings, if http.is_some() { Transport::Http } else { Transport::Stdio })?;
    let mut inbox = Inbox::default();
    inbox.watch(&settings.plugins, &config);
    let shared = Shared {
        locks: Arc::new(machine_wide_locks(&settings)),
        withdraw: Some(inbox.withdraw_hook()),
        relist: Some(inbox.relist_hook()),
        ..Shared::default()
    };
    let loading = if settings.plugins.lazy_loading { Loading::Lazy } else { Loading::Eager };
    let trust = Trust::load(&settings.plugins);
    let Discovery { registry, reports, problems, slots } = discovery::discover(&settings, &shared, loading, trust);
    let loaded = reports.iter().filter(|report| report.status == PluginStatus::Loaded).count();
    tracing::info!(
        "{} tools from {loaded} plugins in {}",
        registry.entries().len(),
        settings.plugins.directory.display()
    );
    let http_address = match http {
        None => None,
        Some(text) if text.is_empty() => Some(settings.http.address),
        Some(text) => Some(
            text.parse::<SocketAddr>()
                .map_err(|_| format!("--http '{text}' is not an address such as 127.0.0.1:8080"))?,
        ),
    };
    let updates = shared.updates.clone();
    let state = Arc::new(HostState::new(Generation { settings, registry, reports, problems }, updates));
    let transport = if http_address.is_some() { "http" } else { "stdio" };
    let reloader = Reloader::new(Arc::clone(&state), inbox, slots, shared, config, overrides, transport);
    let reloading = tokio::spawn(reloader.run());
    let shutdown = state.shutdown.clone();
    tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("shutting down");
        shutdown.cancel();
    });
    let served = match http_address {
        Some(address) => http::serve(Arc::clone(&state), address, |_| {}).await.map_err(|error| error.to_string()),
        None => {
            if std::io::stdin().is_terminal() {
                // Started by hand: say what it waits for instead of waiting silently.
                let program = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mcp-plugin-host"));
                eprintln!("{}", client_config::terminal_hint(&program, &state.current().settings.path));
            }
            serve_stdio(Arc::clone(&state), stdout).await
        }
    };
    state.shut_down().await;
    // The reloader stops with the host and removes its private copies.
    let _ = reloading.await;
    telemetry.shutdown().await;
    served
}

async fn serve_stdio(state: Arc<HostState>, stdout: ProtocolStdout) -> Result<(), String> {
    let shutdown = state.shutdown.clone();
    // Non-blocking pipes when stdin/stdout are pipes (how many MCP clients start servers), the
    // blocking handles otherwise. The blocking ones cost ~55 µs a call.
    let (stdin, stdout) = streams::protocol_streams(stdout);
    let server = McpServer::new(Arc::clone(&state));
    let transport = LineTransport::new(stdin, stdout, state.current().settings.host.max_message_bytes)
        .noting_roots_changes(server.roots());
    let service = server
        .serve_with_ct(transport, shutdown.child_token())
        .await
        .map_err(|error| format!("the MCP session could not start: {error}"))?;
    let quit = service.waiting().await;
    quit.map(|_| ()).map_err(|error| format!("the MCP session ended with an error: {error}"))
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = match signal(SignalKind::terminate()) {
            Ok(terminate) => terminate,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
