//! AES-128 (FIPS 197): plain encryption (the reference), the encryption circuit of a public
//! plaintext with the key as witness and the ciphertext as output, and the proof of
//! knowledge of a key ([`prove_key`], [`verify_key`]) with every engine: FAEST's statement.
//!
//! **The circuit.** Every S-box (16 per round for 10 rounds, 4 per round of the key
//! schedule: 200) is one inverted byte ([`Builder::gf256_inv`]) followed by AES's affine map
//! (linear, free); ShiftRows, MixColumns and AddRoundKey are XORs. The VOLE-in-the-head engine
//! proves each inverse as one relation `x·y = 1` over GF(2^8) ⊂ GF(2^128)
//! ([`super::vole::quicksilver`]). The S-boxes of rounds 1, 3, 5, 7 and 9 are *norm bytes*
//! ([`Builder::gf256_inv_norm`], FAEST v2's trick): VOLE commits 4 bits of each
//! (`x^-17 ∈ GF(2^4)`) and checks `x^-17 · x^16 · x = 1` at degree 3, and the next round's
//! S-boxes, whose inputs then have degree 2, check `x·y = 1` at degree 3 too. The witness is
//! the 128 key bits, 120 × 8 inverse bits and 80 × 4 norm bits, 1,408 bits (the last
//! round's 128 of them fixed by the ciphertext: 1,280 committed, FAEST v2's count). ZKB++ and KKW prove the same statement through the lowered circuit
//! ([`Circuit::lowered`]: 115 AND gates per S-box, 23,000 in all).
//!
//! **Zero S-box inputs.** The statement requires every S-box input to be non-zero (`x·y = 1`
//! has no solution for `x = 0`), as FAEST's does: keys for which some S-box input is zero on
//! the identity's plaintext cannot be proven, and key generation redraws them
//! ([`sbox_inputs_nonzero`]). For a uniformly random key and plaintext each of the 200 inputs
//! is close to uniform, so a key is kept with probability about `(255/256)^200 ≈ 0.457`: the
//! key space for a given plaintext shrinks by about 1.13 bits (2^128 → ≈ 2^126.9 keys).
//!
//! Bit conventions: byte `i` of the key, plaintext or ciphertext (FIPS 197 order) is circuit
//! input/output bits `8i … 8i + 7`, bit `j` of the byte (the coefficient of `x^j`) first.

use zkgames_core::details::{Details, Value};

use super::circuit::template::Template;
use super::circuit::{Bit, Builder, Circuit};
use super::engine::{Engine, Proof as EngineProof, Required, System};
use super::statement::Statement;
use zkgames_core::proof_file::ProofFile;
use zkgames_core::rng::Rng;
use zkgames_core::Result;

/// Bytes of a key or block.
pub const BYTES: usize = 16;
/// S-boxes of one encryption: 160 in the rounds, 40 in the key schedule.
pub const SBOXES: usize = 200;
/// Witness bits of the VOLE proof: the key, the inverses of the key schedule's S-boxes and
/// of rounds 2, 4, 6, 8 and 10, and the norms (4 bits) of rounds 1, 3, 5, 7 and 9.
pub const VOLE_WITNESS_BITS: usize = 128 + 8 * (SBOXES - 80) + 4 * 80;
/// Transcript label of proofs of knowledge of an AES-128 key.
pub const TAG: &[u8] = b"zkgames/aes-128/key/v1";

const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// AES's affine map after the inverse: `b_i ⊕ b_{i+4} ⊕ b_{i+5} ⊕ b_{i+6} ⊕ b_{i+7} ⊕ c_i`
/// with `c = 0x63` (indices mod 8).
fn affine(b: u8) -> u8 {
    b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
}

/// The S-box.
pub fn sbox(x: u8) -> u8 {
    affine(super::circuit::gf256_inv(x))
}

fn xtime(b: u8) -> u8 {
    (b << 1) ^ if b & 0x80 != 0 { 0x1b } else { 0 }
}

