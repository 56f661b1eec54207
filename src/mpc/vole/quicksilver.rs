//! QuickSilver's check of a circuit on VOLE-authenticated bits, over GF(2^128).
//!
//! Every wire carries a value `x`, the prover's tag `v` and the verifier's key
//! `K = v + x·Δ`. Inputs and AND outputs are witness positions `p` (tag `v_p`, key
//! `q_p + d_p·Δ`); XOR adds tags and keys; NOT keeps the tag and adds `Δ` to the key. For AND
//! gate `t` with inputs `a, b` and output `c`,
//! `K_a K_b + K_c Δ = v_a v_b + (x_a v_b + x_b v_a + v_c)·Δ + (x_a x_b + x_c)·Δ²`, and an
//! output wire `w` that must equal the public bit `y` gives
//! `(K_w + y Δ)·Δ = v_w Δ + (x_w + y)·Δ²`. With one random coefficient `χ` per gate and per
//! output, the prover's `A0 = Σ χ_t v_a v_b`, `A1 = Σ χ_t (x_a v_b + x_b v_a + v_c) + Σ χ_o v_w`
//! satisfy `Σ χ_t (K_a K_b + K_c Δ) + Σ χ_o (K_w + y_o Δ) Δ = A0 + A1 Δ + E Δ²`, where `E`
//! is zero exactly when every relation holds (except with probability `2^-128` over `χ`).
//! A proof runs two combinations with independent coefficients (`2^-256` for both), sharing
//! the walk over the gates.

use rayon::prelude::*;

use super::super::circuit::{Bit, Circuit, Gate};
use super::super::gf128::{dot, dot_of_products, mul, scale, Acc};

/// Gates per parallel chunk of the sums.
const CHUNK: usize = 4096;

/// `Σ_t χ_t·(a_t·b_t)`: in parallel chunks, the outer products accumulated unreduced.
fn sum_chi_products(chi: &[u128], pairs: &[(u128, u128)]) -> u128 {
    chi.par_chunks(CHUNK)
        .zip(pairs.par_chunks(CHUNK))
        .map(|(c, p)| dot_of_products(c, p))
        .reduce(Acc::default, Acc::merge)
        .value()
}

/// `Σ_t χ_t·x_t`: in parallel chunks, accumulated unreduced.
fn sum_chi(chi: &[u128], xs: &[u128]) -> u128 {
    chi.par_chunks(CHUNK)
        .zip(xs.par_chunks(CHUNK))
        .map(|(c, x)| dot(c, x))
        .reduce(Acc::default, Acc::merge)
        .value()
}

/// The walk's working memory, kept from proof to proof on each thread: a SHA-256 circuit's
/// 120,000 wires take 2 MB of tags (or keys) and its AND gates 1 MB more, which the
/// allocator would otherwise map and the kernel clear afresh on every proof (page faults
/// were a fifth of a proof's time). Everything is wiped before it is put back: the prover's
/// tags and values would give the witness away once `Δ` is public. Each thread keeps the
/// capacity of the largest circuit it walked (about 3 MB for a one-block SHA-256), until it
/// exits: the servers bound their verifying threads, so that memory is bounded too.
#[derive(Default)]
struct Scratch {
    wires: Vec<u128>,
    bits: Vec<bool>,
    pairs: Vec<(u128, u128)>,
    lin: Vec<u128>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = const {
        std::cell::Cell::new(Scratch {
            wires: Vec::new(),
            bits: Vec::new(),
            pairs: Vec::new(),
            lin: Vec::new(),
        })
    };
}

impl Scratch {
    /// Runs `f` on this thread's scratch (empty vectors, their capacity kept), then wipes
    /// it. A nested call gets fresh vectors rather than sharing.
    fn with<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
        let mut s = SCRATCH.with(|c| c.take());
        let r = f(&mut s);
        wipe(&mut s.wires);
        wipe(&mut s.bits);
        wipe(&mut s.pairs);
        wipe(&mut s.lin);
        SCRATCH.with(|c| c.set(s));
        r
    }
}

/// Zeroes `v`'s contents (that the optimiser cannot drop) and empties it, keeping its
/// capacity.
fn wipe<T: Copy + Default>(v: &mut Vec<T>) {
    v.fill(T::default());
    std::hint::black_box(&mut v[..]);
    v.clear();
}

