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

//!
//! **Norm bytes and degree 3** ([`Circuit::is_norm`]). A norm byte commits the 4 bits `n_b`
//! of `n = x^-17 = Σ_b n_b ω^b` ([`NORM_BASIS`]); its output bit `j` is
//! `y_j = Σ_b n_b · λ_{jb}(x)`, `λ_{jb}(x)` bit `j` of `x^16 ω^b` (GF(2)-linear in `x`), so
//! its key `Σ_b K_{n_b} K_{λ_{jb}}` has degree 2 in `Δ`: `a0 + a1 Δ + y_j Δ²` (the prover
//! keeps `(a0, a1)`). Degree-2 wires XOR with degree-1 ones lifted by `Δ`; NOT adds `Δ²`.
//! The byte's relation is `n · x^16 · x = 1` (degree 3), and a full byte whose input has
//! degree 2 gives `x·y = 1` of degree 3. A circuit with a norm byte checks every relation at
//! degree 3: a degree-2 relation is multiplied by `Δ`, the prover's sums are the
//! coefficients `(c0, c1, c2)` of `Σ χ·f·Δ^{3 − deg f} = c0 + c1Δ + c2Δ² + EΔ³`, and the
//! mask is a degree-2 polynomial from two VOLE rows (docs/PROTOCOLS.md 7.6).

use rayon::prelude::*;

use super::super::circuit::{
    gf256_inv, gf256_mul, gf256_pow16, norm_byte, Bit, Circuit, Gate, NORM_BASIS,
};
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

/// The witness position of committed bit `j` of inverted byte `i` (of its inverse, or of
/// its norm for a norm byte).
fn inv_pos(c: &Circuit, i: usize, j: usize) -> usize {
    c.n_inputs() + c.n_and() + c.inv_start(i) + j
}

/// The check's degree: 3 if the circuit has a norm byte, else 2.
pub fn degree(c: &Circuit) -> usize {
    2 + c.has_norm() as usize
}

/// `λ[j][b]`: the bits `a` of `x` whose sum is bit `j` of `x^16 · ω^b` (a mask over `x`);
/// made once per process.
fn norm_lambda() -> [[u8; 4]; 8] {
    static LAMBDA: std::sync::LazyLock<[[u8; 4]; 8]> = std::sync::LazyLock::new(make_lambda);
    *LAMBDA
}

fn make_lambda() -> [[u8; 4]; 8] {
    let mut m = [[0u8; 4]; 8];
    for (j, row) in m.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate() {
            for a in 0..8 {
                if (gf256_mul(gf256_pow16(1 << a), NORM_BASIS[b]) >> j) & 1 == 1 {
                    *cell |= 1 << a;
                }
            }
        }
    }
    m
}

/// `ι(e_a^16)` (the key of `x^16` from `x`'s bits) and `ι(ω^b)` (the norm's from its bits);
/// made once per process.
fn norm_embeddings() -> ([u128; 8], [u128; 4]) {
    static EMB: std::sync::LazyLock<([u128; 8], [u128; 4])> = std::sync::LazyLock::new(|| {
        (
            std::array::from_fn(|a| embed(gf256_pow16(1 << a))),
            std::array::from_fn(|b| embed(NORM_BASIS[b])),
        )
    });
    *EMB
}

/// `Σ_j e_j t_j` over the set bits of `mask` (a GF(2) sum of tags or keys).
fn masked_sum(mask: u8, t: impl Fn(usize) -> u128) -> u128 {
    (0..8).fold(
        0u128,
        |a, k| if (mask >> k) & 1 == 1 { a ^ t(k) } else { a },
    )
}

/// `Σ_j c_j t_j`.
fn lin(c: &[u128], t: impl Fn(usize) -> u128) -> u128 {
    c.iter()
        .enumerate()
        .fold(0u128, |a, (j, &cj)| a ^ mul(cj, t(j)))
}

