//! A tool's input and output schemas, compiled, and the messages their
//! violations produce.
//!
//! The host validates every call's arguments before the plugin sees them
//! and every successful result's `structuredContent` after; the test kit's
//! [`TestCall`](crate::testkit::TestCall) runs the same checks. Argument
//! errors name the parameter first, then the reason, in the words of
//! [`ToolError::invalid_argument`], so a model reads one shape whether the
//! host or a typed plugin refused its call.

use jsonschema::{ValidationError, Validator, error::ValidationErrorKind};
use serde_json::Value;

use crate::ToolError;

/// How many violations one message describes at most.
const MAX_VIOLATIONS: usize = 5;

/// A tool's schemas, compiled once.
pub struct ToolSchemas {
    input: Validator,
    output: Option<Validator>,
}

impl ToolSchemas {
    /// Compiles a tool's schemas, or says which one is not a valid JSON
    /// Schema. Nothing is fetched: a `$ref` to a URL does not resolve.
    pub fn compile(input: &Value, output: Option<&Value>) -> Result<Self, String> {
        let input = jsonschema::validator_for(input)
            .map_err(|error| format!("its inputSchema is not a valid JSON Schema: {error}"))?;
        let output = output
            .map(|schema| {
                jsonschema::validator_for(schema)
                    .map_err(|error| format!("its outputSchema is not a valid JSON Schema: {error}"))
            })
            .transpose()?;
        Ok(Self { input, output })
    }

    /// Checks a call's arguments against the input schema.
    pub fn check_arguments(&self, arguments: &Value) -> Result<(), String> {
        let problems = violations(&self.input, arguments);
        if problems.is_empty() {
            return Ok(());
        }
        let sentences: Vec<String> = problems
            .into_iter()
            .map(|(parameter, reason)| match parameter {
                Some(parameter) => ToolError::invalid_argument(&parameter, reason).to_string(),
                None => format!("Invalid arguments: {reason}"),
            })
            .collect();
        Err(sentences.join("; "))
    }

    /// Checks a successful result's structured content against the output
    /// schema, when the tool declares one (and then requires the content).
    pub fn check_output(&self, structured: Option<&Value>) -> Result<(), String> {
        let Some(output) = &self.output else {
            return Ok(());
        };
        let Some(structured) = structured else {
            return Err("the tool declares an outputSchema but returned no structuredContent".to_owned());
        };
        let problems = violations(output, structured);
        if problems.is_empty() {
            return Ok(());
        }
        let sentences: Vec<String> = problems
            .into_iter()
            .map(|(field, reason)| match field {
                Some(field) => format!("field '{field}': {reason}"),
                None => reason,
            })
            .collect();
        Err(sentences.join("; "))
    }
}

/// Checks a plugin's section of the host's configuration (`Plugins.Settings.<plugin>`) against
/// the JSON Schema the plugin declares. Keys are matched without regard to ASCII case, as the host
/// matches its own settings and as [`PluginContext::setting`](crate::PluginContext::setting) reads
/// them. Each problem names the setting first, in the words of [`ToolError::invalid_argument`]:
/// `Invalid setting 'Greeting': 5 is not of type "string"`.
pub fn check_settings(schema: &Value, section: &Value) -> Result<(), Vec<String>> {
    let validator = jsonschema::validator_for(schema)
        .map_err(|error| vec![format!("its settings schema is not a valid JSON Schema: {error}")])?;
    let mut section = section.clone();
    spell_as_declared(&mut section, schema);
    let problems: Vec<String> = violations_as(&validator, &section, "is not a setting of this plugin")
        .into_iter()
        .map(|(setting, reason)| match setting {
            Some(setting) => format!("Invalid setting '{setting}': {reason}"),
            None => format!("Invalid settings: {reason}"),
        })
        .collect();
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// Rewrites each key of `value` that the schema's `properties` name in another case in the
/// schema's spelling, at every level the schema describes.
fn spell_as_declared(value: &mut Value, schema: &Value) {
    let (Value::Object(map), Some(properties)) = (value, schema.get("properties").and_then(Value::as_object)) else {
        return;
    };
    for (key, mut child) in std::mem::take(map) {
        match properties.iter().find(|(name, _)| name.eq_ignore_ascii_case(&key)) {
            Some((name, property)) => {
                spell_as_declared(&mut child, property);
                map.insert(name.clone(), child);
            }
            None => {
                map.insert(key, child);
            }
        }
    }
}

/// The violations of `instance`, at most [`MAX_VIOLATIONS`], each as the
/// parameter (or field) it concerns and the reason. The common valid case
/// costs one pass; only an invalid instance has its errors described.
fn violations(validator: &Validator, instance: &Value) -> Vec<(Option<String>, String)> {
    violations_as(validator, instance, "is not a parameter of this tool")
}

/// As [`violations`], saying `unexpected` of a property the schema does not allow.
fn violations_as(validator: &Validator, instance: &Value, unexpected: &str) -> Vec<(Option<String>, String)> {
    if validator.is_valid(instance) {
        return Vec::new();
    }
    validator.iter_errors(instance).take(MAX_VIOLATIONS).flat_map(|error| describe(&error, unexpected)).collect()
}

/// One violation as (where, why). A missing or unexpected property is
/// reported by the validator at the enclosing object; it is named itself.
fn describe(error: &ValidationError<'_>, unexpected_reason: &str) -> Vec<(Option<String>, String)> {
    let at = error.instance_path().to_string();
    let join = |name: &str| match parameter_of(&at) {
        Some(parent) => format!("{parent}.{name}"),
        None => name.to_owned(),
    };
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().map_or_else(|| property.to_string(), str::to_owned);
            vec![(Some(join(&name)), "is required but missing".to_owned())]
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            unexpected.iter().map(|name| (Some(join(name)), unexpected_reason.to_owned())).collect()
        }
        // The validator shortens long enums ("or 11 other candidates"); the model needs them all.
        ValidationErrorKind::Enum { options } => {
            let reason = match options.as_array() {
                Some(values) => format!(
                    "{} is not one of: {}",
                    error.instance(),
                    values
                        .iter()
                        .map(|value| value.as_str().map_or_else(|| value.to_string(), str::to_owned))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => error.to_string(),
            };
            vec![(parameter_of(&at), reason)]
        }
        _ => vec![(parameter_of(&at), error.to_string())],
    }
}

