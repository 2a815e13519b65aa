//! Which configuration file a command uses.
//!
//! In order: `--config FILE`, the environment variable
//! [`CONFIG_ENV`], `appsettings.json` in the current folder, then the
//! user's configuration folder ([`user_config_file`]: the platform's
//! configuration directory for this program, by the `directories` crate).
//! The host says which one it used, so that a file found by surprise is
//! never a mystery.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use crate::settings::project_dirs;

/// The configuration file's name, in the current folder and in the user's folder.
pub const FILE_NAME: &str = "appsettings.json";

/// The environment variable that names the configuration file (after `--config`).
pub const CONFIG_ENV: &str = "MCP_PLUGIN_HOST_CONFIG";

/// Where the chosen configuration file came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `--config FILE`.
    Flag,
    /// [`CONFIG_ENV`].
    Environment,
    /// `appsettings.json` in the current folder.
    WorkingDirectory,
    /// The user's configuration folder.
    UserConfig,
}

impl fmt::Display for Origin {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Origin::Flag => "from --config",
            Origin::Environment => "from MCP_PLUGIN_HOST_CONFIG",
            Origin::WorkingDirectory => "found in the current folder",
            Origin::UserConfig => "found in the user configuration folder",
        })
    }
}

/// The configuration file a command will read, as an absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The file (it may not exist when it was named explicitly: loading it says so).
    pub path: PathBuf,
    /// How it was chosen.
    pub origin: Origin,
}

/// What [`locate`] looks at, gathered by [`Candidates::from_process`] or given by a test.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// `--config`.
    pub flag: Option<PathBuf>,
    /// The value of [`CONFIG_ENV`], when set and not empty.
    pub env: Option<PathBuf>,
    /// The current folder.
    pub cwd: PathBuf,
    /// [`user_config_file`].
    pub user: Option<PathBuf>,
}

impl Candidates {
    /// The candidates of this process: `flag`, its environment, its current folder, the user's folder.
    pub fn from_process(flag: Option<PathBuf>) -> Self {
        Self {
            flag,
            env: std::env::var_os(CONFIG_ENV).filter(|value| !value.is_empty()).map(PathBuf::from),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            user: user_config_file(),
        }
    }

    /// The file named explicitly (`--config`, then the environment), made absolute.
    pub fn explicit(&self) -> Option<Located> {
        let (path, origin) = match (&self.flag, &self.env) {
            (Some(path), _) => (path, Origin::Flag),
            (None, Some(path)) => (path, Origin::Environment),
            (None, None) => return None,
        };
        Some(Located { path: self.cwd.join(path), origin })
    }

    /// Where `init` writes: the file named explicitly, else the user's configuration file.
    pub fn init_target(&self) -> Result<PathBuf, String> {
        match (self.explicit(), &self.user) {
            (Some(located), _) => Ok(located.path),
            (None, Some(user)) => Ok(user.clone()),
            (None, None) => Err(format!(
                "this platform names no configuration folder for this user (no home folder?); pass --config FILE \
                 or set {CONFIG_ENV}"
            )),
        }
    }
}

/// The user-level configuration file: `$XDG_CONFIG_HOME/mcp-plugin-host/appsettings.json` on Linux
/// (else `~/.config/…`), `~/Library/Application Support/mcp-plugin-host/` on macOS,
/// `%APPDATA%\mcp-plugin-host\config\` on Windows. `None` when the platform names no home.
pub fn user_config_file() -> Option<PathBuf> {
    Some(project_dirs()?.config_dir().join(FILE_NAME))
}

/// Chooses the configuration file (see the [module documentation](self) for the order).
/// `Err` says where it looked and how to make one.
pub fn locate(candidates: &Candidates) -> Result<Located, String> {
    if let Some(located) = candidates.explicit() {
        return Ok(located);
    }
    let local = candidates.cwd.join(FILE_NAME);
    if local.is_file() {
        return Ok(Located { path: local, origin: Origin::WorkingDirectory });
    }
    if let Some(user) = candidates.user.as_deref().filter(|user| user.is_file()) {
        return Ok(Located { path: user.to_owned(), origin: Origin::UserConfig });
    }
    let user = match &candidates.user {
        Some(user) => format!(" nor {}", user.display()),
        None => String::new(),
    };
    Err(format!(
        "no configuration found: neither {}{user} exists; write one with `mcp-plugin-host init`, or pass --config FILE",
        local.display()
    ))
}

/// The folder of a configuration file (`.` for a bare file name).
pub fn folder_of(config: &Path) -> &Path {
    config.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(dir: &Path) -> Candidates {
        Candidates { flag: None, env: None, cwd: dir.join("work"), user: Some(dir.join("user").join(FILE_NAME)) }
    }

    #[test]
    fn the_order_is_flag_environment_current_folder_user_folder() {
        let dir = tempfile::tempdir().unwrap();
        let mut candidates = candidates(dir.path());
        std::fs::create_dir_all(&candidates.cwd).unwrap();
        std::fs::create_dir_all(dir.path().join("user")).unwrap();

        let error = locate(&candidates).unwrap_err();
        assert!(error.contains("mcp-plugin-host init"), "{error}");
        assert!(error.contains(&dir.path().join("user").join(FILE_NAME).display().to_string()), "{error}");

        std::fs::write(candidates.user.as_ref().unwrap(), "{}").unwrap();
        assert_eq!(locate(&candidates).unwrap().origin, Origin::UserConfig);

        std::fs::write(candidates.cwd.join(FILE_NAME), "{}").unwrap();
        let located = locate(&candidates).unwrap();
        assert_eq!((located.path, located.origin), (candidates.cwd.join(FILE_NAME), Origin::WorkingDirectory));

        candidates.env = Some(PathBuf::from("from-env.json"));
        let located = locate(&candidates).unwrap();
        assert_eq!((located.path, located.origin), (candidates.cwd.join("from-env.json"), Origin::Environment));

        candidates.flag = Some(PathBuf::from("/elsewhere/flag.json"));
        let located = locate(&candidates).unwrap();
        assert_eq!((located.path, located.origin), (PathBuf::from("/elsewhere/flag.json"), Origin::Flag));
    }

    #[test]
    fn init_writes_the_named_file_else_the_users() {
        let dir = tempfile::tempdir().unwrap();
        let mut candidates = candidates(dir.path());
        assert_eq!(candidates.init_target().unwrap(), dir.path().join("user").join(FILE_NAME));
        candidates.flag = Some(PathBuf::from("mine.json"));
        assert_eq!(candidates.init_target().unwrap(), candidates.cwd.join("mine.json"));
        candidates.flag = None;
        candidates.user = None;
        assert!(candidates.init_target().unwrap_err().contains("--config"));
    }

    #[test]
    fn the_user_file_follows_xdg_config_home_on_linux() {
        let user = user_config_file().expect("the test machine has a home folder");
        assert!(user.ends_with(Path::new("mcp-plugin-host").join(FILE_NAME)), "{}", user.display());
        if cfg!(target_os = "linux")
            && let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME").filter(|xdg| Path::new(xdg).is_absolute())
        {
            assert!(user.starts_with(xdg));
        }
    }
}
