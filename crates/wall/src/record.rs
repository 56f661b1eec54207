//! Game records (PGN-like): header tags, then the numbered move list. A record stands for its
//! start position plus its moves; read as a position, it means its final position with the next
//! player to move.
//!
//! ```text
//! [Board "8x8"]
//! [Variant "Standard"]
//! [Result "*"]
//!
//! 1. Cb7.>a7 Mb2
//! 2. Md1 >d1.^d1
//! ```
//!
//! # Header
//!
//! One tag per line, `[Name "value"]`: a name of 1 to [`MAX_TAG_NAME`] ASCII letters, digits or
//! `_`, one space, a double-quoted value of at most [`MAX_TAG_VALUE`] bytes in which `\"` and
//! `\\` stand for `"` and `\`. At most [`MAX_TAGS`] tags, each name at most once. Tags this crate
//! reads:
//! - `Board` (mandatory): `COLSxROWS`, 2 to 26 columns, 2 to 99 rows.
//! - `Result` (mandatory): `*` (going on, or unknown), or one score per player joined by `-`: `1`
//!   for the winner and `0` for the others (`1-0`, `0-1`, `0-0-1`), or `1/2` for every player
//!   for a draw (`1/2-1/2`).
//! - `Variant` (optional, default `Standard`): `Standard` (the crate's `cat-and-mouse`),
//!   `Classic`, or `Ring` (this crate's extension, 3 or 4 players).
//! - `Position` (optional; this crate's extension): the start position in standard notation,
//!   space-separated items `C<k><cell>`, `M<k><cell>`, `G<k><cell>` (player k's cat, mouse,
//!   home) and walls `>cell`, `^cell`, e.g. `C1a8 M1a1 C2h8 M2h1 >d4`. Without it the start is
//!   the variant's standard setup ([`Game::standard`]); a ring, or a classic game of other than
//!   two players, needs it. The player count is the highest player number.
//! - `Termination` (optional): `MouseCapture`, `Timeout`, `Resignation`, `DrawAgreement`,
//!   `OneMoveRuleDraw`, `Unknown`, or `GoalReached` (this crate's name for a classic win).
//!
//! Other tags (`TimeControl`, `Player1`, `Date`, …) are kept and written back unread.
//!
//! # Moves
//!
//! After the header (a blank line may follow it): move numbers `1.`, `2.`, … in order, each
//! followed by one move per player in player order, in standard notation
//! ([`crate::notation`]); whitespace and line breaks are free. Only the last number may
//! have fewer moves than players. A final result token equal to the `Result` tag may close the
//! list. Player 1 moves first. At most [`MAX_PLIES`] moves in all, and a record file is at most
//! [`MAX_RECORD`] bytes.
//!
//! # Consistency
//!
//! [`Record::replay`] plays every move: an illegal move is a rejection (exit 1) naming its
//! number and player; a move after the game ended on the board is bad input. When the game
//! ended on the board the `Result` tag must be exactly its result, and a `Termination` tag, if
//! any, its termination (or `Unknown`); when it did not, any `Result` is accepted (a game may end
//! by resignation or time) but not a termination that happens on the board.

use crate::board::{Cell, Player, Position, Setup, Variant, Wall};
use crate::format::{self, short, PositionFile};
use crate::game::{score_text, Game, Move, PlayError, Status};
use crate::notation::{Notation, MAX_COLS, MAX_MOVE_LEN, MAX_ROWS};
use zkgames_core::Error;
use zkgames_core::Result;

/// Largest record file, in bytes.
pub const MAX_RECORD: usize = 1 << 20;
/// Most moves (all players together) in a record.
pub const MAX_PLIES: usize = 10_000;
/// Most header tags.
pub const MAX_TAGS: usize = 64;
/// Longest tag name.
pub const MAX_TAG_NAME: usize = 32;
/// Longest tag value, in bytes (a `Position` tag of a full 26×99 board fits).
pub const MAX_TAG_VALUE: usize = 32 << 10;

