//! The Wall Game as it is played: whose move it is, moves of up to two actions, their legality,
//! captures, wins and draws.
//!
//! # A move
//!
//! A [`Move`] says where the mover's cat ends, where its mouse ends and which walls it places.
//! It costs one *action* per step of a piece (a piece ends one or two cells away, orthogonally:
//! straight or in an L, so its step count is the Manhattan distance) and one per wall; a move has
//! at most two actions. The actions apply in the canonical order, cat, then mouse, then walls:
//! - a step crosses a slot between two adjacent cells, which must be free (a two-cell step needs
//!   one intermediate cell reached and left through free slots: one candidate when straight, two
//!   in an L). Steps are judged on the position's walls, never on this move's walls, which come
//!   after them. Pieces never block one another and may share cells.
//! - a wall goes on a slot of the board (not the border) that holds no wall, and after it every
//!   cat must still reach what it chases, on the grid that holds the pawn moves and any earlier
//!   wall of the move ([`Variant::CatAndMouse`]: the opponent's mouse; [`Variant::Ring`]: the
//!   next player's mouse; [`Variant::Classic`]: its own home, which never moves — so a classic
//!   move has no mouse part).
//!
//! [`Game::check`] reports the first rule broken, in this order: the cat's destination (on the
//! board, then one or two steps away), the mouse's (no mouse in classic, on the board, one or
//! two steps away), the action count, the cat's path, the mouse's path, each wall in canonical
//! order (a slot of the board, free, not the move's other wall), then the wall rule for the
//! first wall and for the second.
//!
//! # Which tables the wall rule reads
//!
//! Pawn steps change the attached pairs (the mover's cat chases from its new cell; the cat that
//! chases the mover's mouse chases it to its new cell) but not the graph. So the oracle form of
//! legality ([`Checker`], [`Game::legal_moves`]) builds the cut oracle ([`MoveOracle`]) for the
//! position's graph and the pairs *after the pawn actions* ([`Game::check`], judging one move
//! alone, runs the equivalent breadth-first searches, cheaper than one oracle build):
//! - one wall `e`: illegal iff `e` is indelible, i.e. `class[e] = BRIDGE` in some pair's
//!   [`crate::cut::double::PairCut`];
//! - two walls `e1`, `e2` (each a free slot, `e1 ≠ e2`): the first is checked alone as above;
//!   the second is illegal iff some pair's `PairCut::cuts(e1, e2)` (the `class`, `index`,
//!   `red_lo`, `red_hi` tables; the bridge flag of `e2` is part of that test).
//!
//! A zero-knowledge circuit proving a hidden move legal can take these tables as public
//! constants: the mover's pawn options ([`Game::pawn_options`], at most 41) each give one set of
//! pairs, of which only the two pairs touching the mover's pieces differ from the position's.
//!
//! # End of the game
//!
//! Judged after every move, on the final cells of the move (a piece passing over a cell during a
//! two-cell step captures nothing there). A cat sharing a cell with the mouse it chases (or, in
//! classic, with its own home) wins for its player, whoever moved. Two or more such cats at once:
//! a draw. The one-move rule (cat-and-mouse only): when player 1's move makes player 1's cat
//! catch, but player 2's cat is within two steps of player 1's mouse (a path of at most two free
//! slots, on the board after player 1's move), player 2 would catch back in its reply, so the game
//! is a draw. A position read from a file has no history: a capture standing in it wins for the
//! catcher, without the one-move rule.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use crate::board::{
    AttachedPair, BoardGraph, Cell, Dir, PairRole, Player, Position, Setup, Variant, Wall,
};
use crate::graph::Bfs;
use crate::moves::MoveOracle;
use crate::notation::{action_name, cell_name};
use zkgames_core::Error;
use zkgames_core::Result;

/// One part of a move as written: where a piece ends (one or two steps), or a wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The mover's cat ends on this cell.
    Cat(Cell),
    /// The mover's mouse ends on this cell.
    Mouse(Cell),
    /// A wall on this slot.
    Wall(Wall),
}

/// A move of the player to move: its cat's and mouse's final cells (when they move) and its
/// walls. Walls are kept in the canonical order (vertical walls `R` first, then horizontal `D`;
/// each kind by column, then from the bottom row up), so two moves with the same parts are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    cat: Option<Cell>,
    mouse: Option<Cell>,
    walls: Vec<Wall>,
}

