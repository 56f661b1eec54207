//! All-but-one vector commitments: one GGM tree of `2^k` leaves per repetition, with
//! 128-bit seeds, expanded with AES-128 (AES-NI when the CPU has it, the `aes` crate's
//! portable code otherwise: the same bytes).
//!
//! Nodes are numbered heap-style: the root is 1, node `c` has children `2c` and `2c+1`, leaf
//! `j` is node `2^k + j`. With `iv` the salt's first 16 bytes, the repetition index `i`, and
//! `blk(i, t, s) = iv ⊕ (u32le(i) ‖ u32le(t) ‖ u32le(s) ‖ 0^4)`:
//!
//! ```text
//! node(c)  = AES-128_{node(c/2)}(blk(i, c, 0))
//! com_j    = SHA-256(pad("zkg:vole:leaf-commit:v3") ‖ salt ‖ u32le(i) ‖ u32le(j) ‖ sd_j)
//! r_j      = AES-128_{sd_j}(blk(i, 0, 1)) ‖ AES-128_{sd_j}(blk(i, 1, 1)) ‖ …   (first ℓ̂ bits)
//! ```
//!
//! `sd_j = node(2^k + j)`: every node's seed is the AES key that expands it (AES-CTR with a
//! per-proof IV, FAEST's PRG). `pad(tag)` is the tag zero-padded to 32 bytes (so that
//! `pad(tag) ‖ salt` is one SHA-256 block, compressed once per proof). Opening all leaves but
//! `j*` reveals the `k` siblings of `j*`'s ancestors (top-down) and `com_{j*}`;
//! `h_com = SHA-256("zkg:vole:vc:v1" ‖ com of every leaf of every repetition, in order)`.
//!
//! Misuse: the same root with the same salt in two proofs opened at different leaves reveals
//! every seed of that tree; roots come from the prover's generator once per proof.

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes::{Aes128, Block};
use sha2::{Digest as _, Sha256};

use crate::commit::Digest;

/// A 128-bit node seed.
pub type NodeSeed = [u8; 16];

/// `v3`: the tree and the leaves' stream are AES-128 (`v2`: SHA-256 nodes, ChaCha12 leaves
/// under a hashed key); the commitment's hash is unchanged but for the tag.
pub const LEAF_COMMIT_TAG: &[u8] = b"zkg:vole:leaf-commit:v3";
pub const HCOM_TAG: &[u8] = b"zkg:vole:vc:v1";
/// Word 2 of `blk`: a tree node's children (0), a leaf's stream (1).
const NODE: u32 = 0;
const STREAM: u32 = 1;
/// Blocks encrypted per call (the AES-NI back end pipelines eight, the VAES one more).
const PAR: usize = 32;

/// The per-proof constants: the IV and the hash state after `pad(tag) ‖ salt`.
#[derive(Clone)]
pub struct Domains {
    iv: [u8; 16],
    commit: Sha256,
}

impl Domains {
    pub fn new(salt: &[u8; 32]) -> Self {
        let mut t = [0u8; 32];
        t[..LEAF_COMMIT_TAG.len()].copy_from_slice(LEAF_COMMIT_TAG);
        let mut h = Sha256::new();
        h.update(t);
        h.update(salt);
        Domains {
            iv: salt[..16].try_into().expect("16 bytes"),
            commit: h,
        }
    }

    /// `blk(rep, t, s)`.
    fn blk(&self, rep: u32, t: u32, s: u32) -> Block {
        let mut b = self.iv;
        for (k, w) in [rep, t, s].into_iter().enumerate() {
            for (x, y) in b[4 * k..4 * k + 4].iter_mut().zip(w.to_le_bytes()) {
                *x ^= y;
            }
        }
        Block::from(b)
    }
}

fn cipher(seed: &NodeSeed) -> Aes128 {
    Aes128::new(&aes::cipher::Key::<Aes128>::from(*seed))
}

/// Both children of node `c` (seed `parent`): nodes `2c` and `2c+1`.
fn children(d: &Domains, rep: u32, c: usize, parent: &NodeSeed) -> [NodeSeed; 2] {
    let mut b = [
        d.blk(rep, 2 * c as u32, NODE),
        d.blk(rep, 2 * c as u32 + 1, NODE),
    ];
    cipher(parent).encrypt_blocks(&mut b);
    [b[0].into(), b[1].into()]
}

