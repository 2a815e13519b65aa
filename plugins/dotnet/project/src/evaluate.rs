//! Project evaluation by the SDK: `dotnet msbuild <project> -getProperty:A -getItem:B`, which
//! prints the evaluated values (a bare value for one property alone, JSON otherwise), and the
//! results built from them: Analyze, Dependencies, Validate, GetProperty and ListItems.
//!
//! Evaluation runs no target (no restore, no build), so it is quick and changes nothing. What it
//! cannot know is what only a build computes: analyzers brought in by packages, and transitive
//! dependencies; the results say so in their notes.

use std::{collections::BTreeMap, path::Path};

use dotnet_support::{
    frameworks::{self, NaiveDate, Status},
    project_file::ProjectFile,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// Item metadata every item has; not reported as the item's own metadata.
const WELL_KNOWN_METADATA: &[&str] = &[
    "Identity",
    "FullPath",
    "RootDir",
    "Filename",
    "Extension",
    "RelativeDir",
    "Directory",
    "RecursiveDir",
    "ModifiedTime",
    "CreatedTime",
    "AccessedTime",
    "DefiningProjectFullPath",
    "DefiningProjectDirectory",
    "DefiningProjectName",
    "DefiningProjectExtension",
];

/// The properties Analyze asks for.
pub const ANALYZE_PROPERTIES: &[&str] = &[
    "TargetFramework",
    "TargetFrameworks",
    "OutputType",
    "AssemblyName",
    "RootNamespace",
    "Nullable",
    "ImplicitUsings",
    "LangVersion",
    "IsPackable",
    "IsTestProject",
    "PublishAot",
    "InvariantGlobalization",
    "PublishTrimmed",
    "PublishSingleFile",
    "PublishReadyToRun",
    "SelfContained",
    "RuntimeIdentifier",
    "RuntimeIdentifiers",
    "Configuration",
    "Platform",
    "TreatWarningsAsErrors",
    "WarningLevel",
];

/// The item types Analyze asks for.
pub const ANALYZE_ITEMS: &[&str] = &["PackageReference", "ProjectReference", "Analyzer"];

/// The properties Dependencies asks for.
pub const DEPENDENCY_PROPERTIES: &[&str] = &["TargetFramework", "TargetFrameworks", "ManagePackageVersionsCentrally"];

/// The item types Dependencies and Validate ask for.
pub const DEPENDENCY_ITEMS: &[&str] = &["PackageReference", "ProjectReference"];

/// The properties Validate asks for.
pub const VALIDATE_PROPERTIES: &[&str] = &[
    "TargetFramework",
    "TargetFrameworks",
    "OutputType",
    "Nullable",
    "TreatWarningsAsErrors",
    "ManagePackageVersionsCentrally",
];

/// Item types asked for when ListItems names none, besides those declared in the project file.
pub const COMMON_ITEMS: &[&str] =
    &["Compile", "PackageReference", "ProjectReference", "Content", "None", "EmbeddedResource", "Using"];

/// `msbuild <project> -getProperty:… -getItem:… [-p:K=V…]`, the arguments after `dotnet`.
pub fn args(project: &str, properties: &[&str], items: &[&str], globals: &[(&str, &str)]) -> Vec<String> {
    let mut args = vec!["msbuild".to_owned(), project.to_owned()];
    args.extend(properties.iter().map(|name| format!("-getProperty:{name}")));
    args.extend(items.iter().map(|name| format!("-getItem:{name}")));
    args.extend(globals.iter().map(|(key, value)| format!("-p:{key}={value}")));
    args
}

/// One evaluated item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Its `Identity` (the evaluated `Include`).
    pub include: String,
    /// Its full path, when MSBuild computed one.
    pub full_path: Option<String>,
    /// Its own metadata (well-known metadata left out).
    pub metadata: BTreeMap<String, String>,
}

impl Item {
    /// A metadata value, its name compared without regard to ASCII case; empty counts as absent.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
            .filter(|value| !value.is_empty())
    }
}

/// What an evaluation printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evaluation {
    properties: Vec<(String, String)>,
    items: Vec<(String, Vec<Item>)>,
}

impl Evaluation {
    /// A property's value (empty when MSBuild has none), its name without regard to ASCII case.
    pub fn property(&self, name: &str) -> &str {
        self.properties.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map_or("", |(_, value)| value.as_str())
    }

    /// Whether a property is `true` (MSBuild booleans compare without regard to case).
    pub fn flag(&self, name: &str) -> bool {
        self.property(name).trim().eq_ignore_ascii_case("true")
    }

