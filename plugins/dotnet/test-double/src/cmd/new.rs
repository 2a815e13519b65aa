//! `dotnet new`: template listing (`list`, `search`, the bare command), template help
//! (`new <template> --help`), template packages (`install`, `uninstall`) and instantiation
//! (`new <template> -n <name> -o <dir>`), in the template engine's formats and exit codes
//! (103 for "not found", see aka.ms/templating-exit-codes).
//!
//! The catalogue is `fixtures/templates/installed.json` (installed templates and user-installed
//! template packages) and `fixtures/templates/search.json` (what NuGet.org offers). The double
//! writes no files: instantiation only reports what the template engine would print.

use std::path::PathBuf;

use serde::Deserialize;

use crate::args;
use crate::cmd::help;
use crate::ctx::{Ctx, Scenario};
use crate::fixture::Vars;
use crate::out;
use crate::table::{Rule, Table};
use crate::target;

const INSTALLED: &str = crate::fixture::body(include_str!("../../fixtures/templates/installed.json"));
const SEARCH: &str = crate::fixture::body(include_str!("../../fixtures/templates/search.json"));
const HELP_OPTIONS: &str = crate::fixture::body(include_str!("../../fixtures/templates/help-options.tsv"));
const OPTIONS_CONSOLE: &str = crate::fixture::body(include_str!("../../fixtures/templates/options/console.txt"));
const OPTIONS_CLASSLIB: &str = crate::fixture::body(include_str!("../../fixtures/templates/options/classlib.txt"));
const OPTIONS_WEBAPI: &str = crate::fixture::body(include_str!("../../fixtures/templates/options/webapi.txt"));
const OPTIONS_XUNIT: &str = crate::fixture::body(include_str!("../../fixtures/templates/options/xunit.txt"));
const OPTIONS_PROJECT: &str = crate::fixture::body(include_str!("../../fixtures/templates/options/project.txt"));
const OPTIONS_NONE: &str = crate::fixture::body(include_str!("../../fixtures/templates/options/none.txt"));
const NOT_FOUND: &str = crate::fixture::body(include_str!("../../fixtures/templates/not-found.txt"));
const LIST_NONE: &str = crate::fixture::body(include_str!("../../fixtures/templates/list-none.txt"));
const NEW_USAGE: &str = crate::fixture::body(include_str!("../../fixtures/templates/new-usage.txt"));
const NEW_RESTORE_FAILED: &str = crate::fixture::body(include_str!("../../fixtures/templates/new-restore-failed.txt"));

/// The template engine's exit code for "template or package not found".
const EXIT_NOT_FOUND: u8 = 103;
/// The template engine's exit code for a failed template package installation.
const EXIT_INSTALL_FAILED: u8 = 106;
/// The template engine's exit code for invalid arguments.
const EXIT_INVALID_ARGS: u8 = 127;

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Template {
    name: String,
    short_names: Vec<String>,
    languages: Vec<String>,
    #[serde(rename = "type")]
    kind: String,
    author: String,
    tags: String,
    description: String,
    restore: bool,
    options: Option<String>,
}

impl Template {
    fn language_cell(&self) -> String {
        self.languages
            .iter()
            .enumerate()
            .map(|(i, l)| if i == 0 { format!("[{l}]") } else { l.clone() })
            .collect::<Vec<_>>()
            .join(",")
    }

