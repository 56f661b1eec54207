//! Protocol 1 end to end at the library level: completeness, tampering, soundness rate,
//! the simulator (Claim 19), the extractor (Claim 18), interactive sessions.

use crate::common;

use common::{english, one_illegal_step, tee_solution};
use rand::Rng;
use zkgames::peg::fs::{self, decode_proof};
use zkgames::peg::instance::{tee, Goal, Instance};
use zkgames::peg::protocol::{commit_round, respond, rounds_for_bits, verify_round, Opening};
use zkgames::peg::session::{verify_record, PegProver, PegVerifier};
use zkgames::peg::simulate::{extract, simulate_round, simulate_session};
use zkgames::proof_file::ProofFile;
use zkgames::rng::seeded_rng;
use zkgames::Error;

fn english_solution() -> Vec<Vec<bool>> {
    let inst = english();
    let z = common::dfs_solve(&inst).expect("the English central game is solvable");
    inst.check_solution(&z).unwrap();
    z
}

#[test]
fn english_instance_shape() {
    let e = english();
    assert_eq!((e.n(), e.t(), e.s()), (33, 38, 32));
    assert_eq!(rounds_for_bits(128, e.s()), 2795);
}

/// Flip every byte of a whole proof file (two masks): each must be rejected.
#[test]
fn every_flipped_byte_is_rejected() {
    let inst = tee();
    let mut rng = seeded_rng(11);
    let rounds = rounds_for_bits(12, inst.s());
    let bytes = fs::prove_file(&inst, &tee_solution(), rounds, b"ctx", &mut rng).unwrap();
    let check = |b: &[u8]| -> Result<(), Error> {
        let f = ProofFile::from_bytes(b)?;
        let p = decode_proof(&f)?;
        fs::verify(&inst, &p, 12, b"ctx").map(|_| ())
    };
    check(&bytes).unwrap();
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0xFF] {
            let mut t = bytes.clone();
            t[i] ^= mask;
            assert!(
                check(&t).is_err(),
                "flipping byte {i} with {mask:#x} was accepted"
            );
        }
    }
    for cut in 0..bytes.len() {
        assert!(check(&bytes[..cut]).is_err());
    }
}

/// A prover whose sequence has exactly one illegal step is caught with probability 1/S per
/// round: measured acceptance ≈ (S − 1)/S.
#[test]
fn cheating_prover_caught_at_predicted_rate() {
    let inst = english();
    let mut rng = seeded_rng(5);
    let z = one_illegal_step(&inst, &mut rng);
    assert!(inst.check_solution(&z).is_err());
    let n = 20_000;
    let s = inst.s();
    let mut accepted = 0;
    for _ in 0..n {
        let sec = commit_round(&inst, &z, &mut rng);
        let sigma = rng.gen_range(1..=s);
        let r = respond(&inst, &sec, sigma);
        if verify_round(&inst, sigma, &r) == Ok(sec.root) {
            accepted += 1;
        }
    }
    let p = (s - 1) as f64 / s as f64;
    let rate = accepted as f64 / n as f64;
    let sd = (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (rate - p).abs() < 5.0 * sd,
        "acceptance {rate}, expected {p} ± {}",
        5.0 * sd
    );
    // the honest prover API refuses an invalid solution outright
    assert!(matches!(
        fs::prove(&inst, &z, 2795, b"", &mut rng),
        Err(Error::BadInput(_))
    ));
}

#[test]
fn forged_fiat_shamir_proof_from_invalid_sequence_is_rejected() {
    // Build a proof by hand from a cheating sequence, answering the FS challenges.
    let inst = english();
    let mut rng = seeded_rng(8);
    let z = one_illegal_step(&inst, &mut rng);
    let rounds = 400; // ≈ 18 bits: the forgery succeeds with probability (31/32)^400 ≈ 3e-6
    let secrets: Vec<_> = (0..rounds)
        .map(|_| commit_round(&inst, &z, &mut rng))
        .collect();
    let roots: Vec<_> = secrets.iter().map(|s| s.root).collect();
    let sig = fs::challenges(&inst, b"", &roots);
    let responses = secrets
        .iter()
        .zip(&sig)
        .map(|(s, &g)| respond(&inst, s, g))
        .collect();
    let p = fs::PegIsoProof {
        instance_digest: inst.digest(),
        context: vec![],
        responses,
    };
    match fs::verify(&inst, &p, 18, b"") {
        Err(Error::Rejected(m)) => assert!(m.contains("round"), "{m}"),
        other => panic!("forged proof not rejected: {other:?}"),
    }
}

