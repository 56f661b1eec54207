//! Sealed Wall Game moves at the library level: every legal move of small positions seals,
//! verifies and opens to itself; the circuit agrees with the rules on every move; a prover
//! forced to seal an illegal move is caught at the predicted rate; tampered seals and
//! openings, and openings against another position, player or context, are rejected; seals
//! of two different moves look alike.

use zkgames::mpc::circuit::Gate;
use zkgames::mpc::engine::{self, Required, System};
use zkgames::mpc::zkbpp::{self, Cheat};
use zkgames::proof_file::decode;
use zkgames::rng::seeded_rng;
use zkgames::wall::board::{Dir, Variant, Wall};
use zkgames::wall::game::{Game, Move};
use zkgames::wall::seal::{open_seal, read_seal, seal_move, verify_seal, MoveStatement};

fn zk(rounds: usize) -> System {
    System::Zkbpp(rounds)
}

/// Small games: standard starts, and the same with walls where they keep the game valid.
fn games() -> Vec<Game> {
    let mut out = Vec::new();
    for (variant, r, c) in [
        (Variant::CatAndMouse, 3, 3),
        (Variant::CatAndMouse, 3, 4),
        (Variant::Classic, 3, 3),
        (Variant::CatAndMouse, 4, 4),
    ] {
        let g = Game::standard(variant, r, c).unwrap();
        out.push(g.clone());
        // and after a couple of legal moves with walls, both players to move
        let mut h = g.clone();
        for _ in 0..2 {
            let mv = h
                .legal_moves(h.to_move())
                .into_iter()
                .filter(|m| m.walls().len() == 2)
                .nth(3)
                .unwrap();
            h = h.play(&mv).unwrap();
            out.push(h.clone());
        }
    }
    out
}

#[test]
fn every_legal_move_seals_verifies_and_opens_to_itself() {
    let mut rng = seeded_rng(1);
    let mut sealed = 0;
    for g in games() {
        let p = g.to_move();
        let st = MoveStatement::new(&g, p, b"ctx").unwrap();
        for mv in g.legal_moves(p) {
            let s = seal_move(&st, &mv, &zk(6), &mut rng).unwrap();
            let d = verify_seal(&st, &s.file, &Required::rounds(6)).unwrap();
            assert_eq!(d, s.digest);
            assert_eq!(open_seal(&st, &s.file, &s.opening).unwrap(), mv);
            sealed += 1;
        }
    }
    assert!(sealed > 1000, "{sealed}");
}

/// The circuit's verdict (in the clear) equals the rules' on every expressible move: every
/// pawn option with 0, 1 or 2 walls on free slots, legal or not.
#[test]
fn circuit_verdict_equals_the_rules_on_every_move() {
    let (mut legal, mut illegal) = (0, 0);
    for g in games() {
        for p in 0..g.players().len() {
            let st = MoveStatement::new(&g, p, b"").unwrap();
            let pos = g.position();
            let free: Vec<Wall> = pos.graph().free().to_vec();
            let mut wallsets: Vec<Vec<Wall>> = vec![vec![]];
            wallsets.extend(free.iter().map(|&w| vec![w]));
            for (i, &a) in free.iter().enumerate() {
                for &b in &free[i + 1..] {
                    wallsets.push(vec![a, b]);
                }
            }
            for o in g.pawn_options(p) {
                for ws in &wallsets {
                    let mv = Move::new(o.cat, o.mouse, ws.clone());
                    let w = st.witness_unchecked(&mv).expect("expressible");
                    let rules = g.check(p, &mv).is_ok();
                    assert_eq!(st.accepts(&w), rules, "{mv:?} by {p}");
                    if rules {
                        legal += 1;
                    } else {
                        illegal += 1;
                    }
                }
            }
        }
    }
    assert!(legal > 1000 && illegal > 1000, "{legal} / {illegal}");
}

