//! Text formats for Wall Game positions: an ASCII board for people and JSON for programs.
//!
//! [`parse`] auto-detects the format: input whose first non-blank character is `{` is JSON,
//! anything else is the ASCII board. Input must be UTF-8 and at most [`MAX_FILE`] bytes.
//! Coordinates are `(row, col)`, counted from 0, row 0 on top. A wall `[row, col, "R"]` is the
//! slot between cells `(row, col)` and `(row, col + 1)`; `[row, col, "D"]` the slot between
//! `(row, col)` and `(row + 1, col)`. Walls on the outer border do not exist (it is always
//! closed) and are rejected, as are duplicates.
//!
//! # JSON
//!
//! Two forms. With explicit attached pairs (the cut oracle's view of a position):
//!
//! ```json
//! {"rows": 3, "cols": 4,
//!  "walls": [[0, 1, "R"], [1, 2, "D"]],
//!  "pairs": [[[0, 0], [2, 3]], [[1, 1], [0, 3]]]}
//! ```
//!
//! A game, where the attached pairs follow from the variant and the pieces:
//!
//! ```json
//! {"rows": 11, "cols": 11, "walls": [],
//!  "variant": "classic",
//!  "players": [{"cat": [0, 0], "goal": [10, 10]}, {"cat": [0, 10], "goal": [10, 0]}]}
//! ```
//!
//! - `"classic"`: 1 to 4 players, each `{"cat", "goal"}`; each cat must reach its own goal.
//! - `"cat-and-mouse"`: exactly 2 players, each `{"cat", "mouse"}`; each cat must reach the
//!   other player's mouse.
//! - `"ring"`: 3 or 4 players, each `{"cat", "mouse"}`; player i's cat must reach player
//!   i+1's mouse, and the last player's cat must reach player 1's mouse.
//!
//! `"walls"` may be omitted (no walls). A position has either `"pairs"` or
//! `"variant"` + `"players"`, never both; unknown keys are errors. Pieces may share a cell (the
//! game allows stacking), and the cells of explicit pairs may repeat freely. A game may say
//! whose move it is with `"to_move": K` (K from 1 to the number of players; absent: unstated,
//! which the game rules read as player 1).
//!
//! # ASCII
//!
//! ```text
//! # A 3x4 cat-and-mouse position. Lines starting with '#' are comments.
//! variant: cat-and-mouse
//! +---+---+---+---+
//! | C1  .   . | M2|
//! +   +---+   +   +
//! | .   .   .   . |
//! +   +   +   +---+
//! | M1  .   .   C2|
//! +---+---+---+---+
//! ```
//!
//! The board is a block of consecutive lines starting at column 0 with `+` or `|`. Each cell
//! is 4 characters wide: boundary lines are `+` followed by `---` (a wall, or the border) or
//! three spaces (no wall) per cell, ending in `+`; cell lines are a separator (`|` for a wall
//! or the border, a space for no wall) and a 3-character cell field per cell, ending in `|`.
//! So a `|` between two cells is an `R` wall and a `---` under a cell is a `D` wall. Every
//! corner must be `+`; the outer border must be closed. Trailing spaces are ignored.
//!
//! A cell field holds, after trimming spaces, nothing or `.` (empty), one marker: `C<k>` (player
//! k's cat), `M<k>` (player k's mouse) or `G<k>` (player k's goal), with k from 1 to 4, or `*`
//! for a cell holding two or more pieces, which a `stack:` line lists (a 3-character field has
//! no room for two markers).
//!
//! Outside the board, a line is blank, a `#` comment, or one of:
//! - `variant: classic|cat-and-mouse|ring`: required when the board has markers; players are
//!   numbered 1 up to the highest marker number, and each must have the pieces its variant needs.
//! - `stack: R,C M1 C2`: the pieces on the `*` cell `(R, C)`, at least two markers separated
//!   by spaces. Every `*` cell has exactly one `stack:` line and every `stack:` line names a `*`
//!   cell. The printer lists a stack's markers by player, then cat, mouse, goal.
//! - `to-move: K`: whose move it is in a game (1 to the number of players). Optional.
//! - `pair: R,C R,C`: an explicit attached pair (one line per pair, parentheses around the
//!   cells are allowed: `pair: (0,0) (2,3)`). Not allowed together with `variant:`.
//!
//! A board with neither markers nor pairs is a position with no attached pairs.
//! [`to_ascii`] and [`to_json`] print positions back; parsing their output gives the same position
//! ([`to_ascii_file`] and [`to_json_file`] also print whose move it is).

