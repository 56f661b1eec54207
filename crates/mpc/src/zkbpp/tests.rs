#![allow(clippy::needless_range_loop)]
use super::*;
use crate::circuit::Builder;
use rand::Rng as _;
use zkgames_core::rng::seeded_rng;

#[test]
fn rounds_formula() {
    assert_eq!(rounds_for_bits(128), 219);
    for bits in 1..300u32 {
        let r = rounds_for_bits(bits);
        assert!(security_bits(r) >= bits as f64);
        assert!(security_bits(r - 1) < bits as f64);
    }
}

#[test]
fn trits_round_trip_and_reject_junk() {
    let mut rng = seeded_rng(4);
    for n in 0..40 {
        let t: Vec<u8> = (0..n).map(|_| rng.gen_range(0..3)).collect();
        assert_eq!(unpack_trits(&pack_trits(&t), n).unwrap(), t);
    }
    assert!(unpack_trits(&[3], 1).is_none());
    assert!(unpack_trits(&[0b0100], 1).is_none());
    assert!(unpack_trits(&[0, 0], 1).is_none());
}

/// A random circuit mixing every gate type and constant outputs.
fn random_circuit(seed: u64, n_in: usize, n_gates: usize) -> Circuit {
    crate::circuit::random_circuit(&mut seeded_rng(seed), n_in, n_gates, 20)
}

/// Scalar reference: one round, three parties, bool vectors; returns (views, outs, x2).
fn reference_round(
    c: &Circuit,
    w: &[bool],
    salt: &[u8; 32],
    r: usize,
    seeds: &[Seed; 3],
) -> ([Vec<bool>; 3], [Vec<bool>; 3], Vec<bool>) {
    let lay = Layout::of(c);
    let bit = |t: &[u64], k: usize| t[k / 64] >> (k % 64) & 1 == 1;
    let tapes: Vec<Vec<u64>> = (0..3).map(|p| tape(&lay, salt, r, p, &seeds[p])).collect();
    let mut sh: [Vec<bool>; 3] = Default::default();
    for i in 0..c.n_inputs() {
        let a = bit(&tapes[0], 64 * lay.and_words + i);
        let b = bit(&tapes[1], 64 * lay.and_words + i);
        sh[0].push(a);
        sh[1].push(b);
        sh[2].push(w[i] ^ a ^ b);
    }
    let x2 = sh[2].clone();
    let mut views: [Vec<bool>; 3] = Default::default();
    for g in c.gates() {
        let k = views[0].len();
        let new: [bool; 3] = match *g {
            Gate::Xor(a, b) => std::array::from_fn(|p| sh[p][a as usize] ^ sh[p][b as usize]),
            Gate::Not(a) => std::array::from_fn(|p| sh[p][a as usize] ^ (p == 0)),
            Gate::Inv(..) => unreachable!("boolean circuits only"),
            Gate::And(a, b) => {
                let z: [bool; 3] = std::array::from_fn(|i| {
                    let j = (i + 1) % 3;
                    let (xa, xb, ya, yb) = (
                        sh[i][a as usize],
                        sh[j][a as usize],
                        sh[i][b as usize],
                        sh[j][b as usize],
                    );
                    (xa & ya) ^ (xb & ya) ^ (xa & yb) ^ bit(&tapes[i], k) ^ bit(&tapes[j], k)
                });
                for p in 0..3 {
                    views[p].push(z[p]);
                }
                z
            }
        };
        for p in 0..3 {
            sh[p].push(new[p]);
        }
    }
    let outs = std::array::from_fn(|p| {
        c.outputs()
            .iter()
            .map(|o| match *o {
                Bit::Const(b) => b && p == 0,
                Bit::Wire(x) => sh[p][x as usize],
            })
            .collect()
    });
    (views, outs, x2)
}

