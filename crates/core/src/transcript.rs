//! Fiat–Shamir transcripts: labelled, length-prefixed hashing of everything public.
//!
//! A [`Transcript`] absorbs messages as `u32-le(len(label)) ‖ label ‖ u64-le(len(msg)) ‖ msg`
//! into one running SHA-256 state, after a fixed domain string and the protocol label.
//! Framing every message makes the encoding injective: `("ab","c")` and `("a","bc")` differ.
//!
//! Challenges are drawn with [`Transcript::challenges`], which finalizes a copy of the state
//! into a 32-byte seed and expands it with SHA-256 in counter mode ([`ChallengeStream`]).
//! Uniform integers in `[0, n)` use rejection sampling on 64-bit words, so there is no
//! modulo bias.
//!
//! How to misuse it (don't):
//! * absorbing a value without a label, or two values under one label, lets a malicious
//!   prover re-split bytes between fields; give every field its own label;
//! * drawing challenges before every public value (instance, parameters, context,
//!   commitments) is absorbed lets a prover choose the missing values after seeing the
//!   challenge: always absorb first, draw last;
//! * reusing a transcript after drawing continues from the same state; draw once per proof.

use sha2::{Digest as _, Sha256};

use crate::commit::Digest;

/// Domain string absorbed first by every transcript of this crate.
pub const TRANSCRIPT_DOMAIN: &[u8] = b"zkgames/transcript/v1";

/// A Fiat–Shamir transcript over SHA-256.
#[derive(Clone)]
pub struct Transcript {
    h: Sha256,
}

impl Transcript {
    /// Starts a transcript for one protocol (e.g. `b"zkgames/peg-iso"`).
    pub fn new(protocol: &'static [u8]) -> Self {
        let mut t = Transcript { h: Sha256::new() };
        t.h.update(TRANSCRIPT_DOMAIN);
        t.append(b"protocol", protocol);
        t
    }

    /// Absorbs a labelled message.
    pub fn append(&mut self, label: &'static [u8], msg: &[u8]) {
        self.h.update((label.len() as u32).to_le_bytes());
        self.h.update(label);
        self.h.update((msg.len() as u64).to_le_bytes());
        self.h.update(msg);
    }

    /// Absorbs a labelled integer as 8 little-endian bytes.
    pub fn append_u64(&mut self, label: &'static [u8], x: u64) {
        self.append(label, &x.to_le_bytes());
    }

    /// Finalizes a copy of the state under `label` into a challenge stream.
    pub fn challenges(&self, label: &'static [u8]) -> ChallengeStream {
        let mut t = self.clone();
        t.append(b"challenge", label);
        ChallengeStream::new(t.h.finalize().into())
    }
}

/// An unbounded stream of challenge bytes: block `i` is `SHA-256("zkg:xof:" ‖ seed ‖ u64-le(i))`.
pub struct ChallengeStream {
    seed: Digest,
    counter: u64,
    buf: Digest,
    pos: usize,
}

impl ChallengeStream {
    /// A stream from a 32-byte seed.
    pub fn new(seed: Digest) -> Self {
        ChallengeStream {
            seed,
            counter: 0,
            buf: [0; 32],
            pos: 32,
        }
    }

    fn refill(&mut self) {
        let mut h = Sha256::new();
        h.update(b"zkg:xof:");
        h.update(self.seed);
        h.update(self.counter.to_le_bytes());
        self.buf = h.finalize().into();
        self.counter += 1;
        self.pos = 0;
    }

    /// The next byte of the stream.
    pub fn next_byte(&mut self) -> u8 {
        if self.pos == 32 {
            self.refill();
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        b
    }

    /// Fills `out` with the next bytes of the stream (the bytes `next_byte` would give, a
    /// block at a time).
    pub fn fill(&mut self, out: &mut [u8]) {
        let mut out = out;
        while !out.is_empty() {
            if self.pos == 32 {
                self.refill();
            }
            let n = out.len().min(32 - self.pos);
            out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
            out = &mut out[n..];
        }
    }

    /// The next 8 bytes as a little-endian `u64`.
    pub fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        for x in b.iter_mut() {
            *x = self.next_byte();
        }
        u64::from_le_bytes(b)
    }

