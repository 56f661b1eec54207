//! SHA-256 preimages proven with the KKW engine ([`super::kkw`]), and the summary of any KKW
//! proof file (peg solitaire's KKW proofs live with its circuit, [`crate::peg::mpc`]).
//!
//! The statements — application tag, circuit, public bytes, output — are exactly those of the
//! ZKB++ proofs of [`super::sha256`] and [`crate::peg::mpc`]; the proof file's protocol id
//! ([`ProtocolId::Sha256Kkw`], [`ProtocolId::PegKkw`]) says which engine made the proof.
//! KKW proofs are non-interactive only (mode 0).

use serde::{Deserialize, Serialize};

use super::engine::{Proof as EngineProof, Required, System};
use super::kkw::{self, Params, Proof};
use super::sha256::PreimageStatement;
use super::Report;
use crate::proof_file::{self, Mode, ProofFile, ProtocolId};
use crate::rng::Rng;
use crate::{Error, Result};

/// The body of a KKW SHA-256 proof file: the public message length and the proof.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Sha256KkwBody {
    pub len: u32,
    pub proof: Proof,
}

pub(crate) fn non_interactive(file: &ProofFile) -> Result<()> {
    if file.mode != Mode::NonInteractive {
        return Err(Error::bad(
            "KKW proofs are non-interactive; this file claims to hold a session transcript",
        ));
    }
    Ok(())
}

/// Proves knowledge of `preimage` with KKW; returns the bytes of a proof file
/// ([`ProtocolId::Sha256Kkw`]).
pub fn prove_sha256(
    preimage: &[u8],
    params: Params,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    super::sha256::prove_sha256_with(preimage, &System::Kkw(params), context, rng)
}

/// Verifies a KKW SHA-256 preimage proof for `digest`, requiring `min_bits` of security.
pub fn verify_sha256(
    digest: &[u8; 32],
    file: &ProofFile,
    min_bits: f64,
    context: &[u8],
) -> Result<Report> {
    file.expect_protocol(ProtocolId::Sha256Kkw)?;
    non_interactive(file)?;
    let body: Sha256KkwBody = proof_file::decode(&file.body, "SHA-256 KKW proof body")?;
    let ps = PreimageStatement::new(body.len as usize, digest, "the proof")?;
    let params = body.proof.params;
    EngineProof::Kkw(body.proof).verify(
        &ps.with(context),
        &Required {
            kkw_bits: min_bits,
            ..Required::bits(1)
        },
    )?;
    Ok(Report::kkw(
        params,
        proof_file::HEADER_LEN + file.body.len(),
        ps.and_gates(),
    ))
}

/// Seals a preimage with KKW ([`super::seal::seal_kkw`]): a KKW SHA-256 proof file
/// (protocol 6, accepted by [`verify_sha256`]) and the opening.
pub fn seal_sha256(
    preimage: &[u8],
    params: Params,
    context: &[u8],
    rng: &mut Rng,
) -> Result<(Vec<u8>, super::seal::SealOpening)> {
    super::sha256::seal_sha256_with(preimage, &System::Kkw(params), context, rng)
}

/// Opens a KKW SHA-256 seal: the preimage of `digest` that `opening` reveals.
pub fn open_sha256(
    digest: &[u8; 32],
    file: &ProofFile,
    opening: &super::seal::SealOpening,
    context: &[u8],
) -> Result<Vec<u8>> {
    file.expect_protocol(ProtocolId::Sha256Kkw)?;
    non_interactive(file)?;
    let body: Sha256KkwBody = proof_file::decode(&file.body, "SHA-256 KKW proof body")?;
    let ps = PreimageStatement::new(body.len as usize, digest, "the seal")?;
    let bits = EngineProof::Kkw(body.proof).open(&ps.with(context), opening)?;
    Ok(super::sha256::bits_to_bytes(&bits))
}

/// A human summary of a KKW proof file's body, of either kind (no verification); the
/// header's summary (protocol, mode, sizes) is the caller's.
pub fn inspect(file: &ProofFile) -> Result<String> {
    if file.mode == Mode::Interactive && file.protocol == ProtocolId::PegKkw {
        let rec: crate::net::SessionRecord =
            proof_file::decode(&file.body, "peg KKW session record")?;
        return Ok(format!(
            "executions: {} (the verifier fixed (M, τ, N))\nstatement: {}",
            rec.hello.rounds,
            hex::encode(rec.hello.statement),
        ));
    }
    let (proof, extra) = match file.protocol {
        ProtocolId::Sha256Kkw => {
            let b: Sha256KkwBody = proof_file::decode(&file.body, "SHA-256 KKW proof body")?;
            (b.proof, format!("preimage length: {} bytes\n", b.len))
        }
        ProtocolId::PegKkw => (
            proof_file::decode(&file.body, "peg KKW proof")?,
            String::new(),
        ),
        other => {
            return Err(Error::bad(format!(
                "this is a '{}' proof, not a KKW proof",
                other.name()
            )))
        }
    };
    let p = proof.params;
    let security = match p.check() {
        Ok(()) => format!(
            "{:.1} bits (Fiat–Shamir grinding; with two separate challenge hashes it would be {:.1})",
            kkw::attack_cost_bits(&p),
            kkw::split_attack_cost_bits(&p)
        ),
        Err(e) => format!("invalid parameters: {e}"),
    };
    let r = &proof.response;
    let sum = |f: fn(&kkw::OnlineOpening) -> usize| r.online.iter().map(f).sum::<usize>();
    Ok(format!(
        "{extra}parameters: {p}\nsecurity: {security}\n\
         execution seeds: {} ({} bytes)\nMerkle siblings: {} ({} bytes)\n\
         online executions: {}: party seeds {} B, auxiliary bits {} B, masked inputs {} B, broadcasts {} B, commitments {} B",
        r.exec_seeds.len(),
        32 * r.exec_seeds.len(),
        r.online_path.len(),
        32 * r.online_path.len(),
        r.online.len(),
        32 * sum(|o| o.party_seeds.len()),
        sum(|o| o.aux.len()),
        sum(|o| o.masked_input.len()),
        sum(|o| o.msgs.len()),
        32 * r.online.len(),
    ))
}
