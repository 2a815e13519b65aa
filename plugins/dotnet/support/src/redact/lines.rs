//! The line redactor: redacting a stream one line at a time, with the per-stream state that
//! carries the forms spanning lines (private keys, wrapped tokens, JSON name/value pairs, tables).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use super::{
    REDACTED,
    hexdump::{HEXDUMP_LINE, hexdump_bytes, hide_dumped, secret_bytes},
    is_secret_key,
    keys::{KeyClass, LAST_KEY_WORDS, STRONG_KEY_WORDS, classify_key, names_key_map, words_pattern},
    labelled::{KEY_MAP_MEMBER, key_map_member, labelled, redact_labelled},
    patterns::{
        BLOCK_MORE, HCL_ATTRIBUTE, HCL_DEFAULT, HCL_VALUE, HCL_VARIABLE_START, INTRO_TAIL, WRAPPED_TOKEN_MORE,
        WRAPPED_TOKEN_START, two_line_openers,
    },
    redact,
    tables::{
        BORDER_LINE, CSV_HEADER_LINE, RULE_LINE_ONLY, RULED_HEADER_LINE, RuledTable, Table, bar_delimiter, box_rule,
        continues_table, listing_row, ruled_columns, ruled_row, table_columns, table_row,
    },
    tokens::{mask_token_line, recovery_code_line},
};

/// The first line of a Terraform variable block (its name captured), an attribute line inside
/// it, and its `default` line (the value captured), as the `hcl` form of `rules` reads them.
static HCL_VARIABLE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r#"^{HCL_VARIABLE_START}"([^"\r\n]*)"[ \t]*\{{[ \t]*\r?$"#)).expect("variable pattern is valid")
});
static HCL_ATTRIBUTE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{HCL_ATTRIBUTE}")).expect("attribute pattern is valid"));
static HCL_DEFAULT_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{HCL_DEFAULT}({HCL_VALUE})")).expect("default pattern is valid"));

/// The line that opens a JSON array under a name (`"SigningKeys": [`), the name captured.
static ARRAY_START_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[ \t]*"([^"\r\n]*)"[ \t]*:[ \t]*\[[ \t]*\r?$"#).expect("array start pattern is valid")
});

/// A line that opens a JSON object under a name (`"systemKeys": {`), the name captured.
static OBJECT_START_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[ \t]*"([^"\r\n]*)"[ \t]*:[ \t]*\{[ \t]*\r?$"#).expect("object start pattern is valid")
});

/// A line that is one member of such an object whose value is a string.
static MEMBER_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^[ \t]*{}[ \t]*,?[ \t]*\r?$", KEY_MAP_MEMBER.as_str())).expect("member line pattern is valid")
});

/// A line that is one quoted item of such an array.
static ARRAY_ITEM_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[ \t]*("(?:[^"\\\r\n]|\\.)*")[ \t]*,?[ \t]*\r?$"#).expect("array item line pattern is valid")
});

/// A line that ends inside a token after an authorization scheme, broken by a shell line
/// continuation (`-H "Authorization: Bearer eyJ...\`): the next line starts with the rest.
static CONTINUED_TOKEN_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i:bearer|basic|token)[ \t]+[A-Za-z0-9._~+/=-]{8,}\\[ \t]*\r?$")
        .expect("continued token pattern is valid")
});

/// A line that ends in a bare value glued to a `\` (`sed -n l` folds a long line so; see
/// [`continued_value`](super::labelled::continued_value)), the value's name captured: when the name says secret, the next line starts
/// with the rest of the value.
static CONTINUED_VALUE_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"([A-Za-z_][A-Za-z0-9_.-]*)=[^\s"'\\]+\\\r?$"#).expect("continued value pattern is valid")
});

/// The rest of a token a shell line continuation broke, at the start of its line.
static CONTINUED_TOKEN_REST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[ \t]*[A-Za-z0-9._~+/=-]+").expect("continued token rest pattern is valid"));

/// Whether `line` starts with a prefix of the same shape as `prefix`: the same characters, but
/// any digit for a digit (the timestamps a CI log puts before every line).
fn same_prefix<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let head = line.get(..prefix.len())?;
    head.bytes()
        .zip(prefix.bytes())
        .all(|(a, b)| a == b || a.is_ascii_digit() && b.is_ascii_digit())
        .then(|| &line[prefix.len()..])
}

