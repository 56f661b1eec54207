//! Loopy from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::loopy::{Line, Puzzle, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("loopy-replay");
    let Some(mut files) = tatham_sgt::generate("loopy", "10x10t0de", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("loopy", "7x12t0dn", 2, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the player's single-edge toggles reach the same lines
        let mut t = p.initial();
        for (e, l) in s.lines.iter().enumerate() {
            let c = match l {
                Line::Yes => 'y',
                Line::No => 'n',
                Line::Unknown => continue,
            };
            p.execute_move(&mut t, &format!("{e}{c}")).unwrap();
        }
        assert_eq!(t, s);
        // "no" and "unknown" are alike for the check: a solution with its crosses removed
        let mut u = s.clone();
        for l in u.lines.iter_mut() {
            if *l == Line::No {
                *l = Line::Unknown;
            }
        }
        assert_eq!(p.check(&u), Ok(()));
        // every single toggled edge fails
        for e in 0..s.lines.len() {
            let mut u = s.clone();
            u.lines[e] = if u.lines[e] == Line::Yes {
                Line::No
            } else {
                Line::Yes
            };
            assert!(p.check(&u).is_err(), "toggled edge {e} accepted");
        }
        assert_eq!(p.check(&p.initial()).unwrap_err(), "no loop is drawn");
    }
}

#[test]
fn edge_order_is_the_collections() {
    // grid.c numbers a square grid's edges face by face, top, right, bottom, left
    let p = Puzzle::decode("3x3t0", "i").unwrap();
    assert_eq!(p.edges.len(), 24);
    let w1 = 4;
    assert_eq!(p.edges[0].dots, [0, 1]); // face a1 top
    assert_eq!(p.edges[1].dots, [1, w1 + 1]); // a1 right
    assert_eq!(p.edges[2].dots, [w1 + 1, w1]); // a1 bottom
    assert_eq!(p.edges[3].dots, [w1, 0]); // a1 left
    assert_eq!(p.edges[4].dots, [1, 2]); // b1 top
    assert_eq!(p.edges[1].faces, [Some(0), Some(1)]);
}

#[test]
fn bad_descriptions_and_moves_are_refused() {
    assert!(Puzzle::decode("3x3t0", "h").is_err());
    assert!(Puzzle::decode("3x3t0", "j").is_err());
    assert!(Puzzle::decode("3x3t0", "h5")
        .unwrap_err()
        .to_string()
        .contains("impossible"));
    // a Penrose grid without its grid description
    let e = Puzzle::decode("3x3t11", "b4").unwrap_err().to_string();
    assert!(
        e.contains("Penrose (kite/dart)") && e.contains("G<x>"),
        "{e}"
    );
    let e = Puzzle::decode("3x3t16", "i").unwrap_err().to_string();
    assert!(e.contains("unknown") && e.contains("squares (t0)"), "{e}");
    // the program's size limits per grid type
    assert!(Puzzle::decode("3x3t4", "a")
        .unwrap_err()
        .to_string()
        .contains("at least 4"));
    assert!(Puzzle::decode("1x1t8", "a")
        .unwrap_err()
        .to_string()
        .contains("at least 2"));
    assert!(Puzzle::decode("1x2t9", "a")
        .unwrap_err()
        .to_string()
        .contains("at least 2"));
    assert!(Puzzle::decode("3x3t99", "i").is_err());
    assert!(Puzzle::decode("2x2t0", "d").is_err());
    assert!(Puzzle::decode("3x3t0dee", "i").is_err());
    let p = Puzzle::decode("3x3t0de", "i").unwrap();
    let mut s = p.initial();
    for bad in ["24y", "1x", "y", "1", "S1y2", "-1y", "1y;2y"] {
        assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
    }
    assert_eq!(s, p.initial());
    // the outline of one square is one loop
    p.execute_move(&mut s, "0y1y2y3y").unwrap();
    assert!(p.check(&s).is_ok());
    // two separate squares are two loops
    let far = Puzzle::decode("3x3t0", "i").unwrap();
    let mut t = far.initial();
    far.execute_move(&mut t, "0y1y2y3y").unwrap();
    let e8: Vec<usize> = (0..far.edges.len())
        .filter(|&e| far.edges[e].faces.contains(&Some(8)))
        .collect();
    for e in e8 {
        far.execute_move(&mut t, &format!("{e}y")).unwrap();
    }
    assert_eq!(far.check(&t).unwrap_err(), "two loops");
}

/// A Loopy DESC with its clues 3 removed, written canonically (runs of at most 26 faces).
fn without_threes(desc: &str) -> String {
    let mut faces: Vec<Option<char>> = Vec::new();
    for c in desc.chars() {
        match c {
            'a'..='z' => faces.extend(std::iter::repeat_n(None, c as usize - 'a' as usize + 1)),
            '3' => faces.push(None),
            c => faces.push(Some(c)),
        }
    }
    zkgames::tatham::parse::encode_runs(faces)
}

