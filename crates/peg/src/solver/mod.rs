//! A peg solitaire solver for any [`Instance`] (generic over triplets, not tied to a board).
//!
//! 1. **Proofs without search** (`invariants.rs`): position classes and pagoda functions (not
//!    used inside the search by default, see [`Tuning::search_pagodas`]).
//! 2. **Compilation** (`compiled.rs`): positions become machine words (`u64` up to 64 holes,
//!    `u128` up to 128); every move, symmetry and pagoda test becomes a mask, so a legality
//!    test is one AND and compare, and the canonical form of a child (its smallest image under
//!    the symmetries that map moves to moves and fix the goal, `symmetry.rs`) costs one XOR and
//!    one compare per symmetry.
//! 3. **Rounds** `r = 0, 1, 2, …`, sharing a table of dead positions (`table.rs`):
//!    - the endgame table (`endgame.rs`), every position that reaches the goal in the last few
//!      moves, found backwards from the goal, is extended to `4^r × 1024` positions;
//!    - a depth-first search (`dfs.rs`) that tries the most compact children first
//!      (`score.rs`) runs for `2^r ×` [`Tuning::first_restart_nodes`] positions (later rounds
//!      break ties between children at random);
//!    - a beam search (`beam.rs`) of width `4^r ×` [`Tuning::first_beam_width`] keeps, move
//!      after move, the positions with the most adjacent pegs and the pegs closest to the goal.
//!
//!    The depth-first search finds the English central game in about a thousand positions;
//!    the beam finds the large boards' (Wiegleb's 45 holes, the 41-hole diamond) where a
//!    depth-first search drowns in dead subtrees. A depth-first search that tries every move
//!    of the start proves impossibility; the beam only ever proves solvability.
//!
//! Boards of more than 128 holes go to the previous solver ([`baseline`]), kept for them, as
//! the baseline of the benchmark and as a second opinion in the tests. [`count`] enumerates
//! every position reachable from the start and those that can still reach the goal.

pub mod baseline;
mod beam;
#[doc(hidden)]
pub mod compiled;

mod dfs;
mod endgame;
mod invariants;
mod score;
mod symmetry;
#[doc(hidden)]
pub mod table;
#[doc(hidden)]
pub mod word;

pub use invariants::{is_pagoda, pagodas, position_class_witness};
pub use symmetry::valid_symmetries;

use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use crate::instance::{Instance, Matrix};
use compiled::Compiled;
use dfs::{Dfs, DfsEnd};
use endgame::Endgame;
use table::Table;
use word::Word;

/// Search settings.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Maximum number of positions expanded before giving up.
    pub node_budget: u64,
    /// Show a spinner on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// Candidate symmetries as vertex permutations (`p[v]` = image of `v`), e.g. from
    /// [`crate::board::Puzzle::symmetries`]. Invalid ones (not a permutation, not
    /// mapping moves to moves, or moving the goal position) are ignored, so passing a
    /// wrong list costs pruning power, never correctness.
    pub symmetries: Vec<Vec<u32>>,
}

/// Default node budget: enough for the catalog, small enough to bound memory (the dead-position
/// table is capped separately).
pub const DEFAULT_BUDGET: u64 = 20_000_000;
/// The dead-position table stops growing beyond this many entries (or [`TABLE_BYTES`]).
pub const MAX_TABLE: usize = 1 << 24;
/// Memory for the endgame table (positions near the goal, see `endgame.rs`).
pub const ENDGAME_BYTES: usize = 1 << 21;
/// Widest beam search. A round keeps this many positions per level, for every level of the
/// game, plus their children for one level.
pub const MAX_BEAM_WIDTH: usize = 1 << 14;
/// Memory for one beam search, 256 MiB.
pub const BEAM_BYTES: usize = 1 << 28;
/// Memory for the dead-position table, 512 MiB.
pub const TABLE_BYTES: usize = 1 << 29;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            node_budget: DEFAULT_BUDGET,
            progress: false,
            symmetries: Vec::new(),
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A valid solution matrix.
    Solved(Matrix),
    /// A proof that no solution exists, in words.
    Impossible(String),
    /// The node budget ran out first.
    BudgetExhausted { nodes: u64 },
}

