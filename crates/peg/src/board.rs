//! Human-readable peg solitaire puzzles, their conversion to the formal model of
//! [`crate::instance`], and solutions written as move lists.
//!
//! # Puzzle file format
//!
//! ```text
//! # The English board, central game.        ('#' starts a comment anywhere on a line)
//! name: english
//! geometry: square              (square | square-diagonal | triangle)
//! start:
//!     o o o
//!     o o o
//! o o o o o o o
//! o o o . o o o
//! o o o o o o o
//!     o o o
//!     o o o
//! finish:
//!     . . .
//!     . . .
//! . . . . . . .
//! . . . o . . .
//! . . . . . . .
//!     . . .
//!     . . .
//! ```
//!
//! Instead of a `finish:` board, `finish-pegs: K` asks only for `K` pegs left anywhere (the
//! variant of Section 5 of the paper). `name:` is optional (default `unnamed`); `geometry:`,
//! `start:` and one of `finish:` / `finish-pegs:` are required, each at most once.
//!
//! `pagoda: W1 W2 …` (optional, up to [`MAX_PAGODAS`] lines) gives a pagoda function of the
//! board: one whole-number weight per hole in reading order, at most [`MAX_PAGODA_WEIGHT`]
//! in absolute value, such that no jump (either way along any line of three holes) raises
//! the total weight of the pegs. Each line is checked against every jump when the file is
//! read. Only the count of solvable positions uses them, to prune (see
//! [`crate::solver::count`]); they change no result.
//!
//! Board rows are the lines after `start:` or `finish:` up to the next `key:` line. In a board,
//! `o` (or `O`, `x`) is a peg, `.` an empty hole, and a space or `_` a cell without a hole.
//! Blank lines are ignored (write a row of `_` for a row without holes). Tabs are refused.
//! The indentation common to all rows of a board is removed, so boards may be indented.
//!
//! - `square` and `square-diagonal`: cells are either separated by single spaces
//!   (`o o o`, every odd character position is a space) or written without separators
//!   (`ooo`, then use `_` for a cell without a hole); the form is detected per board.
//!   `square` jumps along rows and columns; `square-diagonal` also along both diagonals.
//! - `triangle`: a triangular lattice drawn staggered, one character per half cell: the
//!   neighbours of the hole at line `y`, column `x` are at `(y, x±2)` and `(y±1, x±1)`.
//!   All holes must lie on one lattice (`x + y` of the same parity). The 15-hole triangle is
//!   `    o` / `   o o` / `  o o o` / … . Jumps go along the row and both diagonals.
//!
//! The finish board must have exactly the holes of the start board.
//!
//! # The instance
//!
//! Vertices are the holes numbered in reading order (top row first, left to right), from 1
//! in every text the user sees. For every hole `a` in reading order and every jump direction
//! `d` in a fixed order (square: right, down; square-diagonal: right, down, down-right,
//! down-left; triangle: right, down-left, down-right), if `a + d` and `a + 2d` are holes the
//! triplet `(a, a+d, a+2d)` is added. So every line of three aligned adjacent holes gives one
//! triplet, in one orientation only, as Definition 4 requires.
//!
//! A file whose first meaningful line is not a `key:` line is read in the raw format of
//! [`crate::instance::parse_raw`] (`N`, `t`, `f`, `l` / `pegs` lines).
//!
//! # Solutions
//!
//! A move is `FROM-TO`, e.g. `d2-d4`: the peg on `FROM` jumps over the adjacent hole into
//! `TO`, two cells away in a line. A chain `d2-d4-f4` is several jumps by the same peg, each
//! counted as a move. Moves are separated by whitespace, commas or new lines; `#` comments.
//!
//! Cell names: a column letter (`a`, `b`, … `z`, `aa`, `ab`, …) and a row number. Row 1 is
//! the top row of the board, column `a` the leftmost column that holds a hole (the usual
//! notation for the English board, where the centre is `d4`). On `triangle` boards the
//! number is the row (1 at the top) and the letter counts along the down-left diagonals: the
//! leftmost hole of each row of a triangle drawn apex up is `a`, so the 15-hole triangle has
//! `a1`, `a2 b2`, `a3 b3 c3`, … and the apex empties with `a3-a1` or `c3-a1`.
//!
//! A solution may also be a matrix (one row of `0`/`1` per line, the paper's `Z`); raw
//! instances only accept matrices.

