//! Sealed Wall Game moves on the command line: `prover wall seal|connect|demo` and
//! `verifier wall verify|open|inspect|serve`.
//!
//! POSITION is anything `verifier wall check` reads (a position file, or a game record for
//! its final position); the mover is the player to move unless `--player K` says otherwise.
//! Exit status: 0 accepted / opened; 1 rejected (an illegal move refused before sealing, a
//! seal that does not verify, an opening that does not match); 2 bad input.

use clap::{Args, Subcommand};

use crate::cli::engine::SystemArgs;
use crate::cli::{Accepted, DeadlineArgs};
use crate::mpc::engine::{self, Required, System};
use crate::mpc::security_bits;
use crate::mpc::session::record_file;
use crate::net;
use crate::proof_file::{self, read_input, write_proof, Mode, ProofFile};
use crate::wall::format;
use crate::wall::game::{Game, Move};
use crate::wall::notation::{move_name, move_to_json, parse_move_json, Notation};
use crate::wall::record::{read_source, Source};
use crate::wall::seal::{self, MoveStatement};
use crate::Error;
use crate::Result;

/// Largest seal or opening file read.
const MAX_SEAL_FILE: u64 = 16 << 20;

/// The statement's public parts, shared by every command.
#[derive(Args, Debug, Clone)]
pub struct StatementArgs {
    /// Position file or game record (its final position), `-` for stdin.
    pub position: String,
    /// The mover, 1-based (default: the player to move).
    #[arg(long, value_name = "K")]
    pub player: Option<u64>,
    #[command(flatten)]
    pub sec: crate::cli::SecurityArgs,
}

impl StatementArgs {
    fn load(&self) -> Result<(Game, MoveStatement)> {
        let src = read_source(&self.position)?;
        let game = src.game()?;
        let n = game.players().len() as u64;
        let player = match self.player {
            None => game.to_move(),
            Some(k) if (1..=n).contains(&k) => k as usize - 1,
            Some(k) => {
                return Err(Error::bad(format!(
                    "--player {k}: the game has players 1 to {n}"
                )))
            }
        };
        // the next move of a game record is bound to that game and ply (4.9), with the
        // record's SealContext tag unless --context says otherwise
        let context = match &src {
            Source::Record { record, .. } => {
                let ctx = match (self.sec.context.as_str(), record.tag("SealContext")) {
                    ("", Some(t)) => t,
                    (c, _) => c,
                };
                seal::record_context(record, record.moves().len() + 1, ctx.as_bytes())?
            }
            Source::File(_) => self.sec.context.as_bytes().to_vec(),
        };
        let st = MoveStatement::new(&game, player, &context)?;
        Ok((game, st))
    }
}

fn parse_move(game: &Game, s: &str) -> Result<Move> {
    if s.trim_start().starts_with('{') {
        parse_move_json(s)
    } else {
        Notation::for_position(game.position())?.parse_move(s)
    }
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Seal a move: write a proof that it is legal (SEALED, public) and what opens it
    /// (OPENING, secret, mode 0600). An illegal move is refused before any proving (exit 1).
    Seal(SealArgs),
    /// Prove a hidden move legal in a live session with `verifier wall serve`.
    Connect(ConnectArgs),
    /// Play a short game on the standard 8×8 board between a player who walls its opponent's
    /// shortest path and one who walks: every move sealed, verified, then opened.
    Demo(DemoArgs),
}

/// The arguments of `prover wall seal seal`.
#[derive(clap::Args, Debug)]
pub struct SealArgs {
    #[command(flatten)]
    st: StatementArgs,
    /// The move in standard notation (`Ce4.>f3`, `---` for none).
    #[arg(long = "move", value_name = "MOVE", allow_hyphen_values = true)]
    mv: String,
    /// Where to write the seal (`-` for stdout).
    #[arg(short = 'o', long = "output", value_name = "SEALED")]
    output: String,
    /// Where to write the opening (a file: it is secret until you open the seal).
    #[arg(long, value_name = "OPENING")]
    opening: String,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    sys: SystemArgs,
}

