//! Wall Game positions: a rows × cols board, the walls on it, and what must stay connected.
//!
//! A position is either a *game* (a variant plus each player's pieces, from which the attached
//! pairs follow) or a bare list of *explicit pairs* of cells. Either way it yields node pairs
//! for the cut oracle ([`crate::moves::analyze`]), and it is *valid* when every pair is
//! connected through the free slots.
//!
//! Coordinates: rows and columns count from 0, row 0 on top; cell `(r, c)` is graph node
//! `r * cols + c`. A wall sits on a *slot* between two orthogonally adjacent cells:
//! [`Dir::R`] is the slot between `(r, c)` and `(r, c + 1)`, [`Dir::D`] the slot between
//! `(r, c)` and `(r + 1, c)`. Slots on the outer border do not exist (the border is always
//! closed), so a wall there is bad input.
//!
//! Walls are ordered by `(row, col, dir)` with `D < R`; every list this module returns is
//! sorted that way, and graph edge ids are assigned in the same order, so sorting edge ids
//! sorts walls.
//!
//! [`Position::new`] is the only constructor and checks every rule, so a `Position` value is
//! always well formed: misuse such as a piece off the board is an [`Error::BadInput`], never a
//! panic later on.

use std::fmt;

use crate::graph::Graph;
use crate::moves;
use zkgames_core::Error;
use zkgames_core::Result;

/// Largest number of rows or of columns.
pub const MAX_SIDE: u32 = 1000;
/// Largest number of cells (rows × cols).
pub const MAX_CELLS: u64 = 1_000_000;
/// Largest number of explicit attached pairs.
pub const MAX_PAIRS: usize = 1_000_000;
/// Largest number of players in a game position.
pub const MAX_PLAYERS: usize = 4;

/// A cell as `(row, col)`.
pub type Cell = (u32, u32);

/// Which slot of a cell a wall occupies. `D < R` in the wall order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Down: between `(r, c)` and `(r + 1, c)`.
    D,
    /// Right: between `(r, c)` and `(r, c + 1)`.
    R,
}

impl Dir {
    /// `"D"` or `"R"`, as in the JSON format.
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::D => "D",
            Dir::R => "R",
        }
    }
}

/// A wall slot: `(row, col, dir)`. Ordered by row, then column, then `D < R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wall {
    pub row: u32,
    pub col: u32,
    pub dir: Dir,
}

impl Wall {
    pub fn new(row: u32, col: u32, dir: Dir) -> Self {
        Wall { row, col, dir }
    }
    /// The two cells this slot separates.
    pub fn cells(self) -> (Cell, Cell) {
        match self.dir {
            Dir::R => ((self.row, self.col), (self.row, self.col + 1)),
            Dir::D => ((self.row, self.col), (self.row + 1, self.col)),
        }
    }
}

impl fmt::Display for Wall {
    /// `[r, c, "R"]`, the JSON spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}, \"{}\"]", self.row, self.col, self.dir.as_str())
    }
}

/// The game variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Each player has a cat and a goal (no mice); each cat must be able to reach its own goal.
    /// 1 to 4 players.
    Classic,
    /// Exactly two players, each with a cat and a mouse (no goals); each cat must be able to
    /// reach the opponent's mouse.
    CatAndMouse,
    /// Three or four players in a ring, each with a cat and a mouse (no goals); player `i`'s cat
    /// must be able to reach player `i + 1`'s mouse (the last player's cat chases player 1).
    Ring,
}

impl Variant {
    /// The name used in both text formats.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::CatAndMouse => "cat-and-mouse",
            Variant::Ring => "ring",
        }
    }
    /// Parses a variant name (exact, lower case).
    pub fn from_name(s: &str) -> Result<Self> {
        match s {
            "classic" => Ok(Variant::Classic),
            "cat-and-mouse" => Ok(Variant::CatAndMouse),
            "ring" => Ok(Variant::Ring),
            _ => Err(Error::bad(format!(
                "unknown variant '{}' (expected \"classic\", \"cat-and-mouse\" or \"ring\")",
                zkgames_core::files::excerpt(s)
            ))),
        }
    }
}

/// One player's pieces. Which of `mouse` and `goal` is present depends on the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub cat: Cell,
    pub mouse: Option<Cell>,
    pub goal: Option<Cell>,
}

