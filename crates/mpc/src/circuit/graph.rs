//! Graph certificates: connectivity, acyclicity and single loops checked locally.
//!
//! A circuit cannot afford a flood fill. Instead the prover supplies labels that each
//! vertex checks against its neighbours only (proof-labelling schemes, Korman–Kutten–Peleg;
//! locally checkable proofs, Göös–Suomela). A [`Graph`] is public: its vertices and its
//! *candidate* edges; which candidates are present is secret, one [`Bit`] per edge. Each
//! gadget reads its labels from the circuit's inputs at a cursor, returns *violation* bits
//! (the witness is accepted when every one is 0: output them, with a public output of
//! zeros) and has a witness function that computes the labels from the present edges.
//!
//! Label widths are minimal: a vertex names one of its `d` incident candidate edges by an
//! index of `⌈log2 d⌉` bits ([`index_bits`]; decoded one-hot by [`decode_index`],
//! `2^w − w − 1` ANDs for `w` bits, or, in [`one_loop`], read through a tree of
//! multiplexers, one AND per selected bit and multiplexer), and counters (depths, positions) have `b` bits with `2^b` larger than
//! the longest cycle of pointers the certificate must exclude. Arithmetic is modulo `2^b`;
//! the soundness arguments below only use that a cycle of `L` pointers, each adding 1,
//! needs `L ≡ 0 (mod 2^b)`, impossible for `0 < L < 2^b`.

use super::{Bit, Builder};

/// A public graph: `n` vertices and candidate edges (unordered pairs, no loops).
#[derive(Clone, Debug)]
pub struct Graph {
    n: usize,
    edges: Vec<(usize, usize)>,
    /// Per vertex: its incident candidate edges `(edge, other end)`, in edge order.
    inc: Vec<Vec<(usize, usize)>>,
}

impl Graph {
    /// The graph of `n` vertices and `edges`. Panics on an edge outside `0..n` or a loop
    /// (graphs are built by code from validated puzzles).
    pub fn new(n: usize, edges: Vec<(usize, usize)>) -> Self {
        let mut inc = vec![Vec::new(); n];
        for (e, &(u, v)) in edges.iter().enumerate() {
            assert!(u < n && v < n && u != v, "bad candidate edge");
            inc[u].push((e, v));
            inc[v].push((e, u));
        }
        Graph { n, edges, inc }
    }
    pub fn n(&self) -> usize {
        self.n
    }
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }
    /// The candidate edges at `v`, `(edge, other end)`.
    pub fn incident(&self, v: usize) -> &[(usize, usize)] {
        &self.inc[v]
    }
}

/// The bits of an index among `d` choices: `⌈log2 d⌉` (0 for one choice).
pub fn index_bits(d: usize) -> usize {
    let mut w = 0;
    while (1usize << w) < d {
        w += 1;
    }
    w
}

/// The smallest `b ≥ 1` with `2^b > n`: a counter that no cycle of at most `n` steps wraps.
pub fn counter_bits(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) <= n {
        b += 1;
    }
    b
}

/// The one-hot decoding of an index word: `d` bits, bit `k` is 1 iff the index is `k`; an
/// index `≥ d` gives all zeros. Every product of a subset of the index bits is computed
/// once (`2^w − w − 1` ANDs); `[idx = k] = ∏_{i∈ones(k)} x_i ∏_{i∉ones(k)} (1 ⊕ x_i)`, which
/// expands to the XOR of the products over the supersets of `ones(k)`.
pub fn decode_index(b: &mut Builder, idx: &[Bit], d: usize) -> Vec<Bit> {
    let w = idx.len();
    assert!(d <= 1 << w);
    let mut prod = vec![Bit::Const(true); 1 << w];
    for m in 1usize..(1 << w) {
        let low = m.trailing_zeros() as usize;
        let rest = m & (m - 1);
        prod[m] = if rest == 0 {
            idx[low]
        } else {
            b.and(prod[rest], idx[low])
        };
    }
    (0..d)
        .map(|k| {
            let mut acc = Bit::Const(false);
            for (m, &p) in prod.iter().enumerate() {
                if m & k == k {
                    acc = b.xor(acc, p);
                }
            }
            acc
        })
        .collect()
}

fn inputs(b: &Builder, at: &mut usize, n: usize) -> Vec<Bit> {
    let w = b.input_word(*at, n);
    *at += n;
    w
}

/// `XOR_k sel_k · words_k` (a mux by a one-hot selector): `len · words` ANDs.
fn select(b: &mut Builder, sel: &[Bit], words: &[Vec<Bit>], width: usize) -> Vec<Bit> {
    let mut out = vec![Bit::Const(false); width];
    for (s, wd) in sel.iter().zip(words) {
        for (o, &x) in out.iter_mut().zip(wd) {
            let t = b.and(*s, x);
            *o = b.xor(*o, t);
        }
    }
    out
}

fn push(w: &mut Vec<bool>, v: usize, width: usize) {
    for i in 0..width {
        w.push((v >> i) & 1 == 1);
    }
}

fn bfs(g: &Graph, present: &[bool], roots: &[usize]) -> (Vec<Option<usize>>, Vec<usize>) {
    // parent as the index into incident(v); depth
    let mut parent = vec![None; g.n];
    let mut depth = vec![usize::MAX; g.n];
    let mut queue = std::collections::VecDeque::new();
    for &r in roots {
        depth[r] = 0;
        queue.push_back(r);
    }
    while let Some(v) = queue.pop_front() {
        for &(e, u) in g.incident(v) {
            if present[e] && depth[u] == usize::MAX {
                depth[u] = depth[v] + 1;
                parent[u] = Some(g.incident(u).iter().position(|&(f, _)| f == e).unwrap());
                queue.push_back(u);
            }
        }
    }
    (parent, depth)
}

