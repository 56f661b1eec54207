//! Simon Tatham's Portable Puzzle Collection: puzzles read from the collection's own save
//! files and game IDs, and the statement "I know a solution of this puzzle".
//!
//! - [`save`]: the save-file reader (`KEY:LENGTH:VALUE` records as the collection's
//!   `midend.c` writes them). AUXINFO and PRIVDESC are read and dropped.
//! - [`GAMES`]: the registry, one line per game. A game is one file implementing
//!   [`Puzzle`] and [`Position`] and one [`Game`] entry: it decodes its PARAMS and DESC
//!   (bounded sizes), replays the game's own move strings (`execute_move`), says in the
//!   game's terms why a position is not solved, and builds its circuit and witness.
//! - [`proof`]: the one proof kind of every Tatham statement (protocol ids 23–25), binding
//!   the game's name and its canonical game ID.
//!
//! Circuits output "violation" bits: a circuit accepts a witness when every output is 0.
//! Connectivity, acyclicity and single loops use the graph certificates of
//! [`zkgames_mpc::circuit::graph`].

pub mod bridges;
pub mod dominosa;
pub mod filling;
pub mod keen;
pub mod latin;
pub mod lightup;
pub mod loopy;
pub mod magnets;
pub mod map;
pub mod mosaic;
pub mod net;
pub mod parse;
pub mod pattern;
pub mod pearl;
pub mod pegs;
pub mod proof;
pub mod range;
pub mod save;
pub mod signpost;
pub mod singles;
pub mod slant;
pub mod solo;
pub mod tents;
pub mod towers;
pub mod unequal;
pub mod unruly;

use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::Circuit;

/// The longest game ID (`PARAMS:DESC`) read: far above any puzzle the bounds below allow.
pub const MAX_ID_BYTES: usize = 1 << 20;

/// One game of the collection.
pub struct Game {
    /// The collection's name of the game, as its save files' GAME record writes it.
    pub name: &'static str,
    /// The game's default parameters (what a fresh `sgt-<game>` plays).
    pub default_params: &'static str,
    /// A larger parameter string, for tests and figures.
    pub larger_params: &'static str,
    /// The puzzle of `params` and `desc` (the CPARAMS and DESC of a save file): refuses,
    /// in one line, what the game's own `validate_params`/`validate_desc` would refuse and
    /// whatever exceeds this crate's bounds.
    pub decode: fn(params: &str, desc: &str) -> Result<Box<dyn Puzzle>>,
    /// Whether zkgames can find a solution itself (`prover tatham prove --solve`).
    pub solves: bool,
    /// A save file at the default parameters, written by the collection's own program and
    /// committed under `puzzles/tatham/` (`prover tatham list` proves it for its sizes).
    pub sample: &'static str,
}

/// The registry: every supported game, one line each.
pub const GAMES: &[Game] = &[
    net::GAME,
    solo::GAME,
    pattern::GAME,
    pegs::GAME,
    slant::GAME,
    loopy::GAME,
    pearl::GAME,
    bridges::GAME,
    unruly::GAME,
    towers::GAME,
    unequal::GAME,
    lightup::GAME,
    tents::GAME,
    magnets::GAME,
    mosaic::GAME,
    singles::GAME,
    range::GAME,
    keen::GAME,
    filling::GAME,
    map::GAME,
    signpost::GAME,
    dominosa::GAME,
];

/// The game called `name` (case-insensitive), or a one-line refusal naming the supported ones.
pub fn game(name: &str) -> Result<&'static Game> {
    GAMES
        .iter()
        .find(|g| g.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            Error::bad(format!(
                "unknown or unsupported game '{}' (supported: {})",
                zkgames_core::files::excerpt(name),
                names()
            ))
        })
}

/// The supported games' names, comma separated.
pub fn names() -> String {
    GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
}

