//! The KKW engine behind the shared interfaces: its seals ([`crate::seal`]) and its
//! live sessions ([`crate::session`]).
//!
//! A seal is an ordinary proof whose randomness comes from the master seed's generator,
//! which [`super::commit`] reads in this order: the salt, the root of the execution tree and
//! the `M` online keys (32 bytes each). A session's three moves are [`super::CommitMsg`],
//! [`super::Challenge`] and [`super::Response`] (docs/PROTOCOLS.md 6.13).

use rand_core::RngCore;

use super::{Challenge, CommitMsg, Params, Profile, ProverState, Response};
use crate::seal::Reproducible;
use crate::session::Interactive;
use crate::statement::Statement;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;

/// The KKW engine.
pub struct Kkw;

impl Reproducible for Kkw {
    type Params = super::Params;
    type Proof = super::Proof;
    type Cheat = super::Cheat;
    const MASTER_TAG: &'static [u8] = b"zkg:kkw:seal-rng:v1";
    const SEAL_DIGEST_TAG: &'static [u8] = b"zkg:kkw:seal:v1";

    fn check(p: &Self::Params) -> Result<()> {
        p.check()
    }

    fn params(proof: &Self::Proof) -> Self::Params {
        proof.params
    }

    fn prove_unchecked(
        st: &Statement,
        witness: &[bool],
        params: Self::Params,
        rng: &mut rand_chacha::ChaCha20Rng,
        cheats: &[Self::Cheat],
    ) -> Result<Self::Proof> {
        super::prove_unchecked(st, witness, params, rng, cheats)
    }
}

impl Interactive for Kkw {
    const LABEL: &'static str = "KKW";
    const SESSION_TAG: &'static [u8] = b"zkg:kkw:session:v1";
    const MAX_BITS: u32 = 256;
    type Params = Params;
    type Commit = CommitMsg;
    type Challenge = Challenge;
    type Response = Response;
    type State = ProverState;

    fn check(p: &Params) -> Result<()> {
        p.check()
    }

    fn session_form(p: Params) -> Params {
        p
    }

    fn rounds(p: &Params) -> u32 {
        p.executions
    }

    fn words(p: &Params) -> [u32; 3] {
        [p.executions, p.online, p.parties]
    }

    fn offered(bits: u32) -> Result<Vec<(&'static str, Params)>> {
        Profile::ALL
            .into_iter()
            .map(|pr| Ok((pr.name(), super::params_for(bits, pr)?)))
            .collect()
    }

    fn commit(st: &Statement, witness: &[bool], p: Params, rng: &mut Rng) -> Result<ProverState> {
        super::commit(st, witness, p, rng, &[])
    }

    fn commitment(state: &ProverState) -> &CommitMsg {
        state.commitment()
    }

    fn respond(state: ProverState, st: &Statement, ch: &Challenge) -> Result<Response> {
        state.respond(st, ch)
    }

    fn random_challenge(p: &Params, mut rng: &mut dyn RngCore) -> Challenge {
        Challenge::random(p, &mut rng)
    }

    fn check_challenge(ch: &Challenge, p: &Params) -> Result<()> {
        ch.check(p)
    }

    fn check_commit(m: &CommitMsg, p: &Params) -> Result<()> {
        if m.preprocessing.len() != p.executions as usize {
            return Err(Error::rejected(format!(
                "{} preprocessing commitments, expected {}",
                m.preprocessing.len(),
                p.executions
            )));
        }
        Ok(())
    }

    fn verify(
        st: &Statement,
        p: &Params,
        m: &CommitMsg,
        ch: &Challenge,
        r: &Response,
    ) -> Result<()> {
        super::verify_interactive(st, p, m, ch, r)
    }

    fn simulate(
        st: &Statement,
        p: Params,
        ch: &Challenge,
        mut rng: &mut dyn RngCore,
    ) -> Result<(CommitMsg, Response)> {
        super::simulate(st, p, ch, &mut rng)
    }
}
