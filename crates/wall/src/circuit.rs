//! The sealed-move circuit: "this hidden move is legal in this public position", as a
//! boolean circuit for the MPC engines, with the cut oracle's tables as public constants.
//!
//! The position is public, so everything that depends only on it is computed in the clear
//! and baked into the circuit: where each of the mover's pieces can go (and in how many
//! steps), which free slots a single wall may not take after each reachable pawn placement
//! (the oracle's indelible table), and each attached pair's double-cut tables. A hidden
//! wall's legality is then a *selection* from public tables by a one-hot vector, which is
//! linear and costs no AND gate, plus a few comparisons. The flood fill a naive circuit would
//! run over hidden walls is never needed.
//!
//! # Witness (all one-hot; index `m` of a wall vector means "no wall")
//!
//! | bits | meaning |
//! |---|---|
//! | `nc` | the mover's cat destination, among [`MoveCircuit::cat_targets`] (its own cell, step count 0, included) |
//! | `nm` | the mover's mouse destination, among [`MoveCircuit::mouse_targets`] (just its cell when it cannot move) |
//! | `m + 1` | first wall: a free slot (edge id) or none |
//! | `m + 1` | second wall: a free slot with a larger edge id than the first, or none |
//!
//! # What the circuit checks (every output bit is an error flag; legal ⇔ all zero)
//!
//! 1. Each vector is one-hot.
//! 2. Actions: cat steps + mouse steps + walls ≤ 2.
//! 3. Walls in canonical order: a second wall only after a first, with a larger edge id
//!    (so the two are distinct).
//! 4. One wall: not indelible in the grid after the pawn steps. With one wall at most one pawn
//!    step is possible, so only the placements "nobody moved", "the cat moved one cell" and
//!    "the mouse moved one cell" have tables; a step across a slot followed by a wall on it
//!    is judged in the grid after the step, as the rules require.
//! 5. Two walls (then no pawn moved): the second is not indelible, and for every attached
//!    pair the two do not cut together: by the double-cut oracle, red candidate `i` and blue
//!    candidate `j` cut iff `lo_i ≤ j < hi_i`; "no wall" reads as blue index all-ones and an
//!    empty red interval, so the check needs no gating. The first wall's own legality is
//!    step 4 for the "nobody moved" placement; a pair containing an `st`-bridge is caught
//!    there or by the second wall's indelible flag. Order does not matter for legality:
//!    if the first wall alone cut, both together would too.

use crate::cut::double::{CLASS_BLUE, CLASS_RED};
use crate::graph::Graph;
use crate::moves::{BuildError, MoveOracle};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// The most actions (steps and walls) in one move.
pub const MAX_ACTIONS: u8 = 2;

/// A cell a piece can end on, and the steps that takes (its own cell: 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub node: u32,
    pub steps: u8,
}

/// A move as the circuit sees it: the pieces' destinations and the walls' edge ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenMove {
    pub cat: u32,
    pub mouse: u32,
    pub walls: Vec<u32>,
}

/// The attached pairs after the mover's cat and mouse have moved (the mouse is `None` when
/// the mover has no mouse that moves, e.g. classic homes).
pub type PairsAfter<'a> = dyn Fn(u32, Option<u32>) -> Vec<(u32, u32)> + 'a;

/// The circuit for one public position and mover, with what is needed to encode witnesses.
#[derive(Clone, Debug)]
pub struct MoveCircuit {
    m: usize,
    cat: Vec<Target>,
    mouse: Vec<Target>,
    circuit: Circuit,
}

/// Cells within [`MAX_ACTIONS`] steps of `start`, with their distance, sorted by node.
pub fn targets(g: &Graph, start: u32) -> Vec<Target> {
    let mut out = vec![Target {
        node: start,
        steps: 0,
    }];
    let mut frontier = vec![start];
    for d in 1..=MAX_ACTIONS {
        let mut next = Vec::new();
        for &v in &frontier {
            for &(w, _) in g.neighbors(v) {
                if !out.iter().any(|t| t.node == w) {
                    out.push(Target { node: w, steps: d });
                    next.push(w);
                }
            }
        }
        frontier = next;
    }
    out.sort_by_key(|t| t.node);
    out
}

fn oracle(g: &Graph, pairs: &[(u32, u32)]) -> Result<MoveOracle> {
    MoveOracle::build(g, pairs).map_err(|BuildError::Disconnected(p)| {
        Error::bad(format!(
            "the position is not valid: {} attached pair(s) already disconnected",
            p.len()
        ))
    })
}

