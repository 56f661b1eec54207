//! Signpost (Tatham's `signpost.c`, Arrow Path): number the squares 1 to `n` so that every
//! square's arrow points (in its direction, at any distance) at the square numbered next;
//! the given numbers stay (the first and last squares are usually among them).
//!
//! Formats, as the collection writes them:
//! - PARAMS `WxH[c]` (`c`: the generator puts the ends in corners; it only steers the
//!   generator).
//! - DESC: per square in reading order an optional decimal number (at most `W·H`; `0` or
//!   none for no number) and a direction letter, `a`–`h` for N, NE, E, SE, S, SW, W, NW.
//! - Moves: `Lx1,y1-x2,y2` links a square to one its arrow points at, `Cx,y` cuts a square's
//!   links, `Xx,y` cuts every link of a square's chain (a chain without a given number) and
//!   the Solve record `S` then a description of the solved grid (every number given). As in
//!   the game, the numbers of the squares follow from the links (`update_numbers`), and
//!   consecutive numbers that point at each other are linked after every move
//!   (`check_completion`). The hint move `H` (which runs the game's solver; the game's
//!   interface no longer sends it) is refused.

use super::parse::{parse_size, parse_xy, place, short};
use super::{Game, Position};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::graph;
use zkgames_mpc::circuit::{Bit, Builder, Circuit};

/// The directions' steps, N first and clockwise (`dxs`, `dys`).
const DX: [isize; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
const DY: [isize; 8] = [-1, -1, 0, 1, 1, 1, 0, -1];

/// Most squares accepted (the game's own presets stop at 7×7): every move renumbers the
/// chains, in time quadratic in their number.
pub const MAX_SQUARES: usize = 256;

/// No link (the game's `-1`).
const NONE: usize = usize::MAX;

/// A decoded Signpost puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub w: usize,
    pub h: usize,
    /// Each square's direction, 0–7 (N, NE, E, SE, S, SW, W, NW), reading order.
    pub dirs: Vec<u8>,
    /// Each square's given number (0 for none), reading order.
    pub given: Vec<usize>,
}

/// The game's state: numbers (real ones 1..=n, 0, or "colour" numbers above `n` for
/// chains without a given number, as `update_numbers` assigns them), links, and the
/// regions of the links as last computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub nums: Vec<i64>,
    pub next: Vec<usize>,
    pub prev: Vec<usize>,
    /// Each square's region (the representative of its chain when the numbers were last
    /// updated, `connect_numbers`) and the regions' sizes.
    region: Vec<usize>,
    size: Vec<usize>,
    /// For each number 0..=n the square last found holding it (`numsi`; as in the game,
    /// the entry of `n` is not cleared between updates).
    numsi: Vec<usize>,
}

/// What the game keeps beside the state: the grid's arrows and given numbers.
struct Grid<'a> {
    w: usize,
    h: usize,
    dirs: &'a [u8],
    given: &'a [usize],
}

