//! `--json`: one JSON object per run on stdout, for scripts.
//!
//! A command that takes `--json` ([`JsonArg`]) calls [`JsonArg::enable`] first, then prints
//! its result with [`emit`] (human text, or the object). When the command fails, the
//! binary's error handler ([`error_object`]) prints the error as the run's one object
//! instead, so a script always reads exactly one object from stdout, whatever happened:
//!
//! ```text
//! {"verdict":"accepted", ...}          exit 0: the command's own keys
//! {"verdict":"rejected","exit":1,"error":"..."}
//! {"verdict":"error","exit":2,"error":"..."}
//! {"verdict":"retry","exit":75,"error":"...","retry_after_s":3}   (busy server, rate limit;
//!                                          retry_after_s is null when no wait was announced)
//! ```
//!
//! The human-readable line still goes to stderr on failure; stdout carries only the
//! object. Keys are documented per command in docs/GUIDE.md ("Output for scripts").
//!
//! Misuse to avoid: printing anything else to stdout in JSON mode (a progress line, a
//! second object) breaks the one-object contract; progress goes to stderr.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{json, Map, Value};

use crate::proof_file::{Mode, ProofFile};
use crate::Error;

/// Set once a command has asked for JSON output; read by the error handler.
static JSON: AtomicBool = AtomicBool::new(false);

/// The `--json` option of a command.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct JsonArg {
    /// Print one JSON object on stdout instead of text (errors too: `verdict`, `exit`,
    /// `error`); see docs/GUIDE.md, "Output for scripts".
    #[arg(long)]
    pub json: bool,
}

impl JsonArg {
    /// Records the choice for the error handler; returns it.
    pub fn enable(self) -> bool {
        if self.json {
            JSON.store(true, Ordering::SeqCst);
        }
        self.json
    }
}

/// [`JsonArg::enable`] for a command whose `--json` flag predates [`JsonArg`].
pub fn enable_json(on: bool) -> bool {
    JsonArg { json: on }.enable()
}

/// Whether this run prints JSON.
pub fn json_mode() -> bool {
    JSON.load(Ordering::SeqCst)
}

/// Prints the run's result: `obj` (one line of JSON) in JSON mode, `human` otherwise.
pub fn emit(json: bool, human: impl std::fmt::Display, obj: Value) {
    if json {
        println!("{obj}");
    } else {
        println!("{human}");
    }
}

/// An object with `verdict` and the keys of `fields` (keys print sorted).
pub fn verdict(verdict: &str, fields: Value) -> Value {
    let mut m = Map::new();
    m.insert("verdict".into(), Value::from(verdict));
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    Value::Object(m)
}

/// What every verifier command reports on an accepted proof (or a consistent recorded
/// session): one type, rendered as the `ACCEPTED:` line or as the JSON object. The keys every
/// kind shares come first; `about` holds the kind's own (`digest`, `puzzle`, `game_id`, …).
#[derive(serde::Serialize, Debug, Clone)]
pub struct Verified {
    /// `accepted` (transferable evidence) or `consistent` (a recorded session).
    pub verdict: &'static str,
    /// What the verifier now knows, in words.
    pub statement: String,
    /// The proof system's label (`VOLE`, `KKW`, `ZKB++`, `isomorphism protocol`).
    pub system: &'static str,
    /// Whether the file is evidence for anyone (a recorded session is not).
    pub evidence: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
    #[serde(serialize_with = "one_decimal_opt")]
    pub security_bits: Option<f64>,
    pub proof_bytes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub and_gates: Option<usize>,
    pub context: String,
    #[serde(serialize_with = "one_decimal")]
    pub verify_ms: f64,
    #[serde(flatten)]
    pub about: Map<String, Value>,
    /// The system and sizes as the text line shows them (a [`crate::mpc::Report`]).
    #[serde(skip)]
    pub detail: String,
    /// Said after the line (`(made with …)`).
    #[serde(skip)]
    pub note: String,
}

fn one_decimal<S: serde::Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64((x * 10.0).round() / 10.0)
}

fn one_decimal_opt<S: serde::Serializer>(
    x: &Option<f64>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match x {
        Some(x) => one_decimal(x, s),
        None => s.serialize_none(),
    }
}

