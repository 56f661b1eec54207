//! Non-interactive proofs: Protocol 1 repeated `λ` times in parallel, challenges by
//! Fiat–Shamir.
//!
//! Transcript (see [`zkgames_core::transcript`]), protocol label `zkgames/peg-iso`:
//! `version` (u64 1), `instance` (canonical bytes of `Σ`), `rounds` (u64 λ), `context`
//! (bytes), then `root` once per round, in order. Challenges: `σ_r = 1 + uniform(S)` drawn
//! in round order from the stream labelled `sigma`.
//!
//! The proof carries no roots: the verifier recomputes each round's root from its response
//! (whose `σ` it states), derives the challenges from those roots and checks that every
//! stated `σ` is the derived one. A prover who changes any opened value changes a root and
//! therefore, with overwhelming probability, every challenge.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::instance::{Instance, Matrix};
use super::protocol::{
    achieved_bits, commit_round, respond, rounds_for_bits, verify_round, RoundResponse,
};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{self, Mode, ProofFile, ProtocolId};
use zkgames_core::rng::{fork, Rng};
use zkgames_core::transcript::Transcript;
use zkgames_core::Error;
use zkgames_core::Result;

/// The protocol id of Protocol 1 (isomorphisms) files and sessions: 1.
pub const PEG_ISO: ProtocolId = ProtocolId(1);

#[zkgames_core::linkme::distributed_slice(zkgames_core::proof_file::PROTOCOL_IDS)]
#[linkme(crate = zkgames_core::linkme)]
static PEG_ISO_REGISTERED: zkgames_core::proof_file::Registered =
    zkgames_core::proof_file::Registered {
        id: PEG_ISO,
        kind: "peg solitaire",
        system: "isomorphism protocol (FUN 2022, Protocol 1)",
        engine: ("the isomorphism protocol", "iso"),
    };

/// Protocol label of the transcript.
pub const PROTOCOL_LABEL: &[u8] = b"zkgames/peg-iso";
/// Version of the peg isomorphism proof body.
pub const PROOF_VERSION: u64 = 1;
/// Largest round count accepted (far above the 2,795 of 128-bit English proofs).
pub const MAX_ROUNDS: usize = 1 << 20;
/// Largest context string accepted.
pub const MAX_CONTEXT: usize = 4096;

/// The body of a non-interactive peg isomorphism proof file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PegIsoProof {
    /// SHA-256 of the instance's canonical bytes (for a clear error on the wrong instance).
    pub instance_digest: Digest,
    /// The context string the proof is bound to.
    pub context: Vec<u8>,
    /// One response per round; their number is `λ`.
    pub responses: Vec<RoundResponse>,
}

/// What a successful verification established.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub rounds: usize,
    pub s: usize,
    /// `λ · log2(S/(S−1))`: the knowledge error is `2^-bits`.
    pub bits: f64,
}

/// The transcript state after everything public except the roots.
pub fn base_transcript(inst: &Instance, rounds: usize, context: &[u8]) -> Transcript {
    let mut tr = Transcript::new(PROTOCOL_LABEL);
    tr.append_u64(b"version", PROOF_VERSION);
    tr.append(b"instance", &inst.canonical_bytes());
    tr.append_u64(b"rounds", rounds as u64);
    tr.append(b"context", context);
    tr
}

/// The Fiat–Shamir challenges (1-based) for the given round roots.
pub fn challenges(inst: &Instance, context: &[u8], roots: &[Digest]) -> Vec<usize> {
    let mut tr = base_transcript(inst, roots.len(), context);
    for r in roots {
        tr.append(b"root", r);
    }
    let mut st = tr.challenges(b"sigma");
    let s = inst.s() as u64;
    roots.iter().map(|_| 1 + st.uniform(s) as usize).collect()
}

/// Proves knowledge of the solution `z` with `rounds` parallel rounds. Refuses an invalid
/// solution (the error names the first illegal step).
pub fn prove(
    inst: &Instance,
    z: &Matrix,
    rounds: usize,
    context: &[u8],
    rng: &mut Rng,
) -> Result<PegIsoProof> {
    inst.check_solution(z)?;
    check_params(rounds, context)?;
    check_size(inst, rounds)?;
    let rngs: Vec<Rng> = (0..rounds).map(|_| fork(rng)).collect();
    let secrets: Vec<_> = rngs
        .into_par_iter()
        .map(|mut r| commit_round(inst, z, &mut r))
        .collect();
    let roots: Vec<Digest> = secrets.iter().map(|s| s.root).collect();
    let sigmas = challenges(inst, context, &roots);
    let responses = secrets
        .par_iter()
        .zip(sigmas.par_iter())
        .map(|(sec, &sg)| respond(inst, sec, sg))
        .collect();
    Ok(PegIsoProof {
        instance_digest: inst.digest(),
        context: context.to_vec(),
        responses,
    })
}