    /// The items of a type.
    pub fn items(&self, item_type: &str) -> &[Item] {
        self.items.iter().find(|(key, _)| key.eq_ignore_ascii_case(item_type)).map_or(&[], |(_, items)| items)
    }

    /// The target frameworks: `TargetFrameworks` split, else `TargetFramework`.
    pub fn target_frameworks(&self) -> Vec<String> {
        let list = self.property("TargetFrameworks");
        let list = if list.trim().is_empty() { self.property("TargetFramework") } else { list };
        list.split(';').map(str::trim).filter(|tfm| !tfm.is_empty()).map(str::to_owned).collect()
    }
}

/// Reads what `dotnet msbuild` printed for `properties` and `items`. One property alone is
/// printed as its bare value; anything else as JSON, which may follow other lines.
pub fn parse(stdout: &str, properties: &[&str], items: &[&str]) -> Result<Evaluation, String> {
    if let ([name], []) = (properties, items) {
        let value = stdout.strip_suffix('\n').unwrap_or(stdout);
        let value = value.strip_suffix('\r').unwrap_or(value);
        return Ok(Evaluation { properties: vec![((*name).to_owned(), value.to_owned())], items: Vec::new() });
    }
    let start = stdout
        .lines()
        .scan(0, |offset, line| {
            let at = *offset;
            *offset += line.len() + 1;
            Some((at, line))
        })
        .find(|(_, line)| line.trim_start().starts_with('{'))
        .map(|(at, _)| at)
        .ok_or_else(|| "dotnet msbuild printed no evaluation result".to_owned())?;
    let json: Value = serde_json::from_str(stdout[start..].trim())
        .map_err(|error| format!("the evaluation result is not valid JSON: {error}"))?;
    let text = |value: &Value| match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let properties = json["Properties"]
        .as_object()
        .map(|object| object.iter().map(|(key, value)| (key.clone(), text(value))).collect())
        .unwrap_or_default();
    let items = json["Items"]
        .as_object()
        .map(|object| {
            object
                .iter()
                .map(|(item_type, list)| {
                    let list = list.as_array().map(Vec::as_slice).unwrap_or_default();
                    let items = list
                        .iter()
                        .filter_map(Value::as_object)
                        .map(|item| Item {
                            include: item.get("Identity").map(text).unwrap_or_default(),
                            full_path: item.get("FullPath").map(text).filter(|path| !path.is_empty()),
                            metadata: item
                                .iter()
                                .filter(|(key, _)| {
                                    !WELL_KNOWN_METADATA.iter().any(|known| known.eq_ignore_ascii_case(key))
                                })
                                .map(|(key, value)| (key.clone(), text(value)))
                                .collect(),
                        })
                        .collect();
                    (item_type.clone(), items)
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Evaluation { properties, items })
}

// One evaluated item of ListItems.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedItem {
    item_type: String,
    include: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    full_path: Option<String>,
    // The item's own metadata (well-known metadata left out).
    metadata: BTreeMap<String, String>,
}

impl ListedItem {
    /// `item` of `item_type`.
    pub fn new(item_type: &str, item: &Item) -> Self {
        Self {
            item_type: item_type.to_owned(),
            include: item.include.clone(),
            full_path: item.full_path.clone(),
            metadata: item.metadata.clone(),
        }
    }

    /// `<type> <include>`, a line for the model.
    pub fn line(&self) -> String {
        format!("{} {}", self.item_type, self.include)
    }
}

// A direct package reference.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageReference {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    private_assets: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    include_assets: Option<String>,
}

impl PackageReference {
    fn of(item: &Item) -> Self {
        let get = |name: &str| item.get(name).map(str::to_owned);
        Self {
            name: item.include.clone(),
            version: get("Version"),
            private_assets: get("PrivateAssets"),
            include_assets: get("IncludeAssets"),
        }
    }
}

// A direct project reference: its name (the file name without extension) and its path.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectReference {
    name: String,
    path: String,
}

impl ProjectReference {
    fn of(item: &Item) -> Self {
        let name = Path::new(&item.include.replace('\\', "/"))
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_else(|| item.include.clone());
        Self { name, path: item.full_path.clone().unwrap_or_else(|| item.include.clone()) }
    }
}

// An analyzer the project declares.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Analyzer {
    path: String,
}

// The evaluated properties that decide how the project builds and publishes; `null` where the
// project sets none.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuildProperties {
    publish_aot: bool,
    invariant_globalization: bool,
    publish_trimmed: bool,
    publish_single_file: bool,
    publish_ready_to_run: bool,
    self_contained: bool,
    runtime_identifier: Option<String>,
    runtime_identifiers: Vec<String>,
    configuration: Option<String>,
    platform: Option<String>,
    treat_warnings_as_errors: bool,
    warning_level: Option<String>,
}

