//! The HTTP API of the login service end to end: `verifier auth serve --http` as a process,
//! clients through `prover auth … http://…` and through a raw HTTP client written apart
//! (tests/integration/common/http.rs). Register (201, 409), challenge, login (200, 401), whoami, logout;
//! replays refused; wrong keys and unknown names answered alike; malformed (400), too large
//! (413), rate limited (429 with Retry-After), busy (503); every route docs/openapi.yaml
//! names answers as described; the TCP and HTTP services on one database are one service;
//! two server processes on one SQLite file share the page's device codes, which survive a
//! restart.

use std::io::Write;
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};
use zkgames::auth::keys::{prove_login, prove_login_with, SecretKey};
use zkgames::auth::Kind;
use zkgames::mpc::engine::Engine;
use zkgames::rng::seeded_rng;

use crate::common;
use common::http::{call, get_auth, post, start};
use common::{keygen, Server, PROVER};

fn dir(name: &str) -> PathBuf {
    common::fresh_dir("auth-http", name)
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::run(PROVER, args)
}

fn key(seed: u64) -> SecretKey {
    SecretKey::generate(Kind::Sha256, &mut seeded_rng(seed)).unwrap()
}

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// Registers `name` with `k` through the raw client; the status.
fn register(a: &str, name: &str, k: &SecretKey) -> u16 {
    post(
        a,
        "/v1/register",
        &json!({"name": name, "identity": k.identity().to_text()}),
    )
    .status
}

/// A challenge for `name`: (server, nonce hex).
fn challenge(a: &str, name: &str) -> (String, String) {
    let r = post(a, "/v1/challenge", &json!({ "name": name }));
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    (
        v["server"].as_str().unwrap().to_string(),
        v["challenge"].as_str().unwrap().to_string(),
    )
}

fn nonce(hex_: &str) -> [u8; 32] {
    hex::decode(hex_).unwrap().try_into().unwrap()
}

fn login_req(a: &str, name: &str, ch: &str, proof: &[u8]) -> common::http::Resp {
    post(
        a,
        "/v1/login",
        &json!({"name": name, "challenge": ch, "system": "zkbpp", "proof": b64(proof)}),
    )
}

/// A whole login through the raw client: (status, body).
fn login(a: &str, name: &str, k: &SecretKey, seed: u64) -> (u16, Value) {
    let (server, ch) = challenge(a, name);
    let proof = prove_login(k, &server, name, &nonce(&ch), &mut seeded_rng(seed)).unwrap();
    let r = login_req(a, name, &ch, &proof);
    (r.status, r.json())
}