use std::collections::{HashMap, HashSet};

use super::instance::{format_bits, parse_matrix, parse_raw, Goal, Instance, Matrix};
use zkgames_core::Error;
use zkgames_core::Result;

/// Largest puzzle or solution file read by [`Puzzle::load`] (1 MiB).
pub const MAX_FILE: u64 = 1 << 20;
/// Largest number of lines or characters per line in one board.
pub const MAX_BOARD_DIM: usize = 1024;

/// How holes are connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Orthogonal jumps on a square grid.
    Square,
    /// Orthogonal and diagonal jumps on a square grid.
    SquareDiagonal,
    /// Three directions on a triangular lattice.
    Triangle,
}

impl Geometry {
    fn parse(s: &str) -> Result<Self> {
        match s {
            "square" => Ok(Geometry::Square),
            "square-diagonal" => Ok(Geometry::SquareDiagonal),
            "triangle" => Ok(Geometry::Triangle),
            _ => Err(Error::bad(format!(
                "unknown geometry '{}' (expected square, square-diagonal or triangle)",
                zkgames_core::files::excerpt(s)
            ))),
        }
    }
    /// The keyword used in puzzle files.
    pub fn keyword(self) -> &'static str {
        match self {
            Geometry::Square => "square",
            Geometry::SquareDiagonal => "square-diagonal",
            Geometry::Triangle => "triangle",
        }
    }
    /// Positive jump directions as (dy, dx) in the stored coordinates.
    fn directions(self) -> &'static [(i32, i32)] {
        match self {
            Geometry::Square => &[(0, 1), (1, 0)],
            Geometry::SquareDiagonal => &[(0, 1), (1, 0), (1, 1), (1, -1)],
            Geometry::Triangle => &[(0, 2), (1, -1), (1, 1)],
        }
    }
}

/// The board behind a puzzle: where each vertex sits.
#[derive(Clone, Debug)]
struct Board {
    geometry: Geometry,
    /// `(y, x)` of each vertex, in reading order. Square: cell units; triangle: doubled
    /// coordinates (half cells horizontally). Normalised so min y = min x = 0.
    cells: Vec<(i32, i32)>,
    index: HashMap<(i32, i32), u32>,
    names: Vec<String>,
    by_name: HashMap<String, u32>,
}

/// A puzzle: a name, the formal instance and, for board puzzles, the board.
#[derive(Clone, Debug)]
pub struct Puzzle {
    name: String,
    instance: Instance,
    board: Option<Board>,
    /// Pagoda functions the file gives (`pagoda:` lines), each checked against every move.
    pagodas: Vec<Vec<i32>>,
}

/// `pagoda:` lines a puzzle file may give at most.
pub const MAX_PAGODAS: usize = 16;
/// The largest weight (in absolute value) of a hole in a `pagoda:` line.
pub const MAX_PAGODA_WEIGHT: i32 = 255;

fn column_letters(mut k: usize) -> String {
    // spreadsheet style: a..z, aa..az, ba..
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (k % 26) as u8);
        if k < 26 {
            break;
        }
        k = k / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}

fn is_key_line(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let k = k.trim();
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        Some((k, v.trim()))
    } else {
        None
    }
}

