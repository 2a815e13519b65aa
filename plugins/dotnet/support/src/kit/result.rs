//! Typed results: what an action answers with is a Rust type (`Serialize + JsonSchema`), declared
//! with [`super::ActionSpec::result`] and returned with [`Reply::result`]. The kit derives the
//! action's branch of the output schema from the type (with the plugin API's schema settings,
//! [`mcp_plugin_api::schema_settings`]), and sets the envelope itself: `success`, `action`,
//! `lockInfo`, and `command` and `exitCode` for an action that declares it runs dotnet
//! ([`super::ActionSpec::runs_dotnet`]). A result type never has the fields the kit sets for its
//! action ([`Declaration::problems`](super::Declaration::problems) says so at load); an action that
//! does not run dotnet to its end may report a command of its own under `command` and `exitCode`
//! (`dotnet_project`'s Run and Watch report a background session's).
//!
//! The type an action returns is checked against the one it declares on every call, so a reply
//! cannot drift from its schema unnoticed: a mismatch fails that call with a message naming both
//! types (and every family's tests call every action).

/// Implements `JsonSchema` for a type serialized as one of a few plain strings: an inline
/// `{"type": "string", "enum": [...]}`, where a derived schema would spell each variant out in a
/// `oneOf` with its doc comment. `$values` is anything that iterates `&str`, in the schema's order.
///
/// ```
/// #[derive(serde::Serialize)]
/// #[serde(rename_all = "lowercase")]
/// enum Light { Red, Green }
/// dotnet_support::string_enum_schema!(Light, "Light", ["red", "green"]);
/// let schema = mcp_plugin_api::schemars::schema_for!(Light);
/// assert_eq!(schema.get("enum"), Some(&serde_json::json!(["red", "green"])));
/// ```
#[macro_export]
macro_rules! string_enum_schema {
    ($type:ty, $name:literal, $values:expr) => {
        impl ::mcp_plugin_api::schemars::JsonSchema for $type {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                $name.into()
            }

            fn json_schema(_: &mut ::mcp_plugin_api::schemars::SchemaGenerator) -> ::mcp_plugin_api::schemars::Schema {
                let values: ::std::vec::Vec<&str> = ::std::iter::IntoIterator::into_iter($values).collect();
                ::mcp_plugin_api::schemars::json_schema!({ "type": "string", "enum": values })
            }

            fn inline_schema() -> bool {
                true
            }
        }
    };
}

use std::any::{TypeId, type_name};

use mcp_plugin_api::{
    SchemaError, output_schema_for,
    schemars::{JsonSchema, Schema, SchemaGenerator},
};
use serde::Serialize;
use serde_json::Value;

use crate::respond::Reply;

/// The fields the kit sets on every result, which a result type must not have.
const ENVELOPE_FIELDS: [&str; 3] = ["success", "action", "lockInfo"];

/// The fields the kit sets on the result of an action that [runs
/// dotnet](super::ActionSpec::runs_dotnet): the command it ran to its end. Another action's result
/// may report a command of its own under these names (a background session's command line, and
/// its exit code once it ended), which the kit then leaves alone.
const RUN_FIELDS: [&str; 2] = ["command", "exitCode"];

/// A type an action can answer with: it serializes to a JSON object and describes itself with a
/// JSON Schema. Derive `serde::Serialize` and `schemars::JsonSchema`, with
/// `#[serde(rename_all = "camelCase")]` for the contract's field names.
pub trait ActionResult: Serialize + JsonSchema + 'static {}

impl<T: Serialize + JsonSchema + 'static> ActionResult for T {}

/// Which Rust type a reply's structured content was serialized from: its id, and its path for
/// messages.
pub(crate) type TypeTag = (TypeId, &'static str);

fn tag_of<T: 'static>() -> TypeTag {
    (TypeId::of::<T>(), type_name::<T>())
}

/// The result type an action declares: its tag, and how to derive its schema.
#[derive(Clone, Copy)]
pub(crate) struct ResultType {
    pub(crate) tag: TypeTag,
    /// Adds the type's schema to a generator shared by the tool's actions; returns a reference
    /// to it (or the schema itself, for a type schemars always inlines).
    subschema: fn(&mut SchemaGenerator) -> Schema,
    /// The type's schema on its own, inlined: checks that it describes an object.
    alone: fn() -> Result<Value, SchemaError>,
}

impl ResultType {
    pub(crate) fn of<T: ActionResult>() -> Self {
        Self {
            tag: tag_of::<T>(),
            subschema: |generator| generator.subschema_for::<T>(),
            alone: output_schema_for::<T>,
        }
    }

    /// Adds the type to `generator`; see [`Self::subschema`].
    pub(crate) fn subschema(&self, generator: &mut SchemaGenerator) -> Value {
        (self.subschema)(generator).to_value()
    }

    /// What is wrong with the type as an action's result: not an object, or a field the kit sets
    /// (`command` and `exitCode` only when the action `runs_dotnet`).
    pub(crate) fn problems(&self, runs_dotnet: bool) -> Vec<String> {
        let schema = match (self.alone)() {
            Ok(schema) => schema,
            Err(error) => return vec![format!("result type {}: {error}", self.tag.1)],
        };
        let properties = schema.get("properties").and_then(Value::as_object);
        let run_fields: &[&str] = if runs_dotnet { &RUN_FIELDS } else { &[] };
        ENVELOPE_FIELDS
            .iter()
            .chain(run_fields)
            .filter(|field| properties.is_some_and(|properties| properties.contains_key(**field)))
            .map(|field| format!("result type {} has the field {field}, which the kit sets", self.tag.1))
            .collect()
    }
}

impl PartialEq for ResultType {
    fn eq(&self, other: &Self) -> bool {
        self.tag == other.tag
    }
}

impl std::fmt::Debug for ResultType {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.tag.1)
    }
}

impl Reply {
    /// Attaches the action's result: the structured content, serialized from the type the action
    /// declares ([`super::ActionSpec::result`]). The kit adds the envelope's fields.
    ///
    /// # Panics
    ///
    /// When `value` does not serialize to a JSON object: a result type that cannot is refused when
    /// the plugin loads, so this is a bug of the type's `Serialize` implementation.
    pub fn result<T: ActionResult>(mut self, value: T) -> Self {
        let structured = match serde_json::to_value(&value) {
            Ok(Value::Object(fields)) => Value::Object(fields),
            Ok(other) => panic!("the result {} serialized to {other}, not a JSON object", type_name::<T>()),
            Err(error) => panic!("the result {} did not serialize: {error}", type_name::<T>()),
        };
        self.result_type = Some(tag_of::<T>());
        self.structured(structured)
    }
}
