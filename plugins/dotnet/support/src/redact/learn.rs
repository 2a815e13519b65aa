//! Learning the secret values this machine holds, for [`super::known`]: what a developer's
//! tools keep in files and the environment, read at a plugin's start and again whenever one of
//! them changes.
//!
//! Sources, and which of their values are learned:
//! - **user secrets**: every store of the user (`~/.microsoft/usersecrets/*/secrets.json`;
//!   `%APPDATA%\Microsoft\UserSecrets` on Windows), not only the stores of the projects a call
//!   names: a call's output can carry another project's values (a referenced project, a test
//!   project sharing the id, a script that reads them), and the store is per user anyway. A
//!   store holds configuration too (`Logging:LogLevel:Default`, a URL), so a value is learned
//!   when its key names a secret (`Smtp:Password`, `Stripe:ApiKey`), the secret parts of a
//!   connection string (`ConnectionStrings:Default`'s `Password=`), a generated-looking value
//!   under a weaker name (`Signing:Key`), a key-like value under any name (20 or more base64
//!   characters mixing cases and digits), and the password of a URL's credentials;
//! - **the server's environment** and the `Environment` the operator configured for dotnet: the
//!   same rule, on variable names (`DB_PASSWORD`, `GITHUB_TOKEN`, `ConnectionStrings__Db`);
//! - **NuGet.Config**: the `ClearTextPassword` (and the encrypted `Password`) of every source's
//!   credentials, with its `Username`, in the files in effect for the folders calls work in
//!   (each folder and its parents, as NuGet looks them up), the user's (`~/.nuget/NuGet`,
//!   `~/.config/NuGet`, their `config/*.config`; `%APPDATA%\NuGet` on Windows) and the
//!   computer's (`/etc/opt/NuGet/Config`, `$NUGET_COMMON_APPLICATION_DATA/NuGet/Config`);
//! - **`~/.pgpass`** (or `PGPASSFILE`): each entry's password, with its user;
//! - **`~/.netrc`** (or `NETRC`; `~/_netrc` on Windows): each `password`, with its `login`.
//!
//! Every value then passes [`super::known::worth_masking`]. [`refresh`] is called where a
//! plugin starts a dotnet process ([`crate::exec::invocation`]) and where a call starts (the
//! kit): it compares the size and modification time of every source file (and the learned
//! environment) with the last time, and reads and installs again only when something changed.
//! Nothing learned is logged or written anywhere.

use std::{
    path::{Path, PathBuf},
    sync::Mutex,
    time::SystemTime,
};

use serde_json::Value;

use super::{
    KeyClass, classify_key,
    connection::split_connection_string,
    keys::{looks_generated, token_like},
    known::{self, KnownValues, Secret},
};

/// Where this process's secret sources are.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The user's home folder (`HOME`, `USERPROFILE` on Windows).
    pub home: Option<PathBuf>,
    /// Windows' `%APPDATA%`, where user secrets and the user's NuGet.Config live there.
    pub app_data: Option<PathBuf>,
    /// The environment variables whose values may be learned (name, value).
    pub env: Vec<(String, String)>,
}

/// A source file and how to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    UserSecrets,
    NuGetConfig,
    PgPass,
    Netrc,
}

/// Most user-secrets stores read, and largest file read, so a hostile home folder costs little.
const MAX_STORES: usize = 1_000;
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Most folders remembered for their NuGet.Config chain (the most recent are kept).
const MAX_DIRS: usize = 32;
/// Environment variables that hold the shell's current and previous folder.
const SHELL_FOLDERS: &[&str] = &["PWD", "OLDPWD"];
/// The names NuGet looks for in a folder.
const NUGET_CONFIG_NAMES: &[&str] = &["nuget.config", "NuGet.config", "NuGet.Config"];

