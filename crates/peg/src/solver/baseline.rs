//! The previous solver, kept as the baseline of `benches/peg_solver.rs` and as an
//! independent second opinion in the tests; [`super::solve`] also hands it boards of more than
//! 128 holes (positions as boxed word arrays).
//!
//! An iterative depth-first search on `u128` bitsets (or boxed word arrays above 128 vertices),
//! with a `std` hash set of positions proved dead, stored in canonical form under the
//! symmetries; a symmetry is applied with one 256-entry table per byte of the position.
//! Before each depth-first restart a beam search keeps, one move at a time, the few thousand
//! most compact positions (most pairs of adjacent pegs). A search that ends without reaching
//! the goal is a proof of impossibility; the beam only ever proves solvability.

use std::collections::HashSet;
use std::hash::Hash;
use std::io::IsTerminal as _;
use std::time::Instant;

use super::compiled::distances;
use super::invariants::{impossible_up_front, pagodas, weigh};
use super::symmetry::valid_symmetries;
use super::{
    SolveOptions, SolveOutcome, SolveStats, Tuning, BEAM_BYTES, MAX_BEAM_WIDTH, MAX_TABLE,
    TABLE_BYTES,
};
use crate::instance::{Goal, Instance, Matrix};

/// The old solver with explicit [`Tuning`]: the same verdicts as [`super::solve_tuned`] (up to
/// the node budget), found more slowly.
pub fn solve_tuned(
    inst: &Instance,
    opts: &SolveOptions,
    tuning: &Tuning,
) -> (SolveOutcome, SolveStats) {
    let t0 = Instant::now();
    let mut stats = SolveStats::default();
    let pags = if tuning.use_pagodas {
        pagodas(inst)
    } else {
        Vec::new()
    };
    stats.pagodas = pags.len();
    if let Some(why) = impossible_up_front(inst, &pags) {
        stats.elapsed = t0.elapsed();
        return (SolveOutcome::Impossible(why), stats);
    }
    let syms = valid_symmetries(inst, &opts.symmetries);
    stats.symmetries = syms.len();
    let out = if inst.n() <= 128 {
        search::<u128>(inst, opts, tuning, &syms, &pags, &mut stats)
    } else {
        search::<Big>(inst, opts, tuning, &syms, &pags, &mut stats)
    };
    stats.elapsed = t0.elapsed();
    (out, stats)
}

/// Bitset states.
trait Bits: Clone + Eq + Hash + Ord {
    /// Precomputed data to apply one permutation quickly.
    type Perm;
    fn from_bools(b: &[bool]) -> Self;
    fn to_bools(&self, n: usize) -> Vec<bool>;
    fn bit(&self, i: u32) -> bool;
    /// The position with the three bits flipped.
    fn flip3(&self, a: u32, b: u32, c: u32) -> Self;
    /// Bytes one stored position costs in a hash table, roughly.
    fn cost(n: usize) -> usize;
    fn count(&self) -> u32;
    /// Number of bits set in both.
    fn and_count(&self, other: &Self) -> u32;
    fn make_perm(p: &[u32]) -> Self::Perm;
    fn permute(&self, p: &Self::Perm) -> Self;
}

impl Bits for u128 {
    /// For each byte position, the image of every byte value.
    type Perm = Vec<[u128; 256]>;
    fn from_bools(b: &[bool]) -> Self {
        b.iter()
            .enumerate()
            .filter(|(_, &x)| x)
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }
    fn to_bools(&self, n: usize) -> Vec<bool> {
        (0..n).map(|i| self >> i & 1 == 1).collect()
    }
    fn bit(&self, i: u32) -> bool {
        self >> i & 1 == 1
    }
    fn flip3(&self, a: u32, b: u32, c: u32) -> Self {
        self ^ (1 << a | 1 << b | 1 << c)
    }
    fn cost(_: usize) -> usize {
        32
    }
    fn count(&self) -> u32 {
        self.count_ones()
    }
    fn and_count(&self, other: &Self) -> u32 {
        (self & other).count_ones()
    }
    fn make_perm(p: &[u32]) -> Self::Perm {
        (0..p.len().div_ceil(8))
            .map(|byte| {
                let mut t = [0u128; 256];
                for (v, e) in t.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let i = byte * 8 + bit;
                        if v >> bit & 1 == 1 && i < p.len() {
                            *e |= 1u128 << p[i];
                        }
                    }
                }
                t
            })
            .collect()
    }
    fn permute(&self, p: &Self::Perm) -> Self {
        p.iter()
            .enumerate()
            .fold(0, |acc, (k, t)| acc | t[(self >> (8 * k)) as usize & 0xFF])
    }
}

