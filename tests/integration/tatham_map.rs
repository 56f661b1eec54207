//! Map from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::map::{Puzzle, State};

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
    let dir = tatham_sgt::dir("map-replay");
    let Some(mut files) = tatham_sgt::generate("map", "20x15n30dn", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("map", "30x25n75dh", 1, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same colouring by a player's moves, one region at a time, with pencil marks
        // set and overwritten on the way
        let mut t = p.initial();
        for r in p.free() {
            let c = s.colour[r].unwrap();
            p.execute_move(&mut t, &format!("p{}:{r}", (c + 1) % 4))
                .unwrap();
            p.execute_move(&mut t, &format!("{c}:{r}")).unwrap();
        }
        assert_eq!(t, s);
        // an uncoloured region, and every recoloured region, fail the check
        let r = p.free()[0];
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("C:{r}")).unwrap();
        assert!(p.check(&u).unwrap_err().contains("not coloured"));
        for r in 0..p.n {
            for c in 0..4 {
                if Some(c) == s.colour[r] {
                    continue;
                }
                let mut u = s.clone();
                p.execute_move(&mut u, &format!("{c}:{r}")).unwrap();
                // a region with no neighbour of colour c could take it: the rule decides
                let clash = p.adjacent.iter().any(|&(i, j)| {
                    (i == r && s.colour[j] == Some(c)) || (j == r && s.colour[i] == Some(c))
                });
                assert_eq!(
                    p.check(&u).is_err(),
                    clash || p.given[r].is_some(),
                    "region {r} colour {c}"
                );
            }
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn map_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("map-e2e");
    let Some(files) = tatham_sgt::generate("map", "20x15n30dn", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Map 20x15 proof sizes: {sizes:?}");
    let save = tatham_sgt::read(&files[0]);
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    tatham_sgt::refusals(&files, &format!("C:{}", p.free()[0]));
    let big = tatham_sgt::generate("map", "30x25n75dn", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
