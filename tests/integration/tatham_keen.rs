//! Keen from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::keen::{Puzzle, State};

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
    let dir = tatham_sgt::dir("keen-replay");
    let Some(mut files) = tatham_sgt::generate("keen", "6dn", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("keen", "9dn", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("keen", "5dem", 1, &dir.join("mul")).unwrap());
    files.extend(tatham_sgt::generate("keen", "4de", 1, &dir.join("small")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same grid by a player's moves, with pencil marks on the way
        let mut t = p.initial();
        p.execute_move(&mut t, "M").unwrap();
        for i in 0..p.w * p.w {
            let (x, y) = (i % p.w, i / p.w);
            p.execute_move(&mut t, &format!("P{x},{y},1")).unwrap();
            p.execute_move(&mut t, &format!("R{x},{y},{}", s.grid[i]))
                .unwrap();
        }
        assert_eq!(t, s);
        // every changed square fails the check
        for i in 0..s.grid.len() {
            for v in 1..=p.w as u8 {
                if v != s.grid[i] {
                    let mut u = s.clone();
                    u.grid[i] = v;
                    assert!(p.check(&u).is_err(), "changed square {i} accepted");
                }
            }
        }
        // two rows swapped: still Latin, so only the cages can refuse it
        let mut u = s.clone();
        for x in 0..p.w {
            u.grid.swap(x, p.w + x);
        }
        let e = p.check(&u).unwrap_err();
        assert!(e.contains("cage"), "{e}");
        assert!(p.check(&p.initial()).unwrap_err().contains("empty"));
    }
}

#[test]
fn keen_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("keen-e2e");
    let Some(files) = tatham_sgt::generate("keen", "6dn", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Keen 6 proof sizes: {sizes:?}");
    tatham_sgt::refusals(&files, "R0,0,0");
    // a changed digit: the message names the row, the column or the cage
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let other = if s.grid[1] == 1 { 2 } else { 1 };
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push(("MOVE", format!("R1,0,{other}")));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &moves, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("not solved: ") && e.contains("two digits"),
        "{e}"
    );
    // the ordinary moves of a player, one record each, prove too
    let player: Vec<(&str, String)> = (0..p.w * p.w)
        .map(|i| ("MOVE", format!("R{},{},{}", i % p.w, i / p.w, s.grid[i])))
        .collect();
    let by_moves = files[0].with_extension("moves");
    tatham_sgt::write_with_moves(&save, &player, &by_moves);
    tatham_sgt::prove_all(&[by_moves], None);
    let big = tatham_sgt::generate("keen", "9dn", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
