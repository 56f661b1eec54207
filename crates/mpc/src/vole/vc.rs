//! The batched all-but-one vector commitment (FAEST v2's BAVC): one GGM tree whose leaves
//! are every repetition's leaves, interleaved, with 128-bit seeds expanded with AES-128
//! ([`super::aes_many`]: a level's parents and a repetition's leaves 64 keys at a time, with
//! AES-NI and VAES when the CPU has them, the `aes` crate otherwise: the same bytes).
//!
//! Repetition `i < τ` has `N_i = 2^{k_i}` leaves ([`Params::k`]: with `q = ⌊D/τ⌋` and
//! `r = D mod τ`, the first `r` have `2^{q+1}`, the others `2^q`); the tree has
//! `L = (τ + r)·2^q` leaves. Leaf `j` of repetition `i` is the tree's leaf
//! `λ(i, j) = τ·j + i` for `j < 2^q` and `τ·2^q + r·(j − 2^q) + i` above ([`Layout`]): the
//! repetitions' leaf `j` sit side by side, so that hidden leaves with close indices share
//! their paths. Nodes are numbered heap-style: the root is 1, node `c < L` has children `2c`
//! and `2c+1`, tree leaf `λ` is node `L + λ` (`L` need not be a power of two). With the
//! 16-byte salt and `blk(i, t, s) = salt ⊕ (u32le(i) ‖ u32le(t) ‖ u32le(s) ‖ 0^4)`:
//!
//! ```text
//! node(c)    = AES-128_{node(⌊c/2⌋)}(blk(0, c, 0))                          (c ≥ 2)
//! sd_{i,j}   = node(L + λ(i, j))
//! com_{i,j}  = AES-128_{sd_{i,j}}(blk(i, j, 2)) ‖ AES-128_{sd_{i,j}}(blk(i, j, 3))
//! r_{i,j}    = AES-128_{sd_{i,j}}(blk(i, 0, 1)) ‖ AES-128_{sd_{i,j}}(blk(i, 1, 1)) ‖ …  (first ℓ̂ bits)
//! h_com      = SHA-256("zkg:vole:vc:v1" ‖ com_{0,0} ‖ … ‖ com_{0,N_0−1} ‖ com_{1,0} ‖ …)
//! ```
//!
//! A leaf's commitment is two more blocks of the cipher its stream is made with, so that it
//! costs no key schedule and no hash of its own ([`stream`] makes both at once; `v10` and
//! before: one SHA-256 compression per leaf, an eighth of a speed-set proof). It hides the
//! seed as the stream does (AES-128 under a uniform key is a PRF), and binds it as FAEST-EM's
//! leaf commitments do (`PRG(sd)` of 2λ bits): with AES-128 an ideal cipher, `q` queries
//! find two seeds with equal commitments with probability about `q²/2^257` (256-bit
//! outputs at fixed inputs; an inverse query hits a fixed input with probability
//! `2^−128`), as SHA-256's birthday bound. The indices in the input keep a key search from
//! testing every hidden leaf at once (docs/PROTOCOLS.md 7.3).
//! Opening every leaf but `j*_i` in every repetition: mark
//! the `τ` hidden leaves' nodes and all their ancestors; every node with exactly one marked
//! child contributes its other child's seed, in decreasing order of that node ([`opened`]).
//! Their number depends on `Δ` (about `D − 8` on average for the 128-bit size set): a
//! non-interactive proof bounds it by the parameters' `T` (a `Δ` that needs more is not a
//! valid challenge: the prover grinds past it) and pads the list with zero seeds to exactly
//! `T`, so that its size is fixed; `T = 0` (live sessions) sends exactly the opened seeds.
//!
//! Misuse: the same root with the same salt in two proofs opened at different leaves reveals
//! every seed; a root comes from the prover's generator once per proof.

use rayon::prelude::*;
use sha2::{Digest as _, Sha256};

use super::aes_many::Ciphers;
use super::params::Params;
use zkgames_core::commit::Digest;

/// A 128-bit node seed.
pub type NodeSeed = [u8; 16];

pub const HCOM_TAG: &[u8] = b"zkg:vole:vc:v1";
/// Word 2 of `blk`: a tree node's children (0), a leaf's stream (1), its commitment's two
/// blocks (2, 3).
const NODE: u32 = 0;
const STREAM: u32 = 1;
const COMMIT: u32 = 2;
/// Blocks encrypted per call (the AES-NI back end pipelines eight, the VAES one more).
const PAR: usize = 32;
/// Parents expanded per task of a tree level.
const LEVEL_CHUNK: usize = 512;
/// Parents whose ciphers are expanded together ([`Ciphers`]).
const BATCH: usize = 64;