/// The `Termination` values a record may carry.
pub const TERMINATIONS: [&str; 7] = [
    "MouseCapture",
    "Timeout",
    "Resignation",
    "DrawAgreement",
    "OneMoveRuleDraw",
    "Unknown",
    "GoalReached",
];

/// A parsed game record: its tags (in file order), its start and its moves. The moves are
/// well formed but not yet checked against the rules: see [`Record::replay`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    tags: Vec<(String, String)>,
    start: Game,
    moves: Vec<Move>,
}

/// Why a record's moves do not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// Move `number` (1-based) of `player` (0-based), written `text`, breaks a rule.
    Illegal {
        number: usize,
        player: usize,
        text: String,
        why: crate::game::Illegal,
    },
    /// A move after the game ended on the board.
    AfterEnd {
        number: usize,
        player: usize,
        result: String,
    },
    /// The tags contradict how the game ended on the board.
    Inconsistent(String),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Illegal {
                number,
                player,
                text,
                why,
            } => write!(
                f,
                "move {number} (player {}, {text}) is illegal: {why}",
                player + 1
            ),
            ReplayError::AfterEnd {
                number,
                player,
                result,
            } => write!(
                f,
                "move {number} (player {}): the game is already over ({result})",
                player + 1
            ),
            ReplayError::Inconsistent(m) => write!(f, "{m}"),
        }
    }
}

impl From<ReplayError> for Error {
    /// An illegal move is a rejection (exit 1); the rest is bad input (exit 2).
    fn from(e: ReplayError) -> Error {
        match e {
            ReplayError::Illegal { .. } => Error::rejected(e),
            _ => Error::bad(e),
        }
    }
}

fn variant_tag(v: Variant) -> &'static str {
    match v {
        Variant::CatAndMouse => "Standard",
        Variant::Classic => "Classic",
        Variant::Ring => "Ring",
    }
}

