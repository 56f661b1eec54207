//! ZKB++ and KKW benchmarks: SHA-256 preimage (one block) and the English peg solitaire
//! board, at 128 bits (ZKB++: 219 rounds; KKW: both parameter sets). Baselines measured in
//! the same run: the plain evaluation of the same circuit (what one MPC round simulates,
//! once, with no secrecy), for SHA-256 the native `sha2` hash, and each engine against the
//! other. Sealing (commit to a preimage now, open it later) is measured against ordinary
//! proving and verifying of the same statement.
//!
//! Peer (optional, never in CI): `PEER_ZKBOO=DIR`, a directory holding `MPC_SHA256` and
//! `MPC_SHA256_VERIFIER` built from Sobuno/ZKBoo's `MPC_SHA256/*.c` (ZKBoo, the predecessor
//! of ZKB++; OpenSSL and OpenMP). Its prover and ours prove knowledge of the preimage `abc`
//! at the peer's round count (ours: the security that gives the same count), as whole
//! processes, alternately (`PEER_RUNS`, default 11); then both verifiers. Ours runs twice:
//! with ZKB++ at the peer's round count, and with the default engine (VOLE-in-the-head) at
//! the same security. Printed: proof sizes and the ratio peer / ours of the median times.

use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, Criterion};
use sha2::Digest as _;
use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::kkw::{params_for, Params, Profile};
use zkgames::mpc::rounds_for_bits;
use zkgames::mpc::sha256::{bytes_to_bits, sha256_circuit};
use zkgames::peg::mpc::peg_witness;
use zkgames::proof_file::ProofFile;
use zkgames::rng::seeded_rng;

#[path = "common/peers.rs"]
mod peers;
#[path = "common/quick.rs"]
mod quick;

