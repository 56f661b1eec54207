//! Proofs about Garble programs: "I know values of the secret parameters that, with these
//! public ones, make this program's function return this value (without panicking)".
//!
//! The statement handed to an engine is the compiled circuit with the public parameters
//! folded in ([`super::circuit::fold`]); its public bytes ([`public_bytes`]) bind the
//! program text's digest, the compiled circuit's digest, the function's name, which
//! parameters are public and their values; its output is the panic flag (0) and the result.
//! The proof file (protocol ids 50 ZKB++, 51 KKW, 52 VOLE-in-the-head) carries a [`Head`]
//! before the engine's proof, which also records the compiler version. The version is not
//! part of the statement: a proof verifies with any compiler version that compiles the
//! program to the same circuit (same digest), and is refused, naming both versions, by one
//! that compiles it to another.

use serde::{Deserialize, Serialize};
use zkgames_core::details::Details;

use super::{Program, COMPILER};
use zkgames_core::proof_file::{self, ProofFile};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::engine::{Proof as EngineProof, Required, System};
use zkgames_mpc::statement::OwnedStatement;
use zkgames_mpc::Report;

/// The transcript label of Garble proofs.
pub const TAG: &[u8] = b"zkgames/garble/v1";

zkgames_mpc::protocols! {
    /// Garble proofs' protocol ids, one per engine.
    pub PROTOCOLS = "a Garble program proof", "Garble program",
    {
        Zkbpp: GARBLE_MPC = 50,
        Kkw: GARBLE_KKW = 51,
        Vole: GARBLE_VOLE = 52,
    }
}

/// What a proof file says before the engine's proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The compiler the prover used ([`COMPILER`]).
    pub compiler: String,
    /// The program text's digest ([`super::program_digest`]).
    pub program: [u8; 32],
    /// The compiled circuit's digest (every parameter an input: [`Program::circuit`]).
    pub circuit: [u8; 32],
    /// The function proven.
    pub function: String,
    /// The public parameters' indexes, increasing.
    pub public: Vec<u32>,
}

/// `"garble-statement" ‖ program digest ‖ circuit digest ‖ u32 len ‖ function name ‖ u32
/// parameters ‖ per parameter: 0 (secret) or 1 (public) followed by its value packed LSB
/// first (our bit order)`: the engines' public bytes.
pub fn public_bytes(p: &Program, public: &[Option<Vec<bool>>]) -> Vec<u8> {
    let mut b = b"garble-statement".to_vec();
    b.extend_from_slice(&p.digest());
    b.extend_from_slice(&p.circuit().digest());
    b.extend_from_slice(&(p.function().len() as u32).to_le_bytes());
    b.extend_from_slice(p.function().as_bytes());
    b.extend_from_slice(&(public.len() as u32).to_le_bytes());
    for v in public {
        match v {
            None => b.push(0),
            Some(bits) => {
                b.push(1);
                b.extend_from_slice(&zkgames_mpc::zkbpp::pack_bools(bits));
            }
        }
    }
    b
}

/// The values a prover knows: one per parameter (our order), and which are public.
pub struct Assignment {
    pub values: Vec<Vec<bool>>,
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
    /// Each parameter's value if public.
    pub fn public_values(&self) -> Vec<Option<Vec<bool>>> {
        self.values
            .iter()
            .zip(&self.public)
            .map(|(v, &p)| p.then(|| v.clone()))
            .collect()
    }
}

fn public_indexes(public: &[Option<Vec<bool>>]) -> Vec<u32> {
    (0..public.len() as u32)
        .filter(|&g| public[g as usize].is_some())
        .collect()
}

fn widths(p: &Program) -> Vec<usize> {
    p.params().iter().map(|x| x.order.len()).collect()
}

/// The statement about `p` with these public parameters and circuit output (the panic flag
/// and the result, [`Program::parse_result`]).
pub fn statement(
    p: &Program,
    public: &[Option<Vec<bool>>],
    output: Vec<bool>,
    context: &[u8],
) -> Result<OwnedStatement> {
    Ok(OwnedStatement {
        tag: TAG,
        circuit: super::circuit::fold(p.circuit(), &widths(p), public)?,
        public: public_bytes(p, public),
        output,
        context: context.to_vec(),
    })
}