/// Private keys whose every line carries a prefix (a CI log's timestamp, a `[stdout] ` tag):
/// the body lines after `PREFIX-----BEGIN ... PRIVATE KEY-----` that carry a prefix of the same
/// shape are replaced by one [`REDACTED`] line, up to the END line (kept) or the first line
/// that is not a body line. The patterns then see the block as they see one without prefixes.
pub(super) fn prefixed_private_keys(text: &str) -> Cow<'_, str> {
    let prefixed = PEM_BEGIN.find_iter(text).any(|begin| {
        let line_start = text[..begin.start()].rfind('\n').map_or(0, |at| at + 1);
        !text[line_start..begin.start()].trim().is_empty()
    });
    if !prefixed {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        let Some(begin) = PEM_BEGIN.find(line) else { continue };
        let prefix = &line[..begin.start()];
        if prefix.trim().is_empty() || PEM_END.is_match(&line[begin.end()..]) {
            continue;
        }
        let mut swallowed = false;
        // Lines of other services or streams between the key's lines (`worker-1  | ...` among
        // `api-1     | ...` in `docker compose logs`): kept, after the key's [`REDACTED`] line.
        let mut between = String::new();
        while let Some(next) = lines.peek() {
            match same_prefix(next.trim_end_matches(['\r', '\n']), prefix) {
                Some(body) if !PEM_END.is_match(body) && is_key_body_line(body) => {
                    swallowed = true;
                    lines.next();
                }
                None if !PEM_BEGIN.is_match(next) => {
                    between.push_str(next);
                    lines.next();
                }
                _ => break,
            }
        }
        if swallowed {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(REDACTED);
            out.push('\n');
            changed = true;
        }
        out.push_str(&between);
    }
    if changed {
        if !text.ends_with('\n') && out.ends_with('\n') {
            out.pop();
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// The start and end lines of a PEM private-key block, as [`redact`] recognises them.
static PEM_BEGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----").expect("PEM begin pattern is valid")
});
static PEM_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----").expect("PEM end pattern is valid"));

/// The first line of a JWT wrapped over lines, and a line that goes on with it.
static WRAPPED_TOKEN_START_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(WRAPPED_TOKEN_START).expect("wrapped token pattern is valid"));
static WRAPPED_TOKEN_MORE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{WRAPPED_TOKEN_MORE}")).expect("wrapped token pattern is valid"));

/// The start of a JWT at the end of a line that a log broke inside one of its parts (captured),
/// and the start of the next line that goes on with it up to its signature (captured; see the
/// `jwt_split` form of `rules`).
static JWT_SPLIT_START_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]*)?)\r?$").expect("split token pattern is valid")
});
/// Where a JWT broken at the end of `line` starts (see [`JWT_SPLIT_START_LINE`]); `None` when the
/// line ends with a whole JWT, whose payload and signature read as a broken token's header and
/// payload after its first dot.
fn split_token_start(line: &str) -> Option<regex::Match<'_>> {
    JWT_SPLIT_START_LINE
        .captures(line)
        .and_then(|caps| caps.get(1))
        .filter(|start| !line[..start.start()].ends_with('.'))
}

static JWT_SPLIT_MORE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Za-z0-9_-]*\.[A-Za-z0-9_.-]{8,})").expect("split token pattern is valid"));

/// The first line of a YAML block scalar under a name with a secret word (its name captured),
/// and a line of its value.
static BLOCK_START_LINE: LazyLock<Regex> = LazyLock::new(|| {
    let secret_words = format!("{}|{}", words_pattern(STRONG_KEY_WORDS), words_pattern(LAST_KEY_WORDS));
    Regex::new(&format!(
        r#"^[ \t]*(?:-[ \t]+)?["']?([A-Za-z0-9_.-]*(?i:{secret_words})[A-Za-z0-9_.-]*)["']?:[ \t]*[|>][+-]?[0-9]?[ \t]*\r?$"#
    ))
    .expect("block scalar pattern is valid")
});
static BLOCK_MORE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{BLOCK_MORE}")).expect("block scalar pattern is valid"));

/// A line of a key's base64 body alone (no blank, no other words: not a line of another stream).
static BASE64_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z0-9+/]{16,}={0,2}\r?$").expect("base64 line pattern is valid"));

/// The line of a PuTTY key (`.ppk`) after which its private lines come.
static PUTTY_PRIVATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"Private-Lines:[ \t]*[0-9]+[ \t]*$").expect("PuTTY pattern is valid"));

/// Whether a line inside a PEM block, after its BEGIN line, is part of it as [`redact`] sees a
/// block that is cut off: one word (a base64 line), a `Proc-Type:` or `DEK-Info:` header, or
/// blank. A line of words ends the block.
fn is_key_body_line(line: &str) -> bool {
    let body = line.trim();
    body.is_empty()
        || body.starts_with("Proc-Type:")
        || body.starts_with("DEK-Info:")
        || !body.starts_with('-') && !body.contains(char::is_whitespace)
}

/// A line of pretty-printed JSON that holds one `"name"` / `"key"` or `"value"` field.
static PAIR_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[ \t]*"(?i:(?P<name>name|key)|value)"[ \t]*:[ \t]*"(?P<text>(?:[^"\\\r\n]|\\.)*)""#)
        .expect("pair field pattern is valid")
});

/// A pretty-printed JSON line `"sensitive": true` (a Terraform output whose `"value"` is secret).
static SENSITIVE_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[ \t]*"sensitive"[ \t]*:[ \t]*true[ \t]*,?[ \t]*$"#).expect("sensitive field pattern is valid")
});

/// A line that introduces a value given after a blank line (see [`INTRO_TAIL`] and the
/// `prose_next` form of `rules`).
static INTRO_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?-u:\b)(?i:password|passphrase|key|token|secret){INTRO_TAIL}\r?$"))
        .expect("intro line pattern is valid")
});

/// A whole line of `hexdump -C` (see [`HEXDUMP_LINE`]).
static HEXDUMP_LINE_ALONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{HEXDUMP_LINE}$")).expect("dump line pattern is valid"));

