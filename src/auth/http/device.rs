//! Device login for the page: short one-time codes a person types into
//! `prover auth login NAME --key KEY --code CODE URL`, and the long poll through which the
//! page that asked for the code receives the session token once a proof has verified.
//!
//! Why this is safe to show on screen: a code grants nothing by itself. The token goes only
//! to the holder of the secret `poll` handle (256 bits from the OS), and only after a valid
//! login proof for the code's name; a code is bound to one name, used once, and expires
//! after [`DEVICE_TTL`] seconds. How to misuse it: handing `poll` to anyone but the page
//! that asked (it is the token's only key), or keeping codes past their expiry.
//!
//! Codes live in the memory of the instance that issued them ([`Devices`]); the command shown
//! on the page names that instance's URL.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::auth::store::Clock;
use crate::rng::{os_rng, random_32};

/// Longest a device-code poll may wait for news, in seconds.
pub const MAX_WAIT: u64 = 25;
/// Device codes held at once by one instance.
pub const MAX_DEVICES: usize = 4096;
/// Seconds a device code stays usable.
pub const DEVICE_TTL: i64 = 300;
/// Letters of a device code (no vowels: no words, no 0/O or 1/I confusion).
const CODE_ALPHABET: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ";

/// Where a device login stands.
#[derive(Clone, Debug)]
enum State {
    Pending,
    Done {
        token: String,
        expires_at: i64,
        system: &'static str,
        proof_bytes: usize,
        verify_ms: f64,
    },
}

#[derive(Clone, Debug)]
struct Device {
    code: String,
    name: String,
    peer: String,
    expires: i64,
    refused: u32,
    state: State,
}

impl Device {
    /// What the page reads from a poll.
    fn to_json(&self) -> Value {
        match &self.state {
            State::Pending => json!({
                "state": "pending", "name": self.name, "expires_at": self.expires,
                "refused": self.refused,
            }),
            State::Done {
                token,
                expires_at,
                system,
                proof_bytes,
                verify_ms,
            } => json!({
                "state": "done", "name": self.name, "refused": self.refused,
                "token": token, "expires_at": expires_at, "system": system,
                "proof_bytes": proof_bytes, "verify_ms": verify_ms,
            }),
        }
    }
}

/// A code just issued: what `POST /v1/device` answers.
pub struct Issued {
    /// Eight letters, shown as `BCDF-GHJK`.
    pub code: String,
    /// The secret poll handle (64 hex characters).
    pub poll: String,
    pub expires_at: i64,
}

/// The device codes of one instance, keyed by their poll handle, and the news that wakes
/// the polls waiting on them.
pub struct Devices {
    map: Mutex<HashMap<String, Device>>,
    news: Notify,
}

impl Default for Devices {
    fn default() -> Self {
        Devices {
            map: Mutex::new(HashMap::new()),
            news: Notify::new(),
        }
    }
}

fn now() -> i64 {
    Clock::System.now()
}

impl Devices {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Device>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new code for `name`, asked from `peer` (an address, as the rate limits count it).
    /// `Err(seconds)` when `peer` already holds `max_per_peer` live codes or the instance
    /// holds [`MAX_DEVICES`]: the wait until the peer's oldest code expires.
    pub fn issue(&self, name: &str, peer: &str, max_per_peer: usize) -> Result<Issued, u64> {
        let t = now();
        let mut map = self.lock();
        map.retain(|_, d| d.expires > t);
        let mine: Vec<i64> = map
            .values()
            .filter(|d| d.peer == peer)
            .map(|d| d.expires)
            .collect();
        if mine.len() >= max_per_peer || map.len() >= MAX_DEVICES {
            return Err(mine.iter().min().map_or(1, |&e| (e - t).max(1)) as u64);
        }
        let code = new_code();
        let poll = hex::encode(random_32(&mut os_rng()));
        map.insert(
            poll.clone(),
            Device {
                code: code.clone(),
                name: name.to_string(),
                peer: peer.to_string(),
                expires: t + DEVICE_TTL,
                refused: 0,
                state: State::Pending,
            },
        );
        Ok(Issued {
            code: format!("{}-{}", &code[..4], &code[4..]),
            poll,
            expires_at: t + DEVICE_TTL,
        })
    }

