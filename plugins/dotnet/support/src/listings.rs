//! The dotnet host's own listings, parsed: `dotnet --list-sdks` and `dotnet --list-runtimes`,
//! and the ordering of the versions they print.
//!
//! Both commands are answered by the host (the `dotnet` muxer), with or without an SDK, one item
//! per line:
//!
//! ```text
//! 10.0.100 [/usr/share/dotnet/sdk]
//! Microsoft.NETCore.App 10.0.0 [/usr/share/dotnet/shared/Microsoft.NETCore.App]
//! ```
//!
//! The path is the bracketed folder as printed (the folder that holds the version's folder).
//! Lines of another shape (banners, warnings, blank lines) are skipped, so a parser never fails;
//! a runtime-only installation lists no SDK at all.

use std::cmp::Ordering;

use semver::Prerelease;

use serde::Serialize;

/// One installed SDK.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Sdk {
    /// Its version (`10.0.100`, `11.0.100-preview.1.26104.118`).
    pub version: String,
    /// The folder it was found in, as printed (`/usr/share/dotnet/sdk`).
    pub path: String,
}

/// One installed shared runtime (shared framework).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Runtime {
    /// The shared framework (`Microsoft.NETCore.App`, `Microsoft.AspNetCore.App`, `Microsoft.WindowsDesktop.App`).
    pub name: String,
    /// Its version (`10.0.0`).
    pub version: String,
    /// The folder it was found in, as printed.
    pub path: String,
}

/// `text` and the bracketed folder at the end of a listing line, if it has one.
fn split_path(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let open = line.rfind(" [")?;
    let path = line[open + 2..].strip_suffix(']')?;
    Some((line[..open].trim(), path))
}

/// The SDKs of `dotnet --list-sdks` output, in the order printed (oldest first).
pub fn parse_sdks(text: &str) -> Vec<Sdk> {
    text.lines()
        .filter_map(split_path)
        .filter(|(version, _)| version.starts_with(|c: char| c.is_ascii_digit()) && !version.contains(' '))
        .map(|(version, path)| Sdk { version: version.to_owned(), path: path.to_owned() })
        .collect()
}

/// The runtimes of `dotnet --list-runtimes` output, in the order printed.
pub fn parse_runtimes(text: &str) -> Vec<Runtime> {
    text.lines()
        .filter_map(split_path)
        .filter_map(|(head, path)| {
            let (name, version) = head.split_once(' ')?;
            let version = version.trim();
            let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
                && version.starts_with(|c: char| c.is_ascii_digit())
                && !version.contains(' ');
            valid.then(|| Runtime { name: name.to_owned(), version: version.to_owned(), path: path.to_owned() })
        })
        .collect()
}

/// Orders two .NET or NuGet versions by precedence: the release parts numerically, as many as
/// there are (`8.0.416`, NuGet's `4.0.0.1`; a missing part counts as 0, so `8.0` = `8.0.0`), then
/// a release after its prereleases, and prereleases by SemVer 2.0 precedence as the `semver`
/// crate implements it: `10.0.100-preview.7` < `10.0.100-rc.2.25502.107` < `10.0.100-rc.10` <
/// `10.0.100`. Build metadata (`+sha`) does not count. A label SemVer cannot read (`rc.01`) is
/// compared as text.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    fn parts(version: &str) -> (Vec<u64>, &str) {
        let version = version.split_once('+').map_or(version, |(version, _build)| version);
        let (release, pre) = version.split_once('-').unwrap_or((version, ""));
        (release.split('.').map(|part| part.parse().unwrap_or(0)).collect(), pre)
    }
    let ((release_a, pre_a), (release_b, pre_b)) = (parts(a), parts(b));
    let len = release_a.len().max(release_b.len());
    let padded = |release: Vec<u64>| release.into_iter().chain(std::iter::repeat(0)).take(len);
    padded(release_a).cmp(padded(release_b)).then_with(|| match (Prerelease::new(pre_a), Prerelease::new(pre_b)) {
        (Ok(pre_a), Ok(pre_b)) => pre_a.cmp(&pre_b),
        _ => (pre_a.is_empty(), pre_a).cmp(&(pre_b.is_empty(), pre_b)),
    })
}

