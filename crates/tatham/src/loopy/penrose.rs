//! Loopy's two Penrose grids (types 11, kites and darts, and 12, rhombs), built as the
//! installed program builds them (`penrose.c` and `grid.c`'s `grid_new_penrose`), so that
//! its faces, in its order, get the clues and its edges the Solve record's numbers.
//!
//! The build, for a `w × h` grid with description `G<x>,<y>,<a>`:
//! 1. Size: a tile size `t` (150 for kites, 125 for rhombs); the wanted radius
//!    `r = (t · 3.11) · √(w² + h²)`; starting from `s = t`, multiply `s` by 1.6180339887
//!    (the program's φ) until `0.22426 · s ≥ r`, counting the steps `n` (the depth); the
//!    start size is `s` truncated to an integer.
//! 2. Tiles: half-tile triangles in exact 36° vector arithmetic (four integer components
//!    over unit vectors at 54°, 18°, −18°, −54°), subdivided `n` times from one triangle
//!    rotated by `a`; the leaves' tiles, in the order the recursion reaches them, become
//!    faces. A corner's screen coordinates are `(a+d)·0.5877852 + (b+c)·0.9510565` and
//!    `(a−d)·0.8090169 + (b−c)·0.3090169`, each rounded to the nearest integer (halves
//!    away from zero, as `floor(v + 0.5)` / `ceil(v − 0.5)`).
//! 3. Clip: a tile is kept when every corner lies in `[x − 50w, x + 50w] × [y − 50h,
//!    y + 50h]`; corners with equal coordinates are one dot, numbered as first met.
//! 4. Trim (`grid_trim_vigorously`): a dot is inland when each of its directed sides has
//!    its reverse in some face; inland dots joined by an edge (both directions present)
//!    form components; the largest one is kept (on a tie, the one whose first dot comes
//!    first), with every face touching it and every dot of those faces, in their order.
//! 5. Edges are numbered as for every grid type ([`super::grids`]); the final centring only
//!    moves the picture, not the numbering.

use super::tilings::Pt;
use zkgames_core::{Error, Result};

/// The program's tile size for Penrose grids.
const TILESIZE: i64 = 100;
const PHI: f64 = 1.6180339887;
const INCIRCLE: f64 = 0.22426;
const COS54: f64 = 0.5877852;
const SIN54: f64 = 0.8090169;
const COS18: f64 = 0.9510565;
const SIN18: f64 = 0.3090169;

/// Which tiling: kites and darts (P2) or rhombs (P3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Kites,
    Rhombs,
}

/// A vector in the 36° basis: `a·A + b·B + c·C + d·D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct V {
    a: i64,
    b: i64,
    c: i64,
    d: i64,
}

impl V {
    fn add(self, o: V) -> V {
        V {
            a: self.a + o.a,
            b: self.b + o.b,
            c: self.c + o.c,
            d: self.d + o.d,
        }
    }
    /// One step of 36° (the basis's "clockwise" notch).
    fn notch(self) -> V {
        V {
            a: -self.d,
            b: self.d + self.a,
            c: -self.d + self.b,
            d: self.d + self.c,
        }
    }
    /// Rotation by `ang` degrees (a multiple of 36), as the program counts it: the notch
    /// applied `(360 − ang mod 360) / 36` times (ten times, the identity, for 0).
    fn rot(self, ang: i32) -> V {
        let mut ang = ang;
        while ang < 0 {
            ang += 360;
        }
        let mut v = self;
        for _ in 0..(360 - ang) / 36 {
            v = v.notch();
        }
        v
    }
    fn grow(self) -> V {
        V {
            a: self.a + self.b - self.d,
            b: self.c + self.d,
            c: self.a + self.b,
            d: self.c + self.d - self.a,
        }
    }
    fn shrink(self) -> V {
        V {
            a: self.b - self.d,
            b: self.c + self.d - self.b,
            c: self.a + self.b - self.c,
            d: self.c - self.a,
        }
    }
    fn x(self) -> f64 {
        (self.a + self.d) as f64 * COS54 + (self.b + self.c) as f64 * COS18
    }
    fn y(self) -> f64 {
        (self.a - self.d) as f64 * SIN54 + (self.b - self.c) as f64 * SIN18
    }
}

