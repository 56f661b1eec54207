//! Shapes, packed bits, party tapes, lane arithmetic and the circuit as a straight-line
//! program: the building blocks of the bitsliced walks.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::bitmatrix::transpose64;
use crate::circuit::{Bit, Circuit, Gate};
use crate::seedtree::Seed;

#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub(super) n_in: usize,
    pub(super) n_and: usize,
    pub(super) in_w: usize,
    pub(super) and_w: usize,
    pub(super) n: usize,
}

impl Shape {
    pub(super) fn of(c: &Circuit, n: usize) -> Self {
        Shape {
            n_in: c.n_inputs(),
            n_and: c.n_and(),
            in_w: c.n_inputs().div_ceil(64),
            and_w: c.n_and().div_ceil(64),
            n,
        }
    }
    /// Tape words of party `i`: input masks, AND output masks, and (not party `N−1`) the
    /// shares of `λ_a λ_b`.
    pub(super) fn tape_words(&self, i: usize) -> usize {
        self.in_w + self.and_w + if i + 1 < self.n { self.and_w } else { 0 }
    }
    pub(super) fn full_words(&self) -> usize {
        self.in_w + 2 * self.and_w
    }
    pub(super) fn and_bytes(&self) -> usize {
        self.n_and.div_ceil(8)
    }
    pub(super) fn in_bytes(&self) -> usize {
        self.n_in.div_ceil(8)
    }
}

/// Fills `out` with a party's tape: the ChaCha20 keystream under its seed, read as
/// little-endian `u64` words.
pub(super) fn fill_tape(seed: &Seed, out: &mut [u64]) {
    rand::Rng::fill(&mut ChaCha20Rng::from_seed(*seed), out);
}

#[cfg(test)]
pub(super) fn tape(seed: &Seed, words: usize) -> Vec<u64> {
    let mut t = vec![0u64; words];
    fill_tape(seed, &mut t);
    t
}

pub(super) fn bit(b: &[u8], i: usize) -> bool {
    b[i / 8] >> (i % 8) & 1 == 1
}

/// A 64-row matrix of `width` words per row, row-major: row `l` is lane `l`'s tape. Calls
/// `put(64w + b, column)` where bit `l` of `column` is bit `b` of `rows[l·width + w]`.
pub(super) fn transpose_rows_with(rows: &[u64], width: usize, mut put: impl FnMut(usize, u64)) {
    for w in 0..width {
        let mut blk = [0u64; 64];
        for (l, x) in blk.iter_mut().enumerate() {
            *x = rows[l * width + w];
        }
        transpose64(&mut blk);
        for (b, x) in blk.into_iter().enumerate() {
            put(64 * w + b, x);
        }
    }
}

/// [`transpose_rows_with`] into a new vector.
pub(super) fn transpose_rows(rows: &[u64], width: usize) -> Vec<u64> {
    let mut out = vec![0u64; 64 * width];
    transpose_rows_with(rows, width, |t, x| out[t] = x);
    out
}

/// The bits of lanes `lanes` over `words[0 … nbits−1]`, each packed LSB first
/// (`ceil(nbits/8)` bytes, zero padding).
pub(super) fn lane_columns(words: &[u64], nbits: usize, lanes: &[usize]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = lanes
        .iter()
        .map(|_| Vec::with_capacity(nbits.div_ceil(64) * 8))
        .collect();
    for blk_words in words[..nbits].chunks(64) {
        let mut blk = [0u64; 64];
        blk[..blk_words.len()].copy_from_slice(blk_words);
        transpose64(&mut blk);
        for (o, &l) in out.iter_mut().zip(lanes) {
            o.extend_from_slice(&blk[l].to_le_bytes());
        }
    }
    for o in out.iter_mut() {
        o.truncate(nbits.div_ceil(8));
    }
    out
}

/// Bits `[g·N, g·N + N)` of every word, row after row, packed LSB first.
pub(super) fn matrix_bytes<const N: usize>(words: &[u64], g: usize, out: &mut Vec<u8>) {
    if N >= 8 {
        let nb = N / 8;
        let start = out.len();
        out.resize(start + words.len() * nb, 0);
        for (w, dst) in words.iter().zip(out[start..].chunks_exact_mut(nb)) {
            dst.copy_from_slice(&(w >> (g * N)).to_le_bytes()[..nb]);
        }
    } else {
        let mask = (1u64 << N) - 1;
        let (mut acc, mut nb) = (0u64, 0usize);
        for w in words {
            acc |= (w >> (g * N) & mask) << nb;
            nb += N;
            if nb == 8 {
                out.push(acc as u8);
                acc = 0;
                nb = 0;
            }
        }
        if nb > 0 {
            out.push(acc as u8);
        }
    }
}

/// True if `b` has exactly `ceil(nbits/8)` bytes and zero padding bits.
pub(super) fn canonical_bits(b: &[u8], nbits: usize) -> bool {
    b.len() == nbits.div_ceil(8) && (nbits.is_multiple_of(8) || b[nbits / 8] >> (nbits % 8) == 0)
}

