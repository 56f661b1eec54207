//! AES-128 encryption under many keys at once: the vector commitment's tree nodes and leaves
//! ([`super::vc`]) each key a cipher with their own seed, and encrypt only a few blocks with
//! it (two per tree node, `2 + ⌈ℓ̂/128⌉` per leaf), so the key schedules cost as much as the
//! encryptions. One schedule is a chain of ten dependent steps; [`Ciphers::new`] runs eight
//! chains side by side, and [`Ciphers::encrypt_pairs`] sixteen blocks, so that AES-NI's
//! latency is hidden instead of waited for.
//!
//! Three paths ([`Path`]) give the same bytes: AES-NI (with SSSE3, checked at run time on
//! x86-64), each round key made by `AESENCLAST` on the broadcast rotated last word (all four
//! columns equal, so `ShiftRows` does nothing and the instruction is `SubWord` plus the round
//! constant); the same with VAES for a leaf's stream (two blocks per instruction, sixteen in
//! flight: 1.8 times AES-NI's speed on a Zen 3 core); and the `aes` crate's cipher per key
//! everywhere else. The tests check every path the CPU has against the others and against
//! FIPS 197's example.
//!
//! Misuse: a [`Ciphers`] holds expanded keys, as secret as the seeds they come from; it
//! zeroes them when dropped (the AES-NI path), so keep it no longer than the seeds.

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes::{Aes128Enc, Block};

/// One 16-byte block (little-endian bytes as everywhere in the engine).
pub type Bytes16 = [u8; 16];

/// The ciphers of a list of 128-bit keys, expanded together.
pub struct Ciphers {
    inner: Inner,
}

enum Inner {
    /// The schedules, and whether VAES may encrypt them two blocks at a time.
    #[cfg(target_arch = "x86_64")]
    Ni(Vec<ni::RoundKeys>, bool),
    Soft(Vec<Aes128Enc>),
}

/// Which instructions encrypt: each path gives the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The `aes` crate's cipher per key (its own detection of AES-NI, or portable code).
    Portable,
    /// AES-NI, one block per instruction.
    AesNi,
    /// AES-NI, and VAES (two blocks per instruction) for the long runs of one key.
    Wide,
}

impl Path {
    /// The fastest path this CPU has.
    pub fn best() -> Self {
        if !ni::available() {
            Path::Portable
        } else if ni::wide() {
            Path::Wide
        } else {
            Path::AesNi
        }
    }

    /// The paths this CPU can take (tests compare them).
    pub fn all() -> Vec<Self> {
        [Path::Portable, Path::AesNi, Path::Wide]
            .into_iter()
            .filter(|&p| {
                p == Path::Portable || (ni::available() && (p == Path::AesNi || ni::wide()))
            })
            .collect()
    }
}

impl Ciphers {
    /// The ciphers of `keys`, in order, on the fastest path this CPU has.
    pub fn new(keys: &[Bytes16]) -> Self {
        Self::with_path(keys, Path::best())
    }

    /// The ciphers of `keys` on `path`, or on the portable one if the CPU cannot take it.
    pub fn with_path(keys: &[Bytes16], path: Path) -> Self {
        #[cfg(target_arch = "x86_64")]
        if path != Path::Portable && ni::available() {
            // SAFETY: the CPU has AES-NI and SSSE3 (checked just above).
            let rks = unsafe { ni::expand(keys) };
            return Ciphers {
                inner: Inner::Ni(rks, path == Path::Wide && ni::wide()),
            };
        }
        let _ = path;
        Ciphers {
            inner: Inner::Soft(
                keys.iter()
                    .map(|k| Aes128Enc::new(&aes::cipher::Key::<Aes128Enc>::from(*k)))
                    .collect(),
            ),
        }
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Ni(v, _) => v.len(),
            Inner::Soft(v) => v.len(),
        }
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Encrypts `blocks` in place under key `k`.
    pub fn encrypt(&self, k: usize, blocks: &mut [Bytes16]) {
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Ni` value is only made when the CPU has AES-NI.
            Inner::Ni(v, wide) => unsafe { ni::encrypt(&v[k], blocks, *wide) },
            Inner::Soft(v) => {
                for chunk in blocks.chunks_mut(8) {
                    let mut b = [Block::default(); 8];
                    for (x, y) in b.iter_mut().zip(chunk.iter()) {
                        *x = Block::from(*y);
                    }
                    v[k].encrypt_blocks(&mut b[..chunk.len()]);
                    for (y, x) in chunk.iter_mut().zip(b.iter()) {
                        *y = (*x).into();
                    }
                }
            }
        }
    }

    /// Encrypts `pairs[k]` in place under key `k`, for every key (`pairs.len() == self.len()`).
    pub fn encrypt_pairs(&self, pairs: &mut [[Bytes16; 2]]) {
        assert_eq!(pairs.len(), self.len(), "one pair of blocks per key");
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Ni` value is only made when the CPU has AES-NI.
            Inner::Ni(v, _) => unsafe { ni::encrypt_pairs(v, pairs) },
            Inner::Soft(_) => {
                for (k, p) in pairs.iter_mut().enumerate() {
                    self.encrypt(k, p);
                }
            }
        }
    }
}

