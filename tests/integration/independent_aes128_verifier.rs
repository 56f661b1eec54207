//! The independent Python verifier of AES-128 key proofs (`tools/verify_aes128.py`, on
//! tools/verify_vole.py's core, written from `docs/PROTOCOLS.md` alone) against
//! `verifier auth verify` on offline proofs made by `prover auth prove`: both accept the
//! honest proofs of both parameter sets; on byte flips across the file, truncation, trailing
//! bytes, another text or another identity both refuse with the same exit code. python3 is
//! required: without it these tests fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

use common::python as py;
use common::{PROVER, VERIFIER};

const SCRIPT: &str = "verify_aes128.py";

fn keygen(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let k = dir.join(format!("{name}.key"));
    let (c, _, e) = common::keygen("aes128", k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    (k.clone(), dir.join(format!("{name}.pub")))
}

fn prove(key: &Path, out: &Path, set: &str, text: &str) {
    let o = Command::new(PROVER)
        .args(["auth", "prove", "--key"])
        .arg(key)
        .args([
            "--context",
            text,
            "--system",
            "vole",
            "--vole-params",
            set,
            "-o",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Both verifiers on each case (a few at a time); their common exit codes.
fn both(cases: &[(PathBuf, PathBuf, String, String)]) -> Vec<i32> {
    let mut codes = Vec::new();
    for chunk in cases.chunks(4) {
        let kids: Vec<_> = chunk
            .iter()
            .map(|(id, proof, text, what)| {
                let p = py::spawn(
                    py::python(SCRIPT)
                        .arg(id)
                        .arg(proof)
                        .args(["--context", text]),
                );
                let r = Command::new(VERIFIER)
                    .args(["auth", "verify"])
                    .arg(id)
                    .arg(proof)
                    .args(["--context", text])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                (p, r, what)
            })
            .collect();
        for (p, r, what) in kids {
            let po = p.wait_with_output().unwrap();
            let ro = r.wait_with_output().unwrap();
            let (pc, pout) = py::verdict(po, what);
            assert_eq!(py::verdict_code(&pout, what), pc, "{what}: {pout}");
            let rc = py::rust_code(&ro, what);
            assert_eq!(
                pc,
                rc,
                "{what}: Python {pc} ({pout}), Rust {rc} ({})",
                String::from_utf8_lossy(&ro.stderr)
            );
            codes.push(pc);
        }
    }
    codes
}

#[test]
fn python_self_test_fips_197() {
    py::self_test(SCRIPT);
}

#[test]
fn honest_tampered_and_malformed_aes128_proofs_judged_alike() {
    let dir = py::scratch_dir("independent_aes128_verifier", "all");
    let (key, id) = keygen(&dir, "alice");
    let (_, other) = keygen(&dir, "mallory");
    let mut cases = Vec::new();
    for set in ["size", "speed"] {
        let f = dir.join(format!("{set}.proof"));
        prove(&key, &f, set, "pay bob 5 ✓");
        cases.push((
            id.clone(),
            f,
            "pay bob 5 ✓".to_string(),
            format!("honest {set}"),
        ));
    }
    assert_eq!(both(&cases), vec![0, 0]);
    let honest = dir.join("speed.proof");
    let data = std::fs::read(&honest).unwrap();
    let n = data.len();
    let mut positions: Vec<usize> = (0..21).step_by(3).collect();
    positions.extend((0..40).map(|i| 21 + i * (n - 21) / 40));
    positions.push(n - 1);
    let mut cases = Vec::new();
    for (k, &pos) in positions.iter().enumerate() {
        let mut b = data.clone();
        b[pos] ^= [0x01u8, 0x80, 0x10][k % 3];
        let path = dir.join(format!("flip-{pos}.proof"));
        std::fs::write(&path, &b).unwrap();
        cases.push((
            id.clone(),
            path,
            "pay bob 5 ✓".into(),
            format!("byte {pos} of {n}"),
        ));
    }
    for (name, bytes) in [
        ("truncated", data[..n - 1].to_vec()),
        ("header only", data[..21].to_vec()),
        ("trailing byte", [&data[..], &[0u8]].concat()),
        ("garbage", b"not a proof".to_vec()),
    ] {
        let path = dir.join(format!("{}.proof", name.replace(' ', "-")));
        std::fs::write(&path, bytes).unwrap();
        cases.push((id.clone(), path, "pay bob 5 ✓".into(), name.into()));
    }
    cases.push((
        id.clone(),
        honest.clone(),
        "pay bob 6".into(),
        "another text".into(),
    ));
    cases.push((
        other,
        honest,
        "pay bob 5 ✓".into(),
        "another identity".into(),
    ));
    let codes = both(&cases);
    assert!(codes.iter().all(|&c| c == 1 || c == 2), "{codes:?}");
    assert!(codes.contains(&1) && codes.contains(&2), "{codes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
