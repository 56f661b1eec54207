//! Merkle trees over commitments, with compact multi-leaf openings.
//!
//! A round of a sigma protocol commits to many values; sending every commitment is the
//! "naive encoding". Instead the round is summarized by the Merkle root of its commitments
//! and each response carries only the sibling hashes needed to recompute that root from the
//! opened leaves. The verifier never receives the roots: it recomputes them from the
//! responses and feeds them to Fiat–Shamir, which binds the prover to them.
//!
//! Tree shape: level 0 is the leaves; each level pairs nodes `(2i, 2i+1)` into
//! `SHA-256(0x01 ‖ left ‖ right)`; an odd last node is carried up unchanged. The root of a
//! single leaf is that leaf. Leaves are themselves domain-separated commitments, so the
//! `0x01` prefix keeps internal nodes apart from them.

use sha2::{Digest as _, Sha256};

use crate::commit::Digest;

fn node(l: &Digest, r: &Digest) -> Digest {
    let mut h = Sha256::new();
    h.update([1u8]);
    h.update(l);
    h.update(r);
    h.finalize().into()
}

/// The root of a non-empty list of leaves.
pub fn root(leaves: &[Digest]) -> Digest {
    assert!(!leaves.is_empty(), "Merkle tree of no leaves");
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = next_level(&level);
    }
    level[0]
}

fn next_level(level: &[Digest]) -> Vec<Digest> {
    level
        .chunks(2)
        .map(|c| {
            if c.len() == 2 {
                node(&c[0], &c[1])
            } else {
                c[0]
            }
        })
        .collect()
}

/// The sibling hashes needed to open the leaves at `indices` (sorted, distinct, in range),
/// in the order [`root_from_opening`] consumes them: level by level, left to right.
pub fn open(leaves: &[Digest], indices: &[usize]) -> Vec<Digest> {
    debug_assert!(indices.windows(2).all(|w| w[0] < w[1]));
    let mut proof = Vec::new();
    let mut level = leaves.to_vec();
    let mut known: Vec<usize> = indices.to_vec();
    while level.len() > 1 {
        let m = level.len();
        let mut next_known = Vec::with_capacity(known.len());
        let mut k = 0;
        while k < known.len() {
            let i = known[k];
            if i == m - 1 && m % 2 == 1 {
                // carried up unchanged
            } else if i.is_multiple_of(2) && k + 1 < known.len() && known[k + 1] == i + 1 {
                k += 1;
            } else {
                proof.push(level[i ^ 1]);
            }
            next_known.push(i / 2);
            k += 1;
        }
        known = next_known;
        level = next_level(&level);
    }
    proof
}

/// The most sibling hashes [`open`] returns for `k` distinct leaves of an `n`-leaf tree
/// (whichever `k`): per level of `m > 1` nodes, at most one per known node and one per pair,
/// `min(k_ℓ, ⌊m/2⌋)`, the known nodes `k_ℓ` being at most `min(k, m)`. A bound on what an
/// honest opening sends (a live session's frame limit), tight for `k = 1`.
pub fn max_opening_len(n: usize, k: usize) -> usize {
    let (mut m, mut known, mut total) = (n, k.min(n), 0);
    while m > 1 {
        total += known.min(m / 2);
        m = m.div_ceil(2);
        known = known.min(m);
    }
    total
}