/// The arguments of `prover wall seal connect`.
#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    #[command(flatten)]
    st: StatementArgs,
    /// The move in standard notation.
    #[arg(long = "move", value_name = "MOVE", allow_hyphen_values = true)]
    mv: String,
    /// Verifier address HOST:PORT, or `-` for stdin/stdout.
    addr: String,
    #[command(flatten)]
    deadlines: DeadlineArgs,
    #[command(flatten)]
    sys: SystemArgs,
}

/// The arguments of `prover wall seal demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Board side (rows = columns).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(3..=20))]
    size: u32,
    /// Most moves to play.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=200))]
    moves: u32,
    #[command(flatten)]
    security: crate::cli::SecurityArg,
    #[command(flatten)]
    sys: SystemArgs,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a sealed move: exit 0 if the hidden move is legal in POSITION, 1 if not; prints
    /// the seal's digest. Learns nothing else about the move.
    Verify(VerifyArgs),
    /// Open a sealed move: exit 0 if OPENING matches SEALED, printing the move and the new
    /// position; 1 if it does not match.
    Open(OpenArgs),
    /// Summarise a seal file (no position needed, nothing verified).
    Inspect(InspectArgs),
    /// Serve live sessions in which a prover shows a hidden move legal in POSITION.
    Serve(ServeArgs),
}

/// The arguments of `verifier wall seal verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    st: StatementArgs,
    /// The seal (`-` for stdin).
    sealed: String,
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
}

/// The arguments of `verifier wall seal open`.
#[derive(clap::Args, Debug)]
pub struct OpenArgs {
    #[command(flatten)]
    st: StatementArgs,
    /// The seal.
    sealed: String,
    /// The opening.
    opening: String,
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
}

/// The arguments of `verifier wall seal inspect`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// The seal (`-` for stdin).
    sealed: String,
    #[command(flatten)]
    out: crate::cli::report::JsonArg,
}

/// The arguments of `verifier wall seal serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    st: StatementArgs,
    #[command(flatten)]
    serve: crate::cli::ServeArgs,
    /// The system (and KKW parameters) provers must use.
    #[command(flatten)]
    sys: SystemArgs,
}

fn digest_hex(d: &[u8; 32]) -> String {
    hex::encode(d)
}

/// Runs a `prover wall` command.
pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Seal(a) => seal(a),
        ProverCmd::Connect(a) => connect(a),
        ProverCmd::Demo(a) => demo_cmd(a),
    }
}

/// `prover wall seal seal`.
fn seal(
    SealArgs {
        st,
        mv,
        output,
        opening,
        seed: crate::cli::SeedArg { seed },
        sys,
    }: SealArgs,
) -> Result<()> {
    crate::cli::warn_seed(seed);
    let (game, ms) = st.load()?;
    let mv = parse_move(&game, &mv)?;
    let system = sys.system(st.sec.security)?;
    let t0 = std::time::Instant::now();
    let s = seal::seal_move(&ms, &mv, &system, &mut crate::rng::rng_from(seed))?;
    let el = t0.elapsed();
    if opening == "-" {
        return Err(Error::bad(
            "--opening -: the opening is secret; give a file path",
        ));
    }
    crate::files::Output::SECRET_BINARY.write(&opening, &s.opening)?;
    write_proof(&output, &s.file)?;
    eprintln!(
        "sealed a legal move of player {}: {system}, {} bytes, {:.1} ms; seal {}",
        ms.player() + 1,
        s.file.len(),
        el.as_secs_f64() * 1e3,
        digest_hex(&s.digest)
    );
    Ok(())
}

/// `prover wall seal connect`.
fn connect(
    ConnectArgs {
        st,
        mv,
        addr,
        deadlines,
        sys,
    }: ConnectArgs,
) -> Result<()> {
    let (game, ms) = st.load()?;
    let mv = parse_move(&game, &mv)?;
    let w = ms.witness(&mv)?;
    let system = sys.system(st.sec.security)?;
    let mut ch = crate::cli::connect(&addr, &deadlines, "verifier wall serve")?;
    let p = system.session_prover(
        ms.owned(),
        seal::PROTOCOLS.id(system.engine())?,
        w,
        crate::rng::os_rng(),
    )?;
    net::run_prover(&mut ch, p)?;
    eprintln!("session accepted: the verifier knows the move is legal, not which it is ({system})");
    Ok(())
}

