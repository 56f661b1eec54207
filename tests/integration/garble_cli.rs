//! `prover garble …` and `verifier garble …` through the binaries: the example programs of
//! puzzles/garble proven and verified, every way a proof must be refused, compile errors as
//! Garble shows them, every engine, the compiler-version rule, and the Bristol path checked
//! against the Garble path.

use crate::common;
use common::{p, run, tmp, PROVER, VERIFIER};

struct Example {
    name: &'static str,
    secret: &'static [&'static str],
    public: &'static [&'static str],
    result: &'static str,
    /// A result the secret arguments do not give.
    wrong: &'static str,
    /// Another value for the first public parameter.
    other_public: &'static str,
}

const EXAMPLES: &[Example] = &[
    Example {
        name: "factors",
        secret: &["p=65521u32", "q=65519u32"],
        public: &["n=4292870399u64"],
        result: "true",
        wrong: "false",
        other_public: "n=4292870401u64",
    },
    Example {
        name: "sudoku_row",
        secret: &["row=[5u8, 3u8, 4u8, 6u8, 7u8, 8u8, 9u8, 1u8, 2u8]"],
        public: &["givens=[5u8, 3u8, 0u8, 0u8, 7u8, 0u8, 0u8, 0u8, 0u8]"],
        result: "true",
        wrong: "false",
        other_public: "givens=[0u8, 0u8, 0u8, 0u8, 0u8, 0u8, 0u8, 0u8, 9u8]",
    },
    Example {
        name: "wordle",
        secret: &["answer=[104u8, 101u8, 108u8, 108u8, 111u8]"],
        public: &["guess=[108u8, 108u8, 97u8, 109u8, 111u8]"],
        result: "[1, 1, 0, 0, 2]",
        wrong: "[1, 0, 0, 0, 2]",
        other_public: "guess=[108u8, 108u8, 97u8, 109u8, 112u8]",
    },
    Example {
        name: "age",
        secret: &["birth_year=1990u16"],
        public: &["this_year=2026u16"],
        result: "true",
        wrong: "false",
        other_public: "this_year=2025u16",
    },
];

fn program(name: &str) -> String {
    p(&format!("puzzles/garble/{name}.garble"))
}

fn args_with<'a>(flag: &'a str, values: &'a [&'a str]) -> Vec<&'a str> {
    values.iter().flat_map(|v| [flag, v]).collect()
}

fn prove(e: &Example, out: &str, extra: &[&str]) -> (i32, String, String) {
    let prog = program(e.name);
    let mut a = vec!["garble", "prove", prog.as_str()];
    a.extend(args_with("--secret", e.secret));
    a.extend(args_with("--public", e.public));
    a.extend(["--seed", "1", "-o", out]);
    a.extend(extra);
    run(PROVER, &a)
}

fn verify(
    prog: &str,
    proof: &str,
    public: &[&str],
    result: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let mut a = vec!["garble", "verify", prog, proof];
    a.extend(args_with("--public", public));
    a.extend(["--output", result]);
    a.extend(extra);
    run(VERIFIER, &a)
}

/// The refusal line: one line on stderr, prefixed as every refusal.
fn one_line(err: &str, who: &str) -> String {
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("warning: --seed"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with(&format!("{who}: ")), "{err}");
    lines[0].to_string()
}