/// The per-proof constant: the IV (the salt).
#[derive(Clone)]
pub struct Domains {
    iv: [u8; 16],
}

impl Domains {
    pub fn new(salt: &[u8; 16]) -> Self {
        Domains { iv: *salt }
    }

    /// `blk(rep, t, s)`.
    fn blk(&self, rep: u32, t: u32, s: u32) -> [u8; 16] {
        let mut b = self.iv;
        for (k, w) in [rep, t, s].into_iter().enumerate() {
            for (x, y) in b[4 * k..4 * k + 4].iter_mut().zip(w.to_le_bytes()) {
                *x ^= y;
            }
        }
        b
    }
}

/// Both children of node `c` (seed `parent`): nodes `2c` and `2c+1` (tests; the tree expands
/// a level's parents together, [`expand`]).
#[cfg(test)]
fn child(d: &Domains, c: usize, parent: &NodeSeed) -> NodeSeed {
    let mut b = [[d.blk(0, c as u32, NODE), [0; 16]]];
    Ciphers::new(&[*parent]).encrypt_pairs(&mut b);
    b[0][0]
}

/// A leaf's commitment `com_j` alone (the hidden leaves': the others' come with their
/// stream, [`stream`]).
pub fn leaf(d: &Domains, rep: u32, j: usize, sd: &NodeSeed) -> Digest {
    let mut b = [
        d.blk(rep, j as u32, COMMIT),
        d.blk(rep, j as u32, COMMIT + 1),
    ];
    Ciphers::new(&[*sd]).encrypt(0, &mut b);
    commitment(&b)
}

fn commitment(b: &[[u8; 16]]) -> Digest {
    let mut com = [0u8; 32];
    com[..16].copy_from_slice(&b[0]);
    com[16..].copy_from_slice(&b[1]);
    com
}

/// Fills `out` with `r_j` (the leaf's AES-128-CTR stream under `sd`, whose cipher is key `k`
/// of `c`) as little-endian words, the bits past `nbits` cleared, and returns the leaf's
/// commitment `com_j`: one key schedule, the commitment's two blocks encrypted with the
/// stream's first.
pub fn stream(
    d: &Domains,
    rep: u32,
    j: usize,
    (c, k): (&Ciphers, usize),
    nbits: usize,
    out: &mut [u64],
) -> Digest {
    // blk(rep, t, STREAM) = blk(rep, 0, STREAM) ⊕ t in bytes 4..8
    let base = u128::from_le_bytes(d.blk(rep, 0, STREAM));
    let mut t = 0u128;
    let mut buf = [[0u8; 16]; PAR];
    buf[0] = d.blk(rep, j as u32, COMMIT);
    buf[1] = d.blk(rep, j as u32, COMMIT + 1);
    // the first call takes the commitment's blocks and 2·(PAR − 2) words of the stream
    let first = out.len().min(2 * (PAR - 2));
    let (head, tail) = out.split_at_mut(first);
    let n = head.len().div_ceil(2);
    for b in buf[2..2 + n].iter_mut() {
        *b = (base ^ (t << 32)).to_le_bytes();
        t += 1;
    }
    c.encrypt(k, &mut buf[..2 + n]);
    let com = commitment(&buf[..2]);
    words_from_blocks(head, &buf[2..]);
    // the rest in place: counter blocks written as words, encrypted where they lie
    let (whole, odd) = tail.split_at_mut(tail.len() & !1);
    for ws in whole.chunks_exact_mut(2) {
        let v = base ^ (t << 32);
        (ws[0], ws[1]) = (v as u64, (v >> 64) as u64);
        t += 1;
    }
    encrypt_words(c, k, whole);
    if !odd.is_empty() {
        let mut b = [(base ^ (t << 32)).to_le_bytes()];
        c.encrypt(k, &mut b);
        words_from_blocks(odd, &b);
    }
    super::convert::clear_tail(out, nbits);
    com
}

