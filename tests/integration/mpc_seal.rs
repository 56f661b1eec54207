//! Committed witnesses (`zkgames::mpc::seal`): seal → verify → open round trips on SHA-256
//! and on hundreds of random circuits; binding (another witness, master seed or seal, a
//! flipped byte, a prover changing witness between rounds: never opens), with a brute-force
//! reference on small circuits; hiding (seals of two witnesses of one statement are
//! indistinguishable in what they open, with negative controls); sizes; the CLI.

use rand::{Rng as _, RngCore};
use sha2::Digest as _;
use zkgames::mpc::circuit::{random_circuit, Circuit};
use zkgames::mpc::engine::{Proof, Required, System};
use zkgames::mpc::kkw::Kkw;
use zkgames::mpc::kkw::{self, Params};
use zkgames::mpc::seal::seal_cheating_for_tests;
use zkgames::mpc::seal::{
    open, seal, seal_digest, seal_mixed_for_tests, verify, SealOpening, OPENING_HEADER_LEN,
};
use zkgames::mpc::sha256::MAX_PREIMAGE;
use zkgames::mpc::statement::Statement;
use zkgames::mpc::zkbpp::{unpack_trits, Proof as ZkProof};
use zkgames::proof_file::{decode, ProofFile, HEADER_LEN};
use zkgames::rng::seeded_rng;

/// A ZKB++ SHA-256 proof file's body as docs/PROTOCOLS.md lays it out: the message length,
/// then the proof (written here from the spec, to tamper with fields).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
struct Sha256Body {
    len: u32,
    proof: ZkProof,
}

fn stmt<'a>(c: &'a Circuit, y: &'a [bool], ctx: &'a [u8]) -> Statement<'a> {
    Statement {
        tag: b"zkgames/test/seal",
        circuit: c,
        public: b"public",
        output: y,
        context: ctx,
    }
}

fn bits(rng: &mut impl RngCore, n: usize) -> Vec<bool> {
    (0..n).map(|_| rng.gen()).collect()
}

fn all_inputs(n: usize) -> impl Iterator<Item = Vec<bool>> {
    (0u32..1 << n).map(move |x| (0..n).map(|i| x >> i & 1 == 1).collect())
}

fn sha(b: &[u8]) -> [u8; 32] {
    sha2::Sha256::digest(b).into()
}

// ---------------------------------------------------------------------------------------
// SHA-256

#[test]
fn sha256_seal_verify_open_and_rejections() {
    let mut rng = seeded_rng(1);
    for (len, rounds) in [(0usize, 20usize), (3, 219), (55, 30), (56, 9), (120, 5)] {
        let mut pre = vec![0u8; len];
        rng.fill_bytes(&mut pre);
        let d = sha(&pre);
        let (file, o) =
            zkgames::mpc::sha256::seal(&pre, &System::Zkbpp(rounds), b"game 1", &mut rng).unwrap();
        let f = ProofFile::from_bytes(&file).unwrap();
        // the ordinary verifier accepts the seal
        let rep =
            zkgames::mpc::sha256::verify(&d, &f, &Required::rounds(rounds), b"game 1").unwrap();
        assert_eq!(rep.rounds, rounds);
        assert_eq!(
            zkgames::mpc::sha256::open(&d, &f, &o, b"game 1").unwrap(),
            pre
        );
        // through the encoded opening too
        let ob = o.to_bytes();
        assert_eq!(ob.len(), OPENING_HEADER_LEN + len);
        let o2 = SealOpening::from_bytes(&ob).unwrap();
        assert_eq!(
            zkgames::mpc::sha256::open(&d, &f, &o2, b"game 1").unwrap(),
            pre
        );
        // another context or digest
        assert!(zkgames::mpc::sha256::open(&d, &f, &o, b"game 2").is_err());
        let mut d2 = d;
        d2[31] ^= 1;
        assert!(zkgames::mpc::sha256::open(&d2, &f, &o, b"game 1").is_err());
        if len > 0 {
            // another preimage of the same length, under the right digest of the seal
            let mut other = pre.clone();
            other[0] ^= 1;
            let e = zkgames::mpc::sha256::open(
                &d,
                &f,
                &SealOpening::new(*o.seal_digest(), *o.master_seed(), bits_of(&other)),
                b"game 1",
            )
            .unwrap_err();
            assert!(e.to_string().contains("does not satisfy"), "{e}");
        }
        // another master seed
        let mut m = *o.master_seed();
        m[rng.gen_range(0..32)] ^= 1 << rng.gen_range(0..8);
        let e = zkgames::mpc::sha256::open(
            &d,
            &f,
            &SealOpening::new(*o.seal_digest(), m, bits_of(&pre)),
            b"game 1",
        )
        .unwrap_err();
        assert!(e.to_string().contains("round 1:"), "{e}");
        // another seal of the same preimage: its opening names it, and relabelled with
        // this seal's digest it still does not open this one
        let (file2, o_other) =
            zkgames::mpc::sha256::seal(&pre, &System::Zkbpp(rounds), b"game 1", &mut rng).unwrap();
        let f2 = ProofFile::from_bytes(&file2).unwrap();
        assert!(zkgames::mpc::sha256::open(&d, &f, &o_other, b"game 1").is_err());
        assert!(zkgames::mpc::sha256::open(&d, &f2, &o, b"game 1").is_err());
        let forged = SealOpening::new(*o.seal_digest(), *o_other.master_seed(), bits_of(&pre));
        assert!(zkgames::mpc::sha256::open(&d, &f, &forged, b"game 1").is_err());
        assert_eq!(
            zkgames::mpc::sha256::open(&d, &f2, &o_other, b"game 1").unwrap(),
            pre
        );
    }
}

