//! The login server end to end over loopback: `verifier auth serve` as a process, clients
//! through `prover auth …` and through the library's client calls. Register, login, whoami;
//! replayed proofs (same and another connection, before and after expiry); wrong keys and
//! unknown users (same answer); expired nonces; the rate limit; 32 concurrent logins;
//! restart persistence; hostile clients; a file that is not a database.

use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use zkgames::auth::keys::{prove_login, SecretKey};
use zkgames::auth::server::{begin_login, finish_login, login, register};
use zkgames::auth::Kind;
use zkgames::net::{Channel, Deadlines};
use zkgames::rng::seeded_rng;

use crate::common;
use common::{keygen, Server, PROVER, VERIFIER};

fn dir(name: &str) -> PathBuf {
    common::fresh_dir("auth-srv", name)
}

impl Server {
    /// `verifier auth serve` on `db` on a free local port, with short deadlines unless `extra` sets them.
    fn start_auth(db: &Path, extra: &[&str]) -> Server {
        let mut args = vec![
            "auth",
            "serve",
            "--db",
            db.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
        ];
        if !extra.contains(&"--timeout") {
            args.extend(["--timeout", "2"]);
        }
        args.extend(["--session-timeout", "20"]);
        args.extend_from_slice(extra);
        Server::spawn(&args)
    }
}

fn ch(addr: &str) -> Channel {
    Channel::tcp(TcpStream::connect(addr).unwrap(), Deadlines::default())
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::run(PROVER, args)
}

fn key(seed: u64) -> SecretKey {
    SecretKey::generate(Kind::Sha256, &mut seeded_rng(seed)).unwrap()
}

#[test]
fn register_login_whoami_through_the_binaries_and_restart() {
    let d = dir("basic");
    let db = d.join("users.db");
    let srv = Server::start_auth(&db, &[]);
    let k = d.join("alice.key");
    let (c, _, e) = keygen("sha256", k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let kp = k.to_str().unwrap();
    let (c, _, e) = run(&["auth", "register", "alice", "--key", kp, &srv.addr]);
    assert_eq!(c, 0, "{e}");
    // first come, first served: a taken name is unusable input (exit 2), not a rejected proof
    let (c, _, e) = run(&["auth", "register", "alice", "--key", kp, &srv.addr]);
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("the name alice is taken") && !e.contains("REJECTED"),
        "{e}"
    );
    let (c, token, e) = run(&["auth", "login", "alice", "--key", kp, &srv.addr]);
    assert_eq!(c, 0, "{e}");
    let token = token.trim().to_string();
    assert_eq!(token.len(), 64);
    let (c, out, _) = run(&["auth", "whoami", &srv.addr, "--token", &token]);
    assert_eq!((c, out.trim()), (0, "alice"));
    let (c, _, e) = run(&["auth", "whoami", &srv.addr, "--token", &"00".repeat(32)]);
    assert_eq!(c, 1, "{e}");
    // the database holds the token hashed, never the token
    let bytes = std::fs::read(&db).unwrap();
    let t = hex::decode(&token).unwrap();
    assert!(!bytes.windows(32).any(|w| w == t.as_slice()));
    // wrong server name expected by the client: no proof is even made
    let (c, _, e) = run(&[
        "auth",
        "login",
        "alice",
        "--key",
        kp,
        &srv.addr,
        "--server-name",
        "bank",
    ]);
    assert_eq!(c, 1, "{e}");
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("login alice ok"), "{log}");
    // restart: users and tokens survive
    let srv = Server::start_auth(&db, &[]);
    let (c, out, _) = run(&["auth", "whoami", &srv.addr, "--token", &token]);
    assert_eq!((c, out.trim()), (0, "alice"));
    let (c, _, e) = run(&["auth", "login", "alice", "--key", kp, &srv.addr]);
    assert_eq!(c, 0, "{e}");
    srv.stop();
}

