//! The Bristol reader's lexer: one pass over the file's bytes, a line's tokens as slices of
//! the file (one token buffer for the whole file, no allocation a line), numbers read digit
//! by digit, and the characters a message names in words (a byte-order mark, a no-break
//! space, a NUL) instead of showing them invisibly or as Rust escapes.

/// The separators of a line's tokens (ASCII whitespace but the line end).
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

/// The file's non-blank lines, each as its 1-based number, the offset where it starts and
/// its tokens.
pub(super) struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Lines {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    /// The next non-blank line's number and start, its tokens in `toks` (cleared first).
    pub(super) fn next_into(&mut self, toks: &mut Vec<&'a [u8]>) -> Option<(usize, usize)> {
        let b = self.bytes;
        let len = b.len();
        while self.pos < len {
            let (ln, start) = (self.line, self.pos);
            self.line += 1;
            toks.clear();
            let mut i = self.pos;
            loop {
                while i < len && is_space(b[i]) {
                    i += 1;
                }
                if i >= len {
                    break;
                }
                if b[i] == b'\n' {
                    i += 1;
                    break;
                }
                let s = i;
                while i < len && !is_space(b[i]) && b[i] != b'\n' {
                    i += 1;
                }
                toks.push(&b[s..i]);
            }
            self.pos = i;
            if !toks.is_empty() {
                return Some((ln, start));
            }
        }
        None
    }
}

/// A whole number of at most 12 digits, or `None`.
#[inline]
pub(super) fn digits(tok: &[u8]) -> Option<u64> {
    if tok.is_empty() || tok.len() > 12 {
        return None;
    }
    let mut v = 0u64;
    for &c in tok {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + d as u64;
    }
    Some(v)
}

pub use zkgames_core::files::untrusted::char_name;

/// What is wrong with a token that should have been a number, in words: the first
/// invisible character it holds and its column on the line (`line` from the line's start to
/// the token's end), or the token quoted.
pub(super) fn describe_token(line: &[u8], tok_start: usize, tok: &[u8]) -> String {
    let text = String::from_utf8_lossy(tok);
    let before = String::from_utf8_lossy(&line[..tok_start]).chars().count();
    for (i, c) in text.chars().enumerate() {
        if let Some(name) = char_name(c) {
            return format!("a {name} at column {}", before + i + 1);
        }
    }
    format!("'{}'", zkgames_core::files::excerpt(&text))
}