fn bits_of(b: &[u8]) -> Vec<bool> {
    zkgames::mpc::sha256::bytes_to_bits(b)
}

/// Every single flipped byte of an opening, and of the seal, makes the opening fail: the
/// seal's bytes are also checked with the opening's digest updated to the tampered seal,
/// so the re-proving check itself is exercised, not only the digest.
#[test]
fn sha256_flipped_bytes_never_open() {
    let mut rng = seeded_rng(2);
    let pre = b"move e2-e4";
    let d = sha(pre);
    let (file, o) = zkgames::mpc::sha256::seal(pre, &System::Zkbpp(40), b"", &mut rng).unwrap();
    let f = ProofFile::from_bytes(&file).unwrap();
    let ob = o.to_bytes();
    for i in 0..ob.len() {
        for x in [0x01u8, 0x80, rng.gen_range(1..=255)] {
            let mut t = ob.clone();
            t[i] ^= x;
            let r = SealOpening::from_bytes(&t)
                .and_then(|o| zkgames::mpc::sha256::open(&d, &f, &o, b""));
            assert!(r.is_err(), "opening byte {i} ^ {x:#x} opened");
        }
    }
    let body: Sha256Body = decode(&f.body, "b").unwrap();
    let mut positions: Vec<usize> = (0..HEADER_LEN + 120).collect();
    positions.extend((0..300).map(|_| rng.gen_range(0..file.len())));
    positions.push(file.len() - 1);
    let circuit = zkgames::mpc::sha256::sha256_circuit(pre.len()).unwrap();
    let y = bits_of(&d);
    let mut public = b"sha256-preimage-length".to_vec();
    public.extend_from_slice(&(pre.len() as u64).to_le_bytes());
    let st = Statement {
        tag: zkgames::mpc::sha256::TAG,
        circuit: &circuit,
        public: &public,
        output: &y,
        context: b"",
    };
    assert_eq!(seal_digest(&st, &body.proof), *o.seal_digest());
    let mut reproved = 0;
    for i in positions {
        let mut t = file.clone();
        t[i] ^= 1 << rng.gen_range(0..8);
        let Ok(tf) = ProofFile::from_bytes(&t) else {
            continue;
        };
        assert!(
            zkgames::mpc::sha256::open(&d, &tf, &o, b"").is_err(),
            "seal byte {i}"
        );
        if let Ok(tb) = decode::<Sha256Body>(&tf.body, "b") {
            if tb.len == body.len && tb.proof != body.proof {
                let relabelled =
                    SealOpening::new(seal_digest(&st, &tb.proof), *o.master_seed(), bits_of(pre));
                assert!(open(&st, &tb.proof, &relabelled).is_err(), "seal byte {i}");
                reproved += 1;
            }
        }
    }
    assert!(reproved > 200, "{reproved}");
}

