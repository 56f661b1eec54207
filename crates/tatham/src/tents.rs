//! Tents (Tatham's `tents.c`): place tents so that each row and column has its number of
//! tents, no two tents touch (not even diagonally), and the tents can be paired one to one
//! with the trees, each tent orthogonally next to its tree.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[dD]`: width and height (at least 4), a difficulty letter (`e`, `t`; it
//!   only steers the generator).
//! - DESC: the grid in reading order, `_` a tree, `a`–`y` 1–25 empty squares then a tree,
//!   `z` 25 empty squares; a tree one past the grid ends it. `!` and `-` turn the square just
//!   described into a tent or a non-tent mark of the starting position (the generator never
//!   writes them). Then `,N` per column left to right, then per row top to bottom: its
//!   number of tents (an empty number is 0, as the game's `atoi` reads it).
//! - Moves: items separated by `;`: `T<x>,<y>` a tent, `N<x>,<y>` a non-tent mark,
//!   `B<x>,<y>` blank, on a square that is not a tree; `S` marks every square that is not a
//!   tree as a non-tent (the Solve record is `S` and a `T` item per tent).
//!
//! The completion check (in `execute_move`) asks for as many tents as trees, the row and
//! column numbers, no two tents in neighbouring squares (of the eight), and a perfect
//! matching of tents to orthogonally adjacent trees; squares that are neither tents nor
//! trees may be blank or marked.

use super::parse::{parse_xy, place};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph::{decode_index, index_bits};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A square's content, as the game keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    Blank,
    Tree,
    Tent,
    NonTent,
}

/// A decoded Tents puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The starting position (trees, and the rare tents and marks a description gives).
    pub start: Vec<Square>,
    /// The numbers: `w` columns left to right, then `h` rows top to bottom.
    pub numbers: Vec<u32>,
}

/// The squares, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<Square>,
}

