//! Boggle: `prover boggle solve|seal|play` and `verifier boggle verify|open|serve` (the live
//! round's two commands are in [`super::boggle_live`]).
//!
//! Exit status: 0 done / accepted; 1 rejected (a find that does not verify, or made for
//! another grid or dictionary; an opening that does not match); 2 bad input (a malformed grid
//! or dictionary, a word not in the dictionary or not on the grid, a file of another kind);
//! 75 the referee is busy.

use clap::{Args, Subcommand};
use serde_json::json;

use crate::cli::boggle_live::{self, PlayArgs, RefereeArgs};
use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, JsonArg};
use crate::mpc::engine::Required;
use crate::proof_file::read_input;
use crate::words::boggle::{self, Dictionary, Grid, Opening, Trie};
use crate::words::dict;
use crate::Result;

/// Largest find file read (ZKB++ proofs of the lowered circuit are large).
pub(crate) const MAX_FILE: u64 = 64 << 20;
/// Largest grid file read.
const MAX_GRID_FILE: u64 = 1 << 10;

/// The grid and dictionary every command names.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// The grid: rows separated by / (abcd/efgh/ijkl/mnop, q is the Qu face; 4×4 or 5×5), or
    /// a file with one row a line (a file of that name is read first).
    pub grid: String,
    /// The dictionary (one word a line, letters a-z; default: the shipped list, SCOWL's
    /// American English words of 3 letters or more).
    #[arg(long, value_name = "FILE")]
    pub dict: Option<String>,
}

impl BoardArgs {
    pub(crate) fn grid(&self) -> Result<Grid> {
        // a file if there is one of that name, else rows separated by `/`
        if self.grid.contains('/') && !std::path::Path::new(&self.grid).is_file() {
            return Grid::parse(&self.grid, "the grid");
        }
        let text = crate::files::read_text(&self.grid, MAX_GRID_FILE, "grid file")?;
        Grid::parse(&text, &format!("grid file {}", self.grid))
    }

    pub(crate) fn dictionary(&self) -> Result<Dictionary> {
        read_dictionary(&self.dict)
    }
}

/// The dictionary `--dict` names, or the shipped one.
pub(crate) fn read_dictionary(path: &Option<String>) -> Result<Dictionary> {
    match path {
        None => Ok(Dictionary::shipped()),
        Some(p) => {
            let text = crate::files::read_text(p, dict::MAX_FILE, "dictionary")?;
            Dictionary::parse(&text, &format!("dictionary {p}"))
        }
    }
}

/// Strength and context of a find: the shared `--security` and `--context`.
pub use crate::cli::SecurityArgs as FindArgs;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Every dictionary word on the grid (adjacent dice, diagonals included, each die once),
    /// one a line, sorted.
    Solve(SolveArgs),
    /// Seal a find: write a proof that you know a dictionary word of N dice on the grid (N is
    /// public, the word is not) and the secret opening that shows it later (mode 0600).
    Seal(SealArgs),
    /// Play a live round refereed by `verifier boggle serve`: seal each word as you find it
    /// (from --word, else typed, one a line), open them when the round ends, print the
    /// scoreboard.
    Play(PlayArgs),
}

/// `prover boggle solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Only words of at least K letters (Qu counts two).
    #[arg(long, value_name = "K", default_value_t = 3)]
    min_length: usize,
    #[command(flatten)]
    out: JsonArg,
}

/// `prover boggle seal`.
#[derive(Args, Debug)]
pub struct SealArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The word found (in the dictionary, on the grid).
    #[arg(long)]
    word: String,
    /// Where to write the sealed find (`-` for stdout).
    #[arg(short = 'o', long = "output", value_name = "FIND.seal")]
    output: String,
    /// Where to write the opening (a file: secret until you show the word).
    #[arg(long, value_name = "FIND.open")]
    opening: String,
    #[command(flatten)]
    find: FindArgs,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    sys: SystemArgs,
    #[command(flatten)]
    out: JsonArg,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a sealed find: exit 0 if it proves a dictionary word of its length on the grid,
    /// 1 if not (or if it was made for another grid or dictionary).
    Verify(VerifyArgs),
    /// Open a find: verify it, check the opening against it and print the word.
    Open(OpenArgs),
    /// Referee a live round on the grid: players (`prover boggle play`) send a sealed find
    /// per word, each verified as it arrives; when the round ends they open them, and every
    /// player gets the scoreboard (a word two players found scores for nobody).
    Serve(RefereeArgs),
}

/// `verifier boggle verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The sealed find.
    seal: String,
    #[command(flatten)]
    find: FindArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// `verifier boggle open`.
#[derive(Args, Debug)]
pub struct OpenArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The sealed find.
    seal: String,
    /// The opening.
    opening: String,
    #[command(flatten)]
    find: FindArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// Runs a `prover boggle` command.
pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Solve(a) => solve(a),
        ProverCmd::Seal(a) => seal(a),
        ProverCmd::Play(a) => boggle_live::play(a),
    }
}

