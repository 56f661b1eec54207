//! One interface over the proof engines: ZKB++ ([`crate::zkbpp`]), KKW ([`crate::kkw`])
//! and VOLE-in-the-head ([`crate::vole`]).
//!
//! Every engine implements one trait, [`ProofEngine`] (in its own folder's `backend.rs`), and
//! is named once, in the list of [`with_engines!`] below; the enums [`Engine`] (an engine),
//! [`System`] (an engine with its parameters) and [`Proof`] (an engine's proof) are
//! generated from that list, and each of their methods dispatches to the trait. Domain code
//! (peg solitaire, SHA-256, sealed Wall moves, logins, puzzles) states a [`Statement`] and a
//! witness, picks a [`System`], and proves, verifies, seals and opens through [`System`] and
//! [`Proof`]; it never names an engine's own types.
//!
//! **Adding an engine**: its folder (the trait's implementation), one line in
//! [`with_engines!`], one `mod` line in `lib.rs`; its wire name, `--system` value, help and
//! parameter-set flag (`--NAME-params`) follow from the trait's constants. A kind of statement
//! that offers the engine lists its protocol id in its [`Protocols`] table.
//!
//! A proof's bytes are the engine's own proof encoded as in proof file bodies (bincode,
//! [`zkgames_core::proof_file::encode`]); the engine is not in those bytes but in the file's
//! protocol id, so [`Engine::proof_from_body`] is told which engine to read. Each kind of
//! statement has one protocol id per engine, listed once in its [`Protocols`] table; its
//! files are written with [`Proof::file_bytes`] and read with [`Proof::read_file`], which
//! take the engine from the id. A kind whose files carry public data before the proof
//! (SHA-256's message length) passes it as the *head*.

mod backend;
#[cfg(test)]
mod tests;

use rand_core::RngCore;
use serde::{de::DeserializeOwned, Serialize};

pub(crate) use backend::shared_seal_and_session;
pub use backend::{ParamSet, ProofEngine};

use super::seal::SealOpening;
use super::statement::{OwnedStatement, Statement};
use super::Report;
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{self, Mode, ProofFile, ProtocolId};
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::SessionRecord;
use zkgames_net::{SessionProver, SessionVerifier};

/// The engines, in the order users see them (`--system`'s values, [`Engine::ALL`]): the one
/// place that lists them. `$m` is called with `Variant => implementing type` for each.
macro_rules! with_engines {
    ($m:ident) => {
        $m! {
            /// ZKB++ (Picnic): three parties, soundness error 2/3 per round.
            Zkbpp => crate::zkbpp::backend::Zkbpp,
            /// KKW (Picnic3): `N` parties with preprocessing checked by cut-and-choose.
            Kkw => crate::kkw::backend::Kkw,
            /// VOLE-in-the-head (FAEST's proof system): QuickSilver on VOLE from vector
            /// commitments.
            Vole => crate::vole::backend::Vole,
            /// A test engine whose proof is the witness in the clear (never in the binaries).
            #[cfg(any(test, feature = "toy-engine"))]
            Plain => crate::plain::Plain,
        }
    };
}