/// The canonical sort key of a wall: `R` before `D`, then column, then rank ascending (row
/// descending).
fn wall_key(w: &Wall) -> (u8, u32, std::cmp::Reverse<u32>) {
    ((w.dir == Dir::D) as u8, w.col, std::cmp::Reverse(w.row))
}

impl Move {
    /// A move from its parts; the walls may come in any order.
    pub fn new(cat: Option<Cell>, mouse: Option<Cell>, mut walls: Vec<Wall>) -> Move {
        walls.sort_by_key(wall_key);
        Move { cat, mouse, walls }
    }
    /// The move with no action (`---`).
    pub fn none() -> Move {
        Move::new(None, None, Vec::new())
    }
    pub fn cat(&self) -> Option<Cell> {
        self.cat
    }
    pub fn mouse(&self) -> Option<Cell> {
        self.mouse
    }
    /// A number whose order is the order of `Move`'s `Ord`, for moves on the board with at
    /// most two walls (as every legal move is): cat, mouse, first wall, second wall, each 0
    /// when absent (`None` sorts first, so a missing wall compares as the shorter list of
    /// walls does), else 1 + its fields packed in `Ord`'s order, 10 bits a coordinate.
    fn order_key(&self) -> u128 {
        const _: () = assert!(crate::board::MAX_SIDE <= 1 << 10);
        debug_assert!(self.walls.len() <= 2);
        let cell = |c: Option<Cell>| c.map_or(0, |(r, c)| 1 + ((r as u128) << 10 | c as u128));
        let wall = |w: Option<&Wall>| {
            w.map_or(0, |w| {
                1 + ((w.row as u128) << 11 | (w.col as u128) << 1 | (w.dir == Dir::R) as u128)
            })
        };
        cell(self.cat) << 65
            | cell(self.mouse) << 44
            | wall(self.walls.first()) << 22
            | wall(self.walls.get(1))
    }
    /// The walls, in canonical order.
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }
    /// The parts in canonical order: cat, mouse, walls.
    pub fn actions(&self) -> Vec<Action> {
        let mut v = Vec::with_capacity(2 + self.walls.len());
        v.extend(self.cat.map(Action::Cat));
        v.extend(self.mouse.map(Action::Mouse));
        v.extend(self.walls.iter().map(|&w| Action::Wall(w)));
        v
    }
}

/// The rule a move breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// More than two actions (one per step of a piece, one per wall).
    TooManyActions { count: u64 },
    /// A classic move names a mouse: classic has homes, which never move.
    NoMouse,
    /// The destination cell, or the wall's slot, is not on the board.
    OffBoard,
    /// The destination is the piece's own cell or more than two steps away.
    OutOfReach { steps: u64 },
    /// Every path of that many steps crosses a wall.
    WallInTheWay,
    /// The slot already holds a wall (of the position, or the move's other wall).
    SlotTaken { by_this_move: bool },
    /// After this wall, this attached pair (cells after the pawn actions) is disconnected.
    Cuts(AttachedPair),
}