#[test]
fn every_example_proves_verifies_and_refuses_what_it_must() {
    for e in EXAMPLES {
        let proof = tmp(&format!("{}.proof", e.name));
        let (c, out, err) = prove(e, &proof, &[]);
        assert_eq!(c, 0, "{}: {err}", e.name);
        assert_eq!(out.trim(), e.result, "{}", e.name);
        assert!(err.contains("garble_lang"), "{err}");
        let prog = program(e.name);
        let (c, out, err) = verify(&prog, &proof, e.public, e.result, &[]);
        assert_eq!(c, 0, "{}: {err}", e.name);
        assert!(out.starts_with("ACCEPTED: knowledge of"), "{out}");
        // the claimed result must be the one proven
        let (c, _, err) = verify(&prog, &proof, e.public, e.wrong, &[]);
        assert_eq!(c, 1, "{}: wrong result: {err}", e.name);
        one_line(&err, "verifier");
        // another value of a public parameter
        let (c, _, err) = verify(&prog, &proof, &[e.other_public], e.result, &[]);
        assert_eq!(c, 1, "{}: other public: {err}", e.name);
        // a public parameter left out (the prover made it public)
        let (c, _, err) = verify(&prog, &proof, &[], e.result, &[]);
        assert_eq!(c, 1, "{}: {err}", e.name);
        assert!(err.contains("public parameters"), "{err}");
        // another context
        let (c, _, _) = verify(&prog, &proof, e.public, e.result, &["--context", "x"]);
        assert_eq!(c, 1);
        // another program: the same text with one more comment line
        let other = tmp(&format!("{}-other.garble", e.name));
        let text = std::fs::read_to_string(&prog).unwrap();
        std::fs::write(&other, format!("{text}// another program\n")).unwrap();
        let (c, _, err) = verify(&other, &proof, e.public, e.result, &[]);
        assert_eq!(c, 1, "{err}");
        assert!(
            one_line(&err, "verifier").contains("another program"),
            "{err}"
        );
        // flipped bytes anywhere: header, head, engine proof
        let bytes = std::fs::read(&proof).unwrap();
        let flipped = tmp(&format!("{}-flipped.proof", e.name));
        let n = bytes.len();
        // (bytes 22 to 39 are the recorded compiler version, which is not part of the
        // statement: see the compiler-version test)
        for at in [0, 5, 20, 40, 60, 80, n / 3, n / 2, n - 40, n - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            std::fs::write(&flipped, &b).unwrap();
            let (c, _, err) = verify(&prog, &flipped, e.public, e.result, &[]);
            assert!(
                c == 1 || c == 2,
                "{}: byte {at} flipped: exit {c} {err}",
                e.name
            );
            one_line(&err, "verifier");
        }
    }
    // a proof of one example does not verify against another program
    let proof = tmp("age.proof");
    let (c, _, err) = verify(
        &program("factors"),
        &proof,
        &["n=4292870399u64"],
        "true",
        &[],
    );
    assert_eq!(c, 1, "{err}");
}

#[test]
fn every_engine_with_security_and_context() {
    let e = &EXAMPLES[3];
    let prog = program(e.name);
    for sys in [
        &["--system", "zkbpp"][..],
        &["--system", "kkw"],
        &["--system", "kkw", "--kkw-params", "speed"],
        &["--system", "vole", "--vole-params", "speed"],
    ] {
        let proof = tmp(&format!("age-{}.proof", sys.join("-")));
        let mut extra = sys.to_vec();
        extra.extend(["--security", "64", "--context", "game 7"]);
        let (c, _, err) = prove(e, &proof, &extra);
        assert_eq!(c, 0, "{sys:?}: {err}");
        let (c, out, err) = verify(
            &prog,
            &proof,
            e.public,
            "true",
            &["--security", "64", "--context", "game 7"],
        );
        assert_eq!(c, 0, "{sys:?}: {err}");
        assert!(out.contains("ACCEPTED"));
        // the verifier fixes the security: 128 bits asked of a 64-bit proof
        let (c, _, err) = verify(&prog, &proof, e.public, "true", &["--context", "game 7"]);
        assert_ne!(c, 0, "{sys:?}: {err}");
        let (c, _, _) = verify(&prog, &proof, e.public, "true", &["--security", "64"]);
        assert_eq!(c, 1, "{sys:?}: no context");
        let (c, out, _) = run(VERIFIER, &["garble", "inspect", &proof]);
        assert_eq!(c, 0);
        assert!(out.contains("Garble program"), "{out}");
    }
}

