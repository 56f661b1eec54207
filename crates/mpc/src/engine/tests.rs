//! The engine contract, checked for every engine in [`Engine::ALL`] through the one
//! interface ([`System`], [`Proof`]): a new engine is tested by adding it to the list.

use super::*;
use crate::circuit::{Builder, Circuit};
use rand_core::SeedableRng;
use zkgames_net::{run_prover, run_verifier, Channel};

fn circuit() -> Circuit {
    // out = (a ∧ b) ⊕ ¬(c ∧ (a ⊕ b)), out2 = a ∧ c
    let mut b = Builder::new(3);
    let (x, y, z) = (b.input(0), b.input(1), b.input(2));
    let ab = b.and(x, y);
    let xy = b.xor(x, y);
    let t = b.and(z, xy);
    let nt = b.not(t);
    let o = b.xor(ab, nt);
    let o2 = b.and(x, z);
    b.output(o);
    b.output(o2);
    b.finish()
}

fn statement<'a>(c: &'a Circuit, output: &'a [bool], context: &'a [u8]) -> Statement<'a> {
    Statement {
        tag: b"zkg:test:engine-contract",
        circuit: c,
        public: b"",
        output,
        context,
    }
}

/// A cheap system of every engine: its default set at 40 bits.
fn systems() -> Vec<System> {
    Engine::ALL
        .iter()
        .map(|e| e.default_system(40).expect("every engine offers 40 bits"))
        .collect()
}

#[test]
fn every_engine_is_named_once_and_parsed_back() {
    let mut wires: Vec<&str> = Engine::ALL.iter().map(|e| e.wire()).collect();
    for &e in Engine::ALL {
        assert_eq!(Engine::from_wire(e.wire()), Some(e));
        for a in e.aliases() {
            assert_eq!(Engine::from_wire(a), Some(e));
        }
        let sets = e.param_sets();
        for s in sets {
            let sys = e.system(128, s.name).unwrap();
            assert_eq!(sys.engine(), e);
            assert_eq!(sys.set_name(128), Some(s.name), "{e} {}", s.name);
            assert!(sys.security_bits() >= 128.0);
        }
        assert!(e.system(128, "no such set").is_err() || sets.is_empty());
    }
    wires.sort();
    wires.dedup();
    assert_eq!(wires.len(), Engine::ALL.len(), "wire names are distinct");
}

#[test]
fn every_engine_proves_verifies_and_refuses_a_false_claim() {
    let c = circuit();
    let w = [true, false, true];
    let y = c.eval(&w);
    let mut other = y.clone();
    other[0] ^= true;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    for sys in systems() {
        let st = statement(&c, &y, b"ctx");
        let req = Required::reached_by(&sys);
        let p = sys.prove(&st, &w, &mut rng).unwrap();
        assert_eq!(p.engine(), sys.engine());
        assert_eq!(p.system(), sys);
        p.verify(&st, &req).unwrap();
        // the bytes round trip, and name nothing but the proof
        let back = Proof::from_body(sys.engine(), &p.to_body(), "proof").unwrap();
        assert_eq!(back, p);
        // another output, a stricter verifier, a verifier of another engine
        assert!(
            p.verify(&statement(&c, &other, b"ctx"), &req).is_err(),
            "{sys}"
        );
        let strict = Required {
            bits: sys.security_bits() + 1.0,
            ..req
        };
        assert!(p.verify(&st, &strict).is_err(), "{sys}");
        for &e in Engine::ALL.iter().filter(|&&e| e != sys.engine()) {
            assert!(p.verify(&st, &req.only(Some(e))).is_err());
        }
        // the prover refuses a wrong witness
        assert!(sys.prove(&st, &[false, false, false], &mut rng).is_err());
        assert!(!p.describe().is_empty());
        assert!(sys.summary().starts_with(sys.engine().name()));
    }
}

#[test]
fn every_engine_seals_and_opens_only_its_own_seal() {
    let c = circuit();
    let w = [true, true, false];
    let y = c.eval(&w);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
    for sys in systems() {
        let st = statement(&c, &y, b"ctx");
        let (seal, opening) = sys.seal(&st, &w, &mut rng).unwrap();
        seal.verify(&st, &Required::reached_by(&sys)).unwrap();
        seal.check_strength(&Required::reached_by(&sys)).unwrap();
        assert_eq!(seal.open(&st, &opening).unwrap(), w);
        assert_eq!(*opening.seal_digest(), seal.seal_digest(&st));
        // another context is another statement: the opening does not open it
        let st2 = statement(&c, &y, b"other");
        assert!(seal.open(&st2, &opening).is_err(), "{sys}");
        let (seal2, _) = sys.seal(&st, &w, &mut rng).unwrap();
        assert!(seal2.open(&st, &opening).is_err(), "{sys}");
    }
}

