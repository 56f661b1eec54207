//! ZKB++ (Chase et al., CCS 2017; the Picnic design) over [`Circuit`]s.
//!
//! Each round runs a three-party, XOR-shared evaluation of the circuit "in the head":
//! party `i` holds a share of every wire; XOR and NOT are local (NOT flips party 0's share),
//! and AND gate `k` gives party `i`
//!
//! ```text
//! z_i = a_i b_i ⊕ a_{i+1} b_i ⊕ a_i b_{i+1} ⊕ R_i[k] ⊕ R_{i+1}[k]      (indices mod 3)
//! ```
//!
//! where `R_i` is party `i`'s random tape. A party's view is its tape, its input share and
//! its AND outputs. Parties 0 and 1 take their input shares from their tapes, party 2's
//! share is `x ⊕ x_0 ⊕ x_1` and must be sent when party 2 is opened.
//!
//! Randomness: per round and party a 256-bit seed; the tape is ChaCha20 keyed by
//! `SHA-256("zkg:zkb++:tape:v1" ‖ salt ‖ u32 round ‖ party ‖ seed)`, the salt a fresh 256-bit
//! value per proof. Commitments are `SHA-256("zkg:zkb++:view:v1" ‖ salt ‖ u32 round ‖ party
//! ‖ seed ‖ [x_2 for party 2] ‖ AND outputs)`.
//!
//! Challenge `e ∈ {0,1,2}` opens parties `e` and `e+1`. The proof of a round holds the two
//! seeds, `x_2` if party 2 is opened, the AND outputs of party `e+1` (party `e`'s are
//! recomputed), and the commitment of party `e+2`. Output shares are not sent: the opened
//! ones are recomputed and the third is `y ⊕ y_e ⊕ y_{e+1}`, so the check that the shares
//! reconstruct the public output is built into the Fiat–Shamir hash, which covers the tag,
//! the circuit digest, the public inputs, the output, the context, the round count, the
//! salt, and every round's three commitments and three output shares.
//!
//! Soundness error per round is 2/3, so `rounds = ceil(bits / log2(3/2))` (219 for 128 bits).
//!
//! Speed: rounds are processed 64 at a time, one round per bit lane of a `u64` (bitsliced):
//! tapes and views are transposed with 64×64 bit-matrix transposes, and batches run on
//! rayon's thread pool.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::circuit::{Bit, Circuit, Gate};
use super::statement::{check_witness, Statement, INV_NEEDS_LOWERING};
use zkgames_core::commit::Digest;
use zkgames_core::transcript::Transcript;
use zkgames_core::Error;
use zkgames_core::Result;

pub mod backend;
mod pack;
pub mod session;
#[cfg(test)]
mod tests;

pub(crate) use pack::canonical_bits;
use pack::*;
pub use pack::{pack_bools, pack_trits, unpack_trits};

/// A per-round, per-party seed.
pub type Seed = [u8; 32];

/// The largest round count accepted (about 1183 bits of soundness): bounds verifier work.
pub const MAX_ROUNDS: usize = 2048;

const LANES: usize = 64;

/// `ceil(bits / log2(3/2))`: the rounds needed for `bits` bits of soundness.
pub fn rounds_for_bits(bits: u32) -> usize {
    let per = (1.5f64).log2();
    let r = (bits as f64 / per).ceil() as usize;
    // guard against floating-point edge cases: the smallest r with r·log2(1.5) ≥ bits
    let mut r = r.saturating_sub(1);
    while (r as f64) * per < bits as f64 {
        r += 1;
    }
    r
}

/// The fewest rounds with [`security_bits`] `≥ bits` (0 for `bits ≤ 0` or NaN).
pub fn rounds_for(bits: f64) -> usize {
    if bits.is_nan() || bits <= 0.0 {
        return 0;
    }
    let per = (1.5f64).log2();
    let mut r = ((bits / per).ceil() as usize).saturating_sub(1);
    while security_bits(r) < bits && r < usize::MAX {
        r += 1;
    }
    r
}

