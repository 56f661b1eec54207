//! The `sha256` command-line contract: exit status 0 accepted, 1 rejected, 2 bad input;
//! `-` for stdin/stdout; the security achieved is printed.

use std::io::Write;
use std::process::{Command, Stdio};

const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

use crate::common;
use common::{prover, tmp, verifier};

/// Exit code and everything the command printed (stderr, then stdout).
fn status(c: &mut Command) -> (i32, String) {
    let (code, out, err) = common::run_cmd(c);
    (code, err + &out)
}

#[test]
fn prove_verify_and_exit_codes() {
    let p = tmp("abc.proof");
    let (c, err) = status(prover().args([
        "sha256",
        "prove",
        "--preimage-hex",
        "616263",
        "-o",
        &p,
        "--seed",
        "3",
        "--system",
        "zkbpp",
    ]));
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("warning: --seed"));
    let (c, err) = status(verifier().args(["sha256", "verify", "--digest", ABC, &p]));
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("128.1 bits"), "{err}");
    // wrong digest: rejected
    let wrong = format!("{}0", &ABC[..63]);
    let (c, err) = status(verifier().args(["sha256", "verify", "--digest", &wrong, &p]));
    assert_eq!(c, 1, "{err}");
    assert!(err.contains("REJECTED"));
    // more security than the proof has: rejected
    let (c, _) =
        status(verifier().args(["sha256", "verify", "--digest", ABC, &p, "--security", "129"]));
    assert_eq!(c, 1);
    // other context: rejected
    let (c, _) =
        status(verifier().args(["sha256", "verify", "--digest", ABC, &p, "--context", "x"]));
    assert_eq!(c, 1);
    // bad input: exit 2
    for args in [
        vec!["sha256", "verify", "--digest", "zz", p.as_str()],
        vec!["sha256", "verify", "--digest", "00", p.as_str()],
        vec!["sha256", "verify", "--digest", ABC, "/nonexistent/file"],
        vec![
            "sha256",
            "verify",
            "--digest",
            ABC,
            p.as_str(),
            "--security",
            "0",
        ],
    ] {
        let (c, err) = status(verifier().args(&args));
        assert_eq!(c, 2, "{args:?}: {err}");
    }
    let junk = tmp("junk");
    std::fs::write(&junk, b"definitely not a proof").unwrap();
    assert_eq!(
        status(verifier().args(["sha256", "verify", "--digest", ABC, &junk])).0,
        2
    );
    assert_eq!(
        status(prover().args(["sha256", "prove", "--preimage-hex", "6g"])).0,
        2
    );
    let long = "00".repeat(248);
    assert_eq!(
        status(prover().args(["sha256", "prove", "--preimage-hex", &long, "-o", &junk])).0,
        2
    );
    // a flipped byte in the file: rejected or bad input, never accepted
    let mut bytes = std::fs::read(&p).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 4;
    let t = tmp("flipped");
    std::fs::write(&t, &bytes).unwrap();
    let (c, _) = status(verifier().args(["sha256", "verify", "--digest", ABC, &t]));
    assert_eq!(c, 1);
    // inspect
    let o = verifier().args(["sha256", "inspect", &p]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("rounds:     219"));
}

#[test]
fn stdin_and_stdout() {
    let o = prover()
        .args([
            "sha256",
            "prove",
            "--preimage-hex",
            "",
            "--security",
            "40",
            "--context",
            "c",
            "--system",
            "zkbpp",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    let mut child = verifier()
        .args([
            "sha256",
            "verify",
            "--digest",
            empty,
            "-",
            "--security",
            "40",
            "--context",
            "c",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&o.stdout).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("69 rounds"));
}

/// The secret preimage can come from a file or stdin (not only the command line, where `ps`
/// and shell history see it); exactly one source is required.
#[test]
fn preimage_from_a_file_or_stdin() {
    let f = tmp("secret.bin");
    std::fs::write(&f, b"abc").unwrap();
    let p = tmp("abc-file.proof");
    let (c, err) = status(prover().args([
        "sha256",
        "prove",
        "--preimage-file",
        &f,
        "-o",
        &p,
        "--security",
        "16",
    ]));
    assert_eq!(c, 0, "{err}");
    assert!(
        err.contains(ABC),
        "the prover names the digest it proved: {err}"
    );
    let (c, err) =
        status(verifier().args(["sha256", "verify", "--digest", ABC, &p, "--security", "16"]));
    assert_eq!(c, 0, "{err}");
    // from stdin
    let mut child = prover()
        .args([
            "sha256",
            "prove",
            "--preimage-file",
            "-",
            "-o",
            &p,
            "--security",
            "16",
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"abc").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (c, err) =
        status(verifier().args(["sha256", "verify", "--digest", ABC, &p, "--security", "16"]));
    assert_eq!(c, 0, "{err}");
    // none, both, too long: usage errors
    let (c, _) = status(prover().args(["sha256", "prove", "-o", &p]));
    assert_eq!(c, 2);
    let (c, _) = status(prover().args([
        "sha256",
        "prove",
        "--preimage-hex",
        "00",
        "--preimage-file",
        &f,
        "-o",
        &p,
    ]));
    assert_eq!(c, 2);
    std::fs::write(&f, [7u8; 248]).unwrap();
    let (c, err) = status(prover().args(["sha256", "prove", "--preimage-file", &f, "-o", &p]));
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("247"), "{err}");
}
