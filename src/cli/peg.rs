//! `prover peg …` and `verifier peg …`.

use crate::details::{Details, Value};
use std::io::IsTerminal;

use clap::{Subcommand, ValueEnum};

use crate::cli::engine::{EngineArg, EngineParams};
use crate::cli::report::{self, emit, JsonArg};
use crate::mpc::engine::{Engine, Required};
use crate::net::{self, SessionRecord};
use crate::peg::board::Puzzle;
use crate::peg::fs::{self, PegIsoProof};
use crate::peg::protocol::{achieved_bits, rounds_for_bits, Opening};
use crate::peg::session::{verify_record, PegProver, PegVerifier};
use crate::proof_file::{self, Mode, ProofFile};
use crate::rng::rng_from;
use crate::Error;
use crate::Result;

/// Largest proof file read (bytes).
const MAX_PROOF_FILE: u64 = 80 << 20;
/// Largest solution file read (bytes).
const MAX_SOLUTION_FILE: u64 = 4 << 20;

/// Which proof system: the paper's isomorphism protocol or one of the engines (for proof
/// files and live sessions alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// Protocol 1 of Bultel (FUN 2022): isomorphisms, soundness error (S−1)/S per round.
    Iso,
    /// An engine over a circuit checking the solution.
    Engine(Engine),
}

impl System {
    /// VOLE-in-the-head, the smallest proofs.
    pub const DEFAULT: System = System::Engine(EngineArg::DEFAULT.0);
}

impl ValueEnum for System {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::OnceLock<Vec<System>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| {
            std::iter::once(System::Iso)
                .chain(Engine::ALL.iter().map(|&e| System::Engine(e)))
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            System::Iso => Some(clap::builder::PossibleValue::new("iso").help(
                "Protocol 1 of Bultel (FUN 2022), exactly: isomorphisms, soundness error (S−1)/S per round",
            )),
            System::Engine(e) => EngineArg(*e).to_possible_value(),
        }
    }
}

impl std::fmt::Display for System {
    /// The name users read ("isomorphism protocol", "ZKB++ protocol"), not the enum's.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            System::Iso => f.write_str("isomorphism protocol"),
            System::Engine(e) => write!(f, "{} protocol", e.name()),
        }
    }
}

pub use crate::cli::SecurityArgs;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Find a solution (DFS with transposition table, symmetries, position classes, pagodas).
    Solve(crate::cli::peg_solve::SolveArgs),
    /// The whole job on one puzzle: solve, prove at the asked security, verify, report.
    Demo(DemoArgs),
    /// Prove knowledge of a solution, writing a non-interactive (Fiat–Shamir) proof file.
    Prove(ProveArgs),
    /// Take part in a live interactive session with `verifier peg serve`. Fresh randomness
    /// every time: there is no --seed for live sessions (two sessions on the same
    /// commitments would reveal the solution).
    Connect(ConnectArgs),
    /// Run the zero-knowledge simulator (Claim 19): make an accepting interactive session
    /// transcript WITHOUT a solution. It shows why session transcripts are not evidence.
    Simulate(SimulateArgs),
}

/// The arguments of `prover peg demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Puzzle file or catalog name; the English central game when omitted.
    puzzle: Option<String>,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Proof system: vole (the default: the smallest proofs), kkw, zkbpp, or iso (the
    /// paper's protocol, exactly).
    #[arg(long, value_enum, default_value_t = System::DEFAULT)]
    system: System,
    #[command(flatten)]
    params: EngineParams,
    /// Also write the proof file here.
    #[arg(short = 'o', long = "output")]
    output: Option<String>,
    #[command(flatten)]
    search: crate::cli::peg_solve::SearchArgs,
}

/// The arguments of `prover peg prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// Puzzle file (board or raw instance), `-` for stdin, or a catalog name (english, tee, ...).
    puzzle: String,
    /// Solution file: a move list (e.g. `d2-d4`) or a 0/1 matrix.
    #[arg(long)]
    solution: String,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Override the round count computed from --security (for experiments).
    #[arg(long)]
    rounds: Option<usize>,
    /// Output proof file, `-` for stdout.
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    /// Proof system: vole (the default: the smallest proofs), kkw, zkbpp, or iso (the
    /// paper's protocol, exactly).
    #[arg(long, value_enum, default_value_t = System::DEFAULT)]
    system: System,
    #[command(flatten)]
    params: EngineParams,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
}

