//! From vector commitments to VOLE (SoftSpokenOT's conversion) and the universal hash of
//! the VOLE consistency check.
//!
//! Repetition `i` with leaves `r_j ∈ {0,1}^L` (`j < 2^k`): the prover's
//! `u_i = ⊕_j r_j` and columns `v_{i,b} = ⊕_{j : bit b of j = 1} r_j`; a verifier who knows
//! every `r_j` but `r_{j*}` gets `q_{i,b} = ⊕_{j ≠ j*} [bit b of (j ⊕ j*)] r_j
//! = v_{i,b} ⊕ (bit b of j*) · u_i`. With the corrections `c_i = u_0 ⊕ u_i` the verifier's
//! column `offset_i + b` is `q_{i,b} ⊕ (bit b of j*)·c_i = v_{i,b} ⊕ Δ_{offset_i+b} · u_0`;
//! read row-wise, position `p` gives `q_p = v_p + u_p·Δ` in GF(2^128) (column `c` is the
//! coefficient of `X^c`).

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use super::super::bitmatrix::transpose64;
use super::super::gf128;
use super::aes_many::Ciphers;
use super::vc::{self, Domains, NodeSeed};
use zkgames_core::commit::Digest;

/// Bits as little-endian 64-bit words (bit `p` is bit `p mod 64` of word `p / 64`).
pub type Bits = Vec<u64>;

pub fn words(nbits: usize) -> usize {
    nbits.div_ceil(64)
}

pub fn clear_tail(w: &mut [u64], nbits: usize) {
    if !nbits.is_multiple_of(64) {
        if let Some(last) = w.get_mut(nbits / 64) {
            *last &= (1u64 << (nbits % 64)) - 1;
        }
    }
    for x in w.iter_mut().skip(nbits.div_ceil(64)) {
        *x = 0;
    }
}

pub fn xor_into(acc: &mut [u64], x: &[u64]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= *b;
    }
}

pub fn get(b: &[u64], p: usize) -> bool {
    (b[p / 64] >> (p % 64)) & 1 == 1
}

pub fn set(b: &mut [u64], p: usize, v: bool) {
    let m = 1u64 << (p % 64);
    if v {
        b[p / 64] |= m;
    } else {
        b[p / 64] &= !m;
    }
}

/// Bits `[from, from+len)` (`len ≤ 128`, zero past the end) as a field element.
pub fn chunk(b: &[u64], from: usize, len: usize) -> u128 {
    let mut x = 0u128;
    let (w, s) = (from / 64, from % 64);
    for t in 0..3 {
        let word = b.get(w + t).copied().unwrap_or(0) as u128;
        let sh = 64 * t as i32 - s as i32;
        if sh >= 0 {
            if sh < 128 {
                x |= word << sh;
            }
        } else {
            x |= word >> (-sh);
        }
    }
    if len < 128 {
        x &= (1u128 << len) - 1;
    }
    x
}

/// Packs bits into bytes (bit `p` is bit `p mod 8` of byte `p / 8`).
pub fn to_bytes(b: &[u64], nbits: usize) -> Vec<u8> {
    let mut out: Vec<u8> = b.iter().flat_map(|w| w.to_le_bytes()).collect();
    out.truncate(nbits.div_ceil(8));
    out
}

/// Unpacks `nbits` bits; `None` unless the length is exact and the padding bits are zero.
pub fn from_bytes(bytes: &[u8], nbits: usize) -> Option<Bits> {
    if bytes.len() != nbits.div_ceil(8) {
        return None;
    }
    if !nbits.is_multiple_of(8) && bytes[bytes.len() - 1] >> (nbits % 8) != 0 {
        return None;
    }
    let mut w = vec![0u64; words(nbits)];
    for (i, &x) in bytes.iter().enumerate() {
        w[i / 8] |= (x as u64) << (8 * (i % 8));
    }
    Some(w)
}

