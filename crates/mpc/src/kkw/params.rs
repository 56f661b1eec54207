//! KKW parameter sets and the cost of the best known forgery against each.

use super::{MAX_EXECUTIONS, MAX_PARTIES, MAX_PARTY_EXECUTIONS};
use serde::{Deserialize, Serialize};
use zkgames_core::Error;
use zkgames_core::Result;

/// `M` executions, `τ` of them online, `N` parties each.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct Params {
    /// `M`: executions (preprocessing), `1 ≤ τ ≤ M ≤ 4096`.
    pub executions: u32,
    /// `τ`: executions run online.
    pub online: u32,
    /// `N`: parties per execution, a power of two in `[2, 64]`.
    pub parties: u32,
}

impl Params {
    pub const fn new(executions: u32, online: u32, parties: u32) -> Self {
        Params {
            executions,
            online,
            parties,
        }
    }

    /// Checks the limits; the message names the offending value.
    pub fn check(&self) -> Result<()> {
        let (m, t, n) = (self.executions, self.online, self.parties);
        if !(2..=MAX_PARTIES).contains(&n) || !n.is_power_of_two() {
            return Err(Error::bad(format!(
                "KKW parameters: {n} parties, must be a power of two in [2, {MAX_PARTIES}]"
            )));
        }
        if m == 0 || m > MAX_EXECUTIONS {
            return Err(Error::bad(format!(
                "KKW parameters: {m} executions, must be in [1, {MAX_EXECUTIONS}]"
            )));
        }
        if t == 0 || t > m {
            return Err(Error::bad(format!(
                "KKW parameters: {t} online executions, must be in [1, {m}]"
            )));
        }
        if m as u64 * n as u64 > MAX_PARTY_EXECUTIONS {
            return Err(Error::bad(format!(
                "KKW parameters: {m} executions of {n} parties exceed the limit of {MAX_PARTY_EXECUTIONS} party-executions"
            )));
        }
        Ok(())
    }

    pub(super) fn m(&self) -> usize {
        self.executions as usize
    }
    pub(super) fn tau(&self) -> usize {
        self.online as usize
    }
    pub(super) fn n(&self) -> usize {
        self.parties as usize
    }
}

impl std::fmt::Display for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "M = {} executions, τ = {} online, N = {} parties",
            self.executions, self.online, self.parties
        )
    }
}

/// `log2(C(M, s) / C(τ, s))` for `s = 0 … τ`: the cost, in hash evaluations, of waiting for
/// a challenge that puts `s` chosen executions all in the online set.
pub(super) fn preprocessing_terms(p: &Params) -> Vec<f64> {
    let (m, t) = (p.executions as f64, p.online as usize);
    let mut out = Vec::with_capacity(t + 1);
    let mut acc = 0.0f64;
    out.push(acc);
    for i in 0..t {
        acc += ((m - i as f64) / (t - i) as f64).log2();
        out.push(acc);
    }
    out
}

/// Security of the Fiat–Shamir proof, in bits: `log2` of the expected number of hash
/// evaluations of the best known forgery against this transform,
///
/// ```text
/// min over s = 0 … τ of  log2( C(M, s) / C(τ, s) ) + (τ − s)·log2(N)
/// ```
///
/// The forger corrupts the preprocessing of `s` executions (they then pass online whatever
/// party stays hidden) and cheats in one party of every other online execution. One
/// challenge hash covers both the preprocessing and the online commitments, so each
/// evaluation gives a fresh, independent pair (online set, hidden parties): it succeeds when
/// the `s` corrupted executions are all online (probability `C(M−s, τ−s)/C(M, τ) =
/// C(τ, s)/C(M, s)`) and each of the other `τ − s` hides the cheating party (`N^−(τ−s)`).
///
/// Parameters that fail [`Params::check`] (read from a file, say) give 0: no security, and no
/// work on them.
pub fn attack_cost_bits(p: &Params) -> f64 {
    // parameters read from a file may be anything: invalid ones give no security, and the
    // τ + 1 terms below are never allocated for them (τ = u32::MAX would be 32 GiB)
    if p.check().is_err() {
        return 0.0;
    }
    let ln = (p.parties as f64).log2();
    let t = p.online as usize;
    preprocessing_terms(p)
        .iter()
        .enumerate()
        .map(|(s, a)| a + (t - s) as f64 * ln)
        .fold(f64::INFINITY, f64::min)
}

