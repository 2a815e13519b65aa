//! The recordings of the real SDK: one file per `dotnet` invocation the real-SDK scenarios
//! (`host/tests/real_sdk`) made, written by `dotnet-record` and replayed by `dotnet-double`.
//!
//! A recording is a text fixture with a header: leading `## key: value` lines (the SDK, the
//! scenario, the argument vector as a JSON array, the working directory relative to the
//! scenario's workspace, the exit code), then the output as every text fixture holds it: a
//! stdout line as it is, a stderr line after `2> `, and a stdout line that would read as either
//! (or as a header line) after `1> `. Machine-specific parts are placeholders (`{{workspace}}`,
//! `{{home}}`, `{{root}}`, `{{nuget_packages}}`, `{{temp}}`); GUIDs, durations, timestamps and
//! process ids are replaced by fixed values.
//!
//! Shared by both binaries of the crate (`#[path]`): `dotnet-record` writes recordings,
//! `dotnet-double` reads them.

/// One recorded invocation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recording {
    /// The header's `key: value` pairs other than `argv`, `cwd` and `exit`, in file order.
    pub header: Vec<(String, String)>,
    /// The arguments after the program name.
    pub argv: Vec<String>,
    /// The working directory (relative to the workspace once normalised).
    pub cwd: String,
    /// The exit code; `None` when the process was killed before it ended (a background session).
    pub exit: Option<i32>,
    /// The output, one `(stream, line)` per line: 1 stdout, 2 stderr.
    pub lines: Vec<(u8, String)>,
}

impl Recording {
    /// The value of header `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.header.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Reads a recording's text; `None` when it has no `argv` header (not a recording).
    pub fn parse(text: &str) -> Option<Recording> {
        let mut recording = Recording::default();
        let mut argv = None;
        let mut body = text;
        while let Some(line) = body.strip_prefix("## ") {
            let (line, rest) = line.split_once('\n').unwrap_or((line, ""));
            body = rest;
            let (key, value) = line.split_once(": ").unwrap_or((line.trim_end_matches(':'), ""));
            match key {
                "argv" => argv = serde_json::from_str::<Vec<String>>(value).ok(),
                "cwd" => recording.cwd = value.to_owned(),
                "exit" => recording.exit = value.parse().ok(),
                _ => recording.header.push((key.to_owned(), value.to_owned())),
            }
        }
        recording.argv = argv?;
        if !body.is_empty() {
            for line in body.strip_suffix('\n').unwrap_or(body).split('\n') {
                recording.lines.push(match line {
                    "2>" => (2, String::new()),
                    "1>" => (1, String::new()),
                    _ => match (line.strip_prefix("2> "), line.strip_prefix("1> ")) {
                        (Some(err), _) => (2, err.to_owned()),
                        (_, Some(out)) => (1, out.to_owned()),
                        _ => (1, line.to_owned()),
                    },
                });
            }
        }
        Some(recording)
    }

    /// The recording as file text (the inverse of [`Recording::parse`]).
    pub fn render(&self) -> String {
        let mut text = String::new();
        for (key, value) in &self.header {
            text.push_str(&format!("## {key}: {value}\n"));
        }
        text.push_str(&format!("## argv: {}\n", serde_json::to_string(&self.argv).expect("strings serialize")));
        text.push_str(&format!("## cwd: {}\n", self.cwd));
        match self.exit {
            Some(code) => text.push_str(&format!("## exit: {code}\n")),
            None => text.push_str("## exit: killed\n"),
        }
        for (stream, line) in &self.lines {
            text.push_str(&body_line(*stream, line));
            text.push('\n');
        }
        text
    }
}

/// One output line as a fixture holds it.
pub fn body_line(stream: u8, line: &str) -> String {
    let ambiguous = line.starts_with("2>") || line.starts_with("1>") || line.starts_with("## ") || line == "##";
    match stream {
        2 if line.is_empty() => "2>".to_owned(),
        2 => format!("2> {line}"),
        _ if ambiguous => format!("1> {line}"),
        _ => line.to_owned(),
    }
}

/// The file name of a recording: its place in the scenario and the command's words (not its
/// paths or options), e.g. `007-new-console.txt`.
pub fn file_name(number: usize, argv: &[String]) -> String {
    let words: Vec<String> = argv
        .iter()
        .filter(|arg| !arg.starts_with('-') && !arg.contains('/') && !arg.contains('.') && !arg.contains('='))
        .take(3)
        .map(|word| word.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_lowercase())
        .filter(|word| !word.is_empty())
        .collect();
    let words = if words.is_empty() {
        argv.first().map(|a| a.trim_start_matches('-').to_owned()).unwrap_or_else(|| "dotnet".to_owned())
    } else {
        words.join("-")
    };
    format!("{number:03}-{words}.txt")
}

#[cfg(test)]
mod tests {
    use super::{Recording, file_name};

    #[test]
    fn round_trips_header_and_both_streams() {
        let recording = Recording {
            header: vec![("recorded".into(), ".NET SDK 10.0.401 by scenario console".into())],
            argv: vec!["build".into(), "{{workspace}}/console/App/App.csproj".into()],
            cwd: "console".into(),
            exit: Some(1),
            lines: vec![
                (1, "  Determining projects to restore...".into()),
                (2, "error!".into()),
                (2, String::new()),
                (1, "2> not stderr".into()),
                (1, "## not a header".into()),
                (1, String::new()),
            ],
        };
        let text = recording.render();
        assert!(text.contains("\n1> 2> not stderr\n"), "{text}");
        assert_eq!(Recording::parse(&text), Some(recording));
        let killed = Recording { exit: None, ..Recording::default() };
        assert_eq!(Recording::parse(&killed.render()), Some(killed));
    }

    #[test]
    fn names_files_after_the_command_words() {
        let argv = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(file_name(7, &argv(&["new", "console", "-n", "App", "-o", "/w/App"])), "007-new-console-app.txt");
        assert_eq!(file_name(1, &argv(&["--list-sdks"])), "001-list-sdks.txt");
        assert_eq!(file_name(12, &argv(&["build", "/w/App/App.csproj"])), "012-build.txt");
    }
}
