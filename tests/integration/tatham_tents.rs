//! Tents from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::tents::{Puzzle, Square, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// A player's moves reaching the tents of `s`: a non-tent mark on every other square that
/// is not a tree first (then the tents over some of them), one item a move.
fn player_moves(p: &Puzzle, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (i, &g) in s.grid.iter().enumerate() {
        let (x, y) = (i % p.w, i / p.w);
        if g != Square::Tree {
            out.push(format!("N{x},{y}"));
        }
        if g == Square::Tent {
            out.push(format!("T{x},{y}"));
        }
    }
    out
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("tents-replay");
    let Some(mut files) = tatham_sgt::generate("tents", "8x8de", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("tents", "15x15dt", 1, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        let mut t = p.initial();
        for m in player_moves(&p, &s) {
            p.execute_move(&mut t, &m).unwrap();
        }
        assert_eq!(t, s);
        // blank squares instead of marks are still solved; every tent moved away or added
        // is not
        let mut u = s.clone();
        for g in u.grid.iter_mut().filter(|g| **g == Square::NonTent) {
            *g = Square::Blank;
        }
        assert_eq!(p.check(&u), Ok(()));
        for i in (0..s.grid.len()).filter(|&i| s.grid[i] != Square::Tree) {
            let mut u = s.clone();
            let (x, y) = (i % p.w, i / p.w);
            let mv = if s.grid[i] == Square::Tent { 'B' } else { 'T' };
            p.execute_move(&mut u, &format!("{mv}{x},{y}")).unwrap();
            assert!(p.check(&u).is_err(), "square {i} changed, accepted");
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn tents_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("tents-e2e");
    let Some(files) = tatham_sgt::generate("tents", "8x8de", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Tents 8x8 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let i = (0..s.grid.len())
        .find(|&i| s.grid[i] == Square::Tent)
        .unwrap();
    tatham_sgt::refusals(&files, &format!("B{},{}", i % p.w, i / p.w));
    // the player's own moves prove as the Solve record does
    let moves: Vec<(&str, String)> = player_moves(&p, &s)
        .into_iter()
        .map(|m| ("MOVE", m))
        .collect();
    let played = files[0].with_extension("played.sav");
    tatham_sgt::write_with_moves(&save, &moves, &played);
    tatham_sgt::prove_all(&[played], None);
    // a tent moved to another square of its row: the counts of two columns are wrong
    let (x, y) = (i % p.w, i / p.w);
    let x2 = (0..p.w)
        .find(|&x2| s.grid[y * p.w + x2] == Square::NonTent)
        .unwrap();
    let mut more: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    more.push(("MOVE", format!("B{x},{y};T{x2},{y}")));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &more, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: column "), "{e}");
    let big = tatham_sgt::generate("tents", "15x15dt", 1, &dir.join("big")).unwrap();
    eprintln!("Tents 15x15: {:?}", tatham_sgt::prove_all(&big, None));
}