#[test]
fn json_prints_one_object_on_success_and_failure() {
    let e = &EXAMPLES[2];
    let proof = tmp("wordle-json.proof");
    let (c, out, _) = prove(e, &proof, &["--json"]);
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["result"], e.result);
    assert_eq!(
        v["proof_bytes"].as_u64().unwrap(),
        std::fs::metadata(&proof).unwrap().len()
    );
    let prog = program(e.name);
    for (result, verdict, code) in [
        (e.result, "accepted", 0),
        (e.wrong, "rejected", 1),
        ("7u8", "error", 2),
    ] {
        let (c, out, _) = verify(&prog, &proof, e.public, result, &["--json"]);
        assert_eq!(c, code, "{out}");
        assert_eq!(out.trim().lines().count(), 1, "{out}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["verdict"], verdict, "{out}");
    }
    // a compile error in JSON mode: one object, no report on stdout
    let bad = tmp("bad-json.garble");
    std::fs::write(&bad, "pub fn main(x: u8) -> u16 {\n    x\n}\n").unwrap();
    let (c, out, _) = run(VERIFIER, &["garble", "inspect", &bad, "--json"]);
    assert_eq!(c, 2);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("Type error on line 2"),
        "{out}"
    );
}

#[test]
fn compile_errors_show_the_source_line_and_a_caret() {
    let bad = tmp("bad.garble");
    std::fs::write(
        &bad,
        "pub fn main(x: u8, y: u8) -> u8 {\n    x + y + true\n}\n",
    )
    .unwrap();
    for (bin, cmd) in [(PROVER, "eval"), (PROVER, "export"), (VERIFIER, "inspect")] {
        let (c, _, err) = run(bin, &["garble", cmd, &bad]);
        assert_eq!(c, 2, "{err}");
        assert!(err.contains("x + y + true"), "{err}");
        assert!(err.contains("^^^^"), "{err}");
        let last = err.trim_end().lines().last().unwrap();
        assert!(
            last.contains("error: the program does not compile: Type error on line 2"),
            "{err}"
        );
    }
    let (c, _, err) = run(
        PROVER,
        &[
            "garble", "prove", &bad, "--secret", "x=1u8", "--public", "y=2u8",
        ],
    );
    assert_eq!(c, 2);
    assert!(err.contains('^'), "{err}");
    // a function that is not there
    let (c, _, err) = run(
        VERIFIER,
        &["garble", "inspect", &program("age"), "--fn", "nope"],
    );
    assert_eq!(c, 2);
    assert!(err.contains("nope"), "{err}");
}

#[test]
fn arguments_are_garble_literals_checked_against_the_parameter_types() {
    let prog = program("age");
    for (args, says) in [
        (
            vec![
                "--secret",
                "birth_year=1990u8",
                "--public",
                "this_year=2026u16",
            ],
            "birth_year (a u16)",
        ),
        (
            vec![
                "--secret",
                "birth_year=true",
                "--public",
                "this_year=2026u16",
            ],
            "birth_year (a u16)",
        ),
        (
            vec![
                "--secret",
                "birth_year=70000u16",
                "--public",
                "this_year=2026u16",
            ],
            "birth_year",
        ),
        (
            vec!["--secret", "birth_year=1990u16"],
            "no value for this_year: u16",
        ),
        (
            vec!["--secret", "born=1990u16", "--public", "this_year=2026u16"],
            "no parameter 'born'",
        ),
        (
            vec!["--secret", "birth_year", "--public", "this_year=2026u16"],
            "NAME=LITERAL",
        ),
        (
            vec!["--secret", "birth_year=1u16", "--public", "birth_year=1u16"],
            "both --secret and --public",
        ),
        (
            vec![
                "--public",
                "birth_year=1u16",
                "--public",
                "this_year=2026u16",
            ],
            "nothing to prove",
        ),
    ] {
        let mut a = vec!["garble", "prove", prog.as_str(), "-o", "-"];
        a.extend(args);
        let (c, out, err) = run(PROVER, &a);
        assert_eq!(c, 2, "{err}");
        assert!(out.is_empty());
        assert!(one_line(&err, "prover").contains(says), "{says}: {err}");
    }
    // a program that panics for the given arguments is not proven
    let add = tmp("add.garble");
    std::fs::write(&add, "pub fn main(x: u8, y: u8) -> u8 {\n    x + y\n}\n").unwrap();
    let (c, _, err) = run(
        PROVER,
        &[
            "garble", "prove", &add, "--secret", "x=200u8", "--public", "y=100u8", "-o", "-",
        ],
    );
    assert_eq!(c, 2);
    assert!(
        one_line(&err, "prover")
            .contains("panics for these arguments: Panic due to Overflow on line 2"),
        "{err}"
    );
    let (c, out, err) = run(PROVER, &["garble", "eval", &add, "x=200u8", "y=55u8"]);
    assert_eq!((c, out.trim()), (0, "255"), "{err}");
}

