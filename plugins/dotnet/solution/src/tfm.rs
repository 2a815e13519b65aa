//! Whether a project can reference another, by their target framework monikers: the rules
//! NuGet applies to project references, reduced to the families people target.
//!
//! - .NET 5+ and .NET Core (`net10.0`, `netcoreapp3.1`) accept a library for the same or an
//!   older version; a platform library (`net8.0-windows`) only a consumer of that platform.
//! - .NET Standard libraries: 2.0 and older are usable from .NET Core 2.0+ and .NET Framework
//!   4.6.1+ (1.x from 4.5), 2.1 from .NET Core 3.0+ only, and any version from a .NET Standard
//!   of the same or a higher version.
//! - .NET Framework (`net48`) accepts a .NET Framework library of the same or an older version.
//!
//! Monikers this module does not know (`$(TargetFramework)`, `uap10.0`, `xamarinios`) are
//! `None`, and callers skip the check rather than guess.

/// A parsed target framework moniker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tfm {
    family: Family,
    /// `major * 100 + minor` (`net8.0` → 800; `net472` → 472 as 4.7.2).
    version: u32,
    /// The platform of a .NET 5+ moniker, without its version (`windows`).
    platform: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// .NET 5 and later, and .NET Core.
    Core,
    /// .NET Standard.
    Standard,
    /// .NET Framework.
    Framework,
}

fn major_minor(text: &str) -> Option<u32> {
    let (major, minor) = text.split_once('.').unwrap_or((text, "0"));
    let minor = minor.split('.').next().unwrap_or("0");
    Some(major.parse::<u32>().ok()? * 100 + minor.parse::<u32>().ok()?)
}

/// Parses a moniker (without regard to case); `None` for one it does not know.
pub fn parse(moniker: &str) -> Option<Tfm> {
    let moniker = moniker.trim().to_ascii_lowercase();
    if let Some(version) = moniker.strip_prefix("netstandard") {
        return Some(Tfm { family: Family::Standard, version: major_minor(version)?, platform: None });
    }
    if let Some(version) = moniker.strip_prefix("netcoreapp") {
        return Some(Tfm { family: Family::Core, version: major_minor(version)?, platform: None });
    }
    let rest = moniker.strip_prefix("net")?;
    let (version, platform) = match rest.split_once('-') {
        Some((version, platform)) => (version, Some(platform)),
        None => (rest, None),
    };
    if version.contains('.') {
        let version = major_minor(version)?;
        let platform =
            platform.map(|platform| platform.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').to_owned());
        return (version >= 500).then_some(Tfm { family: Family::Core, version, platform });
    }
    // .NET Framework: net48, net472, net35.
    if platform.is_some() || version.is_empty() || !version.chars().all(|c| c.is_ascii_digit()) || version.len() > 3 {
        return None;
    }
    let padded = format!("{version:0<3}");
    Some(Tfm { family: Family::Framework, version: padded.parse().ok()?, platform: None })
}

/// Whether a project targeting `consumer` can reference a library targeting `library`.
pub fn compatible(consumer: &Tfm, library: &Tfm) -> bool {
    match (library.family, consumer.family) {
        (Family::Core, Family::Core) => {
            consumer.version >= library.version
                && library.platform.as_ref().is_none_or(|platform| consumer.platform.as_ref() == Some(platform))
        }
        (Family::Standard, Family::Standard) => consumer.version >= library.version,
        (Family::Standard, Family::Core) => match library.version {
            ..=200 => consumer.version >= 200,
            201.. => consumer.version >= 300,
        },
        (Family::Standard, Family::Framework) => match library.version {
            ..200 => consumer.version >= 450,
            200 => consumer.version >= 461,
            201.. => false,
        },
        (Family::Framework, Family::Framework) => consumer.version >= library.version,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn can(consumer: &str, library: &str) -> bool {
        compatible(&parse(consumer).unwrap(), &parse(library).unwrap())
    }

    #[test]
    fn parses_the_common_monikers_and_refuses_the_rest() {
        for moniker in ["net10.0", "NET8.0-windows10.0.19041.0", "netcoreapp3.1", "netstandard2.0", "net48", "net472"] {
            assert!(parse(moniker).is_some(), "{moniker}");
        }
        for moniker in ["$(TargetFramework)", "uap10.0", "net4.x", "net", "monoandroid90", "net3.5"] {
            assert!(parse(moniker).is_none(), "{moniker}");
        }
    }

    #[test]
    fn applies_nugets_rules() {
        assert!(can("net10.0", "net8.0"));
        assert!(!can("net8.0", "net10.0"));
        assert!(can("net8.0-windows", "net8.0"));
        assert!(!can("net8.0", "net8.0-windows"));
        assert!(can("net8.0-windows10.0.19041.0", "net8.0-windows"));
        assert!(can("net10.0", "netstandard2.1"));
        assert!(!can("netcoreapp2.1", "netstandard2.1"));
        assert!(can("net48", "netstandard2.0"));
        assert!(!can("net48", "netstandard2.1"));
        assert!(can("netstandard2.1", "netstandard2.0"));
        assert!(!can("netstandard2.0", "net8.0"));
        assert!(can("net48", "net472"));
        assert!(!can("net472", "net48"));
        assert!(!can("net8.0", "net48"));
        assert!(can("netcoreapp3.1", "netcoreapp3.0"));
    }
}
