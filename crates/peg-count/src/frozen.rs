//! A finished level, frozen ([`Frozen`]): its positions sorted by mixed word into slots of a
//! directory, each stored as the part of the mixed word below the slot's bits, and with it
//! the move ranks while the level still has children to list ([`Store`] holds either form).
//!
//! **Why.** Once a level is complete it is only read: in order, bucket by bucket, as the
//! parents of the next level, and at random, for the complement lookups and the walk down.
//! The sorted buckets it was built in ([`super::sorted`]) hold a whole word and its ranks per
//! position, 8 bytes with padding; frozen, a position of a board of at most 33 holes takes
//! 2 bytes (the low 16 bits of its mixed word: the directory slot holds the top bits, at
//! least 16 of them) plus 2 for its ranks while they are needed, and a directory word per 16
//! positions or so. A lookup is one directory word (a directory of 2²ᶠ slots for `f` ≥ 16
//! bits, 0.25–0.5 byte per position, mostly in the second-level cache) and one cache line of
//! entries, usually; the English board's largest kept level (2.6 M positions) is 5 MB of
//! entries instead of 21 MB, which spares the processor's address translation as much as its
//! caches (a random lookup into many pages costs a page walk, dear on a virtual machine).
//!
//! **Layout.** The directory slot of a position is the top `d` bits of its mixed word
//! ([`Key::mix`]), so bucket `b` (the top [`BUCKET_BITS`] bits) owns the consecutive slots
//! `b << (d - BUCKET_BITS)..`: freezing copies each sorted bucket in order into its own part
//! of the arrays (in parallel), and reading a bucket back is a walk over its slots. A lookup
//! compares every entry of its slot (a slot holds about 16, one or two vector compares).
//! Levels too small for a directory of 2¹⁶ slots stay in hash tables, one per bucket.
//!
//! Misuse: a frozen level is immutable; [`Store::values_into`] after
//! [`Store::drop_values`] panics, as for a table.

use rayon::prelude::*;

use super::sorted::Bucket;
use super::{bucket, slot_hash, Key, BUCKETS, BUCKET_BITS};
use zkgames_peg::solver::table::Table;

/// A level's positions (and their move ranks), read-only. See the module documentation.
pub(super) struct Frozen<K: Key> {
    /// Directory bits: the slot of a position is the top `d` bits of its mixed word.
    d: u32,
    /// `dir[s]..dir[s + 1]`: the entries of slot `s` (`2^d + 1` words).
    dir: Vec<u32>,
    /// Per entry, its mixed word below the slot's bits ([`Key::rem`]).
    rem: Vec<K::Rem>,
    /// Per entry, the ranks of two moves into it; empty once dropped.
    vals: Vec<u16>,
}

/// Entries a lookup compares at once ([`Frozen::scan`]), and the padding after the last
/// slot's.
const WIDE: usize = 32;

/// Positions per directory slot aimed at: the directory costs a word per this many entries,
/// and a lookup compares this many on average.
const PER_SLOT: usize = 16;

impl<K: Key> Frozen<K> {
    /// The directory bits for `len` positions: about [`PER_SLOT`] per slot, at least
    /// [`Key::MIN_DIR_BITS`] and [`BUCKET_BITS`], at most 28.
    fn dir_bits(len: usize) -> u32 {
        let want = (len / PER_SLOT).max(1).next_power_of_two().trailing_zeros();
        want.clamp(K::MIN_DIR_BITS.max(BUCKET_BITS), 28)
    }

