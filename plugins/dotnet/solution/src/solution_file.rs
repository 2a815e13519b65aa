//! Reading the projects of a solution file without dotnet: the Visual Studio text format
//! (`.sln`) and the XML format (`.slnx`). Solution folders are kept as each project's `folder`
//! (`src/Services`); solution items, configurations and platforms are not read.

use std::collections::HashMap;
use std::path::Path;

use dotnet_support::xml::{self, Element};

/// The project type GUID of a solution folder in `.sln` files.
const FOLDER_TYPE: &str = "2150E333-8FDC-42A3-9474-1A3956D46DE8";

/// One project of a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolutionProject {
    /// The name (`.sln`: as written; `.slnx`: the file name without extension).
    pub name: String,
    /// The path relative to the solution's folder, with `/` separators.
    pub path: String,
    /// The solution folder holding it, as `a/b`, when it is in one.
    pub folder: Option<String>,
}

/// The format of a solution file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The Visual Studio text format.
    Sln,
    /// The XML format.
    Slnx,
}

impl Format {
    /// The format of `path`, by its extension.
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "sln" => Some(Format::Sln),
            "slnx" => Some(Format::Slnx),
            _ => None,
        }
    }

    /// `sln` or `slnx`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Sln => "sln",
            Format::Slnx => "slnx",
        }
    }
}

impl serde::Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

dotnet_support::string_enum_schema!(Format, "Format", [Format::Sln, Format::Slnx].map(Format::as_str));

/// Reads the projects of the solution at `path`, in file order.
pub fn read(path: &Path) -> Result<Vec<SolutionProject>, String> {
    let format = Format::of(path).ok_or_else(|| format!("{} is not a .sln or .slnx file", path.display()))?;
    let text = std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let projects = match format {
        Format::Sln => parse_sln(&text),
        Format::Slnx => parse_slnx(&text),
    };
    projects.map_err(|error| format!("{}: {error}", path.display()))
}

/// The quoted strings of a `Project("{type}") = "name", "path", "{guid}"` line.
fn quoted(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

fn bare_guid(guid: &str) -> String {
    guid.trim_matches(['{', '}']).to_ascii_uppercase()
}

/// Reads a `.sln` file.
pub fn parse_sln(text: &str) -> Result<Vec<SolutionProject>, String> {
    if !text.lines().take(5).any(|line| line.contains("Microsoft Visual Studio Solution File")) {
        return Err("not a Visual Studio solution file (its header is missing)".to_owned());
    }
    let mut projects = Vec::new();
    let mut folders: HashMap<String, String> = HashMap::new();
    let mut guids = Vec::new();
    let mut parents: HashMap<String, String> = HashMap::new();
    let mut in_nesting = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("Project(") {
            let [kind, name, path, guid] = quoted(line)[..] else {
                return Err(format!("a malformed project line: {line}"));
            };
            if bare_guid(kind) == FOLDER_TYPE {
                folders.insert(bare_guid(guid), name.to_owned());
            } else {
                guids.push(bare_guid(guid));
                projects.push(SolutionProject { name: name.to_owned(), path: path.replace('\\', "/"), folder: None });
            }
        } else if line.starts_with("GlobalSection(NestedProjects)") {
            in_nesting = true;
        } else if line.starts_with("EndGlobalSection") {
            in_nesting = false;
        } else if in_nesting && let Some((child, parent)) = line.split_once('=') {
            parents.insert(bare_guid(child.trim()), bare_guid(parent.trim()));
        }
    }
    for (project, guid) in projects.iter_mut().zip(&guids) {
        let mut chain = Vec::new();
        let mut current = parents.get(guid);
        while let Some(parent) = current {
            let Some(name) = folders.get(parent) else { break };
            if chain.len() > folders.len() {
                break; // a nesting loop; keep what was found
            }
            chain.push(name.clone());
            current = parents.get(parent);
        }
        chain.reverse();
        project.folder = (!chain.is_empty()).then(|| chain.join("/"));
    }
    Ok(projects)
}

/// Reads a `.slnx` file.
pub fn parse_slnx(text: &str) -> Result<Vec<SolutionProject>, String> {
    let root = xml::parse(text).map_err(|error| error.to_string())?;
    if !root.name.eq_ignore_ascii_case("Solution") {
        return Err(format!("the root element is <{}>, not <Solution>", root.name));
    }
    let mut projects = Vec::new();
    collect(&root, None, &mut projects);
    Ok(projects)
}

