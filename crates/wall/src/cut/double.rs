//! The double-edge cut oracle for one attached pair `(s, t)`: built in O(V + E), it answers
//! "does removing edges `e1` and `e2` disconnect `s` from `t`?" in O(1).
//!
//! Construction, following the structure of the problem:
//! 1. A simple `s`–`t` path `P` (the DFS-forest path of [`Blocks`]). Every `st`-bridge lies on
//!    `P`, and `P` crosses the biconnected components ("blocks") that every `s`–`t` path crosses,
//!    each as one contiguous run entering at `a` and leaving at `b`.
//! 2. A run that is a single bridge is an `st`-bridge: any pair containing it cuts.
//! 3. Two edges of different blocks never cut (unless one is an `st`-bridge). Inside a block `C`
//!    (not a single edge) with ends `a ≠ b`, take two node-disjoint `a`–`b` paths, red `R` and
//!    blue `B` (unit-capacity augmenting paths on split nodes; `P`'s run is the first path).
//!    A cutting pair is one red and one blue edge. Red *candidates* `r1..rk` are the red edges
//!    that are bridges of `C − B` (in path order); blue candidates `b1..bk'` likewise in `C − R`.
//! 4. The red candidates cut `R` into segments `rs_0..rs_k`, the blue ones `B` into `bs_0..bs_k'`.
//!    `RCC_x` is the component of `rs_x` in `C − RC − B`, `BCC_y` that of `bs_y` in `C − BC − R`;
//!    a *cross edge* `(x, y)` exists when `RCC_x` and `BCC_y` share a node.
//! 5. `(ri, bj)` cuts iff no cross edge separates them: every cross edge `(x, y)` has `x ≥ i ⇔
//!    y ≥ j`. Equivalently `max{y : x < i} < j ≤ min{y : x ≥ i}` — prefix maxima and suffix
//!    minima over the cross edges. So each red candidate cuts exactly with an interval of blue
//!    candidates (the compressed path-segment structure), stored as `[red_lo[i], red_hi[i])`.
//!
//! Why step 5 is exact (the reference's proof is informal): if the cross edges leave the
//! "left" segments `rs_<i, bs_<j` unlinked to the "right" ones, the union of their components
//! is closed under the edges of `G − ri − bj` (a blue edge leaving some `RCC_x` starts at a blue
//! path node, which lies in some `BCC_y` sharing that node, hence a cross edge; symmetrically),
//! so `t` is unreachable; conversely each cross edge is a real detour. The exhaustive tests
//! against brute force are the final word.
//!
//! Implementation notes. Steps 3–4 need no bridge search and no per-colour labelling: one
//! search labels the *islands*, the components of `C − R − B` around path nodes. A red edge is
//! a bridge of `C − B` iff no island holds red path nodes on both of its sides, `RCC_x` is the
//! union of the islands whose red nodes lie in segment `x`, and a cross edge is an island with
//! both red and blue nodes (see `Workspace::block`). Blocks that are plain cycles (most blocks
//! of a sparse board) take a shortcut: every red edge cuts with every blue edge. All marks are
//! timestamps in a reusable [`Workspace`], so a build touches only the component of `s`.
//! Queries read a branch-free per-edge [`QueryTable`] (two interval tests and a bridge flag).

use serde::Serialize;

use super::bridges::{Blocks, NONE};
use crate::graph::Graph;

/// Edge class: plays no part in any cutting pair.
pub const CLASS_NONE: u8 = 0;
/// Edge class: an `st`-bridge (cuts alone).
pub const CLASS_BRIDGE: u8 = 1;
/// Edge class: a red candidate.
pub const CLASS_RED: u8 = 2;
/// Edge class: a blue candidate.
pub const CLASS_BLUE: u8 = 3;

/// One biconnected component crossed by the `s`–`t` path (not a lone bridge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathBlock {
    /// Block id in the graph's [`Blocks`] decomposition.
    pub block: u32,
    /// Where every `s`–`t` path enters and leaves the block.
    pub entry: u32,
    /// See `entry`.
    pub exit: u32,
    /// Range of this block's red candidates in [`PairCut::red`].
    pub red: (u32, u32),
    /// Range of this block's blue candidates in [`PairCut::blue`].
    pub blue: (u32, u32),
    /// Range of this block's red path edges in [`PairCut::red_path`].
    pub red_path: (u32, u32),
    /// Range of this block's blue path edges in [`PairCut::blue_path`].
    pub blue_path: (u32, u32),
}

