//! Committed witnesses: prove now that a hidden witness satisfies a statement (*seal*),
//! reveal later which witness it was (*open*), with no hash of the witness in the circuit.
//!
//! A seal is an ordinary non-interactive ZKB++ proof ([`zkbpp::Proof`], same bytes, same
//! size, accepted by [`zkbpp::verify`]) whose per-round, per-party seeds are not drawn
//! independently but derived from one secret 256-bit master seed
//! ([`zkbpp::MASTER_SEED_TAG`]). The opening is that master seed and the witness. Whoever
//! holds the seal checks an opening by re-running the honest prover from them: every round
//! must come out exactly as in the seal (seeds, `x_2`, views, the unopened commitment, the
//! challenges). Each round's three commitments fix that round's three input shares, so a
//! seal can be opened to one witness at most (unless SHA-256 collides), and an opening that
//! succeeds shows the witness satisfies the circuit. Until it is opened the seal is a ZKB++
//! proof with pseudo-random seeds: it hides the witness as an ordinary proof does. The
//! argument, and what a prover who changes witness between rounds can do, is in
//! docs/PROTOCOLS.md, section "Committed witnesses (seal and open)".
//!
//! The API names statements, witnesses, proofs and openings only, so another proof engine
//! can offer the same four calls: [`seal`], [`verify`], [`seal_digest`], [`open`].
//!
//! Opening bytes ([`SealOpening::to_bytes`]), integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `ZKGOPEN\0` |
//! | 8 | 2 | version (1) |
//! | 10 | 32 | seal digest ([`seal_digest`]) |
//! | 42 | 32 | master seed |
//! | 74 | 8 | witness bits `n` |
//! | 82 | `ceil(n/8)` | witness, packed LSB first, padding bits zero |
//!
//! Nothing may follow; `n ≤` [`MAX_WITNESS_BITS`].

use rand_core::RngCore;
use sha2::{Digest as _, Sha256};

use super::statement::{check_witness, Statement};
use super::zkbpp::{self, Proof, Seed};
use zkgames_core::commit::Digest;
use zkgames_core::Error;
use zkgames_core::Result;

/// The 8 magic bytes at the start of an encoded opening.
pub const OPENING_MAGIC: &[u8; 8] = b"ZKGOPEN\0";
/// The opening format version this build reads and writes.
pub const OPENING_VERSION: u16 = 1;
/// Bytes before the packed witness.
pub const OPENING_HEADER_LEN: usize = 82;
/// The largest witness an opening may carry (2^27 bits, 16 MiB packed).
pub const MAX_WITNESS_BITS: u64 = 1 << 27;
/// Domain tag of [`seal_digest`].
pub const SEAL_DIGEST_TAG: &[u8] = b"zkg:zkb++:seal:v1";

/// What opens a seal: the seal's digest, the master seed and the witness. Secret until the
/// prover chooses to open; the master seed and witness are wiped when it is dropped.
#[derive(Clone, PartialEq, Eq)]
pub struct SealOpening {
    seal: Digest,
    master: Seed,
    witness: Vec<bool>,
}

impl std::fmt::Debug for SealOpening {
    /// Names the seal only: the master seed and the witness are secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SealOpening {{ seal: {}, witness: {} bits, .. }}",
            hex::encode(self.seal),
            self.witness.len()
        )
    }
}

impl Drop for SealOpening {
    fn drop(&mut self) {
        zkbpp::wipe(&mut self.master);
        self.witness.fill(false);
        std::hint::black_box(&mut self.witness);
    }
}

impl SealOpening {
    /// An opening from its parts (for instance to try a guess against a seal).
    pub fn new(seal: Digest, master: Seed, witness: Vec<bool>) -> Self {
        SealOpening {
            seal,
            master,
            witness,
        }
    }

    /// The digest of the seal this opening claims to open.
    pub fn seal_digest(&self) -> &Digest {
        &self.seal
    }

    /// The master seed every round's seeds derive from.
    pub fn master_seed(&self) -> &Seed {
        &self.master
    }

