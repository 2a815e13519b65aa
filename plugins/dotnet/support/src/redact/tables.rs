//! Tables: pipe and CSV tables whose header names a secret column, tables ruled by dashes and
//! box-drawn listings of names and values, each row's cells judged by their column or name.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::{
    connection::redact_connection_string,
    keys::{KeyClass, LAST_KEY_WORDS, STRONG_KEY_WORDS, WEAK_KEY_WORDS, classify_key, key_words, words_pattern},
    labelled::redact_labelled,
    patterns::{CONTEXT_FREE, redact_with},
};

/// The header line of CSV (three or more names, one of which has a secret word; no pattern group,
/// not anchored). A pipe table's header is its first line, whatever it holds (see the
/// `ptab_head` form of `rules`).
pub(super) fn csv_header() -> String {
    let words = format!("{}|{}", words_pattern(STRONG_KEY_WORDS), words_pattern(LAST_KEY_WORDS));
    // A name may have words with one blank between them (`Smtp password` of AWS's SES credentials).
    let name = r#""?[A-Za-z_][A-Za-z0-9_.-]*(?: [A-Za-z0-9_.-]+)*"?"#;
    let secret = format!(r#""?(?:[A-Za-z0-9_.-]+ )*[A-Za-z0-9_.-]*(?i:{words})[A-Za-z0-9_.-]*(?: [A-Za-z0-9_.-]+)*"?"#);
    format!(r"(?:{name},){{2,}}{secret}(?:,{name})*|{name},{secret}(?:,{name})+|{secret}(?:,{name}){{2,}}")
}

/// The cells of a table's line, as byte ranges without the delimiters: between `|`s for a pipe
/// table, between box-drawing bars (`│`, `┃`, `║`) for a box-drawn one, between commas outside
/// double quotes for CSV.
fn table_cells(line: &str, delimiter: char) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' if delimiter == ',' => quoted = !quoted,
            _ if (c == delimiter || delimiter == BOX_BAR && BOX_BARS.contains(&c)) && !quoted => {
                cells.push((start, i));
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    let end = line.trim_end_matches(['\r', '\n']).len().max(start);
    cells.push((start, end));
    if delimiter != ',' {
        // What is before the first bar and after the last is not a cell.
        cells.remove(0);
        cells.pop();
    }
    cells
}

/// The delimiter that stands for any of [`BOX_BARS`] in a box-drawn table's [`Table`].
const BOX_BAR: char = '│';

/// The vertical bars that separate a box-drawn table's cells (light, heavy and double).
const BOX_BARS: &[char] = &['│', '┃', '║'];

/// The delimiter of a table whose line starts with a bar (`|` of a pipe table, or a box-drawn
/// table's), after its indent.
pub(super) fn bar_delimiter(line: &str) -> Option<char> {
    match line.trim_start().chars().next()? {
        '|' => Some('|'),
        c if BOX_BARS.contains(&c) => Some(BOX_BAR),
        _ => None,
    }
}

/// Whether `line` is a rule of a box-drawn table (`├───┼───┤`, `└───┴───┘`, `╞═══╪═══╡`): it
/// starts with a box-drawing character that is no bar. A row under such a rule has a header above.
pub(super) fn box_rule(line: &str) -> bool {
    line.trim_start().starts_with(|c: char| ('\u{2500}'..='\u{257F}').contains(&c) && !BOX_BARS.contains(&c))
}

/// Whether `line` goes on with a table of `table`'s kind: a row (a bar first, a comma in CSV), or
/// for a box-drawn table also one of its rules (`├───┼───┤`, `└───┴───┘`).
pub(super) fn continues_table(line: &str, table: &Table) -> bool {
    match table.delimiter {
        ',' => line.contains(','),
        BOX_BAR => bar_delimiter(line) == Some(BOX_BAR) || box_rule(line),
        delimiter => bar_delimiter(line) == Some(delimiter),
    }
}

/// Names of a table's column that names each row, when another column is its `Value`
/// (`| Variable | Value | Scope |` of a Markdown table of settings, `Name  Value` listings).
const NAME_COLUMNS: &[&str] = &["name", "variable", "key", "setting", "parameter", "property", "field"];

/// How a table's header line judges its rows (see [`table_columns`]).
#[derive(Debug, Clone)]
pub(super) struct Table {
    /// `|` for a pipe table, [`BOX_BAR`] for a box-drawn one, `,` for CSV.
    pub(super) delimiter: char,
    /// How secret each column's name makes its cells.
    classes: Vec<KeyClass>,
    /// In a table of names and values, the column that names each row and the column of its
    /// value: each row's value is as secret as the row's name.
    pair: Option<(usize, usize)>,
}

/// How a table's header line judges its rows, or `None` when no column is secret and the table
/// is not one of names and values.
pub(super) fn table_columns(header: &str) -> Option<Table> {
    let delimiter = bar_delimiter(header).unwrap_or(',');
    let names: Vec<String> = table_cells(header, delimiter)
        .into_iter()
        .map(|(start, end)| header[start..end].trim().trim_matches(['"', '`', '*']).to_ascii_lowercase())
        .collect();
    let classes: Vec<KeyClass> = names.iter().map(|name| classify_key(name)).collect();
    let value = names.iter().position(|name| name == "value");
    let pair = value.zip(names.iter().position(|name| NAME_COLUMNS.contains(&name.as_str()))).map(|(v, n)| (n, v));
    let secret_column = classes.iter().any(|class| matches!(class, KeyClass::Secret | KeyClass::Connection));
    // A box-drawn name and its value alone are the two-cell `box` form's, which keeps its widths.
    let box_pair = delimiter == BOX_BAR && classes.len() == 2;
    (pair.is_some() && !box_pair || secret_column).then_some(Table { delimiter, classes, pair })
}

/// A row of a table whose columns are judged by their names in its header (see
/// [`table_columns`]): each cell as secret as its column says, in a table of names and values the
/// value as secret as the row's name, the other cells scanned as any text; a row of another
/// shape (a pipe table's `|---|` rule, a line with more or fewer cells) is scanned as any text.
pub(super) fn table_row(row: &str, table: &Table) -> String {
    let cells = table_cells(row, table.delimiter);
    if cells.len() != table.classes.len() || row.bytes().all(|b| b"-:+| \t\r\n".contains(&b)) {
        return redact_with(&CONTEXT_FREE, row).into_owned();
    }
    let row_class = table.pair.map(|(name, _)| {
        let (start, end) = cells[name];
        classify_key(row[start..end].trim().trim_matches(['"', '`', '*']))
    });
    let mut out = String::with_capacity(row.len());
    let mut at = 0;
    for (column, ((start, end), class)) in cells.into_iter().zip(&table.classes).enumerate() {
        let class = match row_class {
            Some(named @ (KeyClass::Secret | KeyClass::Connection | KeyClass::Weak))
                if table.pair.is_some_and(|(_, value)| value == column) =>
            {
                named
            }
            _ => *class,
        };
        let (value, shown) = judged_cell(&row[start..end], |value| redact_labelled(class, value));
        out.push_str(&row[at..start + value.start]);
        out.push_str(&shown);
        at = start + value.end;
        if table.delimiter == BOX_BAR {
            // A box's column keeps its width, so its bars stay aligned: a shorter value is padded,
            // a longer one takes the blanks after it (one stays).
            let (width, shown_width) = (row[start + value.start..at].chars().count(), shown.chars().count());
            out.push_str(&" ".repeat(width.saturating_sub(shown_width)));
            let blanks = row[at..end].len();
            at += blanks.min(shown_width.saturating_sub(width)).min(blanks.saturating_sub(1));
        }
    }
    out.push_str(&row[at..]);
    out
}

/// A header line that names a secret, weak or license column (no pattern group, not anchored):
/// the first line of a table ruled by dashes (see [`ruled_columns`]).
pub(super) fn ruled_header() -> String {
    format!(
        r"[^\r\n]*(?i:{}|{}|{})[^\r\n]*",
        words_pattern(STRONG_KEY_WORDS),
        words_pattern(LAST_KEY_WORDS),
        words_pattern(WEAK_KEY_WORDS)
    )
}

/// The line of dashes under a table's header, one run a column (`---- ------`).
pub(super) const RULE_LINE: &str = r"[ \t]*-{3,}(?:[ \t]+-{3,})+[ \t]*\r?";

/// A table ruled by dashes under its header (`sqlcmd`, `az ... -o table`, PowerShell's
/// `Format-Table`): where each column starts, from the rule line, and how secret its name in the
/// header makes its cells.
#[derive(Debug, Clone)]
pub(super) struct RuledTable {
    columns: Vec<(usize, KeyClass)>,
    /// In a table of keys and their values (`az storage account keys list -o table`: `KeyName`
    /// names each row, `Value` holds the key), the naming column, the `Value` column and the
    /// class the naming column's name gives every row (`KeyName`: a key, see [`keyed_rows`]).
    pair: Option<(usize, usize, KeyClass)>,
}

/// The class a column named `<subject>Name` gives the rows it names (`KeyName`: each row is a key,
/// `SecretName`: a secret), or `None` for a column of another name or a subject that is no
/// secret (`AccountName`, `DisplayName`).
fn keyed_rows(column: &str) -> Option<KeyClass> {
    let words = key_words(column);
    let (last, subject) = words.split_last()?;
    if last != "name" || subject.is_empty() {
        return None;
    }
    Some(classify_key(&subject.join("_"))).filter(|class| *class != KeyClass::Plain)
}

/// How a ruled table's header and rule line judge its rows, or `None` when no column's name says
/// its cells can be secret.
pub(super) fn ruled_columns(header: &str, rule: &str) -> Option<RuledTable> {
    let bytes = rule.as_bytes();
    let starts: Vec<usize> =
        (0..bytes.len()).filter(|&i| bytes[i] == b'-' && (i == 0 || bytes[i - 1] != b'-')).collect();
    let names: Vec<&str> = starts
        .iter()
        .enumerate()
        .map(|(i, &start)| {
            let end = starts.get(i + 1).copied().unwrap_or(header.len()).min(header.len());
            header.get(start.min(end)..end).unwrap_or("").trim()
        })
        .collect();
    let columns: Vec<(usize, KeyClass)> = starts
        .iter()
        .zip(&names)
        .map(|(&start, name)| {
            // A column that names each row (`Key   Value` of `vault kv get`, `KeyName` of `az
            // storage account keys list`) is no secret column: such a table's rows are judged one
            // by one (the `row` form, or the pair below).
            let naming = NAME_COLUMNS.contains(&name.to_ascii_lowercase().as_str()) || keyed_rows(name).is_some();
            (start, if naming { KeyClass::Plain } else { classify_key(name) })
        })
        .collect();
    let value = names.iter().position(|name| name.eq_ignore_ascii_case("value"));
    let pair = value.and_then(|value| {
        names.iter().enumerate().find_map(|(naming, name)| keyed_rows(name).map(|class| (naming, value, class)))
    });
    (pair.is_some() || columns.iter().any(|(_, class)| *class != KeyClass::Plain))
        .then_some(RuledTable { columns, pair })
}

/// A row of a ruled table with each cell as secret as its column says, or scanned as any text
/// when the row does not fit the columns (a cell runs into the next column).
pub(super) fn ruled_row(row: &str, table: &RuledTable) -> String {
    let body = row.trim_end_matches(['\r', '\n']);
    let fits = table.columns.iter().skip(1).all(|&(start, _)| {
        start >= body.len() || body.is_char_boundary(start) && body.as_bytes()[start - 1].is_ascii_whitespace()
    });
    if !fits {
        return redact_with(&CONTEXT_FREE, row).into_owned();
    }
    let mut out = String::with_capacity(row.len());
    // What stands before the first column (the indent of a table printed inside a log) stays.
    let first = table.columns.first().map_or(0, |&(start, _)| start).min(body.len());
    out.push_str(body.get(..first).unwrap_or(""));
    let cell_of = |i: usize| {
        let start = table.columns[i].0;
        let end = table.columns.get(i + 1).map_or(body.len(), |&(next, _)| next).min(body.len());
        body.get(start.min(end)..end).unwrap_or("")
    };
    for (i, &(_, class)) in table.columns.iter().enumerate() {
        let cell = cell_of(i);
        // The value of a keyed row: as secret as the row's own name says when that says more
        // (`ConnectionString`), else as the naming column says (`key1`, `kerb2` under `KeyName`).
        let class = match table.pair {
            Some((naming, value, rows)) if value == i => match classify_key(cell_of(naming).trim()) {
                named @ (KeyClass::Secret | KeyClass::Connection) => named,
                _ => rows,
            },
            _ => class,
        };
        // A connection string that `Format-Table -Wrap` broke over rows is read part by part: a
        // piece that is not one whole is scanned as any text.
        let (value, shown) = judged_cell(cell, |value| match class {
            KeyClass::Connection => redact_connection_string(value),
            _ => redact_labelled(class, value),
        });
        out.push_str(&cell[..value.start]);
        out.push_str(&shown);
        out.push_str(&cell[value.end..]);
    }
    out.push_str(&row[body.len()..]);
    out
}

/// A row of a box-drawn listing of names and values (`+----+----+` above `| API Secret | ... |`
/// rows, with no rule under the first, so it has no header; the Confluent CLI): the value as
/// secret as the row's name, but a `key` beside its secret is the key's id, hidden only when it
/// looks like a key itself (see [`key_like`](super::keys::key_like)). `None` for a line of another shape.
pub(super) fn listing_row(row: &str) -> Option<String> {
    let cells = table_cells(row, '|');
    let [(name_start, name_end), (start, end)] = cells[..] else {
        return None;
    };
    let name = row[name_start..name_end].trim();
    let class = match classify_key(name) {
        KeyClass::Secret | KeyClass::Weak if key_words(name).last().is_some_and(|word| word == "key") => {
            KeyClass::Neutral
        }
        class => class,
    };
    let (value, shown) = judged_cell(&row[start..end], |value| redact_labelled(class, value));
    Some(format!("{}{shown}{}", redact_with(&CONTEXT_FREE, &row[..start + value.start]), &row[start + value.end..]))
}

/// A table's cell as the class of its column or row shows it: its value (the cell without the
/// blanks around it) judged by `judge`, or scanned as any text when `judge` makes nothing of it
/// secret; with the range the value takes in the cell, so the caller keeps the blanks.
fn judged_cell(cell: &str, judge: impl FnOnce(&str) -> Option<String>) -> (Range<usize>, String) {
    let value = cell.trim();
    let lead = cell.len() - cell.trim_start().len();
    let shown = judge(value).unwrap_or_else(|| redact_with(&CONTEXT_FREE, value).into_owned());
    (lead..lead + value.len(), shown)
}

/// A line that can be the header of a table ruled by dashes (see [`ruled_columns`]).
pub(super) static RULED_HEADER_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{}$", ruled_header())).expect("ruled header pattern is valid"));
/// The rule under a ruled table's header, a line of its own.
pub(super) static RULE_LINE_ONLY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{RULE_LINE}$")).expect("rule line pattern is valid"));
/// The border line of a box-drawn listing (see [`listing_row`]).
pub(super) static BORDER_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[ \t]*\+-[-+]*\+[ \t]*\r?$").expect("border line pattern is valid"));

/// A header line of CSV that names a secret column (see [`csv_header`]).
pub(super) static CSV_HEADER_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^(?:{})\r?$", csv_header())).expect("CSV header pattern is valid"));

/// The gap between the columns of a table: two blanks or more, or a tab.
pub(super) static COLUMN_GAP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[ \t]{2,}|\t").expect("gap pattern is valid"));

/// The values of a list of columns (`cols`: `INSERT INTO t ("Id", "Secret") VALUES (`, EF Core's
/// `columns: new[] { "Id", "Password" },` / `values: new object[] {`) and `values`, the values
/// written in the same order: each value as secret as its column's name; all of them scanned as any
/// text when the counts differ.
pub(super) fn columns_and_values(cols: &str, values: &str) -> String {
    // The text before the values' opening bracket, which alone no longer opens this form.
    let open = cols.rfind(['(', '{']).unwrap_or(cols.len());
    let list = &cols[..open];
    let names: Vec<&str> = list
        .rfind(['(', '{'])
        .map(|at| &list[at + 1..])
        .and_then(|rest| rest.find([')', '}']).map(|end| &rest[..end]))
        .map(|names| names.split(',').map(|name| name.trim().trim_matches(['"', '\'', '[', ']', '`'])).collect())
        .unwrap_or_default();
    let mut items = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (at, c) in values.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(open), c) if c == open => quote = None,
            (None, ',') => {
                items.push(&values[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&values[start..]);
    let shown = if names.len() == items.len() {
        names
            .iter()
            .zip(&items)
            .map(|(name, item)| {
                let (value, shown) = judged_cell(item, |value| redact_labelled(classify_key(name), value));
                format!("{}{shown}{}", &item[..value.start], &item[value.end..])
            })
            .collect::<Vec<_>>()
            .join(",")
    } else {
        redact_with(&CONTEXT_FREE, values).into_owned()
    };
    format!("{}{}{shown}", redact_with(&CONTEXT_FREE, &cols[..open]), &cols[open..])
}

#[cfg(test)]
mod tests {
    use crate::redact::{
        REDACTED,
        tests::{each, each_and_lines, lines, r},
    };

    #[test]
    fn a_box_drawn_table_hides_the_values_its_header_or_its_names_say_are_secret_and_keeps_its_widths() {
        each_and_lines(&[
            // A column whose header names a secret.
            (
                "┌──────┬──────────┬──────┐\n│ User │ Password │ Host │\n├──────┼──────────┼──────┤\n│ app  │ hunter2  │ db1  │\n│ ops  │ pw       │ db2  │\n└──────┴──────────┴──────┘",
                "┌──────┬──────────┬──────┐\n│ User │ Password │ Host │\n├──────┼──────────┼──────┤\n│ app  │ [REDACTED] │ db1  │\n│ ops  │ [REDACTED] │ db2  │\n└──────┴──────────┴──────┘",
            ),
            // Names and values with more columns: the value as secret as its row's name.
            (
                "╭──────────────┬────────────┬────────╮\n│ Key          │ Value      │ Source │\n├──────────────┼────────────┼────────┤\n│ ClientSecret │ abc        │ env    │\n│ Region       │ westeurope │ json   │\n╰──────────────┴────────────┴────────╯",
                "╭──────────────┬────────────┬────────╮\n│ Key          │ Value      │ Source │\n├──────────────┼────────────┼────────┤\n│ ClientSecret │ [REDACTED] │ env    │\n│ Region       │ westeurope │ json   │\n╰──────────────┴────────────┴────────╯",
            ),
            // Two cells: each row judged by its name, the border kept where it was.
            (
                "┌──────────────┬────────┐\n│ Name         │ Value  │\n├──────────────┼────────┤\n│ ClientSecret │ abc    │\n│ Timeout      │ 30     │\n└──────────────┴────────┘",
                "┌──────────────┬────────┐\n│ Name         │ Value  │\n├──────────────┼────────┤\n│ ClientSecret │ [REDACTED] │\n│ Timeout      │ 30     │\n└──────────────┴────────┘",
            ),
            // A first row with a secret's name and no rule under it is no header: the rows
            // below are judged by their own names.
            (
                "┌────────────┬─────┐\n│ DbPassword │ pw1 │\n│ Timeout    │ 30  │\n└────────────┴─────┘",
                "┌────────────┬─────┐\n│ DbPassword │ [REDACTED] │\n│ Timeout    │ 30  │\n└────────────┴─────┘",
            ),
        ]);
    }

    #[test]
    fn values_of_secret_named_columns_by_position() {
        crate::redact::tests::each_and_lines(&[
            (
                "INSERT INTO [ApiClients] ([Id], [ClientSecret], [Name])\nVALUES (7, N'Hq3!zPw8', 'reports');",
                "INSERT INTO [ApiClients] ([Id], [ClientSecret], [Name])\nVALUES (7, N'[REDACTED]', 'reports');",
            ),
            (
                "    columns: new[] { \"Id\", \"ApiToken\", \"Owner\" },\n    values: new object[] { 3, \"tk-81b2c\", \"ops\" });",
                "    columns: new[] { \"Id\", \"ApiToken\", \"Owner\" },\n    values: new object[] { 3, \"[REDACTED]\", \"ops\" });",
            ),
            ("INSERT INTO users (id, password_hint) VALUES (1, 'pet name');", ""),
        ]);
    }

    #[test]
    fn environment_listing_rows() {
        assert_eq!(r("DB_PASSWORD                    s3cr3t!"), "DB_PASSWORD                    [REDACTED]");
        assert_eq!(
            r("DOTNET_ROOT                    /usr/share/dotnet"),
            "DOTNET_ROOT                    /usr/share/dotnet"
        );
        assert_eq!(r("CACHE_KEY                      products"), "CACHE_KEY                      products");
    }

    #[test]
    fn kubectl_describe_pod_environment_rows_judge_a_connection_string_by_its_name_before_the_colon() {
        // Every value under `ConnectionStrings` is a connection string, whatever the connection's
        // name says (`Storage`, `Service` would describe a secret as the last word of another name).
        each_and_lines(&[
            (
                "      ConnectionStrings__Storage:  DefaultEndpointsProtocol=https;AccountName=stfabrikamqa;AccountKey=Qm9ndXNLZXlGb3JBVGVzdE9ubHlOb3RBUmVhbEtleUF0QWxsMTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net",
                "      ConnectionStrings__Storage:  DefaultEndpointsProtocol=https;AccountName=stfabrikamqa;AccountKey=[REDACTED];EndpointSuffix=core.windows.net",
            ),
            (
                "      ConnectionStrings__Service:  Server=tcp:sql-qa.example.net,1433;Database=orders;User ID=svc;Password=Wq4nZ8rTb2;Encrypt=True",
                "      ConnectionStrings__Service:  Server=tcp:sql-qa.example.net,1433;Database=orders;User ID=svc;Password=[REDACTED];Encrypt=True",
            ),
            // A connection string without a credential, and the rows around it, stay whole.
            ("      ConnectionStrings__Redis:    redis-qa.internal:6380,ssl=True,abortConnect=False", ""),
            ("      ASPNETCORE_ENVIRONMENT:      Staging", ""),
            ("      OTEL_EXPORTER_OTLP_ENDPOINT: http://collector.monitoring:4317", ""),
        ]);
    }

    #[test]
    fn markdown_table_of_names_and_values_keeps_its_rows() {
        let table = concat!(
            "| Variable | Value | Scope |\n",
            "|---|---|---|\n",
            "| ACME_TOKEN | vndr-gGoLGYaZ8jMz7gtdsfpsm4vroEYiMvCTWBb6EvF4 | prod |\n",
            "| ACME_URL | https://acme.example/v2 | prod |\n",
            "| ACME_RETRIES | 5 | all |",
        );
        let expected = table.replace("gGoLGYaZ8jMz7gtdsfpsm4vroEYiMvCTWBb6EvF4", REDACTED);
        assert_eq!(r(table), expected);
        assert_eq!(lines(table), expected);
        // In a table of names and values, each value is as secret as its row's name.
        let settings = concat!(
            "| Name | Value |\n",
            "|------|-------|\n",
            "| `Smtp__Password` | Tr0ub4dor&3 |\n",
            "| Smtp__Host | mail.example.test |\n",
            "| Jwt__SigningKey | c2lnbmluZy1rZXktZm9yLXRlc3RzLW9ubHktMTIzNDU2Nzg5MA |",
        );
        let hidden = concat!(
            "| Name | Value |\n",
            "|------|-------|\n",
            "| `Smtp__Password` | [REDACTED] |\n",
            "| Smtp__Host | mail.example.test |\n",
            "| Jwt__SigningKey | [REDACTED] |",
        );
        assert_eq!(r(settings), hidden);
        assert_eq!(lines(settings), hidden);
        // A table whose header names a secret column still hides that column.
        let header = "| user | password |\n| alice | Tr0ub4dor&3 |\n| bob | hunter2! |";
        let hidden = "| user | password |\n| alice | [REDACTED] |\n| bob | [REDACTED] |";
        assert_eq!(r(header), hidden);
        assert_eq!(lines(header), hidden);
    }

    #[test]
    fn table_rows_with_a_secret_name() {
        for (input, expected) in [
            ("  CLIENT SECRET   rl74BQmePSn-sDjm_D_zL4of", "  CLIENT SECRET   [REDACTED]"),
            ("token                  s.opaque", "token                  [REDACTED]"),
            ("AZURE_DEVOPS_EXT_PAT           3a3id4obhnee64eh", "AZURE_DEVOPS_EXT_PAT           [REDACTED]"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        for kept in [
            "Key                    Value",
            "token_duration         768h",
            "DB_PASSWORD:                 18 bytes",
            // A command's description in help (`dotnet -h`).
            "  user-secrets      Manage development user secrets.",
            "  token             The token to authenticate with (optional).",
        ] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn tables_wrapped_rows_and_listings() {
        each(&[
            (
                "key1\tZm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u\nb3BxcnN0dQ==\tFULL",
                "key1\t[REDACTED]\n[REDACTED]\tFULL",
            ),
            ("default-token-7x2kq          kubernetes.io/service-account-token   3      1y", ""),
            ("key1   FULL   Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u==", "key1   FULL   [REDACTED]"),
            ("  --store-password-in-clear-text      Enables storing credentials in clear text.", ""),
        ]);
    }

    #[test]
    fn format_list_and_table_columns_beside_a_secret_name() {
        assert_eq!(
            r("UserName       : ops\nPassword       : Tq7!rr-Lm2\nSecurePassword : System.Security.SecureString"),
            "UserName       : ops\nPassword       : [REDACTED]\nSecurePassword : System.Security.SecureString"
        );
        assert_eq!(
            r("Stripe__ApiKey               False          9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
            "Stripe__ApiKey               False          [REDACTED]"
        );
    }

    #[test]
    fn tables_ruled_by_dashes_and_box_listings_of_names_and_values() {
        // `text` with each of `secrets` hidden, whole and line by line.
        let check = |text: &str, secrets: &[&str]| {
            let expected = secrets.iter().fold(text.to_owned(), |shown, secret| shown.replace(secret, REDACTED));
            assert_eq!(r(text), expected);
            assert_eq!(lines(text), expected.trim_end());
        };
        let ruled = concat!(
            "AppName      ApiSecret                            Created\n",
            "------------ ------------------------------------ ----------\n",
            "orders       Hq7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn  2026-01-02\n",
            "billing      Pz4Qw8Er2Ty6Ui0Op3As7Df1Gh5Jk9Lz2Xc  2026-02-03\n",
            "\n",
            "(2 rows affected)",
        );
        let ruled_secrets = ["Hq7Lm2Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0Kl2Mn", "Pz4Qw8Er2Ty6Ui0Op3As7Df1Gh5Jk9Lz2Xc"];
        check(ruled, &ruled_secrets);
        let keys = concat!(
            "PrimaryKey                        SecondaryKey\n",
            "--------------------------------  --------------------------------\n",
            "Qx7-Lm2_Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0  Zr8-Kq2_Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg2\n",
        );
        check(keys, &["Qx7-Lm2_Vt9Rs4Wk8Yz3Bn6Cd1Fg5Jh0", "Zr8-Kq2_Lm9Vt4Rs8Ws3Yz6Bn1Cd5Fg2"]);
        // An indented table keeps its indent on every row.
        let indented: String = ruled.lines().map(|line| format!("  {line}\n")).collect();
        check(&indented, &ruled_secrets);
        // A ruled table whose header names no secret is scanned as any text.
        check("Name     Version\n-------- -------\nSerilog  4.2.0\n", &[]);
        let listing = concat!(
            "+-------------+----------------------------------------------+\n",
            "| Key         | QWERTY7ASDFG2ZXC                             |\n",
            "| Secret      | Lm3Nx6Pv1Bc4Df7Gh0Jk3Lm6Np9Qr2St5Vw8Yz1Ab4Cd |\n",
            "+-------------+----------------------------------------------+\n",
        );
        check(listing, &["Lm3Nx6Pv1Bc4Df7Gh0Jk3Lm6Np9Qr2St5Vw8Yz1Ab4Cd"]);
    }

    #[test]
    fn a_ruled_table_of_key_names_and_values_hides_each_value_and_keeps_names_and_permissions() {
        // `az storage account keys list -o table` (with `--expand-key-type kerb`, and as older
        // versions print it, without the creation time).
        let check = |text: &str, secrets: &[&str]| {
            let expected = secrets.iter().fold(text.to_owned(), |shown, secret| shown.replace(secret, REDACTED));
            assert_eq!(r(text), expected);
            assert_eq!(lines(text), expected.trim_end());
        };
        let (first, second, kerb) = (
            "T3BlbkNvZGVTYW1wbGVLZXlOdW1iZXJPbmVGb3JUZXN0c09ubHkrLzEyMzQ1Njc4OTBhYmNkZWZnaGlqa2w9PQ==",
            "U2Vjb25kU2FtcGxlS2V5K0ZvclRlc3RzL09ubHlOb3RSZWFsMDk4NzY1NDMyMXp5eHd2dXRzcnFwb25tbGs9PQ==",
            "S2VyYmVyb3NTYW1wbGVLZXlGb3JUZXN0c09ubHlOb3RSZWFsQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIz",
        );
        let table = format!(
            "CreationTime                      KeyName    Permissions    Value\n\
             --------------------------------  ---------  -------------  {rule}\n\
             2025-09-30T07:41:12.518904+00:00  key1       FULL           {first}\n\
             2025-09-30T07:41:12.518904+00:00  key2       FULL           {second}\n\
             2025-09-30T07:41:12.518904+00:00  kerb1      FULL           {kerb}\n",
            rule = "-".repeat(first.len())
        );
        check(&table, &[first, second, kerb]);
        let older = format!(
            "KeyName    Permissions    Value\n---------  -------------  -----\nkey1       Full           {first}\n"
        );
        check(&older, &[first]);
        // A ruled table whose `Value` column is named by something that is no secret stays.
        check("DisplayName    Value\n-------------  -----------\nTier           Standard_LRS\n", &[]);
        // The same listing as tab-separated values, one key a line.
        each_and_lines(&[
            (
                &format!("2025-09-30T07:41:12.518904+00:00\tkey1\tFULL\t{first}"),
                "2025-09-30T07:41:12.518904+00:00\tkey1\tFULL\t[REDACTED]",
            ),
            (&format!("kerb1\tREAD\t{kerb}"), "kerb1\tREAD\t[REDACTED]"),
            ("2025-09-30T07:41:12.518904+00:00\tkeyvault\tFULL\tenabled", ""),
        ]);
    }

    #[test]
    fn rows_of_box_drawn_tables_judge_the_value_by_the_name_beside_it() {
        let hex = "5f0c1e2d3b4a59687f6e5d4c3b2a1908";
        let padded = format!("{REDACTED}{}", " ".repeat(hex.len() - REDACTED.len()));
        let cases = [
            // `sqlite3 -box`'s `name │ value` and Nushell's record: the column keeps its width.
            (format!("│ mail.api_key  │ {hex} │"), format!("│ mail.api_key  │ {padded} │")),
            (format!("│ SMTP_PASSWORD       │ {hex} │"), format!("│ SMTP_PASSWORD       │ {padded} │")),
            (
                "┃ SEARCH_SERVER_KEY ┃ srv.Zx9Qw8Er7Ty6Ui5Op4 ┃".to_owned(),
                format!("┃ SEARCH_SERVER_KEY ┃ {REDACTED}             ┃"),
            ),
            ("║ Api Token ║ Pw9-xx ║".to_owned(), format!("║ Api Token ║ {REDACTED} ║")),
        ];
        for (input, expected) in &cases {
            assert_eq!(r(input), *expected, "{input}");
            assert_eq!(lines(input), *expected, "line by line: {input}");
        }
        each_and_lines(&[
            // A header, a path, a commit or a GUID beside a name that says nothing secret, a
            // key's id, and a row of three cells stay.
            ("│        name        │        value        │", ""),
            ("│ DOTNET_ROOT    │ /usr/share/dotnet │", ""),
            ("│ build.commit │ 5f0c1e2d3b4a59687f6e5d4c3b2a1908 │", ""),
            ("│ SigningKeyId │ 0d6f1c2e-4a5b-4c3d-9e8f-7a6b5c4d3e2f │", ""),
            ("│ 0 │ API_KEY │ set │", ""),
        ]);
    }
}
