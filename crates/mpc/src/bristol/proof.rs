//! Proofs about circuits people bring: "I know values of the secret input groups that, with
//! these public input groups, make this Bristol Fashion circuit output these values".
//!
//! The statement handed to an engine is the circuit with its public groups folded in
//! ([`Bristol::to_circuit`]); its public bytes ([`public_bytes`]) bind the file's own digest
//! ([`Bristol::digest`]), which groups are public and their values; its output is every
//! output group. A proof for one circuit, public value or output therefore verifies for no
//! other. The proof file (protocol ids 20 ZKB++, 21 KKW, 22 VOLE-in-the-head) carries a
//! head before the engine's proof: the circuit's digest and the public groups' indexes, so
//! that a verifier given another circuit or other public groups says so in words before any
//! cryptography.

use serde::{Deserialize, Serialize};
use zkgames_core::details::Details;

use super::Bristol;
use crate::engine::{Proof as EngineProof, Required, System};
use crate::statement::OwnedStatement;
use crate::Report;
use zkgames_core::proof_file::{self, ProofFile};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::SessionProver;

/// The transcript label of circuit proofs.
pub const TAG: &[u8] = b"zkgames/circuit/bristol/v1";

crate::protocols! {
    /// Circuit proofs' protocol ids, one per engine.
    pub PROTOCOLS = "a circuit proof", "Bristol Fashion circuit",
    {
        Zkbpp: CIRCUIT_MPC = 20,
        Kkw: CIRCUIT_KKW = 21,
        Vole: CIRCUIT_VOLE = 22,
    }
}

/// What a proof file says before the engine's proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The circuit's digest ([`Bristol::digest`]).
    pub circuit: [u8; 32],
    /// The public input groups, increasing.
    pub public: Vec<u32>,
}

/// `"bristol-statement" ‖ digest ‖ u32 groups ‖ per input group: 0 (secret) or 1 (public)
/// followed by its value packed LSB first`: the engines' public bytes.
pub fn public_bytes(c: &Bristol, public: &[Option<Vec<bool>>]) -> Vec<u8> {
    let mut p = b"bristol-statement".to_vec();
    p.extend_from_slice(&c.digest());
    p.extend_from_slice(&(public.len() as u32).to_le_bytes());
    for v in public {
        match v {
            None => p.push(0),
            Some(bits) => {
                p.push(1);
                p.extend_from_slice(&crate::zkbpp::pack_bools(bits));
            }
        }
    }
    p
}

/// The values a prover knows: one per input group, and which are public.
pub struct Assignment {
    /// Every input group's value.
    pub values: Vec<Vec<bool>>,
    /// `true` for the public groups.
    pub public: Vec<bool>,
}

impl Drop for Assignment {
    fn drop(&mut self) {
        for v in &mut self.values {
            v.fill(false);
        }
        std::hint::black_box(&mut self.values);
    }
}

impl Assignment {
    fn public_values(&self) -> Vec<Option<Vec<bool>>> {
        self.values
            .iter()
            .zip(&self.public)
            .map(|(v, &p)| p.then(|| v.clone()))
            .collect()
    }
}

/// The indexes of the public groups of `public`.
fn public_indexes(public: &[Option<Vec<bool>>]) -> Vec<u32> {
    (0..public.len() as u32)
        .filter(|&g| public[g as usize].is_some())
        .collect()
}

/// Proves knowledge of the secret groups of `a`: returns the proof file's bytes and the
/// circuit's output groups (which the verifier must be given).
pub fn prove(
    c: &Bristol,
    a: &Assignment,
    system: &System,
    context: &[u8],
    rng: &mut zkgames_core::rng::Rng,
) -> Result<(Vec<u8>, Vec<Vec<bool>>)> {
    let (st, mut w, outputs) = prover_statement(c, a, context)?;
    let proof = system.prove(&st.as_ref(), &w, rng);
    w.fill(false);
    let public = a.public_values();
    let head = Head {
        circuit: c.digest(),
        public: public_indexes(&public),
    };
    Ok((proof?.file_bytes(&PROTOCOLS, &head)?, outputs))
}

