//! Light Up from save files written by the real program: the move replays, the completion
//! check, and the proofs through the binaries.

use crate::tatham_sgt;

use zkgames::tatham::lightup::{Puzzle, State};

fn solved(save: &tatham_sgt::Save) -> (Puzzle, State) {
    let p = Puzzle::decode(&save.params, &save.desc).unwrap();
    let mut s = p.initial();
    for m in &save.moves {
        p.execute_move(&mut s, m).unwrap();
    }
    (p, s)
}

/// A player's moves reaching `s`: a mark, then a light, one square at a time (`L` on a
/// marked square removes the mark), then the marks of `s`.
fn player_moves(p: &Puzzle, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for i in p.whites() {
        let (x, y) = (i % p.w, i / p.w);
        if s.light[i] {
            out.push(format!("I{x},{y}"));
            out.push(format!("L{x},{y}"));
        } else if s.mark[i] {
            out.push(format!("I{x},{y}"));
        }
    }
    out
}

#[test]
fn replays_match_solve_and_check_is_exact() {
    let dir = tatham_sgt::dir("lightup-replay");
    let Some(mut files) = tatham_sgt::generate("lightup", "7x7b20s4d0", 3, &dir) else {
        return;
    };
    files.extend(tatham_sgt::generate("lightup", "14x14b20s2d2", 1, &dir.join("big")).unwrap());
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
        // every light taken away or added fails the check; marks never matter
        for i in p.whites() {
            let (x, y) = (i % p.w, i / p.w);
            let mut u = s.clone();
            p.execute_move(&mut u, &format!("L{x},{y}")).unwrap();
            assert!(p.check(&u).is_err(), "toggled light {i} accepted");
            let mut u = s.clone();
            if !s.light[i] {
                p.execute_move(&mut u, &format!("I{x},{y}")).unwrap();
                assert_eq!(p.check(&u), Ok(()));
            }
        }
        assert!(p.check(&p.initial()).is_err());
    }
}

#[test]
fn lightup_proofs_through_the_binaries() {
    let dir = tatham_sgt::dir("lightup-e2e");
    let Some(files) = tatham_sgt::generate("lightup", "7x7b20s4d0", 2, &dir) else {
        return;
    };
    let sizes = tatham_sgt::prove_all(&files, Some(8 * 1024));
    eprintln!("Light Up 7x7 proof sizes: {sizes:?}");
    // taking a light away
    let save = tatham_sgt::read(&files[0]);
    let (p, s) = solved(&save);
    let i = p.whites().into_iter().find(|&i| s.light[i]).unwrap();
    tatham_sgt::refusals(&files, &format!("L{},{}", i % p.w, i / p.w));
    // the player's own moves prove as the Solve record does
    let moves: Vec<(&str, String)> = player_moves(&p, &s)
        .into_iter()
        .map(|m| ("MOVE", m))
        .collect();
    let played = files[0].with_extension("played.sav");
    tatham_sgt::write_with_moves(&save, &moves, &played);
    tatham_sgt::prove_all(&[played], None);
    // one more light: every white square is lit already, so it is lit by another light
    let j = p.whites().into_iter().find(|&j| !s.light[j]).unwrap();
    let mut more: Vec<(&str, String)> = save.moves.iter().map(|m| ("SOLVE", m.clone())).collect();
    more.push(("MOVE", format!("L{},{}", j % p.w, j / p.w)));
    let changed = files[0].with_extension("changed");
    tatham_sgt::write_with_moves(&save, &more, &changed);
    let (c, _, e) = tatham_sgt::prove(&changed, &changed.with_extension("p"));
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("not solved: ") && e.contains("is lit by another light"),
        "{e}"
    );
    let big = tatham_sgt::generate("lightup", "14x14b20s2d0", 1, &dir.join("big")).unwrap();
    eprintln!("Light Up 14x14: {:?}", tatham_sgt::prove_all(&big, None));
}
