//! `prover circuit …` and `verifier circuit …` through the binaries, on circuits nobody here
//! wrote (emp-toolkit's AES-128 and SHA-256 compression, read from circuits/emp) and
//! on our own exported ones: evaluation against the `aes` and `sha2` crates, proofs on every
//! engine, and every way a proof must be refused.

use crate::common;
use common::{run, tmp, PROVER, VERIFIER};
use rand::{Rng, SeedableRng};

fn shared(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("circuits/emp")
        .join(name);
    assert!(
        p.is_file(),
        "{} is missing: these tests need emp-toolkit's circuits in circuits/emp beside the checkout",
        p.display()
    );
    p.to_string_lossy().into_owned()
}

/// emp-toolkit's convention, in our hex: a group is a big-endian integer whose least
/// significant bit is wire 0, so its bytes come reversed.
fn emp_hex(bytes: &[u8]) -> String {
    let mut b = bytes.to_vec();
    b.reverse();
    hex::encode(b)
}

fn aes(key: &[u8; 16], pt: &[u8; 16]) -> [u8; 16] {
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    let c = aes::Aes128::new(&aes::cipher::Key::<aes::Aes128>::from(*key));
    let mut b = aes::Block::from(*pt);
    c.encrypt_block(&mut b);
    b.into()
}

#[test]
fn eval_matches_aes128_and_sha256_on_standard_and_random_inputs() {
    let a = shared("aes_128.txt");
    let (c, out, err) = run(
        PROVER,
        &[
            "circuit",
            "eval",
            &a,
            "--input",
            &format!(
                "0={}",
                emp_hex(&hex::decode("000102030405060708090a0b0c0d0e0f").unwrap())
            ),
            "--input",
            &format!(
                "1={}",
                emp_hex(&hex::decode("00112233445566778899aabbccddeeff").unwrap())
            ),
        ],
    );
    assert_eq!(c, 0, "{err}");
    let ct = hex::decode("69c4e0d86a7b0430d8cdb78070b4c55a").unwrap();
    assert_eq!(out.trim(), format!("0={}", emp_hex(&ct)));
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
    for _ in 0..4 {
        let key: [u8; 16] = rng.gen();
        let pt: [u8; 16] = rng.gen();
        let (c, out, err) = run(
            PROVER,
            &[
                "circuit",
                "eval",
                &a,
                "--input",
                &format!("1={}", emp_hex(&pt)),
                "--input",
                &format!("0={}", emp_hex(&key)),
                "--json",
            ],
        );
        assert_eq!(c, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["outputs"][0], emp_hex(&aes(&key, &pt)));
    }
    // SHA-256 of "abc": one compression of the padded block from the standard's IV
    let s = shared("sha256.txt");
    let mut block = [0u8; 64];
    block[..4].copy_from_slice(b"abc\x80");
    block[63] = 24;
    let iv =
        hex::decode("6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19").unwrap();
    let (c, out, err) = run(
        PROVER,
        &[
            "circuit",
            "eval",
            &s,
            "--input",
            &format!("0={}", emp_hex(&block)),
            "--input",
            &format!("1={}", emp_hex(&iv)),
        ],
    );
    assert_eq!(c, 0, "{err}");
    let abc =
        hex::decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad").unwrap();
    assert_eq!(out.trim(), format!("0={}", emp_hex(&abc)));
}

fn verify(circuit: &str, proof: &str, public: &[String], output: &str) -> (i32, String, String) {
    let mut args = vec!["circuit", "verify", circuit, proof, "--output", output];
    for p in public {
        args.extend(["--public", p.as_str()]);
    }
    run(VERIFIER, &args)
}

