//! Giving freed memory back to the system between the phases of a count.
//!
//! **Why.** A count's peak resident memory is what it holds at once, plus what the allocator
//! keeps after it is freed: glibc keeps freed blocks of its heaps (one heap per thread that
//! allocated: the lists and tables are filled by rayon's threads) resident for later
//! allocations, and a later large allocation (a level's frozen arrays, a bitmap) often does
//! not fit the holes and takes fresh pages. On the English board that was 20-30 MB over what
//! a count held. [`give_back`] asks glibc to return every free page of every heap
//! (`malloc_trim`), so the peak is what is held.
//!
//! Misuse: none; it only releases pages that hold no live allocation. It costs a walk over the
//! heaps (well under a millisecond here), so it is called once per level, not per round.

/// Returns the allocator's free pages to the system (glibc on Linux; nothing elsewhere).
pub(super) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: `malloc_trim` is glibc's, takes a byte count and only releases free memory.
        unsafe {
            malloc_trim(0);
        }
    }
}
