//! What clients see of a family, derived from its [`Declaration`] and the actions offered (all,
//! or on a read-only server only the ones that read): the input schema, the output schema and
//! the annotations.

use mcp_plugin_api::Annotations;
use serde_json::{Map, Value, json};

use super::declare::{ActionEnum, ActionSpec, Declaration, Effect, Shape};
use crate::{errors::error_response_schema, locking::lock_info_schema};

/// The input schema: one flat object, `action` a required enum of the offered actions, and the
/// parameters those actions take. Which parameter goes with which action is checked at call time
/// ([`super::check`]) and said in each parameter's description.
pub fn input<A: ActionEnum>(declaration: &Declaration<A>, offered: &[&ActionSpec<A>]) -> Value {
    let mut properties = Map::new();
    if let Some(help) = declaration.action_help {
        let names: Vec<&str> = offered.iter().map(|spec| spec.action.name()).collect();
        properties.insert("action".into(), json!({ "type": "string", "enum": names, "description": help }));
    }
    for param in &declaration.params {
        let taken =
            declaration.common.contains(&param.name) || offered.iter().any(|spec| spec.takes.contains(&param.name));
        if taken {
            properties.insert(param.name.to_owned(), param.schema.clone());
        }
    }
    let mut schema = json!({ "type": "object", "properties": properties, "additionalProperties": false });
    if declaration.action_help.is_some() {
        schema["required"] = json!(["action"]);
    }
    schema
}

/// The output schema: `"type": "object"` at the root (the official SDK clients refuse a tool
/// list holding one without it) and an `anyOf` of every success shape of the offered actions,
/// then the error envelope. Actions that return the same shape share one branch, whose `action`
/// is an enum of them.
pub fn output<A: ActionEnum>(declaration: &Declaration<A>, offered: &[&ActionSpec<A>]) -> Value {
    let mut shapes: Vec<(&Shape, Vec<&str>)> = Vec::new();
    for spec in offered {
        for shape in &spec.shapes {
            match shapes.iter_mut().find(|(known, _)| *known == shape) {
                Some((_, actions)) => actions.push(spec.action.name()),
                None => shapes.push((shape, vec![spec.action.name()])),
            }
        }
    }
    let mut branches: Vec<Value> =
        shapes.into_iter().map(|(shape, actions)| branch(declaration, shape, &actions)).collect();
    let mut envelope = error_response_schema();
    if let Some(properties) = envelope["properties"].as_object_mut() {
        properties.insert("lockInfo".into(), lock_info_schema());
        properties.extend(declaration.failure_fields.clone());
    }
    branches.push(envelope);
    json!({ "type": "object", "anyOf": branches })
}

/// One success branch: `success` (always true), `action` (when the tool has one), `lockInfo`
/// (optional) and the shape's own fields.
fn branch<A: ActionEnum>(declaration: &Declaration<A>, shape: &Shape, actions: &[&str]) -> Value {
    let mut properties = Map::new();
    properties.insert("success".into(), json!({ "const": true }));
    let mut required = vec!["success"];
    if declaration.action_help.is_some() {
        properties.insert("action".into(), json!({ "type": "string", "enum": actions }));
        required.push("action");
    }
    properties.insert("lockInfo".into(), lock_info_schema());
    properties.extend(shape.properties.clone());
    for name in &shape.required {
        if !required.contains(name) {
            required.push(name);
        }
    }
    json!({ "type": "object", "properties": properties, "required": required })
}

