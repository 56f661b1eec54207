//! Sealed Wall Game moves: prove that a hidden move is legal now, reveal it later.
//!
//! The statement is "player `k` has this legal move in this public position"; the witness
//! is the move, encoded for [`MoveCircuit`]. A *seal* is a proof of that statement made with
//! the engines' committed-witness feature ([`zkgames_mpc::seal`], through
//! [`zkgames_mpc::engine`]): an ordinary proof on any engine whose randomness derives from one
//! secret master seed. The *opening* (master seed and
//! witness) shows which move the seal was made for; the engine's opening check re-runs the
//! prover, so a seal opens to exactly one move, and that move is legal.
//!
//! Files: the seal is a proof file ([`zkgames_core::proof_file`], protocol [`crate::seal::WALL_MOVE`]
//! for ZKB++, [`crate::seal::WALL_MOVE_KKW`] for KKW or [`crate::seal::WALL_MOVE_VOLE`] for
//! VOLE-in-the-head, mode 0) whose body is the engine's
//! bincode proof; the opening is the engine's opening
//! encoding ([`SealOpening::to_bytes`]). The seal's digest ([`zkgames_mpc::seal::seal_digest`])
//! names it: it covers the statement (position, player, circuit), the context and the proof.
//!
//! Public bytes of the statement ([`public_bytes`]), integers little-endian:
//! `"zkg:wall:statement:v1" ‖ u32 rows ‖ u32 cols ‖ u8 variant (0 classic, 1 cat-and-mouse,
//! 2 ring) ‖ u8 players ‖ per player: u32 cat row ‖ u32 cat col ‖ u8 has-mouse ‖ [u32 row ‖
//! u32 col] ‖ u8 has-home ‖ [u32 row ‖ u32 col] ‖ u32 walls ‖ per wall in board order: u32 row
//! ‖ u32 col ‖ u8 dir (0 D, 1 R) ‖ u8 mover (0-based)`.

use rand_core::RngCore;

use super::board::{Dir, Variant};
use super::circuit::{HiddenMove, MoveCircuit};
use super::game::{Game, Move, PawnOption, Status};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::ProofFile;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::Circuit;
use zkgames_mpc::engine::{Proof, Required, System};
use zkgames_mpc::seal::SealOpening;
use zkgames_mpc::statement::OwnedStatement;
use zkgames_mpc::statement::Statement;
use zkgames_mpc::zkbpp;

/// Transcript label of sealed-move proofs.
pub const TAG: &[u8] = b"zkgames/zkb++/wall-move/v1";

/// The public statement of a sealed move and its circuit.
#[derive(Clone, Debug)]
pub struct MoveStatement {
    game: Game,
    player: usize,
    mc: MoveCircuit,
    public: Vec<u8>,
    output: Vec<bool>,
    context: Vec<u8>,
}

/// The statement's public bytes (see the module docs).
pub fn public_bytes(game: &Game, player: usize) -> Vec<u8> {
    let pos = game.position();
    let mut b = b"zkg:wall:statement:v1".to_vec();
    let u32le = |b: &mut Vec<u8>, x: u32| b.extend_from_slice(&x.to_le_bytes());
    u32le(&mut b, pos.rows());
    u32le(&mut b, pos.cols());
    b.push(match game.variant() {
        Variant::Classic => 0,
        Variant::CatAndMouse => 1,
        Variant::Ring => 2,
    });
    b.push(game.players().len() as u8);
    for p in game.players() {
        u32le(&mut b, p.cat.0);
        u32le(&mut b, p.cat.1);
        for c in [p.mouse, p.goal] {
            match c {
                Some(c) => {
                    b.push(1);
                    u32le(&mut b, c.0);
                    u32le(&mut b, c.1);
                }
                None => b.push(0),
            }
        }
    }
    u32le(&mut b, pos.walls().len() as u32);
    for w in pos.walls() {
        u32le(&mut b, w.row);
        u32le(&mut b, w.col);
        b.push((w.dir == Dir::R) as u8);
    }
    b.push(player as u8);
    b
}

impl MoveStatement {
    /// The statement for a move by `player` (0-based) in `game`, bound to `context`. Bad
    /// input when the game is over or the player does not exist.
    pub fn new(game: &Game, player: usize, context: &[u8]) -> Result<Self> {
        let n = game.players().len();
        if player >= n {
            return Err(Error::bad(format!(
                "player {} does not exist: the game has players 1 to {n}",
                player + 1
            )));
        }
        let pos = game.position();
        if pos.cols() > super::notation::MAX_COLS || pos.rows() > super::notation::MAX_ROWS {
            return Err(Error::bad(format!(
                "a {}x{} board: sealed moves need a board the standard notation can name (at most {} columns and {} rows)",
                pos.cols(),
                pos.rows(),
                super::notation::MAX_COLS,
                super::notation::MAX_ROWS
            )));
        }
        if let Status::Over(_) = game.status() {
            return Err(Error::bad(format!(
                "the game is over ({}: {}); no move can follow",
                game.result_text(),
                game.describe_outcome().unwrap_or_default()
            )));
        }
        let pos = game.position();
        let bg = pos.graph();
        let me = &game.players()[player];
        let cell = |v: u32| (v / pos.cols(), v % pos.cols());
        let home_cat = pos.node(me.cat);
        let home_mouse = me.mouse.map(|m| pos.node(m));
        let pairs_after = |cat: u32, mouse: Option<u32>| {
            let opt = PawnOption {
                cat: (cat != home_cat).then(|| cell(cat)),
                mouse: mouse.filter(|&m| Some(m) != home_mouse).map(cell),
                steps: 0,
            };
            let (_, attached) = game.wall_oracle(player, &opt, &bg);
            attached
                .iter()
                .map(|p| (pos.node(p.a), pos.node(p.b)))
                .collect()
        };
        let mc = MoveCircuit::new(&bg.graph, home_cat, home_mouse, &pairs_after)?;
        Ok(MoveStatement {
            output: mc.expected_output(),
            public: public_bytes(game, player),
            game: game.clone(),
            player,
            mc,
            context: context.to_vec(),
        })
    }

