//! Sealed moves through the binaries: seal, verify, open, inspect, live sessions over TCP
//! and pipes, the demo, and bad input.

use crate::common;
use common::{p, pipe_session, run, tmp, wall_seal, wall_verify, Server, PROVER, VERIFIER};

const POS: &str = "puzzles/wall/cat-and-mouse-8x8.txt";

#[test]
fn seal_verify_open_inspect() {
    let (pos, seal, open) = (p(POS), tmp("a.seal"), tmp("a.open"));
    let (c, _, e) = wall_seal(
        &pos,
        "Cb8.>a7",
        &["-o", &seal, "--opening", &open, "--context", "g1"],
    );
    assert_eq!(c, 0, "{e}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&open).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let size = std::fs::metadata(&seal).unwrap().len();
    assert!(size < 4_000, "a VOLE seal (the default) of {size} bytes");
    let (c, out, e) = wall_verify(&pos, &seal, &["--context", "g1"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("ACCEPTED") && out.contains("seal "), "{out}");
    assert!(
        !out.contains("Cb8"),
        "verify must not reveal the move: {out}"
    );
    let (c, out, _) = run(
        VERIFIER,
        &["wall", "open", &pos, &seal, &open, "--context", "g1"],
    );
    assert_eq!(c, 0);
    assert!(
        out.contains("played Cb8.>a7") && out.contains("to-move: 2"),
        "{out}"
    );
    let (c, out, _) = run(
        VERIFIER,
        &[
            "wall",
            "open",
            &pos,
            &seal,
            &open,
            "--context",
            "g1",
            "--json",
        ],
    );
    assert_eq!(c, 0);
    assert!(
        out.starts_with('{') && out.contains("\"move\":\"Cb8.>a7\""),
        "{out}"
    );
    let (c, out, _) = run(VERIFIER, &["wall", "inspect", &seal]);
    assert_eq!(c, 0);
    assert!(
        out.contains("VOLE-in-the-head") && out.contains("128.0 bits of security"),
        "{out}"
    );
    // another context, another player, fewer rounds than required
    assert_eq!(wall_verify(&pos, &seal, &["--context", "g2"]).0, 1);
    assert_eq!(
        run(
            VERIFIER,
            &["wall", "open", &pos, &seal, &open, "--context", "g2"]
        )
        .0,
        1
    );
    assert_ne!(
        wall_verify(&pos, &seal, &["--context", "g1", "--player", "2"]).0,
        0
    );
    assert_eq!(
        wall_verify(&pos, &seal, &["--context", "g1", "--security", "130"]).0,
        1
    );
    // an opening of another seal
    let (seal2, open2) = (tmp("b.seal"), tmp("b.open"));
    assert_eq!(
        wall_seal(
            &pos,
            ">d5",
            &["-o", &seal2, "--opening", &open2, "--context", "g1"]
        )
        .0,
        0
    );
    assert_eq!(
        run(
            VERIFIER,
            &["wall", "open", &pos, &seal, &open2, "--context", "g1"]
        )
        .0,
        1
    );
    // tampered seals and openings: never exit 0
    let s = std::fs::read(&seal).unwrap();
    let o = std::fs::read(&open).unwrap();
    let t = tmp("t.bin");
    for i in (0..s.len()).step_by(s.len() / 40) {
        let mut b = s.clone();
        b[i] ^= 0x10;
        std::fs::write(&t, &b).unwrap();
        let c = wall_verify(&pos, &t, &["--context", "g1"]).0;
        assert!(c == 1 || c == 2, "seal byte {i}: exit {c}");
    }
    for i in 0..o.len() {
        let mut b = o.clone();
        b[i] ^= 0x01;
        std::fs::write(&t, &b).unwrap();
        let c = run(
            VERIFIER,
            &["wall", "open", &pos, &seal, &t, "--context", "g1"],
        )
        .0;
        assert!(c == 1 || c == 2, "opening byte {i}: exit {c}");
    }
}

#[test]
fn illegal_and_malformed_moves_write_nothing() {
    let pos = p(POS);
    let (seal, open) = (tmp("x.seal"), tmp("x.open"));
    // the pocket's only opening: a wall there cuts player 2's mouse off
    let (c, _, e) = wall_seal(&pos, "^h2", &["-o", &seal, "--opening", &open]);
    assert_eq!(c, 1, "{e}");
    assert!(e.contains("illegal move") && e.lines().count() == 1, "{e}");
    assert!(!std::path::Path::new(&seal).exists() && !std::path::Path::new(&open).exists());
    for bad in ["Cb8.>a7.>b7", "Zz9", "Ci1", "^a8", ""] {
        let (c, _, e) = wall_seal(&pos, bad, &["-o", &seal, "--opening", &open]);
        assert!(c == 1 || c == 2, "{bad}: {c} {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // a finished game takes no move
    let (c, _, e) = run(
        PROVER,
        &[
            "wall",
            "seal",
            &p("puzzles/wall/standard-8x8-game.txt"),
            "--move",
            "---",
            "-o",
            &seal,
            "--opening",
            &open,
        ],
    );
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("game is over"), "{e}");
    // the opening is secret: never to stdout
    assert_eq!(
        run(
            PROVER,
            &[
                "wall",
                "seal",
                &pos,
                "--move",
                "---",
                "-o",
                &seal,
                "--opening",
                "-"
            ]
        )
        .0,
        2
    );
}

#[test]
fn live_sessions_over_tcp_and_pipes() {
    let pos = p(POS);
    // pipes
    let (pr, vo) = pipe_session(
        &["wall", "serve", &pos, "--stdio", "--security", "40"],
        &[
            "wall",
            "connect",
            &pos,
            "--move",
            "Cb8.>a7",
            "-",
            "--security",
            "40",
        ],
    );
    assert_eq!(
        pr.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&pr.stderr)
    );
    assert_eq!(vo.status.code(), Some(0));
    let log = String::from_utf8_lossy(&vo.stderr);
    assert!(log.contains("ACCEPTED") && !log.contains("Cb8"), "{log}");
    // TCP, --once, and an illegal move never reaches the wire
    let mut srv = Server::spawn(&["wall", "serve", &pos, "--listen", "127.0.0.1:0", "--once"]);
    let addr = srv.addr.clone();
    let (c, _, e) = run(PROVER, &["wall", "connect", &pos, "--move", "^h2", &addr]);
    assert_eq!(c, 1, "{e}");
    let (c, _, e) = run(PROVER, &["wall", "connect", &pos, "--move", ">d5", &addr]);
    assert_eq!(c, 0, "{e}");
    assert_eq!(srv.child.wait().unwrap().code(), Some(0));
}

#[test]
fn demo_runs_after_setup() {
    let (c, out, e) = run(PROVER, &["wall", "demo", "--moves", "6"]);
    assert_eq!(c, 0, "{e}");
    assert!(
        out.contains("ok: 6 moves sealed, verified and opened"),
        "{out}"
    );
    assert!(out.contains("final position"), "{out}");
}

/// A record carries its sealed moves by reference (`[Seals "DIR"]`, K.seal and K.open for
/// ply K): replay verifies each seal against the position before it and each opening against
/// the recorded move, and reports a sealed, unopened last move as adjourned.
#[test]
fn records_with_sealed_moves() {
    let d = std::path::PathBuf::from(tmp("rec"));
    std::fs::create_dir_all(d.join("seals")).unwrap();
    let game = d.join("game.txt");
    let head = "[Board \"8x8\"]\n[Variant \"Standard\"]\n[Result \"*\"]\n[Seals \"seals\"]\n\n";
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n")).unwrap();
    let g = game.to_str().unwrap();
    let sd = d.join("seals");
    let f = |n: &str| sd.join(n).to_string_lossy().into_owned();
    // ply 3, player 1: sealed, then opened and recorded
    let (c, _, e) = wall_seal(g, "Cc8", &["-o", &f("3.seal"), "--opening", &f("3.open")]);
    assert_eq!(c, 0, "{e}");
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n2. Cc8\n")).unwrap();
    // ply 4, player 2: sealed, not yet opened
    let (c, _, e) = wall_seal(g, "Cf8", &["-o", &f("4.seal"), "--opening", &tmp("4.open")]);
    assert_eq!(c, 0, "{e}");
    let (c, out, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 0, "{e}");
    assert!(
        out.contains("move 3 (player 1): sealed") && out.contains("opened: Cc8"),
        "{out}"
    );
    assert!(
        out.contains("move 4 (player 2)") && out.contains("adjourned"),
        "{out}"
    );
    // the opening arrives: the game goes on with it
    std::fs::copy(tmp("4.open"), f("4.open")).unwrap();
    let (c, out, _) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 0);
    assert!(
        out.contains("opened: Cf8 (played after the record)") && out.contains("to-move: 1"),
        "{out}"
    );
    // a record that plays another move than the seal opens to
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n2. Cb7\n")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 1, "{e}");
    assert!(e.contains("move 3") && e.contains("opens to Cc8"), "{e}");
    // an opening of another seal
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n2. Cc8\n")).unwrap();
    std::fs::copy(f("4.open"), f("3.open")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 1, "{e}");
    // a seal checked against the wrong position (moved to another ply)
    std::fs::rename(f("3.seal"), f("1.seal")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 1, "{e}");
    assert!(e.contains("move 1"), "{e}");
}
