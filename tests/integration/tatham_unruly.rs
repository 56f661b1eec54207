//! Unruly from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::unruly::{Puzzle, Square, State};

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
    let dir = tatham_sgt::dir("unruly-replay");
    let Some(mut files) = tatham_sgt::generate("unruly", "8x8dt", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("unruly", "10x12udn", 2, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        assert_eq!(
            Puzzle::decode(&save.params, &save.desc).unwrap().desc(),
            save.desc
        );
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the same grid by a player's moves, one square at a time (the given ones kept)
        let mut t = p.initial();
        for i in p.free() {
            let c = if s.grid[i] == Square::One { '1' } else { '0' };
            p.execute_move(&mut t, &format!("P{c},{},{}", i % p.w, i / p.w))
                .unwrap();
        }
        assert_eq!(t, s);
        // an emptied square, and every single changed square, fail the check
        let i = p.free()[0];
        let mut u = s.clone();
        p.execute_move(&mut u, &format!("P-,{},{}", i % p.w, i / p.w))
            .unwrap();
        assert!(p.check(&u).unwrap_err().contains("empty"));
        for i in 0..s.grid.len() {
            let mut u = s.clone();
            u.grid[i] = if u.grid[i] == Square::One {
                Square::Zero
            } else {
                Square::One
            };
            assert!(p.check(&u).is_err(), "changed square {i} accepted");
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn bad_descriptions_and_moves_are_refused() {
    let p = Puzzle::decode("6x6", "zl").unwrap();
    // a Solve record may overwrite a given square in the game; zkgames refuses the result
    let q = Puzzle::decode("6x6", "Azk").unwrap();
    let mut s = q.initial();
    let row = "010101101010";
    let grid: String = std::iter::repeat_n(row, 3).collect();
    q.execute_move(&mut s, &format!("S{grid}")).unwrap();
    assert!(q.check(&s).unwrap_err().contains("given"));
    let mut t = p.initial();
    p.execute_move(&mut t, &format!("S{grid}")).unwrap();
    // rows alternate 010101 / 101010: columns alternate too, all balanced, no three alike
    assert_eq!(p.check(&t), Ok(()));
    // unique rows: the same grid repeats rows
    let u = Puzzle::decode("6x6u", "zl").unwrap();
    let mut v = u.initial();
    u.execute_move(&mut v, &format!("S{grid}")).unwrap();
    assert!(u.check(&v).unwrap_err().contains("the same"));
    for (params, desc) in [
        ("6x6", "zk"),
        ("6x6", "zm"),
        ("5x6", "zl"),
        ("6x6x", "zl"),
        ("6x6", "z1l"),
    ] {
        assert!(Puzzle::decode(params, desc).is_err(), "{params}:{desc}");
    }
}

#[test]
fn unruly_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("unruly-e2e");
    let Some(files) = tatham_sgt::generate("unruly", "8x8dt", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Unruly 8x8 proof sizes: {sizes:?}");
    // emptying a square of the solution
    let save = tatham_sgt::read(&files[0]);
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let i = p.free()[0];
    tatham_sgt::refusals(&files, &format!("P-,{},{}", i % p.w, i / p.w));
    let unique = tatham_sgt::generate("unruly", "8x8ude", 1, &dir.join("unique")).unwrap();
    tatham_sgt::prove_all(&unique, None);
    let big = tatham_sgt::generate("unruly", "14x14de", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
