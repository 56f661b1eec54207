//! An instance compiled for the search: every move and every pruning test as word masks.
//!
//! - **Moves.** Each triplet gives two oriented moves `a` over `b` into `c`. With
//!   `span = {a, b, c}` and `need = {a, b}`, the move is legal in `s` iff `s & span == need`
//!   (one AND and one compare) and the child is `s ^ span`.
//! - **Symmetries.** For a symmetry `g` (a vertex permutation, identity first) the image of
//!   the child is `g(s ^ span) = g(s) ^ g(span)`. So a search that keeps the `G` images of
//!   its position gets those of a child with `G` XORs against the precomputed `g(span)` of the
//!   move, and the canonical form (the smallest image) with `G` compares: no permutation is
//!   ever applied inside the search, whatever the symmetry group.
//! - **Pagodas.** Every generated pagoda function has 0/1 weights (see
//!   [`super::invariants::pagodas`]), so it is a mask `P` and the weight of `s` is
//!   `popcount(s & P)`. A child is refused when that weight is below the goal's. Only the
//!   pagodas whose weight the move lowers (`a` or `b` in `P`) are tested, listed per move.

use super::word::Word;
use crate::instance::{Goal, Instance};

pub struct Compiled<W: Word> {
    pub n: usize,
    /// Number of symmetries (identity first).
    pub g: usize,
    pub perms: Vec<Vec<u32>>,
    /// Oriented moves `(a, b, c)`: triplet `i` gives moves `2i` (first end to last) and `2i + 1`.
    pub abc: Vec<[u32; 3]>,
    pub span: Vec<W>,
    pub need: Vec<W>,
    /// `img[m * g + k]`: the image of `span[m]` under symmetry `k`.
    pub img: Vec<W>,
    pub first: W,
    pub first_count: u32,
    /// The goal position (for a position goal).
    pub goal_state: Option<W>,
    /// Pegs in the goal.
    pub goal_count: u32,
    /// Pagodas to test after move `m`, as `(mask, goal weight ≥ 1)`:
    /// `pag[pag_at[m]..pag_at[m + 1]]`, those whose weight the move lowers.
    pub pag_at: Vec<u32>,
    pub pag: Vec<(W, u32)>,
    /// Moves by landing hole: those landing in `c` are `into[into_at[c]..into_at[c + 1]]`.
    pub into_at: Vec<u32>,
    pub into: Vec<u32>,
    /// Moves by starting hole, likewise.
    pub from_at: Vec<u32>,
    pub from: Vec<u32>,
    /// All `n` vertices.
    pub full: W,
    /// Graph distance of each vertex to the goal's pegs (see [`distances`]).
    pub dist: Vec<i32>,
    /// For each vertex, the vertices adjacent to it (two holes of one triplet, one of them its
    /// middle); used by the beam's compactness score.
    pub near: Vec<W>,
}

impl<W: Word> Compiled<W> {
    /// Compiles `inst` with valid symmetries `syms` (identity first) and the pagoda functions
    /// to test inside the search (those with 0/1 weights).
    pub fn new(inst: &Instance, syms: &[Vec<u32>], pags: &[Vec<i64>]) -> Self {
        let n = inst.n();
        assert!(n <= W::BITS && !syms.is_empty());
        let g = syms.len();
        let abc: Vec<[u32; 3]> = inst
            .triplets()
            .iter()
            .flat_map(|t| [[t[0], t[1], t[2]], [t[2], t[1], t[0]]])
            .collect();
        let bit = |v: u32| W::bit(v);
        let span: Vec<W> = abc
            .iter()
            .map(|&[a, b, c]| bit(a) | bit(b) | bit(c))
            .collect();
        let need: Vec<W> = abc.iter().map(|&[a, b, _]| bit(a) | bit(b)).collect();
        // g(span) = {g(a), g(b), g(c)}
        let img: Vec<W> = abc
            .iter()
            .flat_map(|t| {
                syms.iter()
                    .map(move |p| t.iter().fold(W::ZERO, |x, &v| x | bit(p[v as usize])))
            })
            .collect();
        let (goal_state, goal_count) = match inst.goal() {
            Goal::Position(l) => (Some(W::from_bools(l)), inst.final_pegs() as u32),
            Goal::PegCount(c) => (None, *c as u32),
        };
        // only 0/1 pagodas (all generated ones are) with a positive goal weight
        let masks: Vec<(W, u32)> = match goal_state {
            Some(gs) => pags
                .iter()
                .filter(|p| p.len() == n && p.iter().all(|&x| x == 0 || x == 1))
                .map(|p| {
                    let b: Vec<bool> = p.iter().map(|&x| x == 1).collect();
                    let m = W::from_bools(&b);
                    (m, (gs & m).count())
                })
                .filter(|&(_, need)| need > 0)
                .collect(),
            None => Vec::new(),
        };
        let mut pag_at = vec![0u32];
        let mut pag = Vec::new();
        for &nd in &need {
            pag.extend(masks.iter().filter(|&&(p, _)| nd & p != W::ZERO));
            pag_at.push(pag.len() as u32);
        }
        let mut near = vec![W::ZERO; n];
        for t in inst.triplets() {
            for (x, y) in [(t[0], t[1]), (t[1], t[2])] {
                near[x as usize] = near[x as usize] | bit(y);
                near[y as usize] = near[y as usize] | bit(x);
            }
        }
        let index = |key: &dyn Fn(&[u32; 3]) -> u32| -> (Vec<u32>, Vec<u32>) {
            let mut at = vec![0u32; n + 1];
            for t in &abc {
                at[key(t) as usize + 1] += 1;
            }
            for v in 0..n {
                at[v + 1] += at[v];
            }
            let mut fill = at.clone();
            let mut list = vec![0u32; abc.len()];
            for (m, t) in abc.iter().enumerate() {
                let k = &mut fill[key(t) as usize];
                list[*k as usize] = m as u32;
                *k += 1;
            }
            (at, list)
        };
        let (into_at, into) = index(&|t| t[2]);
        let (from_at, from) = index(&|t| t[0]);
        let first = W::from_bools(inst.first());
        let full = W::from_bools(&vec![true; n]);
        Compiled {
            n,
            g,
            perms: syms.to_vec(),
            abc,
            span,
            need,
            img,
            first,
            first_count: first.count(),
            goal_state,
            goal_count,
            pag_at,
            pag,
            into_at,
            into,
            from_at,
            from,
            full,
            dist: distances(inst).into_iter().map(|d| d as i32).collect(),
            near,
        }
    }