/// Bits needed so that all-ones is at least `n`.
fn width_for(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()).max(1) as usize
}

fn word(v: u64, k: usize) -> Vec<bool> {
    (0..k).map(|j| v >> j & 1 == 1).collect()
}

impl MoveCircuit {
    /// Builds the circuit for graph `g` (one edge per free slot), the mover's cat at `cat`,
    /// its mouse at `mouse` (`None`: it has none that moves), and the attached pairs after
    /// any placement of those two pieces.
    pub fn new(g: &Graph, cat: u32, mouse: Option<u32>, pairs_after: &PairsAfter) -> Result<Self> {
        let m = g.m();
        let cat_t = targets(g, cat);
        let mouse_t = match mouse {
            Some(v) => targets(g, v),
            None => vec![Target {
                node: u32::MAX,
                steps: 0,
            }],
        };
        let (nc, nm) = (cat_t.len(), mouse_t.len());
        let stay_c = cat_t.iter().position(|t| t.steps == 0).expect("start");
        let stay_m = mouse_t.iter().position(|t| t.steps == 0).expect("start");

        let mut b = Builder::new(nc + nm + 2 * (m + 1));
        let onehot = |b: &Builder, start: usize, n: usize| -> Vec<Bit> {
            (start..start + n).map(|i| b.input(i)).collect()
        };
        let c = onehot(&b, 0, nc);
        let mo = onehot(&b, nc, nm);
        let w1 = onehot(&b, nc + nm, m + 1);
        let w2 = onehot(&b, nc + nm + m + 1, m + 1);
        let mut errs: Vec<Bit> = Vec::new();

        // 1. one-hot vectors
        for v in [&c, &mo, &w1, &w2] {
            let (e, parity) = b.one_hot_check(v);
            errs.extend(e);
            let np = b.not(parity);
            errs.push(np);
        }

        // 2. at most two actions
        let flags = |ts: &[Target], k: u8| -> Vec<Vec<bool>> {
            ts.iter().map(|t| vec![t.steps >= k]).collect()
        };
        let c1 = b.select_public(&c, &flags(&cat_t, 1))[0];
        let c2 = b.select_public(&c, &flags(&cat_t, 2))[0];
        let m1 = b.select_public(&mo, &flags(&mouse_t, 1))[0];
        let m2 = b.select_public(&mo, &flags(&mouse_t, 2))[0];
        let w1p = b.not(w1[m]);
        let w2p = b.not(w2[m]);
        for (x, y) in [
            (c2, m1),
            (c2, w1p),
            (m2, c1),
            (m2, w1p),
            (w2p, c1),
            (w2p, m1),
        ] {
            errs.push(b.and(x, y));
        }
        let cm = b.and(c1, m1);
        errs.push(b.and(cm, w1p));

        // 3. canonical order: a second wall only after a first with a smaller edge id
        let k = width_for(m);
        let i1 = b.onehot_index(&w1, k);
        let i2 = b.onehot_index(&w2, k);
        let lt = b.less_than(&i1, &i2);
        let nlt = b.not(lt);
        errs.push(b.and(w2p, nlt));

        // 4. one wall, after each placement one wall can follow
        let bad_row = |o: &MoveOracle| -> Vec<Vec<bool>> {
            (0..=m as u32)
                .map(|e| vec![(e as usize) < m && !o.is_legal_single(e)])
                .collect()
        };
        let o0 = oracle(g, &pairs_after(cat, mouse))?;
        let bad0 = bad_row(&o0);
        let still = b.and(c[stay_c], mo[stay_m]);
        let x = b.select_public(&w1, &bad0)[0];
        errs.push(b.and(still, x));
        for (i, t) in cat_t.iter().enumerate().filter(|(_, t)| t.steps == 1) {
            let o = oracle(g, &pairs_after(t.node, mouse))?;
            let x = b.select_public(&w1, &bad_row(&o))[0];
            errs.push(b.and(c[i], x));
        }
        for (j, t) in mouse_t.iter().enumerate().filter(|(_, t)| t.steps == 1) {
            let o = oracle(g, &pairs_after(cat, Some(t.node)))?;
            let x = b.select_public(&w1, &bad_row(&o))[0];
            errs.push(b.and(mo[j], x));
        }

        // 5. two walls: the second not indelible, and no pair cut by both
        errs.push(b.select_public(&w2, &bad0)[0]);
        for pc in o0.pair_cuts() {
            let nb = pc.blue.len();
            if nb == 0 || pc.red.is_empty() {
                continue;
            }
            let k = width_for(nb);
            let none = (1u64 << k) - 1;
            let (mut lo, mut hi, mut blue) = (Vec::new(), Vec::new(), Vec::new());
            for e in 0..=m {
                let (l, h, bl) = match pc.class.get(e) {
                    Some(&CLASS_RED) => {
                        let i = pc.index[e] as usize;
                        (pc.red_lo[i] as u64, pc.red_hi[i] as u64, none)
                    }
                    Some(&CLASS_BLUE) => (0, 0, pc.index[e] as u64),
                    _ => (0, 0, none),
                };
                lo.push(word(l, k));
                hi.push(word(h, k));
                blue.push(word(bl, k));
            }
            for (red, other) in [(&w1, &w2), (&w2, &w1)] {
                let l = b.select_public(red, &lo);
                let h = b.select_public(red, &hi);
                let j = b.select_public(other, &blue);
                let below = b.less_than(&j, &l);
                let inside_hi = b.less_than(&j, &h);
                let not_below = b.not(below);
                errs.push(b.and(not_below, inside_hi));
            }
        }

        for e in errs {
            match e {
                Bit::Const(false) => {}
                Bit::Const(true) => unreachable!("a constant error flag: every move illegal"),
                w => b.output(w),
            }
        }
        Ok(MoveCircuit {
            m,
            cat: cat_t,
            mouse: mouse_t,
            circuit: b.finish(),
        })
    }

