//! Towers from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::towers::{Puzzle, State};

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
    let dir = tatham_sgt::dir("towers-replay");
    let Some(mut files) = tatham_sgt::generate("towers", "5de", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("towers", "8dh", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("towers", "6du", 1, &dir.join("u")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same grid by a player's moves, one square at a time, with pencil marks on
        // the way (the given towers kept)
        let mut t = p.initial();
        p.execute_move(&mut t, "M").unwrap();
        for i in p.free() {
            let (x, y) = (i % p.w, i / p.w);
            p.execute_move(&mut t, &format!("P{x},{y},1")).unwrap();
            p.execute_move(&mut t, &format!("R{x},{y},{}", s.grid[i]))
                .unwrap();
        }
        assert_eq!(t, s);
        // an emptied square, and every changed square, fail the check
        let i = p.free()[0];
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("R{},{},0", i % p.w, i / p.w))
            .unwrap();
        assert!(p.check(&u).unwrap_err().contains("empty"));
        for i in 0..s.grid.len() {
            for v in 1..=p.w as u8 {
                if v != s.grid[i] {
                    let mut u = s.clone();
                    u.grid[i] = v;
                    assert!(p.check(&u).is_err(), "changed square {i} accepted");
                }
            }
        }
        // two rows swapped: still Latin, so only clues (or given towers) can refuse it
        let mut u = s.clone();
        let w = p.w;
        for x in 0..w {
            u.grid.swap(x, w + x);
        }
        assert!(p.check(&u).is_err(), "{}", f.display());
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn towers_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("towers-e2e");
    let Some(files) = tatham_sgt::generate("towers", "5de", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(16 * 1024));
    eprintln!("Towers 5 proof sizes: {sizes:?}");
    // emptying a square of the solution
    let save = tatham_sgt::read(&files[0]);
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let i = p.free()[0];
    tatham_sgt::refusals(&files, &format!("R{},{},0", i % p.w, i / p.w));
    // a changed tower: the message names the row, the column or the clue
    let (_, s) = solved(&save);
    let j = p.free()[1];
    let other = if s.grid[j] == 1 { 2 } else { 1 };
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push(("MOVE", format!("R{},{},{other}", j % p.w, j / p.w)));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &moves, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("not solved: ") && e.contains("two towers"),
        "{e}"
    );
    let big = tatham_sgt::generate("towers", "8dh", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
    let hard = tatham_sgt::generate("towers", "9de", 1, &dir.join("nine")).unwrap();
    tatham_sgt::prove_all(&hard, None);
}
