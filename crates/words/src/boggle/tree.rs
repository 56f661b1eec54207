//! The Merkle design's leaves, the AES-128 Davies–Meyer node with its tweak, and the tree the verifier builds.

#[allow(unused_imports)]
use super::*;

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
pub(crate) fn node_key_pt(level: usize, l: &Node, r: &Node, t: u8) -> ([u8; 16], [u8; 16]) {
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
    pub(crate) levels: Vec<Vec<Node>>,
    /// `tweaks[j][i]`: the tweak of node `i` of `levels[j + 1]`.
    pub(crate) tweaks: Vec<Vec<u8>>,
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
