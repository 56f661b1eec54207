//! Per-bucket lists filled through one cache line per bucket ([`Stage`]): the children of a
//! round (in the walk down, with their complements), written once and read once by the merge.

use super::BUCKETS;

/// Entries of a [`Stage`] line: one 64-byte cache line of 32-bit entries (children on boards
/// of at most 33 holes), two of 64-bit ones.
pub(super) const LINE: usize = 16;

/// A bucket's line being filled, aligned to a cache line.
#[derive(Clone, Copy)]
#[repr(align(64))]
pub(super) struct Open<E>(pub(super) [E; LINE]);

/// Per-bucket lists, filled through one open line per bucket (software write combining): a
/// push is one store into a line that stays in the first-level cache, and a full line is
/// copied to its list as one unit, by streaming stores ([`stream_push`]).
pub(super) struct Stage<E> {
    /// Arrays of exactly [`BUCKETS`], so that a push indexes them without a bounds check.
    open: Box<[Open<E>; BUCKETS]>,
    fill: Box<[u32; BUCKETS]>,
    full: Vec<Vec<Open<E>>>,
}

impl<E: Copy + Default> Stage<E> {
    /// Entries are words without padding, so a line is exactly `LINE` of them, whole 16-byte
    /// units that [`stream_push`] copies and [`Stage::entries`] reads as entries.
    const WHOLE: () = assert!(
        std::mem::size_of::<Open<E>>() == LINE * std::mem::size_of::<E>()
            && std::mem::size_of::<Open<E>>().is_multiple_of(16)
    );

    pub(super) fn new() -> Self {
        let () = Self::WHOLE;
        Stage {
            open: vec![Open([E::default(); LINE]); BUCKETS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("BUCKETS lines")),
            fill: Box::new([0; BUCKETS]),
            full: vec![Vec::new(); BUCKETS],
        }
    }

    /// Makes room for `entries` in every bucket's list at once, plus an eighth (the buckets
    /// of a round fill evenly: positions are placed by a mixing hash). Without it, a list
    /// grows by doubling and ends up to twice the size it needs, on average half again: the
    /// lists, with the levels, are the peak memory of a count.
    pub(super) fn reserve(&mut self, entries: usize) {
        let lines = entries.div_ceil(LINE) + entries.div_ceil(8 * LINE) + 4;
        for f in &mut self.full {
            if f.capacity() < lines {
                f.reserve_exact(lines - f.len());
            }
        }
    }

    /// Appends `x` to bucket `b`'s list.
    #[inline(always)]
    pub(super) fn push(&mut self, b: usize, x: E) {
        debug_assert!(b < BUCKETS);
        let b = b % BUCKETS;
        let f = self.fill[b] as usize % LINE;
        if f + 1 == LINE {
            // the last entry goes straight into the copy: loading the line right after a
            // store into it would stall (no store-to-load forwarding from a narrow store to
            // a wide load)
            let mut line = self.open[b];
            line.0[LINE - 1] = x;
            stream_push(&mut self.full[b], &line);
            self.fill[b] = 0;
        } else {
            self.open[b].0[f] = x;
            self.fill[b] = f as u32 + 1;
        }
    }

    /// The entries of bucket `b`: its full lines, then its open line.
    pub(super) fn entries(&self, b: usize) -> [&[E]; 2] {
        let full = &self.full[b];
        // SAFETY: `full` holds `full.len()` initialised lines, each exactly `LINE` entries
        // with no padding (`Stage::WHOLE`), so they are `full.len() * LINE` entries in a row.
        let flat =
            unsafe { std::slice::from_raw_parts(full.as_ptr().cast::<E>(), full.len() * LINE) };
        [flat, &self.open[b].0[..self.fill[b] as usize]]
    }

    /// Makes the streamed lines visible in order before the lists are handed to other
    /// threads: streaming stores are weakly ordered, so every thread that filled lists calls
    /// this before it finishes its part.
    pub(super) fn publish(&self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            std::arch::x86_64::_mm_sfence()
        };
    }

    pub(super) fn clear(&mut self) {
        self.full.iter_mut().for_each(Vec::clear);
        self.fill.fill(0);
    }
}

/// Appends `line` to `v`, on x86-64 by non-temporal stores: the lists are far larger than
/// the caches and are next read by the merge, so a plain store would first read each
/// destination line from memory only to overwrite it, and 256 lists filled at once defeat the
/// processor's prefetching of those reads. Measured in isolation, a push (one in 16 of which
/// copies a line) took 6.2 ns with plain copies and 3.1 ns with streaming ones. The caller
/// must [`Stage::publish`] before another thread reads `v`.
#[inline(always)]
pub(super) fn stream_push<E: Copy>(v: &mut Vec<Open<E>>, line: &Open<E>) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_load_si128, _mm_stream_si128};
        v.reserve(1);
        let n = v.len();
        // SAFETY: `reserve` left room for the element at `n`, aligned to 64 bytes like every
        // `Open`; a line is whole 16-byte units of initialised entries (`Stage::WHOLE`), read
        // from `line` (aligned too) and all written before `set_len` counts the element.
        unsafe {
            let dst = v.as_mut_ptr().add(n).cast::<__m128i>();
            let src = (line as *const Open<E>).cast::<__m128i>();
            for k in 0..std::mem::size_of::<Open<E>>() / 16 {
                _mm_stream_si128(dst.add(k), _mm_load_si128(src.add(k)));
            }
            v.set_len(n + 1);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    v.push(*line);
}
