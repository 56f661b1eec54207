//! Light Up (Tatham's `lightup.c`, Akari): place lights on white squares so that every
//! white square is lit (a light lights its own square and every square it sees along its
//! row and column up to a black square or the edge), no light is lit by another light, and
//! every numbered black square has exactly its number of lights on its four neighbours.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[bB][sS][dD]`: width and height (at least 2), the percentage of black
//!   squares, the symmetry and the difficulty (they only steer the generator; a save file's
//!   CPARAMS and a game ID are checked, like the game does, for the size alone).
//! - DESC: in reading order `a`–`z` a run of 1–26 white squares, `B` a black square, `0`–`4`
//!   a black square with that number.
//! - Moves: items separated by `;`: `L<x>,<y>` toggles a light (and removes a mark),
//!   `I<x>,<y>` toggles a mark (and removes a light), on a white square; `S` only records
//!   that Solve was used. The Solve record is `S` followed by the `L` and `I` items that
//!   turn the current position into the solution.

use super::parse::{parse_xy, place, run_length};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A square of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    White,
    /// A black square, with its number if it has one.
    Black(Option<u8>),
}

/// A decoded Light Up puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// Reading order.
    pub grid: Vec<Square>,
}

/// The player's marks on the white squares, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub light: Vec<bool>,
    /// The "no light here" marks (the game's `F_IMPOSSIBLE`); the completion check ignores them.
    pub mark: Vec<bool>,
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` (for the size) and
    /// `validate_desc` do (strictly: nothing after the difficulty).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = super::parse::parse_size(params, "Light Up", 2)?;
        let bad = || {
            Error::bad(format!(
                "Light Up parameters {:?} are not of the form WxH[bB][sS][dD]",
                super::parse::short(params)
            ))
        };
        let mut s = rest;
        for key in ['b', 's'] {
            if let Some(r) = s.strip_prefix(key) {
                s = super::parse::parse_num(r).ok_or_else(bad)?.1;
            }
        }
        // `r` is the game's old spelling of the hardest difficulty
        if let Some(r) = s.strip_prefix('r') {
            s = r;
        }
        if let Some(r) = s.strip_prefix('d') {
            s = super::parse::parse_num(r).ok_or_else(bad)?.1;
        }
        if !s.is_empty() {
            return Err(bad());
        }
        let grid = run_length(desc, w * h, "Light Up", Square::White, |b| match b {
            b'0'..=b'4' => Some(Square::Black(Some(b - b'0'))),
            b'B' => Some(Square::Black(None)),
            _ => None,
        })?;
        Ok(Puzzle { w, h, grid })
    }

    /// The canonical parameters, `WxH` (what the game's short form writes).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description, as `new_game_desc` writes it.
    pub fn desc(&self) -> String {
        super::parse::encode_runs(self.grid.iter().map(|sq| match sq {
            Square::White => None,
            Square::Black(None) => Some('B'),
            Square::Black(Some(n)) => Some((b'0' + n) as char),
        }))
    }

    /// The starting position: no lights, no marks.
    pub fn initial(&self) -> State {
        let n = self.grid.len();
        State {
            light: vec![false; n],
            mark: vec![false; n],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Light Up", mv, why);
        if mv.is_empty() {
            return Err(bad("an empty move"));
        }
        let mut rest = mv;
        while !rest.is_empty() {
            let c = rest.as_bytes()[0];
            rest = &rest[1..];
            match c {
                b'S' => {}
                b'L' | b'I' => {
                    let (x, y, r) =
                        parse_xy(rest).ok_or_else(|| bad("expected x,y after L or I"))?;
                    if x >= self.w || y >= self.h {
                        return Err(bad("a square outside the grid"));
                    }
                    let i = y * self.w + x;
                    if self.grid[i] != Square::White {
                        return Err(bad("a black square"));
                    }
                    if c == b'L' {
                        state.mark[i] = false;
                        state.light[i] = !state.light[i];
                    } else {
                        state.light[i] = false;
                        state.mark[i] = !state.mark[i];
                    }
                    rest = r;
                }
                _ => return Err(bad("not an S, L or I item")),
            }
            if let Some(r) = rest.strip_prefix(';') {
                rest = r;
            } else if !rest.is_empty() {
                return Err(bad("items are separated by ';'"));
            }
        }
        Ok(())
    }

    /// The maximal runs of white squares: the rows' (left to right, top to bottom), then
    /// the columns' (top to bottom, left to right). A light lights exactly the squares of
    /// its row run and its column run.
    pub fn segments(&self) -> Vec<Vec<usize>> {
        let (w, h) = (self.w, self.h);
        let mut out = Vec::new();
        let lines = (0..h)
            .map(|y| (0..w).map(|x| y * w + x).collect::<Vec<_>>())
            .chain((0..w).map(|x| (0..h).map(|y| y * w + x).collect()));
        for line in lines {
            let mut run = Vec::new();
            for i in line {
                if self.grid[i] == Square::White {
                    run.push(i);
                } else if !run.is_empty() {
                    out.push(std::mem::take(&mut run));
                }
            }
            if !run.is_empty() {
                out.push(run);
            }
        }
        out
    }

    /// The squares orthogonally next to `i`, in the order left, right, up, down.
    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (w, h) = (self.w, self.h);
        let (x, y) = (i % w, i / w);
        let mut out = Vec::new();
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < w {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - w);
        }
        if y + 1 < h {
            out.push(i + w);
        }
        out
    }

    /// How many lights light each square (0 on black squares), as the game's `set_light`
    /// counts them: a light counts on its own square and along the four rays from it up to
    /// a black square or the edge.
    fn lit(&self, state: &State) -> Vec<usize> {
        let (w, h) = (self.w as isize, self.h as isize);
        let mut lit = vec![0; self.grid.len()];
        for i in (0..self.grid.len()).filter(|&i| state.light[i]) {
            lit[i] += 1;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut x, mut y) = ((i % self.w) as isize + dx, (i / self.w) as isize + dy);
                while x >= 0 && y >= 0 && x < w && y < h {
                    let j = (y * w + x) as usize;
                    if self.grid[j] != Square::White {
                        break;
                    }
                    lit[j] += 1;
                    x += dx;
                    y += dy;
                }
            }
        }
        lit
    }

    /// The completion check (`grid_correct`): every white square lit, no light lit by
    /// another, every number met. Marks do not count.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        let lit = self.lit(state);
        if let Some(i) =
            (0..self.grid.len()).find(|&i| self.grid[i] == Square::White && lit[i] == 0)
        {
            return Err(format!("square {} is not lit", name(i)));
        }
        if let Some(i) = (0..self.grid.len()).find(|&i| state.light[i] && lit[i] > 1) {
            return Err(format!("the light at {} is lit by another light", name(i)));
        }
        for (i, sq) in self.grid.iter().enumerate() {
            if let Square::Black(Some(n)) = *sq {
                let has = self
                    .neighbours(i)
                    .iter()
                    .filter(|&&j| state.light[j])
                    .count();
                if has != n as usize {
                    return Err(format!(
                        "the number at {} wants {n} lights next to it, has {has}",
                        name(i)
                    ));
                }
            }
        }
        Ok(())
    }

    /// The white squares, reading order: one witness bit each.
    pub fn whites(&self) -> Vec<usize> {
        (0..self.grid.len())
            .filter(|&i| self.grid[i] == Square::White)
            .collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per white square, reading order, 1 for a light. Violations: per run of
// white squares (rows' runs, then columns'), the "two lights" bits of `one_hot_check`; per
// white square, `¬r ∧ ¬c` with `r`, `c` the XOR of its row run and of its column run (with
// at most one light per run, whether the run has a light); per numbered square, reading
// order, the 3 bits of `popcount(white neighbours) ⊕ number`.

pub const GAME: Game = Game {
    name: "Light Up",
    default_params: "7x7b20s4d0",
    larger_params: "14x14b20s2d0",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/lightup.sav"),
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
        let whites = self.whites();
        let mut b = Builder::new(whites.len());
        let mut sq = vec![Bit::Const(false); self.grid.len()];
        for (k, &i) in whites.iter().enumerate() {
            sq[i] = b.input(k);
        }
        // per square, the XOR of each of its two runs
        let mut run_has = vec![Vec::with_capacity(2); self.grid.len()];
        for seg in self.segments() {
            let bits: Vec<Bit> = seg.iter().map(|&i| sq[i]).collect();
            let (errs, parity) = b.one_hot_check(&bits);
            for e in errs {
                b.output(e);
            }
            for &i in &seg {
                run_has[i].push(parity);
            }
        }
        for &i in &whites {
            let (r, c) = (run_has[i][0], run_has[i][1]);
            let nr = b.not(r);
            let nc = b.not(c);
            let v = b.and(nr, nc);
            b.output(v);
        }
        for (i, s) in self.grid.iter().enumerate() {
            if let Square::Black(Some(n)) = *s {
                let bits: Vec<Bit> = self.neighbours(i).iter().map(|&j| sq[j]).collect();
                let count = b.popcount(&bits, 3);
                for (k, &c) in count.iter().enumerate() {
                    let d = b.xor(c, Bit::Const((n >> k) & 1 == 1));
                    b.output(d);
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
        Ok(self.whites().iter().map(|&i| state.light[i]).collect())
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state
            .light
            .iter()
            .zip(&state.mark)
            .map(|(&l, &m)| l as u8 | (m as u8) << 1)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of small grids: the circuit accepts exactly the light placements the
    /// game's rule accepts, and each solution's own witness.
    #[test]
    fn tiny_lightup_exhaustive() {
        for (params, desc) in [
            ("3x3", "i"),
            ("3x3", "dBd"),
            ("3x3", "d4d"),
            ("4x3", "a1dBa2c"),
            ("4x4", "e1fBc"),
            ("3x4", "a0Bf2b"),
            ("2x2", "a3b"),
        ] {
            let p = Puzzle::decode(params, desc).unwrap();
            let c = p.circuit().unwrap();
            let whites = p.whites();
            assert_eq!(c.n_inputs(), whites.len());
            let accepted = crate::accepted_prefixes(&c, whites.len());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << whites.len()) {
                let mut s = p.initial();
                for (k, &i) in whites.iter().enumerate() {
                    s.light[i] = (a >> k) & 1 == 1;
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
            assert!(truth.len() < 1 << whites.len(), "{params}:{desc}");
            if desc != "a3b" {
                assert!(!truth.is_empty(), "{params}:{desc}");
            }
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let p = Puzzle::decode("7x7b20s4d0", "kBc21a0k0a11c1k").unwrap();
        assert_eq!(p.desc(), "kBc21a0k0a11c1k");
        assert_eq!(p.params(), "7x7");
        assert_eq!(p.grid[11], Square::Black(None));
        assert_eq!(p.grid[15], Square::Black(Some(2)));
        // runs longer than 26 are split at 26
        let e = Puzzle::decode("6x6", "zj").unwrap();
        assert_eq!(e.desc(), "zj");
        assert_eq!(Puzzle::decode("6x6r", "zj").unwrap().params(), "6x6");
        for (params, desc) in [
            ("7x7", "kBc21a0k0a11c1"),
            ("7x7", "kBc21a0k0a11c1ka"),
            ("7x7", "kBc21a0k0a11c1l"),
            ("7x7", "kBc51a0k0a11c1k"),
            ("7x7", "kBc2Sa0k0a11c1k"),
            ("1x7", "g"),
            ("7x7q", "zw"),
            ("7x7b", "zw"),
            ("41x41", "z"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3x3", "d0d").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "L0,0;I2,2").unwrap();
        assert!(s.light[0] && s.mark[8]);
        // a light over a mark removes the mark, a mark over a light removes the light
        p.execute_move(&mut s, "L2,2").unwrap();
        assert!(s.light[8] && !s.mark[8]);
        p.execute_move(&mut s, "I2,2").unwrap();
        assert!(!s.light[8] && s.mark[8]);
        p.execute_move(&mut s, "S;L0,0;").unwrap();
        assert!(!s.light[0]);
        for bad in ["", "L1,1", "L3,0", "L0", "Q", "SL0,0", "L0,0I1,0", "L0,0;;"] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
        assert_eq!(p.check(&p.initial()).unwrap_err(), "square a1 is not lit");
        let mut t = p.initial();
        p.execute_move(&mut t, "L0,0;L2,0;L0,2;L2,2").unwrap();
        assert!(p.check(&t).unwrap_err().contains("lit by another"));
        let mut u = p.initial();
        p.execute_move(&mut u, "L1,0;L1,2;L0,1;L2,1").unwrap();
        assert_eq!(
            p.check(&u).unwrap_err(),
            "the number at b2 wants 0 lights next to it, has 4"
        );
        let mut v = p.initial();
        p.execute_move(&mut v, "L0,0;L2,2").unwrap();
        assert_eq!(p.check(&v), Ok(()));
        // a mark changes nothing
        p.execute_move(&mut v, "I1,0").unwrap();
        assert_eq!(p.check(&v), Ok(()));
    }
}