#[test]
fn simulated_rounds_verify_for_their_challenge() {
    for inst in [tee(), english()] {
        let mut rng = seeded_rng(21);
        for sigma in 1..=inst.s() {
            for _ in 0..20 {
                let (root, r) = simulate_round(&inst, sigma, &mut rng).unwrap();
                assert_eq!(verify_round(&inst, sigma, &r), Ok(root), "σ = {sigma}");
            }
        }
        // a simulated interactive session is accepted: transcripts are not evidence
        let sig: Vec<u32> = (0..300)
            .map(|_| rng.gen_range(1..=inst.s() as u32))
            .collect();
        let rec = simulate_session(&inst, &sig, b"nonce", &mut rng).unwrap();
        assert_eq!(verify_record(&inst, &rec, 1, b"nonce").unwrap(), 300);
    }
}

/// Two-sample chi-square statistic over category counts.
fn chi2(a: &[u64], b: &[u64]) -> (f64, usize) {
    let (na, nb) = (a.iter().sum::<u64>() as f64, b.iter().sum::<u64>() as f64);
    let mut stat = 0.0;
    let mut df = 0;
    for (&x, &y) in a.iter().zip(b) {
        if x + y == 0 {
            continue;
        }
        df += 1;
        let (x, y) = (x as f64, y as f64);
        let t = x + y;
        let (ea, eb) = (t * na / (na + nb), t * nb / (na + nb));
        stat += (x - ea).powi(2) / ea + (y - eb).powi(2) / eb;
    }
    (stat, df.max(2) - 1)
}

/// Loose bound: the statistic exceeds df + 6·sqrt(2·df) with negligible probability.
fn indistinguishable(a: &[u64], b: &[u64]) -> bool {
    let (s, df) = chi2(a, b);
    s < df as f64 + 6.0 * (2.0 * df as f64).sqrt()
}

struct Revealed {
    gamma: Vec<u64>,
    first_vertex: Vec<u64>,
    middle_vertex: Vec<u64>,
    orientation: Vec<u64>,
    ones_at: Vec<u64>,
    peg_counts: std::collections::BTreeSet<usize>,
}

fn collect(
    inst: &Instance,
    sigma: usize,
    rounds: &[zkgames::peg::protocol::RoundResponse],
) -> Revealed {
    let n = inst.n();
    let mut r = Revealed {
        gamma: vec![0; inst.t()],
        first_vertex: vec![0; n],
        middle_vertex: vec![0; n],
        orientation: vec![0; 2],
        ones_at: vec![0; n],
        peg_counts: Default::default(),
    };
    for resp in rounds {
        assert_eq!(resp.sigma as usize, sigma);
        let Opening::Move {
            gamma,
            triplet,
            before,
            ..
        } = &resp.opening
        else {
            panic!("σ < S")
        };
        let bits = zkgames::peg::instance::unpack_bits(&before.bits, n).unwrap();
        r.gamma[*gamma as usize] += 1;
        r.first_vertex[triplet[0] as usize] += 1;
        r.middle_vertex[triplet[1] as usize] += 1;
        r.orientation[bits[triplet[0] as usize] as usize] += 1;
        for (k, &b) in bits.iter().enumerate() {
            if b && !triplet.contains(&(k as u32)) {
                r.ones_at[k] += 1;
            }
        }
        r.peg_counts.insert(bits.iter().filter(|&&b| b).count());
    }
    r
}