#[test]
fn loopy_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("loopy-e2e");
    let Some(files) = tatham_sgt::generate("loopy", "10x10t0de", 2, &dir) else {
        return;
    };
    // the bound: 12 KB for Loopy 10x10
    let sizes = tatham_sgt::prove_all(&files, Some(12 * 1024));
    eprintln!("Loopy 10x10 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    // without a clue 3 the loop has no public root (docs/PROTOCOLS.md 11.4): the same
    // puzzle with its 3s removed (the solution still solves it) proves within the bound too
    assert!(save.desc.contains('3'));
    let mut no3 = tatham_sgt::read(&files[0]);
    for (k, v) in no3.records.iter_mut() {
        if k == "DESC" {
            *v = without_threes(v);
        }
    }
    let moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    let unrooted = dir.join("no3.sav");
    tatham_sgt::write_with_moves(&no3, &moves, &unrooted);
    let sizes = tatham_sgt::prove_all(std::slice::from_ref(&unrooted), Some(12 * 1024));
    eprintln!("Loopy 10x10 without a clue 3: {sizes:?}");
    // toggling edge 0 of the solution
    let (p, s) = solved(&save);
    let _ = p;
    let alter = if s.lines[0] == Line::Yes { "0n" } else { "0y" };
    tatham_sgt::refusals(&files, alter);
    let big = tatham_sgt::generate("loopy", "15x15t0de", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}

/// The Penrose grids, built by subdividing from the grid description's offset and angle,
/// then clipped and trimmed as the program does: many puzzles the program wrote at the
/// smallest size, at a narrow one, at its two menu presets (6x6 on small screens, 10x10),
/// at 15x15 and at the largest size, 40x40. Each clue description fills exactly the faces built here, is written back
/// unchanged, and its Solve record replays to a solution that any one toggled edge breaks.
#[test]
fn penrose_grids_decode_and_replay() {
    let dir = tatham_sgt::dir("loopy-penrose");
    for ty in [11, 12] {
        let mut patches = std::collections::BTreeSet::new();
        for (size, n) in [
            ("3x3", 20),
            ("4x7", 10),
            ("6x6", 10),
            ("10x10", 6),
            ("15x15", 3),
            ("40x40", 1),
        ] {
            let params = format!("{size}t{ty}de");
            let Some(files) = tatham_sgt::generate("loopy", &params, n, &dir.join(&params)) else {
                return;
            };
            replays_solve(&files);
            for f in &files {
                let save = tatham_sgt::read(f);
                assert!(save.desc.starts_with('G'), "{}", save.desc);
                let p = Puzzle::decode(&save.params, &save.desc).unwrap();
                assert_eq!(zkgames::tatham::Puzzle::desc(&p), save.desc);
                assert!(p.faces.iter().all(|f| f.len() == 4));
                patches.insert(save.desc.split('_').next().unwrap().to_string());
            }
        }
        // the program drew a fresh patch for (nearly) every puzzle
        assert!(patches.len() >= 40, "{patches:?}");
    }
}

/// A Penrose grid description the program would refuse (malformed, offset outside the
/// patch, angle not a multiple of 36, or missing), in a save file or a game ID: exit 2
/// with one line.
#[test]
fn penrose_bad_grid_descriptions_are_refused() {
    let dir = tatham_sgt::dir("loopy-penrose-bad");
    let Some(files) = tatham_sgt::generate("loopy", "7x7t11de", 1, &dir) else {
        return;
    };
    let save = tatham_sgt::read(&files[0]);
    let clues = save.desc.split_once('_').unwrap().1;
    let proof = dir.join("ok.proof");
    assert_eq!(tatham_sgt::prove(&files[0], &proof).0, 0);
    // 7x7 kites: the offset may be at most 4608 from the centre
    for grid in [
        "G1,2",
        "G1;2;36",
        "Gx,2,36",
        "G4609,0,0",
        "G0,-99999999999,0",
        "G0,0,37",
        "G0,0,360",
        "",
    ] {
        let desc = if grid.is_empty() {
            clues.to_string()
        } else {
            format!("{grid}_{clues}")
        };
        let mut bad = tatham_sgt::read(&files[0]);
        for (k, v) in bad.records.iter_mut() {
            if k == "DESC" {
                *v = desc.clone();
            }
        }
        let moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
        let path = dir.join("bad.sav");
        tatham_sgt::write_with_moves(&bad, &moves, &path);
        let (c, _, e) = tatham_sgt::prove(&path, &dir.join("bad.proof"));
        assert_eq!(c, 2, "{grid}: {e}");
        assert!(e.contains("Loopy"), "{e}");
        tatham_sgt::one_line(&e);
        let id = format!("Loopy:7x7t11:{desc}");
        let (c, _, e) = tatham_sgt::verify(&id, &proof);
        assert_eq!(c, 2, "{grid}: {e}");
        tatham_sgt::one_line(&e);
    }
}

/// The replays of the Solve records the program wrote give solutions, and every single
/// toggled edge of one does not (the edge numbering is the program's).
fn replays_solve(files: &[std::path::PathBuf]) {
    for f in files {
        let save = tatham_sgt::read(f);
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        for e in 0..s.lines.len() {
            let mut u = s.clone();
            u.lines[e] = if u.lines[e] == Line::Yes {
                Line::No
            } else {
                Line::Yes
            };
            assert!(
                p.check(&u).is_err(),
                "{}: toggled edge {e} accepted",
                f.display()
            );
        }
    }
}

/// One grid type end to end: two puzzles at the smallest size the program allows and one
/// at its preset size, written by the real program; the Solve records replay to solutions;
/// all prove and verify through the binaries; another puzzle of the same grid, a flipped
/// byte, an unsolved save and an altered solution are refused.
fn grid_end_to_end(small: &str, preset: &str) {
    let dir = tatham_sgt::dir(&format!("loopy-{small}"));
    let Some(files) = tatham_sgt::generate("loopy", small, 2, &dir) else {
        return;
    };
    let big = tatham_sgt::generate("loopy", preset, 1, &dir.join("big")).unwrap();
    replays_solve(&files);
    replays_solve(&big);
    let sizes = tatham_sgt::prove_all(&files, None);
    let large = tatham_sgt::prove_all(&big, None);
    eprintln!("Loopy {small}: {sizes:?}; {preset}: {large:?}");
    let (_, s) = solved(&tatham_sgt::read(&files[0]));
    let alter = if s.lines[0] == Line::Yes { "0n" } else { "0y" };
    tatham_sgt::refusals(&files, alter);
}

macro_rules! grid_tests {
    ($($name:ident: $small:expr, $preset:expr;)*) => {$(
        #[test]
        fn $name() {
            grid_end_to_end($small, $preset);
        }
    )*};
}

// the smallest sizes of loopy.c's limits; the presets of `sgt-loopy --list-presets`
// (easy rather than hard: only the generator's effort differs)
grid_tests! {
    loopy_triangular: "3x3t1de", "12x10t1de";
    loopy_honeycomb: "3x3t2de", "10x10t2de";
    loopy_snub_square: "3x3t3de", "7x7t3de";
    loopy_cairo: "3x4t4de", "9x9t4de";
    loopy_great_hexagonal: "3x3t5de", "5x4t5de";
    loopy_octagonal: "3x3t6de", "7x7t6de";
    loopy_kites: "3x3t7de", "5x5t7de";
    loopy_floret: "1x2t8de", "5x5t8de";
    loopy_dodecagonal: "2x2t9de", "5x4t9de";
    loopy_great_dodecagonal: "2x2t10de", "5x4t10de";
    loopy_great_great_dodecagonal: "2x2t13de", "5x3t13de";
    loopy_kagome: "3x3t14de", "5x4t14de";
    loopy_compass_dodecagonal: "2x2t15de", "5x4t15de";
    loopy_penrose_kites: "3x3t11de", "10x10t11de";
    loopy_penrose_rhombs: "3x3t12de", "10x10t12de";
}

/// Triangular game IDs without the `0_` grid description use the older layout (ears at
/// two corners); the program's own examples decode with the face count they describe.
#[test]
fn old_triangular_layout() {
    for (params, desc) in [
        ("5x5t1", "2c2a1a2a201a1a1a1112a1a2b1211f0b21a2a2a0a"),
        ("5x6t1", "a022a212h1a1d1a12c2b11a012b1a20d1a0a12e"),
    ] {
        let p = Puzzle::decode(params, desc).unwrap();
        assert!(p.old_layout);
        assert_eq!(p.faces.len(), 2 * p.w * p.h);
        assert_eq!(zkgames::tatham::Puzzle::desc(&p), desc);
    }
    // and the new one: 5x5 has 5 rows of 11 triangles less the last row's two ears
    let p = Puzzle::decode("5x5t1", "0_21120b11a1a01a1a00c1a0b211021c1h1a2a1a0a").unwrap();
    assert!(!p.old_layout);
    assert_eq!(p.faces.len(), 5 * 11 - 2);
    assert!(Puzzle::decode("5x5t1", "1_21120b11a1a01a1a00c1a0b211021c1h1a2a1a0a").is_err());
    assert!(Puzzle::decode("5x5t2", "0_a").is_err());
}
