//! Every figure the documents quote comes from docs/FIGURES.md (written by
//! `cargo bench --bench figures`), and every proof size there is what its command writes:
//!
//! - each command of FIGURES.md's "Proof sizes" table runs again, through this build's
//!   binaries, and writes a file of exactly the size the table says (the commands are seeded);
//! - README.md, docs/GUIDE.md and docs/FAQ.md quote a size only with the id of its row
//!   (`31,208 B [F:sha256-vole]`, or rounded, `9.4 KB [F:peg-vole]`), and the size agrees
//!   with the row; a size without an id stands only in a row copied verbatim from
//!   FIGURES.md (the README's figures table, the guide's headline table) or in the guide's
//!   per-benchmark sections (after its headline table, each with its own command and date);
//! - the README's figures table and the guide's headline table are FIGURES.md's rows,
//!   verbatim, and the guide has every one of them.
//!
//! The README's shell blocks that quote a size are also run as pasted (tests/integration/readme_blocks.rs
//! checks the size of the file each writes).

use crate::common::figures;

use std::path::Path;
use std::process::Command;

use figures::{agrees, load, sizes_in};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_size_in_figures_is_what_its_command_writes() {
    let f = load();
    assert!(
        f.sizes.len() >= 20,
        "FIGURES.md lists {} sizes",
        f.sizes.len()
    );
    let base = std::env::temp_dir().join(format!("zkg_figq_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(base.join("rows")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_prover"), bin.join("prover")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_verifier"), bin.join("verifier")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut wrong = Vec::new();
    let mut ran = 0;
    for (id, (bytes, cmd)) in &f.sizes {
        let dir = base.join("rows").join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(root().join("puzzles"), dir.join("puzzles")).unwrap();
        std::os::unix::fs::symlink(root().join("circuits"), dir.join("circuits")).unwrap();
        let out = Command::new("bash")
            .args(["-e", "-o", "pipefail", "-c", cmd])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        if !out.status.success() {
            wrong.push(format!(
                "{id}: `{cmd}` failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let file = cmd
            .rsplit(" -o ")
            .next()
            .and_then(|r| r.split_whitespace().next())
            .unwrap();
        let got = std::fs::metadata(dir.join(file)).unwrap().len();
        ran += 1;
        if got != *bytes {
            wrong.push(format!(
                "{id}: FIGURES.md says {bytes} B, `{cmd}` wrote {got} B"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(
        wrong.is_empty(),
        "FIGURES.md is out of date (run `cargo bench --bench figures`):\n{}",
        wrong.join("\n")
    );
    assert!(ran >= 20, "only {ran} commands ran");
}

/// The line ranges of the guide where sizes without an id may stand: its per-benchmark
/// sections, after the headline table, up to the next top-level section.
fn exempt(doc: &str, text: &str) -> Vec<bool> {
    let (mut perf, mut on) = (false, false);
    let mut out = Vec::new();
    for l in text.lines() {
        if l.starts_with("## ") {
            perf = doc == "docs/GUIDE.md" && l.starts_with("## Performance");
            on = false;
        } else if l.starts_with("### ") {
            on = perf && l != "### Headline figures";
        }
        out.push(on);
    }
    out
}

/// What is wrong with the sizes `text` (the document `doc`) quotes, and how many it tags.
fn check_doc(doc: &str, text: &str, f: &figures::Figures) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut tagged = 0;
    let free = exempt(doc, text);
    for (i, line) in text.lines().enumerate() {
        let copied = f.rows.iter().any(|r| r == line);
        for q in sizes_in(line) {
            let at = format!("{doc}:{}: {} {}", i + 1, q.text, q.unit);
            match &q.id {
                Some(id) => {
                    tagged += 1;
                    match f.sizes.get(id) {
                        None => bad.push(format!("{at} [F:{id}]: FIGURES.md has no row {id}")),
                        Some((bytes, _)) if !agrees(&q, *bytes) => {
                            bad.push(format!("{at} [F:{id}], but FIGURES.md says {bytes} B"))
                        }
                        _ => {}
                    }
                }
                None if copied || free[i] => {}
                None => bad.push(format!(
                    "{at} without the id of its FIGURES.md row ([F:id])"
                )),
            }
        }
    }
    (bad, tagged)
}

#[test]
fn the_documents_quote_sizes_from_figures() {
    let f = load();
    let mut bad = Vec::new();
    let mut tagged = 0;
    for doc in ["README.md", "docs/GUIDE.md", "docs/FAQ.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let (b, t) = check_doc(doc, &text, &f);
        bad.extend(b);
        tagged += t;
    }
    assert!(
        bad.is_empty(),
        "sizes the documents quote that FIGURES.md does not back:\n{}",
        bad.join("\n")
    );
    assert!(tagged >= 10, "only {tagged} tagged sizes in the documents");
    // the check itself can fail: a wrong size, an unknown id, an untagged size; while a
    // copied row and the guide's per-bench sections pass
    let fig = figures::parse(
        "## Headline rows\n| job | figure |\n|---|---|\n| a | 7 B |\n\
         ## Proof sizes\n| id | proof | bytes | command |\n|---|---|---|---|\n\
         | `x` | p | 1,234 | `prover p -o f` |\n",
    );
    let doc = "1,234 B [F:x] and 1.2 KB [F:x]\n1,235 B [F:x]\n9 B [F:y]\n5 KB\n| a | 7 B |\n";
    let (b, t) = check_doc("README.md", doc, &fig);
    assert_eq!(t, 4);
    assert_eq!(b.len(), 3, "{b:?}");
    let guide = "## Performance\n### Headline figures\n3 B\n### Peg\n4 B\n## Fuzzing\n5 B\n";
    let (b, _) = check_doc("docs/GUIDE.md", guide, &fig);
    assert_eq!(b.len(), 2, "{b:?}");
    assert!(b[0].contains(":3:") && b[1].contains(":7:"), "{b:?}");
}

/// The table rows (with a figure) of the section of `text` headed `heading`, up to the next
/// heading of the same or a higher level.
fn table_rows<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let level = heading.split(' ').next().unwrap();
    text.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| {
            !(l.starts_with('#') && l.split(' ').next().is_some_and(|h| h.len() <= level.len()))
        })
        .filter(|l| {
            l.starts_with('|')
                && !l.starts_with("|---")
                && !l.starts_with("| job |")
                && l.chars().any(|c| c.is_ascii_digit())
        })
        .collect()
}

#[test]
fn the_figures_tables_are_figures_md_rows() {
    let f = load();
    assert!(f.rows.len() >= 8, "FIGURES.md has {} rows", f.rows.len());
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let guide = std::fs::read_to_string(root().join("docs/GUIDE.md")).unwrap();
    let ours = table_rows(&readme, "## Figures");
    // the guide points at FIGURES.md instead of copying it
    let theirs = table_rows(&guide, "### Headline figures");
    assert!(
        theirs.is_empty(),
        "the guide copies figures rows again: {theirs:?}"
    );
    assert!(guide.contains("[FIGURES.md](FIGURES.md)"));
    assert!(
        ours.len() >= 8,
        "the README's figures table has {} rows",
        ours.len()
    );
    let mut bad = Vec::new();
    for (doc, rows) in [("README.md", &ours)] {
        for r in rows.iter() {
            if !f.rows.iter().any(|x| x == r) {
                bad.push(format!(
                    "{doc}: a row FIGURES.md does not have, verbatim: {r}"
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "copy the rows from docs/FIGURES.md:\n{}",
        bad.join("\n")
    );
    // the check itself can fail
    assert_eq!(
        table_rows("## Figures\n| job | x |\n|---|---|\n| a | 1 B |\n### sub\n| b | 2 |\n## Next\n| c | 3 |\n", "## Figures"),
        ["| a | 1 B |", "| b | 2 |"]
    );
}

/// `--vole-params`'s help, `inspect` and the guide give the same trees: for each set, the
/// repetitions and leaf counts `inspect` prints for a proof made with it (`τ = 11
/// repetitions, N = 2^11/2^10`) are the help's and the guide's (`τ = 11 trees of 2^10 or
/// 2^11 leaves`).
#[test]
fn the_vole_sets_leaf_counts_agree_in_help_inspect_and_guide() {
    let dir = std::env::temp_dir().join(format!("zkg_leaves_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prover = env!("CARGO_BIN_EXE_prover");
    let help = Command::new(prover)
        .args(["sha256", "prove", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let guide = std::fs::read_to_string(root().join("docs/GUIDE.md"))
        .unwrap()
        .replace('\n', " ");
    for set in ["size", "speed"] {
        let file = dir.join(format!("{set}.proof"));
        let made = Command::new(prover)
            .args([
                "sha256",
                "prove",
                "--preimage-hex",
                "61",
                "--vole-params",
                set,
            ])
            .arg("-o")
            .arg(&file)
            .output()
            .unwrap();
        assert!(made.status.success());
        let out = Command::new(env!("CARGO_BIN_EXE_verifier"))
            .args(["sha256", "inspect"])
            .arg(&file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        // "parameters: τ = 11 repetitions, N = 2^11/2^10, ..."
        let p = text
            .lines()
            .find_map(|l| l.strip_prefix("parameters: τ = "))
            .unwrap_or_else(|| panic!("no parameters line in {text}"));
        let tau = p.split(' ').next().unwrap();
        let n = p.split("N = ").nth(1).unwrap().split(',').next().unwrap();
        let mut exps: Vec<u32> = n
            .split('/')
            .map(|e| e.trim_start_matches("2^").parse().unwrap())
            .collect();
        exps.sort();
        let leaves = exps
            .iter()
            .map(|e| format!("2^{e}"))
            .collect::<Vec<_>>()
            .join(" or ");
        let in_help = format!("τ = {tau} trees of {leaves} leaves");
        let in_guide = format!("`τ = {tau}` trees of {leaves} leaves");
        let vole_help = help
            .split("--vole-params <")
            .nth(1)
            .unwrap_or_else(|| panic!("no --vole-params in the help:\n{help}"));
        let line = vole_help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {set}:")))
            .unwrap_or_else(|| panic!("no --vole-params {set} in the help:\n{help}"));
        assert!(
            line.contains(&in_help),
            "inspect says {p:?}; the help says {line:?}"
        );
        assert!(
            guide.contains(&in_guide),
            "inspect says {p:?}; docs/GUIDE.md lacks {in_guide:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
