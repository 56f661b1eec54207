//! A live Boggle round: `verifier boggle serve` (the referee) and `prover boggle play` (a
//! player).
//!
//! The referee announces the grid, its dictionary's digest, the level it requires and a fresh
//! round nonce. Each player seals every word as it finds it, under the context
//! [`boggle::round_context`]`(round, name)`, and sends the sealed find: the referee verifies it
//! on arrival (refusing a find for another grid, dictionary, round or player, and a find it
//! has seen before) and keeps its digest and head only. Nobody sees a word while the round
//! runs, not even the referee. When the time is up, or once every seat has finished, the
//! referee closes the round; each player sends the openings of its accepted finds, each is
//! checked against its find, and every player gets the scoreboard (Boggle's points; a word
//! two players opened scores for nobody). A player refused at any step is out of the round
//! (its finds do not count) and the round goes on for the others.
//!
//! Messages (framed by [`crate::net::Channel`], every read with a deadline):
//!
//! ```text
//! player                                   referee
//! Hello{version 1, name}             ->
//!                                    <-    Round{grid, dictionary, round, seconds, ...}
//! Find{file}                         ->                       (as many as found, ≤ MAX_FINDS)
//!                                    <-    Accepted{find, dice, finds} | Refused | Closed
//! Done                               ->
//!                                    <-    Closed{finds}
//! Openings{one per accepted find}    ->
//!                                    <-    Scoreboard{players} | Refused{reason}
//! ```
//!
//! `Busy{reason, retry_after}` may come instead of `Round` (the server or the round is full).

use std::collections::HashSet;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use clap::Args;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::cli::boggle::{read_dictionary, word_arg, BoardArgs, MAX_FILE};
use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, JsonArg};
use crate::cli::{ConnLimitArgs, DeadlineArgs, SecurityArg};
use crate::commit::Digest;
use crate::mpc::engine::Required;
use crate::net::server;
use crate::net::Channel;
use crate::words::boggle::{self, Dictionary, FindHead, Grid, Opening, ROUND_BYTES};
use crate::words::dict::{self, Letters};
use crate::{Error, Result};

/// The live round's version.
pub const VERSION: u16 = 1;
/// Finds one player may send in a round.
pub const MAX_FINDS: usize = 256;
/// Connections served beyond the seats: room for refusals while the round is full.
const SPARE_CONNECTIONS: u32 = 4;

/// What a player sends.
#[derive(Serialize, Deserialize, Debug)]
pub enum PlayerMsg {
    /// The first message: the version ([`VERSION`]) and the name on the scoreboard
    /// ([`boggle::valid_name`]).
    Hello { version: u16, name: String },
    /// A sealed find (the file `prover boggle seal` writes), made under the round's context.
    Find {
        #[serde(with = "crate::proof_file::bytes")]
        file: Vec<u8>,
    },
    /// No more finds.
    Done,
    /// After `Closed`: the openings of the accepted finds, in the order they were accepted.
    Openings { openings: Vec<Vec<u8>> },
}

/// What the referee sends.
#[derive(Serialize, Deserialize, Debug)]
pub enum RefereeMsg {
    /// The round: grid (rows separated by `/`), the dictionary's digest and size, the
    /// round's nonce, the seconds left, the level finds must have, the seats.
    Round {
        grid: String,
        dictionary: Digest,
        words: u32,
        round: [u8; ROUND_BYTES],
        seconds: u32,
        security: u32,
        players: u32,
    },
    /// A find verified and kept: its digest, its length in dice, the player's count so far.
    Accepted { find: Digest, dice: u8, finds: u32 },
    /// The round is over: open your `finds` accepted finds now.
    Closed { finds: u32 },
    /// The result, every player (the ones that were refused included, with the reason).
    Scoreboard { players: Vec<Row> },
    /// The player is out of the round (or was never let in).
    Refused { reason: String },
    /// No room now: try again in `retry_after` seconds.
    Busy { reason: String, retry_after: u32 },
}

