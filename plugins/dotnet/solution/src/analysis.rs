//! What a solution's project files say, read without dotnet: each project's kind, frameworks,
//! packages and references (Analyze), the project reference graph with a build order and its
//! cycles (Dependencies), and the problems a build would hit or a maintainer should know of
//! (Validate).
//!
//! Project files are read as written (see `dotnet_support::project_file`): conditions are
//! ignored and `$(...)` properties are not expanded, so a value that depends on them is
//! reported as written and left out of the framework checks.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

use dotnet_support::{
    listings::compare_versions,
    locking::canonical,
    project_file::{self, ProjectFile},
};
use schemars::JsonSchema;
use serde::Serialize;

use crate::solution_file::{self, Format, SolutionProject};
use crate::tfm;

/// One project of the solution and what its file says.
#[derive(Debug, Clone)]
pub struct Member {
    /// The solution's entry.
    pub entry: SolutionProject,
    /// How results name it: its name, or its path when two projects share the name.
    pub id: String,
    /// The project file, absolute and normalized.
    pub full_path: PathBuf,
    /// The file as read, or why it could not be.
    pub file: Result<ProjectFile, String>,
}

/// Where a project reference points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference {
    /// Another project of the solution (its index).
    Member(usize),
    /// A project outside the solution, relative to the solution's folder.
    External {
        /// The path, relative to the solution's folder where possible.
        path: String,
        /// Whether the file exists.
        exists: bool,
    },
}

/// A solution and its projects.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The solution file.
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
    /// Its projects, in solution order.
    pub members: Vec<Member>,
    /// The references of each member, deduplicated, in file order.
    pub references: Vec<Vec<Reference>>,
}

/// A package and the projects that reference it, each with the version it asks for.
#[derive(Debug, Clone)]
struct PackageUse {
    /// The id as first written.
    id: String,
    /// (project, version) pairs, one per project.
    uses: Vec<(String, Option<String>)>,
}

/// How bad a finding of Validate is: `error` (the build will fail or the solution is broken) or
/// `warning`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The build will fail or the solution is broken.
    Error,
    /// Worth knowing; the build goes on.
    Warning,
}

impl Severity {
    /// The name results use.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl Serialize for Severity {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

dotnet_support::string_enum_schema!(Severity, "Severity", [Severity::Error, Severity::Warning].map(Severity::as_str));

// One finding of Validate (the type and field names say it all in the schema).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Issue {
    pub severity: Severity,
    // A stable code, such as `PROJECT_NOT_FOUND`.
    pub code: &'static str,
    // What is wrong, in one sentence.
    pub message: String,
    // The project it is about, when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

impl Issue {
    fn new(severity: Severity, code: &'static str, project: Option<&str>, message: String) -> Self {
        Self { severity, code, message, project: project.map(str::to_owned) }
    }
}

/// The language of a project, by its file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// `.csproj`.
    CSharp,
    /// `.fsproj`.
    FSharp,
    /// `.vbproj`.
    VisualBasic,
    /// Any other extension.
    Other,
}

impl Language {
    /// Every language, in the order of the schema's enum.
    const ALL: [Language; 4] = [Language::CSharp, Language::FSharp, Language::VisualBasic, Language::Other];

    /// The language of the project at `path`.
    pub fn of(path: &str) -> Self {
        match Path::new(path).extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("csproj") => Language::CSharp,
            Some("fsproj") => Language::FSharp,
            Some("vbproj") => Language::VisualBasic,
            _ => Language::Other,
        }
    }

    /// The name results use: `C#`, `F#`, `VB` or `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::CSharp => "C#",
            Language::FSharp => "F#",
            Language::VisualBasic => "VB",
            Language::Other => "other",
        }
    }
}

