//! Logins being verified now, per peer address: the bound that keeps concurrency from
//! multiplying an address's failure budget, without charging honest logins anything.
//!
//! A failed login is recorded when it has failed (after its proof was verified), never
//! before. So that `k` logins verified at once cannot all fail past the budget, a proof
//! is verified only while
//!
//! ```text
//! (failures recorded in the window) + (logins of this address being verified) < max
//! ```
//!
//! (`max` = [`super::store::Policy::max_failures`], 5 by default). Logins beyond that wait
//! for a place, up to [`LOGIN_WAIT`], then are told to try again in a second
//! ([`Entry::Busy`]); an address whose budget is spent gets the usual retry-after
//! ([`Entry::Spent`]). An honest burst from one address (an office behind one NAT address)
//! is thus verified at most `max` at a time and each login waits its turn for a few
//! milliseconds; none is refused for the others' concurrency and no success is charged. An
//! attacker still gets at most `max` failures per window from one address, however many
//! it sends at once (one server process; with several instances on one database, each
//! instance admits at most `max` at a time).
//!
//! Correctness under races: the budget is read from the database before the gate's lock is
//! taken; a generation counter, bumped whenever a login leaves the gate (after its outcome
//! was recorded), tells whether that reading may be stale, in which case it is read again.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use zkgames_core::Result;

/// How long a login waits for a place in the gate before it is told to try again (in a
/// second): honest verifications take milliseconds, so a burst of 16 waits well under it.
pub const LOGIN_WAIT: Duration = Duration::from_secs(5);

/// Logins in verification, per address (see the module's text).
#[derive(Debug)]
pub struct LoginGate {
    wait: Duration,
    state: Mutex<State>,
    left: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Logins being verified, per address (no entry: none).
    in_flight: HashMap<String, usize>,
    /// Bumped each time a login leaves the gate.
    generation: u64,
}

/// What [`LoginGate::enter`] decided.
#[derive(Debug)]
pub enum Entry<'a> {
    /// Verify now; dropping the permit (after recording the outcome) frees the place.
    Permit(Permit<'a>),
    /// The address's failure budget is spent (the caller answers with its retry-after).
    Spent,
    /// The budget left is taken by logins in verification, and none finished within the
    /// wait: try again in a second.
    Busy,
}

/// A place in the gate.
#[derive(Debug)]
pub struct Permit<'a> {
    gate: &'a LoginGate,
    peer: String,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    // every update is a single counter change: a poisoned lock holds consistent counts
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl LoginGate {
    /// A gate whose logins wait up to `wait` for a place.
    pub fn new(wait: Duration) -> LoginGate {
        LoginGate {
            wait,
            state: Mutex::new(State::default()),
            left: Condvar::new(),
        }
    }

    /// The gate of this process, shared by every connection of its TCP and HTTP services.
    pub fn global() -> &'static LoginGate {
        static GATE: OnceLock<LoginGate> = OnceLock::new();
        GATE.get_or_init(|| LoginGate::new(LOGIN_WAIT))
    }

    /// Waits for a place for a login from `peer`: `budget` reads the failures `peer` may
    /// still make (from the database).
    pub fn enter(&self, peer: &str, budget: impl Fn() -> Result<usize>) -> Result<Entry<'_>> {
        let until = Instant::now() + self.wait;
        loop {
            let seen = lock(&self.state).generation;
            let b = budget()?;
            if b == 0 {
                return Ok(Entry::Spent);
            }
            let mut st = lock(&self.state);
            loop {
                if st.generation != seen {
                    break; // a login left meanwhile: its failure may be recorded, read again
                }
                let n = st.in_flight.get(peer).copied().unwrap_or(0);
                if n < b {
                    *st.in_flight.entry(peer.to_string()).or_insert(0) += 1;
                    return Ok(Entry::Permit(Permit {
                        gate: self,
                        peer: peer.to_string(),
                    }));
                }
                let now = Instant::now();
                if now >= until {
                    return Ok(Entry::Busy);
                }
                st = self
                    .left
                    .wait_timeout(st, until - now)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
        }
    }

    /// Logins of `peer` being verified now.
    pub fn in_flight(&self, peer: &str) -> usize {
        lock(&self.state).in_flight.get(peer).copied().unwrap_or(0)
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut st = lock(&self.gate.state);
        if let Some(n) = st.in_flight.get_mut(&self.peer) {
            *n -= 1;
            if *n == 0 {
                st.in_flight.remove(&self.peer);
            }
        }
        st.generation += 1;
        drop(st);
        self.gate.left.notify_all();
    }
}

