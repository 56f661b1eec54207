//! Secret keys, public identities, and login proofs.
//!
//! Two kinds of key:
//! * `sha256`: the secret is 32 random bytes `s`; the identity is
//!   `d = SHA-256(ID_TAG ‖ s)` (54 bytes hashed, one SHA-256 block). Logging in proves
//!   knowledge of a preimage of `d` with ZKB++ ([`zkgames_mpc::sha256`]).
//! * `peg`: the identity is a peg solitaire instance with a planted solution
//!   ([`zkgames_peg::planted`]); the secret is the solution. Logging in proves knowledge of a
//!   solution with ZKB++ ([`zkgames_peg::mpc`]). Puzzle hardness is *not* a standard
//!   cryptographic assumption: use `sha256` for real security.
//!
//! * `lowmc`: the secret is a 129-bit LowMC key `k`, with a random public 129-bit plaintext
//!   `p`; the identity is `(p, c = LowMC_k(p))` ([`zkgames_mpc::lowmc`]: LowMC-129-129-43-4
//!   Picnic3-L1's instance, 516 AND gates). Logging in proves knowledge of `k` (Picnic's
//!   construction). LowMC was designed for MPC and has had far less cryptanalysis than
//!   AES (published attacks break variants with few rounds or partial S-box layers).
//! * `aes128`: the secret is an AES-128 key `k`, with a random public 16-byte plaintext `p`;
//!   the identity is `(p, c = AES-128_k(p))` (FAEST's public-key shape,
//!   [`zkgames_mpc::aes128`]). Logging in proves knowledge of `k`: the conservative choice,
//!   resting on the most studied block cipher. Key generation redraws keys for which some of
//!   the 200 S-box inputs is zero on `p` (such keys cannot be proven): about 54 % of draws,
//!   which leaves ≈ 2^126.9 keys for a given plaintext.
//!
//! Text formats (one line each, fields separated by spaces, hex in lowercase):
//!
//! ```text
//! zkgames-auth-key-v1 sha256 <secret: 64 hex>
//! zkgames-auth-key-v1 peg <instance: hex of its canonical bytes> <moves: hex, u32-le per move>
//! zkgames-auth-id-v1 sha256 <digest: 64 hex>
//! zkgames-auth-key-v1 lowmc <k: 34 hex> <p: 34 hex>
//! zkgames-auth-id-v1 peg <instance: hex of its canonical bytes>
//! zkgames-auth-id-v1 lowmc <p: 34 hex> <c: 34 hex>
//! zkgames-auth-key-v1 aes128 <k: 32 hex> <p: 32 hex>
//! zkgames-auth-id-v1 aes128 <p: 32 hex> <c: 32 hex>
//! ```
//!
//! A 129-bit `lowmc` value is 17 bytes as Picnic writes them, most significant bit first, the
//! 7 low bits of the last byte zero ([`zkgames_mpc::lowmc::block_to_bytes`]).
//!
//! A login proof is bound to [`login_context`]: a domain tag, the server's name, the user
//! name and the server's 256-bit nonce, each length-prefixed. An offline proof
//! ([`prove_offline`], `prover auth prove`) is the same proof bound to [`offline_context`]
//! instead (another domain tag and a text): in effect a signature on the text, which no
//! server accepts as a login and no login proof passes for.

use sha2::{Digest as _, Sha256};

use zkgames_core::proof_file::{Mode, ProofFile};
use zkgames_core::rng::{random_32, Rng};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::aes128;
use zkgames_mpc::engine::{Engine, Proof as EngineProof, ProofShape, Protocols, Required, System};
use zkgames_mpc::kkw::{self, Params, Profile};
use zkgames_mpc::lowmc::{self, Block};
use zkgames_mpc::{self as mpc, zkbpp};
use zkgames_peg::instance::{unpack_bits, Goal, Instance, Matrix, MAX_N, MAX_T};
use zkgames_peg::planted::{self, PlantParams};

/// First field of a key file.
pub const KEY_HEADER: &str = "zkgames-auth-key-v1";
/// First field of an identity file.
pub const ID_HEADER: &str = "zkgames-auth-id-v1";
/// Prefix hashed before a `sha256` secret: `d = SHA-256(ID_TAG ‖ secret)`. 22 bytes, so the
/// 54-byte preimage fits one SHA-256 block.
pub const ID_TAG: &[u8] = b"zkgames/auth/sha256/v1";
/// First field of the login context.
pub const LOGIN_TAG: &[u8] = b"zkgames/auth/login/v1";
/// First field of the context of offline proofs ([`offline_context`]).
pub const OFFLINE_TAG: &[u8] = b"zkgames/auth/offline/v1";
/// Longest text an offline proof is bound to, in bytes.
pub const MAX_OFFLINE_TEXT: usize = 1 << 16;
/// Soundness of login proofs, in bits.
pub const LOGIN_SECURITY_BITS: u32 = 128;
/// Largest `(S − 1)·T` of a `peg` identity: bounds the verifier's work and the proof size
/// (about `3·(S − 1)·T` AND gates, 29 bytes per AND gate at 128 bits).
pub const MAX_PEG_WITNESS_BITS: usize = 1 << 15;
/// Largest number of AND gates in a `peg` identity's circuit
/// ([`zkgames_peg::mpc::peg_circuit`]), refused at registration beyond: with
/// [`MAX_PEG_WITNESS_BITS`] it bounds a `peg` login proof ([`max_login_proof`]). A
/// [`planted::KEYGEN`] key's circuit has about 36,000; the bounds' largest identity
/// ([`largest_peg_identity`], one move) 32,767; two moves over 16,384 triplets reach 65,534.
pub const MAX_PEG_AND_GATES: usize = 1 << 16;
/// Longest user name, in bytes.
pub const MAX_USER: usize = 32;
/// Longest server name, in bytes.
pub const MAX_SERVER: usize = 255;
/// Largest key or identity file read.
pub const MAX_FILE_BYTES: u64 = 2 << 20;

/// The kind of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Sha256,
    Peg,
    Lowmc,
    Aes128,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 4] = [Kind::Sha256, Kind::Peg, Kind::Lowmc, Kind::Aes128];

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sha256 => "sha256",
            Kind::Peg => "peg",
            Kind::Lowmc => "lowmc",
            Kind::Aes128 => "aes128",
        }
    }
    /// Parses `sha256`, `peg`, `lowmc` or `aes128`.
    pub fn parse(s: &str) -> Result<Kind> {
        match s {
            "sha256" => Ok(Kind::Sha256),
            "peg" => Ok(Kind::Peg),
            "lowmc" => Ok(Kind::Lowmc),
            "aes128" => Ok(Kind::Aes128),
            _ => Err(Error::bad(format!(
                "unknown key kind '{}' (expected sha256, peg, lowmc or aes128)",
                clip(s)
            ))),
        }
    }
    /// The proof file protocols of this kind's login proofs, one per engine.
    fn protocols(self) -> &'static Protocols {
        match self {
            Kind::Sha256 => &mpc::sha256::PROTOCOLS,
            Kind::Peg => &zkgames_peg::mpc::PROTOCOLS,
            Kind::Lowmc => &lowmc::PROTOCOLS,
            Kind::Aes128 => &aes128::PROTOCOLS,
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A public identity: what the server stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// `SHA-256(ID_TAG ‖ secret)`.
    Sha256([u8; 32]),
    /// A peg solitaire instance whose solution is the secret.
    Peg(Instance),
    /// A LowMC plaintext and its ciphertext under the secret key.
    Lowmc { plaintext: Block, ciphertext: Block },
    /// An AES-128 plaintext and its ciphertext under the secret key.
    Aes128 {
        plaintext: [u8; 16],
        ciphertext: [u8; 16],
    },
}

