//! The peg CLI as a user runs it: exit codes, proof files, interactive sessions over TCP
//! and pipes, bad input.

use std::process::{Command, Stdio};

use crate::common;
use common::{p, peg_verify, pipe_session, prover_peg, run, tmp, Server, PROVER, VERIFIER};

const TEE: &str = "puzzles/raw/tee.txt";
const TEE_SOL: &str = "puzzles/raw/tee.solution";

/// A proof of the paper's tee with the paper's protocol (`--system iso`), whose rounds,
/// instance digest and `--rounds` these tests read.
fn prove_tee(extra: &[&str], out: &str) {
    let rest = [&["-o", out, "--system", "iso"][..], extra].concat();
    let (code, _, err) = prover_peg("prove", &p(TEE), &p(TEE_SOL), &rest);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn prove_verify_inspect_and_exit_codes() {
    let proof = tmp("tee.proof");
    prove_tee(&["--context", "msg"], &proof);
    let (c, out, _) = peg_verify(&p(TEE), &proof, &["--context", "msg"]);
    assert_eq!(c, 0);
    assert!(out.contains("ACCEPTED"), "{out}");
    // wrong context, too much security asked: rejected (1)
    let (c, _, err) = peg_verify(&p(TEE), &proof, &["--context", "other"]);
    assert_eq!(c, 1, "{err}");
    assert!(err.contains("context"));
    let (c, _, err) = peg_verify(&p(TEE), &proof, &["--context", "msg", "--security", "200"]);
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
        let (c, _, err) = peg_verify(&p(TEE), &bad, &["--security", "48"]);
        assert!(c == 1 || c == 2, "byte {i}: exit {c} {err}");
        assert_eq!(err.lines().count(), 1, "one-line error: {err}");
    }
    std::fs::write(&bad, &bytes[..bytes.len() / 3]).unwrap();
    let (c, _, err) = peg_verify(&p(TEE), &bad, &[]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("truncated"), "{err}");
    std::fs::write(&bad, b"hello, this is not a proof at all").unwrap();
    assert_eq!(peg_verify(&p(TEE), &bad, &[]).0, 2);
    // a header claiming an enormous body
    let mut huge = bytes[..21].to_vec();
    huge[13..21].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&bad, &huge).unwrap();
    assert_eq!(peg_verify(&p(TEE), &bad, &[]).0, 2);
    // too few rounds forced at the prover
    prove_tee(&["--rounds", "5"], &bad);
    let (c, _, err) = peg_verify(&p(TEE), &bad, &[]);
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
    let (c, _, err) = peg_verify(&other, &proof, &[]);
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
        let (c, _, err) = prover_peg("prove", &bad, &p(TEE_SOL), &["-o", &tmp("x")]);
        assert_eq!(c, 2, "{text:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // an invalid solution: refused, naming the step
    let sol = tmp("bad.solution");
    std::fs::write(&sol, "1 1 0 1 1\n0 0 1 1 1\n1 1 0 0 0\n1 0 0 0 0\n").unwrap();
    let (c, _, err) = prover_peg("prove", &p(TEE), &sol, &["-o", &tmp("x")]);
    assert_eq!(c, 2);
    assert!(err.contains("step 2"), "{err}");
    // missing file, usage error
    assert_eq!(prover_peg("prove", "/nonexistent", &sol, &[]).0, 2);
    assert_eq!(run(VERIFIER, &["peg", "verify"]).0, 2);
}

/// `verifier peg serve` of the tee board at security 64 on a free local port, with `extra`.
fn spawn_server(extra: &[&str]) -> (Server, String) {
    let tee = p(TEE);
    let mut args = vec![
        "peg",
        "serve",
        &tee,
        "--listen",
        "127.0.0.1:0",
        "--security",
        "64",
    ];
    args.extend_from_slice(extra);
    let server = Server::spawn(&args);
    let addr = server.addr.clone();
    (server, addr)
}

