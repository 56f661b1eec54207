//! End-to-end tests of the ZKB++ engine through its public API: live sessions over TCP and
//! pipes, recorded transcripts, the simulator, uniformity of opened views, tampering of large
//! proofs, and hostile input.

use rand::{Rng as _, RngCore};
use sha2::Digest as _;
use zkgames::mpc::engine::Engine;
use zkgames::mpc::engine::{Required, System};
use zkgames::mpc::zkbpp::session::{simulate, CommitMsg};

/// Replays a ZKB++ session under the usual cap on rounds.
fn replay(
    st: zkgames::mpc::statement::OwnedStatement,
    protocol: ProtocolId,
    rounds: usize,
    rec: &SessionRecord,
) -> zkgames::Result<usize> {
    let max = zkgames::mpc::offered::max_zkbpp_rounds(rounds);
    zkgames::mpc::zkbpp::session::replay(st, protocol, rounds, max, rec)
}
use zkgames::mpc::zkbpp::{unpack_trits, Proof};
use zkgames::net::{run_prover, run_verifier, Channel, SessionRecord};
use zkgames::peg::instance::{tee, tee_solution, Instance, Matrix};
use zkgames::peg::mpc::statement_for_tests;

/// A ZKB++ SHA-256 proof file's body as docs/PROTOCOLS.md lays it out: the message length,
/// then the proof (written here from the spec, to tamper with fields).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
struct Sha256Body {
    len: u32,
    proof: Proof,
}

fn session_file(rec: &SessionRecord) -> Vec<u8> {
    zkgames::peg::mpc::session_file(Engine::Zkbpp, rec).unwrap()
}
use zkgames::proof_file::{decode, encode, Mode, ProofFile, ProtocolId, HEADER_LEN};
use zkgames::rng::seeded_rng;

/// Runs a session: the verifier in a thread on one channel, the prover on the other.
fn session(
    inst: &Instance,
    z: &Matrix,
    rounds: usize,
    min_rounds: usize,
    ctx_p: &[u8],
    ctx_v: &[u8],
    tcp: bool,
) -> (
    zkgames::Result<SessionRecord>,
    zkgames::Result<SessionRecord>,
) {
    let (mut cp, mut cv) = if tcp {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let a = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (b, _) = l.accept().unwrap();
        (
            Channel::tcp(a, Default::default()),
            Channel::tcp(b, Default::default()),
        )
    } else {
        let (r1, w1) = std::io::pipe().unwrap();
        let (r2, w2) = std::io::pipe().unwrap();
        (
            Channel::new(Box::new(r1), Box::new(w2)),
            Channel::new(Box::new(r2), Box::new(w1)),
        )
    };
    let inst_v = inst.clone();
    let ctx_v = ctx_v.to_vec();
    let h = std::thread::spawn(move || {
        let mut v = zkgames::peg::mpc::session_verifier(
            &inst_v,
            &System::Zkbpp(min_rounds),
            &ctx_v,
            seeded_rng(77),
        )
        .unwrap();
        let r = run_verifier(&mut cv, v.as_mut());
        drop(cv);
        r
    });
    let p =
        zkgames::peg::mpc::session_prover(inst, z, &System::Zkbpp(rounds), ctx_p, seeded_rng(78))
            .unwrap();
    let rp = run_prover(&mut cp, p);
    drop(cp);
    (rp, h.join().unwrap())
}

