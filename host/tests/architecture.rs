//! The host's import graph has no cycle.
//!
//! Each file of `host/src` is a module; a module imports another when its
//! code (tests excluded) names it: a `use` of `crate::…`, `super::…`,
//! `self::…` or of a child module, or such a path written inline. A parent
//! that re-exports a child imports it, so a child that imports its parent
//! makes a cycle too. A cycle means no module of it can be understood, or
//! changed, without the others; this test names it, module by module.
//!
//! `cargo test -p mcp-plugin-host --test architecture -- --nocapture` also
//! prints every module with what it imports.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

/// A module, as the path of its file under `src` without the extension (`plugin/load`, `settings`).
type Module = String;

fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// The module a file is (`lib.rs` and `main.rs` are the crate's roots and left out).
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    (parts != ["lib"] && parts != ["main"]).then(|| parts.join("/"))
}

/// The code without comments, string and character literals, and `#[cfg(…test…)]` modules.
fn code(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    while at < bytes.len() {
        let rest = &source[at..];
        if rest.starts_with("//") {
            at += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            while at < bytes.len() {
                if source[at..].starts_with("/*") {
                    depth += 1;
                    at += 2;
                } else if source[at..].starts_with("*/") {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].chars().take_while(|c| *c == '#').count();
            let end = format!("\"{}", "#".repeat(hashes));
            let body = at + 2 + hashes;
            at = body + source[body..].find(&end).map_or(source.len() - body, |found| found + end.len());
            out.push_str("\"\"");
        } else if bytes[at] == b'"' {
            at += 1;
            while at < bytes.len() && bytes[at] != b'"' {
                at += if bytes[at] == b'\\' { 2 } else { 1 };
            }
            at += 1;
            out.push_str("\"\"");
        } else if bytes[at] == b'\'' && is_char_literal(&source[at..]) {
            let close = source[at + 2..].find('\'').map_or(source.len(), |found| at + 2 + found);
            at = close + 1;
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            at += c.len_utf8();
        }
    }
    without_test_modules(&out)
}

/// Whether `text` starts with a character literal (`'a'`, `'\n'`), not a lifetime (`'a`).
fn is_char_literal(text: &str) -> bool {
    let mut chars = text.chars().skip(1);
    match chars.next() {
        Some('\\') => true,
        Some(_) => chars.next() == Some('\''),
        None => false,
    }
}

fn without_test_modules(code: &str) -> String {
    let mut code = code.to_owned();
    loop {
        let Some(attribute) = find_test_attribute(&code) else { return code };
        let Some(open) = code[attribute..].find('{').map(|found| attribute + found) else { return code };
        let mut depth = 0;
        let mut end = open;
        for (offset, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = open + offset + 1;
                break;
            }
        }
        code.replace_range(attribute..end, "");
    }
}

/// Where a `#[cfg(…test…)]` attribute of a `mod` starts.
fn find_test_attribute(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = code[from..].find("#[cfg(") {
        let at = from + found;
        let close = code[at..].find(']')? + at;
        let attribute = &code[at..close];
        let after = code[close + 1..].trim_start();
        let is_test = attribute.split(|c: char| !c.is_alphanumeric() && c != '_').any(|word| word == "test");
        if is_test && (after.starts_with("mod ") || after.starts_with("pub mod ")) {
            return Some(at);
        }
        from = close;
    }
    None
}

/// The paths a `use` tree names, each as its segments (`crate::{a::b, c}` → `crate::a::b`, `crate::c`).
fn use_paths(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if tree.is_empty() {
        // After a trailing comma.
        return;
    }
    if let Some(inner) = tree.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')) {
        let mut depth = 0;
        let mut item = String::new();
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_paths(&item, prefix, out);
                    item.clear();
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        use_paths(&item, prefix, out);
        return;
    }
    if let Some((head, rest)) = tree.split_once("::{") {
        let mut prefix = prefix.to_vec();
        prefix.extend(head.split("::").map(|part| part.trim().to_owned()));
        use_paths(&format!("{{{rest}"), &prefix, out);
        return;
    }
    let path = tree.split(" as ").next().unwrap_or_default();
    let mut full = prefix.to_vec();
    full.extend(path.split("::").map(|part| part.trim().to_owned()).filter(|part| !part.is_empty()));
    if !full.is_empty() {
        out.push(full);
    }
}

/// The module a path written in `module` names, if it names one of the crate's.
fn resolve(modules: &BTreeSet<Module>, module: &str, path: &[String]) -> Option<Module> {
    let mut base: Vec<&str> = if module.is_empty() { Vec::new() } else { module.split('/').collect() };
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super" | "self") => {
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => drop(base.pop()),
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let child = if module.is_empty() { first.to_owned() } else { format!("{module}/{first}") };
            if !modules.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    let mut full: Vec<&str> = base;
    full.extend(rest.iter().map(String::as_str));
    (1..=full.len()).rev().map(|length| full[..length].join("/")).find(|candidate| modules.contains(candidate))
}

