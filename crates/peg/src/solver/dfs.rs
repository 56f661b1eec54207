//! Depth-first search with a table of dead positions, trying the most compact children first.
//!
//! Each position's children (legal moves that no pagoda function rules out) are sorted by
//! the beam's compactness score ([`super::score`]), so the search is a beam of width one that
//! backtracks: on the English board it walks almost straight to the goal. The stack keeps,
//! per depth, the position, its canonical form and its images under every symmetry (see
//! [`super::compiled`]); a child whose canonical form is in the dead table is skipped. When
//! every child of a position has been tried, the position is dead: the verdict depends only on
//! the position, so its canonical form goes into the table, which keeps its entries across
//! restarts and beam searches. At the endgame table's level a child is solved if it is in that
//! table and dead otherwise, so nothing below that level is ever expanded.
//!
//! A search that tries every child of the start proves that no solution exists. The search
//! is resumable: [`Dfs::run`] stops at a node limit and continues from the same stack when
//! called again.

use super::compiled::Compiled;
use super::endgame::Endgame;
use super::score;
use super::table::Table;
use super::word::Word;

/// How a slice of the search ended.
pub(crate) enum DfsEnd<W> {
    /// The positions from the start to the goal.
    Solved(Vec<W>),
    /// Every child of the start was tried: no solution.
    Exhausted,
    /// The node limit was reached; call [`Dfs::run`] again to continue.
    Limit,
}

pub(crate) struct Dfs<W: Word> {
    /// Peg count below which no position is expanded (the goal's, or the endgame table's
    /// last level).
    floor: u32,
    /// Noise added to the scores (0: none), for restarts that explore differently.
    noise: u32,
    rng: u64,
    states: Vec<W>,
    canons: Vec<W>,
    /// Images of the positions on the stack, `g` per depth.
    images: Vec<W>,
    /// Children not tried yet, `(score, move)`, best last, for every depth on the stack;
    /// `starts[d]` is where the list of depth `d` begins.
    cands: Vec<(i32, u32)>,
    starts: Vec<usize>,
    /// The top of the stack has not been expanded yet.
    expand: bool,
}

impl<W: Word> Dfs<W> {
    /// A search from `c.first`. `noise > 0` perturbs the order of the children by adding a
    /// pseudo-random value in `0..noise` to the scores (seeded by `seed`).
    pub fn new(c: &Compiled<W>, endgame: Option<&Endgame<W>>, noise: u32, seed: u64) -> Self {
        let floor = c.goal_count + endgame.map_or(0, |e| e.depth());
        let levels = (c.first_count.saturating_sub(floor) + 1) as usize;
        let mut images = vec![W::ZERO; levels * c.g];
        let canon = c.images(c.first, &mut images[..c.g]);
        let mut states = Vec::with_capacity(levels);
        states.push(c.first);
        Dfs {
            floor,
            noise,
            rng: seed | 1,
            states,
            canons: vec![canon],
            images,
            cands: Vec::new(),
            starts: Vec::with_capacity(levels),
            expand: true,
        }
    }

    /// Runs until a verdict or until `*nodes` reaches `limit` (one node per position pushed).
    /// The dead table grows up to `cap` slots.
    pub fn run(
        &mut self,
        c: &Compiled<W>,
        dead: &mut Table<W>,
        cap: usize,
        endgame: Option<&Endgame<W>>,
        nodes: &mut u64,
        limit: u64,
    ) -> DfsEnd<W> {
        let g = c.g;
        let floor = self.floor;
        if c.first_count <= floor {
            // the start is at the floor: it is the answer or nothing is
            return if at_floor(c, endgame, c.first, self.canons[0]) {
                let mut path = vec![c.first];
                path.extend(finish(c, endgame, c.first));
                DfsEnd::Solved(path)
            } else {
                DfsEnd::Exhausted
            };
        }
        loop {
            let d = self.states.len() - 1;
            let s = self.states[d];
            if self.expand {
                // pegs of a child
                let cc = c.first_count - d as u32 - 1;
                let base = self.cands.len();
                let pi = &self.images[d * g..d * g + g];
                let mut solved = false;
                let cands = &mut self.cands;
                let rng = &mut self.rng;
                let noise = self.noise;
                c.for_each_legal(s, cc + 1, |m| {
                    let child = s ^ c.span[m];
                    if solved || !c.pagoda_ok(child, m) {
                        return;
                    }
                    if cc == floor {
                        if at_floor(c, endgame, child, c.child_canon(pi, m)) {
                            solved = true;
                            cands.push((i32::MAX, m as u32));
                        }
                        return;
                    }
                    let mut key = score::delta(c, s, m);
                    if noise > 0 {
                        *rng ^= *rng << 13;
                        *rng ^= *rng >> 7;
                        *rng ^= *rng << 17;
                        key = key * noise as i32 + (*rng % noise as u64) as i32;
                    }
                    cands.push((key, m as u32));
                });
                if solved {
                    let m = self.cands[self.cands.len() - 1].1 as usize;
                    let child = s ^ c.span[m];
                    let mut path = self.states.clone();
                    path.push(child);
                    path.extend(finish(c, endgame, child));
                    return DfsEnd::Solved(path);
                }
                self.cands[base..].sort_unstable();
                self.starts.push(base);
                self.expand = false;
            }
            let base = self.starts[d];
            let mut pushed = false;
            while self.cands.len() > base {
                let (_, m) = self.cands[self.cands.len() - 1];
                let m = m as usize;
                let (lo, hi) = self.images.split_at_mut((d + 1) * g);
                let canon = c.child_images(&lo[d * g..], m, &mut hi[..g]);
                if dead.contains(canon) {
                    self.cands.pop();
                    continue;
                }
                if *nodes >= limit {
                    return DfsEnd::Limit;
                }
                self.cands.pop();
                *nodes += 1;
                self.states.push(s ^ c.span[m]);
                self.canons.push(canon);
                pushed = true;
                self.expand = true;
                break;
            }
            if !pushed {
                self.starts.pop();
                dead.insert_growing(self.canons[d], cap);
                if d == 0 {
                    return DfsEnd::Exhausted;
                }
                self.states.pop();
                self.canons.pop();
            }
        }
    }
}

/// True if `s` (canonical form `canon`), at the floor, is solved: in the endgame table's last
/// level, or the goal.
#[inline]
fn at_floor<W: Word>(c: &Compiled<W>, endgame: Option<&Endgame<W>>, s: W, canon: W) -> bool {
    match endgame {
        Some(e) => e.solvable(canon),
        None => c.is_goal(s),
    }
}

/// The rest of the solution from a solved position at the floor.
fn finish<W: Word>(c: &Compiled<W>, endgame: Option<&Endgame<W>>, s: W) -> Vec<W> {
    endgame.map_or_else(Vec::new, |e| e.finish(c, s))
}
