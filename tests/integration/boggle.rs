//! Boggle through the binaries: solve, seal, verify, open; tampered files, another grid,
//! another dictionary; words the prover must refuse; the real word list (wamerican).

use crate::common;
use common::{run, tmp, PROVER, VERIFIER};
use zkgames::words::boggle::{self, Dictionary, Grid};
use zkgames::words::dict;

const GRID: &str = "seal/ifer/mans/tope";

fn seal(
    grid: &str,
    word: &str,
    name: &str,
    extra: &[&str],
) -> (i32, String, String, String, String) {
    let s = tmp(&format!("boggle-{name}.seal"));
    let o = tmp(&format!("boggle-{name}.open"));
    let mut args = vec![
        "boggle",
        "seal",
        grid,
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
    (code, out, err, s, o)
}

fn write(name: &str, text: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn boggle_solve_lists_what_the_reference_finds() {
    let (code, out, err) = run(PROVER, &["boggle", "solve", GRID]);
    assert_eq!(code, 0, "{err}");
    let d = Dictionary::shipped();
    let g = Grid::parse(GRID, "g").unwrap();
    let want: Vec<String> = boggle::solve_by_words(&g, &boggle::dice_forms(d.list(), 16), 3)
        .iter()
        .map(|w| dict::word_of(w))
        .collect();
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got, want);
    assert!(got.contains(&"manes") && got.contains(&"openers"), "{out}");
    // --min-length, a grid file, Qu, --json
    let (code, out, _) = run(PROVER, &["boggle", "solve", GRID, "--min-length", "7"]);
    assert_eq!(code, 0);
    assert!(
        out.lines().all(|w| w.len() >= 7) && out.contains("openers"),
        "{out}"
    );
    let f = write("boggle-grid.txt", "qixx\ntxxx\nxxxx\nxxxx\n");
    let (code, out, err) = run(PROVER, &["boggle", "solve", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|w| w == "quit"), "{out}");
    let (code, out, _) = run(PROVER, &["boggle", "solve", GRID, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["count"].as_u64().unwrap() as usize, want.len());
}

#[test]
fn boggle_find_seals_verifies_and_opens() {
    let (code, out, err, s, o) = seal(GRID, "manes", "honest", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("5 dice") && err.contains("S-boxes"), "{err}");
    let (code, out, err) = run(VERIFIER, &["boggle", "verify", GRID, &s]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ACCEPTED") && out.contains("5 dice"), "{out}");
    assert!(
        !out.contains("manes") && !err.contains("manes"),
        "the word leaks: {out}{err}"
    );
    let seal_bytes = std::fs::read(&s).unwrap();
    assert!(!seal_bytes.windows(5).any(|w| w == b"manes"));
    let (code, out, err) = run(VERIFIER, &["boggle", "open", GRID, &s, &o]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the sealed word is manes"), "{out}");
    let (code, out, _) = run(VERIFIER, &["boggle", "open", GRID, &s, &o, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["word"], "manes");

    // another grid, the same grid written differently
    let (code, out, err) = run(VERIFIER, &["boggle", "verify", "seal/ifer/mans/topf", &s]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("another grid"), "{err}");
    let f = write("boggle-same-grid.txt", "SEAL\nifer\nmans\ntope\n");
    let (code, _, err) = run(VERIFIER, &["boggle", "verify", &f, &s]);
    assert_eq!(code, 0, "{err}");
    // another dictionary
    let dict2 = write(
        "boggle-dict2.txt",
        &format!("{}zzzz\n", boggle::DEFAULT_DICT),
    );
    let (code, _, err) = run(VERIFIER, &["boggle", "verify", GRID, &s, "--dict", &dict2]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("another dictionary"), "{err}");
    // another context
    let (code, _, _) = run(VERIFIER, &["boggle", "verify", GRID, &s, "--context", "x"]);
    assert_eq!(code, 1);
    // a flipped byte anywhere is refused (1 or 2), never accepted, one line
    let n = seal_bytes.len();
    for at in [12, 22, 40, 70, 100, n / 3, n / 2, n - 40, n - 1] {
        let mut t = seal_bytes.clone();
        t[at] ^= 0x10;
        let p = write(&format!("boggle-tamper-{at}.seal"), "");
        std::fs::write(&p, &t).unwrap();
        let (code, out, err) = run(VERIFIER, &["boggle", "verify", GRID, &p]);
        assert!(code == 1 || code == 2, "byte {at}: {code} {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        let (code, out, _) = run(VERIFIER, &["boggle", "verify", GRID, &p, "--json"]);
        assert!(code == 1 || code == 2);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_ne!(v["verdict"], "accepted");
    }
    // an opening of another find, a tampered opening
    let (code, _, _, s2, o2) = seal(GRID, "openers", "other", &[]);
    assert_eq!(code, 0);
    let (code, _, err) = run(VERIFIER, &["boggle", "open", GRID, &s, &o2]);
    assert_eq!(code, 1, "{err}");
    let mut ob = std::fs::read(&o).unwrap();
    let last = ob.len() - 1;
    ob[last] = b'x';
    let p = tmp("boggle-tampered.open");
    std::fs::write(&p, &ob).unwrap();
    let (code, _, err) = run(VERIFIER, &["boggle", "open", GRID, &s, &p]);
    assert_eq!(code, 1, "{err}");
    let (code, _, _) = run(VERIFIER, &["boggle", "verify", GRID, &s2]);
    assert_eq!(code, 0);
}

/// `--json`'s `security_bits` is the proof's own level (its parameters'), not the level the
/// verifier asked for: a ZKB++ find of 8 bits (14 rounds) checked with --security 4 says 8.2.
#[test]
fn boggle_verify_reports_the_proofs_own_level() {
    let (code, out, err, s, _) = seal(
        GRID,
        "manes",
        "level",
        &["--system", "zkbpp", "--security", "8"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(
        VERIFIER,
        &["boggle", "verify", GRID, &s, "--security", "4", "--json"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let bits = v["security_bits"].as_f64().unwrap();
    assert!((8.0..9.0).contains(&bits), "{out}");
    assert_eq!(v["system"], "ZKB++", "{out}");
    // and a default (VOLE, 128-bit) find checked at 64 bits reports at least 128
    let (code, _, _, s, _) = seal(GRID, "manes", "level-vole", &[]);
    assert_eq!(code, 0);
    let (code, out, _) = run(
        VERIFIER,
        &["boggle", "verify", GRID, &s, "--security", "64", "--json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["security_bits"].as_f64().unwrap() >= 128.0, "{out}");
}

#[test]
fn boggle_prover_refuses_what_it_cannot_prove() {
    for (word, needle) in [
        ("seals", "not on the grid"),
        ("sealx", "not in the dictionary"),
        ("qat", "not in the dictionary"),
        ("m4nes", "letters a-z"),
    ] {
        let (code, out, err, _, _) = seal(GRID, word, &format!("refused-{word}"), &[]);
        assert_eq!(code, 2, "{word}: {out}{err}");
        assert!(err.contains(needle), "{word}: {err}");
        assert_eq!(
            err.lines().filter(|l| l.contains("error")).count(),
            1,
            "{err}"
        );
    }
    let d = write("boggle-qat.txt", "qat\nsea\n");
    let (code, _, err, _, _) = seal("qats/xxxx/xxxx/xxxx", "qat", "qat", &["--dict", &d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("q without u"), "{err}");
    for bad in [
        "abc/def/ghi",
        "abcd/efgh/ijkl/mno",
        "ab1d/efgh/ijkl/mnop",
        "missing-grid-file",
    ] {
        let (code, _, err) = run(PROVER, &["boggle", "solve", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let d = write("boggle-bad.txt", "cat\ndog\ncat\n");
    let (code, _, err) = run(PROVER, &["boggle", "solve", GRID, "--dict", &d]);
    assert_eq!(code, 2);
    assert!(err.contains("line 3") && err.contains("twice"), "{err}");
    let (code, _, err) = run(VERIFIER, &["boggle", "verify", GRID, &d]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _, _, _) = seal(GRID, "seals", "json", &["--json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["exit"], 2);
}

/// Debian's wamerican: the raw file is refused by the list rules (proper nouns fold onto
/// common words: one line), its lower-case words are solved as the reference solves them, and
/// a find sealed against them verifies against them only.
#[test]
fn boggle_with_the_real_word_list() {
    let path = "/usr/share/dict/american-english";
    let Ok(text) = std::fs::read_to_string(path) else {
        common::missing("/usr/share/dict/american-english not found (apt-get install wamerican)");
        return;
    };
    let (code, _, err) = run(PROVER, &["boggle", "solve", GRID, "--dict", path]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let all: String = text
        .lines()
        .filter(|l| !l.is_empty() && l.bytes().all(|c| c.is_ascii_lowercase()))
        .map(|l| format!("{l}\n"))
        .collect();
    let d = write("boggle-wamerican.txt", &all);
    let (code, out, _) = run(
        PROVER,
        &["boggle", "solve", GRID, "--dict", &d, "--min-length", "1"],
    );
    assert_eq!(code, 0);
    let list = Dictionary::parse(&all, "wamerican").unwrap();
    let g = Grid::parse(GRID, "g").unwrap();
    let want: Vec<String> = boggle::solve_by_words(&g, &boggle::dice_forms(list.list(), 16), 1)
        .iter()
        .map(|w| dict::word_of(w))
        .collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
    assert!(
        want.iter().any(|w| w.len() < 3) && want.len() > 100,
        "{out}"
    );
    let (code, _, err, s, _) = seal(GRID, "learns", "wamerican", &["--dict", &d]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(VERIFIER, &["boggle", "verify", GRID, &s, "--dict", &d]);
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = run(VERIFIER, &["boggle", "verify", GRID, &s]);
    assert_eq!(code, 1);
}
