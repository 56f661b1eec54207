//! Pagoda functions that prune the count of solvable positions, found per board.
//!
//! A *pagoda function* gives each hole an integer weight `w` with `w(a) + w(b) ≥ w(c)` for
//! every move `a` over `b` into `c`: a move then never raises the total weight of the pegs, so
//! a position whose weight is below the finish's cannot reach it. Negative weights are allowed
//! (the inequality is all the argument needs). Every position that lies on a path from the
//! start to the finish passes every pagoda function, so removing the positions that fail one
//! loses no solvable position, and since a move never raises the weight, the positions that
//! pass are closed under taking parents: a search that drops the failing children still
//! reaches every passing position (see the module documentation of [`super`]).
//!
//! **How they are found.** Weights constant on the orbits of the holes under the count's
//! symmetry group (so that a position and its canonical form weigh the same, and the search
//! space is small): every assignment of small integers to the orbits is enumerated depth first,
//! checking each move's inequality as soon as its three orbits have weights, under a budget of
//! nodes; the range of weights shrinks as the number of orbits grows, and a board of too many
//! orbits gets none. The candidates that hold for every move are scored on a sample of
//! reachable positions (random games from the start, down to half the holes): a candidate is
//! worth the sampled positions it rules out. The best is kept, and a second one if it rules out
//! enough of the sample that the first let through. Which functions are found depends on the
//! sample only for how well they prune; each is checked against every move before use
//! ([`is_valid`]), so the counts never depend on it.
//!
//! Misuse: a weight vector that was not checked by [`is_valid`] may rule out a solvable
//! position and make a count wrong; only [`find`]'s output is checked.

/// Nodes of the depth-first enumeration at most (assignments of a prefix of the orbits).
const NODE_BUDGET: u64 = 1 << 20;
/// Valid candidates scored at most (each costs a pass over the sample).
const CANDIDATES: usize = 2048;
/// Sampled positions.
const SAMPLES: usize = 256;
/// A second pagoda function is kept if it rules out at least this share (1 / x) of the
/// sample that the first let through.
const SECOND_SHARE: usize = 50;

/// True if `w(a) + w(b) ≥ w(c)` for every oriented move `[a, b, c]` of `abc`.
pub(super) fn is_valid(w: &[i32], abc: &[[u32; 3]]) -> bool {
    abc.iter()
        .all(|&[a, b, c]| w[a as usize] + w[b as usize] >= w[c as usize])
}

/// The weight of the position `s` (bit `v` for hole `v`) under `w`.
pub(super) fn weigh(w: &[i32], s: u64) -> i32 {
    (0..w.len())
        .filter(|&v| s >> v & 1 == 1)
        .map(|v| w[v])
        .sum()
}

/// Up to two pagoda functions (weights per hole, each checked by [`is_valid`]) that rule out
/// positions on the way from `first` to `goal` on a board of `n ≤ 64` holes with the oriented
/// moves `abc` and the symmetry group `group` (permutations of the holes, identity first).
/// Empty when none found rules out anything of the sample.
pub(super) fn find(
    n: usize,
    abc: &[[u32; 3]],
    group: &[Vec<u32>],
    first: u64,
    goal: u64,
) -> Vec<Vec<i32>> {
    // the orbits of the holes
    let mut orbit = vec![usize::MAX; n];
    let mut r = 0;
    for v in 0..n {
        if orbit[v] == usize::MAX {
            for p in group {
                orbit[p[v] as usize] = r;
            }
            r += 1;
        }
    }
    let lo_hi = [(-3i32, 4i32), (-2, 3), (-1, 2), (0, 1)]
        .into_iter()
        .find(|&(lo, hi)| ((hi - lo + 1) as f64).powi(r as i32) <= NODE_BUDGET as f64);
    let Some((lo, hi)) = lo_hi else {
        return Vec::new();
    };
    // each move's inequality on orbits, checked at the depth of its last orbit
    let mut at_depth: Vec<Vec<[usize; 3]>> = vec![Vec::new(); r];
    let mut seen = std::collections::HashSet::new();
    for &[a, b, c] in abc {
        let t = [orbit[a as usize], orbit[b as usize], orbit[c as usize]];
        if seen.insert(t) {
            at_depth[t[0].max(t[1]).max(t[2])].push(t);
        }
    }
    let samples = sample(n, abc, first);
    // the sampled positions as peg counts per orbit, with the goal's last
    let counts = |s: u64| {
        let mut k = vec![0i32; r];
        for v in (0..n).filter(|&v| s >> v & 1 == 1) {
            k[orbit[v]] += 1;
        }
        k
    };
    let goal_k = counts(goal);
    let sample_k: Vec<Vec<i32>> = samples.iter().map(|&s| counts(s)).collect();
    let dot = |w: &[i32], k: &[i32]| w.iter().zip(k).map(|(a, b)| a * b).sum::<i32>();
    // depth-first enumeration; scored as found: the sample positions each candidate rules out
    let mut cands: Vec<(Vec<i32>, Vec<bool>)> = Vec::new();
    let mut w = vec![lo; r];
    let mut depth = 0usize;
    let mut nodes = 0u64;
    let mut scored = 0usize;
    let ok_at = |w: &[i32], d: usize| at_depth[d].iter().all(|&[a, b, c]| w[a] + w[b] >= w[c]);
    // iterative: `w[depth]` is the value being tried at `depth`
    loop {
        nodes += 1;
        if nodes > NODE_BUDGET || scored >= CANDIDATES {
            break;
        }
        let ok = ok_at(&w, depth);
        if ok && depth + 1 == r {
            scored += 1;
            let g = dot(&w, &goal_k);
            let out: Vec<bool> = sample_k.iter().map(|k| dot(&w, k) < g).collect();
            if out.iter().any(|&x| x) {
                cands.push((w.clone(), out));
            }
        }
        if ok && depth + 1 < r {
            depth += 1;
            w[depth] = lo;
            continue;
        }
        // next value at this depth, backtracking past exhausted ones
        loop {
            if w[depth] < hi {
                w[depth] += 1;
                break;
            }
            if depth == 0 {
                return choose(cands, &orbit);
            }
            depth -= 1;
        }
    }
    choose(cands, &orbit)
}