/// A secret key. Its `Debug` output hides the secret.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretKey {
    Sha256([u8; 32]),
    Peg {
        instance: Instance,
        /// The triplet index of each move.
        moves: Vec<u32>,
        /// The solution matrix the moves play (derived, checked).
        solution: Matrix,
    },
    /// A LowMC key and the public plaintext of its identity.
    Lowmc {
        key: Block,
        plaintext: Block,
    },
    /// An AES-128 key and the public plaintext of its identity (no S-box input zero).
    Aes128 {
        key: [u8; 16],
        plaintext: [u8; 16],
    },
}

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SecretKey({}, secret hidden)", self.kind())
    }
}

/// At most 24 characters of untrusted text, for error messages.
pub(crate) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().count() > 24 {
        out.push('…');
    }
    out.chars()
        .map(|c| {
            if c.is_control() {
                format!("U+{:04X}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Decodes lowercase hex (the only accepted spelling, so every value has one encoding).
fn parse_hex(s: &str, what: &str) -> Result<Vec<u8>> {
    if !s
        .bytes()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
        || !s.len().is_multiple_of(2)
    {
        return Err(Error::bad(format!(
            "{what}: expected lowercase hexadecimal with an even number of digits"
        )));
    }
    hex::decode(s).map_err(|_| Error::bad(format!("{what}: not hexadecimal")))
}

fn parse_block(s: &str, what: &str) -> Result<Block> {
    lowmc::block_from_bytes(&parse_hex(s, what)?, what)
}

fn parse_hex16(s: &str, what: &str) -> Result<[u8; 16]> {
    let b = parse_hex(s, what)?;
    b.try_into().map_err(|b: Vec<u8>| {
        Error::bad(format!(
            "{what}: {} bytes, expected 16 (32 hex digits)",
            b.len()
        ))
    })
}

fn parse_hex32(s: &str, what: &str) -> Result<[u8; 32]> {
    let b = parse_hex(s, what)?;
    b.try_into().map_err(|b: Vec<u8>| {
        Error::bad(format!(
            "{what}: {} bytes, expected 32 (64 hex digits)",
            b.len()
        ))
    })
}

/// Splits a one-line text file into its fields: an optional final newline is allowed,
/// nothing else outside the line.
fn fields<'a>(text: &'a str, what: &str) -> Result<Vec<&'a str>> {
    let line = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    if line.contains(['\n', '\r']) {
        return Err(Error::bad(format!(
            "{what}: expected a single line (this format has no line breaks)"
        )));
    }
    Ok(line.split(' ').collect())
}

fn check_header(f: &[&str], header: &str, what: &str) -> Result<Kind> {
    if f.first() != Some(&header) {
        let other = if header == KEY_HEADER {
            ID_HEADER
        } else {
            KEY_HEADER
        };
        if f.first() == Some(&other) {
            let found = if other == KEY_HEADER {
                "a secret key file"
            } else {
                "an identity file"
            };
            return Err(Error::bad(format!("{what}: found {found} instead")));
        }
        return Err(Error::bad(format!(
            "{what}: does not start with '{header}' (not a zkgames {what}, or an unsupported version)"
        )));
    }
    let kind = Kind::parse(f.get(1).copied().unwrap_or(""))
        .map_err(|e| Error::bad(format!("{what}: {e}")))?;
    let want = match (header == KEY_HEADER, kind) {
        (true, Kind::Sha256) => 3,
        (true, Kind::Peg) => 4,
        (_, Kind::Lowmc | Kind::Aes128) => 4,
        (false, _) => 3,
    };
    if f.len() != want {
        return Err(Error::bad(format!(
            "{what}: {} space-separated fields, expected {want} for kind {kind}",
            f.len()
        )));
    }
    Ok(kind)
}

/// Parses the canonical bytes of an instance ([`Instance::canonical_bytes`]), checking every
/// length, the padding bits and Definition 4; the encoding is unique (it re-encodes to the
/// same bytes).
pub fn instance_from_canonical(b: &[u8]) -> Result<Instance> {
    const PREFIX: &[u8] = PEG_INSTANCE_PREFIX;
    let err = |m: &str| Error::bad(format!("peg instance encoding: {m}"));
    let rest = b
        .strip_prefix(PREFIX)
        .ok_or_else(|| err("does not start with 'peg-instance-v1'"))?;
    let u32_at = |r: &[u8], i: usize| -> Option<u32> {
        r.get(i..i + 4)
            .map(|x| u32::from_le_bytes(x.try_into().expect("4 bytes")))
    };
    let n = u32_at(rest, 0).ok_or_else(|| err("truncated"))? as usize;
    let t = u32_at(rest, 4).ok_or_else(|| err("truncated"))? as usize;
    if n == 0 || n > MAX_N || t == 0 || t > MAX_T {
        return Err(err(&format!(
            "N = {n}, T = {t}: outside [1, {MAX_N}] and [1, {MAX_T}]"
        )));
    }
    let row = n.div_ceil(8);
    let head = 8 + 12 * t + row + 1;
    if rest.len() < head {
        return Err(err("truncated"));
    }
    let triplets: Vec<[u32; 3]> = (0..t)
        .map(|i| std::array::from_fn(|k| u32_at(rest, 8 + 12 * i + 4 * k).expect("in range")))
        .collect();
    let first = unpack_bits(&rest[8 + 12 * t..8 + 12 * t + row], n)
        .ok_or_else(|| err("non-zero padding bits in f"))?;
    let tail = &rest[head..];
    let goal = match rest[head - 1] {
        0 => {
            if tail.len() != row {
                return Err(err("wrong length after the goal tag"));
            }
            Goal::Position(unpack_bits(tail, n).ok_or_else(|| err("non-zero padding bits in l"))?)
        }
        1 => {
            if tail.len() != 4 {
                return Err(err("wrong length after the goal tag"));
            }
            Goal::PegCount(u32_at(tail, 0).expect("4 bytes") as usize)
        }
        g => return Err(err(&format!("unknown goal tag {g}"))),
    };
    let inst = Instance::new(n, triplets, first, goal)
        .map_err(|e| Error::bad(format!("peg instance: {e}")))?;
    debug_assert_eq!(inst.canonical_bytes(), b);
    Ok(inst)
}

/// The first bytes of an instance's canonical encoding ([`Instance::canonical_bytes`]).
const PEG_INSTANCE_PREFIX: &[u8] = b"peg-instance-v1";

/// The longest canonical encoding of a `peg` identity's instance that the bounds allow:
/// `N ≤ MAX_N`, `T ≤ MAX_T`, and `(S − 1)·T ≤ MAX_PEG_WITNESS_BITS` with `S ≥ 2` (an
/// identity must hide at least one move), so `T ≤ MAX_PEG_WITNESS_BITS`. The encoding is
/// `prefix ‖ u32 N ‖ u32 T ‖ 12·T ‖ ⌈N/8⌉ (f) ‖ goal tag ‖ ⌈N/8⌉ (l) or 4 (a peg count)`.
pub fn max_peg_instance_bytes() -> usize {
    let t = MAX_T.min(MAX_PEG_WITNESS_BITS);
    let row = MAX_N.div_ceil(8);
    PEG_INSTANCE_PREFIX.len() + 8 + 12 * t + row + 1 + row.max(4)
}

/// The longest identity file text of any kind that [`Identity::parse`] can accept: a `peg`
/// identity of [`max_peg_instance_bytes`] in hex, with its header and a final `\r\n`
/// (the other kinds are at most two 17-byte values in hex).
pub fn max_identity_text() -> usize {
    let line = |kind: &str, hex: usize| ID_HEADER.len() + 1 + kind.len() + 1 + hex + 2;
    let peg = line("peg", 2 * max_peg_instance_bytes());
    let fixed = line("aes128", 2 * 17 + 1 + 2 * 17);
    peg.max(fixed)
}

/// The largest `peg` identity the bounds allow (tests: it must fit every limit derived from
/// [`max_identity_text`]): `N = MAX_N`, `T = MAX_PEG_WITNESS_BITS` triplets `{0, j, k}`, `f`
/// pegs on 0 and 1, the goal a peg on 2 alone (one jump, `S = 2`).
pub fn largest_peg_identity() -> Identity {
    let n = MAX_N;
    let t = MAX_T.min(MAX_PEG_WITNESS_BITS);
    let triplets: Vec<[u32; 3]> = (1..n as u32)
        .flat_map(|j| (j + 1..n as u32).map(move |k| [j, 0, k]))
        .take(t)
        .collect();
    let mut first = vec![false; n];
    first[0] = true;
    first[1] = true;
    let mut last = vec![false; n];
    last[2] = true;
    let inst = Instance::new(n, triplets, first, Goal::Position(last))
        .expect("the largest identity is a valid instance");
    Identity::Peg(inst)
}

/// Checks that a `peg` identity holds a secret (`S ≥ 2`: at least one move) and its size
/// limit.
fn check_peg_size(inst: &Instance) -> Result<()> {
    if inst.s() < 2 {
        return Err(Error::bad(
            "peg identity without a secret: S = 1, its start is its finish (no move to prove)",
        ));
    }
    let w = (inst.s() - 1).saturating_mul(inst.t());
    if w > MAX_PEG_WITNESS_BITS {
        return Err(Error::bad(format!(
            "peg identity too large: (S − 1)·T = {w}, the limit for logins is {MAX_PEG_WITNESS_BITS}"
        )));
    }
    let ands = zkgames_peg::mpc::peg_circuit(inst)?.0.n_and();
    if ands > MAX_PEG_AND_GATES {
        return Err(Error::bad(format!(
            "peg identity too large: its circuit has {ands} AND gates, the limit for logins is {MAX_PEG_AND_GATES}"
        )));
    }
    Ok(())
}

/// The sizes of the circuit a login proof of `kind` with `engine` proves (as the engine is
/// given it: AES-128's lowered for the engines without native inverses); for `peg`, the
/// bounds every registered identity is within ([`MAX_PEG_WITNESS_BITS`] witness bits,
/// [`MAX_PEG_AND_GATES`] AND gates).
pub fn login_proof_shape(kind: Kind, engine: Engine) -> ProofShape {
    match kind {
        Kind::Sha256 => ProofShape::of(
            &mpc::sha256::sha256_circuit(LOGIN_PREIMAGE_LEN)
                .expect("a one-block preimage has a circuit"),
        ),
        Kind::Peg => ProofShape {
            inputs: MAX_PEG_WITNESS_BITS,
            and_gates: MAX_PEG_AND_GATES,
            inv_bytes: 0,
        },
        // the plaintext is public: it changes constants, never the circuit's sizes
        Kind::Lowmc => ProofShape::of(&lowmc::lowmc_circuit(&[0; 3])),
        Kind::Aes128 => {
            let c = aes128::aes128_circuit(&[0; aes128::BYTES]);
            ProofShape::of(&if engine.native_inverses() {
                c
            } else {
                c.lowered()
            })
        }
    }
}

/// The bytes of a login proof file of `kind` before the engine's proof: the file header
/// and the body's head (a `sha256` proof's preimage length, a ZKB++ `peg` proof's instance
/// digest, [`zkgames_peg::mpc::prove`]).
fn login_head_bytes(kind: Kind, engine: Engine) -> usize {
    use zkgames_core::proof_file::{encode, HEADER_LEN};
    HEADER_LEN
        + match (kind, engine) {
            (Kind::Sha256, _) => encode(&(LOGIN_PREIMAGE_LEN as u32)).len(),
            (Kind::Peg, Engine::Zkbpp) => encode(&zkgames_core::commit::Digest::default()).len(),
            _ => 0,
        }
}

/// The longest login proof (file bytes) an honest prover of a `kind` key sends with the
/// parameter set a login accepts of each engine ([`login_system`]): the longest over the
/// engines of the file's head and [`System::max_proof_bytes`] at [`login_proof_shape`].
pub fn max_login_proof_of(kind: Kind) -> usize {
    Engine::ALL
        .iter()
        .map(|&e| {
            login_head_bytes(kind, e) + login_system(e).max_proof_bytes(&login_proof_shape(kind, e))
        })
        .max()
        .expect("there is an engine")
}

/// The longest login proof an honest prover of any key kind sends ([`max_login_proof_of`]
/// over [`Kind::ALL`]): what a login server reads of a proof, whoever the user. One bound
/// for every account, so that the limit tells nothing of an account's kind; computed once.
pub fn max_login_proof() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        Kind::ALL
            .into_iter()
            .map(max_login_proof_of)
            .max()
            .expect("there is a kind")
    })
}

