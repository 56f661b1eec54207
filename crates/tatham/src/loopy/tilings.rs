//! The periodic tilings of Loopy's grids, as the collection's `grid.c` lays them out: for
//! each grid type, the faces in the order the program creates them, each face's corners in
//! the program's integer coordinates and in its order (clockwise on screen, y downwards).
//!
//! Every tiling walks its cells row by row (`y` outer, `x` inner) and places a fixed list
//! of tiles around the cell's origin, some only away from the borders. Coordinates are
//! exact integers (the program's own constants: `A`, `B` with `B/A` close to √3, √2, …), so
//! two corners are the same dot exactly when their coordinates are equal.

/// A point in the program's integer coordinates.
pub type Pt = (i64, i64);

/// A tiling: fills in the faces of a `w × h` grid.
pub type Tiling = fn(usize, usize, &mut Tiles);

/// The faces of a tiling in creation order, each a list of corners.
#[derive(Default)]
pub struct Tiles {
    pub faces: Vec<Vec<Pt>>,
}

impl Tiles {
    /// Adds one face: the corners `offsets` around `origin`.
    fn put(&mut self, origin: Pt, offsets: &[Pt]) {
        self.faces.push(
            offsets
                .iter()
                .map(|&(dx, dy)| (origin.0 + dx, origin.1 + dy))
                .collect(),
        );
    }
}

const fn odd(v: usize) -> bool {
    v % 2 == 1
}

/// The regular-ish dodecagon of the three dodecagonal grids around its centre, from the
/// top edge's right corner clockwise; `a` and `b` are the triangle side's two components.
fn dodecagon(a: i64, b: i64) -> [Pt; 12] {
    let (p, q, r) = (a, a + b, 2 * a + b);
    [
        (p, -r),
        (q, -q),
        (r, -p),
        (r, p),
        (q, q),
        (p, r),
        (-p, r),
        (-q, q),
        (-r, p),
        (-r, -p),
        (-q, -q),
        (-p, -r),
    ]
}

/// A hexagon with a horizontal top edge (half-width `2a`, half-height `b`), from the top
/// left corner clockwise.
fn hexagon(a: i64, b: i64) -> [Pt; 6] {
    [(-a, -b), (a, -b), (2 * a, 0), (a, b), (-a, b), (-2 * a, 0)]
}

/// Type 0: `w × h` squares of side 20, corners top left, top right, bottom right, bottom left.
pub fn squares(w: usize, h: usize, t: &mut Tiles) {
    let a = 20;
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            t.put((a * x, a * y), &[(0, 0), (a, 0), (a, a), (0, a)]);
        }
    }
}

/// Type 1, version 0 (the `0_` grid description): rows of `w + 1` triangles pointing one
/// way and `w` the other, alternating with the row's parity; with an odd height the last
/// row drops its first and last triangles (no "ears").
pub fn triangular(w: usize, h: usize, t: &mut Tiles) {
    let (vx, vy) = (15i64, 26i64);
    for y in 0..h {
        let (mut y0, mut y1) = (y as i64 * vy, y as i64 * vy);
        if odd(y) {
            y1 += vy;
        } else {
            y0 += vy;
        }
        for x in 0..=w {
            if odd(h) && y == h - 1 && (x == 0 || x == w) {
                continue;
            }
            let x0 = 2 * x as i64 * vx;
            let (x1, x2) = (x0 + vx, x0 + 2 * vx);
            t.faces.push(if odd(y) {
                vec![(x0, y0), (x2, y0), (x1, y1)]
            } else {
                vec![(x0, y0), (x1, y1), (x2, y0)]
            });
        }
        for x in 0..w {
            let x0 = (2 * x as i64 + 1) * vx;
            let (x1, x2) = (x0 + vx, x0 + 2 * vx);
            t.faces.push(if odd(y) {
                vec![(x0, y1), (x1, y0), (x2, y1)]
            } else {
                vec![(x0, y1), (x2, y1), (x1, y0)]
            });
        }
    }
}

