//! One interface over the proof engines: ZKB++ ([`super::zkbpp`]), KKW ([`super::kkw`])
//! and VOLE-in-the-head ([`super::vole`]).
//!
//! Domain code (peg solitaire, SHA-256, sealed Wall moves, logins) states a
//! [`Statement`] and a witness and picks a [`System`] (an engine with its parameters); it
//! proves, verifies, seals and opens through [`System`] and [`Proof`] and never names an
//! engine's own types. Adding an engine means one more variant in each of the enums here.
//!
//! A proof's bytes are the engine's own proof encoded as in proof file bodies (bincode,
//! [`crate::proof_file::encode`]); the engine is not in those bytes but in the file's
//! protocol id, so [`Proof::from_body`] is told which engine to read.

use rand_core::RngCore;

use super::kkw::{self, Params, Profile};
use super::seal::{self, SealOpening};
use super::session::{MpcProver, MpcVerifier, OwnedStatement};
use super::vole;
use super::zkbpp::{self, Statement};
use crate::commit::Digest;
use crate::net::{SessionProver, SessionVerifier};
use crate::proof_file::{self, ProtocolId};
use crate::rng::Rng;
use crate::{Error, Result};

/// An engine, without parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// ZKB++ (Picnic): three parties, soundness error 2/3 per round.
    Zkbpp,
    /// KKW (Picnic3): `N` parties with preprocessing checked by cut-and-choose.
    Kkw,
    /// VOLE-in-the-head (FAEST's proof system): QuickSilver on VOLE from vector commitments.
    Vole,
}

impl Engine {
    /// The name users read.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Zkbpp => "ZKB++",
            Engine::Kkw => "KKW",
            Engine::Vole => "VOLE-in-the-head",
        }
    }

    /// Every engine, ZKB++ first.
    pub const ALL: [Engine; 3] = [Engine::Zkbpp, Engine::Kkw, Engine::Vole];
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine with its parameters: what a prover runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// ZKB++ with this many rounds.
    Zkbpp { rounds: usize },
    /// KKW with these `(M, τ, N)`.
    Kkw(Params),
    /// VOLE-in-the-head with these `(τ, delta_bits, w)`.
    Vole(vole::Params),
}

impl System {
    /// ZKB++ at `bits` bits of soundness (`ceil(bits / log2(3/2))` rounds).
    pub fn zkbpp(bits: u32) -> Self {
        System::Zkbpp {
            rounds: zkbpp::rounds_for_bits(bits),
        }
    }

    /// KKW's parameter set `profile` at `bits` bits ([`kkw::params_for`]).
    pub fn kkw(bits: u32, profile: Profile) -> Result<Self> {
        Ok(System::Kkw(kkw::params_for(bits, profile)?))
    }

    /// VOLE-in-the-head's parameter set `profile` at `bits` bits ([`vole::params_for`]).
    pub fn vole(bits: u32, profile: vole::Profile) -> Result<Self> {
        Ok(System::Vole(vole::params_for(bits, profile)?))
    }

    pub fn engine(&self) -> Engine {
        match self {
            System::Zkbpp { .. } => Engine::Zkbpp,
            System::Kkw(_) => Engine::Kkw,
            System::Vole(_) => Engine::Vole,
        }
    }

    /// The security level the parameters reach, in bits: `rounds · log2(3/2)` for ZKB++,
    /// [`kkw::attack_cost_bits`] for KKW.
    pub fn security_bits(&self) -> f64 {
        match self {
            System::Zkbpp { rounds } => zkbpp::security_bits(*rounds),
            System::Kkw(p) => kkw::attack_cost_bits(p),
            System::Vole(p) => vole::attack_cost_bits(p),
        }
    }

    /// Checks the parameters' limits (bad input otherwise).
    pub fn check(&self) -> Result<()> {
        match self {
            System::Zkbpp { rounds } => zkbpp::check_rounds(*rounds),
            System::Kkw(p) => p.check(),
            System::Vole(p) => p.check(),
        }
    }

    /// Proves knowledge of `witness` (refused if it does not satisfy the statement).
    pub fn prove(&self, st: &Statement, witness: &[bool], rng: &mut impl RngCore) -> Result<Proof> {
        Ok(match self {
            System::Zkbpp { rounds } => Proof::Zkbpp(zkbpp::prove(st, witness, *rounds, rng)?),
            System::Kkw(p) => Proof::Kkw(kkw::prove(st, witness, *p, rng)?),
            System::Vole(p) => Proof::Vole(vole::prove(st, witness, *p, rng)?),
        })
    }

