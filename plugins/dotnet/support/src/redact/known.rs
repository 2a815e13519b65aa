//! Known-value redaction: the second layer beside the patterns of [`super::redact`]. The secret
//! values this machine holds (learned by [`super::learn`]) are searched for exactly, with their
//! common encodings, wherever they appear in any output and whatever surrounds them, so a secret
//! the patterns cannot recognise (a password printed bare, inside a word, in a form nobody
//! listed) is still hidden.
//!
//! All values and their encodings go into one Aho-Corasick automaton (leftmost-longest, so a
//! value that contains another is hidden whole), searched in one pass over the text: the cost
//! does not grow with the number of values. [`install`] makes a set the one [`super::redact`]
//! applies first, before the patterns, so no pattern can rewrite part of a value before it is
//! found.
//!
//! What is learned never leaves the process: it is kept only in the automaton, the type's
//! `Debug` shows counts only, and nothing here logs.
//!
//! Which values are too short or too common to redact safely ([`worth_masking`]): fewer than 8
//! characters, or a single word or number of fewer than 16 (`postgres`, `Development`,
//! `12345678`), a value that only stands in for a secret (`***`, `${VAR}`, `[REDACTED]`), or a
//! path (`/run/secrets/db`: where a secret is, not the secret). Such values would match inside
//! ordinary output (a user name, a log level, a port, a project's path) and garble it; the
//! patterns still catch them where a label marks them.

use std::{
    borrow::Cow,
    sync::{
        Arc, RwLock,
        atomic::{AtomicBool, Ordering},
    },
};

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use base64::{Engine, engine::general_purpose};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use super::REDACTED;

/// A secret value this machine holds, with the user it belongs to when the source names one
/// (a `.pgpass` or `.netrc` entry, a NuGet source's credentials), so that the HTTP Basic form
/// of the pair (`base64(user:password)`) is found too.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Secret {
    /// The value, exactly as the source holds it (decoded from the source's own escaping).
    pub value: String,
    /// The user it is a password of, if known.
    pub user: Option<String>,
}

impl Secret {
    /// A value with no user.
    pub fn value(value: impl Into<String>) -> Self {
        Self { value: value.into(), user: None }
    }

    /// A password with its user.
    pub fn password(user: impl Into<String>, value: impl Into<String>) -> Self {
        Self { value: value.into(), user: Some(user.into()).filter(|user| !user.is_empty()) }
    }
}

impl std::fmt::Debug for Secret {
    /// Never the value: a secret printed by a debug log would have left the process.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Secret({} chars{})",
            self.value.chars().count(),
            if self.user.is_some() { ", with user" } else { "" }
        )
    }
}

/// Whether `value` is safe to redact wherever it appears (see the module docs for the rule).
pub fn worth_masking(value: &str) -> bool {
    let length = value.chars().count();
    let one_class = value.chars().all(char::is_alphabetic) || value.chars().all(|c| c.is_ascii_digit());
    let a_word_or_number = length < 16 && one_class;
    length >= 8
        && !a_word_or_number
        && !super::stand_in::is_stand_in(value)
        && !super::stand_in::PATH.is_match(value)
        && !value.contains(REDACTED)
}