/// Bitset for `N > 128`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Big(Box<[u64]>);

impl Bits for Big {
    type Perm = Vec<u32>;
    fn from_bools(b: &[bool]) -> Self {
        let mut w = vec![0u64; b.len().div_ceil(64)];
        for (i, &x) in b.iter().enumerate() {
            if x {
                w[i / 64] |= 1 << (i % 64);
            }
        }
        Big(w.into())
    }
    fn to_bools(&self, n: usize) -> Vec<bool> {
        (0..n)
            .map(|i| self.0[i / 64] >> (i % 64) & 1 == 1)
            .collect()
    }
    fn bit(&self, i: u32) -> bool {
        self.0[i as usize / 64] >> (i % 64) & 1 == 1
    }
    fn flip3(&self, a: u32, b: u32, c: u32) -> Self {
        let mut w = self.0.clone();
        for x in [a, b, c] {
            w[x as usize / 64] ^= 1 << (x % 64);
        }
        Big(w)
    }
    fn cost(n: usize) -> usize {
        32 + 8 * n.div_ceil(64)
    }
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn and_count(&self, other: &Self) -> u32 {
        self.0
            .iter()
            .zip(other.0.iter())
            .map(|(a, b)| (a & b).count_ones())
            .sum()
    }
    fn make_perm(p: &[u32]) -> Self::Perm {
        p.to_vec()
    }
    fn permute(&self, p: &Self::Perm) -> Self {
        let mut w = vec![0u64; self.0.len()];
        for (i, &img) in p.iter().enumerate() {
            if self.0[i / 64] >> (i % 64) & 1 == 1 {
                w[img as usize / 64] |= 1 << (img % 64);
            }
        }
        Big(w.into())
    }
}

/// A fast non-cryptographic hasher for the dead-position table (keys are positions chosen by
/// the search, not by an adversary who could aim at collisions cheaply... and collisions only
/// cost time, never correctness).
#[derive(Default, Clone, Copy)]
struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        let x = self.0 ^ (self.0 >> 31);
        x.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (x >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(23) ^ i).wrapping_mul(0xA076_1D64_78BD_642F);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
}

type FastHash = std::hash::BuildHasherDefault<FastHasher>;

/// A peg on `a` jumps over `b` into `c`.
#[derive(Clone, Copy)]
struct Move {
    a: u32,
    b: u32,
    c: u32,
}

impl Move {
    fn legal<B: Bits>(&self, s: &B) -> bool {
        s.bit(self.a) && s.bit(self.b) && !s.bit(self.c)
    }
    /// Legal backwards: the position before this move can be rebuilt from `s`.
    fn undoable<B: Bits>(&self, s: &B) -> bool {
        !s.bit(self.a) && !s.bit(self.b) && s.bit(self.c)
    }
}

