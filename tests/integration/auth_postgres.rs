//! Several `verifier auth serve --http` instances on one PostgreSQL database, started by the
//! test itself (tests/integration/common/pg.rs; without Debian's `postgresql` package the tests say they
//! skipped): logins spread across instances, a nonce issued by one used at another once and
//! only once, tokens and rate limits shared, one name registered at two instances at once
//! taken by exactly one, a restart losing nothing, kill -9 of an instance during a burst
//! losing no acknowledged registration, the TCP service on the same database, the schema
//! created by the first instance and a newer schema refused; device codes of the page issued
//! at one instance, redeemed at another and polled at a third, one code redeemed at two
//! instances at once by exactly one login, expired codes refused everywhere, a version 1
//! schema migrated.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use serde_json::json;
use zkgames::auth::keys::{prove_login, SecretKey};
use zkgames::auth::Kind;
use zkgames::rng::seeded_rng;

use crate::common;
use common::http::{get_auth, post, start};
use common::pg::{Pg, PgError};
use common::Server;

fn pg(tag: &str) -> Option<Pg> {
    match Pg::start(tag) {
        Ok(p) => Some(p),
        Err(PgError::NotInstalled(why)) => {
            common::missing(&why);
            None
        }
        Err(PgError::Failed(why)) => panic!("PostgreSQL is installed but did not start: {why}"),
    }
}

fn key(seed: u64) -> SecretKey {
    SecretKey::generate(Kind::Sha256, &mut seeded_rng(seed)).unwrap()
}

fn register(a: &str, name: &str, k: &SecretKey) -> u16 {
    post(
        a,
        "/v1/register",
        &json!({"name": name, "identity": k.identity().to_text()}),
    )
    .status
}

/// A challenge from instance `a`: (server, nonce hex, status).
fn challenge(a: &str, name: &str) -> (String, String, u16) {
    let r = post(a, "/v1/challenge", &json!({ "name": name }));
    if r.status != 200 {
        return (String::new(), String::new(), r.status);
    }
    let v = r.json();
    (
        v["server"].as_str().unwrap().into(),
        v["challenge"].as_str().unwrap().into(),
        200,
    )
}

fn prove(k: &SecretKey, server: &str, name: &str, ch: &str, seed: u64) -> String {
    let n: [u8; 32] = hex::decode(ch).unwrap().try_into().unwrap();
    let p = prove_login(k, server, name, &n, &mut seeded_rng(seed)).unwrap();
    base64::engine::general_purpose::STANDARD.encode(p)
}

fn send(a: &str, name: &str, ch: &str, proof: &str) -> common::http::Resp {
    post(
        a,
        "/v1/login",
        &json!({"name": name, "challenge": ch, "proof": proof}),
    )
}

