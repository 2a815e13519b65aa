//! Project file edits: SetProperty, RemoveProperty, AddItem and RemoveItem, in place (module
//! `projfile` keeps the file's formatting), under the project lock.

use std::collections::BTreeMap;

use dotnet_support::{
    errors::ErrorResult,
    kit::{Call, Outcome, Reason, invalid, prose},
    locking::LockTarget,
    params::Kind,
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::{MSBUILD_NAME, msbuild_name, project_file};
use crate::{
    evaluate,
    projfile::{self, ProjectText},
};

// SetProperty and RemoveProperty: what changed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyEdited {
    project_path: String,
    property_name: String,
    // SetProperty: the value set.
    #[serde(skip_serializing_if = "Option::is_none")]
    property_value: Option<String>,
    // SetProperty: the value it replaced, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_value: Option<String>,
    changed: bool,
    // RemoveProperty: how many definitions were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    removed: Option<i64>,
    // Definitions under a Condition, left as they are.
    conditional_definitions_left: i64,
}

// AddItem and RemoveItem: what changed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemEdited {
    project_path: String,
    item_type: String,
    include: String,
    // AddItem: the metadata written.
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<BTreeMap<String, String>>,
    changed: bool,
    // RemoveItem: how many items were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    removed: Option<i64>,
    // Items under a Condition, left as they are.
    conditional_definitions_left: i64,
}

/// Which property edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PropertyEdit {
    /// SetProperty.
    Set,
    /// RemoveProperty.
    Remove,
}

/// Which item edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemEdit {
    /// AddItem.
    Add,
    /// RemoveItem.
    Remove,
}

/// Reads the project file, applies `edit`, writes it back when something changed; all under the
/// project's lock.
async fn edit(
    call: &Call<'_>,
    edit: impl FnOnce(&ProjectText) -> projfile::Outcome,
) -> Result<(std::path::PathBuf, projfile::Outcome), Failure> {
    let project = project_file(call).await?;
    let _guard = call.lock(&LockTarget::for_path(Some(&project), call.cwd())).await?;
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

/// SetProperty and RemoveProperty.
pub(super) async fn edit_property(call: &Call<'_>, kind: PropertyEdit) -> Outcome {
    let name = msbuild_name(call, "propertyName")?.to_owned();
    let value = match kind {
        PropertyEdit::Set => match call.params().raw("propertyValue") {
            Some(Value::String(value)) if !value.contains('\0') => Some(value.clone()),
            Some(_) => {
                let message = "Invalid argument 'propertyValue': must be a string without NUL characters.";
                return Err(invalid("propertyValue", Reason::Value, message).into());
            }
            None => {
                let message = "Invalid argument 'propertyValue': is required (it may be empty).";
                return Err(invalid("propertyValue", Reason::Required, message).into());
            }
        },
        PropertyEdit::Remove => None,
    };
    let (project, outcome) = edit(call, |file| match &value {
        Some(value) => file.set_property(&name, value),
        None => file.remove_property(&name),
    })
    .await?;
    let file_name = evaluate::project_name(&project);
    let summary = match &value {
        Some(value) => match (&outcome.previous, outcome.changed) {
            (_, 0) => format!("{name} already is '{value}' in {file_name}; nothing changed."),
            (Some(previous), _) => format!("{name} changed from '{previous}' to '{value}' in {file_name}."),
            (None, _) => format!("{name} = '{value}' added to {file_name}."),
        },
        None => match outcome.changed {
            0 => format!("{name} is not defined (without a condition) in {file_name}; nothing changed."),
            n => format!("Removed {} of {name} from {file_name}.", prose::count(n, "definition")),
        },
    };
    let mut note = Vec::new();
    if outcome.conditioned > 0 {
        let left = match outcome.conditioned {
            1 => "1 definition under a Condition was left as it is.".to_owned(),
            n => format!("{n} definitions under a Condition were left as they are."),
        };
        note.push(left);
    }
    let removing = value.is_none();
    Ok(Reply::new(summary).section("Note", note).result(PropertyEdited {
        project_path: project.display().to_string(),
        property_name: name,
        previous_value: value.as_ref().and(outcome.previous.clone()),
        property_value: value,
        changed: outcome.changed > 0,
        removed: removing.then_some(outcome.changed as i64),
        conditional_definitions_left: outcome.conditioned as i64,
    }))
}

/// AddItem and RemoveItem.
pub(super) async fn edit_item(call: &Call<'_>, kind: ItemEdit) -> Outcome {
    let item_type = msbuild_name(call, "itemType")?.to_owned();
    let include = call.params().req("include", Kind::Path)?.to_owned();
    let mut metadata = Vec::new();
    if let Some(raw) = call.params().raw("metadata") {
        let Some(object) = raw.as_object() else {
            let message = "Invalid argument 'metadata': must be an object of strings.";
            return Err(invalid("metadata", Reason::Type, message).into());
        };
        for (key, value) in object {
            let value = value.as_str().filter(|value| !value.contains('\0')).ok_or_else(|| {
                let message = format!("Invalid argument 'metadata': the value of '{key}' must be a string.");
                invalid("metadata", Reason::Value, message)
            })?;
            if !MSBUILD_NAME.is_match(key) || key.eq_ignore_ascii_case("Include") {
                let message = format!("Invalid argument 'metadata': '{key}' is not a metadata name.");
                return Err(invalid("metadata", Reason::Value, message).into());
            }
            metadata.push((key.clone(), value.to_owned()));
        }
    }
    let (project, outcome) = edit(call, |file| match kind {
        ItemEdit::Add => file.add_item(&item_type, &include, &metadata),
        ItemEdit::Remove => file.remove_item(&item_type, &include),
    })
    .await?;
    let file_name = evaluate::project_name(&project);
    let summary = match (kind, outcome.changed) {
        (ItemEdit::Add, 0) => format!("{file_name} already has {item_type} '{include}'; nothing changed."),
        (ItemEdit::Add, _) => format!("Added {item_type} '{include}' to {file_name}."),
        (ItemEdit::Remove, 0) => {
            format!("{file_name} has no {item_type} '{include}' (without a condition); nothing changed.")
        }
        (ItemEdit::Remove, n) => format!("Removed {n} {item_type} '{include}' from {file_name}."),
    };
    Ok(Reply::new(summary).result(ItemEdited {
        project_path: project.display().to_string(),
        metadata: (kind == ItemEdit::Add).then(|| metadata.into_iter().collect()),
        removed: (kind == ItemEdit::Remove).then_some(outcome.changed as i64),
        item_type,
        include,
        changed: outcome.changed > 0,
        conditional_definitions_left: outcome.conditioned as i64,
    }))
}