/// `prover wall seal demo`.
fn demo_cmd(
    DemoArgs {
        size,
        moves,
        security: crate::cli::SecurityArg { security },
        sys,
    }: DemoArgs,
) -> Result<()> {
    demo(size, moves, &sys.system(security)?)
}

/// Runs a `verifier wall` seal command.
pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Open(a) => open(a),
        VerifierCmd::Inspect(a) => inspect(a),
        VerifierCmd::Serve(a) => serve(a),
    }
}

/// `verifier wall seal verify`.
fn verify(VerifyArgs { st, sealed, json }: VerifyArgs) -> Result<()> {
    crate::cli::report::enable_json(json);
    let (_, ms) = st.load()?;
    let bytes = read_input(&sealed, MAX_SEAL_FILE)?;
    let t0 = std::time::Instant::now();
    let d = seal::verify_seal(&ms, &bytes, &Required::bits(st.sec.security))?;
    let system = seal::read_seal(&bytes)?.system();
    crate::cli::report::Verified {
        verdict: "accepted",
        statement: format!("player {} has sealed a legal move", ms.player() + 1),
        system: system.engine().label(),
        evidence: true,
        rounds: Some(system.repetitions()),
        security_bits: Some(system.security_bits()),
        proof_bytes: bytes.len(),
        and_gates: Some(ms.circuit().n_and()),
        context: st.sec.context.clone(),
        verify_ms: t0.elapsed().as_secs_f64() * 1e3,
        about: Default::default(),
        detail: format!("{system}, {} bytes", bytes.len()),
        note: format!(
            "; seal digest {} (position, player, context and seal)",
            digest_hex(&d)
        ),
    }
    .about("player", ms.player() + 1)
    .about("seal", digest_hex(&d))
    .emit(json);
    Ok(())
}

/// `verifier wall seal open`.
fn open(
    OpenArgs {
        st,
        sealed,
        opening,
        json,
    }: OpenArgs,
) -> Result<()> {
    crate::cli::report::enable_json(json);
    let (game, ms) = st.load()?;
    let sb = read_input(&sealed, MAX_SEAL_FILE)?;
    let ob = read_input(&opening, MAX_SEAL_FILE)?;
    let mv = seal::open_seal_at(&ms, &sb, &ob, &Required::bits(st.sec.security))?;
    let next = game
        .after(ms.player(), &mv)
        .map_err(|e| Error::rejected(format!("the opened move is illegal: {e}")))?;
    let pos = game.position();
    let name = move_name(pos.rows(), pos.cols(), &mv);
    if json {
        let parse = |t: &str| {
            serde_json::from_str::<serde_json::Value>(t).unwrap_or(serde_json::Value::Null)
        };
        let obj = serde_json::json!({
            "verdict": "opened",
            "opened": true,
            "player": ms.player() + 1,
            "move": name,
            "move_json": parse(&move_to_json(&mv)),
            "position": parse(&format::to_json_file(next.position(), Some(next.to_move()))),
        });
        println!("{obj}");
    } else {
        println!("opened: player {} played {name}", ms.player() + 1);
        if let Some(o) = next.describe_outcome() {
            println!("# result {}: {o}", next.result_text());
        }
        print!(
            "{}",
            format::to_ascii_file(next.position(), Some(next.to_move()))
        );
    }
    Ok(())
}

/// `verifier wall seal inspect`.
fn inspect(InspectArgs { sealed, out }: InspectArgs) -> Result<()> {
    let json = out.enable();
    let bytes = read_input(&sealed, MAX_SEAL_FILE)?;
    let (f, d) = inspect_seal(&bytes)?;
    crate::cli::report::emit(
        json,
        d.render().trim_end(),
        crate::cli::report::inspect_object(&f, &bytes, &d),
    );
    Ok(())
}

