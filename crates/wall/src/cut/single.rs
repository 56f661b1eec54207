//! Single-edge cut in optimal O(E + k): one depth-first forest `T` serves as the path between
//! every pair at once.
//!
//! The tree path of a pair `(u, v)` climbs from `u` to `LCA(u, v)` and down to `v`. A tree edge
//! `(parent(x), x)` lies on some pair's tree path iff some pair has one end inside the subtree of
//! `x` and its LCA strictly above `x`, i.e. iff the minimum LCA depth over pairs with an end in
//! `subtree(x)` is below `depth(x)`. Such an edge cuts a pair iff it is also a bridge of `G`
//! (any path will do, so the tree path will do). LCAs come from Tarjan's offline algorithm
//! (union–find over finished subtrees), folded into the same DFS that computes lowlinks.

use super::bridges::NONE;
use crate::graph::Graph;

fn find(uf: &mut [u32], mut x: u32) -> u32 {
    while uf[x as usize] != x {
        let p = uf[x as usize];
        uf[x as usize] = uf[p as usize];
        x = p;
    }
    x
}

/// Same contract as [`super::single_paths::indelible`]: `Ok(mask)` of the edges whose removal
/// alone disconnects some pair, or `Err` with the indices of pairs not connected in `g`.
pub fn indelible(g: &Graph, pairs: &[(u32, u32)]) -> Result<Vec<bool>, Vec<usize>> {
    let n = g.n();
    let m = g.m();
    // Queries in CSR form: for each node, the pair indices it belongs to.
    let mut qstart = vec![0u32; n + 1];
    for &(s, t) in pairs {
        if s != t {
            qstart[s as usize + 1] += 1;
            qstart[t as usize + 1] += 1;
        }
    }
    for v in 0..n {
        qstart[v + 1] += qstart[v];
    }
    let mut qfill = qstart.clone();
    let mut qlist = vec![0u32; qstart[n] as usize];
    for (i, &(s, t)) in pairs.iter().enumerate() {
        if s != t {
            for x in [s, t] {
                qlist[qfill[x as usize] as usize] = i as u32;
                qfill[x as usize] += 1;
            }
        }
    }

    let mut disc = vec![0u32; n];
    let mut low = vec![0u32; n];
    let mut parent_edge = vec![NONE; n];
    let mut depth = vec![0u32; n];
    let mut root = vec![NONE; n];
    let mut done = vec![false; n];
    let mut uf: Vec<u32> = (0..n as u32).collect();
    let mut size = vec![1u32; n];
    let mut anc: Vec<u32> = (0..n as u32).collect();
    let mut is_bridge = vec![false; m];
    // Minimum LCA depth over the pairs each node belongs to (u32::MAX: none yet).
    let mut min_lca = vec![u32::MAX; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut bad = Vec::new();
    let mut time = 0u32;
    let mut stack: Vec<(u32, u32)> = Vec::new();

    for r in 0..n as u32 {
        if disc[r as usize] != 0 {
            continue;
        }
        time += 1;
        disc[r as usize] = time;
        low[r as usize] = time;
        root[r as usize] = r;
        order.push(r);
        stack.push((r, 0));
        while let Some(top) = stack.last_mut() {
            let u = top.0;
            let nb = g.neighbors(u);
            if (top.1 as usize) < nb.len() {
                let (w, e) = nb[top.1 as usize];
                top.1 += 1;
                if e == parent_edge[u as usize] {
                    continue;
                }
                let dw = disc[w as usize];
                if dw == 0 {
                    time += 1;
                    disc[w as usize] = time;
                    low[w as usize] = time;
                    parent_edge[w as usize] = e;
                    depth[w as usize] = depth[u as usize] + 1;
                    root[w as usize] = r;
                    order.push(w);
                    stack.push((w, 0));
                } else if dw < low[u as usize] {
                    low[u as usize] = dw;
                }
                continue;
            }
            stack.pop();
            // u is finished: answer its LCA queries whose other end is finished too.
            done[u as usize] = true;
            for qi in qstart[u as usize]..qstart[u as usize + 1] {
                let pi = qlist[qi as usize] as usize;
                let (s, t) = pairs[pi];
                let v = if s == u { t } else { s };
                if !done[v as usize] {
                    continue;
                }
                if root[v as usize] != r {
                    bad.push(pi);
                    continue;
                }
                let l = anc[find(&mut uf, v) as usize];
                let d = depth[l as usize];
                for x in [u, v] {
                    if d < min_lca[x as usize] {
                        min_lca[x as usize] = d;
                    }
                }
            }
            let pe = parent_edge[u as usize];
            if pe == NONE {
                continue;
            }
            let (a, b) = g.edge(pe);
            let p = if a == u { b } else { a };
            if low[u as usize] < low[p as usize] {
                low[p as usize] = low[u as usize];
            }
            is_bridge[pe as usize] = low[u as usize] > disc[p as usize];
            // Union u's finished subtree into p's set, whose representative answers "p".
            let (ru, rp) = (find(&mut uf, u), find(&mut uf, p));
            let (big, small) = if size[ru as usize] >= size[rp as usize] {
                (ru, rp)
            } else {
                (rp, ru)
            };
            uf[small as usize] = big;
            size[big as usize] += size[small as usize];
            anc[big as usize] = p;
        }
    }
    // A pair whose ends lie in different trees: the later-finished end found the other done
    // but in another tree (handled above), or both ends were never matched — every pair with
    // s != t is examined exactly once, when its second end finishes.
    if !bad.is_empty() {
        bad.sort_unstable();
        bad.dedup();
        return Err(bad);
    }
    // Children come after parents in `order`: fold subtree minima bottom-up.
    let mut mask = vec![false; m];
    let mut sub = min_lca;
    for &x in order.iter().rev() {
        let pe = parent_edge[x as usize];
        if pe == NONE {
            continue;
        }
        let (a, b) = g.edge(pe);
        let p = if a == x { b } else { a };
        let sx = sub[x as usize];
        if sx < depth[x as usize] && is_bridge[pe as usize] {
            mask[pe as usize] = true;
        }
        if sx < sub[p as usize] {
            sub[p as usize] = sx;
        }
    }
    Ok(mask)
}
