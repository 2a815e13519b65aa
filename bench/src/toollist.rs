//! What a server's tool list costs: the bytes of `tools/list`, split into what a client shows
//! the model (each tool's name, title, description and input schema), the output schemas (which
//! clients use to check `structuredContent`, and some show the model too), and the rest
//! (annotations, `_meta`, the JSON around them).
//!
//! Bytes are counted on compact JSON (serde_json's `to_string`, the form the host writes on the
//! wire), per tool and in total, so that a budget can be held per tool as well as for the whole
//! list.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Result, error};

/// The fields of a tool a client shows the model.
const SHOWN: [&str; 4] = ["name", "title", "description", "inputSchema"];

/// The cost of one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSize {
    /// The tool's name.
    pub name: String,
    /// The whole tool object.
    pub total: usize,
    /// `{name, title, description, inputSchema}` of the tool, as one object.
    pub shown: usize,
    /// Of which the input schema.
    pub input_schema: usize,
    /// The output schema (0 without one).
    pub output_schema: usize,
}

/// The cost of a whole tool list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolListSize {
    /// The `result` of `tools/list`.
    pub total: usize,
    /// The sum of [`ToolSize::shown`].
    pub shown: usize,
    /// The sum of [`ToolSize::output_schema`].
    pub output_schemas: usize,
    /// Every tool, in the order listed.
    pub tools: Vec<ToolSize>,
}

fn bytes(value: &Value) -> usize {
    value.to_string().len()
}

impl ToolListSize {
    /// Measures the `result` of a `tools/list` response.
    pub fn of(result: &Value) -> Result<Self> {
        let listed = result
            .get("tools")
            .and_then(Value::as_array)
            .ok_or_else(|| error(format!("tools/list answered without tools: {result}")))?;
        let tools: Vec<ToolSize> = listed
            .iter()
            .map(|tool| {
                let shown: Map<String, Value> =
                    SHOWN.iter().filter_map(|field| Some(((*field).to_owned(), tool.get(*field)?.clone()))).collect();
                ToolSize {
                    name: tool.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    total: bytes(tool),
                    shown: bytes(&Value::Object(shown)),
                    input_schema: tool.get("inputSchema").map_or(0, bytes),
                    output_schema: tool.get("outputSchema").map_or(0, bytes),
                }
            })
            .collect();
        Ok(Self {
            total: bytes(result),
            shown: tools.iter().map(|tool| tool.shown).sum(),
            output_schemas: tools.iter().map(|tool| tool.output_schema).sum(),
            tools,
        })
    }

    /// A table for people: one line per tool, then the totals, in bytes and KB (1000 bytes).
    pub fn table(&self) -> String {
        let kb = |bytes: usize| format!("{:.1} KB", bytes as f64 / 1000.0);
        let mut lines = vec![format!("{:<32} {:>9} {:>9} {:>9} {:>9}", "tool", "total", "shown", "input", "output")];
        for tool in &self.tools {
            lines.push(format!(
                "{:<32} {:>9} {:>9} {:>9} {:>9}",
                tool.name, tool.total, tool.shown, tool.input_schema, tool.output_schema
            ));
        }
        lines.push(format!(
            "{} tools: tools/list {} bytes ({}); shown to the model {} bytes ({}); output schemas {} bytes ({})",
            self.tools.len(),
            self.total,
            kb(self.total),
            self.shown,
            kb(self.shown),
            self.output_schemas,
            kb(self.output_schemas)
        ));
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_part_is_counted_once_and_totals_add_up() {
        let tool = json!({
            "name": "t", "title": "T", "description": "Does.", "inputSchema": { "type": "object" },
            "outputSchema": { "type": "object", "properties": {} }, "annotations": { "readOnlyHint": true }
        });
        let result = json!({ "tools": [tool.clone(), tool] });
        let size = ToolListSize::of(&result).unwrap();
        assert_eq!(size.total, result.to_string().len());
        let shown = json!({ "name": "t", "title": "T", "description": "Does.", "inputSchema": { "type": "object" } });
        assert_eq!(size.tools[0].shown, shown.to_string().len());
        assert_eq!(size.shown, 2 * shown.to_string().len());
        assert_eq!(size.output_schemas, 2 * r#"{"properties":{},"type":"object"}"#.len());
        assert!(ToolListSize::of(&json!({})).is_err());
    }
}
