//! The element tree of the XML files the dotnet plugins read without running dotnet: MSBuild
//! project files (`.csproj`, `Directory.Build.props`, `Directory.Packages.props`) and XML
//! solutions (`.slnx`).
//!
//! quick-xml (the crate the project plugin also edits project files with) reads the document;
//! this module keeps what those readers query: elements, their attributes and their text,
//! with entities, character references and CDATA decoded. Names are compared without regard
//! to ASCII case, as MSBuild compares them; namespaces are not resolved (a prefixed name is kept
//! as written). A document that is not well-formed is refused with the line of the problem.
//! Nesting is limited to [`MAX_DEPTH`] levels, so a hostile file cannot exhaust the stack.

use std::fmt;

use quick_xml::{
    Reader,
    escape::{resolve_predefined_entity, unescape},
    events::{BytesStart, Event},
};

/// One element: its name, its attributes in document order and its children.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Element {
    /// The tag name as written (`PackageReference`, `x:Item`).
    pub name: String,
    /// The attributes, values with entities decoded.
    pub attributes: Vec<(String, String)>,
    /// Child elements and text, in document order.
    pub children: Vec<Node>,
}

/// A child of an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A nested element.
    Element(Element),
    /// Character data (entities decoded, CDATA included as is).
    Text(String),
}

/// Why a document could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    /// The 1-based line where the problem was found.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for XmlError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for XmlError {}

impl Element {
    /// The value of an attribute, its name compared without regard to ASCII case (MSBuild
    /// reads `Include` and `include` alike).
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|node| match node {
            Node::Element(element) => Some(element),
            Node::Text(_) => None,
        })
    }

    /// The child elements called `name` (without regard to ASCII case).
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.elements().filter(move |element| element.name.eq_ignore_ascii_case(name))
    }

    /// Every element below this one called `name` (without regard to ASCII case), in document
    /// order.
    pub fn descendants_named(&self, name: &str) -> Vec<&Element> {
        let mut found = Vec::new();
        let mut stack: Vec<&Element> = self.elements().collect();
        stack.reverse();
        while let Some(element) = stack.pop() {
            if element.name.eq_ignore_ascii_case(name) {
                found.push(element);
            }
            let start = stack.len();
            stack.extend(element.elements());
            stack[start..].reverse();
        }
        found
    }

    /// The text directly inside this element, trimmed.
    pub fn text(&self) -> String {
        let text: String = self
            .children
            .iter()
            .filter_map(|node| match node {
                Node::Text(text) => Some(text.as_str()),
                Node::Element(_) => None,
            })
            .collect();
        text.trim().to_owned()
    }
}

/// Reads a document and returns its root element. quick-xml tokenizes it (and refuses what is
/// not well-formed: unquoted attributes, mismatched end tags, unknown entities); this function
/// only builds the tree, with the checks quick-xml leaves to its caller: one root element, every
/// element closed, nesting within [`MAX_DEPTH`].
pub fn parse(text: &str) -> Result<Element, XmlError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |position: u64, message: String| XmlError { line: line_of(body, position as usize), message };
    let mut reader = Reader::from_str(body);
    reader.config_mut().trim_text(false);
    // Open elements; the bottom one is a synthetic holder of the root.
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader.read_event().map_err(|error| at(reader.error_position(), error.to_string()))?;
        let here = reader.buffer_position();
        match event {
            Event::Start(tag) | Event::Empty(tag) if stack.len() == 1 && stack[0].elements().next().is_some() => {
                return Err(at(here, format!("a second root element <{}>", tag.name().as_ref())));
            }
            Event::Start(tag) if stack.len() > MAX_DEPTH => {
                return Err(at(
                    here,
                    format!("<{}>: elements nested deeper than {MAX_DEPTH} levels", tag.name().as_ref()),
                ));
            }
            Event::Start(tag) => stack.push(element(&tag).map_err(|message| at(here, message))?),
            Event::Empty(tag) => {
                let element = element(&tag).map_err(|message| at(here, message))?;
                push_child(&mut stack, Node::Element(element));
            }
            Event::End(tag) => {
                if stack.len() == 1 {
                    return Err(at(here, format!("unexpected end tag </{}>", tag.name().as_ref())));
                }
                let open = stack.pop().unwrap_or_default();
                push_child(&mut stack, Node::Element(open));
            }
            Event::Text(text) if stack.len() > 1 => push_text(&mut stack, &text.xml10_content()),
            Event::CData(data) if stack.len() > 1 => push_text(&mut stack, &data.xml10_content()),
            Event::GeneralRef(reference) if stack.len() > 1 => {
                let name: &str = &reference;
                let resolved = match reference.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => resolve_predefined_entity(name)
                        .map(str::to_owned)
                        .ok_or_else(|| at(here, format!("unknown entity '&{name};'")))?,
                };
                push_text(&mut stack, &resolved);
            }
            Event::Eof => break,
            // The declaration, processing instructions, comments, the DOCTYPE, and what lies
            // outside the root.
            _ => {}
        }
    }
    if stack.len() > 1 {
        let open = &stack[stack.len() - 1].name;
        return Err(at(reader.buffer_position(), format!("element <{open}> is not closed")));
    }
    stack
        .pop()
        .unwrap_or_default()
        .children
        .into_iter()
        .find_map(|node| match node {
            Node::Element(root) => Some(root),
            Node::Text(_) => None,
        })
        .ok_or_else(|| at(reader.buffer_position(), "the document has no root element".to_owned()))
}