macro_rules! define_engines {
    ($( $(#[doc = $doc:expr])* $(#[cfg($cfg:meta)])? $V:ident => $T:ty ),* $(,)?) => {
        /// An engine, without parameters.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Engine {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? $V, )*
        }

        /// An engine with its parameters: what a prover runs.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum System {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? $V(<$T as ProofEngine>::Params), )*
        }

        /// A proof of one of the engines.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Proof {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? $V(<$T as ProofEngine>::Proof), )*
        }

        impl Engine {
            /// Every engine, in the list's order.
            pub const ALL: &'static [Engine] = &[ $( $(#[cfg($cfg)])? Engine::$V, )* ];

            /// The name users read ([`ProofEngine::NAME`]).
            pub const fn name(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::NAME, )* }
            }

            /// The proof system as a protocol's name reads it ([`ProofEngine::SYSTEM_NAME`]).
            pub const fn system_name(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::SYSTEM_NAME, )* }
            }

            /// The short label of JSON reports' `system` field ([`ProofEngine::LABEL`]).
            pub const fn label(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::LABEL, )* }
            }

            /// The wire name: `--system`'s value, the HTTP API's `system`.
            pub const fn wire(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::WIRE, )* }
            }

            /// Other names `--system` accepts.
            pub const fn aliases(self) -> &'static [&'static str] {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::ALIASES, )* }
            }

            /// One line for `--system`'s help.
            pub const fn help(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::HELP, )* }
            }

            /// Whether the engine proves GF(2^8) inverse gates natively
            /// ([`ProofEngine::NATIVE_INVERSES`]).
            pub const fn native_inverses(self) -> bool {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::NATIVE_INVERSES, )* }
            }

            /// The parameter sets users pick by name (the default first; empty: none).
            pub const fn param_sets(self) -> &'static [ParamSet] {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::PARAM_SETS, )* }
            }

            /// The engine with parameter set `set` at `bits` bits.
            pub fn system(self, bits: u32, set: &str) -> Result<System> {
                Ok(match self {
                    $( $(#[cfg($cfg)])? Engine::$V => System::$V(<$T>::params_for(bits, set)?), )*
                })
            }

            /// The `inspect` line of a recorded session whose Hello names `rounds`.
            pub fn describe_session(self, rounds: u32) -> zkgames_core::details::Details {
                match self { $( $(#[cfg($cfg)])? Engine::$V => <$T>::describe_session(rounds), )* }
            }

            /// Reads a proof of this engine from its bytes (`what` names it in errors).
            pub fn proof_from_body(self, bytes: &[u8], what: &str) -> Result<Proof> {
                Ok(match self {
                    $( $(#[cfg($cfg)])? Engine::$V => Proof::$V(proof_file::decode(bytes, what)?), )*
                })
            }

            /// Reads a body that is a head `H` followed by a proof of this engine.
            fn head_and_proof<H: DeserializeOwned + Serialize>(
                self,
                bytes: &[u8],
                what: &str,
            ) -> Result<(H, Proof)> {
                Ok(match self {
                    $( $(#[cfg($cfg)])? Engine::$V => {
                        let (h, p) = proof_file::decode(bytes, what)?;
                        (h, Proof::$V(p))
                    } )*
                })
            }

            /// Re-checks a recorded live session of this engine under `req`: the system
            /// it ran.
            fn replay(
                self,
                st: OwnedStatement,
                protocol: ProtocolId,
                req: &Required,
                rec: &SessionRecord,
            ) -> Result<System> {
                Ok(match self {
                    $( $(#[cfg($cfg)])? Engine::$V => System::$V(<$T>::replay(st, protocol, req, rec)?), )*
                })
            }
        }

        impl System {
            pub fn engine(&self) -> Engine {
                match self { $( $(#[cfg($cfg)])? System::$V(_) => Engine::$V, )* }
            }

            /// The security level the parameters reach, in bits.
            pub fn security_bits(&self) -> f64 {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::security_bits(p), )* }
            }

            /// The verifier's work for `and_gates` AND gates ([`ProofEngine::verifier_work`]).
            pub fn verifier_work(&self, and_gates: u64) -> u64 {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::verifier_work(p, and_gates), )* }
            }

            /// Parallel repetitions (ZKB++ rounds, KKW's online executions, VOLE's `τ`).
            pub fn repetitions(&self) -> usize {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::repetitions(p), )* }
            }

            /// The parameters as written in messages (`219 rounds`, `M=…, τ=…, N=…`).
            pub fn params_text(&self) -> String {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::params_text(p), )* }
            }

            /// The name of the offered set these parameters are at `bits` bits, if any.
            pub fn set_name(&self, bits: u32) -> Option<&'static str> {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::set_name(p, bits), )* }
            }

            /// The longest encoding ([`Proof::to_body`]) of a proof an honest prover with
            /// these parameters sends for a circuit of at most `shape`'s sizes: the length of
            /// the engine's [`ProofEngine::largest_proof`], encoded.
            pub fn max_proof_bytes(&self, shape: &ProofShape) -> usize {
                match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => proof_file::encode(&<$T>::largest_proof(p, shape)).len(), )*
                }
            }

            /// Checks the parameters' limits (bad input otherwise).
            pub fn check(&self) -> Result<()> {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::check(p), )* }
            }

            /// Refuses (before any work) a proof of this system that asks a verifier
            /// requiring `req` for more work than the heaviest honest proof
            /// ([`crate::offered`]). Parameters that fail their engine's limits are left to
            /// the engine, which refuses them at once.
            pub fn check_offered(&self, req: &Required) -> Result<()> {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::check_offered(p, req), )* }
            }

            fn check_strength(&self, req: &Required) -> Result<()> {
                match self { $( $(#[cfg($cfg)])? System::$V(p) => <$T>::check_strength(p, req), )* }
            }

            /// The system a live session of this one ran, from its Hello's `rounds`.
            pub fn as_ran(self, hello_rounds: u32) -> System {
                match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => System::$V(<$T>::as_ran(p, hello_rounds)), )*
                }
            }

            /// Proves knowledge of `witness` (refused if it does not satisfy the statement).
            pub fn prove(
                &self,
                st: &Statement,
                witness: &[bool],
                rng: &mut impl RngCore,
            ) -> Result<Proof> {
                Ok(match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => Proof::$V(<$T>::prove_at(st, witness, *p, rng)?), )*
                })
            }

            /// Seals `witness` ([`crate::seal`]): a proof whose randomness all comes from
            /// one master seed, and the opening (master seed and witness) that reveals the
            /// witness later.
            pub fn seal(
                &self,
                st: &Statement,
                witness: &[bool],
                rng: &mut impl RngCore,
            ) -> Result<(Proof, SealOpening)> {
                Ok(match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => {
                        let (proof, opening) = <$T>::seal(st, witness, *p, rng)?;
                        (Proof::$V(proof), opening)
                    } )*
                })
            }

            /// The prover's half of a live session ([`zkgames_net`], session version 2).
            /// The first message fixes everything the verifier's challenge selects among.
            pub fn session_prover(
                &self,
                st: OwnedStatement,
                protocol: ProtocolId,
                witness: Vec<bool>,
                rng: Rng,
            ) -> Result<Box<dyn SessionProver<'static>>> {
                match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => <$T>::session_prover(st, protocol, witness, *p, rng), )*
                }
            }

            /// The verifier's half of a live session (the verifier fixes the engine and its
            /// exact parameters; a prover offering anything else is refused at its Hello).
            pub fn session_verifier(
                &self,
                st: OwnedStatement,
                protocol: ProtocolId,
                rng: Rng,
            ) -> Box<dyn SessionVerifier> {
                match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => <$T>::session_verifier(st, protocol, *p, rng), )*
                }
            }

            /// The zero-knowledge simulator: an accepting session transcript for a uniformly
            /// random challenge drawn from `rng`, made without any witness (not evidence of
            /// anything).
            pub fn simulate_session(
                &self,
                st: &Statement,
                protocol: ProtocolId,
                rng: &mut impl RngCore,
            ) -> Result<SessionRecord> {
                self.check()?;
                match self {
                    $( $(#[cfg($cfg)])? System::$V(p) => <$T>::simulate(st, protocol, *p, rng), )*
                }
            }
        }

        impl Proof {
            pub fn engine(&self) -> Engine {
                match self { $( $(#[cfg($cfg)])? Proof::$V(_) => Engine::$V, )* }
            }

            /// The engine and parameters the proof states.
            pub fn system(&self) -> System {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => System::$V(<$T>::params_of(p)), )* }
            }

            /// The engine's proof bytes (a proof file body, or part of one).
            pub fn to_body(&self) -> Vec<u8> {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => proof_file::encode(p), )* }
            }

            /// The bytes of a head `head` followed by the proof (bincode concatenates, so a
            /// head `h` and a proof `p` encode exactly as a struct `{ h, p }` would).
            pub fn body_with_head<H: Serialize>(&self, head: &H) -> Vec<u8> {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => proof_file::encode(&(head, p)), )* }
            }

            /// Summary lines of the proof for `inspect` (no verification): parameters, their
            /// security, and where the bytes go.
            pub fn describe(&self) -> zkgames_core::details::Details {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => <$T>::describe(p), )* }
            }

            fn verify_engine(&self, st: &Statement, req: &Required) -> Result<()> {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => <$T>::verify(st, p, req), )* }
            }

            /// The digest naming the proof as a seal ([`crate::seal`]).
            pub fn seal_digest(&self, st: &Statement) -> Digest {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => <$T>::seal_digest(st, p), )* }
            }

            /// Opens the proof as a seal: the witness, if `opening` reproduces it exactly.
            pub fn open(&self, st: &Statement, opening: &SealOpening) -> Result<Vec<bool>> {
                match self { $( $(#[cfg($cfg)])? Proof::$V(p) => <$T>::open(st, p, opening), )* }
            }
        }
    };
}