/// What `encodeURIComponent` leaves as it is: letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// What RFC 3986 leaves unescaped: letters, digits and `-._~` (most URL libraries).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// The forms in which `secret` can appear in output: as it is, URL-encoded (both common escape
/// sets, upper- and lower-case hex, `+` for a blank as HTML forms write it), JSON-escaped (as
/// serde and most encoders write it, and as System.Text.Json does by default, which also
/// escapes `+`, `<`, `>`, `&`, `'` and non-ASCII as `\uXXXX`), XML-escaped, base64 (a
/// Kubernetes secret's data) and, with a user, base64 of `user:password` (HTTP Basic, a Docker
/// `auth`). Each line of a multi-line value is a form of its own, so line-by-line output is
/// covered.
pub fn forms(secret: &Secret) -> Vec<String> {
    let mut forms = Vec::new();
    let value = secret.value.as_str();
    for line in value.lines().map(str::trim).filter(|line| worth_masking(line)) {
        forms.push(line.to_owned());
    }
    if !worth_masking(value) {
        return dedup(forms);
    }
    forms.push(value.to_owned());
    for set in [URI_COMPONENT, UNRESERVED] {
        let upper = utf8_percent_encode(value, set).to_string();
        forms.push(lower_hex(&upper));
        forms.push(upper.replace("%20", "+"));
        forms.push(upper);
    }
    let json = serde_json::to_string(value).expect("a string serializes");
    forms.push(json[1..json.len() - 1].to_owned());
    forms.push(system_text_json(value));
    forms.push(xml_escaped(value));
    for engine in [&general_purpose::STANDARD, &general_purpose::URL_SAFE_NO_PAD] {
        forms.push(engine.encode(value));
        if let Some(user) = &secret.user {
            forms.push(engine.encode(format!("{user}:{value}")));
        }
    }
    dedup(forms)
}

fn dedup(mut forms: Vec<String>) -> Vec<String> {
    forms.sort();
    forms.dedup();
    forms
}

/// `%2F` → `%2f`: some encoders write lower-case hex.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut hex = 0;
    for c in encoded.chars() {
        if c == '%' {
            hex = 2;
            out.push(c);
        } else if hex > 0 {
            hex -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `value` as System.Text.Json's default encoder writes it inside a string.
fn system_text_json(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\u0022"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '+' | '<' | '>' | '&' | '\'' | '`' => out.push_str(&format!("\\u{:04X}", c as u32)),
            c if c.is_ascii_control() || !c.is_ascii() => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// `value` with XML's five escapes.
fn xml_escaped(value: &str) -> String {
    value.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

/// A set of known secret values, ready to search text for.
pub struct KnownValues {
    matcher: Option<AhoCorasick>,
    values: usize,
    forms: usize,
}

impl std::fmt::Debug for KnownValues {
    /// Counts only, never a value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KnownValues {{ values: {}, forms: {} }}", self.values, self.forms)
    }
}

impl KnownValues {
    /// The set of `secrets` worth masking (see [`worth_masking`]) and their forms.
    pub fn new(secrets: &[Secret]) -> Self {
        let per_secret: Vec<Vec<String>> = secrets.iter().map(forms).filter(|forms| !forms.is_empty()).collect();
        let values = per_secret.len();
        let forms = dedup(per_secret.into_iter().flatten().collect());
        let matcher = (!forms.is_empty()).then(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                // A DFA: the fastest search, and its memory stays small for the few hundred
                // forms a machine's secrets make.
                .kind(Some(AhoCorasickKind::DFA))
                .build(&forms)
                .expect("literal patterns build an automaton")
        });
        Self { matcher, values, forms: forms.len() }
    }

    /// How many of the values given are masked (the others were skipped by [`worth_masking`]).
    pub fn len(&self) -> usize {
        self.values
    }

    /// Whether no value is masked.
    pub fn is_empty(&self) -> bool {
        self.matcher.is_none()
    }

    /// `text` with every occurrence of a known value, in any of its [`forms`], replaced by
    /// [`REDACTED`]; borrows when none occurs.
    pub fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let Some(matcher) = &self.matcher else { return Cow::Borrowed(text) };
        let mut found = matcher.find_iter(text).peekable();
        if found.peek().is_none() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut done = 0;
        for hit in found {
            out.push_str(&text[done..hit.start()]);
            out.push_str(REDACTED);
            done = hit.end();
        }
        out.push_str(&text[done..]);
        Cow::Owned(out)
    }
}

/// The set [`super::redact`] applies, if any was installed.
static INSTALLED: RwLock<Option<Arc<KnownValues>>> = RwLock::new(None);
/// Whether [`INSTALLED`] holds a set with values, so text is not locked for when none is.
static ANY: AtomicBool = AtomicBool::new(false);

/// Makes `values` the set every redaction of this process applies from now on.
pub fn install(values: KnownValues) {
    let any = !values.is_empty();
    *INSTALLED.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Arc::new(values));
    ANY.store(any, Ordering::Release);
}

