//! Witness bits the public outputs fix: they are not committed.
//!
//! Through XOR and NOT gates, every output wire is a GF(2)-affine function of witness
//! positions (inputs, AND outputs, inverted bytes' bits). The verifier knows the outputs
//! `y`, so an output's equation `Σ x_p + c = y_o` determines one of its positions from the
//! others: that position needs no VOLE row and no bit of the masked witness `d`. Its tag is
//! the sum of the others' tags, its key the sum of their keys plus `(c + y_o)·Δ`, so every
//! QuickSilver relation that reads it is unchanged; an output's own linear relation then
//! holds identically for an honest prover and is kept (it is what catches outputs that
//! contradict each other). AES-128's last round is the example: its 128 inverse bits are
//! the ciphertext and the last round key, linearly, so `ℓ` drops from 1,408 to 1,280 bits
//! (1,728 to 1,600 before the norm bytes) and each correction by 16 bytes (PROTOCOLS 7.4a).
//!
//! The rule, which the verifier and the independent one repeat bit for bit (PROTOCOLS 7.4a):
//! the equations are those of the first [`MAX_ROWS`] outputs that are wires (none in a
//! circuit of more than [`MAX_WIRES`] wires); scanning the
//! positions from the highest down, a position is fixed when its column (its coefficients
//! in the equations) is independent of the columns of the positions fixed before it. The
//! fixed positions' columns are then a basis of all columns, and a Gauss–Jordan pass over
//! the equations, in order, finds for each fixed position `f` the set `S_f` of equations
//! whose sum reads `f` and no other fixed position. A fixed position's tag, key or bit is
//! `Σ_{k ∈ S_f}` of output `k`'s, computed with every fixed position at zero, plus `y_k`'s
//! share: one XOR pass over the gates.
//!
//! Cost: one backward pass over the gates with `⌈r/64⌉` words per wire (`r ≤ 256`), a scan of
//! the positions that stops once `r` are fixed (kept per circuit: [`Reduction::cached`]), and
//! per proof one forward XOR pass, or the same sums taken directly over the free positions
//! when those are fewer terms (AES-128, LowMC).

use std::sync::{Arc, Mutex};

use super::super::circuit::{Bit, Circuit, Gate};
use zkgames_core::commit::Digest;

/// At most this many outputs (the first wire outputs) fix positions. It bounds the work
/// and memory above whatever circuit a proof names; AES-128 has 128 outputs, the LowMC
/// login 129, the peg statements more than 256.
pub const MAX_ROWS: usize = 256;

/// Circuits of more wires fix nothing. The backward pass costs about two walks over the
/// gates in a fresh process: on SHA-256's 121,000 wires it made a whole prover or verifier
/// process 1.4× slower for 1 % of the proof (measured side by side), while AES-128, the
/// LowMC login (31,000 wires), the peg and Wall Game statements stay well under the bound.
pub const MAX_WIRES: usize = 1 << 16;

const FIXED: u32 = u32::MAX;

/// How many circuits' reductions [`Reduction::cached`] keeps.
pub const CACHED: usize = 8;

/// What [`Reduction::fill`] computes with: tags and keys (`u128`, whose pass reuses a
/// buffer of the thread's: the LowMC login's 31,000 wires are half a megabyte) or bits.
pub trait Value: Copy + Default + std::ops::BitXor<Output = Self> {
    /// Runs `f` on an empty buffer of wire values, wiped by `f` before it returns.
    fn with_wires<R>(f: impl FnOnce(&mut Vec<Self>) -> R) -> R;
}

