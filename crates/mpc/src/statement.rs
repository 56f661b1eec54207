//! A statement: what a prover claims and a verifier checks, independent of any engine.
//!
//! "I know a witness `w` with `C(w) = y`", where the circuit `C`, the public output `y`, the
//! application's public inputs and a context string are known to both sides, and a tag
//! names the application. Every engine proves any [`Statement`]; every proof kind (peg
//! solutions, sealed moves, SHA-256 preimages, logins, user circuits) is a way of building
//! one. Engines bind the whole statement into their Fiat–Shamir hash; [`Statement::digest`]
//! (everything but the context) is what a live session's Hello names.
//!
//! Misuse to avoid: `public` must hold every public value the circuit was built from (an
//! instance folded into the circuit as constants is covered by the circuit digest, but an
//! application value that only chooses *which* circuit is not): a proof binds what is here,
//! nothing else.

use sha2::{Digest as _, Sha256};

use super::circuit::Circuit;
use zkgames_core::commit::Digest;
use zkgames_core::Error;
use zkgames_core::Result;

/// The refusal of [`Statement::check_boolean`], and the reason an engine's gate walk never
/// meets an inverse gate.
pub const INV_NEEDS_LOWERING: &str = "this statement's circuit has GF(2^8) inverse gates, which only the VOLE-in-the-head engine proves directly; ZKB++ and KKW prove its lowered boolean circuit";

/// What the prover and verifier agree on.
#[derive(Clone, Copy)]
pub struct Statement<'a> {
    /// Transcript label of the application (SHA-256 preimage, peg solitaire...).
    pub tag: &'static [u8],
    pub circuit: &'a Circuit,
    /// Public inputs of the application (e.g. the instance's canonical bytes), absorbed as is.
    pub public: &'a [u8],
    /// The public output the circuit must produce.
    pub output: &'a [bool],
    /// The context string the proof is bound to.
    pub context: &'a [u8],
}

impl Statement<'_> {
    /// Bad input unless the public output has the circuit's output width: every engine's
    /// prover, verifier and seal opening checks it before reading anything sized by it.
    pub fn check_output_len(&self) -> Result<()> {
        if self.output.len() != self.circuit.n_outputs() {
            return Err(Error::bad(format!(
                "the public output has {} bits, the circuit produces {}",
                self.output.len(),
                self.circuit.n_outputs()
            )));
        }
        Ok(())
    }

    /// Bad input if the circuit has GF(2^8) inverse gates: ZKB++ and KKW run boolean
    /// circuits, and prove such a statement through [`Circuit::lowered`] (the VOLE engine
    /// proves it directly). Checked by their provers, verifiers and seal openings.
    pub fn check_boolean(&self) -> Result<()> {
        if self.circuit.n_inv() > 0 {
            return Err(Error::bad(INV_NEEDS_LOWERING));
        }
        Ok(())
    }

    /// A digest of everything public except the context: what a session's Hello names.
    pub fn digest(&self) -> Digest {
        let mut h = Sha256::new();
        h.update(b"zkg:zkb++:statement:v1");
        h.update((self.tag.len() as u64).to_le_bytes());
        h.update(self.tag);
        h.update(self.circuit.digest());
        h.update((self.public.len() as u64).to_le_bytes());
        h.update(self.public);
        h.update((self.output.len() as u64).to_le_bytes());
        h.update(pack_bools(self.output));
        h.finalize().into()
    }
}

/// Checks that `witness` gives the statement's output.
pub fn check_witness(st: &Statement, witness: &[bool]) -> Result<()> {
    if witness.len() != st.circuit.n_inputs() {
        return Err(Error::bad(format!(
            "witness has {} bits, the circuit takes {}",
            witness.len(),
            st.circuit.n_inputs()
        )));
    }
    match st.circuit.eval_checked(witness) {
        Ok(y) if y == st.output => Ok(()),
        Ok(_) => Err(wrong_witness(false)),
        Err(_) => Err(wrong_witness(true)),
    }
}

/// The prover's refusal of a witness that does not give the statement's output, or
/// (`zero_inverse`) that makes an inverted byte zero: for engines that evaluate the
/// circuit themselves instead of calling [`check_witness`].
pub fn wrong_witness(zero_inverse: bool) -> Error {
    Error::bad(if zero_inverse {
        "the witness makes an inverted byte zero, so it does not satisfy the statement: the prover refuses to prove it"
    } else {
        "the witness does not satisfy the statement: the prover refuses to prove it"
    })
}

/// A statement that owns its parts, for long-lived session objects.
#[derive(Clone, Debug)]
pub struct OwnedStatement {
    pub tag: &'static [u8],
    pub circuit: Circuit,
    pub public: Vec<u8>,
    pub output: Vec<bool>,
    pub context: Vec<u8>,
}

impl OwnedStatement {
    pub fn as_ref(&self) -> Statement<'_> {
        Statement {
            tag: self.tag,
            circuit: &self.circuit,
            public: &self.public,
            output: &self.output,
            context: &self.context,
        }
    }
}

/// Packs bools LSB-first into bytes.
pub fn pack_bools(b: &[bool]) -> Vec<u8> {
    let mut out = vec![0u8; b.len().div_ceil(8)];
    for (i, &x) in b.iter().enumerate() {
        out[i / 8] |= (x as u8) << (i % 8);
    }
    out
}
