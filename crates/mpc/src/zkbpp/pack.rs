//! Bit and trit packing, and the transposition of bit matrices between rounds and lanes.

use crate::bitmatrix::transpose64;

pub use crate::statement::pack_bools;

pub(super) fn words_to_bytes(w: &[u64], nbits: usize) -> Vec<u8> {
    let mut out: Vec<u8> = w
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .take(nbits.div_ceil(8))
        .collect();
    if !nbits.is_multiple_of(8) {
        if let Some(last) = out.last_mut() {
            *last &= (1u8 << (nbits % 8)) - 1;
        }
    }
    out
}

pub(super) fn bytes_to_words(b: &[u8], nwords: usize) -> Vec<u64> {
    let mut out = vec![0u64; nwords];
    for (i, &x) in b.iter().enumerate() {
        out[i / 8] |= (x as u64) << (8 * (i % 8));
    }
    out
}

/// True if the bits of `b` at positions `≥ nbits` are all zero and the length is right.
pub(crate) fn canonical_bits(b: &[u8], nbits: usize) -> bool {
    b.len() == nbits.div_ceil(8) && (nbits.is_multiple_of(8) || b[nbits / 8] >> (nbits % 8) == 0)
}

/// Rows (one per lane, `words` words each) to columns: `out[64w + j]` has bit `lane` equal
/// to bit `j` of `rows[lane][w]`.
pub(super) fn transpose_in(rows: &[&[u64]], words: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(words * 64);
    for w in 0..words {
        let mut blk = [0u64; 64];
        for (l, r) in rows.iter().enumerate() {
            blk[l] = r[w];
        }
        transpose64(&mut blk);
        out.extend_from_slice(&blk);
    }
    out
}

/// Columns back to rows: `cols` has `64·words` entries (missing ones read as 0).
pub(super) fn transpose_out(cols: &[u64], words: usize, lanes: usize) -> Vec<Vec<u64>> {
    let mut rows = vec![vec![0u64; words]; lanes];
    for w in 0..words {
        let mut blk = [0u64; 64];
        for (j, b) in blk.iter_mut().enumerate() {
            *b = cols.get(64 * w + j).copied().unwrap_or(0);
        }
        transpose64(&mut blk);
        for (l, row) in rows.iter_mut().enumerate() {
            row[w] = blk[l];
        }
    }
    rows
}

/// Packs trits four per byte.
pub fn pack_trits(t: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; t.len().div_ceil(4)];
    for (i, &x) in t.iter().enumerate() {
        out[i / 4] |= (x & 3) << (2 * (i % 4));
    }
    out
}

/// Unpacks `n` trits; refuses a wrong length, a value 3, or non-zero padding.
pub fn unpack_trits(b: &[u8], n: usize) -> Option<Vec<u8>> {
    if b.len() != n.div_ceil(4) {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..4 * b.len() {
        let x = (b[i / 4] >> (2 * (i % 4))) & 3;
        if i < n {
            if x == 3 {
                return None;
            }
            out.push(x);
        } else if x != 0 {
            return None;
        }
    }
    Some(out)
}
