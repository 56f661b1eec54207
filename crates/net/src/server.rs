//! A TCP server that runs one session per connection until it is told to stop.
//!
//! Each accepted connection gets its own thread and [`Channel`] (with the server's
//! deadlines), at most [`ServerOptions::max_sessions`] at once and
//! [`ServerOptions::max_per_address`] per address; a connection beyond those is told to try
//! again later (with a retry-after, in its protocol's terms: [`ServerOptions::refuse`]) and
//! closed at once, never queued. When the server is full, a connection is closed to make room
//! for the newcomer ([`ConnTable`]): one that has not yet sent a whole first message (silent,
//! or trickling), else the oldest of the address holding the most connections if it holds
//! more than the newcomer's address would, so neither idle nor busy connections from a few
//! addresses can starve honest clients. A failing or hostile client (a port probe, garbage, a huge
//! length prefix, silence, a byte every minute) ends only its own session: the handler's
//! error, or even a panic, becomes one log line.
//!
//! Stopping: [`install_stop_signals`] makes SIGINT and SIGTERM set a flag; [`serve`] then
//! stops accepting, lets the sessions in flight finish (their deadlines bound the wait) and
//! returns its counts. A second signal exits at once.

use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::limit::{Admission, ConnTable};
use super::{Channel, Deadlines, Msg};
use zkgames_core::Error;
use zkgames_core::Result;

/// Set by SIGINT/SIGTERM once [`install_stop_signals`] has run.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// How often the accept loop looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// Seconds a client turned away (server full, address over its limit) is told to wait:
/// honest sessions take well under a second, and an evictable slot frees at once.
pub const BUSY_RETRY_AFTER: u32 = 1;

/// Default [`ServerOptions::max_per_address`].
pub const DEFAULT_MAX_PER_ADDRESS: usize = 8;

/// Default [`ServerOptions::first_message`].
pub const DEFAULT_FIRST_MESSAGE: Duration = Duration::from_secs(10);

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
    /// `error`, `busy`, `evicted`), `detail`, `ms`.
    Json,
}

