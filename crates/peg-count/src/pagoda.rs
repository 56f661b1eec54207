//! Pagoda functions that prune the count of solvable positions: found per board, and given
//! by the puzzle file (`pagoda:` lines, used in all their images: [`functions`]).
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
    let mut rand = super::xorshift(0x9E37_79B9_7F4A_7C15);
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

/// The pagoda functions that prune a count: [`find`]'s, then the images under the group of
/// each function in `hints` (the puzzle's own, see
/// [`zkgames_peg::board::Puzzle::pagoda_hints`]) that is valid with weights of at most
/// [`MAX_WEIGHT`], without repeats, at most [`LANES`] in all.
///
/// Why images: a symmetry `σ` of the group maps moves to moves and fixes the finish, so if
/// `P` can reach the finish, so can `σ(P)`, and `w(σ(P)) ≥ w(finish)` for every pagoda
/// function `w`: the function `P ↦ w(σ(P))`, itself a pagoda function, holds on every
/// solvable position. A function that is not symmetric thus prunes a position whenever *some*
/// image of it falls below the finish, and the test depends only on the orbit, as a count of
/// canonical forms needs. On the English board, nine such functions (30 images) found by a
/// linear-programming search prune the level of 17 pegs from 2.05 M to 1.24 M positions,
/// where the best symmetric function alone stops.
pub(super) fn functions(
    n: usize,
    abc: &[[u32; 3]],
    group: &[Vec<u32>],
    first: u64,
    goal: u64,
    hints: &[Vec<i32>],
) -> Vec<Vec<i32>> {
    let mut ws = find(n, abc, group, first, goal);
    for w in hints.iter().filter(|w| w.len() == n) {
        for p in group {
            let image: Vec<i32> = (0..n).map(|v| w[p[v] as usize]).collect();
            if ws.len() < LANES
                && image.iter().all(|x| x.abs() <= MAX_WEIGHT)
                && is_valid(&image, abc)
                && !ws.contains(&image)
            {
                ws.push(image);
            }
        }
    }
    ws.truncate(LANES);
    ws
}

/// Pagoda functions a count evaluates at once, as the 16-bit lanes of one array (two AVX2
/// vectors, four SSE2 ones): [`find`]'s functions, and the images under the count's
/// symmetries of any the puzzle gives. Extra functions beyond it are left out (they only
/// prune). 32 rather than 16: the English board's nine functions take 31 lanes and prune its
/// level of 17 pegs to 1.24 M positions instead of 1.31 M with 15, for a per-move test that
/// costs the same with AVX2 (measured 2-3 % faster in all).
pub(super) const LANES: usize = 32;
const _: () = assert!(
    LANES <= 32,
    "Prune::keeps gathers one bit per lane in a u32"
);
/// The largest weight of a hole (in absolute value) a lane takes: 64 holes of it, and a
/// move's loss of three, stay far inside 16 bits.
pub(super) const MAX_WEIGHT: i32 = 255;

/// One value per lane.
pub(super) type Lanes = [i16; LANES];

/// The pagoda functions of a count, as the search uses them: a parent's *slack* under each
/// (its weight minus the finish's) is computed once from nibble tables, and a move is kept iff
/// its *loss* (`w(a) + w(b) − w(c) ≥ 0`, the weight it removes) is at most the slack under
/// every function: one subtraction and one sign test over all the lanes, which the compiler
/// turns into a few vector instructions. Lanes without a function have a slack no move's
/// loss reaches.
pub(super) struct Prune {
    /// `tab[i][v]`: the weights of nibble `i` of a position with value `v`, per lane.
    tab: Vec<[Lanes; 16]>,
    /// The finish's weight per lane (a large negative one in lanes without a function).
    goal: Lanes,
    /// `loss[m]`: the loss of move `m` per lane.
    loss: Vec<Lanes>,
}

impl Prune {
    /// The tables of the functions `ws` (each valid, see [`is_valid`], with weights of at most
    /// [`MAX_WEIGHT`]; at most [`LANES`] of them) on a board of `n` holes with the oriented
    /// moves `abc` and the finish `goal`.
    pub(super) fn new(ws: &[Vec<i32>], n: usize, abc: &[[u32; 3]], goal: u64) -> Prune {
        assert!(
            ws.len() <= LANES
                && ws.iter().all(|w| w.len() == n
                    && is_valid(w, abc)
                    && w.iter().all(|x| x.abs() <= MAX_WEIGHT))
        );
        let lane = |f: &dyn Fn(&[i32]) -> i32, none: i16| -> Lanes {
            std::array::from_fn(|j| ws.get(j).map_or(none, |w| f(w) as i16))
        };
        let tab = (0..n.div_ceil(4))
            .map(|i| {
                std::array::from_fn(|v| {
                    lane(
                        &|w| {
                            (0..4)
                                .filter(|&b| v >> b & 1 == 1 && 4 * i + b < n)
                                .map(|b| w[4 * i + b])
                                .sum()
                        },
                        0,
                    )
                })
            })
            .collect();
        let loss = abc
            .iter()
            .map(|&[a, b, c]| lane(&|w| w[a as usize] + w[b as usize] - w[c as usize], 0))
            .collect();
        // an empty lane's slack: above any loss (at most 3 * MAX_WEIGHT)
        let goal = lane(&|w| weigh(w, goal), -(4 * MAX_WEIGHT as i16));
        Prune { tab, goal, loss }
    }

