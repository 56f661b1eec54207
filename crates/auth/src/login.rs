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
//! same [`Denied::Failed`]; the reason goes to the audit log only.
//!
//! Limits are per peer address, never per user name: failed logins, pending challenges and
//! registrations are counted for the address they come from (see [`zkgames_net::limit`] for
//! why). A failure is recorded once its proof has been verified; logins in verification at
//! once from one address are bounded by the failures it may still make ([`super::gate`]),
//! so concurrency neither multiplies an attacker's budget nor charges honest logins. A name-keyed lockout would let anyone lock a user out by sending garbage in their
//! name, and protects nothing, since a proof of knowledge cannot be guessed.
//!
//! Refusals take the same work whatever the name: [`Authenticator::finish`] verifies every
//! proof exactly once, against an identity of the kind the proof itself claims (its file
//! header): the user's identity when it is of that kind, otherwise the decoy of that kind
//! ([`decoys`]). So the work depends only on the proof the client sent, never on whether the
//! name exists, the kind of its key, or the state of the challenge.

use std::sync::OnceLock;

use super::db::UserDb;
use super::keys::{
    check_server_name, check_user_name, claimed_kind, verify_login_accepting, Identity, Kind,
    SecretKey,
};
use super::store::{Challenge, Event, Token};
use zkgames_core::Result;
use zkgames_mpc::engine::Engine;

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

/// One identity of every kind, in [`Kind::ALL`]'s order (keygen's sizes), against which a
/// proof is verified when the name is unknown or registered with a key of another kind: the
/// work, hence the time of the refusal, is that of a registered user's failed login with a
/// proof of that kind.
///
/// Their secret keys are drawn from the OS generator once per process and thrown away, so
/// no one can make a proof that verifies against a decoy; a decoy's verdict is ignored all
/// the same (only the user's own identity can let anyone in). Call it once at server start
/// (key generation takes a moment), not on the first refusal.
pub fn decoys() -> &'static [Identity] {
    static DECOYS: OnceLock<Vec<Identity>> = OnceLock::new();
    DECOYS.get_or_init(|| {
        let mut rng = zkgames_core::rng::os_rng();
        Kind::ALL
            .iter()
            .map(|&k| {
                SecretKey::generate(k, &mut rng)
                    .expect("keygen of the built-in sizes")
                    .identity()
            })
            .collect()
    })
}