/// One player's line of the scoreboard.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    pub points: u32,
    /// Its distinct words, sorted: (word, points, found by another player too).
    pub words: Vec<(String, u32, bool)>,
    /// Why the player is out of the round (then its words are not counted), if it is.
    pub out: Option<String>,
}

/// `verifier boggle serve`.
#[derive(Args, Debug)]
pub struct RefereeArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Address to listen on (e.g. 127.0.0.1:7070; port 0 picks a free port).
    #[arg(long, value_name = "ADDR")]
    listen: String,
    /// Seconds the round runs, from the start; players may join until it ends.
    #[arg(long, value_name = "SECS", default_value_t = 180, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seconds: u64,
    /// Seats in the round; the round ends early once every seat has finished.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    players: u32,
    #[command(flatten)]
    security: SecurityArg,
    #[command(flatten)]
    deadlines: DeadlineArgs,
    #[command(flatten)]
    limits: ConnLimitArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// `prover boggle play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The referee's address HOST:PORT.
    addr: String,
    /// Your name on the scoreboard (1 to 32 of A-Z a-z 0-9 _ . -).
    #[arg(long)]
    name: String,
    /// A word found (repeat for several: sealed and sent in order); without any, words are
    /// read from stdin, one a line, until the round ends.
    #[arg(long = "word", value_name = "WORD")]
    words: Vec<String>,
    /// The dictionary (one word a line, letters a-z; default: the shipped list): the
    /// referee's, or the round is refused.
    #[arg(long, value_name = "FILE")]
    dict: Option<String>,
    #[command(flatten)]
    sys: SystemArgs,
    #[command(flatten)]
    deadlines: DeadlineArgs,
    #[command(flatten)]
    out: JsonArg,
}

// ------------------------------------------------------------------------------- referee

enum Seat {
    Playing,
    Done,
    Opened(Vec<Letters>),
    Out(String),
}

struct Player {
    name: String,
    finds: Vec<(Digest, FindHead)>,
    seat: Seat,
}

#[derive(Default)]
struct RoundState {
    players: Vec<Player>,
    closed: bool,
    scoreboard: Option<Vec<Row>>,
}

struct Referee {
    grid: Grid,
    dict: Dictionary,
    round: [u8; ROUND_BYTES],
    security: u32,
    seats: usize,
    end: Instant,
    message: Duration,
    state: Mutex<RoundState>,
    changed: Condvar,
}

impl Referee {
    fn lock(&self) -> MutexGuard<'_, RoundState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a change (or a short while: the watcher also wakes everyone).
    fn wait<'a>(&self, g: MutexGuard<'a, RoundState>) -> MutexGuard<'a, RoundState> {
        self.changed
            .wait_timeout(g, Duration::from_millis(200))
            .unwrap_or_else(|p| p.into_inner())
            .0
    }

    /// Whether the round should close now: time is up, or every seat has finished.
    fn over(&self, r: &RoundState) -> bool {
        let done = r
            .players
            .iter()
            .filter(|p| matches!(p.seat, Seat::Done))
            .count();
        let playing = r.players.iter().any(|p| matches!(p.seat, Seat::Playing));
        r.closed || Instant::now() >= self.end || (done >= self.seats && !playing)
    }

    fn seated(r: &RoundState) -> usize {
        r.players
            .iter()
            .filter(|p| !matches!(p.seat, Seat::Out(_)))
            .count()
    }

    /// Marks player `i` out (unless it has opened its finds already) and wakes everyone.
    fn out(&self, i: usize, why: &str) {
        let mut r = self.lock();
        if !matches!(r.players[i].seat, Seat::Opened(_) | Seat::Out(_)) {
            r.players[i].seat = Seat::Out(why.to_string());
        }
        drop(r);
        self.changed.notify_all();
    }
}

