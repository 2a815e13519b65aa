//! Typed tools: the arguments (and, optionally, the structured output) are
//! Rust types, and their JSON Schemas are derived from them.
//!
//! See [`TypedTool`].

use std::future::Future;

use schemars::{JsonSchema, Schema, generate::SchemaSettings, transform::transform_subschemas};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};

use crate::{CallContext, Content, Tool, ToolError, ToolOutcome, ToolResult, ToolSpec};

/// A tool whose arguments and output are Rust types.
///
/// Implement it instead of [`Tool`]: declare the
/// argument struct (`serde::Deserialize` + `schemars::JsonSchema`), say what
/// the tool returns, and write the body against typed values. The crate
/// fills in the `inputSchema` (and the `outputSchema`, for [`Structured`]
/// output) and turns arguments that do not deserialize into an error result
/// that names the parameter, before the tool runs.
///
/// ```
/// use mcp_plugin_api::{CallContext, Structured, ToolError, ToolSpec, TypedTool};
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct AddArgs {
///     /// The first term.
///     a: i64,
///     /// The second term.
///     b: i64,
/// }
///
/// #[derive(Serialize, JsonSchema)]
/// struct Sum {
///     /// The sum of the two terms.
///     sum: i64,
/// }
///
/// struct Add;
///
/// impl TypedTool for Add {
///     type Args = AddArgs;
///     type Output = Structured<Sum>;
///
///     fn describe(&self) -> ToolSpec {
///         ToolSpec::new("add", "Adds two integers.").read_only(true)
///     }
///
///     async fn run(&self, args: AddArgs, _ctx: CallContext) -> Result<Structured<Sum>, ToolError> {
///         let sum = args.a.checked_add(args.b).ok_or_else(|| ToolError::new("the sum overflows"))?;
///         Ok(Structured::new(format!("{} + {} = {sum}", args.a, args.b), Sum { sum }))
///     }
/// }
///
/// // A typed tool is a `Tool`: it boxes, exports and tests like any other.
/// let spec = mcp_plugin_api::Tool::spec(&Add);
/// assert_eq!(spec.get_input_schema()["required"], serde_json::json!(["a", "b"]));
/// assert!(spec.get_output_schema().is_some());
/// ```
///
/// Every `TypedTool` is also a [`Tool`]: convert it to a
/// [`BoxedTool`](crate::BoxedTool) with `.into()`, list it in
/// [`export_plugin!`](crate::export_plugin), run it with the test kit. Its
/// [`Tool::spec`] is [`Self::describe`] with the derived schemas filled in
/// (any schema set in `describe` is replaced); its [`Tool::call`]
/// deserializes the arguments (see [`parse_arguments`]) and calls
/// [`Self::run`].
///
/// # The schemas
///
/// Schemas are generated for JSON Schema draft 2020-12 (what the host
/// validates with), without a `$schema` key, with every subschema inlined
/// so that clients which do not follow `$ref` still see the whole shape.
/// Only recursive types keep references, under `$defs` at the root. The
/// root is always `"type": "object"`: arguments and structured content are
/// JSON objects in MCP, so a type that is not one (a string, a list) is
/// refused with a message when the tool is listed. Doc comments on fields
/// become `description`s, which the model reads: write them. (One on the
/// struct itself becomes the top-level description, beside the tool's own.)
///
/// The input schema describes what deserializes; the output schema what
/// serializes (`skip_serializing_if` fields are optional in it).
pub trait TypedTool: Send + Sync + 'static {
    /// The arguments: a struct (or any type that deserializes from a JSON
    /// object) deriving `Deserialize` and `JsonSchema`. Use [`NoArgs`] for a
    /// tool without arguments.
    type Args: DeserializeOwned + JsonSchema + Send;

    /// What the tool returns: [`Structured<T>`] for typed structured output
    /// (it declares an `outputSchema`), or [`ToolResult`] / [`String`] for
    /// content only.
    type Output: ToolOutput;

    /// The tool's name, description, title and annotations. The input and
    /// output schemas are derived; leave them out.
    fn describe(&self) -> ToolSpec;

    /// Runs one call with arguments that have been deserialized.
    fn run(&self, args: Self::Args, ctx: CallContext) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;
}