/// How the server runs.
#[derive(Clone, Copy, Debug)]
pub struct ServerOptions {
    /// Sessions served at the same time; further connections are refused, not queued (after
    /// evicting a connection that has not sent its first message, if there is one).
    pub max_sessions: usize,
    /// Connections one address ([`super::limit::addr_key`]) may hold at once (8).
    pub max_per_address: usize,
    /// Deadline of the first message of a connection (10 s), shorter than the others: an
    /// honest client speaks at once, and a silent one should not hold a slot for a minute.
    pub first_message: Duration,
    /// How a turned-away client is told (default: the session protocol's `TryLater`).
    pub refuse: Refuse,
    /// Deadlines of each session.
    pub deadlines: Deadlines,
    /// A connection that has held its place this long yields it to a newcomer when the
    /// server is full ([`super::limit::DEFAULT_HOLD`], 3 s; rule 3 of [`ConnTable`]).
    pub hold: Duration,
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
                "busy" => format!("turned away: {detail}"),
                "evicted" => format!("evicted: {detail}"),
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
            max_per_address: DEFAULT_MAX_PER_ADDRESS,
            first_message: DEFAULT_FIRST_MESSAGE,
            refuse: refuse_session,
            deadlines: Deadlines::default(),
            hold: super::limit::DEFAULT_HOLD,
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
    /// Connections closed to make room for a newcomer (server full).
    pub evicted: usize,
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

/// Tells a client it is turned away (server full, or its address over a limit) and when to
/// try again: `(channel, reason, retry_after seconds)`. Each protocol answers in its own
/// message type, so that its client reports a retry-after instead of a decoding error.
pub type Refuse = fn(&mut Channel, &str, u32);

/// [`Refuse`] for the session protocol: [`Msg::TryLater`].
pub fn refuse_session(ch: &mut Channel, reason: &str, retry_after: u32) {
    let _ = ch.send(&Msg::TryLater {
        reason: reason.to_string(),
        retry_after,
    });
}

/// Serves sessions on `listener` until `stop` is set. `handler` runs one session on a
/// channel and returns a one-line summary of an accepted session, or the error.
///
/// Admission of a new connection ([`ConnTable`]):
/// 1. its address holds [`ServerOptions::max_per_address`] connections already: refused
///    with a retry-after ([`ServerOptions::refuse`]);
/// 2. the server holds [`ServerOptions::max_sessions`] connections: one is closed to make
///    room, a connection that has not sent a whole first message first (from the address
///    holding the most), else the oldest connection of the address holding the most, if
///    that address holds more than the newcomer's would; whatever those connections are
///    doing, addresses holding most yield to one that holds little. If every address holds
///    about as much as the newcomer's would, the connection that has held its place
///    longest yields, if for at least [`ServerOptions::hold`] (3 s), unless the newcomer's
///    address lost one that way lately; otherwise the newcomer is refused with a
///    retry-after, never queued;
/// 3. its first message must arrive within [`ServerOptions::first_message`], later ones
///    within the usual [`Deadlines`], the whole session within its deadline.
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
    let counts = [(); 5].map(|_| AtomicUsize::new(0));
    let serial = AtomicUsize::new(0);
    let table = ConnTable::with_hold(opts.max_sessions, opts.max_per_address, opts.hold);
    let refuse = |s: TcpStream, peer: SocketAddr, n: usize, reason: &str| {
        counts[3].fetch_add(1, Ordering::SeqCst);
        let mut ch = Channel::tcp(
            s,
            Deadlines {
                message: Duration::from_secs(1),
                session: Duration::from_secs(1),
            },
        );
        (opts.refuse)(&mut ch, reason, BUSY_RETRY_AFTER);
        log_line(opts.log, n, peer, "busy", reason, 0.0);
    };
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
            // the channel is made once admitted (dropping one shuts the socket down, which
            // would cut off a refusal's answer); until then the connection counts as idle
            let started: Arc<OnceLock<Arc<AtomicBool>>> = Arc::new(OnceLock::new());
            let evicted = Arc::new(AtomicBool::new(false));
            let busy = {
                let started = Arc::clone(&started);
                Box::new(move || started.get().is_some_and(|f| f.load(Ordering::SeqCst)))
            };
            let kick = {
                let (evicted, stream) = (Arc::clone(&evicted), s.try_clone());
                Box::new(move || {
                    evicted.store(true, Ordering::SeqCst);
                    if let Ok(st) = stream {
                        let _ = st.shutdown(Shutdown::Both);
                    }
                })
            };
            let ticket = match table.admit(peer.ip(), busy, kick) {
                Admission::Admitted { ticket, .. } => ticket,
                Admission::AddressFull => {
                    let reason = format!(
                        "too many connections from this address (at most {})",
                        opts.max_per_address
                    );
                    refuse(s, peer, n, &reason);
                    continue;
                }
                Admission::ServerFull => {
                    let reason = format!(
                        "server busy ({} running); try again shortly",
                        zkgames_core::files::count(opts.max_sessions as u64, "session")
                    );
                    refuse(s, peer, n, &reason);
                    continue;
                }
            };
            let Ok(handle) = s.try_clone() else {
                continue;
            };
            drop(s);
            let mut ch = Channel::tcp(handle, opts.deadlines);
            let _ = started.set(ch.set_first_message_deadline(opts.first_message));
            let (handler, counts) = (&handler, &counts);
            scope.spawn(move || {
                let _ticket = ticket;
                let t0 = Instant::now();
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    handler(&mut ch, peer)
                }));
                drop(ch);
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                let (k, outcome, detail) = match r {
                    _ if evicted.load(Ordering::SeqCst) => (
                        4,
                        "evicted",
                        "closed to make room for a newcomer (server full)".to_string(),
                    ),
                    Ok(Ok(summary)) => (0, "accepted", summary),
                    Ok(Err(e @ Error::Rejected(_))) => (1, "rejected", e.to_string()),
                    Ok(Err(e)) => (2, "error", e.to_string()),
                    Err(_) => (2, "error", "internal failure in this session".to_string()),
                };
                counts[k].fetch_add(1, Ordering::SeqCst);
                log_line(opts.log, n, peer, outcome, &detail, ms);
            });
        }
    });
    let c = counts.map(|c| c.into_inner());
    Ok(ServeStats {
        accepted: c[0],
        rejected: c[1],
        failed: c[2],
        busy: c[3],
        evicted: c[4],
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
            ..ServerOptions::default()
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
        assert!(stats.failed + stats.evicted >= 2, "{stats:?}");
    }
}