/// The oracle's tables for one pair, as plain public data.
///
/// Invariants (relied upon by [`PairCut::cuts`]): for an edge `e` of class [`CLASS_RED`],
/// `index[e]` is its position `i` in `red`, and `red[i] == e`; likewise for blue and bridges.
/// A red candidate `i` and blue candidate `j` cut together iff `red_lo[i] <= j < red_hi[i]`;
/// the interval never leaves the red candidate's own block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PairCut {
    /// The pair.
    pub s: u32,
    /// The pair.
    pub t: u32,
    /// Per edge: one of the `CLASS_*` constants.
    pub class: Vec<u8>,
    /// Per edge: index into `path_bridges`, `red` or `blue` according to `class` (unspecified
    /// where `class` is [`CLASS_NONE`]).
    pub index: Vec<u32>,
    /// The `st`-bridges, in path order from `s`.
    pub path_bridges: Vec<u32>,
    /// The blocks crossed, in path order from `s`.
    pub blocks: Vec<PathBlock>,
    /// Red candidates, block by block, in path order.
    pub red: Vec<u32>,
    /// Per red candidate: first blue candidate it cuts with.
    pub red_lo: Vec<u32>,
    /// Per red candidate: one past the last blue candidate it cuts with.
    pub red_hi: Vec<u32>,
    /// Blue candidates, block by block, in path order.
    pub blue: Vec<u32>,
    /// Every red path edge (candidates or not), block by block, from entry to exit.
    pub red_path: Vec<u32>,
    /// Every blue path edge, block by block, from entry to exit.
    pub blue_path: Vec<u32>,
    /// Per edge, the same facts in branch-free query form (derived from the tables above, so
    /// not serialized): see [`QueryTable`].
    #[serde(skip)]
    pub query: QueryTable,
}

/// The per-edge query data, one array per field so that rows vectorize. Edges `e1`, `e2` cut
/// iff either is an `st`-bridge, or `e2`'s blue index falls in `e1`'s red interval
/// `[lo, lo + len)`, or vice versa. Non-red edges have `len = 0` and non-blue edges
/// `blue = u32::MAX` (never inside an interval), so no class test is needed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryTable {
    /// First blue candidate a red candidate cuts with.
    pub lo: Vec<u32>,
    /// Number of blue candidates it cuts with (0 unless red).
    pub len: Vec<u32>,
    /// Blue candidate index, `u32::MAX` unless blue.
    pub blue: Vec<u32>,
    /// 1 for an `st`-bridge, else 0.
    pub bridge: Vec<u32>,
}

impl QueryTable {
    fn reset(&mut self, m: usize) {
        for (v, x) in [
            (&mut self.lo, 0),
            (&mut self.len, 0),
            (&mut self.blue, u32::MAX),
            (&mut self.bridge, 0),
        ] {
            v.clear();
            v.resize(m, x);
        }
    }
}

impl PairCut {
    /// Builds the oracle for one pair; `None` when `s` and `t` are not connected. For several
    /// pairs of one graph use [`PairCutBuilder`], which decomposes the graph once.
    pub fn build(g: &Graph, s: u32, t: u32) -> Option<PairCut> {
        PairCutBuilder::for_roots(g, [s]).build(s, t)
    }

    /// Whether removing `e1` and `e2` (possibly equal) disconnects `s` and `t`. O(1) and
    /// branch-free. Panics if an edge id is `>= m`.
    #[inline]
    pub fn cuts(&self, e1: u32, e2: u32) -> bool {
        let q = &self.query;
        let (a, b) = (e1 as usize, e2 as usize);
        ((q.bridge[a] | q.bridge[b]) != 0)
            | (q.blue[b].wrapping_sub(q.lo[a]) < q.len[a])
            | (q.blue[a].wrapping_sub(q.lo[b]) < q.len[b])
    }

