//! Parameter sets of the VOLE-in-the-head engine and their security.

use serde::{Deserialize, Serialize};

use zkgames_core::Error;
use zkgames_core::Result;

/// The most bits of `Δ` (it lives in GF(2^128)).
pub const MAX_DELTA_BITS: u32 = 128;
/// The most leaves of one repetition's tree (`k ≤ 16`): bounds prover and verifier work
/// per repetition to `2^16` PRG expansions.
pub const MAX_K: u32 = 16;
/// The most grinding bits (the honest prover's expected work is `2^w` hashes).
pub const MAX_GRIND: u32 = 16;
/// The largest bound `T` on the opened seeds (one varint byte; `0` is no bound).
pub const MAX_OPEN: u32 = 250;
/// The bits of the consistency check (`chall1`: two universal hashes with independent keys,
/// one of 128 bits and one truncated to 16): an error passes both with probability `2^-144`.
pub const CONSISTENCY_BITS: f64 = 144.0;
/// The bits of the QuickSilver check (`chall2`: one combination with coefficients over
/// GF(2^128)): a wrong witness makes it vanish with probability `2^-128`.
pub const QUICKSILVER_BITS: f64 = 128.0;

/// `τ` repetitions sharing `Δ`'s `delta_bits` bits (repetition `i` has `2^{k_i}` leaves,
/// `Σ k_i = delta_bits`, [`Params::k`]), `grind` bits of proof of work on `Δ`, and the bound
/// `open` on the seeds that open the tree ([`super::vc`]).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct Params {
    /// `τ`: repetitions (all-but-one vector commitments), `1 ≤ τ ≤ delta_bits`.
    pub tau: u32,
    /// `Σ k_i`: the bits of `Δ`, `τ ≤ delta_bits ≤ 128`, with every `k_i ≤ 16`.
    pub delta_bits: u32,
    /// `w`: the Fiat–Shamir challenge for `Δ` is valid only if the `w` bits after `Δ`'s are
    /// zero (the prover tries counters), `0 ≤ w ≤ 16`.
    pub grind: u32,
    /// `T`: a non-interactive proof's `Δ` is valid only if it opens the tree with at most `T`
    /// seeds, and the proof pads them to exactly `T` (`1 ≤ T ≤ 250`); `0`: no bound, exactly
    /// the opened seeds (live sessions). Neither soundness nor the verifier's work depends on
    /// `T`: it trades the proof's size against the prover's grinding ([`admissible_share`]).
    pub open: u32,
}

impl Params {
    /// Parameters with no bound on the opening (`open = 0`).
    pub const fn new(tau: u32, delta_bits: u32, grind: u32) -> Self {
        Params::bounded(tau, delta_bits, grind, 0)
    }

    pub const fn bounded(tau: u32, delta_bits: u32, grind: u32, open: u32) -> Self {
        Params {
            tau,
            delta_bits,
            grind,
            open,
        }
    }

    /// Checks the limits; the message names the offending value.
    pub fn check(&self) -> Result<()> {
        let (t, d, w) = (self.tau, self.delta_bits, self.grind);
        if d == 0 || d > MAX_DELTA_BITS {
            return Err(Error::bad(format!(
                "VOLE parameters: Δ of {d} bits, must be in [1, {MAX_DELTA_BITS}]"
            )));
        }
        if t == 0 || t > d {
            return Err(Error::bad(format!(
                "VOLE parameters: {t} repetitions, must be in [1, {d}]"
            )));
        }
        if d.div_ceil(t) > MAX_K {
            return Err(Error::bad(format!(
                "VOLE parameters: {t} repetitions for {d} bits of Δ need trees of more than 2^{MAX_K} leaves"
            )));
        }
        if w > MAX_GRIND || d + w > 256 {
            return Err(Error::bad(format!(
                "VOLE parameters: {w} grinding bits, must be at most {MAX_GRIND}"
            )));
        }
        if self.open > MAX_OPEN {
            return Err(Error::bad(format!(
                "VOLE parameters: a bound of {} opened seeds, must be at most {MAX_OPEN} (or 0, no bound)",
                self.open
            )));
        }
        Ok(())
    }

    /// The form of this set a live session runs (docs/PROTOCOLS.md 7.10): a session has no
    /// grinding (the verifier draws `Δ`, one try per session), so the `w` grinding bits become
    /// bits of `Δ`, as far as the field (128) and the trees (`16·τ`) allow:
    /// `(τ, min(D + w, 128, 16τ), 0)`, with no bound on the opening (`T = 0`: the verifier's
    /// `Δ` is uniform, the prover sends exactly the seeds it opens). Its `Δ` term, `2^{1−D'}` per session, is then the
    /// proof's `ε₃` (`2^{1−D−w}`) up to the field's cap: `2^-127` for both 128-bit sets.
    pub fn session(&self) -> Params {
        let d = (self.delta_bits + self.grind)
            .min(MAX_DELTA_BITS)
            .min(MAX_K * self.tau)
            .max(self.delta_bits);
        Params::new(self.tau, d, 0)
    }

