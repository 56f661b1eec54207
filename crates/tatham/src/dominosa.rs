//! Dominosa (Tatham's `dominosa.c`): tile the grid of numbers with dominoes so that every
//! domino of the set 0–0 … N–N appears exactly once.
//!
//! Formats, as the collection writes them:
//! - PARAMS `N[a][dD]`: the highest number (at least 1); the grid is `(N+2)×(N+1)`; `a`
//!   (the older "ambiguous" flag) and the difficulty (`t`, `b`, `h`, `e`, `a`) only steer
//!   the generator.
//! - DESC: the numbers in reading order, `0`–`9` one digit, `[k]` any number; each number
//!   appears `N+2` times.
//! - Moves: `;`-separated items, `Dd1,d2` (toggle a domino on squares `d1 < d2`, numbered in
//!   reading order; a domino overlapping it goes, and so do the barriers round it),
//!   `Ed1,d2` (toggle a barrier between two squares without dominoes) and `S` (the Solve
//!   record's prefix: clear everything). The game's interface only ever names two
//!   neighbouring squares; zkgames refuses `D` and `E` between squares that are not (the
//!   game would place such a domino, or index past its grid for such a barrier).

use super::parse::{parse_num, place, short};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// Largest `N` accepted: a grid of 32×31 squares.
pub const MAX_N: usize = 30;

const EDGE_L: u16 = 0x100;
const EDGE_R: u16 = 0x200;
const EDGE_T: u16 = 0x400;
const EDGE_B: u16 = 0x800;

/// A decoded Dominosa puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The highest number.
    pub n: usize,
    /// The numbers, reading order, `(n + 2) × (n + 1)`.
    pub numbers: Vec<usize>,
}

/// Each square's partner (itself when it has no domino) and its barrier flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<usize>,
    pub edges: Vec<u16>,
}

