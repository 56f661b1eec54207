//! A 1000×1000 open grid: every traversal is iterative, so building the oracles must not
//! overflow the stack. Run in release mode (`cargo test --release --test wall_cut_big`).

use zkgames::wall::cut::double::PairCutBuilder;
use zkgames::wall::cut::{single, single_paths};
use zkgames::wall::graph::{Bfs, Graph};
use zkgames::wall::moves::MoveOracle;

fn open_grid(w: u32, h: u32) -> Graph {
    let mut edges = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let v = r * w + c;
            if c + 1 < w {
                edges.push((v, v + 1));
            }
            if r + 1 < h {
                edges.push((v, v + w));
            }
        }
    }
    Graph::new((w * h) as usize, edges)
}

#[test]
fn thousand_by_thousand_grid() {
    let w = 1000u32;
    let g = open_grid(w, w);
    let s = 0;
    let t = w * w - 1;
    let mut builder = PairCutBuilder::new(&g);
    let pc = builder.build(s, t).expect("open grid is connected");
    let mut bfs = Bfs::new(g.n());
    // The two edges at each corner cut; everything else tested here does not.
    let corner_s: Vec<u32> = g.neighbors(s).iter().map(|&(_, e)| e).collect();
    let corner_t: Vec<u32> = g.neighbors(t).iter().map(|&(_, e)| e).collect();
    let mid: Vec<u32> = g.neighbors(500 * w + 500).iter().map(|&(_, e)| e).collect();
    let queries = [
        (corner_s[0], corner_s[1]),
        (corner_t[0], corner_t[1]),
        (corner_s[0], corner_t[1]),
        (mid[0], mid[1]),
        (mid[2], corner_s[1]),
        (corner_s[0], corner_s[0]),
    ];
    for &(a, b) in &queries {
        assert_eq!(
            pc.cuts(a, b),
            !bfs.connected(&g, s, t, &[a, b]),
            "({a},{b})"
        );
    }
    assert!(pc.cuts(corner_s[0], corner_s[1]) && pc.cuts(corner_t[1], corner_t[0]));
    assert!(pc.path_bridges.is_empty());
    // The single-cut methods on the same board: nothing is indelible on an open grid.
    let pairs = [(s, t), (w - 1, w * (w - 1))];
    assert!(single::indelible(&g, &pairs).unwrap().iter().all(|&x| !x));
    assert!(single_paths::indelible(&g, &pairs)
        .unwrap()
        .iter()
        .all(|&x| !x));
    let o = MoveOracle::build(&g, &pairs).unwrap();
    assert!(!o.is_legal_double(corner_s[0], corner_s[1]));
    assert!(o.is_legal_double(mid[0], mid[1]));
    // A snake (one long path of a million nodes): the deepest possible DFS.
    let n = 1_000_000u32;
    let path = Graph::new(n as usize, (0..n - 1).map(|v| (v, v + 1)).collect());
    let mask = single::indelible(&path, &[(0, n - 1)]).unwrap();
    assert!(mask.iter().all(|&x| x));
    let pc = PairCutBuilder::new(&path).build(0, n - 1).unwrap();
    assert_eq!(pc.path_bridges.len(), (n - 1) as usize);
    assert!(pc.cuts(5, 5) && !bfs.connected(&path, 0, n - 1, &[5]));
}
