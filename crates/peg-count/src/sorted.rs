//! Sorted lists of positions, each with the ranks of the two moves of highest rank that led
//! to it ([`keep_two`]): how a level is put together, in the breadth-first search (per bucket,
//! from its lists of children, [`Bucket`]) and in the walk down (per batch of parents,
//! [`sort_dedup`] and [`merge_into`]).
//!
//! **Why sorted lists rather than hash tables.** A child is a word; a level is the set of its
//! children with their ranks merged. A round's share of a bucket (at most about 16,000 words
//! on the English board, in the second-level cache) is sorted by a radix sort of two passes,
//! then one entry is kept per run of equal words, without a branch on where runs end: about
//! as much thread time a child as inserting it into a hash table took (16–18 ns against
//! 18–22, a probe and a mispredicted branch), but the level comes out sorted, which is what a
//! frozen level is ([`super::frozen`]): freezing is one pass in order instead of a counting
//! sort, and no table is sized by guessing the level's growth. On the English board
//! `--solvable-only` measured about 7 % faster (its forward search 308 → 274 ms) with the
//! same peak memory. Merging such lists keeps one entry per position with the two highest
//! ranks of both ([`merge_ranks`]), which is what inserting every child one by one into a
//! table keeps, in any order.

use rayon::prelude::*;

use super::{keep_two, Key, BUCKET_BITS};

/// One bucket of a level being built: its positions as mixed words ([`Key::mix`]), sorted
/// and without repeats, each with its ranks.
///
/// Misuse: the words are mixed, not positions; [`Key::unmix`] gives the position back.
pub(super) type Bucket<K> = Vec<(K, u16)>;

/// Per-thread scratch of [`add_entries`]: the lists it sorts and the counts of its passes,
/// kept from bucket to bucket so that they are allocated once.
pub(super) struct Scratch<K> {
    entries: Vec<K>,
    tmp: Vec<K>,
    counts: Vec<u32>,
    fresh: Vec<(K, u16)>,
}

impl<K> Default for Scratch<K> {
    fn default() -> Self {
        Scratch {
            entries: Vec::new(),
            tmp: Vec::new(),
            counts: Vec::new(),
            fresh: Vec::new(),
        }
    }
}

/// Adds to `bucket` (bucket `b` of a level being built) the children listed in `lists`, list
/// entries as [`Key::tag_mixed`] makes them: each position once, with the two highest ranks of
/// its entries and of what `bucket` held for it.
///
/// A round's children are sorted and deduplicated on their own, then merged into the bucket:
/// that costs the whole bucket per round, but a level of the English board takes at most
/// three rounds, and keeping each round's run apart until the level is complete measured the
/// same time and a sixth more peak memory (the positions in several runs).
pub(super) fn add_entries<'a, K: Key>(
    b: usize,
    bucket: &mut Bucket<K>,
    lists: impl IntoIterator<Item = &'a [K]>,
    s: &mut Scratch<K>,
) {
    let lists: Vec<&[K]> = lists.into_iter().filter(|l| !l.is_empty()).collect();
    let n: usize = lists.iter().map(|l| l.len()).sum();
    if n == 0 {
        return;
    }
    sort_entries(&lists, n, s);
    dedup_runs(b, &s.entries, &mut s.fresh);
    if bucket.is_empty() {
        // the list itself, cut to size (the buckets, with the level's lists, are a count's
        // peak memory) rather than a copy of it; the scratch takes the empty bucket's place
        std::mem::swap(bucket, &mut s.fresh);
        bucket.shrink_to_fit();
    } else {
        // made for both lists; the room of the positions in both is given back
        *bucket = merge_sorted(bucket, &s.fresh);
        bucket.shrink_to_fit();
    }
}

