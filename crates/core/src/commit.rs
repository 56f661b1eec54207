//! Hash commitments: `Commit(key, value) = SHA-256(tag ‖ key ‖ value)`.
//!
//! * `tag` is a short, fixed domain-separation string per kind of committed value, so a
//!   commitment to a triplet can never be opened as a row of the solution matrix.
//! * `key` is a fresh uniformly random 256-bit value (see [`crate::rng`]); it makes the
//!   commitment hiding (in the random-oracle model).
//! * `value` is a canonical, fixed-length encoding for a given tag and instance, so no
//!   length prefix is needed: the verifier always knows the expected length beforehand.
//!   Callers must ensure that; committing variable-length values under one tag would let
//!   a prover shift bytes between `key` and `value`.
//!
//! Binding is computational (collision resistance of SHA-256), not perfect as the peg
//! solitaire paper assumes; see docs/GUIDE.md, Security notes.

use sha2::{Digest as _, Sha256};

/// A 32-byte SHA-256 output.
pub type Digest = [u8; 32];

/// A 256-bit commitment key (the opening randomness).
pub type Key = [u8; 32];

/// A domain-separation tag for commitments. Tags are at most 16 bytes and end in a
/// separator, so that a single SHA-256 block covers tag, key and a short value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag(pub &'static [u8]);

/// Computes `SHA-256(tag ‖ key ‖ value)`.
pub fn commit(tag: Tag, key: &Key, value: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update(tag.0);
    h.update(key);
    h.update(value);
    h.finalize().into()
}

/// Checks an opening in constant structure (the comparison of public digests need not be
/// constant-time: both sides are public once the opening is sent).
pub fn verify(tag: Tag, key: &Key, value: &[u8], c: &Digest) -> bool {
    commit(tag, key, value) == *c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_plain_sha256_of_concatenation() {
        let key = [7u8; 32];
        let c = commit(Tag(b"zkg:test:"), &key, b"abc");
        let mut buf = b"zkg:test:".to_vec();
        buf.extend_from_slice(&key);
        buf.extend_from_slice(b"abc");
        let expect: Digest = Sha256::digest(&buf).into();
        assert_eq!(c, expect);
    }

    #[test]
    fn tag_key_and_value_all_matter() {
        let k = [1u8; 32];
        let c = commit(Tag(b"a:"), &k, b"x");
        assert!(verify(Tag(b"a:"), &k, b"x", &c));
        assert!(!verify(Tag(b"b:"), &k, b"x", &c));
        assert!(!verify(Tag(b"a:"), &[2u8; 32], b"x", &c));
        assert!(!verify(Tag(b"a:"), &k, b"y", &c));
    }
}