with_engines!(define_engines);

impl Engine {
    /// The engine whose wire name or alias is `name`.
    pub fn from_wire(name: &str) -> Option<Engine> {
        Engine::ALL
            .iter()
            .copied()
            .find(|e| e.wire() == name || e.aliases().contains(&name))
    }

    /// The engine's default parameter set at `bits` bits (its first set).
    pub fn default_system(self, bits: u32) -> Result<System> {
        self.system(bits, self.param_sets().first().map_or("", |s| s.name))
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl System {
    /// ZKB++ at `bits` bits of soundness (`ceil(bits / log2(3/2))` rounds).
    pub fn zkbpp(bits: u32) -> Self {
        System::Zkbpp(super::zkbpp::rounds_for_bits(bits))
    }

    /// KKW's parameter set `profile` at `bits` bits ([`crate::kkw::params_for`]).
    pub fn kkw(bits: u32, profile: super::kkw::Profile) -> Result<Self> {
        Ok(System::Kkw(super::kkw::params_for(bits, profile)?))
    }

    /// VOLE-in-the-head's parameter set `profile` at `bits` bits ([`crate::vole::params_for`]).
    pub fn vole(bits: u32, profile: super::vole::Profile) -> Result<Self> {
        Ok(System::Vole(super::vole::params_for(bits, profile)?))
    }

    /// How success lines name the system: the engine, the level and the set
    /// (`VOLE-in-the-head, 128-bit, size set`); for an engine without named sets, its
    /// parameters (`ZKB++ with 219 rounds, 128.1 bits of security`); for parameters that are
    /// no offered set, or invalid ones read from a file, [`System::details`].
    pub fn summary(&self) -> String {
        if self.check().is_err() || self.engine().param_sets().is_empty() {
            return self.details();
        }
        // an offered set at level L reaches L to a few bits more: look a few levels down only
        // (the parameters may come from a file, and each look runs the sets' searches)
        let top = self.security_bits().floor().clamp(1.0, 512.0) as u32;
        (top.saturating_sub(8).max(1)..=top)
            .rev()
            .find_map(|level| self.set_name(level).map(|set| (level, set)))
            .map_or_else(
                || self.details(),
                |(level, set)| format!("{}, {level}-bit, {set} set", self.engine()),
            )
    }
}

/// Whether [`System`]'s `Display` (and so every report) spells out the parameters; off, it
/// names the engine, the level and the offered set ([`System::summary`]).
static SHOW_PARAMETERS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes every displayed [`System`] and [`Report`] spell out its parameters (`--verbose`).
pub fn show_parameters(on: bool) {
    SHOW_PARAMETERS.store(on, std::sync::atomic::Ordering::Relaxed);
}

impl System {
    /// The parameters in full: `VOLE-in-the-head with τ = 11 repetitions, …, 128.0 bits of
    /// security` (`inspect`, `--verbose`).
    pub fn details(&self) -> String {
        match self.check() {
            Ok(()) => format!(
                "{} with {}, {:.1} bits of security",
                self.engine(),
                self.params_text(),
                self.security_bits()
            ),
            // parameters read from a file: said, not computed on
            Err(_) => format!(
                "{} with {} (invalid parameters)",
                self.engine(),
                self.params_text()
            ),
        }
    }
}

impl std::fmt::Display for System {
    /// [`System::summary`], or [`System::details`] after [`show_parameters`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if SHOW_PARAMETERS.load(std::sync::atomic::Ordering::Relaxed) {
            f.write_str(&self.details())
        } else {
            f.write_str(&self.summary())
        }
    }
}