    /// The claimed witness (checked only by [`open`]).
    pub fn witness(&self) -> &[bool] {
        &self.witness
    }

    /// The canonical encoding (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(OPENING_HEADER_LEN + self.witness.len().div_ceil(8));
        out.extend_from_slice(OPENING_MAGIC);
        out.extend_from_slice(&OPENING_VERSION.to_le_bytes());
        out.extend_from_slice(&self.seal);
        out.extend_from_slice(&self.master);
        out.extend_from_slice(&(self.witness.len() as u64).to_le_bytes());
        out.extend_from_slice(&zkbpp::pack_bools(&self.witness));
        out
    }

    /// Parses an encoded opening, checking every field: exactly one encoding is accepted.
    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() < OPENING_HEADER_LEN {
            return Err(Error::bad(format!(
                "not a seal opening: {} bytes, shorter than the {OPENING_HEADER_LEN}-byte header",
                b.len()
            )));
        }
        if &b[..8] != OPENING_MAGIC {
            return Err(Error::bad(
                "not a seal opening: wrong magic bytes (expected ZKGOPEN)",
            ));
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        if version != OPENING_VERSION {
            return Err(Error::bad(format!(
                "seal opening version {version} is not supported (this build reads version {OPENING_VERSION})"
            )));
        }
        let seal: Digest = b[10..42].try_into().expect("32 bytes");
        let master: Seed = b[42..74].try_into().expect("32 bytes");
        let n = u64::from_le_bytes(b[74..82].try_into().expect("8 bytes"));
        if n > MAX_WITNESS_BITS {
            return Err(Error::bad(format!(
                "seal opening: a {n}-bit witness exceeds the {MAX_WITNESS_BITS}-bit limit"
            )));
        }
        let n = n as usize;
        let packed = &b[OPENING_HEADER_LEN..];
        if packed.len() != n.div_ceil(8) {
            return Err(Error::bad(format!(
                "seal opening: a {n}-bit witness takes {} bytes, found {}",
                n.div_ceil(8),
                packed.len()
            )));
        }
        if !zkbpp::canonical_bits(packed, n) {
            return Err(Error::bad(
                "seal opening: the witness has non-zero padding bits",
            ));
        }
        let witness = (0..n).map(|i| packed[i / 8] >> (i % 8) & 1 == 1).collect();
        Ok(SealOpening {
            seal,
            master,
            witness,
        })
    }
}

/// The opening's witness, once the statement's output has the circuit's width and the
/// witness has its input width and satisfies the statement (checks common to both engines).
fn opened_witness<'a>(st: &Statement, opening: &'a SealOpening) -> Result<&'a [bool]> {
    st.check_output_len()?;
    st.check_boolean()?;
    let w = &opening.witness;
    if w.len() != st.circuit.n_inputs() {
        return Err(Error::rejected(format!(
            "the opened witness has {} bits, the circuit takes {}",
            w.len(),
            st.circuit.n_inputs()
        )));
    }
    if st.circuit.eval(w) != st.output {
        return Err(Error::rejected(
            "the opened witness does not satisfy the statement",
        ));
    }
    Ok(w)
}

/// The digest that names a seal: `SHA-256(SEAL_DIGEST_TAG ‖ statement digest ‖
/// u64le(|context|) ‖ context ‖ bincode(proof))`, the statement digest being
/// [`Statement::digest`] (tag, circuit, public bytes, output) and the proof encoded as in
/// proof file bodies. An opening carries it, so it cannot be presented against another
/// seal, statement or context.
pub fn seal_digest(st: &Statement, proof: &Proof) -> Digest {
    named_digest(
        SEAL_DIGEST_TAG,
        st,
        &zkgames_core::proof_file::encode(proof),
    )
}

/// `SHA-256(tag ‖ statement digest ‖ u64le(|context|) ‖ context ‖ proof bytes)`.
fn named_digest(tag: &[u8], st: &Statement, proof: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update(tag);
    h.update(st.digest());
    h.update((st.context.len() as u64).to_le_bytes());
    h.update(st.context);
    h.update(proof);
    h.finalize().into()
}

