//! A TCP server that runs one session per connection until it is told to stop.
//!
//! Each accepted connection gets its own thread and [`Channel`] (with the server's
//! deadlines), at most [`ServerOptions::max_sessions`] at once; a connection beyond that is
//! told `Reject{"server busy"}` and closed at once, never queued. A failing or hostile
//! client (a port probe, garbage, a huge length prefix, silence, a byte every minute) ends
//! only its own session: the handler's error, or even a panic, becomes one log line.
//!
//! Stopping: [`install_stop_signals`] makes SIGINT and SIGTERM set a flag; [`serve`] then
//! stops accepting, lets the sessions in flight finish (their deadlines bound the wait) and
//! returns its counts. A second signal exits at once.

use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{Channel, Deadlines, Msg};
use crate::{Error, Result};

/// Set by SIGINT/SIGTERM once [`install_stop_signals`] has run.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// How often the accept loop looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

#[cfg(unix)]
mod signals {
    use std::sync::atomic::Ordering;

    extern "C" {
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
        fn _exit(status: i32) -> !;
    }
    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;

    extern "C" fn on_signal(sig: i32) {
        // async-signal-safe: one atomic swap, or _exit on the second signal
        if super::STOP.swap(true, Ordering::SeqCst) {
            unsafe { _exit(128 + sig) }
        }
    }

    pub fn install() {
        unsafe {
            signal(SIGINT, on_signal);
            signal(SIGTERM, on_signal);
        }
    }
}

/// Routes SIGINT and SIGTERM to [`STOP`] (first signal: stop cleanly; second: exit now).
pub fn install_stop_signals() {
    #[cfg(unix)]
    signals::install();
}

/// How each session is logged on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Nothing.
    Quiet,
    /// `TIME #N PEER: OUTCOME … (MS ms)`.
    Plain,
    /// One JSON object per line: `time`, `n`, `peer`, `outcome` (`accepted`, `rejected`,
    /// `error`, `busy`), `detail`, `ms`.
    Json,
}

/// How the server runs.
#[derive(Clone, Copy, Debug)]
pub struct ServerOptions {
    /// Sessions served at the same time; further connections are refused, not queued.
    pub max_sessions: usize,
    /// Deadlines of each session.
    pub deadlines: Deadlines,
    /// One line per session on stderr, in this format.
    pub log: LogFormat,
}

fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn log_line(f: LogFormat, n: usize, peer: SocketAddr, outcome: &str, detail: &str, ms: f64) {
    match f {
        LogFormat::Quiet => {}
        LogFormat::Plain => {
            let sep = if detail.is_empty() { "" } else { " " };
            let text = match outcome {
                "accepted" => format!("ACCEPTED{sep}{detail}"),
                "rejected" => format!("REJECTED: {detail}"),
                "busy" => "refused, server busy".to_string(),
                _ => format!("error: {detail}"),
            };
            eprintln!("{} #{n} {peer}: {text} ({ms:.0} ms)", utc_now());
        }
        LogFormat::Json => eprintln!(
            "{{\"time\":{},\"n\":{n},\"peer\":{},\"outcome\":\"{outcome}\",\"detail\":{},\"ms\":{ms:.1}}}",
            json_str(&utc_now()),
            json_str(&peer.to_string()),
            json_str(detail)
        ),
    }
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            max_sessions: 32,
            deadlines: Deadlines::default(),
            log: LogFormat::Plain,
        }
    }
}

/// What a server did before it stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServeStats {
    pub accepted: usize,
    pub rejected: usize,
    pub failed: usize,
    pub busy: usize,
}

/// Seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (UTC), for log lines.
pub fn utc_now() -> String {
    let s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (s / 86_400, s % 86_400);
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Serves sessions on `listener` until `stop` is set. `handler` runs one session on a
/// channel and returns a one-line summary of an accepted session, or the error.
pub fn serve<F>(
    listener: &TcpListener,
    opts: &ServerOptions,
    stop: &AtomicBool,
    handler: F,
) -> Result<ServeStats>
where
    F: Fn(&mut Channel, SocketAddr) -> Result<String> + Sync,
{
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::io("cannot make the listener non-blocking", e))?;
    let active = AtomicUsize::new(0);
    let counts = [(); 4].map(|_| AtomicUsize::new(0));
    let serial = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        while !stop.load(Ordering::SeqCst) {
            let (s, peer) = match listener.accept() {
                Ok(x) => x,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(POLL);
                    continue;
                }
                Err(e) => {
                    // e.g. out of file descriptors: log, back off, keep serving
                    if opts.log != LogFormat::Quiet {
                        eprintln!("{} accept failed: {e}", utc_now());
                    }
                    std::thread::sleep(POLL * 5);
                    continue;
                }
            };
            let _ = s.set_nonblocking(false);
            let n = serial.fetch_add(1, Ordering::SeqCst) + 1;
            if active.load(Ordering::SeqCst) >= opts.max_sessions {
                counts[3].fetch_add(1, Ordering::SeqCst);
                let mut ch = Channel::tcp(
                    s,
                    Deadlines {
                        message: Duration::from_secs(1),
                        session: Duration::from_secs(1),
                    },
                );
                let _ = ch.send(&Msg::Reject {
                    reason: format!(
                        "server busy ({} sessions running); try again shortly",
                        opts.max_sessions
                    ),
                });
                log_line(opts.log, n, peer, "busy", "", 0.0);
                continue;
            }
            active.fetch_add(1, Ordering::SeqCst);
            let (handler, active, counts) = (&handler, &active, &counts);
            scope.spawn(move || {
                let t0 = Instant::now();
                let mut ch = Channel::tcp(s, opts.deadlines);
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    handler(&mut ch, peer)
                }));
                drop(ch);
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                let (k, outcome, detail) = match r {
                    Ok(Ok(summary)) => (0, "accepted", summary),
                    Ok(Err(e @ Error::Rejected(_))) => (1, "rejected", e.to_string()),
                    Ok(Err(e)) => (2, "error", e.to_string()),
                    Err(_) => (2, "error", "internal failure in this session".to_string()),
                };
                counts[k].fetch_add(1, Ordering::SeqCst);
                log_line(opts.log, n, peer, outcome, &detail, ms);
                active.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    let c = counts.map(|c| c.into_inner());
    Ok(ServeStats {
        accepted: c[0],
        rejected: c[1],
        failed: c[2],
        busy: c[3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpStream;

    #[test]
    fn utc_dates() {
        let d = utc_now();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }

    /// A garbage client and a silent one do not stop a later client; the busy limit refuses
    /// (not queues); stopping returns the counts.
    #[test]
    fn keeps_serving_and_refuses_when_full() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let stop = AtomicBool::new(false);
        let opts = ServerOptions {
            max_sessions: 2,
            deadlines: Deadlines {
                message: Duration::from_millis(500),
                session: Duration::from_secs(2),
            },
            log: LogFormat::Quiet,
        };
        let stats = std::thread::scope(|sc| {
            let h = sc.spawn(|| {
                serve(&l, &opts, &stop, |ch, _| {
                    let m: Msg = ch.recv("m")?;
                    ch.send(&m)?;
                    Ok("echo".into())
                })
            });
            let mut garbage = TcpStream::connect(addr).unwrap();
            garbage.write_all(&[0xff; 64]).unwrap();
            let silent = TcpStream::connect(addr).unwrap();
            std::thread::sleep(Duration::from_millis(100));
            // both slots taken (garbage may already have ended): at most one is refused
            let third = TcpStream::connect(addr).unwrap();
            let mut ch = Channel::tcp(third, Deadlines::default());
            let r = ch
                .send(&Msg::Commitments(vec![1]))
                .and_then(|_| ch.recv::<Msg>("r"));
            assert!(r.is_ok());
            std::thread::sleep(Duration::from_millis(700));
            // after the silent client's deadline a new client is served
            let mut ch = Channel::tcp(TcpStream::connect(addr).unwrap(), Deadlines::default());
            ch.send(&Msg::Commitments(vec![2])).unwrap();
            assert_eq!(ch.recv::<Msg>("r").unwrap(), Msg::Commitments(vec![2]));
            drop(silent);
            stop.store(true, Ordering::SeqCst);
            h.join().unwrap().unwrap()
        });
        assert!(stats.accepted >= 1, "{stats:?}");
        assert!(stats.failed >= 2, "{stats:?}");
    }
}
