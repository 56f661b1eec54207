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

use std::collections::{BTreeMap, HashSet};

use rand_core::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::commit::{self, encrypt_many, Byte, Key};
use super::dict::{self, Letters, WordList};
use zkgames_core::commit::Digest;
use zkgames_core::proof_file::{ProofFile, ProtocolId};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::aes128;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};
use zkgames_mpc::engine::{Engine, Proof, Protocols, Required, System};
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
pub const DEFAULT_DICT: &str = include_str!("../../../puzzles/words/boggle-words.txt");

/// A tree node or leaf.
pub type Node = [u8; NODE_BYTES];

/// A square grid of faces (`a` = 0 … `z` = 25, `q` the `Qu` face), row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    side: usize,
    faces: Vec<u8>,
}

impl Grid {
    /// A grid of any side from 1 to 5 (tests; text grids are 4×4 or 5×5).
    pub fn new(side: usize, faces: Vec<u8>) -> Self {
        assert!((1..=5).contains(&side) && faces.len() == side * side);
        assert!(faces.iter().all(|&f| f < 26));
        Grid { side, faces }
    }

    /// A grid from text: rows separated by `/` (`abcd/efgh/ijkl/mnop`) or one a line; letters
    /// `a`–`z` in either case, `q` meaning `Qu`; 4×4 or 5×5.
    pub fn parse(text: &str, what: &str) -> Result<Self> {
        let text = zkgames_core::files::strip_bom(text);
        let rows: Vec<&str> = if text.contains('/') {
            text.trim_end_matches(['\n', '\r']).split('/').collect()
        } else {
            text.lines()
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .filter(|l| !l.is_empty())
                .collect()
        };
        let side = rows.len();
        let bad = |why: String| {
            Error::bad(format!(
                "{what}: {why} (give 4 or 5 rows of as many letters, separated by / or one a line, e.g. abcd/efgh/ijkl/mnop; q is the Qu face)"
            ))
        };
        if side != 4 && side != 5 {
            return Err(bad(format!("{side} rows")));
        }
        let mut faces = Vec::with_capacity(side * side);
        for (i, r) in rows.iter().enumerate() {
            let Some(l) = dict::letters_of(r) else {
                return Err(bad(format!(
                    "row {} {} is not letters a-z",
                    i + 1,
                    zkgames_core::files::quote(&zkgames_core::files::excerpt(r))
                )));
            };
            if l.len() != side {
                return Err(bad(format!(
                    "row {} has {} letters, not {side}",
                    i + 1,
                    l.len()
                )));
            }
            faces.extend(l);
        }
        Ok(Grid { side, faces })
    }

    pub fn side(&self) -> usize {
        self.side
    }

    /// Dice on the grid.
    pub fn cells(&self) -> usize {
        self.faces.len()
    }

    /// The faces, row by row.
    pub fn faces(&self) -> &[u8] {
        &self.faces
    }

    /// Whether dice `a` and `b` touch (a side or a corner; a die does not touch itself).
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = (a / self.side, a % self.side);
        let (rb, cb) = (b / self.side, b % self.side);
        a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
    }

    /// The dice touching `c`.
    pub fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells()).filter(move |&d| self.adjacent(c, d))
    }

    /// The grid as text, rows separated by `/`.
    pub fn text(&self) -> String {
        self.faces
            .chunks(self.side)
            .map(dict::word_of)
            .collect::<Vec<_>>()
            .join("/")
    }

    /// `SHA-256(GRID_TAG ‖ u8 side ‖ faces as bytes 0..=25)`.
    pub fn digest(&self) -> Digest {
        let mut h = Sha256::new();
        h.update(GRID_TAG);
        h.update([self.side as u8]);
        h.update(&self.faces);
        h.finalize().into()
    }
}

/// The dice form of a word (`qu` as the one symbol `q`), or `None` if a `q` is not followed
/// by `u` (no die shows a lone `q`).
pub fn dice_of(letters: &[u8]) -> Option<Vec<u8>> {
    const Q: u8 = b'q' - b'a';
    const U: u8 = b'u' - b'a';
    let mut out = Vec::with_capacity(letters.len());
    let mut i = 0;
    while i < letters.len() {
        out.push(letters[i]);
        if letters[i] == Q {
            if letters.get(i + 1) != Some(&U) {
                return None;
            }
            i += 1;
        }
        i += 1;
    }
    Some(out)
}

/// The letters of a dice form (`q` as `qu`).
pub fn letters_of_dice(dice: &[u8]) -> Letters {
    let mut out = Vec::with_capacity(dice.len() + 2);
    for &s in dice {
        out.push(s);
        if s == b'q' - b'a' {
            out.push(b'u' - b'a');
        }
    }
    out
}

/// A trie over dice forms: nodes with their children contiguous in one edge array.
pub struct Trie {
    /// Per node: first edge, edge count, whether a word ends here.
    nodes: Vec<(u32, u8, bool)>,
    edges: Vec<(u8, u32)>,
}

impl Trie {
    /// The trie of `words` (dice forms, any order, repeats ignored).
    pub fn new(words: &[Vec<u8>]) -> Self {
        let mut w: Vec<&[u8]> = words.iter().map(|x| &x[..]).collect();
        w.sort_unstable();
        w.dedup();
        let mut t = Trie {
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        t.build(&w, 0);
        t
    }

    fn build(&mut self, words: &[&[u8]], depth: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let word = words.first().is_some_and(|w| w.len() == depth);
        let rest = &words[word as usize..];
        let mut groups = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let c = rest[i][depth];
            let j = i + rest[i..].partition_point(|w| w[depth] == c);
            groups.push((c, i, j));
            i = j;
        }
        let first = self.edges.len() as u32;
        self.nodes.push((first, groups.len() as u8, word));
        self.edges.extend(groups.iter().map(|&(c, _, _)| (c, 0)));
        for (k, &(_, i, j)) in groups.iter().enumerate() {
            let child = self.build(&rest[i..j], depth + 1);
            self.edges[first as usize + k].1 = child;
        }
        id
    }

    /// The root.
    pub const ROOT: u32 = 0;

    /// The child of `node` along symbol `s`.
    pub fn child(&self, node: u32, s: u8) -> Option<u32> {
        let (first, n, _) = self.nodes[node as usize];
        self.edges[first as usize..first as usize + n as usize]
            .iter()
            .find(|e| e.0 == s)
            .map(|e| e.1)
    }

    /// Whether a word ends at `node`.
    pub fn is_word(&self, node: u32) -> bool {
        self.nodes[node as usize].2
    }

    /// Nodes in the trie.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }
}

/// The dice forms of a list's words that some grid of `cells` dice could hold.
pub fn dice_forms(list: &WordList, cells: usize) -> Vec<Vec<u8>> {
    list.words()
        .iter()
        .filter_map(|w| dice_of(w))
        .filter(|d| !d.is_empty() && d.len() <= cells)
        .collect()
}

/// Every word of the trie on the grid with at least `min_letters` letters (`Qu` counts two),
/// as letters, sorted, each once: the trie walk.
pub fn solve(grid: &Grid, trie: &Trie, min_letters: usize) -> Vec<Letters> {
    fn walk(
        grid: &Grid,
        trie: &Trie,
        node: u32,
        cell: usize,
        used: u32,
        path: &mut Vec<u8>,
        found: &mut HashSet<Vec<u8>>,
    ) {
        let Some(next) = trie.child(node, grid.faces[cell]) else {
            return;
        };
        path.push(grid.faces[cell]);
        let used = used | 1 << cell;
        if trie.is_word(next) {
            found.insert(path.clone());
        }
        for d in grid.neighbours(cell) {
            if used >> d & 1 == 0 {
                walk(grid, trie, next, d, used, path, found);
            }
        }
        path.pop();
    }
    let mut found = HashSet::new();
    let mut path = Vec::new();
    for c in 0..grid.cells() {
        walk(grid, trie, Trie::ROOT, c, 0, &mut path, &mut found);
    }
    finish(found, min_letters)
}

fn finish(found: HashSet<Vec<u8>>, min_letters: usize) -> Vec<Letters> {
    let mut out: Vec<Letters> = found
        .into_iter()
        .map(|d| letters_of_dice(&d))
        .filter(|w| w.len() >= min_letters)
        .collect();
    out.sort();
    out
}

