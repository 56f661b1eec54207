//! Hostile Garble programs through the binaries: huge ranges, arrays, constants, types and
//! nested loops are refused by the unrolling bound before the compiler runs, in one line
//! naming the construct and its line, with exit 2, under an address-space limit the
//! compiler's allocations for them would break (the process would abort, not exit 2).

use crate::common;
use common::{run_cmd, tmp, PROVER, VERIFIER};

/// The address space the binaries get here: enough for the compiler's reserved stack
/// (1 GiB, touched only as used) and the examples, far too little for the hostile sizes.
const ADDRESS_SPACE_KIB: u64 = 3 << 20;

/// Runs `bin ARGS` under the address-space limit.
fn limited(bin: &str, args: &[&str]) -> (i32, String, String) {
    let mut c = std::process::Command::new("sh");
    c.arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(bin)
        .args(args);
    run_cmd(&mut c)
}

const HOSTILE: &[(&str, &str, &str)] = &[
    (
        "range",
        "pub fn main(x: u64, y: u64) -> u64 {\n  let mut s = x;\n  for i in 0u64..4000000000u64 { s = s ^ y; }\n  s\n}\n",
        "a range of 4000000000 numbers on line 3",
    ),
    (
        "repeat",
        "pub fn main(x: u8, y: u8) -> u8 {\n  let a = [0u8; 4000000000];\n  a[0] ^ x ^ y\n}\n",
        "an array of 4000000000 elements on line 2",
    ),
    (
        "nested",
        "pub fn main(x: u32, y: u32) -> u32 {\n  let mut s = x;\n  for i in 0u32..1000u32 {\n    for j in 0u32..1000u32 {\n      for k in 0u32..1000u32 { s = s ^ y; }\n    }\n  }\n  s\n}\n",
        "a loop of 1000 iterations over a body of size 161032 on line 4",
    ),
    (
        "const",
        "const N: usize = 4000000000usize;\npub fn main(x: u8, y: u8) -> u8 {\n  let a = [x; N];\n  a[0] ^ y\n}\n",
        "an array of 4000000000 elements (N) on line 3",
    ),
    (
        "struct",
        "struct S { a: [u64; 100000000], b: [u64; 100000000] }\npub fn main(s: S, y: u8) -> u8 { y }\n",
        "the type S has 12800000000 bits on line 2",
    ),
    (
        "enum",
        "struct Big { a: [[u64; 100000]; 100000] }\nenum E { A, B(Big) }\npub fn main(x: u8, y: u8) -> u8 {\n  let e = E::A;\n  x ^ y\n}\n",
        "a value of type E",
    ),
];

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
fn hostile_garble_programs_are_refused_in_one_line_with_exit_2() {
    for (name, text, says) in HOSTILE {
        let path = tmp(&format!("hostile-{name}.garble"));
        std::fs::write(&path, text).unwrap();
        let proof = tmp(&format!("hostile-{name}.zkp"));
        let runs = [
            limited(
                PROVER,
                &[
                    "garble", "prove", &path, "--secret", "x=1u8", "--public", "y=2u8", "--seed",
                    "1", "-o", &proof,
                ],
            ),
            limited(VERIFIER, &["garble", "inspect", &path]),
        ];
        for ((c, _, err), who) in runs.into_iter().zip(["prover", "verifier"]) {
            assert_eq!(c, 2, "{name}: {err}");
            let line = one_line(&err, who);
            assert!(
                line.contains("the program is too large for a circuit: ") && line.contains(says),
                "{name}: {line}"
            );
            assert!(line.contains("--max-gates"), "{name}: {line}");
        }
        assert!(!std::path::Path::new(&proof).exists(), "{name}");
        // --json: one object
        let (c, out, _) = limited(VERIFIER, &["garble", "inspect", &path, "--json"]);
        assert_eq!(c, 2, "{name}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert!(v["error"].as_str().unwrap().contains(says), "{name}: {out}");
    }
    // the bound follows --max-gates: a program within the default refused under a lower one
    let path = tmp("hostile-small.garble");
    std::fs::write(
        &path,
        "pub fn main(x: u8) -> u8 {\n  let mut s = x;\n  for i in 0u16..500u16 { s = s ^ x; }\n  s\n}\n",
    )
    .unwrap();
    let (c, _, err) = limited(VERIFIER, &["garble", "inspect", &path]);
    assert_eq!(c, 0, "{err}");
    let (c, _, err) = limited(
        VERIFIER,
        &["garble", "inspect", &path, "--max-gates", "10000"],
    );
    assert_eq!(c, 2, "{err}");
    let line = one_line(&err, "verifier");
    assert!(
        line.contains("a loop of 500 iterations") && line.contains("on line 3"),
        "{line}"
    );
    assert!(line.contains("the bound is 10000"), "{line}");
}

#[test]
fn the_examples_prove_and_verify_under_the_address_space_limit() {
    let prog = common::p("puzzles/garble/age.garble");
    let proof = tmp("bound-age.zkp");
    let (c, _, err) = limited(
        PROVER,
        &[
            "garble",
            "prove",
            &prog,
            "--secret",
            "birth_year=1990u16",
            "--public",
            "this_year=2026u16",
            "--seed",
            "1",
            "-o",
            &proof,
        ],
    );
    assert_eq!(c, 0, "{err}");
    let (c, _, err) = limited(
        VERIFIER,
        &[
            "garble",
            "verify",
            &prog,
            &proof,
            "--public",
            "this_year=2026u16",
            "--output",
            "true",
        ],
    );
    assert_eq!(c, 0, "{err}");
}
