//! The logic of the `prover` and `verifier` binaries. The binaries only call
//! [`prover_main`] and [`verifier_main`].
//!
//! Exit status: 0 accepted or done; 1 proof rejected; 2 bad input or usage.

use clap::{CommandFactory, Parser, Subcommand};

use crate::Error;

pub mod peg;
pub mod peg_solve;
pub mod sha256;
pub mod wall;

/// The end of both binaries' `--help`: exit codes, file conventions, catalog names.
pub const AFTER_HELP: &str = "\
Exit status:
  0  accepted, or done
  1  proof rejected; illegal move or position (wall check); puzzle impossible or the
     solver's budget exhausted
  2  bad input or usage (a file, an argument, a limit)

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
    /// Print a shell completion script for this binary.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Manpage(ManpageArgs),
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

fn manpages(cmd: clap::Command, a: ManpageArgs) -> crate::Result<()> {
    fn render(cmd: &clap::Command) -> crate::Result<Vec<u8>> {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd.clone())
            .render(&mut out)
            .map_err(|e| Error::io("cannot render the manual page", e))?;
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
    #[command(subcommand)]
    pub cmd: VerifierCmd,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Peg solitaire: verify and inspect proofs, serve live sessions.
    #[command(subcommand)]
    Peg(peg::VerifierCmd),
    /// Wall Game positions: check validity, analyse legal walls, render, convert.
    #[command(subcommand)]
    Wall(wall::VerifierCmd),
    /// SHA-256: verify and inspect preimage proofs (ZKB++).
    #[command(subcommand)]
    Sha256(sha256::VerifierCmd),
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
                _ => eprintln!("{who}: error: {msg}"),
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
        ProverCmd::Completions(a) => completions(ProverCli::command(), a),
        ProverCmd::Manpage(a) => manpages(ProverCli::command(), a),
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
        VerifierCmd::Completions(a) => completions(VerifierCli::command(), a),
        VerifierCmd::Manpage(a) => manpages(VerifierCli::command(), a),
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

/// A progress bar on stderr for long jobs: drawn only on a terminal, and only once the job
/// has run for a second, so quick runs and scripts see nothing.
pub struct Progress {
    bar: indicatif::ProgressBar,
    start: std::time::Instant,
    shown: bool,
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
        }
    }

    /// Records that `done` steps are finished.
    pub fn set(&mut self, done: u64) {
        use std::io::IsTerminal;
        if !self.shown
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
pub fn describe_header(f: &crate::proof_file::ProofFile, total: usize) -> String {
    use crate::proof_file::Mode;
    format!(
        "proof file: {total} bytes (header {}, body {})\nprotocol:   {}\nmode:       {}\n",
        crate::proof_file::HEADER_LEN,
        f.body.len(),
        f.protocol.name(),
        match f.mode {
            Mode::NonInteractive => "non-interactive (Fiat–Shamir): transferable evidence",
            Mode::Interactive =>
                "interactive session transcript: NOT transferable evidence (a simulator can forge one)",
        }
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