/// The prover's sums `(A0, A1, E)` for the witness positions' values `x` (inputs, then AND
/// outputs) and tags, one triple per coefficient vector of `chis` (each `n_and + n_outputs`
/// long: the proof has two independent combinations), the public `output`.
///
/// One serial pass over the gates collects each AND gate's input tags and linear term (XORs
/// only, shared by every combination); the products are then summed in parallel with lazy
/// reduction, once per combination.
pub fn prover_sums(
    c: &Circuit,
    x: &[bool],
    tags: &[u128],
    chis: &[&[u128]],
    output: &[bool],
) -> Vec<(u128, u128, u128)> {
    Scratch::with(|s| {
        let n_in = c.n_inputs();
        let n_and = c.n_and();
        let (xv, tv) = (&mut s.bits, &mut s.wires);
        let (pairs, lin) = (&mut s.pairs, &mut s.lin);
        xv.reserve(c.n_wires());
        tv.reserve(c.n_wires());
        pairs.reserve(n_and);
        lin.reserve(n_and);
        xv.extend_from_slice(&x[..n_in]);
        tv.extend_from_slice(&tags[..n_in]);
        // the AND gates whose output is wrong (only a cheating prover has any)
        let mut wrong: Vec<usize> = Vec::new();
        for g in c.gates() {
            let (xx, vv) = match *g {
                Gate::Xor(a, b) => (
                    xv[a as usize] ^ xv[b as usize],
                    tv[a as usize] ^ tv[b as usize],
                ),
                Gate::Not(a) => (!xv[a as usize], tv[a as usize]),
                Gate::And(a, b) => {
                    let t = pairs.len();
                    let (xa, xb) = (xv[a as usize], xv[b as usize]);
                    let (va, vb) = (tv[a as usize], tv[b as usize]);
                    let (xc, vc) = (x[n_in + t], tags[n_in + t]);
                    pairs.push((va, vb));
                    lin.push(scale(vb, xa) ^ scale(va, xb) ^ vc);
                    if (xa & xb) != xc {
                        wrong.push(t);
                    }
                    (xc, vc)
                }
            };
            xv.push(xx);
            tv.push(vv);
        }
        chis.iter()
            .map(|chi| {
                let a0 = sum_chi_products(&chi[..n_and], pairs);
                let mut a1 = sum_chi(&chi[..n_and], lin);
                let mut e = wrong.iter().fold(0u128, |e, &t| e ^ chi[t]);
                for (o, (out, &y)) in c.outputs().iter().zip(output).enumerate() {
                    if let Bit::Wire(w) = *out {
                        let ch = chi[n_and + o];
                        a1 ^= mul(ch, tv[w as usize]);
                        e ^= scale(ch, xv[w as usize] ^ y);
                    }
                }
                (a0, a1, e)
            })
            .collect()
    })
}

/// The verifier's side `Σ χ_t (K_a K_b + K_c Δ) + Σ χ_o (K_w + y_o Δ) Δ` from the keys'
/// VOLE parts `q` (witness positions), the masked witness `d`, `Δ`, `chi`, `output`.
///
/// As [`prover_sums`]: a serial pass of XORs for the wire keys, then parallel sums with
/// lazy reduction.
pub fn verifier_sum(
    c: &Circuit,
    q: &[u128],
    d: impl Fn(usize) -> bool + Sync,
    delta: u128,
    chis: &[&[u128]],
    output: &[bool],
) -> Vec<u128> {
    Scratch::with(|s| {
        let n_in = c.n_inputs();
        let n_and = c.n_and();
        let key = |p: usize| q[p] ^ scale(delta, d(p));
        let (kv, pairs, kcs) = (&mut s.wires, &mut s.pairs, &mut s.lin);
        kv.reserve(c.n_wires());
        pairs.reserve(n_and);
        kcs.reserve(n_and);
        kv.extend((0..n_in).map(key));
        for g in c.gates() {
            let k = match *g {
                Gate::Xor(a, b) => kv[a as usize] ^ kv[b as usize],
                Gate::Not(a) => kv[a as usize] ^ delta,
                Gate::And(a, b) => {
                    let kc = key(n_in + pairs.len());
                    pairs.push((kv[a as usize], kv[b as usize]));
                    kcs.push(kc);
                    kc
                }
            };
            kv.push(k);
        }
        chis.iter()
            .map(|chi| {
                let quad = sum_chi_products(&chi[..n_and], pairs);
                let mut lin = sum_chi(&chi[..n_and], kcs);
                for (o, (out, &y)) in c.outputs().iter().zip(output).enumerate() {
                    if let Bit::Wire(w) = *out {
                        lin ^= mul(chi[n_and + o], kv[w as usize] ^ scale(delta, y));
                    }
                }
                quad ^ mul(lin, delta)
            })
            .collect()
    })
}

