//! SHA-256 preimages proven with the VOLE-in-the-head engine ([`super::vole`]), and the
//! summary of any VOLE proof file (peg solitaire's VOLE proofs live with its circuit,
//! [`crate::peg::mpc`]; LowMC's with [`super::lowmc`]; sealed Wall moves with
//! [`crate::wall::seal`]).
//!
//! The statements are exactly those of the other engines; the proof file's protocol id
//! ([`ProtocolId::Sha256Vole`], [`ProtocolId::PegVole`], ...) says which engine made the
//! proof. SHA-256 VOLE proofs are non-interactive only (mode 0).

use serde::{Deserialize, Serialize};

use super::engine::{Proof as EngineProof, Required, System};
use super::sha256::PreimageStatement;
use super::vole::{self, Params, Proof};
use super::Report;
use crate::proof_file::{self, Mode, ProofFile, ProtocolId};
use crate::rng::Rng;
use crate::{Error, Result};

/// The body of a VOLE SHA-256 proof file: the public message length and the proof.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Sha256VoleBody {
    pub len: u32,
    pub proof: Proof,
}

fn non_interactive(file: &ProofFile) -> Result<()> {
    if file.mode != Mode::NonInteractive {
        return Err(Error::bad(
            "this VOLE proof kind is non-interactive; this file claims to hold a session transcript",
        ));
    }
    Ok(())
}

/// Proves knowledge of `preimage` with VOLE-in-the-head; returns the bytes of a proof file
/// ([`ProtocolId::Sha256Vole`]).
pub fn prove_sha256(
    preimage: &[u8],
    params: Params,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    super::sha256::prove_sha256_with(preimage, &System::Vole(params), context, rng)
}

/// Verifies a VOLE SHA-256 preimage proof for `digest`, requiring `min_bits` of security.
pub fn verify_sha256(
    digest: &[u8; 32],
    file: &ProofFile,
    min_bits: f64,
    context: &[u8],
) -> Result<Report> {
    file.expect_protocol(ProtocolId::Sha256Vole)?;
    non_interactive(file)?;
    let body: Sha256VoleBody = proof_file::decode(&file.body, "SHA-256 VOLE proof body")?;
    let ps = PreimageStatement::new(body.len as usize, digest, "the proof")?;
    let params = body.proof.params;
    EngineProof::Vole(body.proof).verify(
        &ps.with(context),
        &Required {
            kkw_bits: min_bits,
            ..Required::bits(1)
        },
    )?;
    Ok(Report::vole(
        params,
        proof_file::HEADER_LEN + file.body.len(),
        ps.and_gates(),
        Mode::NonInteractive,
    ))
}

/// Seals a preimage with VOLE-in-the-head ([`super::seal::seal_vole`]): a proof file
/// (protocol 11, accepted by [`verify_sha256`]) and the opening.
pub fn seal_sha256(
    preimage: &[u8],
    params: Params,
    context: &[u8],
    rng: &mut Rng,
) -> Result<(Vec<u8>, super::seal::SealOpening)> {
    super::sha256::seal_sha256_with(preimage, &System::Vole(params), context, rng)
}

/// Opens a VOLE SHA-256 seal: the preimage of `digest` that `opening` reveals.
pub fn open_sha256(
    digest: &[u8; 32],
    file: &ProofFile,
    opening: &super::seal::SealOpening,
    context: &[u8],
) -> Result<Vec<u8>> {
    file.expect_protocol(ProtocolId::Sha256Vole)?;
    non_interactive(file)?;
    let body: Sha256VoleBody = proof_file::decode(&file.body, "SHA-256 VOLE proof body")?;
    let ps = PreimageStatement::new(body.len as usize, digest, "the seal")?;
    let bits = EngineProof::Vole(body.proof).open(&ps.with(context), opening)?;
    Ok(super::sha256::bits_to_bytes(&bits))
}

/// Summary lines of a VOLE proof (no verification).
pub fn describe(proof: &Proof) -> String {
    let p = proof.params;
    let security = match p.check() {
        Ok(()) => format!(
            "{:.1} bits (the sum over the three Fiat–Shamir phases, docs/PROTOCOLS.md 7.9)",
            vole::attack_cost_bits(&p)
        ),
        Err(e) => format!("invalid parameters: {e}"),
    };
    let c = &proof.commit;
    let seeds: usize = proof.response.openings.iter().map(|o| o.path.len()).sum();
    format!(
        "parameters: {p}\nsecurity: {security}\n\
         corrections: {} × {} B\nmasked witness: {} B\nfield checks: {} universal hashes, {} QuickSilver combinations ({} B)\nopened seeds: {} ({} B), hidden-leaf commitments: {} ({} B)\ngrinding counter: {}",
        c.corrections.len(),
        c.corrections.first().map_or(0, |x| x.len()),
        c.masked_witness.len(),
        c.u_hash.len(),
        c.a0.len(),
        16 * (c.u_hash.len() + c.a0.len() + c.a1.len()),
        seeds,
        16 * seeds,
        proof.response.openings.len(),
        32 * proof.response.openings.len(),
        proof.counter,
    )
}

/// A human summary of a VOLE proof file's body (SHA-256 or peg; no verification).
pub fn inspect(file: &ProofFile) -> Result<String> {
    if file.mode == Mode::Interactive {
        let rec: crate::net::SessionRecord = proof_file::decode(&file.body, "VOLE session record")?;
        return Ok(format!(
            "repetitions: {} (the verifier fixed the parameters)\nstatement: {}",
            rec.hello.rounds,
            hex::encode(rec.hello.statement),
        ));
    }
    let (proof, extra) = match file.protocol {
        ProtocolId::Sha256Vole => {
            let b: Sha256VoleBody = proof_file::decode(&file.body, "SHA-256 VOLE proof body")?;
            (b.proof, format!("preimage length: {} bytes\n", b.len))
        }
        ProtocolId::PegVole => (
            proof_file::decode(&file.body, "peg VOLE proof")?,
            String::new(),
        ),
        other => {
            return Err(Error::bad(format!(
                "this is a '{}' proof, not a VOLE SHA-256 or peg proof",
                other.name()
            )))
        }
    };
    Ok(extra + &describe(&proof))
}