    /// Seals `witness` ([`super::seal`]): a proof whose randomness all comes from one master
    /// seed, and the opening (master seed and witness) that reveals the witness later.
    pub fn seal(
        &self,
        st: &Statement,
        witness: &[bool],
        rng: &mut impl RngCore,
    ) -> Result<(Proof, SealOpening)> {
        Ok(match self {
            System::Zkbpp { rounds } => {
                let (p, o) = seal::seal(st, witness, *rounds, rng)?;
                (Proof::Zkbpp(p), o)
            }
            System::Kkw(params) => {
                let (p, o) = seal::seal_kkw(st, witness, *params, rng)?;
                (Proof::Kkw(p), o)
            }
            System::Vole(params) => {
                let (p, o) = seal::seal_vole(st, witness, *params, rng)?;
                (Proof::Vole(p), o)
            }
        })
    }

    /// The prover's half of a live session ([`crate::net`], session version 2). The first
    /// message fixes everything the verifier's challenge selects among.
    pub fn session_prover(
        &self,
        st: OwnedStatement,
        protocol: ProtocolId,
        witness: Vec<bool>,
        rng: Rng,
    ) -> Result<Box<dyn SessionProver<'static>>> {
        Ok(match self {
            System::Zkbpp { rounds } => {
                Box::new(MpcProver::new(st, protocol, witness, *rounds, rng)?)
            }
            System::Kkw(p) => Box::new(super::kkw_session::KkwProver::new(
                st, protocol, witness, *p, rng,
            )?),
            System::Vole(p) => Box::new(super::vole::session::VoleProver::new(
                st, protocol, witness, *p, rng,
            )?),
        })
    }

    /// The zero-knowledge simulator: an accepting session transcript for a uniformly random
    /// challenge drawn from `rng`, made without any witness (not evidence of anything).
    pub fn simulate_session(
        &self,
        st: &Statement,
        protocol: ProtocolId,
        rng: &mut impl RngCore,
    ) -> Result<crate::net::SessionRecord> {
        self.check()?;
        match self {
            System::Zkbpp { rounds } => {
                let es: Vec<u8> = (0..*rounds).map(|_| (rng.next_u32() % 3) as u8).collect();
                Ok(super::session::simulate(st, protocol, &es, rng))
            }
            System::Kkw(p) => {
                let ch = kkw::Challenge::random(p, rng);
                super::kkw_session::simulate(st, protocol, *p, &ch, rng)
            }
            System::Vole(p) => {
                let ch = vole::Challenge::random(&p.session(), rng);
                super::vole::session::simulate(st, protocol, *p, &ch, rng)
            }
        }
    }
}

impl std::fmt::Display for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            System::Zkbpp { rounds } => write!(
                f,
                "ZKB++ with {rounds} rounds ({:.1} bits)",
                self.security_bits()
            ),
            System::Kkw(p) => match p.check() {
                Ok(()) => write!(f, "KKW with {p} ({:.1} bits)", self.security_bits()),
                // parameters read from a file: said, not computed on
                Err(_) => write!(f, "KKW with {p} (invalid parameters)"),
            },
            System::Vole(p) => match p.check() {
                Ok(()) => write!(
                    f,
                    "VOLE-in-the-head with {p} ({:.1} bits)",
                    self.security_bits()
                ),
                Err(_) => write!(f, "VOLE-in-the-head with {p}"),
            },
        }
    }
}

/// What a verifier requires of a proof: enough ZKB++ rounds or enough KKW or VOLE
/// security, and optionally one engine only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Required {
    /// The fewest ZKB++ rounds accepted.
    pub zkbpp_rounds: usize,
    /// The least [`kkw::attack_cost_bits`] accepted, and the least
    /// [`vole::attack_cost_bits`] (both are `log2` of a forger's expected hash evaluations).
    pub kkw_bits: f64,
    /// `Some(e)`: proofs of the other engine are rejected.
    pub only: Option<Engine>,
}

impl Required {
    /// `bits` bits of security from either engine.
    pub fn bits(bits: u32) -> Self {
        Required {
            zkbpp_rounds: zkbpp::rounds_for_bits(bits),
            kkw_bits: bits as f64,
            only: None,
        }
    }

    /// At least `rounds` ZKB++ rounds, or a KKW proof of as many bits as they give.
    pub fn rounds(rounds: usize) -> Self {
        Required {
            zkbpp_rounds: rounds,
            kkw_bits: zkbpp::security_bits(rounds),
            only: None,
        }
    }

    /// The same, accepting `engine` only (`None`: both).
    pub fn only(self, engine: Option<Engine>) -> Self {
        Required {
            only: engine,
            ..self
        }
    }

    /// Rejects a proof of an engine not accepted.
    pub fn check_engine(&self, e: Engine) -> Result<()> {
        match self.only {
            Some(o) if o != e => Err(Error::rejected(format!(
                "this is a {e} proof; only {o} proofs are accepted here"
            ))),
            _ => Ok(()),
        }
    }
}

/// A proof of either engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Zkbpp(zkbpp::Proof),
    Kkw(kkw::Proof),
    Vole(vole::Proof),
}

impl Proof {
    pub fn engine(&self) -> Engine {
        match self {
            Proof::Zkbpp(_) => Engine::Zkbpp,
            Proof::Kkw(_) => Engine::Kkw,
            Proof::Vole(_) => Engine::Vole,
        }
    }

