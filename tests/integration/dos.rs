//! Issue 41's denial-of-service attacks, each run against the real binaries:
//!
//! * §1: proof files that ask a verifier for more work than an honest one are refused before
//!   the work (the forged `τ = 8, D = 128, w = 2` VOLE set, a 247-byte login preimage, a KKW
//!   set heavier than the login set); benches/dos.rs measures what the worst accepted shape
//!   costs against an honest verification;
//! * §2: busy connections from a few addresses (4 × 8 on TCP, 32 × 8 keep-alive on HTTP, and
//!   the same spread over 16 addresses) hold a full server: honest clients from another
//!   address are served all the same (the figures are printed: served out of N);
//! * §3: POSTs must be JSON, and pages of other origins cannot drive the API;
//! * §5: a hostile HTTP server cannot crash the client (the chunk size near 2^64);
//! * §6: errors do not echo input; a bad `?wait=` is JSON; a broken chunked body is 400.
//!
//! Clients at addresses other than 127.0.0.1 are sockets bound to 127.0.0.x ([`connect_from`]).
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use zkgames::mpc::engine::{Proof, System};
use zkgames::proof_file::ProofFile;

use crate::common;
use common::hold::{first_message, hold, served};
use common::http::{call, post, raw, start};
use common::{add_user, auth_server, connect_from, p, run, Server, PROVER, VERIFIER};

fn lo(a: u8, b: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, a, b)
}

// ------------------------------------------------------------------ §1 bounded work

/// A SHA-256 VOLE proof rewritten to the issue's forged parameters (`τ = 8`, 128-bit `Δ`,
/// 2 grinding bits: 524,288 leaves to expand) is refused as more work than any offered set, before any
/// work; so is a KKW proof whose parameters are heavier than every offered set.
#[test]
fn proofs_with_parameters_nobody_offers_are_refused_before_the_work() {
    let d = common::fresh_dir("dos", "offered");
    let proof = d.join("p.bin");
    let ps = proof.to_str().unwrap();
    let (c, _, e) = run(
        PROVER,
        &["sha256", "prove", "--preimage-hex", "616263", "-o", ps],
    );
    assert_eq!(c, 0, "{e}");
    let bytes = std::fs::read(&proof).unwrap();
    let file = ProofFile::from_bytes(&bytes).unwrap();
    let kind = zkgames::mpc::sha256::PROTOCOLS;
    let (len, pr): (u32, Proof) = Proof::read_file(&kind, &file, "p").unwrap();
    let Proof::Vole(mut v) = pr else {
        panic!("the default engine is VOLE")
    };
    v.params = zkgames::mpc::vole::Params::new(8, 128, 2);
    let forged = d.join("forged.bin");
    std::fs::write(&forged, Proof::Vole(v).file_bytes(&kind, &len).unwrap()).unwrap();
    let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    let t0 = Instant::now();
    let (c, _, e) = run(
        VERIFIER,
        &[
            "sha256",
            "verify",
            "--digest",
            digest,
            forged.to_str().unwrap(),
        ],
    );
    let took = t0.elapsed();
    assert_eq!(c, 1, "{e}");
    assert!(
        e.contains("more work than any offered set") && e.lines().count() == 1,
        "{e}"
    );
    println!("forged VOLE set (τ = 8, D = 128, w = 2): refused in {took:?} (process included)");
    // the honest file still verifies
    let (c, _, e) = run(VERIFIER, &["sha256", "verify", "--digest", digest, ps]);
    assert_eq!(c, 0, "{e}");
    // a KKW set heavier than any offered at 128 bits (4,096 executions of 16 parties, 36
    // online: 144 bits or more)
    let (c, _, e) = run(
        PROVER,
        &[
            "sha256",
            "prove",
            "--preimage-hex",
            "616263",
            "--system",
            "kkw",
            "-o",
            ps,
        ],
    );
    assert_eq!(c, 0, "{e}");
    let file = ProofFile::from_bytes(&std::fs::read(&proof).unwrap()).unwrap();
    let (len, pr): (u32, Proof) = Proof::read_file(&kind, &file, "p").unwrap();
    let Proof::Kkw(mut k) = pr else { panic!() };
    k.params = zkgames::mpc::kkw::Params::new(4096, 36, 16);
    std::fs::write(&forged, Proof::Kkw(k).file_bytes(&kind, &len).unwrap()).unwrap();
    let (c, _, e) = run(
        VERIFIER,
        &[
            "sha256",
            "verify",
            "--digest",
            digest,
            forged.to_str().unwrap(),
        ],
    );
    assert_eq!(c, 1, "{e}");
    assert!(e.contains("more work than any offered set"), "{e}");
    // a ZKB++ file of 2,048 rounds (the 128-bit verifier takes 219), and one of 2,049
    // (refused at its round count, before any round is read)
    let (c, _, e) = run(
        PROVER,
        &[
            "sha256",
            "prove",
            "--preimage-hex",
            "616263",
            "--system",
            "zkbpp",
            "-o",
            ps,
        ],
    );
    assert_eq!(c, 0, "{e}");
    let file = ProofFile::from_bytes(&std::fs::read(&proof).unwrap()).unwrap();
    let (len, pr): (u32, Proof) = Proof::read_file(&kind, &file, "p").unwrap();
    let Proof::Zkbpp(z) = pr else { panic!() };
    for (rounds, want) in [
        (2048, "2048 rounds, more than the 219"),
        (2049, "at most 2048"),
    ] {
        let mut f = z.clone();
        let r = f.rounds[0].clone();
        f.rounds.resize(rounds, r);
        f.challenges.resize(rounds.div_ceil(4), 0);
        std::fs::write(&forged, Proof::Zkbpp(f).file_bytes(&kind, &len).unwrap()).unwrap();
        let (c, _, e) = run(
            VERIFIER,
            &[
                "sha256",
                "verify",
                "--digest",
                digest,
                forged.to_str().unwrap(),
            ],
        );
        assert!(c == 1 || c == 2, "{rounds}: {e}");
        assert!(e.contains(want) && e.lines().count() == 1, "{rounds}: {e}");
    }
}

