//! `mcp-plugin-host client-config`: the configuration each MCP client reads
//! to start (or reach) this installation, in that client's own shape, with
//! absolute paths; and the one-line hint printed when the server is started
//! by hand on a terminal.
//!
//! The shapes, as each client documents them:
//! - Claude Desktop (`claude_desktop_config.json`): `{"mcpServers": {NAME: {command, args}}}`;
//!   stdio only (remote servers are added in its settings as connectors).
//! - Claude Code: the command `claude mcp add --transport stdio|http …`.
//! - VS Code (`mcp.json`): `{"servers": {NAME: {"type": "stdio", command, args}}}`, or
//!   `{"type": "http", url, headers}`; `${env:VAR}` is read from the environment.
//! - Cursor (`mcp.json`): `{"mcpServers": {NAME: {command, args}}}`, or `{url, headers}`;
//!   `${env:VAR}` likewise.
//! - generic: the `mcpServers` shape most other clients read.
//!
//! The README's snippets are these functions' output for an installation in
//! `/opt/mcp-plugin-host` (a test keeps them equal).

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use serde::Serialize;

use super::locate::{Candidates, locate};
use crate::settings::{Overrides, Settings};

/// The MCP clients `client-config` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Client {
    /// Claude Desktop's `claude_desktop_config.json`.
    ClaudeDesktop,
    /// Claude Code's `claude mcp add` command.
    ClaudeCode,
    /// VS Code's `mcp.json`.
    Vscode,
    /// Cursor's `mcp.json`.
    Cursor,
    /// The `mcpServers` shape most other clients read.
    Generic,
}

impl Client {
    /// Every client, in the order the README shows them.
    pub const ALL: [Client; 5] =
        [Client::ClaudeDesktop, Client::ClaudeCode, Client::Vscode, Client::Cursor, Client::Generic];

    /// The name `--client` takes.
    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "claude-desktop",
            Client::ClaudeCode => "claude-code",
            Client::Vscode => "vscode",
            Client::Cursor => "cursor",
            Client::Generic => "generic",
        }
    }

    /// Where the snippet goes, for a person reading the output.
    pub fn destination(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => {
                "merge this into claude_desktop_config.json (Claude Desktop: Settings > Developer > Edit Config), \
                 then restart Claude Desktop"
            }
            Client::ClaudeCode => "run this command (--scope user: every project; drop it for this project only)",
            Client::Vscode => {
                "merge this into .vscode/mcp.json of a workspace, or the user's mcp.json (command \"MCP: Open User \
                 Configuration\")"
            }
            Client::Cursor => "merge this into ~/.cursor/mcp.json (every project) or .cursor/mcp.json of a project",
            Client::Generic => "merge this into the client's MCP server configuration",
        }
    }
}

/// How the client reaches the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// The client starts this installation and talks over stdio.
    Stdio {
        /// The host executable.
        program: PathBuf,
        /// The configuration file it is given.
        config: PathBuf,
    },
    /// The client connects to a running `mcp-plugin-host --http`.
    Http {
        /// The endpoint, e.g. `http://127.0.0.1:8080/mcp`.
        url: String,
        /// The environment variable holding the bearer token, when one is required.
        token_env: Option<String>,
    },
}

/// A snippet for one client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// What to paste or run (printed on stdout).
    pub text: String,
    /// Where it goes (printed on stderr).
    pub destination: &'static str,
}