/// Why a move is illegal: the part that breaks a rule (none for a rule about the whole move)
/// and the rule. Displays as one line in standard notation where the board allows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub action: Option<Action>,
    pub rule: Rule,
    rows: u32,
    cols: u32,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols) = (self.rows, self.cols);
        let cell = |c: Cell| cell_name(rows, cols, c);
        if let Some(a) = &self.action {
            write!(f, "{}: ", action_name(rows, cols, a))?;
        }
        match &self.rule {
            Rule::TooManyActions { count } => write!(
                f,
                "{count} actions, but a move has at most two (one per step of a piece, one per wall)"
            ),
            Rule::NoMouse => write!(f, "classic has no mice, and homes do not move"),
            Rule::OffBoard => write!(f, "not on the board ({rows} rows, {cols} columns)"),
            Rule::OutOfReach { steps: 0 } => write!(f, "the piece is already there"),
            Rule::OutOfReach { steps } => write!(
                f,
                "{steps} steps away, but a piece moves one or two steps (one action each)"
            ),
            Rule::WallInTheWay => write!(f, "a wall blocks every way there"),
            Rule::SlotTaken { by_this_move: false } => write!(f, "the slot already holds a wall"),
            Rule::SlotTaken { by_this_move: true } => {
                write!(f, "the move's other wall is already on that slot")
            }
            Rule::Cuts(p) => match p.role {
                PairRole::Goal { player } => write!(
                    f,
                    "player {}'s cat on {} would have no path to its home on {}",
                    player + 1,
                    cell(p.a),
                    cell(p.b)
                ),
                PairRole::Catch { cat, mouse } => write!(
                    f,
                    "player {}'s cat on {} would have no path to player {}'s mouse on {}",
                    cat + 1,
                    cell(p.a),
                    mouse + 1,
                    cell(p.b)
                ),
                PairRole::Explicit(i) => write!(f, "pair {} would be disconnected", i + 1),
            },
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `player` (0-based) won: its cat caught the mouse it chases, or reached its home
    /// (classic), on `cell`.
    Win { player: usize, cell: Cell },
    /// Player 1's cat caught on `cell`, but player 2's cat was within two steps of player 1's
    /// mouse: a draw by the one-move rule (cat-and-mouse).
    OneMoveRuleDraw { cell: Cell },
    /// Several cats caught (or reached home) at once: a draw.
    SimultaneousDraw,
}

impl Outcome {
    /// The winner, 0-based; `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        match self {
            Outcome::Win { player, .. } => Some(*player),
            _ => None,
        }
    }
}

/// Whether the game goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Over(Outcome),
}

/// A game in progress or finished: a valid game position, whose move it is, and the status.
///
/// Built by [`Game::new`] (any valid game position) or [`Game::standard`] (the game's setups);
/// [`Game::after`] gives the game after a legal move. Players are 0-based here and 1-based in
/// every text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    position: Position,
    to_move: usize,
    status: Status,
}

/// Where the mover's pieces end after the pawn part of a move, and how many actions that costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnOption {
    pub cat: Option<Cell>,
    pub mouse: Option<Cell>,
    /// Steps taken (0 to 2); the move may add `2 − steps` walls.
    pub steps: u32,
}

fn manhattan(a: Cell, b: Cell) -> u64 {
    (a.0 as i64 - b.0 as i64).unsigned_abs() + (a.1 as i64 - b.1 as i64).unsigned_abs()
}

/// The slot between two orthogonally adjacent cells.
fn slot_between(a: Cell, b: Cell) -> Wall {
    if a.0 == b.0 {
        Wall::new(a.0, a.1.min(b.1), Dir::R)
    } else {
        Wall::new(a.0.min(b.0), a.1, Dir::D)
    }
}

impl Game {
    /// A game from a position and the player to move (0-based). Bad input unless the position
    /// is a game (variant and players), `to_move` names a player, and every cat reaches what it
    /// chases. A capture (or a cat on its home) standing in the position ends the game at once.
    pub fn new(position: Position, to_move: usize) -> Result<Game> {
        let n =
            match position.setup() {
                Setup::Game { players, .. } => players.len(),
                Setup::Pairs(_) => return Err(Error::bad(
                    "a position with explicit pairs is not a game (it has no variant or players)",
                )),
            };
        if to_move >= n {
            return Err(Error::bad(format!(
                "player {} to move, but the game has players 1 to {n}",
                to_move + 1
            )));
        }
        let cut = position.cut_pairs(&position.graph());
        if let Some(p) = cut.first() {
            return Err(Error::bad(format!(
                "not a playable position: {}",
                p.describe_cut()
            )));
        }
        let status = evaluate(&position, None);
        Ok(Game {
            position,
            to_move,
            status,
        })
    }