#[test]
fn live_sessions_over_tcp_and_pipes_and_their_records() {
    let (inst, z) = zkgames::peg::catalog::solved("english").unwrap();
    for tcp in [true, false] {
        let (rp, rv) = session(&inst, &z, 219, 219, b"game 7", b"game 7", tcp);
        let rec = rv.unwrap();
        assert_eq!(rp.unwrap(), rec);
        let bytes = session_file(&rec);
        let f = ProofFile::from_bytes(&bytes).unwrap();
        assert_eq!(f.mode, Mode::Interactive);
        let rep = zkgames::peg::mpc::verify(&inst, &f, &Required::rounds(219), b"game 7").unwrap();
        assert_eq!((rep.rounds, rep.mode), (219, Mode::Interactive));
        assert!(zkgames::peg::mpc::verify(&inst, &f, &Required::rounds(219), b"game 8").is_err());
        // tampered responses name a round
        let mut bad = rec.clone();
        let n = bad.responses.len();
        bad.responses[n - 5] ^= 1;
        let e = replay(
            statement_for_tests(&inst, b"game 7").unwrap(),
            zkgames::peg::mpc::PEG_MPC,
            219,
            &bad,
        )
        .unwrap_err();
        assert!(e.to_string().contains("round 219"), "{e}");
    }
    // the verifier refuses too few rounds or another context at the Hello
    let inst = tee();
    let z = tee_solution();
    let (rp, rv) = session(&inst, &z, 10, 20, b"", b"", true);
    assert!(rp.is_err() && rv.is_err());
    let (rp, rv) = session(&inst, &z, 30, 20, b"a", b"b", false);
    assert!(rp.is_err() && rv.is_err());
}

/// A committed prover answers one challenge vector (the responder is consumed), refuses
/// malformed ones, and never repeats its commitments, even from the same seed.
#[test]
fn a_prover_answers_once_and_never_repeats_commitments() {
    let mk = || {
        zkgames::peg::mpc::session_prover(
            &tee(),
            &tee_solution(),
            &System::Zkbpp(8),
            b"",
            seeded_rng(1),
        )
        .unwrap()
    };
    let (c1, r) = mk().commit().unwrap();
    assert!(r.respond(&[0, 0, 0]).is_err(), "wrong challenge length");
    let (c2, r) = mk().commit().unwrap();
    assert_ne!(c1, c2, "same seed, yet fresh commitments");
    r.respond(&[0, 0]).unwrap();
    // a wrong solution cannot even start a session
    let mut z = tee_solution();
    z[1][0] ^= true;
    assert!(
        zkgames::peg::mpc::session_prover(&tee(), &z, &System::Zkbpp(8), b"", seeded_rng(1))
            .is_err()
    );
}

#[test]
fn simulated_transcripts_verify_without_the_witness() {
    let inst = zkgames::peg::catalog::get("english")
        .unwrap()
        .instance()
        .clone();
    let st = statement_for_tests(&inst, b"sim").unwrap();
    let mut rng = seeded_rng(5);
    for rounds in [1, 7, 64, 219] {
        let ch: Vec<u8> = (0..rounds).map(|_| rng.gen_range(0..3)).collect();
        let rec = simulate(&st.as_ref(), zkgames::peg::mpc::PEG_MPC, &ch, &mut rng);
        assert_eq!(
            replay(st.clone(), zkgames::peg::mpc::PEG_MPC, rounds, &rec).unwrap(),
            rounds
        );
        let f = ProofFile::from_bytes(&session_file(&rec)).unwrap();
        zkgames::peg::mpc::verify(&inst, &f, &Required::rounds(rounds), b"sim").unwrap();
        // with other challenges the same commitments fail (the simulator needs them first)
        let mut other = rec.clone();
        let flipped: Vec<u8> = ch.iter().map(|&e| (e + 1) % 3).collect();
        other.challenges = zkgames::mpc::zkbpp::pack_trits(&flipped);
        other.challenge_commitment = zkgames::net::challenge_commitment(
            &other.hello,
            &other.challenges,
            &other.challenge_key,
        );
        assert!(replay(st.clone(), zkgames::peg::mpc::PEG_MPC, rounds, &other).is_err());
    }
}