#[cfg(test)]
fn child(d: &Domains, rep: u32, c: usize, parent: &NodeSeed) -> NodeSeed {
    children(d, rep, c / 2, parent)[c % 2]
}

/// A leaf's commitment `com_j`.
pub fn leaf(d: &Domains, rep: u32, j: usize, sd: &NodeSeed) -> Digest {
    let mut h = d.commit.clone();
    h.update(rep.to_le_bytes());
    h.update((j as u32).to_le_bytes());
    h.update(sd);
    h.finalize().into()
}

/// Fills `out` with `r_j` (the leaf's AES-128-CTR stream under `sd`) as little-endian words,
/// the bits past `nbits` cleared.
pub fn stream(d: &Domains, rep: u32, sd: &NodeSeed, nbits: usize, out: &mut [u64]) {
    let c = cipher(sd);
    // blk(rep, t, STREAM) = blk(rep, 0, STREAM) ⊕ t in bytes 4..8
    let base = u128::from_le_bytes(d.blk(rep, 0, STREAM).into());
    let mut t = 0u128;
    let mut buf = [Block::default(); PAR];
    for chunk in out.chunks_mut(2 * PAR) {
        let n = chunk.len().div_ceil(2);
        for b in buf[..n].iter_mut() {
            *b = Block::from((base ^ (t << 32)).to_le_bytes());
            t += 1;
        }
        c.encrypt_blocks(&mut buf[..n]);
        for (k, w) in chunk.iter_mut().enumerate() {
            let h = 8 * (k % 2);
            *w = u64::from_le_bytes(buf[k / 2][h..h + 8].try_into().expect("8 bytes"));
        }
    }
    super::convert::clear_tail(out, nbits);
}

/// One repetition's tree, all nodes (index 0 unused).
pub struct Tree {
    k: u32,
    nodes: Vec<NodeSeed>,
}

impl Tree {
    pub fn new(d: &Domains, rep: u32, k: u32, root: &NodeSeed) -> Self {
        let n = 1usize << k;
        let mut nodes = vec![[0u8; 16]; 2 * n];
        nodes[1] = *root;
        for c in 1..n {
            let [a, b] = children(d, rep, c, &nodes[c]);
            nodes[2 * c] = a;
            nodes[2 * c + 1] = b;
        }
        Tree { k, nodes }
    }

    /// Zeroes every seed (the prover's state once its proof is out: with `Δ` public, the
    /// seeds would give the witness away).
    pub fn wipe(&mut self) {
        for n in &mut self.nodes {
            crate::mpc::zkbpp::wipe(n);
        }
    }

    /// The leaf seeds `sd_0 … sd_{N−1}`.
    pub fn leaves(&self) -> &[NodeSeed] {
        &self.nodes[1 << self.k..]
    }

    /// The `k` sibling seeds that reveal every leaf but `hidden`, top-down.
    pub fn open(&self, hidden: usize) -> Vec<NodeSeed> {
        let leaf = (1usize << self.k) + hidden;
        (0..self.k)
            .map(|d| {
                let anc = leaf >> (self.k - 1 - d);
                self.nodes[anc ^ 1]
            })
            .collect()
    }
}

