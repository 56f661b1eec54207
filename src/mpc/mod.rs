//! ZKB++ (MPC-in-the-head) over boolean circuits.
//!
//! - [`circuit`]: the circuit IR, the builder with its gadgets, plain evaluation, digests.
//! - [`zkbpp`]: the proof system (bitsliced three-party evaluation, Fiat–Shamir).
//! - [`session`]: the same protocol with verifier-chosen challenges over [`crate::net`].
//! - [`sha256`]: SHA-256 as a circuit and proofs of knowledge of a preimage.
//! - [`peg`]: peg solitaire solutions as a circuit, and proofs through the engine.

pub mod circuit;
pub mod kkw;
pub mod peg;
pub mod seedtree;
pub mod session;
pub mod sha256;
pub mod zkbpp;

pub use zkbpp::{rounds_for_bits, security_bits};

use crate::proof_file::Mode;

/// What a verifier reports about an accepted proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Number of parallel repetitions.
    pub rounds: usize,
    /// Soundness achieved, `rounds · log2(3/2)` bits.
    pub security_bits: f64,
    /// Size of the whole proof file in bytes.
    pub proof_bytes: usize,
    /// AND gates of the circuit (the cost driver).
    pub and_gates: usize,
    /// Fiat–Shamir proof or recorded interactive session.
    pub mode: Mode,
}

impl Report {
    pub fn new(rounds: usize, proof_bytes: usize, and_gates: usize, mode: Mode) -> Self {
        Report {
            rounds,
            security_bits: security_bits(rounds),
            proof_bytes,
            and_gates,
            mode,
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} rounds, {:.1} bits of soundness, {} bytes, {} AND gates{}",
            self.rounds,
            self.security_bits,
            self.proof_bytes,
            self.and_gates,
            if self.mode == Mode::Interactive {
                " (interactive transcript: not transferable evidence)"
            } else {
                ""
            }
        )
    }
}
