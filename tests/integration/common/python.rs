//! The independent Python verifiers (`tools/verify_*.py`, each written from
//! docs/PROTOCOLS.md alone, standard library only) as the tests run them: the script, its
//! scratch files, and its verdict checked the same way for every protocol. python3 is
//! required: without it these tests fail (CI installs it).

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The crate's source tree.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `python3 tools/SCRIPT`, its output captured.
pub fn python(script: &str) -> Command {
    let mut c = Command::new("python3");
    c.arg(root().join("tools").join(script))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Spawns a configured [`python`] command.
pub fn spawn(c: &mut Command) -> std::process::Child {
    c.spawn()
        .expect("python3 is required to run the independent verifier (CI has it)")
}

/// `puzzles/raw/NAME.txt` and its `.solution`.
pub fn raw_puzzle(name: &str) -> (PathBuf, PathBuf) {
    let dir = root().join("puzzles/raw");
    (
        dir.join(format!("{name}.txt")),
        dir.join(format!("{name}.solution")),
    )
}

/// A fresh, empty directory for each call, under cargo's scratch directory for tests.
pub fn scratch_dir(test: &str, name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{test}-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The exit code (0 accepted, 1 rejected, 2 malformed) and the output of a finished Python
/// verifier, after checking that it did not crash: no traceback, and no other status.
pub fn verdict(o: Output, what: &str) -> (i32, String) {
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !stderr.contains("Traceback") && !stdout.contains("Traceback"),
        "{what}: the Python verifier crashed:\n{stdout}{stderr}"
    );
    let code = o
        .status
        .code()
        .unwrap_or_else(|| panic!("{what}: python3 killed by a signal"));
    assert!(
        (0..=2).contains(&code),
        "{what}: unexpected exit code {code}: {stdout}{stderr}"
    );
    (code, stdout)
}

/// The exit code a verdict line names by its first word (`ACCEPTED`, `REJECTED`,
/// `MALFORMED`).
pub fn verdict_code(line: &str, what: &str) -> i32 {
    for (code, word) in [(0, "ACCEPTED"), (1, "REJECTED"), (2, "MALFORMED")] {
        if line.starts_with(word) {
            return code;
        }
    }
    panic!("{what}: unexpected Python output {line:?}")
}

/// The exit code of a finished Rust verifier, which must be one of 0, 1 and 2.
pub fn rust_code(o: &Output, what: &str) -> i32 {
    let code = o
        .status
        .code()
        .unwrap_or_else(|| panic!("{what}: verifier killed by a signal"));
    assert!(
        [0, 1, 2].contains(&code),
        "{what}: verifier exit {code}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    code
}

/// Runs `SCRIPT --self-test` (the script's own known answers) and requires success.
pub fn self_test(script: &str) {
    let o = python(script)
        .arg("--self-test")
        .output()
        .expect("python3 is required");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}