/// Seals `witness`: returns the seal (an ordinary proof, to publish) and its opening (to
/// keep secret until the witness is revealed). Refuses a witness that does not satisfy
/// the statement. Salt and master seed are drawn from `rng` (use [`zkgames_core::rng::os_rng`]).
pub fn seal(
    st: &Statement,
    witness: &[bool],
    rounds: usize,
    rng: &mut impl RngCore,
) -> Result<(Proof, SealOpening)> {
    zkbpp::check_rounds(rounds)?;
    check_witness(st, witness)?;
    let salt = zkgames_core::rng::random_32(rng);
    let mut master = zkgames_core::rng::random_32(rng);
    let proof = prove_from_master(st, &[witness], &master, salt, rounds);
    let opening = SealOpening::new(seal_digest(st, &proof), master, witness.to_vec());
    zkbpp::wipe(&mut master);
    Ok((proof, opening))
}

/// A seal is an ordinary proof: verifying it is [`zkbpp::verify`].
pub fn verify(st: &Statement, proof: &Proof, min_rounds: usize) -> Result<()> {
    zkbpp::verify(st, proof, min_rounds)
}

/// Opens a seal: returns the witness if `opening` belongs to this seal (same digest), the
/// witness satisfies the statement, and re-running the honest prover from the opening's
/// master seed and witness reproduces the seal exactly. Such a seal is an honest proof of
/// that witness, so it also verifies; the number of rounds matters for the seal's
/// soundness before opening (checked by [`verify`]), not for binding.
pub fn open(st: &Statement, proof: &Proof, opening: &SealOpening) -> Result<Vec<bool>> {
    let digest = seal_digest(st, proof);
    if opening.seal != digest {
        let (theirs, ours) = zkgames_core::files::two_digests(&opening.seal, &digest);
        return Err(Error::rejected(format!(
            "this opening is for another seal, statement or context (it names seal {theirs}; this seal is {ours})"
        )));
    }
    let rounds = proof.rounds.len();
    zkbpp::check_rounds(rounds).map_err(|e| Error::rejected(e.to_string()))?;
    let w = opened_witness(st, opening)?;
    let es = zkbpp::unpack_trits(&proof.challenges, rounds).ok_or_else(|| {
        Error::rejected(format!(
            "the seal's challenge field is not {rounds} well-formed trits"
        ))
    })?;
    let seeds = zkbpp::master_seeds(&opening.master, &proof.salt, rounds);
    let cm = zkbpp::commit_with(st.circuit, &[w], proof.salt, seeds, &[]);
    // round by round under the seal's own challenges, so the message names the first round
    // that the opened witness and master seed do not produce
    for (r, rp) in proof.rounds.iter().enumerate() {
        let e = es[r];
        if cm.open(r, e) != rp.opening || cm.commits[r][(e as usize + 2) % 3] != rp.commitment {
            return Err(Error::rejected(format!(
                "round {}: the seal is not what this witness and master seed produce",
                r + 1
            )));
        }
    }
    if zkbpp::finish_proof(st, &cm) != *proof {
        return Err(Error::rejected(
            "the seal's challenges are not the ones this witness and master seed produce (the seal does not verify)",
        ));
    }
    Ok(w.to_vec())
}

/// Proves from a master seed; `witnesses` is one witness, or one per round.
fn prove_from_master(
    st: &Statement,
    witnesses: &[&[bool]],
    master: &Seed,
    salt: [u8; 32],
    rounds: usize,
) -> Proof {
    let seeds = zkbpp::master_seeds(master, &salt, rounds);
    let cm = zkbpp::commit_with(st.circuit, witnesses, salt, seeds, &[]);
    zkbpp::finish_proof(st, &cm)
}

