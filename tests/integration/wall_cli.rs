//! End-to-end tests of `verifier wall …`: exit codes, `analyze --json` against an independent
//! brute force written here (remove wall slots, BFS over the grid; no library code), rendering
//! and conversion.

use std::collections::{HashSet, VecDeque};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::common;
use common::{tmp, VERIFIER as BIN};

fn puzzle(name: &str) -> String {
    common::p(&format!("puzzles/wall/{name}"))
}

/// Runs `verifier ARGS` with optional stdin; returns (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    common::run_stdin(BIN, args, stdin)
}

// ---------------------------------------------------------------- independent brute force

type Slot = (u64, u64, char);
type Cell = (u64, u64);

struct Board {
    rows: u64,
    cols: u64,
    walls: HashSet<Slot>,
    pairs: Vec<(Cell, Cell)>,
}

fn cell_of(v: &Value) -> Cell {
    (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
}

/// Reads the JSON form (explicit pairs or a game), deriving a game's pairs from the rules.
fn board_from_json(v: &Value) -> Board {
    let walls = v["walls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w[0].as_u64().unwrap(),
                w[1].as_u64().unwrap(),
                w[2].as_str().unwrap().chars().next().unwrap(),
            )
        })
        .collect();
    let pairs = if let Some(ps) = v.get("pairs") {
        ps.as_array()
            .unwrap()
            .iter()
            .map(|p| (cell_of(&p[0]), cell_of(&p[1])))
            .collect()
    } else {
        let players = v["players"].as_array().unwrap();
        let n = players.len();
        match v["variant"].as_str().unwrap() {
            "classic" => players
                .iter()
                .map(|p| (cell_of(&p["cat"]), cell_of(&p["goal"])))
                .collect(),
            "cat-and-mouse" | "ring" => (0..n)
                .map(|i| {
                    (
                        cell_of(&players[i]["cat"]),
                        cell_of(&players[(i + 1) % n]["mouse"]),
                    )
                })
                .collect(),
            other => panic!("variant {other}"),
        }
    };
    Board {
        rows: v["rows"].as_u64().unwrap(),
        cols: v["cols"].as_u64().unwrap(),
        walls,
        pairs,
    }
}

fn all_slots(rows: u64, cols: u64) -> Vec<Slot> {
    let mut v = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + 1 < rows {
                v.push((r, c, 'D'));
            }
            if c + 1 < cols {
                v.push((r, c, 'R'));
            }
        }
    }
    v
}

/// BFS on the grid, stepping through a side only when its slot is neither walled nor `extra`.
fn connected(b: &Board, extra: &[Slot], s: Cell, t: Cell) -> bool {
    let closed = |x: Slot| b.walls.contains(&x) || extra.contains(&x);
    let mut seen = HashSet::from([s]);
    let mut q = VecDeque::from([s]);
    while let Some((r, c)) = q.pop_front() {
        if (r, c) == t {
            return true;
        }
        let mut next = Vec::new();
        if r > 0 && !closed((r - 1, c, 'D')) {
            next.push((r - 1, c));
        }
        if r + 1 < b.rows && !closed((r, c, 'D')) {
            next.push((r + 1, c));
        }
        if c > 0 && !closed((r, c - 1, 'R')) {
            next.push((r, c - 1));
        }
        if c + 1 < b.cols && !closed((r, c, 'R')) {
            next.push((r, c + 1));
        }
        for n in next {
            if seen.insert(n) {
                q.push_back(n);
            }
        }
    }
    false
}

fn all_connected(b: &Board, extra: &[Slot]) -> bool {
    b.pairs.iter().all(|&(s, t)| connected(b, extra, s, t))
}

fn slot_json(s: Slot) -> Value {
    json!([s.0, s.1, s.2.to_string()])
}