    /// Number of oriented moves.
    pub fn moves(&self) -> usize {
        self.span.len()
    }

    /// The images of `s` under every symmetry, into `out` (`g` words); returns the smallest.
    pub fn images(&self, s: W, out: &mut [W]) -> W {
        let mut min = s;
        for (o, p) in out.iter_mut().zip(&self.perms) {
            *o = s.permute(p);
            min = min.min(*o);
        }
        min
    }

    /// The canonical form of `s`: its smallest image.
    pub fn canon(&self, s: W) -> W {
        self.perms.iter().map(|p| s.permute(p)).fold(s, W::min)
    }

    /// The images of the child by move `m`, from the parent's images; returns the smallest.
    #[inline(always)]
    pub fn child_images(&self, parent: &[W], m: usize, out: &mut [W]) -> W {
        let g = self.g;
        let masks = &self.img[m * g..m * g + g];
        let mut min = parent[0] ^ masks[0];
        for k in 0..g {
            let x = parent[k] ^ masks[k];
            out[k] = x;
            if x < min {
                min = x;
            }
        }
        min
    }

    /// The smallest image of the child by move `m`, from the parent's images.
    #[inline(always)]
    pub fn child_canon(&self, parent: &[W], m: usize) -> W {
        let g = self.g;
        let masks = &self.img[m * g..m * g + g];
        let mut min = parent[0] ^ masks[0];
        for k in 1..g {
            let x = parent[k] ^ masks[k];
            if x < min {
                min = x;
            }
        }
        min
    }

    /// Calls `f(m)` for every move `m` legal in `s` (which has `pegs` pegs), in no particular
    /// order: through the moves landing in each empty hole, or those starting from each peg,
    /// whichever holes are fewer.
    #[inline(always)]
    pub fn for_each_legal(&self, s: W, pegs: u32, mut f: impl FnMut(usize)) {
        if 2 * pegs as usize >= self.n {
            let mut e = !s & self.full;
            while let Some(v) = e.pop_lowest() {
                for &m in &self.into[self.into_at[v] as usize..self.into_at[v + 1] as usize] {
                    let m = m as usize;
                    if s & self.need[m] == self.need[m] {
                        f(m);
                    }
                }
            }
        } else {
            let mut p = s;
            while let Some(v) = p.pop_lowest() {
                for &m in &self.from[self.from_at[v] as usize..self.from_at[v + 1] as usize] {
                    let m = m as usize;
                    if self.legal(s, m) {
                        f(m);
                    }
                }
            }
        }
    }

    /// Calls `f(m)` for every move `m` that can be undone in `s`: `s` is the child of some
    /// position by `m`.
    #[inline(always)]
    pub fn for_each_undoable(&self, s: W, mut f: impl FnMut(usize)) {
        let mut p = s;
        while let Some(v) = p.pop_lowest() {
            for &m in &self.into[self.into_at[v] as usize..self.into_at[v + 1] as usize] {
                let m = m as usize;
                if s & self.need[m] == W::ZERO {
                    f(m);
                }
            }
        }
    }

    #[inline(always)]
    pub fn legal(&self, s: W, m: usize) -> bool {
        s & self.span[m] == self.need[m]
    }

    /// False if the child `s` of move `m` is below the goal's weight for some pagoda.
    #[inline(always)]
    pub fn pagoda_ok(&self, s: W, m: usize) -> bool {
        let list = &self.pag[self.pag_at[m] as usize..self.pag_at[m + 1] as usize];
        list.iter().all(|&(p, need)| {
            let w = s & p;
            w != W::ZERO && (need == 1 || w.count() >= need)
        })
    }

    /// True if `s` (with `goal_count` pegs) is the goal.
    pub fn is_goal(&self, s: W) -> bool {
        match self.goal_state {
            Some(gs) => s == gs,
            None => s.count() == self.goal_count,
        }
    }
}

/// Breadth-first distance of every vertex to the goal's pegs in the graph joining the
/// vertices of each triplet (for a peg-count goal: to the vertices of largest degree).
/// Unreachable vertices get distance `n`.
pub fn distances(inst: &Instance) -> Vec<u32> {
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
