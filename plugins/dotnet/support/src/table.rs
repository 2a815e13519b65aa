//! Reading the fixed-width tables the dotnet CLI prints (`dotnet tool list`, `dotnet tool search`,
//! `dotnet workload list`, `dotnet workload search`, `dotnet new list`): a header line, a rule of
//! dashes, then one row per line until a blank line.
//!
//! Columns are found from the text itself, not from fixed offsets, so wider cells, right-aligned
//! columns and headers with single spaces in them (`Package Id`) all read correctly. Each column
//! starts at its header; the boundary between two columns is the widest run of positions, within
//! the gap between their headers, that is blank in every row. A cell wider than its header (a
//! long path) pushes that blank run aside but never splits a cell; a cell with two spaces inside
//! it stays whole because the gap search only looks between headers.

/// A table read from CLI output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The header cells, in order.
    pub headers: Vec<String>,
    /// The rows; each has one (trimmed, possibly empty) cell per header.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The index of the column whose header is `name`, without regard to case.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|header| header.eq_ignore_ascii_case(name))
    }

    /// The cell of `row` under the header `name`; `None` when there is no such column or the
    /// cell is empty.
    pub fn cell<'a>(&self, row: &'a [String], name: &str) -> Option<&'a str> {
        self.column(name).and_then(|index| row.get(index)).map(String::as_str).filter(|cell| !cell.is_empty())
    }
}

/// Whether `line` is the rule under a header: dashes (and the spaces between per-column rules).
fn is_rule(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.len() >= 2 && trimmed.chars().all(|c| c == '-' || c == ' ')
}

/// The header cells of `line` with their start and end positions (in characters): runs of text
/// separated by two or more spaces.
fn header_spans(line: &[char]) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut index = 0;
    while index < line.len() {
        if line[index] == ' ' {
            index += 1;
            continue;
        }
        let start = index;
        let mut end = index;
        while index < line.len() {
            if line[index] != ' ' {
                end = index + 1;
                index += 1;
            } else if line.get(index + 1).is_some_and(|next| *next != ' ') {
                // One space inside a header ("Package Id").
                index += 1;
            } else {
                break;
            }
        }
        spans.push((start, end));
    }
    spans
}

/// The first table in `text`, or `None` when there is no header followed by a rule.
pub fn parse(text: &str) -> Option<Table> {
    let lines: Vec<&str> = text.lines().collect();
    let header_index = (0..lines.len().saturating_sub(1))
        .find(|&index| !lines[index].trim().is_empty() && !is_rule(lines[index]) && is_rule(lines[index + 1]))?;
    let header: Vec<char> = lines[header_index].trim_end().chars().collect();
    let spans = header_spans(&header);
    let rows: Vec<Vec<char>> = lines[header_index + 2..]
        .iter()
        .take_while(|line| !line.trim().is_empty())
        .map(|line| line.trim_end().chars().collect())
        .collect();
    let blank = |position: usize| rows.iter().all(|row| row.get(position).is_none_or(|c| *c == ' '));

    let mut cuts = vec![0];
    for pair in spans.windows(2) {
        let (gap_start, gap_end) = (pair[0].1, pair[1].0);
        // The widest blank run in the gap; on a tie the last one, nearest the next header.
        let mut best: Option<(usize, usize)> = None;
        let mut position = gap_start;
        while position < gap_end {
            if !blank(position) {
                position += 1;
                continue;
            }
            let run_start = position;
            while position < gap_end && blank(position) {
                position += 1;
            }
            if best.is_none_or(|(start, end)| position - run_start >= end - start) {
                best = Some((run_start, position));
            }
        }
        cuts.push(best.map_or(gap_end, |(_, end)| end));
    }

    let cell = |row: &[char], index: usize| -> String {
        let start = cuts[index].min(row.len());
        let end = cuts.get(index + 1).copied().unwrap_or(row.len()).clamp(start, row.len());
        row[start..end].iter().collect::<String>().trim().to_owned()
    };
    Some(Table {
        headers: spans.iter().map(|&(start, end)| header[start..end].iter().collect()).collect(),
        rows: rows.iter().map(|row| (0..spans.len()).map(|index| cell(row, index)).collect()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_tool_list_with_single_spaces_in_headers_and_cells() {
        let text = "Package Id      Version      Commands              Manifest\n\
                    ---------------------------------------------------------------------------\n\
                    dotnet-ef       10.0.0       dotnet-ef             /src/My App/.config/dotnet-tools.json\n\
                    csharpier       1.1.2        csharpier, dotnet-x   /src/My App/.config/dotnet-tools.json\n";
        let table = parse(text).unwrap();
        assert_eq!(table.headers, ["Package Id", "Version", "Commands", "Manifest"]);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(table.cell(&table.rows[1], "commands"), Some("csharpier, dotnet-x"));
        assert_eq!(table.cell(&table.rows[0], "Manifest"), Some("/src/My App/.config/dotnet-tools.json"));
    }

    #[test]
    fn right_aligned_cells_wider_than_their_header_stay_in_their_column() {
        // "Hits" is right-aligned in a column wider than its header.
        let text = "\nName     Hits   Ok\n------------------\na      123456   x\nbb          7\n";
        let table = parse(text).unwrap();
        assert_eq!(table.rows[0], ["a", "123456", "x"]);
        assert_eq!(table.rows[1], ["bb", "7", ""]);
        assert_eq!(table.cell(&table.rows[1], "Ok"), None);
    }

    #[test]
    fn the_last_column_keeps_inner_double_spaces_and_rows_end_at_a_blank_line() {
        let text = "Workload ID   Description\n-------------------------\nwasm-tools    .NET  WebAssembly tools\n\n\
                    Use `dotnet workload search` to find more.\n";
        let table = parse(text).unwrap();
        assert_eq!(table.rows, [["wasm-tools", ".NET  WebAssembly tools"]]);
    }

    #[test]
    fn per_column_rules_empty_tables_and_text_without_a_table() {
        let table = parse("Template Name  Short Name\n-------------  ----------\n").unwrap();
        assert_eq!(table.headers, ["Template Name", "Short Name"]);
        assert!(table.rows.is_empty());
        assert_eq!(parse("Restore was successful.\n"), None);
        assert_eq!(parse("-----\n-----\n"), None);
    }
}
