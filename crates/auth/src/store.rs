//! The user database of the authentication server: SQLite through rusqlite (bundled SQLite),
//! WAL journal, schema versioned.
//!
//! It stores no secret that lets anyone log in: users' public identities, pending
//! challenges (public nonces), session tokens as SHA-256 hashes, and an audit log. Every
//! time comes from the store's [`Clock`], in Unix seconds, so expiry is testable with
//! [`Clock::fake`].
//!
//! Schema version 4 (`PRAGMA application_id` = `0x7A6B6731`, "zkg1"). Older databases are
//! migrated in place when opened, one step at a time in one immediate transaction
//! (`MIGRATIONS`): version 1 differs from 2 only in the `users.kind` check (`sha256`,
//! `peg`; version 2 adds `lowmc`); version 3 adds `device_codes` (the page's device login,
//! [`device`]); version 4 widens the kind check again (`aes128`). A new file gets version 2's
//! tables, then the same steps.
//!
//! ```sql
//! CREATE TABLE schema_version (version INTEGER NOT NULL);   -- one row: 4
//! CREATE TABLE users (name TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL,
//!                     identity TEXT NOT NULL, created INTEGER NOT NULL);
//! CREATE TABLE challenges (nonce BLOB PRIMARY KEY NOT NULL, user TEXT NOT NULL,
//!                          peer TEXT NOT NULL, expires INTEGER NOT NULL);
//! CREATE TABLE tokens (hash BLOB PRIMARY KEY NOT NULL, user TEXT NOT NULL,
//!                      created INTEGER NOT NULL, expires INTEGER NOT NULL);
//! CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL,
//!                     event TEXT NOT NULL, user TEXT NOT NULL, peer TEXT NOT NULL,
//!                     detail TEXT NOT NULL);
//! CREATE TABLE device_codes (poll_hash BLOB PRIMARY KEY NOT NULL, code_hash BLOB NOT NULL UNIQUE,
//!                            name TEXT NOT NULL, peer TEXT NOT NULL, expires INTEGER NOT NULL,
//!                            refused INTEGER NOT NULL,
//!                            state TEXT NOT NULL,       -- pending | done | collected
//!                            system TEXT, proof_bytes INTEGER, verify_ms REAL); -- once done
//! ```
//!
//! Several processes or threads may open the same file (one [`Store`] each): every
//! operation that must be atomic is one SQL statement or one immediate transaction.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};
use sha2::{Digest as _, Sha256};

use super::keys::{check_user_name, Identity, Kind};
use zkgames_core::rng::{os_rng, random_32};
use zkgames_core::Error;
use zkgames_core::Result;

pub mod device;
pub use device::{code_hash, poll_hash, DeviceCode, DeviceDone, DeviceInsert};

/// The schema version this build reads and writes.
pub const SCHEMA_VERSION: i64 = 4;
/// `PRAGMA application_id` of a user database ("zkg1").
pub const APPLICATION_ID: i32 = 0x7A6B_6731;
/// Domain tag of token hashes: the database holds `SHA-256(TOKEN_TAG ‖ token)`.
pub const TOKEN_TAG: &[u8] = b"zkgames/auth/token/v1";
/// Longest peer address stored, in bytes.
pub const MAX_PEER: usize = 64;

/// A new database: version 2's tables, then `MIGRATIONS` from version 2 on.
const SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (2);
CREATE TABLE users (
    name TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('sha256', 'peg', 'lowmc')),
    identity TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE challenges (
    nonce BLOB PRIMARY KEY NOT NULL CHECK (length(nonce) = 32),
    user TEXT NOT NULL,
    peer TEXT NOT NULL,
    expires INTEGER NOT NULL
);
CREATE INDEX challenges_peer ON challenges (peer, expires);
CREATE TABLE tokens (
    hash BLOB PRIMARY KEY NOT NULL CHECK (length(hash) = 32),
    user TEXT NOT NULL,
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL
);
CREATE INDEX tokens_user ON tokens (user);
CREATE TABLE audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time INTEGER NOT NULL,
    event TEXT NOT NULL,
    user TEXT NOT NULL,
    peer TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX audit_user ON audit (event, user, time);
