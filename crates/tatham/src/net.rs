//! Net: rotate the tiles so that every tile is connected to every other.
//!
//! PARAMS `WxH` with `w` for a wrapping grid (`b<prob>` and `a` only steer generation);
//! DESC one hex digit a tile (bits R = 1, U = 2, L = 4, D = 8), each followed by optional
//! barrier letters: `v` a barrier on the tile's right, `h` one below it. Moves, as the
//! game's `execute_move`: `A` anticlockwise, `C` clockwise, `F` half a turn, `L` lock
//! toggle, each followed by `x,y`, `;`-separated; a record starting `S` (solve) or `J`
//! (jumble) holds any number of them. Turning a tile clears its lock (the game's rotation
//! keeps only the four direction bits). Completion (the game's rule): every non-empty tile
//! is reached from the first non-empty one through links, a link being two neighbouring
//! tiles pointing at each other with no barrier between.
//!
//! Circuit. Witness: per tile its rotation from the initial orientation (2 bits, 1 for a
//! straight, none for a cross or an empty tile), then the spanning-tree labels
//! ([`graph::spanning_tree`], root the first non-empty tile) over the candidate links (the
//! neighbour pairs no barrier separates). A link is present when both tiles point at each
//! other: one AND of two bits linear in the one-hot rotation.

use super::{bad_move, cell_name, parse_dim, Game, Position, Puzzle};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph::{self, Graph};
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

pub const GAME: Game = Game {
    name: "Net",
    default_params: "5x5",
    larger_params: "9x9",
    decode,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/net.sav"),
};

const R: u8 = 1;
const U: u8 = 2;
const L: u8 = 4;
const D: u8 = 8;
const DIRS: [u8; 4] = [R, U, L, D];

/// The largest width or height read, and the most tiles.
pub const MAX_SIDE: usize = 64;
pub const MAX_TILES: usize = 2048;

fn anti(t: u8) -> u8 {
    ((t & 7) << 1) | ((t & 8) >> 3)
}
/// `t` turned anticlockwise `k` times.
fn rot(t: u8, k: usize) -> u8 {
    (0..k % 4).fold(t & 15, |t, _| anti(t))
}
fn opposite(d: u8) -> u8 {
    rot(d, 2)
}

/// A Net puzzle.
#[derive(Clone, Debug)]
pub struct Net {
    pub w: usize,
    pub h: usize,
    pub wrapping: bool,
    /// Initial tiles (4 direction bits each).
    pub tiles: Vec<u8>,
    /// Barriers per tile (direction bits), borders included for a non-wrapping grid.
    pub barriers: Vec<u8>,
}

fn decode(params: &str, desc: &str) -> Result<Box<dyn Puzzle>> {
    Ok(Box::new(Net::decode(params, desc)?))
}

