//! Authentication by zero-knowledge proof: a user's public identity is a statement only they
//! can prove (a SHA-256 digest or a peg solitaire instance), and logging in is a proof of
//! knowledge bound to a fresh server challenge. The server stores no secret.
//!
//! - [`keys`]: key and identity files, the login context, `prove_login` / `verify_login`.
//! - [`store`]: the user database (SQLite): users, challenges, hashed tokens, audit log,
//!   rate limits.
//! - [`login`]: the server's registration and login steps on top of the store.
//! - [`server`]: those steps on the wire (requests, replies, the connection handler, the
//!   client calls).

pub mod db;
pub mod http;
pub mod http_client;
pub mod keys;
pub mod login;
pub mod pg;
pub mod server;
pub mod store;

pub use keys::{prove_login, verify_login, Identity, Kind, SecretKey};
pub use login::{Authenticator, Denied};
pub use db::{DbPool, DbSpec, UserDb};
pub use store::{Clock, Policy, Store};
