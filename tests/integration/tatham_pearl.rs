//! Pearl from save files written by the real program: the move replays, the completion
//! check, and (below) the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::pearl::{Puzzle, State, D, L, R, U};

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
    let dir = tatham_sgt::dir("pearl-replay");
    let Some(mut files) = tatham_sgt::generate("pearl", "8x8dt", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("pearl", "10x9de", 2, &dir.join("big")).unwrap());
    for f in &files {
        let save = tatham_sgt::read(f);
        let (p, s) = solved(&save);
        assert_eq!(p.check(&s), Ok(()), "{}", f.display());
        // the player's drags: each segment drawn from both its squares, as interpret_move does
        let mut t = p.initial();
        for y in 0..p.h {
            for x in 0..p.w {
                let m = s.lines[y * p.w + x];
                if m & R != 0 {
                    p.execute_move(&mut t, &format!("F{R},{x},{y};F{L},{},{y}", x + 1))
                        .unwrap();
                }
                if m & D != 0 {
                    p.execute_move(&mut t, &format!("F{D},{x},{y};F{U},{x},{}", y + 1))
                        .unwrap();
                }
            }
        }
        assert_eq!(t.lines, s.lines);
        // every single segment removed or added (from both squares) fails
        for y in 0..p.h {
            for x in 0..p.w {
                for (d, o, nx, ny) in [(R, L, x + 1, y), (D, U, x, y + 1)] {
                    if nx >= p.w || ny >= p.h {
                        continue;
                    }
                    let mut u = s.clone();
                    u.lines[y * p.w + x] ^= d;
                    u.lines[ny * p.w + nx] ^= o;
                    assert!(
                        p.check(&u).is_err(),
                        "segment at {x},{y} dir {d} changed, accepted"
                    );
                }
            }
        }
        // a half segment (one square only) fails
        let mut u = s.clone();
        let i = u.lines.iter().position(|&m| m != 0).unwrap();
        u.lines[i] = 0;
        assert!(p.check(&u).is_err());
    }
}

#[test]
fn bad_descriptions_and_moves_are_refused() {
    assert!(Puzzle::decode("4x4", "p").is_err());
    assert!(Puzzle::decode("5x5", "x").is_err());
    assert!(Puzzle::decode("5x5", "xa").is_ok());
    assert!(Puzzle::decode("5x5", "xb").is_err());
    assert!(Puzzle::decode("5x5", "wC").is_err());
    assert!(Puzzle::decode("5x5dtn", "xa").is_ok());
    let p = Puzzle::decode("5x5", "Bx").unwrap();
    let mut s = p.initial();
    for bad in [
        "F16,0,0", "F1,5,0", "F1,0", "X1,0,0", "H", "F1,0,0;;", "F1,0,0x",
    ] {
        assert!(p.execute_move(&mut s, bad).is_err(), "{bad}");
    }
    assert_eq!(s, p.initial());
    // a line over a cross is illegal
    p.execute_move(&mut s, "M1,0,0").unwrap();
    assert!(p.execute_move(&mut s, "L1,0,0").is_err());
    // R replaces and clears the marks it covers
    p.execute_move(&mut s, "R1,0,0").unwrap();
    assert_eq!((s.lines[0], s.marks[0]), (1, 0));
}

#[test]
fn pearl_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("pearl-e2e");
    let Some(files) = tatham_sgt::generate("pearl", "8x8dt", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Pearl 8x8 proof sizes: {sizes:?}");
    // flipping the segment between a1 and b1 (from both squares)
    tatham_sgt::refusals(&files, "F1,0,0;F4,1,0");
    let big = tatham_sgt::generate("pearl", "12x12dt", 1, &dir.join("big")).unwrap();
    tatham_sgt::prove_all(&big, None);
}
