//! A level as a dense bitmap: one bit per position that a level of its peg count can hold,
//! indexed by the position's rank among them ([`Classes`], [`Dense`]).
//!
//! **Why.** A membership test in a frozen level ([`super::frozen`]) reads a directory word and
//! a run of entries; in a bitmap it is one bit, whose address is known as soon as the position
//! is, so a loop can prefetch it many positions ahead and never wait on memory. The bitmap is
//! small because it only spans the positions that *can* be in the level: those of its peg
//! count (`C(n, p)` of the `2ⁿ` words) in the class of the start under the board's linear
//! invariants (below). On the English board that is at most `C(33, 17) / 16` = 72.9 M bits,
//! 8.7 MiB, for 1.3 M positions of the pruned level of 17 pegs: 6.7 bytes per position,
//! against 2 for a frozen level, so a bitmap is built for the one level being looked up and
//! dropped after.
//!
//! **Invariants.** A move flips its three holes, so for any set `f` of holes that meets every
//! move's holes in an even number, the parity of the pegs in `f` never changes: a linear form
//! over GF(2) that vanishes on every move. [`invariants`] finds a basis of them (Gaussian
//! elimination on the moves' hole masks); up to [`FORMS`] are used. Every reachable position,
//! and every image of one under a symmetry that fixes the start (it maps moves to moves, so
//! the span of the moves to itself), has the start's values: the *class* of the start. On the
//! English board the forms are the two classical GF(4) colourings (4 bits), so a class holds
//! one position in 16.
//!
//! **Rank.** The rank of a position among the positions of its peg count `p` in the class,
//! from two tables split at bit [`LOW`] (as a word is split into a high and a low part):
//! the number of those whose high part is smaller (per high part and layer, built by
//! [`Dense::new`]) plus the number whose high part is the same and low part smaller (per low
//! part: how many low words below it have its peg count and its class values, which does not
//! depend on the layer). The two tables also carry each part's class values in their top
//! bits, so the class test costs no further load. Ranks keep the order of the words.
//!
//! Misuse: [`Dense::index`] takes a position of the layer's peg count; a word with another
//! count gets an index of some other position (the counts of the search are exact by
//! construction, and debug builds assert it).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

/// Bits of the low part of a position (at most: boards of fewer holes have no high part).
const LOW: u32 = 16;
/// Bits of the high part at most: its table has `2^HIGH_MAX` words (1 MiB).
const HIGH_MAX: u32 = 18;
/// Invariant forms used at most: the class values fit the top [`FORMS`] bits of a table word.
const FORMS: usize = 4;
/// Where the class values sit in a table word; below them, the count.
const SHIFT: u32 = 32 - FORMS as u32;
/// Positions handled at once by the pipelined loops ([`Dense::insert_some`], and the walk
/// down's lookups): the distance of their prefetches.
pub(super) const BLOCK: usize = 64;
/// The largest layer a bitmap is made for (16 MiB); ranks and counts stay below `2^SHIFT`
/// with a low table's counts added.
pub(super) const MAX_BITS: u64 = 1 << (SHIFT - 1);

/// A basis of the linear forms over GF(2) (as masks of holes) that vanish on every move of
/// `abc` (a board of `n ≤ 64` holes): the sets of holes that meet each move's three holes in
/// an even number. Its size is `n` minus the rank of the moves' masks.
pub(super) fn invariants(n: usize, abc: &[[u32; 3]]) -> Vec<u64> {
    // reduced row echelon form of the moves' masks: rows[i] has its pivot at piv[i], and
    // every other row is 0 there
    let mut rows: Vec<u64> = Vec::new();
    let mut piv: Vec<u32> = Vec::new();
    for t in abc {
        let mut m = t.iter().fold(0u64, |a, &v| a | 1 << v);
        for (r, &p) in rows.iter().zip(&piv) {
            if m >> p & 1 == 1 {
                m ^= r;
            }
        }
        if m != 0 {
            let p = m.trailing_zeros();
            for r in rows.iter_mut() {
                if *r >> p & 1 == 1 {
                    *r ^= m;
                }
            }
            rows.push(m);
            piv.push(p);
        }
    }
    // one form per free column j: bit j, and the pivot of every row that has bit j
    (0..n as u32)
        .filter(|j| !piv.contains(j))
        .map(|j| {
            rows.iter()
                .zip(&piv)
                .filter(|(r, _)| *r >> j & 1 == 1)
                .fold(1u64 << j, |f, (_, &p)| f | 1 << p)
        })
        .collect()
}

