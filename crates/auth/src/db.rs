//! The user database behind one interface, whatever holds it: SQLite ([`super::store::Store`],
//! one file, the default) or PostgreSQL ([`super::pg::PgStore`], shared by several server
//! instances). [`super::login::Authenticator`] and both transports (TCP and HTTP) see only a
//! [`UserDb`], so the rules of registration, login, rate limits and the audit log exist once.
//!
//! Every method that must be atomic across connections (and, for PostgreSQL, across server
//! processes) is one statement or one transaction in each backend: a challenge is consumed by
//! `DELETE … RETURNING`, a name is taken by a unique key, counters live in the database.
//!
//! Misuse: a `UserDb` is one database connection; it is `Send` but not shared between threads
//! (open one per worker, as [`DbPool`] does).

use std::sync::Mutex;

use super::keys::Identity;
use super::store::{
    Challenge, Clock, DeviceCode, DeviceDone, DeviceInsert, Event, Policy, Purged, Store, Token,
    User,
};
use zkgames_core::Error;
use zkgames_core::Result;

/// What the login service needs from its database.
pub trait UserDb: Send {
    /// The database's current time (Unix seconds, from its [`Clock`]).
    fn now(&self) -> i64;
    /// Lifetimes and limits.
    fn policy(&self) -> &Policy;
    /// Registers a user, first come first served: false if the name was taken (exactly one
    /// of two concurrent registrations of a name gets true).
    fn insert_user(&self, name: &str, id: &Identity) -> Result<bool>;
    /// [`UserDb::insert_user`], a taken name an error.
    fn add_user(&self, name: &str, id: &Identity) -> Result<()> {
        if !self.insert_user(name, id)? {
            return Err(Error::bad(format!("user name '{name}' is taken")));
        }
        Ok(())
    }
    /// Removes a user with their tokens and challenges.
    fn remove_user(&self, name: &str) -> Result<()>;
    /// The user registered under `name`.
    fn user(&self, name: &str) -> Result<Option<User>>;
    /// Every user, by name.
    fn users(&self) -> Result<Vec<User>>;
    /// Number of users.
    fn user_count(&self) -> Result<usize>;
    /// Seconds to wait before `peer` may try a login again, if over the failure limit
    /// (counted per address, never per user name).
    fn retry_after(&self, peer: &str) -> Result<Option<u64>>;
    /// Failed logins `peer` may still make within the failure window: the policy's
    /// maximum less those recorded (0 when over the limit).
    fn failure_budget(&self, peer: &str) -> Result<usize>;
    /// Seconds `peer` must wait before registering again, if over the registration limit.
    fn registration_retry_after(&self, peer: &str) -> Result<Option<u64>>;
    /// A fresh nonce, or the seconds to wait when `peer` holds too many.
    fn issue_challenge(
        &self,
        user: &str,
        peer: &str,
    ) -> Result<std::result::Result<Challenge, u64>>;
    /// Deletes the challenge `nonce` whatever happens; true if it was issued for `user` and
    /// had not expired. Never true twice for one nonce.
    fn consume_challenge(&self, nonce: &[u8; 32], user: &str) -> Result<bool>;
    /// A random session token for `user` (only its hash is stored).
    fn issue_token(&self, user: &str) -> Result<Token>;
    /// The user a valid token belongs to.
    fn check_token(&self, token: &[u8; 32]) -> Result<Option<String>>;
    /// Revokes a token (logout); true if it existed.
    fn revoke_token(&self, token: &[u8; 32]) -> Result<bool>;
    /// Appends to the audit log.
    fn record(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<()>;
    /// Appends to the audit log and returns the line's id, to [`UserDb::amend`] it once the
    /// outcome is known (a login counted as failed before its proof is verified).
    fn record_pending(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<i64>;
    /// Changes the event and detail of audit line `id`.
    fn amend(&self, id: i64, event: Event, detail: &str) -> Result<()>;
    /// Deletes expired challenges, tokens and device codes and old audit lines.
    fn purge(&self) -> Result<Purged>;
    /// Stores a device code (its poll handle and code as hashes: [`super::store::poll_hash`],
    /// [`super::store::code_hash`]) for `name`, asked from `peer`, unless `peer` holds
    /// [`Policy::max_pending_per_peer`] live codes or the database holds `max_total`;
    /// expired codes are deleted first. The counts and the insert are atomic across
    /// connections and processes.
    fn insert_device(
        &self,
        poll_hash: &[u8; 32],
        code_hash: &[u8; 32],
        name: &str,
        peer: &str,
        max_total: usize,
    ) -> Result<DeviceInsert>;
    /// The poll hash of the live, unused code `code_hash`, if it is bound to `name`.
    fn device_by_code(&self, code_hash: &[u8; 32], name: &str) -> Result<Option<[u8; 32]>>;
    /// Marks the live, unused code behind `poll_hash` (bound to `name`) done with `done`:
    /// true for exactly one of any number of callers at once, at any instance.
    fn redeem_device(&self, poll_hash: &[u8; 32], name: &str, done: &DeviceDone) -> Result<bool>;
    /// Counts a refused login with the code behind `poll_hash`; the code stays usable.
    fn refuse_device(&self, poll_hash: &[u8; 32]) -> Result<()>;
    /// Moves the done code behind `poll_hash` to collected: the name it logged in, for
    /// exactly one of any number of callers at once, at any instance (who then issues the
    /// page's session).
    fn collect_device(&self, poll_hash: &[u8; 32]) -> Result<Option<String>>;
    /// The live code behind `poll_hash`, whichever instance issued or redeemed it.
    fn device(&self, poll_hash: &[u8; 32]) -> Result<Option<DeviceCode>>;
}

impl UserDb for Store {
    fn now(&self) -> i64 {
        Store::now(self)
    }
    fn policy(&self) -> &Policy {
        Store::policy(self)
    }
    fn insert_user(&self, name: &str, id: &Identity) -> Result<bool> {
        Store::insert_user(self, name, id)
    }
    fn remove_user(&self, name: &str) -> Result<()> {
        Store::remove_user(self, name)
    }
    fn user(&self, name: &str) -> Result<Option<User>> {
        Store::user(self, name)
    }
    fn users(&self) -> Result<Vec<User>> {
        Store::users(self)
    }
    fn user_count(&self) -> Result<usize> {
        Store::user_count(self)
    }
    fn retry_after(&self, peer: &str) -> Result<Option<u64>> {
        Store::retry_after(self, peer)
    }
    fn failure_budget(&self, peer: &str) -> Result<usize> {
        Store::failure_budget(self, peer)
    }
    fn registration_retry_after(&self, peer: &str) -> Result<Option<u64>> {
        Store::registration_retry_after(self, peer)
    }
    fn issue_challenge(
        &self,
        user: &str,
        peer: &str,
    ) -> Result<std::result::Result<Challenge, u64>> {
        Store::issue_challenge(self, user, peer)
    }
    fn consume_challenge(&self, nonce: &[u8; 32], user: &str) -> Result<bool> {
        Store::consume_challenge(self, nonce, user)
    }
    fn issue_token(&self, user: &str) -> Result<Token> {
        Store::issue_token(self, user)
    }
    fn check_token(&self, token: &[u8; 32]) -> Result<Option<String>> {
        Store::check_token(self, token)
    }
    fn revoke_token(&self, token: &[u8; 32]) -> Result<bool> {
        Store::revoke_token(self, token)
    }
    fn record(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<()> {
        Store::record(self, event, user, peer, detail)
    }
    fn record_pending(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<i64> {
        Store::record_pending(self, event, user, peer, detail)
    }
    fn amend(&self, id: i64, event: Event, detail: &str) -> Result<()> {
        Store::amend(self, id, event, detail)
    }
    fn purge(&self) -> Result<Purged> {
        Store::purge(self)
    }
    fn insert_device(
        &self,
        poll_hash: &[u8; 32],
        code_hash: &[u8; 32],
        name: &str,
        peer: &str,
        max_total: usize,
    ) -> Result<DeviceInsert> {
        Store::insert_device(self, poll_hash, code_hash, name, peer, max_total)
    }
    fn device_by_code(&self, code_hash: &[u8; 32], name: &str) -> Result<Option<[u8; 32]>> {
        Store::device_by_code(self, code_hash, name)
    }
    fn redeem_device(&self, poll_hash: &[u8; 32], name: &str, done: &DeviceDone) -> Result<bool> {
        Store::redeem_device(self, poll_hash, name, done)
    }
    fn refuse_device(&self, poll_hash: &[u8; 32]) -> Result<()> {
        Store::refuse_device(self, poll_hash)
    }
    fn collect_device(&self, poll_hash: &[u8; 32]) -> Result<Option<String>> {
        Store::collect_device(self, poll_hash)
    }
    fn device(&self, poll_hash: &[u8; 32]) -> Result<Option<DeviceCode>> {
        Store::device(self, poll_hash)
    }
}

/// Where the users live: a path is an SQLite file, a `postgres://` or `postgresql://` URL a
/// PostgreSQL database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbSpec {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl DbSpec {
    /// Reads `--db`: a `postgres://…` URL, else a path.
    pub fn parse(s: &str) -> DbSpec {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            DbSpec::Postgres(s.to_string())
        } else {
            DbSpec::Sqlite(s.into())
        }
    }

    /// For messages: the path, or the URL without its password.
    pub fn display(&self) -> String {
        match self {
            DbSpec::Sqlite(p) => p.display().to_string(),
            DbSpec::Postgres(u) => super::pg::redact(u),
        }
    }

    /// Opens a connection, creating (or migrating) the schema if `create`.
    pub fn open(&self, clock: Clock, policy: Policy, create: bool) -> Result<Box<dyn UserDb>> {
        Ok(match self {
            DbSpec::Sqlite(p) if create => Box::new(Store::open(p, clock, policy)?),
            DbSpec::Sqlite(p) => Box::new(Store::open_existing(p, clock, policy)?),
            DbSpec::Postgres(u) => Box::new(super::pg::PgStore::open(u, clock, policy)?),
        })
    }
}

/// Database connections reused across requests: [`DbPool::get`] hands out an idle one or
/// opens another; at most `keep` idle ones are kept. A connection whose operation failed is
/// dropped rather than returned (it may be broken).
pub struct DbPool {
    spec: DbSpec,
    clock: Clock,
    policy: Policy,
    keep: usize,
    idle: Mutex<Vec<Box<dyn UserDb>>>,
}

impl DbPool {
    /// A pool over `spec` (whose schema must exist: open it once with `create` first).
    pub fn new(spec: DbSpec, clock: Clock, policy: Policy, keep: usize) -> DbPool {
        DbPool {
            spec,
            clock,
            policy,
            keep,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The database's description for messages.
    pub fn spec(&self) -> &DbSpec {
        &self.spec
    }

    /// Runs `f` with a connection; the connection goes back to the pool if `f` succeeded.
    pub fn with<T>(&self, f: impl FnOnce(&dyn UserDb) -> Result<T>) -> Result<T> {
        let popped = self.idle.lock().map_err(|_| poisoned())?.pop();
        let db = match popped {
            Some(db) => db,
            None => self
                .spec
                .open(self.clock.clone(), self.policy.clone(), false)?,
        };
        let r = f(db.as_ref());
        // a refusal leaves the connection sound; a database failure may not have
        if !matches!(r, Err(Error::Io { .. })) {
            let mut idle = self.idle.lock().map_err(|_| poisoned())?;
            if idle.len() < self.keep {
                idle.push(db);
            }
        }
        r
    }
}

fn poisoned() -> Error {
    Error::bad("internal error: a database pool lock was poisoned")
}