/// The snippet that makes `client` use the server `name` over `transport`.
pub fn render(client: Client, name: &str, transport: &Transport) -> Result<Snippet, String> {
    check_name(name)?;
    if let Transport::Http { url, token_env } = transport {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!("--http '{url}' is not a URL such as http://127.0.0.1:8080/mcp"));
        }
        if let Some(var) = token_env {
            check_env_name(var)?;
        }
    }
    let text = match (client, transport) {
        (Client::ClaudeCode, _) => claude_mcp_add(name, transport),
        (Client::ClaudeDesktop, Transport::Http { .. }) => {
            return Err("Claude Desktop starts local servers from its configuration file and adds remote ones as \
                        connectors in its settings; leave out --http to print the stdio configuration, which starts \
                        this installation directly"
                .to_owned());
        }
        (Client::Vscode, _) => pretty("servers", name, entry(client, transport)),
        (Client::ClaudeDesktop | Client::Cursor | Client::Generic, _) => {
            pretty("mcpServers", name, entry(client, transport))
        }
    };
    Ok(Snippet { text, destination: client.destination() })
}

/// `mcp-plugin-host client-config`: prints the snippet on stdout and where it
/// goes on stderr. Over stdio, the snippet starts this executable with the
/// configuration `candidates` locate; over HTTP, it reaches `http`.
pub fn run(
    candidates: &Candidates,
    client: Client,
    name: &str,
    http: Option<String>,
    token_env: Option<String>,
) -> Result<(), String> {
    let transport = match http {
        Some(url) => {
            let token_required = locate(candidates)
                .ok()
                .and_then(|located| Settings::load(&located.path, &Overrides::default()).ok())
                .is_some_and(|settings| settings.http.bearer_token.is_some());
            if token_required && token_env.is_none() {
                eprintln!("note: the configuration requires a bearer token; add --token-env VAR to send it");
            }
            Transport::Http { url, token_env }
        }
        None => {
            let config = locate(candidates)?.path;
            if !config.is_file() {
                return Err(format!(
                    "{} does not exist; write it with `mcp-plugin-host init --config {}`",
                    config.display(),
                    config.display()
                ));
            }
            let program =
                std::env::current_exe().map_err(|error| format!("the path of this executable is unknown: {error}"))?;
            Transport::Stdio { program, config }
        }
    };
    let snippet = render(client, name, &transport)?;
    println!("{}", snippet.text);
    eprintln!("{}", snippet.destination);
    Ok(())
}

/// One server's entry in a client's JSON configuration, its keys in the
/// order the clients' documentation shows them.
#[derive(Debug, Serialize)]
struct Entry {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    headers: Option<BTreeMap<&'static str, String>>,
}

fn entry(client: Client, transport: &Transport) -> Entry {
    match transport {
        Transport::Stdio { program, config } => Entry {
            kind: (client == Client::Vscode).then_some("stdio"),
            command: Some(path_text(program)),
            args: Some(stdio_args(config)),
            url: None,
            headers: None,
        },
        Transport::Http { url, token_env } => Entry {
            kind: (client != Client::Cursor).then_some("http"),
            command: None,
            args: None,
            url: Some(url.clone()),
            headers: token_env.as_ref().map(|var| {
                let reference = match client {
                    Client::Vscode | Client::Cursor => format!("${{env:{var}}}"),
                    _ => format!("${{{var}}}"),
                };
                BTreeMap::from([("Authorization", format!("Bearer {reference}"))])
            }),
        },
    }
}

/// `claude mcp add …`, quoted for a POSIX shell (PowerShell on Windows for the token).
fn claude_mcp_add(name: &str, transport: &Transport) -> String {
    let quote = |text: &str| shell_words::quote(text).into_owned();
    match transport {
        Transport::Stdio { program, config } => {
            let mut words = vec![quote(&path_text(program))];
            words.extend(stdio_args(config).iter().map(|arg| quote(arg)));
            format!("claude mcp add --transport stdio --scope user {} -- {}", quote(name), words.join(" "))
        }
        Transport::Http { url, token_env } => {
            let mut line = format!("claude mcp add --transport http --scope user {} {}", quote(name), quote(url));
            if let Some(var) = token_env {
                // Double quotes on purpose: the shell puts the token in when the command runs.
                let reference = if cfg!(windows) { format!("$env:{var}") } else { format!("${{{var}}}") };
                line.push_str(&format!(" --header \"Authorization: Bearer {reference}\""));
            }
            line
        }
    }
}

