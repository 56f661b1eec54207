//! The Wall Game cut oracle against brute force: known answers, hand-checked boards, and
//! seeded random property tests (grids and general multigraphs, exhaustive for tiny graphs).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkgames::wall::cut::bridges::{bridge_mask, Blocks};
use zkgames::wall::cut::double::{PairCut, PairCutBuilder, Workspace, CLASS_BRIDGE, CLASS_RED};
use zkgames::wall::cut::{naive, single, single_paths};
use zkgames::wall::graph::{Bfs, Graph};
use zkgames::wall::moves::{self, BuildError, MoveOracle};

fn from_adjacency(adj: &[&[u32]]) -> Graph {
    let mut edges = Vec::new();
    for (u, list) in adj.iter().enumerate() {
        for &v in *list {
            if (u as u32) < v {
                edges.push((u as u32, v));
            }
        }
    }
    Graph::new(adj.len(), edges)
}

fn edge_set(g: &Graph, mask: &[bool]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = (0..g.m())
        .filter(|&e| mask[e])
        .map(|e| {
            let (a, b) = g.edge(e as u32);
            (a.min(b), a.max(b))
        })
        .collect();
    v.sort_unstable();
    v
}

fn nine_node() -> Graph {
    from_adjacency(&[
        &[1],
        &[0, 2, 3],
        &[1, 3, 4],
        &[1, 2],
        &[2, 5, 7],
        &[4, 6],
        &[5, 7],
        &[4, 6, 8],
        &[7],
    ])
}

/// Indelible edges as node pairs, by all three methods (which must agree).
fn indelible_all(g: &Graph, pairs: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let a = single_paths::indelible(g, pairs).expect("connected");
    let b = single::indelible(g, pairs).expect("connected");
    assert_eq!(a, b, "O(E·k) and O(E+k) disagree");
    let an = naive::analyze(g, pairs);
    let mask_naive: Vec<bool> = (0..g.m() as u32)
        .map(|e| an.illegal_single.contains(&e))
        .collect();
    assert_eq!(a, mask_naive, "fast single cut disagrees with brute force");
    let ao = moves::analyze(g, pairs);
    assert_eq!(ao, an, "oracle analysis disagrees with brute force");
    edge_set(g, &a)
}

#[test]
fn nine_node_known_answers() {
    let g = nine_node();
    assert_eq!(bridge_mask(&g).iter().filter(|&&b| b).count(), 3);
    assert_eq!(
        indelible_all(&g, &[(0, 1), (1, 5), (5, 7)]),
        vec![(0, 1), (2, 4)]
    );
    assert_eq!(indelible_all(&g, &[(8, 0)]), vec![(0, 1), (2, 4), (7, 8)]);
    assert_eq!(indelible_all(&g, &[(1, 3), (4, 7)]), vec![]);
}

fn essential_pairs(g: &Graph, s: u32, t: u32) -> Vec<(u32, u32)> {
    let pc = PairCut::build(g, s, t).expect("connected");
    let mut out = Vec::new();
    for a in 0..g.m() as u32 {
        for b in a..g.m() as u32 {
            if pc.cuts(a, b) && !pc.cuts_single(a) && !pc.cuts_single(b) {
                out.push((a, b));
            }
        }
    }
    let mut from_structure: Vec<(u32, u32)> = pc
        .essential_candidate_pairs()
        .map(|(r, b)| (r.min(b), r.max(b)))
        .collect();
    from_structure.sort_unstable();
    assert_eq!(out, from_structure);
    out
}

