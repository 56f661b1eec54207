//! Many hostile addresses holding a server's places: the first message an honest prover
//! sends ([`first_message`]), connections from many addresses that send it and then wait
//! ([`hold`]), and the honest client's count while they do ([`served`]). Shared by
//! `dos.rs` (busy connections, several per address) and `full_server.rs` (one per address,
//! as many as places).

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{connect_from, PROVER};

/// The bytes `prover ARGS` sends first, `ADDR` in `args` standing for a listener of ours
/// (everything it sends within 0.7 s of connecting; it is then killed).
pub fn first_message(args: &[&str]) -> Vec<u8> {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let a = l.local_addr().unwrap().to_string();
    let args: Vec<String> = args
        .iter()
        .map(|s| {
            if *s == "ADDR" {
                a.clone()
            } else {
                s.to_string()
            }
        })
        .collect();
    let mut child = std::process::Command::new(PROVER)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    l.set_nonblocking(true).unwrap();
    let t0 = Instant::now();
    let mut s = loop {
        match l.accept() {
            Ok((s, _)) => break s,
            Err(_) if t0.elapsed() < Duration::from_secs(30) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => {
                let _ = child.kill();
                panic!("prover {args:?} never connected: {e}");
            }
        }
    };
    s.set_nonblocking(false).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(700)))
        .unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n) = s.read(&mut chunk) {
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(!buf.is_empty());
    buf
}

/// `per` connections from each of `from`, each sending `hello` and then waiting (a valid
/// first message, the session then inside its deadlines); a thread keeps them so,
/// reconnecting (and resending) any the server closed, until `stop`. Returns how many
/// reconnections it made.
pub fn hold(
    addr: String,
    hello: Vec<u8>,
    from: Vec<Ipv4Addr>,
    per: usize,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<usize> {
    let connect = move |ip: Ipv4Addr, addr: &str, hello: &[u8]| {
        let mut s = connect_from(ip, addr).ok()?;
        s.write_all(hello).ok()?;
        s.set_nonblocking(true).ok()?;
        Some(s)
    };
    let mut held: Vec<(Ipv4Addr, Option<TcpStream>)> = Vec::new();
    for &ip in &from {
        for _ in 0..per {
            held.push((ip, connect(ip, &addr, &hello)));
        }
    }
    std::thread::spawn(move || {
        let mut again = 0;
        let mut buf = [0u8; 4096];
        while !stop.load(Ordering::SeqCst) {
            for (ip, s) in held.iter_mut() {
                let closed = match s {
                    None => true,
                    Some(st) => match st.read(&mut buf) {
                        Ok(0) => true,
                        Ok(_) => false,
                        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                    },
                };
                if closed {
                    *s = connect(*ip, &addr, &hello);
                    again += 1;
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        again
    })
}

/// `honest` run `n` times, 300 ms apart; how many were served (each refusal printed).
pub fn served(n: usize, honest: impl Fn() -> (i32, String)) -> usize {
    let mut ok = 0;
    for _ in 0..n {
        let (c, e) = honest();
        if c == 0 {
            ok += 1;
        } else {
            println!("  not served: exit {c}: {}", e.trim());
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    ok
}
