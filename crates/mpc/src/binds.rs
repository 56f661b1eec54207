//! Refusals that name what a statement kind binds. The engines know only that a proof's
//! sizes do not fit the statement they were given ([`super::ANOTHER_STATEMENT`], which lists
//! what any kind may bind); the statement's kind knows which of those it binds, and says so.

use zkgames_core::Error;

/// What a Bristol circuit proof binds.
pub const CIRCUIT: &str = "another circuit, public input, output or context";
/// What a key proof (a login, an offline `auth prove`) binds.
pub const KEY: &str = "another identity, challenge or context";

/// `e`, with the engines' generic "made for another statement (…)" naming `binds` instead.
pub fn name(e: Error, binds: &str) -> Error {
    match e {
        Error::Rejected(m) if m.contains(super::ANOTHER_STATEMENT) => Error::Rejected(m.replacen(
            super::ANOTHER_STATEMENT,
            &format!("made for another statement ({binds})"),
            1,
        )),
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_bindings_and_keeps_the_rest() {
        let e = Error::rejected(format!(
            "{}: an input share of 3 bytes",
            super::super::ANOTHER_STATEMENT
        ));
        let m = name(e, CIRCUIT).to_string();
        assert!(m.contains("made for another statement (another circuit, public input, output or context): an input share"), "{m}");
        assert!(!m.contains("puzzle"), "{m}");
        let other = name(Error::rejected("the proof's parameters give 20 bits"), KEY).to_string();
        assert!(other.contains("20 bits"), "{other}");
        let bad = name(Error::bad("x"), KEY);
        assert_eq!(bad.exit_code(), 2);
    }
}
