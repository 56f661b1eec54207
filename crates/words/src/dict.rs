//! Word lists: reading them (untrusted input), their digest, and membership as a decision
//! circuit over the letters.
//!
//! **Files.** One word a line, letters `a`–`z` (upper case is folded to lower case), `\n` or
//! `\r\n` line ends, a UTF-8 byte-order mark dropped; blank lines are skipped. A line with any
//! other character, a word of another length than the game's (one length for Wordle, a range
//! for Boggle: [`WordList::parse_lengths`]), a repeated word, or an empty list is refused with
//! one line naming the line number.
//!
//! **Digest.** `SHA-256("zkg:words:list:v1" ‖ u64-le n ‖ per word in sorted order:
//! u8 length ‖ letters as bytes 0..=25)`: the same set of words gives the same digest
//! whatever the file's order.
//!
//! **Membership circuit** (the shipped encoding, [`member_gadget`]). Each letter's 5 bits
//! are decoded to 32 one-hot bits ([`decode`], 26 AND gates); the minimal deterministic
//! automaton of the list (words read forward, or backward when that has fewer gates) is
//! evaluated from its end, one AND gate per (state, successor state) pair whose successor is
//! not the accepting end: the letters that lead to one successor are first combined by XOR,
//! free. Codes 26..31 lead nowhere, so a non-letter is not in the list. The alternative
//! measured against it is the reduced ordered BDD of the 25-bit codes ([`Bdd`], one
//! multiplexer per node, the cheapest of four variable orders): on the shipped answer list
//! it costs about twice as many AND gates (docs/PROTOCOLS.md, "Word games"), so it is not
//! used in statements.

use std::collections::HashMap;

use sha2::{Digest as _, Sha256};

use zkgames_core::commit::Digest;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder};

/// Bits per letter (`a` = 0 … `z` = 25).
pub const LETTER_BITS: usize = 5;
/// Largest word list file read.
pub const MAX_FILE: u64 = 8 << 20;
/// Most words in a list.
pub const MAX_WORDS: usize = 1 << 20;
/// Domain tag of [`WordList::digest`].
pub const DIGEST_TAG: &[u8] = b"zkg:words:list:v1";

/// A word as letters 0..=25.
pub type Letters = Vec<u8>;

/// Letters of an ASCII word (`None` if a character is not a letter `a`–`z`/`A`–`Z`).
pub fn letters_of(word: &str) -> Option<Letters> {
    word.bytes()
        .map(|c| {
            c.is_ascii_alphabetic()
                .then(|| c.to_ascii_lowercase() - b'a')
        })
        .collect()
}

/// The word of letters.
pub fn word_of(letters: &[u8]) -> String {
    letters.iter().map(|&l| (b'a' + l) as char).collect()
}

/// A sorted list of distinct words of one length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordList {
    len: usize,
    words: Vec<Letters>,
}

impl WordList {
    /// Reads a list of words of `len` letters from `text` (`what` names it in refusals).
    pub fn parse(text: &str, len: usize, what: &str) -> Result<Self> {
        Self::parse_lengths(text, len, len, what)
    }