/// Soundness bits achieved by `rounds` rounds: `rounds · log2(3/2)`.
pub fn security_bits(rounds: usize) -> f64 {
    rounds as f64 * (1.5f64).log2()
}

/// The opened part of one round: seeds of parties `e` and `e+1`, party 2's input share if
/// party 2 is opened (else empty), party `e+1`'s AND outputs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Opening {
    pub seeds: [Seed; 2],
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub x2: Vec<u8>,
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub view: Vec<u8>,
}

/// One round of a non-interactive proof.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RoundProof {
    pub opening: Opening,
    /// Commitment of the unopened party `e+2`.
    pub commitment: Digest,
}

/// A non-interactive ZKB++ proof.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Proof {
    pub salt: [u8; 32],
    /// The challenge trits, four per byte (2 bits each, least significant first).
    #[serde(with = "zkgames_core::proof_file::bytes")]
    pub challenges: Vec<u8>,
    /// At most [`MAX_ROUNDS`], refused at its length before any round is read.
    #[serde(deserialize_with = "capped_rounds")]
    pub rounds: Vec<RoundProof>,
}

/// The rounds of a proof, refused at their count when more than [`MAX_ROUNDS`], so that a
/// file cannot make a verifier decode more rounds than any verifier accepts.
fn capped_rounds<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<RoundProof>, D::Error> {
    struct Visit;
    impl<'de> serde::de::Visitor<'de> for Visit {
        type Value = Vec<RoundProof>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "at most {MAX_ROUNDS} rounds")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut a: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            let n = a.size_hint().unwrap_or(0);
            if n > MAX_ROUNDS {
                return Err(serde::de::Error::custom(format!(
                    "{n} rounds: at most {MAX_ROUNDS}"
                )));
            }
            let mut v = Vec::with_capacity(n);
            while let Some(r) = a.next_element()? {
                if v.len() == MAX_ROUNDS {
                    return Err(serde::de::Error::custom(format!(
                        "more than {MAX_ROUNDS} rounds"
                    )));
                }
                v.push(r);
            }
            Ok(v)
        }
    }
    d.deserialize_seq(Visit)
}

/// Sizes derived from the circuit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub n_in: usize,
    pub n_and: usize,
    pub n_out: usize,
    pub and_words: usize,
    pub in_words: usize,
    pub out_words: usize,
    pub and_bytes: usize,
    pub in_bytes: usize,
}

impl Layout {
    pub fn of(c: &Circuit) -> Self {
        Layout {
            n_in: c.n_inputs(),
            n_and: c.n_and(),
            n_out: c.n_outputs(),
            and_words: c.n_and().div_ceil(64),
            in_words: c.n_inputs().div_ceil(64),
            out_words: c.n_outputs().div_ceil(64),
            and_bytes: c.n_and().div_ceil(8),
            in_bytes: c.n_inputs().div_ceil(8),
        }
    }
}

// ---------------------------------------------------------------------------------------
// tapes and commitments

fn tape_key(salt: &[u8; 32], round: usize, party: usize, seed: &Seed) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"zkg:zkb++:tape:v1");
    h.update(salt);
    h.update((round as u32).to_le_bytes());
    h.update([party as u8]);
    h.update(seed);
    h.finalize().into()
}

/// Party `party`'s tape: `and_words` words of AND randomness, then (parties 0 and 1)
/// `in_words` words whose first `n_in` bits are the input share.
pub(crate) fn tape(
    lay: &Layout,
    salt: &[u8; 32],
    round: usize,
    party: usize,
    seed: &Seed,
) -> Vec<u64> {
    let mut g = ChaCha20Rng::from_seed(tape_key(salt, round, party, seed));
    let n = lay.and_words + if party < 2 { lay.in_words } else { 0 };
    let mut t: Vec<u64> = (0..n).map(|_| g.next_u64()).collect();
    // clear bits past n_in so input shares are canonical
    if party < 2 && !lay.n_in.is_multiple_of(64) {
        if let Some(last) = t.last_mut() {
            *last &= (1u64 << (lay.n_in % 64)) - 1;
        }
    }
    t
}