/// A norm byte's output, prover side: for each bit `j` its value and `(a0, a1)`, from the
/// input bits' values and (degree-1) tags and the 4 committed bits' values and tags.
fn norm_outputs(
    lam: &[[u8; 4]; 8],
    xs: u8,
    xt: &[u128; 8],
    ns: u8,
    nt: &[u128; 4],
) -> [(bool, u128, u128); 8] {
    std::array::from_fn(|j| {
        let (mut y, mut a0, mut a1) = (false, 0u128, 0u128);
        for b in 0..4 {
            let l = lam[j][b];
            let lv = (xs & l).count_ones() & 1 == 1;
            let lt = masked_sum(l, |k| xt[k]);
            let nb = (ns >> b) & 1 == 1;
            y ^= nb & lv;
            a0 ^= mul(nt[b], lt);
            a1 ^= scale(lt, nb) ^ scale(nt[b], lv);
        }
        (y, a0, a1)
    })
}

/// A relation's coefficients: `c0 + c1Δ + c2Δ² + err·Δ^deg` is its value on the keys (`deg`
/// 2 or 3; `c2 = 0` for degree 2).
#[derive(Clone, Copy, Debug, Default)]
struct Rel {
    deg3: bool,
    c: [u128; 3],
    err: u128,
}

/// Products of polynomials in `Δ` given by coefficients (low first), truncated to 4.
fn pmul(a: &[u128], b: &[u128]) -> [u128; 4] {
    let mut r = [0u128; 4];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            if i + j < 4 {
                r[i + j] ^= mul(x, y);
            }
        }
    }
    r
}

/// The second coefficients `a1` of the degree-2 wires, kept for those wires only (AES-128:
/// 7,200 of 17,000 wires; a degree-1 wire's is zero): a bitmap of the degree-2 wires and,
/// per 64 wires, how many come before, so that a wire's place is a popcount away.
#[derive(Default)]
struct Tv2 {
    vals: Vec<u128>,
    is2: Vec<u64>,
    before: Vec<u32>,
}

impl Tv2 {
    /// Room for the degree-2 wires of `deg` (every wire's degree; empty: none).
    fn of(deg: &[u8]) -> Self {
        let mut t = Tv2::default();
        let mut n = 0u32;
        for ch in deg.chunks(64) {
            let m = ch
                .iter()
                .enumerate()
                .fold(0u64, |m, (k, &d)| m | (((d == 2) as u64) << k));
            t.before.push(n);
            t.is2.push(m);
            n += m.count_ones();
        }
        t.vals.reserve(n as usize);
        t
    }

    /// Degree-2 wire `w`'s `a1`.
    #[inline]
    fn at(&self, w: usize) -> u128 {
        let (k, b) = (w / 64, w % 64);
        let below = self.is2[k] & ((1u64 << b) - 1);
        self.vals[self.before[k] as usize + below.count_ones() as usize]
    }
}