/// Runs a `verifier boggle` command.
pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Open(a) => open(a),
        VerifierCmd::Serve(a) => boggle_live::serve(a),
    }
}

fn solve(a: SolveArgs) -> Result<()> {
    let json = a.out.enable();
    let grid = a.board.grid()?;
    let d = a.board.dictionary()?;
    let trie = Trie::new(&boggle::dice_forms(d.list(), grid.cells()));
    let words: Vec<String> = boggle::solve(&grid, &trie, a.min_length)
        .iter()
        .map(|w| dict::word_of(w))
        .collect();
    let text = words.join("\n");
    report::emit(
        json,
        &text,
        report::verdict(
            "solved",
            json!({"grid": grid.text(), "count": words.len(), "words": words}),
        ),
    );
    if !json {
        eprintln!("{} words on {}", words.len(), grid.text());
    }
    Ok(())
}

/// A word typed by the user, as letters (bad input unless it is letters a-z).
pub(crate) fn word_arg(word: &str) -> Result<dict::Letters> {
    dict::letters_of(word)
        .filter(|w| !w.is_empty())
        .ok_or_else(|| {
            crate::Error::bad(format!(
                "--word {}: give a word of letters a-z",
                crate::files::quote(&crate::files::excerpt(word))
            ))
        })
}

fn seal(a: SealArgs) -> Result<()> {
    let json = a.out.enable();
    let seed = a.seed.seed;
    crate::cli::warn_seed(seed);
    crate::cli::words_seal::secret_opening_path(&a.opening)?;
    let grid = a.board.grid()?;
    let d = a.board.dictionary()?;
    let w = word_arg(&a.word)?;
    let system = a.sys.system(a.find.security)?;
    let t0 = std::time::Instant::now();
    let s = boggle::seal(
        &grid,
        &d,
        &w,
        &system,
        a.find.context.as_bytes(),
        &mut crate::rng::rng_from(seed),
    )?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let (c, _) = boggle::find_circuit(&grid, s.dice, &s.membership);
    crate::cli::words_seal::Written {
        verdict: "sealed",
        digest_key: "find",
        digest: s.opening.find,
        file: &s.file,
        opening: s.opening.to_bytes(),
        prove_ms: ms,
        circuit: &c,
        keys: json!({"dice": s.dice, "class_words": s.membership.words(),
                     "membership": s.membership.describe(), "dictionary": d.list().len()}),
        what: format!("a find of {} dice", s.dice),
        detail: format!(
            "{} dictionary words, {} of that length: {}",
            d.list().len(),
            s.membership.words(),
            s.membership.describe()
        ),
        system: &system,
    }
    .write(&a.output, &a.opening, json)
}

fn verify(a: VerifyArgs) -> Result<()> {
    let json = a.out.enable();
    let grid = a.board.grid()?;
    let d = a.board.dictionary()?;
    let sb = read_input(&a.seal, MAX_FILE)?;
    let t0 = std::time::Instant::now();
    let (head, digest) = boggle::verify(
        &grid,
        &d,
        &sb,
        &Required::bits(a.find.security),
        a.find.context.as_bytes(),
    )?;
    let verify_ms = t0.elapsed().as_secs_f64() * 1e3;
    let (_, proof) = boggle::read_find(&sb)?;
    let system = proof.system();
    let engine = system.engine();
    report::Verified {
        verdict: "accepted",
        statement: format!(
            "the prover found a dictionary word of {} dice on {}",
            head.dice,
            grid.text()
        ),
        system: engine.label(),
        evidence: true,
        rounds: None,
        // the proof's own level (its parameters'), not the level asked for
        security_bits: Some(system.security_bits()),
        proof_bytes: sb.len(),
        and_gates: None,
        context: a.find.context.clone(),
        verify_ms,
        about: Default::default(),
        detail: format!("{engine}, find {}, {} bytes", hex::encode(digest), sb.len()),
        note: String::new(),
    }
    .about("dice", head.dice)
    .about("grid", grid.text())
    .about("find", hex::encode(digest))
    .emit(json);
    Ok(())
}

fn open(a: OpenArgs) -> Result<()> {
    let json = a.out.enable();
    crate::files::stdin_at_most_once(&[("FIND.seal", &a.seal), ("FIND.open", &a.opening)])?;
    let grid = a.board.grid()?;
    let d = a.board.dictionary()?;
    let sb = read_input(&a.seal, MAX_FILE)?;
    let op = Opening::from_bytes(&read_input(&a.opening, 1 << 10)?)?;
    let (head, _) = boggle::verify(
        &grid,
        &d,
        &sb,
        &Required::bits(a.find.security),
        a.find.context.as_bytes(),
    )?;
    let w = dict::word_of(&boggle::open(&grid, &d, &sb, &head, &op)?);
    report::emit(
        json,
        format!("opened: the sealed word is {w}"),
        report::verdict(
            "opened",
            json!({"opened": true, "word": w, "dice": head.dice}),
        ),
    );
    Ok(())
}
