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
//! `"variant"` + `"players"`, never both; unknown keys are errors. Cats, mice and goals must all
//! be on distinct cells; the cells of explicit pairs may repeat freely.
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
//! A cell field holds, after trimming spaces, nothing or `.` (empty), or one marker: `C<k>` (player
//! k's cat), `M<k>` (player k's mouse) or `G<k>` (player k's goal), with k from 1 to 4.
//!
//! Outside the board, a line is blank, a `#` comment, or one of:
//! - `variant: classic|cat-and-mouse|ring`: required when the board has markers; players are
//!   numbered 1 up to the highest marker number, and each must have the pieces its variant needs.
//! - `pair: R,C R,C`: an explicit attached pair (one line per pair, parentheses around the
//!   cells are allowed: `pair: (0,0) (2,3)`). Not allowed together with `variant:`.
//!
//! A board with neither markers nor pairs is a position with no attached pairs.
//! [`to_ascii`] and [`to_json`] print positions back; parsing their output gives the same position.

use serde::Deserialize;

use crate::files::excerpt;
use crate::wall::board::{
    Cell, Dir, Player, Position, Setup, Variant, Wall, MAX_CELLS, MAX_PLAYERS, MAX_SIDE,
};
use crate::{Error, Result};

/// Largest accepted position file: 64 MiB (a 1000×1000 ASCII board is about 8 MB).
pub const MAX_FILE: u64 = 64 << 20;

/// Reads a position from a path (`-` for stdin), ASCII or JSON. Errors name the path.
pub fn read_position(path: &str) -> Result<Position> {
    let bytes = crate::proof_file::read_input(path, MAX_FILE)?;
    let shown = if path == "-" { "<stdin>" } else { path };
    parse(&bytes).map_err(|e| match e {
        Error::BadInput(m) => Error::bad(format!("{shown}: {m}")),
        other => other,
    })
}

/// Parses a position in either format (auto-detected; see the module docs).
pub fn parse(bytes: &[u8]) -> Result<Position> {
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
        parse_json(text)
    } else {
        parse_ascii(text)
    }
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
    let raw: RawPosition = serde_json::from_str(text).map_err(|e| {
        Error::bad(format!(
            "malformed position JSON: {}",
            crate::files::shorten(&e.to_string(), 160)
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
        let what = || format!("wall {} [{r}, {c}, {d:?}]", i + 1);
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
    Position::new(rows, cols, walls, setup)
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
            format!(
                "{head} \"variant\": \"{}\",\n \"players\": [{}]}}\n",
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

/// The marker text of each cell (`""` for empty), row-major. Used by the printers.
pub(crate) fn markers(pos: &Position) -> Vec<String> {
    let mut out = vec![String::new(); pos.rows() as usize * pos.cols() as usize];
    if let Setup::Game { players, .. } = pos.setup() {
        for (i, p) in players.iter().enumerate() {
            out[pos.node(p.cat) as usize] = format!("C{}", i + 1);
            if let Some(m) = p.mouse {
                out[pos.node(m) as usize] = format!("M{}", i + 1);
            }
            if let Some(g) = p.goal {
                out[pos.node(g) as usize] = format!("G{}", i + 1);
            }
        }
    }
    out
}

/// Prints the ASCII form (see the module docs).
pub fn to_ascii(pos: &Position) -> String {
    let (rows, cols) = (pos.rows(), pos.cols());
    let marks = markers(pos);
    let mut s = String::with_capacity((2 * rows as usize + 4) * (4 * cols as usize + 2));
    if let Setup::Game { variant, .. } = pos.setup() {
        s.push_str(&format!("variant: {}\n", variant.name()));
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
    s
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
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end()).collect();
    let is_grid = |l: &str| l.starts_with('+') || l.starts_with('|');
    let mut variant: Option<Variant> = None;
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
                "line {}: expected the board, a `variant:` or `pair:` line, or a # comment",
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
                if pairs.len() >= crate::wall::board::MAX_PAIRS {
                    return Err(Error::bad(format!("line {}: too many pairs", i + 1)));
                }
                pairs.push((
                    parse_cell_text(parts[0], i + 1)?,
                    parse_cell_text(parts[1], i + 1)?,
                ));
            }
            k => {
                return Err(Error::bad(format!(
                    "line {}: unknown key '{}' (expected `variant` or `pair`)",
                    i + 1,
                    excerpt(k)
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
    // Per player (0-based): cat, mouse, goal, each with the line where it was found.
    let mut pieces: Vec<[Option<Cell>; 3]> = Vec::new();
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
                let fb = field.as_bytes();
                let kind = match fb[0] {
                    b'C' => 0,
                    b'M' => 1,
                    b'G' => 2,
                    _ => {
                        return Err(at(
                            ln,
                            4 * c + 2,
                            format!(
                                "unknown cell content '{}' (expected '.', C<k>, M<k> or G<k>)",
                                excerpt(field)
                            ),
                        ))
                    }
                };
                let player = match field[1..].parse::<usize>() {
                    Ok(p) if (1..=MAX_PLAYERS).contains(&p) && fb.len() == 2 => p - 1,
                    _ => {
                        return Err(at(
                            ln,
                            4 * c + 2,
                            format!(
                                "bad marker '{}': the player number must be 1 to {MAX_PLAYERS}",
                                excerpt(field)
                            ),
                        ))
                    }
                };
                if pieces.len() <= player {
                    pieces.resize(player + 1, [None; 3]);
                }
                if pieces[player][kind].is_some() {
                    return Err(at(ln, 4 * c + 2, format!("a second {field} on the board")));
                }
                pieces[player][kind] = Some((r as u32, c as u32));
            }
        }
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
    Position::new(rows as u32, cols as u32, walls, setup)
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
