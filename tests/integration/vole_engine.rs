//! The VOLE-in-the-head engine through its public API: honest proofs, tampering, variations
//! of the statement, cheating provers (one AND gate, the VOLE consistency) caught at the
//! rates the formulas predict, the simulator, agreement with ZKB++ and KKW on hundreds of
//! random circuits, seals (brute force over small circuits), live sessions, and SHA-256 /
//! peg / LowMC proof files.

use rand::{Rng as _, RngCore};
use sha2::Digest as _;
use zkgames::mpc::circuit::{random_circuit, Builder, Circuit};
use zkgames::mpc::engine::{Proof as EngineProof, Required, System};
use zkgames::mpc::kkw;
use zkgames::mpc::statement::Statement;
use zkgames::mpc::vole::{
    self, attack_cost_bits, params_for, Challenge, Cheat, Params, Profile, Proof,
};
use zkgames::mpc::zkbpp;
use zkgames::proof_file::{decode, encode, ProofFile};
use zkgames::rng::seeded_rng;

fn stmt<'a>(c: &'a Circuit, y: &'a [bool], ctx: &'a [u8]) -> Statement<'a> {
    Statement {
        tag: b"vole-test",
        circuit: c,
        public: b"public",
        output: y,
        context: ctx,
    }
}

fn bits(rng: &mut impl RngCore, n: usize) -> Vec<bool> {
    (0..n).map(|_| rng.gen()).collect()
}

/// A test set: 40-bit Δ in 4 trees, 2 grinding bits (41 bits of attack cost).
const TEST: Params = Params::bounded(4, 40, 2, 36);

#[test]
fn honest_proofs_verify_and_variations_are_rejected() {
    let mut rng = seeded_rng(1);
    for case in 0..40 {
        let n_in = rng.gen_range(1..20);
        let (ng, no) = (rng.gen_range(1..150), rng.gen_range(1..10));

        let c = random_circuit(&mut rng, n_in, ng, no);
        let w = bits(&mut rng, n_in);
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"ctx");
        let p = if case % 10 == 0 {
            params_for(128, Profile::Speed).unwrap()
        } else {
            TEST
        };
        let pr = vole::prove(&st, &w, p, &mut rng).unwrap();
        vole::verify(&st, &pr, attack_cost_bits(&p)).unwrap();
        // one valid encoding: decode(encode) round-trips
        let b = encode(&pr);
        assert_eq!(decode::<Proof>(&b, "t").unwrap(), pr);
        // more bits required than the parameters give ("fewer repetitions")
        assert!(vole::verify(&st, &pr, attack_cost_bits(&p) + 1.0).is_err());
        let mut y2 = y.clone();
        y2[rng.gen_range(0..y.len())] ^= true;
        assert!(
            vole::verify(&stmt(&c, &y2, b"ctx"), &pr, 0.0).is_err(),
            "output"
        );
        assert!(
            vole::verify(&stmt(&c, &y, b"cty"), &pr, 0.0).is_err(),
            "context"
        );
        let st3 = Statement {
            public: b"other",
            ..st
        };
        assert!(vole::verify(&st3, &pr, 0.0).is_err(), "public");
        let st4 = Statement {
            tag: b"other",
            ..st
        };
        assert!(vole::verify(&st4, &pr, 0.0).is_err(), "tag");
        let c2 = random_circuit(&mut rng, n_in, c.n_gates(), c.n_outputs());
        assert!(
            vole::verify(&stmt(&c2, &y, b"ctx"), &pr, 0.0).is_err(),
            "circuit"
        );
        // a proof made with fewer repetitions / fewer bits, presented as the same statement
        let small = Params::new(2, 20, 0);
        let ps = vole::prove(&st, &w, small, &mut rng).unwrap();
        vole::verify(&st, &ps, 18.0).unwrap(); // 3·2^-20: 18.4 bits
        assert!(vole::verify(&st, &ps, attack_cost_bits(&p)).is_err());
        // the same proof with its parameters edited is rejected
        let mut edited = pr.clone();
        edited.params.tau -= 1;
        assert!(vole::verify(&st, &edited, 0.0).is_err());
    }
}

