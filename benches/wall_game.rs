//! The Wall Game as played: move legality and move enumeration with the cut oracle, each
//! against a brute force measured in the same run (remove the move's walls, BFS every attached
//! pair). Positions: 12×12 cat-and-mouse, cats mid-board, mice in the bottom corners, no walls
//! or random walls on ~25 % of the slots (kept only while every cat reaches its mouse).
//!
//! - checking random moves of one wall or two walls (half of them next to a mouse): one-off
//!   (`Game::check`, BFS), cached (`Checker`, one oracle per pawn option), brute force;
//! - enumerating every legal move of the player to move (`Game::legal_moves`) vs brute force
//!   (every pawn option, every slot and pair of slots, BFS).
//!
//! Criterion prints its own statistics; `main` then prints a summary of the ratios (medians of
//! repeated `Instant` timings). `WALL_SUMMARY_ONLY=1` prints the summary alone;
//! `WALL_PEER_ONLY=1` stops after the peer run.
//!
//! Peer (optional, never in CI): `PEER_WALLWARS=FILE`, the `wallwars_ai` binary built from
//! nmamano/wallwars's `AI/source/main.cc` (a negamax engine for the Wall Game's classic
//! variant). It has no command that only lists or checks moves: its `benchmark` command runs
//! fixed-time searches (2 × 10 s per situation, about three minutes in all) and records the
//! children (legal moves) its search generated. The bench runs it once as a whole process,
//! between two measurements of ours on the same empty boards (8×8 and 10×12, cats in the top
//! corners, goals in the opposite bottom corners), and prints legal moves produced per second
//! by each: not the same job (the peer's time includes its search), so the figure bounds the
//! peer's move generation from below.

#[path = "common/quick.rs"]
mod quick;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkgames::wall::board::{Dir, Player, Position, Setup, Variant, Wall};
use zkgames::wall::cut::naive;
use zkgames::wall::game::{Checker, Game, Move};
use zkgames::wall::graph::Bfs;

#[path = "common/peers.rs"]
mod peers;

/// A 12×12 cat-and-mouse game with walls on about `wall_p` of the slots.
fn game(wall_p: f64, seed: u64) -> Game {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let players = vec![
        Player {
            cat: (3, 3),
            mouse: Some((11, 0)),
            goal: None,
        },
        Player {
            cat: (3, 8),
            mouse: Some((11, 11)),
            goal: None,
        },
    ];
    let setup = Setup::Game {
        variant: Variant::CatAndMouse,
        players,
    };
    let mut walls: Vec<Wall> = Vec::new();
    let slots = 2 * 12 * 11;
    while (walls.len() as f64) < wall_p * slots as f64 {
        let w = Wall::new(
            rng.gen_range(0..12),
            rng.gen_range(0..12),
            if rng.gen_bool(0.5) { Dir::R } else { Dir::D },
        );
        let mut try_walls = walls.clone();
        try_walls.push(w);
        if let Ok(p) = Position::new(12, 12, try_walls.clone(), setup.clone()) {
            if p.is_valid() {
                walls = try_walls;
            }
        }
    }
    Game::new(Position::new(12, 12, walls, setup).unwrap(), 0).unwrap()
}

/// Random moves of `k` walls on free slots (half of them next to a mouse, where walls cut),
/// half with a one-step cat move when `k == 1`.
fn moves(g: &Game, k: usize, count: usize, seed: u64) -> Vec<Move> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let free = g.position().graph().free().to_vec();
    let mice: Vec<(u32, u32)> = g.players().iter().filter_map(|p| p.mouse).collect();
    let near: Vec<Wall> = free
        .iter()
        .copied()
        .filter(|w| {
            let (a, b) = w.cells();
            mice.iter().any(|&m| {
                let d = |c: (u32, u32)| c.0.abs_diff(m.0) + c.1.abs_diff(m.1);
                d(a) <= 1 || d(b) <= 1
            })
        })
        .collect();
    let pick = |rng: &mut ChaCha20Rng| {
        if rng.gen_bool(0.5) {
            near[rng.gen_range(0..near.len())]
        } else {
            free[rng.gen_range(0..free.len())]
        }
    };
    (0..count)
        .map(|_| {
            let mut ws = vec![pick(&mut rng)];
            while ws.len() < k {
                let w = pick(&mut rng);
                if !ws.contains(&w) {
                    ws.push(w);
                }
            }
            let cat = g.players()[0].cat;
            let step = (k == 1 && rng.gen_bool(0.5)).then_some((cat.0, cat.1 + 1));
            Move::new(step, None, ws)
        })
        .collect()
}

