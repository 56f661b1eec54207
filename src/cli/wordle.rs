//! Wordle with a host who cannot cheat: `prover wordle seal|answer` and
//! `verifier wordle check|open`.
//!
//! Exit status: 0 accepted / done; 1 rejected (an answer or seal that does not verify, an
//! opening that does not match); 2 bad input (a malformed list, a guess not allowed, a file
//! of another kind).

use clap::{Args, Subcommand};
use serde_json::json;

use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, JsonArg};
use crate::cli::{Accepted, DeadlineArgs, SecurityArgs, ServeArgs};
use crate::mpc::engine::Required;
use crate::proof_file::{read_input, write_proof};
use crate::words::dict::{self, WordList};
use crate::words::wordle::{self, Lists, Opening, WORD_LEN};
use crate::{Error, Result};

/// Largest seal or answer file read (ZKB++ proofs of the lowered circuit are large).
const MAX_FILE: u64 = 16 << 20;

/// The lists and strength shared by every command.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The answer list (one five-letter word a line; default: the shipped list).
    #[arg(long, value_name = "FILE")]
    pub dict: Option<String>,
    /// The allowed-guess list (default: the shipped list); words of the answer list are
    /// always allowed.
    #[arg(long, value_name = "FILE")]
    pub allowed: Option<String>,
    // `--security` and `--context` (the game's: a game id, a date...; the same for the seal
    // and the answers)
    #[command(flatten)]
    pub sec: SecurityArgs,
}

fn read_list(path: &str, what: &str) -> Result<WordList> {
    let text = crate::files::read_text(path, dict::MAX_FILE, what)?;
    WordList::parse(&text, WORD_LEN, &format!("{what} {path}"))
}

impl GameArgs {
    pub fn lists(&self) -> Result<Lists> {
        let mut l = Lists::default_lists();
        if let Some(p) = &self.dict {
            l.answers = read_list(p, "answer list")?;
        }
        if let Some(p) = &self.allowed {
            l.allowed = read_list(p, "allowed-guess list")?;
        }
        Ok(l)
    }
    fn required(&self) -> Required {
        Required::bits(self.sec.security)
    }