impl Record {
    /// A record of `moves` played from `start` (player 1 to move, a board the notation covers,
    /// 2 or more rows and columns), with the tags `Board`, `Variant`, `Position` (unless `start`
    /// is the variant's standard setup), `Result` and `Termination` (when the moves end the
    /// game). Refuses moves that do not replay.
    pub fn from_game(start: &Game, moves: Vec<Move>) -> Result<Record> {
        let pos = start.position();
        let (rows, cols) = (pos.rows(), pos.cols());
        let notation = Notation::new(rows, cols)?;
        if rows < 2 || cols < 2 {
            return Err(Error::bad(format!(
                "a record's board has at least 2 rows and 2 columns, not {cols}x{rows}"
            )));
        }
        if start.to_move() != 0 {
            return Err(Error::bad(format!(
                "a record starts with player 1 to move, not player {}",
                start.to_move() + 1
            )));
        }
        let mut tags = vec![
            ("Board".to_string(), format!("{cols}x{rows}")),
            (
                "Variant".to_string(),
                variant_tag(start.variant()).to_string(),
            ),
        ];
        let standard = Game::standard(start.variant(), rows, cols).ok();
        if standard.as_ref() != Some(start) {
            tags.push(("Position".to_string(), position_tag(&notation, pos)));
        }
        tags.push(("Result".to_string(), "*".to_string()));
        let mut rec = Record {
            tags,
            start: start.clone(),
            moves,
        };
        let end = rec.replay_moves()?;
        if let Status::Over(_) = end.status() {
            rec.set_tag("Result", &end.result_text());
            rec.set_tag("Termination", end.termination().unwrap_or("Unknown"));
        }
        Ok(rec)
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// All tags, in order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Sets a tag (replacing its value, or appending it). Values are not checked here.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    pub fn start(&self) -> &Game {
        &self.start
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn notation(&self) -> Notation {
        Notation::for_position(self.start.position()).expect("checked when the record was made")
    }

    /// Plays every move from the start; the game after the last one.
    fn replay_moves(&self) -> std::result::Result<Game, ReplayError> {
        let n = self.start.players().len();
        let notation = self.notation();
        let mut g = self.start.clone();
        for (i, mv) in self.moves.iter().enumerate() {
            let (number, player) = (i / n + 1, i % n);
            g = match g.play(mv) {
                Ok(next) => next,
                Err(PlayError::Illegal(why)) => {
                    return Err(ReplayError::Illegal {
                        number,
                        player,
                        text: notation.write_move(mv).unwrap_or_default(),
                        why,
                    })
                }
                Err(PlayError::Over(_)) => {
                    return Err(ReplayError::AfterEnd {
                        number,
                        player,
                        result: format!(
                            "{}: {}",
                            g.result_text(),
                            g.describe_outcome().unwrap_or_default()
                        ),
                    })
                }
            };
        }
        Ok(g)
    }

    /// Checks every move and the tags against the board; the final game.
    pub fn replay(&self) -> std::result::Result<Game, ReplayError> {
        let end = self.replay_moves()?;
        let result = self.tag("Result").unwrap_or("*");
        let termination = self.tag("Termination");
        match end.status() {
            Status::Over(_) => {
                let want = end.result_text();
                if result != want {
                    return Err(ReplayError::Inconsistent(format!(
                        "the Result tag says {}, but the moves end the game with {want} ({})",
                        zkgames_core::files::excerpt(result),
                        end.describe_outcome().unwrap_or_default()
                    )));
                }
                let t = end.termination().expect("the game is over");
                if let Some(x) = termination {
                    if x != t && x != "Unknown" {
                        return Err(ReplayError::Inconsistent(format!(
                            "the Termination tag says {}, but the game ended by {t}",
                            zkgames_core::files::excerpt(x)
                        )));
                    }
                }
            }
            Status::Ongoing => {
                if let Some(x @ ("MouseCapture" | "OneMoveRuleDraw" | "GoalReached")) = termination
                {
                    return Err(ReplayError::Inconsistent(format!(
                        "the Termination tag says {x}, but the game did not end on the board"
                    )));
                }
            }
        }
        Ok(end)
    }

    /// The record as text: tags in order, a blank line, one line per move number.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (n, v) in &self.tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            s.push_str(&format!("[{n} \"{v}\"]\n"));
        }
        s.push('\n');
        let n = self.start.players().len();
        let notation = self.notation();
        for (k, chunk) in self.moves.chunks(n).enumerate() {
            let ms: Vec<String> = chunk
                .iter()
                .map(|m| notation.write_move(m).expect("parsed on this board"))
                .collect();
            s.push_str(&format!("{}. {}\n", k + 1, ms.join(" ")));
        }
        s
    }
}

/// The `Position` tag of a position: pieces by player (cat, mouse, home), then walls in
/// canonical order.
pub fn position_tag(n: &Notation, pos: &Position) -> String {
    let mut items = Vec::new();
    if let Setup::Game { players, .. } = pos.setup() {
        for (i, p) in players.iter().enumerate() {
            let k = i + 1;
            items.push(format!("C{k}{}", n.cell(p.cat).expect("on the board")));
            if let Some(m) = p.mouse {
                items.push(format!("M{k}{}", n.cell(m).expect("on the board")));
            }
            if let Some(g) = p.goal {
                items.push(format!("G{k}{}", n.cell(g).expect("on the board")));
            }
        }
    }
    let walls = Move::new(None, None, pos.walls().to_vec());
    for w in walls.walls() {
        items.push(n.wall(*w).expect("a position's walls are on the board"));
    }
    items.join(" ")
}

