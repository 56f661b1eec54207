//! zkgames: zero-knowledge proofs for puzzles and games.
//!
//! This crate is the `prover` and `verifier` programs ([`cli`]) and a facade over the
//! workspace's library crates, bottom up (each imports only those before it):
//! - `zkgames-core` ([`commit`], [`details`], [`transcript`], [`merkle`], [`files`], [`proof_file`],
//!   [`rng`], [`error`]): hashing, commitments, files, the proof container.
//! - `zkgames-net` ([`net`]): framed messages for live sessions (TCP or pipes), limits.
//! - `zkgames-mpc` ([`mpc`]): the engines over boolean circuits (VOLE-in-the-head, ZKB++,
//!   KKW) and the general statements (SHA-256, AES-128, LowMC, Bristol Fashion).
//! - `zkgames-peg` ([`peg`]) and `zkgames-wall` ([`wall`]): the games.
//! - `zkgames-peg-count` ([`peg_count`]): the peg position counter (on no proof path).
//! - `zkgames-auth` ([`auth`]): login by zero-knowledge proof, TCP and HTTP services.

pub use zkgames_auth as auth;
pub use zkgames_core::{commit, details, error, files, merkle, proof_file, rng, transcript};
pub use zkgames_core::{Error, Result};
pub use zkgames_garble as garble;
pub use zkgames_mpc as mpc;
pub use zkgames_net as net;
pub use zkgames_peg as peg;
pub use zkgames_peg_count as peg_count;
pub use zkgames_tatham as tatham;
pub use zkgames_wall as wall;
pub use zkgames_words as words;

pub mod cli;
#[doc(hidden)]
pub mod fuzz_entry;
