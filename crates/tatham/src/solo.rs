//! Solo (Sudoku): fill the grid so that every row, column and block (and, in an X puzzle,
//! each main diagonal) holds every digit once.
//!
//! PARAMS `CxR` (`C` rows of blocks… as the game counts: the grid is `C·R` wide, cell
//! `(x, y)` in block `(y / C)·C + x / R`), `x` for an X puzzle; the full form's symmetry and
//! difficulty letters only steer generation. Jigsaw (`j`) and Killer (`k`) puzzles are
//! refused. DESC is the grid in reading order: a letter `a`–`z` for a run of 1–26 empty
//! cells, a decimal number for a clue, `_` between two consecutive clues. Moves, as the
//! game's `execute_move`: `R x,y,n` writes digit `n` (0 erases) and clears the cell's
//! pencil marks, `P x,y,n` toggles pencil mark `n`, `M` pencils every digit into every
//! empty cell, and `S` followed by all `C·R·C·R` digits, comma separated, fills the grid.
//! Completion (the game's `check_valid`): every unit holds every digit once. Since the
//! game's own moves may overwrite a clue, zkgames also requires the solution to keep the
//! clues: a solution *of this puzzle*.
//!
//! Circuit. Witness: for each empty cell its digit minus one, `⌈log2 (C·R)⌉` bits, decoded
//! to a one-hot vector (a value past the last digit decodes to none). Per unit and digit:
//! if a clue of the unit has the digit, every empty cell's bit for it is 0 (a linear
//! output); otherwise some empty cell has it (an OR). Sound: a unit has `C·R` cells, each
//! holding at most one digit, and every one of the `C·R` digits is present, so each cell
//! holds exactly one and they differ.

use super::{bad_move, cell_name, parse_dim, push_bits, Game, Position, Puzzle};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph::{decode_index, index_bits};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Solo",
    default_params: "3x3",
    larger_params: "4x4",
    decode,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/solo.sav"),
};

/// The game's own limit on distinct symbols.
pub const MAX_SYMBOLS: usize = 31;

/// A Solo puzzle.
#[derive(Clone, Debug)]
pub struct Solo {
    pub c: usize,
    pub r: usize,
    pub xtype: bool,
    /// Clues (0 for an empty cell), `cr·cr` in reading order.
    pub clues: Vec<u8>,
}

fn decode(params: &str, desc: &str) -> Result<Box<dyn Puzzle>> {
    Ok(Box::new(Solo::decode(params, desc)?))
}

impl Solo {
    pub fn cr(&self) -> usize {
        self.c * self.r
    }