/// Runs `verifier boggle serve`.
pub fn serve(a: RefereeArgs) -> Result<()> {
    let json = a.out.enable();
    let grid = a.board.grid()?;
    let dict = a.board.dictionary()?;
    crate::cli::check_host_port(&a.listen)?;
    let l = std::net::TcpListener::bind(&a.listen)
        .map_err(|e| Error::io(format!("cannot listen on {}", a.listen), e))?;
    let local = l
        .local_addr()
        .map_err(|e| Error::io("cannot read the listening address", e))?;
    let mut round = [0u8; ROUND_BYTES];
    rand_core::RngCore::fill_bytes(&mut crate::rng::os_rng(), &mut round);
    let round_len = Duration::from_secs(a.seconds);
    let message = a.deadlines.deadlines().message;
    let referee = Referee {
        grid,
        dict,
        round,
        security: a.security.security,
        seats: a.players as usize,
        end: Instant::now() + round_len,
        message,
        state: Mutex::new(RoundState::default()),
        changed: Condvar::new(),
    };
    let mut opts = a.limits.server_options(
        a.players + SPARE_CONNECTIONS,
        &a.deadlines,
        server::LogFormat::Plain,
    );
    // a seated player holds its connection for the whole round: never evicted for a newcomer
    opts.hold = opts.hold.max(round_len + 4 * message);
    opts.deadlines.session = opts.deadlines.session.max(round_len + 4 * message);
    opts.refuse = refuse_busy;
    server::install_stop_signals();
    eprintln!(
        "listening on {local} for one Boggle round on {} ({} s, {}, {} dictionary words; Ctrl-C stops)",
        referee.grid.text(),
        a.seconds,
        crate::files::count(a.players as u64, "seat"),
        referee.dict.list().len()
    );
    let stats = std::thread::scope(|sc| {
        sc.spawn(|| watch(&referee));
        server::serve(&l, &opts, &server::STOP, |ch, _| {
            referee_session(&referee, ch)
        })
    })?;
    let board = referee.lock().scoreboard.take().unwrap_or_default();
    eprintln!(
        "round over: {} joined, {} scored, {} refused; {} turned away",
        stats.accepted + stats.rejected + stats.failed,
        stats.accepted,
        stats.rejected + stats.failed,
        stats.busy
    );
    print_board(&board, &referee.grid, None, json);
    Ok(())
}

/// Closes the round when it is over, then makes the scoreboard once every player has opened
/// its finds or is out (or a backstop deadline passed), and stops the server.
fn watch(referee: &Referee) {
    let mut r = referee.lock();
    let mut closed_at = None;
    loop {
        // Ctrl-C or SIGTERM: the round ends now, scored with the openings already in
        let stopped = server::STOP.load(std::sync::atomic::Ordering::SeqCst);
        if closed_at.is_none() && (stopped || referee.over(&r)) {
            r.closed = true;
            closed_at = Some(Instant::now());
            referee.changed.notify_all();
        }
        if let Some(at) = closed_at {
            let finished = r
                .players
                .iter()
                .all(|p| matches!(p.seat, Seat::Opened(_) | Seat::Out(_)));
            // a player's own reads end by their deadlines; this only bounds the wait
            if finished || stopped || at.elapsed() > 4 * referee.message {
                for p in &mut r.players {
                    if !matches!(p.seat, Seat::Opened(_) | Seat::Out(_)) {
                        p.seat = Seat::Out("did not open its finds in time".into());
                    }
                }
                r.scoreboard = Some(scoreboard(&r.players));
                referee.changed.notify_all();
                server::STOP.store(true, std::sync::atomic::Ordering::SeqCst);
                return;
            }
        }
        r = referee.wait(r);
    }
}

fn scoreboard(players: &[Player]) -> Vec<Row> {
    let opened: Vec<Vec<Letters>> = players
        .iter()
        .filter_map(|p| match &p.seat {
            Seat::Opened(w) => Some(w.clone()),
            _ => None,
        })
        .collect();
    let mut scored = boggle::score(&opened).into_iter();
    let mut rows: Vec<Row> = players
        .iter()
        .map(|p| match &p.seat {
            Seat::Opened(_) => {
                let (words, points) = scored.next().expect("one score per opened player");
                Row {
                    name: p.name.clone(),
                    points,
                    words: words
                        .into_iter()
                        .map(|s| (dict::word_of(&s.word), s.points, s.shared))
                        .collect(),
                    out: None,
                }
            }
            Seat::Out(why) => Row {
                name: p.name.clone(),
                points: 0,
                words: Vec::new(),
                out: Some(why.clone()),
            },
            _ => unreachable!("every player has opened or is out"),
        })
        .collect();
    rows.sort_by(|a, b| {
        (a.out.is_some(), std::cmp::Reverse(a.points), &a.name).cmp(&(
            b.out.is_some(),
            std::cmp::Reverse(b.points),
            &b.name,
        ))
    });
    rows
}

