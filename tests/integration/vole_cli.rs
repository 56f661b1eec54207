//! `--system vole` through the binaries: SHA-256 proofs and seals with both parameter sets,
//! peg proofs, sessions and simulated transcripts, sealed Wall moves and their sessions,
//! `inspect`, exit statuses (0 accepted, 1 rejected, 2 bad input).

const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const WALL_POS: &str = "puzzles/wall/cat-and-mouse-8x8.txt";

use crate::common;
use common::{peg_verify, pipe_session, prover_peg, run, tmp, PROVER, VERIFIER};

fn sha256_verify(digest: &str, proof: &str, rest: &[&str]) -> (i32, String, String) {
    run(
        VERIFIER,
        &[&["sha256", "verify", "--digest", digest, proof][..], rest].concat(),
    )
}

fn puzzle(name: &str) -> String {
    format!("{}/puzzles/peg/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn sha256_vole_proofs_and_seals_with_both_parameter_sets() {
    for (set, tau) in [("size", "τ = 11"), ("speed", "τ = 17")] {
        let p = tmp(&format!("abc-vole-{set}.proof"));
        let (c, _, err) = run(
            PROVER,
            &[
                "sha256",
                "prove",
                "--preimage-hex",
                "616263",
                "--system",
                "vole",
                "--vole-params",
                set,
                "--context",
                "c",
                "-o",
                &p,
            ],
        );
        assert_eq!(c, 0, "{err}");
        // the set by name, the parameters under --verbose
        let named = format!("VOLE-in-the-head, 128-bit, {set} set");
        assert!(err.contains(&named) && !err.contains(tau), "{err}");
        let (c, out, err) = sha256_verify(ABC, &p, &["--context", "c"]);
        assert_eq!(c, 0, "{err}");
        assert!(out.starts_with("ACCEPTED") && out.contains(&named), "{out}");
        let (c, out, err) = sha256_verify(ABC, &p, &["--context", "c", "--verbose"]);
        assert_eq!(c, 0, "{err}");
        assert!(out.starts_with("ACCEPTED") && out.contains(tau), "{out}");
        let (c, _, err) = sha256_verify(ABC, &p, &[]);
        assert_eq!(c, 1, "{err}");
        let (c, _, err) = sha256_verify(ABC, &p, &["--context", "c", "--security", "130"]);
        assert_eq!(c, 1, "{err}");
        let (c, out, _) = run(VERIFIER, &["sha256", "inspect", &p]);
        assert_eq!(c, 0);
        assert!(out.contains("VOLE") && out.contains(tau), "{out}");
        let mut b = std::fs::read(&p).unwrap();
        let i = b.len() - 500;
        b[i] ^= 0x10;
        let q = tmp(&format!("abc-vole-{set}-bad.proof"));
        std::fs::write(&q, &b).unwrap();
        let (c, _, err) = sha256_verify(ABC, &q, &["--context", "c"]);
        assert!(c == 1 || c == 2, "{c} {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (s, o) = (tmp("abc-vole.seal"), tmp("abc-vole.open"));
    let _ = std::fs::remove_file(&o);
    let (c, _, e) = run(
        PROVER,
        &[
            "sha256",
            "seal",
            "--preimage-hex",
            "616263",
            "-o",
            &s,
            "--opening",
            &o,
            "--system",
            "vole",
            "--context",
            "c1",
        ],
    );
    assert_eq!(c, 0, "{e}");
    let (c, out, e) = sha256_verify(ABC, &s, &["--context", "c1"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("VOLE"), "{out}");
    let (c, out, e) = run(
        VERIFIER,
        &["sha256", "open", ABC, &s, &o, "--context", "c1"],
    );
    assert_eq!(c, 0, "{e}");
    assert_eq!(out.trim(), "616263");
    let (c, _, _) = run(
        VERIFIER,
        &["sha256", "open", ABC, &s, &o, "--context", "c2"],
    );
    assert_eq!(c, 1);
}

#[test]
fn peg_vole_proofs_sessions_and_simulations() {
    let english = puzzle("english.txt");
    let sol = tmp("english-vole.solution");
    assert_eq!(
        run(PROVER, &["peg", "solve", &english, "-o", &sol, "-q"]).0,
        0
    );
    let pf = tmp("english-vole.proof");
    let (c, _, err) = prover_peg("prove", &english, &sol, &["--system", "vole", "-o", &pf]);
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("VOLE"), "{err}");
    let (c, out, err) = peg_verify(&english, &pf, &[]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ACCEPTED") && out.contains("VOLE"), "{out}");
    let (c, _, _) = peg_verify(&english, &pf, &["--context", "x"]);
    assert_eq!(c, 1);
    let (c, out, _) = run(VERIFIER, &["peg", "inspect", &pf]);
    assert_eq!(c, 0);
    assert!(out.contains("VOLE") && out.contains("τ = 11"), "{out}");
    assert!(std::fs::metadata(&pf).unwrap().len() <= 10_000);
    let (c, _, err) = prover_peg(
        "prove",
        &english,
        &sol,
        &["--system", "vole", "--rounds", "9"],
    );
    assert_eq!(c, 2, "{err}");
    // a live session (verifier's Δ) and its transcript
    let tee = puzzle("tee.txt");
    let tsol = tmp("tee-vole.solution");
    assert_eq!(run(PROVER, &["peg", "solve", &tee, "-o", &tsol, "-q"]).0, 0);
    let tr = tmp("tee-vole.session");
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for (vsys, psys, ok) in [
        (&["--system", "vole"][..], &["--system", "vole"][..], true),
        (
            &["--system", "vole"],
            &["--system", "vole", "--vole-params", "speed"],
            false,
        ),
        (&["--system", "vole"], &["--system", "kkw"], false),
    ] {
        let mut v = args(&["peg", "serve", &tee, "--stdio", "--context", "s1"]);
        v.extend(args(vsys));
        let mut p = args(&[
            "peg",
            "connect",
            &tee,
            "--solution",
            &tsol,
            "-",
            "--context",
            "s1",
            "--transcript",
            &tr,
        ]);
        p.extend(args(psys));
        let (pr, vo) = pipe_session(&v, &p);
        let log =
            String::from_utf8_lossy(&vo.stderr).into_owned() + &String::from_utf8_lossy(&pr.stderr);
        assert_eq!(pr.status.code() == Some(0), ok, "{log}");
        if ok {
            assert_eq!(vo.status.code(), Some(0), "{log}");
            let (c, _, _) = peg_verify(&tee, &tr, &["--context", "s1"]);
            assert_eq!(c, 1, "a transcript is not evidence");
            let (c, o, e) = peg_verify(
                &tee,
                &tr,
                &["--context", "s1", "--allow-session-transcript"],
            );
            assert_eq!(c, 0, "{e}");
            assert!(o.contains("CONSISTENT"), "{o}");
        }
    }
    // simulated transcripts: refused as evidence, consistent on request
    let out = tmp("sim-vole.session");
    let (c, _, e) = run(
        PROVER,
        &[
            "peg",
            "simulate",
            &tee,
            "-o",
            &out,
            "--context",
            "x",
            "--system",
            "vole",
        ],
    );
    assert_eq!(c, 0, "{e}");
    let (c, _, _) = peg_verify(&tee, &out, &["--context", "x"]);
    assert_eq!(c, 1);
    let (c, o, e) = peg_verify(
        &tee,
        &out,
        &["--context", "x", "--allow-session-transcript"],
    );
    assert_eq!(c, 0, "{e}");
    assert!(
        o.contains("CONSISTENT") && o.contains("NOT evidence"),
        "{o}"
    );
}

#[test]
fn wall_seals_and_sessions_with_vole() {
    let pos = format!("{}/{WALL_POS}", env!("CARGO_MANIFEST_DIR"));
    let (s, o) = (tmp("wall-vole.seal"), tmp("wall-vole.open"));
    let _ = std::fs::remove_file(&o);
    let (c, _, e) = run(
        PROVER,
        &[
            "wall",
            "seal",
            &pos,
            "--move",
            "Cb8.>a7",
            "-o",
            &s,
            "--opening",
            &o,
            "--context",
            "g1",
            "--system",
            "vole",
        ],
    );
    assert_eq!(c, 0, "{e}");
    let n = std::fs::metadata(&s).unwrap().len();
    assert!(n <= 4096, "sealed 8x8 move {n} bytes");
    let (c, out, e) = run(VERIFIER, &["wall", "verify", &pos, &s, "--context", "g1"]);
    assert_eq!(c, 0, "{e}{out}");
    let (c, out, e) = run(VERIFIER, &["wall", "open", &pos, &s, &o, "--context", "g1"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("Cb8"), "{out}");
    let (c, out, _) = run(VERIFIER, &["wall", "inspect", &s]);
    assert_eq!(c, 0);
    assert!(out.contains("VOLE"), "{out}");
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (pr, vo) = pipe_session(
        &args(&["wall", "serve", &pos, "--stdio", "--system", "vole"]),
        &args(&[
            "wall", "connect", &pos, "--move", "Cb8.>a7", "-", "--system", "vole",
        ]),
    );
    let log =
        String::from_utf8_lossy(&vo.stderr).into_owned() + &String::from_utf8_lossy(&pr.stderr);
    assert_eq!(
        (pr.status.code(), vo.status.code()),
        (Some(0), Some(0)),
        "{log}"
    );
    assert!(log.contains("ACCEPTED") && !log.contains("Cb8"), "{log}");
}
