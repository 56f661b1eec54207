//! 64×64 bit matrices as 64 words, transposed in place: both engines turn per-party rows
//! (one word per 64 gates) into per-gate columns (one bit per party) and back with it.

/// One level of the transpose: swaps the off-diagonal `J×J` blocks (`m` selects the low
/// half of each `2J`-bit group). A constant stride per level lets the wide levels
/// vectorise.
#[inline(always)]
fn level<const J: usize>(a: &mut [u64; 64], m: u64) {
    let mut base = 0;
    while base < 64 {
        for k in base..base + J {
            let t = ((a[k] >> J) ^ a[k + J]) & m;
            a[k] ^= t << J;
            a[k + J] ^= t;
        }
        base += 2 * J;
    }
}

/// In-place transpose of a 64×64 bit matrix: afterwards bit `r` of `a[c]` is what bit `c`
/// of `a[r]` was.
pub(crate) fn transpose64(a: &mut [u64; 64]) {
    level::<32>(a, 0x0000_0000_FFFF_FFFF);
    level::<16>(a, 0x0000_FFFF_0000_FFFF);
    level::<8>(a, 0x00FF_00FF_00FF_00FF);
    level::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
    level::<2>(a, 0x3333_3333_3333_3333);
    level::<1>(a, 0x5555_5555_5555_5555);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    /// Against the definition, bit by bit, on random matrices and on single bits.
    #[test]
    #[allow(clippy::needless_range_loop)] // the definition reads best with indices
    fn transpose_matches_the_definition() {
        let mut rng = seeded_rng(3);
        let mut cases: Vec<[u64; 64]> = (0..20)
            .map(|_| std::array::from_fn(|_| rng.gen()))
            .collect();
        for (r, c) in [(0, 0), (0, 63), (63, 0), (17, 42)] {
            let mut a = [0u64; 64];
            a[r] = 1 << c;
            cases.push(a);
        }
        for a in cases {
            let mut b = a;
            transpose64(&mut b);
            for r in 0..64 {
                for c in 0..64 {
                    assert_eq!(b[c] >> r & 1, a[r] >> c & 1);
                }
            }
            transpose64(&mut b);
            assert_eq!(b, a, "a transpose is its own inverse");
        }
    }
}
