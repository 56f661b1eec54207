//! Pattern (nonograms): fill cells so that each row's and column's runs of filled cells
//! are the clue's numbers, in order.
//!
//! PARAMS `WxH`. DESC: the `W` column clues then the `H` row clues, `/`-separated, each
//! its run lengths `.`-separated (empty for a blank line); optionally `,` and the given
//! cells: a letter skips `0`–`25` cells (`a`–`z`) then gives the next one (upper case
//! filled, lower case empty), except `z`, which only skips 25. Moves, as the game's
//! `execute_move`: `F`, `E`, `U` `x,y,w,h` set a rectangle to filled, empty or unknown
//! (given cells keep their value), `S` followed by one `0`/`1` per cell sets the whole
//! grid. Completion (the game's rule): no unknown cell and every line's runs equal its
//! clue. zkgames also requires the given cells to keep their values.
//!
//! Circuit. Witness: one bit per cell that is not given (1 = filled). Each line runs a
//! deterministic automaton over the template `1^{r1} 0 1^{r2} 0 … 1^{rk}` (extra zeros
//! allowed before, between and after runs), its state one-hot: every step costs one AND
//! per live state (`s_t ∧ b`, from which both successors follow linearly), and states that
//! can no longer reach the end are dropped. The line is accepted when the final state is
//! the template's end. The automaton is deterministic, so a line is accepted exactly when
//! it matches the clue.

use super::{bad_move, cell_name, parse_dim, Game, Position, Puzzle};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Pattern",
    default_params: "15x15",
    larger_params: "20x20",
    decode,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/pattern.sav"),
};

/// The largest width or height read.
pub const MAX_SIDE: usize = 64;

const UNKNOWN: u8 = 2;

/// A Pattern puzzle.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub w: usize,
    pub h: usize,
    /// Clues: the `w` columns, then the `h` rows.
    pub clues: Vec<Vec<usize>>,
    /// Given cells: `None`, or `Some(filled)`.
    pub given: Vec<Option<bool>>,
}

fn decode(params: &str, desc: &str) -> Result<Box<dyn Puzzle>> {
    Ok(Box::new(Pattern::decode(params, desc)?))
}

impl Pattern {
    pub fn decode(params: &str, desc: &str) -> Result<Pattern> {
        let bad = |m: String| Error::bad(format!("Pattern: {m}"));
        let (w, rest) = parse_dim(params, "width", MAX_SIDE).map_err(|e| bad(e.to_string()))?;
        let (h, rest) = match rest.strip_prefix('x') {
            Some(r) => parse_dim(r, "height", MAX_SIDE).map_err(|e| bad(e.to_string()))?,
            None => (w, rest),
        };
        if !rest.is_empty() {
            return Err(bad(format!(
                "parameters '{}' are not WxH",
                zkgames_core::files::excerpt(params)
            )));
        }
        if w == 0 || h == 0 {
            return Err(bad("width and height must both be greater than zero".into()));
        }
        let (lines, givens) = match desc.split_once(',') {
            Some((l, g)) => (l, Some(g)),
            None => (desc, None),
        };
        let parts: Vec<&str> = lines.split('/').collect();
        if parts.len() != w + h {
            return Err(bad(format!(
                "the description has {} row/column clues, the grid {}",
                parts.len(),
                w + h
            )));
        }
        let mut clues = Vec::with_capacity(w + h);
        for (i, p) in parts.iter().enumerate() {
            let len = if i < w { h } else { w };
            let mut runs = Vec::new();
            if !p.is_empty() {
                for n in p.split('.') {
                    if n.is_empty() || n.len() > 4 || !n.bytes().all(|c| c.is_ascii_digit()) {
                        return Err(bad(format!(
                            "clue '{}' is not numbers separated by '.'",
                            zkgames_core::files::excerpt(p)
                        )));
                    }
                    let v: usize = n.parse().expect("digits");
                    if v == 0 {
                        return Err(bad("all clues must be positive".into()));
                    }
                    runs.push(v);
                }
            }
            if runs.iter().map(|r| r + 1).sum::<usize>() > len + 1 {
                return Err(bad(format!(
                    "{} {} has more runs than fit",
                    if i < w { "column" } else { "row" },
                    if i < w { i + 1 } else { i - w + 1 }
                )));
            }
            clues.push(runs);
        }
        let area = w * h;
        let mut given = vec![None; area];
        if let Some(g) = givens {
            let mut i = 0;
            let mut it = g.bytes();
            while i < area {
                let c = it
                    .next()
                    .ok_or_else(|| bad("too little data in the given cells".into()))?;
                if !c.is_ascii_alphabetic() {
                    return Err(bad("unrecognised character in the given cells".into()));
                }
                let len = (c.to_ascii_lowercase() - b'a') as usize;
                i += len;
                if len < 25 && i < area {
                    given[i] = Some(c.is_ascii_uppercase());
                    i += 1;
                }
                if i > area {
                    return Err(bad("too much data in the given cells".into()));
                }
            }
            if it.next().is_some() {
                return Err(bad("too much data in the given cells".into()));
            }
        }
        Ok(Pattern { w, h, clues, given })
    }