    /// Reads a list of words of `min..=max` letters (the same rules as [`WordList::parse`];
    /// a list of several lengths has [`WordList::word_len`] 0).
    pub fn parse_lengths(text: &str, min: usize, max: usize, what: &str) -> Result<Self> {
        let text = zkgames_core::files::strip_bom(text);
        let mut words = Vec::new();
        for (n, line) in text.split('\n').enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            let Some(l) = letters_of(line) else {
                return Err(Error::bad(format!(
                    "{what}, line {}: {} is not a word of letters a-z",
                    n + 1,
                    zkgames_core::files::quote(&zkgames_core::files::excerpt(line))
                )));
            };
            if l.len() < min || l.len() > max {
                let want = if min == max {
                    format!("{min}")
                } else {
                    format!("{min} to {max}")
                };
                return Err(Error::bad(format!(
                    "{what}, line {}: {} has {} letters, the game's words have {want}",
                    n + 1,
                    zkgames_core::files::quote(&zkgames_core::files::excerpt(line)),
                    l.len()
                )));
            }
            if words.len() == MAX_WORDS {
                return Err(Error::bad(format!("{what}: more than {MAX_WORDS} words")));
            }
            words.push((l, n + 1));
        }
        if words.is_empty() {
            return Err(Error::bad(format!("{what}: the list has no word")));
        }
        words.sort();
        for p in words.windows(2) {
            if p[0].0 == p[1].0 {
                return Err(Error::bad(format!(
                    "{what}, line {}: {} is listed twice (first on line {})",
                    p[0].1.max(p[1].1),
                    word_of(&p[0].0),
                    p[0].1.min(p[1].1)
                )));
            }
        }
        Ok(WordList {
            len: if min == max { min } else { 0 },
            words: words.into_iter().map(|(l, _)| l).collect(),
        })
    }

    /// A list from letter vectors (sorted and deduplicated here; all of length `len`).
    pub fn from_letters(len: usize, mut words: Vec<Letters>) -> Self {
        assert!(words
            .iter()
            .all(|w| w.len() == len && w.iter().all(|&l| l < 26)));
        words.sort();
        words.dedup();
        WordList { len, words }
    }

    /// Letters per word (0 for a list of several lengths).
    pub fn word_len(&self) -> usize {
        self.len
    }

    /// The words, sorted.
    pub fn words(&self) -> &[Letters] {
        &self.words
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether the list holds the word.
    pub fn contains(&self, letters: &[u8]) -> bool {
        self.words.binary_search_by(|w| w[..].cmp(letters)).is_ok()
    }

    /// The list's digest (module docs).
    pub fn digest(&self) -> Digest {
        let mut h = Sha256::new();
        h.update(DIGEST_TAG);
        h.update((self.words.len() as u64).to_le_bytes());
        for w in &self.words {
            h.update([w.len() as u8]);
            h.update(w);
        }
        h.finalize().into()
    }
}

/// A variable order: code bits `(letter, bit)` from the root down.
pub type Order = Vec<(usize, usize)>;

/// The candidate variable orders for words of `len` letters, in the order they are tried:
/// letters first to last, bits high to low; letters last to first, bits high to low;
/// letters first to last, bits low to high; letters last to first, bits low to high.
pub fn orders(len: usize) -> Vec<Order> {
    let mut out = Vec::new();
    for (rev_letters, low_first) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut o = Vec::with_capacity(len * LETTER_BITS);
        for i in 0..len {
            let i = if rev_letters { len - 1 - i } else { i };
            for k in 0..LETTER_BITS {
                let k = if low_first { k } else { LETTER_BITS - 1 - k };
                o.push((i, k));
            }
        }
        out.push(o);
    }
    out
}

/// Names of [`orders`], for reports.
pub const ORDERS: [&str; 4] = [
    "letters forward, bits high first",
    "letters backward, bits high first",
    "letters forward, bits low first",
    "letters backward, bits low first",
];

/// A reduced ordered BDD: nodes `(level, lo, hi)`; references 0 = false, 1 = true, `2 + i`
/// node `i`. Children come before parents.
#[derive(Clone, Debug)]
pub struct Bdd {
    pub order: Order,
    pub nodes: Vec<(usize, u32, u32)>,
    pub root: u32,
}

impl Bdd {
    /// The ROBDD of `list` under `order`.
    pub fn build(list: &WordList, order: &Order) -> Bdd {
        let n = order.len();
        let mut codes: Vec<u64> = list
            .words()
            .iter()
            .map(|w| {
                order
                    .iter()
                    .fold(0u64, |acc, &(i, k)| acc << 1 | ((w[i] >> k) & 1) as u64)
            })
            .collect();
        codes.sort_unstable();
        let mut nodes = Vec::new();
        let mut unique = HashMap::new();
        let root = Self::rec(&codes, 0, n, &mut nodes, &mut unique);
        Bdd {
            order: order.clone(),
            nodes,
            root,
        }
    }

    fn rec(
        codes: &[u64],
        level: usize,
        n: usize,
        nodes: &mut Vec<(usize, u32, u32)>,
        unique: &mut HashMap<(usize, u32, u32), u32>,
    ) -> u32 {
        if codes.is_empty() {
            return 0;
        }
        if level == n {
            return 1;
        }
        let bit = 1u64 << (n - 1 - level);
        let split = codes.partition_point(|&c| c & bit == 0);
        let lo = Self::rec(&codes[..split], level + 1, n, nodes, unique);
        let hi = Self::rec(&codes[split..], level + 1, n, nodes, unique);
        if lo == hi {
            return lo;
        }
        *unique.entry((level, lo, hi)).or_insert_with(|| {
            nodes.push((level, lo, hi));
            nodes.len() as u32 + 1
        })
    }

