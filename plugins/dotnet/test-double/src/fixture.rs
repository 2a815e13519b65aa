//! Fixture rendering: fixtures are plain text or JSON with `{{name}}` placeholders.
//!
//! Every fixture starts with a header of `## ` lines that says where its text comes from:
//! `## recorded: ...` (copied from a recording of the real SDK) or `## hand-made: <why>` (a
//! failure mode no recording can capture, a state no scenario records, or a fixture pending a
//! family's fix; `tests/double.rs` fails for a fixture with neither mark). [`body`] drops the
//! header. In text fixtures a line that starts with `2> ` (or is exactly `2>`) goes to stderr,
//! one that starts with `1> ` to stdout; every other line goes to stdout (see
//! [`crate::out::text`]).

/// A fixture without its header (the leading `## ` lines).
pub const fn body(text: &'static str) -> &'static str {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start + 2 < bytes.len() && bytes[start] == b'#' && bytes[start + 1] == b'#' && bytes[start + 2] == b' ' {
        while start < bytes.len() && bytes[start] != b'\n' {
            start += 1;
        }
        if start < bytes.len() {
            start += 1;
        }
    }
    text.split_at(start).1
}

/// Placeholder values for one rendering.
#[derive(Clone, Default)]
pub struct Vars(Vec<(String, String)>);

impl Vars {
    /// Returns the set with `name` bound to `value` (a later binding wins).
    pub fn with(mut self, name: &str, value: &str) -> Vars {
        self.0.retain(|(n, _)| n != name);
        self.0.push((name.to_string(), value.to_string()));
        self
    }

    /// The value bound to `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Replaces every `{{name}}` in `template`.
    ///
    /// # Panics
    /// On a placeholder without a value: that is a fixture bug, and the crate's tests render
    /// every fixture so that it shows up there.
    pub fn render(&self, template: &str) -> String {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let end = after.find("}}").unwrap_or_else(|| panic!("unclosed placeholder in fixture: {rest}"));
            let name = after[..end].trim();
            let value = self.get(name).unwrap_or_else(|| panic!("fixture placeholder {{{{{name}}}}} has no value"));
            out.push_str(value);
            rest = &after[end + 2..];
        }
        out.push_str(rest);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Vars;

    #[test]
    fn the_header_is_not_part_of_the_body() {
        assert_eq!(super::body("## hand-made: why\n## more\nline\n## not header\n"), "line\n## not header\n");
        assert_eq!(super::body("no header\n"), "no header\n");
        assert_eq!(super::body("## only a header\n"), "");
    }

    #[test]
    fn renders_placeholders_and_keeps_other_text() {
        let vars = Vars::default().with("a", "1").with("b", "two").with("a", "one");
        assert_eq!(vars.render("x {{a}} y {{ b }} z"), "x one y two z");
        assert_eq!(vars.render("no placeholders"), "no placeholders");
    }

    #[test]
    #[should_panic(expected = "has no value")]
    fn unknown_placeholder_panics() {
        Vars::default().render("{{missing}}");
    }
}
