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
//!
//! **Inverted bytes** ([`Gate::Inv`]). The 8 output bits of inverted byte `i` are witness
//! positions after every AND output (`n_in + n_and + 8i + j`). With the embedding
//! `β_j = θ^j` of GF(2^8) in GF(2^128) ([`GF256_BASIS`]), its input byte `x` and inverse `y`
//! are `K_x = Σ β_j K_{x_j} = M_x + xΔ` and `K_y = M_y + yΔ`, and the relation `x·y = 1` gives
//! `K_x K_y − Δ² = M_x M_y + (x M_y + y M_x)Δ + (xy − 1)Δ²`: one more degree-2 term per byte,
//! with coefficient `χ_{n_and + n_outputs + i}` (after the outputs'), the prover adding
//! `χ M_x M_y` to `A0` and `χ (x M_y + y M_x)` to `A1`, the verifier `χ K_x K_y` to its
//! quadratic sum and `χ Δ` to its linear one.

use rayon::prelude::*;

use super::super::circuit::{gf256_inv, gf256_mul, Bit, Circuit, Gate};
use super::super::gf128::{dot, dot_of_products, mul, scale, Acc};

/// `β_j = θ^j` for `j = 0..8`, where `θ` is the root of AES's polynomial
/// `x^8 + x^4 + x^3 + x + 1` in GF(2^128) first met in the powers `z^0, z^1, …` of
/// `z = X^((2^128 − 1)/255)` (`θ = z^95`): byte `b` embeds as `Σ_j b_j β_j`, a field
/// homomorphism GF(2^8) → GF(2^128) (tested on every pair).
pub const GF256_BASIS: [u128; 8] = [
    0x1,
    0x3d5bd35c94646a247573da4a5f7710ed,
    0xa72ec17764d7ced55e2f716f4ede412f,
    0x553e92e8bc0ae9a795ed1f57f3632d4d,
    0xc7bd33d0a58cf5b4740d6c968b842acb,
    0x486fb01f93aa169afd8ee716e990cf14,
    0xbee4e4dc44629cf627b537f28935c282,
    0x549810e11a88dea5252b49277b1b82b4,
];

/// The embedding of a byte of GF(2^8) in GF(2^128).
pub fn embed(b: u8) -> u128 {
    (0..8).fold(0u128, |a, j| a ^ scale(GF256_BASIS[j], (b >> j) & 1 == 1))
}

/// `Σ_j β_j t_j` over the 8 values `t`: a byte's tag or key from its bits'.
fn embed_tags(t: impl Fn(usize) -> u128) -> u128 {
    (0..8).fold(0u128, |a, j| a ^ mul(GF256_BASIS[j], t(j)))
}

/// The witness position of bit `j` of inverted byte `i`.
fn inv_pos(c: &Circuit, i: usize, j: usize) -> usize {
    c.n_inputs() + c.n_and() + 8 * i + j
}

/// The prover's terms of every inverted byte: `(M_x, M_y)`, `x M_y + y M_x` and the error
/// `xy + 1` (zero for an honest prover), from the wires' values `xv` and tags `tv`.
#[allow(clippy::type_complexity)]
fn inv_prover_terms(
    c: &Circuit,
    xv: &[bool],
    tv: &[u128],
    x: &[bool],
    tags: &[u128],
) -> (Vec<(u128, u128)>, Vec<u128>, Vec<u128>) {
    let n = c.n_inv();
    let (mut pairs, mut lin, mut err) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for (i, ins) in c.inv_inputs().iter().enumerate() {
        let xb = (0..8).fold(0u8, |b, j| b | ((xv[ins[j] as usize] as u8) << j));
        let yb = (0..8).fold(0u8, |b, j| b | ((x[inv_pos(c, i, j)] as u8) << j));
        let mx = embed_tags(|j| tv[ins[j] as usize]);
        let my = embed_tags(|j| tags[inv_pos(c, i, j)]);
        pairs.push((mx, my));
        lin.push(mul(embed(xb), my) ^ mul(embed(yb), mx));
        err.push(embed(gf256_mul(xb, yb)) ^ 1);
    }
    (pairs, lin, err)
}

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
        let mut s = Self::take();
        let r = f(&mut s);
        Self::give(s);
        r
    }

    /// This thread's scratch (empty vectors, their capacity kept); a second taker before
    /// [`Scratch::give`] gets fresh vectors.
    fn take() -> Scratch {
        SCRATCH.with(|c| c.take())
    }

    /// Wipes `s` and keeps it for this thread's next taker.
    fn give(mut s: Scratch) {
        wipe(&mut s.wires);
        wipe(&mut s.bits);
        wipe(&mut s.pairs);
        wipe(&mut s.lin);
        SCRATCH.with(|c| c.set(s));
    }
}