#[test]
fn every_flipped_byte_of_a_small_proof_is_rejected() {
    let mut rng = seeded_rng(2);
    let c = random_circuit(&mut rng, 6, 40, 3);
    let w = bits(&mut rng, 6);
    let y = c.eval(&w);
    let st = stmt(&c, &y, b"");
    let pr = vole::prove(&st, &w, Params::new(3, 30, 1), &mut rng).unwrap();
    let b = encode(&pr);
    for i in 0..b.len() {
        for mask in [0x01u8, 0x80] {
            let mut t = b.clone();
            t[i] ^= mask;
            if let Ok(p) = decode::<Proof>(&t, "t") {
                assert!(vole::verify(&st, &p, 0.0).is_err(), "byte {i} mask {mask}");
            }
        }
    }
    let l = vole::fixed::Reduction::of(&c).n_committed();
    assert!(
        l < c.n_inputs() + c.n_and(),
        "the outputs fix some of the witness"
    );
    let cbytes = (l + 272).div_ceil(8);
    assert_eq!(pr.commit.corrections.len(), 2 * cbytes);
    // padding bits of the masked witness and of each correction (the corrections are one
    // concatenated string: every correction's last byte has them), on a circuit with
    // ℓ = 3 (ℓ̂ = 275): set one, refused by the length rules whatever the challenge
    let (c3, y3, w3) = and_statement();
    let st3 = stmt(&c3, &y3, b"");
    let p3 = Params::new(3, 30, 1);
    let ps = vole::commit(&st3, &w3, p3, &mut rng, &[]).unwrap();
    let ch = Challenge::random(&p3, &mut rng);
    let r = ps.respond(&ch).unwrap();
    vole::verify_interactive(&st3, &p3, ps.commitment(), &ch, &r).unwrap();
    let cb3 = 275usize.div_ceil(8);
    assert_eq!(ps.commitment().core.corrections.len(), 2 * cb3);
    for i in 0..3 {
        let mut cm = ps.commitment().clone();
        match i {
            0 => *cm.core.masked_witness.last_mut().unwrap() |= 0x80,
            _ => cm.core.corrections[i * cb3 - 1] |= 0x80,
        }
        let e = vole::verify_interactive(&st3, &p3, &cm, &ch, &r).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("is not") || e.contains("bits set past this statement's"),
            "padding {i}: {e}"
        );
    }
    // truncated and extended lists: seeds, hidden-leaf commitments, corrections
    let mut p = pr.clone();
    p.response.seeds.pop();
    assert!(vole::verify(&st, &p, 0.0).is_err());
    let mut p = pr.clone();
    p.response.seeds.push([0; 16]);
    assert!(vole::verify(&st, &p, 0.0).is_err());
    let mut p = pr.clone();
    p.response.commitments.pop();
    assert!(vole::verify(&st, &p, 0.0).is_err());
    let mut p = pr.clone();
    p.response.commitments.push([0; 32]);
    assert!(vole::verify(&st, &p, 0.0).is_err());
    let mut p = pr.clone();
    p.commit.corrections.truncate(cbytes);
    assert!(vole::verify(&st, &p, 0.0).is_err());
    let mut p = pr;
    p.commit.corrections.extend(vec![0; cbytes]);
    assert!(vole::verify(&st, &p, 0.0).is_err());
}

/// `(x ∧ y) ∧ x = 1`: the outer AND's output is fixed by the output (format v6, PROTOCOLS
/// 7.4a), the inner one's (AND gate 0) is committed, so `ℓ = 2 + 1`.
fn and_statement() -> (Circuit, Vec<bool>, Vec<bool>) {
    let mut b = Builder::new(2);
    let (x, y) = (b.input(0), b.input(1));
    let t = b.and(x, y);
    let z = b.and(t, x);
    b.output(z);
    (b.finish(), vec![true], vec![true, true])
}