/// A login server takes only the exact login shape: a proof for a 247-byte preimage (the
/// most `sha256 prove` takes; a login preimage has 54 bytes) or at another parameter set is
/// refused at the cost of reading it, and counted as a failure.
#[test]
fn login_proofs_of_another_shape_are_refused_before_the_work() {
    use zkgames::auth::keys::{self, Identity, SecretKey};
    let mut rng = zkgames::rng::seeded_rng(41);
    let secret = [7u8; 32];
    let id = Identity::Sha256(keys::sha256_identity(&secret));
    let nonce = [1u8; 32];
    let ctx = keys::login_context("zkgames", "alice", &nonce).unwrap();
    let mut pre = keys::ID_TAG.to_vec();
    pre.extend_from_slice(&secret);
    assert_eq!(pre.len(), keys::LOGIN_PREIMAGE_LEN);
    let sys = keys::login_system(zkgames::mpc::engine::Engine::Vole);
    let good = zkgames::mpc::sha256::prove(&pre, &sys, &ctx, &mut rng).unwrap();
    keys::verify_login(&id, "zkgames", "alice", &nonce, &good).unwrap();
    // 247 bytes: another digest, but what matters is that nothing is verified
    let long = zkgames::mpc::sha256::prove(&[9u8; 247], &sys, &ctx, &mut rng).unwrap();
    let e = keys::verify_login(&id, "zkgames", "alice", &nonce, &long).unwrap_err();
    assert!(e.to_string().contains("54-byte preimage, not 247"), "{e}");
    // only the set a login sends is a login set: the speed set and the 100-bit set are
    // offered for files, not for logins (tests/integration/login_cost.rs covers every kind and engine)
    let speed = System::vole(128, zkgames::mpc::vole::Profile::Speed).unwrap();
    let fast = zkgames::mpc::sha256::prove(&pre, &speed, &ctx, &mut rng).unwrap();
    let e = keys::verify_login(&id, "zkgames", "alice", &nonce, &fast).unwrap_err();
    assert!(e.to_string().contains("login parameters"), "{e}");
    let weak = System::vole(100, zkgames::mpc::vole::Profile::Size).unwrap();
    let other = zkgames::mpc::sha256::prove(&pre, &weak, &ctx, &mut rng).unwrap();
    let e = keys::verify_login(&id, "zkgames", "alice", &nonce, &other).unwrap_err();
    assert!(e.to_string().contains("login parameters"), "{e}");
    let _ = SecretKey::Sha256(secret);
}