/// One parsed board block: holes `(y, x, peg)`, in stored coordinates, normalised.
fn parse_block(
    rows: &[(usize, &str)],
    geometry: Geometry,
    what: &str,
) -> Result<Vec<(i32, i32, bool)>> {
    if rows.is_empty() {
        return Err(Error::bad(format!("the {what} board has no rows")));
    }
    if rows.len() > MAX_BOARD_DIM {
        return Err(Error::bad(format!(
            "the {what} board has more than {MAX_BOARD_DIM} rows"
        )));
    }
    let mut indent = usize::MAX;
    for &(ln, r) in rows {
        if r.contains('\t') {
            return Err(Error::bad(format!(
                "line {ln}: tabs are not allowed in boards, use spaces"
            )));
        }
        if r.chars().count() > MAX_BOARD_DIM {
            return Err(Error::bad(format!(
                "line {ln}: board row longer than {MAX_BOARD_DIM} characters"
            )));
        }
        indent = indent.min(r.len() - r.trim_start_matches(' ').len());
    }
    let rows: Vec<(usize, Vec<char>)> = rows
        .iter()
        .map(|&(ln, r)| (ln, r[indent..].chars().collect()))
        .collect();
    let spaced = geometry != Geometry::Triangle
        && rows
            .iter()
            .all(|(_, r)| r.iter().skip(1).step_by(2).all(|&c| c == ' '));
    let mut holes = Vec::new();
    for (y, (ln, r)) in rows.iter().enumerate() {
        for (pos, &c) in r.iter().enumerate() {
            let peg = match c {
                'o' | 'O' => true,
                '.' => false,
                ' ' | '_' => continue,
                _ => {
                    return Err(Error::bad(format!(
                        "line {ln}: unexpected character {} in a board (o = peg, . = empty hole, _ or space = no hole)",
                        zkgames_core::files::quote_char(c)
                    )))
                }
            };
            let x = if spaced { pos / 2 } else { pos };
            holes.push((y as i32, x as i32, peg));
        }
    }
    if holes.is_empty() {
        return Err(Error::bad(format!("the {what} board has no holes")));
    }
    let miny = holes.iter().map(|h| h.0).min().unwrap_or(0);
    let minx = holes.iter().map(|h| h.1).min().unwrap_or(0);
    for h in &mut holes {
        h.0 -= miny;
        h.1 -= minx;
    }
    if geometry == Geometry::Triangle {
        let p = (holes[0].0 + holes[0].1) & 1;
        if let Some(h) = holes.iter().find(|h| (h.0 + h.1) & 1 != p) {
            return Err(Error::bad(format!(
                "the {what} board: the hole on board row {} is off the triangular lattice (draw triangle boards staggered, holes two columns apart)",
                h.0 + 1
            )));
        }
    }
    holes.sort_unstable_by_key(|h| (h.0, h.1));
    Ok(holes)
}

/// A point symmetry of the lattice, in lattice coordinates.
type Transform = Box<dyn Fn((i32, i32)) -> (i32, i32)>;