/// A 4-bit Δ (two trees of 4 leaves), no grinding: small enough to count.
const TINY: Params = Params::new(2, 4, 0);

fn tolerance(p: f64, n: usize) -> f64 {
    5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-9
}

/// A prover that flips one AND output: the check's error is `E·Δ²` with `E ≠ 0`, so it
/// passes only at `Δ = 0` (`2^-4`). Placing the other root at a guess `g` (`Ã1 += E·g`),
/// the best strategy, passes at `Δ ∈ {0, g}` (`2·2^-4`). Measured with verifier-chosen `Δ`,
/// the verdict of every trial is the predicted one, and in Fiat–Shamir proofs the rate is
/// `p + (1 − p)·2^-4`: the verifier recomputes the transcript at the proof's `Δ`, and one
/// other than the prover's hashes to that 4-bit `Δ` one time in 16 (docs/PROTOCOLS.md 7.9).
#[test]
fn and_gate_cheat_is_caught_at_the_predicted_rate() {
    let (c, y, w) = and_statement();
    let st = stmt(&c, &y, b"");
    let mut rng = seeded_rng(3);
    let n = 4000;
    for guess in [None, Some(())] {
        let mut passed = 0;
        for _ in 0..n {
            let g = rng.gen_range(1u128..16);
            let mut cheats = vec![Cheat::FlipAnd(0)];
            if guess.is_some() {
                cheats.push(Cheat::Guess(g));
            }
            let ps = vole::commit(&st, &w, TINY, &mut rng, &cheats).unwrap();
            let ch = Challenge::random(&TINY, &mut rng);
            let r = ps.respond(&ch).unwrap();
            let ok = vole::verify_interactive(&st, &TINY, ps.commitment(), &ch, &r).is_ok();
            let d = ch.delta(&TINY);
            let want = d == 0 || (guess.is_some() && d == g);
            assert_eq!(ok, want, "Δ {d} guess {g}");
            passed += ok as usize;
        }
        let rate = passed as f64 / n as f64;
        let pred = if guess.is_some() {
            2.0 / 16.0
        } else {
            1.0 / 16.0
        };
        assert!(
            (rate - pred).abs() < tolerance(pred, n),
            "rate {rate}, predicted {pred}"
        );
        // the same through Fiat–Shamir
        let mut passed = 0;
        for _ in 0..n {
            let mut cheats = vec![Cheat::FlipAnd(0)];
            if guess.is_some() {
                cheats.push(Cheat::Guess(rng.gen_range(1u128..16)));
            }
            let pr = vole::prove_unchecked(&st, &w, TINY, &mut rng, &cheats).unwrap();
            passed += vole::verify(&st, &pr, 0.0).is_ok() as usize;
        }
        // one hash per proof: a Δ that is no root makes the verifier's recomputed transcript
        // differ from the hashed one, which then gives the proof's Δ with probability 2^-4
        let pred = pred + (1.0 - pred) / 16.0;
        let rate = passed as f64 / n as f64;
        assert!(
            (rate - pred).abs() < tolerance(pred, n),
            "FS rate {rate}, predicted {pred}"
        );
    }
}

