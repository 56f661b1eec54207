//! The logic of the `prover` and `verifier` binaries. The binaries only call
//! [`prover_main`] and [`verifier_main`].
//!
//! Exit status: 0 accepted or done; 1 proof rejected; 2 bad input or usage; 75 try again
//! later (a busy server, a rate limit).

use std::net::TcpListener;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::net::server::{self, ServerOptions};
use crate::net::{Channel, Deadlines};
use crate::Error;
use crate::Result;

pub mod auth;
pub mod boggle;
pub mod boggle_live;
pub mod circuit;
pub mod engine;
pub mod garble;
pub mod peg;
pub mod peg_solve;
pub mod report;
pub mod sha256;
pub mod sha256_seal;
pub mod tatham;
pub mod wall;
pub mod wall_html;
pub mod wall_seal;
pub mod wordle;
pub mod words_seal;

/// The end of both binaries' `--help`: exit codes, file conventions, catalog names.
pub const AFTER_HELP: &str = "\
Exit status:
  0  accepted, or done
  1  proof rejected; illegal move or position (wall check); puzzle impossible or the
     solver's budget exhausted
  2  bad input or usage (a file, an argument, a limit)
  75 try again later: the server is busy or a rate limit applies (nothing was judged; the
     message says how long to wait when the server said)

Files: `-` is stdin or stdout (stdin at most once per command). Wherever a PUZZLE file is
taken, a built-in catalog name works too: tee, english, european, wiegleb, wiegleb-24,
diamond, diamond-full, triangle15, square5-diagonal. Output files replace regular files
atomically and write devices and FIFOs in place; secrets (solutions) get mode 0600.";

/// Produce proofs, solve puzzles, take part in live sessions as the prover.
#[derive(Parser, Debug)]
#[command(
    name = "prover",
    version,
    about = "Prove knowledge of puzzle solutions in zero knowledge",
    after_help = AFTER_HELP
)]
pub struct ProverCli {
    /// Spell out the engine's parameters (τ, N, Δ, …) in every message, not only the
    /// security level and the parameter set's name.
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub cmd: ProverCmd,
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Peg solitaire: solve, prove (any engine, or Protocol 1 of FUN 2022), live sessions.
    Peg(Group<peg::ProverCmd>),
    /// SHA-256: prove knowledge of a preimage (VOLE-in-the-head, ZKB++ or KKW), seal a preimage
    /// to open later.
    Sha256(Group<sha256::ProverCmd>),
    /// Your own statement: prove knowledge of secret inputs of a Bristol Fashion circuit
    /// (every engine), evaluate a circuit, export ours.
    Circuit(Group<circuit::ProverCmd>),
    /// Your own statement in a language: prove knowledge of secret arguments of a Garble
    /// program (every engine), run a program, export its circuit.
    Garble(Group<garble::ProverCmd>),
    /// Simon Tatham's puzzles: prove you solved one, from the game's own save file.
    Tatham(Group<tatham::ProverCmd>),
    /// Wall Game: seal a move (prove it legal without revealing it), live sessions, a demo.
    Wall(Group<wall_seal::ProverCmd>),
    /// Wordle with a host who cannot cheat: seal the word, answer guesses with proofs.
    Wordle(Group<wordle::ProverCmd>),
    /// Boggle: list the words on a grid; seal a word you found (shown later).
    Boggle(Group<boggle::ProverCmd>),
    /// Authentication: create a key and its identity, register with a login server, log in
    /// (a zero-knowledge proof of the key), whoami, and a demo of the whole exchange.
    Auth(Group<auth::ProverCmd>),
    /// Print a shell completion script for this binary.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Manpage(ManpageArgs),
}

/// A group of commands (`prover auth …`: the variant's enum) as the arguments of its
/// command, built by clap only when the group is invoked ([`clap::Command::defer`]): a
/// process builds its own command's arguments, not every command's of the binary (most of
/// clap's start-up work: 0.9 of the 1.6 million instructions of `prover --version`).
/// `--help` and errors are the same as with `#[command(subcommand)]`, whose settings it
/// repeats; completions and manual pages, which walk the whole tree, build it at once
/// ([`whole_tree`]).
#[derive(Debug)]
pub struct Group<T>(pub T);

