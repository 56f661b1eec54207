//! The find's circuit: the path gadget, the node and Merkle gadgets, the commitment, the witness and the statement.

#[allow(unused_imports)]
use super::*;

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
pub(crate) fn leaf_bits(codes: &[[Bit; 5]]) -> Vec<Bit> {
    let mut out = vec![Bit::Const(false); 8 * NODE_BYTES];
    for (i, c) in codes.iter().enumerate() {
        out[5 * i..5 * i + 5].copy_from_slice(c);
    }
    out
}

pub(crate) fn bytes_of(bits: &[Bit]) -> Vec<Byte> {
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
pub(crate) fn witness_len(grid: &Grid, m: usize, depth: usize) -> usize {
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
        let (circuit, output) = if engine.native_inverses() {
            (circuit, y)
        } else {
            let out = circuit.lowered_output(&y);
            (circuit.lowered(), out)
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
