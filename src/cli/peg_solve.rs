//! `prover peg solve PUZZLE [-o SOLUTION]`: find a solution with [`crate::peg::solver`].

use crate::peg::board::Puzzle;
use crate::peg::solver::{solve_with_stats, SolveOptions, SolveOutcome, DEFAULT_BUDGET};
use crate::{Error, Result};

/// Arguments of `prover peg solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Puzzle file (board or raw format), `-` for stdin.
    pub puzzle: String,
    /// Write the solution here (`-` = stdout, the default); a new file gets mode 0600.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Give up after expanding this many positions [default: 20000000].
    #[arg(long)]
    pub budget: Option<u64>,
    /// Do not use the board's symmetries (slower; for comparison).
    #[arg(long)]
    pub no_symmetry: bool,
    /// No progress indicator.
    #[arg(long, short = 'q')]
    pub quiet: bool,
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
    let p = crate::cli::peg::load_puzzle(&a.puzzle)?;
    let budget = a.budget.unwrap_or(DEFAULT_BUDGET);
    let (text, summary) = solve_text(&p, budget, !a.no_symmetry, !a.quiet)?;
    // a solution is the secret a proof hides: mode 0600
    crate::files::Output::SECRET_TEXT.write(a.output.as_deref().unwrap_or("-"), text.as_bytes())?;
    eprintln!("{summary}");
    Ok(())
}
