//! Live interactive sessions between a prover and a verifier process.
//!
//! Layers, bottom up:
//! - [`transport`]: byte streams (TCP, pipes) whose every call finishes by a deadline.
//! - [`Channel`] (this file): framed messages, `u32-le(len) ‖ body`, `body` bincode-encoded,
//!   `len ≤ MAX_FRAME` (and a server's first frame `≤ MAX_FIRST_FRAME`, refused on its length
//!   prefix), each message by a per-message deadline and the whole session by a
//!   per-session deadline ([`Deadlines`]). The body buffer grows as bytes arrive, so a frame
//!   that announces 64 MiB costs nothing until the bytes are really sent.
//! - [`session`]: one run of a sigma protocol in parallel repetition, with the verifier's
//!   challenges committed before it sees the prover's commitments (zero knowledge against
//!   any verifier, not only honest ones).
//! - [`server`]: an accept loop serving one session per connection, a bounded number at a
//!   time, until SIGINT/SIGTERM.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{de::DeserializeOwned, Serialize};

use zkgames_core::Error;
use zkgames_core::Result;

pub mod limit;
pub mod server;
pub mod session;
pub mod transport;

pub use session::{
    challenge_commitment, frame_bound, replay, run_prover, run_verifier, Hello, Msg, Responder,
    SessionProver, SessionRecord, SessionVerifier, FRAME_SLACK, SESSION_VERSION,
};
use transport::{PipeTransport, TcpTransport, Transport};

/// The largest frame accepted (64 MiB).
pub const MAX_FRAME: usize = 64 << 20;

/// The largest first frame a server accepts (64 KiB), unless it says otherwise
/// ([`Channel::set_max_first_frame`]): every protocol's first message (a session's Hello, a
/// Wordle guess) is a few hundred bytes, and a peer that has not yet sent one cannot make a
/// server hold more than this.
pub const MAX_FIRST_FRAME: usize = 64 << 10;

/// Bytes read at a time while a frame's body arrives: the buffer grows by at most this much
/// beyond what the peer really sent.
const READ_STEP: usize = 64 << 10;

/// How long one message and one whole session may take.
///
/// The message deadline runs from the moment a side starts waiting for (or sending) a
/// message until the message is complete, so it includes the peer's computing time. The
/// session deadline runs from the channel's creation. Honest sessions on the built-in
/// puzzles finish in well under a second; the defaults leave room for large boards and slow
/// machines while a silent or trickling peer is dropped within a minute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    pub message: Duration,
    pub session: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            message: Duration::from_secs(60),
            session: Duration::from_secs(300),
        }
    }
}

/// A framed, bidirectional message channel with deadlines.
pub struct Channel {
    t: Box<dyn Transport>,
    limits: Deadlines,
    session_end: Instant,
    max_frame: usize,
    /// The largest first frame, while [`Channel::first`] is set.
    max_first_frame: usize,
    /// Until the first frame has arrived: its own deadline and the flag raised then.
    first: Option<FirstMessage>,
    /// Whether the last frame was refused on its length prefix.
    oversize: bool,
}

struct FirstMessage {
    within: Duration,
    by: Instant,
    arrived: Arc<AtomicBool>,
}

impl Channel {
    /// A channel over a reader and a writer (pipes, Unix sockets...) with default deadlines.
    pub fn new(r: Box<dyn Read + Send>, w: Box<dyn Write + Send>) -> Self {
        Self::pipes(r, w, Deadlines::default())
    }

    /// A channel over a reader and a writer with the given deadlines.
    pub fn pipes(r: Box<dyn Read + Send>, w: Box<dyn Write + Send>, d: Deadlines) -> Self {
        Self::over(Box::new(PipeTransport::new(r, w)), d)
    }

    /// A channel over a TCP stream.
    pub fn tcp(s: std::net::TcpStream, d: Deadlines) -> Self {
        Self::over(Box::new(TcpTransport::new(s)), d)
    }

    /// A channel over this process's stdin and stdout.
    pub fn stdio(d: Deadlines) -> Self {
        Self::pipes(Box::new(std::io::stdin()), Box::new(std::io::stdout()), d)
    }

    /// A channel over any [`Transport`]; the session deadline starts now.
    pub fn over(t: Box<dyn Transport>, d: Deadlines) -> Self {
        Channel {
            t,
            limits: d,
            session_end: Instant::now() + d.session,
            max_frame: MAX_FRAME,
            max_first_frame: MAX_FIRST_FRAME,
            first: None,
            oversize: false,
        }
    }