/// [`server::Refuse`] for the round: a `Busy` the player reports as "try again later".
fn refuse_busy(ch: &mut Channel, reason: &str, retry_after: u32) {
    let _ = ch.send(&RefereeMsg::Busy {
        reason: reason.to_string(),
        retry_after,
    });
}

/// Tells the player why it is refused; the error the session ends with.
fn refuse(ch: &mut Channel, reason: String) -> Error {
    let _ = ch.send(&RefereeMsg::Refused {
        reason: reason.clone(),
    });
    Error::rejected(reason)
}

/// One player's connection, referee side.
fn referee_session(referee: &Referee, ch: &mut Channel) -> Result<String> {
    let name = match ch.recv::<PlayerMsg>("player's hello")? {
        PlayerMsg::Hello {
            version: VERSION,
            name,
        } if boggle::valid_name(&name) => name,
        PlayerMsg::Hello {
            version: VERSION, ..
        } => {
            return Err(refuse(
                ch,
                "a player's name is 1 to 32 of A-Z a-z 0-9 _ . -".into(),
            ))
        }
        PlayerMsg::Hello { version, .. } => {
            return Err(refuse(
                ch,
                format!(
                    "live round version {version} is not served (this referee speaks {VERSION})"
                ),
            ))
        }
        _ => return Err(refuse(ch, "the player did not start with a hello".into())),
    };
    let i = {
        let mut r = referee.lock();
        if referee.over(&r) {
            drop(r);
            return Err(refuse(ch, "the round has closed".into()));
        }
        if r.players.iter().any(|p| p.name == name) {
            drop(r);
            return Err(refuse(
                ch,
                format!("the name {name} is taken in this round"),
            ));
        }
        if Referee::seated(&r) >= referee.seats {
            drop(r);
            let left = referee.end.saturating_duration_since(Instant::now());
            refuse_busy(
                ch,
                &format!(
                    "server busy: the round has its {}",
                    crate::files::count(referee.seats as u64, "player")
                ),
                left.as_secs() as u32 + 1,
            );
            return Err(Error::try_later("the round is full", None));
        }
        r.players.push(Player {
            name: name.clone(),
            finds: Vec::new(),
            seat: Seat::Playing,
        });
        r.players.len() - 1
    };
    let r = play_seat(referee, ch, i, &name);
    if let Err(e) = &r {
        referee.out(i, &e.to_string());
    }
    r
}

