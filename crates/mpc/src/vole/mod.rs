//! VOLE-in-the-head (Baum et al., CRYPTO 2023; the construction FAEST builds on) over
//! [`Circuit`]s.
//!
//! The witness positions are the circuit's input bits followed by every AND gate's output
//! bit, then every inverted byte's 8 bits; those the public outputs fix ([`fixed`]) are not
//! committed, the other `ℓ` are. The prover commits to `τ` all-but-one vector commitments
//! of `2^{k_i}` leaves (`Σ k_i = delta_bits`), batched in one GGM tree ([`vc`]: FAEST v2's
//! BAVC, whose opening is bounded by the parameters' `T`), turns each into a small-field
//! VOLE and combines them ([`convert`]) into one VOLE of length `ℓ̂ = ℓ + 272` with a
//! global key `Δ ∈ GF(2^128)`: the prover holds bits `u_p` and tags `v_p`, the verifier will
//! hold `q_p = v_p + u_p·Δ`. The prover sends the corrections (`τ − 1` strings of `ℓ̂` bits),
//! then, after `chall1`, two universal hashes of `u` with independent keys (`ũ`, 128 bits, and
//! `ũ′`, the low 16 bits of the second: FAEST's `λ + 16`-bit check) and a digest of both
//! hashes of every column of `V` (the VOLE consistency check), and the masked
//! witness `d = w ⊕ u[0, ℓ)` (the committed positions); after `chall2`, one QuickSilver
//! combination, `Ã0, Ã1` ([`quicksilver`], masked by `u[ℓ, ℓ+128)` and its tags);
//! `chall3` gives `Δ`, i.e. the hidden leaf of every tree, and the prover opens every other
//! leaf. The verifier rebuilds `q`, checks the leaf commitments, both consistency hashes and
//! `Σ χ (K_a K_b + K_c Δ) + … + q* = Ã0 + Ã1 Δ`. A forger's query succeeds with probability
//! at most `2^-144` on the consistency phase, `2^-128` on QuickSilver's and `2^{1−D−w}` on
//! `Δ`'s, so `Q` queries succeed with probability at most `Q` times the largest
//! ([`attack_cost_bits`]).
//!
//! Fiat–Shamir hashes everything public, in order (statement, parameters, salt, `h_com`,
//! corrections → `chall1`; `ũ ‖ ũ′`, `H(Ṽ)`, `d` → `chall2`; `Ã0`, `Ã1`,
//! counter → `chall3`). A non-interactive proof leaves out `h_com`, `H(Ṽ)` and
//! `Ã0` and carries `Δ`: its verifier rebuilds the VOLE at that `Δ`, recomputes
//! the three as an honest prover's verifier would find them ([`recompute`]) and accepts if
//! the transcript over them gives that `Δ` (FAEST's framing).
//! `chall3` is valid only if `w` bits after `Δ`'s are zero and `Δ` opens the tree with at
//! most `T` seeds (grinding: the prover tries counters, `2^w` over the admissible share
//! hashes on average, one SHA-256 compression each).
//!
//! The bytes and the soundness of each parameter set are in docs/PROTOCOLS.md, section 7.

pub mod aes_many;
pub mod backend;
pub mod convert;
pub mod fixed;
pub mod par;
pub mod params;
pub mod quicksilver;
pub mod size;
pub use backend::Vole;
pub mod vc;

use rand_core::RngCore;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use self::convert::{Bits, UHash};
use self::vc::NodeSeed;
use super::circuit::{Bit, Circuit};
use super::gf128;
use super::statement::{pack_bools, Statement};
use zkgames_core::commit::Digest;
use zkgames_core::details::{Details, Value};
use zkgames_core::transcript::Transcript;
use zkgames_core::Error;
use zkgames_core::Result;

pub use params::{attack_cost_bits, params_for, Params, Profile};

/// Transcript label of every VOLE proof (`v9`: one QuickSilver combination, FAEST's, and
/// its one mask; `v8`: a non-interactive proof carries `Δ` in
/// place of `h_com`, `H(Ṽ)` and `Ã0 ‖ Ã0′`, which its verifier recomputes, and a 16-byte
/// salt; `v7`: one batched tree for every repetition, its opening bounded by `T`, [`vc`];
/// `v6`: the witness bits the outputs fix are not
/// committed, [`fixed`]; `v5`: a 128-bit and a 16-bit consistency hash, the
/// corrections and openings as flat lists; `v4`: AES-128 trees and leaves, a fixed-width
/// counter; `v3`: doubled field checks; `v1` had one of each).
pub const TRANSCRIPT_TAG: &[u8] = b"zkg:vole:v11";
/// Domain tag of the digest of the hashed columns.
pub const VHASH_TAG: &[u8] = b"zkg:vole:vhash:v11";
/// How many QuickSilver combinations run (`v9`: one, FAEST's; `v3`–`v8` ran two with
/// independent coefficients). The code is written for any number: each has its own
/// coefficients, its own 128-position mask and its own `Ã0, Ã1`.
pub const COMBINATIONS: usize = 1;
/// How many consistency hashes, with independent keys (the second truncated to
/// [`convert::SHORT_HASH_BITS`] bits).
pub const HASHES: usize = 2;
/// Bytes of the short hash `ũ′` and of its value per column.
const SHORT_BYTES: usize = convert::SHORT_HASH_BITS / 8;

/// What every proof carries of the prover's messages before `Δ`: all of them but the three
/// values a verifier recomputes from the rest and `Δ` (`h_com`, `H(Ṽ)`, `Ã0`: see
/// [`CommitMsg`]). A non-interactive [`Proof`] carries only this.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CommitCore {
    /// 128 bits, as FAEST's IV: the trees' and leaves' AES inputs and the leaf commitments
    /// differ from proof to proof.
    pub salt: [u8; 16],
    /// `c_1 ‖ … ‖ c_{τ−1}`, `c_i = u_0 ⊕ u_i`: `τ−1` strings of `⌈ℓ̂/8⌉` bytes (`ℓ̂` bits
    /// packed, padding bits zero) concatenated, one length on the wire.
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub corrections: Vec<u8>,
    /// `ũ = H_0(u_0)`, 16 bytes little-endian.
    pub u_hash: [u8; 16],
    /// `ũ′ = H_1(u_0)`, the short hash: 2 bytes little-endian.
    pub u_hash_short: [u8; SHORT_BYTES],
    /// `d = w ⊕ u_0[0, ℓ)`, `ℓ` bits packed.
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub masked_witness: Vec<u8>,
    /// QuickSilver's `Ã1`, one per combination ([`COMBINATIONS`]).
    pub a1: [[u8; 16]; COMBINATIONS],
    /// QuickSilver's `Ã2` when the check has degree 3 (a circuit with norm bytes), one per
    /// combination; empty otherwise (its one length byte is all a degree-2 proof pays).
    #[serde(with = "short_list")]
    pub a2: Vec<[u8; 16]>,
}

