//! zkgames: zero-knowledge proofs for puzzles and games.
//!
//! Layers, bottom up:
//! - [`commit`], [`transcript`], [`merkle`]: hash commitments, Fiat–Shamir transcripts, Merkle trees.
//! - [`files`]: reading inputs and writing outputs (atomic replacement, secret modes, limits).
//! - [`proof_file`]: the versioned container every proof file uses.
//! - [`net`]: framed messages for live interactive sessions (TCP or pipes).
//! - [`peg`]: peg solitaire (Bultel, FUN 2022): instances, isomorphisms, boards, solver, Protocol 1.
//! - [`wall`]: the Wall Game: positions and the single/double edge cut oracle.
//! - [`mpc`]: the engines over boolean circuits: VOLE-in-the-head, ZKB++ and KKW
//!   (MPC-in-the-head).
//! - [`auth`]: authentication by zero-knowledge proof: keys, identities, the user database.
//! - [`tatham`]: Simon Tatham's puzzles from their save files, proven with graph certificates.
//! - [`cli`]: the logic behind the `prover` and `verifier` binaries.

pub mod auth;
pub mod cli;
pub mod commit;
pub mod error;
pub mod files;
#[doc(hidden)]
pub mod fuzz_entry;
pub mod merkle;
pub mod mpc;
pub mod net;
pub mod peg;
pub mod proof_file;
pub mod rng;
pub mod tatham;
pub mod transcript;
pub mod wall;

pub use error::{Error, Result};
