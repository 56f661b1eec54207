//! `verifier peg serve` as a server: it keeps serving honest provers after port probes,
//! garbage, huge length prefixes, silent and trickling clients; it serves many provers at
//! once, refuses (not queues) beyond its limit, and stops cleanly on SIGTERM. Pipes have
//! deadlines too.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{p, prover_peg, Server, VERIFIER};

impl Server {
    /// `verifier peg serve tee` on a free local port, security 32, short deadlines, with `extra`.
    fn start_peg(extra: &[&str]) -> Server {
        Server::start_peg_with("1", "4", extra)
    }

    /// [`Server::start_peg`] with its message and session deadlines, in seconds.
    fn start_peg_with(timeout: &str, session: &str, extra: &[&str]) -> Server {
        let mut args = vec![
            "peg",
            "serve",
            "tee",
            "--listen",
            "127.0.0.1:0",
            "--security",
            "32",
            "--timeout",
            timeout,
            "--session-timeout",
            session,
        ];
        args.extend_from_slice(extra);
        Server::spawn(&args)
    }
}

fn honest(addr: &str) -> (i32, String) {
    let sol = p("puzzles/raw/tee.solution");
    let (code, _, err) = prover_peg("connect", "tee", &sol, &[addr, "--security", "32"]);
    (code, err)
}

fn assert_honest_ok(addr: &str, after: &str) {
    let (c, err) = honest(addr);
    assert_eq!(c, 0, "honest prover after {after}: {err}");
}

/// Waits until the server closes `s` (read returns 0 or fails); returns how long it took.
fn closed_within(mut s: TcpStream, limit: Duration) -> Duration {
    let t0 = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 256];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return t0.elapsed(),
            Ok(_) => {}
        }
    }
}

#[test]
fn keeps_serving_after_hostile_clients() {
    let srv = Server::start_peg(&[]);
    let a = srv.addr.clone();
    // a port probe
    drop(TcpStream::connect(&a).unwrap());
    assert_honest_ok(&a, "a probe");
    // garbage
    let mut g = TcpStream::connect(&a).unwrap();
    g.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    assert!(closed_within(g, Duration::from_secs(3)) < Duration::from_secs(3));
    assert_honest_ok(&a, "garbage");
    // a huge length prefix
    let mut h = TcpStream::connect(&a).unwrap();
    h.write_all(&u32::MAX.to_le_bytes()).unwrap();
    assert!(closed_within(h, Duration::from_secs(3)) < Duration::from_secs(3));
    assert_honest_ok(&a, "a huge length prefix");
    // a silent client, while an honest prover is served beside it
    let silent = TcpStream::connect(&a).unwrap();
    assert_honest_ok(&a, "a silent client");
    let t = closed_within(silent, Duration::from_secs(5));
    assert!(t < Duration::from_secs(3), "silent client held {t:?}");
    // a trickling client: a plausible length, then a byte every 200 ms
    let mut tr = TcpStream::connect(&a).unwrap();
    tr.write_all(&1000u32.to_le_bytes()).unwrap();
    let t2 = tr.try_clone().unwrap();
    let trickle = std::thread::spawn(move || {
        let mut t2 = t2;
        for _ in 0..50 {
            if t2.write_all(b"x").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    assert_honest_ok(&a, "a trickling client");
    let t = closed_within(tr, Duration::from_secs(8));
    assert!(t < Duration::from_secs(3), "trickling client held {t:?}");
    trickle.join().unwrap();
    assert_honest_ok(&a, "all of them");
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("stopped: 6 accepted"), "{log}");
    // one line per failed session, none of them Rust debug text
    assert!(
        log.lines().filter(|l| l.contains(": error:")).count() >= 5,
        "{log}"
    );
    assert!(!log.contains("{ "), "{log}");
}

#[test]
fn sixteen_concurrent_provers_all_succeed() {
    // all from 127.0.0.1: over the default 8 connections per address
    let srv = Server::start_peg(&["--max-per-address", "16"]);
    let hs: Vec<_> = (0..16)
        .map(|_| {
            let a = srv.addr.clone();
            std::thread::spawn(move || honest(&a))
        })
        .collect();
    for h in hs {
        let (c, err) = h.join().unwrap();
        assert_eq!(c, 0, "{err}");
    }
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0));
    assert!(log.contains("stopped: 16 accepted"), "{log}");
}