/// A prover with an inconsistent VOLE (one correction bit flipped) passes the consistency
/// check only when repetition 1's hidden leaf is 0 (`2^-k_1`), wherever the bit is.
#[test]
fn vole_consistency_cheat_is_caught_at_the_predicted_rate() {
    let (c, y, w) = and_statement();
    let w = vec![w[0], false]; // an honest witness: 1 ∧ 0 = 0
    let y: Vec<bool> = vec![!y[0]];
    let st = stmt(&c, &y, b"");
    assert_eq!(c.eval(&w), y);
    let mut rng = seeded_rng(4);
    let lhat = 2 + 1 + 272;
    let n = 4000;
    let mut passed = 0;
    for _ in 0..n {
        let cheat = [Cheat::Correction {
            rep: 1,
            bit: rng.gen_range(0..lhat),
        }];
        let ps = vole::commit(&st, &w, TINY, &mut rng, &cheat).unwrap();
        let ch = Challenge::random(&TINY, &mut rng);
        let r = ps.respond(&ch).unwrap();
        let ok = vole::verify_interactive(&st, &TINY, ps.commitment(), &ch, &r).is_ok();
        assert_eq!(ok, ch.hidden[1] == 0);
        passed += ok as usize;
    }
    let pred = 1.0 / (1u32 << TINY.k(1)) as f64;
    let rate = passed as f64 / n as f64;
    assert!(
        (rate - pred).abs() < tolerance(pred, n),
        "rate {rate}, predicted {pred}"
    );
}

/// The consistency check's two hashes have independent keys, and each is checked: a forger
/// that knows `Δ` for one hash only (its column hashes absorb the corrections' error: that
/// hash passes whatever the corrections) is caught by the other exactly when a lone cheater
/// would be, an inconsistent repetition 1 passing only when its hidden leaf is 0 (`2^-2`).
/// Knowing `Δ` for both passes every time, so the test can fail. The second hash is 16 bits
/// (`v5`): with the first adjusted, it lets an error on the hashed positions through with
/// probability `2^-16` (at most one such miss is allowed over the 1,600 trials, where 0.02
/// are expected), and an error on either hash's mask is caught every time. (`v3`–`v8` ran
/// QuickSilver twice too; `v9` runs one combination, FAEST's: the rates of a wrong witness
/// are measured by the Fiat–Shamir and interactive rate tests.)
#[test]
fn each_consistency_hash_is_checked_on_its_own() {
    let (c, y, w) = and_statement();
    let mut rng = seeded_rng(11);
    let n = 1600;
    // the VOLE check: an honest witness, an inconsistent repetition 1 (a flipped bit of its
    // correction among the hashed positions), one hash adjusted to the real Δ
    let w = vec![w[0], false];
    let y: Vec<bool> = vec![!y[0]];
    let st = stmt(&c, &y, b"");
    let l = 2 + 1;
    // ℓ̂ = ℓ + 272: the QuickSilver mask [ℓ, ℓ+128), the hashes' masks [ℓ+128, ℓ+256) and
    // [ℓ+256, ℓ+272); the hashes read [0, ℓ+128)
    let mut short_misses = 0;
    for adjusted in [vec![0], vec![1], vec![0, 1]] {
        let mut passed = 0;
        for _ in 0..n {
            let ch = Challenge::random(&TINY, &mut rng);
            let d = ch.delta(&TINY);
            // both hashes adjusted: a bit of the hashes' masks, which QuickSilver never reads
            let bit = if adjusted.len() == 2 {
                rng.gen_range(l + 128..l + 272)
            } else {
                rng.gen_range(0..l + 128)
            };
            let mut cheats = vec![Cheat::Correction { rep: 1, bit }];
            cheats.extend(
                adjusted
                    .iter()
                    .map(|&k| Cheat::AdjustHash { hash: k, delta: d }),
            );
            let ps = vole::commit(&st, &w, TINY, &mut rng, &cheats).unwrap();
            let r = ps.respond(&ch).unwrap();
            let res = vole::verify_interactive(&st, &TINY, ps.commitment(), &ch, &r);
            if adjusted.len() == 2 {
                assert!(res.is_ok(), "Δ {d} bit {bit}");
            } else if adjusted == [0] && ch.hidden[1] != 0 && res.is_ok() {
                // the 16-bit hash is the only check left: its key's low 16 coefficients
                // times the error vanish with probability 2^-16 (counted below)
                short_misses += 1;
            } else {
                assert_eq!(res.is_ok(), ch.hidden[1] == 0, "Δ {d} bit {bit}");
                if let Err(e) = &res {
                    assert!(e.to_string().contains("consistency"), "{e}");
                }
            }
            passed += res.is_ok() as usize;
        }
        if adjusted.len() == 1 {
            let (rate, pred) = (passed as f64 / n as f64, 1.0 / (1u32 << TINY.k(1)) as f64);
            assert!((rate - pred).abs() < tolerance(pred, n), "rate {rate}");
        }
    }
    // about n·(3/4)·2^-16 ≈ 0.02 expected
    assert!(
        short_misses <= 1,
        "{short_misses} misses of the 16-bit hash"
    );
    // an error only on one hash's mask, the other hash adjusted to Δ: the mask's own hash is
    // then H_k(e) = the error's bits ≠ 0, caught whatever Δ (the short hash's 16 mask bits
    // included)
    for (adjusted, masks) in [(1, l + 128..l + 256), (0, l + 256..l + 272)] {
        for _ in 0..200 {
            let ch = Challenge::random(&TINY, &mut rng);
            let d = ch.delta(&TINY);
            let bit = rng.gen_range(masks.clone());
            let cheats = [
                Cheat::Correction { rep: 1, bit },
                Cheat::AdjustHash {
                    hash: adjusted,
                    delta: d,
                },
            ];
            let ps = vole::commit(&st, &w, TINY, &mut rng, &cheats).unwrap();
            let r = ps.respond(&ch).unwrap();
            let res = vole::verify_interactive(&st, &TINY, ps.commitment(), &ch, &r);
            assert_eq!(res.is_ok(), ch.hidden[1] == 0, "Δ {d} bit {bit}");
        }
    }
}

