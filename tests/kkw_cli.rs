//! `--system kkw` through the binaries: SHA-256 and peg proofs with both parameter sets, the
//! verifiers reading both engines' files, exit statuses (0 accepted, 1 rejected, 2 bad
//! input), `inspect`, and the `zkbpp`/`mpc` names of ZKB++.

use std::process::Command;

const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("zkg-kkw-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name).to_string_lossy().into_owned()
}

/// Exit code, stdout, stderr.
fn run(bin: &str, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(bin).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const PROVER: &str = env!("CARGO_BIN_EXE_prover");
const VERIFIER: &str = env!("CARGO_BIN_EXE_verifier");

fn puzzle(name: &str) -> String {
    format!("{}/puzzles/peg/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn sha256_kkw_proofs_with_both_parameter_sets() {
    for (set, n) in [("size", "N = 32"), ("speed", "N = 16")] {
        let p = tmp(&format!("abc-{set}.proof"));
        let (c, _, err) = run(
            PROVER,
            &[
                "sha256",
                "prove",
                "--preimage-hex",
                "616263",
                "--system",
                "kkw",
                "--kkw-params",
                set,
                "--context",
                "login 42",
                "-o",
                &p,
            ],
        );
        assert_eq!(c, 0, "{err}");
        assert!(err.contains("KKW") && err.contains(n), "{err}");
        let (c, out, err) = run(
            VERIFIER,
            &[
                "sha256",
                "verify",
                "--digest",
                ABC,
                &p,
                "--context",
                "login 42",
            ],
        );
        assert_eq!(c, 0, "{err}");
        assert!(out.starts_with("ACCEPTED") && out.contains(n), "{out}");
        // wrong context, wrong digest, more security than the parameters give: rejected
        let (c, _, err) = run(VERIFIER, &["sha256", "verify", "--digest", ABC, &p]);
        assert_eq!(c, 1, "{err}");
        assert!(err.contains("REJECTED"), "{err}");
        let wrong = format!("{}0", &ABC[..63]);
        let (c, _, _) = run(
            VERIFIER,
            &[
                "sha256",
                "verify",
                "--digest",
                &wrong,
                &p,
                "--context",
                "login 42",
            ],
        );
        assert_eq!(c, 1);
        let (c, _, err) = run(
            VERIFIER,
            &[
                "sha256",
                "verify",
                "--digest",
                ABC,
                &p,
                "--context",
                "login 42",
                "--security",
                "129",
            ],
        );
        assert_eq!(c, 1, "{err}");
        assert!(err.contains("bits of security"), "{err}");
        // inspect names the engine and the parameters
        let (c, out, _) = run(VERIFIER, &["sha256", "inspect", &p]);
        assert_eq!(c, 0);
        assert!(out.contains("KKW") && out.contains(n), "{out}");
        // a flipped byte in the body: rejected or refused, never accepted
        let mut b = std::fs::read(&p).unwrap();
        let i = b.len() - 1000;
        b[i] ^= 0x10;
        let q = tmp(&format!("abc-{set}-bad.proof"));
        std::fs::write(&q, &b).unwrap();
        let (c, _, err) = run(
            VERIFIER,
            &[
                "sha256",
                "verify",
                "--digest",
                ABC,
                &q,
                "--context",
                "login 42",
            ],
        );
        assert!(c == 1 || c == 2, "{c} {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn sha256_verifier_reads_both_engines_and_zkbpp_names() {
    let z = tmp("abc-zkbpp.proof");
    for name in ["zkbpp", "mpc"] {
        let (c, _, err) = run(
            PROVER,
            &[
                "sha256",
                "prove",
                "--preimage-hex",
                "616263",
                "--system",
                name,
                "--security",
                "40",
                "-o",
                &z,
            ],
        );
        assert_eq!(c, 0, "{err}");
        let (c, out, err) = run(
            VERIFIER,
            &["sha256", "verify", "--digest", ABC, &z, "--security", "40"],
        );
        assert_eq!(c, 0, "{err}");
        assert!(out.contains("rounds") && !out.contains("KKW"), "{out}");
    }
    let (c, _, err) = run(
        PROVER,
        &[
            "sha256",
            "prove",
            "--preimage-hex",
            "616263",
            "--system",
            "picnic",
        ],
    );
    assert_eq!(c, 2, "{err}");
}

#[test]
fn peg_kkw_proofs_through_the_binaries() {
    let english = puzzle("english.txt");
    let sol = tmp("english.solution");
    assert_eq!(
        run(PROVER, &["peg", "solve", &english, "-o", &sol, "-q"]).0,
        0
    );
    let kkw = tmp("english-kkw.proof");
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "prove",
            &english,
            "--solution",
            &sol,
            "--system",
            "kkw",
            "-o",
            &kkw,
        ],
    );
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("KKW"), "{err}");
    let (c, out, err) = run(VERIFIER, &["peg", "verify", &english, &kkw]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ACCEPTED") && out.contains("KKW"), "{out}");
    let (c, _, _) = run(
        VERIFIER,
        &["peg", "verify", &english, &kkw, "--context", "x"],
    );
    assert_eq!(c, 1);
    let (c, out, _) = run(VERIFIER, &["peg", "inspect", &kkw]);
    assert_eq!(c, 0);
    assert!(out.contains("KKW") && out.contains("N = 32"), "{out}");
    // another puzzle: rejected
    let (c, _, _) = run(VERIFIER, &["peg", "verify", &puzzle("tee.txt"), &kkw]);
    assert!(c == 1 || c == 2);
    // the ZKB++ proof of the same solution, under its new name and its old one
    let zk = tmp("english-zkbpp.proof");
    for name in ["zkbpp", "mpc"] {
        let (c, _, err) = run(
            PROVER,
            &[
                "peg",
                "prove",
                &english,
                "--solution",
                &sol,
                "--system",
                name,
                "-o",
                &zk,
            ],
        );
        assert_eq!(c, 0, "{err}");
        let (c, out, err) = run(VERIFIER, &["peg", "verify", &english, &zk]);
        assert_eq!(c, 0, "{err}");
        assert!(out.contains("ZKB++"), "{out}");
    }
    let (a, b) = (
        std::fs::metadata(&kkw).unwrap().len(),
        std::fs::metadata(&zk).unwrap().len(),
    );
    assert!(a * 3 < b, "KKW {a} bytes vs ZKB++ {b} bytes");
    assert!(a <= 40_000, "KKW English proof {a} bytes");
    // --rounds is for the round-based systems only
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "prove",
            &english,
            "--solution",
            &sol,
            "--system",
            "kkw",
            "--rounds",
            "9",
        ],
    );
    assert_eq!(c, 2, "{err}");
    // the speed set and the demo
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "prove",
            &english,
            "--solution",
            &sol,
            "--system",
            "kkw",
            "--kkw-params",
            "speed",
            "-o",
            &kkw,
        ],
    );
    assert_eq!(c, 0, "{err}");
    let (c, out, err) = run(VERIFIER, &["peg", "verify", &english, &kkw]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("N = 16"), "{out}");
    let (c, out, err) = run(
        PROVER,
        &["peg", "demo", &puzzle("tee.txt"), "--system", "kkw"],
    );
    assert_eq!(c, 0, "{err}");
    assert!(
        out.contains("proved and verified") && out.contains("KKW"),
        "{out}"
    );
}
