//! The count's engine ([`Engine`]): a board's moves and symmetries as lane masks of stored
//! words, the sleep sets' tables, and the expansion of one parent (or of a block of them)
//! into its children's list entries; also the walk down's move listing.

use super::*;

/// Moves and symmetries as `L`-lane masks of stored words (`K`): each lane holds a position's
/// image under one symmetry, truncated to the stored word. Truncation commutes with XOR and
/// OR, so a child's lanes are its parent's XOR the move's, and the smallest lane is a
/// canonical form: the set of lanes depends only on the orbit, and two positions with the same
/// peg count and the same truncated word are equal (see [`Key`]). Narrow lanes halve the
/// tables and let 8 lanes fit one 256-bit vector.
pub(super) struct Engine<K, const L: usize> {
    pub(super) c: Compiled<u64>,
    /// `x[m][k]`: the image of move `m`'s three holes under lane `k`'s symmetry.
    pub(super) x: Vec<[K; L]>,
    /// `t[i][v][k]`: the image under lane `k` of nibble `i` of a position with value `v`. The
    /// lanes of one nibble value are adjacent (32 or 64 bytes for 8 lanes), so a position's
    /// images are one OR of rows per nibble, which the compiler vectorises. Nibbles rather
    /// than bytes: 9 rows instead of 5 for 33 holes, but 4.5 KiB of tables instead of 40,
    /// which stay in the first-level cache (measured 2–6 % faster).
    pub(super) t: Vec<[[K; L]; 16]>,
    /// The full position, truncated: XOR with it maps a lane to its complement's, reversing
    /// the order of lanes.
    pub(super) full: K,
    pub(super) grid: Option<Grid>,
    /// Sleep sets (see [`Engine::sleep`]): `tags[m][k]`, the rank of the image of move `m`
    /// under lane `k`'s symmetry, in an order of the moves by class (0: none recorded).
    pub(super) tags: Vec<[u8; L]>,
    /// `asleep[r * dirs + i]`: the grid bits where the moves of direction `i` start that a
    /// position may skip when the move of rank `r` led to it (row 0: none).
    pub(super) asleep: Vec<u64>,
    /// `asleep_packed[r]`: the same moves, as bits of the grid's packed form ([`grid::Packed`]).
    pub(super) asleep_packed: Vec<u128>,
    /// Moves are found as bits of the grid's packed form, by PEXT ([`Grid::legal_packed`]):
    /// the grid has one, the instruction set is not the baseline (whose compiled versions are
    /// the ones without BMI2) and PEXT is fast here ([`expand::fast_pext`]).
    pub(super) pext: bool,
    /// The moves of the grid's packed form as bytes, per 64-bit half: where they fit a byte
    /// and the processor compresses bytes (AVX-512 VBMI2), a block of parents lists its
    /// children's moves without a branch per parent ([`Engine::expand_flat`]).
    pub(super) flat_ids: Option<[[u8; 64]; 2]>,
    /// Where the processor also has BITALG: a block's moves and lanes by bit shuffles
    /// ([`Shuffles`]).
    pub(super) shuffles: Option<Shuffles>,
    /// The instruction set the expansion runs on.
    pub(super) isa: Isa,
    /// Entries listed per round at most ([`CHUNK_CHILDREN`] unless a test says otherwise).
    pub(super) chunk: usize,
    /// Levels of at least this many positions are frozen ([`FREEZE_MIN`] unless a test says
    /// otherwise).
    pub(super) freeze_min: usize,
    /// Partner levels of at least this many positions are looked up as bitmaps, on boards
    /// that have them ([`DENSE_MIN`] unless a test says otherwise).
    pub(super) dense_min: u64,
    /// Solvable positions only: the pagoda functions that drop children which cannot reach
    /// the finish ([`pagoda`]).
    pub(super) prune: Option<pagoda::Prune>,
}

