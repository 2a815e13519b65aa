//! Target frameworks: a small table of facts about the target framework monikers (TFMs) people
//! use, their support, and which one to recommend given the installed SDKs.
//!
//! The facts come from Microsoft's .NET support policy (dotnet.microsoft.com/platform/support/policy,
//! last read November 2025): even-numbered releases are LTS (three years of support), odd-numbered
//! ones STS (two years since .NET 9; 18 months before). Release and end-of-support dates:
//!
//! | TFM | release | type | end of support |
//! |---|---|---|---|
//! | net11.0 | planned November 2026 | STS | — |
//! | net10.0 | 2025-11-11 | LTS | 2028-11-14 |
//! | net9.0 | 2024-11-12 | STS | 2026-11-10 |
//! | net8.0 | 2023-11-14 | LTS | 2026-11-10 |
//! | net7.0 | 2022-11-08 | STS | 2024-05-14 |
//! | net6.0 | 2021-11-08 | LTS | 2024-11-12 |
//! | net5.0 | 2020-11-10 | STS | 2022-05-10 |
//! | netcoreapp3.1 | 2019-12-03 | LTS | 2022-12-13 |
//! | netcoreapp3.0 | 2019-09-23 | STS | 2020-03-03 |
//! | netcoreapp2.1 | 2018-05-30 | LTS | 2021-08-21 |
//!
//! .NET Standard is a specification (no support dates); .NET Framework 4.6.2 and later are
//! supported as components of the Windows versions they ship with. Whether a framework is still
//! supported is computed from these dates and the day of the call, so the answer ages correctly;
//! the table itself must be extended when Microsoft ships a release (net11.0 is listed as a
//! preview until then, and an installed SDK newer than the table is reported as such by callers).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::listings::{is_prerelease, major};
use ReleaseType::{Lts, Sts};

/// Which line of .NET a framework belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// .NET 5 and later (`net5.0` … `net10.0`).
    Modern,
    /// .NET Core 1.0–3.1 (`netcoreappX.Y`).
    NetCore,
    /// .NET Standard (`netstandardX.Y`), a specification libraries target.
    NetStandard,
    /// .NET Framework (`net462` … `net481`), Windows only.
    NetFramework,
}

impl Family {
    /// The name used in structured content.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Modern => "modern",
            Family::NetCore => "netCore",
            Family::NetStandard => "netStandard",
            Family::NetFramework => "netFramework",
        }
    }
}

/// How long Microsoft supports a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseType {
    /// Long Term Support: three years.
    Lts,
    /// Standard Term Support: two years (18 months before .NET 9).
    Sts,
}

/// Where a framework stands on a given day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Released and receiving patches.
    Supported,
    /// Past its end of support: no more security patches.
    EndOfSupport,
    /// Not released yet on that day (or, without a release date, as far as this table knows).
    Preview,
    /// A specification (.NET Standard): support belongs to the implementations.
    NotApplicable,
}

impl Status {
    /// The name used in structured content.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Supported => "supported",
            Status::EndOfSupport => "endOfSupport",
            Status::Preview => "preview",
            Status::NotApplicable => "notApplicable",
        }
    }
}

/// One target framework of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Framework {
    /// The moniker (`net10.0`).
    pub tfm: &'static str,
    /// Its line of .NET.
    pub family: Family,
    /// The version it stands for (`10.0`).
    pub version: &'static str,
    /// A short description.
    pub description: &'static str,
    /// LTS or STS, for .NET (Core) releases.
    pub release_type: Option<ReleaseType>,
    /// The day of its release (ISO 8601), when released.
    pub released: Option<&'static str>,
    /// The last day of support (ISO 8601), when it has one.
    pub end_of_support: Option<&'static str>,
}

const fn modern(
    tfm: &'static str,
    version: &'static str,
    description: &'static str,
    release_type: ReleaseType,
    released: Option<&'static str>,
    end_of_support: Option<&'static str>,
) -> Framework {
    Framework {
        tfm,
        family: Family::Modern,
        version,
        description,
        release_type: Some(release_type),
        released,
        end_of_support,
    }
}

const fn other(tfm: &'static str, family: Family, version: &'static str, description: &'static str) -> Framework {
    Framework { tfm, family, version, description, release_type: None, released: None, end_of_support: None }
}