/// Zeroes `v`'s contents (that the optimiser cannot drop) and empties it, keeping its
/// capacity.
fn wipe<T: Copy + Default>(v: &mut Vec<T>) {
    v.fill(T::default());
    std::hint::black_box(&mut v[..]);
    v.clear();
}

/// The prover's pass over the gates: every wire's value and tag, the witness, and each
/// relation's terms, kept until the coefficients are known ([`ProverWalk::sums`]).
///
/// One serial pass, made once the VOLE gives the tags and before `chall1` (the masked witness
/// needs the witness): it evaluates the circuit (the witness is its by-product: an honest
/// prover's AND outputs and inverse bits are what the gates compute) and collects each AND
/// gate's input tags and linear term, so that no second walk is needed after `chall2`. The
/// values, tags and terms would give the witness away once `Δ` is public: they are wiped
/// when the walk is dropped (its buffers go back to the thread's [`Scratch`]).
pub struct ProverWalk {
    s: Scratch,
    n_in: usize,
    /// Inputs, AND outputs (gate order), inverted bytes' bits (table order).
    witness: Vec<bool>,
    /// The relations whose witness bits differ from what the gates compute (only a
    /// cheating prover has any): AND gate `t`, or inverse bit `t − n_and`.
    wrong: Vec<usize>,
    /// Some inverted byte's input is zero (no witness satisfies such a statement).
    zero_inv: bool,
    inv_pairs: Vec<(u128, u128)>,
    inv_lin: Vec<u128>,
    inv_err: Vec<u128>,
}

impl ProverWalk {
    /// Walks `c` on `input` with the witness positions' `tags`. `pick(t, computed)` gives
    /// the witness bit of relation `t` (AND gate `t`, then bit `t − n_and` of the inverted
    /// bytes) from the value the gates compute: the identity for an honest prover; a
    /// soundness test flips one, the sums' tests take arbitrary bits.
    pub fn new(
        c: &Circuit,
        input: &[bool],
        tags: &[u128],
        pick: impl Fn(usize, bool) -> bool,
    ) -> Self {
        let mut s = Scratch::take();
        let n_in = c.n_inputs();
        let n_and = c.n_and();
        let mut witness = Vec::with_capacity(n_in + n_and + 8 * c.n_inv());
        witness.extend_from_slice(input);
        let mut invs: Vec<bool> = Vec::with_capacity(8 * c.n_inv());
        let mut wrong: Vec<usize> = Vec::new();
        let mut zero_inv = false;
        {
            let (xv, tv) = (&mut s.bits, &mut s.wires);
            let (pairs, lin) = (&mut s.pairs, &mut s.lin);
            xv.reserve(c.n_wires());
            tv.reserve(c.n_wires());
            pairs.reserve(n_and);
            lin.reserve(n_and);
            xv.extend_from_slice(input);
            tv.extend_from_slice(&tags[..n_in]);
            let mut inv = 0u8;
            for g in c.gates() {
                let (xx, vv) = match *g {
                    Gate::Xor(a, b) => (
                        xv[a as usize] ^ xv[b as usize],
                        tv[a as usize] ^ tv[b as usize],
                    ),
                    Gate::Not(a) => (!xv[a as usize], tv[a as usize]),
                    Gate::Inv(i, j) => {
                        if j == 0 {
                            let ins = &c.inv_inputs()[i as usize];
                            let b = (0..8).fold(0u8, |b, k| b | ((xv[ins[k] as usize] as u8) << k));
                            zero_inv |= b == 0;
                            inv = gf256_inv(b);
                        }
                        let t = n_and + invs.len();
                        let computed = (inv >> j) & 1 == 1;
                        let x = pick(t, computed);
                        invs.push(x);
                        (x, tags[n_in + t])
                    }
                    Gate::And(a, b) => {
                        let t = pairs.len();
                        let (xa, xb) = (xv[a as usize], xv[b as usize]);
                        let (va, vb) = (tv[a as usize], tv[b as usize]);
                        let xc = pick(t, xa & xb);
                        let vc = tags[n_in + t];
                        pairs.push((va, vb));
                        lin.push(scale(vb, xa) ^ scale(va, xb) ^ vc);
                        if (xa & xb) != xc {
                            wrong.push(t);
                        }
                        witness.push(xc);
                        (xc, vc)
                    }
                };
                xv.push(xx);
                tv.push(vv);
            }
        }
        witness.extend_from_slice(&invs);
        wipe(&mut invs);
        let (inv_pairs, inv_lin, inv_err) = inv_prover_terms(c, &s.bits, &s.wires, &witness, tags);
        ProverWalk {
            s,
            n_in,
            witness,
            wrong,
            zero_inv,
            inv_pairs,
            inv_lin,
            inv_err,
        }
    }