// Analyze: what the project is and what it uses; `null` where the project sets no value.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    project_path: String,
    project_name: String,
    // The project file's `Sdk` attribute.
    #[serde(skip_serializing_if = "Option::is_none")]
    sdk: Option<String>,
    target_frameworks: Vec<String>,
    output_type: Option<String>,
    assembly_name: Option<String>,
    root_namespace: Option<String>,
    nullable: Option<String>,
    implicit_usings: Option<String>,
    lang_version: Option<String>,
    is_packable: bool,
    is_test_project: bool,
    package_references: Vec<PackageReference>,
    project_references: Vec<ProjectReference>,
    analyzers: Vec<Analyzer>,
    build_properties: BuildProperties,
    notes: Vec<String>,
}

impl Analysis {
    /// One line for the model: the output type, frameworks and reference counts.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} targeting {}, {} package and {} project reference(s).",
            self.project_name,
            self.output_type.as_deref().unwrap_or("a project"),
            self.target_frameworks.join(", "),
            self.package_references.len(),
            self.project_references.len()
        )
    }
}

// Dependencies: the direct package and project dependencies.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dependencies {
    project_path: String,
    target_frameworks: Vec<String>,
    direct_package_dependencies: Vec<PackageReference>,
    direct_project_dependencies: Vec<ProjectReference>,
    total_direct_dependencies: i64,
    notes: Vec<String>,
}

impl Dependencies {
    /// One line per dependency, for the model.
    pub fn lines(&self) -> Vec<String> {
        let packages = self
            .direct_package_dependencies
            .iter()
            .map(|package| format!("{} {}", package.name, package.version.as_deref().unwrap_or("(no version)")));
        let projects = self.direct_project_dependencies.iter().map(|project| format!("project {}", project.path));
        packages.chain(projects).collect()
    }

    /// How many direct dependencies there are.
    pub fn total(&self) -> i64 {
        self.total_direct_dependencies
    }
}

// Validate: errors make the project invalid, warnings and recommendations do not.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Validation {
    project_path: String,
    is_valid: bool,
    errors: Vec<String>,
    warnings: Vec<String>,
    recommendations: Vec<String>,
}

