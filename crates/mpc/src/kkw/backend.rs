//! The KKW engine behind the shared interfaces: its seals ([`crate::seal`]) and its
//! live sessions ([`crate::session`]).
//!
//! A seal is an ordinary proof whose randomness comes from the master seed's generator,
//! which [`super::commit`] reads in this order: the salt, the root of the execution tree and
//! the `M` online keys (32 bytes each). A session's three moves are [`super::CommitMsg`],
//! [`super::Challenge`] and [`super::Response`] (docs/PROTOCOLS.md 6.13).

use rand_core::RngCore;

use super::{Challenge, CommitMsg, Params, Profile, ProverState, Response};
use crate::seal::Reproducible;
use crate::session::Interactive;
use crate::statement::Statement;
use zkgames_core::details::Details;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;

/// The KKW engine.
pub struct Kkw;

impl Reproducible for Kkw {
    type Params = super::Params;
    type Proof = super::Proof;
    type Cheat = super::Cheat;
    const MASTER_TAG: &'static [u8] = b"zkg:kkw:seal-rng:v1";
    const SEAL_DIGEST_TAG: &'static [u8] = b"zkg:kkw:seal:v1";

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

impl Interactive for Kkw {
    const LABEL: &'static str = "KKW";
    const SESSION_TAG: &'static [u8] = b"zkg:kkw:session:v1";
    const MAX_BITS: u32 = 256;
    type Params = Params;
    type Commit = CommitMsg;
    type Challenge = Challenge;
    type Response = Response;
    type State = ProverState;

    fn check(p: &Params) -> Result<()> {
        p.check()
    }

    fn session_form(p: Params) -> Params {
        p
    }

    fn rounds(p: &Params) -> u32 {
        p.executions
    }

    fn words(p: &Params) -> [u32; 3] {
        [p.executions, p.online, p.parties]
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

    fn respond(state: ProverState, st: &Statement, ch: &Challenge) -> Result<Response> {
        state.respond(st, ch)
    }

    fn random_challenge(p: &Params, mut rng: &mut dyn RngCore) -> Challenge {
        Challenge::random(p, &mut rng)
    }

    fn check_challenge(ch: &Challenge, p: &Params) -> Result<()> {
        ch.check(p)
    }

    fn check_commit(m: &CommitMsg, p: &Params) -> Result<()> {
        if m.preprocessing.len() != p.executions as usize {
            return Err(Error::rejected(format!(
                "{} preprocessing commitments, expected {}",
                m.preprocessing.len(),
                p.executions
            )));
        }
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

    fn max_commit_len(_st: &Statement, p: &Params) -> usize {
        super::size::commit_len(p)
    }

    fn max_response_len(st: &Statement, p: &Params) -> usize {
        super::size::max_response_len(st, p)
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

impl crate::engine::ProofEngine for Kkw {
    const NAME: &'static str = "KKW";
    const SYSTEM_NAME: &'static str = "KKW (MPC-in-the-head with preprocessing)";
    const LABEL: &'static str = "KKW";
    const WIRE: &'static str = "kkw";
    const HELP: &'static str =
        "KKW (Picnic3): N parties with preprocessing; smaller proofs (see --kkw-params)";
    const PARAM_SETS: &'static [crate::engine::ParamSet] = &[
        crate::engine::ParamSet {
            name: "size",
            help: "Smallest proofs: N = 32 parties (M = 462, τ = 27 at 128 bits)",
        },
        crate::engine::ParamSet {
            name: "speed",
            help: "Fastest: N = 16 parties (M = 250, τ = 36 at 128 bits, Picnic3-L1's shape)",
        },
        crate::engine::ParamSet {
            name: "smallest",
            help: "Smallest proofs, slowest: N = 64 parties (M = 842, τ = 22 at 128 bits), \
                   about 0.84× the size set's bytes for 3.6× its work",
        },
    ];
    type Params = Params;
    type Proof = super::Proof;

    fn params_for(bits: u32, set: &str) -> Result<Params> {
        let profile = Profile::ALL
            .into_iter()
            .find(|p| p.name() == set)
            .ok_or_else(|| Error::bad(format!("KKW has no parameter set '{set}'")))?;
        super::params_for(bits, profile)
    }

    fn check(p: &Params) -> Result<()> {
        p.check()
    }

    fn security_bits(p: &Params) -> f64 {
        super::attack_cost_bits(p)
    }

    fn repetitions(p: &Params) -> usize {
        p.online as usize
    }

    fn verifier_work(p: &Params, and_gates: u64) -> u64 {
        (p.executions as u64 * p.parties as u64).saturating_mul(and_gates)
    }

    fn params_of(proof: &super::Proof) -> Params {
        proof.params
    }

    fn check_offered(p: &Params, req: &crate::engine::Required) -> Result<()> {
        crate::offered::check_kkw(p, req.bits)
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

    /// Hiding `τ` of `M` leaves reveals at most [`crate::seedtree::max_reveal_nodes`] seed-tree
    /// nodes and [`zkgames_core::merkle::max_opening_len`] Merkle siblings (the bounds a live
    /// session's frames are held to, [`super::size`]); each online execution reveals `log2 N`
    /// party seeds and, unless party `N − 1` is the hidden one, its auxiliary bits.
    fn largest_proof(p: &Params, shape: &crate::engine::ProofShape) -> super::Proof {
        use crate::seedtree::max_reveal_nodes;
        let (m, tau, n) = (p.m(), p.tau(), p.n());
        let (in_bytes, and_bytes) = (shape.inputs.div_ceil(8), shape.and_gates.div_ceil(8));
        let online = super::OnlineOpening {
            key: [0; 32],
            party_seeds: vec![[0; 32]; max_reveal_nodes(n, 1)],
            commitment: [0; 32],
            aux: vec![0; and_bytes],
            masked_input: vec![0; in_bytes],
            msgs: vec![0; and_bytes],
        };
        super::Proof {
            params: *p,
            salt: [0; 32],
            challenge: [0; 32],
            response: Response {
                exec_seeds: vec![[0; 32]; max_reveal_nodes(m, tau)],
                online_path: vec![[0; 32]; zkgames_core::merkle::max_opening_len(m, tau)],
                online: vec![online; tau],
            },
        }
    }

    fn describe(proof: &super::Proof) -> Details {
        super::describe(proof)
    }

    fn describe_session(rounds: u32) -> Details {
        Details::new().count(
            "executions",
            rounds.into(),
            format!("{rounds} (the verifier fixed (M, τ, N))"),
        )
    }

    crate::engine::shared_seal_and_session!(Kkw);
}
