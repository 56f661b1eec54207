//! Verdicts and messages that say what happened (issue 21, items 4 and 5), through the
//! binaries: "try again later" has its own exit status (75) and names the wait; `--json`
//! keeps its one-object contract on argument errors; argument errors are one line; a seal
//! for another ply or game is refused by `replay`; `wall open` honours `--security`.

use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

mod common;
use common::{p, prover_peg, run, tmp, Server, PROVER, VERIFIER};

/// Exit status of "try again later" (sysexits' EX_TEMPFAIL).
const TRY_LATER: i32 = 75;

fn one_line(err: &str) -> &str {
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "not one line:\n{err}");
    lines[0]
}

/// A peg server that cannot take the prover now (its address already holds the one place it
/// may have; an idle connection is no longer enough to fill a server, it is evicted): the
/// prover is told to come back (75), in words, not "rejected" (1) or "N trailing bytes";
/// once the place is free the same prover is served.
#[test]
fn a_busy_session_server_is_try_again_later() {
    let srv = Server::spawn(&[
        "peg",
        "serve",
        "tee",
        "--listen",
        "127.0.0.1:0",
        "--security",
        "32",
        "--max-sessions",
        "1",
        "--max-per-address",
        "1",
        "--timeout",
        "2",
        "--session-timeout",
        "4",
    ]);
    let hold = TcpStream::connect(&srv.addr).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sol = p("puzzles/raw/tee.solution");
    let (c, _, err) = prover_peg("connect", "tee", &sol, &[&srv.addr, "--security", "32"]);
    assert_eq!(c, TRY_LATER, "{err}");
    let line = one_line(&err);
    assert!(
        line.starts_with("prover: NOT NOW: ") && line.contains("try again "),
        "{line}"
    );
    assert!(
        !line.contains("trailing") && !line.contains("REJECTED"),
        "{line}"
    );
    drop(hold);
    std::thread::sleep(Duration::from_millis(2500));
    let (c, _, err) = prover_peg("connect", "tee", &sol, &[&srv.addr, "--security", "32"]);
    assert_eq!(c, 0, "{err}");
    drop(srv);
}

fn keygen(dir: &Path, name: &str) -> String {
    let key = dir.join(format!("{name}.key"));
    let k = key.to_str().unwrap().to_string();
    let (c, _, e) = run(PROVER, &["auth", "keygen", "--kind", "sha256", "-o", &k]);
    assert_eq!(c, 0, "{e}");
    k
}