impl Validation {
    /// The sections for the model: errors, warnings, recommendations.
    pub fn sections(&self) -> [(&'static str, Vec<String>); 3] {
        [
            ("Errors", self.errors.clone()),
            ("Warnings", self.warnings.clone()),
            ("Recommendations", self.recommendations.clone()),
        ]
    }

    /// Whether the project has no errors.
    pub fn is_valid(&self) -> bool {
        self.is_valid
    }
}

fn optional(value: &str) -> Option<String> {
    (!value.trim().is_empty()).then(|| value.to_owned())
}

/// Analyze's result.
pub fn analyze(project: &Path, evaluation: &Evaluation, file: Option<&ProjectFile>) -> Analysis {
    let flag = |name: &str| evaluation.flag(name);
    let property = |name: &str| optional(evaluation.property(name));
    let runtime_identifiers =
        evaluation.property("RuntimeIdentifiers").split(';').map(str::trim).filter(|rid| !rid.is_empty());
    let build_properties = BuildProperties {
        publish_aot: flag("PublishAot"),
        invariant_globalization: flag("InvariantGlobalization"),
        publish_trimmed: flag("PublishTrimmed"),
        publish_single_file: flag("PublishSingleFile"),
        publish_ready_to_run: flag("PublishReadyToRun"),
        self_contained: flag("SelfContained"),
        runtime_identifier: property("RuntimeIdentifier"),
        runtime_identifiers: runtime_identifiers.map(str::to_owned).collect(),
        configuration: property("Configuration"),
        platform: property("Platform"),
        treat_warnings_as_errors: flag("TreatWarningsAsErrors"),
        warning_level: property("WarningLevel"),
    };
    let analyzers = evaluation
        .items("Analyzer")
        .iter()
        .map(|item| Analyzer { path: item.full_path.clone().unwrap_or_else(|| item.include.clone()) })
        .collect();
    Analysis {
        project_path: project.display().to_string(),
        project_name: project_name(project),
        sdk: file.and_then(|file| file.sdk.clone()),
        target_frameworks: evaluation.target_frameworks(),
        output_type: property("OutputType"),
        assembly_name: property("AssemblyName"),
        root_namespace: property("RootNamespace"),
        nullable: property("Nullable"),
        implicit_usings: property("ImplicitUsings"),
        lang_version: property("LangVersion"),
        is_packable: flag("IsPackable"),
        is_test_project: flag("IsTestProject"),
        package_references: evaluation.items("PackageReference").iter().map(PackageReference::of).collect(),
        project_references: evaluation.items("ProjectReference").iter().map(ProjectReference::of).collect(),
        analyzers,
        build_properties,
        notes: vec![
            "Analyzers that packages bring in are added during a build, not at evaluation, so only analyzers the \
             project declares are listed."
                .to_owned(),
        ],
    }
}

/// Dependencies' result.
pub fn dependencies(project: &Path, evaluation: &Evaluation) -> Dependencies {
    let packages: Vec<PackageReference> =
        evaluation.items("PackageReference").iter().map(PackageReference::of).collect();
    let projects: Vec<ProjectReference> =
        evaluation.items("ProjectReference").iter().map(ProjectReference::of).collect();
    let mut notes = vec![
        "Direct dependencies only: dotnet_package with action List and includeTransitive lists the transitive ones."
            .to_owned(),
    ];
    if evaluation.flag("ManagePackageVersionsCentrally") {
        notes.push("Package versions are managed centrally (Directory.Packages.props).".to_owned());
    }
    Dependencies {
        project_path: project.display().to_string(),
        target_frameworks: evaluation.target_frameworks(),
        total_direct_dependencies: (packages.len() + projects.len()) as i64,
        direct_package_dependencies: packages,
        direct_project_dependencies: projects,
        notes,
    }
}

/// Validate's result: errors make the project
/// invalid, warnings and recommendations do not. `file` is the project file as read from disk,
/// `today` the date that decides support.
pub fn validate(
    project: &Path,
    evaluation: &Evaluation,
    file: Result<&ProjectFile, &str>,
    today: &NaiveDate,
) -> Validation {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut recommendations = Vec::new();
    match file {
        Err(problem) => errors.push(format!("The project file cannot be read as XML: {problem}")),
        Ok(file) if !file.is_sdk_style() => warnings.push(
            "The project is not SDK-style (no Sdk attribute): the dotnet CLI supports it only partly; consider migrating."
                .to_owned(),
        ),
        Ok(_) => {}
    }
    let frameworks = evaluation.target_frameworks();
    if frameworks.is_empty() {
        errors.push("No target framework: set TargetFramework (or TargetFrameworks).".to_owned());
    }
    let newest_lts = frameworks::newest_supported(today, Some(frameworks::ReleaseType::Lts)).map(|f| f.tfm);
    for tfm in &frameworks {
        let Some((framework, _)) = frameworks::lookup(tfm) else {
            warnings.push(format!("'{tfm}' is not a target framework this server knows; check the spelling."));
            continue;
        };
        match framework.status(today) {
            Status::EndOfSupport => warnings.push(format!(
                "{tfm} is out of support since {}: it gets no security fixes. Move to {}.",
                framework.end_of_support.map_or("its end of support".to_owned(), |day| day.to_string()),
                newest_lts.unwrap_or("a supported release")
            )),
            Status::Preview => warnings.push(format!("{tfm} is not released yet (preview).")),
            Status::Supported if framework.release_type == Some(frameworks::ReleaseType::Sts) => {
                recommendations.push(format!(
                    "{tfm} is a Standard Term Support release (support ends {}); {} is the current LTS release.",
                    framework.end_of_support.map_or("sooner than LTS".to_owned(), |day| day.to_string()),
                    newest_lts.unwrap_or("an LTS release")
                ));
            }
            _ => {}
        }
    }
    if !evaluation.property("Nullable").trim().eq_ignore_ascii_case("enable") {
        recommendations.push("Enable nullable reference types (<Nullable>enable</Nullable>).".to_owned());
    }
    if !evaluation.flag("ManagePackageVersionsCentrally") {
        for package in evaluation.items("PackageReference") {
            if package.get("Version").is_none() && package.get("VersionOverride").is_none() {
                warnings.push(format!("Package reference '{}' has no version.", package.include));
            }
        }
    }
    Validation {
        project_path: project.display().to_string(),
        is_valid: errors.is_empty(),
        errors,
        warnings,
        recommendations,
    }
}

/// The project's name: its file name without extension.
pub fn project_name(project: &Path) -> String {
    project.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const JSON: &str = r#"{
  "Properties": {
    "TargetFramework": "net9.0",
    "TargetFrameworks": "",
    "Nullable": "disable",
    "PublishAot": "True"
  },
  "Items": {
    "PackageReference": [
      {
        "Identity": "Newtonsoft.Json",
        "Version": "13.0.3",
        "PrivateAssets": "",
        "FullPath": "/src/App/Newtonsoft.Json",
        "DefiningProjectName": "App"
      },
      { "Identity": "Serilog", "Version": "" }
    ],
    "ProjectReference": [
      { "Identity": "..\\Lib\\Lib.csproj", "FullPath": "/src/Lib/Lib.csproj" }
    ]
  }
}"#;

