//! The three engines side by side, every proof kind, one run: ZKB++ (219 rounds), KKW (size
//! and speed sets) and VOLE-in-the-head (size and speed sets), all at 128 bits. For each:
//! the proof file's size, median prove and verify times, and ratios against ZKB++ measured
//! in the same run. Kinds: SHA-256 one-block preimage (55 bytes), LowMC key (the login
//! identity), a sealed Wall Game move on the standard 8×8 board, peg solitaire (English).
//!
//! `cargo bench --bench engines` (about a minute on two cores). `ENGINES_KINDS=sha256,lowmc`
//! runs only those tables (kinds: `sha256`, `lowmc`, `wall`, `peg`);
//! `ENGINES_SYSTEMS=vole-speed` only those engines besides the ZKB++ baseline;
//! `ENGINES_RUNS=51` times each median over 51 runs instead of 7 to 15.

#[path = "common/quick.rs"]
mod quick;
use std::time::Instant;

use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::{kkw, vole};
use zkgames::proof_file::ProofFile;
use zkgames::rng::seeded_rng;
use zkgames::wall::board::Variant;
use zkgames::wall::game::Game;
use zkgames::wall::seal::{seal_move, verify_seal, MoveStatement};

/// Timed runs per median: `n`, or `ENGINES_RUNS` when set (more runs for a steadier ratio).
fn runs(n: usize) -> usize {
    std::env::var("ENGINES_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(n)
}

fn median_ms(mut f: impl FnMut(), n: usize) -> f64 {
    let n = runs(n);
    let mut t: Vec<f64> = (0..n)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[n / 2]
}

/// The engines compared: ZKB++ (the baseline, always measured) and those named in
/// `ENGINES_SYSTEMS` (`kkw-size,kkw-speed,vole-size,vole-speed`; all when unset).
fn systems() -> Vec<(&'static str, System)> {
    let keep = |key: &str| match std::env::var("ENGINES_SYSTEMS") {
        Ok(v) => key == "zkbpp" || v.split(',').any(|k| k.trim() == key),
        Err(_) => true,
    };
    let all = vec![
        ("ZKB++ (219 rounds)", System::zkbpp(128)),
        (
            "KKW size (N=32)",
            System::kkw(128, kkw::Profile::Size).unwrap(),
        ),
        (
            "KKW speed (N=16)",
            System::kkw(128, kkw::Profile::Speed).unwrap(),
        ),
        (
            "VOLE size (tau=11)",
            System::vole(128, vole::Profile::Size).unwrap(),
        ),
        (
            "VOLE speed (tau=17)",
            System::vole(128, vole::Profile::Speed).unwrap(),
        ),
    ];
    let keys = ["zkbpp", "kkw-size", "kkw-speed", "vole-size", "vole-speed"];
    all.into_iter()
        .zip(keys)
        .filter(|(_, k)| keep(k))
        .map(|(s, _)| s)
        .collect()
}

fn req(sys: &System) -> Required {
    match sys {
        System::Zkbpp(rounds) => Required::rounds(*rounds),
        _ => Required::bits(128),
    }
}

/// One table: `prove(system) -> file bytes`, `verify(system, bytes)`.
fn table(
    kind: &str,
    what: &str,
    n: usize,
    mut prove: impl FnMut(&System) -> Vec<u8>,
    mut verify: impl FnMut(&System, &[u8]),
) {
    if !wanted(kind) {
        return;
    }
    println!("SUMMARY {what}, 128 bits, engines side by side (same statement, same run):");
    let mut base = None;
    for (name, sys) in systems() {
        let bytes = prove(&sys);
        verify(&sys, &bytes);
        let p = median_ms(|| drop(prove(&sys)), n);
        let v = median_ms(|| verify(&sys, &bytes), n);
        let (zb, zp, zv) = *base.get_or_insert((bytes.len(), p, v));
        println!(
            "  {name:<22} proof {:>7} bytes ({:.3}x ZKB++), prove {p:8.2} ms ({:.2}x), verify {v:8.2} ms ({:.2}x)",
            bytes.len(),
            bytes.len() as f64 / zb as f64,
            p / zp,
            v / zv
        );
    }
}

/// Whether the table `kind` is selected by `ENGINES_KINDS` (all when unset).
fn wanted(kind: &str) -> bool {
    match std::env::var("ENGINES_KINDS") {
        Ok(v) => v.split(',').any(|k| k.trim() == kind),
        Err(_) => true,
    }
}

fn main() {
    quick::quick(&[("ENGINES_RUNS", "1")]);
    let mut rng = seeded_rng(1);
    println!(
        "threads: every engine runs on rayon's global pool ({} threads here; RAYON_NUM_THREADS sets it)",
        rayon::current_num_threads()
    );

    // SHA-256, one block
    let pre: Vec<u8> = (0..55u8).collect();
    let digest: [u8; 32] = {
        use sha2::Digest as _;
        sha2::Sha256::digest(&pre).into()
    };
    let mut r = rng.clone();
    table(
        "sha256",
        "sha256 one-block preimage (55 bytes)",
        7,
        |s| zkgames::mpc::sha256::prove(&pre, s, b"", &mut r).unwrap(),
        |s, b| {
            let f = ProofFile::from_bytes(b).unwrap();
            zkgames::mpc::sha256::verify(&digest, &f, &req(s), b"").unwrap();
        },
    );

    // LowMC key (login identity)
    let key: zkgames::mpc::lowmc::Block = [0x0123_4567_89ab_cdef, 0x0fed_cba9_8765_4321, 1];
    let pt: zkgames::mpc::lowmc::Block = [42, 43, 0];
    let ct = zkgames::mpc::lowmc::encrypt(&key, &pt);
    let mut r = rng.clone();
    table(
        "lowmc",
        "LowMC key (login proof)",
        15,
        |s| zkgames::mpc::lowmc::prove_key(&key, &pt, s, b"login", &mut r).unwrap(),
        |s, b| {
            let f = ProofFile::from_bytes(b).unwrap();
            zkgames::mpc::lowmc::verify_key(&pt, &ct, &f, &req(s), b"login").unwrap()
        },
    );

    // sealed Wall Game move, standard 8x8, first move with a wall
    let game = Game::standard(Variant::CatAndMouse, 8, 8).unwrap();
    let p = game.to_move();
    let mv = game
        .legal_moves(p)
        .into_iter()
        .find(|m| !m.walls().is_empty())
        .unwrap();
    let st = MoveStatement::new(&game, p, b"bench").unwrap();
    let mut r = rng.clone();
    table(
        "wall",
        "Wall Game sealed move (standard 8x8)",
        15,
        |s| seal_move(&st, &mv, s, &mut r).unwrap().file,
        |s, b| {
            verify_seal(&st, b, &req(s)).unwrap();
        },
    );

    // peg solitaire, English board
    if !wanted("peg") {
        return;
    }
    let (inst, z) = zkgames::peg::catalog::solved("english").expect("English board solvable");
    table(
        "peg",
        "peg solitaire, English board",
        7,
        |s| zkgames::peg::mpc::prove(&inst, &z, s, b"", &mut rng).unwrap(),
        |s, b| {
            let f = ProofFile::from_bytes(b).unwrap();
            zkgames::peg::mpc::verify(&inst, &f, &req(s), b"").unwrap();
        },
    );
}
