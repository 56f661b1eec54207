//! Bridges from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::bridges::{Puzzle, State};

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
    let dir = tatham_sgt::dir("bridges-replay");
    let Some(mut files) = tatham_sgt::generate("bridges", "7x7i30e10m2d0", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("bridges", "12x10i30e10m3d1", 2, &dir.join("big")).unwrap());
    files.extend(
        tatham_sgt::generate("bridges", "8x8i30e10m2Ld0", 2, &dir.join("noloops")).unwrap(),
    );
    for f in &files {
        let save = tatham_sgt::read(f);
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the player's moves: one bridge at a time, as interpret_move builds them up
        let mut t = p.initial();
        for (i, pair) in p.pairs.iter().enumerate() {
            let (x1, y1, _) = p.islands[pair.a];
            let (x2, y2, _) = p.islands[pair.b];
            for n in 1..=s.bridges[i] {
                p.execute_move(&mut t, &format!("L{x2},{y2},{x1},{y1},{n}"))
                    .unwrap();
            }
            p.execute_move(&mut t, &format!("M{x1},{y1}")).unwrap();
        }
        assert_eq!(t, s);
        // every single changed bridge count fails
        for i in 0..p.pairs.len() {
            for n in 0..=p.maxb as u8 {
                if n != s.bridges[i] {
                    let mut u = s.clone();
                    u.bridges[i] = n;
                    assert!(p.check(&u).is_err(), "pair {i} with {n} accepted");
                }
            }
        }
    }
}

#[test]
fn bad_descriptions_and_moves_are_refused() {
    assert!(Puzzle::decode("3x3", "2a2b2a2").is_err()); // short
    assert!(Puzzle::decode("3x3", "2a2c2a2").is_ok());
    assert!(Puzzle::decode("3x3", "2a2c2a2a").is_err());
    assert!(Puzzle::decode("3x3", "2a2c2aH").is_err());
    assert!(Puzzle::decode("3x3m5", "2a2c2a2").is_err());
    assert!(Puzzle::decode("3x3", "i").is_err()); // no islands
    let p = Puzzle::decode("3x3i30e10m2d0", "2a2c2a2").unwrap();
    assert_eq!(p.pairs.len(), 4);
    let mut s = p.initial();
    for bad in [
        "",
        "L0,0,2,2,1",
        "L0,0,2,0,3",
        "L0,0,1,0,1",
        "L0,0,2,0",
        "N0,0,2,2",
        "M1,1",
        "Q",
        "L0,0,2,0,1x",
    ] {
        assert!(p.execute_move(&mut s, bad).is_err(), "{bad:?}");
    }
    assert_eq!(s, p.initial());
    p.execute_move(&mut s, "L0,0,2,0,1;L2,0,2,2,1;L2,2,0,2,1;L0,2,0,0,1")
        .unwrap();
    assert!(p.check(&s).is_ok());
    // the same ring with loops forbidden
    let q = Puzzle::decode("3x3m2L", "2a2c2a2").unwrap();
    assert!(q.check(&s).unwrap_err().contains("loop"));
    p.execute_move(&mut s, "L0,2,0,0,0").unwrap();
    assert!(p.check(&s).unwrap_err().contains("wants 2"));
    // crossings are seen
    let c = Puzzle::decode("3x3", "a1a1a1a1a").unwrap();
    assert_eq!(c.crossings.len(), 1);
    let mut t = c.initial();
    c.execute_move(&mut t, "L0,1,2,1,1;L1,0,1,2,1").unwrap();
    assert!(c.check(&t).unwrap_err().contains("cross"));
}

#[test]
fn bridges_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("bridges-e2e");
    let Some(files) = tatham_sgt::generate("bridges", "7x7i30e10m2d0", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Bridges 7x7 proof sizes: {sizes:?}");
    // removing the first bridge of the solve
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let i = s.bridges.iter().position(|&n| n > 0).unwrap();
    let (x1, y1, _) = p.islands[p.pairs[i].a];
    let (x2, y2, _) = p.islands[p.pairs[i].b];
    tatham_sgt::refusals(&files, &format!("L{x1},{y1},{x2},{y2},0"));
    let big = tatham_sgt::generate("bridges", "12x12i30e10m2d0", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
