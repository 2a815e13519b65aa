//! What a release tells installers and registries about itself, generated
//! from one source: the host package's `Cargo.toml` (name, version,
//! description, repository, licence, authors, and `[package.metadata.dist]`
//! for the display name). The host's `--version` and its `serverInfo` come
//! from the same file, so the three can never disagree.
//!
//! - [`mcpb_manifest`]: `manifest.json` of an MCPB bundle, the
//!   desktop-extension format Claude Desktop installs in one click (checked
//!   by the official `mcpb validate` in `scripts/dist --mcpb`).
//! - [`server_json`]: the MCP registry's `server.json`, naming the MCPB
//!   bundle as its package, validated against the registry's schema
//!   (vendored in `schemas/`, see its README).

use serde_json::{Value, json};

/// The MCP registry schema `server.json` declares and is validated against.
pub const SERVER_SCHEMA_URL: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The rules of [`SERVER_SCHEMA_URL`], vendored so that validation needs no network.
const SERVER_SCHEMA: &str = include_str!("../schemas/server.schema.json");

/// The MCPB manifest version written (the newest the official CLI calls "latest").
pub const MCPB_MANIFEST_VERSION: &str = "0.3";

/// The package the release is of: the host, as its `Cargo.toml` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// The crate and executable name.
    pub name: String,
    /// The release's version.
    pub version: String,
    /// One sentence: what it is.
    pub description: String,
    /// Where its source lives (a GitHub URL).
    pub repository: String,
    /// SPDX licence expression.
    pub license: String,
    /// Who publishes it.
    pub author: String,
    /// The name installers show (`[package.metadata.dist] display-name`).
    pub display_name: String,
}

impl Package {
    /// Reads package `name` from the output of `cargo metadata --format-version 1`.
    pub fn from_metadata(metadata: &Value, name: &str) -> Result<Self, String> {
        let package = metadata["packages"]
            .as_array()
            .and_then(|packages| packages.iter().find(|package| package["name"] == name))
            .ok_or_else(|| format!("cargo metadata lists no package {name}"))?;
        let field = |key: &str| {
            package[key]
                .as_str()
                .filter(|value| !value.is_empty())
                .map(str::to_owned)
                .ok_or_else(|| format!("the Cargo.toml of {name} has no {key}"))
        };
        Ok(Self {
            name: field("name")?,
            version: field("version")?,
            description: field("description")?,
            repository: field("repository")?,
            license: field("license")?,
            author: package["authors"][0]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("the Cargo.toml of {name} has no authors"))?,
            display_name: package["metadata"]["dist"]["display-name"]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("the Cargo.toml of {name} has no [package.metadata.dist] display-name"))?,
        })
    }

    /// The name in the MCP registry: the reverse-DNS namespace of the GitHub
    /// repository (`io.github.OWNER/REPO`), the namespace GitHub login proves.
    pub fn registry_name(&self) -> Result<String, String> {
        let path = self
            .repository
            .strip_prefix("https://github.com/")
            .ok_or_else(|| format!("the repository {} is not on GitHub: no registry namespace", self.repository))?;
        match path.trim_end_matches('/').split('/').collect::<Vec<_>>()[..] {
            [owner, repo] if !owner.is_empty() && !repo.is_empty() => Ok(format!("io.github.{owner}/{repo}")),
            _ => Err(format!("the repository {} is not https://github.com/OWNER/REPO", self.repository)),
        }
    }

    /// Where the release's file `file_name` is downloaded from: the GitHub
    /// release of tag `v<version>`.
    pub fn release_asset_url(&self, file_name: &str) -> String {
        format!("{}/releases/download/v{}/{file_name}", self.repository.trim_end_matches('/'), self.version)
    }
}

/// The operating system a bundle is built for, as MCPB names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux.
    Linux,
    /// macOS.
    Darwin,
    /// Windows.
    Win32,
}

impl Platform {
    /// The platform of a Rust target triple such as `x86_64-unknown-linux-gnu`.
    pub fn of_target(target: &str) -> Result<Self, String> {
        if target.contains("-linux") {
            Ok(Platform::Linux)
        } else if target.contains("-apple-darwin") {
            Ok(Platform::Darwin)
        } else if target.contains("-windows") {
            Ok(Platform::Win32)
        } else {
            Err(format!("no MCPB platform for the target {target}"))
        }
    }