/// The Kales–Zaverucha cost (CANS 2020) if the two challenges were derived by two separate
/// hashes (the online set from the preprocessing commitments alone, the hidden parties from
/// the online commitments): the forger then grinds the two hashes one after the other, and
/// the costs add instead of multiply,
///
/// ```text
/// min over s of  log2( C(M, s) / C(τ, s)  +  N^(τ − s) )
/// ```
///
/// This crate does not derive challenges that way; the figure is reported to show what the
/// single hash buys (see `docs/PROTOCOLS.md`, 6.8).
pub fn split_attack_cost_bits(p: &Params) -> f64 {
    if p.check().is_err() {
        return 0.0;
    }
    let ln = (p.parties as f64).log2();
    let t = p.online as usize;
    preprocessing_terms(p)
        .iter()
        .enumerate()
        .map(|(s, &a)| {
            let b = (t - s) as f64 * ln;
            let hi = a.max(b);
            hi + (1.0 + (a.min(b) - hi).exp2()).log2()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The offered trade-offs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Smaller proofs: more parties, fewer online executions, more preprocessing work.
    Size,
    /// Faster proving and verifying: Picnic3-L1's shape (16 parties).
    Speed,
    /// The smallest proofs within the engine's limits (64 parties, the most allowed), at
    /// about 3.6 times the size set's work: for when bytes cost far more than time.
    Smallest,
}

impl Profile {
    /// Every offered set, in the order a verifier replaying a session tries them.
    pub const ALL: [Profile; 3] = [Profile::Size, Profile::Speed, Profile::Smallest];
}

impl Profile {
    /// `(N, τ at 128 bits)` of the profile.
    pub(super) fn shape(self) -> (u32, u32) {
        match self {
            Profile::Size => (32, 27),
            Profile::Speed => (16, 36),
            // 64^22 = 2^132 ≥ 2^128: the fewest online executions any N ≤ 64 allows
            Profile::Smallest => (64, 22),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::Size => "size",
            Profile::Speed => "speed",
            Profile::Smallest => "smallest",
        }
    }
}

/// The parameters of `profile` for `bits` bits (`1 ≤ bits ≤ 256`): `N` fixed by the profile,
/// `τ = ⌈τ₁₂₈ · bits / 128⌉`, and `M` the smallest value with [`attack_cost_bits`] `≥ bits`.
/// At 128 bits: size `(M, τ, N) = (462, 27, 32)`, speed `(250, 36, 16)`, smallest
/// `(842, 22, 64)`.
pub fn params_for(bits: u32, profile: Profile) -> Result<Params> {
    if !(1..=256).contains(&bits) {
        return Err(Error::bad(format!(
            "{bits} bits of security: must be in [1, 256]"
        )));
    }
    let (n, t128) = profile.shape();
    let tau = (t128 * bits).div_ceil(128).max(1);
    // the cost grows with M; find the smallest M that reaches `bits`
    let max_m = MAX_EXECUTIONS.min((MAX_PARTY_EXECUTIONS / n as u64) as u32);
    let ok = |m: u32| attack_cost_bits(&Params::new(m, tau, n)) >= bits as f64;
    if !ok(max_m) {
        return Err(Error::bad(format!(
            "no KKW parameters with {n} parties reach {bits} bits within the limits"
        )));
    }
    let (mut lo, mut hi) = (tau, max_m);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(Params::new(lo, tau, n))
}