impl Board {
    fn new(geometry: Geometry, cells: Vec<(i32, i32)>) -> Self {
        let index: HashMap<(i32, i32), u32> = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u32))
            .collect();
        let c = cells.iter().map(|&(y, x)| x + y).min().unwrap_or(0);
        let names: Vec<String> = cells
            .iter()
            .map(|&(y, x)| {
                let col = match geometry {
                    Geometry::Triangle => ((x + y - c) / 2) as usize,
                    _ => x as usize,
                };
                format!("{}{}", column_letters(col), y + 1)
            })
            .collect();
        let by_name = names
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i as u32))
            .collect();
        Board {
            geometry,
            cells,
            index,
            names,
            by_name,
        }
    }

    fn triplets(&self) -> Vec<[u32; 3]> {
        let mut ts = Vec::new();
        for (a, &(y, x)) in self.cells.iter().enumerate() {
            for &(dy, dx) in self.geometry.directions() {
                if let (Some(&b), Some(&c)) = (
                    self.index.get(&(y + dy, x + dx)),
                    self.index.get(&(y + 2 * dy, x + 2 * dx)),
                ) {
                    ts.push([a as u32, b, c]);
                }
            }
        }
        ts
    }

    fn render(&self, row: &[bool]) -> String {
        let h = self.cells.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
        let w = self.cells.iter().map(|c| c.1).max().unwrap_or(0) as usize + 1;
        let spaced = self.geometry != Geometry::Triangle;
        let width = if spaced { 2 * w } else { w };
        let mut grid = vec![vec![' '; width]; h];
        for (i, &(y, x)) in self.cells.iter().enumerate() {
            let col = if spaced { 2 * x as usize } else { x as usize };
            grid[y as usize][col] = if row.get(i).copied().unwrap_or(false) {
                'o'
            } else {
                '.'
            };
        }
        let mut out = String::new();
        for line in grid {
            let s: String = line.into_iter().collect();
            out += s.trim_end();
            out.push('\n');
        }
        out
    }

    /// The point symmetries of the lattice that map the set of holes onto itself, as vertex
    /// permutations (`p[v]` = image of `v`). Includes the identity.
    fn symmetries(&self) -> Vec<Vec<u32>> {
        // Work in lattice coordinates where the transforms are integer-linear.
        let to_lat = |&(y, x): &(i32, i32)| -> (i32, i32) {
            match self.geometry {
                // axial: q along the row, r = row; doubled x = y + 2q (+ parity offset)
                Geometry::Triangle => ((x - y).div_euclid(2), y),
                _ => (x, y),
            }
        };
        let lat: Vec<(i32, i32)> = self.cells.iter().map(to_lat).collect();
        let transforms: Vec<Transform> = match self.geometry {
            Geometry::Triangle => {
                let mut v: Vec<Transform> = Vec::new();
                for refl in [false, true] {
                    for rot in 0..6 {
                        v.push(Box::new(move |(q, r)| {
                            let (mut q, mut r) = if refl { (r, q) } else { (q, r) };
                            for _ in 0..rot {
                                (q, r) = (-r, q + r);
                            }
                            (q, r)
                        }));
                    }
                }
                v
            }
            _ => vec![
                Box::new(|(x, y)| (x, y)),
                Box::new(|(x, y)| (-x, y)),
                Box::new(|(x, y)| (x, -y)),
                Box::new(|(x, y)| (-x, -y)),
                Box::new(|(x, y)| (y, x)),
                Box::new(|(x, y)| (-y, x)),
                Box::new(|(x, y)| (y, -x)),
                Box::new(|(x, y)| (-y, -x)),
            ],
        };
        let norm = |pts: &[(i32, i32)]| -> Vec<(i32, i32)> {
            let mq = pts.iter().map(|p| p.0).min().unwrap_or(0);
            let mr = pts.iter().map(|p| p.1).min().unwrap_or(0);
            pts.iter().map(|p| (p.0 - mq, p.1 - mr)).collect()
        };
        let base = norm(&lat);
        let pos: HashMap<(i32, i32), u32> = base
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, i as u32))
            .collect();
        let mut out: Vec<Vec<u32>> = Vec::new();
        for t in &transforms {
            let img = norm(&lat.iter().map(|&p| t(p)).collect::<Vec<_>>());
            let perm: Option<Vec<u32>> = img.iter().map(|p| pos.get(p).copied()).collect();
            if let Some(perm) = perm {
                if !out.contains(&perm) {
                    out.push(perm);
                }
            }
        }
        out
    }

    fn cell(&self, name: &str) -> Result<u32> {
        self.by_name
            .get(&name.to_ascii_lowercase())
            .copied()
            .ok_or_else(|| {
                Error::bad(format!(
                    "'{}' is not a hole of this board",
                    zkgames_core::files::excerpt(name)
                ))
            })
    }
}

