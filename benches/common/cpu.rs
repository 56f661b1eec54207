//! In-process CPU timing for the benches that take turns in one process: the CPU time of
//! every thread (`CLOCK_PROCESS_CPUTIME_ID`, what a loaded machine inflates least; the
//! engines run parts of a proof on several threads), medians, and a run-count knob.
//!
//! Shared by the benches through `#[path]`.
#![allow(dead_code)]

/// The CPU time of every thread of this process so far, in ns.
pub fn cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write into; the clock id is a constant.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "clock_gettime");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// `f`'s CPU time in ns, all threads.
pub fn time(f: impl FnOnce()) -> f64 {
    let c = cpu_ns();
    f();
    cpu_ns().saturating_sub(c) as f64
}

/// The median of `t` (the upper one of an even count); `t` must not be empty.
pub fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(|a, b| a.total_cmp(b));
    t[t.len() / 2]
}

/// The run count the variable `var` asks for (a positive integer), else `default`.
pub fn runs(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(default)
}
