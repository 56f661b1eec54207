//! Mosaic (Tatham's `mosaic.c`): fill squares black (marked) or white (blank) so that
//! every clue counts the black squares of the 3×3 block around it (itself included, the
//! part inside the grid).
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[hN]`: width and height (at least 3), `h` and whether the generator is
//!   aggressive (it only steers the generator).
//! - DESC: in reading order `0`–`9` a clue on a square, `a`–`z` a run of 1–26 squares
//!   without one.
//! - Moves: `t<x>,<y>` cycles a square empty → black → white → empty, `T<x>,<y>` the other
//!   way; `d` or `e` and `<x>,<y>,<x0>,<y0>,<s>` (a drag) set every empty square from
//!   `(x, y)` towards `(x0, y0)` (along the row, or the column when `x = x0`; `(x0, y0)`
//!   itself excluded) to state `s` (0 empty, 1 black, 2 white); the Solve record `s` and
//!   the squares in reading order, 8 a byte, most significant bit first, 1 black, as hex.
//!
//! The game marks a clue done when every square of its block is filled in and it has its
//! number of black squares; it is solved when every clue is done. Squares outside every
//! clue's block do not matter. (After a Solve record the game marks every clue done
//! without counting; zkgames counts.)

use super::parse::{parse_num, place, run_length};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A square's content, as the game keeps it (its "solved" and "error" flags aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
}

/// A decoded Mosaic puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The clues, reading order.
    pub clues: Vec<Option<u8>>,
}

/// The squares, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<Cell>,
}

fn cell_of(n: usize) -> Option<Cell> {
    match n {
        0 => Some(Cell::Empty),
        1 => Some(Cell::Black),
        2 => Some(Cell::White),
        _ => None,
    }
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// do (strictly: nothing after `hN`).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = super::parse::parse_size(params, "Mosaic", 3)?;
        let rest = match rest.strip_prefix('h') {
            Some(r) => parse_num(r).map_or("?", |(_, r)| r),
            None => rest,
        };
        if !rest.is_empty() {
            return Err(Error::bad(format!(
                "Mosaic parameters {:?} are not of the form WxH[hN]",
                super::parse::short(params)
            )));
        }
        let clues = run_length(desc, w * h, "Mosaic", None, |b| {
            b.is_ascii_digit().then_some(Some(b - b'0'))
        })?;
        Ok(Puzzle { w, h, clues })
    }

    /// The canonical parameters, `WxH` (the game's short form).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description (runs of squares without a clue in 26s at most).
    pub fn desc(&self) -> String {
        super::parse::encode_runs(self.clues.iter().map(|c| c.map(|n| (b'0' + n) as char)))
    }

    /// The starting position: every square empty.
    pub fn initial(&self) -> State {
        State {
            grid: vec![Cell::Empty; self.clues.len()],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused (and so
    /// are move letters the game ignores).
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Mosaic", mv, why);
        let (w, h) = (self.w, self.h);
        let Some(kind) = mv.chars().next() else {
            return Err(bad("an empty move"));
        };
        let rest = &mv[kind.len_utf8()..];
        let numbers = |n: usize| -> Option<Vec<usize>> {
            let mut out = Vec::with_capacity(n);
            let mut r = rest;
            for k in 0..n {
                let (v, r2) = parse_num(r)?;
                out.push(v);
                r = if k + 1 < n { r2.strip_prefix(',')? } else { r2 };
            }
            r.is_empty().then_some(out)
        };
        match kind {
            't' | 'T' => {
                let v = numbers(2).ok_or_else(|| bad("expected x,y"))?;
                let (x, y) = (v[0], v[1]);
                if x >= w || y >= h {
                    return Err(bad("a square outside the grid"));
                }
                let steps = if kind == 't' { 1 } else { 2 };
                let g = &mut state.grid[y * w + x];
                *g = cell_of((*g as usize + steps) % 3).expect("a state");
            }
            'd' | 'e' => {
                let v = numbers(5).ok_or_else(|| bad("expected x,y,x0,y0,state"))?;
                let (x, y, x0, y0) = (v[0] as i64, v[1] as i64, v[2] as i64, v[3] as i64);
                let to = cell_of(v[4]).ok_or_else(|| bad("a state is 0, 1 or 2"))?;
                let (dx, dy, len) = if x0 == x && y0 != y {
                    (0, (y0 - y).signum(), (y0 - y).abs())
                } else {
                    ((x0 - x).signum(), 0, (x0 - x).abs())
                };
                let mut grid = state.grid.clone();
                for k in 0..len {
                    let (cx, cy) = (x + dx * k, y + dy * k);
                    if cx >= w as i64 || cy >= h as i64 {
                        return Err(bad("a square outside the grid"));
                    }
                    let g = &mut grid[cy as usize * w + cx as usize];
                    if *g == Cell::Empty {
                        *g = to;
                    }
                }
                state.grid = grid;
            }
            's' => {
                let hex = rest.as_bytes();
                if hex.len() % 2 == 1 || !hex.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
                {
                    return Err(bad("a solve move is pairs of hex digits"));
                }
                let n = state.grid.len();
                for (k, pair) in hex.chunks(2).enumerate() {
                    let byte = u8::from_str_radix(std::str::from_utf8(pair).unwrap_or("x"), 16)
                        .map_err(|_| bad("a solve move is pairs of hex digits"))?;
                    for bit in 0..8 {
                        let i = 8 * k + bit;
                        if i < n {
                            state.grid[i] = if byte & (0x80 >> bit) != 0 {
                                Cell::Black
                            } else {
                                Cell::White
                            };
                        }
                    }
                }
            }
            _ => return Err(bad("not a t, T, d, e or s move")),
        }
        Ok(())
    }

    /// The squares of the 3×3 block around `i` inside the grid, reading order.
    pub fn block(&self, i: usize) -> Vec<usize> {
        let (w, h) = (self.w as i64, self.h as i64);
        let (x, y) = ((i % self.w) as i64, (i / self.w) as i64);
        let mut out = Vec::with_capacity(9);
        for yy in y - 1..=y + 1 {
            for xx in x - 1..=x + 1 {
                if xx >= 0 && yy >= 0 && xx < w && yy < h {
                    out.push((yy * w + xx) as usize);
                }
            }
        }
        out
    }

    /// The completion rule: every clue done (its block filled in, its number of black
    /// squares), clues in reading order.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        for (i, c) in self.clues.iter().enumerate() {
            let Some(n) = *c else { continue };
            let block = self.block(i);
            if let Some(&j) = block.iter().find(|&&j| state.grid[j] == Cell::Empty) {
                return Err(format!(
                    "square {} around the clue at {} is empty",
                    name(j),
                    name(i)
                ));
            }
            let has = block
                .iter()
                .filter(|&&j| state.grid[j] == Cell::Black)
                .count();
            if has != n as usize {
                return Err(format!(
                    "the clue at {} wants {n} black squares around it, has {has}",
                    name(i)
                ));
            }
        }
        Ok(())
    }

    /// The squares in some clue's block, reading order: one witness bit each.
    pub fn counted(&self) -> Vec<usize> {
        let mut seen = vec![false; self.clues.len()];
        for (i, c) in self.clues.iter().enumerate() {
            if c.is_some() {
                for j in self.block(i) {
                    seen[j] = true;
                }
            }
        }
        (0..seen.len()).filter(|&i| seen[i]).collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per square in some clue's block, reading order, 1 black. Violations:
// per clue in reading order, the 4 bits of `popcount(block) ⊕ clue`.

pub const GAME: Game = Game {
    name: "Mosaic",
    default_params: "10x10",
    larger_params: "15x15",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/mosaic.sav"),
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
        let counted = self.counted();
        let mut b = Builder::new(counted.len());
        let mut sq = vec![Bit::Const(false); self.clues.len()];
        for (k, &i) in counted.iter().enumerate() {
            sq[i] = b.input(k);
        }
        for (i, c) in self.clues.iter().enumerate() {
            let Some(n) = *c else { continue };
            let bits: Vec<Bit> = self.block(i).iter().map(|&j| sq[j]).collect();
            let count = b.popcount(&bits, 4);
            for (k, &c) in count.iter().enumerate() {
                let d = b.xor(c, Bit::Const((n >> k) & 1 == 1));
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
        Ok(self
            .counted()
            .iter()
            .map(|&i| state.grid[i] == Cell::Black)
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

    /// Every witness of small grids: the circuit accepts exactly the fillings (of the
    /// squares in a clue's block, black or white) the game's rule accepts.
    #[test]
    fn tiny_mosaic_exhaustive() {
        let mut solvable = 0;
        for (params, desc) in [
            ("3x3", "d5d"),
            ("3x3", "4g2"),
            ("3x3", "a3a6a9c"),
            ("4x4", "1e4b6e2"),
            ("4x4", "b3m"),
            ("4x3", "2c5c0c"),
            ("4x4", "0o"),
            ("3x3", "i"),
            ("5x4", "a4b5f7b8a3c"),
        ] {
            let p = Puzzle::decode(params, desc).unwrap();
            assert_eq!(p.desc(), desc);
            let c = p.circuit().unwrap();
            let counted = p.counted();
            assert_eq!(c.n_inputs(), counted.len());
            let accepted = crate::accepted_prefixes(&c, counted.len());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << counted.len()) {
                let mut s = p.initial();
                for (k, &i) in counted.iter().enumerate() {
                    s.grid[i] = if (a >> k) & 1 == 1 {
                        Cell::Black
                    } else {
                        Cell::White
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
            assert_eq!(accepted, truth, "{params}:{desc}");
            if counted.is_empty() {
                continue;
            }
            assert!(truth.len() < 1 << counted.len(), "{params}:{desc}");
            if !truth.is_empty() {
                solvable += 1;
            }
        }
        assert!(solvable >= 5, "{solvable}");
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "b4a3e3b756a97b4b7766b4b5a7a57b3d54a3a5b7a5d55866564b7a6a6a5c75a5c5d4b3c";
        let p = Puzzle::decode("10x10", d).unwrap();
        assert_eq!(p.desc(), d);
        assert_eq!(p.params(), "10x10");
        assert_eq!(p.clues[2], Some(4));
        assert_eq!(Puzzle::decode("10x10h0", d).unwrap().params(), "10x10");
        let e = Puzzle::decode("6x6", "zj").unwrap();
        assert_eq!(e.desc(), "zj");
        for (params, desc) in [
            ("10x10", &d[..d.len() - 1]),
            ("10x10", &format!("{d}a")),
            ("10x10", &format!("{d}1")),
            ("10x10", &d.replace('7', " ")),
            ("10x10", &d.replace('7', "A")),
            ("2x10", "t"),
            ("10x10h", d),
            ("10x10x", d),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3x3", "d5d").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "t0,0").unwrap();
        assert_eq!(s.grid[0], Cell::Black);
        p.execute_move(&mut s, "t0,0").unwrap();
        assert_eq!(s.grid[0], Cell::White);
        p.execute_move(&mut s, "T0,0").unwrap();
        assert_eq!(s.grid[0], Cell::Black);
        p.execute_move(&mut s, "T0,0").unwrap();
        assert_eq!(s.grid[0], Cell::Empty);
        // a drag from (2,1) towards (0,1): (2,1) and (1,1), not (0,1); filled squares kept
        p.execute_move(&mut s, "t1,1").unwrap();
        p.execute_move(&mut s, "d2,1,0,1,2").unwrap();
        assert_eq!(&s.grid[3..6], &[Cell::Empty, Cell::Black, Cell::White]);
        p.execute_move(&mut s, "e0,0,0,2,1").unwrap();
        assert_eq!(
            (s.grid[0], s.grid[3], s.grid[6]),
            (Cell::Black, Cell::Black, Cell::Empty)
        );
        for bad in [
            "",
            "t3,0",
            "t0",
            "t0,0,",
            "x",
            "d0,0,5,0,1",
            "d0,0,2,0,3",
            "s0",
            "s0g",
            "t-1,0",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad:?}");
        }
        assert!(p.check(&s).unwrap_err().contains("empty"));
        // the solve record: 9 squares in two bytes
        p.execute_move(&mut s, "s5500").unwrap();
        assert_eq!(s.grid[1], Cell::Black);
        assert_eq!(s.grid[0], Cell::White);
        assert_eq!(
            p.check(&s).unwrap_err(),
            "the clue at b2 wants 5 black squares around it, has 4"
        );
        p.execute_move(&mut s, "s5580").unwrap();
        assert_eq!(p.check(&s), Ok(()));
    }
}