/// **Spanning tree: every vertex is connected to `root` by present edges.**
///
/// Labels of every vertex `v ≠ root`: a parent, the index of one of its incident candidate
/// edges ([`index_bits`] of its degree), and a depth of `b = counter_bits(n − 1)` bits; the
/// root's depth is the constant 0 and it has no label. Checks: the parent edge is present
/// and `depth(v) = depth(parent) + 1 (mod 2^b)`.
///
/// *Sound*: follow parents from any vertex. The walk cannot stop before the root (every
/// other vertex has a present parent edge), and it cannot cycle among non-root vertices:
/// a cycle of `L ≤ n − 1` pointers would need `L ≡ 0 (mod 2^b)` with `2^b > n − 1`. So it
/// reaches the root along present edges. *Complete*: a BFS tree from the root has depths
/// below `n`, which fit.
pub fn spanning_tree(
    b: &mut Builder,
    g: &Graph,
    present: &[Bit],
    root: usize,
    at: &mut usize,
) -> Vec<Bit> {
    assert_eq!(present.len(), g.edges.len());
    let width = counter_bits(g.n.saturating_sub(1));
    let mut idx = vec![Vec::new(); g.n];
    let mut depth = vec![vec![Bit::Const(false); width]; g.n];
    for v in (0..g.n).filter(|&v| v != root) {
        idx[v] = inputs(b, at, index_bits(g.inc[v].len()));
        depth[v] = inputs(b, at, width);
    }
    let mut bad = Vec::new();
    for v in (0..g.n).filter(|&v| v != root) {
        let inc = &g.inc[v];
        let sel = decode_index(b, &idx[v], inc.len());
        let mut edge = Bit::Const(false);
        for (s, &(e, _)) in sel.iter().zip(inc) {
            let t = b.and(*s, present[e]);
            edge = b.xor(edge, t);
        }
        bad.push(b.not(edge));
        let words: Vec<Vec<Bit>> = inc.iter().map(|&(_, u)| depth[u].clone()).collect();
        let d = select(b, &sel, &words, width);
        let d1 = b.increment(&d, Bit::Const(true));
        bad.extend(b.xor_w(&d1, &depth[v]));
    }
    bad
}

/// The number of label bits [`spanning_tree`] reads.
pub fn spanning_tree_bits(g: &Graph, root: usize) -> usize {
    let width = counter_bits(g.n.saturating_sub(1));
    (0..g.n)
        .filter(|&v| v != root)
        .map(|v| index_bits(g.inc[v].len()) + width)
        .sum()
}

/// [`spanning_tree`]'s labels for the present edges, or `None` when some vertex is not
/// connected to the root.
pub fn spanning_tree_witness(g: &Graph, present: &[bool], root: usize) -> Option<Vec<bool>> {
    let width = counter_bits(g.n.saturating_sub(1));
    let (parent, depth) = bfs(g, present, &[root]);
    let mut w = Vec::new();
    for v in (0..g.n).filter(|&v| v != root) {
        push(&mut w, parent[v]?, index_bits(g.inc[v].len()));
        push(&mut w, depth[v], width);
    }
    Some(w)
}

/// **Connected subset: the vertices of a secret subset are connected.**
///
/// `inside` holds one bit per vertex (secret); an edge counts when both its endpoints are
/// inside. The root is secret too without a label: it is the *first* vertex inside (the
/// lowest-numbered one), found by a running OR of `inside` in vertex order (`seen`), so
/// `need(v) = inside(v) ∧ seen(v − 1)` is 1 exactly for the vertices inside but the first
/// (one AND per vertex; the running OR is then `seen ⊕ inside ⊕ need`, free).
///
/// Labels of every vertex, in vertex order: a depth of `b = counter_bits(n − 1)` bits then
/// a parent, the index of one of its incident candidate edges ([`index_bits`] of its degree;
/// an index past the last edge names the last). The parent's `inside` bit and depth are read
/// through a tree of multiplexers. Checks, each ANDed with `need(v)`: the parent is inside,
/// and `depth(v) = depth(parent) + 1 (mod 2^b)`; a vertex without candidate edges and
/// `need(v) = 1` is a violation by itself. Labels of the vertices outside and of the first
/// vertex inside are not checked.
///
/// *Sound*: let `S` be the subset, `r` its first vertex. Every `v ∈ S \ {r}` names a
/// neighbour in `S` (so the edge counts) one less deep. Follow parents from any vertex of
/// `S`: the walk stays in `S`; if it never reached `r` it would close a cycle of `L`
/// pointers among `S \ {r}`, `2 ≤ L ≤ n − 1 < 2^b`, each adding 1, so `L ≡ 0 (mod 2^b)`:
/// impossible. So every vertex of `S` reaches `r` along edges inside `S`: `S` is connected.
/// *Complete*: a BFS from `r` over the edges inside `S` gives depths below `|S| ≤ n`; the
/// other labels are zeros. **The empty subset is accepted** (no vertex needs a parent: it
/// is connected vacuously); a caller that must refuse it outputs `¬OR(inside)` itself. The
/// Tatham games using this gadget never have an empty subset in a position their other rules
/// accept.
///
/// Cost per vertex of degree `d ≥ 1` with `w = index_bits(d)`: 1 AND for `need`,
/// `(2^w − 1) · (b + 1)` at most for the multiplexers (fewer where the tree repeats the
/// last edge), `b − 1` for the increment and `b + 1` for the gating.
pub fn connected_subset(b: &mut Builder, g: &Graph, inside: &[Bit], at: &mut usize) -> Vec<Bit> {
    assert_eq!(inside.len(), g.n);
    let width = counter_bits(g.n.saturating_sub(1));
    let mut idx = Vec::with_capacity(g.n);
    let mut depth = Vec::with_capacity(g.n);
    for v in 0..g.n {
        depth.push(inputs(b, at, width));
        idx.push(inputs(b, at, index_bits(g.inc[v].len())));
    }
    let mut bad = Vec::new();
    let mut seen = Bit::Const(false);
    for v in 0..g.n {
        let need = b.and(inside[v], seen);
        let x = b.xor(seen, inside[v]);
        seen = b.xor(x, need);
        let inc = &g.inc[v];
        if inc.is_empty() {
            bad.push(need);
            continue;
        }
        let items: Vec<Vec<Bit>> = inc
            .iter()
            .map(|&(_, u)| {
                let mut it = vec![inside[u]];
                it.extend_from_slice(&depth[u]);
                it
            })
            .collect();
        let sel = tree_select(b, &idx[v], &items);
        let outside = b.not(sel[0]);
        bad.push(b.and(need, outside));
        let d1 = b.increment(&sel[1..], Bit::Const(true));
        for x in b.xor_w(&d1, &depth[v]) {
            bad.push(b.and(need, x));
        }
    }
    bad
}