/// Brute force: apply the pawn part, then remove the walls one by one and BFS every pair.
fn brute_check(g: &Game, mv: &Move, bfs: &mut Bfs) -> bool {
    let mut players = g.players().to_vec();
    if let Some(c) = mv.cat() {
        players[0].cat = c;
    }
    let after = Position::new(
        12,
        12,
        g.position().walls().to_vec(),
        Setup::Game {
            variant: Variant::CatAndMouse,
            players,
        },
    )
    .unwrap();
    let bg = after.graph();
    let pairs = after.node_pairs();
    let mut removed = Vec::new();
    for &w in mv.walls() {
        match bg.edge_of(w) {
            Some(e) => removed.push(e),
            None => return false,
        }
        if naive::cuts_some_pair(&bg.graph, bfs, &pairs, &removed) {
            return false;
        }
    }
    true
}

/// Brute-force count of the legal moves of player 1 with no pawn part and one or two walls.
fn brute_wall_moves(g: &Game) -> u64 {
    let bg = g.position().graph();
    let pairs = g.position().node_pairs();
    let a = naive::analyze(&bg.graph, &pairs);
    let l = bg.graph.m() as u64 - a.illegal_single.len() as u64;
    l + l * l.saturating_sub(1) / 2 - a.illegal_pairs.len() as u64
}

fn oracle_wall_moves(g: &Game) -> u64 {
    g.legal_moves(0)
        .iter()
        .filter(|m| m.cat().is_none() && m.mouse().is_none() && !m.walls().is_empty())
        .count() as u64
}

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
    let g = game(0.25, 1);
    let two = moves(&g, 2, 1000, 2);
    let mut group = c.benchmark_group("wall_game_12x12_walls25");
    group.bench_function("check_2walls_x1000_cached", |b| {
        b.iter(|| {
            let mut ch = Checker::new(&g);
            two.iter().filter(|m| ch.check(0, m).is_ok()).count()
        })
    });
    group.bench_function("check_2walls_x1000_brute", |b| {
        let mut bfs = Bfs::new(0);
        b.iter(|| two.iter().filter(|m| brute_check(&g, m, &mut bfs)).count())
    });
    group.bench_function("legal_moves", |b| b.iter(|| g.legal_moves(0).len()));
    group.finish();
}

fn summary() {
    println!("\n=== Wall Game moves: 12x12 cat-and-mouse ===");
    for (label, wall_p) in [("open board", 0.0), ("~25% walls", 0.25)] {
        let g = game(wall_p, 1);
        let mut bfs = Bfs::new(0);
        for k in [1usize, 2] {
            let ms = moves(&g, k, 1000, 3);
            let legal = ms.iter().filter(|m| g.check(0, m).is_ok()).count();
            let brute_legal = ms.iter().filter(|m| brute_check(&g, m, &mut bfs)).count();
            assert_eq!(legal, brute_legal, "oracle and brute force agree");
            let n = ms.len() as f64;
            let t_one = median(7, || {
                ms.iter().filter(|m| g.check(0, m).is_ok()).count() as u64
            });
            let t_cached = median(7, || {
                let mut ch = Checker::new(&g);
                ms.iter().filter(|m| ch.check(0, m).is_ok()).count() as u64
            });
            let t_brute = median(7, || {
                ms.iter().filter(|m| brute_check(&g, m, &mut bfs)).count() as u64
            });
            let us = |t: Duration| t.as_secs_f64() * 1e6 / n;
            println!(
                "{label}, {k} wall(s) per move ({legal}/1000 legal): one-off check {:.2} us, cached {:.3} us, brute force {:.2} us per move | cached {:.0}x faster than brute force, one-off {:.2}x",
                us(t_one),
                us(t_cached),
                us(t_brute),
                t_brute.as_secs_f64() / t_cached.as_secs_f64(),
                t_brute.as_secs_f64() / t_one.as_secs_f64()
            );
        }
        let count = g.legal_moves(0).len();
        assert_eq!(oracle_wall_moves(&g), brute_wall_moves(&g));
        let t_o = median(5, || g.legal_moves(0).len() as u64);
        let t_b = median(3, || brute_wall_moves(&g));
        println!(
            "{label}: all {count} legal moves enumerated in {:.2} ms; brute force for the wall-only moves alone {:.1} ms ({:.0}x)",
            t_o.as_secs_f64() * 1e3,
            t_b.as_secs_f64() * 1e3,
            t_b.as_secs_f64() / t_o.as_secs_f64()
        );
    }
}

