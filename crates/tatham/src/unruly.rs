//! Unruly (Tatham's `unruly.c`, Binairo): fill every square black (1) or white (0) so that
//! no three squares in a row or column are the same colour and every row and column holds
//! as many of each colour; with `u`, no two rows and no two columns are the same.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[u][dD]`: width and height (even, at least 6), `u` for unique rows and
//!   columns, a difficulty letter (`t`, `e`, `n`; it only steers the generator).
//! - DESC: in reading order, `a`–`y` skip 0–24 squares and then give a white (0) square,
//!   `A`–`Y` the same with a black (1) one, `z`/`Z` skip 25 squares; the letter after the
//!   last square gives a square one past the grid (the terminator).
//! - Moves: `P<c>,<x>,<y>` with `c` one of `0`, `1`, `-` (empty) on a square that is not
//!   given; the Solve record `S` and one `0` or `1` per square in reading order.

use super::parse::{parse_num, parse_size, place};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A square's content, as the game keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    Empty,
    One,
    Zero,
}

/// A decoded Unruly puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    pub unique: bool,
    /// The given squares, reading order (`None` where the player fills in).
    pub given: Vec<Option<bool>>,
}

/// The squares, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<Square>,
}

/// OEIS A177790: the number of distinct Unruly rows of length `2n`; in unique mode the
/// game refuses a grid taller (or wider) than the rows (columns) it can hold.
const A177790: [u64; 24] = [
    1, 2, 6, 14, 34, 84, 208, 518, 1296, 3254, 8196, 20700, 52404, 132942, 337878, 860142, 2192902,
    5598144, 14308378, 36610970, 93770358, 240390602, 616787116, 1583765724,
];

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// do (strictly: nothing after the difficulty letter).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, mut rest) = parse_size(params, "Unruly", 6)?;
        let bad = || {
            Error::bad(format!(
                "Unruly parameters {:?} are not of the form WxH[u][dD]",
                super::parse::short(params)
            ))
        };
        let unique = if let Some(r) = rest.strip_prefix('u') {
            rest = r;
            true
        } else {
            false
        };
        if let Some(r) = rest.strip_prefix('d') {
            if !matches!(r, "t" | "e" | "n") {
                return Err(Error::bad(format!(
                    "Unruly parameters {:?} have an unknown difficulty (t, e or n)",
                    super::parse::short(params)
                )));
            }
        } else if !rest.is_empty() {
            return Err(bad());
        }
        if w % 2 == 1 || h % 2 == 1 {
            return Err(Error::bad(format!(
                "Unruly {w}x{h}: width and height must both be even"
            )));
        }
        if unique && (h as u64 > A177790[w / 2] || w as u64 > A177790[h / 2]) {
            return Err(Error::bad(format!(
                "Unruly {w}x{h} with unique rows and columns is impossible (too long or too tall)"
            )));
        }
        let s = w * h;
        let mut given = vec![None; s];
        let mut pos = 0usize;
        for (i, b) in desc.bytes().enumerate() {
            let (skip, square) = match b {
                b'a'..=b'y' => ((b - b'a') as usize, Some(false)),
                b'A'..=b'Y' => ((b - b'A') as usize, Some(true)),
                b'z' | b'Z' => (25, None),
                _ => {
                    return Err(Error::bad(format!(
                        "Unruly description has an unexpected character at position {}",
                        i + 1
                    )))
                }
            };
            pos += skip;
            if let Some(v) = square {
                if pos < s {
                    given[pos] = Some(v);
                }
                pos += 1;
            }
            if pos > s + 1 {
                return Err(Error::bad("Unruly description is too long for its size"));
            }
        }
        if pos < s + 1 {
            return Err(Error::bad("Unruly description is too short for its size"));
        }
        Ok(Puzzle {
            w,
            h,
            unique,
            given,
        })
    }

    /// The canonical parameters (`WxH`, `u` if unique), what the game ID names.
    pub fn params(&self) -> String {
        format!(
            "{}x{}{}",
            self.w,
            self.h,
            if self.unique { "u" } else { "" }
        )
    }

    /// The canonical description, as `new_game_desc` encodes it.
    pub fn desc(&self) -> String {
        let s = self.w * self.h;
        let mut out = String::new();
        let mut run = 0usize;
        for i in 0..=s {
            let sq = if i == s { Some(false) } else { self.given[i] };
            match sq {
                None => run += 1,
                Some(one) => {
                    let (skip, base) = if one { (b'Z', b'A') } else { (b'z', b'a') };
                    while run > 24 {
                        out.push(skip as char);
                        run -= 25;
                    }
                    out.push((base + run as u8) as char);
                    run = 0;
                }
            }
        }
        out
    }

    /// The starting position: the given squares.
    pub fn initial(&self) -> State {
        State {
            grid: self
                .given
                .iter()
                .map(|g| match g {
                    None => Square::Empty,
                    Some(true) => Square::One,
                    Some(false) => Square::Zero,
                })
                .collect(),
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let s = self.w * self.h;
        let bad = |why: &str| super::bad_move("Unruly", mv, why);
        if let Some(digits) = mv.strip_prefix('S') {
            let d = digits.as_bytes();
            if d.len() < s || !d[..s].iter().all(|&c| c == b'0' || c == b'1') {
                return Err(bad("a solve move needs one 0 or 1 per square"));
            }
            for (g, &c) in state.grid.iter_mut().zip(d) {
                *g = if c == b'1' { Square::One } else { Square::Zero };
            }
            return Ok(());
        }
        let rest = mv
            .strip_prefix('P')
            .ok_or_else(|| bad("not a P or S move"))?;
        let mut chars = rest.chars();
        let c = chars
            .next()
            .ok_or_else(|| bad("expected P, 0, 1 or -, and x,y"))?;
        let coords = chars.as_str().strip_prefix(',');
        let parsed = coords.and_then(|r| {
            let (x, r) = parse_num(r)?;
            let (y, _) = parse_num(r.strip_prefix(',')?)?;
            Some((x, y))
        });
        let (x, y) = parsed.ok_or_else(|| bad("expected P, 0, 1 or -, and x,y"))?;
        let sq = match c {
            '0' => Square::Zero,
            '1' => Square::One,
            '-' => Square::Empty,
            _ => return Err(bad("a square is 0, 1 or -")),
        };
        if x >= self.w || y >= self.h {
            return Err(bad("a square outside the grid"));
        }
        let i = y * self.w + x;
        if self.given[i].is_some() {
            return Err(bad("a given square"));
        }
        state.grid[i] = sq;
        Ok(())
    }

    /// The lines of the grid: rows (named `row N`), then columns (`column N`), as square
    /// indices.
    fn lines(&self) -> Vec<(String, Vec<usize>)> {
        let (w, h) = (self.w, self.h);
        let mut out: Vec<(String, Vec<usize>)> = (0..h)
            .map(|y| {
                (
                    format!("row {}", y + 1),
                    (0..w).map(|x| y * w + x).collect(),
                )
            })
            .collect();
        out.extend((0..w).map(|x| {
            (
                format!("column {}", place(x, 0).trim_end_matches('1')),
                (0..h).map(|y| y * w + x).collect(),
            )
        }));
        out
    }

    /// The completion check (`unruly_validate_counts` and `unruly_validate_all_rows`):
    /// every square filled, no three alike in a row or column, each line half black, and
    /// with `u` no two equal rows or columns. zkgames also refuses a given square that a
    /// Solve record changed (the game's check does not look).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        if let Some(i) = state.grid.iter().position(|&g| g == Square::Empty) {
            return Err(format!("square {} is empty", name(i)));
        }
        if let Some(i) = (0..state.grid.len())
            .find(|&i| self.given[i].is_some_and(|v| (state.grid[i] == Square::One) != v))
        {
            return Err(format!("square {} differs from the given square", name(i)));
        }
        let lines = self.lines();
        for (line, cells) in &lines {
            for t in cells.windows(3) {
                if state.grid[t[0]] == state.grid[t[1]] && state.grid[t[1]] == state.grid[t[2]] {
                    return Err(format!("three squares alike in {line} from {}", name(t[0])));
                }
            }
        }
        for (line, cells) in &lines {
            let ones = cells
                .iter()
                .filter(|&&i| state.grid[i] == Square::One)
                .count();
            if 2 * ones != cells.len() {
                return Err(format!(
                    "{line} has {ones} black squares of {}",
                    cells.len()
                ));
            }
        }
        if self.unique {
            let same = |a: &[usize], b: &[usize]| {
                a.iter()
                    .zip(b)
                    .all(|(&i, &j)| state.grid[i] == state.grid[j])
            };
            for (k, (l1, c1)) in lines.iter().enumerate() {
                for (l2, c2) in &lines[k + 1..] {
                    if c1.len() == c2.len() && l1[..3] == l2[..3] && same(c1, c2) {
                        return Err(format!("{l1} and {l2} are the same"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The squares the player fills in, reading order.
    pub fn free(&self) -> Vec<usize> {
        (0..self.given.len())
            .filter(|&i| self.given[i].is_none())
            .collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per square not given, reading order, 1 for black. Given squares are
// constants. Violations: per three consecutive squares of a row or column, `¬(a ⊕ b) ∧
// ¬(b ⊕ c)` (all alike); per line the bits of `popcount(line) ⊕ len/2`; with `u`, per
// pair of rows (of columns) `is_zero(row ⊕ row')`.

pub const GAME: Game = Game {
    name: "Unruly",
    default_params: "8x8dt",
    larger_params: "14x14de",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/unruly.sav"),
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
        let free = self.free();
        let mut b = Builder::new(free.len());
        let mut sq: Vec<Bit> = self
            .given
            .iter()
            .map(|g| Bit::Const(g == &Some(true)))
            .collect();
        for (k, &i) in free.iter().enumerate() {
            sq[i] = b.input(k);
        }
        let lines = self.lines();
        for (_, cells) in &lines {
            for t in cells.windows(3) {
                let ab = b.xor(sq[t[0]], sq[t[1]]);
                let bc = b.xor(sq[t[1]], sq[t[2]]);
                let or = b.or(ab, bc);
                let v = b.not(or);
                b.output(v);
            }
        }
        for (_, cells) in &lines {
            let bits: Vec<Bit> = cells.iter().map(|&i| sq[i]).collect();
            let width = super::bits_for(bits.len() + 1);
            let count = b.popcount(&bits, width);
            for (k, &c) in count.iter().enumerate() {
                let d = b.xor(c, Bit::Const(((bits.len() / 2) >> k) & 1 == 1));
                b.output(d);
            }
        }
        if self.unique {
            for (k, (l1, c1)) in lines.iter().enumerate() {
                for (l2, c2) in &lines[k + 1..] {
                    if c1.len() != c2.len() || l1[..3] != l2[..3] {
                        continue;
                    }
                    let x: Vec<Bit> = c1
                        .iter()
                        .zip(c2)
                        .map(|(&i, &j)| b.xor(sq[i], sq[j]))
                        .collect();
                    let z = b.is_zero(&x);
                    b.output(z);
                }
            }
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
        Ok(self
            .free()
            .iter()
            .map(|&i| state.grid[i] == Square::One)
            .collect())
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.grid.iter().map(|&g| g as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// A puzzle of `w`×`h` (below the game's 6×6 minimum, built directly) with `given`.
    fn tiny(w: usize, h: usize, unique: bool, given: &[(usize, bool)]) -> Puzzle {
        let mut p = Puzzle {
            w,
            h,
            unique,
            given: vec![None; w * h],
        };
        for &(i, v) in given {
            p.given[i] = Some(v);
        }
        p
    }

    /// Every witness of small grids: the circuit accepts exactly the fillings the game's
    /// rule accepts, and each solution's own witness.
    #[test]
    fn tiny_unruly_exhaustive() {
        for p in [
            tiny(4, 4, false, &[]),
            tiny(4, 4, true, &[]),
            tiny(4, 4, false, &[(0, true), (5, false)]),
            tiny(4, 4, true, &[(0, true)]),
            tiny(2, 4, false, &[]),
            tiny(6, 2, false, &[(1, false)]),
        ] {
            let c = p.circuit().unwrap();
            let free = p.free();
            assert_eq!(c.n_inputs(), free.len());
            let accepted = crate::accepted_prefixes(&c, free.len());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << free.len()) {
                let mut s = p.initial();
                for (k, &i) in free.iter().enumerate() {
                    s.grid[i] = if (a >> k) & 1 == 1 {
                        Square::One
                    } else {
                        Square::Zero
                    };
                }
                if p.check(&s).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play {
                        puzzle: &p,
                        state: s,
                    };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{p:?}");
            // the rules admit some fillings and refuse others, so the comparison can fail
            assert!(!truth.is_empty() && truth.len() < 1 << free.len(), "{p:?}");
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let p = Puzzle::decode("8x8dt", "DgFACACCKBBgdahAa").unwrap();
        assert_eq!(p.desc(), "DgFACACCKBBgdahAa");
        assert_eq!(p.params(), "8x8");
        assert_eq!(p.given.iter().filter(|g| g.is_some()).count(), 16);
        // one square past the grid is the terminator: a letter more is too long
        assert!(Puzzle::decode("8x8", "DgFACACCKBBgdahAaa").is_err());
        assert!(Puzzle::decode("8x8", "DgFACACCKBBgdahA").is_err());
        assert!(Puzzle::decode("8x8", "DgFACACCKBBgdah!a").is_err());
        // runs of 25 and more
        let empty = Puzzle::decode("6x6", "zl").unwrap();
        assert!(empty.given.iter().all(|g| g.is_none()));
        assert_eq!(empty.desc(), "zl");
        for bad in ["7x8", "8x8dx", "8x8d", "4x4", "8x8q", "6x20u"] {
            let e = Puzzle::decode(bad, "zzn").unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
        assert_eq!(Puzzle::decode("6x14u", "zzzj").unwrap().params(), "6x14u");
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("6x6", "Azk").unwrap();
        assert_eq!(p.given[0], Some(true));
        let mut s = p.initial();
        p.execute_move(&mut s, "P1,2,3").unwrap();
        assert_eq!(s.grid[3 * 6 + 2], Square::One);
        p.execute_move(&mut s, "P-,2,3").unwrap();
        assert_eq!(s.grid[3 * 6 + 2], Square::Empty);
        for bad in ["P1,0,0", "P2,1,1", "P1,6,0", "P1,1", "Q", "S0101", ""] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
        assert_eq!(p.check(&s).unwrap_err(), "square b1 is empty");
    }
}