/// The number of label bits [`connected_subset`] reads.
pub fn connected_subset_bits(g: &Graph) -> usize {
    let width = counter_bits(g.n.saturating_sub(1));
    (0..g.n).map(|v| width + index_bits(g.inc[v].len())).sum()
}

/// [`connected_subset`]'s labels for the subset `inside`, or `None` when it is not
/// connected (the empty subset is connected).
pub fn connected_subset_witness(g: &Graph, inside: &[bool]) -> Option<Vec<bool>> {
    assert_eq!(inside.len(), g.n);
    let width = counter_bits(g.n.saturating_sub(1));
    let mut parent = vec![0usize; g.n];
    let mut depth = vec![usize::MAX; g.n];
    if let Some(r) = (0..g.n).find(|&v| inside[v]) {
        depth[r] = 0;
        let mut queue = std::collections::VecDeque::from([r]);
        while let Some(v) = queue.pop_front() {
            for &(_, u) in &g.inc[v] {
                if inside[u] && depth[u] == usize::MAX {
                    depth[u] = depth[v] + 1;
                    parent[u] = g.inc[u].iter().position(|&(_, x)| x == v).unwrap();
                    queue.push_back(u);
                }
            }
        }
    }
    if (0..g.n).any(|v| inside[v] && depth[v] == usize::MAX) {
        return None;
    }
    let mut w = Vec::new();
    for v in 0..g.n {
        let d = if inside[v] { depth[v] } else { 0 };
        push(&mut w, d, width);
        push(&mut w, parent[v], index_bits(g.inc[v].len()));
    }
    Some(w)
}

/// **Forest: the present edges contain no cycle.**
///
/// Labels of every vertex: a parent choice among its `d` incident candidate edges or none
/// (an index of [`index_bits`]`(d + 1)` bits, value `d` meaning none) and a depth of
/// `b = counter_bits(n)` bits. Checks: a chosen parent edge is present, with
/// `depth(v) = depth(parent) + 1 (mod 2^b)`; and every present edge is chosen by exactly
/// one of its two endpoints.
///
/// *Sound*: take a cycle of `k ≤ n` present edges. Each is chosen by one of its endpoints
/// on the cycle and each vertex chooses at most one edge, so the `k` cycle vertices choose
/// the `k` cycle edges one each: the parent pointers go round the cycle, adding 1 to the
/// depth `k` times, and `k ≡ 0 (mod 2^b)` is impossible for `0 < k < 2^b`. *Complete*: root
/// each tree of the forest anywhere; BFS depths are below `n`; every edge is chosen by its
/// child endpoint only.
pub fn forest(b: &mut Builder, g: &Graph, present: &[Bit], at: &mut usize) -> Vec<Bit> {
    assert_eq!(present.len(), g.edges.len());
    let width = counter_bits(g.n);
    let mut sel = Vec::with_capacity(g.n);
    let mut depth = Vec::with_capacity(g.n);
    for v in 0..g.n {
        let d = g.inc[v].len();
        let idx = inputs(b, at, index_bits(d + 1));
        depth.push(inputs(b, at, width));
        sel.push(decode_index(b, &idx, d));
    }
    let mut bad = Vec::new();
    for v in 0..g.n {
        let inc = &g.inc[v];
        let mut has = Bit::Const(false);
        let mut edge = Bit::Const(false);
        for (s, &(e, _)) in sel[v].iter().zip(inc) {
            has = b.xor(has, *s);
            let t = b.and(*s, present[e]);
            edge = b.xor(edge, t);
        }
        // edge ≤ has (one-hot selector): has ⊕ edge is 1 iff the chosen edge is absent
        bad.push(b.xor(has, edge));
        let words: Vec<Vec<Bit>> = inc.iter().map(|&(_, u)| depth[u].clone()).collect();
        let d = select(b, &sel[v], &words, width);
        let d1 = b.increment(&d, Bit::Const(true));
        let diff = b.xor_w(&d1, &depth[v]);
        for x in diff {
            bad.push(b.and(has, x));
        }
    }
    for (e, &(u, v)) in g.edges.iter().enumerate() {
        let pu = g.inc[u].iter().position(|&(f, _)| f == e).unwrap();
        let pv = g.inc[v].iter().position(|&(f, _)| f == e).unwrap();
        let one = b.xor(sel[u][pu], sel[v][pv]);
        let none = b.not(one);
        bad.push(b.and(present[e], none));
    }
    bad
}

/// The number of label bits [`forest`] reads.
pub fn forest_bits(g: &Graph) -> usize {
    let width = counter_bits(g.n);
    (0..g.n)
        .map(|v| index_bits(g.inc[v].len() + 1) + width)
        .sum()
}

/// [`forest`]'s labels for the present edges, or `None` when they contain a cycle.
pub fn forest_witness(g: &Graph, present: &[bool]) -> Option<Vec<bool>> {
    let width = counter_bits(g.n);
    let mut parent = vec![None; g.n];
    let mut depth = vec![usize::MAX; g.n];
    for r in 0..g.n {
        if depth[r] != usize::MAX {
            continue;
        }
        let (p, d) = bfs(g, present, &[r]);
        for v in 0..g.n {
            if d[v] != usize::MAX {
                depth[v] = d[v];
                parent[v] = p[v];
            }
        }
    }
    // a forest has exactly (vertices − components) edges: the BFS trees use all of them
    let used = parent.iter().filter(|p| p.is_some()).count();
    if used != present.iter().filter(|&&p| p).count() {
        return None;
    }
    let mut w = Vec::new();
    for v in 0..g.n {
        let d = g.inc[v].len();
        push(&mut w, parent[v].unwrap_or(d), index_bits(d + 1));
        push(&mut w, depth[v], width);
    }
    Some(w)
}