/// Estimated proof body size and prover memory for `rounds` rounds, in bytes.
pub fn estimate(inst: &Instance, rounds: usize) -> (u64, u64) {
    let (n, t, s) = (inst.n() as u64, inst.t() as u64, inst.s() as u64);
    let row = n.div_ceil(8) + 34;
    let depth = 64 - (t + s - 1).leading_zeros() as u64;
    let mv = 2 * row + 32 + 12 + 8 + 2 * 32 * depth;
    let iso = t * 46 + n * 3 + 2 * row + 2 * 32 * depth;
    let per_round = (mv * (s - 1) + iso) / s + 8;
    let memory = rounds as u64 * (s * n + (t + s) * 64 + t * 12 + n * 4 + 256);
    (rounds as u64 * per_round, memory)
}

/// Refuses, before any work, proofs that no verifier would accept (body over the container
/// limit) or that would need more than 8 GiB of prover memory.
fn check_size(inst: &Instance, rounds: usize) -> Result<()> {
    let (size, mem) = estimate(inst, rounds);
    if size > proof_file::MAX_BODY as u64 || mem > 8 << 30 {
        return Err(Error::bad(format!(
            "{rounds} rounds on this instance (N = {}, T = {}, S = {}) would make a proof of about {} MiB (limit {} MiB) and need about {} MiB of memory: lower --security, or use --system mpc",
            inst.n(),
            inst.t(),
            inst.s(),
            size >> 20,
            proof_file::MAX_BODY >> 20,
            mem >> 20
        )));
    }
    Ok(())
}

/// Refuses, before any work, an interactive session transcript (what `prover peg simulate`
/// writes) that no verifier would read: a round count or context out of range, or a body
/// over the container limit (the proof's responses plus a 32-byte root and a challenge per
/// round).
pub fn check_transcript_size(inst: &Instance, rounds: usize, context: &[u8]) -> Result<()> {
    if rounds > MAX_ROUNDS {
        return Err(Error::bad(format!(
            "{rounds} rounds on this instance (N = {}, T = {}, S = {}): a session transcript has at most {MAX_ROUNDS}; lower --security",
            inst.n(),
            inst.t(),
            inst.s()
        )));
    }
    check_params(rounds, context)?;
    let (size, _) = estimate(inst, rounds);
    let size = size + 37 * rounds as u64 + context.len() as u64 + 64;
    if size > proof_file::MAX_BODY as u64 {
        return Err(Error::bad(format!(
            "{rounds} rounds on this instance (N = {}, T = {}, S = {}) would make a session transcript of about {} MiB, over the {} MiB limit of proof files: lower --security",
            inst.n(),
            inst.t(),
            inst.s(),
            size >> 20,
            proof_file::MAX_BODY >> 20
        )));
    }
    Ok(())
}

fn check_params(rounds: usize, context: &[u8]) -> Result<()> {
    if rounds == 0 || rounds > MAX_ROUNDS {
        return Err(Error::bad(format!(
            "round count {rounds} outside [1, {MAX_ROUNDS}]"
        )));
    }
    if context.len() > MAX_CONTEXT {
        return Err(Error::bad(format!(
            "context longer than {MAX_CONTEXT} bytes"
        )));
    }
    Ok(())
}

/// Checks the instance, context and round count a proof claims against what the verifier
/// expects. Shared by non-interactive and interactive verification.
pub fn check_claims(
    inst: &Instance,
    digest: &Digest,
    context: &[u8],
    expected_context: &[u8],
    rounds: usize,
    min_bits: u32,
) -> Result<()> {
    if *digest != inst.digest() {
        let (theirs, ours) = zkgames_core::files::two_digests(digest, &inst.digest());
        return Err(Error::rejected(format!(
            "the proof is for another instance: another puzzle or start position (its digest {theirs}, this puzzle's {ours})"
        )));
    }
    if context != expected_context {
        return Err(Error::rejected(format!(
            "the proof is bound to context \"{}\", not \"{}\"",
            zkgames_core::files::excerpt(&String::from_utf8_lossy(context)),
            zkgames_core::files::excerpt(&String::from_utf8_lossy(expected_context))
        )));
    }
    let need = rounds_for_bits(min_bits, inst.s());
    if rounds < need {
        return Err(Error::rejected(format!(
            "too few rounds: {rounds} < {need} needed for {min_bits} bits of security with S = {} ({:.1} bits achieved)",
            inst.s(),
            achieved_bits(rounds, inst.s())
        )));
    }
    // no proof may ask for more work than an honest one at max(level, 128) bits
    // (docs/PROTOCOLS.md 5.7)
    let max = rounds_for_bits(
        min_bits.max(zkgames_mpc::offered::WORK_FLOOR_BITS),
        inst.s(),
    );
    if rounds > max {
        return Err(Error::rejected(format!(
            "too many rounds: {rounds} > {max}, the most a verifier at {min_bits} bits accepts on this instance (verify with a higher --security to accept it)"
        )));
    }
    Ok(())
}

