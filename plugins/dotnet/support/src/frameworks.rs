//! Target frameworks: a small table of facts about the target framework monikers (TFMs) people
//! use, their support, and which one to recommend given the installed SDKs.
//!
//! The table is dated data: [`TABLE_AS_OF`] is the day its facts were last checked against
//! Microsoft's .NET support policy (dotnet.microsoft.com/platform/support/policy, read in
//! November 2025; the table holds as of the end of that month). The facts are the releases and
//! their release days; the policy is code, computed from them ([`Framework::modern`]): since
//! .NET 5 even-numbered releases are LTS (36 months of support) and odd-numbered ones STS (24
//! months since .NET 9, 18 before), and support ends on the Patch Tuesday (second Tuesday) of
//! the month that many months after the release. Computed, the table reads:
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
//!
//! .NET Core predates that policy, and its end-of-support days are recorded as they were
//! announced: netcoreapp3.1 (LTS, 2019-12-03 to 2022-12-13), netcoreapp3.0 (2019-09-23 to
//! 2020-03-03), netcoreapp2.1 (LTS, 2018-05-30 to 2021-08-21). .NET Standard is a specification
//! (no support dates); .NET Framework 4.6.2 and later are supported as components of the
//! Windows versions they ship with. Whether a framework is still supported is computed from
//! these dates and the day of the call, so the answer ages correctly; the table itself must be
//! extended (and [`TABLE_AS_OF`] moved) when Microsoft ships a release: net11.0 is a preview
//! until then, and callers report an installed SDK newer than the table as such.
//!
//! Dates are `chrono` dates: the calendar (weekdays, month lengths, today in UTC) is the crate's.

use chrono::{Utc, Weekday};

/// The date type of the table (chrono's; it serializes as ISO 8601), re-exported so that callers
/// need no dependency of their own.
pub use chrono::NaiveDate;

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
    /// The day of its release, when released.
    pub released: Option<NaiveDate>,
    /// The last day of support, when it has one.
    pub end_of_support: Option<NaiveDate>,
}

/// The day the facts of [`TABLE`] were last checked (see the module documentation).
pub const TABLE_AS_OF: NaiveDate = date(2025, 11, 30);

/// A valid day of the Gregorian calendar, for the table.
const fn date(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).expect("the table's dates are valid")
}

