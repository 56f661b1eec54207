//! `prover sha256 prove …` and `verifier sha256 verify|inspect …`: proofs of knowledge of a
//! SHA-256 preimage through the ZKB++, KKW or VOLE-in-the-head engine (`--system`).

use clap::Subcommand;

use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, emit, JsonArg};
use crate::mpc::engine::Required;
use crate::mpc::rounds_for_bits;
use crate::mpc::sha256::{self, MAX_PREIMAGE};
use crate::proof_file::{read_input, write_proof, ProofFile, HEADER_LEN, MAX_BODY};
use crate::Error;
use crate::Result;

/// Largest security level accepted on the command line (keeps the round count bounded).
pub const MAX_SECURITY: u32 = 256;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Prove knowledge of a preimage of SHA-256 (non-interactive, Fiat–Shamir).
    #[command(group = clap::ArgGroup::new("preimage").required(true).args(["preimage_hex", "preimage_file"]))]
    Prove(ProveArgs),
    /// Seal a preimage of a published digest: a proof now, the preimage revealed later.
    Seal(super::sha256_seal::SealArgs),
}

/// The arguments of `prover sha256 prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The secret preimage, in hex (at most 247 bytes). A command line is visible to `ps`
    /// and kept in shell history: prefer --preimage-file.
    #[arg(long, value_name = "HEX")]
    preimage_hex: Option<String>,
    /// Read the secret preimage from FILE (`-` for stdin): its raw bytes, exactly (a
    /// trailing newline is part of it), at most 247.
    #[arg(long, value_name = "FILE")]
    preimage_file: Option<String>,
    /// Where to write the proof (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a proof of knowledge of a preimage of the given digest.
    Verify(VerifyArgs),
    /// Print a summary of a proof file without verifying it.
    Inspect(InspectArgs),
    /// Open a seal: print the preimage it commits to (exit 1 if the opening does not match).
    Open(super::sha256_seal::OpenArgs),
}

/// The arguments of `verifier sha256 verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The public digest, 64 hex characters.
    #[arg(long)]
    digest: String,
    /// The proof file (`-` for stdin).
    proof: String,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier sha256 inspect`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// The proof file (`-` for stdin).
    proof: String,
    #[command(flatten)]
    out: JsonArg,
}

pub(super) fn check_security(bits: u32) -> Result<usize> {
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

pub(super) fn read_proof(path: &str) -> Result<ProofFile> {
    ProofFile::from_bytes(&read_input(path, (HEADER_LEN + MAX_BODY) as u64)?)
}

pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Prove(a) => prove(a),
        ProverCmd::Seal(a) => super::sha256_seal::run_seal(a),
    }
}

/// `prover sha256 prove`.
fn prove(
    ProveArgs {
        preimage_hex,
        preimage_file,
        output,
        sec: crate::cli::SecurityArgs { security, context },
        system,
        seed: crate::cli::SeedArg { seed },
    }: ProveArgs,
) -> Result<()> {
    check_security(security)?;
    let (pre, from) = match (preimage_hex, preimage_file) {
        (Some(h), _) => (
            hex::decode(h.trim())
                .map_err(|_| Error::bad("--preimage-hex: not an even number of hex digits"))?,
            "--preimage-hex",
        ),
        (None, Some(path)) => (read_input(&path, MAX_PREIMAGE as u64)?, "--preimage-file"),
        (None, None) => {
            return Err(Error::bad(
                "give --preimage-file FILE or --preimage-hex HEX",
            ))
        }
    };
    if pre.len() > MAX_PREIMAGE {
        return Err(Error::bad(format!(
            "{from}: {} bytes, at most {MAX_PREIMAGE} are supported",
            pre.len()
        )));
    }
    crate::cli::warn_seed(seed);
    let mut rng = crate::rng::rng_from(seed);
    let system = system.system(security)?;
    let bytes = sha256::prove(&pre, &system, context.as_bytes(), &mut rng)?;
    let what = system.to_string();
    write_proof(&output, &bytes)?;
    use sha2::Digest as _;
    eprintln!(
        "prover: proof of a {}-byte preimage of SHA-256 digest {}: {what}, {} bytes",
        pre.len(),
        hex::encode(sha2::Sha256::digest(&pre)),
        bytes.len()
    );
    Ok(())
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Inspect(a) => inspect(a),
        VerifierCmd::Open(a) => super::sha256_seal::run_open(a),
    }
}

/// `verifier sha256 verify`.
fn verify(
    VerifyArgs {
        digest,
        proof,
        sec: crate::cli::SecurityArgs { security, context },
        out,
    }: VerifyArgs,
) -> Result<()> {
    let json = out.enable();
    check_security(security)?;
    let d = parse_digest(&digest)?;
    let f = read_proof(&proof)?;
    let t0 = std::time::Instant::now();
    let rep = sha256::verify(&d, &f, &Required::bits(security), context.as_bytes())?;
    let statement = format!("knowledge of a SHA-256 preimage of {}", hex::encode(d));
    report::Verified::accepted(statement, &rep, &context, t0.elapsed())
        .about("digest", hex::encode(d))
        .emit(json);
    Ok(())
}

/// `verifier sha256 inspect`.
fn inspect(InspectArgs { proof, out }: InspectArgs) -> Result<()> {
    let json = out.enable();
    let bytes = read_input(&proof, (HEADER_LEN + MAX_BODY) as u64)?;
    let f = ProofFile::from_bytes(&bytes)?;
    let d = crate::cli::describe_header(&f, bytes.len()).then(sha256::inspect(&f)?);
    emit(
        json,
        d.render().trim_end(),
        report::inspect_object(&f, &bytes, &d),
    );
    Ok(())
}
