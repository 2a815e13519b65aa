//! Editing an MSBuild project file as text: setting and removing properties, adding and removing
//! items, without touching anything else.
//!
//! The file is tokenized with quick-xml only to learn where each element starts and ends (byte
//! offsets); an edit then splices the original text: it replaces a property's value, inserts one
//! line, or removes the lines of an element. Comments, attribute order and quoting, blank lines,
//! indentation, the line-ending style and a byte-order mark survive as they were. Nothing is
//! re-serialized.
//!
//! What an edit touches:
//! - properties: definitions directly inside a `<PropertyGroup>` of the `<Project>` root, where
//!   neither the group nor the property carries a `Condition` (conditioned definitions are left
//!   alone and counted). Names compare without regard to ASCII case, as MSBuild compares them.
//!   Setting updates the last such definition (the one MSBuild keeps), else adds the property to
//!   the first unconditioned `<PropertyGroup>`, else adds a new group at the end of the project.
//! - items: elements of the item type directly inside an `<ItemGroup>` of the root, matched by
//!   `Include` without regard to ASCII case or `/` versus `\`. Adding goes to the first
//!   unconditioned group that already holds that item type, else to a new group at the end.
//!   Removing skips conditioned groups and items, like properties.
//!
//! A group left without elements by a removal is removed with it, when only whitespace remains
//! in it.

use std::ops::Range;

use quick_xml::{
    Reader,
    escape::{escape, partial_escape, unescape},
    events::{BytesStart, Event},
};

/// One element of the file and where it is.
#[derive(Debug, Clone)]
struct Node {
    /// The tag name as written.
    name: String,
    /// The start tag (the whole element for a self-closing one).
    start: Range<usize>,
    /// The end tag, `None` for a self-closing element.
    end: Option<Range<usize>>,
    /// The enclosing element, `None` for the root.
    parent: Option<usize>,
    /// Whether it carries a `Condition` attribute.
    conditioned: bool,
    /// Its `Include` attribute, decoded.
    include: Option<String>,
}

impl Node {
    /// The whole element, start tag to end tag.
    fn span(&self) -> Range<usize> {
        self.start.start..self.end.as_ref().map_or(self.start.end, |end| end.end)
    }

    /// The text between the start and end tags (empty for a self-closing element).
    fn inner(&self) -> Range<usize> {
        match &self.end {
            Some(end) => self.start.end..end.start,
            None => self.start.end..self.start.end,
        }
    }
}

/// A project file, read for editing.
#[derive(Debug)]
pub struct ProjectText {
    /// The byte-order mark, if the file had one.
    bom: &'static str,
    /// The text after the byte-order mark.
    text: String,
    nodes: Vec<Node>,
    newline: &'static str,
    indent: String,
}

/// What an edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The file's new text (byte-order mark included), `None` when nothing changed.
    pub text: Option<String>,
    /// How many definitions were changed, added or removed.
    pub changed: usize,
    /// The value the property had before (`SetProperty`), decoded.
    pub previous: Option<String>,
    /// How many matching definitions were left alone because they carry a condition.
    pub conditioned: usize,
}

fn attribute(tag: &BytesStart<'_>, name: &str) -> Option<String> {
    tag.attributes().flatten().find(|attr| attr.key.as_ref().eq_ignore_ascii_case(name)).map(|attr| {
        let raw = attr.value.to_string();
        unescape(&raw).map(|value| value.into_owned()).unwrap_or(raw)
    })
}