impl Framework {
    /// A release of .NET 5 or later, `major` released on `released` (year, month, day) or not
    /// yet, with its release type and end of support as the policy makes them: even majors LTS
    /// for 36 months, odd ones STS for 24 months (18 before .NET 9), to the Patch Tuesday (second
    /// Tuesday) of the month that many months after the release.
    const fn modern(
        tfm: &'static str,
        version: &'static str,
        major: u32,
        description: &'static str,
        released: Option<(i32, u32, u32)>,
    ) -> Framework {
        let release_type = if major.is_multiple_of(2) { Lts } else { Sts };
        let months = match release_type {
            Lts => 36,
            Sts if major >= 9 => 24,
            Sts => 18,
        };
        let (released, end_of_support) = match released {
            Some((year, month, day)) => {
                let month_index = month - 1 + months;
                let end_year = year + (month_index / 12) as i32;
                let end_month = month_index % 12 + 1;
                (
                    Some(date(year, month, day)),
                    NaiveDate::from_weekday_of_month_opt(end_year, end_month, Weekday::Tue, 2),
                )
            }
            None => (None, None),
        };
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
}

/// The table, newest first within each family.
pub const TABLE: &[Framework] = &[
    Framework::modern("net11.0", "11.0", 11, ".NET 11 (planned for November 2026)", None),
    Framework::modern("net10.0", "10.0", 10, ".NET 10", Some((2025, 11, 11))),
    Framework::modern("net9.0", "9.0", 9, ".NET 9", Some((2024, 11, 12))),
    Framework::modern("net8.0", "8.0", 8, ".NET 8", Some((2023, 11, 14))),
    Framework::modern("net7.0", "7.0", 7, ".NET 7", Some((2022, 11, 8))),
    Framework::modern("net6.0", "6.0", 6, ".NET 6", Some((2021, 11, 8))),
    Framework::modern("net5.0", "5.0", 5, ".NET 5", Some((2020, 11, 10))),
    Framework {
        tfm: "netcoreapp3.1",
        family: Family::NetCore,
        version: "3.1",
        description: ".NET Core 3.1",
        release_type: Some(Lts),
        released: Some(date(2019, 12, 3)),
        end_of_support: Some(date(2022, 12, 13)),
    },
    Framework {
        tfm: "netcoreapp3.0",
        family: Family::NetCore,
        version: "3.0",
        description: ".NET Core 3.0",
        release_type: Some(Sts),
        released: Some(date(2019, 9, 23)),
        end_of_support: Some(date(2020, 3, 3)),
    },
    Framework {
        tfm: "netcoreapp2.1",
        family: Family::NetCore,
        version: "2.1",
        description: ".NET Core 2.1",
        release_type: Some(Lts),
        released: Some(date(2018, 5, 30)),
        end_of_support: Some(date(2021, 8, 21)),
    },
    Framework::other(
        "netstandard2.1",
        Family::NetStandard,
        "2.1",
        ".NET Standard 2.1: libraries for .NET Core 3.0+ and .NET 5+ (not .NET Framework)",
    ),
    Framework::other(
        "netstandard2.0",
        Family::NetStandard,
        "2.0",
        ".NET Standard 2.0: libraries shared between .NET Framework 4.6.2+ and .NET (Core)",
    ),
    Framework::other("net481", Family::NetFramework, "4.8.1", ".NET Framework 4.8.1 (Windows; supported with the OS)"),
    Framework::other("net48", Family::NetFramework, "4.8", ".NET Framework 4.8 (Windows; supported with the OS)"),
    Framework::other("net472", Family::NetFramework, "4.7.2", ".NET Framework 4.7.2 (Windows; supported with the OS)"),
    Framework::other("net462", Family::NetFramework, "4.6.2", ".NET Framework 4.6.2 (Windows; supported with the OS)"),
];

impl Framework {
    /// Where the framework stands on `today`.
    pub fn status(&self, today: &NaiveDate) -> Status {
        match (self.family, self.released, self.end_of_support) {
            (Family::NetStandard, _, _) => Status::NotApplicable,
            (Family::NetFramework, _, _) => Status::Supported,
            (_, None, _) => Status::Preview,
            (_, Some(released), _) if *today < released => Status::Preview,
            (_, Some(_), Some(end)) if *today > end => Status::EndOfSupport,
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

    /// The framework's facts on `today`, as results report them. `sdk_versions`, when known,
    /// adds whether an installed (stable) SDK can build for it.
    pub fn facts(&self, today: &NaiveDate, sdk_versions: Option<&[&str]>) -> Facts {
        Facts {
            tfm: self.tfm,
            family: self.family.as_str(),
            version: self.version,
            description: self.description,
            status: self.status(today).as_str(),
            is_lts: self.release_type == Some(Lts),
            release_type: self.release_type.map(|kind| if kind == Lts { "LTS" } else { "STS" }),
            release_date: self.released,
            end_of_support: self.end_of_support,
            targetable_by_installed_sdk: sdk_versions
                .map(|versions| stable_majors(versions).any(|major| self.targetable_by(major))),
        }
    }
}

/// What results say of one framework ([`Framework::facts`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    /// Target framework moniker, e.g. net10.0.
    pub tfm: &'static str,
    /// Its line of .NET.
    #[schemars(extend("enum" = ["modern", "netCore", "netStandard", "netFramework"]))]
    pub family: &'static str,
    /// The version it stands for (`10.0`).
    pub version: &'static str,
    /// A short description.
    pub description: &'static str,
    /// Where it stands on the day of the answer.
    #[schemars(extend("enum" = ["supported", "endOfSupport", "preview", "notApplicable"]))]
    pub status: &'static str,
    /// Whether it is a Long Term Support release.
    pub is_lts: bool,
    /// LTS or STS, for .NET (Core) releases.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["LTS", "STS"]))]
    pub release_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The day of its release, when released.
    pub release_date: Option<NaiveDate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The last day of support, when it has one.
    pub end_of_support: Option<NaiveDate>,
    /// Whether an installed stable SDK can build for it (absent when the SDKs are unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub targetable_by_installed_sdk: Option<bool>,
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
pub fn newest_supported(today: &NaiveDate, release_type: Option<ReleaseType>) -> Option<&'static Framework> {
    TABLE.iter().find(|framework| {
        framework.family == Family::Modern
            && framework.status(today) == Status::Supported
            && release_type.is_none_or(|wanted| framework.release_type == Some(wanted))
    })
}

/// The framework to recommend for new projects: the newest supported LTS release, and whether
/// an installed stable SDK (of `sdk_versions`) can build for it.
pub fn recommended(today: &NaiveDate, sdk_versions: &[&str]) -> Option<(&'static Framework, bool)> {
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

/// Today's date in UTC, the day support is judged on.
pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Datelike;

    #[test]
    fn support_status_follows_the_dates() {
        let (net8, _) = lookup("net8.0").unwrap();
        assert_eq!(net8.status(&date(2026, 11, 10)), Status::Supported);
        assert_eq!(net8.status(&date(2026, 11, 11)), Status::EndOfSupport);
        assert_eq!(lookup("net11.0").unwrap().0.status(&date(2026, 11, 22)), Status::Preview);
        assert_eq!(lookup("netstandard2.0").unwrap().0.status(&date(2026, 11, 22)), Status::NotApplicable);
        assert_eq!(lookup("net48").unwrap().0.status(&date(2030, 1, 1)), Status::Supported);
    }

    #[test]
    fn the_policy_computes_release_types_and_ends_of_support_from_release_days() {
        // The days Microsoft announced, for every release under the policy.
        for (tfm, kind, end) in [
            ("net10.0", Lts, date(2028, 11, 14)),
            ("net9.0", Sts, date(2026, 11, 10)),
            ("net8.0", Lts, date(2026, 11, 10)),
            ("net7.0", Sts, date(2024, 5, 14)),
            ("net6.0", Lts, date(2024, 11, 12)),
            ("net5.0", Sts, date(2022, 5, 10)),
        ] {
            let (framework, _) = lookup(tfm).unwrap();
            assert_eq!((framework.release_type, framework.end_of_support), (Some(kind), Some(end)), "{tfm}");
            assert_eq!(framework.end_of_support.unwrap().weekday(), Weekday::Tue, "{tfm}");
        }
        let (net11, _) = lookup("net11.0").unwrap();
        assert_eq!((net11.release_type, net11.end_of_support), (Some(Sts), None));
        // A release late in the year ends in a later year: December + 18 months is June.
        let december = Framework::modern("netX", "7.0", 7, "", Some((2022, 12, 1)));
        assert_eq!(december.end_of_support, Some(date(2024, 6, 11)));
    }

    #[test]
    fn versions_and_majors_agree_and_the_table_is_dated() {
        for framework in TABLE.iter().filter(|framework| framework.family == Family::Modern) {
            let version_major = major(framework.version).unwrap();
            assert_eq!(framework.release_type == Some(Lts), version_major.is_multiple_of(2), "{}", framework.tfm);
            assert!(framework.released.is_none_or(|day| day <= TABLE_AS_OF), "{}", framework.tfm);
        }
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
        let (june, november) = (date(2026, 6, 1), date(2026, 11, 22));
        assert_eq!(recommended(&june, &["8.0.416"]).map(|(f, ok)| (f.tfm, ok)), Some(("net10.0", false)));
        assert_eq!(
            recommended(&november, &["8.0.416", "10.0.100"]).map(|(f, ok)| (f.tfm, ok)),
            Some(("net10.0", true))
        );
        assert_eq!(recommended(&november, &["10.0.100-rc.2"]).map(|(f, ok)| (f.tfm, ok)), Some(("net10.0", false)));
        assert_eq!(newest_supported(&june, Some(ReleaseType::Sts)).map(|f| f.tfm), Some("net9.0"));
        assert_eq!(newest_supported(&november, None).map(|f| f.tfm), Some("net10.0"));
        assert_eq!(newest_supported(&date(2024, 1, 1), Some(ReleaseType::Lts)).map(|f| f.tfm), Some("net8.0"));
    }

    #[test]
    fn sdks_newer_than_the_table_are_named() {
        assert_eq!(newer_than_table(&["10.0.100", "12.0.100-preview.1"]), ["12.0.100-preview.1"]);
    }

    #[test]
    fn json_carries_dates_and_targetability() {
        let (net10, _) = lookup("net10.0").unwrap();
        let value = serde_json::to_value(net10.facts(&date(2026, 11, 22), Some(&["8.0.416"]))).unwrap();
        assert_eq!(value["status"], "supported");
        assert_eq!(value["releaseType"], "LTS");
        assert_eq!(value["releaseDate"], "2025-11-11");
        assert_eq!(value["endOfSupport"], "2028-11-14");
        assert_eq!(value["targetableByInstalledSdk"], false);
        let standard =
            serde_json::to_value(lookup("netstandard2.0").unwrap().0.facts(&date(2026, 11, 22), None)).unwrap();
        assert!(standard.get("releaseType").is_none() && standard.get("targetableByInstalledSdk").is_none());
    }

    #[test]
    fn today_is_a_day_after_the_table() {
        assert!(today() > TABLE_AS_OF);
    }
}
