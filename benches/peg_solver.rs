//! Peg solitaire solver: the catalog's large central games, with and without the beam search.
//!
//! Baseline, measured in the same run: the depth-first search alone (`first_beam_width: 0`).
//! On the full Wiegleb and diamond boards the baseline does not finish within the default
//! budget (about 30 s to exhaust 20 million nodes), so the summary gives it 5 million nodes and
//! reports the ratio as a lower bound (`>`); criterion measures both searches on the English
//! board and the default solver on Wiegleb's.

use criterion::{criterion_group, Criterion};
use std::time::{Duration, Instant};
use zkgames::peg::board::Puzzle;
use zkgames::peg::solver::{solve_tuned, SolveOptions, SolveOutcome, Tuning};

fn load(name: &str) -> (Puzzle, SolveOptions) {
    let p = Puzzle::load(&format!("puzzles/peg/{name}.txt")).unwrap();
    let opts = SolveOptions {
        symmetries: p.symmetries(),
        ..SolveOptions::default()
    };
    (p, opts)
}

/// Node budget of the summary's runs (the baseline's would take minutes to exhaust otherwise).
const BASELINE_BUDGET: u64 = 5_000_000;

fn dfs_only() -> Tuning {
    Tuning {
        first_beam_width: 0,
        ..Tuning::default()
    }
}

fn summary() {
    for name in ["english", "wiegleb", "diamond-full"] {
        let (p, opts) = load(name);
        let mut line = format!("{name:<13}");
        let mut times = Vec::new();
        let mut exhausted = false;
        for (label, t) in [("beam+dfs", Tuning::default()), ("dfs only", dfs_only())] {
            let t0 = Instant::now();
            let opts = SolveOptions {
                node_budget: BASELINE_BUDGET,
                ..opts.clone()
            };
            let (o, st) = solve_tuned(p.instance(), &opts, &t);
            let dt = t0.elapsed();
            exhausted = matches!(o, SolveOutcome::BudgetExhausted { .. });
            let verdict = match o {
                SolveOutcome::Solved(z) => {
                    p.instance().check_solution(&z).unwrap();
                    "solved"
                }
                SolveOutcome::Impossible(_) => "impossible",
                SolveOutcome::BudgetExhausted { .. } => "budget exhausted",
            };
            line += &format!(
                "  {label}: {verdict} {} nodes {:.1} ms",
                st.nodes,
                dt.as_secs_f64() * 1e3
            );
            times.push(dt);
        }
        line += &format!(
            "  (dfs only / beam+dfs: {}{:.1}x)",
            if exhausted { ">" } else { "" },
            times[1].as_secs_f64() / times[0].as_secs_f64()
        );
        println!("{line}");
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("peg_solver");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    let (english, eo) = load("english");
    g.bench_function("english/beam+dfs", |b| {
        b.iter(|| solve_tuned(english.instance(), &eo, &Tuning::default()))
    });
    g.bench_function("english/dfs only", |b| {
        b.iter(|| solve_tuned(english.instance(), &eo, &dfs_only()))
    });
    let (wiegleb, wo) = load("wiegleb");
    g.bench_function("wiegleb/beam+dfs", |b| {
        b.iter(|| solve_tuned(wiegleb.instance(), &wo, &Tuning::default()))
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    summary();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