impl Identity {
    /// The kind of key this identity belongs to.
    pub fn kind(&self) -> Kind {
        match self {
            Identity::Sha256(_) => Kind::Sha256,
            Identity::Peg(_) => Kind::Peg,
            Identity::Lowmc { .. } => Kind::Lowmc,
            Identity::Aes128 { .. } => Kind::Aes128,
        }
    }

    /// The identity file line, with its final newline.
    pub fn to_text(&self) -> String {
        match self {
            Identity::Sha256(d) => format!("{ID_HEADER} sha256 {}\n", hex::encode(d)),
            Identity::Peg(i) => format!("{ID_HEADER} peg {}\n", hex::encode(i.canonical_bytes())),
            Identity::Lowmc {
                plaintext,
                ciphertext,
            } => format!(
                "{ID_HEADER} lowmc {} {}\n",
                hex::encode(lowmc::block_to_bytes(plaintext)),
                hex::encode(lowmc::block_to_bytes(ciphertext))
            ),
            Identity::Aes128 {
                plaintext,
                ciphertext,
            } => format!(
                "{ID_HEADER} aes128 {} {}\n",
                hex::encode(plaintext),
                hex::encode(ciphertext)
            ),
        }
    }

    /// Parses an identity file (see the module documentation).
    pub fn parse(text: &str) -> Result<Identity> {
        const WHAT: &str = "identity file";
        let f = fields(text, WHAT)?;
        match check_header(&f, ID_HEADER, WHAT)? {
            Kind::Sha256 => Ok(Identity::Sha256(parse_hex32(f[2], "identity digest")?)),
            Kind::Peg => {
                let inst = instance_from_canonical(&parse_hex(f[2], "identity instance")?)
                    .map_err(|e| Error::bad(format!("{WHAT}: {e}")))?;
                check_peg_size(&inst)?;
                Ok(Identity::Peg(inst))
            }
            Kind::Lowmc => Ok(Identity::Lowmc {
                plaintext: parse_block(f[2], "identity plaintext")?,
                ciphertext: parse_block(f[3], "identity ciphertext")?,
            }),
            Kind::Aes128 => Ok(Identity::Aes128 {
                plaintext: parse_hex16(f[2], "identity plaintext")?,
                ciphertext: parse_hex16(f[3], "identity ciphertext")?,
            }),
        }
    }