/// The best candidate, and a second one if it rules out enough of what the first lets
/// through; as weights per hole, each checked again against every move by the caller.
fn choose(cands: Vec<(Vec<i32>, Vec<bool>)>, orbit: &[usize]) -> Vec<Vec<i32>> {
    let score = |o: &[bool]| o.iter().filter(|&&x| x).count();
    let Some(best) = cands.iter().max_by_key(|c| score(&c.1)) else {
        return Vec::new();
    };
    let mut out = vec![best.0.clone()];
    let left = |o: &[bool]| o.iter().zip(&best.1).filter(|(a, b)| **a && !**b).count();
    if let Some(second) = cands.iter().max_by_key(|c| left(&c.1)) {
        if left(&second.1) * SECOND_SHARE >= best.1.len() {
            out.push(second.0.clone());
        }
    }
    out.into_iter()
        .map(|w| orbit.iter().map(|&o| w[o]).collect())
        .collect()
}

/// Positions of random games from `first` (a fixed seed: the same sample every run), from one
/// move in down to half the holes or until stuck.
fn sample(n: usize, abc: &[[u32; 3]], first: u64) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = Vec::with_capacity(SAMPLES);
    let mut legal = Vec::new();
    let mut games = 0;
    while out.len() < SAMPLES && games < 4 * SAMPLES {
        games += 1;
        let mut s = first;
        while s.count_ones() as usize > n / 2 && out.len() < SAMPLES {
            legal.clear();
            legal.extend(
                abc.iter()
                    .filter(|&&[a, b, c]| s >> a & 1 == 1 && s >> b & 1 == 1 && s >> c & 1 == 0),
            );
            if legal.is_empty() {
                break;
            }
            let [a, b, c] = legal[(rand() % legal.len() as u64) as usize];
            s ^= 1 << a | 1 << b | 1 << c;
            out.push(s);
        }
    }
    out
}

/// At most this many pagoda functions prune a count ([`find`] returns at most two).
const MOST: usize = 2;

/// The pagoda functions of a count, as the search uses them: a parent's *slack* under each
/// (its weight minus the finish's) is computed once from nibble tables, and a move is kept iff
/// its *loss* (`w(a) + w(b) − w(c) ≥ 0`, the weight it removes) is at most the slack under
/// every function. On a lattice board the kept moves of one direction are one mask per
/// function: the grid bits where a move of that direction starts with a loss of at most `s`.
pub(super) struct Prune {
    /// `tab[j][i][v]`: the weight under function `j` of nibble `i` of a position with value `v`.
    tab: Vec<Vec<[i32; 16]>>,
    /// The finish's weight under each function.
    goal: [i32; MOST],
    /// `loss[j][m]`: the loss of move `m` under function `j`.
    loss: Vec<Vec<i32>>,
    /// The largest loss of a move under each function.
    top: [i32; MOST],
    /// `le[j][i * (top[j] + 1) + s]`: the grid bits where a move of direction `i` with a loss of
    /// at most `s` under function `j` starts.
    le: Vec<Vec<u64>>,
}

