//! Symmetries of a search: vertex permutations that map moves to moves and fix the goal.

use std::collections::HashSet;

use crate::instance::{Goal, Instance};

/// The candidate permutations that are symmetries of the search: permutations of the
/// vertices mapping the moves onto themselves (each triplet to a triplet with the image of its
/// middle as middle and the images of its ends as ends) and fixing the goal position.
/// The identity is always first.
pub fn valid_symmetries(inst: &Instance, cands: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let n = inst.n();
    let id: Vec<u32> = (0..n as u32).collect();
    let mut out = vec![id];
    // A move is a triplet up to reversal: (middle, smaller end, larger end). Mapping only the
    // vertex sets is not enough: a symmetry must send middles to middles.
    let key = |t: [u32; 3]| (t[1], t[0].min(t[2]), t[0].max(t[2]));
    let set: HashSet<(u32, u32, u32)> = inst.triplets().iter().map(|t| key(*t)).collect();
    for p in cands {
        if p.len() != n || out.contains(p) {
            continue;
        }
        let mut seen = vec![false; n];
        if !p
            .iter()
            .all(|&x| (x as usize) < n && !std::mem::replace(&mut seen[x as usize], true))
        {
            continue;
        }
        let keeps_triplets = inst
            .triplets()
            .iter()
            .all(|t| set.contains(&key(t.map(|x| p[x as usize]))));
        let keeps_goal = match inst.goal() {
            Goal::Position(l) => (0..n).all(|v| l[v] == l[p[v] as usize]),
            Goal::PegCount(_) => true,
        };
        if keeps_triplets && keeps_goal {
            out.push(p.clone());
        }
    }
    out
}