    /// One row of the query matrix: for each edge `e2` in `from..m`, in order, whether `e1`
    /// and `e2` cut together (same answers as [`PairCut::cuts`]). Panics if `from > m`.
    #[inline]
    pub fn cuts_row(&self, e1: u32, from: u32) -> impl Iterator<Item = bool> + '_ {
        let q = &self.query;
        let a = e1 as usize;
        let (alo, alen, ablue, abr) = (q.lo[a], q.len[a], q.blue[a], q.bridge[a]);
        let f = from as usize;
        q.lo[f..]
            .iter()
            .zip(&q.len[f..])
            .zip(q.blue[f..].iter().zip(&q.bridge[f..]))
            .map(move |((&lo, &len), (&blue, &br))| {
                ((abr | br) != 0) | (blue.wrapping_sub(alo) < alen) | (ablue.wrapping_sub(lo) < len)
            })
    }

    /// How many edges `e2` in `from..m` cut together with `e1`: a row count, written so the
    /// compiler vectorizes it (about three times faster per pair than [`PairCut::cuts`]).
    pub fn count_cuts_row(&self, e1: u32, from: u32) -> u32 {
        let q = &self.query;
        let a = e1 as usize;
        let (alo, alen, ablue, abr) = (q.lo[a], q.len[a], q.blue[a], q.bridge[a]);
        let f = from as usize;
        let n = q.lo.len();
        let (lo, len, blue, br) = (&q.lo[f..n], &q.len[f..n], &q.blue[f..n], &q.bridge[f..n]);
        let mut count = 0u32;
        for i in 0..lo.len() {
            let hit = ((abr | br[i]) != 0)
                | (blue[i].wrapping_sub(alo) < alen)
                | (ablue.wrapping_sub(lo[i]) < len[i]);
            count += hit as u32;
        }
        count
    }

    /// Which entry of `blocks` a red or blue candidate belongs to (`None` for other edges):
    /// the per-edge component label, from the candidate ranges. O(log blocks).
    pub fn candidate_block(&self, e: u32) -> Option<usize> {
        let (i, red) = match self.class[e as usize] {
            CLASS_RED => (self.index[e as usize], true),
            CLASS_BLUE => (self.index[e as usize], false),
            _ => return None,
        };
        let k = self
            .blocks
            .partition_point(|b| if red { b.red.1 <= i } else { b.blue.1 <= i });
        Some(k)
    }

    /// [`PairCut::cuts`] read directly off the plain tables (`class`, `index`, `red_lo`,
    /// `red_hi`): the specification the packed words must agree with.
    pub fn cuts_from_tables(&self, e1: u32, e2: u32) -> bool {
        let c1 = self.class[e1 as usize];
        let c2 = self.class[e2 as usize];
        if c1 == CLASS_BRIDGE || c2 == CLASS_BRIDGE {
            return true;
        }
        let (r, b) = if c1 == CLASS_RED && c2 == CLASS_BLUE {
            (e1, e2)
        } else if c1 == CLASS_BLUE && c2 == CLASS_RED {
            (e2, e1)
        } else {
            return false;
        };
        let i = self.index[r as usize] as usize;
        let j = self.index[b as usize];
        self.red_lo[i] <= j && j < self.red_hi[i]
    }

    /// Whether removing `e` alone disconnects the pair (it is an `st`-bridge). O(1).
    #[inline]
    pub fn cuts_single(&self, e: u32) -> bool {
        self.class[e as usize] == CLASS_BRIDGE
    }

    /// Every cutting pair `(red, blue)` made of two candidates (pairs with an `st`-bridge are
    /// not listed), in time proportional to their number.
    pub fn essential_candidate_pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.red.len()).flat_map(move |i| {
            (self.red_lo[i]..self.red_hi[i]).map(move |j| (self.red[i], self.blue[j as usize]))
        })
    }
}

/// Scratch bits per edge (valid while `estamp[e] == cur`).
const F_FW: u8 = 1; // flow along the edge's stored orientation (p -> q for edge (p, q))
const F_BW: u8 = 2; // flow against it (q -> p)
const M_RED: u8 = 4;
const M_BLUE: u8 = 8;

/// Decomposes a graph once, then builds [`PairCut`]s for any number of pairs, reusing all
/// traversal buffers (a build allocates only its output).
pub struct PairCutBuilder<'g> {
    g: &'g Graph,
    w: Workspace,
}