/// The index of domino `a`–`b` (`DINDEX`).
fn dindex(a: usize, b: usize) -> usize {
    let (lo, hi) = (a.min(b), a.max(b));
    hi * (hi + 1) / 2 + lo
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc` do,
    /// strictly: the number, then optionally `a` and a difficulty `dX`.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let bad = || {
            Error::bad(format!(
                "Dominosa parameters {:?} are not of the form N[a][dX]",
                short(params)
            ))
        };
        let (n, mut rest) = parse_num(params).ok_or_else(bad)?;
        if let Some(r) = rest.strip_prefix('a') {
            rest = r;
        }
        if let Some(r) = rest.strip_prefix('d') {
            if !matches!(r, "t" | "b" | "h" | "e" | "a") {
                return Err(Error::bad(format!(
                    "Dominosa parameters {:?} have an unknown difficulty (t, b, h, e or a)",
                    short(params)
                )));
            }
        } else if !rest.is_empty() {
            return Err(bad());
        }
        if n < 1 {
            return Err(Error::bad("Dominosa's highest number must be at least 1"));
        }
        if n > MAX_N {
            return Err(Error::bad(format!(
                "Dominosa {n} is outside the supported sizes (at most {MAX_N})"
            )));
        }
        let wh = (n + 2) * (n + 1);
        let mut numbers = Vec::with_capacity(wh);
        let d = desc.as_bytes();
        let mut at = 0;
        while at < d.len() {
            if numbers.len() == wh {
                return Err(Error::bad("Dominosa description is too long"));
            }
            let k = match d[at] {
                c @ b'0'..=b'9' => {
                    at += 1;
                    (c - b'0') as usize
                }
                b'[' => {
                    let (k, r) = parse_num(&desc[at + 1..])
                        .ok_or_else(|| Error::bad("Dominosa description has a bad [number]"))?;
                    let r = r
                        .strip_prefix(']')
                        .ok_or_else(|| Error::bad("Dominosa description misses a ']'"))?;
                    at = d.len() - r.len();
                    k
                }
                _ => return Err(Error::bad("Dominosa description has invalid syntax")),
            };
            if k > n {
                return Err(Error::bad(format!(
                    "Dominosa description has the number {k}, above {n}"
                )));
            }
            numbers.push(k);
        }
        if numbers.len() < wh {
            return Err(Error::bad("Dominosa description is too short"));
        }
        for v in 0..=n {
            if numbers.iter().filter(|&&k| k == v).count() != n + 2 {
                return Err(Error::bad(format!(
                    "Dominosa description does not have each number {} times",
                    n + 2
                )));
            }
        }
        Ok(Puzzle { n, numbers })
    }

    pub fn w(&self) -> usize {
        self.n + 2
    }

    pub fn h(&self) -> usize {
        self.n + 1
    }

    /// The canonical parameters (`N`).
    pub fn params(&self) -> String {
        self.n.to_string()
    }

    /// The canonical description, as `new_game_desc` writes it.
    pub fn desc(&self) -> String {
        self.numbers
            .iter()
            .map(|&k| {
                if k < 10 {
                    ((b'0' + k as u8) as char).to_string()
                } else {
                    format!("[{k}]")
                }
            })
            .collect()
    }

    /// The starting position: no dominoes, no barriers.
    pub fn initial(&self) -> State {
        let wh = self.numbers.len();
        State {
            grid: (0..wh).collect(),
            edges: vec![0; wh],
        }
    }

    /// Whether squares `a < b` are neighbours in a row or a column.
    fn neighbours(&self, a: usize, b: usize) -> bool {
        let w = self.w();
        (b == a + 1 && a % w + 1 < w) || b == a + w
    }

    /// Removes the barriers of square `d` and their other halves.
    fn clear_edges(&self, s: &mut State, d: usize) {
        let w = self.w();
        let e = s.edges[d];
        let off = |i: Option<usize>, f: u16, s: &mut State| {
            if let Some(j) = i.filter(|&j| j < s.edges.len()) {
                s.edges[j] &= !f;
            }
        };
        if e & EDGE_L != 0 {
            off(d.checked_sub(1), EDGE_R, s);
        }
        if e & EDGE_R != 0 {
            off(Some(d + 1), EDGE_L, s);
        }
        if e & EDGE_T != 0 {
            off(d.checked_sub(w), EDGE_B, s);
        }
        if e & EDGE_B != 0 {
            off(Some(d + w), EDGE_T, s);
        }
        s.edges[d] = 0;
    }

    /// Applies one move record as `execute_move` does (all of it or nothing).
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Dominosa", mv, why);
        let wh = self.numbers.len();
        let mut s = state.clone();
        let mut rest = mv;
        // the squares written since the last `S` (`None`: maybe all), so that a record of
        // many `S` items costs its length, not its length times the grid
        let mut dirty: Option<Vec<usize>> = None;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix('S') {
                match dirty.take() {
                    None => s = self.initial(),
                    Some(d) => {
                        for i in d {
                            s.grid[i] = i;
                            s.edges[i] = 0;
                        }
                    }
                }
                dirty = Some(Vec::new());
                rest = r;
            } else if let Some(r) = rest.strip_prefix(['D', 'E']) {
                let domino = rest.starts_with('D');
                let parsed = parse_num(r).and_then(|(a, r)| {
                    let (b, r) = parse_num(r.strip_prefix(',')?)?;
                    Some((a, b, r))
                });
                let (d1, d2, r) = parsed.ok_or_else(|| bad("expected D or E, then d1,d2"))?;
                if d1 >= wh || d2 >= wh || d1 >= d2 {
                    return Err(bad("squares outside the grid or out of order"));
                }
                if !self.neighbours(d1, d2) {
                    return Err(bad("the two squares are not neighbours"));
                }
                if let Some(d) = dirty.as_mut() {
                    // the squares, their partners and their neighbours (barrier halves)
                    let w = self.w();
                    for x in [d1, d2, s.grid[d1], s.grid[d2]] {
                        d.extend(
                            [
                                Some(x),
                                x.checked_sub(1),
                                Some(x + 1),
                                x.checked_sub(w),
                                Some(x + w),
                            ]
                            .into_iter()
                            .flatten()
                            .filter(|&i| i < wh),
                        );
                    }
                }
                if domino {
                    if s.grid[d1] == d2 {
                        s.grid[d1] = d1;
                        s.grid[d2] = d2;
                    } else {
                        for d in [d1, d2] {
                            let other = s.grid[d];
                            s.grid[other] = other;
                        }
                        s.grid[d1] = d2;
                        s.grid[d2] = d1;
                        self.clear_edges(&mut s, d1);
                        self.clear_edges(&mut s, d2);
                    }
                } else {
                    if s.grid[d1] != d1 || s.grid[d2] != d2 {
                        return Err(bad("a barrier next to a domino"));
                    }
                    if d2 == d1 + 1 {
                        s.edges[d1] ^= EDGE_R;
                        s.edges[d2] ^= EDGE_L;
                    } else {
                        s.edges[d1] ^= EDGE_B;
                        s.edges[d2] ^= EDGE_T;
                    }
                }
                rest = r;
            } else {
                return Err(bad("not an S, D or E item"));
            }
            if let Some(r) = rest.strip_prefix(';') {
                rest = r;
            } else if !rest.is_empty() {
                return Err(bad("expected ';' between items"));
            }
        }
        *state = s;
        Ok(())
    }

    fn name(&self, i: usize) -> String {
        place(i % self.w(), i / self.w())
    }

    /// The completion check: every domino of the set placed (the game counts the distinct
    /// dominoes on the grid, which reach `(N+1)(N+2)/2` exactly when every square is covered
    /// and no domino repeats).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let mut first = vec![usize::MAX; dindex(self.n, self.n) + 1];
        for i in 0..state.grid.len() {
            let j = state.grid[i];
            if j <= i {
                continue;
            }
            let d = dindex(self.numbers[i], self.numbers[j]);
            if first[d] != usize::MAX {
                let (a, b) = (
                    self.numbers[i].min(self.numbers[j]),
                    self.numbers[i].max(self.numbers[j]),
                );
                return Err(format!(
                    "the domino {a}-{b} is placed twice (at {} and {})",
                    self.name(first[d]),
                    self.name(i)
                ));
            }
            first[d] = i;
        }
        if let Some(i) = (0..state.grid.len()).find(|&i| state.grid[i] == i) {
            return Err(format!("square {} is not covered", self.name(i)));
        }
        Ok(())
    }

    /// The candidate domino places: per square in reading order, its right then its lower
    /// neighbour.
    pub fn places(&self) -> Vec<(usize, usize)> {
        let (w, h) = (self.w(), self.h());
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if x + 1 < w {
                    out.push((i, i + 1));
                }
                if y + 1 < h {
                    out.push((i, i + w));
                }
            }
        }
        out
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per candidate place (`Puzzle::places`), 1 where a domino lies. Checks:
// every square is covered by exactly one of its places, and every domino of the set lies
// on exactly one of the places carrying its two numbers (each by `one_hot_check`: the
// "two or more" bits and the negated parity).

pub const GAME: Game = Game {
    name: "Dominosa",
    default_params: "6db",
    larger_params: "9db",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/dominosa.sav"),
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
        let places = self.places();
        let mut b = Builder::new(places.len());
        let wh = self.numbers.len();
        let mut at_square: Vec<Vec<Bit>> = vec![Vec::new(); wh];
        let mut of_domino: Vec<Vec<Bit>> = vec![Vec::new(); dindex(self.n, self.n) + 1];
        for (k, &(i, j)) in places.iter().enumerate() {
            let x = b.input(k);
            at_square[i].push(x);
            at_square[j].push(x);
            of_domino[dindex(self.numbers[i], self.numbers[j])].push(x);
        }
        for bits in at_square.iter().chain(&of_domino) {
            let (two, parity) = b.one_hot_check(bits);
            for t in two {
                b.output(t);
            }
            let none = b.not(parity);
            b.output(none);
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
            .places()
            .iter()
            .map(|&(i, j)| state.grid[i] == j)
            .collect())
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        let mut out = Vec::new();
        for (&g, &e) in state.grid.iter().zip(&state.edges) {
            out.extend_from_slice(&(g as u32).to_le_bytes());
            out.extend_from_slice(&e.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of the two smallest sizes: the circuit accepts exactly the placements
    /// that are tilings the game's check accepts.
    #[test]
    fn tiny_dominosa_exhaustive() {
        for (params, desc) in [
            ("1", "001101"),
            ("1", "010101"),
            ("2", "001102221201"),
            ("2", "012012012012"),
        ] {
            let p = Puzzle::decode(params, desc).unwrap();
            let c = p.circuit().unwrap();
            let places = p.places();
            assert_eq!(c.n_inputs(), places.len());
            let accepted = crate::accepted_prefixes(&c, places.len());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << places.len()) {
                let mut s = p.initial();
                let mut matching = true;
                for (k, &(i, j)) in places.iter().enumerate() {
                    if (a >> k) & 1 == 1 {
                        matching &= s.grid[i] == i && s.grid[j] == j;
                        s.grid[i] = j;
                        s.grid[j] = i;
                    }
                }
                if matching && p.check(&s).is_ok() {
                    truth.insert(a);
                    let pos = crate::Play {
                        puzzle: &p,
                        state: s,
                    };
                    assert!(crate::accepts(&c, &pos.witness().unwrap()));
                }
            }
            assert_eq!(accepted, truth, "{params}:{desc}");
            assert!(truth.len() < 1 << places.len());
        }
        // 0 0 1 / 1 0 1 has a tiling (0-1, 0-0 and 1-1 upright)
        let p = Puzzle::decode("1", "001101").unwrap();
        let c = p.circuit().unwrap();
        assert!(!crate::accepted_prefixes(&c, c.n_inputs()).is_empty());
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let h = super::super::save::parse_header(GAME.sample.as_bytes()).unwrap();
        let p = Puzzle::decode(&h.params, &h.desc).unwrap();
        assert_eq!(p.desc(), h.desc);
        assert_eq!(p.params(), "6");
        assert_eq!(
            Puzzle::decode("1da", "0[0]1[1]01").unwrap().desc(),
            "001101"
        );
        for (params, desc) in [
            ("1", "00110"),
            ("1", "0011011"),
            ("1", "001102"),
            ("1", "000011"),
            ("1", "0011[01"),
            ("1", "0011x1"),
            ("0", ""),
            ("1dq", "001101"),
            ("1x", "001101"),
            ("31", "0"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
        let big = Puzzle::decode(
            "10",
            &(0..12 * 11)
                .map(|i| {
                    let k = i % 11;
                    if k < 10 {
                        k.to_string()
                    } else {
                        "[10]".into()
                    }
                })
                .collect::<String>(),
        )
        .unwrap();
        assert!(big.desc().contains("[10]"));
    }

    #[test]
    fn moves_are_the_games() {
        // 0 0 1
        // 1 0 1
        let p = Puzzle::decode("1", "001101").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "E0,3;E1,2").unwrap();
        assert_eq!(s.edges[0], EDGE_B);
        assert_eq!(s.edges[1], EDGE_R);
        // a domino clears the barriers round it, and displaces an overlapping one
        p.execute_move(&mut s, "D0,1").unwrap();
        assert_eq!(s.edges[..3], [0, 0, 0]);
        assert_eq!(s.edges[3], 0);
        p.execute_move(&mut s, "D1,4").unwrap();
        assert_eq!(s.grid[0], 0);
        assert_eq!(s.grid[1], 4);
        // 0-0 at a1-b1 is gone; place 0-1 twice: refused by the check
        p.execute_move(&mut s, "D0,3;D2,5").unwrap();
        assert_eq!(p.check(&s), Ok(()));
        p.execute_move(&mut s, "D2,5").unwrap();
        assert_eq!(p.check(&s).unwrap_err(), "square c1 is not covered");
        let before = s.clone();
        for bad in [
            "D2,3",
            "D0,2",
            "D5,2",
            "D2,6",
            "E0,1;E0,3",
            "E2,5;X",
            "D2,5,",
            "D2",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
            assert_eq!(s, before, "{bad}");
        }
        p.execute_move(&mut s, "S;D0,3;D1,2;D4,5").unwrap();
        assert!(p.check(&s).unwrap_err().contains("placed twice"));
        p.execute_move(&mut s, "S").unwrap();
        assert_eq!(s, p.initial());
        // S clears whatever the record did before it (the squares it wrote)
        let mut t = p.initial();
        p.execute_move(&mut t, "D1,4;E2,5").unwrap();
        p.execute_move(&mut t, "S;D0,1;E2,5;S;S;D0,3;D0,1;E2,5;E4,5;S;D1,4")
            .unwrap();
        let mut u = p.initial();
        p.execute_move(&mut u, "D1,4").unwrap();
        assert_eq!(t, u);
    }
}