/// An illegal move whose failing checks are all AND outputs, and those AND indices.
fn illegal_with_and_flags(g: &Game, st: &MoveStatement) -> (Move, Vec<usize>) {
    let c = st.circuit();
    let n_in = c.n_inputs();
    for mv in g.pawn_options(g.to_move()).into_iter().flat_map(|o| {
        g.position()
            .graph()
            .free()
            .iter()
            .map(move |&w| Move::new(o.cat, o.mouse, vec![w]))
            .collect::<Vec<_>>()
    }) {
        if g.check(g.to_move(), &mv).is_ok() {
            continue;
        }
        let Some(w) = st.witness_unchecked(&mv) else {
            continue;
        };
        let out = c.eval(&w);
        let mut ands = Vec::new();
        let mut all_and = true;
        for (o, bit) in c.outputs().iter().zip(&out) {
            if !bit {
                continue;
            }
            match o {
                zkgames::mpc::circuit::Bit::Wire(x) if *x as usize >= n_in => {
                    let gi = *x as usize - n_in;
                    if matches!(c.gates()[gi], Gate::And(..)) {
                        ands.push(
                            c.gates()[..gi]
                                .iter()
                                .filter(|g| matches!(g, Gate::And(..)))
                                .count(),
                        );
                    } else {
                        all_and = false;
                    }
                }
                _ => all_and = false,
            }
        }
        if all_and && !ands.is_empty() {
            return (mv, ands);
        }
    }
    panic!("no suitable illegal move");
}

/// A prover that seals an illegal move by flipping its failing checks in one party's view is
/// caught in a round exactly when the challenge recomputes that party (probability 1/3).
/// In a one-round Fiat–Shamir seal a caught round still passes when the hash of the
/// recomputed (different) commitments happens to give the same trit (1/3), so the predicted
/// acceptance is 2/3 + 1/3 · 1/3 = 7/9; a full seal is rejected.
#[test]
fn a_prover_sealing_an_illegal_move_is_caught_at_the_predicted_rate() {
    // a corridor: walls leave the cat one path to the mouse, so walls on it cut
    let g = Game::standard(Variant::CatAndMouse, 4, 4).unwrap();
    let st = MoveStatement::new(&g, 0, b"").unwrap();
    let (mv, ands) = illegal_with_and_flags(&g, &st);
    let w = st.witness_unchecked(&mv).unwrap();
    assert!(!st.accepts(&w));
    let mut rng = seeded_rng(7);
    let runs = 900;
    let mut accepted = 0;
    for run in 0..runs {
        let party = run % 3;
        let cheats: Vec<Cheat> = ands
            .iter()
            .map(|&a| Cheat {
                round: 0,
                and_index: a,
                party,
            })
            .collect();
        let p = zkbpp::prove_unchecked(&st.statement(), &w, 1, &mut rng, &cheats);
        if zkbpp::verify(&st.statement(), &p, 1).is_ok() {
            accepted += 1;
        }
    }
    let rate = accepted as f64 / runs as f64;
    let want = 7.0 / 9.0;
    let sd = (want * (1.0 - want) / runs as f64).sqrt();
    assert!(
        (rate - want).abs() < 5.0 * sd,
        "escape rate {rate}, expected 7/9 ± {sd:.3}"
    );
    let cheats: Vec<Cheat> = (0..219)
        .flat_map(|r| {
            ands.iter().map(move |&a| Cheat {
                round: r,
                and_index: a,
                party: r % 3,
            })
        })
        .collect();
    let p = zkbpp::prove_unchecked(&st.statement(), &w, 219, &mut rng, &cheats);
    assert!(zkbpp::verify(&st.statement(), &p, 219).is_err());
    // and the honest path refuses the illegal move before proving
    let e = seal_move(&st, &mv, &zk(8), &mut rng).err().unwrap();
    assert!(e.to_string().contains("illegal move"), "{e}");
}