pub(crate) fn commit_view(
    salt: &[u8; 32],
    round: usize,
    party: usize,
    seed: &Seed,
    x2: &[u8],
    view: &[u8],
) -> Digest {
    let mut h = Sha256::new();
    h.update(b"zkg:zkb++:view:v1");
    h.update(salt);
    h.update((round as u32).to_le_bytes());
    h.update([party as u8]);
    h.update(seed);
    if party == 2 {
        h.update(x2);
    }
    h.update(view);
    h.finalize().into()
}

// ---------------------------------------------------------------------------------------
// prover

/// Deliberate misbehaviour for soundness tests: flip party `party`'s share of AND gate
/// `and_index` in round `round`, and carry on consistently.
#[derive(Clone, Copy, Debug)]
pub struct Cheat {
    pub round: usize,
    pub and_index: usize,
    pub party: usize,
}

/// Everything the prover holds after committing.
pub(crate) struct Committed {
    pub salt: [u8; 32],
    pub seeds: Vec<[Seed; 3]>,
    pub x2: Vec<Vec<u8>>,
    pub views: Vec<[Vec<u8>; 3]>,
    pub outs: Vec<[Vec<u8>; 3]>,
    pub commits: Vec<[Digest; 3]>,
}

struct RoundData {
    x2: Vec<u8>,
    views: [Vec<u8>; 3],
    outs: [Vec<u8>; 3],
    commits: [Digest; 3],
}

fn lane_mask(lanes: usize) -> u64 {
    if lanes == 64 {
        !0
    } else {
        (1u64 << lanes) - 1
    }
}