/// Each of the four check values (`ũ`, the 2-byte `ũ′`, `Ã0`, `Ã1`) is enforced: changing
/// any one bit of any of them, with the challenge held fixed, is rejected by the check it
/// belongs to.
#[test]
fn every_check_value_is_checked() {
    let mut rng = seeded_rng(12);
    let c = random_circuit(&mut rng, 8, 60, 3);
    let w = bits(&mut rng, 8);
    let y = c.eval(&w);
    let st = stmt(&c, &y, b"");
    for _ in 0..20 {
        let ps = vole::commit(&st, &w, TEST, &mut rng, &[]).unwrap();
        let mut ch = Challenge::random(&TEST, &mut rng);
        ch.hidden[0] |= 1; // Δ ≠ 0
        let r = ps.respond(&ch).unwrap();
        let cm = ps.commitment();
        vole::verify_interactive(&st, &TEST, cm, &ch, &r).unwrap();
        let bit = rng.gen_range(0..8);
        for field in 0..4 {
            let mut t = cm.clone();
            let (v, what): (&mut [u8], _) = match field {
                0 => (&mut t.core.u_hash, "consistency"),
                1 => (&mut t.core.u_hash_short, "consistency"),
                2 => (&mut t.a0[0], "QuickSilver"),
                _ => (&mut t.core.a1[0], "QuickSilver"),
            };
            let byte = rng.gen_range(0..v.len());
            v[byte] ^= 1 << bit;
            let e = vole::verify_interactive(&st, &TEST, &t, &ch, &r).unwrap_err();
            assert!(e.to_string().contains(what), "field {field}: {e}");
        }
    }
}