/// The login client reads a busy login server's refusal (a session-layer `Reject`, sent
/// before any request is read) as "try again later", and a registration rate limit as the
/// same with the server's wait ("try again in N s"), exit 75 both.
#[test]
fn a_busy_or_rate_limited_login_server_is_try_again_later() {
    let d = common::fresh_dir("msg", "auth");
    let key = keygen(&d, "alice");
    let db = d.join("users.db");
    let srv = Server::spawn(&[
        "auth",
        "serve",
        "--db",
        db.to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
        "--max-sessions",
        "1",
        "--max-per-address",
        "1",
        "--max-registrations-per-hour",
        "1",
        "--timeout",
        "2",
    ]);
    let hold = TcpStream::connect(&srv.addr).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (c, _, err) = run(
        PROVER,
        &["auth", "register", "alice", "--key", &key, &srv.addr],
    );
    assert_eq!(c, TRY_LATER, "{err}");
    let line = one_line(&err);
    assert!(line.contains("too many connections"), "{line}");
    assert!(!line.contains("trailing"), "{line}");
    drop(hold);
    std::thread::sleep(Duration::from_millis(2500));
    // one registration an hour from this address: the first is served, the second waits
    let (c, _, err) = run(
        PROVER,
        &["auth", "register", "alice", "--key", &key, &srv.addr],
    );
    assert_eq!(c, 0, "{err}");
    let bob = keygen(&d, "bob");
    let (c, _, err) = run(
        PROVER,
        &["auth", "register", "bob", "--key", &bob, &srv.addr],
    );
    assert_eq!(c, TRY_LATER, "{err}");
    let line = one_line(&err);
    assert!(
        line.contains("too many registrations") && line.contains("try again in "),
        "{line}"
    );
    // a real refusal stays a refusal: a login with the wrong key (exit 1), once the one
    // slot is free again (the last client's session may still be ending)
    let mut tries = 0;
    let (c, err) = loop {
        let (c, _, err) = run(
            PROVER,
            &["auth", "login", "alice", "--key", &bob, &srv.addr],
        );
        tries += 1;
        let busy = err.contains("server busy") || err.contains("too many connections");
        if c != TRY_LATER || !busy || tries == 20 {
            break (c, err);
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(c, 1, "{err}");
    assert!(one_line(&err).contains("REJECTED"), "{err}");
    drop(srv);
}

/// `--help` states the exit statuses, 75 included.
#[test]
fn help_states_every_exit_status() {
    for bin in [PROVER, VERIFIER] {
        let (c, out, _) = run(bin, &["--help"]);
        assert_eq!(c, 0);
        for s in [
            "0  accepted",
            "1  proof rejected",
            "2  bad input",
            "75 try again later",
        ] {
            assert!(out.contains(s), "{s} in\n{out}");
        }
    }
    let (_, out, _) = run(PROVER, &["--help"]);
    // every engine is named, the default first
    for s in [
        "register",
        "login",
        "whoami",
        "demo",
        "VOLE-in-the-head, ZKB++ or KKW",
    ] {
        assert!(out.contains(s), "{s} in\n{out}");
    }
    let (_, out, _) = run(VERIFIER, &["--help"]);
    assert!(out.contains("serve logins"), "{out}");
    assert!(out.contains("VOLE-in-the-head, ZKB++ or KKW"), "{out}");
}

/// An argument clap refuses is one line with the binary's prefix, exit 2; with `--json`
/// also exactly one JSON object on stdout, whatever the command.
#[test]
fn argument_errors_are_one_line_and_keep_the_json_contract() {
    let sol = p("puzzles/raw/tee.solution");
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            VERIFIER,
            vec!["peg", "verify", "tee", "x.proof", "--security", "abc"],
        ),
        (
            VERIFIER,
            vec!["peg", "verify", "tee", "x.proof", "--security", "0"],
        ),
        (
            VERIFIER,
            vec!["sha256", "verify", "--digest", "00", "x", "--security", "0"],
        ),
        (VERIFIER, vec!["peg", "inspect", "--bogus", "x.proof"]),
        (VERIFIER, vec!["peg", "verify", "tee"]),
        (PROVER, vec!["peg", "solve", "english", "--budget", "-1"]),
        (
            PROVER,
            vec![
                "peg",
                "prove",
                "tee",
                "--solution",
                &sol,
                "--security",
                "abc",
            ],
        ),
    ];
    for (bin, args) in cases {
        let name = if bin == PROVER { "prover" } else { "verifier" };
        for json in [false, true] {
            let mut a = args.clone();
            if json {
                a.push("--json");
            }
            let (c, out, err) = run(bin, &a);
            assert_eq!(c, 2, "{a:?}: {err}");
            let line = one_line(&err);
            assert!(
                line.starts_with(&format!("{name}: error: ")),
                "{a:?}: {line}"
            );
            assert!(!line.contains("Usage:"), "{line}");
            if json {
                assert_eq!(out.lines().count(), 1, "{a:?}: {out}");
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert_eq!(v["verdict"], "error");
                assert_eq!(v["exit"], 2);
                assert!(v["error"].as_str().unwrap().len() > 10);
            } else {
                assert_eq!(out, "", "{a:?}");
            }
        }
    }
    // help and version are not errors
    let (c, out, _) = run(VERIFIER, &["peg", "verify", "--help"]);
    assert_eq!(c, 0);
    assert!(out.contains("--security"));
    let (c, out, _) = run(PROVER, &["--version"]);
    assert_eq!(c, 0);
    assert!(out.starts_with("prover "));
}

