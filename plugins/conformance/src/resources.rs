//! The resources the conformance suite reads, subscribes to and lists
//! (resources-* scenarios).

use mcp_plugin_api::{Resource, ResourceContents, ResourceSpec, ToolError, template_values};
use serde_json::json;

use crate::IMAGE_PNG_BASE64;

/// A text resource at a fixed URI.
pub struct StaticText;

impl Resource for StaticText {
    fn spec(&self) -> ResourceSpec {
        ResourceSpec::at("test://static-text", "static-text")
            .title("Static text")
            .description("A fixed text resource.")
            .mime_type("text/plain")
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::text(uri, "text/plain", "This is the content of the static text resource.")])
    }
}

/// A binary resource at a fixed URI.
pub struct StaticBinary;

impl Resource for StaticBinary {
    fn spec(&self) -> ResourceSpec {
        ResourceSpec::at("test://static-binary", "static-binary")
            .title("Static binary")
            .description("A fixed PNG image.")
            .mime_type("image/png")
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::blob(uri, "image/png", IMAGE_PNG_BASE64)])
    }
}

/// A resource the suite subscribes to.
pub struct WatchedResource;

impl Resource for WatchedResource {
    fn spec(&self) -> ResourceSpec {
        ResourceSpec::at("test://watched-resource", "watched-resource")
            .description("A resource clients may subscribe to.")
            .mime_type("text/plain")
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ToolError> {
        Ok(vec![ResourceContents::text(uri, "text/plain", "Watched resource content.")])
    }
}

/// A family of JSON resources, one per id.
pub struct TemplateData;

impl Resource for TemplateData {
    fn spec(&self) -> ResourceSpec {
        ResourceSpec::template("test://template/{id}/data", "template-data")
            .title("Template data")
            .description("JSON data for any id.")
            .mime_type("application/json")
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ToolError> {
        let values = template_values("test://template/{id}/data", uri)
            .ok_or_else(|| ToolError::new(format!("'{uri}' is not of the form test://template/{{id}}/data")))?;
        let id = values["id"].as_str().unwrap_or_default();
        let text = json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") }).to_string();
        Ok(vec![ResourceContents::text(uri, "application/json", text)])
    }
}
