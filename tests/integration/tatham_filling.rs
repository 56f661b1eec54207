//! Filling from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::filling::{Puzzle, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// The player's moves to the solution: per digit, one record writing it in every empty
/// square that holds it (`i,j,…_v`, as the game's keyboard input writes them).
fn player_moves(p: &Puzzle, s: &State) -> Vec<String> {
    (1..=9u8)
        .filter_map(|v| {
            let squares: Vec<String> = (0..s.board.len())
                .filter(|&i| p.clues[i] == 0 && s.board[i] == v)
                .map(|i| i.to_string())
                .collect();
            (!squares.is_empty()).then(|| format!("{}_{v}", squares.join(",")))
        })
        .collect()
}

/// An empty square of the puzzle (one the player fills in).
fn free_square(p: &Puzzle) -> usize {
    p.clues.iter().position(|&c| c == 0).unwrap()
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("filling-replay");
    let Some(mut files) = tatham_sgt::generate("filling", "13x9", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("filling", "17x13", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("filling", "9x7", 1, &dir.join("small")).unwrap());
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
        // every single changed square fails the check
        for i in 0..s.board.len() {
            for v in 1..=9u8 {
                if v != s.board[i] {
                    let mut u = s.clone();
                    u.board[i] = v;
                    assert!(p.check(&u).is_err(), "changed square {i} accepted");
                }
            }
        }
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("{}_0", free_square(&p)))
            .unwrap();
        assert!(p.check(&u).unwrap_err().contains("empty"));
    }
}

#[test]
fn filling_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("filling-e2e");
    let Some(files) = tatham_sgt::generate("filling", "13x9", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, None);
    eprintln!("Filling 13x9 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let i = free_square(&p);
    tatham_sgt::refusals(&files, &format!("{i}_0"));
    // a changed digit: the message names the region
    let other = if s.board[i] == 1 { 2 } else { 1 };
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push(("MOVE", format!("{i}_{other}")));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &moves, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("not solved: ") && e.contains("region"), "{e}");
    // a given number overwritten by a move
    let g = p.clues.iter().position(|&c| c != 0).unwrap();
    let mut moves: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    moves.push((
        "MOVE",
        format!("{g}_{}", if p.clues[g] == 1 { 2 } else { 1 }),
    ));
    tatham_sgt::write_with_moves(&save, &moves, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("given"), "{e}");
    // the ordinary moves of a player prove too
    let player: Vec<(&str, String)> = player_moves(&p, &s)
        .into_iter()
        .map(|m| ("MOVE", m))
        .collect();
    let by_moves = files[0].with_extension("moves");
    tatham_sgt::write_with_moves(&save, &player, &by_moves);
    tatham_sgt::prove_all(&[by_moves], None);
    let big = tatham_sgt::generate("filling", "17x13", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
