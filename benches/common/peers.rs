//! Optional runs against public peers: another project's program doing the same job, run as
//! a whole process, alternating with ours (also whole processes), in the same run, so that
//! the ratio is measured under the same load. Never in CI: a peer runs only when an
//! environment variable names its build (`PEER_ZKBOO`, `PEER_WALLWARS`, `PEER_MARKUSTHILL`);
//! otherwise the bench says it skipped it. The peers' code is not part of this project:
//! build them from their own repositories (docs/GUIDE.md, Performance, says how we did).
//!
//! Shared by several benches through `#[path]`; not every bench uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

/// The peer's path from `var`, or `None` after printing why the peer run is skipped.
pub fn peer(var: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            if p.exists() {
                Some(p)
            } else {
                println!("PEER {what}: skipped: {var}={} does not exist", p.display());
                None
            }
        }
        _ => {
            println!("PEER {what}: skipped (set {var} to the peer's build to run it)");
            None
        }
    }
}

/// Our binary, as `cargo bench` built it.
pub fn ours(name: &str) -> PathBuf {
    match name {
        "prover" => PathBuf::from(env!("CARGO_BIN_EXE_prover")),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_verifier")),
    }
}

/// A fresh scratch directory for one bench's peer runs.
pub fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zkg_peer_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A command to run as a whole process: program, arguments, directory, stdin bytes.
pub struct Job {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: PathBuf,
    pub stdin: Vec<u8>,
}

impl Job {
    pub fn new(program: &Path, args: &[&str], dir: &Path) -> Self {
        Job {
            program: program.to_path_buf(),
            args: args.iter().map(|s| s.to_string()).collect(),
            dir: dir.to_path_buf(),
            stdin: Vec::new(),
        }
    }
    pub fn stdin(mut self, bytes: &[u8]) -> Self {
        self.stdin = bytes.to_vec();
        self
    }
    /// Runs once; returns the wall time in milliseconds (spawn to exit) and the output.
    pub fn run(&self) -> (f64, Output) {
        use std::io::Write as _;
        let start = Instant::now();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .current_dir(&self.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.program.display()));
        let mut sin = child.stdin.take().unwrap();
        let _ = sin.write_all(&self.stdin);
        drop(sin);
        let out = child.wait_with_output().unwrap();
        (start.elapsed().as_secs_f64() * 1e3, out)
    }
}

/// Runs `a` and `b` alternately `n` times each (a, b, a, b, ...); `check` sees every output
/// and panics on a wrong one. Returns both lists of times in milliseconds.
pub fn alternate(
    n: usize,
    a: &Job,
    b: &Job,
    check: impl Fn(bool, &Output),
) -> (Vec<f64>, Vec<f64>) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let (t, o) = a.run();
        check(true, &o);
        ta.push(t);
        let (t, o) = b.run();
        check(false, &o);
        tb.push(t);
    }
    (ta, tb)
}

pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    s[s.len() / 2]
}

pub fn min(v: &[f64]) -> f64 {
    v.iter().cloned().fold(f64::INFINITY, f64::min)
}

/// One summary line: medians (and bests) of both, and the ratio peer / ours of the medians
/// (above 1: ours is faster).
pub fn report(what: &str, ours: &[f64], peer: &[f64]) {
    println!(
        "PEER {what}: ours {:.1} ms (best {:.1}), peer {:.1} ms (best {:.1}), peer/ours {:.2}x (medians of {} alternating runs)",
        median(ours),
        min(ours),
        median(peer),
        min(peer),
        median(peer) / median(ours),
        ours.len()
    );
}

/// Panics with the process's stderr when it failed.
pub fn must_succeed(who: &str, o: &Output) {
    assert!(
        o.status.success(),
        "{who} failed ({}): {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
}