/// The median of `n` timed runs (`MPC_BENCH_RUNS` instead, when set: 1 in quick mode).
fn median_ms(mut f: impl FnMut(), n: usize) -> f64 {
    let n = std::env::var("MPC_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
        .max(1);
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

/// ZKBoo (Sobuno/ZKBoo) against ours on the same statement, whole processes, alternately.
fn peer_zkboo() {
    let Some(dir) = peers::peer("PEER_ZKBOO", "ZKBoo SHA-256 (Sobuno/ZKBoo)") else {
        return;
    };
    let runs: usize = std::env::var("PEER_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let work = peers::scratch("zkboo");
    // the peer reads the preimage as one line on stdin and writes out<ROUNDS>.bin where it runs
    let peer_prove = peers::Job::new(&dir.join("MPC_SHA256"), &[], &work).stdin(b"abc\n");
    let (_, o) = peer_prove.run();
    peers::must_succeed("ZKBoo prover", &o);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let peer_rounds: usize = text
        .split("Iterations of SHA: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("ZKBoo prints its round count");
    let peer_file = work.join(format!("out{peer_rounds}.bin"));
    let peer_bytes = std::fs::metadata(&peer_file).unwrap().len();
    // ours at the same round count: the largest security level that needs no more rounds
    let bits = ((peer_rounds as f64) * 1.5f64.log2()).floor() as u32;
    assert_eq!(
        rounds_for_bits(bits),
        peer_rounds,
        "no security level gives {peer_rounds} rounds"
    );
    let sbits = bits.to_string();
    let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    let peer_verify = peers::Job::new(&dir.join("MPC_SHA256_VERIFIER"), &[], &work);
    // ZKB++ is ZKBoo's direct successor, so it runs at the peer's very round count; the
    // default engine (VOLE-in-the-head) has no rounds of that kind and runs at the same
    // security level instead
    let same_rounds = format!("the same {peer_rounds} rounds");
    let ours: [(&str, &str, &[&str]); 2] = [
        ("ZKB++", &same_rounds, &["--system", "zkbpp"]),
        ("VOLE-in-the-head, the default", "the same security", &[]),
    ];
    for (name, how, system) in ours {
        let mut prove = vec![
            "sha256",
            "prove",
            "--preimage-hex",
            "616263",
            "--security",
            &sbits,
            "-o",
            "ours.proof",
        ];
        prove.extend_from_slice(system);
        // the verifier reads the engine from the proof file
        let verify = [
            "sha256",
            "verify",
            "--digest",
            digest,
            "ours.proof",
            "--security",
            &sbits,
        ];
        let our_prove = peers::Job::new(&peers::ours("prover"), &prove, &work);
        let our_verify = peers::Job::new(&peers::ours("verifier"), &verify, &work);
        let (o_ms, p_ms) = peers::alternate(runs, &our_prove, &peer_prove, |ours, o| {
            peers::must_succeed(if ours { "our prover" } else { "ZKBoo prover" }, o)
        });
        let our_bytes = std::fs::metadata(work.join("ours.proof")).unwrap().len();
        let (ov_ms, pv_ms) = peers::alternate(runs, &our_verify, &peer_verify, |ours, o| {
            peers::must_succeed(
                if ours {
                    "our verifier"
                } else {
                    "ZKBoo verifier"
                },
                o,
            );
            if !ours {
                let t = String::from_utf8_lossy(&o.stdout);
                assert!(
                    !t.contains("Not Verified")
                        && t.to_uppercase().contains(&digest.to_uppercase()),
                    "ZKBoo did not verify its proof: {t}"
                );
            }
        });
        println!(
            "PEER ZKBoo SHA-256 of 'abc', {peer_rounds} rounds ({bits} bits), against our {name} \
             ({how}): proof ours {our_bytes} bytes, peer {peer_bytes} bytes (peer/ours {:.2}x)",
            peer_bytes as f64 / our_bytes as f64
        );
        peers::report(&format!("ZKBoo prove against our {name}"), &o_ms, &p_ms);
        peers::report(&format!("ZKBoo verify against our {name}"), &ov_ms, &pv_ms);
    }
    let _ = std::fs::remove_dir_all(&work);
}

fn bench(c: &mut Criterion) {
    peer_zkboo();
    let rounds = rounds_for_bits(128);

    // SHA-256, one block (55-byte preimage)
    let pre: Vec<u8> = (0..55u8).collect();
    let digest: [u8; 32] = sha2::Sha256::digest(&pre).into();
    let circ = sha256_circuit(pre.len()).unwrap();
    let bits = bytes_to_bits(&pre);
    let mut rng = seeded_rng(1);
    let bytes = zkgames::mpc::sha256::prove(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap();
    let file = ProofFile::from_bytes(&bytes).unwrap();
    let p_ms = median_ms(
        || {
            black_box(
                zkgames::mpc::sha256::prove(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap(),
            );
        },
        15,
    );
    let v_ms = median_ms(
        || {
            black_box(
                zkgames::mpc::sha256::verify(&digest, &file, &Required::rounds(rounds), b"")
                    .unwrap(),
            );
        },
        15,
    );
    let e_ms = median_ms(|| drop(black_box(circ.eval(&bits))), 15);
    println!(
        "SUMMARY sha256-1block zkb++ 128-bit: rounds {rounds}, proof {} bytes, prove {p_ms:.2} ms, verify {v_ms:.2} ms, \
         AND gates {}, plain circuit eval {e_ms:.3} ms (prove/eval ratio {:.0}x)",
        bytes.len(),
        circ.n_and(),
        p_ms / e_ms
    );

    // seal / open against ordinary prove / verify, same statement, same run
    let (seal_bytes, opening) =
        zkgames::mpc::sha256::seal(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap();
    let seal_file = ProofFile::from_bytes(&seal_bytes).unwrap();
    let s_ms = median_ms(
        || {
            black_box(
                zkgames::mpc::sha256::seal(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap(),
            );
        },
        15,
    );
    let sv_ms = median_ms(
        || {
            black_box(
                zkgames::mpc::sha256::verify(&digest, &seal_file, &Required::rounds(rounds), b"")
                    .unwrap(),
            );
        },
        15,
    );
    let o_ms = median_ms(
        || {
            black_box(zkgames::mpc::sha256::open(&digest, &seal_file, &opening, b"").unwrap());
        },
        15,
    );
    println!(
        "SUMMARY sha256-1block seal/open 128-bit: seal {s_ms:.2} ms (ordinary prove {p_ms:.2} ms, {:.2}x), \
         verify seal {sv_ms:.2} ms (ordinary verify {v_ms:.2} ms, {:.2}x), open {o_ms:.2} ms ({:.2}x ordinary prove); \
         seal {} bytes (ordinary proof {} bytes), opening {} bytes",
        s_ms / p_ms,
        sv_ms / v_ms,
        o_ms / p_ms,
        seal_bytes.len(),
        bytes.len(),
        opening.to_bytes().len()
    );
    // KKW, both parameter sets, same preimage, same run
    let sets: Vec<(&str, Params)> = vec![
        ("KKW size", params_for(128, Profile::Size).unwrap()),
        ("KKW speed", params_for(128, Profile::Speed).unwrap()),
        ("KKW smallest", params_for(128, Profile::Smallest).unwrap()),
    ];
    let mut sha_rows = vec![("ZKB++".to_string(), bytes.len(), p_ms, v_ms)];
    for (name, kp) in &sets {
        let kb = zkgames::mpc::sha256::prove(&pre, &System::Kkw(*kp), b"", &mut rng).unwrap();
        let kf = ProofFile::from_bytes(&kb).unwrap();
        let kp_ms = median_ms(
            || {
                black_box(
                    zkgames::mpc::sha256::prove(&pre, &System::Kkw(*kp), b"", &mut rng).unwrap(),
                );
            },
            15,
        );
        let kv_ms = median_ms(
            || {
                black_box(
                    zkgames::mpc::sha256::verify(&digest, &kf, &Required::bits(128), b"").unwrap(),
                );
            },
            15,
        );
        sha_rows.push((format!("{name} ({kp})"), kb.len(), kp_ms, kv_ms));
    }
    print_side_by_side("sha256-1block", &sha_rows);

    let mut g = c.benchmark_group("mpc-sha256-1block");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    g.bench_function("baseline: sha2 native", |b| {
        b.iter(|| sha2::Sha256::digest(black_box(&pre)))
    });
    g.bench_function("baseline: plain circuit eval", |b| {
        b.iter(|| circ.eval(black_box(&bits)))
    });
    g.bench_function("prove 219 rounds", |b| {
        b.iter(|| zkgames::mpc::sha256::prove(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap())
    });
    g.bench_function("verify 219 rounds", |b| {
        b.iter(|| {
            zkgames::mpc::sha256::verify(&digest, &file, &Required::rounds(rounds), b"").unwrap()
        })
    });
    g.bench_function("seal 219 rounds", |b| {
        b.iter(|| zkgames::mpc::sha256::seal(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap())
    });
    g.bench_function("verify seal 219 rounds", |b| {
        b.iter(|| {
            zkgames::mpc::sha256::verify(&digest, &seal_file, &Required::rounds(rounds), b"")
                .unwrap()
        })
    });
    g.bench_function("open seal 219 rounds", |b| {
        b.iter(|| zkgames::mpc::sha256::open(&digest, &seal_file, &opening, b"").unwrap())
    });
    for (name, kp) in &sets {
        let kb = zkgames::mpc::sha256::prove(&pre, &System::Kkw(*kp), b"", &mut rng).unwrap();
        let kf = ProofFile::from_bytes(&kb).unwrap();
        g.bench_function(format!("{name} prove"), |b| {
            b.iter(|| zkgames::mpc::sha256::prove(&pre, &System::Kkw(*kp), b"", &mut rng).unwrap())
        });
        g.bench_function(format!("{name} verify"), |b| {
            b.iter(|| {
                zkgames::mpc::sha256::verify(&digest, &kf, &Required::bits(128), b"").unwrap()
            })
        });
    }
    g.finish();

    // peg solitaire, English board
    let (inst, z) = zkgames::peg::catalog::solved("english").expect("English board solvable");
    let (pc, _) = zkgames::peg::mpc::peg_circuit(&inst).unwrap();
    let w = peg_witness(&inst, &z).unwrap();
    let pbytes =
        zkgames::peg::mpc::prove(&inst, &z, &System::Zkbpp(rounds), b"", &mut rng).unwrap();
    let pfile = ProofFile::from_bytes(&pbytes).unwrap();
    let pp_ms = median_ms(
        || {
            black_box(
                zkgames::peg::mpc::prove(&inst, &z, &System::Zkbpp(rounds), b"", &mut rng).unwrap(),
            );
        },
        15,
    );
    let pv_ms = median_ms(
        || {
            black_box(
                zkgames::peg::mpc::verify(&inst, &pfile, &Required::rounds(rounds), b"").unwrap(),
            );
        },
        15,
    );
    let pe_ms = median_ms(|| drop(black_box(pc.eval(&w))), 15);
    let pch_ms = median_ms(|| inst.check_solution(black_box(&z)).unwrap(), 15);
    println!(
        "SUMMARY peg-english zkb++ 128-bit: rounds {rounds}, proof {} bytes, prove {pp_ms:.2} ms, verify {pv_ms:.2} ms, \
         AND gates {}, plain circuit eval {pe_ms:.3} ms, plain check_solution {pch_ms:.3} ms (prove/eval ratio {:.0}x)",
        pbytes.len(),
        pc.n_and(),
        pp_ms / pe_ms
    );
    // The isomorphism protocol (FUN 2022) on the same instance and solution, same run.
    let iso_rounds = zkgames::peg::protocol::rounds_for_bits(128, inst.s());
    let ibytes = zkgames::peg::fs::prove_file(&inst, &z, iso_rounds, b"", &mut rng).unwrap();
    let iproof = zkgames::peg::fs::decode_proof(&ProofFile::from_bytes(&ibytes).unwrap()).unwrap();
    let ip_ms = median_ms(
        || {
            black_box(zkgames::peg::fs::prove(&inst, &z, iso_rounds, b"", &mut rng).unwrap());
        },
        9,
    );
    let iv_ms = median_ms(
        || {
            black_box(zkgames::peg::fs::verify(&inst, &iproof, 128, b"").unwrap());
        },
        9,
    );
    println!("SUMMARY peg-english 128-bit, side by side (same instance, same solution, same run):");
    println!(
        "  isomorphism protocol: {iso_rounds} rounds, proof {} bytes, prove {ip_ms:.2} ms, verify {iv_ms:.2} ms",
        ibytes.len()
    );
    println!(
        "  ZKB++:                {rounds} rounds, proof {} bytes, prove {pp_ms:.2} ms, verify {pv_ms:.2} ms",
        pbytes.len()
    );
    println!(
        "  ZKB++ vs isomorphism: {:.1}x smaller, prove {:.1}x faster, verify {:.1}x faster",
        ibytes.len() as f64 / pbytes.len() as f64,
        ip_ms / pp_ms,
        iv_ms / pv_ms
    );
    let mut peg_rows = vec![("ZKB++".to_string(), pbytes.len(), pp_ms, pv_ms)];
    for (name, kp) in &sets {
        let kb = zkgames::peg::mpc::prove(&inst, &z, &System::Kkw(*kp), b"", &mut rng).unwrap();
        let kf = ProofFile::from_bytes(&kb).unwrap();
        let kp_ms = median_ms(
            || {
                black_box(
                    zkgames::peg::mpc::prove(&inst, &z, &System::Kkw(*kp), b"", &mut rng).unwrap(),
                );
            },
            15,
        );
        let kv_ms = median_ms(
            || {
                black_box(
                    zkgames::peg::mpc::verify(&inst, &kf, &Required::bits(128), b"").unwrap(),
                );
            },
            15,
        );
        peg_rows.push((format!("{name} ({kp})"), kb.len(), kp_ms, kv_ms));
    }
    print_side_by_side("peg-english", &peg_rows);

    let mut g = c.benchmark_group("mpc-peg-english");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    g.bench_function("baseline: check_solution", |b| {
        b.iter(|| inst.check_solution(black_box(&z)).unwrap())
    });
    g.bench_function("baseline: plain circuit eval", |b| {
        b.iter(|| pc.eval(black_box(&w)))
    });
    g.bench_function("prove 219 rounds", |b| {
        b.iter(|| {
            zkgames::peg::mpc::prove(&inst, &z, &System::Zkbpp(rounds), b"", &mut rng).unwrap()
        })
    });
    g.bench_function("verify 219 rounds", |b| {
        b.iter(|| zkgames::peg::mpc::verify(&inst, &pfile, &Required::rounds(rounds), b"").unwrap())
    });
    for (name, kp) in &sets {
        let kb = zkgames::peg::mpc::prove(&inst, &z, &System::Kkw(*kp), b"", &mut rng).unwrap();
        let kf = ProofFile::from_bytes(&kb).unwrap();
        g.bench_function(format!("{name} prove"), |b| {
            b.iter(|| {
                zkgames::peg::mpc::prove(&inst, &z, &System::Kkw(*kp), b"", &mut rng).unwrap()
            })
        });
        g.bench_function(format!("{name} verify"), |b| {
            b.iter(|| zkgames::peg::mpc::verify(&inst, &kf, &Required::bits(128), b"").unwrap())
        });
    }
    g.finish();
}

/// The engines side by side, ratios against ZKB++ (the first row), same run.
fn print_side_by_side(what: &str, rows: &[(String, usize, f64, f64)]) {
    println!("SUMMARY {what} 128-bit, engines side by side (same statement, same run):");
    let (_, zb, zp, zv) = rows[0];
    for (name, b, p, v) in rows {
        println!(
            "  {name:<58} proof {b:>7} bytes ({:.2}x ZKB++), prove {p:7.2} ms ({:.2}x), verify {v:7.2} ms ({:.2}x)",
            *b as f64 / zb as f64,
            p / zp,
            v / zv
        );
    }
}

criterion_group!(benches, bench);

fn main() {
    quick::quick(&[("MPC_BENCH_RUNS", "1"), ("PEER_RUNS", "1")]);
    benches();
    Criterion::default().configure_from_args().final_summary();
}