impl Grid<'_> {
    fn n(&self) -> usize {
        self.w * self.h
    }

    /// The squares `from`'s arrow points at, nearest first.
    fn sight(&self, from: usize) -> Vec<usize> {
        let d = self.dirs[from] as usize;
        let (mut x, mut y) = ((from % self.w) as isize, (from / self.w) as isize);
        let mut out = Vec::new();
        loop {
            x += DX[d];
            y += DY[d];
            if x < 0 || y < 0 || x >= self.w as isize || y >= self.h as isize {
                return out;
            }
            out.push(y as usize * self.w + x as usize);
        }
    }

    /// `ispointing`: the last number points at nothing, a square not at itself.
    fn pointing(&self, s: &State, from: usize, to: usize) -> bool {
        from != to && s.nums[from] != self.n() as i64 && self.sight(from).contains(&to)
    }

    fn colour(&self, num: i64) -> i64 {
        num / (self.n() as i64 + 1)
    }

    fn start_of(&self, colour: i64) -> i64 {
        colour * (self.n() as i64 + 1)
    }

    /// The state of a description: the given numbers, no links, then the game's update.
    fn fresh(&self) -> State {
        let n = self.n();
        let mut s = State {
            nums: self.given.iter().map(|&g| g as i64).collect(),
            next: vec![NONE; n],
            prev: vec![NONE; n],
            region: (0..n).collect(),
            size: vec![1; n],
            numsi: vec![NONE; n + 1],
        };
        self.update(&mut s);
        let _ = self.complete(&mut s);
        s
    }

    /// `connect_numbers`: the regions of the links.
    fn connect(&self, s: &mut State) {
        let n = self.n();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], mut a: usize) -> usize {
            while p[a] != a {
                p[a] = p[p[a]];
                a = p[a];
            }
            a
        }
        for i in 0..n {
            if s.next[i] != NONE {
                let (a, b) = (find(&mut parent, i), find(&mut parent, s.next[i]));
                parent[a] = b;
            }
        }
        s.size = vec![0; n];
        for i in 0..n {
            s.region[i] = find(&mut parent, i);
            s.size[s.region[i]] += 1;
        }
    }

    fn region_size(&self, s: &State, i: usize) -> usize {
        s.size[s.region[i]]
    }

    /// `head_number`: the preferred first number of the chain starting at `i`, and
    /// whether there is a preference.
    fn head(&self, s: &State, i: usize) -> Head {
        let n = self.n() as i64;
        let sz = self.region_size(s, i);
        let mut pref = None;
        let (mut j, mut off) = (i, 0i64);
        let mut steps = 0;
        while j != NONE && steps <= self.n() {
            if self.given[j] > 0 && pref.is_none() {
                pref = Some(s.nums[j] - off);
            }
            off += 1;
            j = s.next[j];
            steps += 1;
        }
        let mk = |start: i64, preference: i8| Head {
            i,
            sz,
            start,
            preference,
        };
        if let Some(start) = pref {
            return mk(start, 1);
        }
        let nx = s.next[i];
        if s.nums[i] == 0 && s.nums[nx] > n {
            return mk(self.start_of(self.colour(s.nums[nx])), 1);
        }
        if s.nums[i] <= n {
            return mk(0, 0);
        }
        let c = self.colour(s.nums[i]);
        let mut same = 1usize;
        let mut j = i;
        let mut steps = 0;
        while s.next[j] != NONE && steps <= self.n() {
            j = s.next[j];
            steps += 1;
            if s.nums[j] == 0 && s.next[j] == NONE {
                return mk(self.start_of(c), 1);
            }
            if self.colour(s.nums[j]) == c {
                same += 1;
            } else {
                let alternate = self.start_of(self.colour(s.nums[j]));
                return if same < sz - same {
                    mk(alternate, 1)
                } else {
                    mk(self.start_of(c), 1)
                };
            }
        }
        if c == 0 {
            mk(0, 0)
        } else {
            mk(self.start_of(c), 1)
        }
    }

    /// `lowest_start`: the lowest colour (from 1) no head's start has, from `used`, the
    /// number of heads of each colour.
    fn lowest(&self, used: &[usize]) -> i64 {
        (1..self.n()).find(|&c| used[c] == 0).unwrap_or(0) as i64
    }

    /// `update_numbers`: numbers follow the links.
    fn update(&self, s: &mut State) {
        let n = self.n();
        for k in 0..n {
            s.numsi[k] = NONE;
        }
        for i in 0..n {
            if self.given[i] > 0 {
                s.numsi[self.given[i]] = i;
            } else if s.prev[i] == NONE && s.next[i] == NONE {
                s.nums[i] = 0;
            }
        }
        self.connect(s);
        let mut heads: Vec<Head> = (0..n)
            .filter(|&i| s.prev[i] == NONE && s.next[i] != NONE)
            .map(|i| self.head(s, i))
            .collect();
        heads.sort_by(|a, b| {
            (b.preference != 0)
                .cmp(&(a.preference != 0))
                .then(a.start.cmp(&b.start))
                .then(b.sz.cmp(&a.sz))
                .then(b.i.cmp(&a.i))
        });
        // colours are below n + 1 for the numbers a chain can reach (at most 2n + 1)
        let mut used = vec![0usize; n + 2];
        let slot = |start: i64| (self.colour(start).clamp(0, n as i64 + 1)) as usize;
        for hd in &heads {
            used[slot(hd.start)] += 1;
        }
        for k in (0..heads.len()).rev() {
            let again = k != 0 && heads[k].start == heads[k - 1].start;
            if again || heads[k].preference == 0 {
                // the head's own colour still counts as used, as in the game
                let start = self.start_of(self.lowest(&used));
                used[slot(heads[k].start)] -= 1;
                heads[k].start = start;
                used[slot(start)] += 1;
                if again {
                    heads[k].preference = -1;
                }
            }
        }
        for hd in &heads {
            let mut num = hd.start;
            let mut j = hd.i;
            let mut steps = 0;
            while j != NONE && steps <= n {
                if self.given[j] == 0 {
                    if num > 0 && num <= n as i64 {
                        s.numsi[num as usize] = j;
                    }
                    s.nums[j] = num;
                }
                num += 1;
                j = s.next[j];
                steps += 1;
            }
        }
    }

    /// `makelink`.
    fn link(s: &mut State, from: usize, to: usize) {
        if s.next[from] != NONE {
            s.prev[s.next[from]] = NONE;
        }
        s.next[from] = to;
        if s.prev[to] != NONE {
            s.next[s.prev[to]] = NONE;
        }
        s.prev[to] = from;
    }

    /// `check_completion` with its side effect (linking consecutive numbers that point at
    /// each other): `Ok` when complete, else why not.
    fn complete(&self, s: &mut State) -> std::result::Result<(), String> {
        let n = self.n();
        let name = |i: usize| place(i % self.w, i / self.w);
        let mut error: Option<String> = None;
        let note = |e: String, error: &mut Option<String>| {
            if error.is_none() {
                *error = Some(e);
            }
        };
        let real = |x: i64| x > 0 && x <= n as i64;
        let mut last = vec![NONE; n + 1];
        for (j, &x) in s.nums.iter().enumerate() {
            if real(x) {
                last[x as usize] = j;
            }
        }
        for j in 0..n {
            if real(s.nums[j]) {
                let k = last[s.nums[j] as usize];
                if k > j {
                    note(
                        format!(
                            "squares {} and {} are both numbered {}",
                            name(j),
                            name(k),
                            s.nums[j]
                        ),
                        &mut error,
                    );
                }
            }
        }
        let mut missing = None;
        for k in 1..n {
            let (a, b) = (s.numsi[k], s.numsi[k + 1]);
            if a == NONE || b == NONE {
                missing.get_or_insert(if a == NONE { k } else { k + 1 });
            } else if !self.pointing(s, a, b) {
                note(
                    format!(
                        "{k} at {} does not point at {} at {}",
                        name(a),
                        k + 1,
                        name(b)
                    ),
                    &mut error,
                );
            } else {
                Self::link(s, a, b);
            }
        }
        for c in 1..n {
            if s.nums[c] < 0 || (s.nums[c] == 0 && (s.next[c] != NONE || s.prev[c] != NONE)) {
                note(
                    format!("square {} has no possible number", name(c)),
                    &mut error,
                );
            }
        }
        if let Some(e) = error {
            return Err(e);
        }
        match missing {
            Some(k) => Err(format!("no square is numbered {k}")),
            None => Ok(()),
        }
    }
}