/// What a position requires to stay connected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// A bare list of attached cell pairs.
    Pairs(Vec<(Cell, Cell)>),
    /// A game: the pairs follow from the variant and the pieces.
    Game {
        variant: Variant,
        players: Vec<Player>,
    },
}

/// Why two cells must stay connected; used to explain a cut in human terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairRole {
    /// The `i`-th (0-based) explicit pair.
    Explicit(usize),
    /// Player `player`'s (0-based) cat must reach its goal.
    Goal { player: usize },
    /// Player `cat`'s cat must reach player `mouse`'s mouse (both 0-based).
    Catch { cat: usize, mouse: usize },
}

/// An attached pair of cells and why it is attached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttachedPair {
    pub a: Cell,
    pub b: Cell,
    pub role: PairRole,
}

impl AttachedPair {
    /// A human sentence saying that this pair is disconnected, e.g.
    /// "player 1's cat at (0, 0) cannot reach player 2's mouse at (3, 4)". Players count from 1.
    pub fn describe_cut(&self) -> String {
        let (a, b) = (self.a, self.b);
        match self.role {
            PairRole::Explicit(i) => format!(
                "pair {} (cell ({}, {}) and cell ({}, {})) is disconnected",
                i + 1,
                a.0,
                a.1,
                b.0,
                b.1
            ),
            PairRole::Goal { player } => format!(
                "player {}'s cat at ({}, {}) cannot reach its goal at ({}, {})",
                player + 1,
                a.0,
                a.1,
                b.0,
                b.1
            ),
            PairRole::Catch { cat, mouse } => format!(
                "player {}'s cat at ({}, {}) cannot reach player {}'s mouse at ({}, {})",
                cat + 1,
                a.0,
                a.1,
                mouse + 1,
                b.0,
                b.1
            ),
        }
    }
}

/// A validated Wall Game position. Build it with [`Position::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    rows: u32,
    cols: u32,
    walls: Vec<Wall>,
    setup: Setup,
}

/// A position's graph plus the two-way map between edge ids and wall slots.
///
/// Edge ids are assigned in wall order (row, col, `D` before `R`) over the free slots, so
/// `wall_of` is increasing in the edge id.
#[derive(Clone, Debug)]
pub struct BoardGraph {
    pub graph: Graph,
    cols: u32,
    edge_wall: Vec<Wall>,
    slot_edge: Vec<u32>,
}

/// Marks a slot with no edge in [`BoardGraph`]'s slot table.
const NO_EDGE: u32 = u32::MAX;

impl BoardGraph {
    /// The wall slot of edge `e`. Panics if `e` is not an edge id of this graph.
    pub fn wall_of(&self, e: u32) -> Wall {
        self.edge_wall[e as usize]
    }
    /// The edge id of a free slot; `None` for a walled slot or a slot not on the board.
    pub fn edge_of(&self, w: Wall) -> Option<u32> {
        if w.col >= self.cols {
            return None;
        }
        let i = slot_index(self.cols, w)?;
        match self.slot_edge.get(i) {
            Some(&e) if e != NO_EDGE => Some(e),
            _ => None,
        }
    }
    /// Every free slot, sorted.
    pub fn free(&self) -> &[Wall] {
        &self.edge_wall
    }
}

/// Index of a slot in a `2 * rows * cols` table: two slots (D, R) per cell.
fn slot_index(cols: u32, w: Wall) -> Option<usize> {
    let cell = (w.row as u64) * (cols as u64) + w.col as u64;
    usize::try_from(cell * 2 + (w.dir == Dir::R) as u64).ok()
}

/// The most illegal wall pairs [`Position::analyze`] will list.
pub const MAX_LISTED_PAIRS: u64 = 5_000_000;

/// The most work [`Position::analyze`] takes on: distinct attached pairs (two different
/// cells, either order) times cells. The oracle is built per pair in time and memory linear
/// in the board (about 1 µs and 40 bytes per cell), so this bounds a run to a few seconds and
/// a few hundred MB: 4 pairs on a 1000×1000 board, 100 pairs on 200×200.
pub const MAX_ANALYZE_WORK: u64 = 4_000_000;

