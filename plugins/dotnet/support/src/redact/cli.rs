//! Command lines and argument vectors: options whose value is secret in every tool, the commands
//! whose short options or positionals carry secrets, and the plan of which arguments to hide.

use std::sync::LazyLock;

use regex::Regex;

use super::{
    connection::{CONNECTION_HOST, redact_connection_string},
    keys::{KeyClass, LAST_KEY_WORDS, classify_key, key_words, normalize},
    labelled::{redact_labelled, saved_secret},
    patterns::{CONTEXT_FREE, SHAPES, redact_with},
    stand_in::mask,
};

/// Last words of option names whose value is a secret in every tool (`_` as in
/// [`STRONG_KEY_WORDS`](super::keys::STRONG_KEY_WORDS)): `--password`, `-Password`, `--api-key`, `-SymbolApiKey`,
/// `--client-secret`, `--sas-token`, `-storepass`, `--cookie`... `--password-stdin` ends in
/// another word, so it stays a plain switch.
pub(super) const SECRET_OPTION_ENDINGS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "api_key",
    "access_key",
    "account_key",
    "secret_key",
    "storepass",
    "keypass",
    "passin",
    "passout",
    // Redis' server options (`redis-server --requirepass X --masterauth Y`), its configuration
    // directives passed on the command line.
    "requirepass",
    "masterauth",
    "cookie",
    "connection",
    "connection_string",
];

/// A command whose own options give some arguments a secret meaning.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct CommandOptions {
    /// The words that start it, in order (`nuget add source`).
    pub(super) words: &'static [&'static str],
    /// Options whose value (the next argument, or the part after `=` / `:`) is secret. Windows
    /// options (`/rp`) match without regard to case.
    secret: &'static [&'static str],
    /// Options glued to their secret value (`mysql -pPASSWORD`, `7z -pPASSWORD`, `rar -hpPASSWORD`).
    glued: &'static [&'static str],
    /// Options whose value is `user<separator>password`, the part after the first separator
    /// secret (`curl -u user:password`, `smbclient -U user%password`, `lftp -u user,password`).
    user_password: &'static [(&'static str, char)],
    /// Which positional argument is secret (`ConvertTo-SecureString 'pw' -AsPlainText`: the
    /// first; `net user NAME PASSWORD /add`: the second).
    positional: Option<usize>,
    /// Whether the first positional after a share (`\\server\share`) is secret (`net use`).
    after_share: bool,
    /// Whether the positionals are `NAME VALUE`, VALUE as secret as NAME says (`aws configure
    /// set aws_secret_access_key VALUE`, `setx API_TOKEN VALUE`).
    named_value: bool,
    /// The letter of a flag (alone or among others: `-b`, `-nbB`) that makes the last positional
    /// the password (`htpasswd -b FILE USER PASSWORD`; without it the tool prompts).
    batch_flag: Option<char>,
}

impl CommandOptions {
    const fn secret(words: &'static [&'static str], secret: &'static [&'static str]) -> Self {
        Self {
            words,
            secret,
            glued: &[],
            user_password: &[],
            positional: None,
            after_share: false,
            named_value: false,
            batch_flag: None,
        }
    }

    const fn glued(words: &'static [&'static str], glued: &'static [&'static str]) -> Self {
        Self { glued, ..Self::secret(words, &[]) }
    }

    const fn user_password(words: &'static [&'static str], user_password: &'static [(&'static str, char)]) -> Self {
        Self { user_password, ..Self::secret(words, &[]) }
    }

    const fn positional(words: &'static [&'static str], secret: &'static [&'static str], index: usize) -> Self {
        Self { positional: Some(index), ..Self::secret(words, secret) }
    }

    const fn named_value(words: &'static [&'static str]) -> Self {
        Self { named_value: true, ..Self::secret(words, &[]) }
    }

    const fn batch(words: &'static [&'static str], flag: char) -> Self {
        Self { batch_flag: Some(flag), ..Self::secret(words, &[]) }
    }

    /// Whether `flag` is one of this command's secret options.
    fn is_secret(&self, flag: &str) -> bool {
        self.secret.iter().any(|option| *option == flag || option.starts_with('/') && option.eq_ignore_ascii_case(flag))
    }
}