    /// A short fingerprint: the first 8 bytes of SHA-256 of the identity line, in hex.
    pub fn fingerprint(&self) -> String {
        hex::encode(&Sha256::digest(self.to_text().as_bytes())[..8])
    }
}

impl SecretKey {
    /// The kind of this key.
    pub fn kind(&self) -> Kind {
        match self {
            SecretKey::Sha256(_) => Kind::Sha256,
            SecretKey::Peg { .. } => Kind::Peg,
            SecretKey::Lowmc { .. } => Kind::Lowmc,
            SecretKey::Aes128 { .. } => Kind::Aes128,
        }
    }

    /// Draws a fresh key: 32 bytes for `sha256`, a planted instance of size
    /// [`planted::KEYGEN`] for `peg`, a 129-bit key and plaintext for `lowmc`, a 128-bit key
    /// and plaintext for `aes128` (redrawn while an S-box input is zero). Use
    /// [`zkgames_core::rng::os_rng`].
    pub fn generate(kind: Kind, rng: &mut Rng) -> Result<SecretKey> {
        match kind {
            Kind::Sha256 => Ok(SecretKey::Sha256(random_32(rng))),
            Kind::Peg => Self::generate_peg(&planted::KEYGEN, rng),
            Kind::Lowmc => Ok(SecretKey::Lowmc {
                key: lowmc::random_block(rng),
                plaintext: lowmc::random_block(rng),
            }),
            Kind::Aes128 => loop {
                let (key, plaintext) = (aes128::random_bytes(rng), aes128::random_bytes(rng));
                if aes128::sbox_inputs_nonzero(&key, &plaintext) {
                    return Ok(SecretKey::Aes128 { key, plaintext });
                }
            },
        }
    }

    /// A `peg` key of a chosen size (tests and experiments; keys use [`planted::KEYGEN`]).
    pub fn generate_peg(p: &PlantParams, rng: &mut Rng) -> Result<SecretKey> {
        let pl = planted::plant(p, rng)?;
        check_peg_size(&pl.instance)?;
        Ok(SecretKey::Peg {
            instance: pl.instance,
            moves: pl.moves.iter().map(|&m| m as u32).collect(),
            solution: pl.solution,
        })
    }

    /// The public identity of this key.
    pub fn identity(&self) -> Identity {
        match self {
            SecretKey::Sha256(s) => Identity::Sha256(sha256_identity(s)),
            SecretKey::Peg { instance, .. } => Identity::Peg(instance.clone()),
            SecretKey::Lowmc { key, plaintext } => Identity::Lowmc {
                plaintext: *plaintext,
                ciphertext: lowmc::encrypt(key, plaintext),
            },
            SecretKey::Aes128 { key, plaintext } => Identity::Aes128 {
                plaintext: *plaintext,
                ciphertext: aes128::encrypt(key, plaintext),
            },
        }
    }

    /// The key file line, with its final newline.
    pub fn to_text(&self) -> String {
        match self {
            SecretKey::Sha256(s) => format!("{KEY_HEADER} sha256 {}\n", hex::encode(s)),
            SecretKey::Peg {
                instance, moves, ..
            } => {
                let m: Vec<u8> = moves.iter().flat_map(|x| x.to_le_bytes()).collect();
                format!(
                    "{KEY_HEADER} peg {} {}\n",
                    hex::encode(instance.canonical_bytes()),
                    hex::encode(m)
                )
            }
            SecretKey::Lowmc { key, plaintext } => format!(
                "{KEY_HEADER} lowmc {} {}\n",
                hex::encode(lowmc::block_to_bytes(key)),
                hex::encode(lowmc::block_to_bytes(plaintext))
            ),
            SecretKey::Aes128 { key, plaintext } => format!(
                "{KEY_HEADER} aes128 {} {}\n",
                hex::encode(key),
                hex::encode(plaintext)
            ),
        }
    }

    /// Parses a key file (see the module documentation); a `peg` key must hold a solution.
    pub fn parse(text: &str) -> Result<SecretKey> {
        const WHAT: &str = "key file";
        let f = fields(text, WHAT)?;
        match check_header(&f, KEY_HEADER, WHAT)? {
            Kind::Sha256 => Ok(SecretKey::Sha256(parse_hex32(f[2], "key file secret")?)),
            Kind::Peg => {
                let instance = instance_from_canonical(&parse_hex(f[2], "key file instance")?)
                    .map_err(|e| Error::bad(format!("{WHAT}: {e}")))?;
                check_peg_size(&instance)?;
                let mb = parse_hex(f[3], "key file moves")?;
                let steps = instance.s() - 1;
                if mb.len() != 4 * steps {
                    return Err(Error::bad(format!(
                        "key file moves: {} bytes, expected 4 per move for S − 1 = {steps} moves",
                        mb.len()
                    )));
                }
                let moves: Vec<u32> = mb
                    .chunks(4)
                    .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                    .collect();
                let idx: Vec<usize> = moves.iter().map(|&m| m as usize).collect();
                let solution = planted::play(&instance, &idx)
                    .filter(|z| instance.check_solution(z).is_ok())
                    .ok_or_else(|| {
                        Error::bad("key file: the moves do not solve the key's instance")
                    })?;
                Ok(SecretKey::Peg {
                    instance,
                    moves,
                    solution,
                })
            }
            Kind::Lowmc => Ok(SecretKey::Lowmc {
                key: parse_block(f[2], "key file secret")?,
                plaintext: parse_block(f[3], "key file plaintext")?,
            }),
            Kind::Aes128 => {
                let key = parse_hex16(f[2], "key file secret")?;
                let plaintext = parse_hex16(f[3], "key file plaintext")?;
                if !aes128::sbox_inputs_nonzero(&key, &plaintext) {
                    return Err(Error::bad(
                        "key file: an S-box input of this key is zero on its plaintext, so it cannot be proven; generate a new key",
                    ));
                }
                Ok(SecretKey::Aes128 { key, plaintext })
            }
        }
    }
}

/// `SHA-256(ID_TAG ‖ secret)`.
pub fn sha256_identity(secret: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(ID_TAG);
    h.update(secret);
    h.finalize().into()
}

/// Checks a user name: 1 to [`MAX_USER`] bytes of `a-z`, `0-9`, `_`, `-`, `.`, starting with
/// a letter or digit.
pub fn check_user_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= MAX_USER
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"_-.".contains(&c));
    if ok {
        Ok(())
    } else {
        Err(Error::bad(format!(
            "bad user name '{}': 1 to {MAX_USER} characters among a-z 0-9 _ - ., starting with a letter or digit",
            clip(name)
        )))
    }
}

/// Checks a server name: 1 to [`MAX_SERVER`] printable ASCII characters, no spaces.
pub fn check_server_name(name: &str) -> Result<()> {
    if !name.is_empty() && name.len() <= MAX_SERVER && name.bytes().all(|c| c.is_ascii_graphic()) {
        Ok(())
    } else {
        Err(Error::bad(format!(
            "bad server name '{}': 1 to {MAX_SERVER} printable ASCII characters, no spaces",
            clip(name)
        )))
    }
}

/// The bytes a login proof is bound to:
/// `lp(LOGIN_TAG) ‖ lp(server) ‖ lp(user) ‖ lp(nonce)` with `lp(x) = u32-le(len(x)) ‖ x`.
pub fn login_context(server: &str, user: &str, nonce: &[u8; 32]) -> Result<Vec<u8>> {
    check_server_name(server)?;
    check_user_name(user)?;
    let mut out = Vec::with_capacity(4 * 4 + LOGIN_TAG.len() + server.len() + user.len() + 32);
    for part in [LOGIN_TAG, server.as_bytes(), user.as_bytes(), nonce] {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        out.extend_from_slice(part);
    }
    Ok(out)
}