/// Type 1 without a grid description (game IDs older than the `0_` one): `w × h` cells of
/// two triangles over a lattice of `(w + 1) × (h + 1)` dots whose odd rows are shifted
/// right by half a side.
pub fn triangular_old(w: usize, h: usize, t: &mut Tiles) {
    let (vx, vy) = (15i64, 26i64);
    let dot = |x: usize, y: usize| {
        (
            2 * vx * x as i64 + if odd(y) { vx } else { 0 },
            vy * y as i64,
        )
    };
    for y in 0..h {
        for x in 0..w {
            let (tl, tr, bl, br) = (dot(x, y), dot(x + 1, y), dot(x, y + 1), dot(x + 1, y + 1));
            if odd(y) {
                t.faces.push(vec![tl, br, bl]);
                t.faces.push(vec![tl, tr, br]);
            } else {
                t.faces.push(vec![tl, tr, bl]);
                t.faces.push(vec![tr, br, bl]);
            }
        }
    }
}

/// Type 2: hexagons in columns, odd columns half a hexagon lower.
pub fn honeycomb(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = (
                3 * a * x as i64,
                2 * b * y as i64 + if odd(x) { b } else { 0 },
            );
            t.put(c, &hexagon(a, b));
        }
    }
}

/// Type 3: a tilted square per cell (tilted one way or the other with the parity of
/// `x + y`), then the triangle to its left (`x > 0`) and the one above it (`y > 0`).
pub fn snub_square(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let o = ((a + b) * x as i64, (a + b) * y as i64);
            let flip = odd(x + y);
            if flip {
                t.put(o, &[(a, 0), (a + b, a), (b, a + b), (0, b)]);
            } else {
                t.put(o, &[(b, 0), (a + b, b), (a, a + b), (0, a)]);
            }
            if x > 0 {
                if flip {
                    t.put(o, &[(a, 0), (0, b), (-a, 0)]);
                } else {
                    t.put(o, &[(0, a), (a, a + b), (-a, a + b)]);
                }
            }
            if y > 0 {
                if flip {
                    t.put(o, &[(a, 0), (a + b, -a), (a + b, a)]);
                } else {
                    t.put(o, &[(0, -a), (b, 0), (0, a)]);
                }
            }
        }
    }
}

/// Type 4: per cell a "horizontal" pentagon above the cell's corner (`y > 0`) and a
/// "vertical" one left of it (`x > 0`), mirrored with the parity of `x + y`.
pub fn cairo(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (14i64, 31i64);
    for y in 0..h {
        for x in 0..w {
            let o = (2 * b * x as i64, 2 * b * y as i64);
            let flip = odd(x + y);
            if y > 0 {
                if flip {
                    t.put(o, &[(a, -b), (2 * b - a, -b), (2 * b, 0), (b, a), (0, 0)]);
                } else {
                    t.put(o, &[(0, 0), (b, -a), (2 * b, 0), (2 * b - a, b), (a, b)]);
                }
            }
            if x > 0 {
                if flip {
                    t.put(o, &[(0, 0), (b, a), (b, 2 * b - a), (0, 2 * b), (-a, b)]);
                } else {
                    t.put(o, &[(0, 0), (a, b), (0, 2 * b), (-b, 2 * b - a), (-b, a)]);
                }
            }
        }
    }
}

/// Type 5: a hexagon per cell (odd columns lower), then the squares below, below right and
/// below left of it and the triangles below right and below left, where they fit.
pub fn great_hexagonal(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = (
                (3 * a + b) * x as i64,
                (2 * a + 2 * b) * y as i64 + if odd(x) { a + b } else { 0 },
            );
            let (last_x, last_y) = (x == w - 1, y == h - 1);
            t.put(c, &hexagon(a, b));
            if !last_y {
                t.put(c, &[(-a, b), (a, b), (a, 2 * a + b), (-a, 2 * a + b)]);
            }
            if !last_x && (!odd(x) || !last_y) {
                t.put(c, &[(2 * a, 0), (2 * a + b, a), (a + b, a + b), (a, b)]);
            }
            if x > 0 && (!odd(x) || !last_y) {
                t.put(c, &[(-2 * a, 0), (-a, b), (-a - b, a + b), (-2 * a - b, a)]);
            }
            if !last_x && !last_y {
                t.put(c, &[(a, b), (a + b, a + b), (a, 2 * a + b)]);
            }
            if x > 0 && !last_y {
                t.put(c, &[(-a, b), (-a, 2 * a + b), (-a - b, a + b)]);
            }
        }
    }
}