use serde::Deserialize;

use crate::board::{
    Cell, Dir, Player, Position, Setup, Variant, Wall, MAX_CELLS, MAX_PLAYERS, MAX_SIDE,
};
use zkgames_core::files::excerpt;
use zkgames_core::Error;
use zkgames_core::Result;

/// Largest accepted position file: 64 MiB (a 1000×1000 ASCII board is about 8 MB).
pub const MAX_FILE: u64 = 64 << 20;

/// What a position file holds: the position and, for a game, whose move it is if the file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFile {
    pub position: Position,
    /// The player to move, 0-based (`to-move: 1` is `Some(0)`); `None` when the file is silent.
    pub to_move: Option<usize>,
}

/// Reads a position from a path (`-` for stdin), ASCII or JSON. Errors name the path.
pub fn read_position(path: &str) -> Result<Position> {
    let bytes = zkgames_core::proof_file::read_input(path, MAX_FILE)?;
    parse(&bytes).map_err(|e| name_path(path, e))
}

/// Prefixes a bad-input message with the path it came from (`<stdin>` for `-`).
pub fn name_path(path: &str, e: Error) -> Error {
    let shown = if path == "-" { "<stdin>" } else { path };
    match e {
        Error::BadInput(m) => Error::bad(format!("{shown}: {m}")),
        other => other,
    }
}

/// Parses a position in either format (auto-detected; see the module docs).
pub fn parse(bytes: &[u8]) -> Result<Position> {
    parse_file(bytes).map(|f| f.position)
}

/// Parses a position file in either format, keeping whose move it is.
pub fn parse_file(bytes: &[u8]) -> Result<PositionFile> {
    if bytes.len() as u64 > MAX_FILE {
        return Err(Error::bad(format!(
            "position of {} bytes exceeds the {MAX_FILE}-byte limit",
            bytes.len()
        )));
    }
    let text =
        std::str::from_utf8(bytes).map_err(|e| Error::bad(format!("not UTF-8 text ({e})")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        parse_json_file(text)
    } else {
        parse_ascii_file(text)
    }
}

/// Checks a 1-based `to-move` number against the setup; returns it 0-based.
fn check_to_move(k: u64, setup: &Setup) -> Result<usize> {
    let n = match setup {
        Setup::Game { players, .. } => players.len(),
        Setup::Pairs(_) => {
            return Err(Error::bad(
                "whose move it is (to-move) only makes sense for a game (variant and players)",
            ))
        }
    };
    if k == 0 || k > n as u64 {
        return Err(Error::bad(format!(
            "to-move {k}: the game has players 1 to {n}"
        )));
    }
    Ok(k as usize - 1)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPosition {
    rows: u64,
    cols: u64,
    #[serde(default)]
    walls: Vec<(u64, u64, String)>,
    pairs: Option<Vec<[[u64; 2]; 2]>>,
    variant: Option<String>,
    players: Option<Vec<RawPlayer>>,
    to_move: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    cat: [u64; 2],
    mouse: Option<[u64; 2]>,
    goal: Option<[u64; 2]>,
}

fn side(v: u64, what: &str) -> Result<u32> {
    if v == 0 || v > MAX_SIDE as u64 {
        return Err(Error::bad(format!(
            "{what} = {v}: must be between 1 and {MAX_SIDE}"
        )));
    }
    Ok(v as u32)
}

fn coord(v: u64, what: &dyn Fn() -> String) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::bad(format!("{}: coordinate {v} is off the board", what())))
}

fn cell(c: [u64; 2], what: &dyn Fn() -> String) -> Result<Cell> {
    Ok((coord(c[0], what)?, coord(c[1], what)?))
}

/// Parses the JSON form (either explicit pairs or a game).
pub fn parse_json(text: &str) -> Result<Position> {
    parse_json_file(text).map(|f| f.position)
}

