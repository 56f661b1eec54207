//! KKW (Katz, Kolesnikov, Wang, CCS 2018; the proof system of Picnic3) over [`Circuit`]s.
//!
//! Each of `M` executions runs the circuit as an `N`-party computation with a preprocessing
//! phase. Every wire `v` has a random mask `λ_v = ⊕_i λ_{v,i}` shared among the parties,
//! and the parties learn only the masked value `v̂ = v ⊕ λ_v`:
//! * inputs: masks from the parties' tapes; the masked input `x̂ = w ⊕ λ_in` is public;
//! * `Xor`, `Not`: masks XOR (or are copied), masked values XOR (or are negated);
//! * `And(a, b)` with output `c`: `λ_c` and shares `λ_{ab,i}` come from the tapes for parties
//!   `0 … N−2`; party `N−1`'s share of `λ_ab` is the *auxiliary bit*
//!   `aux = λ_a λ_b ⊕ ⊕_{i<N−1} λ_{ab,i}`, so that `⊕_i λ_{ab,i} = λ_a λ_b`. Online, party `i`
//!   broadcasts `s_i = λ_{c,i} ⊕ â λ_{b,i} ⊕ b̂ λ_{a,i} ⊕ λ_{ab,i}` and everyone sets
//!   `ĉ = â b̂ ⊕ ⊕_i s_i` (which is `ab ⊕ λ_c`);
//! * outputs: the parties reveal their mask shares and `y = v̂ ⊕ λ_v`.
//!
//! The prover commits to the preprocessing of every execution (seeds, with `aux` in party
//! `N−1`'s commitment) and to the online phase of every execution (masked input, all
//! broadcasts, all output shares), then one Fiat–Shamir hash picks `τ` executions to run
//! online and, in each, the one party `p` that stays hidden. Executions outside the set are
//! opened completely (their seed) and checked to be honest preprocessing; in the others the
//! verifier recomputes the `N − 1` opened parties' broadcasts from their seeds and takes
//! party `p`'s from the proof. A cheater must either corrupt the preprocessing of executions
//! that all land in the online set, or guess `p` in each honest online execution: see
//! [`attack_cost_bits`] for the exact cost, which the parameter sets bound by 2^128.
//!
//! Seeds: one root seed per proof expands (GGM, [`super::seedtree`]) into `M` execution
//! seeds, each of which expands into `N` party seeds; all but `τ` execution seeds, and in each
//! online execution all but one party seed, are revealed with about `log` as many seeds.
//! The online commitments are the leaves of a Merkle tree ([`crate::merkle`]): the verifier
//! recomputes the `τ` online leaves and receives the siblings.
//!
//! Speed: the online phase runs bitsliced with one `u64` lane per (execution, party): `64/N`
//! executions per word, their party shares side by side; a preprocessing-only execution needs
//! only the XOR of all parties' tapes and runs 64 executions per word. Groups run on rayon.
//!
//! The bytes are specified in `docs/PROTOCOLS.md` (section 5).

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::bitmatrix::transpose64;
use super::circuit::{Bit, Circuit, Gate};
use super::seedtree::{self, Seed, SeedTree, TreeId};
use super::zkbpp::{pack_bools, Statement};
use crate::commit::Digest;
use crate::transcript::{ChallengeStream, Transcript};
use crate::{Error, Result};

/// The most executions a proof may have.
pub const MAX_EXECUTIONS: u32 = 4096;
/// The most parties per execution (one `u64` lane each).
pub const MAX_PARTIES: u32 = 64;
/// The most (execution, party) pairs a proof may have: bounds the verifier's work.
pub const MAX_PARTY_EXECUTIONS: u64 = 1 << 16;

/// The tree number of the execution-seed tree (party trees use the execution index).
const EXEC_TREE: u32 = u32::MAX;

// ---------------------------------------------------------------------------------------
// parameters and their security

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

    fn m(&self) -> usize {
        self.executions as usize
    }
    fn tau(&self) -> usize {
        self.online as usize
    }
    fn n(&self) -> usize {
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
fn preprocessing_terms(p: &Params) -> Vec<f64> {
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
/// single hash buys (see `docs/PROTOCOLS.md`, 5.7).
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
    fn shape(self) -> (u32, u32) {
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

// ---------------------------------------------------------------------------------------
// proof structures

/// The opened part of one online execution.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct OnlineOpening {
    /// The key of the execution's online commitment (keeps the online commitments of the
    /// executions whose seeds are all revealed hiding).
    pub key: [u8; 32],
    /// Seed-tree nodes revealing every party seed but the hidden party's (`log2 N` seeds).
    pub party_seeds: Vec<Seed>,
    /// The hidden party's commitment.
    pub commitment: Digest,
    /// Party `N−1`'s auxiliary bits, packed (`ceil(n_and/8)` bytes); empty if it is hidden.
    pub aux: Vec<u8>,
    /// The masked input `x̂`, packed (`ceil(n_in/8)` bytes).
    pub masked_input: Vec<u8>,
    /// The hidden party's broadcast bits, one per AND gate, packed.
    pub msgs: Vec<u8>,
}

/// The prover's answer to a challenge.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Response {
    /// Seed-tree nodes revealing the seeds of every execution outside the online set.
    pub exec_seeds: Vec<Seed>,
    /// Merkle siblings opening the online leaves of the online set.
    pub online_path: Vec<Digest>,
    /// One per online execution, in increasing execution order.
    pub online: Vec<OnlineOpening>,
}

/// A non-interactive KKW proof.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Proof {
    pub params: Params,
    pub salt: [u8; 32],
    /// The Fiat–Shamir challenge hash (the online set and hidden parties are derived from it).
    pub challenge: Digest,
    pub response: Response,
}

/// The prover's first message in the interactive form (hashed, not sent, in a proof).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CommitMsg {
    pub salt: [u8; 32],
    /// `h_j`, the preprocessing commitment of every execution.
    pub preprocessing: Vec<Digest>,
    /// The Merkle root of the online commitments `h'_j`.
    pub online_root: Digest,
}

/// The online set (increasing) and the hidden party of each of its executions.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Challenge {
    pub online: Vec<u32>,
    pub hidden: Vec<u32>,
}

impl Challenge {
    /// The challenge derived from a Fiat–Shamir hash: the first `τ` distinct values of
    /// `uniform(M)` form the online set; then, in increasing execution order, `uniform(N)`
    /// for each hidden party (one [`ChallengeStream`] seeded with the hash).
    pub fn from_hash(h: &Digest, p: &Params) -> Self {
        let mut s = ChallengeStream::new(*h);
        let mut chosen = vec![false; p.m()];
        let mut online = Vec::with_capacity(p.tau());
        while online.len() < p.tau() {
            let j = s.uniform(p.executions as u64) as usize;
            if !chosen[j] {
                chosen[j] = true;
                online.push(j as u32);
            }
        }
        online.sort_unstable();
        let hidden = online
            .iter()
            .map(|_| s.uniform(p.parties as u64) as u32)
            .collect();
        Challenge { online, hidden }
    }

    /// A uniformly random challenge (for interactive use and tests).
    pub fn random(p: &Params, rng: &mut impl RngCore) -> Self {
        Challenge::from_hash(&crate::rng::random_32(rng), p)
    }

    pub(crate) fn check(&self, p: &Params) -> Result<()> {
        let ok = self.online.len() == p.tau()
            && self.hidden.len() == p.tau()
            && self.online.windows(2).all(|w| w[0] < w[1])
            && self.online.iter().all(|&j| j < p.executions)
            && self.hidden.iter().all(|&q| q < p.parties);
        if ok {
            Ok(())
        } else {
            Err(Error::bad(format!(
                "the challenge is not {} increasing executions below {} with a party below {} each",
                p.online, p.executions, p.parties
            )))
        }
    }
}

/// Deliberate misbehaviour for soundness tests; the prover carries on consistently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// Flip party `N−1`'s auxiliary bit of AND gate `and_index` in an execution (a corrupt
    /// preprocessing: caught when that execution is not online).
    Aux { execution: usize, and_index: usize },
    /// Flip `party`'s broadcast bit of AND gate `and_index` in an execution (a corrupt
    /// online phase: caught unless `party` is the hidden one).
    Broadcast {
        execution: usize,
        and_index: usize,
        party: usize,
    },
    /// Run execution `execution` on the witness with bit `input` flipped (a prover that
    /// changes witness between executions; tests of committed witnesses).
    Input { execution: usize, input: usize },
}

