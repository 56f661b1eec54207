//! Filling (Tatham's `filling.c`, Fillomino): write a digit in every square so that each
//! region (a maximal orthogonally connected group of squares with the same digit) has
//! exactly as many squares as its digit.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH` (at least 1 each; at most 40 a side here).
//! - DESC: in reading order, `a`–`z` runs of 1–26 empty squares, a character from `0` to
//!   `'0' + max(W, H, 3)` a given number (its code minus `'0'`; `0` is an empty square).
//! - Moves: `<i>,<j>,…_<v>` writes digit `v` (0 to 9; 0 empties) in the squares numbered `i`,
//!   `j`, … in reading order (numbers as C's `strtol` with base 0 reads them); the Solve
//!   record `s` and one digit per square in reading order. The game lets a move overwrite a
//!   given number: a position where one was changed is not solved here.

use super::parse::{parse_size, place};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph::{decode_index, index_bits, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A decoded Filling puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The given numbers, reading order (0 for none).
    pub clues: Vec<u8>,
}

/// The digits, reading order (0 empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub board: Vec<u8>,
}

/// A number as C's `strtol(s, &end, 0)` reads it (whitespace, a sign, `0x` hex, a leading
/// `0` octal, else decimal), or `None` without digits; saturates far above any square.
fn strtol0(s: &str) -> Option<(i64, &str)> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\u{b}', '\u{c}', '\r']);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let b = t.as_bytes();
    let (radix, start) =
        if b.len() > 2 && b[0] == b'0' && (b[1] | 0x20) == b'x' && b[2].is_ascii_hexdigit() {
            (16, 2)
        } else if b.first() == Some(&b'0') {
            (8, 0)
        } else {
            (10, 0)
        };
    let digits = t[start..]
        .bytes()
        .take_while(|c| (*c as char).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let mut v: i64 = 0;
    for c in t[start..start + digits].chars() {
        v = (v * radix as i64 + c.to_digit(radix).unwrap() as i64).min(1 << 40);
    }
    Some((if neg { -v } else { v }, &t[start + digits..]))
}

/// The regions of a board: per square its region's number, and the regions' squares (each
/// in breadth-first order from its first square in reading order, with the parent of each
/// square but the first as an index into `g.incident`).
struct Regions {
    of: Vec<usize>,
    list: Vec<Vec<(usize, Option<usize>)>>,
}

