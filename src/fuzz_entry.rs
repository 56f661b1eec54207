//! The fuzzing entry points: one function per untrusted-input entry of the crate, shared by
//! the cargo-fuzz targets in `fuzz/` (nightly) and by `tests/fuzz_regressions.rs`, which
//! replays every seed corpus file and every saved crash through them on stable Rust.
//!
//! Each entry takes arbitrary bytes and must return without panicking, hanging or allocating
//! without bound whatever they are; errors from the library are the expected outcome and are
//! dropped. Some entries also assert properties that must hold for every accepted input
//! (a parsed position prints and re-parses to itself, the fast cut oracle agrees with the
//! brute force): a failed assertion is a finding like any panic.
//!
//! Proofs are verified against fixed small statements ([`fixtures`]) at low security (so
//! that small seed proofs verify all the way): the peg tee puzzle, the SHA-256 digest of
//! [`fixtures::SHA256_PREIMAGE`], and a 4×4 cat-and-mouse Wall Game, all with an empty
//! context. Inputs are capped ([`MAX_INPUT`] and tighter per target) where the library's own
//! limits are generous, so that each run stays fast.

use std::io;
use std::sync::OnceLock;
use std::time::Instant;

use crate::net::transport::Transport;
use crate::net::{Channel, Deadlines};
use crate::proof_file::{Mode, ProofFile};

/// The largest input any target looks at (bytes beyond it are ignored).
pub const MAX_INPUT: usize = 256 << 10;
/// Security (bits) proofs are verified at: low, so that small seed proofs are accepted.
pub const MIN_BITS: u32 = 8;
/// Largest board (cells) the oracle is run on after a parser.
pub const MAX_ORACLE_CELLS: u64 = 1024;
/// Largest board (cells) of the differential oracle-vs-brute-force target.
pub const MAX_DIFF_CELLS: u64 = 42;

fn cap(data: &[u8], n: usize) -> &[u8] {
    &data[..data.len().min(n)]
}

/// Fixed statements the proof and session targets check against.
pub mod fixtures {
    use super::*;
    use crate::peg::board::Puzzle;
    use crate::wall::board::Variant;
    use crate::wall::game::{Game, Move};
    use crate::wall::seal::{self, MoveStatement, Sealed};

    /// The `aes128` key file the AES-128 proofs are made with (`fuzz/seed.sh`): no S-box
    /// input of its plaintext is zero.
    pub const AES128_KEY: &str = "zkgames-auth-key-v1 aes128 0e1b2835424f5c697683909daab7c4d1 1734516e8ba8c5e2ff1c39567390adca\n";
    /// The text the AES-128 seed proofs are bound to (`prover auth prove --context fuzz`).
    pub const AES128_TEXT: &[u8] = b"fuzz";

    /// The identity of [`AES128_KEY`].
    pub fn aes128_identity() -> &'static crate::auth::keys::Identity {
        static I: OnceLock<crate::auth::keys::Identity> = OnceLock::new();
        I.get_or_init(|| {
            crate::auth::keys::SecretKey::parse(AES128_KEY)
                .expect("the fixture key parses")
                .identity()
        })
    }

    /// The preimage whose SHA-256 digest the SHA-256 proofs are checked against (`zk`).
    pub const SHA256_PREIMAGE: &[u8] = b"zk";
    /// Server name of the login fixtures.
    pub const SERVER: &str = "fuzz.example";
    /// User name of the login fixtures.
    pub const USER: &str = "alice";
    /// The login nonce of the login fixtures.
    pub const NONCE: [u8; 32] = [7; 32];
    /// The seed of the verifier's challenges in the session targets.
    pub const VERIFIER_SEED: u64 = 1;
    /// ZKB++ rounds of the session provers.
    pub const MPC_SESSION_ROUNDS: usize = 14;
    /// Rounds of the isomorphism session prover.
    pub const ISO_SESSION_ROUNDS: usize = 24;

    /// The tee puzzle (FUN 2022, Example 5).
    pub fn tee() -> &'static Puzzle {
        static P: OnceLock<Puzzle> = OnceLock::new();
        P.get_or_init(|| crate::peg::catalog::get("tee").expect("built-in tee"))
    }

    /// The English board (for solutions in move notation).
    pub fn english() -> &'static Puzzle {
        static P: OnceLock<Puzzle> = OnceLock::new();
        P.get_or_init(|| crate::peg::catalog::get("english").expect("built-in english"))
    }

    /// SHA-256 of [`SHA256_PREIMAGE`].
    pub fn sha256_digest() -> [u8; 32] {
        use sha2::Digest as _;
        sha2::Sha256::digest(SHA256_PREIMAGE).into()
    }

    /// A 4×4 standard cat-and-mouse game, player 1 to move.
    pub fn wall_game() -> &'static Game {
        static G: OnceLock<Game> = OnceLock::new();
        G.get_or_init(|| Game::standard(Variant::CatAndMouse, 4, 4).expect("4x4 game"))
    }

    /// The sealed-move statement for player 1 in [`wall_game`], empty context.
    pub fn wall_statement() -> &'static MoveStatement {
        static S: OnceLock<MoveStatement> = OnceLock::new();
        S.get_or_init(|| MoveStatement::new(wall_game(), 0, b"").expect("statement"))
    }

    /// The move sealed in [`wall_seal`]: `Cb4.>a3` (cat one step right, a wall).
    pub fn wall_move() -> Move {
        let n = crate::wall::notation::Notation::for_position(wall_game().position())
            .expect("notation");
        n.parse_move("Cb4.>a3").expect("move")
    }

    /// A seal of [`wall_move`] with [`MIN_BITS`] of soundness, made with a fixed seed: the
    /// seal the opening target opens.
    pub fn wall_seal() -> &'static Sealed {
        static S: OnceLock<Sealed> = OnceLock::new();
        S.get_or_init(|| {
            let mut rng = crate::rng::seeded_rng(3);
            seal::seal_move(
                wall_statement(),
                &wall_move(),
                &crate::mpc::engine::System::zkbpp(MIN_BITS),
                &mut rng,
            )
            .expect("seal")
        })
    }

    /// The identity login proofs are checked against: the tee instance (a peg identity).
    pub fn login_identity() -> crate::auth::keys::Identity {
        crate::auth::keys::Identity::Peg(tee().instance().clone())
    }
}

