//! The independent Python verifier (`tools/verify_peg_iso.py`, written from
//! `docs/PROTOCOLS.md` alone) against proofs made by the prover binary: it must accept
//! honest proofs, reject a wrong context or too few rounds, and never accept (nor crash
//! on) a proof with a flipped byte. python3 is required: without it these tests fail.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

use crate::common;

use common::python::{self as py, raw_puzzle, root};

const PROVER: &str = env!("CARGO_BIN_EXE_prover");
const SCRIPT: &str = "verify_peg_iso.py";

fn tee() -> (PathBuf, PathBuf) {
    raw_puzzle("tee")
}

fn english() -> (PathBuf, PathBuf) {
    raw_puzzle("english")
}

/// A fresh directory of its own for each caller.
fn temp_dir(name: &str) -> PathBuf {
    py::scratch_dir("independent_verifier", name)
}

/// Runs the prover with the paper's protocol (`--system iso`, what the Python verifier
/// checks); panics unless it succeeds.
fn prove(
    instance: &Path,
    solution: &Path,
    out: &Path,
    security: Option<u32>,
    context: &str,
    rounds: Option<u32>,
    seed: Option<u64>,
) {
    let mut cmd = Command::new(PROVER);
    cmd.arg("peg")
        .arg("prove")
        .arg(instance)
        .arg("--solution")
        .arg(solution)
        .arg("--context")
        .arg(context)
        .args(["--system", "iso"])
        .arg("-o")
        .arg(out);
    if let Some(b) = security {
        cmd.arg("--security").arg(b.to_string());
    }
    if let Some(r) = rounds {
        cmd.arg("--rounds").arg(r.to_string());
    }
    if let Some(s) = seed {
        cmd.arg("--seed").arg(s.to_string());
    }
    let o = cmd.output().expect("run the prover");
    assert!(
        o.status.success(),
        "prover failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn spawn_python(instance: &Path, proof: &Path, security: Option<u32>, context: &str) -> Child {
    let mut cmd = py::python(SCRIPT);
    cmd.arg(instance).arg(proof).arg("--context").arg(context);
    if let Some(b) = security {
        cmd.arg("--security").arg(b.to_string());
    }
    py::spawn(&mut cmd)
}

/// Exit code of the Python verifier, after checking it did not crash and, when it accepted
/// or rejected, that it said so.
fn check_output(o: Output, what: &str) -> i32 {
    let (code, stdout) = py::verdict(o, what);
    if code < 2 {
        assert_eq!(
            py::verdict_code(&stdout, what),
            code,
            "{what}: exit {code} but output {stdout:?}"
        );
    }
    code
}

fn py_verify(instance: &Path, proof: &Path, security: Option<u32>, context: &str) -> (i32, String) {
    let o = spawn_python(instance, proof, security, context)
        .wait_with_output()
        .expect("wait for python3");
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let what = format!("verify {} {}", instance.display(), proof.display());
    (check_output(o, &what), stdout)
}

/// Flips one byte at ~60 positions spread over the file (and every header field) and
/// checks the verifier refuses each copy (exit 1 or 2), never accepts, never crashes.
fn flipped_bytes_refused(instance: &Path, proof: &Path, security: Option<u32>, context: &str) {
    let data = std::fs::read(proof).unwrap();
    let dir = temp_dir("flip");
    let mut positions: Vec<usize> = vec![0, 7, 8, 9, 10, 11, 12, 13, 14, 20, 21, 52, 53, 54];
    positions.extend((0..60).map(|i| i * data.len() / 60));
    positions.push(data.len() - 1);
    positions.sort_unstable();
    positions.dedup();
    let masks = [0x01u8, 0x80, 0xff, 0x10, 0x42];
    // run a few verifiers at a time
    for chunk in positions.chunks(8) {
        let children: Vec<(usize, u8, Child)> = chunk
            .iter()
            .enumerate()
            .map(|(k, &pos)| {
                let mask = masks[(pos + k) % masks.len()];
                let mut bad = data.clone();
                bad[pos] ^= mask;
                let path = dir.join(format!("flip-{pos}.proof"));
                std::fs::write(&path, &bad).unwrap();
                (pos, mask, spawn_python(instance, &path, security, context))
            })
            .collect();
        for (pos, mask, child) in children {
            let o = child.wait_with_output().expect("wait for python3");
            let what = format!("{} with byte {pos} ^ {mask:#04x}", proof.display());
            let code = check_output(o, &what);
            assert!(
                code == 1 || code == 2,
                "{what}: exit {code}, expected 1 or 2"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python3_is_available() {
    let o = Command::new("python3")
        .arg("--version")
        .output()
        .expect("python3 is required to run the independent verifier (CI has it)");
    assert!(o.status.success());
}

#[test]
fn tee_accepted_at_several_securities_and_contexts() {
    let (inst, sol) = tee();
    let dir = temp_dir("tee");
    let cases: [(u32, &str); 6] = [
        (1, ""),
        (16, "login nonce 42"),
        (64, ""),
        (128, "a message with spaces, ü and ✓"),
        (200, "x"),
        (256, "nonce"),
    ];
    for (i, &(bits, ctx)) in cases.iter().enumerate() {
        let proof = dir.join(format!("tee-{i}.proof"));
        prove(&inst, &sol, &proof, Some(bits), ctx, None, None);
        let (code, out) = py_verify(&inst, &proof, Some(bits), ctx);
        assert_eq!(code, 0, "security {bits}, context {ctx:?}: {out}");
        // and at any lower security
        let (code, out) = py_verify(&inst, &proof, Some(bits.div_ceil(2)), ctx);
        assert_eq!(
            code,
            0,
            "security {bits} checked at {}: {out}",
            bits.div_ceil(2)
        );
    }
    // the default (128 bits, empty context) on both sides
    let proof = dir.join("tee-default.proof");
    prove(&inst, &sol, &proof, None, "", None, None);
    let (code, out) = py_verify(&inst, &proof, None, "");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("309 rounds"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wrong_context_rejected() {
    let (inst, sol) = tee();
    let dir = temp_dir("context");
    let proof = dir.join("tee.proof");
    prove(&inst, &sol, &proof, Some(64), "login nonce 42", None, None);
    assert_eq!(py_verify(&inst, &proof, Some(64), "login nonce 42").0, 0);
    for ctx in ["", "login nonce 43", "login nonce 42 ", "LOGIN NONCE 42"] {
        let (code, out) = py_verify(&inst, &proof, Some(64), ctx);
        assert_eq!(code, 1, "context {ctx:?}: {out}");
        assert!(out.contains("context"), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn too_few_rounds_rejected() {
    let (inst, sol) = tee();
    let dir = temp_dir("rounds");
    let proof = dir.join("tee-5.proof");
    prove(&inst, &sol, &proof, None, "", Some(5), None);
    let (code, out) = py_verify(&inst, &proof, None, "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("5 rounds, 309 needed"), "{out}");
    // five rounds are enough for 1 bit (S = 4: log2(4/3) = 0.415 per round)
    assert_eq!(py_verify(&inst, &proof, Some(1), "").0, 0);
    // a 64-bit proof does not pass for 128 bits
    let proof = dir.join("tee-64.proof");
    prove(&inst, &sol, &proof, Some(64), "", None, None);
    let (code, out) = py_verify(&inst, &proof, Some(128), "");
    assert_eq!(code, 1, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tee_flipped_bytes_refused() {
    let (inst, sol) = tee();
    let dir = temp_dir("tee-flip");
    for (i, &(bits, ctx)) in [(32u32, ""), (128, "ctx")].iter().enumerate() {
        let proof = dir.join(format!("tee-{i}.proof"));
        prove(
            &inst,
            &sol,
            &proof,
            Some(bits),
            ctx,
            None,
            Some(7 + i as u64),
        );
        assert_eq!(py_verify(&inst, &proof, Some(bits), ctx).0, 0);
        flipped_bytes_refused(&inst, &proof, Some(bits), ctx);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn peg_count_variant() {
    let (tee_inst, sol) = tee();
    let dir = temp_dir("pegs");
    let inst = dir.join("tee-pegs.txt");
    std::fs::write(
        &inst,
        "# the tee with a peg count goal (Section 5)\nN 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\npegs 1\n",
    )
    .unwrap();
    let proof = dir.join("tee-pegs.proof");
    prove(&inst, &sol, &proof, Some(100), "pegs", None, Some(11));
    let (code, out) = py_verify(&inst, &proof, Some(100), "pegs");
    assert_eq!(code, 0, "{out}");
    // a different instance (the position goal) has another digest
    let (code, out) = py_verify(&tee_inst, &proof, Some(100), "pegs");
    assert_eq!(code, 1, "{out}");
    assert_eq!(py_verify(&inst, &proof, Some(100), "other").0, 1);
    flipped_bytes_refused(&inst, &proof, Some(100), "pegs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn english_raw_instance() {
    let (inst, sol) = english();
    let dir = temp_dir("english");
    let proof = dir.join("english.proof");
    prove(&inst, &sol, &proof, None, "", None, Some(3));
    let start = std::time::Instant::now();
    let (code, out) = py_verify(&inst, &proof, None, "");
    eprintln!("python verifier, English board: {:?}", start.elapsed());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2795 rounds"), "{out}");
    assert!(out.contains("N = 33, T = 38, S = 32"), "{out}");
    assert_eq!(py_verify(&inst, &proof, None, "x").0, 1);
    // the raw instance is the board file's instance: same digest, so the proof of the
    // raw file verifies with the Rust verifier against the board file too
    let o = Command::new(env!("CARGO_BIN_EXE_verifier"))
        .args(["peg", "verify"])
        .arg(root().join("puzzles/peg/english.txt"))
        .arg(&proof)
        .output()
        .expect("run the verifier");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    flipped_bytes_refused(&inst, &proof, None, "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_inputs_exit_2() {
    let (inst, sol) = tee();
    let dir = temp_dir("malformed");
    let proof = dir.join("tee.proof");
    prove(&inst, &sol, &proof, Some(16), "", None, Some(5));
    let data = std::fs::read(&proof).unwrap();
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("header only", data[..21].to_vec()),
        ("truncated", data[..data.len() - 1].to_vec()),
        ("trailing byte", [data.as_slice(), &[0]].concat()),
        ("garbage", b"not a proof at all, just some text\n".to_vec()),
    ];
    let mut wrong_mode = data.clone();
    wrong_mode[12] = 1;
    cases.push(("interactive mode", wrong_mode));
    let mut huge = data.clone();
    huge[13..21].copy_from_slice(&u64::MAX.to_le_bytes());
    cases.push(("huge body length", huge));
    for (name, bytes) in cases {
        let path = dir.join(format!("{}.proof", name.replace(' ', "-")));
        std::fs::write(&path, &bytes).unwrap();
        let (code, out) = py_verify(&inst, &path, Some(16), "");
        assert_eq!(code, 2, "{name}: {out}");
    }
    // a missing proof, an instance that is not a raw instance, a bad security
    assert_eq!(py_verify(&inst, &dir.join("missing"), Some(16), "").0, 2);
    assert_eq!(py_verify(&proof, &proof, Some(16), "").0, 2);
    // a board file is read too: the English board is another instance than the tee
    assert_eq!(
        py_verify(
            &root().join("puzzles/peg/english.txt"),
            &proof,
            Some(16),
            ""
        )
        .0,
        1
    );
    assert_eq!(py_verify(&inst, &proof, Some(0), "").0, 2);
    assert_eq!(py_verify(&inst, &proof, Some(16), "").0, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Board puzzle files: every catalog board, and random boards (three geometries, spaced and
/// compact rows, indentation, comments, CRLF, a byte-order mark, finish boards and peg
/// counts). Each proof the Rust prover makes from a board file must verify with the Python
/// parser's own reading of that file, which needs the same instance digest.
#[test]
fn board_puzzle_files_give_the_rust_instances() {
    use zkgames::peg::board::Puzzle;
    let dir = temp_dir("boards");
    // the catalog, with a solution from the solver
    for name in [
        "english",
        "triangle15",
        "square5-diagonal",
        "diamond",
        "wiegleb-24",
    ] {
        let board = root().join(format!("puzzles/peg/{name}.txt"));
        let sol = dir.join(format!("{name}.sol"));
        let o = Command::new(PROVER)
            .args(["peg", "solve", "-q", "-o"])
            .arg(&sol)
            .arg(&board)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let proof = dir.join(format!("{name}.proof"));
        prove(&board, &sol, &proof, Some(8), "", None, Some(1));
        let (code, out) = py_verify(&board, &proof, Some(8), "");
        assert_eq!(code, 0, "{name}: {out}");
    }
    // random boards
    let mut rng = common::XorShift(0x5eed_b0a7d);
    let mut checked = 0;
    for case in 0..400 {
        if checked == 40 {
            break;
        }
        let geometry = ["square", "square-diagonal", "triangle"][rng.below(3)];
        let (h, w) = (3 + rng.below(5), 3 + rng.below(5));
        let spaced = geometry != "triangle" && rng.below(2) == 0;
        let indent = " ".repeat(rng.below(3));
        let nl = if rng.below(4) == 0 { "\r\n" } else { "\n" };
        let mut text = String::new();
        if rng.below(4) == 0 {
            text.push('\u{feff}');
        }
        text += &format!("# random board {case}{nl}");
        if rng.below(2) == 0 {
            text += &format!("name: random {case}{nl}");
        }
        text += &format!("geometry: {geometry}   # comment{nl}start:{nl}");
        for y in 0..h {
            let mut row = indent.clone();
            let width = if geometry == "triangle" { 2 * w } else { w };
            for x in 0..width {
                let on_lattice = geometry != "triangle" || (x + y) % 2 == 0;
                let cell = if on_lattice && rng.below(5) != 0 {
                    if rng.below(10) < 7 {
                        ['o', 'O'][rng.below(2)]
                    } else {
                        '.'
                    }
                } else if on_lattice || rng.below(2) == 0 {
                    '_'
                } else {
                    ' '
                };
                row.push(cell);
                if spaced && x + 1 < width {
                    row.push(' ');
                }
            }
            if rng.below(5) == 0 {
                row += "   # a comment";
            }
            text += &row;
            text += nl;
        }
        let Ok(p0) = Puzzle::parse(&format!("{text}finish-pegs: 1{nl}")) else {
            continue;
        };
        let inst = p0.instance();
        // a random playout gives the goal and the solution matrix
        let mut z = vec![inst.first().to_vec()];
        for _ in 0..1 + rng.below(12) {
            let m = common::moves(inst, z.last().unwrap());
            if m.is_empty() {
                break;
            }
            z.push(m[rng.below(m.len())].clone());
        }
        if z.len() < 2 {
            continue;
        }
        let last = z.last().unwrap().clone();
        if rng.below(2) == 0 {
            text += &format!("finish-pegs: {}{nl}", last.iter().filter(|&&b| b).count());
        } else {
            text += &format!("finish:{nl}");
            for line in p0.render(&last).lines() {
                text += &format!("  {line}{nl}");
            }
        }
        let Ok(p) = Puzzle::parse(&text) else {
            continue;
        };
        assert_eq!(p.instance().triplets(), inst.triplets());
        let board = dir.join(format!("random-{case}.txt"));
        std::fs::write(&board, &text).unwrap();
        let sol = dir.join(format!("random-{case}.sol"));
        let matrix: String = z
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&b| if b { "1 " } else { "0 " })
                    .collect::<String>()
                    + "\n"
            })
            .collect();
        std::fs::write(&sol, matrix).unwrap();
        let proof = dir.join(format!("random-{case}.proof"));
        prove(&board, &sol, &proof, Some(4), "", None, Some(case));
        let (code, out) = py_verify(&board, &proof, Some(4), "");
        assert_eq!(code, 0, "case {case}:\n{text}\n{out}");
        checked += 1;
    }
    assert_eq!(checked, 40, "too few random boards were usable");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Python verifier reads inputs within the Rust tools' limits (a 1 MiB puzzle file),
/// never echoes a long input, accepts a byte-order mark, refuses an empty goal, and refuses
/// a non-minimal varint (one encoding per proof).
#[test]
fn python_limits_bom_and_canonical_encoding() {
    let (inst, sol) = tee();
    let dir = temp_dir("limits");
    let proof = dir.join("tee.proof");
    prove(&inst, &sol, &proof, Some(16), "", None, Some(2));
    // a 2 MiB instance: refused without reading it all, and not printed
    let big = dir.join("big.txt");
    let mut text = std::fs::read_to_string(&inst).unwrap();
    text += &format!("# {}\n", "x".repeat(2 << 20));
    std::fs::write(&big, &text).unwrap();
    let (code, out) = py_verify(&big, &proof, Some(16), "");
    assert_eq!(code, 2, "{}", &out[..out.len().min(300)]);
    assert!(
        out.contains("limit") && out.len() < 400,
        "{} bytes",
        out.len()
    );
    // a long unknown key is quoted as an excerpt
    std::fs::write(&big, format!("{} 5\n", "k".repeat(500_000))).unwrap();
    let (code, out) = py_verify(&big, &proof, Some(16), "");
    assert_eq!(code, 2);
    assert!(out.len() < 400, "{} bytes", out.len());
    // a byte-order mark
    let bom = dir.join("bom.txt");
    std::fs::write(
        &bom,
        format!("\u{feff}{}", std::fs::read_to_string(&inst).unwrap()),
    )
    .unwrap();
    assert_eq!(py_verify(&bom, &proof, Some(16), "").0, 0);
    // a goal of no peg
    std::fs::write(&bom, "N 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\npegs 0\n").unwrap();
    assert_eq!(py_verify(&bom, &proof, Some(16), "").0, 2);
    // the context length (body byte 32) written with a 2-byte marker
    let data = std::fs::read(&proof).unwrap();
    assert_eq!(data[21 + 32], 0);
    let mut wide = data[..21 + 32].to_vec();
    wide.extend_from_slice(&[251, 0, 0]);
    wide.extend_from_slice(&data[21 + 33..]);
    let len = (wide.len() - 21) as u64;
    wide[13..21].copy_from_slice(&len.to_le_bytes());
    let wide_path = dir.join("wide.proof");
    std::fs::write(&wide_path, &wide).unwrap();
    let (code, out) = py_verify(&inst, &wide_path, Some(16), "");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("non-canonical"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
