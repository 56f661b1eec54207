//! Boggle: `prover boggle solve|seal` and `verifier boggle verify|open`.
//!
//! Exit status: 0 done / accepted; 1 rejected (a find that does not verify, or made for
//! another grid or dictionary; an opening that does not match); 2 bad input (a malformed grid
//! or dictionary, a word not in the dictionary or not on the grid, a file of another kind).

use clap::{Args, Subcommand};
use serde_json::json;

use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, JsonArg};
use crate::mpc::engine::Required;
use crate::proof_file::{read_input, write_proof};
use crate::words::boggle::{self, Dictionary, Grid, Opening, Trie};
use crate::words::dict;
use crate::{Error, Result};

/// Largest find file read (ZKB++ proofs of the lowered circuit are large).
const MAX_FILE: u64 = 64 << 20;
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
    fn grid(&self) -> Result<Grid> {
        // a file if there is one of that name, else rows separated by `/`
        if self.grid.contains('/') && !std::path::Path::new(&self.grid).is_file() {
            return Grid::parse(&self.grid, "the grid");
        }
        let text = crate::files::read_text(&self.grid, MAX_GRID_FILE, "grid file")?;
        Grid::parse(&text, &format!("grid file {}", self.grid))
    }

    fn dictionary(&self) -> Result<Dictionary> {
        match &self.dict {
            None => Ok(Dictionary::shipped()),
            Some(p) => {
                let text = crate::files::read_text(p, dict::MAX_FILE, "dictionary")?;
                Dictionary::parse(&text, &format!("dictionary {p}"))
            }
        }
    }
}

/// Strength and context of a find: the shared `--security` and `--context`.
pub use crate::cli::SecurityArgs as FindArgs;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Every dictionary word on the grid (adjacent dice, diagonals included, each die once),
    /// one a line, sorted.
    Solve {
        #[command(flatten)]
        board: BoardArgs,
        /// Only words of at least K letters (Qu counts two).
        #[arg(long, value_name = "K", default_value_t = 3)]
        min_length: usize,
        #[command(flatten)]
        out: JsonArg,
    },
    /// Seal a find: write a proof that you know a dictionary word of N dice on the grid (N is
    /// public, the word is not) and the secret opening that shows it later (mode 0600).
    Seal {
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
    },
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a sealed find: exit 0 if it proves a dictionary word of its length on the grid,
    /// 1 if not (or if it was made for another grid or dictionary).
    Verify {
        #[command(flatten)]
        board: BoardArgs,
        /// The sealed find.
        seal: String,
        #[command(flatten)]
        find: FindArgs,
        #[command(flatten)]
        out: JsonArg,
    },
    /// Open a find: verify it, check the opening against it and print the word.
    Open {
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
    },
}

/// Runs a `prover boggle` command.
pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Solve {
            board,
            min_length,
            out,
        } => {
            let json = out.enable();
            let grid = board.grid()?;
            let d = board.dictionary()?;
            let trie = Trie::new(&boggle::dice_forms(d.list(), grid.cells()));
            let words: Vec<String> = boggle::solve(&grid, &trie, min_length)
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
        ProverCmd::Seal {
            board,
            word,
            output,
            opening,
            find,
            seed: crate::cli::SeedArg { seed },
            sys,
            out,
        } => {
            let json = out.enable();
            crate::cli::warn_seed(seed);
            if opening == "-" {
                return Err(Error::bad(
                    "--opening -: the opening is secret; give a file path",
                ));
            }
            let grid = board.grid()?;
            let d = board.dictionary()?;
            let Some(w) = dict::letters_of(&word).filter(|w| !w.is_empty()) else {
                return Err(Error::bad(format!(
                    "--word {}: give a word of letters a-z",
                    crate::files::quote(&crate::files::excerpt(&word))
                )));
            };
            let system = sys.system(find.security)?;
            let t0 = std::time::Instant::now();
            let s = boggle::seal(
                &grid,
                &d,
                &w,
                &system,
                find.context.as_bytes(),
                &mut crate::rng::rng_from(seed),
            )?;
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            crate::files::Output::SECRET_BINARY.write(&opening, &s.opening.to_bytes())?;
            write_proof(&output, &s.file)?;
            let digest = hex::encode(s.opening.find);
            let (c, _) = boggle::find_circuit(&grid, s.dice, &s.membership);
            let (ands, sboxes) = (c.n_and(), c.n_inv());
            if json {
                report::emit(
                    true,
                    "",
                    report::verdict(
                        "sealed",
                        json!({"find": digest, "bytes": s.file.len(), "prove_ms": ms,
                               "dice": s.dice, "class_words": s.membership.words(),
                               "membership": s.membership.describe(), "dictionary": d.list().len(),
                               "and_gates": ands, "sboxes": sboxes}),
                    ),
                );
            } else {
                eprintln!(
                    "sealed a find of {} dice ({} dictionary words, {} of that length: {}; circuit: {ands} AND gates, {sboxes} S-boxes): {system}, {} bytes, {ms:.1} ms; find {digest}",
                    s.dice,
                    d.list().len(),
                    s.membership.words(),
                    s.membership.describe(),
                    s.file.len()
                );
            }
            Ok(())
        }
    }
}

/// Runs a `verifier boggle` command.
pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify {
            board,
            seal,
            find,
            out,
        } => {
            let json = out.enable();
            let grid = board.grid()?;
            let d = board.dictionary()?;
            let sb = read_input(&seal, MAX_FILE)?;
            let t0 = std::time::Instant::now();
            let (head, digest) = boggle::verify(
                &grid,
                &d,
                &sb,
                &Required::bits(find.security),
                find.context.as_bytes(),
            )?;
            let engine =
                boggle::FIND_PROTOCOLS.engine(&crate::proof_file::ProofFile::from_bytes(&sb)?)?;
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
                security_bits: Some(find.security as f64),
                proof_bytes: sb.len(),
                and_gates: None,
                context: find.context.clone(),
                verify_ms: t0.elapsed().as_secs_f64() * 1e3,
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
        VerifierCmd::Open {
            board,
            seal,
            opening,
            find,
            out,
        } => {
            let json = out.enable();
            crate::files::stdin_at_most_once(&[("FIND.seal", &seal), ("FIND.open", &opening)])?;
            let grid = board.grid()?;
            let d = board.dictionary()?;
            let sb = read_input(&seal, MAX_FILE)?;
            let op = Opening::from_bytes(&read_input(&opening, 1 << 10)?)?;
            let (head, _) = boggle::verify(
                &grid,
                &d,
                &sb,
                &Required::bits(find.security),
                find.context.as_bytes(),
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
    }
}