/// Every buffer a [`PairCutBuilder`] needs, detached from any graph: keep one per thread and
/// pass it to [`PairCutBuilder::with_workspace`] to build oracles for many positions without
/// allocating or clearing O(n) memory (marks are timestamps; only the parts of the graph a
/// build visits are touched).
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    blocks: Blocks,
    /// Stamp for `estamp` / `sstamp` (one per processed block).
    cur: u32,
    estamp: Vec<u32>,
    ebits: Vec<u8>,
    /// Stamp for `nstamp` (one per phase: flow, then islands).
    ncur: u32,
    nstamp: Vec<u32>,
    /// Flow phase: 1 if the node's internal arc carries flow. Island phase: island id.
    nval: Vec<u32>,
    sstamp: Vec<u32>,
    /// Edge by which a split node was reached in the augmenting search ([`NONE`]: internal).
    spar: Vec<u32>,
    queue: Vec<u32>,
    path_nodes: Vec<u32>,
    path_edges: Vec<u32>,
    red_nodes: Vec<u32>,
    blue_nodes: Vec<u32>,
    /// Per island: min / max position of its red path nodes, then of its blue path nodes.
    isl: Vec<[u32; 4]>,
    diff: Vec<i32>,
    rseg: Vec<u32>,
    bseg: Vec<u32>,
    maxy: Vec<u32>,
    miny: Vec<u32>,
}

impl<'g> PairCutBuilder<'g> {
    /// Decomposes `g` (bridges, blocks, DFS forest) in O(n + m).
    pub fn new(g: &'g Graph) -> Self {
        Self::with_workspace(g, Workspace::default(), 0..g.n() as u32)
    }

    /// Decomposes only the components of `roots`: pairs whose first node is not in one of them
    /// then build as disconnected. Cheaper when the board has many small components.
    pub fn for_roots(g: &'g Graph, roots: impl IntoIterator<Item = u32>) -> Self {
        Self::with_workspace(g, Workspace::default(), roots)
    }

    /// Like [`Self::for_roots`], reusing the buffers of `w` (from [`Self::into_workspace`]).
    pub fn with_workspace(
        g: &'g Graph,
        mut w: Workspace,
        roots: impl IntoIterator<Item = u32>,
    ) -> Self {
        w.prepare(g, roots);
        PairCutBuilder { g, w }
    }

    /// Gives the buffers back for reuse on another graph.
    pub fn into_workspace(self) -> Workspace {
        self.w
    }

    /// The graph's block decomposition.
    pub fn blocks(&self) -> &Blocks {
        &self.w.blocks
    }

    /// Builds the oracle for `(s, t)`; `None` if they are not connected. Panics if a node is
    /// `>= n`.
    pub fn build(&mut self, s: u32, t: u32) -> Option<PairCut> {
        let mut out = PairCut::default();
        if self.build_into(s, t, &mut out) {
            Some(out)
        } else {
            None
        }
    }

    /// Like [`Self::build`] but overwrites `out`, reusing its allocations. Returns false (and
    /// leaves `out` describing no cut at all) when `s` and `t` are not connected.
    pub fn build_into(&mut self, s: u32, t: u32, out: &mut PairCut) -> bool {
        self.w.build_into(self.g, s, t, out)
    }
}

impl Workspace {
    fn prepare(&mut self, g: &Graph, roots: impl IntoIterator<Item = u32>) {
        let n = g.n();
        let m = g.m();
        self.blocks.recompute(g, roots);
        if self.estamp.len() < m {
            self.estamp.resize(m, 0);
            self.ebits.resize(m, 0);
        }
        if self.nstamp.len() < n {
            self.nstamp.resize(n, 0);
            self.nval.resize(n, 0);
            self.sstamp.resize(2 * n, 0);
            self.spar.resize(2 * n, 0);
        }
    }

