//! A parent's legal moves and lanes by bit shuffles ([`Shuffles`]), for the block expansion
//! on processors with AVX-512 BITALG.
//!
//! `vpshufbitqmb` picks, for each of the 64 bytes of an index vector, the bit that byte names
//! of a 64-bit word: with the position in every word, one instruction tests 64 holes at once,
//! in any order. So a move's three holes are three index bytes, and the legal moves of a
//! position are three shuffles per 64 moves and two mask operations: the moves come out by
//! move number, with no grid word, no step per direction and no packing. The same instruction
//! with a symmetry's inverse permutation as the index gives the position's image under it:
//! 32 bytes an image, two images per shuffle, four shuffles for the 8 lanes of the square's
//! symmetries, instead of nine table rows.

use zkgames_peg::solver::compiled::Compiled;

/// Index vectors of [`Engine::expand_flat`](super::Engine) on processors with BITALG.
///
/// Misuse: bit 63 of a position is the "no hole" index (every byte of a move slot that no
/// move has, and of a lane bit past the board, names it), so positions must leave it clear;
/// [`Shuffles::new`] only accepts boards of at most 63 holes.
pub(super) struct Shuffles {
    /// Per half of 64 moves: the index bytes of each move's first hole (a peg), second (a
    /// peg) and third (empty).
    pub(super) from: [[u8; 64]; 2],
    pub(super) over: [[u8; 64]; 2],
    pub(super) to: [[u8; 64]; 2],
    /// The 8 lanes (truncated to 32 bits) as 4 index vectors of two lanes each; `None`
    /// unless the engine's lanes are 8 words of 32 bits.
    pub(super) lanes: Option<[[u8; 64]; 4]>,
    /// `asleep[r]`: the moves (by number) that a position skips when the move of rank `r`
    /// led to it (the engine's sleep rows, see `Engine::sleep`).
    pub(super) asleep: Vec<u128>,
    /// The move of each bit: the identity, for [`super::pagoda::Prune::kept`].
    pub(super) mv: Vec<u16>,
    /// Move numbers by bit, per half, for the block's compressed list of moves.
    pub(super) ids: [[u8; 64]; 2],
}

/// The "no hole" bit of a position.
const NONE: u8 = 63;

impl Shuffles {
    /// `None` unless the board has at most 63 holes and 128 moves. `group[k]` maps hole `v`
    /// to `group[k][v]` (lane `k`, padded with the identity); `asleep_dirs` holds the
    /// engine's sleep rows by direction of `dirs` (the grid's), `lanes32`: the engine's lanes
    /// are 8 words of 32 bits.
    pub(super) fn new(
        c: &Compiled<u64>,
        group: &[Vec<u32>],
        dirs: &[(i32, u64, [u16; 64])],
        asleep_dirs: &[u64],
        lanes32: bool,
    ) -> Option<Self> {
        let (n, moves) = (c.n, c.moves());
        if n > NONE as usize || moves > 128 || dirs.is_empty() {
            return None;
        }
        let mut holes = [[[NONE; 64]; 2]; 3];
        for (m, abc) in c.abc.iter().enumerate() {
            for (h, &v) in abc.iter().enumerate() {
                holes[h][m / 64][m % 64] = v as u8;
            }
        }
        let lanes = lanes32.then(|| {
            let mut idx = [[NONE; 64]; 4];
            for k in 0..8 {
                let p = &group[if k < group.len() { k } else { 0 }];
                // lane bit `p[v]` is hole `v`
                for (v, &to) in p.iter().enumerate().take(n) {
                    if to < 32 {
                        idx[k / 2][32 * (k % 2) + to as usize] = v as u8;
                    }
                }
            }
            idx
        });
        let nd = dirs.len();
        let asleep = asleep_dirs
            .chunks(nd)
            .map(|row| {
                let mut out = 0u128;
                for (i, (_, _, mv)) in dirs.iter().enumerate() {
                    let mut a = row[i];
                    while a != 0 {
                        out |= 1 << mv[a.trailing_zeros() as usize];
                        a &= a - 1;
                    }
                }
                out
            })
            .collect();
        let ids = std::array::from_fn(|h| {
            std::array::from_fn(|b| {
                if 64 * h + b < moves {
                    (64 * h + b) as u8
                } else {
                    u8::MAX
                }
            })
        });
        Some(Shuffles {
            from: holes[0],
            over: holes[1],
            to: holes[2],
            lanes,
            asleep,
            mv: (0..128).collect(),
            ids,
        })
    }

