//! `dotnet msbuild`: the evaluation switches `-getProperty`, `-getItem` and
//! `-getTargetResult` print what MSBuild prints (a bare value for a single property, otherwise
//! indented JSON with `Properties`, `Items` and `TargetResults`); without them it builds like
//! `dotnet build`.
//!
//! Values come from `fixtures/msbuild/properties.json` (overridden by `-p:Name=Value`) and
//! `fixtures/msbuild/items.json`; unknown properties are empty and unknown item types have no
//! items, as in MSBuild.

use serde::Serialize;

use crate::args;
use crate::cmd::build;
use crate::ctx::Ctx;
use crate::json::Ordered;
use crate::out;
use crate::target::{self, Project};

const PROPERTIES: &str = crate::fixture::body(include_str!("../../fixtures/msbuild/properties.json"));
const ITEMS: &str = crate::fixture::body(include_str!("../../fixtures/msbuild/items.json"));
const MSB1063: &str = crate::fixture::body(include_str!("../../fixtures/msbuild/msb1063.txt"));

/// The switches `dotnet msbuild` understands here, parsed from `-name:value`, `--name:value`
/// or `/name:value` (names are case-insensitive, values comma- or semicolon-separated).
#[derive(Default)]
struct Switches {
    properties: Vec<String>,
    items: Vec<String>,
    targets: Vec<String>,
    project: Option<String>,
}

fn parse(args: &[String]) -> Switches {
    let mut s = Switches::default();
    for a in args {
        // An absolute Unix path starts with '/', MSBuild's other switch prefix: one naming a
        // project, a solution or a folder is the project, as MSBuild on Unix takes it.
        if a.starts_with('/') && target::positional_target(std::slice::from_ref(a)).is_some() {
            s.project.get_or_insert_with(|| a.clone());
            continue;
        }
        let body = a.strip_prefix("--").or_else(|| a.strip_prefix('-')).or_else(|| a.strip_prefix('/'));
        let Some(body) = body else {
            s.project.get_or_insert_with(|| a.clone());
            continue;
        };
        let (name, value) = body.split_once(':').unwrap_or((body, ""));
        let list = || value.split([',', ';']).filter(|v| !v.is_empty()).map(str::to_string);
        match name.to_ascii_lowercase().as_str() {
            "getproperty" => s.properties.extend(list()),
            "getitem" => s.items.extend(list()),
            "gettargetresult" => s.targets.extend(list()),
            _ => {}
        }
    }
    s
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Evaluation {
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<Ordered<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Ordered<Vec<Ordered<String>>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_results: Option<Ordered<TargetResult>>,
}

/// `dotnet msbuild [project] [switches]`.
pub fn msbuild(ctx: &Ctx, args: &[String]) -> u8 {
    let switches = parse(args);
    if switches.properties.is_empty() && switches.items.is_empty() && switches.targets.is_empty() {
        return build::build(ctx, args);
    }
    let target = match target::resolve(ctx, switches.project.as_deref()) {
        Ok(t) => t,
        Err(missing) => return missing.report_msbuild(),
    };
    if target.is_solution {
        out::text(MSB1063);
        return 1;
    }
    let project = &target.projects[0];
    let overrides = args::msbuild_properties(args);
    let configuration = overrides
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Configuration"))
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| "Debug".into());
    let vars = project
        .vars(ctx)
        .with("configuration", &configuration)
        .with("msbuild_version_short", ctx.msbuild_version().split('+').next().unwrap_or(""))
        .with("project_dir_rel_root", project.dir().display().to_string().trim_start_matches('/'))
        .with("project_parent", &parent_of(project))
        .with("project_parent_rel_root", parent_of(project).trim_start_matches('/'));
    let known: Ordered<String> = serde_json::from_str(PROPERTIES).expect("properties.json is valid");
    let value_of = |name: &str| -> String {
        if let Some((_, v)) = overrides.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            return v.clone();
        }
        known.0.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| vars.render(v)).unwrap_or_default()
    };
    if switches.properties.len() == 1 && switches.items.is_empty() && switches.targets.is_empty() {
        out::line(&value_of(&switches.properties[0]));
        return 0;
    }
    let all_items: Ordered<Vec<Ordered<String>>> = serde_json::from_str(ITEMS).expect("items.json is valid");
    let render_item =
        |item: &Ordered<String>| Ordered(item.0.iter().map(|(k, v)| (k.clone(), vars.render(v))).collect());
    let evaluation = Evaluation {
        properties: (!switches.properties.is_empty())
            .then(|| Ordered(switches.properties.iter().map(|p| (p.clone(), value_of(p))).collect())),
        items: (!switches.items.is_empty()).then(|| {
            Ordered(
                switches
                    .items
                    .iter()
                    .map(|t| {
                        let list = all_items
                            .0
                            .iter()
                            .find(|(k, _)| k.eq_ignore_ascii_case(t))
                            .map(|(_, items)| items.iter().map(render_item).collect())
                            .unwrap_or_default();
                        (t.clone(), list)
                    })
                    .collect(),
            )
        }),
        target_results: (!switches.targets.is_empty()).then(|| {
            Ordered(
                switches.targets.iter().map(|t| (t.clone(), target_result(project, &value_of("TargetPath")))).collect(),
            )
        }),
    };
    out::json(&evaluation);
    0
}

fn parent_of(project: &Project) -> String {
    project.dir().parent().map(|p| p.display().to_string()).unwrap_or_default()
}

/// What `-getTargetResult:<target>` reports for one target.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct TargetResult {
    result: &'static str,
    items: Vec<Ordered<String>>,
}

/// What `-getTargetResult:Build` reports: success and the built assembly.
fn target_result(project: &Project, target_path: &str) -> TargetResult {
    let reference = target_path
        .replace("/bin/", "/obj/")
        .replace(&format!("{}.dll", project.name), &format!("ref/{}.dll", project.name));
    let item = [
        ("Identity", target_path.to_string()),
        ("FullPath", target_path.to_string()),
        ("Filename", project.name.clone()),
        ("Extension", ".dll".to_string()),
        ("TargetFrameworkIdentifier", ".NETCoreApp".to_string()),
        ("ReferenceAssembly", reference),
    ];
    TargetResult {
        result: "Success",
        items: vec![Ordered(item.into_iter().map(|(k, v)| (k.to_string(), v)).collect())],
    }
}
