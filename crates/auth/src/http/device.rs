//! Device login for the page: short one-time codes a person types into
//! `prover auth login NAME --key KEY --code CODE URL`, and the long poll through which the
//! page that asked for the code receives the session token once a proof has verified.
//!
//! Why this is safe to show on screen: a code grants nothing by itself. The token goes only
//! to the holder of the secret `poll` handle (256 bits from the OS), and only after a valid
//! login proof for the code's name; a code is bound to one name, used once, and expires
//! after [`crate::Policy::device_ttl`] seconds ([`DEVICE_TTL`] by default). How to
//! misuse it: handing `poll` to anyone but the page that asked (it is the token's only key),
//! or keeping codes past their expiry.
//!
//! Codes live in the user database ([`crate::store::device`]; SQLite or PostgreSQL),
//! so that with several instances on one database a code issued by any instance is redeemed
//! at any instance and its poll answered by any instance: the database is the only shared
//! state; redemption is one conditional `UPDATE` (exactly one of two instances redeeming a
//! code at once wins). A poll waiting at the instance that verified the login is woken at
//! once ([`Devices::news`]); a poll waiting at another instance looks at the database again
//! every [`RECHECK`], holding no connection and no work slot while it sleeps.

use std::future::Future;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::db::UserDb;
use crate::store::{code_hash, poll_hash, DeviceCode, DeviceInsert, Event, Token};
use zkgames_core::rng::{os_rng, random_32};
use zkgames_core::Error;
use zkgames_core::Result;

/// Longest a device-code poll may wait for news, in seconds.
pub const MAX_WAIT: u64 = 25;
/// Device codes held at once by the database (all instances together, expired ones deleted
/// first).
pub const MAX_DEVICES: usize = 4096;
/// Seconds a device code stays usable by default (`--device-ttl`).
pub const DEVICE_TTL: i64 = 300;
/// How often a waiting poll looks at the database for news from other instances.
pub const RECHECK: Duration = Duration::from_millis(250);
/// Letters of a device code (no vowels: no words, no 0/O or 1/I confusion).
const CODE_ALPHABET: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ";
/// Fresh draws when a new code or handle equals a stored one (with 20^8 codes and at most
/// [`MAX_DEVICES`] stored, a second collision in a row has odds below 10^-12).
const DRAWS: usize = 4;

/// What the page reads from a poll: a pending code, or a done one with the page's session
/// `token` (issued when the poll collected it).
pub fn to_json(d: &DeviceCode, token: Option<&Token>) -> Value {
    match (&d.done, token) {
        (Some(done), Some(t)) => json!({
            "state": "done", "name": d.name, "refused": d.refused,
            "token": t.to_hex(), "expires_at": t.expires,
            "system": done.system, "proof_bytes": done.proof_bytes,
            "verify_ms": (done.verify_ms * 10.0).round() / 10.0,
        }),
        _ => json!({
            "state": "pending", "name": d.name, "expires_at": d.expires,
            "refused": d.refused,
        }),
    }
}

/// One look at the code behind the stored poll hash `key`, for a poll from `peer`: a done
/// code is collected here (one conditional `UPDATE`: of two polls at once, at any
/// instances, one collects) and the page gets a session of its own, issued now; a code
/// collected already is gone for everyone else.
pub fn look(db: &dyn UserDb, key: &[u8; 32], peer: &str) -> Result<Seen> {
    let Some(d) = db.device(key)? else {
        return Ok(Seen::Gone);
    };
    if d.collected {
        return Ok(Seen::Gone);
    }
    if d.done.is_none() {
        return Ok(Seen::Code(d));
    }
    let Some(name) = db.collect_device(key)? else {
        return Ok(Seen::Gone);
    };
    let t = db.issue_token(&name)?;
    db.record(
        Event::LoginOk,
        &name,
        peer,
        "page session of a device login",
    )?;
    Ok(Seen::Done(d, t))
}

/// A code just issued: what `POST /v1/device` answers.
pub struct Issued {
    /// Eight letters, shown as `BCDF-GHJK`.
    pub code: String,
    /// The secret poll handle (64 hex characters).
    pub poll: String,
    pub expires_at: i64,
}