/// A seal is exactly an ordinary proof in size: both follow the body-size formula of
/// PROTOCOLS.md 3.7 (which depends only on the rounds, the rounds with e ≠ 0, the circuit).
#[test]
fn seal_size_is_an_ordinary_proof_size() {
    fn varint(x: usize) -> usize {
        match x {
            0..=250 => 1,
            251..=0xffff => 3,
            _ => 5,
        }
    }
    let formula = |len: usize, rho: usize, with_x2: usize, n_in: usize, n_and: usize| {
        let (x2b, vb) = (n_in.div_ceil(8), n_and.div_ceil(8));
        varint(len)
            + 32
            + varint(rho.div_ceil(4))
            + rho.div_ceil(4)
            + varint(rho)
            + rho * (64 + 32 + varint(vb) + vb)
            + (rho - with_x2) * varint(0)
            + with_x2 * (varint(x2b) + x2b)
    };
    let mut rng = seeded_rng(3);
    let pre: Vec<u8> = (0..55u8).collect();
    let c = zkgames::mpc::sha256::sha256_circuit(55).unwrap();
    for rounds in [219usize, 13] {
        let (sealed, _) =
            zkgames::mpc::sha256::seal(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap();
        let ordinary =
            zkgames::mpc::sha256::prove(&pre, &System::Zkbpp(rounds), b"", &mut rng).unwrap();
        for file in [&sealed, &ordinary] {
            let f = ProofFile::from_bytes(file).unwrap();
            let b: Sha256Body = decode(&f.body, "b").unwrap();
            let es = unpack_trits(&b.proof.challenges, rounds).unwrap();
            let k = es.iter().filter(|&&e| e != 0).count();
            assert_eq!(
                file.len(),
                HEADER_LEN + formula(55, rounds, k, c.n_inputs(), c.n_and())
            );
        }
        eprintln!(
            "SHA-256 one block, {rounds} rounds: seal {} bytes, ordinary proof {} bytes",
            sealed.len(),
            ordinary.len()
        );
    }
}

// ---------------------------------------------------------------------------------------
// random circuits

/// A random system: ZKB++ with 1–139 rounds, or KKW with small random `(M, τ, N)`.
fn random_system(rng: &mut impl RngCore, kkw: bool) -> System {
    if kkw {
        let m = rng.gen_range(1..24);
        let n = [2, 4, 8, 16][rng.gen_range(0..4)];
        System::Kkw(Params::new(m, rng.gen_range(1..=m), n))
    } else {
        System::Zkbpp(rng.gen_range(1..140))
    }
}

/// What verifies a proof of `sys`: its own parameters, whatever bits they give.
fn lenient(sys: &System) -> Required {
    Required::reached_by(sys)
}

/// Both engines through [`engine`]: round trips, binding (another context, statement,
/// master seed, seal), and the brute-force reference on small circuits.
#[test]
fn random_circuits_round_trip_and_binding() {
    let mut rng = seeded_rng(4);
    let mut second_witnesses = [0; 2];
    let mut brute_forced = [0; 2];
    for case in 0..400 {
        let k = case % 2;
        // a third of the cases small enough for the brute-force reference
        let n_in = if case % 3 == 0 {
            rng.gen_range(1..=8)
        } else {
            rng.gen_range(1..40)
        };
        let (g, o) = (rng.gen_range(1..250), rng.gen_range(1..8));
        let c = random_circuit(&mut rng, n_in, g, o);
        let w = bits(&mut rng, n_in);
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"ctx");
        let sys = random_system(&mut rng, k == 1);
        let req = lenient(&sys);
        let (p, o) = sys.seal(&st, &w, &mut rng).unwrap();
        assert_eq!(p.system(), sys);
        p.verify(&st, &req).unwrap();
        assert_eq!(p.open(&st, &o).unwrap(), w, "case {case}");
        let o_bytes = SealOpening::from_bytes(&o.to_bytes()).unwrap();
        assert_eq!(p.open(&st, &o_bytes).unwrap(), w);
        // another context, another statement
        assert!(p.open(&stmt(&c, &y, b"ctX"), &o).is_err());
        let mut st2 = st;
        st2.public = b"other";
        assert!(p.open(&st2, &o).is_err());
        // another master seed
        let other_master = SealOpening::new(*o.seal_digest(), rng.gen(), w.clone());
        assert!(p.open(&st, &other_master).is_err());
        // another seal of the same witness (digest checked, then the re-proving check)
        let (p2, o2) = sys.seal(&st, &w, &mut rng).unwrap();
        assert!(p.open(&st, &o2).is_err());
        let relabelled = SealOpening::new(*o.seal_digest(), *o2.master_seed(), w.clone());
        assert!(p.open(&st, &relabelled).is_err());
        assert_eq!(p2.open(&st, &o2).unwrap(), w);
        // an ordinary proof of the same witness is not a seal anyone can open
        let ordinary = sys.prove(&st, &w, &mut rng).unwrap();
        let guess = SealOpening::new(ordinary.seal_digest(&st), rng.gen(), w.clone());
        assert!(ordinary.open(&st, &guess).is_err());
        // the other engine's seal digest never matches
        let (zp, zo) = System::Zkbpp(3).seal(&st, &w, &mut rng).unwrap();
        let (kp, ko) = System::Kkw(Params::new(3, 2, 2))
            .seal(&st, &w, &mut rng)
            .unwrap();
        assert!(zp.open(&st, &ko).is_err() && kp.open(&st, &zo).is_err());
        // brute-force reference for small circuits: of all 2^n witnesses, with the right
        // master seed and digest, exactly the sealed one opens
        if n_in <= 8 {
            brute_forced[k] += 1;
            for v in all_inputs(n_in) {
                let ok = p
                    .open(
                        &st,
                        &SealOpening::new(*o.seal_digest(), *o.master_seed(), v.clone()),
                    )
                    .is_ok();
                assert_eq!(ok, v == w, "case {case}");
                if v != w && c.eval(&v) == y {
                    second_witnesses[k] += 1;
                }
            }
        } else if n_in > 0 {
            // a flipped witness bit: either not a witness or not the sealed one
            let mut v = w.clone();
            v[rng.gen_range(0..n_in)] ^= true;
            if c.eval(&v) == y {
                second_witnesses[k] += 1;
            }
            let r = p.open(
                &st,
                &SealOpening::new(*o.seal_digest(), *o.master_seed(), v),
            );
            assert!(r.is_err());
        }
    }
    // the reference exercised witnesses that satisfy the statement, not only wrong ones
    for k in 0..2 {
        assert!(
            brute_forced[k] >= 60 && second_witnesses[k] >= 500,
            "{brute_forced:?} {second_witnesses:?}"
        );
    }
}

