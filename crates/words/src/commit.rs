//! The commitment to a word, computed inside the circuit: two AES-128 blocks under one
//! secret key.
//!
//! `C = AES-128_K(P_1) ‖ AES-128_K(P_2)`, 32 bytes, where `K` is a fresh uniformly random
//! 128-bit key (the salt, secret) and the plaintexts carry the word:
//!
//! | byte | `P_j` |
//! |---|---|
//! | 0 | `j` (1 or 2) |
//! | 1..=L | the word's letters, `a` = 0 … `z` = 25 (`L` ≤ 15 − [`DOMAIN`]'s length) |
//! | then | [`DOMAIN`] padded with zero bytes to 16 |
//!
//! Binding: for one key, `AES-128_K` is a permutation, so `C` fixes `P_1` and the word;
//! two openings with different keys collide on 256 output bits, which in the ideal-cipher
//! model takes about `2^128` encryptions (a birthday search over 256 bits), where one block
//! would give only `2^64`. Hiding: `C` is two outputs of AES-128 under a uniformly random
//! secret key, pseudo-random for every word. The key is redrawn until no S-box input of the
//! two encryptions is zero (the VOLE engine proves each S-box as `x·y = 1`, FAEST's rule):
//! for a given word about 24 % of keys qualify, so the key keeps about 126 bits of entropy.
//! docs/PROTOCOLS.md, "Word games", states the argument.
//!
//! In the circuit the key schedule is computed once (40 S-boxes) and each block's rounds
//! take 160: 360 inverted bytes, no AND gate. The S-boxes of odd rounds are norm bytes, as
//! in [`zkgames_mpc::aes128`].

use rand_core::RngCore;

use zkgames_mpc::aes128;
use zkgames_mpc::circuit::{Bit, Builder};

/// Bytes of the key.
pub const KEY_BYTES: usize = 16;
/// Bytes of a commitment.
pub const COMMIT_BYTES: usize = 32;
/// S-boxes of the commitment circuit: one key schedule and two blocks' rounds.
pub const SBOXES: usize = 40 + 2 * 160;
/// The domain bytes after the letters of both plaintexts.
pub const DOMAIN: &[u8] = b"zkg:word1";
/// The longest word a commitment carries.
pub const MAX_LETTERS: usize = 15 - DOMAIN.len();

/// A secret commitment key.
pub type Key = [u8; KEY_BYTES];
/// A commitment.
pub type Commitment = [u8; COMMIT_BYTES];

/// The two plaintexts of a word (letters 0..=25, at most [`MAX_LETTERS`]).
pub fn plaintexts(letters: &[u8]) -> [[u8; 16]; 2] {
    assert!(letters.len() <= MAX_LETTERS);
    std::array::from_fn(|j| {
        let mut p = [0u8; 16];
        p[0] = j as u8 + 1;
        p[1..1 + letters.len()].copy_from_slice(letters);
        p[1 + letters.len()..1 + letters.len() + DOMAIN.len()].copy_from_slice(DOMAIN);
        p
    })
}

/// The commitment to `letters` under `key`.
pub fn commit(key: &Key, letters: &[u8]) -> Commitment {
    let [p1, p2] = plaintexts(letters);
    let mut c = [0u8; COMMIT_BYTES];
    c[..16].copy_from_slice(&aes128::encrypt(key, &p1));
    c[16..].copy_from_slice(&aes128::encrypt(key, &p2));
    c
}

/// Whether the VOLE engine can prove the commitment (no S-box input is zero).
pub fn provable(key: &Key, letters: &[u8]) -> bool {
    let [p1, p2] = plaintexts(letters);
    aes128::sbox_inputs_nonzero(key, &p1) && aes128::sbox_inputs_nonzero(key, &p2)
}

/// A fresh key for `letters`: uniformly random among the provable ones.
pub fn fresh_key(letters: &[u8], rng: &mut impl RngCore) -> Key {
    loop {
        let mut k = [0u8; KEY_BYTES];
        rng.fill_bytes(&mut k);
        if provable(&k, letters) {
            return k;
        }
        k.fill(0);
    }
}

pub(crate) type Byte = [Bit; 8];

fn xor_b(b: &mut Builder, x: &Byte, y: &Byte) -> Byte {
    std::array::from_fn(|j| b.xor(x[j], y[j]))
}

pub(crate) fn const_byte(v: u8) -> Byte {
    std::array::from_fn(|j| Bit::Const((v >> j) & 1 == 1))
}