/// Encryption, and every S-box input in the circuit's order (per key-schedule word, then per
/// round the 16 state bytes, interleaved as the circuit builds them).
fn encrypt_traced(key: &[u8; BYTES], pt: &[u8; BYTES]) -> ([u8; BYTES], Vec<u8>) {
    let mut inputs = Vec::with_capacity(SBOXES);
    let sb = |x: u8, inputs: &mut Vec<u8>| {
        inputs.push(x);
        sbox(x)
    };
    // key schedule: 44 words
    let mut w: Vec<[u8; 4]> = (0..4)
        .map(|i| [key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]])
        .collect();
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            t = [
                sb(t[1], &mut inputs) ^ RCON[i / 4 - 1],
                sb(t[2], &mut inputs),
                sb(t[3], &mut inputs),
                sb(t[0], &mut inputs),
            ];
        }
        let p = w[i - 4];
        w.push([p[0] ^ t[0], p[1] ^ t[1], p[2] ^ t[2], p[3] ^ t[3]]);
    }
    let rk = |r: usize, i: usize| w[4 * r + i / 4][i % 4];
    let mut s: [u8; BYTES] = std::array::from_fn(|i| pt[i] ^ rk(0, i));
    for r in 1..=10 {
        let sub: [u8; BYTES] = std::array::from_fn(|i| sb(s[i], &mut inputs));
        // ShiftRows: byte (row, col) = index row + 4 col takes (row, col + row)
        let shifted: [u8; BYTES] = std::array::from_fn(|i| {
            let (row, col) = (i % 4, i / 4);
            sub[row + 4 * ((col + row) % 4)]
        });
        s = if r < 10 {
            mix_columns(&shifted)
        } else {
            shifted
        };
        for (i, x) in s.iter_mut().enumerate() {
            *x ^= rk(r, i);
        }
    }
    (s, inputs)
}

fn mix_columns(s: &[u8; BYTES]) -> [u8; BYTES] {
    let mut o = [0u8; BYTES];
    for c in 0..4 {
        let a = &s[4 * c..4 * c + 4];
        for r in 0..4 {
            // 2·a_r ⊕ 3·a_{r+1} ⊕ a_{r+2} ⊕ a_{r+3}
            let (a0, a1, a2, a3) = (a[r], a[(r + 1) % 4], a[(r + 2) % 4], a[(r + 3) % 4]);
            o[4 * c + r] = xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3;
        }
    }
    o
}

/// AES-128 encryption of `pt` under `key`.
pub fn encrypt(key: &[u8; BYTES], pt: &[u8; BYTES]) -> [u8; BYTES] {
    encrypt_traced(key, pt).0
}

/// Whether every S-box input of the encryption of `pt` under `key` is non-zero: only then
/// can the key be proven (the module's documentation).
pub fn sbox_inputs_nonzero(key: &[u8; BYTES], pt: &[u8; BYTES]) -> bool {
    encrypt_traced(key, pt).1.iter().all(|&x| x != 0)
}

type Byte = [Bit; 8];

fn const_byte(v: u8) -> Byte {
    std::array::from_fn(|j| Bit::Const((v >> j) & 1 == 1))
}

fn xor_b(b: &mut Builder, x: &Byte, y: &Byte) -> Byte {
    std::array::from_fn(|j| b.xor(x[j], y[j]))
}

/// The S-box as a circuit: one inverted byte (committed by its norm if `norm`), then the
/// affine map (XORs, the constant folded).
fn sbox_c(b: &mut Builder, x: &Byte, norm: bool) -> Byte {
    let y = if norm {
        b.gf256_inv_norm(x)
    } else {
        b.gf256_inv(x)
    };
    std::array::from_fn(|i| {
        let mut acc = Bit::Const((0x63 >> i) & 1 == 1);
        for k in [0, 4, 5, 6, 7] {
            acc = b.xor(acc, y[(i + k) % 8]);
        }
        acc
    })
}

fn xtime_c(b: &mut Builder, x: &Byte) -> Byte {
    // shift left; the carried-out top bit adds 0x1b = bits 0, 1, 3, 4
    std::array::from_fn(|j| {
        let s = if j == 0 { Bit::Const(false) } else { x[j - 1] };
        if matches!(j, 0 | 1 | 3 | 4) {
            b.xor(s, x[7])
        } else {
            s
        }
    })
}