    /// The game's setup on a `cols × rows` board, player 1 to move: cat-and-mouse (the game's
    /// Standard) puts player 1's cat on the top-left corner and its mouse on the bottom-left,
    /// player 2's cat top-right and mouse bottom-right; classic puts the cats there too, player
    /// 1's home on the bottom-right corner and player 2's on the bottom-left. Ring has no
    /// standard setup.
    pub fn standard(variant: Variant, rows: u32, cols: u32) -> Result<Game> {
        if rows < 2 || cols < 2 {
            return Err(Error::bad(format!(
                "the standard setup needs at least 2 rows and 2 columns, not {rows}x{cols}"
            )));
        }
        let (top, bottom, left, right) = (0, rows - 1, 0, cols - 1);
        let players = match variant {
            Variant::CatAndMouse => vec![
                Player {
                    cat: (top, left),
                    mouse: Some((bottom, left)),
                    goal: None,
                },
                Player {
                    cat: (top, right),
                    mouse: Some((bottom, right)),
                    goal: None,
                },
            ],
            Variant::Classic => vec![
                Player {
                    cat: (top, left),
                    mouse: None,
                    goal: Some((bottom, right)),
                },
                Player {
                    cat: (top, right),
                    mouse: None,
                    goal: Some((bottom, left)),
                },
            ],
            Variant::Ring => {
                return Err(Error::bad(
                    "the ring variant has no standard setup; give the position explicitly",
                ))
            }
        };
        Game::new(
            Position::new(rows, cols, Vec::new(), Setup::Game { variant, players })?,
            0,
        )
    }

    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The player to move, 0-based.
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    pub fn status(&self) -> &Status {
        &self.status
    }
    pub fn variant(&self) -> Variant {
        match self.position.setup() {
            Setup::Game { variant, .. } => *variant,
            Setup::Pairs(_) => unreachable!("Game::new accepts only game setups"),
        }
    }
    pub fn players(&self) -> &[Player] {
        match self.position.setup() {
            Setup::Game { players, .. } => players,
            Setup::Pairs(_) => unreachable!("Game::new accepts only game setups"),
        }
    }

    fn illegal(&self, action: Option<Action>, rule: Rule) -> Illegal {
        Illegal {
            action,
            rule,
            rows: self.position.rows(),
            cols: self.position.cols(),
        }
    }

    /// Whether the step between two adjacent on-board cells is free of walls.
    fn open(&self, a: Cell, b: Cell) -> bool {
        !self.position.has_wall(slot_between(a, b))
    }

    /// The pawn rules for one piece moving from `from` to `to`; returns the steps taken.
    fn check_pawn(&self, from: Cell, to: Cell, action: Action) -> Result<u64, Illegal> {
        let (rows, cols) = (self.position.rows(), self.position.cols());
        if to.0 >= rows || to.1 >= cols {
            return Err(self.illegal(Some(action), Rule::OffBoard));
        }
        let steps = manhattan(from, to);
        if steps == 0 || steps > 2 {
            return Err(self.illegal(Some(action), Rule::OutOfReach { steps }));
        }
        Ok(steps)
    }

    /// Whether some path of exactly `manhattan(from, to)` (1 or 2) steps is free of walls.
    fn path_open(&self, from: Cell, to: Cell) -> bool {
        if manhattan(from, to) == 1 {
            return self.open(from, to);
        }
        // The intermediate cells: one when straight, two in an L (both on the board, since
        // they lie in the rectangle spanned by `from` and `to`).
        let mids = [(from.0, to.1), (to.0, from.1)];
        let straight = from.0 == to.0 || from.1 == to.1;
        let mids: &[Cell] = if straight {
            &[((from.0 + to.0) / 2, (from.1 + to.1) / 2)]
        } else {
            &mids
        };
        mids.iter().any(|&m| self.open(from, m) && self.open(m, to))
    }