/// `ws[2i] ‖ ws[2i+1]` = block `i` read as a little-endian `u128` (the last word alone
/// when `ws` is odd).
fn words_from_blocks(ws: &mut [u64], blocks: &[[u8; 16]]) {
    for (w, b) in ws.chunks_mut(2).zip(blocks) {
        let v = u128::from_le_bytes(*b);
        w[0] = v as u64;
        if let Some(x) = w.get_mut(1) {
            *x = (v >> 64) as u64;
        }
    }
}

/// Encrypts the blocks that the words hold, two words a block in little-endian order
/// (`ws.len()` even): in place where words are stored little-endian, through a copy
/// elsewhere.
fn encrypt_words(c: &Ciphers, k: usize, ws: &mut [u64]) {
    #[cfg(target_endian = "little")]
    {
        // SAFETY: `[u8; 16]` has alignment 1 and the size of two `u64`, so the `ws.len() / 2`
        // blocks cover exactly the words' memory, borrowed mutably for this call only; on a
        // little-endian target a word's bytes are its little-endian bytes.
        let blocks =
            unsafe { std::slice::from_raw_parts_mut(ws.as_mut_ptr().cast(), ws.len() / 2) };
        c.encrypt(k, blocks);
    }
    #[cfg(not(target_endian = "little"))]
    for chunk in ws.chunks_mut(2 * PAR) {
        let mut buf = [[0u8; 16]; PAR];
        for (b, w) in buf.iter_mut().zip(chunk.chunks(2)) {
            *b = (w[0] as u128 | (w[1] as u128) << 64).to_le_bytes();
        }
        let n = chunk.len() / 2;
        c.encrypt(k, &mut buf[..n]);
        words_from_blocks(chunk, &buf[..n]);
    }
}

/// Where every repetition's leaves sit among the tree's (module docs): `λ(i, j)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    tau: usize,
    /// `q = ⌊D/τ⌋`: every repetition has at least `2^q` leaves.
    q: u32,
    /// `r = D mod τ`: repetitions `0 … r−1` have `2^{q+1}`.
    r: usize,
}

impl Layout {
    /// The layout of checked parameters.
    pub fn new(p: &Params) -> Self {
        Layout {
            tau: p.tau(),
            q: p.delta_bits / p.tau,
            r: (p.delta_bits % p.tau) as usize,
        }
    }

    /// `L`, the tree's leaves: `Σ_i 2^{k_i} = (τ + r)·2^q`.
    pub fn leaves(&self) -> usize {
        (self.tau + self.r) << self.q
    }

    /// `N_i = 2^{k_i}`.
    pub fn rep_leaves(&self, i: usize) -> usize {
        1 << (self.q + (i < self.r) as u32)
    }

    /// `λ(i, j)`: the tree leaf of repetition `i`'s leaf `j`.
    pub fn leaf_index(&self, i: usize, j: usize) -> usize {
        let low = 1usize << self.q;
        if j < low {
            self.tau * j + i
        } else {
            self.tau * low + self.r * (j - low) + i
        }
    }

    /// The node of repetition `i`'s leaf `j`: `L + λ(i, j)`.
    pub fn leaf_node(&self, i: usize, j: usize) -> usize {
        self.leaves() + self.leaf_index(i, j)
    }
}

/// The nodes whose seeds open every leaf but the hidden ones (`hidden[i]`: repetition `i`'s
/// hidden leaf, each `< N_i`): for every node with exactly one marked child (marked: a
/// hidden leaf or an ancestor of one), its other child, in decreasing order of the parent.
///
/// The marked nodes are visited from the highest number down (a max-heap of the marked
/// frontier): a node's number exceeds its parent's, so both children of a node are visited
/// before it, one after the other when both are marked. `O(τ · depth · log τ)`.
pub fn opened(layout: &Layout, hidden: &[u32]) -> Vec<usize> {
    let mut front: std::collections::BinaryHeap<usize> = hidden
        .iter()
        .enumerate()
        .map(|(i, &j)| layout.leaf_node(i, j as usize))
        .collect();
    let mut out = Vec::new();
    while let Some(x) = front.pop() {
        if x <= 1 {
            break;
        }
        if front.peek() == Some(&(x ^ 1)) {
            front.pop();
        } else {
            out.push(x ^ 1);
        }
        front.push(x / 2);
    }
    out
}

