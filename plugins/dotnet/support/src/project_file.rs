//! Reading an MSBuild project file as written, without running MSBuild: its SDK, target
//! frameworks, output type, package references (with central versions) and project
//! references. Tools use it where starting dotnet would be slow or impossible (analysing a
//! whole solution, noting a package's version before an update).
//!
//! What is read, and what is not:
//! - the project file itself, plus the nearest `Directory.Build.props` at or above its folder
//!   for target frameworks the project does not set, and the nearest `Directory.Packages.props`
//!   for the versions of packages referenced without one (Central Package Management);
//! - conditions are ignored and properties are not expanded: a value such as
//!   `$(DefaultTargetFramework)` is reported as written, and callers should treat values that
//!   contain `$(` as unknown;
//! - other imports, `.targets` files and the SDK's own defaults are not followed.

use std::path::{Path, PathBuf};

use crate::xml::{self, Element};

/// One `<PackageReference>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageReference {
    /// The package id, as written.
    pub id: String,
    /// The version: `Version` (attribute or element), else `VersionOverride`, else the central
    /// `PackageVersion`; `None` when none of them is found.
    pub version: Option<String>,
    /// Whether the version came from `Directory.Packages.props`.
    pub central: bool,
}

/// What a project file says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProjectFile {
    /// The file that was read.
    pub path: PathBuf,
    /// The SDK (`Microsoft.NET.Sdk.Web`), from `<Project Sdk>`, `<Sdk Name>` or `<Import Sdk>`.
    pub sdk: Option<String>,
    /// The target frameworks (`TargetFrameworks`, else `TargetFramework`, from the project or,
    /// failing that, the nearest `Directory.Build.props`).
    pub target_frameworks: Vec<String>,
    /// `OutputType` (`Exe`, `WinExe`, `Library`), when set.
    pub output_type: Option<String>,
    /// Whether it is a test project: `IsTestProject` true, the `MSTest.Sdk`, or a reference to
    /// `Microsoft.NET.Test.Sdk`.
    pub is_test_project: bool,
    /// The package references, in file order.
    pub package_references: Vec<PackageReference>,
    /// The `Include` of every `<ProjectReference>`, as written but with `/` separators.
    pub project_references: Vec<String>,
}

impl ProjectFile {
    /// Whether the file is an SDK-style project (the classic format names no SDK).
    pub fn is_sdk_style(&self) -> bool {
        self.sdk.is_some()
    }

    /// The package reference with `id` (without regard to ASCII case), if any.
    pub fn package(&self, id: &str) -> Option<&PackageReference> {
        self.package_references.iter().find(|package| package.id.eq_ignore_ascii_case(id))
    }
}

/// Reads the project file at `path`. The error says why it could not be read, for the model.
pub fn read(path: &Path) -> Result<ProjectFile, String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let root = xml::parse(&text).map_err(|error| format!("{}: {error}", path.display()))?;
    if !root.name.eq_ignore_ascii_case("Project") {
        return Err(format!("{}: the root element is <{}>, not <Project>", path.display(), root.name));
    }
    let folder = path.parent().unwrap_or(Path::new("."));
    let sdk = root
        .attribute("Sdk")
        .map(str::to_owned)
        .or_else(|| root.children_named("Sdk").find_map(|sdk| sdk.attribute("Name").map(str::to_owned)))
        .or_else(|| root.children_named("Import").find_map(|import| import.attribute("Sdk").map(str::to_owned)))
        .map(|sdk| sdk.split(';').next().unwrap_or_default().split('/').next().unwrap_or_default().trim().to_owned())
        .filter(|sdk| !sdk.is_empty());
    let mut target_frameworks = frameworks(&root);
    if target_frameworks.is_empty()
        && let Some(props) = nearest(folder, "Directory.Build.props")
        && let Ok(props) = std::fs::read_to_string(&props)
        && let Ok(props) = xml::parse(&props)
    {
        target_frameworks = frameworks(&props);
    }
    let central = nearest(folder, "Directory.Packages.props")
        .and_then(|props| std::fs::read_to_string(props).ok())
        .and_then(|props| xml::parse(&props).ok())
        .map(|props| central_versions(&props))
        .unwrap_or_default();
    let package_references: Vec<PackageReference> = root
        .descendants_named("PackageReference")
        .into_iter()
        .flat_map(|item| {
            let version = item
                .attribute("Version")
                .map(str::to_owned)
                .or_else(|| item.children_named("Version").next().map(Element::text))
                .or_else(|| item.attribute("VersionOverride").map(str::to_owned))
                .or_else(|| item.children_named("VersionOverride").next().map(Element::text))
                .filter(|version| !version.is_empty());
            split_items(item.attribute("Include")).into_iter().map(move |id| (id, version.clone()))
        })
        .map(|(id, version)| match version {
            Some(version) => PackageReference { id, version: Some(version), central: false },
            None => {
                let version = central.iter().find(|(name, _)| name.eq_ignore_ascii_case(&id)).map(|(_, v)| v.clone());
                PackageReference { central: version.is_some(), id, version }
            }
        })
        .collect();
    let project_references = root
        .descendants_named("ProjectReference")
        .into_iter()
        .flat_map(|item| split_items(item.attribute("Include")))
        .map(|include| include.replace('\\', "/"))
        .collect();
    let is_test_project = property(&root, "IsTestProject").is_some_and(|value| value.eq_ignore_ascii_case("true"))
        || sdk.as_deref().is_some_and(|sdk| sdk.eq_ignore_ascii_case("MSTest.Sdk"))
        || package_references.iter().any(|package| package.id.eq_ignore_ascii_case("Microsoft.NET.Test.Sdk"));
    Ok(ProjectFile {
        path: path.to_owned(),
        sdk,
        target_frameworks,
        output_type: property(&root, "OutputType"),
        is_test_project,
        package_references,
        project_references,
    })
}