    /// Checks everything but the wall rule and the game's status; returns the pawn option the
    /// move takes.
    fn check_shape(&self, player: usize, mv: &Move) -> Result<PawnOption, Illegal> {
        let p = &self.players()[player];
        let mut steps = 0u64;
        if let Some(to) = mv.cat {
            steps += self.check_pawn(p.cat, to, Action::Cat(to))?;
        }
        if let Some(to) = mv.mouse {
            let Some(from) = p.mouse else {
                return Err(self.illegal(Some(Action::Mouse(to)), Rule::NoMouse));
            };
            steps += self.check_pawn(from, to, Action::Mouse(to))?;
        }
        let count = steps + mv.walls.len() as u64;
        if count > 2 {
            return Err(self.illegal(None, Rule::TooManyActions { count }));
        }
        if let Some(to) = mv.cat {
            if !self.path_open(p.cat, to) {
                return Err(self.illegal(Some(Action::Cat(to)), Rule::WallInTheWay));
            }
        }
        if let (Some(to), Some(from)) = (mv.mouse, p.mouse) {
            if !self.path_open(from, to) {
                return Err(self.illegal(Some(Action::Mouse(to)), Rule::WallInTheWay));
            }
        }
        let (rows, cols) = (self.position.rows(), self.position.cols());
        for (i, &w) in mv.walls.iter().enumerate() {
            let a = Some(Action::Wall(w));
            let on_board = match w.dir {
                Dir::R => w.row < rows && w.col < cols && w.col + 1 < cols,
                Dir::D => w.row < rows && w.col < cols && w.row + 1 < rows,
            };
            if !on_board {
                return Err(self.illegal(a, Rule::OffBoard));
            }
            if self.position.has_wall(w) {
                return Err(self.illegal(
                    a,
                    Rule::SlotTaken {
                        by_this_move: false,
                    },
                ));
            }
            if mv.walls[..i].contains(&w) {
                return Err(self.illegal(a, Rule::SlotTaken { by_this_move: true }));
            }
        }
        Ok(PawnOption {
            cat: mv.cat,
            mouse: mv.mouse,
            steps: steps as u32,
        })
    }

    /// The players after the mover's pawn actions.
    fn players_after(&self, player: usize, pawns: &PawnOption) -> Vec<Player> {
        let mut players = self.players().to_vec();
        if let Some(c) = pawns.cat {
            players[player].cat = c;
        }
        if let Some(m) = pawns.mouse {
            players[player].mouse = Some(m);
        }
        players
    }

    /// The position after the pawn actions (same walls).
    fn position_after_pawns(&self, player: usize, pawns: &PawnOption) -> Position {
        Position::new(
            self.position.rows(),
            self.position.cols(),
            self.position.walls().to_vec(),
            Setup::Game {
                variant: self.variant(),
                players: self.players_after(player, pawns),
            },
        )
        .expect("moving pieces to cells on the board keeps a position well formed")
    }

    /// The cut oracle the wall rule reads after the mover's pawn actions (see the module
    /// docs), with the attached pairs it was built for (cells after the pawn actions).
    pub fn wall_oracle(
        &self,
        player: usize,
        pawns: &PawnOption,
        bg: &BoardGraph,
    ) -> (MoveOracle, Vec<AttachedPair>) {
        let after = self.position_after_pawns(player, pawns);
        let attached = after.attached_pairs();
        let pairs = after.node_pairs();
        let oracle = MoveOracle::build(&bg.graph, &pairs)
            .expect("steps stay inside a piece's component, so a valid position stays valid");
        (oracle, attached)
    }

    /// Checks a move by `player` (0-based, who need not be the player to move: `--player`
    /// asks what-if questions) against the rules of this position, ignoring whether the game is
    /// over. `Ok` means legal. Panics if `player` is not a player of the game.
    ///
    /// One move alone is judged by breadth-first search (remove the wall, search from every
    /// cat; then both walls): a few searches cost less than building the cut oracle, which
    /// pays once several moves of a position are checked — see [`Checker`]. Both give the
    /// same answer, the same broken rule and the same cut pair.
    pub fn check(&self, player: usize, mv: &Move) -> Result<(), Illegal> {
        assert!(player < self.players().len(), "player index out of range");
        let pawns = self.check_shape(player, mv)?;
        if mv.walls.is_empty() {
            return Ok(());
        }
        let after = self.position_after_pawns(player, &pawns);
        let bg = after.graph();
        let attached = after.attached_pairs();
        let mut bfs = Bfs::new(bg.graph.n());
        let mut removed = Vec::with_capacity(2);
        for &w in &mv.walls {
            removed.push(bg.edge_of(w).expect("checked: a free slot"));
            let cut = attached
                .iter()
                .find(|p| !bfs.connected(&bg.graph, after.node(p.a), after.node(p.b), &removed));
            if let Some(p) = cut {
                return Err(self.illegal(Some(Action::Wall(w)), Rule::Cuts(*p)));
            }
        }
        Ok(())
    }

    /// The game after a legal move by `player` (0-based): pieces moved, walls added, the next
    /// player to move, and the status judged with `player` as the mover.
    pub fn after(&self, player: usize, mv: &Move) -> Result<Game, Illegal> {
        self.check(player, mv)?;
        Ok(self.apply_unchecked(player, mv))
    }

