//! VOLE-in-the-head with a verifier-chosen `Δ` (session version 2 of [`crate::net`]), replay
//! of recorded sessions, and the simulator.
//!
//! The prover's first message is the whole [`CommitMsg`]: `chall1` and `chall2` are still
//! derived by Fiat–Shamir inside it (they only select universal hash keys; grinding them
//! costs `2^128` hashes, as in a proof), and it fixes every leaf before `Δ` is known. The
//! verifier's challenge is `Δ` as one hidden leaf per repetition ([`Challenge`]), committed
//! to in `Ready` before that message; the response is a [`Response`]. No grinding: `Δ` is
//! the verifier's own draw. A session runs its set's session form ([`Params::session`]: the
//! grinding bits become bits of `Δ`, since there is nothing to grind), on both sides, so a
//! caller passes the offered set. The verifier fixes the parameters: they are bound into the
//! Hello's statement digest ([`session_statement`]) and `rounds = τ`. Bytes:
//! docs/PROTOCOLS.md section 7.10.

use rand_core::RngCore;
use sha2::{Digest as _, Sha256};

use super::{Challenge, CommitMsg, Params, Profile, ProverState, Response};
use crate::commit::Digest;
use crate::mpc::session::OwnedStatement;
use crate::mpc::zkbpp::Statement;
use crate::net::{
    challenge_commitment, Hello, Responder, SessionProver, SessionRecord, SessionVerifier,
    SESSION_VERSION,
};
use crate::proof_file::{self, ProtocolId};
use crate::rng::Rng;
use crate::{Error, Result};

/// Domain tag of [`session_statement`].
pub const SESSION_STATEMENT_TAG: &[u8] = b"zkg:vole:session:v3";

/// `SHA-256(SESSION_STATEMENT_TAG ‖ statement digest ‖ u32le(τ) ‖ u32le(delta_bits) ‖
/// u32le(w))`, the statement digest being [`Statement::digest`].
pub fn session_statement(st: &Statement, p: &Params) -> Digest {
    let mut h = Sha256::new();
    h.update(SESSION_STATEMENT_TAG);
    h.update(st.digest());
    h.update(p.tau.to_le_bytes());
    h.update(p.delta_bits.to_le_bytes());
    h.update(p.grind.to_le_bytes());
    h.finalize().into()
}

fn hello(st: &Statement, protocol: ProtocolId, p: &Params) -> Hello {
    Hello {
        protocol: protocol as u16,
        version: SESSION_VERSION,
        statement: session_statement(st, p),
        rounds: p.tau,
        context: st.context.to_vec(),
    }
}

/// The prover's side of a live VOLE session, before it commits.
pub struct VoleProver {
    st: OwnedStatement,
    protocol: ProtocolId,
    witness: Vec<bool>,
    params: Params,
    rng: Rng,
}

impl VoleProver {
    /// Checks the parameters and the witness up front; fresh OS randomness is mixed into
    /// `rng`, so no two sessions share trees.
    pub fn new(
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        params: Params,
        mut rng: Rng,
    ) -> Result<Self> {
        params.check()?;
        crate::mpc::zkbpp::check_witness(&st.as_ref(), &witness)?;
        Ok(VoleProver {
            st,
            protocol,
            witness,
            params: params.session(),
            rng: crate::rng::with_fresh_entropy(&mut rng),
        })
    }
}

struct VoleResponder {
    params: Params,
    state: ProverState,
}

impl SessionProver<'static> for VoleProver {
    fn hello(&self) -> Hello {
        hello(&self.st.as_ref(), self.protocol, &self.params)
    }

    fn commit(mut self: Box<Self>) -> Result<(Vec<u8>, Box<dyn Responder>)> {
        let state = super::commit(
            &self.st.as_ref(),
            &self.witness,
            self.params,
            &mut self.rng,
            &[],
        )?;
        let msg = proof_file::encode(state.commitment());
        Ok((
            msg,
            Box::new(VoleResponder {
                params: self.params,
                state,
            }),
        ))
    }
}

impl Responder for VoleResponder {
    /// One response per commitment: the state is consumed.
    fn respond(self: Box<Self>, challenges: &[u8]) -> Result<Vec<u8>> {
        let ch: Challenge = proof_file::decode(challenges, "VOLE challenge")?;
        ch.check(&self.params)?;
        Ok(proof_file::encode(&self.state.respond(&ch)?))
    }
}

/// The verifier's side of a live VOLE session (and of replays), with the parameters it fixes.
pub struct VoleVerifier {
    st: OwnedStatement,
    protocol: ProtocolId,
    params: Params,
    rng: Rng,
    commit: Option<CommitMsg>,
    challenge: Option<Challenge>,
}