impl Drop for Ciphers {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Inner::Ni(v, _) = &mut self.inner {
            ni::wipe(v);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod ni {
    use super::Bytes16;
    use core::arch::x86_64::*;

    /// The eleven round keys of one AES-128 key.
    pub type RoundKeys = [__m128i; 11];

    /// Keys expanded side by side, and blocks per batch of [`encrypt`].
    const LANES: usize = 8;

    const RCON: [i32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

    pub fn available() -> bool {
        std::arch::is_x86_feature_detected!("aes") && std::arch::is_x86_feature_detected!("ssse3")
    }

    /// Every key's schedule, `LANES` chains at a time.
    #[target_feature(enable = "aes,ssse3")]
    pub unsafe fn expand(keys: &[Bytes16]) -> Vec<RoundKeys> {
        let mut out = vec![[_mm_setzero_si128(); 11]; keys.len()];
        // RotWord of the last word, in every column: bytes 13, 14, 15, 12
        let rot = _mm_setr_epi8(
            13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12,
        );
        for (ks, rks) in keys.chunks(LANES).zip(out.chunks_mut(LANES)) {
            let n = ks.len();
            let mut k = [_mm_setzero_si128(); LANES];
            for i in 0..n {
                k[i] = _mm_loadu_si128(ks[i].as_ptr().cast());
                rks[i][0] = k[i];
            }
            for (r, &rc) in RCON.iter().enumerate() {
                let rcon = _mm_set1_epi32(rc);
                for ki in k.iter_mut() {
                    // SubWord(RotWord(w3)) ⊕ rcon in every column
                    let t = _mm_aesenclast_si128(_mm_shuffle_epi8(*ki, rot), rcon);
                    // prefix XOR of the words: w0, w0⊕w1, w0⊕w1⊕w2, w0⊕…⊕w3
                    let x = _mm_xor_si128(*ki, _mm_slli_si128(*ki, 4));
                    let x = _mm_xor_si128(x, _mm_slli_si128(x, 8));
                    *ki = _mm_xor_si128(x, t);
                }
                for i in 0..n {
                    rks[i][r + 1] = k[i];
                }
            }
        }
        out
    }

    /// Whether the CPU has VAES (two blocks per AES instruction) with AVX2.
    pub fn wide() -> bool {
        std::arch::is_x86_feature_detected!("vaes") && std::arch::is_x86_feature_detected!("avx2")
    }

    /// `blocks` encrypted in place under one schedule: sixteen at a time with VAES when
    /// `wide`, then `LANES` at a time.
    #[target_feature(enable = "aes")]
    pub unsafe fn encrypt(rk: &RoundKeys, blocks: &mut [Bytes16], wide: bool) {
        let blocks = if wide && blocks.len() >= WIDE {
            let (head, tail) = blocks.split_at_mut(blocks.len() - blocks.len() % WIDE);
            encrypt_wide(rk, head);
            tail
        } else {
            blocks
        };
        let mut full = blocks.chunks_exact_mut(LANES);
        for chunk in &mut full {
            let chunk: &mut [Bytes16; LANES] = chunk.try_into().expect("exact chunks");
            let mut s: [__m128i; LANES] = std::array::from_fn(|i| {
                _mm_xor_si128(_mm_loadu_si128(chunk[i].as_ptr().cast()), rk[0])
            });
            for key in &rk[1..10] {
                for x in s.iter_mut() {
                    *x = _mm_aesenc_si128(*x, *key);
                }
            }
            for (b, x) in chunk.iter_mut().zip(s) {
                _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_aesenclast_si128(x, rk[10]));
            }
        }
        for b in full.into_remainder() {
            let mut x = _mm_xor_si128(_mm_loadu_si128(b.as_ptr().cast()), rk[0]);
            for key in &rk[1..10] {
                x = _mm_aesenc_si128(x, *key);
            }
            _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_aesenclast_si128(x, rk[10]));
        }
    }

    /// Blocks per step of [`encrypt_wide`].
    const WIDE: usize = 16;

    /// `blocks` (a multiple of [`WIDE`]) encrypted in place, two per 256-bit register.
    #[target_feature(enable = "aes,avx2,vaes")]
    unsafe fn encrypt_wide(rk: &RoundKeys, blocks: &mut [Bytes16]) {
        let k: [__m256i; 11] = std::array::from_fn(|r| _mm256_broadcastsi128_si256(rk[r]));
        for chunk in blocks.chunks_exact_mut(WIDE) {
            let p = chunk.as_mut_ptr().cast::<__m256i>();
            let mut s: [__m256i; WIDE / 2] =
                std::array::from_fn(|i| _mm256_xor_si256(_mm256_loadu_si256(p.add(i)), k[0]));
            for key in &k[1..10] {
                for x in s.iter_mut() {
                    *x = _mm256_aesenc_epi128(*x, *key);
                }
            }
            for (i, x) in s.into_iter().enumerate() {
                _mm256_storeu_si256(p.add(i), _mm256_aesenclast_epi128(x, k[10]));
            }
        }
    }

