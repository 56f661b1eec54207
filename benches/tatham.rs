//! Simon Tatham's puzzles: for every supported game, its committed sample save file
//! (`puzzles/tatham/`, the game's default parameters, written by the collection's own
//! program) proved and verified with VOLE-in-the-head (size set, 128 bits), against the peg
//! solitaire proof of the English board with the same engine, in one process, taking turns
//! (peg, then each game, run after run). Prints per game its AND gates, witness bits, proof
//! bytes and the ratios of its median prove and verify CPU times (all threads,
//! `CLOCK_PROCESS_CPUTIME_ID`) to the peg proof's.
//!
//! `cargo bench --bench tatham` (about ten seconds on two cores, after the build;
//! `cargo bench --bench figures` runs it for its headline row). `TATHAM_RUNS=N` takes each
//! median over `N` runs (default 101: a proof takes milliseconds). Quick mode, `-- --test`: one run, no figures to quote.

#[path = "common/cpu.rs"]
mod cpu;
#[path = "common/quick.rs"]
mod quick;

use cpu::{median, time};

use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::vole;
use zkgames::proof_file::ProofFile;
use zkgames::rng::seeded_rng;
use zkgames::tatham::{proof, save, Puzzle, GAMES};

/// A game's sample: the puzzle and the witness of its saved (or, for Pegs, found) solution.
fn sample(game: &zkgames::tatham::Game) -> (Box<dyn Puzzle>, Vec<bool>) {
    let f = save::parse(game.sample.as_bytes()).expect("sample save file");
    let p = save::puzzle(&f.header).expect("sample puzzle");
    let w = {
        let pos = if game.solves {
            p.solve().unwrap().expect("zkgames solves its sample")
        } else {
            save::replay(p.as_ref(), &f).unwrap()
        };
        pos.witness().expect("the sample is solved")
    };
    (p, w)
}

pub fn main() {
    let q = quick::quick(&[("TATHAM_RUNS", "1")]);
    let n = cpu::runs("TATHAM_RUNS", 101);
    let system = System::vole(128, vole::Profile::Size).unwrap();
    let req = Required::bits(128);
    let mut rng = seeded_rng(7);

    let (inst, z) = zkgames::peg::catalog::solved("english").expect("English board solvable");
    let peg_prove = |rng: &mut _| zkgames::peg::mpc::prove(&inst, &z, &system, b"", rng).unwrap();
    let peg_bytes = peg_prove(&mut rng);
    let peg_verify = |b: &[u8]| {
        let f = ProofFile::from_bytes(b).unwrap();
        zkgames::peg::mpc::verify(&inst, &f, &req, b"").unwrap();
    };

    let games: Vec<_> = GAMES.iter().map(|g| (g, sample(g))).collect();
    let mut peg_t = (Vec::new(), Vec::new());
    let mut game_t = vec![(Vec::new(), Vec::new()); games.len()];
    let mut sizes = vec![0usize; games.len()];
    for _ in 0..n {
        peg_t.0.push(time(|| {
            peg_prove(&mut rng);
        }));
        peg_t.1.push(time(|| peg_verify(&peg_bytes)));
        for (k, (_, (p, w))) in games.iter().enumerate() {
            let mut bytes = Vec::new();
            game_t[k].0.push(time(|| {
                bytes = proof::prove(p.as_ref(), w, &system, b"", &mut rng).unwrap();
            }));
            let f = ProofFile::from_bytes(&bytes).unwrap();
            game_t[k].1.push(time(|| {
                proof::verify(p.as_ref(), &f, &req, b"").unwrap();
            }));
            sizes[k] = bytes.len();
        }
    }
    let (pp, pv) = (median(peg_t.0), median(peg_t.1));
    println!(
        "Tatham samples against the peg proof of the English board ({} B), VOLE size set, \
         128 bits, {n} alternating runs, one process: median CPU time (all threads), ratio to the peg proof's",
        peg_bytes.len()
    );
    println!(
        "{:<10} {:<16} {:>9} {:>8} {:>7} {:>7} {:>7}",
        "game", "params", "AND", "witness", "bytes", "prove", "verify"
    );
    let mut summary = Vec::new();
    for (k, (g, (p, _))) in games.iter().enumerate() {
        let c = p.circuit().unwrap();
        let (rp, rv) = (
            median(game_t[k].0.clone()) / pp,
            median(game_t[k].1.clone()) / pv,
        );
        println!(
            "{:<10} {:<16} {:>9} {:>8} {:>7} {:>6.2}× {:>6.2}×",
            g.name,
            p.params(),
            c.n_and(),
            c.n_inputs(),
            sizes[k],
            rp,
            rv
        );
        summary.push(format!(
            "{} {} AND {} bits {} B {rp:.4}x {rv:.4}x",
            g.name,
            c.n_and(),
            c.n_inputs(),
            sizes[k]
        ));
    }
    println!("TATHAM_SUMMARY runs={n}; {}", summary.join("; "));
    if q {
        println!("(quick mode: one run, not a measurement)");
    }
}
