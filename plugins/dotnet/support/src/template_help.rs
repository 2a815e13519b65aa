//! `dotnet new <template> --help`, parsed: the template's name, language, author and description,
//! and its template options with their type, default and choices.
//!
//! The template engine prints (SDK 7 and later):
//!
//! ```text
//! Console App (C#)
//! Author: Microsoft
//! Description: A project for creating a command-line application ...
//!
//! Usage: ...
//! Options: ...                      (the options every template has)
//!
//! Template options:
//!   -f, --framework <net10.0|net8.0>  The target framework for the project.
//!                                     Type: choice
//!                                       net10.0  Target net10.0
//!                                       net8.0   Target net8.0
//!                                     Default: net10.0
//!   --no-restore                      If specified, skips the automatic restore of the project on create.
//!                                     Type: bool
//!                                     Default: false
//!
//! To see help for other template languages (F#, VB), use --language option:
//! ```
//!
//! An option line starts with its flags; the lines below it that are indented to its description
//! column carry `Type:`, `Default:` and `Required:` and, indented further under `Type: choice`, the
//! choices. A description that wraps continues on lines at the description column. Templates
//! without options print `(No options)`. Unknown lines are skipped, so parsing never fails.

use serde::Serialize;

/// One choice of a `choice` option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(description = "")]
pub struct Choice {
    /// The value to pass.
    #[schemars(description = "")]
    pub value: String,
    /// What it means.
    #[schemars(description = "")]
    pub description: String,
}

/// One template option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(description = "")]
pub struct TemplateOption {
    /// The long form (`--framework`), or the only form printed.
    pub option: String,
    /// The other forms (`-f`).
    #[schemars(description = "")]
    pub aliases: Vec<String>,
    /// The value placeholder shown between `<` and `>`, if any.
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_hint: Option<String>,
    /// What the option does.
    #[schemars(description = "")]
    pub description: String,
    /// `choice`, `bool`, `text`, `string`, `integer`, `float`, `hex`…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_type: Option<String>,
    /// The default value, when printed.
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_value: Option<String>,
    /// Whether the option must be given.
    #[schemars(description = "")]
    pub required: bool,
    /// The choices of a `choice` option.
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
}