/// Parses a `Position` tag value for `variant` on the notation's board.
fn parse_position_tag(n: &Notation, variant: Variant, v: &str) -> Result<Position> {
    let mut pieces: Vec<[Option<Cell>; 3]> = Vec::new();
    let mut walls: Vec<Wall> = Vec::new();
    for item in v.split_whitespace() {
        let b = item.as_bytes();
        if b[0] == b'>' || b[0] == b'^' {
            walls.push(n.parse_wall(item)?);
            continue;
        }
        let kind = match b[0] {
            b'C' => 0,
            b'M' => 1,
            b'G' => 2,
            _ => {
                return Err(Error::bad(format!(
                    "Position tag: unknown item {:?} (expected C<k>cell, M<k>cell, G<k>cell, >cell or ^cell)",
                    short(item)
                )))
            }
        };
        let player = match b.get(1) {
            Some(d @ b'1'..=b'4') => (d - b'1') as usize,
            _ => {
                return Err(Error::bad(format!(
                    "Position tag: {:?} needs a player number 1 to 4 after the piece letter",
                    short(item)
                )))
            }
        };
        let cell = n
            .parse_cell(&item[2..])
            .map_err(|e| Error::bad(format!("Position tag: {e}")))?;
        if pieces.len() <= player {
            pieces.resize(player + 1, [None; 3]);
        }
        if pieces[player][kind].replace(cell).is_some() {
            return Err(Error::bad(format!("Position tag: a second {}", &item[..2])));
        }
    }
    let mut players = Vec::with_capacity(pieces.len());
    for (i, [cat, mouse, goal]) in pieces.into_iter().enumerate() {
        let cat = cat.ok_or_else(|| {
            Error::bad(format!(
                "Position tag: player {} has no cat (C{})",
                i + 1,
                i + 1
            ))
        })?;
        players.push(Player { cat, mouse, goal });
    }
    let mut sorted = walls.clone();
    sorted.sort_unstable();
    if let Some(d) = sorted.windows(2).find(|p| p[0] == p[1]) {
        return Err(Error::bad(format!(
            "Position tag: wall {} given twice",
            n.wall(d[0]).unwrap_or_default()
        )));
    }
    Position::new(n.rows(), n.cols(), walls, Setup::Game { variant, players })
        .map_err(|e| Error::bad(format!("Position tag: {e}")))
}

/// Parses one `[Name "value"]` line.
fn parse_tag(line: &str, ln: usize) -> Result<(String, String)> {
    let bad = |m: &str| Error::bad(format!("line {ln}: {m}"));
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| bad("a tag is [Name \"value\"] on one line"))?;
    let (name, rest) = inner
        .split_once(' ')
        .ok_or_else(|| bad("a tag is [Name \"value\"] on one line"))?;
    if name.is_empty()
        || name.len() > MAX_TAG_NAME
        || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(bad(&format!(
            "bad tag name {:?} (1 to {MAX_TAG_NAME} letters, digits or _)",
            short(name)
        )));
    }
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| bad(&format!("tag {name}: the value must be in double quotes")))?;
    if body.len() > MAX_TAG_VALUE {
        return Err(bad(&format!(
            "tag {name}: a value of {} bytes (at most {MAX_TAG_VALUE})",
            body.len()
        )));
    }
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err(bad(&format!("tag {name}: only \\\" and \\\\ are escapes"))),
            },
            '"' => {
                return Err(bad(&format!(
                    "tag {name}: a quote inside the value must be written \\\""
                )))
            }
            c if c.is_control() => {
                return Err(bad(&format!("tag {name}: control character in the value")))
            }
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Parses a result (`*`, `1-0`, `0-1-0`, `1/2-1/2`, …) for `n` players: `None` for `*`,
/// `Some(winner)` otherwise (`Some(None)` a draw).
fn parse_result(s: &str, n: usize) -> Result<Option<Option<usize>>> {
    if s == "*" {
        return Ok(None);
    }
    let bad = || {
        Error::bad(format!(
            "Result {:?}: expected * or one score per player ({n}), like {} or {}",
            short(s),
            score_text(n, Some(0)),
            score_text(n, None)
        ))
    };
    let parts: Vec<&str> = s.split('-').collect();
    if parts.len() != n {
        return Err(bad());
    }
    if parts.iter().all(|p| *p == "1/2") {
        return Ok(Some(None));
    }
    if parts.iter().all(|p| *p == "0" || *p == "1")
        && parts.iter().filter(|p| **p == "1").count() == 1
    {
        return Ok(Some(parts.iter().position(|p| *p == "1")));
    }
    Err(bad())
}

/// Whether a token of the move list is a result (`*` or scores), as opposed to a move.
fn is_result_token(t: &str) -> bool {
    t == "*"
        || (t.bytes().any(|b| b.is_ascii_digit())
            && t.bytes()
                .all(|b| b.is_ascii_digit() || b == b'-' || b == b'/'))
}

