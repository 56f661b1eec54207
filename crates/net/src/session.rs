//! One run of a sigma protocol, in parallel repetition, between two processes.
//!
//! ```text
//! prover                                          verifier
//!   Hello{protocol, version, statement, rounds, context} ->
//!                                  check the Hello; draw the challenge vector c;
//!                                  pick a fresh 256-bit key k
//!                              <- Ready{commit(k, H(Hello) ‖ c)}     (or Reject{reason})
//!   Commitments(a)                                      ->
//!                              <- Challenges{c, k}   (or Verdict{false, reason})
//!   check that (c, k) opens the commitment; if not, Reject and stop: no responses
//!   Responses(z)                                        ->
//!                              <- Verdict{accepted, reason}
//! ```
//!
//! Why the verifier commits first: if it could choose `c` after seeing `a`, it could set
//! `c = Hash(a)` and walk away with a Fiat–Shamir proof, transferable evidence that the
//! prover knows a witness. Committed in advance, `c` cannot depend on `a`, and the standard
//! rewinding simulator (docs/PROTOCOLS.md, "Sessions") makes the protocol zero knowledge
//! against any verifier. The commitment must be binding (else the verifier could still adapt
//! `c`) and hiding (else the prover could adapt `a` to `c`). It rides on `Ready`, so it costs
//! no extra round trip: 32 bytes in `Ready`, 32 in `Challenges`, and two hashes.
//!
//! The prover's side is split into two types so that it cannot be misused: a
//! [`SessionProver`] is consumed by [`SessionProver::commit`], which returns the commitments
//! and a [`Responder`]; the responder is consumed by answering one challenge vector. No
//! object can answer two challenge vectors for the same commitments (which would reveal the
//! witness), and after answering no secret is left behind.

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::Channel;
use zkgames_core::commit::{self, Digest, Key, Tag};
use zkgames_core::Error;
use zkgames_core::Result;

/// Session protocol version (2: verifier's challenge commitment).
pub const SESSION_VERSION: u16 = 2;

/// Domain tag of the verifier's challenge commitment.
pub const TAG_CHALLENGE: Tag = Tag(b"zkg:challenge:");

/// The prover's opening message: what is being proven.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Hello {
    /// [`zkgames_core::proof_file::ProtocolId`] as a number.
    pub protocol: u16,
    /// [`SESSION_VERSION`].
    pub version: u16,
    /// Digest of the canonical statement (instance, circuit and public output...).
    pub statement: Digest,
    /// Number of parallel repetitions the prover will run.
    pub rounds: u32,
    /// Context string the proof is bound to.
    pub context: Vec<u8>,
}

/// Messages of a session.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Msg {
    Hello(Hello),
    /// The verifier accepts the Hello and commits to its challenge vector.
    Ready {
        challenge_commitment: Digest,
    },
    /// Either side refuses to go on.
    Reject {
        reason: String,
    },
    Commitments(Vec<u8>),
    /// The verifier opens its challenge commitment.
    Challenges {
        challenges: Vec<u8>,
        key: Key,
    },
    Responses(Vec<u8>),
    Verdict {
        accepted: bool,
        reason: String,
    },
    /// The verifier cannot serve the session now (full, or this address over its limits):
    /// try again in `retry_after` seconds. Sent instead of `Ready`, by the accept loop.
    TryLater {
        reason: String,
        retry_after: u32,
    },
}

impl Msg {
    fn name(&self) -> &'static str {
        match self {
            Msg::Hello(_) => "Hello",
            Msg::Ready { .. } => "Ready",
            Msg::Reject { .. } => "Reject",
            Msg::Commitments(_) => "Commitments",
            Msg::Challenges { .. } => "Challenges",
            Msg::Responses(_) => "Responses",
            Msg::Verdict { .. } => "Verdict",
            Msg::TryLater { .. } => "TryLater",
        }
    }
}

/// `commit(TAG_CHALLENGE, key, SHA-256(encode(hello)) ‖ challenges)`: the verifier's
/// commitment to its challenge vector, bound to this session's Hello.
pub fn challenge_commitment(hello: &Hello, challenges: &[u8], key: &Key) -> Digest {
    let h: Digest = Sha256::digest(zkgames_core::proof_file::encode(hello)).into();
    let mut v = Vec::with_capacity(32 + challenges.len());
    v.extend_from_slice(&h);
    v.extend_from_slice(challenges);
    commit::commit(TAG_CHALLENGE, key, &v)
}

