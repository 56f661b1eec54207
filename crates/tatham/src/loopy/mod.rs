//! Loopy (Tatham's `loopy.c`, Slitherlink): draw lines along the grid's edges forming one
//! single loop, so that each numbered face has exactly that many of its edges drawn.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxHtTdD`: width, height, grid type `T` (0 = squares, the only one supported
//!   here) and a difficulty letter (ignored: it only steers the generator).
//! - DESC: one entry per face in the grid's face order (row-major for squares), `0`–`9` and
//!   `A`–`Z` a clue (10 and up), `a`–`z` a run of 1–26 faces without one.
//! - Edges are numbered in the order `grid.c`'s `grid_make_consistent` creates them: faces in
//!   order, each face's sides in order (top, right, bottom, left for a square), an edge
//!   numbered when first met.
//! - Moves: `S` (the Solve record's prefix) and then `<edge>y`, `<edge>n` or `<edge>u`
//!   items back to back (line, no line, unknown), exactly as `execute_move` applies them.

use super::parse::{parse_num, parse_size, place, run_length, short};
use std::collections::HashMap;
use zkgames_core::Error;
use zkgames_core::Result;

/// One edge of the grid: its two dots and the faces on either side (`None` outside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub dots: [usize; 2],
    pub faces: [Option<usize>; 2],
}

/// A decoded Loopy puzzle (square grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// Clue per face, row-major.
    pub clues: Vec<Option<u8>>,
    /// The edges in the collection's order.
    pub edges: Vec<Edge>,
    /// The number of dots, `(w+1)·(h+1)`; dot `(x, y)` is `y·(w+1) + x`.
    pub n_dots: usize,
}

/// One edge's state, as the game keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    Unknown,
    Yes,
    No,
}

/// The player's lines, indexed by edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub lines: Vec<Line>,
}

const GRID_NAMES: [&str; 13] = [
    "squares",
    "triangular",
    "honeycomb",
    "snub-square",
    "Cairo",
    "great-hexagonal",
    "octagonal",
    "kites",
    "floret",
    "dodecagonal",
    "great-dodecagonal",
    "Penrose (kite/dart)",
    "Penrose (rhombs)",
];