    fn build_into(&mut self, g: &Graph, s: u32, t: u32, out: &mut PairCut) -> bool {
        let m = g.m();
        out.s = s;
        out.t = t;
        out.class.clear();
        out.class.resize(m, CLASS_NONE);
        // `index` is only read where `class` is set: stale values elsewhere are harmless.
        out.index.resize(m, 0);
        out.path_bridges.clear();
        out.blocks.clear();
        out.red.clear();
        out.red_lo.clear();
        out.red_hi.clear();
        out.blue.clear();
        out.red_path.clear();
        out.blue_path.clear();
        out.query.reset(m);
        if s == t {
            return true;
        }
        self.path_nodes.clear();
        self.path_edges.clear();
        if !self
            .blocks
            .tree_path(g, s, t, &mut self.path_nodes, &mut self.path_edges)
        {
            return false;
        }
        let pe = std::mem::take(&mut self.path_edges);
        let pn = std::mem::take(&mut self.path_nodes);
        let mut i = 0;
        while i < pe.len() {
            let c = self.blocks.block[pe[i] as usize];
            let mut j = i + 1;
            while j < pe.len() && self.blocks.block[pe[j] as usize] == c {
                j += 1;
            }
            if self.blocks.is_bridge[pe[i] as usize] {
                debug_assert_eq!(j, i + 1);
                let e = pe[i];
                out.class[e as usize] = CLASS_BRIDGE;
                out.index[e as usize] = out.path_bridges.len() as u32;
                out.path_bridges.push(e);
            } else if self.blocks.is_cycle(c) {
                self.cycle_block(g, c, &pn[i..=j], &pe[i..j], out);
            } else {
                self.block(g, c, &pn[i..=j], &pe[i..j], out);
            }
            i = j;
        }
        self.path_edges = pe;
        self.path_nodes = pn;
        let q = &mut out.query;
        for &e in &out.path_bridges {
            q.bridge[e as usize] = 1;
        }
        for (i, &e) in out.red.iter().enumerate() {
            q.lo[e as usize] = out.red_lo[i];
            q.len[e as usize] = out.red_hi[i] - out.red_lo[i];
        }
        for (j, &e) in out.blue.iter().enumerate() {
            q.blue[e as usize] = j as u32;
        }
        true
    }

    fn next_edge_stamp(&mut self) {
        self.cur = self.cur.wrapping_add(1);
        if self.cur == 0 {
            self.estamp.iter_mut().for_each(|x| *x = 0);
            self.sstamp.iter_mut().for_each(|x| *x = 0);
            self.cur = 1;
        }
    }

    fn next_node_stamp(&mut self) {
        self.ncur = self.ncur.wrapping_add(1);
        if self.ncur == 0 {
            self.nstamp.iter_mut().for_each(|x| *x = 0);
            self.ncur = 1;
        }
    }

    #[inline]
    fn bits(&self, e: u32) -> u8 {
        if self.estamp[e as usize] == self.cur {
            self.ebits[e as usize]
        } else {
            0
        }
    }

    #[inline]
    fn set_bits(&mut self, e: u32, add: u8, remove: u8) {
        let cur = self.cur;
        let b = self.bits(e);
        self.estamp[e as usize] = cur;
        self.ebits[e as usize] = (b | add) & !remove;
    }

    #[inline]
    fn internal(&self, v: u32) -> bool {
        self.nstamp[v as usize] == self.ncur && self.nval[v as usize] == 1
    }

    #[inline]
    fn set_internal(&mut self, v: u32, on: bool) {
        self.nstamp[v as usize] = self.ncur;
        self.nval[v as usize] = on as u32;
    }

    /// Flow bit for travelling `from -> (other end)` along `e`.
    #[inline]
    fn dir_bit(g: &Graph, e: u32, from: u32) -> u8 {
        if g.edge(e).0 == from {
            F_FW
        } else {
            F_BW
        }
    }

