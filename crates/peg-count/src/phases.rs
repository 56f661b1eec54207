//! Phase times of a count, printed to the standard error when the environment variable
//! `ZKGAMES_COUNT_PHASES` is set (to anything): where the time of a count goes, level by
//! level, for tuning. Nothing is measured or printed otherwise (one test of a flag per phase).

use std::sync::OnceLock;
use std::time::Instant;

/// True if phase times are wanted (read once per process).
pub(super) fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("ZKGAMES_COUNT_PHASES").is_some())
}

/// A running phase clock: [`Clock::lap`] prints the time since the last lap (or the start).
pub(super) struct Clock(Option<Instant>);

impl Clock {
    pub(super) fn start() -> Self {
        Clock(on().then(Instant::now))
    }

    /// Prints `what` with the milliseconds since the last lap, and `extra`.
    pub(super) fn lap(&mut self, what: &str, extra: impl FnOnce() -> String) {
        if let Some(t) = self.0 {
            let now = Instant::now();
            eprintln!(
                "phase {what:<24} {:>9.2} ms  {}  {}",
                (now - t).as_secs_f64() * 1e3,
                extra(),
                memory()
            );
            self.0 = Some(now);
        }
    }
}

/// The resident memory now and at its peak (Linux; empty elsewhere).
pub(super) fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(String::new(), |kb| {
                format!("{name} {:.1} MB", kb as f64 / 1e3)
            })
    };
    format!("{} {}", field("VmRSS:"), field("VmHWM:"))
}
