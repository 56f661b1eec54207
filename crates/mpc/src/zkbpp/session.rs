//! ZKB++ with verifier-chosen challenges, driven by [`zkgames_net`]'s session engine, plus
//! replay of recorded sessions and the simulator.
//!
//! Messages (bincode): the prover's commitments are a [`CommitMsg`] (salt, the three
//! commitments and three output shares of every round); the verifier's challenges are
//! packed trits ([`zkbpp::pack_trits`]); the responses are one [`Opening`] per round.
//! Because all three output shares are sent, the verifier checks per round that they
//! reconstruct the public output before it sends any challenge, and after the responses
//! it names the exact round and party whose recomputed view does not match.
//!
//! A recorded session is not transferable evidence: [`simulate`] produces an accepting
//! transcript for any challenges chosen in advance, without the witness.

use rand::Rng as _;
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use super::{self as zkbpp, check_opening, commit_phase, recompute, Committed, Layout, Opening};
use crate::session::check_hello_common;
use crate::statement::{check_witness, OwnedStatement, Statement};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{self, ProtocolId};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::{
    challenge_commitment, Hello, Responder, SessionProver, SessionRecord, SessionVerifier,
    SESSION_VERSION,
};

/// The prover's first message.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CommitMsg {
    pub salt: [u8; 32],
    pub commitments: Vec<[Digest; 3]>,
    pub outputs: Vec<[Vec<u8>; 3]>,
}

/// The prover's side of a live session, before it commits.
pub struct MpcProver {
    st: OwnedStatement,
    protocol: ProtocolId,
    witness: Vec<bool>,
    rounds: usize,
    rng: Rng,
}

impl MpcProver {
    /// Checks the witness and the round count up front: a prover never starts a session it
    /// cannot finish honestly. Fresh OS randomness is mixed into `rng`
    /// ([`zkgames_core::rng::with_fresh_entropy`]), so no two sessions share commitments.
    pub fn new(
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        rounds: usize,
        mut rng: Rng,
    ) -> Result<Self> {
        if rounds == 0 || rounds > zkbpp::MAX_ROUNDS {
            return Err(Error::bad(format!(
                "{rounds} rounds: must be in [1, {}]",
                zkbpp::MAX_ROUNDS
            )));
        }
        check_witness(&st.as_ref(), &witness)?;
        Ok(MpcProver {
            st,
            protocol,
            witness,
            rounds,
            rng: zkgames_core::rng::with_fresh_entropy(&mut rng),
        })
    }
}

/// The committed state of an [`MpcProver`]: answers one challenge vector.
struct MpcResponder {
    committed: Committed,
    rounds: usize,
}

impl SessionProver<'static> for MpcProver {
    fn hello(&self) -> Hello {
        Hello {
            protocol: self.protocol.0,
            version: SESSION_VERSION,
            statement: self.st.as_ref().digest(),
            rounds: self.rounds as u32,
            context: self.st.context.clone(),
        }
    }

    fn commit(mut self: Box<Self>) -> Result<(Vec<u8>, Box<dyn Responder>)> {
        let cm = commit_phase(
            &self.st.circuit,
            &self.witness,
            self.rounds,
            &mut self.rng,
            &[],
        );
        let msg = CommitMsg {
            salt: cm.salt,
            commitments: cm.commits.clone(),
            outputs: cm.outs.clone(),
        };
        Ok((
            proof_file::encode(&msg),
            Box::new(MpcResponder {
                committed: cm,
                rounds: self.rounds,
            }),
        ))
    }
}

impl Responder for MpcResponder {
    /// Opening two parties per round; the other party's view stays hidden, and the state is
    /// consumed, so no second challenge can be answered on the same commitments.
    fn respond(self: Box<Self>, challenges: &[u8]) -> Result<Vec<u8>> {
        let es = zkbpp::unpack_trits(challenges, self.rounds).ok_or_else(|| {
            Error::bad(format!(
                "the verifier's challenges are not {} trits",
                self.rounds
            ))
        })?;
        let ops: Vec<Opening> = es
            .iter()
            .enumerate()
            .map(|(r, &e)| self.committed.open(r, e))
            .collect();
        Ok(proof_file::encode(&ops))
    }
}

/// The verifier's side of a live session (and of replays).
pub struct MpcVerifier {
    st: OwnedStatement,
    protocol: ProtocolId,
    min_rounds: usize,
    max_rounds: usize,
    rng: Rng,
    rounds: usize,
    commit: Option<CommitMsg>,
    challenges: Vec<u8>,
}