impl<K: Key, const L: usize> Engine<K, L> {
    pub(super) fn new(
        inst: &Instance,
        group: &[Vec<u32>],
        cells: Option<&[(i32, i32)]>,
        how: How,
    ) -> Self {
        let c: Compiled<u64> = Compiled::new(inst, group, &[]);
        assert!(c.moves() <= u16::MAX as usize + 1);
        let n = c.n;
        let g = c.g;
        let x = (0..c.moves())
            .map(|m| std::array::from_fn(|k| K::pack(c.img[m * g + if k < g { k } else { 0 }])))
            .collect();
        let t = (0..n.div_ceil(4))
            .map(|i| {
                let mut ti = [[K::ZERO; L]; 16];
                for (v, row) in ti.iter_mut().enumerate() {
                    for (k, e) in row.iter_mut().enumerate() {
                        let p = &group[if k < g { k } else { 0 }];
                        let img = (0..4)
                            .filter(|&b| v >> b & 1 == 1 && 4 * i + b < n)
                            .fold(0u64, |acc, b| acc | 1 << p[4 * i + b]);
                        *e = K::pack(img);
                    }
                }
                ti
            })
            .collect();
        let grid = cells.and_then(|cs| Grid::new(&c, cs));
        let full = K::pack(c.full);
        let (tags, asleep) = Self::sleep(&c, group, grid.as_ref(), cells, how.sleep);
        // (a grid without directions has no moves, and nothing to pack)
        let packable = |gr: &&Grid| gr.packed.is_some() && !gr.dirs.is_empty();
        let (asleep_packed, pext) = match grid.as_ref().filter(packable) {
            Some(gr) => {
                let nd = gr.dirs.len();
                let rows = asleep
                    .chunks(nd)
                    .map(|row| (0..nd).fold(0, |acc, i| acc | gr.pack(i, row[i])))
                    .collect();
                (rows, how.isa != Isa::Baseline && expand::fast_pext())
            }
            None => (Vec::new(), false),
        };
        let flat_ids = match grid.as_ref().and_then(|gr| gr.packed.as_ref()) {
            Some(pk) if pext && how.isa == Isa::Avx512 && expand::has_vbmi2() => {
                let ids: Option<Vec<u8>> = (0..128)
                    .map(|b| match pk.mv.get(b) {
                        None | Some(&u16::MAX) => Some(u8::MAX),
                        Some(&m) => u8::try_from(m).ok().filter(|&m| m != u8::MAX),
                    })
                    .collect();
                ids.map(|v| [v[..64].try_into().unwrap(), v[64..].try_into().unwrap()])
            }
            _ => None,
        };
        let lanes32 = L == 8 && std::any::TypeId::of::<K>() == std::any::TypeId::of::<u32>();
        let shuffles = match &grid {
            Some(gr) if how.shuffles && flat_ids.is_some() && expand::has_bitalg() => {
                Shuffles::new(&c, group, &gr.dirs, &asleep, lanes32)
            }
            _ => None,
        };
        Engine {
            c,
            x,
            t,
            full,
            grid,
            tags,
            asleep,
            asleep_packed,
            pext,
            flat_ids,
            shuffles,
            isa: how.isa,
            chunk: how.chunk,
            freeze_min: how.freeze_min,
            dense_min: how.dense_min,
            prune: None,
        }
    }