#[test]
fn hand_checked_double_cuts() {
    // 4-cycle 0-1-3-2-0 (a 2×2 board), s = 0, t = 3: one edge from each side.
    let g = Graph::new(4, vec![(0, 1), (1, 3), (0, 2), (2, 3)]);
    assert_eq!(
        essential_pairs(&g, 0, 3),
        vec![(0, 2), (0, 3), (1, 2), (1, 3)]
    );
    // Same square, s and t adjacent: (0,1) with any edge of the other side.
    assert_eq!(essential_pairs(&g, 0, 1), vec![(0, 1), (0, 2), (0, 3)]);
    // 2×3 ladder, s = 0 (top left), t = 5 (bottom right).
    // e0=(0,1) e1=(1,2) e2=(3,4) e3=(4,5) e4=(0,3) e5=(1,4) e6=(2,5)
    let g = Graph::new(
        6,
        vec![(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)],
    );
    assert_eq!(
        essential_pairs(&g, 0, 5),
        vec![(0, 2), (0, 4), (1, 3), (3, 6)]
    );
    // Two parallel edges: the pair cuts, neither alone.
    let g = Graph::new(2, vec![(0, 1), (0, 1)]);
    assert_eq!(essential_pairs(&g, 0, 1), vec![(0, 1)]);
    // s and t joined by a bridge, with a cycle hanging off t: the bridge cuts alone.
    let g = Graph::new(4, vec![(0, 1), (1, 2), (2, 3), (3, 1)]);
    let pc = PairCut::build(&g, 0, 1).unwrap();
    assert_eq!(pc.path_bridges, vec![0]);
    assert_eq!(pc.class[0], CLASS_BRIDGE);
    assert!(pc.cuts(0, 2) && pc.cuts(3, 0) && !pc.cuts(1, 2) && !pc.cuts(2, 3));
    // s = t is never cut.
    let pc = PairCut::build(&g, 2, 2).unwrap();
    assert!((0..4).all(|a| (0..4).all(|b| !pc.cuts(a, b))));
    // Disconnected pair: no oracle, position invalid.
    let g = Graph::new(4, vec![(0, 1), (2, 3)]);
    assert!(PairCut::build(&g, 0, 3).is_none());
    assert_eq!(
        MoveOracle::build(&g, &[(0, 1), (3, 0)]).unwrap_err(),
        BuildError::Disconnected(vec![1])
    );
    assert_eq!(
        moves::analyze(&g, &[(0, 1), (3, 0)]),
        naive::analyze(&g, &[(0, 1), (3, 0)])
    );
    // A pair naming a node outside the board is reported as cut, not a panic.
    let a = moves::analyze(&g, &[(0, 1), (0, 99)]);
    assert!(!a.valid && a.cut_pairs == vec![1]);
    // Two cycles in series through articulation point 2, s = 0, t = 4.
    // block 1: 0-1-2-3-0 ; block 2: 2-4-5-2.  e: 0(0,1) 1(1,2) 2(2,3) 3(3,0) 4(2,4) 5(4,5) 6(5,2)
    let g = Graph::new(
        6,
        vec![(0, 1), (1, 2), (2, 3), (3, 0), (2, 4), (4, 5), (5, 2)],
    );
    assert_eq!(
        essential_pairs(&g, 0, 4),
        vec![(0, 2), (0, 3), (1, 2), (1, 3), (4, 5), (4, 6)]
    );
}

// ---------------------------------------------------------------- random boards

fn grid(w: u32, h: u32, wall_p: f64, rng: &mut ChaCha20Rng) -> Graph {
    let mut edges = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let v = r * w + c;
            if c + 1 < w && !rng.gen_bool(wall_p) {
                edges.push((v, v + 1));
            }
            if r + 1 < h && !rng.gen_bool(wall_p) {
                edges.push((v, v + w));
            }
        }
    }
    Graph::new((w * h) as usize, edges)
}

/// Oracle for one pair against brute force, every pair of edges (including e1 == e2).
fn check_pair_exhaustive(g: &Graph, pc: &PairCut, bfs: &mut Bfs) {
    let (s, t) = (pc.s, pc.t);
    let m = g.m() as u32;
    // Candidate labels: each candidate's block range contains its index; cutting candidate
    // pairs never straddle two blocks.
    for e in 0..m {
        if let Some(k) = pc.candidate_block(e) {
            let b = &pc.blocks[k];
            let i = pc.index[e as usize];
            let range = if pc.class[e as usize] == CLASS_RED {
                b.red
            } else {
                b.blue
            };
            assert!((range.0..range.1).contains(&i));
        }
    }
    for (r, b) in pc.essential_candidate_pairs() {
        assert_eq!(pc.candidate_block(r), pc.candidate_block(b));
    }
    for a in 0..m {
        let row: Vec<bool> = pc.cuts_row(a, a).collect();
        assert_eq!(row.len() as u32, m - a);
        assert_eq!(
            pc.count_cuts_row(a, a),
            row.iter().filter(|&&c| c).count() as u32
        );
        for (k, &c) in row.iter().enumerate() {
            assert_eq!(c, pc.cuts(a, a + k as u32));
        }
        let single = !bfs.connected(g, s, t, &[a]);
        assert_eq!(pc.cuts_single(a), single, "single edge {a} for ({s},{t})");
        for b in a..m {
            let want = single || !bfs.connected(g, s, t, &[a, b]);
            assert_eq!(
                pc.cuts(a, b),
                want,
                "pair ({a},{b}) for ({s},{t}) on {:?}",
                g.edges()
            );
            assert_eq!(pc.cuts(b, a), want);
        }
    }
}

