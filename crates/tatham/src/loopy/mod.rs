//! Loopy (Tatham's `loopy.c`, Slitherlink): draw lines along the grid's edges forming one
//! single loop, so that each numbered face has exactly that many of its edges drawn.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxHtTdD`: width, height, grid type `T` ([`grids::TYPES`]: every grid type of
//!   the installed program) and a difficulty letter (ignored: it only steers the generator).
//! - DESC: an optional grid description and `_` (`0_` on triangular grids, the current
//!   layout, without it the older one; `G<x>,<y>,<angle>_` on the Penrose grids, required
//!   there: [`penrose`]), then one entry per face in the grid's face order,
//!   `0`–`9` and `A`–`Z` a clue (10 and up), `a`–`z` a run of 1–26 faces without one.
//! - Faces, dots and edges are numbered as [`grids`] explains (the program's `grid.c`
//!   order for faces and edges).
//! - Moves: `S` (the Solve record's prefix) and then `<edge>y`, `<edge>n` or `<edge>u`
//!   items back to back (line, no line, unknown), exactly as `execute_move` applies them.

pub mod grids;
pub mod penrose;
pub mod tilings;

use super::parse::{parse_num, parse_size, place, run_length, short};
pub use grids::Edge;
use grids::{Build, Grid, GridType};
use zkgames_core::Error;
use zkgames_core::Result;

/// The most edges a grid may have (a 40x40 square grid has 3,280).
pub const MAX_EDGES: usize = 4_000;

/// A decoded Loopy puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The grid type, an index into [`grids::TYPES`].
    pub ty: usize,
    /// On a triangular grid: the older layout (a DESC without the `0_` grid description).
    pub old_layout: bool,
    /// On a Penrose grid: the patch's offset and angle (the grid description).
    pub penrose: Option<penrose::Offset>,
    /// Clue per face, in face order.
    pub clues: Vec<Option<u8>>,
    /// Per face, its corners (dots) in the program's order.
    pub faces: Vec<Vec<usize>>,
    /// Per face, its sides (edges), side `j` from corner `j` to corner `j + 1`.
    pub sides: Vec<Vec<usize>>,
    /// The edges in the collection's order.
    pub edges: Vec<Edge>,
    /// The number of dots (numbered in reading order; on squares dot `(x, y)` is
    /// `y·(w+1) + x`).
    pub n_dots: usize,
}

