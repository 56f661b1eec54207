//! GF(2^128) = GF(2)[X] / (X^128 + X^7 + X^2 + X + 1), elements as `u128` (bit `i` is the
//! coefficient of `X^i`): the field of the VOLE-in-the-head engine's checks
//! ([`super::vole`]).
//!
//! Multiplication is carry-less: `pclmulqdq` where the CPU has it (checked at run time),
//! portable 32×32 carry-less products by integer multiplication otherwise, then a reduction
//! by the sparse modulus. Both are tested against the bit-by-bit shift-and-add reference
//! [`mul_reference`], on dense operands (where a carry-less product by integer
//! multiplication fails first) as well as random ones.
//!
//! Misuse: this is not constant-time on the portable path's callers' behalf beyond being
//! branch-free on the operands; the engine only multiplies values that are either public or
//! masked, and never branches on them.

/// The low terms of the modulus: `X^128 ≡ X^7 + X^2 + X + 1`.
const R: u128 = 0x87;

/// Addition (and subtraction) in characteristic 2.
#[inline(always)]
pub fn add(a: u128, b: u128) -> u128 {
    a ^ b
}

/// `a · b` in GF(2^128).
#[inline]
pub fn mul(a: u128, b: u128) -> u128 {
    let (lo, hi) = mul_wide(a, b);
    reduce(lo, hi)
}

/// The unreduced 256-bit carry-less product `(lo, hi)` of `a · b`: sums of products can be
/// accumulated unreduced (XOR of the halves) and reduced once ([`Acc`]), since reduction is
/// linear.
#[inline]
pub fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("pclmulqdq") {
            // SAFETY: the CPU supports pclmulqdq (checked just above).
            return unsafe { clmul128_pclmul(a, b) };
        }
    }
    clmul128_with(a, b, clmul64_portable)
}

/// A sum of products `Σ a_i·b_i` kept unreduced (256 bits): one reduction at the end instead
/// of one per product (lazy reduction).
///
/// Misuse: [`Acc::value`] is the reduced sum; the halves are not field elements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acc {
    lo: u128,
    hi: u128,
}

impl Acc {
    /// Adds `a · b`.
    #[inline]
    pub fn add_mul(&mut self, a: u128, b: u128) {
        let (lo, hi) = mul_wide(a, b);
        self.lo ^= lo;
        self.hi ^= hi;
    }

    /// Adds another unreduced sum.
    #[inline]
    pub fn merge(self, o: Acc) -> Acc {
        Acc {
            lo: self.lo ^ o.lo,
            hi: self.hi ^ o.hi,
        }
    }

    /// The sum, reduced.
    #[inline]
    pub fn value(self) -> u128 {
        reduce(self.lo, self.hi)
    }
}

/// `b ? a : 0` for a bit `b`: the product of a field element by a GF(2) value.
#[inline(always)]
pub fn scale(a: u128, b: bool) -> u128 {
    a & (b as u128).wrapping_neg()
}

/// `Σ a_i·b_i` over the pairs of `a` and `b` (up to the shorter), unreduced: the engines'
/// inner products. The CPU is checked once per call rather than once per product, so the
/// carry-less products inline into the loop.
pub fn dot(a: &[u128], b: &[u128]) -> Acc {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("pclmulqdq") {
            // SAFETY: the CPU supports pclmulqdq (checked just above).
            return unsafe { dot_pclmul(a, b) };
        }
    }
    dot_with(a, b, |x, y| clmul128_with(x, y, clmul64_portable))
}

/// `Σ χ_i·(x_i·y_i)` over the pairs of `chi` and `xy` (up to the shorter), the products
/// `x_i·y_i` reduced and the outer sum not: QuickSilver's quadratic term, with [`dot`]'s
/// dispatch.
pub fn dot_of_products(chi: &[u128], xy: &[(u128, u128)]) -> Acc {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("pclmulqdq") {
            // SAFETY: the CPU supports pclmulqdq (checked just above).
            return unsafe { dot_of_products_pclmul(chi, xy) };
        }
    }
    dot_of_products_with(chi, xy, |x, y| clmul128_with(x, y, clmul64_portable))
}