#[test]
fn tampered_seals_and_openings_are_rejected_and_openings_are_bound() {
    let g = Game::standard(Variant::CatAndMouse, 3, 3).unwrap();
    let st = MoveStatement::new(&g, 0, b"game 1").unwrap();
    let mut rng = seeded_rng(3);
    let mv = Move::new(Some((1, 0)), None, vec![Wall::new(1, 1, Dir::R)]);
    let s = seal_move(&st, &mv, &zk(8), &mut rng).unwrap();
    for i in 0..s.file.len() {
        for bit in [0x01u8, 0x80] {
            let mut t = s.file.clone();
            t[i] ^= bit;
            assert!(
                verify_seal(&st, &t, &Required::rounds(8)).is_err(),
                "seal byte {i} ^ {bit:#x}"
            );
            assert!(open_seal(&st, &t, &s.opening).is_err());
        }
    }
    for i in 0..s.opening.len() {
        let mut t = s.opening.clone();
        t[i] ^= 0x01;
        assert!(open_seal(&st, &s.file, &t).is_err(), "opening byte {i}");
    }
    // another move's opening, another position, player or context
    let other = seal_move(
        &st,
        &Move::new(None, Some((1, 0)), vec![]),
        &zk(8),
        &mut rng,
    )
    .unwrap();
    assert!(open_seal(&st, &s.file, &other.opening).is_err());
    let g2 = g.play(&Move::none()).unwrap();
    for st2 in [
        MoveStatement::new(&g, 0, b"game 2").unwrap(),
        MoveStatement::new(&g, 1, b"game 1").unwrap(),
        MoveStatement::new(&g2, 1, b"game 1").unwrap(),
    ] {
        assert!(verify_seal(&st2, &s.file, &Required::rounds(8)).is_err());
        assert!(open_seal(&st2, &s.file, &s.opening).is_err());
    }
    // fewer rounds than required
    assert!(verify_seal(&st, &s.file, &Required::rounds(9)).is_err());
    assert_eq!(open_seal(&st, &s.file, &s.opening).unwrap(), mv);
}

/// Chi-square over positions of opened bits (input share x2 when party 2 is opened, and
/// the opened AND outputs) for seals of two different legal moves: no difference beyond
/// noise. The same statistic on the two witnesses themselves (a leak of everything) is far
/// above the threshold, so the test can fail.
#[test]
fn seals_of_two_moves_look_alike() {
    let g = Game::standard(Variant::CatAndMouse, 4, 4).unwrap();
    let st = MoveStatement::new(&g, 0, b"").unwrap();
    let a = Move::new(Some((1, 0)), None, vec![Wall::new(2, 2, Dir::R)]);
    let b = Move::new(
        None,
        None,
        vec![Wall::new(0, 1, Dir::D), Wall::new(2, 0, Dir::R)],
    );
    let mut rng = seeded_rng(11);
    let counts = |mv: &Move, rng: &mut zkgames::rng::Rng| {
        let mut c: Vec<(u64, u64)> = Vec::new();
        for _ in 0..150 {
            let s = seal_move(&st, mv, &zk(12), rng).unwrap();
            let engine::Proof::Zkbpp(p) = read_seal(&s.file).unwrap() else {
                panic!("a ZKB++ seal")
            };
            for r in &p.rounds {
                let bytes: Vec<u8> = r
                    .opening
                    .x2
                    .iter()
                    .chain(&r.opening.view)
                    .copied()
                    .collect();
                if c.len() < bytes.len() * 8 {
                    c.resize(bytes.len() * 8, (0, 0));
                }
                for (i, x) in bytes.iter().enumerate() {
                    for k in 0..8 {
                        c[i * 8 + k].0 += (x >> k & 1) as u64;
                        c[i * 8 + k].1 += 1;
                    }
                }
            }
        }
        c
    };
    let (ca, cb) = (counts(&a, &mut rng), counts(&b, &mut rng));
    let chi = |x: &[(u64, u64)], y: &[(u64, u64)]| -> (f64, usize) {
        let mut s = 0.0;
        let mut df = 0;
        for (&(o1, n1), &(o2, n2)) in x.iter().zip(y) {
            let (n1, n2) = (n1 as f64, n2 as f64);
            let p = (o1 as f64 + o2 as f64) / (n1 + n2);
            if p <= 0.0 || p >= 1.0 || n1 == 0.0 || n2 == 0.0 {
                continue;
            }
            let d = o1 as f64 / n1 - o2 as f64 / n2;
            s += d * d / (p * (1.0 - p) * (1.0 / n1 + 1.0 / n2));
            df += 1;
        }
        (s, df)
    };
    let (s, df) = chi(&ca, &cb);
    let limit = df as f64 + 6.0 * (2.0 * df as f64).sqrt();
    assert!(
        df > 100 && s < limit,
        "chi-square {s:.1} with {df} df (limit {limit:.1})"
    );
    // negative control: the witnesses themselves differ, and the statistic says so
    let wa = st.witness_unchecked(&a).unwrap();
    let wb = st.witness_unchecked(&b).unwrap();
    let as_counts = |w: &[bool]| w.iter().map(|&x| (150 * x as u64, 150)).collect::<Vec<_>>();
    let (s2, df2) = chi(&as_counts(&wa), &as_counts(&wb));
    assert!(
        s2 > df2 as f64 + 6.0 * (2.0 * df2 as f64).sqrt(),
        "control {s2:.1} / {df2}"
    );
    let _ = decode::<u8>;
}