/// Rounds to the nearest integer, halves away from zero, as the program writes it.
fn round_away(r: f64) -> i64 {
    if r > 0.0 {
        (r + 0.5).floor() as i64
    } else {
        (r - 0.5).ceil() as i64
    }
}

/// The size computation (`penrose_calculate_size`): the wanted radius, the start size and
/// the depth.
fn calculate_size(kind: Kind, w: usize, h: usize) -> (f64, i64, u32) {
    let t = match kind {
        Kind::Kites => TILESIZE * 3 / 2,
        Kind::Rhombs => TILESIZE * 5 / 4,
    };
    let rradius = t as f64 * 3.11 * ((w * w + h * h) as f64).sqrt();
    let mut size = t as f64;
    let mut n = 0;
    while size * INCIRCLE < rradius {
        n += 1;
        size *= PHI;
    }
    (rradius, size as i64, n)
}

/// The recursion's state: the depth at which tiles are kept, the clip rectangle, the
/// faces kept so far.
struct Gen {
    /// Whether to skip triangles that cannot reach the clip (off only in the tests, to
    /// compare with the whole recursion).
    prune: bool,
    /// The calls made (to bound the work in the tests).
    calls: usize,
    depth: u32,
    lo: Pt,
    hi: Pt,
    faces: Vec<Vec<Pt>>,
}

impl Gen {
    /// A tile of the recursion: kept (rounded) when at full depth and inside the clip.
    fn tile(&mut self, depth: u32, vs: &[V]) {
        if depth < self.depth {
            return;
        }
        let mut f = Vec::with_capacity(vs.len());
        for v in vs {
            let p = (round_away(v.x()), round_away(v.y()));
            if p.0 < self.lo.0 || p.0 > self.hi.0 || p.1 < self.lo.1 || p.1 > self.hi.1 {
                return;
            }
            f.push(p);
        }
        self.faces.push(f);
    }

    /// Whether anything below a triangle at `o` with edge `e` can reach the clip: every
    /// tile below lies within `(1 + φ)·|e|` of `o` (the sub-triangles lie inside the
    /// triangle, whose sides are at most `φ·|e|`, and a tile reaches at most its own
    /// triangle's edge beyond it); this tests `4·|e| + 4` units against the rectangle.
    fn reaches(&mut self, o: V, e: V) -> bool {
        self.calls += 1;
        if !self.prune {
            return true;
        }
        let (x, y) = (o.x(), o.y());
        let r = 4.0 * (e.x() * e.x() + e.y() * e.y()).sqrt() + 4.0;
        x + r >= self.lo.0 as f64
            && x - r <= self.hi.0 as f64
            && y + r >= self.lo.1 as f64
            && y - r <= self.hi.1 as f64
    }

    fn p2_large(&mut self, depth: u32, flip: i32, o: V, e: V) {
        if !self.reaches(o, e) {
            return;
        }
        if flip > 0 {
            self.tile(depth, &[o, o.add(e.rot(-36)), o.add(e), o.add(e.rot(36))]);
        }
        if depth >= self.depth {
            return;
        }
        let vo = o.add(e.rot(-36 * flip));
        let ve = e.rot(108 * flip).shrink();
        self.p2_small(depth + 1, flip, o, e.shrink());
        self.p2_large(depth + 1, flip, vo, ve);
        self.p2_large(depth + 1, -flip, vo, ve);
    }

    fn p2_small(&mut self, depth: u32, flip: i32, o: V, e: V) {
        if !self.reaches(o, e) {
            return;
        }
        if flip > 0 {
            self.tile(
                depth,
                &[o, o.add(e.rot(-72)), o.add(e.shrink().rot(-36)), o.add(e)],
            );
        }
        if depth >= self.depth {
            return;
        }
        self.p2_large(depth + 1, -flip, o, e.rot(-36 * flip).shrink());
        self.p2_small(depth + 1, flip, o.add(e), e.rot(-144 * flip).shrink());
    }