/// Rebuilds every leaf seed but `hidden`'s (which is `None`) from an opening's `k` sibling
/// seeds (their count is checked by the caller).
pub fn reconstruct(
    d: &Domains,
    rep: u32,
    k: u32,
    hidden: usize,
    path: &[NodeSeed],
) -> Vec<Option<NodeSeed>> {
    debug_assert_eq!(path.len(), k as usize);
    let n = 1usize << k;
    let mut nodes: Vec<Option<NodeSeed>> = vec![None; 2 * n];
    let leaf = n + hidden;
    for (d, s) in path.iter().enumerate() {
        let anc = leaf >> (k as usize - 1 - d);
        nodes[anc ^ 1] = Some(*s);
    }
    for c in 1..n {
        if let (Some(p), None) = (nodes[c], nodes[2 * c]) {
            let [a, b] = children(d, rep, c, &p);
            nodes[2 * c] = Some(a);
            nodes[2 * c + 1] = Some(b);
        }
    }
    nodes.split_off(n)
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

    /// The tree against a plain list of seeds computed node by node from the definition,
    /// and every opening against it.
    #[test]
    fn tree_leaves_match_the_definition_and_every_opening_reveals_all_but_one() {
        let salt = [7u8; 32];
        let dom = Domains::new(&salt);
        for k in 1..=5u32 {
            let root = [k as u8; 16];
            let t = Tree::new(&dom, 3, k, &root);
            let n = 1usize << k;
            // plain recursion, leaf by leaf: walk down from the root along j's bits
            let plain: Vec<NodeSeed> = (0..n)
                .map(|j| {
                    let mut c = 1usize;
                    let mut s = root;
                    for d in (0..k).rev() {
                        c = 2 * c + ((j >> d) & 1);
                        s = child(&dom, 3, c, &s);
                    }
                    s
                })
                .collect();
            assert_eq!(t.leaves(), &plain[..]);
            for hidden in 0..n {
                let path = t.open(hidden);
                assert_eq!(path.len(), k as usize);
                let r = reconstruct(&dom, 3, k, hidden, &path);
                for j in 0..n {
                    if j == hidden {
                        assert_eq!(r[j], None);
                    } else {
                        assert_eq!(r[j], Some(plain[j]), "k {k} hidden {hidden} leaf {j}");
                    }
                }
                // the path does not contain the hidden seed or any of its ancestors
                assert!(!path.contains(&plain[hidden]));
            }
        }
        // another repetition index or salt gives other seeds
        let a = Tree::new(&dom, 0, 3, &[1; 16]);
        let b = Tree::new(&dom, 1, 3, &[1; 16]);
        let c = Tree::new(&Domains::new(&[8; 32]), 0, 3, &[1; 16]);
        assert_ne!(a.leaves(), b.leaves());
        assert_ne!(a.leaves(), c.leaves());
        // the cached one-block prefix against hashing the whole input at once: the tag
        // zero-padded to 32 bytes, the salt, the indices, the seed
        let mut tag = [0u8; 32];
        tag[..LEAF_COMMIT_TAG.len()].copy_from_slice(LEAF_COMMIT_TAG);
        let whole: [u8; 32] = Sha256::new()
            .chain_update(tag)
            .chain_update(salt)
            .chain_update(5u32.to_le_bytes())
            .chain_update(9u32.to_le_bytes())
            .chain_update([3u8; 16])
            .finalize()
            .into();
        assert_eq!(leaf(&dom, 5, 9, &[3; 16]), whole);
    }

    /// The `aes` crate (AES-NI when present) against the project's plain FIPS 197 code
    /// (`mpc::aes128::encrypt`, table-free, no CPU features) on random seeds, salts,
    /// indices and lengths: the children of a node and a leaf's stream block by block,
    /// from `blk`'s definition.
    #[test]
    fn nodes_and_streams_match_the_reference_aes() {
        use crate::mpc::aes128::encrypt;
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(38);
        let blk = |salt: &[u8; 32], words: [u32; 3]| {
            let mut b: [u8; 16] = salt[..16].try_into().unwrap();
            for (k, w) in words.iter().enumerate() {
                for (t, y) in w.to_le_bytes().into_iter().enumerate() {
                    b[4 * k + t] ^= y;
                }
            }
            b
        };
        for round in 0..300 {
            let mut salt = [0u8; 32];
            rng.fill_bytes(&mut salt);
            let mut seed = [0u8; 16];
            rng.fill_bytes(&mut seed);
            let dom = Domains::new(&salt);
            let rep = rng.next_u32() % 64;
            let c = 1 + (rng.next_u32() as usize % 60000);
            let kids = children(&dom, rep, c, &seed);
            for (b, kid) in kids.iter().enumerate() {
                let want = encrypt(&seed, &blk(&salt, [rep, (2 * c + b) as u32, 0]));
                assert_eq!(*kid, want, "round {round} child {b}");
            }
            let nbits = 1 + (rng.next_u32() as usize % 3000);
            let nw = nbits.div_ceil(64);
            let mut out = vec![u64::MAX; nw + 1];
            stream(&dom, rep, &seed, nbits, &mut out);
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
        let mut b = Block::from(pt);
        cipher(&key).encrypt_block(&mut b);
        assert_eq!(hex::encode(b), "69c4e0d86a7b0430d8cdb78070b4c55a");
    }
}