/// The prover's side of a protocol, before it has committed.
pub trait SessionProver<'a> {
    /// The opening message.
    fn hello(&self) -> Hello;
    /// Commits to every round. The secrets move into the returned [`Responder`].
    fn commit(self: Box<Self>) -> Result<(Vec<u8>, Box<dyn Responder + 'a>)>;
}

/// The prover's committed state: answers exactly one challenge vector.
pub trait Responder {
    /// Responses to the verifier's challenges; consumes the secrets.
    fn respond(self: Box<Self>, challenges: &[u8]) -> Result<Vec<u8>>;
}

/// The verifier's side of a protocol, as the session engine drives it.
pub trait SessionVerifier {
    /// Accepts or refuses what the prover proposes (statement, round count, context).
    fn check_hello(&mut self, h: &Hello) -> Result<()>;
    /// Draws the challenge vector for the agreed rounds, from the verifier's own randomness,
    /// before any commitment is seen.
    fn draw_challenges(&mut self) -> Vec<u8>;
    /// Takes a challenge vector from a recorded session instead (checks its form).
    fn load_challenges(&mut self, challenges: &[u8]) -> Result<()>;
    /// Reads the prover's commitments (may reject them before the challenges are opened).
    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()>;
    /// Checks the responses to the drawn (or loaded) challenges.
    fn verify(&mut self, responses: &[u8]) -> Result<()>;
}

/// Everything exchanged in a session, for saving as an interactive transcript.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SessionRecord {
    pub hello: Hello,
    pub challenge_commitment: Digest,
    pub commitments: Vec<u8>,
    pub challenges: Vec<u8>,
    pub challenge_key: Key,
    pub responses: Vec<u8>,
}

impl SessionRecord {
    /// Whether the recorded challenges open the recorded challenge commitment.
    pub fn challenges_open(&self) -> bool {
        challenge_commitment(&self.hello, &self.challenges, &self.challenge_key)
            == self.challenge_commitment
    }
}

fn unexpected(what: &str, m: &Msg) -> Error {
    Error::bad(format!("protocol error: expected {what}, got {}", m.name()))
}

/// Runs the prover's side; returns the record if the verifier accepted.
///
/// The prover answers only a challenge vector that opens the verifier's commitment; on a
/// mismatch it sends `Reject` and returns an error without computing any response.
pub fn run_prover<'a>(
    ch: &mut Channel,
    p: Box<dyn SessionProver<'a> + 'a>,
) -> Result<SessionRecord> {
    let hello = p.hello();
    ch.send(&Msg::Hello(hello.clone()))?;
    let cc = match ch.recv("message from the verifier")? {
        Msg::Ready {
            challenge_commitment,
        } => challenge_commitment,
        Msg::Reject { reason } => {
            let reason = zkgames_core::files::untrusted::shown(&reason);
            // a busy server's refusal (super::try_later_of) is "try again later", not a verdict;
            // nor is a verifier started for another engine (a usage error, exit 2)
            return Err(super::try_later_of(&reason).unwrap_or_else(|| {
                let msg = format!("the verifier refused the session: {reason}");
                if zkgames_core::proof_file::is_protocol_mismatch(&reason) {
                    Error::bad(msg)
                } else {
                    Error::rejected(msg)
                }
            }));
        }
        Msg::TryLater {
            reason,
            retry_after,
        } => {
            return Err(Error::try_later(
                format!(
                    "the verifier cannot take the session now ({})",
                    zkgames_core::files::untrusted::shown(&reason)
                ),
                Some(std::time::Duration::from_secs(u64::from(retry_after))),
            ))
        }
        m => return Err(unexpected("Ready", &m)),
    };
    let (commitments, responder) = p.commit()?;
    ch.send(&Msg::Commitments(commitments.clone()))?;
    let (challenges, key) = match ch.recv("message from the verifier")? {
        Msg::Challenges { challenges, key } => (challenges, key),
        Msg::Verdict { reason, .. } | Msg::Reject { reason } => {
            let reason = zkgames_core::files::untrusted::shown(&reason);
            return Err(Error::rejected(format!(
                "the verifier rejected the commitments: {reason}"
            )));
        }
        m => return Err(unexpected("Challenges", &m)),
    };
    if challenge_commitment(&hello, &challenges, &key) != cc {
        let reason = "the challenges do not open the verifier's commitment; no responses sent";
        let _ = ch.send(&Msg::Reject {
            reason: reason.into(),
        });
        return Err(Error::bad(format!("cheating verifier: {reason}")));
    }
    let responses = match responder.respond(&challenges) {
        Ok(r) => r,
        Err(e) => {
            let _ = ch.send(&Msg::Reject {
                reason: e.to_string(),
            });
            return Err(e);
        }
    };
    ch.send(&Msg::Responses(responses.clone()))?;
    match ch.recv("message from the verifier")? {
        Msg::Verdict { accepted: true, .. } => {}
        Msg::Verdict { reason, .. } => {
            let reason = zkgames_core::files::untrusted::shown(&reason);
            return Err(Error::rejected(format!(
                "the verifier rejected the proof: {reason}"
            )));
        }
        m => return Err(unexpected("Verdict", &m)),
    }
    Ok(SessionRecord {
        hello,
        challenge_commitment: cc,
        commitments,
        challenges,
        challenge_key: key,
        responses,
    })
}

