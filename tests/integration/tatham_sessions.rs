//! Live Tatham sessions through the binaries: `verifier tatham serve PUZZLE --listen` and
//! `prover tatham connect ADDR SAVEFILE`, on save files the real programs write.

use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use crate::common::Server;
use crate::tatham_sgt::{self, run, PROVER, VERIFIER};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `verifier tatham serve PUZZLE` on a free local port at 32 bits, with `extra`.
fn serve(puzzle: &str, extra: &[&str]) -> Server {
    let mut args = vec![
        "tatham",
        "serve",
        puzzle,
        "--listen",
        "127.0.0.1:0",
        "--security",
        "32",
        "--timeout",
        "20",
        "--session-timeout",
        "60",
    ];
    args.extend_from_slice(extra);
    Server::spawn(&args)
}

fn connect(addr: &str, save: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["tatham", "connect", addr, s(save), "--security", "32"];
    args.extend_from_slice(extra);
    run(PROVER, &args)
}

#[test]
fn tatham_sessions_through_the_binaries() {
    let dir = tatham_sgt::dir("sessions");
    let Some(towers) = tatham_sgt::generate("towers", "5de", 2, &dir) else {
        return;
    };
    let Some(net) = tatham_sgt::generate("net", "5x5", 1, &dir.join("net")) else {
        return;
    };
    let (a, b) = (&towers[0], &towers[1]);
    let srv = serve(s(a), &[]);
    let (c, _, e) = connect(&srv.addr, a, &[]);
    assert_eq!(c, 0, "{e}");
    assert!(
        e.contains("session accepted by the verifier: you solved Towers:5:"),
        "{e}"
    );
    // another puzzle of the same game, and of another game: refused by the verifier
    for other in [b, &net[0]] {
        let (c, _, e) = connect(&srv.addr, other, &[]);
        assert_eq!(c, 1, "{e}");
        assert!(e.contains("another puzzle"), "{e}");
        tatham_sgt::one_line(&e);
    }
    let (c, _, e) = connect(&srv.addr, a, &["--context", "x"]);
    assert_eq!(c, 1, "another context: {e}");
    // an unsolved and an altered save: refused by the prover before it connects (the
    // address below has no listener, so a connection attempt would fail otherwise)
    let save = tatham_sgt::read(a);
    let unsolved = a.with_extension("unsolved");
    tatham_sgt::write_with_moves(&save, &[], &unsolved);
    let mut altered_moves: Vec<(&str, String)> =
        save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    let p = zkgames::tatham::towers::Puzzle::decode(&save.params, &save.desc).unwrap();
    let i = p.free()[0];
    altered_moves.push(("MOVE", format!("R{},{},0", i % p.w, i / p.w)));
    let altered = a.with_extension("altered");
    tatham_sgt::write_with_moves(&save, &altered_moves, &altered);
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    for f in [&unsolved, &altered] {
        for addr in [closed.as_str(), srv.addr.as_str()] {
            let (c, _, e) = connect(addr, f, &[]);
            assert_eq!(c, 2, "{e}");
            assert!(e.contains("not solved: "), "{e}");
            tatham_sgt::one_line(&e);
        }
    }
    // the server keeps serving
    let (c, _, e) = connect(&srv.addr, a, &[]);
    assert_eq!(c, 0, "{e}");
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("stopped: 2 accepted, 3 rejected"), "{log}");
    for (k, v) in &save.records {
        if matches!(k.as_str(), "AUXINFO" | "SOLVE") {
            assert!(!log.contains(v.as_str()), "{k} in the server's log");
        }
    }

    // by game ID, with --once and transcripts on both sides
    let (_, id, _) = run(PROVER, &["tatham", "id", s(a)]);
    let id = id.trim().to_string();
    let server_t = dir.join("server.transcript");
    let prover_t = dir.join("prover.transcript");
    let srv = serve(&id, &["--once", "--transcript", s(&server_t)]);
    let (c, _, e) = connect(&srv.addr, a, &["--transcript", s(&prover_t)]);
    assert_eq!(c, 0, "{e}");
    let (code, log) = srv.finish();
    assert_eq!(code, Some(0), "{log}");
    assert!(
        log.contains("ACCEPTED: the prover solved Towers:5:"),
        "{log}"
    );
    for t in [&server_t, &prover_t] {
        // a transcript is no proof: refused unless asked for, then only "consistent"
        let (c, _, e) = run(
            VERIFIER,
            &["tatham", "verify", s(a), s(t), "--security", "32"],
        );
        assert_eq!(c, 1, "{e}");
        let (c, out, e) = run(
            VERIFIER,
            &[
                "tatham",
                "verify",
                s(a),
                s(t),
                "--security",
                "32",
                "--allow-session-transcript",
            ],
        );
        assert_eq!(c, 0, "{e}");
        assert!(out.starts_with("CONSISTENT"), "{out}");
        let (c, _, e) = run(
            VERIFIER,
            &[
                "tatham",
                "verify",
                s(b),
                s(t),
                "--security",
                "32",
                "--allow-session-transcript",
            ],
        );
        assert_eq!(c, 1, "another puzzle: {e}");
        tatham_sgt::one_line(&e);
        let (c, out, e) = run(VERIFIER, &["tatham", "inspect", s(t)]);
        assert_eq!(c, 0, "{e}");
        assert!(out.contains("interactive session transcript"), "{out}");
    }

    // the puzzle and the session cannot both come from stdin
    let (c, _, e) = run(VERIFIER, &["tatham", "serve", "-", "--stdio"]);
    assert_eq!(c, 2, "{e}");
    tatham_sgt::one_line(&e);

    // a full server turns the prover away: try again later (75)
    let srv = serve(s(a), &["--max-sessions", "1", "--max-per-address", "1"]);
    let hold = TcpStream::connect(&srv.addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (c, _, e) = connect(&srv.addr, a, &[]);
    assert_eq!(c, 75, "{e}");
    drop(hold);
    std::thread::sleep(Duration::from_millis(300));
    let (c, _, e) = connect(&srv.addr, a, &[]);
    assert_eq!(c, 0, "{e}");
    let (code, _) = srv.stop();
    assert_eq!(code, Some(0));
}