#[test]
fn inspect_names_parameters_types_widths_gates_and_digests() {
    let (c, out, err) = run(VERIFIER, &["garble", "inspect", &program("wordle")]);
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("answer: [u8; 5] (40 bits)"), "{out}");
    assert!(out.contains("guess: [u8; 5] (40 bits)"), "{out}");
    assert!(out.contains("result:         [u8; 5] (40 bits)"), "{out}");
    let (_, json, _) = run(
        VERIFIER,
        &["garble", "inspect", &program("wordle"), "--json"],
    );
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let ands = v["and_gates"].as_u64().unwrap();
    assert!(out.contains(&format!("AND gates:      {ands}\n")), "{out}");
    assert!(ands > 100 && ands < 1000, "{ands}");
    assert_eq!(v["params"][1]["bits"], 40);
    assert_eq!(v["circuit_digest"].as_str().unwrap().len(), 64);
}

/// The bytes of a proof file's head beyond the Bristol kind's: the compiler version, the
/// program digest and the function name (bincode: a one-byte length before each string).
fn head_difference(function: &str) -> u64 {
    (1 + "garble_lang 0.6.1".len() + 32 + 1 + function.len()) as u64
}

#[test]
fn the_exported_bristol_file_proves_the_same_statement_in_the_same_size() {
    let e = &EXAMPLES[2];
    let circ = tmp("wordle.bristol");
    let (c, _, err) = run(PROVER, &["garble", "export", &program(e.name), "-o", &circ]);
    assert_eq!(c, 0, "{err}");
    let (_, json, _) = run(VERIFIER, &["garble", "inspect", &program(e.name), "--json"]);
    let g: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let (_, json, _) = run(VERIFIER, &["circuit", "inspect", &circ, "--json"]);
    let b: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert!(b["digest"].as_str().is_some());
    assert_eq!(b["and_gates"], g["and_gates"]);
    assert_eq!(b["inputs"], serde_json::json!([40, 40]));
    assert_eq!(b["outputs"], serde_json::json!([1, 40]));
    // our bit order: a [u8; 5] is the hex of its bytes
    let answer = hex::encode(b"hello");
    let guess = hex::encode(b"llamo");
    // VOLE proofs have fixed sizes (ZKB++'s and KKW's depend on the challenges)
    for sys in [&[][..], &["--system", "vole", "--vole-params", "speed"]] {
        let gp = tmp(&format!("wordle-g{}.proof", sys.len()));
        let (c, _, err) = prove(e, &gp, sys);
        assert_eq!(c, 0, "{err}");
        let bp = tmp(&format!("wordle-b{}.proof", sys.len()));
        let mut a = vec!["circuit", "prove", circ.as_str(), "--secret"];
        let s0 = format!("0={answer}");
        let p1 = format!("1={guess}");
        a.extend([
            s0.as_str(),
            "--public",
            p1.as_str(),
            "--seed",
            "1",
            "-o",
            bp.as_str(),
        ]);
        a.extend(sys);
        let (c, out, err) = run(PROVER, &a);
        assert_eq!(c, 0, "{err}");
        // the panic flag 0, and the feedback [1, 1, 0, 0, 2] as bytes
        assert_eq!(out.trim(), "0=00\n1=0101000002");
        let (c, _, err) = run(
            VERIFIER,
            &[
                "circuit",
                "verify",
                &circ,
                &bp,
                "--public",
                &p1,
                "--output",
                "0=00",
                "--output",
                "1=0101000002",
            ],
        );
        assert_eq!(c, 0, "{err}");
        let gs = std::fs::metadata(&gp).unwrap().len();
        let bs = std::fs::metadata(&bp).unwrap().len();
        assert_eq!(
            gs,
            bs + head_difference("main"),
            "{sys:?}: Garble {gs} B, Bristol {bs} B"
        );
    }
}