    pub fn tau(&self) -> usize {
        self.tau as usize
    }

    /// `k_i`: the first `delta_bits mod τ` repetitions have `⌈delta_bits/τ⌉` bits, the
    /// others `⌊delta_bits/τ⌋`.
    pub fn k(&self, i: usize) -> u32 {
        let (q, r) = (self.delta_bits / self.tau, self.delta_bits % self.tau);
        q + ((i as u32) < r) as u32
    }

    /// `Σ_{i' < i} k_{i'}`: where repetition `i`'s bits start in `Δ`.
    pub fn offset(&self, i: usize) -> u32 {
        (0..i).map(|j| self.k(j)).sum()
    }
}

impl std::fmt::Display for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // parameters read from a file may be anything: the leaf counts are derived (a
        // division by τ) only from parameters that pass their check
        if self.check().is_err() {
            return write!(
                f,
                "τ = {} repetitions, {}-bit Δ, {} grinding bits, T = {} (invalid)",
                self.tau, self.delta_bits, self.grind, self.open
            );
        }
        let open = match self.open {
            0 => String::new(),
            t => format!(", at most {t} opened seeds"),
        };
        let (kmax, kmin) = (self.k(0), self.k(self.tau() - 1));
        let ks = if kmax == kmin {
            format!("N = 2^{kmax}")
        } else {
            format!("N = 2^{kmax}/2^{kmin}")
        };
        write!(
            f,
            "τ = {} repetitions, {ks}, {}-bit Δ, {} grinding bits{open}",
            self.tau, self.delta_bits, self.grind
        )
    }
}

/// The Fiat–Shamir security of a proof in bits: `−log2 max(ε₁, ε₂, ε₃)`, from the per-query
/// errors of its three phases (docs/PROTOCOLS.md, 7.9), the number a verifier's required
/// level is compared with.
///
/// A forger spends each random-oracle query on one of three challenges (the tags keep them
/// apart: no query is two phases' at once): the two universal hashes of the VOLE check
/// (`chall1`: the 128-bit one and the 16-bit one must both vanish on its error,
/// `ε₁ = 2^-144`), the QuickSilver combination (`chall2`: it must vanish on a wrong witness,
/// `ε₂ = 2^-128`), or `Δ` itself (`chall3`: three roots at most of a nonzero polynomial of
/// degree 3 or less among `2^delta_bits` values, and one query in `2^w` is a valid
/// challenge, `ε₃ = 3·2^{−delta_bits−w}`). With `Q_i` queries on phase `i` its success is at most
/// `Q₁ε₁ + Q₂ε₂ + Q₃ε₃ ≤ (Q₁ + Q₂ + Q₃)·max εᵢ`: spreading queries over phases never beats
/// spending them all on the weakest. (`v3`–`v8` returned `−log2(ε₁ + ε₂ + ε₃)`, a looser
/// bound by at most `log2 3` bits, and ran two QuickSilver combinations to meet it.)
///
/// Misuse: this is the non-interactive figure. A live session has no grinding (the verifier
/// draws `Δ`): it runs [`Params::session`], whose `Δ` term is `2^{1−D'}` per session for a
/// circuit of degree 2, `3·2^{−D'}` with norm bytes (7.10).
pub fn attack_cost_bits(p: &Params) -> f64 {
    let delta = MAX_DEGREE.log2() - p.delta_bits as f64 - p.grind as f64;
    -delta.max(-CONSISTENCY_BITS).max(-QUICKSILVER_BITS)
}

/// The most roots a cheating prover's check polynomial in `Δ` has: its degree, 3 for a
/// circuit with norm bytes (2 otherwise; [`attack_cost_bits`] counts 3 for every statement,
/// a bound that holds for all of them).
pub const MAX_DEGREE: f64 = 3.0;