/// Verifies a non-interactive proof: claims, every round's checks, then Fiat–Shamir.
pub fn verify(inst: &Instance, p: &PegIsoProof, min_bits: u32, context: &[u8]) -> Result<Report> {
    let rounds = p.responses.len();
    check_params(rounds, &p.context)?;
    check_claims(
        inst,
        &p.instance_digest,
        &p.context,
        context,
        rounds,
        min_bits,
    )?;
    let s = inst.s();
    let roots: Vec<std::result::Result<Digest, String>> = p
        .responses
        .par_iter()
        .map(|r| {
            let sg = r.sigma as usize;
            if !(1..=s).contains(&sg) {
                return Err(format!("challenge σ = {sg} outside [1, {s}]"));
            }
            verify_round(inst, sg, r)
        })
        .collect();
    let mut ok_roots = Vec::with_capacity(rounds);
    for (i, r) in roots.into_iter().enumerate() {
        ok_roots.push(r.map_err(|e| Error::rejected(format!("round {}: {e}", i + 1)))?);
    }
    let sigmas = challenges(inst, context, &ok_roots);
    for (i, (r, &sg)) in p.responses.iter().zip(&sigmas).enumerate() {
        if r.sigma as usize != sg {
            return Err(Error::rejected(format!(
                "round {}: the response answers σ = {} but Fiat–Shamir gives σ = {sg} (commitments or openings were altered)",
                i + 1,
                r.sigma
            )));
        }
    }
    Ok(Report {
        rounds,
        s,
        bits: achieved_bits(rounds, s),
    })
}

/// Proves and wraps the proof in a proof file.
pub fn prove_file(
    inst: &Instance,
    z: &Matrix,
    rounds: usize,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let p = prove(inst, z, rounds, context, rng)?;
    Ok(ProofFile::new(
        crate::fs::PEG_ISO,
        Mode::NonInteractive,
        proof_file::encode(&p),
    )
    .to_bytes())
}

/// Decodes the body of a non-interactive peg isomorphism proof file.
pub fn decode_proof(f: &ProofFile) -> Result<PegIsoProof> {
    f.expect_protocol(crate::fs::PEG_ISO)?;
    if f.mode != Mode::NonInteractive {
        return Err(Error::bad(
            "expected a non-interactive proof, found a session transcript",
        ));
    }
    proof_file::decode(&f.body, "peg proof body")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{tee, tee_solution};
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn size_estimate_is_close_and_oversized_proofs_are_refused() {
        let mut rng = seeded_rng(5);
        let (english, ez) = crate::catalog::solved("english").unwrap();
        for (inst, z) in [(tee(), tee_solution()), (english, ez)] {
            let p = prove(&inst, &z, 2000, b"", &mut rng).unwrap();
            let real = proof_file::encode(&p).len() as f64;
            let (est, _) = estimate(&inst, 2000);
            let ratio = est as f64 / real;
            assert!((0.8..1.8).contains(&ratio), "estimate {est}, real {real}");
        }
        assert!(matches!(
            prove(&tee(), &tee_solution(), MAX_ROUNDS, b"", &mut rng),
            Err(Error::BadInput(_))
        ));
    }

    #[test]
    fn prove_verify_and_bindings() {
        let inst = tee();
        let mut rng = seeded_rng(3);
        let rounds = rounds_for_bits(40, inst.s());
        let p = prove(&inst, &tee_solution(), rounds, b"ctx", &mut rng).unwrap();
        let rep = verify(&inst, &p, 40, b"ctx").unwrap();
        assert!(rep.bits >= 40.0);
        assert!(matches!(
            verify(&inst, &p, 41, b"ctx"),
            Err(Error::Rejected(_))
        ));
        assert!(matches!(
            verify(&inst, &p, 40, b"other"),
            Err(Error::Rejected(_))
        ));
        // altering the claimed context to match the verifier's does not help: FS breaks
        let mut q = p.clone();
        q.context = b"other".to_vec();
        assert!(matches!(
            verify(&inst, &q, 40, b"other"),
            Err(Error::Rejected(_))
        ));
        // dropping a round
        let mut q = p.clone();
        q.responses.pop();
        assert!(verify(&inst, &q, 40, b"ctx").is_err());
    }
}