/// Lane arithmetic for `64/N` groups of `N` lanes in a word.
pub(super) struct Lanes<const N: usize>;

impl<const N: usize> Lanes<N> {
    /// bit `g·N` of every group
    pub(super) const REP: u64 = {
        let mut r = 0u64;
        let mut g = 0;
        while g < 64 / N {
            r |= 1 << (g * N);
            g += 1;
        }
        r
    };
    /// `N` ones
    pub(super) const FILL: u64 = if N == 64 { !0 } else { (1u64 << N) - 1 };
    /// bit `g·N + N − 1` of every group
    pub(super) const LAST: u64 = Self::REP << (N - 1);

    /// The parity of each group, spread over the group.
    #[inline(always)]
    pub(super) fn parity(x: u64) -> u64 {
        let mut p = x;
        let mut s = 1;
        while s < N {
            p ^= p >> s;
            s <<= 1;
        }
        (p & Self::REP).wrapping_mul(Self::FILL)
    }
    #[inline(always)]
    pub(super) fn group(g: usize) -> u64 {
        Self::FILL << (g * N)
    }
}

/// Calls `$f::<N>(args)` for the runtime party count `$n`.
macro_rules! with_lanes {
    ($n:expr, $f:ident ( $($arg:expr),* )) => {
        match $n {
            2 => $f::<2>($($arg),*),
            4 => $f::<4>($($arg),*),
            8 => $f::<8>($($arg),*),
            16 => $f::<16>($($arg),*),
            32 => $f::<32>($($arg),*),
            64 => $f::<64>($($arg),*),
            n => unreachable!("{n} parties passed the parameter check"),
        }
    };
}

/// The circuit as a straight-line program over a small register file: a wire's register is
/// reused once the wire is dead, so the walks keep their working set in cache.
pub(super) struct Program {
    pub(super) ops: Vec<Op>,
    /// registers needed (inputs take `0 … n_in−1`)
    pub(super) regs: usize,
    /// register of each output wire (`None`: a constant output)
    pub(super) outputs: Vec<Option<u32>>,
}

#[derive(Clone, Copy)]
pub(super) enum Op {
    Xor(u32, u32, u32),
    Not(u32, u32),
    And(u32, u32, u32),
}

impl Program {
    pub(super) fn compile(c: &Circuit) -> Self {
        const NEVER: usize = usize::MAX;
        const KEEP: usize = usize::MAX - 1;
        let n_in = c.n_inputs();
        // the last gate reading each wire
        let mut last = vec![NEVER; c.n_wires()];
        for (g, gate) in c.gates().iter().enumerate() {
            match *gate {
                Gate::Xor(a, b) | Gate::And(a, b) => {
                    last[a as usize] = g;
                    last[b as usize] = g;
                }
                Gate::Not(a) => last[a as usize] = g,
                Gate::Inv(..) => unreachable!("{}", super::super::statement::INV_NEEDS_LOWERING),
            }
        }
        for o in c.outputs() {
            if let Bit::Wire(w) = *o {
                last[w as usize] = KEEP;
            }
        }
        let mut reg = vec![0u32; c.n_wires()];
        let mut free: Vec<u32> = Vec::new();
        let mut regs = n_in;
        for i in 0..n_in {
            reg[i] = i as u32;
            if last[i] == NEVER {
                free.push(i as u32);
            }
        }
        let mut ops = Vec::with_capacity(c.n_gates());
        for (g, gate) in c.gates().iter().enumerate() {
            let (a, b) = match *gate {
                Gate::Xor(a, b) | Gate::And(a, b) => (a as usize, Some(b as usize)),
                Gate::Not(a) => (a as usize, None),
                Gate::Inv(..) => unreachable!("{}", super::super::statement::INV_NEEDS_LOWERING),
            };
            // operands are read before the result is written: their registers can be reused
            if last[a] == g {
                free.push(reg[a]);
            }
            if let Some(b) = b {
                if last[b] == g && b != a {
                    free.push(reg[b]);
                }
            }
            let w = n_in + g;
            let d = free.pop().unwrap_or_else(|| {
                regs += 1;
                (regs - 1) as u32
            });
            reg[w] = d;
            if last[w] == NEVER {
                free.push(d);
            }
            ops.push(match *gate {
                Gate::Xor(a, b) => Op::Xor(reg[a as usize], reg[b as usize], d),
                Gate::And(a, b) => Op::And(reg[a as usize], reg[b as usize], d),
                Gate::Not(a) => Op::Not(reg[a as usize], d),
                Gate::Inv(..) => unreachable!("{}", super::super::statement::INV_NEEDS_LOWERING),
            });
        }
        let outputs = c
            .outputs()
            .iter()
            .map(|o| match *o {
                Bit::Wire(w) => Some(reg[w as usize]),
                Bit::Const(_) => None,
            })
            .collect();
        Program { ops, regs, outputs }
    }
}
