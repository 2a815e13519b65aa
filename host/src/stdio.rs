//! The stdio transport: newline-delimited JSON-RPC on stdin and stdout,
//! with an answer for every request a client can be waiting on.
//!
//! rmcp's own line transport stays silent on a line that is not JSON and
//! drops an oversized line with a server-side log only; a client that sent
//! either waits forever. This transport keeps rmcp's framing (one message per
//! line, a bounded line buffer that survives a cancelled read) and answers
//! instead, as JSON-RPC 2.0 asks:
//!
//! * a line that is not JSON: `-32700` (parse error) with `"id": null`;
//! * JSON that is not a valid request: `-32600` (invalid request) with the
//!   request's `id` when it has one, `null` otherwise;
//! * a line longer than the limit (`Host.MaxMessageBytes`): `-32600`, with
//!   the `id` read from the start of the line when it can be.
//!
//! Notifications and responses from the client get no answer (JSON-RPC never
//! answers them); a malformed one is logged.
//!
//! A change of the client's roots is noted as its notification is read, before
//! the next message is (see [`crate::roots`]): rmcp handles messages
//! concurrently, and a call sent after the change must not run with the roots
//! from before it.

use std::sync::Arc;

use crate::roots::{ChangeNoted, SessionRoots};
use rmcp::{
    RoleServer,
    model::{ClientNotification, JsonRpcMessage},
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader},
    sync::Mutex,
};

/// JSON-RPC's "parse error".
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "invalid request".
const INVALID_REQUEST: i64 = -32600;
/// How much of an oversized line is kept to find its `id`.
const ID_SCAN_BYTES: usize = 64 * 1024;

/// A server transport over a byte reader and writer (stdin and stdout).
pub struct LineTransport<R, W> {
    reader: BufReader<R>,
    writer: Arc<Mutex<W>>,
    max_message_bytes: usize,
    /// The line read so far (kept across a cancelled `receive`).
    line: Vec<u8>,
    /// Set while skipping the rest of an oversized line: its size so far and the start kept to
    /// find its `id`.
    oversized: Option<(usize, Vec<u8>)>,
    /// The session's roots, told of a change as soon as it is read.
    roots: Option<Arc<SessionRoots>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineTransport<R, W> {
    /// A transport reading messages of at most `max_message_bytes` from `reader`.
    pub fn new(reader: R, writer: W, max_message_bytes: usize) -> Self {
        Self {
            reader: BufReader::new(reader),
            writer: Arc::new(Mutex::new(writer)),
            max_message_bytes,
            line: Vec::new(),
            oversized: None,
            roots: None,
        }
    }

    /// Tells `roots` of a change of the client's roots as soon as its notification is read.
    pub fn noting_roots_changes(mut self, roots: Arc<SessionRoots>) -> Self {
        self.roots = Some(roots);
        self
    }
}

/// What one bounded read produced.
enum Read {
    /// A whole line is in `line`.
    Line,
    /// A line over the limit ended: its size and the start of it.
    Oversized(usize, Vec<u8>),
    /// The input ended (or failed).
    End,
}

impl<R: AsyncRead + Unpin, W> LineTransport<R, W> {
    /// Reads one line without letting the buffer grow past the limit. Cancel-safe: every byte
    /// consumed from the reader is recorded in `self` before the next await.
    async fn read_line(&mut self) -> Read {
        loop {
            let available = match self.reader.fill_buf().await {
                Ok([]) => return Read::End,
                Ok(available) => available,
                Err(error) => {
                    tracing::error!("reading stdin failed: {error}");
                    return Read::End;
                }
            };
            let newline = available.iter().position(|&byte| byte == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let chunk = &available[..take];
            if let Some((size, start)) = &mut self.oversized {
                *size += chunk.len();
                let room = ID_SCAN_BYTES.saturating_sub(start.len());
                start.extend_from_slice(&chunk[..room.min(chunk.len())]);
            } else if self.line.len() + chunk.len() > self.max_message_bytes {
                let mut start = std::mem::take(&mut self.line);
                let size = start.len() + chunk.len();
                start.truncate(ID_SCAN_BYTES);
                let room = ID_SCAN_BYTES.saturating_sub(start.len());
                start.extend_from_slice(&chunk[..room.min(chunk.len())]);
                self.oversized = Some((size, start));
            } else {
                self.line.extend_from_slice(chunk);
            }
            self.reader.consume(take);
            if newline.is_some() {
                return match self.oversized.take() {
                    Some((size, start)) => Read::Oversized(size, start),
                    None => Read::Line,
                };
            }
        }
    }
}

impl<R, W> LineTransport<R, W>
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// Writes an error answer. It runs as its own task, so a `receive` dropped by rmcp's select
    /// loop cannot cut a line in half.
    fn answer_error(&self, id: Value, code: i64, message: String) {
        let mut line = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }).to_string();
        line.push('\n');
        let writer = Arc::clone(&self.writer);
        tokio::spawn(async move {
            let mut writer = writer.lock().await;
            if writer.write_all(line.as_bytes()).await.is_ok() {
                let _ = writer.flush().await;
            }
        });
    }

    /// Decides what a line that rmcp's message types refused deserves.
    fn refuse(&self, line: &[u8], error: &serde_json::Error) {
        if error.is_syntax() || error.is_eof() {
            tracing::warn!("a message from the client is not JSON: {error}");
            self.answer_error(Value::Null, PARSE_ERROR, format!("Parse error: the message is not JSON ({error})."));
            return;
        }
        let message: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
        let id = message.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
        match (message.get("method"), id) {
            (Some(_), Some(id)) => {
                tracing::warn!("invalid request {id} from the client: {error}");
                self.answer_error(id, INVALID_REQUEST, format!("Invalid request: {error}."));
            }
            (Some(method), None) => tracing::warn!("ignored a malformed notification {method}: {error}"),
            (None, _) if message.get("result").is_some() || message.get("error").is_some() => {
                tracing::warn!("ignored a malformed response from the client: {error}");
            }
            (None, _) => {
                tracing::warn!("invalid message from the client: {error}");
                self.answer_error(
                    Value::Null,
                    INVALID_REQUEST,
                    format!("Invalid request: not a JSON-RPC 2.0 request, notification or response ({error})."),
                );
            }
        }
    }
}

