//! Hostile clients against the servers, through the binaries (issue 21, items 1–3):
//!
//! 1. nobody can lock another user out: limits are per address (failed logins, pending
//!    challenges, registrations), never per user name;
//! 2. (tests/equal_refusals.rs, a binary of its own so that no sibling test loads the
//!    machine while it measures);
//! 3. idle and trickling connections from many addresses cannot starve `auth serve`,
//!    `peg serve` or `wall serve`; a full server and an address over its limit answer with a
//!    retry-after in the protocol's own terms.
//!
//! Clients at other addresses than 127.0.0.1 are sockets bound to 127.0.0.x before they
//! connect (Linux loopback, [`common::connect_from`]); the hostile side runs in this process,
//! the honest side through the `prover` binary from 127.0.0.1.
#![cfg(target_os = "linux")]

use std::io::Write;
use std::net::{Ipv4Addr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use zkgames::auth::keys::SecretKey;
use zkgames::auth::server::{begin_login, finish_login, login, register};
use zkgames::auth::Kind;
use zkgames::net::Channel;
use zkgames::rng::seeded_rng;

use crate::common;
use common::{add_user, auth_server, connect_from, keygen, p, prover_peg, run, Server, PROVER};

fn lo(last: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, last)
}

fn ch_from(from: u8, addr: &str) -> Channel {
    common::channel(connect_from(lo(from), addr).unwrap())
}

// ------------------------------------------------------------------ 1. per address

/// 50 failed logins for alice from 127.0.0.2 (a 5-byte garbage proof each) limit 127.0.0.2,
/// not alice: she logs in at once from 127.0.0.1 through the binary. Pending challenges and
/// registrations are limited per address the same way, with a retry-after on the wire.
#[test]
fn nobody_can_lock_another_user_out() {
    let d = common::fresh_dir("hostile", "lockout");
    let db = d.join("u.db");
    let alice = add_user(&d, &db, "alice", "lowmc");
    let srv = auth_server(
        &db,
        &[
            "--max-pending-per-peer",
            "4",
            "--max-registrations-per-hour",
            "3",
        ],
    );
    let a = srv.addr.clone();
    let (mut failed, mut limited) = (0, 0);
    for _ in 0..50 {
        let mut ch = ch_from(2, &a);
        match begin_login(&mut ch, "alice") {
            Ok(_) => {
                let e = finish_login(&mut ch, b"\x00\x01\x02\x03\x04".to_vec()).unwrap_err();
                assert!(e.to_string().contains("authentication failed"), "{e}");
                failed += 1;
            }
            Err(e) => {
                assert!(
                    e.exit_code() == 75 && e.to_string().contains("try again in"),
                    "{e}"
                );
                limited += 1;
            }
        }
    }
    // the default budget: five failures a minute, then the address waits
    assert_eq!((failed, limited), (5, 45));
    // alice, from her own address, at once, through the binary
    let t0 = Instant::now();
    let (c, out, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &a]);
    assert_eq!(c, 0, "alice locked out by someone else's failures: {e}");
    assert_eq!(out.trim().len(), 64, "{out}");
    assert!(t0.elapsed() < Duration::from_secs(10));
    // even alice's key is refused from the attacker's address while it waits (the address
    // is limited before any proof is verified), with a retry-after
    let key = SecretKey::parse(&std::fs::read_to_string(&alice).unwrap()).unwrap();
    let e = login(&mut ch_from(2, &a), "alice", &key, None).unwrap_err();
    assert!(
        e.exit_code() == 75 && e.to_string().contains("try again in"),
        "{e}"
    );

    // pending challenges: 127.0.0.3 holds 4 unanswered nonces, the 5th waits; others do not
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut ch = ch_from(3, &a);
        begin_login(&mut ch, "alice").unwrap();
        held.push(ch);
    }
    let e = begin_login(&mut ch_from(3, &a), "alice").unwrap_err();
    assert!(
        e.exit_code() == 75 && e.to_string().contains("try again in"),
        "{e}"
    );
    let (c, _, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &a]);
    assert_eq!(c, 0, "{e}");

    // registrations: 127.0.0.4 makes 3, the 4th waits (retry-after on the wire); 127.0.0.1
    // registers through the binary
    let mut rng = seeded_rng(44);
    let mut id = || {
        SecretKey::generate(Kind::Lowmc, &mut rng)
            .unwrap()
            .identity()
    };
    for i in 0..3 {
        register(&mut ch_from(4, &a), &format!("spam{i}"), &id()).unwrap();
    }
    let e = register(&mut ch_from(4, &a), "spam3", &id()).unwrap_err();
    assert!(
        e.exit_code() == 75 && e.to_string().contains("try again in"),
        "{e}"
    );
    let bk = d.join("bob.key");
    keygen("lowmc", bk.to_str().unwrap());
    let (c, _, e) = run(
        PROVER,
        &["auth", "register", "bob", "--key", bk.to_str().unwrap(), &a],
    );
    assert_eq!(c, 0, "{e}");
    drop(held);
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0), "{log}");
}