    fn p3_large(&mut self, depth: u32, flip: i32, o: V, e: V) {
        if !self.reaches(o, e) {
            return;
        }
        if flip > 0 {
            self.tile(
                depth,
                &[o, o.add(e.rot(-36)), o.add(e.grow()), o.add(e.rot(36))],
            );
        }
        if depth >= self.depth {
            return;
        }
        let vo = o.add(e);
        self.p3_large(depth + 1, -flip, vo, e.rot(180).shrink());
        self.p3_small(depth + 1, flip, vo, e.rot(-108 * flip).shrink());
        self.p3_large(
            depth + 1,
            flip,
            o.add(e.grow()),
            e.rot(-144 * flip).shrink(),
        );
    }

    fn p3_small(&mut self, depth: u32, flip: i32, o: V, e: V) {
        if !self.reaches(o, e) {
            return;
        }
        if flip > 0 {
            let third = o.add(e);
            self.tile(depth, &[o, o.add(e.rot(-36)), third.add(e.rot(-36)), third]);
        }
        if depth >= self.depth {
            return;
        }
        let vo = o.add(e);
        self.p3_large(depth + 1, -flip, vo, e.rot(180).shrink());
        self.p3_small(depth + 1, flip, vo, e.rot(-108 * flip).shrink());
    }
}

/// The offset and angle of a grid description `G<x>,<y>,<a>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offset {
    pub x: i32,
    pub y: i32,
    pub angle: i32,
}

impl Offset {
    /// The canonical grid description (what the program writes).
    pub fn desc(&self) -> String {
        format!("G{},{},{}", self.x, self.y, self.angle)
    }
}

/// Reads one `%d` of `sscanf`: optional white space, an optional sign, digits. Numbers
/// that do not fit in 32 bits are refused (the program's `int` arithmetic would overflow
/// long before them: no offset it can use is that large).
fn scan_int(s: &str) -> Option<(i32, &str)> {
    let s = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let n = body.bytes().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    let mut v: i64 = 0;
    for b in body[..n].bytes() {
        v = v * 10 + (b - b'0') as i64;
        if v > 1 << 31 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    Some((i32::try_from(v).ok()?, &body[n..]))
}

/// Parses a grid description as the program's `sscanf("G%d,%d,%d")` does (anything after
/// the third number is ignored, as there).
pub fn parse_desc(desc: &str) -> Option<Offset> {
    let rest = desc.strip_prefix('G')?;
    let (x, rest) = scan_int(rest)?;
    let (y, rest) = scan_int(rest.strip_prefix(',')?)?;
    let (angle, _) = scan_int(rest.strip_prefix(',')?)?;
    Some(Offset { x, y, angle })
}

/// The faces of a Penrose grid, in the program's order, each its corners in the program's
/// coordinates; or the program's refusal of the description.
pub fn build(kind: Kind, w: usize, h: usize, desc: &str) -> Result<(Offset, Vec<Vec<Pt>>)> {
    let (off, faces, _) = clipped(kind, w, h, desc, true)?;
    let faces = trim(faces);
    if faces.is_empty() {
        return Err(Error::bad(format!(
            "Loopy {} {w}x{h}: the patch {} identifies no usable grid fragment",
            name(kind),
            off.desc()
        )));
    }
    Ok((off, faces))
}

fn name(kind: Kind) -> &'static str {
    match kind {
        Kind::Kites => "Penrose (kite/dart)",
        Kind::Rhombs => "Penrose (rhombs)",
    }
}

