//! The user database in PostgreSQL, for several server instances sharing one database: the
//! same tables and rules as the SQLite store ([`super::store`]), so that a nonce issued by
//! one instance is consumed once at any instance, a name is taken once, and rate limits
//! (counted in the shared audit log) and session tokens hold for all instances.
//!
//! The schema is created and migrated by the server itself, under a transaction-scoped
//! advisory lock so that instances starting together do it once. Schema version 3 (version 1
//! lacks `zkg_device_codes`, added by the second migration; the third adds `aes128` to the
//! kind check):
//!
//! ```sql
//! CREATE TABLE zkg_schema_version (version INTEGER NOT NULL);   -- one row: 1
//! CREATE TABLE zkg_users (name TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('sha256','peg','lowmc','aes128')),
//!                         identity TEXT NOT NULL, created BIGINT NOT NULL);
//! CREATE TABLE zkg_challenges (nonce BYTEA PRIMARY KEY CHECK (octet_length(nonce) = 32),
//!                              username TEXT NOT NULL, peer TEXT NOT NULL, expires BIGINT NOT NULL);
//! CREATE TABLE zkg_tokens (hash BYTEA PRIMARY KEY CHECK (octet_length(hash) = 32),
//!                          username TEXT NOT NULL, created BIGINT NOT NULL, expires BIGINT NOT NULL);
//! CREATE TABLE zkg_audit (id BIGSERIAL PRIMARY KEY, time BIGINT NOT NULL, event TEXT NOT NULL,
//!                         username TEXT NOT NULL, peer TEXT NOT NULL, detail TEXT NOT NULL);
//! CREATE TABLE zkg_device_codes (poll_hash BYTEA PRIMARY KEY, code_hash BYTEA NOT NULL UNIQUE,
//!                         name TEXT NOT NULL, peer TEXT NOT NULL, expires BIGINT NOT NULL,
//!                         refused INTEGER NOT NULL,
//!                         state TEXT NOT NULL,          -- pending | done | collected
//!                         system TEXT, proof_bytes BIGINT, verify_ms DOUBLE PRECISION); -- once done
//! ```
//!
//! Atomicity: a challenge is consumed by one `DELETE … RETURNING` (two instances racing for
//! one nonce: one gets the row, the other nothing); a name by the primary key with
//! `ON CONFLICT DO NOTHING`; the per-address count of pending challenges is checked and the
//! new one inserted under an advisory lock on the address; a device code is issued under one
//! advisory lock for all (its per-address and global caps counted with the insert) and
//! redeemed by one `UPDATE … WHERE state = 'pending'` (of two instances redeeming one code at
//! once, the second finds no pending row once the first commits). Every acknowledged write is
//! committed (PostgreSQL's default `synchronous_commit`) before the server answers.
//!
//! Misuse: one [`PgStore`] is one connection, not shared between threads; the URL's
//! password is never printed ([`redact`]).

use std::cell::RefCell;
use std::str::FromStr;
use std::time::Duration;

use postgres::{Client, NoTls};

use super::db::UserDb;
use super::keys::{check_user_name, Identity};
use super::store::device::{DeviceRow, DEVICE_COLUMNS, MAX_REFUSED};
use super::store::{
    token_hash, Challenge, Clock, DeviceCode, DeviceDone, DeviceInsert, Event, Policy, Purged,
    Token, User, MAX_PEER,
};
use zkgames_core::rng::{os_rng, random_32};
use zkgames_core::Error;
use zkgames_core::Result;

/// The schema version this build reads and writes.
pub const PG_SCHEMA_VERSION: i32 = 3;

