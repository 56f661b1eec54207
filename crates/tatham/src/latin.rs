//! Latin squares, shared by the games whose grid is one (Towers, Unequal, Keen): the completion
//! rule's messages, and the circuit's one-hot cells and its per-line constraints.

use super::parse::place;
use zkgames_mpc::circuit::graph::{decode_index, index_bits};
use zkgames_mpc::circuit::{Bit, Builder};

/// Column `x`'s name (`a`, `b`, …, `aa`).
pub fn column(x: usize) -> String {
    place(x, 0).trim_end_matches('1').to_string()
}

/// Why an `n`×`n` grid (reading order, every square filled) is not a Latin square: a
/// height that appears twice in a row or a column, named by its two squares.
pub fn check(grid: &[u8], n: usize, what: &str) -> Result<(), String> {
    let name = |i: usize| place(i % n, i / n);
    for (line, cells) in lines(n).iter().enumerate() {
        for (k, &i) in cells.iter().enumerate() {
            if let Some(&j) = cells[..k].iter().find(|&&j| grid[j] == grid[i]) {
                let line = if line < n {
                    format!("row {}", line + 1)
                } else {
                    format!("column {}", column(line - n))
                };
                return Err(format!(
                    "{line} has two {what} {} ({} and {})",
                    grid[i],
                    name(j),
                    name(i)
                ));
            }
        }
    }
    Ok(())
}

/// The rows then the columns of an `n`×`n` grid, as square indices.
pub fn lines(n: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|y| (0..n).map(|x| y * n + x).collect())
        .chain((0..n).map(|x| (0..n).map(|y| y * n + x).collect()))
        .collect()
}

/// The witness width of one free square: its value minus one in `index_bits(n)` bits.
pub fn bits(n: usize) -> usize {
    index_bits(n)
}

/// Every square's one-hot value vector (`n` bits, bit `v` for value `v + 1`): constants
/// for the given squares (`given[i] != 0`), and for the free ones, in reading order, the
/// decoding of `bits(n)` witness bits each, from input 0 (an index `≥ n` decodes to no
/// value).
pub fn one_hot(b: &mut Builder, given: &[u8], n: usize) -> Vec<Vec<Bit>> {
    let w = bits(n);
    let mut k = 0;
    given
        .iter()
        .map(|&g| {
            if g != 0 {
                (0..n).map(|v| Bit::Const(g as usize == v + 1)).collect()
            } else {
                let idx = b.input_word(k * w, w);
                k += 1;
                decode_index(b, &idx, n)
            }
        })
        .collect()
}

/// The Latin constraints' violation bits: per row, then per column, and per value `v`:
/// none given → `¬OR` of the free squares' bits for `v`; one given → each free square's
/// bit for `v`; two given → the constant 1. With at most one value per square (one-hot or
/// none), these hold exactly when each value is once in every line, every square filled.
pub fn constraints(b: &mut Builder, onehot: &[Vec<Bit>], given: &[u8], n: usize) {
    for cells in lines(n) {
        #[allow(clippy::needless_range_loop)] // v indexes every square's one-hot vector
        for v in 0..n {
            let count = cells
                .iter()
                .filter(|&&i| given[i] as usize == v + 1)
                .count();
            let free: Vec<Bit> = cells
                .iter()
                .filter(|&&i| given[i] == 0)
                .map(|&i| onehot[i][v])
                .collect();
            match count {
                0 => {
                    let mut none = Bit::Const(true);
                    for &x in &free {
                        let nx = b.not(x);
                        none = b.and(none, nx);
                    }
                    b.output(none);
                }
                1 => {
                    for x in free {
                        b.output(x);
                    }
                }
                _ => b.output(Bit::Const(true)),
            }
        }
    }
}