/// Steps 1–3: the checked description, the clipped faces before trimming, and the number
/// of recursive calls made.
fn clipped(
    kind: Kind,
    w: usize,
    h: usize,
    desc: &str,
    prune: bool,
) -> Result<(Offset, Vec<Vec<Pt>>, usize)> {
    let name = name(kind);
    let Some(off) = parse_desc(desc) else {
        return Err(Error::bad(format!(
            "Loopy {name} grid description {:?} is not of the form G<x>,<y>,<angle>",
            super::short(desc)
        )));
    };
    let (rradius, start, depth) = calculate_size(kind, w, h);
    let inner = (rradius - ((w * w + h * h) as f64).sqrt()) as i64;
    let (x, y) = (off.x as i64, off.y as i64);
    if ((x * x + y * y) as f64).sqrt() > inner as f64 {
        return Err(Error::bad(format!(
            "Loopy {name} {w}x{h}: the patch offset ({x}, {y}) is out of bounds (at most \
             {inner} from the centre)"
        )));
    }
    if off.angle % 36 != 0 || !(0..360).contains(&off.angle) {
        return Err(Error::bad(format!(
            "Loopy {name}: the angle {} is not one of 0, 36, …, 324",
            off.angle
        )));
    }
    let (xs, ys) = (w as i64 * TILESIZE, h as i64 * TILESIZE);
    let mut g = Gen {
        prune,
        calls: 0,
        depth,
        lo: (x - xs / 2, y - ys / 2),
        hi: (x + xs / 2, y + ys / 2),
        faces: Vec::new(),
    };
    let origin = V {
        a: 0,
        b: -start,
        c: -start,
        d: 0,
    }
    .shrink()
    .shrink()
    .rot(off.angle);
    let edge = V {
        a: 0,
        b: start,
        c: 0,
        d: 0,
    }
    .rot(off.angle);
    match kind {
        Kind::Kites => g.p2_large(0, 1, origin, edge),
        Kind::Rhombs => g.p3_small(0, 1, origin, edge),
    }
    Ok((off, g.faces, g.calls))
}

