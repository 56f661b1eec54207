//! The game's standard notation for cells, walls and moves, and its conversion to and from the
//! project's row/col spelling.
//!
//! Standard notation names a cell by its column letter (`a` = leftmost) and its *rank*, the row
//! number counted from the **bottom** (rank 1 = bottom row); the project counts rows from the top,
//! from 0. On a board of `rows` rows, cell `(r, c)` is letter `c` and rank `rows − r`. So the
//! notation needs the board's size, and covers boards of at most [`MAX_COLS`] = 26 columns
//! (letters `a`–`z`) and [`MAX_ROWS`] = 99 rows (ranks of one or two digits).
//!
//! Walls: `>e4` is the slot on the right side of e4, `^e4` the slot on its top side. In the
//! project's spelling `[r, c, "R"]` is the right side of `(r, c)`, so `>` + cell `(r, c)`;
//! `[r, c, "D"]` is the bottom side of `(r, c)`, which is the top side of `(r + 1, c)`, so `^` +
//! cell `(r + 1, c)`. A slot on the border does not exist: `>h4` on an 8-column board and
//! `^e8` on an 8-row board are bad input, like cells off the board.
//!
//! Moves: `Ce4` (the mover's cat ends on e4, one or two steps away), `Me4` (its mouse), `>e4`,
//! `^e4` (walls), joined with `.`; `---` is the move with no action. Moves are printed in the
//! canonical order (cat, mouse, vertical walls `>`, horizontal walls `^`, two walls of one kind
//! by column, then rank); the parser accepts the parts in any order, since the rules apply them
//! in the canonical order whatever the order written. Naming the cat (or the mouse) twice is bad
//! input: two steps of one piece are one part naming the final cell. Any number of walls parses
//! (a move of more than two actions is illegal, not malformed), within [`MAX_MOVE_LEN`]
//! characters.
//!
//! The project's JSON spelling of a move is `{"cat": [r, c], "mouse": [r, c], "walls": [[r, c,
//! "R"|"D"], …]}`, each key optional ([`move_to_json`], [`parse_move_json`]).

use serde::Deserialize;

use crate::board::{Cell, Dir, Position, Wall};
use crate::format::short;
use crate::game::{Action, Move};
use zkgames_core::Error;
use zkgames_core::Result;

/// Most columns the notation can name (`a`–`z`).
pub const MAX_COLS: u32 = 26;
/// Most rows the notation names (ranks 1–99).
pub const MAX_ROWS: u32 = 99;
/// Longest move accepted in standard notation, in bytes.
pub const MAX_MOVE_LEN: usize = 64;

/// Standard notation on one board size: converts cells, walls and moves both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notation {
    rows: u32,
    cols: u32,
}

impl Notation {
    /// Notation for a `rows × cols` board; bad input beyond 26 columns or 99 rows.
    pub fn new(rows: u32, cols: u32) -> Result<Notation> {
        if rows == 0 || cols == 0 || rows > MAX_ROWS || cols > MAX_COLS {
            return Err(Error::bad(format!(
                "standard notation covers boards of 1 to {MAX_COLS} columns and 1 to {MAX_ROWS} rows, not {cols} columns and {rows} rows"
            )));
        }
        Ok(Notation { rows, cols })
    }

    /// Notation for a position's board.
    pub fn for_position(pos: &Position) -> Result<Notation> {
        Notation::new(pos.rows(), pos.cols())
    }

    pub fn rows(&self) -> u32 {
        self.rows
    }
    pub fn cols(&self) -> u32 {
        self.cols
    }

    fn on_board(&self, c: Cell) -> bool {
        c.0 < self.rows && c.1 < self.cols
    }

    /// `e4` for a cell on the board; `None` off it.
    pub fn cell(&self, c: Cell) -> Option<String> {
        self.on_board(c)
            .then(|| format!("{}{}", (b'a' + c.1 as u8) as char, self.rows - c.0))
    }

