//! Small parsers shared by the grid games: sizes, run-length descriptions, coordinates,
//! and the names of squares in messages.

use zkgames_core::Error;
use zkgames_core::Result;

/// Largest width or height accepted (the circuit grows with the area).
pub const MAX_SIDE: usize = 40;

/// A spreadsheet-style name for column `x`, row `y` (0-based): `a1` is the top left.
pub fn place(x: usize, y: usize) -> String {
    let mut col = String::new();
    let mut n = x + 1;
    while n > 0 {
        let r = (n - 1) % 26;
        col.insert(0, (b'a' + r as u8) as char);
        n = (n - 1) / 26;
    }
    format!("{col}{}", y + 1)
}

/// Reads `WxH[d?]` the way `decode_params` does, but strictly: digits, an optional `x`
/// and digits, an optional `d` and one letter, nothing else.
pub fn parse_size<'a>(params: &'a str, game: &str, min: usize) -> Result<(usize, usize, &'a str)> {
    let bad = || {
        Error::bad(format!(
            "{game} parameters {params:?} are not of the form WxH"
        ))
    };
    let digits = |s: &str| s.bytes().take_while(|b| b.is_ascii_digit()).count();
    let n = digits(params);
    if n == 0 || n > 4 {
        return Err(bad());
    }
    let w: usize = params[..n].parse().map_err(|_| bad())?;
    let mut rest = &params[n..];
    let mut h = w;
    if let Some(r) = rest.strip_prefix('x') {
        let m = digits(r);
        if m == 0 || m > 4 {
            return Err(bad());
        }
        h = r[..m].parse().map_err(|_| bad())?;
        rest = &r[m..];
    }
    if w < min || h < min || w > MAX_SIDE || h > MAX_SIDE {
        return Err(Error::bad(format!(
            "{game} {w}x{h} is outside the supported sizes {min}x{min} to {MAX_SIDE}x{MAX_SIDE}"
        )));
    }
    Ok((w, h, rest))
}

/// Decodes a run-length description: `a`–`z` are runs of 1–26 empty entries, any other
/// byte goes to `item`, which returns the entry or `None` if the byte is not allowed.
pub fn run_length<T: Clone>(
    desc: &str,
    n: usize,
    game: &str,
    empty: T,
    item: impl Fn(u8) -> Option<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(n);
    for (i, b) in desc.bytes().enumerate() {
        if b.is_ascii_lowercase() {
            let run = (b - b'a') as usize + 1;
            if out.len() + run > n {
                return Err(Error::bad(format!(
                    "{game} description is too long for its size"
                )));
            }
            out.extend(std::iter::repeat_n(empty.clone(), run));
        } else {
            let Some(v) = item(b) else {
                return Err(Error::bad(format!(
                    "{game} description has an unexpected character at position {}",
                    i + 1
                )));
            };
            if out.len() == n {
                return Err(Error::bad(format!(
                    "{game} description is too long for its size"
                )));
            }
            out.push(v);
        }
    }
    if out.len() < n {
        return Err(Error::bad(format!(
            "{game} description is too short for its size"
        )));
    }
    Ok(out)
}

/// Parses `x,y` at the start of `s` (plain decimal digits), returning the rest.
pub fn parse_xy(s: &str) -> Option<(usize, usize, &str)> {
    let (x, rest) = parse_num(s)?;
    let rest = rest.strip_prefix(',')?;
    let (y, rest) = parse_num(rest)?;
    Some((x, y, rest))
}

/// Parses a non-negative decimal number of at most 6 digits at the start of `s`.
pub fn parse_num(s: &str) -> Option<(usize, &str)> {
    let n = s.bytes().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 6 {
        return None;
    }
    Some((s[..n].parse().ok()?, &s[n..]))
}

/// The start of a long move string, for messages.
pub fn short(s: &str) -> String {
    if s.chars().count() > 24 {
        format!("{}…", s.chars().take(24).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The run-length form the collection writes: `None` entries in runs of at most 26 as
/// `a`–`z`, other entries as their character.
pub fn encode_runs(items: impl IntoIterator<Item = Option<char>>) -> String {
    let mut out = String::new();
    let mut run = 0u8;
    for it in items {
        match it {
            None => {
                run += 1;
                if run == 26 {
                    out.push('z');
                    run = 0;
                }
            }
            Some(c) => {
                if run > 0 {
                    out.push((b'a' + run - 1) as char);
                    run = 0;
                }
                out.push(c);
            }
        }
    }
    if run > 0 {
        out.push((b'a' + run - 1) as char);
    }
    out
}