/// The table, newest first within each family.
pub const TABLE: &[Framework] = &[
    modern("net11.0", "11.0", ".NET 11 (planned for November 2026)", Sts, None, None),
    modern("net10.0", "10.0", ".NET 10", Lts, Some("2025-11-11"), Some("2028-11-14")),
    modern("net9.0", "9.0", ".NET 9", Sts, Some("2024-11-12"), Some("2026-11-10")),
    modern("net8.0", "8.0", ".NET 8", Lts, Some("2023-11-14"), Some("2026-11-10")),
    modern("net7.0", "7.0", ".NET 7", Sts, Some("2022-11-08"), Some("2024-05-14")),
    modern("net6.0", "6.0", ".NET 6", Lts, Some("2021-11-08"), Some("2024-11-12")),
    modern("net5.0", "5.0", ".NET 5", Sts, Some("2020-11-10"), Some("2022-05-10")),
    Framework {
        tfm: "netcoreapp3.1",
        family: Family::NetCore,
        version: "3.1",
        description: ".NET Core 3.1",
        release_type: Some(Lts),
        released: Some("2019-12-03"),
        end_of_support: Some("2022-12-13"),
    },
    Framework {
        tfm: "netcoreapp3.0",
        family: Family::NetCore,
        version: "3.0",
        description: ".NET Core 3.0",
        release_type: Some(Sts),
        released: Some("2019-09-23"),
        end_of_support: Some("2020-03-03"),
    },
    Framework {
        tfm: "netcoreapp2.1",
        family: Family::NetCore,
        version: "2.1",
        description: ".NET Core 2.1",
        release_type: Some(Lts),
        released: Some("2018-05-30"),
        end_of_support: Some("2021-08-21"),
    },
    other(
        "netstandard2.1",
        Family::NetStandard,
        "2.1",
        ".NET Standard 2.1: libraries for .NET Core 3.0+ and .NET 5+ (not .NET Framework)",
    ),
    other(
        "netstandard2.0",
        Family::NetStandard,
        "2.0",
        ".NET Standard 2.0: libraries shared between .NET Framework 4.6.2+ and .NET (Core)",
    ),
    other("net481", Family::NetFramework, "4.8.1", ".NET Framework 4.8.1 (Windows; supported with the OS)"),
    other("net48", Family::NetFramework, "4.8", ".NET Framework 4.8 (Windows; supported with the OS)"),
    other("net472", Family::NetFramework, "4.7.2", ".NET Framework 4.7.2 (Windows; supported with the OS)"),
    other("net462", Family::NetFramework, "4.6.2", ".NET Framework 4.6.2 (Windows; supported with the OS)"),
];

impl Framework {
    /// Where the framework stands on `today` (ISO 8601 date).
    pub fn status(&self, today: &str) -> Status {
        match (self.family, self.released, self.end_of_support) {
            (Family::NetStandard, _, _) => Status::NotApplicable,
            (Family::NetFramework, _, _) => Status::Supported,
            (_, None, _) => Status::Preview,
            (_, Some(released), _) if today < released => Status::Preview,
            (_, Some(_), Some(end)) if today > end => Status::EndOfSupport,
            _ => Status::Supported,
        }
    }

    /// The major version of a .NET (Core) framework (`10` of `net10.0`).
    pub fn major(&self) -> Option<u32> {
        matches!(self.family, Family::Modern | Family::NetCore).then(|| major(self.version)).flatten()
    }

    /// Whether an SDK of major version `sdk_major` can build for it: .NET (Core) up to the SDK's
    /// own version; .NET Standard and .NET Framework through reference packs, with any SDK.
    pub fn targetable_by(&self, sdk_major: u32) -> bool {
        self.major().is_none_or(|major| major <= sdk_major)
    }

    /// The framework as structured content. `sdk_versions`, when known, adds whether an
    /// installed (stable) SDK can build for it.
    pub fn to_json(&self, today: &str, sdk_versions: Option<&[&str]>) -> Value {
        let mut value = json!({
            "tfm": self.tfm,
            "family": self.family.as_str(),
            "version": self.version,
            "description": self.description,
            "status": self.status(today).as_str(),
            "isLts": self.release_type == Some(Lts),
        });
        let optional = [
            ("releaseType", self.release_type.map(|t| if t == Lts { "LTS" } else { "STS" })),
            ("releaseDate", self.released),
            ("endOfSupport", self.end_of_support),
        ];
        for (key, field) in optional {
            if let Some(field) = field {
                value[key] = json!(field);
            }
        }
        if let Some(versions) = sdk_versions {
            value["targetableByInstalledSdk"] = json!(stable_majors(versions).any(|major| self.targetable_by(major)));
        }
        value
    }
}

/// The majors of the stable versions among `versions`.
fn stable_majors<'a>(versions: &'a [&'a str]) -> impl Iterator<Item = u32> + 'a {
    versions.iter().filter(|version| !is_prerelease(version)).filter_map(|version| major(version))
}

/// The framework of a moniker, without regard to case, and its platform suffix
/// (`windows10.0.19041.0` of `net8.0-windows10.0.19041.0`), if any.
pub fn lookup(tfm: &str) -> Option<(&'static Framework, Option<&str>)> {
    let (base, platform) = match tfm.split_once('-') {
        Some((base, platform)) => (base, Some(platform)),
        None => (tfm, None),
    };
    TABLE.iter().find(|framework| framework.tfm.eq_ignore_ascii_case(base)).map(|framework| (framework, platform))
}

/// The newest .NET release of `release_type` (any type when `None`) that is supported on `today`.
pub fn newest_supported(today: &str, release_type: Option<ReleaseType>) -> Option<&'static Framework> {
    TABLE.iter().find(|framework| {
        framework.family == Family::Modern
            && framework.status(today) == Status::Supported
            && release_type.is_none_or(|wanted| framework.release_type == Some(wanted))
    })
}

