//! Evaluation through MSBuild (module `evaluate`): Analyze, Dependencies, Validate, GetProperty
//! and ListItems. They read; nothing is locked.

use std::path::Path;

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult, code},
    exec::ProgressKind,
    frameworks,
    kit::{Outcome, Shape},
    params::Kind,
    project_file,
    respond::{Failure, Reply},
};
use serde_json::{Value, json};

use super::{Act, MSBUILD_NAME};
use crate::{
    Action,
    evaluate::{self, Evaluation},
    projfile::ProjectText,
};

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

fn objects() -> Value {
    json!({ "type": "array", "items": { "type": "object" } })
}

/// GetProperty: one evaluated property.
pub fn property_value_shape() -> Shape {
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "propertyName": { "type": "string" },
            "propertyValue": { "type": "string" },
            "isSet": { "type": "boolean" }
        }),
        &["projectPath", "propertyName", "propertyValue", "isSet"],
    )
}

/// ListItems: evaluated items with their metadata.
pub fn items_shape() -> Shape {
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "itemType": { "type": "string" },
            "itemTypes": strings(),
            "count": { "type": "integer" },
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "itemType": { "type": "string" },
                        "include": { "type": "string" },
                        "fullPath": { "type": "string" },
                        "metadata": { "type": "object", "additionalProperties": { "type": "string" } }
                    },
                    "required": ["itemType", "include", "metadata"]
                }
            }
        }),
        &["projectPath", "itemTypes", "count", "items"],
    )
}

/// Analyze: what the project is and what it uses.
pub fn analyze_shape() -> Shape {
    let nullable_string = json!({ "type": ["string", "null"] });
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "projectName": { "type": "string" },
            "sdk": { "type": "string" },
            "targetFrameworks": strings(),
            "outputType": nullable_string,
            "assemblyName": nullable_string,
            "rootNamespace": nullable_string,
            "nullable": nullable_string,
            "implicitUsings": nullable_string,
            "langVersion": nullable_string,
            "isPackable": { "type": "boolean" },
            "isTestProject": { "type": "boolean" },
            "packageReferences": objects(),
            "projectReferences": objects(),
            "analyzers": objects(),
            "buildProperties": { "type": "object" },
            "notes": strings()
        }),
        &[
            "projectPath",
            "projectName",
            "targetFrameworks",
            "packageReferences",
            "projectReferences",
            "analyzers",
            "buildProperties",
        ],
    )
}

/// Dependencies: the direct package and project dependencies.
pub fn dependencies_shape() -> Shape {
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "targetFrameworks": strings(),
            "directPackageDependencies": objects(),
            "directProjectDependencies": objects(),
            "totalDirectDependencies": { "type": "integer" },
            "notes": strings()
        }),
        &[
            "projectPath",
            "targetFrameworks",
            "directPackageDependencies",
            "directProjectDependencies",
            "totalDirectDependencies",
            "notes",
        ],
    )
}

/// Validate: errors, warnings and recommendations.
pub fn validate_shape() -> Shape {
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "isValid": { "type": "boolean" },
            "errors": strings(),
            "warnings": strings(),
            "recommendations": strings()
        }),
        &["projectPath", "isValid", "errors", "warnings", "recommendations"],
    )
}

impl Act<'_, '_> {
    // --- evaluation ---------------------------------------------------------------------------

    /// `-p:Configuration=` and `-p:TargetFramework=` for an evaluation.
    fn globals(&self) -> Result<Vec<(&'static str, &str)>, Failure> {
        let mut globals = Vec::new();
        if let Some(configuration) = self.opt("configuration", Kind::Configuration)? {
            globals.push(("Configuration", configuration));
        }
        if let Some(framework) = self.opt("framework", Kind::Framework)? {
            globals.push(("TargetFramework", framework));
        }
        Ok(globals)
    }

    async fn evaluate(&self, project: &Path, properties: &[&str], items: &[&str]) -> Result<Evaluation, Failure> {
        let globals = self.globals()?;
        let args = evaluate::args(&project.display().to_string(), properties, items, &globals);
        let description = format!("Evaluating {}", project.display());
        let ran = self.run(args, description, ProgressKind::None).await?;
        if !ran.succeeded() {
            return Err(ran.failure().into());
        }
        evaluate::parse(&ran.outcome.stdout, properties, items).map_err(|problem| {
            let mut error = ErrorResult::new(format!("{}{}", code::EXIT_PREFIX, ran.exit_code()), &problem);
            error.raw_output = ran.outcome.transcript.clone();
            ErrorResponse::from(error).into()
        })
    }