    /// The tables of sleep sets, which spare most of the children that are repeats.
    ///
    /// A move `u` from `P` is *independent* of a move `t` into `P` (from `R = P - t`) when
    /// their holes are disjoint: then `u` is legal from `R` too, and `P + u = (R + u) + t`.
    /// Number the classes of moves under the group (the symmetries map moves to moves), and
    /// let `P` skip `u` when some move `t` that led to `P` is independent of `u` and of a
    /// higher class. This loses no position: among the pairs (canonical parent, move) that
    /// give a child's orbit, take one whose move has the highest class; if its parent skipped
    /// it for `t`, then `(R + u, t)`, in canonical form `(σ(R + u), σ(t))`, is another pair
    /// for the same orbit with a move of a higher class (the class is the same under `σ`,
    /// which is why the order is on classes and not on moves). `R + u` is reachable because
    /// `R` is, so that pair exists. Any subset of the moves that led to a position is enough,
    /// so each position keeps only two: the two of highest rank (ranks order the moves by
    /// class), the ones that let it skip the most. On the English board the search then lists
    /// 45.2 M children instead of 186.0 M (with the classes in the order of their smallest
    /// move, 58.9 M; a throwaway prototype that kept every move that led to each position
    /// listed 58.7 M with that order, one that kept a single move 77.5 M).
    ///
    /// **The order of the classes.** Any order is correct, but it decides how much is
    /// skipped: on the English board random orders of its 12 classes listed 50.1–61.7 M
    /// children, and a local search (moving one class at a time, counting every level each
    /// time) stopped at 43.6 M. The classes are ordered by how far their moves lie from the
    /// centre (the sum over a move's three holes of the squared distance of their cells from
    /// the centroid of the board's cells, [`far_from_centre`]), the farthest highest: 45.2 M
    /// on the English board (3.5 % above the local search's order), 7.9 M instead of 12.8 M
    /// on the 5×5 diagonal board. Moves near the centre are the ones most often made and most
    /// often overlap others, so they are the ones best skipped; a move far out, of a high
    /// class, is rarely skipped but lets every lower independent move be skipped after it.
    /// The landing hole's distance alone gave 47.7 M, the jumped hole's alone 45.2 M (the
    /// same order here). Boards without cells keep the order of the smallest move.
    ///
    /// Only with `on`, where moves are generated on the grid and there are at most 255 moves
    /// (ranks are bytes); otherwise every rank is 0 and nothing is skipped.
    pub(super) fn sleep(
        c: &Compiled<u64>,
        group: &[Vec<u32>],
        grid: Option<&Grid>,
        cells: Option<&[(i32, i32)]>,
        on: bool,
    ) -> (Vec<[u8; L]>, Vec<u64>) {
        let moves = c.moves();
        let g = group.len();
        let index: std::collections::HashMap<[u32; 3], usize> =
            c.abc.iter().enumerate().map(|(m, &t)| (t, m)).collect();
        let image = |k: usize, m: usize| {
            let p = &group[if k < g { k } else { 0 }];
            let [a, b, cc] = c.abc[m];
            index
                .get(&[p[a as usize], p[b as usize], p[cc as usize]])
                .copied()
        };
        let images_ok = (0..moves).all(|m| (0..g).all(|k| image(k, m).is_some()));
        let nd = grid.map_or(0, |gr| gr.dirs.len());
        let (Some(gr), true, true, true) = (grid, on, moves <= u8::MAX as usize, images_ok) else {
            return (vec![[0; L]; moves], vec![0; nd]);
        };
        // the orbit of a move: its smallest move
        let orbit: Vec<usize> = (0..moves)
            .map(|m| (0..g).filter_map(|k| image(k, m)).min().unwrap_or(m))
            .collect();
        // the class of a move: its orbit's place in the order of distance from the centre
        let far = cells
            .filter(|cs| cs.len() == c.n)
            .map(|cs| far_from_centre(cs, &c.abc));
        let mut orbits = orbit.clone();
        orbits.sort_unstable();
        orbits.dedup();
        orbits.sort_by_key(|&o| (far.as_ref().map_or(0, |f| f[o]), o));
        let mut place = vec![0usize; moves];
        for (i, &o) in orbits.iter().enumerate() {
            place[o] = i;
        }
        let class: Vec<usize> = orbit.iter().map(|&o| place[o]).collect();
        let mut order: Vec<usize> = (0..moves).collect();
        order.sort_by_key(|&m| (class[m], m));
        let mut rank = vec![0u8; moves];
        for (r, &m) in order.iter().enumerate() {
            rank[m] = r as u8 + 1;
        }
        let tags = (0..moves)
            .map(|m| std::array::from_fn(|k| image(k, m).map_or(0, |i| rank[i])))
            .collect();
        let holes = |m: usize| c.abc[m].iter().fold(0u64, |acc, &v| acc | 1 << v);
        let mut asleep = vec![0u64; (moves + 1) * nd];
        for t in 0..moves {
            let row = rank[t] as usize * nd;
            for (i, (_, starts, mv)) in gr.dirs.iter().enumerate() {
                let mut a = *starts;
                while a != 0 {
                    let bit = a.trailing_zeros();
                    a &= a - 1;
                    let u = mv[bit as usize] as usize;
                    if holes(u) & holes(t) == 0 && class[u] < class[t] {
                        asleep[row + i] |= 1 << bit;
                    }
                }
            }
        }
        (tags, asleep)
    }

