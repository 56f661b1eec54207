//! Solvable positions only, below half the holes: the walk down from the middle level (see
//! "Solvable positions only" in the [`super`] module's documentation).
//!
//! Each step lists the children of the solvable positions of `q` pegs and keeps those whose
//! complement's canonical form is in the partner level (`n - q + 1` pegs, built by the
//! breadth-first search). A child's canonical form and its complement's are the smallest and
//! (complemented) the largest of its lanes, which the step computes together: with AVX2, as
//! one vector of 8 lanes, a few instructions for both. The first step of an odd board, from
//! every position of `(n + 1) / 2` pegs (2.6 M on the English board, the largest expansion of
//! the walk), reads that level's tables bucket by bucket instead of copying it into a list
//! first, which would add 8 bytes per position to the count's peak memory.
//!
//! The lookups ([`step_any`]): each child's as it is listed, in blocks whose loads are
//! prefetched ([`step_probed`]), in the partner level as frozen if it is small enough, or in
//! a bitmap of it on boards of at most 34 holes (the English board's level of 17 pegs; either
//! way the walk measured about 0.7x the time of the lookups below); otherwise staged by
//! bucket and looked up in the partner level's store ([`step`]).

use rayon::prelude::*;

use super::dense::{Classes, Dense, BLOCK};
use super::frozen::Frozen;
use super::sorted::{merge_into, sort_dedup};
use super::{bucket_of_mixed, phases, Engine, Key, Level, Stage, Store, BUCKETS};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The solvable positions of at most `n / 2` pegs (a central game), as (pegs, count) from
/// `n / 2` down; `forward` holds every level from the start down to `lowest` pegs, which is
/// `(n + 1) / 2` for an odd `n` and `n / 2` for an even one.
///
/// A solvable position `P` lies on a path from the start to the finish, so the position
/// before it on that path is solvable too: the solvable positions of `q - 1` pegs are the
/// children of those of `q` pegs from which the finish can be reached, which is the case iff
/// the canonical form of the complement is reachable (it has `n - q + 1` pegs: its level is
/// at hand). For an odd `n` the walk starts from every position of `(n + 1) / 2` pegs (the
/// parent of a solvable position on its path is reachable, which is all the first step
/// needs), so the level of `(n - 1) / 2` pegs, the largest one, is never built: its solvable
/// positions are the children whose complement is in the level of `(n + 1) / 2` pegs. For an
/// even `n` the middle level, its own partner, is built and tested position by position.
///
/// The sleep sets of the forward search hold here too: a move `t` that led to `P` is still a
/// way into `P` from a reachable position `R`, and if the child `P + u` skipped for `t` is
/// solvable, so is `R + u` (it reaches `P + u`), the parent of the pair that makes the child
/// instead.
///
/// Each step looks its partner level up as [`step_any`] chooses: frozen as it is, or as a
/// bitmap built for the step where `classes` are given (boards small enough, see
/// [`super::dense`]), or staged by bucket.
pub(super) fn solvable_down<K: Key, const L: usize>(
    e: &Engine<K, L>,
    forward: &[Level<K>],
    lowest: u32,
    classes: Option<&Classes>,
) -> Vec<(u32, u64)> {
    let n = e.c.n as u32;
    let level = |pegs: u32| forward.iter().find(|l| l.pegs == pegs);
    let Some(m) = level(lowest) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut q = lowest;
    // every step's lists, kept from one step to the next (their memory with them)
    let threads = rayon::current_num_threads().max(1);
    let mut lists: Vec<Stage<[K; 2]>> = (0..threads).map(|_| Stage::new()).collect();
    // the bitmap of the previous step's partner level, renewed for the next one
    let mut spare: Option<Dense> = None;
    let mut cur: Vec<(K, u16)> = if 2 * lowest > n {
        // every position of the level: the first step keeps the solvable children
        let Some(partner) = level(n - q + 1) else {
            return out;
        };
        let next = step_any(
            e,
            Parents::Store(&m.store),
            q,
            partner,
            classes,
            &mut spare,
            &mut lists,
        );
        q -= 1;
        out.push((q, next.len() as u64));
        next
    } else {
        let Some(pm) = level(n - lowest) else {
            return Vec::new();
        };
        let cur: Vec<(K, u16)> = (0..BUCKETS)
            .into_par_iter()
            .flat_map_iter(|b| {
                let mut pairs = Vec::new();
                m.store.values_into(b, &mut pairs);
                let pairs: Vec<(K, u16, K)> = pairs
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            k,
                            v,
                            e.dual::<false>(&e.images(k.unpack(lowest, n as usize))),
                        )
                    })
                    .collect();
                let mut out = Vec::new();
                keep(&pairs, pm, &mut out);
                out
            })
            .collect();
        out.push((lowest, cur.len() as u64));
        cur
    };
    while !cur.is_empty() && q > 1 {
        let Some(partner) = level(n - q + 1) else {
            break;
        };
        cur = step_any(
            e,
            Parents::List(&cur),
            q,
            partner,
            classes,
            &mut spare,
            &mut lists,
        );
        q -= 1;
        out.push((q, cur.len() as u64));
    }
    out
}