/// The encryption circuit of plaintext `pt`: 128 input bits (the key), 128 outputs (the
/// ciphertext), 200 inverted bytes (80 of them norm bytes) and no AND gate.
///
/// The gates of [`build_circuit`] (tested on random plaintexts), relocated from the all-ones
/// plaintext's circuit ([`Template`]): the plaintext only decides which bits of the first
/// AddRoundKey are NOT gates. It is bound by `SHA-256("zkg:aes128:circuit:v1" ‖ D_T ‖ pt)`,
/// `D_T` the template's canonical digest (docs/PROTOCOLS.md 3.9), in the same time for
/// every plaintext.
pub fn aes128_circuit(pt: &[u8; BYTES]) -> Circuit {
    let t = template();
    t.instantiate(
        |i| (pt[i / 8] >> (i % 8)) & 1 == 1,
        t.digest_of(CIRCUIT_DIGEST_TAG, pt),
    )
}

/// Domain tag of the digest that binds [`aes128_circuit`].
pub const CIRCUIT_DIGEST_TAG: &[u8] = b"zkg:aes128:circuit:v1";

/// The template, read from the file generated from [`built_template`] (compiled in; its
/// test compares the two): no build, check or hash of the circuit at start-up.
fn template() -> &'static Template {
    static T: Template = crate::circuit::template::frozen::frozen_template!(TEMPLATE_FILE);
    &T
}

/// [`built_template`] as generated into `crates/mpc/src/aes128/template.gates`.
const TEMPLATE_FILE: &[u8] = include_bytes!("aes128/template.gates");

/// The template as its definition builds it: the all-ones plaintext's circuit.
#[cfg_attr(not(test), allow(dead_code))]
fn built_template() -> Template {
    let (c, layer) = build(&[0xff; BYTES]);
    Template::new(c, layer, 8 * BYTES)
}

/// The encryption circuit of plaintext `pt`, built gate by gate (the definition, 3.9;
/// [`aes128_circuit`] relocates it), bound by its canonical digest.
pub fn build_circuit(pt: &[u8; BYTES]) -> Circuit {
    build(pt).0
}

/// [`build_circuit`] and the index of the first AddRoundKey's first gate.
fn build(pt: &[u8; BYTES]) -> (Circuit, usize) {
    let mut b = Builder::new(128);
    let key: Vec<Byte> = (0..BYTES)
        .map(|i| std::array::from_fn(|j| b.input(8 * i + j)))
        .collect();
    let mut w: Vec<[Byte; 4]> = (0..4)
        .map(|i| std::array::from_fn(|k| key[4 * i + k]))
        .collect();
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            let s1 = sbox_c(&mut b, &t[1], false);
            let s2 = sbox_c(&mut b, &t[2], false);
            let s3 = sbox_c(&mut b, &t[3], false);
            let s0 = sbox_c(&mut b, &t[0], false);
            let r = const_byte(RCON[i / 4 - 1]);
            t = [xor_b(&mut b, &s1, &r), s2, s3, s0];
        }
        let p = w[i - 4];
        let nw: [Byte; 4] = std::array::from_fn(|k| xor_b(&mut b, &p[k], &t[k]));
        w.push(nw);
    }
    let rk = |r: usize, i: usize| w[4 * r + i / 4][i % 4];
    let layer = b.n_gates();
    let mut s: Vec<Byte> = (0..BYTES)
        .map(|i| xor_b(&mut b, &const_byte(pt[i]), &rk(0, i)))
        .collect();
    for r in 1..=10 {
        // odd rounds by their norm: their inputs have degree 1 (the key, or the committed
        // inverses of the round before and a round key)
        let sub: Vec<Byte> = s.iter().map(|x| sbox_c(&mut b, x, r % 2 == 1)).collect();
        let shifted: Vec<Byte> = (0..BYTES)
            .map(|i| {
                let (row, col) = (i % 4, i / 4);
                sub[row + 4 * ((col + row) % 4)]
            })
            .collect();
        s = if r < 10 {
            let mut o = Vec::with_capacity(BYTES);
            for c in 0..4 {
                for row in 0..4 {
                    let a: [Byte; 4] = std::array::from_fn(|k| shifted[4 * c + (row + k) % 4]);
                    let t0 = xtime_c(&mut b, &a[0]);
                    let t1 = xtime_c(&mut b, &a[1]);
                    let x = xor_b(&mut b, &t0, &t1);
                    let x = xor_b(&mut b, &x, &a[1]);
                    let x = xor_b(&mut b, &x, &a[2]);
                    o.push(xor_b(&mut b, &x, &a[3]));
                }
            }
            o
        } else {
            shifted
        };
        s = (0..BYTES)
            .map(|i| xor_b(&mut b, &s[i], &rk(r, i)))
            .collect();
    }
    for x in &s {
        b.output_word(x);
    }
    (b.finish(), layer)
}