fn wall_seal_args(pos: &str, mv: &str, seal: &str, open: &str, rest: &[&str]) -> (i32, String) {
    let mut a = vec![
        "wall",
        "seal",
        pos,
        "--move",
        mv,
        "-o",
        seal,
        "--opening",
        open,
    ];
    a.extend_from_slice(rest);
    let (c, _, e) = run(PROVER, &a);
    (c, e)
}

/// `wall open` refuses a seal weaker than `--security` (default 128), as `verify` does.
#[test]
fn wall_open_honours_security() {
    let pos = p("puzzles/wall/cat-and-mouse-8x8.txt");
    let (seal, open) = (tmp("weak.seal"), tmp("weak.open"));
    let (c, e) = wall_seal_args(
        &pos,
        "Cb8",
        &seal,
        &open,
        &["--security", "8", "--seed", "1"],
    );
    assert_eq!(c, 0, "{e}");
    for cmd in [
        vec!["wall", "verify", &pos, &seal],
        vec!["wall", "open", &pos, &seal, &open],
    ] {
        let (c, _, e) = run(VERIFIER, &cmd);
        assert_eq!(c, 1, "{cmd:?}: {e}");
        assert!(e.contains("bits of security"), "{e}");
        let mut low = cmd.clone();
        low.extend(["--security", "8"]);
        let (c, _, e) = run(VERIFIER, &low);
        assert_eq!(c, 0, "{low:?}: {e}");
    }
}

/// A sealed move in a record is bound to its game and ply: the same position recurring at
/// another ply, or the same history in another game, does not take the seal.
#[test]
fn record_seals_are_bound_to_the_game_and_ply() {
    let d = common::fresh_dir("msg", "plies");
    std::fs::create_dir_all(d.join("seals")).unwrap();
    let game = d.join("game.txt");
    let g = game.to_str().unwrap();
    let head = "[Board \"8x8\"]\n[Variant \"Standard\"]\n[Event \"one\"]\n[Result \"*\"]\n[Seals \"seals\"]\n\n";
    let f = |n: &str| d.join("seals").join(n).to_string_lossy().into_owned();
    // cats out and back: the start position recurs at ply 5, player 1 to move
    let moves = "1. Cb8 Cg8\n2. Ca8 Ch8\n";
    std::fs::write(&game, format!("{head}{moves}")).unwrap();
    let (c, e) = wall_seal_args(g, "Cb8", &f("5.seal"), &f("5.open"), &[]);
    assert_eq!(c, 0, "{e}");
    let (c, out, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 0, "{e}");
    assert!(
        out.contains("move 5 (player 1)") && out.contains("opened: Cb8"),
        "{out}"
    );
    // `wall verify` on the record checks the next ply's binding too
    let (c, _, e) = run(VERIFIER, &["wall", "verify", g, &f("5.seal")]);
    assert_eq!(c, 0, "{e}");
    // the same seal moved to ply 1: same position, same player, another ply
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n2. Ca8 Ch8\n3. Cb8\n")).unwrap();
    std::fs::rename(f("5.seal"), f("1.seal")).unwrap();
    std::fs::rename(f("5.open"), f("1.open")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 1, "{e}");
    assert!(e.contains("move 1") && e.contains("does not verify"), "{e}");
    // back at ply 5, but in another game (another Event tag): refused
    std::fs::rename(f("1.seal"), f("5.seal")).unwrap();
    std::fs::rename(f("1.open"), f("5.open")).unwrap();
    let other = head.replace("\"one\"", "\"two\"");
    std::fs::write(&game, format!("{other}{moves}")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 1, "{e}");
    assert!(e.contains("move 5"), "{e}");
    // the original game still takes it, once its result is in (volatile tags do not count)
    let done = head.replace("[Result \"*\"]", "[Result \"*\"]\n[Annotator \"x\"]");
    std::fs::write(&game, format!("{head}{moves}")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 0, "{e}");
    std::fs::write(&game, format!("{done}{moves}")).unwrap();
    let (c, _, _) = run(VERIFIER, &["wall", "replay", g]);
    assert_eq!(c, 1, "a new identifying tag is another game");
}