/// The prover's relation of every inverted byte, from the wires' values `xv`, tags `tv`
/// (a degree-2 wire's `a0`), `tv2` (its `a1`; empty without norm bytes) and degrees `deg`
/// (empty without norm bytes), and the positions' values `x` and `tags`.
fn inv_prover_terms(
    c: &Circuit,
    (xv, tv, tv2, deg): (&[bool], &[u128], &Tv2, &[u8]),
    x: &[bool],
    tags: &[u128],
) -> Vec<Rel> {
    let (e16, eom) = norm_embeddings();
    let byte = |f: &dyn Fn(usize) -> bool| (0..8).fold(0u8, |b, j| b | ((f(j) as u8) << j));
    c.inv_inputs()
        .iter()
        .enumerate()
        .map(|(i, ins)| {
            let w = |j: usize| ins[j] as usize;
            let xb = byte(&|j| xv[w(j)]);
            if c.is_norm(i) {
                // n · x^16 · x = 1, the inputs of degree 1 (Circuit::with_norm)
                let nb = (0..4).fold(0u8, |b, k| b | ((x[inv_pos(c, i, k)] as u8) << k));
                let kn = [lin(&eom, |k| tags[inv_pos(c, i, k)]), embed(norm_byte(nb))];
                let k16 = [lin(&e16, |a| tv[w(a)]), embed(gf256_pow16(xb))];
                let kx = [embed_tags(|j| tv[w(j)]), embed(xb)];
                let p = pmul(&pmul(&kn, &k16), &kx);
                return Rel {
                    deg3: true,
                    c: [p[0], p[1], p[2]],
                    err: p[3] ^ 1,
                };
            }
            let yb = byte(&|j| x[inv_pos(c, i, j)]);
            let my = embed_tags(|j| tags[inv_pos(c, i, j)]);
            let (xe, ye) = (embed(xb), embed(yb));
            if !deg.is_empty() && (0..8).any(|j| deg[w(j)] == 2) {
                // x·y = 1 with x of degree 2: the degree-1 bits lifted by Δ
                let lift = |j: usize| {
                    if deg[w(j)] == 2 {
                        (tv[w(j)], tv2.at(w(j)))
                    } else {
                        (0, tv[w(j)])
                    }
                };
                let kx = [
                    lin(&GF256_BASIS, |j| lift(j).0),
                    lin(&GF256_BASIS, |j| lift(j).1),
                    xe,
                ];
                let p = pmul(&kx, &[my, ye]);
                return Rel {
                    deg3: true,
                    c: [p[0], p[1], p[2]],
                    err: p[3] ^ 1,
                };
            }
            let mx = embed_tags(|j| tv[w(j)]);
            Rel {
                deg3: false,
                c: [mul(mx, my), mul(xe, my) ^ mul(ye, mx), 0],
                err: embed(gf256_mul(xb, yb)) ^ 1,
            }
        })
        .collect()
}

/// Gates per parallel chunk of the sums.
const CHUNK: usize = 4096;

/// `Σ_t χ_t·(a_t·b_t)`: in parallel chunks, the outer products accumulated unreduced.
fn sum_chi_products(chi: &[u128], pairs: &[(u128, u128)]) -> u128 {
    let one = |(c, p): (&[u128], &[(u128, u128)])| dot_of_products(c, p);
    if super::par::serial() {
        chi.chunks(CHUNK)
            .zip(pairs.chunks(CHUNK))
            .map(one)
            .fold(Acc::default(), Acc::merge)
            .value()
    } else {
        chi.par_chunks(CHUNK)
            .zip(pairs.par_chunks(CHUNK))
            .map(one)
            .reduce(Acc::default, Acc::merge)
            .value()
    }
}

/// `Σ_t χ_t·x_t`: in parallel chunks, accumulated unreduced.
fn sum_chi(chi: &[u128], xs: &[u128]) -> u128 {
    let one = |(c, x): (&[u128], &[u128])| dot(c, x);
    if super::par::serial() {
        chi.chunks(CHUNK)
            .zip(xs.chunks(CHUNK))
            .map(one)
            .fold(Acc::default(), Acc::merge)
            .value()
    } else {
        chi.par_chunks(CHUNK)
            .zip(xs.par_chunks(CHUNK))
            .map(one)
            .reduce(Acc::default, Acc::merge)
            .value()
    }
}

/// Gates ahead of the walk whose operands' tags (or keys) are fetched early.
const AHEAD: usize = 12;