/// A path of dice spelling `dice` on the grid, if there is one (a search from every die).
pub fn trace(grid: &Grid, dice: &[u8]) -> Option<Vec<usize>> {
    fn rec(grid: &Grid, dice: &[u8], path: &mut Vec<usize>, used: u32) -> bool {
        if path.len() == dice.len() {
            return true;
        }
        let want = dice[path.len()];
        let last = path.last().copied();
        for c in 0..grid.cells() {
            if used >> c & 1 == 1
                || grid.faces[c] != want
                || last.is_some_and(|l| !grid.adjacent(l, c))
            {
                continue;
            }
            path.push(c);
            if rec(grid, dice, path, used | 1 << c) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::with_capacity(dice.len());
    (!dice.is_empty() && rec(grid, dice, &mut path, 0)).then_some(path)
}

/// The reference solver: one [`trace`] per dictionary word.
pub fn solve_by_words(grid: &Grid, words: &[Vec<u8>], min_letters: usize) -> Vec<Letters> {
    let found = words
        .iter()
        .filter(|d| trace(grid, d).is_some())
        .cloned()
        .collect();
    finish(found, min_letters)
}

/// The second reference, for small grids: the dice form of every simple path, looked up in
/// a set.
pub fn solve_by_paths(grid: &Grid, words: &[Vec<u8>], min_letters: usize) -> Vec<Letters> {
    let set: HashSet<&[u8]> = words.iter().map(|w| &w[..]).collect();
    let mut found = HashSet::new();
    let mut stack: Vec<(Vec<usize>, Vec<u8>)> = (0..grid.cells())
        .map(|c| (vec![c], vec![grid.faces[c]]))
        .collect();
    while let Some((path, w)) = stack.pop() {
        if set.contains(&w[..]) {
            found.insert(w.clone());
        }
        let last = *path.last().expect("non-empty");
        for d in 0..grid.cells() {
            if !path.contains(&d) && grid.adjacent(last, d) {
                let mut p = path.clone();
                p.push(d);
                let mut x = w.clone();
                x.push(grid.faces[d]);
                stack.push((p, x));
            }
        }
    }
    finish(found, min_letters)
}

/// The leaf of a dice form (at most [`MAX_DICE`] symbols): symbol `s` as `s + 1` in 5 bits,
/// slot `i` at bits `5i … 5i+4` (bit `k` of the leaf is bit `k mod 8` of byte `k / 8`).
pub fn leaf(dice: &[u8]) -> Node {
    assert!(dice.len() <= MAX_DICE);
    let mut n = [0u8; NODE_BYTES];
    for (i, &s) in dice.iter().enumerate() {
        for k in 0..5 {
            if (s + 1) >> k & 1 == 1 {
                let bit = 5 * i + k;
                n[bit / 8] |= 1 << (bit % 8);
            }
        }
    }
    n
}

/// Domain tag of the node masks ([`node_masks`]).
pub const MASK_TAG: &[u8] = b"zkg:boggle:node-mask:v1";

/// The node masks `(A_k, B_k)` of the tweak's bits `k = 0..8`: `A_k ‖ B_k =
/// SHA-256(MASK_TAG ‖ u8 k)`, then byte 15 of `A_k` set to `2^k` and byte 15 of `B_k` to 0
/// (so the key's byte 15 is the tweak itself and the plaintext's the level).
pub fn node_masks() -> &'static [([u8; 16], [u8; 16]); 8] {
    static MASKS: std::sync::OnceLock<[([u8; 16], [u8; 16]); 8]> = std::sync::OnceLock::new();
    MASKS.get_or_init(|| {
        std::array::from_fn(|k| {
            let mut h = Sha256::new();
            h.update(MASK_TAG);
            h.update([k as u8]);
            let d: [u8; 32] = h.finalize().into();
            let mut a: [u8; 16] = d[..16].try_into().expect("16");
            let mut b: [u8; 16] = d[16..].try_into().expect("16");
            a[15] = 1 << k;
            b[15] = 0;
            (a, b)
        })
    })
}

/// The key `(L ‖ 0) ⊕ A(t)` and plaintext `(R ‖ level) ⊕ B(t)` of a node, `A(t)` the XOR of
/// the masks `A_k` of the tweak's set bits (and `B(t)` likewise): linear in the tweak.
fn node_key_pt(level: usize, l: &Node, r: &Node, t: u8) -> ([u8; 16], [u8; 16]) {
    let mut k = [0u8; 16];
    k[..NODE_BYTES].copy_from_slice(l);
    let mut p = [0u8; 16];
    p[..NODE_BYTES].copy_from_slice(r);
    p[15] = level as u8;
    for (bit, (a, b)) in node_masks().iter().enumerate() {
        if t >> bit & 1 == 1 {
            for i in 0..16 {
                k[i] ^= a[i];
                p[i] ^= b[i];
            }
        }
    }
    (k, p)
}

/// AES-128 of `pt` under `key` by a table, or `None` as soon as an S-box input is zero (the
/// tree's builds: tested against [`aes128::encrypt`] and [`aes128::sbox_inputs_nonzero`]).
pub fn aes_nonzero(key: &[u8; 16], pt: &[u8; 16]) -> Option<[u8; 16]> {
    static SBOX: std::sync::OnceLock<[u8; 256]> = std::sync::OnceLock::new();
    let sb = SBOX.get_or_init(|| std::array::from_fn(|x| aes128::sbox(x as u8)));
    let sub = |x: u8| (x != 0).then(|| sb[x as usize]);
    const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];
    let mut w = [[0u8; 4]; 44];
    for i in 0..4 {
        w[i].copy_from_slice(&key[4 * i..4 * i + 4]);
    }
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            t = [
                sub(t[1])? ^ RCON[i / 4 - 1],
                sub(t[2])?,
                sub(t[3])?,
                sub(t[0])?,
            ];
        }
        w[i] = std::array::from_fn(|k| w[i - 4][k] ^ t[k]);
    }
    let xt = |b: u8| (b << 1) ^ if b & 0x80 != 0 { 0x1b } else { 0 };
    let mut s: [u8; 16] = std::array::from_fn(|i| pt[i] ^ w[i / 4][i % 4]);
    for r in 1..=10 {
        let mut sub_b = [0u8; 16];
        for i in 0..16 {
            sub_b[i] = sub(s[i])?;
        }
        let shifted: [u8; 16] = std::array::from_fn(|i| {
            let (row, col) = (i % 4, i / 4);
            sub_b[row + 4 * ((col + row) % 4)]
        });
        s = if r < 10 {
            std::array::from_fn(|i| {
                let (c, row) = (i / 4, i % 4);
                let a = |k: usize| shifted[4 * c + (row + k) % 4];
                xt(a(0)) ^ xt(a(1)) ^ a(1) ^ a(2) ^ a(3)
            })
        } else {
            shifted
        };
        for (i, x) in s.iter_mut().enumerate() {
            *x ^= w[4 * r + i / 4][i % 4];
        }
    }
    Some(s)
}

/// `F_level(L, R, t)` (module docs), or `None` if an S-box input of the encryption is zero.
pub fn compress_with(level: usize, l: &Node, r: &Node, t: u8) -> Option<Node> {
    let (k, p) = node_key_pt(level, l, r, t);
    let c = aes_nonzero(&k, &p)?;
    Some(std::array::from_fn(|i| c[i] ^ p[i]))
}

/// The node above `l` and `r` at `level` and its tweak, the smallest that the VOLE engine can
/// prove (bad input in the improbable case that none of the 256 can: about `2^-225`).
pub fn compress(level: usize, l: &Node, r: &Node) -> Result<(Node, u8)> {
    (0..=255u8)
        .find_map(|t| compress_with(level, l, r, t).map(|n| (n, t)))
        .ok_or_else(|| {
            Error::bad("the dictionary cannot be hashed for a find (no tweak of a node works)")
        })
}

/// One level of a path: whether the current node is the right child, the sibling, the tweak.
pub type Step = (bool, Node, u8);

/// The Merkle tree of one length class.
#[derive(Clone, Debug)]
pub struct Tree {
    /// `levels[0]` the leaves (padded), the last level the root alone.
    levels: Vec<Vec<Node>>,
    /// `tweaks[j][i]`: the tweak of node `i` of `levels[j + 1]`.
    tweaks: Vec<Vec<u8>>,
    /// Leaves before padding.
    words: usize,
}

