//! Device codes in the user database (the page's device login, [`crate::http`]):
//! what both backends store and the SQLite half of it. Rows live in the database, not in
//! one server's memory, so that a code issued by one instance is redeemed at any instance
//! and the page's poll is answered by any instance.
//!
//! Neither secret of a device login is stored as such: the poll handle (the key to the
//! token) only as `SHA-256("zkgames/auth/device-poll/v1" ‖ poll)`, the code only as
//! `SHA-256("zkgames/auth/device-code/v1" ‖ CODE)`, so that looking a code up by an index
//! compares hashes and its timing says nothing about the letters of a live code. No session
//! token is ever stored (tokens live only as hashes, in the tokens table): a verified login
//! marks its code `done`, and the poll that first finds it so moves it to `collected` (one
//! conditional `UPDATE`, one winner) and issues the page a session of its own. A database
//! dump thus holds nothing that logs anyone in. Expired rows are deleted by the next issue
//! and by `purge`.
//!
//! Misuse: comparing codes or handles in application code instead of through their hashes;
//! storing the token of a done login in the row (whoever reads the database could use it).

use rusqlite::{params, OptionalExtension};
use sha2::{Digest as _, Sha256};

use super::Store;
use zkgames_core::Result;

/// Domain tag of poll handle hashes.
pub const DEVICE_POLL_TAG: &[u8] = b"zkgames/auth/device-poll/v1";
/// Domain tag of code hashes.
pub const DEVICE_CODE_TAG: &[u8] = b"zkgames/auth/device-code/v1";
/// Most refusals counted on one code (the counter stops there).
pub const MAX_REFUSED: u32 = 1_000_000;

fn tagged(tag: &[u8], data: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(tag);
    h.update(data);
    h.finalize().into()
}

/// The stored form of a poll handle.
pub fn poll_hash(poll: &[u8; 32]) -> [u8; 32] {
    tagged(DEVICE_POLL_TAG, poll)
}

/// The stored form of a code (in its normal form: the letters, upper case, no dash).
pub fn code_hash(code: &str) -> [u8; 32] {
    tagged(DEVICE_CODE_TAG, code.as_bytes())
}

/// What storing a new device code came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceInsert {
    /// Stored, usable until this Unix time.
    Stored { expires: i64 },
    /// Its code or handle equals a stored one's: draw another.
    Collision,
    /// The peer holds [`super::Policy::max_pending_per_peer`] live codes or the store holds
    /// the global cap: retry after this many seconds.
    Full { retry_after: u64 },
}

/// What a login with a device code left for the page (its session is issued when the page
/// collects it).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceDone {
    /// The proof system's wire name (`vole`, `zkbpp`, `kkw`).
    pub system: String,
    pub proof_bytes: u64,
    /// The server's verification time, milliseconds.
    pub verify_ms: f64,
}

/// A live device code as the page's poll sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceCode {
    /// The name the code is bound to.
    pub name: String,
    /// Unix time from which the code (and the row) is gone.
    pub expires: i64,
    /// Refused logins with the code so far.
    pub refused: u32,
    /// The login, once a proof has verified.
    pub done: Option<DeviceDone>,
    /// Whether a poll has collected the page's session already.
    pub collected: bool,
    /// The address (as the rate limits count it) that asked for the code: shown to whoever
    /// is about to redeem it (`prover auth login … --code`).
    pub peer: String,
}

/// The columns [`row_to_device`] reads, in its order.
pub(crate) const DEVICE_COLUMNS: &str =
    "name, expires, refused, state, system, proof_bytes, verify_ms, peer";

/// One row of [`DEVICE_COLUMNS`], whatever the backend, as plain values.
pub(crate) struct DeviceRow {
    pub name: String,
    pub expires: i64,
    pub refused: i64,
    pub state: String,
    pub system: Option<String>,
    pub proof_bytes: Option<i64>,
    pub verify_ms: Option<f64>,
    pub peer: String,
}

impl DeviceRow {
    /// The row as the page sees it; `None` for a row no build of ours writes (a `done`
    /// without its figures), which the caller reports as corrupt.
    pub fn into_code(self) -> Option<DeviceCode> {
        let (done, collected) = match self.state.as_str() {
            "pending" => (false, false),
            "done" => (true, false),
            "collected" => (true, true),
            _ => return None,
        };
        let done = match done {
            false => None,
            true => Some(DeviceDone {
                system: self.system?,
                proof_bytes: u64::try_from(self.proof_bytes?).ok()?,
                verify_ms: self.verify_ms?,
            }),
        };
        Some(DeviceCode {
            name: self.name,
            expires: self.expires,
            refused: self.refused.clamp(0, MAX_REFUSED as i64) as u32,
            done,
            collected,
            peer: self.peer,
        })
    }
}

