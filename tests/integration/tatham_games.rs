//! Simon Tatham's puzzles end to end through the binaries, on save files written at test
//! time by the collection's own programs (Debian's sgt-puzzles): prove and verify at the
//! default and a larger size, refusals (another puzzle, a flipped byte, an altered or
//! unsolved save, hostile files), and replays of ordinary moves that reach the SOLVE state.
//!
//! A missing program fails the test under `CI=true`; otherwise the test says so and skips.

use crate::common;

use common::{run, PROVER, VERIFIER};
use std::path::{Path, PathBuf};

/// The collection's program for `game`, or `None` (with the reason printed) when it is not
/// installed and CI is not set; panics under CI.
fn sgt(game: &str) -> Option<PathBuf> {
    crate::tatham_sgt::program(game)
}

/// `n` fresh save files of `game` (with `params` if given) written by the real program.
fn generate(game: &str, params: Option<&str>, n: usize, tag: &str) -> Option<Vec<PathBuf>> {
    let bin = sgt(game)?;
    let dir = common::fresh_dir("tatham", &format!("{game}-{tag}"));
    let mut cmd = std::process::Command::new(&bin);
    cmd.arg("--generate").arg(n.to_string());
    if let Some(p) = params {
        cmd.arg(p);
    }
    cmd.arg("--save")
        .arg(dir.join(format!("{game}-")))
        .arg("--save-suffix")
        .arg(".sav");
    if game != "pegs" {
        cmd.arg("--with-solutions");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{game}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sav"))
        .collect();
    files.sort();
    assert_eq!(files.len(), n, "{game}: {files:?}");
    Some(files)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A save file's records, `(key, value)`.
fn records(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let key = l[..8].trim_end().to_string();
            let rest = &l[9..];
            let (len, val) = rest.split_once(':').unwrap();
            assert_eq!(len.parse::<usize>().unwrap(), val.len());
            (key, val.to_string())
        })
        .collect()
}

fn write_records(path: &Path, recs: &[(String, String)]) {
    let text: String = recs
        .iter()
        .map(|(k, v)| format!("{k:<8}:{}:{v}\n", v.len()))
        .collect();
    std::fs::write(path, text).unwrap();
}

fn get<'a>(recs: &'a [(String, String)], key: &str) -> &'a str {
    &recs.iter().find(|(k, _)| k == key).unwrap().1
}

/// Replaces the move records (NSTATES and STATEPOS follow).
fn with_moves(
    recs: &[(String, String)],
    moves: &[(&str, String)],
    statepos: Option<usize>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = recs
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "MOVE" | "SOLVE" | "RESTART"))
        .cloned()
        .collect();
    for (k, v) in out.iter_mut() {
        if k == "NSTATES" {
            *v = (moves.len() + 1).to_string();
        }
        if k == "STATEPOS" {
            *v = statepos.unwrap_or(moves.len() + 1).to_string();
        }
    }
    out.extend(moves.iter().map(|(k, v)| (k.to_string(), v.clone())));
    out
}

fn prove(save: &Path, proof: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["tatham", "prove", s(save), "-o", s(proof), "--seed", "1"];
    args.extend_from_slice(extra);
    run(PROVER, &args)
}

fn verify(puzzle: &str, proof: &Path) -> (i32, String, String) {
    run(VERIFIER, &["tatham", "verify", puzzle, s(proof)])
}

fn one_line(err: &str) {
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("warning: --seed"))
        .collect();
    assert_eq!(lines.len(), 1, "not one line: {err}");
}

/// Proves and verifies every file; returns the proof sizes.
fn prove_all(files: &[PathBuf], extra: &[&str], limit: Option<usize>) -> Vec<usize> {
    let mut sizes = Vec::new();
    for f in files {
        let proof = f.with_extension("proof");
        let (c, _, e) = prove(f, &proof, extra);
        assert_eq!(c, 0, "{}: {e}", f.display());
        let (c, out, e) = verify(s(f), &proof);
        assert_eq!(c, 0, "{out}{e}");
        assert!(out.starts_with("ACCEPTED"), "{out}");
        // by game ID too
        let (c, id, e) = run(PROVER, &["tatham", "id", s(f)]);
        assert_eq!(c, 0, "{e}");
        let id = id.trim();
        let recs = records(f);
        assert!(
            id.starts_with(&format!("{}:", get(&recs, "GAME")))
                && id.ends_with(&format!(":{}", get(&recs, "DESC"))),
            "the game ID is what the game shows: {id}"
        );
        let (c, out, e) = verify(id, &proof);
        assert_eq!(c, 0, "{out}{e}");
        let n = std::fs::metadata(&proof).unwrap().len() as usize;
        if let Some(l) = limit {
            assert!(n <= l, "{}: {n} bytes > {l}", f.display());
        }
        // the proof holds nothing of the solution's save records
        let bytes = std::fs::read(&proof).unwrap();
        for (k, v) in &recs {
            if matches!(k.as_str(), "AUXINFO" | "SOLVE") && v.len() >= 16 {
                assert!(
                    !bytes.windows(16).any(|w| w == &v.as_bytes()[..16]),
                    "{k} leaked"
                );
            }
        }
        sizes.push(n);
    }
    sizes
}