CREATE INDEX audit_peer ON audit (event, peer, time);
";

/// Migrations: entry `i` takes the schema from version `i + 1` to `i + 2`; each leaves the
/// version row to `migrate`.
const MIGRATIONS: &[&str] = &[
    // 1 -> 2: the `users` table rebuilt with the wider kind check, rows copied
    "
CREATE TABLE users_v2 (
    name TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('sha256', 'peg', 'lowmc')),
    identity TEXT NOT NULL,
    created INTEGER NOT NULL
);
INSERT INTO users_v2 (name, kind, identity, created) SELECT name, kind, identity, created FROM users;
DROP TABLE users;
ALTER TABLE users_v2 RENAME TO users;
",
    // 2 -> 3: device codes (see [`device`])
    "
CREATE TABLE device_codes (
    poll_hash BLOB PRIMARY KEY NOT NULL CHECK (length(poll_hash) = 32),
    code_hash BLOB NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    name TEXT NOT NULL,
    peer TEXT NOT NULL,
    expires INTEGER NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'collected')),
    system TEXT,
    proof_bytes INTEGER,
    verify_ms REAL
);
CREATE INDEX device_codes_peer ON device_codes (peer, expires);
CREATE INDEX device_codes_expires ON device_codes (expires);
",
    // 3 -> 4: the `users` table rebuilt with the `aes128` kind, rows copied
    "
CREATE TABLE users_v4 (
    name TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('sha256', 'peg', 'lowmc', 'aes128')),
    identity TEXT NOT NULL,
    created INTEGER NOT NULL
);
INSERT INTO users_v4 (name, kind, identity, created) SELECT name, kind, identity, created FROM users;
DROP TABLE users;
ALTER TABLE users_v4 RENAME TO users;
",
];

/// Brings the schema to [`SCHEMA_VERSION`], one step of [`MIGRATIONS`] at a time, in one
/// immediate transaction with the version re-read inside it: a database migrated meanwhile
/// by another process is left alone, and a failed step leaves the old version intact.
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let r = (|| {
        let mut v: i64 = conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0))?;
        while (1..SCHEMA_VERSION).contains(&v) {
            conn.execute_batch(MIGRATIONS[v as usize - 1])?;
            v += 1;
            conn.execute("UPDATE schema_version SET version = ?1", [v])?;
        }
        conn.execute_batch("COMMIT")
    })();
    if r.is_err() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    r
}

/// Where the store reads the time (Unix seconds).
#[derive(Clone, Debug)]
pub enum Clock {
    /// The system clock.
    System,
    /// A settable clock for tests: shares its value with every clone.
    Fake(Arc<AtomicI64>),
}

impl Clock {
    /// A fake clock starting at `t`.
    pub fn fake(t: i64) -> Clock {
        Clock::Fake(Arc::new(AtomicI64::new(t)))
    }
    /// The current time in Unix seconds.
    pub fn now(&self) -> i64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64),
            Clock::Fake(t) => t.load(Ordering::SeqCst),
        }
    }
    /// Moves a fake clock forward (no effect on the system clock).
    pub fn advance(&self, secs: i64) {
        if let Clock::Fake(t) = self {
            t.fetch_add(secs, Ordering::SeqCst);
        }
    }
}

