//! Parameter sets of the VOLE-in-the-head engine and their security.

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// The most bits of `Δ` (it lives in GF(2^128)).
pub const MAX_DELTA_BITS: u32 = 128;
/// The most leaves of one repetition's tree (`k ≤ 16`): bounds prover and verifier work
/// per repetition to `2^16` PRG expansions.
pub const MAX_K: u32 = 16;
/// The most grinding bits (the honest prover's expected work is `2^w` hashes).
pub const MAX_GRIND: u32 = 16;
/// The bit security of the universal-hash and QuickSilver challenges: their field's size.
pub const FIELD_BITS: f64 = 128.0;

/// `τ` repetitions sharing `Δ`'s `delta_bits` bits (repetition `i` has `2^{k_i}` leaves,
/// `Σ k_i = delta_bits`, [`Params::k`]), and `grind` bits of proof of work on `Δ`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct Params {
    /// `τ`: repetitions (all-but-one vector commitments), `1 ≤ τ ≤ delta_bits`.
    pub tau: u32,
    /// `Σ k_i`: the bits of `Δ`, `τ ≤ delta_bits ≤ 128`, with every `k_i ≤ 16`.
    pub delta_bits: u32,
    /// `w`: the Fiat–Shamir challenge for `Δ` is valid only if the `w` bits after `Δ`'s are
    /// zero (the prover tries counters), `0 ≤ w ≤ 16`.
    pub grind: u32,
}

impl Params {
    pub const fn new(tau: u32, delta_bits: u32, grind: u32) -> Self {
        Params {
            tau,
            delta_bits,
            grind,
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
        Ok(())
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
                "τ = {} repetitions, {}-bit Δ, {} grinding bits (invalid)",
                self.tau, self.delta_bits, self.grind
            );
        }
        let (kmax, kmin) = (self.k(0), self.k(self.tau() - 1));
        let ks = if kmax == kmin {
            format!("N = 2^{kmax}")
        } else {
            format!("N = 2^{kmax}/2^{kmin}")
        };
        write!(
            f,
            "τ = {} repetitions, {ks}, {}-bit Δ, {} grinding bits",
            self.tau, self.delta_bits, self.grind
        )
    }
}

/// The cost in bits (`log2` of the expected hash evaluations) of the cheapest *single* phase
/// of a Fiat–Shamir forgery attacked alone, `min(128, delta_bits − 1 + w)`: the number a
/// verifier's required level is compared with.
///
/// A forger must get through one of three challenges (docs/PROTOCOLS.md, 7.9): the
/// universal hash of the VOLE check (`chall1`: `2^-128` per try), QuickSilver's random
/// combination (`chall2`: `2^-128` per try), or `Δ` itself (`chall3`: two roots of a
/// degree-2 polynomial, `2·2^-delta_bits` per valid try, each costing `2^w` hashes).
///
/// Misuse: this is not the proof's Fiat–Shamir security, which is bounded by the *sum* of
/// the phases' per-query errors: `−log2(2^-128 + 2^-128 + 2^{1−delta_bits−w})`, 126.99 bits
/// for the offered 128-bit sets (7.9 says what would restore 128).
pub fn attack_cost_bits(p: &Params) -> f64 {
    let delta = p.delta_bits as f64 - 1.0 + p.grind as f64;
    delta.min(FIELD_BITS)
}

/// The offered trade-offs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Smaller proofs: `τ = 11` repetitions of `2^11`–`2^12` leaves (FAEST-128s' shape).
    Size,
    /// Faster proving and verifying: `τ = 20` repetitions of `2^6`–`2^7` leaves. The verifier's
    /// time is mostly the leaves' expansion, so 1,792 leaves (FAEST-128f's `τ = 16` of `2^8`
    /// would be 4,096) verify SHA-256 in about 0.7× ZKB++'s time, for four more corrections
    /// (about 24 % larger proofs than `τ = 16`).
    Speed,
}

impl Profile {
    /// Every offered set, in the order a verifier replaying a session tries them.
    pub const ALL: [Profile; 2] = [Profile::Size, Profile::Speed];

    fn tau128(self) -> u32 {
        match self {
            Profile::Size => 11,
            Profile::Speed => 20,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::Size => "size",
            Profile::Speed => "speed",
        }
    }
}

/// Grinding bits of the offered sets: `2^8` hashes for the honest prover (well under a
/// millisecond), and the `Δ` guess then costs `2^135` hashes, above the other terms.
pub const GRIND: u32 = 8;

/// The parameters of `profile` at `bits` bits (`1 ≤ bits ≤ 128`): `delta_bits = bits`,
/// `τ = ⌈τ₁₂₈ · bits / 128⌉`, `w = 8`. At 128 bits: size `τ = 11` (seven trees of `2^12`
/// leaves, four of `2^11`), speed `τ = 20` (eight trees of `2^7` leaves, twelve of `2^6`);
/// both reach 128 bits.
pub fn params_for(bits: u32, profile: Profile) -> Result<Params> {
    if !(1..=128).contains(&bits) {
        return Err(Error::bad(format!(
            "{bits} bits of security: the VOLE engine offers 1 to 128 (its field is GF(2^128))"
        )));
    }
    let tau = (profile.tau128() * bits).div_ceil(128).clamp(1, bits);
    let p = Params::new(tau, bits, GRIND);
    p.check()?;
    debug_assert!(attack_cost_bits(&p) >= bits as f64);
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_sets_reach_their_bits_and_split_delta_exactly() {
        for bits in 1..=128 {
            for prof in Profile::ALL {
                let p = params_for(bits, prof).unwrap();
                assert!(attack_cost_bits(&p) >= bits as f64);
                let s: u32 = (0..p.tau()).map(|i| p.k(i)).sum();
                assert_eq!(s, p.delta_bits);
                assert_eq!(p.offset(p.tau()), p.delta_bits);
                assert!((0..p.tau()).all(|i| p.k(i) >= 1 && p.k(i) <= MAX_K));
            }
        }
        let s = params_for(128, Profile::Size).unwrap();
        assert_eq!((s.tau, s.k(0), s.k(10)), (11, 12, 11));
        assert_eq!((0..11).filter(|&i| s.k(i) == 12).count(), 7);
        let f = params_for(128, Profile::Speed).unwrap();
        assert_eq!((f.tau, f.k(0), f.k(7), f.k(8), f.k(19)), (20, 7, 7, 6, 6));
        assert_eq!(attack_cost_bits(&s), 128.0);
        assert!(params_for(129, Profile::Size).is_err());
        assert!(Params::new(1, 17, 0).check().is_err());
        assert!(Params::new(0, 4, 0).check().is_err());
        assert!(Params::new(5, 4, 0).check().is_err());
    }
}