    /// The membership bit of `letters` (5 bits each).
    pub fn gadget(&self, b: &mut Builder, letters: &[[Bit; 5]]) -> Bit {
        let mut val: Vec<Bit> = vec![Bit::Const(false), Bit::Const(true)];
        for &(level, lo, hi) in &self.nodes {
            let (i, k) = self.order[level];
            let v = b.mux(letters[i][k], val[hi as usize], val[lo as usize]);
            val.push(v);
        }
        val[self.root as usize]
    }
}

/// The membership bit of `letters` in `list`: the shipped encoding, the one-hot automaton
/// ([`automaton_gadget`]) in the cheaper of the two reading directions (forward on a tie).
/// Returns the bit and the direction (`false` forward, `true` backward).
pub fn member_gadget(b: &mut Builder, list: &WordList, letters: &[[Bit; 5]]) -> (Bit, bool) {
    let backward = automaton_and_gates(list, true) < automaton_and_gates(list, false);
    (automaton_gadget(b, list, letters, backward), backward)
}

/// AND gates of a BDD's circuit (internal nodes without a constant-folding child pair).
pub fn bdd_and_gates(bdd: &Bdd) -> usize {
    bdd.nodes
        .iter()
        .filter(|&&(_, lo, hi)| !(lo <= 1 && hi <= 1))
        .count()
}

/// The cheapest candidate order's BDD and index (the measured alternative encoding).
pub fn best_bdd(list: &WordList) -> (usize, Bdd) {
    orders(list.word_len())
        .iter()
        .map(|o| Bdd::build(list, o))
        .enumerate()
        .min_by_key(|(i, b)| (bdd_and_gates(b), *i))
        .expect("four orders")
}

/// One-hot decoding of a word of bits (LSB first) into `2^n` bits, exactly one set:
/// the products of the two halves' decodings, one AND per product except the last row and
/// column, which follow by XOR from the halves (each is one-hot): `(|lo| − 1)(|hi| − 1)` ANDs
/// per level, 26 for five bits.
pub fn decode(b: &mut Builder, bits: &[Bit]) -> Vec<Bit> {
    if bits.len() == 1 {
        return vec![b.not(bits[0]), bits[0]];
    }
    let h = bits.len() / 2;
    let lo = decode(b, &bits[..h]);
    let hi = decode(b, &bits[h..]);
    let (nl, nh) = (lo.len(), hi.len());
    let mut m = vec![vec![Bit::Const(false); nh]; nl];
    for i in 0..nl - 1 {
        for j in 0..nh - 1 {
            m[i][j] = b.and(lo[i], hi[j]);
        }
    }
    for j in 0..nh - 1 {
        let mut acc = hi[j];
        for row in m.iter().take(nl - 1) {
            acc = b.xor(acc, row[j]);
        }
        m[nl - 1][j] = acc;
    }
    for (i, row) in m.iter_mut().enumerate() {
        let mut acc = lo[i];
        for &x in row.iter().take(nh - 1) {
            acc = b.xor(acc, x);
        }
        row[nh - 1] = acc;
    }
    // index = lo index + |lo| * hi index
    let mut out = vec![Bit::Const(false); nl * nh];
    for (i, row) in m.iter().enumerate() {
        for (j, &x) in row.iter().enumerate() {
            out[i + nl * j] = x;
        }
    }
    out
}

/// The states of the minimal automaton of `list` read in one direction: per state, its
/// depth and its successors grouped by target (`0` dead, `1` accepting end, `2 + i` state
/// `i`), children first; and the root.
type Automaton = (States, u32);
/// Per state its depth and successors grouped by target.
type States = Vec<(usize, Vec<(u32, Vec<u8>)>)>;
/// States by (depth, edges), while the automaton is built.
type StateIds = HashMap<(usize, Vec<(u8, u32)>), u32>;