/// Lifetimes and limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Seconds a challenge stays valid (60).
    pub challenge_ttl: i64,
    /// Seconds a session token stays valid (1 hour).
    pub token_ttl: i64,
    /// Failed logins tolerated per peer address within `failure_window` (5); never per user
    /// name (anyone could lock a user out).
    pub max_failures: usize,
    /// Seconds over which failures are counted (60).
    pub failure_window: i64,
    /// Unexpired challenges one peer may hold at once (64: an office behind one address
    /// logging in at once holds one each for a moment).
    pub max_pending_per_peer: usize,
    /// Registrations one peer address may make within `registration_window` (20): bounds how
    /// fast one client can fill the user table.
    pub max_registrations_per_peer: usize,
    /// Seconds over which registrations are counted (1 hour).
    pub registration_window: i64,
    /// Seconds audit entries are kept by [`Store::purge`] (90 days).
    pub audit_retention: i64,
    /// Most audit entries kept by [`Store::purge`] (the newest; 1,000,000).
    pub audit_max_rows: i64,
    /// Seconds a device code of the login page stays usable (5 minutes); it is bound to
    /// one name and used once. One peer may hold `max_pending_per_peer` live codes.
    pub device_ttl: i64,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            challenge_ttl: 60,
            token_ttl: 3600,
            max_failures: 5,
            failure_window: 60,
            max_pending_per_peer: 64,
            max_registrations_per_peer: 20,
            registration_window: 3600,
            audit_retention: 90 * 86_400,
            audit_max_rows: 1_000_000,
            device_ttl: 300,
        }
    }
}

/// A registered user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub identity: Identity,
    /// Registration time, Unix seconds.
    pub created: i64,
}

/// A fresh login challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub nonce: [u8; 32],
    /// Unix time from which it is no longer accepted.
    pub expires: i64,
}

/// A session token as given to the client (never stored in the database).
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    pub token: [u8; 32],
    /// Unix time from which it is no longer accepted.
    pub expires: i64,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Token(hidden, expires {})", self.expires)
    }
}

impl Token {
    /// The token as 64 lowercase hex digits (what the client keeps).
    pub fn to_hex(&self) -> String {
        hex::encode(self.token)
    }
}

/// What the audit log records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A login that succeeded.
    LoginOk,
    /// A login that failed (unknown user, bad or expired challenge, wrong proof): counted by
    /// the rate limit.
    LoginFail,
    /// An attempt refused by the rate limit before any verification.
    Refused,
    /// A user registered (by the user over the network, or by an administrator).
    Register,
    /// A user removed.
    Remove,
    /// A session token revoked by its holder.
    Logout,
}

impl Event {
    /// The name stored in the `event` column.
    pub fn name(self) -> &'static str {
        match self {
            Event::LoginOk => "login-ok",
            Event::LoginFail => "login-fail",
            Event::Refused => "refused",
            Event::Register => "register",
            Event::Remove => "remove",
            Event::Logout => "logout",
        }
    }
}

/// One audit log entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    pub time: i64,
    pub event: String,
    pub user: String,
    pub peer: String,
    pub detail: String,
}

/// Rows deleted by [`Store::purge`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub challenges: usize,
    pub tokens: usize,
    pub audit: usize,
    /// Expired device codes.
    pub devices: usize,
}

/// An open user database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    clock: Clock,
    policy: Policy,
}

/// The stored form of a session token: `SHA-256(TOKEN_TAG ‖ token)`.
pub fn token_hash(token: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(TOKEN_TAG);
    h.update(token);
    h.finalize().into()
}

fn check_peer(peer: &str) -> Result<()> {
    if peer.is_empty() || peer.len() > MAX_PEER || !peer.bytes().all(|c| c.is_ascii_graphic()) {
        return Err(Error::bad(format!(
            "bad peer address: 1 to {MAX_PEER} printable ASCII characters"
        )));
    }
    Ok(())
}

impl Store {
    /// Opens the database at `path`, creating it (and its schema) if the file does not exist
    /// or is empty.
    pub fn open(path: &Path, clock: Clock, policy: Policy) -> Result<Store> {
        Self::open_flags(path, clock, policy, true)
    }

    /// Opens an existing database; a missing file is an error.
    pub fn open_existing(path: &Path, clock: Clock, policy: Policy) -> Result<Store> {
        if !path.exists() {
            return Err(Error::bad(format!(
                "{}: no such user database",
                path.display()
            )));
        }
        Self::open_flags(path, clock, policy, false)
    }