    /// The slack of the position `s` under each function (its weight minus the finish's);
    /// negative in some lane: `s` cannot reach the finish.
    #[inline(always)]
    pub(super) fn slack(&self, s: u64) -> Lanes {
        let mut out = [0i16; LANES];
        for (k, o) in out.iter_mut().enumerate() {
            *o = -self.goal[k];
        }
        let mut x = s;
        for rows in &self.tab {
            let row = &rows[(x & 15) as usize];
            for k in 0..LANES {
                out[k] += row[k];
            }
            x >>= 4;
        }
        out
    }

    /// True if the move `m` leaves a position of slack `slack` able to reach the finish (as
    /// far as the functions tell): no lane's slack minus the move's loss is negative.
    #[inline(always)]
    pub(super) fn keeps(&self, slack: &Lanes, m: usize) -> bool {
        let loss = &self.loss[m];
        // one bit per lane and no early exit: compiled into a few vector comparisons and one
        // mask (two of 16 lanes where the caller has AVX2), no reduction
        let mut bad = 0u32;
        for k in 0..LANES {
            bad |= ((slack[k] < loss[k]) as u32) << k;
        }
        bad == 0
    }

    /// The bits of `a` whose move [`Prune::keeps`], `mv` the move of each bit: grid bits
    /// where a move starts (a direction's, as 64 bits), or the grid's
    /// [`Packed`](super::grid::Packed) form (128). Without a branch per move (which one is
    /// dropped is hard to predict).
    #[inline(always)]
    pub(super) fn kept(&self, slack: &Lanes, a: u128, mv: &[u16]) -> u128 {
        let (mut rest, mut out) = (a, a);
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            out &= !((!self.keeps(slack, mv[bit as usize] as usize) as u128) << bit);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkgames_peg::instance::Goal;

    /// The lanes agree with the weights computed one function at a time: on the English
    /// board with its own functions and their images (and every lane count up to
    /// [`LANES`]), the slack of random positions, and for every move whether the child keeps
    /// a weight of at least the finish's under every function.
    #[test]
    fn lanes_agree_with_the_weights() {
        let p = zkgames_peg::catalog::get("english").unwrap();
        let inst = p.instance();
        let Goal::Position(l) = inst.goal() else {
            panic!("a position goal")
        };
        let n = inst.n();
        let bits = |r: &[bool]| {
            r.iter()
                .enumerate()
                .fold(0u64, |a, (i, &b)| a | (b as u64) << i)
        };
        let (first, goal) = (bits(inst.first()), bits(l));
        let abc: Vec<[u32; 3]> = inst
            .triplets()
            .iter()
            .flat_map(|&[a, b, c]| [[a, b, c], [c, b, a]])
            .collect();
        let all = functions(n, &abc, &p.symmetries(), first, goal, p.pagoda_hints());
        assert!(all.len() > 8, "{}", all.len());
        let mut x = 0x853C_49E6_748F_EA9Bu64;
        for k in [1, 3, all.len()] {
            let ws = &all[..k];
            let pr = Prune::new(ws, n, &abc, goal);
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let s = x & ((1 << n) - 1);
                let sl = pr.slack(s);
                for (j, w) in ws.iter().enumerate() {
                    assert_eq!(sl[j] as i32, weigh(w, s) - weigh(w, goal));
                }
                for (m, &[a, b, c]) in abc.iter().enumerate() {
                    // only legal moves are asked about
                    if s >> a & 1 == 1 && s >> b & 1 == 1 && s >> c & 1 == 0 {
                        let child = s ^ (1 << a | 1 << b | 1 << c);
                        let want = ws.iter().all(|w| weigh(w, child) >= weigh(w, goal));
                        assert_eq!(pr.keeps(&sl, m), want, "{k} functions, move {m}");
                    }
                }
            }
        }
    }

    /// The pagoda functions found hold for every move, on every catalog board and on small
    /// random boards; on the English board one is found and rules out a fair share of the
    /// sample.
    #[test]
    fn every_pagoda_found_is_valid() {
        let mut found_any = false;
        for name in zkgames_peg::catalog::names() {
            let p = zkgames_peg::catalog::get(name).unwrap();
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
            let group = zkgames_peg::solver::valid_symmetries(inst, &p.symmetries());
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
