//! LowMC (Albrecht et al., EUROCRYPT 2015) with blocks and keys of n = k = 129 bits,
//! s = 43 S-boxes per round (a full S-box layer) and r = 4 rounds: Picnic3-L1's parameters,
//! 516 AND gates. Plain evaluation (the reference), the circuit (the key is the witness, the
//! plaintext a public constant folded into the circuit, the ciphertext the output), and the
//! proof of knowledge of a key ([`prove_key`], [`verify_key`]) with either engine.
//!
//! **Constants.** The linear layers, round constants and round-key matrices are those of
//! the LowMC reference code, hence Picnic's: bits of the Grain LFSR run as a self-shrinking
//! generator ([`Grain`]), drawn in the order `L_1..L_4`, `C_1..C_4`, `K_0..K_4`, each matrix
//! row by row and redrawn until invertible. The instance reproduces the eight LowMC-129-129-4
//! known-answer vectors of Picnic's optimized implementation (tested).
//!
//! Bit conventions (Picnic's): a 129-bit value is a vector `x_0..x_128`; as 17 bytes, `x_i`
//! is bit `7 − i mod 8` (most significant first) of byte `⌊i/8⌋`, and the 7 low bits of the
//! last byte are zero ([`block_to_bytes`]). In memory a [`Block`] (`[u64; 3]`) holds `x_i`
//! in bit `i mod 64` of word `⌊i/64⌋`. Circuit input/output wire `i` is `x_i`.
//!
//! The S-box on each triple `(a, b, c) = (x_{3j+2}, x_{3j+1}, x_{3j})`, `j = 0..43`, is the
//! LowMC paper's `S(a, b, c) = (a ⊕ bc, a ⊕ b ⊕ ca, a ⊕ b ⊕ c ⊕ ab)`, written back to the
//! same positions (`a` to `x_{3j+2}`, ...).
//!
//! Encryption: `x = p ⊕ K_0·k`; then for `i = 1..=4`: `x = S(x)`, `x = L_i·x`, `x = x ⊕ C_i`,
//! `x = x ⊕ K_i·k`. A matrix times a vector: `y_j = ⊕_c M[j][c]·x_c`.

use std::sync::OnceLock;
use zkgames_core::details::{Details, Value};

use super::circuit::template::Template;
use super::circuit::{Bit, Builder, Circuit, Gate};
use super::engine::{Proof as EngineProof, Required, System};
use super::statement::Statement;
use zkgames_core::proof_file::ProofFile;
use zkgames_core::rng::Rng;
use zkgames_core::Error;
use zkgames_core::Result;

/// Block size in bits.
pub const N: usize = 129;
/// Key size in bits.
pub const KEY_BITS: usize = 129;
/// S-boxes per round.
pub const SBOXES: usize = 43;
/// Rounds.
pub const ROUNDS: usize = 4;
/// AND gates of the circuit: 3 per S-box.
pub const AND_GATES: usize = 3 * SBOXES * ROUNDS;
/// Bytes of a block or key: 17 (129 bits, 7 zero padding bits).
pub const BYTES: usize = 17;
/// Transcript label of proofs of knowledge of a LowMC key.
pub const TAG: &[u8] = b"zkgames/lowmc-129-129-43-4/key/v1";

/// A 129-bit value.
pub type Block = [u64; 3];

/// A 129 × 129 matrix over GF(2): row `j` is a [`Block`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    pub rows: Vec<Block>,
}

fn bit(x: &Block, i: usize) -> bool {
    (x[i / 64] >> (i % 64)) & 1 == 1
}

fn set(x: &mut Block, i: usize, v: bool) {
    if v {
        x[i / 64] |= 1 << (i % 64);
    } else {
        x[i / 64] &= !(1 << (i % 64));
    }
}

fn xor(a: &Block, b: &Block) -> Block {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2]]
}

impl Matrix {
    /// `M·x`.
    pub fn mul(&self, x: &Block) -> Block {
        let mut y = [0u64; 3];
        for (j, r) in self.rows.iter().enumerate() {
            let p = (r[0] & x[0]).count_ones()
                + (r[1] & x[1]).count_ones()
                + (r[2] & x[2]).count_ones();
            set(&mut y, j, p & 1 == 1);
        }
        y
    }

    /// Rank over GF(2) (Gaussian elimination on the rows).
    pub fn rank(&self) -> usize {
        let mut rows = self.rows.clone();
        let mut rank = 0;
        for c in 0..N {
            let Some(p) = (rank..rows.len()).find(|&i| bit(&rows[i], c)) else {
                continue;
            };
            rows.swap(rank, p);
            let pivot = rows[rank];
            for (i, r) in rows.iter_mut().enumerate() {
                if i != rank && bit(r, c) {
                    *r = xor(r, &pivot);
                }
            }
            rank += 1;
        }
        rank
    }
}