    fn open_flags(path: &Path, clock: Clock, policy: Policy, create: bool) -> Result<Store> {
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let p = path.to_path_buf();
        let conn = Connection::open_with_flags(path, flags).map_err(|e| db_err(&p, e))?;
        let s = Store {
            conn,
            path: p,
            clock,
            policy,
        };
        s.conn
            .busy_timeout(Duration::from_secs(5))
            .map_err(|e| s.err(e))?;
        s.init()?;
        Ok(s)
    }

    fn err(&self, e: rusqlite::Error) -> Error {
        db_err(&self.path, e)
    }

    /// Checks the file is a user database of a supported version, or creates the schema in an
    /// empty one; then switches to WAL.
    fn init(&self) -> Result<()> {
        let not_ours = || {
            Error::bad(format!(
                "{}: an SQLite database, but not a zkgames user database",
                self.path.display()
            ))
        };
        // the first read fails with NOTADB on a file that is not SQLite
        let app: i32 = self
            .conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        let tables: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if tables == 0 && app == 0 {
            // a new file; another process may be creating it at the same time, hence the
            // immediate transaction below and the re-check inside it
            self.conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(|e| self.err(e))?;
            let r = (|| -> rusqlite::Result<()> {
                let tables: i64 = self.conn.query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                    [],
                    |r| r.get(0),
                )?;
                if tables == 0 {
                    self.conn
                        .pragma_update(None, "application_id", APPLICATION_ID)?;
                    self.conn.execute_batch(SCHEMA)?;
                }
                self.conn.execute_batch("COMMIT")?;
                migrate(&self.conn)
            })();
            if let Err(e) = r {
                let _ = self.conn.execute_batch("ROLLBACK");
                return Err(self.err(e));
            }
        } else {
            if app != APPLICATION_ID {
                return Err(not_ours());
            }
            let v: Option<i64> = self
                .conn
                .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
                .optional()
                .map_err(|_| not_ours())?;
            match v {
                Some(SCHEMA_VERSION) => {}
                Some(v) if (1..SCHEMA_VERSION).contains(&v) => {
                    migrate(&self.conn).map_err(|e| self.err(e))?
                }
                Some(v) => {
                    return Err(Error::bad(format!(
                        "{}: user database schema version {v}, this build reads version {SCHEMA_VERSION}",
                        self.path.display()
                    )))
                }
                None => return Err(not_ours()),
            }
        }
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::bad(format!(
                "{}: cannot switch the database to WAL mode (got '{mode}')",
                self.path.display()
            )));
        }
        // in WAL mode, NORMAL never corrupts the database; a power cut may lose the last
        // commits (a token or an audit line), not users already acknowledged by a checkpoint
        self.conn
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The store's current time (Unix seconds).
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// The store's policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Registers a user, first come first served: a taken name is refused
    /// ([`Error::BadInput`] "... is taken").
    pub fn add_user(&self, name: &str, id: &Identity) -> Result<()> {
        if !self.insert_user(name, id)? {
            return Err(Error::bad(format!("user name '{name}' is taken")));
        }
        Ok(())
    }

    /// [`Store::add_user`] telling a taken name apart: false if the name was taken.
    pub fn insert_user(&self, name: &str, id: &Identity) -> Result<bool> {
        check_user_name(name)?;
        let n = self
            .conn
            .execute(
                "INSERT INTO users (name, kind, identity, created) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (name) DO NOTHING",
                params![name, id.kind().name(), id.to_text().trim_end(), self.now()],
            )
            .map_err(|e| self.err(e))?;
        Ok(n > 0)
    }

    /// Removes a user with their tokens and pending challenges; an unknown name is an error.
    pub fn remove_user(&self, name: &str) -> Result<()> {
        check_user_name(name)?;
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(|e| self.err(e))?;
        let n = tx
            .execute("DELETE FROM users WHERE name = ?1", [name])
            .map_err(|e| self.err(e))?;
        if n == 0 {
            return Err(Error::bad(format!("no user named '{name}'")));
        }
        tx.execute("DELETE FROM tokens WHERE user = ?1", [name])
            .map_err(|e| self.err(e))?;
        tx.execute("DELETE FROM challenges WHERE user = ?1", [name])
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }

    fn row_to_user(&self, name: String, kind: String, id: String, created: i64) -> Result<User> {
        let identity = Identity::parse(&id).map_err(|e| {
            Error::bad(format!(
                "{}: corrupt entry for user '{name}': {e}",
                self.path.display()
            ))
        })?;
        if identity.kind().name() != kind {
            return Err(Error::bad(format!(
                "{}: corrupt entry for user '{name}': kind {kind} does not match the identity",
                self.path.display()
            )));
        }
        Ok(User {
            name,
            identity,
            created,
        })
    }

    /// The user registered under `name`, if any.
    pub fn user(&self, name: &str) -> Result<Option<User>> {
        let row = self
            .conn
            .query_row(
                "SELECT name, kind, identity, created FROM users WHERE name = ?1",
                [name],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        row.map(|(n, k, i, c)| self.row_to_user(n, k, i, c))
            .transpose()
    }

    /// Every user, by name.
    pub fn users(&self) -> Result<Vec<User>> {
        let mut st = self
            .conn
            .prepare("SELECT name, kind, identity, created FROM users ORDER BY name")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(|e| self.err(e))?
            .collect::<rusqlite::Result<Vec<(String, String, String, i64)>>>()
            .map_err(|e| self.err(e))?;
        rows.into_iter()
            .map(|(n, k, i, c)| self.row_to_user(n, k, i, c))
            .collect()
    }

    /// Number of users.
    pub fn user_count(&self) -> Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM users", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(n as usize)
    }

    /// Seconds to wait before `peer` may try a login again, if it has made
    /// [`Policy::max_failures`] failed logins within the last [`Policy::failure_window`]
    /// seconds; `None` if an attempt is allowed. `peer` is the address without the port (as
    /// grouped by [`zkgames_net::limit::addr_key_text`]).
    ///
    /// Only the address counts, never the user name: a limit per name would let anyone lock
    /// its owner out by failing logins in their name.
    pub fn retry_after(&self, peer: &str) -> Result<Option<u64>> {
        let now = self.now();
        let max = self.policy.max_failures;
        if max == 0 {
            return Ok(Some(1));
        }
        let times: Vec<i64> = self
            .conn
            .prepare_cached(
                "SELECT time FROM audit WHERE event = 'login-fail' AND peer = ?1 AND time > ?2
                 ORDER BY time DESC LIMIT ?3",
            )
            .and_then(|mut st| {
                st.query_map(
                    params![peer, now - self.policy.failure_window, max as i64],
                    |r| r.get(0),
                )?
                .collect()
            })
            .map_err(|e| self.err(e))?;
        if times.len() < max {
            return Ok(None);
        }
        // the attempt is allowed again once the oldest of the last `max` failures leaves the
        // window
        let wait = times[max - 1] + self.policy.failure_window - now;
        Ok((wait > 0).then_some(wait as u64))
    }

    /// Failed logins `peer` may still make within the failure window: the maximum less those
    /// recorded.
    pub fn failure_budget(&self, peer: &str) -> Result<usize> {
        let max = self.policy.max_failures;
        let n: i64 = self
            .conn
            .prepare_cached(
                "SELECT count(*) FROM (SELECT 1 FROM audit WHERE event = 'login-fail'
                 AND peer = ?1 AND time > ?2 LIMIT ?3)",
            )
            .and_then(|mut st| {
                st.query_row(
                    params![peer, self.now() - self.policy.failure_window, max as i64],
                    |r| r.get(0),
                )
            })
            .map_err(|e| self.err(e))?;
        Ok(max.saturating_sub(n.max(0) as usize))
    }

    /// Seconds `peer` must wait before registering again: `Some` once it has made
    /// [`Policy::max_registrations_per_peer`] registrations within the last
    /// [`Policy::registration_window`] seconds (counted in the audit log).
    pub fn registration_retry_after(&self, peer: &str) -> Result<Option<u64>> {
        let now = self.now();
        let max = self.policy.max_registrations_per_peer;
        if max == 0 {
            return Ok(Some(1));
        }
        let times: Vec<i64> = self
            .conn
            .prepare_cached(
                "SELECT time FROM audit WHERE event = 'register' AND peer = ?1 AND time > ?2
                 ORDER BY time DESC LIMIT ?3",
            )
            .and_then(|mut st| {
                st.query_map(
                    params![peer, now - self.policy.registration_window, max as i64],
                    |r| r.get(0),
                )?
                .collect()
            })
            .map_err(|e| self.err(e))?;
        if times.len() < max {
            return Ok(None);
        }
        let wait = times[max - 1] + self.policy.registration_window - now;
        Ok((wait > 0).then_some(wait as u64))
    }

    /// Issues a fresh 256-bit nonce for `user` (registered or not: unknown users get the same
    /// treatment) connecting from `peer`. Returns `Ok(Err(retry_after))` when `peer` already
    /// holds [`Policy::max_pending_per_peer`] unexpired challenges.
    pub fn issue_challenge(&self, user: &str, peer: &str) -> Result<Result<Challenge, u64>> {
        check_user_name(user)?;
        check_peer(peer)?;
        let now = self.now();
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(|e| self.err(e))?;
        let pending: Vec<i64> = tx
            .prepare_cached(
                "SELECT expires FROM challenges WHERE peer = ?1 AND expires > ?2
                 ORDER BY expires LIMIT ?3",
            )
            .and_then(|mut st| {
                st.query_map(
                    params![peer, now, self.policy.max_pending_per_peer as i64],
                    |r| r.get(0),
                )?
                .collect()
            })
            .map_err(|e| self.err(e))?;
        if pending.len() >= self.policy.max_pending_per_peer {
            let wait = pending.first().map_or(1, |&e| (e - now).max(1));
            return Ok(Err(wait as u64));
        }
        let nonce = random_32(&mut os_rng());
        let expires = now + self.policy.challenge_ttl;
        tx.execute(
            "INSERT INTO challenges (nonce, user, peer, expires) VALUES (?1, ?2, ?3, ?4)",
            params![&nonce[..], user, peer, expires],
        )
        .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(Ok(Challenge { nonce, expires }))
    }

    /// Consumes a challenge: true if `nonce` was issued for `user` and has not expired. The
    /// nonce is deleted in the same statement whatever the outcome, so it is never accepted
    /// twice, even by concurrent connections.
    pub fn consume_challenge(&self, nonce: &[u8; 32], user: &str) -> Result<bool> {
        let row: Option<(String, i64)> = self
            .conn
            .query_row(
                "DELETE FROM challenges WHERE nonce = ?1 RETURNING user, expires",
                [&nonce[..]],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        Ok(matches!(row, Some((u, exp)) if u == user && self.now() < exp))
    }

    /// Number of challenges stored (expired ones included until [`Store::purge`]).
    pub fn challenge_count(&self) -> Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM challenges", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(n as usize)
    }

    /// Issues a random 256-bit session token for `user`, valid [`Policy::token_ttl`] seconds;
    /// only its hash is stored.
    pub fn issue_token(&self, user: &str) -> Result<Token> {
        let token = random_32(&mut os_rng());
        let now = self.now();
        let expires = now + self.policy.token_ttl;
        self.conn
            .execute(
                "INSERT INTO tokens (hash, user, created, expires) VALUES (?1, ?2, ?3, ?4)",
                params![&token_hash(&token)[..], user, now, expires],
            )
            .map_err(|e| self.err(e))?;
        Ok(Token { token, expires })
    }

    /// The user a token belongs to, if it is known and unexpired.
    pub fn check_token(&self, token: &[u8; 32]) -> Result<Option<String>> {
        self.conn
            .query_row(
                "SELECT user FROM tokens WHERE hash = ?1 AND expires > ?2",
                params![&token_hash(token)[..], self.now()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Revokes a token (logout); true if it existed.
    pub fn revoke_token(&self, token: &[u8; 32]) -> Result<bool> {
        let n = self
            .conn
            .execute(
                "DELETE FROM tokens WHERE hash = ?1",
                [&token_hash(token)[..]],
            )
            .map_err(|e| self.err(e))?;
        Ok(n > 0)
    }

    /// Appends to the audit log. `detail` is cut to 200 bytes.
    pub fn record(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<()> {
        self.record_pending(event, user, peer, detail).map(drop)
    }

    /// [`Store::record`], returning the line's id for [`Store::amend`].
    pub fn record_pending(
        &self,
        event: Event,
        user: &str,
        peer: &str,
        detail: &str,
    ) -> Result<i64> {
        self.conn
            .execute(
                "INSERT INTO audit (time, event, user, peer, detail) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![self.now(), event.name(), user, peer, clip200(detail)],
            )
            .map_err(|e| self.err(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Changes the event and detail of audit line `id` (a login counted as failed before
    /// its proof was verified, once it verified).
    pub fn amend(&self, id: i64, event: Event, detail: &str) -> Result<()> {
        self.conn
            .execute(
                "UPDATE audit SET event = ?2, detail = ?3 WHERE id = ?1",
                params![id, event.name(), clip200(detail)],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The newest `limit` audit entries, newest first.
    pub fn audit(&self, limit: usize) -> Result<Vec<AuditEntry>> {
        let mut st = self
            .conn
            .prepare("SELECT time, event, user, peer, detail FROM audit ORDER BY id DESC LIMIT ?1")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([limit.min(i64::MAX as usize) as i64], |r| {
                Ok(AuditEntry {
                    time: r.get(0)?,
                    event: r.get(1)?,
                    user: r.get(2)?,
                    peer: r.get(3)?,
                    detail: r.get(4)?,
                })
            })
            .map_err(|e| self.err(e))?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| self.err(e))?;
        Ok(rows)
    }

    /// Deletes expired challenges, tokens and device codes, and audit entries older than
    /// [`Policy::audit_retention`] or beyond the newest [`Policy::audit_max_rows`].
    pub fn purge(&self) -> Result<Purged> {
        let now = self.now();
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(|e| self.err(e))?;
        let challenges = tx
            .execute("DELETE FROM challenges WHERE expires <= ?1", [now])
            .map_err(|e| self.err(e))?;
        let tokens = tx
            .execute("DELETE FROM tokens WHERE expires <= ?1", [now])
            .map_err(|e| self.err(e))?;
        let devices = tx
            .execute("DELETE FROM device_codes WHERE expires <= ?1", [now])
            .map_err(|e| self.err(e))?;
        let mut audit = tx
            .execute(
                "DELETE FROM audit WHERE time < ?1",
                [now - self.policy.audit_retention],
            )
            .map_err(|e| self.err(e))?;
        audit += tx
            .execute(
                "DELETE FROM audit WHERE id <= (SELECT max(id) FROM audit) - ?1",
                [self.policy.audit_max_rows],
            )
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(Purged {
            challenges,
            tokens,
            audit,
            devices,
        })
    }

    /// Number of tokens stored (expired ones included until [`Store::purge`]).
    pub fn token_count(&self) -> Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM tokens", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(n as usize)
    }

    /// Users of each kind (for status lines).
    pub fn kind_counts(&self) -> Result<Vec<(Kind, usize)>> {
        let mut out = Vec::new();
        for k in Kind::ALL {
            let n: i64 = self
                .conn
                .query_row(
                    "SELECT count(*) FROM users WHERE kind = ?1",
                    [k.name()],
                    |r| r.get(0),
                )
                .map_err(|e| self.err(e))?;
            out.push((k, n as usize));
        }
        Ok(out)
    }
}

/// `detail` cut to at most 200 bytes, on a character boundary.
pub(crate) fn clip200(detail: &str) -> &str {
    let mut end = detail.len().min(200);
    while !detail.is_char_boundary(end) {
        end -= 1;
    }
    &detail[..end]
}

/// One-line errors for database failures: a file that is not a database, or corrupt, is bad
/// input; anything else (locked, disk full, permissions) an I/O error.
fn db_err(path: &Path, e: rusqlite::Error) -> Error {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::bad(format!(
            "{}: not a zkgames user database (not an SQLite file)",
            path.display()
        )),
        Some(ErrorCode::DatabaseCorrupt) => {
            Error::bad(format!("{}: the user database is corrupt", path.display()))
        }
        _ => {
            let msg = e.to_string();
            let line = msg.lines().next().unwrap_or("database error");
            Error::io(
                format!("user database {}", path.display()),
                std::io::Error::other(line.to_string()),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_hash_is_tagged_sha256() {
        let t = [5u8; 32];
        let mut b = TOKEN_TAG.to_vec();
        b.extend_from_slice(&t);
        assert_eq!(token_hash(&t).as_slice(), Sha256::digest(&b).as_slice());
    }

    /// A version 1 database (the old kind check, no device codes) is migrated on open: its
    /// users kept, `lowmc` and `aes128` users accepted, device codes stored, the version row
    /// the current one; a later version is refused.
    #[test]
    fn version_1_databases_are_migrated() {
        use crate::keys::SecretKey;
        let d = std::env::temp_dir().join(format!("zkg-store-v1-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join("v1.db");
        let mut rng = zkgames_core::rng::seeded_rng(3);
        let old = SecretKey::generate(Kind::Sha256, &mut rng)
            .unwrap()
            .identity();
        {
            let c = Connection::open(&path).unwrap();
            c.pragma_update(None, "application_id", APPLICATION_ID)
                .unwrap();
            let v1 = SCHEMA
                .replace("VALUES (2)", "VALUES (1)")
                .replace("'sha256', 'peg', 'lowmc'", "'sha256', 'peg'");
            c.execute_batch(&v1).unwrap();
            c.execute(
                "INSERT INTO users VALUES ('old', 'sha256', ?1, 5)",
                [old.to_text()],
            )
            .unwrap();
            assert!(c
                .execute("INSERT INTO users VALUES ('x', 'lowmc', 'y', 5)", [])
                .is_err());
        }
        let st = Store::open(&path, Clock::fake(100), Policy::default()).unwrap();
        assert_eq!(st.user("old").unwrap().unwrap().identity, old);
        let id = SecretKey::generate(Kind::Lowmc, &mut rng)
            .unwrap()
            .identity();
        st.add_user("new", &id).unwrap();
        assert_eq!(st.user("new").unwrap().unwrap().identity, id);
        let aes = SecretKey::generate(Kind::Aes128, &mut rng)
            .unwrap()
            .identity();
        st.add_user("aes", &aes).unwrap();
        assert_eq!(st.user("aes").unwrap().unwrap().identity, aes);
        let v: i64 = st
            .conn
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
        let (p, c) = (poll_hash(&[1; 32]), code_hash("BCDFGHJK"));
        assert_eq!(
            st.insert_device(&p, &c, "new", "10.0.0.1", 10).unwrap(),
            DeviceInsert::Stored { expires: 400 }
        );
        assert_eq!(st.device_by_code(&c, "new").unwrap(), Some(p));
        drop(st);
        // reopening a migrated database changes nothing
        let st = Store::open(&path, Clock::fake(100), Policy::default()).unwrap();
        assert_eq!(st.users().unwrap().len(), 3);
        st.conn
            .execute("UPDATE schema_version SET version = 5", [])
            .unwrap();
        drop(st);
        let e = Store::open(&path, Clock::fake(100), Policy::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("schema version 5"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn peers() {
        check_peer("127.0.0.1").unwrap();
        check_peer("::1").unwrap();
        assert!(check_peer("").is_err());
        assert!(check_peer("a b").is_err());
        assert!(check_peer(&"1".repeat(65)).is_err());
    }
}
