//! The solvable positions of a level of at most `n / 2` pegs in a count of every reachable
//! position (a central game): those whose complement's canonical form is in the partner
//! level, of `n - p` pegs, which the search built before ([`count_duals`]).
//!
//! **Which side is read.** Complementing maps the orbits of `p` pegs one to one onto those of
//! `n - p`, so the number of positions of the level whose complement is in the partner is also
//! the number of the partner's positions whose complement is in the level. The smaller level
//! is read (each position's lanes from the nibble tables, its complement's canonical form
//! from the largest lane) and the larger one is looked up, as it is, in blocks whose loads
//! are prefetched, as the walk down does ([`Partner`]). On the English board the partners
//! (17 pegs and more) are the smaller side: 6.3 M positions read instead of 17.2 M, and no
//! bitmap is built. The partner is dropped once its level's count is known. Measured on
//! 2026-11-26 (Zen 4, `ZKGAMES_COUNT_PHASES=1`): the pass over all levels took 65–72 ms
//! against about 225 ms when each level of at most 16 pegs was read and looked up in a
//! bitmap of its partner (with the bitmaps' 40 ms); the whole count, medians of 8
//! alternating runs, 1.26 → 1.21 s (a slow hour of the host).
//!
//! **Why a pass of its own.** The expansion of the level used to list each parent's
//! complement by bucket beside its children, to be looked up when the children were merged:
//! a second set of 256 open lines (16 KiB) beside the children's in the first-level cache
//! while children were listed, and a second stream written and read back through memory.

use rayon::prelude::*;

use super::dense::BLOCK;
use super::down::{FrozenPartner, Partner, TablesPartner};
use super::{Engine, Key, Level, Store, BUCKETS};

/// How many positions of `level` (at most `n / 2` pegs) have their complement's canonical
/// form in `partner` (`n - p` pegs). Complementing is a bijection between the orbits of the
/// two peg counts, so this is also how many of `partner`'s positions have their complement in
/// `level`: the smaller of the two levels is the one read, and each of its complements is
/// looked up in the other, as it is (frozen or in its tables).
pub(super) fn count_duals<K: Key, const L: usize>(
    e: &Engine<K, L>,
    level: &Level<K>,
    partner: &Level<K>,
) -> u64 {
    let (read, look) = if partner.size <= level.size {
        (partner, level)
    } else {
        (level, partner)
    };
    match &look.store {
        Store::Frozen(f) => count_in(e, read, &FrozenPartner(f)),
        st @ Store::Tables(_) => count_in(e, read, &TablesPartner(st)),
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
                super::Isa::Avx512 | super::Isa::Avx2 => unsafe {
                    count_avx2(e, keys, level.pegs, partner)
                },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{bfs, start_group, How, Isa, CHUNK_CHILDREN, DENSE_MIN, FREEZE_MIN};
    use zkgames_peg::board::Puzzle;
    use zkgames_peg::catalog;
    use zkgames_peg::solver::word::Word;

    /// On self-dual boards, for every level of at most half the holes and its partner: the
    /// number of positions whose complement is in the other level, read from either side,
    /// with the level looked up frozen or in its tables, is what a position-by-position check
    /// finds (each complement's canonical form looked up with [`Store::contains`]).
    #[test]
    fn either_side_counts_what_a_plain_check_finds() {
        let boards = [
            // 16 holes, a corner game
            Puzzle::parse(
                "geometry: square-diagonal\nstart:\n. o o o\no o o o\no o o o\no o o o\n\
                 finish:\no . . .\n. . . .\n. . . .\n. . . .\n",
            )
            .unwrap(),
            catalog::get("square5-diagonal").unwrap(),
        ];
        let mut pairs = 0;
        for p in &boards {
            let inst = p.instance();
            let first = u64::from_bools(inst.first());
            let group = start_group(inst, &p.symmetries()).unwrap();
            assert!(group.len() <= 8);
            for freeze_min in [0, FREEZE_MIN] {
                let how = How {
                    isa: Isa::detect(),
                    chunk: CHUNK_CHILDREN,
                    sleep: true,
                    prune: false,
                    freeze_min,
                    dense_min: DENSE_MIN,
                    shuffles: true,
                };
                let e = Engine::<u32, 8>::new(inst, &group, p.cells(), how);
                let n = e.c.n as u32;
                assert_eq!(
                    e.c.canon(e.c.full ^ e.c.goal_state.unwrap()),
                    e.c.canon(first),
                    "self-dual"
                );
                // not self-dual for the search: every level kept whole
                let levels = bfs::<u32, 8>(&e, first, false, 1 << 24, None).unwrap();
                for lv in &levels {
                    let Some(pl) = levels.iter().find(|l| l.pegs == n - lv.pegs) else {
                        continue;
                    };
                    if lv.pegs > pl.pegs {
                        continue;
                    }
                    let mut plain = 0;
                    let mut keys = Vec::new();
                    for b in 0..BUCKETS {
                        keys.clear();
                        lv.store.keys_into(b, &mut keys);
                        for &k in &keys {
                            let x = k.unpack(lv.pegs, n as usize);
                            plain += pl.store.contains(e.canon(e.c.full ^ x)) as u64;
                        }
                    }
                    let by = |read: &Level<u32>, look: &Level<u32>| match &look.store {
                        Store::Frozen(f) => count_in(&e, read, &FrozenPartner(f)),
                        st @ Store::Tables(_) => count_in(&e, read, &TablesPartner(st)),
                    };
                    assert_eq!(by(lv, pl), plain, "{} pegs", lv.pegs);
                    assert_eq!(by(pl, lv), plain, "{} pegs", lv.pegs);
                    assert_eq!(count_duals(&e, lv, pl), plain, "{} pegs", lv.pegs);
                    pairs += (plain > 0) as usize;
                }
            }
        }
        assert!(pairs >= 10, "{pairs}");
    }
}