fn search<B: Bits>(
    inst: &Instance,
    opts: &SolveOptions,
    tuning: &Tuning,
    syms: &[Vec<u32>],
    pags: &[Vec<i64>],
    stats: &mut SolveStats,
) -> SolveOutcome {
    let n = inst.n();
    let k = pags.len();
    // Move order: first the jumps that take pegs furthest from the goal closest to it (clear
    // the periphery first), by graph distance to the goal's pegs. Each restart perturbs this
    // order with a fixed-seed generator, so runs are reproducible.
    let dist = distances(inst);
    let oriented: Vec<(u32, u32, u32)> = inst
        .triplets()
        .iter()
        .flat_map(|t| [(t[0], t[1], t[2]), (t[2], t[1], t[0])])
        .collect();
    let perms: Vec<B::Perm> = syms.iter().skip(1).map(|p| B::make_perm(p)).collect();
    let canon = |s: &B| {
        perms
            .iter()
            .map(|p| s.permute(p))
            .fold(s.clone(), |m, x| if x < m { x } else { m })
    };
    let (goal_state, goal_count) = match inst.goal() {
        Goal::Position(l) => (Some(B::from_bools(l)), inst.final_pegs() as u32),
        Goal::PegCount(c) => (None, *c as u32),
    };
    let goal_p: Vec<i64> = match inst.last() {
        Some(l) => pags.iter().map(|p| weigh(p, l)).collect(),
        None => Vec::new(),
    };
    let bar = if opts.progress && std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        Some(b)
    } else {
        None
    };
    let finish = |stats: &mut SolveStats, table: usize, nodes: u64| {
        stats.nodes = nodes;
        stats.table = table;
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
    };

    // Endgame table: every position (canonical form) with `goal + depth` pegs from which the
    // goal position is reachable, built backwards from the goal by "unjumps" level by level
    // while the table stays under ENDGAME_BYTES. The search then refuses any position with
    // that many pegs outside the table, which cuts off the bottom of dead subtrees.
    let endgame_cap = tuning.endgame_bytes / B::cost(n);
    let endgame: Option<(u32, HashSet<B, FastHash>)> = goal_state.as_ref().map(|g| {
        let mut level: HashSet<B, FastHash> = HashSet::default();
        level.insert(canon(g));
        let mut depth = 0u32;
        let unjumps: Vec<Move> = oriented.iter().map(|&(a, b, c)| Move { a, b, c }).collect();
        'grow: while goal_count + depth + 1 < inst.first().iter().filter(|&&x| x).count() as u32 {
            let mut next: HashSet<B, FastHash> = HashSet::default();
            for s in &level {
                for m in &unjumps {
                    if m.undoable(s) {
                        next.insert(canon(&s.flip3(m.a, m.b, m.c)));
                        if next.len() > endgame_cap {
                            break 'grow;
                        }
                    }
                }
            }
            level = next;
            depth += 1;
        }
        (goal_count + depth, level)
    });
    stats.endgame_depth = endgame.as_ref().map_or(0, |e| e.0 - goal_count);

    // Positions proved dead (canonical forms). Entries stay valid across restarts: they
    // depend only on the instance, the symmetries and the pagoda functions.
    let mut dead: HashSet<B, FastHash> = HashSet::default();
    let table_cap = MAX_TABLE.min(TABLE_BYTES / B::cost(n));
    let mut nodes: u64 = 0;
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    let first_p: Vec<i64> = pags.iter().map(|p| weigh(p, inst.first())).collect();
    let beam_setup = (tuning.first_beam_width > 0).then(|| Beam::new(inst, &oriented, pags));
    for restart in 0u32.. {
        if let Some(bs) = &beam_setup {
            let width = tuning
                .first_beam_width
                .saturating_mul(1 << (2 * restart.min(20)));
            if width <= MAX_BEAM_WIDTH.max(tuning.first_beam_width) {
                let ctx = BeamContext {
                    canon: &canon,
                    endgame: endgame.as_ref(),
                    dead: &dead,
                    goal_state: goal_state.as_ref(),
                    goal_count,
                    goal_p: &goal_p,
                    first_p: &first_p,
                };
                let (found, used) = bs.run(inst, &ctx, width, opts.node_budget - nodes);
                nodes += used;
                if let Some(z) = found {
                    finish(stats, dead.len(), nodes);
                    stats.beam_width = width;
                    return SolveOutcome::Solved(z);
                }
                if nodes >= opts.node_budget {
                    break;
                }
            }
        }
        let mut keyed: Vec<(i64, (u32, u32, u32))> = oriented
            .iter()
            .map(|&(a, b, c)| {
                let base = 4
                    * (dist[c as usize] as i64 - dist[a as usize] as i64 - dist[b as usize] as i64);
                let noise = if restart == 0 {
                    0
                } else {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    (rng % 7) as i64
                };
                (base + noise, (a, b, c))
            })
            .collect();
        keyed.sort_by_key(|x| x.0);
        let mut moves = Vec::with_capacity(keyed.len());
        // pagoda change of each move, k per move
        let mut delta: Vec<i64> = Vec::with_capacity(keyed.len() * k);
        for &(_, (a, b, c)) in &keyed {
            moves.push(Move { a, b, c });
            for p in pags {
                delta.push(p[c as usize] - p[a as usize] - p[b as usize]);
            }
        }
        // this restart's share of the budget: 2^restart × 200 000 nodes
        let limit = nodes
            .saturating_add(
                tuning
                    .first_restart_nodes
                    .max(1)
                    .saturating_mul(1u64 << restart.min(40)),
            )
            .min(opts.node_budget);

        // DFS stack: (state, next move index); pagoda values of each frame flattened in `pv`.
        let first = B::from_bools(inst.first());
        let mut stack: Vec<(B, usize)> = vec![(first, 0)];
        let mut pv: Vec<i64> = pags.iter().map(|p| weigh(p, inst.first())).collect();
        nodes += 1;
        loop {
            let depth = stack.len();
            let Some((state, next)) = stack.last_mut() else {
                finish(stats, dead.len(), nodes);
                return SolveOutcome::Impossible(format!(
                    "exhaustive search: no sequence of moves reaches the goal ({nodes} positions expanded)"
                ));
            };
            let reached = match &goal_state {
                Some(g) => state == g,
                None => state.count() == goal_count,
            };
            if reached {
                finish(stats, dead.len(), nodes);
                return SolveOutcome::Solved(stack.iter().map(|(s, _)| s.to_bools(n)).collect());
            }
            let mut child = None;
            if state.count() > goal_count {
                while *next < moves.len() {
                    let m = &moves[*next];
                    let mi = *next;
                    *next += 1;
                    if !m.legal(state) {
                        continue;
                    }
                    let base = (depth - 1) * k;
                    if (0..k).any(|j| pv[base + j] + delta[mi * k + j] < goal_p[j]) {
                        continue;
                    }
                    let c = state.flip3(m.a, m.b, m.c);
                    let cc = canon(&c);
                    if let Some((cnt, table)) = &endgame {
                        if c.count() == *cnt && !table.contains(&cc) {
                            continue;
                        }
                    }
                    if dead.contains(&cc) {
                        continue;
                    }
                    child = Some((c, mi));
                    break;
                }
            }
            match child {
                Some((c, mi)) => {
                    if nodes >= limit {
                        break;
                    }
                    nodes += 1;
                    if let Some(b) = &bar {
                        if nodes & 0xFFFF == 0 {
                            b.set_message(format!(
                                "{nodes} positions, {} dead, depth {depth}, restart {restart}",
                                dead.len()
                            ));
                            b.tick();
                        }
                    }
                    let base = (depth - 1) * k;
                    for j in 0..k {
                        let v = pv[base + j] + delta[mi * k + j];
                        pv.push(v);
                    }
                    stack.push((c, 0));
                }
                None => {
                    let (s, _) = stack.pop().expect("non-empty");
                    pv.truncate(stack.len() * k);
                    if dead.len() < table_cap {
                        dead.insert(canon(&s));
                    }
                }
            }
        }
        if nodes >= opts.node_budget {
            break;
        }
    }
    finish(stats, dead.len(), nodes);
    SolveOutcome::BudgetExhausted { nodes }
}

