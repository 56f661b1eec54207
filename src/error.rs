//! One error type for the whole crate, split by what the user must do about it.
//!
//! The binaries map [`Error::exit_code`] to the process exit status:
//! `2` for bad input or usage (fix the file or the command line),
//! `1` for a proof that was read correctly but rejected.

use std::fmt;

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
    /// The process exit status for this error: 1 for a rejected proof, 2 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Rejected(_) => 1,
            _ => 2,
        }
    }
}

/// Crate-wide result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
