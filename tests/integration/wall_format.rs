//! Wall Game position formats: round trips, graph construction against a direct neighbour
//! computation, rejection of bad input, and fuzzing of both parsers (no input may panic).

use std::collections::{BTreeSet, HashSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zkgames::wall::board::{Cell, Dir, Player, Position, Setup, Variant, Wall};
use zkgames::wall::format::{
    parse, parse_ascii, parse_file, parse_json, to_ascii, to_ascii_file, to_json, to_json_file,
    to_pairs_json,
};

fn rand_cell(rng: &mut ChaCha8Rng, rows: u32, cols: u32) -> Cell {
    (rng.gen_range(0..rows), rng.gen_range(0..cols))
}

/// A random well-formed position: random size, walls on each slot with a random density,
/// and either explicit pairs or a game of a random variant.
fn random_position(rng: &mut ChaCha8Rng) -> Position {
    let rows = rng.gen_range(1..=9u32);
    let cols = rng.gen_range(1..=9u32);
    let density = rng.gen_range(0.0..0.6);
    let mut walls = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + 1 < rows && rng.gen_bool(density) {
                walls.push(Wall::new(r, c, Dir::D));
            }
            if c + 1 < cols && rng.gen_bool(density) {
                walls.push(Wall::new(r, c, Dir::R));
            }
        }
    }
    // Shuffle the wall order: the constructor must sort.
    for i in (1..walls.len()).rev() {
        let j = rng.gen_range(0..=i);
        walls.swap(i, j);
    }
    let cells = (rows * cols) as usize;
    let choice = rng.gen_range(0..4);
    let setup = match choice {
        1 if cells >= 2 => {
            let n = rng.gen_range(1..=4usize.min(cells / 2));
            let marks = distinct_cells(rng, rows, cols, 2 * n);
            Setup::Game {
                variant: Variant::Classic,
                players: (0..n)
                    .map(|i| Player {
                        cat: marks[2 * i],
                        mouse: None,
                        goal: Some(marks[2 * i + 1]),
                    })
                    .collect(),
            }
        }
        2 if cells >= 4 => game_with_mice(rng, rows, cols, Variant::CatAndMouse, 2),
        3 if cells >= 8 => {
            let n = rng.gen_range(3..=4);
            game_with_mice(rng, rows, cols, Variant::Ring, n)
        }
        _ => {
            let k = rng.gen_range(0..5);
            Setup::Pairs(
                (0..k)
                    .map(|_| (rand_cell(rng, rows, cols), rand_cell(rng, rows, cols)))
                    .collect(),
            )
        }
    };
    Position::new(rows, cols, walls, setup).expect("generated position is well formed")
}

/// `k` random cells: distinct half of the time, otherwise drawn from a few cells so that
/// pieces often share one (the game allows stacking).
fn distinct_cells(rng: &mut ChaCha8Rng, rows: u32, cols: u32, k: usize) -> Vec<Cell> {
    if rng.gen_bool(0.5) {
        let few: Vec<Cell> = (0..rng.gen_range(1..=3))
            .map(|_| rand_cell(rng, rows, cols))
            .collect();
        return (0..k).map(|_| few[rng.gen_range(0..few.len())]).collect();
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < k {
        let c = rand_cell(rng, rows, cols);
        if seen.insert(c) {
            out.push(c);
        }
    }
    out
}

fn game_with_mice(rng: &mut ChaCha8Rng, rows: u32, cols: u32, variant: Variant, n: usize) -> Setup {
    let marks = distinct_cells(rng, rows, cols, 2 * n);
    Setup::Game {
        variant,
        players: (0..n)
            .map(|i| Player {
                cat: marks[2 * i],
                mouse: Some(marks[2 * i + 1]),
                goal: None,
            })
            .collect(),
    }
}

#[test]
fn round_trip_ascii_and_json() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut stacked = 0;
    for _ in 0..2000 {
        let p = random_position(&mut rng);
        let a = to_ascii(&p);
        assert_eq!(parse(a.as_bytes()).unwrap(), p, "ASCII round trip of\n{a}");
        assert_eq!(parse_ascii(&a).unwrap(), p);
        let j = to_json(&p);
        assert_eq!(parse(j.as_bytes()).unwrap(), p, "JSON round trip of\n{j}");
        assert_eq!(parse_json(&j).unwrap(), p);
        // The explicit-pairs form keeps the walls and the node pairs.
        let q = parse(to_pairs_json(&p).as_bytes()).unwrap();
        assert_eq!(q.walls(), p.walls());
        assert_eq!(q.node_pairs(), p.node_pairs());
        assert!(matches!(q.setup(), Setup::Pairs(_)));
        // Printing is deterministic and idempotent.
        assert_eq!(to_ascii(&parse(a.as_bytes()).unwrap()), a);
        assert_eq!(to_json(&parse(j.as_bytes()).unwrap()), j);
        stacked += a.contains("stack:") as usize;
        // Whose move it is survives both formats (games only).
        if let Setup::Game { players, .. } = p.setup() {
            let k = Some(rng.gen_range(0..players.len()));
            for text in [to_ascii_file(&p, k), to_json_file(&p, k)] {
                let f = parse_file(text.as_bytes()).unwrap();
                assert_eq!((f.position, f.to_move), (p.clone(), k), "{text}");
            }
            assert_eq!(parse_file(a.as_bytes()).unwrap().to_move, None);
        }
    }
    // Shared cells (`*` and `stack:` lines) are exercised.
    assert!(stacked > 100, "{stacked}");
}

