//! Authentication by zero-knowledge proof: a user's public identity is a statement only they
//! can prove (a SHA-256 digest or a peg solitaire instance), and logging in is a proof of
//! knowledge bound to a fresh server challenge. The server stores no secret.
//!
//! - [`keys`]: key and identity files, the login context, `prove_login` / `verify_login`.
//! - [`store`]: the user database (SQLite): users, challenges, hashed tokens, audit log,
//!   rate limits.
//! - [`pg`]: the same database in PostgreSQL, shared by several server instances.
//! - [`db`]: the one interface ([`UserDb`]) both backends offer, and a connection pool.
//! - [`login`]: the server's registration and login steps on top of the store;
//!   [`gate`]: how many logins of one address are verified at once.
//! - [`server`]: those steps on the wire (requests, replies, the connection handler, the
//!   client calls).
//! - [`http`]: the same steps as a JSON API over HTTP/1.1, with the login page;
//!   [`http_client`]: its client for `prover auth … http://…`.

pub mod db;
pub mod gate;
pub mod http;
pub mod http_client;
pub mod keys;
pub mod login;
pub mod pg;
pub mod server;
pub mod store;

pub use db::{DbPool, DbSpec, UserDb};
pub use keys::{prove_login, verify_login, Identity, Kind, SecretKey};
pub use login::{Authenticator, Denied};
pub use store::{Clock, Policy, Store};
