//! Issue 52, items 4–7, through the binaries: one AND-gate count on both sides, circuit files
//! read the same whatever their spacing, invisible characters named, every `--flag` a
//! message names exists, peers' text shown escaped and whole, the prover's `--output`
//! never taken for the verifier's value, refusals naming what the statement binds.

use crate::common;

use std::collections::BTreeSet;
use std::io::{Read as _, Write as _};
use std::net::TcpListener;

use common::{p, run, tmp, PROVER, VERIFIER};

const SHA: &str = "circuits/emp/sha256.txt";

fn sha_inputs() -> (String, String) {
    (
        "0=".to_string() + &"ab".repeat(64),
        "1=".to_string() + &"67".repeat(32),
    )
}

/// The prover's count, the verifier's and `inspect`'s: one number for one statement (the
/// file's AND gates, each of a MAND's), whatever is public.
#[test]
fn one_and_gate_count_for_one_statement() {
    let (msg, state) = sha_inputs();
    let proof = tmp("sha.proof");
    let (code, out, err) = run(
        PROVER,
        &[
            "circuit",
            "prove",
            &p(SHA),
            "--secret",
            &msg,
            "--public",
            &state,
            "-o",
            &proof,
            "--vole-params",
            "speed",
            "--seed",
            "1",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(22573 AND gates)"), "{err}");
    let outv = out.trim().to_string();
    let (code, vout, verr) = run(
        VERIFIER,
        &[
            "circuit",
            "verify",
            &p(SHA),
            &proof,
            "--public",
            &state,
            "--output",
            &outv,
        ],
    );
    assert_eq!(code, 0, "{verr}");
    assert!(vout.contains("22573 AND gates"), "{vout}");
    let (_, iout, _) = run(VERIFIER, &["circuit", "inspect", &p(SHA)]);
    assert!(iout.contains("AND gates:     22573"), "{iout}");
    // the group lines name each group by its number (item 7)
    assert!(
        iout.contains(
            "input groups:  2: group 0 of 512 bits, group 1 of 256 bits (768 bits in all)"
        ),
        "{iout}"
    );
}

/// Issue 52, item 5: a circuit with wires no gate writes gives the same answer padded or
/// not (the same outputs, the same digest).
#[test]
fn padding_gives_the_same_answer() {
    let tight = "2 100\n2 1 1\n1 1\n2 1 0 1 2 AND\n2 1 2 0 99 XOR\n";
    let a = tmp("tight.txt");
    let b = tmp("padded.txt");
    std::fs::write(&a, tight).unwrap();
    std::fs::write(&b, format!("{tight}{}\n", " ".repeat(300))).unwrap();
    let eval = |file: &str, v: &str| {
        let mut x: Vec<String> = vec!["circuit".into(), "eval".into(), file.into()];
        for kv in v.split(' ') {
            x.push("--input".into());
            x.push(kv.into());
        }
        let x: Vec<&str> = x.iter().map(String::as_str).collect();
        run(PROVER, &x)
    };
    for v in ["0=00 1=00", "0=01 1=00", "0=01 1=01", "0=00 1=01"] {
        let (ca, oa, ea) = eval(&a, v);
        let (cb, ob, eb) = eval(&b, v);
        assert_eq!(ca, 0, "{ea}");
        assert_eq!((ca, &oa), (cb, &ob), "{eb}");
    }
    let ia = run(VERIFIER, &["circuit", "inspect", &a]).1;
    let ib = run(VERIFIER, &["circuit", "inspect", &b]).1;
    let digest = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("digest"))
            .unwrap()
            .to_string()
    };
    assert_eq!(digest(&ia), digest(&ib));
}

