#![allow(clippy::needless_range_loop)]
use super::*;
use crate::circuit::{Bit, Circuit, Gate};
use rand::Rng as _;
use zkgames_core::rng::seeded_rng;

fn random_circuit(seed: u64, n_in: usize, n_gates: usize) -> Circuit {
    crate::circuit::random_circuit(&mut seeded_rng(seed), n_in, n_gates, 12)
}

/// One execution with one bool per (wire, party), straight from the definitions.
/// Returns (aux bits, masked input, h'_j, reconstructed output).
fn reference_exec(
    c: &Circuit,
    n: usize,
    salt: &[u8; 32],
    j: usize,
    seeds: &[Seed],
    key: &[u8; 32],
    w: &[bool],
) -> (Vec<bool>, Vec<bool>, Digest, Vec<bool>) {
    let sh = Shape::of(c, n);
    let tapes: Vec<Vec<u64>> = (0..n).map(|i| tape(&seeds[i], sh.tape_words(i))).collect();
    let tb = |p: usize, k: usize| tapes[p].get(k / 64).is_some_and(|x| x >> (k % 64) & 1 == 1);
    let xor = |v: &[bool]| v.iter().fold(false, |a, &b| a ^ b);
    let mut lam: Vec<Vec<bool>> = Vec::new();
    let mut hat: Vec<bool> = Vec::new();
    for i in 0..sh.n_in {
        let l: Vec<bool> = (0..n).map(|p| tb(p, i)).collect();
        hat.push(w[i] ^ xor(&l));
        lam.push(l);
    }
    let xhat = hat.clone();
    let mut aux = Vec::new();
    let mut bcast: Vec<Vec<bool>> = Vec::new();
    for g in c.gates() {
        match *g {
            Gate::Xor(a, b) => {
                let l = (0..n)
                    .map(|p| lam[a as usize][p] ^ lam[b as usize][p])
                    .collect();
                lam.push(l);
                hat.push(hat[a as usize] ^ hat[b as usize]);
            }
            Gate::Not(a) => {
                lam.push(lam[a as usize].clone());
                hat.push(!hat[a as usize]);
            }
            Gate::Inv(..) => unreachable!("boolean circuits only"),
            Gate::And(a, b) => {
                let k = bcast.len();
                let (la, lb) = (lam[a as usize].clone(), lam[b as usize].clone());
                let (xa, xb) = (hat[a as usize], hat[b as usize]);
                let lc: Vec<bool> = (0..n).map(|p| tb(p, 64 * sh.in_w + k)).collect();
                let mut lab: Vec<bool> = (0..n)
                    .map(|p| p + 1 < n && tb(p, 64 * (sh.in_w + sh.and_w) + k))
                    .collect();
                let ax = (xor(&la) & xor(&lb)) ^ xor(&lab);
                lab[n - 1] = ax;
                aux.push(ax);
                let s: Vec<bool> = (0..n)
                    .map(|p| lc[p] ^ (xa & lb[p]) ^ (xb & la[p]) ^ lab[p])
                    .collect();
                hat.push((xa & xb) ^ xor(&s));
                bcast.push(s);
                lam.push(lc);
            }
        }
    }
    let mut outs: Vec<Vec<bool>> = Vec::new();
    let mut y = Vec::new();
    for o in c.outputs() {
        match *o {
            Bit::Wire(v) => {
                y.push(hat[v as usize] ^ xor(&lam[v as usize]));
                outs.push(lam[v as usize].clone());
            }
            Bit::Const(b) => {
                y.push(b);
                outs.push(vec![false; n]);
            }
        }
    }
    let mut h = Sha256::new();
    h.update(b"zkg:kkw:online:v1");
    h.update(salt);
    h.update((j as u32).to_le_bytes());
    h.update(key);
    h.update(pack_bools(&xhat));
    h.update(pack_bools(&bcast.concat()));
    h.update(pack_bools(&outs.concat()));
    (aux, xhat, h.finalize().into(), y)
}

