//! The solver against an independent brute force, its impossibility proofs, and the CLI logic.

use crate::common;

use std::collections::HashSet;

use zkgames::cli::peg_solve::{run, solve_text, SearchArgs, SolveArgs};
use zkgames::peg::board::Puzzle;
use zkgames::peg::instance::{Goal, Instance};
use zkgames::peg::solver::*;
use zkgames::peg_count::{count, Mode};
use zkgames::Error;

use common::XorShift as Rng;

/// Plays `steps` random triplets of `ts` on `row`, each one (either way) where it is a legal
/// move; a random finish reached this way is often reachable.
fn random_moves(row: &mut [bool], ts: &[[u32; 3]], steps: usize, rng: &mut Rng) {
    for _ in 0..steps {
        let Some(&t) = ts.get(rng.below(ts.len().max(1))) else {
            continue;
        };
        let [a, b, c] = t.map(|x| x as usize);
        if row[a] && row[b] && !row[c] {
            (row[a], row[b], row[c]) = (false, false, true);
        } else if row[c] && row[b] && !row[a] {
            (row[a], row[b], row[c]) = (true, false, false);
        }
    }
}

/// Reference: the set of positions reachable from `f`, explored with plain vectors and the
/// move rule of Definition 6 written out directly, then a goal test on each.
fn brute_force_solvable(inst: &Instance) -> bool {
    let n = inst.n();
    let enc = |s: &[bool]| {
        s.iter()
            .enumerate()
            .fold(0u32, |a, (i, &b)| a | (b as u32) << i)
    };
    let mut seen = HashSet::new();
    let mut todo = vec![inst.first().to_vec()];
    seen.insert(enc(inst.first()));
    while let Some(s) = todo.pop() {
        let pegs = s.iter().filter(|&&b| b).count();
        match inst.goal() {
            Goal::Position(l) if &s == l => return true,
            Goal::PegCount(c) if pegs == *c => return true,
            _ => {}
        }
        for t in inst.triplets() {
            let [a, b, c] = t.map(|x| x as usize);
            for (x, z) in [(a, c), (c, a)] {
                if s[x] && s[b] && !s[z] {
                    let mut u = s.clone();
                    u[x] = false;
                    u[b] = false;
                    u[z] = true;
                    if seen.insert(enc(&u)) {
                        todo.push(u);
                    }
                }
            }
        }
        let _ = n;
    }
    false
}

fn random_instance(rng: &mut Rng) -> Instance {
    loop {
        let n = 3 + rng.below(10);
        let mut ts: Vec<[u32; 3]> = Vec::new();
        let mut sets = HashSet::new();
        for _ in 0..1 + rng.below(3 * n) {
            let mut t = [
                rng.below(n) as u32,
                rng.below(n) as u32,
                rng.below(n) as u32,
            ];
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                continue;
            }
            let mut s = t;
            s.sort();
            if sets.insert(s) {
                if rng.below(2) == 0 {
                    t.swap(0, 2);
                }
                ts.push(t);
            }
        }
        let f: Vec<bool> = (0..n).map(|_| rng.below(3) > 0).collect();
        let goal = if rng.below(4) == 0 {
            Goal::PegCount(rng.below(3))
        } else {
            // often a position reached by a few random legal moves, so many are solvable
            let mut l = f.clone();
            if rng.below(3) > 0 {
                let steps = 1 + rng.below(n);
                random_moves(&mut l, &ts, steps, rng);
            } else {
                l = (0..n).map(|_| rng.below(3) == 0).collect();
            }
            Goal::Position(l)
        };
        if let Ok(i) = Instance::new(n, ts, f, goal) {
            return i;
        }
    }
}

fn random_perm(rng: &mut Rng, n: usize) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i + 1));
    }
    p
}

/// Independent check of an impossibility witness: invariant under every triplet, and it
/// separates f from l.
fn check_witness(inst: &Instance, w: &[bool]) {
    for t in inst.triplets() {
        assert_eq!(t.iter().filter(|&&x| w[x as usize]).count() % 2, 0);
    }
    let par = |r: &[bool]| r.iter().zip(w).filter(|(a, b)| **a && **b).count() % 2;
    assert_ne!(par(inst.first()), par(inst.last().unwrap()));
}