/// The Grain LFSR of the LowMC reference code (80 bits, all ones at the start, feedback
/// `s_i ⊕= s_{i+13} ⊕ s_{i+23} ⊕ s_{i+38} ⊕ s_{i+51} ⊕ s_{i+62}` at a rotating index `i`,
/// indices mod 80), run as a self-shrinking generator after discarding 160 steps: of each
/// pair of steps, the second step's bit is output iff the first step's bit is 1.
pub struct Grain {
    state: [bool; 80],
    index: usize,
}

impl Grain {
    pub fn new() -> Self {
        let mut g = Grain {
            state: [true; 80],
            index: 0,
        };
        for _ in 0..160 {
            g.step();
        }
        g
    }
    /// Updates the bit at the index, returns it, and moves the index on.
    fn step(&mut self) -> bool {
        let i = self.index;
        let s = &self.state;
        let v = s[i]
            ^ s[(i + 13) % 80]
            ^ s[(i + 23) % 80]
            ^ s[(i + 38) % 80]
            ^ s[(i + 51) % 80]
            ^ s[(i + 62) % 80];
        self.state[i] = v;
        self.index = (i + 1) % 80;
        v
    }
    pub fn next_bit(&mut self) -> bool {
        loop {
            let choice = self.step();
            let out = self.step();
            if choice {
                return out;
            }
        }
    }
    fn block(&mut self) -> Block {
        let mut x = [0u64; 3];
        for i in 0..N {
            set(&mut x, i, self.next_bit());
        }
        x
    }
    /// Matrices of 129 rows of 129 bits (row 0 first, column 0 first in a row), drawn until
    /// one is invertible.
    fn invertible_matrix(&mut self) -> Matrix {
        loop {
            let m = Matrix {
                rows: (0..N).map(|_| self.block()).collect(),
            };
            if m.rank() == N {
                return m;
            }
        }
    }
}

impl Default for Grain {
    fn default() -> Self {
        Self::new()
    }
}

/// The public constants of the instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constants {
    /// `L_1..L_4` (index 0 is `L_1`).
    pub linear: Vec<Matrix>,
    /// `K_0..K_4`.
    pub key: Vec<Matrix>,
    /// `C_1..C_4` (index 0 is `C_1`).
    pub round_const: Vec<Block>,
}

impl Constants {
    /// Derives the constants from one [`Grain`] stream: `L_1..L_4` (each the next invertible
    /// matrix), `C_1..C_4` (129 bits each), `K_0..K_4` (each the next invertible matrix).
    pub fn generate() -> Constants {
        let mut g = Grain::new();
        let linear = (0..ROUNDS).map(|_| g.invertible_matrix()).collect();
        let round_const = (0..ROUNDS).map(|_| g.block()).collect();
        let key = (0..=ROUNDS).map(|_| g.invertible_matrix()).collect();
        Constants {
            linear,
            key,
            round_const,
        }
    }
}

/// The constants, generated once.
pub fn constants() -> &'static Constants {
    static C: OnceLock<Constants> = OnceLock::new();
    C.get_or_init(Constants::generate)
}

fn sbox_layer(x: &Block) -> Block {
    let mut y = *x;
    for j in 0..SBOXES {
        let (a, b, c) = (bit(x, 3 * j + 2), bit(x, 3 * j + 1), bit(x, 3 * j));
        set(&mut y, 3 * j + 2, a ^ (b & c));
        set(&mut y, 3 * j + 1, a ^ b ^ (c & a));
        set(&mut y, 3 * j, a ^ b ^ c ^ (a & b));
    }
    y
}

/// Plain encryption of `p` under `key` (the reference).
pub fn encrypt(key: &Block, p: &Block) -> Block {
    let c = constants();
    let mut x = xor(p, &c.key[0].mul(key));
    for i in 0..ROUNDS {
        x = sbox_layer(&x);
        x = c.linear[i].mul(&x);
        x = xor(&x, &c.round_const[i]);
        x = xor(&x, &c.key[i + 1].mul(key));
    }
    x
}

