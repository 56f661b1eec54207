//! The VOLE-in-the-head engine behind the shared interfaces: its seals
//! ([`crate::seal`]) and its live sessions ([`crate::session`]).
//!
//! A seal is an ordinary proof whose randomness comes from the master seed's generator,
//! which [`super::commit`] reads in this order: the 32-byte salt and the 16-byte root of the
//! one tree (`v7`; `v6` read `τ` roots). A session's first message is the whole [`CommitMsg`]: `chall1` and `chall2` are
//! still derived by Fiat–Shamir inside it (they only select universal hash keys; grinding
//! them costs `2^128` hashes, as in a proof), and it fixes every leaf before `Δ` is known.
//! The verifier's challenge is `Δ` as one hidden leaf per repetition ([`Challenge`]); the
//! response is a [`Response`]. No grinding: `Δ` is the verifier's own draw, so a session runs
//! its set's session form ([`Params::session`]: the grinding bits become bits of `Δ`, and the
//! opening is not bounded: every `Δ` is admissible and the response has exactly the opened
//! seeds).
//! Bytes: docs/PROTOCOLS.md 7.10.

use rand_core::RngCore;

use super::{Challenge, CommitMsg, Params, Profile, ProverState, Response};
use crate::seal::Reproducible;
use crate::session::Interactive;
use crate::statement::Statement;
use zkgames_core::details::Details;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;

/// The VOLE-in-the-head engine.
pub struct Vole;

impl Reproducible for Vole {
    type Params = super::Params;
    type Proof = super::Proof;
    type Cheat = super::Cheat;
    const MASTER_TAG: &'static [u8] = b"zkg:vole:seal-rng:v1";
    const SEAL_DIGEST_TAG: &'static [u8] = b"zkg:vole:seal:v3";

    fn check(p: &Self::Params) -> Result<()> {
        p.check()
    }

    fn params(proof: &Self::Proof) -> Self::Params {
        proof.params
    }

    fn prove_unchecked(
        st: &Statement,
        witness: &[bool],
        params: Self::Params,
        rng: &mut rand_chacha::ChaCha20Rng,
        cheats: &[Self::Cheat],
    ) -> Result<Self::Proof> {
        super::prove_unchecked(st, witness, params, rng, cheats)
    }
}

impl Interactive for Vole {
    const LABEL: &'static str = "VOLE";
    const SESSION_TAG: &'static [u8] = b"zkg:vole:session:v11";
    const MAX_BITS: u32 = 128;
    type Params = Params;
    type Commit = CommitMsg;
    type Challenge = Challenge;
    type Response = Response;
    type State = ProverState;

    fn check(p: &Params) -> Result<()> {
        p.check()
    }

    fn session_form(p: Params) -> Params {
        p.session()
    }

    fn rounds(p: &Params) -> u32 {
        p.tau
    }

    fn words(p: &Params) -> [u32; 3] {
        [p.tau, p.delta_bits, p.grind]
    }

    fn offered(bits: u32) -> Result<Vec<(&'static str, Params)>> {
        Profile::ALL
            .into_iter()
            .map(|pr| Ok((pr.name(), super::params_for(bits, pr)?)))
            .collect()
    }

    fn commit(st: &Statement, witness: &[bool], p: Params, rng: &mut Rng) -> Result<ProverState> {
        super::commit(st, witness, p, rng, &[])
    }

    fn commitment(state: &ProverState) -> &CommitMsg {
        state.commitment()
    }

    fn respond(state: ProverState, _st: &Statement, ch: &Challenge) -> Result<Response> {
        state.respond(ch)
    }

    fn random_challenge(p: &Params, mut rng: &mut dyn RngCore) -> Challenge {
        Challenge::random(p, &mut rng)
    }

    fn check_challenge(ch: &Challenge, p: &Params) -> Result<()> {
        ch.check(p)
    }

    fn check_commit(_m: &CommitMsg, _p: &Params) -> Result<()> {
        // every length is checked against the statement with the response
        Ok(())
    }

    fn verify(
        st: &Statement,
        p: &Params,
        m: &CommitMsg,
        ch: &Challenge,
        r: &Response,
    ) -> Result<()> {
        super::verify_interactive(st, p, m, ch, r)
    }

    fn max_commit_len(st: &Statement, p: &Params) -> usize {
        super::size::commit_len(st, p)
    }

    fn max_response_len(_st: &Statement, p: &Params) -> usize {
        super::size::max_response_len(p)
    }

    fn simulate(
        st: &Statement,
        p: Params,
        ch: &Challenge,
        mut rng: &mut dyn RngCore,
    ) -> Result<(CommitMsg, Response)> {
        super::simulate(st, p, ch, &mut rng)
    }
}