/// Every module with the modules it imports.
fn import_graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let sources: BTreeMap<Module, String> = files
        .iter()
        .filter_map(|file| Some((module_of(&src, file)?, code(&std::fs::read_to_string(file).unwrap()))))
        .collect();
    let modules: BTreeSet<Module> = sources.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, code) in &sources {
        let mut imports = BTreeSet::new();
        let mut paths = Vec::new();
        let mut rest = code.as_str();
        while let Some(at) = find_word(rest, "use") {
            let end = rest[at..].find(';').map_or(rest.len(), |found| at + found);
            let tree: String = rest[at + 3..end].split_whitespace().collect::<Vec<_>>().join(" ");
            use_paths(&tree, &[], &mut paths);
            rest = &rest[end..];
        }
        for path in inline_paths(code) {
            paths.push(path);
        }
        for path in paths {
            if let Some(target) = resolve(&modules, module, &path)
                && target != *module
            {
                imports.insert(target);
            }
        }
        graph.insert(module.clone(), imports);
    }
    graph
}

/// Where the word `word` starts in `text` (not inside an identifier).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        let before = text[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_');
        let after = text[at + word.len()..].chars().next().is_some_and(char::is_whitespace);
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Paths written inline (`crate::settings::get_ci(…)`, `super::copies::copy(…)`, `child::f()`),
/// outside `use` declarations and `mod` declarations.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut at = 0;
    while at < chars.len() {
        let starts = (chars[at].is_alphabetic() || chars[at] == '_')
            && (at == 0 || !(chars[at - 1].is_alphanumeric() || chars[at - 1] == '_' || chars[at - 1] == ':'));
        if !starts {
            at += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut end = at;
        loop {
            let start = end;
            while end < chars.len() && (chars[end].is_alphanumeric() || chars[end] == '_') {
                end += 1;
            }
            segments.push(chars[start..end].iter().collect::<String>());
            if end + 2 < chars.len() && chars[end] == ':' && chars[end + 1] == ':' && chars[end + 2] != '{' {
                end += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1 && segments[0] != "use" {
            paths.push(segments);
        }
        at = end.max(at + 1);
    }
    paths
}

/// The cycles of `graph`: its strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Search<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, module: &'a str) {
            let index = self.index.len();
            self.index.insert(module, index);
            self.low.insert(module, index);
            self.stack.push(module);
            for next in &self.graph[module] {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[module].min(self.low[next.as_str()]);
                    self.low.insert(module, low);
                } else if self.stack.contains(&next.as_str()) {
                    let low = self.low[module].min(self.index[next.as_str()]);
                    self.low.insert(module, low);
                }
            }
            if self.low[module] == self.index[module] {
                let mut component = Vec::new();
                while let Some(member) = self.stack.pop() {
                    component.push(member.to_owned());
                    if member == module {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut search =
        Search { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for module in graph.keys() {
        if !search.index.contains_key(module.as_str()) {
            search.visit(module);
        }
    }
    search.found
}

#[test]
fn the_host_has_no_import_cycle() {
    let graph = import_graph();
    for (module, imports) in &graph {
        println!("{module} -> {}", imports.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    assert!(graph.len() > 40, "the modules of host/src were found: {:?}", graph.keys());
    assert!(graph["plugin/load"].contains("plugin/report"), "imports are read: {:?}", graph["plugin/load"]);
    let found = cycles(&graph);
    assert!(found.is_empty(), "import cycles in host/src (each a set of modules that import each other):\n{found:#?}");
}

#[test]
fn the_graph_reading_finds_a_cycle_where_there_is_one() {
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    graph.insert("a".into(), BTreeSet::from(["b".to_owned()]));
    graph.insert("b".into(), BTreeSet::from(["c".to_owned()]));
    graph.insert("c".into(), BTreeSet::from(["a".to_owned()]));
    graph.insert("d".into(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(cycles(&graph), vec![vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]]);
    let modules: BTreeSet<Module> = ["plugin", "plugin/load", "settings", "settings/raw"].map(String::from).into();
    let path = |text: &str| text.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(
        resolve(&modules, "plugin/load", &path("super::super::settings::raw::Raw")),
        Some("settings/raw".into())
    );
    assert_eq!(resolve(&modules, "settings", &path("raw::Raw")), Some("settings/raw".into()));
    assert_eq!(resolve(&modules, "plugin/load", &path("crate::settings::Settings")), Some("settings".into()));
    assert_eq!(resolve(&modules, "plugin/load", &path("serde::Deserialize")), None);
    let mut paths = Vec::new();
    use_paths("crate::{plugin::{load, report::X,}, settings,}", &[], &mut paths);
    assert_eq!(paths, vec![path("crate::plugin::load"), path("crate::plugin::report::X"), path("crate::settings")]);
    assert!(code("// crate::a\nfn f() { let s = \"crate::b\"; }").find("crate").is_none());
    assert!(code("#[cfg(test)]\nmod tests { use crate::x; }\nfn g() {}").contains("fn g"));
    assert!(!code("#[cfg(test)]\nmod tests { use crate::x; }").contains("crate"));
}
