//! Signpost from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::signpost::{Puzzle, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

fn xy(p: &Puzzle, i: usize) -> String {
    format!("{},{}", i % p.w, i / p.w)
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("signpost-replay");
    let Some(mut files) = tatham_sgt::generate("signpost", "4x4c", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("signpost", "7x7c", 1, &dir.join("big")).unwrap());
    files.extend(tatham_sgt::generate("signpost", "5x5", 1, &dir.join("free")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        let n = p.w * p.h;
        let at = |k: usize| s.nums.iter().position(|&x| x == k as i64).unwrap();
        // the same path by a player's links, 1 → 2 → … (links the game made itself skipped)
        let mut t = p.initial();
        for k in 1..n {
            let (a, b) = (at(k), at(k + 1));
            if t.next[a] != b {
                p.execute_move(&mut t, &format!("L{}-{}", xy(&p, a), xy(&p, b)))
                    .unwrap();
            }
        }
        assert_eq!((&t.nums, &t.next), (&s.nums, &s.next));
        // and from the end backwards, n − 1 → n first: unnumbered chains on the way
        let mut t = p.initial();
        for k in (1..n).rev() {
            let (a, b) = (at(k), at(k + 1));
            if t.next[a] != b {
                p.execute_move(&mut t, &format!("L{}-{}", xy(&p, a), xy(&p, b)))
                    .unwrap();
            }
        }
        assert_eq!((&t.nums, &t.next), (&s.nums, &s.next));
        // cutting any square not given out of the path fails the check
        for i in p.free() {
            let mut u = s.clone();
            p.execute_move(&mut u, &format!("C{}", xy(&p, i))).unwrap();
            assert!(p.check(&u).is_err(), "cut {i}");
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn signpost_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("signpost-e2e");
    let Some(files) = tatham_sgt::generate("signpost", "4x4c", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Signpost 4x4 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    tatham_sgt::refusals(&files, &format!("C{}", xy(&p, p.free()[0])));
    let big = tatham_sgt::generate("signpost", "7x7c", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
    let free = tatham_sgt::generate("signpost", "5x5", 1, &dir.join("free")).unwrap();
    tatham_sgt::prove_all(&free, None);
}