/// `verifier wall seal serve`.
fn serve(ServeArgs { st, serve, sys }: ServeArgs) -> Result<()> {
    let (_, ms) = st.load()?;
    let system = sys.system(st.sec.security)?;
    let protocol = seal::PROTOCOLS.id(system.engine())?;
    let what = format!("sealed-move (player {}, {system})", ms.player() + 1);
    crate::cli::serve_sessions(&serve, &what, |ch| {
        let mut v = engine::session_verifier(&system, ms.owned(), protocol, crate::rng::os_rng());
        let rec = net::run_verifier(ch, v.as_mut())?;
        // the engine that ran, with the rounds a ZKB++ prover chose (it may offer more)
        let ran = system.as_ran(rec.hello.rounds);
        Ok(Accepted {
            summary: format!(
                "player {} has a legal move ({ran}); which one stays hidden",
                ms.player() + 1,
            ),
            transcript: record_file(protocol, &rec),
        })
    })
}

/// The text of `verifier wall inspect` for a seal file's bytes (nothing verified), and the
/// parsed container. Every number shown comes from the file: shown as read, never computed
/// on (the fuzz target `proof_wall_move` runs this on arbitrary bytes).
pub fn inspect_seal(bytes: &[u8]) -> Result<(ProofFile, crate::details::Details)> {
    let f = ProofFile::from_bytes(bytes)?;
    if seal::PROTOCOLS.engine_of(f.protocol).is_none() {
        f.expect_protocol(crate::wall::seal::WALL_MOVE)?;
    }
    let system = match f.mode {
        Mode::NonInteractive => Some(seal::read_seal(bytes)?.system()),
        Mode::Interactive => {
            let r: net::SessionRecord = proof_file::decode(&f.body, "session record")?;
            (f.protocol == crate::wall::seal::WALL_MOVE)
                .then_some(System::Zkbpp(r.hello.rounds as usize))
        }
    };
    use crate::details::Details;
    let d = Details::aligned(11)
        .text("protocol", f.protocol.name())
        .text(
            "mode",
            match f.mode {
                Mode::NonInteractive => "seal (non-interactive, transferable; opens later)",
                Mode::Interactive => "interactive session transcript: NOT evidence",
            },
        );
    let d = match system {
        Some(System::Zkbpp(rounds)) => d.count(
            "rounds",
            rounds as u64,
            format!("{rounds} ({:.1} bits of security)", security_bits(rounds)),
        ),
        // the parameters come from the file: checked before any arithmetic on them (the
        // cost formula allocates τ + 1 terms)
        Some(system) => match system.check() {
            Ok(()) => d.text(
                "params",
                format!(
                    "{} with {} ({:.1} bits of security)",
                    system.engine(),
                    system.params_text(),
                    system.security_bits()
                ),
            ),
            Err(e) => d.text(
                "params",
                format!(
                    "{} with {}, invalid: {e}",
                    system.engine(),
                    system.params_text()
                ),
            ),
        },
        None => d.text(
            "params",
            format!(
                "{} session (parameters fixed by the verifier)",
                seal::PROTOCOLS
                    .engine_of(f.protocol)
                    .map_or("KKW", |e| e.name())
            ),
        ),
    };
    let d = d
        .count("size", bytes.len() as u64, format!("{} bytes", bytes.len()))
        .then(Details::new().text(
            "file sha256",
            format!(
                "{} (of the file's bytes: not the seal digest `verify` prints, which covers the position too)",
                hex::encode(<sha2::Sha256 as sha2::Digest>::digest(bytes))
            ),
        ));
    Ok((f, d))
}

