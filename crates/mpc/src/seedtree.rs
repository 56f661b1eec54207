//! GGM seed trees: `n` leaf seeds derived from one root seed, so that all leaves but a few
//! hidden ones can be revealed with about `h·log2(n/h)` seeds instead of `n − h`.
//!
//! Shape: depth `d = ceil(log2 n)` (0 for `n = 1`); nodes are numbered heap-style, the root
//! is node 1 and node `v` has children `2v` and `2v + 1`; leaf `i` is node `2^d + i`. A node
//! *exists* if its subtree holds at least one leaf `i < n` (the first leaf below node `v` at
//! level `ℓ` is `(v − 2^ℓ)·2^(d−ℓ)`); seeds are only derived for existing nodes.
//!
//! Derivation: `seed(c) = SHA-256("zkg:kkw:tree:v1" ‖ salt ‖ u32le(tree) ‖ u32le(c) ‖
//! seed(⌊c/2⌋))` for every existing node `c ≥ 2`. The salt and the tree number (which tree of
//! the proof this is) make every derivation in every proof distinct.
//!
//! Revealing all leaves except a set `H` of hidden ones: a node is *tainted* if its subtree
//! holds a hidden leaf. The revealed nodes are the existing, untainted nodes whose parent is
//! tainted, in increasing node number; if `H` is empty, the root alone. No seed of a tainted
//! node is ever sent, so the hidden leaves stay pseudorandom given the revealed seeds.

use sha2::{Digest as _, Sha256};

/// A 256-bit seed.
pub type Seed = [u8; 32];

/// Which tree of which proof: derivations are bound to both.
#[derive(Clone, Copy, Debug)]
pub struct TreeId<'a> {
    pub salt: &'a [u8; 32],
    pub tree: u32,
}

