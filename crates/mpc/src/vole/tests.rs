use super::*;
use crate::circuit::Builder;
use rand_core::SeedableRng;

/// The tests' statement: tag `t`, no public bytes, no context.
fn statement<'a>(circuit: &'a Circuit, output: &'a [bool]) -> Statement<'a> {
    Statement {
        tag: b"t",
        circuit,
        public: b"",
        output,
        context: b"",
    }
}

fn small_circuit() -> Circuit {
    // out = (a ∧ b) ⊕ ¬(c ∧ (a ⊕ b)), plus out2 = a ∧ c
    let mut b = Builder::new(3);
    let (x, y, z) = (b.input(0), b.input(1), b.input(2));
    let ab = b.and(x, y);
    let xy = b.xor(x, y);
    let t = b.and(z, xy);
    let nt = b.not(t);
    let o = b.xor(ab, nt);
    let o2 = b.and(x, z);
    b.output(o);
    b.output(o2);
    b.finish()
}

/// The response's two lists have the bytes of plain vectors, and their lengths are not
/// trusted when decoding: a claimed 2^40 seeds in a few bytes is refused without reserving
/// room for them.
#[test]
fn response_lists_are_plain_vectors_with_untrusted_lengths() {
    use zkgames_core::proof_file::{decode, encode};
    let r = Response {
        seeds: (0..5u8).map(|i| [i; 16]).collect(),
        commitments: vec![[9u8; 32]; 2],
    };
    assert_eq!(
        encode(&r),
        encode(&(r.seeds.clone(), r.commitments.clone())),
        "the same bytes as (Vec, Vec)"
    );
    assert_eq!(decode::<Response>(&encode(&r), "t").unwrap(), r);
    let mut b = vec![253u8];
    b.extend((1u64 << 40).to_le_bytes());
    b.extend([0u8; 48]);
    assert!(decode::<Response>(&b, "t").is_err());
    // and a commitment list that claims more items than it has
    let mut b = encode(&r);
    let n = b.len();
    b[n - 2 * 32 - 1] = 3;
    assert!(decode::<Response>(&b, "t").is_err());
}

#[test]
fn honest_proofs_verify_and_wrong_outputs_do_not() {
    let c = small_circuit();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    for p in [
        Params::new(1, 4, 0),
        Params::new(3, 10, 2),
        params_for(128, Profile::Speed).unwrap(),
    ] {
        for w in 0..8u8 {
            let wit: Vec<bool> = (0..3).map(|i| (w >> i) & 1 == 1).collect();
            let out = c.eval(&wit);
            let st = Statement {
                tag: b"t",
                circuit: &c,
                public: b"",
                output: &out,
                context: b"ctx",
            };
            let pr = prove(&st, &wit, p, &mut rng).unwrap();
            verify(&st, &pr, 0.0).unwrap();
            let mut bad = out.clone();
            bad[0] ^= true;
            let st2 = Statement { output: &bad, ..st };
            if p.delta_bits > 8 {
                assert!(verify(&st2, &pr, 0.0).is_err());
            }
        }
    }
}

/// `prove` evaluates the circuit in its own gate walk instead of calling `check_witness`:
/// it must refuse exactly what `check_witness` refuses, with the same words, on every
/// witness of a circuit with an inverted byte (a zero byte, a wrong output, an honest one).
#[test]
fn prove_refuses_exactly_what_the_witness_check_refuses() {
    // out = inv(x ⊕ k)[0..3] ⊕ (x_0 ∧ x_1), x an 8-bit input, k a constant byte
    let mut b = Builder::new(8);
    let x: Vec<Bit> = (0..8).map(|i| b.input(i)).collect();
    let k = 0x5au8;
    let byte: [Bit; 8] = std::array::from_fn(|i| b.xor(x[i], Bit::Const((k >> i) & 1 == 1)));
    let y = b.gf256_inv(&byte);
    let a = b.and(x[0], x[1]);
    for &o in &y[..3] {
        let t = b.xor(o, a);
        b.output(t);
    }
    let c = b.finish();
    assert_eq!(c.n_inv(), 1);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    let p = Params::new(2, 6, 0);
    let mut refused = [0usize; 2];
    for w in 0..256u32 {
        let wit: Vec<bool> = (0..8).map(|i| (w >> i) & 1 == 1).collect();
        let honest = c.eval(&wit);
        for flip in [None, Some(0), Some(2)] {
            let mut out = honest.clone();
            if let Some(i) = flip {
                out[i] ^= true;
            }
            let st = statement(&c, &out);
            let want = crate::statement::check_witness(&st, &wit);
            match (prove(&st, &wit, p, &mut rng), want) {
                (Ok(pr), Ok(())) => verify(&st, &pr, 0.0).unwrap(),
                (Err(e), Err(f)) => {
                    assert_eq!(e.to_string(), f.to_string(), "witness {w:#x}");
                    refused[(w == k as u32) as usize] += 1;
                }
                (got, want) => panic!(
                    "witness {w:#x}: prove {:?}, check {want:?}",
                    got.map(|_| ())
                ),
            }
        }
    }
    // the zero byte (w = k) is refused for every output, the others for the two wrong ones
    assert_eq!(refused, [255 * 2, 3]);
}