/// The expected `analyze --json` report. `all_slots` is already in (row, col, D < R) order.
fn brute_report(b: &Board) -> Value {
    let free: Vec<Slot> = all_slots(b.rows, b.cols)
        .into_iter()
        .filter(|s| !b.walls.contains(s))
        .collect();
    let valid = all_connected(b, &[]);
    let mut single = Vec::new();
    let mut pairs = Vec::new();
    if valid {
        let legal: Vec<bool> = free.iter().map(|&s| all_connected(b, &[s])).collect();
        single = free
            .iter()
            .zip(&legal)
            .filter(|(_, &l)| !l)
            .map(|(&s, _)| slot_json(s))
            .collect();
        for i in 0..free.len() {
            for j in i + 1..free.len() {
                if legal[i] && legal[j] && !all_connected(b, &[free[i], free[j]]) {
                    pairs.push(json!([slot_json(free[i]), slot_json(free[j])]));
                }
            }
        }
    }
    json!({
        "valid": valid,
        "free": free.into_iter().map(slot_json).collect::<Vec<_>>(),
        "illegal_single": single,
        "illegal_pairs": pairs,
    })
}

fn analyze_json(path: &str, stdin: Option<&[u8]>) -> Value {
    let (code, out, err) = run(&["wall", "analyze", path, "--json"], stdin);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().lines().count(), 1, "one JSON object on one line");
    serde_json::from_str(&out).unwrap()
}

fn game_json(path: &str) -> Value {
    let (code, out, err) = run(&["wall", "convert", path, "--to", "json"], None);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

// ---------------------------------------------------------------- tests

const PUZZLES: [&str; 5] = [
    "classic-11x11-opening.txt",
    "cat-and-mouse-8x8.txt",
    "ring-4p-9x9.json",
    "pairs-5x6.json",
    "invalid-boxed-mouse.txt",
];

#[test]
fn analyze_matches_brute_force_on_shipped_puzzles() {
    for name in PUZZLES {
        let path = puzzle(name);
        let got = analyze_json(&path, None);
        let want = brute_report(&board_from_json(&game_json(&path)));
        assert_eq!(got, want, "{name}");
        assert_eq!(got["valid"], json!(!name.starts_with("invalid")), "{name}");
    }
    // Facts checked by hand on the drawings.
    let cm = analyze_json(&puzzle("cat-and-mouse-8x8.txt"), None);
    assert_eq!(cm["illegal_single"], json!([[5, 7, "D"]]));
    let classic = analyze_json(&puzzle("classic-11x11-opening.txt"), None);
    assert!(classic["illegal_single"]
        .as_array()
        .unwrap()
        .contains(&json!([0, 0, "R"])));
    let inv = analyze_json(&puzzle("invalid-boxed-mouse.txt"), None);
    assert_eq!(inv["illegal_single"], json!([]));
    assert_eq!(inv["illegal_pairs"], json!([]));
}

fn random_pairs_json(rng: &mut ChaCha8Rng) -> Value {
    let rows = rng.gen_range(1..=6u64);
    let cols = rng.gen_range(2..=6u64);
    let density = rng.gen_range(0.0..0.45);
    let walls: Vec<Value> = all_slots(rows, cols)
        .into_iter()
        .filter(|_| rng.gen_bool(density))
        .map(slot_json)
        .collect();
    let k = rng.gen_range(0..=3);
    let pairs: Vec<Value> = (0..k)
        .map(|_| {
            json!([
                [rng.gen_range(0..rows), rng.gen_range(0..cols)],
                [rng.gen_range(0..rows), rng.gen_range(0..cols)]
            ])
        })
        .collect();
    json!({"rows": rows, "cols": cols, "walls": walls, "pairs": pairs})
}

#[test]
fn analyze_matches_brute_force_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut valid, mut invalid, mut with_pairs) = (0, 0, 0);
    for i in 0..80 {
        let pos = random_pairs_json(&mut rng);
        let text = pos.to_string();
        let got = if i % 2 == 0 {
            analyze_json("-", Some(text.as_bytes()))
        } else {
            let f = tmp(&format!("rand{i}.json"));
            std::fs::write(&f, &text).unwrap();
            analyze_json(&f, None)
        };
        let want = brute_report(&board_from_json(&pos));
        assert_eq!(got, want, "position {text}");
        if got["valid"] == json!(true) {
            valid += 1;
        } else {
            invalid += 1;
        }
        if !got["illegal_pairs"].as_array().unwrap().is_empty() {
            with_pairs += 1;
        }
        // `check` agrees with the verdict.
        let (code, _, _) = run(&["wall", "check", "-"], Some(text.as_bytes()));
        assert_eq!(code, if got["valid"] == json!(true) { 0 } else { 1 });
    }
    assert!(
        valid > 10 && invalid > 3 && with_pairs > 5,
        "{valid} {invalid} {with_pairs}"
    );
}

