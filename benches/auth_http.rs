//! The login service over HTTP against the TCP service, on SQLite and on PostgreSQL, one and
//! two instances: logins per second and login latency (p50, p99: challenge, proof, login)
//! with the same load generator (C concurrent clients for S seconds on loopback; every
//! client proves on the same machine as the servers, so the figures are for the whole
//! system). Then a load held for H seconds on two HTTP instances sharing PostgreSQL while
//! names are registered beside it: failed honest logins and lost registrations counted
//! (both must be 0).
//!
//! `cargo bench --bench auth_http` (ZKG_BENCH_SECS=8, ZKG_BENCH_CLIENTS=16, ZKG_BENCH_HOLD=60;
//! PostgreSQL rows are skipped, with a note, without Debian's `postgresql` package).

#[path = "common/quick.rs"]
mod quick;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use zkgames::auth::http_client::{self as web, Target};
use zkgames::auth::keys::SecretKey;
use zkgames::auth::server as tcp;
use zkgames::auth::Kind;
use zkgames::mpc::engine::Engine;
use zkgames::net::{Channel, Deadlines};
use zkgames::rng::os_rng;

#[path = "../tests/integration/common/pg.rs"]
#[allow(dead_code)]
mod pg;

const VERIFIER: &str = env!("CARGO_BIN_EXE_verifier");

