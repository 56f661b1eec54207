//! The peg CLI as a user runs it: exit codes, proof files, interactive sessions over TCP
//! and pipes, bad input.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const PROVER: &str = env!("CARGO_BIN_EXE_prover");
const VERIFIER: &str = env!("CARGO_BIN_EXE_verifier");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
fn p(rel: &str) -> String {
    root().join(rel).to_string_lossy().into_owned()
}
fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("zkgames-peg-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name).to_string_lossy().into_owned()
}

fn run(bin: &str, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(bin).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const TEE: &str = "puzzles/raw/tee.txt";
const TEE_SOL: &str = "puzzles/raw/tee.solution";

fn prove_tee(extra: &[&str], out: &str) {
    let (puzzle, sol) = (p(TEE), p(TEE_SOL));
    let mut args = vec!["peg", "prove", &puzzle, "--solution", &sol, "-o", out];
    args.extend_from_slice(extra);
    let (code, _, err) = run(PROVER, &args);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn prove_verify_inspect_and_exit_codes() {
    let proof = tmp("tee.proof");
    prove_tee(&["--context", "msg"], &proof);
    let (c, out, _) = run(
        VERIFIER,
        &["peg", "verify", &p(TEE), &proof, "--context", "msg"],
    );
    assert_eq!(c, 0);
    assert!(out.contains("ACCEPTED"), "{out}");
    // wrong context, too much security asked: rejected (1)
    let (c, _, err) = run(
        VERIFIER,
        &["peg", "verify", &p(TEE), &proof, "--context", "other"],
    );
    assert_eq!(c, 1, "{err}");
    assert!(err.contains("context"));
    let (c, _, err) = run(
        VERIFIER,
        &[
            "peg",
            "verify",
            &p(TEE),
            &proof,
            "--context",
            "msg",
            "--security",
            "200",
        ],
    );
    assert_eq!(c, 1);
    assert!(err.contains("too few rounds"), "{err}");
    // inspect
    let (c, out, _) = run(VERIFIER, &["peg", "inspect", &proof]);
    assert_eq!(c, 0);
    assert!(
        out.contains("rounds:") && out.contains("instance:") && out.contains("Fiat"),
        "{out}"
    );
    // stdin
    let o = Command::new(VERIFIER)
        .args(["peg", "verify", &p(TEE), "-", "--context", "msg"])
        .stdin(std::fs::File::open(&proof).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn tampered_truncated_and_garbage_proofs() {
    let proof = tmp("tee2.proof");
    prove_tee(&["--security", "48"], &proof);
    let bytes = std::fs::read(&proof).unwrap();
    let bad = tmp("bad.proof");
    // a byte flipped in the body: rejected or refused, never accepted, never a crash
    for i in [25usize, bytes.len() / 2, bytes.len() - 1] {
        let mut t = bytes.clone();
        t[i] ^= 0x10;
        std::fs::write(&bad, &t).unwrap();
        let (c, _, err) = run(
            VERIFIER,
            &["peg", "verify", &p(TEE), &bad, "--security", "48"],
        );
        assert!(c == 1 || c == 2, "byte {i}: exit {c} {err}");
        assert_eq!(err.lines().count(), 1, "one-line error: {err}");
    }
    std::fs::write(&bad, &bytes[..bytes.len() / 3]).unwrap();
    let (c, _, err) = run(VERIFIER, &["peg", "verify", &p(TEE), &bad]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("truncated"), "{err}");
    std::fs::write(&bad, b"hello, this is not a proof at all").unwrap();
    assert_eq!(run(VERIFIER, &["peg", "verify", &p(TEE), &bad]).0, 2);
    // a header claiming an enormous body
    let mut huge = bytes[..21].to_vec();
    huge[13..21].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&bad, &huge).unwrap();
    assert_eq!(run(VERIFIER, &["peg", "verify", &p(TEE), &bad]).0, 2);
    // too few rounds forced at the prover
    prove_tee(&["--rounds", "5"], &bad);
    let (c, _, err) = run(VERIFIER, &["peg", "verify", &p(TEE), &bad]);
    assert_eq!(c, 1);
    assert!(err.contains("too few rounds"));
}

#[test]
fn proof_for_another_instance_is_rejected() {
    let proof = tmp("tee3.proof");
    prove_tee(&[], &proof);
    let other = tmp("other.txt");
    // same board, another final position (peg count variant)
    std::fs::write(&other, "N 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\npegs 1\n").unwrap();
    let (c, _, err) = run(VERIFIER, &["peg", "verify", &other, &proof]);
    assert_eq!(c, 1, "{err}");
    assert!(err.contains("another instance"), "{err}");
}

#[test]
fn bad_puzzles_and_solutions_exit_2() {
    let bad = tmp("bad.txt");
    for text in [
        "N 5\nt 1 2 3\nt 3 2 1\nf 1 1 0 1 1\nl 1 0 0 0 0\n",
        "garbage",
        "N 3\nt 1 2 9\nf 1 1 0\npegs 1\n",
        "",
    ] {
        std::fs::write(&bad, text).unwrap();
        let (c, _, err) = run(
            PROVER,
            &[
                "peg",
                "prove",
                &bad,
                "--solution",
                &p(TEE_SOL),
                "-o",
                &tmp("x"),
            ],
        );
        assert_eq!(c, 2, "{text:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // an invalid solution: refused, naming the step
    let sol = tmp("bad.solution");
    std::fs::write(&sol, "1 1 0 1 1\n0 0 1 1 1\n1 1 0 0 0\n1 0 0 0 0\n").unwrap();
    let (c, _, err) = run(
        PROVER,
        &["peg", "prove", &p(TEE), "--solution", &sol, "-o", &tmp("x")],
    );
    assert_eq!(c, 2);
    assert!(err.contains("step 2"), "{err}");
    // missing file, usage error
    assert_eq!(
        run(
            PROVER,
            &["peg", "prove", "/nonexistent", "--solution", &sol]
        )
        .0,
        2
    );
    assert_eq!(run(VERIFIER, &["peg", "verify"]).0, 2);
}

fn spawn_server(extra: &[&str]) -> (std::process::Child, String) {
    let mut child = Command::new(VERIFIER)
        .args([
            "peg",
            "serve",
            &p(TEE),
            "--listen",
            "127.0.0.1:0",
            "--security",
            "64",
        ])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut r = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let addr = line
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    std::thread::spawn(move || std::io::copy(&mut r, &mut std::io::sink()));
    (child, addr)
}

#[test]
fn interactive_session_over_tcp_with_saved_transcript() {
    let tr = tmp("session.zkp");
    let (mut server, addr) = spawn_server(&["--transcript", &tr]);
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "connect",
            &p(TEE),
            "--solution",
            &p(TEE_SOL),
            &addr,
            "--security",
            "64",
        ],
    );
    assert_eq!(c, 0, "{err}");
    assert_eq!(server.wait().unwrap().code(), Some(0));
    let (c, out, _) = run(
        VERIFIER,
        &["peg", "verify", &p(TEE), &tr, "--security", "64"],
    );
    assert_eq!(c, 0);
    assert!(out.contains("NOT transferable"), "{out}");
    let (_, out, _) = run(VERIFIER, &["peg", "inspect", &tr]);
    assert!(out.contains("interactive"), "{out}");

    // a prover asking for less security than the verifier requires is refused
    let (mut server, addr) = spawn_server(&[]);
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "connect",
            &p(TEE),
            "--solution",
            &p(TEE_SOL),
            &addr,
            "--security",
            "20",
        ],
    );
    assert_eq!(c, 1, "{err}");
    assert_eq!(server.wait().unwrap().code(), Some(1));
}

#[test]
fn interactive_session_over_pipes() {
    let (puzzle, sol) = (p(TEE), p(TEE_SOL));
    let (pr, vo) = pipe_session(
        &["peg", "serve", &puzzle, "--stdio", "--security", "40"],
        &[
            "peg",
            "connect",
            &puzzle,
            "--solution",
            &sol,
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
    assert!(String::from_utf8_lossy(&vo.stderr).contains("ACCEPTED"));
}

/// Runs `verifier ARGS` and `prover ARGS` wired stdout-to-stdin both ways; returns both outputs.
fn pipe_session(
    verifier: &[&str],
    prover: &[&str],
) -> (std::process::Output, std::process::Output) {
    let mut v = Command::new(VERIFIER)
        .args(verifier)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (to_v, from_v) = (v.stdin.take().unwrap(), v.stdout.take().unwrap());
    let pr = Command::new(PROVER)
        .args(prover)
        .stdin(Stdio::from(from_v))
        .stdout(Stdio::from(to_v))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (pr, v.wait_with_output().unwrap())
}

#[test]
fn simulated_transcript_is_accepted_only_as_interactive() {
    let out = tmp("sim.zkp");
    let (c, _, err) = run(
        PROVER,
        &["peg", "simulate", &p(TEE), "-o", &out, "--security", "32"],
    );
    assert_eq!(c, 0, "{err}");
    let (c, o, _) = run(
        VERIFIER,
        &["peg", "verify", &p(TEE), &out, "--security", "32"],
    );
    assert_eq!(c, 0);
    assert!(o.contains("NOT transferable"), "{o}");
}

#[test]
fn solve_prove_verify_english_board_end_to_end() {
    let sol = tmp("english.solution");
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "solve",
            &p("puzzles/peg/english.txt"),
            "-o",
            &sol,
            "-q",
        ],
    );
    assert_eq!(c, 0, "{err}");
    let text = std::fs::read_to_string(&sol).unwrap();
    assert_eq!(text.split_whitespace().count(), 31, "{text}");
    let proof = tmp("english.proof");
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "prove",
            &p("puzzles/peg/english.txt"),
            "--solution",
            &sol,
            "-o",
            &proof,
            "--context",
            "hello",
        ],
    );
    assert_eq!(c, 0, "{err}");
    let (c, out, err) = run(
        VERIFIER,
        &[
            "peg",
            "verify",
            &p("puzzles/peg/english.txt"),
            &proof,
            "--context",
            "hello",
        ],
    );
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("2795 rounds"), "{out}");
    // the European central game is impossible: said clearly, exit 1
    let e = tmp("euro-central.txt");
    std::fs::write(
        &e,
        "name: euro-central\ngeometry: square\nstart:\n    o o o\n  o o o o o\no o o o o o o\no o o . o o o\no o o o o o o\n  o o o o o\n    o o o\nfinish:\n    . . .\n  . . . . .\n. . . . . . .\n. . . o . . .\n. . . . . . .\n  . . . . .\n    . . .\n",
    )
    .unwrap();
    let (c, _, err) = run(PROVER, &["peg", "solve", &e, "-q"]);
    assert_eq!(c, 1, "{err}");
    assert!(err.contains("impossible"), "{err}");
    // a move list with an illegal move: the prover refuses and names it
    let bad = tmp("english-bad.solution");
    let mut moves: Vec<&str> = text.split_whitespace().collect();
    // move 5 repeats move 4, whose starting hole is empty by then
    moves[4] = moves[3];
    std::fs::write(&bad, moves.join("\n")).unwrap();
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "prove",
            &p("puzzles/peg/english.txt"),
            "--solution",
            &bad,
            "-o",
            &proof,
        ],
    );
    assert_eq!(c, 2);
    assert!(err.contains("move 4") || err.contains("move 5"), "{err}");
}