    /// The legal moves of `p` by number (two halves of 64), before sleep sets and pruning.
    ///
    /// # Safety
    /// The processor must have AVX-512 F and BITALG.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn legal(&self, p: u64) -> u128 {
        use std::arch::x86_64::*;
        // SAFETY: the caller's processor has AVX-512 F and BITALG; the loads are of 64 bytes
        // from arrays of 64.
        unsafe {
            let pv = _mm512_set1_epi64(p as i64);
            let half = |h: usize| {
                let a = _mm512_bitshuffle_epi64_mask(
                    pv,
                    _mm512_loadu_si512(self.from[h].as_ptr().cast()),
                );
                let b = _mm512_bitshuffle_epi64_mask(
                    pv,
                    _mm512_loadu_si512(self.over[h].as_ptr().cast()),
                );
                let c = _mm512_bitshuffle_epi64_mask(
                    pv,
                    _mm512_loadu_si512(self.to[h].as_ptr().cast()),
                );
                a & b & !c
            };
            half(0) as u128 | (half(1) as u128) << 64
        }
    }

    /// The 8 lanes of `p`, as 8 words of 32 bits.
    ///
    /// # Safety
    /// The processor must have AVX-512 F and BITALG, and [`Shuffles::lanes`] must be set.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn lanes(&self, p: u64) -> [u32; 8] {
        use std::arch::x86_64::*;
        let idx = self.lanes.as_ref().expect("lanes of 32 bits");
        // SAFETY: as in `legal`.
        unsafe {
            let pv = _mm512_set1_epi64(p as i64);
            let m = |q: usize| {
                _mm512_bitshuffle_epi64_mask(pv, _mm512_loadu_si512(idx[q].as_ptr().cast())) as i64
            };
            let v = _mm256_set_epi64x(m(3), m(2), m(1), m(0));
            std::mem::transmute::<__m256i, [u32; 8]>(v)
        }
    }
}

// the shuffles' methods exist on x86-64 only (AVX-512 BITALG and VBMI2)
#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use crate::{start_group, xorshift, Engine, How, Isa, CHUNK_CHILDREN, DENSE_MIN, FREEZE_MIN};
    use zkgames_peg::catalog;

    /// On every catalogue board of at most 33 holes with a grid, where the processor has
    /// BITALG: for random positions, the shuffled legal moves are the moves whose first two
    /// holes hold pegs and whose third is empty, and the shuffled lanes are the nibble
    /// tables' (`Engine::images`); every sleep row skips, by move number, the moves the
    /// engine's rows by direction skip.
    #[test]
    fn shuffles_find_the_legal_moves_and_lanes() {
        if !(crate::expand::has_bitalg() && crate::expand::has_vbmi2()) {
            eprintln!("skipped: the processor lacks AVX-512 BITALG or VBMI2");
            return;
        }
        let mut rand = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut boards = 0;
        for name in catalog::names() {
            let p = catalog::get(name).unwrap();
            let inst = p.instance();
            if inst.n() > 33 || p.cells().is_none() {
                continue;
            }
            let group = start_group(inst, &p.symmetries()).unwrap();
            if group.len() > 8 {
                continue;
            }
            let how = How {
                isa: Isa::Avx512,
                chunk: CHUNK_CHILDREN,
                sleep: true,
                prune: false,
                freeze_min: FREEZE_MIN,
                dense_min: DENSE_MIN,
                shuffles: true,
            };
            let e = Engine::<u32, 8>::new(inst, &group, p.cells(), how);
            let (Some(sh), Some(gr)) = (&e.shuffles, &e.grid) else {
                continue;
            };
            boards += 1;
            assert!(sh.lanes.is_some(), "{name}");
            let c = &e.c;
            for _ in 0..2000 {
                let s = (rand() & rand() | rand() & rand() & rand()) & c.full;
                let want = (0..c.moves()).fold(0u128, |acc, m| {
                    let [a, b, cc] = c.abc[m];
                    let legal = s >> a & 1 == 1 && s >> b & 1 == 1 && s >> cc & 1 == 0;
                    acc | (legal as u128) << m
                });
                // SAFETY: the processor has AVX-512 BITALG (checked above) and F with it.
                assert_eq!(unsafe { sh.legal(s) }, want, "{name}: {s:#x}");
                // SAFETY: as above; the lanes are set (asserted above).
                assert_eq!(unsafe { sh.lanes(s) }, e.images(s), "{name}: {s:#x}");
            }
            let nd = gr.dirs.len();
            assert_eq!(sh.asleep.len() * nd, e.asleep.len(), "{name}");
            for (r, &row) in sh.asleep.iter().enumerate() {
                let mut want = 0u128;
                for (i, (_, starts, mv)) in gr.dirs.iter().enumerate() {
                    let mut a = *starts;
                    while a != 0 {
                        let bit = a.trailing_zeros();
                        a &= a - 1;
                        want |= ((e.asleep[r * nd + i] >> bit & 1) as u128) << mv[bit as usize];
                    }
                }
                assert_eq!(row, want, "{name}: rank {r}");
            }
        }
        // the English board at least
        assert!(boards > 0);
    }
}
