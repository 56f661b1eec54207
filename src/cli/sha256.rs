//! `prover sha256 prove …` and `verifier sha256 verify|inspect …`: proofs of knowledge of a
//! SHA-256 preimage through the ZKB++ or the KKW engine (`--system`).

use clap::Subcommand;

use crate::cli::engine::{KkwParams, MpcSystem};
use crate::mpc::sha256::{inspect, prove_sha256, verify_sha256, MAX_PREIMAGE};
use crate::mpc::{kkw_proofs, rounds_for_bits, security_bits};
use crate::proof_file::{read_input, write_proof, ProofFile, ProtocolId, HEADER_LEN, MAX_BODY};
use crate::{Error, Result};

/// Largest security level accepted on the command line (keeps the round count bounded).
pub const MAX_SECURITY: u32 = 256;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Prove knowledge of a preimage of SHA-256 (non-interactive, Fiat–Shamir).
    Prove {
        /// The secret preimage, in hex (at most 247 bytes).
        #[arg(long)]
        preimage_hex: String,
        /// Where to write the proof (`-` for stdout).
        #[arg(short = 'o', long = "output", default_value = "-")]
        output: String,
        /// Soundness in bits (ZKB++: rounds = ceil(bits / log2(3/2)); KKW: see --kkw-params).
        #[arg(long, default_value_t = 128)]
        security: u32,
        /// Context string the proof is bound to (must be given again to verify).
        #[arg(long, default_value = "")]
        context: String,
        /// Proof system.
        #[arg(long, value_enum, default_value_t = MpcSystem::Zkbpp)]
        system: MpcSystem,
        /// KKW parameter set (with --system kkw).
        #[arg(long, value_enum, default_value_t = KkwParams::Size)]
        kkw_params: KkwParams,
        /// Fixed randomness seed: reproducible, NOT secret. Tests only.
        #[arg(long)]
        seed: Option<u64>,
    },
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a proof of knowledge of a preimage of the given digest.
    Verify {
        /// The public digest, 64 hex characters.
        #[arg(long)]
        digest: String,
        /// The proof file (`-` for stdin).
        proof: String,
        /// Soundness required, in bits.
        #[arg(long, default_value_t = 128)]
        security: u32,
        /// Context string the proof must be bound to.
        #[arg(long, default_value = "")]
        context: String,
    },
    /// Print a summary of a proof file without verifying it.
    Inspect {
        /// The proof file (`-` for stdin).
        proof: String,
    },
}

fn check_security(bits: u32) -> Result<usize> {
    if bits == 0 || bits > MAX_SECURITY {
        return Err(Error::bad(format!(
            "--security {bits}: must be in [1, {MAX_SECURITY}] bits"
        )));
    }
    Ok(rounds_for_bits(bits))
}

fn parse_digest(s: &str) -> Result<[u8; 32]> {
    let b = hex::decode(s.trim()).map_err(|e| Error::bad(format!("--digest: not hex ({e})")))?;
    b.try_into().map_err(|b: Vec<u8>| {
        Error::bad(format!(
            "--digest: {} bytes, a SHA-256 digest has 32",
            b.len()
        ))
    })
}

fn read_proof(path: &str) -> Result<ProofFile> {
    ProofFile::from_bytes(&read_input(path, (HEADER_LEN + MAX_BODY) as u64)?)
}

pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Prove {
            preimage_hex,
            output,
            security,
            context,
            system,
            kkw_params,
            seed,
        } => {
            let rounds = check_security(security)?;
            let pre = hex::decode(preimage_hex.trim())
                .map_err(|e| Error::bad(format!("--preimage-hex: not hex ({e})")))?;
            if pre.len() > MAX_PREIMAGE {
                return Err(Error::bad(format!(
                    "--preimage-hex: {} bytes, at most {MAX_PREIMAGE} are supported",
                    pre.len()
                )));
            }
            crate::cli::warn_seed(seed);
            let mut rng = crate::rng::rng_from(seed);
            let (bytes, what) = match system {
                MpcSystem::Zkbpp => (
                    prove_sha256(&pre, rounds, context.as_bytes(), &mut rng)?,
                    format!(
                        "ZKB++, {rounds} rounds, {:.1} bits of soundness",
                        security_bits(rounds)
                    ),
                ),
                MpcSystem::Kkw => {
                    let p = kkw_params.params(security)?;
                    (
                        kkw_proofs::prove_sha256(&pre, p, context.as_bytes(), &mut rng)?,
                        format!(
                            "KKW with {p}, {:.1} bits of security",
                            crate::mpc::kkw::attack_cost_bits(&p)
                        ),
                    )
                }
            };
            write_proof(&output, &bytes)?;
            eprintln!(
                "prover: proof of a {}-byte SHA-256 preimage: {what}, {} bytes",
                pre.len(),
                bytes.len()
            );
            Ok(())
        }
    }
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify {
            digest,
            proof,
            security,
            context,
        } => {
            let min_rounds = check_security(security)?;
            let d = parse_digest(&digest)?;
            let f = read_proof(&proof)?;
            let rep = match f.protocol {
                ProtocolId::Sha256Kkw => {
                    kkw_proofs::verify_sha256(&d, &f, security as f64, context.as_bytes())?
                }
                _ => verify_sha256(&d, &f, min_rounds, context.as_bytes())?,
            };
            println!(
                "ACCEPTED: knowledge of a SHA-256 preimage of {}: {rep}",
                hex::encode(d)
            );
            Ok(())
        }
        VerifierCmd::Inspect { proof } => {
            let f = read_proof(&proof)?;
            let text = match f.protocol {
                ProtocolId::Sha256Kkw => kkw_proofs::inspect(&f)?,
                _ => inspect(&f)?,
            };
            println!("{text}");
            Ok(())
        }
    }
}
