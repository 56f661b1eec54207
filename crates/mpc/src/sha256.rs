//! SHA-256 as a circuit (padding and compression, messages of up to [`MAX_PREIMAGE`] bytes),
//! and the proof of knowledge of a preimage built on it; [`seal_sha256`] / [`open_sha256`]
//! commit to a preimage of a published digest now and reveal it later.
//!
//! Bit conventions: input bit `8i + j` is bit `j` (least significant first) of message
//! byte `i`; output bit `8i + j` is bit `j` of digest byte `i`. Words inside the circuit are
//! LSB-first; SHA-256's big-endian byte order is handled when words are formed.
//!
//! The message length is public (it fixes the padding and the number of blocks): the
//! proof hides the content of the preimage, not its length.

use std::sync::Arc;
use zkgames_core::details::{Details, Value};

use super::circuit::{Bit, Builder, Circuit, Memo, Word};
use super::engine::{Proof as EngineProof, Required, System};
use super::seal::SealOpening;
use super::statement::Statement;
use super::Report;
use zkgames_core::proof_file::{self, ProofFile};
use zkgames_core::Error;
use zkgames_core::Result;

/// The longest preimage accepted: four blocks after padding.
pub const MAX_PREIMAGE: usize = 4 * 64 - 9;

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

fn const_value(w: &[Bit]) -> Option<u64> {
    let mut v = 0u64;
    for (i, b) in w.iter().enumerate() {
        match b {
            Bit::Const(true) => v |= 1 << i,
            Bit::Const(false) => {}
            Bit::Wire(_) => return None,
        }
    }
    Some(v)
}

/// Sums 32-bit words, adding all public words together first so they cost one adder.
fn add_many(b: &mut Builder, terms: &[&Word]) -> Word {
    let mut k = 0u64;
    let mut acc: Option<Word> = None;
    for t in terms {
        match const_value(t) {
            Some(v) => k = k.wrapping_add(v),
            None => {
                acc = Some(match acc {
                    None => (*t).clone(),
                    Some(a) => b.add(&a, t),
                })
            }
        }
    }
    let kw = b.const_word(k & 0xffff_ffff, 32);
    match acc {
        None => kw,
        Some(a) if k & 0xffff_ffff == 0 => a,
        Some(a) => b.add(&a, &kw),
    }
}

fn xor3(b: &mut Builder, x: &[Bit], y: &[Bit], z: &[Bit]) -> Word {
    let t = b.xor_w(x, y);
    b.xor_w(&t, z)
}

/// The SHA-256 compression function on a state of 8 words and a block of 16 words.
pub fn compress(b: &mut Builder, state: &[Word; 8], block: &[Word; 16]) -> [Word; 8] {
    let mut w: Vec<Word> = block.to_vec();
    for t in 16..64 {
        let s0 = xor3(
            b,
            &Builder::rotr(&w[t - 15], 7),
            &Builder::rotr(&w[t - 15], 18),
            &Builder::shr(&w[t - 15], 3),
        );
        let s1 = xor3(
            b,
            &Builder::rotr(&w[t - 2], 17),
            &Builder::rotr(&w[t - 2], 19),
            &Builder::shr(&w[t - 2], 10),
        );
        let x = add_many(b, &[&w[t - 16], &s0, &w[t - 7], &s1]);
        w.push(x);
    }
    let [mut a, mut bb, mut c, mut d, mut e, mut f, mut g, mut h] = state.clone();
    for t in 0..64 {
        let s1 = xor3(
            b,
            &Builder::rotr(&e, 6),
            &Builder::rotr(&e, 11),
            &Builder::rotr(&e, 25),
        );
        let ch: Word = (0..32).map(|i| b.mux(e[i], f[i], g[i])).collect();
        let kt = b.const_word(K[t] as u64, 32);
        let t1 = add_many(b, &[&h, &kt, &s1, &ch, &w[t]]);
        let s0 = xor3(
            b,
            &Builder::rotr(&a, 2),
            &Builder::rotr(&a, 13),
            &Builder::rotr(&a, 22),
        );
        let mj: Word = (0..32).map(|i| b.maj(a[i], bb[i], c[i])).collect();
        let t2 = add_many(b, &[&s0, &mj]);
        h = g;
        g = f;
        f = e;
        e = add_many(b, &[&d, &t1]);
        d = c;
        c = bb;
        bb = a;
        a = add_many(b, &[&t1, &t2]);
    }
    let out = [a, bb, c, d, e, f, g, h];
    let mut res: [Word; 8] = Default::default();
    for i in 0..8 {
        res[i] = add_many(b, &[&state[i], &out[i]]);
    }
    res
}

