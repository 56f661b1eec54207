//! `prover tatham prove|connect|id|list …` and `verifier tatham verify|serve|inspect …`:
//! solutions of Simon Tatham's puzzles, read from the collection's own save files, on every
//! engine, as proof files or in live sessions.

use clap::Subcommand;

use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, emit, JsonArg};
use crate::cli::sha256::{check_security, read_proof};
use crate::cli::{Accepted, DeadlineArgs, SecurityArgs, SeedArg, ServeArgs};
use crate::mpc::engine::Required;
use crate::proof_file::{read_input, write_proof, Mode};
use crate::tatham::{self, proof, save, Puzzle};
use crate::{Error, Result};

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Prove that you solved the puzzle of a save file (its position after the saved moves
    /// is a solution), without revealing the solution.
    Prove(ProveArgs),
    /// Show a verifier live that you solved the puzzle of a save file (`verifier tatham
    /// serve` on the same puzzle): the verifier draws the challenges, nothing transferable
    /// is left behind. Fresh randomness every time (no --seed).
    Connect(ConnectArgs),
    /// Print the game ID of a save file's puzzle (`Net:5x5:…`), what a verifier needs.
    Id(IdArgs),
    /// List the supported games, their default parameters and the proof size there.
    List(ListArgs),
}

// The argument structs carry no doc comment of their own: the variant's is the command's
// help text.

#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The save file the game wrote (`-` for stdin).
    savefile: String,
    /// Where to write the proof (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    /// Let zkgames find the solution (games it solves: Pegs) instead of the saved moves.
    #[arg(long)]
    solve: bool,
    #[command(flatten)]
    sec: SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    out: JsonArg,
}

#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    /// Verifier address HOST:PORT, or `-` to talk over stdin/stdout.
    addr: String,
    /// The save file the game wrote (`-` for stdin).
    savefile: String,
    /// Let zkgames find the solution (games it solves: Pegs) instead of the saved moves.
    #[arg(long)]
    solve: bool,
    #[command(flatten)]
    sec: SecurityArgs,
    // the verifier must serve the same engine and parameters
    #[command(flatten)]
    system: SystemArgs,
    /// Save the session transcript (interactive: not transferable evidence).
    #[arg(long, value_name = "FILE")]
    transcript: Option<String>,
    #[command(flatten)]
    deadlines: DeadlineArgs,
}

#[derive(clap::Args, Debug)]
pub struct IdArgs {
    /// The save file (`-` for stdin).
    savefile: String,
    #[command(flatten)]
    out: JsonArg,
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    out: JsonArg,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a proof that the prover solved a puzzle: PUZZLE is a save file of the puzzle
    /// (only its header is read: never its moves) or a game ID `Game:PARAMS:DESC`.
    Verify(VerifyArgs),
    /// Serve live sessions in which provers show they solved a puzzle: PUZZLE is a save
    /// file of the puzzle (only its header is read) or a game ID. The verifier fixes the
    /// engine and the security; challenges come from fresh OS randomness, committed before
    /// the prover's commitments are seen. Serves until Ctrl-C unless --once.
    Serve(ServeCmdArgs),
    /// Describe a Tatham proof file: the game, its game ID, the engine and the size.
    Inspect(InspectArgs),
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// A save file of the puzzle, or its game ID.
    puzzle: String,
    /// The proof file (`-` for stdin).
    proof: String,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Also check a recorded session transcript (`--transcript` of `connect` or `serve`)
    /// for consistency. Such a transcript is NOT evidence: it can be made without a solution.
    #[arg(long)]
    allow_session_transcript: bool,
    #[command(flatten)]
    out: JsonArg,
}

#[derive(clap::Args, Debug)]
pub struct ServeCmdArgs {
    /// A save file of the puzzle, or its game ID.
    puzzle: String,
    #[command(flatten)]
    sec: SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// The proof file (`-` for stdin).
    proof: String,
    #[command(flatten)]
    out: JsonArg,
}

pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Prove(a) => prove(a),
        ProverCmd::Connect(a) => connect(a),
        ProverCmd::Id(a) => id(a),
        ProverCmd::List(a) => list(a),
    }
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Serve(a) => serve(a),
        VerifierCmd::Inspect(a) => inspect(a),
    }
}

/// The puzzle of a verifier's PUZZLE argument: a save file's header, or a game ID.
fn puzzle_arg(arg: &str) -> Result<Box<dyn Puzzle>> {
    let path = std::path::Path::new(arg);
    if arg == "-" || path.is_file() {
        let bytes = read_input(arg, save::MAX_FILE)?;
        if save::is_save_file(&bytes) {
            return save::puzzle(&save::parse_header(&bytes)?);
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::bad(format!("{arg}: neither a save file nor a game ID")))?;
        return tatham::parse_game_id(text.trim());
    }
    if !arg.contains(':') {
        return Err(Error::bad(format!(
            "{}: no such file, and not a game ID (GAME:PARAMS:DESC)",
            crate::files::excerpt(arg)
        )));
    }
    tatham::parse_game_id(arg)
}

