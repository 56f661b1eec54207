//! Random peg solitaire instances with a planted solution: the puzzles behind `peg`
//! identities (see `zkgames_auth`).
//!
//! Construction (all choices uniform, from the generator given):
//! 1. the final position `l`: `final_pegs` pegs on distinct random vertices of `N`;
//! 2. `moves` *unjumps* backwards from `l`: pick a peg `c` and two empty vertices `a`, `b`
//!    whose set `{a, b, c}` is not a triplet yet; add the triplet with `b` in the middle and the
//!    ends in random order; the position becomes `a = b = 1`, `c = 0` (before the jump of `a`
//!    over `b` into `c`). The last position reached is `f`, with `final_pegs + moves` pegs;
//! 3. `decoys` more triplets: random sets of three vertices not already used, in random order;
//! 4. the triplets are shuffled, so their order says nothing about which ones are planted.
//!
//! Read forwards, the unjumps are a solution: `S = moves + 1` rows from `f` to `l`.
//! Deterministic for a given generator state, so tests can use a seed; keys use
//! [`zkgames_core::rng::os_rng`].
//!
//! Hardness is *not* a standard cryptographic assumption: it is measured against this
//! project's own solver (`benches/auth.rs`, figures in docs/GUIDE.md), and nothing rules out a
//! better algorithm for such random instances. [`KEYGEN`] is the size keys use.

use std::collections::HashSet;

use rand::seq::SliceRandom;
use rand::Rng as _;

use super::instance::{Goal, Instance, Matrix, MAX_N, MAX_T};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;

/// Size of a planted instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlantParams {
    /// Number of vertices `N`.
    pub vertices: usize,
    /// Number of jumps of the planted solution (`S − 1`).
    pub moves: usize,
    /// Triplets added besides the `moves` planted ones.
    pub decoys: usize,
    /// Pegs in the final position `l`.
    pub final_pegs: usize,
}

/// The size `prover auth keygen --kind peg` uses: [`PlantParams::scaled`]`(64)`, i.e. 102
/// vertices, 64 moves, 192 triplets, 8 final pegs. Chosen from the measurement of
/// `benches/auth.rs` (figures in docs/GUIDE.md): the solver solved every 32-move instance tried
/// within 20 million nodes and none of the 40-move ones; 64 moves is twice the largest size it
/// solved. The ZKB++ login proof of this size is about 1 MB.
pub const KEYGEN: PlantParams = PlantParams {
    vertices: 102,
    moves: 64,
    decoys: 128,
    final_pegs: 8,
};

impl PlantParams {
    /// The keygen family for a number of moves: `N = max(⌊1.6·moves⌋, moves + 9)`
    /// vertices, `2·moves` decoys (`T = 3·moves`), 8 final pegs. Sparser (fewer decoys, more
    /// vertices, more final pegs) is harder for the solver but gives the linear relaxation
    /// fewer free dimensions (`T − N`); see docs/GUIDE.md, "How hard are the planted puzzles?".
    pub fn scaled(moves: usize) -> Self {
        PlantParams {
            vertices: (moves * 8 / 5).max(moves + 9),
            moves,
            decoys: 2 * moves,
            final_pegs: 8,
        }
    }

    /// Number of triplets `T` of the instances.
    pub fn triplets(&self) -> usize {
        self.moves + self.decoys
    }

    /// Checks that instances of this size exist and that drawing them terminates quickly:
    /// room for every unjump (`N ≥ final_pegs + moves + 1`), at most half of all vertex
    /// triples used as triplets, and the limits of [`Instance`].
    pub fn validate(&self) -> Result<()> {
        let n = self.vertices;
        if self.final_pegs == 0 || self.moves == 0 {
            return Err(Error::bad(
                "a planted instance needs at least one move and one final peg",
            ));
        }
        if n > MAX_N || n < self.final_pegs + self.moves + 1 {
            return Err(Error::bad(format!(
                "{n} vertices: need between {} and {MAX_N} for {} moves and {} final pegs",
                self.final_pegs + self.moves + 1,
                self.moves,
                self.final_pegs
            )));
        }
        let triples = (n as u128) * (n as u128 - 1) * (n as u128 - 2) / 6;
        let t = self.moves.saturating_add(self.decoys);
        if t > MAX_T || (t as u128) * 2 > triples {
            return Err(Error::bad(format!(
                "{t} triplets on {n} vertices: at most {} and at most half of the {triples} vertex triples",
                MAX_T
            )));
        }
        Ok(())
    }
}

