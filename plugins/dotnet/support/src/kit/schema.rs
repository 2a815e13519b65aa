//! What clients see of a family, derived from its [`Declaration`] and the actions offered (all,
//! or on a read-only server only the ones that read): the input schema, the output schema and
//! the annotations.

use std::collections::HashMap;

use mcp_plugin_api::{Annotations, output_schema_settings};
use serde_json::{Map, Value, json};

use super::{
    declare::{ActionEnum, ActionSpec, Declaration, Effect, command_schema, exit_code_schema},
    result::ResultType,
};
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
/// list holding one without it), the fields every answer may carry declared once at the root
/// (`success`, `lockInfo`, `exitCode`, and `command` when an offered action runs dotnet), and an
/// `anyOf` of the successes and the error envelope. The successes say `"success": true` once,
/// beside an `anyOf` of one branch per result of the offered actions (a single result holds it
/// itself). Actions that return the same result share one branch, whose `action` is an enum of
/// them. A branch leaves out what the root says already (`"type": "object"`, `success` required).
///
/// Result types and failure fields are derived into one document with the plugin API's schema
/// settings, so a type several of them hold is defined once under the root's `$defs` and
/// referenced; a definition used once is put back in place ([`inline_single_use`]), so the schema
/// reads as before where nothing is shared.
///
/// Output schemas are for programs, which validate answers against them, so the schema keeps
/// what validates and leaves out what validators ignore ([`strip_annotations`]): descriptions
/// (the result types' doc comments and plugins/dotnet/README.md document the fields) and the
/// `"type": "string"` an enum of strings already implies.
pub fn output<A: ActionEnum>(declaration: &Declaration<A>, offered: &[&ActionSpec<A>]) -> Value {
    // One branch per result type and whether it ran dotnet, with the actions that answer so.
    let mut successes: Vec<((ResultType, bool), Vec<&str>)> = Vec::new();
    for spec in offered {
        let Some(result) = spec.result else { continue };
        let success = (result, spec.runs_dotnet);
        match successes.iter_mut().find(|(known, _)| *known == success) {
            Some((_, actions)) => actions.push(spec.action.name()),
            None => successes.push((success, vec![spec.action.name()])),
        }
    }
    let common = common_fields(offered);
    let mut generator = output_schema_settings().into_generator();
    let mut successes: Vec<Value> = successes
        .into_iter()
        .map(|((result, runs_dotnet), actions)| {
            let mut branch = result.subschema(&mut generator);
            let mut required: Vec<&str> = if runs_dotnet { vec!["command", "exitCode"] } else { Vec::new() };
            let mut envelope = Map::new();
            if declaration.action_help.is_some() {
                envelope.insert("action".into(), json!({ "enum": actions }));
                required.insert(0, "action");
            }
            merge(&mut branch, Value::Object(envelope), &required);
            branch
        })
        .collect();
    let failure_types: Vec<Value> =
        declaration.failure_fields.iter().map(|fields| fields.subschema(&mut generator)).collect();
    let definitions = generator.take_definitions(true);
    let mut failure = error_response_schema();
    if let Some(properties) = failure["properties"].as_object_mut() {
        for (name, schema) in failure_types.iter().flat_map(|fields| properties_of(fields, &definitions)) {
            properties.entry(name).or_insert(schema);
        }
        properties.retain(|name, schema| common.get(name) != Some(schema));
    }
    // `success` is required at the root, and says `true` once for all the successes.
    let succeeded = json!({ "success": { "const": true } });
    let mut branches = match successes.len() {
        0 => Vec::new(),
        1 => {
            let mut only = successes.remove(0);
            merge(&mut only, succeeded, &[]);
            vec![only]
        }
        _ => vec![json!({ "properties": succeeded, "anyOf": successes })],
    };
    branches.push(failure);
    let mut root = json!({
        "type": "object",
        "properties": common,
        "required": ["success"],
        "anyOf": branches,
    });
    if !definitions.is_empty() {
        root["$defs"] = Value::Object(definitions);
        inline_single_use(&mut root);
    }
    if let Some(Value::Array(branches)) = root.get_mut("anyOf") {
        branches.iter_mut().for_each(without_object_type);
    }
    strip_annotations(&mut root);
    root
}

