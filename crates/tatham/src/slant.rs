//! Slant (Tatham's `slant.c`): fill every square with a `\` or a `/` so that each numbered
//! grid point touches exactly that many diagonals and the diagonals form no loop.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH` (or `W`), optionally `d` and a difficulty letter (ignored: it only steers
//!   the generator).
//! - DESC: the `(W+1)·(H+1)` grid points in row-major order, a digit `0`–`4` a clue, a
//!   letter `a`–`z` a run of 1–26 points without one.
//! - Moves: `;`-separated items, `S` (the Solve record's prefix), `\x,y`, `/x,y` and `Cx,y`
//!   (clear square `(x, y)`), exactly as `execute_move` applies them.

use super::parse::{parse_size, parse_xy, place, run_length, short};
use zkgames_core::Error;
use zkgames_core::Result;

/// A decoded Slant puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// Clue per grid point, `(w+1)·(h+1)` entries row-major; `None` for no clue.
    pub clues: Vec<Option<u8>>,
}

/// The player's grid: per square `-1` for `\`, `+1` for `/`, `0` for empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: Vec<i8>,
}

impl Puzzle {
    /// Decodes PARAMS and DESC.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        Self::decode_min(params, desc, 2)
    }

    fn decode_min(params: &str, desc: &str, min: usize) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Slant", min)?;
        let ok_rest = rest.is_empty()
            || (rest.len() == 2
                && rest.starts_with('d')
                && rest.as_bytes()[1].is_ascii_lowercase());
        if !ok_rest {
            return Err(Error::bad(format!(
                "Slant parameters {params:?} are not of the form WxHdX"
            )));
        }
        let clues = run_length(desc, (w + 1) * (h + 1), "Slant", None, |b| {
            (b'0'..=b'4').contains(&b).then_some(Some(b - b'0'))
        })?;
        Ok(Puzzle { w, h, clues })
    }

    /// The canonical parameters (`WxH`), what the game ID names.
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The starting grid: every square empty.
    pub fn initial(&self) -> State {
        State {
            cells: vec![0; self.w * self.h],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = || Error::bad(format!("Slant move {:?} is not a legal move", short(mv)));
        let mut s = mv;
        let mut next = state.clone();
        while !s.is_empty() {
            let c = s.as_bytes()[0];
            s = &s[1..];
            if c != b'S' {
                let v = match c {
                    b'\\' => -1,
                    b'/' => 1,
                    b'C' => 0,
                    _ => return Err(bad()),
                };
                let (x, y, rest) = parse_xy(s).ok_or_else(bad)?;
                if x >= self.w || y >= self.h {
                    return Err(bad());
                }
                next.cells[y * self.w + x] = v;
                s = rest;
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

    /// The grid points a square's diagonal joins: `\` joins top-left and bottom-right.
    pub fn diagonal(&self, x: usize, y: usize, back: bool) -> (usize, usize) {
        let wp = self.w + 1;
        if back {
            (y * wp + x, (y + 1) * wp + x + 1)
        } else {
            (y * wp + x + 1, (y + 1) * wp + x)
        }
    }

    /// The completion check: every square filled, every clue met, no loop.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let (w, h, wp) = (self.w, self.h, self.w + 1);
        for y in 0..h {
            for x in 0..w {
                if state.cells[y * w + x] == 0 {
                    return Err(format!("square {} is empty", place(x, y)));
                }
            }
        }
        let mut count = vec![0u8; wp * (h + 1)];
        for y in 0..h {
            for x in 0..w {
                let (a, b) = self.diagonal(x, y, state.cells[y * w + x] < 0);
                count[a] += 1;
                count[b] += 1;
            }
        }
        for (p, clue) in self.clues.iter().enumerate() {
            if let Some(c) = *clue {
                if count[p] != c {
                    return Err(format!(
                        "clue at point {} wants {c} lines, has {}",
                        place(p % wp, p / wp),
                        count[p]
                    ));
                }
            }
        }
        // union-find over grid points: a diagonal between two joined points closes a loop
        let mut parent: Vec<usize> = (0..wp * (h + 1)).collect();
        fn find(p: &mut [usize], mut a: usize) -> usize {
            while p[a] != a {
                p[a] = p[p[a]];
                a = p[a];
            }
            a
        }
        for y in 0..h {
            for x in 0..w {
                let (a, b) = self.diagonal(x, y, state.cells[y * w + x] < 0);
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                if ra == rb {
                    return Err(format!(
                        "the diagonals form a loop (through square {})",
                        place(x, y)
                    ));
                }
                parent[ra] = rb;
            }
        }
        Ok(())
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per square, row-major (1 = `\`, 0 = `/`: every square is filled), then
// the forest labels (`graph::forest`) of the two graphs the diagonals live in. A diagonal
// joins two grid points of the same colour of the chequerboard (`x + y` even or odd), so
// the points split into two graphs, each with the candidate edges of its colour: square
// `(x, y)`'s `\` is in graph `(x + y) mod 2`, its `/` in the other, present when the bit is
// 1 (resp. 0). Counters of each graph only need to exceed its own vertex count. Clues: the
// present edges at a clued point are counted (a 3-bit popcount) and XORed with the clue.

use super::{Game, Position};
use zkgames_mpc::circuit::graph::{self, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Slant",
    default_params: "8x8de",
    larger_params: "12x10de",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/slant.sav"),
};

fn decode_boxed(params: &str, desc: &str) -> Result<Box<dyn super::Puzzle>> {
    Ok(Box::new(Puzzle::decode(params, desc)?))
}

/// One colour's graph: its vertices (grid points) and, per candidate edge, the square and
/// whether it is that square's `\`.
struct Colour {
    graph: Graph,
    edges: Vec<(usize, bool)>,
    /// Global point index → vertex in this graph.
    vertex: Vec<usize>,
}

impl Puzzle {
    fn colours(&self) -> [Colour; 2] {
        let wp = self.w + 1;
        let n_points = wp * (self.h + 1);
        let mk = |c: usize| {
            let mut vertex = vec![usize::MAX; n_points];
            let mut n = 0;
            for (p, v) in vertex.iter_mut().enumerate() {
                if (p % wp + p / wp) % 2 == c {
                    *v = n;
                    n += 1;
                }
            }
            let mut edges = Vec::new();
            let mut pairs = Vec::new();
            for y in 0..self.h {
                for x in 0..self.w {
                    for back in [true, false] {
                        let (a, b) = self.diagonal(x, y, back);
                        if vertex[a] != usize::MAX {
                            edges.push((y * self.w + x, back));
                            pairs.push((vertex[a], vertex[b]));
                        }
                    }
                }
            }
            Colour {
                graph: Graph::new(n, pairs),
                edges,
                vertex,
            }
        };
        [mk(0), mk(1)]
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
        super::parse::encode_runs(self.clues.iter().map(|c| c.map(|c| (b'0' + c) as char)))
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(super::Play {
            puzzle: self,
            state: self.initial(),
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let cells = self.w * self.h;
        let colours = self.colours();
        let labels: usize = colours.iter().map(|c| graph::forest_bits(&c.graph)).sum();
        let mut b = Builder::new(cells + labels);
        let mut at = cells;
        let mut at_point: Vec<Vec<Bit>> = vec![Vec::new(); self.clues.len()];
        for col in &colours {
            let present: Vec<Bit> = col
                .edges
                .iter()
                .map(|&(cell, back)| {
                    let bit = b.input(cell);
                    if back {
                        bit
                    } else {
                        b.not(bit)
                    }
                })
                .collect();
            for (&(u, v), &p) in col.graph.edges().iter().zip(&present) {
                for end in [u, v] {
                    let point = col.vertex.iter().position(|&k| k == end).expect("a vertex");
                    at_point[point].push(p);
                }
            }
            for x in graph::forest(&mut b, &col.graph, &present, &mut at) {
                b.output(x);
            }
        }
        for (p, clue) in self.clues.iter().enumerate() {
            if let Some(c) = *clue {
                let count = b.popcount(&at_point[p], 3);
                for (k, &bit) in count.iter().enumerate() {
                    let want = Bit::Const((c >> k) & 1 == 1);
                    let d = b.xor(bit, want);
                    b.output(d);
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
        let mut w: Vec<bool> = state.cells.iter().map(|&c| c < 0).collect();
        for col in self.colours() {
            let present: Vec<bool> = col
                .edges
                .iter()
                .map(|&(cell, back)| (state.cells[cell] < 0) == back)
                .collect();
            let labels = graph::forest_witness(&col.graph, &present)
                .ok_or_else(|| Error::bad("not solved: the diagonals form a loop"))?;
            w.extend(labels);
        }
        Ok(w)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.cells.iter().map(|&c| c as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of tiny puzzles: the circuit accepts exactly the fillings the game's
    /// own rule accepts (with some labels), and the honest witness of each.
    #[test]
    fn tiny_slant_exhaustive() {
        for (params, desc) in [("2x1", "f"), ("2x1", "a1d"), ("1x2", "c2b")] {
            let p = Puzzle::decode_min(params, desc, 1).unwrap();
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 24, "{n}");
            let cells = p.w * p.h;
            let accepted = crate::accepted_prefixes(&c, cells);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << cells) {
                let state = State {
                    cells: (0..cells)
                        .map(|i| if (a >> i) & 1 == 1 { -1 } else { 1 })
                        .collect(),
                };
                if p.check(&state).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play { puzzle: &p, state };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{params}:{desc}");
        }
    }

    /// On 2x2 every filling's honest labels are accepted iff it is a solution, and the
    /// diamond (the only loop) has no accepted labels among all of them.
    #[test]
    fn diamond_has_no_certificate() {
        let p = Puzzle::decode("2x2", "i").unwrap();
        let c = p.circuit().unwrap();
        let n = c.n_inputs();
        // the diamond: / \ over \ /, a loop in the odd points' graph; the even points'
        // graph has no edge, its labels are the honest ones
        let cells = [false, true, true, false];
        let [even, odd] = p.colours();
        let no_edges = vec![false; even.edges.len()];
        let even_labels = graph::forest_witness(&even.graph, &no_edges).unwrap();
        let labels = graph::forest_bits(&odd.graph);
        assert_eq!(4 + even_labels.len() + labels, n);
        assert!(labels <= 22, "{labels}");
        for a in 0u64..(1 << labels) {
            let mut input: Vec<bool> = cells.to_vec();
            input.extend(&even_labels);
            input.extend((0..labels).map(|i| (a >> i) & 1 == 1));
            assert!(c.eval(&input).iter().any(|&x| x));
        }
    }

    #[test]
    fn canonical_form() {
        let p = Puzzle::decode("2x2de", "ba1e").unwrap();
        assert_eq!(super::super::Puzzle::desc(&p), "c1e");
        assert_eq!(super::super::Puzzle::params(&p), "2x2");
    }
}