thread_local! {
    static WIRES: std::cell::Cell<Vec<u128>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Value for u128 {
    fn with_wires<R>(f: impl FnOnce(&mut Vec<u128>) -> R) -> R {
        let mut v = WIRES.with(|c| c.take());
        let r = f(&mut v);
        v.clear();
        WIRES.with(|c| c.set(v));
        r
    }
}

impl Value for bool {
    fn with_wires<R>(f: impl FnOnce(&mut Vec<bool>) -> R) -> R {
        f(&mut Vec::new())
    }
}

/// Which witness positions a circuit's outputs fix, and how to rebuild them.
#[derive(Clone, Debug)]
pub struct Reduction {
    n_pos: usize,
    /// The committed row of every free position; [`FIXED`] for a fixed one.
    row: Vec<u32>,
    /// The output wire of every equation.
    eq_wire: Vec<u32>,
    /// The output index of every equation.
    eq_out: Vec<u32>,
    /// The fixed positions (from the highest down) and their sets `S_f` of equations.
    fixed: Vec<(u32, Vec<u32>)>,
    /// When they are few (the LowMC login's and AES-128's): each fixed
    /// position's value as a sum of free positions and the NOT gates' parity, which
    /// [`Reduction::fill`] then sums directly instead of passing over every gate.
    direct: Option<Vec<(Vec<u32>, bool)>>,
}

/// [`Reduction::fill`] sums the fixed positions' terms directly when there are at most this
/// many per wire of the circuit (a term costs about a fifth of a gate of the pass).
const DIRECT_PER_WIRE: usize = 4;

fn get(v: &[u64], i: usize) -> bool {
    (v[i / 64] >> (i % 64)) & 1 == 1
}

fn flip(v: &mut [u64], i: usize) {
    v[i / 64] ^= 1 << (i % 64);
}

fn ones(v: &[u64]) -> impl Iterator<Item = usize> + '_ {
    v.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(64 * k + b)
        })
    })
}

fn highest(v: &[u64]) -> Option<usize> {
    v.iter()
        .enumerate()
        .rev()
        .find(|(_, &w)| w != 0)
        .map(|(k, &w)| 64 * k + 63 - w.leading_zeros() as usize)
}

fn xor_into(a: &mut [u64], b: &[u64]) {
    a.iter_mut().zip(b).for_each(|(a, b)| *a ^= b);
}

impl Reduction {
    /// The reduction of `c`'s witness by its outputs.
    pub fn of(c: &Circuit) -> Self {
        let n_pos = c.n_inputs() + c.n_and() + c.n_inv_bits();
        // an output that reads a norm byte's bits (degree 2) is no linear equation
        let deg = c.degrees();
        let (eq_out, eq_wire): (Vec<u32>, Vec<u32>) = c
            .outputs()
            .iter()
            .enumerate()
            .filter_map(|(o, b)| match *b {
                Bit::Wire(w) if deg.get(w as usize).is_none_or(|&d| d == 1) => Some((o as u32, w)),
                _ => None,
            })
            .take(if c.n_wires() <= MAX_WIRES {
                MAX_ROWS
            } else {
                0
            })
            .unzip();
        let mut red = Reduction {
            n_pos,
            row: (0..n_pos as u32).collect(),
            eq_wire,
            eq_out,
            fixed: Vec::new(),
            direct: None,
        };
        // the columns as fixed-size words: as many as the equations need
        (red.fixed, red.direct) = match red.eq_wire.len().div_ceil(64) {
            0 => (Vec::new(), None),
            1 => red.choose::<1>(c),
            2 => red.choose::<2>(c),
            3 => red.choose::<3>(c),
            _ => red.choose::<4>(c),
        };
        for (p, _) in &red.fixed {
            red.row[*p as usize] = FIXED;
        }
        let mut next = 0u32;
        for x in red.row.iter_mut() {
            if *x != FIXED {
                *x = next;
                next += 1;
            }
        }
        red
    }

