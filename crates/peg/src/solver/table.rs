//! A set of positions by open addressing: one flat array of words, linear probing, the zero
//! word marking an empty slot (the empty position itself is kept in a flag).
//!
//! The capacity is any number of slots (a level of the position count is sized to what it
//! will hold: a power of two would leave up to half of it empty); the home slot of a hash is
//! its top 32 bits scaled to the capacity. An insert is one hash and, at a load of at most 3/4, one or
//! two cache lines. A full table (3/4 of its slots used) refuses inserts, which for a table of
//! dead positions only costs pruning; [`Table::insert_growing`] doubles it first, up to a cap
//! (a rehash, amortised O(1) per insert). Tables start small and grow rather than being
//! allocated at their largest size: on this project's machine the first touch of a page costs
//! about 2 µs per 4 KiB, so a large table filled sparsely costs a page fault per insert.
//! Callers may pass their own hash ([`Table::insert_hashed`]), consistently for one table.
//!
//! A table may also keep a value per position (`V`, nothing by default): values live in an
//! array of their own beside the slots, so a set (`V = ()`) costs no memory for them, and a
//! lookup that ignores them never loads them.

use super::word::Word;

pub struct Table<W: Word, V: Copy + Default = ()> {
    slots: Vec<W>,
    /// `vals[i]`: the value of the position in `slots[i]`.
    vals: Vec<V>,
    /// The value of the empty position (which has no slot).
    zero_val: V,
    /// Number of slots.
    cap: usize,
    len: usize,
    limit: usize,
    has_zero: bool,
}

impl<W: Word, V: Copy + Default> Table<W, V> {
    /// A table of `cap` slots (at least 16).
    pub fn with_capacity(cap: usize) -> Self {
        // the home slot is computed in 64 bits from 32 bits of hash
        let cap = cap.clamp(16, 1 << 32);
        Table {
            slots: vec![W::ZERO; cap],
            vals: vec![V::default(); cap],
            zero_val: V::default(),
            cap,
            len: 0,
            limit: cap / 4 * 3,
            has_zero: false,
        }
    }

    /// Whether no position is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of positions stored.
    pub fn len(&self) -> usize {
        self.len + self.has_zero as usize
    }

    /// Number of slots.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// True when inserts are refused.
    pub fn is_full(&self) -> bool {
        self.len >= self.limit
    }

    #[inline(always)]
    fn home(&self, h: u64) -> usize {
        (((h >> 32) * self.cap as u64) >> 32) as usize
    }