/// `/a/0/b` → `a[0].b`; the root → `None`.
fn parameter_of(pointer: &str) -> Option<String> {
    let mut name = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if segment.bytes().all(|byte| byte.is_ascii_digit()) && !name.is_empty() {
            name.push_str(&format!("[{segment}]"));
        } else {
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(&segment);
        }
    }
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas(input: Value) -> ToolSchemas {
        ToolSchemas::compile(&input, None).unwrap()
    }

    #[test]
    fn an_enum_violation_lists_every_allowed_value() {
        let tool = schemas(json!({
            "type": "object",
            "properties": { "action": { "enum": ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M"] } }
        }));
        let message = tool.check_arguments(&json!({ "action": "Z" })).unwrap_err();
        assert_eq!(message, "Invalid argument 'action': \"Z\" is not one of: A, B, C, D, E, F, G, H, I, J, K, L, M");
    }

    #[test]
    fn missing_and_unexpected_properties_are_named_themselves() {
        let tool = schemas(json!({
            "type": "object",
            "required": ["text"],
            "properties": { "text": { "type": "string" }, "inner": {
                "type": "object", "required": ["count"], "additionalProperties": false,
                "properties": { "count": { "type": "integer" } } } },
            "additionalProperties": false
        }));
        let message = tool.check_arguments(&json!({ "extra": 1, "inner": { "other": 2 } })).unwrap_err();
        for expected in [
            "Invalid argument 'text': is required but missing",
            "Invalid argument 'extra': is not a parameter of this tool",
            "Invalid argument 'inner.count': is required but missing",
            "Invalid argument 'inner.other': is not a parameter of this tool",
        ] {
            assert!(message.split("; ").any(|sentence| sentence == expected), "{expected} in {message}");
        }
    }

    #[test]
    fn output_is_checked_only_when_declared_and_then_required() {
        let none = schemas(json!({ "type": "object" }));
        assert!(none.check_output(None).is_ok());
        let declared = ToolSchemas::compile(
            &json!({ "type": "object" }),
            Some(&json!({ "type": "object", "required": ["n"], "properties": { "n": { "type": "integer" } } })),
        )
        .unwrap();
        assert!(declared.check_output(Some(&json!({ "n": 1 }))).is_ok());
        assert!(declared.check_output(None).unwrap_err().contains("no structuredContent"));
        assert_eq!(
            declared.check_output(Some(&json!({ "n": "one" }))).unwrap_err(),
            "field 'n': \"one\" is not of type \"integer\""
        );
    }

    #[test]
    fn json_pointers_become_parameter_names() {
        assert_eq!(parameter_of(""), None);
        assert_eq!(parameter_of("/steps"), Some("steps".to_owned()));
        assert_eq!(parameter_of("/items/0/name"), Some("items[0].name".to_owned()));
        assert_eq!(parameter_of("/a~1b"), Some("a/b".to_owned()));
    }

    #[test]
    fn a_schema_that_does_not_compile_is_named() {
        let error = ToolSchemas::compile(&json!({ "type": "object", "minLength": "x" }), None).err().unwrap();
        assert!(error.starts_with("its inputSchema is not a valid JSON Schema"), "{error}");
    }
}