/// A chain's head and its numbering preference (`struct head_meta`).
struct Head {
    i: usize,
    sz: usize,
    start: i64,
    preference: i8,
}

impl Puzzle {
    /// Decodes PARAMS and DESC as `decode_params`, `validate_params` and `validate_desc`
    /// (`unpick_desc`) do, strictly: nothing after `c`.
    pub fn decode(params: &str, desc: &str) -> Result<Puzzle> {
        let (w, h, rest) = parse_size(params, "Signpost", 1)?;
        if w * h > MAX_SQUARES {
            return Err(Error::bad(format!(
                "Signpost {w}x{h} has more than the {MAX_SQUARES} squares supported"
            )));
        }
        if !rest.is_empty() && rest != "c" {
            return Err(Error::bad(format!(
                "Signpost parameters {:?} are not of the form WxH[c]",
                short(params)
            )));
        }
        let (dirs, given) = unpick(w, h, desc)?;
        Ok(Puzzle { w, h, dirs, given })
    }

    fn grid(&self) -> Grid<'_> {
        Grid {
            w: self.w,
            h: self.h,
            dirs: &self.dirs,
            given: &self.given,
        }
    }

    /// The canonical parameters (`WxH`; `c` only steers the generator).
    pub fn params(&self) -> String {
        format!("{}x{}", self.w, self.h)
    }

    /// The canonical description, as `generate_desc` writes it.
    pub fn desc(&self) -> String {
        encode(&self.dirs, &self.given)
    }

    /// The starting position (`new_game`): the given numbers, and links between given
    /// consecutive numbers that point at each other.
    pub fn initial(&self) -> State {
        self.grid().fresh()
    }

    /// Applies one move record as `execute_move` does; an illegal move is refused.
    pub fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        let bad = |why: &str| super::bad_move("Signpost", mv, why);
        let g = self.grid();
        let n = g.n();
        let mut next = state.clone();
        if let Some(d) = mv.strip_prefix('S') {
            let (dirs, given) = unpick(self.w, self.h, d)
                .map_err(|e| bad(&format!("a solve move needs a grid description ({e})")))?;
            let solved = Grid {
                w: self.w,
                h: self.h,
                dirs: &dirs,
                given: &given,
            }
            .fresh();
            next.next = solved.next;
            next.prev = solved.prev;
        } else if let Some(r) = mv.strip_prefix('L') {
            let parsed = parse_xy(r).and_then(|(sx, sy, r)| {
                let (ex, ey, _) = parse_xy(r.strip_prefix('-')?)?;
                Some((sx, sy, ex, ey))
            });
            let (sx, sy, ex, ey) = parsed.ok_or_else(|| bad("expected Lx1,y1-x2,y2"))?;
            if sx >= self.w || sy >= self.h || ex >= self.w || ey >= self.h {
                return Err(bad("a square outside the grid"));
            }
            let (from, to) = (sy * self.w + sx, ey * self.w + ex);
            if !g.pointing(state, from, to) {
                return Err(bad("the first square does not point at the second"));
            }
            let (nf, nt) = (state.nums[from], state.nums[to]);
            if (nf == n as i64 && self.given[from] > 0) || (nt == 1 && self.given[to] > 0) {
                return Err(bad(
                    "a link from the given last square or to the given first",
                ));
            }
            if state.region[from] == state.region[to] {
                return Err(bad("the squares are already in one chain"));
            }
            let real = |x: i64| x > 0 && x <= n as i64;
            if real(nf) && real(nt) && nf != nt - 1 {
                return Err(bad("the squares' numbers are not consecutive"));
            }
            Grid::link(&mut next, from, to);
        } else if let Some(r) = mv.strip_prefix(['C', 'X']) {
            let (x, y, _) = parse_xy(r).ok_or_else(|| bad("expected Cx,y or Xx,y"))?;
            if x >= self.w || y >= self.h {
                return Err(bad("a square outside the grid"));
            }
            let si = y * self.w + x;
            if state.prev[si] == NONE && state.next[si] == NONE {
                return Err(bad("the square has no links"));
            }
            let set = g.colour(state.nums[si]);
            if mv.starts_with('C') || set == 0 {
                unlink(&mut next, si);
            } else {
                for i in 0..n {
                    if state.nums[i] != 0 && g.colour(state.nums[i]) == set {
                        unlink(&mut next, i);
                    }
                }
            }
        } else if mv == "H" {
            return Err(bad(
                "Signpost's hint move (the game solving for you) cannot be replayed",
            ));
        } else {
            return Err(bad("not an L, C, X or S move"));
        }
        g.update(&mut next);
        let _ = g.complete(&mut next);
        *state = next;
        Ok(())
    }

    /// The completion check (`check_completion`): no real number twice, every number from
    /// 1 to `n` present, each pointing at the next, and no linked square without a number.
    /// zkgames checks on a copy: the game's check also links consecutive numbers, which
    /// [`Puzzle::execute_move`] has done already.
    pub fn check(&self, state: &State) -> std::result::Result<(), String> {
        let mut s = state.clone();
        self.grid().complete(&mut s)
    }

    /// The squares without a given number, reading order.
    pub fn free(&self) -> Vec<usize> {
        (0..self.given.len())
            .filter(|&i| self.given[i] == 0)
            .collect()
    }

    /// Whether `numbers` (per square, 1 to `n`) is a solution: a permutation of 1..=n
    /// keeping the given numbers, each number's square pointing at the next one's.
    pub fn is_solution(&self, numbers: &[usize]) -> bool {
        let n = self.w * self.h;
        let mut at = vec![NONE; n + 1];
        for (i, &k) in numbers.iter().enumerate() {
            if k == 0 || k > n || at[k] != NONE || (self.given[i] > 0 && self.given[i] != k) {
                return false;
            }
            at[k] = i;
        }
        let g = self.grid();
        (1..n).all(|k| g.sight(at[k]).contains(&at[k + 1]))
    }
}