/// Opened views and input shares of honest proofs are uniform bits, position by position.
#[test]
fn opened_bits_are_uniform() {
    let pre = vec![0u8; 40]; // a very non-random witness
    let mut rng = seeded_rng(6);
    let bytes = zkgames::mpc::sha256::prove(&pre, &System::Zkbpp(219), b"", &mut rng).unwrap();
    let f = ProofFile::from_bytes(&bytes).unwrap();
    let body: Sha256Body = decode(&f.body, "b").unwrap();
    let p = body.proof;
    let nbits = 8 * p.rounds[0].opening.view.len();
    let mut per_pos = vec![0u32; nbits];
    let mut ones = 0u64;
    let mut total = 0u64;
    let (mut x2_ones, mut x2_total) = (0u64, 0u64);
    for r in &p.rounds {
        for (i, c) in per_pos.iter_mut().enumerate() {
            *c += (r.opening.view[i / 8] >> (i % 8) & 1) as u32;
        }
        for &b in &r.opening.view {
            ones += b.count_ones() as u64;
            total += 8;
        }
        for &b in &r.opening.x2 {
            x2_ones += b.count_ones() as u64;
            x2_total += 8;
        }
    }
    let frac = ones as f64 / total as f64;
    let sigma = (0.25 / total as f64).sqrt();
    assert!(
        (frac - 0.5).abs() < 5.0 * sigma + 1e-3,
        "view ones fraction {frac}"
    );
    let xf = x2_ones as f64 / x2_total as f64;
    assert!(
        (xf - 0.5).abs() < 0.05,
        "x2 ones fraction {xf} over {x2_total} bits"
    );
    // per position over 219 rounds: binomial(219, 1/2), σ ≈ 7.4; |dev| > 4.5σ has
    // probability ≈ 7e-6, so among ~21k positions (minus padding) at most a handful
    let r = p.rounds.len() as f64;
    let sd = (r / 4.0).sqrt();
    let n_and = nbits - 8; // the last byte may hold padding bits (always 0)
    let extreme = per_pos[..n_and]
        .iter()
        .filter(|&&c| (c as f64 - r / 2.0).abs() > 4.5 * sd)
        .count();
    assert!(extreme <= 3, "{extreme} positions far from uniform");
}

#[test]
fn large_proof_tampering_is_rejected() {
    let pre = b"zero knowledge";
    let digest: [u8; 32] = sha2::Sha256::digest(pre).into();
    let mut rng = seeded_rng(7);
    let bytes = zkgames::mpc::sha256::prove(pre, &System::Zkbpp(219), b"ctx", &mut rng).unwrap();
    let f = ProofFile::from_bytes(&bytes).unwrap();
    zkgames::mpc::sha256::verify(&digest, &f, &Required::rounds(219), b"ctx").unwrap();
    let mut positions: Vec<usize> = (0..HEADER_LEN + 80).collect();
    positions.extend((0..300).map(|_| rng.gen_range(0..bytes.len())));
    positions.push(bytes.len() - 1);
    for i in positions {
        let mut t = bytes.clone();
        t[i] ^= 1 << rng.gen_range(0..8);
        let r = ProofFile::from_bytes(&t).and_then(|f| {
            zkgames::mpc::sha256::verify(&digest, &f, &Required::rounds(219), b"ctx")
        });
        assert!(r.is_err(), "flip at byte {i} accepted");
    }
    // wrong digest, context, round requirement
    let mut d2 = digest;
    d2[0] ^= 1;
    assert!(zkgames::mpc::sha256::verify(&d2, &f, &Required::rounds(219), b"ctx").is_err());
    assert!(zkgames::mpc::sha256::verify(&digest, &f, &Required::rounds(219), b"ctX").is_err());
    assert!(zkgames::mpc::sha256::verify(&digest, &f, &Required::rounds(220), b"ctx").is_err());
    // a proof for another message length (another circuit) under the same digest
    let body: Sha256Body = decode(&f.body, "b").unwrap();
    let other = Sha256Body {
        len: body.len + 1,
        proof: body.proof.clone(),
    };
    let f2 = ProofFile::new(
        zkgames::mpc::sha256::SHA256_MPC,
        Mode::NonInteractive,
        encode(&other),
    );
    assert!(zkgames::mpc::sha256::verify(&digest, &f2, &Required::rounds(219), b"ctx").is_err());
    // fewer rounds: drop the last round and its challenge
    let mut p: Proof = body.proof.clone();
    p.rounds.pop();
    let t = unpack_trits(&body.proof.challenges, 219).unwrap();
    p.challenges = zkgames::mpc::zkbpp::pack_trits(&t[..218]);
    let f3 = ProofFile::new(
        zkgames::mpc::sha256::SHA256_MPC,
        Mode::NonInteractive,
        encode(&Sha256Body {
            len: body.len,
            proof: p,
        }),
    );
    assert!(zkgames::mpc::sha256::verify(&digest, &f3, &Required::rounds(218), b"ctx").is_err());
    assert!(zkgames::mpc::sha256::verify(&digest, &f3, &Required::rounds(219), b"ctx").is_err());
    // a peg proof file is not a SHA-256 proof
    let f4 = ProofFile::new(
        zkgames::peg::mpc::PEG_MPC,
        Mode::NonInteractive,
        f.body.clone(),
    );
    assert!(zkgames::mpc::sha256::verify(&digest, &f4, &Required::rounds(219), b"ctx").is_err());
}