/// The analysis of a position, in walls rather than edge ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WallAnalysis {
    /// Every attached pair is connected.
    pub valid: bool,
    /// The attached pairs that are disconnected (empty when valid).
    pub cut: Vec<AttachedPair>,
    /// Every free slot, sorted.
    pub free: Vec<Wall>,
    /// Free slots where a single wall would disconnect some pair, sorted. Empty when invalid.
    pub illegal_single: Vec<Wall>,
    /// Unordered pairs of free slots, each legal alone, that together disconnect some pair;
    /// smaller wall first, sorted. Empty when invalid.
    pub illegal_pairs: Vec<(Wall, Wall)>,
}

impl Position {
    /// Validates and builds a position. Walls may come in any order; they are sorted.
    ///
    /// Rejects: sizes of 0 or beyond [`MAX_SIDE`]/[`MAX_CELLS`]; walls on the border or off
    /// the board; duplicate walls; cells off the board; more than [`MAX_PAIRS`] pairs; for
    /// games, a player count or set of pieces the variant does not allow. Pieces (cats, mice,
    /// goals) may share a cell, as the game allows: stacking never blocks movement.
    pub fn new(rows: u32, cols: u32, mut walls: Vec<Wall>, setup: Setup) -> Result<Self> {
        if rows == 0 || cols == 0 {
            return Err(Error::bad(format!(
                "board of {rows}x{cols}: rows and cols must be at least 1"
            )));
        }
        if rows > MAX_SIDE || cols > MAX_SIDE || rows as u64 * cols as u64 > MAX_CELLS {
            return Err(Error::bad(format!(
                "board of {rows}x{cols} is too large (at most {MAX_SIDE} rows, {MAX_SIDE} cols and {MAX_CELLS} cells)"
            )));
        }
        for w in &walls {
            // Check the cell first so that `+ 1` below cannot overflow.
            let ok = w.row < rows
                && w.col < cols
                && match w.dir {
                    Dir::R => w.col + 1 < cols,
                    Dir::D => w.row + 1 < rows,
                };
            if !ok {
                return Err(Error::bad(format!(
                    "wall {w} is off the board or on its border ({rows}x{cols} board)"
                )));
            }
        }
        walls.sort_unstable();
        if let Some(d) = walls.windows(2).find(|p| p[0] == p[1]) {
            return Err(Error::bad(format!("duplicate wall {}", d[0])));
        }
        let on_board = |c: Cell, what: &str| -> Result<()> {
            if c.0 < rows && c.1 < cols {
                Ok(())
            } else {
                Err(Error::bad(format!(
                    "{what} at ({}, {}) is off the board ({rows}x{cols})",
                    c.0, c.1
                )))
            }
        };
        match &setup {
            Setup::Pairs(pairs) => {
                if pairs.len() > MAX_PAIRS {
                    return Err(Error::bad(format!(
                        "{} pairs: at most {MAX_PAIRS} allowed",
                        pairs.len()
                    )));
                }
                for (i, &(a, b)) in pairs.iter().enumerate() {
                    on_board(a, &format!("pair {} cell", i + 1))?;
                    on_board(b, &format!("pair {} cell", i + 1))?;
                }
            }
            Setup::Game { variant, players } => {
                let n = players.len();
                let count_ok = match variant {
                    Variant::Classic => (1..=MAX_PLAYERS).contains(&n),
                    Variant::CatAndMouse => n == 2,
                    Variant::Ring => (3..=4).contains(&n),
                };
                if !count_ok {
                    let want = match variant {
                        Variant::Classic => "1 to 4",
                        Variant::CatAndMouse => "exactly 2",
                        Variant::Ring => "3 or 4",
                    };
                    return Err(Error::bad(format!(
                        "variant {} needs {want} players, found {n}",
                        variant.name()
                    )));
                }
                for (i, p) in players.iter().enumerate() {
                    let who = format!("player {}", i + 1);
                    match variant {
                        Variant::Classic => {
                            if p.mouse.is_some() {
                                return Err(Error::bad(format!(
                                    "{who} has a mouse, but classic has no mice"
                                )));
                            }
                            if p.goal.is_none() {
                                return Err(Error::bad(format!(
                                    "{who} has no goal (classic needs one)"
                                )));
                            }
                        }
                        Variant::CatAndMouse | Variant::Ring => {
                            if p.goal.is_some() {
                                return Err(Error::bad(format!(
                                    "{who} has a goal, but {} has no goals",
                                    variant.name()
                                )));
                            }
                            if p.mouse.is_none() {
                                return Err(Error::bad(format!(
                                    "{who} has no mouse ({} needs one)",
                                    variant.name()
                                )));
                            }
                        }
                    }
                    on_board(p.cat, &format!("{who}'s cat"))?;
                    if let Some(m) = p.mouse {
                        on_board(m, &format!("{who}'s mouse"))?;
                    }
                    if let Some(g) = p.goal {
                        on_board(g, &format!("{who}'s goal"))?;
                    }
                }
            }
        }
        Ok(Position {
            rows,
            cols,
            walls,
            setup,
        })
    }

