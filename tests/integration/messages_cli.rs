//! Verdicts and messages that say what happened (issue 21, items 4 and 5), through the
//! binaries: "try again later" has its own exit status (75) and names the wait; `--json`
//! keeps its one-object contract on argument errors; argument errors are one line; a seal
//! for another ply or game is refused by `replay`; `wall open` honours `--security`.

use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use crate::common;
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
    // One registration an hour from this address: the first is served, the second waits.
    // The one place frees when the server sees the previous client's close (its 2 s
    // first-message deadline at the latest); until then a client is told the address is
    // busy and nothing is charged, so ask again rather than guess how long a loaded machine
    // takes.
    let register = |name: &str, key: &str| {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let (c, _, err) = run(PROVER, &["auth", "register", name, "--key", key, &srv.addr]);
            if c == TRY_LATER
                && err.contains("too many connections")
                && std::time::Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
            break (c, err);
        }
    };
    let (c, err) = register("alice", &key);
    assert_eq!(c, 0, "{err}");
    let bob = keygen(&d, "bob");
    let (c, err) = register("bob", &bob);
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

// ---------- Issue 40, item 2: the messages a newcomer meets, in the user's words ----------

/// A live session where the verifier runs another engine: the prover is told which engine
/// each side runs and the flag that makes them agree, as a usage error (exit 2), not a
/// rejected proof and not two protocol numbers.
#[test]
fn a_session_with_another_engine_names_both_engines_and_the_flag() {
    let srv = Server::spawn(&[
        "peg",
        "serve",
        "tee",
        "--listen",
        "127.0.0.1:0",
        "--once",
        "--system",
        "zkbpp",
    ]);
    let sol = p("puzzles/raw/tee.solution");
    let (c, _, err) = prover_peg("connect", "tee", &sol, &[&srv.addr]);
    assert_eq!(c, 2, "{err}");
    let line = one_line(&err);
    assert!(
        line.contains("ZKB++")
            && line.contains("VOLE-in-the-head")
            && line.contains("--system zkbpp"),
        "{line}"
    );
    assert!(
        !line.contains("REJECTED") && !line.contains("speaks protocol"),
        "{line}"
    );
    let (_, log) = srv.finish();
    assert!(log.contains("this verifier runs ZKB++"), "{log}");
}