/// Every byte of small seals of both engines flipped (opening relabelled to the tampered
/// seal) and every byte of their openings flipped: nothing opens.
#[test]
fn random_circuits_every_flipped_byte_is_rejected() {
    let mut rng = seeded_rng(5);
    for case in 0..8 {
        let n_in = rng.gen_range(1..20);
        let g = rng.gen_range(10..80);
        let c = random_circuit(&mut rng, n_in, g, 4);
        let w = bits(&mut rng, n_in);
        let y = c.eval(&w);
        let st = stmt(&c, &y, b"");
        let sys = if case % 2 == 0 {
            System::Zkbpp(6)
        } else {
            System::Kkw(Params::new(6, 3, 4))
        };
        let (p, o) = sys.seal(&st, &w, &mut rng).unwrap();
        let pb = p.to_body();
        for i in 0..pb.len() {
            let mut t = pb.clone();
            t[i] ^= 1 << rng.gen_range(0..8);
            if let Ok(q) = Proof::from_body(p.engine(), &t, "p") {
                assert!(q.open(&st, &o).is_err(), "seal byte {i}");
                let relabelled = SealOpening::new(q.seal_digest(&st), *o.master_seed(), w.clone());
                assert!(
                    q.open(&st, &relabelled).is_err(),
                    "seal byte {i}, relabelled"
                );
            }
        }
        let ob = o.to_bytes();
        for i in 0..ob.len() {
            for x in [0x01u8, 0x80] {
                let mut t = ob.clone();
                t[i] ^= x;
                let r = SealOpening::from_bytes(&t).and_then(|o| p.open(&st, &o));
                assert!(r.is_err(), "opening byte {i} ^ {x:#x}");
            }
        }
    }
}

