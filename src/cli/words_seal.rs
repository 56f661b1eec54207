//! What the word games' seal commands share (`prover wordle seal`, `prover boggle seal`):
//! the opening is a secret file, and one report of what was sealed.

use serde_json::{json, Value};

use crate::cli::report;
use crate::mpc::circuit::Circuit;
use crate::mpc::engine::System;
use crate::{Error, Result};

/// Refuses `-` for the opening: it is secret, so it goes to a file (mode 0600), never stdout.
pub fn secret_opening_path(opening: &str) -> Result<()> {
    if opening == "-" {
        return Err(Error::bad(
            "--opening -: the opening is secret; give a file path",
        ));
    }
    Ok(())
}

/// A seal just made: written to its two files and reported.
pub struct Written<'a> {
    /// The JSON verdict (`sealed`).
    pub verdict: &'static str,
    /// The key (and the word before the digest in the text line) of the file's digest.
    pub digest_key: &'static str,
    pub digest: [u8; 32],
    /// The public file's bytes.
    pub file: &'a [u8],
    /// The secret opening's bytes.
    pub opening: Vec<u8>,
    pub prove_ms: f64,
    /// The statement's circuit (its AND gates and S-boxes are reported).
    pub circuit: &'a Circuit,
    /// The kind's own JSON keys.
    pub keys: Value,
    /// What was sealed, and what it was checked against (said in parentheses).
    pub what: String,
    pub detail: String,
    pub system: &'a System,
}

impl Written<'_> {
    /// Writes the opening (secret, mode 0600) to `opening_path` and the file to `output`, then
    /// reports: the JSON object on stdout, or one line on stderr.
    pub fn write(mut self, output: &str, opening_path: &str, json: bool) -> Result<()> {
        let r = crate::files::Output::SECRET_BINARY.write(opening_path, &self.opening);
        self.opening.fill(0);
        r?;
        crate::proof_file::write_proof(output, self.file)?;
        let digest = hex::encode(self.digest);
        let (ands, sboxes) = (self.circuit.n_and(), self.circuit.n_inv());
        if json {
            let mut obj = report::verdict(
                self.verdict,
                json!({self.digest_key: digest, "bytes": self.file.len(),
                       "prove_ms": self.prove_ms, "and_gates": ands, "sboxes": sboxes}),
            );
            if let (Value::Object(o), Value::Object(k)) = (&mut obj, self.keys) {
                o.extend(k);
            }
            report::emit(true, "", obj);
        } else {
            eprintln!(
                "sealed {} ({}; circuit: {ands} AND gates, {sboxes} S-boxes): {}, {} bytes, {:.1} ms; {} {digest}",
                self.what,
                self.detail,
                self.system,
                self.file.len(),
                self.prove_ms,
                self.digest_key
            );
        }
        Ok(())
    }
}
