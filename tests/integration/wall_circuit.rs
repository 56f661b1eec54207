//! The sealed-move circuit against a brute force written here from the rules: random
//! positions (3×3 to 8×8, walls 0–50 %), both players to move, every kind of action; the
//! circuit evaluated in the clear must say "legal" exactly when the brute force does.

use std::collections::{HashSet, VecDeque};

use zkgames::wall::board::{Dir, Player, Position, Setup, Variant, Wall};
use zkgames::wall::circuit::{HiddenMove, MoveCircuit};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

type Cell = (u32, u32);

/// The brute force's own board: walls as a set of (row, col, down?) slots.
struct Grid {
    rows: u32,
    cols: u32,
    walls: HashSet<(u32, u32, bool)>,
}

impl Grid {
    fn open(&self, a: Cell, b: Cell) -> bool {
        let (r, c, down) = if a.0 == b.0 {
            (a.0, a.1.min(b.1), false)
        } else {
            (a.0.min(b.0), a.1, true)
        };
        !self.walls.contains(&(r, c, down))
    }
    fn neighbours(&self, a: Cell) -> Vec<Cell> {
        let mut v = Vec::new();
        if a.0 > 0 {
            v.push((a.0 - 1, a.1));
        }
        if a.0 + 1 < self.rows {
            v.push((a.0 + 1, a.1));
        }
        if a.1 > 0 {
            v.push((a.0, a.1 - 1));
        }
        if a.1 + 1 < self.cols {
            v.push((a.0, a.1 + 1));
        }
        v.into_iter().filter(|&b| self.open(a, b)).collect()
    }
    fn dist(&self, a: Cell, b: Cell) -> Option<u32> {
        let mut seen = HashSet::from([a]);
        let mut q = VecDeque::from([(a, 0)]);
        while let Some((x, d)) = q.pop_front() {
            if x == b {
                return Some(d);
            }
            for y in self.neighbours(x) {
                if seen.insert(y) {
                    q.push_back((y, d + 1));
                }
            }
        }
        None
    }
}

/// The rules, plainly: at most two actions (steps counted along open paths), walls on
/// distinct free slots, and after each wall every cat still reaches the mouse it chases.
fn brute_legal(
    g: &Grid,
    cats: [Cell; 2],
    mice: [Cell; 2],
    k: usize,
    mv: &(Cell, Cell, Vec<(u32, u32, bool)>),
) -> bool {
    let (cd, md, walls) = mv;
    let (Some(dc), Some(dm)) = (g.dist(cats[k], *cd), g.dist(mice[k], *md)) else {
        return false;
    };
    if dc + dm + walls.len() as u32 > 2 {
        return false;
    }
    let mut cats = cats;
    let mut mice = mice;
    cats[k] = *cd;
    mice[k] = *md;
    let mut grid = Grid {
        rows: g.rows,
        cols: g.cols,
        walls: g.walls.clone(),
    };
    for w in walls {
        if !grid.walls.insert(*w) {
            return false;
        }
        for i in 0..2 {
            if grid.dist(cats[i], mice[1 - i]).is_none() {
                return false;
            }
        }
    }
    true
}

fn all_slots(rows: u32, cols: u32) -> Vec<(u32, u32, bool)> {
    let mut v = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + 1 < rows {
                v.push((r, c, true));
            }
            if c + 1 < cols {
                v.push((r, c, false));
            }
        }
    }
    v
}

fn to_wall(s: (u32, u32, bool)) -> Wall {
    Wall::new(s.0, s.1, if s.2 { Dir::D } else { Dir::R })
}

/// A two-player cat-and-mouse position from raw parts.
fn position(
    rows: u32,
    cols: u32,
    walls: &HashSet<(u32, u32, bool)>,
    cats: [Cell; 2],
    mice: [Cell; 2],
) -> Position {
    Position::new(
        rows,
        cols,
        walls.iter().map(|&s| to_wall(s)).collect(),
        Setup::Game {
            variant: Variant::CatAndMouse,
            players: (0..2)
                .map(|i| Player {
                    cat: cats[i],
                    mouse: Some(mice[i]),
                    goal: None,
                })
                .collect(),
        },
    )
    .unwrap()
}