    fn context(&self) -> &[u8] {
        self.sec.context.as_bytes()
    }
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Seal the word of a game: write the public seal (a commitment to the word and a proof
    /// that it is in the answer list) and the secret opening (mode 0600).
    Seal(SealArgs),
    /// Answer a guess: print its feedback (g exact, y present, . absent) and write a proof
    /// that it is exactly the sealed word's.
    Answer(AnswerArgs),
    /// Host a live game: send the seal to each player who connects, answer up to six guesses
    /// with proofs (`verifier wordle play` checks each as it arrives).
    Serve(HostArgs),
}

/// `prover wordle seal`.
#[derive(Args, Debug)]
pub struct SealArgs {
    /// The secret word (five letters, in the answer list).
    #[arg(long)]
    word: String,
    /// Where to write the seal (`-` for stdout).
    #[arg(short = 'o', long = "output", value_name = "GAME.seal")]
    output: String,
    /// Where to write the opening (a file: secret until the game ends).
    #[arg(long, value_name = "GAME.open")]
    opening: String,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    sys: SystemArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// `prover wordle answer`.
#[derive(Args, Debug)]
pub struct AnswerArgs {
    /// The game's opening (from `seal`).
    opening: String,
    /// The player's guess (in the allowed list).
    guess: String,
    /// Where to write the answer proof.
    #[arg(short = 'o', long = "output", value_name = "ANSWER.proof")]
    output: String,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    sys: SystemArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// `prover wordle serve`.
#[derive(Args, Debug)]
pub struct HostArgs {
    /// The game's seal.
    seal: String,
    /// The game's opening.
    opening: String,
    #[command(flatten)]
    serve: ServeArgs,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    sys: SystemArgs,
}

/// Guesses a live game allows.
pub const MAX_GUESSES: usize = 6;

/// What a player sends in a live game.
#[derive(serde::Serialize, serde::Deserialize, Debug)]
pub enum PlayerMsg {
    /// The first message: the live-game version (1).
    Hello {
        version: u16,
    },
    Guess {
        word: String,
    },
    Bye,
}

/// What the host sends in a live game.
#[derive(serde::Serialize, serde::Deserialize, Debug)]
pub enum HostMsg {
    /// The game's seal file.
    Seal {
        #[serde(with = "crate::proof_file::bytes")]
        file: Vec<u8>,
    },
    /// The answer to the last guess: its feedback and the answer file.
    Answer {
        feedback: String,
        #[serde(with = "crate::proof_file::bytes")]
        proof: Vec<u8>,
    },
    /// The host refuses (a guess not allowed, too many guesses).
    Refused { reason: String },
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Check an answer: exit 0 if ANSWER.proof shows that FEEDBACK is what the word sealed
    /// in GAME.seal gives for GUESS, 1 if not. Verifies the seal too.
    Check(CheckArgs),
    /// Play a live game hosted by `prover wordle serve`: every answer is checked as it
    /// arrives (exit 1 at the first that does not verify); the board is shown coloured on
    /// a terminal. Guesses from --guess, else read from stdin, one a line.
    Play(PlayArgs),
    /// Open a game: check the opening against the seal (and the seal itself) and print the
    /// word.
    Open(OpenArgs),
}

/// `verifier wordle check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The game's seal.
    seal: String,
    /// The guess (in the allowed list).
    guess: String,
    /// The feedback claimed, five characters of g, y and . (e.g. g.y..).
    feedback: String,
    /// The answer proof.
    answer: String,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// `verifier wordle play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The host's address HOST:PORT.
    addr: String,
    /// A guess (repeat for several); without any, guesses are read from stdin.
    #[arg(long = "guess", value_name = "WORD")]
    guesses: Vec<String>,
    /// The published seal (the word of the day): refuse a host that plays another one,
    /// so a host cannot give different players different words.
    #[arg(long, value_name = "GAME.seal")]
    seal: Option<String>,
    #[command(flatten)]
    deadlines: DeadlineArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// `verifier wordle open`.
#[derive(Args, Debug)]
pub struct OpenArgs {
    /// The game's seal.
    seal: String,
    /// The opening.
    opening: String,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    out: JsonArg,
}

fn hexd(d: &[u8]) -> String {
    hex::encode(d)
}

/// Runs a `prover wordle` command.
pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Seal(a) => seal(a),
        ProverCmd::Answer(a) => answer(a),
        ProverCmd::Serve(a) => host(a),
    }
}

fn seal(a: SealArgs) -> Result<()> {
    let json = a.out.enable();
    let seed = a.seed.seed;
    crate::cli::warn_seed(seed);
    crate::cli::words_seal::secret_opening_path(&a.opening)?;
    let lists = a.game.lists()?;
    let w = wordle::parse_word(&a.word)?;
    let system = a.sys.system(a.game.sec.security)?;
    let t0 = std::time::Instant::now();
    let s = wordle::seal(
        &lists,
        &w,
        &system,
        a.game.context(),
        &mut crate::rng::rng_from(seed),
    )?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let c = wordle::seal_circuit(&lists.answers);
    crate::cli::words_seal::Written {
        verdict: "sealed",
        digest_key: "seal",
        digest: s.opening.seal,
        file: &s.file,
        opening: s.opening.to_bytes(),
        prove_ms: ms,
        circuit: &c,
        keys: json!({"commitment": hexd(&s.commitment), "answers": lists.answers.len()}),
        what: "a word of the answer list".into(),
        detail: format!("{} words", lists.answers.len()),
        system: &system,
    }
    .write(&a.output, &a.opening, json)
}

fn answer(a: AnswerArgs) -> Result<()> {
    let json = a.out.enable();
    let seed = a.seed.seed;
    crate::cli::warn_seed(seed);
    let lists = a.game.lists()?;
    let op = Opening::from_bytes(&read_input(&a.opening, 1 << 10)?)?;
    let g = wordle::parse_word(&a.guess)?;
    lists.check_guess(&g)?;
    let system = a.sys.system(a.game.sec.security)?;
    let t0 = std::time::Instant::now();
    let (f, file) = wordle::answer(
        &op,
        &g,
        &system,
        a.game.context(),
        &mut crate::rng::rng_from(seed),
    )?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    write_proof(&a.output, &file)?;
    let text = wordle::feedback_text(&f);
    let c = wordle::answer_circuit(&g);
    let (ands, sboxes) = (c.n_and(), c.n_inv());
    report::emit(
        json,
        &text,
        report::verdict(
            "answered",
            json!({"guess": dict::word_of(&g), "feedback": text, "bytes": file.len(),
                   "prove_ms": ms, "and_gates": ands, "sboxes": sboxes}),
        ),
    );
    if !json {
        eprintln!(
            "answer proof (circuit: {ands} AND gates, {sboxes} S-boxes): {system}, {} bytes, {ms:.1} ms",
            file.len()
        );
    }
    Ok(())
}

fn host(a: HostArgs) -> Result<()> {
    if a.serve.transcript.is_some() {
        return Err(Error::bad(
            "--transcript: a live Wordle game keeps no transcript (every answer is a proof file)",
        ));
    }
    crate::files::stdin_at_most_once(&[("GAME.seal", &a.seal), ("GAME.open", &a.opening)])?;
    let lists = a.game.lists()?;
    let sb = read_input(&a.seal, MAX_FILE)?;
    let op = Opening::from_bytes(&read_input(&a.opening, 1 << 10)?)?;
    let ctx = a.game.context().to_vec();
    // the host checks its own files first: a seal it could not answer for is refused here
    let (head, _) = wordle::verify_seal(&lists.answers, &sb, &a.game.required(), &ctx)?;
    wordle::open(&sb, &head, &op)?;
    let system = a.sys.system(a.game.sec.security)?;
    crate::cli::serve_sessions(&a.serve, "Wordle", |ch| {
        host_game(ch, &lists, &sb, &op, &system, &ctx)
    })
}

/// One live game, host side.
fn host_game(
    ch: &mut crate::net::Channel,
    lists: &Lists,
    seal: &[u8],
    op: &Opening,
    system: &crate::mpc::engine::System,
    ctx: &[u8],
) -> Result<Accepted> {
    match ch.recv::<PlayerMsg>("player's hello")? {
        PlayerMsg::Hello { version: 1 } => {}
        _ => {
            return Err(Error::bad(
                "the player did not start with a version-1 hello",
            ))
        }
    }
    ch.send(&HostMsg::Seal {
        file: seal.to_vec(),
    })?;
    let mut n = 0;
    loop {
        match ch.recv::<PlayerMsg>("player's guess")? {
            PlayerMsg::Bye => break,
            PlayerMsg::Hello { .. } => return Err(Error::bad("the player sent a second hello")),
            PlayerMsg::Guess { word } => {
                if n == MAX_GUESSES {
                    let reason = format!("the game allows {MAX_GUESSES} guesses");
                    ch.send(&HostMsg::Refused {
                        reason: reason.clone(),
                    })?;
                    return Err(Error::bad(reason));
                }
                let g = match wordle::parse_word(&word)
                    .and_then(|g| lists.check_guess(&g).map(|()| g))
                {
                    Ok(g) => g,
                    Err(e) => {
                        ch.send(&HostMsg::Refused {
                            reason: e.to_string(),
                        })?;
                        return Err(e);
                    }
                };
                let (f, proof) = wordle::answer(op, &g, system, ctx, &mut crate::rng::os_rng())?;
                n += 1;
                ch.send(&HostMsg::Answer {
                    feedback: wordle::feedback_text(&f),
                    proof,
                })?;
                if f.iter().all(|&m| m == wordle::Mark::Exact) {
                    break;
                }
            }
        }
    }
    Ok(Accepted {
        summary: format!("a Wordle game: {n} guesses answered with proofs"),
        transcript: Vec::new(),
    })
}

/// One board row: coloured letters on a terminal, else the word and its feedback.
fn board_row(g: &wordle::Word, f: &wordle::Feedback, colour: bool) -> String {
    let word = dict::word_of(g).to_uppercase();
    if !colour {
        return format!("{word} {}", wordle::feedback_text(f));
    }
    let mut out = String::new();
    for (c, m) in word.chars().zip(f) {
        let bg = match m {
            wordle::Mark::Exact => "42",
            wordle::Mark::Present => "43",
            wordle::Mark::Absent => "100",
        };
        out += &format!("\x1b[1;30;{bg}m {c} \x1b[0m");
    }
    out
}

/// A live game, player side.
fn play(a: PlayArgs) -> Result<()> {
    use std::io::{BufRead, IsTerminal, Write};
    let PlayArgs {
        addr,
        guesses,
        seal: published,
        deadlines,
        game,
    } = a;
    let lists = game.lists()?;
    let ctx = game.context();
    let req = game.required();
    // the published seal is checked before any connection: a bad file is the player's error
    let published = match published.as_deref() {
        Some(path) => {
            let bytes = read_input(path, MAX_FILE)?;
            let (_, digest) = wordle::verify_seal(&lists.answers, &bytes, &req, ctx)?;
            Some(digest)
        }
        None => None,
    };
    let mut ch = crate::cli::connect(&addr, &deadlines, "prover wordle serve")?;
    ch.send(&PlayerMsg::Hello { version: 1 })?;
    let seal = match ch.recv_reply::<HostMsg>("host's seal")? {
        HostMsg::Seal { file } => file,
        HostMsg::Refused { reason } => {
            return Err(Error::bad(format!("the host refused: {reason}")))
        }
        HostMsg::Answer { .. } => return Err(Error::bad("the host answered before any guess")),
    };
    let (head, digest) = wordle::verify_seal(&lists.answers, &seal, &req, ctx)?;
    if let Some(p) = published.filter(|p| *p != digest) {
        let _ = ch.send(&PlayerMsg::Bye);
        return Err(Error::rejected(format!(
            "the host plays seal {}, not the published seal {}: it may be giving you another word than everyone else",
            hexd(&digest),
            hexd(&p)
        )));
    }
    eprintln!(
        "the host sealed a word of the answer list ({} words); seal {}{}",
        lists.answers.len(),
        hexd(&digest),
        if published.is_some() {
            ", the published one"
        } else {
            ""
        }
    );
    let colour = std::io::stdout().is_terminal();
    let scripted = !guesses.is_empty();
    let mut script = guesses.into_iter();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    for turn in 1..=MAX_GUESSES {
        let g = loop {
            let text = if scripted {
                match script.next() {
                    Some(t) => t,
                    None => {
                        let _ = ch.send(&PlayerMsg::Bye);
                        return Ok(());
                    }
                }
            } else {
                eprint!("guess {turn}/{MAX_GUESSES}: ");
                let _ = std::io::stderr().flush();
                match lines.next() {
                    Some(Ok(l)) => l.trim().to_string(),
                    _ => {
                        let _ = ch.send(&PlayerMsg::Bye);
                        return Ok(());
                    }
                }
            };
            match wordle::parse_word(&text).and_then(|g| lists.check_guess(&g).map(|()| g)) {
                Ok(g) => break g,
                Err(e) if !scripted => eprintln!("{e}"),
                Err(e) => return Err(e),
            }
        };
        ch.send(&PlayerMsg::Guess {
            word: dict::word_of(&g),
        })?;
        let (text, proof) = match ch.recv_reply::<HostMsg>("host's answer")? {
            HostMsg::Answer { feedback, proof } => (feedback, proof),
            HostMsg::Refused { reason } => {
                return Err(Error::bad(format!("the host refused: {reason}")))
            }
            HostMsg::Seal { .. } => return Err(Error::bad("the host sent a second seal")),
        };
        let f = wordle::parse_feedback(&text)
            .map_err(|_| Error::rejected("the host's feedback is not five marks"))?;
        wordle::verify_answer(&digest, &head, &g, &f, &proof, &req, ctx)?;
        println!("{}", board_row(&g, &f, colour));
        if f.iter().all(|&m| m == wordle::Mark::Exact) {
            eprintln!("solved in {turn}: every answer was proven against the seal");
            let _ = ch.send(&PlayerMsg::Bye);
            return Ok(());
        }
    }
    eprintln!("out of guesses: every answer was proven against the seal (ask the host to open it)");
    let _ = ch.send(&PlayerMsg::Bye);
    Ok(())
}

/// Runs a `verifier wordle` command.
pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Check(a) => check(a),
        VerifierCmd::Play(a) => play(a),
        VerifierCmd::Open(a) => open(a),
    }
}

