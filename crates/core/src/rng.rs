//! Randomness for provers and interactive verifiers.
//!
//! All secret randomness (isomorphisms, commitment keys, MPC seeds, salts, interactive
//! challenges) comes from a ChaCha20 generator. In normal use it is seeded by the operating
//! system. A fixed seed exists only to make runs and tests reproducible; a proof made with a
//! known seed leaks its witness to anyone who knows the seed, so the CLI warns when one is used.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// The generator type used everywhere secret randomness is needed.
pub type Rng = ChaCha20Rng;

/// A ChaCha20 generator seeded from the operating system's entropy source.
pub fn os_rng() -> Rng {
    ChaCha20Rng::from_entropy()
}

/// A ChaCha20 generator from a reproducible seed: for tests and reproducible runs only.
pub fn seeded_rng(seed: u64) -> Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// `seeded_rng(seed)` when a seed is given, else [`os_rng`].
pub fn rng_from(seed: Option<u64>) -> Rng {
    match seed {
        Some(s) => seeded_rng(s),
        None => os_rng(),
    }
}

/// Draws a fresh 256-bit value (a commitment key, seed or salt).
pub fn random_32(rng: &mut impl RngCore) -> [u8; 32] {
    let mut k = [0u8; 32];
    rng.fill_bytes(&mut k);
    k
}

/// Derives an independent child generator from a parent, so that work split across
/// threads (rounds run in parallel) stays reproducible under a fixed seed.
pub fn fork(rng: &mut impl RngCore) -> Rng {
    ChaCha20Rng::from_seed(random_32(rng))
}

/// A generator keyed by `SHA-256(tag ‖ 32 bytes from rng ‖ 32 bytes from the OS)`: whatever
/// `rng` is (even a fixed test seed), the result is fresh in every run.
///
/// Live-session provers use it: a prover that repeated its commitments in two sessions
/// would answer two different challenges on the same commitments, revealing the witness.
pub fn with_fresh_entropy(rng: &mut impl RngCore) -> Rng {
    use sha2::{Digest as _, Sha256};
    let mut h = Sha256::new();
    h.update(b"zkg:rng:fresh:");
    h.update(random_32(rng));
    h.update(random_32(&mut os_rng()));
    ChaCha20Rng::from_seed(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_entropy_differs_across_calls_with_the_same_seed() {
        let a = random_32(&mut with_fresh_entropy(&mut seeded_rng(1)));
        let b = random_32(&mut with_fresh_entropy(&mut seeded_rng(1)));
        assert_ne!(a, b);
        assert_eq!(random_32(&mut seeded_rng(1)), random_32(&mut seeded_rng(1)));
    }
}