fn instances(url: &str, n: usize, extra: &[&str]) -> Vec<Server> {
    // started together: the first to take the schema lock creates the schema
    let hs: Vec<_> = (0..n)
        .map(|_| {
            let (u, e) = (
                url.to_string(),
                extra.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            );
            std::thread::spawn(move || {
                let e: Vec<&str> = e.iter().map(String::as_str).collect();
                start(&u, &e)
            })
        })
        .collect();
    hs.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn three_instances_share_users_nonces_tokens_and_limits() {
    let Some(pg) = pg("share") else { return };
    let url = pg.database("share");
    // replays from this one address are failures: 6 to the minute before the limit, whose
    // sharing is checked last
    let s = instances(&url, 3, &["--max-failures-per-minute", "40"]);
    let (a, b, c) = (&s[0].addr, &s[1].addr, &s[2].addr);
    let alice = key(1);
    assert_eq!(register(a, "alice", &alice), 201);
    assert_eq!(register(b, "alice", &key(2)), 409);
    // logins spread across instances: challenge at one, proof at another
    let mut tokens = Vec::new();
    for (i, (x, y)) in [(a, b), (b, c), (c, a), (a, a)].into_iter().enumerate() {
        let (server, ch, st) = challenge(x, "alice");
        assert_eq!(st, 200);
        let p = prove(&alice, &server, "alice", &ch, 10 + i as u64);
        let r = send(y, "alice", &ch, &p);
        assert_eq!(r.status, 200, "{}", r.text());
        tokens.push(r.json()["token"].as_str().unwrap().to_string());
        // the nonce is gone everywhere: the same proof at each instance is refused
        for z in [a, b, c] {
            assert_eq!(send(z, "alice", &ch, &p).status, 401);
        }
    }
    // tokens are valid at every instance; a logout at one ends the session everywhere
    for t in &tokens {
        for z in [a, b, c] {
            assert_eq!(get_auth(z, "/v1/whoami", t).json()["name"], "alice");
        }
    }
    let h = format!("Bearer {}", tokens[0]);
    assert_eq!(
        common::http::call(b, "POST", "/v1/logout", &[("Authorization", &h)], b"").status,
        200
    );
    for z in [a, b, c] {
        assert_eq!(get_auth(z, "/v1/whoami", &tokens[0]).status, 401);
    }
    // one nonce sent to two instances at the same moment: accepted once
    for round in 0..6u64 {
        let (server, ch, _) = challenge(a, "alice");
        let p = prove(&alice, &server, "alice", &ch, 100 + round);
        let (b2, c2) = (b.clone(), c.clone());
        let (ch1, ch2, p1, p2) = (ch.clone(), ch, p.clone(), p);
        let t1 = std::thread::spawn(move || send(&b2, "alice", &ch1, &p1).status);
        let t2 = std::thread::spawn(move || send(&c2, "alice", &ch2, &p2).status);
        let mut got = [t1.join().unwrap(), t2.join().unwrap()];
        got.sort();
        assert_eq!(got, [200, 401], "round {round}");
    }
    // one name registered at two instances at once: exactly one wins
    for i in 0..12u64 {
        let name = format!("race{i}");
        let (x, y) = (a.clone(), if i % 2 == 0 { b.clone() } else { c.clone() });
        let (n1, n2) = (name.clone(), name);
        let t1 = std::thread::spawn(move || register(&x, &n1, &key(1000 + i)));
        let t2 = std::thread::spawn(move || register(&y, &n2, &key(2000 + i)));
        let mut got = [t1.join().unwrap(), t2.join().unwrap()];
        got.sort();
        assert_eq!(got, [201, 409], "race{i}");
    }
    // the failure limit counts failures at all instances: failures from this address,
    // spread over the three, until one instance refuses with 429; then all of them do
    let wrong = key(9);
    let fails = || {
        pg.psql(
            "share",
            "SELECT count(*) FROM zkg_audit WHERE event = 'login-fail'",
        )
        .trim()
        .parse::<u32>()
        .unwrap()
    };
    let before = fails();
    let mut limited = false;
    for i in 0..45u64 {
        let z = [a, b, c][i as usize % 3];
        let (server, ch, st) = challenge(z, "alice");
        if st == 429 {
            limited = true;
            break;
        }
        let p = prove(&wrong, &server, "alice", &ch, 300 + i);
        assert_eq!(send(z, "alice", &ch, &p).status, 401);
    }
    assert!(limited, "never rate-limited");
    let after = fails();
    assert!(before < 40 && after >= 40, "{before} {after}");
    for z in [a, b, c] {
        assert_eq!(challenge(z, "alice").2, 429);
    }
    for srv in s {
        let (code, log) = srv.stop();
        assert_eq!(code, Some(0), "{log}");
    }
}

#[test]
fn restarts_and_kill_9_lose_nothing_acknowledged() {
    let Some(pg) = pg("kill") else { return };
    let url = pg.database("kill");
    let extra = ["--max-registrations-per-hour", "100000"];
    let mut s = instances(&url, 2, &extra);
    let alice = key(1);
    assert_eq!(register(&s[0].addr, "alice", &alice), 201);
    let (server, ch, _) = challenge(&s[0].addr, "alice");
    let r = send(
        &s[1].addr,
        "alice",
        &ch,
        &prove(&alice, &server, "alice", &ch, 5),
    );
    let token = r.json()["token"].as_str().unwrap().to_string();
    // a clean restart of one instance: users and sessions are still there
    let old = s.remove(0);
    let (code, _) = old.stop();
    assert_eq!(code, Some(0));
    s.insert(0, start(&url, &extra));
    assert_eq!(
        get_auth(&s[0].addr, "/v1/whoami", &token).json()["name"],
        "alice"
    );
    // a burst of registrations spread over both instances; instance 0 is killed (-9) in the
    // middle of it
    let acked = Arc::new(Mutex::new(Vec::new()));
    let addrs: Vec<String> = s.iter().map(|x| x.addr.clone()).collect();
    let workers: Vec<_> = (0..4u64)
        .map(|w| {
            let (addrs, acked) = (addrs.clone(), acked.clone());
            std::thread::spawn(move || {
                for i in 0..60u64 {
                    let name = format!("u{w}x{i}");
                    let a = &addrs[(i % 2) as usize];
                    // a dead instance: connection refused or cut; anything but 201 is not acknowledged
                    let st =
                        std::panic::catch_unwind(|| register(a, &name, &key(10_000 + w * 100 + i)))
                            .unwrap_or(0);
                    if st == 201 {
                        acked.lock().unwrap().push(name);
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(400));
    let mut victim = s.remove(0);
    victim.child.kill().unwrap(); // SIGKILL
    victim.child.wait().unwrap();
    for w in workers {
        w.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 60, "only {} acknowledged", acked.len());
    // every acknowledged name is in the database, and taken at a fresh instance
    let fresh = start(&url, &extra);
    let rows = pg.psql("kill", "SELECT name FROM zkg_users");
    let names: std::collections::HashSet<&str> = rows.lines().collect();
    for n in &acked {
        assert!(names.contains(n.as_str()), "{n} acknowledged but lost");
    }
    for n in acked.iter().take(10) {
        assert_eq!(register(&fresh.addr, n, &key(7)), 409, "{n}");
    }
    assert_eq!(
        get_auth(&fresh.addr, "/v1/whoami", &token).json()["name"],
        "alice"
    );
    drop(victim);
    fresh.stop();
    for x in s {
        x.stop();
    }
}

#[test]
fn the_tcp_service_and_the_schema_on_postgres() {
    let Some(pg) = pg("schema") else { return };
    let url = pg.database("schema");
    let srv = Server::spawn(&[
        "auth",
        "serve",
        "--db",
        &url,
        "--listen",
        "127.0.0.1:0",
        "--timeout",
        "5",
    ]);
    // the first instance created the schema, version 3
    assert_eq!(
        pg.psql("schema", "SELECT version FROM zkg_schema_version")
            .trim(),
        "3"
    );
    let d = common::fresh_dir("auth-pg", "tcp");
    let k = d.join("a.key");
    common::keygen("sha256", k.to_str().unwrap());
    let kp = k.to_str().unwrap();
    let (c, _, e) = common::run(
        common::PROVER,
        &["auth", "register", "alice", "--key", kp, &srv.addr],
    );
    assert_eq!(c, 0, "{e}");
    let (c, tok, e) = common::run(
        common::PROVER,
        &["auth", "login", "alice", "--key", kp, &srv.addr],
    );
    assert_eq!(c, 0, "{e}");
    // an aes128 key registers and logs in on the shared database
    let ka = d.join("aes.key");
    assert_eq!(common::keygen("aes128", ka.to_str().unwrap()).0, 0);
    let kap = ka.to_str().unwrap();
    let (c, _, e) = common::run(
        common::PROVER,
        &["auth", "register", "anna", "--key", kap, &srv.addr],
    );
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = common::run(
        common::PROVER,
        &["auth", "login", "anna", "--key", kap, &srv.addr],
    );
    assert_eq!(c, 0, "{e}");
    // the administrator's commands work on the shared database too
    let bob = d.join("b.key");
    common::keygen("sha256", bob.to_str().unwrap());
    let bp = d.join("b.pub");
    let (c, _, e) = common::run(
        common::VERIFIER,
        &["auth", "add", "bob", bp.to_str().unwrap(), "--db", &url],
    );
    assert_eq!(c, 0, "{e}");
    let (c, out, e) = common::run(common::VERIFIER, &["auth", "list", "--db", &url]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("alice") && out.contains("bob"), "{out}");
    let (c, _, e) = common::run(common::VERIFIER, &["auth", "remove", "bob", "--db", &url]);
    assert_eq!(c, 0, "{e}");
    // the HTTP API on the same database knows the token
    let web = start(&url, &[]);
    assert_eq!(
        get_auth(&web.addr, "/v1/whoami", tok.trim()).json()["name"],
        "alice"
    );
    web.stop();
    srv.stop();
    // a database of a newer schema is refused (exit 2, one line, no password echoed)
    pg.psql("schema", "UPDATE zkg_schema_version SET version = 99");
    let (c, _, e) = common::run(
        common::VERIFIER,
        &["auth", "serve", "--db", &url, "--http", "127.0.0.1:0"],
    );
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("schema version 99") && e.lines().count() == 1,
        "{e}"
    );
    // no server at that port: exit 2, the password not shown
    let bad = format!("postgres://zkg:hunter2@127.0.0.1:{}/x", pg.port + 1);
    let (c, _, e) = common::run(
        common::VERIFIER,
        &["auth", "serve", "--db", &bad, "--http", "127.0.0.1:0"],
    );
    assert_eq!(c, 2, "{e}");
    assert!(!e.contains("hunter2") && e.lines().count() == 1, "{e}");
}

/// The prover's `auth login NAME --key KEY --code CODE http://ADDR`: (exit status, stdout,
/// stderr).
fn login_with_code(
    addr: &str,
    name: &str,
    key: &std::path::Path,
    code: &str,
) -> (i32, String, String) {
    let url = format!("http://{addr}");
    common::run(
        common::PROVER,
        &[
            "auth",
            "login",
            name,
            "--key",
            key.to_str().unwrap(),
            "--code",
            code,
            "--yes",
            &url,
        ],
    )
}

/// A device code from instance `a`: (code, poll handle).
fn device(a: &str, name: &str) -> (String, String) {
    let r = post(a, "/v1/device", &json!({ "name": name }));
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (
        v["code"].as_str().unwrap().into(),
        v["poll"].as_str().unwrap().into(),
    )
}

fn poll(a: &str, handle: &str, wait: u64) -> common::http::Resp {
    common::http::call(
        a,
        "GET",
        &format!("/v1/device/{handle}?wait={wait}"),
        &[],
        b"",
    )
}

#[test]
fn device_codes_work_at_every_instance() {
    let Some(pg) = pg("device") else { return };
    let url = pg.database("device");
    // every code of this test comes from 127.0.0.1: room for them all, and for its wrong
    // and used codes, which count as failed logins of the address
    let extra = [
        "--max-pending-per-peer",
        "64",
        "--max-failures-per-minute",
        "40",
    ];
    let s = instances(&url, 3, &extra);
    let (a, b, c) = (&s[0].addr, &s[1].addr, &s[2].addr);
    let d = common::fresh_dir("auth-pg", "device");
    let k = d.join("alice.key");
    let m = d.join("mallory.key");
    assert_eq!(common::keygen("sha256", k.to_str().unwrap()).0, 0);
    assert_eq!(common::keygen("sha256", m.to_str().unwrap()).0, 0);
    let alice = SecretKey::parse(&std::fs::read_to_string(&k).unwrap()).unwrap();
    assert_eq!(register(a, "alice", &alice), 201);

    // issued at A, a wrong key refused at B, the right key at B, polled at C, which
    // answers the refusal and then the token without having seen either login
    let (code, handle) = device(a, "alice");
    let v = poll(c, &handle, 0).json();
    assert_eq!(
        (v["state"].as_str(), v["refused"].as_u64()),
        (Some("pending"), Some(0))
    );
    let waiting = {
        let (c, h) = (c.clone(), handle.clone());
        std::thread::spawn(move || poll(&c, &h, 25))
    };
    std::thread::sleep(Duration::from_millis(300));
    let (st, _, e) = login_with_code(b, "alice", &m, &code);
    assert_eq!(st, 1, "wrong key: {e}");
    let r = waiting.join().unwrap();
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(
        (v["state"].as_str(), v["refused"].as_u64()),
        (Some("pending"), Some(1)),
        "{v}"
    );
    let waiting = {
        let (c, h) = (c.clone(), handle.clone());
        std::thread::spawn(move || poll(&c, &h, 25))
    };
    std::thread::sleep(Duration::from_millis(300));
    let (st, token, e) = login_with_code(b, "alice", &k, &code);
    assert_eq!(st, 0, "right key: {e}");
    let token = token.trim().to_string();
    let r = waiting.join().unwrap();
    let v = r.json();
    assert_eq!(v["state"], "done", "{v}");
    assert_eq!(v["name"], "alice");
    // the page's session of its own, issued when C collected the code
    let page = v["token"].as_str().unwrap().to_string();
    assert_ne!(page, token, "the page's session is not the prover's");
    assert_eq!(v["system"], "vole");
    assert!(v["proof_bytes"].as_u64().unwrap() > 1000 && v["verify_ms"].as_f64().is_some());
    for z in [a, b, c] {
        // collected once: no instance answers the handle again
        assert_eq!(poll(z, &handle, 0).status, 404);
        assert_eq!(get_auth(z, "/v1/whoami", &token).json()["name"], "alice");
        assert_eq!(get_auth(z, "/v1/whoami", &page).json()["name"], "alice");
        // used once: the code is refused everywhere now
        let (st, _, e) = login_with_code(z, "alice", &k, &code);
        assert_eq!(st, 2, "{e}");
        assert!(e.contains("unknown, used or expired code"), "{e}");
    }
    // the database holds the handle and the code only as hashes, and no session token
    let row = pg.psql(
        "device",
        "SELECT encode(poll_hash, 'hex') || ' ' || encode(code_hash, 'hex') FROM zkg_device_codes",
    );
    assert!(
        !row.contains(&handle) && !row.contains(&code.replace('-', "")),
        "{row}"
    );
    let cols = pg.psql(
        "device",
        "SELECT string_agg(column_name, ' ') FROM information_schema.columns \
         WHERE table_name = 'zkg_device_codes'",
    );
    assert!(!cols.contains("token"), "{cols}");
    // a code is bound to its name, at every instance
    assert_eq!(register(b, "bob", &key(77)), 201);
    let (bob_code, _) = device(c, "bob");
    let (st, _, e) = login_with_code(a, "alice", &k, &bob_code);
    assert_eq!(st, 2, "{e}");

    // one code redeemed at two instances at the same moment: one login, after which the
    // poll receives the page's session; the other refused after its proof verified (the
    // database's conditional UPDATE decided), or before, if it came second
    let mut raced = 0;
    for round in 0..6u64 {
        let (code, handle) = device(a, "alice");
        let mut reqs = Vec::new();
        for (i, z) in [b, c].into_iter().enumerate() {
            let (server, ch, st) = challenge(z, "alice");
            assert_eq!(st, 200);
            let p = prove(&alice, &server, "alice", &ch, 500 + 2 * round + i as u64);
            reqs.push((
                z.clone(),
                json!({"name": "alice", "challenge": ch, "proof": p, "code": code}),
            ));
        }
        let go = Arc::new(std::sync::Barrier::new(2));
        let ts: Vec<_> = reqs
            .into_iter()
            .map(|(z, body)| {
                let go = go.clone();
                std::thread::spawn(move || {
                    go.wait();
                    post(&z, "/v1/login", &body)
                })
            })
            .collect();
        let rs: Vec<_> = ts.into_iter().map(|t| t.join().unwrap()).collect();
        let mut got: Vec<u16> = rs.iter().map(|r| r.status).collect();
        got.sort();
        assert_eq!(got, [200, 400], "round {round}");
        let won = rs.iter().find(|r| r.status == 200).unwrap().json();
        let lost = rs.iter().find(|r| r.status == 400).unwrap().json();
        assert_eq!(lost["error"], "unknown, used or expired code for this name");
        let v = poll(a, &handle, 0).json();
        assert_eq!(v["state"], "done");
        assert_ne!(v["token"], won["token"]);
        let page = v["token"].as_str().unwrap();
        assert_eq!(get_auth(a, "/v1/whoami", page).json()["name"], "alice");
        raced = pg
            .psql(
                "device",
                "SELECT count(*) FROM zkg_audit WHERE detail = 'device code used or expired'",
            )
            .trim()
            .parse::<u32>()
            .unwrap();
    }
    // the losers' tokens were revoked: only the winners' and the pages' are valid
    let live: u32 = pg
        .psql("device", "SELECT count(*) FROM zkg_tokens")
        .trim()
        .parse()
        .unwrap();
    println!("{raced} of 6 races decided by the UPDATE");
    assert!(raced >= 1, "no race reached the redemption");
    assert_eq!(
        live,
        2 + 2 * 6,
        "one session per successful login and one per page"
    );
    // and through the binaries: two provers with one code at two instances at once
    let (code, handle) = device(c, "alice");
    let ts: Vec<_> = [a.clone(), b.clone()]
        .into_iter()
        .map(|z| {
            let (k, code) = (k.clone(), code.clone());
            std::thread::spawn(move || login_with_code(&z, "alice", &k, &code))
        })
        .collect();
    let outs: Vec<_> = ts.into_iter().map(|t| t.join().unwrap()).collect();
    let mut got: Vec<i32> = outs.iter().map(|o| o.0).collect();
    got.sort();
    assert_eq!(got, [0, 2], "{outs:?}");
    let won = outs.iter().find(|o| o.0 == 0).unwrap().1.trim().to_string();
    let v = poll(b, &handle, 0).json();
    assert_eq!(v["state"], "done");
    assert_ne!(v["token"].as_str(), Some(won.as_str()));

    // an expired code is refused everywhere (an instance issuing 2-second codes)
    let short = start(
        &url,
        &[
            "--device-ttl",
            "2",
            "--max-pending-per-peer",
            "64",
            "--max-failures-per-minute",
            "40",
        ],
    );
    let (code, handle) = device(&short.addr, "alice");
    assert_eq!(poll(a, &handle, 0).status, 200);
    std::thread::sleep(Duration::from_millis(3100));
    for z in [a, b, c, &short.addr] {
        assert_eq!(poll(z, &handle, 0).status, 404, "{z}");
        let (st, _, e) = login_with_code(z, "alice", &k, &code);
        assert_eq!(st, 2, "{e}");
        assert!(e.contains("unknown, used or expired code"), "{e}");
    }
    // unknown and malformed handles are 404 everywhere
    for h in ["00".repeat(32), "zz".into(), "0".repeat(5000)] {
        assert_eq!(poll(b, &h, 0).status, 404);
    }
    assert_eq!(short.stop().0, Some(0));
    for srv in s {
        let (code, log) = srv.stop();
        assert_eq!(code, Some(0), "{log}");
    }
    // expired rows are purged by the next start
    let again = start(&url, &extra);
    let (_, log) = again.stop();
    assert!(log.contains(" 1 expired device codes"), "{log}");
    assert_eq!(
        pg.psql(
            "device",
            &format!(
                "SELECT count(*) FROM zkg_device_codes WHERE expires <= {}",
                now()
            )
        )
        .trim(),
        "0"
    );
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// The per-address limit of pending device codes and the schema migration from version 1
/// (no device codes) hold across instances.
#[test]
fn device_code_limits_and_the_migration_from_version_1() {
    let Some(pg) = pg("devlimit") else { return };
    let url = pg.database("devlimit");
    // a version 1 database: what the previous build created, with a user in it
    let s = instances(&url, 1, &[]);
    let alice = key(1);
    assert_eq!(register(&s[0].addr, "alice", &alice), 201);
    s.into_iter().for_each(|x| {
        x.stop();
    });
    pg.psql(
        "devlimit",
        "DROP TABLE zkg_device_codes; UPDATE zkg_schema_version SET version = 1",
    );
    let s = instances(&url, 2, &["--max-pending-per-peer", "3"]);
    assert_eq!(
        pg.psql("devlimit", "SELECT version FROM zkg_schema_version")
            .trim(),
        "3"
    );
    let (a, b) = (&s[0].addr, &s[1].addr);
    assert_eq!(register(b, "alice", &key(2)), 409, "the user kept");
    // three pending codes from this address, spread over both instances: the fourth is
    // refused at either, with the wait until the oldest expires
    for z in [a, b, a] {
        device(z, "alice");
    }
    for z in [a, b] {
        let r = post(z, "/v1/device", &json!({ "name": "alice" }));
        assert_eq!(r.status, 429, "{}", r.text());
        let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=300).contains(&wait), "{wait}");
    }
    for x in s {
        let (code, log) = x.stop();
        assert_eq!(code, Some(0), "{log}");
    }
}