    /// Processes one block crossed by the path: `nodes` = `a, …, b`, `edges` its run.
    ///
    /// After the two paths are found, one search labels the *islands*: the components of
    /// `C − R − B` that contain a path node. A red edge is a bridge of `C − B` iff no island
    /// holds red path nodes on both of its sides (the island would be a detour), so each
    /// island's range of red positions "covers" the red edges inside it, and the candidates
    /// are the uncovered ones; likewise for blue. `RCC_x` is then the union of the islands
    /// whose red nodes lie in segment `x` (an island never straddles a candidate), so a cross
    /// edge `(x, y)` is exactly an island holding red nodes of segment `x` and blue nodes of
    /// segment `y`.
    fn block(&mut self, g: &Graph, c: u32, nodes: &[u32], edges: &[u32], out: &mut PairCut) {
        self.next_edge_stamp();
        self.next_node_stamp();
        let a = nodes[0];
        let b = *nodes.last().unwrap();
        // --- Two node-disjoint a–b paths: the run is the first unit of flow. ---
        for (k, &e) in edges.iter().enumerate() {
            let d = Self::dir_bit(g, e, nodes[k]);
            self.set_bits(e, d, 0);
        }
        for &v in &nodes[1..nodes.len() - 1] {
            self.set_internal(v, true);
        }
        let augmented = self.augment(g, c, a, b);
        assert!(augmented, "a biconnected block has two node-disjoint paths");
        // --- Read the two paths off the flow. ---
        let red_path_start = out.red_path.len();
        let blue_path_start = out.blue_path.len();
        let mut found = 0;
        for &(w0, e0) in g.neighbors(a) {
            if self.blocks.block[e0 as usize] != c || self.bits(e0) & Self::dir_bit(g, e0, a) == 0 {
                continue;
            }
            let red = found == 0;
            found += 1;
            let colour = if red { M_RED } else { M_BLUE };
            let mut pnodes = std::mem::take(if red {
                &mut self.red_nodes
            } else {
                &mut self.blue_nodes
            });
            let path_out = if red {
                &mut out.red_path
            } else {
                &mut out.blue_path
            };
            pnodes.clear();
            pnodes.push(a);
            let mut e = e0;
            let mut v = w0;
            loop {
                self.set_bits(e, colour, 0);
                path_out.push(e);
                pnodes.push(v);
                if v == b {
                    break;
                }
                let next = g.neighbors(v).iter().find(|&&(_, f)| {
                    self.blocks.block[f as usize] == c && self.bits(f) & Self::dir_bit(g, f, v) != 0
                });
                let &(w, f) = next.expect("flow paths are continuous");
                e = f;
                v = w;
            }
            if red {
                self.red_nodes = pnodes;
            } else {
                self.blue_nodes = pnodes;
            }
        }
        assert_eq!(found, 2, "two units of flow leave the entry node");

        // --- Islands: components of C − R − B around the path nodes. ---
        self.next_node_stamp();
        self.isl.clear();
        self.queue.clear();
        for colour in 0..2 {
            let len = if colour == 0 {
                self.red_nodes.len()
            } else {
                self.blue_nodes.len()
            };
            for p in 0..len {
                let v = if colour == 0 {
                    self.red_nodes[p]
                } else {
                    self.blue_nodes[p]
                };
                if self.nstamp[v as usize] != self.ncur {
                    let id = self.isl.len() as u32;
                    self.isl.push([u32::MAX, 0, u32::MAX, 0]);
                    self.nstamp[v as usize] = self.ncur;
                    self.nval[v as usize] = id;
                    self.queue.clear();
                    self.queue.push(v);
                    let mut head = 0;
                    while head < self.queue.len() {
                        let x = self.queue[head];
                        head += 1;
                        for &(w, e) in g.neighbors(x) {
                            if self.nstamp[w as usize] == self.ncur
                                || self.blocks.block[e as usize] != c
                                || self.bits(e) & (M_RED | M_BLUE) != 0
                            {
                                continue;
                            }
                            self.nstamp[w as usize] = self.ncur;
                            self.nval[w as usize] = id;
                            self.queue.push(w);
                        }
                    }
                }
                let r = &mut self.isl[self.nval[v as usize] as usize];
                let (lo, hi) = (2 * colour, 2 * colour + 1);
                r[lo] = r[lo].min(p as u32);
                r[hi] = r[hi].max(p as u32);
            }
        }

        // --- Candidates (uncovered path edges) and segment numbers per path position. ---
        let red_start = out.red.len() as u32;
        let blue_start = out.blue.len() as u32;
        for colour in 0..2 {
            let len = if colour == 0 {
                self.red_nodes.len()
            } else {
                self.blue_nodes.len()
            } - 1;
            self.diff.clear();
            self.diff.resize(len + 2, 0);
            for r in &self.isl {
                let (lo, hi) = (r[2 * colour], r[2 * colour + 1]);
                if lo < hi {
                    // Covers the edges at positions lo+1..=hi (edge i joins nodes i-1, i).
                    self.diff[lo as usize + 1] += 1;
                    self.diff[hi as usize + 1] -= 1;
                }
            }
            let mut seg_of = std::mem::take(if colour == 0 {
                &mut self.rseg
            } else {
                &mut self.bseg
            });
            seg_of.clear();
            seg_of.push(0);
            let mut cover = 0i32;
            let mut seg = 0u32;
            for i in 1..=len {
                cover += self.diff[i];
                if cover == 0 {
                    let (e, class, list) = if colour == 0 {
                        (
                            out.red_path[red_path_start + i - 1],
                            CLASS_RED,
                            &mut out.red,
                        )
                    } else {
                        (
                            out.blue_path[blue_path_start + i - 1],
                            CLASS_BLUE,
                            &mut out.blue,
                        )
                    };
                    out.class[e as usize] = class;
                    out.index[e as usize] = list.len() as u32;
                    list.push(e);
                    seg += 1;
                }
                seg_of.push(seg);
            }
            if colour == 0 {
                self.rseg = seg_of;
            } else {
                self.bseg = seg_of;
            }
        }
        let kr = out.red.len() as u32 - red_start;
        let kb = out.blue.len() as u32 - blue_start;

        // --- Cross edges, folded into per-x max / min of y; then prefix maxima / suffix
        //     minima: red candidate i (1-based) cuts with blue j in (max{y : x < i},
        //     min{y : x >= i}]. ---
        self.maxy.clear();
        self.maxy.resize(kr as usize + 1, 0);
        self.miny.clear();
        self.miny.resize(kr as usize + 1, kb);
        for r in &self.isl {
            if r[0] != u32::MAX && r[2] != u32::MAX {
                let x = self.rseg[r[0] as usize] as usize;
                let y = self.bseg[r[2] as usize];
                self.maxy[x] = self.maxy[x].max(y);
                self.miny[x] = self.miny[x].min(y);
            }
        }
        let base = out.red_lo.len();
        let mut pre = self.maxy[0];
        for i in 1..=kr as usize {
            out.red_lo.push(blue_start + pre);
            out.red_hi.push(0);
            pre = pre.max(self.maxy[i]);
        }
        let mut suf = kb;
        for i in (1..=kr as usize).rev() {
            suf = suf.min(self.miny[i]);
            let lo = out.red_lo[base + i - 1];
            out.red_hi[base + i - 1] = (blue_start + suf).max(lo);
        }
        out.blocks.push(PathBlock {
            block: c,
            entry: a,
            exit: b,
            red: (red_start, out.red.len() as u32),
            blue: (blue_start, out.blue.len() as u32),
            red_path: (red_path_start as u32, out.red_path.len() as u32),
            blue_path: (blue_path_start as u32, out.blue_path.len() as u32),
        });
    }

