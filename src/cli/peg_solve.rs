//! `prover peg solve PUZZLE [-o SOLUTION]`: find a solution with [`crate::peg::solver`].

use crate::peg::board::Puzzle;
use crate::peg::solver::{solve_with_stats, SolveOptions, SolveOutcome, DEFAULT_BUDGET};
use crate::{Error, Result};

/// Arguments of `prover peg solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Puzzle file (board or raw format), `-` for stdin, or a catalog name (english, tee, ...).
    pub puzzle: String,
    /// Write the solution here (`-` = stdout, the default); a new file gets mode 0600.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The solver's options, shared by `peg solve` and `peg demo`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Give up after expanding this many positions (at least 1) [default: 20000000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: Option<u64>,
    /// Do not use the board's symmetries (slower; for comparison).
    #[arg(long)]
    pub no_symmetry: bool,
    /// No progress indicator.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl SearchArgs {
    /// The node budget asked for, or the default.
    pub fn budget(&self) -> u64 {
        self.budget.unwrap_or(DEFAULT_BUDGET)
    }
}

/// Solves the puzzle and returns the solution text (move list for boards, matrix for raw
/// instances) with a one-line summary of the search.
pub fn solve_text(
    p: &Puzzle,
    budget: u64,
    symmetry: bool,
    progress: bool,
) -> Result<(String, String)> {
    let opts = SolveOptions {
        node_budget: budget,
        progress,
        symmetries: if symmetry { p.symmetries() } else { Vec::new() },
    };
    let (out, st) = solve_with_stats(p.instance(), &opts);
    let summary = format!(
        "{}: {} positions expanded, {} dead positions stored, {} symmetries, {} pagoda functions, {:.3} s",
        p.name(),
        st.nodes,
        st.table,
        st.symmetries,
        st.pagodas,
        st.elapsed.as_secs_f64()
    );
    match out {
        SolveOutcome::Solved(z) => {
            // Never hand out a wrong solution, whatever happened above.
            p.instance().check_solution(&z)?;
            Ok((p.format_solution(&z), summary))
        }
        SolveOutcome::Impossible(why) => Err(Error::rejected(format!(
            "{} is impossible: {why}",
            p.name()
        ))),
        SolveOutcome::BudgetExhausted { nodes } => Err(Error::rejected(format!(
            "search budget of {nodes} nodes exhausted; try --budget {}",
            budget.saturating_mul(10)
        ))),
    }
}

/// Runs `prover peg solve`.
pub fn run(a: SolveArgs) -> Result<()> {
    let p = load_puzzle(&a.puzzle)?;
    let s = &a.search;
    let (text, summary) = solve_text(&p, s.budget(), !s.no_symmetry, !s.quiet)?;
    // a solution is the secret a proof hides: mode 0600
    crate::files::Output::SECRET_TEXT.write(a.output.as_deref().unwrap_or("-"), text.as_bytes())?;
    eprintln!("{summary}");
    Ok(())
}

/// Loads a puzzle file, or a built-in catalog puzzle by name (`english`, `tee`, ...).
pub fn load_puzzle(path: &str) -> Result<Puzzle> {
    crate::peg::catalog::load(path).map_err(|e| match e {
        Error::Io { .. } => Error::bad(format!(
            "{e} (give a puzzle file, or one of the built-in puzzles: {})",
            crate::peg::catalog::names().join(", ")
        )),
        e => e,
    })
}
