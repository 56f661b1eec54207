//! Drawing positions: a box-drawing board for the terminal and a standalone SVG image.
//!
//! Both take an optional list of slots to highlight (typically the free slots where a single
//! wall would be illegal, from [`crate::board::Position::analyze`]). Highlighting a slot
//! that holds a wall, or one not on the board, is ignored rather than an error.

use std::collections::HashSet;
use std::fmt::Write;

use crate::board::{Dir, Position, Setup, Wall};
use crate::format::{markers, stacks};

/// How many explicit pairs the terminal legend lists before summarising.
const LEGEND_MAX: usize = 20;

/// The box-drawing character for a corner with walls on the given arms.
fn corner(up: bool, down: bool, left: bool, right: bool) -> char {
    match (up, down, left, right) {
        (false, false, false, false) => '·',
        (true, false, false, false) => '╵',
        (false, true, false, false) => '╷',
        (false, false, true, false) => '╴',
        (false, false, false, true) => '╶',
        (true, true, false, false) => '│',
        (false, false, true, true) => '─',
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        (true, true, true, true) => '┼',
    }
}

/// Per-cell labels: game markers, or for explicit pairs the (1-based) pair number of a cell
/// that ends exactly one pair and `*` for a cell that ends several.
fn labels(pos: &Position) -> Vec<String> {
    let mut out = markers(pos);
    if let Setup::Pairs(pairs) = pos.setup() {
        for (i, &(a, b)) in pairs.iter().enumerate() {
            for c in [a, b] {
                let slot = &mut out[pos.node(c) as usize];
                let me = (i + 1).to_string();
                if slot.is_empty() && me.len() <= 3 {
                    *slot = me;
                } else if *slot != me {
                    *slot = "*".to_string();
                }
            }
        }
    }
    out
}

/// The board drawn with box characters: walls and the border as lines, cells as `.` or their
/// marker, and each highlighted free slot as `×`. A legend follows when needed.
pub fn terminal(pos: &Position, highlight: &[Wall]) -> String {
    let (rows, cols) = (pos.rows(), pos.cols());
    let hl: HashSet<Wall> = highlight
        .iter()
        .copied()
        .filter(|&w| !pos.has_wall(w))
        .collect();
    // Vertical segment on column line j between corner rows i and i+1.
    let vseg = |i: u32, j: u32| j == 0 || j == cols || pos.has_wall(Wall::new(i, j - 1, Dir::R));
    // Horizontal segment on row line i between corner columns j and j+1.
    let hseg = |i: u32, j: u32| i == 0 || i == rows || pos.has_wall(Wall::new(i - 1, j, Dir::D));
    let labels = labels(pos);
    let mut s = String::new();
    for i in 0..=rows {
        for j in 0..=cols {
            let up = i > 0 && vseg(i - 1, j);
            let down = i < rows && vseg(i, j);
            let left = j > 0 && hseg(i, j - 1);
            let right = j < cols && hseg(i, j);
            s.push(corner(up, down, left, right));
            if j < cols {
                if hseg(i, j) {
                    s.push_str("───");
                } else if i > 0 && hl.contains(&Wall::new(i - 1, j, Dir::D)) {
                    s.push_str(" × ");
                } else {
                    s.push_str("   ");
                }
            }
        }
        s.push('\n');
        if i == rows {
            break;
        }
        for j in 0..=cols {
            if vseg(i, j) {
                s.push('│');
            } else if hl.contains(&Wall::new(i, j - 1, Dir::R)) {
                s.push('×');
            } else {
                s.push(' ');
            }
            if j < cols {
                let l = &labels[pos.node((i, j)) as usize];
                if l.is_empty() {
                    s.push_str(" . ");
                } else {
                    let _ = write!(s, "{l:>3}");
                }
            }
        }
        s.push('\n');
    }
    match pos.setup() {
        Setup::Game { variant, players } => {
            let _ = writeln!(s, "{} with {} players", variant.name(), players.len());
            for ((r, c), ms) in stacks(pos).iter().take(LEGEND_MAX) {
                let _ = writeln!(s, "* at ({r}, {c}): {}", ms.join(" "));
            }
        }
        Setup::Pairs(pairs) => {
            for (i, (a, b)) in pairs.iter().enumerate().take(LEGEND_MAX) {
                let _ = writeln!(s, "pair {}: ({}, {}) - ({}, {})", i + 1, a.0, a.1, b.0, b.1);
            }
            if pairs.len() > LEGEND_MAX {
                let _ = writeln!(s, "... and {} more pairs", pairs.len() - LEGEND_MAX);
            }
        }
    }
    if !hl.is_empty() {
        let _ = match hl.len() {
            1 => writeln!(s, "× marks the free slot where a single wall is illegal"),
            n => writeln!(
                s,
                "× marks the {n} free slots where a single wall is illegal"
            ),
        };
    }
    s
}