impl<T: TypedTool> Tool for T {
    fn spec(&self) -> ToolSpec {
        let name = self.describe().name().to_owned();
        let schema = input_schema_for::<T::Args>()
            .unwrap_or_else(|problem| panic!("the arguments of tool '{name}' do not fit MCP: {problem}"));
        let spec = self.describe().input_schema(schema);
        match T::Output::output_schema() {
            Some(Ok(schema)) => spec.output_schema(schema),
            Some(Err(problem)) => panic!("the output of tool '{name}' does not fit MCP: {problem}"),
            None => spec,
        }
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let args = parse_arguments::<T::Args>(args)?;
        self.run(args, ctx).await?.into_result()
    }
}

/// What a [`TypedTool`] may return: how it becomes a [`ToolResult`], and
/// the output schema it declares, if any.
pub trait ToolOutput: Send {
    /// The `outputSchema` to declare: `None` for content-only output,
    /// `Some(Err)` when the type cannot be structured content.
    fn output_schema() -> Option<Result<Value, SchemaError>>;

    /// Converts the value into the result the client receives.
    fn into_result(self) -> ToolOutcome;
}

impl ToolOutput for ToolResult {
    fn output_schema() -> Option<Result<Value, SchemaError>> {
        None
    }

    fn into_result(self) -> ToolOutcome {
        Ok(self)
    }
}

impl ToolOutput for String {
    fn output_schema() -> Option<Result<Value, SchemaError>> {
        None
    }

    fn into_result(self) -> ToolOutcome {
        Ok(ToolResult::text(self))
    }
}

/// Typed structured output: a value for programs (`structuredContent`,
/// checked by the host against the derived `outputSchema`) and a text for
/// the model (`content`).
///
/// The text is what the model reads: say what happened in a sentence or
/// two. Do not repeat the JSON there.
///
/// ```
/// use mcp_plugin_api::{Content, Structured};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Found {
///     paths: Vec<String>,
/// }
///
/// let output = Structured::new("Found 2 files.", Found { paths: vec!["a".into(), "b".into()] })
///     .with_content(Content::resource_link("file:///a", "a"));
/// ```
#[derive(Debug, Clone)]
pub struct Structured<T> {
    text: String,
    value: T,
    extra: Vec<Content>,
    meta: Map<String, Value>,
}

impl<T> Structured<T> {
    /// Output made of a text for the model and a value for programs.
    pub fn new(text: impl Into<String>, value: T) -> Self {
        Self { text: text.into(), value, extra: Vec::new(), meta: Map::new() }
    }

    /// Adds a content block after the text (an image, a resource link).
    pub fn with_content(mut self, block: Content) -> Self {
        self.extra.push(block);
        self
    }

    /// Adds a `_meta` entry to the result.
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.insert(key.into(), value);
        self
    }

    /// The value for programs.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The text for the model.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl<T: Serialize + JsonSchema + Send> ToolOutput for Structured<T> {
    fn output_schema() -> Option<Result<Value, SchemaError>> {
        Some(output_schema_for::<T>())
    }

    fn into_result(self) -> ToolOutcome {
        let value = serde_json::to_value(&self.value)
            .map_err(|error| ToolError::new(format!("the tool's output could not be serialized: {error}")))?;
        if !value.is_object() {
            return Err(ToolError::new("the tool's output is not a JSON object, as structured content must be"));
        }
        let mut result = ToolResult::text(self.text).with_structured(value);
        result.content.extend(self.extra);
        if !self.meta.is_empty() {
            result.meta = Some(self.meta);
        }
        Ok(result)
    }
}

/// The arguments of a tool that takes none: an empty object (unknown
/// properties are refused).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

impl JsonSchema for NoArgs {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NoArgs".into()
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object", "properties": {}, "additionalProperties": false })
    }
}

/// Why a type's schema cannot describe MCP arguments or structured content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{type_name} must be a JSON object, but its schema is {found}")]
pub struct SchemaError {
    type_name: String,
    found: String,
}

/// The `inputSchema` for arguments of type `T`: draft 2020-12, subschemas
/// inlined, no `$schema`, `"type": "object"` at the root.
///
/// ```
/// use mcp_plugin_api::input_schema_for;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args {
///     /// Where to look.
///     path: String,
///     depth: Option<u32>,
/// }
///
/// let schema = input_schema_for::<Args>().unwrap();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"], json!(["path"]));
/// assert_eq!(schema["properties"]["path"]["description"], "Where to look.");
/// assert!(schema.get("$schema").is_none());
/// ```
pub fn input_schema_for<T: JsonSchema>() -> Result<Value, SchemaError> {
    object_schema::<T>(schema_settings().for_deserialize())
}