/// The empty classic board of wallwars's benchmark: player 1's cat top left with its goal
/// bottom right, player 2's top right with its goal bottom left.
fn classic_empty(rows: u32, cols: u32) -> Game {
    let players = vec![
        Player {
            cat: (0, 0),
            mouse: None,
            goal: Some((rows - 1, cols - 1)),
        },
        Player {
            cat: (0, cols - 1),
            mouse: None,
            goal: Some((rows - 1, 0)),
        },
    ];
    let setup = Setup::Game {
        variant: Variant::Classic,
        players,
    };
    Game::new(Position::new(rows, cols, vec![], setup).unwrap(), 0).unwrap()
}

/// Ours: legal moves of the player to move, and the median time to enumerate them all.
fn our_move_rate(g: &Game) -> (usize, Duration) {
    let n = g.legal_moves(0).len();
    (n, median(9, || g.legal_moves(0).len() as u64))
}

/// wallwars's own benchmark (once, whole process) between two measurements of ours.
fn peer_wallwars() {
    let Some(bin) = peers::peer(
        "PEER_WALLWARS",
        "wallwars move generation (nmamano/wallwars)",
    ) else {
        return;
    };
    let work = peers::scratch("wallwars");
    // it writes its report to ../benchmark_out/ relative to where it runs
    std::fs::create_dir_all(work.join("run")).unwrap();
    std::fs::create_dir_all(work.join("benchmark_out")).unwrap();
    let boards = [("Empty-8x8", 8u32, 8u32), ("Empty-10x12", 10, 12)];
    let before: Vec<_> = boards
        .iter()
        .map(|&(_, r, c)| our_move_rate(&classic_empty(r, c)))
        .collect();
    let job = peers::Job::new(&bin, &["benchmark"], &work.join("run"));
    let (peer_ms, out) = job.run();
    peers::must_succeed("wallwars_ai benchmark", &out);
    let after: Vec<_> = boards
        .iter()
        .map(|&(_, r, c)| our_move_rate(&classic_empty(r, c)))
        .collect();
    let csv = std::fs::read_dir(work.join("benchmark_out"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "csv"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .expect("wallwars wrote its CSV report");
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (c_sit, c_ms, c_gen) = (
        col("situation"),
        col("runtime_ms"),
        col("generated_children"),
    );
    println!(
        "PEER wallwars: its benchmark ran {:.0} s as one process; legal moves produced per second:",
        peer_ms / 1e3
    );
    for (i, &(name, r, c)) in boards.iter().enumerate() {
        let row: Vec<&str> = csv
            .lines()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|f| f.get(c_sit) == Some(&name))
            .unwrap_or_else(|| panic!("no {name} row in wallwars's CSV"));
        let ms: f64 = row[c_ms].parse().unwrap();
        let generated: f64 = row[c_gen].parse().unwrap();
        let peer_rate = generated / (ms / 1e3);
        let (n, t) = (before[i].0, before[i].1.min(after[i].1));
        let our_rate = n as f64 / t.as_secs_f64();
        println!(
            "PEER wallwars {name} ({r}x{c} classic, empty): ours {n} legal moves enumerated in {:.2} ms = {:.1} M/s (best of before/after); \
             peer {:.0} children generated in {:.0} ms of search = {:.1} M/s; ours/peer {:.2}x",
            t.as_secs_f64() * 1e3,
            our_rate / 1e6,
            generated,
            ms,
            peer_rate / 1e6,
            our_rate / peer_rate
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

fn main() {
    quick::quick(&[]);
    peer_wallwars();
    if std::env::var_os("WALL_PEER_ONLY").is_some() {
        return;
    }
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
