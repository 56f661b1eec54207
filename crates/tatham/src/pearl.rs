//! Pearl (Tatham's `pearl.c`, Masyu): draw one single loop through the centres of the
//! squares, passing through every pearl. The loop turns on a black pearl and goes straight
//! through both squares after it; it goes straight through a white pearl and turns in at
//! least one of the squares next to it.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH`, optionally `d` and a difficulty letter and `n` (both ignored: they only
//!   steer the generator).
//! - DESC: the squares row-major, `B` a black pearl, `W` a white one, `a`–`z` a run of 1–26
//!   plain squares.
//! - The state is, per square, a mask of the line segments leaving its centre (R = 1,
//!   U = 2, L = 4, D = 8) and a mask of crosses ("no line here" marks).
//! - Moves: `;`-separated items, `S` (the Solve record's prefix), `Lm,x,y` (add segments),
//!   `Nm,x,y` (remove), `Rm,x,y` (replace, clearing those marks), `Fm,x,y` (flip),
//!   `Mm,x,y` (flip marks), exactly as `execute_move` applies them: a segment over a mark is
//!   an illegal move. The hint move `H` (which runs the game's own solver) is refused.

use super::parse::{parse_num, parse_size, parse_xy, place, run_length, short};
use zkgames_core::Error;
use zkgames_core::Result;

/// A pearl clue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pearl {
    /// `B`: the loop turns here, and goes straight on both sides.
    Black,
    /// `W`: the loop goes straight here, and turns next to it on at least one side.
    White,
}

/// A decoded Pearl puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// Clue per square, row-major.
    pub clues: Vec<Option<Pearl>>,
}

/// The player's grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Per square, the segments from its centre (R = 1, U = 2, L = 4, D = 8).
    pub lines: Vec<u8>,
    /// Per square, the crosses the player put (same bits).
    pub marks: Vec<u8>,
}

pub const R: u8 = 1;
pub const U: u8 = 2;
pub const L: u8 = 4;
pub const D: u8 = 8;

/// The direction bits with their steps, in the order R, U, L, D.
const DIRS: [(u8, isize, isize); 4] = [(R, 1, 0), (U, 0, -1), (L, -1, 0), (D, 0, 1)];

fn opposite(d: u8) -> u8 {
    match d {
        R => L,
        L => R,
        U => D,
        _ => U,
    }
}