/// The values of the forms `fs` on the position `x`, one bit per form.
fn values(fs: &[u64], x: u64) -> u32 {
    fs.iter()
        .enumerate()
        .fold(0, |a, (i, &f)| a | ((x & f).count_ones() & 1) << i)
}

/// What ranks the positions of one class, whatever their peg count: the low table and the
/// class values of the high parts.
pub(super) struct Classes {
    n: usize,
    /// Bits of the low part (`min(n, LOW)`).
    low: u32,
    /// The class values of the start.
    target: u32,
    /// Per low word: how many smaller low words have its peg count and its class values, and
    /// its class values at [`SHIFT`].
    low_tab: Vec<u32>,
    /// `low_count[j << FORMS | s]`: low words of `j` pegs and class values `s`.
    low_count: Vec<u32>,
    /// Per high word, its class values.
    high_vals: Vec<u8>,
}

impl Classes {
    /// The classes of a board of `n` holes with the moves `abc`, ranking the class of
    /// `start`; `None` if the board is too large for the tables (more than
    /// `LOW + HIGH_MAX` holes).
    pub(super) fn new(n: usize, abc: &[[u32; 3]], start: u64) -> Option<Self> {
        let low = (n as u32).min(LOW);
        if n as u32 - low > HIGH_MAX {
            return None;
        }
        let mut fs = invariants(n, abc);
        fs.truncate(FORMS);
        let lo_mask = (1u64 << low) - 1;
        let part = |f: u64, lo: bool| if lo { f & lo_mask } else { f >> low };
        let lfs: Vec<u64> = fs.iter().map(|&f| part(f, true)).collect();
        let hfs: Vec<u64> = fs.iter().map(|&f| part(f, false)).collect();
        let mut low_tab = vec![0u32; 1 << low];
        let mut low_count = vec![0u32; (low as usize + 1) << FORMS];
        for (l, e) in low_tab.iter_mut().enumerate() {
            let s = values(&lfs, l as u64);
            let c = &mut low_count[(l.count_ones() as usize) << FORMS | s as usize];
            *e = *c | s << SHIFT;
            *c += 1;
        }
        let high_vals = (0..1u64 << (n as u32 - low))
            .map(|h| values(&hfs, h) as u8)
            .collect();
        Some(Classes {
            n,
            low,
            target: values(&fs, start),
            low_tab,
            low_count,
            high_vals,
        })
    }

    /// Positions of `pegs` pegs in the class.
    pub(super) fn layer_size(&self, pegs: u32) -> u64 {
        self.high_vals
            .iter()
            .enumerate()
            .map(|(h, &hv)| self.completions(pegs, h, hv))
            .sum()
    }

    /// Low words that complete the high word `h` (class values `hv`) to a position of `pegs`
    /// pegs in the class.
    fn completions(&self, pegs: u32, h: usize, hv: u8) -> u64 {
        let used = h.count_ones();
        if used > pegs || pegs - used > self.low {
            return 0;
        }
        let want = (hv as u32 ^ self.target) as usize;
        self.low_count[((pegs - used) as usize) << FORMS | want] as u64
    }
}

/// A level of one peg count as a bitmap over the positions of that count in the class
/// ([`Classes`]). Insertions may come from many threads at once.
pub(super) struct Dense<'a> {
    cl: &'a Classes,
    pegs: u32,
    /// Per high word: the positions of the layer with a smaller high word, and the high
    /// word's class values at [`SHIFT`].
    high: Vec<u32>,
    bits: Vec<AtomicU64>,
}