#[test]
fn every_engine_runs_a_live_session_and_replays_it() {
    let c = circuit();
    let w = [false, true, true];
    let y = c.eval(&w);
    let owned = || OwnedStatement {
        tag: b"zkg:test:engine-contract",
        circuit: c.clone(),
        public: Vec::new(),
        output: y.clone(),
        context: b"ctx".to_vec(),
    };
    // any protocol id: the tests' sessions never meet another kind
    let protocol = crate::bristol::proof::CIRCUIT_MPC;
    for sys in systems() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let a = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (b, _) = l.accept().unwrap();
        let mut cp = Channel::tcp(a, Default::default());
        let mut cv = Channel::tcp(b, Default::default());
        let st = owned();
        let t = std::thread::spawn(move || {
            let prover = sys
                .session_prover(st, protocol, w.to_vec(), zkgames_core::rng::seeded_rng(3))
                .unwrap();
            run_prover(&mut cp, prover)
        });
        let mut verifier =
            sys.session_verifier(owned(), protocol, zkgames_core::rng::seeded_rng(4));
        let rec = run_verifier(&mut cv, verifier.as_mut()).unwrap();
        t.join().unwrap().unwrap();
        // a replay looks for the offered set of the verifier's level
        let req = Required::bits(40);
        let ran = replay_session(sys.engine(), owned(), protocol, &req, &rec).unwrap();
        assert_eq!(ran.engine(), sys.engine());
        assert_eq!(sys.as_ran(rec.hello.rounds).engine(), sys.engine());
        assert!(!sys.engine().describe_session(rec.hello.rounds).is_empty());
        // a session of another statement does not replay against this one
        let mut other = owned();
        other.context = b"other".to_vec();
        assert!(replay_session(sys.engine(), other, protocol, &req, &rec).is_err());
    }
}

#[test]
fn zkbpp_rounds_and_bits_name_the_same_requirement() {
    // the engine-agnostic requirement in bits asks ZKB++ for exactly the rounds the
    // historical round rule did
    for bits in 1..=512u32 {
        assert_eq!(
            crate::zkbpp::rounds_for(bits as f64),
            crate::zkbpp::rounds_for_bits(bits)
        );
    }
    for rounds in 1..=2000usize {
        assert_eq!(
            crate::zkbpp::rounds_for(Required::rounds(rounds).bits),
            rounds
        );
    }
}

/// [`System::max_proof_bytes`] bounds every honest proof of every engine at its offered
/// sets: a small circuit at 40 and 128 bits, and AES-128's key statement (inverted bytes for
/// the engines that prove them, its lowering for the others) at the 128-bit default sets.
#[test]
fn honest_proofs_fit_their_computed_bound() {
    let c = circuit();
    let w = [true, false, true];
    let out = c.eval(&w);
    let mut rng = zkgames_core::rng::seeded_rng(11);
    for bits in [40, 128] {
        for &e in Engine::ALL {
            let mut sets: Vec<&str> = e.param_sets().iter().map(|s| s.name).collect();
            if sets.is_empty() {
                sets.push("");
            }
            for set in sets {
                let sys = e.system(bits, set).unwrap();
                let bound = sys.max_proof_bytes(&ProofShape::of(&c));
                for _ in 0..4 {
                    let p = sys
                        .prove(&statement(&c, &out, b"ctx"), &w, &mut rng)
                        .unwrap();
                    let n = p.to_body().len();
                    assert!(n <= bound, "{e} {set} at {bits} bits: {n} > {bound}");
                }
            }
        }
    }
    let (key, pt) = ([7u8; 16], [9u8; 16]);
    assert!(crate::aes128::sbox_inputs_nonzero(&key, &pt));
    let full = crate::aes128::aes128_circuit(&pt);
    // the test engine has no AES-128 protocol id
    for e in Engine::ALL
        .iter()
        .copied()
        .filter(|&e| crate::aes128::PROTOCOLS.id(e).is_ok())
    {
        let sys = e.default_system(128).unwrap();
        let shape = if e.native_inverses() {
            ProofShape::of(&full)
        } else {
            ProofShape::of(&full.lowered())
        };
        let bound = sys.max_proof_bytes(&shape);
        let file = crate::aes128::prove_key(&key, &pt, &sys, b"ctx", &mut rng).unwrap();
        let n = file.len() - proof_file::HEADER_LEN;
        assert!(n <= bound, "{e}: {n} > {bound}");
        // not loose: ZKB++ sends party 2's 16-byte input share in 2/3 of its rounds (the
        // bound in all); KKW's revealed seeds and Merkle siblings are bounded per hidden path
        assert!(bound - n <= n / 10 + 219 * 17, "{e}: {n} ≪ {bound}");
    }
}