/// The refusals every game shares: another puzzle, a flipped byte, an unsolved save (the
/// last record removed; STATEPOS = 1), a wrong context.
fn refusals(files: &[PathBuf]) {
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
    let recs = records(a);
    let moves: Vec<(&str, String)> = recs
        .iter()
        .filter(|(k, _)| matches!(k.as_str(), "MOVE" | "SOLVE" | "RESTART"))
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let unsolved = a.with_extension("unsolved");
    write_records(
        &unsolved,
        &with_moves(&recs, &moves[..moves.len() - 1], None),
    );
    let (c, _, e) = prove(&unsolved, &unsolved.with_extension("p"), &[]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: "), "{e}");
    one_line(&e);
    write_records(&unsolved, &with_moves(&recs, &moves, Some(1)));
    let (c, _, e) = prove(&unsolved, &unsolved.with_extension("p"), &[]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: "), "{e}");
}

/// An altered solution: the SOLVE record rewritten by `alter`; the prover refuses first
/// (exit 2, "not solved" or an illegal move), and the old proof does not verify a puzzle
/// it was not made for.
fn altered(file: &Path, alter: impl Fn(&str) -> String) {
    let recs = records(file);
    let mut new = recs.clone();
    for (k, v) in new.iter_mut() {
        if k == "SOLVE" {
            *v = alter(v);
        }
    }
    let path = file.with_extension("altered");
    write_records(&path, &new);
    let (c, _, e) = prove(&path, &path.with_extension("p"), &[]);
    assert_eq!(c, 2, "altered solution proved: {e}");
    one_line(&e);
}

#[test]
fn net_default_and_larger() {
    let Some(files) = generate("net", None, 3, "default") else {
        return;
    };
    let sizes = prove_all(&files, &[], Some(8 * 1024));
    eprintln!("Net 5x5 proof sizes: {sizes:?}");
    refusals(&files);
    // turn the first rotation of the solve the other way
    // a quarter turn more or less on one tile: a half turn would leave a straight tile
    // (two opposite links) solved, and Net has no tile a quarter turn leaves unchanged
    altered(&files[0], |v| {
        let i = v.find(['A', 'C']).unwrap();
        let mut b = v.as_bytes().to_vec();
        b[i] = b'F';
        String::from_utf8(b).unwrap()
    });
    let Some(big) = generate("net", Some("9x9"), 2, "larger") else {
        return;
    };
    prove_all(&big, &[], None);
    let Some(wrap) = generate("net", Some("5x5w"), 1, "wrapping") else {
        return;
    };
    prove_all(&wrap, &[], None);
}

#[test]
fn solo_default_and_larger() {
    let Some(files) = generate("solo", None, 2, "default") else {
        return;
    };
    let sizes = prove_all(&files, &[], Some(8 * 1024));
    eprintln!("Solo 3x3 proof sizes: {sizes:?}");
    refusals(&files);
    // swap two digits of the solve
    altered(&files[0], |v| {
        let mut d: Vec<&str> = v[1..].split(',').collect();
        let j = (1..d.len()).find(|&j| d[j] != d[0]).unwrap();
        d.swap(0, j);
        format!("S{}", d.join(","))
    });
    let Some(big) = generate("solo", Some("4x4"), 1, "larger") else {
        return;
    };
    prove_all(&big, &[], None);
    let Some(x) = generate("solo", Some("3x3x"), 1, "x") else {
        return;
    };
    prove_all(&x, &[], None);
}

#[test]
fn pattern_default_and_larger() {
    let Some(files) = generate("pattern", None, 2, "default") else {
        return;
    };
    let sizes = prove_all(&files, &[], None);
    eprintln!("Pattern 15x15 proof sizes: {sizes:?}");
    refusals(&files);
    altered(&files[0], |v| {
        let mut b = v.as_bytes().to_vec();
        b[1] = if b[1] == b'1' { b'0' } else { b'1' };
        String::from_utf8(b).unwrap()
    });
    let Some(big) = generate("pattern", Some("20x20"), 1, "larger") else {
        return;
    };
    prove_all(&big, &[], None);
}

#[test]
fn pegs_solved_by_zkgames() {
    let Some(files) = generate("pegs", None, 2, "default") else {
        return;
    };
    // the collection cannot solve its boards: the saves have no moves
    let (c, _, e) = prove(&files[0], &files[0].with_extension("p"), &[]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: 32 pegs are left"), "{e}");
    let sizes = prove_all(&files, &["--solve"], None);
    eprintln!("Pegs 7x7cross proof sizes: {sizes:?}");
    assert_eq!(
        verify(s(&files[1]), &files[0].with_extension("proof")).0,
        0,
        "the same board"
    );
    let Some(big) = generate("pegs", Some("5x5random"), 2, "larger") else {
        return;
    };
    prove_all(&big, &["--solve"], None);
    assert_eq!(verify(s(&big[1]), &big[0].with_extension("proof")).0, {
        let same = get(&records(&big[0]), "DESC") == get(&records(&big[1]), "DESC");
        if same {
            0
        } else {
            1
        }
    });
    // --solve refused for a game zkgames does not solve
    let Some(net) = generate("net", None, 1, "nosolve") else {
        return;
    };
    let (c, _, e) = prove(&net[0], &net[0].with_extension("p"), &["--solve"]);
    assert_eq!(c, 2);
    assert!(e.contains("does not solve Net"), "{e}");
}

/// Ordinary moves reach the state of the SOLVE record: replayed by the library, then proven
/// through the binary from a save file holding only those moves.
#[test]
fn ordinary_moves_match_solve() {
    use zkgames::tatham::save;
    for (game, params) in [
        ("net", None),
        ("net", Some("7x7w")),
        ("solo", None),
        ("pattern", Some("10x10")),
    ] {
        let Some(files) = generate(game, params, 1, "replay") else {
            return;
        };
        let bytes = std::fs::read(&files[0]).unwrap();
        let f = save::parse(&bytes).unwrap();
        let p = save::puzzle(&f.header).unwrap();
        let solved = save::replay(p.as_ref(), &f).unwrap().state_bytes();
        let initial = p.start().state_bytes();
        let recs = records(&files[0]);
        // Solo's state is the grid then the pencil marks: cr² + cr³ bytes
        let cr = (1..40)
            .find(|c| c * c + c * c * c == initial.len())
            .unwrap_or(0);
        let mut moves: Vec<(&str, String)> = Vec::new();
        match game {
            "net" => {
                let w: usize = get(&recs, "CPARAMS")
                    .split('x')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                for (i, (&a, &b)) in initial.iter().zip(&solved).enumerate() {
                    let (x, y) = (i % w, i / w);
                    let (mut t, target) = (a & 15, b & 15);
                    while t != target {
                        moves.push(("MOVE", format!("A{x},{y}")));
                        t = ((t & 7) << 1) | ((t & 8) >> 3);
                    }
                    if b & 0x10 != 0 {
                        moves.push(("MOVE", format!("L{x},{y}")));
                    }
                }
            }
            "solo" => {
                for i in 0..cr * cr {
                    if initial[i] != solved[i] {
                        moves.push(("MOVE", format!("R{},{},{}", i % cr, i / cr, solved[i])));
                    }
                }
            }
            _ => {
                let w: usize = get(&recs, "CPARAMS")
                    .split('x')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                moves.push(("MOVE", format!("E0,0,{w},{}", initial.len() / w)));
                for (i, &v) in solved.iter().enumerate() {
                    if v == 1 {
                        moves.push(("MOVE", format!("F{},{},1,1", i % w, i / w)));
                    }
                }
            }
        }
        let path = files[0].with_extension("moves");
        write_records(&path, &with_moves(&recs, &moves, None));
        let g = save::parse(&std::fs::read(&path).unwrap()).unwrap();
        let by_moves = save::replay(p.as_ref(), &g).unwrap().state_bytes();
        assert_eq!(by_moves, solved, "{game}: moves and SOLVE differ");
        let proof = path.with_extension("proof");
        let (c, _, e) = prove(&path, &proof, &[]);
        assert_eq!(c, 0, "{game}: {e}");
        assert_eq!(verify(s(&files[0]), &proof).0, 0);
        // and a RESTART in between: the moves after it count
        let mut twice = moves.clone();
        twice.push(("RESTART", get(&recs, "DESC").to_string()));
        twice.extend(moves.iter().cloned());
        write_records(&path, &with_moves(&recs, &twice, None));
        assert_eq!(prove(&path, &proof, &[]).0, 0, "{game} after a restart");
        // an illegal move anywhere in the file is refused, even after STATEPOS
        let mut bad = moves.clone();
        bad.push(("MOVE", "Q9,9".into()));
        write_records(&path, &with_moves(&recs, &bad, Some(moves.len() + 1)));
        let (c, _, e) = prove(&path, &proof, &[]);
        assert_eq!(c, 2, "{e}");
        assert!(e.contains("illegal"), "{e}");
        one_line(&e);
    }
}

/// Hostile save files: exit 2, one line, for each.
#[test]
fn hostile_save_files() {
    let Some(files) = generate("net", None, 1, "hostile") else {
        return;
    };
    let recs = records(&files[0]);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let dir = files[0].parent().unwrap();
    let mut cases: Vec<(String, String)> = vec![
        (
            "bad length".into(),
            text.replacen("DESC    :25:", "DESC    :26:", 1),
        ),
        (
            "short length".into(),
            text.replacen("DESC    :25:", "DESC    :2:", 1),
        ),
        (
            "huge length".into(),
            text.replacen("DESC    :25:", "DESC    :99999999:", 1),
        ),
        ("truncated".into(), text[..text.len() / 2].to_string()),
        ("empty".into(), String::new()),
        ("not a save".into(), "hello\n".into()),
    ];
    let mut set = |what: &str, key: &str, val: &str| {
        let mut r = recs.clone();
        for (k, v) in r.iter_mut() {
            if k == key {
                *v = val.to_string();
            }
        }
        let text: String = r
            .iter()
            .map(|(k, v)| format!("{k:<8}:{}:{v}\n", v.len()))
            .collect();
        cases.push((what.into(), text));
    };
    set("unknown game", "GAME", "Minesweeper");
    set("huge grid", "CPARAMS", "100000x100000");
    set("bad desc", "DESC", "zz");
    set("statepos", "STATEPOS", "7");
    set("nstates", "NSTATES", "5");
    set("illegal move", "SOLVE", "S;A9,9");
    for (what, content) in cases {
        let path = dir.join("hostile.sav");
        std::fs::write(&path, content).unwrap();
        let (c, _, e) = prove(&path, &dir.join("hostile.proof"), &[]);
        assert_eq!(c, 2, "{what}: {e}");
        one_line(&e);
        let (c, _, e) = run(PROVER, &["tatham", "id", s(&path)]);
        if !matches!(
            what.as_str(),
            "statepos" | "nstates" | "illegal move" | "truncated"
        ) {
            assert_eq!(c, 2, "{what}: {e}");
            one_line(&e);
        }
    }
    // a verifier refuses a bad game ID in one line
    let (c, _, e) = verify("Net:5x5:xyz", &files[0].with_extension("none"));
    assert_eq!(c, 2, "{e}");
    one_line(&e);
}

/// `list`, `inspect` and `--json`.
#[test]
fn list_inspect_and_json() {
    let (c, out, e) = run(PROVER, &["tatham", "list"]);
    assert_eq!(c, 0, "{e}");
    // every registered game is listed, the required ones among them
    let games: Vec<&str> = zkgames::tatham::GAMES.iter().map(|g| g.name).collect();
    for g in [
        "Net", "Slant", "Loopy", "Pearl", "Bridges", "Solo", "Pattern", "Pegs",
    ] {
        assert!(games.contains(&g), "{g} is not registered");
    }
    for g in &games {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{g} "))),
            "{g} not listed: {out}"
        );
    }
    let (c, out, _) = run(PROVER, &["tatham", "list", "--json"]);
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), games.len());
    let save = common::p("puzzles/tatham/net.sav");
    let proof = common::tmp("tatham-net.proof");
    let (c, out, e) = run(
        PROVER,
        &[
            "tatham", "prove", &save, "-o", &proof, "--seed", "1", "--json",
        ],
    );
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["game"], "Net");
    let (c, out, _) = run(VERIFIER, &["tatham", "inspect", &proof]);
    assert_eq!(c, 0);
    assert!(
        out.contains("game: Net") && out.contains("game ID: Net:5x5:"),
        "{out}"
    );
    let (c, out, _) = run(VERIFIER, &["tatham", "verify", &save, &proof, "--json"]);
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "accepted");
    let (c, out, _) = run(
        VERIFIER,
        &[
            "tatham",
            "verify",
            &common::p("puzzles/tatham/solo.sav"),
            &proof,
            "--json",
        ],
    );
    assert_eq!(c, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "rejected");
    // every engine
    for sys in ["zkbpp", "kkw"] {
        let p2 = common::tmp(&format!("tatham-net-{sys}.proof"));
        let (c, _, e) = run(
            PROVER,
            &[
                "tatham", "prove", &save, "-o", &p2, "--seed", "1", "--system", sys,
            ],
        );
        assert_eq!(c, 0, "{e}");
        let (c, _, e) = run(VERIFIER, &["tatham", "verify", &save, &p2]);
        assert_eq!(c, 0, "{e}");
    }
}