/// `unlink_cell`.
fn unlink(s: &mut State, i: usize) {
    if s.prev[i] != NONE {
        s.next[s.prev[i]] = NONE;
        s.prev[i] = NONE;
    }
    if s.next[i] != NONE {
        s.prev[s.next[i]] = NONE;
        s.next[i] = NONE;
    }
}

/// `unpick_desc`: the directions and given numbers of a `w`×`h` description.
fn unpick(w: usize, h: usize, desc: &str) -> Result<(Vec<u8>, Vec<usize>)> {
    let n = w * h;
    let mut dirs = Vec::with_capacity(n);
    let mut given = Vec::with_capacity(n);
    let mut num = 0usize;
    for c in desc.bytes() {
        if dirs.len() >= n {
            return Err(Error::bad("Signpost description is longer than expected"));
        }
        match c {
            b'0'..=b'9' => {
                num = num * 10 + (c - b'0') as usize;
                if num > n {
                    return Err(Error::bad(format!(
                        "Signpost description has a number above {n}"
                    )));
                }
            }
            b'a'..=b'h' => {
                dirs.push(c - b'a');
                given.push(num);
                num = 0;
            }
            _ => {
                return Err(Error::bad(
                    "Signpost description contains unexpected characters",
                ))
            }
        }
    }
    if dirs.len() < n {
        return Err(Error::bad("Signpost description is shorter than expected"));
    }
    Ok((dirs, given))
}