#[test]
fn demo_runs_the_main_job() {
    let (c, out, err) = run(PROVER, &["peg", "demo", &p("puzzles/peg/tee.txt")]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("proved and verified"), "{out}");
    assert!(err.contains("ACCEPTED"), "{err}");
}

#[test]
fn mpc_system_proofs_and_sessions() {
    let english = p("puzzles/peg/english.txt");
    let sol = tmp("english-mpc.solution");
    assert_eq!(
        run(PROVER, &["peg", "solve", &english, "-o", &sol, "-q"]).0,
        0
    );
    let proof = tmp("english-mpc.proof");
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "prove",
            &english,
            "--solution",
            &sol,
            "-o",
            &proof,
            "--system",
            "mpc",
        ],
    );
    assert_eq!(c, 0, "{err}");
    let (c, out, err) = run(VERIFIER, &["peg", "verify", &english, &proof]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ZKB++") && out.contains("219 rounds"), "{out}");
    let (c, out, _) = run(VERIFIER, &["peg", "inspect", &proof]);
    assert_eq!(c, 0);
    assert!(out.contains("ZKB++"), "{out}");
    // the iso proof of the same solution is ~10x larger
    let iso = tmp("english-iso.proof");
    assert_eq!(
        run(
            PROVER,
            &["peg", "prove", &english, "--solution", &sol, "-o", &iso]
        )
        .0,
        0
    );
    let (a, b) = (
        std::fs::metadata(&proof).unwrap().len(),
        std::fs::metadata(&iso).unwrap().len(),
    );
    assert!(a * 5 < b, "mpc {a} bytes vs iso {b} bytes");
    // live session over pipes with the MPC system
    let tr = tmp("mpc-session.zkp");
    let (pr, vo) = pipe_session(
        &[
            "peg",
            "serve",
            &english,
            "--stdio",
            "--system",
            "mpc",
            "--transcript",
            &tr,
        ],
        &[
            "peg",
            "connect",
            &english,
            "--solution",
            &sol,
            "-",
            "--system",
            "mpc",
        ],
    );
    assert_eq!(
        pr.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&pr.stderr)
    );
    assert_eq!(
        vo.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&vo.stderr)
    );
    let (c, out, _) = run(VERIFIER, &["peg", "verify", &english, &tr]);
    assert_eq!(c, 0);
    assert!(out.contains("not transferable"), "{out}");
}