/// The program's size limits of a grid type (`loopy.c`'s `validate_params`).
fn check_size(gt: &GridType, w: usize, h: usize) -> Result<()> {
    if w < gt.both || h < gt.both {
        return Err(Error::bad(format!(
            "Loopy {w}x{h}: width and height on the {} grid must both be at least {}",
            gt.name, gt.both
        )));
    }
    if w < gt.one && h < gt.one {
        return Err(Error::bad(format!(
            "Loopy {w}x{h}: width or height on the {} grid must be at least {}",
            gt.name, gt.one
        )));
    }
    Ok(())
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

impl Puzzle {
    /// Decodes PARAMS and DESC; grid types this crate cannot build are refused in one line
    /// naming the supported ones.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, mut rest) = parse_size(params, "Loopy", 1)?;
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
        let ok_rest = rest.is_empty()
            || (rest.len() == 2
                && rest.starts_with('d')
                && rest.as_bytes()[1].is_ascii_lowercase());
        if !ok_rest {
            return Err(Error::bad(format!(
                "Loopy parameters {params:?} are not of the form WxHtTdD"
            )));
        }
        let Some(gt) = grids::TYPES.get(ty) else {
            return Err(Error::bad(format!(
                "Loopy grid type {ty} is unknown: supported are {}",
                grids::supported()
            )));
        };
        check_size(gt, w, h)?;
        let (grid_desc, clues_desc) = match desc.split_once('_') {
            Some((g, c)) => (Some(g), c),
            None => (None, desc),
        };
        let mut tiles = tilings::Tiles::default();
        let mut offset = None;
        let old_layout = match (gt.build, ty, grid_desc) {
            (Build::Penrose(_), _, None) => {
                return Err(Error::bad(format!(
                    "Loopy on the {} grid needs a grid description (G<x>,<y>,<angle>_)",
                    gt.name
                )))
            }
            (Build::Penrose(kind), _, Some(g)) => {
                let (o, faces) = penrose::build(kind, w, h, g)?;
                offset = Some(o);
                tiles.faces = faces;
                false
            }
            (_, _, None) => ty == 1,
            (_, 1, Some("0")) => false,
            (_, 1, Some(_)) => {
                return Err(Error::bad(
                    "Loopy triangular grid description is not 0 (the only one there is)",
                ))
            }
            (_, _, Some(_)) => {
                return Err(Error::bad(format!(
                    "Loopy on the {} grid takes no grid description (the part before _)",
                    gt.name
                )))
            }
        };
        if old_layout {
            tilings::triangular_old(w, h, &mut tiles);
        } else if let Build::Tiling(tiling) = gt.build {
            tiling(w, h, &mut tiles);
        }
        let grid = Grid::new(tiles);
        if grid.edges.len() > MAX_EDGES {
            return Err(Error::bad(format!(
                "Loopy {w}x{h} on the {} grid has {} edges: at most {MAX_EDGES} are supported",
                gt.name,
                grid.edges.len()
            )));
        }
        let clues = run_length(clues_desc, grid.faces.len(), "Loopy", None, |b| match b {
            b'0'..=b'9' => Some(Some(b - b'0')),
            b'A'..=b'Z' => Some(Some(b - b'A' + 10)),
            _ => None,
        })?;
        let mut p = Puzzle::from_grid(w, h, ty, old_layout, grid, clues);
        p.penrose = offset;
        if !p.graph_is_connected() {
            return Err(Error::bad(format!(
                "Loopy {w}x{h} on the {} grid is not connected",
                gt.name
            )));
        }
        for (f, c) in p.clues.iter().enumerate() {
            if let Some(c) = *c {
                let k = p.faces[f].len();
                if c as usize > k {
                    return Err(Error::bad(format!(
                        "Loopy clue {c} at {} is impossible on a face of {k} sides",
                        p.face_name(f)
                    )));
                }
            }
        }
        Ok(p)
    }

    /// A puzzle on a numbered grid (the clues one per face).
    pub fn from_grid(
        w: usize,
        h: usize,
        ty: usize,
        old_layout: bool,
        grid: Grid,
        clues: Vec<Option<u8>>,
    ) -> Puzzle {
        assert_eq!(clues.len(), grid.faces.len());
        Puzzle {
            w,
            h,
            ty,
            old_layout,
            penrose: None,
            clues,
            faces: grid.faces,
            sides: grid.sides,
            edges: grid.edges,
            n_dots: grid.dots.len(),
        }
    }

    /// Whether every dot is reachable from dot 0 along the grid's edges.
    pub fn graph_is_connected(&self) -> bool {
        let mut adj = vec![Vec::new(); self.n_dots];
        for e in &self.edges {
            adj[e.dots[0]].push(e.dots[1]);
            adj[e.dots[1]].push(e.dots[0]);
        }
        let mut seen = vec![false; self.n_dots];
        let mut stack = vec![0];
        let mut reached = 0;
        while let Some(d) = stack.pop() {
            if d >= self.n_dots || std::mem::replace(&mut seen[d], true) {
                continue;
            }
            reached += 1;
            stack.extend(adj[d].iter().copied());
        }
        reached == self.n_dots
    }

    /// The canonical parameters (`WxHtT`), what the game ID names.
    pub fn params(&self) -> String {
        format!("{}x{}t{}", self.w, self.h, self.ty)
    }

    /// A face's name in messages: squares by column and row (`c4`), other grids by number
    /// in the program's face order.
    fn face_name(&self, f: usize) -> String {
        if self.ty == 0 {
            place(f % self.w, f / self.w)
        } else {
            format!("face {}", f + 1)
        }
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
        if self.ty == 0 {
            format!("point {}", place(d % (self.w + 1), d / (self.w + 1)))
        } else {
            format!("dot {} (counting in reading order)", d + 1)
        }
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
                let has = self.sides[f]
                    .iter()
                    .filter(|&&e| state.lines[e] == Line::Yes)
                    .count();
                if has != c as usize {
                    return Err(format!(
                        "clue at {} wants {c} lines, has {has}",
                        self.face_name(f)
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
// `graph::one_loop` over the dots (vertices) and edges of the grid. Clues: the drawn sides
// of a clued face of `k` sides are counted (a popcount of `counter_bits(k)` bits: 3 on a
// square) and XORed with the clue. "No" and "unknown" are alike for the completion rule, so
// a witness bit says only "line or not". The loop's root: corner 0 of the first face whose
// clue is one less than its number of sides, when there is one (the drawn sides touch all
// its corners, so every solution's loop visits it); otherwise none.

use super::{Game, Position};
use zkgames_mpc::circuit::graph::{self, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Loopy",
    default_params: "10x10t0de",
    larger_params: "15x15t0de",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../../puzzles/tatham/loopy.sav"),
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

    /// The dot every solution's loop visits: corner 0 of the first face whose clue is its
    /// number of sides less one (those drawn sides touch all its corners), if any. On
    /// squares: the top-left corner of the first face with clue 3.
    fn root(&self) -> Option<usize> {
        let f = (0..self.faces.len())
            .find(|&f| self.clues[f].map(|c| c as usize + 1) == Some(self.faces[f].len()))?;
        Some(self.faces[f][0])
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
        let grid = match self.penrose {
            Some(o) => o.desc() + "_",
            None if self.ty == 1 && !self.old_layout => "0_".into(),
            None => String::new(),
        };
        grid + &super::parse::encode_runs(self.clues.iter().map(|c| {
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
                // the sides in edge order
                let mut mine = self.sides[f].clone();
                mine.sort_unstable();
                let sides: Vec<Bit> = mine.iter().map(|&e| present[e]).collect();
                let count = b.popcount(&sides, graph::counter_bits(sides.len()));
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
    use tilings::Tiles;

    fn lines(a: u64, n: usize) -> State {
        State {
            lines: (0..n)
                .map(|i| {
                    if (a >> i) & 1 == 1 {
                        Line::Yes
                    } else {
                        Line::No
                    }
                })
                .collect(),
        }
    }

    /// A puzzle on the faces `faces` (corner coordinates), all without clues.
    fn patch(ty: usize, faces: Vec<Vec<tilings::Pt>>) -> Puzzle {
        let n = faces.len();
        Puzzle::from_grid(1, 1, ty, false, Grid::new(Tiles { faces }), vec![None; n])
    }

    /// Every edge set of a small puzzle: the circuit, with the honest labels when the
    /// loop certificate has any, accepts exactly the sets the game's rule accepts, and the
    /// witness of each solution is accepted. Returns the number of solutions.
    fn every_edge_set(p: &Puzzle) -> usize {
        let c = p.circuit().unwrap();
        let g = p.graph();
        let ne = p.edges.len();
        assert!(ne <= 22, "{ne} edges");
        let mut solutions = 0;
        for a in 0u64..(1 << ne) {
            let state = lines(a, ne);
            let present: Vec<bool> = (0..ne).map(|i| (a >> i) & 1 == 1).collect();
            let ok = p.check(&state).is_ok();
            match graph::one_loop_witness(&g, &present, p.root()) {
                Some(labels) => {
                    let mut input = present.clone();
                    input.extend(labels);
                    assert_eq!(crate::accepts(&c, &input), ok, "{a:b} {:?}", p.clues);
                }
                None => assert!(!ok, "{a:b}"),
            }
            if ok {
                solutions += 1;
                let pos = crate::Play { puzzle: p, state };
                assert!(crate::accepts(&c, &pos.witness().unwrap()));
            }
        }
        solutions
    }

    /// Every witness of a 1x1 grid, with each clue: the circuit accepts exactly the edge
    /// sets the game's own rule accepts (with some labels).
    #[test]
    fn tiny_loopy_exhaustive() {
        let mut t = Tiles::default();
        tilings::squares(1, 1, &mut t);
        for clue in [None, Some(0), Some(2), Some(3), Some(4)] {
            let mut p = patch(0, t.faces.clone());
            p.clues = vec![clue];
            let c = p.circuit().unwrap();
            assert!(c.n_inputs() <= 22, "{}", c.n_inputs());
            let accepted = crate::accepted_prefixes(&c, 4);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..16 {
                let state = lines(a, 4);
                if p.check(&state).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play { puzzle: &p, state };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{clue:?}");
        }
    }

    /// On a 2x1 grid: the left square, the right square, the outline; with a clue 3 on the
    /// left face (whose top-left dot is then the root), the outline only.
    #[test]
    fn small_grid_edge_sets() {
        let mut t = Tiles::default();
        tilings::squares(2, 1, &mut t);
        for (clues, want) in [(vec![None, None], 3), (vec![Some(3), None], 1)] {
            let mut p = patch(0, t.faces.clone());
            p.clues = clues;
            assert_eq!(p.root(), p.clues[0].map(|_| 0));
            assert_eq!(every_edge_set(&p), want, "{:?}", p.clues);
        }
    }

    /// Each supported tiling (and the older triangular layout): a connected patch of the
    /// faces of its smallest grid, at most 16 edges, with every clue its first face can
    /// take and with the first clue of the next face too: the circuit agrees with the
    /// game's rule on every edge set.
    #[test]
    fn patches_of_every_tiling_exhaustive() {
        let mut kinds: Vec<(usize, Tiles)> = grids::TYPES
            .iter()
            .enumerate()
            .map(|(i, gt)| {
                let mut all = Tiles::default();
                let m = gt.both.max(gt.one);
                match gt.build {
                    Build::Tiling(tiling) => tiling(m, m, &mut all),
                    Build::Penrose(kind) => {
                        all.faces = penrose::build(kind, 6, 6, "G0,0,0").unwrap().1;
                    }
                }
                (i, all)
            })
            .collect();
        let mut old = Tiles::default();
        tilings::triangular_old(3, 3, &mut old);
        kinds.push((1, old));
        let mut shapes = std::collections::BTreeSet::new();
        for (ty, all) in kinds {
            let gt = &grids::TYPES[ty];
            // greedily: faces in order that touch the patch, while it stays within 16 edges
            let mut chosen: Vec<Vec<tilings::Pt>> = vec![all.faces[0].clone()];
            for f in &all.faces[1..] {
                let touches = chosen.iter().flatten().any(|p| f.contains(p));
                let mut trial = chosen.clone();
                trial.push(f.clone());
                if touches && patch(ty, trial.clone()).edges.len() <= 16 {
                    chosen = trial;
                }
            }
            let mut p = patch(ty, chosen);
            assert!(p.faces.len() >= 2, "{}", gt.name);
            let k0 = p.faces[0].len();
            shapes.extend(p.faces.iter().map(|f| f.len()));
            let mut variants: Vec<Vec<Option<u8>>> = vec![vec![None; p.faces.len()]];
            for c in 0..=k0 as u8 {
                let mut v = vec![None; p.faces.len()];
                v[0] = Some(c);
                variants.push(v.clone());
                v[1] = Some(1);
                variants.push(v);
            }
            for clues in variants {
                p.clues = clues;
                every_edge_set(&p);
            }
        }
        // triangles to dodecagons
        assert!(shapes.contains(&3) && shapes.contains(&12), "{shapes:?}");
    }

    /// Every type at its smallest size and a few larger ones (on the Penrose grids, every
    /// angle at the centre and some offsets off it, where the patch is usable): Euler's formula
    /// (faces + dots = edges + 1 for a connected grid without holes), every side's edge
    /// joins its face's two corners, inner edges have two faces.
    #[test]
    fn numbering_is_consistent() {
        let mut cases = Vec::new();
        for (ty, gt) in grids::TYPES.iter().enumerate() {
            let m = gt.both.max(gt.one);
            for (w, h) in [(m, m), (m + 1, m + 2), (m + 3, m)] {
                match gt.build {
                    Build::Tiling(tiling) => {
                        let mut t = Tiles::default();
                        tiling(w, h, &mut t);
                        let prefix = if ty == 1 { "0_" } else { "" };
                        cases.push((ty, w, h, prefix.to_string(), t.faces.len()));
                    }
                    Build::Penrose(kind) => {
                        let (w, h) = (2 * w, 2 * h);
                        for a in (0..360).step_by(36) {
                            for (x, y) in [(0, 0), (-700, 1100), (1500, 40)] {
                                let g = format!("G{x},{y},{a}");
                                if let Ok((_, f)) = penrose::build(kind, w, h, &g) {
                                    cases.push((ty, w, h, g + "_", f.len()));
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(cases.iter().filter(|c| c.0 == 11).count() >= 60);
        assert!(cases.iter().filter(|c| c.0 == 12).count() >= 60);
        for (ty, w, h, prefix, n) in cases {
            let params = format!("{w}x{h}t{ty}");
            let runs =
                |n: usize| super::super::parse::encode_runs(std::iter::repeat_n(None::<char>, n));
            assert!(Puzzle::decode(&params, &format!("{prefix}{}", runs(n - 1))).is_err());
            assert!(Puzzle::decode(&params, &format!("{prefix}{}", runs(n + 1))).is_err());
            let p = Puzzle::decode(&params, &format!("{prefix}{}", runs(n))).unwrap();
            assert_eq!(p.faces.len() + p.n_dots, p.edges.len() + 1, "{params}");
            for (f, corners) in p.faces.iter().enumerate() {
                let k = corners.len();
                for j in 0..k {
                    let e = p.edges[p.sides[f][j]];
                    let mut want = [corners[j], corners[(j + 1) % k]];
                    let mut got = e.dots;
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{params} face {f}");
                    assert!(e.faces.contains(&Some(f)));
                }
            }
            assert!(p.graph_is_connected(), "{params}");
        }
    }

    #[test]
    fn canonical_form() {
        let p = Puzzle::decode("3x3t0de", "aa1f").unwrap();
        assert_eq!(super::super::Puzzle::desc(&p), "b1f");
        assert_eq!(super::super::Puzzle::params(&p), "3x3t0");
        // Penrose: the description as the program writes it, whatever sscanf let through
        let p = Puzzle::decode("7x7t11dn", "G-123,+3217,324junk_a3a13a023d3a23f1").unwrap();
        assert_eq!(
            super::super::Puzzle::desc(&p),
            "G-123,3217,324_a3a13a023d3a23f1"
        );
        assert_eq!(super::super::Puzzle::params(&p), "7x7t11");
        for (params, desc) in [
            ("7x7t11", "a3a13a023d3a23f1"),
            ("7x7t12", "G-123,3217,324_a3a13a023d3a23f1"),
            ("7x7t11", "G-123,3217,325_a3a13a023d3a23f1"),
            ("7x7t11", "G-123,9217,324_a3a13a023d3a23f1"),
            ("7x7t11", "G-123,3217_a3a13a023d3a23f1"),
            ("7x7t0", "G-123,3217,324_a3a13a023d3a23f1"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n') && e.starts_with("Loopy"), "{e}");
        }
        let t = Puzzle::decode("3x3t1dh", "0_a").unwrap_err().to_string();
        assert!(t.contains("too short"), "{t}");
    }
}
