//! The small words of the prose replies, one way for every family: counted nouns and sentence
//! starts.

/// `count` and the noun, with an `s` unless there is one: `1 workload`, `0 workloads`,
/// `3 workloads`. For a noun whose plural is not `-s`, [`count_of`].
pub fn count(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// `count` and `one` or `many`: `1 entry`, `2 entries`.
pub fn count_of(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `text` with its first letter in upper case, to start a sentence with a name that starts in
/// lower case (`the project in /src` becomes `The project in /src`).
pub fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_say_one_without_an_s_and_any_other_number_with_it() {
        assert_eq!([count(0, "pack"), count(1, "pack"), count(2, "pack")], ["0 packs", "1 pack", "2 packs"]);
        assert_eq!([count_of(1, "entry", "entries"), count_of(5, "entry", "entries")], ["1 entry", "5 entries"]);
        assert_eq!(
            [sentence_start("the project"), sentence_start(""), sentence_start("été")],
            ["The project", "", "Été"]
        );
    }
}