impl Tree {
    /// The tree of leaves (at least one; sorted by their bytes and repeats dropped here).
    pub fn build(mut leaves: Vec<Node>) -> Result<Self> {
        assert!(!leaves.is_empty());
        leaves.sort_unstable();
        leaves.dedup();
        let words = leaves.len();
        let last = *leaves.last().expect("non-empty");
        leaves.resize(words.next_power_of_two(), last);
        let mut levels = vec![leaves];
        let mut tweaks = Vec::new();
        while levels.last().expect("a level").len() > 1 {
            let j = levels.len() - 1;
            let below = &levels[j];
            let mut up = Vec::with_capacity(below.len() / 2);
            let mut tw = Vec::with_capacity(below.len() / 2);
            for p in below.chunks(2) {
                let (n, t) = compress(j, &p[0], &p[1])?;
                up.push(n);
                tw.push(t);
            }
            levels.push(up);
            tweaks.push(tw);
        }
        Ok(Tree {
            levels,
            tweaks,
            words,
        })
    }

    pub fn root(&self) -> Node {
        self.levels.last().expect("a level")[0]
    }

    /// Levels of hashing (the path's length).
    pub fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// Words in the class.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The leaves, sorted (padding included).
    pub fn leaves(&self) -> &[Node] {
        &self.levels[0]
    }

    /// The path of leaf `i`.
    pub fn path(&self, mut i: usize) -> Vec<Step> {
        let mut out = Vec::with_capacity(self.depth());
        for j in 0..self.depth() {
            out.push((i % 2 == 1, self.levels[j][i ^ 1], self.tweaks[j][i / 2]));
            i /= 2;
        }
        out
    }
}

/// The root a path leads to from `leaf` (natively), if every node can be proven.
pub fn root_of(leaf: &Node, path: &[Step]) -> Option<Node> {
    let mut cur = *leaf;
    for (j, (dir, sib, t)) in path.iter().enumerate() {
        let (l, r) = if *dir { (sib, &cur) } else { (&cur, sib) };
        cur = compress_with(j, l, r, *t)?;
    }
    Some(cur)
}

/// A dictionary for finds: the list, its dice forms by length in dice, the trees built on
/// demand.
pub struct Dictionary {
    list: WordList,
    classes: BTreeMap<usize, Vec<Vec<u8>>>,
    force: Option<Design>,
}

impl Dictionary {
    /// Reads a dictionary: one word a line, 1 to [`MAX_LETTERS`] letters (the rules of
    /// [`WordList::parse_lengths`]).
    pub fn parse(text: &str, what: &str) -> Result<Self> {
        Ok(Self::from_list(WordList::parse_lengths(
            text,
            1,
            MAX_LETTERS,
            what,
        )?))
    }

    /// The shipped dictionary.
    pub fn shipped() -> Self {
        Self::parse(DEFAULT_DICT, "the shipped dictionary").expect("shipped dictionary")
    }

    pub fn from_list(list: WordList) -> Self {
        let mut classes: BTreeMap<usize, Vec<Vec<u8>>> = BTreeMap::new();
        for d in dice_forms(&list, MAX_DICE) {
            classes.entry(d.len()).or_default().push(d);
        }
        for c in classes.values_mut() {
            c.sort_unstable();
        }
        Dictionary {
            list,
            classes,
            force: None,
        }
    }

    pub fn list(&self) -> &WordList {
        &self.list
    }

    pub fn digest(&self) -> Digest {
        self.list.digest()
    }

    /// The dice forms of `m` dice, sorted.
    pub fn class(&self, m: usize) -> &[Vec<u8>] {
        self.classes.get(&m).map_or(&[], |c| &c[..])
    }

    /// The lengths in dice present, with their word counts.
    pub fn class_sizes(&self) -> Vec<(usize, usize)> {
        self.classes.iter().map(|(&m, c)| (m, c.len())).collect()
    }

    /// The same dictionary with one design for every class (tests and measurements; both
    /// sides of a find must force the same).
    pub fn forcing(mut self, d: Design) -> Self {
        self.force = Some(d);
        self
    }

    /// The membership of the words of `m` dice: the compiled automaton if it commits fewer
    /// bits than the Merkle path (AND gates against [`merkle_bits`]), else the tree (rejected
    /// if there is no word of `m` dice).
    pub fn membership(&self, m: usize) -> Result<Membership> {
        let c = self.class(m);
        if c.is_empty() {
            return Err(Error::rejected(format!(
                "the dictionary has no word of {m} dice"
            )));
        }
        let depth = c.len().next_power_of_two().trailing_zeros() as usize;
        let design = match self.force {
            Some(d) => d,
            None if automaton_ands(c, m) < merkle_bits(m, depth) => Design::Automaton,
            None => Design::Merkle,
        };
        match design {
            Design::Merkle => Ok(Membership::Merkle(self.tree(m)?)),
            Design::Automaton => {
                let list = WordList::from_letters(m, c.to_vec());
                let backward = dict::automaton_and_gates(&list, true)
                    < dict::automaton_and_gates(&list, false);
                Ok(Membership::Automaton { list, backward })
            }
        }
    }

    /// The tree of the words of `m` dice (rejected if there is none: a find names a length
    /// the dictionary does not have).
    pub fn tree(&self, m: usize) -> Result<Tree> {
        let c = self.class(m);
        if c.is_empty() {
            return Err(Error::rejected(format!(
                "the dictionary has no word of {m} dice"
            )));
        }
        Tree::build(c.iter().map(|d| leaf(d)).collect())
    }
}

/// Committed bits of one node ([`node_gadget`]): 120 inverted bytes and 80 norms.
pub const NODE_COMMITTED_BITS: usize = 8 * 120 + 4 * 80;

/// Committed bits of a Merkle path of `depth` levels for a word of `m` dice: per level the
/// direction, the sibling, the tweak, the swap's AND gates and the node (at the bottom the
/// sibling and the swap take `5m` bits).
pub fn merkle_bits(m: usize, depth: usize) -> usize {
    let level = |sib: usize| 1 + sib + 8 + sib + NODE_COMMITTED_BITS;
    match depth {
        0 => 0,
        d => level(5 * m) + (d - 1) * level(8 * NODE_BYTES),
    }
}

/// A membership design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// A Merkle path in the class's tree ([`Tree`]).
    Merkle,
    /// The class's minimal automaton compiled into the circuit ([`dict`]).
    Automaton,
}

/// How a find proves that its word is in its length class: the design with fewer committed
/// bits, a function of the class (both sides compute it).
pub enum Membership {
    Merkle(Tree),
    Automaton { list: WordList, backward: bool },
}

impl Membership {
    /// The design's byte in the public bytes: 0 Merkle, 1 automaton read forward, 2 backward.
    pub fn code(&self) -> u8 {
        match self {
            Membership::Merkle(_) => 0,
            Membership::Automaton { backward, .. } => 1 + *backward as u8,
        }
    }

    /// Words in the class.
    pub fn words(&self) -> usize {
        match self {
            Membership::Merkle(t) => t.words(),
            Membership::Automaton { list, .. } => list.len(),
        }
    }

    /// The tree's depth (0 for the automaton).
    pub fn depth(&self) -> usize {
        match self {
            Membership::Merkle(t) => t.depth(),
            Membership::Automaton { .. } => 0,
        }
    }

    pub fn design(&self) -> Design {
        match self {
            Membership::Merkle(_) => Design::Merkle,
            Membership::Automaton { .. } => Design::Automaton,
        }
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        match self {
            Membership::Merkle(t) => format!("Merkle tree of depth {}", t.depth()),
            Membership::Automaton { backward, .. } => format!(
                "compiled automaton (read {})",
                if *backward { "backward" } else { "forward" }
            ),
        }
    }
}

/// AND gates of the compiled-automaton alternative for the words of one class: the cheaper
/// direction of [`dict::automaton_and_gates`] (the letters' one-hot bits come free from the
/// path's, the faces being public).
pub fn automaton_ands(class: &[Vec<u8>], m: usize) -> usize {
    let list = WordList::from_letters(m, class.to_vec());
    dict::automaton_and_gates(&list, false).min(dict::automaton_and_gates(&list, true))
}

/// Bits of a die's index on a grid of `cells` dice.
pub fn index_bits(cells: usize) -> usize {
    (usize::BITS - (cells - 1).leading_zeros()).max(1) as usize
}

/// The path gadget: the symbols' codes (5 bits, `s + 1`) of the dice the indices name, and
/// the checks with the values they must take: per die `[index names no die] = 0`, per step
/// `[adjacent] = 1` and `[die used before] = 0`.
pub fn path_gadget(
    b: &mut Builder,
    grid: &Grid,
    steps: &[Vec<Bit>],
) -> (Vec<[Bit; 5]>, Vec<(Bit, bool)>) {
    let (codes, checks, _) = path_gadget_onehot(b, grid, steps);
    (codes, checks)
}