impl<'a> Dense<'a> {
    /// An empty level of `pegs` pegs; `None` if it would span more than [`MAX_BITS`].
    pub(super) fn new(cl: &'a Classes, pegs: u32) -> Option<Self> {
        Dense {
            cl,
            pegs,
            high: Vec::new(),
            bits: Vec::new(),
        }
        .renew(pegs)
    }

    /// An empty level of `pegs` pegs in the memory of `self`, whose bitmap is cleared rather
    /// than allocated again (a fresh one costs a page fault per page: 7-8 ms for the English
    /// board's levels of 17 and 18 pegs, as long as the lookups of a level of 20); `None` if it
    /// would span more than [`MAX_BITS`].
    pub(super) fn renew(mut self, pegs: u32) -> Option<Self> {
        let cl = self.cl;
        let size = cl.layer_size(pegs);
        if size > MAX_BITS {
            return None;
        }
        let mut acc = 0u64;
        self.high.clear();
        self.high
            .extend(cl.high_vals.iter().enumerate().map(|(h, &hv)| {
                let e = acc as u32 | (hv as u32) << SHIFT;
                acc += cl.completions(pegs, h, hv);
                e
            }));
        // cleared and grown by the threads (the main thread alone measured 5-10 ms on the
        // English board, a page fault per page of a new bitmap, with the other thread idle)
        let words = (size as usize).div_ceil(64);
        self.bits.truncate(words);
        self.bits
            .par_iter_mut()
            .with_min_len(1 << 12)
            .for_each(|w| *w.get_mut() = 0);
        let more = words - self.bits.len();
        self.bits.par_extend(
            (0..more)
                .into_par_iter()
                .with_min_len(1 << 12)
                .map(|_| AtomicU64::new(0)),
        );
        self.pegs = pegs;
        Some(self)
    }

    /// The bit of the position `x` (of the layer's peg count), or `None` if `x` is not in the
    /// class (then it is in no level).
    #[inline(always)]
    pub(super) fn index(&self, x: u64) -> Option<u32> {
        let (at, ok) = self.index_raw(x);
        ok.then_some(at)
    }

    /// [`Dense::index`] without a branch: the bit and whether `x` is in the class (if not, the
    /// bit is meaningless and may lie beyond the bitmap).
    #[inline(always)]
    pub(super) fn index_raw(&self, x: u64) -> (u32, bool) {
        debug_assert_eq!(x.count_ones(), self.pegs);
        debug_assert!(self.cl.n == 64 || x >> self.cl.n == 0);
        let lo = self.cl.low_tab[(x & ((1 << self.cl.low) - 1)) as usize];
        let hi = self.high[(x >> self.cl.low) as usize];
        (
            (lo + hi) & ((1 << SHIFT) - 1),
            (lo ^ hi) >> SHIFT == self.cl.target,
        )
    }

    /// Asks the processor to bring the table words that [`Dense::index`] of `x` reads into the
    /// cache: the tables (768 KiB for 33 holes) are read at random, and miss the caches often
    /// enough to be worth it.
    #[inline(always)]
    pub(super) fn prefetch_tables(&self, x: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let lo = self
                .cl
                .low_tab
                .as_ptr()
                .wrapping_add((x & ((1 << self.cl.low) - 1)) as usize);
            let hi = self.high.as_ptr().wrapping_add((x >> self.cl.low) as usize);
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(lo as *const i8);
                _mm_prefetch::<_MM_HINT_T0>(hi as *const i8);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = x;
    }

    /// Adds the position of bit `at`.
    #[inline(always)]
    pub(super) fn insert_at(&self, at: u32) {
        self.bits[(at >> 6) as usize].fetch_or(1 << (at & 63), Ordering::Relaxed);
    }

    /// True if the position of bit `at` is in the level.
    #[inline(always)]
    pub(super) fn contains_at(&self, at: u32) -> bool {
        self.bits[(at >> 6) as usize].load(Ordering::Relaxed) >> (at & 63) & 1 == 1
    }