impl Puzzle {
    /// Decodes PARAMS and DESC; grid types other than squares are refused.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, mut rest) = parse_size(params, "Loopy", 3)?;
        let mut ty = 0;
        if let Some(r) = rest.strip_prefix('t') {
            let (t, r) = parse_num(r).ok_or_else(|| {
                Error::bad(format!(
                    "Loopy parameters {params:?} have no grid type after t"
                ))
            })?;
            ty = t;
            rest = r;
        }
        if ty != 0 {
            let name = GRID_NAMES.get(ty).copied().unwrap_or("unknown");
            return Err(Error::bad(format!(
                "Loopy on the {name} grid (type {ty}) is not supported: only squares (t0)"
            )));
        }
        let ok_rest = rest.is_empty()
            || (rest.len() == 2
                && rest.starts_with('d')
                && rest.as_bytes()[1].is_ascii_lowercase());
        if !ok_rest {
            return Err(Error::bad(format!(
                "Loopy parameters {params:?} are not of the form WxHtTdD"
            )));
        }
        let clues = run_length(desc, w * h, "Loopy", None, |b| match b {
            b'0'..=b'9' => Some(Some(b - b'0')),
            b'A'..=b'Z' => Some(Some(b - b'A' + 10)),
            _ => None,
        })?;
        if let Some((f, c)) = clues
            .iter()
            .enumerate()
            .find_map(|(f, c)| c.filter(|&c| c > 4).map(|c| (f, c)))
        {
            return Err(Error::bad(format!(
                "Loopy clue {c} at {} is impossible on a square",
                place(f % w, f / w)
            )));
        }
        let wp = w + 1;
        let mut edges: Vec<Edge> = Vec::with_capacity(2 * w * h + w + h);
        let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
        for y in 0..h {
            for x in 0..w {
                let f = y * w + x;
                let d = [
                    y * wp + x,
                    y * wp + x + 1,
                    (y + 1) * wp + x + 1,
                    (y + 1) * wp + x,
                ];
                for j in 0..4 {
                    let (a, b) = (d[j], d[(j + 1) % 4]);
                    let key = (a.min(b), a.max(b));
                    if let Some(&e) = seen.get(&key) {
                        edges[e].faces[1] = Some(f);
                    } else {
                        seen.insert(key, edges.len());
                        edges.push(Edge {
                            dots: [a, b],
                            faces: [Some(f), None],
                        });
                    }
                }
            }
        }
        Ok(Puzzle {
            w,
            h,
            clues,
            edges,
            n_dots: wp * (h + 1),
        })
    }

    /// The canonical parameters (`WxHt0`), what the game ID names.
    pub fn params(&self) -> String {
        format!("{}x{}t0", self.w, self.h)
    }

    /// The starting position: every edge unknown.
    pub fn initial(&self) -> State {
        State {
            lines: vec![Line::Unknown; self.edges.len()],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = || Error::bad(format!("Loopy move {:?} is not a legal move", short(mv)));
        let mut s = mv.strip_prefix('S').unwrap_or(mv);
        let mut next = state.clone();
        while !s.is_empty() {
            let (e, rest) = parse_num(s).ok_or_else(bad)?;
            if e >= self.edges.len() {
                return Err(bad());
            }
            next.lines[e] = match rest.as_bytes().first() {
                Some(b'y') => Line::Yes,
                Some(b'n') => Line::No,
                Some(b'u') => Line::Unknown,
                _ => return Err(bad()),
            };
            s = &rest[1..];
        }
        *state = next;
        Ok(())
    }

    fn dot_name(&self, d: usize) -> String {
        format!("point {}", place(d % (self.w + 1), d / (self.w + 1)))
    }

    /// The completion check: the drawn lines are one single loop and every clue is met.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); self.n_dots];
        for (e, edge) in self.edges.iter().enumerate() {
            if state.lines[e] == Line::Yes {
                adj[edge.dots[0]].push(e);
                adj[edge.dots[1]].push(e);
            }
        }
        for (d, a) in adj.iter().enumerate() {
            match a.len() {
                0 | 2 => {}
                1 => return Err(format!("a line ends at {}", self.dot_name(d))),
                n => return Err(format!("{n} lines meet at {}", self.dot_name(d))),
            }
        }
        // every drawn dot has degree 2: count the cycles
        let mut seen = vec![false; self.n_dots];
        let mut loops = 0;
        for start in 0..self.n_dots {
            if adj[start].is_empty() || seen[start] {
                continue;
            }
            loops += 1;
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(d) = stack.pop() {
                for &e in &adj[d] {
                    let o = self.edges[e].dots[0] + self.edges[e].dots[1] - d;
                    if !seen[o] {
                        seen[o] = true;
                        stack.push(o);
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
        for (f, clue) in self.clues.iter().enumerate() {
            if let Some(c) = *clue {
                let has = self
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|(e, edge)| {
                        state.lines[*e] == Line::Yes && edge.faces.contains(&Some(f))
                    })
                    .count();
                if has != c as usize {
                    return Err(format!(
                        "clue at {} wants {c} lines, has {has}",
                        place(f % self.w, f / self.w)
                    ));
                }
            }
        }
        Ok(())
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per edge in the collection's edge order (1 = line), then the labels of
// `graph::one_loop` over the dots (vertices) and edges of the grid. Clues: the drawn edges
// of a clued face are counted (a 3-bit popcount) and XORed with the clue. "No" and
// "unknown" are alike for the completion rule, so a witness bit says only "line or not".
// The loop's root: the top-left dot of the first face with clue 3, when there is one (three
// sides drawn touch all four corners, so every solution's loop visits it); otherwise none.

use super::{Game, Position};
use zkgames_mpc::circuit::graph::{self, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Loopy",
    default_params: "10x10t0de",
    larger_params: "15x15t0de",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/loopy.sav"),
};

fn decode_boxed(params: &str, desc: &str) -> Result<Box<dyn super::Puzzle>> {
    Ok(Box::new(Puzzle::decode(params, desc)?))
}

impl Puzzle {
    fn graph(&self) -> Graph {
        Graph::new(
            self.n_dots,
            self.edges.iter().map(|e| (e.dots[0], e.dots[1])).collect(),
        )
    }

    /// The dot every solution's loop visits: the top-left corner of the first face with
    /// clue 3 (its three drawn sides touch its four corners), if any.
    fn root(&self) -> Option<usize> {
        let f = self.clues.iter().position(|&c| c == Some(3))?;
        Some((f / self.w) * (self.w + 1) + f % self.w)
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
            c.map(|c| {
                if c < 10 {
                    (b'0' + c) as char
                } else {
                    (b'A' + c - 10) as char
                }
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
        let g = self.graph();
        let ne = self.edges.len();
        let root = self.root();
        let mut b = Builder::new(ne + graph::one_loop_bits(&g, root));
        let present: Vec<Bit> = (0..ne).map(|e| b.input(e)).collect();
        let mut at = ne;
        for x in graph::one_loop(&mut b, &g, &present, root, &mut at) {
            b.output(x);
        }
        for (f, clue) in self.clues.iter().enumerate() {
            if let Some(c) = *clue {
                let sides: Vec<Bit> = (0..ne)
                    .filter(|&e| self.edges[e].faces.contains(&Some(f)))
                    .map(|e| present[e])
                    .collect();
                let count = b.popcount(&sides, 3);
                for (k, &bit) in count.iter().enumerate() {
                    let d = b.xor(bit, Bit::Const((c >> k) & 1 == 1));
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
        let mut w: Vec<bool> = state.lines.iter().map(|&l| l == Line::Yes).collect();
        let labels = graph::one_loop_witness(&self.graph(), &w, self.root())
            .ok_or_else(|| Error::bad("not solved: the lines are not one loop"))?;
        w.extend(labels);
        Ok(w)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.lines.iter().map(|&l| l as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of a 1x1 grid, with each clue: the circuit accepts exactly the edge
    /// sets the game's own rule accepts (with some labels).
    #[test]
    fn tiny_loopy_exhaustive() {
        for desc in ["a", "0", "2", "3", "4"] {
            let mut p = Puzzle::decode("3x3t0", "i").unwrap();
            // a 1x1 grid, built directly (the game's smallest is 3x3)
            p.w = 1;
            p.h = 1;
            p.n_dots = 4;
            p.edges = vec![
                Edge {
                    dots: [0, 1],
                    faces: [Some(0), None],
                },
                Edge {
                    dots: [1, 3],
                    faces: [Some(0), None],
                },
                Edge {
                    dots: [3, 2],
                    faces: [Some(0), None],
                },
                Edge {
                    dots: [2, 0],
                    faces: [Some(0), None],
                },
            ];
            p.clues = vec![desc.as_bytes()[0]
                .is_ascii_digit()
                .then(|| desc.as_bytes()[0] - b'0')];
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 22, "{n}");
            let accepted = crate::accepted_prefixes(&c, 4);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..16 {
                let state = State {
                    lines: (0..4)
                        .map(|i| {
                            if (a >> i) & 1 == 1 {
                                Line::Yes
                            } else {
                                Line::No
                            }
                        })
                        .collect(),
                };
                if p.check(&state).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play { puzzle: &p, state };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{desc}");
        }
    }

    /// On a 2x1 grid every edge set is accepted with its honest labels iff it is a
    /// solution; the two squares drawn separately (two loops sharing an edge is not
    /// possible, but the outline plus the middle edge is a branching) are refused.
    #[test]
    fn small_grid_edge_sets() {
        let mut p = Puzzle::decode("3x3t0", "i").unwrap();
        p.w = 2;
        p.h = 1;
        p.n_dots = 6;
        p.clues = vec![None, None];
        let mut edges = Vec::new();
        let mut seen = HashMap::new();
        for x in 0..2usize {
            let d = [x, x + 1, 3 + x + 1, 3 + x];
            for j in 0..4 {
                let (a, b) = (d[j], d[(j + 1) % 4]);
                let key = (a.min(b), a.max(b));
                if let Some(&e) = seen.get(&key) {
                    let edge: &mut Edge = &mut edges[e];
                    edge.faces[1] = Some(x);
                } else {
                    seen.insert(key, edges.len());
                    edges.push(Edge {
                        dots: [a, b],
                        faces: [Some(x), None],
                    });
                }
            }
        }
        p.edges = edges;
        // without a clue 3 the loop has no root; with one, its top-left dot is the root
        for (clues, want) in [(vec![None, None], 3), (vec![Some(3), None], 1)] {
            p.clues = clues;
            assert_eq!(p.root().is_some(), p.clues[0].is_some());
            let c = p.circuit().unwrap();
            let g = p.graph();
            let mut solutions = 0;
            for a in 0u64..(1 << p.edges.len()) {
                let present: Vec<bool> = (0..p.edges.len()).map(|i| (a >> i) & 1 == 1).collect();
                let state = State {
                    lines: present
                        .iter()
                        .map(|&y| if y { Line::Yes } else { Line::No })
                        .collect(),
                };
                let ok = p.check(&state).is_ok();
                match graph::one_loop_witness(&g, &present, p.root()) {
                    Some(labels) => {
                        let mut input = present.clone();
                        input.extend(labels);
                        let accepted = crate::accepts(&c, &input);
                        assert_eq!(accepted, ok, "{a:b}");
                    }
                    None => assert!(!ok, "{a:b}"),
                }
                if ok {
                    solutions += 1;
                    let pos = crate::Play { puzzle: &p, state };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            // the left square, the right square, the outline; with the clue 3 on the left
            // face, the outline only
            assert_eq!(solutions, want, "{:?}", p.clues);
        }
    }

    #[test]
    fn canonical_form() {
        let p = Puzzle::decode("3x3t0de", "aa1f").unwrap();
        assert_eq!(super::super::Puzzle::desc(&p), "b1f");
        assert_eq!(super::super::Puzzle::params(&p), "3x3t0");
    }
}
