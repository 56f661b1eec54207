//! Live sessions with a verifier-chosen challenge, for any engine with a three-move form
//! ([`Interactive`]: KKW, VOLE-in-the-head), driven by [`zkgames_net`]'s session engine
//! (session version 2); replay of recorded sessions; the simulator.
//!
//! The three moves are the engine's own: the prover's first message is its whole
//! commitment ([`Interactive::Commit`]), which fixes everything the challenge selects
//! among; the verifier's challenge ([`Interactive::Challenge`]) was committed to in `Ready`,
//! before that message; the response ([`Interactive::Response`]) answers it. All three are
//! bincode. The verifier fixes the engine's parameters: they are bound into the Hello's
//! statement digest ([`session_statement`]) with `rounds` = [`Interactive::rounds`], so a
//! prover offering other parameters (or another engine, another protocol id) is refused at
//! its Hello. Bytes: docs/PROTOCOLS.md sections 6.13 (KKW) and 7.10 (VOLE).
//!
//! ZKB++ keeps its own session ([`super::zkbpp::session`]): its challenge is packed trits
//! and its Hello names rounds the prover chooses, a format older than this one.
//!
//! Misuse to avoid: a [`SessionProver`] answers one challenge, then its secrets are gone
//! (the responder is consumed); a recorded session is never evidence for a third party,
//! since [`simulate`] makes accepting ones without a witness.

use rand_core::RngCore;
use serde::{de::DeserializeOwned, Serialize};
use sha2::{Digest as _, Sha256};

use super::statement::{check_witness, OwnedStatement, Statement};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{self, Mode, ProofFile, ProtocolId};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::{
    challenge_commitment, Hello, Responder, SessionProver, SessionRecord, SessionVerifier,
    SESSION_VERSION,
};

/// An engine's three-move form: what [`EngineProver`], [`EngineVerifier`], [`replay`] and
/// [`simulate`] need of it. An engine implements it in its own folder (`kkw/backend.rs`,
/// `vole/backend.rs`); nothing here names an engine.
pub trait Interactive: 'static {
    /// The engine's short name in messages: `KKW`, `VOLE`.
    const LABEL: &'static str;
    /// Domain tag of [`session_statement`].
    const SESSION_TAG: &'static [u8];
    type Params: Copy + Send + std::fmt::Display + 'static;
    type Commit: Serialize + DeserializeOwned + Send + 'static;
    type Challenge: Serialize + DeserializeOwned + Send + 'static;
    type Response: Serialize + DeserializeOwned + Send + 'static;
    /// The prover's secrets between its commitment and its response.
    type State: Send + 'static;

    /// Checks parameters (offered by a caller, or read from a file: anything).
    fn check(p: &Self::Params) -> Result<()>;
    /// The parameters a session of offered set `p` runs (VOLE: its grinding bits become
    /// bits of `Δ`, there being nothing to grind).
    fn session_form(p: Self::Params) -> Self::Params;
    /// The Hello's `rounds`: KKW's executions `M`, VOLE's repetitions `τ`.
    fn rounds(p: &Self::Params) -> u32;
    /// The three numbers of `p` bound into [`session_statement`], in order.
    fn words(p: &Self::Params) -> [u32; 3];
    /// The offered sets at `bits` bits, with their names, in the order a replay tries them.
    fn offered(bits: u32) -> Result<Vec<(&'static str, Self::Params)>>;
    /// The level [`replay_offered`] looks for is clamped to `1..=MAX_BITS`.
    const MAX_BITS: u32;

    /// The prover's first move (the witness was checked by the caller).
    fn commit(
        st: &Statement,
        witness: &[bool],
        p: Self::Params,
        rng: &mut Rng,
    ) -> Result<Self::State>;
    fn commitment(state: &Self::State) -> &Self::Commit;
    /// The prover's last move.
    fn respond(state: Self::State, st: &Statement, ch: &Self::Challenge) -> Result<Self::Response>;

    fn random_challenge(p: &Self::Params, rng: &mut dyn RngCore) -> Self::Challenge;
    /// Bad input unless `ch` is a challenge of `p`.
    fn check_challenge(ch: &Self::Challenge, p: &Self::Params) -> Result<()>;
    /// Rejected unless the commitment has `p`'s shape (checked before the challenge is sent).
    fn check_commit(m: &Self::Commit, p: &Self::Params) -> Result<()>;
    /// The verifier's decision on a whole transcript.
    fn verify(
        st: &Statement,
        p: &Self::Params,
        m: &Self::Commit,
        ch: &Self::Challenge,
        r: &Self::Response,
    ) -> Result<()>;
    /// The most bytes an honest prover's encoded commitment has for `st` at `p` (a live
    /// session's frame bound, [`SessionVerifier::max_commitments`]): computed from the
    /// statement's shape and the parameters alone, next to the engine's encoder.
    fn max_commit_len(st: &Statement, p: &Self::Params) -> usize;
    /// The most bytes an honest prover's encoded response has, whatever the challenge.
    fn max_response_len(st: &Statement, p: &Self::Params) -> usize;
    /// An accepting commitment and response for `ch`, made without a witness.
    fn simulate(
        st: &Statement,
        p: Self::Params,
        ch: &Self::Challenge,
        rng: &mut dyn RngCore,
    ) -> Result<(Self::Commit, Self::Response)>;
}

