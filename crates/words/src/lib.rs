//! Word games with a host who cannot cheat: Wordle answers proven against a sealed word, and
//! Boggle finds sealed without revealing the word.
//!
//! - [`dict`]: word lists (one word a line, refused with one line when malformed), their
//!   digest, and the list compiled into a decision circuit over the letters (membership).
//! - [`commit`]: the commitment to a word inside the circuit: two AES-128 blocks under one
//!   secret key (binding about 128 bits, hiding by the key).
//! - [`wordle`]: the feedback rule (greens first, then yellows left to right), its circuit,
//!   and the two statements: the seal (commitment + membership) and the answer (commitment
//!   + feedback for a public guess).
//! - [`boggle`]: grids, the trie walk that finds every word, and the sealed find (a word of
//!   the dictionary on the grid: its path, a Merkle path in an AES-based tree, a commitment).
//!
//! The statements go through the one engine interface ([`zkgames_mpc::engine`]); the
//! byte-level specification is docs/PROTOCOLS.md, section "Word games".

pub mod boggle;
pub mod commit;
pub mod dict;
pub mod wordle;