/// `(Σ_x s_x, [⊕_{x : bit b of x} s_x ; k])` over `x < 2^k`, streaming: `fill(x, buf)`
/// writes `s_x` into `buf` (or returns false for `s_x = 0`). Subtree sums are merged pairwise
/// as the leaves arrive (a right child at level `l` is added to column `l`, then to its left
/// sibling), about two XORs of `nbits` bits per leaf instead of `1 + k/2`.
fn columns(
    k: u32,
    nbits: usize,
    mut fill: impl FnMut(usize, &mut [u64]) -> bool,
) -> (Bits, Vec<Bits>) {
    let nw = words(nbits);
    let mut cols = vec![vec![0u64; nw]; k as usize];
    let mut pending: Vec<Bits> = vec![vec![0u64; nw]; k as usize];
    let mut cur = vec![0u64; nw];
    for x in 0..1usize << k {
        if !fill(x, &mut cur) {
            cur.iter_mut().for_each(|w| *w = 0);
        }
        let mut l = 0usize;
        while l < k as usize && (x >> l) & 1 == 1 {
            xor_into(&mut cols[l], &cur);
            xor_into(&mut cur, &pending[l]);
            l += 1;
        }
        if l < k as usize {
            std::mem::swap(&mut pending[l], &mut cur);
        }
    }
    (cur, cols)
}

/// Leaves whose ciphers are expanded together ([`Ciphers`]): enough to hide the key
/// schedules' latency, few enough that their schedules stay in the first-level cache.
const BATCH: usize = 64;

/// The ciphers of one aligned batch of a repetition's leaves, made when a leaf of the batch
/// is first asked for (the verifier visits leaf `x ⊕ j*`: each aligned batch in turn, out of
/// order inside it).
#[derive(Default)]
struct Batch {
    first: usize,
    ciphers: Option<Ciphers>,
}

impl Batch {
    /// Leaf `j`'s cipher and its index in the batch, among `n` leaves whose seeds `seed`
    /// gives (`None` for the hidden leaf: a stand-in key, never used).
    fn at(
        &mut self,
        j: usize,
        n: usize,
        seed: impl Fn(usize) -> Option<NodeSeed>,
    ) -> (&Ciphers, usize) {
        let first = j - j % BATCH;
        if self.ciphers.is_none() || self.first != first {
            let len = BATCH.min(n - first);
            let mut keys = [[0u8; 16]; BATCH];
            for (t, k) in keys[..len].iter_mut().enumerate() {
                *k = seed(first + t).unwrap_or_default();
            }
            self.first = first;
            self.ciphers = Some(Ciphers::new(&keys[..len]));
            for k in &mut keys[..len] {
                crate::zkbpp::wipe(k);
            }
        }
        (self.ciphers.as_ref().expect("made just above"), j - first)
    }
}

/// The prover's `(u_i, [v_{i,b}; k])` of repetition `rep` from its leaf seeds (each leaf's
/// `r_j` is [`vc::stream`]: nearly all of the prover's and the verifier's time goes there).
/// Also every leaf's commitment (made with its stream).
pub fn prover_rep(
    d: &Domains,
    rep: u32,
    seeds: &[NodeSeed],
    k: u32,
    nbits: usize,
) -> (Bits, Vec<Bits>, Vec<Digest>) {
    let mut coms = vec![[0u8; 32]; seeds.len()];
    let mut batch = Batch::default();
    let (u, v) = columns(k, nbits, |x, buf| {
        let c = batch.at(x, seeds.len(), |j| Some(seeds[j]));
        coms[x] = vc::stream(d, rep, x, c, nbits, buf);
        true
    });
    (u, v, coms)
}

