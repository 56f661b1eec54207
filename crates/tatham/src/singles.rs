//! Singles (Tatham's `singles.c`, Hitori): black out squares so that no number appears twice
//! among the white squares of a row or column, no two black squares are orthogonally
//! adjacent, and the white squares are all connected.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[dD]`: width and height (2 to 62 in the game, at most 40 here), a difficulty
//!   letter (`e`, `k`; it only steers the generator).
//! - DESC: one character per square in reading order, its number: `1`–`9`, `a`–`z` (10–35),
//!   `A`–`Z` (36–61), at most `max(W, H)`.
//! - Moves: `;`-separated items, `B<x>,<y>` (black), `C<x>,<y>` (circle: white),
//!   `E<x>,<y>` (empty: also white), and `S` (the Solve record's prefix, `S;B0,1;C0,2;…;`,
//!   a trailing `;` allowed).

use super::parse::{parse_num, parse_size, place};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// A decoded Singles puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The numbers, reading order.
    pub nums: Vec<u8>,
}

/// A square as the game keeps it (`F_BLACK`, `F_CIRCLE`, or neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    Empty,
    Black,
    Circle,
}

/// The squares, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub grid: Vec<Square>,
}

/// The number of a DESC character (`c2n`), or `None`.
fn number(c: u8) -> Option<usize> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as usize),
        b'a'..=b'z' => Some((c - b'a') as usize + 10),
        b'A'..=b'Z' => Some((c - b'A') as usize + 36),
        _ => None,
    }
}

/// The DESC character of a number (`n2c`).
fn character(n: u8) -> char {
    match n {
        0..=9 => (b'0' + n) as char,
        10..=35 => (b'a' + n - 10) as char,
        _ => (b'A' + n - 36) as char,
    }
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `unpick_desc` do
    /// (strictly: nothing after the difficulty letter).
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Singles", 2)?;
        match rest {
            "" | "de" | "dk" => {}
            r if r.starts_with('d') => {
                return Err(Error::bad(format!(
                    "Singles parameters {:?} have an unknown difficulty (e or k)",
                    super::parse::short(params)
                )))
            }
            _ => {
                return Err(Error::bad(format!(
                    "Singles parameters {:?} are not of the form WxH[dD]",
                    super::parse::short(params)
                )))
            }
        }
        let n = w * h;
        if desc.len() != n {
            return Err(Error::bad(format!(
                "Singles description has {} characters, a {w}x{h} grid has {n}",
                desc.len().min(1 << 20)
            )));
        }
        let o = w.max(h);
        let mut nums = Vec::with_capacity(n);
        for (i, c) in desc.bytes().enumerate() {
            match number(c) {
                Some(v) if (1..=o).contains(&v) => nums.push(v as u8),
                _ => {
                    return Err(Error::bad(format!(
                        "Singles description has an unexpected character at position {} \
                         (a number from 1 to {o})",
                        i + 1
                    )))
                }
            }
        }
        Ok(Puzzle { w, h, nums })
    }

    /// The canonical parameters (`WxH`), what the game ID names.
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description (`generate_desc`).
    pub fn desc(&self) -> String {
        self.nums.iter().map(|&v| character(v)).collect()
    }

    /// The starting position: every square empty.
    pub fn initial(&self) -> State {
        State {
            grid: vec![Square::Empty; self.nums.len()],
        }
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Singles", mv, why);
        let mut rest = mv;
        while let Some(c) = rest.chars().next() {
            rest = &rest[1..];
            match c {
                'B' | 'C' | 'E' => {
                    let (x, r) = parse_num(rest).ok_or_else(|| bad("expected x,y"))?;
                    let (y, r) = r
                        .strip_prefix(',')
                        .and_then(parse_num)
                        .ok_or_else(|| bad("expected x,y"))?;
                    if x >= self.w || y >= self.h {
                        return Err(bad("a square outside the grid"));
                    }
                    state.grid[y * self.w + x] = match c {
                        'B' => Square::Black,
                        'C' => Square::Circle,
                        _ => Square::Empty,
                    };
                    rest = r;
                }
                'S' => {}
                _ => return Err(bad("not a B, C, E or S item")),
            }
            if let Some(r) = rest.strip_prefix(';') {
                rest = r;
            } else if !rest.is_empty() {
                return Err(bad("items are separated by ;"));
            }
        }
        Ok(())
    }

    /// The rows then the columns, named, as square indices.
    fn lines(&self) -> Vec<(String, Vec<usize>)> {
        let (w, h) = (self.w, self.h);
        let mut out: Vec<(String, Vec<usize>)> = (0..h)
            .map(|y| {
                (
                    format!("row {}", y + 1),
                    (0..w).map(|x| y * w + x).collect(),
                )
            })
            .collect();
        out.extend((0..w).map(|x| {
            (
                format!("column {}", super::latin::column(x)),
                (0..h).map(|y| y * w + x).collect(),
            )
        }));
        out
    }

    /// The completion check (`check_complete`): no two black squares adjacent, no number
    /// twice among a line's white squares (circled or empty alike), the white squares
    /// connected. Circles do not matter.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let (w, h) = (self.w, self.h);
        let black = |i: usize| state.grid[i] == Square::Black;
        let name = |i: usize| place(i % w, i / w);
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
        for (line, cells) in self.lines() {
            for (k, &i) in cells.iter().enumerate() {
                if black(i) {
                    continue;
                }
                if let Some(&j) = cells[..k]
                    .iter()
                    .find(|&&j| !black(j) && self.nums[j] == self.nums[i])
                {
                    return Err(format!(
                        "{line} has two white {}s ({} and {})",
                        self.nums[i],
                        name(j),
                        name(i)
                    ));
                }
            }
        }
        let white: Vec<bool> = (0..w * h).map(|i| !black(i)).collect();
        if graph::connected_subset_witness(&g, &white).is_none() {
            let first = white.iter().position(|&x| x).unwrap_or(0);
            let cut = reach(&g, &white, first);
            let other = (0..w * h).find(|&i| white[i] && !cut[i]).unwrap_or(0);
            return Err(format!(
                "the white squares are not connected ({} is cut off from {})",
                name(other),
                name(first)
            ));
        }
        Ok(())
    }
}