/// One entry per run of equal words of the sorted list entries `v` (of bucket `b`), its ranks
/// merged ([`keep_two`]), into `out` (replacing what it held).
///
/// Without a branch on whether an entry starts a run (runs are one to a few entries long, in
/// no pattern): each entry is written where its run's entry is, over the one before it of the
/// same run. Each entry's ranks depend on the previous entry's, a chain of several cycles an
/// entry, so the list is cut in two at a run's start and both halves go through one loop
/// side by side (two chains the processor runs at once), the second half written after the
/// first's room and moved down behind it at the end.
fn dedup_runs<K: Key>(b: usize, v: &[K], out: &mut Vec<(K, u16)>) {
    let n = v.len();
    out.clear();
    if n == 0 {
        return;
    }
    // written entry by entry (not cleared first: that was about 1 % of the English count)
    out.reserve(n);
    let buf = &mut out.spare_capacity_mut()[..n];
    // the second half starts at the first entry of a run at or after the middle
    let word = |i: usize| K::untag_mixed(v[i], b).0;
    let mut cut = n / 2;
    while cut > 0 && cut < n && word(cut) == word(cut - 1) {
        cut += 1;
    }
    if cut == 0 || cut == n {
        cut = n;
    }
    // a run's entry for each half: (position in `out`, word, ranks)
    let start = |i: usize| {
        let (m, r) = K::untag_mixed(v[i], b);
        (m, (r as u16) << 8)
    };
    let (mut m0, mut r0) = start(0);
    let (mut at0, mut at1) = (0usize, cut);
    buf[0].write((m0, r0));
    let step = |t: K, cur: &mut K, ranks: &mut u16, at: &mut usize| {
        let (m, r) = K::untag_mixed(t, b);
        let new = m != *cur;
        let mut merged = *ranks;
        keep_two(&mut merged, r);
        *ranks = if new { (r as u16) << 8 } else { merged };
        *at += new as usize;
        *cur = m;
        (m, *ranks)
    };
    if cut < n {
        let (mut m1, mut r1) = start(cut);
        buf[cut].write((m1, r1));
        let (a, c) = (&v[1..cut], &v[cut + 1..]);
        let both = a.len().min(c.len());
        for (&t0, &t1) in a[..both].iter().zip(&c[..both]) {
            let e0 = step(t0, &mut m0, &mut r0, &mut at0);
            let e1 = step(t1, &mut m1, &mut r1, &mut at1);
            buf[at0].write(e0);
            buf[at1].write(e1);
        }
        for &t in &a[both..] {
            let e = step(t, &mut m0, &mut r0, &mut at0);
            buf[at0].write(e);
        }
        for &t in &c[both..] {
            let e = step(t, &mut m1, &mut r1, &mut at1);
            buf[at1].write(e);
        }
        // the second half's entries, `cut..=at1`, moved down behind the first's
        buf.copy_within(cut..at1 + 1, at0 + 1);
        // SAFETY: `buf[..at0 + 1]` was written entry by entry (each position from 0 to `at0`
        // in turn), and the second half's written entries `cut..=at1` were copied right
        // behind them.
        unsafe { out.set_len(at0 + 1 + (at1 + 1 - cut)) };
    } else {
        for &t in &v[1..] {
            let e = step(t, &mut m0, &mut r0, &mut at0);
            buf[at0].write(e);
        }
        // SAFETY: `buf[..at0 + 1]` was written entry by entry.
        unsafe { out.set_len(at0 + 1) };
    }
}

/// Makes `v` `n` long without writing what it keeps: the caller overwrites every entry
/// (clearing and filling a list again cost about 1 % of the English count, in `memset`).
fn fit<T: Copy>(v: &mut Vec<T>, n: usize, zero: T) {
    if v.len() < n {
        v.resize(n, zero);
    } else {
        v.truncate(n);
    }
}

/// Lists shorter than this are sorted by comparison: a radix pass clears and sums its
/// histogram of 2¹² counts whatever the list's length.
const SMALL: usize = 1 << 10;