    /// Gives the first message received its own, shorter deadline: `within` from now
    /// (capped by the usual ones). The returned flag turns true once a whole first frame has
    /// arrived, so a server can tell the connections that have sent nothing useful yet (silent
    /// or trickling: candidates for eviction when it is full) from those at work.
    ///
    /// Use it on the side that speaks second (a server), right after accepting: a client that
    /// computes before its first message would be cut off.
    pub fn set_first_message_deadline(&mut self, within: Duration) -> Arc<AtomicBool> {
        let arrived = Arc::new(AtomicBool::new(false));
        self.first = Some(FirstMessage {
            within,
            by: Instant::now() + within,
            arrived: Arc::clone(&arrived),
        });
        arrived
    }

    /// Changes the deadline of each message from now on (the session's stays): for a
    /// protocol with a phase where the peer may rightly stay silent longer, e.g. a player
    /// thinking during a timed round, and back.
    pub fn set_message_deadline(&mut self, within: Duration) {
        self.limits.message = within;
    }

    /// Lowers the largest frame this side accepts (a protocol whose messages are small
    /// should not let each connection hold [`MAX_FRAME`] bytes).
    pub fn set_max_frame(&mut self, bytes: usize) {
        self.max_frame = bytes.min(MAX_FRAME);
    }

    /// The largest frame this side accepts now.
    pub fn max_frame(&self) -> usize {
        self.max_frame
    }

    /// Whether the last frame received was refused on its length prefix (over
    /// [`Channel::set_max_frame`]'s limit or the first frame's), its body unread.
    pub fn refused_oversize(&self) -> bool {
        self.oversize
    }

    /// Sets the largest first frame accepted on a channel with a first-message deadline
    /// ([`MAX_FIRST_FRAME`] by default; never more than [`Channel::set_max_frame`]'s): for a
    /// protocol whose honest first message can be larger.
    pub fn set_max_first_frame(&mut self, bytes: usize) {
        self.max_first_frame = bytes.min(MAX_FRAME);
    }

    /// The deadline for the message starting now, and whether it is the session's.
    fn deadline(&self) -> (Instant, bool) {
        let msg = Instant::now() + self.limits.message;
        if msg < self.session_end {
            (msg, false)
        } else {
            (self.session_end, true)
        }
    }

    fn timeout_error(&self, session: bool, doing: &str) -> Error {
        if session {
            Error::bad(format!(
                "session deadline ({} s) passed while {doing}; giving up",
                self.limits.session.as_secs_f64()
            ))
        } else {
            Error::bad(format!(
                "no complete message within the {} s message deadline while {doing}; giving up",
                self.limits.message.as_secs_f64()
            ))
        }
    }

    /// Sends one message (any serde type: session messages, or another protocol's).
    pub fn send<T: Serialize>(&mut self, m: &T) -> Result<()> {
        let body = zkgames_core::proof_file::encode(m);
        if body.len() > MAX_FRAME {
            return Err(Error::bad(format!(
                "message of {} bytes exceeds the {MAX_FRAME}-byte frame limit",
                body.len()
            )));
        }
        let mut frame = Vec::with_capacity(4 + body.len());
        frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
        frame.extend_from_slice(&body);
        let (dl, session) = self.deadline();
        self.t.write_all_by(&frame, dl).map_err(|e| {
            if e.kind() == std::io::ErrorKind::TimedOut {
                self.timeout_error(session, "sending (the peer is not reading)")
            } else {
                Error::io("cannot send to peer", e)
            }
        })
    }

    /// Reads exactly `buf.len()` bytes by `dl`; `Ok(false)` when the stream ended first.
    fn read_exact_by(&mut self, buf: &mut [u8], dl: Instant) -> std::io::Result<bool> {
        let mut at = 0;
        while at < buf.len() {
            match self.t.read_by(&mut buf[at..], dl)? {
                0 => return Ok(false),
                n => at += n,
            }
        }
        Ok(true)
    }

    /// Receives one frame's body, refusing oversized frames, with the growing buffer.
    pub fn recv_frame(&mut self) -> Result<Vec<u8>> {
        let body = self.recv_frame_inner()?;
        if let Some(f) = self.first.take() {
            f.arrived.store(true, Ordering::SeqCst);
        }
        Ok(body)
    }

