//! Shared test helpers: instances built from coordinates, independent of the board parser.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::Rng;
use zkgames::peg::instance::{Goal, Instance, Matrix};
use zkgames::rng::Rng as ZRng;

/// The 33-hole English board, central game, built directly from coordinates.
pub fn english() -> Instance {
    let holes: Vec<(i32, i32)> = (0..7)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|&(r, c)| (2..5).contains(&r) || (2..5).contains(&c))
        .collect();
    let idx = |p: (i32, i32)| holes.iter().position(|&h| h == p);
    let mut ts = Vec::new();
    for &(r, c) in &holes {
        for (dr, dc) in [(0, 1), (1, 0)] {
            if let (Some(a), Some(b), Some(cc)) = (
                idx((r, c)),
                idx((r + dr, c + dc)),
                idx((r + 2 * dr, c + 2 * dc)),
            ) {
                ts.push([a as u32, b as u32, cc as u32]);
            }
        }
    }
    let centre = idx((3, 3)).unwrap();
    let f: Vec<bool> = (0..holes.len()).map(|i| i != centre).collect();
    let l: Vec<bool> = (0..holes.len()).map(|i| i == centre).collect();
    Instance::new(holes.len(), ts, f, Goal::Position(l)).unwrap()
}

/// The legal successors of a position.
pub fn moves(inst: &Instance, row: &[bool]) -> Vec<Vec<bool>> {
    let mut out = Vec::new();
    for t in inst.triplets() {
        for (a, c) in [(t[0], t[2]), (t[2], t[0])] {
            let (a, b, c) = (a as usize, t[1] as usize, c as usize);
            if row[a] && row[b] && !row[c] {
                let mut n = row.to_vec();
                n[a] = false;
                n[b] = false;
                n[c] = true;
                out.push(n);
            }
        }
    }
    out
}

/// A plain DFS solver on 64-bit boards (N ≤ 64) remembering dead positions, no other
/// pruning: a reference for small instances and a source of valid solutions for tests.
pub fn dfs_solve(inst: &Instance) -> Option<Matrix> {
    assert!(inst.n() <= 64);
    let enc = |r: &[bool]| {
        r.iter()
            .enumerate()
            .fold(0u64, |a, (i, &b)| a | ((b as u64) << i))
    };
    let target = enc(inst.last()?);
    let ms: Vec<(u64, u64, u64)> = inst
        .triplets()
        .iter()
        .flat_map(|t| {
            let (a, b, c) = (1u64 << t[0], 1u64 << t[1], 1u64 << t[2]);
            [(a | b, c, a | b | c), (c | b, a, a | b | c)]
        })
        .collect();
    let mut dead = std::collections::HashSet::new();
    let mut path = vec![enc(inst.first())];
    let mut next_move = vec![0usize];
    loop {
        let cur = *path.last().unwrap();
        if path.len() == inst.s() {
            if cur == target {
                break;
            }
            dead.insert(cur);
            path.pop();
            next_move.pop();
            if path.is_empty() {
                return None;
            }
            continue;
        }
        let k = next_move.last_mut().unwrap();
        let mut advanced = false;
        while *k < ms.len() {
            let (full, empty, mask) = ms[*k];
            *k += 1;
            if cur & full == full && cur & empty == 0 {
                let n = cur ^ mask;
                if !dead.contains(&n) {
                    path.push(n);
                    next_move.push(0);
                    advanced = true;
                    break;
                }
            }
        }
        if !advanced {
            dead.insert(cur);
            path.pop();
            next_move.pop();
            if path.is_empty() {
                return None;
            }
        }
    }
    Some(
        path.iter()
            .map(|&x| (0..inst.n()).map(|i| x >> i & 1 == 1).collect())
            .collect(),
    )
}

/// A sequence from f to l with exactly one illegal step (the last): a random legal playout
/// of S − 2 moves followed by a jump straight to l. The best a prover without a solution can do.
pub fn one_illegal_step(inst: &Instance, rng: &mut ZRng) -> Matrix {
    let l = inst.last().unwrap().to_vec();
    loop {
        let mut z = vec![inst.first().to_vec()];
        while z.len() < inst.s() - 1 {
            let m = moves(inst, z.last().unwrap());
            match m.choose(rng) {
                Some(n) => z.push(n.clone()),
                None => break,
            }
        }
        if z.len() == inst.s() - 1 {
            z.push(l.clone());
            let illegal = (0..inst.s() - 1)
                .filter(|&i| inst.step_triplet(&z[i], &z[i + 1]).is_none())
                .count();
            if illegal == 1 {
                return z;
            }
        }
        let _ = rng.gen::<u8>();
    }
}

#[allow(unused_imports)]
pub use zkgames::peg::instance::tee_solution;

/// xorshift64: a tiny reproducible generator for tests that need no seed plumbing.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