fn replace(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len());
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("present");
    bytes[at..at + from.len()].copy_from_slice(to);
}

#[test]
fn a_proof_made_with_another_compiler_version_verifies_only_if_the_circuit_is_the_same() {
    let lock = std::fs::read_to_string(p("Cargo.lock")).unwrap();
    assert!(
        lock.contains("name = \"garble_lang\"\nversion = \"0.6.1\""),
        "update head_difference and this test with the compiler"
    );
    let e = &EXAMPLES[3];
    let proof = tmp("age-version.proof");
    assert_eq!(prove(e, &proof, &[]).0, 0);
    let prog = program(e.name);
    // the same circuit under another version: accepted, and the report says so
    let mut b = std::fs::read(&proof).unwrap();
    replace(&mut b, b"garble_lang 0.6.1", b"garble_lang 0.5.9");
    let older = tmp("age-older.proof");
    std::fs::write(&older, &b).unwrap();
    let (c, out, err) = verify(&prog, &older, e.public, "true", &[]);
    assert_eq!(c, 0, "{err}");
    assert!(
        out.contains("made with garble_lang 0.5.9; the circuit is the same with garble_lang 0.6.1"),
        "{out}"
    );
    // another circuit under another version: refused in one line naming both
    let (_, json, _) = run(VERIFIER, &["garble", "inspect", &prog, "--json"]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let digest = hex::decode(v["circuit_digest"].as_str().unwrap()).unwrap();
    let mut other = digest.clone();
    other[0] ^= 1;
    replace(&mut b, &digest, &other);
    std::fs::write(&older, &b).unwrap();
    let (c, _, err) = verify(&prog, &older, e.public, "true", &[]);
    assert_eq!(c, 1, "{err}");
    let line = one_line(&err, "verifier");
    assert!(
        line.contains("garble_lang 0.5.9") && line.contains("garble_lang 0.6.1"),
        "{line}"
    );
    // another circuit under the same version: another circuit
    let mut b = std::fs::read(&proof).unwrap();
    replace(&mut b, &digest, &other);
    std::fs::write(&older, &b).unwrap();
    let (c, _, err) = verify(&prog, &older, e.public, "true", &[]);
    assert_eq!(c, 1);
    assert!(
        one_line(&err, "verifier").contains("another circuit"),
        "{err}"
    );
}

#[test]
fn eval_prints_the_result_as_a_garble_literal() {
    let (c, out, err) = run(
        PROVER,
        &[
            "garble",
            "eval",
            &program("wordle"),
            "answer=[104u8, 101u8, 108u8, 108u8, 111u8]",
            "guess=[104u8, 101u8, 108u8, 108u8, 111u8]",
        ],
    );
    assert_eq!(c, 0, "{err}");
    assert_eq!(out.trim(), "[2, 2, 2, 2, 2]");
    let (c, out, _) = run(
        PROVER,
        &[
            "garble",
            "eval",
            &program("age"),
            "birth_year=2010u16",
            "this_year=2026u16",
            "--json",
        ],
    );
    assert_eq!(c, 0);
    assert_eq!(out.trim(), r#"{"function":"main","result":"false"}"#);
}
