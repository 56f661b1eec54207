//! A level's expansion, per instruction set ([`Isa`]): each thread lists the children of the
//! buckets of parents it takes ([`Job`], [`Cursor`]), then each bucket's lists are merged into
//! the next level's sorted bucket ([`merge_bucket`]), keeping two move ranks per position
//! ([`keep_two`]).

use super::*;

/// The instruction sets the expansion is compiled for. The canonical form of a child is a
/// minimum over lanes, which AVX-512 and AVX2 compute in a few vector instructions and the
/// baseline set only lane by lane (for 64-bit lanes, AVX2 has no unsigned minimum either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) enum Isa {
    Avx512,
    Avx2,
    Baseline,
}

impl Isa {
    /// The widest set this processor has.
    pub(super) fn detect() -> Isa {
        Isa::available()[0]
    }

    /// Every set this processor has, widest first.
    // elsewhere than x86-64 the pushes below are compiled out and the lint sees one push
    #[cfg_attr(not(target_arch = "x86_64"), allow(clippy::vec_init_then_push))]
    pub(super) fn available() -> Vec<Isa> {
        let mut out = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            // every processor with AVX2 has POPCNT; it is checked all the same (peg counts of
            // positions, in every unpacking of a 33-hole position)
            let popcnt = std::arch::is_x86_feature_detected!("popcnt");
            // and BMI2, which processors with AVX2 have too (one without it gets the baseline):
            // the packed moves' PEXT ([`fast_pext`]), and the compiler's shifts
            let bmi2 = std::arch::is_x86_feature_detected!("bmi2");
            let avx2 = std::arch::is_x86_feature_detected!("avx2") && popcnt && bmi2;
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && avx2
            {
                out.push(Isa::Avx512);
            }
            if avx2 {
                out.push(Isa::Avx2);
            }
        }
        out.push(Isa::Baseline);
        out
    }
}

/// Whether PEXT (BMI2) is there and fast: one instruction of a few cycles on Intel's
/// processors since Haswell and AMD's since Zen 3, but microcoded on AMD's Zen and Zen 2 (and
/// Hygon's Dhyana, families 17h and 18h), where it takes several cycles per bit of its mask,
/// a hundred or more for a direction's starts on the English board: there the moves are
/// found direction by direction instead ([`Engine::pext`]). Measured on a Zen 3 (family 19h),
/// medians of 15 alternating pairs of whole processes: the English board's full count 4 %
/// faster with the moves packed, `--solvable-only` 8 %.
pub(super) fn fast_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        // SAFETY: CPUID is part of x86-64 (its leaves 0 and 1 always exist).
        #[allow(unused_unsafe)]
        let (v, f) = unsafe { (__cpuid(0), __cpuid(1)) };
        let vendor: Vec<u8> = [v.ebx, v.edx, v.ecx]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let base = (f.eax >> 8) & 0xf;
        let family = if base == 0xf {
            base + ((f.eax >> 20) & 0xff)
        } else {
            base
        };
        let slow = matches!(&vendor[..], b"AuthenticAMD" | b"HygonGenuine") && family < 0x19;
        !slow
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the processor compresses bytes (AVX-512 VBMI2, with BW): [`Engine::expand_flat`].
pub(super) fn has_vbmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the processor shuffles bits (AVX-512 BITALG): [`super::shuffle::Shuffles`].
pub(super) fn has_bitalg() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512bitalg")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// A round of a level's expansion: each thread expands parents of `store` (with `pegs` pegs)
/// from its [`Cursor`] into its lists, until the lists hold `cap` entries or might overflow it with the next parent.
///
/// A thread takes the next bucket not yet taken (`next`) when it is done with one, rather
/// than a fixed share of them: a fixed half each left one of two threads idle for up to a
/// sixth of a level's expansion whenever the other ran slower (its parents' children, or its
/// processor taken by the host).
pub(super) struct Job<'a, K: Key, const L: usize> {
    pub(super) e: &'a Engine<K, L>,
    pub(super) store: &'a Store<K>,
    pub(super) pegs: u32,
    pub(super) cap: usize,
    /// The first bucket no thread has taken yet (past [`BUCKETS`] once all are).
    pub(super) next: &'a AtomicUsize,
}

/// Where a thread stands in a level: parent `i` of bucket `b`, in the thread's copy of that
/// bucket (`Lists::parents`, made when `i` is 0), or no bucket at all ([`Cursor::IDLE`]).
pub(super) struct Cursor {
    pub(super) b: usize,
    pub(super) i: usize,
}

impl Cursor {
    /// No bucket: the thread takes the next one when it runs.
    pub(super) const IDLE: usize = usize::MAX;

    pub(super) fn idle() -> Cursor {
        Cursor {
            b: Self::IDLE,
            i: 0,
        }
    }

    /// Whether the thread is in the middle of a bucket.
    pub(super) fn busy(&self) -> bool {
        self.b != Self::IDLE
    }
}

