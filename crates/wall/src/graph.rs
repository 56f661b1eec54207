//! The graph core: flat arrays, contiguous edge ids, reusable traversal buffers.
//!
//! Nodes are `0..n`; edges are `0..m`, each an unordered pair of nodes (the board's open
//! slots). Adjacency is in compressed (CSR) form: the neighbours of `v` are
//! `adj[start[v]..start[v+1]]`, each `(neighbour, edge id)`. No hash maps keyed by edges,
//! no recursion: boards of a million cells must not overflow the stack.

/// An undirected multigraph in CSR form.
#[derive(Clone, Debug)]
pub struct Graph {
    n: usize,
    edges: Vec<(u32, u32)>,
    start: Vec<u32>,
    adj: Vec<(u32, u32)>,
}

impl Graph {
    /// Builds the graph; every endpoint must be `< n`.
    pub fn new(n: usize, edges: Vec<(u32, u32)>) -> Self {
        let mut deg = vec![0u32; n + 1];
        for &(a, b) in &edges {
            assert!(
                (a as usize) < n && (b as usize) < n,
                "edge endpoint out of range"
            );
            deg[a as usize] += 1;
            deg[b as usize] += 1;
        }
        let mut start = vec![0u32; n + 1];
        for v in 0..n {
            start[v + 1] = start[v] + deg[v];
        }
        let mut fill = start.clone();
        let mut adj = vec![(0u32, 0u32); 2 * edges.len()];
        for (e, &(a, b)) in edges.iter().enumerate() {
            adj[fill[a as usize] as usize] = (b, e as u32);
            fill[a as usize] += 1;
            adj[fill[b as usize] as usize] = (a, e as u32);
            fill[b as usize] += 1;
        }
        Graph {
            n,
            edges,
            start,
            adj,
        }
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of edges.
    pub fn m(&self) -> usize {
        self.edges.len()
    }
    /// The endpoints of edge `e`.
    pub fn edge(&self, e: u32) -> (u32, u32) {
        self.edges[e as usize]
    }
    /// All edges, indexed by id.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }
    /// Index range of `v`'s entries in [`Graph::adjacency`] (for iterative traversals that keep
    /// a cursor per stack frame instead of re-slicing).
    #[inline]
    pub fn adj_range(&self, v: u32) -> (u32, u32) {
        (self.start[v as usize], self.start[v as usize + 1])
    }
    /// Every `(neighbour, edge id)` entry, node by node (see [`Graph::adj_range`]).
    #[inline]
    pub fn adjacency(&self) -> &[(u32, u32)] {
        &self.adj
    }
    /// `(neighbour, edge id)` pairs around `v`.
    pub fn neighbors(&self, v: u32) -> &[(u32, u32)] {
        &self.adj[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

/// Reusable BFS buffers: a visit stamp per node and a queue.
#[derive(Clone, Debug, Default)]
pub struct Bfs {
    stamp: Vec<u32>,
    cur: u32,
    queue: Vec<u32>,
}

impl Bfs {
    /// Buffers for graphs of `n` nodes.
    pub fn new(n: usize) -> Self {
        Bfs {
            stamp: vec![0; n],
            cur: 0,
            queue: Vec::with_capacity(n),
        }
    }

    fn next_stamp(&mut self, n: usize) {
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
        }
        self.cur = self.cur.wrapping_add(1);
        if self.cur == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.cur = 1;
        }
    }

    /// Whether `t` is reachable from `s` when the edges in `removed` are deleted.
    pub fn connected(&mut self, g: &Graph, s: u32, t: u32, removed: &[u32]) -> bool {
        if s == t {
            return true;
        }
        self.next_stamp(g.n());
        self.queue.clear();
        self.queue.push(s);
        self.stamp[s as usize] = self.cur;
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &(w, e) in g.neighbors(v) {
                if self.stamp[w as usize] == self.cur || removed.contains(&e) {
                    continue;
                }
                if w == t {
                    return true;
                }
                self.stamp[w as usize] = self.cur;
                self.queue.push(w);
            }
        }
        false
    }

    /// Visits every node reachable from `s`; returns how many there are.
    pub fn reach_count(&mut self, g: &Graph, s: u32) -> usize {
        self.next_stamp(g.n());
        self.queue.clear();
        self.queue.push(s);
        self.stamp[s as usize] = self.cur;
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &(w, _) in g.neighbors(v) {
                if self.stamp[w as usize] != self.cur {
                    self.stamp[w as usize] = self.cur;
                    self.queue.push(w);
                }
            }
        }
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_and_removal() {
        let g = Graph::new(4, vec![(0, 1), (1, 2), (2, 3), (0, 2)]);
        let mut b = Bfs::new(4);
        assert!(b.connected(&g, 0, 3, &[]));
        assert!(b.connected(&g, 0, 3, &[0]));
        assert!(!b.connected(&g, 0, 3, &[2]));
        assert!(!b.connected(&g, 0, 3, &[1, 3]));
        assert!(b.connected(&g, 3, 3, &[2]));
        assert_eq!(b.reach_count(&g, 0), 4);
        assert_eq!(g.neighbors(0).len(), 2);
    }
}
