//! Loopy's grid types (the `t` of PARAMS `WxHtTdD`) and the numbering of a grid's faces,
//! dots and edges, which the save file's moves and Solve record index.
//!
//! - Faces: in the order the tiling creates them ([`super::tilings`]; on the Penrose grids
//!   the order the subdivision reaches them, less those trimmed: [`super::penrose`]).
//! - Edges: as `grid.c`'s `grid_make_consistent` numbers them: faces in order, each face's
//!   sides in order (side `j` joins corners `j` and `j + 1`, the last joins the last and the
//!   first), an edge numbered when first met; its first face is the one it was met in.
//! - Dots: the program numbers them as it meets them; the moves never name a dot, so this
//!   crate numbers them in reading order of their coordinates (by `y`, then `x`), which for
//!   squares is row by row (on the Penrose grids too: dots are distinct coordinates there).

use super::penrose::Kind;
use super::tilings::{self, Pt, Tiles, Tiling};
use std::collections::HashMap;

/// One grid type of the installed program (Debian's sgt-puzzles 20230122).
pub struct GridType {
    /// The program's name for it (its "Grid type" menu).
    pub name: &'static str,
    /// Width and height must both be at least `both`, and one of them at least `one`.
    pub both: usize,
    pub one: usize,
    /// How the program builds it.
    pub build: Build,
}

/// How a grid type's faces are made.
#[derive(Clone, Copy)]
pub enum Build {
    /// A periodic tiling in exact integer coordinates ([`super::tilings`]).
    Tiling(Tiling),
    /// A patch of a Penrose tiling chosen by the grid description ([`super::penrose`]).
    Penrose(Kind),
}

impl GridType {
    /// The periodic tiling, if the type is one.
    pub fn tiling(&self) -> Option<Tiling> {
        match self.build {
            Build::Tiling(t) => Some(t),
            Build::Penrose(_) => None,
        }
    }
}

const fn ty(name: &'static str, both: usize, one: usize, t: Tiling) -> GridType {
    GridType {
        name,
        both,
        one,
        build: Build::Tiling(t),
    }
}

/// Indexed by the type number, as `loopy.c`'s list (new types are only ever appended).
pub const TYPES: [GridType; 16] = [
    ty("squares", 3, 3, tilings::squares),
    ty("triangular", 3, 3, tilings::triangular),
    ty("honeycomb", 3, 3, tilings::honeycomb),
    ty("snub-square", 3, 3, tilings::snub_square),
    ty("Cairo", 3, 4, tilings::cairo),
    ty("great-hexagonal", 3, 3, tilings::great_hexagonal),
    ty("octagonal", 3, 3, tilings::octagonal),
    ty("kites", 3, 3, tilings::kites),
    ty("floret", 1, 2, tilings::floret),
    ty("dodecagonal", 2, 2, tilings::dodecagonal),
    ty("great-dodecagonal", 2, 2, tilings::great_dodecagonal),
    GridType {
        name: "Penrose (kite/dart)",
        both: 3,
        one: 3,
        build: Build::Penrose(Kind::Kites),
    },
    GridType {
        name: "Penrose (rhombs)",
        both: 3,
        one: 3,
        build: Build::Penrose(Kind::Rhombs),
    },
    ty(
        "great-great-dodecagonal",
        2,
        2,
        tilings::great_great_dodecagonal,
    ),
    ty("kagome", 3, 3, tilings::kagome),
    ty("compass-dodecagonal", 2, 2, tilings::compass_dodecagonal),
];

/// The supported types, for refusals: "squares (t0), triangular (t1), …".
pub fn supported() -> String {
    TYPES
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{} (t{i})", t.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One edge of the grid: its two dots and the faces on either side (`None` outside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub dots: [usize; 2],
    pub faces: [Option<usize>; 2],
}

/// A grid: faces (each its dots in order and its edges in order), dots, edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Per face, its corners (dot numbers) in the program's order.
    pub faces: Vec<Vec<usize>>,
    /// Per face, its sides (edge numbers): side `j` joins corners `j` and `j + 1`.
    pub sides: Vec<Vec<usize>>,
    /// The edges in the program's order.
    pub edges: Vec<Edge>,
    /// Per dot, its coordinates (the program's integer units).
    pub dots: Vec<Pt>,
}

impl Grid {
    /// Numbers the faces of a tiling: dots in reading order, edges as the program does.
    pub fn new(tiles: Tiles) -> Grid {
        let mut pts: Vec<Pt> = tiles.faces.iter().flatten().copied().collect();
        pts.sort_by_key(|&(x, y)| (y, x));
        pts.dedup();
        let index: HashMap<Pt, usize> = pts.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let faces: Vec<Vec<usize>> = tiles
            .faces
            .iter()
            .map(|f| f.iter().map(|p| index[p]).collect())
            .collect();
        let mut edges: Vec<Edge> = Vec::new();
        let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
        let mut sides = Vec::with_capacity(faces.len());
        for (f, corners) in faces.iter().enumerate() {
            let k = corners.len();
            let mut mine = Vec::with_capacity(k);
            for j in 0..k {
                let (a, b) = (corners[j], corners[(j + 1) % k]);
                let key = (a.min(b), a.max(b));
                let e = *seen.entry(key).or_insert_with(|| {
                    edges.push(Edge {
                        dots: [a, b],
                        faces: [Some(f), None],
                    });
                    edges.len() - 1
                });
                if edges[e].faces[0] != Some(f) {
                    edges[e].faces[1] = Some(f);
                }
                mine.push(e);
            }
            sides.push(mine);
        }
        Grid {
            faces,
            sides,
            edges,
            dots: pts,
        }
    }
}