/// One step of the walk: the solvable children of `parents` (of `q` pegs), looked up in
/// `partner` (the level of `n - q + 1` pegs) as it is if it is smaller than
/// [`Engine::dense_min`] ([`FrozenPartner`], [`TablesPartner`]; the partner levels only shrink
/// from there on, so `spare` is freed), or as a bitmap in the memory of `spare`, which keeps
/// it for the next step ([`Dense`], boards with `classes`), or staged by bucket ([`step`]).
#[allow(clippy::too_many_arguments)]
fn step_any<'a, K: Key, const L: usize>(
    e: &Engine<K, L>,
    parents: Parents<K>,
    q: u32,
    partner: &Level<K>,
    classes: Option<&'a Classes>,
    spare: &mut Option<Dense<'a>>,
    lists: &mut Vec<Stage<[K; 2]>>,
) -> Vec<(K, u16)> {
    if partner.size < e.dense_min {
        *spare = None;
        return match &partner.store {
            Store::Frozen(f) => step_probed(e, parents, q, &FrozenPartner(f)),
            st @ Store::Tables(_) => step_probed(e, parents, q, &TablesPartner(st)),
        };
    }
    match classes.and_then(|cl| dense_of(e, cl, partner, spare.take())) {
        Some(d) => {
            let next = step_probed(e, parents, q, &d);
            *spare = Some(d);
            next
        }
        None => step(e, parents, q, partner, lists),
    }
}