/// `M·x` for every matrix of `ms` (all applied to the same `x`), by the method of the four
/// Russians: the columns in groups of `g` (the last group shorter), each group's XOR
/// combinations of its columns made once, on first use, and shared by every row of every
/// matrix; row `j` is then the XOR chain, from the constant 0, of its groups' combinations
/// (groups in order, a zero combination skipped). Combination `v` of group `q` (bit `i` of
/// `v` selects column `g·q + i`) is `x` of that column when `v` has one bit, else
/// `comb(q, v & (v − 1)) ⊕ x_{g·q + tz(v)}` (the combination without its lowest bit, made
/// first if needed, then that bit's column). A linear layer takes about 3,800 XOR gates
/// with `g = 5` instead of 8,300 as one chain per row; the five round keys share one set of
/// tables of `g = 8` (13,758 gates instead of about 41,600). The gates' order is part of
/// the circuit's definition (docs/PROTOCOLS.md 3.9).
fn mul_grouped(b: &mut Builder, ms: &[&Matrix], x: &[Bit], g: usize) -> Vec<Vec<Bit>> {
    let groups = x.len().div_ceil(g);
    let mut comb: Vec<Vec<Option<Bit>>> = vec![vec![None; 1 << g]; groups];
    fn get(
        b: &mut Builder,
        comb: &mut [Vec<Option<Bit>>],
        x: &[Bit],
        g: usize,
        q: usize,
        v: usize,
    ) -> Bit {
        if let Some(w) = comb[q][v] {
            return w;
        }
        let low = v.trailing_zeros() as usize;
        let w = if v & (v - 1) == 0 {
            x[g * q + low]
        } else {
            let rest = get(b, comb, x, g, q, v & (v - 1));
            b.xor(rest, x[g * q + low])
        };
        comb[q][v] = Some(w);
        w
    }
    ms.iter()
        .map(|m| {
            m.rows
                .iter()
                .map(|r| {
                    let mut acc = Bit::Const(false);
                    for q in 0..groups {
                        let v = (0..g)
                            .filter(|&i| g * q + i < x.len() && bit(r, g * q + i))
                            .fold(0usize, |v, i| v | (1 << i));
                        if v != 0 {
                            let w = get(b, &mut comb, x, g, q, v);
                            acc = b.xor(acc, w);
                        }
                    }
                    acc
                })
                .collect()
        })
        .collect()
}

/// Column group width of the linear layers' products ([`mul_grouped`]).
const LINEAR_GROUP: usize = 5;
/// Column group width of the round keys' products.
const KEY_GROUP: usize = 8;

/// The encryption circuit of plaintext `p`: 129 input bits (the key), 129 outputs (the
/// ciphertext), [`AND_GATES`] AND gates.
///
/// The same gates as [`build_circuit`] (tested on random plaintexts), relocated from one
/// template instead of rebuilt: the plaintext only decides which of the first layer's 129
/// `x_i = p_i ⊕ (K_0·k)_i` is a NOT gate, so the circuit of the all-ones plaintext (every
/// `x_i` a NOT) is built once and each circuit drops the NOTs of the zero bits of `p`,
/// renumbering the wires after them. Building the 31,000 gates from the matrices takes
/// longer than a whole speed-set VOLE proof (the combinations' tables); the relocation is
/// one pass over the gates, a twentieth of that. The
/// time is the same for every plaintext (one pass, one digest), so a verifier's time does
/// not tell which identity it checked.
pub fn lowmc_circuit(p: &Block) -> Circuit {
    template().instantiate(|i| bit(p, i), circuit_digest(p))
}

/// Domain tag of [`circuit_digest`].
pub const CIRCUIT_DIGEST_TAG: &[u8] = b"zkg:lowmc:circuit:v1";

/// The digest a LowMC circuit is bound by (docs/PROTOCOLS.md 3.9):
/// `SHA-256("zkg:lowmc:circuit:v1" ‖ D_T ‖ p)`, where `D_T` is the canonical digest (3.1)
/// of the all-ones plaintext's circuit (the template) and `p` the plaintext's 17 bytes.
///
/// Why not the circuit's own canonical digest: hashing the gates (680 KB before the
/// grouped products, 280 KB after) took a fifth of a speed-set VOLE proof; the circuit of `p` is a public function of the template and `p`
/// (the relocation of [`lowmc_circuit`]), so binding both binds the circuit, and `p` is in
/// the statement's public bytes as well. The cost is the same for every plaintext.
pub fn circuit_digest(p: &Block) -> zkgames_core::commit::Digest {
    template().digest_of(CIRCUIT_DIGEST_TAG, &block_to_bytes(p))
}

