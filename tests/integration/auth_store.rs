//! Authentication below the network: login proofs for both key kinds and what binds them,
//! key and identity parsing, and the SQLite user store (single-use expiring nonces, rate
//! limits against a brute-force model, hashed tokens, restarts, bad database files).

use std::path::PathBuf;

use rand::{Rng as _, RngCore};
use zkgames::auth::keys::{
    login_context, prove_login, verify_login, Identity, Kind, SecretKey, ID_HEADER, KEY_HEADER,
};
use zkgames::auth::store::{Clock, Event, Policy, Store};
use zkgames::auth::{Authenticator, Denied};
use zkgames::peg::planted::{PlantParams, KEYGEN};
use zkgames::rng::seeded_rng;
use zkgames::Error;

fn tmp_db(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zkg-auth-store-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
    }
    p
}

fn store(name: &str, clock: &Clock) -> Store {
    Store::open(&tmp_db(name), clock.clone(), Policy::default()).unwrap()
}

fn keys() -> Vec<SecretKey> {
    let mut rng = seeded_rng(1);
    vec![
        SecretKey::generate(Kind::Sha256, &mut rng).unwrap(),
        SecretKey::generate(Kind::Peg, &mut rng).unwrap(),
        SecretKey::generate(Kind::Lowmc, &mut rng).unwrap(),
    ]
}

#[test]
fn login_proofs_verify_and_are_bound_to_server_user_and_nonce() {
    let mut rng = seeded_rng(2);
    let n1 = [1u8; 32];
    let mut n2 = n1;
    n2[31] ^= 1;
    for key in keys() {
        let id = key.identity();
        let p = prove_login(&key, "srv.example:7000", "alice", &n1, &mut rng).unwrap();
        verify_login(&id, "srv.example:7000", "alice", &n1, &p).unwrap();
        // another nonce, user or server: rejected (a proof, not bad input)
        for (s, u, n) in [
            ("srv.example:7000", "alice", &n2),
            ("srv.example:7000", "alicf", &n1),
            ("srv.example:7001", "alice", &n1),
        ] {
            let e = verify_login(&id, s, u, n, &p).unwrap_err();
            assert!(matches!(e, Error::Rejected(_)), "{s} {u}: {e}");
        }
        // another key of the same kind: rejected
        let other = SecretKey::generate(key.kind(), &mut rng).unwrap();
        let q = prove_login(&other, "srv.example:7000", "alice", &n1, &mut rng).unwrap();
        assert!(matches!(
            verify_login(&id, "srv.example:7000", "alice", &n1, &q),
            Err(Error::Rejected(_))
        ));
        // the other kind's proof: refused as the wrong protocol
        for k2 in keys().into_iter().filter(|k| k.kind() != key.kind()) {
            let q = prove_login(&k2, "srv.example:7000", "alice", &n1, &mut rng).unwrap();
            assert!(verify_login(&id, "srv.example:7000", "alice", &n1, &q).is_err());
        }
        // tampering: every header byte and 100 random body bytes
        let mut positions: Vec<usize> = (0..21).collect();
        positions.extend((0..100).map(|_| rng.gen_range(21..p.len())));
        for i in positions {
            let mut t = p.clone();
            t[i] ^= 1 << rng.gen_range(0..8);
            assert!(
                verify_login(&id, "srv.example:7000", "alice", &n1, &t).is_err(),
                "{} flip at {i}",
                key.kind()
            );
        }
        // truncation and garbage
        assert!(verify_login(&id, "srv.example:7000", "alice", &n1, &p[..p.len() - 1]).is_err());
        assert!(verify_login(&id, "srv.example:7000", "alice", &n1, b"").is_err());
        // a proof file marked as an interactive session is refused
        let mut t = p.clone();
        t[12] = 1;
        assert!(verify_login(&id, "srv.example:7000", "alice", &n1, &t).is_err());
    }
}

#[test]
fn proofs_are_not_deterministic_and_hide_the_secret_bytes() {
    let mut rng = seeded_rng(3);
    let key = SecretKey::generate(Kind::Sha256, &mut rng).unwrap();
    let SecretKey::Sha256(s) = &key else {
        unreachable!()
    };
    let a = prove_login(&key, "s", "u", &[0; 32], &mut rng).unwrap();
    let b = prove_login(&key, "s", "u", &[0; 32], &mut rng).unwrap();
    assert_ne!(a, b);
    assert!(!a.windows(8).any(|w| w == &s[..8]));
}