    /// True if `x` is in the level.
    #[cfg(test)]
    pub(super) fn contains(&self, x: u64) -> bool {
        self.index(x).is_some_and(|at| self.contains_at(at))
    }

    /// Asks the processor to bring the word of bit `at` into the cache.
    #[inline(always)]
    pub(super) fn prefetch(&self, at: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bits.as_ptr().wrapping_add((at >> 6) as usize);
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
    }

    /// Adds every position of `xs` (of the layer's peg count, in the class), in parallel.
    #[cfg(test)]
    pub(super) fn insert_all(&self, xs: &[u64]) {
        xs.par_chunks(1 << 12).for_each(|c| self.insert_some(c));
    }

    /// Adds every position of `xs` (of the layer's peg count, in the class), in blocks of
    /// [`BLOCK`]: the table words of a block are prefetched, then its bits, then set (an
    /// atomic OR waits for its line: without the prefetches the misses would not overlap).
    pub(super) fn insert_some(&self, xs: &[u64]) {
        let mut at = [0u32; BLOCK];
        for c in xs.chunks(BLOCK) {
            c.iter().for_each(|&x| self.prefetch_tables(x));
            for (a, &x) in at.iter_mut().zip(c) {
                *a = self.index(x).expect("a position of the class");
                self.prefetch(*a);
            }
            at[..c.len()].iter().for_each(|&a| self.insert_at(a));
        }
    }

    /// Positions in the level.
    #[cfg(test)]
    pub(super) fn len(&self) -> u64 {
        self.bits
            .iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones() as u64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashSet};

    use crate::xorshift;

