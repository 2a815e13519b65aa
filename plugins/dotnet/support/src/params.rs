//! Checking a tool call's arguments before anything runs: the action, the
//! required parameters, and every value that reaches the dotnet command
//! line. A value that could smuggle an extra option (`--foo`), a line
//! break or a NUL is refused with INVALID_PARAMS naming the parameter and
//! the reason, so the model can correct its call.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::errors::{ErrorResponse, ErrorResult};

/// Declares an action enum and implements [`crate::kit::ActionEnum`] for it: its variants (each
/// may carry doc comments) and their wire names (the variant names, PascalCase, as the reference
/// server spells them).
///
/// ```
/// use dotnet_support::kit::ActionEnum;
///
/// dotnet_support::actions! {
///     /// What the tool can do.
///     pub enum Act {
///         /// Prints the version.
///         Version,
///         Info,
///     }
/// }
/// assert_eq!(Act::NAMES, ["Version", "Info"]);
/// assert_eq!(Act::ALL, [Act::Version, Act::Info]);
/// assert_eq!(Act::from_name("info"), Some(Act::Info));
/// assert_eq!(Act::Version.name(), "Version");
/// ```
#[macro_export]
macro_rules! actions {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$variant_meta:meta])* $variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$variant_meta])* $variant),+ }

        impl $crate::kit::ActionEnum for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];

            const NAMES: &'static [&'static str] = &[$(stringify!($variant)),+];

            fn name(self) -> &'static str {
                match self { $(Self::$variant => stringify!($variant)),+ }
            }

            fn from_name(text: &str) -> ::core::option::Option<Self> {
                $(if text.eq_ignore_ascii_case(stringify!($variant)) { return Some(Self::$variant); })+
                None
            }
        }
    };
}

/// The arguments of one call, with typed and checked access.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    args: &'a Map<String, Value>,
}

static EMPTY: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

/// What kind of value a parameter holds, which decides how it is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text that becomes one argument (a search term, a message). Must not look like an option.
    Text,
    /// A file or folder path.
    Path,
    /// A project or solution file, or a folder holding one.
    ProjectPath,
    /// A build configuration (`Debug`, `Release`, or any custom one).
    Configuration,
    /// A target framework moniker (`net10.0`, `net8.0-windows`, `netstandard2.1`, `net48`).
    Framework,
    /// A runtime identifier (`linux-x64`, `browser-wasm`, `linux-musl-arm64`).
    Runtime,
    /// An MSBuild verbosity.
    Verbosity,
    /// A NuGet package id.
    PackageId,
    /// A NuGet version or version range.
    Version,
    /// An identifier: letters, digits, `_ - .` (template short names, workload ids, property names).
    Identifier,
    /// An argument handed on to a program after `--` (an app's or a tool's arguments): it may
    /// start with `-`, since the dotnet CLI does not read it; no line break or NUL.
    Argument,
}

static CONFIGURATION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_.\-]{1,64}$").unwrap());
static FRAMEWORK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?i)net(coreapp|standard)?[0-9][0-9.]*(-[a-z0-9.]+)?$").unwrap());
static RUNTIME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[a-z0-9]+(\.[0-9]+)*(-[a-z0-9]+){1,3}$").unwrap());
static PACKAGE_ID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,99}$").unwrap());
static VERSION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[0-9A-Za-z.+*\-\[\](), ]{1,64}$").unwrap());
static IDENTIFIER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_.\-]{1,128}$").unwrap());
const VERBOSITIES: [&str; 10] = ["q", "quiet", "m", "minimal", "n", "normal", "d", "detailed", "diag", "diagnostic"];
const PROJECT_EXTENSIONS: [&str; 10] =
    ["csproj", "fsproj", "vbproj", "proj", "esproj", "sqlproj", "sln", "slnx", "slnf", "cs"];

/// Why an argument is refused: `additionalData.reason` of the INVALID_PARAMS error, one
/// vocabulary for every family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A parameter the action needs is missing or blank.
    Required,
    /// The value has the wrong JSON type (a number for a string, a string for a list).
    Type,
    /// The value has the right type but is not one the parameter takes.
    Value,
    /// The value holds a line break or NUL, or starts with `-` (it would become an option).
    Characters,
    /// The action does not take the parameter.
    NotApplicable,
    /// The file or folder it names does not exist, or holds nothing of the kind asked for.
    NotFound,
    /// Several candidates fit where one must be named.
    Ambiguous,
    /// It contradicts another parameter.
    Conflict,
    /// A list names more items than the action takes at once.
    TooMany,
    /// The value is valid, but not in this context (this SDK, this kind of project).
    NotSupported,
}

impl Reason {
    /// The reason as the contract spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Required => "required",
            Reason::Type => "invalid type",
            Reason::Value => "invalid value",
            Reason::Characters => "invalid characters",
            Reason::NotApplicable => "not applicable",
            Reason::NotFound => "not found",
            Reason::Ambiguous => "ambiguous",
            Reason::Conflict => "conflict",
            Reason::TooMany => "too many",
            Reason::NotSupported => "not supported",
        }
    }
}