/// A full server closes a connection that has sent nothing to make room for a newcomer; an
/// address over its connection limit is refused (not queued) with a retry-after, which the
/// prover reports.
#[test]
fn a_full_server_evicts_the_idle_and_refuses_instead_of_queueing() {
    let srv = Server::start_peg(&["--max-sessions", "1", "--max-per-address", "1"]);
    let hold = TcpStream::connect(&srv.addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // the idle connection holds the one slot and 127.0.0.1's one place: refused, retry-after
    let (c, err) = honest(&srv.addr);
    // "try again later" (issue 21): its own exit status, not a rejection
    assert_eq!(c, 75, "{err}");
    assert!(
        err.contains("too many connections") && err.contains("try again in 1 s"),
        "{err}"
    );
    drop(hold);
    std::thread::sleep(Duration::from_millis(300));
    let srv2 = Server::start_peg(&["--max-sessions", "1"]);
    let hold2 = TcpStream::connect(&srv2.addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // the server is full of an idle connection: it is evicted for the honest prover
    assert_honest_ok(&srv2.addr, "an idle connection filled the server");
    assert!(closed_within(hold2, Duration::from_secs(2)) < Duration::from_secs(2));
    assert_honest_ok(&srv.addr, "the slot was freed");
    let (code, log) = srv.stop();
    assert_eq!(code, Some(0));
    assert!(log.contains("turned away: too many connections"), "{log}");
    let (code, log) = srv2.stop();
    assert_eq!(code, Some(0));
    assert!(log.contains("evicted:"), "{log}");
}

#[test]
fn once_serves_one_session_and_exits_with_its_verdict() {
    let srv = Server::start_peg(&["--once"]);
    // with --once a probe uses up the session: that is what --once means
    drop(TcpStream::connect(&srv.addr).unwrap());
    let mut srv = srv;
    let code = srv.child.wait().unwrap().code();
    assert_eq!(code, Some(2));
}

#[test]
fn a_silent_pipe_peer_hits_the_deadline() {
    let t0 = Instant::now();
    let mut v = Command::new(VERIFIER)
        .args(["peg", "serve", "tee", "--stdio", "--timeout", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // stdin stays open and silent
    let _keep = v.stdin.take();
    let o = v.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("deadline"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(5));
}

#[test]
fn seeds_are_refused_for_live_sessions() {
    let (c, _, _) = prover_peg("connect", "tee", "x", &["-", "--seed", "1"]);
    assert_eq!(c, 2);
    let o = Command::new(VERIFIER)
        .args(["peg", "serve", "tee", "--stdio", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// Reads one frame (`u32-le(len) ‖ body`) from `s`.
fn read_frame(s: &mut TcpStream) -> Vec<u8> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).unwrap();
    let mut body = vec![0u8; u32::from_le_bytes(len) as usize];
    s.read_exact(&mut body).unwrap();
    [&len[..], &body].concat()
}

/// A hostile prover that is honest up to its Hello: the real `prover` binary connects to a
/// relay, which passes its Hello to the server and the server's Ready back, then announces
/// a 32 MiB message to the server in place of the commitments and trickles bytes after it.
/// Returns how long the server took to close the connection and the frame it sent first.
fn oversize_after_an_honest_hello(server: &str, prover_args: &[&str]) -> (Duration, Vec<u8>) {
    let relay = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let at = relay.local_addr().unwrap().to_string();
    let sol = p("puzzles/raw/tee.solution");
    let args: Vec<String> = prover_args.iter().map(|s| s.to_string()).collect();
    let prover = std::thread::spawn(move || {
        let mut rest: Vec<&str> = vec![&at, "--security", "32"];
        rest.extend(args.iter().map(String::as_str));
        prover_peg("connect", "tee", &sol, &rest)
    });
    let (mut from_prover, _) = relay.accept().unwrap();
    from_prover
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut to_server = TcpStream::connect(server).unwrap();
    to_server
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let hello = read_frame(&mut from_prover);
    to_server.write_all(&hello).unwrap();
    let ready = read_frame(&mut to_server);
    from_prover.write_all(&ready).unwrap();
    // the prover's real commitments are dropped; 32 MiB is announced instead
    to_server.write_all(&(32u32 << 20).to_le_bytes()).unwrap();
    let t0 = Instant::now();
    let mut w = to_server.try_clone().unwrap();
    let trickle = std::thread::spawn(move || {
        for _ in 0..100 {
            if w.write_all(&[0u8; 64]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let reply = read_frame(&mut to_server);
    let closed = closed_within(to_server, Duration::from_secs(10)).max(t0.elapsed());
    drop(from_prover);
    trickle.join().unwrap();
    let _ = prover.join().unwrap();
    (closed, reply)
}

/// After an honest Hello every frame is held to what an honest prover of that statement
/// sends (issue 52): a 32 MiB length prefix in place of the commitments is refused on the
/// prefix, at once (long before the 20 s message deadline that would cut a trickle off),
/// with a one-line reason on the wire and in the log; an honest prover is served after it.
/// Peg Protocol 1 and the VOLE-in-the-head peg circuit.
#[test]
fn an_oversize_frame_after_an_honest_hello_is_refused_on_its_prefix() {
    for system in [&[][..], &["--system", "vole"][..]] {
        let srv = Server::start_peg_with("20", "60", system);
        let (t, reply) = oversize_after_an_honest_hello(&srv.addr, system);
        assert!(t < Duration::from_secs(2), "{system:?}: held {t:?}");
        let msg: zkgames::net::Msg =
            zkgames::proof_file::decode(&reply[4..], "the server's reply").unwrap();
        let zkgames::net::Msg::Reject { reason } = msg else {
            panic!("{system:?}: {msg:?}");
        };
        assert!(
            reason.contains("honest prover of this statement") && !reason.contains('\n'),
            "{reason}"
        );
        let sol = p("puzzles/raw/tee.solution");
        let mut rest = vec![srv.addr.as_str(), "--security", "32"];
        rest.extend_from_slice(system);
        let (c, _, err) = prover_peg("connect", "tee", &sol, &rest);
        assert_eq!(
            c, 0,
            "{system:?}: honest prover after the oversize frame: {err}"
        );
        let (code, log) = srv.stop();
        assert_eq!(code, Some(0), "{log}");
        assert!(log.contains("refused unread"), "{log}");
    }
}
