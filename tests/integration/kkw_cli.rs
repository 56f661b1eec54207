//! `--system kkw` through the binaries: SHA-256 and peg proofs with both parameter sets, the
//! verifiers reading both engines' files, exit statuses (0 accepted, 1 rejected, 2 bad
//! input), `inspect`, and the `zkbpp`/`mpc` names of ZKB++.

const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

use crate::common;
use common::{peg_verify, pipe_session, prover_peg, run, tmp, wall_verify, PROVER, VERIFIER};

/// Runs `prover sha256 prove --preimage-hex HEX REST…`; returns (exit code, stdout, stderr).
fn sha256_prove(hex: &str, rest: &[&str]) -> (i32, String, String) {
    run(
        PROVER,
        &[&["sha256", "prove", "--preimage-hex", hex][..], rest].concat(),
    )
}

/// Runs `verifier sha256 verify --digest DIGEST PROOF REST…`; returns (exit code, stdout, stderr).
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
fn sha256_kkw_proofs_with_both_parameter_sets() {
    for (set, n) in [("size", "N = 32"), ("speed", "N = 16")] {
        let p = tmp(&format!("abc-{set}.proof"));
        let (c, _, err) = sha256_prove(
            "616263",
            &[
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
        let named = format!("KKW, 128-bit, {set} set");
        assert!(err.contains(&named), "{err}");
        let (c, out, err) = sha256_verify(ABC, &p, &["--context", "login 42"]);
        assert_eq!(c, 0, "{err}");
        assert!(out.starts_with("ACCEPTED") && out.contains(&named), "{out}");
        let (c, out, err) = sha256_verify(ABC, &p, &["-v", "--context", "login 42"]);
        assert_eq!(c, 0, "{err}");
        assert!(out.starts_with("ACCEPTED") && out.contains(n), "{out}");
        // wrong context, wrong digest, more security than the parameters give: rejected
        let (c, _, err) = sha256_verify(ABC, &p, &[]);
        assert_eq!(c, 1, "{err}");
        assert!(err.contains("REJECTED"), "{err}");
        let wrong = format!("{}0", &ABC[..63]);
        let (c, _, _) = sha256_verify(&wrong, &p, &["--context", "login 42"]);
        assert_eq!(c, 1);
        let (c, _, err) = sha256_verify(ABC, &p, &["--context", "login 42", "--security", "129"]);
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
        let (c, _, err) = sha256_verify(ABC, &q, &["--context", "login 42"]);
        assert!(c == 1 || c == 2, "{c} {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn sha256_verifier_reads_both_engines_and_zkbpp_names() {
    let z = tmp("abc-zkbpp.proof");
    for name in ["zkbpp", "mpc"] {
        let (c, _, err) = sha256_prove("616263", &["--system", name, "--security", "40", "-o", &z]);
        assert_eq!(c, 0, "{err}");
        let (c, out, err) = sha256_verify(ABC, &z, &["--security", "40"]);
        assert_eq!(c, 0, "{err}");
        assert!(out.contains("rounds") && !out.contains("KKW"), "{out}");
    }
    let (c, _, err) = sha256_prove("616263", &["--system", "picnic"]);
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
    let (c, _, err) = prover_peg("prove", &english, &sol, &["--system", "kkw", "-o", &kkw]);
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("KKW"), "{err}");
    let (c, out, err) = peg_verify(&english, &kkw, &[]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ACCEPTED") && out.contains("KKW"), "{out}");
    let (c, _, _) = peg_verify(&english, &kkw, &["--context", "x"]);
    assert_eq!(c, 1);
    let (c, out, _) = run(VERIFIER, &["peg", "inspect", &kkw]);
    assert_eq!(c, 0);
    assert!(out.contains("KKW") && out.contains("N = 32"), "{out}");
    // another puzzle: rejected
    let (c, _, _) = peg_verify(&puzzle("tee.txt"), &kkw, &[]);
    assert!(c == 1 || c == 2);
    // the ZKB++ proof of the same solution, under its new name and its old one
    let zk = tmp("english-zkbpp.proof");
    for name in ["zkbpp", "mpc"] {
        let (c, _, err) = prover_peg("prove", &english, &sol, &["--system", name, "-o", &zk]);
        assert_eq!(c, 0, "{err}");
        let (c, out, err) = peg_verify(&english, &zk, &[]);
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
    let (c, _, err) = prover_peg(
        "prove",
        &english,
        &sol,
        &["--system", "kkw", "--rounds", "9"],
    );
    assert_eq!(c, 2, "{err}");
    // the speed set and the demo
    let (c, _, err) = prover_peg(
        "prove",
        &english,
        &sol,
        &["--system", "kkw", "--kkw-params", "speed", "-o", &kkw],
    );
    assert_eq!(c, 0, "{err}");
    let (c, out, err) = peg_verify(&english, &kkw, &[]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("KKW, 128-bit, speed set"), "{out}");
    let (c, out, err) = peg_verify(&english, &kkw, &["--verbose"]);
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

const WALL_POS: &str = "puzzles/wall/cat-and-mouse-8x8.txt";

fn wall_pos() -> String {
    format!("{}/{WALL_POS}", env!("CARGO_MANIFEST_DIR"))
}

/// `prover wall seal --system kkw`: both parameter sets; the seal records the engine
/// (protocol 7); `verifier wall verify/open/inspect` read it (and still read ZKB++ seals);
/// KKW seals are smaller; a tampered seal is rejected; the opening of a ZKB++ seal does not
/// open a KKW seal.
#[test]
fn wall_seals_with_kkw() {
    let pos = wall_pos();
    let seal = |sys: &[&str], name: &str| -> (String, String, u64) {
        let (s, o) = (tmp(&format!("{name}.seal")), tmp(&format!("{name}.open")));
        let mut args = vec![
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
        ];
        args.extend_from_slice(sys);
        let (c, _, e) = run(PROVER, &args);
        assert_eq!(c, 0, "{e}");
        let n = std::fs::metadata(&s).unwrap().len();
        (s, o, n)
    };
    let (zs, zo, zn) = seal(&["--system", "zkbpp"], "zkbpp");
    for set in ["size", "speed"] {
        let (s, o, n) = seal(&["--system", "kkw", "--kkw-params", set], set);
        assert!(n * 2 < zn, "KKW {set} {n} bytes, ZKB++ {zn}");
        if set == "size" {
            assert!(n <= 25_000, "{n} bytes");
        }
        let (c, out, e) = wall_verify(&pos, &s, &["--context", "g1"]);
        assert_eq!(c, 0, "{e}");
        assert!(out.contains("ACCEPTED") && !out.contains("Cb8"), "{out}");
        let (c, _, _) = wall_verify(&pos, &s, &["--context", "g2"]);
        assert_eq!(c, 1);
        // more security than the parameters give
        let (c, _, _) = wall_verify(&pos, &s, &["--context", "g1", "--security", "200"]);
        assert_eq!(c, 1);
        let (c, out, e) = run(VERIFIER, &["wall", "open", &pos, &s, &o, "--context", "g1"]);
        assert_eq!(c, 0, "{e}");
        assert!(out.contains("played Cb8.>a7"), "{out}");
        // the ZKB++ seal's opening does not open this seal, nor conversely
        let (c, _, _) = run(
            VERIFIER,
            &["wall", "open", &pos, &s, &zo, "--context", "g1"],
        );
        assert_eq!(c, 1);
        let (c, _, _) = run(
            VERIFIER,
            &["wall", "open", &pos, &zs, &o, "--context", "g1"],
        );
        assert_eq!(c, 1);
        let (c, out, _) = run(VERIFIER, &["wall", "inspect", &s]);
        assert_eq!(c, 0);
        assert!(out.contains("KKW") && out.contains("N = "), "{out}");
        // a flipped byte in the body
        let mut b = std::fs::read(&s).unwrap();
        let i = b.len() / 2;
        b[i] ^= 1;
        let t = tmp(&format!("{set}-tampered.seal"));
        std::fs::write(&t, &b).unwrap();
        let (c, _, _) = wall_verify(&pos, &t, &["--context", "g1"]);
        assert_ne!(c, 0);
    }
    let (c, out, _) = run(VERIFIER, &["wall", "inspect", &zs]);
    assert_eq!(c, 0);
    assert!(out.contains("ZKB++") && out.contains("rounds:"), "{out}");
}

/// A live session through the binaries over pipes: verifier `serve --stdio` with its
/// system, prover `connect -` with its own; returns both exit codes and the verifier's log.
fn session(verifier: &[String], prover: &[String]) -> (Option<i32>, Option<i32>, String) {
    let (pr, vo) = pipe_session(verifier, prover);
    (
        pr.status.code(),
        vo.status.code(),
        String::from_utf8_lossy(&vo.stderr).into_owned() + &String::from_utf8_lossy(&pr.stderr),
    )
}

/// Sealed-move sessions with KKW: accepted when both sides use the same system and
/// parameters; the verifier fixes them, so a prover offering ZKB++ or the other KKW set is
/// refused.
#[test]
fn wall_sessions_with_kkw_and_the_verifier_fixes_the_system() {
    let pos = wall_pos();
    let serve = |sys: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["wall", "serve", &pos, "--stdio"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(sys.iter().map(|s| s.to_string()));
        a
    };
    let connect = |sys: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["wall", "connect", &pos, "--move", "Cb8.>a7", "-"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(sys.iter().map(|s| s.to_string()));
        a
    };
    let kkw = ["--system", "kkw"];
    let speed = ["--system", "kkw", "--kkw-params", "speed"];
    let (p, v, log) = session(&serve(&kkw), &connect(&kkw));
    assert_eq!((p, v), (Some(0), Some(0)), "{log}");
    assert!(log.contains("ACCEPTED") && !log.contains("Cb8"), "{log}");
    let (p, v, log) = session(&serve(&speed), &connect(&speed));
    assert_eq!((p, v), (Some(0), Some(0)), "{log}");
    // a verifier requiring KKW refuses ZKB++, and the size set refuses the speed set
    let (p, _, log) = session(&serve(&kkw), &connect(&[]));
    assert_ne!(p, Some(0), "{log}");
    assert!(
        log.contains("this verifier runs KKW") && log.contains("--system kkw"),
        "{log}"
    );
    let (p, _, log) = session(&serve(&kkw), &connect(&speed));
    assert_ne!(p, Some(0), "{log}");
    assert!(log.contains("KKW parameters"), "{log}");
    let (p, _, log) = session(&serve(&[]), &connect(&kkw));
    assert_ne!(p, Some(0), "{log}");
}

/// Peg sessions with KKW through the binaries: accepted with the verifier's system and set;
/// a prover offering ZKB++ or the speed set to a size-set verifier is refused; the saved
/// transcript is re-checked only with --allow-session-transcript.
#[test]
fn peg_sessions_with_kkw() {
    let tee = puzzle("tee.txt");
    let sol = tmp("tee-session.solution");
    assert_eq!(run(PROVER, &["peg", "solve", &tee, "-o", &sol, "-q"]).0, 0);
    let serve = |sys: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["peg", "serve", &tee, "--stdio", "--context", "s1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(sys.iter().map(|s| s.to_string()));
        a
    };
    let tr = tmp("tee-kkw.session");
    let connect = |sys: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "peg",
            "connect",
            &tee,
            "--solution",
            &sol,
            "-",
            "--context",
            "s1",
            "--transcript",
            &tr,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(sys.iter().map(|s| s.to_string()));
        a
    };
    let kkw = ["--system", "kkw"];
    let (p, v, log) = session(&serve(&kkw), &connect(&kkw));
    assert_eq!((p, v), (Some(0), Some(0)), "{log}");
    assert!(log.contains("ACCEPTED") && log.contains("KKW"), "{log}");
    let (c, _, _) = peg_verify(&tee, &tr, &["--context", "s1"]);
    assert_eq!(c, 1);
    let (c, out, e) = peg_verify(
        &tee,
        &tr,
        &["--context", "s1", "--allow-session-transcript"],
    );
    assert_eq!(c, 0, "{e}");
    assert!(
        out.contains("NOT evidence") || out.contains("CONSISTENT"),
        "{out}"
    );
    let (c, _, _) = peg_verify(
        &tee,
        &tr,
        &["--context", "s2", "--allow-session-transcript"],
    );
    assert_eq!(c, 1);
    // the verifier fixes the system and the set
    let (p, _, log) = session(&serve(&kkw), &connect(&["--system", "zkbpp"]));
    assert_ne!(p, Some(0), "{log}");
    let (p, _, log) = session(
        &serve(&kkw),
        &connect(&["--system", "kkw", "--kkw-params", "speed"]),
    );
    assert_ne!(p, Some(0), "{log}");
    assert!(log.contains("KKW parameters"), "{log}");
    let speed = ["--system", "kkw", "--kkw-params", "speed"];
    let (p, v, log) = session(&serve(&speed), &connect(&speed));
    assert_eq!((p, v), (Some(0), Some(0)), "{log}");
}

/// `prover sha256 seal --system kkw`: a KKW SHA-256 proof file that `verify` accepts and
/// `open` opens to the preimage; another context does not open; `inspect` names KKW.
#[test]
fn sha256_seals_with_kkw() {
    let (s, o) = (tmp("abc-kkw.seal"), tmp("abc-kkw.open"));
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
            "kkw",
            "--context",
            "c1",
        ],
    );
    assert_eq!(c, 0, "{e}");
    assert!(e.contains("KKW"), "{e}");
    let (c, out, e) = sha256_verify(ABC, &s, &["--context", "c1"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("KKW"), "{out}");
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
    let (c, out, _) = run(VERIFIER, &["sha256", "inspect", &s]);
    assert_eq!(c, 0);
    assert!(out.contains("KKW"), "{out}");
}

/// `prover peg simulate --system zkbpp|kkw`: transcripts made without a solution are refused
/// as evidence (exit 1) and found consistent with --allow-session-transcript.
#[test]
fn peg_simulate_with_both_engines() {
    let tee = puzzle("tee.txt");
    for sys in [
        &["--system", "zkbpp"][..],
        &["--system", "kkw"],
        &["--system", "kkw", "--kkw-params", "speed"],
    ] {
        let out = tmp(&format!("sim-{}.session", sys.len()));
        let mut a = vec!["peg", "simulate", &tee, "-o", &out, "--context", "x"];
        a.extend_from_slice(sys);
        let (c, _, e) = run(PROVER, &a);
        assert_eq!(c, 0, "{e}");
        assert!(e.contains("without any solution"), "{e}");
        let (c, _, _) = peg_verify(&tee, &out, &["--context", "x"]);
        assert_eq!(c, 1);
        let (c, o, e) = peg_verify(
            &tee,
            &out,
            &["--context", "x", "--allow-session-transcript"],
        );
        assert_eq!(c, 0, "{sys:?}: {e}");
        assert!(
            o.contains("CONSISTENT") && o.contains("NOT evidence"),
            "{o}"
        );
    }
}