/// The `outputSchema` for structured content of type `T` (as it
/// serializes), in the same form as [`input_schema_for`].
pub fn output_schema_for<T: JsonSchema>() -> Result<Value, SchemaError> {
    object_schema::<T>(output_schema_settings())
}

/// The schemars settings every schema derived for MCP starts from: JSON
/// Schema draft 2020-12 (the dialect MCP names), without a `$schema`
/// keyword (a schema is part of a tool's descriptor, not a document of its
/// own), and without the width formats of number types (`int64`,
/// `uint32`: OpenAPI's names, which no JSON Schema validator checks; an
/// unsigned type keeps `minimum: 0`). Add the contract: `for_deserialize()` for arguments,
/// `for_serialize()` for structured content.
///
/// [`input_schema_for`] and [`output_schema_for`] also inline every
/// subschema, since one type makes the whole schema. A tool that derives
/// several types into one schema (one per action, say) can keep the
/// references instead, so that types the actions share are defined once
/// under the root's `$defs`; the official client SDKs resolve such
/// references inside a tool's schema.
///
/// ```
/// use mcp_plugin_api::{schema_settings, schemars::JsonSchema};
///
/// #[derive(serde::Serialize, JsonSchema)]
/// struct Point {
///     x: i32,
/// }
///
/// let mut generator = schema_settings().for_serialize().into_generator();
/// let reference = generator.subschema_for::<Point>();
/// assert_eq!(reference.get("$ref").and_then(|r| r.as_str()), Some("#/$defs/Point"));
/// assert!(generator.definitions().contains_key("Point"));
/// ```
pub fn schema_settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
        .with(|settings| settings.meta_schema = None)
        .with_transform(without_width_formats as fn(&mut Schema))
}

/// Takes out the `format` schemars gives a Rust number type (`int32`, `uint64`, `double`...):
/// those names are OpenAPI's, not JSON Schema's, so validators ignore them, and the one range
/// they carry that matters, not below zero, is `minimum: 0` already. Every client downloads every
/// tool's schemas, so what checks nothing is left out.
fn without_width_formats(schema: &mut Schema) {
    const WIDTHS: [&str; 14] = [
        "int", "int8", "int16", "int32", "int64", "int128", "uint", "uint8", "uint16", "uint32", "uint64", "uint128",
        "float", "double",
    ];
    let numeric = match schema.get("type") {
        Some(Value::String(kind)) => kind == "integer" || kind == "number",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "integer" || kind == "number"),
        _ => false,
    };
    if numeric && schema.get("format").and_then(Value::as_str).is_some_and(|format| WIDTHS.contains(&format)) {
        schema.remove("format");
    }
    transform_subschemas(&mut (without_width_formats as fn(&mut Schema)), schema);
}

/// [`schema_settings`] for structured content: the serialization contract, and a field that is
/// left out when it has no value (`skip_serializing_if = "Option::is_none"`) is never `null`, so
/// its schema does not allow `null` either (the transform `omitted_is_never_null` applies).
pub fn output_schema_settings() -> SchemaSettings {
    schema_settings().for_serialize().with_transform(omitted_is_never_null as fn(&mut Schema))
}

/// Takes `null` out of the schema of every property that an object does not require: in
/// structured content such a field is an `Option` that serde leaves out when it is `None`, so it
/// is either absent or a value. (schemars describes every `Option` as nullable, whatever its
/// `skip_serializing_if`.)
fn omitted_is_never_null(schema: &mut Schema) {
    let required: Vec<String> = match schema.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (_, property) in properties.iter_mut().filter(|(name, _)| !required.contains(name)) {
            if let Value::Object(property) = property {
                without_null(property);
            }
        }
    }
    transform_subschemas(&mut (omitted_is_never_null as fn(&mut Schema)), schema);
}