/// The text of the first `<PropertyGroup>` property called `name`.
fn property(root: &Element, name: &str) -> Option<String> {
    root.children_named("PropertyGroup")
        .flat_map(|group| group.children_named(name))
        .map(Element::text)
        .find(|value| !value.is_empty())
}

fn frameworks(root: &Element) -> Vec<String> {
    let list = property(root, "TargetFrameworks").or_else(|| property(root, "TargetFramework"));
    split_items(list.as_deref())
}

/// `a; b;;c` → `[a, b, c]`.
fn split_items(list: Option<&str>) -> Vec<String> {
    list.unwrap_or_default().split(';').map(str::trim).filter(|item| !item.is_empty()).map(str::to_owned).collect()
}

/// `<PackageVersion Include Version>` pairs of a `Directory.Packages.props`.
fn central_versions(props: &Element) -> Vec<(String, String)> {
    props
        .descendants_named("PackageVersion")
        .into_iter()
        .filter_map(|item| Some((item.attribute("Include")?.trim().to_owned(), item.attribute("Version")?.to_owned())))
        .collect()
}

/// The nearest file called `name` in `folder` or one of its ancestors.
fn nearest(folder: &Path, name: &str) -> Option<PathBuf> {
    folder.ancestors().map(|dir| dir.join(name)).find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn reads_an_sdk_project_with_central_versions_and_inherited_frameworks() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir.path().join("Directory.Build.props"),
            "<Project><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>",
        );
        write(
            &dir.path().join("Directory.Packages.props"),
            "<Project><ItemGroup><PackageVersion Include=\"Serilog\" Version=\"4.2.0\" /></ItemGroup></Project>",
        );
        let project = dir.path().join("src/App/App.csproj");
        write(
            &project,
            r#"<Project Sdk="Microsoft.NET.Sdk.Web">
                 <PropertyGroup><OutputType>Exe</OutputType></PropertyGroup>
                 <ItemGroup>
                   <PackageReference Include="Serilog" />
                   <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
                   <PackageReference Include="Polly"><Version>8.5.0</Version></PackageReference>
                   <PackageReference Include="Unversioned" />
                   <ProjectReference Include="..\Lib\Lib.csproj" />
                 </ItemGroup>
               </Project>"#,
        );
        let read = read(&project).unwrap();
        assert_eq!(read.sdk.as_deref(), Some("Microsoft.NET.Sdk.Web"));
        assert_eq!(read.target_frameworks, ["net10.0"]);
        assert_eq!(read.output_type.as_deref(), Some("Exe"));
        assert!(!read.is_test_project);
        assert_eq!(
            read.package("serilog"),
            Some(&PackageReference { id: "Serilog".into(), version: Some("4.2.0".into()), central: true })
        );
        assert_eq!(read.package("Newtonsoft.Json").unwrap().version.as_deref(), Some("13.0.3"));
        assert_eq!(read.package("Polly").unwrap().version.as_deref(), Some("8.5.0"));
        assert_eq!(read.package("Unversioned").unwrap().version, None);
        assert_eq!(read.project_references, ["../Lib/Lib.csproj"]);
    }

    #[test]
    fn recognises_test_projects_multi_targeting_and_classic_projects() {
        let dir = tempfile::tempdir().unwrap();
        let tests = dir.path().join("Tests.csproj");
        write(
            &tests,
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFrameworks>net8.0; net10.0</TargetFrameworks>\
             </PropertyGroup><ItemGroup><PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17.14.1\" />\
             </ItemGroup></Project>",
        );
        let read_tests = read(&tests).unwrap();
        assert!(read_tests.is_test_project);
        assert_eq!(read_tests.target_frameworks, ["net8.0", "net10.0"]);
        let classic = dir.path().join("Old.csproj");
        write(
            &classic,
            "<Project ToolsVersion=\"15.0\" xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\
             <PropertyGroup><TargetFrameworkVersion>v4.8</TargetFrameworkVersion></PropertyGroup></Project>",
        );
        assert!(!read(&classic).unwrap().is_sdk_style());
        let mstest = dir.path().join("MsTests.csproj");
        write(&mstest, "<Project Sdk=\"MSTest.Sdk/3.8.0\"></Project>");
        let read_mstest = read(&mstest).unwrap();
        assert_eq!(read_mstest.sdk.as_deref(), Some("MSTest.Sdk"));
        assert!(read_mstest.is_test_project);
    }

    #[test]
    fn unreadable_files_say_why() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read(&dir.path().join("Missing.csproj")).unwrap_err().contains("Missing.csproj"));
        let broken = dir.path().join("Broken.csproj");
        write(&broken, "<Project><PropertyGroup></Project>");
        assert!(read(&broken).unwrap_err().contains("line 1"));
        let other = dir.path().join("Other.csproj");
        write(&other, "<Solution/>");
        assert!(read(&other).unwrap_err().contains("<Solution>"));
    }
}