/// The verifier's `[q_{i,b}; k]` of one repetition from every leaf key but `hidden`'s:
/// `q_b = ⊕_{x : bit b of x} r_{x ⊕ hidden}` (the hidden leaf is `x = 0`, in no column).
/// Also the opened leaves' commitments (`hidden_com` at the hidden leaf).
pub fn verifier_rep(
    d: &Domains,
    rep: u32,
    seeds: &[Option<NodeSeed>],
    (hidden, hidden_com): (usize, Digest),
    k: u32,
    nbits: usize,
) -> (Vec<Bits>, Vec<Digest>) {
    let mut coms = vec![hidden_com; seeds.len()];
    let mut batch = Batch::default();
    let q = columns(k, nbits, |x, buf| {
        let j = x ^ hidden;
        seeds[j].is_some() && {
            let c = batch.at(j, seeds.len(), |j| seeds[j]);
            coms[j] = vc::stream(d, rep, j, c, nbits, buf);
            true
        }
    })
    .1;
    (q, coms)
}

/// The definitions of [`prover_rep`] and [`verifier_rep`] leaf by leaf (tests).
#[cfg(test)]
fn naive_rep(
    d: &Domains,
    keys: &[Option<NodeSeed>],
    hidden: usize,
    k: u32,
    nbits: usize,
) -> (Bits, Vec<Bits>) {
    let nw = words(nbits);
    let mut u = vec![0u64; nw];
    let mut v = vec![vec![0u64; nw]; k as usize];
    let mut r = vec![0u64; nw];
    for (j, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        vc::stream(d, 0, j, (&Ciphers::new(&[*key]), 0), nbits, &mut r);
        xor_into(&mut u, &r);
        for (b, col) in v.iter_mut().enumerate() {
            if ((j ^ hidden) >> b) & 1 == 1 {
                xor_into(col, &r);
            }
        }
    }
    (u, v)
}

/// Rows of the column matrix: `out[p] = Σ_c bit p of cols[c] · X^c` (`cols.len() ≤ 128`).
pub fn rows(cols: &[Bits], nbits: usize) -> Vec<u128> {
    let nw = words(nbits);
    let mut out = vec![0u128; nw * 64];
    for w in 0..nw {
        for g in 0..2 {
            if cols.len() <= 64 * g {
                break;
            }
            let mut a = [0u64; 64];
            for (t, x) in a.iter_mut().enumerate() {
                if let Some(c) = cols.get(64 * g + t) {
                    *x = c[w];
                }
            }
            transpose64(&mut a);
            for (r, x) in a.iter().enumerate() {
                out[64 * w + r] |= (*x as u128) << (64 * g);
            }
        }
    }
    out.truncate(nbits);
    out
}

/// How many bits of the second universal hash are sent (FAEST's `λ + B` hash, `B = 16`).
pub const SHORT_HASH_BITS: usize = 16;

/// The VOLE positions of the QuickSilver masks, 128 per combination (`v9`: one; `v3`–`v8`
/// had two).
pub const QS_MASK_BITS: usize = 128;

/// The VOLE positions of the two consistency hashes' masks, after the QuickSilver masks:
/// the full hash's (128) and the short hash's (16).
pub const HASH_MASK_BITS: usize = 128 + SHORT_HASH_BITS;

/// The VOLE positions past the witness at degree 2: the QuickSilver mask (128) and the
/// hashes' masks (144), `ℓ̂ = ℓ + EXTRA_BITS` (at degree 3 one more mask row, 7.6).
pub const EXTRA_BITS: usize = QS_MASK_BITS + HASH_MASK_BITS;

