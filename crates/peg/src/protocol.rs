//! Protocol 1 of Bultel (FUN 2022): one round of the isomorphism sigma protocol.
//!
//! Prover, per round:
//! 1. draws a uniformly random isomorphism `ξ = (ϕ, χ, ψ)` and computes `Σ' = ξ(Σ)` and
//!    `Z' = ξ(Z)` (Theorem 10);
//! 2. commits every triplet `t'_i` and every row `Z'[j]` with a fresh 256-bit key each;
//! 3. the round's commitment is the Merkle root of the `T + S` commitments
//!    `[t̂_1 … t̂_T, Ẑ_1 … Ẑ_S]` (see [`zkgames_core::merkle`]).
//!
//! Challenge `σ ∈ [1, S]`. Response:
//! * `σ = S`: `ξ`, every `(sk_ti, t'_i)`, `(sk_z1, Z'[1])` and `(sk_zS, Z'[S])` (the last one is
//!   omitted in the peg-count variant, Section 5 of the paper);
//! * `σ < S`: `γ` with `t'_γ` the triplet of move `σ`, `(sk_tγ, t'_γ)`, `(sk_zσ, Z'[σ])`,
//!   `(sk_zσ+1, Z'[σ+1])`;
//!
//! plus the Merkle sibling hashes that let the verifier recompute the root. The verifier's
//! checks are the paper's, in [`verify_round`].
//!
//! Encodings committed (fixed length for a given instance, see [`zkgames_core::commit`]):
//! a triplet is 3 × u32-le (0-based vertex indices); a row is `ceil(N/8)` bytes, bits
//! LSB-first, padding zero.

use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use super::instance::{is_legal_step, pack_bits, unpack_bits, Goal, Instance, Matrix};
use super::iso::Iso;
use zkgames_core::commit::{commit, Digest, Key, Tag};
use zkgames_core::merkle;
use zkgames_core::rng::random_32;

/// Commitment tag for a triplet of `Σ'`.
pub const TAG_TRIPLET: Tag = Tag(b"zkg:peg:t:");
/// Commitment tag for a row of `Z'`.
pub const TAG_ROW: Tag = Tag(b"zkg:peg:z:");

/// Canonical encoding of a triplet: 3 × u32-le.
pub fn encode_triplet(t: &[u32; 3]) -> [u8; 12] {
    let mut b = [0u8; 12];
    for (i, x) in t.iter().enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    b
}

/// Everything the prover keeps secret between commitment and response in one round.
#[derive(Clone, Debug)]
pub struct RoundSecret {
    /// The random isomorphism `ξ`.
    pub iso: Iso,
    /// `t'` = triplets of `Σ'`.
    pub triplets: Vec<[u32; 3]>,
    /// `Z'`, the transformed solution.
    pub rows: Matrix,
    /// Commitment keys: `T` triplet keys then `S` row keys.
    pub keys: Vec<Key>,
    /// The `T + S` commitments (Merkle leaves).
    pub leaves: Vec<Digest>,
    /// The Merkle root: this round's commitment.
    pub root: Digest,
}

/// A revealed row: its commitment key and packed bits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowOpening {
    pub key: Key,
    pub bits: Vec<u8>,
}

/// The opened values of a response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opening {
    /// `σ = S`: the isomorphism and the image instance `Σ'`.
    Iso {
        iso: Iso,
        triplets: Vec<[u32; 3]>,
        triplet_keys: Vec<Key>,
        first: RowOpening,
        /// `None` in the peg-count variant.
        last: Option<RowOpening>,
    },
    /// `σ < S`: move `σ` of `Z'`.
    Move {
        gamma: u32,
        triplet: [u32; 3],
        triplet_key: Key,
        before: RowOpening,
        after: RowOpening,
    },
}

/// One round's response: the challenge it answers (1-based `σ`), the opening, and the
/// Merkle sibling hashes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResponse {
    pub sigma: u32,
    pub opening: Opening,
    pub path: Vec<Digest>,
}

/// Commits one round. `z` must be a valid solution for honest use; the function does not
/// check it, so tests can model a cheating prover that commits to an invalid sequence.
pub fn commit_round(inst: &Instance, z: &Matrix, rng: &mut impl RngCore) -> RoundSecret {
    let (n, t) = (inst.n(), inst.t());
    let iso = Iso::random(n, t, rng);
    let triplets = iso.map_triplets(inst.triplets());
    let rows = iso.map_solution(z);
    commit_values(iso, triplets, rows, rng)
}

/// Commits given values of `Σ'` and `Z'` (used by [`commit_round`] and the simulator).
pub fn commit_values(
    iso: Iso,
    triplets: Vec<[u32; 3]>,
    rows: Matrix,
    rng: &mut impl RngCore,
) -> RoundSecret {
    let mut keys = Vec::with_capacity(triplets.len() + rows.len());
    let mut leaves = Vec::with_capacity(triplets.len() + rows.len());
    for tr in &triplets {
        let k = random_32(rng);
        leaves.push(commit(TAG_TRIPLET, &k, &encode_triplet(tr)));
        keys.push(k);
    }
    for r in &rows {
        let k = random_32(rng);
        leaves.push(commit(TAG_ROW, &k, &pack_bits(r)));
        keys.push(k);
    }
    let root = merkle::root(&leaves);
    RoundSecret {
        iso,
        triplets,
        rows,
        keys,
        leaves,
        root,
    }
}

