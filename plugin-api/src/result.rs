//! What a tool returns: content for the model, structured content for
//! programs.
//!
//! MCP separates the two audiences. `content` is what the model reads: say
//! what happened in a few sentences. `structuredContent` is strict JSON for
//! programs, checked against the tool's output schema. Do not dump the same
//! JSON into both; write prose for the model and data for programs.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One block of a result's `content`, in the MCP wire format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// Text for the model.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data.
        data: String,
        /// For example `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// Base64 data.
        data: String,
        /// For example `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A link to a resource the client may fetch.
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// A name for the resource.
        name: String,
        /// What the resource is.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// Its MIME type, when known.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A resource embedded in the result.
    Resource {
        /// The resource's contents.
        resource: EmbeddedResource,
    },
}

/// The contents of an embedded resource: text or a base64 blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// Its MIME type, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text contents (exclusive with `blob`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Base64 contents (exclusive with `text`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text { text: text.into() }
    }

    /// An image block from base64 data.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Image { data: data.into(), mime_type: mime_type.into() }
    }

    /// An audio block from base64 data.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Audio { data: data.into(), mime_type: mime_type.into() }
    }

    /// A link to a resource.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self::ResourceLink { uri: uri.into(), name: name.into(), description: None, mime_type: None }
    }

    /// An embedded text resource.
    pub fn embedded_text(uri: impl Into<String>, mime_type: impl Into<String>, text: impl Into<String>) -> Self {
        Self::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: Some(text.into()),
                blob: None,
            },
        }
    }

    /// An embedded binary resource from base64 data.
    pub fn embedded_blob(uri: impl Into<String>, mime_type: impl Into<String>, blob: impl Into<String>) -> Self {
        Self::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: None,
                blob: Some(blob.into()),
            },
        }
    }
}

/// The result of one tool call, in the MCP `CallToolResult` wire format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    /// Blocks for the model.
    pub content: Vec<Content>,
    /// JSON for programs; must match the tool's output schema on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the call failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Protocol-level metadata (`_meta`).
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ToolResult {
    /// A successful result with the given blocks.
    pub fn new(content: Vec<Content>) -> Self {
        Self { content, structured_content: None, is_error: false, meta: None }
    }

    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(vec![Content::text(text)])
    }

    /// A failed result with one text block the model can act on.
    pub fn error(message: impl Into<String>) -> Self {
        Self { is_error: true, ..Self::text(message) }
    }

    /// Adds structured content for programs.
    pub fn with_structured(mut self, value: Value) -> Self {
        self.structured_content = Some(value);
        self
    }

    /// Adds a `_meta` entry.
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// Appends a content block.
    pub fn with_content(mut self, block: Content) -> Self {
        self.content.push(block);
        self
    }

    /// The text of all text blocks, joined by newlines (handy in tests).
    pub fn joined_text(&self) -> String {
        self.content
            .iter()
            .filter_map(|block| match block {
                Content::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn serializes_in_the_mcp_wire_format() {
        let result = ToolResult::text("hi")
            .with_structured(json!({"n": 1}))
            .with_content(Content::image("AAAA", "image/png"))
            .with_content(Content::embedded_text("test://x", "text/plain", "body"));
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({
                "content": [
                    {"type": "text", "text": "hi"},
                    {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                    {"type": "resource", "resource": {"uri": "test://x", "mimeType": "text/plain", "text": "body"}}
                ],
                "structuredContent": {"n": 1}
            })
        );
    }

    #[test]
    fn error_results_carry_is_error() {
        let value = serde_json::to_value(ToolResult::error("boom")).unwrap();
        assert_eq!(value["isError"], json!(true));
        assert_eq!(value["content"][0]["text"], json!("boom"));
    }
}