/// Asks the CPU to bring the 16-byte entries of `v` at gate `g`'s operands into the cache:
/// the walks read wires spread over hundreds of kilobytes (LowMC's grouped products), and
/// waiting for those reads was most of their time. `v` has its whole circuit's capacity
/// reserved, so every operand lies inside its allocation; a hint only, it reads nothing.
#[inline(always)]
fn prefetch(v: &[u128], g: Option<&Gate>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(&Gate::Xor(a, b) | &Gate::And(a, b)) = g {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = v.as_ptr();
        // SAFETY: prefetching is a hint that never faults or reads architecturally; the
        // addresses are computed with wrapping arithmetic and never dereferenced.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(a as usize) as *const i8);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(b as usize) as *const i8);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (v, g);
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

/// Runs `f` on this thread's wire buffer (empty, its capacity kept: the walks' tags or
/// keys) for public values only, then empties it without wiping it: for a pass over a
/// circuit's wires before the walk ([`super::fixed::Reduction::of`]'s columns), so that the
/// walk finds its pages mapped.
pub(crate) fn with_public_wire_buffer<R>(f: impl FnOnce(&mut Vec<u128>) -> R) -> R {
    let mut s = Scratch::take();
    let r = f(&mut s.wires);
    s.wires.clear();
    Scratch::give(s);
    r
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
    /// Inputs, AND outputs (gate order), inverted bytes' committed bits (table order).
    witness: Vec<bool>,
    /// The relations whose witness bits differ from what the gates compute (only a
    /// cheating prover has any): AND gate `t`, or inverse bit `t − n_and`.
    wrong: Vec<usize>,
    /// Some inverted byte's input is zero (no witness satisfies such a statement).
    zero_inv: bool,
    /// Every inverted byte's relation.
    inv: Vec<Rel>,
    /// With norm bytes: a degree-2 wire's `a1` (its `a0` is in the scratch's tags). Empty
    /// otherwise.
    tv2: Tv2,
}

impl ProverWalk {
    /// Walks `c` on `input` with the witness positions' `tags`. `pick(t, computed)` gives
    /// the witness bit of relation `t` (AND gate `t`, then bit `t − n_and` of the inverted
    /// bytes' committed bits) from the value the gates compute: the identity for an honest
    /// prover; a soundness test flips one, the sums' tests take arbitrary bits.
    pub fn new(
        c: &Circuit,
        input: &[bool],
        tags: &[u128],
        pick: impl Fn(usize, bool) -> bool,
    ) -> Self {
        let mut s = Scratch::take();
        let n_in = c.n_inputs();
        let n_and = c.n_and();
        let norm = c.has_norm();
        let deg = c.degrees();
        let mut tv2 = if norm { Tv2::of(deg) } else { Tv2::default() };
        let lam = if norm { norm_lambda() } else { [[0; 4]; 8] };
        let mut witness = Vec::with_capacity(n_in + n_and + c.n_inv_bits());
        witness.extend_from_slice(input);
        let mut invs: Vec<bool> = Vec::with_capacity(c.n_inv_bits());
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
            // the current inverted byte's output: value, tag (a0) and a1
            let mut out = [(false, 0u128, 0u128); 8];
            let gates = c.gates();
            for (gi, g) in gates.iter().enumerate() {
                prefetch(tv, gates.get(gi + AHEAD));
                let (xx, vv, v2) = match *g {
                    Gate::Xor(a, b) => {
                        let (a, b) = (a as usize, b as usize);
                        let x = xv[a] ^ xv[b];
                        if !norm || deg[a] == deg[b] {
                            let v2 = if norm && deg[a] == 2 {
                                tv2.at(a) ^ tv2.at(b)
                            } else {
                                0
                            };
                            (x, tv[a] ^ tv[b], v2)
                        } else if deg[a] == 2 {
                            // the degree-1 operand lifted by Δ: (0, v)
                            (x, tv[a], tv2.at(a) ^ tv[b])
                        } else {
                            (x, tv[b], tv2.at(b) ^ tv[a])
                        }
                    }
                    Gate::Not(a) => {
                        let a = a as usize;
                        (
                            !xv[a],
                            tv[a],
                            if norm && deg[a] == 2 { tv2.at(a) } else { 0 },
                        )
                    }
                    Gate::Inv(i, j) => {
                        let i = i as usize;
                        if j == 0 {
                            let ins = &c.inv_inputs()[i];
                            let b = (0..8).fold(0u8, |b, k| b | ((xv[ins[k] as usize] as u8) << k));
                            zero_inv |= b == 0;
                            let first = n_and + invs.len();
                            if c.is_norm(i) {
                                let want = super::super::circuit::gf256_inv_norm_bits(b);
                                let mut ns = 0u8;
                                for k in 0..4 {
                                    let x = pick(first + k, (want >> k) & 1 == 1);
                                    invs.push(x);
                                    ns |= (x as u8) << k;
                                }
                                let xt: [u128; 8] = std::array::from_fn(|k| tv[ins[k] as usize]);
                                let nt: [u128; 4] = std::array::from_fn(|k| tags[n_in + first + k]);
                                out = norm_outputs(&lam, b, &xt, ns, &nt);
                            } else {
                                let inv = gf256_inv(b);
                                for (k, o) in out.iter_mut().enumerate() {
                                    let x = pick(first + k, (inv >> k) & 1 == 1);
                                    invs.push(x);
                                    *o = (x, tags[n_in + first + k], 0);
                                }
                            }
                        }
                        out[j as usize]
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
                        (xc, vc, 0)
                    }
                };
                xv.push(xx);
                tv.push(vv);
                if norm && deg[n_in + gi] == 2 {
                    tv2.vals.push(v2);
                }
            }
        }
        witness.extend_from_slice(&invs);
        wipe(&mut invs);
        let inv = inv_prover_terms(c, (&s.bits, &s.wires, &tv2, deg), &witness, tags);
        ProverWalk {
            s,
            n_in,
            witness,
            wrong,
            zero_inv,
            inv,
            tv2,
        }
    }

    /// The witness positions' values: inputs, AND outputs, inverted bytes' committed bits.
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
        Ok(outs_ok && self.wrong.is_empty() && self.inv.iter().all(|r| r.err == 0))
    }

    /// The sums `(c, E)`, one per coefficient vector of `chis` (each
    /// `n_and + n_outputs + n_inv` long), for the public `output`: `c0 + c1Δ + c2Δ² + EΔ^d`
    /// is the combination's value on the keys, `d` the check's [`degree`] (`c2 = 0` when it
    /// is 2). The products are summed in parallel with lazy reduction.
    pub fn sums(&self, c: &Circuit, chis: &[&[u128]], output: &[bool]) -> Vec<([u128; 3], u128)> {
        let n_and = c.n_and();
        debug_assert_eq!(self.n_in, c.n_inputs());
        let (xv, tv) = (&self.s.bits, &self.s.wires);
        let deg = c.degrees();
        let inv_at = n_and + c.n_outputs();
        chis.iter()
            .map(|chi| {
                let inv_chi = &chi[inv_at..inv_at + c.n_inv()];
                let mut a0 = sum_chi_products(&chi[..n_and], &self.s.pairs);
                let mut a1 = sum_chi(&chi[..n_and], &self.s.lin);
                let mut e = self.wrong.iter().fold(0u128, |e, &t| e ^ chi[t]);
                let mut b = [0u128; 3];
                for (r, &ch) in self.inv.iter().zip(inv_chi) {
                    if r.deg3 {
                        for (bk, ck) in b.iter_mut().zip(r.c) {
                            *bk ^= mul(ch, ck);
                        }
                    } else {
                        a0 ^= mul(ch, r.c[0]);
                        a1 ^= mul(ch, r.c[1]);
                    }
                    e ^= mul(ch, r.err);
                }
                for (o, (out, &y)) in c.outputs().iter().zip(output).enumerate() {
                    if let Bit::Wire(w) = *out {
                        let (w, ch) = (w as usize, chi[n_and + o]);
                        if !deg.is_empty() && deg[w] == 2 {
                            // K_w + yΔ²: degree 2 as it stands
                            a0 ^= mul(ch, tv[w]);
                            a1 ^= mul(ch, self.tv2.at(w));
                        } else {
                            a1 ^= mul(ch, tv[w]);
                        }
                        e ^= scale(ch, xv[w] ^ y);
                    }
                }
                if deg.is_empty() {
                    ([a0, a1, 0], e)
                } else {
                    // the degree-2 relations multiplied by Δ
                    ([b[0], a0 ^ b[1], a1 ^ b[2]], e)
                }
            })
            .collect()
    }
}