/// The weights of a `pagoda:` line (one integer per hole, in reading order), if they make a
/// pagoda function of the board: no jump, in either direction along any line of `triplets`,
/// may raise the total weight of the pegs (`w(from) + w(over) ≥ w(to)`).
fn parse_pagoda(
    value: &str,
    board: &Board,
    triplets: &[[u32; 3]],
) -> std::result::Result<Vec<i32>, String> {
    let n = board.cells.len();
    let mut w = Vec::with_capacity(n);
    for t in value.split_whitespace() {
        if w.len() == n {
            return Err(format!(
                "a pagoda line has one weight per hole: more than the board's {n}"
            ));
        }
        let x: i32 = t.parse().map_err(|_| {
            format!(
                "a pagoda weight is a whole number, found '{}'",
                zkgames_core::files::excerpt(t)
            )
        })?;
        if x.abs() > MAX_PAGODA_WEIGHT {
            return Err(format!(
                "a pagoda weight is between -{MAX_PAGODA_WEIGHT} and {MAX_PAGODA_WEIGHT}, found {x}"
            ));
        }
        w.push(x);
    }
    if w.len() != n {
        return Err(format!(
            "a pagoda line has one weight per hole: {} given, the board has {n}",
            w.len()
        ));
    }
    for t in triplets {
        for [a, b, c] in [*t, [t[2], t[1], t[0]]] {
            let (wa, wb, wc) = (w[a as usize], w[b as usize], w[c as usize]);
            if wa + wb < wc {
                let name = |v: u32| board.names.get(v as usize).cloned().unwrap_or_default();
                return Err(format!(
                    "not a pagoda function: the jump from {} over {} to {} raises the weight ({wa} + {wb} < {wc})",
                    name(a),
                    name(b),
                    name(c)
                ));
            }
        }
    }
    Ok(w)
}

impl Puzzle {
    /// Parses a puzzle in the board format or, when the first meaningful line is not a
    /// `key:` line, in the raw instance format.
    pub fn parse(text: &str) -> Result<Puzzle> {
        let text = zkgames_core::files::strip_bom(text);
        let first = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .find(|l| !l.is_empty())
            .ok_or_else(|| Error::bad("empty puzzle file"))?;
        if is_key_line(first).is_some() {
            Self::parse_board(text)
        } else {
            let instance = parse_raw(text).map_err(|e| match e {
                Error::BadInput(m) => Error::bad(format!(
                    "raw instance (the first line is not 'key: value'): {m}"
                )),
                e => e,
            })?;
            Ok(Puzzle {
                name: "raw".into(),
                instance,
                board: None,
                pagodas: Vec::new(),
            })
        }
    }

    /// Reads a puzzle file (`-` for stdin), at most [`MAX_FILE`] bytes. A raw instance is named
    /// after the file.
    pub fn load(path: &str) -> Result<Puzzle> {
        let text = zkgames_core::files::read_text(path, MAX_FILE, "puzzle file")?;
        let mut p = Self::parse(&text).map_err(|e| match e {
            Error::BadInput(m) => Error::bad(format!("{path}: {m}")),
            e => e,
        })?;
        if p.board.is_none() && path != "-" {
            if let Some(stem) = std::path::Path::new(path)
                .file_stem()
                .and_then(|s| s.to_str())
            {
                p.name = stem.to_string();
            }
        }
        Ok(p)
    }

