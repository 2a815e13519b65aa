//! Tools that return fixed content: one per content type the suite checks,
//! one mixing them, and one that fails on purpose.

use mcp_plugin_api::{CallContext, Content, Tool, ToolError, ToolOutcome, ToolResult, ToolSpec};
use serde_json::Value;

use crate::fixture;

/// A PNG image, 1×1 pixel, 8-bit RGB, red, base64-encoded (69 bytes).
pub const IMAGE_PNG_BASE64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC";

/// A WAV file, PCM mono 8000 Hz 16-bit, 8 samples of silence,
/// base64-encoded (60 bytes).
pub const AUDIO_WAV_BASE64: &str = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

/// Returns one text block (`tools-call-simple-text`). The suite calls it
/// without an `arguments` key, so it reads no arguments at all.
pub struct TestSimpleText;

impl Tool for TestSimpleText {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_simple_text",
            "Simple text",
            "Returns a fixed sentence as a single text block. Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
        Ok(ToolResult::text("This is a simple text response for testing."))
    }
}

/// Returns one image block (`tools-call-image`).
pub struct TestImageContent;

impl Tool for TestImageContent {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_image_content",
            "Image content",
            "Returns a 1x1 red PNG image as a single image block. Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
        Ok(ToolResult::new(vec![Content::image(IMAGE_PNG_BASE64, "image/png")]))
    }
}

/// Returns one audio block of MIME type `audio/wav` (`tools-call-audio`).
pub struct TestAudioContent;

impl Tool for TestAudioContent {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_audio_content",
            "Audio content",
            "Returns a short silent WAV clip as a single audio block. Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
        Ok(ToolResult::new(vec![Content::audio(AUDIO_WAV_BASE64, "audio/wav")]))
    }
}

/// Returns one embedded text resource (`tools-call-embedded-resource`).
pub struct TestEmbeddedResource;

impl Tool for TestEmbeddedResource {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_embedded_resource",
            "Embedded resource",
            "Returns a plain-text resource (test://embedded-resource) embedded in the result. \
             Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
        Ok(ToolResult::new(vec![Content::embedded_text(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]))
    }
}

/// Returns a text, an image and an embedded resource block, in that order
/// (`tools-call-mixed-content`).
pub struct TestMultipleContentTypes;

impl Tool for TestMultipleContentTypes {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_multiple_content_types",
            "Multiple content types",
            "Returns three blocks of different types: a text, a PNG image and an embedded JSON \
             resource. Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
        Ok(ToolResult::new(vec![
            Content::text("Multiple content types test:"),
            Content::image(IMAGE_PNG_BASE64, "image/png"),
            Content::embedded_text(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            ),
        ]))
    }
}

/// Fails on purpose: a result with `isError: true` whose first block is
/// text, not a protocol error (`tools-call-error`).
pub struct TestErrorHandling;

impl Tool for TestErrorHandling {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_error_handling",
            "Error handling",
            "Always fails: returns an error result (isError: true) with an explanatory text, to \
             test how clients handle tool errors. Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
        Err(ToolError::new("This tool intentionally returns an error for testing"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_plugin_api::testkit::TestCall;
    use serde_json::json;

    fn wire(tool: &impl Tool, args: Value) -> Value {
        serde_json::to_value(TestCall::new().run(tool, args)).unwrap()
    }

    /// Decodes standard base64 (with padding), so the byte data can be
    /// compared with the bytes the spec lists.
    fn decode_base64(text: &str) -> Vec<u8> {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        assert_eq!(text.len() % 4, 0, "base64 length");
        let (mut bits, mut count, mut bytes) = (0u32, 0u32, Vec::new());
        for symbol in text.trim_end_matches('=').bytes() {
            let value = ALPHABET.iter().position(|&c| c == symbol).expect("a base64 symbol");
            bits = (bits << 6) | value as u32;
            count += 6;
            if count >= 8 {
                count -= 8;
                bytes.push((bits >> count) as u8);
                bits &= (1 << count) - 1;
            }
        }
        assert_eq!(bits, 0, "no stray bits");
        bytes
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    #[test]
    fn simple_text_needs_no_arguments() {
        let expected = json!({
            "content": [{"type": "text", "text": "This is a simple text response for testing."}]
        });
        assert_eq!(wire(&TestSimpleText, json!({})), expected);
    }

    #[test]
    fn image_content_is_a_png_block() {
        assert_eq!(
            wire(&TestImageContent, json!({})),
            json!({"content": [{"type": "image", "data": IMAGE_PNG_BASE64, "mimeType": "image/png"}]})
        );
    }

    #[test]
    fn audio_content_is_a_wav_block() {
        assert_eq!(
            wire(&TestAudioContent, json!({})),
            json!({"content": [{"type": "audio", "data": AUDIO_WAV_BASE64, "mimeType": "audio/wav"}]})
        );
    }

    #[test]
    fn embedded_resource_has_uri_mime_type_and_text() {
        assert_eq!(
            wire(&TestEmbeddedResource, json!({})),
            json!({"content": [{"type": "resource", "resource": {
                "uri": "test://embedded-resource",
                "mimeType": "text/plain",
                "text": "This is an embedded resource content."
            }}]})
        );
    }

    #[test]
    fn multiple_content_types_are_text_image_and_resource() {
        assert_eq!(
            wire(&TestMultipleContentTypes, json!({})),
            json!({"content": [
                {"type": "text", "text": "Multiple content types test:"},
                {"type": "image", "data": IMAGE_PNG_BASE64, "mimeType": "image/png"},
                {"type": "resource", "resource": {
                    "uri": "test://mixed-content-resource",
                    "mimeType": "application/json",
                    "text": "{\"test\":\"data\",\"value\":123}"
                }}
            ]})
        );
    }

    #[test]
    fn error_handling_returns_an_error_result_starting_with_text() {
        assert_eq!(
            wire(&TestErrorHandling, json!({})),
            json!({
                "content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}],
                "isError": true
            })
        );
    }

    #[test]
    fn the_png_has_the_bytes_of_the_spec() {
        let bytes = decode_base64(IMAGE_PNG_BASE64);
        assert_eq!(bytes.len(), 69);
        assert_eq!(
            hex(&bytes),
            "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da\
             63f8cfc0000003010100f70341430000000049454e44ae426082"
        );
    }

    #[test]
    fn the_wav_has_the_bytes_of_the_spec() {
        let bytes = decode_base64(AUDIO_WAV_BASE64);
        assert_eq!(bytes.len(), 60);
        assert_eq!(
            hex(&bytes),
            "524946463400000057415645666d74201000000001000100401f0000803e00000200100064617461\
             1000000000000000000000000000000000000000"
        );
    }
}
