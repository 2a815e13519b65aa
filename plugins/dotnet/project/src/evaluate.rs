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
use serde_json::{Map, Value, json};

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

/// An item as structured content: `{itemType, include, fullPath?, metadata}`.
pub fn item_json(item_type: &str, item: &Item) -> Value {
    let mut value = json!({ "itemType": item_type, "include": item.include, "metadata": item.metadata });
    if let Some(path) = &item.full_path {
        value["fullPath"] = json!(path);
    }
    value
}

fn package_json(item: &Item) -> Value {
    let mut value = json!({ "name": item.include });
    for (key, name) in [("version", "Version"), ("privateAssets", "PrivateAssets"), ("includeAssets", "IncludeAssets")]
    {
        if let Some(found) = item.get(name) {
            value[key] = json!(found);
        }
    }
    value
}

fn project_reference_json(item: &Item) -> Value {
    let name = Path::new(&item.include.replace('\\', "/"))
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| item.include.clone());
    json!({ "name": name, "path": item.full_path.clone().unwrap_or_else(|| item.include.clone()) })
}

fn optional(value: &str) -> Value {
    if value.trim().is_empty() { Value::Null } else { json!(value) }
}

/// Analyze's structured content (without `success` and `action`).
pub fn analyze(project: &Path, evaluation: &Evaluation, file: Option<&ProjectFile>) -> Map<String, Value> {
    let flag = |name: &str| json!(evaluation.flag(name));
    let runtime_identifiers: Vec<&str> =
        evaluation.property("RuntimeIdentifiers").split(';').map(str::trim).filter(|rid| !rid.is_empty()).collect();
    let build = json!({
        "publishAot": flag("PublishAot"),
        "invariantGlobalization": flag("InvariantGlobalization"),
        "publishTrimmed": flag("PublishTrimmed"),
        "publishSingleFile": flag("PublishSingleFile"),
        "publishReadyToRun": flag("PublishReadyToRun"),
        "selfContained": flag("SelfContained"),
        "runtimeIdentifier": optional(evaluation.property("RuntimeIdentifier")),
        "runtimeIdentifiers": runtime_identifiers,
        "configuration": optional(evaluation.property("Configuration")),
        "platform": optional(evaluation.property("Platform")),
        "treatWarningsAsErrors": flag("TreatWarningsAsErrors"),
        "warningLevel": optional(evaluation.property("WarningLevel")),
    });
    let mut result = Map::new();
    result.insert("projectPath".into(), json!(project.display().to_string()));
    result.insert("projectName".into(), json!(project_name(project)));
    if let Some(sdk) = file.and_then(|file| file.sdk.clone()) {
        result.insert("sdk".into(), json!(sdk));
    }
    result.insert("targetFrameworks".into(), json!(evaluation.target_frameworks()));
    for (key, property) in [
        ("outputType", "OutputType"),
        ("assemblyName", "AssemblyName"),
        ("rootNamespace", "RootNamespace"),
        ("nullable", "Nullable"),
        ("implicitUsings", "ImplicitUsings"),
        ("langVersion", "LangVersion"),
    ] {
        result.insert(key.into(), optional(evaluation.property(property)));
    }
    result.insert("isPackable".into(), flag("IsPackable"));
    result.insert("isTestProject".into(), flag("IsTestProject"));
    result.insert(
        "packageReferences".into(),
        evaluation.items("PackageReference").iter().map(package_json).collect::<Vec<_>>().into(),
    );
    result.insert(
        "projectReferences".into(),
        evaluation.items("ProjectReference").iter().map(project_reference_json).collect::<Vec<_>>().into(),
    );
    result.insert(
        "analyzers".into(),
        evaluation
            .items("Analyzer")
            .iter()
            .map(|item| json!({ "path": item.full_path.clone().unwrap_or_else(|| item.include.clone()) }))
            .collect::<Vec<_>>()
            .into(),
    );
    result.insert("buildProperties".into(), build);
    result.insert(
        "notes".into(),
        json!(["Analyzers that packages bring in are added during a build, not at evaluation, so only analyzers the project declares are listed."]),
    );
    result
}