/// The Hello's statement digest of a session of engine `E`:
/// `SHA-256(E::SESSION_TAG ‖ statement digest ‖ u32le(w0) ‖ u32le(w1) ‖ u32le(w2))`, the
/// statement digest being [`Statement::digest`] and `w` [`Interactive::words`].
pub fn session_statement<E: Interactive>(st: &Statement, p: &E::Params) -> Digest {
    let mut h = Sha256::new();
    h.update(E::SESSION_TAG);
    h.update(st.digest());
    for w in E::words(p) {
        h.update(w.to_le_bytes());
    }
    h.finalize().into()
}

fn hello<E: Interactive>(st: &Statement, protocol: ProtocolId, p: &E::Params) -> Hello {
    Hello {
        protocol: protocol.0,
        version: SESSION_VERSION,
        statement: session_statement::<E>(st, p),
        rounds: E::rounds(p),
        context: st.context.to_vec(),
    }
}

/// The prover's side of a live session of engine `E`, before it commits.
pub struct EngineProver<E: Interactive> {
    st: OwnedStatement,
    protocol: ProtocolId,
    witness: Vec<bool>,
    params: E::Params,
    rng: Rng,
}

impl<E: Interactive> EngineProver<E> {
    /// For the offered set `params` (the session runs its session form). Checks the
    /// parameters and the witness up front: a prover never starts a session it cannot finish
    /// honestly. Fresh OS randomness is mixed into `rng`, so no two sessions share secrets.
    pub fn new(
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        params: E::Params,
        mut rng: Rng,
    ) -> Result<Self> {
        E::check(&params)?;
        check_witness(&st.as_ref(), &witness)?;
        Ok(EngineProver {
            st,
            protocol,
            witness,
            params: E::session_form(params),
            rng: zkgames_core::rng::with_fresh_entropy(&mut rng),
        })
    }
}

struct EngineResponder<E: Interactive> {
    st: OwnedStatement,
    params: E::Params,
    state: E::State,
}

impl<E: Interactive> SessionProver<'static> for EngineProver<E> {
    fn hello(&self) -> Hello {
        hello::<E>(&self.st.as_ref(), self.protocol, &self.params)
    }

    fn commit(mut self: Box<Self>) -> Result<(Vec<u8>, Box<dyn Responder>)> {
        let state = E::commit(&self.st.as_ref(), &self.witness, self.params, &mut self.rng)?;
        let msg = proof_file::encode(E::commitment(&state));
        let EngineProver { st, params, .. } = *self;
        Ok((msg, Box::new(EngineResponder::<E> { st, params, state })))
    }
}

