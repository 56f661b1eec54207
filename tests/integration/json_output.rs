//! `--json` through the binaries: every run prints exactly one JSON object on stdout, whose
//! `verdict` agrees with the exit code, on success, on a rejected proof and on bad input.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

fn bin(name: &str) -> &'static str {
    match name {
        "prover" => common::PROVER,
        _ => common::VERIFIER,
    }
}

/// Runs `bin args`; returns (exit code, the one object on stdout).
fn run(b: &str, args: &[&str]) -> (i32, Value) {
    let out = Command::new(bin(b))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{b} {args:?}: expected one line on stdout, got {stdout:?}; stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(lines[0])
        .unwrap_or_else(|e| panic!("{b} {args:?}: not JSON ({e}): {}", lines[0]));
    assert!(v.is_object(), "{v}");
    let code = out.status.code().unwrap();
    let expected = match v["verdict"]
        .as_str()
        .unwrap_or_else(|| panic!("{b} {args:?}: no verdict in {v}"))
    {
        "rejected" => 1,
        "error" => 2,
        _ => 0,
    };
    assert_eq!(code, expected, "{b} {args:?}: exit {code} with {v}");
    if code != 0 {
        assert_eq!(v["exit"], code);
        assert!(!v["error"].as_str().unwrap().is_empty());
    }
    (code, v)
}

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(common::tmp(name))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn peg_solve_prove_verify_inspect() {
    let sol = tmp("english.sol");
    let (_, v) = run(
        "prover",
        &["peg", "solve", "english", "--json", "-o", s(&sol)],
    );
    assert_eq!(v["verdict"], "solved");
    assert_eq!(v["puzzle"], "english");
    assert!(v["solution"].is_null(), "written to the file, not echoed");
    let (_, v) = run("prover", &["peg", "solve", "tee", "--json"]);
    assert_eq!(v["solution"].as_str().unwrap().lines().count(), 3);
    let (_, v) = run("prover", &["peg", "solve", "tee", "--count-all", "--json"]);
    assert_eq!(v["verdict"], "counted");
    assert_eq!(v["reachable"], 4);
    let (_, v) = run(
        "prover",
        &["peg", "solve", "wiegleb", "--budget", "1", "--json"],
    );
    assert_eq!(v["verdict"], "rejected", "the budget runs out");

    for system in ["iso", "zkbpp", "kkw", "vole"] {
        let proof = tmp(&format!("english-{system}.proof"));
        let st = Command::new(bin("prover"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "peg",
                "prove",
                "english",
                "--solution",
                s(&sol),
                "--system",
                system,
            ])
            .args(["--security", "40", "-o", s(&proof)])
            .status()
            .unwrap();
        assert!(st.success());
        // `verifier peg verify english PROOF --security 40 EXTRA… --json`
        let verify = |extra: &[&str]| {
            let head = ["peg", "verify", "english", s(&proof), "--security", "40"];
            run("verifier", &[&head[..], extra, &["--json"]].concat()).1
        };
        let v = verify(&[]);
        assert_eq!(v["verdict"], "accepted", "{system}: {v}");
        assert_eq!(v["evidence"], true);
        assert!(v["security_bits"].as_f64().unwrap() >= 40.0, "{v}");
        let v = verify(&["--context", "x"]);
        assert_eq!(v["verdict"], "rejected", "{system}: another context");
        let (_, v) = run(
            "verifier",
            &["peg", "verify", "wiegleb", s(&proof), "--json"],
        );
        assert_ne!(v["verdict"], "accepted", "{system}: another puzzle");
        let (_, v) = run("verifier", &["peg", "inspect", s(&proof), "--json"]);
        assert_eq!(v["mode"], "non-interactive");
        let len = std::fs::metadata(&proof).unwrap().len();
        assert_eq!(v["file_bytes"], len);
        assert_eq!(v["file_sha256"].as_str().unwrap().len(), 64);
    }
    let (_, v) = run(
        "verifier",
        &["peg", "verify", "english", "no-such-file", "--json"],
    );
    assert_eq!(v["verdict"], "error");
}