impl ProjectText {
    /// Reads `text`; the error says where the XML is broken.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (bom, body) = match text.strip_prefix('\u{feff}') {
            Some(body) => ("\u{feff}", body),
            None => ("", text),
        };
        let mut reader = Reader::from_str(body);
        reader.config_mut().trim_text(false);
        let mut nodes: Vec<Node> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        loop {
            let before = reader.buffer_position() as usize;
            let event = reader.read_event().map_err(|error| {
                format!("the project file is not well-formed XML (line {}): {error}", line_of(body, before))
            })?;
            let after = reader.buffer_position() as usize;
            let (tag, self_closing) = match event {
                Event::Start(tag) => (Some(tag), false),
                Event::Empty(tag) => (Some(tag), true),
                Event::End(_) => {
                    if let Some(index) = open.pop() {
                        nodes[index].end = Some(before..after);
                    }
                    (None, false)
                }
                Event::Eof => break,
                _ => (None, false),
            };
            if let Some(tag) = tag {
                nodes.push(Node {
                    name: tag.name().as_ref().to_owned(),
                    start: before..after,
                    end: None,
                    parent: open.last().copied(),
                    conditioned: attribute(&tag, "Condition").is_some(),
                    include: attribute(&tag, "Include"),
                });
                if !self_closing {
                    open.push(nodes.len() - 1);
                }
            }
        }
        if let Some(index) = open.last() {
            return Err(format!("the project file is not well-formed XML: <{}> is never closed", nodes[*index].name));
        }
        match nodes.first() {
            Some(root) if root.name.eq_ignore_ascii_case("Project") => {}
            Some(root) => return Err(format!("the root element is <{}>, not <Project>", root.name)),
            None => return Err("the project file has no <Project> element".to_owned()),
        }
        let newline = if body.contains("\r\n") { "\r\n" } else { "\n" };
        let mut project = Self { bom, text: body.to_owned(), nodes, newline, indent: String::new() };
        project.indent =
            project.children(0).first().map_or_else(|| "  ".to_owned(), |&child| project.indent_before(child));
        if project.indent.is_empty() {
            project.indent = "  ".to_owned();
        }
        Ok(project)
    }

    fn children(&self, parent: usize) -> Vec<usize> {
        (0..self.nodes.len()).filter(|&index| self.nodes[index].parent == Some(parent)).collect()
    }

    /// The whitespace between the start of the element's line and the element.
    fn indent_before(&self, index: usize) -> String {
        let start = self.nodes[index].start.start;
        let line_start = self.text[..start].rfind('\n').map_or(0, |at| at + 1);
        let prefix = &self.text[line_start..start];
        if prefix.chars().all(|c| c == ' ' || c == '\t') { prefix.to_owned() } else { String::new() }
    }

    /// Groups named `group` directly under the root, with whether they carry a condition.
    fn groups(&self, group: &str) -> Vec<usize> {
        self.children(0).into_iter().filter(|&index| self.nodes[index].name.eq_ignore_ascii_case(group)).collect()
    }

    /// The definitions named `name` directly in root-level `group`s: (unconditioned, conditioned).
    fn definitions(&self, group: &str, name: &str, include: Option<&str>) -> (Vec<usize>, usize) {
        let mut free = Vec::new();
        let mut conditioned = 0;
        for group in self.groups(group) {
            for child in self.children(group) {
                let node = &self.nodes[child];
                let matches = node.name.eq_ignore_ascii_case(name)
                    && include
                        .is_none_or(|wanted| node.include.as_deref().is_some_and(|have| same_include(have, wanted)));
                if !matches {
                    continue;
                }
                if node.conditioned || self.nodes[group].conditioned {
                    conditioned += 1;
                } else {
                    free.push(child);
                }
            }
        }
        (free, conditioned)
    }

    /// The text with `edits` (ranges of the body, replacement) applied, byte-order mark included.
    fn apply(&self, mut edits: Vec<(Range<usize>, String)>) -> String {
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut text = self.text.clone();
        for (range, replacement) in edits {
            text.replace_range(range, &replacement);
        }
        format!("{}{text}", self.bom)
    }

    /// The span to delete to remove an element: its whole lines when nothing else is on them.
    fn removal(&self, range: Range<usize>) -> Range<usize> {
        let line_start = self.text[..range.start].rfind('\n').map_or(0, |at| at + 1);
        let before_alone = self.text[line_start..range.start].chars().all(|c| c == ' ' || c == '\t');
        let rest = &self.text[range.end..];
        let line_end = rest.find('\n').map_or(self.text.len(), |at| range.end + at + 1);
        let after_alone = self.text[range.end..line_end].trim().is_empty();
        if before_alone && after_alone { line_start..line_end } else { range }
    }

    /// Where and what to insert to add `element` as the last child of `parent` (a group), or as
    /// a new `group` at the end of the root when `parent` is `None`.
    fn insertion(&self, parent: Option<usize>, group: &str, element: &str) -> (Range<usize>, String) {
        let nl = self.newline;
        match parent {
            Some(parent) => {
                let children = self.children(parent);
                let group_indent = self.indent_before(parent);
                match children.last() {
                    Some(&last) => {
                        let at = self.nodes[last].span().end;
                        (at..at, format!("{nl}{}{element}", self.indent_before(last)))
                    }
                    None => {
                        let inner = self.nodes[parent].inner();
                        (inner, format!("{nl}{group_indent}{}{element}{nl}{group_indent}", self.indent))
                    }
                }
            }
            None => {
                let root = &self.nodes[0];
                let indent = &self.indent;
                let block = format!("<{group}>{nl}{indent}{indent}{element}{nl}{indent}</{group}>");
                match self.children(0).last() {
                    Some(&last) => {
                        let at = self.nodes[last].span().end;
                        (at..at, format!("{nl}{nl}{indent}{block}"))
                    }
                    None if root.end.is_some() => (root.inner(), format!("{nl}{indent}{block}{nl}")),
                    None => {
                        // `<Project ... />`: reopen it.
                        let tag = self.text[root.start.clone()].trim_end_matches('>').trim_end_matches('/').trim_end();
                        (root.span(), format!("{tag}>{nl}{indent}{block}{nl}</{}>", root.name))
                    }
                }
            }
        }
    }

    /// Removes the elements `removed` (indices), and a group they leave with only whitespace.
    fn remove(&self, removed: &[usize]) -> Vec<(Range<usize>, String)> {
        let mut edits = Vec::new();
        let mut groups: Vec<usize> = removed.iter().filter_map(|&index| self.nodes[index].parent).collect();
        groups.sort_unstable();
        groups.dedup();
        for group in groups {
            let children = self.children(group);
            let mine: Vec<usize> = children.iter().copied().filter(|child| removed.contains(child)).collect();
            let inner = self.nodes[group].inner();
            let mut rest = self.text[inner.clone()].to_owned();
            for &child in mine.iter().rev() {
                let span = self.nodes[child].span();
                rest.replace_range(span.start - inner.start..span.end - inner.start, "");
            }
            if mine.len() == children.len() && rest.trim().is_empty() {
                edits.push((self.removal(self.nodes[group].span()), String::new()));
            } else {
                edits.extend(mine.into_iter().map(|child| (self.removal(self.nodes[child].span()), String::new())));
            }
        }
        edits
    }

    /// Sets property `name` to `value` (see the module documentation for where).
    pub fn set_property(&self, name: &str, value: &str) -> Outcome {
        let (defined, conditioned) = self.definitions("PropertyGroup", name, None);
        let escaped = partial_escape(value);
        if let Some(&last) = defined.last() {
            let node = &self.nodes[last];
            let raw = &self.text[node.inner()];
            let previous = unescape(raw).map(|text| text.into_owned()).unwrap_or_else(|_| raw.to_owned());
            if previous == value {
                return Outcome { text: None, changed: 0, previous: Some(previous), conditioned };
            }
            let edit = match &node.end {
                Some(_) => (node.inner(), escaped.into_owned()),
                None => (node.span(), format!("<{0}>{escaped}</{0}>", node.name)),
            };
            return Outcome { text: Some(self.apply(vec![edit])), changed: 1, previous: Some(previous), conditioned };
        }
        let element = format!("<{name}>{escaped}</{name}>");
        let group = self
            .groups("PropertyGroup")
            .into_iter()
            .find(|&group| !self.nodes[group].conditioned && self.nodes[group].end.is_some());
        let edit = self.insertion(group, "PropertyGroup", &element);
        Outcome { text: Some(self.apply(vec![edit])), changed: 1, previous: None, conditioned }
    }

    /// Removes every unconditioned definition of property `name`.
    pub fn remove_property(&self, name: &str) -> Outcome {
        let (defined, conditioned) = self.definitions("PropertyGroup", name, None);
        if defined.is_empty() {
            return Outcome { text: None, changed: 0, previous: None, conditioned };
        }
        Outcome { text: Some(self.apply(self.remove(&defined))), changed: defined.len(), previous: None, conditioned }
    }

    /// Adds `<item_type Include="include" key="value"... />` unless an item of that type with that
    /// `Include` exists already.
    pub fn add_item(&self, item_type: &str, include: &str, metadata: &[(String, String)]) -> Outcome {
        let (existing, conditioned) = self.definitions("ItemGroup", item_type, Some(include));
        if !existing.is_empty() {
            return Outcome { text: None, changed: 0, previous: None, conditioned };
        }
        let mut element = format!("<{item_type} Include=\"{}\"", escape(include));
        for (key, value) in metadata {
            element.push_str(&format!(" {key}=\"{}\"", escape(value.as_str())));
        }
        element.push_str(" />");
        let group = self.groups("ItemGroup").into_iter().find(|&group| {
            !self.nodes[group].conditioned
                && self.children(group).iter().any(|&child| self.nodes[child].name.eq_ignore_ascii_case(item_type))
        });
        let edit = self.insertion(group, "ItemGroup", &element);
        Outcome { text: Some(self.apply(vec![edit])), changed: 1, previous: None, conditioned }
    }

    /// Removes every unconditioned item of `item_type` whose `Include` is `include`.
    pub fn remove_item(&self, item_type: &str, include: &str) -> Outcome {
        let (matching, conditioned) = self.definitions("ItemGroup", item_type, Some(include));
        if matching.is_empty() {
            return Outcome { text: None, changed: 0, previous: None, conditioned };
        }
        Outcome { text: Some(self.apply(self.remove(&matching))), changed: matching.len(), previous: None, conditioned }
    }

    /// The item types declared in the file's root-level item groups, in order of appearance.
    pub fn item_types(&self) -> Vec<String> {
        let mut types: Vec<String> = Vec::new();
        for group in self.groups("ItemGroup") {
            for child in self.children(group) {
                let name = &self.nodes[child].name;
                if !types.iter().any(|known| known.eq_ignore_ascii_case(name)) {
                    types.push(name.clone());
                }
            }
        }
        types
    }
}

