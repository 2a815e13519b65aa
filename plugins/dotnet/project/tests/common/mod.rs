//! What the project's tests share: a scratch folder holding `App/App.csproj`, with the plugin
//! configured to run the test double there.

use dotnet_project::DotnetProject;
use dotnet_support::testkit::{Double, Harness};

/// `App/App.csproj`: a console app with one package reference.
pub const PROJECT: &str = r#"<Project Sdk="Microsoft.NET.Sdk">

  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
  </PropertyGroup>

  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
  </ItemGroup>

</Project>
"#;

/// The plugin served over the test double.
pub type Fixture = Harness<DotnetProject>;

/// A scratch folder with `App/App.csproj` (the plugin's working directory) and the double,
/// configured by `configure`.
pub fn fixture_with(configure: impl FnOnce(Double) -> Double) -> Fixture {
    Fixture::with(|dir, double| {
        std::fs::create_dir_all(dir.join("App")).unwrap();
        std::fs::write(dir.join("App/App.csproj"), PROJECT).unwrap();
        configure(double)
    })
}