    fn recv_frame_inner(&mut self) -> Result<Vec<u8>> {
        self.oversize = false;
        let (mut dl, session) = self.deadline();
        let mut first = None;
        if let Some(f) = &self.first {
            if f.by < dl {
                dl = f.by;
                first = Some(f.within);
            }
        }
        let io_err = |ch: &Self, e: std::io::Error| {
            if e.kind() != std::io::ErrorKind::TimedOut {
                Error::io("cannot read from peer", e)
            } else if let Some(w) = first {
                Error::bad(format!(
                    "no complete first message within the {} s first-message deadline; giving up",
                    w.as_secs_f64()
                ))
            } else {
                ch.timeout_error(session, "waiting for the peer")
            }
        };
        let mut len = [0u8; 4];
        match self.read_exact_by(&mut len, dl) {
            Ok(true) => {}
            Ok(false) => return Err(Error::bad("the peer closed the connection")),
            Err(e) => return Err(io_err(self, e)),
        }
        if let Some(why) = other_protocol(&len) {
            return Err(Error::bad(why));
        }
        let len = u32::from_le_bytes(len) as usize;
        // until the peer has sent one whole message, it is held to the first one's bound
        let first_cap = self.max_first_frame.min(self.max_frame);
        if self.first.is_some() {
            if len > first_cap {
                self.oversize = true;
                return Err(Error::bad(format!(
                    "the peer announced a {len}-byte first message, over the {first_cap}-byte limit of a first message"
                )));
            }
        } else if len > self.max_frame {
            self.oversize = true;
            return Err(Error::bad(format!(
                "the peer announced a {len}-byte message, over the {}-byte limit",
                self.max_frame
            )));
        }
        let mut body = Vec::new();
        while body.len() < len {
            let have = body.len();
            let step = (len - have).min(READ_STEP);
            body.resize(have + step, 0);
            match self.t.read_by(&mut body[have..], dl) {
                Ok(0) => {
                    return Err(Error::bad(
                        "the peer closed the connection in the middle of a message",
                    ))
                }
                Ok(n) => body.truncate(have + n),
                Err(e) => return Err(io_err(self, e)),
            }
        }
        Ok(body)
    }

    /// Receives and decodes one message of type `T` (`what` names it in errors).
    pub fn recv<T: DeserializeOwned + Serialize>(&mut self, what: &str) -> Result<T> {
        let body = self.recv_frame()?;
        zkgames_core::proof_file::decode(&body, what)
    }

    /// A client's [`Channel::recv`] of a server's reply: a server that has no room for the
    /// connection answers with the session layer's `Reject{"server busy …"}` whatever protocol
    /// the client speaks, before reading anything; that refusal becomes [`Error::TryLater`] instead of
    /// a reply of type `T` that does not decode ("19 trailing bytes"). Servers must not use
    /// this on what clients send (a client could then make the server "try later").
    pub fn recv_reply<T: DeserializeOwned + Serialize>(&mut self, what: &str) -> Result<T> {
        let body = self.recv_frame()?;
        if let Ok(Msg::Reject { reason }) = zkgames_core::proof_file::decode::<Msg>(&body, what) {
            if let Some(e) = try_later_of(&reason) {
                return Err(e);
            }
        }
        zkgames_core::proof_file::decode(&body, what)
    }
}

/// The first words of a server's refusal for lack of room (`net::server`).
pub const BUSY: &str = "server busy";
/// The first words of a server's refusal by a rate limit.
pub const RATE_LIMITED: &str = "too many";

/// A refusal's reason read as "try again later" ([`Error::TryLater`], with the wait a
/// `retry after N s` in it announces): a reason starting with [`BUSY`] or [`RATE_LIMITED`]
/// (docs/PROTOCOLS.md 1.5, "Try again later"). Any other reason is a real refusal: `None`.
pub fn try_later_of(reason: &str) -> Option<Error> {
    if !(reason.starts_with(BUSY) || reason.starts_with(RATE_LIMITED)) {
        return None;
    }
    let wait = reason.split_once("retry after ").and_then(|(_, rest)| {
        let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let secs: u64 = n.parse().ok()?;
        rest[n.len()..]
            .starts_with(" s")
            .then(|| Duration::from_secs(secs.min(86_400)))
    });
    // the wait is said once, by the error itself
    let shown = reason
        .split_once("retry after ")
        .map_or(reason, |(head, _)| head);
    let shown = shown
        .strip_suffix("; try again shortly")
        .unwrap_or(shown)
        .trim_end_matches([' ', ':', ';', ',']);
    Some(Error::try_later(
        zkgames_core::files::untrusted::shown(shown),
        wait,
    ))
}