    fn parse_board(text: &str) -> Result<Puzzle> {
        #[derive(PartialEq)]
        enum Block {
            None,
            Start,
            Finish,
        }
        let mut name = None;
        let mut geometry = None;
        let mut start: Option<Vec<(usize, &str)>> = None;
        let mut finish: Option<Vec<(usize, &str)>> = None;
        let mut finish_pegs = None;
        let mut pagoda_lines: Vec<(usize, &str)> = Vec::new();
        let mut block = Block::None;
        for (i, raw) in text.lines().enumerate() {
            let ln = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim_end();
            if line.trim().is_empty() {
                continue;
            }
            if let Some((key, value)) = is_key_line(line) {
                block = Block::None;
                let dup = || Error::bad(format!("line {ln}: '{key}' given twice"));
                let key_shown = zkgames_core::files::excerpt(key);
                match key {
                    "name" => {
                        if name.is_some() {
                            return Err(dup());
                        }
                        if value.is_empty() || value.len() > 100 || value.chars().any(|c| c.is_control()) {
                            return Err(Error::bad(format!("line {ln}: a name is 1 to 100 printable characters")));
                        }
                        name = Some(value.to_string());
                    }
                    "geometry" => {
                        if geometry.is_some() {
                            return Err(dup());
                        }
                        geometry = Some(Geometry::parse(value).map_err(|e| Error::bad(format!("line {ln}: {e}")))?);
                    }
                    "start" | "finish" => {
                        if !value.is_empty() {
                            return Err(Error::bad(format!(
                                "line {ln}: the {key} board goes on the lines after '{key}:'"
                            )));
                        }
                        let slot = if key == "start" { &mut start } else { &mut finish };
                        if slot.is_some() {
                            return Err(dup());
                        }
                        *slot = Some(Vec::new());
                        block = if key == "start" { Block::Start } else { Block::Finish };
                    }
                    "finish-pegs" => {
                        if finish_pegs.is_some() {
                            return Err(dup());
                        }
                        let k: usize = value
                            .parse()
                            .map_err(|_| Error::bad(format!("line {ln}: finish-pegs must be a number, found '{}'", zkgames_core::files::excerpt(value))))?;
                        finish_pegs = Some(k);
                    }
                    "pagoda" => {
                        if pagoda_lines.len() == MAX_PAGODAS {
                            return Err(Error::bad(format!(
                                "line {ln}: at most {MAX_PAGODAS} 'pagoda:' lines"
                            )));
                        }
                        pagoda_lines.push((ln, value));
                    }
                    _ => {
                        return Err(Error::bad(format!(
                            "line {ln}: unknown key '{key_shown}' (expected name, geometry, start, finish, finish-pegs or pagoda)"
                        )))
                    }
                }
                continue;
            }
            match block {
                Block::Start => start.as_mut().expect("open block").push((ln, line)),
                Block::Finish => finish.as_mut().expect("open block").push((ln, line)),
                Block::None => {
                    return Err(Error::bad(format!(
                    "line {ln}: expected 'key: value' or a board row after 'start:' or 'finish:'"
                )))
                }
            }
        }
        let geometry = geometry.ok_or_else(|| Error::bad("missing 'geometry:' line"))?;
        let start = start.ok_or_else(|| Error::bad("missing 'start:' board"))?;
        let holes = parse_block(&start, geometry, "start")?;
        if holes.len() > super::instance::MAX_N {
            return Err(Error::bad(format!(
                "the board has more than {} holes",
                super::instance::MAX_N
            )));
        }
        let cells: Vec<(i32, i32)> = holes.iter().map(|h| (h.0, h.1)).collect();
        let first: Vec<bool> = holes.iter().map(|h| h.2).collect();
        let goal = match (finish, finish_pegs) {
            (Some(_), Some(_)) => {
                return Err(Error::bad(
                    "give either a 'finish:' board or 'finish-pegs:', not both",
                ))
            }
            (None, None) => {
                return Err(Error::bad("missing 'finish:' board or 'finish-pegs:' line"))
            }
            (None, Some(k)) => Goal::PegCount(k),
            (Some(rows), None) => {
                let fh = parse_block(&rows, geometry, "finish")?;
                let fcells: Vec<(i32, i32)> = fh.iter().map(|h| (h.0, h.1)).collect();
                if fcells != cells {
                    let a: HashSet<_> = cells.iter().collect();
                    let b: HashSet<_> = fcells.iter().collect();
                    let row = a.symmetric_difference(&b).map(|c| c.0).min().unwrap_or(0);
                    return Err(Error::bad(format!(
                        "the finish board does not have the same holes as the start board ({} holes vs {}; first difference on board row {})",
                        fcells.len(),
                        cells.len(),
                        row + 1
                    )));
                }
                Goal::Position(fh.iter().map(|h| h.2).collect())
            }
        };
        let board = Board::new(geometry, cells);
        let triplets = board.triplets();
        if triplets.is_empty() {
            return Err(Error::bad(
                "the board has no line of three adjacent holes, so no move is possible",
            ));
        }
        let pagodas = pagoda_lines
            .iter()
            .map(|&(ln, value)| {
                parse_pagoda(value, &board, &triplets)
                    .map_err(|m| Error::bad(format!("line {ln}: {m}")))
            })
            .collect::<Result<Vec<_>>>()?;
        let instance = Instance::new(board.cells.len(), triplets, first, goal)?;
        Ok(Puzzle {
            name: name.unwrap_or_else(|| "unnamed".into()),
            instance,
            board: Some(board),
            pagodas,
        })
    }