#[test]
fn simulated_transcripts_verify_for_their_challenges() {
    let mut rng = seeded_rng(5);
    for _ in 0..30 {
        let n_in = rng.gen_range(1..12);
        let (ng, no) = (rng.gen_range(1..80), 3);

        let c = random_circuit(&mut rng, n_in, ng, no);
        // any output at all: the simulator knows no witness
        let y = bits(&mut rng, c.n_outputs());
        let y: Vec<bool> = c
            .outputs()
            .iter()
            .zip(&y)
            .map(|(o, b)| match o {
                zkgames::mpc::circuit::Bit::Const(k) => *k,
                _ => *b,
            })
            .collect();
        let st = stmt(&c, &y, b"sim");
        for p in [TEST, params_for(128, Profile::Speed).unwrap()] {
            let ch = Challenge::random(&p, &mut rng);
            let (cm, r) = vole::simulate(&st, p, &ch, &mut rng).unwrap();
            vole::verify_interactive(&st, &p, &cm, &ch, &r).unwrap();
            // and not for another challenge
            let mut ch2 = ch.clone();
            ch2.hidden[0] ^= 1;
            assert!(vole::verify_interactive(&st, &p, &cm, &ch2, &r).is_err());
        }
        // through the engine interface: a session record that replays
        let sys = System::Vole(TEST);
        let rec = sys
            .simulate_session(&st, zkgames::peg::mpc::PEG_VOLE, &mut rng)
            .unwrap();
        let owned = zkgames::mpc::statement::OwnedStatement {
            tag: st.tag,
            circuit: c.clone(),
            public: st.public.to_vec(),
            output: y.clone(),
            context: st.context.to_vec(),
        };
        zkgames::mpc::session::replay::<vole::Vole>(owned, zkgames::peg::mpc::PEG_VOLE, TEST, &rec)
            .unwrap();
    }
}

/// The masked witness and the corrections of real proofs look uniform: about half ones.
#[test]
fn opened_values_of_real_proofs_are_balanced() {
    let mut rng = seeded_rng(6);
    let c = random_circuit(&mut rng, 16, 200, 4);
    let w = vec![false; 16];
    let y = c.eval(&w);
    let st = stmt(&c, &y, b"");
    let (mut ones, mut total) = (0u64, 0u64);
    for _ in 0..40 {
        let pr = vole::prove(&st, &w, TEST, &mut rng).unwrap();
        for b in pr
            .commit
            .masked_witness
            .iter()
            .chain(pr.commit.corrections.iter())
        {
            ones += b.count_ones() as u64;
            total += 8;
        }
    }
    let f = ones as f64 / total as f64;
    assert!((0.47..0.53).contains(&f), "fraction of ones {f}");
}

#[test]
fn the_three_engines_accept_the_same_witnesses_and_reject_the_same_non_witnesses() {
    let mut rng = seeded_rng(7);
    let kp = kkw::Params::new(6, 3, 4);
    let mut refused = 0;
    for case in 0..300 {
        let n_in = rng.gen_range(1..24);
        let (ng, no) = (rng.gen_range(1..120), rng.gen_range(1..12));

        let c = random_circuit(&mut rng, n_in, ng, no);
        let w = bits(&mut rng, n_in);
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"agree");
        let vp = vole::prove(&st, &w, TEST, &mut rng).unwrap();
        vole::verify(&st, &vp, 0.0).unwrap();
        let w2 = bits(&mut rng, n_in);
        let good = c.eval(&w2) == y;
        let z = zkbpp::prove(&st, &w2, 24, &mut rng).is_ok();
        let k = kkw::prove(&st, &w2, kp, &mut rng).is_ok();
        let v = vole::prove(&st, &w2, TEST, &mut rng).is_ok();
        assert_eq!((z, k, v), (good, good, good), "case {case}");
        if !good {
            refused += 1;
            let fz = zkbpp::prove_unchecked(&st, &w2, 24, &mut rng, &[]);
            let fk = kkw::prove_unchecked(&st, &w2, kp, &mut rng, &[]).unwrap();
            let fv = vole::prove_unchecked(&st, &w2, TEST, &mut rng, &[]).unwrap();
            assert!(zkbpp::verify(&st, &fz, 24).is_err(), "case {case}");
            assert!(kkw::verify(&st, &fk, 0.0).is_err(), "case {case}");
            // VOLE commits no input bit the outputs fix: where they fix one, the proof
            // commits w2's other bits, which with the fixed ones may well be a witness
            let n_in = c.n_inputs();
            if vole::fixed::Reduction::of(&c)
                .fixed_positions()
                .all(|p| p >= n_in)
            {
                assert!(vole::verify(&st, &fv, 0.0).is_err(), "case {case}");
            }
        } else {
            let a = vole::prove(&st, &w2, TEST, &mut rng).unwrap();
            vole::verify(&st, &a, 0.0).unwrap();
        }
    }
    assert!(refused > 100, "only {refused} non-witnesses tried");
}