    pub fn rows(&self) -> u32 {
        self.rows
    }
    pub fn cols(&self) -> u32 {
        self.cols
    }
    /// The walls, sorted.
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The graph node of a cell: `r * cols + c`.
    pub fn node(&self, c: Cell) -> u32 {
        c.0 * self.cols + c.1
    }

    /// The attached pairs, in order: explicit pairs as given; classic: player i's cat and
    /// goal; cat-and-mouse and ring: player i's cat and player (i+1 mod n)'s mouse.
    pub fn attached_pairs(&self) -> Vec<AttachedPair> {
        match &self.setup {
            Setup::Pairs(p) => p
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| AttachedPair {
                    a,
                    b,
                    role: PairRole::Explicit(i),
                })
                .collect(),
            Setup::Game { variant, players } => {
                let n = players.len();
                (0..n)
                    .map(|i| match variant {
                        Variant::Classic => AttachedPair {
                            a: players[i].cat,
                            b: players[i]
                                .goal
                                .expect("validated: classic players have goals"),
                            role: PairRole::Goal { player: i },
                        },
                        Variant::CatAndMouse | Variant::Ring => {
                            let j = (i + 1) % n;
                            AttachedPair {
                                a: players[i].cat,
                                b: players[j].mouse.expect("validated: players have mice"),
                                role: PairRole::Catch { cat: i, mouse: j },
                            }
                        }
                    })
                    .collect()
            }
        }
    }

    /// The attached pairs as graph node pairs, in [`Position::attached_pairs`] order.
    pub fn node_pairs(&self) -> Vec<(u32, u32)> {
        self.attached_pairs()
            .iter()
            .map(|p| (self.node(p.a), self.node(p.b)))
            .collect()
    }

    /// Whether a slot holds a wall.
    pub fn has_wall(&self, w: Wall) -> bool {
        self.walls.binary_search(&w).is_ok()
    }

    /// Builds the graph: one node per cell, one edge per free slot, in wall order.
    pub fn graph(&self) -> BoardGraph {
        let (rows, cols) = (self.rows, self.cols);
        let cells = rows as usize * cols as usize;
        let mut blocked = vec![false; 2 * cells];
        for &w in &self.walls {
            blocked[slot_index(cols, w).expect("validated wall")] = true;
        }
        let mut slot_edge = vec![NO_EDGE; 2 * cells];
        let mut edges = Vec::with_capacity(2 * cells);
        let mut edge_wall = Vec::with_capacity(2 * cells);
        for r in 0..rows {
            for c in 0..cols {
                let v = r * cols + c;
                let base = 2 * v as usize;
                if r + 1 < rows && !blocked[base] {
                    slot_edge[base] = edges.len() as u32;
                    edges.push((v, v + cols));
                    edge_wall.push(Wall::new(r, c, Dir::D));
                }
                if c + 1 < cols && !blocked[base + 1] {
                    slot_edge[base + 1] = edges.len() as u32;
                    edges.push((v, v + 1));
                    edge_wall.push(Wall::new(r, c, Dir::R));
                }
            }
        }
        BoardGraph {
            graph: Graph::new(cells, edges),
            cols,
            edge_wall,
            slot_edge,
        }
    }

    /// The attached pairs that are disconnected (empty means the position is valid).
    /// Linear time: labels connected components with an iterative BFS.
    pub fn cut_pairs(&self, bg: &BoardGraph) -> Vec<AttachedPair> {
        let comp = components(&bg.graph);
        self.attached_pairs()
            .into_iter()
            .filter(|p| comp[self.node(p.a) as usize] != comp[self.node(p.b) as usize])
            .collect()
    }

    /// Whether every attached pair is connected.
    pub fn is_valid(&self) -> bool {
        self.cut_pairs(&self.graph()).is_empty()
    }

    /// The free slots where a single wall would be illegal (indelible for some pair), sorted,
    /// by the O(V + E + k) single-cut method; empty for an invalid position.
    pub fn illegal_single_walls(&self) -> Vec<Wall> {
        let bg = self.graph();
        let pairs: Vec<(u32, u32)> = self
            .attached_pairs()
            .iter()
            .map(|p| (self.node(p.a), self.node(p.b)))
            .collect();
        let mut v: Vec<Wall> = match crate::cut::single::indelible(&bg.graph, &pairs) {
            Ok(ind) => (0..bg.graph.m() as u32)
                .filter(|&e| ind[e as usize])
                .map(|e| bg.wall_of(e))
                .collect(),
            Err(_) => Vec::new(),
        };
        v.sort_unstable();
        v
    }

    /// Runs the cut oracle and translates its edge ids into walls.
    ///
    /// For an invalid position the illegal lists are empty whatever the oracle returns: legality
    /// of a wall is only defined while every pair is still connected. Refuses (bad input) a
    /// position with more than [`MAX_LISTED_PAIRS`] illegal wall pairs to list: a walled
    /// corridor forming one long cycle has quadratically many.
    pub fn analyze(&self) -> Result<WallAnalysis> {
        let attached = self.attached_pairs();
        let key = |p: &AttachedPair| {
            let (x, y) = (self.node(p.a), self.node(p.b));
            (x.min(y), x.max(y))
        };
        // Repeated pairs (in either order) and pairs of one cell add nothing: drop them
        // before the per-pair work, then bound that work before doing any of it.
        let mut pairs: Vec<(u32, u32)> = attached.iter().map(key).filter(|p| p.0 != p.1).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let cells = self.rows as u64 * self.cols as u64;
        let work = pairs.len() as u64 * cells;
        if work > MAX_ANALYZE_WORK {
            return Err(Error::bad(format!(
                "analyze builds one cut oracle per attached pair: {} distinct pairs on {} cells is {work} pair-cells, over the limit of {MAX_ANALYZE_WORK} (4 pairs on 1000x1000, 100 on 200x200); `wall check` has no such limit",
                pairs.len(),
                cells
            )));
        }
        let bg = self.graph();
        let a = moves::analyze_bounded(&bg.graph, &pairs, MAX_LISTED_PAIRS).map_err(|n| {
            Error::bad(format!(
                "this position has up to {n} illegal wall pairs, more than the {MAX_LISTED_PAIRS} `analyze` lists"
            ))
        })?;
        let mut cut_keys: Vec<(u32, u32)> = a.cut_pairs.iter().map(|&i| pairs[i]).collect();
        cut_keys.sort_unstable();
        let cut = attached
            .iter()
            .filter(|p| cut_keys.binary_search(&key(p)).is_ok())
            .copied()
            .collect();
        let mut illegal_single: Vec<Wall> =
            a.illegal_single.iter().map(|&e| bg.wall_of(e)).collect();
        illegal_single.sort_unstable();
        let mut illegal_pairs: Vec<(Wall, Wall)> = a
            .illegal_pairs
            .iter()
            .map(|&(x, y)| {
                let (p, q) = (bg.wall_of(x), bg.wall_of(y));
                if p <= q {
                    (p, q)
                } else {
                    (q, p)
                }
            })
            .collect();
        illegal_pairs.sort_unstable();
        if !a.valid {
            illegal_single.clear();
            illegal_pairs.clear();
        }
        Ok(WallAnalysis {
            valid: a.valid,
            cut,
            free: bg.free().to_vec(),
            illegal_single,
            illegal_pairs,
        })
    }
}