/// How many bytes of the dump lines before it [`LineRedactor`] reads a `hexdump -C` line after:
/// enough for a label and a long key, bounded so a long dump costs linear time.
const DUMP_CONTEXT: usize = 1024;

/// A line that starts a form [`redact`] recognises over two lines (see [`two_line_openers`]).
static TWO_LINE_OPENER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&two_line_openers().join("|")).expect("two-line opener pattern is valid"));

/// A command line whose output, on the next line, is a bare value (`terraform output -raw NAME`,
/// see [`two_line_openers`]): the line after it is that value, even when the next prompt is glued
/// to it (`VALUE$ terraform output -raw OTHER`), so it does not open a form of its own.
static VALUE_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    let [_, _, command, ..] = two_line_openers();
    Regex::new(&command).expect("value command pattern is valid")
});

/// Redacts a stream one line at a time, for output that is kept or reported line by line (the
/// logs of a background session, progress messages) and so never passes through [`redact`] as
/// a whole.
///
/// Each line gets [`redact`]; in addition, what only the lines around it show to be secret is
/// caught too. The lines inside a PEM private-key block are swallowed: the `BEGIN` line comes back
/// as [`redact`] renders a cut-off block (`-----BEGIN ... PRIVATE KEY-----` and a [`REDACTED`]
/// line), the body lines as `None`, and the `END` line as it is; a line of words before any
/// `END` line means the block was cut off, and is redacted as any line. The private lines of a
/// PuTTY key are swallowed the same way, after the `Private-Lines: N` line (which comes back
/// with a [`REDACTED`] line). In pretty-printed JSON, the
/// `"value"` line of an object whose `"name"` (or `"key"`) line names a secret is redacted, as
/// [`redact`] does on the whole text; so is the `"value"` line after a `"sensitive": true` line.
/// A line after one that starts a two-line form (a YAML `name:` line, an `expect` password
/// prompt, a `terraform output NAME` command) is redacted together with that line. A line of
/// `hexdump -C` is read after the bytes of the dump lines before it. Joined with newlines, the
/// kept lines read as [`redact`] renders the whole text. Use one redactor per stream.
#[derive(Debug, Default, Clone)]
pub struct LineRedactor {
    /// Inside a PEM private key: the prefix its lines carry (empty when none).
    private_key_prefix: Option<String>,
    /// Inside the private lines of a PuTTY key.
    in_putty_key: bool,
    /// Inside a JWT wrapped over lines.
    in_wrapped_token: bool,
    /// After a line that ends with the start of a JWT broken inside one of its parts.
    in_split_token: bool,
    /// Inside the value lines of a YAML block scalar under a secret name (`token: >-`).
    in_block_scalar: bool,
    /// How secret the current JSON object's name field (or `"sensitive": true`) makes its value,
    /// when its value line is still to come.
    secret_pair: Option<KeyClass>,
    /// The previous line, when it starts a two-line form.
    opener: Option<String>,
    /// A line that introduces a value given after a blank line (see [`INTRO_LINE`]), and whether
    /// the blank line has come.
    intro: Option<(String, bool)>,
    /// Inside a JSON array written one item a line under a name that makes its items secret.
    secret_array: Option<KeyClass>,
    /// Inside a JSON object under a name for keys (see [`names_key_map`]), one member a line.
    in_key_map: bool,
    /// After a line that ends inside a token broken by a shell line continuation, or inside a
    /// secret value folded by `sed -n l` (see [`CONTINUED_VALUE_END`]).
    in_continued_token: bool,
    /// Inside a table whose header names a secret column, or of names and values: how it judges
    /// its rows.
    table: Option<Table>,
    /// The previous line was a row of a pipe table (so this one cannot be its header).
    in_pipe_table: bool,
    /// How the header of a box-drawn table on the previous line judges its rows, once a rule
    /// under it (`├───┼───┤`) shows it is a header.
    box_header: Option<Table>,
    /// Inside a Terraform variable block named for a secret, before its `default`.
    hcl_variable: Option<KeyClass>,
    /// Inside a list of recovery codes, one a line (see [`recovery_code_line`]).
    in_recovery_codes: bool,
    /// The previous line, when it can be the header of a table ruled by dashes.
    ruled_header: Option<String>,
    /// Inside the rows of a table ruled by dashes whose header names a secret column.
    ruled: Option<RuledTable>,
    /// The previous line was a box's border, or a row of a box-drawn listing of names and values.
    in_listing: bool,
    /// Inside a `hexdump -C` block: the text of the bytes dumped on its last lines (at most
    /// [`DUMP_CONTEXT`]), which the next line's bytes are read after.
    dumped: String,
}

impl LineRedactor {
    /// A redactor outside any PEM block or JSON object.
    pub fn new() -> Self {
        Self::default()
    }