/// What [`path_gadget_onehot`] gives: per die its symbol's code (5 bits), the checks with
/// their values, per die its symbol's one-hot bits (26).
pub type PathBits = (Vec<[Bit; 5]>, Vec<(Bit, bool)>, Vec<Vec<Bit>>);

/// [`path_gadget`], and per die the one-hot bits of its symbol (26, `⊕` of the dice showing
/// it: the faces are public).
pub fn path_gadget_onehot(b: &mut Builder, grid: &Grid, steps: &[Vec<Bit>]) -> PathBits {
    let mut symbols = Vec::with_capacity(steps.len());
    let cells = grid.cells();
    let mut codes = Vec::with_capacity(steps.len());
    let mut checks = Vec::new();
    let mut seen = vec![Bit::Const(false); cells];
    let mut prev: Option<Vec<Bit>> = None;
    let mut later = Vec::new();
    for bits in steps {
        let oh = dict::decode(b, bits);
        let invalid = oh[cells..]
            .iter()
            .fold(Bit::Const(false), |a, &x| b.xor(a, x));
        checks.push((invalid, false));
        let code: [Bit; 5] = std::array::from_fn(|k| {
            (0..cells)
                .filter(|&c| (grid.faces[c] + 1) >> k & 1 == 1)
                .fold(Bit::Const(false), |a, c| b.xor(a, oh[c]))
        });
        codes.push(code);
        let mut sym = vec![Bit::Const(false); 26];
        for (&f, &x) in grid.faces.iter().zip(&oh) {
            sym[f as usize] = b.xor(sym[f as usize], x);
        }
        symbols.push(sym);
        if let Some(p) = &prev {
            let mut adj = Bit::Const(false);
            let mut again = Bit::Const(false);
            for c in 0..cells {
                let nb = grid
                    .neighbours(c)
                    .fold(Bit::Const(false), |a, d| b.xor(a, p[d]));
                let x = b.and(oh[c], nb);
                adj = b.xor(adj, x);
                let y = b.and(oh[c], seen[c]);
                again = b.xor(again, y);
            }
            later.push((adj, true));
            later.push((again, false));
        }
        for c in 0..cells {
            seen[c] = b.xor(seen[c], oh[c]);
        }
        prev = Some(oh[..cells].to_vec());
    }
    checks.extend(later);
    (codes, checks, symbols)
}

/// The leaf's 120 bits from the codes of its first slots (the rest zero).
fn leaf_bits(codes: &[[Bit; 5]]) -> Vec<Bit> {
    let mut out = vec![Bit::Const(false); 8 * NODE_BYTES];
    for (i, c) in codes.iter().enumerate() {
        out[5 * i..5 * i + 5].copy_from_slice(c);
    }
    out
}

fn bytes_of(bits: &[Bit]) -> Vec<Byte> {
    bits.chunks(8)
        .map(|c| std::array::from_fn(|j| c[j]))
        .collect()
}

/// `F_level(L, R, t)` as a circuit: 200 S-boxes (80 norm bytes), no AND gate (the masks
/// are XORs of tweak bits).
pub fn node_gadget(b: &mut Builder, level: usize, l: &[Bit], r: &[Bit], t: &[Bit]) -> Vec<Bit> {
    let masks = node_masks();
    let mut kbits: Vec<Bit> = l.to_vec();
    kbits.extend([Bit::Const(false); 8]);
    let mut pbits: Vec<Bit> = r.to_vec();
    pbits.extend((0..8).map(|j| Bit::Const(level >> j & 1 == 1)));
    for i in 0..128 {
        for (k, (ma, mb)) in masks.iter().enumerate() {
            if ma[i / 8] >> (i % 8) & 1 == 1 {
                kbits[i] = b.xor(kbits[i], t[k]);
            }
            if mb[i / 8] >> (i % 8) & 1 == 1 {
                pbits[i] = b.xor(pbits[i], t[k]);
            }
        }
    }
    let kb = bytes_of(&kbits);
    let pb = bytes_of(&pbits);
    let key: [Byte; 16] = std::array::from_fn(|i| kb[i]);
    let pt: [Byte; 16] = std::array::from_fn(|i| pb[i]);
    let c = encrypt_many(b, &key, &[pt]).remove(0);
    (0..8 * NODE_BYTES)
        .map(|i| b.xor(c[i / 8][i % 8], pt[i / 8][i % 8]))
        .collect()
}

/// The Merkle path gadget: the root's 120 bits from the leaf's and per level the direction
/// bit, the sibling (120 bits) and the tweak (8 bits). 120 AND gates a level (the swap).
pub fn merkle_gadget(
    b: &mut Builder,
    leaf: &[Bit],
    levels: &[(Bit, Vec<Bit>, Vec<Bit>)],
) -> Vec<Bit> {
    let mut cur = leaf.to_vec();
    for (j, (dir, sib, t)) in levels.iter().enumerate() {
        let l: Vec<Bit> = (0..cur.len())
            .map(|i| {
                let d = b.xor(sib[i], cur[i]);
                let x = b.and(*dir, d);
                b.xor(cur[i], x)
            })
            .collect();
        let r: Vec<Bit> = (0..cur.len())
            .map(|i| {
                let x = b.xor(cur[i], sib[i]);
                b.xor(x, l[i])
            })
            .collect();
        cur = node_gadget(b, j, &l, &r, t);
    }
    cur
}

/// The commitment's two plaintexts: the leaf ‖ `COMMIT_DOMAIN + j`.
pub fn plaintexts(leaf: &Node) -> [[u8; 16]; 2] {
    std::array::from_fn(|j| {
        let mut p = [0u8; 16];
        p[..NODE_BYTES].copy_from_slice(leaf);
        p[15] = COMMIT_DOMAIN + j as u8 + 1;
        p
    })
}

/// The commitment to a leaf under `key` (32 bytes).
pub fn commit_leaf(key: &Key, leaf: &Node) -> commit::Commitment {
    let [p1, p2] = plaintexts(leaf);
    let mut c = [0u8; commit::COMMIT_BYTES];
    c[..16].copy_from_slice(&aes128::encrypt(key, &p1));
    c[16..].copy_from_slice(&aes128::encrypt(key, &p2));
    c
}

/// A fresh key for a leaf: uniformly random among those the VOLE engine can prove.
pub fn fresh_key(leaf: &Node, rng: &mut impl RngCore) -> Key {
    let [p1, p2] = plaintexts(leaf);
    loop {
        let mut k = [0u8; commit::KEY_BYTES];
        rng.fill_bytes(&mut k);
        if aes128::sbox_inputs_nonzero(&k, &p1) && aes128::sbox_inputs_nonzero(&k, &p2) {
            return k;
        }
        k.fill(0);
    }
}

/// The shape of a find: the grid, the length in dice, the tree's depth.
fn witness_len(grid: &Grid, m: usize, depth: usize) -> usize {
    128 + m * index_bits(grid.cells()) + depth * (1 + 8 * NODE_BYTES + 8)
        - depth.min(1) * (8 * NODE_BYTES - 5 * m)
}