/// The offered trade-offs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Smaller proofs: `τ = 11` repetitions of `2^10`–`2^11` leaves for a 116-bit `Δ`, 14
    /// grinding bits, and at most `T = 108` opened seeds (about half the `Δ`s are admissible,
    /// 7.2: `2^15` one-compression hashes for the honest prover, fewer compressions than `v6`'s
    /// `2^14` tries of three): eight seeds fewer than the trees' 116 levels. FAEST-128s's trees
    /// (`D = 121`, `w = 9`, `T = 101`) would save seven more seeds for 29 % more leaves to
    /// expand (PROTOCOLS.md 7.2).
    Size,
    /// Faster proving and verifying: `τ = 17` repetitions (one of `2^8` leaves, sixteen of
    /// `2^7`) for a 120-bit `Δ`, 10 grinding bits and at most `T = 108` opened seeds (about
    /// 0.63 of the `Δ`s). The verifier's time is mostly the leaves' expansion: 2,304 leaves
    /// against FAEST-128f's 3,072 (`τ = 16` of `2^7`–`2^8`), for one more correction (`v10`
    /// and before: `τ = 20` of `2^6`, `T = 104`, proofs 662 B longer; PROTOCOLS.md 7.2).
    Speed,
}

impl Profile {
    /// Every offered set, in the order a verifier replaying a session tries them.
    pub const ALL: [Profile; 2] = [Profile::Size, Profile::Speed];

    /// `(τ, D, T)` at 128 bits; `w = 130 − D` (14 and 10 grinding bits).
    fn shape128(self) -> (u32, u32, u32) {
        match self {
            Profile::Size => (11, 116, 108),
            Profile::Speed => (17, 120, 108),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::Size => "size",
            Profile::Speed => "speed",
        }
    }
}

/// The parameters of `profile` at `bits` bits (`1 ≤ bits ≤ 128`): `Δ` of
/// `D = ⌈D₁₂₈ · bits / 128⌉` bits, `w = bits + 2 − D` grinding bits (so
/// `ε₃ = 3·2^{−bits−2} < 2^{−bits}`, three roots of a relation of degree 3, and
/// [`attack_cost_bits`] `= min(bits + 2 − log2 3, 128) ≥ bits`),
/// `τ = ⌈τ₁₂₈ · bits / 128⌉` (capped at `D`). At 128 bits: size `(τ, D, w, T) = (11, 116, 14,
/// 108)` (six trees of `2^11` leaves, five of `2^10`), speed `(17, 120, 10, 108)` (one tree of `2^8`, sixteen of `2^7`);
/// below 128 bits the opening is not bounded (`T = 0`: its distribution was measured for the
/// 128-bit trees only, and a bound too tight for other trees would make the prover grind
/// without end).
pub fn params_for(bits: u32, profile: Profile) -> Result<Params> {
    if !(1..=128).contains(&bits) {
        return Err(Error::bad(format!(
            "{bits} bits of security: the VOLE engine offers 1 to 128 (its field is GF(2^128))"
        )));
    }
    let (tau128, d128, t128) = profile.shape128();
    let d = (d128 * bits).div_ceil(128);
    let tau = (tau128 * bits).div_ceil(128).clamp(1, d);
    let open = if bits == 128 { t128 } else { 0 };
    let p = Params::bounded(tau, d, bits + 2 - d, open);
    p.check()?;
    debug_assert!(attack_cost_bits(&p) >= bits as f64);
    Ok(p)
}