/// Claim 19, statistically: what a σ < S response reveals (γ, the triplet's vertices, the
/// orientation, where the other pegs are, the peg count) has the same distribution in real
/// and simulated transcripts. A negative control (no vertex shuffling) must be caught.
#[test]
fn real_and_simulated_openings_are_indistinguishable() {
    let inst = english();
    let z = english_solution();
    let mut rng = seeded_rng(99);
    let sigma = 9;
    let n = 4000;
    let real: Vec<_> = (0..n)
        .map(|_| respond(&inst, &commit_round(&inst, &z, &mut rng), sigma))
        .collect();
    let sim: Vec<_> = (0..n)
        .map(|_| simulate_round(&inst, sigma, &mut rng).unwrap().1)
        .collect();
    let (a, b) = (collect(&inst, sigma, &real), collect(&inst, sigma, &sim));
    assert_eq!(a.peg_counts, b.peg_counts);
    assert_eq!(a.peg_counts.len(), 1);
    assert!(indistinguishable(&a.gamma, &b.gamma), "γ");
    assert!(
        indistinguishable(&a.first_vertex, &b.first_vertex),
        "t'_γ,1"
    );
    assert!(
        indistinguishable(&a.middle_vertex, &b.middle_vertex),
        "t'_γ,2"
    );
    assert!(
        indistinguishable(&a.orientation, &b.orientation),
        "orientation"
    );
    assert!(indistinguishable(&a.ones_at, &b.ones_at), "other pegs");

    // Negative control: a leaky prover that skips ϕ and χ (identity) reveals the real move.
    let leaky: Vec<_> = (0..n)
        .map(|_| {
            let iso = zkgames::peg::iso::Iso::identity(inst.n(), inst.t());
            let sec = zkgames::peg::protocol::commit_values(
                iso.clone(),
                iso.map_triplets(inst.triplets()),
                iso.map_solution(&z),
                &mut rng,
            );
            respond(&inst, &sec, sigma)
        })
        .collect();
    let c = collect(&inst, sigma, &leaky);
    assert!(
        !indistinguishable(&c.gamma, &b.gamma),
        "the test must detect a leaky prover"
    );
}

/// Claim 18: responses to all S challenges on one commitment yield the solution.
#[test]
fn extractor_recovers_the_solution() {
    let inst = english();
    let z = english_solution();
    let mut rng = seeded_rng(3);
    for _ in 0..5 {
        let sec = commit_round(&inst, &z, &mut rng);
        let all: Vec<_> = (1..=inst.s()).map(|g| respond(&inst, &sec, g)).collect();
        assert_eq!(extract(&inst, &sec.root, &all).unwrap(), z);
        // one challenge short: no extraction
        assert!(extract(&inst, &sec.root, &all[1..]).is_err());
        // responses from another commitment: refused
        let other = commit_round(&inst, &z, &mut rng);
        let mut mixed = all.clone();
        mixed[0] = respond(&inst, &other, 1);
        assert!(extract(&inst, &sec.root, &mixed).is_err());
    }
    // tee: the extracted matrix is exactly Example 7
    let t = tee();
    let sec = commit_round(&t, &tee_solution(), &mut rng);
    let all: Vec<_> = (1..=4).map(|g| respond(&t, &sec, g)).collect();
    assert_eq!(extract(&t, &sec.root, &all).unwrap(), tee_solution());
}

#[test]
fn peg_count_variant_proves_and_hides_the_final_position() {
    let e = english();
    let z = english_solution();
    let variant = Instance::new(
        e.n(),
        e.triplets().to_vec(),
        e.first().to_vec(),
        Goal::PegCount(1),
    )
    .unwrap();
    assert_eq!(variant.s(), e.s());
    let mut rng = seeded_rng(4);
    let p = fs::prove(&variant, &z, 300, b"", &mut rng).unwrap();
    fs::verify(&variant, &p, 13, b"").unwrap();
    for r in &p.responses {
        if let Opening::Iso { last, .. } = &r.opening {
            assert!(last.is_none(), "the final row must stay hidden");
        }
    }
    // the fixed-goal proof does not verify for the variant and vice versa
    let q = fs::prove(&e, &z, 300, b"", &mut rng).unwrap();
    assert!(fs::verify(&variant, &q, 13, b"").is_err());
    assert!(fs::verify(&e, &p, 13, b"").is_err());
}