/// The SHA-256 compression function alone, with the wire order of emp-toolkit's Bristol
/// Fashion circuit: inputs the 512-bit block then the 256-bit chaining value, output the
/// new chaining value, each group read as one big-endian integer whose least significant bit
/// is the group's wire 0 (so word `t` of the block has its bit `k` on wire `512 − 32(t+1) + k`).
pub fn compress_circuit() -> Circuit {
    let mut b = Builder::new(768);
    let block: [Word; 16] = std::array::from_fn(|t| b.input_word(512 - 32 * (t + 1), 32));
    let state: [Word; 8] = std::array::from_fn(|i| b.input_word(512 + 256 - 32 * (i + 1), 32));
    let out = compress(&mut b, &state, &block);
    for i in (0..8).rev() {
        b.output_word(&out[i]);
    }
    b.finish()
}

/// The circuit computing SHA-256 of a secret `len`-byte message (`len ≤ MAX_PREIMAGE`).
pub fn sha256_circuit(len: usize) -> Result<Circuit> {
    if len > MAX_PREIMAGE {
        return Err(Error::bad(format!(
            "preimage of {len} bytes: at most {MAX_PREIMAGE} bytes are supported"
        )));
    }
    let mut b = Builder::new(8 * len);
    // padded message as bytes of Bits
    let mut bytes: Vec<[Bit; 8]> = (0..len)
        .map(|i| std::array::from_fn(|j| b.input(8 * i + j)))
        .collect();
    let cbyte = |v: u8| -> [Bit; 8] { std::array::from_fn(|j| Bit::Const(v >> j & 1 == 1)) };
    bytes.push(cbyte(0x80));
    while bytes.len() % 64 != 56 {
        bytes.push(cbyte(0));
    }
    for v in ((len as u64) * 8).to_be_bytes() {
        bytes.push(cbyte(v));
    }
    let mut state: [Word; 8] = std::array::from_fn(|i| b.const_word(IV[i] as u64, 32));
    for blk in bytes.chunks(64) {
        let words: [Word; 16] = std::array::from_fn(|t| {
            // big-endian: bit k of the word is bit k%8 of byte 4t + 3 - k/8
            (0..32).map(|k| blk[4 * t + 3 - k / 8][k % 8]).collect()
        });
        state = compress(&mut b, &state, &words);
    }
    for wd in &state {
        for byte in (0..4).rev() {
            for j in 0..8 {
                b.output(wd[8 * byte + j]);
            }
        }
    }
    Ok(b.finish())
}

/// Bytes to bits, LSB first within each byte.
pub fn bytes_to_bits(b: &[u8]) -> Vec<bool> {
    b.iter()
        .flat_map(|&x| (0..8).map(move |j| x >> j & 1 == 1))
        .collect()
}

/// Bits to bytes, LSB first (the length must be a multiple of 8).
pub fn bits_to_bytes(b: &[bool]) -> Vec<u8> {
    b.chunks(8)
        .map(|c| c.iter().enumerate().map(|(j, &x)| (x as u8) << j).sum())
        .collect()
}

/// The transcript label of SHA-256 preimage proofs.
pub const TAG: &[u8] = b"zkgames/zkb++/sha256-preimage/v1";

crate::protocols! {
    /// SHA-256 preimage proofs' protocol ids: 3 (ZKB++), 6 (KKW), 11 (VOLE-in-the-head). The
    /// file body is the message length (`u32`, the head) followed by the engine's proof; the
    /// proofs exist only non-interactive.
    pub PROTOCOLS = "a SHA-256 preimage proof", "SHA-256 preimage",
    {
        Zkbpp: SHA256_MPC = 3,
        Kkw: SHA256_KKW = 6,
        Vole: SHA256_VOLE = 11,
    }
}

pub(crate) fn public_bytes(len: usize) -> Vec<u8> {
    let mut p = b"sha256-preimage-length".to_vec();
    p.extend_from_slice(&(len as u64).to_le_bytes());
    p
}

/// SHA-256 of `preimage`.
pub(crate) fn digest_of(preimage: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(preimage).into()
}

/// The SHA-256 circuits of the last few message lengths (every proof of a 55-byte preimage
/// shares one).
static CIRCUITS: Memo<usize> = Memo::new(4);