    /// `>e4` or `^e4` for a slot on the board (not on the border); `None` otherwise.
    pub fn wall(&self, w: Wall) -> Option<String> {
        match w.dir {
            Dir::R if w.col + 1 < self.cols => self.cell((w.row, w.col)).map(|c| format!(">{c}")),
            Dir::D if w.row + 1 < self.rows => {
                self.cell((w.row + 1, w.col)).map(|c| format!("^{c}"))
            }
            _ => None,
        }
    }

    /// Parses a cell (`e4`): one lowercase letter and a rank without leading zeros.
    pub fn parse_cell(&self, s: &str) -> Result<Cell> {
        let b = s.as_bytes();
        let malformed = || {
            Error::bad(format!(
                "{:?} is not a cell in standard notation (a column letter and a rank, like e4)",
                short(s)
            ))
        };
        if b.len() < 2 || b.len() > 4 || !b[0].is_ascii_lowercase() {
            return Err(malformed());
        }
        let digits = &s[1..];
        if !digits.bytes().all(|d| d.is_ascii_digit()) || digits.starts_with('0') {
            return Err(malformed());
        }
        let rank: u32 = digits.parse().map_err(|_| malformed())?;
        let col = (b[0] - b'a') as u32;
        if col >= self.cols || rank > self.rows {
            return Err(Error::bad(format!(
                "cell {s} is off the board ({} columns a-{}, ranks 1-{})",
                self.cols,
                (b'a' + self.cols as u8 - 1) as char,
                self.rows
            )));
        }
        Ok((self.rows - rank, col))
    }

    /// Parses a wall (`>e4`, `^e4`); a slot on the border is bad input.
    pub fn parse_wall(&self, s: &str) -> Result<Wall> {
        let (kind, rest) = match s.as_bytes().first() {
            Some(b'>') => (Dir::R, &s[1..]),
            Some(b'^') => (Dir::D, &s[1..]),
            _ => {
                return Err(Error::bad(format!(
                    "{:?} is not a wall (>CELL for its right side, ^CELL for its top side)",
                    short(s)
                )))
            }
        };
        let (r, c) = self.parse_cell(rest)?;
        match kind {
            Dir::R if c + 1 < self.cols => Ok(Wall::new(r, c, Dir::R)),
            Dir::D if r >= 1 => Ok(Wall::new(r - 1, c, Dir::D)),
            Dir::R => Err(Error::bad(format!(
                "{s}: the right side of {rest} is the board's border, not a slot"
            ))),
            Dir::D => Err(Error::bad(format!(
                "{s}: the top side of {rest} is the board's border, not a slot"
            ))),
        }
    }

    /// One part of a move: `Ce4`, `Me4`, `>e4`, `^e4`; `None` if it names something off the
    /// board.
    pub fn action(&self, a: &Action) -> Option<String> {
        match *a {
            Action::Cat(c) => self.cell(c).map(|s| format!("C{s}")),
            Action::Mouse(c) => self.cell(c).map(|s| format!("M{s}")),
            Action::Wall(w) => self.wall(w),
        }
    }

    /// A move in canonical order (`Ce4.Mc5.>e4.^e4`, `---` for no action); `None` if some part
    /// is off the board.
    pub fn write_move(&self, mv: &Move) -> Option<String> {
        let parts = mv.actions();
        if parts.is_empty() {
            return Some("---".to_string());
        }
        let v: Option<Vec<String>> = parts.iter().map(|a| self.action(a)).collect();
        v.map(|v| v.join("."))
    }

