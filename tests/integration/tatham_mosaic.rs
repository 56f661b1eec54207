//! Mosaic from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::mosaic::{Cell, Puzzle, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// A player's moves reaching `s`: rows of black squares by drags where two or more are
/// side by side, the other squares one click each (`t` black, `T` white).
fn player_moves(p: &Puzzle, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for y in 0..p.h {
        let mut x = 0;
        while x < p.w {
            let i = y * p.w + x;
            let run = (x..p.w)
                .take_while(|&x2| s.grid[y * p.w + x2] == Cell::Black)
                .count();
            if run >= 2 {
                // from (x, y) towards (x + run, y), that square excluded
                out.push(format!("d{x},{y},{},{y},1", x + run));
                x += run;
                continue;
            }
            let c = if s.grid[i] == Cell::Black { 't' } else { 'T' };
            out.push(format!("{c}{x},{y}"));
            x += 1;
        }
    }
    out
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("mosaic-replay");
    let Some(mut files) = tatham_sgt::generate("mosaic", "10x10", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("mosaic", "15x15", 1, &dir.join("big")).unwrap());
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
        // every counted square flipped, or emptied, fails the check
        for i in p.counted() {
            let mut u = s.clone();
            u.grid[i] = if u.grid[i] == Cell::Black {
                Cell::White
            } else {
                Cell::Black
            };
            assert!(p.check(&u).is_err(), "flipped square {i} accepted");
            u.grid[i] = Cell::Empty;
            assert!(p.check(&u).unwrap_err().contains("empty"));
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn mosaic_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("mosaic-e2e");
    let Some(files) = tatham_sgt::generate("mosaic", "10x10", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Mosaic 10x10 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    // a white square of the solution turned empty (T: white → empty)
    let i = p
        .counted()
        .into_iter()
        .find(|&i| s.grid[i] == Cell::White)
        .unwrap();
    tatham_sgt::refusals(&files, &format!("t{},{}", i % p.w, i / p.w));
    // the player's own moves prove as the Solve record does
    let moves: Vec<(&str, String)> = player_moves(&p, &s)
        .into_iter()
        .map(|m| ("MOVE", m))
        .collect();
    let played = files[0].with_extension("played.sav");
    tatham_sgt::write_with_moves(&save, &moves, &played);
    tatham_sgt::prove_all(&[played], None);
    // a black square turned white: some clue counts one too few
    let j = p
        .counted()
        .into_iter()
        .find(|&j| s.grid[j] == Cell::Black)
        .unwrap();
    let mut more: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    more.push(("MOVE", format!("t{},{}", j % p.w, j / p.w)));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &more, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("not solved: ") && e.contains("black squares around it"),
        "{e}"
    );
    let big = tatham_sgt::generate("mosaic", "15x15", 1, &dir.join("big")).unwrap();
    eprintln!("Mosaic 15x15: {:?}", tatham_sgt::prove_all(&big, None));
}