fn play_seat(referee: &Referee, ch: &mut Channel, i: usize, name: &str) -> Result<String> {
    let left = referee.end.saturating_duration_since(Instant::now());
    ch.send(&RefereeMsg::Round {
        grid: referee.grid.text(),
        dictionary: referee.dict.digest(),
        words: referee.dict.list().len() as u32,
        round: referee.round,
        seconds: left.as_secs() as u32,
        security: referee.security,
        players: referee.seats as u32,
    })?;
    ch.set_max_frame(MAX_FILE as usize);
    let ctx = boggle::round_context(&referee.round, name);
    let req = Required::bits(referee.security);
    // the round: finds until Done, or until the time is up
    loop {
        let left = referee.end.saturating_duration_since(Instant::now());
        // a thinking player may stay silent until the end; a find under way gets a message's time
        ch.set_message_deadline(left + referee.message);
        let file = match ch.recv::<PlayerMsg>("player's find")? {
            PlayerMsg::Done => {
                referee.lock().players[i].seat = Seat::Done;
                referee.changed.notify_all();
                break;
            }
            PlayerMsg::Find { file } => file,
            _ => return Err(refuse(ch, "a player's message out of turn".into())),
        };
        if referee.over(&referee.lock()) {
            // too late: not kept, and the player learns that the round is over
            referee.lock().players[i].seat = Seat::Done;
            referee.changed.notify_all();
            break;
        }
        let digest = boggle::find_digest(&file);
        {
            let r = referee.lock();
            if r.players[i].finds.len() >= MAX_FINDS {
                drop(r);
                return Err(refuse(
                    ch,
                    format!("a player may send at most {MAX_FINDS} finds"),
                ));
            }
            if r.players[i].finds.iter().any(|f| f.0 == digest) {
                drop(r);
                return Err(refuse(
                    ch,
                    "a duplicate find: this find was sent before".into(),
                ));
            }
            if let Some(p) = r
                .players
                .iter()
                .find(|p| p.finds.iter().any(|f| f.0 == digest))
            {
                let who = p.name.clone();
                drop(r);
                return Err(refuse(ch, format!("a replayed find: {who} sent this find")));
            }
        }
        let head = match boggle::verify(&referee.grid, &referee.dict, &file, &req, &ctx) {
            Ok((head, _)) => head,
            Err(e) => {
                return Err(refuse(
                    ch,
                    format!("find refused (made for another round, player, grid or dictionary, or not a find): {e}"),
                ))
            }
        };
        let (dice, n) = {
            let mut r = referee.lock();
            let p = &mut r.players[i];
            p.finds.push((digest, head.clone()));
            (head.dice, p.finds.len())
        };
        ch.send(&RefereeMsg::Accepted {
            find: digest,
            dice,
            finds: n as u32,
        })?;
    }
    // the round is closing: wait for the others, then collect the openings
    {
        let mut r = referee.lock();
        while !r.closed {
            r = referee.wait(r);
        }
    }
    let finds: Vec<(Digest, FindHead)> = referee.lock().players[i].finds.clone();
    ch.send(&RefereeMsg::Closed {
        finds: finds.len() as u32,
    })?;
    ch.set_message_deadline(referee.message);
    ch.set_max_frame((MAX_FINDS + 1) * 1024);
    let openings = match ch.recv::<PlayerMsg>("player's openings")? {
        PlayerMsg::Openings { openings } => openings,
        _ => return Err(refuse(ch, "the player did not send its openings".into())),
    };
    if openings.len() != finds.len() {
        return Err(refuse(
            ch,
            format!(
                "{} for {}",
                crate::files::count(openings.len() as u64, "opening"),
                crate::files::count(finds.len() as u64, "find")
            ),
        ));
    }
    let mut words = Vec::with_capacity(finds.len());
    for (k, (ob, (digest, head))) in openings.iter().zip(&finds).enumerate() {
        let w = Opening::from_bytes(ob)
            .and_then(|op| boggle::open_digest(&referee.grid, &referee.dict, digest, head, &op));
        match w {
            Ok(w) => words.push(w),
            Err(e) => {
                return Err(refuse(
                    ch,
                    format!("opening {} of {}: {e}", k + 1, finds.len()),
                ))
            }
        }
    }
    let opened = words.len();
    {
        let mut r = referee.lock();
        r.players[i].seat = Seat::Opened(words);
    }
    referee.changed.notify_all();
    let board = {
        let mut r = referee.lock();
        loop {
            if let Some(b) = &r.scoreboard {
                break b.clone();
            }
            r = referee.wait(r);
        }
    };
    let points = board
        .iter()
        .find(|row| row.name == name)
        .map_or(0, |row| row.points);
    ch.send(&RefereeMsg::Scoreboard { players: board })?;
    Ok(format!(
        "{name}: {} opened, {}",
        crate::files::count(opened as u64, "find"),
        crate::files::count(u64::from(points), "point")
    ))
}

// -------------------------------------------------------------------------------- player

/// Where a player's words come from: the command line, or the terminal with the round's clock.
enum Words {
    Listed(std::vec::IntoIter<String>),
    Typed(std::sync::mpsc::Receiver<String>),
}