/// The all-ones plaintext's circuit, whose first layer (the 129 NOTs of `p ⊕ K_0·k`) follows
/// the XOR gates of `K_0·k`, which has no NOT.
///
/// Read from the file generated from [`built_template`] (compiled in; its test compares the
/// two): no build, check or hash of the circuit at start-up.
fn template() -> &'static Template {
    static T: Template = crate::circuit::template::frozen::frozen_template!(TEMPLATE_FILE);
    &T
}

/// [`built_template`] as generated into `crates/mpc/src/lowmc_template.gates`.
const TEMPLATE_FILE: &[u8] = include_bytes!("lowmc_template.gates");

/// The template as its definition builds it.
#[cfg_attr(not(test), allow(dead_code))]
fn built_template() -> Template {
    let c = build_circuit(&[u64::MAX, u64::MAX, 1]);
    let first_not = c
        .gates()
        .iter()
        .position(|g| matches!(g, Gate::Not(_)))
        .expect("the first layer has NOT gates");
    Template::new(c, first_not, N)
}

/// The encryption circuit of plaintext `p`, built gate by gate from the matrices (the
/// definition; [`lowmc_circuit`] relocates it).
pub fn build_circuit(p: &Block) -> Circuit {
    let c = constants();
    let mut b = Builder::new(KEY_BITS);
    let key = b.input_word(0, KEY_BITS);
    let keys: Vec<&Matrix> = c.key.iter().collect();
    let rks = mul_grouped(&mut b, &keys, &key, KEY_GROUP);
    let mut x: Vec<Bit> = (0..N)
        .map(|i| b.xor(Bit::Const(bit(p, i)), rks[0][i]))
        .collect();
    for i in 0..ROUNDS {
        for j in 0..SBOXES {
            let (a, bb, cc) = (x[3 * j + 2], x[3 * j + 1], x[3 * j]);
            let bc = b.and(bb, cc);
            let ca = b.and(cc, a);
            let ab = b.and(a, bb);
            let ab_ = b.xor(a, bb);
            x[3 * j + 2] = b.xor(a, bc);
            x[3 * j + 1] = b.xor(ab_, ca);
            let abc = b.xor(ab_, cc);
            x[3 * j] = b.xor(abc, ab);
        }
        x = mul_grouped(&mut b, &[&c.linear[i]], &x, LINEAR_GROUP).remove(0);
        x = (0..N)
            .map(|j| {
                let t = b.xor(x[j], Bit::Const(bit(&c.round_const[i], j)));
                b.xor(t, rks[i + 1][j])
            })
            .collect();
    }
    for o in x {
        b.output(o);
    }
    b.finish()
}

/// The 17 bytes of a block (most significant bit first).
pub fn block_to_bytes(x: &Block) -> [u8; BYTES] {
    let mut out = [0u8; BYTES];
    for i in 0..N {
        if bit(x, i) {
            out[i / 8] |= 0x80 >> (i % 8);
        }
    }
    out
}

/// Parses 17 bytes, refusing non-zero padding bits (the 7 low bits of the last byte), so every
/// block has one encoding.
pub fn block_from_bytes(b: &[u8], what: &str) -> Result<Block> {
    if b.len() != BYTES {
        return Err(Error::bad(format!(
            "{what}: {} bytes, expected {BYTES} (129 bits)",
            b.len()
        )));
    }
    if b[BYTES - 1] & 0x7f != 0 {
        return Err(Error::bad(format!(
            "{what}: the 7 low bits of the last byte must be zero"
        )));
    }
    let mut x = [0u64; 3];
    for i in 0..N {
        set(&mut x, i, (b[i / 8] << (i % 8)) & 0x80 != 0);
    }
    Ok(x)
}

/// A uniformly random block (129 bits from `rng`).
pub fn random_block(rng: &mut Rng) -> Block {
    use rand::RngCore as _;
    let mut x = [rng.next_u64(), rng.next_u64(), rng.next_u64()];
    x[2] &= 1;
    x
}

fn block_bits(x: &Block) -> Vec<bool> {
    (0..N).map(|i| bit(x, i)).collect()
}

/// The public side of "I know `k` with `LowMC_k(p) = c`".
///
/// The circuit is built afresh for every statement, never taken from a [`Memo`](super::circuit::Memo): its key
/// would be the plaintext, that is the identity, and a login server that verified a
/// registered user's proof faster or slower than a decoy's (login.rs) would tell who is
/// registered.
struct KeyStatement {
    circuit: Circuit,
    output: Vec<bool>,
    public: Vec<u8>,
}

