//! Legal wall placements of a position's graph.
//!
//! A wall removes an edge (an open slot). A single wall on edge `e` is legal iff `e` exists and
//! removing it disconnects no attached pair. A double-wall move `{e1, e2}` is legal iff the two
//! slots are distinct and free and removing both disconnects no pair. [`MoveOracle`] answers
//! both in O(1) (for a fixed number of pairs) after one O(V + E) build per pair.

use super::cut::double::{PairCut, PairCutBuilder, Workspace};
pub use super::cut::naive::Analysis;
use super::graph::Graph;

/// Why a [`MoveOracle`] could not be built: the position is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// These pairs (indices into the pair list) are not connected, or name a node `>= n`.
    Disconnected(Vec<usize>),
}

/// Per-position legality oracle for single and double walls.
#[derive(Clone, Debug)]
pub struct MoveOracle {
    m: u32,
    cuts: Vec<PairCut>,
    /// `indelible[e]`: removing `e` alone disconnects some pair.
    indelible: Vec<bool>,
    /// `involved[e]`: `e` is a red or blue candidate of some pair (else no double with it cuts
    /// unless the other edge is indelible).
    involved: Vec<bool>,
}

impl MoveOracle {
    /// Builds the oracle: one graph decomposition, then one [`PairCut`] per pair (pairs whose
    /// two nodes coincide never cut and are skipped).
    pub fn build(g: &Graph, pairs: &[(u32, u32)]) -> Result<MoveOracle, BuildError> {
        Self::build_with(g, pairs, &mut Workspace::default())
    }

    /// [`MoveOracle::build`] reusing the traversal buffers of `ws` (keep one per search
    /// thread when building oracles for many positions).
    pub fn build_with(
        g: &Graph,
        pairs: &[(u32, u32)],
        ws: &mut Workspace,
    ) -> Result<MoveOracle, BuildError> {
        let n = g.n() as u32;
        let roots = pairs.iter().map(|p| p.0).filter(|&s| s < n);
        let mut builder = PairCutBuilder::with_workspace(g, std::mem::take(ws), roots);
        let result = Self::build_pairs(g, pairs, &mut builder);
        *ws = builder.into_workspace();
        result
    }

    fn build_pairs(
        g: &Graph,
        pairs: &[(u32, u32)],
        builder: &mut PairCutBuilder,
    ) -> Result<MoveOracle, BuildError> {
        let n = g.n() as u32;
        let mut bad = Vec::new();
        let mut cuts = Vec::with_capacity(pairs.len());
        for (i, &(s, t)) in pairs.iter().enumerate() {
            if s >= n || t >= n {
                bad.push(i);
                continue;
            }
            if s == t {
                continue;
            }
            match builder.build(s, t) {
                Some(c) => cuts.push(c),
                None => bad.push(i),
            }
        }
        if !bad.is_empty() {
            return Err(BuildError::Disconnected(bad));
        }
        let m = g.m();
        let mut indelible = vec![false; m];
        let mut involved = vec![false; m];
        for c in &cuts {
            for &e in &c.path_bridges {
                indelible[e as usize] = true;
            }
            for &e in c.red.iter().chain(c.blue.iter()) {
                involved[e as usize] = true;
            }
        }
        Ok(MoveOracle {
            m: m as u32,
            cuts,
            indelible,
            involved,
        })
    }

    /// Number of slots (edges) of the graph.
    pub fn m(&self) -> u32 {
        self.m
    }

    /// The per-pair tables (pairs with `s == t` omitted).
    pub fn pair_cuts(&self) -> &[PairCut] {
        &self.cuts
    }

    /// Whether a single wall on slot `e` is legal (`e` exists and is not indelible).
    #[inline]
    pub fn is_legal_single(&self, e: u32) -> bool {
        e < self.m && !self.indelible[e as usize]
    }

    /// Whether walling both `e1` and `e2` is legal: distinct existing slots, each legal alone,
    /// and no pair disconnected by the two together. O(number of pairs).
    #[inline]
    pub fn is_legal_double(&self, e1: u32, e2: u32) -> bool {
        if e1 == e2 || !self.is_legal_single(e1) || !self.is_legal_single(e2) {
            return false;
        }
        if !self.involved[e1 as usize] || !self.involved[e2 as usize] {
            return true;
        }
        !self.cuts.iter().any(|c| c.cuts(e1, e2))
    }