impl<R, W> LineTransport<R, W> {
    /// Notes a change of the client's roots in the session before the message is handed on.
    fn note(&self, message: &mut RxJsonRpcMessage<RoleServer>) {
        if let (Some(roots), JsonRpcMessage::Notification(notification)) = (&self.roots, message)
            && let ClientNotification::RootsListChangedNotification(changed) = &mut notification.notification
        {
            roots.forget();
            changed.extensions.insert(ChangeNoted);
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            let mut writer = writer.lock().await;
            writer.write_all(&line).await?;
            writer.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Read::End => return None,
                Read::Oversized(size, start) => {
                    let id = id_at_start(&start).unwrap_or(Value::Null);
                    tracing::warn!(
                        bytes = size,
                        limit = self.max_message_bytes,
                        "refused a message over the size limit (Host.MaxMessageBytes)"
                    );
                    self.answer_error(
                        id,
                        INVALID_REQUEST,
                        format!(
                            "Invalid request: the message is {size} bytes long, over this server's limit of {} bytes \
                             (Host.MaxMessageBytes).",
                            self.max_message_bytes
                        ),
                    );
                }
                Read::Line => {
                    let line = std::mem::take(&mut self.line);
                    let text = trim_line(&line);
                    if text.is_empty() {
                        self.line = line;
                        self.line.clear();
                        continue;
                    }
                    let parsed = serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(text);
                    match parsed {
                        Ok(mut message) => {
                            self.line = line;
                            self.line.clear();
                            self.note(&mut message);
                            return Some(message);
                        }
                        Err(error) => self.refuse(text, &error),
                    }
                    self.line = line;
                    self.line.clear();
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.shutdown().await
    }
}

/// The line without its newline, a carriage return before it, or a UTF-8 byte-order mark.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

/// The `id` of a JSON-RPC message read from the start of its text, when the start holds a
/// top-level `"id"` member with a string or number value. Members nested in `params` are
/// skipped, so an argument called `id` is never taken for the request's.
fn id_at_start(start: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(start);
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let end = string_end(bytes, at)?;
                if depth == 1 && &bytes[at..=end] == b"\"id\"" {
                    let rest = text[end + 1..].trim_start().strip_prefix(':')?.trim_start();
                    return first_value(rest);
                }
                at = end;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// Where the JSON string opening at `start` closes.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// The string or number that `text` starts with.
fn first_value(text: &str) -> Option<Value> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match values.next() {
        Some(Ok(value)) if value.is_string() || value.is_number() => Some(value),
        // A number cut off by what follows it (`7,"method"…`) parses as trailing characters.
        _ => {
            let digits: String = text.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
            digits.parse::<i64>().ok().map(Value::from)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_read_from_the_top_level_only() {
        assert_eq!(id_at_start(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"#), Some(json!(7)));
        assert_eq!(id_at_start(br#"{"id": "abc" , "method":"x"}"#), Some(json!("abc")));
        assert_eq!(id_at_start(br#"{"method":"x","params":{"id":9,"text":"aaaa"#), None);
        assert_eq!(id_at_start(br#"{"method":"x","params":{"id":9},"id":4,"#), Some(json!(4)));
        assert_eq!(id_at_start(br#"{"method":"x","params":{"note":"\"id\": 5"},"id":"q"}"#), Some(json!("q")));
        assert_eq!(id_at_start(br#"{"method":"x","params":{"text":"aaaaaa"#), None);
        assert_eq!(id_at_start(b"not json at all"), None);
    }

    #[tokio::test]
    async fn a_change_of_roots_is_noted_before_the_next_message_is_read() {
        let roots = Arc::new(SessionRoots::default());
        let input = concat!(
            r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            "\n"
        );
        let mut transport =
            LineTransport::new(input.as_bytes(), tokio::io::sink(), 1024).noting_roots_changes(Arc::clone(&roots));
        let Some(JsonRpcMessage::Notification(changed)) = transport.receive().await else {
            panic!("the notification comes first");
        };
        assert_eq!(roots.changes(), 1, "noted as it was read");
        let ClientNotification::RootsListChangedNotification(changed) = changed.notification else {
            panic!("a roots change");
        };
        assert!(changed.extensions.get::<ChangeNoted>().is_some(), "marked, so its handler does not count it again");
        assert!(matches!(transport.receive().await, Some(JsonRpcMessage::Request(_))));
        assert_eq!(roots.changes(), 1);
    }

    #[test]
    fn lines_lose_their_newline_carriage_return_and_bom() {
        assert_eq!(trim_line(b"\xEF\xBB\xBF{}\r\n"), b"{}");
        assert_eq!(trim_line(b"{}"), b"{}");
    }
}