/// A planted instance and its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planted {
    pub instance: Instance,
    /// The solution matrix (`S` rows, `f` to `l`).
    pub solution: Matrix,
    /// For each move, the index of its triplet in `instance.triplets()`.
    pub moves: Vec<usize>,
}

fn sorted(t: [u32; 3]) -> [u32; 3] {
    let mut s = t;
    s.sort_unstable();
    s
}

/// Draws an instance of size `p` with a planted solution (see the module documentation).
pub fn plant(p: &PlantParams, rng: &mut Rng) -> Result<Planted> {
    p.validate()?;
    let n = p.vertices;
    let mut verts: Vec<u32> = (0..n as u32).collect();
    verts.shuffle(rng);
    let mut pos = vec![false; n];
    for &v in &verts[..p.final_pegs] {
        pos[v as usize] = true;
    }
    let last = pos.clone();
    let mut used: HashSet<[u32; 3]> = HashSet::with_capacity(p.triplets());
    // unjumps, from l backwards; rows[k] is the position after k unjumps
    let mut planted: Vec<[u32; 3]> = Vec::with_capacity(p.moves);
    let mut rows = vec![pos.clone()];
    for _ in 0..p.moves {
        let pegs: Vec<u32> = (0..n as u32).filter(|&v| pos[v as usize]).collect();
        let empty: Vec<u32> = (0..n as u32).filter(|&v| !pos[v as usize]).collect();
        // every (c, {a, b}) choice is tried at most once per attempt count; with at most half
        // of all triples used, a random draw is fresh with probability above 1/2 unless this
        // position is unlucky, so the bound is only a guard against pathological parameters
        let mut found = None;
        for _ in 0..10_000 {
            let c = pegs[rng.gen_range(0..pegs.len())];
            let i = rng.gen_range(0..empty.len());
            let mut j = rng.gen_range(0..empty.len() - 1);
            if j >= i {
                j += 1;
            }
            let (a, b) = (empty[i], empty[j]);
            if !used.contains(&sorted([a, b, c])) {
                found = Some((a, b, c));
                break;
            }
        }
        let (a, b, c) = found.ok_or_else(|| {
            Error::bad("could not place a fresh triplet: too many triplets for the vertices")
        })?;
        used.insert(sorted([a, b, c]));
        planted.push(if rng.gen() { [a, b, c] } else { [c, b, a] });
        pos[a as usize] = true;
        pos[b as usize] = true;
        pos[c as usize] = false;
        rows.push(pos.clone());
    }
    let mut triplets: Vec<([u32; 3], Option<usize>)> = planted
        .iter()
        .enumerate()
        .map(|(k, &t)| (t, Some(k)))
        .collect();
    while triplets.len() < p.triplets() {
        let t = [
            rng.gen_range(0..n as u32),
            rng.gen_range(0..n as u32),
            rng.gen_range(0..n as u32),
        ];
        if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] && used.insert(sorted(t)) {
            triplets.push((t, None));
        }
    }
    triplets.shuffle(rng);
    // the k-th unjump is move number `moves − 1 − k` read forwards
    let mut moves = vec![0usize; p.moves];
    for (idx, (_, k)) in triplets.iter().enumerate() {
        if let Some(k) = k {
            moves[p.moves - 1 - k] = idx;
        }
    }
    rows.reverse();
    let instance = Instance::new(
        n,
        triplets.into_iter().map(|(t, _)| t).collect(),
        rows[0].clone(),
        Goal::Position(last),
    )?;
    Ok(Planted {
        instance,
        solution: rows,
        moves,
    })
}

