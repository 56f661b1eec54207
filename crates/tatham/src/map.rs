//! Map (Tatham's `map.c`): colour every region of a map with one of four colours so that
//! no two regions sharing an edge have the same colour; some regions are given.
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[nN][dD]`: width and height (at least 2), the number of regions (at least
//!   5, at most `W·H`; `W·H/8` when absent) and a difficulty letter (`e`, `n`, `h`, `u`;
//!   it only steers the generator).
//! - DESC `EDGES,CLUES`. EDGES walks the `W·(H−1)` horizontal edges (below each square,
//!   reading order) then the `(W−1)·H` vertical ones (right of each square, column by
//!   column, top to bottom), preceded by one notional non-edge: `a`–`y` are runs of 1–25
//!   edges of the current kind followed by a switch between non-edges and edges, `z` a run
//!   of 25 with no switch. Squares across a non-edge are in one region; regions are
//!   numbered by their first square in reading order. CLUES gives the regions in number
//!   order: `0`–`3` a given colour (red, yellow, green, blue), `a`–`z` 1–26 uncoloured.
//! - Moves: `;`-separated items, `c:k` (colour region `k` with `c` in `0`–`3`, or clear it
//!   with `C`), `pc:k` (toggle a pencil mark of an uncoloured region; `pC:k` clears them)
//!   and `S` (the Solve record's prefix; the record then colours every region).
//!
//! Two regions are adjacent when squares of theirs share a side (`gengraph`: corners do
//! not count; the diagonal smoothing of `new_game` only changes the drawing).

use super::parse::{parse_num, parse_size, place, short};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// The colours' names, in the game's order (`colnames`: R, Y, G, B).
const COLOURS: [&str; 4] = ["red", "yellow", "green", "blue"];

/// A decoded Map puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// The number of regions.
    pub n: usize,
    /// The region of each square, reading order.
    pub region: Vec<usize>,
    /// Each region's given colour (`None` where the player colours it).
    pub given: Vec<Option<u8>>,
    /// The adjacent pairs of regions `(i, j)`, `i < j`, in the game's order (by `i`, then `j`).
    pub adjacent: Vec<(usize, usize)>,
}

/// The regions' colours and pencil marks (a bit per colour), by region number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub colour: Vec<Option<u8>>,
    pub pencil: Vec<u8>,
}

/// The edge between square `i` of the walk and the next: the two squares it separates.
fn edge_squares(w: usize, h: usize, pos: usize) -> (usize, usize) {
    if pos < w * (h - 1) {
        let (x, y) = (pos % w, pos / w);
        (y * w + x, (y + 1) * w + x)
    } else {
        let q = pos - w * (h - 1);
        let (x, y) = (q / h, q % h);
        (y * w + x, y * w + x + 1)
    }
}

fn find(p: &mut [usize], mut a: usize) -> usize {
    while p[a] != a {
        p[a] = p[p[a]];
        a = p[a];
    }
    a
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// (`parse_edge_list`) do, strictly: nothing after the difficulty letter.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, mut rest) = parse_size(params, "Map", 2)?;
        let bad = || {
            Error::bad(format!(
                "Map parameters {:?} are not of the form WxHnNdD",
                short(params)
            ))
        };
        let mut n = w * h / 8;
        if let Some(r) = rest.strip_prefix('n') {
            let (k, r) = parse_num(r).ok_or_else(bad)?;
            n = k;
            rest = r;
        }
        if let Some(r) = rest.strip_prefix('d') {
            if !matches!(r, "e" | "n" | "h" | "u") {
                return Err(Error::bad(format!(
                    "Map parameters {:?} have an unknown difficulty (e, n, h or u)",
                    short(params)
                )));
            }
        } else if !rest.is_empty() {
            return Err(bad());
        }
        if n < 5 {
            return Err(Error::bad("Map must have at least five regions"));
        }
        if n > w * h {
            return Err(Error::bad(format!(
                "Map {w}x{h} cannot hold {n} regions (too many regions to fit in the grid)"
            )));
        }
        let (edges, clues) = desc
            .split_once(',')
            .ok_or_else(|| Error::bad("Map description has no comma before its clue list"))?;
        let wh = w * h;
        let total = w * (h - 1) + (w - 1) * h;
        let mut parent: Vec<usize> = (0..wh).collect();
        let mut pos: isize = -1;
        let mut is_edge = false;
        for c in edges.bytes() {
            if !c.is_ascii_lowercase() {
                return Err(Error::bad(
                    "Map description has an unexpected character in its edge list",
                ));
            }
            let k = if c == b'z' {
                25
            } else {
                (c - b'a') as usize + 1
            };
            for _ in 0..k {
                if pos < 0 {
                    pos += 1;
                    continue;
                }
                if pos as usize >= total {
                    return Err(Error::bad(
                        "Map description has too much data in its edge list",
                    ));
                }
                if !is_edge {
                    let (a, b) = edge_squares(w, h, pos as usize);
                    let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                    parent[ra] = rb;
                }
                pos += 1;
            }
            if c != b'z' {
                is_edge = !is_edge;
            }
        }
        if pos < total as isize {
            return Err(Error::bad(
                "Map description has too little data in its edge list",
            ));
        }
        let mut number = vec![usize::MAX; wh];
        let mut region = vec![0; wh];
        let mut count = 0;
        for (i, r) in region.iter_mut().enumerate() {
            let root = find(&mut parent, i);
            if number[root] == usize::MAX {
                number[root] = count;
                count += 1;
            }
            *r = number[root];
        }
        if count != n {
            return Err(Error::bad(format!(
                "Map description's edge list defines {count} regions, not {n}"
            )));
        }
        let mut given = Vec::with_capacity(n);
        for c in clues.bytes() {
            match c {
                b'0'..=b'3' => given.push(Some(c - b'0')),
                b'a'..=b'z' => {
                    let run = (c - b'a') as usize + 1;
                    if given.len() + run > n {
                        return Err(Error::bad(
                            "Map description has too much data in its clue list",
                        ));
                    }
                    given.extend(std::iter::repeat_n(None, run));
                }
                _ => {
                    return Err(Error::bad(
                        "Map description has an unexpected character in its clue list",
                    ))
                }
            }
            if given.len() > n {
                return Err(Error::bad(
                    "Map description has too much data in its clue list",
                ));
            }
        }
        if given.len() < n {
            return Err(Error::bad(
                "Map description has too little data in its clue list",
            ));
        }
        Ok(Puzzle::from_regions(w, h, region, given))
    }

    /// The puzzle of a region map (regions numbered by first square) and its givens.
    fn from_regions(w: usize, h: usize, region: Vec<usize>, given: Vec<Option<u8>>) -> Puzzle {
        let n = given.len();
        let mut adj = std::collections::BTreeSet::new();
        for y in 0..h {
            for x in 0..w {
                let v = region[y * w + x];
                let mut add = |u: usize| {
                    if u != v {
                        adj.insert((v.min(u), v.max(u)));
                    }
                };
                if x + 1 < w {
                    add(region[y * w + x + 1]);
                }
                if y + 1 < h {
                    add(region[(y + 1) * w + x]);
                }
            }
        }
        Puzzle {
            w,
            h,
            n,
            region,
            given,
            adjacent: adj.into_iter().collect(),
        }
    }

    /// The canonical parameters, as `encode_params` writes them (`WxHnN`).
    pub fn params(&self) -> String {
        format!("{}x{}n{}", self.w, self.h, self.n)
    }

    /// The canonical description, as `new_game_desc` encodes it (an edge wherever two
    /// squares of different regions meet).
    pub fn desc(&self) -> String {
        let (w, h) = (self.w, self.h);
        let total = w * (h - 1) + (w - 1) * h;
        let mut out = String::new();
        let letter = |run: usize| (b'a' - 1 + run as u8) as char;
        let (mut run, mut prev) = (1usize, false);
        for pos in 0..total {
            let (a, b) = edge_squares(w, h, pos);
            let v = self.region[a] != self.region[b];
            if v != prev {
                out.push(letter(run));
                run = 1;
                prev = v;
            } else {
                if run == 25 {
                    out.push('z');
                    run = 0;
                }
                run += 1;
            }
        }
        out.push(letter(run));
        out.push(',');
        let mut run = 0;
        for g in &self.given {
            match g {
                None => {
                    if run == 26 {
                        out.push('z');
                        run = 0;
                    }
                    run += 1;
                }
                Some(c) => {
                    if run > 0 {
                        out.push(letter(run));
                    }
                    out.push((b'0' + c) as char);
                    run = 0;
                }
            }
        }
        if run > 0 {
            out.push(letter(run));
        }
        out
    }

    /// The starting position: the given colours.
    pub fn initial(&self) -> State {
        State {
            colour: self.given.clone(),
            pencil: vec![0; self.n],
        }
    }

    /// Applies one move record as `execute_move` does (the whole record or nothing);
    /// region numbers are plain decimal digits.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Map", mv, why);
        let mut next = state.clone();
        let mut s = mv.as_bytes();
        while !s.is_empty() {
            let pencil = s[0] == b'p';
            if pencil {
                s = &s[1..];
            }
            let c = s.first().copied();
            if matches!(c, Some(b'C' | b'0'..=b'3')) && s.get(1) == Some(&b':') {
                let rest = std::str::from_utf8(&s[2..]).map_err(|_| bad("not text"))?;
                let (k, r) = parse_num(rest).ok_or_else(|| bad("expected a region number"))?;
                if k >= self.n {
                    return Err(bad("no such region"));
                }
                let colour = c.filter(|&c| c != b'C').map(|c| c - b'0');
                if pencil {
                    if next.colour[k].is_some() {
                        return Err(bad("a pencil mark on a coloured region"));
                    }
                    match colour {
                        None => next.pencil[k] = 0,
                        Some(c) => next.pencil[k] ^= 1 << c,
                    }
                } else {
                    next.colour[k] = colour;
                    next.pencil[k] = 0;
                }
                s = r.as_bytes();
            } else if c == Some(b'S') {
                s = &s[1..];
            } else {
                return Err(bad("expected C, S or a colour 0-3, ':' and a region"));
            }
            match s.first() {
                None => {}
                Some(b';') => s = &s[1..],
                Some(_) => return Err(bad("expected ';' between items")),
            }
        }
        *state = next;
        Ok(())
    }

    /// A region's name in messages: its first square.
    fn region_name(&self, r: usize) -> String {
        let i = self.region.iter().position(|&v| v == r).unwrap_or(0);
        format!("the region at {}", place(i % self.w, i / self.w))
    }

    /// The completion check of `execute_move`: every region coloured, no two adjacent
    /// regions alike. zkgames also refuses a given region whose colour a move changed (the
    /// game's `execute_move` allows it; its interface does not).
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        if let Some(r) = (0..self.n).find(|&r| state.colour[r].is_none()) {
            return Err(format!("{} is not coloured", self.region_name(r)));
        }
        if let Some(r) =
            (0..self.n).find(|&r| self.given[r].is_some() && self.given[r] != state.colour[r])
        {
            return Err(format!(
                "{} differs from its given colour",
                self.region_name(r)
            ));
        }
        for &(i, j) in &self.adjacent {
            if state.colour[i] == state.colour[j] {
                return Err(format!(
                    "{} and {} share an edge and are both {}",
                    self.region_name(i),
                    self.region_name(j),
                    COLOURS[state.colour[i].unwrap_or(0) as usize]
                ));
            }
        }
        Ok(())
    }

    /// The regions the player colours, in number order.
    pub fn free(&self) -> Vec<usize> {
        (0..self.n).filter(|&r| self.given[r].is_none()).collect()
    }
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness: per region not given, in number order, its colour in 2 bits (least significant
// first); given regions are constants. Violations: per adjacent pair `(i, j)`,
// `¬((c_i0 ⊕ c_j0) ∨ (c_i1 ⊕ c_j1))` (the same colour).

pub const GAME: Game = Game {
    name: "Map",
    default_params: "20x15n30dn",
    larger_params: "30x25n75dn",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/map.sav"),
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
        let free = self.free();
        let mut b = Builder::new(2 * free.len());
        let mut col: Vec<[Bit; 2]> = self
            .given
            .iter()
            .map(|g| {
                let c = g.unwrap_or(0);
                [Bit::Const(c & 1 == 1), Bit::Const(c & 2 == 2)]
            })
            .collect();
        for (k, &r) in free.iter().enumerate() {
            col[r] = [b.input(2 * k), b.input(2 * k + 1)];
        }
        for &(i, j) in &self.adjacent {
            let d0 = b.xor(col[i][0], col[j][0]);
            let d1 = b.xor(col[i][1], col[j][1]);
            let differ = b.or(d0, d1);
            let same = b.not(differ);
            b.output(same);
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
        let mut w = Vec::new();
        for r in self.free() {
            super::push_bits(&mut w, state.colour[r].unwrap_or(0) as usize, 2);
        }
        Ok(w)
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        state.colour.iter().map(|c| c.map_or(4, |c| c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::*;

    /// A puzzle from rows of region letters and the givens (region number, colour).
    fn tiny(rows: &[&str], given: &[(usize, u8)]) -> Puzzle {
        let (w, h) = (rows[0].len(), rows.len());
        let cells: Vec<u8> = rows.iter().flat_map(|r| r.bytes()).collect();
        let mut seen: Vec<u8> = Vec::new();
        let region: Vec<usize> = cells
            .iter()
            .map(|c| {
                seen.iter().position(|s| s == c).unwrap_or_else(|| {
                    seen.push(*c);
                    seen.len() - 1
                })
            })
            .collect();
        let mut g = vec![None; seen.len()];
        for &(r, c) in given {
            g[r] = Some(c);
        }
        Puzzle::from_regions(w, h, region, g)
    }

    /// Every witness of small maps: the circuit accepts exactly the colourings the game's
    /// rule accepts, and each solution's own witness.
    #[test]
    fn tiny_map_exhaustive() {
        for p in [
            tiny(&["aab", "acb", "ddb"], &[]),
            tiny(&["abc", "dec", "ffc"], &[(0, 2)]),
            // a wheel: the centre touches five regions round it (needs all four colours)
            tiny(&["abbc", "aeec", "deef", "dggf"], &[]),
            tiny(&["abbc", "aeec", "deef", "dggf"], &[(4, 1), (0, 3)]),
            // corners touching (a1 and b2) do not count: both may be red
            tiny(&["ab", "cd", "ef"], &[(0, 0), (3, 0)]),
        ] {
            let c = p.circuit().unwrap();
            let free = p.free();
            assert_eq!(c.n_inputs(), 2 * free.len());
            let accepted = crate::accepted_prefixes(&c, 2 * free.len());
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << (2 * free.len())) {
                let mut s = p.initial();
                for (k, &r) in free.iter().enumerate() {
                    s.colour[r] = Some(((a >> (2 * k)) & 3) as u8);
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
            assert!(truth.len() < 1 << (2 * free.len()), "{p:?}");
            // the same puzzle through its description
            let q = Puzzle::decode(&format!("{}x{}n{}", p.w, p.h, p.n), &p.desc());
            if p.n >= 5 {
                assert_eq!(q.unwrap(), p);
            }
        }
        // the diagonal pair is not adjacent, the side pairs are
        let p = tiny(&["ab", "cd", "ef"], &[]);
        assert!(!p.adjacent.contains(&(0, 3)) && !p.adjacent.contains(&(1, 2)));
        assert!(p.adjacent.contains(&(0, 1)) && p.adjacent.contains(&(0, 2)));
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let sample = super::super::save::parse_header(GAME.sample.as_bytes()).unwrap();
        let p = Puzzle::decode(&sample.params, &sample.desc).unwrap();
        assert_eq!(p.desc(), sample.desc);
        assert_eq!(p.params(), "20x15n30");
        assert_eq!(p.region.len(), 300);
        // a run of 25 without a switch (`z`), and the implicit non-edge at the start
        let p = tiny(&["abcde", "abcde", "abcde", "abcde", "abcde", "abcde"], &[]);
        let d = p.desc();
        assert!(d.contains('z'), "{d}");
        assert_eq!(Puzzle::decode("5x6n5", &d).unwrap(), p);
        for (params, desc) in [
            ("5x6n5", &d[1..]),
            ("5x6n5", &format!("a{d}")),
            ("5x6n6", &d),
            ("5x6n5", &d.replace(',', "")),
            ("5x6n5", &format!("{d}a")),
            ("5x6n5", &d[..d.len() - 1]),
            ("5x6n5", &format!("{}4", &d[..d.len() - 1])),
            ("5x6n5", &d.replacen('a', "A", 1)),
            ("5x6n4", &d),
            ("5x6n5dx", &d),
            ("5x6n5x", &d),
            ("1x6n5", &d),
            ("5x6n", &d),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
        assert_eq!(Puzzle::decode("5x6n5de", &d).unwrap().params(), "5x6n5");
        // the default number of regions is W·H/8
        let q = tiny(&["abcde"; 8], &[(4, 3)]);
        assert_eq!(Puzzle::decode("5x8", &q.desc()).unwrap(), q);
        assert!(Puzzle::decode("5x6", &d).is_err());
    }

    #[test]
    fn moves_are_the_games() {
        let p = tiny(&["abc", "dec", "ffc"], &[(0, 2)]);
        let mut s = p.initial();
        p.execute_move(&mut s, "1:1;p0:3;p2:3").unwrap();
        assert_eq!(s.colour[1], Some(1));
        assert_eq!(s.pencil[3], 0b101);
        p.execute_move(&mut s, "3:3").unwrap();
        assert_eq!(s.pencil[3], 0);
        // the game's execute_move recolours a given region; the check refuses the result
        p.execute_move(&mut s, "S;0:0;1:1;0:2;3:3;2:4;1:5").unwrap();
        assert!(p.check(&s).unwrap_err().contains("given"));
        p.execute_move(&mut s, "2:0").unwrap();
        assert_eq!(p.check(&s), Ok(()));
        p.execute_move(&mut s, "C:4").unwrap();
        assert_eq!(p.check(&s).unwrap_err(), "the region at b2 is not coloured");
        let before = s.clone();
        for bad in [
            "4:1", "1:6", "1:", "1;2", "p1:0", "X", "1:1;", "1:1,2", "1:1;q",
        ] {
            if bad == "1:1;" {
                // a trailing separator is allowed, as in the game
                assert!(p.execute_move(&mut s.clone(), bad).is_ok());
                continue;
            }
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
            assert_eq!(s, before, "{bad}");
        }
        p.execute_move(&mut s, "1:4").unwrap();
        assert!(p.check(&s).unwrap_err().contains("both yellow"));
    }
}
