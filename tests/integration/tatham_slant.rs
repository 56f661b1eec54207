//! Slant from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::slant::{Puzzle, State};

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
    let dir = tatham_sgt::dir("slant-replay");
    let Some(mut files) = tatham_sgt::generate("slant", "8x8de", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("slant", "12x9dh", 2, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same grid by a player's moves, one square at a time
        let mut t = p.initial();
        for y in 0..p.h {
            for x in 0..p.w {
                let c = if s.cells[y * p.w + x] < 0 { '\\' } else { '/' };
                p.execute_move(&mut t, &format!("{c}{x},{y}")).unwrap();
            }
        }
        assert_eq!(t, s);
        // an empty square, and every single changed square, fail the check
        let mut u = s.clone();
        p.execute_move(&mut u, "C0,0").unwrap();
        assert!(p.check(&u).unwrap_err().contains("empty"));
        for i in 0..s.cells.len() {
            let mut u = s.clone();
            u.cells[i] = -u.cells[i];
            assert!(p.check(&u).is_err(), "changed square {i} accepted");
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn bad_descriptions_and_moves_are_refused() {
    assert!(Puzzle::decode("2x2", "a").is_err());
    assert!(Puzzle::decode("2x2", "i").is_ok());
    assert!(Puzzle::decode("2x2", "j").is_err());
    assert!(Puzzle::decode("2x2", "h5").is_err());
    assert!(Puzzle::decode("2x2", "h4").is_ok());
    assert!(Puzzle::decode("99x99", "a").is_err());
    assert!(Puzzle::decode("2y2", "i").is_err());
    let p = Puzzle::decode("2x2", "i").unwrap();
    let mut s = p.initial();
    for bad in [
        "\\2,0", "/0,2", "X0,0", "\\0", "\\0,0;;", "\\-1,0", "\\0,0x",
    ] {
        assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
    }
    assert_eq!(s, p.initial());
    p.execute_move(&mut s, "S;\\0,0;/1,0;/0,1;\\1,1").unwrap();
    // \ / over / \ is a star; / \ over \ / is the diamond loop round the centre
    assert_eq!(s.cells, vec![-1, 1, 1, -1]);
    assert!(p.check(&s).is_ok());
    p.execute_move(&mut s, "/0,0;\\1,0;\\0,1;/1,1").unwrap();
    assert!(p.check(&s).unwrap_err().contains("loop"));
}

#[test]
fn slant_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("slant-e2e");
    let Some(files) = tatham_sgt::generate("slant", "8x8de", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Slant 8x8 proof sizes: {sizes:?}");
    // clearing a square of the solution
    tatham_sgt::refusals(&files, "C3,4");
    let big = tatham_sgt::generate("slant", "12x10de", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