// ------------------------------------------------------------------ 3. idle connections

/// Keeps a connection from 127.0.0.`from` trickling a byte a second (after a plausible
/// length prefix) and reconnects when the server closes it, until `stop`.
fn trickler(addr: String, from: u8, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut connections = 0;
        while !stop.load(Ordering::SeqCst) {
            let Ok(mut s) = connect_from(lo(from), &addr) else {
                std::thread::sleep(Duration::from_millis(100));
                continue;
            };
            connections += 1;
            let mut ok = s.write_all(&1000u32.to_le_bytes()).is_ok();
            while ok && !stop.load(Ordering::SeqCst) {
                for _ in 0..10 {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                ok = s.write_all(b"x").is_ok();
            }
        }
        connections
    })
}

/// 2 × `max` idle connections over 16 addresses (made afresh before every round, so the
/// server is always full of them) plus a trickling one; `honest` must succeed within 3 s,
/// 10 times in a row. Returns the server's log.
fn starve(srv: Server, max: usize, honest: impl Fn() -> (i32, String)) -> String {
    let a = srv.addr.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let t = trickler(a.clone(), 40, Arc::clone(&stop));
    let mut idle: Vec<TcpStream> = Vec::new();
    for round in 0..10 {
        idle.clear();
        for i in 0..2 * max {
            idle.push(connect_from(lo(2 + (i % 16) as u8), &a).unwrap());
        }
        // let the accept loop take them all (it fills up, then evicts the oldest)
        std::thread::sleep(Duration::from_millis(300));
        let t0 = Instant::now();
        let (c, err) = honest();
        let took = t0.elapsed();
        assert_eq!(c, 0, "round {round}: {err}\n{}", srv.log());
        assert!(
            took < Duration::from_secs(3),
            "round {round}: the honest client took {took:?}"
        );
    }
    drop(idle);
    stop.store(true, Ordering::SeqCst);
    let (code, log) = srv.stop();
    assert!(t.join().unwrap() >= 1);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("evicted"), "{log}");
    log
}

#[test]
fn idle_connections_cannot_starve_auth_serve() {
    let d = common::fresh_dir("hostile", "idle-auth");
    let db = d.join("u.db");
    let alice = add_user(&d, &db, "alice", "lowmc");
    let srv = auth_server(&db, &["--max-sessions", "8", "--timeout", "30"]);
    let a = srv.addr.clone();
    starve(srv, 8, || {
        let (c, _, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &a]);
        (c, e)
    });
}

#[test]
fn idle_connections_cannot_starve_peg_serve() {
    let srv = Server::spawn(&[
        "peg",
        "serve",
        "tee",
        "--listen",
        "127.0.0.1:0",
        "--security",
        "32",
        "--max-sessions",
        "8",
        "--timeout",
        "30",
    ]);
    let a = srv.addr.clone();
    let sol = p("puzzles/raw/tee.solution");
    starve(srv, 8, || {
        let (c, _, e) = prover_peg("connect", "tee", &sol, &[&a, "--security", "32"]);
        (c, e)
    });
}

#[test]
fn idle_connections_cannot_starve_wall_serve() {
    let pos = p("puzzles/wall/cat-and-mouse-8x8.txt");
    let srv = Server::spawn(&[
        "wall",
        "serve",
        &pos,
        "--listen",
        "127.0.0.1:0",
        "--max-sessions",
        "8",
        "--timeout",
        "30",
    ]);
    let a = srv.addr.clone();
    starve(srv, 8, || {
        let (c, _, e) = run(PROVER, &["wall", "connect", &pos, "--move", ">d5", &a]);
        (c, e)
    });
}