#[test]
fn bitsliced_prover_matches_scalar_reference() {
    let mut cases = vec![
        (1u64, 5usize, 40usize, 3usize),
        (2, 70, 300, 70),
        (3, 64, 200, 130),
    ];
    let mut g = seeded_rng(99);
    for k in 0..25 {
        cases.push((
            1000 + k,
            g.gen_range(1..150),
            g.gen_range(1..500),
            g.gen_range(1..200),
        ));
    }
    for (seed, n_in, n_gates, rounds) in cases {
        let c = random_circuit(seed, n_in, n_gates);
        let mut rng = seeded_rng(seed + 100);
        let w: Vec<bool> = (0..n_in).map(|_| rng.gen()).collect();
        let cm = commit_phase(&c, &w, rounds, &mut rng, &[]);
        let y = c.eval(&w);
        for r in 0..rounds {
            let (views, outs, x2) = reference_round(&c, &w, &cm.salt, r, &cm.seeds[r]);
            assert_eq!(cm.x2[r], pack_bools(&x2));
            for p in 0..3 {
                assert_eq!(cm.views[r][p], pack_bools(&views[p]), "round {r} party {p}");
                assert_eq!(cm.outs[r][p], pack_bools(&outs[p]));
                assert_eq!(
                    cm.commits[r][p],
                    commit_view(&cm.salt, r, p, &cm.seeds[r][p], &cm.x2[r], &cm.views[r][p])
                );
            }
            let rec: Vec<bool> = (0..y.len())
                .map(|i| outs[0][i] ^ outs[1][i] ^ outs[2][i])
                .collect();
            assert_eq!(rec, y);
        }
        // the verifier's recomputation agrees with the prover for every challenge
        for e in 0..3u8 {
            let es = vec![e; rounds];
            let ops: Vec<Opening> = (0..rounds).map(|r| cm.open(r, e)).collect();
            let refs: Vec<&Opening> = ops.iter().collect();
            let rec = recompute(&c, &cm.salt, &es, &refs);
            for r in 0..rounds {
                let (a, b) = (e as usize, (e as usize + 1) % 3);
                assert_eq!(rec[r].commits, [cm.commits[r][a], cm.commits[r][b]]);
                assert_eq!(rec[r].outs, [cm.outs[r][a].clone(), cm.outs[r][b].clone()]);
            }
        }
    }
}

/// Per-round witnesses (a prover changing witness between rounds) and master-derived
/// seeds: every round still matches the scalar reference run on its own witness.
#[test]
fn per_round_witnesses_match_scalar_reference() {
    let mut g = seeded_rng(98);
    for k in 0..6 {
        let n_in = g.gen_range(1..90);
        let c = random_circuit(2000 + k, n_in, g.gen_range(1..300));
        let rounds = g.gen_range(1..140);
        let ws: Vec<Vec<bool>> = (0..rounds)
            .map(|_| (0..n_in).map(|_| g.gen()).collect())
            .collect();
        let refs: Vec<&[bool]> = ws.iter().map(|w| &w[..]).collect();
        let salt: [u8; 32] = g.gen();
        let master: Seed = g.gen();
        let seeds = master_seeds(&master, &salt, rounds);
        let cm = commit_with(&c, &refs, salt, seeds.clone(), &[]);
        assert_eq!(cm.seeds, seeds);
        for r in 0..rounds {
            let (views, outs, x2) = reference_round(&c, &ws[r], &salt, r, &seeds[r]);
            assert_eq!(cm.x2[r], pack_bools(&x2), "round {r}");
            for p in 0..3 {
                assert_eq!(cm.views[r][p], pack_bools(&views[p]), "round {r} party {p}");
                assert_eq!(cm.outs[r][p], pack_bools(&outs[p]));
            }
        }
    }
}

#[test]
fn circuits_without_and_gates_or_inputs() {
    let mut rng = seeded_rng(15);
    let mut b = Builder::new(3);
    let x = b.xor(b.input(0), b.input(1));
    let nx = b.not(x);
    b.output(nx);
    b.output(b.input(2));
    let lin = b.finish();
    let mut b = Builder::new(0);
    b.output(Bit::Const(true));
    let empty = b.finish();
    for (c, w) in [(lin, vec![true, false, true]), (empty, vec![])] {
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"");
        let p = prove(&st, &w, 20, &mut rng).unwrap();
        verify(&st, &p, 20).unwrap();
        let mut y2 = y.clone();
        y2[0] ^= true;
        assert!(verify(&stmt(&c, &y2, b""), &p, 20).is_err());
    }
}

fn stmt<'a>(c: &'a Circuit, y: &'a [bool], ctx: &'a [u8]) -> Statement<'a> {
    Statement {
        tag: b"test",
        circuit: c,
        public: b"pub",
        output: y,
        context: ctx,
    }
}