    /// Fast path for a block that is a simple cycle (very common on sparse boards): the run
    /// is one arc (red), the rest of the cycle the other (blue); every edge is a candidate and
    /// every red edge cuts with every blue edge. The cut answers are those of the general path;
    /// the red/blue labels may be swapped relative to it (the general path colours red the
    /// path whose first edge has the smaller id), which no query depends on.
    fn cycle_block(&mut self, g: &Graph, c: u32, nodes: &[u32], edges: &[u32], out: &mut PairCut) {
        let a = nodes[0];
        let b = *nodes.last().unwrap();
        let red_start = out.red.len() as u32;
        let blue_start = out.blue.len() as u32;
        let red_path_start = out.red_path.len() as u32;
        let blue_path_start = out.blue_path.len() as u32;
        for &e in edges {
            out.class[e as usize] = CLASS_RED;
            out.index[e as usize] = out.red.len() as u32;
            out.red.push(e);
            out.red_path.push(e);
        }
        let (mut v, mut prev) = (a, edges[0]);
        while v != b {
            let &(w, f) = g
                .neighbors(v)
                .iter()
                .find(|&&(_, f)| f != prev && self.blocks.block[f as usize] == c)
                .expect("a cycle continues");
            out.class[f as usize] = CLASS_BLUE;
            out.index[f as usize] = out.blue.len() as u32;
            out.blue.push(f);
            out.blue_path.push(f);
            v = w;
            prev = f;
        }
        let blue_end = out.blue.len() as u32;
        for _ in edges {
            out.red_lo.push(blue_start);
            out.red_hi.push(blue_end);
        }
        out.blocks.push(PathBlock {
            block: c,
            entry: a,
            exit: b,
            red: (red_start, out.red.len() as u32),
            blue: (blue_start, blue_end),
            red_path: (red_path_start, out.red_path.len() as u32),
            blue_path: (blue_path_start, out.blue_path.len() as u32),
        });
    }