// ---------------------------------------------------------------------------------------
// shapes, bits, tapes

#[derive(Clone, Copy, Debug)]
struct Shape {
    n_in: usize,
    n_and: usize,
    in_w: usize,
    and_w: usize,
    n: usize,
}

impl Shape {
    fn of(c: &Circuit, n: usize) -> Self {
        Shape {
            n_in: c.n_inputs(),
            n_and: c.n_and(),
            in_w: c.n_inputs().div_ceil(64),
            and_w: c.n_and().div_ceil(64),
            n,
        }
    }
    /// Tape words of party `i`: input masks, AND output masks, and (not party `N−1`) the
    /// shares of `λ_a λ_b`.
    fn tape_words(&self, i: usize) -> usize {
        self.in_w + self.and_w + if i + 1 < self.n { self.and_w } else { 0 }
    }
    fn full_words(&self) -> usize {
        self.in_w + 2 * self.and_w
    }
    fn and_bytes(&self) -> usize {
        self.n_and.div_ceil(8)
    }
    fn in_bytes(&self) -> usize {
        self.n_in.div_ceil(8)
    }
}

/// Fills `out` with a party's tape: the ChaCha20 keystream under its seed, read as
/// little-endian `u64` words.
fn fill_tape(seed: &Seed, out: &mut [u64]) {
    rand::Rng::fill(&mut ChaCha20Rng::from_seed(*seed), out);
}

#[cfg(test)]
fn tape(seed: &Seed, words: usize) -> Vec<u64> {
    let mut t = vec![0u64; words];
    fill_tape(seed, &mut t);
    t
}

fn bit(b: &[u8], i: usize) -> bool {
    b[i / 8] >> (i % 8) & 1 == 1
}

/// A 64-row matrix of `width` words per row, row-major: row `l` is lane `l`'s tape. Calls
/// `put(64w + b, column)` where bit `l` of `column` is bit `b` of `rows[l·width + w]`.
fn transpose_rows_with(rows: &[u64], width: usize, mut put: impl FnMut(usize, u64)) {
    for w in 0..width {
        let mut blk = [0u64; 64];
        for (l, x) in blk.iter_mut().enumerate() {
            *x = rows[l * width + w];
        }
        transpose64(&mut blk);
        for (b, x) in blk.into_iter().enumerate() {
            put(64 * w + b, x);
        }
    }
}

/// [`transpose_rows_with`] into a new vector.
fn transpose_rows(rows: &[u64], width: usize) -> Vec<u64> {
    let mut out = vec![0u64; 64 * width];
    transpose_rows_with(rows, width, |t, x| out[t] = x);
    out
}

/// The bits of lanes `lanes` over `words[0 … nbits−1]`, each packed LSB first
/// (`ceil(nbits/8)` bytes, zero padding).
fn lane_columns(words: &[u64], nbits: usize, lanes: &[usize]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = lanes
        .iter()
        .map(|_| Vec::with_capacity(nbits.div_ceil(64) * 8))
        .collect();
    for blk_words in words[..nbits].chunks(64) {
        let mut blk = [0u64; 64];
        blk[..blk_words.len()].copy_from_slice(blk_words);
        transpose64(&mut blk);
        for (o, &l) in out.iter_mut().zip(lanes) {
            o.extend_from_slice(&blk[l].to_le_bytes());
        }
    }
    for o in out.iter_mut() {
        o.truncate(nbits.div_ceil(8));
    }
    out
}

/// Bits `[g·N, g·N + N)` of every word, row after row, packed LSB first.
fn matrix_bytes<const N: usize>(words: &[u64], g: usize, out: &mut Vec<u8>) {
    if N >= 8 {
        let nb = N / 8;
        let start = out.len();
        out.resize(start + words.len() * nb, 0);
        for (w, dst) in words.iter().zip(out[start..].chunks_exact_mut(nb)) {
            dst.copy_from_slice(&(w >> (g * N)).to_le_bytes()[..nb]);
        }
    } else {
        let mask = (1u64 << N) - 1;
        let (mut acc, mut nb) = (0u64, 0usize);
        for w in words {
            acc |= (w >> (g * N) & mask) << nb;
            nb += N;
            if nb == 8 {
                out.push(acc as u8);
                acc = 0;
                nb = 0;
            }
        }
        if nb > 0 {
            out.push(acc as u8);
        }
    }
}

/// True if `b` has exactly `ceil(nbits/8)` bytes and zero padding bits.
fn canonical_bits(b: &[u8], nbits: usize) -> bool {
    b.len() == nbits.div_ceil(8) && (nbits.is_multiple_of(8) || b[nbits / 8] >> (nbits % 8) == 0)
}

/// Lane arithmetic for `64/N` groups of `N` lanes in a word.
struct Lanes<const N: usize>;

impl<const N: usize> Lanes<N> {
    /// bit `g·N` of every group
    const REP: u64 = {
        let mut r = 0u64;
        let mut g = 0;
        while g < 64 / N {
            r |= 1 << (g * N);
            g += 1;
        }
        r
    };
    /// `N` ones
    const FILL: u64 = if N == 64 { !0 } else { (1u64 << N) - 1 };
    /// bit `g·N + N − 1` of every group
    const LAST: u64 = Self::REP << (N - 1);

    /// The parity of each group, spread over the group.
    #[inline(always)]
    fn parity(x: u64) -> u64 {
        let mut p = x;
        let mut s = 1;
        while s < N {
            p ^= p >> s;
            s <<= 1;
        }
        (p & Self::REP).wrapping_mul(Self::FILL)
    }
    #[inline(always)]
    fn group(g: usize) -> u64 {
        Self::FILL << (g * N)
    }
}

/// Calls `$f::<N>(args)` for the runtime party count `$n`.
macro_rules! with_lanes {
    ($n:expr, $f:ident ( $($arg:expr),* )) => {
        match $n {
            2 => $f::<2>($($arg),*),
            4 => $f::<4>($($arg),*),
            8 => $f::<8>($($arg),*),
            16 => $f::<16>($($arg),*),
            32 => $f::<32>($($arg),*),
            64 => $f::<64>($($arg),*),
            n => unreachable!("{n} parties passed the parameter check"),
        }
    };
}

/// The circuit as a straight-line program over a small register file: a wire's register is
/// reused once the wire is dead, so the walks keep their working set in cache.
struct Program {
    ops: Vec<Op>,
    /// registers needed (inputs take `0 … n_in−1`)
    regs: usize,
    /// register of each output wire (`None`: a constant output)
    outputs: Vec<Option<u32>>,
}

#[derive(Clone, Copy)]
enum Op {
    Xor(u32, u32, u32),
    Not(u32, u32),
    And(u32, u32, u32),
}

impl Program {
    fn compile(c: &Circuit) -> Self {
        const NEVER: usize = usize::MAX;
        const KEEP: usize = usize::MAX - 1;
        let n_in = c.n_inputs();
        // the last gate reading each wire
        let mut last = vec![NEVER; c.n_wires()];
        for (g, gate) in c.gates().iter().enumerate() {
            match *gate {
                Gate::Xor(a, b) | Gate::And(a, b) => {
                    last[a as usize] = g;
                    last[b as usize] = g;
                }
                Gate::Not(a) => last[a as usize] = g,
            }
        }
        for o in c.outputs() {
            if let Bit::Wire(w) = *o {
                last[w as usize] = KEEP;
            }
        }
        let mut reg = vec![0u32; c.n_wires()];
        let mut free: Vec<u32> = Vec::new();
        let mut regs = n_in;
        for i in 0..n_in {
            reg[i] = i as u32;
            if last[i] == NEVER {
                free.push(i as u32);
            }
        }
        let mut ops = Vec::with_capacity(c.n_gates());
        for (g, gate) in c.gates().iter().enumerate() {
            let (a, b) = match *gate {
                Gate::Xor(a, b) | Gate::And(a, b) => (a as usize, Some(b as usize)),
                Gate::Not(a) => (a as usize, None),
            };
            // operands are read before the result is written: their registers can be reused
            if last[a] == g {
                free.push(reg[a]);
            }
            if let Some(b) = b {
                if last[b] == g && b != a {
                    free.push(reg[b]);
                }
            }
            let w = n_in + g;
            let d = free.pop().unwrap_or_else(|| {
                regs += 1;
                (regs - 1) as u32
            });
            reg[w] = d;
            if last[w] == NEVER {
                free.push(d);
            }
            ops.push(match *gate {
                Gate::Xor(a, b) => Op::Xor(reg[a as usize], reg[b as usize], d),
                Gate::And(a, b) => Op::And(reg[a as usize], reg[b as usize], d),
                Gate::Not(a) => Op::Not(reg[a as usize], d),
            });
        }
        let outputs = c
            .outputs()
            .iter()
            .map(|o| match *o {
                Bit::Wire(w) => Some(reg[w as usize]),
                Bit::Const(_) => None,
            })
            .collect();
        Program { ops, regs, outputs }
    }
}