#[test]
fn circuit_verdict_equals_brute_force_on_random_positions_and_moves() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut legal, mut illegal) = (0, 0, 0);
    while positions < 400 {
        let rows = 3 + rng.below(6) as u32;
        let cols = 3 + rng.below(6) as u32;
        let slots = all_slots(rows, cols);
        let density = rng.below(51);
        let walls: HashSet<_> = slots
            .iter()
            .copied()
            .filter(|_| rng.below(100) < density)
            .collect();
        let cell = |rng: &mut Rng| {
            (
                rng.below(rows as usize) as u32,
                rng.below(cols as usize) as u32,
            )
        };
        let pieces: Vec<Cell> = (0..4).map(|_| cell(&mut rng)).collect();
        let distinct: HashSet<_> = pieces.iter().collect();
        if distinct.len() < 4 {
            continue;
        }
        let (cats, mice) = ([pieces[0], pieces[1]], [pieces[2], pieces[3]]);
        let grid = Grid {
            rows,
            cols,
            walls: walls.clone(),
        };
        if grid.dist(cats[0], mice[1]).is_none() || grid.dist(cats[1], mice[0]).is_none() {
            continue;
        }
        let pos = position(rows, cols, &walls, cats, mice);
        positions += 1;
        let bg = pos.graph();
        let node = |c: Cell| c.0 * cols + c.1;
        let k = rng.below(2);
        let pairs_after = |cat: u32, mouse: Option<u32>| {
            let mut cn = [node(cats[0]), node(cats[1])];
            let mut mn = [node(mice[0]), node(mice[1])];
            cn[k] = cat;
            mn[k] = mouse.unwrap();
            vec![(cn[0], mn[1]), (cn[1], mn[0])]
        };
        let mc =
            MoveCircuit::new(&bg.graph, node(cats[k]), Some(node(mice[k])), &pairs_after).unwrap();
        // moves: random destinations within 3 cells, 0–3 walls on any slot (free or not)
        for _ in 0..150 {
            let near = |rng: &mut Rng, c: Cell| {
                let dr = rng.below(5) as i64 - 2;
                let dc = rng.below(5) as i64 - 2;
                let r =
                    (c.0 as i64 + if rng.below(2) == 0 { 0 } else { dr }).clamp(0, rows as i64 - 1);
                let cc =
                    (c.1 as i64 + if rng.below(2) == 0 { 0 } else { dc }).clamp(0, cols as i64 - 1);
                (r as u32, cc as u32)
            };
            let cd = if rng.below(3) == 0 {
                near(&mut rng, cats[k])
            } else {
                cats[k]
            };
            let md = if rng.below(3) == 0 {
                near(&mut rng, mice[k])
            } else {
                mice[k]
            };
            let nw = [0, 1, 1, 2, 2, 2, 3][rng.below(7)];
            let ws: Vec<_> = (0..nw).map(|_| slots[rng.below(slots.len())]).collect();
            let want = brute_legal(&grid, cats, mice, k, &(cd, md, ws.clone()));
            let edges: Option<Vec<u32>> = ws.iter().map(|&s| bg.edge_of(to_wall(s))).collect();
            let got = edges
                .and_then(|walls| {
                    mc.witness(&HiddenMove {
                        cat: node(cd),
                        mouse: node(md),
                        walls,
                    })
                })
                .is_some_and(|w| mc.accepts(&w));
            assert_eq!(
                got, want,
                "{rows}x{cols} cats {cats:?} mice {mice:?} player {k} move {cd:?} {md:?} {ws:?}"
            );
            if want {
                legal += 1;
            } else {
                illegal += 1;
            }
        }
    }
    assert!(
        legal > 5_000 && illegal > 5_000,
        "{legal} legal, {illegal} illegal"
    );
}

