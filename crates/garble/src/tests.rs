use super::*;
use zkgames_mpc::bristol;

fn compile(text: &str) -> Program {
    match Program::compile(text, "main", &Limits::default()) {
        Ok(p) => p,
        Err(f) => panic!("{}\n{}", f.error, f.pretty.unwrap_or_default()),
    }
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../puzzles/garble/{name}.garble",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Garble's own evaluation of its circuit (the reference): our IR's output for it.
fn reference(p: &Program, args: &[Vec<bool>]) -> Vec<bool> {
    let g: Vec<Vec<bool>> = args
        .iter()
        .zip(p.params())
        .map(|(a, x)| x.order.to_garble(a))
        .collect();
    let out = p.garble_circuit().eval(&g);
    let mut ours = vec![out[0]];
    ours.extend(p.result_order().to_ours(&out[PANIC_BITS..]));
    ours
}

fn le_bits(v: u64, w: usize) -> Vec<bool> {
    (0..w).map(|i| v >> i & 1 == 1).collect()
}

fn from_le(b: &[bool]) -> u64 {
    b.iter().enumerate().map(|(i, &x)| (x as u64) << i).sum()
}

#[test]
fn integers_are_reversed_in_place_and_nothing_else_moves() {
    let p = compile(
        "struct P { x: u8, y: u16 }\npub fn main(a: u16, b: bool, c: [u8; 2], d: P, e: (bool, i8)) -> u16 { a }",
    );
    let args = [
        "4660u16",
        "true",
        "[1u8, 2u8]",
        "P { x: 3u8, y: 1029u16 }",
        "(false, -2i8)",
    ];
    let got: Vec<Vec<bool>> = args
        .iter()
        .enumerate()
        .map(|(i, a)| p.parse_arg(i, a).unwrap())
        .collect();
    // our order is the hex of Bristol groups: bytes little-endian, bit j of byte i is 8i + j
    assert_eq!(bristol::group_to_hex(&got[0]), "3412");
    assert_eq!(got[1], vec![true]);
    assert_eq!(bristol::group_to_hex(&got[2]), "0102");
    assert_eq!(bristol::group_to_hex(&got[3]), "030504");
    assert!(!got[4][0]);
    assert_eq!(from_le(&got[4][1..]), 0xfe);
    for (x, g) in p.params().iter().zip(&got) {
        assert_eq!(x.order.to_ours(&x.order.to_garble(g)), *g);
    }
    // the order is a permutation
    for x in p.params() {
        let mut seen: Vec<usize> = (0..x.order.len())
            .map(|i| x.order.garble_index(i))
            .collect();
        seen.sort();
        assert_eq!(seen, (0..x.order.len()).collect::<Vec<_>>());
    }
    // the result too: a u16 comes back as the number
    let (lit, out) = p.run(&got).unwrap();
    assert_eq!(lit, "4660");
    assert_eq!(from_le(&out[1..]), 0x1234);
    assert_eq!(p.parse_result("4660u16").unwrap(), out);
}

#[test]
fn ir_matches_garbles_evaluation_on_every_input_panics_included() {
    // multiplication and addition overflow for some inputs: the panic flag must agree too
    let p = compile("pub fn main(a: u8, b: u8) -> u8 { (a * (b & 15u8)) + (a ^ b) }");
    let mut panics = 0;
    for a in 0..256u64 {
        for b in 0..256u64 {
            let args = [le_bits(a, 8), le_bits(b, 8)];
            let ours = p.circuit().eval(&args.concat());
            assert_eq!(ours, reference(&p, &args), "a={a} b={b}");
            let want = (a * (b & 15))
                .checked_add(a ^ b)
                .filter(|_| a * (b & 15) < 256);
            match want {
                Some(v) if v < 256 => {
                    assert!(!ours[0]);
                    assert_eq!(from_le(&ours[1..]), v);
                }
                _ => {
                    assert!(ours[0], "a={a} b={b} should panic");
                    panics += 1;
                }
            }
        }
    }
    assert!(panics > 1000);
}

#[test]
fn age_accepts_exactly_the_adults_for_every_birth_year() {
    let p = compile(&example("age"));
    let year = p.parse_arg(1, "2026u16").unwrap();
    let st = proof::statement(
        &p,
        &[None, Some(year.clone())],
        p.parse_result("true").unwrap(),
        b"",
    )
    .unwrap();
    for y in 0..=u16::MAX as u64 {
        let out = st.circuit.eval(&le_bits(y, 16));
        assert_eq!(out, reference(&p, &[le_bits(y, 16), year.clone()]));
        assert!(!out[0], "never panics");
        assert_eq!(out == st.output, y + 18 <= 2026, "birth year {y}");
    }
}

#[test]
fn factors_of_small_numbers_against_a_brute_force() {
    let p = compile(&example("factors"));
    for n in [0u64, 1, 4, 6, 7, 12, 13, 15, 49, 221] {
        let nb = p.parse_arg(2, &format!("{n}u64")).unwrap();
        let st = proof::statement(
            &p,
            &[None, None, Some(nb)],
            p.parse_result("true").unwrap(),
            b"",
        )
        .unwrap();
        for a in 0..40u64 {
            for b in 0..40u64 {
                let ok = st.circuit.eval(&[le_bits(a, 32), le_bits(b, 32)].concat()) == st.output;
                assert_eq!(ok, a > 1 && b > 1 && a * b == n, "{a}*{b} vs {n}");
            }
        }
    }
    // and large factors do not overflow: 32-bit primes
    let (lit, _) = p
        .run(&[
            p.parse_arg(0, "4294967291u32").unwrap(),
            p.parse_arg(1, "4294967279u32").unwrap(),
            p.parse_arg(2, "18446743979220271189u64").unwrap(),
        ])
        .unwrap();
    assert_eq!(lit, "true");
}

fn sudoku_reference(row: &[u8; 9], givens: &[u8; 9]) -> bool {
    let mut seen = [false; 10];
    for (&d, &g) in row.iter().zip(givens) {
        if !(1..=9).contains(&d) || seen[d as usize] || (g != 0 && g != d) {
            return false;
        }
        seen[d as usize] = true;
    }
    true
}

#[test]
fn sudoku_row_accepts_every_permutation_and_nothing_else() {
    let p = compile(&example("sudoku_row"));
    let givens = [0u8, 0, 3, 0, 0, 0, 0, 8, 0];
    let gbits: Vec<bool> = givens.iter().flat_map(|&g| le_bits(g as u64, 8)).collect();
    let st = proof::statement(
        &p,
        &[None, Some(gbits)],
        p.parse_result("true").unwrap(),
        b"",
    )
    .unwrap();
    let check = |row: &[u8; 9]| {
        let bits: Vec<bool> = row.iter().flat_map(|&d| le_bits(d as u64, 8)).collect();
        st.circuit.eval(&bits) == st.output
    };
    // every permutation of 1..9 (Heap's algorithm)
    let mut row = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    let mut c = [0usize; 9];
    let mut count = 0;
    let mut accepted = 0;
    let mut visit = |row: &[u8; 9]| {
        count += 1;
        let ok = check(row);
        assert_eq!(ok, sudoku_reference(row, &givens), "{row:?}");
        accepted += ok as usize;
    };
    visit(&row);
    let mut i = 1;
    while i < 9 {
        if c[i] < i {
            if i % 2 == 0 {
                row.swap(0, i);
            } else {
                row.swap(c[i], i);
            }
            visit(&row);
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    assert_eq!(count, 362_880);
    assert_eq!(accepted, 5040, "the 7! permutations with 3 and 8 in place");
    // rows that are not permutations: digits 0..=10 in every cell, drawn
    let mut rng = zkgames_core::rng::rng_from(Some(7));
    use rand::Rng as _;
    for _ in 0..20_000 {
        let mut r = [0u8; 9];
        for d in &mut r {
            *d = rng.gen_range(0..=10);
        }
        if rng.gen_bool(0.5) {
            r[2] = 3;
            r[7] = 8;
        }
        assert_eq!(check(&r), sudoku_reference(&r, &givens), "{r:?}");
    }
}

fn wordle_reference(answer: &[u8; 5], guess: &[u8; 5]) -> [u8; 5] {
    let mut fb = [0u8; 5];
    let mut used = [false; 5];
    for i in 0..5 {
        if guess[i] == answer[i] {
            fb[i] = 2;
            used[i] = true;
        }
    }
    for i in 0..5 {
        if fb[i] == 0 {
            if let Some(j) = (0..5).find(|&j| !used[j] && answer[j] == guess[i]) {
                used[j] = true;
                fb[i] = 1;
            }
        }
    }
    fb
}

#[test]
fn wordle_feedback_for_every_pair_of_words_over_three_letters() {
    let p = compile(&example("wordle"));
    let word = |mut k: usize| {
        let mut w = [0u8; 5];
        for x in &mut w {
            *x = b"aab"[0] + (k % 3) as u8;
            k /= 3;
        }
        w
    };
    let bits =
        |w: &[u8; 5]| -> Vec<bool> { w.iter().flat_map(|&d| le_bits(d as u64, 8)).collect() };
    for a in 0..243 {
        for g in 0..243 {
            let (answer, guess) = (word(a), word(g));
            let out = p.circuit().eval(&[bits(&answer), bits(&guess)].concat());
            assert!(!out[0]);
            let fb: Vec<u8> = out[1..].chunks(8).map(|c| from_le(c) as u8).collect();
            assert_eq!(
                fb,
                wordle_reference(&answer, &guess),
                "{answer:?} {guess:?}"
            );
        }
    }
    let (lit, _) = p
        .run(&[
            p.parse_arg(0, "[104u8, 101u8, 108u8, 108u8, 111u8]")
                .unwrap(),
            p.parse_arg(1, "[108u8, 108u8, 97u8, 109u8, 111u8]")
                .unwrap(),
        ])
        .unwrap();
    assert_eq!(lit, "[1, 1, 0, 0, 2]");
}

#[test]
fn folding_equals_the_exported_bristol_file_folded() {
    for name in ["age", "factors", "sudoku_row", "wordle"] {
        let p = compile(&example(name));
        let text = p.export().unwrap();
        let b = bristol::parse(text.as_bytes(), &bristol::Limits::default()).unwrap();
        assert_eq!(
            b.to_circuit(&vec![None; p.params().len()])
                .unwrap()
                .digest(),
            p.circuit().digest(),
            "{name}"
        );
        // the last parameter public, with some value
        let last = p.params().len() - 1;
        let w = p.params()[last].order.len();
        let v: Vec<bool> = (0..w).map(|i| i % 3 == 0).collect();
        let mut public = vec![None; p.params().len()];
        public[last] = Some(v);
        let widths: Vec<usize> = p.params().iter().map(|x| x.order.len()).collect();
        assert_eq!(
            b.to_circuit(&public).unwrap().digest(),
            circuit::fold(p.circuit(), &widths, &public)
                .unwrap()
                .digest(),
            "{name}"
        );
    }
}

#[test]
fn compiling_is_deterministic() {
    let text = example("wordle");
    let d = compile(&text).circuit().digest();
    for _ in 0..5 {
        assert_eq!(compile(&text).circuit().digest(), d);
    }
}

fn refusal(text: &str, limits: &Limits) -> Failed {
    match Program::compile(text, "main", limits) {
        Ok(_) => panic!("compiled: {text:.60}"),
        Err(f) => f,
    }
}

#[test]
fn compile_errors_are_garbles_report_and_one_line() {
    let f = refusal(
        "pub fn main(x: u8) -> u16 {\n    x + 1u8\n}\n",
        &Limits::default(),
    );
    let pretty = f.pretty.expect("a report");
    assert!(pretty.contains("x + 1u8"), "{pretty}");
    assert!(pretty.contains('^'), "{pretty}");
    let msg = f.error.to_string();
    assert!(!msg.contains('\n'));
    assert!(
        msg.starts_with("the program does not compile: Type error on line 2"),
        "{msg}"
    );
    let f = refusal("pub fn main(x: u8) -> u8 { x", &Limits::default());
    assert!(f.error.to_string().contains("does not compile"));
    // a function that is not there
    let f = match Program::compile(
        "pub fn main(x: u8) -> u8 { x }",
        "other",
        &Limits::default(),
    ) {
        Err(f) => f,
        Ok(_) => panic!(),
    };
    assert!(f.error.to_string().contains("other"), "{}", f.error);
}

#[test]
fn untrusted_programs_are_bounded() {
    let d = Limits::default();
    // too many bytes
    let big = format!("pub fn main(x: u8) -> u8 {{ x }}\n//{}", "a".repeat(70_000));
    assert!(refusal(&big, &d).error.to_string().contains("bytes"));
    // too many gates
    let f = refusal(
        "pub fn main(x: [u64; 64]) -> u64 { let mut s = 0u64; for v in x { s = s * v; } s }",
        &Limits::for_gates(10_000),
    );
    assert!(f.error.to_string().contains("gates"), "{}", f.error);
    // too long a compile: within the unrolling bound, but every step is a wide product
    let f = refusal(
        "pub fn main(x: u64) -> u64 { let mut s = x; for i in 0u32..10000u32 { s = s * x; } s }",
        &Limits {
            time: Duration::from_secs(1),
            ..d
        },
    );
    assert!(
        f.error.to_string().contains("longer than 1 s"),
        "{}",
        f.error
    );
    // deep nesting and long chains neither crash nor hang
    let deep = format!(
        "pub fn main(x: u8) -> u8 {{ {}x{} }}",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let _ = Program::compile(&deep, "main", &d);
    let chain = format!("pub fn main(x: u8) -> u8 {{ x{} }}", " ^ x".repeat(15_000));
    let _ = Program::compile(&chain, "main", &d);
    let unary = format!("pub fn main(x: u8) -> u8 {{ {}x }}", "!".repeat(50_000));
    let _ = Program::compile(&unary, "main", &d);
}

/// A refusal by the unrolling bound: one line, naming the construct and its line.
fn unrolls_too_far(text: &str, what: &str, line: usize) {
    let start = Instant::now();
    let f = refusal(text, &Limits::default());
    let msg = f.error.to_string();
    assert!(!msg.contains('\n'), "{msg}");
    assert!(
        msg.starts_with("the program is too large for a circuit: "),
        "{msg}"
    );
    assert!(msg.contains(what), "{msg}");
    assert!(msg.contains(&format!("on line {line} ")), "{msg}");
    assert!(msg.contains("--max-gates"), "{msg}");
    assert!(f.pretty.is_none());
    // refused by the measure, not by the watch (20 s)
    assert!(start.elapsed() < Duration::from_secs(5), "{msg}");
}

#[test]
fn hostile_programs_are_refused_before_compiling() {
    // ranges past 2^32 numbers are Garble's own type error; below, the bound's
    let f = refusal(
        "pub fn main(x: u64) -> u64 {\n  let mut s = x;\n  for i in 0u64..4611686018427387904u64 { s = s ^ i; }\n  s\n}",
        &Limits::default(),
    );
    assert!(
        f.error
            .to_string()
            .starts_with("the program does not compile: Type error on line 3"),
        "{}",
        f.error
    );
    unrolls_too_far(
        "pub fn main(x: u64) -> u64 {\n  let mut s = x;\n  for i in 0u64..4000000000u64 { s = s ^ i; }\n  s\n}",
        "a range of 4000000000 numbers",
        3,
    );
    unrolls_too_far(
        "pub fn main(x: u8) -> u8 {\n  let a = [0u8; 4000000000];\n  a[0] ^ x\n}",
        "an array of 4000000000 elements",
        2,
    );
    // nested loops, each small, their product billions
    unrolls_too_far(
        "pub fn main(x: u32) -> u32 {\n  let mut s = x;\n  for i in 0u32..60000u32 {\n    for j in 0u32..1000u32 { s = s ^ x; }\n  }\n  s\n}",
        "a loop of 60000 iterations",
        3,
    );
    // a huge const as an array size
    unrolls_too_far(
        "const N: usize = 4000000000usize;\npub fn main(x: u8) -> u8 {\n  let a = [x; N];\n  a[0]\n}",
        "an array of 4000000000 elements (N)",
        3,
    );
    // a huge parameter type, a struct of huge arrays, through a const
    unrolls_too_far(
        "const N: usize = 1000000usize;\nstruct S { a: [u64; N], b: [u64; N] }\npub fn main(s: S) -> u8 { 0u8 }",
        "the type S has 128000000 bits",
        3,
    );
    // arrays of arrays: each small, the value huge
    unrolls_too_far(
        "pub fn main(x: u8) -> u8 {\n  let a = [[[x; 1000]; 1000]; 1000];\n  x\n}",
        "bits",
        2,
    );
    // a loop calling a function that loops: inlined, the product counts
    unrolls_too_far(
        "fn f(x: u16) -> u16 {\n  let mut s = x;\n  for i in 0u16..3000u16 { s = s ^ x; }\n  s\n}\npub fn main(x: u16) -> u16 {\n  let mut s = x;\n  for i in 0u16..3000u16 { s = f(s); }\n  s\n}",
        "a loop of 3000 iterations",
        8,
    );
    // an enum whose variant is huge
    unrolls_too_far(
        "struct Big { a: [u64; 100000] }\nenum E { A, B(Big) }\npub fn main(x: u8) -> u8 {\n  let e = E::A;\n  x\n}",
        "a value of type E",
        4,
    );
    // a lower gate limit lowers the bound
    let f = refusal(
        "pub fn main(x: u8) -> u8 { let mut s = x; for i in 0u16..2000u16 { s = s ^ x; } s }",
        &Limits::for_gates(1000),
    );
    assert!(
        f.error.to_string().contains("the bound is 1000"),
        "{}",
        f.error
    );
    // the examples are far within the bound
    for name in ["age", "factors", "sudoku_row", "wordle"] {
        let text = example(name);
        let checked = garble_lang::check(&text).unwrap();
        let size = bound::check(&text, &checked, "main", Limits::DEFAULT_GATES).unwrap();
        assert!(
            size > 0 && size < Limits::DEFAULT_GATES / 10,
            "{name}: {size}"
        );
    }
}

#[test]
fn literals_of_the_wrong_type_are_refused_in_one_line() {
    let p = compile(&example("wordle"));
    for bad in [
        "7u8",
        "[1u8, 2u8]",
        "[1u16, 2u16, 3u16, 4u16, 5u16]",
        "[300u8; 5]",
        "[0u8; 4000000000]",
        "0u8..200u8",
        "",
        "(((((",
        "Foo::Bar",
    ] {
        let e = p.parse_arg(0, bad).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
        assert!(e.starts_with("answer (a [u8; 5])"), "{e}");
    }
    assert!(p.parse_result("[0u8; 5]").is_ok());
    assert!(p.parse_result("true").is_err());
}

#[test]
fn the_compiler_version_is_the_locked_one() {
    let lock =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock")).unwrap();
    let at = lock.find("name = \"garble_lang\"\nversion = \"").unwrap();
    let v = &lock[at + 32..];
    let v = &v[..v.find('"').unwrap()];
    assert_eq!(COMPILER, format!("garble_lang {v}"));
}