    pub fn decode(params: &str, desc: &str) -> Result<Solo> {
        let bad = |m: String| Error::bad(format!("Solo: {m}"));
        let (c, rest) =
            parse_dim(params, "block size", MAX_SYMBOLS).map_err(|e| bad(e.to_string()))?;
        let (r, mut rest) = match rest.strip_prefix('x') {
            Some(t) if t.starts_with(|ch: char| ch.is_ascii_digit()) => {
                parse_dim(t, "block size", MAX_SYMBOLS).map_err(|e| bad(e.to_string()))?
            }
            _ => (c, rest),
        };
        let mut xtype = false;
        while let Some(ch) = rest.chars().next() {
            rest = &rest[1..];
            match ch {
                'x' => xtype = true,
                'j' => {
                    return Err(bad(
                        "jigsaw puzzles are not supported (standard and X puzzles are)".into(),
                    ))
                }
                'k' => {
                    return Err(bad(
                        "killer puzzles are not supported (standard and X puzzles are)".into(),
                    ))
                }
                'r' | 'm' | 'a' => {
                    rest = rest.strip_prefix('d').unwrap_or(rest);
                    rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                }
                'd' => {
                    rest = rest
                        .strip_prefix(['t', 'b', 'i', 'a', 'e', 'u'])
                        .unwrap_or(rest);
                }
                _ => {
                    return Err(bad(format!(
                        "parameters '{}' are not CxR (optionally x)",
                        zkgames_core::files::excerpt(params)
                    )))
                }
            }
        }
        if c < 2 || r < 2 {
            return Err(bad("both dimensions must be at least 2".into()));
        }
        let cr = c * r;
        if cr > MAX_SYMBOLS {
            return Err(bad(format!("more than {MAX_SYMBOLS} distinct symbols")));
        }
        let area = cr * cr;
        let mut clues = Vec::with_capacity(area);
        let b = desc.as_bytes();
        let mut at = 0;
        while at < b.len() {
            let ch = b[at];
            match ch {
                b'a'..=b'z' => {
                    let run = (ch - b'a' + 1) as usize;
                    if clues.len() + run > area {
                        return Err(bad("the description has too much data for the grid".into()));
                    }
                    clues.extend(std::iter::repeat_n(0, run));
                    at += 1;
                }
                b'_' => at += 1,
                b'1'..=b'9' => {
                    let end = b[at..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(b.len(), |p| at + p);
                    let v: usize = desc[at..end.min(at + 4)].parse().unwrap_or(usize::MAX);
                    if end - at > 3 || v < 1 || v > cr {
                        return Err(bad(format!("a clue is out of range (1 to {cr})")));
                    }
                    if clues.len() == area {
                        return Err(bad("the description has too much data for the grid".into()));
                    }
                    clues.push(v as u8);
                    at = end;
                }
                _ => {
                    return Err(bad(format!(
                        "the description has an invalid character '{}'",
                        (ch as char).escape_default()
                    )))
                }
            }
        }
        if clues.len() < area {
            return Err(bad(
                "the description has not enough data for the grid".into()
            ));
        }
        Ok(Solo { c, r, xtype, clues })
    }

    fn block(&self, x: usize, y: usize) -> usize {
        (y / self.c) * self.c + x / self.r
    }

    /// Every unit: its name and cells.
    fn units(&self) -> Vec<(String, Vec<usize>)> {
        let cr = self.cr();
        let mut u = Vec::new();
        for y in 0..cr {
            u.push((
                format!("row {}", y + 1),
                (0..cr).map(|x| y * cr + x).collect(),
            ));
        }
        for x in 0..cr {
            u.push((
                format!("column {}", cell_name(x, 0).trim_end_matches('1')),
                (0..cr).map(|y| y * cr + x).collect(),
            ));
        }
        for b in 0..cr {
            let cells: Vec<usize> = (0..cr * cr)
                .filter(|&i| self.block(i % cr, i / cr) == b)
                .collect();
            let first = cells[0];
            u.push((
                format!("the block at {}", cell_name(first % cr, first / cr)),
                cells,
            ));
        }
        if self.xtype {
            u.push((
                "the leading diagonal".into(),
                (0..cr).map(|i| i * cr + i).collect(),
            ));
            u.push((
                "the other diagonal".into(),
                (0..cr).map(|i| i * cr + cr - 1 - i).collect(),
            ));
        }
        u
    }

    fn empty_cells(&self) -> Vec<usize> {
        (0..self.clues.len())
            .filter(|&i| self.clues[i] == 0)
            .collect()
    }
}

fn encode_grid(g: &[u8]) -> String {
    let mut s = String::new();
    let mut run = 0;
    let mut last_number = false;
    for &v in g {
        if v == 0 {
            run += 1;
            continue;
        }
        while run > 0 {
            let k = run.min(26);
            s.push((b'a' + k as u8 - 1) as char);
            run -= k;
            last_number = false;
        }
        if last_number {
            s.push('_');
        }
        s.push_str(&v.to_string());
        last_number = true;
    }
    while run > 0 {
        let k = run.min(26);
        s.push((b'a' + k as u8 - 1) as char);
        run -= k;
    }
    s
}

impl Puzzle for Solo {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        format!("{}x{}{}", self.c, self.r, if self.xtype { "x" } else { "" })
    }
    fn desc(&self) -> String {
        encode_grid(&self.clues)
    }
    fn start(&self) -> Box<dyn Position + '_> {
        let cr = self.cr();
        Box::new(SoloPosition {
            solo: self,
            grid: self.clues.clone(),
            pencil: vec![false; cr * cr * cr],
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let cr = self.cr();
        let w = index_bits(cr);
        let empty = self.empty_cells();
        let mut b = Builder::new(empty.len() * w);
        // per cell, its one-hot digit vector (constants for clues)
        let mut onehot: Vec<Vec<Bit>> = self
            .clues
            .iter()
            .map(|&v| (0..cr).map(|d| Bit::Const(v as usize == d + 1)).collect())
            .collect();
        for (k, &i) in empty.iter().enumerate() {
            let idx = b.input_word(k * w, w);
            onehot[i] = decode_index(&mut b, &idx, cr);
        }
        for (_, cells) in self.units() {
            #[allow(clippy::needless_range_loop)] // d indexes every cell's one-hot word
            for d in 0..cr {
                let clued = cells
                    .iter()
                    .filter(|&&i| self.clues[i] as usize == d + 1)
                    .count();
                let free: Vec<Bit> = cells
                    .iter()
                    .filter(|&&i| self.clues[i] == 0)
                    .map(|&i| onehot[i][d])
                    .collect();
                match clued {
                    0 => {
                        // NOT(OR free) = AND of the negations
                        let mut none = Bit::Const(true);
                        for &x in &free {
                            let nx = b.not(x);
                            none = b.and(none, nx);
                        }
                        b.output(none);
                    }
                    1 => {
                        for x in free {
                            b.output(x);
                        }
                    }
                    _ => b.output(Bit::Const(true)),
                }
            }
        }
        Ok(b.finish())
    }
}

/// A position of a Solo puzzle.
pub struct SoloPosition<'a> {
    solo: &'a Solo,
    grid: Vec<u8>,
    pencil: Vec<bool>,
}