impl Net {
    pub fn decode(params: &str, desc: &str) -> Result<Net> {
        let bad = |m: String| Error::bad(format!("Net: {m}"));
        let (w, rest) = parse_dim(params, "width", MAX_SIDE).map_err(|e| bad(e.to_string()))?;
        let (h, mut rest) = match rest.strip_prefix('x') {
            Some(r) => parse_dim(r, "height", MAX_SIDE).map_err(|e| bad(e.to_string()))?,
            None => (w, rest),
        };
        let mut wrapping = false;
        while let Some(c) = rest.chars().next() {
            rest = &rest[1..];
            match c {
                'w' => wrapping = true,
                'a' => {}
                'b' => {
                    rest = rest.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
                }
                _ => {
                    return Err(bad(format!(
                        "parameters '{}' are not WxH, optionally followed by w",
                        zkgames_core::files::excerpt(params)
                    )))
                }
            }
        }
        if w == 0 || h == 0 {
            return Err(bad("width and height must both be greater than zero".into()));
        }
        if w <= 1 && h <= 1 {
            return Err(bad(
                "at least one of width and height must be greater than one".into(),
            ));
        }
        if w * h > MAX_TILES {
            return Err(bad(format!("{w}x{h} has more than {MAX_TILES} tiles")));
        }
        let n = w * h;
        let mut tiles = vec![0u8; n];
        let mut barriers = vec![0u8; n];
        let b = desc.as_bytes();
        let mut at = 0;
        for i in 0..n {
            let (x, y) = (i % w, i / w);
            let c = *b
                .get(at)
                .ok_or_else(|| bad("the description is shorter than the grid".into()))?;
            tiles[i] = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => {
                    return Err(bad(format!(
                        "the description has an unexpected character '{}'",
                        (c as char).escape_default()
                    )))
                }
            };
            at += 1;
            while let Some(&c) = b.get(at) {
                let d = match c {
                    b'v' => R,
                    b'h' => D,
                    _ => break,
                };
                let (x2, y2) = step(w, h, x, y, d);
                barriers[i] |= d;
                barriers[y2 * w + x2] |= opposite(d);
                at += 1;
            }
        }
        if at != b.len() {
            return Err(bad("the description is longer than the grid".into()));
        }
        if !wrapping {
            for x in 0..w {
                barriers[x] |= U;
                barriers[(h - 1) * w + x] |= D;
            }
            for y in 0..h {
                barriers[y * w] |= L;
                barriers[y * w + w - 1] |= R;
            }
        }
        Ok(Net {
            w,
            h,
            wrapping,
            tiles,
            barriers,
        })
    }

    /// The neighbour of `(x, y)` in direction `d` (wrapping round the edges, as the game's
    /// `OFFSET` does; barriers say whether the link exists).
    fn neighbour(&self, i: usize, d: u8) -> usize {
        let (x, y) = step(self.w, self.h, i % self.w, i / self.w, d);
        y * self.w + x
    }

    /// The candidate links: `(tile, direction, other tile)` with `direction` R or D, no
    /// barrier between, both tiles non-empty, distinct tiles.
    fn links(&self) -> Vec<(usize, u8, usize)> {
        let mut out = Vec::new();
        for i in 0..self.tiles.len() {
            for d in [R, D] {
                let j = self.neighbour(i, d);
                if self.barriers[i] & d == 0 && i != j && self.tiles[i] != 0 && self.tiles[j] != 0 {
                    out.push((i, d, j));
                }
            }
        }
        out
    }

    /// The vertices of the connectivity graph: the non-empty tiles, in order.
    fn vertices(&self) -> Vec<usize> {
        (0..self.tiles.len())
            .filter(|&i| self.tiles[i] != 0)
            .collect()
    }

    fn graph(&self) -> (Graph, Vec<usize>) {
        let verts = self.vertices();
        let mut index = vec![usize::MAX; self.tiles.len()];
        for (k, &v) in verts.iter().enumerate() {
            index[v] = k;
        }
        let edges = self
            .links()
            .iter()
            .map(|&(i, _, j)| (index[i], index[j]))
            .collect();
        (Graph::new(verts.len(), edges), verts)
    }

    /// The distinct orientations of tile `t`: 1, 2 or 4.
    fn orientations(t: u8) -> usize {
        if rot(t, 1) == t {
            1
        } else if rot(t, 2) == t {
            2
        } else {
            4
        }
    }

    fn rotation_bits(t: u8) -> usize {
        match Self::orientations(t) {
            1 => 0,
            2 => 1,
            _ => 2,
        }
    }
}

fn step(w: usize, h: usize, x: usize, y: usize, d: u8) -> (usize, usize) {
    match d {
        R => ((x + 1) % w, y),
        L => ((x + w - 1) % w, y),
        U => (x, (y + h - 1) % h),
        _ => (x, (y + 1) % h),
    }
}

impl Puzzle for Net {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        format!(
            "{}x{}{}",
            self.w,
            self.h,
            if self.wrapping { "w" } else { "" }
        )
    }
    fn desc(&self) -> String {
        let mut s = String::with_capacity(self.tiles.len() * 2);
        for (i, &t) in self.tiles.iter().enumerate() {
            let (x, y) = (i % self.w, i / self.w);
            s.push(char::from_digit(t as u32, 16).expect("4 bits"));
            if (self.wrapping || x + 1 < self.w) && self.barriers[i] & R != 0 {
                s.push('v');
            }
            if (self.wrapping || y + 1 < self.h) && self.barriers[i] & D != 0 {
                s.push('h');
            }
        }
        s
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(NetPosition {
            net: self,
            tiles: self.tiles.clone(),
            locked: vec![false; self.tiles.len()],
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let (g, verts) = self.graph();
        let rot_bits: usize = self.tiles.iter().map(|&t| Self::rotation_bits(t)).sum();
        let root = 0;
        let labels = if verts.is_empty() {
            0
        } else {
            graph::spanning_tree_bits(&g, root)
        };
        let mut b = Builder::new(rot_bits + labels);
        // each tile's four direction bits, linear in its one-hot rotation
        let mut at = 0;
        let mut dirs: Vec<[Bit; 4]> = Vec::with_capacity(self.tiles.len());
        for &t in &self.tiles {
            let k = Self::rotation_bits(t);
            let idx = b.input_word(at, k);
            at += k;
            let sel = graph::decode_index(&mut b, &idx, Self::orientations(t));
            let mut out = [Bit::Const(false); 4];
            for (di, &d) in DIRS.iter().enumerate() {
                for (r, &s) in sel.iter().enumerate() {
                    if rot(t, r) & d != 0 {
                        out[di] = b.xor(out[di], s);
                    }
                }
            }
            dirs.push(out);
        }
        let dir_index = |d: u8| DIRS.iter().position(|&e| e == d).expect("a direction");
        let present: Vec<Bit> = self
            .links()
            .iter()
            .map(|&(i, d, j)| {
                let a = dirs[i][dir_index(d)];
                let c = dirs[j][dir_index(opposite(d))];
                b.and(a, c)
            })
            .collect();
        if !verts.is_empty() {
            for x in graph::spanning_tree(&mut b, &g, &present, root, &mut at) {
                b.output(x);
            }
        }
        Ok(b.finish())
    }
}

/// A position of a Net puzzle.
pub struct NetPosition<'a> {
    net: &'a Net,
    tiles: Vec<u8>,
    locked: Vec<bool>,
}