/// Counters of one run.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    /// Positions expanded.
    pub nodes: u64,
    /// Entries of the dead-position table at the end.
    pub table: usize,
    /// Symmetries used (identity included).
    pub symmetries: usize,
    /// Valid pagoda functions found (used for the up-front proof, and inside the search up to
    /// [`Tuning::search_pagodas`]).
    pub pagodas: usize,
    /// Depth of the endgame table (moves before the goal covered by a backward search).
    pub endgame_depth: u32,
    /// Width of the beam search that found the solution; 0 if none did.
    pub beam_width: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Internal knobs of the search, for tests and experiments. Every setting is sound: they
/// change speed, never the verdict (up to the node budget).
#[derive(Clone, Debug)]
pub struct Tuning {
    /// Memory for the endgame table; 0 disables it.
    pub endgame_bytes: usize,
    /// Use pagoda functions (for the up-front proof).
    pub use_pagodas: bool,
    /// Pagoda functions also tested inside the search, at most this many (smallest supports
    /// first). Off by default: with the endgame table and the dead-position table they pruned
    /// almost nothing on the catalog and on random boards (0.05 % fewer positions, slower).
    pub search_pagodas: usize,
    /// Node budget of the first depth-first round (each round doubles it).
    pub first_restart_nodes: u64,
    /// Width of the first beam search; each round multiplies it by 4, up to
    /// [`MAX_BEAM_WIDTH`]. 0 disables the beam searches.
    pub first_beam_width: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            endgame_bytes: ENDGAME_BYTES,
            use_pagodas: true,
            search_pagodas: 0,
            first_restart_nodes: 2_000,
            first_beam_width: 64,
        }
    }
}

/// Solves `inst`; see the module documentation.
pub fn solve(inst: &Instance, opts: &SolveOptions) -> SolveOutcome {
    solve_with_stats(inst, opts).0
}

/// [`solve`] with counters.
pub fn solve_with_stats(inst: &Instance, opts: &SolveOptions) -> (SolveOutcome, SolveStats) {
    solve_tuned(inst, opts, &Tuning::default())
}

/// [`solve_with_stats`] with explicit [`Tuning`].
pub fn solve_tuned(
    inst: &Instance,
    opts: &SolveOptions,
    tuning: &Tuning,
) -> (SolveOutcome, SolveStats) {
    if inst.n() > 128 {
        return baseline::solve_tuned(inst, opts, tuning);
    }
    let t0 = Instant::now();
    let mut stats = SolveStats::default();
    let pags = if tuning.use_pagodas {
        pagodas(inst)
    } else {
        Vec::new()
    };
    stats.pagodas = pags.len();
    if let Some(why) = invariants::impossible_up_front(inst, &pags) {
        stats.elapsed = t0.elapsed();
        return (SolveOutcome::Impossible(why), stats);
    }
    let syms = valid_symmetries(inst, &opts.symmetries);
    stats.symmetries = syms.len();
    let out = if inst.n() <= 64 {
        search::<u64>(inst, opts, tuning, &syms, &pags, &mut stats)
    } else {
        search::<u128>(inst, opts, tuning, &syms, &pags, &mut stats)
    };
    stats.elapsed = t0.elapsed();
    (out, stats)
}

/// Entries of the endgame table in the first round; each round allows 4 times more, up to
/// [`ENDGAME_BYTES`].
const FIRST_ENDGAME_ENTRIES: usize = 1 << 10;

/// Nodes between two updates of the progress spinner.
const TICK: u64 = 1 << 16;

