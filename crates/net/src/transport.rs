//! Byte streams with deadlines: every read and write of a session finishes by a given instant
//! or fails with [`std::io::ErrorKind::TimedOut`].
//!
//! Why a layer of its own: a socket read timeout bounds one `read()` call, not a message: a
//! peer that sends one byte every 119 s defeats a 120 s timeout forever. Here every call takes
//! the absolute instant by which it must be done, and the caller passes the earlier of the
//! message's and the session's deadlines, so a trickling peer is cut off on time.
//!
//! Two implementations:
//! * [`TcpTransport`]: before each system call the socket's timeout is set to the time left.
//! * [`PipeTransport`]: any `Read`/`Write` pair (stdin/stdout, Unix sockets, in-memory pipes).
//!   Blocking pipe calls cannot time out, so one thread reads and one writes, and the session
//!   waits on them with a deadline. Memory stays bounded: the reader thread hands over at most
//!   [`PIPE_CHUNK`] bytes at a time through a channel of [`PIPE_QUEUE`] slots.
//!
//! Misuse: a deadline in the past is not an error by itself, it makes the next call time out
//! at once; compute deadlines once per message, not per call.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

/// Largest chunk the pipe reader thread hands over at once.
pub const PIPE_CHUNK: usize = 64 << 10;
/// Chunks the pipe reader may read ahead of the session.
pub const PIPE_QUEUE: usize = 4;

/// A bidirectional byte stream whose calls finish by a deadline.
pub trait Transport: Send {
    /// Reads at least one byte into `buf` (returns 0 only at end of stream), by `deadline`.
    fn read_by(&mut self, buf: &mut [u8], deadline: Instant) -> io::Result<usize>;
    /// Writes all of `bytes` and flushes, by `deadline`.
    fn write_all_by(&mut self, bytes: &[u8], deadline: Instant) -> io::Result<()>;
}