    /// The redacted form of the next line, or `None` when the line is part of a private key.
    pub fn line<'a>(&mut self, line: &'a str) -> Option<Cow<'a, str>> {
        // A line of `hexdump -C`: its bytes read after those of the lines before it (see
        // [`hexdump_block`]), a quoted value still open at its end read as closed there.
        if HEXDUMP_LINE_ALONE.is_match(line) {
            let bytes = hexdump_bytes(line);
            let mut text = std::mem::take(&mut self.dumped);
            let before = text.len();
            text.extend(bytes.iter().map(|byte| byte.text));
            let mut hidden = secret_bytes(&text).split_off(before);
            let closed = secret_bytes(&format!("{text}\""));
            for (hide, in_closed) in hidden.iter_mut().zip(&closed[before..]) {
                *hide |= *in_closed;
            }
            self.dumped = text[text.len().saturating_sub(DUMP_CONTEXT)..].to_owned();
            return Some(Cow::Owned(hide_dumped(line, &bytes, &hidden)));
        }
        self.dumped.clear();
        let opener = self.opener.take();
        let intro = match self.intro.take() {
            Some((intro, false)) if line.trim().is_empty() => {
                self.intro = Some((intro, true));
                None
            }
            Some((intro, true)) => Some(intro),
            _ => None,
        };
        if INTRO_LINE.is_match(line) {
            self.intro = Some((line.to_owned(), false));
        }
        let continued_value = CONTINUED_VALUE_END.captures(line).is_some_and(|caps| is_secret_key(&caps[1]));
        let continued =
            std::mem::replace(&mut self.in_continued_token, continued_value || CONTINUED_TOKEN_END.is_match(line));
        if continued && let Some(rest) = CONTINUED_TOKEN_REST.find(line) {
            let indent = &line[..line.len() - line.trim_start().len()];
            return Some(Cow::Owned(format!("{indent}{REDACTED}{}", redact(&line[rest.end()..]))));
        }
        if let Some(class) = self.hcl_variable.take() {
            if let Some(caps) = HCL_DEFAULT_LINE.captures(line) {
                let value = caps.get(1).expect("the pattern has a value group");
                return Some(Cow::Owned(format!("{}{}", &line[..value.start()], labelled("", class, value.as_str()))));
            }
            if HCL_ATTRIBUTE_LINE.is_match(line) {
                self.hcl_variable = Some(class);
            }
        }
        if let Some(caps) = HCL_VARIABLE_LINE.captures(line) {
            let class = classify_key(&caps[1]);
            self.hcl_variable = matches!(class, KeyClass::Secret | KeyClass::Connection).then_some(class);
        }
        if let Some(table) = &self.ruled {
            if !line.trim().is_empty() {
                return Some(Cow::Owned(ruled_row(line, table)));
            }
            self.ruled = None;
        }
        if let Some(header) = self.ruled_header.take()
            && RULE_LINE_ONLY.is_match(line)
        {
            self.ruled = ruled_columns(header.trim_end_matches('\r'), line);
        }
        if RULED_HEADER_LINE.is_match(line) {
            self.ruled_header = Some(line.to_owned());
        }
        // A row under a box's top border, or under such a row, is a name and its value (see
        // [`listing_row`]); the pipe-table forms below do not see it.
        if std::mem::take(&mut self.in_listing)
            && let Some(shown) = listing_row(line)
        {
            self.in_listing = true;
            return Some(Cow::Owned(shown));
        }
        self.in_listing = BORDER_LINE.is_match(line);
        if let Some(table) = &self.table {
            if continues_table(line, table) {
                return Some(Cow::Owned(table_row(line, table)));
            }
            self.table = None;
        }
        // Only the first line of a pipe table can be its header (see the `ptab_head` form).
        // A box's rule goes on with its table, and makes the row above it its header.
        let rule = self.in_pipe_table && box_rule(line);
        if let Some(table) = self.box_header.take().filter(|_| rule) {
            self.table = Some(table);
        }
        let delimiter = bar_delimiter(line);
        let first_pipe_row = delimiter.is_some() && !self.in_pipe_table;
        self.in_pipe_table = delimiter.is_some() || rule;
        if first_pipe_row && delimiter == Some('|') || delimiter.is_none() && CSV_HEADER_LINE.is_match(line) {
            self.table = table_columns(line);
        } else if first_pipe_row {
            self.box_header = table_columns(line);
        }
        if let Some(class) = self.secret_array {
            match ARRAY_ITEM_LINE.captures(line).and_then(|caps| caps.get(1)) {
                Some(item) => {
                    let shown =
                        redact_labelled(class, item.as_str()).unwrap_or_else(|| redact(item.as_str()).into_owned());
                    return Some(Cow::Owned(format!("{}{shown}{}", &line[..item.start()], &line[item.end()..])));
                }
                None => self.secret_array = None,
            }
        }
        if self.in_key_map {
            match MEMBER_LINE.captures(line) {
                Some(caps) => {
                    let value = caps.name("member_val").expect("the pattern has a value group");
                    let shown = key_map_member(&caps["member_name"], value.as_str());
                    return Some(Cow::Owned(format!("{}{shown}{}", &line[..value.start()], &line[value.end()..])));
                }
                None => self.in_key_map = false,
            }
        }
        self.in_key_map = OBJECT_START_LINE.captures(line).is_some_and(|caps| names_key_map(&caps[1]));
        if let Some(name) = ARRAY_START_LINE.captures(line).and_then(|caps| caps.get(1)) {
            let class = classify_key(name.as_str());
            self.secret_array =
                matches!(class, KeyClass::Secret | KeyClass::Connection | KeyClass::Weak).then_some(class);
        }
        if TWO_LINE_OPENER.is_match(line) && !opener.as_deref().is_some_and(|opener| VALUE_COMMAND.is_match(opener)) {
            self.opener = Some(line.to_owned());
        }
        if let Some(prefix) = self.private_key_prefix.take() {
            if let Some(end) = PEM_END.find(line) {
                return Some(Cow::Owned(format!(
                    "{}{}{}",
                    redact(&line[..end.start()]),
                    end.as_str(),
                    redact(&line[end.end()..])
                )));
            }
            match same_prefix(line, &prefix) {
                Some(body) if is_key_body_line(body) => {
                    self.private_key_prefix = Some(prefix);
                    return None;
                }
                // A body line without the text before BEGIN: that text started a command
                // (`echo "-----BEGIN ...`), not every line of the key.
                None if BASE64_LINE.is_match(line) => {
                    self.private_key_prefix = Some(prefix);
                    return None;
                }
                // A line of another service or stream between the key's lines (`docker compose
                // logs`): the key goes on after it.
                None if !PEM_BEGIN.is_match(line) => {
                    self.private_key_prefix = Some(prefix);
                    return Some(redact(line));
                }
                _ => {}
            }
            // The block was cut off: this line is not part of it.
        }
        if std::mem::take(&mut self.in_split_token)
            && let Some(more) = JWT_SPLIT_MORE_LINE.captures(line).and_then(|caps| caps.get(1))
        {
            self.in_wrapped_token = false;
            return Some(Cow::Owned(format!("{REDACTED}{}", redact(&line[more.end()..]))));
        }
        if self.in_wrapped_token {
            self.in_wrapped_token = WRAPPED_TOKEN_MORE_LINE.is_match(line);
            if self.in_wrapped_token {
                return Some(Cow::Owned(mask_token_line(line)));
            }
        }
        if self.in_block_scalar {
            self.in_block_scalar = BLOCK_MORE_LINE.is_match(line);
            if self.in_block_scalar {
                return Some(Cow::Owned(mask_token_line(line)));
            }
        }
        if let Some(start) = BLOCK_START_LINE.captures(line) {
            self.in_block_scalar = matches!(classify_key(&start[1]), KeyClass::Secret | KeyClass::Connection);
        }
        if WRAPPED_TOKEN_START_LINE.is_match(line) {
            self.in_wrapped_token = true;
            // A first line with a dot can also be a JWT broken inside its payload.
            self.in_split_token = split_token_start(line).is_some();
            return Some(Cow::Owned(mask_token_line(line)));
        }
        if let Some(start) = split_token_start(line) {
            self.in_split_token = true;
            let head = redact(&line[..start.start()]);
            return Some(Cow::Owned(format!("{head}{REDACTED}{}", &line[start.end()..])));
        }
        if self.in_putty_key {
            let body = line.trim();
            if !body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)) {
                return None;
            }
            self.in_putty_key = false;
        }
        if let Some(begin) = PEM_BEGIN.find(line)
            && !PEM_END.is_match(&line[begin.end()..])
        {
            let prefix = &line[..begin.start()];
            self.private_key_prefix = Some(if prefix.trim().is_empty() { String::new() } else { prefix.to_owned() });
        }
        if PUTTY_PRIVATE.is_match(line) {
            self.in_putty_key = true;
            return Some(Cow::Owned(format!("{}\n{REDACTED}", redact(line))));
        }
        if let Some(field) = PAIR_FIELD.captures(line) {
            let text = field.name("text").expect("the pattern has a text group");
            if field.name("name").is_some() {
                let class = classify_key(text.as_str());
                self.secret_pair = matches!(class, KeyClass::Secret | KeyClass::Connection).then_some(class);
            } else if let Some(shown) = self.secret_pair.take().and_then(|class| redact_labelled(class, text.as_str()))
            {
                return Some(Cow::Owned(format!("{}{shown}{}", &line[..text.start()], &line[text.end()..])));
            }
        } else if SENSITIVE_FIELD.is_match(line) {
            self.secret_pair = Some(KeyClass::Secret);
        } else if line.contains(['{', '}']) && line.replace("{}", "").contains(['{', '}']) {
            // Another object starts or this one ends (an empty `{}` value does neither).
            self.secret_pair = None;
        }
        if let Some(shown) = recovery_code_line(line, &mut self.in_recovery_codes) {
            return Some(Cow::Owned(shown));
        }
        if let Some(intro) = intro {
            // The three lines as [`redact`] renders them together; this line is the last.
            if let Some((_, shown)) = redact(&format!("{intro}\n\n{line}")).rsplit_once('\n') {
                return Some(Cow::Owned(shown.to_owned()));
            }
        }
        if let Some(opener) = opener {
            // The two lines as [`redact`] renders them together; this line is what follows the
            // first newline (the opener's part was already reported on its own).
            if let Some((_, shown)) = redact(&format!("{opener}\n{line}")).split_once('\n') {
                return Some(Cow::Owned(shown.to_owned()));
            }
        }
        Some(redact(line))
    }
}