impl<E: Interactive> Responder for EngineResponder<E> {
    /// One response per commitment: the state is consumed.
    fn respond(self: Box<Self>, challenges: &[u8]) -> Result<Vec<u8>> {
        let ch: E::Challenge = proof_file::decode(challenges, &format!("{} challenge", E::LABEL))?;
        E::check_challenge(&ch, &self.params)?;
        let EngineResponder { st, state, .. } = *self;
        Ok(proof_file::encode(&E::respond(state, &st.as_ref(), &ch)?))
    }
}

/// The verifier's side of a live session of engine `E` (and of replays), with the
/// parameters it fixes.
pub struct EngineVerifier<E: Interactive> {
    st: OwnedStatement,
    protocol: ProtocolId,
    params: E::Params,
    rng: Rng,
    commit: Option<E::Commit>,
    challenge: Option<E::Challenge>,
}

impl<E: Interactive> EngineVerifier<E> {
    /// For the offered set `params`; the session runs its session form.
    pub fn new(st: OwnedStatement, protocol: ProtocolId, params: E::Params, rng: Rng) -> Self {
        EngineVerifier {
            st,
            protocol,
            params: E::session_form(params),
            rng,
            commit: None,
            challenge: None,
        }
    }
}

/// The checks of a Hello every session verifier makes: protocol id, version, context.
pub fn check_hello_common(h: &Hello, protocol: ProtocolId, context: &[u8]) -> Result<()> {
    if h.protocol != protocol.0 {
        return Err(Error::bad(zkgames_core::proof_file::protocol_mismatch(
            h.protocol, protocol,
        )));
    }
    if h.version != SESSION_VERSION {
        return Err(Error::bad(format!(
            "session version {} is not supported (this build speaks {SESSION_VERSION})",
            h.version
        )));
    }
    if h.context != context {
        return Err(Error::rejected(
            "the prover's context string differs from the verifier's",
        ));
    }
    Ok(())
}

impl<E: Interactive> SessionVerifier for EngineVerifier<E> {
    fn check_hello(&mut self, h: &Hello) -> Result<()> {
        check_hello_common(h, self.protocol, &self.st.context)?;
        let p = &self.params;
        if h.rounds != E::rounds(p) {
            return Err(Error::rejected(format!(
                "the prover's {} parameters differ from the verifier's (this verifier requires {p})",
                E::LABEL
            )));
        }
        // the same parameters, another statement: a wrong secret (other outputs), another
        // circuit, public input or position; not a parameter mismatch
        if h.statement != session_statement::<E>(&self.st.as_ref(), p) {
            return Err(Error::rejected(format!(
                "the prover's statement differs from the verifier's: {} (a wrong secret gives other outputs)",
                crate::ANOTHER_STATEMENT
            )));
        }
        Ok(())
    }

    fn draw_challenges(&mut self) -> Vec<u8> {
        let ch = E::random_challenge(&self.params, &mut self.rng);
        let b = proof_file::encode(&ch);
        self.challenge = Some(ch);
        b
    }

    fn load_challenges(&mut self, challenges: &[u8]) -> Result<()> {
        let ch: E::Challenge =
            proof_file::decode(challenges, &format!("recorded {} challenge", E::LABEL))
                .map_err(|e| Error::rejected(e.to_string()))?;
        E::check_challenge(&ch, &self.params).map_err(|e| Error::rejected(e.to_string()))?;
        self.challenge = Some(ch);
        Ok(())
    }

    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()> {
        let m: E::Commit = proof_file::decode(commitments, &format!("{} commitments", E::LABEL))
            .map_err(|e| Error::rejected(e.to_string()))?;
        E::check_commit(&m, &self.params)?;
        self.commit = Some(m);
        Ok(())
    }

    fn verify(&mut self, responses: &[u8]) -> Result<()> {
        let (Some(cm), Some(ch)) = (&self.commit, &self.challenge) else {
            return Err(Error::bad(
                "protocol error: responses before commitments or challenges",
            ));
        };
        let resp: E::Response = proof_file::decode(responses, &format!("{} response", E::LABEL))
            .map_err(|e| Error::rejected(e.to_string()))?;
        E::verify(&self.st.as_ref(), &self.params, cm, ch, &resp)
    }

