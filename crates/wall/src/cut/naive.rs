//! Brute force: remove the edges, run a BFS. The reference every fast method is tested against.

use crate::graph::{Bfs, Graph};

/// Whether removing `removed` disconnects some pair in `pairs` (pairs given as node pairs).
pub fn cuts_some_pair(g: &Graph, bfs: &mut Bfs, pairs: &[(u32, u32)], removed: &[u32]) -> bool {
    pairs.iter().any(|&(s, t)| !bfs.connected(g, s, t, removed))
}

/// The result of analysing a position's legal wall placements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every pair connected in the position as it stands.
    pub valid: bool,
    /// Indices (into the pair list) of the pairs that are not connected.
    pub cut_pairs: Vec<usize>,
    /// Edge ids whose removal alone disconnects some pair (indelible edges), sorted.
    pub illegal_single: Vec<u32>,
    /// Unordered edge pairs `(a, b)`, `a < b`, each legal alone, that together disconnect some
    /// pair; sorted.
    pub illegal_pairs: Vec<(u32, u32)>,
}

/// Analyses a position by brute force: O(m² · k · (n + m)).
pub fn analyze(g: &Graph, pairs: &[(u32, u32)]) -> Analysis {
    let mut bfs = Bfs::new(g.n());
    let cut_pairs: Vec<usize> = (0..pairs.len())
        .filter(|&i| !bfs.connected(g, pairs[i].0, pairs[i].1, &[]))
        .collect();
    let valid = cut_pairs.is_empty();
    let m = g.m() as u32;
    let mut illegal_single = Vec::new();
    let mut illegal_pairs = Vec::new();
    if valid {
        let single: Vec<bool> = (0..m)
            .map(|e| cuts_some_pair(g, &mut bfs, pairs, &[e]))
            .collect();
        illegal_single = (0..m).filter(|&e| single[e as usize]).collect();
        for a in 0..m {
            if single[a as usize] {
                continue;
            }
            for b in a + 1..m {
                if !single[b as usize] && cuts_some_pair(g, &mut bfs, pairs, &[a, b]) {
                    illegal_pairs.push((a, b));
                }
            }
        }
    }
    Analysis {
        valid,
        cut_pairs,
        illegal_single,
        illegal_pairs,
    }
}