/// Runs the verifier's side; `Ok` means the proof was accepted. The prover is told the
/// verdict (or the reason for refusing) wherever the session got far enough.
pub fn run_verifier(ch: &mut Channel, v: &mut dyn SessionVerifier) -> Result<SessionRecord> {
    let hello = match ch.recv("message from the prover")? {
        Msg::Hello(h) => h,
        m => return Err(unexpected("Hello", &m)),
    };
    if let Err(e) = v.check_hello(&hello) {
        let _ = ch.send(&Msg::Reject {
            reason: e.to_string(),
        });
        return Err(e);
    }
    let challenges = v.draw_challenges();
    let key = zkgames_core::rng::random_32(&mut zkgames_core::rng::os_rng());
    let cc = challenge_commitment(&hello, &challenges, &key);
    ch.send(&Msg::Ready {
        challenge_commitment: cc,
    })?;
    let commitments = match ch.recv("message from the prover")? {
        Msg::Commitments(c) => c,
        m => return Err(unexpected("Commitments", &m)),
    };
    if let Err(e) = v.check_commitments(&commitments) {
        let _ = ch.send(&Msg::Verdict {
            accepted: false,
            reason: e.to_string(),
        });
        return Err(e);
    }
    ch.send(&Msg::Challenges {
        challenges: challenges.clone(),
        key,
    })?;
    let responses = match ch.recv("message from the prover")? {
        Msg::Responses(r) => r,
        Msg::Reject { reason } => {
            return Err(Error::bad(format!(
                "the prover stopped before responding: {reason}"
            )))
        }
        m => return Err(unexpected("Responses", &m)),
    };
    let verdict = v.verify(&responses);
    ch.send(&Msg::Verdict {
        accepted: verdict.is_ok(),
        reason: verdict
            .as_ref()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
    })?;
    verdict.map(|_| SessionRecord {
        hello,
        challenge_commitment: cc,
        commitments,
        challenges,
        challenge_key: key,
        responses,
    })
}

/// Re-checks a recorded session with a fresh verifier: the Hello, the challenge opening,
/// the commitments and the responses. This shows the transcript is consistent, NOT that the
/// prover knows a witness: whoever chose the challenges could have made the transcript with
/// the simulator. Returns the round count.
pub fn replay(v: &mut dyn SessionVerifier, rec: &SessionRecord) -> Result<u32> {
    v.check_hello(&rec.hello)?;
    if !rec.challenges_open() {
        return Err(Error::rejected(
            "session transcript: the challenges do not open the verifier's commitment",
        ));
    }
    v.load_challenges(&rec.challenges)?;
    v.check_commitments(&rec.commitments)?;
    v.verify(&rec.responses)?;
    Ok(rec.hello.rounds)
}
