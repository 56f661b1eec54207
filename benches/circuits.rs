//! Statements people bring: emp-toolkit's Bristol Fashion AES-128 (6,400 ANDs) and SHA-256
//! compression (22,573 ANDs) circuits, read from `circuits/emp`, on every engine at 128
//! bits. For each circuit: the cost of reading and checking the file (and of turning it into
//! the engines' circuit) against proving it, measured in the same run; then per engine the
//! proof's size, median prove and verify times, and the ratio against ZKB++ in the same run.
//!
//! `cargo bench --bench circuits` (`CIRCUITS_RUNS=N` for N timed runs per median, default 5).

#[path = "common/quick.rs"]
mod quick;
use std::time::Instant;

use zkgames::mpc::bristol::{self, proof, Limits};
use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::{kkw, vole};
use zkgames::proof_file::ProofFile;
use zkgames::rng::seeded_rng;

fn runs() -> usize {
    std::env::var("CIRCUITS_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(5)
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    let n = runs();
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

fn main() {
    quick::quick(&[("CIRCUITS_RUNS", "1")]);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("circuits/emp");
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .map(|c| {
            if c.contains("avx512f") {
                "AVX-512"
            } else if c.contains("avx2") {
                "AVX2"
            } else {
                "no AVX2"
            }
        })
        .unwrap_or("unknown");
    println!(
        "circuits bench: {} timed runs per median, CPU with {cpu}",
        runs()
    );
    let systems = [
        ("ZKB++ (219 rounds)", System::zkbpp(128)),
        (
            "KKW size (N=32)",
            System::kkw(128, kkw::Profile::Size).unwrap(),
        ),
        (
            "VOLE size (τ=11)",
            System::vole(128, vole::Profile::Size).unwrap(),
        ),
        (
            "VOLE speed (τ=17)",
            System::vole(128, vole::Profile::Speed).unwrap(),
        ),
    ];
    for (name, widths) in [("aes_128.txt", [128usize, 128]), ("sha256.txt", [512, 256])] {
        let bytes = std::fs::read(dir.join(name))
            .unwrap_or_else(|e| panic!("{name}: {e} (the bench reads circuits/emp)"));
        let c = bristol::parse(&bytes, &Limits::default()).unwrap();
        let parse = median_ms(|| {
            std::hint::black_box(bristol::parse(&bytes, &Limits::default()).unwrap());
        });
        // group 0 secret (the key, the message block), group 1 public
        let values: Vec<Vec<bool>> = widths
            .iter()
            .map(|&w| (0..w).map(|i| i % 3 == 0).collect())
            .collect();
        let public = vec![None, Some(values[1].clone())];
        let convert = median_ms(|| {
            std::hint::black_box(c.to_circuit(&public).unwrap());
        });
        println!(
            "\n{name}: {} bytes, {} gates, {} ANDs; read and check {parse:.1} ms, to the engines' circuit {convert:.1} ms",
            bytes.len(),
            c.counts().lines(),
            c.counts().ands()
        );
        println!("| engine | proof bytes | prove ms | verify ms | prove / ZKB++ | verify / ZKB++ | reading / proving |");
        println!("|---|---|---|---|---|---|---|");
        let mut base = (0.0, 0.0);
        for (i, (label, sys)) in systems.iter().enumerate() {
            let a = proof::Assignment {
                values: values.clone(),
                public: vec![false, true],
            };
            let mut rng = seeded_rng(1);
            let (file, outs) = proof::prove(&c, &a, sys, b"", &mut rng).unwrap();
            let f = ProofFile::from_bytes(&file).unwrap();
            let req = Required::bits(128);
            let prove = median_ms(|| {
                std::hint::black_box(proof::prove(&c, &a, sys, b"", &mut rng).unwrap());
            });
            let verify = median_ms(|| {
                proof::verify(&c, &f, &public, &outs, &req, b"").unwrap();
            });
            if i == 0 {
                base = (prove, verify);
            }
            println!(
                "| {label} | {} | {prove:.1} | {verify:.1} | {:.2}× | {:.2}× | {:.2}× |",
                file.len(),
                prove / base.0,
                verify / base.1,
                (parse + convert) / prove
            );
        }
    }
}