#[cfg(test)]
mod tests {
    use super::LineRedactor;
    use crate::redact::{
        REDACTED, redact_interleaved, redact_json,
        tests::{each_and_lines, lines, r},
    };
    use serde_json::Value;
    use std::borrow::Cow;

    #[test]
    fn pem_private_key_block_is_removed_but_framed() {
        let pem = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAKC\n-----END RSA PRIVATE KEY-----\ndone";
        assert_eq!(r(pem), "key:\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n-----END RSA PRIVATE KEY-----\ndone");
        // Cut off, the block ends with its last body line: the line after it is not the key's.
        let cut = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE\nAbCd+/==\n[Output truncated]";
        assert_eq!(r(cut), "-----BEGIN ENCRYPTED PRIVATE KEY-----\n[REDACTED]\n[Output truncated]");
        // Inside a JSON string, with escaped line breaks, and flattened on one line.
        let json = r#"{"sslKey": "-----BEGIN PRIVATE KEY-----\nMIIEv\nQIBAD\n-----END PRIVATE KEY-----\n", "next": 1}"#;
        assert_eq!(
            r(json),
            r#"{"sslKey": "-----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY-----\n", "next": 1}"#
        );
        let json_cut = "{\"k\": \"-----BEGIN PRIVATE KEY-----\\nMIIEv\\nQIB\",\n \"next\": \"kept\"}";
        assert_eq!(r(json_cut), "{\"k\": \"-----BEGIN PRIVATE KEY-----\\n[REDACTED]\",\n \"next\": \"kept\"}");
        let flat = "KEY=-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkq hkiG9w0BAQEFAASC -----END PRIVATE KEY----- next";
        assert_eq!(r(flat), "KEY=-----BEGIN PRIVATE KEY----- [REDACTED] -----END PRIVATE KEY----- next");
        let cert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
        assert_eq!(r(cert), cert);
    }

