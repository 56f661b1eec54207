//! Interactive Protocol 1 between two processes: the verifier draws its own challenges.
//!
//! The same round functions as the non-interactive proofs ([`super::protocol`]) run over a
//! [`zkgames_net`] session: the prover sends every round's Merkle root, the verifier answers
//! with `λ` uniformly random `σ ∈ [1, S]` from its own ChaCha20 generator, the prover opens,
//! and the verifier checks each opening against the root it received.
//!
//! The verifier commits to its challenges before it sees the roots ([`zkgames_net::session`]).
//! A saved session transcript (proof file mode `Interactive`) convinces only the verifier who
//! took part: anyone can produce an accepting transcript for challenges of their choice with
//! the simulator ([`super::simulate`]), so it is not transferable evidence.

use rand::Rng as _;
use rayon::prelude::*;

use super::fs::{check_claims, MAX_CONTEXT, MAX_ROUNDS};
use super::instance::{Instance, Matrix};
use super::protocol::{commit_round, respond, verify_round, RoundResponse, RoundSecret};
use zkgames_core::commit::Digest;
use zkgames_core::merkle::max_opening_len;
use zkgames_core::proof_file::{self, list_len, varint_len};
use zkgames_core::rng::{fork, with_fresh_entropy, Rng};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::{
    replay, Hello, Responder, SessionProver, SessionRecord, SessionVerifier, SESSION_VERSION,
};

/// The prover's side of a live session, before it commits.
pub struct PegProver<'a> {
    inst: &'a Instance,
    z: &'a Matrix,
    rounds: usize,
    context: Vec<u8>,
    rng: Rng,
}

impl<'a> PegProver<'a> {
    /// A prover for `rounds` rounds; refuses an invalid solution. Fresh OS randomness is
    /// mixed into `rng` ([`zkgames_core::rng::with_fresh_entropy`]), so no two sessions share
    /// commitments even under a fixed seed.
    pub fn new(
        inst: &'a Instance,
        z: &'a Matrix,
        rounds: usize,
        context: &[u8],
        mut rng: Rng,
    ) -> Result<Self> {
        inst.check_solution(z)?;
        if rounds == 0 || rounds > MAX_ROUNDS || context.len() > MAX_CONTEXT {
            return Err(Error::bad("round count or context length out of range"));
        }
        if super::fs::estimate(inst, rounds).1 > 8 << 30 {
            return Err(Error::bad(
                "this many rounds on this instance would need over 8 GiB of memory",
            ));
        }
        Ok(PegProver {
            inst,
            z,
            rounds,
            context: context.to_vec(),
            rng: with_fresh_entropy(&mut rng),
        })
    }
}

/// The committed state of a [`PegProver`]: answers one challenge vector.
struct PegResponder<'a> {
    inst: &'a Instance,
    secrets: Vec<RoundSecret>,
}

impl<'a> SessionProver<'a> for PegProver<'a> {
    fn hello(&self) -> Hello {
        Hello {
            protocol: crate::fs::PEG_ISO.0,
            version: SESSION_VERSION,
            statement: self.inst.digest(),
            rounds: self.rounds as u32,
            context: self.context.clone(),
        }
    }

    fn commit(mut self: Box<Self>) -> Result<(Vec<u8>, Box<dyn Responder + 'a>)> {
        let rngs: Vec<Rng> = (0..self.rounds).map(|_| fork(&mut self.rng)).collect();
        let (inst, z) = (self.inst, self.z);
        let secrets: Vec<RoundSecret> = rngs
            .into_par_iter()
            .map(|mut r| commit_round(inst, z, &mut r))
            .collect();
        let roots: Vec<Digest> = secrets.iter().map(|s| s.root).collect();
        Ok((
            proof_file::encode(&roots),
            Box::new(PegResponder { inst, secrets }),
        ))
    }
}

impl Responder for PegResponder<'_> {
    fn respond(self: Box<Self>, challenges: &[u8]) -> Result<Vec<u8>> {
        let sigmas = decode_sigmas(self.inst, challenges, self.secrets.len())?;
        let inst = self.inst;
        let resp: Vec<RoundResponse> = self
            .secrets
            .par_iter()
            .zip(sigmas.par_iter())
            .map(|(sec, &sg)| respond(inst, sec, sg as usize))
            .collect();
        Ok(proof_file::encode(&resp))
    }
}