fn time_left(deadline: Instant) -> io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(io::Error::new(io::ErrorKind::TimedOut, "deadline passed"))
    } else {
        Ok(left)
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// A TCP connection; each call sets the socket timeout to the time left before the deadline.
pub struct TcpTransport {
    s: TcpStream,
}

impl TcpTransport {
    /// Wraps a connected stream (Nagle's algorithm off: sessions are request/response).
    pub fn new(s: TcpStream) -> Self {
        let _ = s.set_nodelay(true);
        TcpTransport { s }
    }
}

impl Transport for TcpTransport {
    fn read_by(&mut self, buf: &mut [u8], deadline: Instant) -> io::Result<usize> {
        loop {
            self.s.set_read_timeout(Some(time_left(deadline)?))?;
            match self.s.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if is_timeout(&e) => {
                    return Err(io::Error::new(io::ErrorKind::TimedOut, "deadline passed"))
                }
                r => return r,
            }
        }
    }

    fn write_all_by(&mut self, mut bytes: &[u8], deadline: Instant) -> io::Result<()> {
        while !bytes.is_empty() {
            self.s.set_write_timeout(Some(time_left(deadline)?))?;
            match self.s.write(bytes) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if is_timeout(&e) => {
                    return Err(io::Error::new(io::ErrorKind::TimedOut, "deadline passed"))
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl Drop for TcpTransport {
    fn drop(&mut self) {
        let _ = self.s.shutdown(std::net::Shutdown::Both);
    }
}

/// Any reader/writer pair, served by one reader and one writer thread.
///
/// When the session gives up (deadline, error), the threads may stay blocked in a system
/// call until the peer closes its end or the process exits; they hold at most one chunk.
pub struct PipeTransport {
    chunks: Receiver<io::Result<Vec<u8>>>,
    pending: Vec<u8>,
    at: usize,
    eof: bool,
    writes: SyncSender<Vec<u8>>,
    acks: Receiver<io::Result<()>>,
}

impl PipeTransport {
    /// Starts the two pump threads.
    pub fn new(mut r: Box<dyn Read + Send>, mut w: Box<dyn Write + Send>) -> Self {
        let (ctx, chunks) = mpsc::sync_channel::<io::Result<Vec<u8>>>(PIPE_QUEUE);
        std::thread::spawn(move || loop {
            let mut buf = vec![0u8; PIPE_CHUNK];
            let r = match r.read(&mut buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Ok(n) => {
                    buf.truncate(n);
                    Ok(buf)
                }
                Err(e) => Err(e),
            };
            let stop = !matches!(&r, Ok(b) if !b.is_empty());
            if ctx.send(r).is_err() || stop {
                return;
            }
        });
        let (writes, wrx) = mpsc::sync_channel::<Vec<u8>>(1);
        let (atx, acks) = mpsc::sync_channel::<io::Result<()>>(1);
        std::thread::spawn(move || {
            for bytes in wrx {
                let r = w.write_all(&bytes).and_then(|_| w.flush());
                let failed = r.is_err();
                if atx.send(r).is_err() || failed {
                    return;
                }
            }
        });
        PipeTransport {
            chunks,
            pending: Vec::new(),
            at: 0,
            eof: false,
            writes,
            acks,
        }
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "deadline passed")
}

impl Transport for PipeTransport {
    fn read_by(&mut self, buf: &mut [u8], deadline: Instant) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.at == self.pending.len() {
            if self.eof {
                return Ok(0);
            }
            match self.chunks.recv_timeout(time_left(deadline)?) {
                Ok(Ok(chunk)) => {
                    self.eof = chunk.is_empty();
                    self.pending = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.eof = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => return Err(timed_out()),
                Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }

    fn write_all_by(&mut self, bytes: &[u8], deadline: Instant) -> io::Result<()> {
        let broken = || io::Error::new(io::ErrorKind::BrokenPipe, "the pipe to the peer is closed");
        self.writes.send(bytes.to_vec()).map_err(|_| broken())?;
        match self.acks.recv_timeout(time_left(deadline)?) {
            Ok(r) => r,
            Err(RecvTimeoutError::Timeout) => Err(timed_out()),
            Err(RecvTimeoutError::Disconnected) => Err(broken()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    fn pair() -> (PipeTransport, UnixStream) {
        let (a, b) = UnixStream::pair().unwrap();
        (
            PipeTransport::new(Box::new(a.try_clone().unwrap()), Box::new(a)),
            b,
        )
    }

    #[test]
    fn pipe_reads_what_was_written_and_sees_eof() {
        let (mut t, mut b) = pair();
        b.write_all(b"hello").unwrap();
        drop(b);
        let dl = Instant::now() + Duration::from_secs(5);
        let mut got = Vec::new();
        let mut buf = [0u8; 2];
        loop {
            let n = t.read_by(&mut buf, dl).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, b"hello");
    }

    #[test]
    fn pipe_read_times_out_at_the_deadline() {
        let (mut t, _b) = pair();
        let t0 = Instant::now();
        let e = t
            .read_by(&mut [0u8; 4], t0 + Duration::from_millis(150))
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        let el = t0.elapsed();
        assert!(
            el >= Duration::from_millis(150) && el < Duration::from_secs(5),
            "{el:?}"
        );
    }

    #[test]
    fn pipe_write_times_out_when_the_peer_never_reads() {
        let (mut t, _b) = pair();
        // far more than any socket buffer: the writer thread blocks, the session does not
        let big = vec![0u8; 32 << 20];
        let e = t
            .write_all_by(&big, Instant::now() + Duration::from_millis(200))
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
    }

    #[test]
    fn tcp_read_times_out_at_the_deadline_not_per_call() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        let mut t = TcpTransport::new(s);
        let t0 = Instant::now();
        let dl = t0 + Duration::from_millis(400);
        // a byte every 100 ms: each call succeeds, but the sum of calls hits the deadline
        let trickle = std::thread::spawn(move || {
            for _ in 0..20 {
                if c.write_all(b"x").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let mut n = 0;
        let err = loop {
            match t.read_by(&mut [0u8; 1], dl) {
                Ok(k) => n += k,
                Err(e) => break e,
            }
        };
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!((2..=6).contains(&n), "{n} bytes before the deadline");
        assert!(t0.elapsed() < Duration::from_secs(2));
        drop(t);
        trickle.join().unwrap();
    }
}