/// The bytes an offline proof is bound to: `lp(OFFLINE_TAG) ‖ lp(text)` with
/// `lp(x) = u32-le(len(x)) ‖ x` (a login context starts with `lp(LOGIN_TAG)`: the two never
/// meet). Texts up to [`MAX_OFFLINE_TEXT`] bytes.
pub fn offline_context(text: &[u8]) -> Result<Vec<u8>> {
    if text.len() > MAX_OFFLINE_TEXT {
        return Err(Error::bad(format!(
            "--context: {} bytes, at most {MAX_OFFLINE_TEXT}",
            text.len()
        )));
    }
    let mut out = Vec::with_capacity(8 + OFFLINE_TAG.len() + text.len());
    for part in [OFFLINE_TAG, text] {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        out.extend_from_slice(part);
    }
    Ok(out)
}

/// An offline proof of knowledge of `key` bound to `text` ([`offline_context`]) with
/// `system`: the bytes of a non-interactive proof file, of the protocol ids of the key's
/// login proofs.
pub fn prove_offline(
    key: &SecretKey,
    text: &[u8],
    system: &System,
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    prove_bound(key, &offline_context(text)?, system, rng)
}

/// Verifies an offline proof against `id` and `text` at [`LOGIN_SECURITY_BITS`]; returns the
/// system (engine and parameters) that made it. Errors as [`verify_login`].
pub fn verify_offline(id: &Identity, text: &[u8], proof: &[u8]) -> Result<System> {
    let ctx = offline_context(text)?;
    let file = ProofFile::from_bytes(proof)?;
    let req = Required::bits(LOGIN_SECURITY_BITS);
    let engine = id.kind().protocols().engine(&file)?;
    if file.mode != Mode::NonInteractive {
        return Err(Error::bad(
            "an offline proof must be non-interactive (Fiat–Shamir)",
        ));
    }
    verify_bound(id, &ctx, &file, &req)?;
    let system = engine_proof(id, &file)?.system();
    debug_assert_eq!(engine, system.engine());
    Ok(system)
}

/// Rounds of a login proof: [`LOGIN_SECURITY_BITS`] of soundness (219).
pub fn login_rounds() -> usize {
    zkbpp::rounds_for_bits(LOGIN_SECURITY_BITS)
}

/// The KKW parameters of a login proof: the size set at [`LOGIN_SECURITY_BITS`].
pub fn login_kkw_params() -> Params {
    kkw::params_for(LOGIN_SECURITY_BITS, Profile::Size).expect("the size set exists at 128 bits")
}

/// The VOLE-in-the-head parameters of a login proof: the size set at
/// [`LOGIN_SECURITY_BITS`].
pub fn login_vole_params() -> mpc::vole::Params {
    mpc::vole::params_for(LOGIN_SECURITY_BITS, mpc::vole::Profile::Size)
        .expect("the size set exists at 128 bits")
}

/// A login proof (the bytes of a non-interactive proof file) for `user` on `server`, bound
/// to the server's `nonce`, with ZKB++.
pub fn prove_login(
    key: &SecretKey,
    server: &str,
    user: &str,
    nonce: &[u8; 32],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    prove_login_with(key, server, user, nonce, Engine::Zkbpp, rng)
}

/// The engine and parameters of a login proof with `engine`: the engine's default set at
/// [`LOGIN_SECURITY_BITS`] (ZKB++ with [`login_rounds`], KKW with [`login_kkw_params`],
/// VOLE with [`login_vole_params`]).
pub fn login_system(engine: Engine) -> System {
    engine
        .default_system(LOGIN_SECURITY_BITS)
        .expect("every engine offers its default set at 128 bits")
}

/// Every parameter set a login server accepts from `engine`: exactly the one a login
/// sends ([`login_system`], the size set at [`LOGIN_SECURITY_BITS`]). No other profile is
/// accepted, not even a cheaper-to-send one: KKW's `smallest` set (M = 842, N = 64) costs a
/// server 22–29× an honest login, and a login proof chooses its own set, so every accepted
/// login proof of a key kind and engine costs what an honest one does
/// (docs/PROTOCOLS.md 5.7; tests/integration/login_cost.rs).
pub fn login_systems(engine: Engine) -> Vec<System> {
    vec![login_system(engine)]
}

/// A login proof with `engine` at the login parameters ([`login_system`]).
pub fn prove_login_with(
    key: &SecretKey,
    server: &str,
    user: &str,
    nonce: &[u8; 32],
    engine: Engine,
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let ctx = login_context(server, user, nonce)?;
    prove_bound(key, &ctx, &login_system(engine), rng)
}

/// A login proof at any parameter set `system` (what a hostile client may send: tests and
/// benches check that a login server refuses every set but [`login_system`]'s).
pub fn prove_login_as(
    key: &SecretKey,
    server: &str,
    user: &str,
    nonce: &[u8; 32],
    system: &System,
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let ctx = login_context(server, user, nonce)?;
    prove_bound(key, &ctx, system, rng)
}

/// A proof of knowledge of `key` bound to the context bytes `ctx`, with `system`.
fn prove_bound(key: &SecretKey, ctx: &[u8], system: &System, rng: &mut Rng) -> Result<Vec<u8>> {
    match key {
        SecretKey::Sha256(s) => {
            let mut pre = ID_TAG.to_vec();
            pre.extend_from_slice(s);
            let proof = mpc::sha256::prove(&pre, system, ctx, rng);
            pre.fill(0);
            proof
        }
        SecretKey::Peg {
            instance, solution, ..
        } => zkgames_peg::mpc::prove(instance, solution, system, ctx, rng),
        SecretKey::Lowmc { key, plaintext } => lowmc::prove_key(key, plaintext, system, ctx, rng),
        SecretKey::Aes128 { key, plaintext } => aes128::prove_key(key, plaintext, system, ctx, rng),
    }
}

/// The kind of key a login proof claims to be for, read from its file header (`None`: not a
/// login proof). Attacker-chosen: use it to pick what to verify against, never to accept.
pub fn claimed_kind(proof: &[u8]) -> Option<Kind> {
    let file = ProofFile::from_bytes(proof).ok()?;
    Kind::ALL
        .into_iter()
        .find(|k| k.protocols().engine_of(file.protocol).is_some())
}

/// Verifies a login proof against a registered identity. Errors: [`Error::BadInput`] for a
/// malformed proof or one of the wrong kind, [`Error::Rejected`] for one that does not verify.
/// Only non-interactive proofs are accepted (a recorded session can be simulated).
pub fn verify_login(
    id: &Identity,
    server: &str,
    user: &str,
    nonce: &[u8; 32],
    proof: &[u8],
) -> Result<()> {
    verify_login_accepting(id, server, user, nonce, proof, None)
}

/// The engine that made a login proof file, read from its protocol id; `None` when the bytes
/// are not a login proof file of any key kind. For reporting and for requests that do not
/// name their engine: verification reads the protocol id again and stays the judge.
pub fn login_engine(proof: &[u8]) -> Option<Engine> {
    let file = ProofFile::from_bytes(proof).ok()?;
    Kind::ALL
        .into_iter()
        .find_map(|k| k.protocols().engine_of(file.protocol))
}