/// The longest server-given wait a client sits out by itself ([`retrying`]): a server
/// that says "try again in a second" (its login gate or its connection places are full for
/// a moment) is honoured; a longer wait (a spent failure budget) is reported.
pub const CLIENT_RETRY_MAX: Duration = Duration::from_secs(2);

/// Attempts [`retrying`] makes in all.
pub const CLIENT_ATTEMPTS: usize = 8;

/// Runs a client's request `f` again while the server answers "try again" within
/// [`CLIENT_RETRY_MAX`], at most [`CLIENT_ATTEMPTS`] times, sleeping the time it asked
/// plus up to half a second at random (so that a burst turned away at once does not come
/// back at once); any other outcome, or a longer wait, is returned as it is.
pub fn retrying<T>(mut f: impl FnMut() -> Result<T>) -> Result<T> {
    use rand_core::RngCore;
    let mut rng = zkgames_core::rng::os_rng();
    let mut n = 1;
    loop {
        match f() {
            Err(zkgames_core::Error::TryLater {
                retry_after: Some(d),
                ..
            }) if d <= CLIENT_RETRY_MAX && n < CLIENT_ATTEMPTS => {
                n += 1;
                let jitter = Duration::from_millis(u64::from(rng.next_u32() % 500));
                std::thread::sleep(d + jitter);
            }
            r => return r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Many threads from one address, each failing: never more failures recorded than the
    /// budget, and never more in verification at once than the budget left; the others
    /// are told `Spent` (or `Busy`), none hangs. Then successes only: all pass, at most
    /// `max` at once, none charged.
    #[test]
    fn failures_never_exceed_the_budget_and_successes_all_pass() {
        for max in [1usize, 2, 5] {
            let gate = LoginGate::new(Duration::from_secs(20));
            let failures = AtomicUsize::new(0);
            let inside = AtomicUsize::new(0);
            let most = AtomicUsize::new(0);
            let outcomes: Vec<&'static str> = std::thread::scope(|sc| {
                let hs: Vec<_> = (0..24)
                    .map(|_| {
                        sc.spawn(|| {
                            let budget = || Ok(max.saturating_sub(failures.load(Ordering::SeqCst)));
                            match gate.enter("10.0.0.1", budget).unwrap() {
                                Entry::Permit(p) => {
                                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                                    most.fetch_max(now, Ordering::SeqCst);
                                    std::thread::sleep(Duration::from_millis(5));
                                    inside.fetch_sub(1, Ordering::SeqCst);
                                    failures.fetch_add(1, Ordering::SeqCst); // recorded
                                    drop(p);
                                    "failed"
                                }
                                Entry::Spent => "spent",
                                Entry::Busy => "busy",
                            }
                        })
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let failed = outcomes.iter().filter(|&&o| o == "failed").count();
            assert_eq!(failed, max, "{outcomes:?}");
            assert_eq!(failures.load(Ordering::SeqCst), max);
            assert!(most.load(Ordering::SeqCst) <= max);
            assert_eq!(gate.in_flight("10.0.0.1"), 0);

            // honest logins: nothing recorded, all pass, `max` at a time
            let inside = AtomicUsize::new(0);
            let most = AtomicUsize::new(0);
            let passed = AtomicUsize::new(0);
            std::thread::scope(|sc| {
                for _ in 0..16 {
                    sc.spawn(|| match gate.enter("10.0.0.2", || Ok(max)).unwrap() {
                        Entry::Permit(p) => {
                            let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(2));
                            inside.fetch_sub(1, Ordering::SeqCst);
                            passed.fetch_add(1, Ordering::SeqCst);
                            drop(p);
                        }
                        e => panic!("{e:?}"),
                    });
                }
            });
            assert_eq!(passed.load(Ordering::SeqCst), 16);
            assert!(most.load(Ordering::SeqCst) <= max);
        }
    }

    /// A full gate answers `Busy` after its wait, and other addresses are not held up.
    #[test]
    fn a_full_gate_answers_busy_after_its_wait() {
        let gate = LoginGate::new(Duration::from_millis(50));
        let Entry::Permit(p) = gate.enter("a", || Ok(1)).unwrap() else {
            panic!()
        };
        assert!(matches!(gate.enter("a", || Ok(1)).unwrap(), Entry::Busy));
        assert!(matches!(
            gate.enter("b", || Ok(1)).unwrap(),
            Entry::Permit(_)
        ));
        assert!(matches!(gate.enter("a", || Ok(0)).unwrap(), Entry::Spent));
        drop(p);
        assert!(matches!(
            gate.enter("a", || Ok(1)).unwrap(),
            Entry::Permit(_)
        ));
    }
}