fn regions(g: &Graph, board: &[u8]) -> Regions {
    let n = board.len();
    let mut of = vec![usize::MAX; n];
    let mut list = Vec::new();
    for s in 0..n {
        if of[s] != usize::MAX {
            continue;
        }
        let k = list.len();
        of[s] = k;
        let mut r = vec![(s, None)];
        let mut q = 0;
        while q < r.len() {
            let v = r[q].0;
            q += 1;
            for &(_, u) in g.incident(v) {
                if of[u] == usize::MAX && board[u] == board[v] {
                    of[u] = k;
                    let back = g.incident(u).iter().position(|&(_, x)| x == v).unwrap();
                    r.push((u, Some(back)));
                }
            }
        }
        list.push(r);
    }
    Regions { of, list }
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc` do
    /// (strictly: nothing after the height).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Filling", 1)?;
        if !rest.is_empty() {
            return Err(Error::bad(format!(
                "Filling parameters {:?} are not of the form WxH",
                super::parse::short(params)
            )));
        }
        let n = w * h;
        let top = w.max(h).max(3) as u8;
        let mut clues = Vec::with_capacity(n);
        for (i, c) in desc.bytes().enumerate() {
            match c {
                b'a'..=b'z' => clues.extend(std::iter::repeat_n(0, (c - b'a') as usize + 1)),
                _ if c >= b'0' && c - b'0' <= top => clues.push(c - b'0'),
                _ => {
                    return Err(Error::bad(format!(
                        "Filling description has an unexpected character at position {}",
                        i + 1
                    )))
                }
            }
            if clues.len() > n {
                return Err(Error::bad("Filling description is too long for its size"));
            }
        }
        if clues.len() < n {
            return Err(Error::bad("Filling description is too short for its size"));
        }
        Ok(Puzzle { w, h, clues })
    }

    /// The canonical parameters (`WxH`).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description (`new_game_desc`: runs of empty squares, `z` for 26).
    pub fn desc(&self) -> String {
        let mut out = String::new();
        let mut run = 0usize;
        let flush = |out: &mut String, run: &mut usize| {
            while *run > 26 {
                out.push('z');
                *run -= 26;
            }
            if *run > 0 {
                out.push((b'a' - 1 + *run as u8) as char);
            }
            *run = 0;
        };
        for &c in &self.clues {
            if c == 0 {
                run += 1;
            } else {
                flush(&mut out, &mut run);
                out.push((b'0' + c) as char);
            }
        }
        flush(&mut out, &mut run);
        out
    }

    /// The starting position: the given numbers.
    pub fn initial(&self) -> State {
        State {
            board: self.clues.clone(),
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let n = self.clues.len();
        let bad = |why: &str| super::bad_move("Filling", mv, why);
        if let Some(d) = mv.strip_prefix('s') {
            let d = d.as_bytes();
            // the game takes any byte and subtracts '0'; zkgames reads digits only
            if d.len() != n || !d.iter().all(u8::is_ascii_digit) {
                return Err(bad("a solve move needs one digit per square"));
            }
            for (s, &c) in state.board.iter_mut().zip(d) {
                *s = c - b'0';
            }
            return Ok(());
        }
        let (list, value) = mv
            .split_once('_')
            .ok_or_else(|| bad("expected squares, _ and a digit"))?;
        let value = match strtol0(value) {
            Some((v, "")) if (0..=9).contains(&v) => v as u8,
            _ => return Err(bad("the digit is 0 to 9")),
        };
        let mut squares = Vec::new();
        let mut rest = list;
        loop {
            let (i, r) = strtol0(rest).ok_or_else(|| bad("expected a square's number"))?;
            if i < 0 || i as usize >= n {
                return Err(bad("a square outside the grid"));
            }
            squares.push(i as usize);
            if r.is_empty() {
                break;
            }
            rest = r
                .strip_prefix(',')
                .ok_or_else(|| bad("squares are separated by ,"))?;
        }
        for i in squares {
            state.board[i] = value;
        }
        Ok(())
    }

    /// The completion check (every square's digit is the size of its region, so none is
    /// empty). zkgames also refuses a given number a move overwrote (the game's check does
    /// not look).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        if let Some(i) = state.board.iter().position(|&v| v == 0) {
            return Err(format!("square {} is empty", name(i)));
        }
        if let Some(i) =
            (0..self.clues.len()).find(|&i| self.clues[i] != 0 && state.board[i] != self.clues[i])
        {
            return Err(format!("square {} differs from the given number", name(i)));
        }
        let g = super::grid_graph(self.w, self.h);
        let r = regions(&g, &state.board);
        for list in &r.list {
            let s = list[0].0;
            let d = state.board[s] as usize;
            if list.len() != d {
                return Err(format!(
                    "the region of {d}s at {} has {} squares",
                    name(s),
                    list.len()
                ));
            }
        }
        Ok(())
    }

    /// The digit width: every digit a square can hold (9, or a larger given number).
    fn digit_bits(&self) -> usize {
        let top = self.clues.iter().copied().max().unwrap_or(0).max(9);
        super::bits_for(top as usize + 1)
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness, per square in reading order: its digit (`D = digit_bits` bits; none for a given
// square, a constant), a parent (an index into its grid neighbours, `index_bits(deg + 1)`
// bits; decoded one-hot, no neighbour selected = a root), a count (`D` bits) and a region
// name (`bits_for(n)` bits). Violations: a digit not given above 9; per neighbouring pair
// `u, v` (`eq` = equal digits): `parent(u) = v ∧ ¬eq`, `parent(v) = u ∧ ¬eq`, and each bit of
// `eq ∧ (name(u) ⊕ name(v))`; per square, the bits of `(1 + Σ_{u: parent(u) = v} count(u)) ⊕
// count(v)` in exact arithmetic; per root, the bits of `count ⊕ digit` and of
// `name ⊕ its own index`.
//
// Sound: counts strictly grow along parent pointers (exact sums, counts at least 1), so the
// pointers form a forest; a root's count is its tree's size; parent edges join equal digits,
// so a tree is one digit, its root's count; names are constant along equal-digit edges, so
// a tree's squares carry its root's index and two trees differ; an equal-digit edge between
// two trees would join two names: so each tree is a whole region, of the size its digit says.

pub const GAME: Game = Game {
    name: "Filling",
    default_params: "13x9",
    larger_params: "17x13",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/filling.sav"),
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
        let g = super::grid_graph(self.w, self.h);
        let dw = self.digit_bits();
        let nw = super::bits_for(n);
        let per = |v: usize| {
            let d = if self.clues[v] == 0 { dw } else { 0 };
            d + index_bits(g.incident(v).len() + 1) + dw + nw
        };
        let total: usize = (0..n).map(per).sum();
        let mut b = Builder::new(total);
        let mut at = 0usize;
        let mut take = |b: &Builder, k: usize| {
            let word = b.input_word(at, k);
            at += k;
            word
        };
        let mut digit = Vec::with_capacity(n);
        let mut sel = Vec::with_capacity(n);
        let mut count = Vec::with_capacity(n);
        let mut name = Vec::with_capacity(n);
        for v in 0..n {
            digit.push(if self.clues[v] == 0 {
                take(&b, dw)
            } else {
                b.const_word(self.clues[v] as u64, dw)
            });
            let deg = g.incident(v).len();
            let idx = take(&b, index_bits(deg + 1));
            sel.push(decode_index(&mut b, &idx, deg));
            count.push(take(&b, dw));
            name.push(take(&b, nw));
        }
        let ten = b.const_word(10, dw);
        for (d, &clue) in digit.iter().zip(&self.clues) {
            if clue == 0 {
                let ok = b.less_than(d, &ten);
                let bad = b.not(ok);
                b.output(bad);
            }
        }
        let pos = |v: usize, e: usize| g.incident(v).iter().position(|&(f, _)| f == e).unwrap();
        for (e, &(u, v)) in g.edges().iter().enumerate() {
            let diff = b.xor_w(&digit[u], &digit[v]);
            let eq = b.is_zero(&diff);
            let neq = b.not(eq);
            for x in [u, v] {
                let bad = b.and(sel[x][pos(x, e)], neq);
                b.output(bad);
            }
            for (&x, &y) in name[u].iter().zip(&name[v]) {
                let d = b.xor(x, y);
                let bad = b.and(eq, d);
                b.output(bad);
            }
        }
        for v in 0..n {
            let inc = g.incident(v);
            let tw = super::bits_for(1 + inc.len() * ((1 << dw) - 1) + 1);
            let mut sum = b.const_word(0, tw);
            for &(e, u) in inc {
                let s = sel[u][pos(u, e)];
                let mut term: Vec<Bit> = count[u].iter().map(|&c| b.and(s, c)).collect();
                term.resize(tw, Bit::Const(false));
                sum = b.add(&sum, &term);
            }
            let sum = b.increment(&sum, Bit::Const(true));
            let mut mine = count[v].clone();
            mine.resize(tw, Bit::Const(false));
            for bad in b.xor_w(&sum, &mine) {
                b.output(bad);
            }
            let mut any = Bit::Const(false);
            for &s in &sel[v] {
                any = b.xor(any, s);
            }
            let root = b.not(any);
            for t in 0..dw {
                let d = b.xor(count[v][t], digit[v][t]);
                let bad = b.and(root, d);
                b.output(bad);
            }
            for (t, &x) in name[v].iter().enumerate() {
                let d = b.xor(x, Bit::Const((v >> t) & 1 == 1));
                let bad = b.and(root, d);
                b.output(bad);
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
        let n = self.clues.len();
        let g = super::grid_graph(self.w, self.h);
        let dw = self.digit_bits();
        let nw = super::bits_for(n);
        let r = regions(&g, &state.board);
        let mut parent = vec![None; n];
        let mut size = vec![1usize; n];
        for list in &r.list {
            // subtree sizes: children after their parents in breadth-first order
            for &(v, p) in list.iter().rev() {
                parent[v] = p;
                if let Some(k) = p {
                    let up = g.incident(v)[k].1;
                    size[up] += size[v];
                }
            }
        }
        let mut out = Vec::new();
        for v in 0..n {
            if self.clues[v] == 0 {
                super::push_bits(&mut out, state.board[v] as usize, dw);
            }
            let deg = g.incident(v).len();
            super::push_bits(&mut out, parent[v].unwrap_or(deg), index_bits(deg + 1));
            super::push_bits(&mut out, size[v], dw);
            super::push_bits(&mut out, r.list[r.of[v]][0].0, nw);
        }
        Ok(out)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.board.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every digit filling of small grids with the certificate's witness, and, for the
    /// smallest grids, every witness (digits and labels): the circuit accepts exactly the
    /// fillings the game's rule accepts.
    #[test]
    fn tiny_filling_exhaustive() {
        // 2 squares: 2 × (4 digit + 1 parent + 4 count + 1 name) = 20 inputs
        for clues in [vec![0, 0], vec![2, 0], vec![1, 0]] {
            let p = Puzzle { w: 2, h: 1, clues };
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 20);
            let mut accepted = std::collections::BTreeSet::new();
            for a in 0u64..(1 << n) {
                let input: Vec<bool> = (0..n).map(|i| (a >> i) & 1 == 1).collect();
                if crate::accepts(&c, &input) {
                    // the digits of the accepted witness
                    let mut board = p.clues.clone();
                    let mut at = 0;
                    for (v, d) in board.iter_mut().enumerate() {
                        if p.clues[v] == 0 {
                            *d = (0..4).map(|t| (input[at + t] as u8) << t).sum();
                            at += 4;
                        }
                        at += 1 + 4 + 1;
                    }
                    accepted.insert(board);
                }
            }
            let mut truth = std::collections::BTreeSet::new();
            for a in 0..100u8 {
                let mut s = p.initial();
                for (v, d) in s.board.iter_mut().enumerate() {
                    if p.clues[v] == 0 {
                        *d = if v == 0 { a % 10 } else { a / 10 };
                    }
                }
                if p.check(&s).is_ok() {
                    truth.insert(s.board.clone());
                }
            }
            assert_eq!(accepted, truth, "{p:?}");
        }
        // every filling with digits 1 to 4 of a 2×2 grid and 3×1, 4×1 rows; digits 1 to 3
        // of 3×2: accepted (with the honest witness) exactly when the rule accepts, and no
        // rejected filling has any accepting labels among the relabellings below
        for (w, h, top) in [(2, 2, 4u8), (3, 1, 3), (4, 1, 4), (3, 2, 3), (2, 3, 3)] {
            let p = Puzzle {
                w,
                h,
                clues: vec![0; w * h],
            };
            let c = p.circuit().unwrap();
            let mut solved = 0;
            for a in 0..(top as usize).pow((w * h) as u32) {
                let mut s = p.initial();
                for (v, d) in s.board.iter_mut().enumerate() {
                    *d = (a / (top as usize).pow(v as u32) % top as usize) as u8 + 1;
                }
                let ok = p.check(&s).is_ok();
                let play = crate::Play {
                    puzzle: &p,
                    state: s.clone(),
                };
                // the honest witness of any filling (its regions' trees, counts, names)
                let wit = crate::Rules::witness(&p, &s).unwrap();
                assert_eq!(crate::accepts(&c, &wit), ok, "{w}x{h} {:?}", s.board);
                if ok {
                    solved += 1;
                    assert!(crate::accepts(&c, &play.witness().unwrap()));
                }
            }
            assert!(solved > 0, "{w}x{h}");
        }
    }

    /// Regions split into trees of the right size each (two 1s side by side, a row of three
    /// 1s): the names must differ at the roots and agree across the equal-digit edges, so
    /// every labelling is refused; a row 2 2 1 2 2 is solved and accepted.
    #[test]
    fn split_regions_are_refused_under_every_labelling() {
        for clues in [vec![1, 1], vec![1, 1, 1]] {
            let p = Puzzle {
                w: clues.len(),
                h: 1,
                clues,
            };
            let c = p.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 22, "{n}");
            let any = (0u64..(1 << n)).any(|a| {
                let input: Vec<bool> = (0..n).map(|i| (a >> i) & 1 == 1).collect();
                crate::accepts(&c, &input)
            });
            assert!(!any, "{p:?}");
        }
        let q = Puzzle {
            w: 5,
            h: 1,
            clues: vec![2, 2, 1, 2, 2],
        };
        assert_eq!(q.check(&q.initial()), Ok(()));
        let wit = crate::Rules::witness(&q, &q.initial()).unwrap();
        assert!(crate::accepts(&q.circuit().unwrap(), &wit));
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "4e2b8c6d5b68b8b79c9d6a9c99f9a6a63a5c639a6a3a4h9a1a8a32a6b9b5a888a32435b58888d";
        let p = Puzzle::decode("13x9", d).unwrap();
        assert_eq!((p.desc().as_str(), p.params().as_str()), (d, "13x9"));
        // a 0 is an empty square; runs past 26 are z and the rest
        assert_eq!(Puzzle::decode("3x1", "0b").unwrap().desc(), "c");
        assert_eq!(Puzzle::decode("30x1", "zd").unwrap().desc(), "zd");
        // numbers up to '0' + max(w, h, 3): ':' is 10 on a 10-wide grid
        assert_eq!(Puzzle::decode("10x1", ":i").unwrap().clues[0], 10);
        for (params, desc) in [
            ("13x9", &d[..d.len() - 1]),
            ("13x9", &format!("{d}a")[..]),
            ("3x1", "4b"),
            ("3x1", "b!"),
            ("9x1", ":h"),
            ("13x9d", d),
            ("0x9", ""),
            ("41x1", ""),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3x2", "2e").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "1,2_3").unwrap();
        assert_eq!(s.board, vec![2, 3, 3, 0, 0, 0]);
        // strtol with base 0: octal and hexadecimal square numbers
        p.execute_move(&mut s, "03,0x4_1").unwrap();
        assert_eq!(s.board, vec![2, 3, 3, 1, 1, 0]);
        p.execute_move(&mut s, "5_0").unwrap();
        p.execute_move(&mut s, "s221333").unwrap();
        assert_eq!(s.board, vec![2, 2, 1, 3, 3, 3]);
        assert_eq!(p.check(&s), Ok(()));
        // a move may overwrite a given number; the check refuses the result
        p.execute_move(&mut s, "0_1").unwrap();
        assert!(p.check(&s).unwrap_err().contains("given"));
        for bad in [
            "6_1", "1,2", "1_10", "1_", "_1", "1,_1", "1;2_1", "s22133", "s2213334", "s22133a",
            "1_1x", "-1_1",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
    }
}
