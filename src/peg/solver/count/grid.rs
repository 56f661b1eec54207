//! The count's bit-parallel move generation on lattice boards ([`Grid`]).

use super::super::compiled::Compiled;

/// Bit-parallel move generation on a lattice board: vertex `v` also has a bit `g(v)` in a
/// grid word (`x + width · y`), where the moves of one direction `a → a + d → a + 2d` are
/// found all at once as `G & G >> d & !G >> 2d & starts_d` (shifts the other way for `d < 0`).
pub(super) struct Grid {
    /// `to_grid[i][v]`: the grid word of nibble `i` of a position with value `v` (as many
    /// nibbles as the board needs; nibbles keep the tables in the first-level cache).
    to_grid: Vec<[u64; 16]>,
    /// Per direction: the step `d`, the grid bits where a move of that direction starts, and
    /// the move starting at each grid bit.
    pub(super) dirs: Vec<(i32, u64, [u16; 64])>,
}

impl Grid {
    /// `None` unless every move is a step of a direction and the grid fits 64 bits.
    pub(super) fn new(c: &Compiled<u64>, cells: &[(i32, i32)]) -> Option<Self> {
        if cells.len() != c.n || c.moves() > u16::MAX as usize {
            return None;
        }
        let width = cells.iter().map(|p| p.1).max()? + 1;
        let height = cells.iter().map(|p| p.0).max()? + 1;
        if cells.iter().any(|&(y, x)| y < 0 || x < 0) || width * height > 64 {
            return None;
        }
        let gb: Vec<i32> = cells.iter().map(|&(y, x)| x + width * y).collect();
        let mut to_grid = vec![[0u64; 16]; c.n.div_ceil(4)];
        for (i, ti) in to_grid.iter_mut().enumerate() {
            for (v, e) in ti.iter_mut().enumerate() {
                for bit in (0..4).filter(|&b| v >> b & 1 == 1 && 4 * i + b < c.n) {
                    *e |= 1 << gb[4 * i + bit];
                }
            }
        }
        let mut dirs: Vec<(i32, u64, [u16; 64])> = Vec::new();
        for (m, &[a, b, cc]) in c.abc.iter().enumerate() {
            let (a, b, cc) = (gb[a as usize], gb[b as usize], gb[cc as usize]);
            let d = b - a;
            if cc - b != d {
                return None;
            }
            let k = match dirs.iter().position(|e| e.0 == d) {
                Some(k) => k,
                None => {
                    dirs.push((d, 0, [0; 64]));
                    dirs.len() - 1
                }
            };
            dirs[k].1 |= 1 << a;
            dirs[k].2[a as usize] = m as u16;
        }
        Some(Grid { to_grid, dirs })
    }

    /// The grid word of the position `s`.
    #[inline(always)]
    pub(super) fn word(&self, s: u64) -> u64 {
        let mut gw = 0u64;
        let mut s = s;
        for ti in &self.to_grid {
            gw |= ti[(s & 15) as usize];
            s >>= 4;
        }
        gw
    }

    /// The grid bits where a legal move of step `d` starts in the grid word `gw`.
    #[inline(always)]
    pub(super) fn starts(gw: u64, d: i32, starts: u64) -> u64 {
        if d > 0 {
            let d = d as u32;
            gw & gw >> d & !(gw >> (2 * d)) & starts
        } else {
            let d = d.unsigned_abs();
            gw & gw << d & !(gw << (2 * d)) & starts
        }
    }
}