/// The commands whose short options carry secrets. `login` stands for every registry and cloud
/// login that takes `-p` (docker, podman, buildah, helm registry, oras, az acr, az). The first
/// word matches without regard to case, with a directory and `.exe` before and after it
/// (`"C:\Program Files (x86)\Windows Kits\...\signtool.exe" sign`, `plink.exe`).
pub(super) const COMMANDS: &[CommandOptions] = &[
    CommandOptions::secret(&["dev-certs", "https"], &["-p"]),
    CommandOptions::secret(&["nuget", "push"], &["-k", "-sk"]),
    CommandOptions::secret(&["nuget", "delete"], &["-k", "-sk"]),
    CommandOptions::secret(&["nuget", "add", "source"], &["-p"]),
    CommandOptions::secret(&["nuget", "update", "source"], &["-p"]),
    CommandOptions::secret(&["login"], &["-p"]),
    CommandOptions::secret(&["sqlcmd"], &["-P"]),
    CommandOptions::secret(&["osql"], &["-P"]),
    CommandOptions::secret(&["isql"], &["-P"]),
    // SQL Server's bulk copy.
    CommandOptions::secret(&["bcp"], &["-P"]),
    CommandOptions::secret(&["sqlpackage"], &["/sp", "/tp"]),
    CommandOptions::secret(&["signtool", "sign"], &["/p"]),
    CommandOptions::secret(&["keyvault", "secret", "set"], &["--value"]),
    CommandOptions::secret(&["secret", "set"], &["-b", "--body"]),
    CommandOptions::glued(&["mysql"], &["-p"]),
    CommandOptions::glued(&["mysqldump"], &["-p"]),
    CommandOptions::glued(&["mysqladmin"], &["-p"]),
    CommandOptions::glued(&["mariadb"], &["-p"]),
    CommandOptions::secret(&["mongo"], &["-p"]),
    CommandOptions::secret(&["mongosh"], &["-p"]),
    CommandOptions::secret(&["mongodump"], &["-p"]),
    CommandOptions::secret(&["mongorestore"], &["-p"]),
    CommandOptions::secret(&["mongoexport"], &["-p"]),
    CommandOptions::secret(&["mongoimport"], &["-p"]),
    // Redis and its forks take the password after `-a` or `--pass`.
    CommandOptions::secret(&["redis-cli"], &["-a", "--pass"]),
    CommandOptions::secret(&["valkey-cli"], &["-a", "--pass"]),
    CommandOptions::secret(&["keydb-cli"], &["-a", "--pass"]),
    CommandOptions::secret(&["sshpass"], &["-p"]),
    // The old and new passphrases of a key.
    CommandOptions::secret(&["ssh-keygen"], &["-P", "-N"]),
    // PuTTY's password option.
    CommandOptions::secret(&["plink"], &["-pw"]),
    CommandOptions::secret(&["pscp"], &["-pw"]),
    CommandOptions::secret(&["psftp"], &["-pw"]),
    // Archivers: 7-Zip and RAR glue the password (`-pX`, RAR's `-hpX` also encrypts names), zip
    // and unzip take it after `-P`.
    CommandOptions::glued(&["7z"], &["-p"]),
    CommandOptions::glued(&["7za"], &["-p"]),
    CommandOptions::glued(&["7zr"], &["-p"]),
    CommandOptions::glued(&["rar"], &["-hp", "-p"]),
    CommandOptions::glued(&["unrar"], &["-p"]),
    CommandOptions::secret(&["zip"], &["-P"]),
    CommandOptions::secret(&["unzip"], &["-P"]),
    // openssl's pass phrases (`-passin pass:X`; `env:VAR` and `file:PATH` only name where one is)
    // and the raw key of `openssl enc -K HEX` (its `-iv` is not secret).
    CommandOptions::secret(&["openssl"], &["-pass", "-passin", "-passout", "-k", "-K"]),
    // Windows: a share's password, a new user's password, a scheduled task's run-as password,
    // stored credentials, remote execution and remote desktop.
    CommandOptions { after_share: true, ..CommandOptions::secret(&["net", "use"], &[]) },
    CommandOptions::positional(&["net", "user"], &[], 1),
    CommandOptions::secret(&["schtasks"], &["/rp", "/p"]),
    CommandOptions::secret(&["cmdkey"], &["/pass"]),
    CommandOptions::secret(&["psexec"], &["-p"]),
    CommandOptions::secret(&["paexec"], &["-p"]),
    CommandOptions::secret(&["xfreerdp"], &["/p"]),
    CommandOptions::secret(&["rdesktop"], &["-p"]),
    CommandOptions::positional(&["ConvertTo-SecureString"], &["-String"], 0),
    CommandOptions::user_password(&["curl"], &[("-u", ':'), ("--user", ':'), ("-U", ':'), ("--proxy-user", ':')]),
    // Directory, message-broker, database and certificate tools' password options.
    CommandOptions::secret(&["ldapsearch"], &["-w"]),
    CommandOptions::secret(&["ldapmodify"], &["-w"]),
    CommandOptions::secret(&["ldapadd"], &["-w"]),
    CommandOptions::secret(&["ldapdelete"], &["-w"]),
    CommandOptions::secret(&["mosquitto_pub"], &["-P"]),
    CommandOptions::secret(&["mosquitto_sub"], &["-P"]),
    CommandOptions::secret(&["couchbase-cli"], &["-p"]),
    CommandOptions::secret(&["cbq"], &["-p"]),
    CommandOptions::secret(&["certutil"], &["-p"]),
    CommandOptions::secret(&["cqlsh"], &["-p"]),
    CommandOptions::user_password(&["etcdctl"], &[("--user", ':')]),
    CommandOptions::user_password(&["jenkins-cli.jar"], &[("-auth", ':')]),
    // API keys given by a short option or a plain `--key` (Chocolatey's keys and Codecov's
    // tokens are GUIDs, so only the option tells them).
    CommandOptions::secret(&["choco", "apikey"], &["-k", "--key"]),
    CommandOptions::secret(&["choco", "push"], &["-k", "--key"]),
    CommandOptions::secret(&["codecov"], &["-t"]),
    CommandOptions::secret(&["codecovcli"], &["-t"]),
    // macOS `security`: a keychain's password (`create-keychain -p`, `unlock-keychain -p`), a
    // PKCS#12 file's (`import -P`, `export -P`), the one `set-key-partition-list -k` unlocks with,
    // and the password `add-generic-password -w` / `add-internet-password -w` stores (but
    // `find-generic-password -w` is a switch that prints one).
    CommandOptions::secret(&["security", "create-keychain"], &["-p"]),
    CommandOptions::secret(&["security", "unlock-keychain"], &["-p"]),
    CommandOptions::secret(&["security", "import"], &["-P"]),
    CommandOptions::secret(&["security", "export"], &["-P"]),
    CommandOptions::secret(&["security", "set-key-partition-list"], &["-k"]),
    CommandOptions::secret(&["security", "add-generic-password"], &["-w"]),
    CommandOptions::secret(&["security", "add-internet-password"], &["-w"]),
    // Apache's `htpasswd -b FILE USER PASSWORD` (`-nb USER PASSWORD`): batch mode takes the
    // password as the last positional.
    CommandOptions::batch(&["htpasswd"], 'b'),
    // Positional passwords and keys: `rabbitmqctl add_user NAME PASSWORD`, `poetry config
    // http-basic.REPO USER PASSWORD`, `mc alias set NAME URL ACCESS_KEY SECRET_KEY`, `ngrok
    // config add-authtoken TOKEN`.
    CommandOptions::positional(&["rabbitmqctl", "add_user"], &[], 1),
    CommandOptions::positional(&["rabbitmqctl", "change_password"], &[], 1),
    CommandOptions::positional(&["poetry", "config"], &[], 2),
    CommandOptions::positional(&["mc", "alias", "set"], &[], 3),
    CommandOptions::positional(&["ngrok", "config", "add-authtoken"], &[], 0),
    CommandOptions::user_password(&["smbclient"], &[("-U", '%'), ("--user", '%')]),
    CommandOptions::user_password(&["lftp"], &[("-u", ',')]),
    // Settings set by name: the value is as secret as its name says.
    CommandOptions::named_value(&["aws", "configure", "set"]),
    CommandOptions::named_value(&["setx"]),
    CommandOptions::named_value(&["npm", "config", "set"]),
    CommandOptions::named_value(&["yarn", "config", "set"]),
    CommandOptions::named_value(&["pnpm", "config", "set"]),
];

/// `dotnet user-secrets` options that take a value, so that value is not mistaken for KEY.
const USER_SECRETS_VALUE_OPTIONS: &[&str] = &["-p", "--project", "--id", "-c", "--configuration"];

/// One command-line token (quoted parts stay inside the token); a stray quote is its own token.
static CLI_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:"[^"]*"|'[^']*'|\$\{\{[^}]*\}\}|\$\([^)]*\)|[^\s"'])+|["']"#).expect("token pattern is valid")
});

/// Words that follow an option's name in prose (`Using --password via the CLI is insecure`), so
/// they are not its value.
const PROSE_WORDS: &[&str] = &[
    "via",
    "the",
    "a",
    "an",
    "is",
    "are",
    "was",
    "and",
    "or",
    "to",
    "in",
    "on",
    "for",
    "with",
    "from",
    "of",
    "must",
    "should",
    "will",
    "can",
    "cannot",
    "not",
    "option",
    "flag",
    "parameter",
    "argument",
    "value",
    "instead",
    "when",
    "if",
];

/// How the value of an option whose name says secret shows: a connection string (`--connection
/// "Host=...;Password=..."`) has its secret parts redacted, a word of the sentence the option is
/// named in stays, anything else is masked.
pub(super) fn option_value(flag: &str, value: &str) -> String {
    // The word after a switch that negates a setting is no value of it, only what its own shape
    // says it is.
    if negated(flag) {
        return redact_with(&SHAPES, value).into_owned();
    }
    let name = normalize(flag);
    if name.ends_with("connection") || name.ends_with("connectionstring") {
        return redact_labelled(KeyClass::Connection, value).unwrap_or_else(|| mask(value));
    }
    // A word of the sentence the option is named in, a variable (`-Password $secure`: a shell
    // or PowerShell variable, unquoted), or a `--secret id=...,src=...` spec that says where
    // the secret is (docker buildx, podman).
    if PROSE_WORDS.contains(&value)
        || VARIABLE.is_match(value)
        || SECRET_SPEC.is_match(value)
        || is_ignored_api_key(flag, value)
    {
        return value.to_owned();
    }
    // `--secret` of Google's Secret Manager names the secret (`gcloud secrets versions access
    // latest --secret=db-password`): a lower-case name of words, or its resource path, that says
    // what it stores.
    if name == "secret"
        && let Some(caps) = SECRET_NAME.captures(value)
        && classify_key(&caps["name"]) != KeyClass::Plain
    {
        return value.to_owned();
    }
    // Help text: the option's description after a column gap (`--password    force password prompt`).
    if flag.ends_with("  ") || flag.ends_with('\t') {
        return redact_with(&SHAPES, value).into_owned();
    }
    mask(value)
}

/// Whether `value` is the fixed word an Azure Artifacts feed is pushed with as API key
/// (`dotnet nuget push --api-key AzureArtifacts`, `nuget push -ApiKey az`, older `VSTS`): the
/// feed ignores the key (the credential provider signs in) and its documentation gives these
/// words, so they name no secret. Only as the value of an API-key option (`--api-key`,
/// `-ApiKey`, nuget's `-k`).
fn is_ignored_api_key(flag: &str, value: &str) -> bool {
    matches!(normalize(flag).as_str(), "apikey" | "k")
        && ["AzureArtifacts", "az", "VSTS"].contains(&value.trim_matches(['"', '\'']))
}

