//! The canonical form of a child as vector instructions, for the common case of 8 lanes of
//! 32-bit words (a board of at most 33 holes with the 8 symmetries of the square).

use std::any::TypeId;

/// `a` and `b` as 8 lanes of `u32`, if that is what they are.
#[inline(always)]
pub(super) fn as_u32x8<'a, K: 'static, const L: usize>(
    a: &'a [K; L],
    b: &'a [K; L],
) -> Option<(&'a [u32; 8], &'a [u32; 8])> {
    if L == 8 && TypeId::of::<K>() == TypeId::of::<u32>() {
        // SAFETY: `[K; L]` is `[u32; 8]` (checked just above).
        Some(unsafe { (&*(a as *const [K; L]).cast(), &*(b as *const [K; L]).cast()) })
    } else {
        None
    }
}

/// `a` as 8 lanes of `u32`, if that is what they are.
#[inline(always)]
pub(super) fn as_u32x8_mut<K: 'static, const L: usize>(a: &mut [K; L]) -> Option<&mut [u32; 8]> {
    if L == 8 && TypeId::of::<K>() == TypeId::of::<u32>() {
        // SAFETY: `[K; L]` is `[u32; 8]` (checked just above).
        Some(unsafe { &mut *(a as *mut [K; L]).cast() })
    } else {
        None
    }
}

/// The smallest lane of `a ^ b` and the index of the first lane that holds it.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn smallest_u32x8(a: &[u32; 8], b: &[u32; 8]) -> (u32, u32) {
    use std::arch::x86_64::*;
    let v = _mm256_xor_si256(
        _mm256_loadu_si256(a.as_ptr().cast()),
        _mm256_loadu_si256(b.as_ptr().cast()),
    );
    // the minimum of all lanes in every lane: halves, then pairs, then neighbours
    let m = _mm256_min_epu32(v, _mm256_permute2x128_si256::<1>(v, v));
    let m = _mm256_min_epu32(m, _mm256_shuffle_epi32::<0b01_00_11_10>(m));
    let m = _mm256_min_epu32(m, _mm256_shuffle_epi32::<0b10_11_00_01>(m));
    let at = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, m))) as u32;
    (_mm256_cvtsi256_si32(m) as u32, at.trailing_zeros())
}

/// The smallest lane of `a ^ b`, the index of the first lane that holds it, and the
/// largest lane.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn extremes_u32x8(a: &[u32; 8], b: &[u32; 8]) -> (u32, u32, u32) {
    use std::arch::x86_64::*;
    let v = _mm256_xor_si256(
        _mm256_loadu_si256(a.as_ptr().cast()),
        _mm256_loadu_si256(b.as_ptr().cast()),
    );
    let h = _mm256_permute2x128_si256::<1>(v, v);
    let (m, x) = (_mm256_min_epu32(v, h), _mm256_max_epu32(v, h));
    let m = _mm256_min_epu32(m, _mm256_shuffle_epi32::<0b01_00_11_10>(m));
    let x = _mm256_max_epu32(x, _mm256_shuffle_epi32::<0b01_00_11_10>(x));
    let m = _mm256_min_epu32(m, _mm256_shuffle_epi32::<0b10_11_00_01>(m));
    let x = _mm256_max_epu32(x, _mm256_shuffle_epi32::<0b10_11_00_01>(x));
    let at = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, m))) as u32;
    (
        _mm256_cvtsi256_si32(m) as u32,
        at.trailing_zeros(),
        _mm256_cvtsi256_si32(x) as u32,
    )
}