    /// The circuit; a witness is legal iff every output bit is 0.
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }

    /// The expected public output: all zeros.
    pub fn expected_output(&self) -> Vec<bool> {
        vec![false; self.circuit.n_outputs()]
    }

    /// Where the mover's cat can end, and in how many steps.
    pub fn cat_targets(&self) -> &[Target] {
        &self.cat
    }

    /// Where the mover's mouse can end (a single dummy target when it cannot move).
    pub fn mouse_targets(&self) -> &[Target] {
        &self.mouse
    }

    /// The witness bits of a move, or `None` when the move cannot even be expressed (a piece
    /// ending out of reach, a wall on a slot that is not free, more than two walls): such a
    /// move is illegal without any circuit. Walls may come in any order; they are sorted.
    /// A mover without a moving mouse passes `mouse = u32::MAX`.
    pub fn witness(&self, mv: &HiddenMove) -> Option<Vec<bool>> {
        let ci = self.cat.iter().position(|t| t.node == mv.cat)?;
        let mi = self.mouse.iter().position(|t| t.node == mv.mouse)?;
        if mv.walls.len() > MAX_ACTIONS as usize || mv.walls.iter().any(|&e| e as usize >= self.m) {
            return None;
        }
        let mut walls = mv.walls.clone();
        walls.sort_unstable();
        let (nc, nm, m) = (self.cat.len(), self.mouse.len(), self.m);
        let mut w = vec![false; nc + nm + 2 * (m + 1)];
        w[ci] = true;
        w[nc + mi] = true;
        let slot = |k: usize| walls.get(k).map_or(m, |&e| e as usize);
        w[nc + nm + slot(0)] = true;
        w[nc + nm + m + 1 + slot(1)] = true;
        Some(w)
    }

    /// The move a witness encodes (the inverse of [`MoveCircuit::witness`] on one-hot
    /// vectors); `None` if a vector is not one-hot.
    pub fn decode(&self, w: &[bool]) -> Option<HiddenMove> {
        let (nc, nm, m) = (self.cat.len(), self.mouse.len(), self.m);
        if w.len() != nc + nm + 2 * (m + 1) {
            return None;
        }
        let one = |v: &[bool]| -> Option<usize> {
            let mut it = v.iter().enumerate().filter(|(_, &x)| x).map(|(i, _)| i);
            let i = it.next()?;
            it.next().is_none().then_some(i)
        };
        let ci = one(&w[..nc])?;
        let mi = one(&w[nc..nc + nm])?;
        let a = one(&w[nc + nm..nc + nm + m + 1])?;
        let b2 = one(&w[nc + nm + m + 1..])?;
        let walls = [a, b2]
            .into_iter()
            .filter(|&e| e < m)
            .map(|e| e as u32)
            .collect();
        Some(HiddenMove {
            cat: self.cat[ci].node,
            mouse: self.mouse[mi].node,
            walls,
        })
    }

    /// Evaluates the circuit in the clear: whether the witness is a legal move.
    pub fn accepts(&self, w: &[bool]) -> bool {
        w.len() == self.circuit.n_inputs() && self.circuit.eval(w).iter().all(|&x| !x)
    }
}

