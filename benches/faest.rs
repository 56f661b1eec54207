//! Our VOLE-in-the-head engine against FAEST v2 (the `faest` crate, a dev-dependency), in the
//! same run, alternating: each timed round runs our prove, FAEST's sign, our verify, FAEST's
//! verify, so that a noisy neighbour slows both sides alike.
//!
//! - LowMC key (login) proof, size set against FAEST-128s and speed set against FAEST-128f:
//!   proof bytes (file, header included) against signature bytes, median prove/sign and
//!   verify times, ratios ours/peer, and the time per committed witness bit (ours: `ℓ =
//!   129 + 516 − 129 = 516`, the ciphertext fixing the last S-box layer's 129 AND outputs,
//!   PROTOCOLS 7.4a; FAEST-128 v2: `ℓ = 1,280`).
//! - AES-128 key proof (FAEST's own statement: `AES-128_k(pt) = ct`, 200 S-boxes), size set
//!   against FAEST-128s and speed set against FAEST-128f: the same figures, and the CPU time
//!   per S-box of both systems.
//! - A statement of 1,600 committed witness bits (the AES-128 statement's size before
//!   format v10's norm bytes, one witness byte per S-box in rounds 1–9; 128 inputs and 1,473
//!   AND gates of a random circuit, whose one output fixes one AND output): the same figures,
//!   without the proof-file header, to compare the degree-2 core at FAEST v1's size.
//!
//! Each row gives the median wall time and the median CPU time of all threads
//! (`CLOCK_PROCESS_CPUTIME_ID`): on a loaded machine the wall time of our two-thread
//! prover swings with the neighbours' load, its CPU time much less.
//!
//! `cargo bench --bench faest` (about a minute on two cores). `FAEST_RUNS=51` times each
//! median over 51 rounds instead of 21; `FAEST_SETS=speed` runs only the speed set's rows
//! (`size`, `speed`); `FAEST_KINDS=lowmc` only those statements (`aes`, `lowmc`, `w1600`).

use std::time::Instant;

use faest::signature::{Keypair, SignatureEncoding, Signer, Verifier};
use faest::{FAEST128fSignature, FAEST128fSigningKey, FAEST128sSignature, FAEST128sSigningKey};
use zkgames::mpc::aes128;
use zkgames::mpc::circuit::{Bit, Builder, Circuit};
use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::lowmc;
use zkgames::mpc::statement::Statement;
use zkgames::mpc::vole;
use zkgames::proof_file::{encode, ProofFile};
use zkgames::rng::seeded_rng;

/// FAEST-128's witness length in FAEST v2 (`ℓ = 1,280` bits, the crate's `LBytes = 160`:
/// the key and the states the S-boxes need; v1 had 1,600).
const FAEST_ELL: f64 = 1280.0;

fn rounds() -> usize {
    std::env::var("FAEST_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(21)
}

fn wanted(var: &str, key: &str) -> bool {
    match std::env::var(var) {
        Ok(v) => v.split(',').any(|k| k.trim() == key),
        Err(_) => true,
    }
}

/// The CPU time of every thread of this process so far, in ns (`CLOCK_PROCESS_CPUTIME_ID`).
fn cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write into; the clock id is a constant.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "clock_gettime");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// `(wall ms, cpu ms)` of `f`: the CPU time (all threads) is what a loaded machine does not
/// inflate, the wall time what a user waits.
fn ms(f: impl FnOnce()) -> (f64, f64) {
    let c = cpu_ns();
    let s = Instant::now();
    f();
    let wall = s.elapsed().as_secs_f64() * 1e3;
    (wall, cpu_ns().saturating_sub(c) as f64 / 1e6)
}

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[t.len() / 2]
}

type SignFn = Box<dyn Fn() -> Vec<u8>>;
type VerifyFn = Box<dyn Fn(&[u8])>;

/// A FAEST signer and its verifier, behind closures: `sign() -> signature bytes`,
/// `verify(bytes)`.
struct Peer {
    name: &'static str,
    sign: SignFn,
    verify: VerifyFn,
}

const MSG: &[u8] = b"login";

/// The first 32-byte key of a fixed sequence that FAEST accepts (it refuses keys whose AES
/// S-box inputs include zero).
fn faest_key<K: for<'a> TryFrom<&'a [u8]>>() -> K {
    (0u8..=255)
        .find_map(|i| {
            let b: Vec<u8> = (0..32u8)
                .map(|j| j.wrapping_mul(37).wrapping_add(i).wrapping_mul(101) ^ 0x5a)
                .collect();
            K::try_from(&b[..]).ok()
        })
        .expect("a valid FAEST key")
}

fn faest_128s() -> Peer {
    let sk: FAEST128sSigningKey = faest_key();
    let vk = sk.verifying_key();
    let sk2 = sk.clone();
    Peer {
        name: "FAEST-128s",
        sign: Box::new(move || {
            let s: FAEST128sSignature = sk2.sign(MSG);
            s.to_vec()
        }),
        verify: Box::new(move |b| {
            let s = FAEST128sSignature::try_from(b).expect("a FAEST-128s signature");
            vk.verify(MSG, &s).expect("FAEST-128s verifies");
        }),
    }
}

