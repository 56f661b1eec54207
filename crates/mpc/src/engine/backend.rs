//! The one trait every engine implements ([`ProofEngine`]), and the parameter sets it offers
//! to users ([`ParamSet`]).
//!
//! An engine implements it in its own folder (`zkbpp/backend.rs`, `kkw/backend.rs`,
//! `vole/backend.rs`); [`super`] generates the [`super::Engine`], [`super::System`] and
//! [`super::Proof`] enums from the one list of engines and dispatches every call here.
//! Nothing else in the workspace names an engine's own types to prove or verify.

use rand_core::RngCore;
use serde::{de::DeserializeOwned, Serialize};

use super::Required;
use crate::seal::SealOpening;
use crate::statement::{OwnedStatement, Statement};
use zkgames_core::commit::Digest;
use zkgames_core::details::Details;
use zkgames_core::proof_file::ProtocolId;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::{SessionProver, SessionRecord, SessionVerifier};

/// A named parameter set an engine offers users (`--vole-params size`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSet {
    /// The name on the command line and in messages: `size`, `speed`.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
}

/// A proof engine: everything the workspace asks of one. Parameters are the engine's own
/// (ZKB++: its number of rounds); a proof is the engine's own proof, encoded in proof files
/// with [`zkgames_core::proof_file::encode`].
///
/// Misuse to avoid: [`ProofEngine::prove_at`] and [`ProofEngine::verify`] are the whole
/// non-interactive protocol; a verifier that calls anything else first (parsing a proof's
/// parameters and trusting them, say) must still finish with `verify` under the verifier's
/// own [`Required`].
pub trait ProofEngine: 'static {
    /// The name users read: `VOLE-in-the-head`.
    const NAME: &'static str;
    /// The proof system as a protocol's name reads it: `ZKB++ (MPC-in-the-head)`.
    const SYSTEM_NAME: &'static str;
    /// The short label of JSON reports' `system` field: `VOLE`.
    const LABEL: &'static str;
    /// The wire name: `--system` on the command line, `system` in the HTTP API.
    const WIRE: &'static str;
    /// Other names `--system` accepts (ZKB++'s historical `mpc`).
    const ALIASES: &'static [&'static str] = &[];
    /// One line for `--system`'s help.
    const HELP: &'static str;
    /// The parameter sets users pick by name, the default first; empty when the engine's
    /// parameters follow from the security level alone (ZKB++).
    const PARAM_SETS: &'static [ParamSet] = &[];
    /// Whether the engine proves the circuit IR's GF(2^8) inverse gates natively; the
    /// others are given the circuit lowered to AND and XOR gates
    /// ([`crate::circuit::Circuit::lowered`]).
    const NATIVE_INVERSES: bool = false;

    type Params: Copy + std::fmt::Debug + std::fmt::Display + PartialEq + Eq + Send + Sync + 'static;
    type Proof: Serialize + DeserializeOwned + Clone + std::fmt::Debug + PartialEq + Eq + Send;

    /// The parameters of set `set` (one of [`ProofEngine::PARAM_SETS`]) at `bits` bits.
    fn params_for(bits: u32, set: &str) -> Result<Self::Params>;
    /// The name of the offered set that `p` is at `bits` bits, if it is one.
    fn set_name(p: &Self::Params, bits: u32) -> Option<&'static str> {
        Self::PARAM_SETS
            .iter()
            .find(|s| Self::params_for(bits, s.name).is_ok_and(|q| q == *p))
            .map(|s| s.name)
    }
    /// Checks the parameters' limits (bad input otherwise): a caller's or a file's.
    fn check(p: &Self::Params) -> Result<()>;
    /// The security level `p` reaches, in bits (`log2` of a forger's expected work).
    fn security_bits(p: &Self::Params) -> f64;
    /// Parallel repetitions of `p` (ZKB++ rounds, KKW's online executions `M`, VOLE's `τ`).
    fn repetitions(p: &Self::Params) -> usize;
    /// The parameters as written in messages.
    fn params_text(p: &Self::Params) -> String {
        p.to_string()
    }
    /// The verifier's work for a circuit of `and_gates` AND gates, in units of one party's
    /// evaluation of one AND gate: the cost model of docs/PROTOCOLS.md 5.7 (ZKB++ re-runs two
    /// of three parties per round, KKW the `M · N` party-executions, VOLE-in-the-head expands
    /// `Σ 2^{k_i}` leaves, each to the circuit's length).
    fn verifier_work(p: &Self::Params, and_gates: u64) -> u64;
    /// The parameters a proof states (read from a file: not yet checked).
    fn params_of(proof: &Self::Proof) -> Self::Params;
    /// Refuses (before any work) parameters that ask a verifier requiring `req` for more work
    /// than the heaviest honest proof ([`crate::offered`]).
    fn check_offered(p: &Self::Params, req: &Required) -> Result<()>;
    /// The refusal of a seal whose parameters are weaker than `req` (opening re-runs the
    /// prover instead of verifying, at the strength the user asked for).
    fn check_strength(p: &Self::Params, req: &Required) -> Result<()> {
        Self::check(p).map_err(|e| Error::rejected(e.to_string()))?;
        let bits = Self::security_bits(p);
        if bits < req.bits {
            return Err(Error::rejected(format!(
                "the seal's parameters ({}) give {bits:.1} bits of security; {} are required",
                Self::params_text(p),
                req.bits
            )));
        }
        Ok(())
    }

    /// Proves knowledge of `witness` (refused if it does not satisfy the statement).
    fn prove_at(
        st: &Statement,
        witness: &[bool],
        p: Self::Params,
        rng: &mut dyn RngCore,
    ) -> Result<Self::Proof>;
    /// Verifies `proof` against `st` under `req` (its engine already accepted by `req`).
    fn verify(st: &Statement, proof: &Self::Proof, req: &Required) -> Result<()>;
    /// A proof of the largest shape an honest prover with `p` can send for a circuit of at
    /// most `shape`'s sizes (every variable-length part at its longest, contents zero): its
    /// encoding's length bounds every honest proof's ([`super::System::max_proof_bytes`]).
    fn largest_proof(p: &Self::Params, shape: &super::ProofShape) -> Self::Proof;
    /// Summary fields for `inspect` (no verification).
    fn describe(proof: &Self::Proof) -> Details;
    /// The `inspect` field of a recorded session whose Hello names `rounds` (the session's
    /// parameters are the verifier's, not in the file).
    fn describe_session(rounds: u32) -> Details;

    /// Seals `witness` ([`crate::seal`]): a proof whose randomness all comes from one master
    /// seed, and the opening that reveals the witness later.
    fn seal(
        st: &Statement,
        witness: &[bool],
        p: Self::Params,
        rng: &mut dyn RngCore,
    ) -> Result<(Self::Proof, SealOpening)>;
    /// The digest naming `proof` as a seal.
    fn seal_digest(st: &Statement, proof: &Self::Proof) -> Digest;
    /// The witness, if `opening` reproduces the seal exactly.
    fn open(st: &Statement, proof: &Self::Proof, opening: &SealOpening) -> Result<Vec<bool>>;

    /// The prover's half of a live session.
    fn session_prover(
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        p: Self::Params,
        rng: Rng,
    ) -> Result<Box<dyn SessionProver<'static>>>;
    /// The verifier's half of a live session (the verifier fixes the parameters).
    fn session_verifier(
        st: OwnedStatement,
        protocol: ProtocolId,
        p: Self::Params,
        rng: Rng,
    ) -> Box<dyn SessionVerifier>;
    /// The parameters a session of `p` ran, from its Hello's `rounds` (a ZKB++ prover may
    /// offer more rounds than required; the others run the verifier's parameters exactly).
    fn as_ran(p: Self::Params, hello_rounds: u32) -> Self::Params {
        let _ = hello_rounds;
        p
    }
    /// Re-checks a recorded session under `req`: the parameters it ran.
    fn replay(
        st: OwnedStatement,
        protocol: ProtocolId,
        req: &Required,
        rec: &SessionRecord,
    ) -> Result<Self::Params>;
    /// The zero-knowledge simulator: an accepting transcript for a uniformly random
    /// challenge, made without a witness.
    fn simulate(
        st: &Statement,
        protocol: ProtocolId,
        p: Self::Params,
        rng: &mut dyn RngCore,
    ) -> Result<SessionRecord>;
}

