//! All-but-one vector commitments: one GGM tree of `2^k` leaves per repetition, with
//! 128-bit seeds.
//!
//! Nodes are numbered heap-style: the root is 1, node `c` has children `2c` and `2c+1`, leaf
//! `j` is node `2^k + j`. With the 32-byte salt, the repetition index `i`, and `pad(tag)` the
//! tag zero-padded to 32 bytes (so that `pad(tag) ‖ salt` is exactly one SHA-256 block,
//! compressed once per tree: every node and leaf hash below then costs one compression):
//!
//! ```text
//! node(c)  = SHA-256(pad("zkg:vole:tree:v2") ‖ salt ‖ u32le(i) ‖ u32le(c) ‖ node(c/2))[0..16]
//! com_j    = SHA-256(pad("zkg:vole:leaf-commit:v2") ‖ salt ‖ u32le(i) ‖ u32le(j) ‖ sd_j)
//! key_j    = SHA-256(pad("zkg:vole:leaf-prg:v2") ‖ salt ‖ u32le(i) ‖ u32le(j) ‖ sd_j)
//! ```
//!
//! `sd_j = node(2^k + j)`; `r_j` is the ChaCha12 keystream under `key_j` (nonce 0). Opening
//! all leaves but `j*` reveals the `k` siblings of `j*`'s ancestors (top-down) and `com_{j*}`;
//! `h_com = SHA-256("zkg:vole:vc:v1" ‖ com of every leaf of every repetition, in order)`.
//!
//! Misuse: the same root with the same salt in two proofs opened at different leaves reveals
//! every seed of that tree; roots come from the prover's generator once per proof.

use sha2::{Digest as _, Sha256};

use crate::commit::Digest;

/// A 128-bit node seed.
pub type NodeSeed = [u8; 16];

/// `v2`: one-block prefixes (`v1` hashed the bare tag, two compressions per node).
pub const TREE_TAG: &[u8] = b"zkg:vole:tree:v2";
pub const LEAF_COMMIT_TAG: &[u8] = b"zkg:vole:leaf-commit:v2";
/// `v2`: the leaves' keystream is ChaCha12 (`v1` was ChaCha20), one-block prefix.
pub const LEAF_PRG_TAG: &[u8] = b"zkg:vole:leaf-prg:v2";
pub const HCOM_TAG: &[u8] = b"zkg:vole:vc:v1";

/// The hash states after `pad(tag) ‖ salt` for the three per-node hashes of one proof.
#[derive(Clone)]
pub struct Domains {
    tree: Sha256,
    commit: Sha256,
    prg: Sha256,
}

impl Domains {
    pub fn new(salt: &[u8; 32]) -> Self {
        let prefix = |tag: &[u8]| {
            let mut t = [0u8; 32];
            t[..tag.len()].copy_from_slice(tag);
            let mut h = Sha256::new();
            h.update(t);
            h.update(salt);
            h
        };
        Domains {
            tree: prefix(TREE_TAG),
            commit: prefix(LEAF_COMMIT_TAG),
            prg: prefix(LEAF_PRG_TAG),
        }
    }
}

fn child(d: &Domains, rep: u32, c: usize, parent: &NodeSeed) -> NodeSeed {
    let mut h = d.tree.clone();
    h.update(rep.to_le_bytes());
    h.update((c as u32).to_le_bytes());
    h.update(parent);
    let d: [u8; 32] = h.finalize().into();
    d[..16].try_into().expect("16 bytes")
}

fn leaf_hash(prefix: &Sha256, rep: u32, j: usize, sd: &NodeSeed) -> Digest {
    let mut h = prefix.clone();
    h.update(rep.to_le_bytes());
    h.update((j as u32).to_le_bytes());
    h.update(sd);
    h.finalize().into()
}

/// A leaf's commitment and PRG key.
pub fn leaf(d: &Domains, rep: u32, j: usize, sd: &NodeSeed) -> (Digest, [u8; 32]) {
    (
        leaf_hash(&d.commit, rep, j, sd),
        leaf_hash(&d.prg, rep, j, sd),
    )
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
        for c in 2..2 * n {
            nodes[c] = child(d, rep, c, &nodes[c / 2]);
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
    for c in 2..2 * n {
        if nodes[c].is_none() {
            if let Some(p) = nodes[c / 2] {
                nodes[c] = Some(child(d, rep, c, &p));
            }
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
        let whole = |t: &[u8]| -> [u8; 32] {
            let mut tag = [0u8; 32];
            tag[..t.len()].copy_from_slice(t);
            Sha256::new()
                .chain_update(tag)
                .chain_update(salt)
                .chain_update(5u32.to_le_bytes())
                .chain_update(9u32.to_le_bytes())
                .chain_update([3u8; 16])
                .finalize()
                .into()
        };
        assert_eq!(child(&dom, 5, 9, &[3; 16]), whole(TREE_TAG)[..16]);
        assert_eq!(leaf(&dom, 5, 9, &[3; 16]).1, whole(LEAF_PRG_TAG));
    }
}