/// The leaf indices a response to `σ` (1-based) opens, sorted.
fn opened_indices(inst: &Instance, sigma: usize, gamma: usize) -> Vec<usize> {
    let (t, s) = (inst.t(), inst.s());
    if sigma == s {
        let mut v: Vec<usize> = (0..t).collect();
        v.push(t);
        if matches!(inst.goal(), Goal::Position(_)) {
            v.push(t + s - 1);
        }
        v
    } else {
        vec![gamma, t + sigma - 1, t + sigma]
    }
}

/// The prover's response to `σ ∈ [1, S]`. For a step that is not a legal move (a cheating
/// prover), `γ` falls back to 0 and the verifier will reject.
pub fn respond(inst: &Instance, sec: &RoundSecret, sigma: usize) -> RoundResponse {
    respond_with(inst, sec, sigma, None)
}

/// [`respond`] with a forced `γ` for `σ < S` (the simulator chooses its own `γ`).
pub fn respond_with(
    inst: &Instance,
    sec: &RoundSecret,
    sigma: usize,
    forced_gamma: Option<usize>,
) -> RoundResponse {
    let (t, s) = (inst.t(), inst.s());
    assert!((1..=s).contains(&sigma), "challenge out of range");
    let row = |j: usize| RowOpening {
        key: sec.keys[t + j],
        bits: pack_bits(&sec.rows[j]),
    };
    let (opening, gamma) = if sigma == s {
        let last = matches!(inst.goal(), Goal::Position(_)).then(|| row(s - 1));
        (
            Opening::Iso {
                iso: sec.iso.clone(),
                triplets: sec.triplets.clone(),
                triplet_keys: sec.keys[..t].to_vec(),
                first: row(0),
                last,
            },
            0,
        )
    } else {
        let (a, b) = (&sec.rows[sigma - 1], &sec.rows[sigma]);
        let gamma = forced_gamma
            .or_else(|| sec.triplets.iter().position(|tr| is_legal_step(tr, a, b)))
            .unwrap_or(0);
        (
            Opening::Move {
                gamma: gamma as u32,
                triplet: sec.triplets[gamma],
                triplet_key: sec.keys[gamma],
                before: row(sigma - 1),
                after: row(sigma),
            },
            gamma,
        )
    };
    let path = merkle::open(&sec.leaves, &opened_indices(inst, sigma, gamma));
    RoundResponse {
        sigma: sigma as u32,
        opening,
        path,
    }
}

fn row_leaf(n: usize, r: &RowOpening, what: &str) -> Result<(Digest, Vec<bool>), String> {
    let bits =
        unpack_bits(&r.bits, n).ok_or_else(|| format!("{what}: not an encoding of {n} bits"))?;
    Ok((commit(TAG_ROW, &r.key, &r.bits), bits))
}

