//! Towers (Tatham's `towers.c`, Skyscrapers): fill a `w`×`w` grid with towers of heights
//! 1 to `w`, each height once in every row and column, so that each clue outside the grid
//! counts the towers seen from there (a tower hides every lower one behind it).
//!
//! Formats, as the collection writes them:
//! - PARAMS `W[dD]`: the side (3 to 9), a difficulty letter (`e`, `h`, `x`, `u`; it only
//!   steers the generator).
//! - DESC: `4w` clues separated by `/` (empty for no clue; 1 to `w`): first the `w` above
//!   the columns left to right, then the `w` below them, then the `w` left of the rows top to
//!   bottom, then the `w` right of them; then optionally `,` and the given towers in reading
//!   order, `a`–`z` a run of 1–26 empty squares, a digit a tower, `_` a separator.
//! - Moves: `R<x>,<y>,<n>` puts tower `n` (0 empties the square), `P<x>,<y>,<n>` toggles
//!   the pencil mark `n` (`P…,0` empties the square as `R` does), on a square not given;
//!   `M` fills in every pencil mark, `D<x>,<y>` marks a clue done (no effect on the grid);
//!   the Solve record `S` and one digit per square in reading order.

use super::parse::{parse_num, place};
use super::{latin, Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// The game's largest side (its `validate_params`).
pub const MAX_W: usize = 9;

/// A decoded Towers puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    /// The `4w` clues in the game's order (above, below, left, right); 0 for none.
    pub clues: Vec<u8>,
    /// The given towers, reading order; 0 where the player fills in.
    pub given: Vec<u8>,
}