    pub(super) async fn analyze(&self) -> Outcome {
        let project = self.project_file().await?;
        let (properties, items): (&[&str], &[&str]) = match self.action {
            Action::Analyze => (evaluate::ANALYZE_PROPERTIES, evaluate::ANALYZE_ITEMS),
            Action::Dependencies => (evaluate::DEPENDENCY_PROPERTIES, evaluate::DEPENDENCY_ITEMS),
            _ => (evaluate::VALIDATE_PROPERTIES, evaluate::DEPENDENCY_ITEMS),
        };
        let evaluation = self.evaluate(&project, properties, items).await?;
        let name = evaluate::project_name(&project);
        let (structured, summary, sections) = match self.action {
            Action::Analyze => {
                let file = project_file::read(&project).ok();
                let result = Value::Object(evaluate::analyze(&project, &evaluation, file.as_ref()));
                let summary = format!(
                    "{name}: {} targeting {}, {} package and {} project reference(s).",
                    result["outputType"].as_str().unwrap_or("a project"),
                    evaluation.target_frameworks().join(", "),
                    result["packageReferences"].as_array().map_or(0, Vec::len),
                    result["projectReferences"].as_array().map_or(0, Vec::len)
                );
                (result, summary, Vec::new())
            }
            Action::Dependencies => {
                let result = Value::Object(evaluate::dependencies(&project, &evaluation));
                let lines = result["directPackageDependencies"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|package| {
                        format!(
                            "{} {}",
                            package["name"].as_str().unwrap_or_default(),
                            package["version"].as_str().unwrap_or("(no version)")
                        )
                    })
                    .chain(
                        result["directProjectDependencies"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|project| format!("project {}", project["path"].as_str().unwrap_or_default())),
                    )
                    .collect();
                let summary = format!("{name} has {} direct dependencies.", result["totalDirectDependencies"]);
                (result, summary, vec![("Dependencies", lines)])
            }
            _ => {
                let file = project_file::read(&project);
                let result = Value::Object(evaluate::validate(
                    &project,
                    &evaluation,
                    file.as_ref().map_err(String::as_str),
                    &frameworks::today(),
                ));
                let texts = |key: &str| -> Vec<String> {
                    result[key].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
                };
                let sections = vec![
                    ("Errors", texts("errors")),
                    ("Warnings", texts("warnings")),
                    ("Recommendations", texts("recommendations")),
                ];
                let summary = if result["isValid"] == json!(true) {
                    format!("{name} is valid.")
                } else {
                    format!("{name} has problems that need fixing.")
                };
                (result, summary, sections)
            }
        };
        let mut reply = Reply::new(summary);
        for (heading, lines) in sections {
            reply = reply.section(heading, lines);
        }
        Ok(reply.structured(structured))
    }

    pub(super) async fn get_property(&self) -> Outcome {
        let project = self.project_file().await?;
        let name = self.msbuild_name("propertyName")?;
        let evaluation = self.evaluate(&project, &[name], &[]).await?;
        let value = evaluation.property(name).to_owned();
        let is_set = !value.is_empty();
        let summary = if is_set { format!("{name} = {value}") } else { format!("{name} is not set (empty).") };
        Ok(Reply::new(summary).structured(json!({
            "projectPath": project.display().to_string(),
            "propertyName": name,
            "propertyValue": value,
            "isSet": is_set,
        })))
    }

    pub(super) async fn list_items(&self) -> Outcome {
        let project = self.project_file().await?;
        let types: Vec<String> = match self.params.raw("itemType") {
            Some(_) => vec![self.msbuild_name("itemType")?.to_owned()],
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
        let evaluation = self.evaluate(&project, &[], &names).await?;
        let items: Vec<Value> = names
            .iter()
            .flat_map(|item_type| evaluation.items(item_type).iter().map(|item| evaluate::item_json(item_type, item)))
            .collect();
        let lines = items
            .iter()
            .map(|item| {
                format!(
                    "{} {}",
                    item["itemType"].as_str().unwrap_or_default(),
                    item["include"].as_str().unwrap_or_default()
                )
            })
            .collect();
        let summary = format!("{} item(s) in {}.", items.len(), evaluate::project_name(&project));
        let mut structured = json!({
            "projectPath": project.display().to_string(),
            "itemTypes": names,
            "count": items.len(),
            "items": items,
        });
        if self.params.raw("itemType").is_some() {
            structured["itemType"] = json!(names[0]);
        }
        Ok(Reply::new(summary).section("Items", lines).structured(structured))
    }
}