    fn matches_name(&self, term: &str) -> bool {
        let term = term.to_lowercase();
        self.name.to_lowercase().contains(&term) || self.short_names.iter().any(|s| s.to_lowercase().contains(&term))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Installed {
    templates: Vec<Template>,
    user_packages: Vec<UserPackage>,
}

#[derive(Deserialize)]
struct UserPackage {
    id: String,
    version: String,
    author: String,
    source: String,
    templates: Vec<String>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Remote {
    name: String,
    short_names: Vec<String>,
    author: String,
    languages: Vec<String>,
    tags: String,
    package: String,
    version: String,
    downloads: String,
}

impl Remote {
    fn as_template(&self) -> Template {
        Template {
            name: self.name.clone(),
            short_names: self.short_names.clone(),
            languages: self.languages.clone(),
            kind: "project".into(),
            author: self.author.clone(),
            tags: self.tags.clone(),
            description: format!("{} ({})", self.name, self.package),
            restore: true,
            options: None,
        }
    }
}

fn installed() -> Installed {
    serde_json::from_str(INSTALLED).expect("templates/installed.json is valid")
}

fn remote() -> Vec<Remote> {
    serde_json::from_str(SEARCH).expect("templates/search.json is valid")
}

/// Every template that can be instantiated: the installed ones and those of user packages.
fn all_templates() -> Vec<Template> {
    let inst = installed();
    let mut all = inst.templates;
    for r in remote() {
        if inst.user_packages.iter().any(|p| p.id.eq_ignore_ascii_case(&r.package)) {
            all.push(r.as_template());
        }
    }
    all
}

fn find_template(short_name: &str) -> Option<Template> {
    all_templates().into_iter().find(|t| t.short_names.iter().any(|s| s.eq_ignore_ascii_case(short_name)))
}

/// `dotnet new ...`.
pub fn new(ctx: &Ctx, args: &[String]) -> u8 {
    let Some(first) = args.first() else {
        return usage(ctx);
    };
    let rest = &args[1..];
    match first.as_str() {
        "-h" | "--help" | "-?" => help::print(ctx, "new"),
        "list" | "--list" | "-l" => list(ctx, rest),
        "search" | "--search" => search(ctx, rest),
        "install" | "--install" | "-i" => install(ctx, rest),
        "uninstall" | "--uninstall" | "-u" => uninstall(rest),
        "update" => {
            out::line("Checking for updates...");
            out::line("All template packages are up-to-date.");
            0
        }
        name => match find_template(name) {
            None => {
                out::text(&ctx.vars().with("template", name).render(NOT_FOUND));
                EXIT_NOT_FOUND
            }
            Some(t) if args::flag(rest, &["-h", "--help", "-?"]) => template_help(ctx, &t, name),
            Some(t) => instantiate(ctx, &t, rest),
        },
    }
}

fn usage(ctx: &Ctx) -> u8 {
    let common = ["blazor", "classlib", "console", "mstest", "webapi", "xunit"];
    let rows = installed()
        .templates
        .into_iter()
        .filter(|t| t.short_names.iter().any(|s| common.contains(&s.as_str())))
        .map(|t| vec![t.name.clone(), t.short_names.join(","), t.language_cell(), t.tags.clone()])
        .collect();
    let table = Table {
        headers: &["Template Name", "Short Name", "Language", "Tags"],
        rows,
        gap: 2,
        rule: Rule::PerColumn,
        right: &[],
    };
    out::text(&ctx.vars().with("table", &table.lines().join("\n")).render(NEW_USAGE));
    0
}

/// The optional columns asked for with `--columns` (repeatable, comma-separated) or
/// `--columns-all`; Language and Tags by default.
fn columns(args: &[String]) -> Vec<&'static str> {
    let all = ["language", "type", "author", "tags"];
    if args::flag(args, &["--columns-all"]) {
        return all.to_vec();
    }
    let asked: Vec<String> = args::values(args, &["--columns"])
        .iter()
        .flat_map(|v| v.split(',').map(|c| c.trim().to_lowercase()).collect::<Vec<_>>())
        .collect();
    if asked.is_empty() {
        return vec!["language", "tags"];
    }
    all.into_iter().filter(|c| asked.iter().any(|a| a == c)).collect()
}

fn template_table(templates: &[Template], cols: &[&'static str]) -> Vec<String> {
    let mut headers = vec!["Template Name", "Short Name"];
    for c in cols {
        headers.push(match *c {
            "language" => "Language",
            "type" => "Type",
            "author" => "Author",
            _ => "Tags",
        });
    }
    let rows = templates
        .iter()
        .map(|t| {
            let mut row = vec![t.name.clone(), t.short_names.join(",")];
            for c in cols {
                row.push(match *c {
                    "language" => t.language_cell(),
                    "type" => t.kind.clone(),
                    "author" => t.author.clone(),
                    _ => t.tags.clone(),
                });
            }
            row
        })
        .collect();
    Table { headers: &headers, rows, gap: 2, rule: Rule::PerColumn, right: &[] }.lines()
}

/// `dotnet new list [name] [--language X] [--type X] [--tag X] [--author X] [--columns ...]`.
fn list(ctx: &Ctx, args: &[String]) -> u8 {
    let name = args::positionals(args).into_iter().next();
    let language = args::value(args, &["-lang", "--language"]);
    let kind = args::value(args, &["--type"]);
    let tag = args::value(args, &["--tag"]);
    let author = args::value(args, &["--author"]);
    let matches: Vec<Template> = all_templates()
        .into_iter()
        .filter(|t| name.as_deref().is_none_or(|n| t.matches_name(n)))
        .filter(|t| language.as_deref().is_none_or(|l| t.languages.iter().any(|x| x.eq_ignore_ascii_case(l))))
        .filter(|t| kind.as_deref().is_none_or(|k| t.kind.eq_ignore_ascii_case(k)))
        .filter(|t| tag.as_deref().is_none_or(|g| t.tags.to_lowercase().contains(&g.to_lowercase())))
        .filter(|t| author.as_deref().is_none_or(|a| t.author.to_lowercase().contains(&a.to_lowercase())))
        .collect();
    let mut criteria = Vec::new();
    if let Some(n) = &name {
        criteria.push(format!("'{n}'"));
    }
    for (label, value) in [("language", &language), ("type", &kind), ("tag", &tag), ("author", &author)] {
        if let Some(v) = value {
            criteria.push(format!("{label}='{v}'"));
        }
    }
    let criteria = criteria.join(", ");
    if matches.is_empty() {
        let vars = ctx.vars().with("criteria", &criteria).with("template", name.as_deref().unwrap_or(""));
        out::text(&vars.render(LIST_NONE));
        return EXIT_NOT_FOUND;
    }
    out::line(&format!("These templates matched your input: {criteria}"));
    out::line("");
    template_table(&matches, &columns(args)).iter().for_each(|l| out::line(l));
    0
}

/// `dotnet new search <term>`.
fn search(ctx: &Ctx, args: &[String]) -> u8 {
    let Some(term) = args::positionals(args).into_iter().next() else {
        out::err("Search failed: not enough information specified for search.");
        out::err(
            "To search for templates, specify partial template name or use one of the supported filters: '--author', '--baseline', '--language', '--type', '--tag', '--package'.",
        );
        out::err("Examples:");
        out::err("   dotnet new search web");
        out::err("   dotnet new search --author Microsoft");
        out::err("   dotnet new search web --language C#");
        return EXIT_INVALID_ARGS;
    };
    out::line("Searching for the templates...");
    out::phase(ctx, "Searching...", false);
    out::line("Matches from template source: NuGet.org");
    let lower = term.to_lowercase();
    let found: Vec<Remote> = remote()
        .into_iter()
        .filter(|r| {
            r.name.to_lowercase().contains(&lower)
                || r.package.to_lowercase().contains(&lower)
                || r.short_names.iter().any(|s| s.to_lowercase().contains(&lower))
        })
        .collect();
    if found.is_empty() {
        out::err(&format!("No templates found matching: '{term}'."));
        return EXIT_NOT_FOUND;
    }
    out::line(&format!("These templates matched your input: '{term}'"));
    out::line("");
    let rows = found
        .iter()
        .map(|r| {
            let t = r.as_template();
            vec![
                r.name.clone(),
                r.short_names.join(","),
                r.author.clone(),
                t.language_cell(),
                r.package.clone(),
                r.downloads.clone(),
            ]
        })
        .collect();
    let table = Table {
        headers: &["Template Name", "Short Name", "Author", "Language", "Package", "Downloads"],
        rows,
        gap: 2,
        rule: Rule::PerColumn,
        right: &[5],
    };
    table.lines().iter().for_each(|l| out::line(l));
    out::line("");
    out::line("To use the template, run the following command to install the package:");
    out::line("   dotnet new install <PACKAGE_ID>");
    out::line("Example:");
    out::line(&format!("   dotnet new install {}", found[0].package));
    0
}

/// `dotnet new install <id>[@<version>|::<version>]`.
fn install(ctx: &Ctx, args: &[String]) -> u8 {
    let Some(spec) = args::positionals(args).into_iter().next() else {
        out::err("Required argument missing for command: 'install'.");
        return EXIT_INVALID_ARGS;
    };
    let (id, version) = match spec.split_once("::").or_else(|| spec.split_once('@')) {
        Some((id, v)) => (id.to_string(), Some(v.to_string())),
        None => (spec.clone(), None),
    };
    out::line("The following template packages will be installed:");
    out::line(&format!("   {spec}"));
    out::line("");
    out::phase(ctx, "Installing...", false);
    let local = target::normalize(&ctx.cwd.join(&spec));
    if local.exists() {
        out::line(&format!("Success: {} installed the following templates:", local.display()));
        out::line(&format!("No templates were found in the package {}.", local.display()));
        return 0;
    }
    let templates: Vec<Remote> = remote().into_iter().filter(|r| r.package.eq_ignore_ascii_case(&id)).collect();
    let Some(first) = templates.first() else {
        out::err(&format!("Error: {spec} could not be installed, the package does not exist."));
        return EXIT_NOT_FOUND;
    };
    let version = version.unwrap_or_else(|| first.version.clone());
    let package = first.package.clone();
    if let Some(present) = installed().user_packages.iter().find(|p| p.id.eq_ignore_ascii_case(&id)) {
        if (spec.contains("::") || spec.contains('@')) && present.version == version {
            out::err(&format!("Error: {package}@{version} is already installed."));
            return EXIT_INSTALL_FAILED;
        }
        out::line(&format!(
            "{package} is already installed, version: {}, it will be replaced with version {}.",
            present.version,
            if spec.contains("::") || spec.contains('@') { version.as_str() } else { "" }
        ));
        out::line(&format!("{package}@{} was successfully uninstalled.", present.version));
    }
    out::line(&format!("Success: {package}@{version} installed the following templates:"));
    let list: Vec<Template> = templates.iter().map(Remote::as_template).collect();
    template_table(&list, &["language", "tags"]).iter().for_each(|l| out::line(l));
    0
}

/// `dotnet new uninstall [<id>]`: without an id, lists the user-installed packages.
fn uninstall(args: &[String]) -> u8 {
    let packages = installed().user_packages;
    let Some(id) = args::positionals(args).into_iter().next() else {
        out::line("Currently installed items:");
        if packages.is_empty() {
            out::line("(No Items)");
        }
        for p in &packages {
            out::line(&format!("   {}", p.id));
            out::line(&format!("      Version: {}", p.version));
            out::line("      Details:");
            out::line(&format!("         Author: {}", p.author));
            out::line(&format!("         NuGetSource: {}", p.source));
            out::line("      Templates:");
            p.templates.iter().for_each(|t| out::line(&format!("         {t}")));
            out::line("      Uninstall Command:");
            out::line(&format!("         dotnet new uninstall {}", p.id));
            out::line("");
        }
        return 0;
    };
    match packages.iter().find(|p| p.id.eq_ignore_ascii_case(&id)) {
        Some(p) => {
            out::line(&format!("Success: {}@{} was uninstalled.", p.id, p.version));
            0
        }
        None => {
            out::err(&format!("The template package '{id}' is not found."));
            out::err("");
            out::err("To list installed template packages use:");
            out::err("   dotnet new uninstall");
            EXIT_NOT_FOUND
        }
    }
}

/// `dotnet new <template> --help`.
fn template_help(ctx: &Ctx, t: &Template, short_name: &str) -> u8 {
    let language = t.languages.first().cloned();
    match &language {
        Some(l) => out::line(&format!("{} ({l})", t.name)),
        None => out::line(&t.name),
    }
    out::line(&format!("Author: {}", t.author));
    out::line(&format!("Description: {}", t.description));
    out::line("");
    out::line("Usage:");
    out::line(&format!("  dotnet new {short_name} [options] [template options]"));
    out::line("");
    out::line("Options:");
    let vars = ctx.vars().with("language", language.as_deref().unwrap_or("")).with("type", &t.kind);
    let rows: Vec<(String, String)> = HELP_OPTIONS
        .lines()
        .filter(|l| language.is_some() || !l.starts_with("-lang"))
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (vars.render(a), b.to_string()))
        .collect();
    let width = rows.iter().map(|(a, _)| a.chars().count()).max().unwrap_or(0);
    for (a, b) in &rows {
        out::line(&format!("  {a:<width$}  {b}"));
    }
    out::line("");
    let options = match t.options.as_deref() {
        Some("console") => OPTIONS_CONSOLE,
        Some("classlib") => OPTIONS_CLASSLIB,
        Some("webapi") => OPTIONS_WEBAPI,
        Some("xunit") => OPTIONS_XUNIT,
        _ if t.kind == "project" => OPTIONS_PROJECT,
        _ => OPTIONS_NONE,
    };
    out::text(&vars.render(options));
    if t.languages.len() > 1 {
        let others = t.languages[1..].join(", ");
        out::line("");
        out::line(&format!("To see help for other template languages ({others}), use --language option:"));
        out::line(&format!("   dotnet new {short_name} -h --language {}", t.languages[1]));
    }
    0
}

/// `dotnet new <template> [-n name] [-o dir] [--no-restore] ...`.
fn instantiate(ctx: &Ctx, t: &Template, args: &[String]) -> u8 {
    let name = args::value(args, &["-n", "--name"]);
    let output: PathBuf = match (args::value(args, &["-o", "--output"]), &name) {
        (Some(o), _) => target::normalize(&ctx.cwd.join(o)),
        (None, Some(n)) => ctx.cwd.join(n),
        (None, None) => ctx.cwd.clone(),
    };
    let name = name.unwrap_or_else(|| {
        output.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "App".into())
    });
    out::line(&format!("The template \"{}\" was created successfully.", t.name));
    if t.restore && !args::flag(args, &["--no-restore"]) && !args::flag(args, &["--dry-run"]) {
        let language = args::value(args, &["-lang", "--language"]).unwrap_or_else(|| "C#".into());
        let ext = match language.to_ascii_uppercase().as_str() {
            "F#" => "fsproj",
            "VB" => "vbproj",
            _ => "csproj",
        };
        out::line("");
        out::line("Processing post-creation actions...");
        let project = format!("{}/{name}.{ext}", output.display());
        out::line(&format!("Restoring {project}:"));
        if ctx.has(Scenario::RestoreFail) {
            // The project is written, its restore fails, and `dotnet new` still exits 0.
            out::text(&Vars::default().with("project", &project).render(NEW_RESTORE_FAILED));
            return 0;
        }
        out::line("Restore succeeded.");
        out::line("");
    }
    0
}