/// Five failures from one peer: a replay on the same connection, on another, a proof bound
/// to another server name, a correct proof after its nonce expired, and the captured proof
/// after expiry; then even the right key is refused with a retry-after.
#[test]
fn replays_expired_nonces_and_the_rate_limit() {
    let d = dir("attacks");
    let srv = Server::start_auth(&d.join("u.db"), &["--challenge-ttl", "2", "--timeout", "6"]);
    let a = &srv.addr;
    let alice = key(1);
    register(&mut ch(a), "alice", &alice.identity()).unwrap();
    // a captured proof
    let mut c1 = ch(a);
    let (server, nonce) = begin_login(&mut c1, "alice").unwrap();
    assert_eq!(server, "zkgames");
    let proof = prove_login(&alice, &server, "alice", &nonce, &mut seeded_rng(2)).unwrap();
    finish_login(&mut c1, proof.clone()).unwrap();
    // replayed on the same connection (against a fresh nonce), then on another connection
    begin_login(&mut c1, "alice").unwrap();
    let e = finish_login(&mut c1, proof.clone()).unwrap_err();
    assert!(e.to_string().contains("authentication failed"), "{e}");
    let mut c2 = ch(a);
    begin_login(&mut c2, "alice").unwrap();
    assert!(finish_login(&mut c2, proof.clone()).is_err());
    // a proof bound to another server name
    let mut c3 = ch(a);
    let (_, n3) = begin_login(&mut c3, "alice").unwrap();
    let other = prove_login(&alice, "elsewhere", "alice", &n3, &mut seeded_rng(3)).unwrap();
    assert!(finish_login(&mut c3, other).is_err());
    // an expired nonce: a correct proof, too late
    let mut c4 = ch(a);
    let (s4, n4) = begin_login(&mut c4, "alice").unwrap();
    let p4 = prove_login(&alice, &s4, "alice", &n4, &mut seeded_rng(4)).unwrap();
    std::thread::sleep(Duration::from_millis(3100));
    assert!(finish_login(&mut c4, p4).is_err());
    // after expiry the captured proof is still useless
    let mut c5 = ch(a);
    begin_login(&mut c5, "alice").unwrap();
    assert!(finish_login(&mut c5, proof).is_err());
    // five failures within the minute: refused with a retry-after, even with the right key
    let r = login(&mut ch(a), "alice", &alice, None);
    let (code, log) = srv.stop();
    let e = r
        .err()
        .unwrap_or_else(|| panic!("not rate-limited:\n{log}"))
        .to_string();
    assert!(e.contains("try again in"), "{e}");
    assert_eq!(code, Some(0));
    assert!(log.matches("REJECTED").count() >= 6, "{log}");
}