/// The find circuit: outputs `C` (256) ‖ the root (120, Merkle design) ‖ the membership bit
/// (automaton design) ‖ the path's checks; with the values of the outputs after the root.
pub fn find_circuit(grid: &Grid, m: usize, mem: &Membership) -> (Circuit, Vec<bool>) {
    assert!((1..=MAX_DICE.min(grid.cells())).contains(&m));
    let depth = mem.depth();
    let ib = index_bits(grid.cells());
    let mut b = Builder::new(witness_len(grid, m, depth));
    let key: Vec<Bit> = (0..128).map(|i| b.input(i)).collect();
    let steps: Vec<Vec<Bit>> = (0..m)
        .map(|i| (0..ib).map(|k| b.input(128 + ib * i + k)).collect())
        .collect();
    let mut at = 128 + ib * m;
    let levels: Vec<(Bit, Vec<Bit>, Vec<Bit>)> = (0..depth)
        .map(|j| {
            // the bottom sibling is a leaf of m dice: its bits from 5m on are zero
            let n = if j == 0 { 5 * m } else { 8 * NODE_BYTES };
            let dir = b.input(at);
            let sib = (0..8 * NODE_BYTES)
                .map(|i| {
                    if i < n {
                        b.input(at + 1 + i)
                    } else {
                        Bit::Const(false)
                    }
                })
                .collect();
            let t = (0..8).map(|i| b.input(at + 1 + n + i)).collect();
            at += 1 + n + 8;
            (dir, sib, t)
        })
        .collect();
    let (codes, checks, symbols) = path_gadget_onehot(&mut b, grid, &steps);
    let lb = leaf_bits(&codes);
    let lbytes = bytes_of(&lb);
    let pts: Vec<[Byte; 16]> = (0..2)
        .map(|j| {
            std::array::from_fn(|i| {
                if i < NODE_BYTES {
                    lbytes[i]
                } else {
                    commit::const_byte(COMMIT_DOMAIN + j as u8 + 1)
                }
            })
        })
        .collect();
    let kb: [Byte; 16] = std::array::from_fn(|i| std::array::from_fn(|j| key[8 * i + j]));
    let c: Vec<Bit> = encrypt_many(&mut b, &kb, &pts)
        .iter()
        .flat_map(|blk| blk.iter().flat_map(|x| x.iter().copied()))
        .collect();
    b.output_word(&c);
    let mut tail = Vec::new();
    match mem {
        Membership::Merkle(_) => {
            let root = merkle_gadget(&mut b, &lb, &levels);
            b.output_word(&root);
        }
        Membership::Automaton { list, backward } => {
            let member = dict::automaton_onehot_gadget(&mut b, list, &symbols, *backward);
            b.output(member);
            tail.push(true);
        }
    }
    for (bit, want) in &checks {
        b.output(*bit);
        tail.push(*want);
    }
    (b.finish(), tail)
}

/// The witness of a find.
pub fn witness(grid: &Grid, key: &Key, path: &[usize], steps: &[Step]) -> Vec<bool> {
    let ib = index_bits(grid.cells());
    let mut w = commit::bits_of(key);
    for &c in path {
        w.extend((0..ib).map(|k| c >> k & 1 == 1));
    }
    for (j, (dir, sib, t)) in steps.iter().enumerate() {
        w.push(*dir);
        let sb = commit::bits_of(sib);
        // the bottom sibling: a leaf of as many dice as the path
        w.extend(&sb[..if j == 0 { 5 * path.len() } else { sb.len() }]);
        w.extend((0..8).map(|k| t >> k & 1 == 1));
    }
    w
}

/// Public bytes of a find: `"zkg:boggle:find:v1" ‖ grid digest ‖ dictionary digest ‖ u8 m ‖
/// u8 design (0 Merkle, 1 automaton forward, 2 backward) ‖ u64-le words of m dice`, then for the
/// Merkle design `u8 depth ‖ root (15 bytes)`.
pub fn find_public(grid: &Grid, dict: &Digest, m: usize, mem: &Membership) -> Vec<u8> {
    let mut p = b"zkg:boggle:find:v1".to_vec();
    p.extend_from_slice(&grid.digest());
    p.extend_from_slice(dict);
    p.push(m as u8);
    p.push(mem.code());
    p.extend_from_slice(&(mem.words() as u64).to_le_bytes());
    if let Membership::Merkle(t) = mem {
        p.push(t.depth() as u8);
        p.extend_from_slice(&t.root());
    }
    p
}

/// The public side of a find.
pub struct FindStatement {
    circuit: Circuit,
    output: Vec<bool>,
    public: Vec<u8>,
    context: Vec<u8>,
}

impl FindStatement {
    pub fn new(
        grid: &Grid,
        dict: &Digest,
        m: usize,
        mem: &Membership,
        c: &commit::Commitment,
        engine: Engine,
        context: &[u8],
    ) -> Self {
        let (circuit, tail) = find_circuit(grid, m, mem);
        let mut y = commit::bits_of(c);
        if let Membership::Merkle(t) = mem {
            y.extend(commit::bits_of(&t.root()));
        }
        y.extend(tail);
        let (circuit, output) = match engine {
            Engine::Vole => (circuit, y),
            Engine::Zkbpp | Engine::Kkw => {
                let out = circuit.lowered_output(&y);
                (circuit.lowered(), out)
            }
        };
        FindStatement {
            circuit,
            output,
            public: find_public(grid, dict, m, mem),
            context: context.to_vec(),
        }
    }

    pub fn statement(&self) -> Statement<'_> {
        Statement {
            tag: FIND_TAG,
            circuit: &self.circuit,
            public: &self.public,
            output: &self.output,
            context: &self.context,
        }
    }

    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }
}

/// Find files: protocol ids 496 (ZKB++), 497 (KKW), 498 (VOLE-in-the-head).
pub const FIND_PROTOCOLS: Protocols = Protocols {
    what: "a sealed Boggle find",
    zkbpp: ProtocolId::BoggleFindMpc,
    kkw: ProtocolId::BoggleFindKkw,
    vole: ProtocolId::BoggleFindVole,
};

/// What precedes the proof in a find file's body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindHead {
    pub commitment: commit::Commitment,
    pub grid: Digest,
    pub dictionary: Digest,
    /// The word's length in dice.
    pub dice: u8,
}

/// `SHA-256(FIND_DIGEST_TAG ‖ find file bytes)`.
pub fn find_digest(file: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update(FIND_DIGEST_TAG);
    h.update(file);
    h.finalize().into()
}

/// The secret opening: the find's digest, the key and the word.
///
/// Bytes: `"ZKGBOGL\0" ‖ u16-le version 1 ‖ find digest (32) ‖ key (16) ‖ u8 n ‖ the word
/// (n ASCII lower-case letters, 1 ≤ n ≤ MAX_LETTERS)`, nothing after.
#[derive(Clone, PartialEq, Eq)]
pub struct Opening {
    pub find: Digest,
    pub key: Key,
    pub word: Letters,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opening {{ find: {}, .. }}", hex::encode(self.find))
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        self.key.fill(0);
        self.word.fill(0);
        std::hint::black_box(&mut self.key);
    }
}

/// Magic bytes of an opening.
pub const OPENING_MAGIC: &[u8; 8] = b"ZKGBOGL\0";
/// Bytes before the word.
const OPENING_HEAD: usize = 8 + 2 + 32 + 16 + 1;

impl Opening {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = OPENING_MAGIC.to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&self.find);
        b.extend_from_slice(&self.key);
        b.push(self.word.len() as u8);
        b.extend(self.word.iter().map(|&l| b'a' + l));
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() < OPENING_HEAD || &b[..8] != OPENING_MAGIC {
            return Err(Error::bad(
                "not a Boggle opening (wrong size or magic bytes)",
            ));
        }
        if b[8..10] != 1u16.to_le_bytes() {
            return Err(Error::bad(
                "Boggle opening: version not supported (this build reads 1)",
            ));
        }
        let n = b[OPENING_HEAD - 1] as usize;
        let word = &b[OPENING_HEAD..];
        if n == 0 || n > MAX_LETTERS || word.len() != n {
            return Err(Error::bad("Boggle opening: wrong size"));
        }
        if !word.iter().all(|c| c.is_ascii_lowercase()) {
            return Err(Error::bad("Boggle opening: the word is not letters a-z"));
        }
        Ok(Opening {
            find: b[10..42].try_into().expect("32"),
            key: b[42..58].try_into().expect("16"),
            word: word.iter().map(|c| c - b'a').collect(),
        })
    }
}

/// A sealed find: the file's bytes and the opening.
pub struct Sealed {
    pub file: Vec<u8>,
    pub opening: Opening,
    pub dice: usize,
    pub membership: Membership,
}

/// Seals a find of `word` (bad input unless it is in the dictionary and on the grid).
pub fn seal(
    grid: &Grid,
    dict: &Dictionary,
    word: &[u8],
    system: &System,
    context: &[u8],
    rng: &mut impl RngCore,
) -> Result<Sealed> {
    let w = dict::word_of(word);
    if !dict.list().contains(word) {
        return Err(Error::bad(format!(
            "{w} is not in the dictionary: only a listed word can be sealed"
        )));
    }
    let Some(dice) = dice_of(word) else {
        return Err(Error::bad(format!(
            "{w} cannot be traced: it has a q without u (the grid's q face is Qu)"
        )));
    };
    if dice.len() > MAX_DICE {
        return Err(Error::bad(format!(
            "{w} takes {} dice; a find holds at most {MAX_DICE}",
            dice.len()
        )));
    }
    let Some(path) = trace(grid, &dice) else {
        return Err(Error::bad(format!(
            "{w} is not on the grid {} (adjacent dice, each once)",
            grid.text()
        )));
    };
    let m = dice.len();
    let mem = dict.membership(m)?;
    let lf = leaf(&dice);
    let steps = match &mem {
        Membership::Merkle(tree) => {
            let i = tree
                .leaves()
                .binary_search(&lf)
                .expect("a listed word is a leaf");
            tree.path(i)
        }
        Membership::Automaton { .. } => Vec::new(),
    };
    let key = fresh_key(&lf, rng);
    let c = commit_leaf(&key, &lf);
    let st = FindStatement::new(grid, &dict.digest(), m, &mem, &c, system.engine(), context);
    let mut wit = witness(grid, &key, &path, &steps);
    let proof = system.prove(&st.statement(), &wit, rng);
    wit.fill(false);
    let head = FindHead {
        commitment: c,
        grid: grid.digest(),
        dictionary: dict.digest(),
        dice: m as u8,
    };
    let file = proof?.file_bytes(&FIND_PROTOCOLS, &head);
    Ok(Sealed {
        opening: Opening {
            find: find_digest(&file),
            key,
            word: word.to_vec(),
        },
        file,
        dice: m,
        membership: mem,
    })
}