/// The two universal hashes of the VOLE check, keyed by `chall1`: for `x ∈ {0,1}^{ℓ+272}`,
/// `H_0(x) = Σ_j r_{0,j} · x[128j, 128j+128) + x[ℓ+128, ℓ+256)` (128 bits) and
/// `H_1(x) = low16(Σ_j r_{1,j} · x[128j, 128j+128)) + x[ℓ+256, ℓ+272)` (the coefficients of
/// `X^0 … X^15` only), over the `m = ⌈(ℓ+128)/128⌉` blocks of the first `ℓ + 128` bits (the
/// witness and the QuickSilver mask; the last block zero-padded); `r_{0,j}` is the `j`-th
/// and `r_{1,j}` the `(m+j)`-th 16 bytes (little-endian) of the ChaCha20 keystream under
/// `chall1`. Independent keys: a nonzero error on the hashed positions passes both with
/// probability `2^-128 · 2^-16 = 2^-144`. Truncation is linear and commutes with a bit
/// `Δ_c`, so the verifier's `H(q_c) + Δ_c·H(u)` holds for the short hash as for the full one.
pub struct UHash {
    r: Vec<u128>,
    body: usize,
}

impl UHash {
    /// For witnesses of `l` bits and one QuickSilver mask row (a check of degree 2; tests).
    #[cfg(test)]
    pub fn new(chall1: &[u8; 32], l: usize) -> Self {
        Self::over(chall1, l + QS_MASK_BITS)
    }

    /// Hashing the first `body` positions (the witness and the QuickSilver masks: one row
    /// per degree above 1); the masks of the two hashes follow them.
    pub fn over(chall1: &[u8; 32], body: usize) -> Self {
        Self {
            r: field_stream(chall1, 2 * body.div_ceil(128)),
            body,
        }
    }

    /// `(H_0(x), H_1(x))`, one pass over `x`; `H_1(x) < 2^16`.
    pub fn hash(&self, x: &[u64]) -> [u128; 2] {
        let m = self.r.len() / 2;
        let blocks: Vec<u128> = (0..m)
            .map(|j| chunk(x, 128 * j, (self.body - 128 * j).min(128)))
            .collect();
        let short = (1u128 << SHORT_HASH_BITS) - 1;
        [
            gf128::dot(&self.r[..m], &blocks).value() ^ chunk(x, self.body, 128),
            (gf128::dot(&self.r[m..], &blocks).value() & short)
                ^ chunk(x, self.body + 128, SHORT_HASH_BITS),
        ]
    }
}