    /// The engine and parameters the proof states.
    pub fn system(&self) -> System {
        match self {
            Proof::Zkbpp(p) => System::Zkbpp {
                rounds: p.rounds.len(),
            },
            Proof::Kkw(p) => System::Kkw(p.params),
            Proof::Vole(p) => System::Vole(p.params),
        }
    }

    /// The engine's proof bytes (a proof file body, or part of one).
    pub fn to_body(&self) -> Vec<u8> {
        match self {
            Proof::Zkbpp(p) => proof_file::encode(p),
            Proof::Kkw(p) => proof_file::encode(p),
            Proof::Vole(p) => proof_file::encode(p),
        }
    }

    /// Reads an `engine` proof from its bytes (`what` names it in errors).
    pub fn from_body(engine: Engine, bytes: &[u8], what: &str) -> Result<Self> {
        Ok(match engine {
            Engine::Zkbpp => Proof::Zkbpp(proof_file::decode(bytes, what)?),
            Engine::Kkw => Proof::Kkw(proof_file::decode(bytes, what)?),
            Engine::Vole => Proof::Vole(proof_file::decode(bytes, what)?),
        })
    }

    /// Whether the proof's engine and stated parameters meet `req`, without verifying it:
    /// the same refusal [`Proof::verify`] gives a weak proof. For opening a seal, which
    /// re-runs the prover instead of verifying, at the strength the user asked for.
    pub fn check_strength(&self, req: &Required) -> Result<()> {
        req.check_engine(self.engine())?;
        match self {
            Proof::Zkbpp(p) => {
                let r = p.rounds.len();
                if r < req.zkbpp_rounds {
                    return Err(Error::rejected(format!(
                        "the seal has {r} rounds ({:.1} bits of security); at least {} are required",
                        zkbpp::security_bits(r),
                        req.zkbpp_rounds
                    )));
                }
            }
            Proof::Kkw(p) => {
                p.params
                    .check()
                    .map_err(|e| Error::rejected(e.to_string()))?;
                let bits = kkw::attack_cost_bits(&p.params);
                if bits < req.kkw_bits {
                    return Err(Error::rejected(format!(
                        "the seal's parameters ({}) give {bits:.1} bits of security; {} are required",
                        p.params, req.kkw_bits
                    )));
                }
            }
            Proof::Vole(p) => {
                p.params
                    .check()
                    .map_err(|e| Error::rejected(e.to_string()))?;
                let bits = vole::attack_cost_bits(&p.params);
                if bits < req.kkw_bits {
                    return Err(Error::rejected(format!(
                        "the seal's parameters ({}) give {bits:.1} bits of security; {} are required",
                        p.params, req.kkw_bits
                    )));
                }
            }
        }
        Ok(())
    }

    /// Verifies the proof against `st` under `req`.
    ///
    /// A well-formed proof whose sizes do not fit the statement's circuit was made for
    /// another statement: the rejection starts with [`crate::mpc::ANOTHER_STATEMENT`].
    pub fn verify(&self, st: &Statement, req: &Required) -> Result<()> {
        req.check_engine(self.engine())?;
        match self {
            Proof::Zkbpp(p) => zkbpp::verify(st, p, req.zkbpp_rounds),
            Proof::Kkw(p) => kkw::verify(st, p, req.kkw_bits),
            Proof::Vole(p) => vole::verify(st, p, req.kkw_bits),
        }
    }

    /// The digest naming the proof as a seal ([`seal::seal_digest`],
    /// [`seal::seal_digest_kkw`]).
    pub fn seal_digest(&self, st: &Statement) -> Digest {
        match self {
            Proof::Zkbpp(p) => seal::seal_digest(st, p),
            Proof::Kkw(p) => seal::seal_digest_kkw(st, p),
            Proof::Vole(p) => seal::seal_digest_vole(st, p),
        }
    }

    /// Opens the proof as a seal: the witness, if `opening` reproduces it exactly.
    pub fn open(&self, st: &Statement, opening: &SealOpening) -> Result<Vec<bool>> {
        match self {
            Proof::Zkbpp(p) => seal::open(st, p, opening),
            Proof::Kkw(p) => seal::open_kkw(st, p, opening),
            Proof::Vole(p) => seal::open_vole(st, p, opening),
        }
    }
}

/// The verifier's half of a live session for `system` (the verifier fixes the engine and,
/// for KKW, the exact parameters; a prover offering anything else is refused at its Hello).
pub fn session_verifier(
    system: &System,
    st: OwnedStatement,
    protocol: ProtocolId,
    rng: Rng,
) -> Box<dyn SessionVerifier> {
    match system {
        System::Zkbpp { rounds } => Box::new(MpcVerifier::new(st, protocol, *rounds, rng)),
        System::Kkw(p) => Box::new(super::kkw_session::KkwVerifier::new(st, protocol, *p, rng)),
        System::Vole(p) => Box::new(super::vole::session::VoleVerifier::new(
            st, protocol, *p, rng,
        )),
    }
}