/// Migrations: entry `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE zkg_schema_version (version INTEGER NOT NULL);
INSERT INTO zkg_schema_version VALUES (0);
CREATE TABLE zkg_users (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('sha256', 'peg', 'lowmc')),
    identity TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE zkg_challenges (
    nonce BYTEA PRIMARY KEY CHECK (octet_length(nonce) = 32),
    username TEXT NOT NULL,
    peer TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX zkg_challenges_peer ON zkg_challenges (peer, expires);
CREATE TABLE zkg_tokens (
    hash BYTEA PRIMARY KEY CHECK (octet_length(hash) = 32),
    username TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX zkg_tokens_user ON zkg_tokens (username);
CREATE TABLE zkg_audit (
    id BIGSERIAL PRIMARY KEY,
    time BIGINT NOT NULL,
    event TEXT NOT NULL,
    username TEXT NOT NULL,
    peer TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX zkg_audit_user ON zkg_audit (event, username, time);
CREATE INDEX zkg_audit_peer ON zkg_audit (event, peer, time);
",
    "
CREATE TABLE zkg_device_codes (
    poll_hash BYTEA PRIMARY KEY CHECK (octet_length(poll_hash) = 32),
    code_hash BYTEA NOT NULL UNIQUE CHECK (octet_length(code_hash) = 32),
    name TEXT NOT NULL,
    peer TEXT NOT NULL,
    expires BIGINT NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'collected')),
    system TEXT,
    proof_bytes BIGINT,
    verify_ms DOUBLE PRECISION
);
CREATE INDEX zkg_device_codes_peer ON zkg_device_codes (peer, expires);
CREATE INDEX zkg_device_codes_expires ON zkg_device_codes (expires);
",
    "
ALTER TABLE zkg_users DROP CONSTRAINT zkg_users_kind_check;
ALTER TABLE zkg_users ADD CONSTRAINT zkg_users_kind_check
    CHECK (kind IN ('sha256', 'peg', 'lowmc', 'aes128'));
",
];

/// Key of the advisory lock held while the schema is created or migrated ("zkgschem").
const SCHEMA_LOCK: i64 = 0x7A6B_6773_6368_656D;
/// Key of the advisory lock held while a device code is counted and inserted ("zkgdevic"):
/// one for all addresses, since the global cap counts every address's codes.
const DEVICE_LOCK: i64 = 0x7A6B_6764_6576_6963;

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "postgres://…".into();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some((a, h)) => (Some(a), h),
        None => (None, rest),
    };
    match auth {
        Some(a) => match a.split_once(':') {
            Some((u, _)) => format!("{scheme}://{u}:***@{host}"),
            None => format!("{scheme}://{a}@{host}"),
        },
        None => format!("{scheme}://{host}"),
    }
}

/// One connection to a PostgreSQL user database.
pub struct PgStore {
    client: RefCell<Client>,
    url: String,
    clock: Clock,
    policy: Policy,
}

impl PgStore {
    /// Connects (5 s timeout) and creates or migrates the schema; a database of a newer
    /// schema version is refused.
    pub fn open(url: &str, clock: Clock, policy: Policy) -> Result<PgStore> {
        let shown = redact(url);
        let mut cfg = postgres::Config::from_str(url)
            .map_err(|_| Error::bad(format!("{shown}: not a valid PostgreSQL URL")))?;
        cfg.connect_timeout(Duration::from_secs(5));
        let client = cfg.connect(NoTls).map_err(|e| {
            if cfg.get_password().is_none() && pg_detail(&e).contains("password missing") {
                Error::bad(format!(
                    "{shown}: the server asks for a password and the URL has none: give it in the \
                     URL (postgres://USER:PASSWORD@HOST:PORT/DB), or connect through the local \
                     socket, where a stock Debian or Ubuntu server lets in the system user of the \
                     same name without one (postgres://USER@%2Fvar%2Frun%2Fpostgresql/DB)"
                ))
            } else {
                pg_err(&shown, e)
            }
        })?;
        let s = PgStore {
            client: RefCell::new(client),
            url: shown,
            clock,
            policy,
        };
        s.migrate()?;
        Ok(s)
    }

    fn err(&self, e: postgres::Error) -> Error {
        pg_err(&self.url, e)
    }