/// Boards beyond what the standard notation names (and so beyond any real game) are refused
/// before any table or circuit is built: the circuit grows with the board.
#[test]
fn boards_too_large_for_the_notation_are_refused() {
    let g = Game::standard(Variant::CatAndMouse, 10, 27).unwrap();
    let e = MoveStatement::new(&g, 0, b"").unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("at most 26 columns"), "{e}");
    let g = Game::standard(Variant::CatAndMouse, 99, 26).unwrap();
    assert!(MoveStatement::new(&g, 0, b"").is_ok());
}

/// KKW seals (small parameters) of every legal move of a small position verify and open to
/// the move; every flipped byte of a seal or opening is rejected; an opening is bound to its
/// position, player and context; a verifier asking more bits than the parameters give
/// rejects.
#[test]
fn kkw_seals_every_legal_move_and_rejects_tampering() {
    use zkgames::mpc::kkw::Params;
    let mut rng = seeded_rng(21);
    let sys = System::Kkw(Params::new(8, 4, 4));
    let req = Required {
        bits: 1.0,
        ..Required::rounds(1)
    };
    let g = Game::standard(Variant::CatAndMouse, 3, 3).unwrap();
    let st = MoveStatement::new(&g, 0, b"game 1").unwrap();
    let mut n = 0;
    for mv in g.legal_moves(0) {
        let s = seal_move(&st, &mv, &sys, &mut rng).unwrap();
        assert_eq!(verify_seal(&st, &s.file, &req).unwrap(), s.digest);
        assert_eq!(open_seal(&st, &s.file, &s.opening).unwrap(), mv);
        n += 1;
    }
    assert!(n > 50, "{n}");
    let mv = Move::new(Some((1, 0)), None, vec![Wall::new(1, 1, Dir::R)]);
    let s = seal_move(&st, &mv, &sys, &mut rng).unwrap();
    assert!(matches!(read_seal(&s.file).unwrap(), engine::Proof::Kkw(_)));
    for i in 0..s.file.len() {
        let mut t = s.file.clone();
        t[i] ^= 1 << (i % 8);
        assert!(verify_seal(&st, &t, &req).is_err(), "seal byte {i}");
        assert!(open_seal(&st, &t, &s.opening).is_err());
    }
    for i in 0..s.opening.len() {
        let mut t = s.opening.clone();
        t[i] ^= 0x01;
        assert!(open_seal(&st, &s.file, &t).is_err(), "opening byte {i}");
    }
    let g2 = g.play(&Move::none()).unwrap();
    for st2 in [
        MoveStatement::new(&g, 0, b"game 2").unwrap(),
        MoveStatement::new(&g, 1, b"game 1").unwrap(),
        MoveStatement::new(&g2, 1, b"game 1").unwrap(),
    ] {
        assert!(verify_seal(&st2, &s.file, &req).is_err());
        assert!(open_seal(&st2, &s.file, &s.opening).is_err());
    }
    let strict = Required { bits: 64.0, ..req };
    assert!(verify_seal(&st, &s.file, &strict).is_err());
    // and a verifier accepting ZKB++ only
    assert!(verify_seal(&st, &s.file, &req.only(Some(engine::Engine::Zkbpp))).is_err());
    assert!(verify_seal(&st, &s.file, &req.only(Some(engine::Engine::Kkw))).is_ok());
}