/// Every legal move of small positions, found by the brute force over all encodable moves,
/// is accepted; every encodable illegal one is refused; witnesses decode back to the move.
#[test]
fn exhaustive_on_small_boards() {
    let mut rng = Rng(77);
    for _ in 0..12 {
        let (rows, cols) = (3, 3 + rng.below(2) as u32);
        let slots = all_slots(rows, cols);
        let walls: HashSet<_> = slots
            .iter()
            .copied()
            .filter(|_| rng.below(100) < 25)
            .collect();
        let cats = [(0, 0), (0, cols - 1)];
        let mice = [(rows - 1, 0), (rows - 1, cols - 1)];
        let grid = Grid {
            rows,
            cols,
            walls: walls.clone(),
        };
        if grid.dist(cats[0], mice[1]).is_none() || grid.dist(cats[1], mice[0]).is_none() {
            continue;
        }
        let pos = position(rows, cols, &walls, cats, mice);
        let bg = pos.graph();
        let node = |c: Cell| c.0 * cols + c.1;
        let cell = |v: u32| (v / cols, v % cols);
        let pairs_after = |cat: u32, mouse: Option<u32>| {
            vec![(cat, node(mice[1])), (node(cats[1]), mouse.unwrap())]
        };
        let mc =
            MoveCircuit::new(&bg.graph, node(cats[0]), Some(node(mice[0])), &pairs_after).unwrap();
        let m = bg.graph.m() as u32;
        let mut wallsets: Vec<Vec<u32>> = vec![vec![]];
        wallsets.extend((0..m).map(|e| vec![e]));
        for a in 0..m {
            for b in a + 1..m {
                wallsets.push(vec![a, b]);
            }
        }
        for ct in mc.cat_targets() {
            for mt in mc.mouse_targets() {
                for ws in &wallsets {
                    let mv = HiddenMove {
                        cat: ct.node,
                        mouse: mt.node,
                        walls: ws.clone(),
                    };
                    let w = mc.witness(&mv).unwrap();
                    assert_eq!(mc.decode(&w).unwrap(), mv);
                    let slots: Vec<_> = ws
                        .iter()
                        .map(|&e| {
                            let wl = bg.wall_of(e);
                            (wl.row, wl.col, wl.dir == Dir::D)
                        })
                        .collect();
                    let want =
                        brute_legal(&grid, cats, mice, 0, &(cell(ct.node), cell(mt.node), slots));
                    assert_eq!(mc.accepts(&w), want, "{mv:?}");
                }
            }
        }
    }
}

/// Malformed witnesses (not one-hot, walls out of order or repeated) are refused.
#[test]
fn malformed_witnesses_are_refused() {
    let pos = Position::new(
        5,
        5,
        vec![],
        Setup::Game {
            variant: Variant::CatAndMouse,
            players: vec![
                Player {
                    cat: (0, 0),
                    mouse: Some((4, 0)),
                    goal: None,
                },
                Player {
                    cat: (0, 4),
                    mouse: Some((4, 4)),
                    goal: None,
                },
            ],
        },
    )
    .unwrap();
    let bg = pos.graph();
    let pairs_after = |cat: u32, mouse: Option<u32>| vec![(cat, 24), (4, mouse.unwrap())];
    let mc = MoveCircuit::new(&bg.graph, 0, Some(20), &pairs_after).unwrap();
    let good = mc
        .witness(&HiddenMove {
            cat: 0,
            mouse: 20,
            walls: vec![3, 9],
        })
        .unwrap();
    assert!(mc.accepts(&good));
    let n = good.len();
    for i in 0..n {
        let mut w = good.clone();
        w[i] ^= true;
        assert!(!mc.accepts(&w), "bit {i} flipped");
    }
    // the same two walls in the other order, and one wall twice
    let nc = mc.cat_targets().len();
    let nm = mc.mouse_targets().len();
    let m = bg.graph.m();
    let mut swapped = vec![false; n];
    swapped[mc.cat_targets().iter().position(|t| t.node == 0).unwrap()] = true;
    swapped[nc
        + mc.mouse_targets()
            .iter()
            .position(|t| t.node == 20)
            .unwrap()] = true;
    let mut twice = swapped.clone();
    swapped[nc + nm + 9] = true;
    swapped[nc + nm + m + 1 + 3] = true;
    assert!(!mc.accepts(&swapped));
    twice[nc + nm + 3] = true;
    twice[nc + nm + m + 1 + 3] = true;
    assert!(!mc.accepts(&twice));
}

