//! Finding the project or solution a command works on, the way MSBuild and the CLI do:
//! an explicit path, or the single project or solution file in the working directory.
//!
//! The double never requires the files to exist: an explicit path is taken as given, and an
//! empty directory counts as holding `<directory name>.csproj` (unless the `no-project`
//! scenario is on). A solution always contains the projects in `fixtures/solution/projects.txt`.

use std::path::{Component, Path, PathBuf};

use crate::ctx::{Ctx, Scenario};
use crate::fixture::Vars;
use crate::out;

/// The projects of every solution, relative to the solution's directory.
pub const SOLUTION_PROJECTS: &str = crate::fixture::body(include_str!("../fixtures/solution/projects.txt"));

const PROJECT_EXTENSIONS: &[&str] = &["csproj", "fsproj", "vbproj", "proj"];
const SOLUTION_EXTENSIONS: &[&str] = &["sln", "slnx", "slnf"];

/// One project.
#[derive(Clone, Debug)]
pub struct Project {
    /// The project's name (its file name without extension).
    pub name: String,
    /// The absolute path of the project file.
    pub path: PathBuf,
}

impl Project {
    fn at(path: PathBuf) -> Project {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "App".into());
        Project { name, path }
    }

    /// The directory holding the project file.
    pub fn dir(&self) -> PathBuf {
        self.path.parent().map(Path::to_path_buf).unwrap_or_default()
    }

    /// Whether this is a test project (its name ends in `.Tests` or `Tests`).
    pub fn is_test(&self) -> bool {
        self.name.ends_with("Tests")
    }

    /// The fixture values of this project: `project`, `project_path`, `project_dir`.
    pub fn vars(&self, ctx: &Ctx) -> Vars {
        ctx.vars()
            .with("project", &self.name)
            .with("project_path", &self.path.display().to_string())
            .with("project_dir", &self.dir().display().to_string())
    }
}

/// What a command works on.
#[derive(Clone, Debug)]
pub struct Target {
    /// The project or solution file.
    pub path: PathBuf,
    /// Whether `path` is a solution.
    pub is_solution: bool,
    /// The projects (one for a project target).
    pub projects: Vec<Project>,
}

impl Target {
    fn project(path: PathBuf) -> Target {
        Target { projects: vec![Project::at(path.clone())], path, is_solution: false }
    }

    fn solution(path: PathBuf) -> Target {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let projects = SOLUTION_PROJECTS
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Project::at(normalize(&dir.join(l.trim()))))
            .collect();
        Target { path, is_solution: true, projects }
    }
}

/// Why no target could be found.
#[derive(Clone, Debug)]
pub enum Missing {
    /// The directory holds no project or solution file.
    None(PathBuf),
    /// The directory holds more than one.
    Several(PathBuf),
}

impl Missing {
    /// The directory that was searched.
    pub fn dir(&self) -> &Path {
        match self {
            Missing::None(d) | Missing::Several(d) => d,
        }
    }

    /// Prints MSBuild's command-line error (MSB1003 or MSB1011) and returns exit code 1.
    pub fn report_msbuild(&self) -> u8 {
        match self {
            Missing::None(_) => out::line(
                "MSBUILD : error MSB1003: Specify a project or solution file. The current working directory does not contain a project or solution file.",
            ),
            Missing::Several(_) => out::line(
                "MSBUILD : error MSB1011: Specify which project or solution file to use because this folder contains more than one project or solution file.",
            ),
        }
        1
    }

    /// Prints the CLI's own project-lookup error (used by add/remove/list) and returns 1.
    pub fn report_cli(&self) -> u8 {
        let dir = format!("{}/", self.dir().display());
        match self {
            Missing::None(_) => out::err(&format!("Could not find any project in `{dir}`.")),
            Missing::Several(_) => {
                out::err(&format!("Found more than one project in `{dir}`. Specify which one to use."))
            }
        }
        1
    }
}

/// Lexically normalizes a path (`.` and `..`), without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn has_extension(path: &Path, exts: &[&str]) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Resolves `explicit` (relative to the working directory) or searches the working directory.
pub fn resolve(ctx: &Ctx, explicit: Option<&str>) -> Result<Target, Missing> {
    match explicit {
        Some(p) => {
            let path = normalize(&ctx.cwd.join(p));
            if path.is_dir() {
                search(ctx, &path)
            } else if has_extension(&path, SOLUTION_EXTENSIONS) {
                Ok(Target::solution(path))
            } else {
                Ok(Target::project(path))
            }
        }
        None => search(ctx, &ctx.cwd),
    }
}

fn search(ctx: &Ctx, dir: &Path) -> Result<Target, Missing> {
    if ctx.has(Scenario::NoProject) {
        return Err(Missing::None(dir.to_path_buf()));
    }
    let mut solutions = Vec::new();
    let mut projects = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_file() {
                continue;
            }
            if has_extension(&path, SOLUTION_EXTENSIONS) {
                solutions.push(path);
            } else if has_extension(&path, PROJECT_EXTENSIONS) {
                projects.push(path);
            }
        }
    }
    match (solutions.len(), projects.len()) {
        (1, _) => Ok(Target::solution(solutions.remove(0))),
        (0, 1) => Ok(Target::project(projects.remove(0))),
        (0, 0) => {
            let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "App".into());
            Ok(Target::project(dir.join(format!("{name}.csproj"))))
        }
        _ => Err(Missing::Several(dir.to_path_buf())),
    }
}

/// The first positional argument that names a project, solution or directory.
pub fn positional_target(args: &[String]) -> Option<String> {
    crate::args::positionals(args).into_iter().find(|p| {
        let path = Path::new(p);
        has_extension(path, PROJECT_EXTENSIONS) || has_extension(path, SOLUTION_EXTENSIONS) || path.is_dir()
    })
}