// ------------------------------------------------------------------ §2 busy connections

/// A TCP server full of busy connections (a valid first message each, then waiting)
/// from `addrs` addresses, `per` each; the honest client from 127.0.0.1 is served `n`
/// times out of `n`.
fn tcp_busy_attack(
    what: &str,
    srv: Server,
    hello: Vec<u8>,
    addrs: usize,
    per: usize,
    honest: impl Fn() -> (i32, String),
) {
    let stop = Arc::new(AtomicBool::new(false));
    let from: Vec<Ipv4Addr> = (0..addrs).map(|i| lo(1, 10 + i as u8)).collect();
    let t = hold(srv.addr.clone(), hello, from, per, Arc::clone(&stop));
    std::thread::sleep(Duration::from_millis(500));
    let n = 6;
    let ok = served(n, honest);
    stop.store(true, Ordering::SeqCst);
    let again = t.join().unwrap();
    let (code, log) = srv.stop();
    println!(
        "{what}: {addrs} addresses × {per} busy connections: honest served {ok} of {n} \
         ({again} hostile reconnections)"
    );
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(ok, n, "{log}");
    assert!(log.contains("evicted"), "{log}");
}

#[test]
fn busy_connections_yield_on_auth_serve() {
    let d = common::fresh_dir("dos", "busy-auth");
    let db = d.join("u.db");
    let alice = add_user(&d, &db, "alice", "lowmc");
    let hello = first_message(&["auth", "login", "alice", "--key", &alice, "ADDR"]);
    for (addrs, per) in [(4, 8), (16, 2)] {
        let srv = auth_server(&db, &["--max-sessions", "32"]);
        let a = srv.addr.clone();
        tcp_busy_attack("auth serve", srv, hello.clone(), addrs, per, || {
            let (c, _, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &a]);
            (c, e)
        });
    }
}

#[test]
fn busy_connections_yield_on_peg_serve() {
    let sol = p("puzzles/raw/tee.solution");
    let hello = first_message(&[
        "peg",
        "connect",
        "tee",
        "--solution",
        &sol,
        "ADDR",
        "--security",
        "32",
    ]);
    for (addrs, per) in [(4, 8), (16, 2)] {
        let srv = Server::spawn(&[
            "peg",
            "serve",
            "tee",
            "--listen",
            "127.0.0.1:0",
            "--security",
            "32",
        ]);
        let a = srv.addr.clone();
        tcp_busy_attack("peg serve", srv, hello.clone(), addrs, per, || {
            let (c, _, e) = common::prover_peg("connect", "tee", &sol, &[&a, "--security", "32"]);
            (c, e)
        });
    }
}