    /// The engine's view of the statement.
    pub fn statement(&self) -> Statement<'_> {
        Statement {
            tag: TAG,
            circuit: self.mc.circuit(),
            public: &self.public,
            output: &self.output,
            context: &self.context,
        }
    }

    /// An owned copy of the engine statement, for live sessions.
    pub fn owned(&self) -> OwnedStatement {
        OwnedStatement {
            tag: TAG,
            circuit: self.mc.circuit().clone(),
            public: self.public.clone(),
            output: self.output.clone(),
            context: self.context.clone(),
        }
    }

    /// The circuit.
    pub fn circuit(&self) -> &Circuit {
        self.mc.circuit()
    }

    /// The circuit with its witness encoding (targets, slots).
    pub fn move_circuit(&self) -> &MoveCircuit {
        &self.mc
    }

    /// The game the statement is about.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The mover (0-based).
    pub fn player(&self) -> usize {
        self.player
    }

    /// The witness of a move. An illegal move is refused here, with the rule it breaks
    /// (rejected, exit 1), before any proving.
    pub fn witness(&self, mv: &Move) -> Result<Vec<bool>> {
        if let Err(why) = self.game.check(self.player, mv) {
            let pos = self.game.position();
            return Err(Error::rejected(format!(
                "illegal move {} by player {}: {why}",
                super::notation::move_name(pos.rows(), pos.cols(), mv),
                self.player + 1
            )));
        }
        self.witness_unchecked(mv)
            .filter(|w| self.mc.accepts(w))
            .ok_or_else(|| Error::bad("internal: the rules and the circuit disagree on this move"))
    }

    /// The witness bits of a move without checking the rules (`None` if it cannot be
    /// expressed at all). For soundness tests and baselines: a prover must use
    /// [`MoveStatement::witness`].
    pub fn witness_unchecked(&self, mv: &Move) -> Option<Vec<bool>> {
        let pos = self.game.position();
        let bg = pos.graph();
        let me = &self.game.players()[self.player];
        let walls: Option<Vec<u32>> = mv.walls().iter().map(|&w| bg.edge_of(w)).collect();
        self.mc.witness(&HiddenMove {
            cat: pos.node(mv.cat().unwrap_or(me.cat)),
            mouse: match me.mouse {
                Some(m) => pos.node(mv.mouse().unwrap_or(m)),
                None if mv.mouse().is_some() => return None,
                None => u32::MAX,
            },
            walls: walls?,
        })
    }

    /// Whether the circuit, evaluated in the clear, accepts a witness.
    pub fn accepts(&self, w: &[bool]) -> bool {
        self.mc.accepts(w)
    }

    /// The move a witness encodes.
    pub fn decode(&self, w: &[bool]) -> Result<Move> {
        let hm = self
            .mc
            .decode(w)
            .ok_or_else(|| Error::rejected("the opened witness is not a move encoding"))?;
        let pos = self.game.position();
        let me = &self.game.players()[self.player];
        let cell = |v: u32| (v / pos.cols(), v % pos.cols());
        let bg = pos.graph();
        let cat = (hm.cat != pos.node(me.cat)).then(|| cell(hm.cat));
        let mouse = me
            .mouse
            .filter(|&m| hm.mouse != pos.node(m))
            .map(|_| cell(hm.mouse));
        let walls = hm.walls.iter().map(|&e| bg.wall_of(e)).collect();
        Ok(Move::new(cat, mouse, walls))
    }
}

/// A sealed move: the seal's proof-file bytes, the secret opening's bytes, and the seal's
/// digest.
pub struct Sealed {
    pub file: Vec<u8>,
    pub opening: Vec<u8>,
    pub digest: Digest,
}

zkgames_mpc::protocols! {
    /// Sealed moves' protocol ids: 4 (ZKB++), 7 (KKW), 12 (VOLE-in-the-head); the body is the
    /// engine's proof alone, non-interactive.
    pub PROTOCOLS = "a sealed Wall Game move", "Wall Game sealed move",
    {
        Zkbpp: WALL_MOVE = 4,
        Kkw: WALL_MOVE_KKW = 7,
        Vole: WALL_MOVE_VOLE = 12,
    }
}