impl Sources {
    /// The sources of this process: its home folder and its environment.
    pub fn of_this_process() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
        let home = if cfg!(windows) { var("USERPROFILE").or_else(|| var("HOME")) } else { var("HOME") };
        Self {
            home,
            app_data: var("APPDATA"),
            env: std::env::vars_os()
                .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
                .collect(),
        }
    }

    fn var(&self, name: &str) -> Option<PathBuf> {
        self.env.iter().find(|(key, value)| key == name && !value.is_empty()).map(|(_, value)| PathBuf::from(value))
    }

    /// The files to read for `dirs`, whether they exist or not (a file that appears later is
    /// a change).
    fn files(&self, dirs: &[PathBuf]) -> Vec<(Kind, PathBuf)> {
        let mut files = Vec::new();
        if let Some(root) = self.user_secrets_root() {
            let mut stores: Vec<PathBuf> = std::fs::read_dir(&root)
                .map(|entries| entries.filter_map(Result::ok).map(|entry| entry.path().join("secrets.json")).collect())
                .unwrap_or_default();
            stores.sort();
            stores.truncate(MAX_STORES);
            files.extend(stores.into_iter().map(|path| (Kind::UserSecrets, path)));
        }
        let mut nuget: Vec<PathBuf> = Vec::new();
        for dir in dirs {
            for folder in dir.ancestors() {
                nuget.extend(NUGET_CONFIG_NAMES.iter().map(|name| folder.join(name)));
            }
        }
        for folder in self.nuget_user_folders() {
            nuget.push(folder.join("NuGet.Config"));
            nuget.extend(config_files_in(&folder.join("config")));
        }
        for folder in self.nuget_computer_folders() {
            nuget.extend(config_files_in(&folder));
        }
        nuget.sort();
        nuget.dedup();
        files.extend(nuget.into_iter().map(|path| (Kind::NuGetConfig, path)));
        let pgpass = self.var("PGPASSFILE").or_else(|| {
            if cfg!(windows) {
                self.app_data.as_ref().map(|dir| dir.join("postgresql").join("pgpass.conf"))
            } else {
                self.home.as_ref().map(|home| home.join(".pgpass"))
            }
        });
        files.extend(pgpass.map(|path| (Kind::PgPass, path)));
        let netrc = self
            .var("NETRC")
            .or_else(|| self.home.as_ref().map(|home| home.join(if cfg!(windows) { "_netrc" } else { ".netrc" })));
        files.extend(netrc.map(|path| (Kind::Netrc, path)));
        files
    }

    fn user_secrets_root(&self) -> Option<PathBuf> {
        if cfg!(windows) {
            self.app_data.as_ref().map(|dir| dir.join("Microsoft").join("UserSecrets"))
        } else {
            self.home.as_ref().map(|home| home.join(".microsoft").join("usersecrets"))
        }
    }

    fn nuget_user_folders(&self) -> Vec<PathBuf> {
        if cfg!(windows) {
            self.app_data.iter().map(|dir| dir.join("NuGet")).collect()
        } else {
            self.home
                .iter()
                .flat_map(|home| [home.join(".nuget").join("NuGet"), home.join(".config").join("NuGet")])
                .collect()
        }
    }

    fn nuget_computer_folders(&self) -> Vec<PathBuf> {
        match self.var("NUGET_COMMON_APPLICATION_DATA") {
            Some(dir) => vec![dir.join("NuGet").join("Config")],
            None if cfg!(windows) => {
                self.var("ProgramFiles(x86)").into_iter().map(|dir| dir.join("NuGet").join("Config")).collect()
            }
            None if cfg!(target_os = "macos") => vec![PathBuf::from("/Library/Application Support/NuGet/Config")],
            None => vec![PathBuf::from("/etc/opt/NuGet/Config")],
        }
    }

    /// The values learned from the environment.
    fn env_secrets(&self, extra: &[(String, String)]) -> Vec<Secret> {
        let mut secrets = Vec::new();
        // The shell's working folders are named like a password (`PWD`), and are not one.
        for (name, value) in self.env.iter().chain(extra).filter(|(name, _)| !SHELL_FOLDERS.contains(&name.as_str())) {
            named(name, value, &mut secrets);
        }
        secrets
    }
}

