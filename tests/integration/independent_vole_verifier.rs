//! The independent Python verifier of VOLE-in-the-head proofs (`tools/verify_vole.py`,
//! written from `docs/PROTOCOLS.md` alone, for the peg statement of 3.9, protocol 10)
//! against the Rust verifier binary on proofs made by the prover binary: both accept the
//! honest proofs; on byte flips across the whole file, truncation, trailing bytes, a wrong
//! instance, context or security level both refuse, with the same exit code (1 rejected,
//! 2 malformed). python3 is required: without it these tests fail.
//!
//! Runtime: the Python GGM expansion costs about 3 SHA-256 and one ChaCha20 block per leaf,
//! so the sweep of ~200 tampered files runs at 16 bits (speed set: τ = 3 trees of 2^5
//! leaves, two corrections; about 0.15 s of Python each); the honest proofs are also checked
//! at 128 bits with both parameter sets (the size set's 17,408 leaves: about 1.5 s of Python).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use crate::common;

use common::python::{self as py, raw_puzzle};
use common::{PROVER, VERIFIER};

const SCRIPT: &str = "verify_vole.py";

fn tee() -> (PathBuf, PathBuf) {
    raw_puzzle("tee")
}

fn temp_dir(name: &str) -> PathBuf {
    py::scratch_dir("independent_vole_verifier", name)
}