/// The one way to refuse an argument: INVALID_PARAMS naming `parameter` (`name`, `name[2]`), why,
/// and `message`, a sentence the model can act on. The contract's messages start with
/// `Invalid argument '<parameter>': `, then say what the parameter must be and what was given.
pub fn invalid(parameter: &str, reason: Reason, message: impl AsRef<str>) -> ErrorResponse {
    ErrorResult::invalid_params(parameter, reason.as_str(), message.as_ref()).into()
}

/// How a list parameter given as one string is split into items ([`Params::list`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// On commas: names that never hold one (tables, schemas, ids).
    Commas,
    /// On whitespace: command-line arguments (`--port 5000`).
    Whitespace,
    /// Not at all: the string is one item (a path may hold commas and spaces).
    Never,
}

/// Checks one value of `kind` for parameter `name`.
pub fn check(name: &str, kind: Kind, value: &str) -> Result<(), ErrorResponse> {
    let invalid = |reason: Reason, message: String| Err(invalid(name, reason, message));
    if value.chars().any(|c| c == '\0' || c == '\n' || c == '\r') {
        return invalid(
            Reason::Characters,
            format!("Invalid argument '{name}': contains a line break or NUL character."),
        );
    }
    if value.starts_with('-') && kind != Kind::Argument {
        return invalid(
            Reason::Characters,
            format!("Invalid argument '{name}': starts with '-', which the dotnet CLI would read as an option."),
        );
    }
    let pattern = match kind {
        Kind::Text | Kind::Path | Kind::Argument => None,
        Kind::ProjectPath => {
            let extension = std::path::Path::new(value).extension().and_then(|ext| ext.to_str());
            return match extension {
                Some(ext) if !PROJECT_EXTENSIONS.iter().any(|known| known.eq_ignore_ascii_case(ext)) => invalid(
                    Reason::Value,
                    format!(
                        "Invalid argument '{name}': must be a project or solution file ({}) or a folder, not a .{ext} file.",
                        PROJECT_EXTENSIONS.map(|ext| format!(".{ext}")).join(", ")
                    ),
                ),
                _ => Ok(()),
            };
        }
        Kind::Verbosity => {
            return if VERBOSITIES.iter().any(|known| known.eq_ignore_ascii_case(value)) {
                Ok(())
            } else {
                invalid(
                    Reason::Value,
                    format!("Invalid argument '{name}': must be one of {} (got '{value}').", VERBOSITIES.join(", ")),
                )
            };
        }
        Kind::Configuration => Some((&*CONFIGURATION, "a configuration name such as Debug or Release")),
        Kind::Framework => Some((&*FRAMEWORK, "a target framework such as net10.0, net8.0-windows or netstandard2.1")),
        Kind::Runtime => Some((&*RUNTIME, "a runtime identifier such as linux-x64, win-arm64 or browser-wasm")),
        Kind::PackageId => Some((&*PACKAGE_ID, "a NuGet package id such as Newtonsoft.Json")),
        Kind::Version => Some((&*VERSION, "a NuGet version or range such as 13.0.3 or [1.0,2.0)")),
        Kind::Identifier => Some((&*IDENTIFIER, "letters, digits, '_', '-' and '.' only")),
    };
    match pattern {
        Some((pattern, expected)) if !pattern.is_match(value) => {
            invalid(Reason::Value, format!("Invalid argument '{name}': must be {expected} (got '{value}')."))
        }
        _ => Ok(()),
    }
}

impl<'a> Params<'a> {
    /// The arguments of a call (an empty set when they are not an object).
    pub fn new(args: &'a Value) -> Self {
        Self { args: args.as_object().unwrap_or(&EMPTY) }
    }

