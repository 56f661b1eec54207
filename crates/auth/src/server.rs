//! The login service on the wire: requests and replies over the session layer's framed,
//! deadline-bound channels ([`zkgames_net::Channel`]), served by the shared accept loop
//! ([`zkgames_net::server`]).
//!
//! A connection carries up to [`MAX_REQUESTS`] requests, one after the other:
//!
//! ```text
//! Register{user, identity}  → Registered | Denied
//! Login{user}               → Challenge{server, nonce, expires_in} | Denied
//!   Proof{bytes}            → Welcome{token, expires} | Denied
//! Whoami{token}             → User{name} | Denied
//! ```
//!
//! Every refusal of a login is the same `Denied{"authentication failed"}` whatever the
//! reason (unknown user, wrong proof, used or expired nonce), or a `retry_after` when the
//! peer address's rate limit applies; the reason goes to the audit log. A server that is
//! full, or an address over its connection limit, gets `Denied` with a `retry_after` too
//! ([`refuse`], sent by the accept loop before any request is read). Each connection opens its own
//! database connection (SQLite in WAL mode serves them in parallel), and a proof is verified
//! outside any lock, so logins are checked on every core.

use std::net::SocketAddr;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::db::DbSpec;
use super::keys::{Identity, SecretKey};
use super::login::{Authenticator, Denied};
use super::store::{Clock, Policy};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_net::Channel;

/// Version of the request/reply messages.
pub const AUTH_VERSION: u16 = 1;
/// Requests served on one connection.
pub const MAX_REQUESTS: usize = 16;

/// The largest `Proof` request accepted (the frame after a [`Reply::Challenge`]): the
/// longest honest login proof of any key kind ([`super::keys::max_login_proof`]) in
/// bincode's `standard()` configuration, a one-byte variant index and the proof's length as
/// its varint. A longer frame is refused on its length prefix, before its body is read.
/// Every other request is bounded by [`max_register_request`].
pub fn max_proof_request() -> usize {
    let proof = super::keys::max_login_proof();
    1 + zkgames_core::proof_file::encode(&(proof as u64)).len() + proof
}

/// The largest honest request other than a proof: a `Register` with the longest user name
/// and the longest identity text ([`super::keys::max_identity_text`]), in bincode's
/// `standard()` configuration (1.4): a one-byte variant index, the version (at most 3 bytes)
/// and each string's length as its longest varint (9 bytes). It bounds the first frame of
/// a connection and every frame but a proof, refused on the frame's length prefix.
pub fn max_register_request() -> usize {
    1 + 3 + (9 + super::keys::MAX_USER) + (9 + super::keys::max_identity_text())
}

/// What a client asks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Request {
    Register {
        version: u16,
        user: String,
        identity: String,
    },
    Login {
        version: u16,
        user: String,
    },
    Proof {
        proof: Vec<u8>,
    },
    Whoami {
        version: u16,
        token: [u8; 32],
    },
}

/// What the server answers.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Reply {
    Registered,
    Challenge {
        server: String,
        nonce: [u8; 32],
        expires_in: u32,
    },
    Welcome {
        token: [u8; 32],
        expires: i64,
    },
    User {
        name: String,
    },
    Denied {
        reason: String,
        retry_after: Option<u64>,
    },
}

fn denied(d: Denied) -> Reply {
    Reply::Denied {
        reason: match d {
            Denied::RetryAfter(_) => "too many attempts".into(),
            Denied::Failed => "authentication failed".into(),
        },
        retry_after: match d {
            Denied::RetryAfter(s) => Some(s),
            Denied::Failed => None,
        },
    }
}

/// The server's configuration.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The user database: an SQLite file or a PostgreSQL URL.
    pub db: DbSpec,
    /// The name proofs are bound to.
    pub name: String,
    pub policy: Policy,
    /// The only engine whose login proofs are accepted (`None`: every engine).
    pub only: Option<zkgames_mpc::engine::Engine>,
}