/// A cheating sealer for tests: round `r` runs on `witnesses[r]` (one per round, no
/// witness checked), seeds from a fresh master seed. Returns the seal and the master seed.
#[doc(hidden)]
pub fn seal_mixed_for_tests(
    st: &Statement,
    witnesses: &[&[bool]],
    rng: &mut impl RngCore,
) -> (Proof, Seed) {
    let salt = zkgames_core::rng::random_32(rng);
    let master = zkgames_core::rng::random_32(rng);
    let proof = prove_from_master(st, witnesses, &master, salt, witnesses.len());
    (proof, master)
}

// ---------------------------------------------------------------------------------------
// Seals of the engines that prove again to open (KKW, VOLE-in-the-head)

/// An engine whose seal is an ordinary proof with every random value drawn from one
/// generator keyed by the master seed, and whose opening is checked by proving again from the
/// master seed and the witness and comparing every byte. Each engine implements it beside its
/// prover (`kkw/seal.rs`, `vole/seal.rs`); [`seal_with`], [`open_with`] and
/// [`seal_digest_with`] are the whole seal protocol for all of them.
///
/// Misuse to avoid: `prove_unchecked` must read *all* its randomness from the generator it is
/// given (the salt first), or a seal could not be reproduced and would never open.
pub trait Reproducible {
    type Params: Copy;
    type Proof: serde::Serialize + PartialEq;
    type Cheat;
    /// Domain tag of the generator's key, `SHA-256(MASTER_TAG ‖ master)`.
    const MASTER_TAG: &'static [u8];
    /// Domain tag of the seal's digest ([`seal_digest_with`]).
    const SEAL_DIGEST_TAG: &'static [u8];
    /// Checks parameters (read from a file: anything).
    fn check(p: &Self::Params) -> Result<()>;
    /// The parameters a proof states.
    fn params(proof: &Self::Proof) -> Self::Params;
    /// The prover, witness unchecked, with `cheats` for the soundness tests.
    fn prove_unchecked(
        st: &Statement,
        witness: &[bool],
        params: Self::Params,
        rng: &mut rand_chacha::ChaCha20Rng,
        cheats: &[Self::Cheat],
    ) -> Result<Self::Proof>;
}

/// ChaCha20 keyed by `SHA-256(tag ‖ master)` (nonce 0): every random value of a seal.
fn master_rng(tag: &[u8], master: &Seed) -> rand_chacha::ChaCha20Rng {
    use rand_core::SeedableRng;
    let mut h = Sha256::new();
    h.update(tag);
    h.update(master);
    rand_chacha::ChaCha20Rng::from_seed(h.finalize().into())
}

/// The digest that names a seal of engine `E`: as [`seal_digest`] with `E`'s tag and the
/// proof's bytes (an opening of one engine cannot be presented against another's seal).
pub fn seal_digest_with<E: Reproducible>(st: &Statement, proof: &E::Proof) -> Digest {
    named_digest(
        E::SEAL_DIGEST_TAG,
        st,
        &zkgames_core::proof_file::encode(proof),
    )
}

/// Seals `witness` with engine `E`: an ordinary proof (its verifier accepts it) whose
/// randomness all comes from one secret master seed drawn from `rng`, and the opening.
pub fn seal_with<E: Reproducible>(
    st: &Statement,
    witness: &[bool],
    params: E::Params,
    rng: &mut impl RngCore,
) -> Result<(E::Proof, SealOpening)> {
    E::check(&params)?;
    check_witness(st, witness)?;
    let mut master = zkgames_core::rng::random_32(rng);
    let proof = E::prove_unchecked(
        st,
        witness,
        params,
        &mut master_rng(E::MASTER_TAG, &master),
        &[],
    )?;
    let opening = SealOpening::new(seal_digest_with::<E>(st, &proof), master, witness.to_vec());
    zkbpp::wipe(&mut master);
    Ok((proof, opening))
}