fn check(a: CheckArgs) -> Result<()> {
    let json = a.out.enable();
    crate::files::stdin_at_most_once(&[("GAME.seal", &a.seal), ("ANSWER.proof", &a.answer)])?;
    let lists = a.game.lists()?;
    let g = wordle::parse_word(&a.guess)?;
    lists.check_guess(&g)?;
    let f = wordle::parse_feedback(&a.feedback)?;
    let sb = read_input(&a.seal, MAX_FILE)?;
    let ab = read_input(&a.answer, MAX_FILE)?;
    let t0 = std::time::Instant::now();
    let ctx = a.game.context();
    let req = a.game.required();
    let (head, digest) = wordle::verify_seal(&lists.answers, &sb, &req, ctx)?;
    wordle::verify_answer(&digest, &head, &g, &f, &ab, &req, ctx)?;
    let verify_ms = t0.elapsed().as_secs_f64() * 1e3;
    let text = wordle::feedback_text(&f);
    let (_, proof) = wordle::read_answer(&ab)?;
    let system = proof.system();
    let engine = system.engine();
    report::Verified {
        verdict: "accepted",
        statement: format!(
            "{} scores {text} against the sealed word",
            dict::word_of(&g)
        ),
        system: engine.label(),
        evidence: true,
        rounds: None,
        // the answer proof's own level (its parameters'), not the level asked for
        security_bits: Some(system.security_bits()),
        proof_bytes: ab.len(),
        and_gates: None,
        context: a.game.sec.context.clone(),
        verify_ms,
        about: Default::default(),
        detail: format!(
            "seal {}, answer {} bytes, {engine}",
            hexd(&digest),
            ab.len()
        ),
        note: String::new(),
    }
    .about("guess", dict::word_of(&g))
    .about("feedback", text)
    .about("seal", hexd(&digest))
    .emit(json);
    Ok(())
}

fn open(a: OpenArgs) -> Result<()> {
    let json = a.out.enable();
    crate::files::stdin_at_most_once(&[("GAME.seal", &a.seal), ("GAME.open", &a.opening)])?;
    let lists = a.game.lists()?;
    let sb = read_input(&a.seal, MAX_FILE)?;
    let op = Opening::from_bytes(&read_input(&a.opening, 1 << 10)?)?;
    let (head, _) = wordle::verify_seal(&lists.answers, &sb, &a.game.required(), a.game.context())?;
    let w = wordle::open(&sb, &head, &op)?;
    let word = dict::word_of(&w);
    report::emit(
        json,
        format!("opened: the sealed word is {word}"),
        report::verdict("opened", json!({"opened": true, "word": word})),
    );
    Ok(())
}