/// What a beam search may consult: the same pruning as the depth-first search.
struct BeamContext<'a, B: Bits> {
    canon: &'a dyn Fn(&B) -> B,
    endgame: Option<&'a (u32, HashSet<B, FastHash>)>,
    dead: &'a HashSet<B, FastHash>,
    goal_state: Option<&'a B>,
    goal_count: u32,
    goal_p: &'a [i64],
    /// pagoda values of the first position
    first_p: &'a [i64],
}

/// Beam search: level by level (one move per level), expand every kept position by every
/// legal move that the pruning allows, merge children equal up to symmetry, and keep the
/// `width` most compact ones: those with the most pairs of pegs on adjacent holes (two holes
/// of one triplet, one of them its middle). Compact positions keep moves available and leave
/// few stranded pegs, so a narrow beam often walks straight to the goal where the
/// depth-first search spends millions of positions in dead subtrees near the root. The beam
/// is incomplete (it forgets most positions), so it only ever proves solvability; the
/// depth-first search between rounds keeps the solver complete.
struct Beam<B: Bits> {
    moves: Vec<Move>,
    /// pagoda change of each move, `k` per move
    delta: Vec<i64>,
    k: usize,
    /// for each vertex, its adjacent holes
    near: Vec<B>,
}

impl<B: Bits> Beam<B> {
    fn new(inst: &Instance, oriented: &[(u32, u32, u32)], pags: &[Vec<i64>]) -> Self {
        let n = inst.n();
        let mut near = vec![vec![false; n]; n];
        for t in inst.triplets() {
            for (x, y) in [(t[0], t[1]), (t[1], t[2])] {
                near[x as usize][y as usize] = true;
                near[y as usize][x as usize] = true;
            }
        }
        let moves: Vec<Move> = oriented.iter().map(|&(a, b, c)| Move { a, b, c }).collect();
        let delta = moves
            .iter()
            .flat_map(|m| {
                pags.iter()
                    .map(|p| p[m.c as usize] - p[m.a as usize] - p[m.b as usize])
            })
            .collect();
        Beam {
            moves,
            delta,
            k: pags.len(),
            near: near.iter().map(|r| B::from_bools(r)).collect(),
        }
    }

    /// Twice the number of adjacent peg pairs.
    fn compactness(&self, s: &B) -> i64 {
        (0..self.near.len() as u32)
            .filter(|&v| s.bit(v))
            .map(|v| s.and_count(&self.near[v as usize]) as i64)
            .sum()
    }