#[test]
fn aes128_proofs_on_every_engine_and_their_refusals() {
    let a = shared("aes_128.txt");
    let s = shared("sha256.txt");
    let key = emp_hex(&[0x2b; 16]);
    let pt = [0x32u8; 16];
    let public = format!("1={}", emp_hex(&pt));
    let ct = aes(&[0x2b; 16], &pt);
    let output = format!("0={}", emp_hex(&ct));
    let mut wrong_ct = ct;
    wrong_ct[15] ^= 1;
    // another circuit with the same shape: one XOR of the AES file made an AND
    let text = std::fs::read_to_string(&a).unwrap();
    let other = tmp("aes-other.txt");
    std::fs::write(&other, text.replacen(" XOR\n", " AND\n", 1)).unwrap();
    for system in ["vole", "zkbpp", "kkw"] {
        let p = tmp(&format!("aes-{system}.proof"));
        let (c, out, err) = run(
            PROVER,
            &[
                "circuit",
                "prove",
                &a,
                "--secret",
                &format!("0={key}"),
                "--public",
                &public,
                "--system",
                system,
                "-o",
                &p,
            ],
        );
        assert_eq!(c, 0, "{system}: {err}");
        assert_eq!(out.trim(), output, "the prover prints the outputs");
        let (c, out, err) = verify(&a, &p, std::slice::from_ref(&public), &output);
        assert_eq!(c, 0, "{system}: {err}");
        assert!(out.starts_with("ACCEPTED"), "{out}");
        // a flipped output bit, another public input, another circuit, no public group
        let (c, _, err) = verify(
            &a,
            &p,
            std::slice::from_ref(&public),
            &format!("0={}", emp_hex(&wrong_ct)),
        );
        assert_eq!(c, 1, "{system}: {err}");
        let (c, _, err) = verify(&a, &p, &[format!("1={}", emp_hex(&[0x33; 16]))], &output);
        assert_eq!(c, 1, "{system}: {err}");
        let (c, _, err) = verify(&other, &p, std::slice::from_ref(&public), &output);
        assert_eq!(c, 1, "{system}: {err}");
        assert!(err.contains("another circuit"), "{err}");
        let (c, _, err) = verify(&a, &p, &[], &output);
        assert_eq!(c, 1, "{system}: {err}");
        assert!(err.contains("public input groups 1"), "{err}");
        // a proof of this circuit is not one of SHA-256's: widths differ, said in words
        let (c, _, err) = verify(&s, &p, &[], &output);
        assert_eq!(c, 2, "{system}: {err}");
        // flipped proof bytes, spread over the file
        let bytes = std::fs::read(&p).unwrap();
        let bad = tmp(&format!("aes-{system}-bad.proof"));
        let step = (bytes.len() / 12).max(1);
        for i in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            std::fs::write(&bad, &b).unwrap();
            let (c, _, err) = verify(&a, &bad, std::slice::from_ref(&public), &output);
            assert!(
                c == 1 || c == 2,
                "{system}: byte {i} flipped was accepted: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
}

#[test]
fn tampering_with_any_byte_of_a_small_circuit_proof_is_refused() {
    let c = tmp("small.txt");
    std::fs::write(
        &c,
        "6 15\n2 4 4\n1 5\n\n4 2 0 1 4 5 8 9 MAND\n2 1 2 6 10 AND\n2 1 3 7 11 XOR\n1 1 11 12 INV\n1 1 1 13 EQ\n1 1 8 14 EQW\n",
    )
    .unwrap();
    for system in ["vole", "kkw"] {
        let p = tmp(&format!("small-{system}.proof"));
        let (code, out, err) = run(
            PROVER,
            &[
                "circuit",
                "prove",
                &c,
                "--secret",
                "0=0d",
                "--public",
                "1=0b",
                "--system",
                system,
                "--security",
                "16",
                "-o",
                &p,
            ],
        );
        assert_eq!(code, 0, "{err}");
        let output = out.trim().to_string();
        let bytes = std::fs::read(&p).unwrap();
        // every byte, in process through the library the binary calls
        let circ =
            zkgames::mpc::bristol::parse(&std::fs::read(&c).unwrap(), &Default::default()).unwrap();
        let public = vec![
            None,
            Some(zkgames::mpc::bristol::group_from_hex("0b", 4, "p").unwrap()),
        ];
        let outs = vec![zkgames::mpc::bristol::group_from_hex(&output[2..], 5, "o").unwrap()];
        let req = zkgames::mpc::engine::Required::bits(16);
        let f = zkgames::proof_file::ProofFile::from_bytes(&bytes).unwrap();
        zkgames::mpc::bristol::proof::verify(&circ, &f, &public, &outs, &req, b"").unwrap();
        for i in 0..bytes.len() {
            for bit in [0x01u8, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= bit;
                let ok = zkgames::proof_file::ProofFile::from_bytes(&b)
                    .map(|f| {
                        zkgames::mpc::bristol::proof::verify(&circ, &f, &public, &outs, &req, b"")
                            .is_ok()
                    })
                    .unwrap_or(false);
                assert!(
                    !ok,
                    "{system}: flipping bit {bit:#x} of byte {i} was accepted"
                );
            }
        }
    }
}

#[test]
fn exported_circuits_evaluate_and_prove_like_the_built_in_statements() {
    // SHA-256 of a 3-byte message: the exported circuit's output is the digest itself
    let c = tmp("sha256-3.txt");
    let (code, _, err) = run(
        PROVER,
        &["circuit", "export", "sha256", "--length", "3", "-o", &c],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(PROVER, &["circuit", "eval", &c, "--input", "0=616263"]);
    assert_eq!(code, 0, "{err}");
    let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    assert_eq!(out.trim(), format!("0={abc}"));
    for system in ["zkbpp", "vole"] {
        let pc = tmp(&format!("exp-{system}.proof"));
        let ps = tmp(&format!("sha-{system}.proof"));
        let (code, _, err) = run(
            PROVER,
            &[
                "circuit", "prove", &c, "--secret", "0=616263", "--system", system, "-o", &pc,
            ],
        );
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = run(
            PROVER,
            &[
                "sha256",
                "prove",
                "--preimage-hex",
                "616263",
                "--system",
                system,
                "-o",
                &ps,
            ],
        );
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = verify(&c, &pc, &[], &format!("0={abc}"));
        assert_eq!(code, 0, "{err}");
        // the same circuit, so the same engine proof: the descriptions agree line for line
        // (but the grinding counter, which the prover searches)
        let describe = |kind: &str, p: &str| {
            let (code, out, err) = run(VERIFIER, &[kind, "inspect", p]);
            assert_eq!(code, 0, "{err}");
            out.lines()
                .filter(|l| {
                    [
                        "rounds",
                        "views",
                        "corrections",
                        "masked witness",
                        "opened seeds",
                        "field checks",
                    ]
                    .iter()
                    .any(|k| l.starts_with(k))
                })
                .map(String::from)
                .collect::<Vec<_>>()
        };
        let (a, b) = (describe("circuit", &pc), describe("sha256", &ps));
        assert!(a.len() >= 2, "{a:?}");
        assert_eq!(a, b, "{system}");
    }
    // LowMC for a plaintext: the exported circuit encrypts as the library does
    let l = tmp("lowmc.txt");
    // LowMC's own bytes put a block's bit 0 first (most significant bit of byte 0); the
    // circuit's wire 8i + j is bit j of byte i: each byte's bits reversed
    let rev = |h: &str| {
        hex::encode(
            hex::decode(h)
                .unwrap()
                .iter()
                .map(|b| b.reverse_bits())
                .collect::<Vec<_>>(),
        )
    };
    let p = "0102030405060708090a0b0c0d0e0f1080";
    let (code, _, err) = run(
        PROVER,
        &["circuit", "export", "lowmc", "--plaintext", p, "-o", &l],
    );
    assert_eq!(code, 0, "{err}");
    let key = "a1b2c3d4e5f60718293a4b5c6d7e8f9080";
    let (code, out, err) = run(
        PROVER,
        &["circuit", "eval", &l, "--input", &format!("0={}", rev(key))],
    );
    assert_eq!(code, 0, "{err}");
    use zkgames::mpc::lowmc;
    let kb = lowmc::block_from_bytes(&hex::decode(key).unwrap(), "k").unwrap();
    let pb = lowmc::block_from_bytes(&hex::decode(p).unwrap(), "p").unwrap();
    let want = hex::encode(lowmc::block_to_bytes(&lowmc::encrypt(&kb, &pb)));
    assert_eq!(out.trim(), format!("0={}", rev(&want)));
    // AES-128 for a plaintext: the exported (boolean) circuit encrypts as the aes crate
    // does, and its second output group flags the S-boxes whose input was zero
    let a = tmp("aes128.txt");
    let pt: [u8; 16] = *b"zkgames exports!";
    let (code, _, err) = run(
        PROVER,
        &[
            "circuit",
            "export",
            "aes128",
            "--plaintext",
            &hex::encode(pt),
            "-o",
            &a,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
    let mut keys: Vec<[u8; 16]> = (0..4).map(|_| rng.gen()).collect();
    // a key whose first key-schedule S-box reads a zero byte (key byte 13)
    let mut zero = keys[0];
    zero[13] = 0;
    keys.push(zero);
    for key in keys {
        let (code, out, err) = run(
            PROVER,
            &[
                "circuit",
                "eval",
                &a,
                "--input",
                &format!("0={}", hex::encode(key)),
            ],
        );
        assert_eq!(code, 0, "{err}");
        let want = hex::encode(aes(&key, &pt));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], format!("0={want}"));
        let flags = hex::decode(lines[1].strip_prefix("1=").unwrap()).unwrap();
        assert_eq!(flags.len(), 25, "200 S-boxes");
        let nonzero = zkgames::mpc::aes128::sbox_inputs_nonzero(&key, &pt);
        assert_eq!(flags.iter().all(|&b| b == 0), nonzero, "{}", lines[1]);
    }
    // emp's SHA-256 compression and ours, exported in its wire order, agree
    let ours = tmp("compress.txt");
    let (code, _, err) = run(
        PROVER,
        &["circuit", "export", "sha256-compress", "-o", &ours],
    );
    assert_eq!(code, 0, "{err}");
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    let b: [u8; 64] = std::array::from_fn(|_| rng.gen());
    let st: [u8; 32] = rng.gen();
    let args = |f: &str| -> (i32, String, String) {
        run(
            PROVER,
            &[
                "circuit",
                "eval",
                f,
                "--input",
                &format!("0={}", hex::encode(b)),
                "--input",
                &format!("1={}", hex::encode(st)),
            ],
        )
    };
    let (x, y) = (args(&ours), args(&shared("sha256.txt")));
    assert_eq!(x.0, 0, "{}", x.2);
    assert_eq!(x.1, y.1);
}

/// Live sessions about emp's AES-128 circuit on every engine: the verifier serves the
/// statement (public plaintext, ciphertext), the prover connects with the key; another
/// ciphertext, another engine or another context is refused.
#[test]
fn live_sessions_on_every_engine() {
    let a = shared("aes_128.txt");
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(21);
    let key: [u8; 16] = rng.gen();
    let pt: [u8; 16] = rng.gen();
    let ct = aes(&key, &pt);
    let (k, p, c) = (
        format!("0={}", emp_hex(&key)),
        format!("1={}", emp_hex(&pt)),
        format!("0={}", emp_hex(&ct)),
    );
    let session = |vsys: &str, psys: &str, out: &str, vctx: &str| {
        let (pr, vo) = common::pipe_session(
            &[
                "circuit",
                "serve",
                &a,
                "--public",
                &p,
                "--output",
                out,
                "--stdio",
                "--system",
                vsys,
                "--context",
                vctx,
            ],
            &[
                "circuit",
                "connect",
                &a,
                "--secret",
                &k,
                "--public",
                &p,
                "-",
                "--system",
                psys,
                "--context",
                "game 1",
            ],
        );
        (
            pr.status.code().unwrap(),
            String::from_utf8_lossy(&pr.stderr).into_owned(),
            vo.status.code().unwrap(),
            String::from_utf8_lossy(&vo.stderr).into_owned(),
        )
    };
    for system in ["vole", "kkw", "zkbpp"] {
        let (pc, pe, vc, ve) = session(system, system, &c, "game 1");
        assert_eq!((pc, vc), (0, 0), "{system}: {pe} / {ve}");
        assert!(ve.contains("ACCEPTED") && ve.contains("circuit"), "{ve}");
        assert!(pe.contains("session accepted"), "{pe}");
    }
    // another ciphertext: the statements differ, the session is refused at the Hello
    let mut other = ct;
    other[0] ^= 1;
    let (pc, _, vc, ve) = session("vole", "vole", &format!("0={}", emp_hex(&other)), "game 1");
    assert!(pc != 0 && vc == 1, "{pc} {vc}: {ve}");
    // another engine, another context
    let (pc, _, vc, ve) = session("kkw", "vole", &c, "game 1");
    assert!(pc != 0 && vc != 0, "{ve}");
    assert!(ve.contains("KKW") || ve.contains("protocol"), "{ve}");
    let (pc, _, vc, ve) = session("vole", "vole", &c, "game 2");
    assert!(pc != 0 && vc == 1 && ve.contains("context"), "{ve}");
}

#[test]
fn bad_circuits_and_values_are_one_line_with_exit_2() {
    let bad = tmp("bad.txt");
    std::fs::write(&bad, "2 5\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n2 1 2 0 2 XOR\n").unwrap();
    let (c, out, err) = run(VERIFIER, &["circuit", "inspect", &bad]);
    assert_eq!(c, 2);
    assert!(out.is_empty());
    assert!(err.contains("line 6: wire 2 is written twice"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (c, out, _) = run(VERIFIER, &["circuit", "inspect", &bad, "--json"]);
    assert_eq!(c, 2);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["exit"], 2);
    let a = shared("aes_128.txt");
    for (args, want) in [
        (
            vec!["circuit", "eval", a.as_str(), "--input", "0=00"],
            "exactly 16 bytes",
        ),
        (
            vec![
                "circuit",
                "eval",
                a.as_str(),
                "--input",
                &format!("0={}", "00".repeat(16)),
            ],
            "no value for group 1",
        ),
        (
            vec!["circuit", "eval", a.as_str(), "--input", "2=00"],
            "the circuit has 2 input groups (0 to 1), not 2",
        ),
        (
            vec!["circuit", "eval", a.as_str(), "--input", "x"],
            "write it as G=HEX",
        ),
        (
            vec![
                "circuit",
                "prove",
                a.as_str(),
                "--secret",
                &format!("0={}", "00".repeat(16)),
                "--public",
                &format!("0={}", "00".repeat(16)),
            ],
            "both --secret and --public",
        ),
        (
            vec![
                "circuit",
                "prove",
                a.as_str(),
                "--public",
                &format!("0={}", "00".repeat(16)),
                "--public",
                &format!("1={}", "00".repeat(16)),
            ],
            "nothing to prove",
        ),
    ] {
        let (c, _, err) = run(PROVER, &args);
        assert_eq!(c, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (c, _, err) = run(VERIFIER, &["circuit", "inspect", &a, "--max-gates", "1000"]);
    assert_eq!(c, 2, "{err}");
    assert!(
        err.contains("over the limit") && err.contains("--max-gates"),
        "{err}"
    );
    // a value from a file
    let v = tmp("key.hex");
    std::fs::write(&v, format!("{}\n{}\n", "00".repeat(8), "00".repeat(8))).unwrap();
    let (c, _, err) = run(
        PROVER,
        &[
            "circuit",
            "eval",
            &a,
            "--input",
            &format!("0=@{v}"),
            "--input",
            &format!("1=@{v}"),
        ],
    );
    assert_eq!(c, 0, "{err}");
}