    /// Parses a move (see the module docs).
    pub fn parse_move(&self, s: &str) -> Result<Move> {
        let s = s.trim();
        if s.len() > MAX_MOVE_LEN {
            return Err(Error::bad(format!(
                "a move of {} characters (at most {MAX_MOVE_LEN})",
                s.len()
            )));
        }
        if s == "---" {
            return Ok(Move::none());
        }
        if s.is_empty() {
            return Err(Error::bad(
                "empty move (write --- for a move with no action)",
            ));
        }
        let (mut cat, mut mouse, mut walls) = (None, None, Vec::new());
        for part in s.split('.') {
            match part.as_bytes().first() {
                Some(b'C') | Some(b'M') => {
                    let c = self
                        .parse_cell(&part[1..])
                        .map_err(|e| Error::bad(format!("{}: {e}", short(part))))?;
                    let (slot, name) = if part.starts_with('C') {
                        (&mut cat, "cat")
                    } else {
                        (&mut mouse, "mouse")
                    };
                    if slot.is_some() {
                        return Err(Error::bad(format!(
                            "{:?}: the {name} is named twice (two steps of one piece are written as one action naming the final cell)",
                            short(s)
                        )));
                    }
                    *slot = Some(c);
                }
                Some(b'>') | Some(b'^') => walls.push(self.parse_wall(part)?),
                None => {
                    return Err(Error::bad(format!(
                        "{:?}: an empty action (actions are joined by single periods)",
                        short(s)
                    )))
                }
                _ => {
                    return Err(Error::bad(format!(
                        "{:?}: unknown action {:?} (expected Ccell, Mcell, >cell or ^cell)",
                        short(s),
                        short(part)
                    )))
                }
            }
        }
        Ok(Move::new(cat, mouse, walls))
    }
}

/// A cell in standard notation when the board fits it and the cell is on the board, else in
/// the project's spelling `(r, c)`. For messages.
pub fn cell_name(rows: u32, cols: u32, c: Cell) -> String {
    Notation::new(rows, cols)
        .ok()
        .and_then(|n| n.cell(c))
        .unwrap_or_else(|| format!("({}, {})", c.0, c.1))
}

/// A wall in standard notation when possible, else `[r, c, "R"|"D"]`. For messages.
pub fn wall_name(rows: u32, cols: u32, w: Wall) -> String {
    Notation::new(rows, cols)
        .ok()
        .and_then(|n| n.wall(w))
        .unwrap_or_else(|| w.to_string())
}

/// A move part in standard notation when possible, else in the project's spelling. For messages.
pub fn action_name(rows: u32, cols: u32, a: &Action) -> String {
    match *a {
        Action::Cat(c) => format!("cat to {}", cell_name(rows, cols, c)),
        Action::Mouse(c) => format!("mouse to {}", cell_name(rows, cols, c)),
        Action::Wall(w) => format!("wall {}", wall_name(rows, cols, w)),
    }
}

/// A move in standard notation when possible, else in the project's JSON spelling.
pub fn move_name(rows: u32, cols: u32, mv: &Move) -> String {
    Notation::new(rows, cols)
        .ok()
        .and_then(|n| n.write_move(mv))
        .unwrap_or_else(|| move_to_json(mv))
}

