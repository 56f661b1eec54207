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
    /// The largest commitments an honest prover of the statement and parameters fixed by
    /// [`SessionVerifier::check_hello`] sends (the payload of `Commitments`, in bytes),
    /// computed from the encoding without any prover's message: [`run_verifier`] refuses a
    /// larger frame on its length prefix ([`frame_bound`]). Called after `check_hello` only.
    fn max_commitments(&self) -> usize;
    /// The largest responses an honest prover sends (the payload of `Responses`) to the
    /// challenges drawn or loaded (a bound over every challenge will do); as
    /// [`SessionVerifier::max_commitments`]. Called after the challenges are drawn.
    fn max_responses(&self) -> usize;
}

/// Room a session frame has beyond its payload: the message's tag and length (at most 10
/// bytes), and a prover's `Reject` with its reason instead of the responses. Also the
/// smallest bound of a frame after the Hello.
pub const FRAME_SLACK: usize = 4 << 10;

/// The largest frame [`run_verifier`] reads for a message whose honest payload is at most
/// `payload` bytes: `payload + FRAME_SLACK`.
pub const fn frame_bound(payload: usize) -> usize {
    payload.saturating_add(FRAME_SLACK)
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
///
/// Once the Hello is accepted, every later frame is held to what an honest prover of that
/// statement sends ([`SessionVerifier::max_commitments`], then
/// [`SessionVerifier::max_responses`], each [`frame_bound`]): a larger one is refused on its
/// length prefix, before its body is read. The channel's own limit is restored on return.
pub fn run_verifier(ch: &mut Channel, v: &mut dyn SessionVerifier) -> Result<SessionRecord> {
    let limit = ch.max_frame();
    let r = run_verifier_bounded(ch, v, limit);
    ch.set_max_frame(limit);
    r
}

/// Reads the prover's next message with at most `frame_bound(payload)` bytes (and never more
/// than `limit`); an oversize frame is refused in the user's terms, and the prover told so.
fn recv_bounded(ch: &mut Channel, limit: usize, payload: usize, what: &str) -> Result<Msg> {
    let bound = frame_bound(payload).min(limit);
    ch.set_max_frame(bound);
    ch.recv("message from the prover").map_err(|e| {
        if ch.refused_oversize() {
            let e = Error::bad(format!(
                "the prover announced more than the {bound} bytes of {what} an honest prover of this statement sends; refused unread"
            ));
            let _ = ch.send(&Msg::Reject {
                reason: e.to_string(),
            });
            e
        } else {
            e
        }
    })
}

fn run_verifier_bounded(
    ch: &mut Channel,
    v: &mut dyn SessionVerifier,
    limit: usize,
) -> Result<SessionRecord> {
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
    let commitments = match recv_bounded(ch, limit, v.max_commitments(), "commitments")? {
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
    let responses = match recv_bounded(ch, limit, v.max_responses(), "responses")? {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{TcpListener, TcpStream};
    use std::time::{Duration, Instant};

    /// A verifier of a toy protocol: commitments of at most 100 bytes, responses of at most
    /// 5,000, anything accepted.
    struct Toy;

    impl SessionVerifier for Toy {
        fn check_hello(&mut self, _h: &Hello) -> Result<()> {
            Ok(())
        }
        fn draw_challenges(&mut self) -> Vec<u8> {
            vec![1, 2, 3]
        }
        fn load_challenges(&mut self, _c: &[u8]) -> Result<()> {
            Ok(())
        }
        fn check_commitments(&mut self, _c: &[u8]) -> Result<()> {
            Ok(())
        }
        fn verify(&mut self, _r: &[u8]) -> Result<()> {
            Ok(())
        }
        fn max_commitments(&self) -> usize {
            100
        }
        fn max_responses(&self) -> usize {
            5000
        }
    }

    fn hello() -> Hello {
        Hello {
            protocol: 1,
            version: SESSION_VERSION,
            statement: [0; 32],
            rounds: 1,
            context: vec![],
        }
    }

    /// Runs the toy verifier against a client that sends, after an honest Hello,
    /// commitments of `commit_len` bytes (a frame, or over 200 only its length prefix) and
    /// the length prefix of `resp_len` bytes of responses; the verifier's result, the
    /// client's last message and how long the verifier took.
    fn against(commit_len: u32, resp_len: u32) -> (Result<SessionRecord>, Option<Msg>, Duration) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        let d = crate::Deadlines {
            message: Duration::from_secs(20),
            session: Duration::from_secs(30),
        };
        let client = std::thread::spawn(move || {
            let mut raw = c.try_clone().unwrap();
            let mut ch = Channel::tcp(c, d);
            ch.send(&Msg::Hello(hello())).unwrap();
            let _ready: Msg = ch.recv("ready").unwrap();
            // just the length prefix of an n-byte frame
            let frame = |n: u32| n.to_le_bytes();
            use std::io::Write as _;
            if commit_len <= 200 {
                ch.send(&Msg::Commitments(vec![0; commit_len as usize - 2]))
                    .unwrap();
            } else {
                raw.write_all(&frame(commit_len)).unwrap();
                return ch.recv::<Msg>("reply").ok();
            }
            let _chal: Msg = ch.recv("challenges").unwrap();
            raw.write_all(&frame(resp_len)).unwrap();
            ch.recv::<Msg>("reply").ok()
        });
        let mut ch = Channel::tcp(s, d);
        let t = Instant::now();
        let r = run_verifier(&mut ch, &mut Toy);
        let took = t.elapsed();
        // the channel's own limit is back
        assert_eq!(ch.max_frame(), crate::MAX_FRAME);
        drop(ch);
        (r, client.join().unwrap(), took)
    }

    /// After the Hello, a frame over the verifier's bound for that message is refused on
    /// its length prefix (at once, not at the 20 s deadline), and the prover is told why.
    #[test]
    fn frames_after_the_hello_are_held_to_the_honest_bounds() {
        let over_c = frame_bound(100) as u32 + 1;
        let (r, last, took) = against(over_c, 0);
        let e = r.unwrap_err().to_string();
        assert!(e.contains("more than the 4196 bytes of commitments"), "{e}");
        assert!(took < Duration::from_secs(2), "{took:?}");
        assert!(matches!(last, Some(Msg::Reject { reason }) if reason == e));
        let (r, last, took) = against(50, 32 << 20);
        let e = r.unwrap_err().to_string();
        assert!(e.contains("more than the 9096 bytes of responses"), "{e}");
        assert!(took < Duration::from_secs(2), "{took:?}");
        assert!(matches!(last, Some(Msg::Reject { .. })));
        assert_eq!(frame_bound(0), FRAME_SLACK);
    }
}