impl Serialize for Language {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

dotnet_support::string_enum_schema!(Language, "Language", Language::ALL.map(Language::as_str));

/// What kind of project a file is ([`project_type`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectType {
    /// A test project (`IsTestProject`, the MSTest SDK, Microsoft.NET.Test.Sdk).
    Test,
    /// `Microsoft.NET.Sdk.Web`.
    Web,
    /// `Microsoft.NET.Sdk.BlazorWebAssembly`.
    Blazor,
    /// `Microsoft.NET.Sdk.Razor`.
    Razor,
    /// `Microsoft.NET.Sdk.Worker`.
    Worker,
    /// `Aspire.AppHost.Sdk`.
    Aspire,
    /// `OutputType` `Exe`.
    Console,
    /// `OutputType` `WinExe`.
    Windows,
    /// Any other SDK-style project.
    Library,
    /// A project without an SDK.
    Legacy,
}

impl ProjectType {
    /// Every type, in the order of the schema's enum.
    const ALL: [ProjectType; 10] = [
        ProjectType::Test,
        ProjectType::Web,
        ProjectType::Blazor,
        ProjectType::Razor,
        ProjectType::Worker,
        ProjectType::Aspire,
        ProjectType::Console,
        ProjectType::Windows,
        ProjectType::Library,
        ProjectType::Legacy,
    ];

    /// The name results use (`test`, `web`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ProjectType::Test => "test",
            ProjectType::Web => "web",
            ProjectType::Blazor => "blazor",
            ProjectType::Razor => "razor",
            ProjectType::Worker => "worker",
            ProjectType::Aspire => "aspire",
            ProjectType::Console => "console",
            ProjectType::Windows => "windows",
            ProjectType::Library => "library",
            ProjectType::Legacy => "legacy",
        }
    }
}

impl Serialize for ProjectType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

dotnet_support::string_enum_schema!(ProjectType, "ProjectType", ProjectType::ALL.map(ProjectType::as_str));

// One project of Analyze: what the solution and its project file say.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalyzedProject {
    pub name: String,
    /// As written in the solution.
    pub path: String,
    /// The solution folder holding it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    pub language: Language,
    pub exists: bool,
    // Absent (an unreadable file), never null: the schema is the type's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ProjectType")]
    pub project_type: Option<ProjectType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sdk: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_frameworks: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_references: Option<Vec<PackageUsed>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_references: Option<Vec<String>>,
    /// Why the project file could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

// A package reference of a project; `central` only when the version comes from
// Directory.Packages.props.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PackageUsed {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub central: bool,
}

// A target framework and the projects targeting it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FrameworkUse {
    pub framework: String,
    pub projects: Vec<String>,
}

// A package two projects or more reference: which, and the versions they ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SharedPackage {
    pub id: String,
    pub projects: Vec<String>,
    pub versions: Vec<String>,
}

// A package referenced at different versions, in version order (`4.2.0` before `4.10.0`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct VersionConflict {
    pub id: String,
    pub versions: Vec<VersionUse>,
}

// One version of a package and the projects asking for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct VersionUse {
    pub version: String,
    pub projects: Vec<String>,
}

// One project of the reference graph, with its references both ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GraphProject {
    pub name: String,
    pub path: String,
    pub references: Vec<String>,
    pub referenced_by: Vec<String>,
    pub external_references: Vec<String>,
}

// A project reference between two projects of the solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Edge {
    pub from: String,
    pub to: String,
}

/// The project reference graph of Dependencies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// Each project with its references both ways.
    pub projects: Vec<GraphProject>,
    /// Every reference between projects of the solution.
    pub edges: Vec<Edge>,
    /// [`Solution::build_order`], by name.
    pub build_order: Vec<String>,
    /// [`Solution::cycles`], by name.
    pub cycles: Vec<Vec<String>>,
}

/// What kind of project a file is: `test`, `web`, `blazor`, `razor`, `worker`, `aspire`,
/// `console`, `windows`, `library`, or `legacy` for a project without an SDK.
pub fn project_type(file: &ProjectFile) -> ProjectType {
    let sdk = file.sdk.as_deref().unwrap_or_default().to_ascii_lowercase();
    if file.is_test_project {
        return ProjectType::Test;
    }
    match sdk.as_str() {
        "" => return ProjectType::Legacy,
        "microsoft.net.sdk.web" => return ProjectType::Web,
        "microsoft.net.sdk.blazorwebassembly" => return ProjectType::Blazor,
        "microsoft.net.sdk.razor" => return ProjectType::Razor,
        "microsoft.net.sdk.worker" => return ProjectType::Worker,
        "aspire.apphost.sdk" => return ProjectType::Aspire,
        _ => {}
    }
    match file.output_type.as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some("exe") => ProjectType::Console,
        Some("winexe") => ProjectType::Windows,
        _ => ProjectType::Library,
    }
}