    /// The witness positions' values: inputs, AND outputs, inverted bytes' bits.
    pub fn witness(&self) -> &[bool] {
        &self.witness
    }

    /// Whether the walked witness satisfies the statement: every relation holds, no
    /// inverted byte is zero, and the circuit's outputs are `output`. `Err(true)` when some
    /// inverted byte is zero.
    pub fn satisfies(&self, c: &Circuit, output: &[bool]) -> Result<bool, bool> {
        if self.zero_inv {
            return Err(true);
        }
        let outs_ok = c.outputs().iter().zip(output).all(|(o, &y)| match *o {
            Bit::Const(b) => b == y,
            Bit::Wire(w) => self.s.bits[w as usize] == y,
        });
        Ok(outs_ok && self.wrong.is_empty() && self.inv_err.iter().all(|&e| e == 0))
    }

    /// The sums `(A0, A1, E)`, one triple per coefficient vector of `chis` (each
    /// `n_and + n_outputs + n_inv` long: the proof has two independent combinations), for
    /// the public `output`: the products summed in parallel with lazy reduction.
    pub fn sums(&self, c: &Circuit, chis: &[&[u128]], output: &[bool]) -> Vec<(u128, u128, u128)> {
        let n_and = c.n_and();
        debug_assert_eq!(self.n_in, c.n_inputs());
        let (xv, tv) = (&self.s.bits, &self.s.wires);
        let inv_at = n_and + c.n_outputs();
        chis.iter()
            .map(|chi| {
                let inv_chi = &chi[inv_at..inv_at + c.n_inv()];
                let a0 = sum_chi_products(&chi[..n_and], &self.s.pairs)
                    ^ dot_of_products(inv_chi, &self.inv_pairs).value();
                let mut a1 =
                    sum_chi(&chi[..n_and], &self.s.lin) ^ dot(inv_chi, &self.inv_lin).value();
                let mut e = self.wrong.iter().fold(0u128, |e, &t| e ^ chi[t])
                    ^ dot(inv_chi, &self.inv_err).value();
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
    }
}

impl Drop for ProverWalk {
    fn drop(&mut self) {
        wipe(&mut self.witness);
        wipe(&mut self.inv_pairs);
        wipe(&mut self.inv_lin);
        wipe(&mut self.inv_err);
        Scratch::give(std::mem::take(&mut self.s));
    }
}

/// The prover's sums for given witness positions' values `x` (inputs, AND outputs,
/// inverted bytes' bits, any bits at all) and tags: [`ProverWalk`] taking `x`'s bits (tests).
#[cfg(test)]
pub(crate) fn prover_sums(
    c: &Circuit,
    x: &[bool],
    tags: &[u128],
    chis: &[&[u128]],
    output: &[bool],
) -> Vec<(u128, u128, u128)> {
    let n_in = c.n_inputs();
    ProverWalk::new(c, &x[..n_in], tags, |t, _| x[n_in + t]).sums(c, chis, output)
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
                Gate::Inv(i, j) => key(inv_pos(c, i as usize, j as usize)),
                Gate::And(a, b) => {
                    let kc = key(n_in + pairs.len());
                    pairs.push((kv[a as usize], kv[b as usize]));
                    kcs.push(kc);
                    kc
                }
            };
            kv.push(k);
        }
        // inverted byte i: (K_x, K_y); its relation adds χ K_x K_y and χ Δ·Δ
        let inv_pairs: Vec<(u128, u128)> = c
            .inv_inputs()
            .iter()
            .enumerate()
            .map(|(i, ins)| {
                (
                    embed_tags(|j| kv[ins[j] as usize]),
                    embed_tags(|j| key(inv_pos(c, i, j))),
                )
            })
            .collect();
        let inv_at = n_and + c.n_outputs();
        chis.iter()
            .map(|chi| {
                let inv_chi = &chi[inv_at..inv_at + c.n_inv()];
                let quad = sum_chi_products(&chi[..n_and], pairs)
                    ^ dot_of_products(inv_chi, &inv_pairs).value();
                let mut lin = sum_chi(&chi[..n_and], kcs)
                    ^ mul(inv_chi.iter().fold(0u128, |a, &x| a ^ x), delta);
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
            Gate::Inv(i, j) => {
                let p = inv_pos(c, i as usize, j as usize);
                (x[p], tags[p])
            }
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
    // each inverted byte, from the definition: the product of the embedded bytes
    for (i, ins) in c.inv_inputs().iter().enumerate() {
        let ch = chi[n_and + c.n_outputs() + i];
        let (mut mx, mut my, mut xe, mut ye) = (0u128, 0u128, 0u128, 0u128);
        for j in 0..8 {
            let (w, p) = (ins[j] as usize, inv_pos(c, i, j));
            mx ^= mul(GF256_BASIS[j], tv[w]);
            my ^= mul(GF256_BASIS[j], tags[p]);
            xe ^= scale(GF256_BASIS[j], xv[w]);
            ye ^= scale(GF256_BASIS[j], x[p]);
        }
        a0 ^= mul(ch, mul(mx, my));
        a1 ^= mul(ch, mul(xe, my) ^ mul(ye, mx));
        e ^= mul(ch, mul(xe, ye) ^ 1);
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
            Gate::Inv(i, j) => {
                let p = inv_pos(c, i as usize, j as usize);
                q[p] ^ scale(delta, d(p))
            }
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
    for (i, ins) in c.inv_inputs().iter().enumerate() {
        let ch = chi[n_and + c.n_outputs() + i];
        let (mut kx, mut ky) = (0u128, 0u128);
        for j in 0..8 {
            let p = inv_pos(c, i, j);
            kx ^= mul(GF256_BASIS[j], kv[ins[j] as usize]);
            ky ^= mul(GF256_BASIS[j], q[p] ^ scale(delta, d(p)));
        }
        quad ^= mul(ch, mul(kx, ky));
        lin ^= mul(ch, delta);
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

    /// A random circuit with inverted bytes: random inputs, AND gates, and bytes of earlier
    /// wires inverted, some outputs.
    fn random_inv_circuit(rng: &mut impl RngCore, n_in: usize, n: usize) -> Circuit {
        use crate::mpc::circuit::Builder;
        let mut b = Builder::new(n_in);
        let mut wires: Vec<Bit> = (0..n_in).map(|i| b.input(i)).collect();
        for _ in 0..n {
            let pick = |rng: &mut dyn RngCore, w: &[Bit]| w[rng.next_u32() as usize % w.len()];
            match rng.next_u32() % 3 {
                0 => {
                    let (x, y) = (pick(rng, &wires), pick(rng, &wires));
                    let z = b.and(x, y);
                    wires.push(z);
                }
                1 => {
                    let (x, y) = (pick(rng, &wires), pick(rng, &wires));
                    let z = b.xor(x, y);
                    wires.push(z);
                }
                _ => {
                    let byte: [Bit; 8] = std::array::from_fn(|_| pick(rng, &wires));
                    if byte.iter().all(|w| matches!(w, Bit::Wire(_))) {
                        wires.extend(b.gf256_inv(&byte));
                    }
                }
            }
        }
        for _ in 0..6 {
            let w = wires[rng.next_u32() as usize % wires.len()];
            b.output(w);
        }
        b.finish()
    }

    /// The embedding is a field homomorphism on every pair, and `θ` is the first root of
    /// AES's polynomial among the powers of `z = X^((2^128 − 1)/255)` (the rule
    /// docs/PROTOCOLS.md gives).
    #[test]
    fn the_embedding_of_gf256_is_a_homomorphism() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(mul(embed(a), embed(b)), embed(gf256_mul(a, b)));
                assert_eq!(embed(a) ^ embed(b), embed(a ^ b));
            }
        }
        assert_eq!(embed(1), 1);
        let z = crate::mpc::gf128::pow(2, u128::MAX / 255);
        let p = |t: u128| {
            let t2 = mul(t, t);
            let t4 = mul(t2, t2);
            mul(t4, t4) ^ t4 ^ mul(t2, t) ^ t ^ 1
        };
        let mut t = 1u128;
        let mut k = 0;
        while p(t) != 0 {
            t = mul(t, z);
            k += 1;
            assert!(k < 255);
        }
        assert_eq!((k, t), (95, GF256_BASIS[1]));
        for j in 1..8 {
            assert_eq!(GF256_BASIS[j], mul(GF256_BASIS[j - 1], t));
        }
    }

    /// With inverted bytes: the fast sums against their definitions, and the identity the
    /// verifier checks, `L = A0 + A1·Δ + E·Δ²`, with consistent tags and keys, for honest
    /// witnesses (`E = 0`) and forged inverses (`E ≠ 0`).
    #[test]
    fn inverted_bytes_in_the_sums() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        for round in 0..40 {
            let c = random_inv_circuit(&mut rng, 12, 60);
            let input: Vec<bool> = (0..12).map(|_| rng.next_u32() & 1 == 1).collect();
            let flip = (round % 2 == 1 && c.n_inv() > 0)
                .then(|| c.n_and() + (rng.next_u32() as usize % (8 * c.n_inv())));
            let x = super::super::extended_witness(&c, &input, flip);
            let l = c.n_inputs() + c.n_and() + 8 * c.n_inv();
            assert_eq!(x.len(), l);
            let tags: Vec<u128> = (0..l).map(|_| r128(&mut rng)).collect();
            let n_rel = c.n_and() + c.n_outputs() + c.n_inv();
            let chi: Vec<u128> = (0..n_rel).map(|_| r128(&mut rng)).collect();
            let chi2: Vec<u128> = (0..n_rel).map(|_| r128(&mut rng)).collect();
            let out = c.eval(&input);
            let sums = prover_sums(&c, &x, &tags, &[&chi, &chi2], &out);
            // the walk an honest (or flipping) prover makes: the witness it evaluates is the
            // reference's, its sums are the same, its verdict on the statement is right
            let walk = ProverWalk::new(&c, &input, &tags, |t, v| v ^ (flip == Some(t)));
            assert_eq!(walk.witness(), &x[..]);
            assert_eq!(walk.sums(&c, &[&chi, &chi2], &out), sums);
            // an honest walk's verdict is exact; a flipped bit is refused (it may also make a
            // later inverted byte's input zero, which the walk then reports)
            let zero = c.eval_checked(&input).is_err();
            let verdict = walk.satisfies(&c, &out);
            match (flip, zero) {
                (None, true) => assert_eq!(verdict, Err(true), "round {round}"),
                (None, false) => assert_eq!(verdict, Ok(true), "round {round}"),
                (Some(_), _) => assert_ne!(verdict, Ok(true), "round {round}"),
            }
            let mut other = out.clone();
            if let Some(b) = other.first_mut() {
                *b ^= true;
                assert_ne!(walk.satisfies(&c, &other), Ok(true), "round {round}");
            }
            drop(walk);
            assert_eq!(
                sums,
                vec![
                    prover_sums_naive(&c, &x, &tags, &chi, &out),
                    prover_sums_naive(&c, &x, &tags, &chi2, &out)
                ]
            );
            let delta = r128(&mut rng);
            let u: Vec<bool> = (0..l).map(|_| rng.next_u32() & 1 == 1).collect();
            let q: Vec<u128> = (0..l).map(|p| tags[p] ^ scale(delta, u[p])).collect();
            let d = |p: usize| x[p] ^ u[p];
            let lhs = verifier_sum(&c, &q, d, delta, &[&chi, &chi2], &out);
            assert_eq!(
                lhs,
                vec![
                    verifier_sum_naive(&c, &q, d, delta, &chi, &out),
                    verifier_sum_naive(&c, &q, d, delta, &chi2, &out)
                ]
            );
            for (k, &(a0, a1, e)) in sums.iter().enumerate() {
                assert_eq!(lhs[k], a0 ^ mul(a1, delta) ^ mul(e, mul(delta, delta)));
                assert_eq!(e == 0, flip.is_none() && !zero, "round {round}");
            }
        }
    }
}
