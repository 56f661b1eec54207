//! `--system vole` through the binaries: what only VOLE-in-the-head tests here (peg
//! sessions and simulated transcripts, Wall Game sessions); its proofs and seals with each
//! parameter set are in the loops over the engines of `engines_cli`.

use super::engines_cli::{puzzle, WALL_POS};
use crate::common;
use common::{peg_verify, pipe_session, run, tmp, PROVER};

/// VOLE peg sessions (proofs: `engines_cli::peg_proofs_with_every_set_engine`) and simulations.
#[test]
fn peg_vole_sessions_and_simulations() {
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

/// A sealed-move session with VOLE over pipes: accepted, the move never shown.
#[test]
fn wall_sessions_with_vole() {
    let pos = format!("{}/{WALL_POS}", env!("CARGO_MANIFEST_DIR"));
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
