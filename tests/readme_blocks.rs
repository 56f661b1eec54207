//! The README's shell blocks, pasted in order as a new user pastes them: every ```sh block of
//! README.md runs in one bash session, in a scratch directory that sees the repository's
//! `target/` and `puzzles/` (HOME is a scratch directory too). A command that fails fails this
//! test, unless its README line documents the failure (`exit 1`, `exit 2`, `"rejected"`).
//!
//! Not run here: lines starting with `cargo` (building and testing are what CI itself does;
//! benchmarks and fuzzing take minutes) and lines marked `(long)`.

use std::path::Path;
use std::process::Command;

/// The README's ```sh blocks as one script, each command line tagged with its README line.
fn script(readme: &str) -> String {
    let mut out = String::from(
        "set -E -o pipefail\n\
         trap 'echo \"FAILED $? at README line $ZKG_LINE: $BASH_COMMAND\" >&2' ERR\n\
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
            if t.starts_with("cargo ") || line.contains("(long)") {
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

/// README lines whose failure is the documented outcome.
fn expected_failure(readme_line: &str) -> bool {
    ["exit 1", "exit 2", "\"rejected\"", "REJECTED"]
        .iter()
        .any(|m| readme_line.contains(m))
}

#[test]
fn every_readme_block_runs_when_pasted_in_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    let dir = std::env::temp_dir().join(format!("zkg_readme_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("home")).unwrap();
    // the binaries this test run built, where the README calls them
    let bin = Path::new(env!("CARGO_BIN_EXE_prover")).parent().unwrap();
    std::fs::create_dir_all(dir.join("target")).unwrap();
    std::os::unix::fs::symlink(bin, dir.join("target/release")).unwrap();
    std::os::unix::fs::symlink(root.join("puzzles"), dir.join("puzzles")).unwrap();
    let sh = script(&readme);
    assert!(
        sh.matches("ZKG_LINE=").count() > 50,
        "too few commands found"
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&sh)
        .current_dir(&dir)
        .env("HOME", dir.join("home"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut unexpected = Vec::new();
    for l in stderr.lines().filter(|l| l.starts_with("FAILED ")) {
        let n: usize = l
            .split("README line ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let src = lines.get(n.wrapping_sub(1)).copied().unwrap_or("");
        if !expected_failure(src) {
            unexpected.push(format!("{l}\n    README: {src}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        unexpected.is_empty(),
        "README commands failed:\n{}\n--- stderr (end) ---\n{}",
        unexpected.join("\n"),
        &stderr[stderr.len().saturating_sub(3000)..]
    );
}

#[test]
fn the_script_tags_commands_and_skips_cargo() {
    let s = script("x\n```sh\ncargo build\n$P a \\\n  b\n# c\n```\n```text\nnot run\n```\n");
    assert!(!s.contains("cargo build"));
    assert!(s.contains("ZKG_LINE=4\n$P a \\\n  b\n"), "{s}");
    assert!(!s.contains("not run"));
    assert!(expected_failure("$V x   # exit 1: ..."));
    assert!(!expected_failure("$V x   # prints y"));
}
