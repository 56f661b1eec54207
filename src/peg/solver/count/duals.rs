//! The solvable positions of a level of at most `n / 2` pegs in a count of every reachable
//! position (a central game): those whose complement's canonical form is in the partner
//! level, of `n - p` pegs, which the search built before ([`count_duals`]).
//!
//! **Why a pass of its own.** The expansion of the level used to list each parent's
//! complement by bucket beside its children, to be looked up when the children were merged:
//! a second set of 256 open lines (16 KiB) beside the children's in the first-level cache
//! while children were listed, and a second stream written and read back through memory. A
//! pass over the complete level computes each complement again (its lanes, from the nibble
//! tables) and looks it up at once, in blocks whose loads are prefetched, as the walk down
//! does ([`Partner`]): in a bitmap of the partner level where it is large, or in the partner
//! level as it is. Measured on the English board's full count (phases of 5 alternating runs,
//! `ZKGAMES_COUNT_PHASES=1`): the levels of at most 16 pegs took 1.29–1.60 s with this pass
//! against 1.37–1.57 s with the queries, about the same time, but the expansion lost a second
//! kind of entry, and the peak went from 106–117 to 98–104 MB (the lists' memory is given back
//! while a bitmap exists, which is dropped before the level is expanded).

use rayon::prelude::*;

use super::dense::{Classes, BLOCK};
use super::down::{dense_of, FrozenPartner, Partner, TablesPartner};
use super::{Engine, Isa, Key, Level, Store, BUCKETS};

/// How many positions of `level` (at most `n / 2` pegs) have their complement's canonical
/// form in `partner` (`n - p` pegs): looked up in a bitmap of `partner` built for the call
/// where `bitmap` gives the board's classes (and its peg count spans few enough positions),
/// otherwise in `partner` as it is.
pub(super) fn count_duals<K: Key, const L: usize>(
    e: &Engine<K, L>,
    level: &Level<K>,
    partner: &Level<K>,
    bitmap: Option<&Classes>,
) -> u64 {
    if let Some(d) = bitmap.and_then(|cl| dense_of(e, cl, partner, None)) {
        return count_in(e, level, &d);
    }
    match &partner.store {
        Store::Frozen(f) => count_in(e, level, &FrozenPartner(f)),
        st @ Store::Tables(_) => count_in(e, level, &TablesPartner(st)),
    }
}

/// [`count_duals`] with the partner level looked up through `partner`, on the engine's
/// instruction set.
fn count_in<K: Key, const L: usize, P: Partner>(
    e: &Engine<K, L>,
    level: &Level<K>,
    partner: &P,
) -> u64 {
    (0..BUCKETS)
        .into_par_iter()
        .map_init(Vec::new, |keys, b| {
            keys.clear();
            level.store.keys_into(b, keys);
            match e.isa {
                // SAFETY: `Isa::available` found AVX2, BMI2 and POPCNT (AVX-512 only with them).
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 | Isa::Avx2 => unsafe { count_avx2(e, keys, level.pegs, partner) },
                _ => count_body::<K, L, P, false>(e, keys, level.pegs, partner),
            }
        })
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn count_avx2<K: Key, const L: usize, P: Partner>(
    e: &Engine<K, L>,
    keys: &[K],
    pegs: u32,
    partner: &P,
) -> u64 {
    count_body::<K, L, P, true>(e, keys, pegs, partner)
}

/// How many of the positions `keys` (of `pegs` pegs) have their complement in `partner`: in
/// blocks of [`BLOCK`], each complement's loads asked for a block ahead of their use
/// (`SIMD`: with AVX2).
#[inline(always)]
fn count_body<K: Key, const L: usize, P: Partner, const SIMD: bool>(
    e: &Engine<K, L>,
    keys: &[K],
    pegs: u32,
    partner: &P,
) -> u64 {
    let n = e.c.n;
    let mut hits = 0;
    let mut xs = [0u64; BLOCK];
    let mut at = [P::At::default(); BLOCK];
    for block in keys.chunks(BLOCK) {
        let xs = &mut xs[..block.len()];
        for (x, &k) in xs.iter_mut().zip(block) {
            let dual = e.dual::<SIMD>(&e.images(k.unpack(pegs, n)));
            *x = dual.unpack(n as u32 - pegs, n);
            partner.first(*x);
        }
        for (a, &x) in at.iter_mut().zip(xs.iter()) {
            *a = partner.second(x);
        }
        for (&a, &x) in at.iter().zip(xs.iter()) {
            hits += partner.third(a, x) as u64;
        }
    }
    hits
}
