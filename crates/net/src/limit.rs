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

/// Whether a connection is at work now (a session under way, a request in flight): asked
/// only when a full server looks for a connection to close.
pub type BusyProbe = Box<dyn Fn() -> bool + Send>;

/// Closes a connection from another thread or task (shuts its socket down).
pub type Kick = Box<dyn FnOnce() + Send>;

/// The connections a server holds, per address, and which one makes room for a newcomer
/// when it is full ([`ConnTable::admit`]).
///
/// Fairness rule: a newcomer is never kept out by connections of addresses that hold more
/// than its own address would. When the table is full, it closes, in order of preference:
///
/// 1. an idle connection (no first message yet, or a kept-alive one between requests), from
///    the address holding the most, the oldest first, if that address
///    holds at least as many as the newcomer's would (its count plus this connection);
/// 2. a busy one from the address holding the most connections, the oldest first, if that
///    address holds more than the newcomer's would;
///
/// 3. (a table made with [`ConnTable::with_hold`]) the connection that has held its place
///    longest, busy or idle, if it has held it for at least the table's `hold` (say 3 s:
///    an honest login or session takes well under a second), unless the newcomer's
///    address lost a connection to this rule within the last [`REEVICT_AFTER`] (an
///    evicted client that reconnects waits for a free place instead of evicting the next
///    holder in turn);
///
/// and refuses the newcomer otherwise (every address holds about as much as it would, and
/// no place has been held for `hold`). An
/// honest client's connection, idle for the moment between its connect and its first
/// message, is thus never closed for a newcomer from an address that holds more. So
/// `k` addresses can hold at most `max_total / k` each against newcomers, whatever their
/// connections do, and an address holding a single connection is refused only when the
/// table is full of addresses holding one each and none has held its place for `hold`
/// (rule 3): as many addresses as places, each holding one place forever, keep nobody
/// out for longer than `hold`. Addresses are grouped by [`addr_key`].
pub struct ConnTable {
    max_total: usize,
    per_addr: usize,
    hold: Option<Duration>,
    inner: Mutex<TableInner>,
}

/// How long an address that lost a connection to the age rule (rule 3 of [`ConnTable`])
/// may not evict by that rule itself: an evicted client that reconnects at once would
/// otherwise evict the next oldest holder, that one the next, and so on, until every place
/// is younger than the hold and newcomers are refused again.
pub const REEVICT_AFTER: Duration = Duration::from_secs(30);

/// How long a connection of another address that has not sent its first message yet is
/// spared by a newcomer (when the table has a hold): an honest client sends its first
/// message within milliseconds of connecting, so this keeps it from being closed by an
/// evicted client reconnecting at once, while connections that stay silent longer make room
/// as before (idle ones first).
pub const YOUNG_IDLE: Duration = Duration::from_millis(100);

/// Default hold of the servers' tables ([`ConnTable::with_hold`]): a connection that has
/// held its place this long yields it to a newcomer at a full server.
pub const DEFAULT_HOLD: Duration = Duration::from_secs(3);

#[derive(Default)]
struct TableInner {
    next: u64,
    by_addr: HashMap<IpAddr, usize>,
    conns: HashMap<u64, Entry>,
    /// Addresses that lost a connection to the age rule, and when (at most
    /// [`MAX_TRACKED`], the oldest forgotten first).
    aged_out: HashMap<IpAddr, Instant>,
}

struct Entry {
    key: IpAddr,
    since: Instant,
    busy: BusyProbe,
    kick: Option<Kick>,
}

/// A connection's place in a [`ConnTable`]; dropping it gives the place back.
pub struct Ticket {
    table: Arc<ConnTable>,
    id: u64,
}

/// What [`ConnTable::admit`] decided.
pub enum Admission {
    /// Admitted (after closing another connection if `evicted`).
    Admitted { ticket: Ticket, evicted: bool },
    /// The address already holds its maximum.
    AddressFull,
    /// The table is full and no connection may be closed for this newcomer.
    ServerFull,
}

impl ConnTable {
    /// At most `max_total` connections, `per_addr` per address.
    pub fn new(max_total: usize, per_addr: usize) -> Arc<ConnTable> {
        Arc::new(ConnTable {
            max_total,
            per_addr,
            hold: None,
            inner: Mutex::new(TableInner::default()),
        })
    }

