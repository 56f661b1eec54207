//! Issue 41, §1: what the worst proof file an attacker can craft costs a verifier, against
//! an honest verification of the same statement, measured in the same run. Statement: the
//! SHA-256 login statement (a 54-byte preimage), at 128 bits, for each engine at its login
//! set and the other offered sets.
//!
//! For each set: the median honest verification; the slowest of several tampered files (one
//! byte flipped at spread positions: whatever an attacker changes, the verifier runs at most
//! the honest work and rejects); and the forged files, now refused before any work
//! (VOLE `τ = 8, D = 128, w = 2`; KKW at 4,096 executions; ZKB++ at 2,048 rounds; a
//! 247-byte preimage at a login server). Ratios are against the honest verification.
//!
//! Times are CPU time of the process (every thread): the work, whatever else the machine runs.
//!
//! `cargo bench --bench dos` (about a minute on two cores); `DOS_RUNS=15` for steadier medians.

#[path = "common/quick.rs"]
mod quick;
use zkgames::auth::keys;
use zkgames::mpc::engine::{Engine, Proof, Required, System};
use zkgames::mpc::{kkw, sha256, vole};
use zkgames::proof_file::ProofFile;
use zkgames::rng::seeded_rng;

fn runs() -> usize {
    std::env::var("DOS_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(7)
}

/// The CPU time of this process (all its threads), milliseconds: the work a verification
/// costs, steady on a machine other programs share (wall-clock times there vary several-fold).
fn cpu_ms() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
    }
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec of the C layout
    let r = unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "clock_gettime");
    t.sec as f64 * 1e3 + t.nsec as f64 / 1e6
}

/// The median CPU time of `f` over [`runs`] runs, milliseconds.
fn median_ms(mut f: impl FnMut()) -> f64 {
    let n = runs();
    let mut t: Vec<f64> = (0..n)
        .map(|_| {
            let s = cpu_ms();
            f();
            cpu_ms() - s
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[n / 2]
}

/// The proof file with its proof replaced by `edit` of it.
fn rewrite(bytes: &[u8], edit: impl FnOnce(&mut Proof)) -> Vec<u8> {
    let file = ProofFile::from_bytes(bytes).unwrap();
    let (len, mut pr): (u32, Proof) = Proof::read_file(&sha256::PROTOCOLS, &file, "p").unwrap();
    edit(&mut pr);
    pr.file_bytes(&sha256::PROTOCOLS, &len).unwrap()
}

fn main() {
    quick::quick(&[("DOS_RUNS", "1")]);
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let simd = if cpu.contains("avx512f") {
        "AVX-512"
    } else if cpu.contains("avx2") {
        "AVX2"
    } else {
        "no AVX2"
    };
    let threads = rayon::current_num_threads();
    println!(
        "issue 41 §1: forged proof cost against an honest verification ({simd}, {threads} threads)"
    );
    let mut rng = seeded_rng(41);
    let mut pre = keys::ID_TAG.to_vec();
    pre.extend_from_slice(&[7u8; 32]);
    let digest = {
        use sha2::Digest as _;
        let d: [u8; 32] = sha2::Sha256::digest(&pre).into();
        d
    };
    let ctx = keys::login_context("zkgames", "alice", &[1u8; 32]).unwrap();
    let req = Required::bits(128);
    let verify = |bytes: &[u8]| {
        let f = ProofFile::from_bytes(bytes).unwrap();
        sha256::verify(&digest, &f, &req, &ctx).is_ok()
    };
    let sets: Vec<(&str, System)> = vec![
        ("ZKB++ 219 rounds (login)", System::zkbpp(128)),
        (
            "KKW size (login)",
            System::kkw(128, kkw::Profile::Size).unwrap(),
        ),
        ("KKW speed", System::kkw(128, kkw::Profile::Speed).unwrap()),
        (
            "KKW smallest",
            System::kkw(128, kkw::Profile::Smallest).unwrap(),
        ),
        (
            "VOLE size (login)",
            System::vole(128, vole::Profile::Size).unwrap(),
        ),
        (
            "VOLE speed",
            System::vole(128, vole::Profile::Speed).unwrap(),
        ),
    ];
    println!(
        "{:<26} {:>10} {:>14} {:>8} {:>16} {:>8}",
        "set", "honest CPU ms", "worst tamper", "ratio", "forged (refused)", "ratio"
    );
    let mut worst_ratio = 0f64;
    // per engine: (heaviest honest verification, worst crafted file), milliseconds
    let mut per_engine: Vec<(&str, f64, f64)> =
        vec![("ZKB++", 0.0, 0.0), ("KKW", 0.0, 0.0), ("VOLE", 0.0, 0.0)];
    for (name, sys) in sets {
        let honest = sha256::prove(&pre, &sys, &ctx, &mut rng).unwrap();
        assert!(verify(&honest));
        let h = median_ms(|| assert!(verify(&honest)));
        let n = honest.len();
        let mut worst = 0f64;
        for k in 1..=8 {
            let mut t = honest.clone();
            let at = (n - 1) * k / 8;
            t[at] ^= 0x01;
            worst = worst.max(median_ms(|| assert!(!verify(&t))));
        }
        let forged = rewrite(&honest, |p| match p {
            Proof::Vole(v) => v.params = vole::Params::new(8, 128, 2),
            Proof::Kkw(k) => k.params = kkw::Params::new(4096, 27, 16),
            Proof::Zkbpp(z) => {
                let r = z.rounds[0].clone();
                z.rounds.resize(2048, r);
                z.challenges.resize(2048 / 4, 0);
            }
            // an engine added later has no crafted file here yet
            #[allow(unreachable_patterns)]
            _ => {}
        });
        let f = median_ms(|| assert!(!verify(&forged)));
        worst_ratio = worst_ratio.max(worst / h).max(f / h);
        let e = per_engine
            .iter_mut()
            .find(|(n, _, _)| name.starts_with(n))
            .expect("an engine");
        e.1 = e.1.max(h);
        e.2 = e.2.max(worst).max(f);
        println!(
            "{name:<26} {h:>10.2} {worst:>14.2} {:>7.2}× {f:>16.3} {:>7.3}×",
            worst / h,
            f / h
        );
    }
    // what the verifier's cap allows: any file of an engine costs at most its heaviest
    // offered set's verification (a tampered file may state another offered set)
    for (n, heaviest, worst) in &per_engine {
        println!(
            "{n:<6} worst crafted file {worst:.2} ms / heaviest honest set {heaviest:.2} ms = {:.2}×",
            worst / heaviest
        );
    }
    // at a login server: a 247-byte preimage with the login set, refused on its shape
    let id = keys::Identity::Sha256(keys::sha256_identity(&[7u8; 32]));
    let sys = keys::login_system(Engine::Vole);
    let good = sha256::prove(&pre, &sys, &ctx, &mut rng).unwrap();
    let long = sha256::prove(&[9u8; 247], &sys, &ctx, &mut rng).unwrap();
    let g = median_ms(|| keys::verify_login(&id, "zkgames", "alice", &[1u8; 32], &good).unwrap());
    let l = median_ms(|| {
        keys::verify_login(&id, "zkgames", "alice", &[1u8; 32], &long).unwrap_err();
    });
    println!(
        "login, VOLE: honest {g:.2} ms; 247-byte preimage refused in {l:.3} ms ({:.3}×)",
        l / g
    );
    worst_ratio = worst_ratio.max(l / g);
    println!("worst crafted file / honest verification of the same set: {worst_ratio:.2}×");
}
