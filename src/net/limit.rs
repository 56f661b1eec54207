//! Per-address limits: how much of a server one network address may hold or spend.
//!
//! Why per address and not per user name: anyone can type any name, so a limit keyed by the
//! name lets a stranger lock its owner out ("five wrong passwords"); and a proof of knowledge
//! cannot be guessed, so there is nothing such a lockout protects. What an attacker really
//! spends is the server's work and its connection slots, and those are charged to the address
//! the requests come from.
//!
//! Two mechanisms, both keyed by [`IpAddr`], thread-safe, and free of any transport type so
//! that a blocking TCP server and an async HTTP server use them alike:
//!
//! * [`ConnLimiter`]: how many connections (or requests in flight) one address holds at
//!   once. [`ConnLimiter::acquire`] returns a [`Slot`] that gives the place back when
//!   dropped (from any thread or task).
//! * [`RateLimiter`]: how many costly events (failed logins, registrations...) one address
//!   may cause within a sliding window; a refusal says how many seconds to wait.
//!
//! Addresses are grouped by [`addr_key`]: an IPv4 address is itself (an IPv4-mapped IPv6
//! address counts as the IPv4 one), an IPv6 address counts as its /64 network, because one
//! customer usually gets a whole /64 and could otherwise pick a fresh address per request.
//!
//! Misuse to avoid: keying by anything the client chooses (a user name, a port, an HTTP
//! header such as `X-Forwarded-For` that no trusted proxy wrote) gives the attacker back a
//! fresh budget at will; charging an honest success (a valid login) lets an attacker that
//! shares the address make the honest user pay.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Most addresses a [`RateLimiter`] remembers at once: beyond it, the addresses whose last
/// event is oldest are forgotten first (memory stays bounded under a spray of addresses).
pub const MAX_TRACKED: usize = 65_536;

