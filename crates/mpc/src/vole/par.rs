//! How much of the thread pool one proof uses.
//!
//! A large statement's proof splits its loops (repetitions, tree levels, grinding, sums)
//! across the pool's threads. A small one does not gain from it: a LowMC or AES-128 key proof
//! is done in about the time the pool takes to wake its threads and let them go back to
//! sleep, so splitting it leaves its wall time as it is and spends a tenth more CPU time
//! (measured on two cores: docs/PROTOCOLS.md 7.12). A server checking many logins at once
//! uses its cores better with one thread per proof. So [`run`] decides from the work's size:
//! on a worker of the pool, or on the calling thread with every loop of the engine serial.
//!
//! A serial run touches no part of rayon: a parallel iterator asks the pool for its thread
//! count even when it will not split, and the first such question starts the pool (its
//! threads, which then spin before they sleep). So every loop of the engine is written twice
//! over one body, `if par::serial() { sequential } else { parallel }`, and a process that
//! proves or verifies one small statement never starts a thread.
//!
//! Misuse: the switch is per thread and only [`run`] sets it; a loop of the engine that does
//! not ask [`serial`] starts the pool anyway (the bytes stay the same, the saving is lost;
//! `vole::tests::a_small_proof_starts_no_thread` holds the engine to it).

use std::cell::Cell;

/// Leaf stream bits (`ℓ̂` times the tree's leaves) below which a proof runs serially:
/// 2^23 bits, one megabyte of AES output. The 128-bit speed set's LowMC and AES-128 key
/// proofs are below it (about 3.8 and 6.3 million by [`work`]); SHA-256's and every size-set
/// proof (17,408 leaves) are above.
pub const SERIAL_BELOW: u64 = 1 << 23;

thread_local! {
    static SERIAL: Cell<bool> = const { Cell::new(false) };
}

/// The leaf stream bits of a proof: `ℓ̂ · L`, estimated from the witness size.
pub fn work(witness_bits: usize, leaves: usize) -> u64 {
    (witness_bits as u64 + 1024) * leaves as u64
}

/// Runs `f`, a whole proof's or verification's work of `work` stream bits ([`work`]): on a
/// worker of the pool, its loops split across the threads, when it reaches
/// [`SERIAL_BELOW`]; else on this thread, every loop serial.
pub fn run<R: Send>(work: u64, f: impl FnOnce() -> R + Send) -> R {
    if work >= SERIAL_BELOW {
        return rayon::scope(|_| f());
    }
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SERIAL.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SERIAL.with(|s| s.replace(true)));
    f()
}

/// Whether this thread runs a proof serially: its loops must then not enter rayon at all.
pub fn serial() -> bool {
    SERIAL.with(|s| s.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    /// A small run is serial on the calling thread, a large one runs on a worker of the
    /// pool and splits; the switch is restored after either, and after a panic.
    #[test]
    fn small_runs_stay_on_the_calling_thread() {
        let me = std::thread::current().id();
        let small = run(0, || (serial(), std::thread::current().id()));
        assert_eq!(
            small,
            (true, me),
            "a small run was not serial on its thread"
        );
        assert!(!serial(), "the switch outlived its run");
        if rayon::current_num_threads() > 1 {
            let large = run(SERIAL_BELOW, || {
                assert!(!serial(), "a large run is serial");
                (0..64)
                    .into_par_iter()
                    .map(|_| {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        std::thread::current().id()
                    })
                    .collect::<Vec<_>>()
            });
            assert!(
                large.iter().any(|&t| t != me),
                "a large run stayed on one thread"
            );
        }
        let _ = std::panic::catch_unwind(|| run(0, || panic!("inside")));
        assert!(!serial(), "a panic left the switch on");
    }
}
