//! A toy engine for tests: its "proof" is the witness itself, in the clear.
//!
//! It is sound (the verifier evaluates the circuit on the witness) and reveals everything,
//! so it is **never** built into the binaries: it exists in test builds of this crate, or
//! with the `toy-engine` feature, to show what adding an engine takes. Its commit touched
//! this folder and three other files: `engine/mod.rs` (one line in the list of engines),
//! `lib.rs` (the `mod` line) and `Cargo.toml` (the feature). The engine contract tests
//! (`engine/tests.rs`) run on it like on every engine, and `cargo check --workspace
//! --all-targets --features zkgames-mpc/toy-engine` builds every crate above with it.

use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use crate::engine::{ProofEngine, Required};
use crate::seal::Reproducible;
use crate::session::Interactive;
use crate::statement::{check_witness, pack_bools, Statement};
use zkgames_core::details::Details;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;

/// The plain engine.
pub struct Plain;

/// The plain engine has no parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params;

impl std::fmt::Display for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the witness in the clear")
    }
}

/// A plain proof: a salt (so that a seal's bytes come from its master seed) and the
/// witness, packed LSB first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    pub salt: [u8; 32],
    pub witness: Vec<u8>,
}

/// The nominal security level: the verifier sees the witness, so no forger succeeds; a
/// finite level keeps requirements comparable.
const BITS: f64 = 256.0;

/// The witness of `st` packed in `bytes`: exactly `n_inputs` bits, zero padding.
fn unpack(st: &Statement, bytes: &[u8]) -> Result<Vec<bool>> {
    let n = st.circuit.n_inputs();
    let w: Vec<bool> = (0..bytes.len() * 8)
        .map(|i| bytes[i / 8] >> (i % 8) & 1 == 1)
        .collect();
    if bytes.len() != n.div_ceil(8) || w[n.min(w.len())..].iter().any(|&b| b) {
        return Err(Error::rejected(format!(
            "{}: a plain proof of {} bytes for a circuit of {n} inputs",
            crate::ANOTHER_STATEMENT,
            bytes.len()
        )));
    }
    Ok(w[..n].to_vec())
}

fn check_plain(st: &Statement, bytes: &[u8]) -> Result<()> {
    let w = unpack(st, bytes)?;
    check_witness(st, &w)
        .map_err(|_| Error::rejected("the revealed witness does not satisfy the statement"))
}

impl Reproducible for Plain {
    type Params = Params;
    type Proof = Proof;
    type Cheat = ();
    const MASTER_TAG: &'static [u8] = b"zkg:plain:seal-rng:v1";
    const SEAL_DIGEST_TAG: &'static [u8] = b"zkg:plain:seal:v1";

    fn check(_p: &Params) -> Result<()> {
        Ok(())
    }

    fn params(_proof: &Proof) -> Params {
        Params
    }

    fn prove_unchecked(
        _st: &Statement,
        witness: &[bool],
        _params: Params,
        rng: &mut rand_chacha::ChaCha20Rng,
        _cheats: &[()],
    ) -> Result<Proof> {
        Ok(Proof {
            salt: zkgames_core::rng::random_32(rng),
            witness: pack_bools(witness),
        })
    }
}

impl Interactive for Plain {
    const LABEL: &'static str = "plain";
    const SESSION_TAG: &'static [u8] = b"zkg:plain:session:v1";
    const MAX_BITS: u32 = 256;
    type Params = Params;
    type Commit = Vec<u8>;
    type Challenge = ();
    type Response = ();
    type State = Vec<u8>;