    /// Freezes the level held by `buckets` (one per bucket, as [`bucket`] places positions,
    /// each sorted by mixed word: [`Bucket`]), keeping the values if `keep_vals`;
    /// frees each bucket once copied. `None` (the buckets given back) if the level holds 2³²
    /// positions or more.
    pub(super) fn from_sorted(
        buckets: Vec<Bucket<K>>,
        keep_vals: bool,
    ) -> Result<Self, Vec<Bucket<K>>> {
        assert_eq!(buckets.len(), BUCKETS);
        let lens: Vec<usize> = buckets.iter().map(Vec::len).collect();
        let len: usize = lens.iter().sum();
        if len >= u32::MAX as usize {
            return Err(buckets);
        }
        let d = Self::dir_bits(len);
        let per = 1usize << (d - BUCKET_BITS);
        // (and `WIDE` entries of padding, so that a slot's last compare stays inside); the
        // entries are written once each below, not zeroed first
        let mut rem: Vec<K::Rem> = Vec::with_capacity(len + WIDE);
        let mut vals: Vec<u16> = Vec::with_capacity(if keep_vals { len } else { 0 });
        let mut dir = vec![0u32; (1 << d) + 1];
        dir[1 << d] = len as u32;
        // each bucket's own part of the arrays
        let mut parts = Vec::with_capacity(BUCKETS);
        let (mut r, mut v, mut ds) = (
            &mut rem.spare_capacity_mut()[..len],
            &mut vals.spare_capacity_mut()[..if keep_vals { len } else { 0 }],
            &mut dir[..1 << d],
        );
        let mut start = 0usize;
        for &l in &lens {
            let (r0, r1) = r.split_at_mut(l);
            let (v0, v1) = v.split_at_mut(if keep_vals { l } else { 0 });
            let (d0, d1) = ds.split_at_mut(per);
            parts.push((r0, v0, d0, start));
            (r, v, ds) = (r1, v1, d1);
            start += l;
        }
        buckets
            .into_par_iter()
            .zip(parts)
            .for_each(|(bk, (r, v, ds, start))| {
                let sub = |m: K| (m.wide() >> (K::BITS as u32 - d)) as usize & (per - 1);
                // the directory by counting entries per slot, then their running sum: a
                // walk from slot to slot in the copy below ended in a branch on how many
                // slots each entry passed, mispredicted about once an entry (freezing took
                // twice as long)
                for &(m, _) in &bk {
                    ds[sub(m)] += 1;
                }
                let mut at = start as u32;
                for e in ds.iter_mut() {
                    (*e, at) = (at, at + *e);
                }
                debug_assert!(bk.windows(2).all(|w| w[0].0 < w[1].0), "sorted and unique");
                for (e, &(m, _)) in r.iter_mut().zip(&bk) {
                    e.write(K::rem(m));
                }
                if keep_vals {
                    for (e, &(_, val)) in v.iter_mut().zip(&bk) {
                        e.write(val);
                    }
                }
            });
        rem.spare_capacity_mut()[len..len + WIDE]
            .fill(std::mem::MaybeUninit::new(K::Rem::default()));
        // SAFETY: the buckets' parts cover `..len` of both arrays exactly (their lengths sum
        // to `len`), and each bucket wrote every entry of its part (one per position, the
        // part as long as the bucket); the padding was written just above.
        unsafe {
            rem.set_len(len + WIDE);
            vals.set_len(if keep_vals { len } else { 0 });
        }
        Ok(Frozen { d, dir, rem, vals })
    }

    /// How many positions the level holds.
    pub(super) fn len(&self) -> usize {
        self.rem.len() - WIDE
    }

    /// True if the entries `lo..hi` hold `r`: `WIDE` entries per compare (a loop that exits
    /// once a slot, usually after one turn), the entries past `hi` masked off. A fold over
    /// the slot alone compiled to vector compares plus a loop over the rest, whose exit was
    /// mispredicted about once a lookup.
    #[inline(always)]
    fn scan(&self, lo: usize, hi: usize, r: K::Rem) -> bool {
        let mut hit = false;
        let mut i = lo;
        while i < hi {
            let Some(chunk) = self.rem.get(i..i + WIDE) else {
                unreachable!("a slot's entries end WIDE entries before the padding's end")
            };
            let mut m = 0u32;
            for (j, &x) in chunk.iter().enumerate() {
                m |= ((x == r) as u32) << j;
            }
            let left = hi - i;
            let valid = if left >= WIDE {
                u32::MAX
            } else {
                (1u32 << left) - 1
            };
            hit |= m & valid != 0;
            i += WIDE;
        }
        hit
    }

    /// The directory slot of the mixed word `m`.
    #[inline(always)]
    fn slot(&self, m: K) -> usize {
        (m.wide() >> (K::BITS as u32 - self.d)) as usize
    }

    /// True if `k` is in the level.
    #[inline(always)]
    pub(super) fn contains(&self, k: K) -> bool {
        self.contains_mixed(k.mix())
    }

    /// True if the position whose mixed word is `m` is in the level.
    #[inline(always)]
    pub(super) fn contains_mixed(&self, m: K) -> bool {
        let s = self.slot(m);
        let (lo, hi) = (self.dir[s] as usize, self.dir[s + 1] as usize);
        self.scan(lo, hi, K::rem(m))
    }

