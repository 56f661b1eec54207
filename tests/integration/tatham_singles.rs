//! Singles from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::singles::{Puzzle, Square, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// A white square next to a black one (blackening it breaks the adjacency rule).
fn white_by_black(p: &Puzzle, s: &State) -> (usize, usize) {
    let (w, h) = (p.w, p.h);
    (0..w * h)
        .filter(|&i| s.grid[i] != Square::Black)
        .find_map(|i| {
            let (x, y) = (i % w, i / w);
            let near = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then_some(i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then_some(i + w),
            ];
            near.iter()
                .flatten()
                .any(|&j| s.grid[j] == Square::Black)
                .then_some((x, y))
        })
        .unwrap()
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("singles-replay");
    let Some(mut files) = tatham_sgt::generate("singles", "5x5de", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("singles", "10x10dk", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("singles", "7x4de", 1, &dir.join("wide")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same grid by a player's moves: every black square, some whites circled
        let mut t = p.initial();
        for (i, &sq) in s.grid.iter().enumerate() {
            let (x, y) = (i % p.w, i / p.w);
            match sq {
                Square::Black => p.execute_move(&mut t, &format!("B{x},{y}")).unwrap(),
                Square::Circle => p.execute_move(&mut t, &format!("C{x},{y}")).unwrap(),
                Square::Empty => {}
            }
        }
        assert_eq!(t, s);
        // circles do not matter: the uncircled grid is solved too
        let mut u = s.clone();
        for g in u.grid.iter_mut() {
            if *g == Square::Circle {
                *g = Square::Empty;
            }
        }
        assert_eq!(p.check(&u), Ok(()));
        // every single changed square fails the check (a square whitened repeats a number
        // or, where the generator left its number unique, is refused elsewhere: see below)
        let mut whitened_ok = 0;
        for i in 0..s.grid.len() {
            let mut u = s.clone();
            if u.grid[i] == Square::Black {
                u.grid[i] = Square::Empty;
                whitened_ok += usize::from(p.check(&u).is_ok());
            } else {
                u.grid[i] = Square::Black;
                assert!(p.check(&u).is_err(), "blackened square {i} accepted");
            }
        }
        // the puzzles have unique solutions: no black square may be whitened
        assert_eq!(whitened_ok, 0, "{}", f.display());
        let (x, y) = white_by_black(&p, &s);
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("B{x},{y}")).unwrap();
        assert!(p.check(&u).unwrap_err().contains("adjacent"));
        // nothing blacked out: numbers repeat
        assert!(p.check(&p.initial()).unwrap_err().contains("two white"));
    }
}

#[test]
fn singles_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("singles-e2e");
    let Some(files) = tatham_sgt::generate("singles", "5x5de", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Singles 5x5 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let (x, y) = white_by_black(&p, &s);
    tatham_sgt::refusals(&files, &format!("B{x},{y}"));
    // a black square whitened: the message names the repeated number or the cut
    let j = s.grid.iter().position(|&g| g == Square::Black).unwrap();
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push(("MOVE", format!("C{},{}", j % p.w, j / p.w)));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &moves, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: "), "{e}");
    // the ordinary moves of a player, one record each, prove too
    let mut player: Vec<(&str, String)> = Vec::new();
    for (i, &g) in s.grid.iter().enumerate() {
        if g == Square::Black {
            player.push(("MOVE", format!("B{},{}", i % p.w, i / p.w)));
        }
    }
    let by_moves = files[0].with_extension("moves");
    tatham_sgt::write_with_moves(&save, &player, &by_moves);
    tatham_sgt::prove_all(&[by_moves], None);
    let big = tatham_sgt::generate("singles", "10x10dk", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
