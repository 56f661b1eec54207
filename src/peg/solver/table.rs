//! A set of positions by open addressing: one flat array of words, linear probing, the zero
//! word marking an empty slot (the empty position itself is kept in a flag).
//!
//! The capacity is a power of two: an insert is one hash and, at a load of at most 3/4, one or
//! two cache lines. A full table (3/4 of its slots used) refuses inserts, which for a table of
//! dead positions only costs pruning; [`Table::insert_growing`] doubles it first, up to a cap
//! (a rehash, amortised O(1) per insert). Tables start small and grow rather than being
//! allocated at their largest size: on this project's machine the first touch of a page costs
//! about 2 µs per 4 KiB, so a large table filled sparsely costs a page fault per insert.
//! Callers may pass their own hash ([`Table::insert_hashed`]), consistently for one table.

use super::word::Word;

pub(crate) struct Table<W: Word> {
    slots: Vec<W>,
    mask: usize,
    /// `64 - log2(capacity)`: the top bits of the hash pick the slot.
    shift: u32,
    len: usize,
    limit: usize,
    has_zero: bool,
}

impl<W: Word> Table<W> {
    /// A table of `cap` slots, rounded up to a power of two (at least 16).
    pub fn with_capacity(cap: usize) -> Self {
        let cap = cap.max(16).next_power_of_two();
        Table {
            slots: vec![W::ZERO; cap],
            mask: cap - 1,
            shift: 64 - cap.trailing_zeros(),
            len: 0,
            limit: cap / 4 * 3,
            has_zero: false,
        }
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
        (h >> self.shift) as usize & self.mask
    }

    /// Asks the processor to bring the home slot of hash `h` into the cache: a batch of
    /// inserts that prefetches a few entries ahead hides the latency of tables larger than
    /// the first-level cache.
    #[inline(always)]
    pub fn prefetch_hashed(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots.as_ptr().wrapping_add(self.home(h));
            // SAFETY: a prefetch is a hint; it never faults, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    p as *const i8,
                )
            };
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
            i = (i + 1) & self.mask;
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
        if self.len >= self.limit {
            return false;
        }
        let mut i = self.home(h);
        loop {
            let s = self.slots[i];
            if s == x {
                return false;
            }
            if s == W::ZERO {
                self.slots[i] = x;
                self.len += 1;
                return true;
            }
            i = (i + 1) & self.mask;
        }
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

    #[cold]
    fn grow(&mut self, cap: usize, hash: &impl Fn(W) -> u64) {
        let mut t = Table::with_capacity(cap);
        t.has_zero = self.has_zero;
        for &s in &self.slots {
            if s != W::ZERO {
                t.insert_hashed(s, hash(s));
            }
        }
        *self = t;
    }

    /// Removes every entry, keeping the capacity (and the memory).
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.slots.fill(W::ZERO);
        }
        self.len = 0;
        self.has_zero = false;
    }

    /// Grows to at least `cap` slots (a power of two), keeping every entry.
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

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
