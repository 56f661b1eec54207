//! Boggle: every dictionary word on a grid (a trie walk), and a *find* sealed without
//! revealing the word: "I know a word of `m` dice that is in the dictionary and can be traced
//! on this grid", opened later.
//!
//! **Grids.** `side × side` dice (4 or 5 from text), one face each, `a`–`z`; the face `q`
//! stands for `Qu`. A word is traced on adjacent dice (diagonals included), each die at most
//! once. A word is handled in its *dice form*: `qu` written as the one symbol `q` (a word with
//! a `q` not followed by `u` cannot be traced); its length `m` in dice is the length of its
//! path, the number a find makes public.
//!
//! **Solving** ([`solve`]). The dictionary's dice forms in a trie ([`Trie`]), walked from
//! every die along unused neighbours while the prefix is in the trie. The references it is
//! tested against: one search per dictionary word ([`solve_by_words`]) and, on small grids,
//! every simple path ([`solve_by_paths`]).
//!
//! **Membership.** Per length `m`, the cheaper in committed bits of two designs
//! ([`Dictionary::membership`], a function of the words of `m` dice, so both sides agree):
//! the class's minimal automaton compiled into the circuit ([`dict::automaton_onehot_gadget`],
//! cheaper while real words share prefixes and suffixes), or a Merkle path. The Merkle design:
//! the words of `m` dice, as 120-bit leaves ([`leaf`]: symbol `s` as the code
//! `s + 1` in 5 bits, slot `i` at bits `5i … 5i+4`, slots from `m` on zero), sorted by their
//! bytes and padded
//! to a power of two by repeating the last, are the leaves of a Merkle tree the verifier builds
//! itself ([`Tree`]); its node is Davies–Meyer on AES-128 ([`compress`]):
//! `F_j(L, R, t) = first 15 bytes of (AES-128_K(P) ⊕ P)`, `K = (L ‖ 0) ⊕ A(t)`,
//! `P = (R ‖ j) ⊕ B(t)`, `j` the level, `A`, `B` public masks linear in the tweak byte `t`
//! ([`node_masks`]; `K`'s byte 15 is `t`), `t` the smallest for which no S-box input of that
//! encryption is zero (the VOLE engine proves an S-box as `x·y = 1`). The circuit checks one
//! path: per level a direction bit, the
//! sibling and the tweak. docs/PROTOCOLS.md 10.6 has both designs' costs.
//!
//! **The find** ([`FindStatement`]): witness `K` (128 bits), the path (per die its index,
//! [`index_bits`] bits), then per level `dir ‖ sibling ‖ tweak (8)`, the sibling 120 bits (at
//! the bottom `5m`: a leaf's bits past its `m` dice are zero); outputs the
//! commitment `C = AES_K(P_1) ‖ AES_K(P_2)` (`P_j` = the leaf's 15 bytes ‖ `0xb0 + j`), the
//! tree's root or the automaton's bit, and the path's checks (each index a die, each step
//! adjacent, no die twice).
//!
//! **Live rounds** ([`round_context`], [`score`]): finds sealed under a round's and a
//! player's context, and Boggle's scoring with shared words scoring nothing.

use crate::commit::{self, encrypt_many, Byte, Key};
use crate::dict::{self, Letters, WordList};
use rand_core::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::collections::{BTreeMap, HashSet};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::ProofFile;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::aes128;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};
use zkgames_mpc::engine::{Engine, Proof, Required, System};
use zkgames_mpc::statement::Statement;

/// The longest word a find carries, in dice (5 bits each in a 120-bit leaf).
pub const MAX_DICE: usize = 24;
/// The longest word a dictionary may hold, in letters.
pub const MAX_LETTERS: usize = 48;
/// Bytes of a tree node (and of a leaf).
pub const NODE_BYTES: usize = 15;
/// Transcript label of finds.
pub const FIND_TAG: &[u8] = b"zkgames/boggle/find/v1";
/// Domain tag of [`Grid::digest`].
pub const GRID_TAG: &[u8] = b"zkg:boggle:grid:v1";
/// Domain tag of [`find_digest`].
pub const FIND_DIGEST_TAG: &[u8] = b"zkg:boggle:find-digest:v1";
/// The byte after the leaf in the commitment's plaintext `j` is `COMMIT_DOMAIN + j`.
pub const COMMIT_DOMAIN: u8 = 0xb0;

/// The shipped dictionary (see puzzles/words/README.md).
pub const DEFAULT_DICT: &str = include_str!("../../../../puzzles/words/boggle-words.txt");

/// A tree node or leaf.
pub type Node = [u8; NODE_BYTES];

mod circuit;
mod dictionary;
mod find;
mod grid;
mod score;
#[cfg(test)]
mod tests;
mod tree;

pub use circuit::*;
pub use dictionary::*;
pub use find::*;
pub use grid::*;
pub use score::*;
pub use tree::*;
