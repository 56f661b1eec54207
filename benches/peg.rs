//! Peg solitaire, English central game, 128-bit knowledge error (2,795 rounds of Protocol 1).
//!
//! Prints prove time, verify time and proof size, with baselines measured in the same run:
//! the naive encoding (every commitment of every round) for size, and proving on one thread
//! for time.

#[path = "../tests/integration/common/mod.rs"]
mod common;

#[path = "common/quick.rs"]
mod quick;
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

/// A whole live session over loopback TCP (verifier in a thread), against Fiat–Shamir prove
/// plus verify of the same statement in the same run; message sizes; the challenge
/// commitment's own cost.
fn session_summary() {
    use zkgames::net::{self, Channel, Deadlines, Msg};
    use zkgames::peg::session::{PegProver, PegVerifier};
    let inst = common::english();
    let z = common::dfs_solve(&inst).unwrap();
    let rounds = rounds_for_bits(128, inst.s());
    let run = || {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let a = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (b, _) = l.accept().unwrap();
        let t = Instant::now();
        let i2 = inst.clone();
        let v = std::thread::spawn(move || {
            let mut ch = Channel::tcp(b, Deadlines::default());
            let mut ver = PegVerifier::new(&i2, 128, b"", zkgames::rng::os_rng());
            net::run_verifier(&mut ch, &mut ver).unwrap()
        });
        let mut ch = Channel::tcp(a, Deadlines::default());
        let p = PegProver::new(&inst, &z, rounds, b"", zkgames::rng::os_rng()).unwrap();
        let rec = net::run_prover(&mut ch, Box::new(p)).unwrap();
        v.join().unwrap();
        (t.elapsed(), rec)
    };
    let (_, rec) = run();
    let session_t = median((0..7).map(|_| run().0).collect());
    let mut rng = seeded_rng(3);
    let fs_t = median(
        (0..7)
            .map(|_| {
                time(|| {
                    let p = fs::prove(&inst, &z, rounds, b"", &mut rng).unwrap();
                    fs::verify(&inst, &p, 128, b"").unwrap();
                })
            })
            .collect(),
    );
    let frame = |m: &Msg| 4 + zkgames::proof_file::encode(m).len();
    let msgs = [
        ("Hello", frame(&Msg::Hello(rec.hello.clone()))),
        (
            "Ready",
            frame(&Msg::Ready {
                challenge_commitment: rec.challenge_commitment,
            }),
        ),
        (
            "Commitments",
            frame(&Msg::Commitments(rec.commitments.clone())),
        ),
        (
            "Challenges",
            frame(&Msg::Challenges {
                challenges: rec.challenges.clone(),
                key: rec.challenge_key,
            }),
        ),
        ("Responses", frame(&Msg::Responses(rec.responses.clone()))),
        (
            "Verdict",
            frame(&Msg::Verdict {
                accepted: true,
                reason: String::new(),
            }),
        ),
    ];
    let total: usize = msgs.iter().map(|m| m.1).sum();
    let n = 10_000;
    let cc_t = time(|| {
        for i in 0..n {
            std::hint::black_box(net::challenge_commitment(
                &rec.hello,
                &rec.challenges,
                &[i as u8; 32],
            ));
        }
    }) / n;
    println!("== live session, same statement, loopback TCP ==");
    println!(
        "session      {:>9.1} ms     (Fiat–Shamir prove + verify {:.1} ms: {:.2}x)",
        session_t.as_secs_f64() * 1e3,
        fs_t.as_secs_f64() * 1e3,
        session_t.as_secs_f64() / fs_t.as_secs_f64()
    );
    println!(
        "messages     {} (3 each way, no extra round trip); {total} bytes on the wire: {}",
        msgs.len(),
        msgs.iter()
            .map(|(n, b)| format!("{n} {b}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "challenge commitment: +64 bytes ({:.4}% of the session), {:.2} µs per side ({:.4}% of the session time)",
        6400.0 / total as f64,
        cc_t.as_secs_f64() * 1e6,
        100.0 * cc_t.as_secs_f64() / session_t.as_secs_f64()
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
    quick::quick(&[]);
    summary();
    session_summary();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
