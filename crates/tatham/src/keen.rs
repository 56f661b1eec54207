//! Keen (Tatham's `keen.c`, KenKen): fill a `w`×`w` grid with the digits 1 to `w`, each
//! once in every row and column, so that the digits of each cage combine to its clue: the
//! sum (`a`), the product (`m`), or, for a cage of two squares, the difference (`s`) or the
//! quotient (`d`).
//!
//! Formats, as the collection writes them:
//! - PARAMS `W[dD][m]`: the side (3 to 9), a difficulty letter (`e`, `n`, `h`, `x`, `u`) and
//!   `m` for multiplication only; both only steer the generator.
//! - DESC: the block structure, then `,`, then one clue per cage. The block structure walks
//!   the `w(w−1)` internal vertical lines in reading order, then the `w(w−1)` internal
//!   horizontal ones column by column, then one virtual line: `_` is a line after no
//!   non-line, `a`–`x` a line after 1–24 non-lines (squares either side in one cage), and,
//!   as the installed `parse_block_structure` reads them, `y` 25 non-lines without a line
//!   and `z` 26 non-lines and a line; a letter followed by a number `n` stands for `n` copies
//!   of it. The clues follow the cages in the reading order of their first square: a letter
//!   (`a`, `m`, `s`, `d`; `s` and `d` only for two squares) and a decimal value (none is 0).
//! - Moves: `R<x>,<y>,<n>` puts digit `n` (0 empties the square), `P<x>,<y>,<n>` toggles the
//!   pencil mark `n` (`P…,0` empties the square as `R` does), `M` fills in every pencil mark,
//!   and the Solve record `S` and one digit per square in reading order.

use super::parse::{parse_num, place};
use super::{latin, Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// The game's largest side (its `validate_params`).
pub const MAX_W: usize = 9;

/// Clue values at or above this would overwrite the game's operation bits (`CMASK`).
const MAX_CLUE: u64 = 1 << 29;

/// A cage's operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Mul,
    Sub,
    Div,
}

impl Op {
    fn letter(self) -> char {
        match self {
            Op::Add => 'a',
            Op::Mul => 'm',
            Op::Sub => 's',
            Op::Div => 'd',
        }
    }
}

/// A cage: its squares in reading order (the first is the game's canonical one), its
/// operation and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    pub cells: Vec<usize>,
    pub op: Op,
    pub value: u64,
}

/// A decoded Keen puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    /// The cages, in the reading order of their first squares.
    pub cages: Vec<Cage>,
}

/// The squares (0 empty) and the pencil marks (bit `n` for mark `n`), reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<u8>,
    pub pencil: Vec<u16>,
}