/// `idx` selects one of `items` (equal-width words) by a binary tree of multiplexers, index
/// bit 0 at the leaves: `(⌈items⌉₂ − 1) · width` ANDs at most. Every index value selects a
/// real item: past the last one (`idx ≥ items.len()`) the tree repeats the last item, whose
/// multiplexers are free.
pub fn tree_select(b: &mut Builder, idx: &[Bit], items: &[Vec<Bit>]) -> Vec<Bit> {
    assert!(!items.is_empty() && items.len() <= 1 << idx.len());
    let mut level: Vec<Vec<Bit>> = items.to_vec();
    for &s in idx {
        let last = level.last().unwrap().clone();
        if level.len() % 2 == 1 {
            level.push(last);
        }
        level = level
            .chunks(2)
            .map(|p| {
                p[0].iter()
                    .zip(&p[1])
                    .map(|(&x, &y)| b.mux(s, y, x))
                    .collect()
            })
            .collect();
    }
    level.swap_remove(0)
}

/// The degree rule of [`one_loop`]: violation bits that are all 0 iff 0 or 2 of `bits` are
/// set, and `on`, which is then 1 iff 2 are. The parity is linear; with an even count, "2"
/// means that one of the first `d − 1` bits is set, and for `d = 4` the count 4 is refused.
/// For `d ≥ 5` (dots of degree 5 and more, on grids other than squares) the count is a
/// population count of `⌈log2(d + 1)⌉` bits, exact for every count up to `d`: an even count
/// with every bit above the lowest two 0 is 0 or 2, and `on` is its bit of weight 2. Any
/// degree is handled; none is assumed.
fn degree_0_or_2(b: &mut Builder, bits: &[Bit]) -> (Bit, Vec<Bit>) {
    let d = bits.len();
    if d == 0 {
        return (Bit::Const(false), Vec::new());
    }
    let mut parity = Bit::Const(false);
    for &x in bits {
        parity = b.xor(parity, x);
    }
    let mut bad = vec![parity];
    if d >= 5 {
        let count = b.popcount(bits, index_bits(d + 1));
        bad.extend_from_slice(&count[2..]);
        return (count[1], bad);
    }
    let mut on = Bit::Const(false);
    for &x in &bits[..d - 1] {
        on = b.or(on, x);
    }
    if d == 4 {
        let a = b.and(bits[0], bits[1]);
        let c = b.and(bits[2], bits[3]);
        bad.push(b.and(a, c));
    }
    (on, bad)
}

/// The position width of [`one_loop`]: a cycle the certificate must exclude misses at least
/// one vertex, so it has at most `n − 1` pointers, and `2^b > n − 1`; at least 2 bits, so
/// that two vertices naming each other (2 pointers) are excluded too.
pub fn loop_counter_bits(n: usize) -> usize {
    counter_bits(n.saturating_sub(1)).max(2)
}

/// **Exactly one loop: the present edges form one cycle (and isolated vertices).**
///
/// Without `root`, the loop is anywhere; with `Some(root)`, the loop must pass through
/// `root`, a public vertex (cheaper: a game that knows a vertex every solution's loop visits
/// uses it), and the candidate graph must be connected.
///
/// Checks without labels: every vertex has 0 or 2 present edges (a vertex with 2 is *on
/// the loop*). Labels of every vertex but `root`, in vertex order: a position of
/// `b = `[`loop_counter_bits`]`(n)` bits then a predecessor, the index of one of its
/// incident candidate edges ([`index_bits`] of its degree; an index past the last edge names
/// the last). The predecessor's edge bit and position are selected by a tree of
/// multiplexers. Checks:
/// - on a vertex on the loop, its predecessor edge is present;
/// - `position(v) = position(pred) + 1 (mod 2^b)`: with a root, for every vertex but the
///   root (whose position is the constant 0); without, for every vertex on the loop but the
///   *first* (the lowest-numbered vertex on the loop, found by a running OR of `on` in
///   vertex order: one AND per vertex, no label);
/// - with a root, the root is on the loop; without, some vertex is.
///
/// *Sound*: with degrees 0 and 2 the present edges are disjoint cycles. Take a cycle `C`
/// that avoids the exempt vertex (the root, or the first vertex on the loop). Every vertex
/// of `C` is on the loop and checked, and its predecessor edge is present, so the
/// predecessor is on `C` too: following predecessors from a vertex of `C` stays in `C` and
/// closes a cycle of `L` pointers (going round, `L = |C|`, or back and forth over one edge,
/// `L = 2`), each adding 1, so `L ≡ 0 (mod 2^b)`; but `2 ≤ L ≤ n − 1 < 2^b`. So every
/// cycle contains the exempt vertex, which lies on one cycle only (degree 2), and there is
/// one (the exempt vertex is on the loop). Vertices off the loop add checks, never
/// acceptance. *Complete*: number the loop's vertices `0, 1, …` from the exempt one along
/// the loop, each one's predecessor the one before. Off the loop, without a root, labels
/// are unchecked (zeros); with a root, a breadth-first search from the loop over the
/// candidate edges gives each vertex a neighbour found before it as predecessor and that
/// position plus 1 (modulo `2^b`), which needs the graph connected.
///
/// Cost per vertex of degree 4 with `b` = 7: 5 ANDs for the degree, 24 for the
/// multiplexers (edge bit and position), 1 for the edge check, `b − 2` for the increment;
/// without a root 1 more for the running OR and `b` to exempt the first vertex.
pub fn one_loop(
    b: &mut Builder,
    g: &Graph,
    present: &[Bit],
    root: Option<usize>,
    at: &mut usize,
) -> Vec<Bit> {
    assert_eq!(present.len(), g.edges.len());
    if let Some(r) = root {
        assert!(
            r < g.n && is_connected(g),
            "one_loop through a root needs a connected graph"
        );
    }
    let width = loop_counter_bits(g.n);
    let mut idx = vec![Vec::new(); g.n];
    let mut pos = vec![vec![Bit::Const(false); width]; g.n];
    for v in (0..g.n).filter(|&v| Some(v) != root) {
        pos[v] = inputs(b, at, width);
        idx[v] = inputs(b, at, index_bits(g.inc[v].len()));
    }
    let mut bad = Vec::new();
    let mut seen = Bit::Const(false);
    for v in 0..g.n {
        let inc = &g.inc[v];
        let bits: Vec<Bit> = inc.iter().map(|&(e, _)| present[e]).collect();
        let (on, deg_bad) = degree_0_or_2(b, &bits);
        bad.extend(deg_bad);
        if Some(v) == root {
            bad.push(b.not(on));
            continue;
        }
        // without a root: checked when on the loop and a vertex before is on it
        let need = match root {
            Some(_) => Bit::Const(true),
            None => {
                let need = b.and(on, seen);
                let x = b.xor(seen, on);
                seen = b.xor(x, need);
                need
            }
        };
        if inc.is_empty() {
            // an isolated vertex is never on the loop; with a root the graph is connected
            continue;
        }
        let items: Vec<Vec<Bit>> = inc
            .iter()
            .map(|&(e, u)| {
                let mut it = vec![present[e]];
                it.extend_from_slice(&pos[u]);
                it
            })
            .collect();
        let sel = tree_select(b, &idx[v], &items);
        let missing = b.not(sel[0]);
        bad.push(b.and(on, missing));
        let p1 = b.increment(&sel[1..], Bit::Const(true));
        for x in b.xor_w(&p1, &pos[v]) {
            bad.push(b.and(need, x));
        }
    }
    if root.is_none() {
        bad.push(b.not(seen));
    }
    bad
}