/// AND gates at the standard starts stay small (the seal's size is about one bit per AND
/// gate per round): a regression guard, the figures themselves are in the benchmark.
#[test]
fn and_count_of_standard_starts() {
    for n in [8u32, 11] {
        let pos = Position::new(
            n,
            n,
            vec![],
            Setup::Game {
                variant: Variant::CatAndMouse,
                players: vec![
                    Player {
                        cat: (0, 0),
                        mouse: Some((n - 1, 0)),
                        goal: None,
                    },
                    Player {
                        cat: (0, n - 1),
                        mouse: Some((n - 1, n - 1)),
                        goal: None,
                    },
                ],
            },
        )
        .unwrap();
        let bg = pos.graph();
        let (c0, m0, c1, m1) = (0, (n - 1) * n, n - 1, n * n - 1);
        let pairs_after = |cat: u32, mouse: Option<u32>| vec![(cat, m1), (c1, mouse.unwrap())];
        let mc = MoveCircuit::new(&bg.graph, c0, Some(m0), &pairs_after).unwrap();
        let ands = mc.circuit().n_and();
        println!(
            "{n}x{n}: {} AND gates, {} inputs, {} outputs",
            ands,
            mc.circuit().n_inputs(),
            mc.circuit().n_outputs()
        );
        assert!(ands < 4 * bg.graph.m() as usize, "{ands}");
    }
}

/// The flood-fill baseline decides the same relation as the oracle-table circuit (so the
/// AND counts the benchmark compares are for the same statement).
#[test]
fn flood_fill_baseline_decides_the_same_relation() {
    use zkgames::wall::circuit::{flood_fill_circuit, End};
    let mut rng = Rng(4242);
    let mut checked = 0;
    while checked < 30 {
        let (rows, cols) = (3 + rng.below(2) as u32, 3 + rng.below(2) as u32);
        let slots = all_slots(rows, cols);
        let walls: HashSet<_> = slots
            .iter()
            .copied()
            .filter(|_| rng.below(100) < 30)
            .collect();
        let cats = [(0, 0), (0, cols - 1)];
        let mice = [(rows - 1, 0), (rows - 1, cols - 1)];
        let grid = Grid {
            rows,
            cols,
            walls: walls.clone(),
        };
        if grid.dist(cats[0], mice[1]).is_none() || grid.dist(cats[1], mice[0]).is_none() {
            continue;
        }
        checked += 1;
        let pos = position(rows, cols, &walls, cats, mice);
        let bg = pos.graph();
        let node = |c: Cell| c.0 * cols + c.1;
        let pairs_after = |cat: u32, mouse: Option<u32>| {
            vec![(cat, node(mice[1])), (node(cats[1]), mouse.unwrap())]
        };
        let mc =
            MoveCircuit::new(&bg.graph, node(cats[0]), Some(node(mice[0])), &pairs_after).unwrap();
        let ff = flood_fill_circuit(
            &mc,
            &bg.graph,
            &[
                (End::Cat, End::Node(node(mice[1]))),
                (End::Node(node(cats[1])), End::Mouse),
            ],
        );
        assert!(ff.n_and() > mc.circuit().n_and());
        let m = bg.graph.m() as u32;
        for _ in 0..200 {
            let ct = mc.cat_targets()[rng.below(mc.cat_targets().len())].node;
            let mt = mc.mouse_targets()[rng.below(mc.mouse_targets().len())].node;
            let ws: Vec<u32> = (0..rng.below(3))
                .map(|_| rng.below(m as usize) as u32)
                .collect();
            let mv = HiddenMove {
                cat: ct,
                mouse: mt,
                walls: ws,
            };
            let w = mc.witness(&mv).unwrap();
            let ff_ok = ff.eval(&w).iter().all(|&x| !x);
            assert_eq!(ff_ok, mc.accepts(&w), "{mv:?}");
        }
    }
}