    /// The cells of line `i` (columns first), in order.
    fn line(&self, i: usize) -> Vec<usize> {
        if i < self.w {
            (0..self.h).map(|y| y * self.w + i).collect()
        } else {
            let y = i - self.w;
            (0..self.w).map(|x| y * self.w + x).collect()
        }
    }

    fn line_name(&self, i: usize) -> String {
        if i < self.w {
            format!("column {}", i + 1)
        } else {
            format!("row {}", i - self.w + 1)
        }
    }

    fn free_cells(&self) -> Vec<usize> {
        (0..self.given.len())
            .filter(|&i| self.given[i].is_none())
            .collect()
    }
}

/// The runs of filled cells of a line.
fn runs(cells: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for &c in cells {
        if c == 1 {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    if run > 0 {
        out.push(run);
    }
    out
}

/// The accepting automaton of a clue, evaluated on the line's bits; returns the violation
/// bit (1 unless the line matches).
fn line_check(b: &mut Builder, bits: &[Bit], clue: &[usize]) -> Bit {
    // the template 1^{r1} 0 1^{r2} … 1^{rk}
    let mut t: Vec<bool> = Vec::new();
    for (j, &r) in clue.iter().enumerate() {
        if j > 0 {
            t.push(false);
        }
        t.extend(std::iter::repeat_n(true, r));
    }
    let m = t.len();
    let n = bits.len();
    // extra zeros are allowed at state t when t == 0, t == m, or the last consumed symbol is 0
    let zero_loop = |s: usize| s == 0 || s == m || !t[s - 1];
    let mut state = vec![Bit::Const(false); m + 1];
    state[0] = Bit::Const(true);
    for (x, &bit) in bits.iter().enumerate() {
        let mut next = vec![Bit::Const(false); m + 1];
        for s in 0..=m {
            if state[s] == Bit::Const(false) {
                continue;
            }
            let one = b.and(state[s], bit);
            let zero = b.xor(state[s], one);
            if s < m {
                let take = if t[s] { one } else { zero };
                next[s + 1] = b.xor(next[s + 1], take);
            }
            if zero_loop(s) {
                next[s] = b.xor(next[s], zero);
            }
        }
        // a state that cannot reach the end in the cells left is dead
        let left = n - x - 1;
        for (s, v) in next.iter_mut().enumerate() {
            if m - s > left {
                *v = Bit::Const(false);
            }
        }
        state = next;
    }
    b.not(state[m])
}

impl Puzzle for Pattern {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }
    fn desc(&self) -> String {
        let mut s = self
            .clues
            .iter()
            .map(|c| {
                c.iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .collect::<Vec<_>>()
            .join("/");
        if self.given.iter().any(|g| g.is_some()) {
            s.push(',');
            let mut run = 0u8;
            for g in &self.given {
                match g {
                    None => {
                        run += 1;
                        if run == 25 {
                            s.push('z');
                            run = 0;
                        }
                    }
                    Some(full) => {
                        s.push((run + if *full { b'A' } else { b'a' }) as char);
                        run = 0;
                    }
                }
            }
            if run > 0 {
                s.push((run + b'a') as char);
            }
        }
        s
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(PatternPosition {
            p: self,
            grid: self
                .given
                .iter()
                .map(|g| g.map_or(UNKNOWN, |f| f as u8))
                .collect(),
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let free = self.free_cells();
        let mut b = Builder::new(free.len());
        let mut cell: Vec<Bit> = self
            .given
            .iter()
            .map(|g| Bit::Const(g.unwrap_or(false)))
            .collect();
        for (k, &i) in free.iter().enumerate() {
            cell[i] = b.input(k);
        }
        for i in 0..self.w + self.h {
            let bits: Vec<Bit> = self.line(i).iter().map(|&c| cell[c]).collect();
            let bad = line_check(&mut b, &bits, &self.clues[i]);
            b.output(bad);
        }
        Ok(b.finish())
    }
}

/// A position of a Pattern puzzle: per cell 0 empty, 1 filled, 2 unknown.
pub struct PatternPosition<'a> {
    p: &'a Pattern,
    grid: Vec<u8>,
}

impl Position for PatternPosition<'_> {
    fn execute_move(&mut self, mv: &str) -> Result<()> {
        let (w, h) = (self.p.w, self.p.h);
        if let Some(bits) = mv.strip_prefix('S') {
            if bits.len() != w * h {
                return Err(bad_move(
                    "Pattern",
                    mv,
                    "a solve move needs one 0 or 1 per cell",
                ));
            }
            for (g, c) in self.grid.iter_mut().zip(bits.bytes()) {
                *g = (c == b'1') as u8;
            }
            return Ok(());
        }
        let val = match mv.as_bytes().first() {
            Some(b'F') => 1,
            Some(b'E') => 0,
            Some(b'U') => UNKNOWN,
            _ => return Err(bad_move("Pattern", mv, "not an F, E, U or S move")),
        };
        let nums: Vec<usize> = mv[1..]
            .split(',')
            .map(|s| {
                if s.is_empty() || s.len() > 6 || !s.bytes().all(|c| c.is_ascii_digit()) {
                    None
                } else {
                    s.parse().ok()
                }
            })
            .collect::<Option<Vec<_>>>()
            .filter(|v| v.len() == 4)
            .ok_or_else(|| bad_move("Pattern", mv, "expected x,y,w,h"))?;
        let (x1, y1, dx, dy) = (nums[0], nums[1], nums[2], nums[3]);
        if x1 + dx > w || y1 + dy > h {
            return Err(bad_move("Pattern", mv, "a rectangle outside the grid"));
        }
        for y in y1..y1 + dy {
            for x in x1..x1 + dx {
                if self.p.given[y * w + x].is_none() {
                    self.grid[y * w + x] = val;
                }
            }
        }
        Ok(())
    }

    fn check(&self) -> std::result::Result<(), String> {
        let p = self.p;
        if let Some(i) = self.grid.iter().position(|&g| g == UNKNOWN) {
            return Err(format!(
                "cell {} is not filled in",
                cell_name(i % p.w, i / p.w)
            ));
        }
        if let Some(i) =
            (0..self.grid.len()).find(|&i| p.given[i].is_some_and(|f| f as u8 != self.grid[i]))
        {
            return Err(format!(
                "cell {} differs from the given cell",
                cell_name(i % p.w, i / p.w)
            ));
        }
        for i in 0..p.w + p.h {
            let cells: Vec<u8> = p.line(i).iter().map(|&c| self.grid[c]).collect();
            if runs(&cells) != p.clues[i] {
                return Err(format!("{} does not match its clue", p.line_name(i)));
            }
        }
        Ok(())
    }

    fn witness(&self) -> Result<Vec<bool>> {
        Ok(self
            .p
            .free_cells()
            .iter()
            .map(|&i| self.grid[i] == 1)
            .collect())
    }

    fn state_bytes(&self) -> Vec<u8> {
        self.grid.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every witness of tiny puzzles: accepted exactly when the grid matches every clue
    /// (by the game's rule) and the given cells.
    #[test]
    fn tiny_pattern_exhaustive() {
        for (params, desc) in [
            ("3x3", "1/1.1/1/3//1"),
            ("4x3", "1/2/1/1/1.1/2/1"),
            ("3x3", "2/1/2/1.1//3"),
            ("4x4", "1.1/2/1/1/1.1/2//1,dBdg"),
            ("3x2", "2/2/2/3/3"),
            ("3x3", "///3//"),
        ] {
            let p = Pattern::decode(params, desc).unwrap();
            assert_eq!(p.desc(), desc, "canonical");
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 20);
            let free = p.free_cells();
            for a in 0u64..(1 << n) {
                let input: Vec<bool> = (0..n).map(|i| (a >> i) & 1 == 1).collect();
                let ok = crate::accepts(&c, &input);
                let mut pos = PatternPosition {
                    p: &p,
                    grid: p.given.iter().map(|g| g.map_or(0, |f| f as u8)).collect(),
                };
                for (k, &i) in free.iter().enumerate() {
                    pos.grid[i] = input[k] as u8;
                }
                assert_eq!(ok, pos.check().is_ok(), "{params}:{desc} {a:b}");
                if ok {
                    assert_eq!(pos.witness().unwrap(), input);
                }
            }
        }
    }

    #[test]
    fn decode_and_moves() {
        assert!(Pattern::decode("3x3", "1/1/1/1/1").is_err());
        assert!(Pattern::decode("3x3", "4/1/1/1/1/1").is_err());
        assert!(Pattern::decode("3x3", "1.1.1/1/1/1/1/1").is_err());
        assert!(Pattern::decode("3x3", "0/1/1/1/1/1").is_err());
        assert!(Pattern::decode("3x3", "1/1/1/1/1/1,zz").is_err());
        assert!(Pattern::decode("99x3", "").is_err());
        let p = Pattern::decode("2x2", "1/1/1/1,Ad").unwrap();
        assert_eq!(p.given[0], Some(true));
        let mut s = p.start();
        s.execute_move("E0,0,2,2").unwrap();
        assert_eq!(s.state_bytes(), vec![1, 0, 0, 0]);
        s.execute_move("F1,1,1,1").unwrap();
        assert!(s.check().is_ok());
        for bad in ["F0,0,3,1", "S101", "X0,0,1,1", "F0,0,1", "F-1,0,1,1"] {
            assert!(p.start().execute_move(bad).is_err(), "{bad}");
        }
    }
}
