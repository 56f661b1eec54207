//! Wall Game cut oracle benchmarks. Every figure is a ratio against a baseline measured in the
//! same run:
//! - the reference benchmark: random 30×30 (and 11×11) grids, each edge present with
//!   probability 0.5, a random connected pair `(s, t)`, every pair of edges queried — oracle
//!   build time ÷ one BFS, per-query time oracle vs brute force (remove two edges, BFS);
//! - enumerating every legal double-wall move of an 11×11 two-player position (open board and
//!   ~25 % walls): oracle (build + enumerate) vs brute force (`naive::analyze`).
//!
//! Criterion prints its own statistics; `main` then prints a short summary of the ratios
//! (medians of repeated `Instant` timings) for docs/GUIDE.md, Performance.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkgames::wall::cut::double::{PairCut, PairCutBuilder, Workspace};
use zkgames::wall::cut::{naive, single, single_paths};
use zkgames::wall::graph::{Bfs, Graph};
use zkgames::wall::moves::MoveOracle;

fn grid(w: u32, h: u32, keep_p: f64, rng: &mut ChaCha20Rng) -> Graph {
    let mut edges = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let v = r * w + c;
            if c + 1 < w && rng.gen_bool(keep_p) {
                edges.push((v, v + 1));
            }
            if r + 1 < h && rng.gen_bool(keep_p) {
                edges.push((v, v + w));
            }
        }
    }
    Graph::new((w * h) as usize, edges)
}

/// One benchmark instance: a graph and a connected pair `s != t`.
struct Instance {
    g: Graph,
    s: u32,
    t: u32,
}

/// `count` random `w×w` grids with edge probability 0.5 and a random connected pair each.
fn instances(w: u32, count: usize, seed: u64) -> Vec<Instance> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut bfs = Bfs::new(0);
    let mut out = Vec::new();
    while out.len() < count {
        let g = grid(w, w, 0.5, &mut rng);
        for _ in 0..1000 {
            let s = rng.gen_range(0..w * w);
            let t = rng.gen_range(0..w * w);
            if s != t && bfs.connected(&g, s, t, &[]) {
                out.push(Instance { g, s, t });
                break;
            }
        }
    }
    out
}

/// Builds the oracle reusing `ws` and `out` (the way an engine would, position after
/// position); returns a value derived from it so the work is not optimised away.
fn build_reused(i: &Instance, ws: &mut Workspace, out: &mut PairCut) -> u64 {
    let mut b = PairCutBuilder::with_workspace(&i.g, std::mem::take(ws), [i.s]);
    b.build_into(i.s, i.t, out);
    *ws = b.into_workspace();
    out.red.len() as u64
}

/// Every pair `a < b` of edges, queried; returns the number of cutting pairs.
fn query_all(pc: &PairCut, m: u32) -> u64 {
    let mut hits = 0u64;
    for a in 0..m {
        for b in a + 1..m {
            hits += pc.cuts(a, b) as u64;
        }
    }
    hits
}

/// Every pair `a < b` of edges, queried a row at a time ([`PairCut::count_cuts_row`]).
fn query_all_rows(pc: &PairCut, m: u32) -> u64 {
    (0..m).map(|a| pc.count_cuts_row(a, a + 1) as u64).sum()
}

/// Every cutting pair `(a, b)`, `a < b`, listed output-sensitively from the oracle's tables:
/// a path bridge with any other edge, then the red/blue candidate intervals. The list answers
/// every pair query of the graph at once; returns its length.
fn list_all_cutting(pc: &PairCut, m: u32, out: &mut Vec<(u32, u32)>) -> u64 {
    out.clear();
    for &b in &pc.path_bridges {
        for e in 0..m {
            // a pair of two bridges is listed once, from the smaller one
            if e != b && !(pc.cuts_single(e) && e < b) {
                out.push((b.min(e), b.max(e)));
            }
        }
    }
    out.extend(
        pc.essential_candidate_pairs()
            .map(|(a, b)| (a.min(b), a.max(b))),
    );
    out.len() as u64
}

/// A fixed sample of edge pairs for the (slow) brute force.
fn sample_pairs(m: u32, count: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let a = rng.gen_range(0..m);
            let mut b = rng.gen_range(0..m);
            while b == a {
                b = rng.gen_range(0..m);
            }
            (a.min(b), a.max(b))
        })
        .collect()
}

fn brute_queries(inst: &Instance, pairs: &[(u32, u32)], bfs: &mut Bfs) -> u64 {
    pairs
        .iter()
        .map(|&(a, b)| !bfs.connected(&inst.g, inst.s, inst.t, &[a, b]) as u64)
        .sum()
}