    fn max_commitments(&self) -> usize {
        E::max_commit_len(&self.st.as_ref(), &self.params)
    }

    fn max_responses(&self) -> usize {
        E::max_response_len(&self.st.as_ref(), &self.params)
    }
}

/// Re-checks a recorded session of engine `E` under the offered set `params`. Shows the
/// transcript is consistent, not that a witness exists (see [`simulate`]).
pub fn replay<E: Interactive>(
    st: OwnedStatement,
    protocol: ProtocolId,
    params: E::Params,
    rec: &SessionRecord,
) -> Result<()> {
    let mut v = EngineVerifier::<E>::new(st, protocol, params, zkgames_core::rng::seeded_rng(0));
    zkgames_net::replay(&mut v, rec)?;
    Ok(())
}

/// Re-checks a recorded session whose parameters are one of `E`'s offered sets at
/// `min_bits` bits, the one its Hello names; returns that offered set. Rejected if none
/// matches.
pub fn replay_offered<E: Interactive>(
    st: OwnedStatement,
    protocol: ProtocolId,
    min_bits: f64,
    rec: &SessionRecord,
) -> Result<E::Params> {
    let bits = min_bits.ceil().clamp(1.0, E::MAX_BITS as f64) as u32;
    let sets = E::offered(bits)?;
    for &(_, p) in &sets {
        let q = E::session_form(p);
        if rec.hello.rounds == E::rounds(&q)
            && rec.hello.statement == session_statement::<E>(&st.as_ref(), &q)
        {
            replay::<E>(st, protocol, p, rec)?;
            return Ok(p);
        }
    }
    let names: Vec<&str> = sets.iter().map(|s| s.0).collect();
    Err(Error::rejected(format!(
        "the session's statement or {} parameters are not this statement with an offered set ({}) at {bits} bits",
        E::LABEL,
        names.join(", ")
    )))
}

/// The zero-knowledge simulator: an accepting session transcript of the offered set
/// `params` (run in its session form) for a challenge fixed in advance, made without the
/// witness.
pub fn simulate<E: Interactive>(
    st: &Statement,
    protocol: ProtocolId,
    params: E::Params,
    ch: &E::Challenge,
    rng: &mut impl RngCore,
) -> Result<SessionRecord> {
    let params = E::session_form(params);
    let (cm, resp) = E::simulate(st, params, ch, rng)?;
    let hello = hello::<E>(st, protocol, &params);
    let challenges = proof_file::encode(ch);
    let key = zkgames_core::rng::random_32(rng);
    Ok(SessionRecord {
        challenge_commitment: challenge_commitment(&hello, &challenges, &key),
        hello,
        commitments: proof_file::encode(&cm),
        challenges,
        challenge_key: key,
        responses: proof_file::encode(&resp),
    })
}

/// [`simulate`] for a uniformly random challenge drawn from `rng`.
pub fn simulate_random<E: Interactive>(
    st: &Statement,
    protocol: ProtocolId,
    params: E::Params,
    rng: &mut impl RngCore,
) -> Result<SessionRecord> {
    let ch = random_challenge::<E>(params, rng);
    simulate::<E>(st, protocol, params, &ch, rng)
}

/// A random challenge for the session form of the offered set `params` (the simulator's
/// and the tests' draw).
pub fn random_challenge<E: Interactive>(params: E::Params, rng: &mut impl RngCore) -> E::Challenge {
    E::random_challenge(&E::session_form(params), rng)
}

/// Wraps a session record into a proof file ([`Mode::Interactive`]).
pub fn record_file(protocol: ProtocolId, rec: &SessionRecord) -> Vec<u8> {
    ProofFile::new(protocol, Mode::Interactive, proof_file::encode(rec)).to_bytes()
}