#[test]
fn check_exit_codes() {
    for name in &PUZZLES[..4] {
        let (code, out, err) = run(&["wall", "check", &puzzle(name)], None);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("valid"));
    }
    let (code, _, err) = run(&["wall", "check", &puzzle("invalid-boxed-mouse.txt")], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("player 1's cat at (0, 0) cannot reach player 2's mouse at (2, 2)"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1);
    // Stdin, ASCII.
    let text = std::fs::read(puzzle("cat-and-mouse-8x8.txt")).unwrap();
    assert_eq!(run(&["wall", "check", "-"], Some(&text)).0, 0);
    // Classic goal message.
    let boxed = r#"{"rows": 2, "cols": 2, "walls": [[0, 0, "R"], [0, 0, "D"]],
        "variant": "classic", "players": [{"cat": [0, 0], "goal": [1, 1]}]}"#;
    let (code, _, err) = run(&["wall", "check", "-"], Some(boxed.as_bytes()));
    assert_eq!(code, 1);
    assert!(
        err.contains("player 1's cat at (0, 0) cannot reach its goal at (1, 1)"),
        "{err}"
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&str] = &[
        "",
        "not a board",
        "{",
        r#"{"rows": 3, "cols": 3, "walls": [[0, 2, "R"]], "pairs": []}"#,
        r#"{"rows": 3, "cols": 3, "walls": [[0, 0, "R"], [0, 0, "R"]], "pairs": []}"#,
        r#"{"rows": 3, "cols": 3, "pairs": [[[0, 0], [5, 5]]]}"#,
        r#"{"rows": 5000, "cols": 5000, "pairs": []}"#,
        // Pieces may share a cell, but a `stack:` line must name a `*` cell.
        "variant: classic\n+---+---+\n| C1  G1|\n+---+---+\nstack: 0,0 C1 G1\n",
        "variant: classic\n+---+---+\n| C1  ? |\n+---+---+\n",
    ];
    for (i, text) in cases.iter().enumerate() {
        for sub in ["check", "analyze", "render"] {
            let (code, out, err) = run(&["wall", sub, "-"], Some(text.as_bytes()));
            assert_eq!(code, 2, "case {i} ({sub}): {text}\n{err}");
            assert!(out.is_empty());
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.starts_with("verifier: error: <stdin>:"), "{err}");
        }
    }
    let (code, _, err) = run(&["wall", "check", "/nonexistent/position.txt"], None);
    assert_eq!(code, 2);
    assert!(err.contains("cannot open"));
    let (code, _, _) = run(&["wall", "analyze"], None);
    assert_eq!(code, 2, "usage error");
    let (code, _, _) = run(&["wall", "check", "-"], Some(&[0xff, 0xfe, 0xfd]));
    assert_eq!(code, 2);
}

#[test]
fn analyze_human_summary() {
    let (code, out, _) = run(&["wall", "analyze", &puzzle("cat-and-mouse-8x8.txt")], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("valid: every attached pair is connected"),
        "{out}"
    );
    assert!(
        out.contains("1 illegal single walls") && out.contains("[5, 7, \"D\"]"),
        "{out}"
    );
    let (code, out, _) = run(
        &["wall", "analyze", &puzzle("invalid-boxed-mouse.txt")],
        None,
    );
    assert_eq!(code, 0, "analyze reports, it does not reject");
    assert!(
        out.contains("INVALID") && out.contains("cannot reach player 2's mouse"),
        "{out}"
    );
}