impl NetPosition<'_> {
    fn linked(&self, i: usize, d: u8) -> bool {
        let j = self.net.neighbour(i, d);
        self.tiles[i] & d != 0 && self.tiles[j] & opposite(d) != 0 && self.net.barriers[i] & d == 0
    }

    /// The tiles reached from the first non-empty tile.
    fn active(&self) -> Vec<bool> {
        let n = self.tiles.len();
        let mut seen = vec![false; n];
        if let Some(s) = (0..n).find(|&i| self.tiles[i] != 0) {
            seen[s] = true;
            let mut stack = vec![s];
            while let Some(i) = stack.pop() {
                for d in DIRS {
                    let j = self.net.neighbour(i, d);
                    if self.linked(i, d) && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        seen
    }
}

/// Parses `x,y` (decimal) at the start of `s`: the coordinates and the rest.
pub fn parse_xy(s: &str) -> Option<(usize, usize, &str)> {
    let n1 = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if n1 == 0 || n1 > 6 || !s[n1..].starts_with(',') {
        return None;
    }
    let r = &s[n1 + 1..];
    let n2 = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
    if n2 == 0 || n2 > 6 {
        return None;
    }
    Some((s[..n1].parse().ok()?, r[..n2].parse().ok()?, &r[n2..]))
}

impl Position for NetPosition<'_> {
    fn execute_move(&mut self, mv: &str) -> Result<()> {
        let mut m = mv;
        let many = m.starts_with('S') || m.starts_with('J');
        if many {
            m = &m[1..];
            m = m.strip_prefix(';').unwrap_or(m);
        } else if m.is_empty() {
            return Err(bad_move("Net", mv, "an empty move"));
        }
        while !m.is_empty() {
            let op = m.as_bytes()[0];
            if !matches!(op, b'A' | b'C' | b'F' | b'L') {
                return Err(bad_move("Net", mv, "expected A, C, F or L and a tile x,y"));
            }
            let (x, y, rest) =
                parse_xy(&m[1..]).ok_or_else(|| bad_move("Net", mv, "expected a tile x,y"))?;
            if x >= self.net.w || y >= self.net.h {
                return Err(bad_move("Net", mv, "a tile outside the grid"));
            }
            let i = y * self.net.w + x;
            match op {
                b'L' => self.locked[i] = !self.locked[i],
                _ => {
                    let k = match op {
                        b'A' => 1,
                        b'F' => 2,
                        _ => 3,
                    };
                    self.tiles[i] = rot(self.tiles[i], k);
                    self.locked[i] = false;
                }
            }
            m = rest.strip_prefix(';').unwrap_or(rest);
        }
        Ok(())
    }

    fn check(&self) -> std::result::Result<(), String> {
        let active = self.active();
        match (0..self.tiles.len()).find(|&i| self.tiles[i] != 0 && !active[i]) {
            None => Ok(()),
            Some(i) => Err(format!(
                "tile {} is not connected",
                cell_name(i % self.net.w, i / self.net.w)
            )),
        }
    }

    fn witness(&self) -> Result<Vec<bool>> {
        let net = self.net;
        let mut w = Vec::new();
        for (&t0, &t) in net.tiles.iter().zip(&self.tiles) {
            let r = (0..4)
                .find(|&r| rot(t0, r) == t)
                .expect("tiles only rotate");
            super::push_bits(&mut w, r % Net::orientations(t0), Net::rotation_bits(t0));
        }
        let (g, verts) = net.graph();
        if verts.is_empty() {
            return Ok(w);
        }
        let present: Vec<bool> = net
            .links()
            .iter()
            .map(|&(i, d, _)| self.linked(i, d))
            .collect();
        let labels = graph::spanning_tree_witness(&g, &present, 0)
            .ok_or_else(|| Error::bad("not solved: some tile is not connected"))?;
        w.extend(labels);
        Ok(w)
    }

    fn state_bytes(&self) -> Vec<u8> {
        self.tiles
            .iter()
            .zip(&self.locked)
            .map(|(&t, &l)| t | if l { 0x10 } else { 0 })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every witness of a tiny puzzle: the circuit accepts exactly the rotations that
    /// connect every tile (checked against the game's own rule), with some labels.
    #[test]
    fn tiny_net_exhaustive() {
        // 2x2 with an endpoint, a corner, a T and an endpoint; and a wrapping 3x1 row
        for (params, desc) in [
            ("2x2", "1392"),
            ("2x2", "13b2"),
            ("3x1w", "154"),
            ("2x2", "15v22"),
        ] {
            let net = Net::decode(params, desc).unwrap();
            let c = net.circuit().unwrap();
            let n = c.n_inputs();
            assert!(n <= 24, "{n}");
            let rot_bits: usize = net.tiles.iter().map(|&t| Net::rotation_bits(t)).sum();
            let accepted = crate::accepted_prefixes(&c, rot_bits);
            // the reference: every rotation assignment, checked by the game's rule
            let mut truth = std::collections::BTreeSet::new();
            let mut total = 0;
            for r in 0u64..(1 << rot_bits) {
                let mut pos = NetPosition {
                    net: &net,
                    tiles: net.tiles.clone(),
                    locked: vec![false; net.tiles.len()],
                };
                let mut at = 0;
                let mut valid = true;
                for (i, &t) in net.tiles.iter().enumerate() {
                    let k = Net::rotation_bits(t);
                    let v = ((r >> at) & ((1 << k) - 1)) as usize;
                    at += k;
                    if v >= Net::orientations(t) {
                        valid = false;
                    }
                    pos.tiles[i] = rot(t, v);
                }
                if valid && pos.check().is_ok() {
                    truth.insert(r);
                    let mut w = pos.witness().unwrap();
                    assert_eq!(w.len(), n);
                    assert!(crate::accepts(&c, &w));
                    w.clear();
                }
                total += 1;
            }
            assert!(total > 1);
            assert_eq!(accepted, truth, "{params}:{desc}");
        }
    }

    #[test]
    fn decode_refusals_and_canonical_form() {
        let n = Net::decode("3x2", "1av5h42F").unwrap();
        assert_eq!(n.desc(), "1av5h42f");
        // barriers on the border of a non-wrapping grid are implicit
        assert_eq!(Net::decode("3x2", "1a5v4h2F").unwrap().desc(), "1a542f");
        assert_eq!(n.params(), "3x2");
        assert!(Net::decode("3x2", "1a54").is_err());
        assert!(Net::decode("3x2", "1a5421x").is_err());
        assert!(Net::decode("3x2", "1a54210").is_err());
        assert!(Net::decode("1x1", "1").is_err());
        assert!(Net::decode("100x100", "").is_err());
        assert!(Net::decode("9999999999x2", "").is_err());
        assert!(Net::decode("3x2q", "1a5421").is_err());
        assert_eq!(Net::decode("3x2wb0.5a", "1a5421").unwrap().params(), "3x2w");
    }

    #[test]
    fn moves_as_the_game_executes_them() {
        let n = Net::decode("2x2", "1392").unwrap();
        let mut p = n.start();
        p.execute_move("A0,0").unwrap();
        assert_eq!(p.state_bytes()[0], 2);
        p.execute_move("L0,0").unwrap();
        assert_eq!(p.state_bytes()[0], 0x12);
        // turning clears the lock, as the game's rotation keeps four bits
        p.execute_move("C0,0").unwrap();
        assert_eq!(p.state_bytes()[0], 1);
        p.execute_move("S;F1,1;L1,1").unwrap();
        assert_eq!(p.state_bytes()[3], 0x18);
        p.execute_move("S").unwrap();
        for bad in ["", "A2,0", "X0,0", "A0", "A0,0;;", "A-1,0", "S;A0,0;Q"] {
            assert!(n.start().execute_move(bad).is_err(), "{bad}");
        }
    }
}