/// [`verify_login`] accepting proofs of `only` engine (`None`: every engine); the proof
/// file's protocol names the engine. A proof of an engine not accepted is rejected.
pub fn verify_login_accepting(
    id: &Identity,
    server: &str,
    user: &str,
    nonce: &[u8; 32],
    proof: &[u8],
    only: Option<Engine>,
) -> Result<()> {
    let ctx = login_context(server, user, nonce)?;
    let file = ProofFile::from_bytes(proof)?;
    let req = Required::bits(LOGIN_SECURITY_BITS).only(only);
    req.check_engine(id.kind().protocols().engine(&file)?)?;
    if file.mode != Mode::NonInteractive {
        return Err(Error::bad(
            "a login proof must be non-interactive (Fiat–Shamir)",
        ));
    }
    check_login_shape(id, &file)?;
    verify_bound(id, &ctx, &file, &req)
}

/// Verifies a proof file of `id`'s kind bound to the context bytes `ctx` under `req`.
fn verify_bound(id: &Identity, ctx: &[u8], file: &ProofFile, req: &Required) -> Result<()> {
    match id {
        Identity::Sha256(d) => {
            mpc::sha256::verify(d, file, req, ctx).map_err(key_binds)?;
        }
        Identity::Peg(inst) => {
            zkgames_peg::mpc::verify(inst, file, req, ctx).map_err(key_binds)?;
        }
        Identity::Lowmc {
            plaintext,
            ciphertext,
        } => lowmc::verify_key(plaintext, ciphertext, file, req, ctx)?,
        Identity::Aes128 {
            plaintext,
            ciphertext,
        } => aes128::verify_key(plaintext, ciphertext, file, req, ctx)?,
    }
    Ok(())
}

/// A refusal of a `sha256` or `peg` key proof, naming what a key proof binds
/// ([`mpc::binds::KEY`]: identity, challenge, context) where the statement's own code names
/// what a preimage or a peg proof binds (a digest, a puzzle or start position); the
/// LowMC and AES-128 key statements name it themselves.
fn key_binds(e: Error) -> Error {
    /// How a peg proof of another instance starts (`zkgames_peg::mpc::verify`).
    const PEG_INSTANCE: &str =
        "the proof is for another instance: another puzzle or start position";
    match mpc::binds::name(e, mpc::binds::KEY) {
        Error::Rejected(m) if m.starts_with(PEG_INSTANCE) => Error::Rejected(m.replacen(
            PEG_INSTANCE,
            &format!(
                "made for another statement ({}): another peg identity",
                mpc::binds::KEY
            ),
            1,
        )),
        e => e,
    }
}

/// The bytes a `sha256` login proves a preimage of: [`ID_TAG`] and the 32-byte secret.
pub const LOGIN_PREIMAGE_LEN: usize = ID_TAG.len() + 32;

/// Before any work, a login proof must have the exact shape of an honest one
/// (docs/PROTOCOLS.md 5.7): the parameters of [`login_system`] for its engine and, for a
/// `sha256` key, a preimage of [`LOGIN_PREIMAGE_LEN`] bytes. Anything else (a 247-byte
/// preimage, a KKW set heavier than the login set) is refused at the cost of reading it.
fn check_login_shape(id: &Identity, file: &ProofFile) -> Result<()> {
    let proof = engine_proof(id, file)?;
    let sets = login_systems(proof.engine());
    if !sets.contains(&proof.system()) {
        return Err(Error::rejected(format!(
            "a login proof must use the login parameters ({})",
            sets.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", or ")
        )));
    }
    Ok(())
}

/// The engine's proof in `file`, read as `id`'s kind (a `sha256` login's preimage length
/// checked: [`LOGIN_PREIMAGE_LEN`]).
fn engine_proof(id: &Identity, file: &ProofFile) -> Result<EngineProof> {
    Ok(match id {
        Identity::Sha256(_) => {
            let (len, p): (u32, EngineProof) =
                EngineProof::read_file(&mpc::sha256::PROTOCOLS, file, "login proof")?;
            if len as usize != LOGIN_PREIMAGE_LEN {
                return Err(Error::rejected(format!(
                    "a login proof is for a {LOGIN_PREIMAGE_LEN}-byte preimage, not {len} bytes"
                )));
            }
            p
        }
        Identity::Peg(_) => zkgames_peg::mpc::read(file)?.1,
        Identity::Lowmc { .. } => {
            let ((), p): ((), EngineProof) =
                EngineProof::read_file(&lowmc::PROTOCOLS, file, "login proof")?;
            p
        }
        Identity::Aes128 { .. } => {
            let ((), p): ((), EngineProof) =
                EngineProof::read_file(&aes128::PROTOCOLS, file, "login proof")?;
            p
        }
    })
}

/// Reads and parses a key file.
pub fn read_key(path: &str) -> Result<SecretKey> {
    let text = read_text(path)?;
    SecretKey::parse(&text).map_err(|e| Error::bad(format!("{path}: {e}")))
}

/// Reads and parses an identity file.
pub fn read_identity(path: &str) -> Result<Identity> {
    let text = read_text(path)?;
    Identity::parse(&text).map_err(|e| Error::bad(format!("{path}: {e}")))
}

fn read_text(path: &str) -> Result<String> {
    let b = zkgames_core::proof_file::read_input(path, MAX_FILE_BYTES)?;
    String::from_utf8(b).map_err(|_| Error::bad(format!("{path}: not UTF-8 text")))
}