/// The installed set, if it holds any value.
pub(crate) fn installed() -> Option<Arc<KnownValues>> {
    if !ANY.load(Ordering::Acquire) {
        return None;
    }
    INSTALLED.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
}

/// `text` masked with the installed set (borrowed when nothing is installed or found).
pub(crate) fn mask_installed(text: &str) -> Cow<'_, str> {
    match installed() {
        Some(known) => match known.mask(text) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(masked) => Cow::Owned(masked),
        },
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(secrets: &[Secret]) -> KnownValues {
        KnownValues::new(secrets)
    }

    #[test]
    fn a_value_is_found_whatever_surrounds_it() {
        let set = known(&[Secret::value("Zq8!rT2#vW")]);
        assert_eq!(set.mask("pw:Zq8!rT2#vW;"), "pw:[REDACTED];");
        assert_eq!(set.mask("xxZq8!rT2#vWyy and Zq8!rT2#vW"), "xx[REDACTED]yy and [REDACTED]");
        assert!(matches!(set.mask("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn its_common_encodings_are_found_too() {
        let secret = Secret::password("bob", "p@ss w+rd/\"1<2>");
        let set = known(std::slice::from_ref(&secret));
        for form in [
            "p%40ss%20w%2Brd%2F%221%3C2%3E",
            "p%40ss%20w%2brd%2f%221%3c2%3e",
            "p%40ss+w%2Brd%2F%221%3C2%3E",
            r#"p@ss w+rd/\"1<2>"#,
            r"p@ss w\u002Brd/\u00221\u003C2\u003E",
            "p@ss w+rd/&quot;1&lt;2&gt;",
            &general_purpose::STANDARD.encode("bob:p@ss w+rd/\"1<2>"),
            &general_purpose::STANDARD.encode("p@ss w+rd/\"1<2>"),
        ] {
            assert_eq!(set.mask(&format!("[{form}]")), "[[REDACTED]]", "{form}");
        }
    }

    #[test]
    fn the_longest_value_wins_and_lines_of_a_multi_line_value_count_alone() {
        let set = known(&[
            Secret::value("abcdefgh12"),
            Secret::value("abcdefgh12345"),
            Secret::value("line-one-1\nline-two-2"),
        ]);
        assert_eq!(set.mask("abcdefgh12345!"), "[REDACTED]!");
        assert_eq!(set.mask("> line-two-2"), "> [REDACTED]");
    }

    #[test]
    fn short_and_common_values_are_skipped_by_the_stated_rule() {
        for skipped in [
            "",
            "hunter2",
            "admin",
            "postgres",
            "Development",
            "Information",
            "12345678",
            "***",
            "${DB_PASSWORD}",
            "[REDACTED]",
        ] {
            assert!(!worth_masking(skipped), "{skipped} is skipped");
        }
        for kept in ["hunter2!", "P@ssw0rd", "mysecretpassword", "Summer2024", "0123456789012345678"] {
            assert!(worth_masking(kept), "{kept} is masked");
        }
        let set = known(&[Secret::value("postgres"), Secret::value("admin")]);
        assert!(set.is_empty());
        assert_eq!(set.len(), 0);
        assert_eq!(set.mask("postgres admin"), "postgres admin");
    }

    #[test]
    fn debug_output_never_shows_a_value() {
        let secret = Secret::password("bob", "Zq8!rT2#vW-debug");
        let set = known(std::slice::from_ref(&secret));
        for shown in [format!("{secret:?}"), format!("{set:?}"), format!("{:?}", vec![secret.clone()])] {
            assert!(!shown.contains("Zq8!rT2#vW") && !shown.contains("bob"), "{shown}");
        }
    }
}
