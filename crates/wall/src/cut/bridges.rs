//! Bridges and biconnected components, by Tarjan's lowlink method, iteratively.
//!
//! Two tools:
//! - [`Blocks`]: one depth-first pass over the whole graph (every connected component) that
//!   labels every edge with its biconnected component ("block"), marks the bridges, and keeps
//!   the DFS forest (parent edge, depth, root) so that a simple path between two nodes can be
//!   read off by climbing the tree.
//! - [`BridgeFinder`]: reusable buffers to find the bridges of a *subgraph* (edges selected by a
//!   predicate) reachable from one node ([`bridge_mask`] runs it on every component).
//!
//! Both use an explicit stack (no recursion), so a path of a million nodes is fine. Parallel
//! edges are handled by skipping the *edge id* we arrived by, not the parent node: two parallel
//! edges are never bridges. Self-loops are never bridges; each gets a block of its own.

use crate::graph::Graph;

/// Marker for "no edge" / "no node" in the `u32` tables.
pub const NONE: u32 = u32::MAX;
/// Tag bit on the edge stack: a tree edge.
const TREE: u32 = 1 << 31;

/// The block (biconnected component) decomposition of a graph, plus its DFS forest.
///
/// Only the components of the roots given to [`Blocks::from_roots`] are decomposed; the
/// per-node and per-edge tables are meaningful only for their nodes ([`Blocks::contains`])
/// and edges (elsewhere they may hold stale values when the buffers are reused).
#[derive(Clone, Debug, Default)]
pub struct Blocks {
    /// `is_bridge[e]`: removing edge `e` disconnects its endpoints.
    pub is_bridge: Vec<bool>,
    /// `block[e]`: id of the biconnected component holding edge `e` (`0..num_blocks`). A bridge
    /// is a block of one edge; so is a self-loop (which lies on no simple path).
    pub block: Vec<u32>,
    /// Number of blocks.
    pub num_blocks: u32,
    /// Per block: its number of edges.
    pub block_edges: Vec<u32>,
    /// Per block: its number of nodes.
    pub block_nodes: Vec<u32>,
    /// DFS forest: the edge to the parent, [`NONE`] at a root.
    pub parent_edge: Vec<u32>,
    /// DFS forest: depth below the root.
    pub depth: Vec<u32>,
    /// DFS forest: the root of each node's tree (equal roots ⇔ same connected component).
    pub root: Vec<u32>,
    /// Discovery times; a node is decomposed iff its time is above `base`.
    disc: Vec<u32>,
    base: u32,
    time: u32,
    stack: Vec<Frame>,
    estack: Vec<u32>,
}

impl Blocks {
    /// Decomposes all of `g` in O(n + m).
    pub fn new(g: &Graph) -> Self {
        Self::from_roots(g, 0..g.n() as u32)
    }

    /// Decomposes only the connected components of the given roots (each root of a new
    /// component becomes a DFS root); other nodes are connected to nothing as far as
    /// [`Blocks::connected`] and [`Blocks::tree_path`] are concerned.
    pub fn from_roots(g: &Graph, roots: impl IntoIterator<Item = u32>) -> Self {
        let mut b = Blocks::default();
        b.recompute(g, roots);
        b
    }