/// Whether [`Group`]s are built at once rather than deferred (set by [`whole_tree`]).
static WHOLE_TREE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `C`'s command with every group built at once: what completions and manual pages walk
/// (clap copies the tree for `help`'s completions before it would build deferred parts).
fn whole_tree<C: CommandFactory>() -> clap::Command {
    WHOLE_TREE.store(true, std::sync::atomic::Ordering::Relaxed);
    C::command()
}

impl<T: Subcommand> clap::FromArgMatches for Group<T> {
    fn from_arg_matches(m: &clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        T::from_arg_matches(m).map(Group)
    }
    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        T::from_arg_matches_mut(m).map(Group)
    }
    fn update_from_arg_matches(
        &mut self,
        m: &clap::ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }
    fn update_from_arg_matches_mut(
        &mut self,
        m: &mut clap::ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(m)
    }
}

impl<T: Subcommand> Group<T> {
    /// The group's commands, one required, and `--help` when none is given (what
    /// `#[command(subcommand)]` sets).
    fn build(cmd: clap::Command) -> clap::Command {
        T::augment_subcommands(cmd)
            .subcommand_required(true)
            .arg_required_else_help(true)
    }
}

impl<T: Subcommand> Args for Group<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        if WHOLE_TREE.load(std::sync::atomic::Ordering::Relaxed) {
            Self::build(cmd)
        } else {
            cmd.defer(Self::build)
        }
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Arguments of `completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

/// Arguments of `manpage`.
#[derive(clap::Args, Debug)]
pub struct ManpageArgs {
    /// Write BIN.1, BIN-SUBCOMMAND.1, ... for every command into this directory, instead of
    /// printing the top-level page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<String>,
}

fn completions(mut cmd: clap::Command, a: CompletionsArgs) -> crate::Result<()> {
    let name = cmd.get_name().to_string();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, name, &mut out);
    crate::files::Output::TEXT.write("-", &out)
}

/// The `--help` epilogue ([`AFTER_HELP`]) as roff: the exit statuses as a tagged list (one
/// entry per status, never run together), each other paragraph as a paragraph, hyphenation
/// off. clap_mangen would give every line of it as running text, which `man` re-flows.
fn after_help_roff(text: &str) -> String {
    let esc = |l: &str| {
        let l = l.trim().replace('\\', "\\e");
        if l.starts_with('.') || l.starts_with('\'') {
            format!("\\&{l}")
        } else {
            l
        }
    };
    let mut out = String::from(".nh\n");
    for para in text.split("\n\n") {
        let mut lines = para.lines();
        let Some(head) = lines.next() else { continue };
        if let Some(title) = head.strip_suffix(':').filter(|t| t.starts_with("Exit")) {
            out += &format!(".SH \"{}\"\n", title.to_uppercase());
            for l in lines {
                let t = l.trim_start();
                let code: String = t.chars().take_while(char::is_ascii_digit).collect();
                if !code.is_empty() && l.len() - t.len() <= 2 {
                    out += &format!(".TP\n\\fB{code}\\fR\n{}\n", esc(&t[code.len()..]));
                } else {
                    out += &format!("{}\n", esc(t));
                }
            }
        } else {
            let (title, body) = match head.split_once(": ") {
                Some((t, b)) if !t.contains(' ') => (t.to_uppercase(), b.to_string()),
                _ => ("NOTES".to_string(), head.to_string()),
            };
            out += &format!(".SH {title}\n.PP\n{}\n", esc(&body));
            for l in lines {
                out += &format!("{}\n", esc(l));
            }
        }
    }
    out
}

fn manpages(cmd: clap::Command, a: ManpageArgs) -> crate::Result<()> {
    fn render(cmd: &clap::Command) -> crate::Result<Vec<u8>> {
        let io = |e| Error::io("cannot render the manual page", e);
        let mut out = Vec::new();
        let man = clap_mangen::Man::new(cmd.clone());
        let Some(after) = cmd.get_after_help().map(|h| h.to_string()) else {
            man.render(&mut out).map_err(io)?;
            return Ok(out);
        };
        // clap_mangen's sections, with the epilogue written as roff of its own
        man.render_title(&mut out).map_err(io)?;
        man.render_name_section(&mut out).map_err(io)?;
        man.render_synopsis_section(&mut out).map_err(io)?;
        man.render_description_section(&mut out).map_err(io)?;
        if cmd.get_arguments().any(|a| !a.is_hide_set()) {
            man.render_options_section(&mut out).map_err(io)?;
        }
        if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
            man.render_subcommands_section(&mut out).map_err(io)?;
        }
        out.extend_from_slice(after_help_roff(&after).as_bytes());
        if cmd.get_version().is_some() {
            man.render_version_section(&mut out).map_err(io)?;
        }
        Ok(out)
    }
    fn all(
        cmd: &clap::Command,
        dir: &std::path::Path,
        written: &mut Vec<String>,
    ) -> crate::Result<()> {
        let page = clap_mangen::Man::new(cmd.clone()).get_filename();
        let path = dir.join(&page);
        crate::files::Output::TEXT.write(&path.to_string_lossy(), &render(cmd)?)?;
        written.push(page);
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            all(sub, dir, written)?;
        }
        Ok(())
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    match a.dir {
        None => crate::files::Output::TEXT.write("-", &render(&cmd)?),
        Some(d) => {
            let dir = std::path::Path::new(&d);
            if !dir.is_dir() {
                return Err(Error::bad(format!("--dir {d}: not a directory")));
            }
            let mut written = Vec::new();
            all(&cmd, dir, &mut written)?;
            eprintln!("{} manual pages written to {d}", written.len());
            Ok(())
        }
    }
}

/// Verify proofs, inspect them, analyse Wall Game positions, serve live sessions.
#[derive(Parser, Debug)]
#[command(
    name = "verifier",
    version,
    about = "Verify zero-knowledge proofs of puzzle solutions",
    after_help = AFTER_HELP
)]
pub struct VerifierCli {
    /// Spell out the engine's parameters (τ, N, Δ, …) in every message, not only the
    /// security level and the parameter set's name.
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub cmd: VerifierCmd,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Peg solitaire: verify and inspect proofs, serve live sessions.
    Peg(Group<peg::VerifierCmd>),
    /// Wall Game: check positions and moves, replay game records, analyse legal walls, render, convert.
    Wall(Group<wall::VerifierCmd>),
    /// Wordle: check a host's proven answers against its sealed word, open a game.
    Wordle(Group<wordle::VerifierCmd>),
    /// Boggle: verify a sealed find against its grid and dictionary, open it.
    Boggle(Group<boggle::VerifierCmd>),
    /// SHA-256: verify and inspect preimage proofs (VOLE-in-the-head, ZKB++ or KKW), open sealed
    /// preimages.
    Sha256(Group<sha256::VerifierCmd>),
    /// Your own statement: verify circuit proofs, inspect a circuit or a circuit proof.
    Circuit(Group<circuit::VerifierCmd>),
    /// Your own statement in a language: verify Garble proofs, inspect a program or a proof.
    Garble(Group<garble::VerifierCmd>),
    /// Simon Tatham's puzzles: verify and inspect proofs of solutions.
    Tatham(Group<tatham::VerifierCmd>),
    /// Authentication: serve logins (the login server), and its user database: add, list,
    /// remove users.
    Auth(Group<auth::VerifierCmd>),
    /// Print a shell completion script for this binary.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Manpage(ManpageArgs),
}

/// Longest error line printed: messages quote short excerpts of the input, this is only a
/// backstop (e.g. a position where thousands of pairs are cut).
const MAX_MESSAGE: usize = 1000;

fn finish(r: crate::Result<()>, who: &str) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            let msg = crate::files::shorten(&e.to_string().replace('\n', " "), MAX_MESSAGE);
            match &e {
                Error::Rejected(_) => eprintln!("{who}: REJECTED: {msg}"),
                Error::TryLater { .. } => eprintln!("{who}: NOT NOW: {msg}"),
                _ => eprintln!("{who}: error: {msg}"),
            }
            if report::json_mode() {
                println!("{}", report::error_object(&e, &msg));
            }
            e.exit_code()
        }
    }
}

/// `prover … | head`: when the reader of stdout goes away, `println!` panics with "failed
/// printing to stdout: Broken pipe" (Rust ignores SIGPIPE so that sockets report errors
/// instead of killing servers). Such a panic ends the process quietly with the shell's
/// status for a broken pipe, 141 (128 + SIGPIPE); every other panic keeps the default report.
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to std") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info)
    }));
}

/// Parses the command line. `--help` and `--version` print as usual (exit 0); a command
/// line that cannot be parsed is an error like any other: one line on stderr with the
/// binary's prefix and, when `--json` is among the arguments, the one error object on
/// stdout (exit 2). Clap's own report (several lines, a usage block) is folded into that line.
fn parse_args<C: Parser>(who: &str) -> std::result::Result<C, i32> {
    use clap::error::ErrorKind as K;
    let e = match C::try_parse() {
        Ok(c) => return Ok(c),
        Err(e) => e,
    };
    if matches!(e.kind(), K::DisplayHelp | K::DisplayVersion) {
        let _ = e.print();
        return Err(0);
    }
    let msg = if e.kind() == K::DisplayHelpOnMissingArgumentOrSubcommand {
        // `prover peg`: the list of subcommands is the useful answer (stderr, exit 2)
        let _ = e.print();
        "a subcommand is missing; see --help".to_string()
    } else {
        let m = crate::files::shorten(&usage_line(&e.render().to_string()), MAX_MESSAGE);
        eprintln!("{who}: error: {m}");
        m
    };
    if std::env::args_os()
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
    {
        println!("{}", report::usage_object(&msg));
    }
    Err(2)
}

/// Clap's multi-line report as one line: the message (a list of missing arguments joined
/// on), its tips in parentheses, without the usage block and the "--help" reminder (said
/// once at the end instead).
fn usage_line(text: &str) -> String {
    let mut head = String::new();
    let mut tips = Vec::new();
    for para in text.split(
        "

",
    ) {
        let lines: Vec<&str> = para
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let Some(first) = lines.first() else { continue };
        if first.starts_with("Usage:") || first.starts_with("For more information") {
            continue;
        }
        if let Some(t) = first.strip_prefix("tip:") {
            tips.push(t.trim().to_string());
            continue;
        }
        if head.is_empty() {
            head = lines
                .join(" ")
                .trim_start_matches("error:")
                .trim()
                .to_string();
        }
    }
    for t in tips {
        head = format!("{head} ({t})");
    }
    format!("{head}; see --help")
}

/// Entry point of the `prover` binary; returns the exit status.
pub fn prover_main() -> i32 {
    quiet_broken_pipe();
    let cli = match parse_args::<ProverCli>("prover") {
        Ok(c) => c,
        Err(code) => return code,
    };
    crate::mpc::engine::show_parameters(cli.verbose);
    let r = match cli.cmd {
        ProverCmd::Peg(Group(c)) => peg::run_prover(c),
        ProverCmd::Sha256(Group(c)) => sha256::run_prover(c),
        ProverCmd::Circuit(Group(c)) => circuit::run_prover(c),
        ProverCmd::Garble(Group(c)) => garble::run_prover(c),
        ProverCmd::Tatham(Group(c)) => tatham::run_prover(c),
        ProverCmd::Wall(Group(c)) => wall_seal::run_prover(c),
        ProverCmd::Wordle(Group(c)) => wordle::run_prover(c),
        ProverCmd::Boggle(Group(c)) => boggle::run_prover(c),
        ProverCmd::Auth(Group(c)) => auth::run_prover(c),
        ProverCmd::Completions(a) => completions(whole_tree::<ProverCli>(), a),
        ProverCmd::Manpage(a) => manpages(whole_tree::<ProverCli>(), a),
    };
    finish(r, "prover")
}

/// Entry point of the `verifier` binary; returns the exit status.
pub fn verifier_main() -> i32 {
    quiet_broken_pipe();
    let cli = match parse_args::<VerifierCli>("verifier") {
        Ok(c) => c,
        Err(code) => return code,
    };
    crate::mpc::engine::show_parameters(cli.verbose);
    let r = match cli.cmd {
        VerifierCmd::Peg(Group(c)) => peg::run_verifier(c),
        VerifierCmd::Wall(Group(c)) => wall::run_verifier(c),
        VerifierCmd::Wordle(Group(c)) => wordle::run_verifier(c),
        VerifierCmd::Boggle(Group(c)) => boggle::run_verifier(c),
        VerifierCmd::Sha256(Group(c)) => sha256::run_verifier(c),
        VerifierCmd::Circuit(Group(c)) => circuit::run_verifier(c),
        VerifierCmd::Garble(Group(c)) => garble::run_verifier(c),
        VerifierCmd::Tatham(Group(c)) => tatham::run_verifier(c),
        VerifierCmd::Auth(Group(c)) => auth::run_verifier(c),
        VerifierCmd::Completions(a) => completions(whole_tree::<VerifierCli>(), a),
        VerifierCmd::Manpage(a) => manpages(whole_tree::<VerifierCli>(), a),
    };
    finish(r, "verifier")
}

/// Prints the reproducibility warning when a fixed seed is used.
pub fn warn_seed(seed: Option<u64>) {
    if let Some(s) = seed {
        eprintln!(
            "warning: --seed {s} makes this run reproducible and NOT secret: anyone who knows the seed can recover the witness. Use it for tests only."
        );
    }
}

/// `--security` and `--context`: what every proving and verifying command takes.
#[derive(Args, Debug, Clone)]
pub struct SecurityArgs {
    /// Security in bits: the knowledge error is at most 2^-BITS (the verifier's side fixes the
    /// engine's parameters for it: VOLE and KKW sets from PROTOCOLS, ZKB++ ceil(BITS /
    /// log2(3/2)) rounds).
    #[arg(long, value_name = "BITS", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub security: u32,
    /// Context string the proof is bound to (a message, a game id, a login nonce): the
    /// verifier must give the same.
    #[arg(long, default_value = "")]
    pub context: String,
}

/// `--security` alone, for commands bound to no context.
#[derive(Args, Debug, Clone, Copy)]
pub struct SecurityArg {
    /// Security in bits: the knowledge error is at most 2^-BITS.
    #[arg(long, value_name = "BITS", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub security: u32,
}

/// `--seed`: reproducible runs for tests only ([`warn_seed`] says so on stderr).
#[derive(Args, Debug, Clone, Copy)]
pub struct SeedArg {
    /// Fixed randomness seed: reproducible, NOT secret (whoever knows it can recover the
    /// secret). Tests only.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Deadlines of a live session (`connect` and `serve`).
#[derive(Args, Debug, Clone, Copy)]
pub struct DeadlineArgs {
    /// Seconds one message may take, the peer's computing time included.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// Seconds a whole session may take.
    #[arg(long, value_name = "SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub session_timeout: u64,
}

impl DeadlineArgs {
    pub fn deadlines(&self) -> Deadlines {
        Deadlines {
            message: Duration::from_secs(self.timeout),
            session: Duration::from_secs(self.session_timeout),
        }
    }
}

/// Per-address limits and the first-message deadline of a TCP server (`peg|wall|auth serve`).
#[derive(Args, Debug, Clone, Copy)]
pub struct ConnLimitArgs {
    /// Connections one client address may hold at once (an IPv6 client: its /64); more are
    /// told to retry later.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_per_address: u32,
    /// Seconds a new connection has to send its first whole message. When the server is
    /// full, the connection that has waited longest without one is closed for a newcomer.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub first_message_timeout: u64,
    /// Seconds a connection holds its place for sure: when the server is full and every
    /// address holds about as much as the newcomer's would, the connection that has held its
    /// place longest, past this, is closed for the newcomer.
    #[arg(long, value_name = "SECS", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub evict_after: u64,
}

impl ConnLimitArgs {
    /// The server options for these limits, `max_sessions` and `deadlines` (other fields:
    /// the defaults, e.g. the session protocol's refusal).
    pub fn server_options(
        &self,
        max_sessions: u32,
        deadlines: &DeadlineArgs,
        log: server::LogFormat,
    ) -> ServerOptions {
        ServerOptions {
            max_sessions: max_sessions as usize,
            max_per_address: self.max_per_address as usize,
            first_message: Duration::from_secs(self.first_message_timeout),
            hold: Duration::from_secs(self.evict_after),
            deadlines: deadlines.deadlines(),
            log,
            ..ServerOptions::default()
        }
    }
}

/// How a verifier serves live sessions.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (e.g. 127.0.0.1:7070; port 0 picks a free port).
    #[arg(
        long,
        value_name = "ADDR",
        conflicts_with = "stdio",
        required_unless_present = "stdio"
    )]
    pub listen: Option<String>,
    /// Talk over stdin/stdout instead of TCP (one session).
    #[arg(long)]
    pub stdio: bool,
    /// Serve one connection, then exit with its verdict (0 accepted, 1 rejected, 2 error).
    /// Without it, the server serves until Ctrl-C or SIGTERM.
    #[arg(long)]
    pub once: bool,
    /// Sessions served at the same time; further connections are told to retry later (never
    /// queued), after closing one that has not sent its first message, if any, to make room.
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_sessions: u32,
    /// Save the accepted session's transcript (with --once or --stdio; NOT evidence).
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<String>,
    #[command(flatten)]
    pub deadlines: DeadlineArgs,
    #[command(flatten)]
    pub limits: ConnLimitArgs,
}

/// What a verifier's session handler reports for an accepted session.
pub struct Accepted {
    /// One line for the log and the terminal.
    pub summary: String,
    /// The session transcript as proof-file bytes (mode interactive).
    pub transcript: Vec<u8>,
}

/// Runs `serve` for any session kind: over stdin/stdout (one session), one TCP connection
/// (`--once`), or a loop serving connections until SIGINT/SIGTERM.
pub fn serve_sessions(
    a: &ServeArgs,
    what: &str,
    handler: impl Fn(&mut Channel) -> Result<Accepted> + Sync,
) -> Result<()> {
    let single = a.once || a.stdio;
    if a.transcript.is_some() && !single {
        return Err(Error::bad(
            "--transcript needs --once or --stdio: a serving loop runs many sessions",
        ));
    }
    let finish_one = |r: Result<Accepted>| -> Result<()> {
        let acc = r?;
        eprintln!("ACCEPTED: {}", acc.summary);
        if let Some(path) = &a.transcript {
            crate::proof_file::write_proof(path, &acc.transcript)?;
            eprintln!(
                "session transcript saved to {path} (interactive: NOT transferable evidence)"
            );
        }
        Ok(())
    };
    if a.stdio {
        return finish_one(handler(&mut Channel::stdio(a.deadlines.deadlines())));
    }
    let addr = a
        .listen
        .as_deref()
        .expect("clap requires --listen without --stdio");
    check_host_port(addr)?;
    let l =
        TcpListener::bind(addr).map_err(|e| Error::io(format!("cannot listen on {addr}"), e))?;
    let local = l
        .local_addr()
        .map_err(|e| Error::io("cannot read the listening address", e))?;
    if a.once {
        eprintln!("listening on {local} for one {what} session");
        let (s, peer) = l.accept().map_err(|e| Error::io("accept failed", e))?;
        eprintln!("prover connected from {peer}");
        return finish_one(handler(&mut Channel::tcp(s, a.deadlines.deadlines())));
    }
    server::install_stop_signals();
    eprintln!(
        "listening on {local} for {what} sessions (at most {} at once; Ctrl-C stops)",
        a.max_sessions
    );
    let opts = a
        .limits
        .server_options(a.max_sessions, &a.deadlines, server::LogFormat::Plain);
    let st = server::serve(&l, &opts, &server::STOP, |ch, _| {
        handler(ch).map(|acc| acc.summary)
    })?;
    eprintln!(
        "stopped: {} accepted, {} rejected, {} failed, {} turned away, {} evicted before their first message",
        st.accepted, st.rejected, st.failed, st.busy, st.evicted
    );
    Ok(())
}

/// Refuses an address without a port (`127.0.0.1`, `localhost`) or a URL where a TCP
/// address is wanted, in words, before the resolver says "invalid socket address".
pub fn check_host_port(addr: &str) -> Result<()> {
    if addr.contains("://") {
        return Err(Error::bad(format!(
            "{}: this is a URL; the TCP service takes HOST:PORT (e.g. 127.0.0.1:7070), without a scheme",
            crate::files::quote(addr)
        )));
    }
    let port = addr.rsplit_once(':').map(|(_, p)| p).unwrap_or("");
    if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::bad(format!(
            "{}: an address needs a port: HOST:PORT, e.g. 127.0.0.1:7070 (port 0 to listen on any free port)",
            crate::files::quote(addr)
        )));
    }
    Ok(())
}

/// Opens the prover's channel: `-` for stdin/stdout, else a TCP address (the connection
/// attempt itself is bounded by the message deadline).
pub fn connect(addr: &str, d: &DeadlineArgs, hint: &str) -> Result<Channel> {
    use std::net::ToSocketAddrs;
    let d = d.deadlines();
    if addr == "-" {
        return Ok(Channel::stdio(d));
    }
    check_host_port(addr)?;
    let addrs = addr
        .to_socket_addrs()
        .map_err(|e| Error::io(format!("cannot resolve {addr}"), e))?;
    let mut last = None;
    for sa in addrs {
        match std::net::TcpStream::connect_timeout(&sa, d.message) {
            Ok(s) => return Ok(Channel::tcp(s, d)),
            Err(e) => last = Some(e),
        }
    }
    Err(match last {
        Some(e) => Error::io(
            format!("cannot connect to {addr} (is `{hint}` listening?)"),
            e,
        ),
        None => Error::bad(format!("{addr}: no address to connect to")),
    })
}

/// A progress bar on stderr for long jobs: drawn only on a terminal, and only once the job
/// has run for a second, so quick runs and scripts see nothing.
pub struct Progress {
    bar: indicatif::ProgressBar,
    start: std::time::Instant,
    shown: bool,
    hidden: bool,
}

impl Progress {
    /// A bar for `total` steps, labelled `what`.
    pub fn new(total: u64, what: &str) -> Self {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::hidden(),
        );
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} ({eta} left)")
        {
            bar.set_style(style);
        }
        bar.set_message(what.to_string());
        Progress {
            bar,
            start: std::time::Instant::now(),
            shown: false,
            hidden: false,
        }
    }

    /// Never draw the bar (`-q`).
    pub fn hide(&mut self) {
        self.hidden = true;
    }

    /// Records that `done` steps are finished.
    pub fn set(&mut self, done: u64) {
        use std::io::IsTerminal;
        if !self.shown
            && !self.hidden
            && self.start.elapsed() >= std::time::Duration::from_secs(1)
            && std::io::stderr().is_terminal()
        {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(done);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// The first lines of every `inspect`: size, and the protocol and mode as the header says.
pub fn describe_header(f: &crate::proof_file::ProofFile, total: usize) -> crate::details::Details {
    use crate::proof_file::Mode;
    crate::details::Details::aligned(12)
        .count(
            "proof file",
            total as u64,
            format!(
                "{total} bytes (header {}, body {})",
                crate::proof_file::HEADER_LEN,
                f.body.len()
            ),
        )
        .text("protocol", f.protocol.name())
        .text(
            "mode",
            match f.mode {
                Mode::NonInteractive => "non-interactive (Fiat–Shamir): transferable evidence",
                Mode::Interactive => {
                    "interactive session transcript: NOT transferable evidence (a simulator can forge one)"
                }
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_names_every_catalog_puzzle_and_the_clis_are_consistent() {
        for (name, _) in crate::peg::catalog::PUZZLES {
            assert!(AFTER_HELP.contains(name), "{name}");
        }
        ProverCli::command().debug_assert();
        VerifierCli::command().debug_assert();
    }
}
