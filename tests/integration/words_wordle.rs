//! Wordle through the binaries: seal, answer, check, open; a lying host is refused; tampered
//! files; malformed dictionaries.

use crate::common;
use common::{run, tmp, PROVER, VERIFIER};

fn seal(word: &str, name: &str, extra: &[&str]) -> (String, String) {
    let s = tmp(&format!("{name}.seal"));
    let o = tmp(&format!("{name}.open"));
    let mut args = vec![
        "wordle",
        "seal",
        "--word",
        word,
        "-o",
        &s,
        "--opening",
        &o,
        "--seed",
        "1",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(PROVER, &args);
    assert_eq!(code, 0, "{out}{err}");
    (s, o)
}

fn answer(open: &str, guess: &str, name: &str, extra: &[&str]) -> (String, String) {
    let a = tmp(&format!("{name}.proof"));
    let mut args = vec!["wordle", "answer", open, guess, "-o", &a, "--seed", "2"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(PROVER, &args);
    assert_eq!(code, 0, "{out}{err}");
    (out.trim().to_string(), a)
}

fn check(seal: &str, guess: &str, fb: &str, ans: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["wordle", "check", seal, guess, fb, ans];
    args.extend_from_slice(extra);
    run(VERIFIER, &args)
}

#[test]
fn an_honest_game_checks_and_opens() {
    let (s, o) = seal("crane", "honest", &[]);
    for (guess, want) in [
        ("trace", ".ggyg"),
        ("nacre", "yyyyg"),
        ("crane", "ggggg"),
        ("fluff", "....."),
    ] {
        let (fb, a) = answer(&o, guess, &format!("honest-{guess}"), &[]);
        assert_eq!(fb, want, "{guess}");
        let (code, out, err) = check(&s, guess, &fb, &a, &[]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("ACCEPTED"), "{out}");
        if guess != "crane" {
            assert!(
                !out.contains("crane") && !err.contains("crane"),
                "the word leaks: {out}{err}"
            );
        }
        assert!(std::fs::metadata(&a).unwrap().len() <= 8 * 1024);
    }
    assert!(std::fs::metadata(&s).unwrap().len() <= 12 * 1024);
    let (code, out, err) = run(VERIFIER, &["wordle", "open", &s, &o]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("crane"), "{out}");
    // --json: one object, on success and on failure
    let (fb, a) = answer(&o, "react", "honest-json", &[]);
    let (code, out, _) = check(&s, "react", &fb, &a, &["--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "accepted");
    assert_eq!(v["feedback"], fb.as_str());
    let (code, out, _) = check(&s, "react", "ggggg", &a, &["--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "rejected");
}

#[test]
fn a_lying_host_is_refused() {
    let (s, o) = seal("geese", "liar", &[]);
    let (fb, a) = answer(&o, "eerie", "liar-true", &[]);
    assert_eq!(fb, "yg..g");
    // every other feedback for the same proof is rejected
    for lie in ["yy..g", "gg..g", "yg.yg", ".g..g", "ggggg"] {
        let (code, out, err) = check(&s, "eerie", lie, &a, &[]);
        assert_eq!(code, 1, "{lie}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // the proof of another guess
    let (code, _, err) = check(&s, "egret", &fb, &a, &[]);
    assert_eq!(code, 1, "{err}");
    // a host that answers for another word: a real game of "eerie", its opening made to
    // name this game's seal
    let (_, ob2) = seal("eerie", "liar-other", &[]);
    let mut ob = std::fs::read(&ob2).unwrap();
    ob[10..42].copy_from_slice(&std::fs::read(&o).unwrap()[10..42]);
    let o2 = tmp("liar-other-forged.open");
    std::fs::write(&o2, &ob).unwrap();
    let (fb2, a2) = answer(&o2, "eerie", "liar-other", &[]);
    assert_eq!(fb2, "ggggg");
    let (code, _, err) = check(&s, "eerie", &fb2, &a2, &[]);
    assert_eq!(code, 1, "{err}");
    let (code, _, _) = run(VERIFIER, &["wordle", "open", &s, &o2]);
    assert_eq!(code, 1);
    // an answer for another seal (another game with the same word)
    let s4 = tmp("liar-game3.seal");
    let o4 = tmp("liar-game3.open");
    let (code, _, err) = run(
        PROVER,
        &[
            "wordle",
            "seal",
            "--word",
            "geese",
            "-o",
            &s4,
            "--opening",
            &o4,
            "--seed",
            "9",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = check(&s4, "eerie", &fb, &a, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("another game"), "{err}");
    // another context
    let (code, _, err) = check(&s, "eerie", &fb, &a, &["--context", "day 2"]);
    assert_eq!(code, 1, "{err}");
    // the opening of another game does not open this one
    let (code, _, _) = run(VERIFIER, &["wordle", "open", &s, &o4]);
    assert_eq!(code, 1);
}

#[test]
fn tampered_files_are_refused() {
    let (s, o) = seal("pride", "tamper", &[]);
    let (fb, a) = answer(&o, "ridge", "tamper", &[]);
    let ab = std::fs::read(&a).unwrap();
    let sb = std::fs::read(&s).unwrap();
    let t = tmp("tamper-x.bin");
    for (i, bytes, is_answer) in [
        (30, &ab, true),
        (ab.len() / 2, &ab, true),
        (ab.len() - 1, &ab, true),
        (30, &sb, false),
        (sb.len() / 2, &sb, false),
        (sb.len() - 3, &sb, false),
    ] {
        let mut b = bytes.clone();
        b[i] ^= 0x10;
        std::fs::write(&t, &b).unwrap();
        let (code, out, err) = if is_answer {
            check(&s, "ridge", &fb, &t, &[])
        } else {
            check(&t, "ridge", &fb, &a, &[])
        };
        assert!(code == 1 || code == 2, "byte {i}: {code} {out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // an answer file given as the seal, and the reverse: bad input
    let (code, _, _) = check(&a, "ridge", &fb, &s, &[]);
    assert_eq!(code, 2);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let (s, o) = seal("pride", "bad", &[]);
    let a = tmp("bad.proof");
    // a guess outside the allowed list, for the host and the player
    let (code, _, err) = run(PROVER, &["wordle", "answer", &o, "xqzzy", "-o", &a]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("allowed"), "{err}");
    let (fb, a) = answer(&o, "ridge", "bad-ok", &[]);
    let (code, _, err) = check(&s, "xqzzy", &fb, &a, &[]);
    assert_eq!(code, 2, "{err}");
    for (fbx, why) in [("gg", "five"), ("gxy..", "five")] {
        let (code, _, err) = check(&s, "ridge", fbx, &a, &[]);
        assert_eq!(code, 2);
        assert!(err.contains(why), "{err}");
    }
    // a word outside the answer list cannot be sealed
    let (code, _, err) = run(
        PROVER,
        &[
            "wordle",
            "seal",
            "--word",
            "xqzzy",
            "-o",
            &tmp("x.seal"),
            "--opening",
            &tmp("x.open"),
        ],
    );
    assert_eq!(code, 2, "{err}");
    // malformed dictionaries
    let d = tmp("bad-dict.txt");
    for (text, needle) in [
        ("apple\ngr4pe\n", "line 2"),
        ("apple\nbanana\n", "line 2"),
        ("", "no word"),
        ("apple\napple\n", "twice"),
    ] {
        std::fs::write(&d, text).unwrap();
        {
            let (seal_out, open_out) = (tmp("d.seal"), tmp("d.open"));
            let args = vec![
                "wordle",
                "seal",
                "--word",
                "apple",
                "-o",
                &seal_out,
                "--opening",
                &open_out,
                "--dict",
                &d,
            ];
            let (code, out, err) = run(PROVER, &args);
            assert_eq!(code, 2, "{out}{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(needle), "{err}");
        }
        let (code, _, err) = check(&s, "ridge", &fb, &a, &["--dict", &d]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::write(&d, [0xffu8, 0xfe, b'\n']).unwrap();
    let (code, _, err) = check(&s, "ridge", &fb, &a, &["--allowed", &d]);
    assert_eq!(code, 2, "{err}");
    // a seal checked under another answer list
    std::fs::write(&d, "pride\nridge\nglade\n").unwrap();
    let (code, _, err) = check(&s, "ridge", &fb, &a, &["--dict", &d]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("another answer list"), "{err}");
}

#[test]
fn a_custom_dictionary_and_the_other_engines() {
    let d = tmp("custom.txt");
    std::fs::write(&d, "sissy\nmamma\nkayak\nlevel\n").unwrap();
    let (s, o) = seal("mamma", "custom", &["--dict", &d]);
    let (fb, a) = answer(&o, "kayak", "custom", &["--dict", &d]);
    assert_eq!(fb, ".g.y.");
    let (code, out, err) = check(&s, "kayak", &fb, &a, &["--dict", &d]);
    assert_eq!(code, 0, "{out}{err}");
    // the default list does not verify this seal
    let (code, _, _) = check(&s, "kayak", &fb, &a, &[]);
    assert_eq!(code, 1);
    // ZKB++ and KKW prove the lowered circuit (at a low strength to keep the test short)
    for sys in ["zkbpp", "kkw"] {
        let x = ["--system", sys, "--security", "8", "--dict", &d];
        let (s, o) = seal("level", &format!("custom-{sys}"), &x);
        let (fb, a) = answer(&o, "sissy", &format!("custom-{sys}"), &x);
        assert_eq!(fb, ".....");
        let (code, out, err) = check(&s, "sissy", &fb, &a, &["--security", "8", "--dict", &d]);
        assert_eq!(code, 0, "{sys}: {out}{err}");
        let (code, _, _) = check(&s, "sissy", "g....", &a, &["--security", "8", "--dict", &d]);
        assert_eq!(code, 1, "{sys}");
        // --json reports the answer proof's own level, not the level asked for (4 bits)
        let (code, out, err) = check(
            &s,
            "sissy",
            &fb,
            &a,
            &["--security", "4", "--dict", &d, "--json"],
        );
        assert_eq!(code, 0, "{sys}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let bits = v["security_bits"].as_f64().unwrap();
        assert!((8.0..64.0).contains(&bits), "{sys}: {out}");
    }
}

/// A live game on 127.0.0.1: the host serves, the player's every answer is checked.
#[test]
fn a_live_game_is_played_end_to_end() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let (s, o) = seal("crane", "live", &[]);
    let mut host = Command::new(PROVER)
        .args([
            "wordle",
            "serve",
            &s,
            &o,
            "--listen",
            "127.0.0.1:0",
            "--max-sessions",
            "1",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut r = BufReader::new(host.stderr.take().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let addr = line
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    std::thread::spawn(move || for _ in r.lines() {});
    let (code, out, err) = run(
        VERIFIER,
        &[
            "wordle", "play", &addr, "--guess", "trace", "--guess", "nacre", "--guess", "crane",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "TRACE .ggyg\nNACRE yyyyg\nCRANE ggggg\n", "{err}");
    assert!(err.contains("solved in 3"), "{err}");
    // a guess outside the allowed list: refused by the player before sending (exit 2)
    let (code, _, err) = run(VERIFIER, &["wordle", "play", &addr, "--guess", "xqzzy"]);
    assert_eq!(code, 2, "{err}");
    // a player checking with another answer list refuses the seal
    let d = tmp("live-dict.txt");
    std::fs::write(&d, "crane\ntrace\n").unwrap();
    let (code, _, err) = run(
        VERIFIER,
        &["wordle", "play", &addr, "--dict", &d, "--guess", "trace"],
    );
    assert_eq!(code, 1, "{err}");
    // the word of the day: players holding the published seal accept this host, and refuse
    // one that plays another seal
    for _ in 0..2 {
        let (code, out, err) = run(
            VERIFIER,
            &["wordle", "play", &addr, "--seal", &s, "--guess", "crane"],
        );
        assert_eq!(code, 0, "{out}{err}");
        assert!(err.contains("the published one"), "{err}");
    }
    let (other, _) = seal("react", "live-other", &[]);
    let (code, _, err) = run(
        VERIFIER,
        &[
            "wordle", "play", &addr, "--seal", &other, "--guess", "crane",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not the published seal"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = Command::new("kill").arg(host.id().to_string()).status();
    let _ = host.wait();
}