/// The arguments that start this installation on stdio.
fn stdio_args(config: &Path) -> Vec<String> {
    vec!["--config".to_owned(), path_text(config)]
}

/// One line for a person who started the stdio server on a terminal: what it
/// is waiting for and how to try it.
pub fn terminal_hint(program: &Path, config: &Path) -> String {
    let mut command = vec![shell_words::quote(&path_text(program)).into_owned()];
    command.extend(stdio_args(config).iter().map(|arg| shell_words::quote(arg).into_owned()));
    format!(
        "mcp-plugin-host speaks MCP on stdio and is waiting for a client to write JSON-RPC here (Ctrl-C stops it). \
         Try it in the MCP Inspector: npx @modelcontextprotocol/inspector {}; connect a client: {} client-config \
         --client claude-desktop|claude-code|vscode|cursor|generic",
        command.join(" "),
        command[0]
    )
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// `{"<section>": {"<name>": entry}}`, indented as the clients' documentation shows it.
fn pretty(section: &str, name: &str, entry: Entry) -> String {
    let document = BTreeMap::from([(section, BTreeMap::from([(name, entry)]))]);
    serde_json::to_string_pretty(&document).expect("strings and maps serialize")
}

/// Server names: what every client accepts as a key and Claude Code as a name.
fn check_name(name: &str) -> Result<(), String> {
    let valid =
        !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    valid.then_some(()).ok_or_else(|| {
        format!("--name '{name}' must be 1 to 64 letters, digits, '-' or '_' (what every client accepts)")
    })
}

fn check_env_name(var: &str) -> Result<(), String> {
    let mut chars = var.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid
        .then_some(())
        .ok_or_else(|| format!("--token-env '{var}' is not an environment variable name (letters, digits and '_')"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The installation the README describes.
    fn readme_stdio() -> Transport {
        Transport::Stdio {
            program: PathBuf::from("/opt/mcp-plugin-host/mcp-plugin-host"),
            config: PathBuf::from("/opt/mcp-plugin-host/appsettings.json"),
        }
    }

    fn readme_http() -> Transport {
        Transport::Http { url: "http://127.0.0.1:8080/mcp".into(), token_env: Some("MCP_PLUGIN_HOST_TOKEN".into()) }
    }

    fn parsed(client: Client, transport: &Transport) -> Value {
        serde_json::from_str(&render(client, "mcp-plugin-host", transport).unwrap().text).unwrap()
    }

    #[test]
    fn stdio_snippets_have_each_clients_keys() {
        let stdio = readme_stdio();
        let args = json!(["--config", "/opt/mcp-plugin-host/appsettings.json"]);
        for client in [Client::ClaudeDesktop, Client::Cursor, Client::Generic] {
            let entry = &parsed(client, &stdio)["mcpServers"]["mcp-plugin-host"];
            assert_eq!(entry["command"], "/opt/mcp-plugin-host/mcp-plugin-host", "{client:?}");
            assert_eq!(entry["args"], args, "{client:?}");
        }
        let vscode = parsed(Client::Vscode, &stdio);
        assert!(vscode.get("mcpServers").is_none(), "VS Code reads `servers`");
        let entry = &vscode["servers"]["mcp-plugin-host"];
        assert_eq!(entry["type"], "stdio");
        assert_eq!(entry["command"], "/opt/mcp-plugin-host/mcp-plugin-host");
        assert_eq!(entry["args"], args);
    }

    #[test]
    fn http_snippets_reference_the_token_variable_as_each_client_expands_it() {
        let http = readme_http();
        let vscode = &parsed(Client::Vscode, &http)["servers"]["mcp-plugin-host"];
        assert_eq!(vscode["type"], "http");
        assert_eq!(vscode["url"], "http://127.0.0.1:8080/mcp");
        assert_eq!(vscode["headers"]["Authorization"], "Bearer ${env:MCP_PLUGIN_HOST_TOKEN}");
        let cursor = &parsed(Client::Cursor, &http)["mcpServers"]["mcp-plugin-host"];
        assert_eq!(cursor["url"], "http://127.0.0.1:8080/mcp");
        assert_eq!(cursor["headers"]["Authorization"], "Bearer ${env:MCP_PLUGIN_HOST_TOKEN}");
        let generic = &parsed(Client::Generic, &http)["mcpServers"]["mcp-plugin-host"];
        assert_eq!(generic["type"], "http");
        assert_eq!(generic["headers"]["Authorization"], "Bearer ${MCP_PLUGIN_HOST_TOKEN}");
        let open = Transport::Http { url: "http://127.0.0.1:8080/mcp".into(), token_env: None };
        assert!(parsed(Client::Vscode, &open)["servers"]["mcp-plugin-host"].get("headers").is_none());
        let error = render(Client::ClaudeDesktop, "x", &http).unwrap_err();
        assert!(error.contains("leave out --http"), "{error}");
    }

    #[test]
    fn claude_code_commands_split_into_the_arguments_claude_expects() {
        let stdio = Transport::Stdio {
            program: PathBuf::from("/opt/my tools/mcp-plugin-host"),
            config: PathBuf::from("/opt/my tools/appsettings.json"),
        };
        let line = render(Client::ClaudeCode, "plugins", &stdio).unwrap().text;
        let words = shell_words::split(&line).unwrap();
        assert_eq!(
            words,
            [
                "claude",
                "mcp",
                "add",
                "--transport",
                "stdio",
                "--scope",
                "user",
                "plugins",
                "--",
                "/opt/my tools/mcp-plugin-host",
                "--config",
                "/opt/my tools/appsettings.json"
            ]
        );
        let line = render(Client::ClaudeCode, "plugins", &readme_http()).unwrap().text;
        assert!(line.ends_with(r#"--header "Authorization: Bearer ${MCP_PLUGIN_HOST_TOKEN}""#), "{line}");
        let words = shell_words::split(&line).unwrap();
        assert_eq!(
            words[..9],
            ["claude", "mcp", "add", "--transport", "http", "--scope", "user", "plugins", "http://127.0.0.1:8080/mcp"]
        );
    }

    #[test]
    fn bad_names_urls_and_variables_are_refused_with_the_reason() {
        let stdio = readme_stdio();
        assert!(render(Client::Generic, "two words", &stdio).unwrap_err().contains("--name"));
        let bad_url = Transport::Http { url: "127.0.0.1:8080".into(), token_env: None };
        assert!(render(Client::Generic, "x", &bad_url).unwrap_err().contains("not a URL"));
        let bad_var = Transport::Http { url: "http://h/mcp".into(), token_env: Some("1$X".into()) };
        assert!(render(Client::Generic, "x", &bad_var).unwrap_err().contains("--token-env"));
    }

    #[test]
    fn the_readme_shows_what_client_config_prints() {
        let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap();
        let mut cases: Vec<(Client, Transport)> = Client::ALL.iter().map(|client| (*client, readme_stdio())).collect();
        cases.push((Client::Vscode, readme_http()));
        for (client, transport) in cases {
            let snippet = render(client, "mcp-plugin-host", &transport).unwrap().text;
            assert!(
                readme.contains(&snippet),
                "README.md lacks the {} snippet for {transport:?}; it should read:\n{snippet}",
                client.name()
            );
        }
    }

    #[test]
    fn the_terminal_hint_is_one_line_with_the_inspector_command() {
        let hint = terminal_hint(Path::new("/opt/x/mcp-plugin-host"), Path::new("/opt/x/appsettings.json"));
        assert!(!hint.contains('\n'));
        assert!(
            hint.contains(
                "npx @modelcontextprotocol/inspector /opt/x/mcp-plugin-host --config /opt/x/appsettings.json"
            )
        );
    }
}
