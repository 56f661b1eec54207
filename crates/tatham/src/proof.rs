//! The one proof kind of every Tatham statement: "I know a solution of this puzzle".
//!
//! The statement handed to an engine is the puzzle's circuit ([`super::Puzzle::circuit`],
//! accepted when every output is 0), the public output of zeros, the public bytes
//! [`public_bytes`] (the game's name and its canonical game ID), the tag [`TAG`] and the
//! context. The proof file (protocol ids 23 ZKB++, 24 KKW, 25 VOLE-in-the-head) carries a
//! [`Head`] before the engine's proof: the game and the game ID, so that a verifier given
//! another puzzle says so in words before any cryptography, and `inspect` names them. The
//! head is public already (it is the puzzle); no move, AUXINFO or PRIVDESC is ever in it.

use serde::{Deserialize, Serialize};
use zkgames_core::details::Details;

use super::Puzzle;
use zkgames_core::proof_file::Mode;
use zkgames_core::proof_file::{self, ProofFile};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::engine::{replay_session, Proof as EngineProof, Required, System};
use zkgames_mpc::statement::OwnedStatement;
use zkgames_mpc::Report;
use zkgames_net::{Hello, SessionProver, SessionRecord, SessionVerifier};

/// The transcript label of Tatham statements.
pub const TAG: &[u8] = b"zkgames/tatham/v1";

zkgames_mpc::protocols! {
    /// The protocol ids, one per engine.
    pub PROTOCOLS = "a Tatham puzzle proof", "Tatham puzzle solution",
    {
        Zkbpp: TATHAM_MPC = 23,
        Kkw: TATHAM_KKW = 24,
        Vole: TATHAM_VOLE = 25,
    }
}

/// What a proof file says before the engine's proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The game's name (`Net`).
    pub game: String,
    /// The canonical game ID, `Game:PARAMS:DESC`.
    pub id: String,
}

/// `"tatham-statement" ‖ u32-le(len game) ‖ game ‖ u32-le(len id) ‖ id`: the engines'
/// public bytes (the id is the canonical `Game:PARAMS:DESC`).
pub fn public_bytes(p: &dyn Puzzle) -> Vec<u8> {
    let game = p.game().name.as_bytes();
    let id = super::game_id(p);
    let mut out = b"tatham-statement".to_vec();
    out.extend_from_slice(&(game.len() as u32).to_le_bytes());
    out.extend_from_slice(game);
    out.extend_from_slice(&(id.len() as u32).to_le_bytes());
    out.extend_from_slice(id.as_bytes());
    out
}

/// The statement about `p` with `context`.
pub fn statement(p: &dyn Puzzle, context: &[u8]) -> Result<OwnedStatement> {
    let circuit = p.circuit()?;
    Ok(OwnedStatement {
        tag: TAG,
        output: vec![false; circuit.n_outputs()],
        circuit,
        public: public_bytes(p),
        context: context.to_vec(),
    })
}

/// Proves knowledge of `witness` (a solution's bits and certificate labels) for `p`:
/// returns the proof file's bytes.
pub fn prove(
    p: &dyn Puzzle,
    witness: &[bool],
    system: &System,
    context: &[u8],
    rng: &mut zkgames_core::rng::Rng,
) -> Result<Vec<u8>> {
    let st = statement(p, context)?;
    zkgames_mpc::statement::check_witness(&st.as_ref(), witness)?;
    let proof = system.prove(&st.as_ref(), witness, rng)?;
    let head = Head {
        game: p.game().name.to_string(),
        id: super::game_id(p),
    };
    proof.file_bytes(&PROTOCOLS, &head)
}

/// Reads a proof file's head and engine proof.
pub fn read(file: &ProofFile) -> Result<(Head, EngineProof)> {
    EngineProof::read_file(&PROTOCOLS, file, "Tatham puzzle proof body")
}

/// Verifies a proof about `p`. A recorded live session (mode interactive) is re-checked
/// against the same statement; it is consistent or not, never evidence for a third party
/// (the report's mode says which).
pub fn verify(p: &dyn Puzzle, file: &ProofFile, req: &Required, context: &[u8]) -> Result<Report> {
    if file.mode == Mode::Interactive {
        let engine = PROTOCOLS.engine(file)?;
        let rec: SessionRecord = proof_file::decode(&file.body, "Tatham session record")?;
        let st = statement(p, context)?;
        let ands = st.circuit.n_and();
        let system = replay_session(engine, st, file.protocol, req, &rec)
            .map_err(|e| another_puzzle(e, p))?;
        return Ok(Report::of(
            &system,
            proof_file::HEADER_LEN + file.body.len(),
            ands,
            Mode::Interactive,
        ));
    }
    let (head, proof) = read(file)?;
    let id = super::game_id(p);
    if head.id != id {
        return Err(Error::rejected(format!(
            "the proof was made for another puzzle ({}), not {}",
            zkgames_core::files::excerpt(&head.id),
            zkgames_core::files::excerpt(&id)
        )));
    }
    let st = statement(p, context)?;
    proof.verify(&st.as_ref(), req)?;
    Ok(proof.report(proof_file::HEADER_LEN + file.body.len(), st.circuit.n_and()))
}