/// The neighbours of a cell computed directly from the grid and the wall set.
fn direct_neighbours(p: &Position, r: u32, c: u32, walls: &HashSet<Wall>) -> BTreeSet<u32> {
    let cols = p.cols();
    let mut out = BTreeSet::new();
    if r > 0 && !walls.contains(&Wall::new(r - 1, c, Dir::D)) {
        out.insert((r - 1) * cols + c);
    }
    if r + 1 < p.rows() && !walls.contains(&Wall::new(r, c, Dir::D)) {
        out.insert((r + 1) * cols + c);
    }
    if c > 0 && !walls.contains(&Wall::new(r, c - 1, Dir::R)) {
        out.insert(r * cols + c - 1);
    }
    if c + 1 < cols && !walls.contains(&Wall::new(r, c, Dir::R)) {
        out.insert(r * cols + c + 1);
    }
    out
}

#[test]
fn graph_matches_direct_neighbours() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..1000 {
        let p = random_position(&mut rng);
        let walls: HashSet<Wall> = p.walls().iter().copied().collect();
        let bg = p.graph();
        let g = &bg.graph;
        assert_eq!(g.n(), (p.rows() * p.cols()) as usize);
        let slots = (p.rows() * (p.cols() - 1) + (p.rows() - 1) * p.cols()) as usize;
        assert_eq!(g.m(), slots - walls.len());
        for r in 0..p.rows() {
            for c in 0..p.cols() {
                let v = r * p.cols() + c;
                let got: BTreeSet<u32> = g.neighbors(v).iter().map(|&(w, _)| w).collect();
                assert_eq!(got.len(), g.neighbors(v).len(), "no parallel edges");
                assert_eq!(got, direct_neighbours(&p, r, c, &walls));
            }
        }
        // Two-way map between edge ids and slots, in increasing wall order.
        for e in 0..g.m() as u32 {
            let w = bg.wall_of(e);
            assert!(!walls.contains(&w));
            assert_eq!(bg.edge_of(w), Some(e));
            let (a, b) = w.cells();
            assert_eq!(g.edge(e), (p.node(a), p.node(b)));
            if e > 0 {
                assert!(bg.wall_of(e - 1) < w);
            }
        }
        for &w in p.walls() {
            assert_eq!(bg.edge_of(w), None);
        }
        // Node pairs use r * cols + c.
        for (ap, np) in p.attached_pairs().iter().zip(p.node_pairs()) {
            assert_eq!(np, (ap.a.0 * p.cols() + ap.a.1, ap.b.0 * p.cols() + ap.b.1));
        }
    }
}

fn err(text: &str) -> String {
    let e = parse(text.as_bytes()).expect_err(text).to_string();
    assert!(!e.contains('\n'), "one-line error: {e}");
    e
}