/// Minimal well-formedness check: every opened tag is closed in order.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("unclosed tag") + i;
        let tag = &rest[i + 1..j];
        rest = &rest[j + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        if tag.starts_with('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.as_str()),
                "mismatched </{name}>"
            );
        } else {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert!(
        svg.trim_start().starts_with("<?xml")
            && svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"")
    );
}

fn group<'a>(svg: &'a str, class: &str) -> &'a str {
    svg.split(&format!("class=\"{class}\""))
        .nth(1)
        .map(|s| s.split("</g>").next().unwrap())
        .unwrap_or("")
}

#[test]
fn render_terminal_and_svg() {
    let path = puzzle("ring-4p-9x9.json");
    let (code, out, err) = run(&["wall", "render", &path], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with(['│', '┌', '├', '└', '┤']))
            .count(),
        19
    );
    for m in ["C1", "M1", "C2", "M2", "C3", "M3", "C4", "M4"] {
        assert_eq!(out.matches(m).count(), 1, "{m} in\n{out}");
    }
    assert!(out.contains("ring with 4 players"));

    let svg_path = tmp("ring.svg");
    // writing a file prints nothing else unless asked (issue 21): --text adds the drawing
    let (code, out2, _) = run(&["wall", "render", &path, "--svg", &svg_path], None);
    assert_eq!(code, 0);
    assert_eq!(
        out2, "",
        "the terminal drawing is not printed with --svg FILE"
    );
    let (code, out2, _) = run(
        &["wall", "render", &path, "--svg", &svg_path, "--text"],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(out2, out, "--text prints the terminal drawing");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_well_formed(&svg);
    let pos = game_json(&path);
    assert_eq!(
        group(&svg, "walls").matches("<line").count(),
        pos["walls"].as_array().unwrap().len()
    );
    assert_eq!(svg.matches("<circle").count(), 8);
    assert!(group(&svg, "illegal").is_empty());

    // --svg - : only the SVG on stdout; --illegal draws one red line per illegal single wall.
    let cm = puzzle("classic-11x11-opening.txt");
    let (code, svg, _) = run(&["wall", "render", &cm, "--svg", "-", "--illegal"], None);
    assert_eq!(code, 0);
    assert_well_formed(&svg);
    let illegal = analyze_json(&cm, None)["illegal_single"]
        .as_array()
        .unwrap()
        .len();
    assert!(illegal > 0);
    assert_eq!(group(&svg, "illegal").matches("<line").count(), illegal);
    let (_, term, _) = run(&["wall", "render", &cm, "--illegal"], None);
    assert_eq!(
        term.matches('×').count(),
        illegal + 1,
        "one per slot plus the legend"
    );
}

#[test]
fn convert_round_trips_through_the_cli() {
    for name in PUZZLES {
        let path = puzzle(name);
        let (c1, ascii, _) = run(&["wall", "convert", &path, "--to", "ascii"], None);
        let (c2, json1, _) = run(
            &["wall", "convert", "-", "--to", "json"],
            Some(ascii.as_bytes()),
        );
        let (c3, ascii2, _) = run(
            &["wall", "convert", "-", "--to", "ascii"],
            Some(json1.as_bytes()),
        );
        assert_eq!((c1, c2, c3), (0, 0, 0));
        assert_eq!(ascii, ascii2, "{name}");
        // The explicit-pairs form analyses identically.
        let (_, pj, _) = run(&["wall", "convert", &path, "--to", "pairs-json"], None);
        let v: Value = serde_json::from_str(&pj).unwrap();
        assert!(v.get("pairs").is_some());
        assert_eq!(
            analyze_json("-", Some(pj.as_bytes())),
            analyze_json(&path, None),
            "{name}"
        );
    }
}

