//! Live interactive sessions between a prover and a verifier process.
//!
//! Transport: any byte stream (a TCP connection, or a pair of pipes such as the prover's
//! stdin/stdout wired to the verifier's). Framing: each message is `u32-le(len) ‖ body`,
//! `body` a bincode-encoded [`Msg`], `len ≤ MAX_FRAME`; a longer frame is refused before
//! anything is allocated.
//!
//! A session is one run of a sigma protocol in parallel over `rounds` repetitions:
//!
//! ```text
//! prover                                   verifier
//!   Hello{protocol, version, statement, rounds, context} ->
//!                                        <- Ready  (or Reject{reason})
//!   Commitments(bytes)                   ->
//!                                        <- Challenges(bytes)   (verifier's own randomness)
//!   Responses(bytes)                     ->
//!                                        <- Verdict{accepted, reason}
//! ```
//!
//! The commitment, challenge and response bytes are encoded by the protocol (peg solitaire,
//! ZKB++); this module only moves them, so one session engine serves every proof system.

use std::io::{BufReader, BufWriter, Read, Write};

use serde::{Deserialize, Serialize};

use crate::commit::Digest;
use crate::{Error, Result};

/// The largest frame accepted (64 MiB).
pub const MAX_FRAME: usize = 64 << 20;
/// How long a TCP peer may stay silent before the session is abandoned. Honest provers and
/// verifiers answer within a second or two; a silent peer must not hang the other side.
pub const PEER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Session protocol version.
pub const SESSION_VERSION: u16 = 1;

/// The prover's opening message: what is being proven.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Hello {
    /// [`crate::proof_file::ProtocolId`] as a number.
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
    Ready,
    Reject { reason: String },
    Commitments(Vec<u8>),
    Challenges(Vec<u8>),
    Responses(Vec<u8>),
    Verdict { accepted: bool, reason: String },
}

/// A framed, bidirectional message channel.
pub struct Channel {
    r: BufReader<Box<dyn Read + Send>>,
    w: BufWriter<Box<dyn Write + Send>>,
}

impl Channel {
    /// A channel over a reader and a writer (e.g. two halves of a TCP stream, or pipes).
    pub fn new(r: Box<dyn Read + Send>, w: Box<dyn Write + Send>) -> Self {
        Channel {
            r: BufReader::new(r),
            w: BufWriter::new(w),
        }
    }

    /// A channel over a TCP stream; a peer silent for [`PEER_TIMEOUT`] ends the session.
    pub fn tcp(s: std::net::TcpStream) -> Result<Self> {
        Self::tcp_with_timeout(s, PEER_TIMEOUT)
    }

    /// A channel over a TCP stream with a given silence timeout.
    pub fn tcp_with_timeout(s: std::net::TcpStream, timeout: std::time::Duration) -> Result<Self> {
        let _ = s.set_nodelay(true);
        s.set_read_timeout(Some(timeout))
            .and_then(|_| s.set_write_timeout(Some(timeout)))
            .map_err(|e| Error::io("cannot set socket timeouts", e))?;
        let r = s
            .try_clone()
            .map_err(|e| Error::io("cannot clone TCP stream", e))?;
        Ok(Channel::new(Box::new(r), Box::new(s)))
    }

    /// A channel over this process's stdin and stdout.
    pub fn stdio() -> Self {
        Channel::new(Box::new(std::io::stdin()), Box::new(std::io::stdout()))
    }

    /// Sends one message.
    pub fn send(&mut self, m: &Msg) -> Result<()> {
        let body = crate::proof_file::encode(m);
        if body.len() > MAX_FRAME {
            return Err(Error::bad(format!(
                "message of {} bytes exceeds the frame limit",
                body.len()
            )));
        }
        self.w
            .write_all(&(body.len() as u32).to_le_bytes())
            .and_then(|_| self.w.write_all(&body))
            .and_then(|_| self.w.flush())
            .map_err(|e| Error::io("cannot send to peer", e))
    }

    /// Receives one message, refusing oversized frames and malformed bodies.
    pub fn recv(&mut self) -> Result<Msg> {
        let mut len = [0u8; 4];
        self.r.read_exact(&mut len).map_err(|e| match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => Error::bad(
                "the peer went silent (no message within the session timeout); giving up",
            ),
            _ => Error::io("connection closed by peer", e),
        })?;
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_FRAME {
            return Err(Error::bad(format!(
                "peer sent a {len}-byte frame, over the {MAX_FRAME}-byte limit"
            )));
        }
        let mut body = Vec::new();
        (&mut self.r)
            .take(len as u64)
            .read_to_end(&mut body)
            .map_err(|e| Error::io("cannot read from peer", e))?;
        if body.len() != len {
            return Err(Error::bad("connection closed in the middle of a message"));
        }
        crate::proof_file::decode(&body, "message from peer")
    }

    fn expect<T>(&mut self, what: &str, f: impl FnOnce(Msg) -> Option<T>) -> Result<T> {
        match self.recv()? {
            Msg::Reject { reason } => Err(Error::rejected(format!(
                "verifier refused the session: {reason}"
            ))),
            m => {
                let desc = format!("{m:?}");
                f(m).ok_or_else(|| {
                    Error::bad(format!(
                        "protocol error: expected {what}, got {}",
                        desc.chars().take(40).collect::<String>()
                    ))
                })
            }
        }
    }
}