/// [`parse_json`], keeping `"to_move"`.
pub fn parse_json_file(text: &str) -> Result<PositionFile> {
    let raw: RawPosition = serde_json::from_str(text).map_err(|e| {
        Error::bad(format!(
            "malformed position JSON: {}",
            zkgames_core::files::shorten(&zkgames_core::files::json_error(&e), 160)
        ))
    })?;
    let rows = side(raw.rows, "rows")?;
    let cols = side(raw.cols, "cols")?;
    if rows as u64 * cols as u64 > MAX_CELLS {
        return Err(Error::bad(format!(
            "board of {rows}x{cols} has more than {MAX_CELLS} cells"
        )));
    }
    let mut walls = Vec::with_capacity(raw.walls.len());
    for (i, (r, c, d)) in raw.walls.iter().enumerate() {
        let what = || format!("wall {} [{r}, {c}, {}]", i + 1, short(d));
        let dir = match d.as_str() {
            "R" => Dir::R,
            "D" => Dir::D,
            _ => {
                return Err(Error::bad(format!(
                    "{}: direction must be \"R\" or \"D\"",
                    what()
                )))
            }
        };
        walls.push(Wall::new(coord(*r, &what)?, coord(*c, &what)?, dir));
    }
    let setup = match (raw.pairs, raw.variant, raw.players) {
        (Some(pairs), None, None) => {
            let mut out = Vec::with_capacity(pairs.len());
            for (i, [a, b]) in pairs.into_iter().enumerate() {
                let what = || format!("pair {}", i + 1);
                out.push((cell(a, &what)?, cell(b, &what)?));
            }
            Setup::Pairs(out)
        }
        (None, Some(v), Some(players)) => {
            let variant = Variant::from_name(&v)?;
            if players.len() > MAX_PLAYERS {
                return Err(Error::bad(format!(
                    "{} players: at most {MAX_PLAYERS}",
                    players.len()
                )));
            }
            let mut out = Vec::with_capacity(players.len());
            for (i, p) in players.into_iter().enumerate() {
                let what = || format!("player {}", i + 1);
                out.push(Player {
                    cat: cell(p.cat, &what)?,
                    mouse: p.mouse.map(|m| cell(m, &what)).transpose()?,
                    goal: p.goal.map(|g| cell(g, &what)).transpose()?,
                });
            }
            Setup::Game {
                variant,
                players: out,
            }
        }
        (Some(_), _, _) => {
            return Err(Error::bad(
                "a position has either \"pairs\" or \"variant\"+\"players\", not both",
            ))
        }
        (None, Some(_), None) => return Err(Error::bad("\"variant\" given without \"players\"")),
        (None, None, Some(_)) => return Err(Error::bad("\"players\" given without \"variant\"")),
        (None, None, None) => {
            return Err(Error::bad(
                "missing \"pairs\" (or \"variant\" and \"players\")",
            ))
        }
    };
    let to_move = raw.to_move.map(|k| check_to_move(k, &setup)).transpose()?;
    Ok(PositionFile {
        position: Position::new(rows, cols, walls, setup)?,
        to_move,
    })
}

fn wall_json(w: Wall) -> String {
    format!("[{}, {}, \"{}\"]", w.row, w.col, w.dir.as_str())
}

fn cell_json(c: Cell) -> String {
    format!("[{}, {}]", c.0, c.1)
}

/// A wall as JSON, `[row, col, "R"|"D"]`.
pub fn wall_to_json(w: Wall) -> String {
    wall_json(w)
}

fn walls_json(walls: &[Wall]) -> String {
    let v: Vec<String> = walls.iter().map(|&w| wall_json(w)).collect();
    format!("[{}]", v.join(", "))
}

fn pairs_json(pos: &Position) -> String {
    let v: Vec<String> = pos
        .attached_pairs()
        .iter()
        .map(|p| format!("[{}, {}]", cell_json(p.a), cell_json(p.b)))
        .collect();
    format!("[{}]", v.join(", "))
}

/// Prints a position as JSON in the form it was given (a game stays a game), one line per key.
pub fn to_json(pos: &Position) -> String {
    to_json_file(pos, None)
}