impl Puzzle {
    /// Decodes PARAMS and DESC.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Pearl", 5)?;
        let mut r = rest.as_bytes();
        if r.first() == Some(&b'd') && r.len() >= 2 && r[1].is_ascii_lowercase() {
            r = &r[2..];
        }
        if r.first() == Some(&b'n') {
            r = &r[1..];
        }
        if !r.is_empty() {
            return Err(Error::bad(format!(
                "Pearl parameters {params:?} are not of the form WxHdX"
            )));
        }
        let clues = run_length(desc, w * h, "Pearl", None, |b| match b {
            b'B' => Some(Some(Pearl::Black)),
            b'W' => Some(Some(Pearl::White)),
            _ => None,
        })?;
        Ok(Puzzle { w, h, clues })
    }

    /// The canonical parameters (`WxH`), what the game ID names.
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The starting grid: no lines, no marks.
    pub fn initial(&self) -> State {
        State {
            lines: vec![0; self.w * self.h],
            marks: vec![0; self.w * self.h],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = || Error::bad(format!("Pearl move {:?} is not a legal move", short(mv)));
        let mut s = mv;
        let mut next = state.clone();
        while !s.is_empty() {
            let c = s.as_bytes()[0];
            s = &s[1..];
            match c {
                b'S' => {}
                b'L' | b'N' | b'R' | b'F' | b'M' => {
                    let (l, rest) = parse_num(s).ok_or_else(bad)?;
                    let rest = rest.strip_prefix(',').ok_or_else(bad)?;
                    let (x, y, rest) = parse_xy(rest).ok_or_else(bad)?;
                    if x >= self.w || y >= self.h || l > 15 {
                        return Err(bad());
                    }
                    let (i, l) = (y * self.w + x, l as u8);
                    match c {
                        b'L' => next.lines[i] |= l,
                        b'N' => next.lines[i] &= !l,
                        b'R' => {
                            next.lines[i] = l;
                            next.marks[i] &= !l;
                        }
                        b'F' => next.lines[i] ^= l,
                        _ => next.marks[i] ^= l,
                    }
                    if next.lines[i] & next.marks[i] & l != 0 {
                        return Err(bad());
                    }
                    s = rest;
                }
                b'H' => {
                    return Err(Error::bad(
                        "Pearl's hint move (the game solving for you) cannot be replayed",
                    ))
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

    /// The square `d` steps from `(x, y)`, if it is on the grid.
    pub fn step(&self, x: usize, y: usize, d: u8) -> Option<(usize, usize)> {
        let &(_, dx, dy) = DIRS.iter().find(|t| t.0 == d)?;
        let (nx, ny) = (x as isize + dx, y as isize + dy);
        (nx >= 0 && ny >= 0 && (nx as usize) < self.w && (ny as usize) < self.h)
            .then_some((nx as usize, ny as usize))
    }

    /// The completion check: one loop through every pearl, each pearl's rule met.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let (w, h) = (self.w, self.h);
        let lines = &state.lines;
        for y in 0..h {
            for x in 0..w {
                for &(d, _, _) in &DIRS {
                    if lines[y * w + x] & d == 0 {
                        continue;
                    }
                    let ok = self
                        .step(x, y, d)
                        .is_some_and(|(nx, ny)| lines[ny * w + nx] & opposite(d) != 0);
                    if !ok {
                        return Err(format!("a line from {} leads nowhere", place(x, y)));
                    }
                }
                match lines[y * w + x].count_ones() {
                    0 | 2 => {}
                    1 => return Err(format!("a line ends at {}", place(x, y))),
                    n => return Err(format!("{n} lines meet at {}", place(x, y))),
                }
            }
        }
        let mut seen = vec![false; w * h];
        let mut loops = 0;
        for start in 0..w * h {
            if lines[start] == 0 || seen[start] {
                continue;
            }
            loops += 1;
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(c) = stack.pop() {
                for &(d, _, _) in &DIRS {
                    if lines[c] & d != 0 {
                        let (nx, ny) = self.step(c % w, c / w, d).expect("checked above");
                        if !seen[ny * w + nx] {
                            seen[ny * w + nx] = true;
                            stack.push(ny * w + nx);
                        }
                    }
                }
            }
        }
        match loops {
            0 => return Err("no loop is drawn".into()),
            1 => {}
            2 => return Err("two loops".into()),
            n => return Err(format!("{n} loops")),
        }
        let straight = |m: u8| m == (L | R) || m == (U | D);
        for y in 0..h {
            for x in 0..w {
                let m = lines[y * w + x];
                let Some(p) = self.clues[y * w + x] else {
                    continue;
                };
                if m == 0 {
                    return Err(format!("the pearl at {} is not on the loop", place(x, y)));
                }
                // the two squares the loop visits next to this one
                let nbrs: Vec<u8> = DIRS
                    .iter()
                    .filter(|t| m & t.0 != 0)
                    .map(|t| {
                        let (nx, ny) = self.step(x, y, t.0).expect("checked above");
                        lines[ny * w + nx]
                    })
                    .collect();
                match p {
                    Pearl::Black => {
                        if straight(m) {
                            return Err(format!(
                                "the loop goes straight through the black pearl at {}",
                                place(x, y)
                            ));
                        }
                        if !nbrs.iter().all(|&n| straight(n)) {
                            return Err(format!(
                                "the loop turns next to the black pearl at {}",
                                place(x, y)
                            ));
                        }
                    }
                    Pearl::White => {
                        if !straight(m) {
                            return Err(format!(
                                "the loop turns on the white pearl at {}",
                                place(x, y)
                            ));
                        }
                        if nbrs.iter().all(|&n| straight(n)) {
                            return Err(format!(
                                "the loop turns on neither side of the white pearl at {}",
                                place(x, y)
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per pair of neighbouring squares (the horizontal pairs row by row, then
// the vertical ones), 1 when the loop joins them, then the labels of `graph::one_loop` over
// the squares. A square's four segments are these bits (constant 0 off the grid), so a
// witness is always a consistent drawing. Pearl rules, for a square whose degree the loop
// gadget forces to 0 or 2:
// - black: not `L ∧ R`, not `U ∧ D` (it turns), not all four absent (it is on the loop),
//   and for each direction `d`, `seg_d(c) ∧ ¬seg_d(c + d)` is a violation (the next square
//   goes straight on);
// - white: `L ⊕ R` and `U ⊕ D` are violations (straight), `¬L ∧ ¬U` too (on the loop),
//   and `L ∧ seg_L(c − 1) ∧ seg_R(c + 1)`, `U ∧ seg_U(c − w) ∧ seg_D(c + w)` (both sides
//   straight) are violations.

use super::{Game, Position};
use zkgames_mpc::circuit::graph::{self, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Pearl",
    default_params: "8x8dt",
    larger_params: "12x12dt",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/pearl.sav"),
};

fn decode_boxed(params: &str, desc: &str) -> Result<Box<dyn super::Puzzle>> {
    Ok(Box::new(Puzzle::decode(params, desc)?))
}

impl Puzzle {
    /// The square every solution's loop visits: the first pearl's, if any.
    fn root(&self) -> Option<usize> {
        self.clues.iter().position(|c| c.is_some())
    }

    /// The candidate edges: `(square, square to its right or below)`, horizontal first.
    fn links(&self) -> Vec<(usize, usize)> {
        let (w, h) = (self.w, self.h);
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w - 1 {
                out.push((y * w + x, y * w + x + 1));
            }
        }
        for y in 0..h - 1 {
            for x in 0..w {
                out.push((y * w + x, (y + 1) * w + x));
            }
        }
        out
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
        super::parse::encode_runs(self.clues.iter().map(|c| {
            c.map(|p| match p {
                Pearl::Black => 'B',
                Pearl::White => 'W',
            })
        }))
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(super::Play {
            puzzle: self,
            state: self.initial(),
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let (w, h) = (self.w, self.h);
        let links = self.links();
        let g = Graph::new(w * h, links.clone());
        let root = self.root();
        let mut b = Builder::new(links.len() + graph::one_loop_bits(&g, root));
        let present: Vec<Bit> = (0..links.len()).map(|e| b.input(e)).collect();
        // seg[c][k]: the segment of square c in direction DIRS[k]
        let mut seg = vec![[Bit::Const(false); 4]; w * h];
        for (&(a, c), &p) in links.iter().zip(&present) {
            if c == a + 1 {
                seg[a][0] = p; // R
                seg[c][2] = p; // L
            } else {
                seg[a][3] = p; // D
                seg[c][1] = p; // U
            }
        }
        let mut at = links.len();
        for x in graph::one_loop(&mut b, &g, &present, root, &mut at) {
            b.output(x);
        }
        let get = |x: isize, y: isize, k: usize| -> Bit {
            if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
                Bit::Const(false)
            } else {
                seg[y as usize * w + x as usize][k]
            }
        };
        for y in 0..h {
            for x in 0..w {
                let Some(pearl) = self.clues[y * w + x] else {
                    continue;
                };
                let s = seg[y * w + x];
                let (xi, yi) = (x as isize, y as isize);
                let (r, u, l, d) = (s[0], s[1], s[2], s[3]);
                match pearl {
                    Pearl::Black => {
                        let lr = b.and(l, r);
                        b.output(lr);
                        let ud = b.and(u, d);
                        b.output(ud);
                        let nl = b.not(l);
                        let nu = b.not(u);
                        let nr = b.not(r);
                        let nd = b.not(d);
                        let a1 = b.and(nl, nu);
                        let a2 = b.and(nr, nd);
                        let off = b.and(a1, a2);
                        b.output(off);
                        for (k, &(_, dx, dy)) in DIRS.iter().enumerate() {
                            let next = get(xi + dx, yi + dy, k);
                            let nn = b.not(next);
                            let v = b.and(s[k], nn);
                            b.output(v);
                        }
                    }
                    Pearl::White => {
                        let v1 = b.xor(l, r);
                        b.output(v1);
                        let v2 = b.xor(u, d);
                        b.output(v2);
                        let nl = b.not(l);
                        let nu = b.not(u);
                        let off = b.and(nl, nu);
                        b.output(off);
                        let hl = get(xi - 1, yi, 2);
                        let hr = get(xi + 1, yi, 0);
                        let hs = b.and(hl, hr);
                        let hv = b.and(l, hs);
                        b.output(hv);
                        let vu = get(xi, yi - 1, 1);
                        let vd = get(xi, yi + 1, 3);
                        let vs = b.and(vu, vd);
                        let vv = b.and(u, vs);
                        b.output(vv);
                    }
                }
            }
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
        let links = self.links();
        let w = self.w;
        let mut bits: Vec<bool> = links
            .iter()
            .map(|&(a, c)| state.lines[a] & if c == a + 1 { R } else { D } != 0)
            .collect();
        let g = Graph::new(w * self.h, links);
        let labels = graph::one_loop_witness(&g, &bits, self.root())
            .ok_or_else(|| Error::bad("not solved: the lines are not one loop"))?;
        bits.extend(labels);
        Ok(bits)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.lines.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    fn state_of(p: &Puzzle, a: u64) -> State {
        let mut s = p.initial();
        for (e, &(x, c)) in p.links().iter().enumerate() {
            if (a >> e) & 1 == 1 {
                let (d, o) = if c == x + 1 { (R, L) } else { (D, U) };
                s.lines[x] |= d;
                s.lines[c] |= o;
            }
        }
        s
    }

    /// Every edge set of small grids with pearls: the honest witness of each solution is
    /// accepted, every non-solution's edge set has no one-loop certificate or breaks a
    /// pearl's rule in the circuit (its best labels are refused).
    #[test]
    fn small_pearl_edge_sets() {
        // 3x3 grids (below the game's 5x5 minimum, built directly): a black corner, a
        // white edge middle, and both
        for clues in [
            vec![(0, Pearl::Black)],
            vec![(1, Pearl::White)],
            vec![(4, Pearl::White)],
            vec![(0, Pearl::Black), (5, Pearl::White)],
            vec![(8, Pearl::Black), (1, Pearl::White)],
        ] {
            let mut p = Puzzle {
                w: 3,
                h: 3,
                clues: vec![None; 9],
            };
            for &(i, c) in &clues {
                p.clues[i] = Some(c);
            }
            let c = p.circuit().unwrap();
            let links = p.links();
            let g = Graph::new(9, links.clone());
            let mut solutions = 0;
            for a in 0u64..(1 << links.len()) {
                let state = state_of(&p, a);
                let present: Vec<bool> = (0..links.len()).map(|e| (a >> e) & 1 == 1).collect();
                let ok = p.check(&state).is_ok();
                match graph::one_loop_witness(&g, &present, p.root()) {
                    Some(labels) => {
                        let mut input = present.clone();
                        input.extend(labels);
                        let accepted = crate::accepts(&c, &input);
                        assert_eq!(accepted, ok, "{clues:?} {a:b}");
                    }
                    None => assert!(!ok),
                }
                solutions += ok as usize;
            }
            assert!(solutions > 0, "{clues:?}");
        }
    }

    #[test]
    fn canonical_form() {
        let p = Puzzle::decode("5x5dtn", "BaaWu").unwrap();
        assert_eq!(super::super::Puzzle::desc(&p), "BbWu");
        assert_eq!(super::super::Puzzle::params(&p), "5x5");
    }
}