    /// [`Blocks::from_roots`] into existing buffers: O(size of the roots' components), with no
    /// O(n) clearing once the buffers are large enough.
    pub fn recompute(&mut self, g: &Graph, roots: impl IntoIterator<Item = u32>) {
        let n = g.n();
        let m = g.m();
        assert!(m < TREE as usize, "too many edges");
        if self.disc.len() < n {
            self.disc.resize(n, 0);
            self.parent_edge.resize(n, NONE);
            self.depth.resize(n, 0);
            self.root.resize(n, NONE);
        }
        if self.block.len() < m {
            self.block.resize(m, NONE);
            self.is_bridge.resize(m, false);
        }
        if self.time as u64 + n as u64 + 2 >= u32::MAX as u64 {
            self.disc.iter_mut().for_each(|x| *x = 0);
            self.time = 0;
        }
        let base = self.time;
        self.base = base;
        let mut time = self.time;
        let disc = &mut self.disc[..];
        let parent_edge = &mut self.parent_edge[..];
        let depth = &mut self.depth[..];
        let root = &mut self.root[..];
        let is_bridge = &mut self.is_bridge[..];
        let block = &mut self.block[..];
        let block_edges = &mut self.block_edges;
        let block_nodes = &mut self.block_nodes;
        block_edges.clear();
        block_nodes.clear();
        let mut num_blocks = 0u32;
        let adj = g.adjacency();
        let stack = &mut self.stack;
        let estack = &mut self.estack;
        stack.clear();
        estack.clear();
        let mut any_self_loop = false;
        for r in roots {
            if disc[r as usize] > base {
                continue;
            }
            time += 1;
            disc[r as usize] = time;
            root[r as usize] = r;
            parent_edge[r as usize] = NONE;
            depth[r as usize] = 0;
            stack.push(Frame::new(g, r, NONE, time));
            'frames: while let Some(f) = stack.last_mut() {
                while f.pos < f.end {
                    let (w, e) = adj[f.pos as usize];
                    f.pos += 1;
                    if e == f.pe {
                        continue;
                    }
                    let dw = disc[w as usize];
                    if dw <= base {
                        time += 1;
                        disc[w as usize] = time;
                        parent_edge[w as usize] = e;
                        depth[w as usize] = depth[f.u as usize] + 1;
                        root[w as usize] = r;
                        estack.push(e | TREE);
                        stack.push(Frame::new(g, w, e, time));
                        continue 'frames;
                    } else if dw < f.disc {
                        // Back edge to an ancestor (seen from the descendant side only).
                        if dw < f.low {
                            f.low = dw;
                        }
                        estack.push(e);
                    } else if w == f.u {
                        any_self_loop = true;
                    }
                    // dw > disc: a descendant's back edge, already recorded from below.
                }
                let done = stack.pop().expect("non-empty");
                if let Some(p) = stack.last_mut() {
                    if done.low < p.low {
                        p.low = done.low;
                    }
                    if done.low >= p.disc {
                        // `p` separates the subtree of `done`: the edges above its tree edge on
                        // the stack, and that edge itself, form one block.
                        let id = num_blocks;
                        num_blocks += 1;
                        let (mut ne, mut nt) = (0u32, 0u32);
                        loop {
                            let tagged = estack.pop().expect("edge stack holds the tree edge");
                            let e = tagged & !TREE;
                            block[e as usize] = id;
                            is_bridge[e as usize] = false;
                            ne += 1;
                            nt += (tagged & TREE != 0) as u32;
                            if e == done.pe {
                                break;
                            }
                        }
                        block_edges.push(ne);
                        // A block's tree edges span it: nodes = tree edges + 1.
                        block_nodes.push(nt + 1);
                        is_bridge[done.pe as usize] = done.low > p.disc;
                    }
                }
            }
        }
        if any_self_loop {
            for (e, &(x, y)) in g.edges().iter().enumerate() {
                if x == y && disc[x as usize] > base {
                    block[e] = num_blocks;
                    is_bridge[e] = false;
                    num_blocks += 1;
                    block_edges.push(1);
                    block_nodes.push(1);
                }
            }
        }
        self.num_blocks = num_blocks;
        self.time = time;
    }

    /// Whether node `v` lies in a decomposed component.
    pub fn contains(&self, v: u32) -> bool {
        self.disc[v as usize] > self.base
    }

    /// Whether block `c` is a simple cycle (as many edges as nodes, at least two edges; two
    /// parallel edges count).
    pub fn is_cycle(&self, c: u32) -> bool {
        let ne = self.block_edges[c as usize];
        ne >= 2 && ne == self.block_nodes[c as usize]
    }

    /// Whether `s` and `t` are in the same connected component.
    pub fn connected(&self, s: u32, t: u32) -> bool {
        self.contains(s) && self.contains(t) && self.root[s as usize] == self.root[t as usize]
    }

    /// Appends to `nodes` / `edges` the simple path from `s` to `t` in the DFS forest
    /// (`nodes` gets `s, …, t`; `edges[i]` joins `nodes[i]` and `nodes[i+1]`). Returns false,
    /// appending nothing, when `s` and `t` are in different components.
    pub fn tree_path(
        &self,
        g: &Graph,
        s: u32,
        t: u32,
        nodes: &mut Vec<u32>,
        edges: &mut Vec<u32>,
    ) -> bool {
        if !self.connected(s, t) {
            return false;
        }
        let other = |v: u32, e: u32| {
            let (a, b) = g.edge(e);
            if a == v {
                b
            } else {
                a
            }
        };
        let base_n = nodes.len();
        let base_e = edges.len();
        // Find the lowest common ancestor, then copy s → lca, then t → lca reversed in place.
        let up = |v: u32| other(v, self.parent_edge[v as usize]);
        let (mut x, mut y) = (s, t);
        while self.depth[x as usize] > self.depth[y as usize] {
            x = up(x);
        }
        while self.depth[y as usize] > self.depth[x as usize] {
            y = up(y);
        }
        while x != y {
            x = up(x);
            y = up(y);
        }
        let lca = x;
        let mut v = s;
        nodes.push(s);
        while v != lca {
            let e = self.parent_edge[v as usize];
            edges.push(e);
            v = other(v, e);
            nodes.push(v);
        }
        let (mid_n, mid_e) = (nodes.len(), edges.len());
        let mut v = t;
        while v != lca {
            let e = self.parent_edge[v as usize];
            nodes.push(v);
            edges.push(e);
            v = other(v, e);
        }
        nodes[mid_n..].reverse();
        edges[mid_e..].reverse();
        debug_assert_eq!(nodes.len() - base_n, edges.len() - base_e + 1);
        true
    }
}

