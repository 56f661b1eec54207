//! One interface over the proof engines: ZKB++ ([`super::zkbpp`]), KKW ([`super::kkw`])
//! and VOLE-in-the-head ([`super::vole`]).
//!
//! Domain code (peg solitaire, SHA-256, sealed Wall moves, logins) states a
//! [`Statement`] and a witness and picks a [`System`] (an engine with its parameters); it
//! proves, verifies, seals and opens through [`System`] and [`Proof`] and never names an
//! engine's own types. Adding an engine means one more variant in each of the enums here.
//!
//! A proof's bytes are the engine's own proof encoded as in proof file bodies (bincode,
//! [`zkgames_core::proof_file::encode`]); the engine is not in those bytes but in the file's
//! protocol id, so [`Proof::from_body`] is told which engine to read.
//!
//! Each kind of statement has one protocol id per engine, listed once in a [`Protocols`]
//! table; its files are written with [`Proof::file_bytes`] and read with
//! [`Proof::read_file`], which take the engine from the id. A kind whose files carry public
//! data before the proof (SHA-256's message length) passes it as the *head*.

use rand_core::RngCore;
use serde::{de::DeserializeOwned, Serialize};

use super::kkw::{self, Kkw, Params, Profile};
use super::seal::{self, SealOpening};
use super::session::{self as generic, EngineProver, EngineVerifier, Interactive};
use super::statement::{OwnedStatement, Statement};
use super::vole::{self, Vole};
use super::zkbpp;
use super::zkbpp::session::{MpcProver, MpcVerifier};
use super::Report;
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{self, Mode, ProofFile, ProtocolId};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::SessionRecord;
use zkgames_net::{SessionProver, SessionVerifier};

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

    /// The short label of JSON reports' `system` field: `ZKB++`, `KKW` or `VOLE`.
    pub fn label(self) -> &'static str {
        match self {
            Engine::Zkbpp => "ZKB++",
            Engine::Kkw => "KKW",
            Engine::Vole => "VOLE",
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

    /// The parameters as written in messages (`M=…, τ=…, N=…` for KKW; rounds for ZKB++).
    pub fn params_text(&self) -> String {
        match self {
            System::Zkbpp { rounds } => format!("{rounds} rounds"),
            System::Kkw(p) => p.to_string(),
            System::Vole(p) => p.to_string(),
        }
    }

    /// Refuses (before any work) a proof of this system that asks a verifier requiring
    /// `req` for more work than the heaviest honest proof ([`super::offered`]). Parameters
    /// that fail their engine's limits are left to the engine, which refuses them at once.
    pub fn check_offered(&self, req: &Required) -> Result<()> {
        match self {
            System::Zkbpp { rounds } => {
                if self.check().is_err() {
                    return Ok(());
                }
                super::offered::check_zkbpp(*rounds, req.zkbpp_rounds)
            }
            System::Kkw(p) => super::offered::check_kkw(p, req.kkw_bits),
            System::Vole(p) => super::offered::check_vole(p, req.kkw_bits),
        }
    }

    /// The system a live session of this one ran, from its Hello's `rounds`: a ZKB++
    /// prover may offer more rounds than the verifier requires; the other engines run the
    /// verifier's parameters exactly.
    pub fn as_ran(self, hello_rounds: u32) -> System {
        match self {
            System::Zkbpp { .. } => System::Zkbpp {
                rounds: hello_rounds as usize,
            },
            other => other,
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
                let (p, o) = seal::seal_with::<kkw::Kkw>(st, witness, *params, rng)?;
                (Proof::Kkw(p), o)
            }
            System::Vole(params) => {
                let (p, o) = seal::seal_with::<vole::Vole>(st, witness, *params, rng)?;
                (Proof::Vole(p), o)
            }
        })
    }

    /// The prover's half of a live session ([`zkgames_net`], session version 2). The first
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
            System::Kkw(p) => Box::new(EngineProver::<Kkw>::new(st, protocol, witness, *p, rng)?),
            System::Vole(p) => Box::new(EngineProver::<Vole>::new(st, protocol, witness, *p, rng)?),
        })
    }

    /// The zero-knowledge simulator: an accepting session transcript for a uniformly random
    /// challenge drawn from `rng`, made without any witness (not evidence of anything).
    pub fn simulate_session(
        &self,
        st: &Statement,
        protocol: ProtocolId,
        rng: &mut impl RngCore,
    ) -> Result<zkgames_net::SessionRecord> {
        self.check()?;
        match self {
            System::Zkbpp { rounds } => {
                let es: Vec<u8> = (0..*rounds).map(|_| (rng.next_u32() % 3) as u8).collect();
                Ok(zkbpp::session::simulate(st, protocol, &es, rng))
            }
            System::Kkw(p) => simulate_with::<Kkw>(st, protocol, *p, rng),
            System::Vole(p) => simulate_with::<Vole>(st, protocol, *p, rng),
        }
    }
}