/// The squares (0 empty) and the pencil marks (bit `n` for mark `n`), reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<u8>,
    pub pencil: Vec<u16>,
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// do (strictly: nothing after the difficulty letter, nothing after the grid).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let short = super::parse::short;
        let digits = params.bytes().take_while(u8::is_ascii_digit).count();
        let bad = || {
            Error::bad(format!(
                "Towers parameters {:?} are not of the form W[dD]",
                short(params)
            ))
        };
        if digits == 0 || digits > 2 {
            return Err(bad());
        }
        let w: usize = params[..digits].parse().map_err(|_| bad())?;
        match &params[digits..] {
            "" | "de" | "dh" | "dx" | "du" => {}
            r if r.starts_with('d') => {
                return Err(Error::bad(format!(
                    "Towers parameters {:?} have an unknown difficulty (e, h, x or u)",
                    short(params)
                )))
            }
            _ => return Err(bad()),
        }
        if !(3..=MAX_W).contains(&w) {
            return Err(Error::bad(format!(
                "Towers grid size {w} is outside 3 to {MAX_W}"
            )));
        }
        let (clue_part, grid_part) = match desc.split_once(',') {
            Some((c, g)) => (c, Some(g)),
            None => (desc, None),
        };
        let parts: Vec<&str> = clue_part.split('/').collect();
        if parts.len() != 4 * w {
            return Err(Error::bad(format!(
                "Towers description has {} clues, a {w}x{w} grid has {}",
                parts.len().min(10_000),
                4 * w
            )));
        }
        let mut clues = Vec::with_capacity(4 * w);
        for (i, c) in parts.iter().enumerate() {
            if c.is_empty() {
                clues.push(0);
                continue;
            }
            match parse_num(c) {
                Some((n, "")) if (1..=w).contains(&n) => clues.push(n as u8),
                _ => {
                    return Err(Error::bad(format!(
                        "Towers clue {} is not a number from 1 to {w}",
                        i + 1
                    )))
                }
            }
        }
        let a = w * w;
        let mut given = vec![0u8; a];
        if let Some(g) = grid_part {
            let b = g.as_bytes();
            let mut pos = 0usize;
            let mut i = 0;
            while i < b.len() {
                let c = b[i];
                i += 1;
                match c {
                    b'a'..=b'z' => pos += (c - b'a') as usize + 1,
                    b'_' => {}
                    b'1'..=b'9' => {
                        // the game reads the whole number: a second digit is out of range
                        if i < b.len() && b[i].is_ascii_digit() || (c - b'0') as usize > w {
                            return Err(Error::bad(
                                "Towers description has an out-of-range number in the grid",
                            ));
                        }
                        if pos < a {
                            given[pos] = c - b'0';
                        }
                        pos += 1;
                    }
                    _ => {
                        return Err(Error::bad(format!(
                            "Towers description has an unexpected character at position {}",
                            clue_part.len() + 1 + i
                        )))
                    }
                }
                if pos > a {
                    return Err(Error::bad("Towers description has too much grid data"));
                }
            }
            if pos < a {
                return Err(Error::bad("Towers description has too little grid data"));
            }
        }
        Ok(Puzzle { w, clues, given })
    }

    /// The canonical parameters (`W`), what the game ID names.
    pub fn params(&self) -> String {
        self.w.to_string()
    }

    /// The canonical description, as `new_game_desc` encodes it.
    pub fn desc(&self) -> String {
        let mut out = self
            .clues
            .iter()
            .map(|&c| if c == 0 { String::new() } else { c.to_string() })
            .collect::<Vec<_>>()
            .join("/");
        if self.given.iter().all(|&g| g == 0) {
            return out;
        }
        out.push(',');
        let mut run = 0usize;
        for i in 0..=self.given.len() {
            let n = self.given.get(i).copied();
            if n == Some(0) {
                run += 1;
                continue;
            }
            if run > 0 {
                while run > 0 {
                    let r = run.min(26);
                    out.push((b'a' + r as u8 - 1) as char);
                    run -= r;
                }
            } else if i > 0 && n.is_some() {
                out.push('_');
            }
            if let Some(n) = n {
                out.push((b'0' + n) as char);
            }
        }
        out
    }

    /// The starting position: the given towers.
    pub fn initial(&self) -> State {
        State {
            grid: self.given.clone(),
            pencil: vec![0; self.given.len()],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let (w, a) = (self.w, self.w * self.w);
        let bad = |why: &str| super::bad_move("Towers", mv, why);
        let b = mv.as_bytes();
        match b.first() {
            Some(b'S') => {
                let d = &b[1..];
                if d.len() != a || !d.iter().all(|&c| c >= b'1' && c <= b'0' + w as u8) {
                    return Err(bad(&format!(
                        "a solve move needs one digit from 1 to {w} per square"
                    )));
                }
                for (i, &c) in d.iter().enumerate() {
                    state.grid[i] = c - b'0';
                    state.pencil[i] = 0;
                }
                Ok(())
            }
            Some(&k @ (b'R' | b'P')) => {
                let nums = three_numbers(&mv[1..]).ok_or_else(|| bad("expected x,y,n"))?;
                let (x, y, n) = nums;
                if x >= w || y >= w || n > w {
                    return Err(bad("a square outside the grid or a height above the size"));
                }
                let i = y * w + x;
                if self.given[i] != 0 {
                    return Err(bad("a given square"));
                }
                if k == b'P' && n > 0 {
                    state.pencil[i] ^= 1 << n;
                } else {
                    state.grid[i] = n as u8;
                    state.pencil[i] = 0;
                }
                Ok(())
            }
            Some(b'M') => {
                for i in 0..a {
                    if state.grid[i] == 0 {
                        state.pencil[i] = ((1u16 << (w + 1)) - 1) & !1;
                    }
                }
                Ok(())
            }
            Some(b'D') => {
                let (x, y) = clue_xy(&mv[1..]).ok_or_else(|| bad("expected x,y"))?;
                let wi = w as i64;
                let side = |c: i64| c == -1 || c == wi;
                let inside = |c: i64| (0..wi).contains(&c);
                if (side(x) && inside(y)) || (side(y) && inside(x)) {
                    Ok(())
                } else {
                    Err(bad("not a clue's place"))
                }
            }
            _ => Err(bad("not an R, P, M, D or S move")),
        }
    }

    /// The squares clue `i` looks along, nearest first (the game's `STARTSTEP`).
    pub fn line_of_clue(&self, i: usize) -> Vec<usize> {
        let w = self.w;
        let k = i % w;
        (0..w)
            .map(|j| match i / w {
                0 => j * w + k,
                1 => (w - 1 - j) * w + k,
                2 => k * w + j,
                _ => k * w + (w - 1 - j),
            })
            .collect()
    }

    /// Where clue `i` stands, in words.
    fn clue_name(&self, i: usize) -> String {
        let k = i % self.w;
        let col = || latin::column(k);
        match i / self.w {
            0 => format!("above column {}", col()),
            1 => format!("below column {}", col()),
            2 => format!("left of row {}", k + 1),
            _ => format!("right of row {}", k + 1),
        }
    }

    /// The towers seen along `line` (a tower higher than every one before it).
    fn seen(grid: &[u8], line: &[usize]) -> usize {
        let mut best = 0;
        let mut n = 0;
        for &i in line {
            if grid[i] > best {
                best = grid[i];
                n += 1;
            }
        }
        n
    }

    /// The completion check (`check_errors` finding nothing): every square filled, every
    /// height once in each row and column, each clue sees its number of towers. zkgames
    /// also refuses a given tower that a Solve record changed (the game's check does not
    /// look).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        if let Some(i) = state.grid.iter().position(|&g| g == 0) {
            return Err(format!("square {} is empty", name(i)));
        }
        if let Some(i) =
            (0..state.grid.len()).find(|&i| self.given[i] != 0 && state.grid[i] != self.given[i])
        {
            return Err(format!("square {} differs from the given tower", name(i)));
        }
        super::latin::check(&state.grid, w, "towers of height")?;
        for (i, &c) in self.clues.iter().enumerate() {
            let n = Self::seen(&state.grid, &self.line_of_clue(i));
            if c != 0 && n != c as usize {
                return Err(format!(
                    "the clue {c} {} sees {n} towers",
                    self.clue_name(i)
                ));
            }
        }
        Ok(())
    }

    /// The squares the player fills in, reading order.
    pub fn free(&self) -> Vec<usize> {
        (0..self.given.len())
            .filter(|&i| self.given[i] == 0)
            .collect()
    }
}