    #[test]
    fn yaml_name_value_pairs_over_two_lines() {
        let env = "      - name: Redis__Password\n        value: pw-1\n      - name: DOTNET_ENVIRONMENT\n        value: Production";
        let expected = env.replace("pw-1", REDACTED);
        assert_eq!(r(env), expected);
        assert_eq!(lines(env), expected);
    }

    #[test]
    fn expect_answers_to_password_prompts() {
        let one_line = r#"expect -c 'spawn ssh-add k; expect "Enter passphrase"; send "pw-1\r"; expect eof'"#;
        assert_eq!(r(one_line), one_line.replace("pw-1", REDACTED));
        let two_lines = "expect \"*assword:\"\nsend \"pw-2\\r\"\nexpect eof";
        let expected = two_lines.replace("pw-2", REDACTED);
        assert_eq!(r(two_lines), expected);
        assert_eq!(lines(two_lines), expected);
        let kept = "expect \"login:\"\nsend \"deploy\\r\"";
        assert_eq!(r(kept), kept);
    }

    #[test]
    fn terraform_output_values() {
        let json = "{\n  \"db_password\": {\n    \"sensitive\": true,\n    \"type\": \"string\",\n    \"value\": \"pw-1\"\n  },\n  \"app_url\": {\n    \"sensitive\": false,\n    \"type\": \"string\",\n    \"value\": \"https://app.example\"\n  }\n}";
        let expected = json.replace("pw-1", REDACTED);
        assert_eq!(r(json), expected);
        assert_eq!(lines(json), expected);
        let mut value: Value = serde_json::from_str(json).unwrap();
        redact_json(&mut value);
        assert_eq!(value["db_password"]["value"], REDACTED);
        assert_eq!(value["app_url"]["value"], "https://app.example");
        // `-raw` prints the bare value: the command line before it is all that marks it.
        let raw = "$ terraform output -raw sql_admin_password\npw-2";
        let expected = raw.replace("pw-2", REDACTED);
        assert_eq!(r(raw), expected);
        assert_eq!(lines(raw), expected);
        let plan = "      + administrator_login_password = (sensitive value)";
        assert_eq!(r(plan), plan);
    }