/// The project's JSON spelling of a move: `{"cat": [r, c], "mouse": [r, c], "walls": [[r, c,
/// "R"], …]}` with absent parts left out (`{}` for no action); walls in canonical order.
pub fn move_to_json(mv: &Move) -> String {
    let mut f = Vec::new();
    if let Some(c) = mv.cat() {
        f.push(format!("\"cat\": [{}, {}]", c.0, c.1));
    }
    if let Some(c) = mv.mouse() {
        f.push(format!("\"mouse\": [{}, {}]", c.0, c.1));
    }
    if !mv.walls().is_empty() {
        let w: Vec<String> = mv.walls().iter().map(|w| w.to_string()).collect();
        f.push(format!("\"walls\": [{}]", w.join(", ")));
    }
    format!("{{{}}}", f.join(", "))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMove {
    cat: Option<[u32; 2]>,
    mouse: Option<[u32; 2]>,
    #[serde(default)]
    walls: Vec<(u32, u32, String)>,
}

/// Parses the project's JSON spelling of a move (at most [`MAX_MOVE_JSON`] bytes). Cells and
/// walls are not checked against any board here: legality does that.
pub fn parse_move_json(s: &str) -> Result<Move> {
    if s.len() > MAX_MOVE_JSON {
        return Err(Error::bad(format!(
            "a move of {} bytes (at most {MAX_MOVE_JSON} in JSON)",
            s.len()
        )));
    }
    let raw: RawMove = serde_json::from_str(s).map_err(|e| {
        Error::bad(format!(
            "malformed move JSON: {}",
            zkgames_core::files::json_error(&e)
        ))
    })?;
    let mut walls = Vec::with_capacity(raw.walls.len());
    for (r, c, d) in raw.walls {
        let dir = match d.as_str() {
            "R" => Dir::R,
            "D" => Dir::D,
            _ => {
                return Err(Error::bad(format!(
                    "wall [{r}, {c}, {:?}]: direction must be \"R\" or \"D\"",
                    short(&d)
                )))
            }
        };
        walls.push(Wall::new(r, c, dir));
    }
    Ok(Move::new(
        raw.cat.map(|[r, c]| (r, c)),
        raw.mouse.map(|[r, c]| (r, c)),
        walls,
    ))
}

/// Longest move accepted in the JSON spelling, in bytes.
pub const MAX_MOVE_JSON: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_walls_on_8x8() {
        let n = Notation::new(8, 8).unwrap();
        assert_eq!(n.cell((0, 0)).unwrap(), "a8");
        assert_eq!(n.cell((7, 0)).unwrap(), "a1");
        assert_eq!(n.cell((4, 4)).unwrap(), "e4");
        assert_eq!(n.parse_cell("e4").unwrap(), (4, 4));
        assert_eq!(n.wall(Wall::new(4, 4, Dir::R)).unwrap(), ">e4");
        // The slot between (3, 4) = e5 and (4, 4) = e4 is the top side of e4.
        assert_eq!(n.wall(Wall::new(3, 4, Dir::D)).unwrap(), "^e4");
        assert_eq!(n.parse_wall("^e4").unwrap(), Wall::new(3, 4, Dir::D));
        assert_eq!(n.parse_wall(">e4").unwrap(), Wall::new(4, 4, Dir::R));
        assert!(n.parse_wall(">h4").is_err());
        assert!(n.parse_wall("^e8").is_err());
        assert!(n.parse_cell("i1").is_err());
        assert!(n.parse_cell("a9").is_err());
        assert!(n.parse_cell("a0").is_err());
        assert!(n.parse_cell("a01").is_err());
        assert!(n.parse_cell("A1").is_err());
        assert!(Notation::new(8, 27).is_err());
    }

    #[test]
    fn moves_print_canonically() {
        let n = Notation::new(8, 8).unwrap();
        let m = n.parse_move("^d1.>d1.Md1").unwrap();
        assert_eq!(n.write_move(&m).unwrap(), "Md1.>d1.^d1");
        let m = n.parse_move(">b1.>a2").unwrap();
        assert_eq!(n.write_move(&m).unwrap(), ">a2.>b1");
        let m = n.parse_move(">a2.>a1").unwrap();
        assert_eq!(n.write_move(&m).unwrap(), ">a1.>a2");
        assert_eq!(n.write_move(&n.parse_move("---").unwrap()).unwrap(), "---");
        for bad in [
            "", "Ce4..>a1", "Ce4.Cd4", "Xe4", "Ce4.", "ce4", "C", "<e4", "ve4",
        ] {
            assert!(n.parse_move(bad).is_err(), "{bad}");
        }
        let j = move_to_json(&m);
        assert_eq!(j, r#"{"walls": [[7, 0, "R"], [6, 0, "R"]]}"#);
        assert_eq!(parse_move_json(&j).unwrap(), m);
    }
}