#[test]
fn the_binaries_register_login_whoami_logout_over_http() {
    let d = dir("cli");
    let db = d.join("users.db");
    let srv = start(db.to_str().unwrap(), &[]);
    let url = format!("http://{}", srv.addr);
    let k = d.join("alice.key");
    let (c, _, e) = keygen("sha256", k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let kp = k.to_str().unwrap();
    let (c, _, e) = run(&["auth", "register", "alice", "--key", kp, &url]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = run(&["auth", "register", "alice", "--key", kp, &url]);
    assert_eq!(c, 2, "a taken name: {e}");
    assert!(!e.contains("REJECTED"), "{e}");
    assert!(e.contains("taken") && e.lines().count() == 1, "{e}");
    let (c, token, e) = run(&["auth", "login", "alice", "--key", kp, &url]);
    assert_eq!(c, 0, "{e}");
    assert!(e.contains("verified in"), "{e}");
    let token = token.trim().to_string();
    assert_eq!(token.len(), 64);
    let (c, out, e) = run(&["auth", "whoami", &url, "--token", &token]);
    assert_eq!((c, out.trim()), (0, "alice"), "{e}");
    // KKW proofs too
    let (c, t2, e) = run(&[
        "auth", "login", "alice", "--key", kp, "--system", "kkw", &url,
    ]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = run(&["auth", "logout", &url, "--token", &token]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = run(&["auth", "whoami", &url, "--token", &token]);
    assert_eq!(c, 1, "a revoked token: {e}");
    let (c, _, e) = run(&["auth", "logout", &url, "--token", &token]);
    assert_eq!(c, 1, "{e}");
    let (c, out, _) = run(&["auth", "whoami", &url, "--token", t2.trim()]);
    assert_eq!((c, out.trim()), (0, "alice"));
    // an aes128 key registers and logs in over HTTP (VOLE, the default, and ZKB++)
    let ka = d.join("anna.key");
    let (c, _, e) = keygen("aes128", ka.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let kap = ka.to_str().unwrap();
    let (c, _, e) = run(&["auth", "register", "anna", "--key", kap, &url]);
    assert_eq!(c, 0, "{e}");
    for sys in ["vole", "zkbpp"] {
        let (c, t, e) = run(&["auth", "login", "anna", "--key", kap, "--system", sys, &url]);
        assert_eq!(c, 0, "{sys}: {e}");
        let (c, out, _) = run(&["auth", "whoami", &url, "--token", t.trim()]);
        assert_eq!((c, out.trim()), (0, "anna"));
    }
    // a wrong key and an unknown name: exit 1, the same one line
    let m = d.join("mallory.key");
    keygen("sha256", m.to_str().unwrap());
    let mp = m.to_str().unwrap();
    let (c1, _, e1) = run(&["auth", "login", "alice", "--key", mp, &url]);
    let (c2, _, e2) = run(&["auth", "login", "nobody", "--key", mp, &url]);
    assert_eq!((c1, c2), (1, 1), "{e1}{e2}");
    assert_eq!(e1, e2);
    assert_eq!(e1.lines().count(), 1);
    // bad URLs and a dead server: exit 2, one line
    for bad in ["https://127.0.0.1:1", "http://", "http://a b"] {
        let (c, _, e) = run(&["auth", "whoami", bad, "--token", &token]);
        assert_eq!(c, 2, "{bad}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    let (c, _, e) = run(&[
        "auth", "login", "alice", "--key", kp, "--code", "ABCD", &srv.addr,
    ]);
    assert_eq!(c, 2, "--code over TCP: {e}");
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("ok login alice"), "{log}");
    let (c, _, e) = run(&["auth", "whoami", &url, "--token", &token, "--timeout", "2"]);
    assert_eq!(c, 2, "server gone: {e}");
    // the audit log has it all, in the same table as the TCP service's
    let st = zkgames::auth::Store::open_existing(
        &db,
        zkgames::auth::Clock::System,
        zkgames::auth::Policy::default(),
    )
    .unwrap();
    let events: Vec<String> = st
        .audit(100)
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect();
    for ev in ["register", "login-ok", "login-fail", "logout"] {
        assert!(events.iter().any(|e| e == ev), "{ev} not in {events:?}");
    }
}

#[test]
fn api_statuses_replays_and_refusals() {
    let d = dir("api");
    let srv = start(d.join("u.db").to_str().unwrap(), &[]);
    let a = srv.addr.as_str();
    let alice = key(1);
    assert_eq!(register(a, "alice", &alice), 201);
    assert_eq!(register(a, "alice", &key(2)), 409);
    let r = post(
        a,
        "/v1/register",
        &json!({"name": "alice", "identity": "x"}),
    );
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].is_string());
    // login, then the same proof again (same challenge, then a fresh one)
    let (server, ch) = challenge(a, "alice");
    assert_eq!(server, "zkgames");
    let proof = prove_login(&alice, &server, "alice", &nonce(&ch), &mut seeded_rng(5)).unwrap();
    let r = login_req(a, "alice", &ch, &proof);
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let token = v["token"].as_str().unwrap().to_string();
    assert_eq!(v["proof_bytes"].as_u64().unwrap() as usize, proof.len());
    assert_eq!(v["system"], "zkbpp");
    let replay = login_req(a, "alice", &ch, &proof);
    assert_eq!(replay.status, 401);
    let (_, ch2) = challenge(a, "alice");
    let replay2 = login_req(a, "alice", &ch2, &proof);
    assert_eq!(replay2.status, 401);
    assert_eq!(replay.json(), replay2.json());
    // whoami and logout
    assert_eq!(get_auth(a, "/v1/whoami", &token).json()["name"], "alice");
    assert_eq!(call(a, "GET", "/v1/whoami", &[], b"").status, 401);
    assert_eq!(get_auth(a, "/v1/whoami", "zz").status, 401);
    // a proof claiming the wrong system, one bound to another server name
    let (_, ch3) = challenge(a, "alice");
    let kkw = prove_login_with(
        &alice,
        "zkgames",
        "alice",
        &nonce(&ch3),
        Engine::Kkw,
        &mut seeded_rng(6),
    )
    .unwrap();
    let r = login_req(a, "alice", &ch3, &kkw);
    assert_eq!(r.status, 401, "a KKW proof sent as zkbpp");
    // no `system`: the proof's own engine (a VOLE proof, the CLI's default, named by its
    // protocol id); bytes that are no login proof: 400
    let (_, ch4) = challenge(a, "alice");
    let vole = prove_login_with(
        &alice,
        "zkgames",
        "alice",
        &nonce(&ch4),
        Engine::Vole,
        &mut seeded_rng(7),
    )
    .unwrap();
    let r = post(
        a,
        "/v1/login",
        &json!({"name": "alice", "challenge": ch4, "proof": b64(&vole)}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["system"], "vole");
    assert_eq!(
        r.json()["proof_bytes"].as_u64().unwrap() as usize,
        vole.len()
    );
    let (_, ch5) = challenge(a, "alice");
    let r = post(
        a,
        "/v1/login",
        &json!({"name": "alice", "challenge": ch5, "proof": b64(b"not a proof")}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    // malformed requests: 400 with a JSON error, never an echo of the input
    for body in [
        &b"not json"[..],
        b"{}",
        b"[1,2]",
        br#"{"name":"alice","challenge":"00","proof":""}"#,
        br#"{"name":"alice","challenge":"0000000000000000000000000000000000000000000000000000000000000000","proof":"!!"}"#,
        br#"{"name":"Bad Name!","challenge":"0000000000000000000000000000000000000000000000000000000000000000","proof":""}"#,
        br#"{"name":"alice","challenge":"0000000000000000000000000000000000000000000000000000000000000000","proof":"","system":"rsa"}"#,
        br#"{"name":"alice","extra":1}"#,
    ] {
        let r = call(a, "POST", "/v1/login", &[("Content-Type", "application/json")], body);
        assert_eq!(r.status, 400, "{}: {}", String::from_utf8_lossy(body), r.text());
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.len() <= 200 && !e.contains('\n'), "{e}");
    }
    // too large: declared, and sent
    let r = call(
        a,
        "POST",
        "/v1/login",
        &[
            ("Content-Type", "application/json"),
            ("Content-Length", "99999999"),
        ],
        b"",
    );
    assert_eq!(r.status, 413, "{}", r.text());
    let big = vec![b' '; 5 << 20];
    let r = call(
        a,
        "POST",
        "/v1/register",
        &[("Content-Type", "application/json")],
        &big,
    );
    assert_eq!(r.status, 413);
    assert!(r.json()["error"].is_string());
    // unknown routes and methods
    assert_eq!(call(a, "GET", "/nope", &[], b"").status, 404);
    assert_eq!(call(a, "GET", "/v1/login", &[], b"").status, 405);
    assert!(call(a, "GET", "/v1/login", &[], b"").json()["error"].is_string());
    // a head that never ends is cut off, not held
    let r = common::http::raw(
        a,
        &[&b"GET / HTTP/1.1\r\nX: "[..], &vec![b'a'; 64 << 10]].concat(),
    );
    assert!(r.status == 431 || r.status == 400, "{}", r.status);
    // refusals look the same for a wrong key and an unknown name
    let (s1, v1) = login(a, "alice", &key(9), 10);
    let (s2, v2) = login(a, "nobody", &key(9), 11);
    assert_eq!((s1, s2), (401, 401));
    assert_eq!(v1, v2);
    // the rate limit: 5 failures from this address within the minute (two replays, the
    // wrong system, the wrong key, the unknown name), then 429 even for the right key, with
    // Retry-After
    let r = post(a, "/v1/challenge", &json!({"name": "alice"}));
    assert_eq!(r.status, 429, "{}", r.text());
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // the binary says "try again later" with the server's wait, exit 75 (not a rejection)
    let kf = d.join("alice.key");
    std::fs::write(&kf, alice.to_text()).unwrap();
    let url = format!("http://{a}");
    let (c, _, e) = run(&[
        "auth",
        "login",
        "alice",
        "--key",
        kf.to_str().unwrap(),
        &url,
    ]);
    assert_eq!(c, 75, "{e}");
    assert!(e.contains("try again in") && e.lines().count() == 1, "{e}");
    let (_, log) = srv.stop();
    assert!(log.contains("refused login alice"), "{log}");
}

/// A burst of requests larger than `--max-sessions` waits for the work slots instead of
/// being refused: 24 connections released together, one slot, every `whoami` answered
/// (401: the token is unknown) and none 503. A request is refused only when no slot frees
/// within half a second (`SLOT_WAIT`); a server that refused at once whenever every slot was
/// taken (as before) answers some of this burst 503.
#[test]
fn a_burst_beyond_the_work_slots_waits_for_them() {
    let d = dir("burst");
    let srv = start(
        d.join("u.db").to_str().unwrap(),
        &["--max-sessions", "1", "--max-per-address", "32"],
    );
    let a = srv.addr.clone();
    for round in 0..3 {
        let go = std::sync::Arc::new(std::sync::Barrier::new(24));
        let threads: Vec<_> = (0..24)
            .map(|_| {
                let (a, go) = (a.clone(), go.clone());
                std::thread::spawn(move || {
                    go.wait();
                    get_auth(&a, "/v1/whoami", &"ef".repeat(32)).status
                })
            })
            .collect();
        let codes: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert!(codes.iter().all(|&c| c == 401), "round {round}: {codes:?}");
    }
    srv.stop();
}

/// Connections beyond --max-connections get 503 with Retry-After (requests beyond
/// --max-sessions after waiting for a slot, above); a slow client holding its connection
/// does not stop others once it is cut off by the deadline.
#[test]
fn busy_servers_answer_503_and_deadlines_free_them() {
    let d = dir("busy");
    let srv = start(
        d.join("u.db").to_str().unwrap(),
        &["--max-connections", "2", "--timeout", "1"],
    );
    let a = srv.addr.clone();
    // two silent connections: a newcomer from the same address takes the place of one of
    // them (the address holds no more than before), so it is answered
    let idle1 = TcpStream::connect(&a).unwrap();
    let idle2 = TcpStream::connect(&a).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(call(&a, "GET", "/v1/whoami", &[], b"").status, 401);
    drop((idle1, idle2));
    std::thread::sleep(Duration::from_millis(200));
    // two connections in the middle of a request (a body promised and not sent) are busy:
    // nobody takes their place, the newcomer is told to come back (the Host is one the
    // server serves: another name is answered 421 at once, and its place freed)
    let stalled = || {
        let mut s = TcpStream::connect(&a).unwrap();
        s.write_all(
            b"POST /v1/challenge HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
        )
        .unwrap();
        s
    };
    let hold1 = stalled();
    let hold2 = stalled();
    std::thread::sleep(Duration::from_millis(200));
    let r = call(&a, "GET", "/v1/whoami", &[], b"");
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(r.json()["error"], "server busy");
    // the silent connections are closed after the 1 s head deadline
    std::thread::sleep(Duration::from_millis(1800));
    assert_eq!(call(&a, "GET", "/v1/whoami", &[], b"").status, 401);
    drop((hold1, hold2));
    srv.stop();
}

/// The TCP service and the HTTP API on one database at once are one service: a name
/// registered over one is taken over the other, a login over HTTP gives a token the TCP
/// service knows, and both write the same audit log.
#[test]
fn tcp_and_http_serve_one_database() {
    use zkgames::auth::server as tcp;
    use zkgames::net::{Channel, Deadlines};
    let d = dir("both");
    let db = d.join("u.db");
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
        "5",
    ]);
    std::thread::sleep(Duration::from_millis(200));
    let log = srv.log();
    let tcp_addr = log
        .lines()
        .filter(|l| !l.contains("HTTP"))
        .flat_map(|l| l.split_whitespace())
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("{log}"))
        .trim_end_matches(':')
        .to_string();
    let ch = || Channel::tcp(TcpStream::connect(&tcp_addr).unwrap(), Deadlines::default());
    let alice = key(1);
    tcp::register(&mut ch(), "alice", &alice.identity()).unwrap();
    assert_eq!(register(&srv.addr, "alice", &key(2)), 409);
    assert_eq!(register(&srv.addr, "bob", &key(3)), 201);
    assert!(tcp::register(&mut ch(), "bob", &key(4).identity()).is_err());
    let (s, v) = login(&srv.addr, "alice", &alice, 7);
    assert_eq!(s, 200);
    let t: [u8; 32] = hex::decode(v["token"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    assert_eq!(tcp::whoami(&mut ch(), &t).unwrap(), "alice");
    let (tok, _, _) = tcp::login(&mut ch(), "alice", &alice, None).unwrap();
    assert_eq!(
        get_auth(&srv.addr, "/v1/whoami", &hex::encode(tok)).json()["name"],
        "alice"
    );
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0), "{log}");
}

// ------------------------------------------------------------------ the OpenAPI document

/// (path, method, documented statuses) of docs/openapi.yaml, read line by line (the
/// document's layout: two-space indents, paths at 2, methods at 4, statuses at 8).
fn documented_routes() -> Vec<(String, String, Vec<u16>)> {
    let text = std::fs::read_to_string(common::p("docs/openapi.yaml")).unwrap();
    let mut out: Vec<(String, String, Vec<u16>)> = Vec::new();
    let mut in_paths = false;
    let mut path = String::new();
    for line in text.lines() {
        if !line.starts_with(' ') {
            in_paths = line == "paths:";
            continue;
        }
        if !in_paths {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        match indent {
            2 if t.ends_with(':') => path = t.trim_end_matches(':').to_string(),
            4 if ["get:", "post:", "put:", "delete:", "patch:"].contains(&t) => {
                out.push((path.clone(), t.trim_end_matches(':').to_uppercase(), vec![]))
            }
            8 if t.starts_with('"') => {
                let code = t[1..4].parse().unwrap();
                out.last_mut().unwrap().2.push(code);
            }
            _ => {}
        }
    }
    out
}

/// Every route of docs/openapi.yaml answers: its success status for a valid request, and
/// for each documented error status that a request can provoke here, that status with a
/// JSON {error}; no status outside the documented ones.
#[test]
fn every_route_in_openapi_answers_as_described() {
    let routes = documented_routes();
    assert!(routes.len() >= 9, "{routes:?}");
    let d = dir("openapi");
    let srv = start(d.join("u.db").to_str().unwrap(), &[]);
    let a = srv.addr.as_str();
    let alice = key(1);
    let mut checked = 0;
    let check = |r: &common::http::Resp, want: u16, statuses: &[u16], what: &str| {
        assert!(statuses.contains(&want), "{what}: {want} not documented");
        assert_eq!(r.status, want, "{what}: {}", r.text());
        if want >= 400 {
            assert!(r.json()["error"].is_string(), "{what}");
            assert_eq!(r.header("content-type"), Some("application/json"), "{what}");
        }
        if want == 429 || want == 503 {
            assert!(r.header("retry-after").is_some(), "{what}");
        }
    };
    for (path, method, statuses) in &routes {
        let what = format!("{method} {path}");
        match (method.as_str(), path.as_str()) {
            ("GET", "/") => {
                let r = call(a, "GET", "/", &[], b"");
                check(&r, 200, statuses, &what);
                assert!(r.header("content-type").unwrap().starts_with("text/html"));
                assert!(r.text().contains("id=\"login-btn\""));
            }
            ("GET", "/openapi.yaml") => {
                let r = call(a, "GET", "/openapi.yaml", &[], b"");
                check(&r, 200, statuses, &what);
                assert!(r.text().starts_with("openapi: 3"));
            }
            ("POST", "/v1/register") => {
                let ok = post(
                    a,
                    path,
                    &json!({"name": "alice", "identity": alice.identity().to_text()}),
                );
                check(&ok, 201, statuses, &what);
                assert_eq!(ok.json()["kind"], "sha256");
                check(
                    &post(
                        a,
                        path,
                        &json!({"name": "alice", "identity": alice.identity().to_text()}),
                    ),
                    409,
                    statuses,
                    &what,
                );
                check(&post(a, path, &json!({"name": "x"})), 400, statuses, &what);
                check(
                    &call(
                        a,
                        "POST",
                        path,
                        &[("Content-Type", "application/json")],
                        &vec![b'{'; 5 << 20],
                    ),
                    413,
                    statuses,
                    &what,
                );
            }
            ("POST", "/v1/challenge") => {
                let r = post(a, path, &json!({"name": "alice"}));
                check(&r, 200, statuses, &what);
                let v = r.json();
                assert_eq!(v["challenge"].as_str().unwrap().len(), 64);
                assert!(v["expires_at"].as_i64().unwrap() > 1_700_000_000);
                check(&post(a, path, &json!({})), 400, statuses, &what);
            }
            ("POST", "/v1/login") => {
                let (s, v) = login(a, "alice", &alice, 3);
                assert_eq!(s, 200, "{what}: {v}");
                for k in [
                    "token",
                    "expires_at",
                    "name",
                    "system",
                    "proof_bytes",
                    "verify_ms",
                ] {
                    assert!(!v[k].is_null(), "{what}: no {k} in {v}");
                }
                let (s, v) = login(a, "alice", &key(8), 4);
                assert!(statuses.contains(&s) && s == 401, "{what}: {s} {v}");
                check(
                    &post(a, path, &json!({"name": "alice"})),
                    400,
                    statuses,
                    &what,
                );
            }
            ("GET", "/v1/whoami") => {
                let (_, v) = login(a, "alice", &alice, 5);
                let r = get_auth(a, path, v["token"].as_str().unwrap());
                check(&r, 200, statuses, &what);
                assert_eq!(r.json()["name"], "alice");
                check(&get_auth(a, path, &"00".repeat(32)), 401, statuses, &what);
            }
            ("POST", "/v1/logout") => {
                let (_, v) = login(a, "alice", &alice, 6);
                let t = format!("Bearer {}", v["token"].as_str().unwrap());
                let r = call(a, "POST", path, &[("Authorization", &t)], b"");
                check(&r, 200, statuses, &what);
                let r = call(a, "POST", path, &[("Authorization", &t)], b"");
                check(&r, 401, statuses, &what);
            }
            ("POST", "/v1/device") => {
                let r = post(a, path, &json!({"name": "alice"}));
                check(&r, 201, statuses, &what);
                let v = r.json();
                assert!(v["command"]
                    .as_str()
                    .unwrap()
                    .contains(v["code"].as_str().unwrap()));
                check(&post(a, path, &json!({"name": 5})), 400, statuses, &what);
            }
            ("POST", "/v1/device/lookup") => {
                let v = post(a, "/v1/device", &json!({"name": "alice"})).json();
                let code = v["code"].as_str().unwrap();
                let r = post(a, path, &json!({"name": "alice", "code": code}));
                check(&r, 200, statuses, &what);
                let g = r.json();
                assert_eq!(
                    (&g["grants"], &g["requested_from"], &g["name"]),
                    (
                        &json!("browser-session"),
                        &json!("127.0.0.1"),
                        &json!("alice")
                    ),
                    "{g}"
                );
                assert_eq!(g["expires_at"], v["expires_at"], "{g}");
                let r = post(a, path, &json!({"name": "bob", "code": code}));
                check(&r, 400, statuses, &what);
            }
            ("GET", "/v1/device/{poll}") => {
                let v = post(a, "/v1/device", &json!({"name": "alice"})).json();
                let p = format!("/v1/device/{}", v["poll"].as_str().unwrap());
                let r = call(a, "GET", &p, &[], b"");
                check(&r, 200, statuses, &what);
                assert_eq!(r.json()["state"], "pending");
                let r = call(
                    a,
                    "GET",
                    &format!("/v1/device/{}", "00".repeat(32)),
                    &[],
                    b"",
                );
                check(&r, 404, statuses, &what);
            }
            _ => panic!("{what}: a route this test does not know; add it here"),
        }
        checked += 1;
    }
    assert_eq!(checked, routes.len());
    srv.stop();
}

/// Two `verifier auth serve --http` processes on one SQLite file share device codes: a code
/// issued by one is redeemed by `prover auth login --code` at the other, and the poll at the
/// first (which saw neither login) receives the refusal and then the token; a pending code
/// survives a restart; a used code is refused by both; one code sent to both at once logs
/// in once.
#[test]
fn two_processes_on_one_sqlite_file_share_device_codes() {
    let d = dir("device-sqlite");
    let db = d.join("u.db");
    let dbs = db.to_str().unwrap();
    let (a, b) = (start(dbs, &[]), start(dbs, &[]));
    let k = d.join("alice.key");
    let m = d.join("mallory.key");
    keygen("sha256", k.to_str().unwrap());
    keygen("sha256", m.to_str().unwrap());
    let alice = SecretKey::parse(&std::fs::read_to_string(&k).unwrap()).unwrap();
    assert_eq!(register(&a.addr, "alice", &alice), 201);
    let r = post(&a.addr, "/v1/device", &json!({"name": "alice"}));
    assert_eq!(r.status, 201);
    let v = r.json();
    let (code, handle) = (
        v["code"].as_str().unwrap().to_string(),
        v["poll"].as_str().unwrap().to_string(),
    );
    let poll = |addr: &str, wait: u64| {
        call(
            addr,
            "GET",
            &format!("/v1/device/{handle}?wait={wait}"),
            &[],
            b"",
        )
    };
    // a restart of the issuing process keeps the pending code
    a.stop();
    let a = start(dbs, &[]);
    assert_eq!(poll(&a.addr, 0).json()["state"], "pending");
    let login = |addr: &str, key: &PathBuf| {
        let url = format!("http://{addr}");
        run(&[
            "auth",
            "login",
            "alice",
            "--key",
            key.to_str().unwrap(),
            "--code",
            &code,
            "--yes",
            &url,
        ])
    };
    std::thread::scope(|sc| {
        let waiting = sc.spawn(|| poll(&a.addr, 25));
        std::thread::sleep(Duration::from_millis(300));
        let (c, _, e) = login(&b.addr, &m);
        assert_eq!(c, 1, "wrong key: {e}");
        let v = waiting.join().unwrap().json();
        assert_eq!((&v["state"], &v["refused"]), (&json!("pending"), &json!(1)));
        let waiting = sc.spawn(|| poll(&a.addr, 25));
        std::thread::sleep(Duration::from_millis(300));
        let (c, token, e) = login(&b.addr, &k);
        assert_eq!(c, 0, "right key: {e}");
        let v = waiting.join().unwrap().json();
        assert_eq!(v["state"], "done", "{v}");
        // the page's own session, issued when A collected the code
        let page = v["token"].as_str().unwrap();
        assert_ne!(page, token.trim());
        for t in [page, token.trim()] {
            assert_eq!(get_auth(&a.addr, "/v1/whoami", t).json()["name"], "alice");
        }
        assert_eq!(poll(&b.addr, 0).status, 404, "collected once");
    });
    for z in [&a.addr, &b.addr] {
        let (c, _, e) = login(z, &k);
        assert_eq!(c, 2, "used: {e}");
    }
    // one code sent to both processes at the same moment: exactly one login, after which
    // the poll receives the page's session
    for round in 0..3u64 {
        let v = post(&b.addr, "/v1/device", &json!({"name": "alice"})).json();
        let (code, handle) = (v["code"].clone(), v["poll"].as_str().unwrap().to_string());
        let go = std::sync::Arc::new(std::sync::Barrier::new(2));
        let ts: Vec<_> = [a.addr.clone(), b.addr.clone()]
            .into_iter()
            .enumerate()
            .map(|(i, z)| {
                let (server, ch) = challenge(&z, "alice");
                let seed = 900 + 2 * round + i as u64;
                let proof =
                    prove_login(&alice, &server, "alice", &nonce(&ch), &mut seeded_rng(seed));
                let body = json!({"name": "alice", "challenge": ch, "system": "zkbpp",
                    "proof": b64(&proof.unwrap()), "code": code});
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
        let v = call(&a.addr, "GET", &format!("/v1/device/{handle}"), &[], b"").json();
        assert_eq!(v["state"], "done", "round {round}");
        assert_ne!(v["token"], won["token"], "round {round}");
    }
    for srv in [a, b] {
        let (c, log) = srv.stop();
        assert_eq!(c, Some(0), "{log}");
    }
}

/// A device code says what it grants (issue 41, §4): `prover auth login … --code` shows
/// that a browser session is being granted, when and from which address the code was asked
/// for, and asks on a terminal; with no terminal and no `--yes` it refuses in one line that
/// names `--yes` (exit 2) and nothing is proven or redeemed; `--yes` grants it.
#[test]
fn a_device_code_says_what_it_grants_and_is_confirmed() {
    let d = dir("grant");
    let srv = start(d.join("u.db").to_str().unwrap(), &[]);
    let a = srv.addr.clone();
    let url = format!("http://{a}");
    let k = d.join("alice.key");
    let (c, _, e) = common::keygen("sha256", k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let alice = SecretKey::parse(&std::fs::read_to_string(&k).unwrap()).unwrap();
    assert_eq!(register(&a, "alice", &alice), 201);
    let v = post(&a, "/v1/device", &json!({"name": "alice"})).json();
    let (code, handle) = (v["code"].as_str().unwrap(), v["poll"].as_str().unwrap());
    let ks = k.to_str().unwrap();
    // no terminal (stdin and stderr are pipes), no --yes: one line naming --yes, exit 2
    for extra in [&[][..], &["--json"][..]] {
        let mut args = vec!["auth", "login", "alice", "--key", ks, "--code", code, &url];
        args.extend_from_slice(extra);
        let (c, out, e) = run(&args);
        assert_eq!(c, 2, "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(
            e.contains("pass --yes") && e.contains("browser session"),
            "{e}"
        );
        if !extra.is_empty() {
            let v: Value = serde_json::from_str(out.trim()).unwrap();
            assert!(v["error"].as_str().unwrap().contains("--yes"), "{v}");
        }
    }
    let r = call(&a, "GET", &format!("/v1/device/{handle}"), &[], b"");
    assert_eq!(r.json()["state"], "pending", "nothing redeemed");
    // --yes requires --code
    let (c, _, e) = run(&["auth", "login", "alice", "--key", ks, "--yes", &url]);
    assert_eq!(c, 2, "{e}");
    // --yes: the grant is shown, then the login goes through and the page gets its session
    let (c, token, e) = run(&[
        "auth", "login", "alice", "--key", ks, "--code", code, "--yes", &url,
    ]);
    assert_eq!(c, 0, "{e}");
    assert_eq!(token.trim().len(), 64);
    let issued = v["expires_at"].as_i64().unwrap() - zkgames::auth::http::DEVICE_TTL;
    let when = zkgames::cli::auth::format_utc(issued);
    for want in [
        "grants a browser session as alice",
        "from 127.0.0.1",
        when.as_str(),
        "asked for it yourself",
    ] {
        assert!(e.contains(want), "{want:?} not in {e}");
    }
    let r = call(&a, "GET", &format!("/v1/device/{handle}"), &[], b"");
    assert_eq!(r.json()["state"], "done", "{}", r.text());
    srv.stop();
}