/// A camelCase identifier of two or more words, letters only (`adminPassword`).
pub(super) static IDENTIFIER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[a-z]+(?:[A-Z][a-z]+)+$").expect("identifier pattern is valid"));

/// A shell or PowerShell variable as an option's value, unquoted (`$secure`, `$env:PW` is a
/// stand-in already).
static VARIABLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\$[A-Za-z_][A-Za-z0-9_]*$").expect("variable pattern is valid"));

/// A `--secret` or `--mount=type=secret` spec: `id=...`, `src=...`, `env=...` fields.
static SECRET_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:(?:id|type|src|source|env|target|required|mode|uid|gid)=[^,\s]*,?)+$")
        .expect("secret spec pattern is valid")
});

/// The name of a secret in Google's Secret Manager, alone or in its resource path: lower-case
/// words joined by `-` or `_` (`stripe-key`, `projects/shop-prod/secrets/db_password`).
static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:projects/[a-z0-9-]+/secrets/)?(?P<name>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)$")
        .expect("secret name pattern is valid")
});

/// `value` cut before the first comma after which the rest is a list of options and hosts
/// (`x,contoso.redis.cache.windows.net:6380,ssl=True`): the value, and the rest with its
/// secrets redacted; `None` when there is no such comma (the comma is part of the value).
pub(super) fn split_option_list(value: &str) -> Option<(&str, String)> {
    value.match_indices(',').find_map(|(at, _)| {
        let rest = &value[at + 1..];
        let listed = redact_connection_string(rest)?;
        rest.split(',')
            .next()
            .is_some_and(|first| first.contains('=') || CONNECTION_HOST.is_match(first))
            .then(|| (&value[..at], format!(",{listed}")))
    })
}

/// What to do with one command-line argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ArgAction {
    /// Apply text redaction only.
    Text,
    /// The bytes `start..end` of the argument are a secret: all of it for an option's value,
    /// the part after `=` / `:` for `--option=value` (inside the quotes when the token is quoted).
    Secret { start: usize, end: usize },
    /// The bytes `start..end` are a connection string (`--connection "Host=...;Password=..."`):
    /// its secret parts are secret.
    Connection { start: usize, end: usize },
    /// The bytes `start..end` are the VALUE of `user-secrets set KEY VALUE`: shown as the message
    /// the command prints after saving it shows it (see [`saved_secret`]), so the command line
    /// and its output agree.
    Saved { start: usize, end: usize },
}

/// How the secret part of an argument shows.
type Show = fn(&str) -> String;

impl ArgAction {
    /// The secret part of an argument, and how it shows.
    pub(super) fn part(self) -> Option<(usize, usize, Show)> {
        match self {
            ArgAction::Text => None,
            ArgAction::Secret { start, end } => Some((start, end, mask)),
            ArgAction::Connection { start, end } => {
                Some((start, end, |value| redact_labelled(KeyClass::Connection, value).unwrap_or_else(|| mask(value))))
            }
            ArgAction::Saved { start, end } => Some((start, end, saved_secret)),
        }
    }
}

/// The command whose options give short options or positionals a secret meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    None,
    /// One of [`COMMANDS`].
    Command(&'static CommandOptions),
    /// `user-secrets`; counts positionals after `set` (KEY is the first, VALUE the second).
    UserSecrets {
        after_set: Option<usize>,
    },
}

/// The name a command-line word runs, for matching [`COMMANDS`]: without quotes, directory and
/// `.exe` (`"C:\Program Files (x86)\...\signtool.exe"` → `signtool`).
fn command_name(word: &str) -> &str {
    let word = word.trim_matches(['"', '\'']);
    let name = word.rsplit(['/', '\\']).next().unwrap_or(word);
    match name.len().checked_sub(4) {
        Some(stem) if name.is_char_boundary(stem) && name[stem..].eq_ignore_ascii_case(".exe") => &name[..stem],
        _ => name,
    }
}

fn unquote(arg: &str) -> &str {
    let bytes = arg.as_bytes();
    if bytes.len() >= 2 && (bytes[0] == b'"' || bytes[0] == b'\'') && bytes[bytes.len() - 1] == bytes[0] {
        &arg[1..arg.len() - 1]
    } else {
        arg
    }
}

/// Whether `option` (with its dashes, or the slash of a Windows option) takes a secret value in
/// any tool.
pub(super) fn is_secret_option(option: &str) -> bool {
    let name = option.trim_start_matches(['-', '/']);
    (option.starts_with('-') || option.starts_with('/') && option.len() == name.len() + 1)
        && !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && (SECRET_OPTION_ENDINGS.iter().any(|ending| normalize(name).ends_with(&ending.replace('_', "")))
            || option.starts_with('-') && name.rsplit('-').next().is_some_and(|last| last.eq_ignore_ascii_case("pass")))
}

fn is_secret_flag(flag: &str, context: Context) -> bool {
    !negated(flag)
        && (is_secret_option(flag)
            || option_names_secret(flag)
            || matches!(context, Context::Command(command) if command.is_secret(flag)))
}

/// Whether an option negates a setting (`--no-password` of `psql` and `pg_dump`: never prompt for
/// one): a switch that takes no value, so the word after it is not a secret.
fn negated(option: &str) -> bool {
    option.starts_with('-')
        && option.trim_start_matches('-').get(..3).is_some_and(|start| start.eq_ignore_ascii_case("no-"))
}

/// Words before `key` in an option's name that make it a key into data or a public key's, not a
/// secret (`--partition-key /tenantId`, `--cache-key products`, `--ssh-key ~/.ssh/id.pub`).
const DATA_KEY_WORDS: &[&str] = &[
    "cache",
    "partition",
    "sort",
    "row",
    "primary",
    "foreign",
    "unique",
    "composite",
    "index",
    "lookup",
    "routing",
    "idempotency",
    "dedup",
    "deduplication",
    "shard",
    "group",
    "hot",
    "registry",
    "object",
    "ssh",
    "gpg",
    "default",
];

/// Whether an option's name says its value is secret whatever the value looks like, so a weak
/// or short value is hidden too (`--client-secret=abc`, `--x-key k1`, `--signing-key dev`): the
/// name is judged as any key name is ([`classify_key`]) and must end in the word that says so. An
/// option that only describes a secret (`--key-file`, `--keyvault-name`, `--token-audience`), keys
/// data ([`DATA_KEY_WORDS`]) or is a bare `--key` (a name as often as a key) keeps its value.
fn option_names_secret(flag: &str) -> bool {
    let words = key_words(flag.trim_start_matches('-'));
    let (Some(last), true) = (words.last().map(String::as_str), flag.starts_with('-')) else { return false };
    match classify_key(flag.trim_start_matches('-')) {
        KeyClass::Secret => {
            ["password", "passwd", "passphrase", "secret", "token", "key"].contains(&last)
                || LAST_KEY_WORDS.contains(&last)
        }
        KeyClass::Weak => {
            last == "key" && words.len() >= 2 && !DATA_KEY_WORDS.contains(&words[words.len() - 2].as_str())
        }
        KeyClass::Connection | KeyClass::Neutral | KeyClass::Plain => false,
    }
}

