//! Range (Tatham's `range.c`, Kurodoko): colour squares black so that no two black squares
//! are orthogonally adjacent, the other squares are all connected, and each numbered square
//! sees exactly its number of non-black squares along its row and column, itself included
//! (up to the first black square or the edge in each of the four directions).
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH` (at least 1 each; the game cannot make 1x1, 1x2, 2x1 or 2x2 and zkgames
//!   refuses them; at most 40 a side here).
//! - DESC: in reading order, `a`–`z` runs of 1–26 squares without a number, a decimal number
//!   (1 to `W + H − 1`) a numbered square, `_` a separator between two numbers; the game
//!   reads nothing after a `,`.
//! - Moves: an optional `S` (the Solve record), then items `W,<r>,<c>` (white, a dot),
//!   `B,<r>,<c>` (black), `E,<r>,<c>` (empty) with no separator, row before column. The game
//!   applies them to any square, a numbered one too: a position whose number was painted
//!   over is not solved here. Empty squares count as white in the completion rule.

use super::parse::{parse_num, parse_size, place};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A decoded Range puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The numbers, reading order (0 for none).
    pub clues: Vec<u8>,
}

/// A square as the game keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    Empty,
    White,
    Black,
    /// A numbered square (as the puzzle gives it, until a move paints over it).
    Clue(u8),
}

/// The squares, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<Square>,
}

/// The four directions of the game (`dr`, `dc`): down, right, up, left.
const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc` do
    /// (strictly: nothing after the height).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Range", 1)?;
        if !rest.is_empty() {
            return Err(Error::bad(format!(
                "Range parameters {:?} are not of the form WxH",
                super::parse::short(params)
            )));
        }
        if w * h <= 2 || (w == 2 && h == 2) {
            return Err(Error::bad(format!(
                "Range {w}x{h} is too small (the game cannot make 1x1, 1x2, 2x1 or 2x2)"
            )));
        }
        let n = w * h;
        let range = w + h - 1;
        let body = desc.split(',').next().unwrap_or("");
        let b = body.as_bytes();
        let mut clues = Vec::with_capacity(n);
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            match c {
                b'a'..=b'z' => {
                    clues.extend(std::iter::repeat_n(0u8, (c - b'a') as usize + 1));
                    i += 1;
                }
                b'_' => i += 1,
                b'1'..=b'9' => {
                    let len = b[i..].iter().take_while(|d| d.is_ascii_digit()).count();
                    let v = parse_num(&body[i..i + len])
                        .map(|(v, _)| v)
                        .filter(|v| (1..=range).contains(v));
                    let Some(v) = v else {
                        return Err(Error::bad(format!(
                            "Range description has an out-of-range number (1 to {range})"
                        )));
                    };
                    clues.push(v as u8);
                    i += len;
                }
                _ => {
                    return Err(Error::bad(format!(
                        "Range description has an unexpected character at position {}",
                        i + 1
                    )))
                }
            }
            if clues.len() > n {
                return Err(Error::bad("Range description is too long for its size"));
            }
        }
        if clues.len() < n {
            return Err(Error::bad("Range description is too short for its size"));
        }
        Ok(Puzzle { w, h, clues })
    }

    /// The canonical parameters (`WxH`).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description (`newdesc_encode_game_description`).
    pub fn desc(&self) -> String {
        let mut out = String::new();
        let mut run = 0usize;
        for &c in &self.clues {
            if c == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                while run > 0 {
                    let r = run.min(26);
                    out.push((b'a' + r as u8 - 1) as char);
                    run -= r;
                }
            } else if !out.is_empty() {
                out.push('_');
            }
            out.push_str(&c.to_string());
        }
        while run > 0 {
            let r = run.min(26);
            out.push((b'a' + r as u8 - 1) as char);
            run -= r;
        }
        out
    }

    /// The starting position: the numbered squares, every other square empty.
    pub fn initial(&self) -> State {
        State {
            grid: self
                .clues
                .iter()
                .map(|&c| {
                    if c == 0 {
                        Square::Empty
                    } else {
                        Square::Clue(c)
                    }
                })
                .collect(),
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Range", mv, why);
        let mut rest = mv.strip_prefix('S').unwrap_or(mv);
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            let parsed = rest.strip_prefix(',').and_then(|r| {
                let (row, r) = parse_num(r)?;
                let (col, r) = parse_num(r.strip_prefix(',')?)?;
                Some((row, col, r))
            });
            let (row, col, r) = parsed.ok_or_else(|| bad("expected W, B or E and r,c"))?;
            let sq = match c {
                'W' => Square::White,
                'B' => Square::Black,
                'E' => Square::Empty,
                _ => return Err(bad("a square is W, B or E")),
            };
            if row >= self.h || col >= self.w {
                return Err(bad("a square outside the grid"));
            }
            state.grid[row * self.w + col] = sq;
            rest = r;
        }
        Ok(())
    }

    /// The squares seen from `i` in direction `d`, nearest first, to the edge.
    fn ray(&self, i: usize, d: usize) -> Vec<usize> {
        let (dr, dc) = DIRS[d];
        let (mut r, mut c) = ((i / self.w) as isize, (i % self.w) as isize);
        let mut out = Vec::new();
        loop {
            r += dr;
            c += dc;
            if r < 0 || c < 0 || r >= self.h as isize || c >= self.w as isize {
                return out;
            }
            out.push(r as usize * self.w + c as usize);
        }
    }

    /// The completion check (`find_errors` finding nothing): no two black squares adjacent,
    /// each number sees its count of non-black squares, the non-black squares connected.
    /// zkgames also refuses a numbered square a move painted over (the game's check then
    /// no longer sees the number).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let (w, h) = (self.w, self.h);
        let name = |i: usize| place(i % w, i / w);
        if let Some(i) = (0..w * h).find(|&i| self.clues[i] != 0 && state.grid[i] == Square::Black)
        {
            return Err(format!("the numbered square {} is black", name(i)));
        }
        if let Some(i) =
            (0..w * h).find(|&i| self.clues[i] != 0 && state.grid[i] != Square::Clue(self.clues[i]))
        {
            return Err(format!("the number at {} was painted over", name(i)));
        }
        let black = |i: usize| state.grid[i] == Square::Black;
        let g = super::grid_graph(w, h);
        for &(a, b) in g.edges() {
            if black(a) && black(b) {
                return Err(format!(
                    "the black squares {} and {} are adjacent",
                    name(a),
                    name(b)
                ));
            }
        }
        for (i, &c) in self.clues.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let seen = 1
                + (0..4)
                    .map(|d| self.ray(i, d).iter().take_while(|&&j| !black(j)).count())
                    .sum::<usize>();
            if seen != c as usize {
                return Err(format!("the number {c} at {} sees {seen} squares", name(i)));
            }
        }
        let white: Vec<bool> = (0..w * h).map(|i| !black(i)).collect();
        if graph::connected_subset_witness(&g, &white).is_none() {
            let first = white.iter().position(|&x| x).unwrap_or(0);
            let cut = super::singles::reach(&g, &white, first);
            let other = (0..w * h).find(|&i| white[i] && !cut[i]).unwrap_or(0);
            return Err(format!(
                "the white squares are not connected ({} is cut off from {})",
                name(other),
                name(first)
            ));
        }
        Ok(())
    }

    /// The squares without a number, reading order (the witness's colour bits).
    pub fn free(&self) -> Vec<usize> {
        (0..self.clues.len())
            .filter(|&i| self.clues[i] == 0)
            .collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: per square without a number, reading order, 1 black (numbered squares are the
// constant white); then the connected-subset labels over the grid graph, `inside` = white.
// Violations: per neighbouring pair `black ∧ black`. Per number `c` and direction, along the
// ray `s_1, s_2, …` from the square: the prefix ANDs `p_j = white(s_1) ∧ … ∧ white(s_j)` for
// `j < c` (a thermometer code of the run, one AND each past the first) and, when the ray is
// that long, `p_c` itself as a violation (a run of `c` or more). The run length's binary
// form is linear in the thermometer code (bit `t` = XOR over `j` of `(p_j ⊕ p_{j+1})·bit_t(j)`);
// three ripple adders sum the four runs in `⌈log2(4c − 3)⌉` bits, and the sum's bits XOR
// `c − 1` are violations. Then the certificate's.

pub const GAME: Game = Game {
    name: "Range",
    default_params: "9x6",
    larger_params: "16x11",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/range.sav"),
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
        let n = self.clues.len();
        let free = self.free();
        let g = super::grid_graph(self.w, self.h);
        let mut b = Builder::new(free.len() + graph::connected_subset_bits(&g));
        let mut black = vec![Bit::Const(false); n];
        for (k, &i) in free.iter().enumerate() {
            black[i] = b.input(k);
        }
        let white: Vec<Bit> = black.iter().map(|&x| b.not(x)).collect();
        for &(i, j) in g.edges() {
            let v = b.and(black[i], black[j]);
            b.output(v);
        }
        for (i, &c) in self.clues.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let c = c as usize;
            let width = super::bits_for(4 * c - 3);
            let mut runs = Vec::with_capacity(4);
            for d in 0..4 {
                let ray = self.ray(i, d);
                // p[j] = the first j squares are white, j = 0 … min(len, c − 1)
                let mut p = vec![Bit::Const(true)];
                for (j, &s) in ray.iter().enumerate() {
                    let next = b.and(p[j], white[s]);
                    if j + 1 == c {
                        b.output(next);
                        break;
                    }
                    p.push(next);
                }
                p.push(Bit::Const(false));
                let mut run = vec![Bit::Const(false); width];
                for j in 1..p.len() - 1 {
                    let is = b.xor(p[j], p[j + 1]);
                    for (t, r) in run.iter_mut().enumerate() {
                        if (j >> t) & 1 == 1 {
                            *r = b.xor(*r, is);
                        }
                    }
                }
                runs.push(run);
            }
            let a = b.add(&runs[0], &runs[1]);
            let e = b.add(&runs[2], &runs[3]);
            let sum = b.add(&a, &e);
            for (t, &x) in sum.iter().enumerate() {
                let v = b.xor(x, Bit::Const(((c - 1) >> t) & 1 == 1));
                b.output(v);
            }
        }
        let mut at = free.len();
        for v in graph::connected_subset(&mut b, &g, &white, &mut at) {
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
        let white: Vec<bool> = state.grid.iter().map(|&s| s != Square::Black).collect();
        let g = super::grid_graph(self.w, self.h);
        let labels = graph::connected_subset_witness(&g, &white)
            .ok_or_else(|| Error::bad("not solved: the white squares are not connected"))?;
        let mut w: Vec<bool> = self.free().iter().map(|&i| !white[i]).collect();
        w.extend(labels);
        Ok(w)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state
            .grid
            .iter()
            .map(|&g| match g {
                Square::Empty => 0,
                Square::White => 1,
                Square::Black => 2,
                Square::Clue(c) => 2 + c,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of small grids (every colouring and every label): the circuit accepts
    /// exactly the colourings the game's rule accepts, and each solution's own witness.
    #[test]
    fn tiny_range_exhaustive() {
        for (w, h, clues) in [
            (3, 1, vec![0, 2, 0]),
            (3, 1, vec![3, 0, 0]),
            (4, 1, vec![0, 2, 0, 0]),
            (5, 1, vec![0, 0, 3, 0, 0]),
            (5, 1, vec![1, 0, 0, 0, 2]),
            (2, 2, vec![3, 0, 0, 0]),
            (2, 2, vec![0, 2, 0, 0]),
            (1, 4, vec![0, 4, 0, 0]),
        ] {
            let p = Puzzle { w, h, clues };
            let free = p.free();
            let c = p.circuit().unwrap();
            let accepted = crate::accepted_prefixes(&c, free.len());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << free.len()) {
                let mut s = p.initial();
                for (k, &i) in free.iter().enumerate() {
                    if (a >> k) & 1 == 1 {
                        s.grid[i] = Square::Black;
                    }
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
            assert!(truth.len() < 1 << free.len(), "{p:?}");
        }
    }

    /// The clue count on larger lines against the rule, every colouring of a 7×1 row and a
    /// 1×7 column with a number in the middle (no connectivity labels: the circuit's
    /// colour part with the accepted colourings' own labels).
    #[test]
    fn clue_counts_on_longer_lines() {
        for c in 1..=8u8 {
            for (w, h) in [(7, 1), (1, 7)] {
                let mut clues = vec![0; 7];
                clues[3] = c;
                let p = Puzzle { w, h, clues };
                let free = p.free();
                let circ = p.circuit().unwrap();
                let g = crate::grid_graph(w, h);
                for a in 0u64..(1 << free.len()) {
                    let mut s = p.initial();
                    for (k, &i) in free.iter().enumerate() {
                        if (a >> k) & 1 == 1 {
                            s.grid[i] = Square::Black;
                        }
                    }
                    let white: Vec<bool> = s.grid.iter().map(|&q| q != Square::Black).collect();
                    let mut input: Vec<bool> = free.iter().map(|&i| !white[i]).collect();
                    // labels of the connected case, zeros otherwise (then refused anyway)
                    input.extend(
                        graph::connected_subset_witness(&g, &white)
                            .unwrap_or(vec![false; graph::connected_subset_bits(&g)]),
                    );
                    assert_eq!(
                        crate::accepts(&circ, &input),
                        p.check(&s).is_ok(),
                        "{c} {a:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "g7c13_13e3f7b4f6e9_8c3g";
        let p = Puzzle::decode("9x6", d).unwrap();
        assert_eq!((p.desc().as_str(), p.params().as_str()), (d, "9x6"));
        assert_eq!(p.clues[7], 7);
        assert_eq!(p.clues[11], 13);
        // the game reads nothing after a comma
        assert_eq!(
            Puzzle::decode("9x6", &format!("{d},xyz")).unwrap().desc(),
            d
        );
        let long = "z6za";
        assert_eq!(Puzzle::decode("9x6", long).unwrap().desc(), long);
        for (params, desc) in [
            ("9x6", "g7c13_13e3f7b4f6e9_8c3f"),
            ("9x6", "g7c13_13e3f7b4f6e9_8c3h"),
            ("9x6", "g7c15_13e3f7b4f6e9_8c3g"),
            ("9x6", "g7c13_13e3f7b4f6e9_8c3!"),
            ("9x6", "g0c13_13e3f7b4f6e9_8c3g"),
            ("9x6d", d),
            ("2x2", "d"),
            ("1x2", "b"),
            ("41x1", ""),
            ("x6", d),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3x2", "2e").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "B,0,1W,1,2").unwrap();
        assert_eq!(s.grid[1], Square::Black);
        assert_eq!(s.grid[5], Square::White);
        p.execute_move(&mut s, "SE,0,1").unwrap();
        assert_eq!(s.grid[1], Square::Empty);
        // the game lets a move paint a numbered square; the check refuses the result
        p.execute_move(&mut s, "W,0,0").unwrap();
        assert!(p.check(&s).unwrap_err().contains("painted over"));
        for bad in [
            "B,2,0", "B,0,3", "B,0", "X,0,0", "B0,0", "B,0,0;", "SS", "B,0,0 ",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
    }
}