/// The decoy identity of kind `k`.
fn decoy(k: Kind) -> &'static Identity {
    let i = Kind::ALL.iter().position(|&x| x == k).unwrap_or(0);
    &decoys()[i]
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

    /// Accepts login proofs of `only` engine (`None`, the default: every engine).
    pub fn accepting(self, only: Option<Engine>) -> Self {
        Authenticator { only, ..self }
    }

    /// The server name proofs are bound to.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// Registers `user` (first come, first served; a taken name is an error).
    /// A peer over [`super::store::Policy::max_registrations_per_peer`] is refused
    /// ([`zkgames_core::Error::TryLater`] with the wait).
    pub fn register(&self, user: &str, peer: &str, id: &Identity) -> Result<()> {
        match self.try_register(user, peer, id)? {
            Ok(()) => Ok(()),
            Err(Denied::RetryAfter(s)) => Err(zkgames_core::Error::try_later(
                "too many registrations from this address",
                Some(std::time::Duration::from_secs(s)),
            )),
            Err(Denied::Failed) => Err(zkgames_core::Error::rejected("registration refused")),
        }
    }

    /// [`Authenticator::register`] with the rate limit's refusal as a value
    /// ([`Denied::RetryAfter`], for the wire), other failures (a taken or bad name) as errors.
    pub fn try_register(
        &self,
        user: &str,
        peer: &str,
        id: &Identity,
    ) -> Result<Result<(), Denied>> {
        match self.registration(user, peer, id)? {
            Registration::Done => Ok(Ok(())),
            Registration::RetryAfter(s) => Ok(Err(Denied::RetryAfter(s))),
            Registration::Taken => Err(zkgames_core::Error::bad(format!(
                "user name '{user}' is taken"
            ))),
        }
    }

    /// A registration with every outcome as a value, for transports that answer each
    /// differently (HTTP: 201, 409, 429).
    pub fn registration(&self, user: &str, peer: &str, id: &Identity) -> Result<Registration> {
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
        if let Some(s) = self.store.retry_after(peer)? {
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

    /// Second step: checks the nonce (consumed whatever happens), the peer's rate limit and
    /// the proof; a session token on success.
    ///
    /// Every proof that gets past the rate limit is verified exactly once, against the
    /// identity picked from the kind the proof claims (`target`), even when the
    /// challenge is unknown or expired or the name unknown: the refusal costs the same work
    /// whatever the name and its key. Only a fresh challenge, a registered user and a proof
    /// verified against that user's own identity let anyone in.
    pub fn finish(
        &self,
        user: &str,
        peer: &str,
        nonce: &[u8; 32],
        proof: &[u8],
    ) -> Result<Result<Token, Denied>> {
        self.finish_then(user, peer, nonce, proof, |_| Ok(true))
    }

    /// [`Authenticator::finish`] for a login that must also claim something once the proof
    /// has verified (the page's device code): `claim` receives the new token and says
    /// whether the claim succeeded. If it did not (the code was used meanwhile, at whatever
    /// instance, or expired), the token is revoked before anyone saw it, the attempt is
    /// recorded as `refused` (not a failure: the proof was valid, so the rate limit does not
    /// count it) and the login answered [`Denied::Failed`]; the caller, who knows its claim
    /// failed, may say why. `claim` runs after the verification, so the refusal costs the
    /// same work as a success.
    pub fn finish_then(
        &self,
        user: &str,
        peer: &str,
        nonce: &[u8; 32],
        proof: &[u8],
        claim: impl FnOnce(&Token) -> Result<bool>,
    ) -> Result<Result<Token, Denied>> {
        check_user_name(user)?;
        let fresh = self.store.consume_challenge(nonce, user)?;
        if let Some(s) = self.store.retry_after(peer)? {
            self.store
                .record(Event::Refused, user, peer, "rate limit")?;
            return Ok(Err(Denied::RetryAfter(s)));
        }
        // at most the failures still allowed are verified at once from this address, so
        // that concurrent attempts cannot multiply the budget (super::gate); the outcome is
        // recorded once known, before the place is given back
        let _permit = match super::gate::LoginGate::global()
            .enter(peer, || self.store.failure_budget(peer))?
        {
            super::gate::Entry::Permit(p) => p,
            super::gate::Entry::Spent => {
                let s = self.store.retry_after(peer)?.unwrap_or(1);
                self.store
                    .record(Event::Refused, user, peer, "rate limit")?;
                return Ok(Err(Denied::RetryAfter(s)));
            }
            super::gate::Entry::Busy => {
                self.store.record(
                    Event::Refused,
                    user,
                    peer,
                    "too many logins from this address at once",
                )?;
                return Ok(Err(Denied::RetryAfter(1)));
            }
        };
        let registered = self.store.user(user)?;
        let claimed = claimed_kind(proof);
        let (target, own) = Self::target(registered.as_ref().map(|u| &u.identity), claimed);
        let checked = verify_login_accepting(target, &self.server, user, nonce, proof, self.only);
        let verdict = match (&registered, own) {
            _ if !fresh => Err("unknown, expired or used challenge".to_string()),
            (None, _) => Err("unknown user".to_string()),
            (Some(u), false) => Err(format!(
                "a {} proof for a {} key",
                claimed.map_or("malformed", Kind::name),
                u.identity.kind()
            )),
            (Some(_), true) => checked.map_err(|e| e.to_string()),
        };
        match verdict {
            Ok(()) => {
                let t = self.store.issue_token(user)?;
                if !claim(&t)? {
                    self.store.revoke_token(&t.token)?;
                    self.store
                        .record(Event::Refused, user, peer, "device code used or expired")?;
                    return Ok(Err(Denied::Failed));
                }
                self.store.record(Event::LoginOk, user, peer, "")?;
                Ok(Ok(t))
            }
            Err(why) => {
                self.store.record(Event::LoginFail, user, peer, &why)?;
                Ok(Err(Denied::Failed))
            }
        }
    }

    /// The identity a proof is verified against, and whether it is the user's own: the
    /// user's identity if it is of the kind the proof claims, else the decoy of that kind (a
    /// proof that names no kind fails to parse whatever it is checked against: the user's
    /// identity or the first decoy, at equal cost).
    fn target(registered: Option<&Identity>, claimed: Option<Kind>) -> (&Identity, bool) {
        match (registered, claimed) {
            (Some(id), Some(k)) if id.kind() == k => (id, true),
            (Some(id), None) => (id, true),
            (_, Some(k)) => (decoy(k), false),
            (None, None) => (&decoys()[0], false),
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