impl Store {
    /// Stores a new device code for `name`, asked from `peer`, usable for
    /// [`super::Policy::device_ttl`] seconds, unless `peer` holds
    /// [`super::Policy::max_pending_per_peer`] live codes or the database holds `max_total`.
    /// Expired codes are deleted first. One immediate transaction: the counts and the
    /// insert are atomic across processes.
    pub fn insert_device(
        &self,
        poll_hash: &[u8; 32],
        code_hash: &[u8; 32],
        name: &str,
        peer: &str,
        max_total: usize,
    ) -> Result<DeviceInsert> {
        super::check_user_name(name)?;
        super::check_peer(peer)?;
        let now = self.now();
        let max = self.policy.max_pending_per_peer;
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(|e| self.err(e))?;
        tx.execute("DELETE FROM device_codes WHERE expires <= ?1", [now])
            .map_err(|e| self.err(e))?;
        let mine: Vec<i64> = tx
            .prepare_cached(
                "SELECT expires FROM device_codes WHERE peer = ?1 ORDER BY expires LIMIT ?2",
            )
            .and_then(|mut st| {
                st.query_map(params![peer, max as i64], |r| r.get(0))?
                    .collect()
            })
            .map_err(|e| self.err(e))?;
        let total: i64 = tx
            .query_row("SELECT count(*) FROM device_codes", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if mine.len() >= max || total as usize >= max_total {
            let wait = mine.first().map_or(1, |&e| (e - now).max(1));
            return Ok(DeviceInsert::Full {
                retry_after: wait as u64,
            });
        }
        let expires = now + self.policy.device_ttl;
        let n = tx
            .execute(
                "INSERT INTO device_codes (poll_hash, code_hash, name, peer, expires)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
                params![&poll_hash[..], &code_hash[..], name, peer, expires],
            )
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(if n == 1 {
            DeviceInsert::Stored { expires }
        } else {
            DeviceInsert::Collision
        })
    }

    /// The poll hash of the live, unused code `code_hash`, if it is bound to `name`.
    pub fn device_by_code(&self, code_hash: &[u8; 32], name: &str) -> Result<Option<[u8; 32]>> {
        let row: Option<(Vec<u8>, String)> = self
            .conn
            .query_row(
                "SELECT poll_hash, name FROM device_codes
                 WHERE code_hash = ?1 AND state = 'pending' AND expires > ?2",
                params![&code_hash[..], self.now()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        Ok(row
            .filter(|(_, n)| n == name)
            .and_then(|(p, _)| p.try_into().ok()))
    }

    /// Marks the live, unused code behind `poll_hash`, bound to `name`, done with `done`:
    /// true for exactly one caller, whatever the number of connections or processes trying
    /// at once (one `UPDATE … WHERE state = 'pending'`, which SQLite runs under the write
    /// lock).
    pub fn redeem_device(
        &self,
        poll_hash: &[u8; 32],
        name: &str,
        done: &DeviceDone,
    ) -> Result<bool> {
        let n = self
            .conn
            .execute(
                "UPDATE device_codes SET state = 'done',
                     system = ?1, proof_bytes = ?2, verify_ms = ?3
                 WHERE poll_hash = ?4 AND name = ?5 AND state = 'pending' AND expires > ?6",
                params![
                    done.system,
                    done.proof_bytes.min(i64::MAX as u64) as i64,
                    done.verify_ms,
                    &poll_hash[..],
                    name,
                    self.now()
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(n == 1)
    }

    /// Counts one more refused login with the code behind `poll_hash` (the code stays).
    pub fn refuse_device(&self, poll_hash: &[u8; 32]) -> Result<()> {
        self.conn
            .execute(
                "UPDATE device_codes SET refused = min(refused + 1, ?1)
                 WHERE poll_hash = ?2 AND state = 'pending'",
                params![MAX_REFUSED, &poll_hash[..]],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The live code behind `poll_hash`.
    pub fn device(&self, poll_hash: &[u8; 32]) -> Result<Option<DeviceCode>> {
        let row = self
            .conn
            .query_row(
                &format!(
                    "SELECT {DEVICE_COLUMNS} FROM device_codes WHERE poll_hash = ?1 AND expires > ?2"
                ),
                params![&poll_hash[..], self.now()],
                |r| {
                    Ok(DeviceRow {
                        name: r.get(0)?,
                        expires: r.get(1)?,
                        refused: r.get(2)?,
                        state: r.get(3)?,
                        system: r.get(4)?,
                        proof_bytes: r.get(5)?,
                        verify_ms: r.get(6)?,
                        peer: r.get(7)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.err(e))?;
        row.map(|r| r.into_code().ok_or_else(|| self.corrupt_device()))
            .transpose()
    }

    /// Moves the live code behind `poll_hash` from `done` to `collected`: the name it logged
    /// in for exactly one caller (then the caller issues the page's session), `None` for
    /// every other (not done yet, collected already, expired, unknown).
    pub fn collect_device(&self, poll_hash: &[u8; 32]) -> Result<Option<String>> {
        self.conn
            .query_row(
                "UPDATE device_codes SET state = 'collected'
                 WHERE poll_hash = ?1 AND state = 'done' AND expires > ?2 RETURNING name",
                params![&poll_hash[..], self.now()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Number of device codes stored (expired ones included until deleted).
    pub fn device_count(&self) -> Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM device_codes", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(n as usize)
    }

    fn corrupt_device(&self) -> zkgames_core::Error {
        zkgames_core::Error::bad(format!(
            "{}: corrupt device code entry",
            self.path.display()
        ))
    }
}