/// Seals open to exactly the sealed witness: every input of small circuits is tried as the
/// opening's witness (brute force), with the right master seed and with another.
#[test]
fn seals_open_to_exactly_the_sealed_witness() {
    let mut rng = seeded_rng(8);
    let sys = System::Vole(Params::new(2, 16, 0));
    for _ in 0..12 {
        let n_in = rng.gen_range(1..6);
        let (ng, no) = (rng.gen_range(1..30), 2);

        let c = random_circuit(&mut rng, n_in, ng, no);
        let w = bits(&mut rng, n_in);
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"seal");
        let (proof, opening) = sys.seal(&st, &w, &mut rng).unwrap();
        proof.verify(&st, &Required::bits(1)).unwrap();
        assert_eq!(proof.open(&st, &opening).unwrap(), w);
        let bytes = opening.to_bytes();
        let master = *zkgames::mpc::seal::SealOpening::from_bytes(&bytes)
            .unwrap()
            .master_seed();
        for x in 0u32..1 << n_in {
            let cand: Vec<bool> = (0..n_in).map(|i| x >> i & 1 == 1).collect();
            let o =
                zkgames::mpc::seal::SealOpening::new(*opening.seal_digest(), master, cand.clone());
            assert_eq!(proof.open(&st, &o).is_ok(), cand == w, "witness {x}");
        }
        // another master seed, another statement
        let o = zkgames::mpc::seal::SealOpening::new(*opening.seal_digest(), [9; 32], w.clone());
        assert!(proof.open(&st, &o).is_err());
        assert!(proof.open(&stmt(&c, &y, b"other"), &opening).is_err());
        assert!(!bytes.is_empty());
        // a seal of another engine is another seal
        let (kp, ko) = System::Kkw(kkw::Params::new(4, 2, 4))
            .seal(&st, &w, &mut rng)
            .unwrap();
        assert!(proof.open(&st, &ko).is_err());
        assert!(kp.open(&st, &opening).is_err());
    }
}

/// A live session driven by hand: the prover's commitment, the verifier's Δ, the response.
#[test]
fn live_sessions_accept_honest_provers_and_refuse_other_parameters() {
    let mut rng = seeded_rng(9);
    let c = random_circuit(&mut rng, 10, 80, 3);
    let w = bits(&mut rng, 10);
    let y = c.eval(&w);
    let owned = || zkgames::mpc::statement::OwnedStatement {
        tag: b"vole-test",
        circuit: c.clone(),
        public: b"public".to_vec(),
        output: y.clone(),
        context: b"live".to_vec(),
    };
    let p = params_for(128, Profile::Speed).unwrap();
    for _ in 0..3 {
        let prover = System::Vole(p)
            .session_prover(
                owned(),
                zkgames::peg::mpc::PEG_VOLE,
                w.clone(),
                seeded_rng(1),
            )
            .unwrap();
        let mut ver = zkgames::mpc::engine::session_verifier(
            &System::Vole(p),
            owned(),
            zkgames::peg::mpc::PEG_VOLE,
            zkgames::rng::fork(&mut rng),
        );
        // a session runs the set's session form: no grinding, its bits moved into Δ
        let q = p.session();
        assert_eq!((q.tau, q.delta_bits, q.grind), (17, 128, 0));
        assert_eq!(
            prover.hello().statement,
            zkgames::mpc::session::session_statement::<vole::Vole>(&owned().as_ref(), &q)
        );
        ver.check_hello(&prover.hello()).unwrap();
        let ch = ver.draw_challenges();
        let c: Challenge = decode(&ch, "challenge").unwrap();
        c.check(&q).unwrap();
        let (cm, resp) = prover.commit().unwrap();
        ver.check_commitments(&cm).unwrap();
        let r = resp.respond(&ch).unwrap();
        ver.verify(&r).unwrap();
    }
    // the verifier fixes the parameters: a speed-set prover meets a size-set verifier
    let prover = System::Vole(p)
        .session_prover(
            owned(),
            zkgames::peg::mpc::PEG_VOLE,
            w.clone(),
            seeded_rng(1),
        )
        .unwrap();
    let mut ver = zkgames::mpc::engine::session_verifier(
        &System::Vole(params_for(128, Profile::Size).unwrap()),
        owned(),
        zkgames::peg::mpc::PEG_VOLE,
        seeded_rng(2),
    );
    assert!(ver.check_hello(&prover.hello()).is_err());
}