/// Whether a word is written as an option: `-x`, `--x`, or a Windows `/x` (letters only before
/// any `:` or `=`, so a path is not one).
fn is_option(word: &str) -> bool {
    word.starts_with('-')
        || word.strip_prefix('/').is_some_and(|rest| {
            let name = rest.split([':', '=']).next().unwrap_or_default();
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Decides, for each argument of a command line, which parts are secret.
pub(super) fn plan_args<S: AsRef<str>>(args: &[S]) -> Vec<ArgAction> {
    let word = |i: usize| args.get(i).map_or("", |a| unquote(a.as_ref()));
    let starts = |i: usize, words: &[&str]| {
        words.iter().enumerate().all(|(k, w)| {
            let word = if k == 0 { command_name(word(i)) } else { word(i + k) };
            // The 64-bit build of a tool (`PsExec64.exe`) takes the same options.
            word.eq_ignore_ascii_case(w)
                || k == 0 && word.len() > 2 && word.ends_with("64") && word[..word.len() - 2].eq_ignore_ascii_case(w)
        })
    };
    let whole = |i: usize| ArgAction::Secret { start: 0, end: args[i].as_ref().len() };
    let mut actions = vec![ArgAction::Text; args.len()];
    let mut context = Context::None;
    // Positionals seen since the command of `context` started, the first of them, and whether a
    // share was among them.
    let mut positionals = 0;
    let mut first_positional = String::new();
    let mut after_share = false;
    // The last positional of a command that takes its password there in batch mode, and whether
    // its batch flag was given (see [`CommandOptions::batch_flag`]).
    let mut last_positional = None;
    let mut batch = false;
    let mut i = 0;
    while i < args.len() {
        let arg = word(i);
        // `arg` is `args[i]` without its quotes, if it had any.
        let quote = (args[i].as_ref().len() - arg.len()) / 2;
        if arg == "user-secrets" {
            context = Context::UserSecrets { after_set: None };
        } else if let Some(command) = COMMANDS.iter().find(|command| starts(i, command.words)).filter(|_| {
            // Inside a command, a word right after an option is that option's value (a server
            // named `mysql` in `sqlcmd -S mysql -P ...`), not the next command.
            let option_value = i > 0 && word(i - 1).starts_with('-') && !word(i - 1).contains(['=', ':']);
            !(matches!(context, Context::Command(_)) && option_value)
        }) {
            if let Some(at) = last_positional.take().filter(|_| batch) {
                actions[at] = whole(at);
            }
            batch = false;
            context = Context::Command(command);
            (positionals, after_share) = (0, false);
            i += command.words.len();
            continue;
        }
        if let Context::Command(command) = context {
            if let Some(glued) = command.glued.iter().find(|glued| arg.len() > glued.len() && arg.starts_with(*glued)) {
                actions[i] = ArgAction::Secret { start: quote + glued.len(), end: quote + arg.len() };
                i += 1;
                continue;
            }
            if let Some((_, separator)) = command.user_password.iter().find(|(option, _)| *option == arg) {
                if let Some(at) = word(i + 1).find(*separator) {
                    let quote = (args[i + 1].as_ref().len() - word(i + 1).len()) / 2;
                    actions[i + 1] = ArgAction::Secret { start: quote + at + 1, end: quote + word(i + 1).len() };
                }
                i += 2;
                continue;
            }
        }
        if let Context::Command(CommandOptions { batch_flag: Some(flag), .. }) = context {
            if arg.starts_with('-') && !arg.starts_with("--") {
                batch |= arg[1..].contains(*flag);
            } else if !is_option(arg) {
                last_positional = Some(i);
            }
        }
        if is_option(arg) || matches!(context, Context::Command(command) if command.is_secret(arg)) {
            let (flag, attached) = match arg.find(['=', ':']) {
                Some(at) => (&arg[..at], Some(at)),
                None => (arg, None),
            };
            let secret = is_secret_flag(flag, context);
            // A value that text keeps after the option keeps here too, by the same judgement
            // ([`option_value`]): a secret's name (`--secret=stripe-key`), a spec of ids and paths
            // (`--secret id=npmrc,src=...`), Azure Artifacts' fixed key.
            let value = attached.map_or(word(i + 1), |at| &arg[at + 1..]);
            if secret && option_value(flag, value) == value {
                i += usize::from(attached.is_none());
            } else if secret {
                let connection =
                    normalize(flag).ends_with("connection") || normalize(flag).ends_with("connectionstring");
                let action = |start, end| {
                    if connection { ArgAction::Connection { start, end } } else { ArgAction::Secret { start, end } }
                };
                match attached {
                    Some(at) => actions[i] = action(quote + at + 1, quote + arg.len()),
                    None if i + 1 < args.len() && !word(i + 1).starts_with("--") => {
                        actions[i + 1] = action(0, args[i + 1].as_ref().len());
                        i += 1;
                    }
                    None => {}
                }
            } else if matches!(context, Context::UserSecrets { .. })
                && attached.is_none()
                && USER_SECRETS_VALUE_OPTIONS.contains(&flag)
            {
                i += 1;
            }
        } else if let Context::Command(command) = context {
            let share = arg.starts_with("\\\\");
            if command.positional == Some(positionals) || command.after_share && after_share && arg != "*" {
                actions[i] = whole(i);
                after_share = false;
            } else if command.named_value && positionals == 1 {
                let shown = redact_labelled(classify_key(&first_positional), args[i].as_ref());
                if shown.is_some_and(|shown| shown != args[i].as_ref()) {
                    actions[i] = whole(i);
                }
            }
            after_share |= share;
            if positionals == 0 {
                first_positional = arg.to_owned();
            }
            positionals += 1;
        } else if let Context::UserSecrets { after_set } = &mut context {
            match after_set {
                None if arg == "set" => *after_set = Some(0),
                Some(positionals) => {
                    *positionals += 1;
                    if *positionals == 2 {
                        actions[i] = ArgAction::Saved { start: quote, end: quote + arg.len() };
                    }
                }
                None => {}
            }
        }
        i += 1;
    }
    if let Some(at) = last_positional.filter(|_| batch) {
        actions[at] = whole(at);
    }
    actions
}

/// Redacts a command-line segment (to the end of its line) that starts with a command whose
/// flags or positionals are secret only in context; the rest gets context-free redaction.
pub(super) fn redact_segment(segment: &str) -> String {
    // The program is the first word up to a blank, also when it ends a quoted path
    // (`signtool.exe" sign /p ...`).
    let program = segment.find([' ', '\t']).unwrap_or(segment.len());
    let tokens: Vec<(usize, &str)> = std::iter::once((0, &segment[..program]))
        .chain(CLI_TOKEN.find_iter(&segment[program..]).map(|token| (program + token.start(), token.as_str())))
        .collect();
    let actions = plan_args(&tokens.iter().map(|(_, token)| *token).collect::<Vec<_>>());
    let mut out = String::with_capacity(segment.len());
    let mut done = 0;
    for ((at, _), action) in tokens.iter().zip(actions) {
        if let Some((start, end, show)) = action.part() {
            let (start, end) = (at + start, at + end);
            out.push_str(&redact_with(&CONTEXT_FREE, &segment[done..start]));
            out.push_str(&show(&segment[start..end]));
            done = end;
        }
    }
    out.push_str(&redact_with(&CONTEXT_FREE, &segment[done..]));
    out
}

/// A piece of what `echo` prints: text as written, or a variable's value.
enum EchoPiece<'a> {
    Text(String),
    Variable(&'a str),
}

/// The arguments of `echo` up to the end of its command, as pieces of the line it prints (the
/// shell's quoting removed, unquoted words joined by one blank); `None` when the output goes
/// elsewhere (`> file`, `| cmd`) or the arguments cannot be read.
fn echo_pieces(args: &str) -> Option<Vec<EchoPiece<'_>>> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let (mut quote, mut blank, mut started) = (None, false, false);
    let mut chars = args.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (None, ' ' | '\t') => blank = started,
            (None, ';' | '&' | '#') => break,
            (None, '|' | '>' | '<' | '`') | (Some('"'), '`') => return None,
            (None | Some('"'), '$') => {
                let rest = &args[at + 1..];
                let braced = rest.starts_with('{');
                let name_start = at + 1 + usize::from(braced);
                let len = args[name_start..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(args.len() - name_start);
                if len == 0 || braced && !args[name_start + len..].starts_with('}') {
                    return None;
                }
                if blank {
                    text.push(' ');
                }
                (blank, started) = (false, true);
                pieces.push(EchoPiece::Text(std::mem::take(&mut text)));
                pieces.push(EchoPiece::Variable(&args[name_start..name_start + len]));
                let end = name_start + len + usize::from(braced);
                while chars.peek().is_some_and(|(next, _)| *next < end) {
                    chars.next();
                }
            }
            (None, '"' | '\'') => {
                if blank {
                    text.push(' ');
                }
                (quote, blank, started) = (Some(c), false, true);
            }
            (Some(open), c) if c == open => quote = None,
            (_, c) => {
                if blank {
                    text.push(' ');
                }
                (blank, started) = (false, true);
                text.push(c);
            }
        }
    }
    pieces.push(EchoPiece::Text(text));
    (quote.is_none()).then_some(pieces)
}

/// The line `echo` printed (`output`) for its arguments `args` (`"got: $SQL_PWD"`), with the
/// values of the variables named for a secret hidden as their names say (`got: [REDACTED]`);
/// `None` when the line is not what those arguments print.
pub(super) fn echoed_secrets(args: &str, output: &str) -> Option<String> {
    let args = args.trim_start();
    let args = args.strip_prefix("-n ").or_else(|| args.strip_prefix("-e ")).unwrap_or(args);
    let pieces = echo_pieces(args)?;
    let values = echo_values(&pieces, output)?;
    let names = pieces.iter().filter_map(|piece| match piece {
        EchoPiece::Variable(name) => Some(*name),
        EchoPiece::Text(_) => None,
    });
    let mut shown = String::with_capacity(output.len());
    let mut done = 0;
    for (name, (start, end)) in names.zip(values) {
        if let Some(masked) = redact_labelled(classify_key(name), &output[start..end]) {
            shown.push_str(&redact_with(&CONTEXT_FREE, &output[done..start]));
            shown.push_str(&masked);
            done = end;
        }
    }
    shown.push_str(&redact_with(&CONTEXT_FREE, &output[done..]));
    Some(shown)
}

/// Where each variable's value lies in the line `echo` printed: the line is its pieces' texts in
/// order (one line, a `\r` at its end not part of it), each variable's value between them as
/// short as lets the rest of the line match (a line `a / b / c` of `"$USER / $PW"` gives the user
/// `a`). Found by searching the texts directly, in time linear in the line for each text: first,
/// from the end, the last place each text can start and still leave room for the rest; then, from
/// the start, each text's first place that is not after that. `None` when the line is not one the
/// pieces print.
fn echo_values(pieces: &[EchoPiece<'_>], output: &str) -> Option<Vec<(usize, usize)>> {
    if output.contains('\n') {
        return None;
    }
    let line = output.strip_suffix('\r').unwrap_or(output);
    // The pieces alternate, a text first and last: text, variable, text, ..., variable, text.
    let texts: Vec<&str> = pieces
        .iter()
        .filter_map(|piece| match piece {
            EchoPiece::Text(text) => Some(text.as_str()),
            EchoPiece::Variable(_) => None,
        })
        .collect();
    let (first, rest) = texts.split_first()?;
    if !line.starts_with(first) {
        return None;
    }
    let Some((last, middle)) = rest.split_last() else {
        return (line.len() == first.len()).then(Vec::new);
    };
    // The latest start of each text after the first that leaves room for the texts after it.
    let mut latest = vec![line.strip_suffix(last)?.len()];
    for text in middle.iter().rev() {
        let room = *latest.last().expect("one start is known");
        latest.push(line[..room].rfind(text)?);
    }
    latest.reverse();
    let mut values = Vec::with_capacity(rest.len());
    let mut at = first.len();
    for (i, (text, latest)) in rest.iter().zip(latest).enumerate() {
        if at > latest {
            return None;
        }
        // The last text ends the line: it starts exactly where the line leaves room for it.
        let start = if i == rest.len() - 1 { latest } else { at + line[at..latest + text.len()].find(text)? };
        values.push((at, start));
        at = start + text.len();
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use crate::redact::{
        redacted_command_line,
        tests::{args, each, each_and_lines, r},
    };

    #[test]
    fn an_echo_s_variables_take_the_shortest_values_that_let_the_rest_of_the_line_match() {
        use super::echoed_secrets;
        for (args, output, shown) in [
            // Each variable's value is as short as the rest allows: the first ` / ` ends the user.
            ("\"$DB_USER / $DB_PASSWORD\"", "app / a / b", Some("app / [REDACTED]")),
            ("\"$DB_PASSWORD / $DB_USER\"", "a / b / app", Some("[REDACTED] / b / app")),
            ("\"auth=$API_TOKEN;$API_TOKEN\"", "auth=x;y;z", Some("auth=[REDACTED];[REDACTED]")),
            ("pw: $SMTP_PASS", "pw: hunter22\r", Some("pw: [REDACTED]\r")),
            ("-n \"[$SECRET]\"", "[ä]ö]", Some("[[REDACTED]]")),
            ("\"$SECRET\"", "", Some("")),
            // A name that says nothing secret leaves its value to the text forms.
            ("\"host $SMTP_HOST\"", "host smtp.example.org", Some("host smtp.example.org")),
            // A line that is not what the arguments print, or that goes elsewhere.
            ("\"pw: $SMTP_PASS\"", "password: x", None),
            ("\"pw: $SMTP_PASS!\"", "pw: x", None),
            ("$SMTP_PASS > file", "x", None),
        ] {
            let shown = shown.map(|shown| shown.replace("[REDACTED]", crate::redact::REDACTED));
            assert_eq!(echoed_secrets(args, output), shown, "{args} / {output}");
        }
    }

    #[test]
    fn the_value_an_echo_of_a_secret_named_variable_prints() {
        each_and_lines(&[
            (
                "$ REDIS_PASS=$(vault kv get -field=pw kv/redis) && echo \"redis ready, auth=$REDIS_PASS (db 0)\"\nredis ready, auth=Lq2#v9xTz (db 0)\n$ next",
                "$ REDIS_PASS=$(vault kv get -field=pw kv/redis) && echo \"redis ready, auth=$REDIS_PASS (db 0)\"\nredis ready, auth=[REDACTED] (db 0)\n$ next",
            ),
            (
                "+ echo Using ${SMTP_USER} / ${SMTP_PASSWORD} on $SMTP_HOST\nUsing mailer / hunter22 on smtp.example.org",
                "+ echo Using ${SMTP_USER} / ${SMTP_PASSWORD} on $SMTP_HOST\nUsing mailer / [REDACTED] on smtp.example.org",
            ),
            // Not what the echo prints, or printed elsewhere: the line is read as any line.
            ("$ echo \"token: $API_TOKEN\"\nsomething else", ""),
            ("$ echo \"$DB_PASSWORD\" > pw.txt\n$ ls", ""),
            ("$ echo 'literal $DB_PASSWORD'\nliteral $DB_PASSWORD", ""),
            ("$ echo \"path: $PATH\"\npath: /usr/bin", ""),
        ]);
    }

    #[test]
    fn short_password_options_of_every_command_that_takes_one() {
        for (input, expected) in [
            (
                "dotnet nuget add source https://feed/v3/index.json -n feed -u me -p pw1 --store-password-in-clear-text",
                "dotnet nuget add source https://feed/v3/index.json -n feed -u me -p [REDACTED] --store-password-in-clear-text",
            ),
            ("dotnet nuget update source feed -u me -p pw2", "dotnet nuget update source feed -u me -p [REDACTED]"),
            ("docker login -u me -p pw3 registry.example", "docker login -u me -p [REDACTED] registry.example"),
            ("az acr login -n reg -u me -p pw4", "az acr login -n reg -u me -p [REDACTED]"),
            ("helm registry login reg.example -u me -p pw5", "helm registry login reg.example -u me -p [REDACTED]"),
            ("sqlcmd -S . -U sa -P pw6 -Q \"SELECT 1\"", "sqlcmd -S . -U sa -P [REDACTED] -Q \"SELECT 1\""),
            // A server named like another command is the option's value.
            ("sqlcmd -S mysql -U sa -P pw6 -d shop", "sqlcmd -S mysql -U sa -P [REDACTED] -d shop"),
            ("mysql -u root -ppw7 shop", "mysql -u root -p[REDACTED] shop"),
            ("curl -u admin:pw8 https://api.example", "curl -u admin:[REDACTED] https://api.example"),
            ("signtool sign /f a.pfx /p pw9 app.exe", "signtool sign /f a.pfx /p [REDACTED] app.exe"),
            (
                "nuget.exe push a.nupkg -ApiKey k10 -Source feed",
                "nuget.exe push a.nupkg -ApiKey [REDACTED] -Source feed",
            ),
            (
                "keytool -genkey -storepass pw11 -keypass pw12",
                "keytool -genkey -storepass [REDACTED] -keypass [REDACTED]",
            ),
            (
                "az keyvault secret set --vault-name kv -n Db --value pw13",
                "az keyvault secret set --vault-name kv -n Db --value [REDACTED]",
            ),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        for kept in [
            "aws ecr get-login-password | docker login --username AWS --password-stdin 123.dkr.ecr.eu-west-1.amazonaws.com",
            "docker run -d -p 8080:80 web:1.0",
            "dotnet build -p:Version=1.2.3",
            "mysql -u root -p shop",
        ] {
            assert_eq!(r(kept), kept);
        }
        assert_eq!(args(&["login", "-u", "me", "-p", "pw"]), ["login", "-u", "me", "-p", "[REDACTED]"],);
        assert_eq!(
            args(&["nuget", "add", "source", "U", "-p", "pw"]),
            ["nuget", "add", "source", "U", "-p", "[REDACTED]"]
        );
    }

    #[test]
    fn secret_long_flags_in_text() {
        assert_eq!(
            r(r#"dotnet dev-certs https -ep cert.pfx --password "hunter22" --trust"#),
            r#"dotnet dev-certs https -ep cert.pfx --password "[REDACTED]" --trust"#
        );
        assert_eq!(r("nuget add source U --password pw"), "nuget add source U --password [REDACTED]");
        assert_eq!(r("--api-key=abc"), "--api-key=[REDACTED]");
        assert_eq!(r("--client-secret s --token t"), "--client-secret [REDACTED] --token [REDACTED]");
        assert_eq!(
            r(r#"ef dbcontext info --connection "Server=.;Database=x" --json"#),
            r#"ef dbcontext info --connection "Server=.;Database=x" --json"#
        );
        assert_eq!(
            r(r#"ef dbcontext info --connection "Server=.;Password=p;Database=x" --json"#),
            r#"ef dbcontext info --connection "Server=.;Password=[REDACTED];Database=x" --json"#
        );
        assert_eq!(r("--connection-string abc"), "--connection-string [REDACTED]");
        assert_eq!(r("--password --trust"), "--password --trust");
        // Secret Manager's `--secret` names the secret, whose value comes on the next line.
        assert_eq!(
            r(
                "$ gcloud secrets versions access latest --secret=stripe-key --project=shop-prod\nZr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1"
            ),
            "$ gcloud secrets versions access latest --secret=stripe-key --project=shop-prod\n[REDACTED]"
        );
        let path = "gcloud secrets versions access 3 --secret projects/shop-prod/secrets/db_password";
        assert_eq!(r(path), path);
        // A value that names nothing secret, or reads as a password, stays hidden.
        assert_eq!(r("--secret=shop-prod"), "--secret=[REDACTED]");
        assert_eq!(r("--secret=Hunter-2-Key"), "--secret=[REDACTED]");
    }

    #[test]
    fn a_secret_echoed_into_a_command_that_reads_it_from_stdin() {
        each_and_lines(&[
            (
                "echo Qx7-pp!2Lm | docker login contoso.azurecr.io -u contoso --password-stdin\nLogin Succeeded",
                "echo [REDACTED] | docker login contoso.azurecr.io -u contoso --password-stdin\nLogin Succeeded",
            ),
            (
                "$ echo -n \"ghp_Zr8Kq2Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg7Hj9Kl0\" | gh auth login --with-token",
                "$ echo -n \"ghp_[REDACTED]\" | gh auth login --with-token",
            ),
            ("echo 'S3cret!' | sudo -S apt-get update", "echo '[REDACTED]' | sudo -S apt-get update"),
            // A variable stands in for the secret; an echo into another command is text.
            ("echo \"$ACR_PASSWORD\" | docker login contoso.azurecr.io -u contoso --password-stdin", ""),
            ("echo ${{ secrets.GITHUB_TOKEN }} | gh auth login --with-token", ""),
            ("echo hello | tr a-z A-Z", ""),
        ]);
    }

    #[test]
    fn dev_certs_short_password_flag() {
        assert_eq!(
            r("Command: dotnet dev-certs https -ep /tmp/c.pfx -p pw --format Pfx"),
            "Command: dotnet dev-certs https -ep /tmp/c.pfx -p [REDACTED] --format Pfx"
        );
        assert_eq!(r("dotnet run -p App.csproj"), "dotnet run -p App.csproj");
    }

    #[test]
    fn nuget_push_short_key_flags() {
        assert_eq!(
            r("dotnet nuget push a.nupkg -k abc -sk def -s https://u:p@feed/v3"),
            "dotnet nuget push a.nupkg -k [REDACTED] -sk [REDACTED] -s https://u:[REDACTED]@feed/v3"
        );
    }

    #[test]
    fn the_fixed_key_an_azure_artifacts_push_takes_stays_and_any_other_key_does_not() {
        each_and_lines(&[
            (
                "[command]/usr/bin/dotnet nuget push out/*.nupkg --source https://pkgs.dev.azure.com/fabrikam/_packaging/feed/nuget/v3/index.json --api-key AzureArtifacts",
                "",
            ),
            (r#"nuget.exe push -Source "FabrikamFeed" -ApiKey az Fabrikam.Core.1.2.0.nupkg"#, ""),
            ("dotnet nuget push a.nupkg -s FabrikamFeed -k VSTS", ""),
            ("dotnet nuget push a.nupkg --api-key=AzureArtifacts -s FabrikamFeed", ""),
            (r#"Run dotnet nuget push a.nupkg --api-key "AzureArtifacts" --skip-duplicate"#, ""),
            // A look-alike is a key: another word, another case, the word with more to it.
            (
                "dotnet nuget push a.nupkg --api-key AzureArtifacts2 -s F",
                "dotnet nuget push a.nupkg --api-key [REDACTED] -s F",
            ),
            ("dotnet nuget push a.nupkg -k azureartifacts", "dotnet nuget push a.nupkg -k [REDACTED]"),
            ("dotnet nuget push a.nupkg --api-key Nq4Vx8Lm2Rt7", "dotnet nuget push a.nupkg --api-key [REDACTED]"),
            // Only an API key: the word as a password is a password.
            (
                "docker login fabrikam.azurecr.io -u ci --password az",
                "docker login fabrikam.azurecr.io -u ci --password [REDACTED]",
            ),
        ]);
        assert_eq!(
            args(&["nuget", "push", "a.nupkg", "--api-key", "AzureArtifacts", "-s", "FabrikamFeed"]),
            ["nuget", "push", "a.nupkg", "--api-key", "AzureArtifacts", "-s", "FabrikamFeed"]
        );
        assert_eq!(
            args(&["nuget", "push", "a.nupkg", "-k", "Vt9Lq"]),
            ["nuget", "push", "a.nupkg", "-k", "[REDACTED]"]
        );
    }

    #[test]
    fn user_secrets_set_value_only() {
        assert_eq!(
            r(r#"dotnet user-secrets set "ApiKey" "sk-123" --project App"#),
            r#"dotnet user-secrets set "ApiKey" "[REDACTED]" --project App"#
        );
        assert_eq!(
            r("dotnet user-secrets --project set set Movies:Key 12345"),
            "dotnet user-secrets --project set set Movies:Key [REDACTED]"
        );
        assert_eq!(r("dotnet user-secrets remove Foo"), "dotnet user-secrets remove Foo");
        // A value whose own form says which part is secret keeps the rest, as in the message the
        // command prints after saving it.
        assert_eq!(
            r(r#"dotnet user-secrets set Db "Server=db;Database=shop;Password=Qx7-pp!2;Encrypt=True""#),
            r#"dotnet user-secrets set Db "Server=db;Database=shop;Password=[REDACTED];Encrypt=True""#
        );
        // `dotnet user-secrets set -h`'s example, whose password is already masked.
        let example = r#"  dotnet user-secrets set ConnStr "User ID=bob;Password=***""#;
        assert_eq!(r(example), example);
    }

    #[test]
    fn command_options_of_programs_named_by_path_and_of_more_tools() {
        for (input, expected) in [
            (
                r#""C:\Program Files (x86)\Windows Kits\10\bin\x64\signtool.exe" sign /f "a.pfx" /p "pw1" app.exe"#,
                r#""C:\Program Files (x86)\Windows Kits\10\bin\x64\signtool.exe" sign /f "a.pfx" /p "[REDACTED]" app.exe"#,
            ),
            ("  SignTool.exe sign /p pw2 /fd SHA256 a.dll", "  SignTool.exe sign /p [REDACTED] /fd SHA256 a.dll"),
            (
                r#"$pw = ConvertTo-SecureString -String "pw3" -Force -AsPlainText"#,
                r#"$pw = ConvertTo-SecureString -String "[REDACTED]" -Force -AsPlainText"#,
            ),
            (
                "ConvertTo-SecureString 'pw4' -AsPlainText -Force",
                "ConvertTo-SecureString '[REDACTED]' -AsPlainText -Force",
            ),
            (
                "ssh-keygen -p -f ~/.ssh/id_rsa -P 'pw5' -N \"pw6\"",
                "ssh-keygen -p -f ~/.ssh/id_rsa -P '[REDACTED]' -N \"[REDACTED]\"",
            ),
            ("plink.exe -ssh deploy@host -pw pw7 -batch", "plink.exe -ssh deploy@host -pw [REDACTED] -batch"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        for kept in ["ssh-keygen -t ed25519 -N \"\" -f key", "ssh-keygen -l -f key.pub"] {
            assert_eq!(r(kept), kept);
        }
    }

    /// A word that ends in a letter of three bytes or more (`日本語`, `…`) is no tool's 64-bit name:
    /// it was cut inside that letter and panicked, in argument vectors and in a command line's text.
    #[test]
    fn words_ending_in_a_letter_of_several_bytes_are_read_whole() {
        assert_eq!(args(&["日本語", "-p", "x"]), ["日本語", "-p", "x"]);
        assert_eq!(args(&["docker", "login", "-p", "pw", "naïve…"]), ["docker", "login", "-p", "[REDACTED]", "naïve…"]);
        assert_eq!(r("docker login -u me -p pw 日本語"), "docker login -u me -p [REDACTED] 日本語");
    }

    #[test]
    fn args_flag_followed_by_value() {
        assert_eq!(
            args(&["dev-certs", "https", "-ep", "c.pfx", "--password", "hunter22", "--trust"]),
            ["dev-certs", "https", "-ep", "c.pfx", "--password", "[REDACTED]", "--trust"]
        );
        assert_eq!(args(&["dev-certs", "https", "-p", "x y"]), ["dev-certs", "https", "-p", "[REDACTED]"]);
        assert_eq!(args(&["run", "-p", "App.csproj"]), ["run", "-p", "App.csproj"]);
        assert_eq!(args(&["--API-KEY=abc"]), ["--API-KEY=[REDACTED]"]);
        assert_eq!(
            r(r#"dotnet nuget push a.nupkg "--api-key=abc" -k:def"#),
            r#"dotnet nuget push a.nupkg "--api-key=[REDACTED]" -k:[REDACTED]"#
        );
        assert_eq!(args(&["ef", "--connection", "--json"]), ["ef", "--connection", "--json"]);
    }

    #[test]
    fn args_an_option_named_for_a_secret_hides_even_a_weak_value_and_one_that_describes_it_keeps_its_value() {
        for (given, shown) in [
            (&["run", "--x-key", "k1", "-v", "q"][..], &["run", "--x-key", "[REDACTED]", "-v", "q"][..]),
            (&["--client-secret=abc", "--tenant", "t1"], &["--client-secret=[REDACTED]", "--tenant", "t1"]),
            (&["--api-token", "dev", "--verbose"], &["--api-token", "[REDACTED]", "--verbose"]),
            (&["--signing-key", "dev1", "out.dll"], &["--signing-key", "[REDACTED]", "out.dll"]),
            (&["-StorageKey", "abc"], &["-StorageKey", "[REDACTED]"]),
            // What describes a secret, keys data or only might be a name stays.
            (
                &["--key-file", "./app.snk", "--keyvault-name", "kv1"],
                &["--key-file", "./app.snk", "--keyvault-name", "kv1"],
            ),
            (
                &["--token-audience", "api://orders", "--key", "Greeting"],
                &["--token-audience", "api://orders", "--key", "Greeting"],
            ),
            (
                &["--partition-key", "/tenantId", "--public-key", "ssh-ed25519"],
                &["--partition-key", "/tenantId", "--public-key", "ssh-ed25519"],
            ),
            (&["--key-size", "2048", "--secret-name", "db"], &["--key-size", "2048", "--secret-name", "db"]),
        ] {
            assert_eq!(args(given), shown, "{given:?}");
        }
    }

    #[test]
    fn args_keep_what_text_keeps_after_a_secret_option() {
        // A secret's name and a spec of ids and paths say which secret, not what it is: argv
        // shows them as the same command line in text does.
        for (given, shown) in [
            (
                &["gcloud", "secrets", "versions", "access", "latest", "--secret=stripe-key"][..],
                &["gcloud", "secrets", "versions", "access", "latest", "--secret=stripe-key"][..],
            ),
            (
                &["gcloud", "secrets", "versions", "access", "3", "--secret", "projects/shop/secrets/db_password"],
                &["gcloud", "secrets", "versions", "access", "3", "--secret", "projects/shop/secrets/db_password"],
            ),
            (
                &["docker", "build", "--secret", "id=npmrc,src=$HOME/.npmrc", "."],
                &["docker", "build", "--secret", "id=npmrc,src=$HOME/.npmrc", "."],
            ),
            (
                &["docker", "buildx", "build", "--secret=id=aws,src=/root/.aws/credentials", "-t", "app", "."],
                &["docker", "buildx", "build", "--secret=id=aws,src=/root/.aws/credentials", "-t", "app", "."],
            ),
            // What text hides after the option stays hidden.
            (&["gcloud", "run", "deploy", "--secret=Qx7pp2Kd9"], &["gcloud", "run", "deploy", "--secret=[REDACTED]"]),
            (&["tool", "--secret", "s3cr3t-Value!"], &["tool", "--secret", "[REDACTED]"]),
            (&["docker", "build", "--secret", "id=npmrc,token=abc123"], &["docker", "build", "--secret", "[REDACTED]"]),
        ] {
            assert_eq!(args(given), shown, "{given:?}");
            assert_eq!(r(&given.join(" ")), shown.join(" "), "as text: {given:?}");
        }
    }

    #[test]
    fn args_nuget_push_and_user_secrets() {
        assert_eq!(
            args(&["nuget", "push", "a.nupkg", "-k", "oy2key", "-s", "https://api.nuget.org/v3/index.json"]),
            ["nuget", "push", "a.nupkg", "-k", "[REDACTED]", "-s", "https://api.nuget.org/v3/index.json"]
        );
        assert_eq!(
            args(&["user-secrets", "set", "-p", "App.csproj", "Db:Conn", "Server=.;Password=x y", "--verbose"]),
            ["user-secrets", "set", "-p", "App.csproj", "Db:Conn", "Server=.;Password=[REDACTED]", "--verbose"]
        );
    }

    #[test]
    fn args_get_text_redaction_too() {
        assert_eq!(
            args(&["build", "-p:DbPassword=x", "--source", "https://u:p@feed"]),
            ["build", "-p:DbPassword=[REDACTED]", "--source", "https://u:[REDACTED]@feed"]
        );
    }

    #[test]
    fn command_line_is_quoted_and_redacted() {
        assert_eq!(
            redacted_command_line(
                "dotnet",
                &["user-secrets", "set", "Db:Conn", "Server=.;Password=x y", "--project", "My App", ""]
            ),
            r#"dotnet user-secrets set Db:Conn Server=.;Password=[REDACTED] --project "My App" """#
        );
        assert_eq!(
            redacted_command_line("dotnet", &["new", "console", "-n", "say\"hi"]),
            r#"dotnet new console -n "say\"hi""#
        );
    }

    #[test]
    fn password_options_of_bulk_copy_archivers_openssl_and_windows_tools() {
        each(&[
            (
                "bcp dbo.Orders out orders.dat -S db -U sa -P Bcp-Pw0rd! -c",
                "bcp dbo.Orders out orders.dat -S db -U sa -P [REDACTED] -c",
            ),
            ("7z a -pZip-S3cret backup.7z src", "7z a -p[REDACTED] backup.7z src"),
            (
                r#""C:\Program Files\7-Zip\7z.exe" x -p"Sp ace" a.7z"#,
                r#""C:\Program Files\7-Zip\7z.exe" x -p"[REDACTED]" a.7z"#,
            ),
            ("rar a -hpRar-S3cret out.rar dir", "rar a -hp[REDACTED] out.rar dir"),
            ("zip -r -P Zip-Pw9 out.zip dir", "zip -r -P [REDACTED] out.zip dir"),
            ("unzip -P Zip-Pw9 out.zip", "unzip -P [REDACTED] out.zip"),
            (
                "openssl pkcs12 -export -in c.pem -passout pass:Pfx-S3cret -out c.pfx",
                "openssl pkcs12 -export -in c.pem -passout pass:[REDACTED] -out c.pfx",
            ),
            (
                "openssl enc -aes-256-cbc -k Enc-S3cret -in a -out b",
                "openssl enc -aes-256-cbc -k [REDACTED] -in a -out b",
            ),
            ("openssl rsa -in k.pem -passin env:KEY_PASS -out o.pem", ""),
            ("openssl rsa -in k.pem -passin file:/run/secrets/pass", ""),
            (
                r"net use Z: \\files\share Share-Pw1 /user:CONTOSO\build",
                r"net use Z: \\files\share [REDACTED] /user:CONTOSO\build",
            ),
            (r"net use \\files\share * /user:CONTOSO\build", ""),
            ("net user deploy N3w-User-Pw /add", "net user deploy [REDACTED] /add"),
            (
                "schtasks /Create /TN Nightly /TR run.cmd /RU CONTOSO\\svc /RP Task-Pw1",
                "schtasks /Create /TN Nightly /TR run.cmd /RU CONTOSO\\svc /RP [REDACTED]",
            ),
            ("cmdkey /generic:git /user:bob /pass:Cmd-Pw1", "cmdkey /generic:git /user:bob /pass:[REDACTED]"),
            ("psexec \\\\host -u admin -p Ps-Pw1 cmd", "psexec \\\\host -u admin -p [REDACTED] cmd"),
            (
                "sqlpackage /Action:Publish /TargetPassword:Pkg-Pw1 /tp:Pkg-Pw2",
                "sqlpackage /Action:Publish /TargetPassword:[REDACTED] /tp:[REDACTED]",
            ),
            ("smbclient //srv/share -U bob%Smb-Pw1", "smbclient //srv/share -U bob%[REDACTED]"),
        ]);
    }

    #[test]
    fn password_options_and_positionals_of_more_tools_are_hidden() {
        for (input, expected) in [
            (
                "ldapsearch -x -D cn=ro,dc=ex -w Lq8-vTz3Wp -b dc=ex",
                "ldapsearch -x -D cn=ro,dc=ex -w [REDACTED] -b dc=ex",
            ),
            ("curl --proxy-user ops:Zt6.qWm2Kx https://ex.org/", "curl --proxy-user ops:[REDACTED] https://ex.org/"),
            ("etcdctl --user admin:Hr2-pLx9Qw get /k", "etcdctl --user admin:[REDACTED] get /k"),
            ("mosquitto_sub -u dev -P Jk4_tYw8Zr -t a/b", "mosquitto_sub -u dev -P [REDACTED] -t a/b"),
            ("certutil -p Wq3-zRt7Ln -importpfx a.pfx", "certutil -p [REDACTED] -importpfx a.pfx"),
            (
                "java -jar jenkins-cli.jar -auth bot:0fe1d2c3b4a5 who-am-i",
                "java -jar jenkins-cli.jar -auth bot:[REDACTED] who-am-i",
            ),
            ("rabbitmqctl change_password app Tx5.mQw2Lz", "rabbitmqctl change_password app [REDACTED]"),
            ("poetry config http-basic.feed bot Pz8-kLm3Wq", "poetry config http-basic.feed bot [REDACTED]"),
            (
                "mc alias set s3 https://s3.ex.org AKEXAMPLE0001 Vn7qXw2LmZt9",
                "mc alias set s3 https://s3.ex.org AKEXAMPLE0001 [REDACTED]",
            ),
            ("ngrok config add-authtoken 1aBcD2eFgH3iJkL4", "ngrok config add-authtoken [REDACTED]"),
            (
                "choco apikey --key 0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d -s https://push.ex.org/",
                "choco apikey --key [REDACTED] -s https://push.ex.org/",
            ),
            ("codecov -t 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a -f cov.xml", "codecov -t [REDACTED] -f cov.xml"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
    }

    #[test]
    fn password_options_of_more_tools_and_options_named_pass() {
        each(&[
            ("redis-cli --pass Hq7!x-Lm2 PING", "redis-cli --pass [REDACTED] PING"),
            ("keydb-cli -h cache -a Pp8-ww2 info", "keydb-cli -h cache -a [REDACTED] info"),
            ("signer --ks-pass Kk9!zz-2 --bypass yes", "signer --ks-pass [REDACTED] --bypass yes"),
            (
                "codecovcli upload-process -t 0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a -F unit",
                "codecovcli upload-process -t [REDACTED] -F unit",
            ),
            ("security unlock-keychain -p Hh3!kk-8 ci.keychain", "security unlock-keychain -p [REDACTED] ci.keychain"),
            (
                "security import cert.p12 -k login.keychain -P Wq8!pp-2 -A",
                "security import cert.p12 -k login.keychain -P [REDACTED] -A",
            ),
            (
                "security add-generic-password -a ci -s feed -w Zz5!tt-9",
                "security add-generic-password -a ci -s feed -w [REDACTED]",
            ),
            ("security find-generic-password -s feed -w", ""),
            ("htpasswd -nbB admin Rr6!yy-3", "htpasswd -nbB admin [REDACTED]"),
            ("htpasswd -b -C 12 /srv/.htpasswd ops Qq2-ww!8", "htpasswd -b -C 12 /srv/.htpasswd ops [REDACTED]"),
            ("htpasswd -c /srv/.htpasswd admin", ""),
        ]);
        assert_eq!(
            args(&["htpasswd", "-b", "users", "ops", "Qq2-ww!8"]),
            ["htpasswd", "-b", "users", "ops", "[REDACTED]"]
        );
    }
}