fn check_position(g: &Graph, pairs: &[(u32, u32)], bfs: &mut Bfs, ws: &mut Workspace) {
    let want = naive::analyze(g, pairs);
    let got = moves::analyze(g, pairs);
    assert_eq!(got, want, "analysis of {pairs:?} on {:?}", g.edges());
    let a = single_paths::indelible(g, pairs);
    let b = single::indelible(g, pairs);
    match (&a, &b) {
        (Ok(x), Ok(y)) => {
            assert!(want.valid);
            assert_eq!(x, y);
            let ids: Vec<u32> = (0..g.m() as u32).filter(|&e| x[e as usize]).collect();
            assert_eq!(ids, want.illegal_single);
        }
        (Err(x), Err(y)) => {
            assert_eq!(x, y);
            assert_eq!(x, &want.cut_pairs);
        }
        _ => panic!("single-cut methods disagree on validity"),
    }
    if !want.valid {
        return;
    }
    let o = MoveOracle::build(g, pairs).unwrap();
    let reused = MoveOracle::build_with(g, pairs, ws).unwrap();
    assert_eq!(reused.illegal_doubles(), want.illegal_pairs);
    assert!(reused
        .illegal_singles()
        .eq(want.illegal_single.iter().copied()));
    let m = g.m() as u32;
    let mut legal = 0u64;
    for e1 in 0..m {
        assert_eq!(
            o.is_legal_single(e1),
            want.illegal_single.binary_search(&e1).is_err()
        );
        for e2 in e1 + 1..m {
            let ok = o.is_legal_double(e1, e2);
            assert_eq!(ok, o.is_legal_double(e2, e1));
            let brute = !naive::cuts_some_pair(g, bfs, pairs, &[e1])
                && !naive::cuts_some_pair(g, bfs, pairs, &[e2])
                && !naive::cuts_some_pair(g, bfs, pairs, &[e1, e2]);
            assert_eq!(ok, brute, "double ({e1},{e2})");
            legal += ok as u64;
        }
        assert!(!o.is_legal_double(e1, e1));
    }
    assert!(!o.is_legal_single(m) && !o.is_legal_double(0, m));
    assert_eq!(o.legal_doubles().count() as u64, legal);
    assert_eq!(o.count_legal_doubles(), legal);
    // Each pair's oracle, built through the shared builder, against brute force.
    let mut builder = PairCutBuilder::new(g);
    for &(s, t) in pairs {
        let pc = builder.build(s, t).unwrap();
        check_pair_exhaustive(g, &pc, bfs);
    }
}

#[test]
fn random_grids_against_brute_force() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x5eed_0001);
    let mut bfs = Bfs::new(0);
    let mut ws = Workspace::default();
    let mut invalid = 0;
    let mut with_double = 0;
    for case in 0..2500 {
        // Mostly small boards (the brute force is O(m² · n)), some up to 12×12.
        let (w, h) = if case % 10 == 0 {
            (rng.gen_range(8..=12), rng.gen_range(8..=12))
        } else {
            (rng.gen_range(2..=7), rng.gen_range(2..=7))
        };
        let p = rng.gen_range(0.0..0.6);
        let g = grid(w, h, p, &mut rng);
        let k = rng.gen_range(1..=4);
        let n = w * h;
        let pairs: Vec<(u32, u32)> = (0..k)
            .map(|_| (rng.gen_range(0..n), rng.gen_range(0..n)))
            .collect();
        check_position(&g, &pairs, &mut bfs, &mut ws);
        let a = naive::analyze(&g, &pairs);
        invalid += !a.valid as u32;
        with_double += !a.illegal_pairs.is_empty() as u32;
    }
    // The generator must exercise both kinds of position.
    assert!(invalid > 100, "{invalid}");
    assert!(with_double > 500, "{with_double}");
}

fn random_multigraph(rng: &mut ChaCha20Rng, n: u32, m: usize) -> Graph {
    let edges = (0..m)
        .map(|_| {
            let a = rng.gen_range(0..n);
            // Mostly ordinary edges; some parallel edges arise naturally, a few self-loops.
            let b = if rng.gen_ratio(1, 20) {
                a
            } else {
                rng.gen_range(0..n)
            };
            (a, b)
        })
        .collect();
    Graph::new(n as usize, edges)
}