    /// [`ConnTable::new`] whose connections yield their place to a newcomer at a full
    /// table once they have held it for `hold` (rule 3 of the type's text).
    pub fn with_hold(max_total: usize, per_addr: usize, hold: Duration) -> Arc<ConnTable> {
        Arc::new(ConnTable {
            max_total,
            per_addr,
            hold: Some(hold),
            inner: Mutex::new(TableInner::default()),
        })
    }

    /// Admits a connection from `ip`, closing another one if the table is full and the
    /// fairness rule allows it (see the type's text). `busy` says whether the connection is
    /// at work; `kick` closes it if it is chosen to make room later.
    pub fn admit(self: &Arc<Self>, ip: IpAddr, busy: BusyProbe, kick: Kick) -> Admission {
        let key = addr_key(ip);
        let mut t = lock(&self.inner);
        let mine = t.by_addr.get(&key).copied().unwrap_or(0);
        if mine >= self.per_addr || self.max_total == 0 {
            return Admission::AddressFull;
        }
        let mut victim_kick = None;
        if t.conns.len() >= self.max_total {
            let now = Instant::now();
            let young = self.hold.map(|h| (now, h.min(YOUNG_IDLE)));
            let (v, aged) = match Self::victim(&t, mine + 1, key, young) {
                Some(v) => (v, false),
                None => match self.aged_victim(&t, key, now) {
                    Some(v) => (v, true),
                    None => return Admission::ServerFull,
                },
            };
            let e = t.conns.remove(&v).expect("a victim is a live connection");
            Self::release(&mut t.by_addr, e.key);
            // an address swapping its own old connection for a new one loses nothing
            if aged && e.key != key {
                if t.aged_out.len() >= MAX_TRACKED {
                    t.aged_out
                        .retain(|_, &mut at| now.duration_since(at) < REEVICT_AFTER);
                    if t.aged_out.len() >= MAX_TRACKED {
                        if let Some(k) = t.aged_out.iter().min_by_key(|x| *x.1).map(|x| *x.0) {
                            t.aged_out.remove(&k);
                        }
                    }
                }
                t.aged_out.insert(e.key, now);
            }
            victim_kick = e.kick;
        }
        let id = t.next;
        t.next += 1;
        *t.by_addr.entry(key).or_insert(0) += 1;
        t.conns.insert(
            id,
            Entry {
                key,
                since: Instant::now(),
                busy,
                kick: Some(kick),
            },
        );
        drop(t);
        let evicted = victim_kick.is_some();
        if let Some(k) = victim_kick {
            k();
        }
        Admission::Admitted {
            ticket: Ticket {
                table: Arc::clone(self),
                id,
            },
            evicted,
        }
    }

    /// The connection to close for a newcomer whose address would hold `newcomer`.
    ///
    /// With `young` = `(now, window)` (a table with a hold; the window is [`YOUNG_IDLE`]), an
    /// idle connection of another address holding only as many as the newcomer's would is
    /// spared while younger than the window (one of the newcomer's own stays a fair swap):
    /// an honest client's connection between its connect and its first message is not
    /// closed for an evicted client reconnecting from another address (rule 3 takes idle
    /// ones too, once past the hold).
    fn victim(
        t: &TableInner,
        newcomer: usize,
        key: IpAddr,
        young: Option<(Instant, Duration)>,
    ) -> Option<u64> {
        // the newcomer's own connections count as its address would hold with it: an idle
        // one of its own is a fair swap (the address holds no more than before)
        let count =
            |e: &Entry| t.by_addr.get(&e.key).copied().unwrap_or(0) + (e.key == key) as usize;
        let mut idle: Option<(usize, Instant, u64)> = None;
        let mut busy: Option<(usize, Instant, u64)> = None;
        for (&id, e) in &t.conns {
            let c = (count(e), e.since, id);
            let is_busy = (e.busy)();
            if !is_busy
                && e.key != key
                && c.0 <= newcomer
                && young.is_some_and(|(now, hold)| now.duration_since(e.since) < hold)
            {
                continue;
            }
            let slot = if is_busy { &mut busy } else { &mut idle };
            // most held first, then the oldest
            if slot.is_none_or(|b| (c.0, std::cmp::Reverse(c.1)) > (b.0, std::cmp::Reverse(b.1))) {
                *slot = Some(c);
            }
        }
        match (idle, busy) {
            (Some(i), _) if i.0 >= newcomer => Some(i.2),
            (_, Some(b)) if b.0 > newcomer => Some(b.2),
            _ => None,
        }
    }