#[test]
fn sha256_verify_and_inspect() {
    let proof = tmp("abc.proof");
    let st = Command::new(bin("prover"))
        .args([
            "sha256",
            "prove",
            "--preimage-hex",
            "616263",
            "--security",
            "40",
            "--system",
            "zkbpp",
        ])
        .args(["-o", s(&proof)])
        .status()
        .unwrap();
    assert!(st.success());
    let d = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    // `verifier sha256 verify --digest DIGEST PROOF --security 40 --json`
    let verify = |digest: &str| {
        let args = [
            "sha256",
            "verify",
            "--digest",
            digest,
            s(&proof),
            "--security",
            "40",
            "--json",
        ];
        run("verifier", &args).1
    };
    let v = verify(d);
    assert_eq!(v["verdict"], "accepted");
    assert_eq!(v["system"], "ZKB++");
    assert_eq!(v["digest"], d);
    let other = "00".repeat(32);
    let v = verify(&other);
    assert_eq!(v["verdict"], "rejected");
    let (_, v) = run("verifier", &["sha256", "inspect", s(&proof), "--json"]);
    assert_eq!(v["protocol_id"], 3);
    assert_eq!(v["details"]["preimage"], "3 bytes");
    let (_, v) = run(
        "verifier",
        &["sha256", "verify", "--digest", "zz", s(&proof), "--json"],
    );
    assert_eq!(v["verdict"], "error");
    // the default engine: VOLE-in-the-head, protocol 11
    let vole = tmp("abc-vole.proof");
    let st = Command::new(bin("prover"))
        .args([
            "sha256",
            "prove",
            "--preimage-hex",
            "616263",
            "--security",
            "40",
        ])
        .args(["-o", s(&vole)])
        .status()
        .unwrap();
    assert!(st.success());
    let (_, v) = run(
        "verifier",
        &[
            "sha256",
            "verify",
            "--digest",
            d,
            s(&vole),
            "--security",
            "40",
            "--json",
        ],
    );
    assert_eq!(v["verdict"], "accepted", "{v}");
    assert_eq!(v["system"], "VOLE");
    let (_, v) = run("verifier", &["sha256", "inspect", s(&vole), "--json"]);
    assert_eq!(v["protocol_id"], 11);
}

#[test]
fn wall_commands() {
    let pos = "puzzles/wall/cat-and-mouse-8x8.txt";
    let (_, v) = run("verifier", &["wall", "check", pos, "--json"]);
    assert_eq!(v["verdict"], "valid");
    let (_, v) = run(
        "verifier",
        &[
            "wall",
            "check",
            "puzzles/wall/invalid-boxed-mouse.txt",
            "--json",
        ],
    );
    assert_eq!(v["verdict"], "rejected");
    let (_, v) = run(
        "verifier",
        &["wall", "check", pos, "--move", "Cb8.>d4", "--json"],
    );
    assert_eq!(v["verdict"], "legal");
    assert_eq!(v["move"], "Cb8.>d4");
    assert_eq!(v["position"]["to_move"], 2);
    let (_, v) = run(
        "verifier",
        &["wall", "check", pos, "--move", "^h2", "--json"],
    );
    assert_eq!(v["verdict"], "rejected");
    assert!(v["error"].as_str().unwrap().contains("^h2"), "{v}");
    let (_, v) = run(
        "verifier",
        &["wall", "check", pos, "--move", "Zz9", "--json"],
    );
    assert_eq!(v["verdict"], "error");
    let (_, v) = run(
        "verifier",
        &[
            "wall",
            "replay",
            "puzzles/wall/standard-8x8-game.txt",
            "--json",
        ],
    );
    assert_eq!(v["plies"], 17);
    assert_eq!(v["result"], "1-0");
    let (_, v) = run(
        "verifier",
        &["wall", "analyze", "nonexistent.txt", "--json"],
    );
    assert_eq!(v["verdict"], "error");

    let seal = tmp("move.seal");
    let open = tmp("move.open");
    let st = Command::new(bin("prover"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["wall", "seal", pos, "--move", "Cb8.>a7", "--security", "40"])
        .args(["-o", s(&seal), "--opening", s(&open)])
        .status()
        .unwrap();
    assert!(st.success());
    let (_, v) = run(
        "verifier",
        &[
            "wall",
            "verify",
            pos,
            s(&seal),
            "--security",
            "40",
            "--json",
        ],
    );
    assert_eq!(v["verdict"], "accepted");
    let (_, v) = run("verifier", &["wall", "verify", pos, s(&seal), "--json"]);
    assert_eq!(v["verdict"], "rejected", "fewer rounds than 128 bits need");
    let (_, v) = run(
        "verifier",
        &[
            "wall",
            "open",
            pos,
            s(&seal),
            s(&open),
            "--security",
            "40",
            "--json",
        ],
    );
    assert_eq!(v["verdict"], "opened");
    assert_eq!(v["move"], "Cb8.>a7");
    let (_, v) = run("verifier", &["wall", "inspect", s(&seal), "--json"]);
    assert_eq!(v["protocol_id"], 12, "a VOLE seal, the default engine");
}

/// `verifier … | head`: a reader that goes away ends the run quietly (status 141, as a
/// shell reports SIGPIPE), never with a panic message.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::process::Stdio;
    let proof = tmp("pipe.proof");
    let sol = tmp("pipe.sol");
    let ok = |c: &mut Command| assert!(c.status().unwrap().success());
    ok(Command::new(bin("prover")).args(["peg", "solve", "english", "-q", "-o", s(&sol)]));
    ok(Command::new(bin("prover")).args([
        "peg",
        "prove",
        "english",
        "--solution",
        s(&sol),
        "--system",
        "iso",
        "-o",
        s(&proof),
    ]));
    // an isomorphism proof: `inspect --all` prints about 550 KB, far more than a pipe holds,
    // so the write fails however fast the child runs
    let mut child = Command::new(bin("verifier"))
        .args(["peg", "inspect", "--all", s(&proof)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader is gone before the first line
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}
