//! Impossibility proofs that need no search, and the pagoda functions that also prune it.
//!
//! - **Position classes.** A map `w: vertices → GF(2)` with `w(a) + w(b) + w(c) = 0` for every
//!   triplet makes `Σ w(v)·peg(v) mod 2` invariant, since a move flips exactly the three bits
//!   of a triplet. Such `w` form the null space of the triplet incidence matrix; if one of
//!   them separates the first and the final position, no solution exists
//!   ([`position_class_witness`] returns it, so the claim can be checked independently).
//!   Every position reachable from the start is in the start's class, so inside a search the
//!   classes prune nothing: they are used once, up front.
//! - **Pagoda functions.** Weights `p ≥ 0` with `p(a) + p(b) ≥ p(c)` for every move `a` over
//!   `b` into `c` (both orientations of every triplet) make `Σ p·pegs` non-increasing. Any
//!   candidate is checked for this condition before use; candidates are generated from the
//!   instance (see [`pagodas`]). They also prune the search: a position whose weight is below
//!   the goal's cannot reach it.

use std::collections::HashSet;

use crate::instance::Instance;

/// The reason no solution exists, if a position class or a pagoda function proves it.
pub(crate) fn impossible_up_front(inst: &Instance, pags: &[Vec<i64>]) -> Option<String> {
    if let Some(w) = position_class_witness(inst) {
        let k = w.iter().filter(|&&b| b).count();
        let pf = parity(&w, inst.first());
        let pl = parity(&w, inst.last().unwrap_or(&[]));
        return Some(format!(
            "position classes: every line of three holes meets a certain set of {k} holes in 0 or 2 holes, so no move changes the parity of the number of pegs on that set, yet it is {} at the start and {} at the finish",
            if pf { "odd" } else { "even" },
            if pl { "odd" } else { "even" }
        ));
    }
    let l = inst.last()?;
    for p in pags {
        let (a, b) = (weigh(p, inst.first()), weigh(p, l));
        if a < b {
            return Some(format!(
                "pagoda function: a weight that no move can increase is {a} at the start but {b} at the finish"
            ));
        }
    }
    None
}

fn parity(w: &[bool], row: &[bool]) -> bool {
    w.iter().zip(row).filter(|(a, b)| **a && **b).count() % 2 == 1
}

pub(crate) fn weigh(p: &[i64], row: &[bool]) -> i64 {
    p.iter().zip(row).filter(|(_, &b)| b).map(|(w, _)| w).sum()
}

/// Work limit (in 64-bit word operations) of the Gaussian elimination; larger instances skip
/// the position-class test.
const GF2_WORK_LIMIT: u128 = 1 << 31;

/// A position-class invariant separating the first and final positions, if one exists:
/// `w` with `w(a) ⊕ w(b) ⊕ w(c) = 0` for every triplet and `Σ w·f ≠ Σ w·l (mod 2)`.
/// `None` when the goal is a peg count, when no such `w` exists, or when the instance is too
/// large for the elimination (the test is then simply skipped).
pub fn position_class_witness(inst: &Instance) -> Option<Vec<bool>> {
    let l = inst.last()?;
    let n = inst.n();
    let words = n.div_ceil(64);
    if (words as u128) * (inst.t() as u128) * (n.min(inst.t()) as u128 + 1) > GF2_WORK_LIMIT {
        return None;
    }
    // Reduced row echelon basis of the row space of the incidence matrix.
    let mut rows: Vec<Vec<u64>> = Vec::new();
    let mut pivots: Vec<usize> = Vec::new();
    let get = |r: &[u64], j: usize| r[j / 64] >> (j % 64) & 1 == 1;
    for t in inst.triplets() {
        let mut r = vec![0u64; words];
        for &x in t {
            r[x as usize / 64] ^= 1 << (x % 64);
        }
        for (i, &p) in pivots.iter().enumerate() {
            if get(&r, p) {
                for (a, b) in r.iter_mut().zip(&rows[i]) {
                    *a ^= b;
                }
            }
        }
        let Some(p) = (0..n).find(|&j| get(&r, j)) else {
            continue;
        };
        for old in rows.iter_mut() {
            if get(old, p) {
                for (a, b) in old.iter_mut().zip(&r) {
                    *a ^= b;
                }
            }
        }
        rows.push(r);
        pivots.push(p);
    }
    // Null space basis: one vector per free column j: w_j = 1, w_p = row_p[j] for each pivot p.
    let is_pivot: HashSet<usize> = pivots.iter().copied().collect();
    let f = inst.first();
    for j in (0..n).filter(|j| !is_pivot.contains(j)) {
        let mut w = vec![false; n];
        w[j] = true;
        for (i, &p) in pivots.iter().enumerate() {
            w[p] = get(&rows[i], j);
        }
        if parity(&w, f) != parity(&w, l) {
            return Some(w);
        }
    }
    None
}

/// True if `p` is a pagoda function for `inst`: non-negative, and `p(a) + p(b) ≥ p(c)` for
/// every jump of a peg from `a` over `b` into `c`, in both orientations of every triplet.
pub fn is_pagoda(inst: &Instance, p: &[i64]) -> bool {
    p.len() == inst.n()
        && p.iter().all(|&x| x >= 0)
        && inst.triplets().iter().all(|t| {
            let [a, b, c] = t.map(|x| p[x as usize]);
            a + b >= c && c + b >= a
        })
}

/// Valid pagoda functions useful for this instance (positive weight on the goal), generated
/// as closures: start from one vertex `v` with weight 1 and, while some jump `a` over `b`
/// lands in the weighted set from outside it, add the middle `b`. Only for goal positions;
/// every returned function passes [`is_pagoda`]. At most 16, smallest supports first.
pub fn pagodas(inst: &Instance) -> Vec<Vec<i64>> {
    let Some(l) = inst.last() else {
        return Vec::new();
    };
    let n = inst.n();
    if n > 4096 {
        return Vec::new();
    }
    // for each vertex c: the (a, b) of jumps landing in c
    let mut into: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for t in inst.triplets() {
        into[t[2] as usize].push((t[0], t[1]));
        into[t[0] as usize].push((t[2], t[1]));
    }
    let mut found: Vec<Vec<i64>> = Vec::new();
    let mut seen: HashSet<Vec<bool>> = HashSet::new();
    for v in 0..n {
        let mut inset = vec![false; n];
        inset[v] = true;
        let mut queue = vec![v as u32];
        while let Some(c) = queue.pop() {
            for &(a, b) in &into[c as usize] {
                if !inset[a as usize] && !inset[b as usize] {
                    inset[b as usize] = true;
                    queue.push(b);
                }
            }
        }
        let size = inset.iter().filter(|&&x| x).count();
        if size == n || !inset.iter().zip(l).any(|(a, b)| *a && *b) || !seen.insert(inset.clone()) {
            continue;
        }
        let p: Vec<i64> = inset.iter().map(|&x| x as i64).collect();
        if is_pagoda(inst, &p) {
            found.push(p);
        }
    }
    found.sort_by_key(|p| p.iter().sum::<i64>());
    found.truncate(16);
    found
}