/// The parents of a step: the solvable positions found by the previous one, or a whole level
/// of the search, read bucket by bucket.
enum Parents<'a, K: Key> {
    List(&'a [(K, u16)]),
    Store(&'a Store<K>),
}

/// The solvable children of `parents` (positions of `q` pegs), without repeats, each with the
/// two highest ranks of the moves into it; `partner` is the level of `n - q + 1` pegs.
///
/// In batches of parents whose children fit a few chunks, so that the repeats never take
/// more memory than that (what is kept is at most the partner level's size: the solvable
/// positions of `q - 1` and `n - q + 1` pegs pair up). Each batch goes in two passes, as a
/// level of the breadth-first search does: every thread lists its share of the children by
/// the bucket of their complement's canonical form ([`Stage`]), then each bucket's complements
/// are looked up in the partner level's part for that bucket, which stays in the caches
/// (a lookup straight into the whole partner level was a cache miss per child: half the time
/// of the walk).
fn step<K: Key, const L: usize>(
    e: &Engine<K, L>,
    parents: Parents<K>,
    q: u32,
    partner: &Level<K>,
    lists: &mut Vec<Stage<[K; 2]>>,
) -> Vec<(K, u16)> {
    // the lists hold a batch's children, two words each: a few per parent with the sleep
    // sets, so a batch of a 64th of a chunk's parents lists a sixteenth of a chunk's entries
    // or so (an eighth without sleep sets); each batch reads the partner level once
    let batch = (e.chunk / 64).max(1);
    let threads = lists.len();
    let mut next: Vec<(K, u16)> = Vec::new();
    let (mut t_list, mut t_answer, mut t_add, mut listed) = (0f64, 0f64, 0f64, 0usize);
    let mut run = |lists: &mut Vec<Stage<[K; 2]>>,
                   part: &(dyn Fn(usize, &mut Stage<[K; 2]>) + Sync)| {
        let t0 = phases::on().then(std::time::Instant::now);
        lists.par_iter_mut().enumerate().for_each(|(t, l)| {
            l.clear();
            part(t, l);
            l.publish();
        });
        let t1 = phases::on().then(std::time::Instant::now);
        let lists_ref = &*lists;
        let kept: Vec<(K, u16)> = (0..BUCKETS)
            .into_par_iter()
            .flat_map_iter(|b| answer(b, lists_ref, partner))
            .collect();
        let t2 = phases::on().then(std::time::Instant::now);
        add(&mut next, kept);
        if let (Some(t0), Some(t1), Some(t2)) = (t0, t1, t2) {
            let t3 = std::time::Instant::now();
            t_list += (t1 - t0).as_secs_f64() * 1e3;
            t_answer += (t2 - t1).as_secs_f64() * 1e3;
            t_add += (t3 - t2).as_secs_f64() * 1e3;
            listed += lists
                .iter()
                .flat_map(|l| (0..BUCKETS).flat_map(|b| l.entries(b)))
                .map(|e| e.len())
                .sum::<usize>();
        }
    };
    match parents {
        Parents::List(cur) => {
            for ps in cur.chunks(batch) {
                run(lists, &|t, l| {
                    let (lo, hi) = (ps.len() * t / threads, ps.len() * (t + 1) / threads);
                    list_children(e, &ps[lo..hi], q, l);
                });
            }
        }
        Parents::Store(st) => {
            let mut i = 0;
            while i < BUCKETS {
                // the buckets from `i` that hold at most `batch` positions (at least one)
                let mut j = i + 1;
                let mut held = st.bucket_len(i);
                while j < BUCKETS && held + st.bucket_len(j) <= batch {
                    held += st.bucket_len(j);
                    j += 1;
                }
                run(lists, &|t, l| {
                    let mut ps = Vec::new();
                    for b in i + (j - i) * t / threads..i + (j - i) * (t + 1) / threads {
                        st.values_into(b, &mut ps);
                        list_children(e, &ps, q, l);
                    }
                });
                i = j;
            }
        }
    }
    if phases::on() {
        eprintln!(
            "phase down {q:>2} -> {:>2}: list {t_list:>8.2} ms  answer {t_answer:>8.2} ms  add {t_add:>8.2} ms  {listed:>9} children  {:>8} positions",
            q - 1,
            next.len()
        );
    }
    next
}

/// The level `partner` as a bitmap ([`Dense`]), in the memory of `spare` if given, or `None`
/// if its peg count spans too many positions for one.
pub(super) fn dense_of<'a, K: Key, const L: usize>(
    e: &Engine<K, L>,
    cl: &'a Classes,
    partner: &Level<K>,
    spare: Option<Dense<'a>>,
) -> Option<Dense<'a>> {
    let mut clock = phases::Clock::start();
    let d = match spare {
        Some(d) => d.renew(partner.pegs)?,
        None => Dense::new(cl, partner.pegs)?,
    };
    let (n, pegs) = (e.c.n, partner.pegs);
    (0..BUCKETS).into_par_iter().for_each_init(
        || (Vec::new(), Vec::new()),
        |(ks, xs), b| {
            ks.clear();
            partner.store.keys_into(b, ks);
            xs.clear();
            xs.extend(ks.iter().map(|k| k.unpack(pegs, n)));
            // every position of a level is in the class of the start
            d.insert_some(xs);
        },
    );
    clock.lap("bitmap of a level", || format!("{pegs} pegs"));
    Some(d)
}

