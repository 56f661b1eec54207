//! The documentation's shell blocks, pasted in order as a new user pastes them: every ```sh
//! block of README.md runs in one bash session, and every block of docs/GUIDE.md in another,
//! each in its own scratch directory that sees the repository's `target/`, `puzzles/` and
//! `tools/` (HOME is a scratch directory too). A command that fails fails this test, unless
//! its line documents the failure (`exit 1`, `exit 2`, `"rejected"`).
//!
//! Not run here: lines starting with `cargo` (building and testing are what CI itself does;
//! benchmarks and fuzzing take minutes) and lines marked `(long)`.
//!
//! The two documents run side by side (one test each), so servers in them listen on
//! different ports. The README's figures must be the guide's: every row of the README's
//! figures table appears, verbatim, in the guide.

use std::path::Path;
use std::process::Command;

/// A document's ```sh blocks as one script, each command line tagged with its line.
fn script(readme: &str) -> String {
    let mut out = String::from(
        "set -E -o pipefail\n\
         trap 'echo \"FAILED $? at line $ZKG_LINE: $BASH_COMMAND\" >&2' ERR\n\
         command -v man >/dev/null || man() { cat >/dev/null; }\n",
    );
    let mut in_block = false;
    let mut continued = false;
    for (i, line) in readme.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_block = !in_block && t == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        if !continued {
            if runs_cargo(t) || line.contains("(long)") {
                continue;
            }
            if !t.is_empty() && !t.starts_with('#') {
                out += &format!("ZKG_LINE={}\n", i + 1);
            }
        }
        out += line;
        out.push('\n');
        continued = line.trim_end().ends_with('\\');
    }
    out
}

/// A command line that runs cargo, perhaps after environment assignments
/// (`PEER_RUNS=51 cargo bench ...`).
fn runs_cargo(line: &str) -> bool {
    line.split_whitespace().find(|w| {
        let (name, _) = w.split_once('=').unwrap_or(("", ""));
        name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    }) == Some("cargo")
}

/// Lines whose failure is the documented outcome.
fn expected_failure(readme_line: &str) -> bool {
    ["exit 1", "exit 2", "\"rejected\"", "REJECTED"]
        .iter()
        .any(|m| readme_line.contains(m))
}

/// The exit status a line's comment promises (`# exit 1: ...`, `# ... exit 2`), if any.
fn promised_status(line: &str) -> Option<i32> {
    let comment = line.split_once(" # ")?.1;
    let at = comment.find("exit ")?;
    match comment[at + 5..].chars().next()? {
        '1' => Some(1),
        '2' => Some(2),
        _ => None,
    }
}

/// Runs the shell blocks of `doc` (relative to the repository) in order; fails on any
/// command that fails without its line saying so.
fn run_blocks(doc: &str, min_commands: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let tag = doc.replace(['/', '.'], "_");
    let dir = std::env::temp_dir().join(format!("zkg_doc_{}_{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("home")).unwrap();
    // the binaries this test run built, where the documents call them
    let bin = Path::new(env!("CARGO_BIN_EXE_prover")).parent().unwrap();
    std::fs::create_dir_all(dir.join("target")).unwrap();
    std::os::unix::fs::symlink(bin, dir.join("target/release")).unwrap();
    for d in ["puzzles", "tools"] {
        std::os::unix::fs::symlink(root.join(d), dir.join(d)).unwrap();
    }
    let sh = script(&text);
    let n = sh.matches("ZKG_LINE=").count();
    assert!(n >= min_commands, "{doc}: only {n} commands found");
    let out = Command::new("bash")
        .arg("-c")
        .arg(&sh)
        .current_dir(&dir)
        .env("HOME", dir.join("home"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut unexpected = Vec::new();
    let mut failed_with = std::collections::HashMap::new();
    for l in stderr.lines().filter(|l| l.starts_with("FAILED ")) {
        let n: usize = l
            .split(" line ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let rc: i32 = l
            .split_whitespace()
            .nth(1)
            .and_then(|r| r.parse().ok())
            .unwrap_or(-1);
        failed_with.insert(n, rc);
        let src = lines.get(n.wrapping_sub(1)).copied().unwrap_or("");
        if !expected_failure(src) {
            unexpected.push(format!("{l}\n    {doc}: {src}"));
        }
    }
    // a line that promises an exit status must really end with it (a documented failure
    // that succeeds, or fails otherwise, is a wrong document)
    for tagged in sh.lines().filter_map(|l| l.strip_prefix("ZKG_LINE=")) {
        let n: usize = tagged.parse().unwrap();
        let src = lines[n - 1];
        if let Some(want) = promised_status(src) {
            let got = failed_with.get(&n).copied().unwrap_or(0);
            if got != want {
                unexpected.push(format!(
                    "line {n} promises exit {want} but ended with {got}\n    {doc}: {src}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        unexpected.is_empty(),
        "{doc}: commands failed:\n{}\n--- stderr (end) ---\n{}",
        unexpected.join("\n"),
        &stderr[stderr.len().saturating_sub(3000)..]
    );
}

#[test]
fn every_readme_block_runs_when_pasted_in_order() {
    run_blocks("README.md", 20);
}

#[test]
fn every_guide_block_runs_when_pasted_in_order() {
    run_blocks("docs/GUIDE.md", 80);
}

/// The rows of the table under `## Figures` that hold a figure.
fn figure_rows(readme: &str) -> Vec<&str> {
    readme
        .lines()
        .skip_while(|l| !l.starts_with("## Figures"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| {
            l.starts_with('|') && !l.starts_with("|---") && l.chars().any(|c| c.is_ascii_digit())
        })
        .collect()
}

#[test]
fn the_readme_figures_are_the_guides() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let guide = std::fs::read_to_string(root.join("docs/GUIDE.md")).unwrap();
    let rows = figure_rows(&readme);
    assert!(
        rows.len() >= 5,
        "the README's figures table has {} rows",
        rows.len()
    );
    let missing: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|r| !guide.contains(r))
        .collect();
    assert!(
        missing.is_empty(),
        "README figures that docs/GUIDE.md does not have, verbatim:\n{}",
        missing.join("\n")
    );
    // the check itself can fail
    assert_eq!(
        figure_rows("## Figures\n\n| a | b |\n|---|---|\n| x | 1 ms |\n## Next\n| y | 2 |\n"),
        ["| x | 1 ms |"]
    );
}

#[test]
fn the_script_tags_commands_and_skips_cargo() {
    let s = script("x\n```sh\ncargo build\n$P a \\\n  b\n# c\n```\n```text\nnot run\n```\n");
    assert!(!s.contains("cargo build"));
    assert!(runs_cargo("A_B=1 C=x cargo bench --bench x"));
    assert!(!runs_cargo("$P peg solve english"));
    assert!(!runs_cargo("D=$(sha256sum x) && cargo"));
    assert!(s.contains("ZKG_LINE=4\n$P a \\\n  b\n"), "{s}");
    assert!(!s.contains("not run"));
    assert!(expected_failure("$V x   # exit 1: ..."));
    assert!(!expected_failure("$V x   # prints y"));
    assert_eq!(promised_status("$V x   # exit 1: ..."), Some(1));
    assert_eq!(promised_status("$V x --json  # exit 2: {...}"), Some(2));
    assert_eq!(promised_status("$V x   # legal: exit 0"), None);
    assert_eq!(promised_status("$V x --seed 'exit 1'"), None);
}