/// Recomputes the root of an `n`-leaf tree from opened `(index, leaf)` pairs (sorted by
/// index, distinct, in range) and the sibling hashes of [`open`]. Returns `None` when the
/// indices are not sorted and in range, or the proof has too few or too many hashes.
pub fn root_from_opening(n: usize, opened: &[(usize, Digest)], proof: &[Digest]) -> Option<Digest> {
    if n == 0 || opened.is_empty() {
        return None;
    }
    if opened.windows(2).any(|w| w[0].0 >= w[1].0) || opened.last()?.0 >= n {
        return None;
    }
    let mut proof = proof.iter();
    let mut known: Vec<(usize, Digest)> = opened.to_vec();
    let mut m = n;
    while m > 1 {
        let mut next = Vec::with_capacity(known.len());
        let mut k = 0;
        while k < known.len() {
            let (i, h) = known[k];
            let parent = if i == m - 1 && m % 2 == 1 {
                h
            } else if i % 2 == 0 && k + 1 < known.len() && known[k + 1].0 == i + 1 {
                k += 1;
                node(&h, &known[k].1)
            } else {
                let s = proof.next()?;
                if i % 2 == 0 {
                    node(&h, s)
                } else {
                    node(s, &h)
                }
            };
            next.push((i / 2, parent));
            k += 1;
        }
        known = next;
        m = m.div_ceil(2);
    }
    if proof.next().is_some() {
        return None;
    }
    Some(known[0].1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn leaf(i: usize) -> Digest {
        Sha256::digest((i as u64).to_le_bytes()).into()
    }

    /// Independent reference: recursive definition on ranges.
    fn reference_root(leaves: &[Digest]) -> Digest {
        // Same shape as the level-by-level construction: pairs at each level.
        if leaves.len() == 1 {
            return leaves[0];
        }
        let mut next = Vec::new();
        let mut i = 0;
        while i < leaves.len() {
            if i + 1 < leaves.len() {
                let mut h = Sha256::new();
                h.update([1u8]);
                h.update(leaves[i]);
                h.update(leaves[i + 1]);
                next.push(h.finalize().into());
            } else {
                next.push(leaves[i]);
            }
            i += 2;
        }
        reference_root(&next)
    }

    proptest! {
        #[test]
        fn openings_recompute_the_root(n in 1usize..80, picks in proptest::collection::btree_set(0usize..80, 1..6)) {
            let leaves: Vec<Digest> = (0..n).map(leaf).collect();
            let idx: Vec<usize> = picks.into_iter().filter(|&i| i < n).collect();
            prop_assume!(!idx.is_empty());
            let r = root(&leaves);
            prop_assert_eq!(r, reference_root(&leaves));
            let proof = open(&leaves, &idx);
            let opened: Vec<(usize, Digest)> = idx.iter().map(|&i| (i, leaves[i])).collect();
            prop_assert_eq!(root_from_opening(n, &opened, &proof), Some(r));
            // a wrong leaf gives another root
            let mut bad = opened.clone();
            bad[0].1[0] ^= 1;
            prop_assert_ne!(root_from_opening(n, &bad, &proof), Some(r));
            // a missing or extra proof hash is refused
            if !proof.is_empty() {
                prop_assert_eq!(root_from_opening(n, &opened, &proof[1..]), None);
            }
            let mut longer = proof.clone();
            longer.push([0; 32]);
            prop_assert_eq!(root_from_opening(n, &opened, &longer), None);
        }
    }

    #[test]
    fn max_opening_len_bounds_every_opening() {
        // every subset of small trees, and the worst case is reached for one leaf
        for n in 1usize..=12 {
            let leaves: Vec<Digest> = (0..n).map(leaf).collect();
            for mask in 1u32..(1 << n) {
                let idx: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
                let got = open(&leaves, &idx).len();
                assert!(
                    got <= max_opening_len(n, idx.len()),
                    "n {n} indices {idx:?}"
                );
            }
            let worst = (0..n).map(|i| open(&leaves, &[i]).len()).max().unwrap();
            assert_eq!(worst, max_opening_len(n, 1), "n {n}");
        }
        assert_eq!(max_opening_len(1, 1), 0);
        assert_eq!(max_opening_len(1024, 1), 10);
    }

    #[test]
    fn rejects_bad_indices() {
        let leaves: Vec<Digest> = (0..5).map(leaf).collect();
        assert_eq!(root_from_opening(5, &[(5, leaves[0])], &[]), None);
        assert_eq!(
            root_from_opening(5, &[(2, leaves[2]), (1, leaves[1])], &[]),
            None
        );
        assert_eq!(root_from_opening(5, &[], &[]), None);
        assert_eq!(root_from_opening(0, &[(0, leaves[0])], &[]), None);
    }
}
