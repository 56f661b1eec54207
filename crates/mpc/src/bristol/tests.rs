//! The reader against circuits nobody here wrote (emp-toolkit's AES-128 and SHA-256
//! compression, checked against the `aes` and `sha2` crates and the standards' vectors),
//! random circuits against a plain evaluation, every refusal by its message, and the round
//! trip of our own circuits.

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::*;
use crate::circuit::random_circuit;

fn shared(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../circuits/emp")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): these tests need emp-toolkit's circuits in circuits/emp beside the checkout",
            p.display()
        )
    })
}

/// emp-toolkit's convention: a group is one big-endian integer, wire 0 its least
/// significant bit (the last byte's bit 0).
fn emp_bits(bytes: &[u8]) -> Vec<bool> {
    let n = bytes.len();
    (0..8 * n)
        .map(|i| bytes[n - 1 - i / 8] >> (i % 8) & 1 == 1)
        .collect()
}

fn aes_ref(key: &[u8; 16], pt: &[u8; 16]) -> [u8; 16] {
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    let c = aes::Aes128::new(&aes::cipher::Key::<aes::Aes128>::from(*key));
    let mut b = aes::Block::from(*pt);
    c.encrypt_block(&mut b);
    b.into()
}

#[test]
fn emp_aes128_matches_fips197_and_the_aes_crate() {
    let c = parse(&shared("aes_128.txt"), &Limits::default()).unwrap();
    assert_eq!(c.inputs(), &[128, 128]);
    assert_eq!(c.outputs(), &[128]);
    assert_eq!(c.counts().ands(), 6400);
    let key: [u8; 16] = hex::decode("000102030405060708090a0b0c0d0e0f")
        .unwrap()
        .try_into()
        .unwrap();
    let pt: [u8; 16] = hex::decode("00112233445566778899aabbccddeeff")
        .unwrap()
        .try_into()
        .unwrap();
    let out = c.eval(&[emp_bits(&key), emp_bits(&pt)]).unwrap();
    assert_eq!(
        out[0],
        emp_bits(&hex::decode("69c4e0d86a7b0430d8cdb78070b4c55a").unwrap())
    );
    let ir = c.to_circuit(&[None, None]).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for i in 0..64 {
        let key: [u8; 16] = rng.gen();
        let pt: [u8; 16] = rng.gen();
        let want = emp_bits(&aes_ref(&key, &pt));
        assert_eq!(c.eval(&[emp_bits(&key), emp_bits(&pt)]).unwrap()[0], want);
        let mut input = emp_bits(&key);
        input.extend(emp_bits(&pt));
        assert_eq!(ir.eval(&input), want);
        if i < 8 {
            // the plaintext public: folded in, the key the only input
            let fixed = c.to_circuit(&[None, Some(emp_bits(&pt))]).unwrap();
            assert_eq!(fixed.n_inputs(), 128);
            assert_eq!(fixed.eval(&emp_bits(&key)), want);
        }
    }
}

fn sha256_ref(state: &[u32; 8], block: &[u8; 64]) -> [u32; 8] {
    let mut s = *state;
    sha2::compress256(
        &mut s,
        &[*sha2::digest::generic_array::GenericArray::from_slice(
            block,
        )],
    );
    s
}

fn words_be(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_be_bytes()).collect()
}

const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

#[test]
fn emp_sha256_compression_matches_fips180_and_sha2() {
    let c = parse(&shared("sha256.txt"), &Limits::default()).unwrap();
    assert_eq!(c.inputs(), &[512, 256]);
    assert_eq!(c.counts().ands(), 22573);
    // FIPS 180-4's one-block example, "abc"
    let mut block = [0u8; 64];
    block[..4].copy_from_slice(b"abc\x80");
    block[63] = 24;
    let out = c
        .eval(&[emp_bits(&block), emp_bits(&words_be(&IV))])
        .unwrap();
    let abc =
        hex::decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad").unwrap();
    assert_eq!(out[0], emp_bits(&abc));
    // ours, exported in emp's wire order, agrees gate for gate in what it computes
    let ours = crate::sha256::compress_circuit();
    let ir = c.to_circuit(&[None, None]).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for _ in 0..24 {
        let block: [u8; 64] = std::array::from_fn(|_| rng.gen());
        let state: [u32; 8] = rng.gen();
        let want = emp_bits(&words_be(&sha256_ref(&state, &block)));
        let input = [emp_bits(&block), emp_bits(&words_be(&state))];
        assert_eq!(c.eval(&input).unwrap()[0], want);
        assert_eq!(ir.eval(&input.concat()), want);
        assert_eq!(ours.eval(&input.concat()), want);
    }
}