/// The prover's side of a protocol, as the session engine drives it.
pub trait SessionProver {
    /// The opening message.
    fn hello(&self) -> Hello;
    /// Commitments for all rounds.
    fn commitments(&mut self) -> Result<Vec<u8>>;
    /// Responses to the verifier's challenges.
    fn responses(&mut self, challenges: &[u8]) -> Result<Vec<u8>>;
}

/// The verifier's side of a protocol, as the session engine drives it.
pub trait SessionVerifier {
    /// Accepts or refuses what the prover proposes (statement, round count, context).
    fn check_hello(&mut self, h: &Hello) -> Result<()>;
    /// Reads the commitments and draws challenges with the verifier's own randomness.
    fn challenges(&mut self, commitments: &[u8]) -> Result<Vec<u8>>;
    /// Checks the responses.
    fn verify(&mut self, responses: &[u8]) -> Result<()>;
}

/// Everything exchanged in a session, for saving as an interactive transcript.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SessionRecord {
    pub hello: Hello,
    pub commitments: Vec<u8>,
    pub challenges: Vec<u8>,
    pub responses: Vec<u8>,
}

/// Runs the prover's side; returns the record if the verifier accepted.
pub fn run_prover(ch: &mut Channel, p: &mut dyn SessionProver) -> Result<SessionRecord> {
    let hello = p.hello();
    ch.send(&Msg::Hello(hello.clone()))?;
    ch.expect("Ready", |m| matches!(m, Msg::Ready).then_some(()))?;
    let commitments = p.commitments()?;
    ch.send(&Msg::Commitments(commitments.clone()))?;
    let challenges = ch.expect("Challenges", |m| match m {
        Msg::Challenges(c) => Some(c),
        _ => None,
    })?;
    let responses = p.responses(&challenges)?;
    ch.send(&Msg::Responses(responses.clone()))?;
    let (accepted, reason) = ch.expect("Verdict", |m| match m {
        Msg::Verdict { accepted, reason } => Some((accepted, reason)),
        _ => None,
    })?;
    if !accepted {
        return Err(Error::rejected(format!(
            "verifier rejected the proof: {reason}"
        )));
    }
    Ok(SessionRecord {
        hello,
        commitments,
        challenges,
        responses,
    })
}

/// Runs the verifier's side; `Ok` means the proof was accepted. The verdict is sent to the
/// prover in every case where the session got far enough.
pub fn run_verifier(ch: &mut Channel, v: &mut dyn SessionVerifier) -> Result<SessionRecord> {
    let hello = ch.expect("Hello", |m| match m {
        Msg::Hello(h) => Some(h),
        _ => None,
    })?;
    if let Err(e) = v.check_hello(&hello) {
        let _ = ch.send(&Msg::Reject {
            reason: e.to_string(),
        });
        return Err(e);
    }
    ch.send(&Msg::Ready)?;
    let commitments = ch.expect("Commitments", |m| match m {
        Msg::Commitments(c) => Some(c),
        _ => None,
    })?;
    let challenges = match v.challenges(&commitments) {
        Ok(c) => c,
        Err(e) => {
            let _ = ch.send(&Msg::Verdict {
                accepted: false,
                reason: e.to_string(),
            });
            return Err(e);
        }
    };
    ch.send(&Msg::Challenges(challenges.clone()))?;
    let responses = ch.expect("Responses", |m| match m {
        Msg::Responses(r) => Some(r),
        _ => None,
    })?;
    let verdict = v.verify(&responses);
    let reason = match &verdict {
        Ok(()) => String::new(),
        Err(e) => e.to_string(),
    };
    ch.send(&Msg::Verdict {
        accepted: verdict.is_ok(),
        reason,
    })?;
    verdict.map(|_| SessionRecord {
        hello,
        commitments,
        challenges,
        responses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A peer that connects and then says nothing does not hang the verifier.
    #[test]
    fn a_silent_peer_times_out() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let client = std::net::TcpStream::connect(addr).unwrap();
        let (s, _) = l.accept().unwrap();
        let mut ch = Channel::tcp_with_timeout(s, std::time::Duration::from_millis(200)).unwrap();
        let t = std::time::Instant::now();
        match ch.recv() {
            Err(Error::BadInput(m)) => assert!(m.contains("silent"), "{m}"),
            other => panic!("expected a timeout, got {other:?}"),
        }
        assert!(t.elapsed() < std::time::Duration::from_secs(10));
        drop(client);
    }
}