/// `grid_trim_vigorously`: keeps the faces touching the largest connected set of inland
/// dots (see the module's step 4), in order.
fn trim(faces: Vec<Vec<Pt>>) -> Vec<Vec<Pt>> {
    use std::collections::{HashMap, HashSet};
    // dots numbered as first met
    let mut index: HashMap<Pt, usize> = HashMap::new();
    let faces_n: Vec<Vec<usize>> = faces
        .iter()
        .map(|f| {
            f.iter()
                .map(|p| {
                    let n = index.len();
                    *index.entry(*p).or_insert(n)
                })
                .collect()
        })
        .collect();
    let nd = index.len();
    let mut pairs: HashSet<(usize, usize)> = HashSet::new();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); nd];
    for f in &faces_n {
        let k = f.len();
        for j in 0..k {
            let (a, b) = (f[(j + k - 1) % k], f[j]);
            pairs.insert((a, b));
            out[a].push(b);
            out[b].push(a);
        }
    }
    let inland: Vec<bool> = (0..nd)
        .map(|i| {
            out[i]
                .iter()
                .all(|&j| pairs.contains(&(i, j)) == pairs.contains(&(j, i)))
        })
        .collect();
    // components of inland dots joined by inner edges; each named by its first dot
    let mut parent: Vec<usize> = (0..nd).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for &(a, b) in &pairs {
        if inland[a] && inland[b] && pairs.contains(&(b, a)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi] = lo;
        }
    }
    let mut size = vec![0usize; nd];
    for (i, _) in inland.iter().enumerate().filter(|d| *d.1) {
        let r = root(&mut parent, i);
        size[r] += 1;
    }
    let mut best: Option<usize> = None;
    for i in 0..nd {
        if inland[i] && size[i] > best.map_or(0, |b| size[b]) {
            best = Some(i);
        }
    }
    let Some(best) = best else {
        return Vec::new();
    };
    faces
        .into_iter()
        .zip(&faces_n)
        .filter(|(_, f)| f.iter().any(|&d| inland[d] && root(&mut parent, d) == best))
        .map(|(f, _)| f)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(a: i64, b: i64, c: i64, d: i64) -> V {
        V { a, b, c, d }
    }

    /// The 36° arithmetic: ten notches are the identity, five a half turn; φ·(1/φ) = 1;
    /// the fifth unit vector is `−A + B − C + D`; lengths scale by φ as the floats say.
    #[test]
    fn vector_arithmetic() {
        let e = v(-1, 1, -1, 1);
        for u in [v(1, 0, 0, 0), v(0, 1, 0, 0), v(3, -2, 5, 7), e] {
            let mut r = u;
            for _ in 0..10 {
                r = r.notch();
            }
            assert_eq!(r, u);
            assert_eq!(u.rot(0), u);
            assert_eq!(u.rot(180), v(-u.a, -u.b, -u.c, -u.d));
            assert_eq!(u.rot(36).rot(-36), u);
            assert_eq!(u.grow().shrink(), u);
            assert_eq!(u.shrink().grow(), u);
            let len = |w: V| (w.x() * w.x() + w.y() * w.y()).sqrt();
            let ratio = len(u.grow()) / len(u);
            assert!((ratio - PHI).abs() < 1e-5, "{ratio}");
            assert!((len(u.rot(108)) - len(u)).abs() < 1e-5);
        }
        // the ten unit vectors, A, B, C, D, E and their negatives, all of length 1
        let mut u = v(1, 0, 0, 0);
        let mut seen = Vec::new();
        for _ in 0..10 {
            assert!(((u.x() * u.x() + u.y() * u.y()).sqrt() - 1.0).abs() < 1e-6);
            seen.push(u);
            u = u.notch();
        }
        assert!(seen.contains(&e) && seen.contains(&v(0, 0, 0, 1)));
        assert_eq!(round_away(2.5), 3);
        assert_eq!(round_away(-2.5), -3);
        assert_eq!(round_away(-0.4), 0);
        assert_eq!(round_away(0.49999999999999994), 1); // floor(r + 0.5), as the program
    }

    #[test]
    fn descriptions_parse_as_sscanf() {
        let o = |x, y, angle| Some(Offset { x, y, angle });
        assert_eq!(parse_desc("G-123,3217,324"), o(-123, 3217, 324));
        assert_eq!(parse_desc("G+1, 2,\t-36junk"), o(1, 2, -36));
        for bad in [
            "",
            "G",
            "G1,2",
            "1,2,3",
            "G1;2;3",
            "g1,2,3",
            "G1 ,2,3",
            "G,1,2",
            "G1,2,x",
            "G-,1,2",
            "G99999999999,0,0",
            "G2147483648,0,0",
        ] {
            assert_eq!(parse_desc(bad), None, "{bad}");
        }
        assert_eq!(parse_desc("G-2147483648,0,0"), o(i32::MIN, 0, 0));
        assert_eq!(o(-5, 6, 72).unwrap().desc(), "G-5,6,72");
    }

    /// The bounds of `grid_validate_desc_penrose`: the offset within the inner radius
    /// (7x7 kites: `⌊150·3.11·√98 − √98⌋ = 4608`), the angle a multiple of 36 below 360.
    #[test]
    fn offsets_and_angles_are_bounded() {
        let (r, start, depth) = calculate_size(Kind::Kites, 7, 7);
        assert_eq!((r - 98f64.sqrt()) as i64, 4608);
        assert!(start as f64 * INCIRCLE >= r && depth > 0);
        let ok = |d: &str| build(Kind::Kites, 7, 7, d);
        assert!(ok("G4608,0,0").is_ok());
        assert!(ok("G0,-4608,36").is_ok());
        for bad in [
            "G4609,0,0",
            "G3300,3300,0",
            "G0,0,37",
            "G0,0,360",
            "G0,0,-36",
            "G0,0",
        ] {
            let e = ok(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
        // a patch near the edge can be empty once trimmed (the program then draws another)
        let e = build(Kind::Rhombs, 3, 3, "G0,0,0").unwrap_err().to_string();
        assert!(e.contains("no usable grid fragment"), "{e}");
    }

    /// Skipping the triangles that cannot reach the clip changes nothing: the same faces
    /// in the same order as the whole recursion, for both tilings, several sizes, offsets
    /// at the centre and near the inner radius, and every angle.
    #[test]
    fn pruning_keeps_every_face() {
        let mut total = 0;
        for kind in [Kind::Kites, Kind::Rhombs] {
            for (w, h) in [(3, 3), (10, 10), (4, 15)] {
                let (r, _, _) = calculate_size(kind, w, h);
                let far = (0.7 * (r - ((w * w + h * h) as f64).sqrt())) as i64;
                for (x, y) in [(0, 0), (far, -far / 3), (-far / 2, far)] {
                    for a in (0..360).step_by(36) {
                        let d = format!("G{x},{y},{a}");
                        let fast = clipped(kind, w, h, &d, true).unwrap().1;
                        let slow = clipped(kind, w, h, &d, false).unwrap().1;
                        assert_eq!(fast, slow, "{kind:?} {w}x{h} {d}");
                        total += fast.len();
                    }
                }
            }
        }
        assert!(total > 5_000, "{total}");
    }

    /// The largest grids (40x40, the most a side, and the thinnest, 3x40 and 40x3) at the
    /// centre and off it: the recursion makes at most 20,000 calls (about 18,000 at 40x40
    /// kites; the whole recursion makes over 300,000 there), the faces are within the
    /// program's own bound of `9·w·h`, and trimming only removes faces.
    #[test]
    fn largest_grids_take_bounded_work() {
        for kind in [Kind::Kites, Kind::Rhombs] {
            for (w, h) in [(40, 40), (3, 40), (40, 3)] {
                for (x, y, a) in [(0, 0, 0), (-9000, 12000, 252)] {
                    let d = format!("G{x},{y},{a}");
                    let (_, faces, calls) = clipped(kind, w, h, &d, true).unwrap();
                    assert!(!faces.is_empty() && faces.len() <= 9 * w * h, "{d}");
                    assert!(calls <= 20_000, "{kind:?} {w}x{h} {d}: {calls}");
                    if let Ok((_, kept)) = build(kind, w, h, &d) {
                        assert!(kept.len() <= faces.len());
                    }
                }
            }
            let (_, _, all) = clipped(kind, 40, 40, "G0,0,0", false).unwrap();
            assert!(all > 300_000, "{all}");
        }
    }

    /// Trimming on squares: a 3x3 block keeps all nine faces (its four inner dots are one
    /// component); a lone square far away and a 2x1 strip (no inland dot) go; of two equal
    /// blocks the first met stays.
    #[test]
    fn trimming() {
        let sq = |x: i64, y: i64| vec![(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)];
        let block = |x0: i64, n: i64| {
            let mut f = Vec::new();
            for y in 0..n {
                for x in 0..n {
                    f.push(sq(x0 + x, y));
                }
            }
            f
        };
        let mut faces = vec![sq(-10, -10), sq(20, 0), sq(21, 0)];
        faces.extend(block(0, 3));
        assert_eq!(trim(faces.clone()), block(0, 3));
        // a 3x3 and a 4x4: the larger (nine inland dots) wins though it comes second
        let mut two = block(0, 3);
        two.extend(block(10, 4));
        assert_eq!(trim(two), block(10, 4));
        let mut tie = block(10, 3);
        tie.extend(block(0, 3));
        assert_eq!(trim(tie), block(10, 3));
        assert!(trim(vec![sq(0, 0), sq(1, 0)]).is_empty());
        // an L of three squares touching one inland... none: a corner dot is coastal
        assert!(trim(vec![sq(0, 0), sq(1, 0), sq(0, 1)]).is_empty());
        // a 2x2 block: its centre dot is inland, all four faces touch it
        assert_eq!(trim(block(0, 2)).len(), 4);
    }

    /// Grids of the installed program (`sgt-loopy --generate`): the clue descriptions fill
    /// exactly the faces built here (the integration tests replay their solutions).
    #[test]
    fn program_grids_have_their_face_counts() {
        for (kind, w, h, desc) in [
            (Kind::Kites, 7, 7, "G-123,3217,324_a3a13a023d3a23f1"),
            (
                Kind::Kites,
                10,
                10,
                "G-1320,-5253,252_3d3331a2a22a2e1a12d1a2a0c2a222c302c22230b12a2a21c23",
            ),
            (
                Kind::Rhombs,
                10,
                10,
                "G-172,8,72_a3e10a2a3f3d2a0b2a3a2a0c2a1a322a12b",
            ),
        ] {
            let (g, clues) = desc.split_once('_').unwrap();
            let n: usize = clues
                .bytes()
                .map(|b| match b {
                    b'a'..=b'z' => (b - b'a' + 1) as usize,
                    _ => 1,
                })
                .sum();
            assert_eq!(build(kind, w, h, g).unwrap().1.len(), n, "{desc}");
        }
    }
}