impl Prune {
    /// The tables of the functions `ws` (each valid, see [`is_valid`]; at most [`MOST`]) on a
    /// board of `n` holes with the oriented moves `abc` and the finish `goal`; `dirs`, the
    /// directions of a lattice board (step, start bits, move per start bit) as the search
    /// generates moves, if it does so on a grid.
    pub(super) fn new(
        ws: &[Vec<i32>],
        n: usize,
        abc: &[[u32; 3]],
        goal: u64,
        dirs: Option<&[(i32, u64, [u16; 64])]>,
    ) -> Prune {
        assert!(ws.len() <= MOST && ws.iter().all(|w| w.len() == n && is_valid(w, abc)));
        let k = ws.len();
        let tab = ws
            .iter()
            .map(|w| {
                (0..n.div_ceil(4))
                    .map(|i| {
                        std::array::from_fn(|v| {
                            (0..4)
                                .filter(|&b| v >> b & 1 == 1 && 4 * i + b < n)
                                .map(|b| w[4 * i + b])
                                .sum()
                        })
                    })
                    .collect()
            })
            .collect();
        let loss: Vec<Vec<i32>> = ws
            .iter()
            .map(|w| {
                abc.iter()
                    .map(|&[a, b, c]| w[a as usize] + w[b as usize] - w[c as usize])
                    .collect()
            })
            .collect();
        let mut g = [0; MOST];
        let mut top = [0; MOST];
        for j in 0..k {
            g[j] = weigh(&ws[j], goal);
            top[j] = loss[j].iter().copied().max().unwrap_or(0);
        }
        let le = (0..k)
            .map(|j| {
                let Some(dirs) = dirs else {
                    return Vec::new();
                };
                let per = top[j] as usize + 1;
                let mut le = vec![0u64; dirs.len() * per];
                for (i, (_, starts, mv)) in dirs.iter().enumerate() {
                    let mut a = *starts;
                    while a != 0 {
                        let bit = a.trailing_zeros();
                        a &= a - 1;
                        let l = loss[j][mv[bit as usize] as usize] as usize;
                        for e in &mut le[i * per + l..(i + 1) * per] {
                            *e |= 1 << bit;
                        }
                    }
                }
                le
            })
            .collect();
        Prune {
            tab,
            goal: g,
            loss,
            top,
            le,
        }
    }

    /// The slack of the position `s` under each function (its weight minus the finish's);
    /// negative: `s` cannot reach the finish.
    #[inline(always)]
    pub(super) fn slack(&self, s: u64) -> [i32; MOST] {
        let mut out = [i32::MAX; MOST];
        for ((o, tab), g) in out.iter_mut().zip(&self.tab).zip(self.goal) {
            let mut x = s;
            let mut sum = 0;
            for row in tab {
                sum += row[(x & 15) as usize];
                x >>= 4;
            }
            *o = sum - g;
        }
        out
    }

    /// The grid bits of direction `i` where a move starts that leaves a position of slack
    /// `slack` able to reach the finish (as far as the functions tell).
    #[inline(always)]
    pub(super) fn allowed(&self, slack: &[i32; MOST], i: usize) -> u64 {
        let mut m = !0u64;
        for ((&s, &top), le) in slack.iter().zip(&self.top).zip(&self.le) {
            m &= if s < 0 {
                0
            } else if s >= top {
                !0
            } else {
                le[i * (top as usize + 1) + s as usize]
            };
        }
        m
    }

    /// True if the move `m` leaves a position of slack `slack` able to reach the finish (as
    /// far as the functions tell).
    #[inline(always)]
    pub(super) fn keeps(&self, slack: &[i32; MOST], m: usize) -> bool {
        self.loss.iter().zip(slack).all(|(l, &s)| l[m] <= s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peg::instance::Goal;

    /// The pagoda functions found hold for every move, on every catalog board and on small
    /// random boards; on the English board one is found and rules out a fair share of the
    /// sample.
    #[test]
    fn every_pagoda_found_is_valid() {
        let mut found_any = false;
        for name in crate::peg::catalog::names() {
            let p = crate::peg::catalog::get(name).unwrap();
            let inst = p.instance();
            let Goal::Position(l) = inst.goal() else {
                continue;
            };
            if inst.n() > 64 {
                continue;
            }
            let abc: Vec<[u32; 3]> = inst
                .triplets()
                .iter()
                .flat_map(|t| [[t[0], t[1], t[2]], [t[2], t[1], t[0]]])
                .collect();
            let group = crate::peg::solver::valid_symmetries(inst, &p.symmetries());
            let bits = |r: &[bool]| {
                r.iter()
                    .enumerate()
                    .fold(0u64, |a, (i, &b)| a | (b as u64) << i)
            };
            let ws = find(inst.n(), &abc, &group, bits(inst.first()), bits(l));
            for w in &ws {
                assert!(is_valid(w, &abc), "{name}: {w:?}");
                // a plain check, move by move
                for &[a, b, c] in &abc {
                    assert!(w[a as usize] + w[b as usize] >= w[c as usize]);
                }
            }
            found_any |= !ws.is_empty();
        }
        assert!(found_any);
    }
}
