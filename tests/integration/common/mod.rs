//! Shared test helpers: instances built from coordinates, independent of the board parser.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::Rng;
use zkgames::peg::instance::{Goal, Instance, Matrix};
use zkgames::rng::Rng as ZRng;

/// The 33-hole English board, central game, built directly from coordinates.
pub fn english() -> Instance {
    let holes: Vec<(i32, i32)> = (0..7)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|&(r, c)| (2..5).contains(&r) || (2..5).contains(&c))
        .collect();
    let idx = |p: (i32, i32)| holes.iter().position(|&h| h == p);
    let mut ts = Vec::new();
    for &(r, c) in &holes {
        for (dr, dc) in [(0, 1), (1, 0)] {
            if let (Some(a), Some(b), Some(cc)) = (
                idx((r, c)),
                idx((r + dr, c + dc)),
                idx((r + 2 * dr, c + 2 * dc)),
            ) {
                ts.push([a as u32, b as u32, cc as u32]);
            }
        }
    }
    let centre = idx((3, 3)).unwrap();
    let f: Vec<bool> = (0..holes.len()).map(|i| i != centre).collect();
    let l: Vec<bool> = (0..holes.len()).map(|i| i == centre).collect();
    Instance::new(holes.len(), ts, f, Goal::Position(l)).unwrap()
}

/// The legal successors of a position.
pub fn moves(inst: &Instance, row: &[bool]) -> Vec<Vec<bool>> {
    let mut out = Vec::new();
    for t in inst.triplets() {
        for (a, c) in [(t[0], t[2]), (t[2], t[0])] {
            let (a, b, c) = (a as usize, t[1] as usize, c as usize);
            if row[a] && row[b] && !row[c] {
                let mut n = row.to_vec();
                n[a] = false;
                n[b] = false;
                n[c] = true;
                out.push(n);
            }
        }
    }
    out
}

/// A plain DFS solver on 64-bit boards (N ≤ 64) remembering dead positions, no other
/// pruning: a reference for small instances and a source of valid solutions for tests.
pub fn dfs_solve(inst: &Instance) -> Option<Matrix> {
    assert!(inst.n() <= 64);
    let enc = |r: &[bool]| {
        r.iter()
            .enumerate()
            .fold(0u64, |a, (i, &b)| a | ((b as u64) << i))
    };
    let target = enc(inst.last()?);
    let ms: Vec<(u64, u64, u64)> = inst
        .triplets()
        .iter()
        .flat_map(|t| {
            let (a, b, c) = (1u64 << t[0], 1u64 << t[1], 1u64 << t[2]);
            [(a | b, c, a | b | c), (c | b, a, a | b | c)]
        })
        .collect();
    let mut dead = std::collections::HashSet::new();
    let mut path = vec![enc(inst.first())];
    let mut next_move = vec![0usize];
    loop {
        let cur = *path.last().unwrap();
        if path.len() == inst.s() {
            if cur == target {
                break;
            }
            dead.insert(cur);
            path.pop();
            next_move.pop();
            if path.is_empty() {
                return None;
            }
            continue;
        }
        let k = next_move.last_mut().unwrap();
        let mut advanced = false;
        while *k < ms.len() {
            let (full, empty, mask) = ms[*k];
            *k += 1;
            if cur & full == full && cur & empty == 0 {
                let n = cur ^ mask;
                if !dead.contains(&n) {
                    path.push(n);
                    next_move.push(0);
                    advanced = true;
                    break;
                }
            }
        }
        if !advanced {
            dead.insert(cur);
            path.pop();
            next_move.pop();
            if path.is_empty() {
                return None;
            }
        }
    }
    Some(
        path.iter()
            .map(|&x| (0..inst.n()).map(|i| x >> i & 1 == 1).collect())
            .collect(),
    )
}

/// A sequence from f to l with exactly one illegal step (the last): a random legal playout
/// of S − 2 moves followed by a jump straight to l. The best a prover without a solution can do.
pub fn one_illegal_step(inst: &Instance, rng: &mut ZRng) -> Matrix {
    let l = inst.last().unwrap().to_vec();
    loop {
        let mut z = vec![inst.first().to_vec()];
        while z.len() < inst.s() - 1 {
            let m = moves(inst, z.last().unwrap());
            match m.choose(rng) {
                Some(n) => z.push(n.clone()),
                None => break,
            }
        }
        if z.len() == inst.s() - 1 {
            z.push(l.clone());
            let illegal = (0..inst.s() - 1)
                .filter(|&i| inst.step_triplet(&z[i], &z[i + 1]).is_none())
                .count();
            if illegal == 1 {
                return z;
            }
        }
        let _ = rng.gen::<u8>();
    }
}

#[allow(unused_imports)]
pub use zkgames::peg::instance::tee_solution;

/// xorshift64: a tiny reproducible generator for tests that need no seed plumbing.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ------------------------------------------------------------- running the built binaries