/// A server whose sessions are all at work refuses a newcomer at once with a retry-after,
/// and so does an address over its connection limit; the login client reports it.
#[test]
fn full_servers_and_busy_addresses_say_when_to_retry() {
    let d = common::fresh_dir("hostile", "busy");
    let db = d.join("u.db");
    let alice = add_user(&d, &db, "alice", "lowmc");
    let srv = auth_server(
        &db,
        &[
            "--max-sessions",
            "2",
            "--max-per-address",
            "1",
            "--timeout",
            "30",
            // the held sessions keep their places for the whole test
            "--evict-after",
            "600",
        ],
    );
    let a = srv.addr.clone();
    // 127.0.0.5 at work (a login begun, its proof pending): a second connection from it is
    // over the per-address limit
    let mut w1 = ch_from(5, &a);
    begin_login(&mut w1, "alice").unwrap();
    let e = begin_login(&mut ch_from(5, &a), "alice").unwrap_err();
    assert!(
        e.exit_code() == 75
            && e.to_string().contains("too many connections")
            && e.to_string().contains("try again in 1 s"),
        "{e}"
    );
    // 127.0.0.6 at work too: the server is full of working sessions, nothing to evict
    let mut w2 = ch_from(6, &a);
    begin_login(&mut w2, "alice").unwrap();
    let (c, _, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &a]);
    assert_eq!(c, 75, "{e}");
    assert!(e.contains("busy") && e.contains("try again in 1 s"), "{e}");
    drop((w1, w2));
    std::thread::sleep(Duration::from_millis(500));
    let (c, _, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &a]);
    assert_eq!(c, 0, "{e}");
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0));
    assert!(log.contains("turned away"), "{log}");
}

/// The server's peak resident memory (`VmHWM`), in KiB.
fn peak_kib(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let l = s.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    l.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A first frame over 64 KiB is refused on its length prefix, before its body is read:
/// twelve clients from twelve addresses each announce 32 MiB and keep sending; each is cut
/// off long before it has sent it all (the server never buffers it), the server's peak
/// memory stays within a few megabytes of where it started, and an honest prover is served
/// meanwhile.
#[test]
fn huge_first_frames_are_refused_before_their_bodies() {
    let srv = Server::spawn(&[
        "peg",
        "serve",
        "tee",
        "--listen",
        "127.0.0.1:0",
        "--security",
        "32",
        "--max-sessions",
        "16",
        "--timeout",
        "30",
    ]);
    let a = srv.addr.clone();
    let before = peak_kib(srv.child.id());
    const ANNOUNCED: usize = 32 << 20;
    let t = Instant::now();
    let hostile: Vec<_> = (0..12u8)
        .map(|i| {
            let a = a.clone();
            std::thread::spawn(move || {
                let mut s = connect_from(lo(20 + i), &a).unwrap();
                s.set_write_timeout(Some(Duration::from_secs(20))).unwrap();
                s.write_all(&(ANNOUNCED as u32).to_le_bytes()).unwrap();
                let chunk = vec![0u8; 64 << 10];
                let mut sent = 0;
                while sent < ANNOUNCED {
                    match s.write(&chunk) {
                        Ok(n) => sent += n,
                        Err(_) => break,
                    }
                }
                sent
            })
        })
        .collect();
    let sol = p("puzzles/raw/tee.solution");
    let (c, _, e) = prover_peg("connect", "tee", &sol, &[&a, "--security", "32"]);
    assert_eq!(c, 0, "the honest prover was not served: {e}");
    let sent: Vec<usize> = hostile.into_iter().map(|h| h.join().unwrap()).collect();
    let took = t.elapsed();
    let after = peak_kib(srv.child.id());
    let pid = srv.child.id();
    let (_, log) = srv.stop();
    for s in &sent {
        assert!(
            *s < ANNOUNCED / 2,
            "a hostile client sent {s} bytes: {sent:?}\n{log}"
        );
    }
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert!(
        after < before + (16 << 10),
        "server {pid}'s peak memory grew from {before} to {after} KiB\n{log}"
    );
    assert!(
        log.contains("33554432-byte first message, over the 65536-byte limit of a first message"),
        "{log}"
    );
}

/// `verifier auth serve` on `db` over TCP and HTTP (free local ports, 20 s deadlines): the
/// server, its TCP address and its HTTP one.
fn tcp_and_http_server(db: &std::path::Path) -> (Server, String, String) {
    let srv = Server::spawn(&[
        "auth",
        "serve",
        "--db",
        db.to_str().unwrap(),
        "--http",
        "127.0.0.1:0",
        "--listen",
        "127.0.0.1:0",
        "--timeout",
        "20",
        "--first-message-timeout",
        "20",
    ]);
    std::thread::sleep(Duration::from_millis(200));
    let log = srv.log();
    let tcp = log
        .lines()
        .filter(|l| !l.contains("HTTP"))
        .flat_map(|l| l.split_whitespace())
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("{log}"))
        .trim_end_matches(':')
        .to_string();
    let http = srv.addr.clone();
    (srv, tcp, http)
}