impl VoleVerifier {
    /// For the offered set `params`; the session runs its session form.
    pub fn new(st: OwnedStatement, protocol: ProtocolId, params: Params, rng: Rng) -> Self {
        VoleVerifier {
            st,
            protocol,
            params: params.session(),
            rng,
            commit: None,
            challenge: None,
        }
    }
}

impl SessionVerifier for VoleVerifier {
    fn check_hello(&mut self, h: &Hello) -> Result<()> {
        if h.protocol != self.protocol as u16 {
            return Err(Error::bad(crate::proof_file::protocol_mismatch(
                h.protocol,
                self.protocol,
            )));
        }
        if h.version != SESSION_VERSION {
            return Err(Error::bad(format!(
                "session version {} is not supported (this build speaks {SESSION_VERSION})",
                h.version
            )));
        }
        if h.context != self.st.context {
            return Err(Error::rejected(
                "the prover's context string differs from the verifier's",
            ));
        }
        let p = &self.params;
        if h.rounds != p.tau || h.statement != session_statement(&self.st.as_ref(), p) {
            return Err(Error::rejected(format!(
                "the prover's statement or VOLE parameters differ from the verifier's (this verifier requires {p})"
            )));
        }
        Ok(())
    }

    fn draw_challenges(&mut self) -> Vec<u8> {
        let ch = Challenge::random(&self.params, &mut self.rng);
        let b = proof_file::encode(&ch);
        self.challenge = Some(ch);
        b
    }

    fn load_challenges(&mut self, challenges: &[u8]) -> Result<()> {
        let ch: Challenge = proof_file::decode(challenges, "recorded VOLE challenge")
            .map_err(|e| Error::rejected(e.to_string()))?;
        ch.check(&self.params)
            .map_err(|e| Error::rejected(e.to_string()))?;
        self.challenge = Some(ch);
        Ok(())
    }

    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()> {
        let m: CommitMsg = proof_file::decode(commitments, "VOLE commitments")
            .map_err(|e| Error::rejected(e.to_string()))?;
        self.commit = Some(m);
        Ok(())
    }

    fn verify(&mut self, responses: &[u8]) -> Result<()> {
        let (Some(cm), Some(ch)) = (&self.commit, &self.challenge) else {
            return Err(Error::bad(
                "protocol error: responses before commitments or challenges",
            ));
        };
        let resp: Response = proof_file::decode(responses, "VOLE response")
            .map_err(|e| Error::rejected(e.to_string()))?;
        super::verify_interactive(&self.st.as_ref(), &self.params, cm, ch, &resp)
    }
}

/// Re-checks a recorded VOLE session under `params`. Shows the transcript is consistent,
/// not that a witness exists (see [`simulate`]).
pub fn replay(
    st: OwnedStatement,
    protocol: ProtocolId,
    params: Params,
    rec: &SessionRecord,
) -> Result<()> {
    let mut v = VoleVerifier::new(st, protocol, params, crate::rng::seeded_rng(0));
    crate::net::replay(&mut v, rec)?;
    Ok(())
}

/// Re-checks a recorded VOLE session whose parameters are one of the offered sets (size or
/// speed) at `min_bits` bits, the one its Hello names; returns those parameters.
pub fn replay_offered(
    st: OwnedStatement,
    protocol: ProtocolId,
    min_bits: f64,
    rec: &SessionRecord,
) -> Result<Params> {
    let bits = min_bits.ceil().clamp(1.0, 128.0) as u32;
    for profile in Profile::ALL {
        let p = super::params_for(bits, profile)?;
        let q = p.session();
        if rec.hello.rounds == q.tau && rec.hello.statement == session_statement(&st.as_ref(), &q) {
            replay(st, protocol, p, rec)?;
            return Ok(p);
        }
    }
    Err(Error::rejected(format!(
        "the session's statement or VOLE parameters are not this statement with an offered set (size, speed) at {bits} bits"
    )))
}

/// The zero-knowledge simulator: an accepting session transcript for a challenge fixed in
/// advance (for the session form of `params`, [`Params::session`]), made without the witness
/// ([`super::simulate`]).
pub fn simulate(
    st: &Statement,
    protocol: ProtocolId,
    params: Params,
    ch: &Challenge,
    rng: &mut impl RngCore,
) -> Result<SessionRecord> {
    let params = params.session();
    let (cm, resp) = super::simulate(st, params, ch, rng)?;
    let hello = hello(st, protocol, &params);
    let challenges = proof_file::encode(ch);
    let key = crate::rng::random_32(rng);
    Ok(SessionRecord {
        challenge_commitment: challenge_commitment(&hello, &challenges, &key),
        hello,
        commitments: proof_file::encode(&cm),
        challenges,
        challenge_key: key,
        responses: proof_file::encode(&resp),
    })
}