/// The built `prover` binary.
pub const PROVER: &str = env!("CARGO_BIN_EXE_prover");
/// The built `verifier` binary.
pub const VERIFIER: &str = env!("CARGO_BIN_EXE_verifier");

/// A `prover` command to configure and run.
pub fn prover() -> std::process::Command {
    std::process::Command::new(PROVER)
}

/// A `verifier` command to configure and run.
pub fn verifier() -> std::process::Command {
    std::process::Command::new(VERIFIER)
}

/// A path inside the crate's source tree, given relative to its root.
pub fn p(rel: &str) -> String {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// A scratch path `name` in a directory of this test process (created if missing).
pub fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("zkgames-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name).to_string_lossy().into_owned()
}

/// A fresh, empty scratch directory `name` of this test process.
pub fn fresh_dir(tag: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("zkg-{tag}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Exit code (-1 when killed by a signal), stdout and stderr (decoded lossily) of a finished run.
pub fn outcome(o: std::process::Output) -> (i32, String, String) {
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs a prepared command to the end; returns (exit code, stdout, stderr) as [`outcome`].
pub fn run_cmd(c: &mut std::process::Command) -> (i32, String, String) {
    outcome(c.output().unwrap())
}

/// Runs `bin ARGS` with no stdin redirection; returns (exit code, stdout, stderr) as [`outcome`].
pub fn run(bin: &str, args: &[&str]) -> (i32, String, String) {
    run_cmd(std::process::Command::new(bin).args(args))
}

/// Runs `bin ARGS` with `stdin` (or no stdin at all); returns (exit code, stdout, stderr),
/// requiring a real exit code and UTF-8 output.
pub fn run_stdin(bin: &str, args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    if let Some(input) = stdin {
        // The child may exit before reading everything (e.g. on an oversized input).
        let _ = child.stdin.take().unwrap().write_all(input);
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

pub mod figures;
pub mod hold;
pub mod http;
pub mod pg;
pub mod python;

// ------------------------------------------------------------------------ servers

/// A running server (`verifier … --listen 127.0.0.1:0`), its address and all it has logged.
pub struct Server {
    pub child: std::process::Child,
    pub addr: String,
    pub log: std::sync::Arc<std::sync::Mutex<String>>,
    /// The thread copying stderr into `log`: it ends when the server's stderr closes.
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Spawns `verifier ARGS`, takes the address from its first stderr line, keeps logging the rest.
    pub fn spawn(args: &[&str]) -> Server {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        let mut child = Command::new(VERIFIER)
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut r = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        let addr = line
            .split_whitespace()
            .find(|w| w.starts_with("127.0.0.1:"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches(':')
            .to_string();
        let log = std::sync::Arc::new(std::sync::Mutex::new(line));
        let l2 = log.clone();
        let reader = std::thread::spawn(move || {
            for line in r.lines().map_while(Result::ok) {
                let mut l = l2.lock().unwrap();
                l.push_str(&line);
                l.push('\n');
            }
        });
        Server {
            child,
            addr,
            log,
            reader: Some(reader),
        }
    }

    /// Everything logged so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// SIGTERM, then the exit code and the whole log.
    pub fn stop(self) -> (Option<i32>, String) {
        let ok = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        self.finish()
    }

    /// Waits for the server to exit, then for every line it wrote: the exit code and the
    /// whole log (the log thread reaches the end of stderr only after the exit, so a log read
    /// right after `child.wait()` may miss the last lines).
    pub fn finish(mut self) -> (Option<i32>, String) {
        let code = self.child.wait().unwrap().code();
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        (code, self.log())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// Runs `verifier V` and `prover P` wired stdout-to-stdin both ways; returns (prover, verifier) outputs.
pub fn pipe_session<V, P>(
    verifier: &[V],
    prover: &[P],
) -> (std::process::Output, std::process::Output)
where
    V: AsRef<std::ffi::OsStr>,
    P: AsRef<std::ffi::OsStr>,
{
    use std::process::{Command, Stdio};
    let mut v = Command::new(VERIFIER)
        .args(verifier)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (to_v, from_v) = (v.stdin.take().unwrap(), v.stdout.take().unwrap());
    let pr = Command::new(PROVER)
        .args(prover)
        .stdin(Stdio::from(from_v))
        .stdout(Stdio::from(to_v))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (pr, v.wait_with_output().unwrap())
}

/// Runs `prover peg CMD PUZZLE --solution SOL REST…` (CMD: prove, connect); returns (exit code, stdout, stderr).
pub fn prover_peg(cmd: &str, puzzle: &str, sol: &str, rest: &[&str]) -> (i32, String, String) {
    let mut args = vec!["peg", cmd, puzzle, "--solution", sol];
    args.extend_from_slice(rest);
    run(PROVER, &args)
}

/// Runs `prover wall seal POS --move MOVE REST…`; returns (exit code, stdout, stderr).
pub fn wall_seal(pos: &str, mv: &str, rest: &[&str]) -> (i32, String, String) {
    run(
        PROVER,
        &[&["wall", "seal", pos, "--move", mv][..], rest].concat(),
    )
}

/// Runs `verifier wall verify POS SEAL REST…`; returns (exit code, stdout, stderr).
pub fn wall_verify(pos: &str, seal: &str, rest: &[&str]) -> (i32, String, String) {
    run(
        VERIFIER,
        &[&["wall", "verify", pos, seal][..], rest].concat(),
    )
}

/// Runs `prover auth keygen --kind KIND -o PATH`; returns (exit code, stdout, stderr).
pub fn keygen(kind: &str, path: &str) -> (i32, String, String) {
    run(PROVER, &["auth", "keygen", "--kind", kind, "-o", path])
}

/// `verifier auth serve` on `db` on a free port of 127.0.0.1, with `extra` options.
pub fn auth_server(db: &std::path::Path, extra: &[&str]) -> Server {
    let mut args = vec![
        "auth",
        "serve",
        "--db",
        db.to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
    ];
    args.extend_from_slice(extra);
    Server::spawn(&args)
}

/// A key of `kind` at `dir/NAME.key` added to `db` as NAME (offline, by the administrator,
/// `verifier auth add`); returns the key's path.
pub fn add_user(dir: &std::path::Path, db: &std::path::Path, name: &str, kind: &str) -> String {
    let k = dir.join(format!("{name}.key"));
    let (c, _, e) = keygen(kind, k.to_str().unwrap());
    assert_eq!(c, 0, "{e}");
    let id = dir.join(format!("{name}.pub"));
    let db = db.to_str().unwrap();
    let (c, _, e) = run(
        VERIFIER,
        &["auth", "add", name, id.to_str().unwrap(), "--db", db],
    );
    assert_eq!(c, 0, "{e}");
    k.to_str().unwrap().to_string()
}

/// A protocol channel over `stream` with generous deadlines (20 s a message, 60 s a
/// session): tests that measure or flood must not fail on a slow machine.
pub fn channel(stream: std::net::TcpStream) -> zkgames::net::Channel {
    let d = zkgames::net::Deadlines {
        message: std::time::Duration::from_secs(20),
        session: std::time::Duration::from_secs(60),
    };
    zkgames::net::Channel::tcp(stream, d)
}

/// Runs `verifier peg verify PUZZLE PROOF REST…`; returns (exit code, stdout, stderr).
pub fn peg_verify(puzzle: &str, proof: &str, rest: &[&str]) -> (i32, String, String) {
    run(
        VERIFIER,
        &[&["peg", "verify", puzzle, proof][..], rest].concat(),
    )
}

/// A TCP connection to `to` from the local address `from` (the port chosen by the kernel).
/// Linux routes the whole of 127.0.0.0/8 to loopback, so one test can play clients at many
/// addresses; std has no bind-before-connect, hence the three system calls.
#[cfg(target_os = "linux")]
pub fn connect_from(from: std::net::Ipv4Addr, to: &str) -> std::io::Result<std::net::TcpStream> {
    use std::os::fd::FromRawFd;
    #[repr(C)]
    struct SockaddrIn {
        family: u16,
        port: u16,
        addr: [u8; 4],
        zero: [u8; 8],
    }
    extern "C" {
        fn socket(domain: i32, ty: i32, proto: i32) -> i32;
        fn bind(fd: i32, addr: *const SockaddrIn, len: u32) -> i32;
        fn connect(fd: i32, addr: *const SockaddrIn, len: u32) -> i32;
        fn close(fd: i32) -> i32;
    }
    const AF_INET: i32 = 2;
    const SOCK_STREAM: i32 = 1;
    const SOCK_CLOEXEC: i32 = 0o2_000_000;
    let to: std::net::SocketAddr = to.parse().expect("an IPv4 address:port");
    let std::net::SocketAddr::V4(to) = to else {
        panic!("IPv4 only")
    };
    let sa = |ip: std::net::Ipv4Addr, port: u16| SockaddrIn {
        family: AF_INET as u16,
        port: port.to_be(),
        addr: ip.octets(),
        zero: [0; 8],
    };
    let (src, dst) = (sa(from, 0), sa(*to.ip(), to.port()));
    let len = std::mem::size_of::<SockaddrIn>() as u32;
    // SAFETY: plain system calls on a descriptor this function owns until it is handed to
    // TcpStream (or closed on failure); the address structs outlive the calls.
    unsafe {
        let fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if bind(fd, &src, len) != 0 || connect(fd, &dst, len) != 0 {
            let e = std::io::Error::last_os_error();
            close(fd);
            return Err(e);
        }
        Ok(std::net::TcpStream::from_raw_fd(fd))
    }
}

/// What a test does when a program it needs (Chromium, PostgreSQL, node, `sgt-puzzles`) is
/// missing: under `CI=true` it fails (CI installs every one of them, so a missing program
/// is a broken set-up, never a pass); elsewhere it prints `SKIPPED: why` and the caller
/// returns.
pub fn missing(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{why}: required under CI=true (.ci/run installs it)");
    }
    println!("SKIPPED: {why}");
}