fn search<W: Word>(
    inst: &Instance,
    opts: &SolveOptions,
    tuning: &Tuning,
    syms: &[Vec<u32>],
    pags: &[Vec<i64>],
    stats: &mut SolveStats,
) -> SolveOutcome {
    let c = Compiled::<W>::new(inst, syms, &pags[..pags.len().min(tuning.search_pagodas)]);
    let n = inst.n();
    let bar = (opts.progress && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        b
    });
    let word = std::mem::size_of::<W>();
    let mut endgame = (tuning.endgame_bytes > 0)
        .then(|| Endgame::new(&c))
        .flatten();
    let eg_cap = tuning.endgame_bytes / (4 * word);
    let beam_first = tuning.first_beam_width;
    let dfs_first = tuning.first_restart_nodes;
    let table_cap = (MAX_TABLE.min(TABLE_BYTES / word) / 2 * 3).next_power_of_two();
    let mut dead: Table<W> = Table::with_capacity(1 << 10);
    let mut nodes: u64 = 0;
    let to_matrix = |path: Vec<W>| -> Matrix { path.into_iter().map(|s| s.to_bools(n)).collect() };
    let levels = (c.first_count - c.goal_count) as usize + 1;
    let max_width = MAX_BEAM_WIDTH
        .max(beam_first)
        .min(BEAM_BYTES / ((word + 8) * levels + word * c.g * 3))
        .max(1);
    let verdict = 'rounds: {
        for round in 0u32.. {
            if let Some(e) = endgame.as_mut() {
                e.extend(
                    &c,
                    eg_cap.min(FIRST_ENDGAME_ENTRIES.saturating_mul(1 << (2 * round.min(20)))),
                );
                stats.endgame_depth = e.depth();
            }
            // depth-first: this round's share of the budget is 2^round × first_restart_nodes
            let limit = nodes
                .saturating_add(dfs_first.max(1).saturating_mul(1u64 << round.min(40)))
                .min(opts.node_budget);
            let noise = if round == 0 { 0 } else { 3 };
            let mut dfs = Dfs::new(
                &c,
                endgame.as_ref(),
                noise,
                0x2545_F491_4F6C_DD1D ^ round as u64,
            );
            loop {
                let slice = match &bar {
                    Some(_) => limit.min(nodes + TICK),
                    None => limit,
                };
                match dfs.run(&c, &mut dead, table_cap, endgame.as_ref(), &mut nodes, slice) {
                    DfsEnd::Solved(path) => break 'rounds SolveOutcome::Solved(to_matrix(path)),
                    DfsEnd::Exhausted => {
                        break 'rounds SolveOutcome::Impossible(format!(
                            "exhaustive search: no sequence of moves reaches the goal ({nodes} positions expanded)"
                        ))
                    }
                    DfsEnd::Limit if nodes < limit => {
                        if let Some(b) = &bar {
                            b.set_message(format!(
                                "{nodes} positions, {} dead, round {round}",
                                dead.len()
                            ));
                            b.tick();
                        }
                    }
                    DfsEnd::Limit => break,
                }
            }
            if nodes >= opts.node_budget {
                break 'rounds SolveOutcome::BudgetExhausted { nodes };
            }
            if beam_first > 0 {
                let width = beam_first.saturating_mul(1 << (2 * round.min(20)));
                if width <= max_width {
                    let ctx = beam::BeamContext {
                        c: &c,
                        endgame: endgame.as_ref(),
                        dead: &dead,
                    };
                    let (found, used) = beam::run(&ctx, width, opts.node_budget - nodes);
                    nodes += used;
                    if let Some(path) = found {
                        stats.beam_width = width;
                        break 'rounds SolveOutcome::Solved(to_matrix(path));
                    }
                    if nodes >= opts.node_budget {
                        break 'rounds SolveOutcome::BudgetExhausted { nodes };
                    }
                }
            }
        }
        unreachable!("the rounds loop only ends by a verdict")
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    stats.nodes = nodes;
    stats.table = dead.len();
    verdict
}
