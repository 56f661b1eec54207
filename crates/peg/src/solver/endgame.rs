//! The endgame table: every position (canonical form) from which the goal position can be
//! reached in at most `depth` moves, level by level, built backwards from the goal by
//! "unjumps" (a peg on `c` jumps back over the empty `b` into the empty `a`).
//!
//! Level `j` holds exactly the positions with `goal + j` pegs that reach the goal, so the
//! search treats a position with `goal + depth` pegs as solved if it is in the last level and
//! as dead otherwise, and never expands below that level. The rest of a solution is read off
//! the levels: from a position of level `j`, some move leads into level `j - 1` (the move that
//! the backward search undid, carried by the symmetry between the position and the
//! canonical form it was stored as).

use super::compiled::Compiled;
use super::table::Table;
use super::word::Word;

pub(crate) struct Endgame<W: Word> {
    /// `levels[j]`: canonical positions with `goal + j` pegs that reach the goal.
    levels: Vec<Table<W>>,
    /// The last level is empty: nothing deeper to add.
    complete: bool,
    /// Images of the last level's positions, kept for the next [`Endgame::extend`].
    frontier: Option<Vec<W>>,
}

impl<W: Word> Endgame<W> {
    /// The goal alone (depth 0); `None` for a peg-count goal.
    pub fn new(c: &Compiled<W>) -> Option<Self> {
        let goal = c.goal_state?;
        let mut first = Table::with_capacity(4);
        first.insert(c.canon(goal));
        Some(Endgame {
            levels: vec![first],
            complete: false,
            frontier: None,
        })
    }

    /// Adds backward levels while the table stays under `max_entries` positions in all and the
    /// last level has fewer pegs than the start. A level that would not fit is not kept (and
    /// it is given up at the first position beyond the limit).
    pub fn extend(&mut self, c: &Compiled<W>, max_entries: usize) {
        let g = c.g;
        let mut out = vec![W::ZERO; g];
        let mut undo: Vec<u32> = Vec::new();
        let mut total = self.len();
        // images of the last level's positions, `g` per position, in insertion order
        let mut cur: Vec<W> = match self.frontier.take() {
            Some(f) => f,
            None => {
                let mut imgs = Vec::new();
                for s in self.levels[self.levels.len() - 1].iter() {
                    let k = imgs.len();
                    imgs.resize(k + g, W::ZERO);
                    c.images(s, &mut imgs[k..]);
                }
                imgs
            }
        };
        while !self.complete && c.goal_count + (self.levels.len() as u32) < c.first_count {
            let len = cur.len() / g;
            let budget = max_entries.saturating_sub(total);
            // grown as it fills: a sparse table would cost a page fault per entry
            let mut next = Table::with_capacity(4 * len);
            let mut next_imgs: Vec<W> = Vec::with_capacity(4 * len * g);
            for pi in cur.chunks_exact(g) {
                let s = pi[0];
                undo.clear();
                c.for_each_undoable(s, |m| undo.push(m as u32));
                for &m in &undo {
                    let m = m as usize;
                    let canon = c.child_images(pi, m, &mut out);
                    if next.len() >= budget {
                        if !next.contains(canon) {
                            self.frontier = Some(cur);
                            return;
                        }
                        continue;
                    }
                    if next.insert_growing(canon, usize::MAX) {
                        next_imgs.extend_from_slice(&out);
                    }
                }
            }
            // an empty level means that no position with more pegs reaches the goal: it is
            // kept, and prunes everything at its level
            self.complete = next.is_empty();
            total += next.len();
            self.levels.push(next);
            cur = next_imgs;
        }
        self.frontier = Some(cur);
    }

    /// Moves covered: the last level has `goal + depth()` pegs.
    pub fn depth(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// True if the canonical position `canon` (with `goal + depth()` pegs) reaches the goal.
    #[inline]
    pub fn solvable(&self, canon: W) -> bool {
        self.levels[self.levels.len() - 1].contains(canon)
    }

    /// Number of positions stored.
    pub fn len(&self) -> usize {
        self.levels.iter().map(|t| t.len()).sum()
    }

    /// The moves from `s` (in the last level) to the goal, as the successive positions after
    /// `s`.
    pub fn finish(&self, c: &Compiled<W>, mut s: W) -> Vec<W> {
        let mut path = Vec::with_capacity(self.levels.len());
        for j in (0..self.levels.len() - 1).rev() {
            let next = (0..c.moves())
                .filter(|&m| c.legal(s, m))
                .map(|m| s ^ c.span[m])
                .find(|&x| self.levels[j].contains(c.canon(x)))
                .expect("a position of level j + 1 has a child in level j");
            path.push(next);
            s = next;
        }
        path
    }
}
