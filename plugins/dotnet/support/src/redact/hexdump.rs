//! Dumps of bytes: the bytes of `hexdump -C` lines read as text, and the secrets in them hidden
//! in both the hex and the character columns.

use super::{patterns::FULL, replace::replace};

/// A line of `hexdump -C`: an offset, up to 16 bytes in hex (a blank in the middle), the bytes
/// as printable text between `|` (no pattern group, not anchored).
pub(super) const HEXDUMP_LINE: &str = r"[0-9a-f]{8}  (?:[0-9a-f]{2}  ?){1,16} *\|[ -~]{1,16}\|\r?";

/// A byte of a `hexdump -C` line.
#[derive(Debug, Clone, Copy)]
pub(super) struct DumpedByte {
    /// Where its hex pair starts in the line.
    hex: usize,
    /// Where its character is in the line's text column.
    column: usize,
    /// The byte as text: printable ASCII and line breaks as they are, any other byte as a blank,
    /// so each byte is one character.
    pub(super) text: char,
}

/// The bytes of a `hexdump -C` line.
pub(super) fn hexdump_bytes(line: &str) -> Vec<DumpedByte> {
    let bar = line.find('|').unwrap_or(line.len());
    let raw = line.as_bytes();
    let mut bytes = Vec::new();
    let mut at = 8;
    while at + 1 < bar {
        if raw[at].is_ascii_hexdigit() && raw[at + 1].is_ascii_hexdigit() {
            let byte = u8::from_str_radix(&line[at..at + 2], 16).unwrap_or(b' ');
            let shown = if byte.is_ascii_graphic() || b" \n\r\t".contains(&byte) { char::from(byte) } else { ' ' };
            bytes.push(DumpedByte { hex: at, column: bar + 1 + bytes.len(), text: shown });
            at += 2;
        } else {
            at += 1;
        }
    }
    bytes
}

/// Which bytes of `text` (the text of dumped bytes, one byte a character) are secret: those that
/// [`redact`](super::redact)'s forms replace, between what a replacement keeps before and after.
pub(super) fn secret_bytes(text: &str) -> Vec<bool> {
    let mut secret = vec![false; text.len()];
    for caps in FULL.captures_iter(text) {
        let whole = caps.get(0).expect("a match has group 0");
        let shown = replace(&caps);
        let (was, now) = (whole.as_str().as_bytes(), shown.as_bytes());
        let before = was.iter().zip(now).take_while(|(a, b)| a == b).count();
        let after = was[before..].iter().rev().zip(now[before..].iter().rev()).take_while(|(a, b)| a == b).count();
        secret[whole.start() + before..whole.end() - after].fill(true);
    }
    secret
}

/// `line` of a dump with the bytes `hidden` says are secret shown as `**` in the hex columns and
/// `*` in the text column.
pub(super) fn hide_dumped(line: &str, bytes: &[DumpedByte], hidden: &[bool]) -> String {
    let mut shown = line.as_bytes().to_vec();
    for (byte, _) in bytes.iter().zip(hidden).filter(|(_, hidden)| **hidden) {
        shown[byte.hex..byte.hex + 2].copy_from_slice(b"**");
        if let Some(character) = shown.get_mut(byte.column).filter(|c| **c != b'|') {
            *character = b'*';
        }
    }
    String::from_utf8(shown).expect("a dump line is ASCII")
}

/// A block of `hexdump -C` lines with the bytes of every secret in it hidden: the bytes are read as
/// the text they dump, so a secret split over lines is seen whole; each of its bytes shows as `**`
/// in the hex columns and `*` in the text column, so the dump keeps its layout and its other bytes.
pub(super) fn hexdump_block(block: &str) -> String {
    let lines: Vec<(&str, Vec<DumpedByte>)> = block.split('\n').map(|line| (line, hexdump_bytes(line))).collect();
    let text: String = lines.iter().flat_map(|(_, bytes)| bytes.iter().map(|byte| byte.text)).collect();
    let secret = secret_bytes(&text);
    let mut at = 0;
    let shown: Vec<String> = lines
        .iter()
        .map(|(line, bytes)| {
            at += bytes.len();
            hide_dumped(line, bytes, &secret[at - bytes.len()..at])
        })
        .collect();
    shown.join("\n")
}

#[cfg(test)]
mod tests {
    use crate::redact::tests::{lines, r};

    #[test]
    fn secrets_in_the_bytes_of_a_hexdump_are_hidden_in_both_columns() {
        // The name is split over two lines, the value over the next two.
        let dump = concat!(
            "00000000  7b 22 53 6d 74 70 22 3a  20 7b 22 50 61 73 73 77  |{\"Smtp\": {\"Passw|\n",
            "00000010  6f 72 64 22 3a 20 22 51  77 37 2d 7a 7a 21 34 4c  |ord\": \"Qw7-zz!4L|\n",
            "00000020  70 39 78 22 7d 7d 0a                              |p9x\"}}.|\n",
            "00000027",
        );
        let hidden = concat!(
            "00000000  7b 22 53 6d 74 70 22 3a  20 7b 22 50 61 73 73 77  |{\"Smtp\": {\"Passw|\n",
            "00000010  6f 72 64 22 3a 20 22 **  ** ** ** ** ** ** ** **  |ord\": \"*********|\n",
            "00000020  ** ** ** 22 7d 7d 0a                              |***\"}}.|\n",
            "00000027",
        );
        assert_eq!(r(dump), hidden);
        assert_eq!(lines(dump), hidden, "line by line");
        // A commit under a plain name stays byte for byte.
        let clean = concat!(
            "00000000  7b 22 42 75 69 6c 64 22  3a 20 7b 22 43 6f 6d 6d  |{\"Build\": {\"Comm|\n",
            "00000010  69 74 22 3a 20 22 39 63  31 66 30 65 32 64 33 62  |it\": \"9c1f0e2d3b|\n",
            "00000020  34 61 35 39 36 38 22 7d  7d 0a                    |4a5968\"}}.|",
        );
        assert_eq!(r(clean), clean);
        assert_eq!(lines(clean), clean, "line by line");
    }
}
