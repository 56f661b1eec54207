//! The engines through the binaries, in loops over the engines with named parameter sets
//! (KKW and VOLE-in-the-head) and each set: SHA-256 and peg proofs, sealed Wall moves; then
//! what KKW alone is tested for here (against ZKB++, sessions, seals); the verifiers
//! reading every engine's files, exit statuses (0 accepted, 1 rejected, 2 bad
//! input), `inspect`, and the `zkbpp`/`mpc` names of ZKB++.

pub const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

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
pub fn sha256_verify(digest: &str, proof: &str, rest: &[&str]) -> (i32, String, String) {
    run(
        VERIFIER,
        &[&["sha256", "verify", "--digest", digest, proof][..], rest].concat(),
    )
}

/// A catalog puzzle's file.
pub fn puzzle(name: &str) -> String {
    format!("{}/puzzles/peg/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Every engine with named parameter sets, each set: proved, accepted under its name (its
/// parameters under `-v`), rejected for another context, digest or a higher level,
/// inspected, and a flipped byte never accepted.
#[test]
fn sha256_proofs_with_every_parameter_set() {
    let sets: [(&str, [(&str, &str); 2]); 2] = [
        ("kkw", [("size", "N = 32"), ("speed", "N = 16")]),
        ("vole", [("size", "τ = 11"), ("speed", "τ = 17")]),
    ];
    for (engine, sets) in sets {
        let label = if engine == "kkw" {
            "KKW"
        } else {
            "VOLE-in-the-head"
        };
        for (set, marker) in sets {
            let p = tmp(&format!("abc-{engine}-{set}.proof"));
            let flag = format!("--{engine}-params");
            let (c, _, err) = sha256_prove(
                "616263",
                &[
                    "--system",
                    engine,
                    &flag,
                    set,
                    "--context",
                    "login 42",
                    "-o",
                    &p,
                ],
            );
            assert_eq!(c, 0, "{err}");
            // the set by name, the parameters under --verbose only
            let named = format!("{label}, 128-bit, {set} set");
            assert!(err.contains(&named) && !err.contains(marker), "{err}");
            let (c, out, err) = sha256_verify(ABC, &p, &["--context", "login 42"]);
            assert_eq!(c, 0, "{err}");
            assert!(out.starts_with("ACCEPTED") && out.contains(&named), "{out}");
            let (c, out, err) = sha256_verify(ABC, &p, &["-v", "--context", "login 42"]);
            assert_eq!(c, 0, "{err}");
            assert!(out.starts_with("ACCEPTED") && out.contains(marker), "{out}");
            // wrong context, wrong digest, more security than the parameters give: rejected
            let (c, _, err) = sha256_verify(ABC, &p, &[]);
            assert_eq!(c, 1, "{err}");
            assert!(err.contains("REJECTED"), "{err}");
            let wrong = format!("{}0", &ABC[..63]);
            let (c, _, _) = sha256_verify(&wrong, &p, &["--context", "login 42"]);
            assert_eq!(c, 1);
            let (c, _, err) =
                sha256_verify(ABC, &p, &["--context", "login 42", "--security", "130"]);
            assert_eq!(c, 1, "{err}");
            assert!(err.contains("bits of security"), "{engine} {set}: {err}");
            // inspect names the engine and the parameters
            let (c, out, _) = run(VERIFIER, &["sha256", "inspect", &p]);
            assert_eq!(c, 0);
            assert!(out.contains(label) && out.contains(marker), "{out}");
            // a flipped byte in the body: rejected or refused, never accepted
            let mut b = std::fs::read(&p).unwrap();
            let i = b.len() - 500;
            b[i] ^= 0x10;
            let q = tmp(&format!("abc-{engine}-{set}-bad.proof"));
            std::fs::write(&q, &b).unwrap();
            let (c, _, err) = sha256_verify(ABC, &q, &["--context", "login 42"]);
            assert!(c == 1 || c == 2, "{c} {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
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

/// Peg proofs with each engine of parameter sets: proved, accepted, rejected for another
/// context or puzzle, inspected with the parameters, bounded in size, `--rounds` refused.
#[test]
fn peg_proofs_with_every_set_engine() {
    let english = puzzle("english.txt");
    let sol = tmp("english-sets.solution");
    assert_eq!(
        run(PROVER, &["peg", "solve", &english, "-o", &sol, "-q"]).0,
        0
    );
    for (engine, label, marker, bound) in [
        ("kkw", "KKW", "N = 32", 40_000),
        ("vole", "VOLE", "τ = 11", 10_000),
    ] {
        let pf = tmp(&format!("english-{engine}-sets.proof"));
        let (c, _, err) = prover_peg("prove", &english, &sol, &["--system", engine, "-o", &pf]);
        assert_eq!(c, 0, "{err}");
        assert!(err.contains(label), "{err}");
        let (c, out, err) = peg_verify(&english, &pf, &[]);
        assert_eq!(c, 0, "{err}");
        assert!(out.contains("ACCEPTED") && out.contains(label), "{out}");
        let (c, _, _) = peg_verify(&english, &pf, &["--context", "x"]);
        assert_eq!(c, 1);
        let (c, out, _) = run(VERIFIER, &["peg", "inspect", &pf]);
        assert_eq!(c, 0);
        assert!(out.contains(label) && out.contains(marker), "{out}");
        // another puzzle: rejected
        let (c, _, _) = peg_verify(&puzzle("tee.txt"), &pf, &[]);
        assert!(c == 1 || c == 2);
        let n = std::fs::metadata(&pf).unwrap().len();
        assert!(n <= bound, "{engine} English proof {n} bytes");
        // --rounds is for the round-based systems only
        let (c, _, err) = prover_peg(
            "prove",
            &english,
            &sol,
            &["--system", engine, "--rounds", "9"],
        );
        assert_eq!(c, 2, "{err}");
    }
}

/// KKW against ZKB++ on the same solution, KKW's speed set and the demo.
#[test]
fn peg_kkw_against_zkbpp_speed_set_and_demo() {
    let english = puzzle("english.txt");
    let sol = tmp("english.solution");
    assert_eq!(
        run(PROVER, &["peg", "solve", &english, "-o", &sol, "-q"]).0,
        0
    );
    let kkw = tmp("english-kkw.proof");
    let (c, _, err) = prover_peg("prove", &english, &sol, &["--system", "kkw", "-o", &kkw]);
    assert_eq!(c, 0, "{err}");
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

pub const WALL_POS: &str = "puzzles/wall/cat-and-mouse-8x8.txt";

fn wall_pos() -> String {
    format!("{}/{WALL_POS}", env!("CARGO_MANIFEST_DIR"))
}

/// `prover wall seal` with each engine of parameter sets (KKW, VOLE-in-the-head) and each
/// set: the seal records the engine; `verifier wall verify/open/inspect` read it (and still
/// read ZKB++ seals); such seals are smaller than ZKB++'s; a tampered seal is rejected; the
/// opening of a ZKB++ seal does not open the other, nor conversely.
#[test]
fn wall_seals_with_every_set_engine() {
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
    for (engine, label, marker, size_bound, set) in [
        ("kkw", "KKW", "N = ", 25_000, "size"),
        ("kkw", "KKW", "N = ", u64::MAX, "speed"),
        ("vole", "VOLE", "τ = ", 4096, "size"),
        ("vole", "VOLE", "τ = ", u64::MAX, "speed"),
    ] {
        let flag = format!("--{engine}-params");
        let name = format!("{engine}-{set}");
        let (s, o, n) = seal(&["--system", engine, &flag, set], &name);
        assert!(n * 2 < zn, "{label} {set} {n} bytes, ZKB++ {zn}");
        assert!(n <= size_bound, "{label} {set}: {n} bytes");
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
        assert!(out.contains(label) && out.contains(marker), "{out}");
        // a flipped byte in the body
        let mut b = std::fs::read(&s).unwrap();
        let i = b.len() / 2;
        b[i] ^= 1;
        let t = tmp(&format!("{name}-tampered.seal"));
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

/// `prover sha256 seal` with each engine of parameter sets: a SHA-256 proof file that
/// `verify` accepts and `open` opens to the preimage; another context does not open;
/// `inspect` names the engine.
#[test]
fn sha256_seals_with_every_set_engine() {
    for (engine, label) in [("kkw", "KKW"), ("vole", "VOLE")] {
        let (s, o) = (
            tmp(&format!("abc-{engine}.seal")),
            tmp(&format!("abc-{engine}.open")),
        );
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
                engine,
                "--context",
                "c1",
            ],
        );
        assert_eq!(c, 0, "{e}");
        assert!(e.contains(label), "{e}");
        let (c, out, e) = sha256_verify(ABC, &s, &["--context", "c1"]);
        assert_eq!(c, 0, "{e}");
        assert!(out.contains(label), "{out}");
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
        assert!(out.contains(label), "{out}");
    }
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
