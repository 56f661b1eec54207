//! A peg solitaire solver for any [`Instance`] (generic over triplets, not tied to a board).
//!
//! Before searching it tries two impossibility proofs:
//! - **Position classes.** A map `w: vertices → GF(2)` with `w(a) + w(b) + w(c) = 0` for every
//!   triplet makes `Σ w(v)·peg(v) mod 2` invariant, since a move flips exactly the three bits
//!   of a triplet. Such `w` form the null space of the triplet incidence matrix; if one of
//!   them separates the first and the final position, no solution exists
//!   ([`position_class_witness`] returns it, so the claim can be checked independently).
//! - **Pagoda functions.** Weights `p ≥ 0` with `p(a) + p(b) ≥ p(c)` for every move `a` over
//!   `b` into `c` (both orientations of every triplet) make `Σ p·pegs` non-increasing. Any
//!   candidate is checked for this condition before use; candidates are generated from the
//!   instance (see [`pagodas`]). They also prune the search.
//!
//! The search is an iterative depth-first search on bitset states (`u128` for `N ≤ 128`,
//! a boxed word array above), with a transposition table of positions proved dead, stored
//! in canonical form under the symmetries that map moves to moves and fix the goal.
//! A search that ends without reaching the goal is itself a proof of impossibility.
//!
//! Depth-first search alone drowns in the dead subtrees of large boards (the 44-peg central
//! game on Wiegleb's 45-hole board exhausts 20 million nodes). So before each depth-first
//! restart a beam search runs (see `Beam`): it keeps, one move at a time, the few thousand
//! most compact positions (most pairs of adjacent pegs), with the same pruning as the
//! depth-first search, and finds that game after about 270 000 positions. The beam cannot
//! prove impossibility; the restarts, whose dead-position table persists across rounds and
//! also prunes the beams, keep the search complete.

use std::collections::HashSet;
use std::hash::Hash;
use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use super::instance::{Goal, Instance, Matrix};

/// Search settings.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Maximum number of positions expanded before giving up.
    pub node_budget: u64,
    /// Show a spinner on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// Candidate symmetries as vertex permutations (`p[v]` = image of `v`), e.g. from
    /// [`crate::peg::board::Puzzle::symmetries`]. Invalid ones (not a permutation, not
    /// mapping moves to moves, or moving the goal position) are ignored, so passing a
    /// wrong list costs pruning power, never correctness.
    pub symmetries: Vec<Vec<u32>>,
}

/// Default node budget: enough for the catalog, small enough to bound memory (the dead-position
/// table is capped separately).
pub const DEFAULT_BUDGET: u64 = 20_000_000;
/// The dead-position table stops growing beyond this many entries (or [`TABLE_BYTES`]).
pub const MAX_TABLE: usize = 1 << 24;
/// Memory for the endgame table (positions near the goal, see [`solve`]): 2 MiB, i.e. 65 536
/// positions of at most 128 vertices; larger tables cost more to build than they save.
pub const ENDGAME_BYTES: usize = 1 << 21;
/// Widest beam search. A round keeps this many positions per level, for every level of the
/// game, plus their children for one level: about 2 KiB per kept position on a 45-hole board.
pub const MAX_BEAM_WIDTH: usize = 1 << 14;
/// Memory for one beam search, 256 MiB.
pub const BEAM_BYTES: usize = 1 << 28;
/// Memory for the dead-position table, 512 MiB.
pub const TABLE_BYTES: usize = 1 << 29;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            node_budget: DEFAULT_BUDGET,
            progress: false,
            symmetries: Vec::new(),
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A valid solution matrix.
    Solved(Matrix),
    /// A proof that no solution exists, in words.
    Impossible(String),
    /// The node budget ran out first.
    BudgetExhausted { nodes: u64 },
}

/// Counters of one run.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    /// Positions expanded.
    pub nodes: u64,
    /// Entries of the dead-position table at the end.
    pub table: usize,
    /// Symmetries used (identity included).
    pub symmetries: usize,
    /// Valid pagoda functions used for pruning.
    pub pagodas: usize,
    /// Depth of the endgame table (moves before the goal covered by a backward search).
    pub endgame_depth: u32,
    /// Width of the beam search that found the solution; 0 if none did.
    pub beam_width: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Solves `inst`; see the module documentation.
