//! Evaluation through MSBuild (module `evaluate`): Analyze, Dependencies, Validate, GetProperty
//! and ListItems. They read; nothing is locked.

use std::path::Path;

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult, code},
    exec::ProgressKind,
    frameworks,
    kit::{Call, Outcome, prose},
    params::Kind,
    project_file,
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{MSBUILD_NAME, msbuild_name, project_file};
use crate::{
    evaluate::{self, Evaluation, ListedItem},
    projfile::ProjectText,
};

// GetProperty: one evaluated property (empty when MSBuild has no value).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyValue {
    project_path: String,
    property_name: String,
    property_value: String,
    is_set: bool,
}

// ListItems: the evaluated items of the types asked for.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Items {
    project_path: String,
    // The item type asked for, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    item_type: Option<String>,
    // The item types evaluated.
    item_types: Vec<String>,
    count: i64,
    items: Vec<ListedItem>,
}

/// `-p:Configuration=` and `-p:TargetFramework=` for an evaluation.
fn globals<'a>(call: &Call<'a>) -> Result<Vec<(&'static str, &'a str)>, Failure> {
    let mut globals = Vec::new();
    if let Some(configuration) = call.params().opt("configuration", Kind::Configuration)? {
        globals.push(("Configuration", configuration));
    }
    if let Some(framework) = call.params().opt("framework", Kind::Framework)? {
        globals.push(("TargetFramework", framework));
    }
    Ok(globals)
}

/// Evaluates `properties` and `items` of `project` through `dotnet msbuild`.
async fn evaluate(call: &Call<'_>, project: &Path, properties: &[&str], items: &[&str]) -> Result<Evaluation, Failure> {
    let args = evaluate::args(&project.display().to_string(), properties, items, &globals(call)?);
    let ran = call
        .run_ok(call.command(args, format!("Evaluating {}", project.display())).progress(ProgressKind::None))
        .await?;
    evaluate::parse(&ran.outcome.stdout, properties, items).map_err(|problem| {
        let mut error = ErrorResult::new(format!("{}{}", code::EXIT_PREFIX, ran.exit_code()), &problem);
        error.raw_output = ran.outcome.transcript.clone();
        ErrorResponse::from(error).into()
    })
}

/// Analyze: what the project is and what it uses.
pub(super) async fn analyze(call: &Call<'_>) -> Outcome {
    let project = project_file(call).await?;
    let evaluation = evaluate(call, &project, evaluate::ANALYZE_PROPERTIES, evaluate::ANALYZE_ITEMS).await?;
    let file = project_file::read(&project).ok();
    let analysis = evaluate::analyze(&project, &evaluation, file.as_ref());
    Ok(Reply::new(analysis.summary()).result(analysis))
}

/// Dependencies: the direct package and project dependencies.
pub(super) async fn dependencies(call: &Call<'_>) -> Outcome {
    let project = project_file(call).await?;
    let evaluation = evaluate(call, &project, evaluate::DEPENDENCY_PROPERTIES, evaluate::DEPENDENCY_ITEMS).await?;
    let dependencies = evaluate::dependencies(&project, &evaluation);
    let name = evaluate::project_name(&project);
    let summary = format!("{name} has {} direct dependencies.", dependencies.total());
    Ok(Reply::new(summary).section("Dependencies", dependencies.lines()).result(dependencies))
}

/// Validate: errors, warnings and recommendations.
pub(super) async fn validate(call: &Call<'_>) -> Outcome {
    let project = project_file(call).await?;
    let evaluation = evaluate(call, &project, evaluate::VALIDATE_PROPERTIES, evaluate::DEPENDENCY_ITEMS).await?;
    let file = project_file::read(&project);
    let validation =
        evaluate::validate(&project, &evaluation, file.as_ref().map_err(String::as_str), &frameworks::today());
    let name = evaluate::project_name(&project);
    let summary = if validation.is_valid() {
        format!("{name} is valid.")
    } else {
        format!("{name} has problems that need fixing.")
    };
    let mut reply = Reply::new(summary);
    for (heading, lines) in validation.sections() {
        reply = reply.section(heading, lines);
    }
    Ok(reply.result(validation))
}

/// GetProperty: one evaluated property.
pub(super) async fn get_property(call: &Call<'_>) -> Outcome {
    let project = project_file(call).await?;
    let name = msbuild_name(call, "propertyName")?;
    let evaluation = evaluate(call, &project, &[name], &[]).await?;
    let value = evaluation.property(name).to_owned();
    let is_set = !value.is_empty();
    let summary = if is_set { format!("{name} = {value}") } else { format!("{name} is not set (empty).") };
    Ok(Reply::new(summary).result(PropertyValue {
        project_path: project.display().to_string(),
        property_name: name.to_owned(),
        property_value: value,
        is_set,
    }))
}

/// ListItems: the items of one type, or of the common types and those the project declares.
pub(super) async fn list_items(call: &Call<'_>) -> Outcome {
    let project = project_file(call).await?;
    let asked = match call.params().raw("itemType") {
        Some(_) => Some(msbuild_name(call, "itemType")?.to_owned()),
        None => None,
    };
    let types: Vec<String> = match &asked {
        Some(name) => vec![name.clone()],
        None => {
            let mut types: Vec<String> = evaluate::COMMON_ITEMS.iter().map(|name| (*name).to_owned()).collect();
            let declared = std::fs::read_to_string(&project)
                .ok()
                .and_then(|text| ProjectText::parse(&text).ok())
                .map(|file| file.item_types())
                .unwrap_or_default();
            for name in declared {
                if MSBUILD_NAME.is_match(&name) && !types.iter().any(|known| known.eq_ignore_ascii_case(&name)) {
                    types.push(name);
                }
            }
            types
        }
    };
    let names: Vec<&str> = types.iter().map(String::as_str).collect();
    let evaluation = evaluate(call, &project, &[], &names).await?;
    let items: Vec<ListedItem> = names
        .iter()
        .flat_map(|item_type| evaluation.items(item_type).iter().map(|item| ListedItem::new(item_type, item)))
        .collect();
    let lines = items.iter().map(ListedItem::line).collect();
    let summary = format!("{} in {}.", prose::count(items.len(), "item"), evaluate::project_name(&project));
    Ok(Reply::new(summary).section("Items", lines).result(Items {
        project_path: project.display().to_string(),
        item_type: asked,
        count: items.len() as i64,
        item_types: types,
        items,
    }))
}
