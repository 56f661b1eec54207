//! The zero-knowledge simulator of Claim 19 and the knowledge extractor of Claim 18, as
//! running code.
//!
//! * [`simulate_round`] produces, **without any solution**, a commitment and a response
//!   that the verifier accepts for a challenge `σ` chosen in advance. Unopened commitments
//!   hide random strings. This is why a transcript of an interactive session proves nothing
//!   to a third party, and why the verifier learns nothing: it could have produced the
//!   same distribution itself.
//! * [`extract`] turns accepting responses to all `S` challenges on one commitment into a
//!   valid solution of the original instance (`S`-special soundness).
//!
//! Erratum: the paper's simulator puts `F + σ − 1` pegs in `Z'[σ]`; a solution loses one peg
//! per move, so row `σ` holds `F − σ + 1` pegs, which is what the real prover reveals and
//! what this simulator uses.

use rand::seq::SliceRandom;
use rand::Rng as _;

use super::instance::{Goal, Instance, Matrix};
use super::iso::Iso;
use super::protocol::{commit_values, respond_with, verify_round, Opening, RoundResponse};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{self};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::{Hello, SessionRecord, SESSION_VERSION};

fn random_row(n: usize, rng: &mut Rng) -> Vec<bool> {
    (0..n).map(|_| rng.gen::<bool>()).collect()
}

/// Simulates one round for the challenge `sigma` (1-based) without a solution: returns the
/// round commitment (Merkle root) and an accepting response.
pub fn simulate_round(
    inst: &Instance,
    sigma: usize,
    rng: &mut Rng,
) -> Result<(Digest, RoundResponse)> {
    let (n, t, s) = (inst.n(), inst.t(), inst.s());
    if !(1..=s).contains(&sigma) {
        return Err(Error::bad(format!("challenge {sigma} outside [1, {s}]")));
    }
    let random_triplet = |rng: &mut Rng| -> [u32; 3] { [rng.gen(), rng.gen(), rng.gen()] };
    if sigma == s {
        let iso = Iso::random(n, t, rng);
        let image = iso.apply(inst);
        let mut rows: Matrix = (0..s).map(|_| random_row(n, rng)).collect();
        rows[0] = image.first().to_vec();
        if let Goal::Position(l) = image.goal() {
            rows[s - 1] = l.clone();
        }
        let sec = commit_values(iso, image.triplets().to_vec(), rows, rng);
        return Ok((sec.root, respond_with(inst, &sec, s, None)));
    }
    // σ < S: a random triplet index, three random distinct vertices, a random orientation.
    let gamma = rng.gen_range(0..t);
    let mut verts: Vec<u32> = (0..n as u32).collect();
    if n < 3 {
        return Err(Error::bad("instance too small to simulate a move"));
    }
    verts.shuffle(rng);
    let tri = [verts[0], verts[1], verts[2]];
    let pegs = inst.first().iter().filter(|&&b| b).count() + 1 - sigma; // F − σ + 1
    let others = &verts[3..];
    if pegs < 2 || pegs - 2 > others.len() {
        return Err(Error::bad(
            "no position with the required peg count fits this instance",
        ));
    }
    let b = rng.gen::<bool>();
    let mut before = vec![false; n];
    before[tri[0] as usize] = b;
    before[tri[1] as usize] = true;
    before[tri[2] as usize] = !b;
    // the remaining pegs − 2 ones go to uniformly random other vertices
    for &v in others.choose_multiple(rng, pegs - 2) {
        before[v as usize] = true;
    }
    let mut after = before.clone();
    for &v in &tri {
        after[v as usize] = !after[v as usize];
    }
    let mut triplets: Vec<[u32; 3]> = (0..t).map(|_| random_triplet(rng)).collect();
    triplets[gamma] = tri;
    let mut rows: Matrix = (0..s).map(|_| random_row(n, rng)).collect();
    rows[sigma - 1] = before;
    rows[sigma] = after;
    // the isomorphism is never opened for σ < S; any value works
    let sec = commit_values(Iso::identity(n, t), triplets, rows, rng);
    Ok((sec.root, respond_with(inst, &sec, sigma, Some(gamma))))
}