fn env_or(k: &str, d: u64) -> u64 {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// A server process and the address from its first log line; killed on drop.
struct Srv {
    child: Child,
    addr: String,
}

impl Srv {
    fn start(db: &str, http: bool) -> Srv {
        let mut child = Command::new(VERIFIER)
            .args(["auth", "serve", "--db", db, "--quiet", "--name", "bench"])
            .args(if http {
                ["--http", "127.0.0.1:0"]
            } else {
                ["--listen", "127.0.0.1:0"]
            })
            .args([
                "--max-pending-per-peer",
                "4096",
                "--max-registrations-per-hour",
                "1000000",
                "--max-sessions",
                "64",
                // every client of the bench is 127.0.0.1
                "--max-per-address",
                "256",
                "--max-failures-per-minute",
                "1000000",
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split_whitespace()
            .find(|w| w.starts_with("127.0.0.1:"))
            .unwrap_or_else(|| panic!("{line}"))
            .trim_end_matches(':')
            .to_string();
        Srv { child, addr }
    }
}

impl Drop for Srv {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the clients go: the TCP service or the HTTP API, at one or more addresses.
#[derive(Clone)]
enum Via {
    Tcp(Vec<String>),
    Http(Vec<Target>),
}

impl Via {
    fn register(&self, i: usize, name: &str, k: &SecretKey) -> bool {
        let d = Deadlines::default();
        match self {
            Via::Tcp(a) => std::net::TcpStream::connect(&a[i % a.len()])
                .map(|s| tcp::register(&mut Channel::tcp(s, d), name, &k.identity()).is_ok())
                .unwrap_or(false),
            Via::Http(t) => web::register(&t[i % t.len()], &d, name, &k.identity()).is_ok(),
        }
    }
    fn login(&self, i: usize, name: &str, k: &SecretKey) -> bool {
        let d = Deadlines::default();
        match self {
            Via::Tcp(a) => std::net::TcpStream::connect(&a[i % a.len()])
                .map(|s| tcp::login(&mut Channel::tcp(s, d), name, k, Some("bench")).is_ok())
                .unwrap_or(false),
            Via::Http(t) => web::login(
                &t[i % t.len()],
                &d,
                name,
                k,
                Some("bench"),
                Engine::Zkbpp,
                None,
            )
            .is_ok(),
        }
    }
}

struct Run {
    ok: usize,
    failed: usize,
    secs: f64,
    lat: Vec<Duration>,
}

impl Run {
    fn pct(&self, p: f64) -> f64 {
        if self.lat.is_empty() {
            return f64::NAN;
        }
        let i = ((self.lat.len() as f64 - 1.0) * p).round() as usize;
        self.lat[i].as_secs_f64() * 1e3
    }
    fn rate(&self) -> f64 {
        self.ok as f64 / self.secs
    }
}

/// C clients (keys registered first, spread over the instances) logging in again and
/// again for `secs`; round `r` of client `i` goes to instance `(i + r) mod n`.
fn load(via: &Via, clients: usize, secs: u64, tag: &str) -> Run {
    let keys: Vec<SecretKey> = (0..clients)
        .map(|_| SecretKey::generate(Kind::Sha256, &mut os_rng()).unwrap())
        .collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(via.register(i, &format!("{tag}{i}"), k), "registration");
    }
    let lat = Mutex::new(Vec::new());
    let (ok, failed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let until = Instant::now() + Duration::from_secs(secs);
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for (i, k) in keys.iter().enumerate() {
            let (lat, ok, failed) = (&lat, &ok, &failed);
            s.spawn(move || {
                let mut mine = Vec::new();
                let mut round = 0;
                while Instant::now() < until {
                    let t = Instant::now();
                    if via.login(i + round, &format!("{tag}{i}"), k) {
                        ok.fetch_add(1, Ordering::Relaxed);
                        mine.push(t.elapsed());
                    } else {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                    round += 1;
                }
                lat.lock().unwrap().extend(mine);
            });
        }
    });
    let mut lat = lat.into_inner().unwrap();
    lat.sort();
    Run {
        ok: ok.into_inner(),
        failed: failed.into_inner(),
        secs: t0.elapsed().as_secs_f64(),
        lat,
    }
}

fn row(name: &str, r: &Run, base: Option<&Run>) {
    let vs = base.map_or(String::new(), |b| {
        format!(
            "  ({:.2}× the TCP rate, p50 {:+.1} ms)",
            r.rate() / b.rate(),
            r.pct(0.5) - b.pct(0.5)
        )
    });
    println!(
        "{name:<34} {:>7.1} logins/s   p50 {:>7.1} ms   p99 {:>7.1} ms   {:>5} ok {:>3} failed{vs}",
        r.rate(),
        r.pct(0.5),
        r.pct(0.99),
        r.ok,
        r.failed
    );
}

fn targets(s: &[&Srv]) -> Via {
    Via::Http(
        s.iter()
            .map(|x| Target::parse(&format!("http://{}", x.addr)).unwrap())
            .collect(),
    )
}

fn main() {
    quick::quick(&[
        ("ZKG_BENCH_SECS", "1"),
        ("ZKG_BENCH_CLIENTS", "2"),
        ("ZKG_BENCH_HOLD", "1"),
    ]);
    let secs = env_or("ZKG_BENCH_SECS", 8);
    let clients = env_or("ZKG_BENCH_CLIENTS", 16) as usize;
    let hold = env_or("ZKG_BENCH_HOLD", 60);
    let dir = std::env::temp_dir().join(format!("zkg-auth-http-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cores = std::thread::available_parallelism().map_or(1, |x| x.get());
    println!(
        "== login service: {clients} concurrent clients for {secs} s per row, sha256 keys, ZKB++ proofs, loopback; clients and servers share {cores} cores =="
    );
    // TCP baseline and HTTP on the same SQLite file, in the same run
    let sqlite = dir.join("users.db");
    let db = sqlite.to_str().unwrap();
    let base = {
        let t = Srv::start(db, false);
        load(&Via::Tcp(vec![t.addr.clone()]), clients, secs, "t")
    };
    row("TCP service, SQLite, 1 instance", &base, None);
    {
        let h = Srv::start(db, true);
        let r = load(&targets(&[&h]), clients, secs, "h");
        row("HTTP API, SQLite, 1 instance", &r, Some(&base));
    }
    {
        let (h1, h2) = (Srv::start(db, true), Srv::start(db, true));
        let r = load(&targets(&[&h1, &h2]), clients, secs, "hh");
        row("HTTP API, SQLite, 2 instances", &r, Some(&base));
    }
    // the TCP service again: the machine's load drifts, the two TCP rows bound the drift
    let base2 = {
        let t = Srv::start(db, false);
        load(&Via::Tcp(vec![t.addr.clone()]), clients, secs, "t2")
    };
    row("TCP service, SQLite, again", &base2, None);
    let pg = match pg::Pg::start("bench") {
        Ok(p) => p,
        Err(why) => {
            println!("PostgreSQL rows skipped: {why}");
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
    };
    let url = pg.database("bench");
    {
        let h = Srv::start(&url, true);
        let r = load(&targets(&[&h]), clients, secs, "p");
        row("HTTP API, PostgreSQL, 1 instance", &r, Some(&base));
    }
    {
        let (h1, h2) = (Srv::start(&url, true), Srv::start(&url, true));
        let r = load(&targets(&[&h1, &h2]), clients, secs, "pp");
        row("HTTP API, PostgreSQL, 2 instances", &r, Some(&base));
    }
    // the held load: logins on two instances, registrations beside them
    let (h1, h2) = (Srv::start(&url, true), Srv::start(&url, true));
    let via = targets(&[&h1, &h2]);
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(Mutex::new(Vec::<String>::new()));
    let reg = {
        let (via, stop, acked) = (via.clone(), stop.clone(), acked.clone());
        std::thread::spawn(move || {
            let k = SecretKey::generate(Kind::Sha256, &mut os_rng()).unwrap();
            let mut failed = 0;
            let mut i = 0;
            while !stop.load(Ordering::SeqCst) {
                let name = format!("held{i}");
                if via.register(i, &name, &k) {
                    acked.lock().unwrap().push(name);
                } else {
                    failed += 1;
                }
                i += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            failed
        })
    };
    let r = load(&via, clients, hold, "q");
    stop.store(true, Ordering::SeqCst);
    let reg_failed = reg.join().unwrap();
    let acked = acked.lock().unwrap().clone();
    let rows = pg.psql(
        "bench",
        "SELECT name FROM zkg_users WHERE name LIKE 'held%'",
    );
    let stored: std::collections::HashSet<&str> = rows.lines().collect();
    let lost = acked
        .iter()
        .filter(|n| !stored.contains(n.as_str()))
        .count();
    row(
        &format!("held {hold} s, PostgreSQL, 2 inst."),
        &r,
        Some(&base),
    );
    println!(
        "held load: {} honest logins, {} failed; {} registrations acknowledged beside it ({} refused), {} lost",
        r.ok,
        r.failed,
        acked.len(),
        reg_failed,
        lost
    );
    drop((h1, h2));
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
}