/// An 11×11 two-player position: cats in the top corners, each chasing the other's mouse in
/// the bottom corners. `wall_p` of the slots are walled (retrying until both pairs connect).
fn position(wall_p: f64, seed: u64) -> (Graph, Vec<(u32, u32)>) {
    let w = 11u32;
    let pairs = vec![(0, w * w - 1), (w - 1, w * (w - 1))];
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut bfs = Bfs::new(0);
    loop {
        let g = grid(w, w, 1.0 - wall_p, &mut rng);
        if pairs.iter().all(|&(s, t)| bfs.connected(&g, s, t, &[])) {
            return (g, pairs);
        }
    }
}

/// A 30×30 board with 35 % walls with four connected pairs, for the single-cut methods.
fn single_cut_instance() -> (Graph, Vec<(u32, u32)>) {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let mut bfs = Bfs::new(0);
    let g = grid(30, 30, 0.65, &mut rng);
    let mut pairs = Vec::new();
    while pairs.len() < 4 {
        let (s, t) = (rng.gen_range(0..900), rng.gen_range(0..900));
        if s != t && bfs.connected(&g, s, t, &[]) {
            pairs.push((s, t));
        }
    }
    (g, pairs)
}

/// Indelible edges by brute force: remove each edge, BFS each pair.
fn single_brute(g: &Graph, pairs: &[(u32, u32)], bfs: &mut Bfs) -> u64 {
    (0..g.m() as u32)
        .filter(|&e| naive::cuts_some_pair(g, bfs, pairs, &[e]))
        .count() as u64
}

fn count_legal_doubles_oracle(g: &Graph, pairs: &[(u32, u32)]) -> u64 {
    let o = MoveOracle::build(g, pairs).expect("valid position");
    o.legal_doubles().count() as u64
}

fn count_legal_doubles_brute(g: &Graph, pairs: &[(u32, u32)]) -> u64 {
    let a = naive::analyze(g, pairs);
    let l = g.m() as u64 - a.illegal_single.len() as u64;
    l * l.saturating_sub(1) / 2 - a.illegal_pairs.len() as u64
}

/// Median wall time of `reps` runs of `f`.
fn median<F: FnMut() -> u64>(reps: usize, mut f: F) -> Duration {
    let mut ts: Vec<Duration> = (0..reps)
        .map(|_| {
            let t0 = Instant::now();
            black_box(f());
            t0.elapsed()
        })
        .collect();
    ts.sort();
    ts[reps / 2]
}

fn criterion_benches(c: &mut Criterion) {
    for (w, seed) in [(30u32, 30u64), (11, 11)] {
        let insts = instances(w, 10, seed);
        let mut group = c.benchmark_group(format!("grid{w}x{w}_p0.5_10graphs"));
        let mut bfs = Bfs::new(0);
        group.bench_function("one_bfs_each", |b| {
            b.iter(|| {
                insts
                    .iter()
                    .map(|i| bfs.reach_count(&i.g, i.s) as u64)
                    .sum::<u64>()
            })
        });
        group.bench_function("oracle_build_fresh_each", |b| {
            b.iter(|| {
                insts
                    .iter()
                    .map(|i| PairCut::build(&i.g, i.s, i.t).unwrap().red.len())
                    .sum::<usize>()
            })
        });
        let mut ws = Workspace::default();
        let mut out = PairCut::default();
        group.bench_function("oracle_build_reused_each", |b| {
            b.iter(|| {
                insts
                    .iter()
                    .map(|i| build_reused(i, &mut ws, &mut out))
                    .sum::<u64>()
            })
        });
        let built: Vec<PairCut> = insts
            .iter()
            .map(|i| PairCut::build(&i.g, i.s, i.t).unwrap())
            .collect();
        group.bench_function("oracle_all_edge_pairs", |b| {
            b.iter(|| {
                insts
                    .iter()
                    .zip(&built)
                    .map(|(i, pc)| query_all(pc, i.g.m() as u32))
                    .sum::<u64>()
            })
        });
        group.bench_function("oracle_all_edge_pairs_rows", |b| {
            b.iter(|| {
                insts
                    .iter()
                    .zip(&built)
                    .map(|(i, pc)| query_all_rows(pc, i.g.m() as u32))
                    .sum::<u64>()
            })
        });
        let samples: Vec<Vec<(u32, u32)>> = insts
            .iter()
            .map(|i| sample_pairs(i.g.m() as u32, 1000, 7))
            .collect();
        group.bench_function("brute_1000_edge_pairs_each", |b| {
            b.iter(|| {
                insts
                    .iter()
                    .zip(&samples)
                    .map(|(i, s)| brute_queries(i, s, &mut bfs))
                    .sum::<u64>()
            })
        });
        group.finish();
    }
    let (g, pairs) = single_cut_instance();
    let mut group = c.benchmark_group("single_cut_30x30_4pairs");
    group.bench_function("optimal_lca", |b| {
        b.iter(|| single::indelible(&g, &pairs).unwrap())
    });
    group.bench_function("paths_bridges", |b| {
        b.iter(|| single_paths::indelible(&g, &pairs).unwrap())
    });
    let mut bfs = Bfs::new(0);
    group.bench_function("brute_force", |b| {
        b.iter(|| single_brute(&g, &pairs, &mut bfs))
    });
    group.finish();
    let mut group = c.benchmark_group("enumerate_legal_doubles_11x11_two_players");
    for (label, wall_p) in [("open", 0.0), ("walls25", 0.25)] {
        let (g, pairs) = position(wall_p, 99);
        group.bench_function(format!("{label}_oracle"), |b| {
            b.iter(|| count_legal_doubles_oracle(&g, &pairs))
        });
        group.bench_function(format!("{label}_brute"), |b| {
            b.iter(|| count_legal_doubles_brute(&g, &pairs))
        });
    }
    group.finish();
}