/// [`step`] with lookups as the children are listed: each thread takes pieces of the parents,
/// lists their children and looks their complements up in `partner` as it goes, in blocks
/// whose loads are prefetched ([`probe_children`]); the children kept go into a list per
/// thread, which the thread sorts ([`sort_dedup`]), merged into the result per batch of
/// parents ([`merge_into`]).
fn step_probed<K: Key, const L: usize, P: Partner>(
    e: &Engine<K, L>,
    parents: Parents<K>,
    q: u32,
    partner: &P,
) -> Vec<(K, u16)> {
    // the children kept are a few per parent at most (a quarter on the English board): a
    // batch of a quarter of a chunk of parents keeps a few megabytes
    let batch = (e.chunk / 4).max(1);
    let threads = rayon::current_num_threads().max(1);
    let mut next: Vec<(K, u16)> = Vec::new();
    let (mut t_list, mut t_add, mut kept_n) = (0f64, 0f64, 0usize);
    let mut run = |pieces: usize, part: &Piece<K>| {
        let t0 = phases::on().then(std::time::Instant::now);
        // each thread takes the next piece not yet taken (a fixed share each left one of two
        // threads idle whenever the other ran slower), and sorts its own children; the merge
        // into `next` is cut into ranges merged side by side ([`merge_into`])
        let taken = AtomicUsize::new(0);
        let outs: Vec<(Vec<(K, u16)>, usize)> = (0..threads)
            .into_par_iter()
            .map(|_| {
                let mut out = Vec::new();
                loop {
                    let p = taken.fetch_add(1, Ordering::Relaxed);
                    if p >= pieces {
                        break;
                    }
                    part(p, &mut out);
                }
                let listed = out.len();
                sort_dedup(&mut out);
                (out, listed)
            })
            .collect();
        let t1 = phases::on().then(std::time::Instant::now);
        for (out, listed) in outs {
            kept_n += listed;
            merge_into(&mut next, out);
        }
        if let (Some(t0), Some(t1)) = (t0, t1) {
            t_list += (t1 - t0).as_secs_f64() * 1e3;
            t_add += t1.elapsed().as_secs_f64() * 1e3;
        }
    };
    match parents {
        Parents::List(cur) => {
            for ps in cur.chunks(batch) {
                run(ps.len().div_ceil(PIECE), &|p, out| {
                    let piece = &ps[p * PIECE..((p + 1) * PIECE).min(ps.len())];
                    probe_children(e, piece, q, partner, out);
                });
            }
        }
        Parents::Store(st) => {
            let mut i = 0;
            while i < BUCKETS {
                let mut j = i + 1;
                let mut held = st.bucket_len(i);
                while j < BUCKETS && held + st.bucket_len(j) <= batch {
                    held += st.bucket_len(j);
                    j += 1;
                }
                run(j - i, &|p, out| {
                    let mut ps = Vec::new();
                    st.values_into(i + p, &mut ps);
                    probe_children(e, &ps, q, partner, out);
                });
                i = j;
            }
        }
    }
    if phases::on() {
        eprintln!(
            "phase down {q:>2} -> {:>2}: list+probe {t_list:>8.2} ms  add {t_add:>8.2} ms  {kept_n:>9} kept  {:>8} positions  {}",
            q - 1,
            next.len(),
            phases::memory()
        );
    }
    next
}

/// A piece of a batch of parents (its index): lists the children kept into the vector.
type Piece<'a, K> = dyn Fn(usize, &mut Vec<(K, u16)>) + Sync + 'a;

/// Parents per piece of a list of parents: small enough that the pieces of a batch balance
/// the threads, large enough that taking one costs nothing in comparison.
const PIECE: usize = 2048;

/// A partner level as the walk looks it up: in three steps, each of which covers the
/// latency of the previous one's loads with a block of children ([`Probes`]).
pub(super) trait Partner: Sync {
    /// What the second step finds for the third.
    type At: Copy + Default;
    /// Asks for what the second step reads, for the complement `x` (unpacked).
    fn first(&self, x: u64);
    /// Reads it, and asks for what the third step reads.
    fn second(&self, x: u64) -> Self::At;
    /// True if the level holds `x`.
    fn third(&self, at: Self::At, x: u64) -> bool;
}

impl Partner for Dense<'_> {
    type At = (u32, bool);
    #[inline(always)]
    fn first(&self, x: u64) {
        self.prefetch_tables(x);
    }
    #[inline(always)]
    fn second(&self, x: u64) -> (u32, bool) {
        let a = self.index_raw(x);
        self.prefetch(a.0);
        a
    }
    #[inline(always)]
    fn third(&self, (a, ok): (u32, bool), _: u64) -> bool {
        ok && self.contains_at(a)
    }
}

/// A frozen level, looked up as it is: a directory word, then a slot's entries
/// ([`Frozen::entries_of`]).
pub(super) struct FrozenPartner<'a, K: Key>(pub(super) &'a Frozen<K>);

impl<K: Key> Partner for FrozenPartner<'_, K> {
    type At = (u32, u32);
    #[inline(always)]
    fn first(&self, x: u64) {
        self.0.prefetch_dir(K::pack(x).mix());
    }
    #[inline(always)]
    fn second(&self, x: u64) -> (u32, u32) {
        self.0.entries_of(K::pack(x).mix())
    }
    #[inline(always)]
    fn third(&self, at: (u32, u32), x: u64) -> bool {
        self.0.holds(at, K::pack(x).mix())
    }
}