/// The arguments of `prover peg connect`.
#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    /// Puzzle file (board or raw instance), `-` for stdin, or a catalog name.
    puzzle: String,
    /// Solution file.
    #[arg(long)]
    solution: String,
    /// Verifier address HOST:PORT, or `-` to talk over stdin/stdout.
    addr: String,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Save the session transcript (interactive: not transferable evidence).
    #[arg(long)]
    transcript: Option<String>,
    /// Proof system (the verifier must serve the same one): vole (the default), kkw, zkbpp
    /// or iso (the paper's protocol).
    #[arg(long, value_enum, default_value_t = System::DEFAULT)]
    system: System,
    #[command(flatten)]
    params: EngineParams,
    #[command(flatten)]
    deadlines: crate::cli::DeadlineArgs,
}

/// The arguments of `prover peg simulate`.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// Puzzle file (board or raw instance), `-` for stdin, or a catalog name.
    puzzle: String,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Output transcript file, `-` for stdout.
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    /// No progress bar (it shows only on a terminal, after a second).
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Which protocol's sessions to simulate (vole, the default, as for `connect`).
    #[arg(long, value_enum, default_value_t = System::DEFAULT)]
    system: System,
    #[command(flatten)]
    params: EngineParams,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a proof file offline. Exit 0 accepted, 1 rejected, 2 bad input.
    Verify(VerifyArgs),
    /// Print a human summary of a proof file.
    Inspect(InspectArgs),
    /// Serve live interactive sessions as the verifier: challenges from fresh OS randomness,
    /// committed before the prover's commitments are seen. Serves until Ctrl-C unless --once.
    Serve(ServeArgs),
}

