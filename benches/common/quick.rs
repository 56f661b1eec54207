//! Quick mode, `cargo bench --bench NAME -- --test`: every part of the bench runs once, with
//! the fewest rounds its medians allow, so that CI sees it run to completion (a broken bench
//! cannot land) in seconds; the figures it prints are not measurements. Sets the bench's
//! own knobs (those not already set) before anything reads them; criterion's benches read
//! `--test` themselves (each benchmark once, untimed).
//!
//! Shared by the benches through `#[path]`.
#![allow(dead_code)]

/// Whether this run is in quick mode; if so, sets each `(variable, value)` not already set.
pub fn quick(knobs: &[(&str, &str)]) -> bool {
    let q = std::env::args().skip(1).any(|a| a == "--test");
    if q {
        for (k, v) in knobs {
            if std::env::var_os(k).is_none() {
                // before any thread starts: main's first statement
                std::env::set_var(k, v);
            }
        }
        println!("quick mode (--test): one short run of every part, no figures to quote");
    }
    q
}