/// The sizes of a statement's circuit that a proof's length depends on, as its engine is
/// given it (lowered to AND and XOR gates for an engine without native inverses,
/// [`Engine::native_inverses`]). Upper bounds give an upper bound on the length
/// ([`System::max_proof_bytes`]): a statement of many circuits (peg identities) is bounded
/// by bounding these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofShape {
    /// Witness bits (the circuit's inputs).
    pub inputs: usize,
    /// AND gates.
    pub and_gates: usize,
    /// Inverted bytes (8 inverse gates each; 0 in a lowered circuit).
    pub inv_bytes: usize,
}

impl ProofShape {
    /// The sizes of `c`.
    pub fn of(c: &crate::circuit::Circuit) -> Self {
        ProofShape {
            inputs: c.n_inputs(),
            and_gates: c.n_and(),
            inv_bytes: c.n_inv(),
        }
    }
}

/// What a verifier requires of a proof: a security level every engine's proof must reach
/// ([`System::security_bits`]: for ZKB++ `rounds · log2(3/2)`, for the others `log2` of a
/// forger's expected work), and optionally one engine only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Required {
    /// The least [`System::security_bits`] accepted.
    pub bits: f64,
    /// `Some(e)`: proofs of the other engines are rejected.
    pub only: Option<Engine>,
}