    fn check(_p: &Params) -> Result<()> {
        Ok(())
    }
    fn session_form(p: Params) -> Params {
        p
    }
    fn rounds(_p: &Params) -> u32 {
        1
    }
    fn words(_p: &Params) -> [u32; 3] {
        [0; 3]
    }
    fn offered(_bits: u32) -> Result<Vec<(&'static str, Params)>> {
        Ok(vec![("plain", Params)])
    }
    fn commit(_st: &Statement, witness: &[bool], _p: Params, _rng: &mut Rng) -> Result<Vec<u8>> {
        Ok(pack_bools(witness))
    }
    fn commitment(state: &Vec<u8>) -> &Vec<u8> {
        state
    }
    fn respond(_state: Vec<u8>, _st: &Statement, _ch: &()) -> Result<()> {
        Ok(())
    }
    fn random_challenge(_p: &Params, _rng: &mut dyn RngCore) {}
    fn check_challenge(_ch: &(), _p: &Params) -> Result<()> {
        Ok(())
    }
    fn check_commit(_m: &Vec<u8>, _p: &Params) -> Result<()> {
        Ok(())
    }
    fn verify(st: &Statement, _p: &Params, m: &Vec<u8>, _ch: &(), _r: &()) -> Result<()> {
        check_plain(st, m)
    }
    fn max_commit_len(st: &Statement, _p: &Params) -> usize {
        zkgames_core::proof_file::list_len(st.circuit.n_inputs().div_ceil(8), 1)
    }
    fn max_response_len(_st: &Statement, _p: &Params) -> usize {
        0
    }
    fn simulate(
        _st: &Statement,
        _p: Params,
        _ch: &(),
        _rng: &mut dyn RngCore,
    ) -> Result<(Vec<u8>, ())> {
        Err(Error::bad(
            "the plain engine has no simulator: its transcripts show the witness",
        ))
    }
}

impl ProofEngine for Plain {
    const NAME: &'static str = "plain (test engine, reveals the witness)";
    const SYSTEM_NAME: &'static str = "the plain test engine";
    const LABEL: &'static str = "plain";
    const WIRE: &'static str = "plain";
    const HELP: &'static str = "a test engine whose proof is the witness in the clear";
    const NATIVE_INVERSES: bool = true;
    type Params = Params;
    type Proof = Proof;

    fn params_for(_bits: u32, _set: &str) -> Result<Params> {
        Ok(Params)
    }
    fn check(_p: &Params) -> Result<()> {
        Ok(())
    }
    fn security_bits(_p: &Params) -> f64 {
        BITS
    }
    fn repetitions(_p: &Params) -> usize {
        1
    }
    fn verifier_work(_p: &Params, and_gates: u64) -> u64 {
        and_gates
    }

    fn params_of(_proof: &Proof) -> Params {
        Params
    }
    fn check_offered(_p: &Params, _req: &Required) -> Result<()> {
        Ok(())
    }
    fn prove_at(
        st: &Statement,
        witness: &[bool],
        _p: Params,
        mut rng: &mut dyn RngCore,
    ) -> Result<Proof> {
        check_witness(st, witness)?;
        Ok(Proof {
            salt: zkgames_core::rng::random_32(&mut rng),
            witness: pack_bools(witness),
        })
    }
    fn verify(st: &Statement, proof: &Proof, req: &Required) -> Result<()> {
        if req.bits > BITS {
            return Err(Error::rejected(format!(
                "a plain proof counts as {BITS} bits; {} are required",
                req.bits
            )));
        }
        check_plain(st, &proof.witness)
    }
    fn largest_proof(_p: &Params, shape: &crate::engine::ProofShape) -> Proof {
        Proof {
            salt: [0; 32],
            witness: vec![0; shape.inputs.div_ceil(8)],
        }
    }

    fn describe(proof: &Proof) -> Details {
        let n = proof.witness.len();
        Details::aligned(12).count("witness", n as u64, format!("{n} bytes, in the clear"))
    }
    fn describe_session(rounds: u32) -> Details {
        Details::aligned(12).count(
            "messages",
            rounds.into(),
            format!("{rounds} (the witness in the clear)"),
        )
    }
    crate::engine::shared_seal_and_session!(Plain);
}