/// A random valid Bristol Fashion text: `groups` input groups, random gates of every type
/// over shuffled wire numbers, two output groups.
fn random_bristol(rng: &mut ChaCha20Rng, n_gates: usize) -> String {
    let n_groups = rng.gen_range(1..4);
    let widths: Vec<usize> = (0..n_groups).map(|_| rng.gen_range(1..12)).collect();
    let n_in: usize = widths.iter().sum();
    // gates write the wires after the inputs, in a shuffled order; outputs are the last
    let mut avail: Vec<usize> = (0..n_in).collect();
    let mut pending: Vec<(String, Vec<usize>, String)> = Vec::new();
    let mut n_out_wires = 0;
    for _ in 0..n_gates {
        let pick = |rng: &mut ChaCha20Rng, avail: &Vec<usize>| avail[rng.gen_range(0..avail.len())];
        let kind = rng.gen_range(0..6);
        let (ins, k, ty) = match kind {
            0 => (vec![pick(rng, &avail), pick(rng, &avail)], 1, "XOR"),
            1 => (vec![pick(rng, &avail), pick(rng, &avail)], 1, "AND"),
            2 => (vec![pick(rng, &avail)], 1, "INV"),
            3 => (vec![pick(rng, &avail)], 1, "EQW"),
            4 => (vec![], 1, "EQ"),
            _ => {
                let m = rng.gen_range(1..4);
                ((0..2 * m).map(|_| pick(rng, &avail)).collect(), m, "MAND")
            }
        };
        let ids: Vec<usize> = (0..k)
            .map(|_| {
                n_out_wires += 1;
                n_out_wires - 1
            })
            .collect();
        let ins_txt = if ty == "EQ" {
            format!("{}", rng.gen_range(0..2))
        } else {
            ins.iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        pending.push((ins_txt, ids.clone(), ty.to_string()));
        // placeholder numbers for now: gate outputs get real wire numbers below
        for id in ids {
            avail.push(usize::MAX - id);
        }
    }
    // real numbers: a random permutation of n_in..n_in+n_out_wires
    let mut perm: Vec<usize> = (n_in..n_in + n_out_wires).collect();
    for i in (1..perm.len()).rev() {
        let j = rng.gen_range(0..=i);
        perm.swap(i, j);
    }
    let real = |w: usize| {
        if w >= n_in && w > usize::MAX / 2 {
            perm[usize::MAX - w]
        } else {
            w
        }
    };
    let total = n_in + n_out_wires;
    // the last o wires are the outputs: add EQW gates copying random wires to new ones there
    let o1 = rng.gen_range(1..6);
    let o2 = rng.gen_range(1..6);
    let mut out = String::new();
    let n_lines = pending.len() + o1 + o2;
    out.push_str(&format!("{n_lines}   {}\n", total + o1 + o2));
    out.push_str(&format!(
        "{n_groups} {}\n",
        widths
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    ));
    out.push_str(&format!("2 {o1} {o2}\n\n"));
    for (ins, ids, ty) in &pending {
        let ins = if ty == "EQ" {
            ins.clone()
        } else {
            ins.split(' ')
                .map(|w| real(w.parse().unwrap()).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let k = if ty == "EQ" {
            1
        } else {
            ins.split(' ').count()
        };
        let outs = ids
            .iter()
            .map(|&i| perm[i].to_string())
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!("{k} {} {ins} {outs} {ty}\n", ids.len()));
    }
    for i in 0..o1 + o2 {
        let src = real(avail[rng.gen_range(0..avail.len())]);
        out.push_str(&format!("1 1 {src} {} EQW\n", total + i));
    }
    out.push_str("\n\n");
    out
}

#[test]
fn random_circuits_convert_to_the_same_function_with_any_public_groups() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for n in 0..300 {
        let text = random_bristol(&mut rng, 1 + n % 40);
        let c =
            parse(text.as_bytes(), &Limits::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        for _ in 0..4 {
            let values: Vec<Vec<bool>> = c
                .inputs()
                .iter()
                .map(|&w| (0..w).map(|_| rng.gen()).collect())
                .collect();
            let want = c.eval(&values).unwrap();
            let public: Vec<Option<Vec<bool>>> = values
                .iter()
                .map(|v| rng.gen_bool(0.5).then(|| v.clone()))
                .collect();
            let ir = c.to_circuit(&public).unwrap();
            let got = ir.eval(&c.witness(&values, &public));
            assert_eq!(c.split_outputs(&got), want, "{text}");
        }
        // the digest ignores spacing and line ends, not content
        let spaced = text.replace(' ', "  \t").replace('\n', "\r\n");
        assert_eq!(
            parse(spaced.as_bytes(), &Limits::default())
                .unwrap()
                .digest(),
            c.digest()
        );
    }
}

#[test]
fn any_changed_gate_changes_the_digest() {
    let text = "3 6\n2 2 1\n1 1\n\n2 1 0 1 3 AND\n2 1 3 2 4 XOR\n1 1 4 5 INV\n";
    let base = parse(text.as_bytes(), &Limits::default()).unwrap().digest();
    for other in [
        "3 6\n2 2 1\n1 1\n\n2 1 0 1 3 XOR\n2 1 3 2 4 XOR\n1 1 4 5 INV\n",
        "3 6\n2 2 1\n1 1\n\n2 1 1 0 3 AND\n2 1 3 2 4 XOR\n1 1 4 5 INV\n",
        "3 6\n2 2 1\n1 1\n\n2 1 0 1 3 AND\n2 1 3 2 4 XOR\n1 1 4 5 EQW\n",
        "3 6\n2 1 2\n1 1\n\n2 1 0 1 3 AND\n2 1 3 2 4 XOR\n1 1 4 5 INV\n",
    ] {
        assert_ne!(
            parse(other.as_bytes(), &Limits::default())
                .unwrap()
                .digest(),
            base
        );
    }
}

#[test]
fn our_circuits_survive_the_round_trip_with_their_digest() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    for n in 0..200 {
        let c = random_circuit(&mut rng, 1 + n % 9, n % 50, 1 + n % 5);
        let (ni, no) = (c.n_inputs() as u32, c.n_outputs() as u32);
        let ins = if ni > 1 { vec![1, ni - 1] } else { vec![ni] };
        let text = export(&c, &ins, &[no]).unwrap();
        let b = parse(text.as_bytes(), &Limits::default()).unwrap();
        let back = b.to_circuit(&vec![None; ins.len()]).unwrap();
        assert_eq!(back.digest(), c.digest(), "{text}");
    }
    for len in [0, 3, 55, 56, 100] {
        let c = crate::sha256::sha256_circuit(len).unwrap();
        if len == 0 {
            // no input wire: not a circuit anyone can prove anything about
            assert!(export(&c, &[], &[256]).is_ok());
            continue;
        }
        let text = export(&c, &[8 * len as u32], &[256]).unwrap();
        let back = parse(text.as_bytes(), &Limits::default()).unwrap();
        assert_eq!(back.to_circuit(&[None]).unwrap().digest(), c.digest());
        assert_eq!(back.counts().ands() as usize, c.n_and());
    }
}

fn refused(text: &str, limits: &Limits) -> String {
    match parse(text.as_bytes(), limits) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_files_are_refused_with_the_line_and_the_reason() {
    let l = Limits::default();
    let ok = "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n2 1 2 0 4 XOR\n";
    assert!(parse(ok.as_bytes(), &l).is_ok());
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        ("2\n", "line 1: the first line should be two numbers"),
        ("x 5\n", "line 1: the gate count should be a whole number"),
        ("0 5\n", "line 2: missing the input groups line"),
        (
            "0 5\n2 1\n1 1\n",
            "line 2: the header announces 2 input groups but gives 1 widths",
        ),
        ("0 5\n2 1 0\n1 1\n", "input group 1 has width 0"),
        ("0 5\n0\n1 1\n", "at least one input group"),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n",
            "the file ends after 1 gates; the header announces 2",
        ),
        (
            "1 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n2 1 2 0 4 XOR\n",
            "line 6: more gates than the 1",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 OR\n2 1 2 0 4 XOR\n",
            "line 5: unknown gate type 'OR'",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 INV\n2 1 2 0 4 XOR\n",
            "line 5: a INV gate cannot have 2 inputs and 1 outputs",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 AND\n2 1 2 0 4 XOR\n",
            "but the line has 2 wires",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 3 2 AND\n2 1 2 0 4 XOR\n",
            "line 5: the gate reads wire 3, which no input or earlier gate writes",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 7 AND\n2 1 2 0 4 XOR\n",
            "line 5: wire 7 is out of range",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n2 1 2 0 2 XOR\n",
            "line 6: wire 2 is written twice",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 1 AND\n2 1 2 0 4 XOR\n",
            "the gate writes wire 1, which is an input",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n2 1 2 0 3 XOR\n",
            "output wire 4 is never written",
        ),
        ("2 3\n2 1 1\n1 2\n\n2 1 0 1 2 AND\n", "overlap"),
        (
            "2 5\n2 1 1\n1 1\n\n1 1 2 2 EQ\n2 1 2 0 4 XOR\n",
            "an EQ gate's input is the constant 0 or 1",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n4 2 0 1 0 1 2 3 AND\n",
            "a AND gate cannot have 4 inputs",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n3 2 0 1 0 2 3 MAND\n",
            "a MAND gate cannot have 3 inputs",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 -1 2 AND\n",
            "should be a whole number, found '-1'",
        ),
        ("3999999 5\n2 1 1\n1 1\n", "more than a file of"),
        (
            "1 999999\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n",
            "output wire 999998 is never written",
        ),
        (
            "\u{feff}2 5\n2 1 1\n1 1\n",
            "line 1: the gate count should be a whole number, found a byte-order mark (U+FEFF) at column 1",
        ),
        (
            "2 5\n2 1 1\n1 1\n2 1 0 1\u{a0}2 AND\n",
            "line 4: the gate announces 2 inputs and 1 outputs but the line has 2 wires",
        ),
        (
            "2 5\n2 1 1\n1 1\n2 1 0 1\u{a0}2 4 AND\n",
            "line 4: an input wire should be a whole number, found a no-break space (U+00A0) at column 8",
        ),
        (
            "2 5\n2 1 1\n1 1\n2 1 0 1 2\u{0} AND\n",
            "an output wire should be a whole number, found a NUL character (U+0000) at column 10",
        ),
        (
            "2 5\n2 1 1\n1 1\n2 1 0 1 2 AND\u{202e}\n",
            "unknown gate type holding a bidirectional control (U+202E)",
        ),
        (
            "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n2 1 2 0 4 XOR\n\u{0}",
            "line 7: more gates than the 2",
        ),
    ];
    for (text, want) in cases {
        let e = refused(text, &l);
        assert!(e.contains(want), "for {text:?}: got '{e}', wanted '{want}'");
        assert!(!e.contains("\\u{"), "a Rust escape in '{e}'");
        assert!(!e.contains('\n') && e.len() < 200, "{e}");
    }
    // over the limits, with the flag to raise them named
    let small = Limits::for_gates(1);
    let e = refused(ok, &small);
    assert!(e.contains("--max-gates"), "{e}");
    let e = refused(&"9".repeat(2 << 20), &small);
    assert!(e.contains("over the limit"), "{e}");
    let e = parse(b"2 5\n\xff", &l).unwrap_err().to_string();
    assert!(e.contains("not text"), "{e}");
}