    /// Random moves on `n` holes: triplets of distinct holes.
    fn random_moves(rand: &mut impl FnMut() -> u64, n: usize, count: usize) -> Vec<[u32; 3]> {
        (0..count)
            .filter_map(|_| {
                let t = [0, 1, 2].map(|_| (rand() % n as u64) as u32);
                (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]).then_some(t)
            })
            .collect()
    }

    /// The forms found vanish on every move, are independent, and are as many as the
    /// dimension of the moves' null space (counted by brute force over all `2ⁿ` forms on
    /// small boards).
    #[test]
    fn invariants_are_a_basis_of_the_forms_that_vanish_on_the_moves() {
        let mut rand = xorshift(0x2545_F491_4F6C_DD1D);
        for round in 0..200 {
            let n = 3 + round % 12;
            let count = (rand() % (2 * n as u64)) as usize;
            let abc = random_moves(&mut rand, n, count);
            let fs = invariants(n, &abc);
            let masks: Vec<u64> = abc
                .iter()
                .map(|t| t.iter().fold(0u64, |a, &v| a | 1 << v))
                .collect();
            for &f in &fs {
                assert!(masks.iter().all(|m| (m & f).count_ones() % 2 == 0));
            }
            // independent: the span has 2^len elements
            let mut span = HashSet::from([0u64]);
            for &f in &fs {
                let more: Vec<u64> = span.iter().map(|s| s ^ f).collect();
                span.extend(more);
            }
            assert_eq!(span.len(), 1 << fs.len());
            let all = (0..1u64 << n)
                .filter(|&f| masks.iter().all(|m| (m & f).count_ones() % 2 == 0))
                .count();
            assert_eq!(all, 1 << fs.len(), "n {n} moves {abc:?}");
        }
    }

    /// On boards small enough to list every position, a layer's bits are exactly the ranks
    /// of its positions in the class (in the order of their words), and words outside the
    /// class have none: against the sorted list of the class's positions, for every peg
    /// count, on random moves (so random classes, up to 4 forms and beyond).
    #[test]
    fn ranks_are_the_order_of_the_class() {
        let mut rand = xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..60 {
            // both sides of LOW: boards with and without a high part
            let n = [5, 9, 14, 16, 17, 19, 20][round % 7];
            let count = (rand() % (n as u64 + 4)) as usize;
            let abc = random_moves(&mut rand, n, count);
            let start = rand() & ((1 << n) - 1);
            let cl = Classes::new(n, &abc, start).unwrap();
            let mut fs = invariants(n, &abc);
            fs.truncate(FORMS);
            let class = values(&fs, start);
            // per peg count, the words in the class and those outside it, in order
            let mut inside = vec![Vec::new(); n + 1];
            let mut outside = vec![Vec::new(); n + 1];
            for x in 0..1u64 << n {
                let to = if values(&fs, x) == class {
                    &mut inside
                } else {
                    &mut outside
                };
                to[x.count_ones() as usize].push(x);
            }
            for pegs in 0..=n as u32 {
                let d = Dense::new(&cl, pegs).unwrap();
                let members = &inside[pegs as usize];
                assert_eq!(cl.layer_size(pegs), members.len() as u64);
                for (r, &x) in members.iter().enumerate() {
                    assert_eq!(d.index(x), Some(r as u32), "n {n} pegs {pegs} {x:#x}");
                }
                for &x in &outside[pegs as usize] {
                    assert_eq!(d.index(x), None);
                }
            }
        }
    }

    /// A bitmap level holds what a hash set of its positions holds, on random sets of
    /// positions of the English board's class (33 holes: a high part of 17 bits), inserted
    /// from many threads, looked up on members and near misses; and ranks keep the order
    /// of the words there too.
    #[test]
    fn dense_levels_agree_with_a_hash_set() {
        let p = zkgames_peg::catalog::get("english").unwrap();
        let inst = p.instance();
        let n = inst.n();
        let abc: Vec<[u32; 3]> = inst.triplets().to_vec();
        let start = inst
            .first()
            .iter()
            .enumerate()
            .fold(0u64, |a, (i, &b)| a | (b as u64) << i);
        let cl = Classes::new(n, &abc, start).unwrap();
        assert_eq!(invariants(n, &abc).len(), 4);
        let mut fs = invariants(n, &abc);
        fs.truncate(FORMS);
        let class = values(&fs, start);
        assert_eq!(cl.layer_size(17), 72_922_839);
        let mut rand = xorshift(0x5851_F42D_4C95_7F2D);
        let mut rand2 = xorshift(0x1234_5678_9ABC_DEF1);
        // random positions of `pegs` pegs in the class: random walks of moves from the start
        // would stay near it, so random words of the right count, kept when in the class
        let mut random_member = |pegs: u32| loop {
            let mut x = 0u64;
            while x.count_ones() < pegs {
                x |= 1 << (rand() % n as u64);
            }
            if values(&fs, x) == class {
                return x;
            }
        };
        // each level in the memory of the one before (renewed), as the walk down does
        let mut spare: Option<Dense> = None;
        for pegs in [1u32, 5, 17, 16, 24, 32] {
            let d = match spare.take() {
                Some(d) => d.renew(pegs).unwrap(),
                None => Dense::new(&cl, pegs).unwrap(),
            };
            let size = cl.layer_size(pegs);
            let members: Vec<u64> = (0..20_000).map(|_| random_member(pegs)).collect();
            let want: HashSet<u64> = members[..10_000].iter().copied().collect();
            let v: Vec<u64> = want.iter().copied().collect();
            d.insert_all(&v);
            assert_eq!(d.len(), want.len() as u64);
            let sorted: BTreeSet<u64> = members.iter().copied().collect();
            let mut last = None;
            for &x in &sorted {
                let at = d.index(x).unwrap();
                assert!((at as u64) < size);
                assert!(last.is_none_or(|l| l < at), "ranks out of order");
                last = Some(at);
            }
            for &x in &members {
                assert_eq!(d.contains(x), want.contains(&x));
                // a near miss: one hole moved (same peg count), in or out of the class
                let (a, b) = (rand2() % n as u64, rand2() % n as u64);
                let y = x ^ (1 << a) ^ (1 << b);
                if y.count_ones() == pegs && y >> n == 0 {
                    assert_eq!(d.contains(y), want.contains(&y));
                    assert_eq!(d.index(y).is_some(), values(&fs, y) == class);
                }
            }
            spare = Some(d);
        }
    }
}
