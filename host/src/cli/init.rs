//! `mcp-plugin-host init`: writes a commented starting configuration.
//!
//! It never overwrites: an existing file is left as it is. The plugin folder
//! is the one given with `--plugins`, else the `plugins` folder beside the
//! executable when there is one (an unpacked release bundle), else a
//! `plugins` folder beside the new configuration, created empty. A folder
//! inside the configuration's folder is written relative to it, so that the
//! two can be moved together; any other folder is written as an absolute path.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use super::locate::{Candidates, folder_of};

/// The starting configuration; `{{PLUGINS_DIRECTORY}}` becomes a JSON string.
const TEMPLATE: &str = include_str!("appsettings.template.json");

/// What `init` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The configuration file written.
    pub config: PathBuf,
    /// The plugin folder it names, as an absolute path.
    pub plugins: PathBuf,
    /// `Plugins.Directory` as written in the file.
    pub directory_setting: String,
    /// Whether the plugin folder was created by `init`.
    pub created_plugins: bool,
}

/// Writes the starting configuration to `config`. `plugins` is `--plugins`
/// (relative to `cwd`); `exe_dir` is the folder of the running executable.
pub fn init(config: &Path, plugins: Option<&Path>, cwd: &Path, exe_dir: Option<&Path>) -> Result<Written, String> {
    let config = cwd.join(config);
    if config.exists() {
        return Err(format!(
            "{} already exists and was left as it is; edit it, or move it away and run init again",
            config.display()
        ));
    }
    let folder = folder_of(&config).to_owned();
    let beside_exe = exe_dir.map(|dir| dir.join("plugins")).filter(|dir| dir.is_dir());
    let (plugins, create) = match (plugins, beside_exe) {
        (Some(plugins), _) => (cwd.join(plugins), false),
        (None, Some(beside_exe)) => (beside_exe, false),
        (None, None) => (folder.join("plugins"), true),
    };
    let plugins = std::path::absolute(&plugins).unwrap_or(plugins);
    let directory_setting = match plugins.strip_prefix(std::path::absolute(&folder).unwrap_or(folder.clone())) {
        Ok(inside) if inside.as_os_str().is_empty() => ".".to_owned(),
        Ok(inside) => inside.to_string_lossy().into_owned(),
        Err(_) => plugins.to_string_lossy().into_owned(),
    };
    let text = TEMPLATE
        .replace("{{PLUGINS_DIRECTORY}}", &serde_json::to_string(&directory_setting).expect("a string serializes"));
    std::fs::create_dir_all(&folder).map_err(|error| format!("could not create {}: {error}", folder.display()))?;
    // `create_new` refuses a file that appeared since the check above: never overwrite.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&config)
        .map_err(|error| format!("could not create {}: {error}", config.display()))?;
    file.write_all(text.as_bytes()).map_err(|error| format!("could not write {}: {error}", config.display()))?;
    // The template's `$schema` names this file beside it; it describes this version's settings,
    // so it is refreshed even though the configuration never is.
    let schema = folder.join(crate::config_schema::COMMITTED_PATH);
    std::fs::write(&schema, crate::config_schema::text())
        .map_err(|error| format!("could not write {}: {error}", schema.display()))?;
    let created_plugins = create && !plugins.exists();
    if created_plugins {
        std::fs::create_dir_all(&plugins)
            .map_err(|error| format!("could not create {}: {error}", plugins.display()))?;
    }
    Ok(Written { config, plugins, directory_setting, created_plugins })
}

/// `mcp-plugin-host init [--plugins DIR]`: writes the file `candidates`
/// name for it and says what it wrote and what to do next.
pub fn run(candidates: &Candidates, plugins: Option<&Path>) -> Result<(), String> {
    let target = candidates.init_target()?;
    let exe = std::env::current_exe().ok();
    let written = init(&target, plugins, &candidates.cwd, exe.as_deref().and_then(Path::parent))?;
    println!("wrote {}", written.config.display());
    let state = if written.created_plugins {
        " (created empty: put plugin libraries there)"
    } else if written.plugins.is_dir() {
        ""
    } else {
        " (it does not exist yet)"
    };
    println!("plugins are loaded from {}{state}", written.plugins.display());
    println!("next: mcp-plugin-host check, then mcp-plugin-host client-config --client <your client>");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Overrides, Settings};

    #[test]
    fn writes_a_commented_configuration_the_host_reads_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("user").join("appsettings.json");
        let written = init(&config, None, dir.path(), None).unwrap();
        assert_eq!(written.config, config);
        assert_eq!(written.directory_setting, "plugins");
        assert!(written.created_plugins && dir.path().join("user").join("plugins").is_dir());
        let text = std::fs::read_to_string(&config).unwrap();
        assert!(text.starts_with("// mcp-plugin-host configuration"), "{text}");

        let settings = Settings::load_with_env(&config, &Overrides::default(), []).unwrap();
        assert_eq!(settings.plugins.directory, dir.path().join("user").join("plugins"));
        assert!(!settings.plugins.is_enabled("conformance"));
        assert!(settings.plugins.is_enabled("sample"));

        std::fs::write(&config, "mine").unwrap();
        let error = init(&config, None, dir.path(), None).unwrap_err();
        assert!(error.contains("already exists"), "{error}");
        assert_eq!(std::fs::read_to_string(&config).unwrap(), "mine", "the existing file is untouched");
    }

    #[test]
    fn the_plugin_folder_is_relative_inside_the_configurations_folder_and_absolute_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = dir.path().join("bundle");
        std::fs::create_dir_all(bundle.join("plugins")).unwrap();
        // As the release bundle is made: the plugins beside the configuration.
        let written = init(Path::new("appsettings.json"), Some(Path::new("plugins")), &bundle, None).unwrap();
        assert_eq!(written.directory_setting, "plugins");

        // A user configuration pointing at an unpacked bundle's plugins, found beside the executable.
        let user = dir.path().join("user").join("appsettings.json");
        let written = init(&user, None, dir.path(), Some(&bundle)).unwrap();
        assert_eq!(PathBuf::from(&written.directory_setting), bundle.join("plugins"));
        assert!(!written.created_plugins);
        let settings = Settings::load_with_env(&user, &Overrides::default(), []).unwrap();
        assert_eq!(settings.plugins.directory, bundle.join("plugins"));

        // --plugins relative to the current folder, outside the configuration's folder.
        let other = dir.path().join("other.json");
        let written = init(&other, Some(Path::new("bundle/plugins")), dir.path(), None).unwrap();
        assert_eq!(Path::new(&written.directory_setting), Path::new("bundle").join("plugins"));
        let elsewhere = dir.path().join("nested").join("c.json");
        let written = init(&elsewhere, Some(Path::new("bundle/plugins")), dir.path(), None).unwrap();
        assert_eq!(PathBuf::from(&written.directory_setting), bundle.join("plugins"));
    }
}