/// A public puzzle: what the game ID says.
pub trait Puzzle: Send + Sync {
    /// The game.
    fn game(&self) -> &'static Game;
    /// Canonical parameters, as the game's "Specific" dialog writes them.
    fn params(&self) -> String;
    /// Canonical description.
    fn desc(&self) -> String;
    /// The initial position (the game's `new_game`).
    fn start(&self) -> Box<dyn Position + '_>;
    /// The circuit: a witness is accepted when every output is 0.
    fn circuit(&self) -> Result<Circuit>;
    /// A solution zkgames finds itself (games with [`Game::solves`]); `None` when it finds none.
    fn solve(&self) -> Result<Option<Box<dyn Position + '_>>> {
        Ok(None)
    }
}

/// A position of a puzzle: the game's state after some moves.
pub trait Position {
    /// Applies one MOVE or SOLVE record as the game's `execute_move` does; an illegal move
    /// is a one-line refusal (and leaves the position as it may be: the caller stops).
    fn execute_move(&mut self, mv: &str) -> Result<()>;
    /// `Ok` when the position meets the game's completion rule, else why not, in the game's
    /// terms ("tile c3 is not connected").
    fn check(&self) -> std::result::Result<(), String>;
    /// The witness of a position [`Position::check`] accepts: the solution's bits and the
    /// certificates' labels, in the circuit's input order.
    fn witness(&self) -> Result<Vec<bool>>;
    /// The position's content in a canonical form (what replays compare).
    fn state_bytes(&self) -> Vec<u8>;
}

/// A game whose position is a value of its own (`State`) beside the puzzle, with the rules
/// as functions of both: its positions are [`Play`]s, one [`Position`] adapter for all.
pub trait Rules {
    /// The game's state (what its `game_state` holds that the completion rule reads).
    type State;
    /// [`Position::execute_move`] on `state`.
    fn execute_move(&self, state: &mut Self::State, mv: &str) -> Result<()>;
    /// [`Position::check`] of `state`.
    fn check(&self, state: &Self::State) -> std::result::Result<(), String>;
    /// The witness of a `state` that [`Rules::check`] accepts ([`Play`] checks first).
    fn witness(&self, state: &Self::State) -> Result<Vec<bool>>;
    /// [`Position::state_bytes`] of `state`.
    fn state_bytes(&self, state: &Self::State) -> Vec<u8>;
}

/// A position of a game with [`Rules`]: the puzzle and the state reached.
pub struct Play<'a, R: Rules> {
    pub puzzle: &'a R,
    pub state: R::State,
}

impl<R: Rules> Position for Play<'_, R> {
    fn execute_move(&mut self, mv: &str) -> Result<()> {
        self.puzzle.execute_move(&mut self.state, mv)
    }
    fn check(&self) -> std::result::Result<(), String> {
        self.puzzle.check(&self.state)
    }
    fn witness(&self) -> Result<Vec<bool>> {
        self.check()
            .map_err(|m| Error::bad(format!("not solved: {m}")))?;
        self.puzzle.witness(&self.state)
    }
    fn state_bytes(&self) -> Vec<u8> {
        self.puzzle.state_bytes(&self.state)
    }
}

/// Whether `c` accepts `input`: every output (a violation bit) is 0.
pub fn accepts(c: &Circuit, input: &[bool]) -> bool {
    c.eval(input).iter().all(|&x| !x)
}

/// The exhaustive tests' enumeration: every input of `c` (at most 2^26), and the set of the
/// low `bits` bits (the solution's part of the witness) of those it accepts.
#[cfg(test)]
pub(crate) fn accepted_prefixes(c: &Circuit, bits: usize) -> std::collections::BTreeSet<u64> {
    let n = c.n_inputs();
    assert!(n <= 26 && bits <= n, "{n} inputs: too many to enumerate");
    (0u64..1 << n)
        .filter(|a| {
            let input: Vec<bool> = (0..n).map(|i| (a >> i) & 1 == 1).collect();
            accepts(c, &input)
        })
        .map(|a| a & ((1 << bits) - 1))
        .collect()
}

/// The game ID of a puzzle: `Game:PARAMS:DESC`.
pub fn game_id(p: &dyn Puzzle) -> String {
    format!("{}:{}:{}", p.game().name, p.params(), p.desc())
}