/// Whether the first meaningful line of a text is a tag line: such input is a record.
pub fn looks_like_record(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[')
}

/// Parses a record (see the module docs). Does not replay it.
pub fn parse(bytes: &[u8]) -> Result<Record> {
    if bytes.len() > MAX_RECORD {
        return Err(Error::bad(format!(
            "a record of {} bytes (at most {MAX_RECORD})",
            bytes.len()
        )));
    }
    let text =
        std::str::from_utf8(bytes).map_err(|e| Error::bad(format!("not UTF-8 text ({e})")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(|l| l.trim()).collect();
    let mut i = 0;
    while i < lines.len() && lines[i].is_empty() {
        i += 1;
    }
    let mut tags: Vec<(String, String)> = Vec::new();
    while i < lines.len() && lines[i].starts_with('[') {
        let (name, value) = parse_tag(lines[i], i + 1)?;
        if tags.iter().any(|(n, _)| *n == name) {
            return Err(Error::bad(format!("line {}: a second {name} tag", i + 1)));
        }
        if tags.len() >= MAX_TAGS {
            return Err(Error::bad(format!(
                "line {}: more than {MAX_TAGS} tags",
                i + 1
            )));
        }
        tags.push((name, value));
        i += 1;
    }
    let get = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
    let board = get("Board").ok_or_else(|| Error::bad("missing [Board \"COLSxROWS\"] tag"))?;
    let (cols, rows) = board
        .split_once('x')
        .and_then(|(c, r)| Some((c.parse::<u32>().ok()?, r.parse::<u32>().ok()?)))
        .filter(|&(c, r)| (2..=MAX_COLS).contains(&c) && (2..=MAX_ROWS).contains(&r))
        .ok_or_else(|| {
            Error::bad(format!(
                "Board {:?}: expected COLSxROWS with 2 to {MAX_COLS} columns and 2 to {MAX_ROWS} rows",
                short(board)
            ))
        })?;
    let notation = Notation::new(rows, cols)?;
    let variant = match get("Variant").unwrap_or("Standard") {
        "Standard" => Variant::CatAndMouse,
        "Classic" => Variant::Classic,
        "Ring" => Variant::Ring,
        v => {
            return Err(Error::bad(format!(
                "Variant {:?}: expected Standard, Classic or Ring",
                short(v)
            )))
        }
    };
    let start = match get("Position") {
        Some(v) => Game::new(parse_position_tag(&notation, variant, v)?, 0)
            .map_err(|e| Error::bad(format!("Position tag: {e}")))?,
        None => Game::standard(variant, rows, cols)?,
    };
    let n = start.players().len();
    let result = get("Result").ok_or_else(|| Error::bad("missing [Result \"...\"] tag"))?;
    parse_result(result, n)?;
    if let Some(t) = get("Termination") {
        if !TERMINATIONS.contains(&t) {
            return Err(Error::bad(format!(
                "Termination {:?}: expected one of {}",
                short(t),
                TERMINATIONS.join(", ")
            )));
        }
    }

    // The move list.
    let mut moves: Vec<Move> = Vec::new();
    let mut number = 0usize; // the current move number
    let mut in_group = 0usize; // moves read after the current number
    let mut ended = false; // a result token was read
    for (k, line) in lines.iter().enumerate().skip(i) {
        let ln = k + 1;
        if line.starts_with('[') {
            return Err(Error::bad(format!(
                "line {ln}: a tag after the move list started"
            )));
        }
        for tok in line.split_whitespace() {
            if ended {
                return Err(Error::bad(format!(
                    "line {ln}: {:?} after the result",
                    short(tok)
                )));
            }
            if let Some(num) = tok.strip_suffix('.') {
                if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                    if number > 0 && in_group < n {
                        return Err(Error::bad(format!(
                            "line {ln}: move {number} has {in_group} of {n} players' moves; only the last number may be short"
                        )));
                    }
                    if num != (number + 1).to_string() {
                        return Err(Error::bad(format!(
                            "line {ln}: move number {:?}, expected {}.",
                            short(tok),
                            number + 1
                        )));
                    }
                    number += 1;
                    in_group = 0;
                    continue;
                }
            }
            if is_result_token(tok) {
                if tok != result {
                    return Err(Error::bad(format!(
                        "line {ln}: the move list ends with {:?}, but the Result tag says {}",
                        short(tok),
                        short(result)
                    )));
                }
                ended = true;
                continue;
            }
            if number == 0 {
                return Err(Error::bad(format!(
                    "line {ln}: expected the move number 1. before {:?}",
                    short(tok)
                )));
            }
            if in_group == n {
                return Err(Error::bad(format!(
                    "line {ln}: move {number} already has all {n} players' moves; expected {}.",
                    number + 1
                )));
            }
            if moves.len() >= MAX_PLIES {
                return Err(Error::bad(format!(
                    "line {ln}: more than {MAX_PLIES} moves"
                )));
            }
            if tok.len() > MAX_MOVE_LEN {
                return Err(Error::bad(format!(
                    "line {ln}: a move of {} characters (at most {MAX_MOVE_LEN})",
                    tok.len()
                )));
            }
            let mv = notation.parse_move(tok).map_err(|e| {
                Error::bad(format!(
                    "line {ln}: move {number} (player {}): {e}",
                    in_group + 1
                ))
            })?;
            moves.push(mv);
            in_group += 1;
        }
    }
    if number > 0 && in_group == 0 {
        return Err(Error::bad(format!(
            "move number {number}. has no moves after it"
        )));
    }
    Ok(Record { tags, start, moves })
}

/// What a POSITION argument holds: a position file, or a game record standing for its final
/// position (replayed).
#[derive(Clone, Debug)]
pub enum Source {
    File(PositionFile),
    Record { record: Record, end: Game },
}

impl Source {
    /// The position: the file's, or the record's final position.
    pub fn position(&self) -> &Position {
        match self {
            Source::File(f) => &f.position,
            Source::Record { end, .. } => end.position(),
        }
    }

    /// Whose move it is, if stated (0-based): a record always says.
    pub fn to_move(&self) -> Option<usize> {
        match self {
            Source::File(f) => f.to_move,
            Source::Record { end, .. } => Some(end.to_move()),
        }
    }

    /// The game: a record's final game, or the file's position with its player to move
    /// (player 1 when unstated). Bad input for explicit pairs or an invalid position.
    pub fn game(&self) -> Result<Game> {
        match self {
            Source::File(f) => Game::new(f.position.clone(), f.to_move.unwrap_or(0)),
            Source::Record { end, .. } => Ok(end.clone()),
        }
    }
}

/// Parses a position file or a record (auto-detected: a record's first line is a tag). A
/// record is replayed: an illegal move is a rejection (exit 1).
pub fn parse_source(bytes: &[u8]) -> Result<Source> {
    let head = &bytes[..bytes.len().min(4096)];
    let is_record = match std::str::from_utf8(head) {
        Ok(t) => looks_like_record(t),
        // A cut in the middle of a character: judge the valid prefix.
        Err(e) => looks_like_record(std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or("")),
    };
    if is_record {
        let record = parse(bytes)?;
        let end = record.replay()?;
        Ok(Source::Record { record, end })
    } else {
        format::parse_file(bytes).map(Source::File)
    }
}

/// Reads a position file or a record from a path (`-` for stdin); errors name the path.
pub fn read_source(path: &str) -> Result<Source> {
    let bytes = zkgames_core::proof_file::read_input(path, format::MAX_FILE)?;
    parse_source(&bytes).map_err(|e| name_path(path, e))
}

/// Prefixes a message with the path it came from, keeping the error's kind.
fn name_path(path: &str, e: Error) -> Error {
    let shown = if path == "-" { "<stdin>" } else { path };
    match e {
        Error::Rejected(m) => Error::rejected(format!("{shown}: {m}")),
        other => format::name_path(path, other),
    }
}