/// Simulates a whole interactive session transcript for verifier challenges `sigmas`,
/// without a solution. [`super::session::verify_record`] accepts it.
pub fn simulate_session(
    inst: &Instance,
    sigmas: &[u32],
    context: &[u8],
    rng: &mut Rng,
) -> Result<SessionRecord> {
    simulate_session_with_progress(inst, sigmas, context, rng, &mut |_| {})
}

/// [`simulate_session`], calling `on_round(k)` after each of the rounds. Refuses first,
/// before any work, a transcript that no verifier would read
/// ([`super::fs::check_transcript_size`]).
pub fn simulate_session_with_progress(
    inst: &Instance,
    sigmas: &[u32],
    context: &[u8],
    rng: &mut Rng,
    on_round: &mut dyn FnMut(usize),
) -> Result<SessionRecord> {
    super::fs::check_transcript_size(inst, sigmas.len(), context)?;
    let mut roots = Vec::with_capacity(sigmas.len());
    let mut resp = Vec::with_capacity(sigmas.len());
    for (k, &sg) in sigmas.iter().enumerate() {
        let (root, r) = simulate_round(inst, sg as usize, rng)?;
        roots.push(root);
        resp.push(r);
        on_round(k + 1);
    }
    let hello = Hello {
        protocol: crate::fs::PEG_ISO.0,
        version: SESSION_VERSION,
        statement: inst.digest(),
        rounds: sigmas.len() as u32,
        context: context.to_vec(),
    };
    let challenges = proof_file::encode(&sigmas.to_vec());
    let key = zkgames_core::rng::random_32(rng);
    Ok(SessionRecord {
        challenge_commitment: zkgames_net::challenge_commitment(&hello, &challenges, &key),
        hello,
        commitments: proof_file::encode(&roots),
        challenges,
        challenge_key: key,
        responses: proof_file::encode(&resp),
    })
}

/// The extractor of Claim 18: from accepting responses to every challenge `1..=S` on the
/// same round commitment `root`, rebuilds `Z'` and `ξ`, and returns `Z = ξ⁻¹(Z')`, a valid
/// solution of `inst`. Fails if a response does not verify against `root`, a challenge is
/// missing, or two openings of one row disagree (which would be a SHA-256 collision).
pub fn extract(inst: &Instance, root: &Digest, responses: &[RoundResponse]) -> Result<Matrix> {
    let (n, s) = (inst.n(), inst.s());
    let mut rows: Vec<Option<Vec<bool>>> = vec![None; s];
    let mut iso = None;
    let mut seen = vec![false; s + 1];
    let put = |rows: &mut Vec<Option<Vec<bool>>>, j: usize, bits: &[u8]| -> Result<()> {
        let v = super::instance::unpack_bits(bits, n).ok_or_else(|| Error::bad("malformed row"))?;
        match &rows[j] {
            Some(old) if *old != v => Err(Error::bad(format!(
                "row {} opened two ways: commitment collision",
                j + 1
            ))),
            _ => {
                rows[j] = Some(v);
                Ok(())
            }
        }
    };
    for r in responses {
        let sg = r.sigma as usize;
        let got =
            verify_round(inst, sg, r).map_err(|e| Error::rejected(format!("σ = {sg}: {e}")))?;
        if got != *root {
            return Err(Error::rejected(format!(
                "σ = {sg}: response is for another commitment"
            )));
        }
        seen[sg] = true;
        match &r.opening {
            Opening::Iso {
                iso: x,
                first,
                last,
                ..
            } => {
                iso = Some(x.clone());
                put(&mut rows, 0, &first.bits)?;
                if let Some(l) = last {
                    put(&mut rows, s - 1, &l.bits)?;
                }
            }
            Opening::Move { before, after, .. } => {
                put(&mut rows, sg - 1, &before.bits)?;
                put(&mut rows, sg, &after.bits)?;
            }
        }
    }
    if let Some(m) = (1..=s).find(|&x| !seen[x]) {
        return Err(Error::bad(format!(
            "no accepted response for challenge σ = {m}"
        )));
    }
    let iso = iso.expect("σ = S was seen");
    let zp: Matrix = rows
        .into_iter()
        .map(|r| r.expect("every row opened"))
        .collect();
    let z = iso.unmap_solution(&zp);
    inst.check_solution(&z)?;
    Ok(z)
}
