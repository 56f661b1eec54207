//! Text a peer wrote (a server's refusal, a lookup's fields), as a message shows it:
//! whole, and every character that could hide or rearrange the rest (control characters,
//! bidirectional overrides, line and paragraph separators, zero-width and no-break spaces,
//! a byte-order mark) written as its code point, `<U+202E>`, so that what the user reads is
//! what the peer sent. Only text longer than [`MAX_CHARS`] is cut, at a space, never inside
//! a word, and says how long it was.

/// The most characters shown of one peer text (a server's sentence is far shorter; a
/// hostile one longer than this is cut at a space before it).
pub const MAX_CHARS: usize = 1000;

/// Whether a message writes `c` as its code point instead of itself.
pub fn hidden(c: char) -> bool {
    c.is_control() || (c.is_whitespace() && c != ' ') || char_name(c).is_some()
}

/// `s` as a message shows it (see the module's note).
pub fn shown(s: &str) -> String {
    let n = s.chars().count();
    let mut head: Vec<char> = s.chars().take(MAX_CHARS).collect();
    let cut = n > MAX_CHARS;
    if cut {
        // back to the last space, so that no word is cut (a text without spaces is cut at
        // the limit)
        if let Some(sp) = head.iter().rposition(|&c| c == ' ') {
            if sp > 0 {
                head.truncate(sp);
            }
        }
    }
    let mut out = String::with_capacity(head.len() + 16);
    for c in head {
        if hidden(c) {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    if cut {
        out.push_str(&format!("… ({n} characters)"));
    }
    out
}

/// The name of a character a reader cannot see or tell apart from a space, or `None` for a
/// visible one.
pub fn char_name(c: char) -> Option<String> {
    let named = match c {
        '\u{feff}' => "byte-order mark",
        '\u{a0}' => "no-break space",
        '\u{202f}' => "narrow no-break space",
        '\u{2007}' => "figure space",
        '\u{200b}' => "zero-width space",
        '\u{200c}' => "zero-width non-joiner",
        '\u{200d}' => "zero-width joiner",
        '\u{2060}' => "word joiner",
        '\u{3000}' => "ideographic space",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{85}' => "next-line character",
        '\u{0}' => "NUL character",
        '\u{b}' => "vertical tab",
        '\u{7f}' => "delete character",
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' => {
            "bidirectional control"
        }
        c if c.is_control() => "control character",
        c if c.is_whitespace() && c != ' ' => "space character",
        '\u{ad}' => "soft hyphen",
        _ => return None,
    };
    Some(format!("{named} (U+{:04X})", c as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_characters_are_named_and_words_kept_whole() {
        assert_eq!(shown("try again in 60 s"), "try again in 60 s");
        assert_eq!(
            shown("ok\u{202e}txt.exe\u{2028}line\u{0}"),
            "ok<U+202E>txt.exe<U+2028>line<U+0000>"
        );
        assert_eq!(
            shown("a\u{a0}b\u{feff}\u{200b}"),
            "a<U+00A0>b<U+FEFF><U+200B>"
        );
        // a long sentence is shown whole up to the limit, then cut at a space
        let long = "word ".repeat(300);
        let s = shown(&long);
        assert!(s.ends_with("word… (1500 characters)"), "{s}");
        assert!(!s.contains("wor…"));
        let sentence = "x".repeat(150) + " " + &"y".repeat(100);
        assert_eq!(shown(&sentence), sentence);
    }
}