/// A new code for `name`, asked from `peer` (an address, as the rate limits count it), stored
/// in `db`. `Ok(Err(seconds))` when `peer` already holds
/// [`crate::Policy::max_pending_per_peer`] live codes or the database holds
/// [`MAX_DEVICES`]: the wait until the peer's oldest code expires.
pub fn issue(db: &dyn UserDb, name: &str, peer: &str) -> Result<std::result::Result<Issued, u64>> {
    for _ in 0..DRAWS {
        let code = new_code();
        let poll = random_32(&mut os_rng());
        match db.insert_device(
            &poll_hash(&poll),
            &code_hash(&code),
            name,
            peer,
            MAX_DEVICES,
        )? {
            DeviceInsert::Stored { expires } => {
                return Ok(Ok(Issued {
                    code: format!("{}-{}", &code[..4], &code[4..]),
                    poll: hex::encode(poll),
                    expires_at: expires,
                }))
            }
            DeviceInsert::Full { retry_after } => return Ok(Err(retry_after)),
            DeviceInsert::Collision => {}
        }
    }
    Err(Error::io(
        "device codes",
        std::io::Error::other("no fresh code after several draws"),
    ))
}

/// The poll hash of the live, unused code `code` (as typed: see [`normalise_code`]) for
/// `name`, if any. The database is searched by the code's hash, never by its letters.
pub fn by_code(db: &dyn UserDb, code: &str, name: &str) -> Result<Option<[u8; 32]>> {
    db.device_by_code(&code_hash(&normalise_code(code)), name)
}

/// A code that names no live, unused code for the name (mistyped, used, expired, or
/// guessed): counted against `peer` as a failed login, so that guesses share the address's
/// failure budget ([`crate::Policy::max_failures`]). `Some(seconds)` when the address
/// is locked out already (nothing is counted then).
pub fn wrong_code(db: &dyn UserDb, name: &str, peer: &str) -> Result<Option<u64>> {
    if let Some(s) = db.retry_after(peer)? {
        db.record(Event::Refused, name, peer, "rate limit")?;
        return Ok(Some(s));
    }
    db.record(
        Event::LoginFail,
        name,
        peer,
        "unknown, used or expired device code",
    )?;
    Ok(None)
}

/// The stored hash of a poll handle as it arrives in a URL; `None` for anything but 64 hex
/// digits (answered as an unknown handle).
pub fn poll_key(poll: &str) -> Option<[u8; 32]> {
    if poll.len() != 64 {
        return None;
    }
    let p: [u8; 32] = hex::decode(poll).ok()?.try_into().ok()?;
    Some(poll_hash(&p))
}

/// What one look at the database found.
pub enum Seen {
    /// The code behind the handle, live and pending.
    Code(DeviceCode),
    /// The code was done and this look collected it: the page's new session.
    Done(DeviceCode, Token),
    /// No such live code: unknown, or expired.
    Gone,
    /// No work slot was free: look again at the next tick.
    Busy,
}

/// The news of this instance: wakes the polls waiting here when a login with a code
/// verified or was refused here. Polls waiting at other instances see it within
/// [`RECHECK`].
#[derive(Default)]
pub struct Devices {
    news: Notify,
}

impl Devices {
    /// A login with a code was redeemed or refused at this instance.
    pub fn news(&self) {
        self.news.notify_waiters();
    }

    /// The state of a code once it changes (done, or one more refusal) or after `wait`
    /// seconds (at most [`MAX_WAIT`]); `Ok(None)` for an unknown or expired handle. `look`
    /// reads the database (`first` says whether it is the first look, which may answer
    /// busy to the client; later looks just wait for the next tick). Between looks the
    /// poll holds nothing but a timer.
    pub async fn poll<E, F, Fut>(
        &self,
        wait: u64,
        mut look: F,
    ) -> std::result::Result<Option<Value>, E>
    where
        F: FnMut(bool) -> Fut,
        Fut: Future<Output = std::result::Result<Seen, E>>,
    {
        let deadline = Instant::now() + Duration::from_secs(wait.min(MAX_WAIT));
        let mut first_refused: Option<u32> = None;
        let mut last: Option<DeviceCode> = None;
        loop {
            // register interest before looking, so that news between the look and the
            // wait is not missed
            let notified = self.news.notified();
            match look(last.is_none()).await? {
                Seen::Gone => return Ok(None),
                Seen::Busy => {}
                Seen::Done(d, t) => return Ok(Some(to_json(&d, Some(&t)))),
                Seen::Code(d) => {
                    if first_refused.is_some_and(|s| s != d.refused) {
                        return Ok(Some(to_json(&d, None)));
                    }
                    first_refused.get_or_insert(d.refused);
                    last = Some(d);
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(last.as_ref().map(|d| to_json(d, None)));
            }
            let _ = tokio::time::timeout(left.min(RECHECK), notified).await;
        }
    }
}

/// A code as typed (any case, dashes or spaces) in its stored form; at most 16 characters
/// are kept, so a hostile request cannot make the hashing long.
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
    use crate::store::{Clock, DeviceDone, Policy, Store};