/// Decodes `rounds` challenges σ ∈ [1, S].
fn decode_sigmas(inst: &Instance, challenges: &[u8], rounds: usize) -> Result<Vec<u32>> {
    let sigmas: Vec<u32> = proof_file::decode(challenges, "challenges")?;
    let s = inst.s();
    if sigmas.len() != rounds || sigmas.iter().any(|&x| x == 0 || x as usize > s) {
        return Err(Error::bad(format!(
            "malformed challenges: expected {rounds} values in [1, {s}]"
        )));
    }
    Ok(sigmas)
}

/// The verifier's side of a live session (and of replays of recorded sessions).
pub struct PegVerifier<'a> {
    inst: &'a Instance,
    min_bits: u32,
    context: Vec<u8>,
    rng: Rng,
    rounds: usize,
    roots: Vec<Digest>,
    sigmas: Vec<u32>,
}

impl<'a> PegVerifier<'a> {
    /// A verifier requiring `min_bits` of security and the given context; `rng` draws the
    /// challenges (use [`zkgames_core::rng::os_rng`] outside tests).
    pub fn new(inst: &'a Instance, min_bits: u32, context: &[u8], rng: Rng) -> Self {
        PegVerifier {
            inst,
            min_bits,
            context: context.to_vec(),
            rng,
            rounds: 0,
            roots: vec![],
            sigmas: vec![],
        }
    }
}

impl SessionVerifier for PegVerifier<'_> {
    fn check_hello(&mut self, h: &Hello) -> Result<()> {
        if h.protocol != crate::fs::PEG_ISO.0 {
            return Err(Error::bad(zkgames_core::proof_file::protocol_mismatch(
                h.protocol,
                crate::fs::PEG_ISO,
            )));
        }
        if h.version != SESSION_VERSION {
            return Err(Error::bad(format!(
                "unsupported session: protocol {} version {} (expected peg-iso version {SESSION_VERSION})",
                h.protocol, h.version
            )));
        }
        let rounds = h.rounds as usize;
        if rounds == 0 || rounds > MAX_ROUNDS || h.context.len() > MAX_CONTEXT {
            return Err(Error::bad("round count or context length out of range"));
        }
        check_claims(
            self.inst,
            &h.statement,
            &h.context,
            &self.context,
            rounds,
            self.min_bits,
        )?;
        self.rounds = rounds;
        Ok(())
    }

    fn draw_challenges(&mut self) -> Vec<u8> {
        let s = self.inst.s() as u32;
        self.sigmas = (0..self.rounds)
            .map(|_| self.rng.gen_range(1..=s))
            .collect();
        proof_file::encode(&self.sigmas)
    }

    fn load_challenges(&mut self, challenges: &[u8]) -> Result<()> {
        self.sigmas = decode_sigmas(self.inst, challenges, self.rounds)?;
        Ok(())
    }

    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()> {
        let roots: Vec<Digest> = proof_file::decode(commitments, "commitments")?;
        if roots.len() != self.rounds {
            return Err(Error::rejected(format!(
                "expected {} round commitments, got {}",
                self.rounds,
                roots.len()
            )));
        }
        self.roots = roots;
        Ok(())
    }

    fn verify(&mut self, responses: &[u8]) -> Result<()> {
        verify_responses(self.inst, &self.roots, &self.sigmas, responses)
    }

    fn max_commitments(&self) -> usize {
        list_len(self.rounds, 32)
    }

    fn max_responses(&self) -> usize {
        max_response_len(self.inst, &self.sigmas)
    }
}