/// An in-memory transport: reads come from the fuzz input, writes are kept (for recording
/// seeds) and never block.
pub struct MemTransport {
    input: Vec<u8>,
    at: usize,
    /// Everything written so far.
    pub written: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

impl MemTransport {
    /// A transport whose peer sends `input` and then closes.
    pub fn new(input: &[u8]) -> Self {
        MemTransport {
            input: input.to_vec(),
            at: 0,
            written: Default::default(),
        }
    }
}

impl Transport for MemTransport {
    fn read_by(&mut self, buf: &mut [u8], _deadline: Instant) -> io::Result<usize> {
        let n = buf.len().min(self.input.len() - self.at);
        buf[..n].copy_from_slice(&self.input[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
    fn write_all_by(&mut self, bytes: &[u8], _deadline: Instant) -> io::Result<()> {
        let mut w = self.written.lock().expect("not poisoned");
        // the peer only reads so much: keep the recording bounded
        if w.len() < 64 << 20 {
            w.extend_from_slice(bytes);
        }
        Ok(())
    }
}

/// A channel whose peer sends `input`.
pub fn mem_channel(input: &[u8]) -> Channel {
    Channel::over(Box::new(MemTransport::new(input)), Deadlines::default())
}

/// Splits a recorded byte stream into frame bodies (`u32-le(len) ‖ body`).
pub fn frames(mut bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while bytes.len() >= 4 {
        let len = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as usize;
        if bytes.len() - 4 < len {
            break;
        }
        out.push(bytes[4..4 + len].to_vec());
        bytes = &bytes[4 + len..];
    }
    out
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

// ---------------------------------------------------------------- peg solitaire

/// Puzzle files and raw instances ([`crate::peg::board::Puzzle::parse`]); an accepted
/// instance must survive the raw format round trip with the same digest.
pub fn peg_puzzle(data: &[u8]) {
    let Some(t) = text(cap(data, 64 << 10)) else {
        return;
    };
    if let Ok(p) = crate::peg::board::Puzzle::parse(t) {
        let inst = p.instance();
        let raw = crate::peg::instance::to_raw(inst);
        let back = crate::peg::instance::parse_raw(&raw).expect("to_raw output parses");
        assert_eq!(
            back.digest(),
            inst.digest(),
            "raw round trip changes the instance"
        );
        if p.has_board() {
            let _ = p.render(inst.first());
        }
    }
}

/// Solutions (move lists and matrices): first byte picks the puzzle (tee, English, or the
/// raw tee through [`crate::peg::instance::parse_matrix`]).
pub fn peg_solution(data: &[u8]) {
    let data = cap(data, 64 << 10);
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(t) = text(rest) else {
        return;
    };
    match which % 3 {
        0 | 1 => {
            let p = if which % 3 == 0 {
                fixtures::tee()
            } else {
                fixtures::english()
            };
            if let Ok(z) = p.parse_solution(t) {
                p.instance()
                    .check_solution(&z)
                    .expect("parse_solution checks");
                let again = p
                    .parse_solution(&p.format_solution(&z))
                    .expect("round trip");
                assert_eq!(again, z, "solution round trip");
            }
        }
        _ => {
            if let Ok(z) = crate::peg::instance::parse_matrix(t) {
                let _ = fixtures::tee().instance().check_solution(&z);
            }
        }
    }
}

// ---------------------------------------------------------------- proof files

fn proof_file(data: &[u8], cap_bytes: usize) -> Option<ProofFile> {
    ProofFile::from_bytes(cap(data, cap_bytes)).ok()
}

/// Protocol 1 (peg iso) proof files of both modes against the tee, then `inspect`.
pub fn proof_peg_iso(data: &[u8]) {
    let Some(f) = proof_file(data, MAX_INPUT) else {
        return;
    };
    let inst = fixtures::tee().instance();
    match (f.protocol, f.mode) {
        (crate::peg::fs::PEG_ISO, Mode::NonInteractive) => {
            if let Ok(p) = crate::peg::fs::decode_proof(&f) {
                let _ = crate::peg::fs::verify(inst, &p, MIN_BITS, b"");
            }
        }
        (crate::peg::fs::PEG_ISO, Mode::Interactive) => {
            if let Ok(rec) = crate::proof_file::decode::<crate::net::SessionRecord>(
                &f.body,
                "session transcript",
            ) {
                let _ = crate::peg::session::verify_record(inst, &rec, MIN_BITS, b"");
            }
        }
        _ => {}
    }
    let _ = crate::cli::peg::inspect(&f, data.len(), true);
}

/// Peg proof files of any engine (both modes) against the tee: read, verify, inspect.
fn peg_proof(data: &[u8]) {
    let Some(f) = proof_file(data, MAX_INPUT) else {
        return;
    };
    let req = crate::mpc::engine::Required::bits(MIN_BITS);
    let _ = crate::peg::mpc::verify(fixtures::tee().instance(), &f, &req, b"");
    let _ = crate::peg::mpc::inspect(&f);
}

/// SHA-256 proof files of any engine against the digest of [`fixtures::SHA256_PREIMAGE`].
fn sha256_proof(data: &[u8]) {
    let Some(f) = proof_file(data, 1 << 20) else {
        return;
    };
    let req = crate::mpc::engine::Required::bits(MIN_BITS);
    let _ = crate::mpc::sha256::verify(&fixtures::sha256_digest(), &f, &req, b"");
    let _ = crate::mpc::sha256::inspect(&f);
}

/// Peg ZKB++ proof files (both modes) against the tee (the corpus holds ZKB++ files).
pub fn proof_peg_mpc(data: &[u8]) {
    peg_proof(data)
}

/// SHA-256 ZKB++ proof files (the corpus holds ZKB++ files).
pub fn proof_sha256_mpc(data: &[u8]) {
    sha256_proof(data)
}

/// Sealed Wall Game moves (ZKB++): read, verify against the fixed 4×4 game, inspect.
pub fn proof_wall_move(data: &[u8]) {
    let data = cap(data, MAX_INPUT);
    let st = fixtures::wall_statement();
    let _ = crate::wall::seal::verify_seal(st, data, &crate::mpc::engine::Required::bits(MIN_BITS));
    let _ = crate::cli::wall_seal::inspect_seal(data);
}

/// Peg KKW proof files against the tee (the corpus holds KKW files).
pub fn proof_peg_kkw(data: &[u8]) {
    peg_proof(data)
}

/// SHA-256 KKW proof files (the corpus holds KKW files).
pub fn proof_sha256_kkw(data: &[u8]) {
    sha256_proof(data)
}

/// Peg VOLE-in-the-head proof files and recorded sessions (the corpus holds VOLE files).
pub fn proof_peg_vole(data: &[u8]) {
    peg_proof(data)
}

/// SHA-256 VOLE-in-the-head proof files (the corpus holds VOLE files).
pub fn proof_sha256_vole(data: &[u8]) {
    sha256_proof(data)
}

// ---------------------------------------------------------------- Bristol circuits

/// The circuit the circuit-proof target checks proofs against: input group 0 (4 bits) is
/// secret, group 1 (4 bits) public ([`CIRCUIT_PUBLIC`]), five outputs; every gate type once.
pub const CIRCUIT_FIXTURE: &str = "6 15\n2 4 4\n1 5\n\n4 2 0 1 4 5 8 9 MAND\n2 1 2 6 10 AND\n2 1 3 7 11 XOR\n1 1 11 12 INV\n1 1 1 13 EQ\n1 1 8 14 EQW\n";
/// The public group's value in the fixture's statement, and the secret one's.
pub const CIRCUIT_PUBLIC: &str = "0b";
pub const CIRCUIT_SECRET: &str = "0d";

/// A Bristol Fashion file (small limits): the reader; for what it accepts, evaluation as the
/// file says against the engines' IR with any public groups, and, for small circuits, a
/// proof that must verify.
pub fn circuit_bristol(data: &[u8]) {
    use crate::mpc::bristol::{self, Limits};
    let Ok(c) = bristol::parse(cap(data, 64 << 10), &Limits::for_gates(4096)) else {
        return;
    };
    let _ = c.depth();
    let seed = c.digest();
    let values: Vec<Vec<bool>> = c
        .inputs()
        .iter()
        .enumerate()
        .map(|(g, &w)| {
            (0..w as usize)
                .map(|i| seed[(i + g) % 32] >> (i % 8) & 1 == 1)
                .collect()
        })
        .collect();
    let want = c.eval(&values).expect("values of the groups' widths");
    let public: Vec<Option<Vec<bool>>> = values
        .iter()
        .enumerate()
        .map(|(g, v)| (g % 2 == 1).then(|| v.clone()))
        .collect();
    let ir = c.to_circuit(&public).expect("a checked circuit converts");
    let got = ir.eval(&c.witness(&values, &public));
    assert_eq!(
        c.split_outputs(&got),
        want,
        "the IR computes what the file says"
    );
    if c.counts().ands() <= 64 && ir.n_inputs() > 0 && ir.n_inputs() <= 256 {
        use crate::mpc::bristol::proof::{self, Assignment};
        let a = Assignment {
            public: public.iter().map(|p| p.is_some()).collect(),
            values: values.clone(),
        };
        let mut rng = crate::rng::rng_from(Some(1));
        let sys = crate::mpc::engine::System::zkbpp(MIN_BITS);
        let (bytes, outs) = proof::prove(&c, &a, &sys, b"", &mut rng).expect("an honest proof");
        let f = ProofFile::from_bytes(&bytes).expect("our own file");
        let req = crate::mpc::engine::Required::bits(MIN_BITS);
        proof::verify(&c, &f, &public, &outs, &req, b"").expect("an honest proof verifies");
    }
}

/// Circuit proof files of any engine against [`CIRCUIT_FIXTURE`].
pub fn proof_circuit(data: &[u8]) {
    use crate::mpc::bristol::{self, proof, Limits};
    let c = bristol::parse(CIRCUIT_FIXTURE.as_bytes(), &Limits::default()).expect("fixture");
    let Ok(f) = ProofFile::from_bytes(cap(data, MAX_INPUT)) else {
        return;
    };
    let _ = proof::inspect(&f);
    let p = bristol::group_from_hex(CIRCUIT_PUBLIC, 4, "fixture").expect("fixture");
    let s = bristol::group_from_hex(CIRCUIT_SECRET, 4, "fixture").expect("fixture");
    let outs = c.eval(&[s, p.clone()]).expect("fixture");
    let req = crate::mpc::engine::Required::bits(MIN_BITS);
    let _ = proof::verify(&c, &f, &[None, Some(p)], &outs, &req, b"");
}

/// AES-128 key proof files (offline proofs of [`fixtures::AES128_KEY`] bound to
/// [`fixtures::AES128_TEXT`]; the corpus holds VOLE files): verified, and inspected.
pub fn proof_aes128_vole(data: &[u8]) {
    let data = cap(data, MAX_INPUT);
    let id = fixtures::aes128_identity();
    let _ = crate::auth::keys::verify_offline(id, fixtures::AES128_TEXT, data);
    if let Ok(f) = ProofFile::from_bytes(data) {
        let _ = crate::mpc::aes128::inspect(&f);
    }
}

// ---------------------------------------------------------------- Wall Game

/// The oracle on a parsed position (bounded boards), with the printers' round trips.
fn wall_after_parse(pf: &crate::wall::format::PositionFile) {
    use crate::wall::format;
    let pos = &pf.position;
    let cells = pos.rows() as u64 * pos.cols() as u64;
    if cells > MAX_ORACLE_CELLS {
        return;
    }
    let to_move = match pos.setup() {
        crate::wall::board::Setup::Game { .. } => pf.to_move,
        crate::wall::board::Setup::Pairs(_) => None,
    };
    let json = format::to_json_file(pos, to_move);
    let back = format::parse_json_file(&json).expect("to_json output parses");
    assert_eq!(&back.position, pos, "JSON round trip");
    let ascii = format::to_ascii_file(pos, to_move);
    let back = format::parse_ascii_file(&ascii).expect("to_ascii output parses");
    assert_eq!(&back.position, pos, "ASCII round trip");
    let _ = pos.analyze();
    // every legal move (quadratic in the free slots): small boards only
    if cells <= MAX_DIFF_CELLS {
        if let Ok(g) = crate::wall::game::Game::new(pos.clone(), pf.to_move.unwrap_or(0)) {
            for mv in g.legal_moves(g.to_move()).iter().take(64) {
                assert!(g.check(g.to_move(), mv).is_ok(), "a listed move is illegal");
            }
        }
    }
}

/// ASCII positions, then the oracle.
pub fn wall_ascii(data: &[u8]) {
    let Some(t) = text(cap(data, 64 << 10)) else {
        return;
    };
    if let Ok(pf) = crate::wall::format::parse_ascii_file(t) {
        wall_after_parse(&pf);
    }
}

/// JSON positions, then the oracle.
pub fn wall_json(data: &[u8]) {
    let Some(t) = text(cap(data, 64 << 10)) else {
        return;
    };
    if let Ok(pf) = crate::wall::format::parse_json_file(t) {
        wall_after_parse(&pf);
    }
}

/// Game records (parsed and replayed), then the final position's oracle; an accepted record
/// must print and re-parse to the same moves.
pub fn wall_record(data: &[u8]) {
    use crate::wall::record;
    let data = cap(data, 64 << 10);
    match record::parse_source(data) {
        Ok(record::Source::Record { record: r, end }) => {
            let again = record::parse(r.to_text().as_bytes()).expect("to_text output parses");
            assert_eq!(again.moves(), r.moves(), "record round trip");
            let pos = end.position();
            if pos.rows() as u64 * pos.cols() as u64 <= MAX_ORACLE_CELLS {
                let _ = pos.analyze();
            }
        }
        Ok(record::Source::File(pf)) => wall_after_parse(&pf),
        Err(_) => {}
    }
}

/// Move notation (standard, or JSON when the text starts with `{`) on a fixed game (first
/// byte: 4×4 cat-and-mouse, or the 8×8 classic with walls), then the legality check.
pub fn wall_move(data: &[u8]) {
    use crate::wall::board::Variant;
    use crate::wall::game::Game;
    use crate::wall::notation::{parse_move_json, Notation};
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    let games = GAMES.get_or_init(|| {
        let g8 = Game::standard(Variant::Classic, 8, 8).expect("8x8");
        let n8 = Notation::for_position(g8.position()).expect("notation");
        let g8 = g8
            .play(&n8.parse_move("Cb8.>d4").expect("move"))
            .expect("legal");
        vec![fixtures::wall_game().clone(), g8]
    });
    let data = cap(data, 4 << 10);
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(t) = text(rest) else {
        return;
    };
    let g = &games[which as usize % games.len()];
    let n = Notation::for_position(g.position()).expect("notation");
    let mv = if t.trim_start().starts_with('{') {
        parse_move_json(t)
    } else {
        n.parse_move(t)
    };
    let Ok(mv) = mv else {
        return;
    };
    if let Some(s) = n.write_move(&mv) {
        assert_eq!(n.parse_move(&s).expect("write_move output parses"), mv);
    }
    let back = parse_move_json(&crate::wall::notation::move_to_json(&mv)).expect("JSON parses");
    assert_eq!(back, mv, "move JSON round trip");
    let legal = g.check(g.to_move(), &mv).is_ok();
    assert_eq!(legal, g.play(&mv).is_ok(), "check and play disagree");
}

/// Differential: the O(V+E) cut oracle against the brute force, on small parsed positions
/// (either format).
pub fn wall_oracle_diff(data: &[u8]) {
    use crate::wall::cut::naive;
    let Ok(pos) = crate::wall::format::parse(cap(data, 16 << 10)) else {
        return;
    };
    if pos.rows() as u64 * pos.cols() as u64 > MAX_DIFF_CELLS {
        return;
    }
    let bg = pos.graph();
    let mut pairs: Vec<(u32, u32)> = pos
        .node_pairs()
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .filter(|p| p.0 != p.1)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    if pairs.len() > 8 {
        return;
    }
    let fast = crate::wall::moves::analyze(&bg.graph, &pairs);
    let slow = naive::analyze(&bg.graph, &pairs);
    assert_eq!(fast, slow, "cut oracle and brute force disagree");
    let single = crate::wall::cut::single::indelible(&bg.graph, &pairs);
    let paths = crate::wall::cut::single_paths::indelible(&bg.graph, &pairs);
    assert_eq!(single, paths, "the two single-wall methods disagree");
    if let Ok(mask) = single {
        let listed: Vec<u32> = (0..mask.len() as u32)
            .filter(|&e| mask[e as usize])
            .collect();
        assert_eq!(listed, slow.illegal_single, "indelible edges");
    }
}

// ---------------------------------------------------------------- sessions

/// Session kinds of the session targets (the first input byte, modulo their number).
pub const SESSION_KINDS: [&str; 5] = ["peg-iso", "peg-zkbpp", "wall-move", "wall-kkw", "wall-vole"];

/// The verifier of session kind `which` ([`SESSION_KINDS`]): the tee (iso or ZKB++) or the
/// fixture wall move's statement, [`MIN_BITS`], empty context, challenges drawn from
/// [`fixtures::VERIFIER_SEED`].
pub fn session_verifier_for(which: u8) -> Box<dyn crate::net::SessionVerifier> {
    let inst = fixtures::tee().instance();
    let rng = crate::rng::seeded_rng(fixtures::VERIFIER_SEED);
    let min = crate::mpc::rounds_for_bits(MIN_BITS);
    match which as usize % SESSION_KINDS.len() {
        0 => Box::new(crate::peg::session::PegVerifier::new(
            inst, MIN_BITS, b"", rng,
        )),
        1 => crate::peg::mpc::session_verifier(
            inst,
            &crate::mpc::engine::System::Zkbpp(min),
            b"",
            rng,
        )
        .expect("verifier"),
        2 => Box::new(crate::mpc::zkbpp::session::MpcVerifier::new(
            fixtures::wall_statement().owned(),
            crate::wall::seal::WALL_MOVE,
            min,
            crate::mpc::offered::max_zkbpp_rounds(min),
            rng,
        )),
        k => crate::mpc::engine::session_verifier(
            &session_system(k),
            fixtures::wall_statement().owned(),
            crate::wall::seal::PROTOCOLS
                .id(session_system(k).engine())
                .expect("sealed moves offer every engine"),
            rng,
        ),
    }
}

/// The engine and parameters of the sealed-move session kinds 3 (KKW) and 4 (VOLE): small
/// sets, so that a fuzzing run executes many sessions.
fn session_system(which: usize) -> crate::mpc::engine::System {
    use crate::mpc::engine::System;
    if which == 3 {
        System::Kkw(crate::mpc::kkw::Params::new(16, 4, 8))
    } else {
        System::Vole(crate::mpc::vole::Params::new(4, 40, 2))
    }
}

/// The honest prover of session kind `which`, with a fixed seed (the iso prover mixes in
/// fresh entropy by design).
pub fn session_prover_for(which: u8) -> Box<dyn crate::net::SessionProver<'static>> {
    static Z: OnceLock<crate::peg::instance::Matrix> = OnceLock::new();
    let z = Z.get_or_init(crate::peg::instance::tee_solution);
    let inst = fixtures::tee().instance();
    let rng = crate::rng::seeded_rng(2);
    let rounds = fixtures::MPC_SESSION_ROUNDS;
    match which as usize % SESSION_KINDS.len() {
        0 => Box::new(
            crate::peg::session::PegProver::new(inst, z, fixtures::ISO_SESSION_ROUNDS, b"", rng)
                .expect("prover"),
        ),
        1 => crate::peg::mpc::session_prover(
            inst,
            z,
            &crate::mpc::engine::System::Zkbpp(rounds),
            b"",
            rng,
        )
        .expect("prover"),
        k => {
            let st = fixtures::wall_statement();
            let w = st.witness(&fixtures::wall_move()).expect("legal move");
            let system = match k {
                2 => crate::mpc::engine::System::Zkbpp(rounds),
                k => session_system(k),
            };
            system
                .session_prover(
                    st.owned(),
                    crate::wall::seal::PROTOCOLS
                        .id(system.engine())
                        .expect("sealed moves offer every engine"),
                    w,
                    rng,
                )
                .expect("prover")
        }
    }
}

/// The verifier's side of a live session (first byte: the kind, see [`SESSION_KINDS`]), the
/// rest being the prover's frames.
pub fn session_verifier(data: &[u8]) {
    let data = cap(data, MAX_INPUT);
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let mut ch = mem_channel(rest);
    let mut v = session_verifier_for(which);
    let _ = crate::net::run_verifier(&mut ch, v.as_mut());
}

/// The prover's side of a live session (first byte: the kind, see [`SESSION_KINDS`]), the
/// rest being the verifier's frames.
pub fn session_prover(data: &[u8]) {
    let data = cap(data, MAX_INPUT);
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let _ = run_session_prover(which, rest);
}

/// Runs the prover of session kind `which` against `input`; returns what it sent.
pub fn run_session_prover(which: u8, input: &[u8]) -> Vec<u8> {
    let t = MemTransport::new(input);
    let written = t.written.clone();
    let mut ch = Channel::over(Box::new(t), Deadlines::default());
    let _ = crate::net::run_prover(&mut ch, session_prover_for(which));
    let w = written.lock().expect("not poisoned").clone();
    w
}

// ---------------------------------------------------------------- seals

/// Seal openings ([`crate::mpc::seal::SealOpening::from_bytes`]), then opening the fixed
/// sealed move ([`fixtures::wall_seal`]).
pub fn seal_open(data: &[u8]) {
    let data = cap(data, 1 << 20);
    if let Ok(op) = crate::mpc::seal::SealOpening::from_bytes(data) {
        assert_eq!(op.to_bytes(), data, "one encoding per opening");
    }
    let s = fixtures::wall_seal();
    if let Ok(mv) = crate::wall::seal::open_seal(fixtures::wall_statement(), &s.file, data) {
        assert_eq!(
            mv,
            fixtures::wall_move(),
            "a seal opens to its own move only"
        );
    }
}

// ---------------------------------------------------------------- authentication

/// Key files and identity files.
pub fn auth_keys(data: &[u8]) {
    use crate::auth::keys::{Identity, SecretKey};
    let Some(t) = text(cap(data, 64 << 10)) else {
        return;
    };
    if let Ok(id) = Identity::parse(t) {
        let back = Identity::parse(&id.to_text()).expect("to_text output parses");
        assert_eq!(back.to_text(), id.to_text());
    }
    if let Ok(k) = SecretKey::parse(t) {
        let _ = k.identity().fingerprint();
    }
}

/// The login server's side: the client's requests as [`crate::auth::server::handle`]
/// receives them (same frame limit, same checks), a proof being verified against
/// [`fixtures::login_identity`] without the database.
pub fn auth_request(data: &[u8]) {
    use crate::auth::keys::{check_user_name, verify_login, Identity};
    use crate::auth::server::{Request, AUTH_VERSION, MAX_REQUESTS};
    let data = cap(data, 2 << 20);
    let mut ch = mem_channel(data);
    let max_request = crate::auth::server::max_register_request();
    ch.set_max_frame(max_request);
    ch.set_max_first_frame(max_request);
    let id = fixtures::login_identity();
    for _ in 0..MAX_REQUESTS {
        let Ok(req) = ch.recv::<Request>("request") else {
            return;
        };
        match req {
            Request::Register {
                version,
                user,
                identity,
            } => {
                if version == AUTH_VERSION {
                    let _ = check_user_name(&user);
                    let _ = Identity::parse(&identity);
                }
            }
            Request::Login { version, user } => {
                if version != AUTH_VERSION || check_user_name(&user).is_err() {
                    return;
                }
                ch.set_max_frame(crate::auth::server::max_proof_request());
                let Ok(Request::Proof { proof }) = ch.recv::<Request>("proof") else {
                    return;
                };
                ch.set_max_frame(max_request);
                let _ = verify_login(&id, fixtures::SERVER, &user, &fixtures::NONCE, &proof);
            }
            Request::Whoami { .. } => {}
            Request::Proof { .. } => return,
        }
    }
}

/// The login client's side: the server's replies to register, login and whoami.
pub fn auth_reply(data: &[u8]) {
    use crate::auth::server;
    let data = cap(data, 1 << 20);
    let mut ch = mem_channel(data);
    let _ = server::register(&mut ch, fixtures::USER, &fixtures::login_identity());
    let _ = server::begin_login(&mut ch, fixtures::USER);
    let _ = server::finish_login(&mut ch, Vec::new());
    let _ = server::whoami(&mut ch, &[1; 32]);
}

/// The HTTP login service of this process (`verifier auth serve --http`, in process, on a
/// loopback port; a fresh SQLite file in the temporary directory; failure and pending limits
/// raised so that a long run keeps reaching the routes), started once: its address.
fn http_service() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    ADDR.get_or_init(|| {
        use crate::auth::http::{prepare_db, serve, HttpConfig};
        let dir = std::env::temp_dir().join(format!("zkg-fuzz-http-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let db = crate::auth::DbSpec::Sqlite(dir.join("users.db"));
        let policy = crate::auth::store::Policy {
            max_failures: 1 << 20,
            max_pending_per_peer: 1 << 20,
            max_registrations_per_peer: 1 << 20,
            ..Default::default()
        };
        prepare_db(&db, &policy).expect("the fuzz database");
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = l.local_addr().expect("its address").to_string();
        let cfg = HttpConfig {
            db,
            name: fixtures::SERVER.to_string(),
            policy,
            only: None,
            max_sessions: 4,
            max_connections: 64,
            max_per_address: 64,
            first_message: std::time::Duration::from_secs(1),
            hold: crate::net::limit::DEFAULT_HOLD,
            deadlines: Deadlines {
                message: std::time::Duration::from_secs(1),
                session: std::time::Duration::from_secs(3),
            },
            log: crate::net::server::LogFormat::Quiet,
            allow_origins: vec!["http://fuzz.example".into()],
        };
        std::thread::spawn(move || serve(l, cfg, &STOP));
        addr
    })
}

/// The server's side of the HTTP API: the input is what one client connection sends (any
/// bytes: request heads, bodies, several requests kept alive); the server must answer
/// within its deadlines with well-formed HTTP/1.1 answers whose error bodies are JSON
/// `{"error": …}`, or close, and never panic or stop serving.
pub fn http_server(data: &[u8]) {
    use std::io::{Read, Write};
    let data = cap(data, 64 << 10);
    let addr = http_service();
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        panic!("the HTTP service stopped accepting connections");
    };
    let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(10)));
    let _ = s.set_write_timeout(Some(std::time::Duration::from_secs(10)));
    // the server may answer and close before reading everything
    let _ = s.write_all(data);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut answer = Vec::new();
    if s.take(4 << 20).read_to_end(&mut answer).is_err() {
        // a reset after an early answer, or a slow machine: judge what arrived
    }
    let head_only = data.starts_with(b"HEAD ") || data.windows(6).any(|w| w == b"\nHEAD ");
    check_http_answers(&answer, head_only);
}

/// Asserts that `b` is a sequence of complete HTTP/1.1 answers (HTTP/1.0 ones to a 1.0
/// request; a last one may be cut only where a connection was closed mid-body by a
/// deadline: not here, the bodies are small), each error body a JSON object with an
/// `error` string. `head_only`: answers to `HEAD`
/// carry no body, so lengths are not followed.
pub fn check_http_answers(mut b: &[u8], head_only: bool) {
    while !b.is_empty() {
        let end = b
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("an answer without a complete head: {:?}", excerpt(b)));
        let head = std::str::from_utf8(&b[..end]).expect("an answer head in ASCII");
        let mut lines = head.split("\r\n");
        let status = lines.next().unwrap_or("");
        // hyper answers an HTTP/1.0 request in HTTP/1.0 (RFC 9110 6.2 allows either)
        assert!(
            (status.starts_with("HTTP/1.1 ") || status.starts_with("HTTP/1.0 "))
                && status.len() >= 12
                && (status.len() == 12 || status.as_bytes()[12] == b' '),
            "bad status line {status:?}"
        );
        let code: u16 = status[9..12].parse().expect("a three-digit status");
        assert!((100..600).contains(&code), "status {code}");
        let mut len = None;
        for l in lines {
            let (k, v) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("bad header {l:?}"));
            if k.eq_ignore_ascii_case("content-length") {
                len = Some(v.trim().parse::<usize>().expect("a content length"));
            }
            assert!(
                !k.eq_ignore_ascii_case("transfer-encoding"),
                "the service's answers have lengths"
            );
        }
        let rest = &b[end + 4..];
        if head_only {
            return;
        }
        let n = len.unwrap_or(0);
        assert!(rest.len() >= n, "a body shorter than its length ({code})");
        let body = &rest[..n];
        if code >= 400 && !body.is_empty() {
            let v: serde_json::Value = serde_json::from_slice(body).expect("an error body in JSON");
            assert!(v["error"].is_string(), "an error without its text: {v}");
        }
        b = &rest[n..];
    }
}

