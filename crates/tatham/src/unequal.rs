//! Unequal (Tatham's `unequal.c`, Futoshiki; and its Adjacent mode): fill an `o`×`o` grid
//! with the numbers 1 to `o`, each once in every row and column, so that every `>` sign
//! between two squares points at the smaller number; in Adjacent mode a bar joins two
//! squares exactly when their numbers differ by one.
//!
//! Formats, as the collection writes them:
//! - PARAMS `O[a][dD]`: the order (3 to 32), `a` for Adjacent, a difficulty letter (`t`,
//!   `e`, `k`, `x`, `r`; it only steers the generator, but Adjacent below order 5 refuses
//!   `k` and above, as the game does).
//! - DESC: one entry per square in reading order, each followed by `,`: the given number
//!   (0 for none) and its flags `U`, `R`, `D`, `L`: in Unequal mode the square is greater
//!   than its neighbour that way; in Adjacent mode the two differ by one (and the neighbour
//!   carries the opposite flag). `a`–`z` before an entry skip 1–26 empty squares.
//! - Moves: `R<x>,<y>,<n>` puts `n` (0 empties), `P<x>,<y>,<n>` toggles the pencil mark
//!   `n` (`P…,0` empties as `R` does), `M` fills in every pencil mark, the Solve record `S`
//!   and one character per square (`1`–`9` below order 10; from order 10, `0`–`9` are 1–10
//!   and `A`–`Z` 11–36). The hint move `H` (the game's solver picks the square) is refused.

use super::parse::{parse_num, place};
use super::{latin, Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// The game's largest order (its `validate_params`).
pub const MAX_ORDER: usize = 32;

/// The flags' bits and their neighbours' offsets, in the game's order U, R, D, L.
const DIRS: [(u8, i64, i64, char); 4] = [
    (1, 0, -1, 'U'),
    (2, 1, 0, 'R'),
    (4, 0, 1, 'D'),
    (8, -1, 0, 'L'),
];

/// A decoded Unequal puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub o: usize,
    pub adjacent: bool,
    /// The given numbers, reading order; 0 where the player fills in.
    pub given: Vec<u8>,
    /// Per square its flags (bits U 1, R 2, D 4, L 8).
    pub flags: Vec<u8>,
}