    /// The pagoda functions the file gives (`pagoda:` lines: a weight per hole in reading
    /// order, each checked against every move when the file was read). The count of solvable
    /// positions prunes with them; nothing else depends on them.
    pub fn pagoda_hints(&self) -> &[Vec<i32>] {
        &self.pagodas
    }

    /// The puzzle's name (`name:` line, the file stem for raw files, or `unnamed` / `raw`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The formal instance `(t, f, l)`.
    pub fn instance(&self) -> &Instance {
        &self.instance
    }
    /// True for board puzzles (move notation available), false for raw instances.
    pub fn has_board(&self) -> bool {
        self.board.is_some()
    }
    /// The geometry of a board puzzle.
    pub fn geometry(&self) -> Option<Geometry> {
        self.board.as_ref().map(|b| b.geometry)
    }
    /// Lattice coordinates `(y, x)` of each vertex of a board puzzle (triangle boards: `x` in
    /// half cells), normalised so that the smallest `y` and `x` are 0. Jumps go between
    /// holes whose coordinates differ by a fixed step per direction.
    pub fn cells(&self) -> Option<&[(i32, i32)]> {
        self.board.as_ref().map(|b| b.cells.as_slice())
    }
    /// The cell name of vertex `v` (0-based) in move notation, or its 1-based number for raw
    /// instances.
    pub fn vertex_name(&self, v: u32) -> String {
        match &self.board {
            Some(b) => b
                .names
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{}", v as u64 + 1)),
            None => format!("{}", v as u64 + 1),
        }
    }

    /// The board's symmetries as vertex permutations (`p[v]` = image of `v`, identity
    /// included). They map moves to moves (middles to middles) but not necessarily the start or finish:
    /// [`crate::solver::solve`] keeps only those that fix the goal. Raw instances: just
    /// the identity.
    pub fn symmetries(&self) -> Vec<Vec<u32>> {
        match &self.board {
            Some(b) => b.symmetries(),
            None => vec![(0..self.instance.n() as u32).collect()],
        }
    }

    /// A position as text: the board drawing (`o` peg, `.` empty) for boards, a `0`/`1` row
    /// for raw instances. Bits beyond the row's length count as empty.
    pub fn render(&self, row: &[bool]) -> String {
        match &self.board {
            Some(b) => b.render(row),
            None => format_bits(row) + "\n",
        }
    }

    /// Parses a solution: a move list (boards only) or a matrix. The result is checked
    /// against the instance; an illegal move is reported with its number and notation.
    pub fn parse_solution(&self, text: &str) -> Result<Matrix> {
        let text = zkgames_core::files::strip_bom(text);
        let meaningful: String = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        if meaningful.trim().is_empty() {
            return Err(Error::bad("empty solution"));
        }
        let is_matrix = meaningful
            .chars()
            .all(|c| c == '0' || c == '1' || c == ',' || c.is_whitespace());
        let z = if is_matrix {
            let z = parse_matrix(text)?;
            self.instance.check_solution(&z)?;
            z
        } else {
            let b = self.board.as_ref().ok_or_else(|| {
                Error::bad(
                    "a raw instance has no board coordinates: give the solution as a 0/1 matrix",
                )
            })?;
            self.parse_moves(b, &meaningful)?
        };
        Ok(z)
    }

