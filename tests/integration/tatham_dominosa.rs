//! Dominosa from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::dominosa::{Puzzle, State};

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
    let dir = tatham_sgt::dir("dominosa-replay");
    let Some(mut files) = tatham_sgt::generate("dominosa", "6db", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("dominosa", "9db", 1, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same tiling by a player's dominoes, one at a time, after a barrier that the
        // first domino removes
        let mut t = p.initial();
        let dominoes: Vec<(usize, usize)> = (0..s.grid.len())
            .filter(|&i| s.grid[i] > i)
            .map(|i| (i, s.grid[i]))
            .collect();
        let (a, b) = dominoes[0];
        p.execute_move(&mut t, &format!("E{a},{b}")).unwrap();
        assert_ne!(t, p.initial());
        for &(a, b) in &dominoes {
            p.execute_move(&mut t, &format!("D{a},{b}")).unwrap();
        }
        assert_eq!(t, s);
        // lifting any domino fails the check
        for &(a, b) in &dominoes {
            let mut u = s.clone();
            p.execute_move(&mut u, &format!("D{a},{b}")).unwrap();
            assert!(p.check(&u).unwrap_err().contains("not covered"));
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn dominosa_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("dominosa-e2e");
    let Some(files) = tatham_sgt::generate("dominosa", "6db", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Dominosa 6 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let (_, s) = solved(&save);
    let a = (0..s.grid.len()).find(|&i| s.grid[i] > i).unwrap();
    tatham_sgt::refusals(&files, &format!("D{a},{}", s.grid[a]));
    let big = tatham_sgt::generate("dominosa", "9db", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