#[test]
fn solver_agrees_with_brute_force_on_random_instances() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut solvable, mut classes, mut pagoda_claims, mut by_beam) = (0, 0, 0, 0);
    for case in 0..3000 {
        let inst = random_instance(&mut rng);
        let n = inst.n();
        // random candidate "symmetries": some valid, most not; the solver must filter them
        let mut syms: Vec<Vec<u32>> = (0..3).map(|_| random_perm(&mut rng, n)).collect();
        syms.push(vec![0; n]);
        syms.push((0..n as u32 + 1).collect());
        let opts = SolveOptions {
            node_budget: 1 << 20,
            progress: false,
            symmetries: syms,
        };
        let truth = brute_force_solvable(&inst);
        for p in pagodas(&inst) {
            assert!(is_pagoda(&inst, &p), "case {case}");
        }
        let w = position_class_witness(&inst);
        if let Some(w) = &w {
            check_witness(&inst, w);
            classes += 1;
            assert!(
                !truth,
                "case {case}: class witness on a solvable instance {inst:?}"
            );
        }
        // the DFS alone (no endgame table, no pagodas, many restarts), then everything
        let bare = Tuning {
            endgame_bytes: 0,
            use_pagodas: false,
            search_pagodas: 0,
            first_restart_nodes: 1 + (case % 5) as u64,
            first_beam_width: 0,
        };
        // narrow beams (width 1, 2 or 3, then 4 times wider each round) between short
        // depth-first restarts, so both searches find solutions
        let truncated = Tuning {
            endgame_bytes: 64 * (case % 4),
            search_pagodas: 16,
            first_restart_nodes: 1 + (case % 3) as u64,
            first_beam_width: 1 + case % 3,
            ..Tuning::default()
        };
        // the same instance padded with 130 vertices in no triplet (empty at both ends): the
        // solver switches to boxed bitsets for N > 128, and the verdict must not change
        let padded = {
            let pad = |r: &[bool]| r.iter().copied().chain([false; 130]).collect::<Vec<bool>>();
            let goal = match inst.goal() {
                Goal::Position(l) => Goal::Position(pad(l)),
                Goal::PegCount(c) => Goal::PegCount(*c),
            };
            Instance::new(n + 130, inst.triplets().to_vec(), pad(inst.first()), goal).unwrap()
        };
        // the old solver (kept as the benchmark's baseline) as a second opinion
        match baseline::solve_tuned(&inst, &opts, &Tuning::default()).0 {
            SolveOutcome::Solved(z) => {
                assert!(truth, "case {case}: baseline");
                inst.check_solution(&z).unwrap();
            }
            SolveOutcome::Impossible(_) => assert!(!truth, "case {case}: baseline"),
            o => panic!("case {case}: baseline {o:?}"),
        }
        for (inst, t) in [
            (&inst, &bare),
            (&inst, &truncated),
            (&padded, &bare),
            (
                &padded,
                &Tuning {
                    search_pagodas: 16,
                    ..Tuning::default()
                },
            ),
        ] {
            let (outcome, st) = solve_tuned(inst, &opts, t);
            match outcome {
                SolveOutcome::Solved(z) => {
                    assert!(truth, "case {case}");
                    inst.check_solution(&z).unwrap();
                    by_beam += (st.beam_width > 0) as u32;
                }
                SolveOutcome::Impossible(why) => assert!(
                    !truth,
                    "case {case} {t:?}: {why} {inst:?} {:?}",
                    opts.symmetries
                ),
                o => panic!("case {case}: {o:?}"),
            }
        }
        match solve(&inst, &opts) {
            SolveOutcome::Solved(z) => {
                assert!(truth, "case {case}");
                inst.check_solution(&z).unwrap();
                solvable += 1;
            }
            SolveOutcome::Impossible(why) => {
                assert!(
                    !truth,
                    "case {case}: claimed impossible ({why}) but solvable: {inst:?}"
                );
                if why.starts_with("pagoda") {
                    pagoda_claims += 1;
                }
            }
            o => panic!("case {case}: {o:?}"),
        }
    }
    // the generator must exercise every branch
    assert!(
        solvable > 500 && classes > 100 && by_beam > 500,
        "solvable {solvable}, classes {classes}, found by a beam {by_beam}"
    );
    eprintln!("solvable {solvable}, position classes {classes}, pagoda proofs {pagoda_claims}, found by a beam {by_beam}");
}