impl Required {
    /// `bits` bits of security from any engine.
    pub fn bits(bits: u32) -> Self {
        Required {
            bits: bits as f64,
            only: None,
        }
    }

    /// As many bits as `rounds` ZKB++ rounds give (at least `rounds` ZKB++ rounds).
    pub fn rounds(rounds: usize) -> Self {
        Required {
            bits: super::zkbpp::security_bits(rounds),
            only: None,
        }
    }

    /// What `system` reaches (a verifier of proofs made with known parameters, as a demo is).
    pub fn reached_by(system: &System) -> Self {
        Required {
            bits: system.security_bits(),
            only: None,
        }
    }

    /// The same, accepting `engine` only (`None`: all).
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

/// Declares a proof kind's protocol ids: a constant per id, the kind's [`Protocols`] table
/// `$name`, and the ids' registration in
/// [`zkgames_core::proof_file::PROTOCOL_IDS`] (so that every program linking the kind
/// names them). `$what` names the kind's proofs in messages, `$kind` the kind in protocol
/// names:
///
/// ```ignore
/// zkgames_mpc::protocols! {
///     pub PROTOCOLS = "a SHA-256 preimage proof", "SHA-256 preimage",
///     { Zkbpp: SHA256_MPC = 3, Kkw: SHA256_KKW = 6, Vole: SHA256_VOLE = 11 }
/// }
/// ```
#[macro_export]
macro_rules! protocols {
    ($(#[$m:meta])* $vis:vis $name:ident = $what:literal, $kind:literal,
     { $( $E:ident : $CONST:ident = $id:literal ),* $(,)? }) => {
        $(
            #[doc = concat!("The protocol id of ", $kind, " proofs of this engine: ", stringify!($id), ".")]
            $vis const $CONST: $crate::__core::proof_file::ProtocolId =
                $crate::__core::proof_file::ProtocolId($id);
        )*
        $(#[$m])*
        $vis const $name: $crate::engine::Protocols = $crate::engine::Protocols {
            what: $what,
            ids: &[ $( ($crate::engine::Engine::$E, $CONST) ),* ],
        };
        $(
            const _: () = {
                #[$crate::__core::linkme::distributed_slice($crate::__core::proof_file::PROTOCOL_IDS)]
                #[linkme(crate = $crate::__core::linkme)]
                static REGISTERED: $crate::__core::proof_file::Registered =
                    $crate::__core::proof_file::Registered {
                        id: $CONST,
                        kind: $kind,
                        system: $crate::engine::Engine::$E.system_name(),
                        engine: (
                            $crate::engine::Engine::$E.name(),
                            $crate::engine::Engine::$E.wire(),
                        ),
                    };
            };
        )*
    };
}

/// The protocol ids of one kind of statement, one per engine it offers: how a verifier
/// tells, from a file's header alone, which engine made a proof. Each kind (SHA-256
/// preimages, peg solutions, sealed moves, LowMC keys, …) declares one constant table in
/// its own module and reads the engine back from it; nothing else maps engines to ids.
#[derive(Clone, Copy, Debug)]
pub struct Protocols {
    /// What the kind proves, in the user's words ("a SHA-256 preimage proof").
    pub what: &'static str,
    /// The kind's protocol id for each engine it offers.
    pub ids: &'static [(Engine, ProtocolId)],
}

impl Protocols {
    /// The protocol id of `engine`'s proofs of this kind (bad input if the kind does not
    /// offer that engine).
    pub fn id(&self, engine: Engine) -> Result<ProtocolId> {
        self.ids
            .iter()
            .find(|(e, _)| *e == engine)
            .map(|&(_, id)| id)
            .ok_or_else(|| Error::bad(format!("{} is not offered with {engine}", self.what)))
    }

    /// The engine whose proofs of this kind carry `id`, if any.
    pub fn engine_of(&self, id: ProtocolId) -> Option<Engine> {
        self.ids.iter().find(|(_, i)| *i == id).map(|&(e, _)| e)
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

impl Proof {
    /// Reads an `engine` proof from its bytes (`what` names it in errors).
    pub fn from_body(engine: Engine, bytes: &[u8], what: &str) -> Result<Self> {
        engine.proof_from_body(bytes, what)
    }

    /// The bytes of a non-interactive proof file of kind `kind`: the protocol id of the
    /// proof's engine, then the body `head` followed by the proof.
    pub fn file_bytes<H: Serialize>(&self, kind: &Protocols, head: &H) -> Result<Vec<u8>> {
        Ok(ProofFile::new(
            kind.id(self.engine())?,
            Mode::NonInteractive,
            self.body_with_head(head),
        )
        .to_bytes())
    }

    /// Reads a non-interactive proof file of kind `kind` written by [`Proof::file_bytes`]:
    /// the head and the proof of the engine the protocol id names (`what` names the body in
    /// errors). Every byte is checked as [`proof_file::decode`] does: one valid encoding.
    pub fn read_file<H: DeserializeOwned + Serialize>(
        kind: &Protocols,
        file: &ProofFile,
        what: &str,
    ) -> Result<(H, Self)> {
        kind.non_interactive(file)?.head_and_proof(&file.body, what)
    }

    /// The verifier's report on this proof once accepted: parameters, security, sizes.
    pub fn report(&self, proof_bytes: usize, and_gates: usize) -> Report {
        Report::of(&self.system(), proof_bytes, and_gates, Mode::NonInteractive)
    }

    /// Whether the proof's engine and stated parameters meet `req`, without verifying it:
    /// the same refusal [`Proof::verify`] gives a weak proof. For opening a seal, which
    /// re-runs the prover instead of verifying, at the strength the user asked for.
    pub fn check_strength(&self, req: &Required) -> Result<()> {
        req.check_engine(self.engine())?;
        let system = self.system();
        system.check_offered(req)?;
        system.check_strength(req)
    }

    /// Verifies the proof against `st` under `req`.
    ///
    /// A well-formed proof whose sizes do not fit the statement's circuit was made for
    /// another statement: the rejection starts with [`crate::ANOTHER_STATEMENT`].
    pub fn verify(&self, st: &Statement, req: &Required) -> Result<()> {
        req.check_engine(self.engine())?;
        // no file may ask for more work than the offered sets ([`crate::offered`])
        self.system().check_offered(req)?;
        self.verify_engine(st, req)
    }
}

/// The verifier's half of a live session for `system` ([`System::session_verifier`]).
pub fn session_verifier(
    system: &System,
    st: OwnedStatement,
    protocol: ProtocolId,
    rng: Rng,
) -> Box<dyn SessionVerifier> {
    system.session_verifier(st, protocol, rng)
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
    engine.replay(st, protocol, req, rec)
}
