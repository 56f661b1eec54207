//! `prover peg …` and `verifier peg …`.

use clap::Subcommand;

use crate::Result;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {}

pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {}
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {}
}
