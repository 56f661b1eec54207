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
//! A count of every level is the other way round: it never holds less than it did a few
//! levels before, so pages given back are soon taken again, each fault costing the kernel a
//! zeroed page. [`keep_freed`] asks glibc to keep 64 MiB free at the top of each heap; on the
//! English board the system time fell from 0.13 to 0.05 s and the wall time 0.64 → 0.60 s
//! (medians of 11 alternating runs, 2026-11-26), for 6–7 MB more peak memory.
//!
//! Misuse: none for [`give_back`]; it only releases pages that hold no live allocation. It costs a walk over the
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

/// Keeps up to 64 MiB of freed memory at the top of each of glibc's heaps instead of giving
/// it back to the system (glibc on Linux; nothing elsewhere).
///
/// Misuse: this is process-wide and stays set; call it only where a process spends its time
/// in a count whose memory only grows (a count of every level), not in a server.
/// [`give_back`] still returns every free page when called.
pub(super) fn keep_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_TOP_PAD: i32 = -2;
        // SAFETY: `mallopt` is glibc's; M_TOP_PAD takes a byte count and only changes how
        // much free memory a heap keeps.
        unsafe {
            mallopt(M_TOP_PAD, 64 << 20);
        }
    }
}