    /// The poll handle of the live, unused code `code` (as typed: see [`normalise_code`])
    /// for `name`, if any.
    pub fn by_code(&self, code: &str, name: &str) -> Option<String> {
        let code = normalise_code(code);
        let t = now();
        self.lock()
            .iter()
            .find(|(_, d)| d.code == code && d.expires > t && matches!(d.state, State::Pending))
            .filter(|(_, d)| d.name == name)
            .map(|(poll, _)| poll.clone())
    }

    /// A login with the code behind `poll` succeeded: the page may collect the token.
    pub fn done(
        &self,
        poll: &str,
        token: &crate::auth::store::Token,
        system: &'static str,
        proof_bytes: usize,
        verify_ms: f64,
    ) {
        if let Some(d) = self.lock().get_mut(poll) {
            d.state = State::Done {
                token: token.to_hex(),
                expires_at: token.expires,
                system,
                proof_bytes,
                verify_ms: (verify_ms * 10.0).round() / 10.0,
            };
        }
        self.news.notify_waiters();
    }

    /// A login with the code behind `poll` was refused: the page says so, the code stays.
    pub fn refused(&self, poll: &str) {
        if let Some(d) = self.lock().get_mut(poll) {
            d.refused = d.refused.saturating_add(1);
        }
        self.news.notify_waiters();
    }

    /// The state of `poll` once it changes (done, or one more refusal) or after `wait`
    /// seconds (at most [`MAX_WAIT`]); `None` for an unknown or expired handle.
    pub async fn poll(&self, poll: &str, wait: u64) -> Option<Value> {
        let deadline = Instant::now() + Duration::from_secs(wait.min(MAX_WAIT));
        let mut seen: Option<u32> = None;
        loop {
            // register interest before looking, so that news between the look and the
            // wait is not missed
            let notified = self.news.notified();
            let d = self
                .lock()
                .get(poll)
                .filter(|d| d.expires > now())
                .cloned()?;
            let pending = matches!(d.state, State::Pending);
            let changed = seen.is_some_and(|s| s != d.refused);
            let left = deadline.saturating_duration_since(Instant::now());
            if !pending || changed || left.is_zero() {
                return Some(d.to_json());
            }
            seen.get_or_insert(d.refused);
            let _ = tokio::time::timeout(left.min(Duration::from_secs(1)), notified).await;
        }
    }
}

/// A code as typed (any case, dashes or spaces) in its stored form; at most 16 characters
/// are kept, so a hostile request cannot make the comparison long.
pub fn normalise_code(c: &str) -> String {
    c.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .take(16)
        .collect()
}

fn new_code() -> String {
    let r = random_32(&mut os_rng());
    // 8 letters of a 20-letter alphabet from 8 random bytes: the bias of `% 20` on a byte
    // (256 = 12·20 + 16) is harmless for a code that grants nothing by itself
    r[..8]
        .iter()
        .map(|&b| CODE_ALPHABET[b as usize % CODE_ALPHABET.len()] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_letters_of_the_alphabet() {
        for _ in 0..100 {
            let c = new_code();
            assert_eq!(c.len(), 8);
            assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)));
        }
        assert_eq!(normalise_code("bcdf-ghjk"), "BCDFGHJK");
        assert_eq!(normalise_code(&"x".repeat(100)).len(), 16);
    }

    #[test]
    fn a_code_is_bound_to_its_name_and_limited_per_peer() {
        let d = Devices::default();
        let a = d.issue("alice", "10.0.0.1", 2).unwrap();
        assert_eq!(
            d.by_code(&a.code.to_lowercase(), "alice"),
            Some(a.poll.clone())
        );
        assert_eq!(d.by_code(&a.code, "bob"), None);
        assert_eq!(d.by_code("BCDF-GHJK-X", "alice"), None);
        d.issue("bob", "10.0.0.1", 2).unwrap();
        assert!(d.issue("carol", "10.0.0.1", 2).is_err(), "two per peer");
        assert!(d.issue("carol", "10.0.0.2", 2).is_ok(), "another peer");
        d.refused(&a.poll);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let v = rt.block_on(d.poll(&a.poll, 0)).unwrap();
        assert_eq!(
            (v["state"].as_str(), v["refused"].as_u64()),
            (Some("pending"), Some(1))
        );
        assert!(rt.block_on(d.poll("00", 0)).is_none());
    }
}