/// The projects inside `element`, in document order, with the folder holding them. The
/// recursion is as deep as the folders nest, which the XML reader bounds.
fn collect(element: &Element, folder: Option<&str>, projects: &mut Vec<SolutionProject>) {
    for child in element.elements() {
        if child.name.eq_ignore_ascii_case("Project") {
            let Some(path) = child.attribute("Path") else { continue };
            let path = path.replace('\\', "/");
            let name = Path::new(&path).file_stem().and_then(|stem| stem.to_str()).unwrap_or(&path).to_owned();
            projects.push(SolutionProject { name, path, folder: folder.map(str::to_owned) });
        } else if child.name.eq_ignore_ascii_case("Folder") {
            let name = child.attribute("Name").unwrap_or_default().trim_matches('/');
            collect(child, if name.is_empty() { folder } else { Some(name) }, projects);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLN: &str = "\u{feff}
Microsoft Visual Studio Solution File, Format Version 12.00
# Visual Studio Version 17
Project(\"{2150E333-8FDC-42A3-9474-1A3956D46DE8}\") = \"src\", \"src\", \"{11111111-0000-0000-0000-000000000001}\"
EndProject
Project(\"{2150E333-8FDC-42A3-9474-1A3956D46DE8}\") = \"Services\", \"Services\", \"{11111111-0000-0000-0000-000000000002}\"
EndProject
Project(\"{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}\") = \"App\", \"src\\App\\App.csproj\", \"{22222222-0000-0000-0000-000000000001}\"
EndProject
Project(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Api\", \"src\\Api\\Api.csproj\", \"{22222222-0000-0000-0000-000000000002}\"
EndProject
Project(\"{F2A71F9B-5D33-465A-A702-920D77279786}\") = \"Tools\", \"tools\\Tools.fsproj\", \"{22222222-0000-0000-0000-000000000003}\"
EndProject
Global
\tGlobalSection(NestedProjects) = preSolution
\t\t{22222222-0000-0000-0000-000000000001} = {11111111-0000-0000-0000-000000000001}
\t\t{11111111-0000-0000-0000-000000000002} = {11111111-0000-0000-0000-000000000001}
\t\t{22222222-0000-0000-0000-000000000002} = {11111111-0000-0000-0000-000000000002}
\tEndGlobalSection
EndGlobal
";

    #[test]
    fn reads_sln_projects_and_their_folders() {
        let projects = parse_sln(SLN).unwrap();
        assert_eq!(
            projects,
            [
                SolutionProject { name: "App".into(), path: "src/App/App.csproj".into(), folder: Some("src".into()) },
                SolutionProject {
                    name: "Api".into(),
                    path: "src/Api/Api.csproj".into(),
                    folder: Some("src/Services".into())
                },
                SolutionProject { name: "Tools".into(), path: "tools/Tools.fsproj".into(), folder: None },
            ]
        );
        assert!(parse_sln("<Solution />").unwrap_err().contains("header"));
    }

    #[test]
    fn reads_slnx_projects_and_their_folders() {
        let text = r#"<Solution>
  <Folder Name="/src/">
    <Project Path="src/App/App.csproj" />
    <Folder Name="/src/Services/"><Project Path="src\Api\Api.csproj" Type="Classic C#" /></Folder>
  </Folder>
  <Project Path="tools/Tools.fsproj" />
</Solution>"#;
        let projects = parse_slnx(text).unwrap();
        let summary: Vec<(&str, &str, Option<&str>)> =
            projects.iter().map(|p| (p.name.as_str(), p.path.as_str(), p.folder.as_deref())).collect();
        assert_eq!(
            summary,
            [
                ("App", "src/App/App.csproj", Some("src")),
                ("Api", "src/Api/Api.csproj", Some("src/Services")),
                ("Tools", "tools/Tools.fsproj", None),
            ]
        );
        assert!(parse_slnx("<Project />").unwrap_err().contains("<Solution>"));
        assert!(parse_slnx("<Solution>").unwrap_err().contains("not closed"));
    }

    #[test]
    fn the_format_follows_the_extension() {
        assert_eq!(Format::of(Path::new("a/Shop.SLNX")), Some(Format::Slnx));
        assert_eq!(Format::of(Path::new("Shop.sln")).map(Format::as_str), Some("sln"));
        assert_eq!(Format::of(Path::new("Shop.slnf")), None);
        assert!(read(Path::new("Shop.slnf")).unwrap_err().contains("not a .sln or .slnx"));
    }
}