    /// The legal single walls, increasing.
    pub fn legal_singles(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.m).filter(move |&e| !self.indelible[e as usize])
    }

    /// The indelible (illegal single) walls, increasing.
    pub fn illegal_singles(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.m).filter(move |&e| self.indelible[e as usize])
    }

    /// Every unordered pair `(a, b)`, `a < b`, of slots each legal alone but illegal together,
    /// sorted. Output-sensitive: read off each pair's interval structure, never testing all
    /// pairs of edges.
    pub fn illegal_doubles(&self) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for c in &self.cuts {
            for (r, b) in c.essential_candidate_pairs() {
                if !self.indelible[r as usize] && !self.indelible[b as usize] {
                    out.push((r.min(b), r.max(b)));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// An upper bound on `illegal_doubles().len()` in O(number of red candidates): the sum of
    /// the pairs' interval lengths, before removing indelible slots and duplicates. Lets a
    /// caller refuse to list a quadratic number of pairs (a long single cycle between a pair
    /// makes every pair of one edge from each side illegal).
    pub fn illegal_doubles_bound(&self) -> u64 {
        self.cuts
            .iter()
            .map(|c| {
                c.red_lo
                    .iter()
                    .zip(&c.red_hi)
                    .map(|(&l, &h)| (h - l) as u64)
                    .sum::<u64>()
            })
            .sum()
    }

    /// Every legal double-wall move `(a, b)`, `a < b`, in increasing order. There are Θ(m²) of
    /// them; each row `a` is computed at once from the pairs' branch-free query rows
    /// ([`PairCut::cuts_row`]), O(m · pairs) per row.
    pub fn legal_doubles(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.m)
            .filter(move |&a| !self.indelible[a as usize])
            .flat_map(move |a| {
                let mut blocked: Vec<bool> = self.indelible[a as usize + 1..].to_vec();
                if self.involved[a as usize] {
                    for c in &self.cuts {
                        for (x, cut) in blocked.iter_mut().zip(c.cuts_row(a, a + 1)) {
                            *x |= cut;
                        }
                    }
                }
                blocked
                    .into_iter()
                    .zip(a + 1..)
                    .filter_map(move |(x, b)| (!x).then_some((a, b)))
            })
    }

    /// Number of legal double-wall moves, without materialising them: the legal pairs of legal
    /// singles minus the illegal doubles. O(m + number of illegal doubles).
    pub fn count_legal_doubles(&self) -> u64 {
        let l = self.legal_singles().count() as u64;
        l * l.saturating_sub(1) / 2 - self.illegal_doubles().len() as u64
    }
}

/// Analyses which single walls and wall pairs are illegal, using the O(V + E) oracle (the
/// brute force [`super::cut::naive::analyze`] is the reference it is tested against). A pair
/// naming a node `>= n` counts as disconnected.
pub fn analyze(g: &Graph, pairs: &[(u32, u32)]) -> Analysis {
    analyze_bounded(g, pairs, u64::MAX).expect("no bound")
}

/// [`analyze`], refusing (with the bound found) when more than `max_pairs` illegal pairs
/// might have to be listed. Untrusted positions go through this.
pub fn analyze_bounded(g: &Graph, pairs: &[(u32, u32)], max_pairs: u64) -> Result<Analysis, u64> {
    Ok(match MoveOracle::build(g, pairs) {
        Ok(o) => {
            let bound = o.illegal_doubles_bound();
            if bound > max_pairs {
                return Err(bound);
            }
            Analysis {
                valid: true,
                cut_pairs: Vec::new(),
                illegal_single: o.illegal_singles().collect(),
                illegal_pairs: o.illegal_doubles(),
            }
        }
        Err(BuildError::Disconnected(cut_pairs)) => Analysis {
            valid: false,
            cut_pairs,
            illegal_single: Vec::new(),
            illegal_pairs: Vec::new(),
        },
    })
}