/// The two squares either side of internal line `pos` (`parse_block_structure`).
fn line_squares(w: usize, pos: usize) -> (usize, usize) {
    if pos < w * (w - 1) {
        let (y, x) = (pos / (w - 1), pos % (w - 1));
        (y * w + x, y * w + x + 1)
    } else {
        let (x, y) = (pos / (w - 1) - w, pos % (w - 1));
        (y * w + x, (y + 1) * w + x)
    }
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The cage of every square (the smallest square of its cage, as the game's dsf keeps it)
/// from the block structure at the start of `desc`, and the rest of `desc`.
fn parse_blocks(w: usize, desc: &str) -> Result<(Vec<usize>, &str)> {
    let bad = |m: &str| Error::bad(format!("Keen block structure: {m}"));
    let lines = 2 * w * (w - 1);
    let mut parent: Vec<usize> = (0..w * w).collect();
    let b = desc.as_bytes();
    let (mut i, mut pos) = (0usize, 0usize);
    let (mut repc, mut repn) = (0usize, 0usize);
    while i < b.len() && (repn > 0 || b[i] != b',') {
        let c = if repn > 0 {
            repn -= 1;
            repc
        } else if b[i] == b'_' || b[i].is_ascii_lowercase() {
            let c = if b[i] == b'_' {
                0
            } else {
                (b[i] - b'a') as usize + 1
            };
            i += 1;
            let digits = b[i..].iter().take_while(|d| d.is_ascii_digit()).count();
            if digits > 0 {
                if digits > 4 {
                    return Err(bad("a repeat count is too large"));
                }
                let n: usize = desc[i..i + digits].parse().unwrap_or(0);
                repc = c;
                repn = n.saturating_sub(1);
                i += digits;
            }
            c
        } else {
            return Err(bad(&format!("unexpected character at position {}", i + 1)));
        };
        for _ in 0..c {
            if pos >= lines {
                return Err(bad("too much data"));
            }
            let (p0, p1) = line_squares(w, pos);
            let (r0, r1) = (find(&mut parent, p0), find(&mut parent, p1));
            let (lo, hi) = (r0.min(r1), r0.max(r1));
            parent[hi] = lo;
            pos += 1;
        }
        if c != 25 {
            pos += 1;
            if pos > lines + 1 {
                return Err(bad("too much data"));
            }
        }
    }
    if pos != lines + 1 {
        return Err(bad("not enough data"));
    }
    let root: Vec<usize> = (0..w * w).map(|s| find(&mut parent, s)).collect();
    Ok((root, &desc[i..]))
}

/// The block structure of `root` as `encode_block_structure` writes it.
fn encode_blocks(w: usize, root: &[usize]) -> String {
    let lines = 2 * w * (w - 1);
    let mut raw = Vec::new();
    let mut run = 0usize;
    for pos in 0..=lines {
        let edge = pos == lines || {
            let (p0, p1) = line_squares(w, pos);
            root[p0] != root[p1]
        };
        if edge {
            while run > 25 {
                raw.push(b'z');
                run -= 25;
            }
            raw.push(if run > 0 { b'a' - 1 + run as u8 } else { b'_' });
            run = 0;
        } else {
            run += 1;
        }
    }
    let mut out = String::new();
    let mut k = 0;
    while k < raw.len() {
        let c = raw[k];
        let n = raw[k..].iter().take_while(|&&x| x == c).count();
        out.push(c as char);
        if n == 2 {
            out.push(c as char);
        } else if n > 2 {
            out.push_str(&n.to_string());
        }
        k += n;
    }
    out
}

/// What the game's `check_errors` computes for a cage's digits (in reading order): the sum,
/// the product, the difference, or the exact quotient (0 when it is not whole).
pub fn combine(op: Op, digits: &[u64]) -> u64 {
    let mut v = digits[0];
    for &d in &digits[1..] {
        v = match op {
            Op::Add => v + d,
            Op::Mul => v * d,
            Op::Sub => v.abs_diff(d),
            Op::Div => {
                let (lo, hi) = (v.min(d), v.max(d));
                if lo == 0 || hi % lo != 0 {
                    0
                } else {
                    hi / lo
                }
            }
        };
    }
    v
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// do (strictly: nothing after the `m`).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let short = super::parse::short;
        let bad = || {
            Error::bad(format!(
                "Keen parameters {:?} are not of the form W[dD][m]",
                short(params)
            ))
        };
        let digits = params.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 2 {
            return Err(bad());
        }
        let w: usize = params[..digits].parse().map_err(|_| bad())?;
        let mut rest = &params[digits..];
        if let Some(r) = rest.strip_prefix('d') {
            match r.chars().next() {
                Some('e' | 'n' | 'h' | 'x' | 'u') => rest = &r[1..],
                _ => {
                    return Err(Error::bad(format!(
                        "Keen parameters {:?} have an unknown difficulty (e, n, h, x or u)",
                        short(params)
                    )))
                }
            }
        }
        if !matches!(rest, "" | "m") {
            return Err(bad());
        }
        if !(3..=MAX_W).contains(&w) {
            return Err(Error::bad(format!(
                "Keen grid size {w} is outside 3 to {MAX_W}"
            )));
        }
        let (root, rest) = parse_blocks(w, desc)?;
        let mut clues = rest
            .strip_prefix(',')
            .ok_or_else(|| Error::bad("Keen description has no ',' after the block structure"))?;
        let mut cages = Vec::new();
        for s in 0..w * w {
            if root[s] != s {
                continue;
            }
            let cells: Vec<usize> = (s..w * w).filter(|&t| root[t] == s).collect();
            let op = match clues.chars().next() {
                Some('a') => Op::Add,
                Some('m') => Op::Mul,
                Some('s') => Op::Sub,
                Some('d') => Op::Div,
                None => return Err(Error::bad("Keen description has too few clues")),
                Some(_) => return Err(Error::bad("Keen description has an unknown clue type")),
            };
            if matches!(op, Op::Sub | Op::Div) && cells.len() != 2 {
                return Err(Error::bad(
                    "Keen subtraction and division cages must have two squares",
                ));
            }
            clues = &clues[1..];
            let n = clues.bytes().take_while(u8::is_ascii_digit).count();
            let value = if n == 0 {
                0
            } else if n > 9 {
                MAX_CLUE
            } else {
                clues[..n].parse::<u64>().unwrap_or(MAX_CLUE)
            };
            if value >= MAX_CLUE {
                return Err(Error::bad(format!(
                    "Keen clue at {} is too large",
                    place(s % w, s / w)
                )));
            }
            clues = &clues[n..];
            cages.push(Cage { cells, op, value });
        }
        if !clues.is_empty() {
            return Err(Error::bad("Keen description has too many clues"));
        }
        let p = Puzzle { w, cages };
        // one valid encoding: the canonical block structure must read back the same cages
        // (the installed reader's `y` and `z` differ from its writer's)
        let canonical = encode_blocks(w, &p.roots());
        match parse_blocks(w, &format!("{canonical},")) {
            Ok((again, ",")) if again == root => Ok(p),
            _ => Err(Error::bad(
                "Keen block structure has a run of 25 or more cage-internal lines, which the \
                 game cannot write back",
            )),
        }
    }

    /// The cage root (first square) of every square.
    fn roots(&self) -> Vec<usize> {
        let mut root = vec![0; self.w * self.w];
        for c in &self.cages {
            for &s in &c.cells {
                root[s] = c.cells[0];
            }
        }
        root
    }

    /// The canonical parameters (`W`), what the game ID names.
    pub fn params(&self) -> String {
        self.w.to_string()
    }

    /// The canonical description, as `new_game_desc` encodes it.
    pub fn desc(&self) -> String {
        let mut out = encode_blocks(self.w, &self.roots());
        out.push(',');
        for c in &self.cages {
            out.push(c.op.letter());
            out.push_str(&c.value.to_string());
        }
        out
    }

    /// The starting position: every square empty.
    pub fn initial(&self) -> State {
        State {
            grid: vec![0; self.w * self.w],
            pencil: vec![0; self.w * self.w],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let (w, a) = (self.w, self.w * self.w);
        let bad = |why: &str| super::bad_move("Keen", mv, why);
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
                let parsed = (|| {
                    let (x, r) = parse_num(&mv[1..])?;
                    let (y, r) = parse_num(r.strip_prefix(',')?)?;
                    let (n, _) = parse_num(r.strip_prefix(',')?)?;
                    Some((x, y, n))
                })();
                let (x, y, n) = parsed.ok_or_else(|| bad("expected x,y,n"))?;
                if x >= w || y >= w || n > w {
                    return Err(bad("a square outside the grid or a digit above the size"));
                }
                let i = y * w + x;
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
            _ => Err(bad("not an R, P, M or S move")),
        }
    }

    /// The completion check (`check_errors` finding nothing): every square filled, each
    /// digit once in every row and column, every cage's digits combining to its clue.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let w = self.w;
        let name = |i: usize| place(i % w, i / w);
        if let Some(i) = state.grid.iter().position(|&g| g == 0) {
            return Err(format!("square {} is empty", name(i)));
        }
        latin::check(&state.grid, w, "digits")?;
        for c in &self.cages {
            let digits: Vec<u64> = c.cells.iter().map(|&i| state.grid[i] as u64).collect();
            let got = combine(c.op, &digits);
            if got != c.value {
                let what = match c.op {
                    Op::Add => "sum",
                    Op::Mul => "product",
                    Op::Sub => "difference",
                    Op::Div => "quotient",
                };
                return Err(format!(
                    "the cage at {} needs the {what} {}, its digits give {got}",
                    name(c.cells[0]),
                    c.value
                ));
            }
        }
        Ok(())
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: per square in reading order its digit minus one in index_bits(w) bits, decoded
// one-hot (an index ≥ w decodes to no digit); the Latin constraints of `latin` (each digit
// once per row and column, so every square holds exactly one digit). Per cage:
// - one square: `¬onehot[value − 1]` (constant 1 when the value is not a digit);
// - two squares `a`, `b` (any operation): the public table of the pairs the game accepts,
//   `S_v = {u : combine(op, v + 1, u + 1) = value}`; violation `¬XOR_v (a[v] ∧ XOR_{u∈S_v}
//   b[u])`, one AND per `v` with `S_v` non-empty;
// - three squares or more, `a`: the digits' binary values (linear in the one-hot bits) summed
//   by ripple adders of `⌈log2(9k + 1)⌉` bits, the sum's bits XOR the value;
// - three or more, `m`: per prime `p ≤ w` of 2, 3, 5, 7 (every digit's primes), the
//   exponent of `p` in each digit (linear); when the value has no factor `p`, every bit of
//   a digit divisible by `p` is a violation, else the exponents are summed as above against
//   the value's exponent; a value 0 or with a prime factor above 7 is the constant 1.

/// The primes of the digits 1 to 9.
const PRIMES: [u64; 4] = [2, 3, 5, 7];

fn exponent(mut n: u64, p: u64) -> u64 {
    let mut e = 0;
    while n > 0 && n.is_multiple_of(p) {
        n /= p;
        e += 1;
    }
    e
}

/// The binary form of a one-hot value (`onehot[v]` for `value(v)`), `width` bits: linear.
fn binary(b: &mut Builder, onehot: &[Bit], value: impl Fn(usize) -> u64, width: usize) -> Vec<Bit> {
    let mut out = vec![Bit::Const(false); width];
    for (v, &x) in onehot.iter().enumerate() {
        let n = value(v);
        for (t, o) in out.iter_mut().enumerate() {
            if (n >> t) & 1 == 1 {
                *o = b.xor(*o, x);
            }
        }
    }
    out
}

/// Violation bits: the words' sum (each word at most `each`) differs from `target`.
fn sum_is(b: &mut Builder, words: &[Vec<Bit>], each: u64, target: u64) {
    let max = each * words.len() as u64;
    if target > max {
        b.output(Bit::Const(true));
        return;
    }
    let width = super::bits_for(max as usize + 1);
    let pad = |w: &Vec<Bit>| {
        let mut w = w.clone();
        w.resize(width, Bit::Const(false));
        w
    };
    let mut acc = pad(&words[0]);
    for w in &words[1..] {
        acc = b.add(&acc, &pad(w));
    }
    for (t, &x) in acc.iter().enumerate() {
        let v = b.xor(x, Bit::Const((target >> t) & 1 == 1));
        b.output(v);
    }
}

/// The violation bits of one cage over the squares' one-hot digits (`w` bits each).
pub fn cage_constraint(b: &mut Builder, cage: &Cage, onehot: &[Vec<Bit>], w: usize) {
    let cells = &cage.cells;
    match cells.len() {
        1 => {
            let ok = if (1..=w as u64).contains(&cage.value) {
                onehot[cells[0]][cage.value as usize - 1]
            } else {
                Bit::Const(false)
            };
            let v = b.not(ok);
            b.output(v);
        }
        2 => {
            let (a, c) = (&onehot[cells[0]], &onehot[cells[1]]);
            let mut ok = Bit::Const(false);
            for (v, &av) in a.iter().enumerate().take(w) {
                let mut partner = Bit::Const(false);
                for (u, &x) in c.iter().enumerate() {
                    if combine(cage.op, &[v as u64 + 1, u as u64 + 1]) == cage.value {
                        partner = b.xor(partner, x);
                    }
                }
                let t = b.and(av, partner);
                ok = b.xor(ok, t);
            }
            let v = b.not(ok);
            b.output(v);
        }
        _ => match cage.op {
            Op::Add => {
                let width = super::bits_for(w + 1);
                let words: Vec<Vec<Bit>> = cells
                    .iter()
                    .map(|&i| binary(b, &onehot[i], |v| v as u64 + 1, width))
                    .collect();
                sum_is(b, &words, w as u64, cage.value);
            }
            Op::Mul => {
                let mut rest = cage.value;
                for p in PRIMES {
                    rest /= p.pow(exponent(rest, p) as u32);
                }
                if cage.value == 0 || rest != 1 {
                    b.output(Bit::Const(true));
                    return;
                }
                for p in PRIMES.into_iter().filter(|&p| p <= w as u64) {
                    let target = exponent(cage.value, p);
                    let each = (1..=w as u64).map(|d| exponent(d, p)).max().unwrap_or(0);
                    if target == 0 {
                        for &i in cells {
                            for (v, &x) in onehot[i].iter().enumerate() {
                                if exponent(v as u64 + 1, p) > 0 {
                                    b.output(x);
                                }
                            }
                        }
                        continue;
                    }
                    let width = super::bits_for(each as usize + 1);
                    let words: Vec<Vec<Bit>> = cells
                        .iter()
                        .map(|&i| binary(b, &onehot[i], |v| exponent(v as u64 + 1, p), width))
                        .collect();
                    sum_is(b, &words, each, target);
                }
                // a prime above w cannot divide a digit: its exponent must be 0
                if PRIMES
                    .iter()
                    .any(|&p| p > w as u64 && exponent(cage.value, p) > 0)
                {
                    b.output(Bit::Const(true));
                }
            }
            // the decoder refuses subtraction and division cages of other sizes
            Op::Sub | Op::Div => b.output(Bit::Const(true)),
        },
    }
}

pub const GAME: Game = Game {
    name: "Keen",
    default_params: "6dn",
    larger_params: "9dn",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/keen.sav"),
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
        let given = vec![0u8; w * w];
        let mut b = Builder::new(w * w * latin::bits(w));
        let onehot = latin::one_hot(&mut b, &given, w);
        latin::constraints(&mut b, &onehot, &given, w);
        for c in &self.cages {
            cage_constraint(&mut b, c, &onehot, w);
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
        let mut out = Vec::with_capacity(state.grid.len() * bits);
        for &g in &state.grid {
            super::push_bits(&mut out, g as usize - 1, bits);
        }
        Ok(out)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        let mut out = state.grid.clone();
        for p in &state.pencil {
            out.extend_from_slice(&p.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of 3×3 grids with several cage layouts: the circuit accepts exactly
    /// the fillings the game's rule accepts (an index past the digits is an empty square).
    #[test]
    fn tiny_keen_exhaustive() {
        let cage = |cells: &[usize], op: Op, value: u64| Cage {
            cells: cells.to_vec(),
            op,
            value,
        };
        let cases = [
            // rows as cages: sums 6 everywhere, every Latin square
            vec![
                cage(&[0, 1, 2], Op::Add, 6),
                cage(&[3, 4, 5], Op::Add, 6),
                cage(&[6, 7, 8], Op::Add, 6),
            ],
            vec![
                cage(&[0, 1, 3], Op::Mul, 6),
                cage(&[2, 5], Op::Sub, 1),
                cage(&[4], Op::Add, 3),
                cage(&[6, 7], Op::Div, 2),
                cage(&[8], Op::Mul, 1),
            ],
            vec![
                cage(&[0, 1], Op::Add, 3),
                cage(&[2, 5, 8], Op::Mul, 6),
                cage(&[3, 6], Op::Sub, 2),
                cage(&[4, 7], Op::Div, 3),
            ],
            vec![
                cage(&[0, 3, 6], Op::Mul, 4),
                cage(&[1, 2], Op::Div, 0),
                cage(&[4, 5, 7, 8], Op::Add, 8),
            ],
        ];
        for cages in cases {
            let p = Puzzle { w: 3, cages };
            let c = p.circuit().unwrap();
            let n = 9 * latin::bits(3);
            assert_eq!(c.n_inputs(), n);
            let accepted = crate::accepted_prefixes(&c, n);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << n) {
                let mut s = p.initial();
                for i in 0..9 {
                    let v = ((a >> (2 * i)) & 3) as u8;
                    s.grid[i] = if v < 3 { v + 1 } else { 0 };
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
            assert!(truth.len() < 1 << n, "{p:?}");
        }
    }

    /// One cage alone on larger digits: for every operation, cage size (1 to 4) and digit
    /// tuple of 1 to 9 (one-hot inputs), and many values, the cage's violation bits are all
    /// 0 exactly when the game's combination gives the value.
    #[test]
    fn cages_against_the_rule() {
        let w = 9usize;
        for k in 1..=4usize {
            for op in [Op::Add, Op::Mul, Op::Sub, Op::Div] {
                if matches!(op, Op::Sub | Op::Div) && k != 2 {
                    continue;
                }
                let tuples = w.pow(k as u32);
                let mut values: Vec<u64> = (0..tuples)
                    .map(|t| {
                        let d: Vec<u64> = (0..k)
                            .map(|j| (t / w.pow(j as u32) % w) as u64 + 1)
                            .collect();
                        combine(op, &d)
                    })
                    .collect();
                values.extend([0, 11, 13, 22, 1000, 999_999]);
                values.sort();
                values.dedup();
                for &value in values.iter().step_by(1 + values.len() / 40) {
                    let cage = Cage {
                        cells: (0..k).collect(),
                        op,
                        value,
                    };
                    let mut b = Builder::new(k * w);
                    let onehot: Vec<Vec<Bit>> = (0..k).map(|j| b.input_word(j * w, w)).collect();
                    cage_constraint(&mut b, &cage, &onehot, w);
                    let c = b.finish();
                    for t in 0..tuples {
                        let d: Vec<u64> = (0..k)
                            .map(|j| (t / w.pow(j as u32) % w) as u64 + 1)
                            .collect();
                        let mut input = vec![false; k * w];
                        for (j, &x) in d.iter().enumerate() {
                            input[j * w + x as usize - 1] = true;
                        }
                        let ok = crate::accepts(&c, &input);
                        assert_eq!(ok, combine(op, &d) == value, "{op:?} {d:?} {value}");
                    }
                }
            }
        }
    }

    /// The AND gates of a product cage of `k` squares by binary multiplication (shift and add
    /// of the digits' 4-bit values, exact widths) and compared with the value.
    fn binary_product_ands(k: usize, w: usize, value: u64) -> usize {
        let mut b = Builder::new(k * w);
        let onehot: Vec<Vec<Bit>> = (0..k).map(|j| b.input_word(j * w, w)).collect();
        let digits: Vec<Vec<Bit>> = onehot
            .iter()
            .map(|o| binary(&mut b, o, |v| v as u64 + 1, 4))
            .collect();
        let mut acc = digits[0].clone();
        for d in &digits[1..] {
            let width = acc.len() + 4;
            let mut sum = vec![Bit::Const(false); width];
            for (j, &bit) in d.iter().enumerate() {
                let mut row = vec![Bit::Const(false); width];
                for (i, &a) in acc.iter().enumerate() {
                    row[i + j] = b.and(bit, a);
                }
                sum = b.add(&sum, &row);
            }
            acc = sum;
        }
        for (t, &x) in acc.iter().enumerate() {
            let v = b.xor(x, Bit::Const((value >> t) & 1 == 1));
            b.output(v);
        }
        b.and_count()
    }

    /// Products: the prime-exponent sums cost fewer ANDs than binary multiplication for
    /// every cage size the generator makes (3 to 6 squares), at 6 and 9 digits.
    #[test]
    fn prime_exponents_beat_binary_products() {
        for w in [6usize, 9] {
            for k in 3..=6usize {
                let value = 2 * 3 * 5 * 4;
                let cage = Cage {
                    cells: (0..k).collect(),
                    op: Op::Mul,
                    value,
                };
                let mut b = Builder::new(k * w);
                let onehot: Vec<Vec<Bit>> = (0..k).map(|j| b.input_word(j * w, w)).collect();
                cage_constraint(&mut b, &cage, &onehot, w);
                let ours = b.and_count();
                let binary = binary_product_ands(k, w, value);
                eprintln!("w {w}, {k} squares: exponents {ours} ANDs, binary {binary}");
                assert!(ours < binary, "{w} {k}: {ours} vs {binary}");
            }
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "__a_4a__a_6a_a_bcca__aa_3a3_a3,m90s3d2m30d2a6a7s1d2a10s3m144m5a11";
        let p = Puzzle::decode("6dn", d).unwrap();
        assert_eq!(p.desc(), d);
        assert_eq!(p.params(), "6");
        assert_eq!(p.cages.len(), 14);
        assert_eq!(p.cages[0].op, Op::Mul);
        assert_eq!(p.cages[0].value, 90);
        assert!(p.cages.iter().all(|c| c.cells.len() <= 6));
        assert_eq!(p.cages.iter().map(|c| c.cells.len()).sum::<usize>(), 36);
        assert_eq!(Puzzle::decode("6dnm", d).unwrap().desc(), d);
        // one 3x3 cage of everything: 12 lines all non-lines, then the virtual line
        let all = Puzzle::decode("3", "l,a18").unwrap();
        assert_eq!(all.cages.len(), 1);
        assert_eq!(all.desc(), "l,a18");
        for (params, desc) in [
            (
                "6",
                "__a_4a__a_6a_a_bcca__aa_3a3_a3,m90s3d2m30d2a6a7s1d2a10s3m144m5",
            ),
            (
                "6",
                "__a_4a__a_6a_a_bcca__aa_3a3_a3,m90s3d2m30d2a6a7s1d2a10s3m144m5a11a1",
            ),
            (
                "6",
                "__a_4a__a_6a_a_bcca__aa_3a3_a3,m90s3d2m30d2a6a7s1d2a10s3m144m5x11",
            ),
            (
                "6",
                "__a_4a__a_6a_a_bcca__aa_3a3_a2,m90s3d2m30d2a6a7s1d2a10s3m144m5a11",
            ),
            (
                "6",
                "__a_4a__a_6a_a_bcca__aa_3a3_a4,m90s3d2m30d2a6a7s1d2a10s3m144m5a11",
            ),
            ("6", "__a_4a__a_6a_a_bcca__aa_3a3_a3"),
            ("6", "__a_4a__a_6a_a_bcca__aa_3a3_a3!,m90"),
            ("3", "l,s18"),
            ("3", "l,a9999999999"),
            ("10", "l,a1"),
            ("2", "_,a1"),
            ("6dq", d),
            ("6d", d),
            ("6x", d),
            ("", d),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3", "l,a18").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "P0,0,3").unwrap();
        assert_eq!(s.pencil[0], 1 << 3);
        p.execute_move(&mut s, "R0,0,1").unwrap();
        assert_eq!((s.grid[0], s.pencil[0]), (1, 0));
        p.execute_move(&mut s, "P0,0,0").unwrap();
        assert_eq!(s.grid[0], 0);
        p.execute_move(&mut s, "M").unwrap();
        assert_eq!(s.pencil[0], 0b1110);
        for bad in [
            "R3,0,1",
            "R0,0,4",
            "R0,0",
            "Q",
            "S12323131",
            "S1232313120",
            "S123231314",
            "",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
        assert_eq!(p.check(&s).unwrap_err(), "square a1 is empty");
        p.execute_move(&mut s, "S123231312").unwrap();
        assert_eq!(p.check(&s), Ok(()));
        p.execute_move(&mut s, "R0,0,2").unwrap();
        assert!(p.check(&s).unwrap_err().contains("two digits"));
    }
}