#[test]
fn interactive_session_over_tcp_with_saved_transcript() {
    let tr = tmp("session.zkp");
    let (mut server, addr) = spawn_server(&["--once", "--transcript", &tr]);
    let (c, _, err) = prover_peg(
        "connect",
        &p(TEE),
        &p(TEE_SOL),
        &[&addr, "--security", "64"],
    );
    assert_eq!(c, 0, "{err}");
    assert_eq!(server.child.wait().unwrap().code(), Some(0));
    // a session transcript is not evidence: refused unless asked for explicitly
    let (c, _, err) = peg_verify(&p(TEE), &tr, &["--security", "64"]);
    assert_eq!(c, 1, "{err}");
    assert!(err.contains("not a proof"), "{err}");
    let (c, out, _) = peg_verify(
        &p(TEE),
        &tr,
        &["--security", "64", "--allow-session-transcript"],
    );
    assert_eq!(c, 0);
    assert!(out.contains("NOT evidence"), "{out}");
    let (_, out, _) = run(VERIFIER, &["peg", "inspect", &tr]);
    assert!(out.contains("interactive"), "{out}");

    // a prover asking for less security than the verifier requires is refused
    let (mut server, addr) = spawn_server(&["--once"]);
    let (c, _, err) = prover_peg(
        "connect",
        &p(TEE),
        &p(TEE_SOL),
        &[&addr, "--security", "20"],
    );
    assert_eq!(c, 1, "{err}");
    assert_eq!(server.child.wait().unwrap().code(), Some(1));
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

#[test]
fn simulated_transcript_is_not_accepted_as_evidence() {
    let out = tmp("sim.zkp");
    let (c, _, err) = run(
        PROVER,
        &["peg", "simulate", &p(TEE), "-o", &out, "--security", "32"],
    );
    assert_eq!(c, 0, "{err}");
    // `verify && grant` must not accept a forgery made without any solution
    let (c, _, e) = peg_verify(&p(TEE), &out, &["--security", "32"]);
    assert_eq!(c, 1, "{e}");
    let (c, o, _) = peg_verify(
        &p(TEE),
        &out,
        &["--security", "32", "--allow-session-transcript"],
    );
    assert_eq!(c, 0);
    assert!(
        o.contains("CONSISTENT") && o.contains("NOT evidence"),
        "{o}"
    );
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
    let (c, _, err) = prover_peg(
        "prove",
        &p("puzzles/peg/english.txt"),
        &sol,
        &["-o", &proof, "--context", "hello"],
    );
    assert_eq!(c, 0, "{err}");
    let (c, out, err) = peg_verify(
        &p("puzzles/peg/english.txt"),
        &proof,
        &["--context", "hello"],
    );
    assert_eq!(c, 0, "{err}");
    assert!(
        out.contains("VOLE-in-the-head, 128-bit, size set"),
        "the default engine: {out}"
    );
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
    let (c, _, err) = prover_peg(
        "prove",
        &p("puzzles/peg/english.txt"),
        &bad,
        &["-o", &proof],
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
    let (c, _, err) = prover_peg("prove", &english, &sol, &["-o", &proof, "--system", "mpc"]);
    assert_eq!(c, 0, "{err}");
    let (c, out, err) = peg_verify(&english, &proof, &[]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ZKB++") && out.contains("219 rounds"), "{out}");
    let (c, out, _) = run(VERIFIER, &["peg", "inspect", &proof]);
    assert_eq!(c, 0);
    assert!(out.contains("ZKB++"), "{out}");
    // the iso proof of the same solution is ~10x larger
    let iso = tmp("english-iso.proof");
    assert_eq!(
        prover_peg("prove", &english, &sol, &["-o", &iso, "--system", "iso"]).0,
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
    assert_eq!(peg_verify(&english, &tr, &[]).0, 1);
    let (c, out, _) = peg_verify(&english, &tr, &["--allow-session-transcript"]);
    assert_eq!(c, 0);
    assert!(out.contains("NOT evidence"), "{out}");
}

/// Every output option goes through one helper: regular files are replaced atomically,
/// devices, FIFOs and symlinks are written through, a directory is a clear error, no
/// temporary file is ever left behind, and a solution is created with mode 0600.
#[cfg(unix)]
#[test]
fn output_files_devices_fifos_symlinks_directories() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = std::env::temp_dir().join(format!("zkgames-outputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = |n: &str| dir.join(n).to_string_lossy().into_owned();
    let listing = || {
        let mut v: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    // /dev/null (as root too) stays a character device
    prove_tee(&["--security", "8"], "/dev/null");
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // a symlink is written through and stays a symlink
    std::fs::write(d("real.proof"), b"old").unwrap();
    std::os::unix::fs::symlink("real.proof", d("link.proof")).unwrap();
    prove_tee(&["--security", "8"], &d("link.proof"));
    assert!(std::fs::symlink_metadata(d("link.proof"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read(d("real.proof"))
        .unwrap()
        .starts_with(b"ZKGAMES"));
    // a FIFO's reader gets the bytes (the FIFO is not replaced)
    let fifo = d("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut cat = Command::new("cat")
        .arg(&fifo)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (puzzle, sol) = (p(TEE), p(TEE_SOL));
    let (c, _, err) = prover_peg("prove", &puzzle, &sol, &["-o", &fifo, "--security", "8"]);
    let t0 = std::time::Instant::now();
    while cat.try_wait().unwrap().is_none() {
        if t0.elapsed().as_secs() > 20 {
            cat.kill().unwrap();
            panic!("the FIFO's reader never got end of file");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(c, 0, "{err}");
    let got = cat.wait_with_output().unwrap().stdout;
    assert!(got.starts_with(b"ZKGAMES") && got.len() > 100);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // a directory: exit 2, one clear line, nothing left behind
    std::fs::create_dir(d("adir")).unwrap();
    let before = listing();
    let (c, _, err) = prover_peg("prove", &puzzle, &sol, &["-o", &d("adir")]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("is a directory"), "{err}");
    assert_eq!(listing(), before);
    assert_eq!(std::fs::read_dir(d("adir")).unwrap().count(), 0);
    let (c, _, err) = run(
        VERIFIER,
        &[
            "wall",
            "render",
            &p("puzzles/wall/cat-and-mouse-8x8.txt"),
            "--svg",
            &d("adir"),
        ],
    );
    assert_eq!(c, 2, "{err}");
    assert_eq!(listing(), before);
    // a solution is secret: mode 0600, even when it replaces a world-readable file
    let sol_out = d("tee.sol");
    std::fs::write(&sol_out, b"x").unwrap();
    std::fs::set_permissions(&sol_out, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (c, _, err) = run(PROVER, &["peg", "solve", "tee", "-o", &sol_out, "-q"]);
    assert_eq!(c, 0, "{err}");
    let mode = std::fs::metadata(&sol_out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // a proof replacing a regular file: no temporary left, the content is whole
    prove_tee(&["--security", "8"], &d("plain.proof"));
    prove_tee(&["--security", "8"], &d("plain.proof"));
    let (c, _, err) = peg_verify(&puzzle, &d("plain.proof"), &["--security", "8"]);
    assert_eq!(c, 0, "{err}");
    assert!(
        listing().iter().all(|n| !n.contains(".tmp")),
        "{:?}",
        listing()
    );
}

/// Goals no solution can reach are refused when the puzzle is read (exit 2, no search);
/// `demo` takes the solver's options; a budget of 0 nodes is a usage error.
#[test]
fn impossible_goals_and_solver_options() {
    let board = tmp("empty-goal.txt");
    std::fs::write(
        &board,
        "geometry: square\nstart:\no o o o o o\no o o o o o\no o . o o o\nfinish-pegs: 0\n",
    )
    .unwrap();
    let raw = tmp("empty-goal-raw.txt");
    std::fs::write(&raw, "N 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\npegs 0\n").unwrap();
    let raw_l = tmp("empty-goal-l.txt");
    std::fs::write(&raw_l, "N 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\nl 0 0 0 0 0\n").unwrap();
    for f in [&board, &raw, &raw_l] {
        for cmd in [&["peg", "solve"][..], &["peg", "demo"][..]] {
            let mut args = cmd.to_vec();
            args.push(f);
            let (c, _, err) = run(PROVER, &args);
            assert_eq!(c, 2, "{args:?}: {err}");
            assert!(err.contains("leaves no peg"), "{err}");
        }
    }
    // demo with the solver's options: a tiny budget runs out (exit 1) and says so
    let (c, _, err) = run(
        PROVER,
        &[
            "peg",
            "demo",
            "wiegleb",
            "--budget",
            "50",
            "--no-symmetry",
            "-q",
        ],
    );
    assert_eq!(c, 1, "{err}");
    assert!(
        err.contains("budget") && err.contains("--budget 500"),
        "{err}"
    );
    let (c, _, _) = run(PROVER, &["peg", "demo", "tee", "--budget", "1000", "-q"]);
    assert_eq!(c, 0);
    for cmd in ["solve", "demo"] {
        let (c, _, err) = run(PROVER, &["peg", cmd, "tee", "--budget", "0"]);
        assert_eq!(c, 2, "{err}");
        assert!(err.contains("--budget"), "{err}");
    }
}

/// `simulate` checks the round count and the transcript size before any work, like `prove`:
/// on a 900-hole board it used to run for over 10 minutes towards a transcript no verifier
/// would read.
#[test]
fn simulate_refuses_transcripts_over_the_limits_up_front() {
    for side in [30usize, 127] {
        let board = tmp(&format!("square{side}.txt"));
        let mut text = String::from("geometry: square\nstart:\n");
        for y in 0..side {
            let row: String = (0..side)
                .map(|x| {
                    if (y, x) == (side / 2, side / 2) {
                        '.'
                    } else {
                        'o'
                    }
                })
                .collect();
            text += &row;
            text.push('\n');
        }
        text += "finish-pegs: 1\n";
        std::fs::write(&board, text).unwrap();
        let (c, _, err) = run(
            PROVER,
            &[
                "peg",
                "simulate",
                &board,
                "-o",
                &tmp("sim-big"),
                "--system",
                "iso",
            ],
        );
        assert_eq!(c, 2, "{err}");
        assert!(
            err.contains("session transcript") && err.contains("lower --security"),
            "{err}"
        );
        assert!(!std::path::Path::new(&tmp("sim-big")).exists());
        // the default engine refuses the circuit up front too
        let (c, _, err) = run(PROVER, &["peg", "simulate", &board, "-o", &tmp("sim-big")]);
        assert_eq!(c, 2, "{err}");
        assert!(err.contains("limit of the circuit engines"), "{err}");
        assert!(!std::path::Path::new(&tmp("sim-big")).exists());
    }
    // an honest size passes, and the estimate is not far off the real transcript
    let out = tmp("sim-english.zkp");
    let (c, _, err) = run(
        PROVER,
        &["peg", "simulate", "english", "-o", &out, "--system", "iso"],
    );
    assert_eq!(c, 0, "{err}");
    let (c, _, err) = run(
        VERIFIER,
        &[
            "peg",
            "verify",
            "english",
            &out,
            "--allow-session-transcript",
        ],
    );
    assert_eq!(c, 0, "{err}");
}

/// Parsers: a byte-order mark is ignored everywhere, raw instances refuse repeated keys,
/// stdin can be named once, and errors quote at most a short excerpt of the input, never
/// Rust debug text.
#[test]
fn parsers_bom_duplicates_stdin_and_short_errors() {
    const BOM: &str = "\u{feff}";
    // a board, a raw instance, a move list, a matrix, a wall position: all with a BOM
    let board = tmp("bom-board.txt");
    let text = std::fs::read_to_string(p("puzzles/peg/english.txt")).unwrap();
    std::fs::write(&board, format!("{BOM}{text}")).unwrap();
    let sol = tmp("bom.sol");
    let (c, _, err) = run(PROVER, &["peg", "solve", &board, "-o", &sol, "-q"]);
    assert_eq!(c, 0, "{err}");
    let moves = std::fs::read_to_string(&sol).unwrap();
    std::fs::write(&sol, format!("{BOM}{moves}")).unwrap();
    let proof = tmp("bom.proof");
    let (c, _, err) = prover_peg("prove", &board, &sol, &["-o", &proof, "--security", "8"]);
    assert_eq!(c, 0, "{err}");
    let (c, _, err) = run(
        VERIFIER,
        &["peg", "verify", "english", &proof, "--security", "8"],
    );
    assert_eq!(c, 0, "the BOM board is the English board: {err}");
    let raw = tmp("bom-raw.txt");
    let raw_text = std::fs::read_to_string(p(TEE)).unwrap();
    std::fs::write(&raw, format!("{BOM}{raw_text}")).unwrap();
    let matrix = tmp("bom-matrix.sol");
    let m = std::fs::read_to_string(p(TEE_SOL)).unwrap();
    std::fs::write(&matrix, format!("{BOM}{m}")).unwrap();
    let (c, _, err) = prover_peg(
        "prove",
        &raw,
        &matrix,
        &["-o", "/dev/null", "--security", "8"],
    );
    assert_eq!(c, 0, "{err}");
    let wall = tmp("bom-wall.txt");
    let w = std::fs::read_to_string(p("puzzles/wall/cat-and-mouse-8x8.txt")).unwrap();
    std::fs::write(&wall, format!("{BOM}{w}")).unwrap();
    let (c, _, err) = run(VERIFIER, &["wall", "check", &wall]);
    assert_eq!(c, 0, "{err}");

    // repeated keys in a raw instance
    for (text, line) in [
        (
            "N 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\nf 1 1 0 1 1\nl 1 0 0 0 0\n",
            "line 4",
        ),
        (
            "N 5\nt 1 2 3\nt 2 4 5\nf 1 1 0 1 1\nl 1 0 0 0 0\npegs 1\n",
            "line 5",
        ),
    ] {
        std::fs::write(&raw, text).unwrap();
        let (c, _, err) = run(PROVER, &["peg", "solve", &raw]);
        assert_eq!(c, 2, "{err}");
        assert!(err.contains(&format!("already given on {line}")), "{err}");
    }

    // stdin named twice: refused before reading anything
    for args in [
        &["peg", "verify", "-", "-"][..],
        &["peg", "prove", "-", "--solution", "-"][..],
    ] {
        let bin = if args[1] == "verify" {
            VERIFIER
        } else {
            PROVER
        };
        let (c, _, err) = run(bin, args);
        assert_eq!(c, 2, "{err}");
        assert!(err.contains("only one argument can be `-`"), "{err}");
    }

    // a 2 MB solution line, a 2 MB unknown key: short messages
    let long = tmp("long.sol");
    std::fs::write(&long, "z".repeat(2 << 20)).unwrap();
    let (c, _, err) = prover_peg("prove", "english", &long, &["-o", "/dev/null"]);
    assert_eq!(c, 2, "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 300, "{} bytes of error", err.len());
    std::fs::write(&raw, format!("{} 5\n", "k".repeat(2 << 20))).unwrap();
    let (c, _, err) = run(PROVER, &["peg", "solve", &raw]);
    assert_eq!(c, 2);
    assert!(err.len() < 300, "{} bytes of error", err.len());
    std::fs::write(
        &wall,
        format!("{{\"rows\": 2, \"{}\": 1}}", "q".repeat(2 << 20)),
    )
    .unwrap();
    let (c, _, err) = run(VERIFIER, &["wall", "check", &wall]);
    assert_eq!(c, 2);
    assert!(err.len() < 300 && err.contains("line 1"), "{err}");

    // a truncated body: words, not `UnexpectedEnd { additional: 1 }`
    prove_tee(&["--security", "8"], &proof);
    let mut bytes = std::fs::read(&proof).unwrap();
    bytes.truncate(bytes.len() - 1);
    let n = (bytes.len() - 21) as u64;
    bytes[13..21].copy_from_slice(&n.to_le_bytes());
    std::fs::write(&proof, &bytes).unwrap();
    let (c, _, err) = peg_verify(&p(TEE), &proof, &["--security", "8"]);
    assert_eq!(c, 2, "{err}");
    assert!(
        err.contains("ends too early") && !err.contains('{'),
        "{err}"
    );
}

/// Help: exit codes at the top level, catalog names wherever a puzzle file is taken, user
/// names of the proof systems and security in bits in every report; shell completions and
/// man pages generated from the CLI definition.
#[test]
fn help_names_security_completions_and_man_pages() {
    for bin in [PROVER, VERIFIER] {
        let (c, out, _) = run(bin, &["--help"]);
        assert_eq!(c, 0);
        assert!(
            out.contains("Exit status") && out.contains("2  bad input") && out.contains("english"),
            "{out}"
        );
    }
    for (bin, cmd) in [
        (PROVER, "prove"),
        (PROVER, "simulate"),
        (PROVER, "connect"),
        (PROVER, "solve"),
        (VERIFIER, "verify"),
        (VERIFIER, "serve"),
    ] {
        let (c, out, _) = run(bin, &["peg", cmd, "--help"]);
        assert_eq!(c, 0);
        assert!(out.contains("catalog name"), "{cmd}: {out}");
    }
    // user-facing names and one way of stating security
    let proof = tmp("names.proof");
    for (system, name) in [("iso", "isomorphism protocol"), ("mpc", "ZKB++")] {
        let (puzzle, sol) = (p(TEE), p(TEE_SOL));
        let (c, _, err) = prover_peg("prove", &puzzle, &sol, &["-o", &proof, "--system", system]);
        assert_eq!(c, 0, "{err}");
        assert!(
            err.contains(name) && err.contains("bits of security"),
            "{err}"
        );
        assert!(
            !err.contains("Iso") && !err.contains("Mpc") && !err.contains("2^-"),
            "{err}"
        );
        let (c, out, _) = peg_verify(&puzzle, &proof, &[]);
        assert_eq!(c, 0);
        assert!(
            out.contains("bits of security") && !out.contains("soundness"),
            "{out}"
        );
        let (c, out, _) = run(VERIFIER, &["peg", "inspect", &proof]);
        assert_eq!(c, 0);
        assert!(out.contains("bits of security") || system == "iso", "{out}");
    }
    let (c, out, err) = run(PROVER, &["peg", "demo", "tee", "--system", "mpc", "-q"]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ZKB++") && !out.contains("Mpc"), "{out}");
    assert!(
        err.contains("bits of security") && !err.contains("Mpc"),
        "{err}"
    );
    // completions for every shell, man pages
    for bin in [PROVER, VERIFIER] {
        let name = std::path::Path::new(bin)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
            let (c, out, err) = run(bin, &["completions", shell]);
            assert_eq!(c, 0, "{err}");
            assert!(out.contains(&name) && out.contains("peg"), "{shell}");
        }
        let (c, out, _) = run(bin, &["manpage"]);
        assert_eq!(c, 0);
        assert!(out.contains(".TH") && out.contains("peg"), "{out}");
        let dir = tmp(&format!("man-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (c, _, err) = run(bin, &["manpage", "--dir", &dir]);
        assert_eq!(c, 0, "{err}");
        let page = std::fs::read_to_string(format!("{dir}/{name}-peg-verify.1"))
            .or_else(|_| std::fs::read_to_string(format!("{dir}/{name}-peg-prove.1")))
            .unwrap();
        assert!(
            page.contains(".TH") && page.contains("catalog name"),
            "{page}"
        );
    }
    assert_eq!(run(PROVER, &["completions", "tcsh"]).0, 2);
}