/// The bits of 16 bytes, bit 0 of byte 0 first.
pub fn bytes_bits(x: &[u8; BYTES]) -> Vec<bool> {
    (0..8 * BYTES)
        .map(|i| (x[i / 8] >> (i % 8)) & 1 == 1)
        .collect()
}

/// A uniformly random 16-byte value.
pub fn random_bytes(rng: &mut Rng) -> [u8; BYTES] {
    use rand::RngCore as _;
    let mut x = [0u8; BYTES];
    rng.fill_bytes(&mut x);
    x
}

/// The public side of "I know `k` with `AES-128_k(pt) = ct`", for one engine: the circuit
/// with inverted bytes for VOLE-in-the-head, its lowering for ZKB++ and KKW.
///
/// Built afresh for every statement, never taken from a memo, as LowMC's (the plaintext is
/// the identity: a memo hit would tell a login server's timing who is registered).
struct KeyStatement {
    circuit: Circuit,
    output: Vec<bool>,
    public: Vec<u8>,
}

impl KeyStatement {
    fn new(pt: &[u8; BYTES], ct: &[u8; BYTES], engine: Engine) -> Self {
        let mut public = b"aes-128 plaintext".to_vec();
        public.extend_from_slice(pt);
        let c = aes128_circuit(pt);
        let y = bytes_bits(ct);
        let (circuit, output) = if engine.native_inverses() {
            (c, y)
        } else {
            let out = c.lowered_output(&y);
            (c.lowered(), out)
        };
        KeyStatement {
            circuit,
            output,
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
    /// AES-128 key proofs' protocol ids: 14 (ZKB++), 15 (KKW), 16 (VOLE-in-the-head); the body
    /// is the engine's proof alone, non-interactive.
    pub PROTOCOLS = "an AES-128 key proof", "AES-128 key",
    {
        Zkbpp: AES128_MPC = 14,
        Kkw: AES128_KKW = 15,
        Vole: AES128_VOLE = 16,
    }
}

/// Proves knowledge of `key` with `AES-128_key(pt) = ct` for `ct = encrypt(key, pt)`, bound
/// to `context`: the bytes of a non-interactive proof file ([`PROTOCOLS`]). Refuses (bad
/// input) a key with a zero S-box input on `pt`.
pub fn prove_key(
    key: &[u8; BYTES],
    pt: &[u8; BYTES],
    system: &System,
    context: &[u8],
    rng: &mut Rng,
) -> Result<Vec<u8>> {
    let ct = encrypt(key, pt);
    let st = KeyStatement::new(pt, &ct, system.engine());
    let mut w = bytes_bits(key);
    let proof = system.prove(&st.with(context), &w, rng);
    w.fill(false);
    proof?.file_bytes(&PROTOCOLS, &())
}

/// Verifies a proof of knowledge of a key mapping `pt` to `ct`, under `req`; the file's
/// protocol names the engine.
pub fn verify_key(
    pt: &[u8; BYTES],
    ct: &[u8; BYTES],
    file: &ProofFile,
    req: &Required,
    context: &[u8],
) -> Result<()> {
    let ((), proof) = EngineProof::read_file(&PROTOCOLS, file, "AES-128 key proof")?;
    req.check_engine(proof.engine())?;
    let st = KeyStatement::new(pt, ct, proof.engine());
    proof
        .verify(&st.with(context), req)
        .map_err(|e| super::binds::name(e, super::binds::KEY))
}

/// Summary lines of an AES-128 key proof file (no verification).
pub fn inspect(file: &ProofFile) -> Result<Details> {
    let ((), proof) = EngineProof::read_file(&PROTOCOLS, file, "AES-128 key proof")?;
    Ok(Details::new()
        .text(
            "circuit",
            format!("AES-128 (FIPS 197), {SBOXES} S-boxes (VOLE: one GF(2^8) inverse each; ZKB++/KKW: 115 AND gates each)"),
        )
        .also("S-boxes", Value::Count(SBOXES as u64))
        .text("system", proof.system().to_string()))
}

#[cfg(test)]
mod tests;
