//! One error type for the whole crate, split by what the user must do about it.
//!
//! The binaries map [`Error::exit_code`] to the process exit status:
//! `2` for bad input or usage (fix the file or the command line),
//! `1` for a proof that was read correctly but rejected,
//! `75` (sysexits' `EX_TEMPFAIL`) for a refusal that says nothing about the proof or the
//! user: a busy server or a rate limit, to be tried again later.

use std::fmt;
use std::time::Duration;

/// The exit status of [`Error::TryLater`]: `EX_TEMPFAIL` of sysexits.h.
pub const EXIT_TRY_LATER: i32 = 75;

/// Errors of the library. Every variant carries a one-line, human-readable message.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed or unusable input: a puzzle, position, solution, proof file or network
    /// message that cannot be parsed or does not meet its format's rules.
    #[error("{0}")]
    BadInput(String),
    /// A well-formed proof that does not verify. The message says which round and check.
    #[error("{0}")]
    Rejected(String),
    /// Not now: the server is busy or a rate limit applies. Nothing was judged; the same
    /// request may succeed later. `retry_after` is the wait the server announced, if any.
    /// Misuse to avoid: reporting a refused proof or a failed login this way (a script would
    /// retry forever); that is [`Error::Rejected`].
    #[error("{reason}; {}", retry_text(.retry_after))]
    TryLater {
        reason: String,
        retry_after: Option<Duration>,
    },
    /// An I/O failure (file, socket, pipe).
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Shorthand for [`Error::BadInput`].
    pub fn bad(msg: impl fmt::Display) -> Self {
        Error::BadInput(msg.to_string())
    }
    /// Shorthand for [`Error::Rejected`].
    pub fn rejected(msg: impl fmt::Display) -> Self {
        Error::Rejected(msg.to_string())
    }
    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl fmt::Display, source: std::io::Error) -> Self {
        Error::Io {
            context: context.to_string(),
            source,
        }
    }
    /// Shorthand for [`Error::TryLater`].
    pub fn try_later(reason: impl fmt::Display, retry_after: Option<Duration>) -> Self {
        Error::TryLater {
            reason: reason.to_string(),
            retry_after,
        }
    }
    /// The process exit status for this error: 1 for a rejected proof, 75 for "try again
    /// later", 2 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Rejected(_) => 1,
            Error::TryLater { .. } => EXIT_TRY_LATER,
            _ => 2,
        }
    }
}

/// "try again in 3 s" / "try again later": the wait in whole seconds, rounded up.
fn retry_text(d: &Option<Duration>) -> String {
    match *d {
        Some(d) => format!("try again in {} s", retry_secs(d)),
        None => "try again later".into(),
    }
}

/// A wait in whole seconds, rounded up (a 0.2 s wait is "1 s", never "0 s").
pub fn retry_secs(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// Crate-wide result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
