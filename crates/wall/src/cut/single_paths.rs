//! Single-edge cut, the O(E·k) way: an edge disconnects the pair `(s, t)` iff it is a bridge
//! and lies on *any* `s`–`t` path (every path crosses every `st`-bridge, and a bridge on a path
//! separates the path's ends). One bridge pass, then one BFS path per pair.

use super::bridges::{bridge_mask, NONE};
use crate::graph::Graph;

/// Indelible edges for the attached `pairs`: `Ok(mask)` with `mask[e]` true iff removing `e`
/// alone disconnects some pair; `Err(indices)` lists the pairs not connected in `g` (the
/// position is invalid). Pairs `(s, s)` are never cut. Nodes must be `< g.n()`.
pub fn indelible(g: &Graph, pairs: &[(u32, u32)]) -> Result<Vec<bool>, Vec<usize>> {
    let bridges = bridge_mask(g);
    let mut mask = vec![false; g.m()];
    let mut parent_edge = vec![NONE; g.n()];
    let mut stamp = vec![0u32; g.n()];
    let mut queue = Vec::with_capacity(g.n());
    let mut bad = Vec::new();
    for (i, &(s, t)) in pairs.iter().enumerate() {
        if s == t {
            continue;
        }
        let cur = i as u32 + 1;
        queue.clear();
        queue.push(s);
        stamp[s as usize] = cur;
        let mut head = 0;
        let mut found = false;
        'bfs: while head < queue.len() {
            let v = queue[head];
            head += 1;
            for &(w, e) in g.neighbors(v) {
                if stamp[w as usize] != cur {
                    stamp[w as usize] = cur;
                    parent_edge[w as usize] = e;
                    if w == t {
                        found = true;
                        break 'bfs;
                    }
                    queue.push(w);
                }
            }
        }
        if !found {
            bad.push(i);
            continue;
        }
        let mut v = t;
        while v != s {
            let e = parent_edge[v as usize];
            if bridges[e as usize] {
                mask[e as usize] = true;
            }
            let (a, b) = g.edge(e);
            v = if a == v { b } else { a };
        }
    }
    if bad.is_empty() {
        Ok(mask)
    } else {
        Err(bad)
    }
}