/// KKW: a sealer that runs some executions on another witness (both valid) makes a seal
/// that verifies but opens to neither witness nor to anything else; one that runs an
/// execution on a non-witness is caught when that execution is opened completely.
#[test]
fn kkw_a_prover_changing_witness_between_executions_cannot_open() {
    let mut rng = seeded_rng(16);
    let params = Params::new(12, 5, 4);
    for _ in 0..20 {
        let (c, a, b) = two_witnesses(&mut rng, 8);
        let y = c.eval(&a);
        let st = stmt(&c, &y, b"mixed");
        // executions in `switch` run on b: flip the input bits where a and b differ
        let switch: Vec<usize> = (0..12).filter(|_| rng.gen()).collect();
        if switch.is_empty() || switch.len() == 12 {
            continue;
        }
        let cheats: Vec<kkw::Cheat> = switch
            .iter()
            .flat_map(|&j| {
                (0..8)
                    .filter(|&i| a[i] != b[i])
                    .map(move |i| kkw::Cheat::Input {
                        execution: j,
                        input: i,
                    })
            })
            .collect();
        let (p, m) = seal_cheating_for_tests::<Kkw>(&st, &a, params, &cheats, &mut rng).unwrap();
        let p = Proof::Kkw(p);
        // both witnesses are valid: every execution is honest, the seal verifies
        p.verify(&st, &lenient(&p.system())).unwrap();
        let d = p.seal_digest(&st);
        for v in all_inputs(8) {
            assert!(p.open(&st, &SealOpening::new(d, m, v)).is_err());
        }
        // the same path with no switch opens (the test can succeed)
        let (q, m) = seal_cheating_for_tests::<Kkw>(&st, &a, params, &[], &mut rng).unwrap();
        let q = Proof::Kkw(q);
        assert_eq!(
            q.open(&st, &SealOpening::new(q.seal_digest(&st), m, a.clone()))
                .unwrap(),
            a
        );
    }
}

// ---------------------------------------------------------------------------------------
// a prover that changes witness between rounds

/// Two witnesses of one statement, found by brute force.
fn two_witnesses(rng: &mut impl RngCore, n_in: usize) -> (Circuit, Vec<bool>, Vec<bool>) {
    loop {
        let c = random_circuit(rng, n_in, 120, 3);
        let ins: Vec<Vec<bool>> = all_inputs(n_in).collect();
        let a = &ins[rng.gen_range(0..ins.len())];
        let y = c.eval(a);
        // the farthest other witness
        let b = ins
            .iter()
            .filter(|v| *v != a && c.eval(v) == y)
            .max_by_key(|v| v.iter().zip(a).filter(|(x, z)| x != z).count());
        if let Some(b) = b {
            if c.n_and() >= 20 && a.iter().zip(b).filter(|(x, z)| x != z).count() >= n_in / 2 {
                return (c, a.clone(), b.clone());
            }
        }
    }
}

#[test]
fn a_prover_changing_witness_between_rounds_cannot_open() {
    let mut rng = seeded_rng(6);
    for _ in 0..20 {
        let (c, a, b) = two_witnesses(&mut rng, 8);
        let y = c.eval(&a);
        let st = stmt(&c, &y, b"mixed");
        let rounds = rng.gen_range(2..150);
        let switch: Vec<bool> = (0..rounds).map(|_| rng.gen()).collect();
        if switch.iter().all(|&s| s) || switch.iter().all(|&s| !s) {
            continue;
        }
        let ws: Vec<&[bool]> = switch
            .iter()
            .map(|&s| if s { &b[..] } else { &a[..] })
            .collect();
        let (p, m) = seal_mixed_for_tests(&st, &ws, &mut rng);
        // both witnesses are valid, so every round is an honest round: the seal verifies
        verify(&st, &p, rounds).unwrap();
        let d = seal_digest(&st, &p);
        // opening to A fails at the first round run on B, and conversely
        let first_b = switch.iter().position(|&s| s).unwrap();
        let first_a = switch.iter().position(|&s| !s).unwrap();
        let ea = open(&st, &p, &SealOpening::new(d, m, a.clone())).unwrap_err();
        assert!(
            ea.to_string().contains(&format!("round {}:", first_b + 1)),
            "{ea}"
        );
        let eb = open(&st, &p, &SealOpening::new(d, m, b.clone())).unwrap_err();
        assert!(
            eb.to_string().contains(&format!("round {}:", first_a + 1)),
            "{eb}"
        );
        // nor to anything else
        for v in all_inputs(8) {
            assert!(open(&st, &p, &SealOpening::new(d, m, v)).is_err());
        }
    }
    // SHA-256: a real preimage in some rounds, a wrong message in the others: the seal
    // fails verification (each wrong round is caught with probability 1/3) and opens to
    // neither message
    let pre = b"abc".to_vec();
    let wrong = b"abd".to_vec();
    let d = sha(&pre);
    let circuit = zkgames::mpc::sha256::sha256_circuit(3).unwrap();
    let y = bits_of(&d);
    let mut public = b"sha256-preimage-length".to_vec();
    public.extend_from_slice(&3u64.to_le_bytes());
    let st = Statement {
        tag: zkgames::mpc::sha256::TAG,
        circuit: &circuit,
        public: &public,
        output: &y,
        context: b"",
    };
    let (wa, wb) = (bits_of(&pre), bits_of(&wrong));
    let ws: Vec<&[bool]> = (0..60)
        .map(|r| if r % 5 == 4 { &wb[..] } else { &wa[..] })
        .collect();
    let (p, m) = seal_mixed_for_tests(&st, &ws, &mut rng);
    assert!(verify(&st, &p, 60).is_err());
    let dg = seal_digest(&st, &p);
    assert!(open(&st, &p, &SealOpening::new(dg, m, wa.clone())).is_err());
    assert!(open(&st, &p, &SealOpening::new(dg, m, wb)).is_err());
}

