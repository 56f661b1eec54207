//! Whole processes against FAEST: our `prover auth prove` + `verifier auth verify` of an
//! `aes128` key (two processes, as a user runs them) against the `faest` crate's keygen +
//! sign + verify (one process: this bench binary run again as a child), alternating, each
//! side's median wall time and median CPU time (user + system of the children, from
//! `getrusage(RUSAGE_CHILDREN)`). Start-up, reading and writing files and the proof's
//! header are counted on our side; nothing but the crate's three calls on FAEST's.
//!
//! Both sides run as copies of their binaries in the scratch folder, as an installed binary
//! is (`cargo install` copies it): a file the linker has just written sits in the page cache
//! in small pages, a copied one in large ones, and mapping it at start-up then takes fewer
//! faults (measured: 0.1 to 0.3 ms less per process, on either side).
//!
//! Shared by the figures bench through `#[path]`.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The child's part: `FAEST_PROCESS=s` (FAEST-128s) or `f` (FAEST-128f): a key from the
/// operating system's randomness (the crate refuses some keys: drawn again), its
/// verification key, a signature on "login" and its verification.
pub fn faest_process(set: &str) {
    use faest::signature::{Keypair, Signer, Verifier};
    use rand_core::RngCore as _;
    fn key<K: for<'a> TryFrom<&'a [u8]>>() -> K {
        let mut b = [0u8; 32];
        loop {
            rand_core::OsRng.fill_bytes(&mut b);
            if let Ok(k) = K::try_from(&b[..]) {
                return k;
            }
        }
    }
    match set {
        "s" => {
            let sk: faest::FAEST128sSigningKey = key();
            let vk = sk.verifying_key();
            let s: faest::FAEST128sSignature = sk.sign(b"login");
            vk.verify(b"login", &s).expect("FAEST-128s verifies");
        }
        _ => {
            let sk: faest::FAEST128fSigningKey = key();
            let vk = sk.verifying_key();
            let s: faest::FAEST128fSignature = sk.sign(b"login");
            vk.verify(b"login", &s).expect("FAEST-128f verifies");
        }
    }
}

/// User + system CPU time of every waited-for child so far, in ns.
fn children_cpu_ns() -> u64 {
    // SAFETY: `ru` is a valid rusage to write into.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    assert_eq!(r, 0, "getrusage");
    let t = |v: libc::timeval| v.tv_sec as u64 * 1_000_000_000 + v.tv_usec as u64 * 1000;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// `(wall ms, cpu ms)` of running `cmds` one after the other (each must succeed).
fn time_all(cmds: &mut [Command]) -> (f64, f64) {
    let c = children_cpu_ns();
    let s = Instant::now();
    for cmd in cmds.iter_mut() {
        let out = cmd.output().expect("spawn");
        assert!(
            out.status.success(),
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    (
        s.elapsed().as_secs_f64() * 1e3,
        (children_cpu_ns() - c) as f64 / 1e6,
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// One set's figures: medians (ms) and ratios ours/FAEST's.
#[derive(Clone, Copy, Debug)]
pub struct Whole {
    pub ours_wall: f64,
    pub ours_cpu: f64,
    pub faest_wall: f64,
    pub faest_cpu: f64,
}

impl Whole {
    pub fn cpu_ratio(&self) -> f64 {
        self.ours_cpu / self.faest_cpu
    }
    pub fn wall_ratio(&self) -> f64 {
        self.ours_wall / self.faest_wall
    }
}

/// Our prove + verify of an `aes128` key with `--vole-params {set}` (made in `dir`) against
/// FAEST-128s (`size`) or FAEST-128f (`speed`) as this binary's child with `env_var=s|f`,
/// over `runs` alternating rounds.
pub fn compare(
    prover: &Path,
    verifier: &Path,
    dir: &Path,
    set: &str,
    env_var: &str,
    runs: usize,
) -> Whole {
    let installed = |from: &Path, name: &str| {
        let to = dir.join(name);
        if !to.exists() {
            std::fs::copy(from, &to).unwrap();
        }
        to
    };
    let prover = &installed(prover, "prover");
    let verifier = &installed(verifier, "verifier");
    let peer = installed(&std::env::current_exe().unwrap(), "faest-peer");
    let key = dir.join("w.key");
    if !key.exists() {
        let st = Command::new(prover)
            .args(["auth", "keygen", "--kind", "aes128", "-o"])
            .arg(&key)
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
    }
    let proof = dir.join(format!("w-{set}.proof"));
    let ours = || {
        let mut p = Command::new(prover);
        p.args(["auth", "prove", "--key"])
            .arg(&key)
            .args(["--context", "login", "--vole-params", set, "-o"])
            .arg(&proof);
        let mut v = Command::new(verifier);
        v.args(["auth", "verify", "--context", "login"])
            .arg(dir.join("w.pub"))
            .arg(&proof);
        [p, v]
    };
    let theirs = || {
        let mut c = Command::new(&peer);
        c.env(env_var, if set == "size" { "s" } else { "f" });
        [c]
    };
    // once each before timing (page cache, the key files)
    time_all(&mut ours());
    time_all(&mut theirs());
    let (mut ow, mut oc, mut fw, mut fc) = (vec![], vec![], vec![], vec![]);
    for _ in 0..runs {
        let (w, c) = time_all(&mut ours());
        ow.push(w);
        oc.push(c);
        let (w, c) = time_all(&mut theirs());
        fw.push(w);
        fc.push(c);
    }
    Whole {
        ours_wall: median(ow),
        ours_cpu: median(oc),
        faest_wall: median(fw),
        faest_cpu: median(fc),
    }
}