/// Keep-alive HTTP connections, `per` from each of `addrs` addresses, each sending
/// `GET /v1/whoami` every 500 ms (and reconnecting when closed), until `stop`.
fn hold_keepalive(
    addr: String,
    addrs: usize,
    per: usize,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<(usize, usize)> {
    let req = format!(
        "GET /v1/whoami HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\n\r\n",
        "ab".repeat(32)
    );
    let connect = {
        let (addr, req) = (addr.clone(), req.clone());
        move |ip: Ipv4Addr| {
            let mut s = connect_from(ip, &addr).ok()?;
            s.write_all(req.as_bytes()).ok()?;
            s.set_nonblocking(true).ok()?;
            Some(s)
        }
    };
    let mut held: Vec<(Ipv4Addr, Option<TcpStream>)> = Vec::new();
    for i in 0..addrs {
        for _ in 0..per {
            let ip = lo(2, 10 + i as u8);
            held.push((ip, connect(ip)));
        }
    }
    std::thread::spawn(move || {
        let (mut again, mut answers) = (0, 0);
        let mut buf = [0u8; 8192];
        let mut last = Instant::now();
        while !stop.load(Ordering::SeqCst) {
            let send = last.elapsed() > Duration::from_millis(500);
            if send {
                last = Instant::now();
            }
            for (ip, s) in held.iter_mut() {
                let closed = match s {
                    None => true,
                    Some(st) => match st.read(&mut buf) {
                        Ok(0) => true,
                        Ok(n) => {
                            answers += buf[..n].windows(9).filter(|w| w == b"HTTP/1.1 ").count();
                            send && st.write_all(req.as_bytes()).is_err()
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                            send && st.write_all(req.as_bytes()).is_err()
                        }
                        Err(_) => true,
                    },
                };
                if closed {
                    *s = connect(*ip);
                    again += 1;
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        (again, answers)
    })
}

/// The issue's HTTP attack: 32 addresses × 8 keep-alive connections fill the 256 places;
/// a client from a fresh address sends `GET /v1/whoami` 20 times (a connection each) and
/// logs in through the binary 3 times: all served. Then the same 256 spread over 128 addresses (2 each).
#[test]
fn busy_keepalive_connections_yield_on_the_http_service() {
    let d = common::fresh_dir("dos", "busy-http");
    let db = d.join("u.db");
    let alice = add_user(&d, &db, "alice", "sha256");
    for (addrs, per) in [(32, 8), (128, 2)] {
        let srv = start(db.to_str().unwrap(), &["--max-connections", "256"]);
        let a = srv.addr.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let t = hold_keepalive(a.clone(), addrs, per, Arc::clone(&stop));
        std::thread::sleep(Duration::from_millis(1500));
        let n = 20;
        // a request on a fresh connection, answered (401: the token is unknown) rather than
        // turned away (503, 429)
        let token = "cd".repeat(32);
        let ok = served(n, || {
            let r = common::http::get_auth(&a, "/v1/whoami", &token);
            (if r.status == 401 { 0 } else { r.status as i32 }, r.text())
        });
        let url = format!("http://{a}");
        let logins = served(3, || {
            let (c, _, e) = run(PROVER, &["auth", "login", "alice", "--key", &alice, &url]);
            (c, e)
        });
        stop.store(true, Ordering::SeqCst);
        let (again, answers) = t.join().unwrap();
        let (code, log) = srv.stop();
        println!(
            "auth serve --http: {addrs} addresses × {per} keep-alive connections \
             ({answers} hostile answers, {again} reconnections): requests served {ok} of \
             {n}, logins {logins} of 3"
        );
        assert_eq!(code, Some(0));
        assert_eq!((ok, logins), (n, 3), "{log}");
        assert!(
            answers > addrs * per,
            "the hostile connections were served too"
        );
    }
}

/// A connection makes at most 100 requests; the 100th answer says `Connection: close`.
#[test]
fn keepalive_connections_are_capped_in_requests() {
    let d = common::fresh_dir("dos", "keepalive");
    let srv = start(d.join("u.db").to_str().unwrap(), &[]);
    let mut s = TcpStream::connect(&srv.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let req = format!("GET /v1/whoami HTTP/1.1\r\nHost: {}\r\n\r\n", srv.addr);
    let mut all = Vec::new();
    for _ in 0..101 {
        if s.write_all(req.as_bytes()).is_err() {
            break;
        }
    }
    let _ = s.read_to_end(&mut all);
    let text = String::from_utf8_lossy(&all);
    assert_eq!(text.matches("HTTP/1.1 401").count(), 100, "{text}");
    assert_eq!(text.matches("connection: close").count(), 1, "{text}");
    srv.stop();
}

// ------------------------------------------------------------------ §3 other origins

#[test]
fn posts_must_be_json_and_other_origins_are_refused() {
    let d = common::fresh_dir("dos", "cors");
    let srv = start(
        d.join("u.db").to_str().unwrap(),
        &["--allow-origin", "https://Games.Example/"],
    );
    let a = srv.addr.clone();
    let body = br#"{"name":"alice"}"#;
    // a simple cross-origin request: text/plain, as a form or fetch(no-cors) sends it
    let r = call(
        &a,
        "POST",
        "/v1/challenge",
        &[("Content-Type", "text/plain")],
        body,
    );
    assert_eq!(r.status, 415, "{}", r.text());
    let r = call(&a, "POST", "/v1/challenge", &[], body);
    assert_eq!(r.status, 415);
    let json = ("Content-Type", "application/json; charset=utf-8");
    // from another origin: refused before any work, and nothing says it may read
    for evil in ["https://evil.example", "null"] {
        let r = call(&a, "POST", "/v1/challenge", &[json, ("Origin", evil)], body);
        assert_eq!(r.status, 403, "{evil}: {}", r.text());
        assert!(r.header("access-control-allow-origin").is_none());
        let r = call(
            &a,
            "OPTIONS",
            "/v1/challenge",
            &[
                ("Origin", evil),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ],
            b"",
        );
        assert!(r.header("access-control-allow-origin").is_none(), "{evil}");
        assert!(r.header("access-control-allow-methods").is_none(), "{evil}");
    }
    // an allowed origin, and the server's own page
    let own = format!("http://{a}");
    for good in ["https://games.example", own.as_str()] {
        let r = call(&a, "POST", "/v1/challenge", &[json, ("Origin", good)], body);
        assert_eq!(r.status, 200, "{good}: {}", r.text());
        assert_eq!(r.header("access-control-allow-origin"), Some(good));
    }
    // no Origin (a command-line client): as before
    let r = post(&a, "/v1/challenge", &json!({ "name": "alice" }));
    assert_eq!(r.status, 200);
    assert!(r.header("access-control-allow-origin").is_none());
    srv.stop();
    // a malformed --allow-origin is refused at start
    let (c, _, e) = run(
        VERIFIER,
        &[
            "auth",
            "serve",
            "--db",
            d.join("v.db").to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
            "--allow-origin",
            "games.example/path",
        ],
    );
    assert_eq!(c, 2, "{e}");
}

// ------------------------------------------------------------------ §5 hostile server

/// A fake HTTP server that answers every connection with `answer`, for `n` connections.
fn fake_server(answer: Vec<u8>, n: usize) -> (String, std::thread::JoinHandle<()>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let a = l.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        for _ in 0..n {
            let Ok((mut s, _)) = l.accept() else { return };
            s.set_read_timeout(Some(Duration::from_millis(500)))
                .unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(&answer);
        }
    });
    (a, h)
}

/// The answers a hostile server may give; the client exits with a one-line error (never
/// 101, never a Rust message), whatever they are.
#[test]
fn a_hostile_server_cannot_crash_the_client() {
    let token = "ab".repeat(32);
    let huge = vec![b'a'; 3 << 20];
    let mut big = b"HTTP/1.1 200 OK\r\ncontent-length: 3145728\r\n\r\n".to_vec();
    big.extend_from_slice(&huge);
    let mut long_head = b"HTTP/1.1 200 OK\r\n".to_vec();
    long_head.extend(std::iter::repeat_n(b"x-a: b\r\n".as_slice(), 5000).flatten());
    long_head.extend_from_slice(b"\r\n{}");
    let answers: Vec<Vec<u8>> = vec![
        // the issue's 72 bytes: a chunk size near 2^64
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nfffffffffffffff0\r\n{}\r\n0\r\n\r\n"
            .to_vec(),
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        b"HTTP/1.1 200 OK\r\ncontent-length: 99999999999999999999\r\n\r\n{}".to_vec(),
        b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{}".to_vec(),
        b"HTTP/9 200\r\n\r\n".to_vec(),
        b"\x00\x00\x00\x05hello".to_vec(),
        b"HTTP/1.1 200 OK\r\n\r\nnot json".to_vec(),
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]".to_vec(),
        b"HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:1/\r\ncontent-length: 0\r\n\r\n"
            .to_vec(),
        big,
        long_head,
        Vec::new(),
    ];
    for ans in answers {
        let (a, h) = fake_server(ans.clone(), 1);
        let url = format!("http://{a}");
        let (c, out, e) = run(
            PROVER,
            &["auth", "whoami", "--token", &token, &url, "--timeout", "3"],
        );
        h.join().unwrap();
        let shown = String::from_utf8_lossy(&ans[..ans.len().min(60)]).into_owned();
        assert!(
            c == 1 || c == 2 || c == 74 || c == 75,
            "{shown:?}: exit {c}: {e}"
        );
        assert!(out.is_empty(), "{shown:?}: {out}");
        assert_eq!(e.trim().lines().count(), 1, "{shown:?}: {e}");
        assert!(!e.contains("panicked") && !e.contains("Error {"), "{e}");
        assert!(e.len() < 400, "{shown:?}: {e}");
    }
}

// ------------------------------------------------------------------ §6 smaller ones

#[test]
fn errors_do_not_echo_input_and_are_json() {
    let d = common::fresh_dir("dos", "echo");
    let srv = start(d.join("u.db").to_str().unwrap(), &[]);
    let a = srv.addr.clone();
    let name = "a'; drop table users;--";
    let r = post(&a, "/v1/challenge", &json!({ "name": name }));
    assert_eq!(r.status, 400);
    assert!(!r.text().contains("drop table"), "{}", r.text());
    let r = call(&a, "GET", "/v1/device/abc?wait=banana", &[], b"");
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.json()["error"].is_string(), "{}", r.text());
    // a chunked body with a broken chunk size: malformed (400), not too large
    let req = format!(
        "POST /v1/challenge HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{{}}\r\n0\r\n\r\n"
    );
    let r = raw(&a, req.as_bytes());
    assert_eq!(r.status, 400, "{}", r.text());
    srv.stop();
    let _ = Mutex::new(0);
}

// ------------------------------------------------------------------ §6 device-code guesses

/// `POST path` of JSON `v` from a socket bound to `from`; the answer.
fn post_from(from: Ipv4Addr, addr: &str, path: &str, v: &serde_json::Value) -> common::http::Resp {
    let mut s = connect_from(from, addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = v.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    common::http::parse(&buf)
}

/// Wrong device codes count against the guessing address as failed logins do (five, then
/// 429 with Retry-After, even for a right code), at the code lookup and at the login alike;
/// other addresses are not affected and the code stays good for them; the prover's own
/// guesses from 127.0.0.1 end in exit 75.
#[test]
fn device_code_guesses_are_limited_per_address() {
    let d = common::fresh_dir("dos", "guess");
    let db = d.join("u.db");
    let key = add_user(&d, &db, "alice", "sha256");
    let srv = start(db.to_str().unwrap(), &[]);
    let a = srv.addr.clone();
    let v = post_from(lo(9, 1), &a, "/v1/device", &json!({"name": "alice"})).json();
    let code = v["code"].as_str().unwrap().to_string();
    let wrong = |i: usize| {
        format!(
            "BCDF-{}",
            ["GHJK", "GHJL", "GHJM", "GHJN", "GHJP", "GHJQ"][i]
        )
    };
    // at the lookup
    for i in 0..5 {
        let r = post_from(
            lo(9, 2),
            &a,
            "/v1/device/lookup",
            &json!({"name": "alice", "code": wrong(i)}),
        );
        assert_eq!(r.status, 400, "guess {i}: {}", r.text());
    }
    let r = post_from(
        lo(9, 2),
        &a,
        "/v1/device/lookup",
        &json!({"name": "alice", "code": code}),
    );
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    // at the login (checked before any proof is read)
    let login = |from, c: &str| {
        post_from(
            from,
            &a,
            "/v1/login",
            &json!({"name": "alice", "challenge": "00".repeat(32),
            "system": "vole", "proof": "AAAA", "code": c}),
        )
    };
    for i in 0..5 {
        let r = login(lo(9, 3), &wrong(i));
        assert_eq!(r.status, 400, "login guess {i}: {}", r.text());
    }
    assert_eq!(login(lo(9, 3), &wrong(5)).status, 429);
    // another address: the code is still good
    let r = post_from(
        lo(9, 4),
        &a,
        "/v1/device/lookup",
        &json!({"name": "alice", "code": code}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["requested_from"], "127.0.9.1");
    // the binary's guesses, from 127.0.0.1
    let url = format!("http://{a}");
    let mut codes = vec![];
    for i in 0..6 {
        let (c, _, e) = run(
            PROVER,
            &[
                "auth",
                "login",
                "alice",
                "--key",
                &key,
                "--code",
                &wrong(i),
                "--yes",
                &url,
            ],
        );
        assert_eq!(e.lines().count(), 1, "{e}");
        codes.push(c);
    }
    assert_eq!(
        codes,
        [2, 2, 2, 2, 2, 75],
        "five wrong codes, then try again later"
    );
    srv.stop();
}