/// The prover's side of a live session about `p` with `system` (the verifier fixes the
/// engine and its parameters; the statement is [`statement`]'s, the same as a proof's).
pub fn session_prover(
    p: &dyn Puzzle,
    witness: Vec<bool>,
    system: &System,
    context: &[u8],
    rng: Rng,
) -> Result<Box<dyn SessionProver<'static>>> {
    let st = statement(p, context)?;
    zkgames_mpc::statement::check_witness(&st.as_ref(), &witness)?;
    system.session_prover(st, PROTOCOLS.id(system.engine())?, witness, rng)
}

/// The verifier's side of a live session about `p`: the statement is built here, once per
/// call; `rng` draws the challenges (use [`zkgames_core::rng::os_rng`]).
pub fn session_verifier(
    p: &dyn Puzzle,
    system: &System,
    context: &[u8],
    rng: Rng,
) -> Result<Box<dyn SessionVerifier>> {
    let st = statement(p, context)?;
    let protocol = PROTOCOLS.id(system.engine())?;
    Ok(Box::new(PuzzleVerifier {
        inner: zkgames_mpc::engine::session_verifier(system, st, protocol, rng),
        id: super::game_id(p),
    }))
}

/// A recorded session of `system`'s engine as proof-file bytes ([`Mode::Interactive`]).
pub fn session_file(system: &System, rec: &SessionRecord) -> Result<Vec<u8>> {
    Ok(zkgames_mpc::session::record_file(
        PROTOCOLS.id(system.engine())?,
        rec,
    ))
}

/// The engine's session verifier, saying "another puzzle" in words: with the same
/// protocol, parameters and context, a Hello naming another statement is about another
/// puzzle (the statement is the puzzle's circuit, name and game ID).
struct PuzzleVerifier {
    inner: Box<dyn SessionVerifier>,
    id: String,
}

impl SessionVerifier for PuzzleVerifier {
    fn check_hello(&mut self, h: &Hello) -> Result<()> {
        self.inner.check_hello(h).map_err(|e| {
            if e.to_string().contains(zkgames_mpc::ANOTHER_STATEMENT) {
                Error::rejected(format!(
                    "the prover's session is about another puzzle, not {}",
                    zkgames_core::files::excerpt(&self.id)
                ))
            } else {
                e
            }
        })
    }
    fn draw_challenges(&mut self) -> Vec<u8> {
        self.inner.draw_challenges()
    }
    fn load_challenges(&mut self, challenges: &[u8]) -> Result<()> {
        self.inner.load_challenges(challenges)
    }
    fn check_commitments(&mut self, commitments: &[u8]) -> Result<()> {
        self.inner.check_commitments(commitments)
    }
    fn verify(&mut self, responses: &[u8]) -> Result<()> {
        self.inner.verify(responses)
    }
    fn max_commitments(&self) -> usize {
        self.inner.max_commitments()
    }
    fn max_responses(&self) -> usize {
        self.inner.max_responses()
    }
}

/// A replay's refusal of a recorded session about another puzzle, in words.
fn another_puzzle(e: Error, p: &dyn Puzzle) -> Error {
    if e.to_string().contains(zkgames_mpc::ANOTHER_STATEMENT) {
        Error::rejected(format!(
            "the recorded session is about another puzzle, not {}",
            zkgames_core::files::excerpt(&super::game_id(p))
        ))
    } else {
        e
    }
}

/// The lines `verifier tatham inspect` prints (no verification). A recorded session names
/// no game (its Hello holds the statement's digest only): `None` then.
pub fn inspect(file: &ProofFile) -> Result<(Option<Head>, Details)> {
    if file.mode == Mode::Interactive {
        let engine = PROTOCOLS.engine(file)?;
        let r: SessionRecord = proof_file::decode(&file.body, "Tatham session record")?;
        if r.hello.protocol != file.protocol.0 {
            return Err(Error::bad(format!(
                "inconsistent file: the header says {}, the session inside says protocol {}",
                file.protocol.name(),
                r.hello.protocol
            )));
        }
        let d = Details::aligned(12)
            .text("statement", hex::encode(r.hello.statement))
            .text(
                "context",
                zkgames_core::files::excerpt(&String::from_utf8_lossy(&r.hello.context)),
            )
            .then(engine.describe_session(r.hello.rounds));
        return Ok((None, d));
    }
    let (head, proof) = read(file)?;
    let d = Details::new()
        .text("game", zkgames_core::files::excerpt(&head.game))
        .text("game ID", zkgames_core::files::excerpt_up_to(&head.id, 200))
        .then(proof.describe());
    Ok((Some(head), d))
}