#[test]
fn bad_json_is_rejected_with_clear_errors() {
    let ok = r#"{"rows": 3, "cols": 3, "walls": [[0, 0, "R"]], "pairs": [[[0, 0], [2, 2]]]}"#;
    assert!(parse(ok.as_bytes()).is_ok());
    let cases: &[(&str, &str)] = &[
        (
            r#"{"rows": 3, "cols": 3, "walls": [[0, 2, "R"]], "pairs": []}"#,
            "off the board",
        ),
        (
            r#"{"rows": 3, "cols": 3, "walls": [[2, 0, "D"]], "pairs": []}"#,
            "off the board",
        ),
        (
            r#"{"rows": 3, "cols": 3, "walls": [[9, 0, "D"]], "pairs": []}"#,
            "off the board",
        ),
        (
            r#"{"rows": 3, "cols": 3, "walls": [[99999999999, 0, "D"]], "pairs": []}"#,
            "off the board",
        ),
        (
            r#"{"rows": 3, "cols": 3, "walls": [[0, 0, "X"]], "pairs": []}"#,
            "direction",
        ),
        (
            r#"{"rows": 3, "cols": 3, "walls": [[0, 0, "R"], [0, 0, "R"]], "pairs": []}"#,
            "duplicate",
        ),
        (
            r#"{"rows": 3, "cols": 3, "walls": [[-1, 0, "R"]], "pairs": []}"#,
            "malformed",
        ),
        (
            r#"{"rows": 3, "cols": 3, "pairs": [[[0, 0], [3, 0]]]}"#,
            "off the board",
        ),
        (r#"{"rows": 0, "cols": 3, "pairs": []}"#, "rows"),
        (r#"{"rows": 1001, "cols": 3, "pairs": []}"#, "rows"),
        (r#"{"rows": 1000, "cols": 1001, "pairs": []}"#, "cols"),
        (r#"{"rows": 1e12, "cols": 3, "pairs": []}"#, "malformed"),
        (
            r#"{"rows": 18446744073709551615, "cols": 3, "pairs": []}"#,
            "rows",
        ),
        (
            r#"{"rows": 3, "cols": 3, "pairs": [], "extra": 1}"#,
            "unknown field",
        ),
        (r#"{"rows": 3, "cols": 3}"#, "missing"),
        (
            r#"{"rows": 3, "cols": 3, "pairs": [], "variant": "ring"}"#,
            "not both",
        ),
        (r#"{"rows": 3, "cols": 3, "variant": "ring"}"#, "without"),
        (
            r#"{"rows": 3, "cols": 3, "variant": "chess", "players": []}"#,
            "unknown variant",
        ),
        (
            r#"{"rows": 3, "cols": 3, "variant": "classic", "players": [{"cat": [0, 0], "goal": [0, 0]}], "to_move": 2}"#,
            "to-move 2",
        ),
        (
            r#"{"rows": 3, "cols": 3, "pairs": [], "to_move": 1}"#,
            "only makes sense for a game",
        ),
        (
            r#"{"rows": 3, "cols": 3, "variant": "classic", "players": [{"cat": [0, 0], "goal": [3, 3]}]}"#,
            "off the board",
        ),
        (
            r#"{"rows": 3, "cols": 3, "variant": "classic", "players": [{"cat": [0, 0]}]}"#,
            "no goal",
        ),
        (
            r#"{"rows": 3, "cols": 3, "variant": "cat-and-mouse", "players": [{"cat": [0, 0], "mouse": [1, 1]}]}"#,
            "exactly 2",
        ),
        (
            r#"{"rows": 3, "cols": 3, "variant": "ring", "players": [{"cat": [0, 0], "mouse": [0, 1]}, {"cat": [0, 2], "mouse": [1, 0]}]}"#,
            "3 or 4",
        ),
        (
            r#"{"rows": 3, "cols": 3, "pairs": [[[0, 0], [1, 1]]"#,
            "malformed",
        ),
        (
            r#"{"rows": 3, "cols": 3, "pairs": [[[0, 0], [1, 1]]]} trailing"#,
            "malformed",
        ),
    ];
    for (text, want) in cases {
        let e = err(text);
        assert!(e.contains(want), "{text}\n  -> {e}\n  (wanted {want:?})");
    }
}

#[test]
fn bad_ascii_is_rejected_with_clear_errors() {
    let ok = "variant: classic\n+---+---+\n| C1  . |\n+   +---+\n| .   G1|\n+---+---+\n";
    assert!(parse(ok.as_bytes()).is_ok());
    let cases: &[(&str, &str)] = &[
        ("+---+---+\n| C1  . |\n+   +---+\n| .   G1|\n+---+---+\n", "no `variant:`"),
        ("variant: classic\n+---+---+\n| C1  . |\n+   +---+\n| .   .  \n+---+---+\n", "expected 9"),
        ("variant: classic\n+---+---+\n| C1  . |\n+   +-- +\n| .   G1|\n+---+---+\n", "line 4"),
        ("variant: classic\n+---+---+\n| C1  . |\n+   +---+\n| .   G1 \n+---+---+\n", "line 5"),
        ("variant: classic\n+---+   +\n| C1  . |\n+   +---+\n| .   G1|\n+---+---+\n", "border"),
        ("variant: classic\n+---+---+\n| C1  . |\n+   +---+\n  .   G1|\n+---+---+\n", "line 5"),
        ("variant: classic\n+---+---+\n| C1  C1|\n+   +---+\n| .   G1|\n+---+---+\n", "second C1"),
        ("variant: classic\n+---+---+\n| C1  M1|\n+   +---+\n| .   G1|\n+---+---+\n", "mouse"),
        ("variant: classic\n+---+---+\n| C5  . |\n+   +---+\n| .   G1|\n+---+---+\n", "1 to 4"),
        ("variant: classic\n+---+---+\n| G2  . |\n+   +---+\n| C1  G1|\n+---+---+\n", "player 2 has no cat"),
        ("variant: classic\n+---+---+\n| C1  x |\n+   +---+\n| .   G1|\n+---+---+\n", "unknown cell content"),
        ("variant: classic\nvariant: ring\n+---+\n| . |\n+---+\n", "second `variant:`"),
        ("variant: classic\n+---+---+\n| C1  . |\n+   +---+\n| .   G1|\n+---+---+\npair: 0,0 1,1\n", "cannot be combined"),
        ("+---+---+\n| .   . |\n+---+---+\npair: 0,0 1,1\n", "off the board"),
        ("+---+---+\n| .   . |\n+---+---+\npair: 0,0\n", "pair:"),
        ("+---+---+\n| .   . |\n+---+---+\npair: 0,0 a,1\n", "bad coordinate"),
        ("+---+---+\n| .   . |\n+---+---+\nsize: 3\n", "unknown key"),
        ("+---+---+\n| .   . |\n+---+---+\nhello\n", "expected the board"),
        ("+---+---+\n| .   . |\n+---+---+\n\n+---+\n| . |\n+---+\n", "second board"),
        ("+---+---+\n| .   . |\n", "odd number"),
        ("+--+\n| . |\n+---+\n", "top border"),
        ("# nothing\n", "no board"),
        ("", "no board"),
        ("+---+\n| é |\n+---+\n", "non-ASCII"),
        ("variant: classic\n+---+---+\n| *   . |\n+---+---+\n", "no `stack:` line"),
        ("variant: classic\n+---+---+\n| C1  G1|\n+---+---+\nstack: 0,0 C1 G1\n", "not marked `*`"),
        ("variant: classic\n+---+---+\n| *   . |\n+---+---+\nstack: 0,0 C1\n", "at least two"),
        ("variant: classic\n+---+---+\n| *   G1|\n+---+---+\nstack: 0,0 C1 G1\n", "second G1"),
        ("variant: classic\n+---+---+\n| *   . |\n+---+---+\nstack: 0,0 C1 G1\nstack: 0,0 C1 G1\n", "second `stack:`"),
        ("variant: classic\n+---+---+\n| *   . |\n+---+---+\nstack: 0,0 C1 X1\n", "unknown cell content"),
        ("variant: classic\nto-move: 2\n+---+---+\n| C1  G1|\n+---+---+\n", "to-move 2"),
        ("variant: classic\nto-move: x\n+---+---+\n| C1  G1|\n+---+---+\n", "player number"),
        ("variant: classic\nto-move: 1\nto-move: 1\n+---+---+\n| C1  G1|\n+---+---+\n", "second `to-move:`"),
    ];
    for (text, want) in cases {
        let e = err(text);
        assert!(e.contains(want), "{text}\n  -> {e}\n  (wanted {want:?})");
    }
    assert!(parse(&[0xff, 0xfe, 0x00])
        .unwrap_err()
        .to_string()
        .contains("UTF-8"));
}

#[test]
fn absurd_sizes_are_rejected_before_allocating() {
    // A 1001-column ASCII board (only the top line is needed to reject it).
    let top = format!("+{}\n| . |\n+---+\n", "---+".repeat(1001));
    assert!(err(&top).contains("too large") || err(&top).contains("characters"));
    let tall = "+---+\n| . |\n".repeat(1001) + "+---+\n";
    assert!(err(&tall).contains("too large"));
    // 1000 x 1000 is the largest board; it parses and its validity check is linear.
    let big = r#"{"rows": 1000, "cols": 1000, "walls": [[0, 0, "R"], [0, 0, "D"]], "pairs": [[[0, 0], [999, 999]]]}"#;
    let p = parse(big.as_bytes()).unwrap();
    assert_eq!(p.graph().graph.m(), 2 * 1000 * 999 - 2);
    assert!(!p.is_valid());
    let oversize = vec![b' '; (zkgames::wall::format::MAX_FILE + 1) as usize];
    assert!(err(std::str::from_utf8(&oversize).unwrap()).contains("limit"));
}

/// Feeds the parser; any result is fine, a panic is not. A successful parse must round-trip.
fn feed(bytes: &[u8]) {
    if let Ok(p) = parse(bytes) {
        assert_eq!(parse(to_ascii(&p).as_bytes()).unwrap(), p);
        assert_eq!(parse(to_json(&p).as_bytes()).unwrap(), p);
    }
}

#[test]
fn fuzz_random_bytes_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let alphabet: &[u8] = b"+-| .CMG12345\n\r{}[]\",:0123456789RDrowscolwalpirsvantceyg#()e-";
    for i in 0..20_000 {
        let len = rng.gen_range(0..200);
        let bytes: Vec<u8> = if i % 2 == 0 {
            (0..len).map(|_| rng.gen()).collect()
        } else {
            (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        };
        feed(&bytes);
    }
}

fn mutate(rng: &mut ChaCha8Rng, src: &[u8]) -> Vec<u8> {
    let mut b = src.to_vec();
    let n = rng.gen_range(1..=4);
    let pool: &[u8] = b"+-| .CMG1234\n{}[]\",:0123456789RD9";
    for _ in 0..n {
        if b.is_empty() {
            b.push(pool[rng.gen_range(0..pool.len())]);
            continue;
        }
        let i = rng.gen_range(0..b.len());
        match rng.gen_range(0..6) {
            0 => b[i] = rng.gen(),
            1 => b[i] = pool[rng.gen_range(0..pool.len())],
            2 => {
                b.remove(i);
            }
            3 => b.insert(i, pool[rng.gen_range(0..pool.len())]),
            4 => {
                // Duplicate or drop a chunk (e.g. a board line).
                let j = rng.gen_range(i..=b.len().min(i + 12));
                let chunk = b[i..j].to_vec();
                if rng.gen_bool(0.5) {
                    b.splice(i..i, chunk);
                } else {
                    b.drain(i..j);
                }
            }
            _ => b.truncate(i),
        }
    }
    b
}

#[test]
fn fuzz_mutated_valid_files_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut accepted = 0;
    for _ in 0..400 {
        let p = random_position(&mut rng);
        for text in [to_ascii(&p), to_json(&p), to_pairs_json(&p)] {
            for _ in 0..10 {
                let m = mutate(&mut rng, text.as_bytes());
                if parse(&m).is_ok() {
                    accepted += 1;
                }
                feed(&m);
            }
        }
    }
    // Some mutations (e.g. toggling a wall) keep the file valid; the test must exercise both paths.
    assert!(accepted > 0);
}

#[test]
fn shipped_puzzles_parse_and_round_trip() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/wall");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        // Game records stand for their final position (tests/integration/wall_game.rs covers them).
        let p = match zkgames::wall::record::parse_source(&bytes) {
            Ok(src) => src.position().clone(),
            Err(e) => panic!("{path:?}: {e}"),
        };
        assert_eq!(parse(to_ascii(&p).as_bytes()).unwrap(), p);
        assert_eq!(parse(to_json(&p).as_bytes()).unwrap(), p);
        n += 1;
    }
    assert!(n >= 5);
    let p = parse(&std::fs::read(format!("{dir}/classic-11x11-opening.txt")).unwrap()).unwrap();
    assert_eq!((p.rows(), p.cols()), (11, 11));
    assert_eq!(p.node_pairs(), vec![(0, 120), (10, 110)]);
}
