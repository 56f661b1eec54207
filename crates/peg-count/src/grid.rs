//! The count's bit-parallel move generation on lattice boards ([`Grid`]).

use zkgames_peg::solver::compiled::Compiled;

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
    /// Where the board has at most 128 moves: every move as one bit of a 128-bit mask
    /// ([`Grid::legal_packed`]).
    pub(super) packed: Option<Packed>,
    /// Where the holes are numbered in the order of their grid bits (row by row, as every
    /// board of the catalogue): the grid bits of the holes, so that a position's grid word is
    /// one PDEP of it ([`Grid::word_deposit`]).
    deposit: Option<u64>,
}

/// The moves of a grid as the bits of one 128-bit mask: direction after direction, each
/// direction's moves in the order of their grid bits, so that a direction's mask of start bits
/// packs into its part by one PEXT. The moves of a position are then one loop over one mask
/// (its exit mispredicted once a parent) instead of one loop per direction (once a direction).
/// A direction's part lies within one of the two 64-bit halves (the next half takes it whole
/// if it would straddle them), so that it is placed by a 64-bit shift: a variable 128-bit
/// shift is a branchy sequence of instructions.
pub(super) struct Packed {
    /// Per direction, the half of its part (0 low, 1 high) and the part's first bit in it.
    at: Vec<(usize, u32)>,
    /// The move of each bit (`u16::MAX` for bits no move has).
    pub(super) mv: Vec<u16>,
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
        let packed = Packed::new(&dirs);
        let deposit = gb
            .windows(2)
            .all(|w| w[0] < w[1])
            .then(|| gb.iter().fold(0u64, |acc, &g| acc | 1 << g));
        Some(Grid {
            to_grid,
            dirs,
            packed,
            deposit,
        })
    }

    /// The grid bits `bits` of direction `i`'s starts as a packed mask (only where the grid
    /// has one): the portable form of what [`Grid::legal_packed`] does with PEXT, for tables.
    pub(super) fn pack(&self, i: usize, bits: u64) -> u128 {
        let Some(pk) = &self.packed else { return 0 };
        let starts = self.dirs[i].1;
        let (mut rest, mut k, mut out) = (starts, 0, 0u128);
        while rest != 0 {
            let b = rest.trailing_zeros();
            rest &= rest - 1;
            let (half, o) = pk.at[i];
            out |= ((bits >> b & 1) as u128) << (64 * half as u32 + o + k);
            k += 1;
        }
        out
    }

    /// The legal moves of the position whose grid word is `gw`, as the bits of `pk`, this
    /// grid's [`Packed`] form.
    ///
    /// # Safety
    /// The processor must have BMI2 (PEXT).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn legal_packed(&self, pk: &Packed, gw: u64) -> u128 {
        // both halves in registers: each direction's part goes to both, masked by the half
        // it belongs to (an array indexed by the half stayed in memory, a chain of stores
        // and loads through every direction)
        let (mut lo, mut hi) = (0u64, 0u64);
        for ((d, starts, _), &(half, o)) in self.dirs.iter().zip(&pk.at) {
            // SAFETY: the caller's processor has BMI2.
            let part =
                unsafe { std::arch::x86_64::_pext_u64(Grid::starts(gw, *d, *starts), *starts) }
                    << o;
            let high = 0u64.wrapping_sub(half as u64);
            lo |= part & !high;
            hi |= part & high;
        }
        (hi as u128) << 64 | lo as u128
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

    /// The grid word of the position `s`, by PDEP where the holes are in grid order.
    ///
    /// # Safety
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn word_deposit(&self, s: u64) -> u64 {
        match self.deposit {
            // SAFETY: the caller's processor has BMI2.
            Some(mask) => unsafe { std::arch::x86_64::_pdep_u64(s, mask) },
            None => self.word(s),
        }
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

impl Packed {
    /// `None` if the moves do not fit 128 bits.
    fn new(dirs: &[(i32, u64, [u16; 64])]) -> Option<Self> {
        let (mut at, mut mv) = (Vec::new(), Vec::new());
        for (_, starts, m) in dirs {
            let len = starts.count_ones() as usize;
            if mv.len() < 64 && mv.len() + len > 64 {
                // into the high half whole
                mv.resize(64, u16::MAX);
            }
            if mv.len() + len > 128 {
                return None;
            }
            at.push((mv.len() / 64, (mv.len() % 64) as u32));
            let mut rest = *starts;
            while rest != 0 {
                mv.push(m[rest.trailing_zeros() as usize]);
                rest &= rest - 1;
            }
        }
        Some(Packed { at, mv })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift;
    use zkgames_peg::catalog;

    /// The moves of `gw` found direction by direction, as a sorted list.
    fn by_direction(g: &Grid, gw: u64) -> Vec<u16> {
        let mut out = Vec::new();
        for (d, starts, mv) in &g.dirs {
            let mut a = Grid::starts(gw, *d, *starts);
            while a != 0 {
                out.push(mv[a.trailing_zeros() as usize]);
                a &= a - 1;
            }
        }
        out.sort_unstable();
        out
    }

    /// The moves of a packed mask, as a sorted list.
    fn unpacked(pk: &Packed, mut a: u128) -> Vec<u16> {
        let mut out = Vec::new();
        while a != 0 {
            out.push(pk.mv[a.trailing_zeros() as usize]);
            a &= a - 1;
        }
        out.sort_unstable();
        out
    }

    /// On every catalogue board with a grid, for random positions: the moves found direction
    /// by direction are the legal moves (checked move by move), and the packed form holds
    /// the same moves, made by PEXT ([`Grid::legal_packed`], where the processor has BMI2)
    /// and by the portable [`Grid::pack`] alike.
    #[test]
    fn packed_moves_are_the_legal_moves() {
        let mut rand = xorshift(0x2545_F491_4F6C_DD1D);
        let mut packed_boards = 0;
        let mut deposited = 0;
        for name in catalog::names() {
            let p = catalog::get(name).unwrap();
            let Some(cells) = p.cells() else { continue };
            let c: Compiled<u64> = Compiled::new(p.instance(), &p.symmetries()[..1], &[]);
            let Some(g) = Grid::new(&c, cells) else {
                continue;
            };
            packed_boards += g.packed.is_some() as usize;
            for _ in 0..2000 {
                // a position of any density
                let s = (rand() & rand() | rand() & rand() & rand()) & c.full;
                let gw = g.word(s);
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("bmi2") {
                    // SAFETY: the processor has BMI2 (just checked).
                    assert_eq!(unsafe { g.word_deposit(s) }, gw, "{name}: {s:#x}");
                }
                deposited += g.deposit.is_some() as usize;
                let want = by_direction(&g, gw);
                let mut legal: Vec<u16> = (0..c.moves())
                    .filter(|&m| {
                        let [a, b, cc] = c.abc[m];
                        s >> a & 1 == 1 && s >> b & 1 == 1 && s >> cc & 1 == 0
                    })
                    .map(|m| m as u16)
                    .collect();
                legal.sort_unstable();
                assert_eq!(want, legal, "{name}: {s:#x}");
                let Some(pk) = &g.packed else { continue };
                let portable = (0..g.dirs.len()).fold(0u128, |acc, i| {
                    acc | g.pack(i, Grid::starts(gw, g.dirs[i].0, g.dirs[i].1))
                });
                assert_eq!(unpacked(pk, portable), want, "{name}: {s:#x}");
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("bmi2") {
                    // SAFETY: the processor has BMI2 (just checked).
                    let a = unsafe { g.legal_packed(pk, gw) };
                    assert_eq!(a, portable, "{name}: {s:#x}");
                }
            }
        }
        // the English board (76 moves) at least, whose holes are in grid order
        assert!(packed_boards > 0 && deposited > 0);
    }
}