    /// Asks the processor to bring the directory word of the mixed word `m` into the cache:
    /// the first of the three steps of a lookup whose loads are prefetched
    /// ([`Frozen::entries_of`], [`Frozen::holds`] are the others).
    #[inline(always)]
    pub(super) fn prefetch_dir(&self, m: K) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.dir.as_ptr().wrapping_add(self.slot(m));
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = m;
    }

    /// The entries of the slot of the mixed word `m` (a range of `rem`), whose first line it
    /// asks the processor to bring into the cache.
    #[inline(always)]
    pub(super) fn entries_of(&self, m: K) -> (u32, u32) {
        let s = self.slot(m);
        let (lo, hi) = (self.dir[s], self.dir[s + 1]);
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.rem.as_ptr().wrapping_add(lo as usize);
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) };
        }
        (lo, hi)
    }

    /// True if the entries `at` (from [`Frozen::entries_of`] of `m`) hold the mixed word `m`.
    #[inline(always)]
    pub(super) fn holds(&self, at: (u32, u32), m: K) -> bool {
        self.scan(at.0 as usize, at.1 as usize, K::rem(m))
    }

    /// Asks the processor to bring the entries of `k`'s slot into the cache.
    #[inline(always)]
    pub(super) fn prefetch(&self, k: K) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let s = self.slot(k.mix());
            let p = self.rem.as_ptr().wrapping_add(self.dir[s] as usize);
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = k;
    }

    /// The entries of bucket `b`: the range of `rem` its slots cover.
    fn bucket_range(&self, b: usize) -> (usize, usize) {
        let per = 1usize << (self.d - BUCKET_BITS);
        (self.dir[b * per] as usize, self.dir[(b + 1) * per] as usize)
    }

    /// The positions of bucket `b`, appended to `out` (values or none).
    pub(super) fn keys_into(&self, b: usize, out: &mut Vec<K>) {
        let per = 1usize << (self.d - BUCKET_BITS);
        for s in b * per..(b + 1) * per {
            let (lo, hi) = (self.dir[s] as usize, self.dir[s + 1] as usize);
            out.extend(
                self.rem[lo..hi]
                    .iter()
                    .map(|&r| K::join(s, r, self.d).unmix()),
            );
        }
    }

    /// The positions of bucket `b` with their values, into `out` (replacing what it held).
    pub(super) fn values_into(&self, b: usize, out: &mut Vec<(K, u16)>) {
        assert_eq!(self.vals.len(), self.len(), "values read after drop_values");
        out.clear();
        let per = 1usize << (self.d - BUCKET_BITS);
        for s in b * per..(b + 1) * per {
            let (lo, hi) = (self.dir[s] as usize, self.dir[s + 1] as usize);
            for i in lo..hi {
                out.push((K::join(s, self.rem[i], self.d).unmix(), self.vals[i]));
            }
        }
    }
}

/// A level's positions: hash tables per bucket while it is built (and for small levels),
/// [`Frozen`] once complete.
pub(super) enum Store<K: Key> {
    Tables(Vec<Table<K, u16>>),
    Frozen(Frozen<K>),
}

impl<K: Key> Store<K> {
    /// The complete level of `buckets` (each sorted by mixed word: [`Bucket`]),
    /// frozen if it holds at least `min` positions (and fewer than 2³²), in tables otherwise;
    /// values are kept.
    pub(super) fn complete(buckets: Vec<Bucket<K>>, min: usize) -> Self {
        let len: usize = buckets.iter().map(Vec::len).sum();
        let buckets = if len < min {
            buckets
        } else {
            match Frozen::from_sorted(buckets, true) {
                Ok(f) => return Store::Frozen(f),
                Err(b) => b,
            }
        };
        Store::Tables(
            buckets
                .into_par_iter()
                .map(|bk| {
                    let mut t = Table::with_capacity(bk.len() * 4 / 3 + 16);
                    for (m, val) in bk {
                        let k = m.unmix();
                        t.update_growing_hashed(k, slot_hash(k), usize::MAX, slot_hash, |v| {
                            *v = val
                        });
                    }
                    t
                })
                .collect(),
        )
    }

    /// No positions (a level no longer needed).
    pub(super) fn empty() -> Self {
        Store::Tables(Vec::new())
    }

    /// True if `k` is in the level.
    #[inline(always)]
    pub(super) fn contains(&self, k: K) -> bool {
        match self {
            Store::Tables(ts) => ts[bucket(k)].contains_hashed(k, slot_hash(k)),
            Store::Frozen(f) => f.contains(k),
        }
    }

    /// True if the position whose mixed word is `m` is in the level.
    #[inline(always)]
    pub(super) fn contains_mixed(&self, m: K) -> bool {
        match self {
            Store::Tables(_) => self.contains(m.unmix()),
            Store::Frozen(f) => f.contains_mixed(m),
        }
    }

    /// Prefetches what [`Store::contains`] of `k` reads.
    #[inline(always)]
    pub(super) fn prefetch(&self, k: K) {
        match self {
            Store::Tables(ts) => ts[bucket(k)].prefetch_slot_hashed(slot_hash(k)),
            Store::Frozen(f) => f.prefetch(k),
        }
    }

    /// Positions of bucket `b`.
    pub(super) fn bucket_len(&self, b: usize) -> usize {
        match self {
            Store::Tables(ts) => ts[b].len(),
            Store::Frozen(f) => {
                let (lo, hi) = f.bucket_range(b);
                hi - lo
            }
        }
    }