/// One batch of up to 64 rounds; `witness[l]` is lane `l`'s witness (the same slice in
/// every lane for an honest prover).
fn prove_batch(
    c: &Circuit,
    lay: &Layout,
    witness: &[&[bool]],
    salt: &[u8; 32],
    r0: usize,
    seeds: &[[Seed; 3]],
    cheats: &[Cheat],
) -> Vec<RoundData> {
    let lanes = seeds.len();
    debug_assert_eq!(witness.len(), lanes);
    let tapes: Vec<[Vec<u64>; 3]> = seeds
        .iter()
        .enumerate()
        .map(|(l, s)| std::array::from_fn(|p| tape(lay, salt, r0 + l, p, &s[p])))
        .collect();
    let rand: [Vec<u64>; 3] = std::array::from_fn(|p| {
        let rows: Vec<&[u64]> = tapes.iter().map(|t| &t[p][..lay.and_words]).collect();
        transpose_in(&rows, lay.and_words)
    });
    let ins: [Vec<u64>; 2] = std::array::from_fn(|p| {
        let rows: Vec<&[u64]> = tapes.iter().map(|t| &t[p][lay.and_words..]).collect();
        transpose_in(&rows, lay.in_words)
    });
    let mut vals: Vec<[u64; 3]> = Vec::with_capacity(c.n_wires());
    // one witness in every lane (honest provers): whole-word masks
    let same = witness.iter().all(|w| std::ptr::eq(*w, witness[0]));
    let full = lane_mask(lanes);
    for i in 0..lay.n_in {
        let xv = if same {
            if witness[0][i] {
                full
            } else {
                0
            }
        } else {
            witness
                .iter()
                .enumerate()
                .fold(0u64, |m, (l, w)| m | (w[i] as u64) << l)
        };
        let (a, b) = (ins[0][i], ins[1][i]);
        vals.push([a, b, xv ^ a ^ b]);
    }
    let mut ands: Vec<[u64; 3]> = Vec::with_capacity(lay.n_and);
    // cheats inside this batch, by AND index
    let my_cheats: Vec<(usize, usize, u64)> = cheats
        .iter()
        .filter(|ch| ch.round >= r0 && ch.round < r0 + lanes)
        .map(|ch| (ch.and_index, ch.party, 1u64 << (ch.round - r0)))
        .collect();
    for g in c.gates() {
        let v = match *g {
            Gate::Xor(a, b) => {
                let (x, y) = (vals[a as usize], vals[b as usize]);
                [x[0] ^ y[0], x[1] ^ y[1], x[2] ^ y[2]]
            }
            Gate::Not(a) => {
                let x = vals[a as usize];
                [!x[0], x[1], x[2]]
            }
            Gate::Inv(..) => unreachable!("{INV_NEEDS_LOWERING}"),
            Gate::And(a, b) => {
                let k = ands.len();
                let (x, y) = (vals[a as usize], vals[b as usize]);
                let r = [rand[0][k], rand[1][k], rand[2][k]];
                let mut z = [0u64; 3];
                for i in 0..3 {
                    let j = (i + 1) % 3;
                    z[i] = (x[i] & y[i]) ^ (x[j] & y[i]) ^ (x[i] & y[j]) ^ r[i] ^ r[j];
                }
                for &(ci, cp, m) in &my_cheats {
                    if ci == k {
                        z[cp] ^= m;
                    }
                }
                ands.push(z);
                z
            }
        };
        vals.push(v);
    }
    let outs: Vec<[u64; 3]> = c
        .outputs()
        .iter()
        .map(|o| match *o {
            Bit::Const(b) => [if b { full } else { 0 }, 0, 0],
            Bit::Wire(w) => vals[w as usize],
        })
        .collect();
    let x2_cols: Vec<u64> = vals[..lay.n_in].iter().map(|v| v[2]).collect();
    let x2_rows = transpose_out(&x2_cols, lay.in_words, lanes);
    let view_rows: [Vec<Vec<u64>>; 3] = std::array::from_fn(|p| {
        let cols: Vec<u64> = ands.iter().map(|v| v[p]).collect();
        transpose_out(&cols, lay.and_words, lanes)
    });
    let out_rows: [Vec<Vec<u64>>; 3] = std::array::from_fn(|p| {
        let cols: Vec<u64> = outs.iter().map(|v| v[p]).collect();
        transpose_out(&cols, lay.out_words, lanes)
    });
    (0..lanes)
        .map(|l| {
            let x2 = words_to_bytes(&x2_rows[l], lay.n_in);
            let views: [Vec<u8>; 3] =
                std::array::from_fn(|p| words_to_bytes(&view_rows[p][l], lay.n_and));
            let outs: [Vec<u8>; 3] =
                std::array::from_fn(|p| words_to_bytes(&out_rows[p][l], lay.n_out));
            let commits =
                std::array::from_fn(|p| commit_view(salt, r0 + l, p, &seeds[l][p], &x2, &views[p]));
            RoundData {
                x2,
                views,
                outs,
                commits,
            }
        })
        .collect()
}