/// The address a limit is charged to: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64.
pub fn addr_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// [`addr_key`] as text, for logs and databases: `203.0.113.7`, `2001:db8:1:2::/64`.
pub fn addr_key_text(ip: IpAddr) -> String {
    match addr_key(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("{v6}/64"),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // a panic while holding the lock leaves counts that are still consistent (every update
    // is a single insert or remove), so a poisoned lock is used as is
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Concurrent connections (or requests in flight) per address.
#[derive(Debug)]
pub struct ConnLimiter {
    per_addr: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One place held by an address in a [`ConnLimiter`]; dropping it gives the place back.
#[derive(Debug)]
pub struct Slot {
    lim: Arc<ConnLimiter>,
    key: IpAddr,
}

impl ConnLimiter {
    /// At most `per_addr` places per address (0 refuses everyone).
    pub fn new(per_addr: usize) -> Arc<ConnLimiter> {
        Arc::new(ConnLimiter {
            per_addr,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// A place for `ip`, or `None` when its address already holds the maximum.
    pub fn acquire(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let key = addr_key(ip);
        let mut held = lock(&self.held);
        let n = held.entry(key).or_insert(0);
        if *n >= self.per_addr {
            if *n == 0 {
                held.remove(&key);
            }
            return None;
        }
        *n += 1;
        Some(Slot {
            lim: Arc::clone(self),
            key,
        })
    }

    /// Places `ip`'s address holds now.
    pub fn held(&self, ip: IpAddr) -> usize {
        lock(&self.held).get(&addr_key(ip)).copied().unwrap_or(0)
    }

    /// The limit per address.
    pub fn per_addr(&self) -> usize {
        self.per_addr
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = lock(&self.lim.held);
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// At most `max` events per address within a sliding `window`.
#[derive(Debug)]
pub struct RateLimiter {
    max: usize,
    window: Duration,
    events: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl RateLimiter {
    /// `max` events per `window` per address (`max` 0 refuses every charge).
    pub fn new(max: usize, window: Duration) -> RateLimiter {
        RateLimiter {
            max,
            window,
            events: Mutex::new(HashMap::new()),
        }
    }

    /// Seconds (at least 1) before `ip` may cause another event, or `None` if it may now.
    pub fn retry_after(&self, ip: IpAddr) -> Option<u64> {
        self.retry_after_at(ip, Instant::now())
    }

    /// Records one event for `ip` if its budget allows it; otherwise the seconds to wait.
    pub fn try_charge(&self, ip: IpAddr) -> Result<(), u64> {
        let now = Instant::now();
        let key = addr_key(ip);
        let mut ev = lock(&self.events);
        if let Some(s) = Self::wait(&ev, key, now, self.max, self.window) {
            return Err(s);
        }
        Self::push(&mut ev, key, now, self.max, self.window);
        Ok(())
    }

    /// Records one event for `ip` whatever its budget (for work already done, such as a
    /// failed login that was verified).
    pub fn charge(&self, ip: IpAddr) {
        let mut ev = lock(&self.events);
        Self::push(&mut ev, addr_key(ip), Instant::now(), self.max, self.window);
    }

    /// Addresses remembered now (for tests and status lines).
    pub fn tracked(&self) -> usize {
        lock(&self.events).len()
    }

    fn retry_after_at(&self, ip: IpAddr, now: Instant) -> Option<u64> {
        let ev = lock(&self.events);
        Self::wait(&ev, addr_key(ip), now, self.max, self.window)
    }

    fn wait(
        ev: &HashMap<IpAddr, VecDeque<Instant>>,
        key: IpAddr,
        now: Instant,
        max: usize,
        window: Duration,
    ) -> Option<u64> {
        if max == 0 {
            return Some(window.as_secs().max(1));
        }
        let q = ev.get(&key)?;
        let live: Vec<&Instant> = q.iter().filter(|&&t| now < t + window).collect();
        if live.len() < max {
            return None;
        }
        // allowed again when the oldest of the last `max` events leaves the window
        let oldest = *live[live.len() - max];
        let left = (oldest + window).saturating_duration_since(now);
        Some((left.as_secs() + u64::from(left.subsec_nanos() > 0)).max(1))
    }

    fn push(
        ev: &mut HashMap<IpAddr, VecDeque<Instant>>,
        key: IpAddr,
        now: Instant,
        max: usize,
        window: Duration,
    ) {
        if !ev.contains_key(&key) && ev.len() >= MAX_TRACKED {
            ev.retain(|_, q| q.back().is_some_and(|&t| now < t + window));
            if ev.len() >= MAX_TRACKED {
                if let Some(k) = ev
                    .iter()
                    .min_by_key(|(_, q)| q.back().copied())
                    .map(|(k, _)| *k)
                {
                    ev.remove(&k);
                }
            }
        }
        let q = ev.entry(key).or_default();
        while q.front().is_some_and(|&t| now >= t + window) {
            q.pop_front();
        }
        q.push_back(now);
        // only the newest `max` events decide anything
        while q.len() > max.max(1) {
            q.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn keys_group_ipv6_by_64_and_unmap_ipv4() {
        assert_eq!(addr_key(ip("10.1.2.3")), ip("10.1.2.3"));
        assert_eq!(addr_key(ip("::ffff:10.1.2.3")), ip("10.1.2.3"));
        assert_eq!(addr_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            addr_key(ip("2001:db8:1:2:aaaa::1")),
            addr_key(ip("2001:db8:1:2:ffff:1:2:3"))
        );
        assert_ne!(
            addr_key(ip("2001:db8:1:2::1")),
            addr_key(ip("2001:db8:1:3::1"))
        );
        assert_eq!(addr_key_text(ip("2001:db8:1:2::9")), "2001:db8:1:2::/64");
        assert_eq!(addr_key_text(ip("::ffff:127.0.0.2")), "127.0.0.2");
    }

    #[test]
    fn connection_slots_are_per_address_and_given_back_on_drop() {
        let l = ConnLimiter::new(2);
        let a = ip("127.0.0.2");
        let s1 = l.acquire(a).unwrap();
        let s2 = l.acquire(ip("::ffff:127.0.0.2")).unwrap();
        assert!(l.acquire(a).is_none());
        // another address is not affected
        let other = l.acquire(ip("127.0.0.1")).unwrap();
        assert_eq!(l.held(a), 2);
        drop(s1);
        assert_eq!(l.held(a), 1);
        let s3 = std::thread::spawn({
            let l = Arc::clone(&l);
            move || l.acquire(a).map(drop).is_some()
        })
        .join()
        .unwrap();
        assert!(s3);
        drop((s2, other));
        assert_eq!(l.held(a), 0);
        assert!(ConnLimiter::new(0).acquire(a).is_none());
    }

    /// Against a brute-force model: a list of (address, time) events, an event allowed iff
    /// fewer than `max` of its address's events lie within the window before it.
    #[test]
    fn rate_limit_matches_a_brute_force_model() {
        let mut rng = crate::rng::seeded_rng(21);
        use rand_core::RngCore;
        for max in 1..4usize {
            let window = Duration::from_secs(10);
            let lim = RateLimiter::new(max, window);
            let t0 = Instant::now();
            let mut model: Vec<(u8, Duration)> = Vec::new();
            let mut at = Duration::ZERO;
            for _ in 0..300 {
                at += Duration::from_millis(u64::from(rng.next_u32() % 4000));
                let a = (rng.next_u32() % 3) as u8;
                let addr = IpAddr::from([10, 0, 0, a]);
                let now = t0 + at;
                let live: Vec<Duration> = model
                    .iter()
                    .filter(|(b, t)| *b == a && at < *t + window)
                    .map(|x| x.1)
                    .collect();
                let want = if live.len() < max {
                    None
                } else {
                    let oldest = live[live.len() - max];
                    let left = oldest + window - at;
                    Some(left.as_secs() + u64::from(left.subsec_nanos() > 0))
                };
                let got = lim.retry_after_at(addr, now);
                assert_eq!(got.is_some(), want.is_some(), "max {max} at {at:?}");
                if let (Some(g), Some(w)) = (got, want) {
                    assert_eq!(g, w.max(1));
                } else {
                    let mut ev = lock(&lim.events);
                    RateLimiter::push(&mut ev, addr_key(addr), now, max, window);
                    model.push((a, at));
                }
            }
        }
    }

    #[test]
    fn charges_refuse_with_a_retry_after_and_memory_stays_bounded() {
        let lim = RateLimiter::new(2, Duration::from_secs(60));
        let a = ip("127.0.0.2");
        assert!(lim.try_charge(a).is_ok());
        lim.charge(a);
        let s = lim.try_charge(a).unwrap_err();
        assert!((59..=60).contains(&s), "{s}");
        assert_eq!(lim.retry_after(a), Some(s));
        assert_eq!(lim.retry_after(ip("127.0.0.1")), None);
        assert!(RateLimiter::new(0, Duration::from_secs(5))
            .try_charge(a)
            .is_err());
        let lim = RateLimiter::new(1, Duration::from_secs(60));
        for i in 0..(MAX_TRACKED as u32 + 100) {
            lim.charge(IpAddr::from((0x0a00_0000u32 + i).to_be_bytes()));
        }
        assert!(lim.tracked() <= MAX_TRACKED);
    }
}