#[test]
fn hostile_bodies_never_panic() {
    let inst = tee();
    let digest = [0u8; 32];
    let mut rng = seeded_rng(8);
    let good = {
        let b = zkgames::peg::mpc::prove(&inst, &tee_solution(), &System::Zkbpp(8), b"", &mut rng)
            .unwrap();
        ProofFile::from_bytes(&b).unwrap().body
    };
    for it in 0..400 {
        let body: Vec<u8> = match it % 4 {
            0 => (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect(),
            1 => good[..rng.gen_range(0..good.len())].to_vec(),
            2 => {
                let mut b = good.clone();
                for _ in 0..rng.gen_range(1..6) {
                    let i = rng.gen_range(0..b.len());
                    b[i] = rng.gen();
                }
                b
            }
            _ => {
                // plausible structure, absurd lengths
                let mut b = vec![0u8; 32];
                rng.fill_bytes(&mut b);
                b.extend_from_slice(&[0xfd, 0xff, 0xff, 0xff, 0x7f]);
                b
            }
        };
        for mode in [Mode::NonInteractive, Mode::Interactive] {
            let f = ProofFile::new(zkgames::peg::mpc::PEG_MPC, mode, body.clone());
            assert!(zkgames::peg::mpc::verify(&inst, &f, &Required::rounds(8), b"").is_err());
            let _ = zkgames::peg::mpc::inspect(&f);
            let f = ProofFile::new(zkgames::mpc::sha256::SHA256_MPC, mode, body.clone());
            assert!(zkgames::mpc::sha256::verify(&digest, &f, &Required::rounds(8), b"").is_err());
            let _ = zkgames::mpc::sha256::inspect(&f);
        }
    }
    // a commitment message for the wrong number of rounds, or garbage, is refused by the
    // session verifier before it draws challenges
    let st = statement_for_tests(&inst, b"").unwrap();
    let hello = zkgames::net::Hello {
        protocol: zkgames::peg::mpc::PEG_MPC.0,
        version: zkgames::net::SESSION_VERSION,
        statement: st.as_ref().digest(),
        rounds: 5,
        context: vec![],
    };
    let mut v =
        zkgames::peg::mpc::session_verifier(&inst, &System::Zkbpp(5), b"", seeded_rng(9)).unwrap();
    v.check_hello(&hello).unwrap();
    let m = CommitMsg {
        salt: [0; 32],
        commitments: vec![[[0; 32]; 3]; 4],
        outputs: vec![Default::default(); 4],
    };
    assert!(v.check_commitments(&encode(&m)).is_err());
    assert!(v.check_commitments(&[0xff; 9]).is_err());
    let mut hello2 = hello.clone();
    hello2.rounds = 1_000_000;
    assert!(v.check_hello(&hello2).is_err());
}

// ---------------------------------------------------------------------------------------
// both engines through `mpc::engine`

/// A session over pipes through the engine interface: prover with `sp`, verifier fixing `sv`.
fn session_with(
    inst: &Instance,
    z: &Matrix,
    sp: &zkgames::mpc::engine::System,
    sv: &zkgames::mpc::engine::System,
    ctx: &[u8],
) -> (
    zkgames::Result<SessionRecord>,
    zkgames::Result<SessionRecord>,
) {
    use zkgames::peg::mpc::{session_prover, session_verifier};
    let (r1, w1) = std::io::pipe().unwrap();
    let (r2, w2) = std::io::pipe().unwrap();
    let mut cp = Channel::new(Box::new(r1), Box::new(w2));
    let mut cv = Channel::new(Box::new(r2), Box::new(w1));
    let (inst_v, ctx_v, sv) = (inst.clone(), ctx.to_vec(), *sv);
    let h = std::thread::spawn(move || {
        let mut v = session_verifier(&inst_v, &sv, &ctx_v, seeded_rng(7)).unwrap();
        let r = run_verifier(&mut cv, v.as_mut());
        drop(cv);
        r
    });
    let p = session_prover(inst, z, sp, ctx, seeded_rng(8)).unwrap();
    let rp = run_prover(&mut cp, p);
    drop(cp);
    (rp, h.join().unwrap())
}

/// Both engines: honest sessions are accepted and their records replay; the verifier's
/// system and parameters are the only ones accepted; KKW records replay under the offered
/// set, not under another context; a flipped response byte is rejected; the KKW simulator's
/// transcripts (no witness) replay for the challenges they were made for.
#[test]
fn sessions_of_both_engines_through_the_engine_interface() {
    use zkgames::mpc::engine::System;
    use zkgames::mpc::kkw::Kkw;
    use zkgames::mpc::kkw::{Challenge, Params, Profile};
    use zkgames::mpc::session as kkw_session;
    let (inst, z) = (tee(), tee_solution());
    let zk = System::Zkbpp(40);
    let small = System::Kkw(Params::new(24, 8, 8));
    let size = System::kkw(128, Profile::Size).unwrap();
    let speed = System::kkw(128, Profile::Speed).unwrap();
    for sys in [zk, small, size, speed] {
        let (rp, rv) = session_with(&inst, &z, &sys, &sys, b"ctx");
        let rec = rv.unwrap();
        assert_eq!(rp.unwrap(), rec);
    }
    for (p, v) in [(zk, size), (size, zk), (speed, size), (small, size)] {
        let (rp, rv) = session_with(&inst, &z, &p, &v, b"ctx");
        assert!(
            rp.is_err() && rv.is_err(),
            "{p} offered to a verifier of {v}"
        );
    }
    // KKW records
    let (_, rv) = session_with(&inst, &z, &size, &size, b"ctx");
    let rec = rv.unwrap();
    let st = || statement_for_tests(&inst, b"ctx").unwrap();
    let bytes = zkgames::mpc::session::record_file(zkgames::peg::mpc::PEG_KKW, &rec);
    let f = ProofFile::from_bytes(&bytes).unwrap();
    let rep = zkgames::peg::mpc::verify(&inst, &f, &Required::bits(128), b"ctx").unwrap();
    assert_eq!(rep.mode, Mode::Interactive);
    assert!(zkgames::peg::mpc::verify(&inst, &f, &Required::bits(128), b"ctX").is_err());
    let Some(System::Kkw(p)) = Some(size) else {
        unreachable!()
    };
    kkw_session::replay::<Kkw>(st(), zkgames::peg::mpc::PEG_KKW, p, &rec).unwrap();
    let mut rng = seeded_rng(9);
    for _ in 0..40 {
        let mut bad = rec.clone();
        let i = rng.gen_range(0..bad.responses.len());
        bad.responses[i] ^= 1 << rng.gen_range(0..8);
        assert!(kkw_session::replay::<Kkw>(st(), zkgames::peg::mpc::PEG_KKW, p, &bad).is_err());
        let mut bad = rec.clone();
        let i = rng.gen_range(0..bad.commitments.len());
        bad.commitments[i] ^= 1 << rng.gen_range(0..8);
        assert!(kkw_session::replay::<Kkw>(st(), zkgames::peg::mpc::PEG_KKW, p, &bad).is_err());
    }
    // simulated transcripts, for random challenges fixed in advance
    for s in 0..5 {
        let mut rng = seeded_rng(100 + s);
        let ch = Challenge::random(&p, &mut rng);
        let sim = kkw_session::simulate::<Kkw>(
            &statement_for_tests(&inst, b"ctx").unwrap().as_ref(),
            zkgames::peg::mpc::PEG_KKW,
            p,
            &ch,
            &mut rng,
        )
        .unwrap();
        kkw_session::replay::<Kkw>(st(), zkgames::peg::mpc::PEG_KKW, p, &sim).unwrap();
    }
}