fn sbox(b: &mut Builder, x: &Byte, norm: bool) -> Byte {
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

fn xtime(b: &mut Builder, x: &Byte) -> Byte {
    std::array::from_fn(|j| {
        let s = if j == 0 { Bit::Const(false) } else { x[j - 1] };
        if matches!(j, 0 | 1 | 3 | 4) {
            b.xor(s, x[7])
        } else {
            s
        }
    })
}

const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// AES-128 encryptions of several plaintexts (bits, possibly secret) under one key (bits),
/// the key schedule computed once.
pub(crate) fn encrypt_many(
    b: &mut Builder,
    key: &[Byte; 16],
    pts: &[[Byte; 16]],
) -> Vec<[Byte; 16]> {
    let mut w: Vec<[Byte; 4]> = (0..4)
        .map(|i| std::array::from_fn(|k| key[4 * i + k]))
        .collect();
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            let s1 = sbox(b, &t[1], false);
            let s2 = sbox(b, &t[2], false);
            let s3 = sbox(b, &t[3], false);
            let s0 = sbox(b, &t[0], false);
            t = [xor_b(b, &s1, &const_byte(RCON[i / 4 - 1])), s2, s3, s0];
        }
        let p = w[i - 4];
        let nw: [Byte; 4] = std::array::from_fn(|k| xor_b(b, &p[k], &t[k]));
        w.push(nw);
    }
    let rk = |r: usize, i: usize| w[4 * r + i / 4][i % 4];
    let mut out = Vec::with_capacity(pts.len());
    for pt in pts {
        let mut s: Vec<Byte> = (0..16).map(|i| xor_b(b, &pt[i], &rk(0, i))).collect();
        for r in 1..=10 {
            let sub: Vec<Byte> = s.iter().map(|x| sbox(b, x, r % 2 == 1)).collect();
            let shifted: Vec<Byte> = (0..16)
                .map(|i| {
                    let (row, col) = (i % 4, i / 4);
                    sub[row + 4 * ((col + row) % 4)]
                })
                .collect();
            s = if r < 10 {
                let mut o = Vec::with_capacity(16);
                for c in 0..4 {
                    for row in 0..4 {
                        let a: [Byte; 4] = std::array::from_fn(|k| shifted[4 * c + (row + k) % 4]);
                        let t0 = xtime(b, &a[0]);
                        let t1 = xtime(b, &a[1]);
                        let x = xor_b(b, &t0, &t1);
                        let x = xor_b(b, &x, &a[1]);
                        let x = xor_b(b, &x, &a[2]);
                        o.push(xor_b(b, &x, &a[3]));
                    }
                }
                o
            } else {
                shifted
            };
            s = (0..16).map(|i| xor_b(b, &s[i], &rk(r, i))).collect();
        }
        out.push(std::array::from_fn(|i| s[i]));
    }
    out
}

/// The commitment's 256 bits (byte `i` of `C` is bits `8i … 8i+7`, bit 0 first) from the
/// key's 128 bits (byte `i` bit `j` at `key[8i + j]`) and the letters (5 bits each, bit 0
/// first).
pub fn commit_gadget(b: &mut Builder, key: &[Bit], letters: &[[Bit; 5]]) -> Vec<Bit> {
    assert_eq!(key.len(), 128);
    assert!(letters.len() <= MAX_LETTERS);
    let kb: [Byte; 16] = std::array::from_fn(|i| std::array::from_fn(|j| key[8 * i + j]));
    let pts: Vec<[Byte; 16]> = (0..2)
        .map(|j| {
            let mut p: [Byte; 16] = std::array::from_fn(|_| const_byte(0));
            p[0] = const_byte(j as u8 + 1);
            for (i, l) in letters.iter().enumerate() {
                p[1 + i] = std::array::from_fn(|k| if k < 5 { l[k] } else { Bit::Const(false) });
            }
            for (i, &d) in DOMAIN.iter().enumerate() {
                p[1 + letters.len() + i] = const_byte(d);
            }
            p
        })
        .collect();
    encrypt_many(b, &kb, &pts)
        .iter()
        .flat_map(|blk| blk.iter().flat_map(|x| x.iter().copied()))
        .collect()
}

/// The bits of bytes, bit 0 of byte 0 first.
pub fn bits_of(bytes: &[u8]) -> Vec<bool> {
    (0..8 * bytes.len())
        .map(|i| (bytes[i / 8] >> (i % 8)) & 1 == 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    #[test]
    fn the_circuit_computes_the_commitment() {
        let mut rng = seeded_rng(7);
        for len in [5usize, 3, 6] {
            let mut b = Builder::new(128 + 5 * len);
            let key: Vec<Bit> = (0..128).map(|i| b.input(i)).collect();
            let letters: Vec<[Bit; 5]> = (0..len)
                .map(|i| std::array::from_fn(|k| b.input(128 + 5 * i + k)))
                .collect();
            let out = commit_gadget(&mut b, &key, &letters);
            b.output_word(&out);
            let c = b.finish();
            assert_eq!(c.n_and(), 0);
            assert_eq!(c.n_inv(), SBOXES);
            for _ in 0..6 {
                let word: Vec<u8> = (0..len).map(|_| rng.gen_range(0..26)).collect();
                let k = fresh_key(&word, &mut rng);
                let mut w = bits_of(&k);
                for &l in &word {
                    w.extend((0..5).map(|k| l >> k & 1 == 1));
                }
                assert_eq!(c.eval_checked(&w).unwrap(), bits_of(&commit(&k, &word)));
            }
        }
    }

    #[test]
    fn distinct_words_and_keys_give_distinct_commitments() {
        let mut rng = seeded_rng(8);
        let k: Key = rng.gen();
        assert_ne!(commit(&k, &[0, 1, 2, 3, 4]), commit(&k, &[0, 1, 2, 3, 5]));
        assert_ne!(commit(&k, &[0, 1, 2, 3]), commit(&k, &[0, 1, 2, 3, 0]));
        let k2: Key = rng.gen();
        assert_ne!(commit(&k, &[0; 5]), commit(&k2, &[0; 5]));
        assert_eq!(plaintexts(&[7; 5])[1][0], 2);
    }
}