fn faest_128f() -> Peer {
    let sk: FAEST128fSigningKey = faest_key();
    let vk = sk.verifying_key();
    Peer {
        name: "FAEST-128f",
        sign: Box::new(move || {
            let s: FAEST128fSignature = sk.sign(MSG);
            s.to_vec()
        }),
        verify: Box::new(move |b| {
            let s = FAEST128fSignature::try_from(b).expect("a FAEST-128f signature");
            vk.verify(MSG, &s).expect("FAEST-128f verifies");
        }),
    }
}

/// One row: our prover/verifier on a statement of `ell` witness bits against `peer`, timed
/// alternately over [`rounds`] rounds.
fn row(
    what: &str,
    ell: f64,
    sboxes: Option<f64>,
    mut prove: impl FnMut() -> Vec<u8>,
    verify: impl Fn(&[u8]),
    peer: &Peer,
) {
    let ours = prove();
    verify(&ours);
    let theirs = (peer.sign)();
    (peer.verify)(&theirs);
    let n = rounds();
    let mut t: [Vec<(f64, f64)>; 4] = Default::default();
    for _ in 0..n {
        t[0].push(ms(|| drop(prove())));
        t[1].push(ms(|| drop((peer.sign)())));
        t[2].push(ms(|| verify(&ours)));
        t[3].push(ms(|| (peer.verify)(&theirs)));
    }
    let wall = |i: usize| median(t[i].iter().map(|x| x.0).collect());
    let cpu = |i: usize| median(t[i].iter().map(|x| x.1).collect());
    let (op, fp, ov, fv) = (wall(0), wall(1), wall(2), wall(3));
    println!(
        "  {what:<34} {:>6} B vs {:>6} B ({:.3}x) | prove {op:7.2} ms vs {fp:7.2} ms ({:.2}x) | verify {ov:7.2} ms vs {fv:7.2} ms ({:.2}x)",
        ours.len(),
        theirs.len(),
        ours.len() as f64 / theirs.len() as f64,
        op / fp,
        ov / fv,
    );
    let (cop, cfp, cov, cfv) = (cpu(0), cpu(1), cpu(2), cpu(3));
    println!(
        "  {:<34} cpu time (all threads): prove {cop:7.2} ms vs {cfp:7.2} ms ({:.2}x) | verify {cov:7.2} ms vs {cfv:7.2} ms ({:.2}x)",
        "",
        cop / cfp,
        cov / cfv
    );
    let (opb, ovb) = (cop * 1e6 / ell, cov * 1e6 / ell);
    let (fpb, fvb) = (cfp * 1e6 / FAEST_ELL, cfv * 1e6 / FAEST_ELL);
    println!(
        "  {:<34} cpu per witness bit (ours l={ell}, {} l={FAEST_ELL}): prove {opb:6.0} ns vs {fpb:6.0} ns ({:.2}x), verify {ovb:6.0} ns vs {fvb:6.0} ns ({:.2}x)",
        "",
        peer.name,
        opb / fpb,
        ovb / fvb
    );
    if let Some(n) = sboxes {
        // both sides prove the same 200 AES S-boxes (160 in the rounds, 40 in the key schedule)
        let (op, ov, fp, fv) = (cop * 1e3 / n, cov * 1e3 / n, cfp * 1e3 / n, cfv * 1e3 / n);
        println!(
            "  {:<34} cpu per S-box ({n} on both sides): prove {op:6.2} us vs {fp:6.2} us ({:.2}x), verify {ov:6.2} us vs {fv:6.2} us ({:.2}x)",
            "",
            op / fp,
            ov / fv
        );
    }
}

/// A circuit whose witness is `n_in + n_and` bits: `n_and` AND gates over two distinct
/// random earlier wires, each output XORed with a third one, every 64th wire an output.
fn witness_circuit(n_in: usize, n_and: usize) -> Circuit {
    use rand::Rng as _;
    let mut rng = seeded_rng(7);
    let mut b = Builder::new(n_in);
    let mut wires: Vec<Bit> = (0..n_in).map(|i| b.input(i)).collect();
    for _ in 0..n_and {
        let i = rng.gen_range(0..wires.len());
        let j = (i + rng.gen_range(1..wires.len())) % wires.len();
        let (x, y) = (wires[i], wires[j]);
        let z = wires[rng.gen_range(0..wires.len())];
        let a = b.and(x, y);
        let c = b.xor(a, z);
        wires.push(c);
    }
    for w in wires.iter().step_by(64) {
        b.output(*w);
    }
    b.finish()
}

