//! Reading what `dotnet workload` prints: the `list` and `search` tables, the `--info` blocks and
//! the progress lines of `install`, `update` and `uninstall`.

use dotnet_support::table;
use schemars::JsonSchema;
use serde::Serialize;

/// One installed workload, from `dotnet workload list` or `dotnet workload --info`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstalledWorkload {
    pub id: String,
    /// The manifest version and feature band (`10.0.0/10.0.100`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest_version: Option<String>,
    /// Where it came from (`SDK 10.0.100`, `VS 17.14`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installation_source: Option<String>,
    /// The manifest file (`--info` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest_path: Option<String>,
    /// `FileBased` or `MSI` (`--info` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub install_type: Option<String>,
}

/// One workload found by `dotnet workload search`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FoundWorkload {
    pub id: String,
    pub description: String,
}

/// One pack an install wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pack {
    pub id: String,
    pub version: String,
}

/// The `Workload version: ...` line that SDK 8.0.400 and later print, if any.
pub fn workload_version(stdout: &str) -> Option<String> {
    stdout.lines().find_map(|line| {
        let version = line.trim().strip_prefix("Workload version:")?.trim();
        (!version.is_empty()).then(|| version.to_owned())
    })
}

/// The workloads of a `dotnet workload list` table (empty when none is installed).
pub fn list(stdout: &str) -> Vec<InstalledWorkload> {
    let Some(table) = table::parse(stdout) else { return Vec::new() };
    table
        .rows
        .iter()
        .filter_map(|row| {
            Some(InstalledWorkload {
                id: table.cell(row, "Installed Workload Id")?.to_owned(),
                manifest_version: table.cell(row, "Manifest Version").map(str::to_owned),
                installation_source: table.cell(row, "Installation Source").map(str::to_owned),
                ..InstalledWorkload::default()
            })
        })
        .collect()
}

/// The workloads of a `dotnet workload search` table.
pub fn search(stdout: &str) -> Vec<FoundWorkload> {
    let Some(table) = table::parse(stdout) else { return Vec::new() };
    table
        .rows
        .iter()
        .filter_map(|row| {
            Some(FoundWorkload {
                id: table.cell(row, "Workload ID")?.to_owned(),
                description: table.cell(row, "Description").unwrap_or_default().to_owned(),
            })
        })
        .collect()
}

/// The workloads of `dotnet workload --info`: a ` [id]` line, then `Key: value` lines.
pub fn info(stdout: &str) -> Vec<InstalledWorkload> {
    let mut workloads: Vec<InstalledWorkload> = Vec::new();
    for line in stdout.lines().map(str::trim) {
        if let Some(id) = line.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
            workloads.push(InstalledWorkload { id: id.to_owned(), ..InstalledWorkload::default() });
            continue;
        }
        let (Some(current), Some((key, value))) = (workloads.last_mut(), line.split_once(':')) else { continue };
        let value = Some(value.trim().to_owned()).filter(|value| !value.is_empty());
        match key.trim() {
            "Installation Source" => current.installation_source = value,
            "Manifest Version" => current.manifest_version = value,
            "Manifest Path" => current.manifest_path = value,
            "Install Type" => current.install_type = value,
            _ => {}
        }
    }
    workloads
}

/// The packs of `Installing pack <id> version <version>...` lines.
pub fn packs(stdout: &str) -> Vec<Pack> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("Installing pack ")?;
            let (id, version) = rest.split_once(" version ")?;
            Some(Pack { id: id.trim().to_owned(), version: version.trim().trim_end_matches('.').to_owned() })
        })
        .collect()
}

/// A workload pack that the NuGet feeds do not serve, from an install's or update's failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingPack {
    /// The pack's package id, as the SDK prints it (lower case).
    pub package: String,
    pub version: String,
    /// The feeds the SDK looked in, as it lists them.
    pub feeds: String,
}

/// The pack of `Version <v> of package <id> is not found in NuGet feeds <feeds>.` (SDK 10.0.401,
/// inside `Workload installation failed: One or more errors occurred. (...)`), if the output
/// has one.
pub fn missing_pack(output: &str) -> Option<MissingPack> {
    output.lines().find_map(|line| {
        let (before, feeds) = line.split_once(" is not found in NuGet feeds ")?;
        let (_, rest) = before.rsplit_once("Version ")?;
        let (version, package) = rest.split_once(" of package ")?;
        let feeds = feeds.trim().trim_end_matches(')').trim_end_matches('.');
        Some(MissingPack {
            package: package.trim().to_owned(),
            version: version.trim().to_owned(),
            feeds: feeds.to_owned(),
        })
    })
}