/// Connected-component label of every node (iterative BFS, no recursion).
pub fn components(g: &Graph) -> Vec<u32> {
    let n = g.n();
    let mut comp = vec![u32::MAX; n];
    let mut queue = Vec::new();
    let mut next = 0u32;
    for s in 0..n {
        if comp[s] != u32::MAX {
            continue;
        }
        comp[s] = next;
        queue.clear();
        queue.push(s as u32);
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head];
            head += 1;
            for &(w, _) in g.neighbors(v) {
                if comp[w as usize] == u32::MAX {
                    comp[w as usize] = next;
                    queue.push(w);
                }
            }
        }
        next += 1;
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p2(walls: Vec<Wall>, pairs: Vec<(Cell, Cell)>) -> Result<Position> {
        Position::new(2, 3, walls, Setup::Pairs(pairs))
    }

    #[test]
    fn graph_numbering_and_map() {
        let pos = p2(
            vec![Wall::new(0, 1, Dir::R), Wall::new(0, 0, Dir::D)],
            vec![],
        )
        .unwrap();
        let bg = pos.graph();
        // 2x3 board: 3 D slots + 4 R slots = 7, minus 2 walls.
        assert_eq!(bg.graph.m(), 5);
        for e in 0..bg.graph.m() as u32 {
            let w = bg.wall_of(e);
            assert_eq!(bg.edge_of(w), Some(e));
            let (a, b) = w.cells();
            assert_eq!(bg.graph.edge(e), (pos.node(a), pos.node(b)));
        }
        assert_eq!(bg.edge_of(Wall::new(0, 1, Dir::R)), None);
        assert_eq!(bg.edge_of(Wall::new(0, 2, Dir::R)), None);
        assert_eq!(bg.edge_of(Wall::new(1, 0, Dir::D)), None);
        assert!(bg.free().windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rejects_bad_walls_and_sizes() {
        assert!(p2(vec![Wall::new(0, 2, Dir::R)], vec![]).is_err());
        assert!(p2(vec![Wall::new(1, 0, Dir::D)], vec![]).is_err());
        assert!(p2(vec![Wall::new(u32::MAX, u32::MAX, Dir::D)], vec![]).is_err());
        assert!(p2(
            vec![Wall::new(0, 0, Dir::D), Wall::new(0, 0, Dir::D)],
            vec![]
        )
        .is_err());
        assert!(p2(vec![], vec![((0, 0), (2, 0))]).is_err());
        assert!(Position::new(0, 3, vec![], Setup::Pairs(vec![])).is_err());
        assert!(Position::new(1001, 3, vec![], Setup::Pairs(vec![])).is_err());
        assert!(Position::new(1000, 1001, vec![], Setup::Pairs(vec![])).is_err());
        assert!(Position::new(1000, 1000, vec![], Setup::Pairs(vec![])).is_ok());
    }

    #[test]
    fn game_rules() {
        let pl = |cat: Cell, mouse: Option<Cell>, goal: Option<Cell>| Player { cat, mouse, goal };
        let game = |variant, players| Position::new(3, 3, vec![], Setup::Game { variant, players });
        assert!(game(Variant::Classic, vec![pl((0, 0), None, Some((2, 2)))]).is_ok());
        assert!(game(
            Variant::Classic,
            vec![pl((0, 0), Some((1, 1)), Some((2, 2)))]
        )
        .is_err());
        assert!(game(Variant::Classic, vec![pl((0, 0), None, None)]).is_err());
        // Pieces may share a cell (a cat on its own goal, a cat on a mouse).
        assert!(game(Variant::Classic, vec![pl((0, 0), None, Some((0, 0)))]).is_ok());
        assert!(game(
            Variant::CatAndMouse,
            vec![
                pl((0, 0), Some((0, 0)), None),
                pl((0, 0), Some((0, 0)), None)
            ]
        )
        .is_ok());
        let cm = vec![
            pl((0, 0), Some((0, 1)), None),
            pl((2, 2), Some((2, 1)), None),
        ];
        let pos = game(Variant::CatAndMouse, cm.clone()).unwrap();
        let ps = pos.attached_pairs();
        assert_eq!((ps[0].a, ps[0].b), ((0, 0), (2, 1)));
        assert_eq!((ps[1].a, ps[1].b), ((2, 2), (0, 1)));
        assert!(game(Variant::Ring, cm.clone()).is_err());
        let mut three = cm;
        three.push(pl((1, 1), Some((1, 0)), None));
        let pos = game(Variant::Ring, three.clone()).unwrap();
        let ps = pos.attached_pairs();
        assert_eq!((ps[2].a, ps[2].b), ((1, 1), (0, 1)));
        assert!(game(Variant::CatAndMouse, three).is_err());
    }

    #[test]
    fn cut_detection() {
        // Wall off column 0 from the rest on a 2x3 board.
        let walls = vec![Wall::new(0, 0, Dir::R), Wall::new(1, 0, Dir::R)];
        let pos = p2(walls, vec![((0, 0), (1, 0)), ((0, 0), (1, 2))]).unwrap();
        let cut = pos.cut_pairs(&pos.graph());
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0].role, PairRole::Explicit(1));
        assert!(!pos.is_valid());
        let a = pos.analyze().unwrap();
        assert!(!a.valid);
        assert_eq!(a.cut, cut);
    }
}