fn automaton(list: &WordList, backward: bool) -> Automaton {
    let len = list.word_len();
    let mut words: Vec<Letters> = list
        .words()
        .iter()
        .map(|w| {
            let mut w = w.clone();
            if backward {
                w.reverse();
            }
            w
        })
        .collect();
    words.sort();
    let mut states = Vec::new();
    let mut ids: StateIds = HashMap::new();
    fn rec(
        words: &[Letters],
        depth: usize,
        len: usize,
        states: &mut States,
        ids: &mut StateIds,
    ) -> u32 {
        if words.is_empty() {
            return 0;
        }
        if depth == len {
            return 1;
        }
        let mut edges = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let c = words[i][depth];
            let j = i + words[i..].partition_point(|w| w[depth] == c);
            edges.push((c, rec(&words[i..j], depth + 1, len, states, ids)));
            i = j;
        }
        let key = (depth, edges);
        if let Some(&s) = ids.get(&key) {
            return s;
        }
        let mut groups: Vec<(u32, Vec<u8>)> = Vec::new();
        for &(c, t) in &key.1 {
            match groups.iter_mut().find(|g| g.0 == t) {
                Some(g) => g.1.push(c),
                None => groups.push((t, vec![c])),
            }
        }
        states.push((depth, groups));
        let id = states.len() as u32 + 1;
        ids.insert(key, id);
        id
    }
    let root = rec(&words, 0, len, &mut states, &mut ids);
    (states, root)
}

/// AND gates of [`automaton_gadget`] beyond the letters' decoding: one per (state, target)
/// pair whose target is not the accepting end.
pub fn automaton_and_gates(list: &WordList, backward: bool) -> usize {
    let (states, _) = automaton(list, backward);
    states
        .iter()
        .map(|(_, g)| g.iter().filter(|(t, _)| *t != 1).count())
        .sum()
}

/// The shipped encoding: each letter decoded to one-hot bits ([`decode`]), then the
/// minimal deterministic automaton of the list (read forward, or backward: last letter
/// first) evaluated from its end: `state = XOR over targets t of (XOR of onehot[c] for the
/// letters c leading to t) ∧ value(t)`, the accepting end's value being 1 (no AND). The
/// letters of one state lead to distinct targets, so at most one term is 1 and XOR is OR.
pub fn automaton_gadget(
    b: &mut Builder,
    list: &WordList,
    letters: &[[Bit; 5]],
    backward: bool,
) -> Bit {
    assert_eq!(letters.len(), list.word_len());
    let onehot: Vec<Vec<Bit>> = letters.iter().map(|l| decode(b, l)).collect();
    automaton_onehot_gadget(b, list, &onehot, backward)
}

