//! Writes the fuzz seeds that only a live exchange produces: the frames each side of a real
//! session received (peg iso and ZKB++ sessions between the fuzz fixtures' prover and
//! verifier, over a socket pair), the login requests and replies of a real login against the
//! fixture identity, and the opening of the fixture seal. Called by `fuzz/seed.sh`, which
//! makes every other seed with the `prover` and `verifier` binaries.
//!
//! Usage: `cargo run --release --example fuzz_seeds -- CORPUS_DIR`

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::{Arc, Mutex};

use zkgames::auth::keys::{prove_login, SecretKey};
use zkgames::auth::server::{Reply, Request, AUTH_VERSION};
use zkgames::fuzz_entry::fixtures;
use zkgames::net::Channel;

/// A reader that keeps a copy of everything it reads.
struct Recorder<R> {
    r: R,
    log: Arc<Mutex<Vec<u8>>>,
}

impl<R: Read> Read for Recorder<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.r.read(buf)?;
        self.log.lock().unwrap().extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// A channel over one end of a socket pair whose received bytes are recorded.
fn recorded(s: UnixStream) -> (Channel, Arc<Mutex<Vec<u8>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let r = Recorder {
        r: s.try_clone().unwrap(),
        log: log.clone(),
    };
    (Channel::new(Box::new(r), Box::new(s)), log)
}

fn frame<T: serde::Serialize>(m: &T) -> Vec<u8> {
    let body = zkgames::proof_file::encode(m);
    let mut f = (body.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(&body);
    f
}

fn write(dir: &Path, target: &str, name: &str, bytes: &[u8]) {
    let d = dir.join(target);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(name), bytes).unwrap();
}

/// One session between the fixtures' prover and verifier of kind `which`; returns (what the
/// verifier received, what the prover received).
fn session(which: u8) -> (Vec<u8>, Vec<u8>) {
    let (a, b) = UnixStream::pair().unwrap();
    let (mut vch, vlog) = recorded(a);
    let (mut pch, plog) = recorded(b);
    let verifier = std::thread::spawn(move || {
        let mut v = zkgames::fuzz_entry::session_verifier_for(which);
        zkgames::net::run_verifier(&mut vch, v.as_mut()).map(|_| ())
    });
    zkgames::net::run_prover(&mut pch, zkgames::fuzz_entry::session_prover_for(which))
        .expect("the prover's session is accepted");
    verifier.join().unwrap().expect("the verifier accepts");
    drop(pch);
    let v = vlog.lock().unwrap().clone();
    let p = plog.lock().unwrap().clone();
    (v, p)
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: fuzz_seeds CORPUS_DIR");
    let dir = Path::new(&dir);

    for (which, name) in zkgames::fuzz_entry::SESSION_KINDS.iter().enumerate() {
        let which = which as u8;
        let (to_verifier, to_prover) = session(which);
        let mut v = vec![which];
        v.extend_from_slice(&to_verifier);
        write(dir, "session_verifier", &format!("{name}-accepted"), &v);
        let mut p = vec![which];
        p.extend_from_slice(&to_prover);
        write(dir, "session_prover", &format!("{name}-accepted"), &p);
        // the fuzz target's prover, fed the recorded verifier, really answers
        let sent = zkgames::fuzz_entry::run_session_prover(which, &to_prover);
        assert!(
            zkgames::fuzz_entry::frames(&sent).len() >= 3,
            "replayed prover session stopped early"
        );
    }

    // login, as the server receives it
    let key = SecretKey::Peg {
        instance: fixtures::tee().instance().clone(),
        moves: Vec::new(),
        solution: zkgames::peg::instance::tee_solution(),
    };
    let mut rng = zkgames::rng::seeded_rng(4);
    let proof = prove_login(
        &key,
        fixtures::SERVER,
        fixtures::USER,
        &fixtures::NONCE,
        &mut rng,
    )
    .unwrap();
    zkgames::auth::keys::verify_login(
        &fixtures::login_identity(),
        fixtures::SERVER,
        fixtures::USER,
        &fixtures::NONCE,
        &proof,
    )
    .expect("fixture login proof verifies");
    let mut req = frame(&Request::Register {
        version: AUTH_VERSION,
        user: fixtures::USER.into(),
        identity: fixtures::login_identity().to_text(),
    });
    req.extend(frame(&Request::Login {
        version: AUTH_VERSION,
        user: fixtures::USER.into(),
    }));
    req.extend(frame(&Request::Proof { proof }));
    req.extend(frame(&Request::Whoami {
        version: AUTH_VERSION,
        token: [9; 32],
    }));
    write(dir, "auth_request", "register-login-whoami", &req);

    // the replies the client receives
    let mut rep = frame(&Reply::Registered);
    rep.extend(frame(&Reply::Challenge {
        server: fixtures::SERVER.into(),
        nonce: fixtures::NONCE,
        expires_in: 60,
    }));
    rep.extend(frame(&Reply::Welcome {
        token: [9; 32],
        expires: 1_800_000_000,
    }));
    rep.extend(frame(&Reply::User {
        name: fixtures::USER.into(),
    }));
    write(dir, "auth_reply", "all-accepted", &rep);
    let denied = frame(&Reply::Denied {
        reason: "authentication failed".into(),
        retry_after: Some(30),
    });
    write(dir, "auth_reply", "denied", &denied);

    // the fixture seal and its opening
    let s = fixtures::wall_seal();
    write(dir, "seal_open", "fixture-opening", &s.opening);
    write(dir, "proof_wall_move", "fixture-seal", &s.file);
}