    fn parse_moves(&self, b: &Board, text: &str) -> Result<Matrix> {
        let inst = &self.instance;
        let mut ends: HashMap<(u32, u32), u32> = HashMap::new();
        for t in inst.triplets() {
            ends.insert((t[0], t[2]), t[1]);
            ends.insert((t[2], t[0]), t[1]);
        }
        let mut cur = inst.first().to_vec();
        let mut z = vec![cur.clone()];
        let max_moves = inst.s() - 1;
        let mut k = 0usize;
        for tok in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let parts: Vec<&str> = tok.split('-').collect();
            if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
                return Err(Error::bad(format!(
                    "move {}: '{}' is not a move (write FROM-TO, e.g. d2-d4)",
                    k + 1,
                    zkgames_core::files::excerpt(tok)
                )));
            }
            let cells: Vec<u32> = parts
                .iter()
                .map(|p| b.cell(p))
                .collect::<Result<_>>()
                .map_err(|e| Error::bad(format!("move {}: {e}", k + 1)))?;
            for w in cells.windows(2) {
                k += 1;
                let (a, c) = (w[0], w[1]);
                let mv = format!("{}-{}", b.names[a as usize], b.names[c as usize]);
                let err = |m: String| Error::bad(format!("move {k} ({mv}): {m}"));
                if k > max_moves {
                    return Err(err(format!(
                        "too many moves: a solution has exactly S - 1 = {}",
                        zkgames_core::files::count(max_moves as u64, "move")
                    )));
                }
                let mid = *ends.get(&(a, c)).ok_or_else(|| {
                    err(format!(
                        "{} and {} are not two holes apart along a line of the board",
                        b.names[a as usize], b.names[c as usize]
                    ))
                })?;
                if !cur[a as usize] {
                    return Err(err(format!("no peg at {}", b.names[a as usize])));
                }
                if !cur[mid as usize] {
                    return Err(err(format!(
                        "no peg to jump over at {}",
                        b.names[mid as usize]
                    )));
                }
                if cur[c as usize] {
                    return Err(err(format!("{} is not empty", b.names[c as usize])));
                }
                cur[a as usize] = false;
                cur[mid as usize] = false;
                cur[c as usize] = true;
                z.push(cur.clone());
            }
        }
        if k < max_moves {
            return Err(Error::bad(format!(
                "the solution has {}; a solution has exactly S - 1 = {}",
                zkgames_core::files::count(k as u64, "move"),
                zkgames_core::files::count(max_moves as u64, "move")
            )));
        }
        inst.check_solution(&z).map_err(|_| {
            let wrong: Vec<&str> = match inst.last() {
                Some(l) => (0..l.len())
                    .filter(|&v| l[v] != cur[v])
                    .map(|v| b.names[v].as_str())
                    .collect(),
                None => Vec::new(),
            };
            let more = if wrong.len() > 8 { ", …" } else { "" };
            Error::bad(format!(
                "after {} the position is not the finish: it differs on {}{more}",
                zkgames_core::files::count(k as u64, "move"),
                wrong[..wrong.len().min(8)].join(", ")
            ))
        })?;
        Ok(z)
    }

    /// Formats a solution: one move per line for boards, the matrix for raw instances.
    /// `z` should be valid ([`Instance::check_solution`]); if some step is not a legal move,
    /// the matrix is written instead, so the output always describes `z` faithfully.
    pub fn format_solution(&self, z: &Matrix) -> String {
        let matrix = || z.iter().map(|r| format_bits(r) + "\n").collect::<String>();
        let Some(b) = &self.board else {
            return matrix();
        };
        let mut out = String::new();
        for w in z.windows(2) {
            let (Some(ti), true) = (
                self.instance.step_triplet(&w[0], &w[1]),
                w[0].len() == self.instance.n(),
            ) else {
                return matrix();
            };
            let t = self.instance.triplets()[ti];
            let (from, to) = if w[0][t[0] as usize] {
                (t[0], t[2])
            } else {
                (t[2], t[0])
            };
            out += &format!("{}-{}\n", b.names[from as usize], b.names[to as usize]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_letters_spreadsheet_style() {
        assert_eq!(column_letters(0), "a");
        assert_eq!(column_letters(25), "z");
        assert_eq!(column_letters(26), "aa");
        assert_eq!(column_letters(27), "ab");
        assert_eq!(column_letters(52), "ba");
        let all: HashSet<String> = (0..2000).map(column_letters).collect();
        assert_eq!(all.len(), 2000);
    }
}