/// The major version (`10` of `10.0.100`).
pub fn major(version: &str) -> Option<u32> {
    version.split(['.', '-']).next()?.parse().ok()
}

/// Whether a version is a prerelease (`-preview`, `-rc`).
pub fn is_prerelease(version: &str) -> bool {
    version.contains('-')
}

/// The newest of `versions`, by [`compare_versions`].
pub fn newest<'a>(versions: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    versions.into_iter().max_by(|a, b| compare_versions(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_lines_are_parsed_and_noise_is_skipped() {
        let text = "8.0.416 [/usr/share/dotnet/sdk]\n\
                    10.0.100-rc.2.25502.107 [C:\\Program Files\\dotnet\\sdk]\n\
                    \n\
                    Welcome to .NET! [banner]\n";
        assert_eq!(
            parse_sdks(text),
            [
                Sdk { version: "8.0.416".into(), path: "/usr/share/dotnet/sdk".into() },
                Sdk { version: "10.0.100-rc.2.25502.107".into(), path: "C:\\Program Files\\dotnet\\sdk".into() },
            ]
        );
        assert!(parse_sdks("").is_empty());
    }

    #[test]
    fn runtime_lines_are_parsed_with_paths_that_hold_spaces() {
        let text = "Microsoft.AspNetCore.App 8.0.22 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]\n\
                    Microsoft.WindowsDesktop.App 10.0.0 [C:\\Program Files\\dotnet\\shared\\Microsoft.WindowsDesktop.App]\n\
                    10.0.100 [/usr/share/dotnet/sdk]\n";
        let runtimes = parse_runtimes(text);
        assert_eq!(runtimes.len(), 2);
        assert_eq!(runtimes[1].name, "Microsoft.WindowsDesktop.App");
        assert_eq!(runtimes[1].version, "10.0.0");
        assert_eq!(runtimes[1].path, "C:\\Program Files\\dotnet\\shared\\Microsoft.WindowsDesktop.App");
    }

    #[test]
    fn versions_order_numerically_with_prereleases_first() {
        let mut versions = vec!["10.0.101", "9.0.300", "10.0.100", "10.0.100-rc.2.25502.107", "8.0.416"];
        versions.sort_by(|a, b| compare_versions(a, b));
        assert_eq!(versions, ["8.0.416", "9.0.300", "10.0.100-rc.2.25502.107", "10.0.100", "10.0.101"]);
        assert_eq!(newest(["8.0.416", "10.0.100"]), Some("10.0.100"));
        assert_eq!(major("10.0.100-rc.2"), Some(10));
        assert!(is_prerelease("11.0.100-preview.1") && !is_prerelease("10.0.100"));
    }

    #[test]
    fn prereleases_follow_semver_precedence() {
        let mut versions = vec![
            "10.0.100",
            "10.0.100-rc.10",
            "10.0.100-rc.2.25502.107",
            "10.0.100-preview.7.25380.108",
            "10.0.100-rc.2",
            "10.0.100-rc.1.25451.107",
        ];
        versions.sort_by(|a, b| compare_versions(a, b));
        assert_eq!(
            versions,
            [
                "10.0.100-preview.7.25380.108",
                "10.0.100-rc.1.25451.107",
                "10.0.100-rc.2",
                "10.0.100-rc.2.25502.107",
                "10.0.100-rc.10",
                "10.0.100",
            ]
        );
        assert_eq!(newest(["10.0.100-rc.2.25502.107", "10.0.100-rc.10.1"]), Some("10.0.100-rc.10.1"));
    }

    #[test]
    fn nuget_four_part_versions_missing_parts_and_build_metadata() {
        assert_eq!(compare_versions("4.0.0.1", "4.0.0"), Ordering::Greater);
        assert_eq!(compare_versions("8.0", "8.0.0"), Ordering::Equal);
        assert_eq!(compare_versions("8.0.22+a2266c728f", "8.0.22"), Ordering::Equal);
        assert_eq!(compare_versions("1.10.0", "1.9.0"), Ordering::Greater);
        // A label SemVer cannot read still orders, as text, before the release.
        assert_eq!(compare_versions("1.0.0-rc.01", "1.0.0"), Ordering::Less);
    }
}