/// [`to_json`], adding `"to_move"` (1-based) when `to_move` is given (games only; ignored for
/// explicit pairs).
pub fn to_json_file(pos: &Position, to_move: Option<usize>) -> String {
    let head = format!(
        "{{\"rows\": {}, \"cols\": {},\n \"walls\": {},\n",
        pos.rows(),
        pos.cols(),
        walls_json(pos.walls())
    );
    match pos.setup() {
        Setup::Pairs(_) => format!("{head} \"pairs\": {}}}\n", pairs_json(pos)),
        Setup::Game { variant, players } => {
            let ps: Vec<String> = players
                .iter()
                .map(|p| {
                    let mut f = vec![format!("\"cat\": {}", cell_json(p.cat))];
                    if let Some(m) = p.mouse {
                        f.push(format!("\"mouse\": {}", cell_json(m)));
                    }
                    if let Some(g) = p.goal {
                        f.push(format!("\"goal\": {}", cell_json(g)));
                    }
                    format!("{{{}}}", f.join(", "))
                })
                .collect();
            let turn = match to_move {
                Some(k) => format!(",\n \"to_move\": {}", k + 1),
                None => String::new(),
            };
            format!(
                "{head} \"variant\": \"{}\",\n \"players\": [{}]{turn}}}\n",
                variant.name(),
                ps.join(", ")
            )
        }
    }
}

/// Prints a position as JSON with explicit pairs (a game is reduced to its attached pairs).
pub fn to_pairs_json(pos: &Position) -> String {
    format!(
        "{{\"rows\": {}, \"cols\": {},\n \"walls\": {},\n \"pairs\": {}}}\n",
        pos.rows(),
        pos.cols(),
        walls_json(pos.walls()),
        pairs_json(pos)
    )
}

/// Every piece marker of a game (`C1`, `M2`, `G1`, …) with its cell, ordered by player, then
/// cat, mouse, goal. Empty for explicit pairs.
pub(crate) fn pieces(pos: &Position) -> Vec<(Cell, String)> {
    let mut out = Vec::new();
    if let Setup::Game { players, .. } = pos.setup() {
        for (i, p) in players.iter().enumerate() {
            out.push((p.cat, format!("C{}", i + 1)));
            if let Some(m) = p.mouse {
                out.push((m, format!("M{}", i + 1)));
            }
            if let Some(g) = p.goal {
                out.push((g, format!("G{}", i + 1)));
            }
        }
    }
    out
}

/// The marker text of each cell (`""` for empty, `"*"` for a cell holding several pieces),
/// row-major. Used by the printers.
pub(crate) fn markers(pos: &Position) -> Vec<String> {
    let mut out = vec![String::new(); pos.rows() as usize * pos.cols() as usize];
    for (c, m) in pieces(pos) {
        let slot = &mut out[pos.node(c) as usize];
        if slot.is_empty() {
            *slot = m;
        } else {
            *slot = "*".to_string();
        }
    }
    out
}

/// The cells holding two or more pieces, row-major, each with its markers in [`pieces`] order.
pub(crate) fn stacks(pos: &Position) -> Vec<(Cell, Vec<String>)> {
    let mut all = pieces(pos);
    // Stable: keeps the player/kind order within a cell.
    all.sort_by_key(|&(c, _)| c);
    let mut out: Vec<(Cell, Vec<String>)> = Vec::new();
    for (c, m) in all {
        match out.last_mut() {
            Some((last, v)) if *last == c => v.push(m),
            _ => out.push((c, vec![m])),
        }
    }
    out.retain(|(_, v)| v.len() >= 2);
    out
}

/// Prints the ASCII form (see the module docs).
pub fn to_ascii(pos: &Position) -> String {
    to_ascii_file(pos, None)
}

/// [`to_ascii`], adding a `to-move:` line when `to_move` is given (games only; ignored for
/// explicit pairs).
pub fn to_ascii_file(pos: &Position, to_move: Option<usize>) -> String {
    let (rows, cols) = (pos.rows(), pos.cols());
    let marks = markers(pos);
    let mut s = String::with_capacity((2 * rows as usize + 4) * (4 * cols as usize + 2));
    if let Setup::Game { variant, .. } = pos.setup() {
        s.push_str(&format!("variant: {}\n", variant.name()));
        if let Some(k) = to_move {
            s.push_str(&format!("to-move: {}\n", k + 1));
        }
    }
    for r in 0..=rows {
        s.push('+');
        for c in 0..cols {
            let wall = r == 0 || r == rows || pos.has_wall(Wall::new(r - 1, c, Dir::D));
            s.push_str(if wall { "---+" } else { "   +" });
        }
        s.push('\n');
        if r == rows {
            break;
        }
        for c in 0..cols {
            let wall = c == 0 || pos.has_wall(Wall::new(r, c - 1, Dir::R));
            s.push(if wall { '|' } else { ' ' });
            let m = &marks[pos.node((r, c)) as usize];
            if m.is_empty() {
                s.push_str(" . ");
            } else {
                s.push_str(&format!("{m:>3}"));
            }
        }
        s.push_str("|\n");
    }
    if let Setup::Pairs(pairs) = pos.setup() {
        for (a, b) in pairs {
            s.push_str(&format!("pair: {},{} {},{}\n", a.0, a.1, b.0, b.1));
        }
    }
    for ((r, c), ms) in stacks(pos) {
        s.push_str(&format!("stack: {r},{c} {}\n", ms.join(" ")));
    }
    s
}