/// The ids after `Successfully updated workload(s):` (empty when the line is missing).
pub fn updated(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .find_map(|line| line.trim().strip_prefix("Successfully updated workload(s):"))
        .map(|ids| ids.trim().trim_end_matches('.').split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_with_and_without_a_workload_version() {
        let text = "\nWorkload version: 10.0.100-manifests.5fb86115\n\n\
            Installed Workload Id      Manifest Version      Installation Source\n\
            --------------------------------------------------------------------\n\
            wasm-tools                 10.0.0/10.0.100       SDK 10.0.100       \n\
            maui-android               10.0.0/10.0.100       VS 17.14.36         \n\n\
            Use `dotnet workload search` to find additional workloads to install.\n";
        assert_eq!(workload_version(text).as_deref(), Some("10.0.100-manifests.5fb86115"));
        let workloads = list(text);
        assert_eq!(workloads.len(), 2);
        assert_eq!(workloads[0].manifest_version.as_deref(), Some("10.0.0/10.0.100"));
        assert_eq!(workloads[1].installation_source.as_deref(), Some("VS 17.14.36"));
        assert!(list("\nThere are no installed workloads to display.\n").is_empty());
        assert_eq!(workload_version("wasm-tools"), None);
    }

    #[test]
    fn search_table() {
        let text = "\nWorkload ID            Description\n-------------------------------------\n\
            android                .NET SDK Workload for building Android applications.\n\
            wasm-tools             .NET WebAssembly build tools\n";
        let found = search(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].description, ".NET SDK Workload for building Android applications.");
        assert_eq!(found[1].id, "wasm-tools");
    }

    #[test]
    fn info_blocks() {
        let text = " Workload version: 10.0.100-manifests.5fb86115\n [wasm-tools]\n   Installation Source: SDK 10.0.100\n\
            \x20  Manifest Version:    10.0.0/10.0.100\n   Manifest Path:       /usr/share/dotnet/sdk-manifests/x/WorkloadManifest.json\n\
            \x20  Install Type:              FileBased\n [ios]\n   Installation Source: VS 17.14\n";
        let workloads = info(text);
        assert_eq!(workloads.len(), 2);
        assert_eq!(workloads[0].install_type.as_deref(), Some("FileBased"));
        assert_eq!(
            workloads[0].manifest_path.as_deref(),
            Some("/usr/share/dotnet/sdk-manifests/x/WorkloadManifest.json")
        );
        assert_eq!(
            workloads[1],
            InstalledWorkload {
                id: "ios".into(),
                installation_source: Some("VS 17.14".into()),
                ..InstalledWorkload::default()
            }
        );
        assert_eq!(workload_version(text).as_deref(), Some("10.0.100-manifests.5fb86115"));
    }

    #[test]
    fn a_pack_the_feeds_do_not_serve() {
        // recordings/workloads/005-workload-install-wasmtools.txt (SDK 10.0.401, the mirror).
        let stderr = "Workload installation failed: One or more errors occurred. (Version 10.0.12 of package \
            microsoft.net.runtime.emscripten.3.1.56.node.linux-x64 is not found in NuGet feeds \
            https://api.nuget.org/v3/index.json.)";
        assert_eq!(
            missing_pack(&format!("Workload installation failed. Rolling back installed packs...\n{stderr}\n")),
            Some(MissingPack {
                package: "microsoft.net.runtime.emscripten.3.1.56.node.linux-x64".into(),
                version: "10.0.12".into(),
                feeds: "https://api.nuget.org/v3/index.json".into(),
            })
        );
        assert_eq!(missing_pack("Workload ID nope is not recognized."), None);
    }

    #[test]
    fn install_and_update_lines() {
        let text = "Installing pack Microsoft.iOS.Sdk version 10.0.0...\n\
            Writing workload pack installation record for Microsoft.iOS.Sdk version 10.0.0...\n\
            Successfully updated workload(s): wasm-tools maui.\n";
        assert_eq!(packs(text), [Pack { id: "Microsoft.iOS.Sdk".into(), version: "10.0.0".into() }]);
        assert_eq!(updated(text), ["wasm-tools", "maui"]);
        assert!(updated("No workloads installed for this feature band.").is_empty());
    }
}