/// A TCP client given the HTTP API's address, and an HTTP client given the TCP service's:
/// each recognises the other protocol and names the address form to use (not "a
/// 1347703880-byte message", not "closed the connection without an answer"); the TCP server
/// logs an HTTP request in the same words. Also: a refused device code is shown whole, and
/// `auth login|register --json` print one object.
#[test]
fn the_tcp_and_http_services_name_the_address_form() {
    let d = common::fresh_dir("msg", "proto");
    let key = keygen(&d, "carol");
    let web = common::http::start(d.join("web.db").to_str().unwrap(), &[]);
    let tcp = Server::spawn(&[
        "auth",
        "serve",
        "--db",
        d.join("tcp.db").to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
    ]);
    // framed messages to the HTTP port
    let (c, _, err) = run(
        PROVER,
        &["auth", "register", "carol", "--key", &key, &web.addr],
    );
    assert_eq!(c, 2, "{err}");
    let line = one_line(&err);
    assert!(
        line.contains("answered in HTTP") && line.contains("http://HOST:PORT"),
        "{line}"
    );
    assert!(!line.contains("byte message"), "{line}");
    // HTTP to the TCP port
    let url = format!("http://{}", tcp.addr);
    let (c, _, err) = run(PROVER, &["auth", "register", "carol", "--key", &key, &url]);
    assert_eq!(c, 2, "{err}");
    let line = one_line(&err);
    assert!(
        line.contains("TCP service") && line.contains("HOST:PORT, without http://"),
        "{line}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        tcp.log()
            .contains("an HTTP request reached the TCP service"),
        "{}",
        tcp.log()
    );
    // the right forms work, with one JSON object each
    let wurl = format!("http://{}", web.addr);
    let (c, out, err) = run(
        PROVER,
        &["auth", "register", "carol", "--key", &key, &wurl, "--json"],
    );
    assert_eq!(c, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "registered");
    let (c, out, err) = run(
        PROVER,
        &["auth", "login", "carol", "--key", &key, &wurl, "--json"],
    );
    assert_eq!(c, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "accepted");
    assert_eq!(v["token"].as_str().unwrap().len(), 64, "{v}");
    let (c, out, err) = run(
        PROVER,
        &[
            "auth",
            "whoami",
            &wurl,
            "--token",
            v["token"].as_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(c, 0, "{err}");
    let w: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(w["name"], "carol");
    // a taken name is not a rejected proof
    let (c, out, err) = run(
        PROVER,
        &["auth", "register", "carol", "--key", &key, &wurl, "--json"],
    );
    assert_eq!(c, 2, "{err}");
    assert!(one_line(&err).contains("the name carol is taken"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "error");
    // a device code the server does not know: the server's sentence whole, not cut mid-word
    let (c, out, err) = run(
        PROVER,
        &[
            "auth",
            "login",
            "carol",
            "--key",
            &key,
            &wurl,
            "--code",
            "ABCD-EFGH",
            "--yes",
            "--json",
        ],
    );
    assert_ne!(c, 0, "{err}");
    let line = one_line(&err);
    assert!(
        line.contains("unknown, used or expired code for this name") && !line.contains('…'),
        "{line}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("for this name"),
        "{v}"
    );
    // the login client refuses a connection that cannot happen, with its one object
    let (c, out, _) = run(
        PROVER,
        &[
            "auth",
            "login",
            "carol",
            "--key",
            &key,
            "127.0.0.1:1",
            "--json",
        ],
    );
    assert_eq!(c, 2);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "error");
    drop(web);
    drop(tcp);
}

/// Proofs for another statement are refused with the user's cause first ("made for another
/// statement (another puzzle, position, player, digest or context)"), the engine's detail
/// after: a length that differs (VOLE's masked witness, KKW's auxiliary bits) and a
/// Fiat–Shamir mismatch (another context), every engine.
#[test]
fn rejections_lead_with_the_users_cause() {
    let sol = p("puzzles/raw/tee.solution");
    let cause = "made for another statement (another puzzle, position, player, digest or context)";
    for sys in ["vole", "kkw", "zkbpp"] {
        let proof = tmp(&format!("cause-{sys}.proof"));
        let (c, _, e) = prover_peg(
            "prove",
            "tee",
            &sol,
            &["--system", sys, "--context", "one", "-o", &proof],
        );
        assert_eq!(c, 0, "{e}");
        // another context: the same circuit, another challenge
        let (c, _, e) = run(
            VERIFIER,
            &["peg", "verify", "tee", &proof, "--context", "two"],
        );
        assert_eq!(c, 1, "{sys}: {e}");
        let line = one_line(&e);
        let msg = line.strip_prefix("verifier: REJECTED: ").unwrap_or(line);
        assert!(msg.starts_with(cause), "{sys}: {line}");
        assert!(msg.contains("Fiat–Shamir"), "{sys}: {line}");
        // another puzzle: another circuit, so other lengths (ZKB++ names the digest)
        let (c, _, e) = run(
            VERIFIER,
            &["peg", "verify", "english", &proof, "--context", "one"],
        );
        assert_eq!(c, 1, "{sys}: {e}");
        let line = one_line(&e);
        assert!(line.contains("another"), "{sys}: {line}");
        if sys != "zkbpp" {
            let msg = line.strip_prefix("verifier: REJECTED: ").unwrap_or(line);
            assert!(msg.starts_with(cause), "{sys}: {line}");
            let detail = if sys == "vole" {
                "masked witness"
            } else {
                "online execution"
            };
            assert!(msg.contains(detail), "{sys}: {line}");
        }
    }
}

/// A live sealed-move session reports the engine that ran (VOLE-in-the-head by default), not
/// "KKW executions" for every engine but ZKB++.
#[test]
fn a_live_sealed_move_session_names_its_engine() {
    let pos = p("puzzles/wall/cat-and-mouse-8x8.txt");
    for (sys, name) in [
        (None, "VOLE-in-the-head"),
        (Some("kkw"), "KKW"),
        (Some("zkbpp"), "ZKB++"),
    ] {
        let mut args = vec!["wall", "serve", &pos, "--listen", "127.0.0.1:0", "--once"];
        let mut cargs = vec!["wall", "connect", &pos, "--move", "Cb8"];
        if let Some(s) = sys {
            args.extend(["--system", s]);
            cargs.extend(["--system", s]);
        }
        let mut srv = Server::spawn(&args);
        cargs.push(&srv.addr);
        let (c, _, e) = run(PROVER, &cargs);
        assert_eq!(c, 0, "{e}");
        assert_eq!(srv.child.wait().unwrap().code(), Some(0));
        std::thread::sleep(Duration::from_millis(100));
        let log = srv.log();
        let acc = log
            .lines()
            .find(|l| l.starts_with("ACCEPTED"))
            .unwrap_or_else(|| panic!("{log}"))
            .to_string();
        assert!(acc.contains(name), "{acc}");
        if name != "KKW" {
            assert!(!acc.contains("KKW"), "{acc}");
        }
    }
}

/// The small ones: singular counts, a success line for `--html`, an address without a port,
/// `auth serve` without any address, a missing output folder, the manual page's exit
/// statuses, `peg inspect` on an engine proof saying where the digest is.
#[test]
fn small_messages_say_what_to_do() {
    // one illegal slot: "the free slot", not "the 1 free slots"
    let pos = tmp("one-slot.txt");
    std::fs::write(&pos, "+---+---+\n| .   . |\n+---+---+\npair: 0,0 0,1\n").unwrap();
    let (c, out, e) = run(VERIFIER, &["wall", "render", &pos, "--illegal"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("× marks the free slot where"), "{out}");
    assert!(!out.contains("1 free slots"), "{out}");
    // --html says what it wrote
    let html = tmp("said.html");
    let game = p("puzzles/wall/standard-8x8-game.txt");
    let (c, _, e) = run(VERIFIER, &["wall", "render", &game, "--html", &html]);
    assert_eq!(c, 0, "{e}");
    assert!(one_line(&e).contains(&format!("wrote {html}")), "{e}");
    // HOST without a port
    let sol = p("puzzles/raw/tee.solution");
    let (c, _, e) = prover_peg("connect", "tee", &sol, &["127.0.0.1"]);
    assert_eq!(c, 2, "{e}");
    let line = one_line(&e);
    assert!(line.contains("needs a port: HOST:PORT"), "{line}");
    assert!(!line.contains("invalid socket address"), "{line}");
    let (c, _, e) = run(
        VERIFIER,
        &["peg", "serve", "tee", "--listen", "localhost", "--once"],
    );
    assert_eq!(c, 2, "{e}");
    assert!(one_line(&e).contains("needs a port"), "{e}");
    // auth serve with no address names both kinds
    let db = tmp("noaddr.db");
    let _ = std::fs::remove_file(&db);
    let (c, _, e) = run(VERIFIER, &["auth", "serve", "--db", &db]);
    assert_eq!(c, 2, "{e}");
    let line = one_line(&e);
    assert!(
        line.contains("--http") && line.contains("--listen"),
        "{line}"
    );
    assert!(
        !Path::new(&db).exists(),
        "no database is created for nothing"
    );
    // an output into a folder that does not exist
    let missing = format!("{}/no-such-folder/x.sol", tmp("nofolder"));
    let (c, _, e) = run(PROVER, &["peg", "solve", "tee", "-o", &missing]);
    assert_eq!(c, 2, "{e}");
    let line = one_line(&e);
    assert!(
        line.contains("does not exist") && line.contains("mkdir -p"),
        "{line}"
    );
    assert!(!line.contains("temporary file"), "{line}");
    // the manual page: one entry per exit status, never run together
    for bin in [PROVER, VERIFIER] {
        let (c, roff, e) = run(bin, &["manpage"]);
        assert_eq!(c, 0, "{e}");
        for code in ["0", "1", "2", "75"] {
            assert!(
                roff.contains(&format!(".TP\n\\fB{code}\\fR\n")),
                "{code}:\n{roff}"
            );
        }
        assert!(
            roff.contains(".SH \"EXIT STATUS\"") && roff.contains(".nh"),
            "{roff}"
        );
        let man = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{bin} manpage | MANWIDTH=80 man -l - 2>/dev/null"))
            .output();
        if let Some(o) = man
            .ok()
            .filter(|o| o.status.success() && !o.stdout.is_empty())
        {
            let text = String::from_utf8_lossy(&o.stdout);
            // spaces folded: man justifies lines ("try  again  later")
            let starts: Vec<String> = text
                .lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            for s in ["0 accepted", "2 bad input", "75 try again later"] {
                assert!(starts.iter().any(|l| l.starts_with(s)), "{s}:\n{text}");
            }
        } else {
            crate::common::missing("man (man-db) renders the manual page");
        }
    }
    // peg inspect of an engine proof says where the puzzle's digest is
    let proof = tmp("inspect-vole.proof");
    let (c, _, e) = prover_peg("prove", "tee", &sol, &["-o", &proof]);
    assert_eq!(c, 0, "{e}");
    let (c, out, e) = run(VERIFIER, &["peg", "inspect", &proof]);
    assert_eq!(c, 0, "{e}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("instance:") && l.contains("digest")),
        "{out}"
    );
}