/// A piece marker: `C<k>`, `M<k>` or `G<k>` with k from 1 to [`MAX_PLAYERS`]; returns
/// `(kind, player)` with kind 0 cat, 1 mouse, 2 goal and the player 0-based.
fn parse_marker(field: &str) -> std::result::Result<(usize, usize), String> {
    let fb = field.as_bytes();
    let kind = match fb.first() {
        Some(b'C') => 0,
        Some(b'M') => 1,
        Some(b'G') => 2,
        _ => {
            return Err(format!(
                "unknown cell content {:?} (expected '.', '*', C<k>, M<k> or G<k>)",
                short(field)
            ))
        }
    };
    match field[1..].parse::<usize>() {
        Ok(p) if (1..=MAX_PLAYERS).contains(&p) && fb.len() == 2 => Ok((kind, p - 1)),
        _ => Err(format!(
            "bad marker {:?}: the player number must be 1 to {MAX_PLAYERS}",
            short(field)
        )),
    }
}

/// At most 24 characters of untrusted text, for error messages, shown in double quotes as
/// they are (control characters as `U+XXXX`) whether formatted with `{}` or `{:?}`: never
/// Rust's escapes (`\"R\"`, `\u{43e}`).
pub fn short(s: &str) -> Quoted {
    let mut t: String = s
        .chars()
        .take(24)
        .map(|c| {
            if c.is_control() {
                format!("U+{:04X}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect();
    if s.chars().count() > 24 {
        t.push('…');
    }
    Quoted(t)
}

/// Text quoted for a message ([`short`]).
pub struct Quoted(String);

impl std::fmt::Display for Quoted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.0)
    }
}

impl std::fmt::Debug for Quoted {
    /// The same as Display: the messages that quote with `{:?}` show user text, not Rust's.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

fn at(line: usize, col: usize, msg: impl std::fmt::Display) -> Error {
    Error::bad(format!("line {line}, column {col}: {msg}"))
}

fn parse_cell_text(s: &str, line: usize) -> Result<Cell> {
    let t = s.trim().trim_start_matches('(').trim_end_matches(')');
    let (r, c) = t.split_once(',').ok_or_else(|| {
        Error::bad(format!(
            "line {line}: expected a cell as ROW,COL, found '{}'",
            excerpt(s)
        ))
    })?;
    let num = |x: &str| -> Result<u32> {
        x.trim().parse::<u32>().map_err(|_| {
            Error::bad(format!(
                "line {line}: bad coordinate '{}' in cell '{}'",
                excerpt(x.trim()),
                excerpt(s)
            ))
        })
    };
    Ok((num(r)?, num(c)?))
}

/// Parses the ASCII form (see the module docs).
pub fn parse_ascii(text: &str) -> Result<Position> {
    parse_ascii_file(text).map(|f| f.position)
}

/// [`parse_ascii`], keeping the `to-move:` line.
pub fn parse_ascii_file(text: &str) -> Result<PositionFile> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end()).collect();
    let is_grid = |l: &str| l.starts_with('+') || l.starts_with('|');
    let mut variant: Option<Variant> = None;
    let mut to_move: Option<(u64, usize)> = None; // (number, line)
    let mut stack_lines: Vec<StackLine> = Vec::new();
    let mut pairs: Vec<(Cell, Cell)> = Vec::new();
    let mut grid: Option<(usize, usize)> = None; // [start, end) line indices
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if is_grid(l) {
            if grid.is_some() {
                return Err(Error::bad(format!(
                    "line {}: a second board (only one allowed)",
                    i + 1
                )));
            }
            let start = i;
            while i < lines.len() && is_grid(lines[i]) {
                i += 1;
            }
            grid = Some((start, i));
            continue;
        }
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            i += 1;
            continue;
        }
        let (key, val) = t.split_once(':').ok_or_else(|| {
            Error::bad(format!(
                "line {}: expected the board, a `variant:`, `to-move:`, `stack:` or `pair:` line, or a # comment",
                i + 1
            ))
        })?;
        match key.trim() {
            "variant" => {
                if variant.is_some() {
                    return Err(Error::bad(format!(
                        "line {}: a second `variant:` line",
                        i + 1
                    )));
                }
                variant = Some(
                    Variant::from_name(val.trim())
                        .map_err(|e| Error::bad(format!("line {}: {e}", i + 1)))?,
                );
            }
            "pair" => {
                let parts: Vec<&str> = val.split_whitespace().collect();
                if parts.len() != 2 {
                    return Err(Error::bad(format!(
                        "line {}: expected `pair: ROW,COL ROW,COL`",
                        i + 1
                    )));
                }
                if pairs.len() >= crate::board::MAX_PAIRS {
                    return Err(Error::bad(format!("line {}: too many pairs", i + 1)));
                }
                pairs.push((
                    parse_cell_text(parts[0], i + 1)?,
                    parse_cell_text(parts[1], i + 1)?,
                ));
            }
            "to-move" => {
                if to_move.is_some() {
                    return Err(Error::bad(format!(
                        "line {}: a second `to-move:` line",
                        i + 1
                    )));
                }
                let k = val.trim().parse::<u64>().map_err(|_| {
                    Error::bad(format!(
                        "line {}: `to-move:` takes a player number, found {:?}",
                        i + 1,
                        short(val.trim())
                    ))
                })?;
                to_move = Some((k, i + 1));
            }
            "stack" => {
                let mut parts = val.split_whitespace();
                let cell = parse_cell_text(parts.next().unwrap_or(""), i + 1)?;
                let mut ms = Vec::new();
                for m in parts {
                    if ms.len() >= 3 * MAX_PLAYERS {
                        return Err(Error::bad(format!(
                            "line {}: more markers than pieces in a game",
                            i + 1
                        )));
                    }
                    let (kind, player) =
                        parse_marker(m).map_err(|e| Error::bad(format!("line {}: {e}", i + 1)))?;
                    ms.push((kind, player, m.to_string()));
                }
                if ms.len() < 2 {
                    return Err(Error::bad(format!(
                        "line {}: a stack lists at least two markers (`stack: ROW,COL C1 M2`)",
                        i + 1
                    )));
                }
                stack_lines.push((i + 1, cell, ms));
            }
            k => {
                return Err(Error::bad(format!(
                    "line {}: unknown key {:?} (expected `variant`, `to-move`, `stack` or `pair`)",
                    i + 1,
                    short(k)
                )))
            }
        }
        i += 1;
    }
    let (start, end) =
        grid.ok_or_else(|| Error::bad("no board found (expected lines starting with '+' or '|')"))?;
    let g = &lines[start..end];
    if g.len() < 3 || g.len().is_multiple_of(2) {
        return Err(Error::bad(format!(
            "line {}: the board has {} lines; expected an odd number, at least 3 (2 per row plus 1)",
            start + 1,
            g.len()
        )));
    }
    let rows = (g.len() - 1) / 2;
    let width = g[0].len();
    if !g[0].is_ascii() || width < 5 || !(width - 1).is_multiple_of(4) {
        return Err(at(
            start + 1,
            1,
            "the top border must be `+---` repeated once per column, then `+`",
        ));
    }
    let cols = (width - 1) / 4;
    if rows > MAX_SIDE as usize
        || cols > MAX_SIDE as usize
        || (rows as u64) * (cols as u64) > MAX_CELLS
    {
        return Err(Error::bad(format!(
            "board of {rows}x{cols} is too large (at most {MAX_SIDE} rows, {MAX_SIDE} cols and {MAX_CELLS} cells)"
        )));
    }
    let mut walls = Vec::new();
    // Per player (0-based): cat, mouse, goal.
    let mut pieces: Vec<[Option<Cell>; 3]> = Vec::new();
    // The `*` cells with their line numbers (usize::MAX once a `stack:` line has filled them).
    let mut stack_cells: Vec<(Cell, usize)> = Vec::new();
    for (k, line) in g.iter().enumerate() {
        let ln = start + k + 1;
        if !line.is_ascii() {
            return Err(at(ln, 1, "non-ASCII character in the board"));
        }
        if line.len() != width {
            return Err(at(
                ln,
                1,
                format!("board line of {} characters; expected {width}", line.len()),
            ));
        }
        let b = line.as_bytes();
        if k % 2 == 0 {
            let r = k / 2; // boundary above row r
            let border = r == 0 || r == rows;
            for c in 0..cols {
                if b[4 * c] != b'+' {
                    return Err(at(ln, 4 * c + 1, "expected '+' at a corner"));
                }
                match &line[4 * c + 1..4 * c + 4] {
                    "---" => {
                        if !border {
                            walls.push(Wall::new(r as u32 - 1, c as u32, Dir::D));
                        }
                    }
                    "   " if !border => {}
                    _ if border => {
                        return Err(at(ln, 4 * c + 2, "the outer border must be closed (`---`)"))
                    }
                    _ => {
                        return Err(at(
                            ln,
                            4 * c + 2,
                            "expected `---` (wall) or three spaces (no wall)",
                        ))
                    }
                }
            }
            if b[4 * cols] != b'+' {
                return Err(at(ln, 4 * cols + 1, "expected '+' at a corner"));
            }
        } else {
            let r = k / 2;
            for c in 0..=cols {
                let border = c == 0 || c == cols;
                match b[4 * c] {
                    b'|' => {
                        if !border {
                            walls.push(Wall::new(r as u32, c as u32 - 1, Dir::R));
                        }
                    }
                    b' ' if !border => {}
                    _ if border => {
                        return Err(at(ln, 4 * c + 1, "the outer border must be closed (`|`)"))
                    }
                    _ => {
                        return Err(at(
                            ln,
                            4 * c + 1,
                            "expected '|' (wall) or a space (no wall)",
                        ))
                    }
                }
                if c == cols {
                    break;
                }
                let field = line[4 * c + 1..4 * c + 4].trim();
                if field.is_empty() || field == "." {
                    continue;
                }
                let cell = (r as u32, c as u32);
                if field == "*" {
                    stack_cells.push((cell, ln));
                    continue;
                }
                let (kind, player) = parse_marker(field).map_err(|e| at(ln, 4 * c + 2, e))?;
                place(&mut pieces, kind, player, cell, field).map_err(|e| at(ln, 4 * c + 2, e))?;
            }
        }
    }
    // `stack:` lines fill the `*` cells (stack_cells is in board order, so sorted).
    for (ln, cell, ms) in &stack_lines {
        match stack_cells.binary_search_by_key(cell, |&(c, _)| c) {
            Ok(k) if stack_cells[k].1 != usize::MAX => stack_cells[k].1 = usize::MAX,
            Ok(_) => {
                return Err(Error::bad(format!(
                    "line {ln}: a second `stack:` line for cell {},{}",
                    cell.0, cell.1
                )))
            }
            Err(_) => {
                return Err(Error::bad(format!(
                    "line {ln}: `stack:` names cell {},{}, which is not marked `*` on the board",
                    cell.0, cell.1
                )))
            }
        }
        for (kind, player, text) in ms {
            place(&mut pieces, *kind, *player, *cell, text)
                .map_err(|e| Error::bad(format!("line {ln}: {e}")))?;
        }
    }
    if let Some(&(cell, ln)) = stack_cells.iter().find(|&&(_, l)| l != usize::MAX) {
        return Err(at(
            ln,
            1,
            format!(
                "cell {},{} is marked `*` but no `stack:` line lists its pieces",
                cell.0, cell.1
            ),
        ));
    }
    let setup = match variant {
        None => {
            if !pieces.is_empty() {
                return Err(Error::bad(
                    "the board has cats, mice or goals but no `variant:` line (classic, cat-and-mouse or ring)",
                ));
            }
            Setup::Pairs(pairs)
        }
        Some(variant) => {
            if !pairs.is_empty() {
                return Err(Error::bad(
                    "`pair:` lines cannot be combined with a `variant:` line",
                ));
            }
            let mut players = Vec::with_capacity(pieces.len());
            for (i, [cat, mouse, goal]) in pieces.into_iter().enumerate() {
                let cat = cat.ok_or_else(|| {
                    Error::bad(format!("player {} has no cat (C{})", i + 1, i + 1))
                })?;
                players.push(Player { cat, mouse, goal });
            }
            Setup::Game { variant, players }
        }
    };
    let to_move = match to_move {
        Some((k, ln)) => {
            Some(check_to_move(k, &setup).map_err(|e| Error::bad(format!("line {ln}: {e}")))?)
        }
        None => None,
    };
    Ok(PositionFile {
        position: Position::new(rows as u32, cols as u32, walls, setup)?,
        to_move,
    })
}