fn summary() {
    println!("\n=== Wall cut oracle summary (ratios measured in this run) ===");
    for (w, seed) in [(30u32, 30u64), (11, 11)] {
        let insts = instances(w, 10, seed);
        let mut bfs = Bfs::new(0);
        let edges: u64 = insts.iter().map(|i| i.g.m() as u64).sum();
        let pairs: u64 = insts
            .iter()
            .map(|i| i.g.m() as u64 * (i.g.m() as u64 - 1) / 2)
            .sum();
        let t_bfs = median(101, || {
            insts
                .iter()
                .map(|i| bfs.reach_count(&i.g, i.s) as u64)
                .sum()
        });
        let t_fresh = median(101, || {
            insts
                .iter()
                .map(|i| PairCut::build(&i.g, i.s, i.t).unwrap().red.len() as u64)
                .sum()
        });
        let mut ws = Workspace::default();
        let mut out = PairCut::default();
        let t_build = median(101, || {
            insts
                .iter()
                .map(|i| build_reused(i, &mut ws, &mut out))
                .sum()
        });
        let built: Vec<PairCut> = insts
            .iter()
            .map(|i| PairCut::build(&i.g, i.s, i.t).unwrap())
            .collect();
        let positives: u64 = insts
            .iter()
            .zip(&built)
            .map(|(i, pc)| query_all(pc, i.g.m() as u32))
            .sum();
        let t_query = median(11, || {
            insts
                .iter()
                .zip(&built)
                .map(|(i, pc)| query_all(pc, i.g.m() as u32))
                .sum()
        });
        let rows: u64 = insts
            .iter()
            .zip(&built)
            .map(|(i, pc)| query_all_rows(pc, i.g.m() as u32))
            .sum();
        assert_eq!(rows, positives, "row queries disagree with single queries");
        let t_rows = median(11, || {
            insts
                .iter()
                .zip(&built)
                .map(|(i, pc)| query_all_rows(pc, i.g.m() as u32))
                .sum()
        });
        // Brute force on every pair, once (as the reference did), checking every answer.
        let t0 = Instant::now();
        let mut brute_pos = 0u64;
        for (i, pc) in insts.iter().zip(&built) {
            let m = i.g.m() as u32;
            for a in 0..m {
                for b in a + 1..m {
                    let cut = !bfs.connected(&i.g, i.s, i.t, &[a, b]);
                    brute_pos += cut as u64;
                    assert_eq!(pc.cuts(a, b), cut, "oracle disagrees with brute force");
                }
            }
        }
        let t_brute = t0.elapsed();
        assert_eq!(brute_pos, positives);
        let mut list = Vec::new();
        let listed: u64 = insts
            .iter()
            .zip(&built)
            .map(|(i, pc)| list_all_cutting(pc, i.g.m() as u32, &mut list))
            .sum();
        assert_eq!(
            listed, positives,
            "the output-sensitive list disagrees with the queries"
        );
        let t_list = median(101, || {
            insts
                .iter()
                .map(|i| {
                    build_reused(i, &mut ws, &mut out);
                    list_all_cutting(&out, i.g.m() as u32, &mut list)
                })
                .sum()
        });
        let q_oracle = t_query.as_secs_f64() / pairs as f64;
        let q_rows = t_rows.as_secs_f64() / pairs as f64;
        let q_brute = t_brute.as_secs_f64() / pairs as f64;
        let build_ratio = t_build.as_secs_f64() / t_bfs.as_secs_f64();
        let total_oracle = t_build.as_secs_f64() + t_rows.as_secs_f64();
        let total_brute = t_brute.as_secs_f64();
        println!(
            "{w}x{w} grids, p=0.5, 10 graphs, {:.0} edges/graph avg, {} edge pairs, {:.2}% cutting",
            edges as f64 / 10.0,
            pairs,
            100.0 * positives as f64 / pairs as f64
        );
        println!(
            "  one BFS {:.2} us/graph | oracle build {:.2} us/graph (buffers reused, as the BFS) | build / BFS = {:.1}x",
            t_bfs.as_secs_f64() * 1e5,
            t_build.as_secs_f64() * 1e5,
            build_ratio
        );
        println!(
            "  oracle build with fresh allocations {:.2} us/graph | fresh build / BFS = {:.1}x",
            t_fresh.as_secs_f64() * 1e5,
            t_fresh.as_secs_f64() / t_bfs.as_secs_f64()
        );
        println!(
            "  per query: oracle {:.3} ns, brute force {:.1} ns | speedup {:.0}x",
            q_oracle * 1e9,
            q_brute * 1e9,
            q_brute / q_oracle
        );
        println!(
            "  per query, a row at a time (count_cuts_row): oracle {:.3} ns | speedup {:.0}x",
            q_rows * 1e9,
            q_brute / q_rows
        );
        println!(
            "  all pairs incl. build (rows): oracle {:.2} ms, brute force {:.0} ms (all pairs, answers checked) | speedup {:.0}x",
            total_oracle * 1e3,
            total_brute * 1e3,
            total_brute / total_oracle
        );
        println!(
            "  all pairs answered at once (build + list every cutting pair from the tables): {:.1} us/graph, {:.4} ns per pair | speedup {:.0}x",
            t_list.as_secs_f64() * 1e5,
            t_list.as_secs_f64() / pairs as f64 * 1e9,
            total_brute / t_list.as_secs_f64()
        );
    }
    {
        let (g, pairs) = single_cut_instance();
        let mut bfs = Bfs::new(0);
        let a = single::indelible(&g, &pairs).unwrap();
        assert_eq!(a, single_paths::indelible(&g, &pairs).unwrap());
        let count = a.iter().filter(|&&x| x).count() as u64;
        assert_eq!(count, single_brute(&g, &pairs, &mut bfs));
        let t_lca = median(101, || single::indelible(&g, &pairs).unwrap().len() as u64);
        let t_paths = median(101, || {
            single_paths::indelible(&g, &pairs).unwrap().len() as u64
        });
        let t_brute = median(5, || single_brute(&g, &pairs, &mut bfs));
        println!(
            "single cut, 30x30 with 35% walls, 4 pairs, {} indelible: O(E+k) {:.1} us, O(E*k) {:.1} us, brute force {:.2} ms | speedups {:.0}x / {:.0}x",
            count,
            t_lca.as_secs_f64() * 1e6,
            t_paths.as_secs_f64() * 1e6,
            t_brute.as_secs_f64() * 1e3,
            t_brute.as_secs_f64() / t_lca.as_secs_f64(),
            t_brute.as_secs_f64() / t_paths.as_secs_f64()
        );
    }
    for (label, wall_p) in [("open board", 0.0), ("~25% walls", 0.25)] {
        let (g, pairs) = position(wall_p, 99);
        let a = count_legal_doubles_oracle(&g, &pairs);
        let b = count_legal_doubles_brute(&g, &pairs);
        assert_eq!(a, b, "legal double counts disagree");
        let t_o = median(21, || count_legal_doubles_oracle(&g, &pairs));
        let t_b = median(5, || count_legal_doubles_brute(&g, &pairs));
        println!(
            "11x11 two-player, {label}: {} slots, {} legal double moves | oracle {:.1} us, brute force {:.1} ms | speedup {:.0}x",
            g.m(),
            a,
            t_o.as_secs_f64() * 1e6,
            t_b.as_secs_f64() * 1e3,
            t_b.as_secs_f64() / t_o.as_secs_f64()
        );
    }
}

pub(crate) fn main() {
    // WALL_SUMMARY_ONLY=1 skips criterion and prints only the ratio summary.
    if std::env::var_os("WALL_SUMMARY_ONLY").is_some() {
        summary();
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500))
        .configure_from_args();
    criterion_benches(&mut c);
    c.final_summary();
    summary();
}