    /// The positions of bucket `b` with their values, into `out` (replacing what it held).
    pub(super) fn values_into(&self, b: usize, out: &mut Vec<(K, u16)>) {
        match self {
            Store::Tables(ts) => ts[b].values_into(out),
            Store::Frozen(f) => f.values_into(b, out),
        }
    }

    /// The positions of bucket `b`, appended to `out` (with their values or after
    /// [`Store::drop_values`]).
    pub(super) fn keys_into(&self, b: usize, out: &mut Vec<K>) {
        match self {
            Store::Tables(ts) => out.extend(ts[b].iter()),
            Store::Frozen(f) => f.keys_into(b, out),
        }
    }

    /// Frees the values (see [`Table::drop_values`]).
    pub(super) fn drop_values(&mut self) {
        match self {
            Store::Tables(ts) => ts.iter_mut().for_each(Table::drop_values),
            Store::Frozen(f) => f.vals = Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A frozen level answers lookups as a hash map of its positions does (on members and on
    /// random words), gives back every position with its value bucket by bucket, and its
    /// buckets hold what the tables held: for both widths of word, levels from empty to
    /// large enough for directories beyond the minimum, the empty word included.
    #[test]
    fn frozen_levels_agree_with_a_hash_map() {
        fn check<K: Key>(mut rand: impl FnMut() -> u64, sizes: &[usize]) {
            for &size in sizes {
                let mut want: HashMap<K, u16> = HashMap::new();
                let words: Vec<K> = (0..size)
                    .map(|i| if i == 0 { K::ZERO } else { K::pack(rand()) })
                    .collect();
                for &k in &words {
                    want.insert(k, rand() as u16);
                }
                // the buckets as a level being built holds them: mixed words, sorted
                let mut buckets: Vec<Bucket<K>> = (0..BUCKETS).map(|_| Vec::new()).collect();
                for (&k, &v) in &want {
                    buckets[bucket(k)].push((k.mix(), v));
                }
                buckets.iter_mut().for_each(|b| b.sort_unstable());
                let lens: Vec<usize> = buckets.iter().map(Vec::len).collect();
                let f = Frozen::from_sorted(buckets, true).ok().unwrap();
                assert_eq!(f.len(), want.len());
                let store = Store::Frozen(f);
                let mut seen = HashMap::new();
                let mut out = Vec::new();
                for (b, &l) in lens.iter().enumerate() {
                    store.values_into(b, &mut out);
                    assert_eq!(out.len(), l);
                    assert_eq!(store.bucket_len(b), l);
                    for &(k, v) in &out {
                        assert_eq!(bucket(k), b);
                        assert!(seen.insert(k, v).is_none(), "{k:?} twice");
                    }
                }
                assert_eq!(seen, want);
                let mut keys = Vec::new();
                for b in 0..BUCKETS {
                    let before = keys.len();
                    store.keys_into(b, &mut keys);
                    assert!(keys[before..].iter().all(|&k| bucket(k) == b));
                }
                assert_eq!(keys.len(), want.len());
                assert!(keys.iter().all(|k| want.contains_key(k)));
                for &k in &words {
                    assert!(store.contains(k));
                }
                // the lookup in three steps (the walk's) answers as `contains` does
                let steps = |k: K| match &store {
                    Store::Frozen(f) => {
                        f.prefetch_dir(k.mix());
                        f.holds(f.entries_of(k.mix()), k.mix())
                    }
                    Store::Tables(_) => unreachable!("frozen"),
                };
                for _ in 0..20_000 {
                    let k = K::pack(rand());
                    assert_eq!(store.contains(k), want.contains_key(&k), "{k:?}");
                    assert_eq!(steps(k), want.contains_key(&k), "{k:?}");
                    // near misses: one bit off a member
                    let m = words[rand() as usize % words.len()];
                    let k = m ^ K::bit((rand() % K::BITS as u64) as u32);
                    assert_eq!(store.contains(k), want.contains_key(&k), "{k:?}");
                    assert_eq!(steps(k), want.contains_key(&k), "{k:?}");
                }
                let mut s = store;
                s.drop_values();
                assert!(words.iter().all(|&k| s.contains(k)));
                let mut after = Vec::new();
                (0..BUCKETS).for_each(|b| s.keys_into(b, &mut after));
                assert_eq!(after, keys);
            }
        }
        let mut rand = crate::xorshift(0x2545_F491_4F6C_DD1Du64);
        let sizes = [1, 2, 100, 5_000, 300_000, 2_500_000];
        // 32-bit words: random ones, and dense low ones (like canonical forms, which crowd
        // the low words)
        check::<u32>(&mut rand, &sizes);
        let mut y = 0u64;
        check::<u32>(
            move || {
                y += 1 + (y % 3);
                y
            },
            &sizes[..5],
        );
        check::<u64>(&mut rand, &sizes[..5]);
    }
}