#[test]
fn random_general_graphs_against_brute_force() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x5eed_0002);
    let mut bfs = Bfs::new(0);
    let mut ws = Workspace::default();
    for _ in 0..3000 {
        let n = rng.gen_range(1..=10);
        let m = rng.gen_range(0..=(2 * n as usize + 3));
        let g = random_multigraph(&mut rng, n, m);
        // Bridges, two ways, against brute force (an edge is a bridge iff removing it
        // separates its endpoints).
        let blocks = Blocks::new(&g);
        let mask = bridge_mask(&g);
        for e in 0..g.m() as u32 {
            let (x, y) = g.edge(e);
            let brute = !bfs.connected(&g, x, y, &[e]);
            assert_eq!(mask[e as usize], brute, "bridge {e} of {:?}", g.edges());
            assert_eq!(blocks.is_bridge[e as usize], brute);
        }
        // Every connected ordered pair, against brute force.
        let mut builder = PairCutBuilder::new(&g);
        for s in 0..n {
            for t in 0..n {
                match builder.build(s, t) {
                    Some(pc) => {
                        assert!(blocks.connected(s, t));
                        check_pair_exhaustive(&g, &pc, &mut bfs);
                    }
                    None => assert!(!bfs.connected(&g, s, t, &[])),
                }
            }
        }
        let k = rng.gen_range(1..=4);
        let pairs: Vec<(u32, u32)> = (0..k)
            .map(|_| (rng.gen_range(0..n), rng.gen_range(0..n)))
            .collect();
        check_position(&g, &pairs, &mut bfs, &mut ws);
    }
}

#[test]
fn workspace_reuse_across_graphs() {
    // One workspace and one output table reused over boards of varying sizes: stale marks
    // from earlier boards must never leak into later answers.
    let mut rng = ChaCha20Rng::seed_from_u64(0x5eed_0003);
    let mut bfs = Bfs::new(0);
    let mut ws = Workspace::default();
    let mut out = PairCut::default();
    for case in 0..1500 {
        let g = if case % 2 == 0 {
            let (w, h) = (rng.gen_range(2..=9), rng.gen_range(2..=9));
            let p = rng.gen_range(0.0..0.5);
            grid(w, h, p, &mut rng)
        } else {
            let n = rng.gen_range(1..=12);
            let m = rng.gen_range(0..=(2 * n as usize + 3));
            random_multigraph(&mut rng, n, m)
        };
        let n = g.n() as u32;
        let (s, t) = (rng.gen_range(0..n), rng.gen_range(0..n));
        let mut b = PairCutBuilder::with_workspace(&g, ws, [s]);
        if b.build_into(s, t, &mut out) {
            check_pair_exhaustive(&g, &out, &mut bfs);
            // Same tables as a fresh build (`index` may differ where `class` is unset).
            let fresh = PairCut::build(&g, s, t).unwrap();
            assert_eq!(fresh.class, out.class);
            assert_eq!(
                (&fresh.red, &fresh.blue, &fresh.path_bridges),
                (&out.red, &out.blue, &out.path_bridges)
            );
            assert_eq!((&fresh.red_lo, &fresh.red_hi), (&out.red_lo, &out.red_hi));
        } else {
            assert!(!bfs.connected(&g, s, t, &[]));
        }
        ws = b.into_workspace();
    }
}

#[test]
fn exhaustive_small_simple_graphs() {
    // Every simple graph on 5 labelled nodes, every pair (s, t), every pair of edges.
    let all: Vec<(u32, u32)> = (0..5u32)
        .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
        .collect();
    let mut bfs = Bfs::new(5);
    for mask in 0u32..(1 << all.len()) {
        let edges: Vec<(u32, u32)> = (0..all.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| all[i])
            .collect();
        let g = Graph::new(5, edges);
        let mut builder = PairCutBuilder::new(&g);
        for s in 0..5 {
            for t in 0..5 {
                if let Some(pc) = builder.build(s, t) {
                    check_pair_exhaustive(&g, &pc, &mut bfs);
                } else {
                    assert!(!bfs.connected(&g, s, t, &[]));
                }
            }
        }
    }
}

#[test]
fn tables_serialize() {
    let g = Graph::new(4, vec![(0, 1), (1, 3), (0, 2), (2, 3)]);
    let pc = PairCut::build(&g, 0, 3).unwrap();
    let json = serde_json::to_string(&pc).unwrap();
    assert!(json.contains("\"red_lo\""));
    assert_eq!(pc.red.len() + pc.blue.len(), 4);
    assert_eq!(pc.blocks.len(), 1);
}