/// `generate_desc`.
fn encode(dirs: &[u8], nums: &[usize]) -> String {
    let mut out = String::new();
    for (&d, &k) in dirs.iter().zip(nums) {
        if k > 0 {
            out.push_str(&k.to_string());
        }
        out.push((b'a' + d) as char);
    }
    out
}

// ---- the zkgames statement -------------------------------------------------------------
//
// Witness, per square in reading order: its number minus one (its *position*) in
// `b = bits_for(n)` bits when not given (given ones are constants), then, for every square,
// its successor: an index among the squares its arrow points at, nearest first
// (`index_bits` of their count; an index past the last names the last). Checks per square
// `s`, with `last(s) = [p(s) = n − 1]`: no square in sight → `¬last(s)`; otherwise, with
// `t` the selected square, `¬last(s) ∧ (p(t) ⊕ (p(s) + 1 mod 2^b))` bit by bit; and when no
// square is given 1, `¬OR_s [p(s) = 0]`. Soundness in docs/PROTOCOLS.md (11.5): the chain of
// successors from the square at position 0 numbers every square once.

pub const GAME: Game = Game {
    name: "Signpost",
    default_params: "4x4c",
    larger_params: "7x7c",
    decode: decode_boxed,
    solves: false,
    sample: include_str!("../../../puzzles/tatham/signpost.sav"),
};

fn decode_boxed(params: &str, desc: &str) -> Result<Box<dyn super::Puzzle>> {
    Ok(Box::new(Puzzle::decode(params, desc)?))
}

impl Puzzle {
    fn width(&self) -> usize {
        super::bits_for(self.w * self.h)
    }

    /// The number of witness bits of the positions (the solution's part).
    pub fn position_bits(&self) -> usize {
        self.free().len() * self.width()
    }
}