/// Dependencies' structured content (without `success` and `action`).
pub fn dependencies(project: &Path, evaluation: &Evaluation) -> Map<String, Value> {
    let packages: Vec<Value> = evaluation.items("PackageReference").iter().map(package_json).collect();
    let projects: Vec<Value> = evaluation.items("ProjectReference").iter().map(project_reference_json).collect();
    let mut notes = vec![
        "Direct dependencies only: dotnet_package with action List and includeTransitive lists the transitive ones."
            .to_owned(),
    ];
    if evaluation.flag("ManagePackageVersionsCentrally") {
        notes.push("Package versions are managed centrally (Directory.Packages.props).".to_owned());
    }
    let mut result = Map::new();
    result.insert("projectPath".into(), json!(project.display().to_string()));
    result.insert("targetFrameworks".into(), json!(evaluation.target_frameworks()));
    result.insert("totalDirectDependencies".into(), json!(packages.len() + projects.len()));
    result.insert("directPackageDependencies".into(), packages.into());
    result.insert("directProjectDependencies".into(), projects.into());
    result.insert("notes".into(), json!(notes));
    result
}

/// Validate's structured content (without `success` and `action`): errors make the project
/// invalid, warnings and recommendations do not. `file` is the project file as read from disk,
/// `today` the date that decides support.
pub fn validate(
    project: &Path,
    evaluation: &Evaluation,
    file: Result<&ProjectFile, &str>,
    today: &NaiveDate,
) -> Map<String, Value> {
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
    let mut result = Map::new();
    result.insert("projectPath".into(), json!(project.display().to_string()));
    result.insert("isValid".into(), json!(errors.is_empty()));
    result.insert("errors".into(), json!(errors));
    result.insert("warnings".into(), json!(warnings));
    result.insert("recommendations".into(), json!(recommendations));
    result
}

/// The project's name: its file name without extension.
pub fn project_name(project: &Path) -> String {
    project.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            item_json("PackageReference", &packages[0]),
            json!({ "itemType": "PackageReference", "include": "Newtonsoft.Json", "fullPath": "/src/App/Newtonsoft.Json", "metadata": { "PrivateAssets": "", "Version": "13.0.3" } })
        );
    }

    #[test]
    fn analysis_and_dependencies_from_the_evaluation() {
        let analysis = analyze(Path::new("/src/App/App.csproj"), &evaluation(), None);
        assert_eq!(analysis["projectName"], "App");
        assert_eq!(analysis["packageReferences"][0], json!({ "name": "Newtonsoft.Json", "version": "13.0.3" }));
        assert_eq!(analysis["projectReferences"][0], json!({ "name": "Lib", "path": "/src/Lib/Lib.csproj" }));
        assert_eq!(analysis["buildProperties"]["publishAot"], true);
        assert_eq!(analysis["outputType"], Value::Null);
        let dependencies = dependencies(Path::new("/src/App/App.csproj"), &evaluation());
        assert_eq!(dependencies["totalDirectDependencies"], 3);
    }

    #[test]
    fn validation_judges_frameworks_nullable_and_versions() {
        let file = ProjectFile { sdk: Some("Microsoft.NET.Sdk".into()), ..ProjectFile::default() };
        let result = validate(Path::new("/src/App.csproj"), &evaluation(), Ok(&file), &"2026-01-01".parse().unwrap());
        assert_eq!(result["isValid"], true);
        let recommendations = result["recommendations"].to_string();
        assert!(recommendations.contains("net9.0 is a Standard Term Support") && recommendations.contains("Nullable"));
        assert!(result["warnings"].to_string().contains("'Serilog' has no version"));
        let old = parse("{\"Properties\":{\"TargetFramework\":\"net6.0\",\"Nullable\":\"enable\"}}", &["A", "B"], &[])
            .unwrap();
        let result = validate(Path::new("/x.csproj"), &old, Ok(&file), &"2026-01-01".parse().unwrap());
        assert!(result["warnings"][0].as_str().unwrap().starts_with("net6.0 is out of support"), "{result:?}");
        let none = parse("{\"Properties\":{}}", &["A", "B"], &[]).unwrap();
        let result = validate(Path::new("/x.csproj"), &none, Err("line 1: broken"), &"2026-01-01".parse().unwrap());
        assert_eq!(result["isValid"], false);
        assert_eq!(result["errors"].as_array().unwrap().len(), 2);
    }
}
