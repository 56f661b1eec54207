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
use zkgames_core::proof_file::{self, ProofFile};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::engine::{Proof as EngineProof, Required, System};
use zkgames_mpc::statement::OwnedStatement;
use zkgames_mpc::Report;

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

/// Verifies a proof about `p`.
pub fn verify(p: &dyn Puzzle, file: &ProofFile, req: &Required, context: &[u8]) -> Result<Report> {
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

/// The lines `verifier tatham inspect` prints (no verification).
pub fn inspect(file: &ProofFile) -> Result<(Head, Details)> {
    let (head, proof) = read(file)?;
    let d = Details::new()
        .text("game", zkgames_core::files::excerpt(&head.game))
        .text("game ID", zkgames_core::files::excerpt_up_to(&head.id, 200))
        .then(proof.describe());
    Ok((head, d))
}
