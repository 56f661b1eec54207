//! Every live-session kind against a malicious verifier (issue 21, item 5), as
//! `tests/integration/sessions.rs` does for the peg isomorphism sessions: peg ZKB++ and KKW, Wall Game
//! sealed-move sessions with both engines, and logins. A verifier that opens its challenge
//! commitment to other challenges than it committed to (the Fiat–Shamir attack: challenges
//! chosen after seeing the commitments), or opens it with another key, gets no responses;
//! one that plays by its commitment gets responses that make a consistent session record
//! for the challenges it committed to before the commitments existed, and nothing else.
//!
//! The malicious verifier is generic: it draws two challenge vectors from two honest
//! verifiers of the same kind (so both are well formed), commits to the first, and opens as
//! the test says.

use std::os::unix::net::UnixStream;

use zkgames::mpc::engine::System;
use zkgames::mpc::kkw::Params;
use zkgames::net::{
    challenge_commitment, run_prover, Channel, Msg, SessionProver, SessionVerifier,
};
use zkgames::rng::{random_32, seeded_rng, Rng};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Open {
    /// The challenges it committed to, with its key.
    Committed,
    /// Other challenges (drawn after seeing the commitments), with its key.
    Other,
    /// The committed challenges with another key.
    WrongKey,
}

type Prover = Box<dyn SessionProver<'static>>;
type Verifier = Box<dyn SessionVerifier>;

/// One session kind: the peg tee or the fixture Wall Game move, under one system.
#[derive(Clone, Copy, Debug)]
struct Kind {
    name: &'static str,
    peg: bool,
    sys: System,
}

fn rng(seed: u64) -> Rng {
    seeded_rng(seed)
}

impl Kind {
    /// A fresh honest prover.
    fn prover(&self) -> Prover {
        use zkgames::fuzz_entry::fixtures;
        if self.peg {
            let inst = fixtures::tee().instance();
            let z = zkgames::peg::instance::tee_solution();
            zkgames::peg::mpc::session_prover(inst, &z, &self.sys, b"ctx", rng(1)).unwrap()
        } else {
            let st = fixtures::wall_statement();
            let w = st.witness(&fixtures::wall_move()).unwrap();
            self.sys
                .session_prover(
                    st.owned(),
                    zkgames::wall::seal::PROTOCOLS
                        .id(self.sys.engine())
                        .unwrap(),
                    w,
                    rng(1),
                )
                .unwrap()
        }
    }

    /// An honest verifier whose challenges come from `seed`.
    fn verifier(&self, seed: u64) -> Verifier {
        use zkgames::fuzz_entry::fixtures;
        if self.peg {
            let inst = fixtures::tee().instance();
            zkgames::peg::mpc::session_verifier(inst, &self.sys, b"ctx", rng(seed)).unwrap()
        } else {
            zkgames::mpc::engine::session_verifier(
                &self.sys,
                fixtures::wall_statement().owned(),
                zkgames::wall::seal::PROTOCOLS
                    .id(self.sys.engine())
                    .unwrap(),
                rng(seed),
            )
        }
    }
}

fn kinds() -> Vec<Kind> {
    let kkw = System::Kkw(Params::new(24, 6, 4));
    let zkb = System::Zkbpp(12);
    vec![
        Kind {
            name: "peg ZKB++",
            peg: true,
            sys: zkb,
        },
        Kind {
            name: "peg KKW",
            peg: true,
            sys: kkw,
        },
        Kind {
            name: "wall ZKB++",
            peg: false,
            sys: zkb,
        },
        Kind {
            name: "wall KKW",
            peg: false,
            sys: kkw,
        },
    ]
}

/// What the malicious verifier received after opening: the responses, or `None` when the
/// prover refused.
fn against(
    k: &Kind,
    how: Open,
) -> (
    zkgames::Result<zkgames::net::SessionRecord>,
    Option<Vec<u8>>,
) {
    let (a, b) = UnixStream::pair().unwrap();
    let kind = *k;
    let v = std::thread::spawn(move || {
        let mut honest = kind.verifier(5);
        let mut other = kind.verifier(6);
        let mut ch = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        let Msg::Hello(h) = ch.recv::<Msg>("hello").unwrap() else {
            panic!("expected Hello")
        };
        honest.check_hello(&h).unwrap();
        other.check_hello(&h).unwrap();
        let c = honest.draw_challenges();
        let mut r = seeded_rng(9);
        let key = random_32(&mut r);
        ch.send(&Msg::Ready {
            challenge_commitment: challenge_commitment(&h, &c, &key),
        })
        .unwrap();
        let Msg::Commitments(cm) = ch.recv::<Msg>("commitments").unwrap() else {
            panic!("expected Commitments")
        };
        honest.check_commitments(&cm).unwrap();
        let (sent, key) = match how {
            Open::Committed => (c.clone(), key),
            Open::WrongKey => (c.clone(), random_32(&mut r)),
            Open::Other => {
                let c2 = other.draw_challenges();
                assert_ne!(c2, c, "two draws differ");
                (c2, key)
            }
        };
        ch.send(&Msg::Challenges {
            challenges: sent,
            key,
        })
        .unwrap();
        match ch.recv::<Msg>("responses") {
            Ok(Msg::Responses(r)) => {
                // a verifier that played by its commitment checks them as usual
                honest.verify(&r).unwrap();
                let _ = ch.send(&Msg::Verdict {
                    accepted: true,
                    reason: String::new(),
                });
                Some(r)
            }
            Ok(Msg::Reject { .. }) | Err(_) => None,
            Ok(m) => panic!("unexpected message after the challenges: {m:?}"),
        }
    });
    let mut ch = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
    let r = run_prover(&mut ch, k.prover());
    drop(ch);
    (r, v.join().unwrap())
}

