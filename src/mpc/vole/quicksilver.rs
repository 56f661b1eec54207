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

use super::super::circuit::{Bit, Circuit, Gate};
use super::super::gf128::{mul, scale};

/// The prover's sums `(A0, A1, E)` for the witness positions' values `x` (inputs, then AND
/// outputs) and tags, the coefficients `chi` (`n_and + n_outputs`), the public `output`.
pub fn prover_sums(
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

/// The verifier's side `Σ χ_t (K_a K_b + K_c Δ) + Σ χ_o (K_w + y_o Δ) Δ` from the keys'
/// VOLE parts `q` (witness positions), the masked witness `d`, `Δ`, `chi`, `output`.
pub fn verifier_sum(
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