/// `n` field elements: the ChaCha20 keystream under `key`, 16 little-endian bytes each.
pub fn field_stream(key: &[u8; 32], n: usize) -> Vec<u128> {
    let mut rng = ChaCha20Rng::from_seed(*key);
    let mut buf = vec![0u8; 16 * n];
    rng.fill_bytes(&mut buf);
    buf.chunks_exact(16)
        .map(|c| u128::from_le_bytes(c.try_into().expect("16 bytes")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The universal hashes against their definition, bit by bit.
    #[test]
    fn the_universal_hashes_match_their_definition() {
        // and the universal hashes against their definition, bit by bit: x[i] times
        // r_{k, i/128}·X^{i mod 128} for i < ℓ+128 (ℓ = 300: 428 bits in 4 blocks), plus the
        // k-th mask
        let h = UHash::new(&[5; 32], 300);
        let mut rng = ChaCha20Rng::seed_from_u64(6);
        let n = 300 + EXTRA_BITS;
        assert_eq!(n, 572);
        for _ in 0..8 {
            let mut x: Bits = (0..words(n)).map(|_| rng.next_u64()).collect();
            clear_tail(&mut x, n);
            let keys = field_stream(&[5; 32], 8);
            for (k, width) in [(0, 128), (1, SHORT_HASH_BITS)] {
                let mut want = 0u128;
                for i in 0..428 {
                    if get(&x, i) {
                        want ^= gf128::mul_reference(keys[4 * k + i / 128], 1u128 << (i % 128));
                    }
                }
                // the short hash: the low 16 coefficients only, then its own 16-bit mask
                if width < 128 {
                    want &= (1u128 << width) - 1;
                }
                for t in 0..width {
                    if get(&x, 428 + 128 * k + t) {
                        want ^= 1u128 << t;
                    }
                }
                assert_eq!(h.hash(&x)[k], want, "hash {k}");
            }
        }
    }

    #[test]
    fn chunk_and_rows_match_bit_loops() {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let nbits = 300;
        let cols: Vec<Bits> = (0..100)
            .map(|_| {
                let mut c: Bits = (0..words(nbits)).map(|_| rng.next_u64()).collect();
                clear_tail(&mut c, nbits);
                c
            })
            .collect();
        let rs = rows(&cols, nbits);
        for (p, r) in rs.iter().enumerate() {
            let mut want = 0u128;
            for (c, col) in cols.iter().enumerate() {
                want |= (get(col, p) as u128) << c;
            }
            assert_eq!(*r, want);
        }
        assert_eq!(rs.len(), nbits);
        for from in [0, 1, 63, 64, 65, 100, 172, 250] {
            for len in [1, 7, 64, 100, 128] {
                let mut want = 0u128;
                for t in 0..len {
                    if from + t < nbits && get(&cols[0], from + t) {
                        want |= 1 << t;
                    }
                }
                assert_eq!(chunk(&cols[0], from, len), want, "{from} {len}");
            }
        }
        let b = to_bytes(&cols[0], nbits);
        assert_eq!(from_bytes(&b, nbits).unwrap(), cols[0]);
        let mut bad = b.clone();
        *bad.last_mut().unwrap() |= 0x80; // a padding bit (300 = 37·8 + 4)
        assert!(from_bytes(&bad, nbits).is_none());
        assert!(from_bytes(&b[1..], nbits).is_none());
    }

    /// `q = v + Δ·u` on every row, checked directly from the leaves (one repetition, every
    /// hidden index), and the universal hash is linear.
    #[test]
    fn the_vole_correlation_holds_for_every_hidden_leaf() {
        let nbits = 200;
        for k in 1..=4u32 {
            let d = Domains::new(&[k as u8; 16]);
            let keys: Vec<NodeSeed> = (0..1usize << k).map(|j| [j as u8 + 17; 16]).collect();
            let (u, v, coms) = prover_rep(&d, 0, &keys, k, nbits);
            let all: Vec<Option<NodeSeed>> = keys.iter().map(|x| Some(*x)).collect();
            assert_eq!(naive_rep(&d, &all, 0, k, nbits), (u.clone(), v.clone()));
            for (j, c) in coms.iter().enumerate() {
                assert_eq!(*c, vc::leaf(&d, 0, j, &keys[j]));
            }
            let vr = rows(&v, nbits);
            for hidden in 0..1usize << k {
                let part: Vec<Option<NodeSeed>> = keys
                    .iter()
                    .enumerate()
                    .map(|(j, key)| (j != hidden).then_some(*key))
                    .collect();
                let (q, vcoms) = verifier_rep(&d, 0, &part, (hidden, [7; 32]), k, nbits);
                assert_eq!(naive_rep(&d, &part, hidden, k, nbits).1, q);
                for (j, c) in vcoms.iter().enumerate() {
                    assert_eq!(*c, if j == hidden { [7; 32] } else { coms[j] });
                }
                let qr = rows(&q, nbits);
                let delta = hidden as u128;
                for p in 0..nbits {
                    assert_eq!(
                        qr[p],
                        vr[p] ^ gf128::scale(delta, get(&u, p)),
                        "k {k} p {p}"
                    );
                }
            }
        }
        let h = UHash::new(&[3; 32], 40);
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let n = 40 + EXTRA_BITS;
        let a: Bits = (0..words(n)).map(|_| rng.next_u64()).collect();
        let b: Bits = (0..words(n)).map(|_| rng.next_u64()).collect();
        let mut s = a.clone();
        xor_into(&mut s, &b);
        let (mut a, mut b) = (a, b);
        clear_tail(&mut a, n);
        clear_tail(&mut b, n);
        clear_tail(&mut s, n);
        for k in 0..2 {
            assert_eq!(h.hash(&s)[k], h.hash(&a)[k] ^ h.hash(&b)[k]);
        }
    }
}
