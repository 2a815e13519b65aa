//! Resources: data a plugin lets clients read by URI (MCP
//! `resources/list`, `resources/templates/list`, `resources/read`), either
//! at a fixed URI or at every URI of a template such as
//! `test://items/{id}`.

use std::{future::Future, pin::Pin, sync::Arc};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{CallContext, Root, ToolError};

/// Where a resource lives: one URI, or a URI template.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ResourceAddress {
    /// A fixed URI.
    Uri {
        /// The URI.
        uri: String,
    },
    /// An RFC 6570 level-1 template (`{name}` segments).
    Template {
        /// The template.
        #[serde(rename = "uriTemplate")]
        uri_template: String,
    },
}

/// A resource's description, as clients see it in the listings.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSpec {
    #[serde(flatten)]
    address: ResourceAddress,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mime_type: Option<String>,
}

impl ResourceSpec {
    /// A resource at a fixed URI.
    pub fn at(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self::new(ResourceAddress::Uri { uri: uri.into() }, name)
    }

    /// A family of resources at the URIs of a template.
    pub fn template(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self::new(ResourceAddress::Template { uri_template: uri_template.into() }, name)
    }

    fn new(address: ResourceAddress, name: impl Into<String>) -> Self {
        Self { address, name: name.into(), title: None, description: None, mime_type: None }
    }

    /// A short human-readable name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the resource is.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The MIME type of its contents.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The resource's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the resource lives.
    pub fn address(&self) -> &ResourceAddress {
        &self.address
    }
}

/// The contents of a resource, in the MCP wire format.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text.
    Text {
        /// The URI that was read.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Binary data, base64-encoded.
    Blob {
        /// The URI that was read.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Base64 data.
        blob: String,
    },
}

impl ResourceContents {
    /// Text contents.
    pub fn text(uri: impl Into<String>, mime_type: impl Into<String>, text: impl Into<String>) -> Self {
        Self::Text { uri: uri.into(), mime_type: Some(mime_type.into()), text: text.into() }
    }

    /// Binary contents from base64 data.
    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, blob: impl Into<String>) -> Self {
        Self::Blob { uri: uri.into(), mime_type: Some(mime_type.into()), blob: blob.into() }
    }
}

/// What the host knows of the client a resource is read for. A read is no call: there is no
/// client to ask, so the host asks on the resource's behalf and hands over the answers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct ReadRequest {
    /// The reading client's workspace folders (`roots/list`); `None` when the client declares
    /// no roots, did not answer, or the host predates this.
    #[serde(default)]
    pub roots: Option<Vec<Root>>,
}

/// A readable resource (or family of resources).
///
/// Implement [`Self::read`], or [`Self::read_in`] when the contents depend
/// on the client (its roots), or [`Self::read_with`] when reading needs the
/// request (its cancel signal, progress, logs to the client). The host calls
/// [`Self::read_with`], whose default body calls the others.
pub trait Resource: Send + Sync + 'static {
    /// Where it lives and what it is.
    fn spec(&self) -> ResourceSpec;

    /// Reads the resource at `uri` (one of the template's URIs, for a
    /// template; [`template_values`] extracts its variables). An `Err`
    /// reaches the client as a JSON-RPC error: `-32002` (resource not found)
    /// when made with [`ToolError::not_found`], `-32602` (invalid params) with
    /// [`ToolError::invalid_argument`], else `-32603` (internal error) naming
    /// the plugin.
    fn read(&self, uri: &str) -> impl Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send {
        let _ = uri;
        std::future::ready(Err(ToolError::new(format!(
            "resource '{}' cannot be read: it implements none of Resource::read, read_in and read_with",
            self.spec().name()
        ))))
    }

    /// Reads the resource at `uri` for the client `request` describes: implement it instead of
    /// [`Self::read`] when the contents depend on the client (its roots). By default, `read`.
    fn read_in(
        &self,
        uri: &str,
        request: &ReadRequest,
    ) -> impl Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send {
        let _ = request;
        self.read(uri)
    }

    /// Reads the resource at `uri` for one request: `ctx` is the request's, as a tool call's is.
    /// The host stops a read that outlives its time limit or that the client cancels as it stops
    /// a tool call: the cancel signal, then the future is dropped. By default, [`Self::read_in`].
    fn read_with(
        &self,
        uri: &str,
        request: &ReadRequest,
        ctx: CallContext,
    ) -> impl Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send {
        let _ = ctx;
        self.read_in(uri, request)
    }
}