fn excerpt(b: &[u8]) -> String {
    String::from_utf8_lossy(&b[..b.len().min(80)]).into_owned()
}

/// The answer [`http_client`]'s fake server gives every connection.
static FAKE_ANSWER: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());

/// A fake HTTP server on a loopback port of this process, started once: each connection's
/// request is read (head and `Content-Length` body), answered with [`FAKE_ANSWER`]'s bytes,
/// and closed.
fn fake_http_server() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    ADDR.get_or_init(|| {
        use std::io::{Read, Write};
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = l.local_addr().expect("its address").to_string();
        std::thread::spawn(move || {
            for s in l.incoming() {
                let Ok(mut s) = s else { continue };
                let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(2)));
                let mut req = Vec::new();
                let mut buf = [0u8; 4096];
                let mut need = usize::MAX;
                while req.len() < need && req.len() < (8 << 20) {
                    match s.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => req.extend_from_slice(&buf[..n]),
                    }
                    if let Some(e) = req.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&req[..e]).to_ascii_lowercase();
                        let body = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        need = e + 4 + body;
                    }
                }
                let answer = FAKE_ANSWER
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone();
                let _ = s.write_all(&answer);
                let _ = s.shutdown(std::net::Shutdown::Both);
            }
        });
        addr
    })
}