// ---------------------------------------------------------------------------------------
// commitments

fn commit_party(salt: &[u8; 32], j: usize, i: usize, seed: &Seed, aux: Option<&[u8]>) -> Digest {
    let mut h = Sha256::new();
    h.update(b"zkg:kkw:party:v1");
    h.update(salt);
    h.update((j as u32).to_le_bytes());
    h.update((i as u32).to_le_bytes());
    h.update(seed);
    if let Some(a) = aux {
        h.update(a);
    }
    h.finalize().into()
}

fn commit_preprocessing(salt: &[u8; 32], j: usize, parties: &[Digest]) -> Digest {
    let mut h = Sha256::new();
    h.update(b"zkg:kkw:pre:v1");
    h.update(salt);
    h.update((j as u32).to_le_bytes());
    for c in parties {
        h.update(c);
    }
    h.finalize().into()
}

fn fs_hash(st: &Statement, p: &Params, cm: &CommitMsg) -> Digest {
    let mut t = Transcript::new(b"zkgames/kkw/v1");
    t.append(b"application", st.tag);
    t.append(b"circuit", &st.circuit.digest());
    t.append(b"public inputs", st.public);
    t.append_u64(b"output bits", st.output.len() as u64);
    t.append(b"output", &pack_bools(st.output));
    t.append(b"context", st.context);
    t.append_u64(b"executions", p.executions as u64);
    t.append_u64(b"online executions", p.online as u64);
    t.append_u64(b"parties", p.parties as u64);
    t.append(b"salt", &cm.salt);
    let pre: Vec<u8> = cm.preprocessing.iter().flatten().copied().collect();
    t.append(b"preprocessing commitments", &pre);
    t.append(b"online root", &cm.online_root);
    let mut s = t.challenges(b"kkw challenge");
    std::array::from_fn(|_| s.next_byte())
}

// ---------------------------------------------------------------------------------------
// preprocessing only: 64 executions per word, the XOR of all parties' tapes

/// The XOR of all parties' input and output-mask words, and of parties `0 … N−2`'s
/// `λ_ab` shares: one row of `full_words` words per execution, written into `sum`.
fn summed_tape(sh: &Shape, seeds: &[Seed], sum: &mut [u64], buf: &mut [u64]) {
    sum.fill(0);
    for (i, s) in seeds.iter().enumerate() {
        let w = sh.tape_words(i);
        fill_tape(s, &mut buf[..w]);
        for (a, b) in sum.iter_mut().zip(&buf[..w]) {
            *a ^= b;
        }
    }
}

/// The auxiliary bits (packed) of up to 64 executions, 64 executions per word, from their
/// summed tapes (`rows`: one row of `full_words` words per execution).
fn aux_batch(pr: &Program, sh: &Shape, rows: &[u64]) -> Vec<Vec<u8>> {
    let fw = sh.full_words();
    let count = rows.len() / fw;
    let mut full = vec![0u64; 64 * fw];
    full[..rows.len()].copy_from_slice(rows);
    let cols = transpose_rows(&full, fw);
    drop(full);
    let (lam_in, rest) = cols.split_at(64 * sh.in_w);
    let (lam_c, lam_ab) = rest.split_at(64 * sh.and_w);
    let mut lam = vec![0u64; pr.regs];
    lam[..sh.n_in].copy_from_slice(&lam_in[..sh.n_in]);
    let mut aux: Vec<u64> = Vec::with_capacity(sh.n_and);
    for op in &pr.ops {
        match *op {
            Op::Xor(a, b, d) => lam[d as usize] = lam[a as usize] ^ lam[b as usize],
            Op::Not(a, d) => lam[d as usize] = lam[a as usize],
            Op::And(a, b, d) => {
                let k = aux.len();
                aux.push((lam[a as usize] & lam[b as usize]) ^ lam_ab[k]);
                lam[d as usize] = lam_c[k];
            }
        }
    }
    let lanes: Vec<usize> = (0..count).collect();
    lane_columns(&aux, sh.n_and, &lanes)
}

/// Auxiliary bits of every listed execution: summed tapes in parallel per execution, then
/// batches of 64.
fn aux_of(pr: &Program, sh: &Shape, seeds: &[&[Seed]]) -> Vec<Vec<u8>> {
    let fw = sh.full_words();
    let mut rows = vec![0u64; seeds.len() * fw];
    rows.par_chunks_mut(fw).zip(seeds.par_iter()).for_each_init(
        || vec![0u64; fw],
        |buf, (row, s)| summed_tape(sh, s, row, buf),
    );
    rows.par_chunks(64 * fw)
        .map(|ch| aux_batch(pr, sh, ch))
        .flatten_iter()
        .collect()
}

// ---------------------------------------------------------------------------------------
// the online phase: 64/N executions per word, one lane per party

/// What the walk knows about one execution.
struct ExecIn<'a> {
    j: usize,
    /// The online commitment's key.
    key: [u8; 32],
    /// Party seeds; `None` for the hidden party.
    seeds: Vec<Option<Seed>>,
    /// `Some` in verify mode: the hidden party, masked input, aux (if party `N−1` is
    /// opened) and the hidden party's broadcasts. `None`: prover mode (all parties known,
    /// aux computed, masked input from the witness).
    given: Option<Given<'a>>,
    /// Party whose broadcast column to return.
    column: Option<usize>,
}

struct Given<'a> {
    hidden: usize,
    masked_input: &'a [u8],
    aux: &'a [u8],
    msgs: &'a [u8],
}

struct ExecOut {
    /// `h'_j`
    online: Digest,
    masked_input: Vec<u8>,
    /// computed (prover mode) or as given
    aux: Vec<u8>,
    column: Option<Vec<u8>>,
}

/// Per AND gate, what a cheating prover flips: its aux lanes, its broadcast lanes, and the
/// masked output of the groups concerned.
#[derive(Clone, Copy, Default)]
struct Flip {
    aux: Wide,
    bcast: Wide,
    out: Wide,
}

/// Words processed together by the online walk: `4·64` lanes, `4·64/N` executions.
const W: usize = 4;
type Wide = [u64; W];

#[inline(always)]
fn wxor(a: Wide, b: Wide) -> Wide {
    std::array::from_fn(|i| a[i] ^ b[i])
}
#[inline(always)]
fn wand(a: Wide, b: Wide) -> Wide {
    std::array::from_fn(|i| a[i] & b[i])
}
#[inline(always)]
fn wnot(a: Wide) -> Wide {
    std::array::from_fn(|i| !a[i])
}
#[inline(always)]
fn wpar<const N: usize>(a: Wide) -> Wide {
    std::array::from_fn(|i| Lanes::<N>::parity(a[i]))
}

/// Word `b` of every wide word.
fn sub(v: &[Wide], b: usize) -> Vec<u64> {
    v.iter().map(|w| w[b]).collect()
}

/// Executions per wide group.
fn group_size(n: usize) -> usize {
    W * (64 / n)
}