/// [`automaton_gadget`] on letters already one-hot (at least 26 bits each, exactly one set
/// among the first 26: Boggle derives them from the dice).
pub fn automaton_onehot_gadget(
    b: &mut Builder,
    list: &WordList,
    onehot: &[Vec<Bit>],
    backward: bool,
) -> Bit {
    let len = list.word_len();
    assert_eq!(onehot.len(), len);
    let (states, root) = automaton(list, backward);
    let mut val = vec![Bit::Const(false), Bit::Const(true)];
    for (depth, groups) in &states {
        let pos = if backward { len - 1 - depth } else { *depth };
        let mut acc = Bit::Const(false);
        for (t, cs) in groups {
            let ind = cs
                .iter()
                .fold(Bit::Const(false), |a, &c| b.xor(a, onehot[pos][c as usize]));
            let term = b.and(ind, val[*t as usize]);
            acc = b.xor(acc, term);
        }
        val.push(acc);
    }
    val[root as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    fn letters_bits(b: &Builder, len: usize) -> Vec<[Bit; 5]> {
        (0..len)
            .map(|i| std::array::from_fn(|k| b.input(5 * i + k)))
            .collect()
    }

    fn enc(w: &[u8]) -> Vec<bool> {
        w.iter()
            .flat_map(|&l| (0..5).map(move |k| l >> k & 1 == 1))
            .collect()
    }

    /// Both encodings on tiny dictionaries, every order, against every witness of the
    /// letter codes (all 32 codes per letter: invalid letters must be refused too).
    #[test]
    fn membership_circuits_accept_exactly_the_list() {
        let mut rng = seeded_rng(11);
        for len in [1usize, 2, 3] {
            for _ in 0..6 {
                let n = rng.gen_range(1..20);
                let words: Vec<Letters> = (0..n)
                    .map(|_| (0..len).map(|_| rng.gen_range(0..4u8)).collect())
                    .collect();
                let list = WordList::from_letters(len, words);
                let mut circuits = Vec::new();
                for o in orders(len) {
                    let mut b = Builder::new(5 * len);
                    let l = letters_bits(&b, len);
                    let m = Bdd::build(&list, &o).gadget(&mut b, &l);
                    b.output(m);
                    circuits.push(b.finish());
                }
                for backward in [false, true] {
                    let mut b = Builder::new(5 * len);
                    let l = letters_bits(&b, len);
                    let m = automaton_gadget(&mut b, &list, &l, backward);
                    b.output(m);
                    let c = b.finish();
                    assert_eq!(
                        c.n_and(),
                        automaton_and_gates(&list, backward) + decode_ands(len)
                    );
                    circuits.push(c);
                }
                for code in 0u32..1 << (5 * len) {
                    let w: Vec<u8> = (0..len).map(|i| (code >> (5 * i) & 31) as u8).collect();
                    let want = w.iter().all(|&l| l < 26) && list.contains(&w);
                    for c in &circuits {
                        assert_eq!(c.eval(&enc(&w)), vec![want], "{w:?}");
                    }
                }
            }
        }
    }

    /// ANDs of decoding `len` letters.
    fn decode_ands(len: usize) -> usize {
        let mut b = Builder::new(5 * len);
        for l in letters_bits(&b, len) {
            let d = decode(&mut b, &l);
            b.output_word(&d);
        }
        b.and_count()
    }

    #[test]
    fn decoding_is_one_hot_for_every_code() {
        for n in 1..=5usize {
            let mut b = Builder::new(n);
            let bits: Vec<Bit> = (0..n).map(|i| b.input(i)).collect();
            let d = decode(&mut b, &bits);
            b.output_word(&d);
            let c = b.finish();
            for x in 0..1usize << n {
                let w: Vec<bool> = (0..n).map(|i| x >> i & 1 == 1).collect();
                let want: Vec<bool> = (0..1 << n).map(|i| i == x).collect();
                assert_eq!(c.eval(&w), want);
            }
            if n == 5 {
                assert_eq!(c.n_and(), 26);
            }
        }
    }

    #[test]
    fn the_counted_and_gates_are_the_circuits() {
        let text = std::fs::read_to_string("/usr/share/dict/american-english").ok();
        let mut rng = seeded_rng(12);
        let list = match text {
            Some(t) => {
                let five: String = t
                    .lines()
                    .filter(|l| l.len() == 5 && l.bytes().all(|c| c.is_ascii_lowercase()))
                    .map(|l| format!("{l}\n"))
                    .collect();
                WordList::parse(&five, 5, "list").unwrap()
            }
            None => WordList::from_letters(
                5,
                (0..3000)
                    .map(|_| (0..5).map(|_| rng.gen_range(0..26u8)).collect())
                    .collect(),
            ),
        };
        for o in orders(5) {
            let bdd = Bdd::build(&list, &o);
            let mut b = Builder::new(25);
            let l = letters_bits(&b, 5);
            let m = bdd.gadget(&mut b, &l);
            b.output(m);
            let c = b.finish();
            assert_eq!(c.n_and(), bdd_and_gates(&bdd));
            for w in list.words().iter().take(200) {
                assert_eq!(c.eval(&enc(w)), vec![true]);
            }
        }
        for backward in [false, true] {
            let mut b = Builder::new(25);
            let l = letters_bits(&b, 5);
            let m = automaton_gadget(&mut b, &list, &l, backward);
            b.output(m);
            let c = b.finish();
            assert_eq!(
                c.n_and(),
                automaton_and_gates(&list, backward) + decode_ands(5)
            );
            for w in list.words().iter().step_by(7) {
                assert_eq!(c.eval(&enc(w)), vec![true]);
            }
            for _ in 0..2000 {
                let w: Vec<u8> = (0..5).map(|_| rng.gen_range(0..32)).collect();
                let want = w.iter().all(|&x| x < 26) && list.contains(&w);
                assert_eq!(c.eval(&enc(&w)), vec![want]);
            }
        }
    }

    #[test]
    fn malformed_lists_are_refused_with_one_line() {
        for (text, needle) in [
            ("", "no word"),
            ("\n\n", "no word"),
            ("apple\nbad1e\n", "line 2"),
            ("apple\nappl\n", "line 2: \"appl\" has 4 letters"),
            ("apple\ngrape\napple\n", "line 3: apple is listed twice"),
            ("apple\nc\u{e9}lan\n", "line 2"),
        ] {
            let e = WordList::parse(text, 5, "the list")
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let a = WordList::parse("\u{feff}Grape\r\napple\n", 5, "l").unwrap();
        let b = WordList::parse("apple\ngrape", 5, "l").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.digest(), b.digest());
        assert_ne!(
            a.digest(),
            WordList::parse("apple", 5, "l").unwrap().digest()
        );
        assert!(a.contains(&letters_of("grape").unwrap()));
    }
}