fn depth(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

fn level(v: usize) -> u32 {
    usize::BITS - 1 - v.leading_zeros()
}

/// True if node `v` of an `n`-leaf tree of depth `d` has a leaf `< n` below it.
fn exists(v: usize, n: usize, d: u32) -> bool {
    let l = level(v);
    l <= d && (v - (1usize << l)) << (d - l) < n
}

fn child(id: TreeId, c: usize, parent: &Seed) -> Seed {
    let mut h = Sha256::new();
    h.update(b"zkg:kkw:tree:v1");
    h.update(id.salt);
    h.update(id.tree.to_le_bytes());
    h.update((c as u32).to_le_bytes());
    h.update(parent);
    h.finalize().into()
}

/// Every node seed of a tree (index = node number; `None` for non-existing nodes and
/// index 0).
pub struct SeedTree {
    n: usize,
    d: u32,
    nodes: Vec<Option<Seed>>,
}

impl SeedTree {
    /// Expands a root seed into a tree of `n ≥ 1` leaves.
    pub fn new(root: &Seed, n: usize, id: TreeId) -> Self {
        assert!(n >= 1, "seed tree of no leaves");
        let d = depth(n);
        let size = 2usize << d;
        let mut nodes = vec![None; size];
        nodes[1] = Some(*root);
        for c in 2..size {
            if exists(c, n, d) {
                let p = nodes[c / 2].expect("parent of an existing node exists");
                nodes[c] = Some(child(id, c, &p));
            }
        }
        SeedTree { n, d, nodes }
    }

    /// The leaf seeds, in order.
    pub fn leaves(&self) -> Vec<Seed> {
        let base = 1usize << self.d;
        (0..self.n)
            .map(|i| self.nodes[base + i].expect("leaf exists"))
            .collect()
    }

    /// The seeds revealing every leaf except the `hidden` ones (see [`reveal_nodes`]).
    pub fn reveal(&self, hidden: &[usize]) -> Vec<Seed> {
        reveal_nodes(self.n, hidden)
            .into_iter()
            .map(|v| self.nodes[v].expect("revealed nodes exist"))
            .collect()
    }
}

/// The node numbers that reveal every leaf of an `n`-leaf tree except `hidden` (distinct,
/// each `< n`), in the order their seeds are sent.
pub fn reveal_nodes(n: usize, hidden: &[usize]) -> Vec<usize> {
    let d = depth(n);
    if hidden.is_empty() {
        return vec![1];
    }
    let size = 2usize << d;
    let mut tainted = vec![false; size];
    for &h in hidden {
        let mut v = (1usize << d) + h;
        while v >= 1 && !tainted[v] {
            tainted[v] = true;
            v /= 2;
        }
    }
    (2..size)
        .filter(|&v| tainted[v / 2] && !tainted[v] && exists(v, n, d))
        .collect()
}

/// The most nodes [`reveal_nodes`] returns for `hidden` distinct hidden leaves of an
/// `n`-leaf tree (whichever they are): 1 for none; otherwise a revealed node's parent is an
/// ancestor of a hidden leaf with one hidden-side child, so level `ℓ` (the root's children
/// being level 1) reveals at most `min(hidden, 2^{ℓ−1})` nodes:
/// `Σ_{ℓ=1..depth} min(hidden, 2^{ℓ−1})`. Exact for one hidden leaf (`⌈log2 n⌉`).
pub fn max_reveal_nodes(n: usize, hidden: usize) -> usize {
    if hidden == 0 {
        return 1;
    }
    (1..=depth(n))
        .map(|l| hidden.min(1usize << (l - 1).min(usize::BITS - 2)))
        .sum()
}

/// Rebuilds the leaves of an `n`-leaf tree from the seeds of [`SeedTree::reveal`]: `Some`
/// for every revealed leaf, `None` for the hidden ones. `None` overall if `hidden` is not a
/// set of distinct leaves `< n` or the number of seeds is not exactly right.
pub fn reconstruct(
    n: usize,
    hidden: &[usize],
    seeds: &[Seed],
    id: TreeId,
) -> Option<Vec<Option<Seed>>> {
    if n == 0 || hidden.iter().any(|&h| h >= n) {
        return None;
    }
    let mut seen = hidden.to_vec();
    seen.sort_unstable();
    if seen.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let pos = reveal_nodes(n, hidden);
    if pos.len() != seeds.len() {
        return None;
    }
    let d = depth(n);
    let size = 2usize << d;
    let mut nodes: Vec<Option<Seed>> = vec![None; size];
    for (&v, s) in pos.iter().zip(seeds) {
        nodes[v] = Some(*s);
    }
    for c in 2..size {
        if nodes[c].is_none() && exists(c, n, d) {
            if let Some(p) = nodes[c / 2] {
                nodes[c] = Some(child(id, c, &p));
            }
        }
    }
    let base = 1usize << d;
    Some((0..n).map(|i| nodes[base + i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn max_reveal_nodes_bounds_every_reveal() {
        for n in 1usize..=10 {
            for mask in 0u32..(1 << n) {
                let hidden: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
                let got = reveal_nodes(n, &hidden).len();
                assert!(
                    got <= max_reveal_nodes(n, hidden.len()),
                    "n {n} hidden {hidden:?}"
                );
            }
            if n > 1 {
                let worst = (0..n).map(|i| reveal_nodes(n, &[i]).len()).max().unwrap();
                assert_eq!(worst, max_reveal_nodes(n, 1), "n {n}");
            }
        }
    }

    /// The plain list: every leaf derived by walking from the root down its own path,
    /// one derivation per level, without building a tree.
    fn plain_leaves(root: &Seed, n: usize, id: TreeId) -> Vec<Seed> {
        let d = depth(n);
        (0..n)
            .map(|i| {
                let leaf = (1usize << d) + i;
                let mut s = *root;
                for l in (0..d).rev() {
                    s = child(id, leaf >> l, &s);
                }
                s
            })
            .collect()
    }

    /// Smallest number of existing, pairwise disjoint subtrees free of hidden leaves that
    /// cover every other leaf, by trying every set of nodes (tiny trees only).
    fn brute_min_cover(n: usize, hidden: &[usize]) -> usize {
        let d = depth(n);
        let size = 2usize << d;
        let leaves_of = |v: usize| -> Vec<usize> {
            let l = level(v);
            let first = (v - (1 << l)) << (d - l);
            (first..first + (1 << (d - l))).filter(|&x| x < n).collect()
        };
        let want: Vec<usize> = (0..n).filter(|i| !hidden.contains(i)).collect();
        let mut best = usize::MAX;
        for mask in 0u32..(1 << (size - 1)) {
            let nodes: Vec<usize> = (1..size).filter(|v| mask >> (v - 1) & 1 == 1).collect();
            if nodes.len() >= best {
                continue;
            }
            let mut cover: Vec<usize> = Vec::new();
            let mut ok = true;
            for &v in &nodes {
                let ls = leaves_of(v);
                if ls.is_empty() || ls.iter().any(|x| hidden.contains(x) || cover.contains(x)) {
                    ok = false;
                    break;
                }
                cover.extend(ls);
            }
            cover.sort_unstable();
            if ok && cover == want {
                best = nodes.len();
            }
        }
        best
    }

    #[test]
    fn tree_leaves_equal_the_plain_list() {
        let mut rng = seeded_rng(1);
        for n in (1..70).chain([127, 128, 129, 250, 462, 631]) {
            let root = zkgames_core::rng::random_32(&mut rng);
            let salt = zkgames_core::rng::random_32(&mut rng);
            let id = TreeId {
                salt: &salt,
                tree: rng.gen(),
            };
            assert_eq!(
                SeedTree::new(&root, n, id).leaves(),
                plain_leaves(&root, n, id)
            );
        }
    }

    #[test]
    fn reveal_and_reconstruct_against_the_plain_list() {
        let mut rng = seeded_rng(2);
        for case in 0..600 {
            let n = if case < 400 {
                rng.gen_range(1..40)
            } else {
                rng.gen_range(40..700)
            };
            let k = rng.gen_range(0..=n.min(40));
            let mut all: Vec<usize> = (0..n).collect();
            all.shuffle(&mut rng);
            let hidden = &all[..k];
            let root = zkgames_core::rng::random_32(&mut rng);
            let salt = zkgames_core::rng::random_32(&mut rng);
            let id = TreeId {
                salt: &salt,
                tree: 7,
            };
            let t = SeedTree::new(&root, n, id);
            let plain = plain_leaves(&root, n, id);
            let seeds = t.reveal(hidden);
            let got = reconstruct(n, hidden, &seeds, id).unwrap();
            for i in 0..n {
                if hidden.contains(&i) {
                    assert_eq!(got[i], None, "hidden leaf {i} of {n} recovered");
                } else {
                    assert_eq!(got[i], Some(plain[i]), "leaf {i} of {n}");
                }
            }
            // no revealed seed equals a hidden leaf or any node above one
            for s in &seeds {
                for &h in hidden {
                    assert_ne!(*s, plain[h]);
                }
            }
            // the count is the minimum, and small
            if n <= 8 {
                assert_eq!(
                    seeds.len(),
                    brute_min_cover(n, hidden),
                    "n {n} hidden {hidden:?}"
                );
            }
            if k >= 1 {
                let bound = k * (depth(n) as usize).max(1);
                assert!(
                    seeds.len() <= bound,
                    "{} seeds for n {n}, k {k}",
                    seeds.len()
                );
            }
            // a wrong count is refused; another tree number derives other leaves
            if !seeds.is_empty() {
                assert!(reconstruct(n, hidden, &seeds[1..], id).is_none());
                let other = TreeId {
                    salt: &salt,
                    tree: 8,
                };
                let g2 = reconstruct(n, hidden, &seeds, other).unwrap();
                let sent = reveal_nodes(n, hidden);
                for i in 0..n {
                    if !hidden.contains(&i) && !sent.contains(&((1 << depth(n)) + i)) {
                        assert_ne!(g2[i], got[i]);
                    }
                }
            }
            let mut longer = seeds.clone();
            longer.push([0; 32]);
            assert!(reconstruct(n, hidden, &longer, id).is_none());
        }
    }

    #[test]
    fn all_but_one_of_a_power_of_two_costs_log_n() {
        let mut rng = seeded_rng(3);
        for logn in 0..=7u32 {
            let n = 1usize << logn;
            for p in 0..n {
                let salt = [5u8; 32];
                let id = TreeId {
                    salt: &salt,
                    tree: 1,
                };
                let t = SeedTree::new(&zkgames_core::rng::random_32(&mut rng), n, id);
                let s = t.reveal(&[p]);
                assert_eq!(s.len(), logn as usize);
                let got = reconstruct(n, &[p], &s, id).unwrap();
                assert_eq!(got.iter().filter(|x| x.is_none()).count(), 1);
                assert!(got[p].is_none());
            }
        }
    }

    #[test]
    fn hostile_hidden_sets_are_refused() {
        let id = TreeId {
            salt: &[0; 32],
            tree: 0,
        };
        assert!(reconstruct(4, &[4], &[], id).is_none());
        assert!(reconstruct(4, &[1, 1], &[[0; 32]; 2], id).is_none());
        assert!(reconstruct(0, &[], &[], id).is_none());
        // hiding every leaf reveals nothing
        assert_eq!(reveal_nodes(5, &[0, 1, 2, 3, 4]), Vec::<usize>::new());
        assert_eq!(reveal_nodes(5, &[]), vec![1]);
    }
}
