//! Positions as machine words: bit `v` is vertex `v` (1 = peg). `u64` serves boards of up to 64
//! holes (every catalog board), `u128` up to 128; `u32` stores the positions of a count.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A position of at most `BITS` vertices.
pub trait Word:
    Copy
    + Debug
    + Default
    + Eq
    + Ord
    + Hash
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + 'static
{
    const BITS: usize;
    const ZERO: Self;
    /// The word with only bit `i`.
    fn bit(i: u32) -> Self;
    fn count(self) -> u32;
    /// Clears the lowest set bit and returns its index, if any.
    fn pop_lowest(&mut self) -> Option<usize>;
    /// A well-mixed 64-bit hash (a bijection of the low 64 bits, then folded).
    fn hash64(self) -> u64;
    fn from_bools(b: &[bool]) -> Self {
        b.iter()
            .enumerate()
            .filter(|(_, &x)| x)
            .fold(Self::ZERO, |acc, (i, _)| acc | Self::bit(i as u32))
    }
    fn to_bools(self, n: usize) -> Vec<bool> {
        (0..n as u32)
            .map(|i| self & Self::bit(i) != Self::ZERO)
            .collect()
    }
    /// The image of `self` under the vertex permutation `p` (bit `v` moves to `p[v]`).
    fn permute(self, p: &[u32]) -> Self {
        let mut out = Self::ZERO;
        for (v, &img) in p.iter().enumerate() {
            if self & Self::bit(v as u32) != Self::ZERO {
                out = out | Self::bit(img);
            }
        }
        out
    }
}

/// The 64-bit finaliser of MurmurHash3: a bijection with good avalanche.
#[inline(always)]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// `Word` for a primitive unsigned integer; `$x => $hash` maps the value to its 64-bit hash.
macro_rules! impl_word {
    ($t:ty, $x:ident => $hash:expr) => {
        impl Word for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            #[inline(always)]
            fn pop_lowest(&mut self) -> Option<usize> {
                if *self == 0 {
                    return None;
                }
                let i = self.trailing_zeros() as usize;
                *self &= *self - 1;
                Some(i)
            }
            #[inline(always)]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn hash64(self) -> u64 {
                let $x = self;
                $hash
            }
        }
    };
}

impl_word!(u32, x => mix64(x as u64));
impl_word!(u64, x => mix64(x));
impl_word!(u128, x => mix64(x as u64 ^ mix64((x >> 64) as u64)));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_moves_each_bit_to_its_image() {
        let p: Vec<u32> = (0..100u32).map(|i| (i * 37 + 11) % 100).collect();
        let s: u128 = 0x0123_4567_89ab_cdef_0fed_cba9_8765 & ((1u128 << 100) - 1);
        let img = s.permute(&p);
        for (v, &pv) in p.iter().enumerate() {
            assert_eq!(s >> v & 1, img >> pv & 1);
        }
        assert_eq!(img.count_ones(), s.count_ones());
        let b = s.to_bools(100);
        assert_eq!(u128::from_bools(&b), s);
    }
}