/// Seals a legal move with `system` (an illegal one is refused first).
pub fn seal_move(
    st: &MoveStatement,
    mv: &Move,
    system: &System,
    rng: &mut impl RngCore,
) -> Result<Sealed> {
    let w = st.witness(mv)?;
    let (proof, opening) = system.seal(&st.statement(), &w, rng)?;
    Ok(Sealed {
        file: proof.file_bytes(&PROTOCOLS, &())?,
        opening: opening.to_bytes(),
        digest: *opening.seal_digest(),
    })
}

/// Reads a seal's proof from its file bytes, of either engine (bad input if it is not a
/// sealed move).
pub fn read_seal(bytes: &[u8]) -> Result<Proof> {
    let f = ProofFile::from_bytes(bytes)?;
    let ((), proof) = Proof::read_file(&PROTOCOLS, &f, "sealed move")?;
    Ok(proof)
}

/// Verifies a seal against the statement under `req`; returns the seal's digest.
pub fn verify_seal(st: &MoveStatement, bytes: &[u8], req: &Required) -> Result<Digest> {
    let proof = read_seal(bytes)?;
    proof.verify(&st.statement(), req)?;
    Ok(proof.seal_digest(&st.statement()))
}

/// Opens a seal: the move it was made for (rejected if the opening does not match). Takes
/// the seal at whatever strength it states: a verifier that asked for a strength opens with
/// [`open_seal_at`].
pub fn open_seal(st: &MoveStatement, seal_bytes: &[u8], opening: &[u8]) -> Result<Move> {
    let proof = read_seal(seal_bytes)?;
    let op = SealOpening::from_bytes(opening)?;
    let w = proof.open(&st.statement(), &op)?;
    st.decode(&w)
}

/// [`open_seal`] refusing, as [`verify_seal`] does, a seal weaker than `req` (an 8-bit seal
/// is not opened as if it were sealed at 128).
pub fn open_seal_at(
    st: &MoveStatement,
    seal_bytes: &[u8],
    opening: &[u8],
    req: &Required,
) -> Result<Move> {
    read_seal(seal_bytes)?.check_strength(req)?;
    open_seal(st, seal_bytes, opening)
}

/// Tags a record gains or changes as the game goes on (its end, where its seals are kept,
/// the context they name): left out of the game's identity in [`record_context`].
pub const VOLATILE_TAGS: [&str; 4] = ["Result", "Termination", "Seals", "SealContext"];

/// Domain tag of [`record_context`].
pub const RECORD_CONTEXT_TAG: &[u8] = b"zkg:wall:record-seal:v2";

/// The context a sealed move of ply `ply` (1-based; one past the last recorded move for the
/// next, adjourned move) of the game `rec` is bound to:
///
/// `"zkg:wall:record-seal:v2" ‖ SHA-256(game) ‖ u64-le ply ‖ context`, where `game` is a
/// sequence of items, each written `u32-le length ‖ bytes`: `"zkg:wall:game:v1"`; the number
/// of tags kept (u32-le), then each kept tag's name and value in file order (every tag but
/// [`VOLATILE_TAGS`]); the start's public bytes ([`public_bytes`], player 1); the number
/// `k = ply − 1` (u32-le), then the `k` moves before the ply in standard notation. A seal made for one ply of one game therefore does not verify at
/// another ply where the same position recurs, nor in another game (other tags, start or
/// history), while the record's result and seal folder may still change.
pub fn record_context(rec: &super::record::Record, ply: usize, context: &[u8]) -> Result<Vec<u8>> {
    use sha2::Digest as _;
    let n = rec.moves().len();
    if ply == 0 || ply > n + 1 {
        return Err(Error::bad(format!(
            "ply {ply}: the record has plies 1 to {}",
            n + 1
        )));
    }
    let pos = rec.start().position();
    let mut h = sha2::Sha256::new();
    let mut put = |b: &[u8]| {
        h.update((b.len() as u32).to_le_bytes());
        h.update(b);
    };
    put(b"zkg:wall:game:v1");
    let tags: Vec<&(String, String)> = rec
        .tags()
        .iter()
        .filter(|(k, _)| !VOLATILE_TAGS.contains(&k.as_str()))
        .collect();
    put(&(tags.len() as u32).to_le_bytes());
    for (k, v) in tags {
        put(k.as_bytes());
        put(v.as_bytes());
    }
    put(&public_bytes(rec.start(), 0));
    put(&((ply - 1) as u32).to_le_bytes());
    for mv in &rec.moves()[..ply - 1] {
        put(super::notation::move_name(pos.rows(), pos.cols(), mv).as_bytes());
    }
    let mut out = RECORD_CONTEXT_TAG.to_vec();
    out.extend_from_slice(&h.finalize());
    out.extend_from_slice(&(ply as u64).to_le_bytes());
    out.extend_from_slice(context);
    Ok(out)
}

/// Rounds for `bits` of soundness (ZKB++: `ceil(bits / log2(3/2))`).
pub fn rounds_for_bits(bits: u32) -> usize {
    zkbpp::rounds_for_bits(bits)
}
