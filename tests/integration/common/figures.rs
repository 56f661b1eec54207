//! docs/FIGURES.md as the tests read it: the proof sizes (id → bytes and the command that
//! writes the proof), the rows the other documents copy, and the sizes the documents quote.
//! A quoted size carries the id of its FIGURES.md row right after it: `31,208 B [F:sha256-vole]`,
//! or rounded, `9.4 KB [F:peg-vole]` (KB = 1,000 B, MB = 1,000,000 B).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

/// Bytes by which a proof made WITHOUT `--seed` (a README command) may differ from its
/// seeded figure when the proof is VOLE-in-the-head: none, since format v4 writes the
/// grinding counter in 4 fixed bytes (a VOLE proof's size depends only on its statement and
/// parameters). Kept as a named constant so the rule is stated where it is used.
pub const VOLE_SIZE_SLACK: u64 = 0;

pub struct Figures {
    /// id → (bytes, command)
    pub sizes: BTreeMap<String, (u64, String)>,
    /// Every table row of the sections "Headline rows" and "Kept rows", verbatim.
    pub rows: Vec<String>,
}

/// The cells of a Markdown table row.
pub fn cells(row: &str) -> Vec<&str> {
    let t = row.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split(" | ").map(str::trim).collect()
}

fn is_row(l: &str) -> bool {
    l.starts_with('|')
        && !l.starts_with("|---")
        && !l.starts_with("| job |")
        && !l.starts_with("| id |")
}

pub fn parse(text: &str) -> Figures {
    let mut sizes = BTreeMap::new();
    let mut rows = Vec::new();
    let mut section = "";
    for l in text.lines() {
        if let Some(h) = l.strip_prefix("## ") {
            section = match h.trim() {
                "Headline rows" | "Kept rows" => "rows",
                "Proof sizes" => "sizes",
                _ => "",
            };
            continue;
        }
        if !is_row(l) {
            continue;
        }
        match section {
            "rows" => rows.push(l.to_string()),
            "sizes" => {
                let c = cells(l);
                assert_eq!(c.len(), 4, "FIGURES.md: a size row without 4 cells: {l}");
                let id = c[0].trim_matches('`').to_string();
                let bytes: u64 = c[2]
                    .replace(',', "")
                    .parse()
                    .unwrap_or_else(|_| panic!("FIGURES.md: no byte count in {l}"));
                let cmd = c[3].trim_matches('`').to_string();
                assert!(
                    sizes.insert(id.clone(), (bytes, cmd)).is_none(),
                    "FIGURES.md: id {id} twice"
                );
            }
            _ => {}
        }
    }
    Figures { sizes, rows }
}

pub fn load() -> Figures {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    parse(&std::fs::read_to_string(root.join("docs/FIGURES.md")).unwrap())
}

/// A size written in a document: `value unit`, and the id after it, if any.
#[derive(Debug, PartialEq)]
pub struct Quote {
    pub text: String,
    pub unit: &'static str,
    pub id: Option<String>,
}

/// Every size in `line`: a number (digits, `,` and `.`), an optional space, then `B`, `KB`,
/// `kB` or `MB` as a word of its own; the id if ` [F:id]` follows.
pub fn sizes_in(line: &str) -> Vec<Quote> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.' || b[i - 1] == b','));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b',' || b[j] == b'.') {
            j += 1;
        }
        let num = line[i..j].trim_end_matches([',', '.']);
        let mut k = i + num.len();
        if k < b.len() && b[k] == b' ' {
            k += 1;
        }
        let unit = ["MB", "KB", "kB", "B"].into_iter().find(|u| {
            line[k..].starts_with(u)
                && !line[k + u.len()..].starts_with(|c: char| c.is_alphanumeric())
        });
        if let Some(u) = unit {
            let after = &line[k + u.len()..];
            let id = after
                .strip_prefix(" [F:")
                .and_then(|r| r.split_once(']'))
                .map(|(id, _)| id.to_string());
            out.push(Quote {
                text: num.to_string(),
                unit: if u == "kB" { "KB" } else { u },
                id,
            });
        }
        i = j.max(i + 1);
    }
    out
}

/// Whether the quoted size is `bytes`: exactly for `B`, rounded to the quote's decimals for
/// `KB` and `MB`.
pub fn agrees(q: &Quote, bytes: u64) -> bool {
    if q.unit == "B" {
        return q.text.replace(',', "").parse::<u64>() == Ok(bytes);
    }
    let scale = if q.unit == "KB" { 1e3 } else { 1e6 };
    let decimals = q.text.split_once('.').map_or(0, |(_, d)| d.len());
    let Ok(v) = q.text.replace(',', "").parse::<f64>() else {
        return false;
    };
    format!("{:.*}", decimals, bytes as f64 / scale) == format!("{v:.decimals$}")
}

#[test]
fn the_size_reader_can_fail() {
    let q = sizes_in(
        "a 31,208 B [F:sha256-vole] proof, 9.4 KB, 1.4 MB [F:peg-iso]; 64 bytes, x2 B, 3 Bits",
    );
    assert_eq!(q.len(), 3, "{q:?}");
    assert_eq!(q[0].id.as_deref(), Some("sha256-vole"));
    assert!(agrees(&q[0], 31_208) && !agrees(&q[0], 31_209));
    assert!(agrees(&q[1], 9_449) && !agrees(&q[1], 9_551));
    assert!(agrees(&q[2], 1_398_685) && !agrees(&q[2], 1_348_685));
    assert_eq!(q[1].id, None);
}