/// A VOLE proof of the tee solution; panics unless the prover succeeds.
fn prove(out: &Path, security: u32, set: &str, context: &str, seed: u64) {
    let (inst, sol) = tee();
    let o = Command::new(PROVER)
        .args(["peg", "prove"])
        .arg(&inst)
        .arg("--solution")
        .arg(&sol)
        .args(["--system", "vole", "--vole-params", set])
        .args(["--security", &security.to_string()])
        .args(["--context", context])
        .args(["--seed", &seed.to_string()])
        .arg("-o")
        .arg(out)
        .output()
        .expect("run the prover");
    assert!(
        o.status.success(),
        "prover failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn spawn_python(instance: &Path, proof: &Path, security: u32, context: &str) -> Child {
    py::spawn(
        py::python(SCRIPT)
            .arg(instance)
            .arg(proof)
            .args(["--security", &security.to_string()])
            .args(["--context", context]),
    )
}

fn spawn_rust(instance: &Path, proof: &Path, security: u32, context: &str) -> Child {
    Command::new(VERIFIER)
        .args(["peg", "verify"])
        .arg(instance)
        .arg(proof)
        .args(["--security", &security.to_string()])
        .args(["--context", context])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the verifier")
}

/// Exit code of the Python verifier, after checking it did not crash and printed its
/// one-line verdict.
fn python_code(o: Output, what: &str) -> i32 {
    let (code, stdout) = py::verdict(o, what);
    assert!(
        py::verdict_code(&stdout, what) == code && stdout.lines().count() == 1,
        "{what}: exit {code} but output {stdout:?}"
    );
    code
}

/// Runs both verifiers on each case (a few at a time), returns the agreed exit codes;
/// panics with both outputs on any disagreement.
fn both(cases: &[(PathBuf, PathBuf, u32, String, String)]) -> Vec<i32> {
    let mut codes = Vec::new();
    for chunk in cases.chunks(4) {
        let children: Vec<(Child, Child, &str)> = chunk
            .iter()
            .map(|(inst, proof, bits, ctx, what)| {
                (
                    spawn_python(inst, proof, *bits, ctx),
                    spawn_rust(inst, proof, *bits, ctx),
                    what.as_str(),
                )
            })
            .collect();
        for (py, rs, what) in children {
            let po = py.wait_with_output().unwrap();
            let ro = rs.wait_with_output().unwrap();
            let p_out = String::from_utf8_lossy(&po.stdout).into_owned();
            let r_err = String::from_utf8_lossy(&ro.stderr).into_owned();
            let r_out = String::from_utf8_lossy(&ro.stdout).into_owned();
            let p = python_code(po, what);
            let r = py::rust_code(&ro, what);
            assert_eq!(
                p, r,
                "{what}: Python exit {p} ({p_out}) but Rust exit {r} ({r_out}{r_err})"
            );
            codes.push(p);
        }
    }
    codes
}

#[test]
fn python_self_test_chacha20_rfc8439_and_gf128() {
    py::self_test(SCRIPT);
}

#[test]
fn honest_proofs_accepted_by_both() {
    let (inst, _) = tee();
    let dir = temp_dir("honest");
    let mut cases = Vec::new();
    for (k, &(bits, set, ctx)) in [
        (128u32, "size", "login nonce 42"),
        (128, "speed", ""),
        (32, "speed", "ü ✓"),
        (16, "size", "x"),
        (1, "speed", ""),
    ]
    .iter()
    .enumerate()
    {
        let proof = dir.join(format!("honest-{k}.proof"));
        prove(&proof, bits, set, ctx, 7 + k as u64);
        let what = format!("honest {set} set at {bits} bits, context {ctx:?}");
        cases.push((inst.clone(), proof, bits, ctx.to_string(), what));
    }
    assert_eq!(both(&cases), vec![0; cases.len()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flipped_truncated_extended_and_wrong_statement_refused_alike() {
    let (inst, _) = tee();
    let dir = temp_dir("tamper");
    let proof = dir.join("honest.proof");
    let (bits, ctx) = (16u32, "nonce 1");
    prove(&proof, bits, "speed", ctx, 11);
    let data = std::fs::read(&proof).unwrap();
    let n = data.len();
    // every header byte, 150 positions spread evenly, the last 24 bytes
    let mut positions: Vec<usize> = (0..21).collect();
    positions.extend((0..150).map(|i| 21 + i * (n - 21) / 150));
    positions.extend(n.saturating_sub(24)..n);
    positions.sort_unstable();
    positions.dedup();
    let masks = [0x01u8, 0x80, 0xff, 0x10, 0x42];
    let mut cases = Vec::new();
    for (k, &pos) in positions.iter().enumerate() {
        let mask = masks[k % masks.len()];
        let mut bad = data.clone();
        bad[pos] ^= mask;
        let path = dir.join(format!("flip-{pos}.proof"));
        std::fs::write(&path, &bad).unwrap();
        let what = format!("byte {pos} of {n} ^ {mask:#04x}");
        cases.push((inst.clone(), path, bits, ctx.to_string(), what));
    }
    for (name, bytes) in [
        ("truncated by one byte", data[..n - 1].to_vec()),
        ("truncated to the header", data[..21].to_vec()),
        ("one trailing byte", [&data[..], &[0u8]].concat()),
        ("empty", Vec::new()),
        ("marked as a recorded session (mode 1)", {
            let mut b = data.clone();
            b[12] = 1;
            b
        }),
        ("marked as a SHA-256 VOLE proof (protocol 11)", {
            let mut b = data.clone();
            b[10] = 11;
            b
        }),
    ] {
        let path = dir.join(format!("{}.proof", name.replace(' ', "-")));
        std::fs::write(&path, &bytes).unwrap();
        cases.push((inst.clone(), path, bits, ctx.to_string(), name.to_string()));
    }
    let english = py::root().join("puzzles/raw/english.txt");
    cases.push((
        english,
        proof.clone(),
        bits,
        ctx.to_string(),
        "another instance".into(),
    ));
    cases.push((
        inst.clone(),
        proof.clone(),
        bits,
        "nonce 2".into(),
        "another context".into(),
    ));
    cases.push((
        inst.clone(),
        proof.clone(),
        64,
        ctx.to_string(),
        "a higher security level".into(),
    ));
    cases.push((
        inst.clone(),
        proof.clone(),
        bits,
        ctx.to_string(),
        "the untouched proof".into(),
    ));
    let codes = both(&cases);
    let (last, refused) = codes.split_last().unwrap();
    assert_eq!(*last, 0, "the untouched proof must still be accepted");
    assert!(refused.iter().all(|&c| c == 1 || c == 2));
    let rejected = refused.iter().filter(|&&c| c == 1).count();
    let malformed = refused.iter().filter(|&&c| c == 2).count();
    eprintln!(
        "{} refused cases agreed: {rejected} rejected (exit 1), {malformed} malformed (exit 2)",
        refused.len()
    );
    // both kinds must occur, or the classification comparison is vacuous
    assert!(rejected > 50 && malformed > 5, "{rejected} / {malformed}");
    let _ = std::fs::remove_dir_all(&dir);
}