    #[inline(always)]
    pub(super) fn images(&self, s: u64) -> [K; L] {
        let mut img = [K::ZERO; L];
        let mut s = s;
        for ti in &self.t {
            let row = &ti[(s & 15) as usize];
            for k in 0..L {
                img[k] = img[k] | row[k];
            }
            s >>= 4;
        }
        img
    }

    /// The smallest of `L` lanes: a tree of minima, which compiles to vector minima or to
    /// conditional moves (no branch to mispredict).
    #[inline(always)]
    pub(super) fn smallest(mut v: [K; L]) -> K {
        let mut w = L;
        while w > 1 {
            w /= 2;
            for k in 0..w {
                v[k] = v[k].min(v[k + w]);
            }
        }
        v[0]
    }

    /// The canonical form (the smallest lane) of the position `s`.
    pub(super) fn canon(&self, s: u64) -> K {
        Self::smallest(self.images(s))
    }

    /// The canonical form of the child by move `m`, from the parent's images.
    #[inline(always)]
    pub(super) fn child_canon(&self, imgs: &[K; L], m: usize) -> K {
        let x = &self.x[m];
        Self::smallest(std::array::from_fn(|k| imgs[k] ^ x[k]))
    }

    /// The canonical form of the complement of the position with lanes `imgs`: the
    /// complement of its largest lane (complementing reverses the order of lanes). `SIMD`:
    /// the processor has AVX2.
    #[inline(always)]
    pub(super) fn dual<const SIMD: bool>(&self, imgs: &[K; L]) -> K {
        let max = match simd::as_u32x8(imgs, &[K::ZERO; L]) {
            // SAFETY: `SIMD` is only set where the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Some((a, zero)) if SIMD => K::pack(unsafe { simd::extremes_u32x8(a, zero) }.2 as u64),
            _ => imgs.iter().copied().fold(K::ZERO, K::max),
        };
        self.full ^ max
    }

    /// Expands the parent `p` (with `pegs` pegs, and `sleep` the ranks of two moves that led
    /// to it): the canonical form of every child it does not skip into `kids`, tagged with
    /// the rank of its move in the child's frame. Returns how many children it listed.
    #[inline(always)]
    pub(super) fn expand<const SIMD: bool>(
        &self,
        p: u64,
        pegs: u32,
        sleep: u16,
        l: &mut Lists<K>,
    ) -> usize {
        let imgs = self.images(p);
        let mut pushed = 0;
        let prune = self.prune.as_ref().map(|pr| (pr, pr.slack(p)));
        match &self.grid {
            Some(gr) => {
                #[cfg(target_arch = "x86_64")]
                if let (true, Some(pk)) = (SIMD && self.pext, &gr.packed) {
                    // SAFETY: `pext` is only set where the processor has BMI2, and `SIMD`
                    // code is compiled with it.
                    let mut a = unsafe { self.moves_packed(gr, pk, p, sleep, &prune) };
                    pushed += a.count_ones() as usize;
                    while a != 0 {
                        let m = pk.mv[a.trailing_zeros() as usize] as usize;
                        a &= a - 1;
                        self.push_child::<SIMD>(&imgs, m, &mut l.kids);
                    }
                    return pushed;
                }
                let gw = gr.word(p);
                let nd = gr.dirs.len();
                for (i, (d, starts, mv)) in gr.dirs.iter().enumerate() {
                    let mut a = Grid::starts(gw, *d, *starts) & !self.skipped(sleep, nd, i);
                    if let Some((pr, sl)) = &prune {
                        a = pr.kept(sl, a as u128, mv) as u64;
                    }
                    while a != 0 {
                        let m = mv[a.trailing_zeros() as usize] as usize;
                        a &= a - 1;
                        self.push_child::<SIMD>(&imgs, m, &mut l.kids);
                        pushed += 1;
                    }
                }
            }
            None => {
                l.moves.clear();
                self.c.for_each_legal(p, pegs, |m| l.moves.push(m as u16));
                if let Some((pr, sl)) = &prune {
                    l.moves.retain(|&m| pr.keeps(sl, m as usize));
                }
                for &m in &l.moves {
                    self.push_child::<SIMD>(&imgs, m as usize, &mut l.kids);
                }
                pushed += l.moves.len();
            }
        }
        pushed
    }