    fn c(&self) -> std::cell::RefMut<'_, Client> {
        self.client.borrow_mut()
    }

    fn migrate(&self) -> Result<()> {
        let mut c = self.c();
        let mut tx = c.transaction().map_err(|e| pg_err(&self.url, e))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
            .map_err(|e| pg_err(&self.url, e))?;
        let exists: bool = tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM information_schema.tables
                 WHERE table_schema = current_schema() AND table_name = 'zkg_schema_version')",
                &[],
            )
            .map_err(|e| pg_err(&self.url, e))?
            .get(0);
        let mut v: i32 = if exists {
            tx.query_one("SELECT version FROM zkg_schema_version", &[])
                .map_err(|e| pg_err(&self.url, e))?
                .get(0)
        } else {
            0
        };
        if v > PG_SCHEMA_VERSION {
            return Err(Error::bad(format!(
                "{}: user database schema version {v}, this build reads version {PG_SCHEMA_VERSION}",
                self.url
            )));
        }
        while v < PG_SCHEMA_VERSION {
            tx.batch_execute(MIGRATIONS[v as usize])
                .map_err(|e| pg_err(&self.url, e))?;
            v += 1;
            tx.execute("UPDATE zkg_schema_version SET version = $1", &[&v])
                .map_err(|e| pg_err(&self.url, e))?;
        }
        tx.commit().map_err(|e| pg_err(&self.url, e))
    }

    fn row_to_user(&self, name: String, kind: String, id: String, created: i64) -> Result<User> {
        let identity = Identity::parse(&id).map_err(|e| {
            Error::bad(format!(
                "{}: corrupt entry for user '{name}': {e}",
                self.url
            ))
        })?;
        if identity.kind().name() != kind {
            return Err(Error::bad(format!(
                "{}: corrupt entry for user '{name}': kind {kind} does not match the identity",
                self.url
            )));
        }
        Ok(User {
            name,
            identity,
            created,
        })
    }

    /// Times of the newest `limit` audit events `event` whose `col` is `val`, after `since`.
    fn recent(
        &self,
        event: &str,
        col: &str,
        val: &str,
        since: i64,
        limit: usize,
    ) -> Result<Vec<i64>> {
        let sql = format!(
            "SELECT time FROM zkg_audit WHERE event = $1 AND {col} = $2 AND time > $3
             ORDER BY time DESC LIMIT $4"
        );
        let rows = self
            .c()
            .query(sql.as_str(), &[&event, &val, &since, &(limit as i64)])
            .map_err(|e| self.err(e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

fn check_peer(peer: &str) -> Result<()> {
    if peer.is_empty() || peer.len() > MAX_PEER || !peer.bytes().all(|c| c.is_ascii_graphic()) {
        return Err(Error::bad(format!(
            "bad peer address: 1 to {MAX_PEER} printable ASCII characters"
        )));
    }
    Ok(())
}

impl UserDb for PgStore {
    fn now(&self) -> i64 {
        self.clock.now()
    }

    fn policy(&self) -> &Policy {
        &self.policy
    }

    fn insert_user(&self, name: &str, id: &Identity) -> Result<bool> {
        check_user_name(name)?;
        let n = self
            .c()
            .execute(
                "INSERT INTO zkg_users (name, kind, identity, created) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (name) DO NOTHING",
                &[
                    &name,
                    &id.kind().name(),
                    &id.to_text().trim_end(),
                    &self.now(),
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(n > 0)
    }

    fn remove_user(&self, name: &str) -> Result<()> {
        check_user_name(name)?;
        let mut c = self.c();
        let mut tx = c.transaction().map_err(|e| pg_err(&self.url, e))?;
        let n = tx
            .execute("DELETE FROM zkg_users WHERE name = $1", &[&name])
            .map_err(|e| pg_err(&self.url, e))?;
        if n == 0 {
            return Err(Error::bad(format!("no user named '{name}'")));
        }
        tx.execute("DELETE FROM zkg_tokens WHERE username = $1", &[&name])
            .map_err(|e| pg_err(&self.url, e))?;
        tx.execute("DELETE FROM zkg_challenges WHERE username = $1", &[&name])
            .map_err(|e| pg_err(&self.url, e))?;
        tx.commit().map_err(|e| pg_err(&self.url, e))
    }

    fn user(&self, name: &str) -> Result<Option<User>> {
        let row = self
            .c()
            .query_opt(
                "SELECT name, kind, identity, created FROM zkg_users WHERE name = $1",
                &[&name],
            )
            .map_err(|e| self.err(e))?;
        row.map(|r| self.row_to_user(r.get(0), r.get(1), r.get(2), r.get(3)))
            .transpose()
    }

    fn users(&self) -> Result<Vec<User>> {
        let rows = self
            .c()
            .query(
                "SELECT name, kind, identity, created FROM zkg_users ORDER BY name",
                &[],
            )
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| self.row_to_user(r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect()
    }

    fn user_count(&self) -> Result<usize> {
        let n: i64 = self
            .c()
            .query_one("SELECT count(*) FROM zkg_users", &[])
            .map_err(|e| self.err(e))?
            .get(0);
        Ok(n as usize)
    }

    fn retry_after(&self, peer: &str) -> Result<Option<u64>> {
        let now = self.now();
        let max = self.policy.max_failures;
        if max == 0 {
            return Ok(Some(1));
        }
        let times = self.recent(
            "login-fail",
            "peer",
            peer,
            now - self.policy.failure_window,
            max,
        )?;
        if times.len() < max {
            return Ok(None);
        }
        let wait = times[max - 1] + self.policy.failure_window - now;
        Ok((wait > 0).then_some(wait as u64))
    }

    fn failure_budget(&self, peer: &str) -> Result<usize> {
        let max = self.policy.max_failures;
        let n = self
            .recent(
                "login-fail",
                "peer",
                peer,
                self.now() - self.policy.failure_window,
                max,
            )?
            .len();
        Ok(max.saturating_sub(n))
    }

    fn registration_retry_after(&self, peer: &str) -> Result<Option<u64>> {
        let now = self.now();
        let max = self.policy.max_registrations_per_peer;
        if max == 0 {
            return Ok(Some(1));
        }
        let times = self.recent(
            "register",
            "peer",
            peer,
            now - self.policy.registration_window,
            max,
        )?;
        if times.len() < max {
            return Ok(None);
        }
        let wait = times[max - 1] + self.policy.registration_window - now;
        Ok((wait > 0).then_some(wait as u64))
    }

    fn issue_challenge(
        &self,
        user: &str,
        peer: &str,
    ) -> Result<std::result::Result<Challenge, u64>> {
        check_user_name(user)?;
        check_peer(peer)?;
        let now = self.now();
        let max = self.policy.max_pending_per_peer;
        let mut c = self.c();
        let mut tx = c.transaction().map_err(|e| pg_err(&self.url, e))?;
        // one instance at a time counts and inserts for this address
        tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&peer])
            .map_err(|e| pg_err(&self.url, e))?;
        let pending: Vec<i64> = tx
            .query(
                "SELECT expires FROM zkg_challenges WHERE peer = $1 AND expires > $2
                 ORDER BY expires LIMIT $3",
                &[&peer, &now, &(max as i64)],
            )
            .map_err(|e| pg_err(&self.url, e))?
            .iter()
            .map(|r| r.get(0))
            .collect();
        if pending.len() >= max {
            let wait = pending.first().map_or(1, |&e| (e - now).max(1));
            return Ok(Err(wait as u64));
        }
        let nonce = random_32(&mut os_rng());
        let expires = now + self.policy.challenge_ttl;
        tx.execute(
            "INSERT INTO zkg_challenges (nonce, username, peer, expires) VALUES ($1, $2, $3, $4)",
            &[&&nonce[..], &user, &peer, &expires],
        )
        .map_err(|e| pg_err(&self.url, e))?;
        tx.commit().map_err(|e| pg_err(&self.url, e))?;
        Ok(Ok(Challenge { nonce, expires }))
    }

    fn consume_challenge(&self, nonce: &[u8; 32], user: &str) -> Result<bool> {
        let row = self
            .c()
            .query_opt(
                "DELETE FROM zkg_challenges WHERE nonce = $1 RETURNING username, expires",
                &[&&nonce[..]],
            )
            .map_err(|e| self.err(e))?;
        Ok(
            matches!(row.map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1))),
            Some((u, exp)) if u == user && self.now() < exp),
        )
    }

    fn issue_token(&self, user: &str) -> Result<Token> {
        let token = random_32(&mut os_rng());
        let now = self.now();
        let expires = now + self.policy.token_ttl;
        self.c()
            .execute(
                "INSERT INTO zkg_tokens (hash, username, created, expires) VALUES ($1, $2, $3, $4)",
                &[&&token_hash(&token)[..], &user, &now, &expires],
            )
            .map_err(|e| self.err(e))?;
        Ok(Token { token, expires })
    }

    fn check_token(&self, token: &[u8; 32]) -> Result<Option<String>> {
        let row = self
            .c()
            .query_opt(
                "SELECT username FROM zkg_tokens WHERE hash = $1 AND expires > $2",
                &[&&token_hash(token)[..], &self.now()],
            )
            .map_err(|e| self.err(e))?;
        Ok(row.map(|r| r.get(0)))
    }

    fn revoke_token(&self, token: &[u8; 32]) -> Result<bool> {
        let n = self
            .c()
            .execute(
                "DELETE FROM zkg_tokens WHERE hash = $1",
                &[&&token_hash(token)[..]],
            )
            .map_err(|e| self.err(e))?;
        Ok(n > 0)
    }

    fn record(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<()> {
        self.record_pending(event, user, peer, detail).map(drop)
    }

    fn record_pending(&self, event: Event, user: &str, peer: &str, detail: &str) -> Result<i64> {
        let detail = super::store::clip200(detail);
        let row = self
            .c()
            .query_one(
                "INSERT INTO zkg_audit (time, event, username, peer, detail) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                &[&self.now(), &event.name(), &user, &peer, &detail],
            )
            .map_err(|e| self.err(e))?;
        Ok(row.get(0))
    }

    fn amend(&self, id: i64, event: Event, detail: &str) -> Result<()> {
        let detail = super::store::clip200(detail);
        self.c()
            .execute(
                "UPDATE zkg_audit SET event = $2, detail = $3 WHERE id = $1",
                &[&id, &event.name(), &detail],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    fn purge(&self) -> Result<Purged> {
        let now = self.now();
        let mut c = self.c();
        let mut tx = c.transaction().map_err(|e| pg_err(&self.url, e))?;
        let e = |e| pg_err(&self.url, e);
        let challenges = tx
            .execute("DELETE FROM zkg_challenges WHERE expires <= $1", &[&now])
            .map_err(e)?;
        let tokens = tx
            .execute("DELETE FROM zkg_tokens WHERE expires <= $1", &[&now])
            .map_err(e)?;
        let devices = tx
            .execute("DELETE FROM zkg_device_codes WHERE expires <= $1", &[&now])
            .map_err(e)?;
        let mut audit = tx
            .execute(
                "DELETE FROM zkg_audit WHERE time < $1",
                &[&(now - self.policy.audit_retention)],
            )
            .map_err(e)?;
        audit += tx
            .execute(
                "DELETE FROM zkg_audit WHERE id <= (SELECT max(id) FROM zkg_audit) - $1",
                &[&self.policy.audit_max_rows],
            )
            .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(Purged {
            challenges: challenges as usize,
            tokens: tokens as usize,
            audit: audit as usize,
            devices: devices as usize,
        })
    }

    fn insert_device(
        &self,
        poll_hash: &[u8; 32],
        code_hash: &[u8; 32],
        name: &str,
        peer: &str,
        max_total: usize,
    ) -> Result<DeviceInsert> {
        check_user_name(name)?;
        check_peer(peer)?;
        let now = self.now();
        let max = self.policy.max_pending_per_peer;
        let mut c = self.c();
        let mut tx = c.transaction().map_err(|e| pg_err(&self.url, e))?;
        let e = |e| pg_err(&self.url, e);
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&DEVICE_LOCK])
            .map_err(e)?;
        tx.execute("DELETE FROM zkg_device_codes WHERE expires <= $1", &[&now])
            .map_err(e)?;
        let mine: Vec<i64> = tx
            .query(
                "SELECT expires FROM zkg_device_codes WHERE peer = $1 ORDER BY expires LIMIT $2",
                &[&peer, &(max as i64)],
            )
            .map_err(e)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let total: i64 = tx
            .query_one("SELECT count(*) FROM zkg_device_codes", &[])
            .map_err(e)?
            .get(0);
        if mine.len() >= max || total as usize >= max_total {
            let wait = mine.first().map_or(1, |&x| (x - now).max(1));
            return Ok(DeviceInsert::Full {
                retry_after: wait as u64,
            });
        }
        let expires = now + self.policy.device_ttl;
        let n = tx
            .execute(
                "INSERT INTO zkg_device_codes (poll_hash, code_hash, name, peer, expires)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                &[&&poll_hash[..], &&code_hash[..], &name, &peer, &expires],
            )
            .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(if n == 1 {
            DeviceInsert::Stored { expires }
        } else {
            DeviceInsert::Collision
        })
    }

    fn device_by_code(&self, code_hash: &[u8; 32], name: &str) -> Result<Option<[u8; 32]>> {
        let row = self
            .c()
            .query_opt(
                "SELECT poll_hash, name FROM zkg_device_codes
                 WHERE code_hash = $1 AND state = 'pending' AND expires > $2",
                &[&&code_hash[..], &self.now()],
            )
            .map_err(|e| self.err(e))?;
        Ok(row
            .map(|r| (r.get::<_, Vec<u8>>(0), r.get::<_, String>(1)))
            .filter(|(_, n)| n == name)
            .and_then(|(p, _)| p.try_into().ok()))
    }

    fn redeem_device(&self, poll_hash: &[u8; 32], name: &str, done: &DeviceDone) -> Result<bool> {
        // READ COMMITTED: a second UPDATE of the row waits for the first to commit, then
        // re-checks `state = 'pending'` on the new row and updates nothing
        let n = self
            .c()
            .execute(
                "UPDATE zkg_device_codes SET state = 'done',
                     system = $1, proof_bytes = $2, verify_ms = $3
                 WHERE poll_hash = $4 AND name = $5 AND state = 'pending' AND expires > $6",
                &[
                    &done.system,
                    &(done.proof_bytes.min(i64::MAX as u64) as i64),
                    &done.verify_ms,
                    &&poll_hash[..],
                    &name,
                    &self.now(),
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(n == 1)
    }

    fn refuse_device(&self, poll_hash: &[u8; 32]) -> Result<()> {
        self.c()
            .execute(
                "UPDATE zkg_device_codes SET refused = LEAST(refused + 1, $1)
                 WHERE poll_hash = $2 AND state = 'pending'",
                &[&(MAX_REFUSED as i32), &&poll_hash[..]],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    fn device(&self, poll_hash: &[u8; 32]) -> Result<Option<DeviceCode>> {
        let row = self
            .c()
            .query_opt(
                format!(
                    "SELECT {DEVICE_COLUMNS} FROM zkg_device_codes WHERE poll_hash = $1 AND expires > $2"
                )
                .as_str(),
                &[&&poll_hash[..], &self.now()],
            )
            .map_err(|e| self.err(e))?;
        let Some(r) = row else { return Ok(None) };
        let d = DeviceRow {
            name: r.get(0),
            expires: r.get(1),
            refused: i64::from(r.get::<_, i32>(2)),
            state: r.get(3),
            system: r.get(4),
            proof_bytes: r.get(5),
            verify_ms: r.get(6),
            peer: r.get(7),
        };
        d.into_code()
            .map(Some)
            .ok_or_else(|| Error::bad(format!("{}: corrupt device code entry", self.url)))
    }

    fn collect_device(&self, poll_hash: &[u8; 32]) -> Result<Option<String>> {
        // as for redeem_device: of two collections at once, the second finds no 'done' row
        let row = self
            .c()
            .query_opt(
                "UPDATE zkg_device_codes SET state = 'collected'
                 WHERE poll_hash = $1 AND state = 'done' AND expires > $2 RETURNING name",
                &[&&poll_hash[..], &self.now()],
            )
            .map_err(|e| self.err(e))?;
        Ok(row.map(|r| r.get(0)))
    }
}

/// A client-side failure with its cause ("invalid configuration: password missing"), where
/// the error's own text is only its kind.
fn pg_detail(e: &postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(src) => format!("{e}: {src}"),
        None => e.to_string(),
    }
}

/// One line for a PostgreSQL failure: the database's own message (never the URL's password).
fn pg_err(url: &str, e: postgres::Error) -> Error {
    let msg = match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => pg_detail(&e),
    };
    let line = msg.lines().next().unwrap_or("database error").to_string();
    Error::io(format!("user database {url}"), std::io::Error::other(line))
}

#[cfg(test)]
mod tests {
    #[test]
    fn urls_are_redacted() {
        use super::redact;
        assert_eq!(
            redact("postgres://bob:s3cret@db:5432/users"),
            "postgres://bob:***@db:5432/users"
        );
        assert_eq!(redact("postgres://bob@db/users"), "postgres://bob@db/users");
        assert_eq!(redact("postgresql://db/users"), "postgresql://db/users");
        assert!(!redact("postgres://a:b:c@h").contains("b:c"));
    }
}
