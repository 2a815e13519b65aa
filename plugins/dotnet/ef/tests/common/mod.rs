//! The harness the tests of `dotnet_ef` share.

use dotnet_ef::DotnetEf;
use dotnet_support::testkit::{Double, Harness};

/// A project folder (`App.csproj`), the double logging into it, and the tool configured to run
/// the double there.
pub type Setup = Harness<DotnetEf>;

/// The project folder, with the double as `configure` leaves it.
pub fn with_project(configure: impl FnOnce(Double) -> Double) -> Setup {
    Setup::with(|dir, double| {
        std::fs::write(dir.join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />").unwrap();
        configure(double)
    })
}

/// The project folder, the double in `scenario` (comma-separated names) if any.
pub fn plain(scenario: Option<&'static str>) -> Setup {
    with_project(|double| match scenario {
        Some(names) => double.scenario(names),
        None => double,
    })
}