/// Type 6: an octagon per cell and the small square at its top left corner (`x, y > 0`).
pub fn octagonal(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (29i64, 41i64);
    for y in 0..h {
        for x in 0..w {
            let o = ((2 * a + b) * x as i64, (2 * a + b) * y as i64);
            t.put(
                o,
                &[
                    (a, 0),
                    (a + b, 0),
                    (2 * a + b, a),
                    (2 * a + b, a + b),
                    (a + b, 2 * a + b),
                    (a, 2 * a + b),
                    (0, a + b),
                    (0, a),
                ],
            );
            if x > 0 && y > 0 {
                t.put(o, &[(0, -a), (a, 0), (0, a), (-a, 0)]);
            }
        }
    }
}

/// Type 7: six kites around a dot of order 6 per cell (odd rows shifted half a cell
/// right), pointing up-left, up, up-right, down-right, down, down-left.
pub fn kites(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let o = (
                4 * b * x as i64 + if odd(y) { 2 * b } else { 0 },
                6 * a * y as i64,
            );
            for s in [1, -1] {
                let k = |dx: i64, dy: i64| (s * dx, s * dy);
                t.put(o, &[(0, 0), k(2 * b, 0), k(2 * b, 2 * a), k(b, 3 * a)]);
                t.put(o, &[(0, 0), k(b, 3 * a), k(0, 4 * a), k(-b, 3 * a)]);
                t.put(o, &[(0, 0), k(-b, 3 * a), k(-2 * b, 2 * a), k(-2 * b, 0)]);
            }
        }
    }
}

/// Type 8: six pentagons around a centre per cell; odd columns half a cell lower, and even
/// columns leave out the last row (when there is more than one).
pub fn floret(w: usize, h: usize, t: &mut Tiles) {
    let p: Pt = (75, -26);
    let q: Pt = (4 * p.0 / 5, -2 * p.1);
    let r: Pt = (q.0 - p.0, q.1 - p.1);
    let lin = |k1: i64, u: Pt, k2: i64, v: Pt| (k1 * u.0 + k2 * v.0, k1 * u.1 + k2 * v.1);
    let step_x = (6 * p.0 + 3 * q.0) / 2;
    let step_y = 4 * p.1 - 5 * q.1;
    for y in 0..h {
        for x in 0..w {
            let mut c = (step_x * x as i64, step_y * y as i64);
            if odd(x) {
                c.1 -= step_y / 2;
            } else if y > 0 && y == h - 1 {
                continue;
            }
            // each petal: the centre, twice one vector, round to twice the next; then the
            // same three turned half round
            for sign in [1, -1] {
                for (u, v) in [(r, q), (q, p), (p, (-r.0, -r.1))] {
                    let u = (sign * u.0, sign * u.1);
                    let v = (sign * v.0, sign * v.1);
                    t.put(
                        c,
                        &[
                            (0, 0),
                            lin(2, u, 0, v),
                            lin(2, u, 1, v),
                            lin(1, u, 2, v),
                            lin(0, u, 2, v),
                        ],
                    );
                }
            }
        }
    }
}

/// The side condition the dodecagonal grids share for tiles straddling two rows: not in
/// the last column of an odd row, nor the first column of an even one.
fn inner(x: usize, y: usize, w: usize) -> bool {
    (x < w - 1 || !odd(y)) && (x > 0 || odd(y))
}

/// Type 9: a dodecagon per cell (odd rows shifted half a cell right), the triangles below
/// and above it where they fit.
pub fn dodecagonal(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = (
                (4 * a + 2 * b) * x as i64 + if odd(y) { 2 * a + b } else { 0 },
                (3 * a + 2 * b) * y as i64,
            );
            t.put(c, &dodecagon(a, b));
            if y < h - 1 && inner(x, y, w) {
                t.put(c, &[(a, 2 * a + b), (0, 2 * a + 2 * b), (-a, 2 * a + b)]);
            }
            if y > 0 && inner(x, y, w) {
                t.put(
                    c,
                    &[(-a, -(2 * a + b)), (0, -(2 * a + 2 * b)), (a, -(2 * a + b))],
                );
            }
        }
    }
}

