//! Magnets from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::magnets::{Pole, Puzzle, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// A player's moves reaching `s`: per domino, a "not blank" mark and then its pole (or
/// blank) on its first square.
fn player_moves(p: &Puzzle, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in p.dominoes() {
        let (x, y) = (i % p.w, i / p.w);
        out.push(format!("?{x},{y}"));
        let c = match s.grid[i] {
            Pole::Plus => '+',
            Pole::Minus => '-',
            Pole::Neutral => '.',
        };
        out.push(format!("{c}{x},{y}"));
    }
    out
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("magnets-replay");
    let Some(mut files) = tatham_sgt::generate("magnets", "6x5dtS", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("magnets", "10x9dt", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("magnets", "7x7de", 1, &dir.join("odd")).unwrap());
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
        // every domino changed to one of its other states (the other magnet, blank,
        // cleared) fails the check: the program's puzzles have one solution
        for (i, _) in p.dominoes() {
            let (x, y) = (i % p.w, i / p.w);
            for c in ['+', '-', '.', ' '] {
                let mut u = s.clone();
                p.execute_move(&mut u, &format!("{c}{x},{y}")).unwrap();
                if u != s {
                    assert!(
                        p.check(&u).is_err(),
                        "domino {i} changed by {c:?}, accepted"
                    );
                }
            }
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn magnets_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("magnets-e2e");
    let Some(files) = tatham_sgt::generate("magnets", "6x5dtS", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Magnets 6x5 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let (i, _) = p.dominoes()[0];
    tatham_sgt::refusals(&files, &format!(" {},{}", i % p.w, i / p.w));
    // the player's own moves prove as the Solve record does
    let moves: Vec<(&str, String)> = player_moves(&p, &s)
        .into_iter()
        .map(|m| ("MOVE", m))
        .collect();
    let played = files[0].with_extension("played.sav");
    tatham_sgt::write_with_moves(&save, &moves, &played);
    tatham_sgt::prove_all(&[played], None);
    // a magnet turned round: a count or two alike poles side by side
    let (j, _) = p
        .dominoes()
        .into_iter()
        .find(|&(j, _)| s.grid[j] != Pole::Neutral)
        .unwrap();
    let c = if s.grid[j] == Pole::Plus { '-' } else { '+' };
    let mut more: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    more.push(("MOVE", format!("{c}{},{}", j % p.w, j / p.w)));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &more, &changed);
    let (code, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("not solved: "), "{e}");
    let big = tatham_sgt::generate("magnets", "10x9dt", 1, &dir.join("big")).unwrap();
    eprintln!("Magnets 10x9: {:?}", tatham_sgt::prove_all(&big, None));
}