/// A `stack:` line: its line number, cell and markers as (kind, player, text).
type StackLine = (usize, Cell, Vec<(usize, usize, String)>);

/// Records one marker; refuses a second copy of the same piece.
fn place(
    pieces: &mut Vec<[Option<Cell>; 3]>,
    kind: usize,
    player: usize,
    cell: Cell,
    text: &str,
) -> std::result::Result<(), String> {
    if pieces.len() <= player {
        pieces.resize(player + 1, [None; 3]);
    }
    if pieces[player][kind].is_some() {
        return Err(format!("a second {text} on the board"));
    }
    pieces[player][kind] = Some(cell);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "# A 3x4 cat-and-mouse position.
variant: cat-and-mouse
+---+---+---+---+
| C1  .   . | M2|
+   +---+   +   +
| .   .   .   . |
+   +   +   +---+
| M1  .   .   C2|
+---+---+---+---+
";

    #[test]
    fn doc_example_parses() {
        let p = parse(EXAMPLE.as_bytes()).unwrap();
        assert_eq!((p.rows(), p.cols()), (3, 4));
        assert_eq!(
            p.walls(),
            &[
                Wall::new(0, 1, Dir::D),
                Wall::new(0, 2, Dir::R),
                Wall::new(1, 3, Dir::D)
            ]
        );
        let Setup::Game { variant, players } = p.setup() else {
            panic!()
        };
        assert_eq!(*variant, Variant::CatAndMouse);
        assert_eq!(
            players[0],
            Player {
                cat: (0, 0),
                mouse: Some((2, 0)),
                goal: None
            }
        );
        assert_eq!(
            players[1],
            Player {
                cat: (2, 3),
                mouse: Some((0, 3)),
                goal: None
            }
        );
        let again = parse(to_ascii(&p).as_bytes()).unwrap();
        assert_eq!(again, p);
        assert_eq!(parse(to_json(&p).as_bytes()).unwrap(), p);
    }

    #[test]
    fn json_examples_parse() {
        let a = r#"{"rows": 3, "cols": 4,
 "walls": [[0, 1, "R"], [1, 2, "D"]],
 "pairs": [[[0, 0], [2, 3]], [[1, 1], [0, 3]]]}"#;
        let p = parse(a.as_bytes()).unwrap();
        assert_eq!(
            p.walls(),
            &[Wall::new(0, 1, Dir::R), Wall::new(1, 2, Dir::D)]
        );
        assert_eq!(p.node_pairs(), vec![(0, 11), (5, 3)]);
        let b = r#"{"rows": 11, "cols": 11, "walls": [],
 "variant": "classic",
 "players": [{"cat": [0, 0], "goal": [10, 10]}, {"cat": [0, 10], "goal": [10, 0]}]}"#;
        let p = parse(b.as_bytes()).unwrap();
        assert_eq!(p.node_pairs(), vec![(0, 120), (10, 110)]);
        let pj = parse(to_pairs_json(&p).as_bytes()).unwrap();
        assert_eq!(pj.node_pairs(), p.node_pairs());
    }

    #[test]
    fn errors_are_located() {
        let bad = EXAMPLE.replace("| .   .   .   . |", "| .   .   X   . |");
        let e = parse(bad.as_bytes()).unwrap_err().to_string();
        assert!(
            e.contains("line 6") && e.contains("unknown cell content"),
            "{e}"
        );
        let bad = EXAMPLE.replace("variant: cat-and-mouse\n", "");
        assert!(parse(bad.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("variant"));
        let bad = EXAMPLE.replace("| M1  .   .   C2|", "  M1  .   .   C2|");
        assert!(parse(bad.as_bytes()).is_err());
        let bad = EXAMPLE.replace("M1", "C1");
        assert!(parse(bad.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("second C1"));
    }
}