/// The prover's messages before `Δ`, in full: a live session's first message.
///
/// The three values past [`CommitCore`] are those an honest prover's verifier recomputes
/// ([`recompute`]): a session's verifier compares them with what it computed, a
/// non-interactive one hashes what it computed into the transcript and compares the
/// challenge that gives with the proof's `Δ` (they are not sent: 80 bytes).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CommitMsg {
    pub core: CommitCore,
    /// `h_com`: the digest of every leaf commitment of every repetition.
    pub h_com: Digest,
    /// `SHA-256(VHASH_TAG ‖ H_0(Ṽ_0) ‖ H_1(Ṽ_0) ‖ … ‖ H_1(Ṽ_{delta_bits−1}))`, 16 + 2 bytes
    /// per column.
    pub v_hash: Digest,
    /// QuickSilver's `Ã0`, one per combination ([`COMBINATIONS`]).
    pub a0: [[u8; 16]; COMBINATIONS],
}

/// The answer to `Δ`: every repetition's opening as two flat lists.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Response {
    /// The seeds that open every leaf but the hidden ones ([`vc::opened`], in its order),
    /// then zero seeds up to the parameters' bound `T` (exactly the opened ones if `T = 0`).
    #[serde(with = "short_list")]
    pub seeds: Vec<NodeSeed>,
    /// The `τ` hidden leaves' commitments `com_{i, j*_i}`, in repetition order.
    #[serde(with = "short_list")]
    pub commitments: Vec<Digest>,
}

/// `Δ` as the hidden leaf of every repetition.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Challenge {
    pub hidden: Vec<u32>,
}

/// A non-interactive VOLE-in-the-head proof.
///
/// It carries `Δ` and the counter in place of `h_com`, `H(Ṽ)` and `Ã0`: the verifier
/// rebuilds the VOLE at this `Δ`, recomputes those three as an honest prover's verifier
/// would find them, hashes them into the transcript, and accepts only if `chall3` at the
/// counter gives this `Δ` (FAEST's framing: soundness is the interactive protocol's per
/// query, docs/PROTOCOLS.md 7.9).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Proof {
    pub params: Params,
    pub commit: CommitCore,
    /// `Δ`: the first `delta_bits` bits of `chall3`, 16 bytes little-endian, every bit from
    /// `delta_bits` on zero (one encoding).
    pub delta: [u8; 16],
    /// The grinding counter that makes `chall3` valid: 4 bytes little-endian on the wire
    /// (fixed width, so that a proof's size depends only on its statement and parameters).
    #[serde(with = "fixed_u32")]
    pub counter: u32,
    pub response: Response,
}

/// A `u32` as exactly 4 little-endian bytes (bincode's varint would take 1, 3 or 5).
mod fixed_u32 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(x: &u32, s: S) -> Result<S::Ok, S::Error> {
        x.to_le_bytes().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        <[u8; 4]>::deserialize(d).map(u32::from_le_bytes)
    }
}

/// A list of at most [`params::MAX_DELTA_BITS`] fixed-size items (seeds, commitments) with the
/// bytes of a plain `Vec` (a length, then the items), decoded without trusting the length:
/// room for at most that many items is reserved up front, and any more only as the input
/// really has them (the verifier checks the exact count, `D` or `τ`, before using them).
mod short_list {
    use serde::de::{SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<T>, A::Error> {
                let cap = a.size_hint().unwrap_or(0);
                let mut v = Vec::with_capacity(cap.min(super::params::MAX_DELTA_BITS as usize));
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(v)
            }
        }
        d.deserialize_seq(V(std::marker::PhantomData))
    }
}

impl Challenge {
    /// `Δ = Σ_i hidden_i · X^{offset_i}`.
    pub fn delta(&self, p: &Params) -> u128 {
        self.hidden
            .iter()
            .enumerate()
            .fold(0u128, |d, (i, &h)| d | ((h as u128) << p.offset(i)))
    }

    /// A uniformly random admissible challenge (live sessions, tests): uniform if the
    /// parameters bound no opening (a session's), else drawn again until its opening fits
    /// `T` (at most 2^20 draws; after that the last one, which the prover will refuse).
    pub fn random(p: &Params, rng: &mut impl RngCore) -> Self {
        let mut draw = || Challenge {
            hidden: (0..p.tau())
                .map(|i| (rng.next_u64() & ((1u64 << p.k(i)) - 1)) as u32)
                .collect(),
        };
        let mut ch = draw();
        for _ in 0..1 << 20 {
            if ch.admissible(p) {
                break;
            }
            ch = draw();
        }
        ch
    }

    /// The number of seeds that open the tree at this challenge ([`vc::opened`]).
    pub fn opened(&self, p: &Params) -> usize {
        vc::opened(&vc::Layout::new(p), &self.hidden).len()
    }

    /// Whether the opening fits the parameters' bound `T` (always if `T = 0`). A checked
    /// challenge only ([`Challenge::check`]).
    pub fn admissible(&self, p: &Params) -> bool {
        p.open == 0 || self.opened(p) <= p.open as usize
    }

    /// From `chall3`'s 32 bytes: repetition `i` reads bits `[offset_i, offset_i + k_i)`
    /// (bit `n` is bit `n mod 8` of byte `n / 8`); `None` unless the `w` bits from
    /// `delta_bits` on are zero.
    pub fn from_chall3(c: &[u8; 32], p: &Params) -> Option<Self> {
        let bit = |n: u32| (c[(n / 8) as usize] >> (n % 8)) & 1 == 1;
        if (p.delta_bits..p.delta_bits + p.grind).any(bit) {
            return None;
        }
        Some(Challenge {
            hidden: (0..p.tau())
                .map(|i| {
                    let o = p.offset(i);
                    (0..p.k(i)).fold(0u32, |h, b| h | ((bit(o + b) as u32) << b))
                })
                .collect(),
        })
    }

    /// From a proof's `Δ` (16 bytes little-endian); `None` if a bit from `delta_bits` on is
    /// set.
    pub fn from_delta(d: &[u8; 16], p: &Params) -> Option<Self> {
        let x = u128::from_le_bytes(*d);
        if p.delta_bits < 128 && x >> p.delta_bits != 0 {
            return None;
        }
        // the inverse of `delta`
        let hidden = (0..p.tau())
            .map(|i| ((x >> p.offset(i)) & ((1u128 << p.k(i)) - 1)) as u32)
            .collect();
        Some(Challenge { hidden })
    }

    pub fn check(&self, p: &Params) -> Result<()> {
        if self.hidden.len() != p.tau()
            || self
                .hidden
                .iter()
                .enumerate()
                .any(|(i, &h)| h as u64 >= 1u64 << p.k(i))
        {
            return Err(Error::bad(format!(
                "the challenge is not one leaf index per repetition ({} repetitions)",
                p.tau
            )));
        }
        Ok(())
    }
}