impl Words {
    fn new(listed: Vec<String>) -> Self {
        if !listed.is_empty() {
            return Words::Listed(listed.into_iter());
        }
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::stdin().lock().lines().map_while(|l| l.ok()) {
                if tx.send(line.trim().to_string()).is_err() {
                    break;
                }
            }
        });
        Words::Typed(rx)
    }

    /// The next word, or `None` when there are no more or the round's time is up.
    fn next(&mut self, end: Instant) -> Option<String> {
        match self {
            Words::Listed(it) => it.next(),
            Words::Typed(rx) => {
                use std::io::Write;
                eprint!(
                    "word ({} s left): ",
                    end.saturating_duration_since(Instant::now()).as_secs()
                );
                let _ = std::io::stderr().flush();
                rx.recv_timeout(end.saturating_duration_since(Instant::now()))
                    .ok()
            }
        }
    }

    fn typed(&self) -> bool {
        matches!(self, Words::Typed(_))
    }
}

/// A reply the player did not expect, as its error.
fn unexpected(m: RefereeMsg, waiting: &str) -> Error {
    match m {
        RefereeMsg::Refused { reason } => Error::rejected(format!(
            "the referee refused: {}",
            crate::files::untrusted::shown(&reason)
        )),
        RefereeMsg::Busy {
            reason,
            retry_after,
        } => Error::try_later(
            crate::files::untrusted::shown(&reason),
            Some(Duration::from_secs(u64::from(retry_after).min(86_400))),
        ),
        _ => Error::bad(format!("the referee sent something else than {waiting}")),
    }
}

/// Runs `prover boggle play`.
pub fn play(a: PlayArgs) -> Result<()> {
    let json = a.out.enable();
    if !boggle::valid_name(&a.name) {
        return Err(Error::bad(format!(
            "--name {}: give 1 to 32 of A-Z a-z 0-9 _ . -",
            crate::files::quote(&crate::files::excerpt(&a.name))
        )));
    }
    let d = read_dictionary(&a.dict)?;
    let mut ch = crate::cli::connect(&a.addr, &a.deadlines, "verifier boggle serve")?;
    ch.send(&PlayerMsg::Hello {
        version: VERSION,
        name: a.name.clone(),
    })?;
    let (grid, round, seconds, security) = match ch.recv::<RefereeMsg>("referee's round")? {
        RefereeMsg::Round {
            grid,
            dictionary,
            words,
            round,
            seconds,
            security,
            ..
        } => {
            if dictionary != d.digest() {
                return Err(Error::bad(format!(
                    "the referee plays another dictionary ({words} words, digest {}): give its list with --dict",
                    hex::encode(dictionary)
                )));
            }
            if !(1..=256).contains(&security) {
                return Err(Error::bad(format!(
                    "the referee asks for {security}-bit finds; this player makes 1 to 256"
                )));
            }
            let g = Grid::parse(&grid, "the referee's grid")?;
            (g, round, seconds, security)
        }
        m => return Err(unexpected(m, "the round")),
    };
    let end = Instant::now() + Duration::from_secs(u64::from(seconds));
    let system = a.sys.system(security)?;
    let ctx = boggle::round_context(&round, &a.name);
    eprintln!(
        "round on {} ({seconds} s left, {} dictionary words): each word is sealed and sent as you find it",
        grid.text(),
        d.list().len()
    );
    let message = a.deadlines.deadlines().message;
    let mut words = Words::new(a.words);
    let mut openings: Vec<Opening> = Vec::new();
    let mut sealed: HashSet<Letters> = HashSet::new();
    let mut closed = None;
    while let Some(text) = words.next(end) {
        if text.is_empty() {
            continue;
        }
        let w = match word_arg(&text) {
            Ok(w) => w,
            Err(e) if words.typed() => {
                eprintln!("{e}");
                continue;
            }
            Err(e) => return Err(e),
        };
        if !sealed.insert(w.clone()) {
            eprintln!("{} is sealed already", dict::word_of(&w));
            continue;
        }
        if Instant::now() >= end {
            eprintln!("time is up: {} was not sent", dict::word_of(&w));
            break;
        }
        let s = match boggle::seal(&grid, &d, &w, &system, &ctx, &mut crate::rng::os_rng()) {
            Ok(s) => s,
            Err(e) if words.typed() => {
                eprintln!("{e}");
                sealed.remove(&w);
                continue;
            }
            Err(e) => return Err(e),
        };
        ch.send(&PlayerMsg::Find {
            file: s.file.clone(),
        })?;
        match ch.recv::<RefereeMsg>("referee's answer to a find")? {
            RefereeMsg::Accepted { find, dice, finds } if find == s.opening.find => {
                eprintln!(
                    "sealed a word of {dice} dice: find {finds} accepted ({})",
                    hex::encode(&find[..8])
                );
                openings.push(s.opening);
            }
            RefereeMsg::Accepted { .. } => {
                return Err(Error::rejected(
                    "the referee acknowledged another find than the one sent",
                ))
            }
            RefereeMsg::Closed { finds } => {
                eprintln!("the round closed before this find arrived: it does not count");
                closed = Some(finds);
                break;
            }
            m => return Err(unexpected(m, "an answer to a find")),
        }
    }
    let finds = match closed {
        Some(n) => n,
        None => {
            ch.send(&PlayerMsg::Done)?;
            eprintln!(
                "{} sent; waiting for the round to end",
                crate::files::count(openings.len() as u64, "find")
            );
            ch.set_message_deadline(end.saturating_duration_since(Instant::now()) + 2 * message);
            match ch.recv::<RefereeMsg>("the end of the round")? {
                RefereeMsg::Closed { finds } => finds,
                m => return Err(unexpected(m, "the end of the round")),
            }
        }
    };
    if finds as usize != openings.len() {
        return Err(Error::rejected(format!(
            "the referee counts {finds} finds of this player's, not {}",
            openings.len()
        )));
    }
    let mut bytes: Vec<Vec<u8>> = openings.iter().map(Opening::to_bytes).collect();
    let sent = ch.send(&PlayerMsg::Openings {
        openings: bytes.clone(),
    });
    for b in &mut bytes {
        b.fill(0);
    }
    sent?;
    // the referee waits for every player's openings before scoring
    ch.set_message_deadline(4 * message);
    let board = match ch.recv::<RefereeMsg>("the scoreboard")? {
        RefereeMsg::Scoreboard { players } => players,
        m => return Err(unexpected(m, "the scoreboard")),
    };
    if board.len() > 4096 {
        return Err(Error::bad("the referee's scoreboard is too long"));
    }
    print_board(&board, &grid, Some(&a.name), json);
    Ok(())
}