/// `x,y,n` as the game's `sscanf("%d,%d,%d")` reads them (plain digits here).
fn three_numbers(s: &str) -> Option<(usize, usize, usize)> {
    let (x, r) = parse_num(s)?;
    let (y, r) = parse_num(r.strip_prefix(',')?)?;
    let (n, _) = parse_num(r.strip_prefix(',')?)?;
    Some((x, y, n))
}

/// `x,y` of a clue's place, either possibly `-1`.
fn clue_xy(s: &str) -> Option<(i64, i64)> {
    let (x, r) = signed(s)?;
    let (y, _) = signed(r.strip_prefix(',')?)?;
    Some((x, y))
}

/// A decimal number with an optional `-`.
fn signed(s: &str) -> Option<(i64, &str)> {
    match s.strip_prefix('-') {
        Some(r) => parse_num(r).map(|(n, r)| (-(n as i64), r)),
        None => parse_num(s).map(|(n, r)| (n as i64, r)),
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: per square not given, reading order, its height minus one in index_bits(w) bits,
// decoded one-hot (an index ≥ w decodes to no height). Given towers are constants. Per row
// then per column, and per height: none given → ¬OR of the free squares' bits; one given →
// each free square's bit; two given → the constant 1. Per clue in the game's order, along
// its line: `ge[c][v]` = XOR of c's one-hot bits for heights ≥ v+1 (linear); the running
// maximum `M_j[v] = M_{j−1}[v] ∨ ge[c_{j−1}][v]`; square j is seen when
// `XOR_v onehot[c_j][v] ∧ ¬M_j[v+1]`; violation bits `popcount(seen) ⊕ clue`.

pub const GAME: Game = Game {
    name: "Towers",
    default_params: "5de",
    larger_params: "8dh",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/towers.sav"),
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
        let w = self.w;
        let free = self.free();
        let mut b = Builder::new(free.len() * latin::bits(w));
        let onehot = latin::one_hot(&mut b, &self.given, w);
        latin::constraints(&mut b, &onehot, &self.given, w);
        // ge[c][v]: square c's height is at least v + 1 (one-hot, so an XOR)
        let ge: Vec<Vec<Bit>> = onehot
            .iter()
            .map(|h| {
                let mut out = vec![Bit::Const(false); w + 1];
                for v in (0..w).rev() {
                    out[v] = b.xor(out[v + 1], h[v]);
                }
                out
            })
            .collect();
        for (i, &clue) in self.clues.iter().enumerate() {
            if clue == 0 {
                continue;
            }
            let line = self.line_of_clue(i);
            // max_ge[v]: some square before this one has height at least v + 1
            let mut max_ge = vec![Bit::Const(false); w + 1];
            let mut seen = Vec::with_capacity(w);
            for (j, &c) in line.iter().enumerate() {
                if j > 0 {
                    let prev = line[j - 1];
                    for (v, m) in max_ge.iter_mut().enumerate().take(w) {
                        *m = b.or(*m, ge[prev][v]);
                    }
                }
                let mut s = Bit::Const(false);
                for v in 0..w {
                    let hidden = b.and(onehot[c][v], max_ge[v + 1]);
                    let t = b.xor(onehot[c][v], hidden);
                    s = b.xor(s, t);
                }
                seen.push(s);
            }
            let width = super::bits_for(w + 1);
            let count = b.popcount(&seen, width);
            for (k, &c) in count.iter().enumerate() {
                let d = b.xor(c, Bit::Const(((clue as usize) >> k) & 1 == 1));
                b.output(d);
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
        let bits = latin::bits(self.w);
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

    /// The clues of a full grid, every one of them (the generator's first step).
    fn all_clues(w: usize, grid: &[u8]) -> Vec<u8> {
        let p = Puzzle {
            w,
            clues: vec![0; 4 * w],
            given: vec![0; w * w],
        };
        (0..4 * w)
            .map(|i| Puzzle::seen(grid, &p.line_of_clue(i)) as u8)
            .collect()
    }

    /// Every witness of small grids: the circuit accepts exactly the fillings the game's
    /// rule accepts (an index past the heights is an empty square), and each solution's own
    /// witness.
    #[test]
    fn tiny_towers_exhaustive() {
        let g3 = [1, 3, 2, 3, 2, 1, 2, 1, 3];
        let c3 = all_clues(3, &g3);
        let g4 = [4, 3, 2, 1, 2, 4, 1, 3, 1, 2, 3, 4, 3, 1, 4, 2];
        let c4 = all_clues(4, &g4);
        let some = |c: &[u8], keep: &[usize]| -> Vec<u8> {
            (0..c.len())
                .map(|i| if keep.contains(&i) { c[i] } else { 0 })
                .collect()
        };
        let cases = [
            // no clue at all: every Latin square of side 3
            Puzzle {
                w: 3,
                clues: vec![0; 12],
                given: vec![0; 9],
            },
            Puzzle {
                w: 3,
                clues: c3.clone(),
                given: vec![0; 9],
            },
            Puzzle {
                w: 3,
                clues: some(&c3, &[0, 5, 7]),
                given: vec![0; 9],
            },
            Puzzle {
                w: 3,
                clues: some(&c3, &[2]),
                given: vec![0, 0, 0, 0, 2, 0, 0, 0, 0],
            },
            Puzzle {
                w: 4,
                clues: some(&c4, &[1, 6, 9, 14]),
                given: vec![4, 0, 0, 1, 0, 4, 1, 0, 0, 0, 3, 0, 3, 0, 0, 2],
            },
            Puzzle {
                w: 4,
                clues: c4.clone(),
                given: vec![4, 3, 0, 0, 2, 0, 0, 3, 0, 2, 0, 4, 0, 0, 4, 0],
            },
        ];
        for p in &cases {
            let c = p.circuit().unwrap();
            let free = p.free();
            let bits = latin::bits(p.w);
            let n = free.len() * bits;
            assert_eq!(c.n_inputs(), n);
            let accepted = crate::accepted_prefixes(&c, n);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << n) {
                let mut s = p.initial();
                for (k, &i) in free.iter().enumerate() {
                    let v = ((a >> (k * bits)) & ((1 << bits) - 1)) as usize;
                    s.grid[i] = if v < p.w { v as u8 + 1 } else { 0 };
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
            assert!(!truth.is_empty() && truth.len() < 1 << n, "{p:?}");
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "///1/3//4//2/4/2//2/3////3/3//3/2//,p3s";
        let p = Puzzle::decode("6dh", d).unwrap();
        assert_eq!(p.desc(), d);
        assert_eq!(p.params(), "6");
        assert_eq!(p.given.iter().filter(|&&g| g != 0).count(), 1);
        assert_eq!(p.given[16], 3);
        let d =
            "3/3/////3/2/3/4//1/4/2/5///2/3/2///2/1//4///4//4/2//4/2/,q3_3_6d2e1l5f1_6j2c4a5g5_4c";
        assert_eq!(Puzzle::decode("9du", d).unwrap().desc(), d);
        let full = "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1";
        assert_eq!(Puzzle::decode("5de", full).unwrap().desc(), full);
        // an all-empty grid part is dropped in the canonical form
        assert_eq!(
            Puzzle::decode("5", &format!("{full},y")).unwrap().desc(),
            full
        );
        for (params, desc) in [
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1/"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/6"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/0"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1,x"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1,y1"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1,x6"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1,x12"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1,x!"),
            ("5", "2/2/1/2/3/3/3/4/2/1/2/2/1/3/4/3/4/2/2/1x"),
            ("10", ""),
            ("2", "1/1/1/1/1/1/1/1"),
            ("5dq", full),
            ("5d", full),
            ("5x5", full),
            ("", full),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3", "2/1/2/2/3/1/2/1/2/2/3/1,d2d").unwrap();
        assert_eq!(p.given[4], 2);
        let mut s = p.initial();
        p.execute_move(&mut s, "P0,0,3").unwrap();
        assert_eq!(s.pencil[0], 1 << 3);
        p.execute_move(&mut s, "R0,0,1").unwrap();
        assert_eq!((s.grid[0], s.pencil[0]), (1, 0));
        p.execute_move(&mut s, "P0,0,0").unwrap();
        assert_eq!(s.grid[0], 0);
        p.execute_move(&mut s, "M").unwrap();
        assert_eq!(s.pencil[0], 0b1110);
        p.execute_move(&mut s, "D-1,2").unwrap();
        p.execute_move(&mut s, "D1,3").unwrap();
        for bad in [
            "R1,1,1",
            "R3,0,1",
            "R0,0,4",
            "R0,0",
            "Q",
            "S13232121",
            "S1323212130",
            "S132321214",
            "D0,0",
            "D-1,-1",
            "D3,3",
            "",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
        assert_eq!(p.check(&s).unwrap_err(), "square a1 is empty");
        p.execute_move(&mut s, "S132321213").unwrap();
        assert_eq!(p.check(&s), Ok(()));
        p.execute_move(&mut s, "R0,0,3").unwrap();
        p.execute_move(&mut s, "R2,0,1").unwrap();
        assert_eq!(
            p.check(&s).unwrap_err(),
            "row 1 has two towers of height 3 (a1 and b1)"
        );
    }
}