/// Sorts the list entries of `lists` ([`Key::tag_mixed`], `n` of them) by their word, the
/// bits above the rank (the ranks of equal words end up in any order), into `s.entries`:
/// least significant digit first, 12 bits per pass (two passes for 32-bit words), each pass a
/// stable scatter, the first one straight from the lists; a pass whose digit is the same for
/// every entry is skipped. Short lists are sorted by comparison.
fn sort_entries<K: Key>(lists: &[&[K]], n: usize, s: &mut Scratch<K>) {
    if n < SMALL {
        s.entries.clear();
        for l in lists {
            s.entries.extend_from_slice(l);
        }
        s.entries.sort_unstable_by_key(|t| t.wide() >> BUCKET_BITS);
        return;
    }
    const DIGIT: u32 = 12;
    const MASK: u64 = (1 << DIGIT) - 1;
    let passes = (K::BITS as u32 - BUCKET_BITS).div_ceil(DIGIT) as usize;
    let counts = &mut s.counts;
    counts.clear();
    counts.resize(passes << DIGIT, 0);
    // every pass's histogram in one read of the lists
    for l in lists {
        for &t in l.iter() {
            let w = t.wide() >> BUCKET_BITS;
            for p in 0..passes {
                counts[(p << DIGIT) + (w >> (p as u32 * DIGIT) & MASK) as usize] += 1;
            }
        }
    }
    // every entry is written by the passes: the lists keep what they held (no clearing)
    fit(&mut s.entries, n, K::ZERO);
    fit(&mut s.tmp, n, K::ZERO);
    // the entries are in the lists until the first pass that scatters
    let mut first = true;
    for p in 0..passes {
        let c = &mut counts[p << DIGIT..(p + 1) << DIGIT];
        if c.contains(&(n as u32)) {
            continue;
        }
        let mut sum = 0;
        for x in c.iter_mut() {
            (*x, sum) = (sum, sum + *x);
        }
        let shift = BUCKET_BITS + p as u32 * DIGIT;
        let mut scatter = |src: &[K], dst: &mut [K]| {
            for &t in src {
                let d = (t.wide() >> shift & MASK) as usize;
                dst[c[d] as usize] = t;
                c[d] += 1;
            }
        };
        if first {
            for l in lists {
                scatter(l, &mut s.entries);
            }
            first = false;
        } else {
            scatter(&s.entries, &mut s.tmp);
            std::mem::swap(&mut s.entries, &mut s.tmp);
        }
    }
    if first {
        // no pass scattered: every entry the same word
        s.entries.clear();
        for l in lists {
            s.entries.extend_from_slice(l);
        }
    }
}

/// Sorts `v` by position and keeps one entry per position, with the two highest ranks of its
/// entries.
pub(super) fn sort_dedup<K: Key>(v: &mut Vec<(K, u16)>) {
    radix_sort(v);
    v.dedup_by(|later, first| {
        let same = later.0 == first.0;
        if same {
            merge_ranks(&mut first.1, later.1);
        }
        same
    });
}

/// Merges the sorted and deduplicated `kept` into the sorted and deduplicated `next`, one
/// entry per position with the two highest ranks of both.
///
/// In pieces, one per range of positions, merged by the threads side by side (the main thread
/// alone measured a tenth of the first step of the English board's walk, the others idle).
pub(super) fn merge_into<K: Key>(next: &mut Vec<(K, u16)>, kept: Vec<(K, u16)>) {
    if next.is_empty() {
        *next = kept;
        return;
    }
    // the ranges: split at every `per`-th position of the longer list
    const PIECES: usize = 16;
    let (long, short) = if next.len() >= kept.len() {
        (&next[..], &kept[..])
    } else {
        (&kept[..], &next[..])
    };
    let per = long.len().div_ceil(PIECES).max(1 << 12);
    let mut cuts: Vec<(usize, usize)> = (per..long.len())
        .step_by(per)
        .map(|i| (i, short.partition_point(|x| x.0 < long[i].0)))
        .collect();
    cuts.insert(0, (0, 0));
    cuts.push((long.len(), short.len()));
    let pieces: Vec<Vec<(K, u16)>> = cuts
        .par_windows(2)
        .map(|w| merge_sorted(&long[w[0].0..w[1].0], &short[w[0].1..w[1].1]))
        .collect();
    let mut merged = Vec::with_capacity(pieces.iter().map(Vec::len).sum());
    for p in &pieces {
        merged.extend_from_slice(p);
    }
    *next = merged;
}