/// `property` without `null` among its types: a `type` list loses `"null"`, an `anyOf` loses its
/// `{"type": "null"}` branch (and a single branch left takes the place of the `anyOf`).
fn without_null(property: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = property.get_mut("type") {
        types.retain(|kind| kind != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            property.insert("type".to_owned(), only);
        }
    }
    let Some(Value::Array(branches)) = property.get_mut("anyOf") else { return };
    branches.retain(|branch| branch.get("type").and_then(Value::as_str) != Some("null"));
    let single = match branches.as_slice() {
        [Value::Object(only)] => Some(only.clone()),
        _ => None,
    };
    if let Some(only) = single.filter(|only| only.keys().all(|keyword| !property.contains_key(keyword))) {
        property.remove("anyOf");
        property.extend(only);
    }
}

fn object_schema<T: JsonSchema>(settings: SchemaSettings) -> Result<Value, SchemaError> {
    let generator = settings.with(|settings| settings.inline_subschemas = true).into_generator();
    let schema = generator.into_root_schema_for::<T>().to_value();
    let type_name = T::schema_name().into_owned();
    let mut object = match schema {
        Value::Object(object) => object,
        // `true` accepts anything (`serde_json::Value`); as arguments that means any object.
        Value::Bool(true) => Map::new(),
        other => return Err(SchemaError { type_name, found: other.to_string() }),
    };
    // The generator titles the root with the Rust type's name, which tells a model nothing.
    if object.get("title").and_then(Value::as_str) == Some(type_name.as_str()) {
        object.remove("title");
    }
    match object.get("type") {
        None => {
            object.insert("type".to_owned(), Value::from("object"));
        }
        Some(Value::String(kind)) if kind == "object" => {}
        Some(other) => return Err(SchemaError { type_name, found: format!("of type {other}") }),
    }
    Ok(Value::Object(object))
}

/// Deserializes a call's arguments into `T`. The error names the parameter
/// (`a.b[0]` for nested ones) and the reason, in the form the host uses
/// for schema violations.
///
/// ```
/// use mcp_plugin_api::parse_arguments;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize)]
/// struct Args {
///     count: u8,
/// }
///
/// let error = parse_arguments::<Args>(json!({ "count": 300 })).err().unwrap();
/// assert!(error.to_string().starts_with("Invalid argument 'count':"), "{error}");
/// ```
pub fn parse_arguments<T: DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    let args = match args {
        Value::Null => Value::Object(Map::new()),
        Value::Object(_) => args,
        // serde would read a struct from an array by position; MCP arguments are always an object.
        other => {
            let kind = match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            };
            return Err(ToolError::new(format!("Invalid arguments: expected a JSON object, got {kind}")));
        }
    };
    serde_path_to_error::deserialize(args).map_err(|error| {
        let path = error.path().to_string();
        let reason = error.inner().to_string();
        let parent = (path != ".").then_some(path.as_str());
        argument_error(parent, &reason)
    })
}