    fn evaluation() -> Evaluation {
        parse(&format!("MSBuild version 18.0\n{JSON}\n"), &["TargetFramework", "Nullable"], &["PackageReference"])
            .unwrap()
    }

    #[test]
    fn argv_of_an_evaluation() {
        assert_eq!(
            args("App.csproj", &["A", "B"], &["Compile"], &[("Configuration", "Release")]),
            [
                "msbuild",
                "App.csproj",
                "-getProperty:A",
                "-getProperty:B",
                "-getItem:Compile",
                "-p:Configuration=Release"
            ]
        );
    }

    #[test]
    fn json_and_bare_values_are_read() {
        let evaluation = evaluation();
        assert_eq!(evaluation.property("targetframework"), "net9.0");
        assert!(evaluation.flag("PublishAot"));
        assert_eq!(evaluation.target_frameworks(), ["net9.0"]);
        let packages = evaluation.items("packagereference");
        assert_eq!(packages.len(), 2);
        assert_eq!(packages[0].full_path.as_deref(), Some("/src/App/Newtonsoft.Json"));
        assert_eq!(packages[0].metadata.keys().collect::<Vec<_>>(), ["PrivateAssets", "Version"]);
        assert_eq!(packages[0].get("PrivateAssets"), None);
        let bare = parse("net10.0\n", &["TargetFramework"], &[]).unwrap();
        assert_eq!(bare.property("TargetFramework"), "net10.0");
        assert!(parse("oops", &["A", "B"], &[]).is_err());
        assert_eq!(
            serde_json::to_value(ListedItem::new("PackageReference", &packages[0])).unwrap(),
            json!({ "itemType": "PackageReference", "include": "Newtonsoft.Json", "fullPath": "/src/App/Newtonsoft.Json", "metadata": { "PrivateAssets": "", "Version": "13.0.3" } })
        );
    }

    #[test]
    fn analysis_and_dependencies_from_the_evaluation() {
        let analysis = serde_json::to_value(analyze(Path::new("/src/App/App.csproj"), &evaluation(), None)).unwrap();
        assert_eq!(analysis["projectName"], "App");
        assert_eq!(analysis["packageReferences"][0], json!({ "name": "Newtonsoft.Json", "version": "13.0.3" }));
        assert_eq!(analysis["projectReferences"][0], json!({ "name": "Lib", "path": "/src/Lib/Lib.csproj" }));
        assert_eq!(analysis["buildProperties"]["publishAot"], true);
        assert_eq!(analysis["outputType"], Value::Null);
        let dependencies = serde_json::to_value(dependencies(Path::new("/src/App/App.csproj"), &evaluation())).unwrap();
        assert_eq!(dependencies["totalDirectDependencies"], 3);
    }

    fn validated(
        project: &Path,
        evaluation: &Evaluation,
        file: Result<&ProjectFile, &str>,
        today: &NaiveDate,
    ) -> Value {
        serde_json::to_value(validate(project, evaluation, file, today)).unwrap()
    }

    #[test]
    fn validation_judges_frameworks_nullable_and_versions() {
        let file = ProjectFile { sdk: Some("Microsoft.NET.Sdk".into()), ..ProjectFile::default() };
        let result = validated(Path::new("/src/App.csproj"), &evaluation(), Ok(&file), &"2026-01-01".parse().unwrap());
        assert_eq!(result["isValid"], true);
        let recommendations = result["recommendations"].to_string();
        assert!(recommendations.contains("net9.0 is a Standard Term Support") && recommendations.contains("Nullable"));
        assert!(result["warnings"].to_string().contains("'Serilog' has no version"));
        let old = parse("{\"Properties\":{\"TargetFramework\":\"net6.0\",\"Nullable\":\"enable\"}}", &["A", "B"], &[])
            .unwrap();
        let result = validated(Path::new("/x.csproj"), &old, Ok(&file), &"2026-01-01".parse().unwrap());
        assert!(result["warnings"][0].as_str().unwrap().starts_with("net6.0 is out of support"), "{result:?}");
        let none = parse("{\"Properties\":{}}", &["A", "B"], &[]).unwrap();
        let result = validated(Path::new("/x.csproj"), &none, Err("line 1: broken"), &"2026-01-01".parse().unwrap());
        assert_eq!(result["isValid"], false);
        assert_eq!(result["errors"].as_array().unwrap().len(), 2);
    }
}
