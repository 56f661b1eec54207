//! ZKB++ behind the one engine trait ([`crate::engine::ProofEngine`]): its parameters are
//! its number of rounds, its seals are [`crate::seal`]'s own (no re-proving), and its live
//! session is [`super::session`]'s (packed trits as the challenge, rounds named by the
//! prover's Hello).

use rand_core::RngCore;

use crate::engine::{ProofEngine, Required};
use crate::offered;
use crate::seal::{self, SealOpening};
use crate::statement::{OwnedStatement, Statement};
use zkgames_core::commit::Digest;
use zkgames_core::details::{Details, Value};
use zkgames_core::proof_file::ProtocolId;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::{SessionProver, SessionRecord, SessionVerifier};

/// The ZKB++ engine.
pub struct Zkbpp;

/// The fewest rounds that meet `req` (`security_bits(r) ≥ req.bits`).
fn min_rounds(req: &Required) -> usize {
    super::rounds_for(req.bits)
}

impl ProofEngine for Zkbpp {
    const NAME: &'static str = "ZKB++";
    const SYSTEM_NAME: &'static str = "ZKB++ (MPC-in-the-head)";
    const LABEL: &'static str = "ZKB++";
    const WIRE: &'static str = "zkbpp";
    const ALIASES: &'static [&'static str] = &["mpc"];
    const HELP: &'static str = "ZKB++ (Picnic): three parties, the largest proofs";
    type Params = usize;
    type Proof = super::Proof;

    fn params_for(bits: u32, _set: &str) -> Result<usize> {
        Ok(super::rounds_for_bits(bits))
    }

    fn set_name(_p: &usize, _bits: u32) -> Option<&'static str> {
        None
    }

    fn check(p: &usize) -> Result<()> {
        super::check_rounds(*p)
    }

    fn security_bits(p: &usize) -> f64 {
        super::security_bits(*p)
    }

    fn repetitions(p: &usize) -> usize {
        *p
    }

    fn params_text(p: &usize) -> String {
        format!("{p} rounds")
    }

    fn verifier_work(p: &usize, and_gates: u64) -> u64 {
        (2 * *p as u64).saturating_mul(and_gates)
    }

    fn params_of(proof: &super::Proof) -> usize {
        proof.rounds.len()
    }

    fn check_offered(p: &usize, req: &Required) -> Result<()> {
        if Self::check(p).is_err() {
            // refused by the engine itself, at once
            return Ok(());
        }
        offered::check_zkbpp(*p, min_rounds(req))
    }

    fn check_strength(p: &usize, req: &Required) -> Result<()> {
        let min = min_rounds(req);
        if *p < min {
            return Err(Error::rejected(format!(
                "the seal has {p} rounds ({:.1} bits of security); at least {min} are required",
                super::security_bits(*p),
            )));
        }
        Ok(())
    }

    fn prove_at(
        st: &Statement,
        witness: &[bool],
        p: usize,
        mut rng: &mut dyn RngCore,
    ) -> Result<super::Proof> {
        super::prove(st, witness, p, &mut rng)
    }

    fn verify(st: &Statement, proof: &super::Proof, req: &Required) -> Result<()> {
        super::verify(st, proof, min_rounds(req))
    }

    /// Every round opens party 2 (its input share sent: challenges 1 and 2), as a third
    /// of an honest proof's rounds do on average; the view is one bit per AND gate.
    fn largest_proof(rounds: &usize, shape: &crate::engine::ProofShape) -> super::Proof {
        let round = super::RoundProof {
            opening: super::Opening {
                seeds: [[0; 32]; 2],
                x2: vec![0; shape.inputs.div_ceil(8)],
                view: vec![0; shape.and_gates.div_ceil(8)],
            },
            commitment: [0; 32],
        };
        super::Proof {
            salt: [0; 32],
            challenges: super::pack::pack_trits(&vec![0; *rounds]),
            rounds: vec![round; *rounds],
        }
    }

    fn describe(p: &super::Proof) -> Details {
        let r = p.rounds.len();
        let view = p.rounds.first().map_or(0, |r| r.opening.view.len());
        Self::describe_session(r as u32).count(
            "views",
            view as u64,
            format!("{view} bytes opened per round (≈ {} AND gates)", 8 * view),
        )
    }

    fn describe_session(rounds: u32) -> Details {
        let bits = super::security_bits(rounds as usize);
        Details::aligned(12)
            .count(
                "rounds",
                rounds.into(),
                format!("{rounds} ({bits:.1} bits of security)"),
            )
            .also("security_bits", Value::Number(bits))
    }

    fn seal(
        st: &Statement,
        witness: &[bool],
        p: usize,
        mut rng: &mut dyn RngCore,
    ) -> Result<(super::Proof, SealOpening)> {
        seal::seal(st, witness, p, &mut rng)
    }

    fn seal_digest(st: &Statement, proof: &super::Proof) -> Digest {
        seal::seal_digest(st, proof)
    }

    fn open(st: &Statement, proof: &super::Proof, opening: &SealOpening) -> Result<Vec<bool>> {
        seal::open(st, proof, opening)
    }

    fn session_prover(
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        p: usize,
        rng: Rng,
    ) -> Result<Box<dyn SessionProver<'static>>> {
        Ok(Box::new(super::session::MpcProver::new(
            st, protocol, witness, p, rng,
        )?))
    }

    fn session_verifier(
        st: OwnedStatement,
        protocol: ProtocolId,
        p: usize,
        rng: Rng,
    ) -> Box<dyn SessionVerifier> {
        Box::new(super::session::MpcVerifier::new(
            st,
            protocol,
            p,
            offered::max_zkbpp_rounds(p),
            rng,
        ))
    }

    fn as_ran(_p: usize, hello_rounds: u32) -> usize {
        hello_rounds as usize
    }

    fn replay(
        st: OwnedStatement,
        protocol: ProtocolId,
        req: &Required,
        rec: &SessionRecord,
    ) -> Result<usize> {
        let min = min_rounds(req);
        super::session::replay(st, protocol, min, offered::max_zkbpp_rounds(min), rec)
    }

    fn simulate(
        st: &Statement,
        protocol: ProtocolId,
        p: usize,
        mut rng: &mut dyn RngCore,
    ) -> Result<SessionRecord> {
        Self::check(&p)?;
        let es: Vec<u8> = (0..p).map(|_| (rng.next_u32() % 3) as u8).collect();
        Ok(super::session::simulate(st, protocol, &es, &mut rng))
    }
}