/// Serves the requests of one connection; returns a one-line summary for the log, or the
/// error (a refused login is [`Error::Rejected`]).
pub fn handle(cfg: &ServerConfig, ch: &mut Channel, peer: SocketAddr) -> Result<String> {
    // a request may register an identity, whose text grows with a peg identity's puzzle up
    // to the bounds' largest: every frame but a proof is bounded by that request, refused on
    // its length prefix; only the frame after a challenge may carry a (larger) proof
    let max_request = max_register_request();
    ch.set_max_frame(max_request);
    ch.set_max_first_frame(max_request);
    let store = cfg.db.open(Clock::System, cfg.policy.clone(), false)?;
    let auth = Authenticator::new(store.as_ref(), &cfg.name)?.accepting(cfg.only);
    // limits are charged to the address (an IPv6 client: its /64), never to the port
    let peer_ip = zkgames_net::limit::addr_key_text(peer.ip());
    let mut done = Vec::new();
    for _ in 0..MAX_REQUESTS {
        let req = match ch.recv::<Request>("request") {
            Ok(r) => r,
            // the client hung up between requests: a normal end
            Err(e) if !done.is_empty() && e.to_string().contains("closed the connection") => break,
            Err(e) => return Err(e),
        };
        let version_ok = |v: u16| {
            if v == AUTH_VERSION {
                Ok(())
            } else {
                Err(Error::bad(format!(
                    "client speaks auth protocol version {v}, this server {AUTH_VERSION}"
                )))
            }
        };
        match req {
            Request::Register {
                version,
                user,
                identity,
            } => {
                version_ok(version)?;
                let r = Identity::parse(&identity)
                    .and_then(|id| auth.try_register(&user, &peer_ip, &id));
                match r {
                    Ok(Ok(())) => {
                        ch.send(&Reply::Registered)?;
                        done.push(format!("registered {user}"));
                    }
                    Ok(Err(d)) => {
                        ch.send(&Reply::Denied {
                            reason: "too many registrations from this address".into(),
                            retry_after: match d {
                                Denied::RetryAfter(s) => Some(s),
                                Denied::Failed => None,
                            },
                        })?;
                        return Err(Error::rejected(format!(
                            "registration of \"{}\" from a rate-limited address: {d}",
                            super::keys::clip(&user)
                        )));
                    }
                    Err(e) => {
                        ch.send(&Reply::Denied {
                            reason: e.to_string(),
                            retry_after: None,
                        })?;
                        return Err(Error::rejected(format!(
                            "registration of \"{}\": {e}",
                            super::keys::clip(&user)
                        )));
                    }
                }
            }
            Request::Login { version, user } => {
                version_ok(version)?;
                let c = match auth.begin(&user, &peer_ip)? {
                    Ok(c) => c,
                    Err(d) => {
                        ch.send(&denied(d))?;
                        return Err(Error::rejected(format!("login {user}: {d}")));
                    }
                };
                ch.send(&Reply::Challenge {
                    server: cfg.name.clone(),
                    nonce: c.nonce,
                    expires_in: cfg.policy.challenge_ttl.max(0) as u32,
                })?;
                ch.set_max_frame(max_proof_request());
                let proof = match ch.recv::<Request>("proof")? {
                    Request::Proof { proof } => proof,
                    _ => return Err(Error::bad("protocol error: expected a proof")),
                };
                ch.set_max_frame(max_request);
                let t0 = Instant::now();
                let r = auth.finish(&user, &peer_ip, &c.nonce, &proof)?;
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                match r {
                    Ok(t) => {
                        ch.send(&Reply::Welcome {
                            token: t.token,
                            expires: t.expires,
                        })?;
                        done.push(format!(
                            "login {user} ok (proof {} B, verified in {ms:.1} ms)",
                            proof.len()
                        ));
                    }
                    Err(d) => {
                        ch.send(&denied(d))?;
                        return Err(Error::rejected(format!(
                            "login {user}: {d} (proof {} B, {ms:.2} ms)",
                            proof.len()
                        )));
                    }
                }
            }
            Request::Whoami { version, token } => {
                version_ok(version)?;
                match auth.whoami(&token)? {
                    Some(name) => {
                        ch.send(&Reply::User { name: name.clone() })?;
                        done.push(format!("whoami {name}"));
                    }
                    None => {
                        ch.send(&Reply::Denied {
                            reason: "no valid session token".into(),
                            retry_after: None,
                        })?;
                        return Err(Error::rejected("whoami: no valid session token"));
                    }
                }
            }
            Request::Proof { .. } => {
                return Err(Error::bad("protocol error: a proof without a login"))
            }
        }
    }
    Ok(done.join("; "))
}

/// [`zkgames_net::server::Refuse`] for the login protocol: the accept loop's "try again
/// later" as a [`Reply::Denied`] with its retry-after, which the client reports as such.
pub fn refuse(ch: &mut Channel, reason: &str, retry_after: u32) {
    let _ = ch.send(&Reply::Denied {
        reason: reason.to_string(),
        retry_after: Some(u64::from(retry_after)),
    });
}

