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

/// Checks one value of `kind` for parameter `name`.
pub fn check(name: &str, kind: Kind, value: &str) -> Result<(), ErrorResponse> {
    let invalid = |reason: &str, message: String| Err(ErrorResult::invalid_params(name, reason, &message).into());
    if value.chars().any(|c| c == '\0' || c == '\n' || c == '\r') {
        return invalid(
            "invalid characters",
            format!("Invalid argument '{name}': contains a line break or NUL character."),
        );
    }
    if value.starts_with('-') {
        return invalid(
            "invalid characters",
            format!("Invalid argument '{name}': starts with '-', which the dotnet CLI would read as an option."),
        );
    }
    let pattern = match kind {
        Kind::Text | Kind::Path => None,
        Kind::ProjectPath => {
            let extension = std::path::Path::new(value).extension().and_then(|ext| ext.to_str());
            return match extension {
                Some(ext) if !PROJECT_EXTENSIONS.iter().any(|known| known.eq_ignore_ascii_case(ext)) => invalid(
                    "invalid value",
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
                    "invalid value",
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
            invalid("invalid value", format!("Invalid argument '{name}': must be {expected} (got '{value}')."))
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
            Some(other) => Err(ErrorResult::invalid_params(
                name,
                "invalid type",
                &format!("Invalid argument '{name}': must be a string, not {other}."),
            )
            .into()),
        }
    }

    /// A required string parameter of `kind`.
    pub fn req(&self, name: &str, kind: Kind) -> Result<&'a str, ErrorResponse> {
        self.opt(name, kind)?.ok_or_else(|| {
            let message = format!("Invalid argument '{name}': is required and cannot be empty.");
            ErrorResult::invalid_params(name, "required", &message).into()
        })
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