#[test]
fn honest_proofs_verify_and_variations_are_rejected() {
    let c = random_circuit(9, 30, 400);
    let c2 = random_circuit(10, 30, 400);
    let mut rng = seeded_rng(11);
    for _ in 0..5 {
        let w: Vec<bool> = (0..30).map(|_| rng.gen()).collect();
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"ctx");
        let p = prove(&st, &w, 40, &mut rng).unwrap();
        verify(&st, &p, 40).unwrap();
        assert!(verify(&st, &p, 41).is_err(), "too few rounds");
        assert!(verify(&stmt(&c, &y, b"ctY"), &p, 40).is_err(), "context");
        let mut y2 = y.clone();
        y2[3] ^= true;
        assert!(verify(&stmt(&c, &y2, b"ctx"), &p, 40).is_err(), "output");
        let y3 = c2.eval(&w);
        assert!(verify(&stmt(&c2, &y3, b"ctx"), &p, 40).is_err(), "circuit");
        let mut st2 = st;
        st2.public = b"other";
        assert!(verify(&st2, &p, 40).is_err(), "public inputs");
        st2 = st;
        st2.tag = b"other";
        assert!(verify(&st2, &p, 40).is_err(), "tag");
        // drop a round
        let mut q = p.clone();
        q.rounds.pop();
        q.challenges = pack_trits(&unpack_trits(&p.challenges, 40).unwrap()[..39]);
        assert!(verify(&st, &q, 39).is_err());
        // a wrong witness: refused, and a forced proof is rejected
        let mut w2 = w.clone();
        let i = (0..30).find(|&i| {
            let mut t = w.clone();
            t[i] ^= true;
            c.eval(&t) != y
        });
        if let Some(i) = i {
            w2[i] ^= true;
            assert!(prove(&st, &w2, 40, &mut rng).is_err());
            let forced = prove_unchecked(&st, &w2, 40, &mut rng, &[]);
            assert!(verify(&st, &forced, 40).is_err());
        }
    }
}

#[test]
fn every_flipped_byte_of_a_small_proof_is_rejected() {
    let c = random_circuit(12, 10, 60);
    let mut rng = seeded_rng(13);
    let w: Vec<bool> = (0..10).map(|_| rng.gen()).collect();
    let y = c.eval(&w);
    let st = stmt(&c, &y, b"");
    let p = prove(&st, &w, 12, &mut rng).unwrap();
    let bytes = zkgames_core::proof_file::encode(&p);
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut t = bytes.clone();
            t[i] ^= bit;
            let ok = zkgames_core::proof_file::decode::<Proof>(&t, "p")
                .map(|q| verify(&st, &q, 12).is_ok());
            assert!(
                !matches!(ok, Ok(true)),
                "flip {bit:#x} at byte {i} accepted"
            );
        }
    }
}

/// A cheater who flips one AND share of party p is caught only when e = p.
#[test]
fn one_party_cheat_is_caught_at_rate_one_third() {
    let mut b = Builder::new(2);
    let (x, y) = (b.input(0), b.input(1));
    let z = b.and(x, y);
    b.output(z);
    let c = b.finish();
    let out = [true];
    let st = stmt(&c, &out, b"");
    let w = [true, false]; // wrong witness: x ∧ y = 0
    let mut rng = seeded_rng(14);
    let runs = 900;
    let mut caught = 0;
    for run in 0..runs {
        let p = run % 3;
        let cm = commit_phase(
            &c,
            &w,
            1,
            &mut rng,
            &[Cheat {
                round: 0,
                and_index: 0,
                party: p,
            }],
        );
        // the cheat makes the shares reconstruct the claimed output
        assert_eq!(cm.outs[0][0][0] ^ cm.outs[0][1][0] ^ cm.outs[0][2][0], 1);
        let e: u8 = rng.gen_range(0..3);
        let o = cm.open(0, e);
        check_opening(&Layout::of(&c), 0, e, &o).unwrap();
        let rec = &recompute(&c, &cm.salt, &[e], &[&o])[0];
        let (a, bb) = (e as usize, (e as usize + 1) % 3);
        let ok = rec.commits == [cm.commits[0][a], cm.commits[0][bb]]
            && rec.outs == [cm.outs[0][a].clone(), cm.outs[0][bb].clone()];
        assert_eq!(
            ok,
            e as usize != p,
            "caught exactly when the cheating party's AND is recomputed"
        );
        if !ok {
            caught += 1;
        }
    }
    let rate = caught as f64 / runs as f64;
    assert!((0.28..0.39).contains(&rate), "catch rate {rate}");
    // the same cheat in every round of a Fiat–Shamir proof: escapes with (2/3)^40
    let cheats: Vec<Cheat> = (0..40)
        .map(|r| Cheat {
            round: r,
            and_index: 0,
            party: r % 3,
        })
        .collect();
    let forced = prove_unchecked(&st, &w, 40, &mut rng, &cheats);
    assert!(verify(&st, &forced, 40).is_err());
}