    #[test]
    fn codes_are_eight_letters_of_the_alphabet() {
        for _ in 0..100 {
            let c = new_code();
            assert_eq!(c.len(), 8);
            assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)));
        }
        assert_eq!(normalise_code("bcdf-ghjk"), "BCDFGHJK");
        assert_eq!(normalise_code(&"x".repeat(100)).len(), 16);
        assert!(poll_key(&"ab".repeat(32)).is_some());
        for bad in ["00", &"zz".repeat(32), &"é".repeat(32), &"00".repeat(33)] {
            assert!(poll_key(bad).is_none(), "{bad}");
        }
    }

    fn store(tag: &str, clock: Clock, pol: Policy) -> (Store, std::path::PathBuf) {
        let d = std::env::temp_dir().join(format!("zkg-device-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("u.db");
        (Store::open(&p, clock, pol).unwrap(), d)
    }

    fn look(db: &dyn UserDb, poll: &str) -> Seen {
        super::look(db, &poll_key(poll).unwrap(), "10.9.9.9").unwrap()
    }

    /// The session a done poll answer carries, checked against the store: its user.
    fn session_user(db: &dyn UserDb, v: &Value) -> Option<String> {
        let t: [u8; 32] = hex::decode(v["token"].as_str()?).ok()?.try_into().ok()?;
        db.check_token(&t).unwrap()
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    /// A code is bound to its name, limited per peer and globally, used once (a second
    /// redemption, by another connection as another instance would, fails), refused
    /// logins counted, and gone at its expiry (then deleted by purge).
    #[test]
    fn a_code_is_bound_to_its_name_limited_and_used_once() {
        let clock = Clock::fake(1_000);
        let pol = Policy {
            max_pending_per_peer: 2,
            ..Policy::default()
        };
        let (db, dir) = store("bound", clock.clone(), pol.clone());
        let other = Store::open(&dir.join("u.db"), clock.clone(), pol).unwrap();
        let a = issue(&db, "alice", "10.0.0.1").unwrap().unwrap();
        assert_eq!(a.expires_at, 1_000 + DEVICE_TTL);
        let p = by_code(&other, &a.code.to_lowercase(), "alice").unwrap();
        assert_eq!(p, poll_key(&a.poll));
        assert_eq!(by_code(&other, &a.code, "bob").unwrap(), None);
        assert_eq!(by_code(&other, "BCDF-GHJK-X", "alice").unwrap(), None);
        issue(&db, "bob", "10.0.0.1").unwrap().unwrap();
        assert!(
            issue(&db, "carol", "10.0.0.1").unwrap().is_err(),
            "two per peer"
        );
        assert!(
            issue(&db, "carol", "10.0.0.2").unwrap().is_ok(),
            "another peer"
        );
        let p = p.unwrap();
        other.refuse_device(&p).unwrap();
        let v = rt()
            .block_on(Devices::default().poll(0, |_| async { Ok::<_, ()>(look(&db, &a.poll)) }))
            .unwrap()
            .unwrap();
        assert_eq!(
            (v["state"].as_str(), v["refused"].as_u64()),
            (Some("pending"), Some(1))
        );
        let done = DeviceDone {
            system: "vole".into(),
            proof_bytes: 1234,
            verify_ms: 5.25,
        };
        assert!(
            !other.redeem_device(&p, "bob", &done).unwrap(),
            "another name"
        );
        assert!(other.redeem_device(&p, "alice", &done).unwrap());
        assert!(!db.redeem_device(&p, "alice", &done).unwrap(), "used once");
        assert_eq!(by_code(&db, &a.code, "alice").unwrap(), None, "used");
        let v = rt()
            .block_on(Devices::default().poll(5, |_| async { Ok::<_, ()>(look(&db, &a.poll)) }))
            .unwrap()
            .unwrap();
        assert_eq!(v["state"], "done");
        assert_eq!(
            session_user(&other, &v).as_deref(),
            Some("alice"),
            "a live session"
        );
        assert_eq!(
            (v["proof_bytes"].as_u64(), v["verify_ms"].as_f64()),
            (Some(1234), Some(5.3))
        );
        // collected once: a second poll, at any instance, finds nothing
        assert!(matches!(look(&other, &a.poll), Seen::Gone));
        assert!(matches!(look(&db, &a.poll), Seen::Gone));
        assert!(rt()
            .block_on(
                Devices::default().poll(0, |_| async { Ok::<_, ()>(look(&db, &"00".repeat(32))) })
            )
            .unwrap()
            .is_none());
        // expiry: gone for the poll and the login, then purged
        clock.advance(DEVICE_TTL);
        assert!(db.device(&p).unwrap().is_none());
        let c = issue(&db, "dave", "10.0.0.3").unwrap().unwrap();
        clock.advance(DEVICE_TTL);
        assert_eq!(by_code(&db, &c.code, "dave").unwrap(), None);
        assert!(!db
            .redeem_device(&poll_key(&c.poll).unwrap(), "dave", &done)
            .unwrap());
        assert_eq!(db.purge().unwrap().devices, 1);
        assert_eq!(db.device_count().unwrap(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The global cap counts every peer's live codes; expired ones are deleted on the next
    /// issue and do not count.
    #[test]
    fn the_global_cap_holds_and_expired_codes_make_room() {
        let clock = Clock::fake(1_000);
        let (db, dir) = store("cap", clock.clone(), Policy::default());
        let p = |i: u8| poll_hash(&[i; 32]);
        let c = |i: u8| code_hash(&format!("C{i}"));
        for i in 0..5 {
            assert!(matches!(
                db.insert_device(&p(i), &c(i), "alice", &format!("10.0.0.{i}"), 5)
                    .unwrap(),
                DeviceInsert::Stored { .. }
            ));
        }
        assert_eq!(
            db.insert_device(&p(9), &c(9), "alice", "10.0.1.1", 5)
                .unwrap(),
            DeviceInsert::Full { retry_after: 1 }
        );
        assert_eq!(
            db.insert_device(&p(9), &c(0), "alice", "10.0.1.1", 6)
                .unwrap(),
            DeviceInsert::Collision,
            "a code equal to a stored one"
        );
        clock.advance(DEVICE_TTL);
        assert!(matches!(
            db.insert_device(&p(9), &c(9), "alice", "10.0.1.1", 5)
                .unwrap(),
            DeviceInsert::Stored { .. }
        ));
        assert_eq!(db.device_count().unwrap(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A poll at one instance sees a redemption made through another connection within a
    /// recheck, without being notified.
    #[test]
    fn a_waiting_poll_sees_news_from_elsewhere() {
        let clock = Clock::fake(1_000);
        let (db, dir) = store("news", clock.clone(), Policy::default());
        let a = issue(&db, "alice", "10.0.0.1").unwrap().unwrap();
        let path = dir.join("u.db");
        let key = poll_key(&a.poll).unwrap();
        let writer = std::thread::spawn({
            let (path, clock) = (path.clone(), clock.clone());
            move || {
                std::thread::sleep(Duration::from_millis(600));
                let other = Store::open(&path, clock, Policy::default()).unwrap();
                let done = DeviceDone {
                    system: "kkw".into(),
                    proof_bytes: 1,
                    verify_ms: 1.0,
                };
                assert!(other.redeem_device(&key, "alice", &done).unwrap());
            }
        });
        let looks = std::cell::Cell::new(0);
        let v = rt()
            .block_on(Devices::default().poll(10, |_| {
                looks.set(looks.get() + 1);
                let s = look(&db, &a.poll);
                async { Ok::<_, ()>(s) }
            }))
            .unwrap()
            .unwrap();
        writer.join().unwrap();
        // without the rechecks the poll would have answered "pending" after 10 s
        assert_eq!(v["state"], "done");
        assert_eq!(session_user(&db, &v).as_deref(), Some("alice"));
        assert!(looks.get() >= 2, "rechecked");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A done code is collected once: of two connections (two instances) looking at it, one
    /// gets a session and the other nothing; the row never holds a token (no column does).
    #[test]
    fn a_done_code_is_collected_once_and_no_token_is_stored() {
        let clock = Clock::fake(1_000);
        let (db, dir) = store("collect", clock.clone(), Policy::default());
        let other = Store::open(&dir.join("u.db"), clock, Policy::default()).unwrap();
        for round in 0..20 {
            let a = issue(&db, "alice", &format!("10.0.0.{round}"))
                .unwrap()
                .unwrap();
            let key = poll_key(&a.poll).unwrap();
            let done = DeviceDone {
                system: "vole".into(),
                proof_bytes: 1,
                verify_ms: 1.0,
            };
            assert!(db.redeem_device(&key, "alice", &done).unwrap());
            let (x, y) = if round % 2 == 0 {
                (&db, &other)
            } else {
                (&other, &db)
            };
            let seen = [look(x, &a.poll), look(y, &a.poll)];
            let sessions: Vec<&Token> = seen
                .iter()
                .filter_map(|s| match s {
                    Seen::Done(_, t) => Some(t),
                    _ => None,
                })
                .collect();
            assert_eq!(sessions.len(), 1, "round {round}");
            assert_eq!(
                db.check_token(&sessions[0].token).unwrap().as_deref(),
                Some("alice")
            );
        }
        let cols: Vec<String> = rusqlite::Connection::open(dir.join("u.db"))
            .unwrap()
            .prepare("SELECT name FROM pragma_table_info('device_codes')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(cols.iter().all(|c| !c.contains("token")), "{cols:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
