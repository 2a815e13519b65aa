//! Fixture rendering: fixtures are plain text or JSON with `{{name}}` placeholders.
//!
//! In text fixtures a line that starts with `2> ` (or is exactly `2>`) goes to stderr; every
//! other line goes to stdout (see [`crate::out::text`]).

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