/// The squares (0 empty) and the pencil marks (bit `n − 1` for mark `n`), reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<u8>,
    pub pencil: Vec<u64>,
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// (`load_game`) do; strictly: an entry starts with a number.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let short = super::parse::short;
        let digits = params.bytes().take_while(u8::is_ascii_digit).count();
        let bad = || {
            Error::bad(format!(
                "Unequal parameters {:?} are not of the form O[a][dD]",
                short(params)
            ))
        };
        if digits == 0 || digits > 2 {
            return Err(bad());
        }
        let o: usize = params[..digits].parse().map_err(|_| bad())?;
        let mut rest = &params[digits..];
        let adjacent = if let Some(r) = rest.strip_prefix('a') {
            rest = r;
            true
        } else {
            false
        };
        let diff = match rest {
            "" => 'e',
            r => match r.strip_prefix('d') {
                Some(d @ ("t" | "e" | "k" | "x" | "r")) => d.as_bytes()[0] as char,
                Some(_) => {
                    return Err(Error::bad(format!(
                        "Unequal parameters {:?} have an unknown difficulty (t, e, k, x or r)",
                        short(params)
                    )))
                }
                None => return Err(bad()),
            },
        };
        if !(3..=MAX_ORDER).contains(&o) {
            return Err(Error::bad(format!(
                "Unequal order {o} is outside 3 to {MAX_ORDER}"
            )));
        }
        if o < 5 && adjacent && matches!(diff, 'k' | 'x' | 'r') {
            return Err(Error::bad(
                "Unequal: order must be at least 5 for Adjacent puzzles of this difficulty",
            ));
        }
        let a = o * o;
        let mut given = vec![0u8; a];
        let mut flags = vec![0u8; a];
        let b = desc.as_bytes();
        let (mut i, mut p) = (0usize, 0usize);
        while p < b.len() {
            while p < b.len() && b[p].is_ascii_lowercase() {
                i += (b[p] - b'a') as usize + 1;
                p += 1;
            }
            if i >= a {
                return Err(Error::bad(
                    "Unequal description has too much data for its grid",
                ));
            }
            let n = b[p..].iter().take_while(|c| c.is_ascii_digit()).count();
            let num = std::str::from_utf8(&b[p..p + n])
                .ok()
                .filter(|_| (1..=2).contains(&n))
                .and_then(|s| s.parse::<usize>().ok())
                .filter(|&v| v <= o)
                .ok_or_else(|| {
                    Error::bad(format!(
                        "Unequal description: square {} needs a number from 0 to {o}",
                        place(i % o, i / o)
                    ))
                })?;
            given[i] = num as u8;
            p += n;
            while p < b.len() {
                match DIRS.iter().find(|d| d.3 as u8 == b[p]) {
                    Some(d) => flags[i] |= d.0,
                    None => break,
                }
                p += 1;
            }
            i += 1;
            if i < a && b.get(p) != Some(&b',') {
                return Err(Error::bad(format!(
                    "Unequal description: a comma is missing after square {}",
                    place((i - 1) % o, (i - 1) / o)
                )));
            }
            if b.get(p) == Some(&b',') {
                p += 1;
            }
        }
        if i < a {
            return Err(Error::bad(
                "Unequal description has too little data for its grid",
            ));
        }
        let p = Puzzle {
            o,
            adjacent,
            given,
            flags,
        };
        for i in 0..a {
            for d in DIRS {
                if p.flags[i] & d.0 == 0 {
                    continue;
                }
                let j = p.neighbour(i, d).ok_or_else(|| {
                    Error::bad(format!(
                        "Unequal description: a flag of square {} points off the grid",
                        place(i % o, i / o)
                    ))
                })?;
                let back = p.flags[j] & opposite(d.0) != 0;
                if back != adjacent {
                    return Err(Error::bad(format!(
                        "Unequal description: the flags of squares {} and {} contradict each other",
                        place(i % o, i / o),
                        place(j % o, j / o)
                    )));
                }
            }
        }
        Ok(p)
    }

    /// The neighbour of square `i` in direction `d`, if on the grid.
    fn neighbour(&self, i: usize, d: (u8, i64, i64, char)) -> Option<usize> {
        let o = self.o as i64;
        let (x, y) = ((i as i64 % o) + d.1, (i as i64 / o) + d.2);
        ((0..o).contains(&x) && (0..o).contains(&y)).then_some((y * o + x) as usize)
    }

    /// The canonical parameters (`O`, `a` for Adjacent), what the game ID names.
    pub fn params(&self) -> String {
        format!("{}{}", self.o, if self.adjacent { "a" } else { "" })
    }

    /// The canonical description, as `new_game_desc` encodes it.
    pub fn desc(&self) -> String {
        let mut out = String::new();
        for (g, f) in self.given.iter().zip(&self.flags) {
            out.push_str(&g.to_string());
            for d in DIRS {
                if f & d.0 != 0 {
                    out.push(d.3);
                }
            }
            out.push(',');
        }
        out
    }

    /// The starting position: the given numbers.
    pub fn initial(&self) -> State {
        State {
            grid: self.given.clone(),
            pencil: vec![0; self.given.len()],
        }
    }

    /// A Solve record's character as the game's `c2n` reads it (`None` if not a number).
    fn digit(&self, c: u8) -> Option<u8> {
        let n = if self.o < 10 {
            c.is_ascii_digit().then(|| c - b'0')?
        } else if c.is_ascii_digit() {
            c - b'0' + 1
        } else if c.is_ascii_alphabetic() {
            c.to_ascii_uppercase() - b'A' + 11
        } else {
            return None;
        };
        (1..=self.o as u8).contains(&n).then_some(n)
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let o = self.o;
        let bad = |why: &str| super::bad_move("Unequal", mv, why);
        let b = mv.as_bytes();
        match b.first() {
            Some(b'S') => {
                let d = &b[1..];
                let v: Option<Vec<u8>> = d.iter().map(|&c| self.digit(c)).collect();
                match v {
                    Some(v) if v.len() == o * o => {
                        state.grid = v;
                        Ok(())
                    }
                    _ => Err(bad(&format!(
                        "a solve move needs one number from 1 to {o} per square"
                    ))),
                }
            }
            Some(&k @ (b'R' | b'P')) => {
                let (x, y, n) = (|| {
                    let (x, r) = parse_num(&mv[1..])?;
                    let (y, r) = parse_num(r.strip_prefix(',')?)?;
                    let (n, _) = parse_num(r.strip_prefix(',')?)?;
                    Some((x, y, n))
                })()
                .ok_or_else(|| bad("expected x,y,n"))?;
                if x >= o || y >= o || n > o {
                    return Err(bad("a square outside the grid or a number above the order"));
                }
                let i = y * o + x;
                if k == b'P' && n > 0 {
                    state.pencil[i] ^= 1 << (n - 1);
                } else {
                    state.grid[i] = n as u8;
                    state.pencil[i] = 0;
                }
                Ok(())
            }
            Some(b'M') => {
                state.pencil.fill(u64::MAX >> (64 - o));
                Ok(())
            }
            Some(b'H') => Err(bad(
                "the hint button's move is not replayed (the game's solver picks it): solve without hints",
            )),
            _ => Err(bad("not an R, P, M or S move")),
        }
    }

    /// The completion check (`check_complete` finding it complete and correct): every
    /// square filled, each number once in every row and column, every sign (every bar, and
    /// in Adjacent mode no difference of one without a bar) met. zkgames also refuses a
    /// given number that a move changed (the game's check does not look).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let o = self.o;
        let name = |i: usize| place(i % o, i / o);
        if let Some(i) = state.grid.iter().position(|&g| g == 0) {
            return Err(format!("square {} is empty", name(i)));
        }
        if let Some(i) =
            (0..state.grid.len()).find(|&i| self.given[i] != 0 && state.grid[i] != self.given[i])
        {
            return Err(format!("square {} differs from the given number", name(i)));
        }
        latin::check(&state.grid, o, "times the number")?;
        for (i, j, flagged) in self.pairs() {
            let (a, b) = (state.grid[i], state.grid[j]);
            if self.adjacent {
                let one = a.abs_diff(b) == 1;
                if flagged && !one {
                    return Err(format!(
                        "squares {} and {} have a bar but differ by {}",
                        name(i),
                        name(j),
                        a.abs_diff(b)
                    ));
                }
                if !flagged && one {
                    return Err(format!(
                        "squares {} and {} differ by one without a bar",
                        name(i),
                        name(j)
                    ));
                }
            } else if flagged && a <= b {
                return Err(format!(
                    "square {} ({a}) should be greater than square {} ({b})",
                    name(i),
                    name(j)
                ));
            }
        }
        Ok(())
    }

    /// The constraints: in Unequal mode `(greater, smaller, true)` per sign, in reading
    /// order of the greater square and in the order U, R, D, L; in Adjacent mode every pair
    /// of neighbours `(left or top, right or bottom, bar)`, per square in reading order its
    /// right pair then its lower pair.
    pub fn pairs(&self) -> Vec<(usize, usize, bool)> {
        let mut out = Vec::new();
        for i in 0..self.given.len() {
            if self.adjacent {
                for d in [DIRS[1], DIRS[2]] {
                    if let Some(j) = self.neighbour(i, d) {
                        out.push((i, j, self.flags[i] & d.0 != 0));
                    }
                }
            } else {
                for d in DIRS {
                    if self.flags[i] & d.0 != 0 {
                        if let Some(j) = self.neighbour(i, d) {
                            out.push((i, j, true));
                        }
                    }
                }
            }
        }
        out
    }

    /// The squares the player fills in, reading order.
    pub fn free(&self) -> Vec<usize> {
        (0..self.given.len())
            .filter(|&i| self.given[i] == 0)
            .collect()
    }
}