/// A level still in its tables (too small to be frozen, see [`super::How::freeze_min`]),
/// looked up through [`Store::contains`]: its slot is asked for first.
pub(super) struct TablesPartner<'a, K: Key>(pub(super) &'a Store<K>);

impl<K: Key> Partner for TablesPartner<'_, K> {
    type At = ();
    #[inline(always)]
    fn first(&self, x: u64) {
        self.0.prefetch(K::pack(x));
    }
    #[inline(always)]
    fn second(&self, _: u64) {}
    #[inline(always)]
    fn third(&self, _: (), x: u64) -> bool {
        self.0.contains(K::pack(x))
    }
}

/// A block of children whose complements are looked up together, in the three steps of a
/// [`Partner`]: each covers the latency of the previous one's loads with [`BLOCK`] children
/// of work.
struct Probes<K> {
    /// The complements, unpacked.
    x: [u64; BLOCK],
    /// The children, with the rank of the move that made each.
    kid: [(K, u8); BLOCK],
    len: usize,
}

impl<K: Key> Probes<K> {
    fn new() -> Self {
        Probes {
            x: [0; BLOCK],
            kid: [(K::ZERO, 0); BLOCK],
            len: 0,
        }
    }

    #[inline(always)]
    fn push<P: Partner>(&mut self, x: u64, kid: (K, u8), partner: &P, out: &mut Vec<(K, u16)>) {
        self.x[self.len] = x;
        self.kid[self.len] = kid;
        self.len += 1;
        if self.len == BLOCK {
            self.flush(partner, out);
        }
    }

    /// Looks the block up, appending the children kept (rank in the high byte) to `out`.
    #[inline(always)]
    fn flush<P: Partner>(&mut self, partner: &P, out: &mut Vec<(K, u16)>) {
        let xs = &self.x[..self.len];
        xs.iter().for_each(|&x| partner.first(x));
        let mut at = [P::At::default(); BLOCK];
        for (a, &x) in at.iter_mut().zip(xs) {
            *a = partner.second(x);
        }
        out.reserve(self.len);
        for ((&a, &x), &(k, r)) in at.iter().zip(xs).zip(&self.kid[..self.len]) {
            if partner.third(a, x) {
                out.push((k, (r as u16) << 8));
            }
        }
        self.len = 0;
    }
}

/// The children of the parents `ch` (of `q` pegs) whose complement is in `partner`, each with
/// the rank of its move in the high byte, appended to `out`; on the engine's instruction set.
fn probe_children<K: Key, const L: usize, P: Partner>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    partner: &P,
    out: &mut Vec<(K, u16)>,
) {
    match e.isa {
        // SAFETY: `Isa::available` found AVX2, BMI2 and POPCNT (AVX-512 only with them).
        #[cfg(target_arch = "x86_64")]
        super::Isa::Avx512 | super::Isa::Avx2 => unsafe { probe_avx2(e, ch, q, partner, out) },
        _ => probe_plain(e, ch, q, partner, out),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn probe_avx2<K: Key, const L: usize, P: Partner>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    partner: &P,
    out: &mut Vec<(K, u16)>,
) {
    probe_body::<K, L, P, true>(e, ch, q, partner, out)
}

#[inline(never)]
fn probe_plain<K: Key, const L: usize, P: Partner>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    partner: &P,
    out: &mut Vec<(K, u16)>,
) {
    probe_body::<K, L, P, false>(e, ch, q, partner, out)
}

/// [`probe_children`], inlined into each compiled version (`SIMD`: with AVX2); the lookups go
/// in blocks ([`Probes`]).
#[inline(always)]
fn probe_body<K: Key, const L: usize, P: Partner, const SIMD: bool>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    partner: &P,
    out: &mut Vec<(K, u16)>,
) {
    let n = e.c.n;
    let dual_pegs = n as u32 - q + 1;
    let (mut scratch, mut moves) = (Vec::new(), Vec::new());
    let mut probes = Probes::new();
    for &(k, sleep) in ch {
        let x = k.unpack(q, n);
        let imgs = e.images(x);
        moves.clear();
        e.for_each_move::<SIMD>(x, q, sleep, &mut scratch, |mv| moves.push(mv as u16));
        for &mv in &moves {
            let mv = mv as usize;
            let (key, lane, dual) = e.child_and_dual::<SIMD>(&imgs, mv);
            let kid = (key, e.tags[mv][lane]);
            probes.push(dual.unpack(dual_pegs, n), kid, partner, out);
        }
    }
    probes.flush(partner, out);
}