/// The share of challenges `Δ` (uniform) that open the tree with at most `t` seeds, estimated
/// on `samples` challenges drawn from a generator seeded with `seed` (tests and the docs'
/// figures: the honest prover's grinding takes `2^w` over this share hashes on average).
pub fn admissible_share(p: &Params, t: u32, samples: usize, seed: u64) -> f64 {
    use rand_core::{RngCore, SeedableRng};
    let lay = super::vc::Layout::new(p);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    let ok = (0..samples)
        .filter(|_| {
            let hidden: Vec<u32> = (0..p.tau())
                .map(|i| (rng.next_u64() & ((1u64 << p.k(i)) - 1)) as u32)
                .collect();
            super::vc::opened(&lay, &hidden).len() <= t as usize
        })
        .count();
    ok as f64 / samples as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_sets_reach_their_bits_and_split_delta_exactly() {
        for bits in 1..=128 {
            for prof in Profile::ALL {
                let p = params_for(bits, prof).unwrap();
                assert!(attack_cost_bits(&p) >= bits as f64, "{bits} {p}");
                // the weakest phase, computed directly: ε₁ = 2^-144, ε₂ = 2^-128,
                // ε₃ = 3·2^{−D−w}
                let worst = [
                    2f64.powi(-144),
                    2f64.powi(-128),
                    3.0 * 2f64.powi(-((p.delta_bits + p.grind) as i32)),
                ]
                .into_iter()
                .fold(0f64, f64::max);
                assert!((attack_cost_bits(&p) + worst.log2()).abs() < 1e-9);
                let want = (bits as f64 + 2.0 - 3f64.log2()).min(128.0);
                assert!((attack_cost_bits(&p) - want).abs() < 1e-9, "{bits} {p}");
                let s: u32 = (0..p.tau()).map(|i| p.k(i)).sum();
                assert_eq!(s, p.delta_bits);
                assert_eq!(p.offset(p.tau()), p.delta_bits);
                assert!((0..p.tau()).all(|i| p.k(i) >= 1 && p.k(i) <= MAX_K));
            }
        }
        let s = params_for(128, Profile::Size).unwrap();
        assert_eq!((s.tau, s.delta_bits, s.grind, s.open), (11, 116, 14, 108));
        assert_eq!((s.k(0), s.k(10)), (11, 10));
        assert_eq!((0..11).filter(|&i| s.k(i) == 11).count(), 6);
        let f = params_for(128, Profile::Speed).unwrap();
        assert_eq!((f.tau, f.delta_bits, f.grind, f.open), (17, 120, 10, 108));
        assert_eq!((f.k(0), f.k(1), f.k(16)), (8, 7, 7));
        assert_eq!(super::super::vc::Layout::new(&f).leaves(), 2_304);
        // QuickSilver's 2^-128 is the weakest phase of both (Δ's is 3·2^-130)
        for p in [s, f] {
            assert_eq!(attack_cost_bits(&p), 128.0);
        }
        // and of any set: D + w = 144 leaves it at 128 bits
        assert_eq!(attack_cost_bits(&Params::new(16, 128, 16)), 128.0);
        // a weaker Δ is the weakest phase: D = 100, w = 10 gives 3·2^-110
        let b = attack_cost_bits(&Params::new(10, 100, 10));
        assert!((b - (110.0 - 3f64.log2())).abs() < 1e-9, "{b}");
        // sessions: grinding moved into Δ, 2·2^-D' per session ≥ b bits below 128, 127 at 128
        for bits in 1..=128 {
            for prof in Profile::ALL {
                let p = params_for(bits, prof).unwrap();
                let q = p.session();
                q.check().unwrap();
                assert_eq!((q.tau, q.grind, q.open), (p.tau, 0, 0));
                assert_eq!(q.delta_bits, (bits + 2).min(128), "{bits} {p}");
                assert!((q.delta_bits - 1) as f64 >= (bits as f64).min(127.0));
            }
        }
        assert_eq!(s.session(), Params::new(11, 128, 0));
        assert_eq!(params_for(127, Profile::Size).unwrap().open, 0);
        assert!(Params::bounded(1, 4, 0, MAX_OPEN + 1).check().is_err());
        assert!(Params::bounded(1, 4, 0, MAX_OPEN).check().is_ok());
        assert_eq!(f.session(), Params::new(17, 128, 0));
        assert_eq!(Params::new(1, 16, 8).session(), Params::new(1, 16, 0));
        assert!(params_for(129, Profile::Size).is_err());
        assert!(Params::new(1, 17, 0).check().is_err());
        assert!(Params::new(0, 4, 0).check().is_err());
        assert!(Params::new(5, 4, 0).check().is_err());
    }

    /// The 128-bit bounds admit the share of challenges the profiles' documents say
    /// (PROTOCOLS 7.2): the size set's `T = 108` about half (so `2^14` grinding bits cost
    /// about `2^15` hashes), `T = 107` about 0.41; the speed set's `T = 108` about 0.63,
    /// `T = 106` about 0.47; FAEST-128s's trees (`D = 121`) with `T = 101`, about `2^-6`. 40,000
    /// challenges each: a share of a half is estimated within 1 %.
    #[test]
    fn the_128_bit_bounds_admit_the_documented_share() {
        let s = params_for(128, Profile::Size).unwrap();
        let f = params_for(128, Profile::Speed).unwrap();
        let n = 40_000;
        let a = admissible_share(&s, 108, n, 1);
        assert!(a > 0.495 && a < 0.525, "{a}");
        let b = admissible_share(&s, 107, n, 2);
        assert!(b > 0.40 && b < 0.43, "{b}");
        let faest = admissible_share(&Params::new(11, 121, 9), 101, n, 6);
        assert!(
            faest > 2f64.powf(-6.05) && faest < 2f64.powf(-5.75),
            "{faest}"
        );
        let c = admissible_share(&f, 108, n, 3);
        assert!(c > 0.62 && c < 0.65, "{c}");
        let d = admissible_share(&f, 106, n, 4);
        assert!(d > 0.455 && d < 0.48, "{d}");
        // no bound: every challenge (these trees never need more than 250 seeds)
        assert_eq!(admissible_share(&s, MAX_OPEN, 2_000, 5), 1.0);
    }
}