fn expect_reply(ch: &mut Channel) -> Result<Reply> {
    match ch.recv_reply::<Reply>("reply from the server")? {
        Reply::Denied {
            reason,
            retry_after: Some(s),
        } => Err(Error::try_later(
            zkgames_core::files::untrusted::shown(&reason),
            Some(std::time::Duration::from_secs(s.min(86_400))),
        )),
        // a rate limit said in words only ("too many …: retry after N s") is not a verdict
        Reply::Denied { reason, .. } => {
            let reason = zkgames_core::files::untrusted::shown(&reason);
            Err(zkgames_net::try_later_of(&reason).unwrap_or_else(|| Error::rejected(reason)))
        }
        r => Ok(r),
    }
}

/// Registers `user` with `identity` (first come, first served).
pub fn register(ch: &mut Channel, user: &str, identity: &Identity) -> Result<()> {
    ch.send(&Request::Register {
        version: AUTH_VERSION,
        user: user.into(),
        identity: identity.to_text(),
    })?;
    match expect_reply(ch)? {
        Reply::Registered => Ok(()),
        _ => Err(Error::bad("protocol error: expected Registered")),
    }
}

/// The first half of a login: the server's name and fresh nonce.
pub fn begin_login(ch: &mut Channel, user: &str) -> Result<(String, [u8; 32])> {
    ch.send(&Request::Login {
        version: AUTH_VERSION,
        user: user.into(),
    })?;
    match expect_reply(ch)? {
        Reply::Challenge { server, nonce, .. } => Ok((server, nonce)),
        _ => Err(Error::bad("protocol error: expected a challenge")),
    }
}

/// The second half: sends a proof, returns the session token and its expiry.
pub fn finish_login(ch: &mut Channel, proof: Vec<u8>) -> Result<([u8; 32], i64)> {
    ch.send(&Request::Proof { proof })?;
    match expect_reply(ch)? {
        Reply::Welcome { token, expires } => Ok((token, expires)),
        _ => Err(Error::bad("protocol error: expected a session token")),
    }
}

/// A whole login: fresh nonce, proof bound to (server, user, nonce), token. When
/// `expect_server` is given, a server announcing another name is refused before proving.
pub fn login(
    ch: &mut Channel,
    user: &str,
    key: &SecretKey,
    expect_server: Option<&str>,
) -> Result<([u8; 32], i64, usize)> {
    login_with(
        ch,
        user,
        key,
        expect_server,
        zkgames_mpc::engine::Engine::Zkbpp,
    )
}

/// [`login`] with a proof of `engine`.
pub fn login_with(
    ch: &mut Channel,
    user: &str,
    key: &SecretKey,
    expect_server: Option<&str>,
    engine: zkgames_mpc::engine::Engine,
) -> Result<([u8; 32], i64, usize)> {
    let (server, nonce) = begin_login(ch, user)?;
    if let Some(want) = expect_server {
        if want != server {
            return Err(Error::rejected(format!(
                "the server calls itself {server:?}, not {want:?}: not proving"
            )));
        }
    }
    let proof = super::keys::prove_login_with(
        key,
        &server,
        user,
        &nonce,
        engine,
        &mut zkgames_core::rng::os_rng(),
    )?;
    let n = proof.len();
    let (t, e) = finish_login(ch, proof)?;
    Ok((t, e, n))
}

/// Asks who a session token belongs to.
pub fn whoami(ch: &mut Channel, token: &[u8; 32]) -> Result<String> {
    ch.send(&Request::Whoami {
        version: AUTH_VERSION,
        token: *token,
    })?;
    match expect_reply(ch)? {
        Reply::User { name } => Ok(name),
        _ => Err(Error::bad("protocol error: expected a user name")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::{largest_peg_identity, max_identity_text, MAX_USER};

    /// The largest honest registration (the bounds' largest identity, the longest name) is
    /// within [`max_register_request`], by less than the varints' slack.
    #[test]
    fn the_largest_registration_fits_the_first_frame() {
        let identity = largest_peg_identity().to_text().replace('\n', "\r\n");
        assert_eq!(identity.len(), max_identity_text());
        let body = zkgames_core::proof_file::encode(&Request::Register {
            version: AUTH_VERSION,
            user: "a".repeat(MAX_USER),
            identity,
        });
        assert!(body.len() <= max_register_request(), "{}", body.len());
        assert!(body.len() + 16 > max_register_request(), "{}", body.len());
        assert!(max_register_request() < max_proof_request());
    }

    /// The longest honest proof request is within [`max_proof_request`] to the byte: a
    /// `Proof` of [`crate::keys::max_login_proof`] bytes encodes to exactly the bound.
    #[test]
    fn the_longest_proof_fits_its_frame() {
        let n = crate::keys::max_login_proof();
        let body = zkgames_core::proof_file::encode(&Request::Proof { proof: vec![0; n] });
        assert_eq!(body.len(), max_proof_request());
    }
}