    /// Expands the parents `ps` (at most [`FLAT_BLOCK`], of `pegs` pegs, with the ranks of
    /// the moves that led to each) as [`Engine::expand`] does each, in two passes: the first
    /// takes each parent's lanes and legal moves and compresses the moves' bytes into one
    /// list for the block, with the parent of each (two compress instructions a parent, no
    /// branch on how many moves it has); the second lists the children in one loop over that
    /// list, whose exit is mispredicted once a block instead of once a parent. Returns how
    /// many children it listed.
    ///
    /// # Safety
    /// The processor must have AVX-512 (F, BW, VBMI2), BMI2 and POPCNT, as where
    /// [`Engine::flat_ids`] is set; the grid must be packed.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn expand_flat<const SHUF: bool>(
        &self,
        ps: &[(K, u16)],
        pegs: u32,
        l: &mut Lists<K>,
    ) -> usize {
        use std::arch::x86_64::*;
        let (Some(gr), Some(flat_ids)) = (&self.grid, &self.flat_ids) else {
            unreachable!("expand_flat without a packed grid")
        };
        let pk = gr.packed.as_ref().expect("a packed grid");
        let sh = if SHUF {
            Some(
                self.shuffles
                    .as_ref()
                    .expect("expand_flat::<true> without shuffles"),
            )
        } else {
            None
        };
        let ids = sh.map_or(flat_ids, |sh| &sh.ids);
        let n = self.c.n;
        debug_assert!(ps.len() <= FLAT_BLOCK);
        let f = &mut l.flat;
        let mut imgs = [[K::ZERO; L]; FLAT_BLOCK];
        // SAFETY: the caller's processor has AVX-512 BW and VBMI2 (and BITALG with `SHUF`);
        // every store is of 64 bytes at `k <= FLAT_BLOCK * 128`, inside the buffers
        // (`Flat::LEN`).
        unsafe {
            let lo_ids = _mm512_loadu_si512(ids[0].as_ptr().cast());
            let hi_ids = _mm512_loadu_si512(ids[1].as_ptr().cast());
            let mut k = 0usize;
            for (i, &(key, sleep)) in ps.iter().enumerate() {
                let p = key.unpack(pegs, n);
                let prune = self.prune.as_ref().map(|pr| (pr, pr.slack(p)));
                let a = match sh {
                    Some(sh) => {
                        match (sh.lanes.is_some(), simd::as_u32x8_mut(&mut imgs[i])) {
                            (true, Some(lanes)) => *lanes = sh.lanes(p),
                            _ => imgs[i] = self.images(p),
                        }
                        let skip =
                            sh.asleep[(sleep >> 8) as usize] | sh.asleep[(sleep & 0xff) as usize];
                        let a = sh.legal(p) & !skip;
                        match &prune {
                            Some((pr, sl)) => pr.kept(sl, a, &sh.mv),
                            None => a,
                        }
                    }
                    None => {
                        imgs[i] = self.images(p);
                        self.moves_packed(gr, pk, p, sleep, &prune)
                    }
                };
                let (lo, hi) = (a as u64, (a >> 64) as u64);
                let parent = _mm512_set1_epi8(i as i8);
                let mv = f.mv.as_mut_ptr().add(k).cast::<__m512i>();
                let at = f.at.as_mut_ptr().add(k).cast::<__m512i>();
                _mm512_storeu_si512(mv, _mm512_maskz_compress_epi8(lo, lo_ids));
                _mm512_storeu_si512(at, parent);
                if lo.count_ones() + hi.count_ones() > 64 {
                    // (rare: a parent of more than 64 children)
                    _mm512_storeu_si512(at.add(1), parent);
                }
                let k1 = k + lo.count_ones() as usize;
                let mv = f.mv.as_mut_ptr().add(k1).cast::<__m512i>();
                _mm512_storeu_si512(mv, _mm512_maskz_compress_epi8(hi, hi_ids));
                k = k1 + hi.count_ones() as usize;
            }
            for (&m, &i) in f.mv[..k].iter().zip(&f.at[..k]) {
                self.push_child::<true>(&imgs[i as usize % FLAT_BLOCK], m as usize, &mut l.kids);
            }
            k
        }
    }

    /// The moves of the position `p` that the sleep sets of the moves of ranks `sleep` do not
    /// skip and the pagoda functions (`prune`, with the position's slack) do not drop, as
    /// bits of `pk`, the grid's packed form (its grid word by PDEP where it can be).
    ///
    /// # Safety
    /// The processor must have BMI2 (as where [`Engine::pext`] is set).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn moves_packed(
        &self,
        gr: &Grid,
        pk: &grid::Packed,
        p: u64,
        sleep: u16,
        prune: &Option<(&pagoda::Prune, pagoda::Lanes)>,
    ) -> u128 {
        // SAFETY: the caller's processor has BMI2.
        let gw = unsafe { gr.word_deposit(p) };
        let skip =
            self.asleep_packed[(sleep >> 8) as usize] | self.asleep_packed[(sleep & 0xff) as usize];
        let a = gr.legal_packed(pk, gw) & !skip;
        match prune {
            Some((pr, sl)) => pr.kept(sl, a, &pk.mv),
            None => a,
        }
    }

    /// The grid bits where the moves of direction `i` (of `nd`) start that a position skips,
    /// given the ranks `sleep` of two moves that led to it ([`Engine::sleep`]).
    #[inline(always)]
    pub(super) fn skipped(&self, sleep: u16, nd: usize, i: usize) -> u64 {
        self.asleep[(sleep >> 8) as usize * nd + i] | self.asleep[(sleep & 0xff) as usize * nd + i]
    }

    /// Appends the child by move `m` of the parent with lanes `imgs` to its bucket: its
    /// canonical form, tagged with the rank of `m` seen from the child's canonical frame
    /// (the first lane that holds the canonical form). `SIMD`: the processor has AVX2.
    #[inline(always)]
    pub(super) fn push_child<const SIMD: bool>(
        &self,
        imgs: &[K; L],
        m: usize,
        kids: &mut Stage<K>,
    ) {
        let xm = &self.x[m];
        let (key, lane) = match simd::as_u32x8(imgs, xm) {
            // SAFETY: `SIMD` is only set where the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Some((a, b)) if SIMD => {
                let (key, lane) = unsafe { simd::smallest_u32x8(a, b) };
                (K::pack(key as u64), lane as usize)
            }
            _ => Self::smallest_lane(&std::array::from_fn(|k| imgs[k] ^ xm[k])),
        };
        let mixed = key.mix();
        // (`lane % L`: a lane index, which spares the bounds check)
        kids.push(
            bucket_of_mixed(mixed),
            mixed.tag_mixed(self.tags[m][lane % L]),
        );
    }

    /// The smallest of `L` lanes and the first lane that holds it (without a branch).
    #[inline(always)]
    pub(super) fn smallest_lane(lanes: &[K; L]) -> (K, usize) {
        let key = Self::smallest(*lanes);
        let at = (0..L).fold(0u32, |acc, k| acc | ((lanes[k] == key) as u32) << k);
        (key, at.trailing_zeros() as usize)
    }

    /// The child by move `m` of the parent with lanes `imgs`: its canonical form, the first
    /// lane that holds it, and the canonical form of its complement (the complement of its
    /// largest lane). `SIMD`: the processor has AVX2.
    #[inline(always)]
    pub(super) fn child_and_dual<const SIMD: bool>(
        &self,
        imgs: &[K; L],
        m: usize,
    ) -> (K, usize, K) {
        let xm = &self.x[m];
        match simd::as_u32x8(imgs, xm) {
            // SAFETY: `SIMD` is only set where the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Some((a, b)) if SIMD => {
                let (min, lane, max) = unsafe { simd::extremes_u32x8(a, b) };
                (
                    K::pack(min as u64),
                    lane as usize,
                    self.full ^ K::pack(max as u64),
                )
            }
            _ => {
                let lanes: [K; L] = std::array::from_fn(|k| imgs[k] ^ xm[k]);
                let (key, lane) = Self::smallest_lane(&lanes);
                let max = lanes.iter().copied().fold(K::ZERO, K::max);
                (key, lane, self.full ^ max)
            }
        }
    }

    /// Calls `f` with every legal move of `p` (with `pegs` pegs) that the sleep sets of the
    /// two moves of ranks `sleep` (as in [`Engine::expand`]) do not skip; `moves` is scratch.
    /// [`Engine::expand`] keeps its own copy of these loops: through this closure the
    /// English count measured 15 % slower (1.85 vs 2.2 s).
    /// `SIMD`: the caller is compiled for AVX2 and BMI2 (as [`Engine::expand`]).
    #[inline(always)]
    pub(super) fn for_each_move<const SIMD: bool>(
        &self,
        p: u64,
        pegs: u32,
        sleep: u16,
        moves: &mut Vec<u16>,
        mut f: impl FnMut(usize),
    ) {
        let prune = self.prune.as_ref().map(|pr| (pr, pr.slack(p)));
        match &self.grid {
            Some(gr) => {
                #[cfg(target_arch = "x86_64")]
                if let (true, Some(pk)) = (SIMD && self.pext, &gr.packed) {
                    // SAFETY: as in `expand`.
                    let mut a = unsafe { self.moves_packed(gr, pk, p, sleep, &prune) };
                    while a != 0 {
                        f(pk.mv[a.trailing_zeros() as usize] as usize);
                        a &= a - 1;
                    }
                    return;
                }
                let gw = gr.word(p);
                let nd = gr.dirs.len();
                for (i, (d, starts, mv)) in gr.dirs.iter().enumerate() {
                    let mut a = Grid::starts(gw, *d, *starts) & !self.skipped(sleep, nd, i);
                    if let Some((pr, sl)) = &prune {
                        a = pr.kept(sl, a as u128, mv) as u64;
                    }
                    while a != 0 {
                        f(mv[a.trailing_zeros() as usize] as usize);
                        a &= a - 1;
                    }
                }
            }
            None => {
                moves.clear();
                self.c.for_each_legal(p, pegs, |m| moves.push(m as u16));
                if let Some((pr, sl)) = &prune {
                    moves.retain(|&m| pr.keeps(sl, m as usize));
                }
                for &m in moves.iter() {
                    f(m as usize);
                }
            }
        }
    }
}

/// How far each move (`abc`: its three holes) lies from the board's centre: the sum over its
/// holes of the squared distance of their cells from the centroid of all cells (`cells`, one
/// per hole), scaled by the square of the number of holes so that it is a whole number.
/// [`Engine::sleep`] orders each orbit of moves by its smallest move's value (a symmetry
/// that moves the cells rigidly keeps the centroid, so then the whole orbit shares it).
fn far_from_centre(cells: &[(i32, i32)], abc: &[[u32; 3]]) -> Vec<i64> {
    let n = cells.len() as i64;
    let (sy, sx) = cells
        .iter()
        .fold((0i64, 0i64), |(a, b), &(y, x)| (a + y as i64, b + x as i64));
    let d2 = |v: u32| {
        let (y, x) = cells[v as usize];
        let (dy, dx) = (y as i64 * n - sy, x as i64 * n - sx);
        dy * dy + dx * dx
    };
    abc.iter().map(|t| t.iter().map(|&v| d2(v)).sum()).collect()
}
