//! Peg solitaire: the formal model of Bultel (FUN 2022), boards, a solver, and Protocol 1.
//!
//! - [`instance`]: instances and solutions (Definitions 4 and 6), the raw text format.
//! - [`iso`]: isomorphisms (Definition 8) and the solution transform (Theorem 10).
//! - [`board`]: human-readable boards, move notation, the puzzle loader.
//! - [`planted`]: random instances with a planted solution (for `peg` identities).
//! - [`solver`]: DFS with a transposition table, symmetries, position classes, pagodas.
//! - [`protocol`]: one round of Protocol 1 (commit, respond, verify).
//! - [`fs`]: non-interactive proofs (Fiat–Shamir over parallel rounds).
//! - [`mpc`]: solutions as a boolean circuit, and proofs through the ZKB++ engine.
//! - [`session`]: live interactive sessions.
//! - [`simulate`]: the simulator (Claim 19) and extractor (Claim 18).

pub mod board;
pub mod catalog;
pub mod fs;
pub mod instance;
pub mod iso;
pub mod mpc;
pub mod planted;
pub mod protocol;
pub mod session;
pub mod simulate;
pub mod solver;