#[test]
fn small_peg_keys_round_trip_through_text_and_prove() {
    let mut rng = seeded_rng(4);
    for m in [1, 2, 5, 12, 30] {
        let key = SecretKey::generate_peg(&PlantParams::scaled(m), &mut rng).unwrap();
        let key2 = SecretKey::parse(&key.to_text()).unwrap();
        assert_eq!(key2, key);
        let id = Identity::parse(&key.identity().to_text()).unwrap();
        let p = prove_login(&key2, "s", "u", &[9; 32], &mut rng).unwrap();
        verify_login(&id, "s", "u", &[9; 32], &p).unwrap();
    }
}

#[test]
fn keygen_peg_size_and_proof_size() {
    let key = &keys()[1];
    let Identity::Peg(inst) = key.identity() else {
        unreachable!()
    };
    assert_eq!(
        (inst.n(), inst.t(), inst.s()),
        (KEYGEN.vertices, KEYGEN.triplets(), KEYGEN.moves + 1)
    );
    let p = prove_login(key, "s", "u", &[0; 32], &mut seeded_rng(5)).unwrap();
    eprintln!("peg login proof: {} bytes", p.len());
    assert!(p.len() < 2 << 20);
}

/// Bad key and identity texts: one-line errors naming the problem, never a panic.
#[test]
fn bad_key_and_identity_texts() {
    let mut rng = seeded_rng(6);
    let sk = SecretKey::generate(Kind::Sha256, &mut rng)
        .unwrap()
        .to_text();
    let pk = SecretKey::generate_peg(&PlantParams::scaled(4), &mut rng)
        .unwrap()
        .to_text();
    let sid = SecretKey::parse(&sk).unwrap().identity().to_text();
    let pid = SecretKey::parse(&pk).unwrap().identity().to_text();
    let h64 = "ab".repeat(32);
    let bad_keys = vec![
        String::new(),
        "\n".into(),
        format!("{KEY_HEADER}"),
        format!("{KEY_HEADER} sha256"),
        format!("{KEY_HEADER} sha256 {}", &h64[..62]),
        format!("{KEY_HEADER} sha256 {h64}00"),
        format!("{KEY_HEADER} sha256 {}", h64.to_uppercase()),
        format!("{KEY_HEADER} sha256 {h64} extra"),
        format!("{KEY_HEADER}  sha256 {h64}"),
        format!("{KEY_HEADER} sha256 {h64}\n\n"),
        format!("{KEY_HEADER} rsa {h64}"),
        format!("zkgames-auth-key-v2 sha256 {h64}"),
        format!("{KEY_HEADER} peg {h64}"),
        sid.clone(),
        pk.replacen(" peg ", " sha256 ", 1),
        // a move list one move short, and one with a different move
        {
            let mut f: Vec<&str> = pk.trim_end().split(' ').collect();
            let short = &f[3][..f[3].len() - 8];
            let s = short.to_string();
            f[3] = &s;
            f.join(" ")
        },
        {
            let f: Vec<&str> = pk.trim_end().split(' ').collect();
            let mut m = hex::decode(f[3]).unwrap();
            m[0] ^= 1;
            format!("{} {} {} {}", f[0], f[1], f[2], hex::encode(m))
        },
    ];
    for t in &bad_keys {
        let e = SecretKey::parse(t).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, Error::BadInput(_)), "{t:?}");
        assert!(!msg.contains('\n') && msg.len() < 200, "{msg}");
    }
    let bad_ids = vec![
        String::new(),
        format!("{ID_HEADER} sha256 {}", &h64[..63]),
        format!("{ID_HEADER} sha256 {h64} alice"),
        format!("{ID_HEADER} peg {h64}"),
        format!("{ID_HEADER} peg"),
        sk.clone(),
        pk.clone(),
        pid.replacen(" peg ", " sha256 ", 1),
        sid.replace('\n', "\r"),
    ];
    for t in &bad_ids {
        let e = Identity::parse(t).unwrap_err();
        assert!(matches!(e, Error::BadInput(_)), "{t:?}");
        let msg = e.to_string();
        assert!(!msg.contains('\n') && msg.len() < 200, "{msg}");
    }
    // random mutations of valid texts never panic, and any accepted one re-encodes to itself
    for base in [&sk, &pk, &sid, &pid] {
        for _ in 0..500 {
            let mut b = base.as_bytes().to_vec();
            let i = rng.gen_range(0..b.len());
            match rng.gen_range(0..3) {
                0 => b[i] = b"0123456789abcdef g\n"[rng.gen_range(0..19)],
                1 => {
                    b.remove(i);
                }
                _ => b.insert(i, b"0a f"[rng.gen_range(0..4)]),
            }
            let Ok(t) = String::from_utf8(b) else {
                continue;
            };
            if let Ok(k) = SecretKey::parse(&t) {
                assert_eq!(k.to_text().trim_end(), t.trim_end());
            }
            if let Ok(k) = Identity::parse(&t) {
                assert_eq!(k.to_text().trim_end(), t.trim_end());
            }
        }
    }
}