impl KeyStatement {
    fn new(p: &Block, c: &Block) -> Self {
        let mut public = b"lowmc-129-129-43-4 plaintext".to_vec();
        public.extend_from_slice(&block_to_bytes(p));
        KeyStatement {
            circuit: lowmc_circuit(p),
            output: block_bits(c),
            public,
        }
    }
    fn with<'a>(&'a self, context: &'a [u8]) -> Statement<'a> {
        Statement {
            tag: TAG,
            circuit: &self.circuit,
            public: &self.public,
            output: &self.output,
            context,
        }
    }
}

crate::protocols! {
    /// LowMC key proofs' protocol ids: 8 (ZKB++), 9 (KKW), 13 (VOLE-in-the-head); the body is
    /// the engine's proof alone, non-interactive.
    pub PROTOCOLS = "a LowMC key proof", "LowMC key",
    {
        Zkbpp: LOWMC_MPC = 8,
        Kkw: LOWMC_KKW = 9,
        Vole: LOWMC_VOLE = 13,
    }
}

/// Proves knowledge of `key` with `LowMC_key(p) = c` for `c = encrypt(key, p)`, bound to
/// `context`: the bytes of a non-interactive proof file whose body is the engine's proof
/// ([`PROTOCOLS`]).
pub fn prove_key(
    key: &Block,
    p: &Block,
    system: &System,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let c = encrypt(key, p);
    let st = KeyStatement::new(p, &c);
    let mut w = block_bits(key);
    let proof = system.prove(&st.with(context), &w, rng);
    w.fill(false);
    proof?.file_bytes(&PROTOCOLS, &())
}

/// Verifies a proof of knowledge of a key mapping `p` to `c`, under `req`; the file's
/// protocol names the engine.
pub fn verify_key(
    p: &Block,
    c: &Block,
    file: &ProofFile,
    req: &Required,
    context: &[u8],
) -> Result<()> {
    let ((), proof) = EngineProof::read_file(&PROTOCOLS, file, "LowMC key proof")?;
    req.check_engine(proof.engine())?;
    let st = KeyStatement::new(p, c);
    proof
        .verify(&st.with(context), req)
        .map_err(|e| super::binds::name(e, super::binds::KEY))
}

/// Summary lines of a LowMC key proof file (no verification).
pub fn inspect(file: &ProofFile) -> Result<Details> {
    let ((), proof) = EngineProof::read_file(&PROTOCOLS, file, "LowMC key proof")?;
    Ok(Details::new()
        .text(
            "circuit",
            format!("LowMC-129-129-43-4 (Picnic's instance), {AND_GATES} AND gates"),
        )
        .also("AND gates", Value::Count(AND_GATES as u64))
        .text("system", proof.system().to_string()))
}

#[cfg(test)]
mod tests {
    /// The compiled-in template is the builder's, byte for byte (issue 52).
    #[test]
    fn template_file_is_the_builders_lowmc() {
        crate::circuit::template::frozen::check_file(
            &super::built_template(),
            super::TEMPLATE_FILE,
            super::template(),
            "src/lowmc_template.gates",
        );
    }

    use super::*;
    use crate::engine::Engine;
    use zkgames_core::rng::seeded_rng;

    /// Rank by an independent elimination: columns as `Vec<bool>`, eliminating downwards
    /// column by column on a transposed copy.
    fn rank_independent(m: &Matrix) -> usize {
        let mut a: Vec<Vec<bool>> = (0..N)
            .map(|c| (0..N).map(|j| bit(&m.rows[j], c)).collect())
            .collect();
        let mut r = 0;
        for col in 0..N {
            if let Some(p) = (r..N).find(|&i| a[i][col]) {
                a.swap(r, p);
                let pivot = a[r].clone();
                for row in a.iter_mut().skip(r + 1) {
                    if row[col] {
                        for (x, y) in row[col..].iter_mut().zip(&pivot[col..]) {
                            *x ^= y;
                        }
                    }
                }
                r += 1;
            }
        }
        r
    }

    #[test]
    fn matrices_are_invertible_and_constants_reproducible() {
        let c = constants();
        assert_eq!(c.linear.len(), ROUNDS);
        assert_eq!(c.key.len(), ROUNDS + 1);
        for m in c.linear.iter().chain(&c.key) {
            assert_eq!(m.rows.len(), N);
            assert_eq!(rank_independent(m), N);
            assert!(m.rows.iter().all(|r| r[2] >> 1 == 0));
        }
        assert_eq!(&Constants::generate(), c);
        // all matrices distinct, constants not degenerate
        for i in 0..c.linear.len() {
            for j in 0..c.key.len() {
                assert_ne!(c.linear[i], c.key[j]);
            }
        }
        assert!(c.round_const.iter().all(|k| *k != [0; 3]));
    }

