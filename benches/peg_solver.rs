//! Peg solitaire solver, with baselines measured in the same run.
//!
//! - Solving: every catalog puzzle with the solver (`solver::solve_tuned`) and with the previous
//!   one (`solver::baseline`), best of several runs each, in process; the ratio is
//!   baseline / ours. The baseline gets the old default tuning (first depth-first round of
//!   200 000 positions).
//! - Counting (`prover peg solve --count-all`): every position reachable from the start and
//!   those that can still reach the finish, up to symmetry, against a plain breadth-first count
//!   (one `std` hash set per level, canonical forms by applying each symmetry bit by bit). The
//!   plain count runs on the 25-hole diagonal board by default (a few seconds); set
//!   `PEG_COUNT_BASELINE=english` to run it on the English board too (about a minute). Also
//!   against the same count without sleep sets (`sleep_sets: false`): children listed
//!   and time. `PEG_COUNT_BOARDS` lists the boards counted (default
//!   `square5-diagonal,english`); `PEG_BENCH_RUNS` caps every best-of.
//!
//! - Against feschber/peg-solitaire (`PEER_FESCHBER=path/to/its/binary`, skipped when unset):
//!   its `calculate-all` and our `prover peg solve english --count-all --solvable-only` and
//!   `--count-all`, as whole processes taking turns (`PEER_RUNS` rounds, 7 by default), median
//!   wall time and peak resident memory of each, and our ratios to it. Its binary is built
//!   outside this project; nothing here fetches or builds it. `PEG_SOLVER_PEER_ONLY=1` runs
//!   the peer comparisons alone.
//!
//! `PEG_SOLVER_SUMMARY_ONLY=1` skips criterion's own statistics.
//!
//! Peer (optional, never in CI): `PEER_MARKUSTHILL=DIR`, a directory holding `english` built
//! from MarkusThill/solitaire-diamond's `english.cpp` (a backtracking solver of the English
//! central game that writes `moves.txt`). It and `prover peg solve english` run as whole
//! processes, alternately (`PEER_RUNS`, default 21), and the ratio peer / ours of the
//! median times is printed.

#[path = "common/quick.rs"]
mod quick;
use criterion::{criterion_group, Criterion};
use std::collections::HashSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use zkgames::peg::board::Puzzle;
use zkgames::peg::catalog;
use zkgames::peg::instance::Instance;
use zkgames::peg::solver::{baseline, solve_tuned, SolveOptions, SolveOutcome, Tuning};
use zkgames::peg_count::{count, Mode};

#[path = "common/peers.rs"]
mod peers;

fn load(name: &str) -> (Puzzle, SolveOptions) {
    let p = catalog::get(name).unwrap();
    let opts = SolveOptions {
        symmetries: p.symmetries(),
        ..SolveOptions::default()
    };
    (p, opts)
}

/// The tuning the old solver shipped with.
fn old_tuning() -> Tuning {
    Tuning {
        first_restart_nodes: 200_000,
        ..Tuning::default()
    }
}

/// Best wall-clock time of `runs` calls (at least one; at most `PEG_BENCH_RUNS` when set, 1
/// in quick mode), with the last result.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let cap = std::env::var("PEG_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let runs = runs.min(cap);
    let mut out = None;
    let mut best = Duration::MAX;
    for _ in 0..runs.max(1) {
        let t0 = Instant::now();
        let r = f();
        best = best.min(t0.elapsed());
        out = Some(r);
    }
    (best, out.expect("at least one run"))
}