/// The verifier's checks for one round, given the challenge `σ` (1-based) it expects.
/// On success returns the Merkle root the opening commits to; the caller compares it with
/// the round's commitment (interactive) or feeds it to Fiat–Shamir (non-interactive).
/// The error says which check failed.
pub fn verify_round(inst: &Instance, sigma: usize, r: &RoundResponse) -> Result<Digest, String> {
    let (n, t, s) = (inst.n(), inst.t(), inst.s());
    if r.sigma as usize != sigma {
        return Err(format!(
            "response answers challenge {} but the challenge is {sigma}",
            r.sigma
        ));
    }
    let mut opened: Vec<(usize, Digest)>;
    match &r.opening {
        Opening::Iso {
            iso,
            triplets,
            triplet_keys,
            first,
            last,
        } => {
            if sigma != s {
                return Err(format!(
                    "isomorphism opened for challenge σ = {sigma} < S = {s}"
                ));
            }
            if triplets.len() != t || triplet_keys.len() != t {
                return Err(format!("expected {t} opened triplets"));
            }
            iso.validate(n, t).map_err(|e| e.to_string())?;
            opened = triplets
                .iter()
                .zip(triplet_keys)
                .enumerate()
                .map(|(i, (tr, k))| (i, commit(TAG_TRIPLET, k, &encode_triplet(tr))))
                .collect();
            let (c1, f1) = row_leaf(n, first, "Z'[1]")?;
            opened.push((t, c1));
            // Σ' = ((t'_i), Z'[1], Z'[S]) must be the image of Σ by ξ.
            if *triplets != iso.map_triplets(inst.triplets()) {
                return Err("the opened triplets t' are not the image of t by ξ".into());
            }
            if f1 != iso.map_row(inst.first()) {
                return Err("the opened Z'[1] is not the image of f by ξ".into());
            }
            match (inst.goal(), last) {
                (Goal::Position(l), Some(lo)) => {
                    let (cs, ls) = row_leaf(n, lo, "Z'[S]")?;
                    if ls != iso.map_row(l) {
                        return Err("the opened Z'[S] is not the image of l by ξ".into());
                    }
                    opened.push((t + s - 1, cs));
                }
                (Goal::PegCount(_), None) => {}
                (Goal::Position(_), None) => return Err("Z'[S] is missing".into()),
                (Goal::PegCount(_), Some(_)) => {
                    return Err("Z'[S] must not be opened in the peg-count variant".into())
                }
            }
        }
        Opening::Move {
            gamma,
            triplet,
            triplet_key,
            before,
            after,
        } => {
            if sigma == s {
                return Err("a move was opened for challenge σ = S".into());
            }
            let g = *gamma as usize;
            if g >= t {
                return Err(format!("γ = {} is not a triplet index in [1, {t}]", g + 1));
            }
            // Σ' is an instance (Definition 4): its triplets have three distinct vertices in
            // [1, N]. The paper's move check alone would let (a, a, b) pass as a two-cell move;
            // the σ = S check would catch such a commitment too, but only in one round out of S.
            if triplet.iter().any(|&x| x as usize >= n)
                || triplet[0] == triplet[1]
                || triplet[1] == triplet[2]
                || triplet[0] == triplet[2]
            {
                return Err(
                    "the opened triplet t'_γ is not three distinct vertices of [1, N]".into(),
                );
            }
            let (cb, zb) = row_leaf(n, before, "Z'[σ]")?;
            let (ca, za) = row_leaf(n, after, "Z'[σ+1]")?;
            // k ∈ t'_γ ⇔ Z'[σ,k] ≠ Z'[σ+1,k];  Z'[σ,t'_γ1] ≠ Z'[σ,t'_γ3];  Z'[σ,t'_γ2] = 1
            if !is_legal_step(triplet, &zb, &za) {
                return Err(format!(
                    "move σ = {sigma} is not a legal jump along the opened triplet t'_γ"
                ));
            }
            opened = vec![
                (
                    g,
                    commit(TAG_TRIPLET, triplet_key, &encode_triplet(triplet)),
                ),
                (t + sigma - 1, cb),
                (t + sigma, ca),
            ];
        }
    }
    merkle::root_from_opening(t + s, &opened, &r.path)
        .ok_or_else(|| "the Merkle opening has the wrong number of sibling hashes".to_string())
}

/// Knowledge error of one round: `(S − 1)/S`; `λ` rounds give `((S − 1)/S)^λ`.
/// Bits of security per round: `log2(S/(S − 1))`.
pub fn bits_per_round(s: usize) -> f64 {
    (s as f64 / (s as f64 - 1.0)).log2()
}

/// `λ = ⌈bits / log2(S/(S−1))⌉`: the rounds needed for a knowledge error of `2^-bits`.
pub fn rounds_for_bits(bits: u32, s: usize) -> usize {
    let x = bits as f64 / bits_per_round(s);
    // guard against floating error just above an integer
    let r = x.ceil() as usize;
    if r > 0 && (r as f64 - 1.0) * bits_per_round(s) >= bits as f64 {
        r - 1
    } else {
        r.max(1)
    }
}

/// The security in bits achieved by `rounds` rounds: `rounds · log2(S/(S−1))`.
pub fn achieved_bits(rounds: usize, s: usize) -> f64 {
    rounds as f64 * bits_per_round(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{tee, tee_solution};
    use crate::iso::Iso;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn an_opened_triplet_with_a_repeated_vertex_is_rejected() {
        // A forged move along (a, a, b): rows differ on {a, b} only.
        let inst = tee();
        let mut rng = seeded_rng(4);
        let bad_t = [0u32, 0, 2];
        let before = vec![true, false, false, true, true];
        let after = vec![false, false, true, true, true];
        assert!(
            is_legal_step(&bad_t, &before, &after),
            "the paper's check alone accepts it"
        );
        let rows = vec![
            inst.first().to_vec(),
            before,
            after,
            inst.last().unwrap().to_vec(),
        ];
        let triplets = vec![bad_t, [1, 3, 4]];
        let sec = commit_values(Iso::identity(5, 2), triplets, rows, &mut rng);
        let r = respond_with(&inst, &sec, 2, Some(0));
        let e = verify_round(&inst, 2, &r).unwrap_err();
        assert!(e.contains("distinct"), "{e}");
    }

    #[test]
    fn rounds_match_the_issue() {
        assert_eq!(rounds_for_bits(128, 32), 2795);
        assert!(achieved_bits(2795, 32) >= 128.0);
        assert!(achieved_bits(2794, 32) < 128.0);
    }

    #[test]
    fn honest_rounds_verify_for_every_challenge() {
        let inst = tee();
        let z = tee_solution();
        let mut rng = seeded_rng(1);
        for _ in 0..50 {
            let sec = commit_round(&inst, &z, &mut rng);
            for sigma in 1..=inst.s() {
                let r = respond(&inst, &sec, sigma);
                assert_eq!(verify_round(&inst, sigma, &r), Ok(sec.root));
                if sigma > 1 {
                    assert!(verify_round(&inst, sigma - 1, &r).is_err());
                }
            }
        }
    }
}