pub(crate) fn main() {
    // quick mode (`-- --test`): one round a row
    if std::env::args().skip(1).any(|a| a == "--test") && std::env::var_os("FAEST_RUNS").is_none() {
        std::env::set_var("FAEST_RUNS", "1");
    }
    println!(
        "threads: rayon's global pool ({} threads; both sides use it or run single-threaded as they do by default)",
        rayon::current_num_threads()
    );
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let simd = if cpu.contains("avx512f") {
        "AVX-512"
    } else if cpu.contains("avx2") {
        "AVX2"
    } else {
        "no AVX2"
    };
    println!(
        "cpu: {} ({simd}, aes: {}, vaes: {}, pclmulqdq: {})",
        cpu.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .unwrap_or("?")
            .trim(),
        cpu.contains(" aes"),
        cpu.contains(" vaes"),
        cpu.contains("pclmulqdq")
    );
    let sets: Vec<(&str, vole::Profile, Peer)> = [
        ("size", vole::Profile::Size, faest_128s as fn() -> Peer),
        ("speed", vole::Profile::Speed, faest_128f),
    ]
    .into_iter()
    .filter(|(k, _, _)| wanted("FAEST_SETS", k))
    .map(|(k, p, f)| (k, p, f()))
    .collect();

    if wanted("FAEST_KINDS", "aes") {
        let mut krng = seeded_rng(3);
        let pt = aes128::random_bytes(&mut krng);
        let ell = vole::fixed::Reduction::of(&aes128::aes128_circuit(&pt)).n_committed();
        println!(
            "SUMMARY AES-128 key (FAEST's statement; ours l = {ell} committed of {}, 200 S-boxes) vs FAEST-128, ours/peer:",
            aes128::VOLE_WITNESS_BITS
        );
        let key = loop {
            let k = aes128::random_bytes(&mut krng);
            if aes128::sbox_inputs_nonzero(&k, &pt) {
                break k;
            }
        };
        let ct = aes128::encrypt(&key, &pt);
        for (k, profile, peer) in &sets {
            let sys = System::vole(128, *profile).unwrap();
            let mut rng = seeded_rng(1);
            row(
                &format!("AES-128 {k} set vs {}", peer.name),
                ell as f64,
                Some(aes128::SBOXES as f64),
                || aes128::prove_key(&key, &pt, &sys, b"login", &mut rng).unwrap(),
                |b| {
                    let f = ProofFile::from_bytes(b).unwrap();
                    aes128::verify_key(&pt, &ct, &f, &Required::bits(128), b"login").unwrap()
                },
                peer,
            );
        }
    }

    if wanted("FAEST_KINDS", "lowmc") {
        let key: lowmc::Block = [0x0123_4567_89ab_cdef, 0x0fed_cba9_8765_4321, 1];
        let pt: lowmc::Block = [42, 43, 0];
        let ell = vole::fixed::Reduction::of(&lowmc::lowmc_circuit(&pt)).n_committed();
        println!(
            "SUMMARY LowMC key (login proof, l = {ell} committed of {}) vs FAEST-128 (l = 1,280), ours/peer:",
            lowmc::KEY_BITS + lowmc::AND_GATES
        );
        let ct = lowmc::encrypt(&key, &pt);
        for (k, profile, peer) in &sets {
            let sys = System::vole(128, *profile).unwrap();
            let mut rng = seeded_rng(1);
            row(
                &format!("LowMC {k} set vs {}", peer.name),
                ell as f64,
                None,
                || lowmc::prove_key(&key, &pt, &sys, b"login", &mut rng).unwrap(),
                |b| {
                    let f = ProofFile::from_bytes(b).unwrap();
                    lowmc::verify_key(&pt, &ct, &f, &Required::bits(128), b"login").unwrap()
                },
                peer,
            );
        }
    }

    if wanted("FAEST_KINDS", "w1600") {
        println!(
            "SUMMARY a 1,600-bit committed witness (128 inputs and random ANDs, some fixed by the outputs; proof body, no file header) vs FAEST-128, ours/peer:"
        );
        // the outputs fix some AND outputs (the reduction does not commit them): add ANDs
        // until 1,600 bits are committed (1,473 ANDs commit 1,575)
        let mut n_and = 1473;
        let (c, ell) = loop {
            let c = witness_circuit(128, n_and);
            let ell = vole::fixed::Reduction::of(&c).n_committed();
            if ell >= 1600 {
                break (c, ell);
            }
            n_and += 1600 - ell;
        };
        println!("  ({n_and} ANDs commit {ell} bits)");
        let input: Vec<bool> = (0..128).map(|i| (i * 7 + 3) % 5 < 2).collect();
        let out = c.eval(&input);
        let st = Statement {
            tag: b"zkgames/bench/w1600",
            circuit: &c,
            public: b"",
            output: &out,
            context: b"",
        };
        for (k, profile, peer) in &sets {
            let params = vole::params_for(128, *profile).unwrap();
            let mut rng = seeded_rng(2);
            row(
                &format!("l={ell} {k} set vs {}", peer.name),
                ell as f64,
                None,
                || encode(&vole::prove(&st, &input, params, &mut rng).unwrap()),
                |b| {
                    let p: vole::Proof = zkgames::proof_file::decode(b, "proof").unwrap();
                    vole::verify(&st, &p, 128.0).unwrap()
                },
                peer,
            );
        }
    }
}