    /// Steps 2–4 of the rule with columns of `W` words: the fixed positions and their sets.
    #[allow(clippy::type_complexity)]
    fn choose<const W: usize>(
        &self,
        c: &Circuit,
    ) -> (Vec<(u32, Vec<u32>)>, Option<Vec<(Vec<u32>, bool)>>) {
        let (n_in, n_and) = (c.n_inputs(), c.n_and());
        let r = self.eq_wire.len();
        // the wire of every position (none for a norm byte's bits: no wire is one of them,
        // their column is zero)
        let mut wire_of = vec![c.n_wires() as u32; self.n_pos];
        for (i, w) in wire_of.iter_mut().enumerate().take(n_in) {
            *w = i as u32;
        }
        let mut t = 0usize;
        for (g, gate) in c.gates().iter().enumerate() {
            let w = (n_in + g) as u32;
            match *gate {
                Gate::And(..) => {
                    wire_of[n_in + t] = w;
                    t += 1;
                }
                Gate::Inv(i, j) if !c.is_norm(i as usize) => {
                    wire_of[n_in + n_and + c.inv_start(i as usize) + j as usize] = w
                }
                _ => {}
            }
        }
        // backwards: bit k of a wire's column is its coefficient in equation k (one more
        // entry, always zero, for the positions without a wire)
        // in the thread's wire buffer, which the walk then finds mapped (AES-128's 17,000
        // wires: 67 pages a fresh vector would fault in, on each side)
        super::quicksilver::with_public_wire_buffer(|buf| {
            let n = c.n_wires() + 1;
            // zeroed whatever the buffer held (the columns are built by XOR)
            buf.clear();
            buf.resize((n * W).div_ceil(2), 0);
            // SAFETY: the buffer holds at least `n · W` u64 words (`u128`'s alignment is a
            // multiple of `u64`'s), every bit pattern is a valid `[u64; W]`, and the slice
            // borrows `buf` mutably for its whole life.
            let coef: &mut [[u64; W]] =
                unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<[u64; W]>(), n) };
            let mut constant = [0u64; W];
            for (k, &w) in self.eq_wire.iter().enumerate() {
                flip(&mut coef[w as usize], k);
            }
            let gates = c.gates();
            for g in (0..gates.len()).rev() {
                let v = coef[n_in + g];
                if v == [0; W] {
                    continue;
                }
                match gates[g] {
                    Gate::Xor(a, b) => {
                        xor_into(&mut coef[a as usize], &v);
                        xor_into(&mut coef[b as usize], &v);
                    }
                    Gate::Not(a) => {
                        xor_into(&mut coef[a as usize], &v);
                        xor_into(&mut constant, &v);
                    }
                    Gate::And(..) | Gate::Inv(..) => {}
                }
            }
            // from the highest position down: fixed when independent of the fixed ones'
            // columns (a basis kept by leading equation)
            let mut basis: Vec<Option<[u64; W]>> = vec![None; r];
            let mut cols: Vec<(u32, [u64; W])> = Vec::new();
            for p in (0..self.n_pos).rev() {
                if cols.len() == r {
                    break;
                }
                let col = coef[wire_of[p] as usize];
                let mut v = col;
                while let Some(lead) = highest(&v) {
                    match &basis[lead] {
                        Some(b) => xor_into(&mut v, b),
                        None => {
                            basis[lead] = Some(v);
                            cols.push((p as u32, col));
                            break;
                        }
                    }
                }
            }
            // Gauss–Jordan over the equations restricted to the fixed columns: equation k's
            // row has bit j when fixed position j reads it; track which equations are summed
            let nf = cols.len();
            let mut rows: Vec<([u64; 4], [u64; W])> = (0..r)
                .map(|k| {
                    let mut row = [0u64; 4];
                    for (j, (_, col)) in cols.iter().enumerate() {
                        if get(col, k) {
                            flip(&mut row, j);
                        }
                    }
                    let mut track = [0u64; W];
                    flip(&mut track, k);
                    (row, track)
                })
                .collect();
            let mut used = vec![false; r];
            let mut pivot_rows: Vec<usize> = Vec::with_capacity(nf);
            for j in 0..nf {
                let Some(k) = (0..r).find(|&k| !used[k] && get(&rows[k].0, j)) else {
                    unreachable!("the fixed columns are independent");
                };
                let (prow, ptrack) = rows[k];
                for (i, (row, track)) in rows.iter_mut().enumerate() {
                    if i != k && get(row, j) {
                        xor_into(row, &prow);
                        xor_into(track, &ptrack);
                    }
                }
                used[k] = true;
                pivot_rows.push(k);
            }
            let fixed: Vec<(u32, Vec<u32>)> = cols
                .iter()
                .zip(&pivot_rows)
                .map(|((p, _), &k)| (*p, ones(&rows[k].1).map(|e| e as u32).collect()))
                .collect();
            // the direct sums: free position p is a term of f when its column has an odd
            // number of ones in S_f
            let mut is_fixed = vec![false; self.n_pos];
            for (p, _) in &cols {
                is_fixed[*p as usize] = true;
            }
            let live: Vec<usize> = (0..self.n_pos)
                .filter(|&p| !is_fixed[p] && coef[wire_of[p] as usize] != [0; W])
                .collect();
            let direct = (live.len() * nf <= DIRECT_PER_WIRE * c.n_wires()).then(|| {
                // f's term test, `|column ∩ S_f|` odd, for every f at once: bit j of
                // `Σ_{e ∈ column} T_e` where bit j of `T_e` says equation e is in S_{f_j}; the
                // sum is taken four equations at a time from tables of the 16 sums of each
                // four `T_e` (one lookup per nibble of the column instead of a pass per f)
                let mut t = vec![[0u64; W]; 64 * W];
                for (j, &k) in pivot_rows.iter().enumerate() {
                    for e in ones(&rows[k].1) {
                        flip(&mut t[e], j);
                    }
                }
                let mut tab = vec![[0u64; W]; 16 * 16 * W];
                for (n, quad) in t.chunks_exact(4).enumerate() {
                    let tab = &mut tab[16 * n..16 * n + 16];
                    for x in 1..16usize {
                        let mut v = tab[x & (x - 1)];
                        xor_into(&mut v, &quad[x.trailing_zeros() as usize]);
                        tab[x] = v;
                    }
                }
                let terms_of = |v: &[u64; W]| {
                    let mut m = [0u64; W];
                    for (i, &w) in v.iter().enumerate() {
                        let mut w = w;
                        let mut n = 16 * i;
                        while w != 0 {
                            xor_into(&mut m, &tab[16 * n + (w & 15) as usize]);
                            w >>= 4;
                            n += 1;
                        }
                    }
                    m
                };
                let mut direct: Vec<(Vec<u32>, bool)> =
                    (0..nf).map(|_| (Vec::new(), false)).collect();
                for &p in &live {
                    for j in ones(&terms_of(&coef[wire_of[p] as usize])) {
                        direct[j].0.push(p as u32);
                    }
                }
                for j in ones(&terms_of(&constant)) {
                    direct[j].1 = true;
                }
                direct
            });
            (fixed, direct)
        })
    }

    /// [`Reduction::of`], remembered for the last [`CACHED`] circuits (by their digest,
    /// which binds every gate: 3.9): a prover proving its key again, or a verifier checking
    /// one statement's proofs, pays the backward pass once. A circuit's pass costs about
    /// what one walk over its gates does (0.3 ms for the LowMC login's 31,000 gates).
    pub fn cached(c: &Circuit) -> Arc<Reduction> {
        static CACHE: Mutex<Vec<(Digest, Arc<Reduction>)>> = Mutex::new(Vec::new());
        let d = c.digest();
        let lock = || CACHE.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, r)) = lock().iter().find(|e| e.0 == d) {
            return Arc::clone(r);
        }
        let r = Arc::new(Reduction::of(c));
        let mut g = lock();
        if g.len() >= CACHED {
            g.remove(0);
        }
        g.push((d, Arc::clone(&r)));
        r
    }

    /// Witness positions: inputs, AND outputs, inverted bytes' bits (`N`).
    pub fn n_positions(&self) -> usize {
        self.n_pos
    }

    /// Committed positions: the VOLE rows and bits of `d` the witness takes (`ℓ`).
    pub fn n_committed(&self) -> usize {
        self.n_pos - self.fixed.len()
    }

    /// The committed row of position `p`, or `None` when the outputs fix it.
    pub fn row(&self, p: usize) -> Option<usize> {
        let r = self.row[p];
        (r != FIXED).then_some(r as usize)
    }

    /// The positions the outputs fix, from the highest down.
    pub fn fixed_positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.fixed.iter().map(|f| f.0 as usize)
    }

    /// Fills in the fixed positions of `at` (indexed by position; the fixed ones' entries are
    /// ignored): one pass over the gates with them at zero, where a NOT gate adds `not`,
    /// gives every equation's output; fixed position `f` gets the sum over `S_f` of those
    /// plus `share(y_o)`. Tags: `not = 0`, `share = 0`; keys: `Δ` and `y·Δ`; bits: `1`, `y`.
    pub fn fill<T: Value>(
        &self,
        c: &Circuit,
        at: &mut [T],
        not: T,
        share: impl Fn(bool) -> T,
        y: &[bool],
    ) {
        if self.fixed.is_empty() {
            return;
        }
        match &self.direct {
            Some(direct) => {
                for ((p, set), (terms, cst)) in self.fixed.iter().zip(direct) {
                    let mut v = if *cst { not } else { T::default() };
                    for &k in set {
                        v = v ^ share(y[self.eq_out[k as usize] as usize]);
                    }
                    for &t in terms {
                        v = v ^ at[t as usize];
                    }
                    at[*p as usize] = v;
                }
            }
            None => {
                for (p, _) in &self.fixed {
                    at[*p as usize] = T::default();
                }
                T::with_wires(|wv| self.pass(c, at, not, share, y, wv));
            }
        }
    }

    /// The same reduction, [`Reduction::fill`] always passing over the gates (tests).
    #[cfg(test)]
    fn without_direct(&self) -> Self {
        Reduction {
            direct: None,
            ..self.clone()
        }
    }

    /// [`Reduction::fill`]'s pass over the gates, on the thread's buffer `wv`.
    fn pass<T: Value>(
        &self,
        c: &Circuit,
        at: &mut [T],
        not: T,
        share: impl Fn(bool) -> T,
        y: &[bool],
        wv: &mut Vec<T>,
    ) {
        let (n_in, n_and) = (c.n_inputs(), c.n_and());
        wv.clear();
        wv.reserve(c.n_wires());
        wv.extend_from_slice(&at[..n_in]);
        let mut t = 0usize;
        for g in c.gates() {
            let v = match *g {
                Gate::Xor(a, b) => wv[a as usize] ^ wv[b as usize],
                Gate::Not(a) => wv[a as usize] ^ not,
                Gate::And(..) => {
                    t += 1;
                    at[n_in + t - 1]
                }
                // a norm byte's bits reach no equation (Reduction::of)
                Gate::Inv(i, _) if c.is_norm(i as usize) => T::default(),
                Gate::Inv(i, j) => at[n_in + n_and + c.inv_start(i as usize) + j as usize],
            };
            wv.push(v);
        }
        let eq: Vec<T> = self
            .eq_wire
            .iter()
            .zip(&self.eq_out)
            .map(|(&w, &o)| wv[w as usize] ^ share(y[o as usize]))
            .collect();
        for (p, set) in &self.fixed {
            at[*p as usize] = set.iter().fold(T::default(), |a, &k| a ^ eq[k as usize]);
        }
        // the prover's wire tags would give its witness away once Δ is public
        wv.iter_mut().for_each(|x| *x = T::default());
    }

    /// Every position's value from the committed rows' `committed` (fixed ones: default).
    pub fn spread<T: Copy + Default>(&self, committed: impl Fn(usize) -> T) -> Vec<T> {
        self.row
            .iter()
            .map(|&r| {
                if r == FIXED {
                    T::default()
                } else {
                    committed(r as usize)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::Builder;
    use rand_core::{RngCore, SeedableRng};
    use zkgames_core::rng::Rng;

    /// A random circuit of XOR, NOT, AND and inverted bytes whose outputs are random
    /// wires (some repeated, some constant).
    fn random_circuit(rng: &mut Rng) -> Circuit {
        let n_in = 8 + (rng.next_u32() % 16) as usize;
        let mut b = Builder::new(n_in);
        let mut wires: Vec<Bit> = (0..n_in).map(|i| b.input(i)).collect();
        let n_gates = 10 + rng.next_u32() % 60;
        for _ in 0..n_gates {
            let pick = |rng: &mut Rng, w: &Vec<Bit>| w[(rng.next_u32() as usize) % w.len()];
            let x = match rng.next_u32() % 8 {
                0..=2 => {
                    let (p, q) = (pick(rng, &wires), pick(rng, &wires));
                    b.xor(p, q)
                }
                3 => {
                    let p = pick(rng, &wires);
                    b.not(p)
                }
                4..=6 => {
                    let (p, q) = (pick(rng, &wires), pick(rng, &wires));
                    b.and(p, q)
                }
                _ => {
                    let byte: [Bit; 8] = std::array::from_fn(|_| pick(rng, &wires));
                    let inv = b.gf256_inv(&byte);
                    inv[(rng.next_u32() % 8) as usize]
                }
            };
            wires.push(x);
        }
        let n_out = 1 + rng.next_u32() % 12;
        for _ in 0..n_out {
            let w = if rng.next_u32().is_multiple_of(10) {
                Bit::Const(rng.next_u32() & 1 == 1)
            } else {
                wires[wires.len() - 1 - (rng.next_u32() as usize) % wires.len().min(12)]
            };
            b.output(w);
        }
        b.finish()
    }

    fn r128(rng: &mut Rng) -> u128 {
        ((rng.next_u64() as u128) << 64) | rng.next_u64() as u128
    }

    /// On random circuits and random witnesses, against naive references (each output's
    /// affine form by recursion, ranks by plain elimination): the fixed positions are the
    /// greedy choice from the highest down; their rebuilt bits are the evaluated ones; on
    /// rebuilt tags every output's equation sums to zero; rebuilt keys are `v + x·Δ`.
    #[test]
    fn rebuilt_positions_equal_the_evaluated_ones() {
        let mut rng = Rng::seed_from_u64(38);
        let (mut some_fixed, mut directs) = (0, 0);
        for _ in 0..400 {
            let c = random_circuit(&mut rng);
            let red = Reduction::of(&c);
            let n = red.n_positions();
            let input: Vec<bool> = (0..c.n_inputs()).map(|_| rng.next_u32() & 1 == 1).collect();
            let x = super::super::extended_witness(&c, &input, None);
            let y = c.eval(&input);
            assert_eq!(x.len(), n);
            // the rule, naively: columns of the output forms, highest position first
            let forms: Vec<(Vec<usize>, bool)> = c
                .outputs()
                .iter()
                .filter_map(|b| match *b {
                    Bit::Wire(w) => Some(naive_form(&c, w as usize)),
                    _ => None,
                })
                .take(MAX_ROWS)
                .collect();
            let column = |p: usize| -> Vec<usize> {
                (0..forms.len())
                    .filter(|&k| forms[k].0.contains(&p))
                    .collect()
            };
            let mut chosen: Vec<Vec<usize>> = Vec::new();
            let mut want = Vec::new();
            for p in (0..n).rev() {
                let mut with = chosen.clone();
                with.push(column(p));
                if naive_rank(&with, forms.len().max(1)) > chosen.len() {
                    chosen = with;
                    want.push(p);
                }
            }
            assert_eq!(red.fixed_positions().collect::<Vec<_>>(), want);
            some_fixed += want.len();
            // bits
            let mut bits = red.spread(|r| {
                let p = (0..n).find(|&p| red.row(p) == Some(r)).unwrap();
                x[p]
            });
            let pass = red.without_direct();
            let mut bits2 = bits.clone();
            red.fill(&c, &mut bits, true, |b| b, &y);
            assert_eq!(bits, x, "bits");
            pass.fill(&c, &mut bits2, true, |b| b, &y);
            assert_eq!(bits2, x, "bits, the pass over the gates");
            directs += red.direct.is_some() as usize;
            // tags: random committed ones; every output's equation holds on them
            let committed: Vec<u128> = (0..red.n_committed()).map(|_| r128(&mut rng)).collect();
            let mut tags = red.spread(|r| committed[r]);
            red.fill(&c, &mut tags, 0u128, |_| 0, &y);
            for (k, (lin, _)) in forms.iter().enumerate() {
                let s = lin.iter().fold(0u128, |a, &p| a ^ tags[p]);
                assert_eq!(s, 0, "equation {k} on tags");
            }
            // keys
            let delta = r128(&mut rng);
            let mut keys = red.spread(|r| {
                let p = (0..n).find(|&p| red.row(p) == Some(r)).unwrap();
                tags[p] ^ if x[p] { delta } else { 0 }
            });
            let mut keys2 = keys.clone();
            red.fill(&c, &mut keys, delta, |b| if b { delta } else { 0 }, &y);
            pass.fill(&c, &mut keys2, delta, |b| if b { delta } else { 0 }, &y);
            assert_eq!(keys, keys2, "keys, the pass over the gates");
            for p in 0..n {
                assert_eq!(keys[p], tags[p] ^ if x[p] { delta } else { 0 }, "key {p}");
            }
        }
        assert!(
            some_fixed > 400,
            "the random circuits fix positions ({some_fixed})"
        );
        assert!(directs > 100, "the direct sums are used ({directs})");
    }

    /// The positions (sorted) and constant of wire `w`'s affine form, by recursion on
    /// the gates (no sharing: small circuits only).
    fn naive_form(c: &Circuit, w: usize) -> (Vec<usize>, bool) {
        let n_in = c.n_inputs();
        if w < n_in {
            return (vec![w], false);
        }
        let g = w - n_in;
        match c.gates()[g] {
            Gate::Xor(a, b) => {
                let (mut x, cx) = naive_form(c, a as usize);
                let (y, cy) = naive_form(c, b as usize);
                for p in y {
                    if let Some(i) = x.iter().position(|&q| q == p) {
                        x.remove(i);
                    } else {
                        x.push(p);
                    }
                }
                x.sort_unstable();
                (x, cx ^ cy)
            }
            Gate::Not(a) => {
                let (x, cx) = naive_form(c, a as usize);
                (x, !cx)
            }
            Gate::And(..) => {
                let t = c.gates()[..g]
                    .iter()
                    .filter(|g| matches!(g, Gate::And(..)))
                    .count();
                (vec![n_in + t], false)
            }
            Gate::Inv(i, j) => (vec![n_in + c.n_and() + 8 * i as usize + j as usize], false),
        }
    }

    fn naive_rank(forms: &[Vec<usize>], n: usize) -> usize {
        let mut basis: Vec<Vec<bool>> = Vec::new();
        for f in forms {
            let mut v = vec![false; n];
            for &p in f {
                v[p] ^= true;
            }
            for b in &basis {
                let lead = b.iter().position(|&x| x).unwrap();
                if v[lead] {
                    v.iter_mut().zip(b).for_each(|(a, &b)| *a ^= b);
                }
            }
            if v.iter().any(|&x| x) {
                // keep the basis in echelon form on its leading positions
                let lead = v.iter().position(|&x| x).unwrap();
                for b in basis.iter_mut() {
                    if b[lead] {
                        b.iter_mut().zip(&v).for_each(|(a, &x)| *a ^= x);
                    }
                }
                basis.push(v);
            }
        }
        basis.len()
    }
}
