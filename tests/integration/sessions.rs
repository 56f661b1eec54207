//! Live sessions against malicious verifiers: the challenge commitment keeps them from
//! turning a session into transferable evidence, and a prover answers one challenge vector
//! that opens the commitment, or nothing.

use crate::common;

use std::os::unix::net::UnixStream;

use common::tee_solution;
use zkgames::commit::Digest;
use zkgames::net::{challenge_commitment, run_prover, Channel, Hello, Msg, SessionRecord};
use zkgames::peg::fs::{self, PegIsoProof};
use zkgames::peg::instance::{tee, Instance};
use zkgames::peg::protocol::{rounds_for_bits, RoundResponse};
use zkgames::peg::session::{verify_record, PegProver};
use zkgames::proof_file::{decode, encode};
use zkgames::rng::{random_32, seeded_rng};

/// How the malicious verifier opens its challenge commitment after seeing the roots.
#[derive(Clone, Copy, Debug)]
enum Open {
    /// Honestly: the challenges it committed to.
    Committed,
    /// The Fiat–Shamir challenges of the roots it received (with its real key).
    FiatShamir,
    /// The committed challenges under another key.
    WrongKey,
}

/// What the malicious verifier got: the Hello, the roots, the challenges it sent and the
/// responses (none when the prover refused).
type Seen = Option<(Hello, Vec<Digest>, Vec<u32>, Vec<u8>)>;

/// Runs an honest prover against a verifier that commits to random challenges, then opens
/// as `how` says. Returns what the prover returned and the messages the verifier received
/// after sending its challenges.
fn against(how: Open) -> (zkgames::Result<SessionRecord>, Seen) {
    let inst = tee();
    let (a, b) = UnixStream::pair().unwrap();
    let i2 = inst.clone();
    let v = std::thread::spawn(move || {
        let mut ch = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        let Msg::Hello(h) = ch.recv::<Msg>("hello").unwrap() else {
            panic!("expected Hello")
        };
        let mut rng = seeded_rng(5);
        let sigmas: Vec<u32> = (0..h.rounds)
            .map(|_| rand::Rng::gen_range(&mut rng, 1..=i2.s() as u32))
            .collect();
        let (c, key) = (encode(&sigmas), random_32(&mut rng));
        ch.send(&Msg::Ready {
            challenge_commitment: challenge_commitment(&h, &c, &key),
        })
        .unwrap();
        let Msg::Commitments(cm) = ch.recv::<Msg>("c").unwrap() else {
            panic!("expected Commitments")
        };
        let roots: Vec<Digest> = decode(&cm, "roots").unwrap();
        let (sent, key) = match how {
            Open::Committed => (sigmas, key),
            Open::WrongKey => (sigmas, random_32(&mut rng)),
            Open::FiatShamir => {
                let fs: Vec<u32> = fs::challenges(&i2, &h.context, &roots)
                    .into_iter()
                    .map(|x| x as u32)
                    .collect();
                (fs, key)
            }
        };
        ch.send(&Msg::Challenges {
            challenges: encode(&sent),
            key,
        })
        .unwrap();
        match ch.recv::<Msg>("r").unwrap() {
            Msg::Responses(r) => {
                let _ = ch.send(&Msg::Verdict {
                    accepted: true,
                    reason: String::new(),
                });
                Some((h, roots, sent, r))
            }
            Msg::Reject { .. } => None,
            m => panic!("unexpected {m:?}"),
        }
    });
    let mut ch = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
    let rounds = rounds_for_bits(32, inst.s());
    let z = tee_solution();
    let p = PegProver::new(&inst, &z, rounds, b"ctx", seeded_rng(1)).unwrap();
    let r = run_prover(&mut ch, Box::new(p));
    (r, v.join().unwrap())
}

fn as_fs_proof(inst: &Instance, context: &[u8], responses: &[u8]) -> PegIsoProof {
    PegIsoProof {
        instance_digest: inst.digest(),
        context: context.to_vec(),
        responses: decode::<Vec<RoundResponse>>(responses, "responses").unwrap(),
    }
}

#[test]
fn fiat_shamir_challenges_after_the_commitment_get_no_responses() {
    let (r, got) = against(Open::FiatShamir);
    let e = r.unwrap_err();
    assert!(e.to_string().contains("cheating verifier"), "{e}");
    assert!(got.is_none(), "the prover must not respond");
}

#[test]
fn an_opening_with_another_key_gets_no_responses() {
    let (r, got) = against(Open::WrongKey);
    assert!(r.is_err());
    assert!(got.is_none());
}

/// A verifier that plays by the commitment gets responses, but for challenges fixed before
/// the roots existed: they are not the Fiat–Shamir challenges of the roots, so what it holds
/// does not verify as a non-interactive proof.
#[test]
fn responses_to_committed_challenges_are_not_a_transferable_proof() {
    let inst = tee();
    let (r, got) = against(Open::Committed);
    let rec = r.unwrap();
    let (hello, roots, sent, responses) = got.expect("honest opening gets responses");
    assert_eq!(rec.responses, responses);
    assert_eq!(hello, rec.hello);
    // consistent as a session transcript...
    assert_eq!(
        verify_record(&inst, &rec, 32, b"ctx").unwrap() as u32,
        rec.hello.rounds
    );
    // ...but not as a Fiat–Shamir proof
    let fs_sigmas: Vec<u32> = fs::challenges(&inst, b"ctx", &roots)
        .into_iter()
        .map(|x| x as u32)
        .collect();
    assert_ne!(fs_sigmas, sent);
    let p = as_fs_proof(&inst, b"ctx", &responses);
    assert!(fs::verify(&inst, &p, 32, b"ctx").is_err());
    // and a recorded transcript whose challenges do not open the commitment is refused
    let mut bad = rec.clone();
    bad.challenge_key[0] ^= 1;
    assert!(verify_record(&inst, &bad, 32, b"ctx").is_err());
}