/// `path` relative to `base` (both absolute), with `/` separators.
fn relative(path: &Path, base: &Path) -> String {
    let path: Vec<Component> = path.components().collect();
    let base: Vec<Component> = base.components().collect();
    let common = path.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let ups = std::iter::repeat_n("..".to_owned(), base.len() - common);
    let rest = path[common..].iter().map(|component| component.as_os_str().to_string_lossy().into_owned());
    ups.chain(rest).collect::<Vec<_>>().join("/")
}

impl Solution {
    /// Reads the solution at `path` and every project file it lists.
    pub fn load(path: &Path) -> Result<Self, String> {
        let format = Format::of(path).ok_or_else(|| format!("{} is not a .sln or .slnx file", path.display()))?;
        let path = canonical(path);
        let entries = solution_file::read(&path)?;
        let folder = path.parent().unwrap_or(Path::new("/")).to_owned();
        let mut names: HashMap<String, usize> = HashMap::new();
        for entry in &entries {
            *names.entry(entry.name.to_lowercase()).or_default() += 1;
        }
        let members: Vec<Member> = entries
            .into_iter()
            .map(|entry| {
                let full_path = canonical(&folder.join(&entry.path));
                let file = if full_path.is_file() {
                    project_file::read(&full_path)
                } else {
                    Err(format!("{} does not exist", full_path.display()))
                };
                let id = if names[&entry.name.to_lowercase()] > 1 { entry.path.clone() } else { entry.name.clone() };
                Member { entry, id, full_path, file }
            })
            .collect();
        let references = members
            .iter()
            .map(|member| {
                let Ok(file) = &member.file else { return Vec::new() };
                let dir = member.full_path.parent().unwrap_or(Path::new("/"));
                let mut found: Vec<Reference> = Vec::new();
                for include in &file.project_references {
                    let target = canonical(&dir.join(include));
                    let lower = target.to_string_lossy().to_lowercase();
                    let index = members.iter().position(|other| other.full_path == target).or_else(|| {
                        members.iter().position(|other| other.full_path.to_string_lossy().to_lowercase() == lower)
                    });
                    let reference = match index {
                        Some(index) => Reference::Member(index),
                        None => Reference::External { path: relative(&target, &folder), exists: target.is_file() },
                    };
                    if !found.contains(&reference) {
                        found.push(reference);
                    }
                }
                found
            })
            .collect();
        Ok(Self { path, format, members, references })
    }

    /// The solution file's name.
    pub fn file_name(&self) -> String {
        self.path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
    }

    fn member_references(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.references[index].iter().filter_map(|reference| match reference {
            Reference::Member(target) => Some(*target),
            Reference::External { .. } => None,
        })
    }

    fn reference_names(&self, index: usize) -> Vec<String> {
        self.references[index]
            .iter()
            .map(|reference| match reference {
                Reference::Member(target) => self.members[*target].id.clone(),
                Reference::External { path, .. } => path.clone(),
            })
            .collect()
    }

    /// Each project, for Analyze.
    pub fn projects(&self) -> Vec<AnalyzedProject> {
        self.members
            .iter()
            .enumerate()
            .map(|(index, member)| {
                let read = member.file.as_ref().ok();
                AnalyzedProject {
                    name: member.id.clone(),
                    path: member.entry.path.clone(),
                    folder: member.entry.folder.clone(),
                    language: Language::of(&member.entry.path),
                    exists: member.full_path.is_file(),
                    project_type: read.map(project_type),
                    sdk: read.and_then(|file| file.sdk.clone()),
                    output_type: read.and_then(|file| file.output_type.clone()),
                    target_frameworks: read.map(|file| file.target_frameworks.clone()),
                    package_references: read.map(|file| {
                        file.package_references
                            .iter()
                            .map(|package| PackageUsed {
                                id: package.id.clone(),
                                version: package.version.clone(),
                                central: package.central,
                            })
                            .collect()
                    }),
                    project_references: read.map(|_| self.reference_names(index)),
                    error: member.file.as_ref().err().cloned(),
                }
            })
            .collect()
    }