/// The login service's bounds on a registration, computed from the identity bounds
/// (`auth::keys::max_identity_text`): over TCP, a first frame one byte over
/// `server::max_register_request` is refused on its length prefix (the client that sends
/// only the prefix is closed at once, twelve that send the whole body leave the server's
/// peak memory flat); over HTTP, a `/v1/register` body one byte over
/// `http::max_register_body` (and a `/v1/challenge` body over its small bound) is answered
/// 413 on its `Content-Length`. The largest identity the bounds allow registers over both,
/// and an honest peg key registers and logs in over both.
#[test]
fn registrations_over_the_computed_bound_are_refused_on_their_length() {
    use std::io::Read;
    use zkgames::auth::http::{max_register_body, MAX_SMALL_BODY};
    use zkgames::auth::keys::largest_peg_identity;
    use zkgames::auth::server::max_register_request;
    let d = common::fresh_dir("hostile", "register-bound");
    let db = d.join("u.db");
    let (srv, tcp, http) = tcp_and_http_server(&db);
    let over = max_register_request() + 1;
    let before = peak_kib(srv.child.id());
    // TCP: the length prefix alone is refused at once (the server would otherwise wait
    // up to 20 s for the body)
    let t = Instant::now();
    let mut s = TcpStream::connect(&tcp).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(&(over as u32).to_le_bytes()).unwrap();
    let mut rest = Vec::new();
    let r = s.read_to_end(&mut rest);
    assert!(
        r.is_ok() && t.elapsed() < Duration::from_secs(3),
        "{r:?} after {:?}",
        t.elapsed()
    );
    // twelve that send the whole body anyway, from twelve addresses
    let hostile: Vec<_> = (0..12u8)
        .map(|i| {
            let tcp = tcp.clone();
            std::thread::spawn(move || {
                let mut s = connect_from(lo(40 + i), &tcp).unwrap();
                s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
                let mut frame = (over as u32).to_le_bytes().to_vec();
                frame.resize(4 + over, b'a');
                let _ = s.write_all(&frame);
            })
        })
        .collect();
    for h in hostile {
        h.join().unwrap();
    }
    // HTTP: refused on the Content-Length, nothing of the body sent
    let len = (max_register_body() + 1).to_string();
    let json = ("Content-Type", "application/json");
    let t = Instant::now();
    let r = common::http::call(
        &http,
        "POST",
        "/v1/register",
        &[json, ("Content-Length", &len)],
        b"",
    );
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    let small = (MAX_SMALL_BODY + 1).to_string();
    let r = common::http::call(
        &http,
        "POST",
        "/v1/challenge",
        &[json, ("Content-Length", &small)],
        b"",
    );
    assert_eq!(r.status, 413, "{}", r.text());
    std::thread::sleep(Duration::from_millis(300));
    let after = peak_kib(srv.child.id());
    // the largest identity the bounds allow is served over both
    let big = largest_peg_identity();
    register(
        &mut common::channel(TcpStream::connect(&tcp).unwrap()),
        "big-tcp",
        &big,
    )
    .unwrap();
    let r = common::http::post(
        &http,
        "/v1/register",
        &serde_json::json!({"name": "big-http", "identity": big.to_text()}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    // an honest peg key, over TCP and HTTP
    let k = d.join("peg.key");
    let (c, _, e) = keygen("peg", k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let kp = k.to_str().unwrap();
    let url = format!("http://{http}");
    for (name, to) in [("pegtcp", tcp.as_str()), ("peghttp", url.as_str())] {
        let (c, _, e) = run(PROVER, &["auth", "register", name, "--key", kp, to]);
        assert_eq!(c, 0, "{name}: {e}");
        let (c, token, e) = run(PROVER, &["auth", "login", name, "--key", kp, to]);
        assert_eq!((c, token.trim().len()), (0, 64), "{name}: {e}");
    }
    let pid = srv.child.id();
    let (_, log) = srv.stop();
    assert!(
        log.contains(&format!(
            "{over}-byte first message, over the {}-byte limit",
            max_register_request()
        )),
        "{log}"
    );
    assert!(
        after < before + (4 << 10),
        "server {pid}'s peak memory grew from {before} to {after} KiB\n{log}"
    );
}

/// The login service's bound on a login proof, computed from the engines' encodings
/// (`auth::keys::max_login_proof`, the longest honest proof of any key kind): over TCP, a
/// proof frame one byte over `server::max_proof_request` after a challenge is refused on its
/// length prefix (the client that sends only the prefix is closed at once, twelve that send
/// the whole body leave the server's peak memory far below their 32 MB); over HTTP, a `/v1/login` body one
/// byte over `http::max_login_body` is answered 413 on its `Content-Length`. An honest peg
/// key (the kind with the longest proofs) logs in over both meanwhile, with every engine.
#[test]
fn login_proofs_over_the_computed_bound_are_refused_on_their_length() {
    use std::io::Read;
    use zkgames::auth::http::max_login_body;
    use zkgames::auth::server::max_proof_request;
    let d = common::fresh_dir("hostile", "proof-bound");
    let db = d.join("u.db");
    let (srv, tcp, http) = tcp_and_http_server(&db);
    let k = d.join("peg.key");
    let (c, _, e) = keygen("peg", k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let kp = k.to_str().unwrap();
    let (c, _, e) = run(PROVER, &["auth", "register", "peg", "--key", kp, &tcp]);
    assert_eq!(c, 0, "{e}");
    let over = max_proof_request() + 1;
    let before = peak_kib(srv.child.id());
    // TCP: after a challenge, the proof frame's length prefix alone is refused at once (the
    // server would otherwise wait up to 20 s for the body)
    let s = TcpStream::connect(&tcp).unwrap();
    let mut raw = s.try_clone().unwrap();
    let mut ch = common::channel(s);
    begin_login(&mut ch, "peg").unwrap();
    let t = Instant::now();
    raw.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    raw.write_all(&(over as u32).to_le_bytes()).unwrap();
    let mut rest = Vec::new();
    let r = raw.read_to_end(&mut rest);
    assert!(
        r.is_ok() && t.elapsed() < Duration::from_secs(3),
        "{r:?} after {:?}",
        t.elapsed()
    );
    // twelve that send the whole body anyway, from twelve addresses
    let hostile: Vec<_> = (0..12u8)
        .map(|i| {
            let tcp = tcp.clone();
            std::thread::spawn(move || {
                let s = connect_from(lo(60 + i), &tcp).unwrap();
                let mut raw = s.try_clone().unwrap();
                let mut ch = common::channel(s);
                begin_login(&mut ch, "peg").unwrap();
                raw.set_write_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                let mut frame = (over as u32).to_le_bytes().to_vec();
                frame.resize(4 + over, b'a');
                let _ = raw.write_all(&frame);
            })
        })
        .collect();
    for h in hostile {
        h.join().unwrap();
    }
    // HTTP: refused on the Content-Length, nothing of the body sent
    let len = (max_login_body() + 1).to_string();
    let t = Instant::now();
    let r = common::http::call(
        &http,
        "POST",
        "/v1/login",
        &[
            ("Content-Type", "application/json"),
            ("Content-Length", &len),
        ],
        b"",
    );
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(r
        .text()
        .contains(&format!("over {} bytes", max_login_body())));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    std::thread::sleep(Duration::from_millis(300));
    let after = peak_kib(srv.child.id());
    // the honest key logs in over both, with every engine
    let url = format!("http://{http}");
    for to in [tcp.as_str(), url.as_str()] {
        for system in ["zkbpp", "kkw", "vole"] {
            let (c, token, e) = run(
                PROVER,
                &["auth", "login", "peg", "--key", kp, "--system", system, to],
            );
            assert_eq!((c, token.trim().len()), (0, 64), "{to} {system}: {e}");
        }
    }
    let pid = srv.child.id();
    let (_, log) = srv.stop();
    assert!(
        log.contains(&format!(
            "the peer announced a {over}-byte message, over the {}-byte limit",
            max_proof_request()
        )),
        "{log}"
    );
    // twelve connections with a database connection and a challenge each cost a few
    // megabytes; their bodies, had they been read, 32 MB
    assert!(
        after < before + (16 << 10),
        "server {pid}'s peak memory grew from {before} to {after} KiB\n{log}"
    );
}