/// Messages quote user text as it is (no Rust escapes or type names), and count in words.
#[test]
fn messages_quote_plainly_and_count_in_words() {
    let pos = p("puzzles/wall/cat-and-mouse-8x8.txt");
    // a non-ASCII letter in a board
    let board = tmp("cyrillic.txt");
    std::fs::write(&board, "о o o\no . o\n").unwrap();
    let (c, _, e) = run(PROVER, &["peg", "solve", &board]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("'о'") && !e.contains("\\u{"), "{e}");
    // `x` is not a peg (the boards use o): refused like any other letter
    std::fs::write(&board, "x o o\no . o\n").unwrap();
    let (c, _, e) = run(PROVER, &["peg", "solve", &board]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("'x'"), "{e}");
    // JSON spellings: no serde type names, no escaped quotes
    for (item, bad) in [
        ("[-3, 1, \"R\"]", "expected u64"),
        ("[1, 1, \"X\"]", "\\\""),
    ] {
        let (c, _, e) = run(VERIFIER, &["wall", "notation", &pos, item]);
        assert_eq!(c, 2, "{e}");
        assert!(!e.contains(bad) && !e.contains('`'), "{e}");
    }
    let (c, _, e) = run(VERIFIER, &["wall", "notation", &pos, "{\"cat\": [-3, 1]}"]);
    assert_eq!(c, 2, "{e}");
    assert!(!e.contains("expected u") && !e.contains('`'), "{e}");
}

/// A seal for another position (or player) says so, not "party 2's input share has 28
/// bytes"; both engines.
#[test]
fn a_seal_for_another_position_says_so() {
    let pos = p("puzzles/wall/cat-and-mouse-8x8.txt");
    let other = tmp("other-pos.rec");
    std::fs::write(&other, "[Board \"8x8\"]\n[Result \"*\"]\n\n1. Cb8\n").unwrap();
    for sys in [
        &["--seed", "1"][..],
        &["--seed", "1", "--system", "kkw"][..],
    ] {
        let (seal, open) = (tmp("o.seal"), tmp("o.open"));
        let mut rest = vec!["--security", "16"];
        rest.extend_from_slice(sys);
        let (c, e) = wall_seal_args(&pos, "Cb8", &seal, &open, &rest);
        assert_eq!(c, 0, "{e}");
        let (c, _, e) = run(
            VERIFIER,
            &["wall", "verify", &other, &seal, "--security", "16"],
        );
        assert_eq!(c, 1, "{sys:?}: {e}");
        assert!(e.contains("another statement"), "{e}");
    }
}

/// A proof for another instance whose digest shares its first 8 bytes with the puzzle's:
/// the message shows two digests that visibly differ (it once printed one 16-digit prefix
/// twice).
#[test]
fn a_digest_mismatch_shows_two_different_digests() {
    use zkgames::proof_file::{encode, ProofFile};
    let seed = std::fs::read(p("fuzz/corpus/proof_peg_iso/fs-proof")).unwrap();
    let f = ProofFile::from_bytes(&seed).unwrap();
    let mut proof = zkgames::peg::fs::decode_proof(&f).unwrap();
    proof.instance_digest[20] ^= 1;
    let path = tmp("near-digest.proof");
    std::fs::write(
        &path,
        ProofFile::new(f.protocol, f.mode, encode(&proof)).to_bytes(),
    )
    .unwrap();
    let (c, _, e) = run(
        VERIFIER,
        &["peg", "verify", "tee", &path, "--security", "8"],
    );
    assert_eq!(c, 1, "{e}");
    let line = one_line(&e);
    let after = |k: &str| {
        line.split(k)
            .nth(1)
            .unwrap_or_else(|| panic!("{k} in {line}"))
            .split([',', ')'])
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    let (theirs, ours) = (after("its digest "), after("this puzzle's "));
    assert!(theirs.len() > 16 && theirs != ours, "{line}");
    assert!(line.contains("another puzzle"), "{line}");
}