    /// The number of projects of each type.
    pub fn project_types(&self) -> BTreeMap<&'static str, usize> {
        let mut types = BTreeMap::new();
        for file in self.members.iter().filter_map(|member| member.file.as_ref().ok()) {
            *types.entry(project_type(file).as_str()).or_default() += 1;
        }
        types
    }

    /// Each target framework and the projects targeting it, by framework.
    pub fn frameworks(&self) -> Vec<FrameworkUse> {
        let mut frameworks: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for member in &self.members {
            for framework in member.file.iter().flat_map(|file| &file.target_frameworks) {
                frameworks.entry(framework.clone()).or_default().push(member.id.clone());
            }
        }
        frameworks.into_iter().map(|(framework, projects)| FrameworkUse { framework, projects }).collect()
    }

    /// Every package (by id, without regard to case) and who uses it at which version.
    fn package_uses(&self) -> Vec<PackageUse> {
        let mut uses: BTreeMap<String, PackageUse> = BTreeMap::new();
        for member in &self.members {
            for package in member.file.iter().flat_map(|file| &file.package_references) {
                let entry = uses
                    .entry(package.id.to_lowercase())
                    .or_insert_with(|| PackageUse { id: package.id.clone(), uses: Vec::new() });
                if !entry.uses.iter().any(|(project, _)| *project == member.id) {
                    entry.uses.push((member.id.clone(), package.version.clone()));
                }
            }
        }
        uses.into_values().collect()
    }

    /// Packages used by two projects or more.
    pub fn shared_packages(&self) -> Vec<SharedPackage> {
        self.package_uses()
            .into_iter()
            .filter(|package| package.uses.len() > 1)
            .map(|PackageUse { id, uses }| {
                let mut versions: Vec<String> = uses.iter().filter_map(|(_, version)| version.clone()).collect();
                versions.sort_by(|a, b| compare_versions(a, b).then_with(|| a.cmp(b)));
                versions.dedup();
                let projects = uses.into_iter().map(|(project, _)| project).collect();
                SharedPackage { id, projects, versions }
            })
            .collect()
    }

    /// Packages referenced at different versions.
    pub fn version_conflicts(&self) -> Vec<VersionConflict> {
        self.package_uses()
            .into_iter()
            .filter_map(|PackageUse { id, uses }| {
                let mut versions: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
                for (project, version) in &uses {
                    if let Some(version) = version {
                        versions.entry(version.as_str()).or_default().push(project.as_str());
                    }
                }
                (versions.len() > 1).then(|| {
                    let mut versions: Vec<(&str, Vec<&str>)> = versions.into_iter().collect();
                    versions.sort_by(|(a, _), (b, _)| compare_versions(a, b).then_with(|| a.cmp(b)));
                    let versions = versions
                        .into_iter()
                        .map(|(version, projects)| VersionUse {
                            version: version.to_owned(),
                            projects: projects.into_iter().map(str::to_owned).collect(),
                        })
                        .collect();
                    VersionConflict { id, versions }
                })
            })
            .collect()
    }

    /// The order to build the projects in (each after the projects it references; ties in
    /// solution order), leaving out the projects that cannot build: those whose file is missing
    /// or unreadable, those on a cycle, and those that reference any of them.
    pub fn build_order(&self) -> Vec<usize> {
        let count = self.members.len();
        let mut waiting: Vec<usize> =
            (0..count).map(|index| self.member_references(index).filter(|target| *target != index).count()).collect();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); count];
        for index in 0..count {
            for target in self.member_references(index) {
                if target != index {
                    dependents[target].push(index);
                }
            }
        }
        let blocked: BTreeSet<usize> = (0..count)
            .filter(|index| {
                self.members[*index].file.is_err() || self.member_references(*index).any(|target| target == *index)
            })
            .collect();
        let mut ready: BTreeSet<usize> =
            (0..count).filter(|index| waiting[*index] == 0 && !blocked.contains(index)).collect();
        let mut order = Vec::new();
        while let Some(next) = ready.pop_first() {
            order.push(next);
            for dependent in &dependents[next] {
                waiting[*dependent] -= 1;
                if waiting[*dependent] == 0 && !blocked.contains(dependent) {
                    ready.insert(*dependent);
                }
            }
        }
        order
    }

    /// The reference cycles: each strongly connected group of two projects or more, and each
    /// project that references itself (Tarjan's algorithm).
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        struct State {
            next: usize,
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            stack: Vec<usize>,
            on_stack: Vec<bool>,
            groups: Vec<Vec<usize>>,
        }
        fn visit(solution: &Solution, node: usize, state: &mut State) {
            state.index[node] = Some(state.next);
            state.low[node] = state.next;
            state.next += 1;
            state.stack.push(node);
            state.on_stack[node] = true;
            for target in solution.member_references(node) {
                match state.index[target] {
                    None => {
                        visit(solution, target, state);
                        state.low[node] = state.low[node].min(state.low[target]);
                    }
                    Some(index) if state.on_stack[target] => state.low[node] = state.low[node].min(index),
                    Some(_) => {}
                }
            }
            if Some(state.low[node]) == state.index[node] {
                let mut group = Vec::new();
                while let Some(top) = state.stack.pop() {
                    state.on_stack[top] = false;
                    group.push(top);
                    if top == node {
                        break;
                    }
                }
                let self_loop = solution.member_references(node).any(|target| target == node);
                if group.len() > 1 || self_loop {
                    group.sort_unstable();
                    state.groups.push(group);
                }
            }
        }
        let count = self.members.len();
        let mut state = State {
            next: 0,
            index: vec![None; count],
            low: vec![0; count],
            stack: Vec::new(),
            on_stack: vec![false; count],
            groups: Vec::new(),
        };
        for node in 0..count {
            if state.index[node].is_none() {
                visit(self, node, &mut state);
            }
        }
        state.groups.sort();
        state.groups
    }

    /// The project reference graph: each project with its references both ways, the edges, the
    /// build order and the cycles.
    pub fn graph(&self) -> Graph {
        let ids = |indexes: &[usize]| -> Vec<String> {
            indexes.iter().map(|index| self.members[*index].id.clone()).collect()
        };
        let mut edges = Vec::new();
        let projects = (0..self.members.len())
            .map(|index| {
                let references: Vec<usize> = self.member_references(index).collect();
                for target in &references {
                    edges.push(Edge { from: self.members[index].id.clone(), to: self.members[*target].id.clone() });
                }
                let referenced_by: Vec<usize> = (0..self.members.len())
                    .filter(|other| self.member_references(*other).any(|t| t == index))
                    .collect();
                let external_references = self.references[index]
                    .iter()
                    .filter_map(|reference| match reference {
                        Reference::External { path, .. } => Some(path.clone()),
                        Reference::Member(_) => None,
                    })
                    .collect();
                GraphProject {
                    name: self.members[index].id.clone(),
                    path: self.members[index].entry.path.clone(),
                    references: ids(&references),
                    referenced_by: ids(&referenced_by),
                    external_references,
                }
            })
            .collect();
        let cycles = self.cycles().iter().map(|group| ids(group)).collect();
        Graph { projects, edges, build_order: ids(&self.build_order()), cycles }
    }

    /// Everything Validate finds: errors first, then warnings, each in solution order.
    pub fn issues(&self) -> Vec<Issue> {
        let mut issues = Vec::new();
        if self.members.is_empty() {
            issues.push(Issue::new(
                Severity::Warning,
                "EMPTY_SOLUTION",
                None,
                format!("{} lists no projects.", self.file_name()),
            ));
        }
        let mut seen: HashMap<&Path, &str> = HashMap::new();
        for (index, member) in self.members.iter().enumerate() {
            let id = Some(member.id.as_str());
            if let Some(first) = seen.insert(&member.full_path, &member.id) {
                let message = format!("{} is listed twice (also as {first}).", member.entry.path);
                issues.push(Issue::new(Severity::Warning, "DUPLICATE_PROJECT", id, message));
            }
            let file = match &member.file {
                Ok(file) => file,
                Err(error) if !member.full_path.is_file() => {
                    let message = format!("{} is listed in the solution but its file is missing ({error}).", member.id);
                    issues.push(Issue::new(Severity::Error, "PROJECT_NOT_FOUND", id, message));
                    continue;
                }
                Err(error) => {
                    issues.push(Issue::new(
                        Severity::Error,
                        "PROJECT_UNREADABLE",
                        id,
                        format!("{} cannot be read: {error}", member.id),
                    ));
                    continue;
                }
            };
            if !file.is_sdk_style() {
                let message =
                    format!("{} is a classic (non-SDK) project; the dotnet CLI builds it only partly.", member.id);
                issues.push(Issue::new(Severity::Warning, "LEGACY_PROJECT", id, message));
            } else if file.target_frameworks.is_empty() {
                let message = format!(
                    "{} sets no TargetFramework in its file or in Directory.Build.props (it may come from another import).",
                    member.id
                );
                issues.push(Issue::new(Severity::Warning, "NO_TARGET_FRAMEWORK", id, message));
            }
            for reference in &self.references[index] {
                match reference {
                    Reference::External { path, exists: false } => {
                        let message = format!("{} references {path}, which does not exist.", member.id);
                        issues.push(Issue::new(Severity::Error, "REFERENCE_NOT_FOUND", id, message));
                    }
                    Reference::External { path, exists: true } => {
                        let message = format!("{} references {path}, which is not in the solution.", member.id);
                        issues.push(Issue::new(Severity::Warning, "REFERENCE_NOT_IN_SOLUTION", id, message));
                    }
                    Reference::Member(target) => {
                        if let Some(issue) = self.framework_mismatch(index, *target) {
                            issues.push(issue);
                        }
                    }
                }
            }
        }
        for group in self.cycles() {
            let names: Vec<&str> = group.iter().map(|index| self.members[*index].id.as_str()).collect();
            let message = format!("Project references form a cycle: {}.", names.join(" -> "));
            issues.push(Issue::new(Severity::Error, "REFERENCE_CYCLE", Some(names[0]), message));
        }
        for conflict in self.version_conflicts() {
            let versions: Vec<String> = conflict
                .versions
                .iter()
                .map(|entry| format!("{} ({})", entry.version, entry.projects.join(", ")))
                .collect();
            let message = format!("{} is referenced at different versions: {}.", conflict.id, versions.join(", "));
            issues.push(Issue::new(Severity::Warning, "PACKAGE_VERSION_CONFLICT", None, message));
        }
        issues.sort_by_key(|issue| issue.severity != Severity::Error);
        issues
    }

    /// An error when `consumer` targets a framework none of `library`'s frameworks serves.
    fn framework_mismatch(&self, consumer: usize, library: usize) -> Option<Issue> {
        let (Ok(consumer_file), Ok(library_file)) = (&self.members[consumer].file, &self.members[library].file) else {
            return None;
        };
        let parse_all = |frameworks: &[String]| -> Option<Vec<tfm::Tfm>> {
            if frameworks.is_empty() {
                return None;
            }
            frameworks.iter().map(|framework| tfm::parse(framework)).collect()
        };
        let consumer_tfms = parse_all(&consumer_file.target_frameworks)?;
        let library_tfms = parse_all(&library_file.target_frameworks)?;
        let unserved: Vec<&str> = consumer_tfms
            .iter()
            .zip(&consumer_file.target_frameworks)
            .filter(|(wanted, _)| !library_tfms.iter().any(|offered| tfm::compatible(wanted, offered)))
            .map(|(_, name)| name.as_str())
            .collect();
        (!unserved.is_empty()).then(|| {
            let (consumer, library) = (&self.members[consumer].id, &self.members[library].id);
            let message = format!(
                "{consumer} ({}) references {library}, which targets {} and offers nothing compatible.",
                unserved.join(", "),
                library_file.target_frameworks.join(", ")
            );
            Issue::new(Severity::Error, "INCOMPATIBLE_FRAMEWORK", Some(consumer), message)
        })
    }

    /// Advice that is not a problem: aligning frameworks, central package versions, tests.
    pub fn recommendations(&self) -> Vec<String> {
        let mut advice = Vec::new();
        let frameworks = self.frameworks();
        let applications: BTreeSet<&String> = frameworks
            .iter()
            .map(|used| &used.framework)
            .filter(|framework| !framework.to_ascii_lowercase().starts_with("netstandard"))
            .collect();
        if applications.len() > 1 {
            let list: Vec<&str> = applications.iter().map(|framework| framework.as_str()).collect();
            advice.push(format!(
                "Projects target {} different frameworks ({}); align them where you can, or multi-target the shared libraries.",
                list.len(),
                list.join(", ")
            ));
        }
        if !self.version_conflicts().is_empty() {
            advice.push(
                "Keep package versions in one place with Central Package Management (a Directory.Packages.props at the solution root)."
                    .to_owned(),
            );
        }
        let readable = self.members.iter().filter(|member| member.file.is_ok()).count();
        let tests =
            self.members.iter().filter(|member| member.file.as_ref().is_ok_and(|file| file.is_test_project)).count();
        if readable > 0 && tests == 0 {
            advice.push(
                "The solution has no test project; add one (dotnet new xunit) that references the projects it tests."
                    .to_owned(),
            );
        }
        advice
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn value(typed: impl Serialize) -> Value {
        serde_json::to_value(typed).unwrap()
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn project(framework: &str, extra: &str) -> String {
        format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>{framework}</TargetFramework></PropertyGroup>\
             <ItemGroup>{extra}</ItemGroup></Project>"
        )
    }

    /// App → Lib, Core ↔ Cycle, App.Tests → App, App → External (not in the solution), Lib → Missing.
    fn solution() -> (tempfile::TempDir, Solution) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            &root.join("Shop.slnx"),
            r#"<Solution>
                 <Folder Name="/src/">
                   <Project Path="src/App/App.csproj" />
                   <Project Path="src/Lib/Lib.csproj" />
                   <Project Path="src/Core/Core.csproj" />
                   <Project Path="src/Cycle/Cycle.csproj" />
                   <Project Path="src/Gone/Gone.csproj" />
                 </Folder>
                 <Project Path="tests/App.Tests/App.Tests.csproj" />
               </Solution>"#,
        );
        write(
            &root.join("src/App/App.csproj"),
            &project(
                "net8.0",
                r#"<PackageReference Include="Serilog" Version="4.2.0" />
                   <ProjectReference Include="..\Lib\Lib.csproj" />
                   <ProjectReference Include="..\..\External\External.csproj" />"#,
            )
            .replace("<PropertyGroup>", "<PropertyGroup><OutputType>Exe</OutputType>"),
        );
        write(
            &root.join("src/Lib/Lib.csproj"),
            &project(
                "net10.0",
                r#"<PackageReference Include="serilog" Version="4.10.0" /><ProjectReference Include="../Missing/Missing.csproj" />"#,
            ),
        );
        write(&root.join("External/External.csproj"), &project("net8.0", ""));
        write(
            &root.join("src/Core/Core.csproj"),
            &project("netstandard2.0", r#"<ProjectReference Include="../Cycle/Cycle.csproj" />"#),
        );
        write(
            &root.join("src/Cycle/Cycle.csproj"),
            &project("netstandard2.0", r#"<ProjectReference Include="../Core/Core.csproj" />"#),
        );
        write(
            &root.join("tests/App.Tests/App.Tests.csproj"),
            &project(
                "net8.0",
                r#"<PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.14.1" />
                   <PackageReference Include="Serilog" Version="4.2.0" />
                   <ProjectReference Include="../../src/App/App.csproj" />"#,
            ),
        );
        let solution = Solution::load(&root.join("Shop.slnx")).unwrap();
        (dir, solution)
    }

    #[test]
    fn analyses_types_frameworks_and_packages() {
        let (_dir, solution) = solution();
        let projects = value(solution.projects());
        assert_eq!(projects[0]["projectType"], "console");
        assert_eq!(projects[0]["folder"], "src");
        assert_eq!(projects[0]["projectReferences"], json!(["Lib", "External/External.csproj"]));
        assert_eq!(projects[4]["exists"], false);
        assert!(projects[4]["error"].as_str().unwrap().contains("does not exist"));
        assert_eq!(projects[5]["projectType"], "test");
        assert_eq!(solution.project_types(), BTreeMap::from([("console", 1), ("library", 3), ("test", 1)]));
        assert_eq!(
            solution.frameworks()[1],
            FrameworkUse { framework: "net8.0".to_owned(), projects: vec!["App".to_owned(), "App.Tests".to_owned()] }
        );
        assert!(projects[0].get("error").is_none() && projects[4].get("projectType").is_none(), "{projects}");
        assert_eq!(
            value(solution.shared_packages()),
            json!([{ "id": "Serilog", "projects": ["App", "Lib", "App.Tests"], "versions": ["4.2.0", "4.10.0"] }])
        );
        assert_eq!(
            value(solution.version_conflicts()),
            json!([{ "id": "Serilog", "versions": [
                { "version": "4.2.0", "projects": ["App", "App.Tests"] },
                { "version": "4.10.0", "projects": ["Lib"] } ] }])
        );
    }

    #[test]
    fn orders_the_graph_and_finds_cycles() {
        let (_dir, solution) = solution();
        let graph = value(solution.graph().projects);
        let Graph { edges, build_order, cycles, .. } = solution.graph();
        assert_eq!(build_order, ["Lib", "App", "App.Tests"], "Gone is missing, Core and Cycle loop");
        assert_eq!(cycles, [["Core", "Cycle"]]);
        assert_eq!(graph[1]["referencedBy"], json!(["App"]));
        assert_eq!(graph[1]["externalReferences"], json!(["src/Missing/Missing.csproj"]));
        assert_eq!(value(&edges[0]), json!({ "from": "App", "to": "Lib" }));
    }

    #[test]
    fn validation_finds_what_a_build_would_hit() {
        let (_dir, solution) = solution();
        let codes: Vec<(&str, &str)> =
            solution.issues().iter().map(|issue| (issue.severity.as_str(), issue.code)).collect();
        assert_eq!(
            codes,
            [
                ("error", "INCOMPATIBLE_FRAMEWORK"),
                ("error", "REFERENCE_NOT_FOUND"),
                ("error", "PROJECT_NOT_FOUND"),
                ("error", "REFERENCE_CYCLE"),
                ("warning", "REFERENCE_NOT_IN_SOLUTION"),
                ("warning", "PACKAGE_VERSION_CONFLICT"),
            ]
        );
        let mismatch = &solution.issues()[0];
        assert_eq!(
            mismatch.message,
            "App (net8.0) references Lib, which targets net10.0 and offers nothing compatible."
        );
        let advice = solution.recommendations();
        assert!(advice[0].contains("net10.0, net8.0"), "{advice:?}");
        assert!(advice[1].contains("Central Package Management"), "{advice:?}");
    }

    #[test]
    fn duplicate_names_are_told_apart_by_path() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir.path().join("Two.slnx"),
            r#"<Solution><Project Path="a/App.csproj" /><Project Path="b/App.csproj" /></Solution>"#,
        );
        write(&dir.path().join("a/App.csproj"), &project("net10.0", ""));
        write(&dir.path().join("b/App.csproj"), &project("net10.0", ""));
        let solution = Solution::load(&dir.path().join("Two.slnx")).unwrap();
        let names: Vec<&str> = solution.members.iter().map(|member| member.id.as_str()).collect();
        assert_eq!(names, ["a/App.csproj", "b/App.csproj"]);
        assert!(solution.recommendations().iter().any(|advice| advice.contains("no test project")));
    }

    #[test]
    fn relative_paths_climb_as_needed() {
        assert_eq!(relative(Path::new("/a/b/c.csproj"), Path::new("/a")), "b/c.csproj");
        assert_eq!(relative(Path::new("/x/c.csproj"), Path::new("/a/b")), "../../x/c.csproj");
    }
}