    /// The LowMC-129-129-4 known-answer vectors of Picnic's optimized implementation (key,
    /// plaintext, ciphertext as Picnic's byte strings), plain and as a circuit. Vectors 5 to
    /// 8 carry junk in the 7 unused bits of the key and plaintext, which Picnic ignores and
    /// which our strict parser refuses: they are masked here.
    #[test]
    fn picnic_known_answers() {
        const KAT: [[&str; 3]; 8] = [
            [
                "8000000000000000000000000000000000",
                "abff000000000000000000000000000000",
                "2fd7d5425ee35e667c972f12fb153e9d80",
            ],
            [
                "ab22425149aa612d7fff137220275b1680",
                "4b992353a60665bf992d035482c1d27900",
                "2a4062d835c593ea19f822ad242477d280",
            ],
            [
                "e73af29cfc7ae53e5220d31e2e5917da80",
                "304ba7a8de2b5cf887f9a48ab7561bf680",
                "5cd2c355328efde9f378c16123d33fb300",
            ],
            [
                "30f33488532d7eb8a5f8fb4f2e63ba5600",
                "c26a5df906158dcb6ac7891da9f49f7800",
                "0b43b65f7c535006cf27e86f551bd01580",
            ],
            [
                "80ab5d8b0890a0502030408010f0ff55cc",
                "abffddeeff112212135167fdbc1234988d",
                "7de8a8b2e50adb769dea99bd34a05d4f80",
            ],
            [
                "ef10fd048304af5d2132438415f6f758c9",
                "bdf1d2e3f415261718596afbbd1c3e9f8f",
                "c78dc49ed0cc1eaad790ce446ff3955480",
            ],
            [
                "b071c6d4a377e551254c5dc401a3d08acb",
                "99609f418a6b2e1ce8f9430ff5cf73179d",
                "ca4d6346613f0a5b44c0a9edb1a800d080",
            ],
            [
                "4448c70ac3863021be232c63381687cd5d",
                "efb50ba28d7b268e19727baebc679a667c",
                "5e050a9f730902038b9d1e49b15a910e80",
            ],
        ];
        for (t, [k, p, c]) in KAT.iter().enumerate() {
            let parse = |h: &str| {
                let mut b = hex::decode(h).unwrap();
                if t >= 4 {
                    assert!(block_from_bytes(&b, "x").is_err() || h.ends_with("80"));
                }
                b[BYTES - 1] &= 0x80;
                block_from_bytes(&b, "x").unwrap()
            };
            let (key, pt) = (parse(k), parse(p));
            let ct = encrypt(&key, &pt);
            assert_eq!(hex::encode(block_to_bytes(&ct)), *c, "vector {}", t + 1);
            let out = lowmc_circuit(&pt).eval(&block_bits(&key));
            assert_eq!(out, block_bits(&ct));
        }
    }

    #[test]
    fn fast_rank_agrees_with_independent_rank_on_random_matrices() {
        let mut rng = seeded_rng(11);
        for t in 0..40 {
            let mut m = Matrix {
                rows: (0..N).map(|_| random_block(&mut rng)).collect(),
            };
            // make some singular: copy or zero rows
            if t % 3 == 1 {
                m.rows[5] = m.rows[9];
            }
            if t % 3 == 2 {
                m.rows[7] = xor(&m.rows[1], &m.rows[2]);
                m.rows[100] = [0; 3];
            }
            assert_eq!(m.rank(), rank_independent(&m));
        }
    }