    fn mcpb_name(self) -> &'static str {
        match self {
            Platform::Linux => "linux",
            Platform::Darwin => "darwin",
            Platform::Win32 => "win32",
        }
    }

    fn library(self, name: &str) -> String {
        match self {
            Platform::Linux => format!("lib{name}.so"),
            Platform::Darwin => format!("lib{name}.dylib"),
            Platform::Win32 => format!("{name}.dll"),
        }
    }

    fn executable(self, name: &str) -> String {
        match self {
            Platform::Win32 => format!("{name}.exe"),
            Platform::Linux | Platform::Darwin => name.to_owned(),
        }
    }
}

/// The file names of the plugin libraries a release bundle carries: every
/// `cdylib` of the workspace (in `cargo metadata` output) whose package does
/// not say `[package.metadata.dist] bundle = false` (the conformance
/// fixture), as the platform names them.
pub fn bundled_libraries(metadata: &Value, platform: Platform) -> Vec<String> {
    let packages = metadata["packages"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut libraries: Vec<String> = packages
        .iter()
        .filter(|package| package["metadata"]["dist"]["bundle"] != false)
        .flat_map(|package| package["targets"].as_array().map(Vec::as_slice).unwrap_or_default())
        .filter(|target| target["kind"].as_array().is_some_and(|kinds| kinds.iter().any(|kind| kind == "cdylib")))
        .filter_map(|target| target["name"].as_str())
        .map(|name| platform.library(&name.replace('-', "_")))
        .collect();
    libraries.sort();
    libraries
}

/// `manifest.json` of the MCPB bundle: the bundle's root holds the host
/// executable, `appsettings.json` and `plugins/`, and the client starts the
/// host with that configuration (`${__dirname}` is the unpacked bundle).
pub fn mcpb_manifest(package: &Package, platform: Platform) -> Value {
    let executable = platform.executable(&package.name);
    json!({
        "manifest_version": MCPB_MANIFEST_VERSION,
        "name": package.name,
        "display_name": package.display_name,
        "version": package.version,
        "description": package.description,
        "author": { "name": package.author },
        "repository": { "type": "git", "url": package.repository },
        "license": package.license,
        "keywords": ["mcp", "plugins", "tools", "dotnet"],
        "server": {
            "type": "binary",
            "entry_point": executable,
            "mcp_config": {
                "command": format!("${{__dirname}}/{executable}"),
                "args": ["--config", "${__dirname}/appsettings.json"],
            },
        },
        "compatibility": { "platforms": [platform.mcpb_name()] },
    })
}

/// The MCP registry's `server.json` for a release whose MCPB bundle is
/// `mcpb_file` (downloaded from the release, see
/// [`Package::release_asset_url`]) with SHA-256 `sha256`. Validated against
/// the registry's schema before it is returned.
pub fn server_json(package: &Package, mcpb_file: &str, sha256: &str) -> Result<Value, String> {
    let document = json!({
        "$schema": SERVER_SCHEMA_URL,
        "name": package.registry_name()?,
        "title": package.display_name,
        "description": package.description,
        "version": package.version,
        "repository": { "url": package.repository, "source": "github" },
        "packages": [{
            "registryType": "mcpb",
            "identifier": package.release_asset_url(mcpb_file),
            "version": package.version,
            "fileSha256": sha256.to_ascii_lowercase(),
            "transport": { "type": "stdio" },
        }],
    });
    validate_server_json(&document)?;
    Ok(document)
}

/// Checks a `server.json` against the registry's schema; the error lists
/// every violation with where it is.
pub fn validate_server_json(document: &Value) -> Result<(), String> {
    let schema: Value = serde_json::from_str(SERVER_SCHEMA).expect("the vendored schema is JSON");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .map_err(|error| format!("the vendored server.json schema does not compile: {error}"))?;
    let problems: Vec<String> = validator
        .iter_errors(document)
        .map(|error| {
            let at = error.instance_path().to_string();
            format!("{}: {error}", if at.is_empty() { "/" } else { &at })
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("server.json does not match {SERVER_SCHEMA_URL}:\n  {}", problems.join("\n  ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package() -> Package {
        Package {
            name: "mcp-plugin-host".into(),
            version: "0.1.0".into(),
            description: "An MCP server that loads its tools from cdylib plugins behind a stable ABI.".into(),
            repository: "https://github.com/mcp-plugin-host/mcp-plugin-host".into(),
            license: "MIT OR Apache-2.0".into(),
            author: "The mcp-plugin-host contributors".into(),
            display_name: "MCP Plugin Host".into(),
        }
    }

    const SHA: &str = "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce";

    fn workspace_metadata() -> Value {
        let output = std::process::Command::new(env!("CARGO"))
            .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).unwrap()
    }

    #[test]
    fn the_bundle_carries_every_workspace_plugin_but_the_conformance_fixture() {
        let libraries = bundled_libraries(&workspace_metadata(), Platform::Linux);
        assert!(libraries.contains(&"libsample.so".to_owned()), "{libraries:?}");
        assert!(libraries.contains(&"libdotnet_sdk.so".to_owned()), "{libraries:?}");
        assert!(!libraries.iter().any(|library| library.contains("conformance")), "{libraries:?}");
        assert!(!libraries.iter().any(|library| library.contains("support")), "only cdylibs: {libraries:?}");
        let windows = bundled_libraries(&workspace_metadata(), Platform::Win32);
        assert!(windows.contains(&"sample.dll".to_owned()), "{windows:?}");
    }

    #[test]
    fn the_hosts_cargo_toml_is_the_source() {
        let metadata = workspace_metadata();
        let host = Package::from_metadata(&metadata, "mcp-plugin-host").unwrap();
        assert_eq!(host.name, "mcp-plugin-host");
        assert!(!host.version.is_empty() && !host.display_name.is_empty());
        assert!(host.description.len() <= 100, "the registry takes at most 100 characters: {}", host.description);
        server_json(&host, "mcp-plugin-host.mcpb", SHA).unwrap();
        let error = Package::from_metadata(&metadata, "no-such-package").unwrap_err();
        assert!(error.contains("no-such-package"), "{error}");
    }

    #[test]
    fn server_json_names_the_mcpb_release_asset_and_validates() {
        let document = server_json(&package(), "mcp-plugin-host-0.1.0-x86_64-unknown-linux-gnu.mcpb", SHA).unwrap();
        assert_eq!(document["name"], "io.github.mcp-plugin-host/mcp-plugin-host");
        assert_eq!(document["version"], "0.1.0");
        let mcpb = &document["packages"][0];
        assert_eq!(mcpb["registryType"], "mcpb");
        assert_eq!(
            mcpb["identifier"],
            "https://github.com/mcp-plugin-host/mcp-plugin-host/releases/download/v0.1.0/\
             mcp-plugin-host-0.1.0-x86_64-unknown-linux-gnu.mcpb"
        );
        assert_eq!(mcpb["fileSha256"], SHA);
    }

    #[test]
    fn the_schema_refuses_what_the_registry_refuses() {
        let mut long = package();
        long.description = "x".repeat(101);
        let error = server_json(&long, "a.mcpb", SHA).unwrap_err();
        assert!(error.contains("/description"), "{error}");
        let error = server_json(&package(), "a.mcpb", "not-a-hash").unwrap_err();
        assert!(error.contains("/packages/0/fileSha256"), "{error}");
        let mut document = server_json(&package(), "a.mcpb", SHA).unwrap();
        document["name"] = json!("no-slash");
        assert!(validate_server_json(&document).unwrap_err().contains("/name"));
        document.as_object_mut().unwrap().remove("name");
        assert!(validate_server_json(&document).unwrap_err().contains("name"));
        let mut elsewhere = package();
        elsewhere.repository = "https://example.org/x".into();
        assert!(elsewhere.registry_name().unwrap_err().contains("not on GitHub"));
    }

    #[test]
    fn the_mcpb_manifest_starts_the_bundled_host_with_the_bundled_configuration() {
        let manifest = mcpb_manifest(&package(), Platform::of_target("x86_64-unknown-linux-gnu").unwrap());
        assert_eq!(manifest["manifest_version"], MCPB_MANIFEST_VERSION);
        for key in ["name", "version", "description", "author", "server"] {
            assert!(manifest.get(key).is_some(), "MCPB requires {key}");
        }
        assert_eq!(manifest["server"]["type"], "binary");
        assert_eq!(manifest["server"]["entry_point"], "mcp-plugin-host");
        assert_eq!(manifest["server"]["mcp_config"]["command"], "${__dirname}/mcp-plugin-host");
        assert_eq!(manifest["server"]["mcp_config"]["args"], json!(["--config", "${__dirname}/appsettings.json"]));
        assert_eq!(manifest["compatibility"]["platforms"], json!(["linux"]));
        let windows = mcpb_manifest(&package(), Platform::of_target("x86_64-pc-windows-msvc").unwrap());
        assert_eq!(windows["server"]["entry_point"], "mcp-plugin-host.exe");
        assert_eq!(Platform::of_target("aarch64-apple-darwin"), Ok(Platform::Darwin));
        assert!(Platform::of_target("wasm32-unknown-unknown").is_err());
    }
}