/// The `*.config` files of a folder (NuGet's additional and computer-wide configurations).
fn config_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("config")))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Learns from a name and its value, by the rule in the module docs.
fn named(name: &str, value: &str, secrets: &mut Vec<Secret>) {
    let value = value.trim();
    if value.is_empty() {
        return;
    }
    match classify_key(name) {
        KeyClass::Secret => secrets.push(Secret::value(value)),
        KeyClass::Connection => connection_parts(value, secrets),
        KeyClass::Weak if looks_generated(value) => secrets.push(Secret::value(value)),
        _ if key_like_value(value) => secrets.push(Secret::value(value)),
        _ => {}
    }
    url_credentials(value, secrets);
}

/// A key-like value under any name: [`token_like`] from 20 characters.
fn key_like_value(value: &str) -> bool {
    token_like(value, 20)
}

/// The secret parts of a connection string (`Password=`, `AccountKey=`...).
fn connection_parts(value: &str, secrets: &mut Vec<Secret>) {
    let user = split_connection_string(value).into_iter().find_map(|(name, part)| {
        let name = name.to_ascii_lowercase().replace([' ', '_'], "");
        ["userid", "user", "uid", "username"].contains(&name.as_str()).then(|| unbrace(part).to_owned())
    });
    for (name, part) in split_connection_string(value) {
        if classify_key(name) == KeyClass::Secret {
            let part = unbrace(part.trim());
            secrets.push(match &user {
                Some(user) => Secret::password(user.clone(), part),
                None => Secret::value(part),
            });
        }
    }
}

fn unbrace(value: &str) -> &str {
    let value = value.trim();
    value.strip_prefix('{').and_then(|inner| inner.strip_suffix('}')).unwrap_or(value)
}

/// The password of `scheme://user:password@host` credentials in a value.
fn url_credentials(value: &str, secrets: &mut Vec<Secret>) {
    let Ok(url) = url::Url::parse(value) else { return };
    if let Some(password) = url.password() {
        let decoded = percent_encoding::percent_decode_str(password).decode_utf8_lossy().into_owned();
        let user = percent_encoding::percent_decode_str(url.username()).decode_utf8_lossy().into_owned();
        secrets.push(Secret::password(user, decoded));
    }
}

/// The values of a user-secrets store (`secrets.json`, flat or nested), by the rule above.
fn user_secrets(text: &str, secrets: &mut Vec<Secret>) {
    let Ok(root) = serde_json::from_str::<Value>(text.trim_start_matches('\u{feff}')) else { return };
    let mut pending = vec![(String::new(), &root)];
    while let Some((path, value)) = pending.pop() {
        match value {
            Value::Object(map) => pending.extend(map.iter().map(|(key, value)| (join(&path, key), value))),
            Value::Array(items) => {
                pending.extend(items.iter().enumerate().map(|(i, value)| (join(&path, &i.to_string()), value)));
            }
            Value::String(text) => named(&path, text, secrets),
            Value::Number(number) => named(&path, &number.to_string(), secrets),
            Value::Bool(_) | Value::Null => {}
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_owned() } else { format!("{path}:{key}") }
}

/// The credentials of a NuGet.Config: `<packageSourceCredentials><Source><add key="Username"
/// value="..."/><add key="ClearTextPassword" value="..."/>`.
fn nuget_config(text: &str, secrets: &mut Vec<Secret>) {
    let Ok(root) = crate::xml::parse(text) else { return };
    for credentials in root.descendants_named("packageSourceCredentials") {
        for source in credentials.elements() {
            let setting = |name: &str| {
                source
                    .children_named("add")
                    .find(|add| add.attribute("key").is_some_and(|key| key.eq_ignore_ascii_case(name)))
                    .and_then(|add| add.attribute("value"))
                    .map(str::to_owned)
            };
            let user = setting("Username").unwrap_or_default();
            for key in ["ClearTextPassword", "Password"] {
                if let Some(password) = setting(key).filter(|password| !password.is_empty()) {
                    secrets.push(Secret::password(user.clone(), password));
                }
            }
        }
    }
}

/// The passwords of a `.pgpass`: `host:port:database:user:password`, `\:` and `\\` escaped.
fn pgpass(text: &str, secrets: &mut Vec<Secret>) {
    for line in text.lines().filter(|line| !line.trim_start().starts_with('#')) {
        let mut fields = vec![String::new()];
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => fields.last_mut().expect("one field").extend(chars.next()),
                ':' if fields.len() < 5 => fields.push(String::new()),
                c => fields.last_mut().expect("one field").push(c),
            }
        }
        if let [.., user, password] = fields.as_slice()
            && fields.len() == 5
            && !password.is_empty()
        {
            secrets.push(Secret::password(if user == "*" { "" } else { user.as_str() }, password.clone()));
        }
    }
}