/// The flag pointing back (U ↔ D, R ↔ L).
fn opposite(f: u8) -> u8 {
    match f {
        1 => 4,
        4 => 1,
        2 => 8,
        _ => 2,
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness and Latin constraints as `latin` (per free square its number minus one, one-hot).
// Then per pair of `pairs()`, with `a`, `b` the two one-hot vectors: Unequal, `¬XOR_v (a[v]
// ∧ lt_b[v])` where `lt_b[v] = XOR_{u<v} b[u]` (linear: `b` is below `v + 1`), i.e. `a > b`
// fails; Adjacent, `d = XOR_v (a[v] ∧ (b[v−1] ⊕ b[v+1]))` (they differ by one) and the
// violation `¬d` for a bar, `d` without.

pub const GAME: Game = Game {
    name: "Unequal",
    default_params: "4de",
    larger_params: "7dk",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/unequal.sav"),
};

fn decode_boxed(params: &str, desc: &str) -> Result<Box<dyn super::Puzzle>> {
    Ok(Box::new(Puzzle::decode(params, desc)?))
}

impl super::Puzzle for Puzzle {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        Puzzle::params(self)
    }
    fn desc(&self) -> String {
        Puzzle::desc(self)
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(super::Play {
            puzzle: self,
            state: self.initial(),
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let o = self.o;
        let mut b = Builder::new(self.free().len() * latin::bits(o));
        let onehot = latin::one_hot(&mut b, &self.given, o);
        latin::constraints(&mut b, &onehot, &self.given, o);
        for (i, j, flagged) in self.pairs() {
            let (a, c) = (&onehot[i], &onehot[j]);
            let mut rel = Bit::Const(false);
            let mut below = Bit::Const(false);
            for v in 0..o {
                let other = if self.adjacent {
                    let lo = if v > 0 { c[v - 1] } else { Bit::Const(false) };
                    let hi = if v + 1 < o {
                        c[v + 1]
                    } else {
                        Bit::Const(false)
                    };
                    b.xor(lo, hi)
                } else {
                    below
                };
                let t = b.and(a[v], other);
                rel = b.xor(rel, t);
                below = b.xor(below, c[v]);
            }
            let v = if flagged { b.not(rel) } else { rel };
            b.output(v);
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
        let bits = latin::bits(self.o);
        let mut out = Vec::new();
        for i in self.free() {
            super::push_bits(&mut out, state.grid[i] as usize - 1, bits);
        }
        Ok(out)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.grid.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of small grids, both modes: the circuit accepts exactly the fillings
    /// the game's rule accepts (an index past the numbers is an empty square), and each
    /// solution's own witness.
    #[test]
    fn tiny_unequal_exhaustive() {
        // a Latin square of order 4 with six of its numbers given (ten free squares)
        let l4: [u8; 16] = [1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1];
        let given4: Vec<u8> = (0..16)
            .map(|i| {
                if [0, 3, 5, 10, 12, 15].contains(&i) {
                    l4[i]
                } else {
                    0
                }
            })
            .collect();
        let unequal4 = Puzzle {
            o: 4,
            adjacent: false,
            given: given4.clone(),
            // b1 > b2 (2 > 1), c2 > d2 (4 > 3), b4 > c4 (3 > 2)
            flags: (0..16)
                .map(|i| match i {
                    1 => 4,
                    6 => 2,
                    13 => 2,
                    _ => 0,
                })
                .collect(),
        };
        // every bar of the square's differences of one
        let mut flags4 = vec![0u8; 16];
        for i in 0..16 {
            if i % 4 < 3 && l4[i].abs_diff(l4[i + 1]) == 1 {
                flags4[i] |= 2;
                flags4[i + 1] |= 8;
            }
            if i < 12 && l4[i].abs_diff(l4[i + 4]) == 1 {
                flags4[i] |= 4;
                flags4[i + 4] |= 1;
            }
        }
        let adjacent4 = Puzzle {
            o: 4,
            adjacent: true,
            given: given4,
            flags: flags4,
        };
        let cases = [
            // no sign: every Latin square of order 3
            Puzzle::decode("3", "0,0,0,0,0,0,0,0,0,").unwrap(),
            Puzzle::decode("3", "0R,0,0D,0,0,0,0U,0,0L,").unwrap(),
            Puzzle::decode("3", "0RD,0,0,0,2,0,0,0,0,").unwrap(),
            // Adjacent: bars between 1-2 and 2-3 only
            Puzzle::decode("3a", "0R,0L,0,0,0,0,0,0,0,").unwrap(),
            Puzzle::decode("3a", "0RD,0LD,0D,0U,0U,0U,0,0,0,").unwrap(),
            unequal4,
            adjacent4,
        ];
        let mut solved = 0;
        for p in &cases {
            let c = p.circuit().unwrap();
            let free = p.free();
            let bits = latin::bits(p.o);
            let n = free.len() * bits;
            assert_eq!(c.n_inputs(), n);
            let accepted = crate::accepted_prefixes(&c, n);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << n) {
                let mut s = p.initial();
                for (k, &i) in free.iter().enumerate() {
                    let v = ((a >> (k * bits)) & ((1 << bits) - 1)) as usize;
                    s.grid[i] = if v < p.o { v as u8 + 1 } else { 0 };
                }
                if p.check(&s).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play {
                        puzzle: p,
                        state: s,
                    };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{p:?}");
            assert!(truth.len() < 1 << n, "{p:?}");
            solved += usize::from(!truth.is_empty());
        }
        // some have solutions (the 4x4 ones their square), so the comparison can fail
        assert!(solved >= 4, "{solved}");
        for p in &cases[5..] {
            let s = State {
                grid: l4.to_vec(),
                pencil: vec![0; 16],
            };
            assert_eq!(p.check(&s), Ok(()));
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "0D,0,0,0D,0,0,0L,0,0,0,0,0U,3,0,0L,0,";
        let p = Puzzle::decode("4de", d).unwrap();
        assert_eq!(p.desc(), d);
        assert_eq!(p.params(), "4");
        assert_eq!(p.given[12], 3);
        let d = "0RD,0RL,0DL,0R,0DL,0URD,0L,0UR,0L,0UD,0U,0,0RD,0RDL,0UL,1D,0RD,0URL,0UL,0,0UR,0UL,0R,0L,0,";
        let p = Puzzle::decode("5adk", d).unwrap();
        assert_eq!((p.desc().as_str(), p.params().as_str()), (d, "5a"));
        // runs and a missing last comma are read as the game reads them
        assert_eq!(
            Puzzle::decode("3", "h2").unwrap().desc(),
            "0,0,0,0,0,0,0,0,2,"
        );
        for (params, desc) in [
            ("4", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,5,"),
            ("4", "0U,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4", "0R,0L,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4a", "0R,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4", "0X,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4", "0,0 0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4", "R,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4adk", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("33", ""),
            ("2", "0,0,0,0,"),
            ("4dq", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
            ("4x", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("4", "0D,0,0,0D,0,0,0L,0,0,0,0,0U,3,0,0L,0,").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "P0,0,3").unwrap();
        assert_eq!(s.pencil[0], 1 << 2);
        p.execute_move(&mut s, "R0,0,4").unwrap();
        assert_eq!((s.grid[0], s.pencil[0]), (4, 0));
        p.execute_move(&mut s, "M").unwrap();
        assert_eq!(s.pencil[5], 0b1111);
        for bad in [
            "R4,0,1",
            "R0,0,5",
            "R0,0",
            "H",
            "Q",
            "S421323411432312",
            "S42132341143231245",
            "S4213234114323125",
            "",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
        assert_eq!(p.check(&s).unwrap_err(), "square b1 is empty");
        p.execute_move(&mut s, "S4213234114323124").unwrap();
        assert_eq!(p.check(&s), Ok(()));
        // order 10 and above: 0-9 are 1-10, A-Z from 11
        let q = Puzzle {
            o: 12,
            adjacent: false,
            given: vec![0; 144],
            flags: vec![0; 144],
        };
        assert_eq!(
            (q.digit(b'0'), q.digit(b'9'), q.digit(b'B'), q.digit(b'C')),
            (Some(1), Some(10), Some(12), None)
        );
    }
}
