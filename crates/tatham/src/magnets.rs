//! Magnets (Tatham's `magnets.c`): the grid is tiled with dominoes; make each one a magnet
//! (one `+` end and one `−` end) or blank, so that every row and column has the number of
//! `+` and of `−` squares its clues give (where they give one) and no two `+` or two `−`
//! squares are orthogonally next to each other.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[dD][S]`: width and height (at least 2; at least 3 on one side, 5 for
//!   Tricky), a difficulty letter (`e`, `t`), `S` for stripped clues (they only steer the
//!   generator).
//! - DESC: four groups, each ended by `,`: the `+` count of each column (left to right),
//!   of each row (top to bottom), the `−` count of each column, of each row; a count is `0`–`9`,
//!   `a`–`z` (10–35), `A`–`Z` (36–61), or `.` for no clue. Then per square in reading order
//!   `L`/`R` the left/right end of a domino, `T`/`B` its top/bottom end, `*` a square of no
//!   domino (always blank); `,` there is ignored. The two ends must name each other.
//! - Moves: items separated by `;`: `+<x>,<y>` / `-<x>,<y>` make that end of the domino `+`
//!   / `−` (the other end the opposite), `.<x>,<y>` blank, ` <x>,<y>` or `?<x>,<y>` clear it
//!   (`?` also marks "not blank"), on a domino; `D<x>,<y>` ticks the clue at `(x, y)` off
//!   (coordinates −1 or the side: outside the grid); `S` only records that Solve was used.
//!   The Solve record is `S;` and an item per square of every domino.

use super::parse::place;
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A square's content, as the game keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pole {
    Neutral,
    Plus,
    Minus,
}

impl Pole {
    fn opposite(self) -> Pole {
        match self {
            Pole::Neutral => Pole::Neutral,
            Pole::Plus => Pole::Minus,
            Pole::Minus => Pole::Plus,
        }
    }
}

/// A decoded Magnets puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// Per square, reading order, the other end of its domino (itself: no domino).
    pub partner: Vec<usize>,
    /// Per column, the `+` and `−` counts (`None`: no clue).
    pub col: Vec<[Option<u8>; 2]>,
    /// Per row, the `+` and `−` counts.
    pub row: Vec<[Option<u8>; 2]>,
}

/// The squares, reading order: pole, and whether the domino is set (filled in, blank
/// included); the "not blank" marks and the ticked clues (display only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<Pole>,
    pub set: Vec<bool>,
    pub not_blank: Vec<bool>,
    pub done: Vec<bool>,
}

/// A count's character, as the game's `n2c` writes it.
fn count_char(n: Option<u8>) -> char {
    match n {
        None => '.',
        Some(n @ 0..=9) => (b'0' + n) as char,
        Some(n @ 10..=35) => (b'a' + n - 10) as char,
        Some(n) => (b'A' + n - 36) as char,
    }
}