const CELL: u64 = 40;
const MARGIN: u64 = 20;
const COLORS: [&str; 4] = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"];

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A standalone SVG image: a light grid, walls and the border as thick black lines, cats as
/// filled circles, mice as smaller circles, goals as squares (all labelled and coloured per
/// player), explicit pairs as numbered circles joined by dashed lines, and highlighted free
/// slots as red dashed lines.
pub fn svg(pos: &Position, highlight: &[Wall]) -> String {
    let (rows, cols) = (pos.rows() as u64, pos.cols() as u64);
    let (w, h) = (2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL);
    let x = |c: u64| MARGIN + c * CELL;
    let y = |r: u64| MARGIN + r * CELL;
    let mid = |v: u64| MARGIN + v * CELL + CELL / 2;
    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(s, "<title>Wall Game position, {rows}x{cols}</title>");
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    );
    let _ = writeln!(s, r##"<g stroke="#cccccc" stroke-width="1">"##);
    for r in 1..rows {
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            x(0),
            y(r),
            x(cols),
            y(r)
        );
    }
    for c in 1..cols {
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            x(c),
            y(0),
            x(c),
            y(rows)
        );
    }
    s.push_str("</g>\n");
    let seg = |wl: Wall| -> (u64, u64, u64, u64) {
        let (r, c) = (wl.row as u64, wl.col as u64);
        match wl.dir {
            Dir::R => (x(c + 1), y(r), x(c + 1), y(r + 1)),
            Dir::D => (x(c), y(r + 1), x(c + 1), y(r + 1)),
        }
    };
    let hl: Vec<Wall> = {
        let mut v: Vec<Wall> = highlight
            .iter()
            .copied()
            .filter(|&wl| {
                !pos.has_wall(wl)
                    && match wl.dir {
                        Dir::R => (wl.row as u64) < rows && (wl.col as u64) + 1 < cols,
                        Dir::D => (wl.row as u64) + 1 < rows && (wl.col as u64) < cols,
                    }
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    if !hl.is_empty() {
        let _ = writeln!(
            s,
            r##"<g class="illegal" stroke="#e00000" stroke-width="4" stroke-dasharray="6 4" stroke-linecap="round">"##
        );
        for &wl in &hl {
            let (x1, y1, x2, y2) = seg(wl);
            let _ = writeln!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
        }
        s.push_str("</g>\n");
    }
    let _ = writeln!(
        s,
        r#"<g class="walls" stroke="black" stroke-width="6" stroke-linecap="round">"#
    );
    for &wl in pos.walls() {
        let (x1, y1, x2, y2) = seg(wl);
        let _ = writeln!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black" stroke-width="6"/>"#,
        x(0),
        y(0),
        cols * CELL,
        rows * CELL
    );
    let text = |s: &mut String, cx: u64, cy: u64, size: u64, fill: &str, label: &str| {
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{cy}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-size="{size}" fill="{fill}">{}</text>"#,
            xml_escape(label)
        );
    };
    match pos.setup() {
        Setup::Game { players, .. } => {
            // Pieces sharing a cell are drawn side by side: the k-th of n on a cell is shifted
            // by `shift(k, n)` pixels (goals, drawn as the cell's frame, stay centred).
            let mut on_cell: std::collections::HashMap<(u32, u32), (u64, u64)> =
                std::collections::HashMap::new();
            for p in players {
                for c in [Some(p.cat), p.mouse].into_iter().flatten() {
                    on_cell.entry(c).or_insert((0, 0)).1 += 1;
                }
            }
            let mut slot = |c: (u32, u32)| -> u64 {
                let e = on_cell.get_mut(&c).expect("counted above");
                let (k, n) = (e.0, e.1);
                e.0 += 1;
                // Centre minus half the spread plus k steps of 8 px: n ≤ 8 pieces per cell, so
                // the spread (≤ 28 px) never reaches past the margin.
                mid(c.1 as u64) + 8 * k - 4 * (n - 1)
            };
            s.push_str("<g class=\"pieces\">\n");
            for (i, p) in players.iter().enumerate() {
                let color = COLORS[i % COLORS.len()];
                if let Some((r, c)) = p.goal {
                    let (r, c) = (r as u64, c as u64);
                    let _ = writeln!(
                        s,
                        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{color}" stroke-width="3"/>"#,
                        x(c) + 6,
                        y(r) + 6,
                        CELL - 12,
                        CELL - 12
                    );
                    text(&mut s, mid(c), mid(r), 13, color, &format!("G{}", i + 1));
                }
                let cx = slot(p.cat);
                let r = p.cat.0 as u64;
                let _ = writeln!(
                    s,
                    r#"<circle cx="{cx}" cy="{}" r="15" fill="{color}"/>"#,
                    mid(r)
                );
                text(&mut s, cx, mid(r), 13, "white", &format!("C{}", i + 1));
                if let Some(m) = p.mouse {
                    let cx = slot(m);
                    let r = m.0 as u64;
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{cx}" cy="{}" r="10" fill="white" stroke="{color}" stroke-width="3"/>"#,
                        mid(r)
                    );
                    text(&mut s, cx, mid(r), 10, color, &format!("M{}", i + 1));
                }
            }
            s.push_str("</g>\n");
        }
        Setup::Pairs(pairs) => {
            s.push_str("<g class=\"pairs\">\n");
            for (i, &(a, b)) in pairs.iter().enumerate() {
                let color = COLORS[i % COLORS.len()];
                let (ar, ac, br, bc) = (a.0 as u64, a.1 as u64, b.0 as u64, b.1 as u64);
                let _ = writeln!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{color}" stroke-width="2" stroke-dasharray="4 3"/>"#,
                    mid(ac),
                    mid(ar),
                    mid(bc),
                    mid(br)
                );
                for (r, c) in [(ar, ac), (br, bc)] {
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{}" cy="{}" r="12" fill="{color}"/>"#,
                        mid(c),
                        mid(r)
                    );
                    text(&mut s, mid(c), mid(r), 12, "white", &(i + 1).to_string());
                }
            }
            s.push_str("</g>\n");
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    #[test]
    fn terminal_draws_walls_and_highlights() {
        let p = parse(
            b"+---+---+
| .   . |
+---+   +
| . | . |
+---+---+
pair: 0,0 1,0
",
        )
        .unwrap();
        let t = terminal(&p, &[Wall::new(0, 0, Dir::R)]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "┌───────┐");
        assert_eq!(lines[1], "│  1× . │");
        assert_eq!(lines[2], "├───┐   │");
        assert_eq!(lines[3], "│  1│ . │");
        assert_eq!(lines[4], "└───┴───┘");
        assert!(t.contains("pair 1: (0, 0) - (1, 0)"));
    }

    #[test]
    fn svg_has_walls_and_highlight() {
        let p = parse(b"+---+---+\n| .   . |\n+---+   +\n| . | . |\n+---+---+\n").unwrap();
        let s = svg(&p, &[Wall::new(0, 0, Dir::R)]);
        assert!(s.contains("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("class=\"illegal\"").count(), 1);
        // Two walls, one highlighted slot.
        let walls = s
            .split("class=\"walls\"")
            .nth(1)
            .unwrap()
            .split("</g>")
            .next()
            .unwrap();
        assert_eq!(walls.matches("<line").count(), 2);
    }
}