/// Checks the sealed moves of a record: for ply `k` (1-based), `dir/k.seal` must verify
/// against the position before ply `k` and `dir/k.open` must open it to the recorded move.
/// A seal for the ply after the last is the adjourned move: verified, and played if its
/// opening is there. Returns report lines and, when that last move was opened, the game
/// after it.
pub fn check_record_seals(
    rec: &crate::wall::record::Record,
    dir: &std::path::Path,
    context: &str,
) -> Result<(String, Option<Game>)> {
    use std::fmt::Write;
    if !dir.is_dir() {
        return Err(Error::bad(format!(
            "{}: the seals folder does not exist",
            dir.display()
        )));
    }
    let mut out = String::new();
    let mut game = rec.start().clone();
    let read = |k: usize, ext: &str| -> Result<Option<Vec<u8>>> {
        let p = dir.join(format!("{k}.{ext}"));
        if !p.exists() {
            return Ok(None);
        }
        read_input(&p.to_string_lossy(), MAX_SEAL_FILE).map(Some)
    };
    let n = rec.moves().len();
    let req = Required::bits(128);
    let mut sealed = 0;
    for k in 1..=n + 1 {
        let Some(sb) = read(k, "seal")? else {
            if k <= n {
                game = game
                    .after(game.to_move(), &rec.moves()[k - 1])
                    .map_err(|e| Error::rejected(format!("move {k}: {e}")))?;
            }
            continue;
        };
        sealed += 1;
        let p = game.to_move();
        let ms = seal::record_context(rec, k, context.as_bytes())
            .and_then(|c| MoveStatement::new(&game, p, &c))
            .map_err(|e| Error::bad(format!("move {k}: {e}")))?;
        let d = seal::verify_seal(&ms, &sb, &req).map_err(|e| {
            Error::rejected(format!(
                "move {k} (player {}): the seal does not verify: {e}",
                p + 1
            ))
        })?;
        let opened = match read(k, "open")? {
            Some(ob) => Some(seal::open_seal(&ms, &sb, &ob).map_err(|e| {
                Error::rejected(format!(
                    "move {k}: the opening does not match its seal: {e}"
                ))
            })?),
            None => None,
        };
        let pos = game.position();
        match (k <= n, opened) {
            (true, Some(mv)) => {
                if mv != rec.moves()[k - 1] {
                    return Err(Error::rejected(format!(
                        "move {k}: the seal opens to {}, but the record plays {}",
                        move_name(pos.rows(), pos.cols(), &mv),
                        move_name(pos.rows(), pos.cols(), &rec.moves()[k - 1])
                    )));
                }
                let _ = writeln!(out, "# move {k} (player {}): sealed {}…, opened: {}", p + 1, &digest_hex(&d)[..16], move_name(pos.rows(), pos.cols(), &mv));
                game = game.after(p, &mv).map_err(|e| Error::rejected(format!("move {k}: {e}")))?;
            }
            (true, None) => {
                return Err(Error::rejected(format!(
                    "move {k}: sealed, but the record plays it with no opening ({}/{k}.open is missing)",
                    dir.display()
                )))
            }
            (false, Some(mv)) => {
                let _ = writeln!(out, "# move {k} (player {}): sealed {}…, opened: {} (played after the record)", p + 1, &digest_hex(&d)[..16], move_name(pos.rows(), pos.cols(), &mv));
                game = game.after(p, &mv).map_err(|e| Error::rejected(format!("move {k}: {e}")))?;
                return Ok((out, Some(game)));
            }
            (false, None) => {
                let _ = writeln!(out, "# move {k} (player {}): sealed {}…, legal, not yet opened: the game is adjourned", p + 1, &digest_hex(&d)[..16]);
            }
        }
    }
    if sealed == 0 {
        let _ = writeln!(out, "# no sealed moves in {}", dir.display());
    }
    Ok((out, None))
}

/// Shortest path (cells) from `a` to `b` on the position's free slots, if any.
fn shortest_path(game: &Game, a: (u32, u32), b: (u32, u32)) -> Option<Vec<(u32, u32)>> {
    let pos = game.position();
    let bg = pos.graph();
    let cols = pos.cols();
    let (s, t) = (pos.node(a), pos.node(b));
    let n = bg.graph.n();
    let mut prev = vec![u32::MAX; n];
    prev[s as usize] = s;
    let mut q = std::collections::VecDeque::from([s]);
    while let Some(v) = q.pop_front() {
        if v == t {
            let mut path = vec![v];
            let mut x = v;
            while x != s {
                x = prev[x as usize];
                path.push(x);
            }
            path.reverse();
            return Some(path.into_iter().map(|v| (v / cols, v % cols)).collect());
        }
        for &(w, _) in bg.graph.neighbors(v) {
            if prev[w as usize] == u32::MAX {
                prev[w as usize] = v;
                q.push_back(w);
            }
        }
    }
    None
}