// ---------------------------------------------------------------------------------------
// hiding: seals of two witnesses of one statement open the same distribution of bits

/// Per feature (challenge value, field, bit position) of the opened rounds, counts of
/// ones and of trials, for one set of seals.
#[derive(Default)]
struct Tally {
    /// family name → (ones, trials) per feature
    fam: std::collections::BTreeMap<&'static str, Vec<(u64, u64)>>,
}

impl Tally {
    fn add(&mut self, family: &'static str, idx: usize, bit: bool) {
        let v = self.fam.entry(family).or_default();
        if v.len() <= idx {
            v.resize(idx + 1, (0, 0));
        }
        v[idx].0 += bit as u64;
        v[idx].1 += 1;
    }

    /// Records what a seal opens: per round, the challenge, and every bit sent (the two
    /// seeds, x2, the opened view, the unopened commitment), keyed by the challenge.
    fn record(&mut self, p: &ZkProof) {
        let es = unpack_trits(&p.challenges, p.rounds.len()).unwrap();
        for (rp, &e) in p.rounds.iter().zip(&es) {
            let e = e as usize;
            for k in 0..3 {
                self.add("challenge", k, k == e);
            }
            let mut put = |fam, bytes: &[u8]| {
                for i in 0..8 * bytes.len() {
                    self.add(fam, 3 * i + e, bytes[i / 8] >> (i % 8) & 1 == 1);
                }
            };
            put(
                "seeds",
                &[rp.opening.seeds[0], rp.opening.seeds[1]].concat(),
            );
            put("x2", &rp.opening.x2);
            put("view", &rp.opening.view);
            put("commitment", &rp.commitment);
        }
    }
}

/// Two-sample chi-square per family: for each feature with trials on both sides, the 2×2
/// statistic (1 degree of freedom); returns (family, sum, features, max).
fn chi_square(a: &Tally, b: &Tally) -> Vec<(&'static str, f64, usize, f64)> {
    let mut out = Vec::new();
    for (fam, va) in &a.fam {
        let vb = &b.fam[fam];
        let (mut sum, mut n, mut max) = (0.0, 0usize, 0.0f64);
        for i in 0..va.len().max(vb.len()) {
            let (a1, an) = va.get(i).copied().unwrap_or((0, 0));
            let (b1, bn) = vb.get(i).copied().unwrap_or((0, 0));
            let (ones, zeros) = (a1 + b1, an - a1 + bn - b1);
            if an == 0 || bn == 0 || ones == 0 || zeros == 0 {
                continue;
            }
            let tot = (an + bn) as f64;
            let (a1, a0, b1, b0) = (a1 as f64, (an - a1) as f64, b1 as f64, (bn - b1) as f64);
            let det = a1 * b0 - a0 * b1;
            let x = tot * det * det / (an as f64 * bn as f64 * ones as f64 * zeros as f64);
            sum += x;
            n += 1;
            max = max.max(x);
        }
        out.push((*fam, sum, n, max));
    }
    out
}