/// [`merge_into`] of two sorted and deduplicated lists, as a new list.
///
/// Without a branch on the words: which list moves on is data, and a branch on it would
/// mispredict about every other entry.
fn merge_sorted<K: Key>(x: &[(K, u16)], y: &[(K, u16)]) -> Vec<(K, u16)> {
    let mut merged = Vec::with_capacity(x.len() + y.len());
    let (mut i, mut j) = (0, 0);
    while let (Some(&(a, ra)), Some(&(b, rb))) = (x.get(i), y.get(j)) {
        let (take_a, take_b) = (a <= b, b <= a);
        let mut both = ra;
        merge_ranks(&mut both, rb);
        let r = if take_a & take_b {
            both
        } else if take_a {
            ra
        } else {
            rb
        };
        merged.push((a.min(b), r));
        i += take_a as usize;
        j += take_b as usize;
    }
    merged.extend_from_slice(&x[i..]);
    merged.extend_from_slice(&y[j..]);
    merged
}

/// Sorts `v` by position: least significant digit first, [`DIGIT`] bits per pass, each pass
/// a stable scatter by one digit (the positions are words: a few passes over the list instead
/// of a comparison sort's `log₂ n`, measured 6-8 % of the English count's time as a parallel
/// comparison sort); a pass whose digit is the same for every entry is skipped.
fn radix_sort<K: Key>(v: &mut Vec<(K, u16)>) {
    const DIGIT: u32 = 11;
    const MASK: u64 = (1 << DIGIT) - 1;
    let passes = (K::BITS as u32).div_ceil(DIGIT) as usize;
    // every pass's histogram in one read of the list
    let mut counts = vec![[0usize; 1 << DIGIT]; passes];
    for e in v.iter() {
        let w = e.0.wide();
        for (p, c) in counts.iter_mut().enumerate() {
            c[(w >> (p as u32 * DIGIT) & MASK) as usize] += 1;
        }
    }
    let mut tmp = vec![(K::ZERO, 0u16); v.len()];
    for (p, c) in counts.iter().enumerate() {
        if c.contains(&v.len()) {
            continue;
        }
        let mut at = [0usize; 1 << DIGIT];
        let mut sum = 0;
        for (a, &x) in at.iter_mut().zip(c) {
            *a = sum;
            sum += x;
        }
        let shift = p as u32 * DIGIT;
        for &e in v.iter() {
            let d = (e.0.wide() >> shift & MASK) as usize;
            tmp[at[d]] = e;
            at[d] += 1;
        }
        std::mem::swap(v, &mut tmp);
    }
}