/// Creates `path` with `contents`, refusing to overwrite; `private` files get mode 0600 on
/// Unix (set at creation, so the secret is never readable by others).
pub fn write_new_file(path: &std::path::Path, contents: &str, private: bool) -> Result<()> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(if private { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut f = o.open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            Error::bad(format!(
                "{} exists: refusing to overwrite it",
                path.display()
            ))
        } else {
            Error::io(format!("cannot create {}", path.display()), e)
        }
    })?;
    f.write_all(contents.as_bytes())
        .and_then(|_| f.sync_all())
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn canonical_instance_round_trip_and_every_truncation_refused() {
        let mut rng = seeded_rng(1);
        for m in [1, 3, 8, 20] {
            let p = PlantParams::scaled(m);
            let inst = planted::plant(&p, &mut rng).unwrap().instance;
            let b = inst.canonical_bytes();
            assert_eq!(instance_from_canonical(&b).unwrap(), inst);
            for cut in 0..b.len() {
                assert!(instance_from_canonical(&b[..cut]).is_err());
            }
            let mut longer = b.clone();
            longer.push(0);
            assert!(instance_from_canonical(&longer).is_err());
        }
        let tee = zkgames_peg::instance::tee();
        let pc = Instance::new(
            5,
            tee.triplets().to_vec(),
            tee.first().to_vec(),
            Goal::PegCount(1),
        )
        .unwrap();
        for i in [tee, pc] {
            assert_eq!(instance_from_canonical(&i.canonical_bytes()).unwrap(), i);
            // every single-byte change either fails or decodes to a different instance
            let b = i.canonical_bytes();
            for k in 0..b.len() {
                let mut t = b.clone();
                t[k] ^= 0x01;
                if let Ok(j) = instance_from_canonical(&t) {
                    assert_ne!(j, i);
                    assert_eq!(j.canonical_bytes(), t);
                }
            }
        }
    }

    #[test]
    fn context_is_length_prefixed() {
        let n = [7u8; 32];
        let c = login_context("srv", "bob", &n).unwrap();
        let mut expect = Vec::new();
        for p in [&b"zkgames/auth/login/v1"[..], b"srv", b"bob", &n] {
            expect.extend_from_slice(&(p.len() as u32).to_le_bytes());
            expect.extend_from_slice(p);
        }
        assert_eq!(c, expect);
        // moving a byte from the server name to the user name changes the context
        assert_ne!(
            login_context("ab", "c", &n).unwrap(),
            login_context("a", "bc", &n).unwrap()
        );
        assert!(login_context("", "bob", &n).is_err());
        assert!(login_context("srv", "Bob", &n).is_err());
        assert!(login_context("a b", "bob", &n).is_err());
    }

    #[test]
    fn user_names() {
        for ok in ["a", "alice", "bob-2", "x.y_z", "0", &"a".repeat(32)] {
            check_user_name(ok).unwrap();
        }
        for bad in ["", "-a", ".a", "Alice", "a b", "é", "a/b", &"a".repeat(33)] {
            assert!(check_user_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sha256_identity_is_tagged_hash_and_one_block() {
        let s = [3u8; 32];
        let mut pre = ID_TAG.to_vec();
        pre.extend_from_slice(&s);
        assert_eq!(pre.len(), 54);
        assert_eq!(
            sha256_identity(&s).as_slice(),
            Sha256::digest(&pre).as_slice()
        );
        // one block: a 56-byte message needs two, and twice the AND gates
        let ands = |len| zkgames_mpc::sha256::sha256_circuit(len).unwrap().n_and();
        assert!(
            ands(54) < 23_000 && ands(56) > 35_000,
            "{} {}",
            ands(54),
            ands(56)
        );
    }

    #[test]
    fn text_round_trips() {
        let mut rng = seeded_rng(4);
        for k in [
            SecretKey::generate(Kind::Sha256, &mut rng).unwrap(),
            SecretKey::generate_peg(&PlantParams::scaled(6), &mut rng).unwrap(),
            SecretKey::generate(Kind::Peg, &mut rng).unwrap(),
            SecretKey::generate(Kind::Lowmc, &mut rng).unwrap(),
        ] {
            let t = k.to_text();
            assert_eq!(SecretKey::parse(&t).unwrap(), k);
            assert_eq!(SecretKey::parse(t.trim_end()).unwrap(), k);
            let id = k.identity();
            assert_eq!(Identity::parse(&id.to_text()).unwrap(), id);
            assert!(Identity::parse(&t).is_err());
            assert!(SecretKey::parse(&id.to_text()).is_err());
            assert!(!format!("{k:?}").contains(&t[25..40]));
        }
    }
}

#[cfg(test)]
mod lowmc_tests {
    use super::*;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn lowmc_text_is_strict() {
        let k = SecretKey::generate(Kind::Lowmc, &mut seeded_rng(7)).unwrap();
        let t = k.to_text();
        let id = k.identity().to_text();
        assert_eq!(t.split(' ').count(), 4);
        assert_eq!(t.trim_end().len(), KEY_HEADER.len() + 7 + 2 * 34 + 1);
        let f: Vec<&str> = t.trim_end().split(' ').collect();
        let g: Vec<&str> = id.trim_end().split(' ').collect();
        let bad = [
            format!("{} {} {}", f[0], f[1], f[2]),
            format!("{} {} {} {} 00", f[0], f[1], f[2], f[3]),
            format!("{} {} {}00 {}", f[0], f[1], f[2], f[3]),
            format!("{} {} {} {}", f[0], f[1], &f[2][2..], f[3]),
            format!("{} {} {} {}", f[0], f[1], f[2].to_uppercase(), f[3]),
            format!("{} {} {}02 {}", f[0], f[1], &f[2][..32], f[3]),
            format!("{} {} {} {}81", f[0], f[1], f[2], &f[3][..32]),
            format!("{} {} {}  {}", f[0], f[1], f[2], f[3]),
            format!("{} sha256 {} {}", f[0], f[2], f[3]),
        ];
        for b in &bad {
            let e = SecretKey::parse(b).unwrap_err().to_string();
            assert!(!e.contains('\n') && e.len() < 200, "{e}");
        }
        let bad_id = [
            format!("{} {} {}", g[0], g[1], g[2]),
            format!("{} {} {}02 {}", g[0], g[1], &g[2][..32], g[3]),
            format!("{} {} {} {}ff", g[0], g[1], g[2], &g[3][..32]),
            format!("{} {} {} {}0", g[0], g[1], g[2], g[3]),
        ];
        for b in &bad_id {
            assert!(Identity::parse(b).is_err(), "{b}");
        }
        assert_eq!(Identity::parse(&id).unwrap(), k.identity());
        // the top bit of the last byte is x_128: both values are valid, distinct keys
        for last in ["00", "80"] {
            let t = format!("{} {} {}{last} {}", f[0], f[1], &f[2][..32], f[3]);
            assert_eq!(SecretKey::parse(&t).unwrap().to_text().trim_end(), t);
        }
    }

    #[test]
    fn lowmc_logins_with_both_engines() {
        let mut rng = seeded_rng(8);
        let k = SecretKey::generate(Kind::Lowmc, &mut rng).unwrap();
        let id = k.identity();
        let n = [5u8; 32];
        for &e in Engine::ALL {
            let p = prove_login_with(&k, "srv", "bob", &n, e, &mut rng).unwrap();
            verify_login(&id, "srv", "bob", &n, &p).unwrap();
            verify_login_accepting(&id, "srv", "bob", &n, &p, Some(e)).unwrap();
            let other = Engine::ALL.iter().copied().find(|&o| o != e);
            assert!(verify_login_accepting(&id, "srv", "bob", &n, &p, other).is_err());
            if e == Engine::Kkw {
                assert!(p.len() <= 25_000, "KKW lowmc login is {} bytes", p.len());
            }
            // randomised, and the key's bytes appear nowhere in the proof
            let q = prove_login_with(&k, "srv", "bob", &n, e, &mut rng).unwrap();
            assert_ne!(p, q);
            let SecretKey::Lowmc { key, .. } = &k else {
                unreachable!()
            };
            let kb = lowmc::block_to_bytes(key);
            assert!(!p.windows(8).any(|w| w == &kb[..8] || w == &kb[8..16]));
        }
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;
    use zkgames_core::rng::seeded_rng;

    /// The bounds' largest identity is within [`max_identity_text`] (to the byte, with a
    /// `\r\n`), parses, and one more triplet is refused; the bound is what the request
    /// limits are computed from.
    #[test]
    fn the_largest_identity_fits_its_computed_bound() {
        let id = largest_peg_identity();
        let Identity::Peg(inst) = &id else {
            unreachable!()
        };
        assert_eq!(
            (inst.n(), inst.t(), inst.s()),
            (MAX_N, MAX_PEG_WITNESS_BITS, 2)
        );
        assert_eq!(inst.canonical_bytes().len(), max_peg_instance_bytes());
        // one move from a public start: only its one-hotness costs AND gates
        let ands = zkgames_peg::mpc::peg_circuit(inst).unwrap().0.n_and();
        assert_eq!(ands, MAX_PEG_WITNESS_BITS - 1);
        let text = id.to_text().replace('\n', "\r\n");
        assert_eq!(text.len(), max_identity_text());
        assert_eq!(Identity::parse(&text).unwrap(), id);
        assert!((max_identity_text() as u64) < MAX_FILE_BYTES);
        for k in Kind::ALL {
            let t = SecretKey::generate(k, &mut seeded_rng(7))
                .unwrap()
                .identity()
                .to_text();
            assert!(t.replace('\n', "\r\n").len() <= max_identity_text(), "{k}");
        }
        // one triplet more: (S − 1)·T over the limit
        let mut tr = inst.triplets().to_vec();
        tr.push([3, 4, 5]);
        let mut last = vec![false; MAX_N];
        last[2] = true;
        let more = Instance::new(MAX_N, tr, inst.first().to_vec(), Goal::Position(last)).unwrap();
        let e = Identity::parse(&Identity::Peg(more).to_text()).unwrap_err();
        assert!(e.to_string().contains("peg identity too large"), "{e}");
    }

    /// An identity whose start is its finish (S = 1) holds no secret and is refused in one
    /// line whatever its size: up to 2^17 triplets, which (S − 1)·T = 0 would let through.
    #[test]
    fn identities_without_a_secret_are_refused() {
        let n = MAX_N;
        let mut b = PEG_INSTANCE_PREFIX.to_vec();
        b.extend_from_slice(&(n as u32).to_le_bytes());
        b.extend_from_slice(&(MAX_T as u32).to_le_bytes());
        for [x, y, z] in (1..n as u32)
            .flat_map(|j| (j + 1..n as u32).map(move |k| [j, 0, k]))
            .take(MAX_T)
        {
            for v in [x, y, z] {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        let mut f = vec![0u8; n / 8];
        f[0] = 0b11;
        for goal in [
            [&[0u8][..], &f].concat(),
            [&[1u8][..], &2u32.to_le_bytes()].concat(),
        ] {
            let mut bytes = b.clone();
            bytes.extend_from_slice(&f);
            bytes.extend_from_slice(&goal);
            let hex = hex::encode(&bytes);
            let errors = [
                Identity::parse(&format!("{ID_HEADER} peg {hex}\n")).err(),
                SecretKey::parse(&format!("{KEY_HEADER} peg {hex} \n")).err(),
            ];
            for e in errors {
                let m = e.expect("an identity with S = 1 was accepted").to_string();
                assert!(!m.contains('\n') && m.contains("pegs"), "{m}");
            }
        }
    }
}

#[cfg(test)]
mod proof_bound_tests {
    use super::*;
    use zkgames_core::rng::seeded_rng;

    /// An honest `peg` key of `moves` moves (`[3i, 3i+1, 3i+2]`) among `t` triplets on
    /// `MAX_N` cells (the others decoys through the last cell), the goal its final position.
    fn peg_key(moves: usize, t: usize) -> Instance {
        let n = MAX_N;
        let mid = (n - 1) as u32;
        let mut tr: Vec<[u32; 3]> = (0..moves as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        let lo = 3 * moves as u32;
        tr.extend(
            (lo..mid)
                .flat_map(|j| (j + 1..mid).map(move |k| [j, mid, k]))
                .take(t - moves),
        );
        let mut first = vec![false; n];
        let mut last = vec![false; n];
        for i in 0..moves {
            first[3 * i] = true;
            first[3 * i + 1] = true;
            last[3 * i + 2] = true;
        }
        Instance::new(n, tr, first, Goal::Position(last)).unwrap()
    }

    fn key_of(inst: Instance) -> SecretKey {
        let moves: Vec<u32> = (0..inst.s() as u32 - 1).collect();
        let idx: Vec<usize> = moves.iter().map(|&m| m as usize).collect();
        let solution = planted::play(&inst, &idx).unwrap();
        inst.check_solution(&solution).unwrap();
        SecretKey::Peg {
            instance: inst,
            moves,
            solution,
        }
    }

    /// Every kind's honest login proofs, with every engine, are within the kind's bound and
    /// the one bound; the fixed-shape kinds' ZKB++ proofs are within the input shares of the
    /// rounds that do not send them (an honest proof sends them in 2/3 of its rounds; the
    /// bound in all).
    #[test]
    fn honest_login_proofs_of_fixed_kinds_fit_the_bound() {
        let mut rng = seeded_rng(21);
        let n = [3u8; 32];
        for kind in [Kind::Sha256, Kind::Lowmc, Kind::Aes128] {
            let k = SecretKey::generate(kind, &mut rng).unwrap();
            let bound = max_login_proof_of(kind);
            assert!(bound <= max_login_proof(), "{kind}");
            for &e in Engine::ALL {
                let mine = login_head_bytes(kind, e)
                    + login_system(e).max_proof_bytes(&login_proof_shape(kind, e));
                assert!(mine <= bound);
                for _ in 0..2 {
                    let p = prove_login_with(&k, "srv", "bob", &n, e, &mut rng).unwrap();
                    assert!(p.len() <= mine, "{kind} {e}: {} > {mine}", p.len());
                    if e == Engine::Zkbpp {
                        let x2 = login_proof_shape(kind, e).inputs.div_ceil(8) + 1;
                        assert!(mine - p.len() <= login_rounds() / 2 * x2, "{kind}");
                    }
                }
            }
        }
        // the shapes do not depend on the public plaintext
        for &e in Engine::ALL {
            let p = aes128::random_bytes(&mut rng);
            let c = aes128::aes128_circuit(&p);
            let c = if e.native_inverses() { c } else { c.lowered() };
            assert_eq!(ProofShape::of(&c), login_proof_shape(Kind::Aes128, e));
            let b = lowmc::random_block(&mut rng);
            let c = lowmc::lowmc_circuit(&b);
            assert_eq!(ProofShape::of(&c), login_proof_shape(Kind::Lowmc, e));
        }
    }

    /// The largest honest `peg` key (two moves over 16,384 triplets: all `MAX_PEG_WITNESS_BITS`
    /// witness bits, within 2 of `MAX_PEG_AND_GATES`) logs in with every engine within the
    /// bound, and its ZKB++ proof, the longest of all kinds, is within 15 % of it (the
    /// rounds that do not send party 2's input share, a third of them); an identity of four
    /// moves over 8,192 triplets (as many witness bits, 81,917 AND gates) is refused.
    #[test]
    fn the_largest_peg_login_fits_the_bound_and_larger_are_refused() {
        let inst = peg_key(2, MAX_PEG_WITNESS_BITS / 2);
        let ands = zkgames_peg::mpc::peg_circuit(&inst).unwrap().0.n_and();
        assert!(
            ands <= MAX_PEG_AND_GATES && ands + 8 > MAX_PEG_AND_GATES,
            "{ands}"
        );
        assert_eq!((inst.s() - 1) * inst.t(), MAX_PEG_WITNESS_BITS);
        let id = Identity::Peg(inst.clone());
        assert_eq!(Identity::parse(&id.to_text()).unwrap(), id);
        let k = key_of(inst);
        let mut rng = seeded_rng(22);
        let n = [4u8; 32];
        let mut longest = 0;
        for &e in Engine::ALL {
            let p = prove_login_with(&k, "srv", "bob", &n, e, &mut rng).unwrap();
            verify_login(&id, "srv", "bob", &n, &p).unwrap();
            assert!(p.len() <= max_login_proof_of(Kind::Peg), "{e}: {}", p.len());
            longest = longest.max(p.len());
        }
        let bound = max_login_proof();
        assert_eq!(bound, max_login_proof_of(Kind::Peg));
        assert!(bound - longest < bound / 100 * 15, "{longest} of {bound}");
        let more = peg_key(4, MAX_PEG_WITNESS_BITS / 4);
        assert_eq!((more.s() - 1) * more.t(), MAX_PEG_WITNESS_BITS);
        let e = Identity::parse(&Identity::Peg(more).to_text()).unwrap_err();
        let m = e.to_string();
        assert!(m.contains("AND gates") && !m.contains('\n'), "{m}");
        // keys are far within: a KEYGEN key's circuit
        let kg = SecretKey::generate(Kind::Peg, &mut rng).unwrap();
        let SecretKey::Peg { instance, .. } = &kg else {
            unreachable!()
        };
        let kg_ands = zkgames_peg::mpc::peg_circuit(instance).unwrap().0.n_and();
        assert!(kg_ands < MAX_PEG_AND_GATES * 2 / 3, "{kg_ands}");
    }
}