/// A frame length that spells the start of an HTTP message in ASCII: the peer speaks HTTP
/// where framed messages were expected. An HTTP server's answer (`HTTP`) means this client
/// was given the address of an HTTP API; a request (`GET `, `POST`, …) means an HTTP client
/// reached a framed-message service. Says which address form to use instead.
pub fn other_protocol(first4: &[u8; 4]) -> Option<String> {
    match first4 {
        b"HTTP" => Some(
            "the server answered in HTTP: this address serves the HTTP API, so give it as a \
             URL, http://HOST:PORT (HOST:PORT without a scheme is the TCP service, `--listen`)"
                .to_string(),
        ),
        b"GET " | b"POST" | b"PUT " | b"HEAD" | b"DELE" | b"OPTI" | b"PATC" | b"PRI " => Some(
            "an HTTP request reached the TCP service (`--listen`): HTTP clients and browsers \
             use the address of `--http`, as http://HOST:PORT"
                .to_string(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{TcpListener, TcpStream};

    fn tcp_pair(d: Deadlines) -> (Channel, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        (Channel::tcp(s, d), c)
    }

    fn short() -> Deadlines {
        Deadlines {
            message: Duration::from_millis(300),
            session: Duration::from_secs(2),
        }
    }

    #[test]
    fn a_silent_peer_times_out() {
        let (mut ch, _c) = tcp_pair(short());
        let t = Instant::now();
        let e = ch.recv::<Msg>("m").unwrap_err();
        assert!(e.to_string().contains("message deadline"), "{e}");
        assert!(t.elapsed() < Duration::from_secs(2));
    }

    /// The first message has its own deadline, counted from when it was set (not from the
    /// read), and raises the flag once complete; later messages get the usual deadline.
    #[test]
    fn the_first_message_has_its_own_deadline() {
        let d = Deadlines {
            message: Duration::from_secs(5),
            session: Duration::from_secs(10),
        };
        let (mut ch, _c) = tcp_pair(d);
        let arrived = ch.set_first_message_deadline(Duration::from_millis(300));
        let t = Instant::now();
        let e = ch.recv::<Msg>("m").unwrap_err();
        assert!(e.to_string().contains("first-message deadline"), "{e}");
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(!arrived.load(Ordering::SeqCst));
        // a timely first message raises the flag; the second may take longer than 300 ms
        let (mut ch, c) = tcp_pair(d);
        let arrived = ch.set_first_message_deadline(Duration::from_millis(300));
        let w = std::thread::spawn(move || {
            let mut peer = Channel::tcp(c, Deadlines::default());
            peer.send(&Msg::Commitments(vec![1])).unwrap();
            std::thread::sleep(Duration::from_millis(600));
            peer.send(&Msg::Commitments(vec![2])).unwrap();
            peer
        });
        assert_eq!(ch.recv::<Msg>("m").unwrap(), Msg::Commitments(vec![1]));
        assert!(arrived.load(Ordering::SeqCst));
        assert_eq!(ch.recv::<Msg>("m").unwrap(), Msg::Commitments(vec![2]));
        drop(w.join().unwrap());
    }

    #[test]
    fn a_trickling_peer_times_out_at_the_message_deadline() {
        let (mut ch, mut c) = tcp_pair(short());
        let w = std::thread::spawn(move || {
            let _ = c.write_all(&100u32.to_le_bytes());
            for _ in 0..30 {
                if c.write_all(b"z").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let t = Instant::now();
        let e = ch.recv::<Msg>("m").unwrap_err();
        assert!(e.to_string().contains("message deadline"), "{e}");
        assert!(t.elapsed() < Duration::from_millis(1500));
        drop(ch);
        w.join().unwrap();
    }

    #[test]
    fn the_session_deadline_bounds_many_timely_messages() {
        let d = Deadlines {
            message: Duration::from_millis(400),
            session: Duration::from_millis(900),
        };
        let (mut ch, c) = tcp_pair(d);
        let w = std::thread::spawn(move || {
            let mut peer = Channel::tcp(c, Deadlines::default());
            for _ in 0..20 {
                if peer
                    .send(&Msg::Ready {
                        challenge_commitment: [0; 32],
                    })
                    .is_err()
                {
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let t = Instant::now();
        let e = loop {
            if let Err(e) = ch.recv::<Msg>("m") {
                break e;
            }
        };
        assert!(e.to_string().contains("session deadline"), "{e}");
        assert!(t.elapsed() < Duration::from_millis(1500));
        drop(ch);
        w.join().unwrap();
    }

    /// Until a first message has arrived, a frame over [`MAX_FIRST_FRAME`] is refused on its
    /// length prefix alone (nothing of its body is read); one within it is taken, and the
    /// frames after it are held to the usual limit only.
    #[test]
    fn a_first_frame_is_capped_before_its_body_is_read() {
        let d = Deadlines {
            message: Duration::from_secs(5),
            session: Duration::from_secs(10),
        };
        let (mut ch, mut c) = tcp_pair(d);
        ch.set_first_message_deadline(Duration::from_secs(5));
        c.write_all(&(MAX_FIRST_FRAME as u32 + 1).to_le_bytes())
            .unwrap();
        let t = Instant::now();
        let e = ch.recv_frame().unwrap_err();
        assert!(
            e.to_string()
                .contains("65537-byte first message, over the 65536-byte limit"),
            "{e}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "it waited for the body"
        );
        // at the bound, then a larger second frame
        let (mut ch, mut c) = tcp_pair(d);
        ch.set_first_message_deadline(Duration::from_secs(5));
        let w = std::thread::spawn(move || {
            for n in [MAX_FIRST_FRAME, 4 * MAX_FIRST_FRAME] {
                c.write_all(&(n as u32).to_le_bytes()).unwrap();
                c.write_all(&vec![7u8; n]).unwrap();
            }
            c
        });
        assert_eq!(ch.recv_frame().unwrap().len(), MAX_FIRST_FRAME);
        assert_eq!(ch.recv_frame().unwrap().len(), 4 * MAX_FIRST_FRAME);
        w.join().unwrap();
        // a protocol may raise the first bound, never past the frame limit
        let (mut ch, mut c) = tcp_pair(d);
        ch.set_first_message_deadline(Duration::from_secs(5));
        ch.set_max_frame(1 << 20);
        ch.set_max_first_frame(2 << 20);
        c.write_all(&(1u32 << 20 | 1).to_le_bytes()).unwrap();
        let e = ch.recv_frame().unwrap_err();
        assert!(e.to_string().contains("over the 1048576-byte limit"), "{e}");
        // a channel without a first-message deadline (a client's) is not capped
        let (mut ch, mut c) = tcp_pair(d);
        let w = std::thread::spawn(move || {
            let n = 2 * MAX_FIRST_FRAME;
            c.write_all(&(n as u32).to_le_bytes()).unwrap();
            c.write_all(&vec![1u8; n]).unwrap();
            c
        });
        assert_eq!(ch.recv_frame().unwrap().len(), 2 * MAX_FIRST_FRAME);
        w.join().unwrap();
    }

    #[test]
    fn a_huge_length_prefix_is_refused_and_a_large_one_costs_only_what_arrives() {
        let (mut ch, mut c) = tcp_pair(short());
        c.write_all(&u32::MAX.to_le_bytes()).unwrap();
        let e = ch.recv::<Msg>("m").unwrap_err();
        assert!(e.to_string().contains("over the"), "{e}");
        // 64 MiB announced, 10 bytes sent, then silence: a timeout, with a small buffer
        let (mut ch, mut c) = tcp_pair(short());
        c.write_all(&(MAX_FRAME as u32).to_le_bytes()).unwrap();
        c.write_all(&[0u8; 10]).unwrap();
        assert!(ch.recv_frame().is_err());
    }

    #[test]
    fn a_busy_refusal_reads_as_try_later_with_its_wait() {
        let e = try_later_of("server busy (32 sessions running); try again shortly").unwrap();
        assert_eq!(e.exit_code(), 75);
        assert_eq!(
            e.to_string(),
            "server busy (32 sessions running); try again later"
        );
        match try_later_of("server busy (x); retry after 5 s").unwrap() {
            Error::TryLater { retry_after, .. } => {
                assert_eq!(retry_after, Some(Duration::from_secs(5)))
            }
            e => panic!("{e}"),
        }
        assert!(try_later_of("the statement is not the one served").is_none());
        assert!(try_later_of("too many connections from 10.0.0.1; retry after 7 s").is_some());
        // a client reading a reply of another type gets the refusal, not a decoding error
        let (a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        let mut x = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
        let mut y = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        x.send(&Msg::Reject {
            reason: "server busy (1 session running); try again shortly".into(),
        })
        .unwrap();
        let e = y.recv_reply::<(u64, [u8; 32])>("reply").unwrap_err();
        assert_eq!(e.exit_code(), 75, "{e}");
    }

    #[test]
    fn messages_round_trip_over_pipes_and_tcp() {
        let (a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        let mut x = Channel::new(Box::new(a.try_clone().unwrap()), Box::new(a));
        let mut y = Channel::new(Box::new(b.try_clone().unwrap()), Box::new(b));
        let m = Msg::Commitments(vec![7u8; 200_000]);
        x.send(&m).unwrap();
        assert_eq!(y.recv::<Msg>("m").unwrap(), m);
        let (mut s, c) = tcp_pair(Deadlines::default());
        let mut c = Channel::tcp(c, Deadlines::default());
        c.send(&m).unwrap();
        assert_eq!(s.recv::<Msg>("m").unwrap(), m);
    }
}