/// The client's side of the HTTP API: the input is a server's whole answer (any bytes),
/// given by a fake server on loopback to each call of the `ureq`-based client
/// ([`crate::auth::http_client`]): whoami, the login challenge, the device-code lookup and
/// a registration. Each returns a value or an error; none may panic or hang.
pub fn http_client(data: &[u8]) {
    use crate::auth::http_client as web;
    let data = cap(data, MAX_INPUT);
    let addr = fake_http_server();
    *FAKE_ANSWER.lock().unwrap_or_else(|p| p.into_inner()) = data.to_vec();
    let t = web::Target::parse(&format!("http://{addr}")).expect("a loopback URL");
    let d = Deadlines {
        message: std::time::Duration::from_secs(2),
        session: std::time::Duration::from_secs(4),
    };
    let _ = web::whoami(&t, &d, &[1; 32]);
    let _ = web::begin_login(&t, &d, fixtures::USER);
    let _ = web::lookup_code(&t, &d, fixtures::USER, "BCDF-GHJK");
    let _ = web::register(&t, &d, fixtures::USER, &fixtures::login_identity());
}

/// A target's entry point.
pub type Entry = fn(&[u8]);

/// Every target by name, in the order `fuzz/run.sh` runs them.
pub const TARGETS: &[(&str, Entry)] = &[
    ("peg_puzzle", peg_puzzle),
    ("peg_solution", peg_solution),
    ("proof_peg_iso", proof_peg_iso),
    ("proof_peg_mpc", proof_peg_mpc),
    ("proof_sha256_mpc", proof_sha256_mpc),
    ("proof_wall_move", proof_wall_move),
    ("proof_peg_kkw", proof_peg_kkw),
    ("proof_sha256_kkw", proof_sha256_kkw),
    ("proof_peg_vole", proof_peg_vole),
    ("proof_sha256_vole", proof_sha256_vole),
    ("circuit_bristol", circuit_bristol),
    ("proof_circuit", proof_circuit),
    ("proof_aes128_vole", proof_aes128_vole),
    ("wall_ascii", wall_ascii),
    ("wall_json", wall_json),
    ("wall_record", wall_record),
    ("wall_move", wall_move),
    ("wall_oracle_diff", wall_oracle_diff),
    ("session_verifier", session_verifier),
    ("session_prover", session_prover),
    ("seal_open", seal_open),
    ("auth_keys", auth_keys),
    ("auth_request", auth_request),
    ("auth_reply", auth_reply),
    ("http_server", http_server),
    ("http_client", http_client),
];

/// The entry point of a target, by name.
pub fn target(name: &str) -> Option<Entry> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}
