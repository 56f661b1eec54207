//! The engines: zero-knowledge proofs that a prover knows a witness `w` with `C(w) = y` for
//! a public circuit `C` and output `y`, and nothing else about the domain.
//!
//! - [`statement`]: what is proven ([`statement::Statement`]: circuit, public output,
//!   public bytes, tag, context). Every proof kind builds one; no engine is named.
//! - [`circuit`]: the circuit IR, the builder with its gadgets, plain evaluation, digests.
//! - The engines, each in its own folder: [`zkbpp`] (ZKB++, three parties), [`kkw`] (KKW: `N`
//!   parties, preprocessing checked by cut-and-choose, with [`seedtree`]) and [`vole`]
//!   (VOLE-in-the-head: vector commitments turned into VOLE, QuickSilver over [`gf128`]).
//!   Each implements [`engine::ProofEngine`] (and the shared seal and session interfaces)
//!   in its `backend.rs`.
//! - [`engine`]: the one trait engines implement ([`engine::ProofEngine`]) and the one
//!   interface domain code uses ([`engine::System`], [`engine::Proof`]): prove, verify,
//!   seal, open, session halves, files. The one list of engines.
//! - [`seal`]: committed witnesses (seal now, open later) over [`seal::Reproducible`].
//! - [`session`]: live sessions with verifier-chosen challenges over
//!   [`session::Interactive`] and [`zkgames_net`] (ZKB++'s own in [`zkbpp::session`]).
//! - [`offered`]: the parameter sets verifiers offer and the work a proof file may ask.
//! - General-purpose statements: [`sha256`] (preimages), [`aes128`] (keys, S-boxes as
//!   GF(2^8) inverses), [`lowmc`] (keys of Picnic3-L1's LowMC), [`bristol`] (circuits people
//!   bring, in Bristol Fashion).
//!
//! Domain circuits live with their domain: peg solitaire in [`zkgames_peg::mpc`], the Wall
//! Game's sealed moves in [`zkgames_wall::circuit`]. This module knows neither.

pub mod aes128;
pub mod binds;
mod bitmatrix;
pub mod bristol;
pub mod circuit;
pub mod engine;
pub mod gf128;
pub mod kkw;
pub mod lowmc;
pub mod offered;
#[cfg(any(test, feature = "toy-engine"))]
pub mod plain;
pub mod seal;
pub mod seedtree;
pub mod session;
pub mod sha256;
pub mod statement;
pub mod vole;
pub mod zkbpp;

pub use zkbpp::{rounds_for_bits, security_bits};

/// The bottom layer, for [`protocols!`]'s expansion in other crates.
#[doc(hidden)]
pub use zkgames_core as __core;

/// How a verifier says that a well-formed proof's sizes do not fit the statement's circuit
/// (an input share, a view, auxiliary bits of another length): the proof, seal or session
/// was made for another statement. Messages start with it and give the detail after a colon.
pub const ANOTHER_STATEMENT: &str =
    "made for another statement (another puzzle, position, player, digest or context)";

use zkgames_core::proof_file::Mode;

/// What a verifier reports about an accepted proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The engine and the parameters the proof ran.
    pub system: engine::System,
    /// Parallel repetitions ([`engine::System::repetitions`]).
    pub rounds: usize,
    /// Soundness achieved ([`engine::System::security_bits`]).
    pub security_bits: f64,
    /// Size of the whole proof file in bytes.
    pub proof_bytes: usize,
    /// AND gates of the circuit (the cost driver).
    pub and_gates: usize,
    /// Fiat–Shamir proof or recorded interactive session.
    pub mode: Mode,
}

impl Report {
    /// The report of an accepted proof or session of `system`.
    pub fn of(system: &engine::System, proof_bytes: usize, and_gates: usize, mode: Mode) -> Self {
        Report {
            system: *system,
            rounds: system.repetitions(),
            security_bits: system.security_bits(),
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
            "{}, {} bytes, {} AND gates{}",
            self.system,
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