impl MpcVerifier {
    /// A verifier requiring at least `min_rounds` rounds and accepting at most `max_rounds`
    /// (the caller's work cap, [`crate::offered::max_zkbpp_rounds`]); `rng` draws the
    /// challenges.
    pub fn new(
        st: OwnedStatement,
        protocol: ProtocolId,
        min_rounds: usize,
        max_rounds: usize,
        rng: Rng,
    ) -> Self {
        MpcVerifier {
            st,
            protocol,
            min_rounds,
            max_rounds,
            rng,
            rounds: 0,
            commit: None,
            challenges: Vec::new(),
        }
    }

    /// The number of rounds agreed in the Hello.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    fn check_commitment_msg(&mut self, bytes: &[u8]) -> Result<()> {
        let m: CommitMsg = proof_file::decode(bytes, "commitments")?;
        if m.commitments.len() != self.rounds || m.outputs.len() != self.rounds {
            return Err(Error::rejected(format!(
                "commitments for {} rounds and output shares for {}, expected {}",
                m.commitments.len(),
                m.outputs.len(),
                self.rounds
            )));
        }
        let y = zkbpp::pack_bools(&self.st.output);
        for (r, o) in m.outputs.iter().enumerate() {
            if o.iter().any(|s| s.len() != y.len()) {
                return Err(Error::rejected(format!(
                    "round {}: an output share has the wrong length",
                    r + 1
                )));
            }
            if (0..y.len()).any(|i| o[0][i] ^ o[1][i] ^ o[2][i] != y[i]) {
                return Err(Error::rejected(format!(
                    "round {}: the three output shares do not reconstruct the public output",
                    r + 1
                )));
            }
        }
        self.commit = Some(m);
        Ok(())
    }

    /// Checks responses against the stored commitments and challenges.
    fn check_responses(&self, bytes: &[u8]) -> Result<()> {
        let m = self
            .commit
            .as_ref()
            .ok_or_else(|| Error::bad("protocol error: responses before commitments"))?;
        let es = zkbpp::unpack_trits(&self.challenges, self.rounds)
            .ok_or_else(|| Error::bad("challenges are not well-formed trits"))?;
        let ops: Vec<Opening> = proof_file::decode(bytes, "responses")?;
        if ops.len() != self.rounds {
            return Err(Error::rejected(format!(
                "responses for {} rounds, expected {}",
                ops.len(),
                self.rounds
            )));
        }
        let lay = Layout::of(&self.st.circuit);
        for (r, o) in ops.iter().enumerate() {
            check_opening(&lay, r, es[r], o)?;
        }
        let refs: Vec<&Opening> = ops.iter().collect();
        let rec = recompute(&self.st.circuit, &m.salt, &es, &refs);
        for (r, rc) in rec.iter().enumerate() {
            let e = es[r] as usize;
            for (k, p) in [e, (e + 1) % 3].into_iter().enumerate() {
                if rc.commits[k] != m.commitments[r][p] {
                    return Err(Error::rejected(format!(
                        "round {}: party {p}'s opened view does not match its commitment",
                        r + 1
                    )));
                }
                if rc.outs[k] != m.outputs[r][p] {
                    return Err(Error::rejected(format!(
                        "round {}: party {p}'s output share is not what its view computes",
                        r + 1
                    )));
                }
            }
        }
        Ok(())
    }
}

impl SessionVerifier for MpcVerifier {
    fn check_hello(&mut self, h: &Hello) -> Result<()> {
        check_hello_common(h, self.protocol, &self.st.context)?;
        if h.statement != self.st.as_ref().digest() {
            return Err(Error::rejected(
                "the prover's statement (circuit, instance or output) differs from the verifier's",
            ));
        }
        let r = h.rounds as usize;
        let max = self.max_rounds;
        if r < self.min_rounds || r > max {
            return Err(Error::rejected(format!(
                "the prover offers {r} rounds ({:.1} bits); at least {} (and at most {max}) are required",
                zkbpp::security_bits(r),
                self.min_rounds,
            )));
        }
        self.rounds = r;
        Ok(())
    }

    fn draw_challenges(&mut self) -> Vec<u8> {
        let es: Vec<u8> = (0..self.rounds)
            .map(|_| self.rng.gen_range(0..3u8))
            .collect();
        self.challenges = zkbpp::pack_trits(&es);
        self.challenges.clone()
    }

    fn load_challenges(&mut self, challenges: &[u8]) -> Result<()> {
        zkbpp::unpack_trits(challenges, self.rounds)
            .ok_or_else(|| Error::rejected("the recorded challenges are not well-formed trits"))?;
        self.challenges = challenges.to_vec();
        Ok(())
    }

    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()> {
        self.check_commitment_msg(commitments)
    }

    fn verify(&mut self, responses: &[u8]) -> Result<()> {
        self.check_responses(responses)
    }

    fn max_commitments(&self) -> usize {
        commit_len(&self.st.as_ref(), self.rounds)
    }

    fn max_responses(&self) -> usize {
        max_response_len(&self.st.as_ref(), self.rounds)
    }
}