/// Parses a game ID `Game:PARAMS:DESC` (the game's name first, case-insensitive).
pub fn parse_game_id(id: &str) -> Result<Box<dyn Puzzle>> {
    let id = id.trim();
    if id.len() > MAX_ID_BYTES {
        return Err(Error::bad(format!(
            "the game ID has {} bytes, more than the {MAX_ID_BYTES} read",
            id.len()
        )));
    }
    let (name, rest) = id.split_once(':').ok_or_else(|| {
        Error::bad("a game ID is GAME:PARAMS:DESC (e.g. Net:5x5:17ea…), or give a save file")
    })?;
    let (params, desc) = rest.split_once(':').ok_or_else(|| {
        Error::bad(format!(
            "the game ID '{}' has no description: write GAME:PARAMS:DESC",
            zkgames_core::files::excerpt(id)
        ))
    })?;
    (game(name)?.decode)(params, desc)
}

/// Why a game refuses a record, in one line: `what` is the game's name.
pub fn bad_move(game: &str, mv: &str, why: &str) -> Error {
    Error::bad(format!(
        "illegal {game} move '{}': {why}",
        zkgames_core::files::excerpt(mv)
    ))
}

/// Parses a decimal dimension of a parameter string: digits only, at most `max`.
pub fn parse_dim<'a>(s: &'a str, what: &str, max: usize) -> Result<(usize, &'a str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return Err(Error::bad(format!("the parameters have no {what}")));
    }
    if end > 6 {
        return Err(Error::bad(format!(
            "the {what} is too large (at most {max})"
        )));
    }
    let n: usize = s[..end]
        .parse()
        .map_err(|_| Error::bad(format!("bad {what}")))?;
    if n > max {
        return Err(Error::bad(format!(
            "the {what} {n} is too large (at most {max})"
        )));
    }
    Ok((n, &s[end..]))
}

/// The smallest `b` with `2^b >= n` (at least 1): label widths of the graph certificates.
pub fn bits_for(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

/// The `w`×`h` grid of squares in reading order as a graph: per square its right then its
/// lower neighbour (the candidate edges of the grid games' connectivity certificates).
pub fn grid_graph(w: usize, h: usize) -> zkgames_mpc::circuit::graph::Graph {
    let mut edges = Vec::with_capacity(2 * w * h);
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w {
                edges.push((i, i + 1));
            }
            if y + 1 < h {
                edges.push((i, i + w));
            }
        }
    }
    zkgames_mpc::circuit::graph::Graph::new(w * h, edges)
}

/// Appends the `width` low bits of `v` (least significant first).
pub fn push_bits(w: &mut Vec<bool>, v: usize, width: usize) {
    for i in 0..width {
        w.push((v >> i) & 1 == 1);
    }
}

/// A cell's name as the puzzles' help texts write it: column letter(s), row number from 1
/// (`a1` top left).
pub fn cell_name(x: usize, y: usize) -> String {
    let mut col = String::new();
    let mut c = x;
    loop {
        col.insert(0, (b'a' + (c % 26) as u8) as char);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    format!("{col}{}", y + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names() {
        assert_eq!(cell_name(0, 0), "a1");
        assert_eq!(cell_name(2, 2), "c3");
        assert_eq!(cell_name(25, 0), "z1");
        assert_eq!(cell_name(26, 9), "aa10");
    }

    #[test]
    fn label_widths() {
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(25), 5);
        assert_eq!(bits_for(32), 5);
        assert_eq!(bits_for(33), 6);
    }

    #[test]
    fn registry_names_are_distinct() {
        for (i, g) in GAMES.iter().enumerate() {
            assert!(GAMES[..i]
                .iter()
                .all(|h| !h.name.eq_ignore_ascii_case(g.name)));
            assert!(game(g.name).is_ok());
        }
        assert!(game("Minesweeper")
            .err()
            .unwrap()
            .to_string()
            .contains("supported"));
    }
}