    /// Asks the processor to bring the home slot of hash `h` into the cache, for a lookup
    /// ([`Table::contains_hashed`]): a batch of lookups that prefetches a few entries ahead
    /// hides the latency of tables larger than the first-level cache. The slot only, not the
    /// value beside it, which a lookup never reads (and which may be dropped).
    #[inline(always)]
    pub fn prefetch_slot_hashed(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.slots.as_ptr().wrapping_add(self.home(h));
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    #[inline]
    pub fn contains(&self, x: W) -> bool {
        self.contains_hashed(x, x.hash64())
    }

    /// [`Table::contains`] with the hash given: the slot comes from its top bits. Every
    /// access to one table must use the same hash function.
    #[inline(always)]
    pub fn contains_hashed(&self, x: W, h: u64) -> bool {
        if x == W::ZERO {
            return self.has_zero;
        }
        let mut i = self.home(h);
        loop {
            let s = self.slots[i];
            if s == x {
                return true;
            }
            if s == W::ZERO {
                return false;
            }
            i += 1;
            if i == self.cap {
                i = 0;
            }
        }
    }

    /// Inserts `x`; true if it was not there. A full table stores nothing and returns false.
    #[inline]
    pub fn insert(&mut self, x: W) -> bool {
        self.insert_hashed(x, x.hash64())
    }

    /// [`Table::insert`] with the hash given (see [`Table::contains_hashed`]).
    #[inline(always)]
    pub fn insert_hashed(&mut self, x: W, h: u64) -> bool {
        if x == W::ZERO {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        self.place(x, h).is_some_and(|(_, new)| new)
    }

    /// Inserts `x`, doubling the capacity first if the table is full and has fewer than
    /// `max_cap` slots. True if `x` was not there (and is stored now).
    pub fn insert_growing(&mut self, x: W, max_cap: usize) -> bool {
        if self.is_full() && self.slots.len() < max_cap {
            self.reserve(self.slots.len() * 2);
        }
        self.insert(x)
    }

    /// [`Table::insert_growing`] with the hash given by `hash` (see
    /// [`Table::contains_hashed`]).
    #[inline(always)]
    pub fn insert_growing_with(&mut self, x: W, max_cap: usize, hash: impl Fn(W) -> u64) -> bool {
        if self.is_full() && self.slots.len() < max_cap {
            self.grow(self.slots.len() * 2, &hash);
        }
        self.insert_hashed(x, hash(x))
    }

    /// Inserts `x` if it is not there (with the default value), growing as
    /// [`Table::insert_growing_with`] does, then applies `f` to its value. True if `x` was not
    /// there. A full table at `max_cap` slots stores nothing and applies nothing (false).
    #[cfg(test)]
    pub fn update_growing_with(
        &mut self,
        x: W,
        max_cap: usize,
        hash: impl Fn(W) -> u64,
        f: impl FnOnce(&mut V),
    ) -> bool {
        let h = hash(x);
        self.update_growing_hashed(x, h, max_cap, hash, f)
    }

    /// [`Table::update_growing_with`] with `x`'s hash given too (`h`, which must be
    /// `hash(x)`), for a caller that has it at hand.
    #[inline(always)]
    pub fn update_growing_hashed(
        &mut self,
        x: W,
        h: u64,
        max_cap: usize,
        hash: impl Fn(W) -> u64,
        f: impl FnOnce(&mut V),
    ) -> bool {
        if self.is_full() && self.slots.len() < max_cap {
            self.grow(self.slots.len() * 2, &hash);
        }
        if x == W::ZERO {
            f(&mut self.zero_val);
            return !std::mem::replace(&mut self.has_zero, true);
        }
        match self.place(x, h) {
            Some((i, new)) => {
                f(&mut self.vals[i]);
                new
            }
            None => false,
        }
    }

    /// The slot of the non-zero `x`, stored there if it was not in the table, and whether it
    /// was not; `None` if it was not and the table is full.
    #[inline(always)]
    fn place(&mut self, x: W, h: u64) -> Option<(usize, bool)> {
        let full = self.len >= self.limit;
        let mut i = self.home(h);
        loop {
            let s = self.slots[i];
            if s == x {
                return Some((i, false));
            }
            if s == W::ZERO {
                if full {
                    return None;
                }
                self.slots[i] = x;
                self.len += 1;
                return Some((i, true));
            }
            i += 1;
            if i == self.cap {
                i = 0;
            }
        }
    }

    #[cold]
    fn grow(&mut self, cap: usize, hash: &impl Fn(W) -> u64) {
        let mut t = Table::with_capacity(cap);
        t.has_zero = self.has_zero;
        t.zero_val = self.zero_val;
        for (i, &s) in self.slots.iter().enumerate() {
            if s != W::ZERO {
                let (j, _) = t.place(s, hash(s)).expect("room in the doubled table");
                // after `drop_values` there are none to carry over
                if let Some(&v) = self.vals.get(i) {
                    t.vals[j] = v;
                }
            }
        }
        *self = t;
    }

    /// Frees the values, keeping the positions: for a table that is only looked up from now on
    /// ([`Table::contains_hashed`], [`Table::prefetch_slot_hashed`], [`Table::iter`]). Misuse: an
    /// update or [`Table::values_into`] afterwards panics (the values are gone), so call it
    /// only once nothing will read or write a value again.
    pub fn drop_values(&mut self) {
        self.vals = Vec::new();
    }

    /// Removes every entry, keeping the capacity (and the memory).
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.slots.fill(W::ZERO);
            self.vals.fill(V::default());
        }
        self.len = 0;
        self.has_zero = false;
        self.zero_val = V::default();
    }

    /// Grows to at least `cap` slots, keeping every entry.
    pub fn reserve(&mut self, cap: usize) {
        if cap <= self.slots.len() {
            return;
        }
        self.grow(cap, &|x: W| x.hash64());
    }