    fn apply_unchecked(&self, player: usize, mv: &Move) -> Game {
        let pawns = PawnOption {
            cat: mv.cat,
            mouse: mv.mouse,
            steps: 0,
        };
        let mut walls = self.position.walls().to_vec();
        walls.extend_from_slice(&mv.walls);
        let position = Position::new(
            self.position.rows(),
            self.position.cols(),
            walls,
            Setup::Game {
                variant: self.variant(),
                players: self.players_after(player, &pawns),
            },
        )
        .expect("a legal move keeps the position well formed");
        let status = evaluate(&position, Some(player));
        let n = self.players().len();
        Game {
            position,
            to_move: (player + 1) % n,
            status,
        }
    }

    /// Plays the move of the player to move: an error if the game is over, or the move
    /// illegal.
    pub fn play(&self, mv: &Move) -> std::result::Result<Game, PlayError> {
        if let Status::Over(o) = &self.status {
            return Err(PlayError::Over(o.clone()));
        }
        self.after(self.to_move, mv).map_err(PlayError::Illegal)
    }

    /// Where `player`'s pieces may end with their pawn actions: staying, one step or two
    /// (straight or in an L through a free path), for the cat, the mouse (not in classic), or
    /// one step each; at most 1 + 12 + 12 + 16 = 41 options. Sorted.
    pub fn pawn_options(&self, player: usize) -> Vec<PawnOption> {
        let p = &self.players()[player];
        let dests = |from: Cell| -> Vec<(Cell, u32)> {
            let (rows, cols) = (self.position.rows() as i64, self.position.cols() as i64);
            let mut v = Vec::new();
            for dr in -2i64..=2 {
                for dc in -2i64..=2 {
                    let d = dr.abs() + dc.abs();
                    let (r, c) = (from.0 as i64 + dr, from.1 as i64 + dc);
                    if d == 0 || d > 2 || r < 0 || c < 0 || r >= rows || c >= cols {
                        continue;
                    }
                    let to = (r as u32, c as u32);
                    if self.path_open(from, to) {
                        v.push((to, d as u32));
                    }
                }
            }
            v
        };
        let cats = dests(p.cat);
        let mice = p.mouse.map(dests).unwrap_or_default();
        let mut out = vec![PawnOption {
            cat: None,
            mouse: None,
            steps: 0,
        }];
        for &(c, d) in &cats {
            out.push(PawnOption {
                cat: Some(c),
                mouse: None,
                steps: d,
            });
        }
        for &(m, d) in &mice {
            out.push(PawnOption {
                cat: None,
                mouse: Some(m),
                steps: d,
            });
        }
        for &(c, dc) in cats.iter().filter(|x| x.1 == 1) {
            for &(m, dm) in mice.iter().filter(|x| x.1 == 1) {
                out.push(PawnOption {
                    cat: Some(c),
                    mouse: Some(m),
                    steps: dc + dm,
                });
            }
        }
        out.sort_by_key(|o| (o.cat, o.mouse));
        out
    }

    /// Every legal move of `player` (0-based), sorted. One oracle per pawn option with actions
    /// left for walls; the double walls come from [`MoveOracle::legal_doubles`]. There are
    /// Θ(slots²) moves: about 35,000 on an open 12×12 board.
    pub fn legal_moves(&self, player: usize) -> Vec<Move> {
        let bg = self.position.graph();
        let mut out = Vec::new();
        for o in self.pawn_options(player) {
            out.push(Move::new(o.cat, o.mouse, Vec::new()));
            if o.steps >= 2 {
                continue;
            }
            let (oracle, _) = self.wall_oracle(player, &o, &bg);
            for e in oracle.legal_singles() {
                out.push(Move::new(o.cat, o.mouse, vec![bg.wall_of(e)]));
            }
            if o.steps == 0 {
                for (a, b) in oracle.legal_doubles() {
                    out.push(Move::new(
                        o.cat,
                        o.mouse,
                        vec![bg.wall_of(a), bg.wall_of(b)],
                    ));
                }
            }
        }
        // the order of `Move`'s `Ord`, from a key held inline: comparing the moves themselves
        // follows each one's heap-allocated walls, and took more than half of the time here
        out.sort_by_cached_key(Move::order_key);
        out
    }

