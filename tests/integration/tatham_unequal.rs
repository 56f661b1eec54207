//! Unequal (and its Adjacent mode) from save files written by the real program: the move
//! replays, the completion check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::unequal::{Puzzle, State};

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
    let dir = tatham_sgt::dir("unequal-replay");
    let Some(mut files) = tatham_sgt::generate("unequal", "4de", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("unequal", "5adk", 2, &dir.join("adj")).unwrap());
    files.extend(tatham_sgt::generate("unequal", "7dk", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("unequal", "11de", 1, &dir.join("eleven")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same grid by a player's moves, one square at a time, pencil marks on the way
        let mut t = p.initial();
        p.execute_move(&mut t, "M").unwrap();
        for i in p.free() {
            let (x, y) = (i % p.o, i / p.o);
            p.execute_move(&mut t, &format!("P{x},{y},2")).unwrap();
            p.execute_move(&mut t, &format!("R{x},{y},{}", s.grid[i]))
                .unwrap();
        }
        assert_eq!(t.grid, s.grid);
        // an emptied square, and every changed square, fail the check
        let i = p.free()[0];
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("R{},{},0", i % p.o, i / p.o))
            .unwrap();
        assert!(p.check(&u).unwrap_err().contains("empty"));
        for i in 0..s.grid.len() {
            for v in 1..=p.o as u8 {
                if v != s.grid[i] {
                    let mut u = s.clone();
                    u.grid[i] = v;
                    assert!(p.check(&u).is_err(), "changed square {i} accepted");
                }
            }
        }
        // two rows swapped: still Latin, so only the signs (or given numbers) refuse it
        let mut u = s.clone();
        for x in 0..p.o {
            u.grid.swap(x, p.o + x);
        }
        assert!(p.check(&u).is_err(), "{}", f.display());
    }
}

#[test]
fn unequal_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("unequal-e2e");
    let Some(files) = tatham_sgt::generate("unequal", "4de", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Unequal 4 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let i = p.free()[0];
    tatham_sgt::refusals(&files, &format!("R{},{},0", i % p.o, i / p.o));
    let adjacent = tatham_sgt::generate("unequal", "5adk", 2, &dir.join("adj")).unwrap();
    tatham_sgt::prove_all(&adjacent, None);
    // a solution of the Adjacent puzzle with two squares swapped in a row: refused in words
    let save = tatham_sgt::read(&adjacent[0]);
    let (p, s) = solved(&save);
    let mut grid = s.grid.clone();
    grid.swap(0, 1);
    let digits: String = grid.iter().map(|&g| (b'0' + g) as char).collect();
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push(("SOLVE", format!("S{digits}")));
    let changed = adjacent[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &moves, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: "), "{e}");
    tatham_sgt::one_line(&e);
    assert!(p
        .check(&State {
            grid,
            pencil: s.pencil
        })
        .is_err());
    let big = tatham_sgt::generate("unequal", "7dk", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