/// The children listed in bucket `b` of `lists` whose complement is in `partner`, each with
/// the rank of its move in the high byte.
fn answer<K: Key>(b: usize, lists: &[Stage<[K; 2]>], partner: &Level<K>) -> Vec<(K, u16)> {
    let mut out = Vec::new();
    for l in lists {
        for es in l.entries(b) {
            for &[t, k] in es {
                let (m, rank) = K::untag_mixed(t, b);
                if partner.store.contains_mixed(m) {
                    out.push((k, (rank as u16) << 8));
                }
            }
        }
    }
    out
}

/// Adds `kept` to the sorted `next`, one entry per position, keeping the two highest ranks of
/// its entries: `kept` is sorted and deduplicated on its own, then merged (sorting `next` again
/// each batch would cost the whole of it per batch).
fn add<K: Key>(next: &mut Vec<(K, u16)>, mut kept: Vec<(K, u16)>) {
    sort_dedup(&mut kept);
    merge_into(next, kept);
}

/// Lists the children of the parents `ch` (of `q` pegs) into `l`, by the bucket of their
/// complement's canonical form: that form tagged with the rank of the move ([`Key::tag_mixed`]),
/// and the child's canonical form; on the engine's instruction set.
fn list_children<K: Key, const L: usize>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    l: &mut Stage<[K; 2]>,
) {
    match e.isa {
        // SAFETY: `Isa::available` found AVX2, BMI2 and POPCNT (AVX-512 only with them).
        #[cfg(target_arch = "x86_64")]
        super::Isa::Avx512 | super::Isa::Avx2 => unsafe { list_avx2(e, ch, q, l) },
        _ => list_plain(e, ch, q, l),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn list_avx2<K: Key, const L: usize>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    l: &mut Stage<[K; 2]>,
) {
    list_body::<K, L, true>(e, ch, q, l)
}

#[inline(never)]
fn list_plain<K: Key, const L: usize>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    l: &mut Stage<[K; 2]>,
) {
    list_body::<K, L, false>(e, ch, q, l)
}

/// [`list_children`], inlined into each compiled version (`SIMD`: with AVX2).
#[inline(always)]
fn list_body<K: Key, const L: usize, const SIMD: bool>(
    e: &Engine<K, L>,
    ch: &[(K, u16)],
    q: u32,
    l: &mut Stage<[K; 2]>,
) {
    let n = e.c.n;
    let (mut scratch, mut moves) = (Vec::new(), Vec::new());
    for &(k, sleep) in ch {
        let x = k.unpack(q, n);
        let imgs = e.images(x);
        // the moves first, then the children: a closure doing both would not be inlined
        // (nor would the vector instructions within it)
        moves.clear();
        e.for_each_move::<SIMD>(x, q, sleep, &mut scratch, |mv| moves.push(mv as u16));
        for &mv in &moves {
            let mv = mv as usize;
            let (key, lane, dual) = e.child_and_dual::<SIMD>(&imgs, mv);
            let m = dual.mix();
            l.push(bucket_of_mixed(m), [m.tag_mixed(e.tags[mv][lane]), key]);
        }
    }
}

/// How many entries ahead [`keep`] prefetches its lookups in the partner level (64 measured
/// 8-11 % faster than 16 on the English counts: the partner levels' lookups miss the caches).
const AHEAD: usize = 64;

/// The positions of `pairs` (position, ranks of moves that led to it, canonical form of its
/// complement) whose complement is in `partner`, into `out`; the lookups are prefetched, the
/// levels being far larger than the caches.
#[inline(always)]
fn keep<K: Key>(pairs: &[(K, u16, K)], partner: &Level<K>, out: &mut Vec<(K, u16)>) {
    let at = &partner.store;
    for (i, &(k, sleep, d)) in pairs.iter().enumerate() {
        if let Some(&(_, _, y)) = pairs.get(i + AHEAD) {
            at.prefetch(y);
        }
        if at.contains(d) {
            out.push((k, sleep));
        }
    }
}
