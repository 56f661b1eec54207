//! The login service on this machine: for each key kind, the login proof's size and the
//! time of proving, verifying and the database steps; one login round trip over loopback;
//! and logins per second sustained by `auth::server` with 16 concurrent clients on loopback
//! (the clients' proving shares the same 2 cores, so the figure is for the whole system).

#[path = "common/quick.rs"]
mod quick;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use zkgames::auth::keys::{prove_login, verify_login, SecretKey};
use zkgames::auth::server::{login, register, ServerConfig};
use zkgames::auth::store::{Clock, Policy, Store};
use zkgames::auth::{Authenticator, Kind};
use zkgames::net::server::{serve, LogFormat, ServerOptions};
use zkgames::net::{Channel, Deadlines};
use zkgames::rng::os_rng;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    quick::quick(&[]);
    let dir = std::env::temp_dir().join(format!("zkg-auth-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("users.db");
    let policy = Policy {
        max_pending_per_peer: 1024,
        max_failures: 1_000_000,
        max_registrations_per_peer: 1_000_000,
        ..Policy::default()
    };
    drop(Store::open(&db, Clock::System, policy.clone()).unwrap());
    let cfg = ServerConfig {
        db: zkgames::auth::DbSpec::Sqlite(db.clone()),
        name: "bench".into(),
        policy: policy.clone(),
        only: None,
    };
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let stop = AtomicBool::new(false);
    let opts = ServerOptions {
        max_sessions: 64,
        // every client of the bench is 127.0.0.1
        max_per_address: 64,
        deadlines: Deadlines::default(),
        log: LogFormat::Quiet,
        refuse: zkgames::auth::server::refuse,
        ..ServerOptions::default()
    };
    let ch = || Channel::tcp(TcpStream::connect(&addr).unwrap(), Deadlines::default());
    std::thread::scope(|sc| {
        let h = sc.spawn(|| {
            serve(&l, &opts, &stop, |c, p| {
                zkgames::auth::server::handle(&cfg, c, p)
            })
        });
        println!("== login by zero-knowledge proof, 128 bits ==");
        for kind in [Kind::Sha256, Kind::Peg] {
            let t = Instant::now();
            let key = SecretKey::generate(kind, &mut os_rng()).unwrap();
            let t_keygen = t.elapsed();
            let id = key.identity();
            let user = format!("u-{kind}");
            register(&mut ch(), &user, &id).unwrap();
            let store = Store::open_existing(&db, Clock::System, policy.clone()).unwrap();
            let auth = Authenticator::new(&store, "bench").unwrap();
            let (mut tp, mut tv, mut tdb, mut size) = (vec![], vec![], vec![], 0);
            for _ in 0..9 {
                let t = Instant::now();
                let c = auth.begin(&user, "127.0.0.9").unwrap().unwrap();
                let d1 = t.elapsed();
                let t = Instant::now();
                let proof = prove_login(&key, "bench", &user, &c.nonce, &mut os_rng()).unwrap();
                tp.push(t.elapsed());
                size = proof.len();
                let t = Instant::now();
                verify_login(&id, "bench", &user, &c.nonce, &proof).unwrap();
                let v = t.elapsed();
                tv.push(v);
                let t = Instant::now();
                auth.finish(&user, "127.0.0.9", &c.nonce, &proof)
                    .unwrap()
                    .unwrap();
                // finish verifies again: its database share is what is left
                tdb.push(d1 + t.elapsed().saturating_sub(v));
            }
            let rt = median(
                (0..7)
                    .map(|_| {
                        let t = Instant::now();
                        login(&mut ch(), &user, &key, Some("bench")).unwrap();
                        t.elapsed()
                    })
                    .collect(),
            );
            let (p, v, d) = (median(tp), median(tv), median(tdb));
            let sum = ms(p) + ms(v) + ms(d);
            println!(
                "{kind:>6}: proof {size} B; prove {:.1} ms ({:.0}%), verify {:.1} ms ({:.0}%), database {:.2} ms ({:.0}%); round trip over loopback {:.1} ms; keygen {:.0} ms",
                ms(p), 100.0 * ms(p) / sum, ms(v), 100.0 * ms(v) / sum, ms(d), 100.0 * ms(d) / sum, ms(rt), ms(t_keygen)
            );
        }
        // sustained: 16 clients, each logging in again and again for a few seconds
        let keys: Vec<SecretKey> = (0..16)
            .map(|_| SecretKey::generate(Kind::Sha256, &mut os_rng()).unwrap())
            .collect();
        for (i, k) in keys.iter().enumerate() {
            register(&mut ch(), &format!("c{i}"), &k.identity()).unwrap();
        }
        let done = AtomicUsize::new(0);
        let failed = AtomicUsize::new(0);
        let until = Instant::now() + Duration::from_secs(6);
        let t0 = Instant::now();
        std::thread::scope(|s2| {
            for (i, k) in keys.iter().enumerate() {
                let (done, failed, addr) = (&done, &failed, &addr);
                s2.spawn(move || {
                    while Instant::now() < until {
                        let mut c =
                            Channel::tcp(TcpStream::connect(addr).unwrap(), Deadlines::default());
                        match login(&mut c, &format!("c{i}"), k, None) {
                            Ok(_) => done.fetch_add(1, Ordering::Relaxed),
                            Err(_) => failed.fetch_add(1, Ordering::Relaxed),
                        };
                    }
                });
            }
        });
        let el = t0.elapsed().as_secs_f64();
        let n = done.load(Ordering::Relaxed);
        println!(
            "sustained: {n} sha256 logins in {el:.1} s with 16 concurrent clients on loopback = {:.0} logins/s ({} failed); clients and server share the machine's {} cores",
            n as f64 / el,
            failed.load(Ordering::Relaxed),
            std::thread::available_parallelism().map_or(1, |x| x.get())
        );
        stop.store(true, Ordering::SeqCst);
        h.join().unwrap().unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}