/// One honest session driven by hand: the sizes of the prover's commitments and responses
/// and the verifier's bounds for them ([`SessionVerifier::max_commitments`] after the Hello,
/// [`SessionVerifier::max_responses`] after the challenges are drawn, as `run_verifier`
/// reads them).
fn honest_sizes(sys: &System, st: &OwnedStatement, w: &[bool], seed: u64) -> [usize; 4] {
    let protocol = crate::bristol::proof::CIRCUIT_MPC;
    let rng = zkgames_core::rng::seeded_rng;
    let p = sys
        .session_prover(st.clone(), protocol, w.to_vec(), rng(seed))
        .unwrap();
    let mut v = sys.session_verifier(st.clone(), protocol, rng(seed + 1));
    v.check_hello(&p.hello()).unwrap();
    let max_c = v.max_commitments();
    let ch = v.draw_challenges();
    let max_r = v.max_responses();
    let (com, responder) = p.commit().unwrap();
    v.check_commitments(&com).unwrap();
    let resp = responder.respond(&ch).unwrap();
    v.verify(&resp).unwrap();
    // the frames themselves fit the bounds the session driver sets
    for (m, max) in [
        (zkgames_net::Msg::Commitments(com.clone()), max_c),
        (zkgames_net::Msg::Responses(resp.clone()), max_r),
    ] {
        assert!(zkgames_core::proof_file::encode(&m).len() <= zkgames_net::frame_bound(max));
    }
    [com.len(), max_c, resp.len(), max_r]
}

/// Every engine's session verifier bounds the prover's messages by the largest an honest
/// prover of the statement sends (what `run_verifier` holds every frame after the Hello
/// to): on a small circuit, SHA-256's compression function and AES-128 (inverted bytes and
/// norm bytes for VOLE-in-the-head, lowered for the others), at every offered set, every
/// honest message is within its bound, the commitments exactly at it (their size depends on
/// the statement and parameters alone), and the largest responses seen within 2× of it
/// (the bound is over every challenge; the seed trees' and Merkle openings' worst cases
/// are rarely drawn).
#[test]
fn every_engine_bounds_its_messages() {
    use crate::aes128;
    let mut rng = zkgames_core::rng::seeded_rng(11);
    let (key, pt) = loop {
        let (k, p) = (
            aes128::random_bytes(&mut rng),
            aes128::random_bytes(&mut rng),
        );
        if aes128::sbox_inputs_nonzero(&k, &p) {
            break (k, p);
        }
    };
    let aes = aes128::aes128_circuit(&pt);
    let aes_out = aes128::bytes_bits(&aes128::encrypt(&key, &pt));
    let sha = crate::sha256::compress_circuit();
    let sha_w: Vec<bool> = (0..768).map(|i| (i * 7 + i / 5) % 3 == 0).collect();
    let small = circuit();
    let small_w = vec![false, true, true];
    let owned = |c: Circuit, output: Vec<bool>| OwnedStatement {
        tag: b"zkg:test:engine-contract",
        circuit: c,
        public: Vec::new(),
        output,
        context: b"ctx".to_vec(),
    };
    for &e in Engine::ALL {
        let mut systems = vec![e.default_system(40).unwrap()];
        for s in e.param_sets() {
            systems.push(e.system(128, s.name).unwrap());
        }
        if e.param_sets().is_empty() {
            systems.push(e.default_system(128).unwrap());
        }
        let (aes_c, aes_y) = if e.native_inverses() {
            (aes.clone(), aes_out.clone())
        } else {
            (aes.lowered(), aes.lowered_output(&aes_out))
        };
        let statements = [
            (
                "small",
                owned(small.clone(), small.eval(&small_w)),
                small_w.clone(),
            ),
            (
                "sha256",
                owned(sha.clone(), sha.eval(&sha_w)),
                sha_w.clone(),
            ),
            ("aes128", owned(aes_c, aes_y), aes128::bytes_bits(&key)),
        ];
        for sys in &systems {
            for (name, st, w) in &statements {
                let trials = if *name == "small" { 6 } else { 2 };
                let (mut worst, mut bound) = (0, 0);
                for t in 0..trials {
                    let [c, max_c, r, max_r] = honest_sizes(sys, st, w, 100 + 2 * t);
                    assert_eq!(c, max_c, "{e} {sys:?} {name}: commitments");
                    assert!(r <= max_r, "{e} {sys:?} {name}: responses {r} > {max_r}");
                    worst = worst.max(r);
                    bound = max_r;
                }
                assert!(
                    2 * worst >= bound,
                    "{e} {sys:?} {name}: responses up to {worst} of {bound}"
                );
            }
        }
    }
}
