//! Stored positions ([`Key`]): the canonical form as a 32- or 64-bit word, placed by a
//! mixing bijection whose top bits pick one of the [`BUCKETS`](super::BUCKETS) buckets and
//! whose next bits pick the slot in the bucket's table; list entries carry the mixed word
//! and a move's rank in one word.

use super::BUCKET_BITS;
use zkgames_peg::solver::word::Word;

/// A stored position: the canonical form, as a 32-bit word for boards of at most 33 holes
/// (the bit of vertex 32 follows from the peg count) or as is.
///
/// Positions are placed by [`Key::mix`], a bijection of the word: its top [`BUCKET_BITS`]
/// bits pick the bucket, the next ones the slot in the bucket's table ([`slot_hash`]). A
/// child in a bucket's list is one word of the same width ([`Key::tag_mixed`]): the mixed word
/// without its bucket bits, which the list implies, and the rank of the move that made it in
/// the 8 bits so freed. That halves the lists against a word and a rank side by side, and
/// the lists are written and read once per child, through memory.
pub(super) trait Key: Word {
    fn pack(x: u64) -> Self;
    fn wide(self) -> u64;
    fn unpack(self, pegs: u32, n: usize) -> u64;
    /// A bijection of the word whose top bits depend on every bit.
    fn mix(self) -> Self;
    /// The inverse of [`Key::mix`].
    fn unmix(self) -> Self;
    /// The list entry of the position whose mixed word is `self` and the move of rank
    /// `rank`: the mixed word shifted left by [`BUCKET_BITS`], with `rank` in the bits freed.
    fn tag_mixed(self, rank: u8) -> Self;
    /// The mixed word of the position, and the rank, of the entry `t` of bucket `b`'s list.
    fn untag_mixed(t: Self, b: usize) -> (Self, u8);
    /// The mixed word of `self`'s position without its bucket bits, at the top of a `u64`:
    /// the hash of its slot in the bucket's table.
    fn slot_hash(self) -> u64;

    /// What a [`Frozen`](super::frozen::Frozen) level stores of a mixed word below its
    /// directory of `d` bits (at least [`Key::MIN_DIR_BITS`]): for 32-bit words the low
    /// 16 bits (the bits above them are the directory slot's), for 64-bit words the whole
    /// word.
    type Rem: Copy + Eq + Default + Send + Sync + 'static;
    /// The fewest directory bits a frozen level of these words may have.
    const MIN_DIR_BITS: u32;
    /// The stored part of the mixed word `m`.
    fn rem(m: Self) -> Self::Rem;
    /// The mixed word of directory slot `slot` (of `d` bits) and stored part `r`.
    fn join(slot: usize, r: Self::Rem, d: u32) -> Self;
}

/// The inverse of an odd `m` modulo 2⁶⁴ (Newton's iteration doubles the correct low bits;
/// `m` itself is right to 3 bits).
const fn inverse(m: u64) -> u64 {
    let mut x = m;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(x)));
        i += 1;
    }
    x
}

const MIX_MUL: u64 = 0x9E37_79B9_7F4A_7C15;
const MIX_XOR: u64 = 0x5851_F42D_4C95_7F2D;

/// [`Key`]'s mixing and list entries for the word type `$t`.
macro_rules! mixing {
    ($t:ty) => {
        #[inline(always)]
        fn mix(self) -> $t {
            // the top bits of a product depend on every bit of the factor; the shift by half
            // the width brings them down to the slot's bits too (and is its own inverse)
            let h = (self ^ MIX_XOR as $t).wrapping_mul(MIX_MUL as $t);
            h ^ h >> (<$t>::BITS / 2)
        }
        #[inline(always)]
        fn unmix(self) -> $t {
            const INV: $t = inverse(MIX_MUL) as $t;
            (self ^ self >> (<$t>::BITS / 2)).wrapping_mul(INV) ^ MIX_XOR as $t
        }
        #[inline(always)]
        fn tag_mixed(self, rank: u8) -> $t {
            self << BUCKET_BITS | rank as $t
        }
        #[inline(always)]
        fn untag_mixed(t: $t, b: usize) -> ($t, u8) {
            (
                (b as $t) << (<$t>::BITS - BUCKET_BITS) | t >> BUCKET_BITS,
                t as u8,
            )
        }
        #[inline(always)]
        fn slot_hash(self) -> u64 {
            (self.mix() as u64) << (64 - <$t>::BITS + BUCKET_BITS)
        }
    };
}

impl Key for u32 {
    #[inline(always)]
    fn pack(x: u64) -> Self {
        x as u32
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn unpack(self, pegs: u32, n: usize) -> u64 {
        let lo = self as u64;
        if n == 33 {
            lo | ((pegs - self.count_ones()) as u64) << 32
        } else {
            lo
        }
    }
    mixing!(u32);
    type Rem = u16;
    const MIN_DIR_BITS: u32 = 16;
    #[inline(always)]
    fn rem(m: u32) -> u16 {
        m as u16
    }
    #[inline(always)]
    fn join(slot: usize, r: u16, d: u32) -> u32 {
        // the bits of `r` above the slot's low end are the slot's own (d >= 16)
        (slot as u32) << (32 - d) | r as u32
    }
}

impl Key for u64 {
    #[inline(always)]
    fn pack(x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }
    #[inline(always)]
    fn unpack(self, _: u32, _: usize) -> u64 {
        self
    }
    mixing!(u64);
    type Rem = u64;
    const MIN_DIR_BITS: u32 = BUCKET_BITS;
    #[inline(always)]
    fn rem(m: u64) -> u64 {
        m
    }
    #[inline(always)]
    fn join(_: usize, r: u64, _: u32) -> u64 {
        r
    }
}

/// The bucket of a position: the top [`BUCKET_BITS`] bits of its mixed word.
#[inline(always)]
pub(super) fn bucket<K: Key>(k: K) -> usize {
    bucket_of_mixed(k.mix())
}

/// The bucket of the position whose mixed word is `m`.
#[inline(always)]
pub(super) fn bucket_of_mixed<K: Key>(m: K) -> usize {
    (m.wide() >> (K::BITS as u32 - BUCKET_BITS)) as usize
}

/// The hash that places a position in its bucket's table (every table of a count uses it).
#[inline(always)]
pub(super) fn slot_hash<K: Key>(k: K) -> u64 {
    k.slot_hash()
}
