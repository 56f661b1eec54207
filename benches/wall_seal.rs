//! Sealed Wall Game moves at 128 bits, ZKB++ (219 rounds) and KKW (size and speed sets) side
//! by side: seal size, seal / verify / open times and AND gates on the standard 8×8 start and on an 11×11 two-player middle game.
//! Baselines in the same run: the seal size if the move were committed with SHA-256 inside
//! the circuit (computed from the proof-size formula with the real SHA-256 circuit's AND
//! count), and the AND count of a circuit deciding the same relation by flood fill
//! (built, not proven).

use std::time::{Duration, Instant};

use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::kkw::Profile;
use zkgames::mpc::sha256::sha256_circuit;
use zkgames::rng::os_rng;
use zkgames::wall::board::Variant;
use zkgames::wall::circuit::{flood_fill_circuit, End};
use zkgames::wall::game::{Game, Move};
use zkgames::wall::seal::{
    open_seal, rounds_for_bits, seal_move, verify_seal, MoveStatement, Sealed,
};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// ZKB++ proof body size for `rounds` rounds of a circuit (docs/PROTOCOLS.md §3.6): salt,
/// packed challenges, and per round two seeds, one commitment, the opened AND outputs, and
/// the input share x2 in the 2/3 of rounds where party 2 is opened.
fn zkbpp_size(rounds: usize, n_and: usize, n_in: usize) -> usize {
    32 + rounds.div_ceil(4) + rounds * (96 + n_and.div_ceil(8)) + rounds * 2 / 3 * n_in.div_ceil(8)
}

fn scenario(name: &str, game: &Game, mv: &Move) {
    let rounds = rounds_for_bits(128);
    let p = game.to_move();
    let t_stmt = median(
        (0..15)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(MoveStatement::new(game, p, b"bench").unwrap());
                t.elapsed()
            })
            .collect(),
    );
    let st = MoveStatement::new(game, p, b"bench").unwrap();
    let c = st.circuit();
    let systems = [
        ("ZKB++ (219 rounds)", System::zkbpp(128)),
        ("KKW size (N=32)", System::kkw(128, Profile::Size).unwrap()),
        (
            "KKW speed (N=16)",
            System::kkw(128, Profile::Speed).unwrap(),
        ),
    ];
    let rows: Vec<_> = systems
        .iter()
        .map(|(label, sys)| (label, measure(&st, mv, sys)))
        .collect();
    let s = &rows[0].1 .0;
    // baseline 1: the witness committed with SHA-256 inside the circuit (witness ‖ 256-bit key)
    let commit_bytes = c.n_inputs().div_ceil(8) + 32;
    let sha = sha256_circuit(commit_bytes).unwrap();
    let with_sha = zkbpp_size(rounds, c.n_and() + sha.n_and(), c.n_inputs() + 256) + 21;
    // baseline 2: flood fill instead of the oracle tables
    let pos = game.position();
    let me = &game.players()[p];
    let other = &game.players()[1 - p];
    let ends = [
        (End::Cat, End::Node(pos.node(other.mouse.unwrap()))),
        (End::Node(pos.node(other.cat)), End::Mouse),
    ];
    let _ = me;
    let t = Instant::now();
    let ff = flood_fill_circuit_for(&st, game, &ends);
    let t_ff = t.elapsed();
    println!(
        "== {name}: {} free slots, {} ==",
        pos.graph().free().len(),
        zkgames::wall::notation::move_name(pos.rows(), pos.cols(), mv)
    );
    println!(
        "seal size    {:>8} bytes   (SHA-256 commitment in the circuit: {with_sha} bytes, {:.1}x larger)",
        s.file.len(),
        with_sha as f64 / s.file.len() as f64
    );
    println!("system                 seal bytes   ratio    seal ms  verify ms    open ms");
    let base = rows[0].1 .0.file.len() as f64;
    for (label, (s, ts, tv, to)) in &rows {
        println!(
            "{label:<22} {:>10} {:>7.2}x {:>10.2} {:>10.2} {:>10.2}",
            s.file.len(),
            s.file.len() as f64 / base,
            ms(*ts),
            ms(*tv),
            ms(*to)
        );
    }
    println!(
        "AND gates    {:>8}         (flood fill for the same relation: {} ANDs, {:.0}x more; built in {:.0} ms, not proven)",
        c.n_and(),
        ff,
        ff as f64 / c.n_and() as f64,
        ms(t_ff)
    );
    println!("opening      {:>8} bytes", s.opening.len());
    println!("statement    {:>8.2} ms      (oracle tables and circuit, built by prover and verifier alike)", ms(t_stmt));
}

/// A seal of `mv` with `sys`, and median seal, verify and open times.
fn measure(st: &MoveStatement, mv: &Move, sys: &System) -> (Sealed, Duration, Duration, Duration) {
    let mut rng = os_rng();
    let req = Required::bits(128);
    let s = seal_move(st, mv, sys, &mut rng).unwrap();
    let t_seal = median(
        (0..9)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(seal_move(st, mv, sys, &mut rng).unwrap());
                t.elapsed()
            })
            .collect(),
    );
    let t_verify = median(
        (0..9)
            .map(|_| {
                let t = Instant::now();
                verify_seal(st, &s.file, &req).unwrap();
                t.elapsed()
            })
            .collect(),
    );
    let t_open = median(
        (0..9)
            .map(|_| {
                let t = Instant::now();
                assert_eq!(&open_seal(st, &s.file, &s.opening).unwrap(), mv);
                t.elapsed()
            })
            .collect(),
    );
    (s, t_seal, t_verify, t_open)
}

fn flood_fill_circuit_for(st: &MoveStatement, game: &Game, ends: &[(End, End)]) -> usize {
    flood_fill_circuit(st.move_circuit(), &game.position().graph().graph, ends).n_and()
}

pub(crate) fn main() {
    let g8 = Game::standard(Variant::CatAndMouse, 8, 8).unwrap();
    let n8 = zkgames::wall::notation::Notation::for_position(g8.position()).unwrap();
    scenario(
        "standard 8x8, first move",
        &g8,
        &n8.parse_move(">d5.^e4").unwrap(),
    );
    // 11x11: a few moves in, walls on the board, a cat step plus a wall
    let mut g11 = Game::standard(Variant::CatAndMouse, 11, 11).unwrap();
    for k in 0..6 {
        let p = g11.to_move();
        let mv = g11
            .legal_moves(p)
            .into_iter()
            .filter(|m| m.walls().len() == 2)
            .nth(37 * k + 11)
            .unwrap();
        g11 = g11.play(&mv).unwrap();
    }
    let p = g11.to_move();
    let mv = g11
        .legal_moves(p)
        .into_iter()
        .filter(|m| m.walls().len() == 1 && m.cat().is_some())
        .nth(25)
        .unwrap();
    scenario("11x11 after 6 moves (12 walls)", &g11, &mv);
}