/// Whether two `Include` values name the same item: ASCII case and path separators aside.
fn same_include(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| norm(x) == norm(y))
}

fn norm(byte: u8) -> u8 {
    if byte == b'\\' { b'/' } else { byte.to_ascii_lowercase() }
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROJECT: &str = r#"<Project Sdk="Microsoft.NET.Sdk">

  <!-- the app -->
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
  </PropertyGroup>

  <PropertyGroup Condition="'$(Configuration)' == 'Release'">
    <Optimize>true</Optimize>
    <Nullable>disable</Nullable>
  </PropertyGroup>

  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
    <PackageReference Include='Serilog'   Version='4.0.0'/>
  </ItemGroup>

</Project>
"#;

    fn parse(text: &str) -> ProjectText {
        ProjectText::parse(text).unwrap()
    }

    #[test]
    fn setting_an_existing_property_replaces_only_its_value() {
        let outcome = parse(PROJECT).set_property("targetframework", "net8.0;net10.0");
        assert_eq!(outcome.previous.as_deref(), Some("net10.0"));
        assert_eq!(outcome.text.unwrap(), PROJECT.replace("net10.0</Target", "net8.0;net10.0</Target"));
        let same = parse(PROJECT).set_property("OutputType", "Exe");
        assert_eq!((same.text, same.changed), (None, 0));
    }

    #[test]
    fn a_conditioned_definition_is_left_alone_and_counted() {
        let outcome = parse(PROJECT).set_property("Nullable", "annotations");
        assert_eq!(outcome.conditioned, 1);
        let text = outcome.text.unwrap();
        assert!(text.contains("<Nullable>annotations</Nullable>") && text.contains("<Nullable>disable</Nullable>"));
    }

    #[test]
    fn a_new_property_joins_the_first_unconditioned_group_with_its_indentation() {
        let outcome = parse(PROJECT).set_property("LangVersion", "preview & <more>");
        let expected = PROJECT.replace(
            "<Nullable>enable</Nullable>\n",
            "<Nullable>enable</Nullable>\n    <LangVersion>preview &amp; &lt;more&gt;</LangVersion>\n",
        );
        assert_eq!(outcome.text.unwrap(), expected);
    }

    #[test]
    fn a_project_without_a_free_group_gets_a_new_one_and_keeps_crlf_and_bom() {
        let text = "\u{feff}<Project>\r\n\t<ItemGroup>\r\n\t\t<Compile Include=\"a.cs\" />\r\n\t</ItemGroup>\r\n</Project>\r\n";
        let outcome = parse(text).set_property("Version", "1.2.3");
        assert_eq!(
            outcome.text.unwrap(),
            "\u{feff}<Project>\r\n\t<ItemGroup>\r\n\t\t<Compile Include=\"a.cs\" />\r\n\t</ItemGroup>\r\n\r\n\t<PropertyGroup>\r\n\t\t<Version>1.2.3</Version>\r\n\t</PropertyGroup>\r\n</Project>\r\n"
        );
        let closed = parse("<Project Sdk=\"X\" />").set_property("A", "b");
        assert_eq!(
            closed.text.unwrap(),
            "<Project Sdk=\"X\">\n  <PropertyGroup>\n    <A>b</A>\n  </PropertyGroup>\n</Project>"
        );
        let empty = parse("<Project Sdk=\"X\"></Project>").set_property("A", "b");
        assert_eq!(
            empty.text.unwrap(),
            "<Project Sdk=\"X\">\n  <PropertyGroup>\n    <A>b</A>\n  </PropertyGroup>\n</Project>"
        );
    }

    #[test]
    fn a_self_closing_property_gets_a_value() {
        let outcome = parse("<Project><PropertyGroup><Foo /></PropertyGroup></Project>").set_property("Foo", "1");
        assert_eq!(outcome.text.unwrap(), "<Project><PropertyGroup><Foo>1</Foo></PropertyGroup></Project>");
        assert_eq!(outcome.previous.as_deref(), Some(""));
    }

    #[test]
    fn removing_a_property_removes_its_line_and_an_emptied_group() {
        let outcome = parse(PROJECT).remove_property("Nullable");
        assert_eq!((outcome.changed, outcome.conditioned), (1, 1));
        assert_eq!(outcome.text.unwrap(), PROJECT.replace("    <Nullable>enable</Nullable>\n", ""));
        let single = "<Project>\n  <PropertyGroup>\n    <A>1</A>\n  </PropertyGroup>\n  <ItemGroup />\n</Project>\n";
        assert_eq!(parse(single).remove_property("a").text.unwrap(), "<Project>\n  <ItemGroup />\n</Project>\n");
        assert_eq!(parse(PROJECT).remove_property("Missing").text, None);
    }

    #[test]
    fn items_are_added_beside_their_kind_once() {
        let outcome = parse(PROJECT).add_item("PackageReference", "Polly", &[("Version".into(), "8.4.0".into())]);
        assert_eq!(
            outcome.text.unwrap(),
            PROJECT.replace(
                "Version='4.0.0'/>\n",
                "Version='4.0.0'/>\n    <PackageReference Include=\"Polly\" Version=\"8.4.0\" />\n"
            )
        );
        assert_eq!(parse(PROJECT).add_item("packagereference", "serilog", &[]).text, None);
        let other = parse(PROJECT).add_item("Compile", r"src\Extra.cs", &[]).text.unwrap();
        assert!(
            other.ends_with("  </ItemGroup>\n\n  <ItemGroup>\n    <Compile Include=\"src\\Extra.cs\" />\n  </ItemGroup>\n\n</Project>\n"),
            "{other}"
        );
    }

    #[test]
    fn items_are_removed_by_include_whatever_the_case_and_separators() {
        let outcome = parse(PROJECT).remove_item("PackageReference", "SERILOG");
        assert_eq!(outcome.changed, 1);
        assert_eq!(
            outcome.text.unwrap(),
            PROJECT.replace("    <PackageReference Include='Serilog'   Version='4.0.0'/>\n", "")
        );
        let paths = "<Project><ItemGroup><None Include=\"a\\b.txt\" /><None Include=\"c.txt\" /></ItemGroup></Project>";
        assert_eq!(
            parse(paths).remove_item("None", "A/B.TXT").text.unwrap(),
            "<Project><ItemGroup><None Include=\"c.txt\" /></ItemGroup></Project>"
        );
    }

    #[test]
    fn item_types_and_broken_files() {
        assert_eq!(parse(PROJECT).item_types(), ["PackageReference"]);
        assert!(ProjectText::parse("<Project><PropertyGroup></Project>").unwrap_err().contains("well-formed"));
        assert!(ProjectText::parse("<Solution/>").unwrap_err().contains("<Solution>"));
    }
}