#[test]
fn nonces_are_single_use_bound_to_the_user_and_expire() {
    let clock = Clock::fake(1_000_000);
    let st = store("nonces.db", &clock);
    let c = st.issue_challenge("alice", "10.0.0.1").unwrap().unwrap();
    assert_eq!(c.expires, 1_000_060);
    assert!(st.consume_challenge(&c.nonce, "alice").unwrap());
    assert!(!st.consume_challenge(&c.nonce, "alice").unwrap());
    // another user's nonce: refused, and consumed all the same
    let c = st.issue_challenge("alice", "10.0.0.1").unwrap().unwrap();
    assert!(!st.consume_challenge(&c.nonce, "bob").unwrap());
    assert!(!st.consume_challenge(&c.nonce, "alice").unwrap());
    // valid for 59 s, not at 60 s
    let c = st.issue_challenge("alice", "10.0.0.1").unwrap().unwrap();
    clock.advance(59);
    assert!(st.consume_challenge(&c.nonce, "alice").unwrap());
    let c = st.issue_challenge("alice", "10.0.0.1").unwrap().unwrap();
    clock.advance(60);
    assert!(!st.consume_challenge(&c.nonce, "alice").unwrap());
    // a nonce never issued
    assert!(!st.consume_challenge(&[7; 32], "alice").unwrap());
    // nonces differ
    let a = st.issue_challenge("alice", "10.0.0.1").unwrap().unwrap();
    let b = st.issue_challenge("alice", "10.0.0.1").unwrap().unwrap();
    assert_ne!(a.nonce, b.nonce);
    // pending challenges per peer are capped; they free up as they expire
    for _ in 2..Policy::default().max_pending_per_peer {
        st.issue_challenge("x", "10.0.0.1").unwrap().unwrap();
    }
    st.issue_challenge("x", "10.0.0.1").unwrap().unwrap_err();
    st.issue_challenge("x", "10.0.0.2").unwrap().unwrap();
    clock.advance(60);
    st.issue_challenge("x", "10.0.0.1").unwrap().unwrap();
    // purge removes the expired ones only
    let before = st.challenge_count().unwrap();
    let purged = st.purge().unwrap();
    assert_eq!(st.challenge_count().unwrap(), 1);
    assert_eq!(purged.challenges, before - 1);
}

