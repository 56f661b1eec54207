//! Range from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::range::{Puzzle, Square, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// A white square without a number next to a black one, as (row, column).
fn white_by_black(p: &Puzzle, s: &State) -> (usize, usize) {
    let (w, h) = (p.w, p.h);
    (0..w * h)
        .filter(|&i| s.grid[i] == Square::White)
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
                .then_some((y, x))
        })
        .unwrap()
}

/// The player's moves to the solution, one record per square (`B` or `W`, row first).
fn player_moves(p: &Puzzle, s: &State) -> Vec<String> {
    p.free()
        .into_iter()
        .map(|i| {
            let c = if s.grid[i] == Square::Black { 'B' } else { 'W' };
            format!("{c},{},{}", i / p.w, i % p.w)
        })
        .collect()
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("range-replay");
    let Some(mut files) = tatham_sgt::generate("range", "9x6", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("range", "16x11", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("range", "5x7", 1, &dir.join("tall")).unwrap());
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
        // empty squares count as white: only the black ones matter
        let mut u = p.initial();
        for i in p.free() {
            if s.grid[i] == Square::Black {
                u.grid[i] = Square::Black;
            }
        }
        assert_eq!(p.check(&u), Ok(()));
        // every single changed square fails the check (unique solutions)
        for i in p.free() {
            let mut u = s.clone();
            u.grid[i] = if u.grid[i] == Square::Black {
                Square::White
            } else {
                Square::Black
            };
            assert!(p.check(&u).is_err(), "changed square {i} accepted");
        }
        let (r, c) = white_by_black(&p, &s);
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("B,{r},{c}")).unwrap();
        assert!(p.check(&u).unwrap_err().contains("adjacent"));
        assert!(p.check(&p.initial()).unwrap_err().contains("sees"));
    }
}

#[test]
fn range_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("range-e2e");
    let Some(files) = tatham_sgt::generate("range", "9x6", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Range 9x6 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let (r, c) = white_by_black(&p, &s);
    tatham_sgt::refusals(&files, &format!("B,{r},{c}"));
    // a numbered square painted over by a move: not solved
    let clue = p.clues.iter().position(|&c| c != 0).unwrap();
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push(("MOVE", format!("W,{},{}", clue / p.w, clue % p.w)));
    let painted = files[0].with_extension("painted");
    tatham_sgt::write_with_moves(&save, &moves, &painted);
    let (code, _, e) = tatham_sgt::prove(&painted, &painted.with_extension("p"));
    assert_eq!(code, 2, "{e}");
    assert!(
        e.contains("not solved: ") && e.contains("painted over"),
        "{e}"
    );
    // the ordinary moves of a player, one record each, prove too
    let player: Vec<(&str, String)> = player_moves(&p, &s)
        .into_iter()
        .map(|m| ("MOVE", m))
        .collect();
    let by_moves = files[0].with_extension("moves");
    tatham_sgt::write_with_moves(&save, &player, &by_moves);
    tatham_sgt::prove_all(&[by_moves], None);
    let big = tatham_sgt::generate("range", "16x11", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