    #[test]
    fn a_value_printed_bare_after_a_command_is_judged_by_what_it_names_and_its_own_labels() {
        each_and_lines(&[
            // A decoded Kubernetes secret that is a connection string or a URL with credentials
            // keeps its public parts, and the next command stays.
            (
                "PS> kubectl get secrets shop-db -o jsonpath='{.data.cs}' | base64 --decode\nServer=sql-7;Initial Catalog=shop;User ID=shopper;Password=Vq.4-kLm#2;Encrypt=True\nPS> kubectl get pods",
                "PS> kubectl get secrets shop-db -o jsonpath='{.data.cs}' | base64 --decode\nServer=sql-7;Initial Catalog=shop;User ID=shopper;Password=[REDACTED];Encrypt=True\nPS> kubectl get pods",
            ),
            (
                "$ kubectl get secret cache -o jsonpath='{.data.url}' | base64 -d\nredis://worker:Tz9_qq.Lw3@cache-0.cache:6380/2?ssl=true",
                "$ kubectl get secret cache -o jsonpath='{.data.url}' | base64 -d\nredis://worker:[REDACTED]@cache-0.cache:6380/2?ssl=true",
            ),
            // Still hidden whole when it is anything else.
            (
                "$ kubectl get secret api -o jsonpath='{.data.key}' | base64 -d\nhunter-two",
                "$ kubectl get secret api -o jsonpath='{.data.key}' | base64 -d\n[REDACTED]",
            ),
            // An output or parameter whose name is not secret shows a value that does not look
            // generated; a decrypted parameter is secret whatever its name.
            ("$ terraform output storage_host\n\"files.contoso.example\"", ""),
            (
                "$ terraform output -json cache\n{\"host\":\"cache.local\",\"password\":\"hunter\"}",
                "$ terraform output -json cache\n{\"host\":\"cache.local\",\"password\":\"[REDACTED]\"}",
            ),
            (
                "$ terraform output -raw app_admin_password\nc0rrect-h0rse\n$ terraform output -raw region\nwesteurope",
                "$ terraform output -raw app_admin_password\n[REDACTED]\n$ terraform output -raw region\nwesteurope",
            ),
            (
                "$ terraform output -raw deploy_id\nQm7x2Lr9Tt4Kz8Wp1Vb6",
                "$ terraform output -raw deploy_id\n[REDACTED]",
            ),
            (
                "$ aws ssm get-parameter --name /shop/Api__BaseUrl --query Parameter.Value --output text\nhttps://api.shop.example",
                "",
            ),
            (
                "$ aws ssm get-parameter --name /shop/Api__Region --with-decryption --query Parameter.Value --output text\nnorth",
                "$ aws ssm get-parameter --name /shop/Api__Region --with-decryption --query Parameter.Value --output text\n[REDACTED]",
            ),
            (
                "$ aws ssm get-parameter --name /shop/Smtp__Password --query Parameter.Value --output text\nmailbag",
                "$ aws ssm get-parameter --name /shop/Smtp__Password --query Parameter.Value --output text\n[REDACTED]",
            ),
        ]);
    }

    #[test]
    fn private_key_printed_after_a_command_that_prints_a_bare_secret() {
        // A decoded TLS secret or a key read from a vault starts with its BEGIN line: the whole
        // block is the key, not only the line after the command.
        for command in [
            "$ kubectl get secrets web-cert -o jsonpath=\"{.data['tls\\.key']}\" | base64 --decode",
            "$ op read op://infra/deploy-key/private_key",
        ] {
            let text = format!(
                "{command}\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIPq7Rn2vXs9LkT4uZ8wYhJ3dC6aB1eF0gH5iJ2kL3mN4\noAoGCCqGSM49AwEHoUQDQgAE\n-----END EC PRIVATE KEY-----\n$ echo done"
            );
            let expected = format!(
                "{command}\n-----BEGIN EC PRIVATE KEY-----\n[REDACTED]\n-----END EC PRIVATE KEY-----\n$ echo done"
            );
            assert_eq!(r(&text), expected);
            assert_eq!(lines(&text), expected);
        }
    }

    #[test]
    fn line_redactor_swallows_private_key_bodies_and_reads_like_redact() {
        let text = "start password=hunter2\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAKC\n-----END RSA PRIVATE KEY-----\nafter token=abc\n-----BEGIN PRIVATE KEY-----\ncut";
        let mut redactor = LineRedactor::new();
        let kept: Vec<String> = text.lines().filter_map(|line| redactor.line(line)).map(Cow::into_owned).collect();
        assert_eq!(kept.join("\n"), r(text));
        assert!(!kept.iter().any(|line| line.contains("MIIEow") || line.contains("cut") || line.contains("hunter2")));
        let mut redactor = LineRedactor::new();
        assert!(matches!(redactor.line("plain text"), Some(Cow::Borrowed("plain text"))));
    }

    #[test]
    fn keys_with_a_prefix_on_every_line_and_tokens_wrapped_over_lines() {
        let key = "2025-03-04T09:12:44.1Z -----BEGIN OPENSSH PRIVATE KEY-----\n2025-03-04T09:12:44.1Z b3BlbnNzaC1rZXktdjE\n2025-03-04T09:12:44.2Z QUJDREVGR0hJSktMTU5P\n2025-03-04T09:12:44.2Z -----END OPENSSH PRIVATE KEY-----\n2025-03-04T09:12:44.3Z + chmod 600 key";
        let shown = r(key);
        assert!(!shown.contains("b3BlbnNzaC1rZXktdjE") && !shown.contains("QUJDREVGR0hJSktMTU5P"), "{shown}");
        assert!(
            shown.ends_with(
                "2025-03-04T09:12:44.2Z -----END OPENSSH PRIVATE KEY-----\n2025-03-04T09:12:44.3Z + chmod 600 key"
            ),
            "{shown}"
        );
        assert_eq!(lines(key), shown, "line by line as whole");
        let wrapped = "id_token=\n    eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9eyJzdWIiOiIxMjM0\n    NTY3ODkwIn0.c2lnbmF0dXJlLXBhcnQtb25l\nsession started";
        let expected = "id_token=\n    [REDACTED]\n    [REDACTED]\nsession started";
        assert_eq!(r(wrapped), expected);
        assert_eq!(lines(wrapped), expected);
    }