/// The passwords of a `.netrc`: `password` tokens, with the `login` of the same `machine`.
fn netrc(text: &str, secrets: &mut Vec<Secret>) {
    let mut tokens = netrc_tokens(text).into_iter();
    let (mut login, mut password) = (None::<String>, None::<String>);
    let mut flush = |login: &mut Option<String>, password: &mut Option<String>| {
        if let Some(password) = password.take() {
            secrets.push(Secret::password(login.take().unwrap_or_default(), password));
        }
        *login = None;
    };
    while let Some(token) = tokens.next() {
        match token.as_str() {
            "machine" | "default" => flush(&mut login, &mut password),
            "login" => login = tokens.next(),
            "password" => password = tokens.next(),
            "macdef" => {
                // A macro runs to the next blank line; its tokens are not settings.
                flush(&mut login, &mut password);
                tokens.next();
            }
            _ => {}
        }
    }
    flush(&mut login, &mut password);
}

/// The tokens of a `.netrc`, split at blanks, `"quoted"` tokens with `\` escapes as curl reads
/// them; `#` comments to the end of the line; a macro's body (after `macdef NAME`, to the next
/// blank line) skipped.
fn netrc_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut in_macro = false;
    for line in text.lines() {
        if in_macro {
            in_macro = !line.trim().is_empty();
            continue;
        }
        let mut chars = line.chars().peekable();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() {
                chars.next();
            } else if c == '#' {
                break;
            } else if c == '"' {
                chars.next();
                let mut token = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => token.extend(chars.next()),
                        c => token.push(c),
                    }
                }
                tokens.push(token);
            } else {
                let mut token = String::new();
                while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace()) {
                    token.push(c);
                    chars.next();
                }
                tokens.push(token);
            }
        }
        if tokens.len() >= 2 && tokens[tokens.len() - 2] == "macdef" {
            in_macro = true;
        }
    }
    tokens
}

/// Reads one source file into `secrets` (a missing, unreadable or oversized file adds nothing).
fn read(kind: Kind, path: &Path, secrets: &mut Vec<Secret>) {
    if std::fs::metadata(path).map_or(true, |meta| !meta.is_file() || meta.len() > MAX_FILE_BYTES) {
        return;
    }
    let Ok(text) = std::fs::read_to_string(path) else { return };
    match kind {
        Kind::UserSecrets => user_secrets(&text, secrets),
        Kind::NuGetConfig => nuget_config(&text, secrets),
        Kind::PgPass => pgpass(&text, secrets),
        Kind::Netrc => netrc(&text, secrets),
    }
}

/// Everything `sources` hold for `dirs` (the folders whose NuGet.Config chain is in effect),
/// plus the `extra` environment, sorted and without duplicates.
pub fn learn(sources: &Sources, dirs: &[PathBuf], extra: &[(String, String)]) -> Vec<Secret> {
    let mut secrets = sources.env_secrets(extra);
    for (kind, path) in sources.files(dirs) {
        read(kind, &path, &mut secrets);
    }
    secrets.sort();
    secrets.dedup();
    secrets
}

/// What a source file looked like when it was last read: absent, or its size and time.
type Stamp = (PathBuf, Option<(u64, Option<SystemTime>)>);

fn stamps(files: &[(Kind, PathBuf)]) -> Vec<Stamp> {
    files
        .iter()
        .map(|(_, path)| {
            let meta = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file);
            (path.clone(), meta.map(|meta| (meta.len(), meta.modified().ok())))
        })
        .collect()
}