/// One stack frame of an iterative DFS: the node, its adjacency cursor, the edge it was
/// entered by, its discovery time and its running lowlink.
#[derive(Clone, Copy, Debug)]
struct Frame {
    u: u32,
    pos: u32,
    end: u32,
    pe: u32,
    disc: u32,
    low: u32,
}

impl Frame {
    #[inline]
    fn new(g: &Graph, u: u32, pe: u32, time: u32) -> Frame {
        let (pos, end) = g.adj_range(u);
        Frame {
            u,
            pos,
            end,
            pe,
            disc: time,
            low: time,
        }
    }
}

/// Reusable buffers for finding the bridges of a subgraph reachable from a root.
#[derive(Clone, Debug, Default)]
pub struct BridgeFinder {
    disc: Vec<u32>,
    time: u32,
    stack: Vec<Frame>,
}

impl BridgeFinder {
    /// Buffers for graphs of `n` nodes (they grow on demand).
    pub fn new(n: usize) -> Self {
        BridgeFinder {
            disc: vec![0; n],
            time: 0,
            stack: Vec::new(),
        }
    }

    /// Pushes onto `out` every bridge of the subgraph made of the edges `e` with
    /// `allowed(e)`, restricted to the connected component of `root` in that subgraph.
    /// O(size of that component + the adjacency lists of its nodes).
    ///
    /// Visit marks are timestamps, so successive calls need no clearing; `allowed` must not
    /// select self-loops' partners inconsistently (it is called on each adjacency entry).
    pub fn bridges_from<F: Fn(u32) -> bool>(
        &mut self,
        g: &Graph,
        root: u32,
        allowed: F,
        out: &mut Vec<u32>,
    ) {
        let n = g.n();
        if self.disc.len() < n {
            self.disc.resize(n, 0);
        }
        // Every value <= base counts as "unvisited" in this call.
        if self.time as u64 + n as u64 + 2 >= u32::MAX as u64 {
            self.disc.iter_mut().for_each(|x| *x = 0);
            self.time = 0;
        }
        let base = self.time;
        let disc = &mut self.disc;
        let adj = g.adjacency();
        self.time += 1;
        let mut time = self.time;
        disc[root as usize] = time;
        let stack = &mut self.stack;
        stack.clear();
        stack.push(Frame::new(g, root, NONE, time));
        'frames: while let Some(f) = stack.last_mut() {
            while f.pos < f.end {
                let (w, e) = adj[f.pos as usize];
                f.pos += 1;
                if e == f.pe || !allowed(e) {
                    continue;
                }
                let dw = disc[w as usize];
                if dw <= base {
                    time += 1;
                    disc[w as usize] = time;
                    stack.push(Frame::new(g, w, e, time));
                    continue 'frames;
                } else if dw < f.low {
                    f.low = dw;
                }
            }
            let done = stack.pop().expect("non-empty");
            if let Some(p) = stack.last_mut() {
                if done.low < p.low {
                    p.low = done.low;
                }
                if done.low > p.disc {
                    out.push(done.pe);
                }
            }
        }
        self.time = time;
    }
}

/// All bridges of `g` (every component), as a mask over edge ids.
pub fn bridge_mask(g: &Graph) -> Vec<bool> {
    let mut finder = BridgeFinder::new(g.n());
    let mut seen = vec![false; g.n()];
    let mut mask = vec![false; g.m()];
    let mut out = Vec::new();
    let mut bfs_queue = Vec::new();
    for r in 0..g.n() as u32 {
        if seen[r as usize] {
            continue;
        }
        out.clear();
        finder.bridges_from(g, r, |_| true, &mut out);
        for &e in &out {
            mask[e as usize] = true;
        }
        // Mark r's component as seen (a plain traversal; the finder's marks are stamps).
        seen[r as usize] = true;
        bfs_queue.clear();
        bfs_queue.push(r);
        while let Some(v) = bfs_queue.pop() {
            for &(w, _) in g.neighbors(v) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    bfs_queue.push(w);
                }
            }
        }
    }
    mask
}