/// What `dotnet new <template> --help` says about a template.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(description = "")]
pub struct TemplateHelp {
    /// The template's name (`Console App`).
    #[schemars(description = "")]
    pub name: String,
    /// The language shown, if the template has one (`C#`).
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Other languages the template exists in (`F#`, `VB`).
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_languages: Vec<String>,
    /// Its author.
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Its description.
    #[schemars(description = "")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its template options (not the options every template shares).
    #[schemars(description = "")]
    pub options: Vec<TemplateOption>,
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// `Console App (C#)` → (`Console App`, `C#`).
fn name_and_language(line: &str) -> (String, Option<String>) {
    let line = line.trim();
    if let Some(body) = line.strip_suffix(')')
        && let Some(open) = body.rfind(" (")
    {
        return (body[..open].trim().to_owned(), Some(body[open + 2..].to_owned()));
    }
    (line.to_owned(), None)
}

/// The flags part of an option line split from its description: the description starts after the
/// first run of two or more spaces that is outside `<...>`. Returns the description's column.
fn split_option_line(line: &str) -> (&str, &str, usize) {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let start = indent_of(line);
    let mut index = start;
    while index < bytes.len() {
        match bytes[index] {
            b'<' => depth += 1,
            b'>' => depth = depth.saturating_sub(1),
            b' ' if depth == 0 && bytes.get(index + 1) == Some(&b' ') => {
                let end = index;
                while index < bytes.len() && bytes[index] == b' ' {
                    index += 1;
                }
                return (&line[start..end], &line[index..], index);
            }
            _ => {}
        }
        index += 1;
    }
    (&line[start..], "", line.len())
}

/// `-f, --framework <net10.0|net8.0>` → (`--framework`, [`-f`], `net10.0|net8.0`).
fn parse_flags(flags: &str) -> (String, Vec<String>, Option<String>) {
    let (names, hint) = match flags.split_once(" <") {
        Some((names, hint)) => (names, Some(hint.trim_end_matches('>').to_owned())),
        None => (flags, None),
    };
    let mut forms: Vec<String> =
        names.split(',').map(|form| form.trim().to_owned()).filter(|f| !f.is_empty()).collect();
    let long = forms.iter().rposition(|form| form.starts_with("--")).unwrap_or(forms.len().saturating_sub(1));
    let option = if forms.is_empty() { String::new() } else { forms.remove(long) };
    (option, forms, hint)
}

/// Parses `dotnet new <template> --help` output.
pub fn parse(text: &str) -> TemplateHelp {
    let mut help = TemplateHelp::default();
    let mut lines = text.lines();
    // The header: the first non-empty line, then `Key: value` lines up to a blank line.
    for line in lines.by_ref() {
        if line.trim().is_empty() {
            if help.name.is_empty() {
                continue;
            }
            break;
        }
        if help.name.is_empty() {
            (help.name, help.language) = name_and_language(line);
        } else if let Some(author) = line.strip_prefix("Author:") {
            help.author = Some(author.trim().to_owned());
        } else if let Some(description) = line.strip_prefix("Description:") {
            help.description = Some(description.trim().to_owned());
        } else if let Some(description) = help.description.as_mut() {
            // A description that goes on over several lines.
            description.push(' ');
            description.push_str(line.trim());
        }
    }
    let mut in_options = false;
    let mut current: Option<(TemplateOption, usize)> = None;
    let mut in_choices = false;
    for line in lines {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            in_options = line.trim_end() == "Template options:";
            if let Some(languages) = line
                .strip_prefix("To see help for other template languages (")
                .and_then(|rest| rest.split_once(')'))
                .map(|(languages, _)| languages)
            {
                help.other_languages = languages.split(',').map(|l| l.trim().to_owned()).collect();
            }
            continue;
        }
        if !in_options {
            continue;
        }
        let indent = indent_of(line);
        let trimmed = line.trim();
        if trimmed.starts_with('-') && current.as_ref().is_none_or(|(_, column)| indent < *column) {
            help.options.extend(current.take().map(|(option, _)| option));
            let (flags, description, column) = split_option_line(line);
            let (option, aliases, value_hint) = parse_flags(flags);
            let option = TemplateOption {
                option,
                aliases,
                value_hint,
                description: description.trim().to_owned(),
                data_type: None,
                default_value: None,
                required: false,
                choices: Vec::new(),
            };
            current = Some((option, column));
            in_choices = false;
            continue;
        }
        let Some((option, column)) = current.as_mut() else { continue };
        if indent > *column && in_choices {
            let (value, description) = match trimmed.split_once("  ") {
                Some((value, description)) => (value.trim(), description.trim()),
                None => (trimmed, ""),
            };
            option.choices.push(Choice { value: value.to_owned(), description: description.to_owned() });
        } else if let Some(kind) = trimmed.strip_prefix("Type:") {
            option.data_type = Some(kind.trim().to_owned());
            in_choices = kind.trim() == "choice";
        } else if let Some(default) = trimmed.strip_prefix("Default:") {
            option.default_value = Some(default.trim().to_owned());
            in_choices = false;
        } else if let Some(required) = trimmed.strip_prefix("Required:") {
            option.required = required.trim().eq_ignore_ascii_case("true");
            in_choices = false;
        } else if option.data_type.is_none() {
            option.description.push(' ');
            option.description.push_str(trimmed);
        }
    }
    help.options.extend(current.map(|(option, _)| option));
    help
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CONSOLE: &str = "\
Console App (C#)
Author: Microsoft
Description: A project for creating a command-line application that can run on .NET on Windows, Linux and macOS

Usage:
  dotnet new console [options] [template options]

Options:
  -n, --name <name>       The name for the output being created.
  -lang, --language <C#>  Specifies the template language to instantiate.

Template options:
  -f, --framework <net10.0|net8.0|net9.0>  The target framework for the project.
                                           Type: choice
                                             net10.0  Target net10.0
                                             net9.0   Target net9.0
                                           Default: net10.0
  --langVersion <langVersion>              Sets the LangVersion property in the created project file
                                           Type: text
  --no-restore                             If specified, skips the automatic restore
                                           of the project on create.
                                           Type: bool
                                           Default: false
  -au, --auth <None|Windows>               The type of authentication to use
                                           Type: choice
                                             None     No authentication
                                             Windows  Windows authentication
                                           Default: None
                                           Required: true

To see help for other template languages (F#, VB), use --language option:
   dotnet new console -h --language F#
";

    #[test]
    fn reads_the_header_and_every_template_option() {
        let help = parse(CONSOLE);
        assert_eq!(help.name, "Console App");
        assert_eq!(help.language.as_deref(), Some("C#"));
        assert_eq!(help.other_languages, ["F#", "VB"]);
        assert_eq!(help.author.as_deref(), Some("Microsoft"));
        assert!(help.description.as_deref().unwrap().starts_with("A project for creating"));
        let names: Vec<&str> = help.options.iter().map(|o| o.option.as_str()).collect();
        assert_eq!(names, ["--framework", "--langVersion", "--no-restore", "--auth"]);
        let framework = &help.options[0];
        assert_eq!(framework.aliases, ["-f"]);
        assert_eq!(framework.value_hint.as_deref(), Some("net10.0|net8.0|net9.0"));
        assert_eq!(framework.data_type.as_deref(), Some("choice"));
        assert_eq!(framework.default_value.as_deref(), Some("net10.0"));
        assert_eq!(framework.choices[1], Choice { value: "net9.0".into(), description: "Target net9.0".into() });
        assert_eq!(help.options[1].default_value, None);
        assert_eq!(help.options[2].description, "If specified, skips the automatic restore of the project on create.");
        assert!(help.options[3].required && !help.options[0].required);
        assert_eq!(help.options[3].aliases, ["-au"]);
    }

    #[test]
    fn a_template_without_options_or_language() {
        let text = "dotnet gitignore file\nAuthor: Microsoft\nDescription: Creates a .gitignore file.\n\n\
                    Template options:\n   (No options)\n";
        let help = parse(text);
        assert_eq!((help.name.as_str(), help.language.as_deref()), ("dotnet gitignore file", None));
        assert!(help.options.is_empty());
        let value = serde_json::to_value(&help).unwrap();
        assert!(value.get("otherLanguages").is_none() && value["options"] == json!([]));
    }
}