impl super::Puzzle for Puzzle {
    fn game(&self) -> &'static Game {
        &GAME
    }
    fn params(&self) -> String {
        Puzzle::params(self)
    }
    fn desc(&self) -> String {
        Puzzle::desc(self)
    }
    fn start(&self) -> Box<dyn Position + '_> {
        Box::new(super::Play {
            puzzle: self,
            state: self.initial(),
        })
    }
    fn circuit(&self) -> Result<Circuit> {
        let n = self.w * self.h;
        let bw = self.width();
        let g = self.grid();
        let sights: Vec<Vec<usize>> = (0..n).map(|i| g.sight(i)).collect();
        let idx_bits: usize = sights.iter().map(|v| graph::index_bits(v.len())).sum();
        let mut b = Builder::new(self.position_bits() + idx_bits);
        let mut at = 0;
        let mut pos: Vec<Vec<Bit>> = Vec::with_capacity(n);
        for i in 0..n {
            if self.given[i] > 0 {
                pos.push(b.const_word(self.given[i] as u64 - 1, bw));
            } else {
                pos.push(b.input_word(at, bw));
                at += bw;
            }
        }
        let last_word = b.const_word(n as u64 - 1, bw);
        let mut any_first = Bit::Const(false);
        for i in 0..n {
            let last = b.eq(&pos[i], &last_word);
            let more = b.not(last);
            let v = &sights[i];
            if v.is_empty() {
                b.output(more);
            } else {
                let k = graph::index_bits(v.len());
                let idx = b.input_word(at, k);
                at += k;
                let items: Vec<Vec<Bit>> = v.iter().map(|&t| pos[t].clone()).collect();
                let sel = graph::tree_select(&mut b, &idx, &items);
                let inc = b.increment(&pos[i], Bit::Const(true));
                for x in b.xor_w(&sel, &inc) {
                    let bad = b.and(more, x);
                    b.output(bad);
                }
            }
            if !self.given.contains(&1) {
                let z = b.is_zero(&pos[i]);
                any_first = b.or(any_first, z);
            }
        }
        if !self.given.contains(&1) {
            let none = b.not(any_first);
            b.output(none);
        }
        Ok(b.finish())
    }
}

impl super::Rules for Puzzle {
    type State = State;
    fn execute_move(&self, state: &mut State, mv: &str) -> Result<()> {
        Puzzle::execute_move(self, state, mv)
    }
    fn check(&self, state: &State) -> std::result::Result<(), String> {
        Puzzle::check(self, state)
    }
    fn witness(&self, state: &State) -> Result<Vec<bool>> {
        let n = self.w * self.h;
        let numbers: Vec<usize> = state
            .nums
            .iter()
            .map(|&k| {
                if k > 0 && k <= n as i64 {
                    k as usize
                } else {
                    0
                }
            })
            .collect();
        if !self.is_solution(&numbers) {
            return Err(Error::bad(
                "not solved: the squares' numbers are not a path from 1 to the last",
            ));
        }
        Ok(self.witness_of(&numbers))
    }
    fn state_bytes(&self, state: &State) -> Vec<u8> {
        let mut out = Vec::new();
        for (&k, &nx) in state.nums.iter().zip(&state.next) {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&(nx as u64).to_le_bytes());
        }
        out
    }
}

