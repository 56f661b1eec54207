//! Word games against the AES-128 login proof: the Wordle seal (`crane`, the shipped answer
//! list), a Wordle answer (`trace` against it) and a Boggle find (`manes` on
//! `seal/ifer/mans/tope`, the shipped dictionary), each proved and verified with the default
//! engine (VOLE-in-the-head, size set, 128 bits), against an `aes128` login proof with the
//! same engine, in one process, taking turns (login, then each word-game proof, run after
//! run). Prints per proof its AND gates, S-boxes, bytes and the ratios of its median prove and
//! verify CPU times (all threads, `CLOCK_PROCESS_CPUTIME_ID`) to the login proof's.
//!
//! `cargo bench --bench words` (`cargo bench --bench figures` runs it for its headline row).
//! `WORDS_RUNS=N` takes each median over `N` runs (default 21). Quick mode, `-- --test`: one
//! run, no figures to quote.

#[path = "common/cpu.rs"]
mod cpu;
#[path = "common/quick.rs"]
mod quick;

use cpu::{median, time};

use zkgames::auth::keys::{prove_login_with, verify_login, Kind, SecretKey};
use zkgames::mpc::engine::{Engine, Required};
use zkgames::rng::seeded_rng;
use zkgames::words::boggle::{self, Dictionary, Grid};
use zkgames::words::{dict, wordle};

const GRID: &str = "seal/ifer/mans/tope";

/// Makes a proof's bytes.
type Prove = Box<dyn Fn(&mut zkgames::rng::Rng) -> Vec<u8>>;
/// Verifies a proof's bytes (panics if they do not verify).
type Verify = Box<dyn Fn(&[u8])>;

/// One proof kind of the bench: prove (returns the bytes) and verify.
struct Job {
    name: &'static str,
    ands: usize,
    sboxes: usize,
    prove: Prove,
    verify: Verify,
}

pub fn main() {
    let q = quick::quick(&[("WORDS_RUNS", "1")]);
    let n = cpu::runs("WORDS_RUNS", 21);
    let engine = Engine::Vole;
    let system = engine.default_system(128).unwrap();
    let req = Required::bits(128);
    let mut rng = seeded_rng(7);

    // the AES-128 login proof, as `prover auth login` makes it with the default engine
    let key = SecretKey::generate(Kind::Aes128, &mut rng).unwrap();
    let id = key.identity();
    let nonce = [5u8; 32];
    let login = Job {
        name: "login",
        ands: 0,
        sboxes: 0,
        prove: Box::new(move |rng| {
            prove_login_with(&key, "srv", "alice", &nonce, engine, rng).unwrap()
        }),
        verify: Box::new(move |b| verify_login(&id, "srv", "alice", &nonce, b).unwrap()),
    };

    let lists = std::rc::Rc::new(wordle::Lists::default_lists());
    let word = wordle::parse_word("crane").unwrap();
    let sealed = wordle::seal(&lists, &word, &system, b"", &mut rng).unwrap();
    let seal_c = wordle::seal_circuit(&lists.answers);
    let (seal_file, opening) = (sealed.file.clone(), std::rc::Rc::new(sealed.opening));
    let (head, digest) = wordle::verify_seal(&lists.answers, &seal_file, &req, b"").unwrap();
    let guess = wordle::parse_word("trace").unwrap();
    let answer_c = wordle::answer_circuit(&guess);
    let feedback = wordle::feedback(&guess, &word);
    let seal_kind = {
        let (l1, l2, w, s) = (lists.clone(), lists.clone(), word, system);
        Job {
            name: "Wordle seal",
            ands: seal_c.n_and(),
            sboxes: seal_c.n_inv(),
            prove: Box::new(move |rng| wordle::seal(&l1, &w, &s, b"", rng).unwrap().file),
            verify: Box::new(move |b| {
                wordle::verify_seal(&l2.answers, b, &Required::bits(128), b"").unwrap();
            }),
        }
    };
    let answer_kind = {
        let (op, s, h) = (opening.clone(), system, head.clone());
        Job {
            name: "Wordle answer",
            ands: answer_c.n_and(),
            sboxes: answer_c.n_inv(),
            prove: Box::new(move |rng| wordle::answer(&op, &guess, &s, b"", rng).unwrap().1),
            verify: Box::new(move |b| {
                wordle::verify_answer(&digest, &h, &guess, &feedback, b, &Required::bits(128), b"")
                    .unwrap();
            }),
        }
    };
    let grid = std::rc::Rc::new(Grid::parse(GRID, "grid").unwrap());
    let d = std::rc::Rc::new(Dictionary::shipped());
    let find_word = dict::letters_of("manes").unwrap();
    let probe = boggle::seal(&grid, &d, &find_word, &system, b"", &mut rng).unwrap();
    let (find_c, _) = boggle::find_circuit(&grid, probe.dice, &probe.membership);
    let find_kind = {
        let (g1, g2, d1, d2, s) = (grid.clone(), grid.clone(), d.clone(), d.clone(), system);
        Job {
            name: "Boggle find",
            ands: find_c.n_and(),
            sboxes: find_c.n_inv(),
            prove: Box::new(move |rng| {
                boggle::seal(&g1, &d1, &find_word, &s, b"", rng)
                    .unwrap()
                    .file
            }),
            verify: Box::new(move |b| {
                boggle::verify(&g2, &d2, b, &Required::bits(128), b"").unwrap();
            }),
        }
    };

    let kinds = [login, seal_kind, answer_kind, find_kind];
    let proofs: Vec<Vec<u8>> = kinds.iter().map(|k| (k.prove)(&mut rng)).collect();
    let mut t = vec![(Vec::new(), Vec::new()); kinds.len()];
    for _ in 0..n {
        for (k, kind) in kinds.iter().enumerate() {
            t[k].0.push(time(|| {
                std::hint::black_box((kind.prove)(&mut rng));
            }));
            t[k].1.push(time(|| (kind.verify)(&proofs[k])));
        }
    }
    let (lp, lv) = (median(t[0].0.clone()), median(t[0].1.clone()));
    println!(
        "word games against the AES-128 login proof ({} B), {}, {n} alternating runs, one process: \
         median CPU time (all threads), ratio to the login proof's",
        proofs[0].len(),
        system
    );
    println!(
        "{:<14} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "proof", "AND", "S-boxes", "bytes", "prove", "verify"
    );
    let mut summary = Vec::new();
    for (k, kind) in kinds.iter().enumerate().skip(1) {
        let (rp, rv) = (median(t[k].0.clone()) / lp, median(t[k].1.clone()) / lv);
        println!(
            "{:<14} {:>7} {:>7} {:>7} {:>6.2}× {:>6.2}×",
            kind.name,
            kind.ands,
            kind.sboxes,
            proofs[k].len(),
            rp,
            rv
        );
        summary.push(format!(
            "{}: {} AND {} S-boxes {} B {rp:.4}x {rv:.4}x",
            kind.name,
            kind.ands,
            kind.sboxes,
            proofs[k].len()
        ));
    }
    println!(
        "WORDS_SUMMARY runs={n}; login {} B; {}",
        proofs[0].len(),
        summary.join("; ")
    );
    if q {
        println!("(quick mode: one run, not a measurement)");
    }
}