/// How deeply elements may nest. Project and solution files use a handful of levels; the limit
/// keeps the recursive `Drop`, `Clone` and comparison of the tree within any thread's stack.
pub const MAX_DEPTH: usize = 256;

/// The 1-based line of byte `position` in `text`.
fn line_of(text: &str, position: usize) -> usize {
    text.as_bytes()[..position.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// An element with its attributes (values unescaped), from its start tag.
fn element(tag: &BytesStart<'_>) -> Result<Element, String> {
    let name = tag.name().as_ref().to_owned();
    let attributes = tag
        .attributes()
        .map(|attribute| {
            let attribute = attribute.map_err(|error| format!("<{name}>: {error}"))?;
            let value = unescape(&attribute.value).map_err(|error| format!("<{name}>: {error}"))?;
            Ok((attribute.key.as_ref().to_owned(), value.into_owned()))
        })
        .collect::<Result<_, String>>()?;
    Ok(Element { name, attributes, children: Vec::new() })
}

fn push_child(stack: &mut [Element], node: Node) {
    if let Some(parent) = stack.last_mut() {
        parent.children.push(node);
    }
}

/// Appends text to the open element, joined to the text just before it: quick-xml reports
/// `a &amp; b` as three pieces.
fn push_text(stack: &mut [Element], text: &str) {
    if let Some(parent) = stack.last_mut() {
        match parent.children.last_mut() {
            Some(Node::Text(previous)) => previous.push_str(text),
            _ => parent.children.push(Node::Text(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_project_file() {
        let text = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
            <!-- a comment with <tags> -->\n\
            <Project Sdk=\"Microsoft.NET.Sdk\">\n\
              <PropertyGroup>\n    <TargetFrameworks>net8.0;net10.0</TargetFrameworks>\n  </PropertyGroup>\n\
              <ItemGroup>\n\
                <PackageReference Include='Serilog' Version=\"4.2.0\" />\n\
                <PackageReference Include=\"A&amp;B\"><Version>1.0</Version></PackageReference>\n\
                <ProjectReference Include=\"..\\Lib\\Lib.csproj\"/>\n\
              </ItemGroup>\n\
              <Target Name=\"X\"><Message Text=\"&lt;&#65;&#x42;&gt;\" /><![CDATA[a < b]]></Target>\n\
            </Project>\n";
        let root = parse(text).unwrap();
        assert_eq!(root.name, "Project");
        assert_eq!(root.attribute("sdk"), Some("Microsoft.NET.Sdk"));
        let frameworks = root.descendants_named("TargetFrameworks");
        assert_eq!(frameworks[0].text(), "net8.0;net10.0");
        let packages = root.descendants_named("packagereference");
        assert_eq!(packages.len(), 2);
        assert_eq!(packages[0].attribute("Version"), Some("4.2.0"));
        assert_eq!(packages[1].attribute("Include"), Some("A&B"));
        assert_eq!(packages[1].children_named("Version").next().unwrap().text(), "1.0");
        assert_eq!(root.descendants_named("ProjectReference")[0].attribute("Include"), Some("..\\Lib\\Lib.csproj"));
        let target = root.descendants_named("Target")[0];
        assert_eq!(target.descendants_named("Message")[0].attribute("Text"), Some("<AB>"));
        assert_eq!(target.text(), "a < b");
    }

    #[test]
    fn descendants_come_in_document_order() {
        let root = parse("<S><F Name='a'><P Path='1'/><F Name='b'><P Path='2'/></F></F><P Path='3'/></S>").unwrap();
        let paths: Vec<&str> = root.descendants_named("P").iter().filter_map(|p| p.attribute("Path")).collect();
        assert_eq!(paths, ["1", "2", "3"]);
    }

    #[test]
    fn malformed_documents_are_refused_with_their_line() {
        for (text, needle) in [
            ("<a>\n<b></a>", "expected `</b>`, but `</a>` was found"),
            ("<a>\n<b>", "not closed"),
            ("<a x=1/>", "must be enclosed in"),
            ("<a>&bogus;</a>", "unknown entity"),
            ("<!-- open", "comment not closed"),
            ("", "no root element"),
            ("<a/><b/>", "second root"),
            ("</a>", "does not match any open tag"),
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.to_string().contains(needle), "{text:?}: {error}");
        }
        assert_eq!(parse("<a>\n\n<b></a>").unwrap_err().line, 3);
    }

    #[test]
    fn nesting_is_bounded() {
        let nested = |depth: usize| format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        assert_eq!(parse(&nested(MAX_DEPTH)).unwrap().name, "a");
        let error = parse(&nested(100_000)).unwrap_err();
        assert!(error.message.contains("deeper than"), "{error}");
    }
}