/// The framework to recommend for new projects: the newest supported LTS release, and whether
/// an installed stable SDK (of `sdk_versions`) can build for it.
pub fn recommended(today: &str, sdk_versions: &[&str]) -> Option<(&'static Framework, bool)> {
    let framework = newest_supported(today, Some(Lts))?;
    let installed = stable_majors(sdk_versions).any(|major| framework.targetable_by(major));
    Some((framework, installed))
}

/// SDK versions whose major is newer than every release in the table: the facts here are older
/// than the machine's SDKs.
pub fn newer_than_table<'a>(sdk_versions: &[&'a str]) -> Vec<&'a str> {
    let newest = TABLE.iter().filter_map(Framework::major).max().unwrap_or(0);
    sdk_versions.iter().copied().filter(|version| major(version).is_some_and(|major| major > newest)).collect()
}

/// Today's date in UTC, ISO 8601 (`2026-11-22`).
pub fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map(|elapsed| elapsed.as_secs() / 86_400).unwrap_or(0);
    let (year, month, day) = civil_from_days(days as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The JSON Schema of [`Framework::to_json`].
pub fn framework_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tfm": { "type": "string", "description": "Target framework moniker, e.g. net10.0." },
            "family": { "enum": ["modern", "netCore", "netStandard", "netFramework"] },
            "version": { "type": "string" },
            "description": { "type": "string" },
            "status": { "enum": ["supported", "endOfSupport", "preview", "notApplicable"] },
            "isLts": { "type": "boolean" },
            "releaseType": { "enum": ["LTS", "STS"] },
            "releaseDate": { "type": "string", "format": "date" },
            "endOfSupport": { "type": "string", "format": "date" },
            "targetableByInstalledSdk": { "type": "boolean" }
        },
        "required": ["tfm", "family", "version", "description", "status", "isLts"]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_status_follows_the_dates() {
        let (net8, _) = lookup("net8.0").unwrap();
        assert_eq!(net8.status("2026-11-10"), Status::Supported);
        assert_eq!(net8.status("2026-11-11"), Status::EndOfSupport);
        assert_eq!(lookup("net11.0").unwrap().0.status("2026-11-22"), Status::Preview);
        assert_eq!(lookup("netstandard2.0").unwrap().0.status("2026-11-22"), Status::NotApplicable);
        assert_eq!(lookup("net48").unwrap().0.status("2030-01-01"), Status::Supported);
    }

    #[test]
    fn monikers_are_found_with_their_platform() {
        let (framework, platform) = lookup("NET8.0-windows10.0.19041.0").unwrap();
        assert_eq!((framework.tfm, platform), ("net8.0", Some("windows10.0.19041.0")));
        assert!(lookup("net12.0").is_none());
        assert_eq!(lookup("netcoreapp3.1").unwrap().0.major(), Some(3));
    }

    #[test]
    fn the_recommendation_is_the_newest_supported_lts() {
        assert_eq!(recommended("2026-06-01", &["8.0.416"]).map(|(f, ok)| (f.tfm, ok)), Some(("net10.0", false)));
        assert_eq!(
            recommended("2026-11-22", &["8.0.416", "10.0.100"]).map(|(f, ok)| (f.tfm, ok)),
            Some(("net10.0", true))
        );
        assert_eq!(recommended("2026-11-22", &["10.0.100-rc.2"]).map(|(f, ok)| (f.tfm, ok)), Some(("net10.0", false)));
        assert_eq!(newest_supported("2026-06-01", Some(ReleaseType::Sts)).map(|f| f.tfm), Some("net9.0"));
        assert_eq!(newest_supported("2026-11-22", None).map(|f| f.tfm), Some("net10.0"));
        assert_eq!(newest_supported("2024-01-01", Some(ReleaseType::Lts)).map(|f| f.tfm), Some("net8.0"));
    }

    #[test]
    fn sdks_newer_than_the_table_are_named() {
        assert_eq!(newer_than_table(&["10.0.100", "12.0.100-preview.1"]), ["12.0.100-preview.1"]);
    }

    #[test]
    fn json_carries_dates_and_targetability() {
        let (net10, _) = lookup("net10.0").unwrap();
        let value = net10.to_json("2026-11-22", Some(&["8.0.416"]));
        assert_eq!(value["status"], "supported");
        assert_eq!(value["releaseType"], "LTS");
        assert_eq!(value["endOfSupport"], "2028-11-14");
        assert_eq!(value["targetableByInstalledSdk"], false);
        let standard = lookup("netstandard2.0").unwrap().0.to_json("2026-11-22", None);
        assert!(standard.get("releaseType").is_none() && standard.get("targetableByInstalledSdk").is_none());
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_403), (2025, 11, 11));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today().len(), 10);
    }
}