/// The definition of [`prover_sums`], one reduction per product, serial (tests).
#[cfg(test)]
/// The prover's sums `(A0, A1, E)` for the witness positions' values `x` (inputs, then AND
/// outputs) and tags, the coefficients `chi` (`n_and + n_outputs`), the public `output`.
pub(crate) fn prover_sums_naive(
    c: &Circuit,
    x: &[bool],
    tags: &[u128],
    chi: &[u128],
    output: &[bool],
) -> (u128, u128, u128) {
    let n_in = c.n_inputs();
    let mut xv: Vec<bool> = Vec::with_capacity(c.n_wires());
    let mut tv: Vec<u128> = Vec::with_capacity(c.n_wires());
    xv.extend_from_slice(&x[..n_in]);
    tv.extend_from_slice(&tags[..n_in]);
    let (mut a0, mut a1, mut e) = (0u128, 0u128, 0u128);
    let mut t = 0usize;
    for g in c.gates() {
        let (xx, vv) = match *g {
            Gate::Xor(a, b) => (
                xv[a as usize] ^ xv[b as usize],
                tv[a as usize] ^ tv[b as usize],
            ),
            Gate::Not(a) => (!xv[a as usize], tv[a as usize]),
            Gate::And(a, b) => {
                let (xa, xb) = (xv[a as usize], xv[b as usize]);
                let (va, vb) = (tv[a as usize], tv[b as usize]);
                let (xc, vc) = (x[n_in + t], tags[n_in + t]);
                let ch = chi[t];
                a0 ^= mul(ch, mul(va, vb));
                a1 ^= mul(ch, scale(vb, xa) ^ scale(va, xb) ^ vc);
                e ^= scale(ch, (xa & xb) ^ xc);
                t += 1;
                (xc, vc)
            }
        };
        xv.push(xx);
        tv.push(vv);
    }
    let n_and = t;
    for (o, (out, &y)) in c.outputs().iter().zip(output).enumerate() {
        if let Bit::Wire(w) = *out {
            let ch = chi[n_and + o];
            a1 ^= mul(ch, tv[w as usize]);
            e ^= scale(ch, xv[w as usize] ^ y);
        }
    }
    (a0, a1, e)
}

/// The definition of [`verifier_sum`], one reduction per product, serial (tests).
#[cfg(test)]
/// The verifier's side `Σ χ_t (K_a K_b + K_c Δ) + Σ χ_o (K_w + y_o Δ) Δ` from the keys'
/// VOLE parts `q` (witness positions), the masked witness `d`, `Δ`, `chi`, `output`.
pub(crate) fn verifier_sum_naive(
    c: &Circuit,
    q: &[u128],
    d: impl Fn(usize) -> bool,
    delta: u128,
    chi: &[u128],
    output: &[bool],
) -> u128 {
    let n_in = c.n_inputs();
    let mut kv: Vec<u128> = Vec::with_capacity(c.n_wires());
    kv.extend((0..n_in).map(|p| q[p] ^ scale(delta, d(p))));
    let (mut quad, mut lin) = (0u128, 0u128);
    let mut t = 0usize;
    for g in c.gates() {
        let k = match *g {
            Gate::Xor(a, b) => kv[a as usize] ^ kv[b as usize],
            Gate::Not(a) => kv[a as usize] ^ delta,
            Gate::And(a, b) => {
                let p = n_in + t;
                let kc = q[p] ^ scale(delta, d(p));
                quad ^= mul(chi[t], mul(kv[a as usize], kv[b as usize]));
                lin ^= mul(chi[t], kc);
                t += 1;
                kc
            }
        };
        kv.push(k);
    }
    let n_and = t;
    for (o, (out, &y)) in c.outputs().iter().zip(output).enumerate() {
        if let Bit::Wire(w) = *out {
            lin ^= mul(chi[n_and + o], kv[w as usize] ^ scale(delta, y));
        }
    }
    quad ^ mul(lin, delta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mpc::circuit::random_circuit;
    use rand_core::{RngCore, SeedableRng};

    fn r128(rng: &mut impl RngCore) -> u128 {
        ((rng.next_u64() as u128) << 64) | rng.next_u64() as u128
    }

    /// The parallel, lazily reduced sums against their definitions on random circuits and
    /// random (not necessarily consistent) values, tags, keys and coefficients, with circuits
    /// large enough to span several chunks.
    #[test]
    fn parallel_lazy_sums_match_the_definitions() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
        for (n_in, n_gates) in [(1, 0), (3, 10), (20, 300), (64, 3 * CHUNK + 17)] {
            let c = random_circuit(&mut rng, n_in, n_gates, 5);
            let l = c.n_inputs() + c.n_and();
            let x: Vec<bool> = (0..l).map(|_| rng.next_u32() & 1 == 1).collect();
            let tags: Vec<u128> = (0..l).map(|_| r128(&mut rng)).collect();
            let chi: Vec<u128> = (0..c.n_and() + c.n_outputs())
                .map(|_| r128(&mut rng))
                .collect();
            let out: Vec<bool> = (0..c.n_outputs())
                .map(|_| rng.next_u32() & 1 == 1)
                .collect();
            let chi2: Vec<u128> = (0..chi.len()).map(|_| r128(&mut rng)).collect();
            assert_eq!(
                prover_sums(&c, &x, &tags, &[&chi, &chi2], &out),
                vec![
                    prover_sums_naive(&c, &x, &tags, &chi, &out),
                    prover_sums_naive(&c, &x, &tags, &chi2, &out)
                ]
            );
            let delta = r128(&mut rng);
            let d = |p: usize| x[p];
            assert_eq!(
                verifier_sum(&c, &tags, d, delta, &[&chi, &chi2], &out),
                vec![
                    verifier_sum_naive(&c, &tags, d, delta, &chi, &out),
                    verifier_sum_naive(&c, &tags, d, delta, &chi2, &out)
                ]
            );
        }
    }
}
