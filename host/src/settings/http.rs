//! The `Http` section, resolved: the streamable HTTP transport.

use std::{net::SocketAddr, path::Path};

/// The streamable HTTP transport (`Http` section).
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// Where to listen when `--http` gives no address.
    pub address: SocketAddr,
    /// Extra `Host` header values to accept besides loopback names.
    pub allowed_hosts: Vec<String>,
    /// Browser origins to accept; empty means requests with an `Origin`
    /// header are accepted only from loopback origins.
    pub allowed_origins: Vec<String>,
    /// A bearer token every request must carry; required for a
    /// non-loopback address. From `Http.BearerToken`, or read from the file
    /// `Http.BearerTokenFile` names, so that the token need not sit in the
    /// configuration.
    pub bearer_token: Option<String>,
}

/// The HTTP bearer token: `Http.BearerToken`, or the contents of
/// `Http.BearerTokenFile` (surrounding whitespace, such as the final newline
/// an editor adds, is not part of it). Naming both is an error, as is a file
/// that cannot be read or holds no token.
pub(super) fn bearer_token(base: &Path, token: Option<String>, file: Option<String>) -> Result<Option<String>, String> {
    let token = token.filter(|token| !token.is_empty());
    let Some(file) = file.filter(|file| !file.is_empty()) else { return Ok(token) };
    if token.is_some() {
        return Err("Http.BearerToken and Http.BearerTokenFile are both set; keep one".to_owned());
    }
    let file = base.join(file);
    let text = std::fs::read_to_string(&file)
        .map_err(|error| format!("Http.BearerTokenFile {} cannot be read: {error}", file.display()))?;
    match text.trim() {
        "" => Err(format!("Http.BearerTokenFile {} is empty", file.display())),
        token => Ok(Some(token.to_owned())),
    }
}