    /// The result text of a finished game for `n` players: `1-0`, `0-1`, `1/2-1/2` for two, the
    /// same pattern with `n` scores otherwise; `*` while the game goes on.
    pub fn result_text(&self) -> String {
        match &self.status {
            Status::Ongoing => "*".to_string(),
            Status::Over(o) => score_text(self.players().len(), o.winner()),
        }
    }

    /// One line describing the outcome, or `None` while the game goes on.
    pub fn describe_outcome(&self) -> Option<String> {
        let Status::Over(o) = &self.status else {
            return None;
        };
        let (rows, cols) = (self.position.rows(), self.position.cols());
        let cell = |c: Cell| cell_name(rows, cols, c);
        let n = self.players().len();
        Some(match (o, self.variant()) {
            (Outcome::Win { player, cell: c }, Variant::Classic) => format!(
                "player {} wins: its cat reached its home on {}",
                player + 1,
                cell(*c)
            ),
            (Outcome::Win { player, cell: c }, _) => format!(
                "player {} wins: its cat caught player {}'s mouse on {}",
                player + 1,
                (player + 1) % n + 1,
                cell(*c)
            ),
            (Outcome::OneMoveRuleDraw { cell: c }, _) => format!(
                "draw by the one-move rule: player 1's cat caught on {}, but player 2's cat was within two steps of player 1's mouse",
                cell(*c)
            ),
            (Outcome::SimultaneousDraw, _) => {
                "draw: several cats caught at once".to_string()
            }
        })
    }

    /// The game's termination in record terms: `MouseCapture` (a cat caught, or simultaneous
    /// catches), `OneMoveRuleDraw`, `GoalReached` (classic); `None` while the game goes on.
    pub fn termination(&self) -> Option<&'static str> {
        match &self.status {
            Status::Ongoing => None,
            Status::Over(Outcome::OneMoveRuleDraw { .. }) => Some("OneMoveRuleDraw"),
            Status::Over(_) if self.variant() == Variant::Classic => Some("GoalReached"),
            Status::Over(_) => Some("MouseCapture"),
        }
    }
}