/// The bytes of an honest [`CommitMsg`] of `rounds` rounds (a live session's frame bound):
/// the salt, three commitments per round, three output shares of `⌈n_out/8⌉` bytes per
/// round. Exact.
pub fn commit_len(st: &Statement, rounds: usize) -> usize {
    let out = proof_file::list_len(st.circuit.n_outputs().div_ceil(8), 1);
    32 + proof_file::list_len(rounds, 3 * 32) + proof_file::list_len(rounds, 3 * out)
}

/// The most bytes of an honest session's responses, one [`Opening`] per round: two seeds,
/// party 2's input share (`⌈n_in/8⌉` bytes, none when the challenge is 0) and a view of
/// `⌈n_and/8⌉` bytes.
pub fn max_response_len(st: &Statement, rounds: usize) -> usize {
    let lay = Layout::of(st.circuit);
    let opening =
        2 * 32 + proof_file::list_len(lay.in_bytes, 1) + proof_file::list_len(lay.and_bytes, 1);
    proof_file::list_len(rounds, opening)
}

/// Re-checks a recorded session. This shows the transcript is consistent, not that a
/// witness exists: the challenges were not necessarily random (see [`simulate`]).
pub fn replay(
    st: OwnedStatement,
    protocol: ProtocolId,
    min_rounds: usize,
    max_rounds: usize,
    rec: &SessionRecord,
) -> Result<usize> {
    let mut v = MpcVerifier::new(
        st,
        protocol,
        min_rounds,
        max_rounds,
        zkgames_core::rng::seeded_rng(0),
    );
    Ok(zkgames_net::replay(&mut v, rec)? as usize)
}

/// The zero-knowledge simulator: an accepting transcript for the given challenge trits,
/// made without any witness. Opened seeds, `x_2` and the second opened party's AND outputs
/// are uniformly random (as they are in a real proof, where they are masked by the unopened
/// party's tape); the first opened party's view and both output shares are recomputed; the
/// unopened party's output share is whatever reconstructs the output, and its commitment is
/// a commitment to random bytes.
pub fn simulate(
    st: &Statement,
    protocol: ProtocolId,
    challenges: &[u8],
    rng: &mut impl RngCore,
) -> SessionRecord {
    let rounds = challenges.len();
    let lay = Layout::of(st.circuit);
    let salt = zkgames_core::rng::random_32(rng);
    let rand_bits = |rng: &mut dyn RngCore, n: usize| {
        let bits: Vec<bool> = (0..n).map(|_| rng.next_u32() & 1 == 1).collect();
        zkbpp::pack_bools(&bits)
    };
    let ops: Vec<Opening> = challenges
        .iter()
        .map(|&e| Opening {
            seeds: [
                zkgames_core::rng::random_32(rng),
                zkgames_core::rng::random_32(rng),
            ],
            x2: if e == 0 {
                Vec::new()
            } else {
                rand_bits(rng, lay.n_in)
            },
            view: rand_bits(rng, lay.n_and),
        })
        .collect();
    let refs: Vec<&Opening> = ops.iter().collect();
    let rec = recompute(st.circuit, &salt, challenges, &refs);
    let y = zkbpp::pack_bools(st.output);
    let mut commitments = Vec::with_capacity(rounds);
    let mut outputs = Vec::with_capacity(rounds);
    for (r, rc) in rec.into_iter().enumerate() {
        let e = challenges[r] as usize;
        let mut c = [[0u8; 32]; 3];
        c[e] = rc.commits[0];
        c[(e + 1) % 3] = rc.commits[1];
        c[(e + 2) % 3] = zkgames_core::commit::commit(
            zkgames_core::commit::Tag(b"zkg:sim:"),
            &zkgames_core::rng::random_32(rng),
            b"",
        );
        let mut o: [Vec<u8>; 3] = Default::default();
        o[(e + 2) % 3] = (0..y.len())
            .map(|i| y[i] ^ rc.outs[0][i] ^ rc.outs[1][i])
            .collect();
        let [a, b] = rc.outs;
        o[e] = a;
        o[(e + 1) % 3] = b;
        commitments.push(c);
        outputs.push(o);
    }
    let hello = Hello {
        protocol: protocol.0,
        version: SESSION_VERSION,
        statement: st.digest(),
        rounds: rounds as u32,
        context: st.context.to_vec(),
    };
    let packed = zkbpp::pack_trits(challenges);
    let key = zkgames_core::rng::random_32(rng);
    SessionRecord {
        challenge_commitment: challenge_commitment(&hello, &packed, &key),
        hello,
        commitments: proof_file::encode(&CommitMsg {
            salt,
            commitments,
            outputs,
        }),
        challenges: packed,
        challenge_key: key,
        responses: proof_file::encode(&ops),
    }
}