/// The solution matrix obtained by playing `moves` (triplet indices) from the first position
/// of `inst`; `None` if an index is out of range or a move is not legal where it is played.
/// The result still has to reach the goal: check it with [`Instance::check_solution`].
pub fn play(inst: &Instance, moves: &[usize]) -> Option<Matrix> {
    let mut rows = vec![inst.first().to_vec()];
    for &j in moves {
        let t = inst.triplets().get(j)?;
        let cur = rows.last()?;
        let [a, b, c] = t.map(|x| x as usize);
        if !cur[b] || cur[a] == cur[c] {
            return None;
        }
        let mut next = cur.clone();
        for v in [a, b, c] {
            next[v] = !next[v];
        }
        rows.push(next);
    }
    Some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn planted_solutions_check_on_many_draws() {
        let mut rng = seeded_rng(1);
        for i in 0..3000 {
            let moves = rng.gen_range(1..30);
            let final_pegs = rng.gen_range(1..5);
            let vertices = rng.gen_range(final_pegs + moves + 1..final_pegs + 2 * moves + 8);
            let p = PlantParams {
                vertices,
                moves,
                decoys: rng.gen_range(0..3 * moves + 1),
                final_pegs,
            };
            if p.validate().is_err() {
                // tiny vertex counts cannot hold many triplets
                assert!(vertices < 12, "{p:?}");
                continue;
            }
            let pl = plant(&p, &mut rng).unwrap();
            let inst = &pl.instance;
            assert_eq!(
                (inst.n(), inst.t(), inst.s()),
                (vertices, p.triplets(), moves + 1),
                "draw {i}"
            );
            assert_eq!(inst.final_pegs(), final_pegs);
            inst.check_solution(&pl.solution).unwrap();
            assert_eq!(play(inst, &pl.moves).unwrap(), pl.solution);
            for (k, &j) in pl.moves.iter().enumerate() {
                assert_eq!(
                    inst.step_triplet(&pl.solution[k], &pl.solution[k + 1]),
                    Some(j)
                );
            }
        }
    }

    /// Planted instances are solvable by construction: the solver must find a solution on
    /// small ones and never claim one impossible (a cross-check of both).
    #[test]
    fn the_solver_solves_small_planted_instances() {
        use crate::solver::{solve, SolveOptions, SolveOutcome};
        let mut rng = seeded_rng(11);
        for _ in 0..300 {
            let moves = rng.gen_range(1..12);
            let final_pegs = rng.gen_range(1..9);
            let p = PlantParams {
                vertices: rng.gen_range(final_pegs + moves + 1..final_pegs + 2 * moves + 6),
                moves,
                decoys: rng.gen_range(0..2 * moves + 1),
                final_pegs,
            };
            if p.validate().is_err() {
                continue;
            }
            let pl = plant(&p, &mut rng).unwrap();
            let opts = SolveOptions {
                node_budget: 1_000_000,
                ..SolveOptions::default()
            };
            match solve(&pl.instance, &opts) {
                SolveOutcome::Solved(z) => pl.instance.check_solution(&z).unwrap(),
                other => panic!("{p:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn deterministic_from_the_seed_and_different_across_seeds() {
        let p = PlantParams::scaled(20);
        let a = plant(&p, &mut seeded_rng(7)).unwrap();
        let b = plant(&p, &mut seeded_rng(7)).unwrap();
        let c = plant(&p, &mut seeded_rng(8)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.instance, c.instance);
    }

    #[test]
    fn keygen_and_scaled_parameters_are_valid() {
        KEYGEN.validate().unwrap();
        assert_eq!(KEYGEN, PlantParams::scaled(64));
        let mut rng = seeded_rng(2);
        for m in 1..200 {
            let p = PlantParams::scaled(m);
            p.validate().unwrap();
            let pl = plant(&p, &mut rng).unwrap();
            pl.instance.check_solution(&pl.solution).unwrap();
        }
        let pl = plant(&KEYGEN, &mut rng).unwrap();
        pl.instance.check_solution(&pl.solution).unwrap();
    }

    #[test]
    fn bad_parameters_are_refused() {
        let ok = PlantParams::scaled(10);
        for p in [
            PlantParams { moves: 0, ..ok },
            PlantParams {
                final_pegs: 0,
                ..ok
            },
            PlantParams {
                vertices: ok.final_pegs + ok.moves,
                ..ok
            },
            PlantParams {
                vertices: MAX_N + 1,
                ..ok
            },
            PlantParams {
                decoys: usize::MAX,
                ..ok
            },
            PlantParams {
                vertices: 6,
                moves: 1,
                decoys: 10,
                final_pegs: 1,
            },
        ] {
            assert!(p.validate().is_err(), "{p:?}");
            assert!(plant(&p, &mut seeded_rng(0)).is_err());
        }
    }

    #[test]
    fn play_refuses_illegal_moves() {
        let pl = plant(&PlantParams::scaled(8), &mut seeded_rng(3)).unwrap();
        let inst = &pl.instance;
        assert!(play(inst, &[inst.t()]).is_none());
        // playing the last move first is illegal unless it happens to be legal there too
        let mut m = pl.moves.clone();
        m.reverse();
        if let Some(z) = play(inst, &m) {
            for k in 0..m.len() {
                assert!(crate::instance::is_legal_step(
                    &inst.triplets()[m[k]],
                    &z[k],
                    &z[k + 1]
                ));
            }
        }
    }
}