#[test]
fn solver_agrees_with_brute_force_on_random_boards() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut solved = 0;
    for case in 0..1500 {
        let geometry = ["square", "square-diagonal", "triangle"][case % 3];
        let (h, w) = (3 + rng.below(2), 3 + rng.below(2));
        let mut start = String::new();
        let mut finish = String::new();
        for y in 0..h {
            for x in 0..w {
                let (a, b) = match rng.below(6) {
                    0 => ('_', '_'),
                    1 | 2 => ('.', if rng.below(4) == 0 { 'o' } else { '.' }),
                    _ => ('o', if rng.below(5) == 0 { 'o' } else { '.' }),
                };
                if geometry == "triangle" {
                    // staggered drawing: row y starts at column y (a rhombus of the lattice)
                    if x == 0 {
                        start += &" ".repeat(y);
                        finish += &" ".repeat(y);
                    }
                    start += &format!("{a} ");
                    finish += &format!("{b} ");
                } else {
                    start.push(a);
                    finish.push(b);
                }
            }
            start.push('\n');
            finish.push('\n');
        }
        let mut text = format!("geometry: {geometry}\nstart:\n{start}finish:\n{finish}");
        if case % 2 == 0 {
            // a finish reached by random legal moves, drawn with render()
            let Ok(p0) = Puzzle::parse(&format!(
                "geometry: {geometry}\nstart:\n{start}finish-pegs: 1\n"
            )) else {
                continue;
            };
            let mut l = p0.instance().first().to_vec();
            let steps = 1 + rng.below(8);
            random_moves(&mut l, p0.instance().triplets(), steps, &mut rng);
            text = format!(
                "geometry: {geometry}\nstart:\n{start}finish:\n{}",
                p0.render(&l)
            );
        }
        let Ok(p) = Puzzle::parse(&text) else {
            continue;
        };
        let inst = p.instance();
        let opts = SolveOptions {
            node_budget: 1 << 20,
            progress: false,
            symmetries: p.symmetries(),
        };
        let truth = brute_force_solvable(inst);
        let bare = Tuning {
            endgame_bytes: 0,
            use_pagodas: false,
            search_pagodas: 0,
            first_restart_nodes: 3,
            first_beam_width: 0,
        };
        // every pagoda function inside the search, narrow beams
        let pruned = Tuning {
            search_pagodas: 16,
            first_restart_nodes: 5,
            first_beam_width: 2,
            ..Tuning::default()
        };
        match solve_tuned(inst, &opts, &pruned).0 {
            SolveOutcome::Solved(z) => inst.check_solution(&z).unwrap(),
            SolveOutcome::Impossible(why) => assert!(!truth, "case {case}: {why}\n{text}"),
            o => panic!("{o:?}"),
        }
        match solve_tuned(inst, &opts, &bare).0 {
            SolveOutcome::Solved(z) => inst.check_solution(&z).unwrap(),
            SolveOutcome::Impossible(why) => assert!(!truth, "case {case}: {why}\n{text}"),
            o => panic!("{o:?}"),
        }
        let old = baseline::solve_tuned(inst, &opts, &Tuning::default()).0;
        assert_eq!(
            matches!(old, SolveOutcome::Solved(_)),
            truth,
            "case {case}: baseline {old:?}"
        );
        match solve(inst, &opts) {
            SolveOutcome::Solved(z) => {
                assert!(truth);
                inst.check_solution(&z).unwrap();
                assert_eq!(p.parse_solution(&p.format_solution(&z)).unwrap(), z);
                solved += 1;
            }
            SolveOutcome::Impossible(why) => assert!(!truth, "case {case}: {why}\n{text}"),
            o => panic!("{o:?}"),
        }
    }
    assert!(solved > 300, "{solved}");
}

#[test]
fn european_central_game_is_impossible_by_position_classes() {
    let p = Puzzle::parse(
        "geometry: square\nstart:\n    o o o\n  o o o o o\no o o o o o o\no o o . o o o\no o o o o o o\n  o o o o o\n    o o o\n\
         finish:\n    . . .\n  . . . . .\n. . . . . . .\n. . . o . . .\n. . . . . . .\n  . . . . .\n    . . .\n",
    )
    .unwrap();
    assert_eq!(p.instance().n(), 37);
    let w = position_class_witness(p.instance()).expect("a separating class");
    check_witness(p.instance(), &w);
    match solve(p.instance(), &SolveOptions::default()) {
        SolveOutcome::Impossible(why) => assert!(why.starts_with("position classes"), "{why}"),
        o => panic!("{o:?}"),
    }
    // and the English central game is not separated
    let e = Puzzle::load("puzzles/peg/english.txt").unwrap();
    assert!(position_class_witness(e.instance()).is_none());
}

#[test]
fn symmetries_are_filtered_by_the_goal() {
    let p = Puzzle::load("puzzles/peg/european.txt").unwrap();
    let all = p.symmetries();
    assert_eq!(all.len(), 8);
    let kept = valid_symmetries(p.instance(), &all);
    assert!(kept.len() < 8 && kept[0] == (0..37).collect::<Vec<u32>>());
    let e = Puzzle::load("puzzles/peg/english.txt").unwrap();
    assert_eq!(valid_symmetries(e.instance(), &e.symmetries()).len(), 8);
}

#[test]
fn budget_exhaustion_is_reported() {
    let p = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let opts = SolveOptions {
        node_budget: 1000,
        progress: false,
        symmetries: p.symmetries(),
    };
    assert_eq!(
        solve(p.instance(), &opts),
        SolveOutcome::BudgetExhausted { nodes: 1000 }
    );
    let e = solve_text(&p, 1000, true, false).unwrap_err();
    assert!(
        matches!(e, Error::Rejected(_)) && e.to_string().contains("budget of 1000 nodes exhausted"),
        "{e}"
    );
}

