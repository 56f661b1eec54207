//! The bottom layer of zkgames, which every other crate builds on and which knows no
//! domain, engine or service:
//! - [`error`]: the one error type, split by what the user must do about it.
//! - [`rng`]: OS-seeded ChaCha20 randomness, `--seed` for reproducible runs.
//! - [`commit`], [`transcript`], [`merkle`]: hash commitments, Fiat–Shamir transcripts,
//!   Merkle trees.
//! - [`files`]: reading inputs and writing outputs (atomic replacement, secret modes, limits).
//! - [`proof_file`]: the versioned container every proof file uses.
//! - [`details`]: what `inspect` reports, as typed fields rendered to text and to JSON.

pub mod commit;
pub mod details;
pub mod error;
pub mod files;
pub mod merkle;
pub mod proof_file;
pub mod rng;
pub mod transcript;

pub use error::{Error, Result};

/// The linker-collected registry [`proof_file::PROTOCOL_IDS`] is a `linkme` slice; kinds
/// add to it through this path.
#[doc(hidden)]
pub use linkme;