    /// One augmenting path from `a_out` to `b_in` in the split-node residual network restricted
    /// to block `c`; applies it. Split node ids: `2v` = v_in, `2v + 1` = v_out.
    fn augment(&mut self, g: &Graph, c: u32, a: u32, b: u32) -> bool {
        let cur = self.cur;
        let src = 2 * a + 1;
        let dst = 2 * b;
        self.queue.clear();
        self.queue.push(src);
        self.sstamp[src as usize] = cur;
        // Never route through a's or b's internal arcs.
        self.sstamp[2 * a as usize] = cur;
        self.sstamp[2 * b as usize + 1] = cur;
        let mut head = 0;
        let mut found = false;
        'bfs: while head < self.queue.len() {
            let x = self.queue[head];
            head += 1;
            let v = x / 2;
            if x & 1 == 0 {
                // v_in: forward internal arc, or cancel flow that entered v.
                if !self.internal(v) {
                    let y = x + 1;
                    if self.sstamp[y as usize] != cur {
                        self.sstamp[y as usize] = cur;
                        self.spar[y as usize] = NONE;
                        self.queue.push(y);
                    }
                }
                for &(w, e) in g.neighbors(v) {
                    if self.blocks.block[e as usize] != c {
                        continue;
                    }
                    // Flow w -> v on e enters v_in from w_out: residual v_in -> w_out.
                    if self.bits(e) & Self::dir_bit(g, e, w) == 0 {
                        continue;
                    }
                    let y = 2 * w + 1;
                    if self.sstamp[y as usize] != cur {
                        self.sstamp[y as usize] = cur;
                        self.spar[y as usize] = e;
                        self.queue.push(y);
                    }
                }
            } else {
                // v_out: cancel the internal arc, or a fresh arc v_out -> w_in.
                if self.internal(v) {
                    let y = x - 1;
                    if self.sstamp[y as usize] != cur {
                        self.sstamp[y as usize] = cur;
                        self.spar[y as usize] = NONE;
                        self.queue.push(y);
                    }
                }
                for &(w, e) in g.neighbors(v) {
                    if self.blocks.block[e as usize] != c {
                        continue;
                    }
                    if self.bits(e) & Self::dir_bit(g, e, v) != 0 {
                        continue;
                    }
                    let y = 2 * w;
                    if self.sstamp[y as usize] != cur {
                        self.sstamp[y as usize] = cur;
                        self.spar[y as usize] = e;
                        if y == dst {
                            found = true;
                            break 'bfs;
                        }
                        self.queue.push(y);
                    }
                }
            }
        }
        if !found {
            return false;
        }
        let mut y = dst;
        while y != src {
            // The arc's tail: y ^ 1 for an internal arc; across e otherwise (v_out -> w_in
            // forward, v_in -> w_out backward).
            let e = self.spar[y as usize];
            let x = if e == NONE {
                y ^ 1
            } else {
                let (p, q) = g.edge(e);
                let w = y / 2;
                let v = if p == w { q } else { p };
                2 * v + (y & 1 ^ 1)
            };
            let v = x / 2;
            if e == NONE {
                // Internal arc: v_in -> v_out sets it, v_out -> v_in cancels it.
                self.set_internal(v, x & 1 == 0);
            } else if x & 1 == 1 {
                let d = Self::dir_bit(g, e, v);
                self.set_bits(e, d, 0);
            } else {
                let w = y / 2;
                let d = Self::dir_bit(g, e, w);
                self.set_bits(e, 0, d);
            }
            y = x;
        }
        true
    }
}
