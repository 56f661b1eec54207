//! KKW with verifier-chosen challenges (session version 2 of [`crate::net`]), replay of
//! recorded sessions, and the simulator.
//!
//! The session is the three-move form of KKW: the prover's first message is the whole
//! [`kkw::CommitMsg`] (salt, the preprocessing commitment of every execution, the Merkle
//! root of the online commitments of *every* execution), so it fixes everything the
//! challenge selects among; the verifier's challenge ([`kkw::Challenge`]: the online set
//! and one hidden party per online execution) was committed to in `Ready`, before that
//! message; the response is a [`kkw::Response`]. The verifier fixes `(M, τ, N)`: they are
//! bound into the Hello's statement digest ([`session_statement`]) and `rounds = M`, so a
//! prover offering other parameters (or the other engine, another protocol id) is refused
//! at its Hello. Bytes: docs/PROTOCOLS.md section 6.11.

use rand_core::RngCore;
use sha2::{Digest as _, Sha256};

use super::kkw::{self, Challenge, CommitMsg, Params, ProverState, Response};
use super::session::OwnedStatement;
use super::zkbpp::Statement;
use crate::commit::Digest;
use crate::net::{
    challenge_commitment, Hello, Responder, SessionProver, SessionRecord, SessionVerifier,
    SESSION_VERSION,
};
use crate::proof_file::{self, ProtocolId};
use crate::rng::Rng;
use crate::{Error, Result};

/// Domain tag of [`session_statement`].
pub const SESSION_STATEMENT_TAG: &[u8] = b"zkg:kkw:session:v1";

/// The Hello's statement digest of a KKW session:
/// `SHA-256(SESSION_STATEMENT_TAG ‖ statement digest ‖ u32le(M) ‖ u32le(τ) ‖ u32le(N))`,
/// the statement digest being [`Statement::digest`].
pub fn session_statement(st: &Statement, p: &Params) -> Digest {
    let mut h = Sha256::new();
    h.update(SESSION_STATEMENT_TAG);
    h.update(st.digest());
    h.update(p.executions.to_le_bytes());
    h.update(p.online.to_le_bytes());
    h.update(p.parties.to_le_bytes());
    h.finalize().into()
}

fn hello(st: &Statement, protocol: ProtocolId, p: &Params) -> Hello {
    Hello {
        protocol: protocol as u16,
        version: SESSION_VERSION,
        statement: session_statement(st, p),
        rounds: p.executions,
        context: st.context.to_vec(),
    }
}

/// The prover's side of a live KKW session, before it commits.
pub struct KkwProver {
    st: OwnedStatement,
    protocol: ProtocolId,
    witness: Vec<bool>,
    params: Params,
    rng: Rng,
}

impl KkwProver {
    /// Checks the parameters and the witness up front; fresh OS randomness is mixed into
    /// `rng`, so no two sessions share commitments.
    pub fn new(
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        params: Params,
        mut rng: Rng,
    ) -> Result<Self> {
        params.check()?;
        super::zkbpp::check_witness(&st.as_ref(), &witness)?;
        Ok(KkwProver {
            st,
            protocol,
            witness,
            params,
            rng: crate::rng::with_fresh_entropy(&mut rng),
        })
    }
}

struct KkwResponder {
    st: OwnedStatement,
    params: Params,
    state: ProverState,
}

impl SessionProver<'static> for KkwProver {
    fn hello(&self) -> Hello {
        hello(&self.st.as_ref(), self.protocol, &self.params)
    }

    fn commit(mut self: Box<Self>) -> Result<(Vec<u8>, Box<dyn Responder>)> {
        let state = kkw::commit(
            &self.st.as_ref(),
            &self.witness,
            self.params,
            &mut self.rng,
            &[],
        )?;
        let msg = proof_file::encode(state.commitment());
        let KkwProver { st, params, .. } = *self;
        Ok((msg, Box::new(KkwResponder { st, params, state })))
    }
}

impl Responder for KkwResponder {
    /// One response per commitment: the state is consumed.
    fn respond(self: Box<Self>, challenges: &[u8]) -> Result<Vec<u8>> {
        let ch: Challenge = proof_file::decode(challenges, "KKW challenge")?;
        ch.check(&self.params)?;
        Ok(proof_file::encode(
            &self.state.respond(&self.st.as_ref(), &ch)?,
        ))
    }
}