fn number(s: &str) -> Option<(usize, &str)> {
    let n = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if n == 0 || n > 6 {
        return None;
    }
    Some((s[..n].parse().ok()?, &s[n..]))
}

impl Position for SoloPosition<'_> {
    fn execute_move(&mut self, mv: &str) -> Result<()> {
        let cr = self.solo.cr();
        if let Some(mut p) = mv.strip_prefix('S') {
            for i in 0..cr * cr {
                let (v, rest) = number(p)
                    .ok_or_else(|| bad_move("Solo", mv, "expected a digit for every cell"))?;
                if v < 1 || v > cr {
                    return Err(bad_move("Solo", mv, "a digit out of range"));
                }
                self.grid[i] = v as u8;
                p = rest.strip_prefix(',').unwrap_or(rest);
            }
            return Ok(());
        }
        if mv == "M" {
            for i in 0..cr * cr {
                if self.grid[i] == 0 {
                    self.pencil[i * cr..(i + 1) * cr].fill(true);
                }
            }
            return Ok(());
        }
        let op = mv.chars().next();
        if matches!(op, Some('R') | Some('P')) {
            let parsed = number(&mv[1..]).and_then(|(x, r)| {
                let (y, r) = number(r.strip_prefix(',')?)?;
                let (n, _) = number(r.strip_prefix(',')?)?;
                Some((x, y, n))
            });
            let (x, y, n) =
                parsed.ok_or_else(|| bad_move("Solo", mv, "expected R or P and x,y,n"))?;
            if x >= cr || y >= cr || n > cr {
                return Err(bad_move("Solo", mv, "a cell or digit outside the grid"));
            }
            let i = y * cr + x;
            if op == Some('P') && n > 0 {
                self.pencil[i * cr + n - 1] ^= true;
            } else {
                self.grid[i] = n as u8;
                self.pencil[i * cr..(i + 1) * cr].fill(false);
            }
            return Ok(());
        }
        Err(bad_move("Solo", mv, "not an R, P, M or S move"))
    }

    fn check(&self) -> std::result::Result<(), String> {
        let s = self.solo;
        let cr = s.cr();
        if let Some(i) = (0..cr * cr).find(|&i| self.grid[i] == 0) {
            return Err(format!("cell {} is empty", cell_name(i % cr, i / cr)));
        }
        if let Some(i) = (0..cr * cr).find(|&i| s.clues[i] != 0 && s.clues[i] != self.grid[i]) {
            return Err(format!(
                "cell {} holds {} but its clue is {}",
                cell_name(i % cr, i / cr),
                self.grid[i],
                s.clues[i]
            ));
        }
        for (name, cells) in s.units() {
            for d in 1..=cr as u8 {
                let k = cells.iter().filter(|&&i| self.grid[i] == d).count();
                if k != 1 {
                    return Err(format!(
                        "{name} has {} {d}{}",
                        if k == 0 { "no" } else { "more than one" },
                        if k == 0 { "" } else { "s" }
                    ));
                }
            }
        }
        Ok(())
    }

    fn witness(&self) -> Result<Vec<bool>> {
        let w = index_bits(self.solo.cr());
        let mut out = Vec::new();
        for i in self.solo.empty_cells() {
            push_bits(&mut out, self.grid[i] as usize - 1, w);
        }
        Ok(out)
    }

    fn state_bytes(&self) -> Vec<u8> {
        let mut v = self.grid.clone();
        v.extend(self.pencil.iter().map(|&p| p as u8));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every witness of a tiny 2x2 puzzle (and an X one): accepted exactly when the grid
    /// it names is a solution by the game's rule and keeps the clues.
    #[test]
    fn tiny_solo_exhaustive() {
        for (params, desc) in [
            ("2x2", "1a3b4a2_2a4b3a1"),
            ("2x2x", "1a3b4a2_2a4b3a1"),
            ("2x2x", "1a3b4a2_4a2b1a3"),
            ("2x2", "1_1_3_4_3_4_1_2_2_1_4_3d"),
        ] {
            let s = Solo::decode(params, desc).unwrap();
            assert_eq!(s.desc(), desc);
            let c = s.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 26, "{n}");
            let empty = s.empty_cells();
            let mut accepted = 0u64;
            for a in 0u64..(1 << n) {
                let input: Vec<bool> = (0..n).map(|i| (a >> i) & 1 == 1).collect();
                let ok = crate::accepts(&c, &input);
                let mut p = SoloPosition {
                    solo: &s,
                    grid: s.clues.clone(),
                    pencil: vec![false; 64],
                };
                for (k, &i) in empty.iter().enumerate() {
                    p.grid[i] = ((a >> (2 * k)) & 3) as u8 + 1;
                }
                assert_eq!(ok, p.check().is_ok(), "{params}:{desc} {a:b}");
                if ok {
                    assert_eq!(p.witness().unwrap(), input);
                    accepted += 1;
                }
            }
            if params == "2x2" {
                assert_eq!(accepted > 0, !desc.starts_with("1_1"), "{desc}");
            }
            if desc == "1a3b4a2_4a2b1a3" {
                assert!(accepted >= 1);
            }
        }
    }

    #[test]
    fn decode_and_moves() {
        assert!(Solo::decode("3x3", "a").is_err());
        assert!(Solo::decode("3x3j", "a")
            .unwrap_err()
            .to_string()
            .contains("jigsaw"));
        assert!(Solo::decode("3x3k", "a")
            .unwrap_err()
            .to_string()
            .contains("killer"));
        assert!(Solo::decode("2x2", "5o").is_err());
        assert!(Solo::decode("2x2", "1p").is_err());
        assert!(Solo::decode("6x6", "a").is_err());
        let s = Solo::decode("2x2db", "1a3b4a2_2a4b3a1").unwrap();
        assert_eq!(s.params(), "2x2");
        let mut p = s.start();
        p.execute_move("R1,0,3").unwrap();
        p.execute_move("P2,0,4").unwrap();
        p.execute_move("M").unwrap();
        p.execute_move("R2,0,0").unwrap();
        for bad in ["R4,0,1", "R0,0,5", "Q", "S1,2,3", "R0,0"] {
            assert!(s.start().execute_move(bad).is_err(), "{bad}");
        }
    }
}