/// The most bytes an honest prover's responses to the challenges `sigmas` have for `inst`
/// (the verifier drew them before it reads the responses): per round, `σ` and the opening
/// with its Merkle siblings: for `σ = S` the isomorphism, `Σ'` and its keys, the first row
/// and, for a position goal, the last, opening `T + 1` or `T + 2` of the `T + S` leaves;
/// for `σ < S` a triplet, its key and two rows, opening 3 leaves. A number below `n` takes
/// at most `varint_len(n)` bytes. What a live session's verifier reads at most.
pub fn max_response_len(inst: &Instance, sigmas: &[u32]) -> usize {
    let (n, t, s) = (inst.n(), inst.t(), inst.s());
    let num = |below: usize| varint_len(below as u64);
    let row = 32 + list_len(n.div_ceil(8), 1);
    let triplet = 3 * num(n);
    let path = |k: usize| list_len(max_opening_len(t + s, k), 32);
    let iso = list_len(n, num(n)) + list_len(t, num(t)) + 1;
    let last = matches!(inst.goal(), crate::instance::Goal::Position(_));
    let at_s = 1
        + iso
        + list_len(t, triplet)
        + list_len(t, 32)
        + row
        + 1
        + if last { row } else { 0 }
        + path(t + 1 + last as usize);
    let at_move = 1 + num(t) + triplet + 32 + 2 * row + path(3);
    let round = |sg: u32| num(s + 1) + if sg as usize == s { at_s } else { at_move };
    varint_len(sigmas.len() as u64) + sigmas.iter().map(|&sg| round(sg)).sum::<usize>()
}

fn verify_responses(
    inst: &Instance,
    roots: &[Digest],
    sigmas: &[u32],
    responses: &[u8],
) -> Result<()> {
    let resp: Vec<RoundResponse> = proof_file::decode(responses, "responses")?;
    if resp.len() != roots.len() || sigmas.len() != roots.len() {
        return Err(Error::rejected(format!(
            "expected {} responses, got {}",
            roots.len(),
            resp.len()
        )));
    }
    let results: Vec<std::result::Result<(), String>> = resp
        .par_iter()
        .zip(sigmas.par_iter().zip(roots.par_iter()))
        .map(|(r, (&sg, root))| {
            let got = verify_round(inst, sg as usize, r)?;
            if got != *root {
                return Err(
                    "the opened values do not match the round's commitment (Merkle root)".into(),
                );
            }
            Ok(())
        })
        .collect();
    for (i, r) in results.into_iter().enumerate() {
        r.map_err(|e| Error::rejected(format!("round {}: {e}", i + 1)))?;
    }
    Ok(())
}

/// Re-checks a saved session transcript (it shows the session was consistent; it is not
/// transferable evidence of knowledge). Returns the round count.
pub fn verify_record(
    inst: &Instance,
    rec: &SessionRecord,
    min_bits: u32,
    context: &[u8],
) -> Result<usize> {
    let mut v = PegVerifier::new(inst, min_bits, context, zkgames_core::rng::seeded_rng(0));
    Ok(replay(&mut v, rec)? as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{tee, tee_solution, Goal};
    use zkgames_core::rng::seeded_rng;

    /// An honest session's every message is within the bounds the session driver holds
    /// the prover to ([`max_response_len`] of the drawn challenges), and the responses are
    /// within 2× of the bound: a position goal and a peg-count goal, small and English-sized boards.
    #[test]
    fn the_peg_session_bounds_its_messages() {
        let t = tee();
        let count = Instance::new(
            t.n(),
            t.triplets().to_vec(),
            t.first().to_vec(),
            Goal::PegCount(1),
        )
        .unwrap();
        let (english, ez) = crate::catalog::solved("english").unwrap();
        for (inst, z, rounds) in [
            (t, tee_solution(), 40),
            (count, tee_solution(), 40),
            (english, ez, 30),
        ] {
            for seed in 0..4 {
                let p =
                    Box::new(PegProver::new(&inst, &z, rounds, b"ctx", seeded_rng(seed)).unwrap());
                let mut v = PegVerifier::new(&inst, 1, b"ctx", seeded_rng(seed + 10));
                v.check_hello(&p.hello()).unwrap();
                let max_c = v.max_commitments();
                let ch = v.draw_challenges();
                let max_r = v.max_responses();
                let (com, responder) = p.commit().unwrap();
                assert_eq!(com.len(), max_c);
                v.check_commitments(&com).unwrap();
                let resp = responder.respond(&ch).unwrap();
                v.verify(&resp).unwrap();
                assert!(resp.len() <= max_r, "{} > {max_r}", resp.len());
                assert!(2 * resp.len() >= max_r, "{} of {max_r}", resp.len());
            }
        }
    }
}