/// Proves knowledge of the secret parameters of `a`: the proof file's bytes and the result
/// as a Garble literal (which the verifier must be given).
pub fn prove(
    p: &Program,
    a: &Assignment,
    system: &System,
    context: &[u8],
    rng: &mut zkgames_core::rng::Rng,
) -> Result<(Vec<u8>, String)> {
    if a.public.iter().all(|&x| x) {
        return Err(Error::bad(
            "every parameter is public: there is nothing to prove (`prover garble eval` computes the result)",
        ));
    }
    let (literal, output) = p.run(&a.values)?;
    let public = a.public_values();
    let st = statement(p, &public, output, context)?;
    let mut w: Vec<bool> = a
        .values
        .iter()
        .zip(&a.public)
        .filter(|(_, &x)| !x)
        .flat_map(|(v, _)| v.iter().copied())
        .collect();
    let proof = system.prove(&st.as_ref(), &w, rng);
    w.fill(false);
    let head = Head {
        compiler: COMPILER.to_string(),
        program: p.digest(),
        circuit: p.circuit().digest(),
        function: p.function().to_string(),
        public: public_indexes(&public),
    };
    Ok((proof?.file_bytes(&PROTOCOLS, &head)?, literal))
}

fn names(p: &Program, idx: &[u32]) -> String {
    if idx.is_empty() {
        return "none".to_string();
    }
    idx.iter()
        .map(|&i| {
            p.params()
                .get(i as usize)
                .map_or_else(|| format!("#{i}"), |x| x.name.clone())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a verification found besides the engine's report: a note when the proof was made
/// with another compiler version that compiles the program to the same circuit.
pub struct Verified {
    pub report: Report,
    pub made_with: String,
}

/// Verifies a Garble proof: `public[i]` is each public parameter's value (`None` for the
/// secret ones), `output` the circuit output for the claimed result.
pub fn verify(
    p: &Program,
    file: &ProofFile,
    public: &[Option<Vec<bool>>],
    output: Vec<bool>,
    req: &Required,
    context: &[u8],
) -> Result<Verified> {
    let (head, proof): (Head, EngineProof) =
        EngineProof::read_file(&PROTOCOLS, file, "Garble proof body")?;
    let short = |d: &[u8; 32]| hex::encode(d)[..16].to_string();
    if head.program != p.digest() {
        return Err(Error::rejected(format!(
            "the proof was made for another program (digest {}…), not this one ({}…)",
            short(&head.program),
            short(&p.digest())
        )));
    }
    if head.function != p.function() {
        return Err(Error::rejected(format!(
            "the proof is about the function {}, not {} (--fn)",
            zkgames_core::files::excerpt(&head.function),
            p.function()
        )));
    }
    if head.circuit != p.circuit().digest() {
        return Err(Error::rejected(if head.compiler != COMPILER {
            format!(
                "the proof was made with {}, which compiles this program to another circuit than {COMPILER} here (digest {}…, not {}…): verify it with the prover's compiler",
                zkgames_core::files::excerpt(&head.compiler),
                short(&head.circuit),
                short(&p.circuit().digest())
            )
        } else {
            format!(
                "the proof was made for another circuit (digest {}…, not {}…)",
                short(&head.circuit),
                short(&p.circuit().digest())
            )
        }));
    }
    let mine = public_indexes(public);
    if head.public != mine {
        return Err(Error::rejected(format!(
            "the proof was made with public parameters {}; this verification gives {} (--public)",
            names(p, &head.public),
            names(p, &mine)
        )));
    }
    let st = statement(p, public, output, context)?;
    proof.verify(&st.as_ref(), req)?;
    Ok(Verified {
        report: proof.report(proof_file::HEADER_LEN + file.body.len(), st.circuit.n_and()),
        made_with: head.compiler,
    })
}

/// The lines `verifier garble inspect` prints for a proof file (no verification).
pub fn inspect(file: &ProofFile) -> Result<Details> {
    let (head, proof): (Head, EngineProof) =
        EngineProof::read_file(&PROTOCOLS, file, "Garble proof body")?;
    let public = if head.public.is_empty() {
        "none".to_string()
    } else {
        head.public
            .iter()
            .map(|g| g.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Ok(Details::aligned(16)
        .text("compiler", zkgames_core::files::excerpt(&head.compiler))
        .text("program digest", hex::encode(head.program))
        .text("circuit digest", hex::encode(head.circuit))
        .text("function", zkgames_core::files::excerpt(&head.function))
        .text("public params", public)
        .then(proof.describe()))
}
