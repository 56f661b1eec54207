//! Bridges (Tatham's `bridges.c`, Hashiwokakero): join the islands by horizontal and vertical
//! bridges, at most `maxb` between two islands, none crossing, so that each island has as
//! many bridges as its number and all islands are connected.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH` then optional `iN` (island density), `eN` (expansion), `mN` (most bridges
//!   between two islands, 1–4, default 2), `L` (loops forbidden) and `dN` (difficulty);
//!   `i`, `e` and `d` only steer the generator.
//! - DESC: the squares row-major, `1`–`9` and `A`–`G` (10–16) an island, `a`–`z` a run of
//!   1–26 empty squares.
//! - Moves: `;`-separated items, `S` (the Solve record's prefix), `Lx1,y1,x2,y2,n` (set the
//!   bridges between two islands to `n`), `Nx1,y1,x2,y2` (toggle a "no bridge" mark) and
//!   `Mx,y` (toggle an island's "done" mark), exactly as `execute_move` applies them; the
//!   two islands of `L`/`N` must be neighbours in a row or column.

use super::parse::{parse_num, parse_size, parse_xy, place, run_length, short};
use zkgames_core::Error;
use zkgames_core::Result;

/// Most bridges between two islands the game allows (`MAX_BRIDGES`).
pub const MAX_BRIDGES: usize = 4;

/// Two neighbouring islands (in one row or column, nothing between them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// Island indices, the first one left of or above the second.
    pub a: usize,
    pub b: usize,
    /// True for a horizontal pair.
    pub horizontal: bool,
}

/// A decoded Bridges puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    pub maxb: usize,
    /// True when loops are forbidden (`L` in the parameters).
    pub no_loops: bool,
    /// Islands in row-major order: `(x, y, number)`.
    pub islands: Vec<(usize, usize, u8)>,
    /// The neighbouring pairs, each horizontal pair from its left island, each vertical one
    /// from its top island, in island order, right before down.
    pub pairs: Vec<Pair>,
    /// The pairs of pairs whose bridges would cross (one horizontal, one vertical).
    pub crossings: Vec<(usize, usize)>,
}

/// The bridges between each pair of neighbouring islands, indexed like `Puzzle::pairs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub bridges: Vec<u8>,
}