impl<K: Key, const L: usize> Job<'_, K, L> {
    /// Runs the job on the engine's instruction set.
    pub(super) fn run(&self, l: &mut Lists<K>, at: &mut Cursor) {
        match self.e.isa {
            // SAFETY: `Isa::available` found the features of `Isa::Avx512`, and `flat_ids` is
            // only set where `has_vbmi2` found AVX-512 BW and VBMI2 too.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 if self.e.shuffles.is_some() => unsafe { expand_shuffled(self, l, at) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 if self.e.flat_ids.is_some() => unsafe { expand_flat(self, l, at) },
            // SAFETY: `Isa::available` found the features `expand_avx512` is compiled for.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { expand_avx512(self, l, at) },
            // SAFETY: as above, for `expand_avx2`.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { expand_avx2(self, l, at) },
            _ => expand_plain(self, l, at),
        }
        // one fence orders every streamed line of this thread, whatever its bucket
        l.kids.publish();
    }

    /// Expands `ps` (one parent, or a block of them with `FLAT`) into `l`; returns how many
    /// children it listed.
    #[inline(always)]
    fn expand_some<const SIMD: bool, const FLAT: bool, const SHUF: bool>(
        &self,
        ps: &[(K, u16)],
        l: &mut Lists<K>,
    ) -> usize {
        #[cfg(target_arch = "x86_64")]
        if FLAT {
            // SAFETY: `FLAT` is only set by `expand_flat`, compiled for what `expand_flat`
            // needs and called only where `flat_ids` is set (a packed grid).
            return unsafe { self.e.expand_flat::<SHUF>(ps, self.pegs, l) };
        }
        let (k, sleep) = ps[0];
        self.e
            .expand::<SIMD>(k.unpack(self.pegs, self.e.c.n), self.pegs, sleep, l)
    }

    /// The expansion itself, inlined into each compiled version (`SIMD`: with AVX2; `FLAT`:
    /// by blocks of parents, [`Engine::expand_flat`], only where `flat_ids` is set and the
    /// caller is compiled for its features): takes buckets and walks their parents from the
    /// cursor, one at a time, or up to a block of them with `FLAT` (as many as surely fit the
    /// round's room, at least one); stops once the lists might overflow the round.
    ///
    /// The two ways are chosen by constants, not by closures: with a closure for each, the
    /// English full count took 1.6 times as long (medians of 8 alternating runs, 1.17 against
    /// 0.73 s).
    #[inline(always)]
    fn body<const SIMD: bool, const FLAT: bool, const SHUF: bool>(
        &self,
        l: &mut Lists<K>,
        at: &mut Cursor,
    ) {
        // a parent adds at most this many entries
        let most = self.e.c.moves() + 1;
        let mut parents = std::mem::take(&mut l.parents);
        let mut held = 0;
        loop {
            if !at.busy() {
                if held > 0 && held + most > self.cap {
                    break;
                }
                let b = self.next.fetch_add(1, Ordering::Relaxed);
                if b >= BUCKETS {
                    break;
                }
                *at = Cursor { b, i: 0 };
            }
            if at.i == 0 {
                self.store.values_into(at.b, &mut parents);
            }
            while at.i < parents.len() {
                if held > 0 && held + most > self.cap {
                    l.parents = parents;
                    return;
                }
                // (a constant 1 parent by parent, without the division)
                let room = if FLAT {
                    (self.cap.saturating_sub(held) / most).clamp(1, FLAT_BLOCK)
                } else {
                    1
                };
                let end = (at.i + room).min(parents.len());
                held += self.expand_some::<SIMD, FLAT, SHUF>(&parents[at.i..end], l);
                at.i = end;
            }
            *at = Cursor::idle();
        }
        l.parents = parents;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi2,avx2,bmi2,popcnt")]
fn expand_flat<K: Key, const L: usize>(j: &Job<K, L>, l: &mut Lists<K>, at: &mut Cursor) {
    j.body::<true, true, false>(l, at)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi2,avx512bitalg,avx2,bmi2,popcnt")]
fn expand_shuffled<K: Key, const L: usize>(j: &Job<K, L>, l: &mut Lists<K>, at: &mut Cursor) {
    j.body::<true, true, true>(l, at)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx2,bmi2,popcnt")]
fn expand_avx512<K: Key, const L: usize>(j: &Job<K, L>, l: &mut Lists<K>, at: &mut Cursor) {
    j.body::<true, false, false>(l, at)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
fn expand_avx2<K: Key, const L: usize>(j: &Job<K, L>, l: &mut Lists<K>, at: &mut Cursor) {
    j.body::<true, false, false>(l, at)
}

#[inline(never)]
fn expand_plain<K: Key, const L: usize>(j: &Job<K, L>, l: &mut Lists<K>, at: &mut Cursor) {
    j.body::<false, false, false>(l, at)
}

/// Adds bucket `b`'s children from every thread's lists to the level's bucket `nb`
/// ([`sorted::add_entries`]).
#[inline(never)]
pub(super) fn merge_bucket<K: Key>(
    b: usize,
    nb: &mut sorted::Bucket<K>,
    lists: &[Lists<K>],
    scratch: &mut sorted::Scratch<K>,
) {
    sorted::add_entries(b, nb, lists.iter().flat_map(|l| l.kids.entries(b)), scratch);
}

/// Adds the move of rank `r` to the two of highest rank kept in `v` (high byte first).
#[inline(always)]
pub(super) fn keep_two(v: &mut u16, r: u8) {
    let (a, b) = ((*v >> 8) as u8, *v as u8);
    // without branches: the ranks arrive in no order, so branches would mispredict
    let hi = a.max(r);
    let lo = if r == a { b } else { b.max(a.min(r)) };
    *v = (hi as u16) << 8 | lo as u16;
}
