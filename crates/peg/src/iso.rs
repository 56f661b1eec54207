//! Peg solitaire isomorphisms (Definition 8) and the solution transform of Theorem 10.
//!
//! `ξ = (ϕ, χ, ψ)`: `ϕ` permutes the `N` vertices, `χ` the `T` triplets, and `ψ` either keeps
//! or swaps the outer two entries of every triplet. The image of `Σ = (t, f, l)` is
//! `t'_{χ(i)} = (ϕ(t_{i,ψ(1)}), ϕ(t_{i,2}), ϕ(t_{i,ψ(3)}))`, `f'_{ϕ(j)} = f_j`, `l'_{ϕ(j)} = l_j`,
//! and a solution maps column-wise: `Z'[i, ϕ(j)] = Z[i, j]`.

use rand::seq::SliceRandom;
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use super::instance::{Goal, Instance, Matrix};
use zkgames_core::Error;
use zkgames_core::Result;

/// An `(N, T, S)`-isomorphism, 0-based: `phi[j]` is the image of vertex `j`, `chi[i]` the
/// image of triplet `i`; `psi_swap` is true when `ψ` swaps 1 and 3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iso {
    pub phi: Vec<u32>,
    pub chi: Vec<u32>,
    pub psi_swap: bool,
}

fn is_permutation(p: &[u32]) -> bool {
    let mut seen = vec![false; p.len()];
    for &x in p {
        let x = x as usize;
        if x >= p.len() || seen[x] {
            return false;
        }
        seen[x] = true;
    }
    true
}

fn invert(p: &[u32]) -> Vec<u32> {
    let mut inv = vec![0u32; p.len()];
    for (i, &x) in p.iter().enumerate() {
        inv[x as usize] = i as u32;
    }
    inv
}

impl Iso {
    /// A uniformly random isomorphism for sizes `(n, t)`.
    pub fn random(n: usize, t: usize, rng: &mut impl RngCore) -> Self {
        let mut phi: Vec<u32> = (0..n as u32).collect();
        let mut chi: Vec<u32> = (0..t as u32).collect();
        phi.shuffle(rng);
        chi.shuffle(rng);
        let psi_swap = rng.next_u32() & 1 == 1;
        Iso { phi, chi, psi_swap }
    }

    /// The identity isomorphism.
    pub fn identity(n: usize, t: usize) -> Self {
        Iso {
            phi: (0..n as u32).collect(),
            chi: (0..t as u32).collect(),
            psi_swap: false,
        }
    }

    /// Checks that `ϕ` and `χ` are bijections of the instance's sizes (untrusted input).
    pub fn validate(&self, n: usize, t: usize) -> Result<()> {
        if self.phi.len() != n || !is_permutation(&self.phi) {
            return Err(Error::bad(format!("ϕ is not a permutation of [1, {n}]")));
        }
        if self.chi.len() != t || !is_permutation(&self.chi) {
            return Err(Error::bad(format!("χ is not a permutation of [1, {t}]")));
        }
        Ok(())
    }

    /// Maps a triplet under `ϕ` and `ψ`.
    pub fn map_triplet(&self, t: &[u32; 3]) -> [u32; 3] {
        let (a, c) = if self.psi_swap {
            (t[2], t[0])
        } else {
            (t[0], t[2])
        };
        [
            self.phi[a as usize],
            self.phi[t[1] as usize],
            self.phi[c as usize],
        ]
    }

    /// Maps a position (row) under `ϕ`: `out[ϕ(j)] = row[j]`.
    pub fn map_row(&self, row: &[bool]) -> Vec<bool> {
        let mut out = vec![false; row.len()];
        for (j, &b) in row.iter().enumerate() {
            out[self.phi[j] as usize] = b;
        }
        out
    }

    /// The triplets `t'` of the image instance.
    pub fn map_triplets(&self, ts: &[[u32; 3]]) -> Vec<[u32; 3]> {
        let mut out = vec![[0u32; 3]; ts.len()];
        for (i, t) in ts.iter().enumerate() {
            out[self.chi[i] as usize] = self.map_triplet(t);
        }
        out
    }

    /// The instance `Σ'` isomorphic to `Σ` by `ξ` (Definition 8). `self` must be valid for
    /// the instance's sizes.
    pub fn apply(&self, inst: &Instance) -> Instance {
        let goal = match inst.goal() {
            Goal::Position(l) => Goal::Position(self.map_row(l)),
            Goal::PegCount(c) => Goal::PegCount(*c),
        };
        Instance::new(
            inst.n(),
            self.map_triplets(inst.triplets()),
            self.map_row(inst.first()),
            goal,
        )
        .expect("an isomorphic image of a valid instance is valid")
    }

    /// Theorem 10: `Z'[i, ϕ(j)] = Z[i, j]`.
    pub fn map_solution(&self, z: &Matrix) -> Matrix {
        z.iter().map(|r| self.map_row(r)).collect()
    }

    /// The inverse transform of Theorem 10: `Z[i, j] = Z'[i, ϕ(j)]`.
    pub fn unmap_solution(&self, zp: &Matrix) -> Matrix {
        zp.iter()
            .map(|r| self.phi.iter().map(|&p| r[p as usize]).collect())
            .collect()
    }

    /// The inverse isomorphism `ξ⁻¹` (so that `ξ⁻¹(ξ(Σ)) = Σ`).
    pub fn inverse(&self) -> Iso {
        Iso {
            phi: invert(&self.phi),
            chi: invert(&self.chi),
            psi_swap: self.psi_swap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{tee, Goal};

    fn rows(r: &[[u8; 5]]) -> Matrix {
        r.iter()
            .map(|x| x.iter().map(|&b| b == 1).collect())
            .collect()
    }

    /// Example 14 of the paper, in 1-based notation converted to 0-based.
    #[test]
    fn example_14() {
        // ϕ(x) = (x mod 5) + 1 (1-based) → 0-based: j ↦ (j + 1) mod 5
        let xi = Iso {
            phi: (0..5).map(|j| (j + 1) % 5).collect(),
            chi: vec![1, 0],
            psi_swap: true,
        };
        let s2 = xi.apply(&tee());
        let one_based: Vec<[u32; 3]> = s2
            .triplets()
            .iter()
            .map(|t| [t[0] + 1, t[1] + 1, t[2] + 1])
            .collect();
        assert_eq!(one_based, vec![[1, 5, 3], [4, 3, 2]]);
        let b = |v: [u8; 5]| v.iter().map(|&x| x == 1).collect::<Vec<bool>>();
        assert_eq!(s2.first(), &b([1, 1, 1, 0, 1])[..]);
        assert_eq!(s2.goal(), &Goal::Position(b([0, 1, 0, 0, 0])));
        let z = rows(&[
            [1, 1, 0, 1, 1],
            [0, 0, 1, 1, 1],
            [0, 1, 1, 0, 0],
            [1, 0, 0, 0, 0],
        ]);
        let zp = xi.map_solution(&z);
        assert_eq!(
            zp,
            rows(&[
                [1, 1, 1, 0, 1],
                [1, 0, 0, 1, 1],
                [0, 0, 1, 1, 0],
                [0, 1, 0, 0, 0]
            ])
        );
        s2.check_solution(&zp).unwrap();
        assert_eq!(xi.unmap_solution(&zp), z);
        assert_eq!(xi.inverse().apply(&s2), tee());
    }
}