/// Deliberate misbehaviour for soundness tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// Flip the output bit of AND gate `t` in the witness (and carry on with it); from
    /// `t = n_and` on, bit `t − n_and` of the inverted bytes' outputs (a forged inverse).
    FlipAnd(usize),
    /// Place a root of every combination's error polynomial at this guess of `Δ`: the
    /// forger's best strategy once its witness is wrong (`Ã1 += E·g`; at degree 3
    /// `Ã2 += E·g`).
    Guess(u128),
    /// At degree 3, place two roots, at `g` and `h` (besides 0): the most a cubic allows.
    Guess2(u128, u128),
    /// Flip bit `bit` of correction `rep` (`1 ≤ rep < τ`): an inconsistent VOLE.
    Correction { rep: usize, bit: usize },
    /// A forger that knows `Δ` for one of the two consistency hashes (`hash` 0, the full one,
    /// or 1, the 16-bit one) only: that hash of every column absorbs the corrections' error
    /// (`+ Δ_c·H_k(e)`), so that hash passes whatever the corrections; the other is computed
    /// honestly. Shows that each hash is checked.
    AdjustHash { hash: usize, delta: u128 },
}

#[derive(Clone, Debug)]
struct Shape {
    /// The QuickSilver relations before the outputs' (AND gates), and after (inverted bytes).
    n_and: usize,
    n_inv: usize,
    /// Committed witness bits (`ℓ`: the positions the outputs do not fix, [`fixed`]).
    l: usize,
    lhat: usize,
    /// QuickSilver's degree (2, or 3 with norm bytes): `degree − 1` mask rows at `ℓ`.
    degree: usize,
    red: std::sync::Arc<fixed::Reduction>,
}

impl Shape {
    /// The positions the consistency hashes read: the witness and the QuickSilver masks.
    fn hashed(&self) -> usize {
        self.l + 128 * (self.degree - 1)
    }

    /// Where combination `k`'s mask rows start (`degree − 1` rows of 128 positions each).
    fn mask_at(&self, k: usize) -> usize {
        self.l + 128 * (self.degree - 1) * k
    }

    /// `Ã2`s a proof carries: one per combination at degree 3.
    fn n_a2(&self) -> usize {
        COMBINATIONS * (self.degree - 2)
    }
}

impl Shape {
    fn of(c: &Circuit) -> Self {
        let red = fixed::Reduction::cached(c);
        let mut sh = Shape {
            n_and: c.n_and(),
            n_inv: c.n_inv(),
            l: red.n_committed(),
            lhat: 0,
            degree: quicksilver::degree(c),
            red,
        };
        sh.lhat = sh.hashed() + convert::HASH_MASK_BITS;
        sh
    }
}

/// Transcript up to `chall1`: the statement, parameters, salt, `h_com`, corrections.
fn transcript(st: &Statement, p: &Params, cm: &CommitMsg) -> Transcript {
    let mut t = Transcript::new(TRANSCRIPT_TAG);
    t.append(b"tag", st.tag);
    t.append(b"circuit", &st.circuit.digest());
    t.append(b"public", st.public);
    t.append(b"output", &pack_bools(st.output));
    t.append(b"context", st.context);
    t.append_u64(b"tau", p.tau as u64);
    t.append_u64(b"delta bits", p.delta_bits as u64);
    t.append_u64(b"grind", p.grind as u64);
    t.append_u64(b"open", p.open as u64);
    t.append(b"salt", &cm.core.salt);
    t.append(b"h_com", &cm.h_com);
    t.append(b"corrections", &cm.core.corrections);
    t
}

fn draw32(t: &Transcript, label: &'static [u8]) -> [u8; 32] {
    let mut c = [0u8; 32];
    t.challenges(label).fill(&mut c);
    c
}

/// `ũ ‖ ũ′` (18 bytes), `v_hash`, `d`: what `chall2` follows.
fn absorb_hashes(t: &mut Transcript, cm: &CommitMsg) {
    t.append(
        b"u hash",
        &[&cm.core.u_hash[..], &cm.core.u_hash_short[..]].concat(),
    );
    t.append(b"v hash", &cm.v_hash);
    t.append(b"masked witness", &cm.core.masked_witness);
}

/// `Ã0` and `Ã1` (each combination's, concatenated): what `chall3` follows.
fn absorb_quicksilver(t: &mut Transcript, cm: &CommitMsg) {
    t.append(b"a0", &cm.a0.concat());
    t.append(b"a1", &cm.core.a1.concat());
    if !cm.core.a2.is_empty() {
        t.append(b"a2", &cm.core.a2.concat());
    }
}

/// Every combination's coefficients: combination `k` takes elements `[k·n, (k+1)·n)` of the
/// `chall2` stream.
fn chis(chall2: &[u8; 32], n: usize) -> Vec<u128> {
    convert::field_stream(chall2, COMBINATIONS * n)
}

/// [`chis`]'s stream cut into one slice of `n` per combination.
fn per_combination(chi: &[u128], n: usize) -> Vec<&[u128]> {
    chi.chunks_exact(n.max(1)).take(COMBINATIONS).collect()
}

/// Domain tag of `chall3`'s per-counter hash.
pub const CHALL3_TAG: &[u8] = b"zkg:vole:chall3:v11";

/// `chall3` for every grinding counter: `SHA-256(pad(CHALL3_TAG) ‖ seed ‖ u32le(counter))`,
/// `seed` the transcript's challenge `"vole chall3"` over everything public before the
/// counter (`pad` zero-pads to 32 bytes). The first 64 bytes are one SHA-256 block,
/// compressed once per proof, so that a grinding try costs one compression (`v6` hashed the
/// counter into the transcript: three compressions a try); the try's block (the counter and
/// SHA-256's padding of a 68-byte message) is built in place and compressed directly.
struct Chall3 {
    /// The chaining value after the first block.
    state: [u32; 8],
}

/// SHA-256's initial chaining value (FIPS 180-4, 5.3.3).
const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

impl Chall3 {
    fn new(t: &Transcript) -> Self {
        let mut block = [0u8; 64];
        block[..CHALL3_TAG.len()].copy_from_slice(CHALL3_TAG);
        block[32..].copy_from_slice(&draw32(t, b"vole chall3"));
        let mut state = SHA256_IV;
        sha2::compress256(&mut state, &[block.into()]);
        Chall3 { state }
    }