/// The vertices of `inside` reached from `from` within `inside`.
pub(crate) fn reach(g: &graph::Graph, inside: &[bool], from: usize) -> Vec<bool> {
    let mut seen = vec![false; g.n()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(v) = stack.pop() {
        for &(_, u) in g.incident(v) {
            if inside[u] && !seen[u] {
                seen[u] = true;
                stack.push(u);
            }
        }
    }
    seen
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: one bit per square in reading order, 1 black; then the connected-subset labels
// over the grid graph with `inside` = white. Violations: per neighbouring pair (per square
// its right then its lower neighbour) `black ∧ black`; per row then per column, per pair of
// squares with the same number in line order `¬black ∧ ¬black`; the certificate's.

pub const GAME: Game = Game {
    name: "Singles",
    default_params: "5x5de",
    larger_params: "10x10dk",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/singles.sav"),
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
        let n = self.nums.len();
        let g = super::grid_graph(self.w, self.h);
        let mut b = Builder::new(n + graph::connected_subset_bits(&g));
        let black: Vec<Bit> = (0..n).map(|i| b.input(i)).collect();
        let white: Vec<Bit> = black.iter().map(|&x| b.not(x)).collect();
        for &(i, j) in g.edges() {
            let v = b.and(black[i], black[j]);
            b.output(v);
        }
        for (_, cells) in self.lines() {
            for (k, &i) in cells.iter().enumerate() {
                for &j in &cells[k + 1..] {
                    if self.nums[i] == self.nums[j] {
                        let v = b.and(white[i], white[j]);
                        b.output(v);
                    }
                }
            }
        }
        let mut at = n;
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
        let black: Vec<bool> = state.grid.iter().map(|&s| s == Square::Black).collect();
        let white: Vec<bool> = black.iter().map(|&x| !x).collect();
        let g = super::grid_graph(self.w, self.h);
        let labels = graph::connected_subset_witness(&g, &white)
            .ok_or_else(|| Error::bad("not solved: the white squares are not connected"))?;
        let mut w = black;
        w.extend(labels);
        Ok(w)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.grid.iter().map(|&g| g as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// Every witness of small grids (every colouring and every label): the circuit accepts
    /// exactly the colourings the game's rule accepts, and each solution's own witness.
    #[test]
    fn tiny_singles_exhaustive() {
        for (w, h, nums) in [
            // a diagonal of two black squares cuts the other two apart
            (2, 2, vec![1, 1, 2, 1]),
            (2, 2, vec![1, 2, 2, 1]),
            (2, 2, vec![1, 1, 1, 1]),
            (3, 1, vec![1, 2, 1]),
            (4, 1, vec![1, 1, 2, 1]),
            (5, 1, vec![2, 1, 2, 3, 3]),
            (1, 4, vec![1, 2, 2, 1]),
        ] {
            let p = Puzzle { w, h, nums };
            let n = w * h;
            let c = p.circuit().unwrap();
            let accepted = crate::accepted_prefixes(&c, n);
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << n) {
                let mut s = p.initial();
                for i in 0..n {
                    if (a >> i) & 1 == 1 {
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
            assert!(truth.len() < 1 << n, "{p:?}");
        }
    }

    /// The white squares cut in two by a diagonal of black squares: refused for the
    /// connectivity alone (no duplicates, no adjacent blacks), and the witness too.
    #[test]
    fn disconnected_whites_are_refused() {
        let p = Puzzle {
            w: 3,
            h: 3,
            nums: vec![1, 2, 3, 2, 3, 1, 3, 1, 2],
        };
        let mut s = p.initial();
        for i in [2, 4, 6] {
            s.grid[i] = Square::Black;
        }
        let e = p.check(&s).unwrap_err();
        assert!(e.contains("not connected"), "{e}");
        s.grid[4] = Square::Circle;
        assert_eq!(p.check(&s), Ok(()));
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let d = "1534541224514514321554454";
        let p = Puzzle::decode("5x5de", d).unwrap();
        assert_eq!((p.desc().as_str(), p.params().as_str()), (d, "5x5"));
        let big: String = (0..40 * 40)
            .map(|i| character((i % 40 + 1) as u8))
            .collect();
        assert_eq!(Puzzle::decode("40x40", &big).unwrap().desc(), big);
        for (params, desc) in [
            ("5x5", "153454122451451432155445"),
            ("5x5", "15345412245145143215544545"),
            ("5x5", "1534541224514514321554450"),
            ("5x5", "1534541224514514321554456"),
            ("5x5", "153454122451451432155445!"),
            ("5x5dx", d),
            ("5x5d", d),
            ("5x5q", d),
            ("1x5", "12345"),
            ("41x2", ""),
            ("", d),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        let p = Puzzle::decode("3x2", "121212").unwrap();
        let mut s = p.initial();
        p.execute_move(&mut s, "B0,0").unwrap();
        assert_eq!(s.grid[0], Square::Black);
        p.execute_move(&mut s, "C1,1;E0,0;B2,1").unwrap();
        assert_eq!(
            s.grid,
            vec![
                Square::Empty,
                Square::Empty,
                Square::Empty,
                Square::Empty,
                Square::Circle,
                Square::Black
            ]
        );
        p.execute_move(&mut s, "S;B0,0;C1,0;").unwrap();
        assert_eq!(s.grid[0], Square::Black);
        for bad in [
            "B3,0", "B0,2", "B0", "B0,", "X0,0", "B0,0;;", "B0,0C1,1", "B-1,0", ";",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
        }
    }
}