/// Type 10: a dodecagon per cell (odd rows shifted), the hexagons below and above it, the
/// squares to its right, top right and top left, where they fit.
pub fn great_dodecagonal(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = (
                (6 * a + 2 * b) * x as i64 + if odd(y) { 3 * a + b } else { 0 },
                (3 * a + 3 * b) * y as i64,
            );
            t.put(c, &dodecagon(a, b));
            let hex_below = [
                (a, 2 * a + b),
                (2 * a, 2 * a + 2 * b),
                (a, 2 * a + 3 * b),
                (-a, 2 * a + 3 * b),
                (-2 * a, 2 * a + 2 * b),
                (-a, 2 * a + b),
            ];
            if y < h - 1 && inner(x, y, w) {
                t.put(c, &hex_below);
            }
            if y > 0 && inner(x, y, w) {
                t.put(c, &hex_below.map(|(dx, dy)| (-dx, -dy)));
            }
            if x < w - 1 {
                t.put(
                    c,
                    &[
                        (2 * a + b, -a),
                        (4 * a + b, -a),
                        (4 * a + b, a),
                        (2 * a + b, a),
                    ],
                );
            }
            if y > 0 && (x < w - 1 || !odd(y)) {
                t.put(
                    c,
                    &[
                        (a, -(2 * a + b)),
                        (2 * a, -(2 * a + 2 * b)),
                        (2 * a + b, -(a + 2 * b)),
                        (a + b, -(a + b)),
                    ],
                );
            }
            if y > 0 && (x > 0 || odd(y)) {
                t.put(
                    c,
                    &[
                        (-(a + b), -(a + b)),
                        (-(2 * a + b), -(a + 2 * b)),
                        (-2 * a, -(2 * a + 2 * b)),
                        (-a, -(2 * a + b)),
                    ],
                );
            }
        }
    }
}

/// Type 13: a dodecagon per cell (odd rows shifted); the hexagons at its top right, right
/// and bottom right; the squares at its top right, bottom right, below, bottom left, top
/// left and above; the triangles pointing down and up at its right; where they fit.
pub fn great_great_dodecagonal(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = (
                (4 * a + 4 * b) * x as i64 + if odd(y) { 2 * a + 2 * b } else { 0 },
                (6 * a + 2 * b) * y as i64,
            );
            let (first_y, last_x, last_y) = (y == 0, x == w - 1, y == h - 1);
            let (right_col, mid) = (!last_x || !odd(y), inner(x, y, w));
            t.put(c, &dodecagon(a, b));
            if !first_y && right_col {
                t.put(
                    c,
                    &[
                        (a + 2 * b, -(4 * a + b)),
                        (a + 2 * b, -(2 * a + b)),
                        (a + b, -(a + b)),
                        (a, -(2 * a + b)),
                        (a, -(4 * a + b)),
                        (a + b, -(5 * a + b)),
                    ],
                );
            }
            if !last_x {
                t.put(
                    c,
                    &[
                        (2 * a + 3 * b, -a),
                        (2 * a + 3 * b, a),
                        (2 * a + 2 * b, 2 * a),
                        (2 * a + b, a),
                        (2 * a + b, -a),
                        (2 * a + 2 * b, -2 * a),
                    ],
                );
            }
            if !last_y && right_col {
                t.put(
                    c,
                    &[
                        (a + 2 * b, 2 * a + b),
                        (a + 2 * b, 4 * a + b),
                        (a + b, 5 * a + b),
                        (a, 4 * a + b),
                        (a, 2 * a + b),
                        (a + b, a + b),
                    ],
                );
            }
            if !first_y && !last_x {
                t.put(
                    c,
                    &[
                        (a + 2 * b, -(2 * a + b)),
                        (2 * a + 2 * b, -2 * a),
                        (2 * a + b, -a),
                        (a + b, -(a + b)),
                    ],
                );
            }
            if !last_y && !last_x {
                t.put(
                    c,
                    &[
                        (2 * a + 2 * b, 2 * a),
                        (a + 2 * b, 2 * a + b),
                        (a + b, a + b),
                        (2 * a + b, a),
                    ],
                );
            }
            if !last_y && mid {
                t.put(
                    c,
                    &[
                        (a, 2 * a + b),
                        (a, 4 * a + b),
                        (-a, 4 * a + b),
                        (-a, 2 * a + b),
                    ],
                );
            }
            if x > 0 && !last_y {
                t.put(
                    c,
                    &[
                        (-(2 * a + b), a),
                        (-(a + b), a + b),
                        (-(a + 2 * b), 2 * a + b),
                        (-(2 * a + 2 * b), 2 * a),
                    ],
                );
            }
            if x > 0 && !first_y {
                t.put(
                    c,
                    &[
                        (-(a + b), -(a + b)),
                        (-(2 * a + b), -a),
                        (-(2 * a + 2 * b), -2 * a),
                        (-(a + 2 * b), -(2 * a + b)),
                    ],
                );
            }
            if !first_y && mid {
                t.put(
                    c,
                    &[
                        (a, -(4 * a + b)),
                        (a, -(2 * a + b)),
                        (-a, -(2 * a + b)),
                        (-a, -(4 * a + b)),
                    ],
                );
            }
            if !first_y && !last_x {
                t.put(
                    c,
                    &[
                        (3 * a + 2 * b, -(2 * a + b)),
                        (2 * a + 2 * b, -2 * a),
                        (a + 2 * b, -(2 * a + b)),
                    ],
                );
            }
            if !last_y && !last_x {
                t.put(
                    c,
                    &[
                        (3 * a + 2 * b, 2 * a + b),
                        (a + 2 * b, 2 * a + b),
                        (2 * a + 2 * b, 2 * a),
                    ],
                );
            }
        }
    }
}