/// Opens a seal of engine `E`: the witness, if `opening` names this seal, the witness
/// satisfies the statement, and proving again from the opening's master seed and witness
/// gives the seal's bytes exactly.
pub fn open_with<E: Reproducible>(
    st: &Statement,
    proof: &E::Proof,
    opening: &SealOpening,
) -> Result<Vec<bool>> {
    let digest = seal_digest_with::<E>(st, proof);
    if opening.seal != digest {
        let (theirs, ours) = zkgames_core::files::two_digests(&opening.seal, &digest);
        return Err(Error::rejected(format!(
            "this opening is for another seal, statement or context (it names seal {theirs}; this seal is {ours})"
        )));
    }
    let params = E::params(proof);
    E::check(&params).map_err(|e| Error::rejected(e.to_string()))?;
    let w = opened_witness(st, opening)?;
    let again = E::prove_unchecked(
        st,
        w,
        params,
        &mut master_rng(E::MASTER_TAG, &opening.master),
        &[],
    )?;
    if again != *proof {
        return Err(Error::rejected(
            "the seal is not what this witness and master seed produce (its salt, commitments or responses differ)",
        ));
    }
    Ok(w.to_vec())
}

/// A cheating sealer of engine `E` for tests: runs with `cheats` (e.g. [`crate::kkw::Cheat::Input`]
/// to change witness in some executions), no witness checked. Returns the seal and the
/// master seed.
#[doc(hidden)]
pub fn seal_cheating_for_tests<E: Reproducible>(
    st: &Statement,
    witness: &[bool],
    params: E::Params,
    cheats: &[E::Cheat],
    rng: &mut impl RngCore,
) -> Result<(E::Proof, Seed)> {
    let master = zkgames_core::rng::random_32(rng);
    let proof = E::prove_unchecked(
        st,
        witness,
        params,
        &mut master_rng(E::MASTER_TAG, &master),
        cheats,
    )?;
    Ok((proof, master))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::{Bit, Builder, Circuit};
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    /// x0 ∧ x1 ⊕ x2, x3 ∨ x4, x5: several witnesses per output.
    fn small() -> Circuit {
        let mut b = Builder::new(6);
        let a = b.and(b.input(0), b.input(1));
        let o1 = b.xor(a, b.input(2));
        let o2 = b.or(b.input(3), b.input(4));
        b.output(o1);
        b.output(o2);
        b.output(b.input(5));
        b.output(Bit::Const(true));
        b.finish()
    }

    fn st<'a>(c: &'a Circuit, y: &'a [bool]) -> Statement<'a> {
        Statement {
            tag: b"seal-test",
            circuit: c,
            public: b"",
            output: y,
            context: b"ctx",
        }
    }

    #[test]
    fn seeds_follow_the_written_formula() {
        let mut rng = seeded_rng(1);
        let c = small();
        let w = [true, true, false, true, false, true];
        let y = c.eval(&w);
        let (p, o) = seal(&st(&c, &y), &w, 70, &mut rng).unwrap();
        let es = zkbpp::unpack_trits(&p.challenges, 70).unwrap();
        for (r, rp) in p.rounds.iter().enumerate() {
            for (j, party) in [es[r] as usize, (es[r] as usize + 1) % 3]
                .into_iter()
                .enumerate()
            {
                let mut buf = b"zkg:zkb++:seed-from-master:v1".to_vec();
                buf.extend_from_slice(o.master_seed());
                buf.extend_from_slice(&p.salt);
                buf.extend_from_slice(&(r as u32).to_le_bytes());
                buf.push(party as u8);
                let k: [u8; 32] = Sha256::digest(&buf).into();
                assert_eq!(rp.opening.seeds[j], k, "round {r} party {party}");
            }
        }
    }

    #[test]
    fn opening_bytes_round_trip_and_one_encoding() {
        let mut rng = seeded_rng(2);
        for n in [0usize, 1, 7, 8, 9, 64, 300] {
            let w: Vec<bool> = (0..n).map(|_| rng.gen()).collect();
            let o = SealOpening::new(rng.gen(), rng.gen(), w);
            let b = o.to_bytes();
            assert_eq!(b.len(), OPENING_HEADER_LEN + n.div_ceil(8));
            assert_eq!(SealOpening::from_bytes(&b).unwrap(), o);
            for cut in 0..b.len() {
                assert!(SealOpening::from_bytes(&b[..cut]).is_err(), "cut {cut}");
            }
            let mut longer = b.clone();
            longer.push(0);
            assert!(SealOpening::from_bytes(&longer).is_err());
            // magic, version and length are checked (a length off by 128 or more cannot
            // match the bytes that follow)
            for (i, bit) in (0..10)
                .map(|i| (i, 0x01))
                .chain((74..82).map(|i| (i, 0x80)))
            {
                let mut t = b.clone();
                t[i] ^= bit;
                assert!(SealOpening::from_bytes(&t).is_err(), "byte {i}");
            }
            if n % 8 != 0 {
                let mut t = b.clone();
                *t.last_mut().unwrap() |= 0x80;
                assert!(SealOpening::from_bytes(&t).is_err(), "padding bit");
            }
        }
        // a huge claimed length is refused before anything is allocated
        let mut b = SealOpening::new([0; 32], [0; 32], vec![]).to_bytes();
        b[74..82].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(SealOpening::from_bytes(&b).is_err());
        // garbage of every shape: an error, never a panic
        for it in 0..2000 {
            let mut b = vec![0u8; rng.gen_range(0..200)];
            rng.fill(&mut b[..]);
            if it % 2 == 0 && b.len() >= OPENING_HEADER_LEN {
                b[..10]
                    .copy_from_slice(&SealOpening::new([0; 32], [0; 32], vec![]).to_bytes()[..10]);
            }
            let _ = SealOpening::from_bytes(&b);
        }
        // debug output hides the secrets
        let o = SealOpening::new([1; 32], [0xab; 32], vec![true; 5]);
        let d = format!("{o:?}");
        assert!(!d.contains("abab") && d.contains("5 bits"), "{d}");
    }

    #[test]
    fn refuses_bad_witness_and_rounds() {
        let mut rng = seeded_rng(3);
        let c = small();
        let w = [true, true, false, true, false, true];
        let y = c.eval(&w);
        let s = st(&c, &y);
        assert!(seal(&s, &w, 0, &mut rng).is_err());
        assert!(seal(&s, &w, zkbpp::MAX_ROUNDS + 1, &mut rng).is_err());
        assert!(seal(&s, &w[..5], 10, &mut rng).is_err());
        let mut bad = w;
        bad[5] ^= true;
        assert!(seal(&s, &bad, 10, &mut rng).is_err());
    }

    #[test]
    fn a_prover_with_two_witnesses_cannot_open_to_either() {
        let mut rng = seeded_rng(4);
        let c = small();
        let a = [true, true, false, true, false, true];
        let b = [false, false, true, false, true, true];
        let y = c.eval(&a);
        assert_eq!(c.eval(&b), y);
        let s = st(&c, &y);
        let ws: Vec<&[bool]> = (0..40)
            .map(|r| if r < 20 { &a[..] } else { &b[..] })
            .collect();
        let (p, m) = seal_mixed_for_tests(&s, &ws, &mut rng);
        verify(&s, &p, 40).unwrap();
        let d = seal_digest(&s, &p);
        let ea = open(&s, &p, &SealOpening::new(d, m, a.to_vec())).unwrap_err();
        assert!(ea.to_string().contains("round 21:"), "{ea}");
        let eb = open(&s, &p, &SealOpening::new(d, m, b.to_vec())).unwrap_err();
        assert!(eb.to_string().contains("round 1:"), "{eb}");
        // one witness everywhere through the same path: opens
        let ws: Vec<&[bool]> = vec![&a[..]; 40];
        let (p, m) = seal_mixed_for_tests(&s, &ws, &mut rng);
        let d = seal_digest(&s, &p);
        assert_eq!(
            open(&s, &p, &SealOpening::new(d, m, a.to_vec())).unwrap(),
            a
        );
    }
}
