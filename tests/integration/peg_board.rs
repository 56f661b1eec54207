//! Boards, the catalog, move notation and the puzzle loader.

use crate::common;

use zkgames::peg::board::{Geometry, Puzzle, MAX_BOARD_DIM};
use zkgames::peg::instance::{format_bits, tee, to_raw, Goal, Matrix};
use zkgames::peg::solver::{solve, SolveOptions, SolveOutcome};
use zkgames::Error;

fn catalog() -> Vec<(String, Puzzle)> {
    let mut v: Vec<_> = std::fs::read_dir("puzzles/peg")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let s = p.to_str().unwrap().to_string();
            let puzzle = Puzzle::load(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
            (s, puzzle)
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn bad(text: &str) -> String {
    match Puzzle::parse(text) {
        Err(Error::BadInput(m)) => m,
        Err(e) => panic!("wrong error kind {e:?}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

fn rows(z: &[[u8; 5]]) -> Matrix {
    z.iter()
        .map(|r| r.iter().map(|&x| x == 1).collect())
        .collect()
}

#[test]
fn tee_is_exactly_example_5_and_7() {
    let p = Puzzle::load("puzzles/peg/tee.txt").unwrap();
    assert_eq!(p.name(), "tee");
    assert!(p.has_board());
    assert_eq!(p.instance(), &tee());
    let ex7 = rows(&[
        [1, 1, 0, 1, 1],
        [0, 0, 1, 1, 1],
        [0, 1, 1, 0, 0],
        [1, 0, 0, 0, 0],
    ]);
    assert_eq!(p.parse_solution("a1-c1 b3-b1 c1-a1").unwrap(), ex7);
    assert_eq!(
        p.parse_solution("a1-c1, b3-b1-?".replace("-?", "\nc1-a1").as_str())
            .unwrap(),
        ex7
    );
    assert_eq!(p.format_solution(&ex7), "a1-c1\nb3-b1\nc1-a1\n");
    let matrix: String = ex7.iter().map(|r| format_bits(r) + "\n").collect();
    assert_eq!(p.parse_solution(&matrix).unwrap(), ex7);
    assert_eq!(p.render(&ex7[0]), "o o .\n  o\n  o\n");
    assert_eq!(p.vertex_name(3), "b2");
}

#[test]
fn english_board_shape() {
    let p = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let i = p.instance();
    assert_eq!((i.n(), i.t(), i.s()), (33, 38, 32));
    assert_eq!(p.vertex_name(16), "d4");
    assert!(!i.first()[16] && i.last().unwrap()[16]);
    assert_eq!(i.last().unwrap().iter().filter(|&&b| b).count(), 1);
    assert_eq!(p.symmetries().len(), 8);
    assert_eq!(p.geometry(), Some(Geometry::Square));
    // the first triplets in reading order: c1-d1-e1 (right), then c1-c2-c3 (down)
    assert_eq!(&i.triplets()[..2], &[[0, 1, 2], [0, 3, 8]]);
}

#[test]
fn every_catalog_puzzle_parses_solves_and_round_trips() {
    let cat = catalog();
    let names: Vec<&str> = cat.iter().map(|(_, p)| p.name()).collect();
    for want in [
        "tee",
        "english",
        "european",
        "wiegleb",
        "diamond",
        "triangle15",
    ] {
        assert!(names.contains(&want), "missing {want} in {names:?}");
    }
    for (path, p) in &cat {
        let i = p.instance();
        // the instance re-validates, and the board is symmetric under its own symmetries
        assert_eq!(
            zkgames::peg::instance::parse_raw(&to_raw(i)).unwrap(),
            *i,
            "{path}"
        );
        // every board symmetry maps moves to moves (middles to middles)
        let key = |t: [u32; 3]| (t[1], t[0].min(t[2]), t[0].max(t[2]));
        let mut moves: Vec<_> = i.triplets().iter().map(|t| key(*t)).collect();
        moves.sort();
        for s in p.symmetries() {
            let mut img: Vec<_> = i
                .triplets()
                .iter()
                .map(|t| key(t.map(|v| s[v as usize])))
                .collect();
            img.sort();
            assert_eq!(moves, img, "{path}: symmetry {s:?}");
        }
        let opts = SolveOptions {
            node_budget: 20_000_000,
            progress: false,
            symmetries: p.symmetries(),
        };
        let z = match solve(i, &opts) {
            SolveOutcome::Solved(z) => z,
            o => panic!("{path}: {o:?}"),
        };
        i.check_solution(&z).unwrap();
        let text = p.format_solution(&z);
        assert_eq!(text.lines().count(), i.s() - 1);
        assert_eq!(p.parse_solution(&text).unwrap(), z, "{path}");
        // the same moves on one line, comma separated, upper case
        assert_eq!(
            p.parse_solution(&text.replace('\n', ", ").to_uppercase())
                .unwrap(),
            z
        );
        // rendering the start and the finish gives back the same puzzle
        let mut file = format!(
            "geometry: {}\nstart:\n{}",
            p.geometry().unwrap().keyword(),
            p.render(i.first())
        );
        match i.goal() {
            Goal::Position(l) => file += &format!("finish:\n{}", p.render(l)),
            Goal::PegCount(c) => file += &format!("finish-pegs: {c}\n"),
        }
        assert_eq!(Puzzle::parse(&file).unwrap().instance(), i, "{path}");
    }
}

#[test]
fn triangle_and_diagonal_geometries() {
    let t = Puzzle::load("puzzles/peg/triangle15.txt").unwrap();
    assert_eq!((t.instance().n(), t.instance().t()), (15, 18));
    assert_eq!(t.symmetries().len(), 6);
    assert_eq!(t.instance().goal(), &Goal::PegCount(1));
    let names: Vec<String> = (0..15).map(|v| t.vertex_name(v)).collect();
    assert_eq!(&names[..6], &["a1", "a2", "b2", "a3", "b3", "c3"]);
    // both diagonals into the apex, and along a row
    assert!(t
        .parse_solution("a3-a1")
        .unwrap_err()
        .to_string()
        .contains("moves"));
    assert!(t
        .parse_solution("c3-a1")
        .unwrap_err()
        .to_string()
        .contains("moves"));
    assert!(t
        .parse_solution("a3-c3")
        .unwrap_err()
        .to_string()
        .contains("c3 is not empty"));
    // a left-aligned triangle is not on the lattice
    let e = bad("geometry: triangle\nstart:\n.\noo\nooo\nfinish-pegs: 1\n");
    assert!(e.contains("lattice"), "{e}");
    // 3x3 with diagonals: 3 rows + 3 columns + 2 diagonals
    let d =
        Puzzle::parse("geometry: square-diagonal\nstart:\no o o\no o o\no o .\nfinish-pegs: 1\n")
            .unwrap();
    assert_eq!(d.instance().t(), 8);
    assert_eq!(d.symmetries().len(), 8);
    d.parse_solution("a1-c3").unwrap_err();
    let e = d.parse_solution("a1-c3 a3-c1").unwrap_err().to_string();
    assert!(
        e.contains("move 2 (a3-c1): no peg to jump over at b2"),
        "{e}"
    );
    let s =
        Puzzle::parse("geometry: square\nstart:\no o o\no . o\no o o\nfinish-pegs: 1\n").unwrap();
    assert_eq!(s.instance().t(), 6);
}

#[test]
fn compact_and_spaced_boards_agree() {
    let spaced = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let compact = "name: x\ngeometry: square\nstart:\n__ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\nfinish:\n  ...\n  ...\n.......\n...o...\n.......\n  ...\n  ...\n";
    assert_eq!(
        Puzzle::parse(compact).unwrap().instance(),
        spaced.instance()
    );
}

#[test]
fn illegal_moves_are_named() {
    let p = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let err = |s: &str| p.parse_solution(s).unwrap_err().to_string();
    assert!(
        err("d2-d4 d1-d3").starts_with("move 2 (d1-d3): no peg to jump over at d2"),
        "{}",
        err("d2-d4 d1-d3")
    );
    assert!(err("d1-d3").starts_with("move 1 (d1-d3): d3 is not empty"));
    assert!(
        err("d2-d4 d2-d4").starts_with("move 2 (d2-d4): no peg at d2"),
        "{}",
        err("d2-d4 d2-d4")
    );
    assert!(err("d2-d4 d4-d2").starts_with("move 2 (d4-d2): no peg to jump over at d3"));
    assert!(err("d2-d5").contains("not two holes apart"));
    assert!(err("a1-a3").contains("'a1' is not a hole"));
    assert!(err("d2d4").contains("not a move"));
    assert!(err("d2-d4").contains("has 1 move;"));
    assert!(err("").contains("empty"));
    let too_many = "d2-d4 ".repeat(40);
    assert!(err(&too_many).contains("move 2"));
    // a matrix that is not a solution
    assert!(err("1 1\n0 1").contains("rows"));
}

#[test]
fn raw_instances_are_auto_detected() {
    let p = Puzzle::parse(&to_raw(&tee())).unwrap();
    assert!(!p.has_board());
    assert_eq!(p.instance(), &tee());
    assert_eq!(p.symmetries(), vec![vec![0, 1, 2, 3, 4]]);
    let z = rows(&[
        [1, 1, 0, 1, 1],
        [0, 0, 1, 1, 1],
        [0, 1, 1, 0, 0],
        [1, 0, 0, 0, 0],
    ]);
    let text = p.format_solution(&z);
    assert_eq!(text, "1 1 0 1 1\n0 0 1 1 1\n0 1 1 0 0\n1 0 0 0 0\n");
    assert_eq!(p.parse_solution(&text).unwrap(), z);
    assert!(p
        .parse_solution("a1-c1")
        .unwrap_err()
        .to_string()
        .contains("matrix"));
    assert_eq!(p.render(&z[0]), "1 1 0 1 1\n");
    let dir = std::env::temp_dir().join(format!("peg_board_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("mytee.txt");
    std::fs::write(&f, to_raw(&tee())).unwrap();
    assert_eq!(Puzzle::load(f.to_str().unwrap()).unwrap().name(), "mytee");
    // size cap
    let big = dir.join("big.txt");
    std::fs::write(&big, "# x\n".repeat(300_000)).unwrap();
    assert!(Puzzle::load(big.to_str().unwrap())
        .unwrap_err()
        .to_string()
        .contains("limit"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_puzzles_are_refused_with_a_reason() {
    let ok = "geometry: square\nstart:\no o .\nfinish:\n. . o\n";
    assert!(Puzzle::parse(ok).is_ok());
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        ("# only a comment\n", "empty"),
        (
            "geometry: hexagonal\nstart:\no o .\nfinish-pegs: 1\n",
            "unknown geometry",
        ),
        ("start:\no o .\nfinish-pegs: 1\n", "missing 'geometry:'"),
        ("geometry: square\nfinish-pegs: 1\n", "missing 'start:'"),
        ("geometry: square\nstart:\no o .\n", "missing 'finish:'"),
        (
            "geometry: square\nstart:\no o .\nfinish:\n. . o\nfinish-pegs: 1\n",
            "not both",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish:\n. . o .\n",
            "same holes",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish:\n. o\n  .\n",
            "same holes",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish:\n. . o\nstart:\no o .\n",
            "twice",
        ),
        ("geometry: square\ngeometry: square\n", "twice"),
        (
            "geometry: square\nstart:\no z .\nfinish-pegs: 1\n",
            "unexpected character 'z'",
        ),
        ("geometry: square\nstart:\no\to .\nfinish-pegs: 1\n", "tabs"),
        ("geometry: square\nstart:\no o .\nfinish-pegs: 5\n", "fewer"),
        (
            "geometry: square\nstart:\no o .\nfinish-pegs: -1\n",
            "finish-pegs",
        ),
        (
            "geometry: square\nstart:\no . o .\nfinish:\no o o .\n",
            "fewer pegs",
        ),
        (
            "geometry: square\nstart:\no .\nfinish-pegs: 0\n",
            "no line of three",
        ),
        (
            "geometry: square\nstart:\n_ _\nfinish-pegs: 0\n",
            "no holes",
        ),
        ("geometry: square\nstart:\nfinish-pegs: 0\n", "no rows"),
        (
            "geometry: square\nstart: o o .\nfinish-pegs: 1\n",
            "lines after",
        ),
        ("geometry: square\nfoo: bar\n", "unknown key 'foo'"),
        // pagoda lines: one weight per hole, whole numbers in range, no jump gaining weight
        (
            "geometry: square\nstart:\no o .\nfinish-pegs: 1\npagoda: 0 0\n",
            "line 5: a pagoda line has one weight per hole: 2 given, the board has 3",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish-pegs: 1\npagoda: 0 0 0 0\n",
            "more than the board's 3",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish-pegs: 1\npagoda: 0 x 0\n",
            "a pagoda weight is a whole number, found 'x'",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish-pegs: 1\npagoda: 0 0 999\n",
            "between -255 and 255, found 999",
        ),
        (
            "geometry: square\nstart:\no o .\nfinish-pegs: 1\npagoda: 0 0 1\n",
            "not a pagoda function: the jump from a1 over b1 to c1 raises the weight (0 + 0 < 1)",
        ),
        ("o o .\ngeometry: square\n", "raw instance"),
        ("geometry: square\no o .\n", "expected 'key: value'"),
        ("N 3\nt 1 2 3\nf 1 1 0\nl 0 0 2\n", "expected 0 or 1"),
    ];
    for (text, want) in cases {
        let e = match Puzzle::parse(text) {
            Err(Error::BadInput(m)) => m,
            r => panic!("{text:?}: {r:?}"),
        };
        assert!(e.contains(want), "{text:?}: got '{e}', want '{want}'");
        assert!(!e.contains('\n'), "one-line error: {e}");
    }
    // a valid pagoda line is kept, weights in reading order; at most MAX_PAGODAS lines
    let ok = "geometry: square\nstart:\no o .\nfinish-pegs: 1\npagoda: 1 1 1 # all ones\npagoda: 2 1 2\n";
    let p = Puzzle::parse(ok).unwrap();
    assert_eq!(p.pagoda_hints(), &[vec![1, 1, 1], vec![2, 1, 2]]);
    let many = format!(
        "geometry: square\nstart:\no o .\nfinish-pegs: 1\n{}",
        "pagoda: 1 1 1\n".repeat(zkgames::peg::board::MAX_PAGODAS + 1)
    );
    assert!(
        bad(&many).contains("at most 16 'pagoda:' lines"),
        "{}",
        bad(&many)
    );
    // the catalog's English board gives its own, each a pagoda function of the board
    let english = zkgames::peg::catalog::get("english").unwrap();
    assert!(!english.pagoda_hints().is_empty());
    let wide = format!(
        "geometry: square\nstart:\n{}\nfinish-pegs: 1\n",
        "o".repeat(MAX_BOARD_DIM + 1)
    );
    assert!(bad(&wide).contains("longer"));
    let tall = format!(
        "geometry: square\nstart:\n{}finish-pegs: 1\n",
        "o\n".repeat(MAX_BOARD_DIM + 1)
    );
    assert!(bad(&tall).contains("more than"));
}

use common::XorShift as Rng;

#[test]
fn random_bytes_and_mutations_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let seeds: Vec<String> = ["tee", "english", "triangle15", "diamond"]
        .iter()
        .map(|n| std::fs::read_to_string(format!("puzzles/peg/{n}.txt")).unwrap())
        .chain([to_raw(&tee())])
        .collect();
    let alphabet = b"o._ \n:#-abcdefgxyz0123456789NtflpegsOx\t";
    let english = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let sol = {
        let SolveOutcome::Solved(z) = solve(english.instance(), &SolveOptions::default()) else {
            panic!()
        };
        english.format_solution(&z)
    };
    for round in 0..4000 {
        let mut bytes = seeds[round % seeds.len()].clone().into_bytes();
        if round % 7 == 0 {
            bytes = (0..rng.below(200)).map(|_| rng.next() as u8).collect();
        } else {
            for _ in 0..1 + rng.below(4) {
                let pos = rng.below(bytes.len() + 1);
                match rng.below(3) {
                    0 if pos < bytes.len() => bytes[pos] = alphabet[rng.below(alphabet.len())],
                    1 if pos < bytes.len() => {
                        bytes.remove(pos);
                    }
                    _ => bytes.insert(pos, alphabet[rng.below(alphabet.len())]),
                }
            }
        }
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if let Ok(p) = Puzzle::parse(text) {
                let _ = p.render(p.instance().first());
                let _ = p.parse_solution(text);
            }
        }
        // mutated solutions
        let mut s = sol.clone().into_bytes();
        let pos = rng.below(s.len());
        s[pos] = alphabet[rng.below(alphabet.len())];
        if let Ok(text) = std::str::from_utf8(&s) {
            if let Ok(z) = english.parse_solution(text) {
                english.instance().check_solution(&z).unwrap();
            }
        }
    }
}

#[test]
fn wrong_final_position_is_a_one_line_error() {
    let p = Puzzle::parse("geometry: square\nstart:\no o . o o\nfinish:\n. . o o o\n").unwrap();
    assert_eq!(p.instance().s(), 2);
    p.parse_solution("a1-c1").unwrap();
    let e = p.parse_solution("e1-c1").unwrap_err().to_string();
    assert!(
        e.starts_with("after 1 move the position is not the finish: it differs on"),
        "{e}"
    );
    assert!(!e.contains('\n'));
}