impl std::fmt::Display for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            System::Zkbpp { rounds } => write!(
                f,
                "ZKB++ with {rounds} rounds, {:.1} bits of security",
                self.security_bits()
            ),
            System::Kkw(p) => match p.check() {
                Ok(()) => write!(
                    f,
                    "KKW with {p}, {:.1} bits of security",
                    self.security_bits()
                ),
                // parameters read from a file: said, not computed on
                Err(_) => write!(f, "KKW with {p} (invalid parameters)"),
            },
            System::Vole(p) => match p.check() {
                Ok(()) => write!(
                    f,
                    "VOLE-in-the-head with {p}, {:.1} bits of security",
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

    /// What `system` reaches: its rounds for ZKB++, its security for the others (a
    /// verifier of proofs made with known parameters, as a demo is).
    pub fn reached_by(system: &System) -> Self {
        match *system {
            System::Zkbpp { rounds } => Required::rounds(rounds),
            other => Required {
                kkw_bits: other.security_bits(),
                ..Required::bits(1)
            },
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

/// The protocol ids of one kind of statement, one per engine: how a verifier tells, from a
/// file's header alone, which engine made a proof. Each kind (SHA-256 preimages, peg
/// solutions, sealed moves, LowMC keys) declares one constant table and reads the engine
/// back from it; nothing else maps engines to ids.
#[derive(Clone, Copy, Debug)]
pub struct Protocols {
    /// What the kind proves, in the user's words ("a SHA-256 preimage proof").
    pub what: &'static str,
    pub zkbpp: ProtocolId,
    pub kkw: ProtocolId,
    pub vole: ProtocolId,
}

impl Protocols {
    /// The protocol id of `engine`'s proofs of this kind.
    pub fn id(&self, engine: Engine) -> ProtocolId {
        match engine {
            Engine::Zkbpp => self.zkbpp,
            Engine::Kkw => self.kkw,
            Engine::Vole => self.vole,
        }
    }

    /// The engine whose proofs of this kind carry `id`, if any.
    pub fn engine_of(&self, id: ProtocolId) -> Option<Engine> {
        Engine::ALL.into_iter().find(|&e| self.id(e) == id)
    }

    /// The engine of `file`, refusing (bad input) a file of another kind.
    pub fn engine(&self, file: &ProofFile) -> Result<Engine> {
        self.engine_of(file.protocol).ok_or_else(|| {
            Error::bad(format!(
                "this is a '{}' proof, not {}",
                file.protocol.name(),
                self.what
            ))
        })
    }

    /// The engine of a non-interactive `file` of this kind (bad input for a session
    /// transcript, which only kinds with sessions read, through [`replay_session`]).
    pub fn non_interactive(&self, file: &ProofFile) -> Result<Engine> {
        let engine = self.engine(file)?;
        if file.mode != Mode::NonInteractive {
            return Err(Error::bad(format!(
                "inconsistent file: the header says interactive session transcript, but {} is only non-interactive",
                self.what
            )));
        }
        Ok(engine)
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

    /// The bytes of a non-interactive proof file of kind `kind`: the protocol id of the
    /// proof's engine, then the body `head` followed by the proof (bincode concatenates, so
    /// a head `h` and a proof `p` encode exactly as a struct `{ h, p }` would).
    pub fn file_bytes<H: Serialize>(&self, kind: &Protocols, head: &H) -> Vec<u8> {
        let body = match self {
            Proof::Zkbpp(p) => proof_file::encode(&(head, p)),
            Proof::Kkw(p) => proof_file::encode(&(head, p)),
            Proof::Vole(p) => proof_file::encode(&(head, p)),
        };
        ProofFile::new(kind.id(self.engine()), Mode::NonInteractive, body).to_bytes()
    }

    /// Reads a non-interactive proof file of kind `kind` written by [`Proof::file_bytes`]:
    /// the head and the proof of the engine the protocol id names (`what` names the body in
    /// errors). Every byte is checked as [`proof_file::decode`] does: one valid encoding.
    pub fn read_file<H: DeserializeOwned + Serialize>(
        kind: &Protocols,
        file: &ProofFile,
        what: &str,
    ) -> Result<(H, Self)> {
        Ok(match kind.non_interactive(file)? {
            Engine::Zkbpp => {
                let (h, p) = proof_file::decode(&file.body, what)?;
                (h, Proof::Zkbpp(p))
            }
            Engine::Kkw => {
                let (h, p) = proof_file::decode(&file.body, what)?;
                (h, Proof::Kkw(p))
            }
            Engine::Vole => {
                let (h, p) = proof_file::decode(&file.body, what)?;
                (h, Proof::Vole(p))
            }
        })
    }

    /// The verifier's report on this proof once accepted: parameters, security, sizes.
    pub fn report(&self, proof_bytes: usize, and_gates: usize) -> Report {
        Report::of(&self.system(), proof_bytes, and_gates, Mode::NonInteractive)
    }

    /// Summary lines of the proof for `inspect` (no verification): parameters, their
    /// security, and where the bytes go.
    pub fn describe(&self) -> String {
        match self {
            Proof::Zkbpp(p) => {
                let r = p.rounds.len();
                let view = p.rounds.first().map_or(0, |r| r.opening.view.len());
                format!(
                    "rounds:     {r} ({:.1} bits of security)\nviews:      {view} bytes opened per round (≈ {} AND gates)",
                    zkbpp::security_bits(r),
                    8 * view
                )
            }
            Proof::Kkw(p) => kkw::describe(p),
            Proof::Vole(p) => vole::describe(p),
        }
    }

    /// Whether the proof's engine and stated parameters meet `req`, without verifying it:
    /// the same refusal [`Proof::verify`] gives a weak proof. For opening a seal, which
    /// re-runs the prover instead of verifying, at the strength the user asked for.
    pub fn check_strength(&self, req: &Required) -> Result<()> {
        req.check_engine(self.engine())?;
        self.system().check_offered(req)?;
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
            Proof::Kkw(_) | Proof::Vole(_) => {
                let system = self.system();
                system.check().map_err(|e| Error::rejected(e.to_string()))?;
                let bits = system.security_bits();
                if bits < req.kkw_bits {
                    return Err(Error::rejected(format!(
                        "the seal's parameters ({}) give {bits:.1} bits of security; {} are required",
                        system.params_text(),
                        req.kkw_bits
                    )));
                }
            }
        }
        Ok(())
    }

    /// Verifies the proof against `st` under `req`.
    ///
    /// A well-formed proof whose sizes do not fit the statement's circuit was made for
    /// another statement: the rejection starts with [`crate::ANOTHER_STATEMENT`].
    pub fn verify(&self, st: &Statement, req: &Required) -> Result<()> {
        req.check_engine(self.engine())?;
        // no file may ask for more work than the offered sets ([`super::offered`])
        self.system().check_offered(req)?;
        match self {
            Proof::Zkbpp(p) => zkbpp::verify(st, p, req.zkbpp_rounds),
            Proof::Kkw(p) => kkw::verify(st, p, req.kkw_bits),
            Proof::Vole(p) => vole::verify(st, p, req.kkw_bits),
        }
    }

    /// The digest naming the proof as a seal ([`seal::seal_digest`],
    /// [`seal::seal_digest_with`]).
    pub fn seal_digest(&self, st: &Statement) -> Digest {
        match self {
            Proof::Zkbpp(p) => seal::seal_digest(st, p),
            Proof::Kkw(p) => seal::seal_digest_with::<kkw::Kkw>(st, p),
            Proof::Vole(p) => seal::seal_digest_with::<vole::Vole>(st, p),
        }
    }

    /// Opens the proof as a seal: the witness, if `opening` reproduces it exactly.
    pub fn open(&self, st: &Statement, opening: &SealOpening) -> Result<Vec<bool>> {
        match self {
            Proof::Zkbpp(p) => seal::open(st, p, opening),
            Proof::Kkw(p) => seal::open_with::<kkw::Kkw>(st, p, opening),
            Proof::Vole(p) => seal::open_with::<vole::Vole>(st, p, opening),
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
        System::Zkbpp { rounds } => Box::new(MpcVerifier::new(
            st,
            protocol,
            *rounds,
            super::offered::max_zkbpp_rounds(*rounds),
            rng,
        )),
        System::Kkw(p) => Box::new(EngineVerifier::<Kkw>::new(st, protocol, *p, rng)),
        System::Vole(p) => Box::new(EngineVerifier::<Vole>::new(st, protocol, *p, rng)),
    }
}

/// Re-checks a recorded live session (a proof file in [`Mode::Interactive`]) of `engine`
/// against `st` under `req`: the system the session ran. Such a transcript is consistent or
/// not; it is never evidence for a third party (the simulator makes accepting ones).
pub fn replay_session(
    engine: Engine,
    st: OwnedStatement,
    protocol: ProtocolId,
    req: &Required,
    rec: &SessionRecord,
) -> Result<System> {
    req.check_engine(engine)?;
    Ok(match engine {
        Engine::Zkbpp => System::Zkbpp {
            rounds: zkbpp::session::replay(
                st,
                protocol,
                req.zkbpp_rounds,
                super::offered::max_zkbpp_rounds(req.zkbpp_rounds),
                rec,
            )?,
        },
        Engine::Kkw => System::Kkw(generic::replay_offered::<Kkw>(
            st,
            protocol,
            req.kkw_bits,
            rec,
        )?),
        Engine::Vole => System::Vole(generic::replay_offered::<Vole>(
            st,
            protocol,
            req.kkw_bits,
            rec,
        )?),
    })
}

/// The simulator of an engine with a three-move form, for a random challenge.
fn simulate_with<E: Interactive>(
    st: &Statement,
    protocol: ProtocolId,
    params: E::Params,
    rng: &mut impl RngCore,
) -> Result<SessionRecord> {
    let ch = generic::random_challenge::<E>(params, rng);
    generic::simulate::<E>(st, protocol, params, &ch, rng)
}