type BoxReadFuture = Pin<Box<dyn Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send + 'static>>;

trait ErasedResource: Send + Sync + 'static {
    fn spec(&self) -> ResourceSpec;
    fn read_boxed(self: Arc<Self>, uri: String, request: ReadRequest, ctx: CallContext) -> BoxReadFuture;
}

impl<T: Resource> ErasedResource for T {
    fn spec(&self) -> ResourceSpec {
        Resource::spec(self)
    }

    fn read_boxed(self: Arc<Self>, uri: String, request: ReadRequest, ctx: CallContext) -> BoxReadFuture {
        Box::pin(async move { self.read_with(&uri, &request, ctx).await })
    }
}

/// A type-erased resource, as a plugin hands its resources to `export_plugin!`.
#[derive(Clone)]
pub struct BoxedResource(Arc<dyn ErasedResource>);

impl BoxedResource {
    /// The resource's description.
    pub fn spec(&self) -> ResourceSpec {
        self.0.spec()
    }

    /// Reads `uri` for the client `request` describes, with no request behind it (never
    /// cancelled); the future owns what it needs.
    pub fn read(
        &self,
        uri: String,
        request: ReadRequest,
    ) -> impl Future<Output = Result<Vec<ResourceContents>, ToolError>> + 'static {
        self.read_with(uri, request, CallContext::detached(None))
    }

    /// Reads `uri` for the request `ctx` belongs to.
    pub fn read_with(
        &self,
        uri: String,
        request: ReadRequest,
        ctx: CallContext,
    ) -> impl Future<Output = Result<Vec<ResourceContents>, ToolError>> + 'static {
        Arc::clone(&self.0).read_boxed(uri, request, ctx)
    }
}

impl<T: Resource> From<T> for BoxedResource {
    fn from(resource: T) -> Self {
        Self(Arc::new(resource))
    }
}

/// Matches `uri` against an RFC 6570 level-1 template and returns the
/// values of its variables; a variable matches one or more characters up
/// to the next literal part of the template, never a `/`.
///
/// ```
/// use mcp_plugin_api::template_values;
/// let values = template_values("test://template/{id}/data", "test://template/42/data").unwrap();
/// assert_eq!(values["id"], "42");
/// assert!(template_values("test://template/{id}/data", "test://template/4/2/data").is_none());
/// ```
pub fn template_values(template: &str, uri: &str) -> Option<Map<String, Value>> {
    let mut values = Map::new();
    let mut rest = uri;
    let mut parts = template.split('{');
    let head = parts.next()?;
    rest = rest.strip_prefix(head)?;
    for part in parts {
        let (name, literal) = part.split_once('}')?;
        let end = if literal.is_empty() { rest.len() } else { rest.find(literal)? };
        let value = &rest[..end];
        if value.is_empty() || value.contains('/') {
            return None;
        }
        values.insert(name.to_owned(), Value::String(value.to_owned()));
        rest = rest[end..].strip_prefix(literal)?;
    }
    rest.is_empty().then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_whole_segments_only() {
        assert_eq!(template_values("a://{x}", "a://1").unwrap()["x"], "1");
        assert_eq!(template_values("a://{x}/{y}.json", "a://p/q.json").unwrap()["y"], "q");
        assert!(template_values("a://{x}", "a://").is_none());
        assert!(template_values("a://{x}/b", "a://1/c").is_none());
        assert!(template_values("a://fixed", "a://fixed").unwrap().is_empty());
        assert!(template_values("a://fixed", "a://fixed/more").is_none());
    }
}