#[test]
fn sha256_and_lowmc_proof_files_of_both_sets_and_their_sizes() {
    let mut rng = seeded_rng(10);
    let pre = b"the preimage";
    let d: [u8; 32] = sha2::Sha256::digest(pre).into();
    for (prof, max) in [(Profile::Size, 40_000usize), (Profile::Speed, 60_000)] {
        let p = params_for(128, prof).unwrap();
        let f = zkgames::mpc::sha256::prove(pre, &System::Vole(p), b"c", &mut rng).unwrap();
        assert!(f.len() <= max, "{prof:?}: {} bytes", f.len());
        let pf = ProofFile::from_bytes(&f).unwrap();
        assert_eq!(pf.protocol, zkgames::mpc::sha256::SHA256_VOLE);
        let rep = zkgames::mpc::sha256::verify(&d, &pf, &Required::bits(128), b"c").unwrap();
        // the weakest phase: QuickSilver's 2^-128 (Δ's is 2^-129, the hashes' 2^-144)
        assert_eq!(rep.security_bits, 128.0);
        assert!(zkgames::mpc::sha256::verify(&d, &pf, &Required::bits(128), b"x").is_err());
        let mut t = f.clone();
        let i = t.len() / 2;
        t[i] ^= 4;
        let tf = ProofFile::from_bytes(&t).unwrap();
        assert!(zkgames::mpc::sha256::verify(&d, &tf, &Required::bits(128), b"c").is_err());
        // the engine interface reads the engine from the protocol id only
        let e = EngineProof::from_body(zkgames::mpc::engine::Engine::Vole, &pf.body, "x");
        assert!(e.is_err(), "a SHA-256 body is not a bare proof");
    }
    // LowMC: a login-sized proof of at most 4 KB with the size set
    let key: zkgames::mpc::lowmc::Block = [3, 0x1234, 1];
    let pt: zkgames::mpc::lowmc::Block = [5, 6, 0];
    let sys = System::Vole(params_for(128, Profile::Size).unwrap());
    let f = zkgames::mpc::lowmc::prove_key(&key, &pt, &sys, b"login", &mut seeded_rng(1)).unwrap();
    // the field checks are paid for by a 116-bit Δ and 14 grinding bits
    assert!(f.len() <= 4000, "LowMC VOLE proof {} bytes", f.len());
    eprintln!("LowMC login proof, size set: {} bytes", f.len());
    let pf = ProofFile::from_bytes(&f).unwrap();
    assert_eq!(pf.protocol, zkgames::mpc::lowmc::LOWMC_VOLE);
    let ct = zkgames::mpc::lowmc::encrypt(&key, &pt);
    zkgames::mpc::lowmc::verify_key(&pt, &ct, &pf, &Required::bits(128), b"login").unwrap();
    let only_kkw = Required::bits(128).only(Some(zkgames::mpc::engine::Engine::Kkw));
    assert!(zkgames::mpc::lowmc::verify_key(&pt, &ct, &pf, &only_kkw, b"login").is_err());
}
