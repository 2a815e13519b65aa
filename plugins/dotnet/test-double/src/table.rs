//! Fixed-width tables as the CLI prints them.

/// How the rule under the header is drawn.
#[derive(Clone, Copy)]
pub enum Rule {
    /// One run of dashes per column, separated like the cells (`dotnet new list`).
    PerColumn,
    /// One run of dashes across the whole width (`dotnet tool list`, `dotnet workload list`).
    Full,
}

/// A table: header cells, rows, the gap between columns and the rule style.
pub struct Table<'a> {
    /// The header cells.
    pub headers: &'a [&'a str],
    /// The rows; each has as many cells as there are headers.
    pub rows: Vec<Vec<String>>,
    /// Spaces between columns.
    pub gap: usize,
    /// The rule under the header.
    pub rule: Rule,
    /// The indexes of right-aligned columns.
    pub right: &'a [usize],
}

impl Table<'_> {
    /// The table's lines: header, rule, rows. Every cell is padded to its column's width.
    pub fn lines(&self) -> Vec<String> {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let gap = " ".repeat(self.gap);
        let format_row = |cells: Vec<&str>| -> String {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if self.right.contains(&i) {
                        format!("{c:>w$}", w = widths[i])
                    } else {
                        format!("{c:<w$}", w = widths[i])
                    }
                })
                .collect::<Vec<_>>()
                .join(&gap)
        };
        let mut lines = vec![format_row(self.headers.to_vec())];
        lines.push(match self.rule {
            Rule::PerColumn => widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join(&gap),
            Rule::Full => "-".repeat(widths.iter().sum::<usize>() + self.gap * (widths.len().saturating_sub(1))),
        });
        for row in &self.rows {
            lines.push(format_row(row.iter().map(String::as_str).collect()));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::{Rule, Table};

    #[test]
    fn pads_cells_and_draws_rules() {
        let t = Table {
            headers: &["Name", "N"],
            rows: vec![vec!["a".into(), "10".into()], vec!["long name".into(), "2".into()]],
            gap: 2,
            rule: Rule::PerColumn,
            right: &[1],
        };
        assert_eq!(t.lines(), ["Name        N", "---------  --", "a          10", "long name   2"]);
        let full = Table { rule: Rule::Full, right: &[], ..t };
        assert_eq!(full.lines()[1], "-------------");
    }
}