/// The arguments of `verifier peg verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Puzzle file (board or raw instance), `-` for stdin, or a catalog name.
    puzzle: String,
    /// Proof file, `-` for stdin.
    proof: String,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Also check a recorded interactive session transcript for consistency (exit 0 if
    /// consistent). Such a transcript is NOT evidence: it can be made without a solution.
    #[arg(long)]
    allow_session_transcript: bool,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier peg inspect`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// Proof file, `-` for stdin.
    proof: String,
    /// Show every round, not only the first five.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier peg serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Puzzle file (board or raw instance), `-` for stdin, or a catalog name.
    puzzle: String,
    #[command(flatten)]
    sec: SecurityArgs,
    /// Proof system expected from the prover: vole (the default), kkw, zkbpp or iso (the
    /// paper's protocol).
    #[arg(long, value_enum, default_value_t = System::DEFAULT)]
    system: System,
    #[command(flatten)]
    params: EngineParams,
    #[command(flatten)]
    serve: crate::cli::ServeArgs,
}

pub use crate::cli::peg_solve::load_puzzle;

fn load_solution(p: &Puzzle, path: &str) -> Result<crate::peg::instance::Matrix> {
    let text = crate::files::read_text(path, MAX_SOLUTION_FILE, "solution")?;
    p.parse_solution(&text)
        .map_err(|e| Error::bad(format!("{path}: invalid solution: {e}")))
}

fn rounds_for(sys: System, bits: u32, s: usize) -> usize {
    match sys {
        System::Iso => rounds_for_bits(bits, s),
        System::Engine(_) => crate::mpc::rounds_for_bits(bits),
    }
}

/// The circuit engine and parameters of a proof system (`None` for the isomorphism
/// protocol); `rounds` overrides ZKB++'s round count.
fn engine_system(
    engine: Option<Engine>,
    bits: u32,
    params: EngineParams,
    rounds: Option<usize>,
) -> Result<Option<crate::mpc::engine::System>> {
    Ok(match (engine, rounds) {
        (None, _) => None,
        (Some(Engine::Zkbpp), Some(r)) => Some(crate::mpc::engine::System::Zkbpp(r)),
        (Some(e), _) => Some(params.system(e, bits)?),
    })
}

/// The MPC engine and parameters of a session system (`None` for the isomorphism protocol).
fn mpc_system(
    sys: System,
    bits: u32,
    params: EngineParams,
) -> Result<Option<crate::mpc::engine::System>> {
    engine_system(sys.engine(), bits, params, None)
}

impl System {
    /// The circuit engine (`None`: the isomorphism protocol).
    fn engine(self) -> Option<Engine> {
        match self {
            System::Iso => None,
            System::Engine(e) => Some(e),
        }
    }
}

/// Runs a `prover peg` command.
pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Solve(a) => crate::cli::peg_solve::run(a),
        ProverCmd::Demo(a) => demo(a),
        ProverCmd::Prove(a) => prove(a),
        ProverCmd::Connect(a) => connect(a),
        ProverCmd::Simulate(a) => simulate(a),
    }
}

/// `prover peg prove`.
fn prove(
    ProveArgs {
        puzzle,
        solution,
        sec,
        rounds,
        output,
        system,
        params,
        seed: crate::cli::SeedArg { seed },
    }: ProveArgs,
) -> Result<()> {
    crate::files::stdin_at_most_once(&[("PUZZLE", &puzzle), ("--solution", &solution)])?;
    crate::cli::warn_seed(seed);
    if let (Some(_), Some(e)) = (rounds, system.engine()) {
        if e != Engine::Zkbpp {
            return Err(Error::bad(format!(
                "--rounds applies to --system iso and --system zkbpp only ({} takes its parameters from --security and --{}-params)",
                e.wire(),
                e.wire()
            )));
        }
    }
    let p = load_puzzle(&puzzle)?;
    let z = load_solution(&p, &solution)?;
    let inst = p.instance();
    let mut rng = rng_from(seed);
    let t0 = std::time::Instant::now();
    let (bytes, what) = prove_file(inst, &z, &sec, system, params, rounds, &mut rng)?;
    let el = t0.elapsed();
    proof_file::write_proof(&output, &bytes)?;
    eprintln!(
        "proved '{}' (N={}, T={}, S={}) with {what}, {} bytes, {:.1} ms{}",
        p.name(),
        inst.n(),
        inst.t(),
        inst.s(),
        bytes.len(),
        el.as_secs_f64() * 1e3,
        if output == "-" {
            String::new()
        } else {
            format!(" -> {output}")
        }
    );
    Ok(())
}

/// `prover peg connect`.
fn connect(
    ConnectArgs {
        puzzle,
        solution,
        addr,
        sec,
        transcript,
        system,
        params,
        deadlines,
    }: ConnectArgs,
) -> Result<()> {
    let p = load_puzzle(&puzzle)?;
    let z = load_solution(&p, &solution)?;
    let inst = p.instance();
    let rounds = rounds_for(system, sec.security, inst.s());
    let ctx = sec.context.as_bytes();
    let mpc = mpc_system(system, sec.security, params)?;
    let mut ch = crate::cli::connect(&addr, &deadlines, "verifier peg serve")?;
    let rng = crate::rng::os_rng();
    let (rec, what) = match &mpc {
        None => {
            let prover = PegProver::new(inst, &z, rounds, ctx, rng)?;
            (
                net::run_prover(&mut ch, Box::new(prover))?,
                format!(
                    "{rounds} rounds, {:.1} bits of security",
                    achieved_bits(rounds, inst.s())
                ),
            )
        }
        Some(sys) => {
            let prover = crate::peg::mpc::session_prover(inst, &z, sys, ctx, rng)?;
            (net::run_prover(&mut ch, prover)?, sys.to_string())
        }
    };
    eprintln!("session accepted by the verifier: {what}");
    if let Some(path) = transcript.as_deref() {
        proof_file::write_proof(path, &session_file(system, &rec)?)?;
        eprintln!("session transcript saved to {path} (interactive: not transferable evidence)");
    }
    Ok(())
}

/// `prover peg simulate`.
fn simulate(
    SimulateArgs {
        puzzle,
        sec,
        output,
        seed: crate::cli::SeedArg { seed },
        quiet,
        system,
        params,
    }: SimulateArgs,
) -> Result<()> {
    crate::cli::warn_seed(seed);
    let p = load_puzzle(&puzzle)?;
    let inst = p.instance();
    if let Some(sys) = mpc_system(system, sec.security, params)? {
        let mut rng = rng_from(seed);
        let bytes =
            crate::peg::mpc::simulate_session_file(inst, &sys, sec.context.as_bytes(), &mut rng)?;
        proof_file::write_proof(&output, &bytes)?;
        eprintln!(
            "simulated an accepting session transcript ({sys}) for '{}' without any solution",
            p.name()
        );
        return Ok(());
    }
    let rounds = rounds_for_bits(sec.security, inst.s());
    let mut rng = rng_from(seed);
    let s = inst.s() as u32;
    let sigmas: Vec<u32> = (0..rounds)
        .map(|_| rand::Rng::gen_range(&mut rng, 1..=s))
        .collect();
    let mut progress = crate::cli::Progress::new(rounds as u64, "simulating rounds");
    if quiet {
        progress.hide();
    }
    let rec = crate::peg::simulate::simulate_session_with_progress(
        inst,
        &sigmas,
        sec.context.as_bytes(),
        &mut rng,
        &mut |k| progress.set(k as u64),
    )?;
    drop(progress);
    let f = ProofFile::new(
        crate::peg::fs::PEG_ISO,
        Mode::Interactive,
        proof_file::encode(&rec),
    );
    proof_file::write_proof(&output, &f.to_bytes())?;
    eprintln!(
        "simulated an accepting {rounds}-round session transcript for '{}' without any solution",
        p.name()
    );
    Ok(())
}

/// A proof file of `system` and a description of what was proven (rounds or parameters,
/// security).
#[allow(clippy::too_many_arguments)]
fn prove_file(
    inst: &crate::peg::instance::Instance,
    z: &crate::peg::instance::Matrix,
    sec: &SecurityArgs,
    system: System,
    params: EngineParams,
    rounds: Option<usize>,
    rng: &mut crate::rng::Rng,
) -> Result<(Vec<u8>, String)> {
    let ctx = sec.context.as_bytes();
    let engine = engine_system(system.engine(), sec.security, params, rounds)?;
    Ok(match engine {
        None => {
            let r = rounds.unwrap_or_else(|| rounds_for_bits(sec.security, inst.s()));
            (
                fs::prove_file(inst, z, r, ctx, rng)?,
                format!(
                    "the isomorphism protocol: {r} rounds, {:.1} bits of security",
                    achieved_bits(r, inst.s())
                ),
            )
        }
        Some(sys) => (
            crate::peg::mpc::prove(inst, z, &sys, ctx, rng)?,
            sys.to_string(),
        ),
    })
}

/// `prover peg demo`: solve, prove and verify in one run.
fn demo(
    DemoArgs {
        puzzle,
        sec,
        system,
        params,
        output,
        search,
    }: DemoArgs,
) -> Result<()> {
    let p = match puzzle.as_deref() {
        Some(path) => load_puzzle(path)?,
        None => crate::peg::catalog::get("english").expect("english is in the catalog"),
    };
    let inst = p.instance();
    eprintln!(
        "puzzle '{}': N = {} holes, T = {} triplets, S = {} rows",
        p.name(),
        inst.n(),
        inst.t(),
        inst.s()
    );
    eprintln!("{}", p.render(inst.first()));
    let (text, summary) = crate::cli::peg_solve::solve_text(
        &p,
        search.budget(),
        !search.no_symmetry,
        !search.quiet && std::io::stderr().is_terminal(),
    )?;
    eprintln!("1. solved: {summary}");
    eprintln!(
        "   solution (secret): {}",
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let z = p.parse_solution(&text)?;
    let mut rng = crate::rng::os_rng();
    let ctx = sec.context.as_bytes();
    let t0 = std::time::Instant::now();
    let (bytes, what) = prove_file(inst, &z, &sec, system, params, None, &mut rng)?;
    let tp = t0.elapsed();
    eprintln!(
        "2. proved with {what}, {} bytes, {:.1} ms",
        bytes.len(),
        tp.as_secs_f64() * 1e3
    );
    let t1 = std::time::Instant::now();
    let f = ProofFile::from_bytes(&bytes)?;
    let bits = match system {
        System::Iso => fs::verify(inst, &fs::decode_proof(&f)?, sec.security, ctx)?.bits,
        _ => crate::peg::mpc::verify(inst, &f, &Required::bits(sec.security), ctx)?.security_bits,
    };
    eprintln!(
        "3. verified in {:.1} ms: ACCEPTED, {bits:.1} bits of security; the verifier saw only the proof",
        t1.elapsed().as_secs_f64() * 1e3
    );
    if let Some(o) = output.as_deref() {
        proof_file::write_proof(o, &bytes)?;
        eprintln!("   proof written to {o}");
    }
    println!(
        "ok: '{}' proved and verified ({what}, {} bytes)",
        p.name(),
        bytes.len()
    );
    Ok(())
}

/// A session record as proof-file bytes (mode interactive).
fn session_file(system: System, rec: &SessionRecord) -> Result<Vec<u8>> {
    match system.engine() {
        None => Ok(ProofFile::new(
            crate::peg::fs::PEG_ISO,
            Mode::Interactive,
            proof_file::encode(rec),
        )
        .to_bytes()),
        Some(engine) => crate::peg::mpc::session_file(engine, rec),
    }
}

/// Runs a `verifier peg` command.
pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Inspect(a) => inspect_cmd(a),
        VerifierCmd::Serve(a) => serve(a),
    }
}

/// `verifier peg verify`.
fn verify(
    VerifyArgs {
        puzzle,
        proof,
        sec,
        allow_session_transcript,
        out,
    }: VerifyArgs,
) -> Result<()> {
    let json = out.enable();
    crate::files::stdin_at_most_once(&[("PUZZLE", &puzzle), ("PROOF", &proof)])?;
    let p = load_puzzle(&puzzle)?;
    let inst = p.instance();
    let bytes = proof_file::read_input(&proof, MAX_PROOF_FILE)?;
    let f = ProofFile::from_bytes(&bytes)?;
    f.require_evidence(allow_session_transcript)?;
    let ctx = sec.context.as_bytes();
    let t0 = std::time::Instant::now();
    let statement = format!("knowledge of a solution of '{}'", p.name());
    let v = match (f.protocol, f.mode) {
        (crate::peg::fs::PEG_ISO, Mode::NonInteractive) => {
            let pr = fs::decode_proof(&f)?;
            let rep = fs::verify(inst, &pr, sec.security, ctx)?;
            report::Verified {
                verdict: "accepted",
                statement,
                system: "isomorphism protocol",
                evidence: true,
                rounds: Some(rep.rounds),
                security_bits: Some(rep.bits),
                proof_bytes: bytes.len(),
                and_gates: None,
                context: sec.context.clone(),
                verify_ms: t0.elapsed().as_secs_f64() * 1e3,
                about: Default::default(),
                detail: format!(
                    "isomorphism protocol, {} rounds, S = {}, {:.1} bits of security, {} bytes",
                    rep.rounds,
                    rep.s,
                    rep.bits,
                    bytes.len()
                ),
                note: String::new(),
            }
        }
        (crate::peg::fs::PEG_ISO, Mode::Interactive) => {
            let rec: SessionRecord = proof_file::decode(&f.body, "session transcript")?;
            let rounds = verify_record(inst, &rec, sec.security, ctx)?;
            report::Verified {
                verdict: "consistent",
                statement,
                system: "isomorphism protocol",
                evidence: false,
                rounds: Some(rounds),
                security_bits: None,
                proof_bytes: bytes.len(),
                and_gates: None,
                context: sec.context.clone(),
                verify_ms: t0.elapsed().as_secs_f64() * 1e3,
                about: Default::default(),
                detail: format!("isomorphism protocol, {rounds} rounds"),
                note: String::new(),
            }
        }
        (protocol, mode) if crate::peg::mpc::PROTOCOLS.engine_of(protocol).is_some() => {
            let rep = crate::peg::mpc::verify(inst, &f, &Required::bits(sec.security), ctx)?;
            let v = report::Verified::accepted(statement, &rep, &sec.context, t0.elapsed());
            if mode == Mode::Interactive {
                report::Verified {
                    verdict: "consistent",
                    evidence: false,
                    ..v
                }
            } else {
                v
            }
        }
        (other, _) => {
            return Err(Error::bad(format!(
                "this is a '{}' proof, not a peg solitaire proof",
                other.name()
            )))
        }
    };
    v.about("puzzle", p.name()).emit(json);
    Ok(())
}

/// `verifier peg inspect`.
fn inspect_cmd(InspectArgs { proof, all, out }: InspectArgs) -> Result<()> {
    let json = out.enable();
    let bytes = proof_file::read_input(&proof, MAX_PROOF_FILE)?;
    let f = ProofFile::from_bytes(&bytes)?;
    let d = inspect(&f, bytes.len(), all)?;
    emit(
        json,
        d.render().trim_end(),
        report::inspect_object(&f, &bytes, &d),
    );
    Ok(())
}

/// `verifier peg serve`.
fn serve(
    ServeArgs {
        puzzle,
        sec,
        system,
        params,
        serve,
    }: ServeArgs,
) -> Result<()> {
    let p = load_puzzle(&puzzle)?;
    let inst = p.instance();
    let ctx = sec.context.as_bytes();
    let mpc = mpc_system(system, sec.security, params)?;
    let what = format!("peg ({}) on '{}'", system, p.name());
    crate::cli::serve_sessions(&serve, &what, |ch| {
        let rng = crate::rng::os_rng();
        let (rec, ran) = match &mpc {
            None => {
                let mut v = PegVerifier::new(inst, sec.security, ctx, rng);
                let rec = net::run_verifier(ch, &mut v)?;
                (rec, None)
            }
            Some(sys) => {
                // ZKB++: the prover may offer more rounds than required
                let mut v = crate::peg::mpc::session_verifier(inst, sys, ctx, rng)?;
                let rec = net::run_verifier(ch, v.as_mut())?;
                let ran = sys.as_ran(rec.hello.rounds);
                (rec, Some(ran))
            }
        };
        Ok(crate::cli::Accepted {
            summary: match ran {
                Some(sys) => format!("the prover knows a solution of '{}' ({sys})", p.name()),
                None => format!(
                    "the prover knows a solution of '{}' ({} rounds, {}, {:.1} bits of security)",
                    p.name(),
                    rec.hello.rounds,
                    system,
                    achieved_bits(rec.hello.rounds as usize, inst.s())
                ),
            },
            transcript: session_file(system, &rec)?,
        })
    })
}

/// A human summary of a proof file: what the header says, then what the body holds.
/// Refuses a body inconsistent with its header.
pub fn inspect(f: &ProofFile, total: usize, all: bool) -> Result<Details> {
    let head = crate::cli::describe_header(f, total);
    Ok(match (f.protocol, f.mode) {
        (crate::peg::fs::PEG_ISO, Mode::NonInteractive) => {
            let p: PegIsoProof = fs::decode_proof(f)?;
            head.then(
                Details::aligned(12)
                    .text("instance", hex::encode(p.instance_digest))
                    .text("context", show_context(&p.context)),
            )
            .then(summarize_rounds(&p.responses, all))
        }
        (crate::peg::fs::PEG_ISO, Mode::Interactive) => {
            let rec: SessionRecord = proof_file::decode(&f.body, "session transcript")?;
            if rec.hello.protocol != crate::peg::fs::PEG_ISO.0 {
                return Err(Error::bad(format!(
                    "inconsistent file: the header says the isomorphism protocol, the session inside says protocol {}",
                    rec.hello.protocol
                )));
            }
            let roots: Vec<crate::commit::Digest> =
                proof_file::decode(&rec.commitments, "commitments")?;
            let resp: Vec<crate::peg::protocol::RoundResponse> =
                proof_file::decode(&rec.responses, "responses")?;
            if roots.len() != resp.len() || roots.len() != rec.hello.rounds as usize {
                return Err(Error::bad(format!(
                    "inconsistent session transcript: {} rounds announced, {} commitments, {} responses",
                    rec.hello.rounds,
                    roots.len(),
                    resp.len()
                )));
            }
            let commitments = roots
                .iter()
                .enumerate()
                .take(if all { usize::MAX } else { 5 })
                .map(|(i, r)| {
                    format!(
                        "  round {:>5} commitment (Merkle root) {}",
                        i + 1,
                        hex::encode(r)
                    )
                })
                .collect();
            head.then(
                Details::aligned(12)
                    .text("instance", hex::encode(rec.hello.statement))
                    .text("context", show_context(&rec.hello.context))
                    .listing("commitments", commitments),
            )
            .then(summarize_rounds(&resp, all))
        }
        (p, _) if crate::peg::mpc::PROTOCOLS.engine_of(p).is_some() => {
            head.then(crate::peg::mpc::inspect(f)?)
        }
        (p, _) if crate::mpc::sha256::PROTOCOLS.engine_of(p).is_some() => {
            head.then(crate::mpc::sha256::inspect(f)?)
        }
        (p, _) if crate::wall::seal::PROTOCOLS.engine_of(p).is_some() => {
            return Err(Error::bad(
                "this is a sealed Wall Game move: use `verifier wall inspect`",
            ))
        }
        (p, _) if crate::mpc::lowmc::PROTOCOLS.engine_of(p).is_some() => {
            head.then(crate::mpc::lowmc::inspect(f)?)
        }
        (p, _) => {
            return Err(Error::bad(format!(
                "this is a '{}' proof, which `verifier peg inspect` does not read",
                p.name()
            )))
        }
    })
}

/// A context string as inspect shows it: quoted, escaped, at most a short excerpt.
fn show_context(c: &[u8]) -> String {
    format!("\"{}\"", crate::files::excerpt(&String::from_utf8_lossy(c)))
}

/// The rounds of an isomorphism proof or transcript: counts, then the first rounds' openings
/// (all of them with `all`).
fn summarize_rounds(resp: &[crate::peg::protocol::RoundResponse], all: bool) -> Details {
    use crate::commit::commit;
    use crate::peg::protocol::{encode_triplet, TAG_ROW, TAG_TRIPLET};
    let iso = resp
        .iter()
        .filter(|r| matches!(r.opening, Opening::Iso { .. }))
        .count();
    // every number below comes from the file: widened (u64) or saturating, never `+`/`*`
    // on the decoded width (a crafted γ = u32::MAX once printed "γ = 0", or panicked)
    let path: u64 = resp.iter().map(|r| r.path.len() as u64).sum();
    let mut d = Details::aligned(12).count("rounds", resp.len() as u64, resp.len().to_string());
    if let Some(max_sigma) = resp.iter().map(|r| r.sigma).max() {
        let moves = resp.len() - iso;
        d = d
            .count(
                "openings",
                iso as u64,
                format!(
                    "{iso} isomorphism (σ = S), {moves} {} (σ < S); largest σ seen {max_sigma}",
                    if moves == 1 { "move" } else { "moves" }
                ),
            )
            .also("move openings", Value::Count(moves as u64))
            .also("largest sigma", Value::Count(max_sigma.into()));
    }
    d = d.count(
        "merkle",
        path,
        format!(
            "{path} sibling {} ({} bytes)",
            if path == 1 { "hash" } else { "hashes" },
            path.saturating_mul(32)
        ),
    );
    let mut lines = Vec::new();
    for (i, r) in resp
        .iter()
        .enumerate()
        .take(if all { usize::MAX } else { 5 })
    {
        match &r.opening {
            Opening::Iso {
                triplets,
                triplet_keys,
                first,
                ..
            } => {
                let c = commit(TAG_ROW, &first.key, &first.bits);
                // a malformed proof may open no triplet at all: show what is there
                let t0 = match (triplet_keys.first(), triplets.first()) {
                    (Some(k), Some(t)) => hex::encode(commit(TAG_TRIPLET, k, &encode_triplet(t))),
                    _ => "(no triplet opened)".to_string(),
                };
                lines.push(format!(
                    "  round {:>5}: σ = {} (isomorphism), commit(t'_1) = {t0}, commit(Z'[1]) = {}",
                    i + 1,
                    r.sigma,
                    hex::encode(c)
                ));
            }
            Opening::Move {
                gamma,
                triplet,
                triplet_key,
                before,
                ..
            } => {
                let ct = commit(TAG_TRIPLET, triplet_key, &encode_triplet(triplet));
                let cb = commit(TAG_ROW, &before.key, &before.bits);
                lines.push(format!(
                    "  round {:>5}: σ = {}, γ = {}, commit(t'_γ) = {}, commit(Z'[σ]) = {}",
                    i + 1,
                    r.sigma,
                    u64::from(*gamma) + 1,
                    hex::encode(ct),
                    hex::encode(cb)
                ));
            }
        }
    }
    if !all && resp.len() > 5 {
        lines.push(format!("  … {} more rounds (use --all)", resp.len() - 5));
    }
    d.listing("openings shown", lines)
}
