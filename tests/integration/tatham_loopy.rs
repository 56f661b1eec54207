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
    let e = Puzzle::decode("3x3t1", "i").unwrap_err().to_string();
    assert!(
        e.contains("triangular") && e.contains("only squares"),
        "{e}"
    );
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
    // other grid types are refused in one line naming what is supported
    let tri = dir.join("tri.sav");
    let mut recs = save.records.clone();
    for (k, v) in recs.iter_mut() {
        if k == "PARAMS" || k == "CPARAMS" {
            *v = "10x10t1de".into();
        }
    }
    let text: String = recs
        .iter()
        .map(|(k, v)| format!("{k:<8}:{}:{v}\n", v.len()))
        .collect();
    std::fs::write(&tri, text).unwrap();
    let (c, _, e) = tatham_sgt::prove(&tri, &dir.join("tri.proof"));
    assert_eq!(c, 2);
    assert!(e.contains("only squares"), "{e}");
    tatham_sgt::one_line(&e);
}