    /// Every stored position, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = W> + '_ {
        let zero = self.has_zero.then_some(W::ZERO);
        zero.into_iter()
            .chain(self.slots.iter().copied().filter(|&s| s != W::ZERO))
    }

    /// Every stored position with its value, in slot order, into `out` (replacing what it
    /// held); without a branch per slot, which the occupancy would make unpredictable.
    pub fn values_into(&self, out: &mut Vec<(W, V)>) {
        assert_eq!(
            self.vals.len(),
            self.slots.len(),
            "values read after drop_values"
        );
        out.clear();
        if self.has_zero {
            out.push((W::ZERO, self.zero_val));
        }
        let mut n = out.len();
        out.resize(n + self.slots.len(), (W::ZERO, V::default()));
        for (&s, &v) in self.slots.iter().zip(&self.vals) {
            out[n] = (s, v);
            n += (s != W::ZERO) as usize;
        }
        out.truncate(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A table whose values were dropped still answers lookups and keeps its positions when it
    /// grows; reading values afterwards is refused rather than answered with nothing.
    #[test]
    fn lookups_survive_dropping_the_values() {
        let mut t: Table<u32, u16> = Table::with_capacity(16);
        for v in 0..12u32 {
            t.update_growing_with(v * 7, usize::MAX, |x| x.hash64(), |x| *x = v as u16);
        }
        t.drop_values();
        for v in 0..100u32 {
            assert_eq!(t.contains(v), v % 7 == 0 && v < 84, "{v}");
        }
        let read = std::panic::catch_unwind(|| {
            let mut out = Vec::new();
            t.values_into(&mut out);
        });
        assert!(read.is_err());
        for v in 12..40u32 {
            t.insert_growing(v * 7, usize::MAX);
        }
        assert_eq!(t.len(), 40);
        assert!((0..40u32).all(|v| t.contains(v * 7)));
    }

    #[test]
    fn agrees_with_a_hash_set() {
        let mut t: Table<u64> = Table::with_capacity(64);
        let mut r: HashSet<u64> = HashSet::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for step in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = x % 300; // many repeats, and zero
            if step % 5000 == 4999 {
                t.reserve(t.capacity() * 2);
            }
            if t.is_full() && v != 0 {
                assert!(!t.insert(v));
                continue;
            }
            assert_eq!(t.insert(v), r.insert(v), "{v}");
            assert_eq!(t.len(), r.len());
        }
        for v in 0..400 {
            assert_eq!(t.contains(v), r.contains(&v), "{v}");
        }
        let mut all: Vec<u64> = t.iter().collect();
        all.sort();
        let mut want: Vec<u64> = r.into_iter().collect();
        want.sort();
        assert_eq!(all, want);
    }

    /// Values against a hash map: each update ORs a bit into the value; zero is a key too,
    /// and the table grows from its smallest size on the way.
    #[test]
    fn values_agree_with_a_hash_map() {
        use std::collections::HashMap;
        let mut t: Table<u32, u32> = Table::with_capacity(16);
        let mut r: HashMap<u32, u32> = HashMap::new();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let hash = |k: u32| k.hash64();
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % 3000) as u32;
            let bit = 1u32 << ((x >> 40) % 32);
            let fresh = t.update_growing_with(k, usize::MAX, hash, |v| *v |= bit);
            let old = r.insert(k, r.get(&k).copied().unwrap_or(0) | bit);
            assert_eq!(fresh, old.is_none(), "{k}");
            assert_eq!(t.len(), r.len());
        }
        let mut got = Vec::new();
        t.values_into(&mut got);
        got.sort();
        let mut want: Vec<(u32, u32)> = r.into_iter().collect();
        want.sort();
        assert_eq!(got, want);
        // a full table at its cap stores nothing new and changes nothing
        let mut small: Table<u32, u32> = Table::with_capacity(16);
        for k in 1..=12 {
            assert!(small.update_growing_with(k, 16, hash, |v| *v = k));
        }
        assert!(!small.update_growing_with(99, 16, hash, |v| *v = 7));
        assert!(!small.contains(99));
        assert!(!small.update_growing_with(5, 16, hash, |v| *v += 1));
        let mut got = Vec::new();
        small.values_into(&mut got);
        assert!(got.contains(&(5, 6)) && got.len() == 12);
    }

    #[test]
    fn a_full_table_refuses_inserts() {
        let mut t: Table<u128> = Table::with_capacity(16);
        for v in 1..=12u128 {
            assert!(t.insert(v << 70));
        }
        assert!(t.is_full());
        assert!(!t.insert(99));
        assert!(!t.contains(99));
        assert!(t.contains(5 << 70));
    }
}
