//! The argument vectors of the actions that run dotnet. Each value is one argument.
//!
//! `dotnet sln` is used rather than SDK 10's `dotnet solution`: SDK 8, 9 and 10 all know it
//! (SDK 9.0.200 and later also for `.slnx`).

/// Where `sln add` puts the projects in the solution's folder tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement<'a> {
    /// The CLI's default: folders mirroring the projects' paths.
    Default,
    /// This solution folder (`--solution-folder`).
    Folder(&'a str),
    /// The root of the solution (`--in-root`).
    Root,
}

/// `new sln -n <name> [-o <output>] [--format <sln|slnx>]`. Without a format the SDK picks its
/// default (`.sln` before SDK 10, `.slnx` from SDK 10); SDK 8 knows no `--format` at all.
pub fn create(name: &str, output: Option<&str>, format: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> = ["new", "sln", "-n", name].map(str::to_owned).to_vec();
    if let Some(output) = output {
        args.extend(["-o".to_owned(), output.to_owned()]);
    }
    if let Some(format) = format {
        args.extend(["--format".to_owned(), format.to_owned()]);
    }
    args
}

/// `sln [<solution>] add <projects...> [--solution-folder <f> | --in-root]`.
pub fn add(solution: Option<&str>, projects: &[&str], placement: Placement<'_>) -> Vec<String> {
    let mut args = sln(solution, "add");
    args.extend(projects.iter().map(|project| (*project).to_owned()));
    match placement {
        Placement::Default => {}
        Placement::Folder(folder) => args.extend(["--solution-folder".to_owned(), folder.to_owned()]),
        Placement::Root => args.push("--in-root".to_owned()),
    }
    args
}

/// `sln [<solution>] remove <projects...>`.
pub fn remove(solution: Option<&str>, projects: &[&str]) -> Vec<String> {
    let mut args = sln(solution, "remove");
    args.extend(projects.iter().map(|project| (*project).to_owned()));
    args
}

/// `sln [<solution>] list`.
pub fn list(solution: Option<&str>) -> Vec<String> {
    sln(solution, "list")
}

/// `sln <solution> migrate`: the `.sln` written again as `.slnx` beside it.
pub fn migrate(solution: &str) -> Vec<String> {
    sln(Some(solution), "migrate")
}

fn sln(solution: Option<&str>, verb: &str) -> Vec<String> {
    std::iter::once("sln").chain(solution).chain(std::iter::once(verb)).map(str::to_owned).collect()
}

/// The projects `sln list` printed: the lines under its dashed rule, with `/` separators.
pub fn listed_projects(output: &str) -> Vec<String> {
    let mut lines = output.lines().map(str::trim);
    if !lines.by_ref().any(|line| line.len() >= 3 && line.chars().all(|c| c == '-')) {
        return Vec::new();
    }
    lines.filter(|line| !line.is_empty()).map(|line| line.replace('\\', "/")).collect()
}

/// The projects named in lines such as ``Project `src/App/App.csproj` added to the solution.``
/// that end with `ending`.
pub fn projects_reported(output: &str, ending: &str) -> Vec<String> {
    output
        .lines()
        .map(str::trim)
        .filter(|line| line.ends_with(ending))
        .filter_map(|line| line.split('`').nth(1))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| (*item).to_owned()).collect()
    }

    #[test]
    fn builds_each_command() {
        assert_eq!(create("Shop", None, None), strings(&["new", "sln", "-n", "Shop"]));
        assert_eq!(
            create("Shop", Some("out"), Some("slnx")),
            strings(&["new", "sln", "-n", "Shop", "-o", "out", "--format", "slnx"])
        );
        assert_eq!(
            add(Some("Shop.slnx"), &["a.csproj", "b.csproj"], Placement::Folder("src")),
            strings(&["sln", "Shop.slnx", "add", "a.csproj", "b.csproj", "--solution-folder", "src"])
        );
        assert_eq!(add(None, &["a.csproj"], Placement::Root), strings(&["sln", "add", "a.csproj", "--in-root"]));
        assert_eq!(remove(None, &["a.csproj"]), strings(&["sln", "remove", "a.csproj"]));
        assert_eq!(list(Some("Shop.sln")), strings(&["sln", "Shop.sln", "list"]));
        assert_eq!(migrate("Shop.sln"), strings(&["sln", "Shop.sln", "migrate"]));
    }

    #[test]
    fn reads_what_the_cli_printed() {
        let listed = "Project(s)\n----------\nsrc\\App\\App.csproj\ntests/App.Tests/App.Tests.csproj\n";
        assert_eq!(listed_projects(listed), ["src/App/App.csproj", "tests/App.Tests/App.Tests.csproj"]);
        assert!(listed_projects("No projects found in the solution.").is_empty());
        let removed =
            "Project `a.csproj` removed from the solution.\nProject `b.csproj` could not be found in the solution.\n";
        assert_eq!(projects_reported(removed, "removed from the solution."), ["a.csproj"]);
        assert_eq!(projects_reported(removed, "could not be found in the solution."), ["b.csproj"]);
    }
}