/// What the process learned last, to tell whether anything changed.
#[derive(Default)]
struct Learner {
    /// Folders calls worked in, most recent last.
    dirs: Vec<PathBuf>,
    stamps: Vec<Stamp>,
    env: Vec<Secret>,
    learned: bool,
}

static LEARNER: Mutex<Learner> =
    Mutex::new(Learner { dirs: Vec::new(), stamps: Vec::new(), env: Vec::new(), learned: false });

/// Learns this machine's secret values (again, when a source changed since the last time) and
/// installs them for every redaction of the process. `dirs` are folders a call works in (their
/// NuGet.Config chain is in effect for it; remembered, the most recent [`MAX_DIRS`]); `extra` is
/// environment the process passes to dotnet beside its own.
pub fn refresh<P: AsRef<Path>>(dirs: &[P], extra: &[(String, String)]) {
    let sources = Sources::of_this_process();
    let mut learner = LEARNER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for dir in dirs {
        let dir = dir.as_ref();
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        learner.dirs.retain(|known| *known != dir);
        learner.dirs.push(dir);
    }
    let excess = learner.dirs.len().saturating_sub(MAX_DIRS);
    learner.dirs.drain(..excess);
    let stamps = stamps(&sources.files(&learner.dirs));
    let mut env = sources.env_secrets(extra);
    env.sort();
    env.dedup();
    if learner.learned && stamps == learner.stamps && env == learner.env {
        return;
    }
    let secrets = learn(&sources, &learner.dirs, extra);
    known::install(KnownValues::new(&secrets));
    *learner = Learner { dirs: std::mem::take(&mut learner.dirs), stamps, env, learned: true };
}