impl Drop for ProverWalk {
    fn drop(&mut self) {
        wipe(&mut self.witness);
        wipe(&mut self.inv);
        wipe(&mut self.tv2.vals);
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
    assert!(!c.has_norm(), "the degree-2 sums");
    ProverWalk::new(c, &x[..n_in], tags, |t, _| x[n_in + t])
        .sums(c, chis, output)
        .into_iter()
        .map(|(k, e)| (k[0], k[1], e))
        .collect()
}

/// The verifier's side `Σ χ_t (K_a K_b + K_c Δ) + Σ χ_o (K_w + y_o Δ) Δ + …` from the keys'
/// VOLE parts `q` (witness positions), the masked witness `d`, `Δ`, `chi`, `output`: per
/// combination, the value `c0 + c1Δ + c2Δ² + EΔ^d` of [`ProverWalk::sums`] (`d` the
/// check's [`degree`]).
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
        let norm = c.has_norm();
        let deg = c.degrees();
        let d2 = mul(delta, delta);
        let d3 = mul(d2, delta);
        let lam = if norm { norm_lambda() } else { [[0; 4]; 8] };
        let key = |p: usize| q[p] ^ scale(delta, d(p));
        let (kv, pairs, kcs) = (&mut s.wires, &mut s.pairs, &mut s.lin);
        kv.reserve(c.n_wires());
        pairs.reserve(n_and);
        kcs.reserve(n_and);
        kv.extend((0..n_in).map(key));
        let mut out = [0u128; 8];
        let gates = c.gates();
        for (gi, g) in gates.iter().enumerate() {
            prefetch(kv, gates.get(gi + AHEAD));
            let k = match *g {
                Gate::Xor(a, b) => {
                    let (a, b) = (a as usize, b as usize);
                    if !norm || deg[a] == deg[b] {
                        kv[a] ^ kv[b]
                    } else if deg[a] == 2 {
                        kv[a] ^ mul(kv[b], delta)
                    } else {
                        mul(kv[a], delta) ^ kv[b]
                    }
                }
                Gate::Not(a) => {
                    let a = a as usize;
                    kv[a] ^ if norm && deg[a] == 2 { d2 } else { delta }
                }
                Gate::Inv(i, j) if c.is_norm(i as usize) => {
                    let i = i as usize;
                    if j == 0 {
                        // K_{y_j} = Σ_b K_{n_b} · Σ_{a ∈ λ_{jb}} K_{x_a}
                        let ins = &c.inv_inputs()[i];
                        let kn: [u128; 4] = std::array::from_fn(|b| key(inv_pos(c, i, b)));
                        out = std::array::from_fn(|j| {
                            (0..4).fold(0u128, |acc, b| {
                                acc ^ mul(kn[b], masked_sum(lam[j][b], |a| kv[ins[a] as usize]))
                            })
                        });
                    }
                    out[j as usize]
                }
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
        let (e16, eom) = norm_embeddings();
        // inverted byte i: degree 2, (K_x, K_y) and χ Δ·Δ; degree 3, its value K_x K_y − Δ³
        // or K_n K_{x^16} K_x − Δ³ as it stands
        enum InvKey {
            Two(u128, u128),
            Three(u128),
        }
        let inv_keys: Vec<InvKey> = c
            .inv_inputs()
            .iter()
            .enumerate()
            .map(|(i, ins)| {
                let w = |j: usize| ins[j] as usize;
                if c.is_norm(i) {
                    let kn = lin(&eom, |b| key(inv_pos(c, i, b)));
                    let k16 = lin(&e16, |a| kv[w(a)]);
                    let kx = embed_tags(|j| kv[w(j)]);
                    return InvKey::Three(mul(mul(kn, k16), kx) ^ d3);
                }
                let ky = embed_tags(|j| key(inv_pos(c, i, j)));
                if norm && (0..8).any(|j| deg[w(j)] == 2) {
                    let kx = embed_tags(|j| {
                        if deg[w(j)] == 2 {
                            kv[w(j)]
                        } else {
                            mul(kv[w(j)], delta)
                        }
                    });
                    return InvKey::Three(mul(kx, ky) ^ d3);
                }
                InvKey::Two(embed_tags(|j| kv[w(j)]), ky)
            })
            .collect();
        let inv_at = n_and + c.n_outputs();
        chis.iter()
            .map(|chi| {
                let inv_chi = &chi[inv_at..inv_at + c.n_inv()];
                let mut quad = sum_chi_products(&chi[..n_and], pairs);
                let mut lin = sum_chi(&chi[..n_and], kcs);
                // degree-2 terms as they stand, and degree-3 ones
                let (mut two, mut three, mut inv_chis) = (0u128, 0u128, 0u128);
                for (k, &ch) in inv_keys.iter().zip(inv_chi) {
                    match *k {
                        // χ K_x K_y and χ Δ (times Δ below)
                        InvKey::Two(kx, ky) => {
                            quad ^= mul(ch, mul(kx, ky));
                            inv_chis ^= ch;
                        }
                        InvKey::Three(v) => three ^= mul(ch, v),
                    }
                }
                lin ^= mul(inv_chis, delta);
                for (o, (out, &y)) in c.outputs().iter().zip(output).enumerate() {
                    if let Bit::Wire(w) = *out {
                        let (w, ch) = (w as usize, chi[n_and + o]);
                        if norm && deg[w] == 2 {
                            two ^= mul(ch, kv[w] ^ scale(d2, y));
                        } else {
                            lin ^= mul(ch, kv[w] ^ scale(delta, y));
                        }
                    }
                }
                let deg2 = quad ^ mul(lin, delta) ^ two;
                if norm {
                    mul(deg2, delta) ^ three
                } else {
                    deg2
                }
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
    use crate::circuit::random_circuit;
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
        use crate::circuit::Builder;
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
        let z = crate::gf128::pow(2, u128::MAX / 255);
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
            let walked: Vec<_> = walk
                .sums(&c, &[&chi, &chi2], &out)
                .into_iter()
                .map(|(k, e)| (k[0], k[1], e))
                .collect();
            assert_eq!(walked, sums);
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

    /// The norm bits: `n·x^17 = 1` and `x^16·n = x⁻¹` for every non-zero byte, and `λ`
    /// gives bit `j` of `x^16·ω^b` for every byte, `j` and `b`.
    #[test]
    fn the_norm_bits_and_their_linear_maps() {
        use crate::circuit::{gf256_inv_norm_bits, gf256_pow16};
        let lam = norm_lambda();
        for x in 0..=255u8 {
            if x != 0 {
                let n = norm_byte(gf256_inv_norm_bits(x));
                assert_eq!(gf256_mul(n, gf256_mul(gf256_pow16(x), x)), 1, "{x}");
                assert_eq!(gf256_mul(gf256_pow16(x), n), gf256_inv(x), "{x}");
            }
            for (j, row) in lam.iter().enumerate() {
                for (b, &m) in row.iter().enumerate() {
                    let want = (gf256_mul(gf256_pow16(x), NORM_BASIS[b]) >> j) & 1;
                    assert_eq!((x & m).count_ones() & 1, want as u32, "{x} {j} {b}");
                }
            }
        }
    }

    /// A random circuit with full and norm bytes under the degree rule: AND gates and norm
    /// bytes read degree-1 wires only; XOR gates, full bytes and outputs read any.
    fn random_norm_circuit(rng: &mut impl RngCore, n_in: usize, n: usize) -> Circuit {
        use crate::circuit::Builder;
        let mut b = Builder::new(n_in);
        let mut wires: Vec<(Bit, u8)> = (0..n_in).map(|i| (b.input(i), 1)).collect();
        for _ in 0..n {
            let any = |rng: &mut dyn RngCore, w: &[(Bit, u8)]| w[rng.next_u32() as usize % w.len()];
            let one = |rng: &mut dyn RngCore, w: &[(Bit, u8)]| loop {
                let x = any(rng, w);
                if x.1 == 1 {
                    return x.0;
                }
            };
            match rng.next_u32() % 5 {
                0 => {
                    let (x, y) = (one(rng, &wires), one(rng, &wires));
                    let z = b.and(x, y);
                    wires.push((z, 1));
                }
                1 | 2 => {
                    let (x, y) = (any(rng, &wires), any(rng, &wires));
                    let z = b.xor(x.0, y.0);
                    wires.push((z, x.1.max(y.1)));
                }
                3 => {
                    let byte: [Bit; 8] = std::array::from_fn(|_| any(rng, &wires).0);
                    if byte.iter().all(|w| matches!(w, Bit::Wire(_))) {
                        wires.extend(b.gf256_inv(&byte).map(|w| (w, 1)));
                    }
                }
                _ => {
                    let byte: [Bit; 8] = std::array::from_fn(|_| one(rng, &wires));
                    if byte.iter().all(|w| matches!(w, Bit::Wire(_))) {
                        wires.extend(b.gf256_inv_norm(&byte).map(|w| (w, 2)));
                    }
                }
            }
        }
        for _ in 0..6 {
            let w = wires[rng.next_u32() as usize % wires.len()].0;
            b.output(w);
        }
        b.finish()
    }

    /// With norm bytes (degree 3): the walk's witness is the reference's, and the identity
    /// the verifier checks, `L = c0 + c1·Δ + c2·Δ² + E·Δ³`, holds with consistent tags and
    /// keys, for honest witnesses (`E = 0`) and forged committed bits (`E ≠ 0`), the
    /// verifier's keys computed from the positions' keys alone.
    #[test]
    fn norm_bytes_in_the_sums() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let mut with_norm = 0;
        for round in 0..60 {
            let c = random_norm_circuit(&mut rng, 12, 50);
            if !c.has_norm() {
                continue;
            }
            with_norm += 1;
            assert_eq!(degree(&c), 3);
            let input: Vec<bool> = (0..12).map(|_| rng.next_u32() & 1 == 1).collect();
            let l = c.n_inputs() + c.n_and() + c.n_inv_bits();
            let flip = (round % 2 == 1).then(|| rng.next_u32() as usize % (l - c.n_inputs()));
            let x = super::super::extended_witness(&c, &input, flip);
            assert_eq!(x.len(), l);
            let tags: Vec<u128> = (0..l).map(|_| r128(&mut rng)).collect();
            let n_rel = c.n_and() + c.n_outputs() + c.n_inv();
            let chi: Vec<u128> = (0..n_rel).map(|_| r128(&mut rng)).collect();
            let out = c.eval(&input);
            let walk = ProverWalk::new(&c, &input, &tags, |t, v| v ^ (flip == Some(t)));
            assert_eq!(walk.witness(), &x[..], "round {round}");
            let zero = c.eval_checked(&input).is_err();
            let verdict = walk.satisfies(&c, &out);
            match (flip, zero) {
                (None, true) => assert_eq!(verdict, Err(true), "round {round}"),
                (None, false) => assert_eq!(verdict, Ok(true), "round {round}"),
                (Some(_), _) => {}
            }
            let sums = walk.sums(&c, &[&chi], &out);
            drop(walk);
            let delta = r128(&mut rng);
            let u: Vec<bool> = (0..l).map(|_| rng.next_u32() & 1 == 1).collect();
            let q: Vec<u128> = (0..l).map(|p| tags[p] ^ scale(delta, u[p])).collect();
            let d = |p: usize| x[p] ^ u[p];
            let lhs = verifier_sum(&c, &q, d, delta, &[&chi], &out);
            let ([c0, c1, c2], e) = sums[0];
            let d2 = mul(delta, delta);
            assert_eq!(
                lhs[0],
                c0 ^ mul(c1, delta) ^ mul(c2, d2) ^ mul(e, mul(d2, delta)),
                "round {round}"
            );
            // a flipped committed bit, or a zero byte, leaves a nonzero error; an honest
            // witness none (a flip may also leave the outputs wrong: still E ≠ 0)
            assert_eq!(e == 0, flip.is_none() && !zero, "round {round}");
        }
        assert!(with_norm > 30, "{with_norm} circuits with norm bytes");
    }
}
