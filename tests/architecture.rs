//! The layering of docs/ARCHITECTURE.md, checked: every `crate::` path outside comments in
//! `src/` names a module its file's module may import. A new import that goes upwards (an
//! engine that reaches into a game, a game into the command line) fails here with the file
//! and the line, so the map in the docs stays true.

use std::collections::BTreeSet;
use std::path::Path;

/// Top-level modules by layer, bottom up, and which modules of the crate each may import.
fn allowed(module: &str) -> Option<&'static [&'static str]> {
    Some(match module {
        "error" | "rng" | "commit" => &[],
        "files" | "transcript" | "merkle" => &["error", "rng", "commit"],
        "proof_file" => &["error", "rng", "commit", "files"],
        "net" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
        ],
        "mpc" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
            "net",
        ],
        // the two games: the engines below, never each other
        "peg" | "wall" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
            "net",
            "mpc",
        ],
        // Tatham's puzzles: the engines, and the peg solver and circuit for Pegs
        "tatham" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
            "net",
            "mpc",
            "peg",
        ],
        "auth" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
            "net",
            "mpc",
            "peg",
            "wall",
        ],
        "cli" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
            "net",
            "mpc",
            "peg",
            "wall",
            "auth",
            "tatham",
        ],
        "fuzz_entry" => &[
            "error",
            "rng",
            "commit",
            "files",
            "transcript",
            "merkle",
            "proof_file",
            "net",
            "mpc",
            "peg",
            "wall",
            "auth",
            "tatham",
            "cli",
        ],
        _ => return None,
    })
}

/// The crate's top-level modules named by `crate::` paths in `src` (comment lines skipped):
/// `crate::peg::x`, `crate::{peg, mpc::y}`, and `crate::Error` / `crate::Result` (the
/// `error` module's re-exports).
fn imports(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    // join lines so that a `use crate::{...}` group spanning lines is seen whole, but keep
    // each hit's line number
    let code: Vec<(usize, &str)> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
        .collect();
    let mut text = String::new();
    let mut line_of = Vec::new(); // byte offset -> line
    for (n, l) in &code {
        for _ in 0..=l.len() {
            line_of.push(*n);
        }
        text.push_str(l);
        text.push('\n');
    }
    let mut from = 0;
    while let Some(p) = text[from..].find("crate::") {
        let at = from + p;
        // skip identifiers ending in `crate` (e.g. `$crate::`)
        let prev = text[..at].chars().last();
        from = at + "crate::".len();
        if matches!(prev, Some(c) if c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &text[from..];
        let mut names = Vec::new();
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            let inner = &group[..end];
            for item in split_top(inner) {
                let head: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(head);
            }
        } else {
            names.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
        for n in names {
            let m = match n.as_str() {
                "Error" | "Result" => "error".to_string(),
                _ => n,
            };
            if !m.is_empty() {
                out.push((line_of[at], m));
            }
        }
    }
    out
}

/// The index of the `}` closing a group whose `{` was just consumed.
fn matching_brace(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

/// Splits a `use` group's items at top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel.iter().next().unwrap().to_string_lossy().to_string();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "bin" {
            continue;
        }
        let ok = allowed(&module).unwrap_or_else(|| {
            panic!("src/{first}: a top-level module missing from docs/ARCHITECTURE.md's table")
        });
        let text = std::fs::read_to_string(f).unwrap();
        for (line, m) in imports(&text) {
            if m == module {
                continue;
            }
            seen.insert((module.clone(), m.clone()));
            if !ok.contains(&m.as_str()) {
                bad.push(format!(
                    "src/{}:{line}: `{module}` imports `{m}`",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports against the layering of docs/ARCHITECTURE.md:\n{}",
        bad.join("\n")
    );
    // the scan really sees imports (a parser that finds nothing would pass vacuously)
    for pair in [("peg", "mpc"), ("cli", "auth"), ("net", "proof_file")] {
        assert!(
            seen.contains(&(pair.0.to_string(), pair.1.to_string())),
            "expected to see {pair:?}"
        );
    }
}

#[test]
fn the_scanner_finds_paths_groups_and_reexports_and_skips_comments() {
    let src = "use crate::{mpc::engine::System, peg, Error};\n\
               // use crate::cli::x;\n\
               /// [`crate::auth`] in a doc comment\n\
               fn f() -> crate::Result<()> { crate::wall::x(); let y = 1; // crate::cli\n }\n\
               macro_rules! m { () => { $crate::net::x() } }\n";
    let found: Vec<String> = imports(src).into_iter().map(|(_, m)| m).collect();
    assert_eq!(found, ["mpc", "peg", "error", "error", "wall"]);
    assert_eq!(
        imports("use crate::{\n  net::{a, b},\n  files,\n};\n").len(),
        2
    );
    // an upward import is caught by the table
    assert!(!allowed("mpc").unwrap().contains(&"peg"));
    assert!(!allowed("peg").unwrap().contains(&"wall"));
    assert!(!allowed("wall").unwrap().contains(&"peg"));
}