/// Runs the commitment phase for all rounds (no witness check: callers check).
pub(crate) fn commit_phase(
    c: &Circuit,
    witness: &[bool],
    rounds: usize,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Committed {
    let salt = zkgames_core::rng::random_32(rng);
    let seeds: Vec<[Seed; 3]> = (0..rounds)
        .map(|_| std::array::from_fn(|_| zkgames_core::rng::random_32(rng)))
        .collect();
    commit_with(c, &[witness], salt, seeds, cheats)
}

/// The domain tag of seeds derived from a master seed (`master_seeds`).
pub const MASTER_SEED_TAG: &[u8] = b"zkg:zkb++:seed-from-master:v1";

/// Per-round, per-party seeds derived from one secret 256-bit master seed:
/// `k_{r,p} = SHA-256(MASTER_SEED_TAG ‖ master ‖ salt ‖ u32le(r) ‖ u8(p))`, a PRF keyed by
/// the master seed on fixed-length inputs. Revealing the master seed reveals every seed.
pub(crate) fn master_seeds(master: &Seed, salt: &[u8; 32], rounds: usize) -> Vec<[Seed; 3]> {
    (0..rounds)
        .map(|r| {
            std::array::from_fn(|p| {
                let mut h = Sha256::new();
                h.update(MASTER_SEED_TAG);
                h.update(master);
                h.update(salt);
                h.update((r as u32).to_le_bytes());
                h.update([p as u8]);
                h.finalize().into()
            })
        })
        .collect()
}

/// The commitment phase from given salt and seeds. `witnesses` holds one witness for every
/// round, or one per round (a prover that changes witness between rounds: tests only).
pub(crate) fn commit_with(
    c: &Circuit,
    witnesses: &[&[bool]],
    salt: [u8; 32],
    seeds: Vec<[Seed; 3]>,
    cheats: &[Cheat],
) -> Committed {
    let rounds = seeds.len();
    assert!(
        witnesses.len() == 1 || witnesses.len() == rounds,
        "one witness, or one per round"
    );
    for w in witnesses {
        assert_eq!(w.len(), c.n_inputs(), "witness length");
    }
    let lay = Layout::of(c);
    let batches: Vec<Vec<RoundData>> = seeds
        .par_chunks(LANES)
        .enumerate()
        .map(|(b, s)| {
            let r0 = b * LANES;
            let ws: Vec<&[bool]> = (r0..r0 + s.len())
                .map(|r| witnesses[if witnesses.len() == 1 { 0 } else { r }])
                .collect();
            prove_batch(c, &lay, &ws, &salt, r0, s, cheats)
        })
        .collect();
    let mut cm = Committed {
        salt,
        seeds,
        x2: Vec::with_capacity(rounds),
        views: Vec::with_capacity(rounds),
        outs: Vec::with_capacity(rounds),
        commits: Vec::with_capacity(rounds),
    };
    for rd in batches.into_iter().flatten() {
        cm.x2.push(rd.x2);
        cm.views.push(rd.views);
        cm.outs.push(rd.outs);
        cm.commits.push(rd.commits);
    }
    cm
}

/// Overwrites secret bytes with zeros before they are freed (best effort: `black_box`
/// keeps the writes from being optimised away in practice, without `unsafe`).
pub fn wipe(b: &mut [u8]) {
    b.fill(0);
    std::hint::black_box(b);
}

impl Drop for Committed {
    /// The seeds and party 2's input shares together give the witness: wipe them.
    fn drop(&mut self) {
        for s in self.seeds.iter_mut() {
            for k in s.iter_mut() {
                wipe(k);
            }
        }
        for x in self.x2.iter_mut() {
            wipe(x);
        }
    }
}

impl Committed {
    /// The opening of round `r` for challenge `e`.
    pub fn open(&self, r: usize, e: u8) -> Opening {
        let e = e as usize;
        let b = (e + 1) % 3;
        Opening {
            seeds: [self.seeds[r][e], self.seeds[r][b]],
            x2: if e == 0 {
                Vec::new()
            } else {
                self.x2[r].clone()
            },
            view: self.views[r][b].clone(),
        }
    }
}

fn fs_trits(
    st: &Statement,
    salt: &[u8; 32],
    commits: &[[Digest; 3]],
    outs: &[[Vec<u8>; 3]],
) -> Vec<u8> {
    let mut t = Transcript::new(b"zkgames/zkb++/v1");
    t.append(b"application", st.tag);
    t.append(b"circuit", &st.circuit.digest());
    t.append(b"public inputs", st.public);
    t.append_u64(b"output bits", st.output.len() as u64);
    t.append(b"output", &pack_bools(st.output));
    t.append(b"context", st.context);
    t.append_u64(b"rounds", commits.len() as u64);
    t.append(b"salt", salt);
    let cs: Vec<u8> = commits
        .iter()
        .flat_map(|c| c.iter().flatten().copied())
        .collect();
    t.append(b"commitments", &cs);
    let os: Vec<u8> = outs
        .iter()
        .flat_map(|o| o.iter().flatten().copied())
        .collect();
    t.append(b"output shares", &os);
    let mut s = t.challenges(b"zkb++ challenge trits");
    (0..commits.len()).map(|_| s.trit()).collect()
}

pub(crate) fn check_rounds(rounds: usize) -> Result<()> {
    if rounds == 0 || rounds > MAX_ROUNDS {
        return Err(Error::bad(format!(
            "{rounds} rounds: must be in [1, {MAX_ROUNDS}]"
        )));
    }
    Ok(())
}

/// Proves knowledge of `witness` with `C(witness) = output`; refuses a wrong witness.
pub fn prove(
    st: &Statement,
    witness: &[bool],
    rounds: usize,
    rng: &mut impl RngCore,
) -> Result<Proof> {
    check_rounds(rounds)?;
    st.check_boolean()?;
    check_witness(st, witness)?;
    Ok(prove_unchecked(st, witness, rounds, rng, &[]))
}

/// Like [`prove`] without checking the witness, optionally cheating: for soundness tests
/// only. A proof made from a wrong witness claims `st.output` and must be rejected.
#[doc(hidden)]
pub fn prove_unchecked(
    st: &Statement,
    witness: &[bool],
    rounds: usize,
    rng: &mut impl RngCore,
    cheats: &[Cheat],
) -> Proof {
    let cm = commit_phase(st.circuit, witness, rounds, rng, cheats);
    finish_proof(st, &cm)
}

/// The Fiat–Shamir half of proving: derives the challenges from the commitments and
/// output shares, and assembles the responses.
pub(crate) fn finish_proof(st: &Statement, cm: &Committed) -> Proof {
    // the output shares hashed are the ones that reconstruct the claimed output, as a
    // cheater would send them: party 2's share absorbs the difference
    let mut outs = cm.outs.clone();
    let y = pack_bools(st.output);
    for o in outs.iter_mut() {
        for i in 0..y.len() {
            o[2][i] = y[i] ^ o[0][i] ^ o[1][i];
        }
    }
    let trits = fs_trits(st, &cm.salt, &cm.commits, &outs);
    let rounds_out = trits
        .iter()
        .enumerate()
        .map(|(r, &e)| RoundProof {
            opening: cm.open(r, e),
            commitment: cm.commits[r][(e as usize + 2) % 3],
        })
        .collect();
    Proof {
        salt: cm.salt,
        challenges: pack_trits(&trits),
        rounds: rounds_out,
    }
}

/// What the verifier recomputes for one round: commitments and output shares of the two
/// opened parties `e` and `e+1`.
pub(crate) struct Recomputed {
    pub commits: [Digest; 2],
    pub outs: [Vec<u8>; 2],
}

/// Checks the lengths and canonical padding of an opening for challenge `e`.
pub(crate) fn check_opening(lay: &Layout, r: usize, e: u8, o: &Opening) -> Result<()> {
    let want_x2 = if e == 0 { 0 } else { lay.in_bytes };
    if o.x2.len() != want_x2 {
        return Err(Error::rejected(format!(
            "{}: round {}: party 2's input share has {} bytes, expected {want_x2}",
            super::ANOTHER_STATEMENT,
            r + 1,
            o.x2.len()
        )));
    }
    if e != 0 && !canonical_bits(&o.x2, lay.n_in) {
        return Err(Error::rejected(format!(
            "round {}: party 2's input share has non-zero padding bits",
            r + 1
        )));
    }
    if !canonical_bits(&o.view, lay.n_and) {
        let why = if o.view.len() != lay.and_bytes {
            format!("{}: ", super::ANOTHER_STATEMENT)
        } else {
            String::new()
        };
        return Err(Error::rejected(format!(
            "{why}round {}: the opened view has {} bytes, expected {} with zero padding bits",
            r + 1,
            o.view.len(),
            lay.and_bytes
        )));
    }
    Ok(())
}

fn verify_batch(
    c: &Circuit,
    lay: &Layout,
    salt: &[u8; 32],
    r0: usize,
    es: &[u8],
    ops: &[&Opening],
) -> Vec<Recomputed> {
    let lanes = es.len();
    let mut not_a = 0u64;
    let mut not_b = 0u64;
    let mut ta = Vec::with_capacity(lanes);
    let mut tb = Vec::with_capacity(lanes);
    let mut ia = Vec::with_capacity(lanes);
    let mut ib = Vec::with_capacity(lanes);
    let mut vb = Vec::with_capacity(lanes);
    for (l, (&e, o)) in es.iter().zip(ops).enumerate() {
        let (pa, pb) = (e as usize, (e as usize + 1) % 3);
        if pa == 0 {
            not_a |= 1 << l;
        }
        if pb == 0 {
            not_b |= 1 << l;
        }
        let a = tape(lay, salt, r0 + l, pa, &o.seeds[0]);
        let b = tape(lay, salt, r0 + l, pb, &o.seeds[1]);
        let x2 = bytes_to_words(&o.x2, lay.in_words);
        ia.push(if pa < 2 {
            a[lay.and_words..].to_vec()
        } else {
            x2.clone()
        });
        ib.push(if pb < 2 {
            b[lay.and_words..].to_vec()
        } else {
            x2
        });
        ta.push(a);
        tb.push(b);
        vb.push(bytes_to_words(&o.view, lay.and_words));
    }
    let tr = |v: &[Vec<u64>], from: usize, words: usize| {
        let rows: Vec<&[u64]> = v.iter().map(|t| &t[from..from + words]).collect();
        transpose_in(&rows, words)
    };
    let ra = tr(&ta, 0, lay.and_words);
    let rb = tr(&tb, 0, lay.and_words);
    let xa = tr(&ia, 0, lay.in_words);
    let xb = tr(&ib, 0, lay.in_words);
    let zb = tr(&vb, 0, lay.and_words);
    let mut vals: Vec<[u64; 2]> = Vec::with_capacity(c.n_wires());
    for i in 0..lay.n_in {
        vals.push([xa[i], xb[i]]);
    }
    let mut za: Vec<u64> = Vec::with_capacity(lay.n_and);
    for g in c.gates() {
        let v = match *g {
            Gate::Xor(a, b) => {
                let (x, y) = (vals[a as usize], vals[b as usize]);
                [x[0] ^ y[0], x[1] ^ y[1]]
            }
            Gate::Not(a) => {
                let x = vals[a as usize];
                [x[0] ^ not_a, x[1] ^ not_b]
            }
            Gate::Inv(..) => unreachable!("{INV_NEEDS_LOWERING}"),
            Gate::And(a, b) => {
                let k = za.len();
                let (x, y) = (vals[a as usize], vals[b as usize]);
                let z = (x[0] & y[0]) ^ (x[1] & y[0]) ^ (x[0] & y[1]) ^ ra[k] ^ rb[k];
                za.push(z);
                [z, zb[k]]
            }
        };
        vals.push(v);
    }
    let outs: Vec<[u64; 2]> = c
        .outputs()
        .iter()
        .map(|o| match *o {
            Bit::Const(b) => {
                if b {
                    [not_a, not_b]
                } else {
                    [0, 0]
                }
            }
            Bit::Wire(w) => vals[w as usize],
        })
        .collect();
    let view_a = transpose_out(&za, lay.and_words, lanes);
    let oa = transpose_out(
        &outs.iter().map(|v| v[0]).collect::<Vec<_>>(),
        lay.out_words,
        lanes,
    );
    let ob = transpose_out(
        &outs.iter().map(|v| v[1]).collect::<Vec<_>>(),
        lay.out_words,
        lanes,
    );
    (0..lanes)
        .map(|l| {
            let e = es[l] as usize;
            let (pa, pb) = (e, (e + 1) % 3);
            let o = ops[l];
            let va = words_to_bytes(&view_a[l], lay.n_and);
            let ca = commit_view(salt, r0 + l, pa, &o.seeds[0], &o.x2, &va);
            let cb = commit_view(salt, r0 + l, pb, &o.seeds[1], &o.x2, &o.view);
            Recomputed {
                commits: [ca, cb],
                outs: [
                    words_to_bytes(&oa[l], lay.n_out),
                    words_to_bytes(&ob[l], lay.n_out),
                ],
            }
        })
        .collect()
}

/// Recomputes the opened parties of every round (lengths must have been checked).
pub(crate) fn recompute(
    c: &Circuit,
    salt: &[u8; 32],
    es: &[u8],
    ops: &[&Opening],
) -> Vec<Recomputed> {
    let lay = Layout::of(c);
    let chunks: Vec<(usize, &[u8], &[&Opening])> = es
        .chunks(LANES)
        .zip(ops.chunks(LANES))
        .enumerate()
        .map(|(b, (e, o))| (b * LANES, e, o))
        .collect();
    chunks
        .into_par_iter()
        .map(|(r0, e, o)| verify_batch(c, &lay, salt, r0, e, o))
        .flatten_iter()
        .collect()
}

/// Verifies a non-interactive proof; requires at least `min_rounds` rounds.
pub fn verify(st: &Statement, proof: &Proof, min_rounds: usize) -> Result<()> {
    let rounds = proof.rounds.len();
    if rounds < min_rounds {
        return Err(Error::rejected(format!(
            "the proof has {rounds} rounds ({:.1} bits of security); at least {min_rounds} are required",
            security_bits(rounds)
        )));
    }
    check_rounds(rounds).map_err(|e| Error::rejected(e.to_string()))?;
    // no more rounds than the verifier's offered level needs (whoever calls this)
    let max = super::offered::max_zkbpp_rounds(min_rounds);
    if rounds > max {
        return Err(Error::rejected(format!(
            "the proof has {rounds} rounds, more than the {max} a verifier at this level accepts"
        )));
    }
    st.check_output_len()?;
    st.check_boolean()?;
    let es = unpack_trits(&proof.challenges, rounds).ok_or_else(|| {
        Error::rejected(format!(
            "the challenge field is not {rounds} well-formed trits"
        ))
    })?;
    let lay = Layout::of(st.circuit);
    for (r, rp) in proof.rounds.iter().enumerate() {
        check_opening(&lay, r, es[r], &rp.opening)?;
    }
    let ops: Vec<&Opening> = proof.rounds.iter().map(|r| &r.opening).collect();
    let rec = recompute(st.circuit, &proof.salt, &es, &ops);
    let y = pack_bools(st.output);
    let mut commits = Vec::with_capacity(rounds);
    let mut outs = Vec::with_capacity(rounds);
    for (r, rc) in rec.into_iter().enumerate() {
        let e = es[r] as usize;
        let mut c = [[0u8; 32]; 3];
        c[e] = rc.commits[0];
        c[(e + 1) % 3] = rc.commits[1];
        c[(e + 2) % 3] = proof.rounds[r].commitment;
        let third: Vec<u8> = (0..y.len())
            .map(|i| y[i] ^ rc.outs[0][i] ^ rc.outs[1][i])
            .collect();
        let mut o: [Vec<u8>; 3] = Default::default();
        let [o0, o1] = rc.outs;
        o[e] = o0;
        o[(e + 1) % 3] = o1;
        o[(e + 2) % 3] = third;
        commits.push(c);
        outs.push(o);
    }
    let expect = fs_trits(st, &proof.salt, &commits, &outs);
    if expect != es {
        let first = expect
            .iter()
            .zip(&es)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(Error::rejected(format!(
            "{}, or altered since: the recomputed views, commitments and output shares do not \
             hash to the proof's challenges (the Fiat–Shamir check failed; first differing \
             challenge: round {})",
            super::ANOTHER_STATEMENT,
            first + 1
        )));
    }
    Ok(())
}
