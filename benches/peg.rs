//! Peg solitaire, English central game, 128-bit knowledge error (2,795 rounds of Protocol 1).
//!
//! Prints prove time, verify time and proof size, with baselines measured in the same run:
//! the naive encoding (every commitment of every round) for size, and proving on one thread
//! for time.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, Criterion};
use serde::Serialize;
use std::time::{Duration, Instant};
use zkgames::commit::Digest;
use zkgames::peg::fs;
use zkgames::peg::protocol::{commit_round, respond, rounds_for_bits, Opening};
use zkgames::rng::seeded_rng;

#[derive(Serialize)]
struct NaiveRound {
    leaves: Vec<Digest>,
    sigma: u32,
    opening: Opening,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn summary() {
    let inst = common::english();
    let z = common::dfs_solve(&inst).unwrap();
    let rounds = rounds_for_bits(128, inst.s());
    let mut rng = seeded_rng(1);
    let bytes = fs::prove_file(&inst, &z, rounds, b"", &mut rng).unwrap();
    let proof = fs::prove(&inst, &z, rounds, b"", &mut rng).unwrap();
    // naive encoding: all T + S commitments of every round, responses without Merkle paths
    let naive: Vec<NaiveRound> = (0..rounds)
        .map(|_| {
            let sec = commit_round(&inst, &z, &mut rng);
            let r = respond(&inst, &sec, 1 + (rng_u32(&mut rng) as usize % inst.s()));
            NaiveRound {
                leaves: sec.leaves,
                sigma: r.sigma,
                opening: r.opening,
            }
        })
        .collect();
    let naive_len = zkgames::proof_file::encode(&naive).len() + zkgames::proof_file::HEADER_LEN;
    let prove_t = median(
        (0..7)
            .map(|_| time(|| drop(fs::prove(&inst, &z, rounds, b"", &mut rng).unwrap())))
            .collect(),
    );
    let verify_t = median(
        (0..7)
            .map(|_| {
                time(|| {
                    std::hint::black_box(fs::verify(&inst, &proof, 128, b"").unwrap());
                })
            })
            .collect(),
    );
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let prove_1 = median(
        (0..5)
            .map(|_| {
                one.install(|| time(|| drop(fs::prove(&inst, &z, rounds, b"", &mut rng).unwrap())))
            })
            .collect(),
    );
    let verify_1 = median(
        (0..5)
            .map(|_| {
                one.install(|| {
                    time(|| {
                        std::hint::black_box(fs::verify(&inst, &proof, 128, b"").unwrap());
                    })
                })
            })
            .collect(),
    );
    println!(
        "== peg solitaire, English central game (N=33, T=38, S=32), 128-bit, {rounds} rounds =="
    );
    println!(
        "proof size   {:>9} bytes  (naive encoding {} bytes: {:.2}x smaller)",
        bytes.len(),
        naive_len,
        naive_len as f64 / bytes.len() as f64
    );
    println!(
        "prove        {:>9.1} ms     (1 thread {:.1} ms: {:.2}x with {} threads)",
        prove_t.as_secs_f64() * 1e3,
        prove_1.as_secs_f64() * 1e3,
        prove_1.as_secs_f64() / prove_t.as_secs_f64(),
        rayon::current_num_threads()
    );
    println!(
        "verify       {:>9.1} ms     (1 thread {:.1} ms: {:.2}x)",
        verify_t.as_secs_f64() * 1e3,
        verify_1.as_secs_f64() * 1e3,
        verify_1.as_secs_f64() / verify_t.as_secs_f64()
    );
}

fn rng_u32(r: &mut zkgames::rng::Rng) -> u32 {
    rand_core::RngCore::next_u32(r)
}

fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

fn bench(c: &mut Criterion) {
    let inst = common::english();
    let z = common::dfs_solve(&inst).unwrap();
    let rounds = rounds_for_bits(128, inst.s());
    let mut rng = seeded_rng(2);
    let proof = fs::prove(&inst, &z, rounds, b"", &mut rng).unwrap();
    let mut g = c.benchmark_group("peg_english_128bit");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    g.bench_function("prove", |b| {
        b.iter(|| fs::prove(&inst, &z, rounds, b"", &mut rng).unwrap())
    });
    g.bench_function("verify", |b| {
        b.iter(|| fs::verify(&inst, &proof, 128, b"").unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    summary();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