/// Runs the online phase of up to `4·64/N` executions (execution `e` of the group sits in
/// word `e / (64/N)`, lanes `(e mod 64/N)·N …`). `witness` is needed in prover mode.
#[allow(clippy::too_many_arguments)]
fn online_group<const N: usize>(
    c: &Circuit,
    pr: &Program,
    sh: &Shape,
    salt: &[u8; 32],
    y: &[bool],
    witness: Option<&[bool]>,
    execs: &[ExecIn],
    cheats: &[Cheat],
) -> Vec<ExecOut> {
    let g_per = 64 / N;
    let place = |e: usize| (e / g_per, e % g_per);
    let fw = sh.full_words();
    let blocks = execs.len().div_ceil(g_per);
    let mut cols: Vec<Wide> = vec![[0; W]; 64 * fw];
    {
        let mut rows = vec![0u64; 64 * fw];
        for (b, block) in execs.chunks(g_per).enumerate() {
            rows.fill(0);
            for (g, ex) in block.iter().enumerate() {
                for (i, sd) in ex.seeds.iter().enumerate() {
                    if let Some(sd) = sd {
                        let l = g * N + i;
                        fill_tape(sd, &mut rows[l * fw..l * fw + sh.tape_words(i)]);
                    }
                }
            }
            transpose_rows_with(&rows, fw, |t, x| cols[t][b] = x);
        }
    }
    let (lam_in, rest) = cols.split_at(64 * sh.in_w);
    let (lam_c, lam_ab) = rest.split_at(64 * sh.and_w);
    let verify = execs.iter().any(|e| e.given.is_some());
    let group = |e: usize| -> Wide {
        let (b, g) = place(e);
        let mut w = [0; W];
        w[b] = Lanes::<N>::group(g);
        w
    };
    let last: Wide = [Lanes::<N>::LAST; W];

    // (mask shares, masked value) of each output register, after the walk
    let out_regs: Vec<Option<(Wide, Wide)>>;
    let mut xin: Vec<u64> = Vec::new();
    let mut bcast: Vec<Wide> = Vec::with_capacity(sh.n_and);
    let mut hid: Wide = [0; W];
    let mut auxw: Vec<Wide> = Vec::new();
    if verify {
        // hidden lanes, given aux and broadcasts as lane words
        let mut aux_given: Vec<Wide> = vec![[0; W]; sh.n_and];
        let mut msg_given: Vec<Wide> = vec![[0; W]; sh.n_and];
        let mut x_given: Vec<Wide> = vec![[0; W]; sh.n_in];
        for (e, ex) in execs.iter().enumerate() {
            let gv = ex
                .given
                .as_ref()
                .expect("all executions of a group in one mode");
            let (b, g) = place(e);
            let lane = g * N + gv.hidden;
            hid[b] |= 1 << lane;
            let gm = Lanes::<N>::group(g);
            for (i, x) in x_given.iter_mut().enumerate() {
                if bit(gv.masked_input, i) {
                    x[b] |= gm;
                }
            }
            for k in 0..sh.n_and {
                msg_given[k][b] |= (bit(gv.msgs, k) as u64) << lane;
                if gv.hidden != N - 1 {
                    aux_given[k][b] |= (bit(gv.aux, k) as u64) << (g * N + N - 1);
                }
            }
        }
        // per register: (mask shares, masked value)
        let mut reg: Vec<[Wide; 2]> = vec![[[0; W]; 2]; pr.regs];
        for i in 0..sh.n_in {
            reg[i] = [lam_in[i], x_given[i]];
        }
        let nhid = wnot(hid);
        for op in &pr.ops {
            match *op {
                Op::Xor(a, b, d) => {
                    let (ra, rb) = (reg[a as usize], reg[b as usize]);
                    reg[d as usize] = [wxor(ra[0], rb[0]), wxor(ra[1], rb[1])];
                }
                Op::Not(a, d) => {
                    let ra = reg[a as usize];
                    reg[d as usize] = [ra[0], wnot(ra[1])];
                }
                Op::And(a, b, d) => {
                    let k = bcast.len();
                    let ([la, xa], [lb, xb]) = (reg[a as usize], reg[b as usize]);
                    let lc = lam_c[k];
                    let lab = std::array::from_fn(|i| lam_ab[k][i] | aux_given[k][i]);
                    let s0 = wxor(wxor(lc, wand(xa, lb)), wxor(wand(xb, la), lab));
                    let s: Wide = std::array::from_fn(|i| (s0[i] & nhid[i]) | msg_given[k][i]);
                    bcast.push(s);
                    reg[d as usize] = [lc, wxor(wand(xa, xb), wpar::<N>(s))];
                }
            }
        }
        out_regs = pr
            .outputs
            .iter()
            .map(|r| r.map(|r| (reg[r as usize][0], reg[r as usize][1])))
            .collect();
    } else {
        let w = witness.expect("prover mode needs the witness");
        // cheats, per AND gate
        let mut flips: Vec<(usize, Flip)> = Vec::new();
        let mut input_flips: Vec<(usize, Wide)> = Vec::new();
        for ch in cheats {
            if let Cheat::Input { execution, input } = *ch {
                if let Some(e) = execs.iter().position(|x| x.j == execution) {
                    if input < sh.n_in {
                        input_flips.push((input, group(e)));
                    }
                }
                continue;
            }
            let (ex, k, aux, lane) = match *ch {
                Cheat::Aux {
                    execution,
                    and_index,
                } => (execution, and_index, true, N - 1),
                Cheat::Broadcast {
                    execution,
                    and_index,
                    party,
                } => (execution, and_index, false, party),
                Cheat::Input { .. } => unreachable!("handled above"),
            };
            if let Some(e) = execs.iter().position(|x| x.j == ex) {
                if lane < N && k < sh.n_and {
                    let (b, g) = place(e);
                    let mut f = Flip::default();
                    if aux {
                        f.aux[b] = Lanes::<N>::group(g);
                    } else {
                        f.bcast[b] = 1 << (g * N + lane);
                    }
                    f.out = group(e);
                    flips.push((k, f));
                }
            }
        }
        flips.sort_by_key(|f| f.0);
        let mut next = 0;
        // per register: (mask shares, masked value, full mask λ spread over each group)
        let mut reg: Vec<[Wide; 3]> = vec![[[0; W]; 3]; pr.regs];
        auxw.reserve(sh.n_and);
        for (i, &wi) in w.iter().enumerate() {
            let l = lam_in[i];
            let f = wpar::<N>(l);
            reg[i] = [l, if wi { wnot(f) } else { f }, f];
        }
        for &(i, g) in &input_flips {
            reg[i][1] = wxor(reg[i][1], g);
        }
        xin = reg[..sh.n_in].iter().flat_map(|r| r[1]).collect();
        for op in &pr.ops {
            match *op {
                Op::Xor(a, b, d) => {
                    let (ra, rb) = (reg[a as usize], reg[b as usize]);
                    reg[d as usize] = [wxor(ra[0], rb[0]), wxor(ra[1], rb[1]), wxor(ra[2], rb[2])];
                }
                Op::Not(a, d) => {
                    let ra = reg[a as usize];
                    reg[d as usize] = [ra[0], wnot(ra[1]), ra[2]];
                }
                Op::And(a, b, d) => {
                    let k = bcast.len();
                    let ([la, xa, fa], [lb, xb, fb]) = (reg[a as usize], reg[b as usize]);
                    let lc = lam_c[k];
                    let fc = wpar::<N>(lc);
                    let mut ax = wxor(wand(fa, fb), wpar::<N>(lam_ab[k]));
                    let mut flip = Flip::default();
                    while next < flips.len() && flips[next].0 == k {
                        let f = flips[next].1;
                        flip.aux = wxor(flip.aux, f.aux);
                        flip.bcast = wxor(flip.bcast, f.bcast);
                        flip.out = wxor(flip.out, f.out);
                        next += 1;
                    }
                    ax = wxor(ax, flip.aux);
                    auxw.push(ax);
                    let lab = std::array::from_fn(|i| lam_ab[k][i] | (ax[i] & last[i]));
                    let s = wxor(
                        wxor(wxor(lc, wand(xa, lb)), wxor(wand(xb, la), lab)),
                        flip.bcast,
                    );
                    bcast.push(s);
                    // ĉ = â b̂ ⊕ ⊕ s_i, which for honest shares is (a ∧ b) ⊕ λ_c
                    let x = wxor(wxor(wand(wxor(xa, fa), wxor(xb, fb)), fc), flip.out);
                    reg[d as usize] = [lc, x, fc];
                }
            }
        }
        out_regs = pr
            .outputs
            .iter()
            .map(|r| r.map(|r| (reg[r as usize][0], reg[r as usize][1])))
            .collect();
    }
    // output mask shares; the hidden party's is whatever makes the output y
    let outs: Vec<Wide> = out_regs
        .iter()
        .zip(c.outputs())
        .zip(y)
        .map(|((r, o), &yo)| {
            let (l, x) = match (*r, *o) {
                (Some(v), _) => v,
                (None, Bit::Const(b)) => ([0; W], [if b { !0 } else { 0 }; W]),
                (None, Bit::Wire(_)) => unreachable!("wire outputs have registers"),
            };
            let d = wxor(wxor(x, [if yo { !0 } else { 0 }; W]), wpar::<N>(l));
            std::array::from_fn(|i| l[i] | (d[i] & hid[i]))
        })
        .collect();

    // per block: the executions' masked inputs, aux and wanted broadcast columns
    let mut buf = Vec::with_capacity((sh.n_and * N).div_ceil(8));
    let mut out = Vec::with_capacity(execs.len());
    for b in 0..blocks {
        let range: Vec<usize> = (b * g_per..((b + 1) * g_per).min(execs.len())).collect();
        let bases: Vec<usize> = range.iter().map(|e| (e % g_per) * N).collect();
        let bc = sub(&bcast, b);
        let wanted: Vec<usize> = range
            .iter()
            .filter_map(|&e| execs[e].column.map(|q| (e % g_per) * N + q))
            .collect();
        let mut cols = lane_columns(&bc, sh.n_and, &wanted).into_iter();
        let (mut xs, mut ax) = if verify {
            (Vec::new(), Vec::new())
        } else {
            let xw: Vec<u64> = xin.iter().skip(b).step_by(W).copied().collect();
            (
                lane_columns(&xw, sh.n_in, &bases),
                lane_columns(&sub(&auxw, b), sh.n_and, &bases),
            )
        };
        let ob = sub(&outs, b);
        for (t, &e) in range.iter().enumerate() {
            let ex = &execs[e];
            let g = e % g_per;
            let (masked_input, aux) = match &ex.given {
                Some(gv) => (gv.masked_input.to_vec(), gv.aux.to_vec()),
                None => (std::mem::take(&mut xs[t]), std::mem::take(&mut ax[t])),
            };
            let column = ex
                .column
                .map(|_| cols.next().expect("one column per request"));
            let mut h = Sha256::new();
            h.update(b"zkg:kkw:online:v1");
            h.update(salt);
            h.update((ex.j as u32).to_le_bytes());
            h.update(ex.key);
            h.update(&masked_input);
            buf.clear();
            matrix_bytes::<N>(&bc, g, &mut buf);
            h.update(&buf);
            buf.clear();
            matrix_bytes::<N>(&ob, g, &mut buf);
            h.update(&buf);
            out.push(ExecOut {
                online: h.finalize().into(),
                masked_input,
                aux,
                column,
            });
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// prover

/// Everything the prover keeps between its commitment and its response.
pub struct ProverState {
    params: Params,
    salt: [u8; 32],
    exec_tree: SeedTree,
    party_seeds: Vec<Vec<Seed>>,
    /// the keys of the online commitments
    keys: Vec<[u8; 32]>,
    aux: Vec<Vec<u8>>,
    masked_input: Vec<Vec<u8>>,
    parties: Vec<Vec<Digest>>,
    online: Vec<Digest>,
    msg: CommitMsg,
    witness: Vec<bool>,
    cheats: Vec<Cheat>,
}

fn party_seeds_of(salt: &[u8; 32], j: usize, exec_seed: &Seed, n: usize) -> Vec<Seed> {
    SeedTree::new(
        exec_seed,
        n,
        TreeId {
            salt,
            tree: j as u32,
        },
    )
    .leaves()
}

/// The prover's commitment: preprocessing and online phase of every execution.
/// `witness` is not checked here (see [`prove`]); `cheats` are for soundness tests.
pub fn commit(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Result<ProverState> {
    params.check()?;
    if witness.len() != st.circuit.n_inputs() {
        return Err(Error::bad(format!(
            "witness has {} bits, the circuit takes {}",
            witness.len(),
            st.circuit.n_inputs()
        )));
    }
    check_output_len(st)?;
    let (m, n) = (params.m(), params.n());
    let sh = Shape::of(st.circuit, n);
    let pr = Program::compile(st.circuit);
    let salt = crate::rng::random_32(rng);
    let root = crate::rng::random_32(rng);
    let keys: Vec<[u8; 32]> = (0..m).map(|_| crate::rng::random_32(rng)).collect();
    let exec_tree = SeedTree::new(
        &root,
        m,
        TreeId {
            salt: &salt,
            tree: EXEC_TREE,
        },
    );
    let party_seeds: Vec<Vec<Seed>> = exec_tree
        .leaves()
        .par_iter()
        .enumerate()
        .map(|(j, s)| party_seeds_of(&salt, j, s, n))
        .collect();
    let outs = run_prover_groups(
        st,
        &pr,
        &sh,
        &salt,
        witness,
        &party_seeds,
        &keys,
        &(0..m).map(|j| (j, None)).collect::<Vec<_>>(),
        cheats,
    );
    let mut aux = Vec::with_capacity(m);
    let mut masked_input = Vec::with_capacity(m);
    let mut online = Vec::with_capacity(m);
    for o in outs {
        aux.push(o.aux);
        masked_input.push(o.masked_input);
        online.push(o.online);
    }
    let parties: Vec<Vec<Digest>> = (0..m)
        .into_par_iter()
        .map(|j| {
            (0..n)
                .map(|i| {
                    let a = (i == n - 1).then_some(aux[j].as_slice());
                    commit_party(&salt, j, i, &party_seeds[j][i], a)
                })
                .collect()
        })
        .collect();
    let preprocessing = parties
        .iter()
        .enumerate()
        .map(|(j, c)| commit_preprocessing(&salt, j, c))
        .collect();
    let msg = CommitMsg {
        salt,
        preprocessing,
        online_root: crate::merkle::root(&online),
    };
    Ok(ProverState {
        params,
        salt,
        exec_tree,
        party_seeds,
        keys,
        aux,
        masked_input,
        parties,
        online,
        msg,
        witness: witness.to_vec(),
        cheats: cheats.to_vec(),
    })
}

/// Runs prover-mode groups for the listed `(execution, column wanted)` pairs.
#[allow(clippy::too_many_arguments)]
fn run_prover_groups(
    st: &Statement,
    pr: &Program,
    sh: &Shape,
    salt: &[u8; 32],
    witness: &[bool],
    party_seeds: &[Vec<Seed>],
    keys: &[[u8; 32]],
    list: &[(usize, Option<usize>)],
    cheats: &[Cheat],
) -> Vec<ExecOut> {
    list.par_chunks(group_size(sh.n))
        .map(|ch| {
            let execs: Vec<ExecIn> = ch
                .iter()
                .map(|&(j, col)| ExecIn {
                    j,
                    key: keys[j],
                    seeds: party_seeds[j].iter().map(|s| Some(*s)).collect(),
                    given: None,
                    column: col,
                })
                .collect();
            with_lanes!(
                sh.n,
                online_group(
                    st.circuit,
                    pr,
                    sh,
                    salt,
                    st.output,
                    Some(witness),
                    &execs,
                    cheats
                )
            )
        })
        .flatten_iter()
        .collect()
}

impl ProverState {
    /// The first message.
    pub fn commitment(&self) -> &CommitMsg {
        &self.msg
    }

    /// The answer to a challenge.
    pub fn respond(&self, st: &Statement, ch: &Challenge) -> Result<Response> {
        ch.check(&self.params)?;
        let n = self.params.n();
        let online_set: Vec<usize> = ch.online.iter().map(|&j| j as usize).collect();
        let exec_seeds = self.exec_tree.leaves();
        let sh = Shape::of(st.circuit, n);
        let pr = Program::compile(st.circuit);
        let list: Vec<(usize, Option<usize>)> = online_set
            .iter()
            .zip(&ch.hidden)
            .map(|(&j, &q)| (j, Some(q as usize)))
            .collect();
        let rerun = run_prover_groups(
            st,
            &pr,
            &sh,
            &self.salt,
            &self.witness,
            &self.party_seeds,
            &self.keys,
            &list,
            &self.cheats,
        );
        let online = online_set
            .iter()
            .zip(&ch.hidden)
            .zip(rerun)
            .map(|((&j, &q), out)| {
                let q = q as usize;
                let t = SeedTree::new(
                    &exec_seeds[j],
                    n,
                    TreeId {
                        salt: &self.salt,
                        tree: j as u32,
                    },
                );
                OnlineOpening {
                    key: self.keys[j],
                    party_seeds: t.reveal(&[q]),
                    commitment: self.parties[j][q],
                    aux: if q == n - 1 {
                        Vec::new()
                    } else {
                        self.aux[j].clone()
                    },
                    masked_input: self.masked_input[j].clone(),
                    msgs: out.column.expect("column requested"),
                }
            })
            .collect();
        Ok(Response {
            exec_seeds: self.exec_tree.reveal(&online_set),
            online_path: crate::merkle::open(&self.online, &online_set),
            online,
        })
    }
}

fn check_output_len(st: &Statement) -> Result<()> {
    if st.output.len() != st.circuit.n_outputs() {
        return Err(Error::bad(format!(
            "the public output has {} bits, the circuit produces {}",
            st.output.len(),
            st.circuit.n_outputs()
        )));
    }
    Ok(())
}

/// Proves knowledge of `witness` with `C(witness) = output`; refuses a wrong witness.
pub fn prove(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
) -> Result<Proof> {
    params.check()?;
    super::zkbpp::check_witness(st, witness)?;
    prove_unchecked(st, witness, params, rng, &[])
}

/// Like [`prove`] without checking the witness, optionally cheating: for soundness tests.
#[doc(hidden)]
pub fn prove_unchecked(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Result<Proof> {
    let ps = commit(st, witness, params, rng, cheats)?;
    let challenge = fs_hash(st, &params, &ps.msg);
    let ch = Challenge::from_hash(&challenge, &params);
    Ok(Proof {
        params,
        salt: ps.salt,
        challenge,
        response: ps.respond(st, &ch)?,
    })
}

// ---------------------------------------------------------------------------------------
// verifier

fn rejected_at(j: usize, what: impl std::fmt::Display) -> Error {
    Error::rejected(format!("online execution {j}: {what}"))
}

/// Recomputes the first message from a response: every `h_j` and the online root.
/// Checks every length; errors name the execution.
pub fn recompute(
    st: &Statement,
    params: &Params,
    salt: &[u8; 32],
    ch: &Challenge,
    resp: &Response,
) -> Result<CommitMsg> {
    params.check().map_err(|e| Error::rejected(e.to_string()))?;
    check_output_len(st)?;
    ch.check(params)
        .map_err(|e| Error::rejected(e.to_string()))?;
    let (m, n) = (params.m(), params.n());
    let sh = Shape::of(st.circuit, n);
    let pr = Program::compile(st.circuit);
    let online_set: Vec<usize> = ch.online.iter().map(|&j| j as usize).collect();
    if resp.online.len() != online_set.len() {
        return Err(Error::rejected(format!(
            "{} online openings, expected {}",
            resp.online.len(),
            online_set.len()
        )));
    }
    let logn = n.trailing_zeros() as usize;
    for (&j, (o, &q)) in online_set.iter().zip(resp.online.iter().zip(&ch.hidden)) {
        if o.party_seeds.len() != logn {
            return Err(rejected_at(
                j,
                format!("{} party seeds, expected {logn}", o.party_seeds.len()),
            ));
        }
        let want_aux = if q as usize == n - 1 { 0 } else { sh.n_and };
        if !(if want_aux == 0 {
            o.aux.is_empty()
        } else {
            canonical_bits(&o.aux, sh.n_and)
        }) {
            return Err(rejected_at(
                j,
                format!(
                    "{}the auxiliary bits are {} bytes, expected {} with zero padding",
                    other_statement(o.aux.len(), want_aux.div_ceil(8)),
                    o.aux.len(),
                    want_aux.div_ceil(8)
                ),
            ));
        }
        if !canonical_bits(&o.masked_input, sh.n_in) {
            return Err(rejected_at(
                j,
                format!(
                    "{}the masked input is {} bytes, expected {} with zero padding",
                    other_statement(o.masked_input.len(), sh.in_bytes()),
                    o.masked_input.len(),
                    sh.in_bytes()
                ),
            ));
        }
        if !canonical_bits(&o.msgs, sh.n_and) {
            return Err(rejected_at(
                j,
                format!(
                    "{}the hidden party's broadcasts are {} bytes, expected {} with zero padding",
                    other_statement(o.msgs.len(), sh.and_bytes()),
                    o.msgs.len(),
                    sh.and_bytes()
                ),
            ));
        }
    }
    let exec_seeds = seedtree::reconstruct(
        m,
        &online_set,
        &resp.exec_seeds,
        TreeId {
            salt,
            tree: EXEC_TREE,
        },
    )
    .ok_or_else(|| {
        Error::rejected(format!(
            "{} execution seeds, expected {}",
            resp.exec_seeds.len(),
            seedtree::reveal_nodes(m, &online_set).len()
        ))
    })?;

    // executions outside the online set: preprocessing from their seeds
    let closed: Vec<usize> = (0..m).filter(|j| exec_seeds[*j].is_some()).collect();
    let closed_seeds: Vec<Vec<Seed>> = closed
        .par_iter()
        .map(|&j| party_seeds_of(salt, j, &exec_seeds[j].expect("revealed"), n))
        .collect();
    let refs: Vec<&[Seed]> = closed_seeds.iter().map(|s| s.as_slice()).collect();
    let closed_aux = aux_of(&pr, &sh, &refs);
    let mut pre: Vec<Digest> = vec![[0; 32]; m];
    let closed_h: Vec<Digest> = closed
        .par_iter()
        .zip(closed_seeds.par_iter().zip(closed_aux.par_iter()))
        .map(|(&j, (seeds, aux))| {
            let cs: Vec<Digest> = (0..n)
                .map(|i| commit_party(salt, j, i, &seeds[i], (i == n - 1).then_some(aux)))
                .collect();
            commit_preprocessing(salt, j, &cs)
        })
        .collect();
    for (&j, h) in closed.iter().zip(closed_h) {
        pre[j] = h;
    }

    // online executions
    let opened: Vec<Vec<Option<Seed>>> = online_set
        .iter()
        .zip(resp.online.iter().zip(&ch.hidden))
        .map(|(&j, (o, &q))| {
            seedtree::reconstruct(
                n,
                &[q as usize],
                &o.party_seeds,
                TreeId {
                    salt,
                    tree: j as u32,
                },
            )
            .ok_or_else(|| rejected_at(j, "malformed party seeds"))
        })
        .collect::<Result<_>>()?;
    let idx: Vec<usize> = (0..online_set.len()).collect();
    let outs: Vec<ExecOut> = idx
        .par_chunks(group_size(n))
        .map(|ch_idx| {
            let execs: Vec<ExecIn> = ch_idx
                .iter()
                .map(|&t| {
                    let o = &resp.online[t];
                    ExecIn {
                        j: online_set[t],
                        key: o.key,
                        seeds: opened[t].clone(),
                        given: Some(Given {
                            hidden: ch.hidden[t] as usize,
                            masked_input: &o.masked_input,
                            aux: &o.aux,
                            msgs: &o.msgs,
                        }),
                        column: None,
                    }
                })
                .collect();
            with_lanes!(
                n,
                online_group(st.circuit, &pr, &sh, salt, st.output, None, &execs, &[])
            )
        })
        .flatten_iter()
        .collect();
    let mut leaves = Vec::with_capacity(online_set.len());
    for (t, out) in outs.iter().enumerate() {
        let j = online_set[t];
        let q = ch.hidden[t] as usize;
        let o = &resp.online[t];
        let cs: Vec<Digest> = (0..n)
            .map(|i| {
                if i == q {
                    o.commitment
                } else {
                    let a = (i == n - 1).then_some(o.aux.as_slice());
                    commit_party(salt, j, i, &opened[t][i].expect("opened"), a)
                }
            })
            .collect();
        pre[j] = commit_preprocessing(salt, j, &cs);
        leaves.push((j, out.online));
    }
    let online_root =
        crate::merkle::root_from_opening(m, &leaves, &resp.online_path).ok_or_else(|| {
            Error::rejected(format!(
                "the Merkle opening of the online commitments has {} hashes, not the number needed",
                resp.online_path.len()
            ))
        })?;
    Ok(CommitMsg {
        salt: *salt,
        preprocessing: pre,
        online_root,
    })
}

/// `"made for another statement …: "` when a length differs from the circuit's (not a
/// padding bit): the proof belongs to another statement, which is what the user needs to hear.
fn other_statement(len: usize, want: usize) -> String {
    if len != want {
        format!("{}: ", super::ANOTHER_STATEMENT)
    } else {
        String::new()
    }
}

/// Verifies a non-interactive proof; requires [`attack_cost_bits`] `≥ min_bits`.
pub fn verify(st: &Statement, proof: &Proof, min_bits: f64) -> Result<()> {
    let p = &proof.params;
    p.check().map_err(|e| Error::rejected(e.to_string()))?;
    let bits = attack_cost_bits(p);
    if bits < min_bits {
        return Err(Error::rejected(format!(
            "the proof's parameters ({p}) give {bits:.1} bits of security; {min_bits} are required"
        )));
    }
    let ch = Challenge::from_hash(&proof.challenge, p);
    let cm = recompute(st, p, &proof.salt, &ch, &proof.response)?;
    if fs_hash(st, p, &cm) != proof.challenge {
        return Err(Error::rejected(
            "Fiat–Shamir check failed: the recomputed preprocessing and online commitments do not \
             hash to the proof's challenge — wrong statement, output, context or witness, or a \
             tampered proof",
        ));
    }
    Ok(())
}

/// Verifies the interactive form: the response must reproduce the first message exactly.
pub fn verify_interactive(
    st: &Statement,
    params: &Params,
    cm: &CommitMsg,
    ch: &Challenge,
    resp: &Response,
) -> Result<()> {
    if cm.preprocessing.len() != params.m() {
        return Err(Error::rejected(format!(
            "{} preprocessing commitments, expected {}",
            cm.preprocessing.len(),
            params.executions
        )));
    }
    let got = recompute(st, params, &cm.salt, ch, resp)?;
    if let Some(j) = (0..params.m()).find(|&j| got.preprocessing[j] != cm.preprocessing[j]) {
        let what = if ch.online.contains(&(j as u32)) {
            "online"
        } else {
            "opened"
        };
        return Err(Error::rejected(format!(
            "execution {j} ({what}): its preprocessing does not match the commitment"
        )));
    }
    if got.online_root != cm.online_root {
        return Err(Error::rejected(
            "the online phase of some online execution does not match the committed root",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// simulator

/// The zero-knowledge simulator: for a challenge fixed in advance, a first message and a
/// response that [`verify_interactive`] accepts, made without any witness. Preprocessing is
/// honest (it does not involve the witness); in each online execution the masked input and
/// the hidden party's broadcasts are uniformly random — as in a real proof, where they are
/// masked by the hidden party's tape — and the hidden party's output share is whatever makes
/// the output come out right. The online leaves of the executions outside the online set are
/// random digests (a real prover's are never opened).
pub fn simulate(
    st: &Statement,
    params: Params,
    ch: &Challenge,
    rng: &mut impl RngCore,
) -> Result<(CommitMsg, Response)> {
    params.check()?;
    ch.check(&params)?;
    check_output_len(st)?;
    let (m, n) = (params.m(), params.n());
    let sh = Shape::of(st.circuit, n);
    let pr = Program::compile(st.circuit);
    let salt = crate::rng::random_32(rng);
    let root = crate::rng::random_32(rng);
    let exec_tree = SeedTree::new(
        &root,
        m,
        TreeId {
            salt: &salt,
            tree: EXEC_TREE,
        },
    );
    let exec_seeds = exec_tree.leaves();
    let party_seeds: Vec<Vec<Seed>> = exec_seeds
        .iter()
        .enumerate()
        .map(|(j, s)| party_seeds_of(&salt, j, s, n))
        .collect();
    let refs: Vec<&[Seed]> = party_seeds.iter().map(|s| s.as_slice()).collect();
    let aux = aux_of(&pr, &sh, &refs);
    let online_set: Vec<usize> = ch.online.iter().map(|&j| j as usize).collect();
    let rand_bits = |rng: &mut dyn RngCore, nbits: usize| {
        let b: Vec<bool> = (0..nbits).map(|_| rng.next_u32() & 1 == 1).collect();
        pack_bools(&b)
    };
    let mut online_leaves: Vec<Digest> = (0..m).map(|_| crate::rng::random_32(rng)).collect();
    let mut openings = Vec::with_capacity(online_set.len());
    for (&j, &q) in online_set.iter().zip(&ch.hidden) {
        let q = q as usize;
        let key = crate::rng::random_32(rng);
        let masked_input = rand_bits(rng, sh.n_in);
        let msgs = rand_bits(rng, sh.n_and);
        let seeds: Vec<Option<Seed>> = (0..n)
            .map(|i| (i != q).then_some(party_seeds[j][i]))
            .collect();
        let a = if q == n - 1 {
            Vec::new()
        } else {
            aux[j].clone()
        };
        let execs = [ExecIn {
            j,
            key,
            seeds,
            given: Some(Given {
                hidden: q,
                masked_input: &masked_input,
                aux: &a,
                msgs: &msgs,
            }),
            column: None,
        }];
        let out = with_lanes!(
            n,
            online_group(st.circuit, &pr, &sh, &salt, st.output, None, &execs, &[])
        );
        online_leaves[j] = out[0].online;
        let t = SeedTree::new(
            &exec_seeds[j],
            n,
            TreeId {
                salt: &salt,
                tree: j as u32,
            },
        );
        openings.push(OnlineOpening {
            key,
            party_seeds: t.reveal(&[q]),
            commitment: commit_party(
                &salt,
                j,
                q,
                &party_seeds[j][q],
                (q == n - 1).then_some(aux[j].as_slice()),
            ),
            aux: a,
            masked_input,
            msgs,
        });
    }
    let preprocessing = (0..m)
        .map(|j| {
            let cs: Vec<Digest> = (0..n)
                .map(|i| {
                    commit_party(
                        &salt,
                        j,
                        i,
                        &party_seeds[j][i],
                        (i == n - 1).then_some(aux[j].as_slice()),
                    )
                })
                .collect();
            commit_preprocessing(&salt, j, &cs)
        })
        .collect();
    let cm = CommitMsg {
        salt,
        preprocessing,
        online_root: crate::merkle::root(&online_leaves),
    };
    let resp = Response {
        exec_seeds: exec_tree.reveal(&online_set),
        online_path: crate::merkle::open(&online_leaves, &online_set),
        online: openings,
    };
    Ok((cm, resp))
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::rng::seeded_rng;
    use rand::Rng as _;

    fn random_circuit(seed: u64, n_in: usize, n_gates: usize) -> Circuit {
        crate::mpc::circuit::random_circuit(&mut seeded_rng(seed), n_in, n_gates, 12)
    }

    /// One execution with one bool per (wire, party), straight from the definitions.
    /// Returns (aux bits, masked input, h'_j, reconstructed output).
    fn reference_exec(
        c: &Circuit,
        n: usize,
        salt: &[u8; 32],
        j: usize,
        seeds: &[Seed],
        key: &[u8; 32],
        w: &[bool],
    ) -> (Vec<bool>, Vec<bool>, Digest, Vec<bool>) {
        let sh = Shape::of(c, n);
        let tapes: Vec<Vec<u64>> = (0..n).map(|i| tape(&seeds[i], sh.tape_words(i))).collect();
        let tb = |p: usize, k: usize| tapes[p].get(k / 64).is_some_and(|x| x >> (k % 64) & 1 == 1);
        let xor = |v: &[bool]| v.iter().fold(false, |a, &b| a ^ b);
        let mut lam: Vec<Vec<bool>> = Vec::new();
        let mut hat: Vec<bool> = Vec::new();
        for i in 0..sh.n_in {
            let l: Vec<bool> = (0..n).map(|p| tb(p, i)).collect();
            hat.push(w[i] ^ xor(&l));
            lam.push(l);
        }
        let xhat = hat.clone();
        let mut aux = Vec::new();
        let mut bcast: Vec<Vec<bool>> = Vec::new();
        for g in c.gates() {
            match *g {
                Gate::Xor(a, b) => {
                    let l = (0..n)
                        .map(|p| lam[a as usize][p] ^ lam[b as usize][p])
                        .collect();
                    lam.push(l);
                    hat.push(hat[a as usize] ^ hat[b as usize]);
                }
                Gate::Not(a) => {
                    lam.push(lam[a as usize].clone());
                    hat.push(!hat[a as usize]);
                }
                Gate::And(a, b) => {
                    let k = bcast.len();
                    let (la, lb) = (lam[a as usize].clone(), lam[b as usize].clone());
                    let (xa, xb) = (hat[a as usize], hat[b as usize]);
                    let lc: Vec<bool> = (0..n).map(|p| tb(p, 64 * sh.in_w + k)).collect();
                    let mut lab: Vec<bool> = (0..n)
                        .map(|p| p + 1 < n && tb(p, 64 * (sh.in_w + sh.and_w) + k))
                        .collect();
                    let ax = (xor(&la) & xor(&lb)) ^ xor(&lab);
                    lab[n - 1] = ax;
                    aux.push(ax);
                    let s: Vec<bool> = (0..n)
                        .map(|p| lc[p] ^ (xa & lb[p]) ^ (xb & la[p]) ^ lab[p])
                        .collect();
                    hat.push((xa & xb) ^ xor(&s));
                    bcast.push(s);
                    lam.push(lc);
                }
            }
        }
        let mut outs: Vec<Vec<bool>> = Vec::new();
        let mut y = Vec::new();
        for o in c.outputs() {
            match *o {
                Bit::Wire(v) => {
                    y.push(hat[v as usize] ^ xor(&lam[v as usize]));
                    outs.push(lam[v as usize].clone());
                }
                Bit::Const(b) => {
                    y.push(b);
                    outs.push(vec![false; n]);
                }
            }
        }
        let mut h = Sha256::new();
        h.update(b"zkg:kkw:online:v1");
        h.update(salt);
        h.update((j as u32).to_le_bytes());
        h.update(key);
        h.update(pack_bools(&xhat));
        h.update(pack_bools(&bcast.concat()));
        h.update(pack_bools(&outs.concat()));
        (aux, xhat, h.finalize().into(), y)
    }

    /// The register program computes what the circuit computes, with few registers.
    #[test]
    fn register_program_evaluates_like_the_circuit() {
        let mut g = seeded_rng(43);
        for case in 0..200u64 {
            let n_in = g.gen_range(1..80);
            let c = random_circuit(1000 + case, n_in, g.gen_range(1..600));
            let p = Program::compile(&c);
            assert!(p.regs <= c.n_wires());
            for _ in 0..4 {
                let w: Vec<bool> = (0..n_in).map(|_| g.gen()).collect();
                let mut r = vec![false; p.regs];
                r[..n_in].copy_from_slice(&w);
                for op in &p.ops {
                    match *op {
                        Op::Xor(a, b, d) => r[d as usize] = r[a as usize] ^ r[b as usize],
                        Op::And(a, b, d) => r[d as usize] = r[a as usize] & r[b as usize],
                        Op::Not(a, d) => r[d as usize] = !r[a as usize],
                    }
                }
                let got: Vec<bool> = p
                    .outputs
                    .iter()
                    .zip(c.outputs())
                    .map(|(r_o, o)| match (r_o, o) {
                        (Some(x), _) => r[*x as usize],
                        (None, Bit::Const(b)) => *b,
                        (None, Bit::Wire(_)) => unreachable!(),
                    })
                    .collect();
                assert_eq!(got, c.eval(&w), "case {case}");
            }
        }
        // SHA-256 needs a few thousand registers for its 150k wires
        let sha = crate::mpc::sha256::sha256_circuit(55).unwrap();
        assert!(Program::compile(&sha).regs < 4000);
    }

    #[test]
    fn bitsliced_prover_matches_the_scalar_reference() {
        let mut g = seeded_rng(40);
        for case in 0..40u64 {
            let n = 1usize << g.gen_range(1..=6);
            let m = g.gen_range(1..=(130 / n).max(2));
            let n_in = g.gen_range(1..150);
            let c = random_circuit(case, n_in, g.gen_range(1..400));
            let w: Vec<bool> = (0..n_in).map(|_| g.gen()).collect();
            let y = c.eval(&w);
            let st = Statement {
                tag: b"t",
                circuit: &c,
                public: b"",
                output: &y,
                context: b"",
            };
            let p = Params::new(m as u32, 1, n as u32);
            let ps = commit(&st, &w, p, &mut g, &[]).unwrap();
            for j in 0..m {
                let (aux, xhat, h, yy) =
                    reference_exec(&c, n, &ps.salt, j, &ps.party_seeds[j], &ps.keys[j], &w);
                assert_eq!(yy, y, "reconstructed output, case {case}");
                assert_eq!(
                    ps.aux[j],
                    pack_bools(&aux),
                    "aux, case {case} exec {j} N {n}"
                );
                assert_eq!(ps.masked_input[j], pack_bools(&xhat), "x̂, case {case}");
                assert_eq!(ps.online[j], h, "h', case {case} exec {j} N {n}");
            }
            // the preprocessing-only path computes the same aux
            let refs: Vec<&[Seed]> = ps.party_seeds.iter().map(|s| s.as_slice()).collect();
            assert_eq!(
                aux_of(&Program::compile(&c), &Shape::of(&c, n), &refs),
                ps.aux,
                "case {case}"
            );
            // every challenge's response reproduces the commitment
            for _ in 0..3 {
                let ch = Challenge::random(&p, &mut g);
                let r = ps.respond(&st, &ch).unwrap();
                verify_interactive(&st, &p, ps.commitment(), &ch, &r).unwrap();
            }
        }
    }

    fn check_matrix<const N: usize>(g: &mut crate::rng::Rng) {
        let words: Vec<u64> = (0..37).map(|_| g.gen()).collect();
        for grp in 0..64 / N {
            let mut got = vec![7u8];
            matrix_bytes::<N>(&words, grp, &mut got);
            let bits: Vec<bool> = words
                .iter()
                .flat_map(|w| (0..N).map(move |i| w >> (grp * N + i) & 1 == 1))
                .collect();
            assert_eq!(got[1..], pack_bools(&bits)[..], "N {N}");
        }
    }

    fn check_parity<const N: usize>(g: &mut crate::rng::Rng) {
        for _ in 0..200 {
            let x: u64 = g.gen();
            let p = Lanes::<N>::parity(x);
            for grp in 0..64 / N {
                let m = Lanes::<N>::group(grp);
                let want = (x & m).count_ones() % 2 == 1;
                assert_eq!(p & m, if want { m } else { 0 }, "N {N}");
                assert_eq!(Lanes::<N>::LAST >> (grp * N + N - 1) & 1, 1);
            }
        }
    }

    #[test]
    fn lane_helpers_against_naive_definitions() {
        let mut g = seeded_rng(41);
        for logn in 1..=6 {
            with_lanes!(1usize << logn, check_matrix(&mut g));
            with_lanes!(1usize << logn, check_parity(&mut g));
        }
        // lane columns
        for _ in 0..20 {
            let nbits = g.gen_range(1..300);
            let words: Vec<u64> = (0..nbits).map(|_| g.gen()).collect();
            let lanes = [0usize, 5, 63];
            let got = lane_columns(&words, nbits, &lanes);
            for (l, col) in lanes.iter().zip(&got) {
                let bits: Vec<bool> = words.iter().map(|w| w >> l & 1 == 1).collect();
                assert_eq!(*col, pack_bools(&bits));
            }
        }
    }
}