    /// A uniform integer in `[0, n)`, `n ≥ 1`, by rejection sampling: 64-bit words at or
    /// above the largest multiple of `n` are discarded.
    pub fn uniform(&mut self, n: u64) -> u64 {
        assert!(n >= 1, "uniform over an empty range");
        let zone = u64::MAX - (u64::MAX % n + 1) % n; // largest multiple of n, minus one
        loop {
            let x = self.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A uniform trit in `{0, 1, 2}`: the low two bits of the next byte, rejecting `3` (one
    /// byte per attempt; the upper six bits are discarded).
    pub fn trit(&mut self) -> u8 {
        loop {
            let b = self.next_byte() & 3;
            if b < 3 {
                return b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fill` gives the bytes `next_byte` gives, from any position in the stream.
    #[test]
    fn fill_matches_next_byte() {
        for skip in [0usize, 1, 31, 32, 33, 70] {
            for len in [0usize, 1, 5, 32, 33, 64, 100] {
                let (mut a, mut b) = (ChallengeStream::new([7; 32]), ChallengeStream::new([7; 32]));
                for _ in 0..skip {
                    a.next_byte();
                    b.next_byte();
                }
                let mut got = vec![0u8; len];
                a.fill(&mut got);
                let want: Vec<u8> = (0..len).map(|_| b.next_byte()).collect();
                assert_eq!(got, want, "skip {skip}, len {len}");
                assert_eq!(a.next_byte(), b.next_byte());
            }
        }
    }

    /// An independent re-implementation from the documented byte layout.
    fn reference_seed(protocol: &[u8], msgs: &[(&[u8], &[u8])], label: &[u8]) -> Digest {
        let mut bytes = TRANSCRIPT_DOMAIN.to_vec();
        let mut frame = |l: &[u8], m: &[u8]| {
            bytes.extend_from_slice(&(l.len() as u32).to_le_bytes());
            bytes.extend_from_slice(l);
            bytes.extend_from_slice(&(m.len() as u64).to_le_bytes());
            bytes.extend_from_slice(m);
        };
        frame(b"protocol", protocol);
        for (l, m) in msgs {
            frame(l, m);
        }
        frame(b"challenge", label);
        Sha256::digest(&bytes).into()
    }

    #[test]
    fn matches_reference_layout() {
        let mut t = Transcript::new(b"test-proto");
        t.append(b"a", b"hello");
        t.append_u64(b"n", 42);
        let mut s = t.challenges(b"ch");
        let seed = reference_seed(
            b"test-proto",
            &[(b"a", b"hello"), (b"n", &42u64.to_le_bytes())],
            b"ch",
        );
        let mut h = Sha256::new();
        h.update(b"zkg:xof:");
        h.update(seed);
        h.update(0u64.to_le_bytes());
        let block0: Digest = h.finalize().into();
        for &b in block0.iter() {
            assert_eq!(s.next_byte(), b);
        }
    }

    #[test]
    fn framing_is_injective() {
        let mut a = Transcript::new(b"p");
        a.append(b"x", b"ab");
        a.append(b"x", b"c");
        let mut b = Transcript::new(b"p");
        b.append(b"x", b"a");
        b.append(b"x", b"bc");
        assert_ne!(a.challenges(b"c").next_u64(), b.challenges(b"c").next_u64());
    }

    #[test]
    fn uniform_is_in_range_and_roughly_uniform() {
        let mut s = ChallengeStream::new([9; 32]);
        let n = 7u64;
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            let x = s.uniform(n);
            counts[x as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(s.uniform(1), 0);
        let mut tr = [0u32; 3];
        for _ in 0..30_000 {
            tr[s.trit() as usize] += 1;
        }
        for c in tr {
            assert!((9_300..10_700).contains(&c), "{tr:?}");
        }
    }
}