/// The most seeds [`opened`] returns, whatever the hidden leaves: a node of level `ℓ`
/// (the root's children being level 1) is opened only as the unmarked child of a marked
/// node of level `ℓ − 1`, and each of the `τ` hidden leaves marks one node per level, so
/// level `ℓ` opens at most `min(τ, 2^{ℓ−1})`, up to the deepest level `⌊log2(2L − 1)⌋`.
/// Bounds a session's response (`T = 0` sends exactly the opened seeds).
pub fn max_opened(layout: &Layout) -> usize {
    let deepest = (2 * layout.leaves() - 1).ilog2();
    (1..=deepest)
        .map(|l| layout.tau.min(1usize << (l - 1).min(usize::BITS - 2)))
        .sum()
}

/// Expands every known node's children, level by level (`get` reads a node's seed if known,
/// `put` stores one): nodes `2c`, `2c+1` from node `c < L`, in parallel within a level.
fn expand<T: Send + Sync>(
    d: &Domains,
    nodes: &mut [T],
    l: usize,
    get: impl Fn(&T) -> Option<NodeSeed> + Sync,
    put: impl Fn(NodeSeed) -> T + Sync,
) {
    let mut a = 1usize;
    while a < l {
        let b = (2 * a).min(l);
        let (head, tail) = nodes.split_at_mut(2 * a);
        let parents = &head[a..b];
        let kids = &mut tail[..2 * (b - a)];
        let chunk = |(ci, (kid, par)): (usize, (&mut [T], &[T]))| {
            // the known parents of the chunk, their ciphers expanded together in
            // batches small enough for the schedules to stay in the first-level cache
            let first = a + ci * LEVEL_CHUNK;
            let mut seeds = [[0u8; 16]; BATCH];
            let mut at = [0usize; BATCH];
            let mut pairs = [[[0u8; 16]; 2]; BATCH];
            let mut n = 0;
            for t in 0..=par.len() {
                if n == BATCH || (t == par.len() && n > 0) {
                    Ciphers::new(&seeds[..n]).encrypt_pairs(&mut pairs[..n]);
                    for (&t, [x, y]) in at.iter().zip(&pairs[..n]) {
                        kid[2 * t] = put(*x);
                        kid[2 * t + 1] = put(*y);
                    }
                    n = 0;
                }
                if let Some(s) = par.get(t).and_then(&get) {
                    let c = 2 * (first + t) as u32;
                    (seeds[n], at[n]) = (s, t);
                    pairs[n] = [d.blk(0, c, NODE), d.blk(0, c + 1, NODE)];
                    n += 1;
                }
            }
            wipe_all(&mut seeds);
            wipe_all(pairs.as_flattened_mut());
        };
        if super::par::serial() {
            kids.chunks_mut(2 * LEVEL_CHUNK)
                .zip(parents.chunks(LEVEL_CHUNK))
                .enumerate()
                .for_each(chunk);
        } else {
            kids.par_chunks_mut(2 * LEVEL_CHUNK)
                .zip(parents.par_chunks(LEVEL_CHUNK))
                .enumerate()
                .for_each(chunk);
        }
        a *= 2;
    }
}

/// Zeroes seeds held in a scratch list.
fn wipe_all(v: &mut [[u8; 16]]) {
    for s in v.iter_mut() {
        crate::zkbpp::wipe(s);
    }
}

/// The prover's tree, every node (index 0 unused).
pub struct Tree {
    layout: Layout,
    nodes: Vec<NodeSeed>,
}

impl Tree {
    pub fn new(d: &Domains, layout: Layout, root: &NodeSeed) -> Self {
        let l = layout.leaves();
        let mut nodes = vec![[0u8; 16]; 2 * l];
        nodes[1] = *root;
        expand(d, &mut nodes, l, |s| Some(*s), |s| s);
        Tree { layout, nodes }
    }

    /// Zeroes every seed (the prover's state once its proof is out: with `Δ` public, the
    /// seeds would give the witness away).
    pub fn wipe(&mut self) {
        for n in &mut self.nodes {
            crate::zkbpp::wipe(n);
        }
    }

    /// Repetition `i`'s leaf seeds `sd_{i,0} … sd_{i,N_i−1}`.
    pub fn rep_leaves(&self, i: usize) -> Vec<NodeSeed> {
        (0..self.layout.rep_leaves(i))
            .map(|j| self.nodes[self.layout.leaf_node(i, j)])
            .collect()
    }

    /// Repetition `i`'s leaf `j`.
    pub fn leaf(&self, i: usize, j: usize) -> &NodeSeed {
        &self.nodes[self.layout.leaf_node(i, j)]
    }