#[test]
fn hex_values_map_bit_j_of_byte_i_to_wire_8i_plus_j() {
    assert_eq!(
        group_from_hex("01", 3, "x").unwrap(),
        vec![true, false, false]
    );
    assert!(group_from_hex("0201", 9, "x").unwrap()[1]);
    assert!(group_from_hex("0201", 9, "x").unwrap()[8]);
    assert!(group_from_hex("08", 3, "x")
        .unwrap_err()
        .to_string()
        .contains("must be zero"));
    assert!(group_from_hex("0102", 3, "x")
        .unwrap_err()
        .to_string()
        .contains("exactly 1 bytes"));
    assert!(group_from_hex("zz", 3, "x")
        .unwrap_err()
        .to_string()
        .contains("not hex"));
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for w in 1..70 {
        let v: Vec<bool> = (0..w).map(|_| rng.gen()).collect();
        assert_eq!(group_from_hex(&group_to_hex(&v), w as u32, "x").unwrap(), v);
    }
}

#[test]
fn depth_counts_the_longest_path_and_its_ands() {
    let c = parse(
        b"3 6\n2 2 1\n1 1\n\n2 1 0 1 3 AND\n2 1 3 2 4 AND\n1 1 4 5 INV\n",
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(c.depth(), (3, 2));
}

/// Issue 52, item 5: the answer never depends on spacing. A circuit with wires no gate
/// writes is read the same, padded or not (the wire table is bounded by the wire limit
/// alone), and a header over the limit is refused the same, padded or not.
#[test]
fn padding_never_changes_the_answer() {
    let l = Limits::default();
    // 100 wires, 4 of them used (inputs 0 and 1, gate outputs 2 and 99)
    let tight = "2 100\n2 1 1\n1 1\n2 1 0 1 2 AND\n2 1 2 0 99 XOR\n";
    let pads = [
        format!("{tight}{}\n", " ".repeat(200)),
        tight.replace('\n', "\n\n\n"),
        tight.replace(' ', "   \t "),
        tight.replace('\n', "\r\n"),
    ];
    let a = parse(tight.as_bytes(), &l).expect("unused wires are allowed");
    for v in 0..4u8 {
        let ins = vec![vec![v & 1 == 1], vec![v & 2 == 2]];
        let want = ((v & 1 == 1) & (v & 2 == 2)) ^ (v & 1 == 1);
        assert_eq!(a.eval(&ins).unwrap(), vec![vec![want]]);
    }
    for p in &pads {
        let b = parse(p.as_bytes(), &l).unwrap();
        assert_eq!(b.digest(), a.digest());
        assert_eq!(b.n_wires(), 100);
    }
    // over the wire limit: the same refusal however long the file
    let small = Limits::for_gates(10);
    let over = format!(
        "2 {}\n2 1 1\n1 1\n2 1 0 1 2 AND\n2 1 2 0 3 XOR\n",
        small.wires + 1
    );
    let e1 = refused(&over, &small);
    let e2 = refused(
        &format!("{over}{}\n", " ".repeat(100_000)),
        &Limits {
            bytes: 1 << 30,
            ..small
        },
    );
    assert!(e1.contains("over the limit"), "{e1}");
    assert_eq!(e1, e2);
    // at the limit: accepted, padded or not
    let at = format!(
        "2 {}\n2 1 1\n1 1\n2 1 0 1 2 AND\n2 1 2 0 {} XOR\n",
        small.wires,
        small.wires - 1
    );
    let x = parse(at.as_bytes(), &small).unwrap();
    let y = parse(format!("{at}{}\n", " ".repeat(1000)).as_bytes(), &small).unwrap();
    assert_eq!(x.digest(), y.digest());
}