impl Puzzle {
    /// Decodes PARAMS and DESC.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Bridges", 3)?;
        let bad = || {
            Error::bad(format!(
                "Bridges parameters {params:?} are not of the form WxHiNeNmNdN"
            ))
        };
        let mut s = rest;
        let mut maxb = 2;
        let mut no_loops = false;
        for key in ['i', 'e', 'm'] {
            if let Some(r) = s.strip_prefix(key) {
                let (n, r) = parse_num(r).ok_or_else(bad)?;
                if key == 'm' {
                    maxb = n;
                }
                s = r;
            }
        }
        if let Some(r) = s.strip_prefix('L') {
            no_loops = true;
            s = r;
        }
        if let Some(r) = s.strip_prefix('d') {
            let (_, r) = parse_num(r).ok_or_else(bad)?;
            s = r;
        }
        if !s.is_empty() {
            return Err(bad());
        }
        if !(1..=MAX_BRIDGES).contains(&maxb) {
            return Err(Error::bad(format!(
                "Bridges allows 1 to {MAX_BRIDGES} bridges between two islands, not {maxb}"
            )));
        }
        let cells = run_length(desc, w * h, "Bridges", 0u8, |b| match b {
            b'1'..=b'9' => Some(b - b'0'),
            b'A'..=b'G' => Some(b - b'A' + 10),
            _ => None,
        })?;
        let mut index = vec![usize::MAX; w * h];
        let mut islands = Vec::new();
        for (i, &n) in cells.iter().enumerate() {
            if n > 0 {
                index[i] = islands.len();
                islands.push((i % w, i / w, n));
            }
        }
        if islands.len() < 2 {
            return Err(Error::bad("Bridges puzzle has fewer than two islands"));
        }
        let mut pairs = Vec::new();
        for (a, &(x, y, _)) in islands.iter().enumerate() {
            if let Some(b) = (x + 1..w)
                .map(|nx| index[y * w + nx])
                .find(|&b| b != usize::MAX)
            {
                pairs.push(Pair {
                    a,
                    b,
                    horizontal: true,
                });
            }
            if let Some(b) = (y + 1..h)
                .map(|ny| index[ny * w + x])
                .find(|&b| b != usize::MAX)
            {
                pairs.push(Pair {
                    a,
                    b,
                    horizontal: false,
                });
            }
        }
        let mut crossings = Vec::new();
        for (p, hp) in pairs.iter().enumerate().filter(|(_, q)| q.horizontal) {
            let (x1, y, _) = islands[hp.a];
            let x2 = islands[hp.b].0;
            for (q, vp) in pairs.iter().enumerate().filter(|(_, q)| !q.horizontal) {
                let (x, y1, _) = islands[vp.a];
                let y2 = islands[vp.b].1;
                if x1 < x && x < x2 && y1 < y && y < y2 {
                    crossings.push((p, q));
                }
            }
        }
        Ok(Puzzle {
            w,
            h,
            maxb,
            no_loops,
            islands,
            pairs,
            crossings,
        })
    }

    /// The canonical parameters (`WxHmN`, plus `L` when loops are forbidden).
    pub fn params(&self) -> String {
        format!(
            "{}x{}m{}{}",
            self.w,
            self.h,
            self.maxb,
            if self.no_loops { "L" } else { "" }
        )
    }

    /// The starting position: no bridges.
    pub fn initial(&self) -> State {
        State {
            bridges: vec![0; self.pairs.len()],
        }
    }

    fn island_at(&self, x: usize, y: usize) -> Option<usize> {
        self.islands
            .iter()
            .position(|&(ix, iy, _)| ix == x && iy == y)
    }

    fn pair_of(&self, a: usize, b: usize) -> Option<usize> {
        let (a, b) = (a.min(b), a.max(b));
        self.pairs.iter().position(|p| p.a == a && p.b == b)
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = || Error::bad(format!("Bridges move {:?} is not a legal move", short(mv)));
        if mv.is_empty() {
            return Err(bad());
        }
        let mut s = mv;
        let mut next = state.clone();
        while !s.is_empty() {
            let c = s.as_bytes()[0];
            s = &s[1..];
            match c {
                b'S' => {}
                b'L' | b'N' => {
                    let (x1, y1, r) = parse_xy(s).ok_or_else(bad)?;
                    let r = r.strip_prefix(',').ok_or_else(bad)?;
                    let (x2, y2, mut r) = parse_xy(r).ok_or_else(bad)?;
                    let a = self.island_at(x1, y1).ok_or_else(bad)?;
                    let b = self.island_at(x2, y2).ok_or_else(bad)?;
                    let p = self.pair_of(a, b).ok_or_else(bad)?;
                    if c == b'L' {
                        let (n, rest) =
                            parse_num(r.strip_prefix(',').ok_or_else(bad)?).ok_or_else(bad)?;
                        if n > self.maxb {
                            return Err(bad());
                        }
                        next.bridges[p] = n as u8;
                        r = rest;
                    }
                    s = r;
                }
                b'M' => {
                    let (x, y, r) = parse_xy(s).ok_or_else(bad)?;
                    self.island_at(x, y).ok_or_else(bad)?;
                    s = r;
                }
                _ => return Err(bad()),
            }
            if let Some(r) = s.strip_prefix(';') {
                s = r;
            } else if !s.is_empty() {
                return Err(bad());
            }
        }
        *state = next;
        Ok(())
    }

    fn island_name(&self, i: usize) -> String {
        let (x, y, _) = self.islands[i];
        format!("island {}", place(x, y))
    }

    /// The completion check: every island's count met, no crossing, all connected (and no
    /// loop when the parameters forbid loops).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        for &(p, q) in &self.crossings {
            if state.bridges[p] > 0 && state.bridges[q] > 0 {
                let (x, ..) = self.islands[self.pairs[q].a];
                let (_, y, _) = self.islands[self.pairs[p].a];
                return Err(format!("bridges cross at {}", place(x, y)));
            }
        }
        let mut count = vec![0usize; self.islands.len()];
        for (p, pair) in self.pairs.iter().enumerate() {
            count[pair.a] += state.bridges[p] as usize;
            count[pair.b] += state.bridges[p] as usize;
        }
        for (i, &(_, _, n)) in self.islands.iter().enumerate() {
            if count[i] != n as usize {
                return Err(format!(
                    "{} wants {n} bridges, has {}",
                    self.island_name(i),
                    count[i]
                ));
            }
        }
        let mut parent: Vec<usize> = (0..self.islands.len()).collect();
        fn find(p: &mut [usize], mut a: usize) -> usize {
            while p[a] != a {
                p[a] = p[p[a]];
                a = p[a];
            }
            a
        }
        for (p, pair) in self.pairs.iter().enumerate() {
            if state.bridges[p] == 0 {
                continue;
            }
            let (ra, rb) = (find(&mut parent, pair.a), find(&mut parent, pair.b));
            if ra == rb && self.no_loops {
                return Err(format!(
                    "the bridges form a loop (through {})",
                    self.island_name(pair.a)
                ));
            }
            parent[ra] = rb;
        }
        let root = find(&mut parent, 0);
        if let Some(i) = (0..self.islands.len()).find(|&i| find(&mut parent, i) != root) {
            return Err(format!(
                "the islands are not all connected ({} is cut off)",
                self.island_name(i)
            ));
        }
        Ok(())
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: per neighbouring pair, its number of bridges in `k = ⌈log2(maxb + 1)⌉` bits
// (least significant first), then the labels of `graph::spanning_tree` over the islands
// (root island 0), a pair's edge present when its count is not 0. Checks: each count is at
// most `maxb`; no two crossing pairs both have bridges; each island's counts add up to its
// number (5-bit sums XORed with it); with loops forbidden, the pairs with bridges number
// exactly `islands − 1` (connected with that many edges: a tree).