    /// One beam search of the given width, expanding at most `budget` positions. Returns the
    /// solution if the beam reaches the goal, and the number of positions expanded.
    fn run(
        &self,
        inst: &Instance,
        ctx: &BeamContext<'_, B>,
        width: usize,
        budget: u64,
    ) -> (Option<Matrix>, u64) {
        let n = inst.n();
        let k = self.k;
        // memory: `width` positions on each of the S levels, plus up to 2 × width children
        // and 4 × width merged forms for the level being built
        let width = width.min(BEAM_BYTES / (B::cost(n) * (inst.s() + 6))).max(1);
        let first = B::from_bools(inst.first());
        // levels[i]: (position, index of its parent in levels[i - 1])
        let mut levels: Vec<Vec<(B, u32)>> = vec![vec![(first, u32::MAX)]];
        // pagoda values of the positions of the last level, k per position
        let mut pv: Vec<i64> = ctx.first_p.to_vec();
        let mut nodes = 0u64;
        loop {
            let cur = levels.last().expect("non-empty");
            let mut seen: HashSet<B, FastHash> = HashSet::default();
            // (score, position, parent index, move index)
            let mut next: Vec<(i64, B, u32, u32)> = Vec::new();
            for (i, (s, _)) in cur.iter().enumerate() {
                if s.count() <= ctx.goal_count {
                    continue;
                }
                for (mi, m) in self.moves.iter().enumerate() {
                    if !m.legal(s) {
                        continue;
                    }
                    if (0..k).any(|j| pv[i * k + j] + self.delta[mi * k + j] < ctx.goal_p[j]) {
                        continue;
                    }
                    let c = s.flip3(m.a, m.b, m.c);
                    let cc = (ctx.canon)(&c);
                    if let Some((cnt, table)) = ctx.endgame {
                        if c.count() == *cnt && !table.contains(&cc) {
                            continue;
                        }
                    }
                    if ctx.dead.contains(&cc) {
                        continue;
                    }
                    // past 4 × width children, stop merging: duplicates then only waste
                    // places in the beam
                    if seen.len() < 4 * width {
                        if !seen.insert(cc) {
                            continue;
                        }
                    } else if seen.contains(&cc) {
                        continue;
                    }
                    if nodes >= budget {
                        return (None, nodes);
                    }
                    nodes += 1;
                    next.push((-self.compactness(&c), c, i as u32, mi as u32));
                    if next.len() >= 2 * width {
                        next.select_nth_unstable_by_key(width, |x| x.0);
                        next.truncate(width);
                    }
                }
            }
            if next.is_empty() {
                return (None, nodes);
            }
            if next.len() > width {
                next.select_nth_unstable_by_key(width, |x| x.0);
                next.truncate(width);
            }
            let done = next.iter().position(|(_, s, _, _)| match ctx.goal_state {
                Some(g) => s == g,
                None => s.count() == ctx.goal_count,
            });
            pv = next
                .iter()
                .flat_map(|&(_, _, i, mi)| {
                    let (i, mi, pv) = (i as usize, mi as usize, &pv);
                    (0..k).map(move |j| pv[i * k + j] + self.delta[mi * k + j])
                })
                .collect();
            levels.push(next.into_iter().map(|(_, s, p, _)| (s, p)).collect());
            if let Some(mut j) = done {
                let mut rows = Vec::with_capacity(levels.len());
                for level in levels.iter().rev() {
                    rows.push(level[j].0.to_bools(n));
                    j = level[j].1 as usize;
                }
                rows.reverse();
                return (Some(rows), nodes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::tee;

    #[test]
    fn tee_is_solved_exactly_as_example_7() {
        let (SolveOutcome::Solved(z), _) =
            solve_tuned(&tee(), &SolveOptions::default(), &Tuning::default())
        else {
            panic!()
        };
        tee().check_solution(&z).unwrap();
        let ex7 = crate::instance::tee_solution();
        assert_eq!(z, ex7, "the tee has a single solution");
    }

    #[test]
    fn u128_permutation_tables_match_bitwise() {
        let p: Vec<u32> = (0..100u32).map(|i| (i * 37 + 11) % 100).collect();
        let t = <u128 as Bits>::make_perm(&p);
        let s: u128 = 0x0123_4567_89ab_cdef_0fed_cba9_8765 & ((1u128 << 100) - 1);
        let mut want = 0u128;
        for (i, &img) in p.iter().enumerate() {
            if s >> i & 1 == 1 {
                want |= 1 << img;
            }
        }
        assert_eq!(s.permute(&t), want);
        let b = Big::from_bools(&s.to_bools(100));
        assert_eq!(
            b.permute(&Big::make_perm(&p)).to_bools(100),
            want.to_bools(100)
        );
    }
}