/// The longest number read (a count above the side is refused by the completion check).
const MAX_NUMBER_DIGITS: usize = 6;

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// do (strictly: nothing after the difficulty letter), and refuses the descriptions
    /// `new_game` would stop on (a `!` or `-` with no square before it, a run that ends
    /// exactly at the end of the grid).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = super::parse::parse_size(params, "Tents", 4)?;
        if !matches!(rest, "" | "de" | "dt") {
            return Err(Error::bad(format!(
                "Tents parameters {:?} are not of the form WxH[de|dt]",
                super::parse::short(params)
            )));
        }
        let n = w * h;
        let (grid_part, numbers_part) = match desc.find(',') {
            Some(k) => desc.split_at(k),
            None => (desc, ""),
        };
        let mut start = vec![Square::Blank; n];
        let mut pos = 0usize;
        let mut ended = false;
        for (k, b) in grid_part.bytes().enumerate() {
            if ended {
                return Err(Error::bad(
                    "Tents description has data after the grid's end",
                ));
            }
            let (run, tree) = match b {
                b'_' => (0, true),
                b'a'..=b'y' => ((b - b'a') as usize + 1, true),
                b'z' => (25, false),
                b'!' | b'-' => {
                    if pos == 0 {
                        return Err(Error::bad(format!(
                            "Tents description has a '{}' before any square",
                            b as char
                        )));
                    }
                    start[pos - 1] = if b == b'!' {
                        Square::Tent
                    } else {
                        Square::NonTent
                    };
                    continue;
                }
                _ => {
                    return Err(Error::bad(format!(
                        "Tents description has an unexpected character at position {}",
                        k + 1
                    )))
                }
            };
            pos += run;
            if pos > n || (pos == n && !tree) {
                return Err(Error::bad("Tents description is too long for its size"));
            }
            if pos == n {
                ended = true;
            } else if tree {
                start[pos] = Square::Tree;
                pos += 1;
            }
        }
        if !ended {
            return Err(Error::bad("Tents description is too short for its size"));
        }
        let mut numbers = Vec::with_capacity(w + h);
        let mut rest = numbers_part;
        for _ in 0..w + h {
            let r = rest.strip_prefix(',').ok_or_else(|| {
                Error::bad(format!(
                    "Tents description needs {} numbers after the grid",
                    w + h
                ))
            })?;
            let d = r.bytes().take_while(u8::is_ascii_digit).count();
            if d > MAX_NUMBER_DIGITS {
                return Err(Error::bad("Tents description has a number too large"));
            }
            numbers.push(if d == 0 {
                0
            } else {
                r[..d].parse().unwrap_or(0)
            });
            rest = &r[d..];
        }
        if !rest.is_empty() {
            return Err(Error::bad(
                "Tents description has more after its numbers than expected",
            ));
        }
        Ok(Puzzle {
            w,
            h,
            start,
            numbers,
        })
    }

    /// The canonical parameters, `WxH` (the game's short form).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description, as `new_game_desc` writes it (a starting tent or mark
    /// as a tree's letter and `!` or `-`).
    pub fn desc(&self) -> String {
        let n = self.w * self.h;
        let mut out = String::new();
        let mut run = 0usize;
        for i in 0..=n {
            let sq = if i == n { Square::Tree } else { self.start[i] };
            if sq == Square::Blank {
                run += 1;
                if run == 26 {
                    out.push('z');
                    run = 1;
                }
                continue;
            }
            out.push(if run == 0 {
                '_'
            } else {
                (b'a' + run as u8 - 1) as char
            });
            run = 0;
            match sq {
                Square::Tent => out.push('!'),
                Square::NonTent => out.push('-'),
                _ => {}
            }
        }
        for v in &self.numbers {
            out.push_str(&format!(",{v}"));
        }
        out
    }

    /// The starting position.
    pub fn initial(&self) -> State {
        State {
            grid: self.start.clone(),
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Tents", mv, why);
        let mut rest = mv;
        while !rest.is_empty() {
            let c = rest.as_bytes()[0];
            rest = &rest[1..];
            match c {
                b'S' => {
                    for g in state.grid.iter_mut().filter(|g| **g != Square::Tree) {
                        *g = Square::NonTent;
                    }
                }
                b'T' | b'N' | b'B' => {
                    let (x, y, r) = parse_xy(rest).ok_or_else(|| bad("expected x,y"))?;
                    if x >= self.w || y >= self.h {
                        return Err(bad("a square outside the grid"));
                    }
                    let i = y * self.w + x;
                    if state.grid[i] == Square::Tree {
                        return Err(bad("a tree"));
                    }
                    state.grid[i] = match c {
                        b'T' => Square::Tent,
                        b'N' => Square::NonTent,
                        _ => Square::Blank,
                    };
                    rest = r;
                }
                _ => return Err(bad("not an S, T, N or B item")),
            }
            if let Some(r) = rest.strip_prefix(';') {
                rest = r;
            } else if !rest.is_empty() {
                return Err(bad("items are separated by ';'"));
            }
        }
        Ok(())
    }

    /// The squares orthogonally next to `i`: up, left, right, down (the game's order).
    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (w, h) = (self.w, self.h);
        let (x, y) = (i % w, i / w);
        let mut out = Vec::new();
        if y > 0 {
            out.push(i - w);
        }
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < w {
            out.push(i + 1);
        }
        if y + 1 < h {
            out.push(i + w);
        }
        out
    }

    /// The trees, reading order (they never change).
    pub fn trees(&self) -> Vec<usize> {
        (0..self.start.len())
            .filter(|&i| self.start[i] == Square::Tree)
            .collect()
    }

    /// For each tent of `grid` (reading order), the tree it is paired with in a maximum
    /// matching (Kuhn's augmenting paths), or `None`.
    fn matching(&self, grid: &[Square]) -> Vec<(usize, Option<usize>)> {
        let tents: Vec<usize> = (0..grid.len())
            .filter(|&i| grid[i] == Square::Tent)
            .collect();
        let mut owner: std::collections::BTreeMap<usize, usize> = Default::default();
        fn augment(
            p: &Puzzle,
            grid: &[Square],
            tent: usize,
            seen: &mut Vec<usize>,
            owner: &mut std::collections::BTreeMap<usize, usize>,
        ) -> bool {
            for t in p.neighbours(tent) {
                if grid[t] != Square::Tree || seen.contains(&t) {
                    continue;
                }
                seen.push(t);
                let free = match owner.get(&t) {
                    None => true,
                    Some(&other) => augment(p, grid, other, seen, owner),
                };
                if free {
                    owner.insert(t, tent);
                    return true;
                }
            }
            false
        }
        for &t in &tents {
            augment(self, grid, t, &mut Vec::new(), &mut owner);
        }
        tents
            .iter()
            .map(|&t| (t, owner.iter().find(|(_, &o)| o == t).map(|(&tr, _)| tr)))
            .collect()
    }

    /// The completion check of `execute_move`, in its order.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let (w, h) = (self.w, self.h);
        let g = &state.grid;
        let tents = g.iter().filter(|&&s| s == Square::Tent).count();
        let trees = g.iter().filter(|&&s| s == Square::Tree).count();
        if tents != trees {
            return Err(format!("{tents} tents for {trees} trees"));
        }
        for x in 0..w {
            let n = (0..h).filter(|&y| g[y * w + x] == Square::Tent).count();
            if n as u32 != self.numbers[x] {
                return Err(format!(
                    "column {} wants {} tents, has {n}",
                    place(x, 0).trim_end_matches('1'),
                    self.numbers[x]
                ));
            }
        }
        for y in 0..h {
            let n = (0..w).filter(|&x| g[y * w + x] == Square::Tent).count();
            if n as u32 != self.numbers[w + y] {
                return Err(format!(
                    "row {} wants {} tents, has {n}",
                    y + 1,
                    self.numbers[w + y]
                ));
            }
        }
        for y in 0..h {
            for x in 0..w {
                if g[y * w + x] != Square::Tent {
                    continue;
                }
                for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (-1, 1)] {
                    let (x2, y2) = (x as isize + dx, y as isize + dy);
                    if x2 >= 0
                        && (x2 as usize) < w
                        && (y2 as usize) < h
                        && g[y2 as usize * w + x2 as usize] == Square::Tent
                    {
                        return Err(format!(
                            "the tents at {} and {} touch",
                            place(x, y),
                            place(x2 as usize, y2 as usize)
                        ));
                    }
                }
            }
        }
        if let Some((t, _)) = self.matching(g).into_iter().find(|(_, tr)| tr.is_none()) {
            return Err(format!(
                "the tents cannot each be paired with a tree next to it (the tent at {} is left over)",
                place(t % w, t / w)
            ));
        }
        Ok(())
    }

    /// The squares that may hold a tent in a solution: not trees, next to a tree (a tent
    /// with no tree beside it can be paired with none). Reading order, each with the trees
    /// beside it (up, left, right, down).
    pub fn candidates(&self) -> Vec<(usize, Vec<usize>)> {
        (0..self.start.len())
            .filter(|&i| self.start[i] != Square::Tree)
            .map(|i| {
                let trees: Vec<usize> = self
                    .neighbours(i)
                    .into_iter()
                    .filter(|&t| self.start[t] == Square::Tree)
                    .collect();
                (i, trees)
            })
            .filter(|(_, t)| !t.is_empty())
            .collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per candidate square (not a tree, next to a tree), reading order, 1 for
// a tent; then per candidate with `k ≥ 2` trees beside it, the index among them of its tree
// in `index_bits(k)` bits, decoded one-hot (an index `≥ k` decodes to no tree). Other
// squares hold no tent (constants). A tent `i` claims tree `j` when `tent_i ∧ sel_{i,j}`.
// Violations: a constant 1 if the column numbers or the row numbers do not add up to the
// number of trees; per column then per row, the bits of `popcount ⊕ number` (a constant 1
// when the number exceeds the line); per 2×2 block of squares, reading order of its top
// left, the "two tents" bits of `one_hot_check` (every pair of touching squares lies in a
// block); per tree, reading order, `one_hot_check` of its claims and the negated parity.
// Soundness: the lines' counts make the number of tents equal the number of trees; each
// tree is claimed exactly once and each tent claims at most one tree, so each tent claims
// exactly one, and the claims are a perfect matching of tents to adjacent trees.

pub const GAME: Game = Game {
    name: "Tents",
    default_params: "8x8de",
    larger_params: "15x15dt",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/tents.sav"),
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
        let cands = self.candidates();
        let sel_bits: usize = cands.iter().map(|(_, t)| index_bits(t.len())).sum();
        let mut b = Builder::new(cands.len() + sel_bits);
        let mut tent = vec![Bit::Const(false); w * h];
        for (k, &(i, _)) in cands.iter().enumerate() {
            tent[i] = b.input(k);
        }
        let trees = self.trees();
        let mut claims: std::collections::BTreeMap<usize, Vec<Bit>> =
            trees.iter().map(|&t| (t, Vec::new())).collect();
        let mut at = cands.len();
        for &(i, ref ts) in &cands {
            let bits = index_bits(ts.len());
            let idx = b.input_word(at, bits);
            at += bits;
            let sel = decode_index(&mut b, &idx, ts.len());
            for (&t, &s) in ts.iter().zip(&sel) {
                let c = b.and(tent[i], s);
                claims.get_mut(&t).expect("a tree").push(c);
            }
        }
        let cols: u64 = self.numbers[..w].iter().map(|&v| v as u64).sum();
        let rows: u64 = self.numbers[w..].iter().map(|&v| v as u64).sum();
        let nt = trees.len() as u64;
        b.output(Bit::Const(cols != nt || rows != nt));
        let lines = (0..w)
            .map(|x| (0..h).map(|y| y * w + x).collect::<Vec<_>>())
            .chain((0..h).map(|y| (0..w).map(|x| y * w + x).collect()));
        for (line, &want) in lines.zip(&self.numbers) {
            if want as usize > line.len() {
                b.output(Bit::Const(true));
                continue;
            }
            let bits: Vec<Bit> = line.iter().map(|&i| tent[i]).collect();
            let width = super::bits_for(line.len() + 1);
            let count = b.popcount(&bits, width);
            for (k, &c) in count.iter().enumerate() {
                let d = b.xor(c, Bit::Const((want >> k) & 1 == 1));
                b.output(d);
            }
        }
        for y in 0..h - 1 {
            for x in 0..w - 1 {
                let i = y * w + x;
                let block = [tent[i], tent[i + 1], tent[i + w], tent[i + w + 1]];
                let (errs, _) = b.one_hot_check(&block);
                for e in errs {
                    b.output(e);
                }
            }
        }
        for cs in claims.values() {
            let (errs, parity) = b.one_hot_check(cs);
            for e in errs {
                b.output(e);
            }
            let v = b.not(parity);
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
        let cands = self.candidates();
        let pair: std::collections::BTreeMap<usize, usize> = self
            .matching(&state.grid)
            .into_iter()
            .filter_map(|(t, tr)| Some((t, tr?)))
            .collect();
        let mut out: Vec<bool> = cands
            .iter()
            .map(|(i, _)| state.grid[*i] == Square::Tent)
            .collect();
        for (i, ts) in &cands {
            let k = pair
                .get(i)
                .and_then(|tr| ts.iter().position(|t| t == tr))
                .unwrap_or(0);
            super::push_bits(&mut out, k, index_bits(ts.len()));
        }
        Ok(out)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.grid.iter().map(|&g| g as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// A puzzle of `w`×`h` (below the game's 4×4 minimum, built directly) whose numbers
    /// are those of `tents`, the column `bump` (if any) wanting one tent more.
    fn tiny(w: usize, h: usize, trees: &[usize], tents: &[usize], bump: Option<usize>) -> Puzzle {
        let mut start = vec![Square::Blank; w * h];
        for &t in trees {
            start[t] = Square::Tree;
        }
        let mut numbers = vec![0u32; w + h];
        for &t in tents {
            numbers[t % w] += 1;
            numbers[w + t / w] += 1;
        }
        if let Some(x) = bump {
            numbers[x] += 1;
        }
        Puzzle {
            w,
            h,
            start,
            numbers,
        }
    }

    /// Every witness of small grids: the circuit accepts exactly the tent placements the
    /// game's rule accepts (every square not a tree, as a tent or not), and each solution's
    /// own witness.
    #[test]
    fn tiny_tents_exhaustive() {
        let mut solvable = 0;
        for p in [
            // 3x3, trees at the centre and a corner
            tiny(3, 3, &[4, 0], &[1, 7], None),
            tiny(3, 3, &[4, 0], &[3, 5], None),
            tiny(3, 3, &[4, 0], &[1, 7], Some(0)),
            // two trees side by side in the middle of a 4x3
            tiny(4, 3, &[5, 6], &[4, 7], None),
            tiny(4, 3, &[5, 6], &[1, 10], None),
            tiny(4, 3, &[5, 6], &[1, 3], None),
            // tents that touch diagonally, or share a tree
            tiny(4, 3, &[5, 6], &[1, 6], None),
            tiny(4, 4, &[0, 5, 15], &[1, 9, 14], None),
            tiny(4, 4, &[1, 6, 11], &[2, 7, 15], None),
            tiny(4, 4, &[1, 6, 11], &[0, 10, 12], None),
            tiny(3, 4, &[4, 7], &[3, 11], None),
            tiny(3, 4, &[4, 7], &[1, 8], Some(2)),
        ] {
            let c = p.circuit().unwrap();
            let cands = p.candidates();
            assert!(c.n_inputs() <= 24, "{} inputs", c.n_inputs());
            let accepted = crate::accepted_prefixes(&c, cands.len());
            let free: Vec<usize> = (0..p.start.len())
                .filter(|&i| p.start[i] != Square::Tree)
                .collect();
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << free.len()) {
                let mut s = p.initial();
                for (k, &i) in free.iter().enumerate() {
                    if (a >> k) & 1 == 1 {
                        s.grid[i] = Square::Tent;
                    }
                }
                if p.check(&s).is_ok() {
                    // a solution's tents are all candidates
                    let bits = cands
                        .iter()
                        .enumerate()
                        .filter(|(_, (i, _))| s.grid[*i] == Square::Tent)
                        .fold(0u64, |acc, (k, _)| acc | 1 << k);
                    assert_eq!(
                        bits.count_ones(),
                        a.count_ones(),
                        "a tent off the candidates accepted"
                    );
                    truth.insert(bits);
                    let pos = crate::Play {
                        puzzle: &p,
                        state: s,
                    };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{p:?}");
            if !truth.is_empty() {
                solvable += 1;
            }
        }
        assert!(solvable >= 4, "{solvable}");
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "hdabaaagldhc_,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0,2";
        let p = Puzzle::decode("8x8de", d).unwrap();
        assert_eq!(p.desc(), d);
        assert_eq!(p.params(), "8x8");
        assert_eq!(p.trees().len(), 12);
        assert_eq!(p.trees()[0], 8);
        assert_eq!(p.numbers[8], 2);
        // runs of 25, and a starting tent and mark
        let e = Puzzle::decode("5x5", "_!a-v,0,0,0,0,0,,0,0,0,0").unwrap();
        assert_eq!(e.start[0], Square::Tent);
        assert_eq!(e.start[2], Square::NonTent);
        assert_eq!(e.trees(), Vec::<usize>::new());
        assert_eq!(e.desc(), "_!a-v,0,0,0,0,0,0,0,0,0,0");
        assert_eq!(Puzzle::decode("5x5", &e.desc()).unwrap().start, e.start);
        let z = Puzzle::decode("6x5", "zd_,1,1,1,1,1,1,1,1,1,1,1").unwrap();
        assert_eq!(z.trees(), vec![29]);
        assert_eq!(z.desc(), "zd_,1,1,1,1,1,1,1,1,1,1,1");
        for (params, desc) in [
            ("8x8", "hdabaaagldhc,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0,2"),
            ("8x8", "hdabaaagldhc__,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0,2"),
            ("8x8", "hdabaaagldhc_,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0"),
            ("8x8", "hdabaaagldhc_,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0,2,"),
            ("8x8", "hdabaaagldhc_,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0,2x"),
            ("8x8", "hdab?aagldhc_,1,2,1,1,1,2,2,2,2,1,3,1,0,3,0,2"),
            ("5x5", "!zb,0,0,0,0,0,0,0,0,0,0"),
            ("5x5", "z,0,0,0,0,0,0,0,0,0,0"),
            ("5x5", "y,0,0,0,0,0,0,0,0,0,1234567"),
            ("3x8", "z,0,0,0,0,0,0,0,0,0,0,0"),
            ("8x8dx", "zzzl,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("4x4", "fi,0,1,0,0,0,1,0,0").unwrap();
        assert_eq!(p.trees(), vec![6]);
        let mut s = p.initial();
        p.execute_move(&mut s, "T1,1;N0,0").unwrap();
        assert_eq!(s.grid[5], Square::Tent);
        assert_eq!(s.grid[0], Square::NonTent);
        assert_eq!(p.check(&s), Ok(()));
        p.execute_move(&mut s, "B1,1").unwrap();
        assert_eq!(p.check(&s).unwrap_err(), "0 tents for 1 trees");
        p.execute_move(&mut s, "S;T2,0").unwrap();
        assert_eq!(s.grid[1], Square::NonTent);
        assert_eq!(s.grid[2], Square::Tent);
        assert_eq!(p.check(&s).unwrap_err(), "column b wants 1 tents, has 0");
        p.execute_move(&mut s, "").unwrap();
        for bad in ["T2,1", "T4,0", "T0", "Q", "ST0,0", "T0,0N1,0", "T0,0;;"] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
        // a tent not beside the tree it would need: counts met, no pairing
        let q = Puzzle::decode("4x4", "fi,0,1,0,0,1,0,0,0").unwrap();
        let mut t = q.initial();
        q.execute_move(&mut t, "T1,0").unwrap();
        assert!(q.check(&t).unwrap_err().contains("paired"));
    }
}
