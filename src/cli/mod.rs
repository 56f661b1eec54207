//! The logic of the `prover` and `verifier` binaries. The binaries only call
//! [`prover_main`] and [`verifier_main`].
//!
//! Exit status: 0 accepted or done; 1 proof rejected; 2 bad input or usage.

use std::net::TcpListener;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::net::server::{self, ServerOptions};
use crate::net::{Channel, Deadlines};
use crate::{Error, Result};

pub mod auth;
pub mod peg;
pub mod peg_solve;
pub mod sha256;
pub mod sha256_seal;
pub mod wall;
pub mod wall_seal;

/// Produce proofs, solve puzzles, take part in live sessions as the prover.
#[derive(Parser, Debug)]
#[command(
    name = "prover",
    version,
    about = "Prove knowledge of puzzle solutions in zero knowledge"
)]
pub struct ProverCli {
    #[command(subcommand)]
    pub cmd: ProverCmd,
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Peg solitaire: solve, prove (Protocol 1 of FUN 2022 or ZKB++), live sessions.
    #[command(subcommand)]
    Peg(peg::ProverCmd),
    /// SHA-256: prove knowledge of a preimage (ZKB++).
    #[command(subcommand)]
    Sha256(sha256::ProverCmd),
    /// Wall Game: seal a move (prove it legal without revealing it), live sessions, a demo.
    #[command(subcommand)]
    Wall(wall_seal::ProverCmd),
    /// Authentication keys: create a secret key and its public identity.
    #[command(subcommand)]
    Auth(auth::ProverCmd),
}

/// Verify proofs, inspect them, analyse Wall Game positions, serve live sessions.
#[derive(Parser, Debug)]
#[command(
    name = "verifier",
    version,
    about = "Verify zero-knowledge proofs of puzzle solutions"
)]
pub struct VerifierCli {
    #[command(subcommand)]
    pub cmd: VerifierCmd,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Peg solitaire: verify and inspect proofs, serve live sessions.
    #[command(subcommand)]
    Peg(peg::VerifierCmd),
    /// Wall Game: check positions and moves, replay game records, analyse legal walls, render, convert.
    #[command(subcommand)]
    Wall(wall::VerifierCmd),
    /// SHA-256: verify and inspect preimage proofs (ZKB++).
    #[command(subcommand)]
    Sha256(sha256::VerifierCmd),
    /// Authentication server's user database: add, list, remove users.
    #[command(subcommand)]
    Auth(auth::VerifierCmd),
}

fn finish(r: crate::Result<()>, who: &str) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            match &e {
                Error::Rejected(_) => eprintln!("{who}: REJECTED: {e}"),
                _ => eprintln!("{who}: error: {e}"),
            }
            e.exit_code()
        }
    }
}

/// Entry point of the `prover` binary; returns the exit status.
pub fn prover_main() -> i32 {
    let cli = ProverCli::parse();
    let r = match cli.cmd {
        ProverCmd::Peg(c) => peg::run_prover(c),
        ProverCmd::Sha256(c) => sha256::run_prover(c),
        ProverCmd::Wall(c) => wall_seal::run_prover(c),
        ProverCmd::Auth(c) => auth::run_prover(c),
    };
    finish(r, "prover")
}

/// Entry point of the `verifier` binary; returns the exit status.
pub fn verifier_main() -> i32 {
    let cli = VerifierCli::parse();
    let r = match cli.cmd {
        VerifierCmd::Peg(c) => peg::run_verifier(c),
        VerifierCmd::Wall(c) => wall::run_verifier(c),
        VerifierCmd::Sha256(c) => sha256::run_verifier(c),
        VerifierCmd::Auth(c) => auth::run_verifier(c),
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
    /// Sessions served at the same time; further connections are refused (not queued).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_sessions: u32,
    /// Save the accepted session's transcript (with --once or --stdio; NOT evidence).
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<String>,
    #[command(flatten)]
    pub deadlines: DeadlineArgs,
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
    let opts = ServerOptions {
        max_sessions: a.max_sessions as usize,
        deadlines: a.deadlines.deadlines(),
        log: server::LogFormat::Plain,
    };
    let st = server::serve(&l, &opts, &server::STOP, |ch, _| {
        handler(ch).map(|acc| acc.summary)
    })?;
    eprintln!(
        "stopped: {} accepted, {} rejected, {} failed, {} refused while busy",
        st.accepted, st.rejected, st.failed, st.busy
    );
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