    /// The S-box against its algebraic normal form on all 8 inputs, and a permutation.
    #[test]
    fn sbox_is_the_papers_permutation() {
        let mut seen = [false; 8];
        for v in 0..8u64 {
            let (a, b, c) = (v & 4 == 4, v & 2 == 2, v & 1 == 1);
            let y = sbox_layer(&[v, 0, 0]);
            assert_eq!(bit(&y, 2), a ^ (b & c));
            assert_eq!(bit(&y, 1), a ^ b ^ (a & c));
            assert_eq!(bit(&y, 0), a ^ b ^ c ^ (a & b));
            seen[(y[0] & 7) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn circuit_equals_plain_on_random_keys() {
        let mut rng = seeded_rng(12);
        for t in 0..20 {
            let p = random_block(&mut rng);
            let circ = lowmc_circuit(&p);
            assert_eq!(circ.n_and(), AND_GATES);
            assert_eq!(circ.n_inputs(), KEY_BITS);
            assert_eq!(circ.n_outputs(), N);
            for _ in 0..if t == 0 { 200 } else { 10 } {
                let k = random_block(&mut rng);
                let out = circ.eval(&block_bits(&k));
                assert_eq!(out, block_bits(&encrypt(&k, &p)));
            }
        }
        assert_eq!(AND_GATES, 516);
    }

    /// Encryption is a permutation for a fixed key (L_i invertible, S-box bijective): an
    /// independent inverse recovers the plaintext.
    #[test]
    fn decryption_inverts_encryption() {
        fn inverse(m: &Matrix) -> Matrix {
            // Gauss–Jordan on [M | I]
            let mut a: Vec<(Block, Block)> = m
                .rows
                .iter()
                .enumerate()
                .map(|(j, r)| {
                    let mut e = [0; 3];
                    set(&mut e, j, true);
                    (*r, e)
                })
                .collect();
            for c in 0..N {
                let p = (c..N).find(|&i| bit(&a[i].0, c)).expect("invertible");
                a.swap(c, p);
                let pv = a[c];
                for (i, r) in a.iter_mut().enumerate() {
                    if i != c && bit(&r.0, c) {
                        *r = (xor(&r.0, &pv.0), xor(&r.1, &pv.1));
                    }
                }
            }
            Matrix {
                rows: a.into_iter().map(|r| r.1).collect(),
            }
        }
        fn inv_sbox(x: &Block) -> Block {
            let mut y = *x;
            for j in 0..SBOXES {
                let v = (0..8u64)
                    .find(|&v| {
                        let s = sbox_layer(&[v, 0, 0]);
                        (0..3).all(|t| bit(&s, t) == bit(x, 3 * j + t))
                    })
                    .unwrap();
                for t in 0..3 {
                    set(&mut y, 3 * j + t, (v >> t) & 1 == 1);
                }
            }
            y
        }
        let c = constants();
        let inv: Vec<Matrix> = c.linear.iter().map(inverse).collect();
        let mut rng = seeded_rng(13);
        for _ in 0..50 {
            let (k, p) = (random_block(&mut rng), random_block(&mut rng));
            let mut x = encrypt(&k, &p);
            for i in (0..ROUNDS).rev() {
                x = xor(&x, &c.key[i + 1].mul(&k));
                x = xor(&x, &c.round_const[i]);
                x = inv[i].mul(&x);
                x = inv_sbox(&x);
            }
            x = xor(&x, &c.key[0].mul(&k));
            assert_eq!(x, p);
        }
    }

    #[test]
    fn block_bytes_round_trip_and_padding_refused() {
        let mut rng = seeded_rng(14);
        for _ in 0..100 {
            let x = random_block(&mut rng);
            assert_eq!(block_from_bytes(&block_to_bytes(&x), "x").unwrap(), x);
        }
        let mut b = [0u8; BYTES];
        b[16] = 0x80;
        assert_eq!(block_from_bytes(&b, "x").unwrap(), [0, 0, 1]);
        b[0] = 0x80;
        assert_eq!(block_from_bytes(&b, "x").unwrap(), [1, 0, 1]);
        for low in 1..0x80 {
            b[16] = 0x80 | low;
            assert!(block_from_bytes(&b, "x").is_err());
        }
        assert!(block_from_bytes(&[0; 16], "x").is_err());
        assert!(block_from_bytes(&[0; 18], "x").is_err());
    }

    #[test]
    fn key_proofs_verify_and_tampering_is_refused() {
        let mut rng = seeded_rng(15);
        let (k, p) = (random_block(&mut rng), random_block(&mut rng));
        let c = encrypt(&k, &p);
        let req = Required::bits(128);
        for sys in [
            System::zkbpp(128),
            System::kkw(128, crate::kkw::Profile::Size).unwrap(),
        ] {
            let bytes = prove_key(&k, &p, &sys, b"ctx", &mut rng).unwrap();
            let f = ProofFile::from_bytes(&bytes).unwrap();
            verify_key(&p, &c, &f, &req, b"ctx").unwrap();
            assert!(verify_key(&p, &c, &f, &req, b"ctx2").is_err());
            let mut c2 = c;
            c2[0] ^= 1;
            assert!(verify_key(&p, &c2, &f, &req, b"ctx").is_err());
            let mut p2 = p;
            p2[1] ^= 4;
            assert!(verify_key(&p2, &c, &f, &req, b"ctx").is_err());
            // flipping bytes across the whole body
            let step = (f.body.len() / 97).max(1);
            for i in (0..f.body.len()).step_by(step) {
                let mut g = f.clone();
                g.body[i] ^= 0x20;
                assert!(verify_key(&p, &c, &g, &req, b"ctx").is_err(), "byte {i}");
            }
            if sys.engine() == Engine::Kkw {
                assert!(bytes.len() < 25_000, "{}", bytes.len());
            }
        }
    }

    #[test]
    fn a_wrong_key_cannot_prove() {
        let mut rng = seeded_rng(16);
        let (k, p) = (random_block(&mut rng), random_block(&mut rng));
        let c = encrypt(&k, &p);
        let st = KeyStatement::new(&p, &c);
        let mut w = block_bits(&k);
        w[3] = !w[3];
        assert!(System::zkbpp(128)
            .prove(&st.with(b""), &w, &mut rng)
            .is_err());
        // a cheater proving with the wrong key anyway (the engines' unchecked provers, which
        // claim the right ciphertext): rejected by both verifiers
        let req = Required::bits(128);
        let params = crate::kkw::params_for(128, crate::kkw::Profile::Size).unwrap();
        for seed in 0..5 {
            let mut r = seeded_rng(100 + seed);
            let z = crate::zkbpp::prove_unchecked(&st.with(b""), &w, 219, &mut r, &[]);
            assert!(EngineProof::Zkbpp(z).verify(&st.with(b""), &req).is_err());
            let k = crate::kkw::prove_unchecked(&st.with(b""), &w, params, &mut r, &[]).unwrap();
            assert!(EngineProof::Kkw(k).verify(&st.with(b""), &req).is_err());
        }
    }

    /// The grouped product ([`mul_grouped`]) against [`Matrix::mul`], for every group width
    /// from 1 to 8, several matrices sharing tables, on random matrices and inputs; and its
    /// XOR count against one chain per row.
    #[test]
    fn grouped_products_match_the_plain_product() {
        let mut rng = seeded_rng(23);
        for g in 1..=8 {
            let ms: Vec<Matrix> = (0..3)
                .map(|_| Matrix {
                    rows: (0..N).map(|_| random_block(&mut rng)).collect(),
                })
                .collect();
            let refs: Vec<&Matrix> = ms.iter().collect();
            let mut b = Builder::new(N);
            let x = b.input_word(0, N);
            let ys = mul_grouped(&mut b, &refs, &x, g);
            for y in &ys {
                for &o in y {
                    b.output(o);
                }
            }
            let c = b.finish();
            let dense: usize = ms
                .iter()
                .flat_map(|m| &m.rows)
                .map(|r| r.iter().map(|w| w.count_ones() as usize).sum::<usize>() - 1)
                .sum();
            if g >= 4 {
                assert!(
                    c.n_gates() < dense * 2 / 3,
                    "g = {g}: {} gates",
                    c.n_gates()
                );
            }
            for _ in 0..20 {
                let k = random_block(&mut rng);
                let out = c.eval(&block_bits(&k));
                let want: Vec<bool> = ms.iter().flat_map(|m| block_bits(&m.mul(&k))).collect();
                assert_eq!(out, want, "g = {g}");
            }
        }
    }

    /// The relocated circuit is the built one, gate for gate, output for output, on random
    /// plaintexts and on every one-bit, zero and all-ones plaintext; its digest is the
    /// derived one, recomputed here from the built template's canonical bytes.
    #[test]
    fn the_relocated_circuit_is_the_built_one() {
        let mut rng = seeded_rng(17);
        let mut ps: Vec<Block> = vec![[0, 0, 0], [u64::MAX, u64::MAX, 1]];
        ps.extend((0..N).map(|i| {
            let mut p = [0u64; 3];
            p[i / 64] |= 1 << (i % 64);
            p
        }));
        ps.extend((0..40).map(|_| random_block(&mut rng)));
        let t = build_circuit(&[u64::MAX, u64::MAX, 1]);
        for p in ps {
            let (a, b) = (lowmc_circuit(&p), build_circuit(&p));
            assert_eq!(a.gates(), b.gates(), "{p:?}");
            assert_eq!(a.outputs(), b.outputs(), "{p:?}");
            use sha2::Digest as _;
            let mut h = sha2::Sha256::new();
            h.update(b"zkg:lowmc:circuit:v1");
            h.update(sha2::Sha256::digest(t.canonical_bytes()));
            h.update(block_to_bytes(&p));
            let want: [u8; 32] = h.finalize().into();
            assert_eq!(a.digest(), want, "{p:?}");
            assert_ne!(
                a.digest(),
                b.digest(),
                "the derived digest is not the gates' hash"
            );
            assert_eq!(a.n_and(), AND_GATES);
        }
    }
}