/// The seal and session methods of a [`ProofEngine`] built on the shared interfaces
/// ([`crate::seal::Reproducible`] seals, [`crate::session::Interactive`] sessions), the same
/// for every such engine: invoked inside its `impl ProofEngine` with the engine's type.
macro_rules! shared_seal_and_session {
    ($E:ty) => {
        fn seal(
            st: &$crate::statement::Statement,
            witness: &[bool],
            p: Self::Params,
            mut rng: &mut dyn rand_core::RngCore,
        ) -> zkgames_core::Result<(Self::Proof, $crate::seal::SealOpening)> {
            $crate::seal::seal_with::<$E>(st, witness, p, &mut rng)
        }

        fn seal_digest(
            st: &$crate::statement::Statement,
            proof: &Self::Proof,
        ) -> zkgames_core::commit::Digest {
            $crate::seal::seal_digest_with::<$E>(st, proof)
        }

        fn open(
            st: &$crate::statement::Statement,
            proof: &Self::Proof,
            opening: &$crate::seal::SealOpening,
        ) -> zkgames_core::Result<Vec<bool>> {
            $crate::seal::open_with::<$E>(st, proof, opening)
        }

        fn session_prover(
            st: $crate::statement::OwnedStatement,
            protocol: zkgames_core::proof_file::ProtocolId,
            witness: Vec<bool>,
            p: Self::Params,
            rng: zkgames_core::rng::Rng,
        ) -> zkgames_core::Result<Box<dyn zkgames_net::SessionProver<'static>>> {
            Ok(Box::new($crate::session::EngineProver::<$E>::new(
                st, protocol, witness, p, rng,
            )?))
        }

        fn session_verifier(
            st: $crate::statement::OwnedStatement,
            protocol: zkgames_core::proof_file::ProtocolId,
            p: Self::Params,
            rng: zkgames_core::rng::Rng,
        ) -> Box<dyn zkgames_net::SessionVerifier> {
            Box::new($crate::session::EngineVerifier::<$E>::new(
                st, protocol, p, rng,
            ))
        }

        fn replay(
            st: $crate::statement::OwnedStatement,
            protocol: zkgames_core::proof_file::ProtocolId,
            req: &$crate::engine::Required,
            rec: &zkgames_net::SessionRecord,
        ) -> zkgames_core::Result<Self::Params> {
            $crate::session::replay_offered::<$E>(st, protocol, req.bits, rec)
        }

        fn simulate(
            st: &$crate::statement::Statement,
            protocol: zkgames_core::proof_file::ProtocolId,
            p: Self::Params,
            mut rng: &mut dyn rand_core::RngCore,
        ) -> zkgames_core::Result<zkgames_net::SessionRecord> {
            $crate::session::simulate_random::<$E>(st, protocol, p, &mut rng)
        }
    };
}
pub(crate) use shared_seal_and_session;