/// [`refresh`] for a dotnet process about to start in `cwd` with `args`: the folders it works in
/// are `cwd` and those of the arguments that name an existing file or folder (a project, a
/// solution), relative to `cwd`.
pub fn refresh_for_command(cwd: &Path, args: &[String], extra: &[(String, String)]) {
    let mut dirs: Vec<PathBuf> = vec![cwd.to_path_buf()];
    for arg in args.iter().filter(|arg| !arg.starts_with('-') && !arg.is_empty() && arg.len() < 4096) {
        let path = cwd.join(arg);
        if path.is_dir() {
            dirs.push(path);
        } else if path.is_file()
            && let Some(parent) = path.parent()
        {
            dirs.push(parent.to_path_buf());
        }
    }
    refresh(&dirs, extra);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(secrets: &[Secret]) -> Vec<&str> {
        secrets.iter().map(|secret| secret.value.as_str()).collect()
    }

    #[test]
    fn user_secrets_keep_secrets_and_leave_configuration() {
        let mut secrets = Vec::new();
        user_secrets(
            r#"{
              "Smtp:Password": "mail-pass-1",
              "Stripe": { "ApiKey": "sk_test_abc" },
              "ConnectionStrings:Default": "Server=db;User Id=app;Password={p;w}}d9};Encrypt=true",
              "ConnectionStrings:Local": "Server=(localdb)\\mssqllocaldb;Database=App;Trusted_Connection=True",
              "Signing:Key": "3q2+7w0x9y8z7a6b5c4d",
              "Payments:Merchant": "Ab3dEf6hIj9lMn2pQr5tUv8x",
              "Logging:LogLevel:Default": "Information",
              "Urls": "https://localhost:5001",
              "Cache": "redis://cache:Zx9-redis-pw@cache.local:6379",
              "Tenant": "2f5c9a1e-8b7d-4c3a-9e1f-0a2b3c4d5e6f"
            }"#,
            &mut secrets,
        );
        let mut got = values(&secrets);
        got.sort();
        assert_eq!(
            got,
            [
                "3q2+7w0x9y8z7a6b5c4d",
                "Ab3dEf6hIj9lMn2pQr5tUv8x",
                "Zx9-redis-pw",
                "mail-pass-1",
                "p;w}}d9",
                "sk_test_abc"
            ]
        );
        assert!(secrets.iter().any(|s| s.value == "p;w}}d9" && s.user.as_deref() == Some("app")));
    }

    #[test]
    fn nuget_config_credentials_with_their_user() {
        let mut secrets = Vec::new();
        nuget_config(
            r#"<?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources><add key="contoso" value="https://pkgs.contoso.com/index.json" /></packageSources>
              <packageSourceCredentials>
                <contoso>
                  <add key="Username" value="build@contoso.com" />
                  <add key="ClearTextPassword" value="n&amp;g3t-Cl34r" />
                </contoso>
              </packageSourceCredentials>
            </configuration>"#,
            &mut secrets,
        );
        assert_eq!(secrets, [Secret::password("build@contoso.com", "n&g3t-Cl34r")]);
    }

    #[test]
    fn pgpass_and_netrc_passwords() {
        let mut secrets = Vec::new();
        pgpass("# comment\ndb.local:5432:app:admin:pg\\:pass\\\\1\n*:*:*:*:anyPass99\nbroken line\n", &mut secrets);
        assert_eq!(secrets, [Secret::password("admin", "pg:pass\\1"), Secret::password("", "anyPass99")]);
        let mut secrets = Vec::new();
        netrc(
            "machine api.example.com login bob password b0b-secret\n\
             machine x.example.com\n  login \"al ice\"\n  password \"quoted pw\\\"9\"\n\
             macdef init\npassword not-a-setting\n\ndefault login anon password anon-pass-7\n",
            &mut secrets,
        );
        assert_eq!(
            secrets,
            [
                Secret::password("bob", "b0b-secret"),
                Secret::password("al ice", "quoted pw\"9"),
                Secret::password("anon", "anon-pass-7")
            ]
        );
    }

    #[test]
    fn environment_names_that_look_secret() {
        let sources = Sources {
            env: [
                ("DB_PASSWORD", "env-db-pass-1"),
                ("GITHUB_TOKEN", "ghp_x"),
                ("ConnectionStrings__Db", "Host=h;Username=u;Password=cs-pass-22"),
                ("PATH", "/usr/bin:/bin"),
                ("ASPNETCORE_ENVIRONMENT", "Development"),
                ("PASSWORD_FILE", "/run/secrets/db"),
                ("PWD", "/home/dev/src/app-with-long-name"),
            ]
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
            ..Sources::default()
        };
        let secrets = sources.env_secrets(&[("API_KEY".to_owned(), "extra-key-33".to_owned())]);
        assert_eq!(values(&secrets), ["env-db-pass-1", "ghp_x", "cs-pass-22", "extra-key-33"]);
    }

    #[test]
    fn every_source_of_a_home_folder_and_the_nuget_chain_of_a_project() {
        let home = tempfile::tempdir().unwrap();
        let write = |relative: &str, text: &str| {
            let path = home.path().join(relative);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(".microsoft/usersecrets/abc/secrets.json", r#"{"Db:Password":"us-pass-123"}"#);
        write(".pgpass", "h:5432:d:u:pgpass-456\n");
        write(".netrc", "machine m login l password netrc-789\n");
        let nuget = |password: &str| {
            format!(
                r#"<configuration><packageSourceCredentials><s><add key="Username" value="u"/><add key="ClearTextPassword" value="{password}"/></s></packageSourceCredentials></configuration>"#
            )
        };
        write(".nuget/NuGet/NuGet.Config", &nuget("user-nuget-1"));
        write("src/nuget.config", &nuget("repo-nuget-2"));
        write("src/App/App.csproj", "<Project/>");
        write("elsewhere/NuGet.Config", &nuget("not-in-effect-3"));
        let sources = Sources { home: Some(home.path().to_owned()), ..Sources::default() };
        let secrets = learn(&sources, &[home.path().join("src/App")], &[]);
        let mut got = values(&secrets);
        got.sort();
        assert_eq!(got, ["netrc-789", "pgpass-456", "repo-nuget-2", "us-pass-123", "user-nuget-1"]);
    }
}