/// The annotations of the offered actions: read-only when all of them only read, destructive
/// when one of them destroys, idempotent when all are, open-world when one reaches outside.
pub fn annotations<A: ActionEnum>(offered: &[&ActionSpec<A>]) -> Annotations {
    let read_only = offered.iter().all(|spec| spec.effect == Effect::Reads);
    Annotations {
        read_only: Some(read_only),
        destructive: Some(offered.iter().any(|spec| spec.effect == Effect::Destroys)),
        idempotent: Some(offered.iter().all(|spec| spec.idempotent)),
        open_world: Some(offered.iter().any(|spec| spec.open_world)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::declare::{ActionSpec, Param};

    crate::actions! {
        /// Test actions.
        enum Act { List, Install, Remove }
    }

    fn declaration() -> Declaration<Act> {
        let listed = Shape::new(json!({ "items": { "type": "array" } }), &["items"]);
        let changed = Shape::new(json!({ "id": { "type": "string" } }), &["id"]).ran();
        Declaration::new("test_tool", "Test", "A tool for tests.")
            .param(Param::string("workingDirectory", "Where."))
            .param(Param::string("filter", "List: what to keep."))
            .param(Param::string("id", "Install, Remove: the package."))
            .param(Param::flag("force", "Install: again."))
            .common(&["workingDirectory"])
            .action(ActionSpec::reads(Act::List).takes(&["filter"]).returns(listed))
            .action(
                ActionSpec::writes(Act::Install)
                    .requires(&["id"])
                    .takes(&["force"])
                    .open_world()
                    .returns(changed.clone()),
            )
            .action(ActionSpec::destroys(Act::Remove).idempotent().requires(&["id"]).returns(changed))
    }

    fn all(declaration: &Declaration<Act>) -> Vec<&ActionSpec<Act>> {
        declaration.actions.iter().collect()
    }

    #[test]
    fn a_sound_declaration_has_no_problems_and_a_broken_one_names_them() {
        assert_eq!(declaration().problems(), Vec::<String>::new());
        let broken = declaration().param(Param::flag("unused", "Nothing.")).action(ActionSpec::reads(Act::List));
        let problems = broken.problems();
        assert!(problems.iter().any(|p| p.contains("List is declared 2 times")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("unused is taken by no action")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("declares no success shape")), "{problems:?}");
    }

    #[test]
    fn the_input_names_every_action_and_parameter_offered() {
        let declaration = declaration();
        let schema = input(&declaration, &all(&declaration));
        assert_eq!(schema["properties"]["action"]["enum"], json!(["List", "Install", "Remove"]));
        assert_eq!(schema["required"], json!(["action"]));
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["properties"].as_object().unwrap().len(), 5);
        let reads: Vec<&ActionSpec<Act>> = declaration.actions.iter().filter(|s| s.effect == Effect::Reads).collect();
        let narrowed = input(&declaration, &reads);
        assert_eq!(narrowed["properties"]["action"]["enum"], json!(["List"]));
        let kept: Vec<&String> = narrowed["properties"].as_object().unwrap().keys().collect();
        assert_eq!(kept, ["action", "filter", "workingDirectory"], "parameters only mutating actions take are gone");
    }

    #[test]
    fn the_output_has_one_branch_per_shape_and_the_envelope_under_an_object_root() {
        let declaration = declaration();
        let schema = output(&declaration, &all(&declaration));
        assert_eq!(schema["type"], "object");
        let branches = schema["anyOf"].as_array().unwrap();
        assert_eq!(branches.len(), 3, "Install and Remove share a shape");
        assert_eq!(branches[1]["properties"]["action"]["enum"], json!(["Install", "Remove"]));
        assert_eq!(branches[1]["required"], json!(["success", "action", "id", "command", "exitCode"]));
        assert_eq!(branches[0]["properties"]["success"], json!({ "const": true }));
        assert!(branches[0]["properties"]["lockInfo"].is_object());
        assert_eq!(branches[2]["properties"]["success"]["const"], false);
        assert!(branches[2]["properties"]["lockInfo"].is_object(), "failures report the lock they held");
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(validator.is_valid(&json!({ "success": true, "action": "List", "items": [] })));
        assert!(!validator.is_valid(&json!({ "success": true, "action": "List" })));
        assert!(!validator.is_valid(&json!({ "action": "List", "items": [] })), "success is required");
    }

    #[test]
    fn annotations_follow_the_effects_of_the_offered_actions() {
        let declaration = declaration();
        let every = annotations(&all(&declaration));
        assert_eq!(
            (every.read_only, every.destructive, every.idempotent, every.open_world),
            (Some(false), Some(true), Some(false), Some(true))
        );
        let reads: Vec<&ActionSpec<Act>> = declaration.actions.iter().filter(|s| s.effect == Effect::Reads).collect();
        let safe = annotations(&reads);
        assert_eq!(
            (safe.read_only, safe.destructive, safe.idempotent, safe.open_world),
            (Some(true), Some(false), Some(true), Some(false))
        );
    }
}