/// Names the parameter a serde error is about. An error about a missing
/// field is reported at the enclosing object and names the field in
/// backticks; the field joins the path.
fn argument_error(parent: Option<&str>, reason: &str) -> ToolError {
    let join = |field: &str| match parent {
        Some(parent) => format!("{parent}.{field}"),
        None => field.to_owned(),
    };
    let quoted = |prefix: &str| {
        let rest = reason.strip_prefix(prefix)?.strip_prefix('`')?;
        let (field, tail) = rest.split_once('`')?;
        Some((field.to_owned(), tail.trim_start_matches(',').trim().to_owned()))
    };
    if let Some((field, _)) = quoted("missing field ") {
        return ToolError::invalid_argument(&join(&field), "is required but missing");
    }
    if let Some((field, tail)) = quoted("unknown field ") {
        // The path of an unknown field already ends with the field itself.
        let parameter = match parent {
            Some(path) if path == field || path.ends_with(&format!(".{field}")) => path.to_owned(),
            _ => join(&field),
        };
        let reason = match tail.is_empty() {
            true => "is not a parameter of this tool".to_owned(),
            false => format!("is not a parameter of this tool ({tail})"),
        };
        return ToolError::invalid_argument(&parameter, reason);
    }
    match parent {
        Some(parameter) => ToolError::invalid_argument(parameter, reason),
        None => ToolError::new(format!("Invalid arguments: {reason}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Where to put the result.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    enum Target {
        Stdout,
        File { path: String },
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Inner {
        /// How many.
        count: u8,
        labels: Vec<String>,
    }

    /// The arguments of the test tool.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Args {
        /// The text to process.
        text: String,
        inner: Option<Inner>,
        #[serde(default)]
        target: Option<Target>,
        #[serde(default = "default_repeat")]
        repeat_count: u32,
    }

    fn default_repeat() -> u32 {
        1
    }

    #[derive(Debug, Serialize, JsonSchema)]
    struct Report {
        processed: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        inner: Summary,
    }

    #[derive(Debug, Serialize, JsonSchema)]
    struct Summary {
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<Detail>,
        reason: Option<String>,
    }

    #[derive(Debug, Serialize, JsonSchema)]
    struct Detail {
        lines: Vec<String>,
    }

    #[derive(Debug, Deserialize, Serialize, JsonSchema)]
    struct Tree {
        name: String,
        children: Vec<Tree>,
    }

    fn has_key(value: &Value, key: &str) -> bool {
        match value {
            Value::Object(map) => map.contains_key(key) || map.values().any(|child| has_key(child, key)),
            Value::Array(items) => items.iter().any(|child| has_key(child, key)),
            _ => false,
        }
    }

    #[test]
    fn input_schemas_are_inlined_objects_without_a_meta_schema() {
        let schema = input_schema_for::<Args>().unwrap();
        assert_eq!(schema["type"], "object");
        assert!(schema.get("$schema").is_none());
        assert!(schema.get("title").is_none(), "the Rust type name is not a title: {schema}");
        assert_eq!(schema["description"], "The arguments of the test tool.");
        assert!(!has_key(&schema, "$ref") && !has_key(&schema, "$defs"), "{schema}");
        assert_eq!(schema["required"], json!(["text"]));
        assert_eq!(schema["properties"]["text"]["description"], "The text to process.");
        assert_eq!(schema["properties"]["repeatCount"]["default"], 1);
        let inner = &schema["properties"]["inner"];
        assert!(inner.to_string().contains("\"labels\""), "the nested struct is inlined: {inner}");
        assert!(inner.to_string().contains("How many."), "{inner}");
    }

    #[test]
    fn output_schemas_follow_serialization() {
        let schema = output_schema_for::<Report>().unwrap();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["processed", "inner"]), "skipped-if-none fields are optional");
        assert_eq!(schema["properties"]["inner"]["properties"]["ok"]["type"], "boolean");
        // A field serde leaves out when it is None is never null; one it always writes may be.
        assert_eq!(schema["properties"]["note"]["type"], "string");
        let inner = &schema["properties"]["inner"];
        assert_eq!(inner["required"], json!(["ok", "reason"]));
        assert_eq!(inner["properties"]["reason"]["type"], json!(["string", "null"]));
        let detail = inner["properties"]["detail"].to_string();
        assert!(!detail.contains("null"), "{detail}");
        assert!(schema.get("$schema").is_none() && !has_key(&schema, "$ref"));
    }

    #[test]
    fn number_widths_are_left_out_and_unsigned_keeps_its_minimum() {
        #[derive(Serialize, JsonSchema)]
        #[allow(dead_code)]
        struct Sizes {
            count: u64,
            delta: i32,
            ratio: f64,
            maybe: Option<u8>,
            when: String,
        }
        for schema in [input_schema_for::<Sizes>().unwrap(), output_schema_for::<Sizes>().unwrap()] {
            assert!(!schema.to_string().contains("format"), "{schema}");
            let properties = &schema["properties"];
            assert_eq!(properties["count"], json!({ "type": "integer", "minimum": 0 }));
            assert_eq!(properties["delta"], json!({ "type": "integer" }));
            assert_eq!(properties["ratio"], json!({ "type": "number" }));
            assert_eq!(properties["maybe"]["minimum"], 0);
        }
    }

    #[test]
    fn recursive_types_keep_their_definitions_at_the_root() {
        let schema = input_schema_for::<Tree>().unwrap();
        assert_eq!(schema["type"], "object");
        let text = schema.to_string();
        if text.contains("$ref") {
            // Every reference points into the root's own `$defs` (or the root itself).
            for reference in text.split("\"$ref\":\"").skip(1).map(|rest| rest.split('"').next().unwrap()) {
                let resolved = if reference == "#" { Some(&schema) } else { schema.pointer(&reference[1..]) };
                assert!(resolved.is_some(), "{reference} resolves in {schema}");
            }
        }
    }

    /// Wraps a type in a struct, so that a recursive type sits below the root.
    #[derive(Debug, Deserialize, Serialize, JsonSchema)]
    struct Forest {
        trees: Vec<Tree>,
    }

    #[test]
    fn the_hosts_validator_compiles_derived_schemas_and_agrees_with_serde() {
        let args = jsonschema::validator_for(&input_schema_for::<Args>().unwrap()).unwrap();
        let good =
            json!({ "text": "t", "inner": { "count": 1, "labels": ["a"] }, "target": { "file": { "path": "p" } } });
        assert!(args.is_valid(&good) && parse_arguments::<Args>(good).is_ok());
        for bad in [json!({}), json!({ "text": 1 }), json!({ "text": "t", "inner": { "count": 256, "labels": [] } })] {
            assert!(!args.is_valid(&bad), "{bad}");
            assert!(parse_arguments::<Args>(bad).is_err());
        }
        let report = jsonschema::validator_for(&output_schema_for::<Report>().unwrap()).unwrap();
        let produced = Report { processed: 1, note: None, inner: Summary { ok: true, detail: None, reason: None } };
        assert!(report.is_valid(&serde_json::to_value(&produced).unwrap()));
        assert!(!report.is_valid(&json!({ "processed": -1, "inner": { "ok": true } })));
        // Recursive types keep `$ref`s, which must resolve at the root and below it.
        let deep = json!({ "name": "a", "children": [{ "name": "b", "children": [] }] });
        let broken = json!({ "name": "a", "children": [{ "name": 1, "children": [] }] });
        let tree = jsonschema::validator_for(&input_schema_for::<Tree>().unwrap()).unwrap();
        assert!(tree.is_valid(&deep) && !tree.is_valid(&broken));
        let forest_schema = input_schema_for::<Forest>().unwrap();
        let forest =
            jsonschema::validator_for(&forest_schema).unwrap_or_else(|error| panic!("{error}: {forest_schema}"));
        assert!(forest.is_valid(&json!({ "trees": [deep] })), "{forest_schema}");
        assert!(!forest.is_valid(&json!({ "trees": [broken] })), "{forest_schema}");
    }

    #[test]
    fn no_args_is_an_empty_closed_object() {
        let schema = input_schema_for::<NoArgs>().unwrap();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema, json!({ "type": "object", "properties": {}, "additionalProperties": false }));
        assert!(parse_arguments::<NoArgs>(json!({})).is_ok());
        assert!(parse_arguments::<NoArgs>(json!({ "x": 1 })).is_err());
    }

    #[test]
    fn any_value_means_any_object() {
        assert_eq!(input_schema_for::<Value>().unwrap(), json!({ "type": "object" }));
        assert_eq!(input_schema_for::<Map<String, Value>>().unwrap()["type"], "object");
    }

    #[test]
    fn types_that_are_not_objects_are_refused() {
        let error = input_schema_for::<String>().unwrap_err().to_string();
        assert_eq!(error, "string must be a JSON object, but its schema is of type \"string\"");
        assert!(output_schema_for::<Vec<u8>>().is_err());
    }

    fn message(error: ToolError) -> String {
        error.into_result().joined_text()
    }

    #[test]
    fn a_wrong_type_names_the_parameter_and_the_reason() {
        let error = parse_arguments::<Args>(json!({ "text": 5 })).unwrap_err();
        let text = message(error);
        assert!(text.starts_with("Invalid argument 'text': invalid type: integer `5`, expected a string"), "{text}");
    }

    #[test]
    fn nested_parameters_are_named_by_their_path() {
        let text = message(
            parse_arguments::<Args>(json!({ "text": "t", "inner": { "count": 1, "labels": ["a", 2] } })).unwrap_err(),
        );
        assert!(text.starts_with("Invalid argument 'inner.labels[1]': invalid type"), "{text}");
        let text = message(
            parse_arguments::<Args>(json!({ "text": "t", "inner": { "count": 300, "labels": [] } })).unwrap_err(),
        );
        assert!(text.starts_with("Invalid argument 'inner.count':") && text.contains("300"), "{text}");
    }

    #[test]
    fn missing_and_unknown_fields_are_named() {
        let text = message(parse_arguments::<Args>(json!({})).unwrap_err());
        assert_eq!(text, "Invalid argument 'text': is required but missing");
        let text = message(parse_arguments::<Args>(json!({ "text": "t", "inner": { "labels": [] } })).unwrap_err());
        assert_eq!(text, "Invalid argument 'inner.count': is required but missing");
        let text = message(
            parse_arguments::<Args>(json!({ "text": "t", "inner": { "count": 1, "labels": [], "extra": 1 } }))
                .unwrap_err(),
        );
        assert!(text.starts_with("Invalid argument 'inner.extra': is not a parameter of this tool"), "{text}");
        assert!(text.contains("expected `count` or `labels`"), "{text}");
        let text = message(parse_arguments::<NoArgs>(json!({ "extra": 1 })).unwrap_err());
        assert_eq!(text, "Invalid argument 'extra': is not a parameter of this tool (there are no fields)");
    }

    #[test]
    fn enum_variants_are_checked() {
        let text = message(parse_arguments::<Args>(json!({ "text": "t", "target": "printer" })).unwrap_err());
        assert!(text.starts_with("Invalid argument 'target': unknown variant `printer`"), "{text}");
        let parsed = parse_arguments::<Args>(json!({ "text": "t", "target": { "file": { "path": "p" } } })).unwrap();
        assert!(matches!(parsed.target, Some(Target::File { .. })));
        assert_eq!(parsed.repeat_count, 1);
    }

    #[test]
    fn arguments_that_are_not_an_object_are_refused() {
        let text = message(parse_arguments::<Args>(json!([1, 2])).unwrap_err());
        assert_eq!(text, "Invalid arguments: expected a JSON object, got an array");
        assert!(parse_arguments::<NoArgs>(Value::Null).is_ok(), "absent arguments are an empty object");
    }

    #[test]
    fn structured_output_becomes_structured_content_and_text() {
        let output = Structured::new(
            "Processed 3 items.",
            Report { processed: 3, note: None, inner: Summary { ok: true, detail: None, reason: None } },
        )
        .with_content(Content::text("second block"))
        .with_meta("example/trace", json!("t-1"));
        let result = output.into_result().unwrap();
        assert_eq!(result.structured_content, Some(json!({ "processed": 3, "inner": { "ok": true, "reason": null } })));
        assert_eq!(result.content[0], Content::text("Processed 3 items."));
        assert_eq!(result.content[1], Content::text("second block"));
        assert!(!result.joined_text().contains('{'), "no JSON in the model's text");
        assert_eq!(result.meta.unwrap()["example/trace"], "t-1");
        assert!(!result.is_error);
    }

    #[test]
    fn structured_output_that_is_not_an_object_is_an_error() {
        #[derive(Serialize, JsonSchema)]
        #[serde(untagged)]
        enum Either {
            Number(u32),
        }
        let error = Structured::new("n", Either::Number(1)).into_result().unwrap_err();
        assert!(error.to_string().contains("not a JSON object"), "{error}");
    }

    struct Repeat;

    impl TypedTool for Repeat {
        type Args = Args;
        type Output = Structured<Report>;

        fn describe(&self) -> ToolSpec {
            ToolSpec::new("repeat", "Repeats the text.").read_only(true)
        }

        async fn run(&self, args: Args, _ctx: CallContext) -> Result<Structured<Report>, ToolError> {
            if args.text == "fail" {
                return Err(ToolError::invalid_argument("text", "must not be 'fail'"));
            }
            let processed = args.text.len() * args.repeat_count as usize;
            Ok(Structured::new(
                format!("Repeated {} characters.", processed),
                Report { processed, note: Some("ok".into()), inner: Summary { ok: true, detail: None, reason: None } },
            ))
        }
    }

    struct Plain;

    impl TypedTool for Plain {
        type Args = NoArgs;
        type Output = String;

        fn describe(&self) -> ToolSpec {
            ToolSpec::new("plain", "Says hello.")
        }

        async fn run(&self, _args: NoArgs, _ctx: CallContext) -> Result<String, ToolError> {
            Ok("hello".to_owned())
        }
    }

    #[test]
    fn a_typed_tool_declares_both_schemas_and_keeps_its_description() {
        let spec = Tool::spec(&Repeat);
        assert_eq!(spec.name(), "repeat");
        assert_eq!(spec.get_annotations().read_only, Some(true));
        assert_eq!(spec.get_input_schema(), &input_schema_for::<Args>().unwrap());
        assert_eq!(spec.get_output_schema(), Some(&output_schema_for::<Report>().unwrap()));
        let plain = Tool::spec(&Plain);
        assert!(plain.get_output_schema().is_none(), "text-only output declares no outputSchema");
        assert_eq!(plain.get_input_schema()["additionalProperties"], false);
    }

    #[test]
    #[should_panic(expected = "the arguments of tool 'bad' do not fit MCP")]
    fn arguments_that_are_not_an_object_fail_at_listing() {
        struct Bad;
        impl TypedTool for Bad {
            type Args = Vec<String>;
            type Output = ToolResult;
            fn describe(&self) -> ToolSpec {
                ToolSpec::new("bad", "Takes a list.")
            }
            async fn run(&self, _args: Vec<String>, _ctx: CallContext) -> ToolOutcome {
                Ok(ToolResult::text("unreachable"))
            }
        }
        let _ = Tool::spec(&Bad);
    }

    #[cfg(feature = "testkit")]
    mod through_the_test_kit {
        use super::*;
        use crate::testkit::TestCall;

        #[test]
        fn a_call_deserializes_runs_and_structures() {
            let result = TestCall::new().run(&Repeat, json!({ "text": "abc", "repeatCount": 2 }));
            assert!(!result.is_error);
            assert_eq!(result.joined_text(), "Repeated 6 characters.");
            assert_eq!(
                result.structured_content,
                Some(json!({ "processed": 6, "note": "ok", "inner": { "ok": true, "reason": null } }))
            );
        }

        #[test]
        fn bad_arguments_never_reach_the_tool() {
            // The host's schema check answers first, in the same words as the typed adapter.
            let result = TestCall::new().run(&Repeat, json!({ "text": ["not", "text"] }));
            assert!(result.is_error);
            assert!(result.joined_text().starts_with("Invalid argument 'text': "), "{}", result.joined_text());
            assert!(result.structured_content.is_none());
            // Past the host's check, the typed adapter refuses it too, naming the parameter the same way.
            let result = TestCall::new().unchecked().run(&Repeat, json!({ "text": ["not", "text"] }));
            assert!(result.joined_text().starts_with("Invalid argument 'text': invalid type: sequence"));
            assert!(result.structured_content.is_none());
        }

        #[test]
        #[should_panic(expected = "does not match its outputSchema")]
        fn structured_content_that_breaks_the_output_schema_fails_the_test() {
            struct Liar;
            impl crate::Tool for Liar {
                fn spec(&self) -> crate::ToolSpec {
                    crate::ToolSpec::new("liar", "Claims a number, returns text.").output_schema(json!({
                        "type": "object", "required": ["n"], "properties": { "n": { "type": "integer" } }
                    }))
                }
                async fn call(&self, _args: Value, _ctx: crate::CallContext) -> crate::ToolOutcome {
                    Ok(crate::ToolResult::text("n").with_structured(json!({ "n": "one" })))
                }
            }
            TestCall::new().run(&Liar, json!({}));
        }

        #[test]
        #[should_panic(expected = "field `outputSchema.type`")]
        fn a_descriptor_clients_would_reject_fails_the_test() {
            struct RootAnyOf;
            impl crate::Tool for RootAnyOf {
                fn spec(&self) -> crate::ToolSpec {
                    crate::ToolSpec::new("root_any_of", "An output schema without a root type.")
                        .output_schema(json!({ "anyOf": [ { "type": "object" } ] }))
                }
                async fn call(&self, _args: Value, _ctx: crate::CallContext) -> crate::ToolOutcome {
                    Ok(crate::ToolResult::text("unreachable"))
                }
            }
            TestCall::new().run(&RootAnyOf, json!({}));
        }

        #[test]
        fn tool_errors_become_error_results() {
            let result = TestCall::new().run(&Repeat, json!({ "text": "fail" }));
            assert!(result.is_error);
            assert_eq!(result.joined_text(), "Invalid argument 'text': must not be 'fail'");
        }

        #[test]
        fn text_output_is_plain_content() {
            let result = TestCall::new().run(&Plain, json!({}));
            assert_eq!(result.joined_text(), "hello");
            assert!(result.structured_content.is_none());
        }
    }
}