impl Puzzle {
    /// The witness of a solution `numbers` ([`Puzzle::is_solution`]).
    fn witness_of(&self, numbers: &[usize]) -> Vec<bool> {
        let n = self.w * self.h;
        let bw = self.width();
        let g = self.grid();
        let mut at = vec![0; n + 1];
        for (i, &k) in numbers.iter().enumerate() {
            at[k] = i;
        }
        let mut w = Vec::new();
        for i in self.free() {
            super::push_bits(&mut w, numbers[i] - 1, bw);
        }
        for (i, &k) in numbers.iter().enumerate() {
            let v = g.sight(i);
            if v.is_empty() {
                continue;
            }
            let choice = if k < n {
                v.iter().position(|&t| t == at[k + 1]).unwrap_or(0)
            } else {
                0
            };
            super::push_bits(&mut w, choice, graph::index_bits(v.len()));
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle as _;
    use super::super::Rules as _;
    use super::*;

    /// Every witness of tiny grids: the circuit accepts exactly the numberings that are
    /// solutions (by the rule itself), and each solution's witness.
    #[test]
    fn tiny_signpost_exhaustive() {
        for (params, desc) in [
            // 2x2 with both ends given, one end, none
            ("2x2", "1ce4ag"),
            ("2x2", "1ceag"),
            ("2x2", "ce4ag"),
            ("2x2", "ceag"),
            ("3x2", "1cce6bgg"),
            ("3x2", "ccebgg"),
            ("2x3", "1ceegc6a"),
            // a duplicated given number (the game accepts it; never solvable)
            ("2x2", "1ce1ag"),
        ] {
            let p = Puzzle::decode(params, desc).unwrap();
            let c = p.circuit().unwrap();
            let nb = p.position_bits();
            assert!(c.n_inputs() <= 24, "{params}:{desc} {}", c.n_inputs());
            let accepted = crate::accepted_prefixes(&c, nb);
            let n = p.w * p.h;
            let bw = p.width();
            let free = p.free();
            let mut truth = std::collections::BTreeSet::new();
            for a in 0u64..(1 << nb) {
                let mut numbers = p.given.clone();
                for (k, &i) in free.iter().enumerate() {
                    numbers[i] = ((a >> (k * bw)) & ((1 << bw) - 1)) as usize + 1;
                }
                if p.is_solution(&numbers) {
                    truth.insert(a);
                    assert!(crate::accepts(&c, &p.witness_of(&numbers)));
                    assert!(numbers.iter().all(|&k| k >= 1 && k <= n));
                }
            }
            assert_eq!(accepted, truth, "{params}:{desc}");
            if desc != "1ce1ag" {
                assert!(!truth.is_empty(), "{params}:{desc}");
            }
        }
    }

    #[test]
    fn descriptions_round_trip_and_refusals() {
        let h = super::super::save::parse_header(GAME.sample.as_bytes()).unwrap();
        let p = Puzzle::decode(&h.params, &h.desc).unwrap();
        assert_eq!(p.desc(), h.desc);
        assert_eq!(p.params(), "4x4");
        let p = Puzzle::decode("2x2c", "01ce04ag").unwrap();
        assert_eq!(p.desc(), "1ce4ag");
        for (params, desc) in [
            ("2x2", "1ce4a"),
            ("2x2", "1ce4agg"),
            ("2x2", "1ce4ag4"),
            ("2x2", "1ce5ag"),
            ("2x2", "1ci4ag"),
            ("2x2", "1cE4ag"),
            ("2x2x", "1ce4ag"),
            ("2x2d", "1ce4ag"),
            ("0x2", "ee"),
            ("41x1", "e"),
            ("17x16", "e"),
        ] {
            let e = Puzzle::decode(params, desc).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn moves_are_the_games() {
        // 1 2 / 4 3: 1 points E at 2, 2 S at 3, 3 W at 4
        let p = Puzzle::decode("2x2", "1ce4ag").unwrap();
        let mut s = p.initial();
        assert!(p.check(&s).unwrap_err().contains("numbered 2"));
        p.execute_move(&mut s, "L0,0-1,0").unwrap();
        assert_eq!(s.nums[1], 2);
        // an unnumbered chain gets a "colour" number above n
        let mut t = p.initial();
        p.execute_move(&mut t, "L1,0-1,1").unwrap();
        assert!(t.nums[1] > 4 && t.nums[3] == t.nums[1] + 1, "{:?}", t.nums);
        // joined to 1, the chain takes real numbers; 3 → 4 given is then linked automatically
        p.execute_move(&mut t, "L0,0-1,0").unwrap();
        assert_eq!(p.check(&t), Ok(()));
        p.execute_move(&mut s, "L1,0-1,1").unwrap();
        assert_eq!(s.nums, vec![1, 2, 4, 3]);
        assert_eq!(s.next[3], 2);
        assert_eq!(p.check(&s), Ok(()));
        assert_eq!(p.state_bytes(&s), p.state_bytes(&t));
        let before = s.clone();
        for bad in [
            "L0,0-1,1", "L1,1-1,0", "L0,0-2,0", "L0,0", "C5,5", "Q", "H", "S1ce", "L0,1-0,0",
        ] {
            assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
            assert_eq!(s, before, "{bad}");
        }
        // cutting the middle square unnumbers it
        p.execute_move(&mut s, "C1,0").unwrap();
        assert_eq!(s.nums[1], 0);
        assert!(p.check(&s).is_err());
        // the Solve record restores every link
        p.execute_move(&mut s, "S1c2e4a3g").unwrap();
        assert_eq!(p.state_bytes(&s), p.state_bytes(&before));
        // X on a chain without a given number cuts all of it
        let mut u = p.initial();
        p.execute_move(&mut u, "L1,0-1,1").unwrap();
        p.execute_move(&mut u, "X1,1").unwrap();
        assert_eq!(u, p.initial());
        // cutting 1 → 2: the chain 2, 3, 4 keeps its numbers (from 4) and 1 → 2 is linked again
        let mut v = before.clone();
        p.execute_move(&mut v, "C0,0").unwrap();
        assert_eq!(v.nums, vec![1, 2, 4, 3]);
        assert_eq!(p.check(&v), Ok(()));
    }
}