/// The score text for `n` players: `1-0`, `0-1-0`, …; a draw gives every player `1/2`.
pub fn score_text(n: usize, winner: Option<usize>) -> String {
    (0..n)
        .map(|i| match winner {
            Some(w) if w == i => "1",
            Some(_) => "0",
            None => "1/2",
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// Checks any number of moves against one game with the cut oracle's tables (the ones a
/// zero-knowledge circuit reads, see the module docs), building the position's graph once and
/// the oracle once per player and pawn option (at most 41 per player). The oracle pays when
/// moves are many: building it costs a few breadth-first searches per pair, after which a
/// move costs a table lookup (see `benches/wall_game.rs`).
pub struct Checker<'a> {
    game: &'a Game,
    bg: Option<BoardGraph>,
    /// Per (player, cat destination, mouse destination): the oracle and the pairs it serves.
    oracles: HashMap<PawnKey, (MoveOracle, Vec<AttachedPair>)>,
}

/// Which oracle a move needs: the mover and where its cat and mouse end.
type PawnKey = (usize, Option<Cell>, Option<Cell>);

impl<'a> Checker<'a> {
    pub fn new(game: &'a Game) -> Self {
        Checker {
            game,
            bg: None,
            oracles: HashMap::new(),
        }
    }

    /// [`Game::check`], with the oracles cached.
    pub fn check(&mut self, player: usize, mv: &Move) -> Result<(), Illegal> {
        let game = self.game;
        assert!(player < game.players().len(), "player index out of range");
        let pawns = game.check_shape(player, mv)?;
        if mv.walls.is_empty() {
            return Ok(());
        }
        let bg = self.bg.get_or_insert_with(|| game.position.graph());
        let (oracle, attached) = self
            .oracles
            .entry((player, pawns.cat, pawns.mouse))
            .or_insert_with(|| game.wall_oracle(player, &pawns, bg));
        // The oracle's tables exist only for pairs whose ends differ; `live[k]` is the pair of
        // table k.
        let live: Vec<&AttachedPair> = attached.iter().filter(|p| p.a != p.b).collect();
        let e1 = bg.edge_of(mv.walls[0]).expect("checked: a free slot");
        if !oracle.is_legal_single(e1) {
            let k = (0..live.len())
                .find(|&k| oracle.pair_cuts()[k].cuts_single(e1))
                .expect("an indelible edge is an st-bridge of some pair");
            return Err(game.illegal(Some(Action::Wall(mv.walls[0])), Rule::Cuts(*live[k])));
        }
        if let Some(&w2) = mv.walls.get(1) {
            let e2 = bg.edge_of(w2).expect("checked: a free slot");
            if let Some(k) = (0..live.len()).find(|&k| oracle.pair_cuts()[k].cuts(e1, e2)) {
                return Err(game.illegal(Some(Action::Wall(w2)), Rule::Cuts(*live[k])));
            }
        }
        Ok(())
    }
}

/// Why [`Game::play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game was already over.
    Over(Outcome),
    /// The move breaks a rule.
    Illegal(Illegal),
}

/// The status of a position, `mover` being the player who just moved (`None`: unknown, as for
/// a position read from a file; the one-move rule then does not apply).
fn evaluate(pos: &Position, mover: Option<usize>) -> Status {
    let done: Vec<(usize, Cell)> = pos
        .attached_pairs()
        .iter()
        .filter(|p| p.a == p.b)
        .map(|p| match p.role {
            PairRole::Goal { player } => (player, p.a),
            PairRole::Catch { cat, .. } => (cat, p.a),
            PairRole::Explicit(i) => (i, p.a),
        })
        .collect();
    match done.as_slice() {
        [] => Status::Ongoing,
        [(player, cell)] => {
            let Setup::Game { variant, players } = pos.setup() else {
                return Status::Ongoing;
            };
            if *variant == Variant::CatAndMouse && mover == Some(0) && *player == 0 {
                let cat2 = players[1].cat;
                let mouse1 = players[0].mouse.expect("cat-and-mouse players have mice");
                if within_two_steps(pos, cat2, mouse1) {
                    return Status::Over(Outcome::OneMoveRuleDraw { cell: *cell });
                }
            }
            Status::Over(Outcome::Win {
                player: *player,
                cell: *cell,
            })
        }
        _ => Status::Over(Outcome::SimultaneousDraw),
    }
}

/// Whether a path of at most two free slots joins `a` and `b` (BFS to depth 2).
fn within_two_steps(pos: &Position, a: Cell, b: Cell) -> bool {
    let bg = pos.graph();
    let (s, t) = (pos.node(a), pos.node(b));
    let mut seen = vec![s];
    let mut q = VecDeque::from([(s, 0u32)]);
    while let Some((v, d)) = q.pop_front() {
        if v == t {
            return true;
        }
        if d == 2 {
            continue;
        }
        for &(w, _) in bg.graph.neighbors(v) {
            if !seen.contains(&w) {
                seen.push(w);
                q.push_back((w, d + 1));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Move::order_key` orders moves as `Move`'s `Ord` does: every pair of 400 random moves
    /// of zero to two walls, coordinates from a few values at both ends of the largest board
    /// (so that moves often agree on their first fields and the later ones decide).
    #[test]
    fn order_key_is_the_order_of_moves() {
        let side = crate::board::MAX_SIDE;
        let coords = [0, 1, 2, side - 2, side - 1];
        let mut rng = zkgames_core::rng::seeded_rng(7);
        let mut next = move |n: usize| rand::Rng::gen_range(&mut rng, 0..n);
        let moves: Vec<Move> = (0..400)
            .map(|_| {
                let mut cell = || (next(3) > 0).then(|| (coords[next(5)], coords[next(5)]));
                let (cat, mouse) = (cell(), cell());
                let walls = (0..next(3))
                    .map(|_| {
                        let dir = [Dir::D, Dir::R][next(2)];
                        Wall::new(coords[next(5)], coords[next(5)], dir)
                    })
                    .collect();
                Move::new(cat, mouse, walls)
            })
            .collect();
        for a in &moves {
            for b in &moves {
                assert_eq!(a.order_key().cmp(&b.order_key()), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }
}