/// The properties a failure field type's schema (`$ref` to one of `definitions`, or the schema
/// itself) declares.
fn properties_of(schema: &Value, definitions: &Map<String, Value>) -> Map<String, Value> {
    let named = schema.get("$ref").and_then(Value::as_str).and_then(|target| target.strip_prefix("#/$defs/"));
    let schema = named.and_then(|name| definitions.get(name)).unwrap_or(schema);
    schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
}

/// Leaves out `"type": "object"` of a branch of the root's `anyOf`, and of the branches of its
/// own `anyOf`: they describe the same value as the root, which says it is an object.
fn without_object_type(branch: &mut Value) {
    let Value::Object(keywords) = branch else { return };
    if keywords.get("type").and_then(Value::as_str) == Some("object") {
        keywords.remove("type");
    }
    if let Some(Value::Array(branches)) = keywords.get_mut("anyOf") {
        branches.iter_mut().for_each(without_object_type);
    }
}

/// Leaves out of `schema` and every schema it holds what changes no validation: `description`,
/// and `"type": "string"` beside an `enum` whose values are all strings. A field named
/// `description` (a key of `properties`) stays.
fn strip_annotations(schema: &mut Value) {
    match schema {
        Value::Object(keywords) => {
            keywords.remove("description");
            let enum_of_strings = keywords
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|values| values.iter().all(Value::is_string));
            if enum_of_strings && keywords.get("type").and_then(Value::as_str) == Some("string") {
                keywords.remove("type");
            }
            for (keyword, value) in keywords.iter_mut() {
                match (keyword.as_str(), value) {
                    ("properties" | "patternProperties" | "$defs", Value::Object(named)) => {
                        named.values_mut().for_each(strip_annotations)
                    }
                    ("const" | "enum" | "default" | "examples", _) => {}
                    (_, value) => strip_annotations(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_annotations),
        _ => {}
    }
}

/// The fields any answer of the offered actions may carry, declared once at the root of the
/// output schema: `success`, `lockInfo` (successes and failures), `exitCode` (the error envelope
/// has it too) and `command` when an offered action runs dotnet.
fn common_fields<A: ActionEnum>(offered: &[&ActionSpec<A>]) -> Map<String, Value> {
    let mut common = Map::new();
    common.insert("success".into(), json!({ "type": "boolean" }));
    common.insert("lockInfo".into(), lock_info_schema());
    common.insert("exitCode".into(), exit_code_schema());
    if offered.iter().any(|spec| spec.runs_dotnet) {
        common.insert("command".into(), command_schema());
    }
    common
}

/// Adds `properties` (an object of property schemas) and `required` to `schema`, beside what it
/// holds already (a `$ref`, an `anyOf`, properties of its own).
fn merge(schema: &mut Value, properties: Value, required: &[&str]) {
    let Value::Object(target) = schema else { return };
    if let Value::Object(properties) = properties {
        let own = target.entry("properties").or_insert_with(|| json!({}));
        if let Value::Object(own) = own {
            for (name, property) in properties {
                own.insert(name, property);
            }
        }
    }
    let listed = target.entry("required").or_insert_with(|| json!([]));
    if let Value::Array(listed) = listed {
        for name in required {
            if !listed.iter().any(|known| known == name) {
                listed.push(json!(name));
            }
        }
    }
}

/// Puts every definition of the root's `$defs` that one place references back in that place, and
/// drops definitions nothing references. A reference with sibling keywords takes the definition's
/// keywords beside them (`properties` and `required` joined), unless both hold the same other
/// keyword; a definition that references itself stays.
fn inline_single_use(root: &mut Value) {
    let Some(Value::Object(mut definitions)) = root.as_object_mut().and_then(|root| root.remove("$defs")) else {
        return;
    };
    let mut kept: Vec<String> = Vec::new();
    loop {
        let mut counts: HashMap<&str, usize> = definitions.keys().map(|name| (name.as_str(), 0)).collect();
        count_references(root, &mut counts);
        definitions.values().for_each(|definition| count_references(definition, &mut counts));
        let unused: Vec<String> =
            counts.iter().filter(|(_, count)| **count == 0).map(|(name, _)| (*name).to_owned()).collect();
        let single = definitions
            .iter()
            .find(|(name, definition)| {
                counts[name.as_str()] == 1 && !kept.contains(name) && !references(definition, &reference_to(name))
            })
            .map(|(name, definition)| (name.clone(), definition.clone()));
        definitions.retain(|name, _| !unused.contains(name));
        let Some((name, definition)) = single else { break };
        let target = reference_to(&name);
        let inlined = inline_at(root, &target, &definition).is_some()
            || definitions.values_mut().any(|other| inline_at(other, &target, &definition).is_some());
        if inlined {
            definitions.remove(&name);
        } else {
            kept.push(name);
        }
    }
    if !definitions.is_empty() {
        root["$defs"] = Value::Object(definitions);
    }
}

fn reference_to(name: &str) -> String {
    format!("#/$defs/{name}")
}

/// Counts the references to each definition of `counts` anywhere in `value`.
fn count_references(value: &Value, counts: &mut HashMap<&str, usize>) {
    match value {
        Value::Object(fields) => {
            if let Some(name) = fields.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/"))
                && let Some(count) = counts.get_mut(name)
            {
                *count += 1;
            }
            fields.values().for_each(|child| count_references(child, counts));
        }
        Value::Array(items) => items.iter().for_each(|child| count_references(child, counts)),
        _ => {}
    }
}

/// Whether `value` holds a reference to `target`.
fn references(value: &Value, target: &str) -> bool {
    match value {
        Value::Object(fields) => {
            fields.get("$ref").and_then(Value::as_str) == Some(target)
                || fields.values().any(|child| references(child, target))
        }
        Value::Array(items) => items.iter().any(|child| references(child, target)),
        _ => false,
    }
}

/// Replaces the reference to `target` in `value` by `definition`; `None` when there is none, or
/// when the reference's siblings and the definition hold the same keyword (other than
/// `properties` and `required`, which are joined).
fn inline_at(value: &mut Value, target: &str, definition: &Value) -> Option<()> {
    match value {
        Value::Object(fields) if fields.get("$ref").and_then(Value::as_str) == Some(target) => {
            let Value::Object(keywords) = definition else { return None };
            let mut merged = keywords.clone();
            for (keyword, sibling) in fields.iter().filter(|(keyword, _)| *keyword != "$ref") {
                match (keyword.as_str(), merged.get_mut(keyword), sibling) {
                    (_, None, _) => {
                        merged.insert(keyword.clone(), sibling.clone());
                    }
                    ("properties", Some(Value::Object(own)), Value::Object(more)) => {
                        own.extend(more.iter().map(|(name, schema)| (name.clone(), schema.clone())));
                    }
                    ("required", Some(Value::Array(own)), Value::Array(more)) => {
                        // The envelope's fields first, as in every answer.
                        let mut joined = more.clone();
                        joined.extend(own.iter().filter(|name| !more.contains(name)).cloned());
                        *own = joined;
                    }
                    _ => return None,
                }
            }
            *fields = merged;
            Some(())
        }
        Value::Object(fields) => fields.values_mut().find_map(|child| inline_at(child, target, definition)),
        Value::Array(items) => items.iter_mut().find_map(|child| inline_at(child, target, definition)),
        _ => None,
    }
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
    use mcp_plugin_api::schemars::JsonSchema;
    use serde::Serialize;

    crate::actions! {
        /// Test actions.
        enum Act { List, Install, Remove }
    }

    /// A package, in the results of List and Install alike.
    #[derive(Serialize, JsonSchema)]
    struct Package {
        id: String,
        version: String,
    }

    /// List: the packages.
    #[derive(Serialize, JsonSchema)]
    struct Listed {
        packages: Vec<Package>,
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<String>,
    }

    /// Install and Remove: the package changed.
    #[derive(Serialize, JsonSchema)]
    struct Changed {
        package: Package,
    }

    fn spec(action: Act) -> ActionSpec<Act> {
        match action {
            Act::List => ActionSpec::reads(action).takes(&["filter"]).result::<Listed>(),
            Act::Install => ActionSpec::writes(action)
                .requires(&["id"])
                .takes(&["force"])
                .open_world()
                .runs_dotnet()
                .result::<Changed>(),
            Act::Remove => {
                ActionSpec::destroys(action).idempotent().requires(&["id"]).runs_dotnet().result::<Changed>()
            }
        }
    }

    fn declaration() -> Declaration<Act> {
        Declaration::new("test_tool", "Test", "A tool for tests.")
            .param(Param::string("workingDirectory", "Where."))
            .param(Param::string("filter", "List: what to keep."))
            .param(Param::string("id", "Install, Remove: the package."))
            .param(Param::flag("force", "Install: again."))
            .common(&["workingDirectory"])
            .failure_fields::<Listed>()
            .each_action(spec)
    }

    fn all(declaration: &Declaration<Act>) -> Vec<&ActionSpec<Act>> {
        declaration.actions.iter().collect()
    }

    #[test]
    fn a_sound_declaration_has_no_problems_and_a_broken_one_names_them() {
        let declaration = declaration();
        assert_eq!(declaration.problems(), Vec::<String>::new());
        let declared: Vec<Act> = declaration.actions.iter().map(|spec| spec.action).collect();
        assert_eq!(declared, Act::ALL, "each_action declares every action, in order");
        let broken = self::declaration().param(Param::flag("unused", "Nothing.")).each_action(ActionSpec::reads);
        let problems = broken.problems();
        assert!(problems.iter().any(|p| p.contains("List is declared 2 times")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("unused is taken by no action")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("declares no result type")), "{problems:?}");
    }

    /// A result type that reports a command of its own, as a background session does.
    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    struct OwnCommand {
        command: String,
        exit_code: i32,
    }

    /// A result type that sets a field every answer's envelope has.
    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    struct Clashing {
        lock_info: String,
    }

    #[test]
    fn a_result_type_must_be_an_object_without_the_fields_the_kit_sets() {
        let declaration = |spec: fn(Act) -> ActionSpec<Act>| {
            Declaration::new("t", "T", "T.")
                .param(Param::string("id", "Id."))
                .param(Param::string("filter", "F."))
                .each_action(spec)
        };
        let problems =
            declaration(|action| ActionSpec::reads(action).takes(&["id", "filter"]).result::<Clashing>()).problems();
        assert!(problems.iter().any(|p| p.contains("has the field lockInfo, which the kit sets")), "{problems:?}");
        let problems = declaration(|action| {
            ActionSpec::reads(action).takes(&["id", "filter"]).runs_dotnet().result::<OwnCommand>()
        })
        .problems();
        assert!(problems.iter().any(|p| p.contains("has the field exitCode, which the kit sets")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("has the field command, which the kit sets")), "{problems:?}");
        let problems =
            declaration(|action| ActionSpec::reads(action).takes(&["id", "filter"]).result::<OwnCommand>()).problems();
        assert_eq!(problems, Vec::<String>::new(), "an action that does not run dotnet reports its own command");
        let problems =
            declaration(|action| ActionSpec::reads(action).takes(&["id", "filter"]).result::<Vec<String>>()).problems();
        assert!(problems.iter().any(|p| p.contains("must be a JSON object")), "{problems:?}");
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
    fn the_output_declares_the_envelope_once_and_one_branch_per_result_type() {
        let declaration = declaration();
        let schema = output(&declaration, &all(&declaration));
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["success"]));
        let common: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(common, ["command", "exitCode", "lockInfo", "success"]);
        let [succeeded, failed] = schema["anyOf"].as_array().unwrap().as_slice() else { panic!("{schema}") };
        assert_eq!(succeeded["properties"]["success"], json!({ "const": true }), "said once for every success");
        let branches = succeeded["anyOf"].as_array().unwrap();
        assert_eq!(branches.len(), 2, "Install and Remove share a result type");
        assert_eq!(branches[0]["properties"]["packages"]["type"], "array", "a type used once is in place");
        assert!(!schema.to_string().contains("\"description\""), "descriptions are left out: {schema}");
        assert_eq!(branches[0]["required"], json!(["action", "packages"]));
        assert_eq!(branches[0]["properties"]["filter"]["type"], "string", "a field left out is never null");
        assert_eq!(branches[1]["properties"]["action"]["enum"], json!(["Install", "Remove"]));
        assert_eq!(branches[1]["required"], json!(["action", "command", "exitCode", "package"]));
        assert!(branches.iter().all(|branch| branch.get("type").is_none()), "the root says object: {schema}");
        assert_eq!(failed["properties"]["success"]["const"], false);
        assert!(failed["properties"].get("lockInfo").is_none(), "failures' lockInfo is the root's");
        assert_eq!(failed["properties"]["packages"]["items"]["$ref"], "#/$defs/Package", "a failure field");
        assert!(failed["required"].as_array().unwrap().iter().all(|name| name != "packages"), "optional: {failed}");
        // Package, in two results and a failure field, is defined once; nothing else is left in
        // $defs (the failure field's type Listed, whose fields are in place, is not).
        let definitions: Vec<&String> = schema["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(definitions, ["Package"]);
        assert_eq!(schema.to_string().matches("#/$defs/Package").count(), 3);

        let validator = jsonschema::validator_for(&schema).unwrap();
        let package = json!({ "id": "a", "version": "1.0" });
        let listed = json!({ "success": true, "action": "List", "packages": [package] });
        let installed =
            json!({ "success": true, "action": "Install", "package": package, "command": "dotnet x", "exitCode": 0 });
        let lock = json!({ "lockScope": "global", "lockKey": "global" });
        for good in [
            listed.clone(),
            installed.clone(),
            json!({ "success": false, "errors": [{ "code": "E", "message": "m", "category": "Unknown", "rawOutput": "" }], "exitCode": 1, "lockInfo": lock }),
            json!({ "success": false, "errors": [{ "code": "E", "message": "m", "category": "Unknown", "rawOutput": "" }], "exitCode": 1, "packages": [package] }),
        ] {
            assert!(validator.is_valid(&good), "{good}");
        }
        let mut without_command = installed.clone();
        without_command.as_object_mut().unwrap().remove("command");
        let mut listed_as_install = listed.clone();
        listed_as_install["action"] = json!("Install");
        let mut bad_version = listed.clone();
        bad_version["packages"][0]["version"] = json!(1);
        let mut bad_lock = installed;
        bad_lock["lockInfo"] = json!({ "lockKey": 1 });
        let error = json!({ "code": "E", "message": "m", "category": "Unknown", "rawOutput": "" });
        let mut listed_as_failure = listed.clone();
        listed_as_failure["success"] = json!(false);
        for bad in [
            json!({ "success": true, "action": "List" }),
            json!({ "success": false, "errors": [error], "exitCode": 1, "packages": [{ "id": "a" }] }),
            json!({ "success": true, "errors": [error], "exitCode": 1 }),
            listed_as_failure,
            json!({ "action": "List", "packages": [], "success": "yes" }),
            json!({ "action": "List", "packages": [] }),
            without_command,
            listed_as_install,
            bad_version,
            bad_lock,
        ] {
            assert!(!validator.is_valid(&bad), "{bad}");
        }
    }

    #[test]
    fn a_read_only_server_lists_only_the_results_of_what_reads() {
        let declaration = declaration();
        let reads: Vec<&ActionSpec<Act>> = declaration.actions.iter().filter(|s| s.effect == Effect::Reads).collect();
        let schema = output(&declaration, &reads);
        assert_eq!(schema["anyOf"].as_array().unwrap().len(), 2);
        let listed = &schema["anyOf"][0];
        assert_eq!(listed["properties"]["success"], json!({ "const": true }), "the only success says it: {schema}");
        assert_eq!(listed["properties"]["action"]["enum"], json!(["List"]));
        assert_eq!(schema.to_string().matches("#/$defs/Package").count(), 2, "List's and the failure field's");
        assert!(schema["properties"].get("command").is_none(), "no offered action runs dotnet");
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
