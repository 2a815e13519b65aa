//! A small XML reader for the files the dotnet plugins read without running dotnet: MSBuild
//! project files (`.csproj`, `Directory.Build.props`, `Directory.Packages.props`) and XML
//! solutions (`.slnx`).
//!
//! It builds a tree of elements, attributes and text, and understands what those files use:
//! the XML declaration and other processing instructions, comments, `<!DOCTYPE>`, CDATA
//! sections, single- and double-quoted attributes, self-closing tags, the five predefined
//! entities and numeric character references. Namespaces are not resolved (a prefixed name is
//! kept as written). It is not a validating parser: it refuses what it cannot read
//! (unbalanced tags, an unterminated construct) with the line of the problem, and nothing else.
//! Nesting is limited to [`MAX_DEPTH`] levels, so a hostile file cannot exhaust the stack.

use std::fmt;

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

/// Reads a document and returns its root element.
pub fn parse(text: &str) -> Result<Element, XmlError> {
    Reader { text: text.strip_prefix('\u{feff}').unwrap_or(text), pos: 0 }.document()
}

/// How deeply elements may nest. Project and solution files use a handful of levels; the limit
/// keeps the recursive `Drop`, `Clone` and comparison of the tree within any thread's stack.
pub const MAX_DEPTH: usize = 256;

struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn error(&self, message: impl Into<String>) -> XmlError {
        let line = self.text[..self.pos.min(self.text.len())].matches('\n').count() + 1;
        XmlError { line, message: message.into() }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Moves past `end`, which must follow; `what` names the construct for the error.
    fn skip_past(&mut self, end: &str, what: &str) -> Result<usize, XmlError> {
        match self.rest().find(end) {
            Some(offset) => {
                let start = self.pos;
                self.pos += offset + end.len();
                Ok(start + offset)
            }
            None => Err(self.error(format!("unterminated {what}"))),
        }
    }

    fn document(mut self) -> Result<Element, XmlError> {
        // Open elements; the bottom one is a synthetic holder of the root.
        let mut stack: Vec<Element> = vec![Element::default()];
        loop {
            let Some(offset) = self.rest().find('<') else {
                if stack.len() > 1 {
                    return Err(self.error(format!("element <{}> is not closed", stack[stack.len() - 1].name)));
                }
                break;
            };
            if offset > 0 && stack.len() > 1 {
                let raw = &self.rest()[..offset];
                let text = decode(raw).map_err(|message| self.error(message))?;
                push_child(&mut stack, Node::Text(text));
            }
            self.pos += offset;
            let rest = self.rest();
            if rest.starts_with("<!--") {
                self.skip_past("-->", "comment")?;
            } else if rest.starts_with("<![CDATA[") {
                self.pos += "<![CDATA[".len();
                let start = self.pos;
                let end = self.skip_past("]]>", "CDATA section")?;
                let text = self.text[start..end].to_owned();
                push_child(&mut stack, Node::Text(text));
            } else if rest.starts_with("<?") {
                self.skip_past("?>", "processing instruction")?;
            } else if rest.starts_with("<!") {
                self.skip_past(">", "declaration")?;
            } else if rest.starts_with("</") {
                self.pos += 2;
                let start = self.pos;
                let end = self.skip_past(">", "end tag")?;
                let name = self.text[start..end].trim().to_owned();
                if stack.len() == 1 {
                    return Err(self.error(format!("unexpected end tag </{name}>")));
                }
                let open = stack.pop().unwrap_or_default();
                if open.name != name {
                    return Err(self.error(format!("end tag </{name}> does not close <{}>", open.name)));
                }
                push_child(&mut stack, Node::Element(open));
            } else {
                let (element, self_closing) = self.start_tag()?;
                if stack.len() == 1 && stack[0].elements().next().is_some() {
                    return Err(self.error(format!("a second root element <{}>", element.name)));
                }
                if self_closing {
                    push_child(&mut stack, Node::Element(element));
                } else if stack.len() > MAX_DEPTH {
                    return Err(self.error(format!("elements nested deeper than {MAX_DEPTH} levels")));
                } else {
                    stack.push(element);
                }
            }
        }
        let holder = stack.pop().unwrap_or_default();
        holder
            .children
            .into_iter()
            .find_map(|node| match node {
                Node::Element(root) => Some(root),
                Node::Text(_) => None,
            })
            .ok_or_else(|| self.error("the document has no root element"))
    }

    /// Reads `<name attr="value" ...>` or `<name ... />` at the current position.
    fn start_tag(&mut self) -> Result<(Element, bool), XmlError> {
        self.pos += 1;
        let name_end = self.rest().find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(0);
        if name_end == 0 {
            return Err(self.error("a tag without a name"));
        }
        let name = self.rest()[..name_end].to_owned();
        self.pos += name_end;
        let mut element = Element { name, ..Element::default() };
        loop {
            let trimmed = self.rest().trim_start();
            self.pos = self.text.len() - trimmed.len();
            if let Some(after) = trimmed.strip_prefix("/>") {
                self.pos = self.text.len() - after.len();
                return Ok((element, true));
            }
            if let Some(after) = trimmed.strip_prefix('>') {
                self.pos = self.text.len() - after.len();
                return Ok((element, false));
            }
            if trimmed.is_empty() {
                return Err(self.error(format!("unterminated tag <{}>", element.name)));
            }
            let Some(eq) = trimmed.find('=') else {
                return Err(self.error(format!("an attribute without a value in <{}>", element.name)));
            };
            let key = trimmed[..eq].trim().to_owned();
            if key.is_empty() || key.contains(|c: char| c.is_whitespace() || c == '<' || c == '>') {
                return Err(self.error(format!("a malformed attribute in <{}>", element.name)));
            }
            self.pos += eq + 1;
            let value_start = self.rest().trim_start();
            self.pos = self.text.len() - value_start.len();
            let Some(quote) = value_start.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                return Err(self.error(format!("attribute '{key}' of <{}> is not quoted", element.name)));
            };
            self.pos += 1;
            let start = self.pos;
            let end = self.skip_past(&quote.to_string(), "attribute value")?;
            let value = decode(&self.text[start..end]).map_err(|message| self.error(message))?;
            element.attributes.push((key, value));
        }
    }
}

fn push_child(stack: &mut [Element], node: Node) {
    if let Some(parent) = stack.last_mut() {
        parent.children.push(node);
    }
}

/// Decodes the predefined entities and numeric character references of `raw`.
fn decode(raw: &str) -> Result<String, String> {
    if !raw.contains('&') {
        return Ok(raw.to_owned());
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';').filter(|semi| *semi <= 10) else {
            return Err("an '&' that starts no entity".to_owned());
        };
        let entity = &after[..semi];
        let decoded = match entity {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let number = match entity.strip_prefix("#x").or_else(|| entity.strip_prefix("#X")) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => entity.strip_prefix('#').and_then(|dec| dec.parse().ok()),
                };
                number.and_then(char::from_u32).ok_or_else(|| format!("unknown entity '&{entity};'"))?
            }
        };
        out.push(decoded);
        rest = &after[semi + 1..];
    }
    out.push_str(rest);
    Ok(out)
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
            ("<a>\n<b></a>", "does not close"),
            ("<a>\n<b>", "not closed"),
            ("<a x=1/>", "not quoted"),
            ("<a>&bogus;</a>", "unknown entity"),
            ("<!-- open", "unterminated comment"),
            ("", "no root element"),
            ("<a/><b/>", "second root"),
            ("</a>", "unexpected end tag"),
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