/// The public side of "I know a `len`-byte preimage of `digest`", owned, for any engine and
/// for proving, verifying, sealing and opening alike.
pub(crate) struct PreimageStatement {
    circuit: Arc<Circuit>,
    output: Vec<bool>,
    public: Vec<u8>,
}

impl PreimageStatement {
    /// Bad input when `len` is over [`MAX_PREIMAGE`] (`what` names the file kind).
    pub(crate) fn new(len: usize, digest: &[u8; 32], what: &str) -> Result<Self> {
        if len > MAX_PREIMAGE {
            return Err(Error::bad(format!(
                "{what} claims a {len}-byte preimage, over the {MAX_PREIMAGE}-byte limit"
            )));
        }
        Ok(PreimageStatement {
            circuit: CIRCUITS.get(len, || sha256_circuit(len))?,
            output: bytes_to_bits(digest),
            public: public_bytes(len),
        })
    }

    /// AND gates of the circuit.
    pub(crate) fn and_gates(&self) -> usize {
        self.circuit.n_and()
    }

    /// The engine's statement under `context`.
    pub(crate) fn with<'a>(&'a self, context: &'a [u8]) -> Statement<'a> {
        Statement {
            tag: TAG,
            circuit: &self.circuit,
            public: &self.public,
            output: &self.output,
            context,
        }
    }
}

/// Proves knowledge of `preimage` with `system`; returns the bytes of a proof file
/// ([`PROTOCOLS`], non-interactive).
pub fn prove(
    preimage: &[u8],
    system: &System,
    context: &[u8],
    rng: &mut zkgames_core::rng::Rng,
) -> Result<Vec<u8>> {
    let ps = PreimageStatement::new(preimage.len(), &digest_of(preimage), "the preimage")?;
    let mut bits = bytes_to_bits(preimage);
    let proof = system.prove(&ps.with(context), &bits, rng);
    bits.fill(false);
    proof?.file_bytes(&PROTOCOLS, &(preimage.len() as u32))
}

/// Seals a preimage ([`super::seal`]) with `system`: the seal, a proof file that
/// [`verify`] accepts, and the opening that reveals the preimage later through [`open`].
pub fn seal(
    preimage: &[u8],
    system: &System,
    context: &[u8],
    rng: &mut zkgames_core::rng::Rng,
) -> Result<(Vec<u8>, SealOpening)> {
    let ps = PreimageStatement::new(preimage.len(), &digest_of(preimage), "the preimage")?;
    let mut bits = bytes_to_bits(preimage);
    let sealed = system.seal(&ps.with(context), &bits, rng);
    bits.fill(false);
    let (proof, opening) = sealed?;
    Ok((
        proof.file_bytes(&PROTOCOLS, &(preimage.len() as u32))?,
        opening,
    ))
}

/// Reads a SHA-256 proof file of any engine: the statement it claims and the proof.
fn read(
    digest: &[u8; 32],
    file: &ProofFile,
    what: &str,
) -> Result<(PreimageStatement, EngineProof)> {
    let (len, proof): (u32, _) = EngineProof::read_file(&PROTOCOLS, file, "SHA-256 proof body")?;
    Ok((PreimageStatement::new(len as usize, digest, what)?, proof))
}

/// Verifies a SHA-256 preimage proof for `digest` under `req`; the file's protocol id names
/// the engine.
pub fn verify(
    digest: &[u8; 32],
    file: &ProofFile,
    req: &Required,
    context: &[u8],
) -> Result<Report> {
    let (ps, proof) = read(digest, file, "the proof")?;
    proof.verify(&ps.with(context), req)?;
    Ok(proof.report(proof_file::HEADER_LEN + file.body.len(), ps.and_gates()))
}

/// Opens a SHA-256 seal of any engine: the preimage of `digest` that `opening` reveals, if
/// the opening belongs to this seal, digest and context ([`super::seal::open`]).
pub fn open(
    digest: &[u8; 32],
    file: &ProofFile,
    opening: &SealOpening,
    context: &[u8],
) -> Result<Vec<u8>> {
    let (ps, proof) = read(digest, file, "the seal")?;
    let bits = proof.open(&ps.with(context), opening)?;
    Ok(bits_to_bytes(&bits))
}