use super::{Game, Position};
use zkgames_mpc::circuit::graph::{self, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Bridges",
    default_params: "7x7i30e10m2d0",
    larger_params: "12x12i30e10m2d0",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/bridges.sav"),
};

fn decode_boxed(params: &str, desc: &str) -> Result<Box<dyn super::Puzzle>> {
    Ok(Box::new(Puzzle::decode(params, desc)?))
}

impl Puzzle {
    fn count_bits(&self) -> usize {
        graph::index_bits(self.maxb + 1)
    }
    fn graph(&self) -> Graph {
        Graph::new(
            self.islands.len(),
            self.pairs.iter().map(|p| (p.a, p.b)).collect(),
        )
    }
}

impl super::Puzzle for Puzzle {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        Puzzle::params(self)
    }
    fn desc(&self) -> String {
        let mut cells = vec![None; self.w * self.h];
        for &(x, y, n) in &self.islands {
            cells[y * self.w + x] = Some(if n < 10 {
                (b'0' + n) as char
            } else {
                (b'A' + n - 10) as char
            });
        }
        super::parse::encode_runs(cells)
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(super::Play {
            puzzle: self,
            state: self.initial(),
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let k = self.count_bits();
        let np = self.pairs.len();
        let g = self.graph();
        let mut b = Builder::new(np * k + graph::spanning_tree_bits(&g, 0));
        let counts: Vec<Vec<Bit>> = (0..np).map(|p| b.input_word(p * k, k)).collect();
        let mut present = Vec::with_capacity(np);
        let maxb = b.const_word(self.maxb as u64, k);
        for c in &counts {
            let mut any = Bit::Const(false);
            for &x in c {
                any = b.or(any, x);
            }
            present.push(any);
            let over = b.less_than(&maxb, c);
            b.output(over);
        }
        for &(p, q) in &self.crossings {
            let both = b.and(present[p], present[q]);
            b.output(both);
        }
        let mut sums = vec![b.const_word(0, 5); self.islands.len()];
        for (p, pair) in self.pairs.iter().enumerate() {
            let mut wide = counts[p].clone();
            wide.resize(5, Bit::Const(false));
            for i in [pair.a, pair.b] {
                sums[i] = b.add(&sums[i], &wide);
            }
        }
        for (sum, &(_, _, n)) in sums.iter().zip(&self.islands) {
            for (j, &bit) in sum.iter().enumerate() {
                let d = b.xor(bit, Bit::Const((n >> j) & 1 == 1));
                b.output(d);
            }
        }
        if self.no_loops {
            let width = graph::counter_bits(np);
            let used = b.popcount(&present, width);
            let want = self.islands.len() as u64 - 1;
            for (j, &bit) in used.iter().enumerate() {
                let d = b.xor(bit, Bit::Const((want >> j) & 1 == 1));
                b.output(d);
            }
        }
        let mut at = np * k;
        for x in graph::spanning_tree(&mut b, &g, &present, 0, &mut at) {
            b.output(x);
        }
        Ok(b.finish())
    }
}

impl super::Rules for Puzzle {
    type State = State;
    fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        Puzzle::execute_move(self, state, mv)
    }
    fn check(&self, state: &State) -> std::result::Result<(), String> {
        Puzzle::check(self, state)
    }
    fn witness(&self, state: &State) -> Result<Vec<bool>> {
        let k = self.count_bits();
        let mut w = Vec::new();
        for &n in &state.bridges {
            super::push_bits(&mut w, n as usize, k);
        }
        let present: Vec<bool> = state.bridges.iter().map(|&n| n > 0).collect();
        let labels = graph::spanning_tree_witness(&self.graph(), &present, 0)
            .ok_or_else(|| Error::bad("not solved: the islands are not all connected"))?;
        w.extend(labels);
        Ok(w)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.bridges.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of tiny puzzles: the circuit accepts exactly the bridge counts the
    /// game's own rule accepts (with some labels).
    #[test]
    fn tiny_bridges_exhaustive() {
        // a ring of four islands, a crossing, and a row of three; loops allowed or not
        for (params, desc) in [
            ("3x3m2", "2a2c2a2"),
            ("3x3m2L", "2a2c2a2"),
            ("3x3m2", "a1a1a1a1a"),
            ("3x3m2", "1a2c1a2"),
            ("3x3m1L", "2a2c1a1"),
        ] {
            let p = Puzzle::decode(params, desc).unwrap();
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 24, "{n}");
            let k = p.count_bits();
            let np = p.pairs.len();
            let accepted = crate::accepted_prefixes(&c, np * k);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << (np * k)) {
                let bridges: Vec<u8> = (0..np)
                    .map(|i| ((a >> (i * k)) & ((1 << k) - 1)) as u8)
                    .collect();
                if bridges.iter().any(|&x| x as usize > p.maxb) {
                    continue;
                }
                let state = State { bridges };
                if p.check(&state).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play { puzzle: &p, state };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{params}:{desc}");
        }
    }

    #[test]
    fn canonical_form() {
        let p = Puzzle::decode("3x3i30e10m2d0", "2a2c2a2a").unwrap_err();
        assert!(p.to_string().contains("Bridges"));
        let p = Puzzle::decode("3x3i30e10m2d0", "2a2aaa2a2").unwrap();
        assert_eq!(super::super::Puzzle::desc(&p), "2a2c2a2");
        assert_eq!(super::super::Puzzle::params(&p), "3x3m2");
    }
}