/// A wrong key and an unknown user get the same answer (no user enumeration by message).
#[test]
fn wrong_keys_and_unknown_users_look_the_same() {
    let d = dir("same");
    let srv = Server::start_auth(&d.join("u.db"), &[]);
    let a = &srv.addr;
    register(&mut ch(a), "alice", &key(1).identity()).unwrap();
    let e1 = login(&mut ch(a), "alice", &key(9), None).unwrap_err();
    let e2 = login(&mut ch(a), "nobody", &key(9), None).unwrap_err();
    assert_eq!(e1.to_string(), e2.to_string());
    assert_eq!(e1.exit_code(), 1);
    // and through the binary: exit 1, one line
    let k = d.join("m.key");
    keygen("sha256", k.to_str().unwrap());
    let (c, _, e) = run(&["auth", "login", "alice", "--key", k.to_str().unwrap(), a]);
    assert_eq!(c, 1, "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    srv.stop();
}

#[test]
fn thirty_two_concurrent_logins_and_hostile_clients() {
    let d = dir("load");
    let srv = Server::start_auth(
        &d.join("u.db"),
        &[
            "--max-pending-per-peer",
            "64",
            "--max-sessions",
            "48",
            "--max-per-address",
            "48",
            "--max-registrations-per-hour",
            "64",
            // a login counts as a failure until its proof verifies: 32 at once from one
            // address need a budget of 32
            "--max-failures-per-minute",
            "64",
            // 32 provers share two cores (and CI's other jobs): 2 s between a nonce and its
            // proof is too tight for the last of them
            "--timeout",
            "10",
        ],
    );
    let a = srv.addr.clone();
    let keys: Vec<SecretKey> = (0..32).map(|i| key(100 + i)).collect();
    for (i, k) in keys.iter().enumerate() {
        register(&mut ch(&a), &format!("user{i}"), &k.identity()).unwrap();
    }
    // hostile clients first: garbage, a huge length prefix, a silent one held open
    let mut g = TcpStream::connect(&a).unwrap();
    g.write_all(b"\x05\x00\x00\x00hello").unwrap();
    let mut h = TcpStream::connect(&a).unwrap();
    h.write_all(&u32::MAX.to_le_bytes()).unwrap();
    let _silent = TcpStream::connect(&a).unwrap();
    let hs: Vec<_> = keys
        .into_iter()
        .enumerate()
        .map(|(i, k)| {
            let a = a.clone();
            std::thread::spawn(move || login(&mut ch(&a), &format!("user{i}"), &k, None))
        })
        .collect();
    let results: Vec<_> = hs.into_iter().map(|h| h.join().unwrap()).collect();
    // a request over the login server's limit (the largest registration) is refused
    // before it is read
    let mut big = TcpStream::connect(&a).unwrap();
    big.write_all(&(5u32 << 20).to_le_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (code, log) = srv.stop();
    for r in results {
        assert!(r.is_ok(), "{r:?}\n{log}");
    }
    assert_eq!(code, Some(0));
    assert_eq!(log.matches("ok (proof").count(), 32, "{log}");
    assert!(
        log.lines().filter(|l| l.contains(": error:")).count() >= 3,
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "5242880-byte first message, over the {}-byte limit",
            zkgames::auth::server::max_register_request()
        )),
        "{log}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_bad_input() {
    let d = dir("notdb");
    let f = d.join("notes.txt");
    std::fs::write(
        &f,
        b"these are not the tables you are looking for\n".repeat(100),
    )
    .unwrap();
    let o = Command::new(VERIFIER)
        .args([
            "auth",
            "serve",
            "--db",
            f.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn the_demo_runs() {
    let (c, out, e) = run(&["auth", "demo"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("ok: login by zero-knowledge proof"), "{out}");
    assert!(out.contains("refused"), "{out}");
}

/// `--json` log lines are JSON objects with the documented fields.
#[test]
fn json_log_lines() {
    let d = dir("json");
    let srv = Server::start_auth(&d.join("u.db"), &["--json"]);
    register(&mut ch(&srv.addr), "alice", &key(1).identity()).unwrap();
    assert!(login(&mut ch(&srv.addr), "alice", &key(2), None).is_err());
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0));
    let objs: Vec<serde_json::Value> = log
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objs.len(), 2, "{log}");
    for o in &objs {
        for k in ["time", "n", "peer", "outcome", "detail", "ms"] {
            assert!(o.get(k).is_some(), "{k} missing in {o}");
        }
    }
    assert_eq!(objs[0]["outcome"], "accepted");
    assert_eq!(objs[1]["outcome"], "rejected");
}

/// Logins with `--system kkw` and `zkbpp` through the binaries, for both key kinds: a default
/// server accepts every engine; `--require-system` makes it accept one only. KKW login proofs
/// are smaller than ZKB++ ones, and the default (VOLE) smaller than KKW (sizes from the
/// client's report).
#[test]
fn kkw_logins_and_servers_that_require_one_system() {
    let d = dir("kkw");
    let db = d.join("users.db");
    let size_of = |e: &str| -> usize {
        let w = e.split("-byte").next().unwrap();
        w.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let srv = Server::start_auth(&db, &[]);
    let mut keys = Vec::new();
    for kind in ["sha256", "peg"] {
        let k = d.join(format!("{kind}.key"));
        let (c, _, e) = run(&["auth", "keygen", "--kind", kind, "-o", k.to_str().unwrap()]);
        assert_eq!(c, 0, "{e}");
        let kp = k.to_str().unwrap().to_string();
        let (c, _, e) = run(&["auth", "register", kind, "--key", &kp, &srv.addr]);
        assert_eq!(c, 0, "{e}");
        let (c, _, ez) = run(&[
            "auth", "login", kind, "--key", &kp, &srv.addr, "--system", "zkbpp",
        ]);
        assert_eq!(c, 0, "{ez}");
        let (c, _, ek) = run(&[
            "auth", "login", kind, "--key", &kp, &srv.addr, "--system", "kkw",
        ]);
        assert_eq!(c, 0, "{ek}");
        assert!(ek.contains("KKW"), "{ek}");
        let (c, _, ev) = run(&["auth", "login", kind, "--key", &kp, &srv.addr]);
        assert_eq!(c, 0, "{ev}");
        assert!(ev.contains("VOLE"), "the default engine: {ev}");
        let (zs, ks, vs) = (size_of(&ez), size_of(&ek), size_of(&ev));
        println!("login proof, {kind} key: ZKB++ {zs} bytes, KKW {ks} bytes, VOLE {vs} bytes");
        assert!(ks * 2 < zs, "{kind}: KKW {ks}, ZKB++ {zs}");
        assert!(vs * 3 < ks, "{kind}: VOLE {vs}, KKW {ks}");
        keys.push((kind, kp));
    }
    srv.stop();
    for (only, ok, refused) in [
        (
            "zkbpp",
            &["--system", "zkbpp"][..],
            &["--system", "kkw"][..],
        ),
        ("kkw", &["--system", "kkw"][..], &[][..]),
        ("vole", &[][..], &["--system", "zkbpp"][..]),
    ] {
        // every refused engine counts as a failed login from this address: room for them all
        let srv = Server::start_auth(
            &db,
            // KKW peg logins take seconds to prove on a loaded machine: a read deadline
            // that outlasts them (the 2 s default of these tests closed the connection)
            &[
                "--require-system",
                only,
                "--max-failures-per-minute",
                "100",
                "--timeout",
                "10",
            ],
        );
        for (kind, kp) in &keys {
            let mut a = vec!["auth", "login", kind, "--key", kp, &srv.addr];
            a.extend_from_slice(ok);
            let (c, _, e) = run(&a);
            assert_eq!(c, 0, "{only}: {e}");
            let mut a = vec!["auth", "login", kind, "--key", kp, &srv.addr];
            a.extend_from_slice(refused);
            let (c, _, e) = run(&a);
            assert_eq!(c, 1, "{only}: {e}");
        }
        let (code, log) = srv.stop();
        assert_eq!(code, Some(0));
        assert!(log.contains("only") || log.contains("fail"), "{log}");
    }
}

/// `lowmc` keys through the binaries: keygen, register, login with both engines (the KKW
/// proof at most 25 KB), a wrong key refused, tampered proofs refused, the demo.
#[test]
fn lowmc_keys_register_and_log_in_with_both_engines() {
    use zkgames::auth::keys::{prove_login_with, read_key};
    use zkgames::mpc::engine::Engine;
    let d = dir("lowmc");
    // wrong keys and tampered proofs of three engines fail from one address: room for them
    let srv = Server::start_auth(&d.join("u.db"), &["--max-failures-per-minute", "100"]);
    let a = srv.addr.clone();
    let size_of = |e: &str| -> usize {
        let w = e.split("-byte").next().unwrap();
        w.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (k, m) = (d.join("alice.key"), d.join("mallory.key"));
    for p in [&k, &m] {
        let (c, out, e) = keygen("lowmc", p.to_str().unwrap());
        assert_eq!(c, 0, "{e}");
        assert!(out.starts_with("zkgames-auth-id-v1 lowmc "), "{out}");
    }
    let kp = k.to_str().unwrap();
    let (c, _, e) = run(&["auth", "register", "alice", "--key", kp, &a]);
    assert_eq!(c, 0, "{e}");
    let (c, tz, ez) = run(&[
        "auth", "login", "alice", "--key", kp, &a, "--system", "zkbpp",
    ]);
    assert_eq!(c, 0, "{ez}");
    assert_eq!(tz.trim().len(), 64);
    let (c, _, ek) = run(&["auth", "login", "alice", "--key", kp, &a, "--system", "kkw"]);
    assert_eq!(c, 0, "{ek}");
    let (zs, ks) = (size_of(&ez), size_of(&ek));
    println!("login proof, lowmc key: ZKB++ {zs} bytes, KKW {ks} bytes");
    assert!(ks <= 25_000, "KKW lowmc login proof of {ks} bytes");
    assert!(ks < zs, "KKW {ks}, ZKB++ {zs}");
    // another lowmc key: refused with exit 1 and one line, with either engine
    for sys in ["zkbpp", "kkw", "vole"] {
        let (c, _, e) = run(&[
            "auth",
            "login",
            "alice",
            "--key",
            m.to_str().unwrap(),
            &a,
            "--system",
            sys,
        ]);
        assert_eq!(c, 1, "{sys}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // tampered proofs (a header byte, body bytes): refused by the server
    let key = read_key(kp).unwrap();
    let mut rng = seeded_rng(77);
    for (engine, pos) in [
        (Engine::Kkw, 11usize),
        (Engine::Kkw, 500),
        (Engine::Zkbpp, 3000),
        (Engine::Vole, 1000),
    ] {
        let mut c1 = ch(&a);
        let (server, nonce) = begin_login(&mut c1, "alice").unwrap();
        let mut proof = prove_login_with(&key, &server, "alice", &nonce, engine, &mut rng).unwrap();
        let pos = pos.min(proof.len() - 1);
        proof[pos] ^= 0x10;
        assert!(finish_login(&mut c1, proof).is_err(), "{engine} byte {pos}");
    }
    // `verifier peg inspect` summarises a LowMC login proof file of either engine
    for engine in [Engine::Zkbpp, Engine::Kkw] {
        let f = d.join(format!("login-{engine}.proof"));
        let p = prove_login_with(&key, "srv", "alice", &[3; 32], engine, &mut rng).unwrap();
        std::fs::write(&f, p).unwrap();
        let o = Command::new(VERIFIER)
            .args(["peg", "inspect", f.to_str().unwrap()])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(
            out.contains("LowMC key") && out.contains("516 AND gates"),
            "{out}"
        );
    }
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0));
    assert!(log.matches("ok (proof").count() >= 2, "{log}");
    // the demo with a lowmc key
    let (c, out, e) = run(&["auth", "demo", "--kind", "lowmc"]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("ok: login by zero-knowledge proof"), "{out}");
    assert!(out.contains("lowmc"), "{out}");
}

/// Logins with `--system vole` for every key kind; a server started with
/// `--require-system vole` accepts VOLE login proofs only. VOLE login proofs are the smallest
/// (sizes from the client's report; the LowMC one at most 4 KB).
#[test]
fn vole_logins_and_a_server_that_requires_vole() {
    let d = dir("vole");
    let db = d.join("users.db");
    let size_of = |e: &str| -> usize {
        let w = e.split("-byte").next().unwrap();
        w.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let srv = Server::start_auth(&db, &[]);
    let mut keys = Vec::new();
    for kind in ["sha256", "peg", "lowmc", "aes128"] {
        let k = d.join(format!("{kind}.key"));
        let (c, _, e) = run(&["auth", "keygen", "--kind", kind, "-o", k.to_str().unwrap()]);
        assert_eq!(c, 0, "{e}");
        let kp = k.to_str().unwrap().to_string();
        let (c, _, e) = run(&["auth", "register", kind, "--key", &kp, &srv.addr]);
        assert_eq!(c, 0, "{e}");
        let (c, _, ek) = run(&[
            "auth", "login", kind, "--key", &kp, &srv.addr, "--system", "kkw",
        ]);
        assert_eq!(c, 0, "{ek}");
        let (c, _, ev) = run(&[
            "auth", "login", kind, "--key", &kp, &srv.addr, "--system", "vole",
        ]);
        assert_eq!(c, 0, "{ev}");
        let (ks, vs) = (size_of(&ek), size_of(&ev));
        println!("login proof, {kind} key: KKW {ks} bytes, VOLE {vs} bytes");
        assert!(vs < ks, "{kind}: VOLE {vs}, KKW {ks}");
        if kind == "lowmc" {
            assert!(vs <= 4096, "LowMC VOLE login proof {vs} bytes");
        }
        keys.push((kind, kp));
    }
    srv.stop();
    let srv = Server::start_auth(&db, &["--require-system", "vole"]);
    for (kind, kp) in &keys {
        let (c, _, e) = run(&[
            "auth", "login", kind, "--key", kp, &srv.addr, "--system", "vole",
        ]);
        assert_eq!(c, 0, "{e}");
        let (c, _, e) = run(&[
            "auth", "login", kind, "--key", kp, &srv.addr, "--system", "kkw",
        ]);
        assert_eq!(c, 1, "{e}");
    }
    let (code, _) = srv.stop();
    assert_eq!(code, Some(0));
}