/// Type 14: a hexagon per cell (odd rows shifted half a cell right) with the triangles at
/// its top right and bottom right, and at the start of odd rows those at its left.
pub fn kagome(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = (
                4 * a * x as i64 + if odd(y) { 2 * a } else { 0 },
                2 * b * y as i64,
            );
            t.put(
                c,
                &[(a, -b), (2 * a, 0), (a, b), (-a, b), (-2 * a, 0), (-a, -b)],
            );
            if x < w - 1 || (!odd(y) && y > 0) {
                t.put(c, &[(3 * a, -b), (2 * a, 0), (a, -b)]);
            }
            if x < w - 1 || (!odd(y) && y < h - 1) {
                t.put(c, &[(3 * a, b), (a, b), (2 * a, 0)]);
            }
            if x == 0 && odd(y) {
                t.put(c, &[(-a, -b), (-2 * a, 0), (-3 * a, -b)]);
                if y < h - 1 {
                    t.put(c, &[(-a, b), (-3 * a, b), (-2 * a, 0)]);
                }
            }
        }
    }
}

/// Type 15: a dodecagon per cell on a square lattice and, between four dodecagons (not in
/// the last row or column), four triangles (north, east, south, west) and a square.
pub fn compass_dodecagonal(w: usize, h: usize, t: &mut Tiles) {
    let (a, b) = (15i64, 26i64);
    for y in 0..h {
        for x in 0..w {
            let c = ((4 * a + 2 * b) * x as i64, (4 * a + 2 * b) * y as i64);
            t.put(c, &dodecagon(a, b));
            if x < w - 1 && y < h - 1 {
                let (lo, mid, hi) = (a + b, 2 * a + b, 3 * a + b);
                t.put(c, &[(mid, a), (hi, lo), (lo, lo)]);
                t.put(c, &[(3 * a + 2 * b, mid), (hi, hi), (hi, lo)]);
                t.put(c, &[(hi, hi), (mid, 3 * a + 2 * b), (lo, hi)]);
                t.put(c, &[(lo, lo), (lo, hi), (a, mid)]);
                t.put(c, &[(hi, lo), (hi, hi), (lo, hi), (lo, lo)]);
            }
        }
    }
}