    /// Rule 3: the connection that has held its place longest, if for at least the hold,
    /// and if the newcomer's address did not lose one to this rule lately.
    fn aged_victim(&self, t: &TableInner, key: IpAddr, now: Instant) -> Option<u64> {
        let hold = self.hold?;
        if t.aged_out
            .get(&key)
            .is_some_and(|&at| now.duration_since(at) < REEVICT_AFTER)
        {
            return None;
        }
        t.conns
            .iter()
            .filter(|(_, e)| now.duration_since(e.since) >= hold)
            .min_by_key(|(&id, e)| (e.since, id))
            .map(|(&id, _)| id)
    }

    fn release(by_addr: &mut HashMap<IpAddr, usize>, key: IpAddr) {
        if let Some(n) = by_addr.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                by_addr.remove(&key);
            }
        }
    }

    /// Connections held now.
    pub fn len(&self) -> usize {
        lock(&self.inner).conns.len()
    }

    /// Whether no connection is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Connections `ip`'s address holds now.
    pub fn held(&self, ip: IpAddr) -> usize {
        lock(&self.inner)
            .by_addr
            .get(&addr_key(ip))
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut t = lock(&self.table.inner);
        // a connection closed to make room was removed then
        if let Some(e) = t.conns.remove(&self.id) {
            ConnTable::release(&mut t.by_addr, e.key);
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
    use std::sync::atomic::{AtomicBool, Ordering};

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
        let mut rng = zkgames_core::rng::seeded_rng(21);
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

    fn probe(b: &Arc<AtomicBool>) -> BusyProbe {
        let b = Arc::clone(b);
        Box::new(move || b.load(Ordering::SeqCst))
    }

    fn kicker(k: &Arc<AtomicBool>) -> Kick {
        let k = Arc::clone(k);
        Box::new(move || k.store(true, Ordering::SeqCst))
    }

    /// The attacks as tables: busy connections from a few addresses yield to a
    /// newcomer; as many addresses as places, one busy connection each, do not.
    #[test]
    fn a_full_table_makes_room_at_the_expense_of_the_biggest_holders() {
        let busy = Arc::new(AtomicBool::new(true));
        let t = ConnTable::new(32, 8);
        let mut held = Vec::new();
        let mut kicks = Vec::new();
        for a in 0..4u8 {
            for _ in 0..8 {
                let k = Arc::new(AtomicBool::new(false));
                match t.admit(IpAddr::from([127, 0, 1, a]), probe(&busy), kicker(&k)) {
                    Admission::Admitted { ticket, evicted } => {
                        assert!(!evicted);
                        held.push(ticket);
                    }
                    _ => panic!("room left"),
                }
                kicks.push(k);
            }
        }
        assert_eq!(t.len(), 32);
        // a fifth attacker address is let in, each newcomer at the cost of an 8-holder
        let fresh = ip("127.0.0.9");
        let Admission::Admitted { ticket, evicted } = t.admit(fresh, probe(&busy), Box::new(|| {}))
        else {
            panic!("a newcomer holding nothing must be admitted");
        };
        assert!(evicted);
        assert_eq!(kicks.iter().filter(|k| k.load(Ordering::SeqCst)).count(), 1);
        assert_eq!(t.len(), 32);
        // the victims' tickets give nothing back twice
        drop(held);
        assert_eq!(t.len(), 1);
        assert_eq!(t.held(fresh), 1);
        drop(ticket);
        assert!(t.is_empty());

        // 32 addresses holding one busy connection each: the table is fairly shared
        let t = ConnTable::new(32, 8);
        let held: Vec<Ticket> = (0..32u8)
            .map(
                |a| match t.admit(IpAddr::from([127, 0, 2, a]), probe(&busy), Box::new(|| {})) {
                    Admission::Admitted { ticket, .. } => ticket,
                    _ => panic!(),
                },
            )
            .collect();
        assert!(matches!(
            t.admit(ip("127.0.0.9"), probe(&busy), Box::new(|| {})),
            Admission::ServerFull
        ));
        // but an idle one makes room whoever holds it
        let idle = Arc::new(AtomicBool::new(false));
        let t2 = ConnTable::new(1, 8);
        let _a = t2.admit(ip("127.0.0.3"), probe(&idle), Box::new(|| {}));
        assert!(matches!(
            t2.admit(ip("127.0.0.4"), probe(&busy), Box::new(|| {})),
            Admission::Admitted { evicted: true, .. }
        ));
        drop(held);
        // the per-address limit
        let t = ConnTable::new(32, 2);
        let _x = [0, 1].map(|_| t.admit(ip("::1"), probe(&busy), Box::new(|| {})));
        assert!(matches!(
            t.admit(ip("::1"), probe(&busy), Box::new(|| {})),
            Admission::AddressFull
        ));
    }

    /// Random admissions, departures and busy flags, against the rule's properties: counts
    /// stay exact, the table never overflows, a refusal happens only when every connection
    /// is busy and no address holds more than the newcomer's would, and a busy connection is
    /// closed only for a newcomer whose address holds less.
    #[test]
    fn conn_table_keeps_its_rule_under_random_traffic() {
        use rand_core::RngCore;
        let mut rng = zkgames_core::rng::seeded_rng(41);
        for round in 0..40 {
            let (max, per) = (1 + round % 9, 1 + (round / 9) % 4);
            let t = ConnTable::new(max, per);
            let mut live: Vec<(Ticket, IpAddr, Arc<AtomicBool>, Arc<AtomicBool>)> = Vec::new();
            for _ in 0..400 {
                let r = rng.next_u32();
                if r.is_multiple_of(3) && !live.is_empty() {
                    let i = (r as usize / 3) % live.len();
                    live.swap_remove(i);
                } else if r % 3 == 1 && !live.is_empty() {
                    let i = (r as usize / 3) % live.len();
                    let b = &live[i].2;
                    b.store(!b.load(Ordering::SeqCst), Ordering::SeqCst);
                } else {
                    live.retain(|x| !x.3.load(Ordering::SeqCst));
                    let a = IpAddr::from([127, 0, 0, (r >> 8) as u8 % 6]);
                    let mine = live.iter().filter(|x| x.1 == a).count();
                    let most = (0..6u8)
                        .map(|b| {
                            live.iter()
                                .filter(|x| x.1 == IpAddr::from([127, 0, 0, b]))
                                .count()
                        })
                        .max()
                        .unwrap();
                    let all_busy = live.iter().all(|x| x.2.load(Ordering::SeqCst));
                    let before: Vec<(IpAddr, bool)> = live
                        .iter()
                        .map(|x| (x.1, x.2.load(Ordering::SeqCst)))
                        .collect();
                    let (b, k) = (
                        Arc::new(AtomicBool::new(r & 1 == 1)),
                        Arc::new(AtomicBool::new(false)),
                    );
                    match t.admit(a, probe(&b), kicker(&k)) {
                        Admission::AddressFull => assert_eq!(mine, per),
                        Admission::ServerFull => {
                            assert!(mine < per && live.len() == max);
                            for x in &before {
                                // the newcomer's own address counts as it would hold
                                let c = before.iter().filter(|y| y.0 == x.0).count()
                                    + (x.0 == a) as usize;
                                // no idle one of an address holding as much, no busy one
                                // of an address holding more, than the newcomer's would
                                assert!(if x.1 { c <= mine + 1 } else { c < mine + 1 });
                            }
                            let _ = (most, all_busy);
                        }
                        Admission::Admitted { ticket, evicted } => {
                            assert!(mine < per);
                            assert_eq!(evicted, live.len() == max);
                            if evicted {
                                let gone: Vec<_> = live
                                    .iter()
                                    .zip(&before)
                                    .filter(|(x, _)| x.3.load(Ordering::SeqCst))
                                    .map(|(_, b)| *b)
                                    .collect();
                                assert_eq!(gone.len(), 1);
                                let (va, vbusy) = gone[0];
                                let vcount = before.iter().filter(|x| x.0 == va).count()
                                    + (va == a) as usize;
                                assert!(if vbusy {
                                    vcount > mine + 1
                                } else {
                                    vcount > mine
                                });
                                // a busy one only when no idle one could go
                                if vbusy {
                                    for x in before.iter().filter(|x| !x.1) {
                                        let c = before.iter().filter(|y| y.0 == x.0).count()
                                            + (x.0 == a) as usize;
                                        assert!(c <= mine, "{c} {mine}");
                                    }
                                }
                            }
                            live.push((ticket, a, b, k));
                        }
                    }
                }
                live.retain(|x| !x.3.load(Ordering::SeqCst));
                assert_eq!(t.len(), live.len());
                assert!(t.len() <= max);
                for b in 0..6u8 {
                    let a = IpAddr::from([127, 0, 0, b]);
                    assert_eq!(t.held(a), live.iter().filter(|x| x.1 == a).count());
                }
            }
        }
    }

    /// Rule 3: as many addresses as places, one busy connection each, keep a newcomer out
    /// only while none has held its place for the hold; then the oldest yields, and the
    /// address it came from cannot evict by age in turn (no cascade), though an address
    /// that never lost a place can.
    #[test]
    fn places_held_past_the_hold_yield_to_newcomers_oldest_first() {
        let busy = Arc::new(AtomicBool::new(true));
        let admit = |t: &Arc<ConnTable>, a: IpAddr, k: &Arc<AtomicBool>| {
            t.admit(a, probe(&busy), kicker(k))
        };
        // a hold nobody reaches: as before
        let t = ConnTable::with_hold(4, 8, Duration::from_secs(3600));
        let k0 = Arc::new(AtomicBool::new(false));
        let _held: Vec<_> = (0..4u8)
            .map(|a| admit(&t, IpAddr::from([127, 0, 3, a]), &k0))
            .collect();
        assert!(matches!(
            admit(&t, ip("127.0.0.9"), &k0),
            Admission::ServerFull
        ));
        assert!(!k0.load(Ordering::SeqCst));
        // a zero hold: every place is evictable, the oldest first
        let t = ConnTable::with_hold(4, 8, Duration::ZERO);
        let kicks: Vec<Arc<AtomicBool>> =
            (0..4).map(|_| Arc::new(AtomicBool::new(false))).collect();
        let held: Vec<_> = (0..4u8)
            .map(|a| admit(&t, IpAddr::from([127, 0, 4, a]), &kicks[a as usize]))
            .collect();
        // the newcomers keep their places (a dropped admission gives its place back)
        let mut newcomers = Vec::new();
        for (i, fresh) in ["127.0.0.20", "127.0.0.21"].iter().enumerate() {
            let k = Arc::new(AtomicBool::new(false));
            let r = admit(&t, ip(fresh), &k);
            assert!(
                matches!(r, Admission::Admitted { evicted: true, .. }),
                "newcomer {i}: {}",
                match &r {
                    Admission::Admitted { .. } => "admitted without eviction",
                    Admission::ServerFull => "server full",
                    Admission::AddressFull => "address full",
                }
            );
            newcomers.push(r);
            let gone: Vec<usize> = (0..4)
                .filter(|&j| kicks[j].load(Ordering::SeqCst))
                .collect();
            assert_eq!(gone, (0..=i).collect::<Vec<_>>(), "oldest first");
        }
        assert_eq!(t.len(), 4);
        // the first evicted address reconnects: it may not evict by age in turn
        let k = Arc::new(AtomicBool::new(false));
        assert!(matches!(
            admit(&t, IpAddr::from([127, 0, 4, 0]), &k),
            Admission::ServerFull
        ));
        assert!(!kicks[2].load(Ordering::SeqCst));
        // an address swapping its own old place is not marked
        let t = ConnTable::with_hold(1, 8, Duration::ZERO);
        let k = Arc::new(AtomicBool::new(false));
        let _a = admit(&t, ip("127.0.0.5"), &k);
        let _b = admit(&t, ip("127.0.0.5"), &k);
        assert!(k.load(Ordering::SeqCst));
        let _c = admit(&t, ip("127.0.0.6"), &k);
        assert!(matches!(
            admit(&t, ip("127.0.0.5"), &Arc::new(AtomicBool::new(false))),
            Admission::ServerFull
        ));
        assert!(matches!(
            admit(&t, ip("127.0.0.7"), &Arc::new(AtomicBool::new(false))),
            Admission::Admitted { evicted: true, .. }
        ));
        drop(held);
    }
}