/// Keeps in `v` the two highest of its ranks and those of `w` (both as [`keep_two`] keeps
/// them).
#[inline(always)]
pub(super) fn merge_ranks(v: &mut u16, w: u16) {
    keep_two(v, (w >> 8) as u8);
    keep_two(v, w as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The merge of two sorted lists, in pieces run side by side, gives what a map does: every
    /// position once, with the two highest of its ranks from both lists; on lists of random
    /// sizes (one or both past a piece, so that they are cut), crowded or spread, either longer.
    #[test]
    fn merge_into_merges_as_a_map_does() {
        let mut rand = crate::xorshift(0x9E37_79B9_7F4A_7C15u64);
        // a sorted list without repeats, as `sort_dedup` leaves it
        let list = |len: usize, spread: u64, rand: &mut dyn FnMut() -> u64| {
            let mut v: Vec<(u32, u16)> = (0..len)
                .map(|_| {
                    // two ranks, the higher in the high byte and never twice the same but
                    // for none (as `keep_two` keeps them)
                    let (a, mut b) = (rand() as u8, rand() as u8);
                    if a == b {
                        b = 0;
                    }
                    (
                        (rand() % spread) as u32,
                        (a.max(b) as u16) << 8 | a.min(b) as u16,
                    )
                })
                .collect();
            sort_dedup(&mut v);
            v
        };
        for (a, b, spread) in [
            (0usize, 5usize, 100u64),
            (7, 0, 100),
            (3, 4, 10),
            (20_000, 50_000, 60_000),
            (90_000, 300, 1 << 20),
            (500, 120_000, 1 << 32),
            (70_000, 70_000, 100_000),
        ] {
            let (mut next, kept) = (list(a, spread, &mut rand), list(b, spread, &mut rand));
            let mut want: std::collections::BTreeMap<u32, u16> = Default::default();
            for &(k, r) in next.iter().chain(&kept) {
                match want.get_mut(&k) {
                    Some(v) => merge_ranks(v, r),
                    None => {
                        want.insert(k, r);
                    }
                }
            }
            merge_into(&mut next, kept);
            let got: Vec<(u32, u16)> = next;
            let want: Vec<(u32, u16)> = want.into_iter().collect();
            assert_eq!(got.len(), want.len(), "{a} {b} {spread}");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "{a} {b} {spread} at {i}");
            }
        }
    }

    /// The radix sort orders as a comparison sort does (positions; the ranks of equal
    /// positions in any order), for both widths of word, on random lists of random sizes with
    /// words spread or crowded (digits constant over the list, skipped passes).
    #[test]
    fn radix_sort_sorts_as_sort_does() {
        fn check<K: Key>(rand: &mut impl FnMut() -> u64, pick: &dyn Fn(u64) -> u64) {
            for len in [0usize, 1, 2, 3, 100, 2048, 5000, 70_000] {
                let mut v: Vec<(K, u16)> = (0..len)
                    .map(|_| (K::pack(pick(rand())), rand() as u16))
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                radix_sort(&mut v);
                assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
                v.sort_unstable();
                assert_eq!(v, want);
            }
        }
        let mut rand = crate::xorshift(0x2545_F491_4F6C_DD1Du64);
        let spread = |w: u64| w;
        let crowded = |w: u64| w & 0x00F0_0FFF;
        let few = |w: u64| ((w % 7) << 40) | (w % 5);
        for pick in [&spread as &dyn Fn(u64) -> u64, &crowded, &few] {
            check::<u32>(&mut rand, pick);
            check::<u64>(&mut rand, pick);
        }
    }

    /// A bucket put together from rounds of list entries holds what a map does: every
    /// position of the bucket once, with the two highest ranks of its entries over every
    /// round; for both widths of word, lists short and long (sorted by comparison or by the
    /// radix passes), words spread or crowded (long runs of repeats, digits the same for
    /// every entry), split over several lists per round.
    #[test]
    fn buckets_hold_what_a_map_does() {
        fn check<K: Key>(rand: &mut impl FnMut() -> u64, spread: u64, rounds: &[usize]) {
            let b = (rand() % crate::BUCKETS as u64) as usize;
            let mut want: std::collections::BTreeMap<K, u16> = Default::default();
            let mut bucket = Vec::new();
            let mut s = Scratch::default();
            for &len in rounds {
                // a round's entries over three lists (threads), one of them often empty
                let mut lists: [Vec<K>; 3] = Default::default();
                for _ in 0..len {
                    let w = rand() % spread;
                    // a mixed word of bucket `b`: the bucket in the top bits
                    let m = K::pack(
                        (b as u64) << (K::BITS as u32 - BUCKET_BITS)
                            | w & ((1u64 << (K::BITS as u32 - BUCKET_BITS)) - 1),
                    );
                    let rank = (rand() % 200) as u8 + 1;
                    keep_two(want.entry(m).or_insert(0), rank);
                    let t = m.tag_mixed(rank);
                    assert_eq!(K::untag_mixed(t, b), (m, rank));
                    lists[(rand() % 3) as usize].push(t);
                }
                add_entries(b, &mut bucket, lists.iter().map(|l| &l[..]), &mut s);
            }
            let want: Vec<(K, u16)> = want.into_iter().collect();
            assert_eq!(bucket.len(), want.len(), "{spread} {rounds:?}");
            assert_eq!(bucket, want, "{spread} {rounds:?}");
        }
        let mut rand = crate::xorshift(0x2545_F491_4F6C_DD1Du64);
        for rounds in [
            &[0usize][..],
            &[1],
            &[5, 0, 7],
            &[SMALL - 1, SMALL, SMALL + 1],
            &[20_000],
            &[30_000, 500, 30_000],
        ] {
            for spread in [3u64, 1000, 1 << 20, u64::MAX] {
                check::<u32>(&mut rand, spread, rounds);
                check::<u64>(&mut rand, spread, rounds);
            }
        }
    }
}