impl Verified {
    /// An accepted non-interactive proof with `report`, verified in `elapsed`.
    pub fn accepted(
        statement: String,
        report: &crate::mpc::Report,
        context: &str,
        elapsed: std::time::Duration,
    ) -> Self {
        Verified {
            verdict: "accepted",
            statement,
            system: report.system.engine().label(),
            evidence: true,
            rounds: Some(report.rounds),
            security_bits: Some(report.security_bits),
            proof_bytes: report.proof_bytes,
            and_gates: Some(report.and_gates),
            context: context.to_string(),
            verify_ms: elapsed.as_secs_f64() * 1e3,
            about: Map::new(),
            detail: report.to_string(),
            note: String::new(),
        }
    }

    /// Adds a key of the kind's own.
    pub fn about(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.about.insert(key.to_string(), value.into());
        self
    }

    /// The text line: `ACCEPTED: STATEMENT (DETAIL)NOTE`, or for a recorded session
    /// `CONSISTENT (interactive session transcript, DETAIL): …NOT evidence`.
    pub fn line(&self) -> String {
        if self.evidence {
            format!(
                "ACCEPTED: {} ({}){}",
                self.statement, self.detail, self.note
            )
        } else {
            format!(
                "CONSISTENT (interactive session transcript, {}): the recorded session checks, but such a transcript can be made without a witness and is NOT evidence{}",
                self.detail, self.note
            )
        }
    }

    /// Prints the verdict: the object in JSON mode, the line otherwise.
    pub fn emit(&self, json: bool) {
        let obj = serde_json::to_value(self).expect("a verdict serializes");
        emit(json, self.line(), obj);
    }
}

/// The object printed for a failed run: `rejected` (exit 1), `retry` (exit 75, with
/// `retry_after_s`: whole seconds, or null) or `error` (exit 2).
pub fn error_object(e: &Error, message: &str) -> Value {
    match e {
        Error::TryLater { retry_after, .. } => json!({
            "verdict": "retry",
            "exit": e.exit_code(),
            "error": message,
            "retry_after_s": retry_after.map(crate::error::retry_secs),
        }),
        _ => json!({
            "verdict": if matches!(e, Error::Rejected(_)) { "rejected" } else { "error" },
            "exit": e.exit_code(),
            "error": message,
        }),
    }
}

/// The object for a command line that could not be parsed (exit 2).
pub fn usage_object(message: &str) -> Value {
    json!({"verdict": "error", "exit": 2, "error": message})
}

/// Milliseconds with one decimal, as JSON.
pub fn ms(d: std::time::Duration) -> Value {
    json!((d.as_secs_f64() * 1e4).round() / 10.0)
}

/// Bits of security with one decimal, as JSON.
pub fn bits(b: f64) -> Value {
    json!((b * 10.0).round() / 10.0)
}

/// `inspect --json`: what the header says (protocol, mode, sizes, the file's SHA-256, which
/// identifies the proof since every proof has one valid encoding), then the report's fields
/// under `details`.
pub fn inspect_object(f: &ProofFile, bytes: &[u8], details: &crate::details::Details) -> Value {
    use sha2::Digest as _;
    json!({
        "verdict": "inspected",
        "protocol": f.protocol.name(),
        "protocol_id": f.protocol.0,
        "mode": match f.mode {
            Mode::NonInteractive => "non-interactive",
            Mode::Interactive => "interactive",
        },
        "evidence": f.mode == Mode::NonInteractive,
        "file_bytes": bytes.len(),
        "body_bytes": f.body.len(),
        "file_sha256": hex::encode(sha2::Sha256::digest(bytes)),
        "details": details,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_joins_the_fields() {
        let v = verdict("accepted", json!({"b": 1, "a": 2}));
        assert_eq!(v, json!({"verdict": "accepted", "a": 2, "b": 1}));
    }

    #[test]
    fn errors_name_their_kind_and_exit_code() {
        let v = error_object(&Error::rejected("no"), "no");
        assert_eq!(v["verdict"], "rejected");
        assert_eq!(v["exit"], 1);
        let v = error_object(&Error::bad("bad"), "bad");
        assert_eq!(v["verdict"], "error");
        assert_eq!(v["exit"], 2);
        let e = Error::try_later("busy", Some(std::time::Duration::from_millis(2100)));
        let v = error_object(&e, "busy");
        assert_eq!(v["verdict"], "retry");
        assert_eq!(v["exit"], 75);
        assert_eq!(v["retry_after_s"], 3);
        assert_eq!(e.to_string(), "busy; try again in 3 s");
        let v = error_object(&Error::try_later("busy", None), "busy");
        assert!(v["retry_after_s"].is_null());
    }
}