    /// The seeds that open every leaf but the hidden ones ([`opened`]), padded with zero
    /// seeds to `bound` when `bound > 0`; `None` if they are more than a nonzero `bound`.
    pub fn open(&self, hidden: &[u32], bound: u32) -> Option<Vec<NodeSeed>> {
        let mut s: Vec<NodeSeed> = opened(&self.layout, hidden)
            .into_iter()
            .map(|c| self.nodes[c])
            .collect();
        if bound > 0 {
            if s.len() > bound as usize {
                return None;
            }
            s.resize(bound as usize, [0; 16]);
        }
        Some(s)
    }
}

/// Rebuilds every leaf seed but the hidden ones (which are `None`), per repetition, from the
/// seeds of the nodes `opened` (the hidden leaves' [`opened`], computed once by the caller,
/// who checked that `seeds` has at least as many and the padding).
pub fn reconstruct(
    d: &Domains,
    layout: &Layout,
    opened: &[usize],
    seeds: &[NodeSeed],
) -> Vec<Vec<Option<NodeSeed>>> {
    let l = layout.leaves();
    let mut nodes: Vec<Option<NodeSeed>> = vec![None; 2 * l];
    for (&c, s) in opened.iter().zip(seeds) {
        nodes[c] = Some(*s);
    }
    expand(d, &mut nodes, l, |s| *s, Some);
    (0..layout.tau)
        .map(|i| {
            (0..layout.rep_leaves(i))
                .map(|j| nodes[layout.leaf_node(i, j)])
                .collect()
        })
        .collect()
}