#[test]
fn challenges_other_than_committed_get_no_responses() {
    for k in kinds() {
        let (r, got) = against(&k, Open::Other);
        let e = r.expect_err(k.name);
        assert!(
            e.to_string().contains("cheating verifier"),
            "{}: {e}",
            k.name
        );
        assert!(got.is_none(), "{}: the prover must not respond", k.name);
    }
}

#[test]
fn an_opening_with_another_key_gets_no_responses() {
    for k in kinds() {
        let (r, got) = against(&k, Open::WrongKey);
        assert!(r.is_err(), "{}", k.name);
        assert!(got.is_none(), "{}", k.name);
    }
}

/// Playing by the commitment: responses for the committed challenges, a record that replays
/// as a session (challenges open the commitment), and a record whose challenges are changed
/// afterwards does not.
#[test]
fn an_honest_opening_gets_responses_to_the_committed_challenges_only() {
    for k in kinds() {
        let (r, got) = against(&k, Open::Committed);
        let rec = r.unwrap_or_else(|e| panic!("{}: {e}", k.name));
        assert_eq!(got.as_deref(), Some(&rec.responses[..]), "{}", k.name);
        assert!(rec.challenges_open(), "{}", k.name);
        let mut v = k.verifier(7);
        zkgames::net::replay(v.as_mut(), &rec).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        let mut bad = rec.clone();
        bad.challenge_key[0] ^= 1;
        let mut v = k.verifier(7);
        assert!(
            zkgames::net::replay(v.as_mut(), &bad).is_err(),
            "{}",
            k.name
        );
    }
}

/// Logins: the "verifier" is the login server, whose challenge is its nonce. A malicious
/// server cannot make a client's proof serve elsewhere: the proof is bound to the name the
/// server announced, the user and the nonce, so it does not verify for another server name,
/// user or nonce, and a client told which server to expect refuses to prove for another.
#[test]
fn a_login_proof_is_bound_to_the_server_user_and_nonce() {
    use zkgames::auth::keys::{prove_login, verify_login, Kind as KeyKind, SecretKey};
    let mut r = seeded_rng(3);
    for kind in [KeyKind::Sha256, KeyKind::Peg, KeyKind::Lowmc] {
        let key = SecretKey::generate(kind, &mut r).unwrap();
        let id = key.identity();
        let nonce = [4u8; 32];
        let p = prove_login(&key, "evil.example", "alice", &nonce, &mut r).unwrap();
        verify_login(&id, "evil.example", "alice", &nonce, &p).unwrap();
        assert!(verify_login(&id, "bank.example", "alice", &nonce, &p).is_err());
        assert!(verify_login(&id, "evil.example", "bob", &nonce, &p).is_err());
        assert!(verify_login(&id, "evil.example", "alice", &[5; 32], &p).is_err());
    }
    // a client expecting another server name refuses before proving anything
    let (a, b) = UnixStream::pair().unwrap();
    let srv = std::thread::spawn(move || {
        use zkgames::auth::server::{Reply, Request};
        let mut ch = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        let _: Request = ch.recv("login").unwrap();
        ch.send(&Reply::Challenge {
            server: "evil.example".into(),
            nonce: [1; 32],
            expires_in: 60,
        })
        .unwrap();
        // nothing more may come: no proof for a server the client did not ask for
        ch.recv::<Request>("proof").is_err()
    });
    let key = SecretKey::generate(KeyKind::Sha256, &mut r).unwrap();
    let mut ch = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
    let e = zkgames::auth::server::login(&mut ch, "alice", &key, Some("bank.example")).unwrap_err();
    assert!(e.to_string().contains("not proving"), "{e}");
    drop(ch);
    assert!(
        srv.join().unwrap(),
        "the client sent a proof to the wrong server"
    );
}
