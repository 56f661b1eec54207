//! Save files written by the real program (Debian's `sgt-puzzles`), for the tests of the
//! games in `crates/tatham/src/` (Slant, Loopy, Pearl, Bridges, Unruly, Towers, Unequal, and the live sessions). Under `CI=true` a missing program fails the
//! test; otherwise the test is skipped with a printed reason.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The program's path, or `None` (printing why) when it is missing and CI is unset.
pub fn program(game: &str) -> Option<PathBuf> {
    let path = PathBuf::from(format!("/usr/games/sgt-{game}"));
    if path.exists() {
        return Some(path);
    }
    crate::common::missing(&format!(
        "sgt-{game} is not installed (apt-get install sgt-puzzles)"
    ));
    None
}

/// Generates `n` puzzles with `params` and their solutions; returns the save files.
pub fn generate(game: &str, params: &str, n: usize, dir: &Path) -> Option<Vec<PathBuf>> {
    let prog = program(game)?;
    std::fs::create_dir_all(dir).unwrap();
    let prefix = dir.join(format!("{game}-"));
    let out = Command::new(&prog)
        .arg("--generate")
        .arg(n.to_string())
        .arg(params)
        .arg("--save")
        .arg(&prefix)
        .arg("--save-suffix")
        .arg(".sav")
        .arg("--with-solutions")
        .output()
        .expect("run sgt program");
    assert!(
        out.status.success(),
        "sgt-{game} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: Vec<PathBuf> = (0..n)
        .map(|i| dir.join(format!("{game}-{i}.sav")))
        .collect();
    for f in &files {
        assert!(f.exists(), "sgt-{game} did not write {}", f.display());
    }
    Some(files)
}

/// A fresh directory under the target folder.
pub fn dir(tag: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tatham-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Reads the `KEY:LENGTH:VALUE` records of a save file (test-only, trusting the file).
pub fn records(bytes: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c1 = i + bytes[i..].iter().position(|&b| b == b':').unwrap();
        let key = String::from_utf8(bytes[i..c1].to_vec())
            .unwrap()
            .trim()
            .to_string();
        let c2 = c1 + 1 + bytes[c1 + 1..].iter().position(|&b| b == b':').unwrap();
        let len: usize = std::str::from_utf8(&bytes[c1 + 1..c2])
            .unwrap()
            .parse()
            .unwrap();
        let val = String::from_utf8(bytes[c2 + 1..c2 + 1 + len].to_vec()).unwrap();
        out.push((key, val));
        i = c2 + 1 + len;
        while i < bytes.len() && (bytes[i] == b'\n' || bytes[i] == b'\r') {
            i += 1;
        }
    }
    out
}

/// PARAMS, DESC and the move records up to STATEPOS of a save file.
pub struct Save {
    pub params: String,
    pub desc: String,
    pub moves: Vec<String>,
    pub records: Vec<(String, String)>,
}

pub fn read(path: &Path) -> Save {
    let recs = records(&std::fs::read(path).unwrap());
    let get = |k: &str| recs.iter().find(|r| r.0 == k).map(|r| r.1.clone()).unwrap();
    let statepos: usize = get("STATEPOS").parse().unwrap();
    let moves: Vec<String> = recs
        .iter()
        .filter(|r| r.0 == "MOVE" || r.0 == "SOLVE")
        .map(|r| r.1.clone())
        .take(statepos - 1)
        .collect();
    Save {
        params: get("PARAMS"),
        desc: get("DESC"),
        moves,
        records: recs,
    }
}

/// Writes a save file with the same header as `save` and the given move records (each
/// `(key, value)`), the last one current.
pub fn write_with_moves(save: &Save, moves: &[(&str, String)], path: &Path) {
    let mut out = String::new();
    for (k, v) in &save.records {
        if matches!(
            k.as_str(),
            "NSTATES" | "STATEPOS" | "MOVE" | "SOLVE" | "RESTART"
        ) {
            continue;
        }
        out.push_str(&format!("{:<8}:{}:{}\n", k, v.len(), v));
    }
    let n = (moves.len() + 1).to_string();
    out.push_str(&format!("{:<8}:{}:{}\n", "NSTATES", n.len(), n));
    out.push_str(&format!("{:<8}:{}:{}\n", "STATEPOS", n.len(), n));
    for (k, v) in moves {
        out.push_str(&format!("{:<8}:{}:{}\n", k, v.len(), v));
    }
    std::fs::write(path, out).unwrap();
}

// ---- end to end through the binaries -------------------------------------------------

pub const PROVER: &str = env!("CARGO_BIN_EXE_prover");
pub const VERIFIER: &str = env!("CARGO_BIN_EXE_verifier");

pub fn run(bin: &str, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(bin).args(args).output().expect("run binary");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn prove(save: &Path, proof: &Path) -> (i32, String, String) {
    run(
        PROVER,
        &["tatham", "prove", s(save), "-o", s(proof), "--seed", "1"],
    )
}

pub fn verify(puzzle: &str, proof: &Path) -> (i32, String, String) {
    run(VERIFIER, &["tatham", "verify", puzzle, s(proof)])
}

/// The refusal is one line (the `--seed` warning aside).
pub fn one_line(err: &str) {
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("warning: --seed"))
        .collect();
    assert_eq!(lines.len(), 1, "not one line: {err}");
}

/// Proves and verifies every file (by the save file and by its game ID); returns the sizes.
pub fn prove_all(files: &[PathBuf], limit: Option<usize>) -> Vec<usize> {
    let mut sizes = Vec::new();
    for f in files {
        let proof = f.with_extension("proof");
        let (c, _, e) = prove(f, &proof);
        assert_eq!(c, 0, "{}: {e}", f.display());
        let (c, out, e) = verify(s(f), &proof);
        assert_eq!(c, 0, "{out}{e}");
        assert!(out.starts_with("ACCEPTED"), "{out}");
        let (c, id, e) = run(PROVER, &["tatham", "id", s(f)]);
        assert_eq!(c, 0, "{e}");
        let save = read(f);
        let game = &save.records.iter().find(|r| r.0 == "GAME").unwrap().1;
        let id = id.trim();
        assert!(
            id.starts_with(&format!("{game}:")) && id.ends_with(&format!(":{}", save.desc)),
            "{id}"
        );
        let (c, out, e) = verify(id, &proof);
        assert_eq!(c, 0, "{out}{e}");
        let bytes = std::fs::read(&proof).unwrap();
        for (k, v) in &save.records {
            if matches!(k.as_str(), "AUXINFO" | "SOLVE") && v.len() >= 16 {
                assert!(
                    !bytes.windows(16).any(|w| w == &v.as_bytes()[..16]),
                    "{k} leaked"
                );
            }
        }
        let n = bytes.len();
        if let Some(l) = limit {
            assert!(n <= l, "{}: {n} bytes > {l}", f.display());
        }
        sizes.push(n);
    }
    sizes
}

/// Another puzzle, a flipped byte, another context, an unsolved save (no moves; and
/// STATEPOS back at the start), an altered solution (one more move `alter` after the
/// solve): all refused, the prover first for the last two (exit 2, "not solved").
pub fn refusals(files: &[PathBuf], alter: &str) {
    let (a, b) = (&files[0], &files[1]);
    let proof = a.with_extension("proof");
    assert_eq!(verify(s(b), &proof).0, 1, "another puzzle");
    let mut bytes = std::fs::read(&proof).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    let flipped = a.with_extension("flipped");
    std::fs::write(&flipped, &bytes).unwrap();
    let (c, _, e) = verify(s(a), &flipped);
    assert!(c == 1 || c == 2, "flipped byte accepted: {c} {e}");
    one_line(&e);
    let (c, _, _) = run(
        VERIFIER,
        &["tatham", "verify", s(a), s(&proof), "--context", "x"],
    );
    assert_eq!(c, 1, "another context");
    let save = read(a);
    let unsolved = a.with_extension("unsolved");
    write_with_moves(&save, &[], &unsolved);
    let (c, _, e) = prove(&unsolved, &unsolved.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: "), "{e}");
    one_line(&e);
    let solve: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    let mut more = solve.clone();
    more.push(("MOVE", alter.to_string()));
    let altered = a.with_extension("altered");
    write_with_moves(&save, &more, &altered);
    let (c, _, e) = prove(&altered, &altered.with_extension("p"));
    assert_eq!(c, 2, "altered solution proved: {e}");
    assert!(e.contains("not solved: "), "{e}");
    one_line(&e);
    // the same file with the solve as the current state proves
    write_with_moves(&save, &solve, &altered);
    assert_eq!(prove(&altered, &altered.with_extension("p")).0, 0);
}