#[inline(always)]
fn dot_with(a: &[u128], b: &[u128], wide: impl Fn(u128, u128) -> (u128, u128)) -> Acc {
    let mut acc = Acc::default();
    for (&x, &y) in a.iter().zip(b) {
        let (lo, hi) = wide(x, y);
        acc.lo ^= lo;
        acc.hi ^= hi;
    }
    acc
}

#[inline(always)]
fn dot_of_products_with(
    chi: &[u128],
    xy: &[(u128, u128)],
    wide: impl Fn(u128, u128) -> (u128, u128),
) -> Acc {
    let mut acc = Acc::default();
    for (&c, &(x, y)) in chi.iter().zip(xy) {
        let (plo, phi) = wide(x, y);
        let (lo, hi) = wide(c, reduce(plo, phi));
        acc.lo ^= lo;
        acc.hi ^= hi;
    }
    acc
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn dot_pclmul(a: &[u128], b: &[u128]) -> Acc {
    // SAFETY: this function runs only where pclmulqdq exists.
    dot_with(a, b, |x, y| unsafe { clmul128_pclmul(x, y) })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn dot_of_products_pclmul(chi: &[u128], xy: &[(u128, u128)]) -> Acc {
    // SAFETY: this function runs only where pclmulqdq exists.
    dot_of_products_with(chi, xy, |x, y| unsafe { clmul128_pclmul(x, y) })
}

/// Reduces the 256-bit product `hi·X^128 + lo`.
#[inline(always)]
fn reduce(lo: u128, hi: u128) -> u128 {
    // hi·X^128 ≡ hi·(X^7 + X^2 + X + 1); the bits shifted past X^127 fold once more
    let t = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
    let o = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    lo ^ t ^ o ^ (o << 1) ^ (o << 2) ^ (o << 7)
}

/// The 256-bit carry-less product of two 128-bit values (Karatsuba over 64-bit halves)
/// with the 64×64 product `m`.
#[inline(always)]
fn clmul128_with(a: u128, b: u128, m: impl Fn(u64, u64) -> u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = m(a0, b0);
    let hi = m(a1, b1);
    let mid = m(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// The whole 128×128 product in one call with the feature enabled, so that the three
/// `pclmulqdq` are inlined together (a call per 64×64 product cost more than the products).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn clmul128_pclmul(a: u128, b: u128) -> (u128, u128) {
    // clmul128_with, spelled out: the 64×64 products inline here, where the feature is on
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul64_pclmul(a0, b0);
    let hi = clmul64_pclmul(a1, b1);
    let mid = clmul64_pclmul(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
fn clmul64_pclmul(a: u64, b: u64) -> u128 {
    use std::arch::x86_64::*;
    let x = _mm_set_epi64x(0, a as i64);
    let y = _mm_set_epi64x(0, b as i64);
    let p = _mm_clmulepi64_si128(x, y, 0x00);
    let lo = _mm_cvtsi128_si64(p) as u64;
    let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)) as u64;
    (lo as u128) | ((hi as u128) << 64)
}

/// Portable carry-less 64×64 product: Karatsuba over three 32×32 products
/// ([`clmul32_portable`]).
pub(crate) fn clmul64_portable(a: u64, b: u64) -> u128 {
    let (a0, a1) = (a as u32, (a >> 32) as u32);
    let (b0, b1) = (b as u32, (b >> 32) as u32);
    let lo = clmul32_portable(a0, b0) as u128;
    let hi = clmul32_portable(a1, b1) as u128;
    let mid = clmul32_portable(a0 ^ a1, b0 ^ b1) as u128 ^ lo ^ hi;
    lo ^ (mid << 32) ^ (hi << 64)
}

/// Portable carry-less 32×32 product with integer multiplications: each operand is split
/// into four interleaved residue classes of its bit positions (every fourth bit, with holes
/// of three), the classes are multiplied pairwise, and of each product only the class the
/// carry-less product wants is kept. A bit of a class product sums at most 8 one-bit terms
/// (a 32-bit operand has 8 bits per class), so the count fits in the 3 holes above it and
/// no carry reaches the next bit of that class.
///
/// Misuse: the bound is the operand width. With 64-bit operands a bit sums up to 16 terms,
/// the count carries into the next bit of its class, and the product is wrong on dense
/// operands (all ones, for one) while right on almost every random pair: the version before
/// this one did exactly that, unnoticed on x86-64 where the hardware product is used.
pub(crate) fn clmul32_portable(a: u32, b: u32) -> u64 {
    const M: [u64; 4] = [
        0x1111_1111_1111_1111,
        0x2222_2222_2222_2222,
        0x4444_4444_4444_4444,
        0x8888_8888_8888_8888,
    ];
    let xs = M.map(|m| a as u64 & m);
    let ys = M.map(|m| b as u64 & m);
    let mut out = 0u64;
    for (k, mk) in M.iter().enumerate() {
        let mut z = 0u64;
        for (i, x) in xs.iter().enumerate() {
            // x_i · y_j lands in residue class (i + j) mod 4; keep class k
            z ^= x.wrapping_mul(ys[(k + 4 - i) % 4]);
        }
        out |= z & mk;
    }
    out
}

/// The bit-by-bit reference: shift-and-add multiplication reduced at every step.
pub fn mul_reference(mut a: u128, b: u128) -> u128 {
    let mut r = 0u128;
    for i in 0..128 {
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
        let carry = a >> 127;
        a <<= 1;
        if carry == 1 {
            a ^= R;
        }
    }
    r
}

/// `a^e` by square-and-multiply (tests and inverses).
pub fn pow(mut a: u128, mut e: u128) -> u128 {
    let mut r = 1u128;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, a);
        }
        a = mul(a, a);
        e >>= 1;
    }
    r
}