impl crate::engine::ProofEngine for Vole {
    const NAME: &'static str = "VOLE-in-the-head";
    const SYSTEM_NAME: &'static str = "VOLE-in-the-head";
    const LABEL: &'static str = "VOLE";
    const WIRE: &'static str = "vole";
    const HELP: &'static str =
        "VOLE-in-the-head (FAEST's proof system), the default: the smallest proofs (see --vole-params)";
    const PARAM_SETS: &'static [crate::engine::ParamSet] = &[
        crate::engine::ParamSet {
            name: "size",
            help: "Smallest proofs: τ = 11 trees of 2^10 or 2^11 leaves at 128 bits",
        },
        crate::engine::ParamSet {
            name: "speed",
            help: "Fastest: τ = 17 trees of 2^7 or 2^8 leaves at 128 bits",
        },
    ];
    const NATIVE_INVERSES: bool = true;
    type Params = Params;
    type Proof = super::Proof;

    fn params_for(bits: u32, set: &str) -> Result<Params> {
        let profile = Profile::ALL
            .into_iter()
            .find(|p| p.name() == set)
            .ok_or_else(|| Error::bad(format!("VOLE-in-the-head has no parameter set '{set}'")))?;
        super::params_for(bits, profile)
    }

    fn set_name(p: &Params, bits: u32) -> Option<&'static str> {
        Profile::ALL
            .into_iter()
            .find(|&pr| super::params_for(bits, pr).is_ok_and(|q| q == *p || q.session() == *p))
            .map(Profile::name)
    }

    fn check(p: &Params) -> Result<()> {
        p.check()
    }

    fn security_bits(p: &Params) -> f64 {
        super::attack_cost_bits(p)
    }

    fn repetitions(p: &Params) -> usize {
        p.tau as usize
    }

    fn verifier_work(p: &Params, and_gates: u64) -> u64 {
        (0..p.tau())
            .map(|i| 1u64 << p.k(i).min(63))
            .fold(0u64, u64::saturating_add)
            .saturating_mul(and_gates)
    }

    fn params_of(proof: &super::Proof) -> Params {
        proof.params
    }

    fn check_offered(p: &Params, req: &crate::engine::Required) -> Result<()> {
        crate::offered::check_vole(p, req.bits)
    }

    fn prove_at(
        st: &Statement,
        witness: &[bool],
        p: Params,
        mut rng: &mut dyn RngCore,
    ) -> Result<super::Proof> {
        super::prove(st, witness, p, &mut rng)
    }

    fn verify(st: &Statement, proof: &super::Proof, req: &crate::engine::Required) -> Result<()> {
        super::verify(st, proof, req.bits)
    }

    /// `ℓ` at most every witness position (inputs, AND outputs, inverted bytes' bits: the
    /// ones the outputs fix are not committed), degree 3 when the circuit inverts bytes, the
    /// opening padded to `T` seeds (unbounded, `T = 0`: at most one seed per level of each
    /// hidden leaf's path).
    fn largest_proof(p: &Params, shape: &crate::engine::ProofShape) -> super::Proof {
        let l = shape.inputs + shape.and_gates + 8 * shape.inv_bytes;
        let degree = 2 + (shape.inv_bytes > 0) as usize;
        let lhat = l + 128 * (degree - 1) + super::convert::HASH_MASK_BITS;
        let seeds = if p.open > 0 {
            p.open as usize
        } else {
            super::vc::max_opened(&super::vc::Layout::new(p))
        };
        super::Proof {
            params: *p,
            commit: super::CommitCore {
                salt: [0; 16],
                corrections: vec![0; p.tau().saturating_sub(1) * lhat.div_ceil(8)],
                u_hash: [0; 16],
                u_hash_short: [0; super::SHORT_BYTES],
                masked_witness: vec![0; l.div_ceil(8)],
                a1: [[0; 16]; super::COMBINATIONS],
                a2: vec![[0; 16]; super::COMBINATIONS * (degree - 2)],
            },
            delta: [0; 16],
            counter: 0,
            response: Response {
                seeds: vec![[0; 16]; seeds],
                commitments: vec![[0; 32]; p.tau()],
            },
        }
    }

    fn describe(proof: &super::Proof) -> Details {
        super::describe(proof)
    }

    fn describe_session(rounds: u32) -> Details {
        Details::new().count(
            "repetitions",
            rounds.into(),
            format!("{rounds} (the verifier fixed the parameters)"),
        )
    }

    crate::engine::shared_seal_and_session!(Vole);
}