/// The verifier's side of a live KKW session (and of replays), with the parameters it fixes.
pub struct KkwVerifier {
    st: OwnedStatement,
    protocol: ProtocolId,
    params: Params,
    rng: Rng,
    commit: Option<CommitMsg>,
    challenge: Option<Challenge>,
}

impl KkwVerifier {
    pub fn new(st: OwnedStatement, protocol: ProtocolId, params: Params, rng: Rng) -> Self {
        KkwVerifier {
            st,
            protocol,
            params,
            rng,
            commit: None,
            challenge: None,
        }
    }
}

impl SessionVerifier for KkwVerifier {
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
        if h.rounds != p.executions || h.statement != session_statement(&self.st.as_ref(), p) {
            return Err(Error::rejected(format!(
                "the prover's statement or KKW parameters differ from the verifier's (this verifier requires {p})"
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
        let ch: Challenge = proof_file::decode(challenges, "recorded KKW challenge")
            .map_err(|e| Error::rejected(e.to_string()))?;
        ch.check(&self.params)
            .map_err(|e| Error::rejected(e.to_string()))?;
        self.challenge = Some(ch);
        Ok(())
    }

    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()> {
        let m: CommitMsg = proof_file::decode(commitments, "KKW commitments")
            .map_err(|e| Error::rejected(e.to_string()))?;
        if m.preprocessing.len() != self.params.executions as usize {
            return Err(Error::rejected(format!(
                "{} preprocessing commitments, expected {}",
                m.preprocessing.len(),
                self.params.executions
            )));
        }
        self.commit = Some(m);
        Ok(())
    }

    fn verify(&mut self, responses: &[u8]) -> Result<()> {
        let (Some(cm), Some(ch)) = (&self.commit, &self.challenge) else {
            return Err(Error::bad(
                "protocol error: responses before commitments or challenges",
            ));
        };
        let resp: Response = proof_file::decode(responses, "KKW response")
            .map_err(|e| Error::rejected(e.to_string()))?;
        kkw::verify_interactive(&self.st.as_ref(), &self.params, cm, ch, &resp)
    }
}

/// Re-checks a recorded KKW session under `params`. Shows the transcript is consistent, not
/// that a witness exists (see [`simulate`]).
pub fn replay(
    st: OwnedStatement,
    protocol: ProtocolId,
    params: Params,
    rec: &SessionRecord,
) -> Result<()> {
    let mut v = KkwVerifier::new(st, protocol, params, crate::rng::seeded_rng(0));
    crate::net::replay(&mut v, rec)?;
    Ok(())
}

/// Re-checks a recorded KKW session whose parameters are one of the offered sets
/// ([`kkw::params_for`], size, speed or smallest) at `min_bits` bits, the one its Hello names;
/// returns those parameters. Rejected if neither set matches.
pub fn replay_offered(
    st: OwnedStatement,
    protocol: ProtocolId,
    min_bits: f64,
    rec: &SessionRecord,
) -> Result<Params> {
    let bits = min_bits.ceil().clamp(1.0, 256.0) as u32;
    for profile in kkw::Profile::ALL {
        let p = kkw::params_for(bits, profile)?;
        if rec.hello.rounds == p.executions
            && rec.hello.statement == session_statement(&st.as_ref(), &p)
        {
            replay(st, protocol, p, rec)?;
            return Ok(p);
        }
    }
    Err(Error::rejected(format!(
        "the session's statement or KKW parameters are not this statement with an offered set (size, speed, smallest) at {bits} bits"
    )))
}

/// The zero-knowledge simulator: an accepting session transcript for a challenge fixed in
/// advance, made without the witness ([`kkw::simulate`]).
pub fn simulate(
    st: &Statement,
    protocol: ProtocolId,
    params: Params,
    ch: &Challenge,
    rng: &mut impl RngCore,
) -> Result<SessionRecord> {
    let (cm, resp) = kkw::simulate(st, params, ch, rng)?;
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