    #[test]
    fn a_whole_jwt_at_the_end_of_a_line_is_not_taken_for_a_broken_one() {
        let header = "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\nContent-Type: application/json";
        let expected = "Authorization: Bearer [REDACTED]\nContent-Type: application/json";
        assert_eq!(r(header), expected);
        assert_eq!(lines(header), expected);
    }

    #[test]
    fn interleaved_streams_are_redacted_each_by_itself_in_every_order() {
        let stdout = [
            "-----BEGIN RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEAsecretbodyline1",
            "c2VjcmV0Ym9keWxpbmUy",
            "-----END RSA PRIVATE KEY-----",
            "  \"name\": \"Smtp__Password\",",
            "  \"value\": \"Interleaved-S3cret\"",
        ];
        let stderr = ["warn: disk almost full", "MIIE looks like base64 but is stderr", "info: done"];
        let secrets = ["MIIEowIBAAKCAQEAsecretbodyline1", "c2VjcmV0Ym9keWxpbmUy", "Interleaved-S3cret"];
        // Every order of the two streams that keeps each stream's own order.
        let total = stdout.len() + stderr.len();
        for mask in 0u32..(1 << total) {
            if mask.count_ones() as usize != stderr.len() {
                continue;
            }
            let (mut out, mut err) = (stdout.iter(), stderr.iter());
            let lines: Vec<(usize, &str)> = (0..total)
                .map(|i| if mask & (1 << i) != 0 { (1, *err.next().unwrap()) } else { (0, *out.next().unwrap()) })
                .collect();
            let shown = redact_interleaved(lines.iter().copied());
            for secret in secrets {
                assert!(!shown.contains(secret), "{secret} leaked in order {mask:b}:\n{shown}");
            }
            for line in stderr.iter().chain(&[stdout[0], stdout[3], stdout[4]]) {
                assert!(shown.lines().any(|shown| shown == *line), "{line} lost in order {mask:b}:\n{shown}");
            }
        }
    }

    #[test]
    fn a_private_key_among_lines_of_other_services_is_hidden() {
        let input = "web-1   | -----BEGIN PRIVATE KEY-----\nweb-1   | MIIEvQIBADANFakeKeyBodyLineOne0123\njob-1   | info: tick\nweb-1   | RmFrZUtleUJvZHlMaW5lVHdv\nweb-1   | -----END PRIVATE KEY-----\njob-1   | info: done";
        for shown in [r(input), lines(input)] {
            for secret in ["MIIEvQIBADANFakeKeyBodyLineOne0123", "RmFrZUtleUJvZHlMaW5lVHdv"] {
                assert!(!shown.contains(secret), "{secret} leaked:\n{shown}");
            }
            for kept in ["job-1   | info: tick", "web-1   | -----END PRIVATE KEY-----", "job-1   | info: done"] {
                assert!(shown.contains(kept), "{kept} lost:\n{shown}");
            }
        }
    }

    #[test]
    fn values_on_the_line_after_what_names_them() {
        for (input, expected) in [
            (
                "BootstrapPassword\nQa7!vv-Pz03\nPasswordHistoryLimit",
                "BootstrapPassword\n[REDACTED]\nPasswordHistoryLimit",
            ),
            (
                "    command:\n      - --requirepass\n      - Hx7-pp!Q2\n      - --save",
                "    command:\n      - --requirepass\n      - [REDACTED]\n      - --save",
            ),
            (
                "##[debug]Evaluating: variables['Db.Password']\n##[debug]Result: 'Zy8!kk-11'\n##[debug]Evaluating: done",
                "##[debug]Evaluating: variables['Db.Password']\n##[debug]Result: '[REDACTED]'\n##[debug]Evaluating: done",
            ),
            (
                "2025-03-01T10:15:02.1234567Z ##[debug]Evaluating: variables['ApiKey']\n2025-03-01T10:15:02.1238901Z ##[debug]Result: 'tmkrkdIC8uOYP4FrMjjeLM567o8Pe5nsc3x4O6ZF4F'",
                "2025-03-01T10:15:02.1234567Z ##[debug]Evaluating: variables['ApiKey']\n2025-03-01T10:15:02.1238901Z ##[debug]Result: '[REDACTED]'",
            ),
            (
                "\"Keys\": {\n  \"ApiKeys\": [\n    \"Zm9vYmFyMTIzNDU2Nzg5MGFiY2RlZg==\",\n    \"YmF6cXV4OTg3NjU0MzIxMGZlZGNiYQ==\"\n  ],\n  \"Issuer\": \"me\"",
                "\"Keys\": {\n  \"ApiKeys\": [\n    \"[REDACTED]\",\n    \"[REDACTED]\"\n  ],\n  \"Issuer\": \"me\"",
            ),
            (
                "curl -H \"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abcdefgh\\\nQWxwaGFCZXRh.eyJzdWIiOiIxIn0.c2lnbmF0dXJl\" \\\n  https://api.example.com/",
                "curl -H \"Authorization: Bearer [REDACTED]\\\n[REDACTED]\" \\\n  https://api.example.com/",
            ),
        ] {
            assert_eq!(r(input), expected, "{input}");
            assert_eq!(lines(input), expected, "line by line: {input}");
        }
    }
}