    /// Every argument as given, `action` included.
    pub fn entries(&self) -> impl Iterator<Item = (&'a String, &'a Value)> + use<'a> {
        self.args.iter()
    }

    /// The raw value of a parameter.
    pub fn raw(&self, name: &str) -> Option<&'a Value> {
        self.args.get(name).filter(|value| !value.is_null())
    }

    /// An optional string parameter of `kind`; an empty string counts as absent.
    pub fn opt(&self, name: &str, kind: Kind) -> Result<Option<&'a str>, ErrorResponse> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
            Some(Value::String(text)) => check(name, kind, text).map(|()| Some(text.as_str())),
            Some(other) => {
                Err(invalid(name, Reason::Type, format!("Invalid argument '{name}': must be a string, not {other}.")))
            }
        }
    }

    /// A required string parameter of `kind`.
    pub fn req(&self, name: &str, kind: Kind) -> Result<&'a str, ErrorResponse> {
        self.opt(name, kind)?.ok_or_else(|| {
            invalid(name, Reason::Required, format!("Invalid argument '{name}': is required and cannot be empty."))
        })
    }

    /// A list parameter, by the one rule every family reads lists with: absent, `null`, `""` and
    /// `[]` are an empty list; an array holds one item per entry; a single string is split as
    /// `split` says (the parameter's description says so too). Every item is trimmed, blank items
    /// ask for nothing and are dropped (as blank parameters are, [`crate::kit::check`]), and each
    /// is checked as `kind`. A non-string entry is refused naming its index (`name[1]`); more than
    /// `max_items` items are refused as too many.
    pub fn list(&self, name: &str, kind: Kind, split: Split, max_items: usize) -> Result<Vec<&'a str>, ErrorResponse> {
        self.list_with(name, split, max_items, |named, item| check(named, kind, item))
    }

    /// A list parameter by the rule of [`Self::list`], each item checked by `check_item` (given
    /// the item's name for errors, `name[index]` or `name`, and the trimmed item): for items a
    /// [`Kind`] does not describe.
    pub fn list_with(
        &self,
        name: &str,
        split: Split,
        max_items: usize,
        check_item: impl Fn(&str, &str) -> Result<(), ErrorResponse>,
    ) -> Result<Vec<&'a str>, ErrorResponse> {
        // Each item with the name errors give it: `name[index]` in an array, `name` in a string.
        let items: Vec<(String, &'a str)> = match self.raw(name) {
            None => Vec::new(),
            Some(Value::String(text)) => {
                let items: Vec<&'a str> = match split {
                    Split::Commas => text.split(',').collect(),
                    Split::Whitespace => text.split_whitespace().collect(),
                    Split::Never => vec![text.as_str()],
                };
                items.into_iter().map(|item| (name.to_owned(), item)).collect()
            }
            Some(Value::Array(entries)) => entries
                .iter()
                .enumerate()
                .map(|(index, entry)| {
                    let named = format!("{name}[{index}]");
                    match entry.as_str() {
                        Some(item) => Ok((named, item)),
                        None => {
                            let message = format!("Invalid argument '{named}': must be a string, not {entry}.");
                            Err(invalid(&named, Reason::Type, message))
                        }
                    }
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                let message = format!("Invalid argument '{name}': must be a list of strings, not {other}.");
                return Err(invalid(name, Reason::Type, message));
            }
        };
        let items: Vec<(String, &'a str)> =
            items.into_iter().map(|(named, item)| (named, item.trim())).filter(|(_, item)| !item.is_empty()).collect();
        if items.len() > max_items {
            let message =
                format!("Invalid argument '{name}': names {} items; at most {max_items} at once.", items.len());
            return Err(invalid(name, Reason::TooMany, message));
        }
        items.into_iter().map(|(named, item)| check_item(&named, item).map(|()| item)).collect()
    }

    /// A string that may legitimately be empty (a property value), unchecked for options since
    /// it travels inside `-p:Name=value` or a file, never as its own argument.
    pub fn opt_any(&self, name: &str) -> Option<&'a str> {
        self.raw(name).and_then(Value::as_str)
    }

    /// A boolean flag (absent: false).
    pub fn flag(&self, name: &str) -> bool {
        self.raw(name).and_then(Value::as_bool).unwrap_or(false)
    }

    /// An optional non-negative integer.
    pub fn opt_u64(&self, name: &str) -> Option<u64> {
        self.raw(name).and_then(Value::as_u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_that_would_smuggle_options_are_refused() {
        for value in ["--output", "-p:Foo=1", "a\nb", "x\0"] {
            let error = &check("name", Kind::Text, value).unwrap_err().errors[0];
            assert!(error.message.contains("'name'"), "{value}: {}", error.message);
        }
        check("name", Kind::Text, "My App; $(rm -rf)").unwrap();
    }

    #[test]
    fn kinds_accept_what_the_cli_accepts() {
        for framework in ["net10.0", "net8.0-windows", "netstandard2.1", "netcoreapp3.1", "net48", "net10.0-browser"] {
            check("framework", Kind::Framework, framework).unwrap();
        }
        for runtime in
            ["linux-x64", "browser-wasm", "linux-musl-arm64", "freebsd-x64", "win10-x64", "maccatalyst-arm64"]
        {
            check("runtime", Kind::Runtime, runtime).unwrap();
        }
        check("configuration", Kind::Configuration, "Staging").unwrap();
        check("project", Kind::ProjectPath, "app.cs").unwrap();
        check("project", Kind::ProjectPath, "src/App").unwrap();
        assert!(check("project", Kind::ProjectPath, "notes.txt").is_err());
        assert!(check("framework", Kind::Framework, "java17").is_err());
        assert!(check("verbosity", Kind::Verbosity, "loud").is_err());
        assert!(check("packageId", Kind::PackageId, "a b").is_err());
    }

    #[test]
    fn params_read_types_and_report_missing_ones() {
        let args = json!({ "project": "App.csproj", "noBuild": true, "tail": 5, "empty": "" });
        let params = Params::new(&args);
        assert_eq!(params.opt("project", Kind::ProjectPath).unwrap(), Some("App.csproj"));
        assert!(params.flag("noBuild"));
        assert_eq!(params.opt_u64("tail"), Some(5));
        assert_eq!(params.opt("empty", Kind::Text).unwrap(), None);
        let error = &params.req("template", Kind::Identifier).unwrap_err().errors[0];
        let reason = &error.data.as_ref().unwrap().additional_data.as_ref().unwrap()["reason"];
        assert_eq!(reason, "required");
    }
}