#[test]
fn concurrent_consumption_accepts_a_nonce_once() {
    let path = tmp_db("race.db");
    let clock = Clock::fake(50);
    let st = Store::open(&path, clock.clone(), Policy::default()).unwrap();
    let nonces: Vec<[u8; 32]> = (0..100)
        .map(|i| {
            st.issue_challenge("alice", &format!("p{i}"))
                .unwrap()
                .unwrap()
                .nonce
        })
        .collect();
    let wins: Vec<usize> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| {
                let (path, clock, nonces) = (&path, clock.clone(), &nonces);
                s.spawn(move || {
                    let st = Store::open(path, clock, Policy::default()).unwrap();
                    nonces
                        .iter()
                        .filter(|n| st.consume_challenge(n, "alice").unwrap())
                        .count()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(wins.iter().sum::<usize>(), 100, "{wins:?}");
}

/// The rate limit against a brute-force model: random failures and clock steps for a few
/// users and peers; `retry_after` (per peer only: a user name never counts) must equal the
/// model's answer after every step.
#[test]
fn rate_limit_matches_a_brute_force_model() {
    let clock = Clock::fake(0);
    let st = store("rate.db", &clock);
    let pol = Policy::default();
    let users = ["u1", "u2", "u3"];
    let peers = ["1.1.1.1", "2.2.2.2"];
    let mut fails: Vec<(i64, &str, &str)> = Vec::new();
    let mut rng = seeded_rng(7);
    let model = |fails: &[(i64, &str, &str)], now: i64, p: &str| -> Option<u64> {
        let mut wait = 0;
        {
            let mut ts: Vec<i64> = fails
                .iter()
                .filter(|f| f.2 == p)
                .map(|f| f.0)
                .filter(|&t| t > now - pol.failure_window)
                .collect();
            ts.sort();
            // smallest delay d ≥ 0 such that fewer than max_failures stay in the window
            let mut d = 0;
            while ts
                .iter()
                .filter(|&&t| t > now + d - pol.failure_window)
                .count()
                >= pol.max_failures
            {
                d += 1;
            }
            wait = wait.max(d);
        }
        (wait > 0).then_some(wait as u64)
    };
    for _ in 0..3000 {
        match rng.gen_range(0..4) {
            0 => clock.advance(rng.gen_range(0..20)),
            _ => {
                let (u, p) = (
                    users[rng.gen_range(0..users.len())],
                    peers[rng.gen_range(0..peers.len())],
                );
                st.record(Event::LoginFail, u, p, "test").unwrap();
                // other events never count
                st.record(Event::LoginOk, u, p, "").unwrap();
                st.record(Event::Refused, u, p, "").unwrap();
                fails.push((clock.now(), u, p));
            }
        }
        for p in peers {
            assert_eq!(
                st.retry_after(p).unwrap(),
                model(&fails, clock.now(), p),
                "{p} at {}",
                clock.now()
            );
        }
    }
}

#[test]
fn login_flow_rate_limits_and_answers_alike() {
    let clock = Clock::fake(1_000);
    let st = store("flow.db", &clock);
    let auth = Authenticator::new(&st, "srv").unwrap();
    let mut rng = seeded_rng(8);
    let key = SecretKey::generate(Kind::Sha256, &mut rng).unwrap();
    auth.register("alice", "9.9.9.9", &key.identity()).unwrap();
    assert!(auth
        .register("alice", "9.9.9.9", &key.identity())
        .unwrap_err()
        .to_string()
        .contains("taken"));
    let good = |peer: &str, rng: &mut zkgames::rng::Rng| {
        let c = auth.begin("alice", peer).unwrap().unwrap();
        let p = prove_login(&key, "srv", "alice", &c.nonce, rng).unwrap();
        auth.finish("alice", peer, &c.nonce, &p).unwrap()
    };
    let t = good("1.1.1.1", &mut rng).unwrap();
    assert_eq!(auth.whoami(&t.token).unwrap().as_deref(), Some("alice"));
    // a valid proof replayed on the same nonce fails
    let c = auth.begin("alice", "1.1.1.1").unwrap().unwrap();
    let p = prove_login(&key, "srv", "alice", &c.nonce, &mut rng).unwrap();
    auth.finish("alice", "1.1.1.1", &c.nonce, &p)
        .unwrap()
        .unwrap();
    assert_eq!(
        auth.finish("alice", "1.1.1.1", &c.nonce, &p).unwrap(),
        Err(Denied::Failed)
    );
    // a proof for another server name fails
    let c = auth.begin("alice", "1.1.1.1").unwrap().unwrap();
    let p = prove_login(&key, "other", "alice", &c.nonce, &mut rng).unwrap();
    assert_eq!(
        auth.finish("alice", "1.1.1.1", &c.nonce, &p).unwrap(),
        Err(Denied::Failed)
    );
    // unknown user with a perfectly good proof for its own key: the same answer
    let c = auth.begin("mallory", "1.1.1.1").unwrap().unwrap();
    let p = prove_login(&key, "srv", "mallory", &c.nonce, &mut rng).unwrap();
    assert_eq!(
        auth.finish("mallory", "1.1.1.1", &c.nonce, &p).unwrap(),
        Err(Denied::Failed)
    );
    // garbage proof: the same answer
    let c = auth.begin("alice", "1.1.1.1").unwrap().unwrap();
    assert_eq!(
        auth.finish("alice", "1.1.1.1", &c.nonce, b"junk").unwrap(),
        Err(Denied::Failed)
    );
    // that is 4 failures from 1.1.1.1, 3 of them for alice; two more for alice from another
    // peer
    for _ in 0..2 {
        let c = auth.begin("alice", "2.2.2.2").unwrap().unwrap();
        let r = auth.finish("alice", "2.2.2.2", &c.nonce, b"junk").unwrap();
        assert_eq!(r, Err(Denied::Failed));
    }
    // alice's name has 5 failures within the minute, from two addresses: that locks no one
    // out, she logs in from a third address at once
    clock.advance(10);
    assert!(good("3.3.3.3", &mut rng).is_ok());
    // 1.1.1.1 has 4 failures, so it may still try once, for any name
    let c = auth.begin("bob", "1.1.1.1").unwrap().unwrap();
    assert_eq!(
        auth.finish("bob", "1.1.1.1", &c.nonce, b"junk").unwrap(),
        Err(Denied::Failed)
    );
    // then the address waits, whatever the name (no proof is verified for it meanwhile)
    assert_eq!(
        auth.begin("carol", "1.1.1.1").unwrap(),
        Err(Denied::RetryAfter(50))
    );
    assert_eq!(
        auth.begin("alice", "1.1.1.1").unwrap(),
        Err(Denied::RetryAfter(50))
    );
    // 2.2.2.2 (2 failures) is not affected
    assert!(good("2.2.2.2", &mut rng).is_ok());
    // after the window, 1.1.1.1 gets in again
    clock.advance(50);
    assert!(good("1.1.1.1", &mut rng).is_ok());
    // the audit log says why, the client never does
    let log = st.audit(100).unwrap();
    assert!(log
        .iter()
        .any(|e| e.event == "login-fail" && e.user == "mallory" && e.detail == "unknown user"));
    assert!(log
        .iter()
        .any(|e| e.event == "refused" && e.user == "carol" && e.peer == "1.1.1.1"));
    assert!(log
        .iter()
        .any(|e| e.event == "login-fail" && e.detail.contains("challenge") && e.user == "alice"));
}

#[test]
fn tokens_are_stored_hashed_expire_and_can_be_revoked() {
    let clock = Clock::fake(5_000);
    let path = tmp_db("tokens.db");
    let pol = Policy {
        token_ttl: 100,
        ..Policy::default()
    };
    let st = Store::open(&path, clock.clone(), pol.clone()).unwrap();
    let toks: Vec<_> = (0..20).map(|_| st.issue_token("alice").unwrap()).collect();
    assert_eq!(toks[0].expires, 5_100);
    assert_eq!(
        st.check_token(&toks[0].token).unwrap().as_deref(),
        Some("alice")
    );
    assert!(st.check_token(&[0; 32]).unwrap().is_none());
    assert!(st.revoke_token(&toks[1].token).unwrap());
    assert!(st.check_token(&toks[1].token).unwrap().is_none());
    // neither the database nor its WAL holds any token, raw or in hex
    drop(st);
    let st = Store::open(&path, clock.clone(), pol.clone()).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend(std::fs::read(format!("{}-wal", path.display())).unwrap_or_default());
    assert!(bytes.len() > 4096);
    for t in &toks {
        assert!(!bytes.windows(32).any(|w| w == t.token));
        let h = t.to_hex();
        assert!(!bytes.windows(16).any(|w| w == &h.as_bytes()[..16]));
        assert!(!format!("{t:?}").contains(&h[..8]));
    }
    // expiry, then purge
    clock.advance(99);
    assert!(st.check_token(&toks[0].token).unwrap().is_some());
    clock.advance(1);
    assert!(st.check_token(&toks[0].token).unwrap().is_none());
    let fresh = st.issue_token("bob").unwrap();
    assert_eq!(st.purge().unwrap().tokens, 19);
    assert_eq!(st.token_count().unwrap(), 1);
    assert!(st.check_token(&fresh.token).unwrap().is_some());
    // removing a user drops their tokens
    st.add_user(
        "bob",
        &SecretKey::generate(Kind::Sha256, &mut seeded_rng(1))
            .unwrap()
            .identity(),
    )
    .unwrap();
    st.remove_user("bob").unwrap();
    assert!(st.check_token(&fresh.token).unwrap().is_none());
    assert!(st.remove_user("bob").is_err());
}

#[test]
fn restart_keeps_users_tokens_and_audit() {
    let clock = Clock::fake(77);
    let path = tmp_db("restart.db");
    let ks = keys();
    let tok;
    {
        let st = Store::open(&path, clock.clone(), Policy::default()).unwrap();
        st.add_user("alice", &ks[0].identity()).unwrap();
        st.add_user("bob", &ks[1].identity()).unwrap();
        st.record(Event::Register, "bob", "x", "").unwrap();
        tok = st.issue_token("alice").unwrap();
    }
    let st = Store::open_existing(&path, clock, Policy::default()).unwrap();
    let us = st.users().unwrap();
    assert_eq!(us.len(), 2);
    assert_eq!((us[0].name.as_str(), us[0].created), ("alice", 77));
    assert_eq!(us[0].identity, ks[0].identity());
    assert_eq!(us[1].identity, ks[1].identity());
    assert_eq!(st.user("bob").unwrap().unwrap().identity.kind(), Kind::Peg);
    assert!(st.user("carol").unwrap().is_none());
    assert_eq!(
        st.check_token(&tok.token).unwrap().as_deref(),
        Some("alice")
    );
    assert_eq!(st.audit(10).unwrap().len(), 1);
    // a restarted server verifies a login against the stored identity
    let n = [4; 32];
    let p = prove_login(&ks[1], "s", "bob", &n, &mut seeded_rng(9)).unwrap();
    verify_login(
        &st.user("bob").unwrap().unwrap().identity,
        "s",
        "bob",
        &n,
        &p,
    )
    .unwrap();
    // the journal is WAL
    let conn = rusqlite_mode(&path);
    assert_eq!(conn, "wal");
}

fn rusqlite_mode(path: &std::path::Path) -> String {
    // read the header: bytes 18 and 19 are 2 in WAL mode (1 for a rollback journal)
    let b = std::fs::read(path).unwrap();
    if b[18] == 2 && b[19] == 2 {
        "wal".into()
    } else {
        "rollback".into()
    }
}

#[test]
fn files_that_are_not_user_databases_are_refused() {
    let clock = Clock::System;
    // not SQLite at all
    let p = tmp_db("junk.db");
    let mut junk = vec![0u8; 8192];
    seeded_rng(10).fill_bytes(&mut junk);
    std::fs::write(&p, &junk).unwrap();
    let e = Store::open(&p, clock.clone(), Policy::default())
        .err()
        .unwrap();
    assert!(matches!(e, Error::BadInput(_)), "{e}");
    assert!(e.to_string().contains("not a zkgames user database"), "{e}");
    assert_eq!(std::fs::read(&p).unwrap(), junk, "the file was modified");
    // a text file
    std::fs::write(&p, "hello, this is a text file\n".repeat(100)).unwrap();
    assert_eq!(
        Store::open(&p, clock.clone(), Policy::default())
            .err()
            .unwrap()
            .exit_code(),
        2
    );
    // another application's SQLite database
    let p = tmp_db("other.db");
    {
        let st = Store::open(&p, clock.clone(), Policy::default()).unwrap();
        drop(st);
    }
    let b = std::fs::read(&p).unwrap();
    let mut other = b.clone();
    other[68..72].copy_from_slice(&0x1234_5678u32.to_be_bytes()); // application_id
    std::fs::write(&p, &other).unwrap();
    let e = Store::open(&p, clock.clone(), Policy::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("not a zkgames user database"), "{e}");
    // a missing file: created by open, refused by open_existing
    let p = tmp_db("missing.db");
    assert!(Store::open_existing(&p, clock.clone(), Policy::default()).is_err());
    assert!(!p.exists());
    Store::open(&p, clock.clone(), Policy::default()).unwrap();
    Store::open_existing(&p, clock, Policy::default()).unwrap();
    // an empty file becomes a database
    let p = tmp_db("empty.db");
    std::fs::write(&p, b"").unwrap();
    let st = Store::open(&p, Clock::System, Policy::default()).unwrap();
    assert_eq!(st.user_count().unwrap(), 0);
}

#[test]
fn names_and_context_checks() {
    let clock = Clock::fake(0);
    let st = store("names.db", &clock);
    let id = keys()[0].identity();
    for bad in ["", "Alice", "a b", "-x", &"a".repeat(33)] {
        assert!(st.add_user(bad, &id).is_err());
        assert!(st.issue_challenge(bad, "1.2.3.4").is_err());
    }
    assert!(st.issue_challenge("ok", "").is_err());
    assert!(st.issue_challenge("ok", "has space").is_err());
    assert!(Authenticator::new(&st, "").is_err());
    assert!(login_context("s", "u", &[0; 32]).is_ok());
}

/// A proof is verified against a decoy identity of its kind when the name is unknown or its
/// key of another kind (so the refusal takes a registered user's time; `cargo bench --bench
/// auth` prints the times). Only the user's own identity lets anyone in: a good proof for
/// another key, of any kind, for a known or an unknown name, is refused.
#[test]
fn decoy_identities_never_let_an_unknown_user_in() {
    use zkgames::auth::login::decoys;
    let kinds: Vec<Kind> = decoys().iter().map(|d| d.kind()).collect();
    assert_eq!(kinds, Kind::ALL.to_vec(), "one decoy per kind, in order");
    let clock = Clock::fake(1_000);
    let st = store("decoy.db", &clock);
    let auth = Authenticator::new(&st, "srv").unwrap();
    let mut rng = seeded_rng(5);
    // a user registered with a sha256 key; proofs of the other kinds are checked against
    // the decoys, and a good proof for the prover's own key of another kind is refused
    let alice = SecretKey::generate(Kind::Sha256, &mut rng).unwrap();
    auth.register("alice", "2.2.2.2", &alice.identity())
        .unwrap();
    for kind in [Kind::Lowmc, Kind::Peg] {
        let k = SecretKey::generate(kind, &mut rng).unwrap();
        for user in ["alice", "ghost"] {
            let c = auth.begin(user, "2.2.2.2").unwrap().unwrap();
            let p = prove_login(&k, "srv", user, &c.nonce, &mut rng).unwrap();
            // the proof is a good one for its own key...
            verify_login(&k.identity(), "srv", user, &c.nonce, &p).unwrap();
            // ...and refused all the same
            assert_eq!(
                auth.finish(user, "2.2.2.2", &c.nonce, &p).unwrap(),
                Err(Denied::Failed),
                "{kind} proof for {user}"
            );
            clock.advance(3_600);
        }
    }
    // alice's own key still gets her in
    let c = auth.begin("alice", "2.2.2.2").unwrap().unwrap();
    let p = prove_login(&alice, "srv", "alice", &c.nonce, &mut rng).unwrap();
    assert!(auth
        .finish("alice", "2.2.2.2", &c.nonce, &p)
        .unwrap()
        .is_ok());
}

/// Registrations are limited per peer address within a window (the audit log counts them);
/// other addresses are unaffected, and the limit lifts as old registrations leave the window.
#[test]
fn registrations_are_rate_limited_per_peer() {
    let clock = Clock::fake(10_000);
    let pol = Policy {
        max_registrations_per_peer: 3,
        registration_window: 100,
        ..Policy::default()
    };
    let st = Store::open(&tmp_db("reglimit.db"), clock.clone(), pol).unwrap();
    let auth = Authenticator::new(&st, "srv").unwrap();
    let mut rng = seeded_rng(21);
    let mut id = || {
        SecretKey::generate(Kind::Sha256, &mut rng)
            .unwrap()
            .identity()
    };
    for (i, t) in [0, 10, 20].into_iter().enumerate() {
        clock.advance(t - if i == 0 { 0 } else { [0, 10, 20][i - 1] });
        auth.register(&format!("u{i}"), "6.6.6.6", &id()).unwrap();
    }
    // the fourth from the same address, 20 s after the first: wait until the first leaves
    let e = auth.register("u3", "6.6.6.6", &id()).unwrap_err();
    assert_eq!(e.exit_code(), 75, "{e}");
    assert!(e.to_string().contains("try again in 80 s"), "{e}");
    assert!(st.user("u3").unwrap().is_none(), "nothing registered");
    // another address is not affected
    auth.register("v0", "7.7.7.7", &id()).unwrap();
    // once the first registration is out of the window, one more is allowed
    clock.advance(81);
    auth.register("u3", "6.6.6.6", &id()).unwrap();
    assert!(auth.register("u4", "6.6.6.6", &id()).is_err());
}