fn is_connected(g: &Graph) -> bool {
    if g.n == 0 {
        return true;
    }
    let (_, depth) = bfs(g, &vec![true; g.edges.len()], &[0]);
    depth.iter().all(|&d| d != usize::MAX)
}

/// The number of label bits [`one_loop`] reads.
pub fn one_loop_bits(g: &Graph, root: Option<usize>) -> usize {
    let width = loop_counter_bits(g.n);
    (0..g.n)
        .filter(|&v| Some(v) != root)
        .map(|v| width + index_bits(g.inc[v].len()))
        .sum()
}

/// [`one_loop`]'s labels for the present edges, or `None` unless they form exactly one
/// cycle (through `root`, if given).
pub fn one_loop_witness(g: &Graph, present: &[bool], root: Option<usize>) -> Option<Vec<bool>> {
    let width = loop_counter_bits(g.n);
    let modulus = 1usize << width;
    let deg: Vec<usize> = (0..g.n)
        .map(|v| g.inc[v].iter().filter(|&&(e, _)| present[e]).count())
        .collect();
    if deg.iter().any(|&d| d != 0 && d != 2) {
        return None;
    }
    let start = match root {
        Some(r) if deg[r] == 2 => r,
        Some(_) => return None,
        None => (0..g.n).find(|&v| deg[v] == 2)?,
    };
    let mut position = vec![usize::MAX; g.n];
    let mut pred = vec![0usize; g.n];
    let (mut prev, mut cur, mut k) = (usize::MAX, start, 0usize);
    loop {
        position[cur] = k % modulus;
        let &(_, next) = g.inc[cur]
            .iter()
            .find(|&&(e, u)| present[e] && u != prev)
            .or_else(|| g.inc[cur].iter().find(|&&(e, _)| present[e]))
            .expect("degree 2");
        if prev != usize::MAX {
            pred[cur] = g.inc[cur]
                .iter()
                .position(|&(f, u)| u == prev && present[f])
                .unwrap();
        }
        k += 1;
        if next == start {
            // the first vertex's predecessor is the last (its position is not checked)
            pred[start] = g.inc[start]
                .iter()
                .rposition(|&(f, u)| u == cur && present[f])
                .unwrap();
            break;
        }
        prev = cur;
        cur = next;
    }
    // every loop vertex must have been visited: one cycle
    if deg.iter().filter(|&&d| d == 2).count() != k {
        return None;
    }
    if root.is_some() {
        // off the loop: breadth-first from the loop over every candidate edge
        let mut queue: std::collections::VecDeque<usize> =
            (0..g.n).filter(|&v| position[v] != usize::MAX).collect();
        while let Some(v) = queue.pop_front() {
            for &(_, u) in &g.inc[v] {
                if position[u] == usize::MAX {
                    position[u] = (position[v] + 1) % modulus;
                    pred[u] = g.inc[u].iter().position(|&(_, x)| x == v).unwrap();
                    queue.push_back(u);
                }
            }
        }
    }
    let mut w = Vec::new();
    for v in (0..g.n).filter(|&v| Some(v) != root) {
        let p = if position[v] == usize::MAX {
            0
        } else {
            position[v]
        };
        push(&mut w, p, width);
        push(&mut w, pred[v], index_bits(g.inc[v].len()));
    }
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::{Circuit, Gate};

    /// Evaluates `c` on 64 inputs at once: `inputs[i]` holds input bit `i` of each lane.
    /// Returns, per lane, whether every output is 0.
    fn accepts64(c: &Circuit, inputs: &[u64]) -> u64 {
        accepts64_into(c, inputs, &mut Vec::new())
    }

    /// [`accepts64`] with the wire values in `w` (reused across calls).
    fn accepts64_into(c: &Circuit, inputs: &[u64], w: &mut Vec<u64>) -> u64 {
        w.clear();
        w.extend_from_slice(inputs);
        w.reserve(c.gates().len());
        for g in c.gates() {
            let v = match *g {
                Gate::Xor(a, b) => w[a as usize] ^ w[b as usize],
                Gate::And(a, b) => w[a as usize] & w[b as usize],
                Gate::Not(a) => !w[a as usize],
                Gate::Inv(..) => unreachable!(),
            };
            w.push(v);
        }
        let mut ok = u64::MAX;
        for o in c.outputs() {
            ok &= match *o {
                Bit::Const(false) => u64::MAX,
                Bit::Const(true) => 0,
                Bit::Wire(x) => !w[x as usize],
            };
        }
        ok
    }

    /// The circuit with the edge bits as its first inputs, then the gadget's labels.
    fn build(
        g: &Graph,
        labels: usize,
        gadget: impl Fn(&mut Builder, &Graph, &[Bit], &mut usize) -> Vec<Bit>,
    ) -> Circuit {
        let m = g.edges().len();
        let mut b = Builder::new(m + labels);
        let present: Vec<Bit> = (0..m).map(|i| b.input(i)).collect();
        let mut at = m;
        let bad = gadget(&mut b, g, &present, &mut at);
        assert_eq!(at, m + labels);
        for x in bad {
            b.output(x);
        }
        b.finish()
    }

    /// Enumerates every assignment of edge bits and labels; returns, per edge subset,
    /// whether some labels are accepted. Checks the witness function on each subset too.
    fn exhaust(
        g: &Graph,
        c: &Circuit,
        property: impl Fn(&[bool]) -> bool,
        witness: impl Fn(&[bool]) -> Option<Vec<bool>>,
    ) {
        let n = c.n_inputs();
        let m = g.edges().len();
        assert!(n <= 30, "{n} inputs: too many to enumerate");
        let total: u64 = 1 << n;
        let mut accepted = vec![false; 1 << m];
        let mut lanes = vec![0u64; n];
        let mut base = 0u64;
        while base < total {
            // lane k is assignment base + k (base is a multiple of 64): input bits 0–5
            // follow k, the higher ones are base's
            for (i, l) in lanes.iter_mut().enumerate() {
                *l = if i < 6 {
                    (0..64u64)
                        .filter(|k| (k >> i) & 1 == 1)
                        .fold(0, |m, k| m | 1 << k)
                } else if (base >> i) & 1 == 1 {
                    u64::MAX
                } else {
                    0
                };
            }
            let ok = accepts64(c, &lanes);
            for k in 0..64u64 {
                let a = base + k;
                if a < total && (ok >> k) & 1 == 1 {
                    accepted[(a & ((1 << m) - 1)) as usize] = true;
                }
            }
            base += 64;
        }
        for (s, &acc) in accepted.iter().enumerate() {
            let present: Vec<bool> = (0..m).map(|e| (s >> e) & 1 == 1).collect();
            assert_eq!(acc, property(&present), "edge set {present:?}");
            let w = witness(&present);
            assert_eq!(w.is_some(), property(&present), "witness for {present:?}");
            if let Some(w) = w {
                let mut input = present.clone();
                input.extend(w);
                assert!(c.eval(&input).iter().all(|&x| !x), "witness rejected");
            }
        }
    }

    fn components(g: &Graph, present: &[bool]) -> usize {
        let mut seen = vec![false; g.n()];
        let mut k = 0;
        for s in 0..g.n() {
            if seen[s] {
                continue;
            }
            k += 1;
            let mut stack = vec![s];
            seen[s] = true;
            while let Some(v) = stack.pop() {
                for &(e, u) in g.incident(v) {
                    if present[e] && !seen[u] {
                        seen[u] = true;
                        stack.push(u);
                    }
                }
            }
        }
        k
    }

    fn count(p: &[bool]) -> usize {
        p.iter().filter(|&&x| x).count()
    }

    fn connected(g: &Graph, p: &[bool]) -> bool {
        components(g, p) == 1
    }
    fn acyclic(g: &Graph, p: &[bool]) -> bool {
        count(p) + components(g, p) == g.n()
    }
    fn one_cycle(g: &Graph, p: &[bool]) -> bool {
        let deg_ok = (0..g.n()).all(|v| {
            let d = g.incident(v).iter().filter(|&&(e, _)| p[e]).count();
            d == 0 || d == 2
        });
        // with degrees 0/2, the loop vertices form cycles: one cycle iff the non-isolated
        // vertices form one component
        let isolated = (0..g.n())
            .filter(|&v| g.incident(v).iter().all(|&(e, _)| !p[e]))
            .count();
        deg_ok && count(p) > 0 && components(g, p) == isolated + 1
    }

    fn graphs() -> Vec<Graph> {
        vec![
            Graph::new(2, vec![(0, 1)]),
            Graph::new(3, vec![(0, 1), (1, 2)]),
            Graph::new(3, vec![(0, 1), (1, 2), (0, 2)]),
            Graph::new(4, vec![(0, 1), (1, 2), (2, 3), (3, 0)]),
            Graph::new(4, vec![(0, 1), (1, 2), (2, 0), (2, 3)]),
            Graph::new(4, vec![(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]),
            Graph::new(3, vec![(0, 1)]),
        ]
    }

    #[test]
    fn index_decoding_is_one_hot() {
        for w in 0..4 {
            for d in 1..=(1usize << w) {
                let mut b = Builder::new(w);
                let idx = b.input_word(0, w);
                let sel = decode_index(&mut b, &idx, d);
                assert_eq!(b.and_count(), (1usize << w) - w - 1);
                for s in &sel {
                    b.output(*s);
                }
                let c = b.finish();
                for v in 0..(1usize << w) {
                    let input: Vec<bool> = (0..w).map(|i| (v >> i) & 1 == 1).collect();
                    let out = c.eval(&input);
                    let want: Vec<bool> = (0..d).map(|k| k == v).collect();
                    assert_eq!(out, want);
                }
            }
        }
    }

    #[test]
    fn spanning_tree_exhaustive() {
        for g in graphs() {
            for root in 0..g.n() {
                let c = build(&g, spanning_tree_bits(&g, root), |b, g, p, at| {
                    spanning_tree(b, g, p, root, at)
                });
                exhaust(
                    &g,
                    &c,
                    |p| connected(&g, p),
                    |p| spanning_tree_witness(&g, p, root),
                );
            }
        }
    }

    /// Whether the vertices of `inside` induce a connected subgraph (the empty set does).
    fn induced_connected(g: &Graph, inside: &[bool]) -> bool {
        let Some(r) = (0..g.n()).find(|&v| inside[v]) else {
            return true;
        };
        let mut seen = vec![false; g.n()];
        let mut stack = vec![r];
        seen[r] = true;
        while let Some(v) = stack.pop() {
            for &(_, u) in g.incident(v) {
                if inside[u] && !seen[u] {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        (0..g.n()).all(|v| !inside[v] || seen[v])
    }

    /// Every subset of the vertices and every label assignment: lane `k` of 64 is subset
    /// `k mod 2^n` (at most 6 vertices), the labels run over all their values.
    fn exhaust_subsets(g: &Graph) {
        let n = g.n();
        assert!(n <= 6);
        let labels = connected_subset_bits(g);
        assert!(labels <= 26, "{labels} label bits: too many to enumerate");
        let mut b = Builder::new(n + labels);
        let inside: Vec<Bit> = (0..n).map(|i| b.input(i)).collect();
        let mut at = n;
        for x in connected_subset(&mut b, g, &inside, &mut at) {
            b.output(x);
        }
        assert_eq!(at, n + labels);
        let c = b.finish();
        let mut lanes = vec![0u64; n + labels];
        for (i, l) in lanes.iter_mut().enumerate().take(n) {
            *l = (0..64u64)
                .filter(|k| (k >> i) & 1 == 1)
                .fold(0, |m, k| m | 1 << k);
        }
        // the label values split between two threads (the 2×3 grid has 2^26 of them)
        let half = 1u64 << labels.saturating_sub(1);
        let accepted = std::thread::scope(|sc| {
            let parts: Vec<_> = [0, half]
                .into_iter()
                .filter(|&lo| lo < 1 << labels)
                .map(|lo| {
                    let (c, mut lanes) = (&c, lanes.clone());
                    sc.spawn(move || {
                        let mut acc = 0u64;
                        let mut buf = Vec::new();
                        for a in lo..(lo + half).min(1 << labels) {
                            for i in 0..labels {
                                lanes[n + i] = if (a >> i) & 1 == 1 { u64::MAX } else { 0 };
                            }
                            acc |= accepts64_into(c, &lanes, &mut buf);
                        }
                        acc
                    })
                })
                .collect();
            parts.into_iter().fold(0, |m, p| m | p.join().unwrap())
        });
        let mut refused = 0;
        for s in 0..1usize << n {
            let set: Vec<bool> = (0..n).map(|v| (s >> v) & 1 == 1).collect();
            let truth = induced_connected(g, &set);
            assert_eq!((accepted >> s) & 1 == 1, truth, "{g:?} subset {set:?}");
            refused += usize::from(!truth);
            let w = connected_subset_witness(g, &set);
            assert_eq!(w.is_some(), truth, "witness for {set:?}");
            if let Some(w) = w {
                let mut input = set.clone();
                input.extend(w);
                assert!(c.eval(&input).iter().all(|&x| !x), "witness rejected");
            }
        }
        // a graph with a disconnected subset: the comparison can fail both ways
        assert!(refused > 0 || n <= 2 || g.edges().len() == n * (n - 1) / 2);
    }

    #[test]
    fn connected_subset_exhaustive() {
        let path = |n: usize| Graph::new(n, (1..n).map(|v| (v - 1, v)).collect());
        let cycle = |n: usize| Graph::new(n, (0..n).map(|v| (v, (v + 1) % n)).collect());
        // 2×3 grid in reading order: 0 1 2 / 3 4 5
        let grid = Graph::new(
            6,
            vec![(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)],
        );
        let graphs = [
            Graph::new(1, vec![]),
            path(2),
            path(3),
            path(4),
            cycle(3),
            cycle(4),
            cycle(5),
            grid,
            // two components: a path of three and an edge
            Graph::new(5, vec![(0, 1), (1, 2), (3, 4)]),
            // a path of three and an isolated vertex
            Graph::new(4, vec![(0, 1), (1, 2)]),
            // K4 (every parent index of two bits names a real edge)
            Graph::new(4, vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
        ];
        for g in &graphs {
            exhaust_subsets(g);
        }
    }

    #[test]
    fn forest_exhaustive() {
        for g in graphs() {
            if forest_bits(&g) + g.edges().len() > 26 {
                continue;
            }
            let c = build(&g, forest_bits(&g), forest);
            exhaust(&g, &c, |p| acyclic(&g, p), |p| forest_witness(&g, p));
        }
    }

    fn one_cycle_through(g: &Graph, p: &[bool], root: usize) -> bool {
        one_cycle(g, p) && g.incident(root).iter().any(|&(e, _)| p[e])
    }

    /// The loop gadget's graphs: those above, a bowtie (a vertex of degree 4 whose two
    /// triangles are two loops, or one figure eight) and K4 (every vertex of degree 3).
    fn loop_graphs() -> Vec<Graph> {
        let mut gs = graphs();
        gs.push(Graph::new(
            5,
            vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)],
        ));
        gs.push(Graph::new(
            4,
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
        ));
        gs
    }

    #[test]
    fn one_loop_exhaustive() {
        let mut tried = 0;
        for g in loop_graphs() {
            if one_loop_bits(&g, None) + g.edges().len() > 27 {
                continue;
            }
            tried += 1;
            let c = build(&g, one_loop_bits(&g, None), |b, g, p, at| {
                one_loop(b, g, p, None, at)
            });
            exhaust(
                &g,
                &c,
                |p| one_cycle(&g, p),
                |p| one_loop_witness(&g, p, None),
            );
        }
        assert_eq!(tried, 9);
    }

    #[test]
    fn one_loop_through_a_root_exhaustive() {
        let mut tried = 0;
        for g in loop_graphs() {
            if !is_connected(&g) {
                continue;
            }
            for root in 0..g.n() {
                let labels = one_loop_bits(&g, Some(root));
                assert!(labels + g.edges().len() <= 27);
                tried += 1;
                let c = build(&g, labels, |b, g, p, at| one_loop(b, g, p, Some(root), at));
                exhaust(
                    &g,
                    &c,
                    |p| one_cycle_through(&g, p, root),
                    |p| one_loop_witness(&g, p, Some(root)),
                );
            }
        }
        assert_eq!(tried, 2 + 3 + 3 + 4 + 4 + 4 + 5 + 4);
    }

    /// Dots of degree 5 and 6, as on kites and floret grids: a hub joined to every other
    /// vertex, some of whose neighbours are joined in pairs (triangles through the hub) and
    /// the others leaves; the roots whose labels keep the enumeration within 2^27 inputs.
    /// Degree 5: six vertices, two triangles and a leaf; degree 6: seven vertices, one
    /// triangle and four leaves.
    #[test]
    fn one_loop_through_a_hub_of_degree_5_and_6() {
        let mut tried = 0;
        for (n, pairs) in [(6, vec![(1, 2), (3, 4)]), (7, vec![(1, 2)])] {
            let mut edges: Vec<(usize, usize)> = (1..n).map(|v| (0, v)).collect();
            edges.extend(pairs);
            let g = Graph::new(n, edges);
            assert_eq!(g.incident(0).len(), n - 1);
            for root in 0..n {
                let labels = one_loop_bits(&g, Some(root));
                if labels + g.edges().len() > 27 {
                    continue;
                }
                tried += 1;
                let c = build(&g, labels, |b, g, p, at| one_loop(b, g, p, Some(root), at));
                exhaust(
                    &g,
                    &c,
                    |p| one_cycle_through(&g, p, root),
                    |p| one_loop_witness(&g, p, Some(root)),
                );
            }
        }
        // the hub as the root in both graphs (its own labels are the widest, so rooting
        // there keeps the enumeration small)
        assert_eq!(tried, 2);
    }

    #[test]
    fn tree_selection_names_a_real_item() {
        for d in 1..=5usize {
            let w = index_bits(d);
            let mut b = Builder::new(w);
            let idx = b.input_word(0, w);
            let items: Vec<Vec<Bit>> = (0..d).map(|k| b.const_word(k as u64 + 1, 3)).collect();
            for x in tree_select(&mut b, &idx, &items) {
                b.output(x);
            }
            let c = b.finish();
            for v in 0..(1usize << w) {
                let input: Vec<bool> = (0..w).map(|i| (v >> i) & 1 == 1).collect();
                let out = c.eval(&input);
                let got = (0..3).filter(|&i| out[i]).map(|i| 1 << i).sum::<usize>();
                assert_eq!(got, v.min(d - 1) + 1, "{d} items, index {v}");
            }
        }
    }

    #[test]
    fn degree_rule() {
        // squares' dots have degree 2 to 4, other grids' up to 6 and more
        for d in 0..=12usize {
            let mut b = Builder::new(d);
            let bits = b.input_word(0, d);
            let (on, bad) = degree_0_or_2(&mut b, &bits);
            b.output(on);
            for x in bad {
                b.output(x);
            }
            let c = b.finish();
            for v in 0..(1usize << d) {
                let input: Vec<bool> = (0..d).map(|i| (v >> i) & 1 == 1).collect();
                let out = c.eval(&input);
                let ones = v.count_ones();
                let ok = out[1..].iter().all(|&x| !x);
                assert_eq!(ok, ones == 0 || ones == 2, "{d} bits {v:b}");
                if ok {
                    assert_eq!(out[0], ones == 2);
                }
            }
        }
    }

    /// The position width is what excludes a second loop: two squares joined by an edge,
    /// rooted on the first, `b = 3` (a square's 4 pointers are not 0 modulo 8; with 2 bits
    /// they would be). Both squares drawn: refused under every labelling; the root's square
    /// alone: accepted. (Every label assignment, edges fixed.)
    #[test]
    fn one_loop_width_refuses_a_second_square() {
        let g = Graph::new(
            8,
            vec![
                (0, 1),
                (1, 2),
                (2, 3),
                (3, 0),
                (4, 5),
                (5, 6),
                (6, 7),
                (7, 4),
                (0, 4),
            ],
        );
        assert_eq!(loop_counter_bits(g.n()), 3);
        let labels = one_loop_bits(&g, Some(0));
        assert_eq!(labels, 29);
        let c = build(&g, labels, |b, g, p, at| one_loop(b, g, p, Some(0), at));
        for drawn in [0b0_1111_1111u64, 0b0_0000_1111] {
            let mut any = false;
            let mut lanes = vec![0u64; c.n_inputs()];
            for (e, lane) in lanes.iter_mut().enumerate().take(9) {
                *lane = if (drawn >> e) & 1 == 1 { u64::MAX } else { 0 };
            }
            for (i, lane) in lanes[9..15].iter_mut().enumerate() {
                *lane = (0..64u64)
                    .filter(|k| (k >> i) & 1 == 1)
                    .fold(0, |m, k| m | 1 << k);
            }
            for high in 0u64..1 << (labels - 6) {
                for (i, lane) in lanes[15..].iter_mut().enumerate() {
                    *lane = if (high >> i) & 1 == 1 { u64::MAX } else { 0 };
                }
                if accepts64(&c, &lanes) != 0 {
                    any = true;
                    break;
                }
            }
            assert_eq!(any, drawn == 0b0_0000_1111, "{drawn:b}");
        }
    }

    /// Two triangles, all six edges drawn: two loops, refused under every labelling; one
    /// triangle drawn: accepted. (Every label assignment, edges fixed.)
    #[test]
    fn one_loop_refuses_two_loops() {
        let g = Graph::new(6, vec![(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]);
        let c = build(&g, one_loop_bits(&g, None), |b, g, p, at| {
            one_loop(b, g, p, None, at)
        });
        let labels = one_loop_bits(&g, None);
        assert!(labels <= 24);
        for drawn in [0b111111u64, 0b000111] {
            let mut any = false;
            let mut base = 0u64;
            while base < 1 << labels {
                let mut lanes = vec![0u64; c.n_inputs()];
                for (e, lane) in lanes.iter_mut().enumerate().take(6) {
                    *lane = if (drawn >> e) & 1 == 1 { u64::MAX } else { 0 };
                }
                for i in 0..labels {
                    for k in 0..64u64 {
                        if ((base + k) >> i) & 1 == 1 {
                            lanes[6 + i] |= 1 << k;
                        }
                    }
                }
                any |= accepts64(&c, &lanes) != 0;
                base += 64;
            }
            assert_eq!(any, drawn == 0b000111);
        }
    }
}