/// The slot between two adjacent cells.
fn slot(a: (u32, u32), b: (u32, u32)) -> crate::wall::board::Wall {
    use crate::wall::board::{Dir, Wall};
    if a.0 == b.0 {
        Wall::new(a.0, a.1.min(b.1), Dir::R)
    } else {
        Wall::new(a.0.min(b.0), a.1, Dir::D)
    }
}

/// Player 1 walls player 2's cat's shortest path to player 1's mouse (the first legal
/// slots along it); player 2 walks its cat two steps along its shortest path to player 1's
/// mouse.
fn demo_move(game: &Game) -> Move {
    let me = game.to_move();
    let other = 1 - me;
    let ps = game.players();
    let legal = |mv: &Move| game.check(me, mv).is_ok();
    if me == 0 {
        let mouse = ps[0].mouse.expect("cat-and-mouse");
        let mut walls = Vec::new();
        if let Some(path) = shortest_path(game, ps[other].cat, mouse) {
            for w in path.windows(2).map(|p| slot(p[0], p[1])) {
                let mut t = walls.clone();
                t.push(w);
                if walls.len() < 2 && legal(&Move::new(None, None, t.clone())) {
                    walls = t;
                }
            }
        }
        Move::new(None, None, walls)
    } else {
        let target = ps[other].mouse.expect("cat-and-mouse");
        match shortest_path(game, ps[me].cat, target) {
            Some(p) if p.len() > 1 => {
                let to = p[p.len().min(3) - 1];
                let mv = Move::new(Some(to), None, vec![]);
                if legal(&mv) {
                    mv
                } else {
                    Move::none()
                }
            }
            _ => Move::none(),
        }
    }
}

fn demo(size: u32, moves: u32, system: &System) -> Result<()> {
    use crate::wall::board::Variant;
    let mut game = Game::standard(Variant::CatAndMouse, size, size)?;
    let req = Required::reached_by(system);
    let mut rng = crate::rng::os_rng();
    let n = Notation::for_position(game.position())?;
    println!(
        "Wall Game demo: {size}x{size} Standard, every move sealed ({system}), verified by the opponent, then opened"
    );
    print!("{}", format::to_ascii(game.position()));
    let (mut total_bytes, mut count) = (0usize, 0u32);
    for ply in 0..moves {
        if game.describe_outcome().is_some() {
            break;
        }
        let p = game.to_move();
        let mv = demo_move(&game);
        let ms = MoveStatement::new(&game, p, format!("demo ply {}", ply + 1).as_bytes())?;
        let t0 = std::time::Instant::now();
        let s = seal::seal_move(&ms, &mv, system, &mut rng)?;
        let t_seal = t0.elapsed();
        let t1 = std::time::Instant::now();
        seal::verify_seal(&ms, &s.file, &req)?;
        let t_verify = t1.elapsed();
        let t2 = std::time::Instant::now();
        let opened = seal::open_seal(&ms, &s.file, &s.opening)?;
        let t_open = t2.elapsed();
        if opened != mv {
            return Err(Error::rejected("the opening revealed another move"));
        }
        println!(
            "{:>3}. player {}: {:<14} seal {:>6} B  seal {:>5.1} ms  verify {:>5.1} ms  open {:>5.1} ms  ({}…)",
            ply + 1,
            p + 1,
            n.write_move(&mv).unwrap_or_default(),
            s.file.len(),
            t_seal.as_secs_f64() * 1e3,
            t_verify.as_secs_f64() * 1e3,
            t_open.as_secs_f64() * 1e3,
            &digest_hex(&s.digest)[..12]
        );
        total_bytes += s.file.len();
        count += 1;
        game = game
            .after(p, &mv)
            .map_err(|e| Error::rejected(format!("demo move illegal: {e}")))?;
    }
    println!("final position:");
    print!(
        "{}",
        format::to_ascii_file(game.position(), Some(game.to_move()))
    );
    match game.describe_outcome() {
        Some(o) => println!("result {}: {o}", game.result_text()),
        None => println!("the game goes on: player {} to move", game.to_move() + 1),
    }
    println!(
        "ok: {} sealed, verified and opened; {} bytes per seal on average",
        crate::files::count(count as u64, "move"),
        total_bytes / count.max(1) as usize
    );
    Ok(())
}