/// Parses a possibly negative decimal at the start of `s` (the clue coordinates of `D`).
fn parse_signed(s: &str) -> Option<(i64, &str)> {
    let (neg, r) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (n, r) = super::parse::parse_num(r)?;
    Some((if neg { -(n as i64) } else { n as i64 }, r))
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` (for the size) and
    /// `validate_desc` do (strictly: nothing after `S`, nothing after the grid), and refuses
    /// a domino end that points off the grid (where the game would read past its array).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = super::parse::parse_size(params, "Magnets", 2)?;
        let (tricky, rest) = match rest {
            r if r.starts_with("de") => (false, &r[2..]),
            r if r.starts_with("dt") => (true, &r[2..]),
            r => (false, r),
        };
        if !matches!(rest, "" | "S") {
            return Err(Error::bad(format!(
                "Magnets parameters {:?} are not of the form WxH[de|dt][S]",
                super::parse::short(params)
            )));
        }
        if tricky && w < 5 && h < 5 {
            return Err(Error::bad(
                "Magnets: either width or height must be at least five for Tricky",
            ));
        }
        if w < 3 && h < 3 {
            return Err(Error::bad(
                "Magnets: either width or height must be at least three",
            ));
        }
        let n = w * h;
        let bytes = desc.as_bytes();
        let mut at = 0usize;
        let too_short = || Error::bad("Magnets description is too short");
        let unexpected = || Error::bad("Magnets description has unexpected characters");
        let mut groups: Vec<Vec<Option<u8>>> = Vec::with_capacity(4);
        for len in [w, h, w, h] {
            let mut g = Vec::with_capacity(len);
            for _ in 0..len {
                let c = *bytes.get(at).ok_or_else(too_short)?;
                at += 1;
                g.push(match c {
                    b'.' => None,
                    b'0'..=b'9' => Some(c - b'0'),
                    b'a'..=b'z' => Some(c - b'a' + 10),
                    b'A'..=b'Z' => Some(c - b'A' + 36),
                    _ => return Err(unexpected()),
                });
            }
            match bytes.get(at) {
                Some(b',') => at += 1,
                None => return Err(too_short()),
                Some(_) => return Err(unexpected()),
            }
            groups.push(g);
        }
        let col: Vec<[Option<u8>; 2]> = (0..w).map(|x| [groups[0][x], groups[2][x]]).collect();
        let row: Vec<[Option<u8>; 2]> = (0..h).map(|y| [groups[1][y], groups[3][y]]).collect();
        for (what, counts, len) in [("Column", &col, h), ("Row", &row, w)] {
            for c in counts.iter() {
                if let [Some(p), Some(m)] = *c {
                    if p as usize + m as usize > len {
                        return Err(Error::bad(format!("Magnets: {what} counts inconsistent")));
                    }
                }
            }
        }
        let mut partner = Vec::with_capacity(n);
        let mut i = 0usize;
        while partner.len() < n {
            let c = *bytes.get(at).ok_or_else(too_short)?;
            at += 1;
            let other = match c {
                b',' => continue,
                b'L' => i as i64 + 1,
                b'R' => i as i64 - 1,
                b'T' => (i + w) as i64,
                b'B' => i as i64 - w as i64,
                b'*' => i as i64,
                _ => return Err(unexpected()),
            };
            if other < 0 || other as usize >= n {
                return Err(Error::bad("Magnets: domino descriptions inconsistent"));
            }
            partner.push(other as usize);
            i += 1;
        }
        if at != bytes.len() {
            return Err(Error::bad(
                "Magnets description has more after its grid than expected",
            ));
        }
        if (0..n).any(|i| partner[partner[i]] != i) {
            return Err(Error::bad("Magnets: domino descriptions inconsistent"));
        }
        Ok(Puzzle {
            w,
            h,
            partner,
            col,
            row,
        })
    }

    /// The canonical parameters, `WxH` (the game's short form).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description, as `generate_desc` writes it.
    pub fn desc(&self) -> String {
        let mut out = String::new();
        for (counts, k) in [
            (&self.col, 0),
            (&self.row, 0),
            (&self.col, 1),
            (&self.row, 1),
        ] {
            out.extend(counts.iter().map(|c| count_char(c[k])));
            out.push(',');
        }
        let w = self.w;
        for (i, &o) in self.partner.iter().enumerate() {
            out.push(if o == i {
                '*'
            } else if o == i + 1 {
                'L'
            } else if o + 1 == i {
                'R'
            } else if o == i + w {
                'T'
            } else {
                'B'
            });
        }
        out
    }

    /// The starting position: every domino clear; squares of no domino blank and set.
    pub fn initial(&self) -> State {
        let n = self.partner.len();
        State {
            grid: vec![Pole::Neutral; n],
            set: (0..n).map(|i| self.partner[i] == i).collect(),
            not_blank: vec![false; n],
            done: vec![false; 2 * (self.w + self.h)],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Magnets", mv, why);
        let (w, h) = (self.w as i64, self.h as i64);
        if mv.is_empty() {
            return Err(bad("an empty move"));
        }
        let mut rest = mv;
        while !rest.is_empty() {
            let c = rest.as_bytes()[0];
            rest = &rest[1..];
            match c {
                b'S' => {}
                b'+' | b'-' | b'.' | b' ' | b'?' => {
                    let (x, y, r) =
                        super::parse::parse_xy(rest).ok_or_else(|| bad("expected x,y"))?;
                    if x >= self.w || y >= self.h {
                        return Err(bad("a square outside the grid"));
                    }
                    let i = y * self.w + x;
                    let j = self.partner[i];
                    if i == j {
                        return Err(bad("a square of no domino"));
                    }
                    let pole = match c {
                        b'+' => Pole::Plus,
                        b'-' => Pole::Minus,
                        _ => Pole::Neutral,
                    };
                    let set = matches!(c, b'+' | b'-' | b'.');
                    state.grid[i] = pole;
                    state.grid[j] = pole.opposite();
                    state.set[i] = set;
                    state.set[j] = set;
                    state.not_blank[i] = c == b'?';
                    state.not_blank[j] = c == b'?';
                    rest = r;
                }
                b'D' => {
                    let parsed = parse_signed(rest).and_then(|(x, r)| {
                        let (y, r) = parse_signed(r.strip_prefix(',')?)?;
                        Some((x, y, r))
                    });
                    let (x, y, r) = parsed.ok_or_else(|| bad("expected x,y after D"))?;
                    let k = if y == -1 && (0..w).contains(&x) {
                        x
                    } else if x == w && (0..h).contains(&y) {
                        w + y
                    } else if y == h && (0..w).contains(&x) {
                        2 * w + h - x - 1
                    } else if x == -1 && (0..h).contains(&y) {
                        2 * (w + h) - y - 1
                    } else {
                        return Err(bad("not a clue's place"));
                    };
                    state.done[k as usize] ^= true;
                    rest = r;
                }
                _ => return Err(bad("not an S, +, -, ., ' ', ? or D item")),
            }
            if let Some(r) = rest.strip_prefix(';') {
                rest = r;
            } else if !rest.is_empty() {
                return Err(bad("items are separated by ';'"));
            }
        }
        Ok(())
    }

    /// The lines with their clues: columns then rows, each with its squares.
    fn lines(&self) -> Vec<(String, Vec<usize>, [Option<u8>; 2])> {
        let (w, h) = (self.w, self.h);
        let mut out: Vec<_> = (0..w)
            .map(|x| {
                (
                    format!("column {}", place(x, 0).trim_end_matches('1')),
                    (0..h).map(|y| y * w + x).collect::<Vec<_>>(),
                    self.col[x],
                )
            })
            .collect();
        out.extend((0..h).map(|y| {
            (
                format!("row {}", y + 1),
                (0..w).map(|x| y * w + x).collect(),
                self.row[y],
            )
        }));
        out
    }

    /// The completion check (`check_completion` returning 1): the `+` then the `−` counts
    /// of the clued lines, every domino set, no two alike poles orthogonally adjacent.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        for (k, pole, sign) in [(0, Pole::Plus, '+'), (1, Pole::Minus, '−')] {
            for (line, cells, clue) in self.lines() {
                if let Some(want) = clue[k] {
                    let has = cells.iter().filter(|&&i| state.grid[i] == pole).count();
                    if has != want as usize {
                        return Err(format!("{line} wants {want} {sign}, has {has}"));
                    }
                }
            }
        }
        if let Some(i) = (0..state.grid.len()).find(|&i| !state.set[i]) {
            return Err(format!("the magnet at {} is not filled in", name(i)));
        }
        for i in 0..state.grid.len() {
            let (x, y) = (i % w, i / w);
            if state.grid[i] == Pole::Neutral {
                continue;
            }
            let right = (x + 1 < w).then_some(i + 1);
            let down = (y + 1 < self.h).then_some(i + w);
            for j in [right, down].into_iter().flatten() {
                if state.grid[j] == state.grid[i] {
                    return Err(format!(
                        "squares {} and {} are alike poles side by side",
                        name(i),
                        name(j)
                    ));
                }
            }
        }
        Ok(())
    }

    /// The dominoes, by their first square in reading order: `(first, second)`.
    pub fn dominoes(&self) -> Vec<(usize, usize)> {
        (0..self.partner.len())
            .filter(|&i| self.partner[i] > i)
            .map(|i| (i, self.partner[i]))
            .collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: per domino, by its first square in reading order, two bits: `m` (a magnet) and
// `p` (its first square is `+`; free when `m` is 0). First square `+` is `m ∧ p`, `−` is
// `m ⊕ (m ∧ p)`; the second square the opposite; squares of no domino neither. Violations:
// per clued line and sign (the `+` counts, columns then rows, then the `−` counts), the bits
// of `popcount ⊕ clue` (a constant 1 when the clue exceeds the line); per pair of orthogonally adjacent squares of different dominoes,
// reading order of the first and right before down, `plus ∧ plus'` and `minus ∧ minus'`.

pub const GAME: Game = Game {
    name: "Magnets",
    default_params: "6x5dtS",
    larger_params: "10x9dt",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/magnets.sav"),
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
        let (w, h) = (self.w, self.h);
        let dominoes = self.dominoes();
        let mut b = Builder::new(2 * dominoes.len());
        let n = w * h;
        let mut plus = vec![Bit::Const(false); n];
        let mut minus = vec![Bit::Const(false); n];
        for (k, &(i, j)) in dominoes.iter().enumerate() {
            let (m, p) = (b.input(2 * k), b.input(2 * k + 1));
            let mp = b.and(m, p);
            let mn = b.xor(m, mp);
            (plus[i], minus[i], plus[j], minus[j]) = (mp, mn, mn, mp);
        }
        for k in 0..2 {
            let poles = if k == 0 { &plus } else { &minus };
            for (_, cells, clue) in self.lines() {
                let Some(want) = clue[k] else { continue };
                if want as usize > cells.len() {
                    b.output(Bit::Const(true));
                    continue;
                }
                let bits: Vec<Bit> = cells.iter().map(|&i| poles[i]).collect();
                let width = super::bits_for(bits.len() + 1);
                let count = b.popcount(&bits, width);
                for (t, &c) in count.iter().enumerate() {
                    let d = b.xor(c, Bit::Const((want >> t) & 1 == 1));
                    b.output(d);
                }
            }
        }
        for i in 0..n {
            let (x, y) = (i % w, i / w);
            let right = (x + 1 < w).then_some(i + 1);
            let down = (y + 1 < h).then_some(i + w);
            for j in [right, down].into_iter().flatten() {
                if self.partner[i] == j {
                    continue;
                }
                let a = b.and(plus[i], plus[j]);
                b.output(a);
                let c = b.and(minus[i], minus[j]);
                b.output(c);
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
        let mut out = Vec::new();
        for (i, _) in self.dominoes() {
            out.push(state.grid[i] != Pole::Neutral);
            out.push(state.grid[i] == Pole::Plus);
        }
        Ok(out)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        (0..state.grid.len())
            .map(|i| {
                state.grid[i] as u8 | (state.set[i] as u8) << 2 | (state.not_blank[i] as u8) << 3
            })
            .chain(state.done.iter().map(|&d| d as u8))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of small grids: the circuit accepts exactly the witnesses whose
    /// dominoes, filled in, the game's rule accepts, and each solution's own witness.
    #[test]
    fn tiny_magnets_exhaustive() {
        let mut solvable = 0;
        for (params, desc) in [
            ("3x2", "1.1,.1,.1.,1.,LRTLRB"),
            ("3x2", "...,..,...,..,LRTLRB"),
            ("3x3", "1.1,.1.,1.1,...,TLRBLRLR*"),
            ("3x3", "111,1.1,..1,1..,TLRBLRLR*"),
            ("4x3", "1.1.,1.1,.1.1,.1.,LRLRTLRTBLRB"),
            ("4x3", "2..1,..2,....,...,TTLRBBTTLRBB"),
            ("4x4", "1111,....,....,....,LRLRLRLRLRLRLRLR"),
            ("4x4", "2.2.,22..,....,....,TTTTBBBBTTTTBBBB"),
            ("3x4", "...,....,...,....,TLRBLRLRTLRB"),
        ] {
            let p = Puzzle::decode(params, desc).unwrap();
            assert_eq!(p.desc(), desc);
            let c = p.circuit().unwrap();
            let doms = p.dominoes();
            assert_eq!(c.n_inputs(), 2 * doms.len());
            let accepted = crate::accepted_prefixes(&c, c.n_inputs());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << c.n_inputs()) {
                let mut s = p.initial();
                for (k, &(i, j)) in doms.iter().enumerate() {
                    let (m, pl) = ((a >> (2 * k)) & 1 == 1, (a >> (2 * k + 1)) & 1 == 1);
                    let pole = match (m, pl) {
                        (false, _) => Pole::Neutral,
                        (true, true) => Pole::Plus,
                        (true, false) => Pole::Minus,
                    };
                    s.grid[i] = pole;
                    s.grid[j] = pole.opposite();
                    s.set[i] = true;
                    s.set[j] = true;
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
            assert_eq!(accepted, truth, "{params}:{desc}");
            assert!(truth.len() < 1 << c.n_inputs(), "{params}:{desc}");
            if !truth.is_empty() {
                solvable += 1;
            }
        }
        assert!(solvable >= 6, "{solvable}");
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBB";
        let p = Puzzle::decode("6x5dtS", d).unwrap();
        assert_eq!(p.desc(), d);
        assert_eq!(p.params(), "6x5");
        assert_eq!(p.col[2], [Some(2), None]);
        assert_eq!(p.row[0], [Some(2), None]);
        assert_eq!(p.col[1], [None, Some(3)]);
        assert_eq!(p.partner[0], 6);
        assert_eq!(p.partner[2], 3);
        // commas inside the grid are ignored; letters are counts above 9
        let q = Puzzle::decode(
            "6x5",
            "..2..3,21.2.,.3.0..,...2.,TTLRLR,BBTTLRTTBBLRBBTTTTLRBBBB",
        )
        .unwrap();
        assert_eq!(q.desc(), d);
        assert_eq!(
            Puzzle::decode(
                "12x3",
                "a...........,...,1...........,...,LRLRLRLRLRLRLRLRLRLRLRLRLRLRLRLRLRLR"
            )
            .unwrap_err()
            .to_string(),
            "Magnets: Column counts inconsistent"
        );
        for (params, desc) in [
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBB",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBBL",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBTB",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBT",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.,RTLRLRBBTTLRTTBBLRBBTTTTLRBBBB",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBB",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.!TTLRLRBBTTLRTTBBLRBBTTTTLRBBBB",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...7.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBB",
            ),
            (
                "6x5",
                "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBX",
            ),
            (
                "6x5dx",
                "..2..3,21.2.,.3.0..,...2.,TTLRLRBBTTLRTTBBLRBBTTTTLRBBBB",
            ),
            ("4x4dt", "....,....,....,....,LRLRLRLRLRLRLRLR"),
            ("2x2", "..,..,..,..,LRLR"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3x3", "21.,.1.,1..,.2.,TLRBLRLR*").unwrap();
        let mut s = p.initial();
        assert!(s.set[8]);
        p.execute_move(&mut s, "+0,0;.1,0;+1,1;+0,2;D-1,0;D3,2;D1,3;D0,-1")
            .unwrap();
        assert_eq!((s.grid[0], s.grid[3]), (Pole::Plus, Pole::Minus));
        assert_eq!((s.grid[4], s.grid[5]), (Pole::Plus, Pole::Minus));
        assert_eq!(s.done.iter().filter(|&&d| d).count(), 4);
        assert_eq!(p.check(&s), Ok(()));
        p.execute_move(&mut s, "?1,0").unwrap();
        assert!(s.not_blank[1] && !s.set[2]);
        assert_eq!(
            p.check(&s).unwrap_err(),
            "the magnet at b1 is not filled in"
        );
        p.execute_move(&mut s, "S; 1,0;.2,0;").unwrap();
        assert!(!s.not_blank[1] && s.set[2]);
        for bad in [
            "", "+2,2", "+3,0", "+0", "Q", "S+0,0", "+0,0.1,0", "D1,1", "D-1,-1", "+0,0;;",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad:?}");
        }
        p.execute_move(&mut s, "-0,0").unwrap();
        assert_eq!(p.check(&s).unwrap_err(), "row 2 wants 1 +, has 2");
    }
}
