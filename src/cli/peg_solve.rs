//! `prover peg solve PUZZLE [-o SOLUTION]`: find a solution with [`crate::peg::solver`];
//! `--count-all` instead counts the reachable and the solvable positions
//! ([`zkgames_peg_count`]).

use std::fmt::Write as _;
use std::time::Instant;

use crate::cli::report::{self, JsonArg};
use crate::peg::board::Puzzle;
use crate::peg::solver::{solve_with_stats, SolveOptions, SolveOutcome, DEFAULT_BUDGET};
use crate::Error;
use crate::Result;
use zkgames_peg_count::{count, Counts, Mode, DEFAULT_MAX_POSITIONS};

/// Arguments of `prover peg solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Puzzle file (board or raw format), `-` for stdin, or a catalog name (english, tee, ...).
    pub puzzle: String,
    /// Write the solution here (`-` = stdout, the default); a new file gets mode 0600.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Instead of solving, count every position reachable from the start and those from
    /// which the finish is still reachable, per peg count, up to the symmetries that fix the
    /// start and the finish (boards of at most 64 holes with a finish position).
    #[arg(long)]
    pub count_all: bool,
    /// With `--count-all`: count only the solvable positions. On a central game the reachable
    /// positions are then enumerated only down to half the holes (their counts stop there),
    /// which is more than twice as fast on the English board, and uses less memory (on the
    /// 5 × 5 diagonal board, where two thirds of the positions are solvable, it is slower).
    #[arg(long, requires = "count_all")]
    pub solvable_only: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub out: JsonArg,
}

/// The solver's options, shared by `peg solve` and `peg demo`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Give up after expanding this many positions (at least 1) [default: 20000000]; with
    /// `solve --count-all`, after storing this many [default: 67108864].
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

/// Counts the puzzle's reachable and solvable positions ([`Mode`]), storing at most
/// `max_positions`; returns the table (one line per peg count, then the totals; `-` for a
/// count not made), a one-line summary, and the counts themselves.
pub fn count_report(
    p: &Puzzle,
    mode: Mode,
    symmetry: bool,
    max_positions: u64,
) -> Result<(String, String, Counts)> {
    let t0 = Instant::now();
    let syms = if symmetry { p.symmetries() } else { Vec::new() };
    let c: Counts = count(
        p.instance(),
        &syms,
        p.cells(),
        p.pagoda_hints(),
        max_positions,
        mode,
        true,
    )?;
    let mut out = format!(
        "# {}: positions reachable from the start (reachable) and, of those, positions from which\n\
         # the finish can be reached (solvable), counted up to the {} symmetries of the board that\n\
         # fix the start and the finish\n# pegs reachable solvable\n",
        p.name(),
        c.symmetries
    );
    let opt = |x: Option<u64>| x.map_or("-".to_string(), |v| v.to_string());
    for l in &c.levels {
        let _ = writeln!(out, "{} {} {}", l.pegs, opt(l.reachable), l.solvable);
    }
    let _ = writeln!(out, "total {} {}", opt(c.reachable), c.solvable);
    let what = match c.reachable {
        Some(r) => format!("{r} positions reachable, {} of them solvable", c.solvable),
        None => format!("{} positions solvable", c.solvable),
    };
    let summary = format!(
        "{}: {what} (up to {} symmetries), {:.3} s",
        p.name(),
        c.symmetries,
        t0.elapsed().as_secs_f64()
    );
    Ok((out, summary, c))
}

/// Runs `prover peg solve`.
pub fn run(a: SolveArgs) -> Result<()> {
    let json = a.out.enable();
    let p = load_puzzle(&a.puzzle)?;
    let s = &a.search;
    // JSON mode: no progress line (it is stderr, but one object per run keeps stderr quiet too)
    let (text, summary, obj) = if a.count_all {
        let mode = if a.solvable_only {
            Mode::Solvable
        } else {
            Mode::All
        };
        let (text, summary, c) = count_report(
            &p,
            mode,
            !s.no_symmetry,
            s.budget.unwrap_or(DEFAULT_MAX_POSITIONS),
        )?;
        let levels: Vec<_> = c
            .levels
            .iter()
            .map(|l| serde_json::json!({"pegs": l.pegs, "reachable": l.reachable, "solvable": l.solvable}))
            .collect();
        let obj = serde_json::json!({
            "puzzle": p.name(),
            "symmetries": c.symmetries,
            "reachable": c.reachable,
            "solvable": c.solvable,
            "levels": levels,
        });
        (text, summary, report::verdict("counted", obj))
    } else {
        let (text, summary) = solve_text(&p, s.budget(), !s.no_symmetry, !s.quiet && !json)?;
        let obj = serde_json::json!({
            "puzzle": p.name(),
            "summary": summary,
            "output": a.output,
            // the solution itself only when it is not written to a file
            "solution": if a.output.as_deref().is_none_or(|o| o == "-") { Some(&text) } else { None },
        });
        (text, summary, report::verdict("solved", obj))
    };
    if json {
        if let Some(o) = a.output.as_deref().filter(|o| *o != "-") {
            crate::files::Output::SECRET_TEXT.write(o, text.as_bytes())?;
        }
        println!("{obj}");
        return Ok(());
    }
    // a solution is the secret a proof hides: mode 0600 (a count is not secret, but harmless)
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