/// Reads a find file (bad input if it is not one).
pub fn read_find(bytes: &[u8]) -> Result<(FindHead, Proof)> {
    let f = ProofFile::from_bytes(bytes)?;
    Proof::read_file(&FIND_PROTOCOLS, &f, "sealed Boggle find")
}

/// Verifies a find against the grid and dictionary: its head, and its digest.
pub fn verify(
    grid: &Grid,
    dict: &Dictionary,
    bytes: &[u8],
    req: &Required,
    context: &[u8],
) -> Result<(FindHead, Digest)> {
    let (head, proof) = read_find(bytes)?;
    if head.grid != grid.digest() {
        return Err(Error::rejected(format!(
            "this find was sealed on another grid, not {}",
            grid.text()
        )));
    }
    if head.dictionary != dict.digest() {
        return Err(Error::rejected(
            "this find was sealed against another dictionary (give the same --dict as the prover)",
        ));
    }
    let m = head.dice as usize;
    if m == 0 || m > MAX_DICE.min(grid.cells()) {
        return Err(Error::rejected(format!(
            "this find names a word of {m} dice, which the grid cannot hold"
        )));
    }
    let mem = dict.membership(m)?;
    let st = FindStatement::new(
        grid,
        &dict.digest(),
        m,
        &mem,
        &head.commitment,
        proof.engine(),
        context,
    );
    proof.verify(&st.statement(), req)?;
    Ok((head, find_digest(bytes)))
}