pub fn solve(inst: &Instance, opts: &SolveOptions) -> SolveOutcome {
    solve_with_stats(inst, opts).0
}

/// [`solve`] with counters.
pub fn solve_with_stats(inst: &Instance, opts: &SolveOptions) -> (SolveOutcome, SolveStats) {
    solve_tuned(inst, opts, &Tuning::default())
}

/// Internal knobs of the search, for tests and experiments. Every setting is sound: they
/// change speed, never the verdict (up to the node budget).
#[derive(Clone, Debug)]
pub struct Tuning {
    /// Memory for the endgame table; 0 disables it.
    pub endgame_bytes: usize,
    /// Use pagoda functions (for the up-front proof and for pruning).
    pub use_pagodas: bool,
    /// Node budget of the first restart (each restart doubles it).
    pub first_restart_nodes: u64,
    /// Width of the first beam search (see [`solve`]); each round multiplies it by 4, up to
    /// [`MAX_BEAM_WIDTH`]. 0 disables the beam searches.
    pub first_beam_width: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            endgame_bytes: ENDGAME_BYTES,
            use_pagodas: true,
            first_restart_nodes: 200_000,
            first_beam_width: 64,
        }
    }
}

/// [`solve_with_stats`] with explicit [`Tuning`].
pub fn solve_tuned(
    inst: &Instance,
    opts: &SolveOptions,
    tuning: &Tuning,
) -> (SolveOutcome, SolveStats) {
    let t0 = Instant::now();
    let mut stats = SolveStats::default();
    if let Some(w) = position_class_witness(inst) {
        let k = w.iter().filter(|&&b| b).count();
        let pf = parity(&w, inst.first());
        let pl = parity(&w, inst.last().unwrap_or(&[]));
        stats.elapsed = t0.elapsed();
        return (
            SolveOutcome::Impossible(format!(
                "position classes: every line of three holes meets a certain set of {k} holes in 0 or 2 holes, so no move changes the parity of the number of pegs on that set, yet it is {} at the start and {} at the finish",
                if pf { "odd" } else { "even" },
                if pl { "odd" } else { "even" }
            )),
            stats,
        );
    }
    let pags = if tuning.use_pagodas {
        pagodas(inst)
    } else {
        Vec::new()
    };
    stats.pagodas = pags.len();
    if let Some(l) = inst.last() {
        for p in &pags {
            let (a, b) = (weigh(p, inst.first()), weigh(p, l));
            if a < b {
                stats.elapsed = t0.elapsed();
                return (
                    SolveOutcome::Impossible(format!(
                        "pagoda function: a weight that no move can increase is {a} at the start but {b} at the finish"
                    )),
                    stats,
                );
            }
        }
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

fn parity(w: &[bool], row: &[bool]) -> bool {
    w.iter().zip(row).filter(|(a, b)| **a && **b).count() % 2 == 1
}

fn weigh(p: &[i64], row: &[bool]) -> i64 {
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

/// Breadth-first distance of every vertex to the goal's pegs in the graph joining the
/// vertices of each triplet (for a peg-count goal: to the vertices of largest degree).
/// Unreachable vertices get distance `n`.
fn distances(inst: &Instance) -> Vec<u32> {
    let n = inst.n();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for t in inst.triplets() {
        for &x in t {
            for &y in t {
                if x != y {
                    adj[x as usize].push(y);
                }
            }
        }
    }
    let sources: Vec<usize> = match inst.last() {
        Some(l) => (0..n).filter(|&v| l[v]).collect(),
        None => {
            let m = adj.iter().map(|a| a.len()).max().unwrap_or(0);
            (0..n).filter(|&v| adj[v].len() == m).collect()
        }
    };
    let mut d = vec![n as u32; n];
    let mut q = std::collections::VecDeque::new();
    for s in sources {
        d[s] = 0;
        q.push_back(s);
    }
    while let Some(v) = q.pop_front() {
        for &y in &adj[v] {
            if d[y as usize] == n as u32 {
                d[y as usize] = d[v] + 1;
                q.push_back(y as usize);
            }
        }
    }
    d
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
    use crate::peg::instance::tee;

    #[test]
    fn tee_is_solved_exactly_as_example_7() {
        let SolveOutcome::Solved(z) = solve(&tee(), &SolveOptions::default()) else {
            panic!()
        };
        tee().check_solution(&z).unwrap();
        let ex7 = crate::peg::instance::tee_solution();
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