/// Prints the scoreboard: one line a player (`NAME POINTS: word points, word (shared), …`,
/// or `NAME out: reason`), or the JSON object.
fn print_board(board: &[Row], grid: &Grid, you: Option<&str>, json: bool) {
    let shown = crate::files::untrusted::shown;
    if json {
        let players: Vec<serde_json::Value> = board
            .iter()
            .map(|r| {
                json!({"name": shown(&r.name), "points": r.points, "out": r.out.as_deref().map(shown),
                       "words": r.words.iter().map(|(w, p, s)| json!({"word": shown(w), "points": p, "shared": s})).collect::<Vec<_>>()})
            })
            .collect();
        let mut obj = json!({"grid": grid.text(), "players": players});
        if let Some(y) = you {
            obj["you"] = y.into();
        }
        report::emit(true, "", report::verdict("scored", obj));
        return;
    }
    let mut text = format!("scoreboard of the round on {}:", grid.text());
    for r in board {
        let name = shown(&r.name);
        match &r.out {
            Some(why) => text += &format!("\n{name} out: {}", shown(why)),
            None => {
                let words: Vec<String> = r
                    .words
                    .iter()
                    .map(|(w, p, s)| {
                        if *s {
                            format!("{} (shared)", shown(w))
                        } else {
                            format!("{} {p}", shown(w))
                        }
                    })
                    .collect();
                text += &format!("\n{name} {}: {}", r.points, words.join(", "));
            }
        }
    }
    report::emit(false, text, serde_json::Value::Null);
}
