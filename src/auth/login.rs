//! The server's side of registration and login, without the network: what a connection
//! handler calls, in order.
//!
//! ```text
//! client → server   login NAME
//! server → client   Authenticator::begin(NAME, peer)      → nonce (or retry-after)
//! client            keys::prove_login(key, server, NAME, nonce)
//! client → server   proof
//! server → client   Authenticator::finish(NAME, peer, nonce, proof) → token (or failed / retry-after)
//! ```
//!
//! Unknown users, wrong proofs, malformed proofs and bad or expired nonces all end in the
//! same [`Denied::Failed`]; the reason goes to the audit log only. Failures count towards the
//! rate limit of both the user name and the peer address.

use std::sync::OnceLock;

use super::keys::{
    check_server_name, check_user_name, verify_login_accepting, Identity, Kind, SecretKey,
};
use super::db::UserDb;
use super::store::{Challenge, Event, Token};
use crate::mpc::engine::Engine;
use crate::Result;

/// Why a step was refused: all the client is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denied {
    /// Too many recent failures for this user or this peer (or too many pending challenges
    /// from this peer): try again in this many seconds.
    RetryAfter(u64),
    /// Authentication failed.
    Failed,
}

impl std::fmt::Display for Denied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Denied::RetryAfter(s) => write!(f, "too many attempts: retry after {s} s"),
            Denied::Failed => f.write_str("authentication failed"),
        }
    }
}

/// What became of a registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registration {
    /// Registered.
    Done,
    /// The name is taken.
    Taken,
    /// Too many registrations from this address: try again in this many seconds.
    RetryAfter(u64),
}

/// One identity of every kind (keygen's sizes), against which the proof of a login for an
/// unknown user is verified before it is refused: the work, hence the time of the refusal,
/// is that of a registered user's failed login (a proof of one kind fails at once against
/// the identities of the others). Their secret keys come from a fixed seed and are public
/// knowledge, which is harmless: an unknown user's login is refused whatever the verdict.
pub fn decoys() -> &'static [Identity] {
    static DECOYS: OnceLock<Vec<Identity>> = OnceLock::new();
    DECOYS.get_or_init(|| {
        let mut rng = crate::rng::seeded_rng(u64::from_be_bytes(*b"zkgdecoy"));
        Kind::ALL
            .iter()
            .map(|&k| {
                SecretKey::generate(k, &mut rng)
                    .expect("keygen of a fixed seed")
                    .identity()
            })
            .collect()
    })
}

/// Registration and login against a [`UserDb`] (SQLite or PostgreSQL), for one server name.
pub struct Authenticator<'a> {
    store: &'a dyn UserDb,
    server: String,
    only: Option<Engine>,
}

impl<'a> Authenticator<'a> {
    /// `server` is the name clients bind their proofs to (see [`super::keys::login_context`]).
    pub fn new(store: &'a dyn UserDb, server: &str) -> Result<Self> {
        check_server_name(server)?;
        Ok(Authenticator {
            store,
            server: server.to_string(),
            only: None,
        })
    }

    /// Accepts login proofs of `only` engine (`None`, the default: ZKB++ and KKW).
    pub fn accepting(self, only: Option<Engine>) -> Self {
        Authenticator { only, ..self }
    }

    /// The server name proofs are bound to.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// Registers `user` (first come, first served; a taken name is an error).
    /// A peer over [`super::store::Policy::max_registrations_per_peer`] is refused
    /// ([`crate::Error::Rejected`], "retry after N s").
    pub fn register(&self, user: &str, peer: &str, id: &Identity) -> Result<()> {
        match self.try_register(user, peer, id)? {
            Registration::Done => Ok(()),
            Registration::Taken => Err(crate::Error::bad(format!(
                "user name '{user}' is taken"
            ))),
            Registration::RetryAfter(s) => Err(crate::Error::rejected(format!(
                "too many registrations from this address: retry after {s} s"
            ))),
        }
    }

    /// [`Authenticator::register`] with the outcome as a value, for transports that answer
    /// each differently (HTTP: 201, 409, 429).
    pub fn try_register(&self, user: &str, peer: &str, id: &Identity) -> Result<Registration> {
        check_user_name(user)?;
        if let Some(s) = self.store.registration_retry_after(peer)? {
            self.store
                .record(Event::Refused, user, peer, "registration rate limit")?;
            return Ok(Registration::RetryAfter(s));
        }
        if !self.store.insert_user(user, id)? {
            return Ok(Registration::Taken);
        }
        self.store.record(
            Event::Register,
            user,
            peer,
            &format!("{} {}", id.kind(), id.fingerprint()),
        )?;
        Ok(Registration::Done)
    }

    /// First step of a login: a fresh nonce for `user` from `peer` (an address without its
    /// port), or the time to wait. Unknown users get a nonce too.
    pub fn begin(&self, user: &str, peer: &str) -> Result<Result<Challenge, Denied>> {
        check_user_name(user)?;
        if let Some(s) = self.store.retry_after(user, peer)? {
            self.store
                .record(Event::Refused, user, peer, "rate limit")?;
            return Ok(Err(Denied::RetryAfter(s)));
        }
        match self.store.issue_challenge(user, peer)? {
            Ok(c) => Ok(Ok(c)),
            Err(s) => {
                self.store
                    .record(Event::Refused, user, peer, "too many pending challenges")?;
                Ok(Err(Denied::RetryAfter(s)))
            }
        }
    }

    /// Second step: checks the nonce (consumed whatever happens), the rate limit and the
    /// proof; a session token on success.
    pub fn finish(
        &self,
        user: &str,
        peer: &str,
        nonce: &[u8; 32],
        proof: &[u8],
    ) -> Result<Result<Token, Denied>> {
        check_user_name(user)?;
        let fresh = self.store.consume_challenge(nonce, user)?;
        if let Some(s) = self.store.retry_after(user, peer)? {
            self.store
                .record(Event::Refused, user, peer, "rate limit")?;
            return Ok(Err(Denied::RetryAfter(s)));
        }
        let verdict = if !fresh {
            Err("unknown, expired or used challenge".to_string())
        } else {
            match self.store.user(user)? {
                None => {
                    // The same work as for a registered user whose proof is of this kind, so
                    // that the time a refusal takes does not tell whether the name exists.
                    for d in decoys() {
                        let _ =
                            verify_login_accepting(d, &self.server, user, nonce, proof, self.only);
                    }
                    Err("unknown user".to_string())
                }
                Some(u) => {
                    verify_login_accepting(&u.identity, &self.server, user, nonce, proof, self.only)
                }
                .map_err(|e| e.to_string()),
            }
        };
        match verdict {
            Ok(()) => {
                let t = self.store.issue_token(user)?;
                self.store.record(Event::LoginOk, user, peer, "")?;
                Ok(Ok(t))
            }
            Err(why) => {
                self.store.record(Event::LoginFail, user, peer, &why)?;
                Ok(Err(Denied::Failed))
            }
        }
    }

    /// The user a session token belongs to (for `whoami`), if valid.
    pub fn whoami(&self, token: &[u8; 32]) -> Result<Option<String>> {
        self.store.check_token(token)
    }

    /// Revokes a session token (logout); true if it was valid. Recorded in the audit log.
    pub fn logout(&self, token: &[u8; 32], peer: &str) -> Result<bool> {
        let user = self.store.check_token(token)?;
        let gone = self.store.revoke_token(token)?;
        if let (Some(u), true) = (user, gone) {
            self.store.record(Event::Logout, &u, peer, "")?;
            return Ok(true);
        }
        Ok(false)
    }
}