#[test]
fn interactive_session_over_a_socket_pair() {
    use std::os::unix::net::UnixStream;
    use zkgames::net::{run_prover, run_verifier, Channel};
    let inst = english();
    let z = english_solution();
    let (a, b) = UnixStream::pair().unwrap();
    let inst2 = inst.clone();
    let v = std::thread::spawn(move || {
        let mut ch = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        let mut ver = PegVerifier::new(&inst2, 64, b"login", seeded_rng(1));
        run_verifier(&mut ch, &mut ver)
    });
    let mut ch = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
    let rounds = rounds_for_bits(64, inst.s());
    let p = PegProver::new(&inst, &z, rounds, b"login", seeded_rng(2)).unwrap();
    let rec = run_prover(&mut ch, Box::new(p)).unwrap();
    let vrec = v.join().unwrap().unwrap();
    assert_eq!(rec, vrec);
    assert_eq!(verify_record(&inst, &rec, 64, b"login").unwrap(), rounds);
    // a transcript with one altered response byte no longer checks
    let mut bad = rec.clone();
    let k = bad.responses.len() / 2;
    bad.responses[k] ^= 1;
    assert!(verify_record(&inst, &bad, 64, b"login").is_err());
}

#[test]
fn interactive_verifier_rejects_too_few_rounds_and_cheaters() {
    use std::os::unix::net::UnixStream;
    use zkgames::net::{run_prover, run_verifier, Channel, Hello, Responder, SessionProver};
    let inst = english();
    // too few rounds: refused at hello
    let (a, b) = UnixStream::pair().unwrap();
    let i2 = inst.clone();
    let v = std::thread::spawn(move || {
        let mut ch = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        run_verifier(&mut ch, &mut PegVerifier::new(&i2, 128, b"", seeded_rng(1)))
    });
    let z = english_solution();
    let mut ch = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
    let p = PegProver::new(&inst, &z, 100, b"", seeded_rng(2)).unwrap();
    assert!(matches!(
        run_prover(&mut ch, Box::new(p)),
        Err(Error::Rejected(_))
    ));
    assert!(v.join().unwrap().is_err());

    // a cheater with one illegal step, 700 rounds (≈ 32 bits): caught
    struct Cheat {
        inst: Instance,
        z: Vec<Vec<bool>>,
    }
    struct CheatResponder {
        inst: Instance,
        secrets: Vec<zkgames::peg::protocol::RoundSecret>,
    }
    impl SessionProver<'static> for Cheat {
        fn hello(&self) -> Hello {
            Hello {
                protocol: 1,
                version: zkgames::net::SESSION_VERSION,
                statement: self.inst.digest(),
                rounds: 700,
                context: vec![],
            }
        }
        fn commit(self: Box<Self>) -> zkgames::Result<(Vec<u8>, Box<dyn Responder>)> {
            let mut rng = seeded_rng(9);
            let secrets: Vec<_> = (0..700)
                .map(|_| commit_round(&self.inst, &self.z, &mut rng))
                .collect();
            let roots: Vec<_> = secrets.iter().map(|s| s.root).collect();
            Ok((
                zkgames::proof_file::encode(&roots),
                Box::new(CheatResponder {
                    inst: self.inst,
                    secrets,
                }),
            ))
        }
    }
    impl Responder for CheatResponder {
        fn respond(self: Box<Self>, ch: &[u8]) -> zkgames::Result<Vec<u8>> {
            let sig: Vec<u32> = zkgames::proof_file::decode(ch, "c")?;
            let r: Vec<_> = self
                .secrets
                .iter()
                .zip(sig)
                .map(|(s, g)| respond(&self.inst, s, g as usize))
                .collect();
            Ok(zkgames::proof_file::encode(&r))
        }
    }
    let (a, b) = UnixStream::pair().unwrap();
    let i2 = inst.clone();
    let v = std::thread::spawn(move || {
        let mut ch = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        run_verifier(&mut ch, &mut PegVerifier::new(&i2, 32, b"", seeded_rng(77)))
    });
    let mut ch = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
    let c = Cheat {
        inst: inst.clone(),
        z: one_illegal_step(&inst, &mut seeded_rng(3)),
    };
    assert!(matches!(
        run_prover(&mut ch, Box::new(c)),
        Err(Error::Rejected(_))
    ));
    assert!(matches!(v.join().unwrap(), Err(Error::Rejected(_))));
}
