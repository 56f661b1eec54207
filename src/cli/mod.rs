//! The logic of the `prover` and `verifier` binaries. The binaries only call
//! [`prover_main`] and [`verifier_main`].
//!
//! Exit status: 0 accepted or done; 1 proof rejected; 2 bad input or usage.

use clap::{Parser, Subcommand};

use crate::Error;

pub mod engine;
pub mod peg;
pub mod peg_solve;
pub mod sha256;
pub mod wall;

/// Produce proofs, solve puzzles, take part in live sessions as the prover.
#[derive(Parser, Debug)]
#[command(
    name = "prover",
    version,
    about = "Prove knowledge of puzzle solutions in zero knowledge"
)]
pub struct ProverCli {
    #[command(subcommand)]
    pub cmd: ProverCmd,
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Peg solitaire: solve, prove (Protocol 1 of FUN 2022 or ZKB++), live sessions.
    #[command(subcommand)]
    Peg(peg::ProverCmd),
    /// SHA-256: prove knowledge of a preimage (ZKB++).
    #[command(subcommand)]
    Sha256(sha256::ProverCmd),
}

/// Verify proofs, inspect them, analyse Wall Game positions, serve live sessions.
#[derive(Parser, Debug)]
#[command(
    name = "verifier",
    version,
    about = "Verify zero-knowledge proofs of puzzle solutions"
)]
pub struct VerifierCli {
    #[command(subcommand)]
    pub cmd: VerifierCmd,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Peg solitaire: verify and inspect proofs, serve live sessions.
    #[command(subcommand)]
    Peg(peg::VerifierCmd),
    /// Wall Game positions: check validity, analyse legal walls, render, convert.
    #[command(subcommand)]
    Wall(wall::VerifierCmd),
    /// SHA-256: verify and inspect preimage proofs (ZKB++).
    #[command(subcommand)]
    Sha256(sha256::VerifierCmd),
}

fn finish(r: crate::Result<()>, who: &str) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            match &e {
                Error::Rejected(_) => eprintln!("{who}: REJECTED: {e}"),
                _ => eprintln!("{who}: error: {e}"),
            }
            e.exit_code()
        }
    }
}

/// Entry point of the `prover` binary; returns the exit status.
pub fn prover_main() -> i32 {
    let cli = ProverCli::parse();
    let r = match cli.cmd {
        ProverCmd::Peg(c) => peg::run_prover(c),
        ProverCmd::Sha256(c) => sha256::run_prover(c),
    };
    finish(r, "prover")
}

/// Entry point of the `verifier` binary; returns the exit status.
pub fn verifier_main() -> i32 {
    let cli = VerifierCli::parse();
    let r = match cli.cmd {
        VerifierCmd::Peg(c) => peg::run_verifier(c),
        VerifierCmd::Wall(c) => wall::run_verifier(c),
        VerifierCmd::Sha256(c) => sha256::run_verifier(c),
    };
    finish(r, "verifier")
}

/// Prints the reproducibility warning when a fixed seed is used.
pub fn warn_seed(seed: Option<u64>) {
    if let Some(s) = seed {
        eprintln!(
            "warning: --seed {s} makes this run reproducible and NOT secret: anyone who knows the seed can recover the witness. Use it for tests only."
        );
    }
}