/// The protocol-specific lines of `verifier sha256 inspect` (no verification); the caller
/// prints the header's protocol and mode. Refuses a header that says interactive: SHA-256
/// proofs exist only as non-interactive files.
pub fn inspect(file: &ProofFile) -> Result<Details> {
    let (len, proof): (u32, _) = EngineProof::read_file(&PROTOCOLS, file, "SHA-256 proof body")?;
    let len = len as usize;
    let d = Details::new()
        .text("preimage", format!("{len} bytes"))
        .also("preimage bytes", Value::Count(len as u64));
    let d = if len <= MAX_PREIMAGE {
        let ands = sha256_circuit(len)?.n_and();
        d.text("circuit", format!("{ands} AND gates"))
            .also("AND gates", Value::Count(ands as u64))
    } else {
        d.text("circuit", "? (over the limit) AND gates")
    };
    Ok(d.then(proof.describe()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng as _, RngCore};
    use sha2::Digest as _;
    use zkgames_core::rng::seeded_rng;

    fn check(msg: &[u8]) {
        let c = sha256_circuit(msg.len()).unwrap();
        let out = bits_to_bytes(&c.eval(&bytes_to_bits(msg)));
        let expect = sha2::Sha256::digest(msg);
        assert_eq!(out, expect.as_slice(), "message of {} bytes", msg.len());
    }

    #[test]
    fn standard_vectors() {
        check(b"");
        check(b"abc");
        check(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
        // the NIST vector above, with the hex digest written out
        let c = sha256_circuit(3).unwrap();
        assert_eq!(
            hex::encode(bits_to_bytes(&c.eval(&bytes_to_bits(b"abc")))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn random_messages_of_every_block_count() {
        let mut rng = seeded_rng(5);
        for len in [
            1,
            31,
            55,
            56,
            63,
            64,
            65,
            119,
            120,
            128,
            183,
            200,
            MAX_PREIMAGE,
        ] {
            let mut m = vec![0u8; len];
            rng.fill_bytes(&mut m);
            check(&m);
        }
        for _ in 0..4 {
            let len = rng.gen_range(0..=MAX_PREIMAGE);
            let mut m = vec![0u8; len];
            rng.fill_bytes(&mut m);
            check(&m);
        }
        assert!(sha256_circuit(MAX_PREIMAGE + 1).is_err());
    }

    /// FIPS 180-4 compression on plain integers.
    fn plain_compress(st: &mut [u32; 8], block: &[u32]) {
        let mut w = block.to_vec();
        for t in 16..64 {
            let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
            let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
            w.push(
                w[t - 16]
                    .wrapping_add(s0)
                    .wrapping_add(w[t - 7])
                    .wrapping_add(s1),
            );
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *st;
        for t in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[t])
                .wrapping_add(w[t]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let mj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(mj);
            (h, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (x, y) in st.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *x = x.wrapping_add(y);
        }
    }

    #[test]
    fn and_count_is_near_the_published_figure() {
        // a compression with secret state and block: 22.7k ANDs in published circuits
        let mut b = Builder::new(256 + 512);
        let state: [Word; 8] = std::array::from_fn(|i| b.input_word(32 * i, 32));
        let block: [Word; 16] = std::array::from_fn(|i| b.input_word(256 + 32 * i, 32));
        let out = compress(&mut b, &state, &block);
        for w in &out {
            b.output_word(w);
        }
        let c = b.finish();
        // 7 adders and Ch, Maj per round, 3 adders per scheduled word, 8 final adders, at one
        // AND per bit but the top one; adding a public constant saves its low carry bits
        let textbook = 64 * (7 * 31 + 64) + 48 * 3 * 31 + 8 * 31;
        assert!(
            (textbook - 200..=textbook).contains(&c.n_and()),
            "{}",
            c.n_and()
        );
        // against a plain implementation of the compression function
        let mut rng = seeded_rng(8);
        let inp: Vec<bool> = (0..768).map(|_| rng.gen()).collect();
        let words: Vec<u32> = inp
            .chunks(32)
            .map(|c| c.iter().enumerate().map(|(i, &x)| (x as u32) << i).sum())
            .collect();
        let got: Vec<u32> = c
            .eval(&inp)
            .chunks(32)
            .map(|c| c.iter().enumerate().map(|(i, &x)| (x as u32) << i).sum())
            .collect();
        let mut st: [u32; 8] = words[..8].try_into().unwrap();
        plain_compress(&mut st, &words[8..]);
        assert_eq!(got, st);
        let one = sha256_circuit(32).unwrap().n_and();
        eprintln!(
            "SHA-256 AND gates: full compression {}, one-block message {one}",
            c.n_and()
        );
        assert!(one < c.n_and());
    }
}