/// A single Hamiltonian cycle through a 100×100 board: s and t on opposite sides make every
/// pair of one slot from each half illegal, 25 million pairs. `analyze` must refuse to list
/// them (bad input, exit 2) instead of running out of memory; `check` and `render --illegal`
/// still work.
#[test]
fn quadratically_many_illegal_pairs_are_refused_not_listed() {
    let n = 100usize;
    // the cycle: row 0 left to right, snake through columns 1.. in rows 1..n, back up column 0
    let mut cells = vec![];
    for c in 0..n {
        cells.push((0, c));
    }
    for r in 1..n {
        if r % 2 == 1 {
            for c in (1..n).rev() {
                cells.push((r, c));
            }
        } else {
            for c in 1..n {
                cells.push((r, c));
            }
        }
    }
    for r in (1..n).rev() {
        cells.push((r, 0));
    }
    let mut open = std::collections::HashSet::new();
    for i in 0..cells.len() {
        let (a, b) = (cells[i], cells[(i + 1) % cells.len()]);
        open.insert((a.min(b), a.max(b)));
    }
    let mut walls = vec![];
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n && !open.contains(&((r, c), (r, c + 1))) {
                walls.push(format!("[{r},{c},\"R\"]"));
            }
            if r + 1 < n && !open.contains(&((r, c), (r + 1, c))) {
                walls.push(format!("[{r},{c},\"D\"]"));
            }
        }
    }
    let json = format!(
        "{{\"rows\":{n},\"cols\":{n},\"walls\":[{}],\"pairs\":[[[0,0],[{},{}]]]}}",
        walls.join(","),
        cells[cells.len() / 2].0,
        cells[cells.len() / 2].1
    );
    let path = std::env::temp_dir().join(format!("zkgames-cycle-{}.json", std::process::id()));
    std::fs::write(&path, json).unwrap();
    let path = path.to_string_lossy().into_owned();
    let v = env!("CARGO_BIN_EXE_verifier");
    let o = std::process::Command::new(v)
        .args(["wall", "analyze", &path, "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("illegal wall pairs"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let o = std::process::Command::new(v)
        .args(["wall", "check", &path])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let o = std::process::Command::new(v)
        .args(["wall", "render", &path, "--illegal"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
}

/// `analyze` bounds its work (distinct pairs × cells) before building anything: 100 pairs
/// on a 1000×1000 board used to take 37 s and 4.7 GB. Repeated pairs and one-cell pairs
/// cost nothing and do not count.
#[test]
fn analyze_refuses_too_much_work_up_front() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let pairs: Vec<Value> = (0..100)
        .map(|_| {
            json!([
                [rng.gen_range(0..1000), rng.gen_range(0..1000)],
                [rng.gen_range(0..1000), rng.gen_range(0..1000)]
            ])
        })
        .collect();
    let big = json!({"rows": 1000, "cols": 1000, "walls": [], "pairs": pairs}).to_string();
    let (c, out, err) = run(&["wall", "analyze", "-"], Some(big.as_bytes()));
    assert_eq!(c, 2, "{out}{err}");
    assert!(
        err.contains("pair-cells") && err.contains("100 distinct pairs"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // `check` answers the same position
    let (c, _, err) = run(&["wall", "check", "-"], Some(big.as_bytes()));
    assert_eq!(c, 0, "{err}");
    // 2,000 copies of one pair (both orders) and one-cell pairs on 100×100: one pair of work
    let mut pairs = Vec::new();
    for i in 0..1000 {
        pairs.push(json!([[0, 0], [99, 99]]));
        pairs.push(json!([[99, 99], [0, 0]]));
        pairs.push(json!([[i % 100, 3], [i % 100, 3]]));
    }
    let dup = json!({"rows": 100, "cols": 100, "walls": [[0, 0, "R"]], "pairs": pairs}).to_string();
    let (c, out, err) = run(&["wall", "analyze", "--json", "-"], Some(dup.as_bytes()));
    assert_eq!(c, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["valid"], true);
    // the wall right of (0, 0) leaves it one exit, which a single wall would cut
    assert_eq!(v["illegal_single"], json!([[0, 0, "D"]]));
}