/// Parser messages name invisible characters (no `\u{..}`, nothing invisible).
#[test]
fn parser_messages_name_invisible_characters() {
    let cases = [
        (
            "\u{feff}2 5\n2 1 1\n1 1\n2 1 0 1 2 AND\n2 1 2 0 4 XOR\n",
            "line 1: the gate count should be a whole number, found a byte-order mark (U+FEFF) at column 1",
        ),
        (
            "2 5\n2 1 1\n1 1\n2 1 0 1\u{a0}2 4 AND\n2 1 2 0 4 XOR\n",
            "line 4: an input wire should be a whole number, found a no-break space (U+00A0) at column 8",
        ),
        (
            "2 5\n2 1 1\n1 1\n2 1 0 1 2\u{0} AND\n2 1 2 0 4 XOR\n",
            "found a NUL character (U+0000) at column 10",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let f = tmp(&format!("invisible{i}.txt"));
        std::fs::write(&f, text).unwrap();
        let (code, _, err) = run(VERIFIER, &["circuit", "inspect", &f]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(want), "got {err}");
        assert!(!err.contains("\\u{") && !err.contains('\u{feff}') && !err.contains('\u{a0}'));
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

/// Item 7: the verifier's `--output G=HEX` given to the prover is refused, and no file of
/// that name appears; `./0=…` is a file name as asked.
#[test]
fn prover_output_that_reads_like_a_value_is_refused() {
    let dir = common::fresh_dir("harden", "output");
    let (msg, state) = sha_inputs();
    let sha = p(SHA);
    let (sha, msg, state) = (sha.as_str(), msg.as_str(), state.as_str());
    let value = "0=5aa5";
    let out = std::process::Command::new(PROVER)
        .current_dir(&dir)
        .args(["circuit", "prove", sha, "--secret", msg, "--public", state])
        .args(["--output", value, "--seed", "1"])
        .output()
        .unwrap();
    let (code, _, err) = common::outcome(out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("reads like an output value"), "{err}");
    assert!(err.contains("./0=5aa5"), "{err}");
    assert!(!dir.join(value).exists());
    let out = std::process::Command::new(PROVER)
        .current_dir(&dir)
        .args(["circuit", "prove", sha, "--secret", msg, "--public", state])
        .args(["--output", "./0=5aa5", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(dir.join(value).exists());
}

/// Item 7: a circuit proof checked against other outputs is refused naming what a circuit
/// statement binds, not puzzles or players.
#[test]
fn circuit_refusals_name_what_the_statement_binds() {
    let (msg, state) = sha_inputs();
    let proof = tmp("bind.proof");
    let (code, out, err) = run(
        PROVER,
        &[
            "circuit",
            "prove",
            &p(SHA),
            "--secret",
            &msg,
            "--public",
            &state,
            "-o",
            &proof,
            "--seed",
            "1",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let real = out.trim().to_string();
    // another output value: the proof's sizes fit, its transcript does not
    let other = format!("0={}", "00".repeat(32));
    assert_ne!(real, other);
    let (code, _, verr) = run(
        VERIFIER,
        &[
            "circuit",
            "verify",
            &p(SHA),
            &proof,
            "--public",
            &state,
            "--output",
            &other,
        ],
    );
    assert_eq!(code, 1, "{verr}");
    assert!(
        !verr.contains("puzzle") && !verr.contains("player"),
        "{verr}"
    );
    assert!(
        verr.contains("another circuit, public input, output or context"),
        "{verr}"
    );
}

/// The `--flag`s in a text: `--` then a lower-case letter, then letters, digits, dashes.
fn flags_in(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < b.len() {
        if &b[i..i + 2] == b"--"
            && b[i + 2].is_ascii_lowercase()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'-'))
        {
            let s = i;
            i += 2;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-') {
                i += 1;
            }
            out.push(text[s..i].trim_end_matches('-').to_string());
        } else {
            i += 1;
        }
    }
    out
}

/// The string literals of a Rust source file (comments skipped; raw strings, char literals
/// and lifetimes told apart), with their line numbers.
fn string_literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0usize, 1usize);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && &b[i..i + 2] != b"*/" {
                    line += (b[i] == b'\n') as usize;
                    i += 1;
                }
                i += 2;
            }
            b'\'' => {
                // a char literal ('"', '\'', 'x') or a lifetime ('a)
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 3;
                } else {
                    let c = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                    if b.get(i + 1 + c) == Some(&b'\'') {
                        i += 2 + c;
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let end = format!("\"{}", "#".repeat(hashes));
                let s = j + 1;
                let e = src[s..].find(&end).map_or(b.len(), |k| s + k);
                out.push((line, src[s..e].to_string()));
                line += src[s..e].matches('\n').count();
                i = e + end.len();
            }
            b'"' => {
                let s = i + 1;
                let mut j = s;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                out.push((line, src[s..j.min(b.len())].to_string()));
                line += src[s..j.min(b.len())].matches('\n').count();
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Item 6: every `--flag` a message of the source names is a flag of `prover` or
/// `verifier` (their clap trees, as their bash completion scripts list them). Flags of
/// other programs that messages quote (cargo's) are listed here by name.
#[test]
fn every_flag_a_message_names_exists() {
    let mut known: BTreeSet<String> = BTreeSet::new();
    for bin in [PROVER, VERIFIER] {
        let (code, script, err) = run(bin, &["completions", "bash"]);
        assert_eq!(code, 0, "{err}");
        known.extend(flags_in(&script));
    }
    assert!(known.contains("--vole-params") && known.contains("--max-gates"));
    // other programs' flags that messages and help texts quote
    let foreign = [
        "--release",
        "--bench",
        "--test",
        "--lib",
        "--bins",
        "--no-fail-fast",
        "--features",
        "--edition",
        "--locked",
        "--nocapture",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--dump-dom",
        "--window-size",
        "--virtual-time-budget",
        "--user-data-dir",
        "--screenshot",
        "--auth",
        "--pgdata",
        "--username",
    ];
    let mut files = Vec::new();
    rust_files(std::path::Path::new(&p("src")), &mut files);
    let mut unknown = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        // the test modules' strings are not messages
        let src = src.split("#[cfg(test)]\nmod tests").next().unwrap();
        for (line, lit) in string_literals(src) {
            for flag in flags_in(&lit) {
                if !known.contains(&flag) && !foreign.contains(&flag.as_str()) {
                    unknown.push(format!("{}:{line}: {flag}", f.display()));
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "messages name flags that do not exist:\n{}",
        unknown.join("\n")
    );
}

/// An HTTP "server" on an ephemeral port that answers one request with `answer`.
fn one_answer(answer: Vec<u8>) -> (String, std::thread::JoinHandle<()>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        if let Ok((mut s, _)) = l.accept() {
            let mut buf = [0u8; 4096];
            let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(5)));
            let _ = s.read(&mut buf);
            let _ = s.write_all(&answer);
        }
    });
    (format!("http://{addr}"), h)
}

/// Item 6: a server's refusal is shown whole (not cut inside a word) and with its bidi
/// overrides and line separators as code points; an answer of 100,000 header lines is not
/// taken for the TCP service.
#[test]
fn peers_text_is_shown_escaped_and_whole() {
    let token = "ab".repeat(32);
    let reason = format!(
        "{} evil\u{202e}gnp.exe\u{2028}second line",
        "a fairly long sentence from the server explaining the refusal in words".repeat(3)
    );
    let body = serde_json::json!({ "error": reason }).to_string();
    let answer = format!(
        "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let (url, h) = one_answer(answer.into_bytes());
    let (code, _, err) = run(PROVER, &["auth", "whoami", &url, "--token", &token]);
    h.join().unwrap();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("evil<U+202E>gnp.exe<U+2028>second line"),
        "{err}"
    );
    assert!(
        !err.contains('\u{202e}') && !err.contains('\u{2028}'),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");

    let mut many = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..100_000 {
        many.extend_from_slice(format!("x-h{i}: v\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    let (url, h) = one_answer(many);
    let (code, _, err) = run(PROVER, &["auth", "whoami", &url, "--token", &token]);
    h.join().unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("TCP service"), "{err}");
    assert!(err.contains("header") || err.contains("head"), "{err}");
}

/// Item 7: a seal checked as another player's says it was made for another statement
/// (naming the player among what it binds), not only that some correction's bits differ.
#[test]
fn wall_verify_as_another_player_names_the_statement() {
    let (pos, seal, open) = (
        p("puzzles/wall/cat-and-mouse-8x8.txt"),
        tmp("w.seal"),
        tmp("w.open"),
    );
    let (c, _, e) = common::wall_seal(&pos, "Cb8.>a7", &["-o", &seal, "--opening", &open]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = common::wall_verify(&pos, &seal, &["--player", "2"]);
    assert_eq!(c, 1, "{e}");
    assert!(
        e.contains("made for another statement") && e.contains("player"),
        "{e}"
    );
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
}

/// Item 7: a key proof checked against another identity or text names what a key proof
/// binds.
#[test]
fn auth_refusals_name_identity_challenge_and_context() {
    let dir = common::fresh_dir("harden", "authbind");
    let key = dir.join("a.key").to_string_lossy().into_owned();
    let other = dir.join("b.key").to_string_lossy().into_owned();
    let proof = dir.join("a.proof").to_string_lossy().into_owned();
    for k in [&key, &other] {
        let (c, _, e) = run(PROVER, &["auth", "keygen", "--kind", "aes128", "-o", k]);
        assert_eq!(c, 0, "{e}");
    }
    let (c, _, e) = run(
        PROVER,
        &[
            "auth",
            "prove",
            "--key",
            &key,
            "--context",
            "t1",
            "-o",
            &proof,
        ],
    );
    assert_eq!(c, 0, "{e}");
    let apub = key.replace(".key", ".pub");
    let bpub = other.replace(".key", ".pub");
    let (c, out, e) = run(
        VERIFIER,
        &["auth", "verify", "--context", "t1", &apub, &proof],
    );
    assert_eq!(c, 0, "{out}{e}");
    for (id, ctx) in [(&bpub, "t1"), (&apub, "t2")] {
        let (c, out, e) = run(VERIFIER, &["auth", "verify", "--context", ctx, id, &proof]);
        assert_eq!(c, 1, "{out}{e}");
        let all = format!("{out}{e}");
        assert!(!all.contains("puzzle") && !all.contains("player"), "{all}");
        assert!(
            all.contains("another identity, challenge or context"),
            "{all}"
        );
    }
}