/// Opens a verified find: the word, if the opening matches.
pub fn open(
    grid: &Grid,
    dict: &Dictionary,
    file: &[u8],
    head: &FindHead,
    opening: &Opening,
) -> Result<Letters> {
    if opening.find != find_digest(file) {
        return Err(Error::rejected("this opening is for another find"));
    }
    let dice = dice_of(&opening.word).filter(|d| d.len() == head.dice as usize);
    let ok = dice
        .as_ref()
        .is_some_and(|d| commit_leaf(&opening.key, &leaf(d)) == head.commitment);
    if !ok {
        return Err(Error::rejected(
            "the opening's word and key do not give the find's commitment",
        ));
    }
    let dice = dice.expect("checked");
    if !dict.list().contains(&opening.word) || trace(grid, &dice).is_none() {
        return Err(Error::rejected(
            "the opened word is not a dictionary word on the grid",
        ));
    }
    Ok(opening.word.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    fn random_grid(rng: &mut impl rand::Rng, side: usize, alphabet: u8) -> Grid {
        Grid::new(
            side,
            (0..side * side)
                .map(|_| rng.gen_range(0..alphabet))
                .collect(),
        )
    }

    fn random_words(rng: &mut impl rand::Rng, n: usize, alphabet: u8, max: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|_| {
                let l = rng.gen_range(1..=max);
                (0..l).map(|_| rng.gen_range(0..alphabet)).collect()
            })
            .collect()
    }

    /// The trie walk against both references on many random small grids (small alphabets:
    /// many words on every grid, repeated letters, and the Qu face among them).
    #[test]
    fn the_trie_walk_finds_what_brute_force_finds() {
        let mut rng = seeded_rng(41);
        let mut total = 0;
        for it in 0..400 {
            let side = [2usize, 3, 3, 4][it % 4];
            let alphabet = [2u8, 3, 5, 26][it / 4 % 4];
            // letters 16 (q) and 20 (u) are in play when the alphabet is shifted
            let shift = if it % 3 == 0 { 15 } else { 0 };
            let g = Grid::new(
                side,
                random_grid(&mut rng, side, alphabet)
                    .faces()
                    .iter()
                    .map(|f| (f + shift) % 26)
                    .collect(),
            );
            let words: Vec<Vec<u8>> = random_words(&mut rng, 300, alphabet, side * side)
                .into_iter()
                .map(|w| w.iter().map(|f| (f + shift) % 26).collect())
                .collect();
            let trie = Trie::new(&words);
            let min = it % 3;
            let got = solve(&g, &trie, min);
            assert_eq!(got, solve_by_words(&g, &words, min), "{g:?}");
            if side <= 3 {
                assert_eq!(got, solve_by_paths(&g, &words, min), "{g:?}");
            }
            for w in &got {
                assert!(w.len() >= min);
            }
            total += got.len();
        }
        assert!(total > 2000, "{total}");
    }

    #[test]
    fn dice_forms_and_qu() {
        let l = |s: &str| dict::letters_of(s).unwrap();
        assert_eq!(dice_of(&l("queen")).unwrap(), l("qeen"));
        assert_eq!(letters_of_dice(&l("qeen")), l("queen"));
        assert!(dice_of(&l("qatar")).is_none());
        assert!(dice_of(&l("iraq")).is_none());
        let g = Grid::parse("QEEN/xxxx/xxxx/xxxx", "grid").unwrap();
        let d = Dictionary::parse("queen\nqeen\n", "d").unwrap();
        let trie = Trie::new(&dice_forms(d.list(), 16));
        assert_eq!(solve(&g, &trie, 5), vec![l("queen")]);
        assert_eq!(solve(&g, &trie, 0), vec![l("queen")]);
    }

    #[test]
    fn grids_are_read_strictly() {
        let a = Grid::parse("abcd/efgh/ijkl/mnop", "g").unwrap();
        let b = Grid::parse("\u{feff}ABCD\r\nefgh\nijkl\nmnop\n", "g").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.text(), "abcd/efgh/ijkl/mnop");
        assert_eq!(
            Grid::parse("abcde/fghij/klmno/pqrst/uvwxy", "g")
                .unwrap()
                .cells(),
            25
        );
        for (bad, needle) in [
            ("", "0 rows"),
            ("abc/def/ghi", "3 rows"),
            ("abcd/efgh/ijkl/mno", "row 4 has 3"),
            ("abcd/ef1h/ijkl/mnop", "row 2"),
            ("abcd/efgh/ijkl/mnop/qrst", "row 1 has 4 letters, not 5"),
            ("abcdef/a/b/c/d/e", "6 rows"),
        ] {
            let e = Grid::parse(bad, "the grid").unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
            assert!(!e.contains('\n'));
        }
        assert!(a.adjacent(0, 5) && a.adjacent(5, 0) && !a.adjacent(0, 2) && !a.adjacent(3, 4));
        assert_eq!(a.neighbours(5).count(), 8);
        assert_ne!(
            a.digest(),
            Grid::parse("abcd/efgh/ijkl/mnoq", "g").unwrap().digest()
        );
    }

    /// The path gadget against every witness: all index values of every die, on a 2×2 grid
    /// for paths of 1 to 5 dice and a 3×3 grid (with codes past its 9 dice) for 1 to 3.
    #[test]
    fn the_path_gadget_accepts_exactly_the_paths() {
        let mut rng = seeded_rng(42);
        for (side, maxm) in [(2usize, 5usize), (3, 3)] {
            let g = random_grid(&mut rng, side, 26);
            let ib = index_bits(g.cells());
            for m in 1..=maxm {
                let mut b = Builder::new(m * ib);
                let steps: Vec<Vec<Bit>> = (0..m)
                    .map(|i| (0..ib).map(|k| b.input(ib * i + k)).collect())
                    .collect();
                let (codes, checks) = path_gadget(&mut b, &g, &steps);
                for c in &codes {
                    b.output_word(c);
                }
                for c in &checks {
                    b.output(c.0);
                }
                let want_checks: Vec<bool> = checks.iter().map(|c| c.1).collect();
                let circ = b.finish();
                let mut accepted = 0;
                for x in 0u32..1 << (m * ib) {
                    let idx: Vec<usize> = (0..m)
                        .map(|i| (x >> (ib * i) & ((1 << ib) - 1)) as usize)
                        .collect();
                    let bits: Vec<bool> = (0..m * ib).map(|k| x >> k & 1 == 1).collect();
                    let out = circ.eval(&bits);
                    let ok = out[5 * m..] == want_checks[..];
                    // the reference: dice on the grid, adjacent, distinct
                    let want = idx.iter().all(|&c| c < g.cells())
                        && idx.windows(2).all(|p| {
                            let (a, b) = (p[0] as i64, p[1] as i64);
                            let s = side as i64;
                            (a / s - b / s).abs() <= 1 && (a % s - b % s).abs() <= 1 && a != b
                        })
                        && idx.iter().collect::<HashSet<_>>().len() == m;
                    assert_eq!(ok, want, "{idx:?}");
                    if ok {
                        accepted += 1;
                        for (i, &c) in idx.iter().enumerate() {
                            let code: u8 = (0..5).map(|k| (out[5 * i + k] as u8) << k).sum();
                            assert_eq!(code, g.faces()[c] + 1);
                        }
                    }
                }
                assert!(accepted > 0 || m > g.cells());
            }
        }
    }

    #[test]
    fn the_table_cipher_is_aes() {
        let mut rng = seeded_rng(46);
        let (mut some, mut none) = (0, 0);
        for i in 0..3000 {
            let mut k: [u8; 16] = rng.gen();
            let mut p: [u8; 16] = rng.gen();
            if i % 3 == 0 {
                // zero bytes at the start: zero S-box inputs in the first round or schedule
                k[rng.gen_range(0..16)] = 0;
                p[rng.gen_range(0..16)] = k[rng.gen_range(0..16)];
            }
            match aes_nonzero(&k, &p) {
                Some(c) => {
                    assert!(aes128::sbox_inputs_nonzero(&k, &p));
                    assert_eq!(c, aes128::encrypt(&k, &p));
                    some += 1;
                }
                None => {
                    assert!(!aes128::sbox_inputs_nonzero(&k, &p));
                    none += 1;
                }
            }
        }
        assert!(some > 1000 && none > 1000, "{some} {none}");
    }

    #[test]
    fn the_node_circuit_is_the_compression() {
        let mut rng = seeded_rng(43);
        let mut b = Builder::new(248);
        let l: Vec<Bit> = (0..120).map(|i| b.input(i)).collect();
        let r: Vec<Bit> = (0..120).map(|i| b.input(120 + i)).collect();
        let t: Vec<Bit> = (0..8).map(|i| b.input(240 + i)).collect();
        let out = node_gadget(&mut b, 3, &l, &r, &t);
        b.output_word(&out);
        let c = b.finish();
        assert_eq!((c.n_and(), c.n_inv()), (0, 200));
        let mut n = 0;
        while n < 20 {
            let (x, y): (Node, Node) = (rng.gen(), rng.gen());
            let tw: u8 = rng.gen();
            let mut w = commit::bits_of(&x);
            w.extend(commit::bits_of(&y));
            w.extend((0..8).map(|k| tw >> k & 1 == 1));
            match compress_with(3, &x, &y, tw) {
                Some(z) => {
                    assert_eq!(c.eval_checked(&w).unwrap(), commit::bits_of(&z));
                    n += 1;
                }
                None => assert!(c.eval_checked(&w).is_err()),
            }
        }
        let (z, t) = compress(0, &[1; 15], &[2; 15]).unwrap();
        assert_eq!(compress_with(0, &[1; 15], &[2; 15], t), Some(z));
        assert!((0..t).all(|u| compress_with(0, &[1; 15], &[2; 15], u).is_none()));
        assert_ne!(compress_with(1, &[1; 15], &[2; 15], t), Some(z));
    }

    /// The Merkle gadget on a tree of 3 words (padded to 4) against every witness drawn from
    /// its pieces: every leaf of two symbols over three, every direction pair, every sibling
    /// of either level among the tree's nodes (and a zero node), every tweak pair among those
    /// the tree uses (and one more); accepted exactly when the native path gives the root,
    /// and then the leaf is a word of the list.
    #[test]
    fn the_membership_gadget_accepts_exactly_the_words() {
        let words: Vec<Vec<u8>> = vec![vec![0, 1], vec![1, 1], vec![2, 0]];
        let tree = Tree::build(words.iter().map(|w| leaf(w)).collect()).unwrap();
        assert_eq!(tree.depth(), 2);
        let root = tree.root();
        let mut b = Builder::new(120 + 2 * 129);
        let lf: Vec<Bit> = (0..120).map(|i| b.input(i)).collect();
        let levels: Vec<(Bit, Vec<Bit>, Vec<Bit>)> = (0..2)
            .map(|j| {
                let at = 120 + 129 * j;
                (
                    b.input(at),
                    (0..120).map(|i| b.input(at + 1 + i)).collect(),
                    (0..8).map(|i| b.input(at + 121 + i)).collect(),
                )
            })
            .collect();
        let out = merkle_gadget(&mut b, &lf, &levels);
        b.output_word(&out);
        let c = b.finish();
        assert_eq!(c.n_and(), 2 * 120);
        let distinct = |v: &[Node]| {
            let mut v: Vec<Node> = v.iter().copied().chain([[0; 15]]).collect();
            v.sort();
            v.dedup();
            v
        };
        let (sib0, sib1) = (distinct(&tree.levels[0]), distinct(&tree.levels[1]));
        let mut tweaks: Vec<u8> = tree.tweaks.iter().flatten().copied().collect();
        tweaks.push(tweaks.iter().max().unwrap() + 1);
        tweaks.sort();
        tweaks.dedup();
        let (mut accepted, mut tried) = (0, 0);
        for x in 0..9u8 {
            let w = vec![x / 3, x % 3];
            let l = leaf(&w);
            for dirs in 0..4u8 {
                for s0 in &sib0 {
                    for s1 in &sib1 {
                        for &t0 in &tweaks {
                            for &t1 in &tweaks {
                                let steps = [(dirs & 1 == 1, *s0, t0), (dirs & 2 == 2, *s1, t1)];
                                let mut bits = commit::bits_of(&l);
                                for (d, s, t) in &steps {
                                    bits.push(*d);
                                    bits.extend(commit::bits_of(s));
                                    bits.extend((0..8).map(|k| t >> k & 1 == 1));
                                }
                                let got =
                                    c.eval_checked(&bits).ok() == Some(commit::bits_of(&root));
                                let native = root_of(&l, &steps) == Some(root);
                                assert_eq!(got, native);
                                tried += 1;
                                if got {
                                    accepted += 1;
                                    assert!(words.contains(&w), "{w:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
        // each word by its own path; the last word also as its padding copy (either direction
        // at the bottom: both children are that word)
        assert_eq!(accepted, 4, "of {tried}");
        for w in &words {
            let i = tree.leaves().binary_search(&leaf(w)).unwrap();
            assert_eq!(root_of(&leaf(w), &tree.path(i)), Some(root));
        }
    }

    fn tiny() -> (Grid, Dictionary) {
        tiny_as(None)
    }

    fn tiny_as(force: Option<Design>) -> (Grid, Dictionary) {
        let (g, d) = tiny_list();
        (
            g,
            force.map_or(d, |f| {
                Dictionary::from_list(WordList::clone(Dictionary::list(&tiny_list().1))).forcing(f)
            }),
        )
    }

    fn tiny_list() -> (Grid, Dictionary) {
        let g = Grid::parse("cats/oqen/does/xyzw", "g").unwrap();
        let d = Dictionary::parse("cat\ncats\ndoe\ndoes\nqueen\nact\nzzz\nnot\n", "d").unwrap();
        (g, d)
    }

    /// The whole find on the VOLE engine at a low security level: proven, verified, opened;
    /// and refused on another grid, another dictionary, another context, a flipped byte.
    /// The whole find, with the design the dictionary picks and with each design forced.
    #[test]
    fn a_find_seals_verifies_and_opens() {
        for force in [None, Some(Design::Merkle), Some(Design::Automaton)] {
            find_round_trip(force);
        }
    }

    fn find_round_trip(force: Option<Design>) {
        let (g, d) = tiny_as(force);
        if let Some(f) = force {
            assert_eq!(d.membership(4).unwrap().design(), f);
        } else {
            // eight words: the automaton is far cheaper than a tree
            assert_eq!(d.membership(4).unwrap().design(), Design::Automaton);
        }
        let mut rng = seeded_rng(44);
        let sys = System::vole(16, zkgames_mpc::vole::Profile::Speed).unwrap();
        let req = Required::bits(16);
        let word = dict::letters_of("queen").unwrap();
        let s = seal(&g, &d, &word, &sys, b"ctx", &mut rng).unwrap();
        assert_eq!(s.dice, 4);
        let (head, digest) = verify(&g, &d, &s.file, &req, b"ctx").unwrap();
        assert_eq!(digest, s.opening.find);
        assert_eq!(open(&g, &d, &s.file, &head, &s.opening).unwrap(), word);
        let o = Opening::from_bytes(&s.opening.to_bytes()).unwrap();
        assert_eq!(o, s.opening);
        assert!(!format!("{o:?}").contains(&hex::encode(o.key)));
        assert!(verify(&g, &d, &s.file, &req, b"other").is_err());
        let g2 = Grid::parse("cats/oqen/does/xyzz", "g").unwrap();
        assert!(matches!(
            verify(&g2, &d, &s.file, &req, b"ctx"),
            Err(Error::Rejected(_))
        ));
        let mut d2 = Dictionary::parse("cat\ncats\ndoe\ndoes\nqueen\nact\n", "d").unwrap();
        if let Some(f) = force {
            d2 = d2.forcing(f);
        }
        assert!(matches!(
            verify(&g, &d2, &s.file, &req, b"ctx"),
            Err(Error::Rejected(_))
        ));
        for at in [30, s.file.len() / 2, s.file.len() - 1] {
            let mut t = s.file.clone();
            t[at] ^= 1;
            assert!(verify(&g, &d, &t, &req, b"ctx").is_err(), "{at}");
        }
        let mut o2 = s.opening.clone();
        o2.word = dict::letters_of("does").unwrap();
        assert!(open(&g, &d, &s.file, &head, &o2).is_err());
        o2.word = word.clone();
        o2.key[0] ^= 1;
        assert!(open(&g, &d, &s.file, &head, &o2).is_err());
        // refused by the prover: not on the grid, not in the dictionary
        for w in ["zzz", "act", "tac"] {
            let e = seal(&g, &d, &dict::letters_of(w).unwrap(), &sys, b"", &mut rng);
            assert!(matches!(e, Err(Error::BadInput(_))), "{w}");
        }
    }

    #[test]
    fn the_find_circuit_holds_only_for_a_real_path() {
        let (g, d) = tiny();
        let mut rng = seeded_rng(45);
        let dice = dice_of(&dict::letters_of("does").unwrap()).unwrap();
        let tree = d.tree(4).unwrap();
        let i = tree.leaves().binary_search(&leaf(&dice)).unwrap();
        let path = trace(&g, &dice).unwrap();
        let key = fresh_key(&leaf(&dice), &mut rng);
        let (c, checks) = find_circuit(&g, 4, &Membership::Merkle(tree.clone()));
        let mut want = commit::bits_of(&commit_leaf(&key, &leaf(&dice)));
        want.extend(commit::bits_of(&tree.root()));
        want.extend(&checks);
        let w = witness(&g, &key, &path, &tree.path(i));
        assert_eq!(c.eval_checked(&w).unwrap(), want);
        // another word's path (cats: on the grid, in the list) under this leaf's tree path
        let other = trace(&g, &dice_of(&dict::letters_of("cats").unwrap()).unwrap()).unwrap();
        let w2 = witness(&g, &key, &other, &tree.path(i));
        assert_ne!(c.eval_checked(&w2).ok(), Some(want.clone()));
        // a path that jumps
        let mut jump = path.clone();
        jump.swap(0, 3);
        assert_ne!(
            c.eval_checked(&witness(&g, &key, &jump, &tree.path(i)))
                .ok(),
            Some(want)
        );
    }

    /// The find circuit with the automaton design on a 2×2 grid against every path witness
    /// of 1 to 4 dice: the path's checks and the membership bit hold exactly for a path of
    /// distinct adjacent dice spelling a word of the class.
    #[test]
    fn the_automaton_find_accepts_exactly_the_words_on_the_grid() {
        let g = Grid::new(2, vec![0, 1, 0, 2]);
        let words: Vec<Vec<u8>> = vec![
            vec![0],
            vec![0, 1],
            vec![1, 0],
            vec![2, 2],
            vec![0, 1, 2],
            vec![0, 0, 1],
            vec![1, 2, 0, 0],
            vec![2, 0, 1, 0],
        ];
        let key = [3u8; 16];
        for m in 1..=4 {
            let class: Vec<Vec<u8>> = words.iter().filter(|w| w.len() == m).cloned().collect();
            let list = WordList::from_letters(m, class.clone());
            for backward in [false, true] {
                let mem = Membership::Automaton {
                    list: list.clone(),
                    backward,
                };
                let (c, tail) = find_circuit(&g, m, &mem);
                let mut accepted = 0;
                for x in 0u32..1 << (2 * m) {
                    let path: Vec<usize> = (0..m).map(|i| (x >> (2 * i) & 3) as usize).collect();
                    let out = c.eval(&witness(&g, &key, &path, &[]));
                    let got = out[256..] == tail[..];
                    let spelled: Vec<u8> = path.iter().map(|&c| g.faces()[c]).collect();
                    let valid = path.windows(2).all(|p| g.adjacent(p[0], p[1]))
                        && path.iter().collect::<HashSet<_>>().len() == m;
                    assert_eq!(got, valid && class.contains(&spelled), "{path:?}");
                    accepted += got as usize;
                }
                assert!(accepted > 0, "{m}");
            }
        }
    }

    #[test]
    fn the_cheaper_design_is_chosen() {
        // a class of two words: the automaton; the Merkle bits grow by a level per doubling
        let d = Dictionary::parse("abcd\nabce\n", "d").unwrap();
        assert_eq!(d.membership(4).unwrap().design(), Design::Automaton);
        assert_eq!(merkle_bits(4, 0), 0);
        assert_eq!(
            merkle_bits(4, 2) - merkle_bits(4, 1),
            1 + 120 + 8 + 120 + 1280
        );
        assert_eq!(merkle_bits(4, 1), 1 + 20 + 8 + 20 + 1280);
        // 20,000 random words of 6 letters: little shared structure, the tree
        let mut rng = seeded_rng(47);
        let words: String = (0..20_000)
            .map(|_| {
                let w: String = (0..6)
                    .map(|_| (b'a' + rng.gen_range(0..26u8)) as char)
                    .collect();
                format!("{w}\n")
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let d = Dictionary::parse(&words, "d").unwrap();
        let m = d.membership(6).unwrap();
        assert_eq!(m.design(), Design::Merkle, "{}", m.describe());
        let n = d.class(6).len();
        assert!(
            automaton_ands(d.class(6), 6) >= merkle_bits(6, m.depth()),
            "{n}"
        );
    }

    #[test]
    fn opening_bytes_are_read_strictly() {
        let o = Opening {
            find: [7; 32],
            key: [9; 16],
            word: dict::letters_of("quiz").unwrap(),
        };
        let b = o.to_bytes();
        assert_eq!(Opening::from_bytes(&b).unwrap(), o);
        for cut in 0..b.len() {
            assert!(Opening::from_bytes(&b[..cut]).is_err());
        }
        let mut t = b.clone();
        t.push(b'a');
        assert!(Opening::from_bytes(&t).is_err());
        let mut t = b.clone();
        *t.last_mut().unwrap() = b'Z';
        assert!(Opening::from_bytes(&t).is_err());
    }

    #[test]
    fn dictionaries_of_every_length_are_read_by_the_list_rules() {
        let d = Dictionary::parse("Cat\ncats\n\nquiet\nqat\n", "d").unwrap();
        assert_eq!(d.class_sizes(), vec![(3, 1), (4, 2)]);
        assert_eq!(d.list().len(), 4);
        for (text, needle) in [
            ("cat\ncat\n", "listed twice"),
            ("cat\nca t\n", "line 2"),
            ("", "no word"),
        ] {
            let e = Dictionary::parse(text, "d").err().unwrap().to_string();
            assert!(e.contains(needle), "{e}");
        }
        let long = "a".repeat(MAX_LETTERS + 1);
        assert!(Dictionary::parse(&long, "d").is_err());
        assert!(d.tree(9).is_err());
    }
}