    fn at(&self, counter: u32) -> [u8; 32] {
        let mut block = [0u8; 64];
        block[..4].copy_from_slice(&counter.to_le_bytes());
        block[4] = 0x80;
        block[56..].copy_from_slice(&(68u64 * 8).to_be_bytes());
        let mut s = self.state;
        sha2::compress256(&mut s, &[block.into()]);
        let mut out = [0u8; 32];
        for (o, w) in out.chunks_exact_mut(4).zip(s) {
            o.copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

fn chall3(t: &Transcript, counter: u32) -> [u8; 32] {
    Chall3::new(t).at(counter)
}

/// `SHA-256(VHASH_TAG ‖ H_0(col_0) + adj_0 ‖ H_1(col_0) + adj′_0 ‖ …)`: per column the full
/// hash's 16 bytes, then the short hash's 2 (little-endian each).
fn v_hash(uh: &UHash, cols: &[Bits], adjust: impl Fn(usize) -> [u128; HASHES] + Sync) -> Digest {
    let one = |(c, col): (usize, &Bits)| {
        let (h, a) = (uh.hash(col), adjust(c));
        [h[0] ^ a[0], h[1] ^ a[1]]
    };
    let hs: Vec<[u128; HASHES]> = if par::serial() {
        cols.iter().enumerate().map(one).collect()
    } else {
        cols.par_iter().enumerate().map(one).collect()
    };
    let mut h = Sha256::new();
    h.update(VHASH_TAG);
    for [h0, h1] in hs {
        h.update(h0.to_le_bytes());
        h.update(&h1.to_le_bytes()[..SHORT_BYTES]);
    }
    h.finalize().into()
}

/// `Σ_j row_{from+j} · X^j`: a QuickSilver mask's tag (prover) or key (verifier);
/// combination `k`'s mask is at `from = ℓ + 128k`.
fn mask_sum(rows: &[u128], from: usize) -> u128 {
    (0..128).fold(0u128, |a, j| a ^ gf128::mul(rows[from + j], 1u128 << j))
}

fn le(x: u128) -> [u8; 16] {
    x.to_le_bytes()
}

/// `[ũ, ũ′]` as field elements (`ũ′ < 2^16`).
fn u_hashes(cm: &CommitCore) -> [u128; HASHES] {
    let mut short = [0u8; 16];
    short[..SHORT_BYTES].copy_from_slice(&cm.u_hash_short);
    [u128::from_le_bytes(cm.u_hash), u128::from_le_bytes(short)]
}

/// The short hash's bytes (`x < 2^16`).
fn short_le(x: u128) -> [u8; SHORT_BYTES] {
    x.to_le_bytes()[..SHORT_BYTES]
        .try_into()
        .expect("SHORT_BYTES bytes")
}

/// The witness positions' values: inputs, then every AND output (gate order), then every
/// inverted byte's bits, with relation `flip`'s bit flipped and carried on. The reference for
/// [`quicksilver::ProverWalk::witness`] (tests); a cheating prover's witness ([`Cheat`]).
fn extended_witness(c: &Circuit, input: &[bool], flip: Option<usize>) -> Vec<bool> {
    use super::circuit::Gate;
    let mut v = Vec::with_capacity(c.n_wires());
    v.extend_from_slice(input);
    let mut ext = input.to_vec();
    let mut invs = Vec::with_capacity(c.n_inv_bits());
    let mut inv = 0u8;
    for g in c.gates() {
        let x = match *g {
            Gate::Xor(a, b) => v[a as usize] ^ v[b as usize],
            Gate::Not(a) => !v[a as usize],
            Gate::Inv(i, j) => {
                if j == 0 {
                    let ins = c.inv_inputs()[i as usize];
                    let x = (0..8).fold(0u8, |x, k| x | ((v[ins[k] as usize] as u8) << k));
                    // the committed bits (a norm byte's 4, or the inverse's 8), a flipped one
                    // carried on into the byte's output
                    let (bits, width) = if c.is_norm(i as usize) {
                        (super::circuit::gf256_inv_norm_bits(x), 4)
                    } else {
                        (super::circuit::gf256_inv(x), 8)
                    };
                    let mut committed = 0u8;
                    for b in 0..width {
                        let t = c.n_and() + invs.len();
                        let bit = ((bits >> b) & 1 == 1) ^ (flip == Some(t));
                        invs.push(bit);
                        committed |= (bit as u8) << b;
                    }
                    inv = if c.is_norm(i as usize) {
                        super::circuit::gf256_mul(
                            super::circuit::gf256_pow16(x),
                            super::circuit::norm_byte(committed),
                        )
                    } else {
                        committed
                    };
                }
                (inv >> j) & 1 == 1
            }
            Gate::And(a, b) => {
                let t = ext.len() - input.len();
                let x = (v[a as usize] & v[b as usize]) ^ (flip == Some(t));
                ext.push(x);
                x
            }
        };
        v.push(x);
    }
    ext.extend_from_slice(&invs);
    ext
}

/// What the prover keeps between its commitment and its response: the tree (built once:
/// opening it again from its root would cost a second pass over every node), wiped when
/// dropped.
pub struct ProverState {
    params: Params,
    commit: CommitMsg,
    tree: vc::Tree,
    transcript: Transcript,
}

impl Drop for ProverState {
    fn drop(&mut self) {
        self.tree.wipe();
    }
}

/// The prover's first phase. Reads from `rng`, in this order, the 16-byte salt and the
/// 16-byte root (a seal's master generator relies on that order).
pub fn commit(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Result<ProverState> {
    let mut seeds = draw_seeds(rng);
    // as a whole proof (prove_inner)
    let state = par::run(work(st, &params), || {
        commit_inner(st, witness, params, seeds, cheats, false)
    });
    super::zkbpp::wipe(&mut seeds.1);
    state
}

/// A proof's leaf stream bits ([`par::work`]): whether its loops split across threads.
fn work(st: &Statement, p: &Params) -> u64 {
    let c = st.circuit;
    par::work(
        c.n_inputs() + c.n_and() + c.n_inv_bits(),
        vc::Layout::new(p).leaves(),
    )
}

/// The prover's only randomness, in this order: the 16-byte salt and the 16-byte root.
fn draw_seeds(rng: &mut impl RngCore) -> ([u8; 16], NodeSeed) {
    let mut salt = [0u8; 16];
    rng.fill_bytes(&mut salt);
    let mut root = [0u8; 16];
    rng.fill_bytes(&mut root);
    (salt, root)
}

/// [`commit`], and with `check` set, refusing a witness that does not satisfy the statement:
/// the gate walk that builds the masked witness evaluates the circuit, so [`prove`] needs
/// no evaluation of its own. The refusal comes after the salt, roots and trees (a wrong
/// witness costs its own prover that work, nobody else).
fn commit_inner(
    st: &Statement,
    witness: &[bool],
    params: Params,
    (salt, mut root): ([u8; 16], NodeSeed),
    cheats: &[Cheat],
    check: bool,
) -> Result<ProverState> {
    params.check()?;
    st.check_output_len()?;
    if witness.len() != st.circuit.n_inputs() {
        return Err(Error::bad(format!(
            "witness has {} bits, the circuit takes {}",
            witness.len(),
            st.circuit.n_inputs()
        )));
    }
    let sh = Shape::of(st.circuit);
    let p = params;
    let dom = vc::Domains::new(&salt);
    let tree = vc::Tree::new(&dom, vc::Layout::new(&p), &root);
    super::zkbpp::wipe(&mut root);
    // every repetition: leaf commitments, u_i and its k_i columns
    type Rep = (Vec<Digest>, Bits, Vec<Bits>);
    let rep = |i: usize| -> Rep {
        let mut leaves = tree.rep_leaves(i);
        let (u, v, coms) = convert::prover_rep(&dom, i as u32, &leaves, p.k(i), sh.lhat);
        for s in &mut leaves {
            super::zkbpp::wipe(s);
        }
        (coms, u, v)
    };
    let reps: Vec<Rep> = if par::serial() {
        (0..p.tau()).map(rep).collect()
    } else {
        (0..p.tau()).into_par_iter().map(rep).collect()
    };
    let h_com = vc::h_com(reps.iter().map(|r| &r.0[..]));
    let u0 = reps[0].1.clone();
    let mut corrections: Vec<Vec<u8>> = reps[1..]
        .iter()
        .map(|r| {
            let mut c = u0.clone();
            convert::xor_into(&mut c, &r.1);
            convert::to_bytes(&c, sh.lhat)
        })
        .collect();
    // the corrections' error per repetition (zero for an honest prover)
    let mut errors: Vec<Bits> = vec![vec![0u64; convert::words(sh.lhat)]; p.tau()];
    for ch in cheats {
        if let Cheat::Correction { rep, bit } = *ch {
            if rep >= 1 && rep < p.tau() && bit < sh.lhat {
                corrections[rep - 1][bit / 8] ^= 1 << (bit % 8);
                errors[rep][bit / 64] ^= 1 << (bit % 64);
            }
        }
    }
    let mut adjust: [Option<u128>; HASHES] = [None; HASHES];
    for c in cheats {
        if let Cheat::AdjustHash { hash, delta } = *c {
            if hash < HASHES {
                adjust[hash] = Some(delta);
            }
        }
    }
    let cols: Vec<Bits> = reps.into_iter().flat_map(|r| r.2).collect();
    let tags = convert::rows(&cols, sh.lhat);
    let mut pos_tags = sh.red.spread(|r| tags[r]);
    sh.red.fill(st.circuit, &mut pos_tags, 0, |_| 0, st.output);
    let flip = cheats.iter().find_map(|c| match c {
        Cheat::FlipAnd(t) => Some(*t),
        _ => None,
    });
    // a cheating prover commits the bits it likes (a flipped one carried on); the bits the
    // outputs fix are then what the outputs and those give, whatever the gates compute
    let forged = (!cheats.is_empty()).then(|| {
        let mut x = extended_witness(st.circuit, witness, flip);
        sh.red.fill(st.circuit, &mut x, true, |b| b, st.output);
        x
    });
    let n_in = st.circuit.n_inputs();
    let walk = quicksilver::ProverWalk::new(st.circuit, witness, &pos_tags, |t, v| match &forged {
        Some(x) => x[n_in + t],
        None => v,
    });
    if check {
        match walk.satisfies(st.circuit, st.output) {
            Ok(true) => {}
            Ok(false) => return Err(super::statement::wrong_witness(false)),
            Err(_) => return Err(super::statement::wrong_witness(true)),
        }
    }
    let x = walk.witness();
    let mut d = vec![0u64; convert::words(sh.l)];
    for (p_, &b) in x.iter().enumerate() {
        if let Some(r) = sh.red.row(p_) {
            convert::set(&mut d, r, b ^ convert::get(&u0, r));
        }
    }
    let mut cm = CommitMsg {
        core: CommitCore {
            salt,
            corrections: corrections.concat(),
            u_hash: [0; 16],
            u_hash_short: [0; SHORT_BYTES],
            masked_witness: convert::to_bytes(&d, sh.l),
            a1: [[0; 16]; COMBINATIONS],
            a2: vec![[0; 16]; sh.n_a2()],
        },
        h_com,
        v_hash: [0; 32],
        a0: [[0; 16]; COMBINATIONS],
    };
    let mut t = transcript(st, &p, &cm);
    let c1 = draw32(&t, b"vole chall1");
    let uh = UHash::over(&c1, sh.hashed());
    let [u_full, u_short] = uh.hash(&u0);
    cm.core.u_hash = le(u_full);
    cm.core.u_hash_short = short_le(u_short);
    // column c of repetition i: the adjusted check absorbs Δ_c·H_k(e_i)
    let err_hash: Vec<[u128; HASHES]> = errors.iter().map(|e| uh.hash(e)).collect();
    let rep_of: Vec<usize> = (0..p.tau())
        .flat_map(|i| std::iter::repeat_n(i, p.k(i) as usize))
        .collect();
    cm.v_hash = v_hash(&uh, &cols, |col| {
        let mut a = [0u128; HASHES];
        for (k, adj) in adjust.iter().enumerate() {
            if let Some(delta) = adj {
                a[k] = gf128::scale(err_hash[rep_of[col]][k], (delta >> col) & 1 == 1);
            }
        }
        a
    });
    absorb_hashes(&mut t, &cm);
    let c2 = draw32(&t, b"vole chall2");
    let n_rel = sh.n_and + st.circuit.n_outputs() + sh.n_inv;
    let chi = chis(&c2, n_rel);
    let sums = walk.sums(st.circuit, &per_combination(&chi, n_rel), st.output);
    drop(walk);
    for (k, &([c0, c1, c2], e)) in sums.iter().enumerate() {
        // the mask: rows A = [μ, μ+128) and, at degree 3, B = [μ+128, μ+256), with
        // μ = ℓ + 128·(degree−1)·k; its key is q_A (degree 2) or q_A·Δ + q_B (degree 3)
        let mu = sh.mask_at(k);
        let (v_a, u_a) = (mask_sum(&tags, mu), convert::chunk(&u0, mu, 128));
        let (a0, mut a1, mut a2) = if sh.degree == 2 {
            (c0 ^ v_a, c1 ^ u_a, 0)
        } else {
            let (v_b, u_b) = (
                mask_sum(&tags, mu + 128),
                convert::chunk(&u0, mu + 128, 128),
            );
            (c0 ^ v_b, c1 ^ v_a ^ u_b, c2 ^ u_a)
        };
        for ch in cheats {
            match *ch {
                // roots at 0 and g: E·Δ^{d−1}(Δ + g)
                Cheat::Guess(g) if sh.degree == 2 => a1 ^= gf128::mul(e, g),
                Cheat::Guess(g) => a2 ^= gf128::mul(e, g),
                // roots at 0, g and h: E·Δ(Δ + g)(Δ + h)
                Cheat::Guess2(g, h) if sh.degree == 3 => {
                    a2 ^= gf128::mul(e, g ^ h);
                    a1 ^= gf128::mul(e, gf128::mul(g, h));
                }
                _ => {}
            }
        }
        cm.a0[k] = le(a0);
        cm.core.a1[k] = le(a1);
        if sh.degree == 3 {
            cm.core.a2[k] = le(a2);
        }
    }
    absorb_quicksilver(&mut t, &cm);
    Ok(ProverState {
        params: p,
        commit: cm,
        tree,
        transcript: t,
    })
}

impl ProverState {
    pub fn commitment(&self) -> &CommitMsg {
        &self.commit
    }

    /// Opens every leaf but the challenge's; refuses a challenge whose opening exceeds the
    /// parameters' bound `T`.
    pub fn respond(&self, ch: &Challenge) -> Result<Response> {
        ch.check(&self.params)?;
        let p = &self.params;
        let dom = vc::Domains::new(&self.commit.core.salt);
        let seeds = self.tree.open(&ch.hidden, p.open).ok_or_else(|| {
            Error::bad(format!(
                "the challenge opens the tree with {} seeds, more than these parameters' {}",
                ch.opened(p),
                p.open
            ))
        })?;
        let commitments = (0..p.tau())
            .map(|i| {
                let h = ch.hidden[i] as usize;
                vc::leaf(&dom, i as u32, h, self.tree.leaf(i, h))
            })
            .collect();
        Ok(Response { seeds, commitments })
    }

    /// The first counter whose `chall3` is valid (its `w` grinding bits zero and its
    /// opening within `T`), and its challenge: `2^w` hashes over the admissible share
    /// ([`params::admissible_share`]) on average, searched in blocks of [`grind_block`]
    /// counters split over the thread pool (the smallest valid counter of the first block
    /// that has one: the smallest valid counter, so the proof depends neither on the number
    /// of threads nor on the block).
    fn grind(&self) -> Result<(u32, Challenge)> {
        let c3 = Chall3::new(&self.transcript);
        let try_one = |counter: u32| {
            Challenge::from_chall3(&c3.at(counter), &self.params)
                .filter(|ch| ch.admissible(&self.params))
                .map(|ch| (counter, ch))
        };
        let mut len = grind_block(self.params.grind);
        let mut lo = 0usize;
        while lo < 1 << 32 {
            let hi = (lo + len).min(1 << 32);
            let found = if par::serial() {
                (lo..hi).find_map(|c| try_one(c as u32))
            } else {
                (lo..hi)
                    .into_par_iter()
                    .with_min_len(16)
                    .find_map_first(|c| try_one(c as u32))
            };
            if found.is_some() {
                return found.ok_or_else(|| Error::bad("no grinding counter found"));
            }
            // a bound on the opening makes valid counters rarer than 2^-w: longer blocks
            lo = hi;
            len = (2 * len).min(MAX_GRIND_BLOCK);
        }
        Err(Error::bad(format!(
            "no grinding counter found: no counter gives a challenge with {} zero bits that \
             opens the tree with at most {} seeds",
            self.params.grind, self.params.open
        )))
    }
}

/// The longest parallel block of the grinding search.
const MAX_GRIND_BLOCK: usize = 4096;

/// Counters tried in the first parallel block of the grinding search: half the `2^w` a valid
/// counter takes on average without a bound on the opening, between 32 and 2,048; each block
/// that finds none doubles the next, up to [`MAX_GRIND_BLOCK`] (a bound on the opening makes
/// valid counters rarer: with FAEST-128s's trees, `w = 9` and `T = 101`, one challenge in 60
/// is admissible, `2^15` tries, which blocks of `2^8` would cut into 128 wake-ups of the
/// pool). Every counter of the block that holds the answer is hashed by some thread,
/// so a block much larger than the search is work thrown away (with `w = 10` and blocks of
/// 2,048, about twice the hashes a serial search makes); a block much smaller pays the
/// pool's wake-up for a few hashes.
fn grind_block(w: u32) -> usize {
    ((1usize << w.min(31)) / 2).clamp(32, 2048)
}

/// Proves knowledge of `witness` with `C(witness) = output`; refuses a wrong witness.
pub fn prove(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
) -> Result<Proof> {
    prove_inner(st, witness, params, rng, &[], true)
}

/// Like [`prove`] without checking the witness, optionally cheating: for soundness tests
/// and seals (which check the witness themselves).
#[doc(hidden)]
pub fn prove_unchecked(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Result<Proof> {
    prove_inner(st, witness, params, rng, cheats, false)
}

/// The three phases of a non-interactive proof: commit (refusing a wrong witness when
/// `check`), grind, respond.
///
/// Runs on a worker of rayon's pool (`rayon::scope`): the proof has about twenty parallel
/// regions (the tree's levels, the repetitions, the hashes, the sums, the grinding blocks),
/// and each one entered from a thread outside the pool is handed to the pool and waited
/// for, a sleep and a wake-up of the caller every time.
fn prove_inner(
    st: &Statement,
    witness: &[bool],
    params: Params,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
    check: bool,
) -> Result<Proof> {
    let mut seeds = draw_seeds(rng);
    let proof = par::run(work(st, &params), || {
        let state = commit_inner(st, witness, params, seeds, cheats, check)?;
        let (counter, ch) = state.grind()?;
        let response = state.respond(&ch)?;
        Ok(Proof {
            params,
            commit: state.commit.core.clone(),
            delta: le(ch.delta(&params)),
            counter,
            response,
        })
    });
    super::zkbpp::wipe(&mut seeds.1);
    proof
}

fn rejected(what: impl std::fmt::Display) -> Error {
    Error::rejected(format!("VOLE proof rejected: {what}"))
}

/// The verifier's view of the VOLE: `h_com` rebuilt from the seeds of the `opened` nodes
/// ([`vc::opened`] of the challenge; the hidden leaves' commitments from `hidden_coms`) and
/// the columns `q` before corrections.
fn verifier_vole(
    salt: &[u8; 16],
    p: &Params,
    lhat: usize,
    ch: &Challenge,
    (opened, seeds): (&[usize], &[NodeSeed]),
    hidden_coms: &[Digest],
) -> (Digest, Vec<Vec<Bits>>) {
    let dom = vc::Domains::new(salt);
    let leaves = vc::reconstruct(&dom, &vc::Layout::new(p), opened, seeds);
    let rep = |(i, seeds): (usize, Vec<Option<NodeSeed>>)| {
        let h = ch.hidden[i] as usize;
        let (q, coms) =
            convert::verifier_rep(&dom, i as u32, &seeds, (h, hidden_coms[i]), p.k(i), lhat);
        (coms, q)
    };
    let reps: Vec<(Vec<Digest>, Vec<Bits>)> = if par::serial() {
        leaves.into_iter().enumerate().map(rep).collect()
    } else {
        leaves.into_par_iter().enumerate().map(rep).collect()
    };
    let h = vc::h_com(reps.iter().map(|r| &r.0[..]));
    (h, reps.into_iter().map(|r| r.1).collect())
}

/// Applies the corrections to the verifier's columns: `q_{i,b} ⊕= (bit b of j*_i) · c_i`.
fn corrected_columns(
    p: &Params,
    ch: &Challenge,
    mut q: Vec<Vec<Bits>>,
    corrections: &[Bits],
) -> Vec<Bits> {
    for i in 1..p.tau() {
        for (b, col) in q[i].iter_mut().enumerate() {
            if (ch.hidden[i] >> b) & 1 == 1 {
                convert::xor_into(col, &corrections[i - 1]);
            }
        }
    }
    q.into_iter().flatten().collect()
}

/// What a verifier computes from everything but `h_com`, `H(Ṽ)` and `Ã0`, given `Δ`:
/// those three as the honest prover of this core and opening would have sent them, in a
/// full [`CommitMsg`] (a [`verify_interactive`] compares them with the ones sent, a
/// non-interactive [`verify`] hashes them for `chall3`). Refuses what no `Δ` can mend:
/// malformed lengths and padding, an opening beyond the bound, a constant output that
/// differs from the statement.
///
/// Each value is what its check needs: `h_com` from the rebuilt leaves, `H(Ṽ)` from the
/// verifier's columns adjusted by `ũ·Δ` (with `chall1` over the recomputed `h_com`),
/// `Ã0 = L + Ã1·Δ` from the QuickSilver keys (with `chall2` over the recomputed `H(Ṽ)`).
/// An honest proof's values equal the prover's, so the two framings accept the same proofs.
pub fn recompute(
    st: &Statement,
    p: &Params,
    core: &CommitCore,
    ch: &Challenge,
    resp: &Response,
) -> Result<CommitMsg> {
    recompute_with_transcript(st, p, core, ch, resp).map(|(cm, _)| cm)
}

/// [`recompute`], and the transcript over what it recomputed, up to the counter: the state
/// `chall3` is drawn from (the non-interactive verifier's; built once, as the values are).
fn recompute_with_transcript(
    st: &Statement,
    p: &Params,
    core: &CommitCore,
    ch: &Challenge,
    resp: &Response,
) -> Result<(CommitMsg, Transcript)> {
    p.check().map_err(|e| Error::rejected(e.to_string()))?;
    ch.check(p).map_err(|e| Error::rejected(e.to_string()))?;
    st.check_output_len()?;
    let c = st.circuit;
    let sh = Shape::of(c);
    for (o, &y) in c.outputs().iter().zip(st.output) {
        if let Bit::Const(b) = *o {
            if b != y {
                return Err(rejected(
                    "the circuit's constant output differs from the statement",
                ));
            }
        }
    }
    let cbytes = sh.lhat.div_ceil(8);
    if core.corrections.len() != (p.tau() - 1) * cbytes {
        return Err(rejected(format!(
            "the corrections have {} bytes, expected {} ({} of {cbytes})",
            core.corrections.len(),
            (p.tau() - 1) * cbytes,
            p.tau() - 1
        )));
    }
    let corrections: Vec<Bits> = core
        .corrections
        .chunks_exact(cbytes)
        .map(|c| convert::from_bytes(c, sh.lhat))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            // the bytes fit, the bits do not: another statement's circuit of nearly this size
            // (another player's, another position's)
            rejected(format!(
                "{}: a correction has bits set past this statement's {} bits",
                crate::ANOTHER_STATEMENT,
                sh.lhat
            ))
        })?;
    let d = convert::from_bytes(&core.masked_witness, sh.l).ok_or_else(|| {
        rejected(format!(
            "{}: the masked witness has bits set past this statement's {} bits",
            crate::ANOTHER_STATEMENT,
            sh.l
        ))
    })?;
    if core.a2.len() != sh.n_a2() {
        return Err(rejected(format!(
            "the proof has {} second-degree QuickSilver values, this statement's check needs {}",
            core.a2.len(),
            sh.n_a2()
        )));
    }
    let nodes = vc::opened(&vc::Layout::new(p), &ch.hidden);
    let opened = nodes.len();
    if p.open > 0 && opened > p.open as usize {
        return Err(rejected(format!(
            "the challenge opens the tree with {opened} seeds, more than the proof's bound of {}",
            p.open
        )));
    }
    let want = if p.open > 0 { p.open as usize } else { opened };
    if resp.seeds.len() != want || resp.commitments.len() != p.tau() {
        return Err(rejected(format!(
            "the opening has {} seeds and {} hidden-leaf commitments, this challenge needs {want} and {}",
            resp.seeds.len(),
            resp.commitments.len(),
            p.tau()
        )));
    }
    if resp.seeds[opened..].iter().any(|s| *s != [0; 16]) {
        return Err(rejected("the opening's padding seeds are not zero"));
    }
    let (h_com, q) = verifier_vole(
        &core.salt,
        p,
        sh.lhat,
        ch,
        (&nodes, &resp.seeds),
        &resp.commitments,
    );
    let cols = corrected_columns(p, ch, q, &corrections);
    let delta = ch.delta(p);
    let mut cm = CommitMsg {
        core: core.clone(),
        h_com,
        v_hash: [0; 32],
        a0: [[0; 16]; COMBINATIONS],
    };
    let mut t = transcript(st, p, &cm);
    let c1 = draw32(&t, b"vole chall1");
    let uh = UHash::over(&c1, sh.hashed());
    let ut = u_hashes(core);
    cm.v_hash = v_hash(&uh, &cols, |col| {
        ut.map(|u| gf128::scale(u, (delta >> col) & 1 == 1))
    });
    absorb_hashes(&mut t, &cm);
    let c2 = draw32(&t, b"vole chall2");
    let qrows = convert::rows(&cols, sh.lhat);
    let lhs = quicksilver_keys(st, &sh, &qrows, &d, delta, &c2);
    for (k, lhs) in lhs.into_iter().enumerate() {
        let mut a0 = lhs ^ gf128::mul(u128::from_le_bytes(core.a1[k]), delta);
        if let Some(a2) = core.a2.get(k) {
            a0 ^= gf128::mul(u128::from_le_bytes(*a2), gf128::mul(delta, delta));
        }
        cm.a0[k] = le(a0);
    }
    absorb_quicksilver(&mut t, &cm);
    Ok((cm, t))
}

/// A live session's verification: [`recompute`], then each recomputed value against the
/// one sent, in the order the protocol checks them.
pub fn verify_interactive(
    st: &Statement,
    p: &Params,
    cm: &CommitMsg,
    ch: &Challenge,
    resp: &Response,
) -> Result<()> {
    let want = par::run(work(st, p), || recompute(st, p, &cm.core, ch, resp))?;
    if want.h_com != cm.h_com {
        return Err(rejected(
            "the opened leaves do not match the vector commitment",
        ));
    }
    if want.v_hash != cm.v_hash {
        return Err(rejected("the VOLE consistency check fails"));
    }
    if want.a0 != cm.a0 {
        return Err(rejected("the QuickSilver check of the AND gates fails"));
    }
    Ok(())
}

/// The verifier's side of every QuickSilver combination, its mask included: `L`.
fn quicksilver_keys(
    st: &Statement,
    sh: &Shape,
    qrows: &[u128],
    d: &Bits,
    delta: u128,
    c2: &[u8; 32],
) -> Vec<u128> {
    let n_rel = sh.n_and + st.circuit.n_outputs() + sh.n_inv;
    let chi = chis(c2, n_rel);
    // every witness position's key: a fixed one's from the outputs (7.4a)
    let mut keys = sh
        .red
        .spread(|r| qrows[r] ^ gf128::scale(delta, convert::get(d, r)));
    sh.red.fill(
        st.circuit,
        &mut keys,
        delta,
        |b| gf128::scale(delta, b),
        st.output,
    );
    quicksilver::verifier_sum(
        st.circuit,
        &keys,
        |_| false,
        delta,
        &per_combination(&chi, n_rel),
        st.output,
    )
    .into_iter()
    .enumerate()
    .map(|(k, l)| {
        let mu = sh.mask_at(k);
        if sh.degree == 2 {
            l ^ mask_sum(qrows, mu)
        } else {
            l ^ gf128::mul(mask_sum(qrows, mu), delta) ^ mask_sum(qrows, mu + 128)
        }
    })
    .collect()
}

/// Verifies a non-interactive proof with at least `min_bits` of [`attack_cost_bits`]:
/// rebuilds the VOLE at the proof's `Δ` ([`recompute`]) and accepts only if the transcript
/// of what it recomputed gives, at the proof's counter, a valid `chall3` whose `Δ` is the
/// proof's.
pub fn verify(st: &Statement, proof: &Proof, min_bits: f64) -> Result<()> {
    let p = &proof.params;
    p.check().map_err(|e| Error::rejected(e.to_string()))?;
    let bits = attack_cost_bits(p);
    if bits < min_bits {
        return Err(Error::rejected(format!(
            "the proof's parameters ({p}) give {bits:.1} bits of security, {min_bits:.1} required"
        )));
    }
    check_shape(st, &proof.commit)?;
    let ch = Challenge::from_delta(&proof.delta, p)
        .ok_or_else(|| rejected(format!("Δ has bits set past its {} bits", p.delta_bits)))?;
    // as the prover (prove_inner)
    let (_, t) = par::run(work(st, p), || {
        recompute_with_transcript(st, p, &proof.commit, &ch, &proof.response)
    })?;
    let valid = Challenge::from_chall3(&chall3(&t, proof.counter), p).filter(|c| c.admissible(p));
    if valid.as_ref() != Some(&ch) {
        return Err(Error::rejected(format!(
            "{}, or altered since: what it commits to does not hash to its challenge (the \
             Fiat–Shamir check failed)",
            crate::ANOTHER_STATEMENT
        )));
    }
    Ok(())
}

/// Before any hashing: the masked witness and the corrections have the lengths of this
/// statement's circuit. A length that differs means the proof was made for another statement
/// (another puzzle, position or player gives another circuit), which is what the user needs
/// to hear rather than a failed challenge. Padding bits are left to [`recompute`].
fn check_shape(st: &Statement, cm: &CommitCore) -> Result<()> {
    let sh = Shape::of(st.circuit);
    let (want_d, want_c) = (sh.l.div_ceil(8), sh.lhat.div_ceil(8));
    if cm.masked_witness.len() != want_d || !cm.corrections.len().is_multiple_of(want_c) {
        return Err(Error::rejected(format!(
            "{}: its masked witness has {} bytes, this statement's circuit needs {want_d}",
            crate::ANOTHER_STATEMENT,
            cm.masked_witness.len()
        )));
    }
    Ok(())
}

/// The zero-knowledge simulator: an accepting `(commitment, response)` for the challenge
/// `ch` fixed in advance, made without any witness. Every value the verifier sees but does
/// not recompute is drawn uniformly (corrections, `ũ`, `ũ′`, `d`, `Ã1`, the hidden
/// leaves' commitments, seeds); the rest is what the verifier recomputes ([`recompute`]:
/// `h_com`, `H(Ṽ)`, `Ã0`).
pub fn simulate(
    st: &Statement,
    p: Params,
    ch: &Challenge,
    rng: &mut impl RngCore,
) -> Result<(CommitMsg, Response)> {
    p.check()?;
    ch.check(&p)?;
    st.check_output_len()?;
    let sh = Shape::of(st.circuit);
    let (salt, root) = draw_seeds(rng);
    let tree = vc::Tree::new(&vc::Domains::new(&salt), vc::Layout::new(&p), &root);
    let seeds = tree.open(&ch.hidden, p.open).ok_or_else(|| {
        Error::bad("the challenge opens the tree with more seeds than the parameters allow")
    })?;
    let commitments: Vec<Digest> = (0..p.tau())
        .map(|_| zkgames_core::rng::random_32(rng))
        .collect();
    let random_bits = |rng: &mut dyn RngCore, n: usize| {
        let mut b: Bits = (0..convert::words(n)).map(|_| rng.next_u64()).collect();
        convert::clear_tail(&mut b, n);
        b
    };
    let corrections: Vec<Bits> = (1..p.tau()).map(|_| random_bits(rng, sh.lhat)).collect();
    let d = random_bits(rng, sh.l);
    let mut r128 = || ((rng.next_u64() as u128) << 64) | rng.next_u64() as u128;
    let ut = [r128(), r128() & ((1 << convert::SHORT_HASH_BITS) - 1)];
    let a1: [u128; COMBINATIONS] = std::array::from_fn(|_| r128());
    let core = CommitCore {
        salt,
        corrections: corrections
            .iter()
            .flat_map(|c| convert::to_bytes(c, sh.lhat))
            .collect(),
        u_hash: le(ut[0]),
        u_hash_short: short_le(ut[1]),
        masked_witness: convert::to_bytes(&d, sh.l),
        a1: a1.map(le),
        a2: (0..sh.n_a2()).map(|_| le(r128())).collect(),
    };
    let resp = Response { seeds, commitments };
    let cm = recompute(st, &p, &core, ch, &resp)?;
    Ok((cm, resp))
}

/// Summary lines of a VOLE proof (no verification).
pub fn describe(proof: &Proof) -> Details {
    let p = proof.params;
    let d = Details::new().text("parameters", p.to_string());
    let d = match p.check() {
        Ok(()) => {
            let bits = attack_cost_bits(&p);
            d.number(
                "security",
                bits,
                format!("{bits:.1} bits (its weakest Fiat–Shamir phase, docs/PROTOCOLS.md 7.9)"),
            )
        }
        Err(e) => d.text("security", format!("invalid parameters: {e}")),
    };
    let c = &proof.commit;
    let r = &proof.response;
    // the list's zero seeds past the opened ones (a real seed is zero with probability 2^-128)
    let padding = if p.open > 0 {
        r.seeds.iter().rev().take_while(|s| **s == [0; 16]).count()
    } else {
        0
    };
    let bytes = |d: Details, name: &str, n: usize| d.count(name, n as u64, format!("{n} B"));
    let d = bytes(d, "corrections", c.corrections.len());
    let d = bytes(d, "masked witness", c.masked_witness.len());
    let checks = c.u_hash.len() + c.u_hash_short.len() + 16 * (c.a1.len() + c.a2.len());
    let d = d
        .count(
            "field checks",
            checks as u64,
            format!(
                "a 128-bit and a {}-bit universal hash, {COMBINATIONS} QuickSilver combination{} ({checks} B)",
                8 * SHORT_BYTES,
                if COMBINATIONS == 1 { "" } else { "s" },
            ),
        )
        .count(
            "opened seeds",
            r.seeds.len() as u64,
            format!(
                "{} ({} B), hidden-leaf commitments: {} ({} B)",
                r.seeds.len(),
                16 * r.seeds.len(),
                r.commitments.len(),
                32 * r.commitments.len()
            ),
        )
        .also(
            "hidden-leaf commitments",
            Value::Count(r.commitments.len() as u64),
        );
    // on a line of its own: it depends on Δ, the lines above only on the statement
    let d = if p.open > 0 {
        d.count(
            "of which padding",
            padding as u64,
            format!(
                "{padding} zero seeds after the {} opened ones, up to the bound",
                r.seeds.len() - padding
            ),
        )
    } else {
        d
    };
    d.text(
        "challenge",
        format!("Δ (16 B) and grinding counter {}", proof.counter),
    )
    .also("grinding counter", Value::Count(proof.counter.into()))
}

#[cfg(test)]
mod tests;