fn verdict(p: &Puzzle, o: &SolveOutcome) -> &'static str {
    match o {
        SolveOutcome::Solved(z) => {
            p.instance().check_solution(z).unwrap();
            "solved"
        }
        SolveOutcome::Impossible(_) => "impossible",
        SolveOutcome::BudgetExhausted { .. } => "budget exhausted",
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn solve_summary() {
    println!("peg solver: best of several in-process runs, ours vs the previous solver (same run)");
    for name in catalog::names() {
        let (p, opts) = load(name);
        let (ours, (o, st)) = best(20, || solve_tuned(p.instance(), &opts, &Tuning::default()));
        let v = verdict(&p, &o);
        let (old, (bo, bst)) = best(3, || {
            baseline::solve_tuned(p.instance(), &opts, &old_tuning())
        });
        let bv = verdict(&p, &bo);
        assert_eq!(v, bv, "{name}: the two solvers disagree");
        println!(
            "  {name:<17} {v:<10} ours {:>9.3} ms ({:>6} positions)   baseline {:>9.3} ms ({:>8} positions)   {:>7.1}x",
            ms(ours),
            st.nodes,
            ms(old),
            bst.nodes,
            old.as_secs_f64() / ours.as_secs_f64()
        );
    }
}

/// The plain count: a breadth-first search with one `std` hash set per level, canonical forms
/// by applying each permutation bit by bit, solvable positions by checking each position's
/// complement against the levels (the same pairing as ours, done plainly) in a central game
/// (the finish the complement of the start), by a plain backward search from the finish
/// otherwise.
fn plain_count(inst: &Instance, group: &[Vec<u32>]) -> (u64, u64) {
    let n = inst.n();
    let enc = |s: &[bool]| {
        s.iter()
            .enumerate()
            .fold(0u64, |a, (i, &b)| a | (b as u64) << i)
    };
    let permute = |x: u64, p: &[u32]| (0..p.len()).fold(0u64, |a, v| a | (x >> v & 1) << p[v]);
    let canon = |x: u64| group.iter().map(|p| permute(x, p)).min().unwrap();
    let full = (1u64 << n) - 1;
    let moves: Vec<(u64, u64)> = inst
        .triplets()
        .iter()
        .flat_map(|t| {
            let (a, b, c) = (1u64 << t[0], 1u64 << t[1], 1u64 << t[2]);
            [(a | b, a | b | c), (b | c, a | b | c)]
        })
        .collect();
    let mut levels: Vec<HashSet<u64>> = vec![HashSet::from([canon(enc(inst.first()))])];
    loop {
        let mut next = HashSet::new();
        for &x in levels.last().unwrap() {
            for &(need, span) in &moves {
                if x & span == need {
                    next.insert(canon(x ^ span));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    let reachable = levels.iter().map(|l| l.len() as u64).sum();
    let last = enc(inst.last().expect("counting needs a finish position"));
    let solvable = if last == full ^ enc(inst.first()) {
        // a central game: x is solvable when its complement is reachable
        let pegs = |l: &HashSet<u64>| l.iter().next().map_or(0, |x| x.count_ones() as usize);
        levels
            .iter()
            .map(|l| {
                let partner = levels.iter().find(|m| pegs(m) == n - pegs(l));
                partner.map_or(0, |m| {
                    l.iter().filter(|&&x| m.contains(&canon(full ^ x))).count()
                }) as u64
            })
            .sum()
    } else {
        // otherwise: every position the finish is reached from, by unjumps from the finish
        let mut back = HashSet::from([canon(last)]);
        let mut frontier: Vec<u64> = back.iter().copied().collect();
        while let Some(y) = frontier.pop() {
            for &(need, span) in &moves {
                if y & span == span ^ need {
                    let x = canon(y ^ span);
                    if back.insert(x) {
                        frontier.push(x);
                    }
                }
            }
        }
        levels
            .iter()
            .map(|l| l.iter().filter(|x| back.contains(x)).count() as u64)
            .sum()
    };
    (reachable, solvable)
}

fn count_summary() {
    println!("peg solver --count-all: reachable and solvable positions up to symmetry, ours (all; solvable only) vs a plain BFS, and ours without sleep sets (same run)");
    let baseline_on: Vec<String> = std::env::var("PEG_COUNT_BASELINE")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let boards =
        std::env::var("PEG_COUNT_BOARDS").unwrap_or_else(|_| "square5-diagonal,english".into());
    for name in boards.split(',') {
        let p = catalog::get(name).unwrap();
        let syms = p.symmetries();
        let run = |mode, sleep_sets| {
            count(
                p.instance(),
                &syms,
                p.cells(),
                p.pagoda_hints(),
                1 << 26,
                mode,
                sleep_sets,
            )
            .unwrap()
        };
        let (ours, c) = best(3, || run(Mode::All, true));
        let (solvable_only, s) = best(3, || run(Mode::Solvable, true));
        assert_eq!(s.solvable, c.solvable, "{name}: solvable counts differ");
        let (awake, a) = best(3, || run(Mode::All, false));
        assert_eq!(
            a.levels, c.levels,
            "{name}: counts without sleep sets differ"
        );
        let reachable = c.reachable.expect("every level counted");
        let mut line = format!(
            "  {name:<17} reachable {:>9} solvable {:>8} (up to {} symmetries)   ours {:>8.1} ms   solvable only {:>7.1} ms",
            reachable,
            c.solvable,
            c.symmetries,
            ms(ours),
            ms(solvable_only)
        );
        if name != "english" || baseline_on.iter().any(|b| b == name) {
            // the symmetries fixing the start and the finish, found plainly
            let first = p.instance().first();
            let last = p.instance().last().unwrap();
            let group: Vec<Vec<u32>> = p
                .symmetries()
                .into_iter()
                .filter(|g| {
                    (0..g.len())
                        .all(|v| first[v] == first[g[v] as usize] && last[v] == last[g[v] as usize])
                })
                .collect();
            let (plain, (r, s)) = best(1, || plain_count(p.instance(), &group));
            assert_eq!((r, s), (reachable, c.solvable), "{name}: counts differ");
            line += &format!(
                "   plain BFS {:>9.1} ms   {:>6.1}x",
                ms(plain),
                plain.as_secs_f64() / ours.as_secs_f64()
            );
        }
        println!("{line}");
        println!(
            "  {:<17} sleep sets: {:.1} M children listed, {:.1} ms; without: {:.1} M, {:.1} ms ({:.2}x)",
            "",
            c.children as f64 / 1e6,
            ms(ours),
            a.children as f64 / 1e6,
            ms(awake),
            awake.as_secs_f64() / ours.as_secs_f64()
        );
    }
}

/// Runs `cmd` to its end: wall time, peak resident memory in KiB (Linux: the process's
/// `VmHWM`, read every millisecond until it exits, so growth in its last millisecond is
/// missed; `None` elsewhere), and its standard output.
fn run_process(cmd: &[String]) -> (Duration, Option<u64>, String) {
    let t0 = Instant::now();
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", cmd[0]));
    let status = format!("/proc/{}/status", child.id());
    let mut peak = None;
    // the output is small: read after the exit, the pipe does not fill
    let code = loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            if hwm.is_some() {
                peak = hwm.max(peak);
            }
        }
        if let Some(code) = child.try_wait().expect("wait for the child") {
            break code;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let wall = t0.elapsed();
    let mut out = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().expect("piped"), &mut out)
        .expect("read the child's output");
    assert!(code.success(), "{} failed: {code}", cmd.join(" "));
    (wall, peak, out)
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
    v[v.len() / 2]
}

/// Ours against feschber/peg-solitaire's `calculate-all` (the English board's solvable
/// positions up to symmetry, 1 679 072), whole processes taking turns; see the module
/// documentation.
fn peer_summary() {
    let Ok(peer) = std::env::var("PEER_FESCHBER") else {
        println!("peer comparison skipped: set PEER_FESCHBER=path/to/feschber/peg-solitaire (its binary) to run it");
        return;
    };
    let rounds: usize = std::env::var("PEER_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7)
        .max(1);
    let prover = env!("CARGO_BIN_EXE_prover").to_string();
    let ours = |extra: &[&str]| {
        let mut c: Vec<String> = ["peg", "solve", "english", "--count-all"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect();
        c.insert(0, prover.clone());
        c
    };
    let cmds = [
        (
            "feschber calculate-all",
            vec![peer, "calculate-all".to_string()],
        ),
        ("ours --solvable-only", ours(&["--solvable-only"])),
        ("ours --count-all", ours(&[])),
    ];
    let mut walls = vec![Vec::new(); cmds.len()];
    let mut peaks = vec![Vec::new(); cmds.len()];
    for _ in 0..rounds {
        for (i, (_, cmd)) in cmds.iter().enumerate() {
            let (wall, peak, out) = run_process(cmd);
            // both print the number of solvable positions: check it, not just the time
            let counted = if i == 0 {
                out.contains("1679072")
            } else {
                out.lines()
                    .any(|l| l.starts_with("total") && l.ends_with(" 1679072"))
            };
            assert!(counted, "{}: unexpected output\n{out}", cmd.join(" "));
            walls[i].push(wall.as_secs_f64());
            peaks[i].extend(peak);
        }
    }
    println!("ours vs feschber/peg-solitaire, English board, whole processes taking turns, {rounds} rounds, medians (same run):");
    let (pw, pp) = (median(walls[0].clone()), peaks[0].clone());
    let pp = (!pp.is_empty()).then(|| median(pp));
    for (i, (label, _)) in cmds.iter().enumerate() {
        let w = median(walls[i].clone());
        let p = (!peaks[i].is_empty()).then(|| median(peaks[i].clone()));
        let mem = match (p, pp) {
            (Some(p), Some(q)) => format!(
                "peak {:>6.1} MB ({:.2}x)",
                p as f64 * 1024.0 / 1e6,
                p as f64 / q as f64
            ),
            _ => "peak memory n/a".to_string(),
        };
        println!("  {label:<24} {:>8.1} ms ({:.2}x)   {mem}", w * 1e3, w / pw);
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("peg_solver");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for name in ["english", "wiegleb", "diamond-full"] {
        let (p, o) = load(name);
        g.bench_function(format!("{name}/ours"), |b| {
            b.iter(|| solve_tuned(p.instance(), &o, &Tuning::default()))
        });
    }
    let (english, eo) = load("english");
    g.bench_function("english/baseline", |b| {
        b.iter(|| baseline::solve_tuned(english.instance(), &eo, &old_tuning()))
    });
    g.finish();
}

criterion_group!(benches, bench);

/// MarkusThill's English solver against ours, whole processes, alternately.
fn peer_markusthill() {
    let Some(dir) = peers::peer("PEER_MARKUSTHILL", "MarkusThill English solver") else {
        return;
    };
    let runs: usize = std::env::var("PEER_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(21);
    let work = peers::scratch("markusthill");
    let peer = peers::Job::new(&dir.join("english"), &[], &work);
    let check_peer = |o: &std::process::Output| {
        peers::must_succeed("MarkusThill's solver", o);
        // it writes its solution (31 moves, three numbers each, after a short header)
        let moves = std::fs::read_to_string(work.join("moves.txt")).unwrap_or_default();
        let numbers = moves
            .lines()
            .filter(|l| l.trim().parse::<i32>().is_ok())
            .count();
        assert_eq!(
            numbers, 93,
            "MarkusThill's solver wrote no 31-move solution"
        );
    };
    let puzzle = catalog::get("english").unwrap();
    // ours, the solution on stdout (the peer's file is written without a sync either)
    let ours = peers::Job::new(
        &peers::ours("prover"),
        &["peg", "solve", "english", "-q"],
        &work,
    );
    let (o_ms, p_ms) = peers::alternate(runs, &ours, &peer, |ours, o| {
        if ours {
            peers::must_succeed("prover peg solve", o);
            puzzle
                .parse_solution(&String::from_utf8_lossy(&o.stdout))
                .expect("our solution checks");
        } else {
            check_peer(o)
        }
    });
    peers::report(
        "MarkusThill English central game, solve (whole process)",
        &o_ms,
        &p_ms,
    );
    // ours writing the solution file as every output file is written: a temporary file,
    // synced, renamed over the target
    let ours_file = peers::Job::new(
        &peers::ours("prover"),
        &["peg", "solve", "english", "-q", "-o", "ours.sol"],
        &work,
    );
    let (of_ms, pf_ms) = peers::alternate(runs, &ours_file, &peer, |ours, o| {
        if ours {
            peers::must_succeed("prover peg solve -o", o);
        } else {
            check_peer(o)
        }
    });
    let sol = std::fs::read_to_string(work.join("ours.sol")).unwrap();
    puzzle.parse_solution(&sol).expect("our solution checks");
    peers::report(
        "MarkusThill English central game, solve, ours with -o FILE (synced)",
        &of_ms,
        &pf_ms,
    );
    let _ = std::fs::remove_dir_all(&work);
}

fn main() {
    quick::quick(&[
        ("PEER_RUNS", "1"),
        ("PEG_BENCH_RUNS", "1"),
        ("PEG_COUNT_BOARDS", "tee"),
    ]);
    peer_markusthill();
    peer_summary();
    if std::env::var("PEG_SOLVER_PEER_ONLY").is_ok() {
        return;
    }
    solve_summary();
    count_summary();
    if std::env::var("PEG_SOLVER_SUMMARY_ONLY").is_err() {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}
