//! Project file edits: SetProperty, RemoveProperty, AddItem and RemoveItem, in place (module
//! `projfile` keeps the file's formatting), under the project lock.

use std::path::PathBuf;

use dotnet_support::{
    errors::ErrorResult,
    kit::{Outcome, Shape},
    locking::lock_info_schema,
    params::Kind,
    respond::{Failure, Reply},
};
use serde_json::{Value, json};

use super::{Act, MSBUILD_NAME, invalid};
use crate::{
    Action, evaluate,
    projfile::{self, ProjectText},
};

/// SetProperty and RemoveProperty: what changed.
pub fn property_shape() -> Shape {
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "propertyName": { "type": "string" },
            "propertyValue": { "type": "string" },
            "previousValue": { "type": "string" },
            "changed": { "type": "boolean" },
            "removed": { "type": "integer" },
            "conditionalDefinitionsLeft": { "type": "integer" },
            "lockInfo": lock_info_schema()
        }),
        &["projectPath", "propertyName", "changed", "lockInfo"],
    )
}

/// AddItem and RemoveItem: what changed.
pub fn item_shape() -> Shape {
    Shape::new(
        json!({
            "projectPath": { "type": "string" },
            "itemType": { "type": "string" },
            "include": { "type": "string" },
            "metadata": { "type": "object", "additionalProperties": { "type": "string" } },
            "changed": { "type": "boolean" },
            "removed": { "type": "integer" },
            "conditionalDefinitionsLeft": { "type": "integer" },
            "lockInfo": lock_info_schema()
        }),
        &["projectPath", "itemType", "include", "changed", "lockInfo"],
    )
}

impl Act<'_, '_> {
    // --- project file edits -------------------------------------------------------------------

    /// Reads the project file, applies `edit`, writes it back when something changed; all
    /// under the project's lock.
    async fn edit(
        &self,
        edit: impl FnOnce(&ProjectText) -> projfile::Outcome,
    ) -> Result<(PathBuf, projfile::Outcome), Failure> {
        let project = self.project_file().await?;
        let _guard = self.lock(Some(&project)).await?;
        let text = std::fs::read_to_string(&project).map_err(|error| {
            Failure::from(ErrorResult::new(
                "EXIT_-1",
                &format!("The project file '{}' cannot be read: {error}", project.display()),
            ))
        })?;
        let parsed = ProjectText::parse(&text).map_err(|problem| {
            Failure::from(
                ErrorResult::new(
                    "MSB4025",
                    &format!("The project file '{}' could not be loaded: {problem}", project.display()),
                )
                .with_code_details(),
            )
        })?;
        let outcome = edit(&parsed);
        if let Some(new_text) = &outcome.text {
            std::fs::write(&project, new_text).map_err(|error| {
                Failure::from(ErrorResult::new(
                    "EXIT_-1",
                    &format!("The project file '{}' cannot be written: {error}", project.display()),
                ))
            })?;
        }
        Ok((project, outcome))
    }

    pub(super) async fn edit_property(&self) -> Outcome {
        let name = self.msbuild_name("propertyName")?.to_owned();
        let value = if self.action == Action::SetProperty {
            match self.params.raw("propertyValue") {
                Some(Value::String(value)) if !value.contains('\0') => Some(value.clone()),
                Some(_) => {
                    return Err(invalid(
                        "propertyValue",
                        "invalid value",
                        "Invalid argument 'propertyValue': must be a string without NUL characters.",
                    ));
                }
                None => {
                    return Err(invalid(
                        "propertyValue",
                        "required",
                        "Invalid argument 'propertyValue': is required (it may be empty).",
                    ));
                }
            }
        } else {
            None
        };
        let (project, outcome) = self
            .edit(|file| match &value {
                Some(value) => file.set_property(&name, value),
                None => file.remove_property(&name),
            })
            .await?;
        let file_name = evaluate::project_name(&project);
        let mut structured = json!({
            "projectPath": project.display().to_string(),
            "propertyName": name,
            "changed": outcome.changed > 0,
            "conditionalDefinitionsLeft": outcome.conditioned,
        });
        let summary = match &value {
            Some(value) => {
                structured["propertyValue"] = json!(value);
                if let Some(previous) = &outcome.previous {
                    structured["previousValue"] = json!(previous);
                }
                match (&outcome.previous, outcome.changed) {
                    (_, 0) => format!("{name} already is '{value}' in {file_name}; nothing changed."),
                    (Some(previous), _) => format!("{name} changed from '{previous}' to '{value}' in {file_name}."),
                    (None, _) => format!("{name} = '{value}' added to {file_name}."),
                }
            }
            None => {
                structured["removed"] = json!(outcome.changed);
                match outcome.changed {
                    0 => format!("{name} is not defined (without a condition) in {file_name}; nothing changed."),
                    n => format!("Removed {n} definition(s) of {name} from {file_name}."),
                }
            }
        };
        let mut note = Vec::new();
        if outcome.conditioned > 0 {
            note.push(format!("{} definition(s) under a Condition were left as they are.", outcome.conditioned));
        }
        Ok(Reply::new(summary).section("Note", note).structured(structured))
    }

    pub(super) async fn edit_item(&self) -> Outcome {
        let item_type = self.msbuild_name("itemType")?.to_owned();
        let include = self.params.req("include", Kind::Path)?.to_owned();
        let mut metadata = Vec::new();
        if let Some(raw) = self.params.raw("metadata") {
            let Some(object) = raw.as_object() else {
                return Err(invalid(
                    "metadata",
                    "invalid type",
                    "Invalid argument 'metadata': must be an object of strings.",
                ));
            };
            for (key, value) in object {
                let value = value.as_str().filter(|value| !value.contains('\0')).ok_or_else(|| {
                    invalid(
                        "metadata",
                        "invalid value",
                        &format!("Invalid argument 'metadata': the value of '{key}' must be a string."),
                    )
                })?;
                if !MSBUILD_NAME.is_match(key) || key.eq_ignore_ascii_case("Include") {
                    return Err(invalid(
                        "metadata",
                        "invalid value",
                        &format!("Invalid argument 'metadata': '{key}' is not a metadata name."),
                    ));
                }
                metadata.push((key.clone(), value.to_owned()));
            }
        }
        let adding = self.action == Action::AddItem;
        let (project, outcome) = self
            .edit(|file| {
                if adding {
                    file.add_item(&item_type, &include, &metadata)
                } else {
                    file.remove_item(&item_type, &include)
                }
            })
            .await?;
        let file_name = evaluate::project_name(&project);
        let mut structured = json!({
            "projectPath": project.display().to_string(),
            "itemType": item_type,
            "include": include,
            "changed": outcome.changed > 0,
            "conditionalDefinitionsLeft": outcome.conditioned,
        });
        let summary = if adding {
            structured["metadata"] = Value::Object(metadata.iter().map(|(k, v)| (k.clone(), json!(v))).collect());
            match outcome.changed {
                0 => format!("{file_name} already has {item_type} '{include}'; nothing changed."),
                _ => format!("Added {item_type} '{include}' to {file_name}."),
            }
        } else {
            structured["removed"] = json!(outcome.changed);
            match outcome.changed {
                0 => format!("{file_name} has no {item_type} '{include}' (without a condition); nothing changed."),
                n => format!("Removed {n} {item_type} '{include}' from {file_name}."),
            }
        };
        Ok(Reply::new(summary).structured(structured))
    }
}