    /// `pairs[k]` encrypted in place under `rks[k]`, `LANES` keys (twice as many blocks) at
    /// a time.
    #[target_feature(enable = "aes")]
    pub unsafe fn encrypt_pairs(rks: &[RoundKeys], pairs: &mut [[Bytes16; 2]]) {
        for (ks, ps) in rks.chunks(LANES).zip(pairs.chunks_mut(LANES)) {
            let n = ks.len();
            let zero = [_mm_setzero_si128(); 11];
            let key = |i: usize| if i < n { &ks[i] } else { &zero };
            let mut s = [[_mm_setzero_si128(); 2]; LANES];
            for i in 0..n {
                for h in 0..2 {
                    s[i][h] = _mm_xor_si128(_mm_loadu_si128(ps[i][h].as_ptr().cast()), ks[i][0]);
                }
            }
            for r in 1..10 {
                for (i, st) in s.iter_mut().enumerate() {
                    let rk = key(i)[r];
                    st[0] = _mm_aesenc_si128(st[0], rk);
                    st[1] = _mm_aesenc_si128(st[1], rk);
                }
            }
            for i in 0..n {
                for h in 0..2 {
                    let c = _mm_aesenclast_si128(s[i][h], ks[i][10]);
                    _mm_storeu_si128(ps[i][h].as_mut_ptr().cast(), c);
                }
            }
        }
    }

    /// Zeroes the schedules (volatile writes: the compiler may not drop them as dead).
    pub fn wipe(v: &mut [RoundKeys]) {
        for rk in v.iter_mut() {
            for x in rk.iter_mut() {
                // SAFETY: `x` is a valid, aligned `__m128i`.
                unsafe { std::ptr::write_volatile(x, std::mem::zeroed()) };
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod ni {
    pub fn available() -> bool {
        false
    }

    pub fn wide() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, RngCore};

    fn soft_one(key: &Bytes16, b: &Bytes16) -> Bytes16 {
        let c = Aes128Enc::new(&aes::cipher::Key::<Aes128Enc>::from(*key));
        let mut x = Block::from(*b);
        c.encrypt_block(&mut x);
        x.into()
    }

    #[test]
    fn fips_197_example() {
        // FIPS 197, appendix C.1
        let key: Bytes16 = hex::decode("000102030405060708090a0b0c0d0e0f")
            .unwrap()
            .try_into()
            .unwrap();
        let pt: Bytes16 = hex::decode("00112233445566778899aabbccddeeff")
            .unwrap()
            .try_into()
            .unwrap();
        let ct = hex::decode("69c4e0d86a7b0430d8cdb78070b4c55a").unwrap();
        for path in Path::all() {
            let c = Ciphers::with_path(&[key], path);
            let mut b = [pt; 40];
            c.encrypt(0, &mut b);
            assert!(b.iter().all(|b| b.to_vec() == ct), "{path:?}");
            let mut p = [[pt, pt]];
            c.encrypt_pairs(&mut p);
            assert_eq!(p[0][1].to_vec(), ct, "{path:?}");
        }
    }

    /// Both paths against one cipher per key, on every batch length around the lanes.
    #[test]
    fn both_paths_are_aes_128_under_each_key() {
        let mut rng = zkgames_core::rng::seeded_rng(7);
        for n in (0..20).chain([63, 64, 65, 200]) {
            let keys: Vec<Bytes16> = (0..n).map(|_| rng.gen()).collect();
            let pairs: Vec<[Bytes16; 2]> = (0..n).map(|_| [rng.gen(), rng.gen()]).collect();
            let want: Vec<[Bytes16; 2]> = keys
                .iter()
                .zip(&pairs)
                .map(|(k, p)| [soft_one(k, &p[0]), soft_one(k, &p[1])])
                .collect();
            for path in Path::all() {
                let c = Ciphers::with_path(&keys, path);
                assert_eq!(c.len(), n);
                let mut got = pairs.clone();
                c.encrypt_pairs(&mut got);
                assert_eq!(got, want, "pairs, {n} keys, {path:?}");
                for (k, key) in keys.iter().enumerate() {
                    let len = rng.gen_range(0..70);
                    let mut blocks: Vec<Bytes16> = (0..len)
                        .map(|_| {
                            let mut b = [0u8; 16];
                            rng.fill_bytes(&mut b);
                            b
                        })
                        .collect();
                    let want: Vec<Bytes16> = blocks.iter().map(|b| soft_one(key, b)).collect();
                    c.encrypt(k, &mut blocks);
                    assert_eq!(blocks, want, "{len} blocks, {path:?}");
                }
            }
        }
    }
}