/// The parallel, blocked grinding search finds the smallest valid counter, whatever the
/// block length its `w` gives, as a serial search does.
#[test]
fn grinding_finds_the_smallest_valid_counter() {
    let c = small_circuit();
    let wit = [true, false, true];
    let out = c.eval(&wit);
    let st = statement(&c, &out);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    // τ = 2 trees of 2^4 leaves: 5 to 8 opened seeds; T = 6 admits about a quarter
    for (w, t) in [
        (0, 0),
        (1, 0),
        (4, 0),
        (6, 0),
        (7, 0),
        (9, 0),
        (0, 6),
        (3, 7),
        (6, 5),
    ] {
        let p = Params::bounded(2, 8, w, t);
        for _ in 0..4 {
            let state = commit(&st, &wit, p, &mut rng, &[]).unwrap();
            let (counter, ch) = state.grind().unwrap();
            let serial = (0u32..)
                .find_map(|k| {
                    Challenge::from_chall3(&chall3(&state.transcript, k), &p)
                        .filter(|c| c.admissible(&p))
                        .map(|c| (k, c))
                })
                .unwrap();
            assert_eq!((counter, ch.clone()), serial, "w = {w}, T = {t}");
            // the response has exactly T seeds, zero past the opened ones
            let r = state.respond(&ch).unwrap();
            let n = ch.opened(&p);
            assert_eq!(r.seeds.len(), if t > 0 { t as usize } else { n });
            assert!(r.seeds[n..].iter().all(|s| *s == [0; 16]));
        }
    }
}

/// A bounded proof: honest ones verify; a nonzero padding seed, a seed list one longer or
/// shorter, another bound in the parameters, or a counter whose challenge opens more than
/// `T` seeds are all rejected.
#[test]
fn the_bounded_opening_is_checked() {
    let c = small_circuit();
    let wit = [true, true, false];
    let out = c.eval(&wit);
    let st = statement(&c, &out);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
    let p = Params::bounded(2, 8, 1, 7);
    let mut padded = 0;
    for _ in 0..12 {
        let pr = prove(&st, &wit, p, &mut rng).unwrap();
        verify(&st, &pr, 0.0).unwrap();
        let ch = Challenge::from_delta(&pr.delta, &p).unwrap();
        let (_, tr) = recompute_with_transcript(&st, &p, &pr.commit, &ch, &pr.response).unwrap();
        assert_eq!(
            Challenge::from_chall3(&chall3(&tr, pr.counter), &p),
            Some(ch.clone())
        );
        let n = ch.opened(&p);
        assert!(n <= 7);
        if n < 7 {
            padded += 1;
            let mut bad = pr.clone();
            bad.response.seeds[6][3] ^= 1;
            assert!(verify(&st, &bad, 0.0)
                .unwrap_err()
                .to_string()
                .contains("padding"));
        }
        let mut bad = pr.clone();
        bad.response.seeds.push([0; 16]);
        assert!(verify(&st, &bad, 0.0).is_err());
        let mut bad = pr.clone();
        bad.response.seeds.pop();
        assert!(verify(&st, &bad, 0.0).is_err());
        for open in [0, 6, 8] {
            let mut bad = pr.clone();
            bad.params.open = open;
            assert!(verify(&st, &bad, 0.0).is_err(), "T = {open}");
        }
        // the next counters with zero grinding bits: those that open more than 7 seeds are
        // not valid challenges
        let too_wide: Vec<u32> = (pr.counter + 1..pr.counter + 400)
            .filter(|&k| {
                Challenge::from_chall3(&chall3(&tr, k), &p).is_some_and(|c| c.opened(&p) > 7)
            })
            .take(2)
            .collect();
        // with w = 1 and T = 7, about a quarter of the counters are such
        assert_eq!(too_wide.len(), 2);
        for k in too_wide {
            let mut bad = pr.clone();
            bad.counter = k;
            assert!(verify(&st, &bad, 0.0).is_err());
        }
        // a prover that answers such a counter's Δ with its whole opening (more than T
        // seeds): the Fiat–Shamir check would pass, the bound refuses it
        let state = commit(&st, &wit, p, &mut rng, &[]).unwrap();
        let k = (0u32..)
            .find(|&k| {
                Challenge::from_chall3(&chall3(&state.transcript, k), &p)
                    .is_some_and(|c| c.opened(&p) > 7)
            })
            .unwrap();
        let wide = Challenge::from_chall3(&chall3(&state.transcript, k), &p).unwrap();
        let dom = vc::Domains::new(&state.commit.core.salt);
        let response = Response {
            seeds: state.tree.open(&wide.hidden, 0).unwrap(),
            commitments: (0..p.tau())
                .map(|i| {
                    let h = wide.hidden[i] as usize;
                    vc::leaf(&dom, i as u32, h, state.tree.leaf(i, h))
                })
                .collect(),
        };
        assert!(response.seeds.len() > 7);
        let mut wide_proof = Proof {
            params: p,
            commit: state.commit.core.clone(),
            delta: le(wide.delta(&p)),
            counter: k,
            response,
        };
        let e = verify(&st, &wide_proof, 0.0).unwrap_err().to_string();
        assert!(e.contains("more than the proof's bound"), "{e}");
        // with nothing bounding the opening, the same opening rebuilds the VOLE: only the
        // bound refused it
        wide_proof.params.open = 0;
        let pw = wide_proof.params;
        assert!(recompute(&st, &pw, &wide_proof.commit, &wide, &wide_proof.response).is_ok());
    }
    assert!(padded > 0);
}