/// `h_com` over every repetition's leaf commitments, in order.
pub fn h_com<'a>(coms: impl IntoIterator<Item = &'a [Digest]>) -> Digest {
    let mut h = Sha256::new();
    h.update(HCOM_TAG);
    for rep in coms {
        for c in rep {
            h.update(c);
        }
    }
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marked nodes and the opened ones from the definition: walk up from every hidden
    /// leaf, then take, from the highest parent down, the unmarked child of every node with
    /// one marked child.
    fn naive_opened(lay: &Layout, hidden: &[u32]) -> Vec<usize> {
        let mut marked = std::collections::BTreeSet::new();
        for (i, &j) in hidden.iter().enumerate() {
            let mut c = lay.leaf_node(i, j as usize);
            while c >= 1 {
                marked.insert(c);
                c /= 2;
            }
        }
        (1..lay.leaves())
            .rev()
            .filter_map(
                |c| match (marked.contains(&(2 * c)), marked.contains(&(2 * c + 1))) {
                    (true, false) => Some(2 * c + 1),
                    (false, true) => Some(2 * c),
                    _ => None,
                },
            )
            .collect()
    }

    /// The layout is a bijection from (repetition, leaf) onto the tree's leaves, repetition
    /// `i`'s leaf `j` at `τ·j + i` while every repetition has a leaf `j`.
    #[test]
    fn the_layout_places_every_leaf_once() {
        for (tau, d) in [
            (1, 1),
            (1, 5),
            (2, 3),
            (3, 10),
            (4, 9),
            (5, 5),
            (11, 121),
            (20, 120),
            (17, 120),
            (11, 116),
            (7, 100),
        ] {
            let p = Params::new(tau, d, 0);
            let lay = Layout::new(&p);
            let mut seen = vec![false; lay.leaves()];
            for i in 0..p.tau() {
                assert_eq!(lay.rep_leaves(i), 1 << p.k(i));
                for j in 0..lay.rep_leaves(i) {
                    let x = lay.leaf_index(i, j);
                    assert!(!seen[x], "{tau} {d}: leaf {x} twice");
                    seen[x] = true;
                    if j < 1 << (d / tau) {
                        assert_eq!(x, p.tau() * j + i);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
            assert_eq!(
                lay.leaves(),
                (0..p.tau()).map(|i| 1usize << p.k(i)).sum::<usize>()
            );
        }
    }

    /// [`max_opened`] bounds every opening: all choices of small shapes, the worst of many
    /// random ones of the 128-bit shapes (the worst seen within 25% of the bound).
    #[test]
    fn max_opened_bounds_every_opening() {
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        for (tau, d) in [
            (1, 1),
            (1, 5),
            (2, 3),
            (3, 7),
            (4, 9),
            (11, 128),
            (17, 128),
            (16, 128),
        ] {
            let p = Params::new(tau, d, 0);
            let lay = Layout::new(&p);
            let bound = max_opened(&lay);
            let mut worst = 0;
            for _ in 0..4000 {
                let hidden: Vec<u32> = (0..p.tau())
                    .map(|i| (rng.next_u64() % lay.rep_leaves(i) as u64) as u32)
                    .collect();
                let n = opened(&lay, &hidden).len();
                assert!(n <= bound, "{tau} {d}: {n} > {bound}");
                worst = worst.max(n);
            }
            assert!(
                d < 100 || worst * 4 >= bound * 3,
                "{tau} {d}: worst {worst} of {bound}"
            );
        }
    }

    /// The tree against seeds computed leaf by leaf from the definition (down from the root
    /// along the bits of the leaf's node number); every opening (all hidden-leaf choices of
    /// small trees, random ones of the 128-bit shapes) against [`naive_opened`], and the
    /// reconstruction against the tree: every leaf but the hidden ones, and no opened seed
    /// is a hidden leaf's or an ancestor's.
    #[test]
    fn tree_leaves_match_the_definition_and_every_opening_reveals_all_but_the_hidden() {
        use rand_core::{RngCore, SeedableRng};
        let salt = [7u8; 16];
        let dom = Domains::new(&salt);
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for (tau, d) in [
            (1, 1),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 7),
            (3, 8),
            (4, 9),
            (11, 121),
            (20, 120),
            (17, 120),
        ] {
            let p = Params::new(tau, d, 0);
            let lay = Layout::new(&p);
            let root = [d as u8; 16];
            let t = Tree::new(&dom, lay, &root);
            let node = |c: usize| {
                let depth = usize::BITS - 1 - c.leading_zeros();
                let mut s = root;
                for b in (0..depth).rev() {
                    s = child(&dom, c >> b, &s);
                }
                s
            };
            for i in 0..p.tau() {
                for j in 0..lay.rep_leaves(i) {
                    if lay.leaves() <= 64 || j < 3 {
                        assert_eq!(
                            *t.leaf(i, j),
                            node(lay.leaf_node(i, j)),
                            "{tau} {d} {i} {j}"
                        );
                    }
                }
                assert_eq!(t.rep_leaves(i).len(), lay.rep_leaves(i));
            }
            let total: usize = (0..p.tau()).map(|i| lay.rep_leaves(i)).product();
            let choices: Vec<Vec<u32>> = if total <= 512 {
                (0..total)
                    .map(|mut x| {
                        (0..p.tau())
                            .map(|i| {
                                let n = lay.rep_leaves(i);
                                let j = x % n;
                                x /= n;
                                j as u32
                            })
                            .collect()
                    })
                    .collect()
            } else {
                (0..40)
                    .map(|_| {
                        (0..p.tau())
                            .map(|i| (rng.next_u32() as usize % lay.rep_leaves(i)) as u32)
                            .collect()
                    })
                    .collect()
            };
            for hidden in choices {
                let want = naive_opened(&lay, &hidden);
                assert_eq!(opened(&lay, &hidden), want, "{tau} {d} {hidden:?}");
                let seeds = t.open(&hidden, 0).unwrap();
                assert_eq!(seeds.len(), want.len());
                // a bound: padded with zero seeds, or refused when too small
                let n = want.len() as u32;
                let padded = t.open(&hidden, n + 3).unwrap();
                assert_eq!(&padded[..seeds.len()], &seeds[..]);
                assert!(padded[seeds.len()..].iter().all(|s| *s == [0; 16]));
                assert_eq!(t.open(&hidden, n).unwrap(), seeds);
                if n > 1 {
                    assert!(t.open(&hidden, n - 1).is_none());
                }
                let r = reconstruct(&dom, &lay, &want, &padded);
                for (i, rep) in r.iter().enumerate() {
                    assert_eq!(rep.len(), lay.rep_leaves(i));
                    for (j, got) in rep.iter().enumerate() {
                        if j == hidden[i] as usize {
                            assert_eq!(*got, None);
                            // nothing opened is the hidden leaf or above it
                            let mut c = lay.leaf_node(i, j);
                            while c >= 1 {
                                assert!(!seeds.contains(&t.nodes[c]));
                                c /= 2;
                            }
                        } else {
                            assert_eq!(*got, Some(*t.leaf(i, j)), "{tau} {d} {hidden:?} {i} {j}");
                        }
                    }
                }
            }
        }
        // another salt gives other seeds
        let lay = Layout::new(&Params::new(2, 6, 0));
        let a = Tree::new(&dom, lay, &[1; 16]);
        let c = Tree::new(&Domains::new(&[8; 16]), lay, &[1; 16]);
        assert_ne!(a.rep_leaves(0), c.rep_leaves(0));
        assert_ne!(a.rep_leaves(0), a.rep_leaves(1));
        // a commitment depends on its repetition, its index and its seed
        let c = leaf(&dom, 5, 9, &[3; 16]);
        assert_ne!(c, leaf(&dom, 4, 9, &[3; 16]));
        assert_ne!(c, leaf(&dom, 5, 8, &[3; 16]));
        assert_ne!(c, leaf(&dom, 5, 9, &[2; 16]));
        assert_ne!(c, leaf(&Domains::new(&[8; 16]), 5, 9, &[3; 16]));
    }

    /// [`Ciphers`] (both paths, AES-NI when present) against the project's plain FIPS 197 code
    /// (`mpc::aes128::encrypt`, table-free, no CPU features) on random seeds, salts,
    /// indices and lengths: the children of a node and a leaf's stream block by block,
    /// from `blk`'s definition.
    #[test]
    fn nodes_and_streams_match_the_reference_aes() {
        use crate::aes128::encrypt;
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(38);
        let blk = |salt: &[u8; 16], words: [u32; 3]| {
            let mut b: [u8; 16] = *salt;
            for (k, w) in words.iter().enumerate() {
                for (t, y) in w.to_le_bytes().into_iter().enumerate() {
                    b[4 * k + t] ^= y;
                }
            }
            b
        };
        for round in 0..300 {
            let mut salt = [0u8; 16];
            rng.fill_bytes(&mut salt);
            let mut seed = [0u8; 16];
            rng.fill_bytes(&mut seed);
            let dom = Domains::new(&salt);
            let rep = rng.next_u32() % 64;
            let c = 1 + (rng.next_u32() as usize % 60000);
            for b in 0..2 {
                let want = encrypt(&seed, &blk(&salt, [0, (2 * c + b) as u32, 0]));
                assert_eq!(
                    child(&dom, 2 * c + b, &seed),
                    want,
                    "round {round} child {b}"
                );
            }
            let nbits = 1 + (rng.next_u32() as usize % 12000);
            let nw = nbits.div_ceil(64);
            let mut out = vec![u64::MAX; nw + 1];
            let j = rng.next_u32() as usize % 4096;
            let paths = crate::vole::aes_many::Path::all();
            let path = paths[round % paths.len()];
            let com = stream(
                &dom,
                rep,
                j,
                (&Ciphers::with_path(&[seed], path), 0),
                nbits,
                &mut out,
            );
            // the commitment: blk(rep, j, 2) and blk(rep, j, 3), with the stream or alone
            let mut want = [0u8; 32];
            want[..16].copy_from_slice(&encrypt(&seed, &blk(&salt, [rep, j as u32, 2])));
            want[16..].copy_from_slice(&encrypt(&seed, &blk(&salt, [rep, j as u32, 3])));
            assert_eq!(com, want, "round {round}");
            assert_eq!(leaf(&dom, rep, j, &seed), want);
            let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
            for t in 0..nbits.div_ceil(128) {
                let want = encrypt(&seed, &blk(&salt, [rep, t as u32, 1]));
                for (x, (&got, &w)) in bytes[16 * t..16 * t + 16].iter().zip(&want).enumerate() {
                    let p = 8 * (16 * t + x);
                    if p + 8 <= nbits {
                        assert_eq!(got, w, "round {round} block {t}");
                    } else if p < nbits {
                        assert_eq!(got, w & ((1u8 << (nbits - p)) - 1));
                    } else {
                        assert_eq!(got, 0);
                    }
                }
            }
            assert!(out[nw..].iter().all(|&w| w == 0));
        }
        // FIPS 197 C.1 through the same call: key 00…0f, plaintext 00112233…ff
        let key: [u8; 16] = std::array::from_fn(|i| i as u8);
        let mut pt = [0u8; 16];
        for (i, x) in pt.iter_mut().enumerate() {
            *x = (i as u8) * 0x11;
        }
        let mut b = [pt];
        Ciphers::new(&[key]).encrypt(0, &mut b);
        assert_eq!(hex::encode(b[0]), "69c4e0d86a7b0430d8cdb78070b4c55a");
    }
}