/// The register program computes what the circuit computes, with few registers.
#[test]
fn register_program_evaluates_like_the_circuit() {
    let mut g = seeded_rng(43);
    for case in 0..200u64 {
        let n_in = g.gen_range(1..80);
        let c = random_circuit(1000 + case, n_in, g.gen_range(1..600));
        let p = Program::compile(&c);
        assert!(p.regs <= c.n_wires());
        for _ in 0..4 {
            let w: Vec<bool> = (0..n_in).map(|_| g.gen()).collect();
            let mut r = vec![false; p.regs];
            r[..n_in].copy_from_slice(&w);
            for op in &p.ops {
                match *op {
                    Op::Xor(a, b, d) => r[d as usize] = r[a as usize] ^ r[b as usize],
                    Op::And(a, b, d) => r[d as usize] = r[a as usize] & r[b as usize],
                    Op::Not(a, d) => r[d as usize] = !r[a as usize],
                }
            }
            let got: Vec<bool> = p
                .outputs
                .iter()
                .zip(c.outputs())
                .map(|(r_o, o)| match (r_o, o) {
                    (Some(x), _) => r[*x as usize],
                    (None, Bit::Const(b)) => *b,
                    (None, Bit::Wire(_)) => unreachable!(),
                })
                .collect();
            assert_eq!(got, c.eval(&w), "case {case}");
        }
    }
    // SHA-256 needs a few thousand registers for its 150k wires
    let sha = crate::sha256::sha256_circuit(55).unwrap();
    assert!(Program::compile(&sha).regs < 4000);
}

#[test]
fn bitsliced_prover_matches_the_scalar_reference() {
    let mut g = seeded_rng(40);
    for case in 0..40u64 {
        let n = 1usize << g.gen_range(1..=6);
        let m = g.gen_range(1..=(130 / n).max(2));
        let n_in = g.gen_range(1..150);
        let c = random_circuit(case, n_in, g.gen_range(1..400));
        let w: Vec<bool> = (0..n_in).map(|_| g.gen()).collect();
        let y = c.eval(&w);
        let st = Statement {
            tag: b"t",
            circuit: &c,
            public: b"",
            output: &y,
            context: b"",
        };
        let p = Params::new(m as u32, 1, n as u32);
        let ps = commit(&st, &w, p, &mut g, &[]).unwrap();
        for j in 0..m {
            let (aux, xhat, h, yy) =
                reference_exec(&c, n, &ps.salt, j, &ps.party_seeds[j], &ps.keys[j], &w);
            assert_eq!(yy, y, "reconstructed output, case {case}");
            assert_eq!(
                ps.aux[j],
                pack_bools(&aux),
                "aux, case {case} exec {j} N {n}"
            );
            assert_eq!(ps.masked_input[j], pack_bools(&xhat), "x̂, case {case}");
            assert_eq!(ps.online[j], h, "h', case {case} exec {j} N {n}");
        }
        // the preprocessing-only path computes the same aux
        let refs: Vec<&[Seed]> = ps.party_seeds.iter().map(|s| s.as_slice()).collect();
        assert_eq!(
            aux_of(&Program::compile(&c), &Shape::of(&c, n), &refs),
            ps.aux,
            "case {case}"
        );
        // every challenge's response reproduces the commitment
        for _ in 0..3 {
            let ch = Challenge::random(&p, &mut g);
            let r = ps.respond(&st, &ch).unwrap();
            verify_interactive(&st, &p, ps.commitment(), &ch, &r).unwrap();
        }
    }
}

fn check_matrix<const N: usize>(g: &mut zkgames_core::rng::Rng) {
    let words: Vec<u64> = (0..37).map(|_| g.gen()).collect();
    for grp in 0..64 / N {
        let mut got = vec![7u8];
        matrix_bytes::<N>(&words, grp, &mut got);
        let bits: Vec<bool> = words
            .iter()
            .flat_map(|w| (0..N).map(move |i| w >> (grp * N + i) & 1 == 1))
            .collect();
        assert_eq!(got[1..], pack_bools(&bits)[..], "N {N}");
    }
}

fn check_parity<const N: usize>(g: &mut zkgames_core::rng::Rng) {
    for _ in 0..200 {
        let x: u64 = g.gen();
        let p = Lanes::<N>::parity(x);
        for grp in 0..64 / N {
            let m = Lanes::<N>::group(grp);
            let want = (x & m).count_ones() % 2 == 1;
            assert_eq!(p & m, if want { m } else { 0 }, "N {N}");
            assert_eq!(Lanes::<N>::LAST >> (grp * N + N - 1) & 1, 1);
        }
    }
}

#[test]
fn lane_helpers_against_naive_definitions() {
    let mut g = seeded_rng(41);
    for logn in 1..=6 {
        with_lanes!(1usize << logn, check_matrix(&mut g));
        with_lanes!(1usize << logn, check_parity(&mut g));
    }
    // lane columns
    for _ in 0..20 {
        let nbits = g.gen_range(1..300);
        let words: Vec<u64> = (0..nbits).map(|_| g.gen()).collect();
        let lanes = [0usize, 5, 63];
        let got = lane_columns(&words, nbits, &lanes);
        for (l, col) in lanes.iter().zip(&got) {
            let bits: Vec<bool> = words.iter().map(|w| w >> l & 1 == 1).collect();
            assert_eq!(*col, pack_bools(&bits));
        }
    }
}