/// The baseline the oracle tables replace: the same relation with connectivity decided
/// inside the circuit by flood fill over the hidden walls and hidden piece placements
/// (`n − 1` relaxation rounds per attached pair, after each wall). Same witness layout as
/// the [`MoveCircuit`] it is built from. Used by the benchmark to count AND gates (it is
/// not meant to be proven: on 8×8 it is hundreds of times larger) and by the tests, which
/// check that it decides the same relation.
///
/// `pairs` names each attached pair's ends as the mover's cat (`Mover::Cat`), the mover's
/// mouse (`Mover::Mouse`) or a fixed node.
pub fn flood_fill_circuit(mc: &MoveCircuit, g: &Graph, pairs: &[(End, End)]) -> Circuit {
    let (nc, nm, m, n) = (mc.cat.len(), mc.mouse.len(), mc.m, g.n());
    let mut b = Builder::new(nc + nm + 2 * (m + 1));
    let ins = |b: &Builder, s: usize, k: usize| (s..s + k).map(|i| b.input(i)).collect::<Vec<_>>();
    let (c, mo) = (ins(&b, 0, nc), ins(&b, nc, nm));
    let (w1, w2) = (ins(&b, nc + nm, m + 1), ins(&b, nc + nm + m + 1, m + 1));
    let mut errs = Vec::new();
    for v in [&c, &mo, &w1, &w2] {
        let (e, parity) = b.one_hot_check(v);
        errs.extend(e);
        let np = b.not(parity);
        errs.push(np);
    }
    let flags = |ts: &[Target], k: u8| ts.iter().map(|t| vec![t.steps >= k]).collect::<Vec<_>>();
    let c1 = b.select_public(&c, &flags(&mc.cat, 1))[0];
    let c2 = b.select_public(&c, &flags(&mc.cat, 2))[0];
    let m1 = b.select_public(&mo, &flags(&mc.mouse, 1))[0];
    let m2 = b.select_public(&mo, &flags(&mc.mouse, 2))[0];
    let (w1p, w2p) = (b.not(w1[m]), b.not(w2[m]));
    for (x, y) in [
        (c2, m1),
        (c2, w1p),
        (m2, c1),
        (m2, w1p),
        (w2p, c1),
        (w2p, m1),
    ] {
        errs.push(b.and(x, y));
    }
    let cm = b.and(c1, m1);
    errs.push(b.and(cm, w1p));
    let k = width_for(m);
    let (i1, i2) = (b.onehot_index(&w1, k), b.onehot_index(&w2, k));
    let lt = b.less_than(&i1, &i2);
    let nlt = b.not(lt);
    errs.push(b.and(w2p, nlt));
    // node indicators of each pair's ends
    let indicator = |b: &mut Builder, e: End| -> Vec<Bit> {
        let (sel, ts) = match e {
            End::Node(v) => return (0..n).map(|u| Bit::Const(u == v as usize)).collect(),
            End::Cat => (&c, &mc.cat),
            End::Mouse => (&mo, &mc.mouse),
        };
        let table: Vec<Vec<bool>> = ts
            .iter()
            .map(|t| (0..n).map(|u| u == t.node as usize).collect())
            .collect();
        b.select_public(sel, &table)
    };
    // open edges after the first wall, and after both
    let open1: Vec<Bit> = (0..m).map(|e| b.not(w1[e])).collect();
    let open2: Vec<Bit> = (0..m)
        .map(|e| {
            let o = b.not(w2[e]);
            b.and(open1[e], o)
        })
        .collect();
    for &(s, t) in pairs {
        let (si, ti) = (indicator(&mut b, s), indicator(&mut b, t));
        for open in [&open1, &open2] {
            let mut reach = si.clone();
            for _ in 1..n {
                let mut next = reach.clone();
                for (e, &(u, v)) in g.edges().iter().enumerate() {
                    let (u, v) = (u as usize, v as usize);
                    let a = b.and(reach[u], open[e]);
                    next[v] = b.or(next[v], a);
                    let a = b.and(reach[v], open[e]);
                    next[u] = b.or(next[u], a);
                }
                reach = next;
            }
            let mut hit = Bit::Const(false);
            for v in 0..n {
                let x = b.and(reach[v], ti[v]);
                hit = b.or(hit, x);
            }
            errs.push(b.not(hit));
        }
    }
    for e in errs {
        if e != Bit::Const(false) {
            b.output(e);
        }
    }
    b.finish()
}

/// One end of an attached pair, for [`flood_fill_circuit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The mover's cat (wherever it moves).
    Cat,
    /// The mover's mouse.
    Mouse,
    /// A piece that does not move this turn.
    Node(u32),
}