/// A grinding try's direct compression is `SHA-256(pad(CHALL3_TAG) ‖ seed ‖ u32le(counter))`
/// hashed whole, for several transcripts and counters.
#[test]
fn chall3_is_the_documented_hash() {
    for n in 0..4u8 {
        let mut t = Transcript::new(b"chall3 test");
        t.append(b"n", &[n]);
        let c3 = Chall3::new(&t);
        let mut tag = [0u8; 32];
        tag[..CHALL3_TAG.len()].copy_from_slice(CHALL3_TAG);
        for counter in [0u32, 1, 255, 256, 65_537, u32::MAX] {
            let want: [u8; 32] = Sha256::new()
                .chain_update(tag)
                .chain_update(draw32(&t, b"vole chall3"))
                .chain_update(counter.to_le_bytes())
                .finalize()
                .into();
            assert_eq!(c3.at(counter), want, "{n} {counter}");
            assert_eq!(chall3(&t, counter), want);
        }
    }
}

/// A small proof and its verification run on the calling thread and never start rayon's
/// pool (a parallel iterator that does not split starts it all the same: `par`'s module
/// docs). Threads are counted in a child process running this test alone, since other tests
/// of this binary use the pool; the count is shown to see a pool by starting one after.
#[cfg(target_os = "linux")]
#[test]
fn a_small_proof_starts_no_thread() {
    fn threads() -> usize {
        let s = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = s.lines().find(|l| l.starts_with("Threads:")).unwrap();
        line[8..].trim().parse().unwrap()
    }
    const CHILD: &str = "ZKG_TEST_POOL_CHILD";
    if std::env::var_os(CHILD).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "vole::tests::a_small_proof_starts_no_thread"])
            .args(["--test-threads", "1", "--nocapture"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("1 passed"), "the child ran no test: {text}");
        assert!(text.contains("pool started"), "{text}");
        return;
    }
    let c = small_circuit();
    let wit = [true, false, true];
    let out = c.eval(&wit);
    let st = statement(&c, &out);
    let p = params_for(128, Profile::Speed).unwrap();
    assert!(work(&st, &p) < par::SERIAL_BELOW);
    let before = threads();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let pr = prove(&st, &wit, p, &mut rng).unwrap();
    verify(&st, &pr, 0.0).unwrap();
    assert_eq!(threads(), before, "a small proof started threads");
    par::run(par::SERIAL_BELOW, || ());
    assert!(threads() > before, "the count does not see the pool");
    println!("pool started: {before} -> {} threads", threads());
}