/// A solved save file's puzzle and witness, or exit 2 "not solved: …".
pub fn solved(bytes: &[u8], solve: bool) -> Result<(Box<dyn Puzzle>, Vec<bool>)> {
    let f = save::parse(bytes)?;
    let p = save::puzzle(&f.header)?;
    let witness = {
        let pos = if solve {
            if !p.game().solves {
                return Err(Error::bad(format!(
                    "--solve: zkgames does not solve {} puzzles (it solves: {}); solve it in the game and save",
                    p.game().name,
                    tatham::GAMES
                        .iter()
                        .filter(|g| g.solves)
                        .map(|g| g.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            // the saved moves must still be legal: the file is read whole
            save::replay(p.as_ref(), &f)?;
            p.solve()?.ok_or_else(|| {
                Error::bad(format!(
                    "--solve: zkgames found no solution of this {} puzzle",
                    p.game().name
                ))
            })?
        } else {
            save::replay(p.as_ref(), &f)?
        };
        pos.check()
            .map_err(|why| Error::bad(format!("not solved: {why}")))?;
        pos.witness()?
    };
    Ok((p, witness))
}

/// Proves the sample save file of `game` (committed with the sources) with the default
/// engine and a fixed seed: its proof size.
fn sample_size(game: &tatham::Game) -> Result<(usize, usize, usize)> {
    let (p, w) = solved(game.sample.as_bytes(), game.solves)?;
    let system = SystemArgs {
        system: crate::cli::engine::EngineArg::DEFAULT,
        params: Default::default(),
    }
    .system(128)?;
    let mut rng = crate::rng::rng_from(Some(1));
    let bytes = proof::prove(p.as_ref(), &w, &system, b"", &mut rng)?;
    let c = p.circuit()?;
    Ok((bytes.len(), c.n_and(), c.n_inputs()))
}

/// `prover tatham prove`.
fn prove(a: ProveArgs) -> Result<()> {
    let SecurityArgs { security, context } = a.sec;
    let json = a.out.enable();
    check_security(security)?;
    let bytes = read_input(&a.savefile, save::MAX_FILE)?;
    let (p, mut w) = solved(&bytes, a.solve)?;
    let seed = a.seed.seed;
    crate::cli::warn_seed(seed);
    let mut rng = crate::rng::rng_from(seed);
    let system = a.system.system(security)?;
    let r = proof::prove(p.as_ref(), &w, &system, context.as_bytes(), &mut rng);
    w.fill(false);
    let proof_bytes = r?;
    write_proof(&a.output, &proof_bytes)?;
    let c = p.circuit()?;
    let id = tatham::game_id(p.as_ref());
    if json {
        emit(
            true,
            "",
            serde_json::json!({
                "verdict": "proved",
                "game": p.game().name,
                "game_id": id,
                "system": system.engine().label(),
                "proof_bytes": proof_bytes.len(),
                "and_gates": c.n_and(),
                "witness_bits": c.n_inputs(),
            }),
        );
    } else {
        eprintln!(
            "prover: proof that you solved {} ({} AND gates, {} witness bits): {system}, {} bytes",
            crate::files::excerpt_up_to(&id, 60),
            c.n_and(),
            c.n_inputs(),
            proof_bytes.len()
        );
    }
    Ok(())
}

/// `prover tatham connect`: the save file is read and checked (solved) before connecting.
fn connect(a: ConnectArgs) -> Result<()> {
    let SecurityArgs { security, context } = a.sec;
    check_security(security)?;
    crate::files::stdin_at_most_once(&[("ADDR", &a.addr), ("SAVEFILE", &a.savefile)])?;
    let bytes = read_input(&a.savefile, save::MAX_FILE)?;
    let (p, w) = solved(&bytes, a.solve)?;
    let system = a.system.system(security)?;
    let prover = proof::session_prover(
        p.as_ref(),
        w,
        &system,
        context.as_bytes(),
        crate::rng::os_rng(),
    )?;
    let mut ch = crate::cli::connect(&a.addr, &a.deadlines, "verifier tatham serve")?;
    let rec = crate::net::run_prover(&mut ch, prover)?;
    eprintln!(
        "session accepted by the verifier: you solved {} ({system})",
        crate::files::excerpt_up_to(&tatham::game_id(p.as_ref()), 60)
    );
    if let Some(path) = a.transcript.as_deref() {
        write_proof(path, &proof::session_file(&system, &rec)?)?;
        eprintln!("session transcript saved to {path} (interactive: not transferable evidence)");
    }
    Ok(())
}

/// `prover tatham id`.
fn id(a: IdArgs) -> Result<()> {
    let json = a.out.enable();
    let bytes = read_input(&a.savefile, save::MAX_FILE)?;
    let h = save::parse_header(&bytes)?;
    let p = save::puzzle(&h)?;
    let id = tatham::game_id(p.as_ref());
    emit(
        json,
        &id,
        serde_json::json!({"game": p.game().name, "params": p.params(), "game_id": id}),
    );
    Ok(())
}

/// `prover tatham list`.
fn list(a: ListArgs) -> Result<()> {
    let json = a.out.enable();
    let mut lines = vec![format!(
        "{:<10} {:<12} {:>10} {:>10} {:>12}",
        "game", "default", "AND gates", "witness", "proof bytes"
    )];
    let mut rows = Vec::new();
    for g in tatham::GAMES {
        let (size, ands, bits) = sample_size(g)?;
        lines.push(format!(
            "{:<10} {:<12} {:>10} {:>10} {:>12}",
            g.name, g.default_params, ands, bits, size
        ));
        rows.push(serde_json::json!({
            "game": g.name,
            "default_params": g.default_params,
            "and_gates": ands,
            "witness_bits": bits,
            "proof_bytes": size,
            "solves": g.solves,
        }));
    }
    lines.push(
        "(sizes: the committed sample puzzle at the default parameters, VOLE-in-the-head, 128 bits)"
            .into(),
    );
    emit(json, lines.join("\n"), serde_json::json!({ "games": rows }));
    Ok(())
}

/// `verifier tatham verify`.
fn verify(a: VerifyArgs) -> Result<()> {
    let SecurityArgs { security, context } = a.sec;
    let json = a.out.enable();
    check_security(security)?;
    let p = puzzle_arg(&a.puzzle)?;
    let f = read_proof(&a.proof)?;
    f.require_evidence(a.allow_session_transcript)?;
    let t0 = std::time::Instant::now();
    let rep = proof::verify(
        p.as_ref(),
        &f,
        &Required::bits(security),
        context.as_bytes(),
    )?;
    let id = tatham::game_id(p.as_ref());
    let statement = format!("the prover solved {}", crate::files::excerpt_up_to(&id, 60));
    let v = report::Verified::accepted(statement, &rep, &context, t0.elapsed());
    let v = if rep.mode == Mode::Interactive {
        report::Verified {
            verdict: "consistent",
            evidence: false,
            ..v
        }
    } else {
        v
    };
    v.about("game", p.game().name)
        .about("game_id", id)
        .emit(json);
    Ok(())
}

/// `verifier tatham serve`: the statement is built once, before the first connection.
fn serve(a: ServeCmdArgs) -> Result<()> {
    let SecurityArgs { security, context } = a.sec;
    check_security(security)?;
    if a.serve.stdio && a.puzzle == "-" {
        return Err(Error::bad(
            "PUZZLE `-` and --stdio both want stdin: give the puzzle as a file or a game ID",
        ));
    }
    let p = puzzle_arg(&a.puzzle)?;
    let system = a.system.system(security)?;
    let id = tatham::game_id(p.as_ref());
    let short = crate::files::excerpt_up_to(&id, 60);
    // built (and its circuit checked) here, so a bad puzzle fails before listening
    proof::statement(p.as_ref(), context.as_bytes())?;
    let what = format!("Tatham ({system}) on {short}");
    crate::cli::serve_sessions(&a.serve, &what, |ch| {
        let mut v = proof::session_verifier(
            p.as_ref(),
            &system,
            context.as_bytes(),
            crate::rng::os_rng(),
        )?;
        let rec = crate::net::run_verifier(ch, v.as_mut())?;
        Ok(Accepted {
            summary: format!(
                "the prover solved {short} ({})",
                system.as_ran(rec.hello.rounds)
            ),
            transcript: proof::session_file(&system, &rec)?,
        })
    })
}

/// `verifier tatham inspect`.
fn inspect(a: InspectArgs) -> Result<()> {
    let json = a.out.enable();
    let bytes = read_input(
        &a.proof,
        (crate::proof_file::HEADER_LEN + crate::proof_file::MAX_BODY) as u64,
    )?;
    let f = crate::proof_file::ProofFile::from_bytes(&bytes)?;
    let (_, details) = proof::inspect(&f)?;
    let d = crate::cli::describe_header(&f, bytes.len()).then(details);
    emit(
        json,
        d.render().trim_end(),
        report::inspect_object(&f, &bytes, &d),
    );
    Ok(())
}