/// The statement a prover with assignment `a` proves, its witness and the circuit's
/// output groups (which the verifier must be given).
fn prover_statement(
    c: &Bristol,
    a: &Assignment,
    context: &[u8],
) -> Result<(OwnedStatement, Vec<bool>, Vec<Vec<bool>>)> {
    if a.public.iter().all(|&p| p) {
        return Err(Error::bad(
            "every input group is public: there is nothing to prove (`prover circuit eval` computes the outputs)",
        ));
    }
    let outputs = c.eval(&a.values)?;
    let public = a.public_values();
    let st = OwnedStatement {
        tag: TAG,
        circuit: c.to_circuit(&public)?,
        public: public_bytes(c, &public),
        output: outputs.concat(),
        context: context.to_vec(),
    };
    Ok((st, c.witness(&a.values, &public), outputs))
}

/// The statement a verifier checks: the circuit with the `public` groups' values (`None`
/// for the secret ones) and every output group's value.
pub fn verifier_statement(
    c: &Bristol,
    public: &[Option<Vec<bool>>],
    outputs: &[Vec<bool>],
    context: &[u8],
) -> Result<OwnedStatement> {
    Ok(OwnedStatement {
        tag: TAG,
        output: output_bits(c, outputs)?,
        circuit: c.to_circuit(public)?,
        public: public_bytes(c, public),
        context: context.to_vec(),
    })
}

/// A prover's half of a live session, and the circuit's output groups.
pub type ProverSession = (Box<dyn SessionProver<'static>>, Vec<Vec<bool>>);

/// The prover's half of a live session about `c` (the same statement as a proof file's),
/// and the circuit's output groups, which the verifier must be given.
pub fn session_prover(
    c: &Bristol,
    a: &Assignment,
    system: &System,
    context: &[u8],
    rng: zkgames_core::rng::Rng,
) -> Result<ProverSession> {
    let (st, w, outputs) = prover_statement(c, a, context)?;
    let p = system.session_prover(st, PROTOCOLS.id(system.engine())?, w, rng)?;
    Ok((p, outputs))
}

/// Checks that `values` gives every output group, with its width.
fn output_bits(c: &Bristol, outputs: &[Vec<bool>]) -> Result<Vec<bool>> {
    if outputs.len() != c.outputs().len() {
        return Err(Error::bad(format!(
            "the circuit has {} output groups; give each with --output",
            c.outputs().len()
        )));
    }
    Ok(outputs.concat())
}

/// Verifies a circuit proof: `public[g]` is the value of each public group (`None` for the
/// secret ones), `outputs` every output group's value.
pub fn verify(
    c: &Bristol,
    file: &ProofFile,
    public: &[Option<Vec<bool>>],
    outputs: &[Vec<bool>],
    req: &Required,
    context: &[u8],
) -> Result<Report> {
    let (head, proof): (Head, EngineProof) =
        EngineProof::read_file(&PROTOCOLS, file, "circuit proof body")?;
    if head.circuit != c.digest() {
        return Err(Error::rejected(format!(
            "the proof was made for another circuit (digest {}…), not this one ({}…)",
            &hex::encode(head.circuit)[..16],
            &hex::encode(c.digest())[..16]
        )));
    }
    let mine = public_indexes(public);
    if head.public != mine {
        let list = |v: &[u32]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|g| g.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        return Err(Error::rejected(format!(
            "the proof was made with public input groups {}; this verification gives {} (--public)",
            list(&head.public),
            list(&mine)
        )));
    }
    let st = verifier_statement(c, public, outputs, context)?;
    proof
        .verify(&st.as_ref(), req)
        .map_err(|e| crate::binds::name(e, crate::binds::CIRCUIT))?;
    // the file's AND gates (each of a MAND's), the count the prover and `inspect` print
    Ok(proof.report(
        proof_file::HEADER_LEN + file.body.len(),
        c.counts().ands() as usize,
    ))
}

/// The lines `verifier circuit inspect-proof` prints (no verification).
pub fn inspect(file: &ProofFile) -> Result<Details> {
    let (head, proof): (Head, EngineProof) =
        EngineProof::read_file(&PROTOCOLS, file, "circuit proof body")?;
    let groups = if head.public.is_empty() {
        "none".to_string()
    } else {
        head.public
            .iter()
            .map(|g| g.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Ok(Details::new()
        .text("circuit digest", hex::encode(head.circuit))
        .text("public input groups", groups)
        .then(proof.describe()))
}