/// True if every family looks alike: the sum within 6 standard deviations of its mean
/// (χ² with `n` degrees of freedom: mean n, sd √(2n)) and no single feature beyond 45
/// (p ≈ 2e-11 each).
fn alike(stats: &[(&'static str, f64, usize, f64)]) -> bool {
    stats
        .iter()
        .all(|&(_, sum, n, max)| sum <= n as f64 + 6.0 * (2.0 * n as f64).sqrt() && max <= 45.0)
}

#[test]
fn seals_of_two_witnesses_are_indistinguishable() {
    let mut rng = seeded_rng(7);
    let (c, a, b) = two_witnesses(&mut rng, 10);
    let y = c.eval(&a);
    let st = stmt(&c, &y, b"two moves");
    let dist = a.iter().zip(&b).filter(|(x, z)| x != z).count();
    let (n_seals, rounds) = (500, 12);
    let tally = |w: &[bool], rng: &mut zkgames::rng::Rng, leak: f64| {
        let mut t = Tally::default();
        for _ in 0..n_seals {
            let (mut p, o) = seal(&st, w, rounds, rng).unwrap();
            // negative control: a prover whose sent input share equals the witness bit
            // with probability `leak`
            for rp in p.rounds.iter_mut() {
                for (i, &wi) in w.iter().enumerate() {
                    if !rp.opening.x2.is_empty() && rng.gen_bool(leak) {
                        rp.opening.x2[i / 8] &= !(1 << (i % 8));
                        rp.opening.x2[i / 8] |= (wi as u8) << (i % 8);
                    }
                }
            }
            t.record(&p);
            drop(o);
        }
        t
    };
    let ta = tally(&a, &mut rng, 0.0);
    let tb = tally(&b, &mut rng, 0.0);
    let stats = chi_square(&ta, &tb);
    for s in &stats {
        eprintln!("honest seals, {dist} of 10 witness bits differ: {s:?}");
    }
    assert_eq!(stats.len(), 5);
    assert!(alike(&stats), "{stats:?}");

    // negative control 1: 5 % of the sent input-share bits leak the witness
    let la = tally(&a, &mut rng, 0.05);
    let lb = tally(&b, &mut rng, 0.05);
    let leaky = chi_square(&la, &lb);
    eprintln!("5 % leak: {:?}", leaky.iter().find(|s| s.0 == "x2"));
    assert!(!alike(&leaky), "a 5 % leak went unnoticed: {leaky:?}");
    // the leak shows in x2 only
    assert!(alike(
        &leaky
            .iter()
            .filter(|s| s.0 != "x2")
            .copied()
            .collect::<Vec<_>>()
    ));

    // negative control 2: the prover's randomness reused (a fixed --seed for every seal)
    let fixed = |w: &[bool]| {
        let mut t = Tally::default();
        for _ in 0..n_seals {
            t.record(&seal(&st, w, rounds, &mut seeded_rng(99)).unwrap().0);
        }
        t
    };
    let reused = chi_square(&fixed(&a), &fixed(&b));
    assert!(!alike(&reused), "reused randomness went unnoticed");
}

// ---------------------------------------------------------------------------------------
// the command line

use crate::common;
use common::{prover, run_cmd as run, tmp, verifier};

#[test]
fn cli_seal_verify_open() {
    let secret = "6d6f76652065322d6534"; // "move e2-e4"
    let digest = hex::encode(sha(&hex::decode(secret).unwrap()));
    let (s, o) = (tmp("move.seal"), tmp("move.opening"));
    let (c, _, err) = run(prover().args([
        "sha256",
        "seal",
        "--preimage-hex",
        secret,
        "-o",
        &s,
        "--opening",
        &o,
        "--context",
        "game 7",
        "--system",
        "zkbpp",
    ]));
    assert_eq!(c, 0, "{err}");
    assert!(
        err.contains("128.1 bits") && err.contains("secret"),
        "{err}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&o).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "opening file mode {mode:o}");
    }
    // the seal reveals nothing of the secret, and is an ordinary proof
    let seal_bytes = std::fs::read(&s).unwrap();
    let sb = hex::decode(secret).unwrap();
    assert!(!seal_bytes.windows(sb.len()).any(|x| x == sb.as_slice()));
    let (c, out, err) = run(verifier().args([
        "sha256",
        "verify",
        "--digest",
        &digest,
        &s,
        "--context",
        "game 7",
    ]));
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("ACCEPTED"));
    // open: the preimage on stdout
    let (c, out, err) =
        run(verifier().args(["sha256", "open", &digest, &s, &o, "--context", "game 7"]));
    assert_eq!(c, 0, "{err}");
    assert_eq!(out.trim(), secret);
    assert!(err.contains("OPENED"), "{err}");
    // the seal from stdin
    let o2 = verifier()
        .args(["sha256", "open", &digest, "-", &o, "--context", "game 7"])
        .stdin(std::fs::File::open(&s).unwrap())
        .output()
        .unwrap();
    assert_eq!(o2.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o2.stdout).trim(), secret);
    // rejected (exit 1): another context, another digest, another seal's opening, a
    // flipped byte in the opening's master seed or witness
    let (c, out, _) = run(verifier().args(["sha256", "open", &digest, &s, &o]));
    assert_eq!((c, out.as_str()), (1, ""));
    let other_digest = hex::encode(sha(b"x"));
    assert_eq!(
        run(verifier().args([
            "sha256",
            "open",
            &other_digest,
            &s,
            &o,
            "--context",
            "game 7"
        ]))
        .0,
        1
    );
    let (s2, o2) = (tmp("move2.seal"), tmp("move2.opening"));
    let (c, _, err) = run(prover().args([
        "sha256",
        "seal",
        "--preimage-hex",
        secret,
        "-o",
        &s2,
        "--opening",
        &o2,
        "--context",
        "game 7",
        "--security",
        "40",
        "--seed",
        "5",
        "--system",
        "zkbpp",
    ]));
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("warning: --seed"));
    assert_eq!(
        run(verifier().args(["sha256", "open", &digest, &s, &o2, "--context", "game 7"])).0,
        1
    );
    assert_eq!(
        run(verifier().args(["sha256", "open", &digest, &s2, &o, "--context", "game 7"])).0,
        1
    );
    assert_eq!(
        run(verifier().args(["sha256", "open", &digest, &s2, &o2, "--context", "game 7"])).0,
        0
    );
    let ob = std::fs::read(&o).unwrap();
    let t = tmp("tampered.opening");
    for i in 0..ob.len() {
        let mut b = ob.clone();
        b[i] ^= 0x10;
        std::fs::write(&t, &b).unwrap();
        let (c, out, err) =
            run(verifier().args(["sha256", "open", &digest, &s, &t, "--context", "game 7"]));
        let expect = if i < 10 || (74..82).contains(&i) {
            2
        } else {
            1
        };
        assert_eq!(c, expect, "byte {i}: {err}");
        assert!(out.is_empty());
        assert!(err.lines().count() == 1 && !err.contains("{"), "{err}");
    }
    // bad input (exit 2)
    let junk = tmp("junk");
    std::fs::write(&junk, b"not an opening").unwrap();
    for args in [
        vec!["sha256", "open", "zz", s.as_str(), o.as_str()],
        vec!["sha256", "open", &digest, s.as_str(), junk.as_str()],
        vec!["sha256", "open", &digest, junk.as_str(), o.as_str()],
        vec![
            "sha256",
            "open",
            &digest,
            s.as_str(),
            "/nonexistent/opening",
        ],
        vec!["sha256", "open", &digest, "-", "-"],
    ] {
        assert_eq!(run(verifier().args(&args)).0, 2, "{args:?}");
    }
    let big = tmp("big.opening");
    std::fs::write(&big, vec![0u8; OPENING_HEADER_LEN + MAX_PREIMAGE + 1]).unwrap();
    assert_eq!(
        run(verifier().args(["sha256", "open", &digest, &s, &big])).0,
        2
    );
    for args in [
        vec![
            "sha256",
            "seal",
            "--preimage-hex",
            secret,
            "-o",
            s2.as_str(),
            "--opening",
            "-",
        ],
        vec![
            "sha256",
            "seal",
            "--preimage-hex",
            secret,
            "-o",
            s2.as_str(),
            "--opening",
            s2.as_str(),
        ],
        vec![
            "sha256",
            "seal",
            "--preimage-hex",
            "6g",
            "-o",
            s2.as_str(),
            "--opening",
            o2.as_str(),
        ],
        vec![
            "sha256",
            "seal",
            "--preimage-hex",
            secret,
            "-o",
            s2.as_str(),
        ],
    ] {
        assert_eq!(run(prover().args(&args)).0, 2, "{args:?}");
    }
    // the seal is a sha256 proof file: inspect reads it
    let (c, out, _) = run(verifier().args(["sha256", "inspect", &s]));
    assert_eq!(c, 0);
    assert!(out.contains("rounds:     219"), "{out}");
}