#[test]
fn big_bitsets_solve_too() {
    // A 1 x 140 strip: more than 128 vertices, so the boxed bitset path runs.
    let row: String = std::iter::repeat_n("o", 138)
        .chain([".", "."])
        .collect::<Vec<_>>()
        .join(" ");
    let fin: String = std::iter::repeat_n("o", 136)
        .chain([".", ".", "o", "."])
        .collect::<Vec<_>>()
        .join(" ");
    let p = Puzzle::parse(&format!(
        "geometry: square\nstart:\n{row}\nfinish:\n{fin}\n"
    ))
    .unwrap();
    assert_eq!(p.instance().n(), 140);
    let SolveOutcome::Solved(z) = solve(p.instance(), &SolveOptions::default()) else {
        panic!()
    };
    assert_eq!(z.len(), 2);
    let bad = format!(
        "geometry: square\nstart:\n{row}\nfinish:\n{}\n",
        fin.replacen("o", ".", 1)
    );
    let p = Puzzle::parse(&bad).unwrap();
    assert!(matches!(
        solve(p.instance(), &SolveOptions::default()),
        SolveOutcome::Impossible(_)
    ));
}

#[test]
fn cli_writes_a_valid_solution_and_refuses_impossible_puzzles() {
    let dir = std::env::temp_dir().join(format!("peg_solver_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("english.sol");
    run(SolveArgs {
        puzzle: "puzzles/peg/english.txt".into(),
        output: Some(out.to_str().unwrap().into()),
        count_all: false,
        solvable_only: false,
        out: Default::default(),
        search: SearchArgs {
            budget: Some(1 << 22),
            no_symmetry: false,
            quiet: true,
        },
    })
    .unwrap();
    let p = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let z = p
        .parse_solution(&std::fs::read_to_string(&out).unwrap())
        .unwrap();
    p.instance().check_solution(&z).unwrap();

    let imp = dir.join("french-central.txt");
    std::fs::write(
        &imp,
        "name: french-central\ngeometry: square\nstart:\n    o o o\n  o o o o o\no o o o o o o\no o o . o o o\no o o o o o o\n  o o o o o\n    o o o\n\
         finish:\n    . . .\n  . . . . .\n. . . . . . .\n. . . o . . .\n. . . . . . .\n  . . . . .\n    . . .\n",
    )
    .unwrap();
    let e = run(SolveArgs {
        puzzle: imp.to_str().unwrap().into(),
        output: None,
        count_all: false,
        solvable_only: false,
        out: Default::default(),
        search: SearchArgs {
            budget: Some(1000),
            no_symmetry: false,
            quiet: true,
        },
    })
    .unwrap_err();
    assert!(matches!(e, Error::Rejected(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("french-central is impossible: position classes"),
        "{e}"
    );
    let e = run(SolveArgs {
        puzzle: dir.join("missing.txt").to_str().unwrap().into(),
        output: None,
        count_all: false,
        solvable_only: false,
        out: Default::default(),
        search: SearchArgs {
            budget: Some(1),
            no_symmetry: false,
            quiet: true,
        },
    })
    .unwrap_err();
    assert_eq!(e.exit_code(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_permutation_that_keeps_triplet_sets_but_not_middles_is_no_symmetry() {
    // Found by the random comparison: swapping vertices 2 and 4 (1-based) maps every triplet's
    // vertex set onto a triplet's set, but not middles onto middles. Using it made the solver
    // call this solvable instance impossible.
    let inst = Instance::new(
        4,
        vec![[0, 3, 2], [1, 2, 0], [2, 3, 1]],
        vec![false, true, true, true],
        Goal::Position(vec![false, false, true, false]),
    )
    .unwrap();
    let swap = vec![0, 3, 2, 1];
    assert_eq!(
        valid_symmetries(&inst, std::slice::from_ref(&swap)).len(),
        1
    );
    let opts = SolveOptions {
        node_budget: 100,
        progress: false,
        symmetries: vec![swap],
    };
    let bare = Tuning {
        endgame_bytes: 0,
        use_pagodas: false,
        search_pagodas: 0,
        first_restart_nodes: 1,
        first_beam_width: 0,
    };
    assert!(matches!(
        solve_tuned(&inst, &opts, &bare).0,
        SolveOutcome::Solved(_)
    ));
}

/// The full-board problems of the catalog that only the beam search reaches within the
/// default budget (the depth-first search alone runs out of 20 million nodes on Wiegleb's).
#[test]
fn full_board_catalog_puzzles_are_solved() {
    for (path, n, pegs) in [
        ("puzzles/peg/wiegleb.txt", 45, 44),
        ("puzzles/peg/diamond-full.txt", 41, 40),
    ] {
        let p = Puzzle::load(path).unwrap();
        let i = p.instance();
        assert_eq!(i.n(), n, "{path}");
        assert_eq!(i.first().iter().filter(|&&b| b).count(), pegs, "{path}");
        assert_eq!(i.final_pegs(), 1, "{path}");
        let opts = SolveOptions {
            symmetries: p.symmetries(),
            ..SolveOptions::default()
        };
        match solve(i, &opts) {
            SolveOutcome::Solved(z) => {
                assert_eq!(z.len(), pegs, "{path}");
                i.check_solution(&z).unwrap();
            }
            o => panic!("{path}: {o:?}"),
        }
    }
}

/// The beam search on its own: with depth-first rounds of a few nodes, the English central game
/// is solved by a beam.
#[test]
fn beam_search_solves_the_english_central_game() {
    let p = Puzzle::load("puzzles/peg/english.txt").unwrap();
    let opts = SolveOptions {
        symmetries: p.symmetries(),
        ..SolveOptions::default()
    };
    let beam_only = Tuning {
        first_restart_nodes: 1,
        first_beam_width: 16,
        ..Tuning::default()
    };
    let (o, st) = solve_tuned(p.instance(), &opts, &beam_only);
    match o {
        SolveOutcome::Solved(z) => p.instance().check_solution(&z).unwrap(),
        o => panic!("{o:?}"),
    }
    assert!(st.beam_width >= 16, "{st:?}");
}

/// Every catalog puzzle: solutions pass the model's check, impossible ones are proved so, and
/// the old solver agrees on every verdict.
#[test]
fn every_catalog_puzzle_is_solved_and_the_baseline_agrees() {
    for name in zkgames::peg::catalog::names() {
        let p = zkgames::peg::catalog::get(name).unwrap();
        let opts = SolveOptions {
            symmetries: p.symmetries(),
            ..SolveOptions::default()
        };
        let new = solve(p.instance(), &opts);
        match &new {
            SolveOutcome::Solved(z) => p.instance().check_solution(z).unwrap(),
            o => panic!("{name}: {o:?}"),
        }
        let old = baseline::solve_tuned(p.instance(), &opts, &Tuning::default()).0;
        assert!(matches!(old, SolveOutcome::Solved(_)), "{name}: {old:?}");
    }
    // the European central game (not in the catalog) is impossible for both
    let e = Puzzle::parse(
        "geometry: square\nstart:\n  ooo\n ooooo\nooo.ooo\nooooooo\nooooooo\n ooooo\n  ooo\n\
         finish:\n  ...\n .....\n...o...\n.......\n.......\n .....\n  ...\n",
    )
    .unwrap();
    let o = SolveOptions {
        symmetries: e.symmetries(),
        ..SolveOptions::default()
    };
    assert!(matches!(
        solve(e.instance(), &o),
        SolveOutcome::Impossible(_)
    ));
    assert!(matches!(
        baseline::solve_tuned(e.instance(), &o, &Tuning::default()).0,
        SolveOutcome::Impossible(_)
    ));
}

/// Reference for [`count`]: a plain breadth-first search over positions as bit masks with a
/// `std` hash set per level, canonical forms by applying every permutation bit by bit, and the
/// solvable positions found backwards (a position is solvable if it is the goal or one of its
/// children is), with no use of complements. Returns `(pegs, reachable, solvable)` per level,
/// and the number of pairs (reachable position, legal move), which is how many children a
/// search without sleep sets lists.
fn reference_counts(inst: &Instance, group: &[Vec<u32>]) -> (Vec<(u32, u64, u64)>, u64) {
    let enc = |s: &[bool]| {
        s.iter()
            .enumerate()
            .fold(0u64, |a, (i, &b)| a | (b as u64) << i)
    };
    let permute = |x: u64, p: &[u32]| (0..p.len()).fold(0u64, |a, v| a | (x >> v & 1) << p[v]);
    let canon = |x: u64| group.iter().map(|p| permute(x, p)).min().unwrap();
    let moves: Vec<(u64, u64)> = inst
        .triplets()
        .iter()
        .flat_map(|t| {
            let (a, b, c) = (1u64 << t[0], 1u64 << t[1], 1u64 << t[2]);
            [(a | b, a | b | c), (b | c, a | b | c)]
        })
        .collect();
    let children = |x: u64| {
        moves
            .iter()
            .filter(move |&&(need, span)| x & span == need)
            .map(move |&(_, span)| canon(x ^ span))
    };
    let mut levels: Vec<HashSet<u64>> = vec![HashSet::from([canon(enc(inst.first()))])];
    loop {
        let next: HashSet<u64> = levels
            .last()
            .unwrap()
            .iter()
            .flat_map(|&x| children(x))
            .collect();
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    let goal = canon(enc(inst.last().unwrap()));
    let mut solvable: Vec<HashSet<u64>> = vec![HashSet::new(); levels.len()];
    for i in (0..levels.len()).rev() {
        let s: HashSet<u64> = levels[i]
            .iter()
            .copied()
            .filter(|&x| {
                x == goal
                    || (i + 1 < levels.len() && children(x).any(|y| solvable[i + 1].contains(&y)))
            })
            .collect();
        solvable[i] = s;
    }
    let pegs0 = inst.first().iter().filter(|&&b| b).count() as u32;
    let pairs = levels
        .iter()
        .flatten()
        .map(|&x| children(x).count() as u64)
        .sum();
    let counts = (0..levels.len())
        .map(|i| {
            (
                pegs0 - i as u32,
                levels[i].len() as u64,
                solvable[i].len() as u64,
            )
        })
        .collect();
    (counts, pairs)
}

/// The symmetries the counts are up to, found independently: permutations from the board
/// that send every triplet to a triplet (middle to middle) and fix the start and the finish.
fn stabiliser(p: &Puzzle) -> Vec<Vec<u32>> {
    let inst = p.instance();
    let key = |t: [u32; 3]| (t[1], t[0].min(t[2]), t[0].max(t[2]));
    let ts: HashSet<_> = inst.triplets().iter().map(|&t| key(t)).collect();
    let fixes = |g: &[u32], r: &[bool]| (0..r.len()).all(|v| r[v] == r[g[v] as usize]);
    p.symmetries()
        .into_iter()
        .filter(|g| {
            inst.triplets()
                .iter()
                .all(|t| ts.contains(&key(t.map(|v| g[v as usize]))))
                && fixes(g, inst.first())
                && fixes(g, inst.last().unwrap())
        })
        .collect()
}

fn check_counts(p: &Puzzle, what: &str) -> u64 {
    let group = stabiliser(p);
    let (want, pairs) = reference_counts(p.instance(), &group);
    for (syms, cells, g) in [
        (p.symmetries(), p.cells(), group.len()),
        (p.symmetries(), None, group.len()),
        (Vec::new(), p.cells(), 1),
    ] {
        let (want, pairs) = if g == 1 && group.len() > 1 {
            reference_counts(p.instance(), &group[..1])
        } else {
            (want.clone(), pairs)
        };
        let c = count(
            p.instance(),
            &syms,
            cells,
            p.pagoda_hints(),
            1 << 26,
            Mode::All,
            true,
        )
        .unwrap();
        // sleep sets skip children only with the grid's move generation; without them, every
        // pair (position, legal move) is a child, and the counts are the same
        if cells.is_some() {
            assert!(c.children <= pairs, "{what}");
        } else {
            assert_eq!(c.children, pairs, "{what}");
        }
        let plain = count(
            p.instance(),
            &syms,
            cells,
            p.pagoda_hints(),
            1 << 26,
            Mode::All,
            false,
        );
        let plain = plain.unwrap();
        assert_eq!(
            (&plain.levels, plain.children),
            (&c.levels, pairs),
            "{what}"
        );
        assert_eq!(c.symmetries, g, "{what}");
        let got: Vec<(u32, Option<u64>, u64)> = c
            .levels
            .iter()
            .map(|l| (l.pegs, l.reachable, l.solvable))
            .collect();
        let full: Vec<(u32, Option<u64>, u64)> =
            want.iter().map(|&(p, r, s)| (p, Some(r), s)).collect();
        assert_eq!(got, full, "{what}");
        assert_eq!(c.reachable, Some(want.iter().map(|l| l.1).sum::<u64>()));
        assert_eq!(c.solvable, want.iter().map(|l| l.2).sum::<u64>());
        // solvable positions only: the same solvable counts per level, and the reachable
        // counts it made (all of them unless the game is central) are right
        let s = count(
            p.instance(),
            &syms,
            cells,
            p.pagoda_hints(),
            1 << 26,
            Mode::Solvable,
            true,
        )
        .unwrap();
        assert_eq!(s.solvable, c.solvable, "{what}");
        for &(pegs, r, sv) in &want {
            let l = s.levels.iter().find(|l| l.pegs == pegs);
            assert_eq!(l.map_or(0, |l| l.solvable), sv, "{what}: {pegs} pegs");
            if let Some(x) = l.and_then(|l| l.reachable) {
                assert_eq!(x, r, "{what}: {pegs} pegs");
            }
        }
        for l in &s.levels {
            if !want.iter().any(|w| w.0 == l.pegs) {
                assert_eq!((l.reachable, l.solvable), (None, 0), "{what}");
            }
        }
    }
    want.iter().map(|l| l.1).sum()
}

/// Random boards of every geometry, with 32-bit keys (up to 33 holes, exactly 33 included)
/// and 64-bit keys (more holes), central games (self-dual) and other finishes.
#[test]
fn counts_agree_with_a_plain_breadth_first_search_on_random_boards() {
    let mut rng = Rng(0x7E57_C0DE_1234_5678);
    let (mut cases, mut central, mut wide, mut exact33) = (0, 0, 0, 0);
    while cases < 300 {
        let geometry = ["square", "square-diagonal", "triangle"][cases % 3];
        // small dense boards, or wide sparse ones (33 holes and more)
        let (h, w, dense) = match rng.below(4) {
            0 => (3, 11, false),
            1 => (2, 18 + rng.below(4), false),
            _ => (3 + rng.below(2), 3 + rng.below(2), true),
        };
        let mut cells: Vec<(usize, usize)> = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if !dense || rng.below(6) > 0 {
                    cells.push((y, x));
                }
            }
        }
        let centre = rng.below(cells.len().max(1));
        let is_central = dense && rng.below(3) == 0;
        let start: Vec<bool> = (0..cells.len())
            .map(|i| {
                if is_central {
                    i != centre
                } else if dense {
                    rng.below(3) > 0
                } else {
                    rng.below(5) == 0
                }
            })
            .collect();
        let draw = |pegs: &dyn Fn(usize) -> bool| {
            let mut out = String::new();
            for y in 0..h {
                if geometry == "triangle" {
                    out += &" ".repeat(y);
                }
                for x in 0..w {
                    let c = match cells.iter().position(|&c| c == (y, x)) {
                        None => '_',
                        Some(i) if pegs(i) => 'o',
                        Some(_) => '.',
                    };
                    out.push(c);
                    if geometry == "triangle" {
                        out.push(' ');
                    }
                }
                out.push('\n');
            }
            out
        };
        let start_text = draw(&|i| start[i]);
        let text = if is_central {
            format!(
                "geometry: {geometry}\nstart:\n{start_text}finish:\n{}",
                draw(&|i| i == centre)
            )
        } else {
            // a finish reached by a few random legal moves
            let Ok(p0) = Puzzle::parse(&format!(
                "geometry: {geometry}\nstart:\n{start_text}finish-pegs: 1\n"
            )) else {
                continue;
            };
            let mut l = p0.instance().first().to_vec();
            let steps = 1 + rng.below(6);
            random_moves(&mut l, p0.instance().triplets(), steps, &mut rng);
            format!(
                "geometry: {geometry}\nstart:\n{start_text}finish:\n{}",
                p0.render(&l)
            )
        };
        let Ok(p) = Puzzle::parse(&text) else {
            continue;
        };
        if p.instance().n() > 64 {
            continue;
        }
        cases += 1;
        central += is_central as u32;
        wide += (p.instance().n() > 33) as u32;
        exact33 += (p.instance().n() == 33) as u32;
        check_counts(&p, &text);
    }
    assert!(
        central > 30 && wide > 30 && exact33 > 20,
        "{central} {wide} {exact33}"
    );
}

/// A hexagon of 19 holes on the triangular lattice: 12 symmetries (16 lanes).
#[test]
fn counts_on_a_hexagon_with_twelve_symmetries() {
    let hex = "geometry: triangle\nstart:\n  o o o\n o o o o\no o . o o\n o o o o\n  o o o\n\
               finish:\n  . . .\n . . . .\n. . o . .\n . . . .\n  . . .\n";
    let p = Puzzle::parse(hex).unwrap();
    assert_eq!(p.instance().n(), 19);
    assert_eq!(stabiliser(&p).len(), 12);
    assert!(check_counts(&p, "hexagon") > 1000);
}

/// The English central game: 23 475 688 positions reachable from the start up to the 8
/// symmetries, 1 679 072 of which can still reach the finish (the published figures). About a
/// second in release; skipped in debug builds.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn english_counts_are_the_published_ones() {
    let p = zkgames::peg::catalog::get("english").unwrap();
    let c = count(
        p.instance(),
        &p.symmetries(),
        p.cells(),
        p.pagoda_hints(),
        1 << 26,
        Mode::All,
        true,
    )
    .unwrap();
    assert_eq!(c.symmetries, 8);
    assert_eq!(c.reachable, Some(23_475_688));
    assert_eq!(c.solvable, 1_679_072);
    // sleep sets: of the 186,020,935 pairs (position, legal move), under 60 M are listed
    assert!(c.children < 60_000_000, "{}", c.children);
    let plain = count(
        p.instance(),
        &p.symmetries(),
        p.cells(),
        p.pagoda_hints(),
        1 << 26,
        Mode::All,
        false,
    );
    let plain = plain.unwrap();
    assert_eq!((&plain.levels, plain.children), (&c.levels, 186_020_935));
    assert_eq!(
        c.levels.first().map(|l| (l.pegs, l.reachable, l.solvable)),
        Some((32, Some(1), 1))
    );
    assert_eq!(
        c.levels.last().map(|l| (l.pegs, l.reachable, l.solvable)),
        Some((1, Some(2), 1))
    );
    // the solvable positions alone: the same per level, and no reachable counts (the
    // levels of 17 pegs and more are enumerated pruned by a pagoda function, the level of 16
    // pegs, the largest, is never built)
    let s = count(
        p.instance(),
        &p.symmetries(),
        p.cells(),
        p.pagoda_hints(),
        1 << 26,
        Mode::Solvable,
        true,
    )
    .unwrap();
    assert_eq!((s.reachable, s.solvable), (None, 1_679_072));
    for (a, b) in c.levels.iter().zip(&s.levels) {
        assert_eq!((a.pegs, a.solvable), (b.pegs, b.solvable));
        assert_eq!(b.reachable, None, "{} pegs", a.pegs);
    }
    assert_eq!(c.levels.len(), s.levels.len());
    // solvable positions pair up with their complements: p pegs ↔ 33 - p pegs
    for l in &c.levels {
        let partner = c
            .levels
            .iter()
            .find(|m| m.pegs == 33 - l.pegs)
            .map_or(0, |m| m.solvable);
        assert_eq!(l.solvable, partner, "{} pegs", l.pegs);
    }
}

#[test]
fn counting_refuses_what_it_cannot_count() {
    let tri = zkgames::peg::catalog::get("triangle15").unwrap();
    let e = count(
        tri.instance(),
        &tri.symmetries(),
        tri.cells(),
        tri.pagoda_hints(),
        1 << 26,
        Mode::All,
        true,
    )
    .unwrap_err();
    assert_eq!(e.exit_code(), 2, "{e}");
    let row: String = ["o"; 70].join(" ");
    let big = Puzzle::parse(&format!(
        "geometry: square\nstart:\n{row}\nfinish:\n{}o\n",
        row[..row.len() - 1].replace('o', ".")
    ))
    .unwrap();
    let e = count(big.instance(), &[], None, &[], 1 << 26, Mode::All, true).unwrap_err();
    assert!(e.to_string().contains("at most 64 holes"), "{e}");
    // a limit on the positions stored bounds time and memory: a rejection, exit code 1
    let eng = zkgames::peg::catalog::get("english").unwrap();
    let e = count(
        eng.instance(),
        &eng.symmetries(),
        eng.cells(),
        eng.pagoda_hints(),
        100_000,
        Mode::All,
        true,
    )
    .unwrap_err();
    assert_eq!(e.exit_code(), 1, "{e}");
    assert!(e.to_string().contains("more than 100000 positions"), "{e}");
}

/// `prover peg solve --count-all` through the binary: the table and the totals of a small
/// board against the reference.
#[test]
fn cli_counts_positions() {
    let dir = std::env::temp_dir().join(format!("peg_count_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("plus.txt");
    std::fs::write(
        &f,
        "name: plus\ngeometry: square\nstart:\n_ooo_\nooooo\noo.oo\nooooo\n_ooo_\nfinish:\n_..._\n.....\n..o..\n.....\n_..._\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prover"))
        .args(["peg", "solve", f.to_str().unwrap(), "--count-all"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let p = Puzzle::load(f.to_str().unwrap()).unwrap();
    let (want, _) = reference_counts(p.instance(), &stabiliser(&p));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), want.len() + 1, "{text}");
    for (l, w) in lines.iter().zip(&want) {
        assert_eq!(*l, format!("{} {} {}", w.0, w.1, w.2));
    }
    let total = format!(
        "total {} {}",
        want.iter().map(|l| l.1).sum::<u64>(),
        want.iter().map(|l| l.2).sum::<u64>()
    );
    assert_eq!(lines.last().unwrap(), &total);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("plus: ") && err.contains("positions reachable"),
        "{err}"
    );
    // --solvable-only: the same solvable column; a central game, so `-` for every reachable
    // count (the positions enumerated are pruned by pagoda functions)
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prover"))
        .args([
            "peg",
            "solve",
            f.to_str().unwrap(),
            "--count-all",
            "--solvable-only",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // one line per peg count from the start's down to the finish's (1 peg)
    assert_eq!(lines.len(), want[0].0 as usize + 1, "{text}");
    for (pegs, l) in (1..=want[0].0).rev().zip(&lines) {
        let w = want.iter().find(|w| w.0 == pegs);
        assert_eq!(*l, format!("{pegs} - {}", w.map_or(0, |w| w.2)), "{text}");
    }
    assert_eq!(
        lines.last().unwrap(),
        &format!("total - {}", want.iter().map(|l| l.2).sum::<u64>())
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("positions solvable"), "{err}");
    // --solvable-only needs --count-all: a usage error, exit code 2
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prover"))
        .args(["peg", "solve", "english", "--solvable-only"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // the limit through --budget: exit code 1
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prover"))
        .args([
            "peg",
            "solve",
            "wiegleb",
            "--count-all",
            "--budget",
            "50000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--budget"));
    // a peg-count goal cannot be counted: exit code 2, one line
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prover"))
        .args(["peg", "solve", "triangle15", "--count-all"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim().lines().count(),
        1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