/// Reads 16 little-endian bytes as an element.
pub fn from_bytes(b: &[u8; 16]) -> u128 {
    u128::from_le_bytes(*b)
}

/// The 16 little-endian bytes of an element.
pub fn to_bytes(a: u128) -> [u8; 16] {
    a.to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    fn r128(rng: &mut impl RngCore) -> u128 {
        ((rng.next_u64() as u128) << 64) | rng.next_u64() as u128
    }

    #[test]
    fn clmul_matches_the_reference_on_random_and_edge_values() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let mut vals: Vec<u128> = vec![0, 1, 2, u128::MAX, 1 << 127, R, (1 << 127) | 1];
        vals.extend((0..200).map(|_| r128(&mut rng)));
        // dense values too: a carry-less product by integer multiplication goes wrong
        // first where many bits are set, which uniform random values seldom are
        vals.extend((0..40).map(|_| r128(&mut rng) | r128(&mut rng) | r128(&mut rng)));
        vals.extend((0..8).map(|i| u128::MAX >> i));
        let portable = |a, b| {
            let (lo, hi) = clmul128_with(a, b, clmul64_portable);
            reduce(lo, hi)
        };
        for &a in &vals {
            for &b in &vals {
                let want = mul_reference(a, b);
                assert_eq!(mul(a, b), want, "{a:x} * {b:x}");
                // the portable path whatever path `mul` took
                assert_eq!(portable(a, b), want, "portable: {a:x} * {b:x}");
            }
        }
        let clmul64_bits = |x: u64, y: u64| {
            (0..64)
                .filter(|i| (y >> i) & 1 == 1)
                .fold(0u128, |w, i| w ^ (x as u128) << i)
        };
        let mut words: Vec<u64> = vec![0, 1, u64::MAX, u64::MAX >> 1, 1 << 63, 0x8888 << 48];
        words.extend((0..64).map(|i| u64::MAX << i));
        for &x in &words {
            for &y in &words {
                assert_eq!(clmul64_portable(x, y), clmul64_bits(x, y), "{x:x} * {y:x}");
            }
        }
        for _ in 0..20_000 {
            let (a, b) = (r128(&mut rng), r128(&mut rng));
            assert_eq!(mul(a, b), mul_reference(a, b));
            assert_eq!(portable(a, b), mul_reference(a, b));
            let (x, y) = (rng.next_u64(), rng.next_u64());
            assert_eq!(clmul64_portable(x, y), clmul64_bits(x, y));
            let (x, y) = (x | rng.next_u64(), y | rng.next_u64());
            assert_eq!(clmul64_portable(x, y), clmul64_bits(x, y));
        }
    }

    /// Lazy reduction against one reduction per product, on random sums of every length up
    /// to 40 (and the portable product against the hardware one).
    #[test]
    fn unreduced_sums_match_reduced_ones() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        for n in 0..40 {
            let xs: Vec<(u128, u128)> = (0..n).map(|_| (r128(&mut rng), r128(&mut rng))).collect();
            let mut acc = Acc::default();
            let mut half = Acc::default();
            let mut want = 0u128;
            for (i, &(a, b)) in xs.iter().enumerate() {
                want ^= mul_reference(a, b);
                if i % 2 == 0 {
                    acc.add_mul(a, b);
                } else {
                    half.add_mul(a, b);
                }
                assert_eq!(
                    mul_wide(a, b),
                    clmul128_with(a, b, clmul64_portable),
                    "{a:x} * {b:x}"
                );
            }
            assert_eq!(acc.merge(half).value(), want);
        }
    }

    #[test]
    fn field_laws_hold() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        for _ in 0..500 {
            let (a, b, c) = (r128(&mut rng), r128(&mut rng), r128(&mut rng));
            assert_eq!(mul(a, b), mul(b, a));
            assert_eq!(mul(mul(a, b), c), mul(a, mul(b, c)));
            assert_eq!(mul(a, b ^ c), mul(a, b) ^ mul(a, c));
            assert_eq!(mul(a, 1), a);
            if a != 0 {
                // a^(2^128 - 2) is a's inverse
                assert_eq!(mul(a, pow(a, u128::MAX - 1)), 1);
            }
            assert_eq!(scale(a, true), a);
            assert_eq!(scale(a, false), 0);
        }
        // X^128 = X^7 + X^2 + X + 1
        assert_eq!(mul(1 << 127, 2), R);
    }

    /// [`dot`] and [`dot_of_products`] against one reference product per term, for every
    /// length up to 40, on both the dispatched and the portable path.
    #[test]
    fn inner_products_match_the_reference() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        let portable = |x, y| clmul128_with(x, y, clmul64_portable);
        for n in 0..40 {
            let a: Vec<u128> = (0..n).map(|_| r128(&mut rng)).collect();
            let b: Vec<u128> = (0..n + 3).map(|_| r128(&mut rng)).collect();
            let xy: Vec<(u128, u128)> = (0..n).map(|_| (r128(&mut rng), r128(&mut rng))).collect();
            let want = a
                .iter()
                .zip(&b)
                .fold(0, |s, (&x, &y)| s ^ mul_reference(x, y));
            assert_eq!(dot(&a, &b).value(), want);
            assert_eq!(dot(&b, &a).value(), want, "pairs up to the shorter");
            assert_eq!(dot_with(&a, &b, portable).value(), want);
            let want = a.iter().zip(&xy).fold(0, |s, (&c, &(x, y))| {
                s ^ mul_reference(c, mul_reference(x, y))
            });
            assert_eq!(dot_of_products(&a, &xy).value(), want);
            assert_eq!(dot_of_products_with(&a, &xy, portable).value(), want);
        }
    }
}
