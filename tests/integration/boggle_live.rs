//! A live Boggle round through the binaries: `verifier boggle serve` referees, `prover boggle
//! play` players seal their finds as they go and open them at the end; a word two players
//! found scores for nobody (the scoreboard checked against a plain count); hostile players
//! (garbage, a find for another grid, dictionary, round or player, a duplicate, a replayed
//! find, an opening that does not match) are refused in one line while the round goes on; a
//! full round says "try again later" (exit 75).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::{self, tmp, PROVER, VERIFIER};
use zkgames::cli::boggle_live::{PlayerMsg, RefereeMsg};
use zkgames::mpc::engine::Engine;
use zkgames::net::{Channel, Deadlines};
use zkgames::rng::seeded_rng;
use zkgames::words::boggle::{self, Dictionary, Grid};

const GRID: &str = "seal/ifer/mans/tope";

/// A running referee: its process (stdout piped: the scoreboard), its address, its log.
struct Referee {
    child: Child,
    addr: String,
    log: std::sync::Arc<std::sync::Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Referee {
    fn start(extra: &[&str]) -> Referee {
        let mut args = vec!["boggle", "serve", GRID, "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let mut child = Command::new(VERIFIER)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut r = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        let addr = line
            .split_whitespace()
            .find(|w| w.starts_with("127.0.0.1:"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        let log = std::sync::Arc::new(std::sync::Mutex::new(line));
        let l2 = log.clone();
        let reader = std::thread::spawn(move || {
            for line in r.lines().map_while(Result::ok) {
                let mut l = l2.lock().unwrap();
                l.push_str(&line);
                l.push('\n');
            }
        });
        Referee {
            child,
            addr,
            log,
            reader: Some(reader),
        }
    }

    /// Waits for the referee to exit: its status, stdout and whole log.
    fn finish(mut self) -> (i32, String, String) {
        use std::io::Read;
        let mut out = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let code = self.child.wait().unwrap().code().unwrap_or(-1);
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        let log = self.log.lock().unwrap().clone();
        (code, out, log)
    }
}

impl Drop for Referee {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// `prover boggle play ADDR --name NAME --word W…` started in the background.
fn player(addr: &str, name: &str, words: &[&str], extra: &[&str]) -> Child {
    let mut args = vec!["boggle", "play", addr, "--name", name];
    for w in words {
        args.extend_from_slice(&["--word", w]);
    }
    args.extend_from_slice(extra);
    Command::new(PROVER)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn outcome(c: Child) -> (i32, String, String) {
    common::outcome(c.wait_with_output().unwrap())
}

/// [`player`] run to its end, again while it says "try again later" (75): a seat just left
/// is freed when the referee reads the end of that connection.
fn play_retrying(addr: &str, name: &str, words: &[&str], extra: &[&str]) -> (i32, String, String) {
    for _ in 0..50 {
        let r = outcome(player(addr, name, words, extra));
        if r.0 != 75 {
            return r;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{name}: the referee stayed busy")
}

/// A raw player speaking the protocol itself: what a hostile client can send.
struct Raw {
    ch: Channel,
    round: [u8; 16],
}

impl Raw {
    fn join(addr: &str, name: &str) -> Raw {
        let s = std::net::TcpStream::connect(addr).unwrap();
        let mut ch = Channel::tcp(
            s,
            Deadlines {
                message: std::time::Duration::from_secs(60),
                session: std::time::Duration::from_secs(300),
            },
        );
        ch.send(&PlayerMsg::Hello {
            version: 1,
            name: name.into(),
        })
        .unwrap();
        match ch.recv::<RefereeMsg>("round").unwrap() {
            RefereeMsg::Round { round, grid, .. } => {
                assert_eq!(grid, GRID);
                Raw { ch, round }
            }
            m => panic!("{name}: no round: {m:?}"),
        }
    }

    fn send(&mut self, m: &PlayerMsg) -> RefereeMsg {
        self.ch.send(m).unwrap();
        self.ch.recv::<RefereeMsg>("reply").unwrap()
    }
}

/// A find of `word` sealed with the library, under `(round, name)`'s context.
fn find(
    grid: &str,
    dict: &Dictionary,
    word: &str,
    round: &[u8; 16],
    name: &str,
    seed: u64,
) -> boggle::Sealed {
    let g = Grid::parse(grid, "g").unwrap();
    let w = zkgames::words::dict::letters_of(word).unwrap();
    boggle::seal(
        &g,
        dict,
        &w,
        &Engine::Vole.default_system(128).unwrap(),
        &boggle::round_context(round, name),
        &mut seeded_rng(seed),
    )
    .unwrap()
}

fn refused(m: RefereeMsg) -> String {
    match m {
        RefereeMsg::Refused { reason } => reason,
        m => panic!("not refused: {m:?}"),
    }
}

/// The scoreboard as Boggle's rules give it, computed plainly from every player's words.
fn plain_scores(players: &[(&str, &[&str])]) -> BTreeMap<String, u32> {
    players
        .iter()
        .map(|(name, words)| {
            let mut total = 0;
            let mut seen = std::collections::BTreeSet::new();
            for w in words.iter().filter(|w| seen.insert(**w)) {
                let others = players
                    .iter()
                    .filter(|(n, ws)| n != name && ws.contains(w))
                    .count();
                if others == 0 {
                    total += match w.len() {
                        0..=2 => 0,
                        3 | 4 => 1,
                        5 => 2,
                        6 => 3,
                        7 => 5,
                        _ => 11,
                    };
                }
            }
            (name.to_string(), total)
        })
        .collect()
}

fn points_of(board: &serde_json::Value) -> BTreeMap<String, u32> {
    board["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["out"].is_null())
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["points"].as_u64().unwrap() as u32,
            )
        })
        .collect()
}

/// Three players, overlapping words: the shared ones score nothing; every player and the
/// referee print the same scoreboard, equal to the plain count.
#[test]
fn boggle_live_round_with_three_players_scores_by_the_rules() {
    let referee = Referee::start(&["--players", "3", "--seconds", "120"]);
    let words: [(&str, &[&str]); 3] = [
        ("alice", &["manes", "openers", "seal", "lean"]),
        ("bob", &["manes", "pens", "sea", "lean", "sea"]),
        ("carol", &["fen", "mans"]),
    ];
    let kids: Vec<Child> = words
        .iter()
        .map(|(name, ws)| player(&referee.addr, name, ws, &["--json"]))
        .collect();
    let want = plain_scores(&words);
    assert_eq!(want["alice"], 5 + 1, "{want:?}"); // openers 5, seal 1; manes and lean shared
    for ((name, _), kid) in words.iter().zip(kids) {
        let (code, out, err) = outcome(kid);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert_eq!(out.lines().count(), 1, "{name}: one object: {out}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["verdict"], "scored", "{out}");
        assert_eq!(v["you"], *name);
        assert_eq!(points_of(&v), want, "{name}: {out}");
    }
    let (code, out, log) = referee.finish();
    assert_eq!(code, 0, "{out}{log}");
    assert!(
        out.starts_with("scoreboard of the round on seal/ifer/mans/tope:"),
        "{out}"
    );
    assert!(
        out.contains("alice 6: lean (shared), manes (shared), openers 5, seal 1"),
        "{out}"
    );
    assert!(
        out.contains("bob 2: lean (shared), manes (shared), pens 1, sea 1"),
        "{out}"
    );
    assert!(out.contains("carol 2: fen 1, mans 1"), "{out}");
    // the log says who played, never a word before the end
    assert!(log.contains("alice: 4 finds opened, 6 points"), "{log}");
    for w in ["openers", "manes", "fen"] {
        assert!(!log.contains(w), "{w} in the log: {log}");
    }
}

/// Hostile players are refused one by one, each in one line, and the round goes on: two
/// honest players finish it and are scored; the one whose opening does not match is out.
#[test]
fn boggle_live_round_refuses_hostile_players_and_goes_on() {
    let referee = Referee::start(&["--players", "3", "--seconds", "120"]);
    let addr = referee.addr.clone();
    let d = Dictionary::shipped();
    // garbage after the hello: the connection is dropped, nothing else changes
    {
        let mut raw = Raw::join(&addr, "eve0");
        raw.ch.send(&vec![7u8; 40]).unwrap();
        let r = raw.ch.recv::<RefereeMsg>("reply");
        assert!(!matches!(r, Ok(RefereeMsg::Accepted { .. })), "{r:?}");
    }
    // a find for another grid, for another dictionary, for another player, for another round
    let mut raw = Raw::join(&addr, "eve1");
    let f = find("seal/ifer/mans/topf", &d, "manes", &raw.round, "eve1", 1);
    assert!(refused(raw.send(&PlayerMsg::Find { file: f.file })).contains("another grid"));
    let mut raw = Raw::join(&addr, "eve2");
    let d2 = Dictionary::parse(&format!("{}zzzz\n", boggle::DEFAULT_DICT), "d2").unwrap();
    let f = find(GRID, &d2, "manes", &raw.round, "eve2", 2);
    assert!(refused(raw.send(&PlayerMsg::Find { file: f.file })).contains("another dictionary"));
    let mut raw = Raw::join(&addr, "eve3");
    let f = find(GRID, &d, "manes", &raw.round, "alice", 3);
    assert!(refused(raw.send(&PlayerMsg::Find { file: f.file })).contains("find refused"));
    let mut raw = Raw::join(&addr, "eve4");
    let f = find(GRID, &d, "manes", &[9; 16], "eve4", 4);
    assert!(refused(raw.send(&PlayerMsg::Find { file: f.file })).contains("find refused"));
    // a duplicate, and a find replayed by another player
    let mut dup = Raw::join(&addr, "eve5");
    let f = find(GRID, &d, "manes", &dup.round, "eve5", 5);
    assert!(matches!(
        dup.send(&PlayerMsg::Find {
            file: f.file.clone()
        }),
        RefereeMsg::Accepted {
            finds: 1,
            dice: 5,
            ..
        }
    ));
    let mut replay = Raw::join(&addr, "eve6");
    let r = refused(replay.send(&PlayerMsg::Find {
        file: f.file.clone(),
    }));
    assert!(r.contains("replayed") && r.contains("eve5"), "{r}");
    assert!(refused(dup.send(&PlayerMsg::Find { file: f.file })).contains("duplicate"));
    // a name taken, a name not allowed
    {
        let s = std::net::TcpStream::connect(&addr).unwrap();
        let mut ch = Channel::tcp(s, Deadlines::default());
        ch.send(&PlayerMsg::Hello {
            version: 1,
            name: "eve5".into(),
        })
        .unwrap();
        assert!(refused(ch.recv("r").unwrap()).contains("taken"));
    }
    // mallory plays a find, then opens it with another find's opening
    let mut mallory = Raw::join(&addr, "mallory");
    let m1 = find(GRID, &d, "seal", &mallory.round, "mallory", 7);
    let m2 = find(GRID, &d, "lean", &mallory.round, "mallory", 8);
    assert!(matches!(
        mallory.send(&PlayerMsg::Find {
            file: m1.file.clone()
        }),
        RefereeMsg::Accepted { .. }
    ));
    mallory.ch.send(&PlayerMsg::Done).unwrap();
    let mallory_thread = std::thread::spawn(move || {
        match mallory.ch.recv::<RefereeMsg>("closed").unwrap() {
            RefereeMsg::Closed { finds: 1 } => {}
            m => panic!("{m:?}"),
        }
        let reply = mallory.send(&PlayerMsg::Openings {
            openings: vec![m2.opening.to_bytes()],
        });
        refused(reply)
    });
    // the two honest players, with the binaries; the seat of every refused player was freed
    let a = player(&addr, "alice", &["seal", "manes"], &["--json"]);
    let b = player(&addr, "bob", &["lean", "mane"], &[]);
    let why = mallory_thread.join().unwrap();
    assert!(
        why.contains("opening 1 of 1") && why.contains("another find"),
        "{why}"
    );
    let (code, out, err) = outcome(a);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // mallory is out: her "seal" does not count against alice's
    let want = plain_scores(&[("alice", &["seal", "manes"]), ("bob", &["lean", "mane"])]);
    assert_eq!(points_of(&v), want, "{out}");
    let out_rows: Vec<&str> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["out"].is_null())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        out_rows.contains(&"mallory") && out_rows.contains(&"eve6"),
        "{out}"
    );
    let (code, out, err) = outcome(b);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("bob 2: lean 1, mane 1"), "{out}");
    assert!(out.contains("mallory out: opening 1 of 1"), "{out}");
    let (code, out, log) = referee.finish();
    assert_eq!(code, 0, "{out}{log}");
    assert!(out.contains("alice 3: manes 2, seal 1"), "{out}");
    for l in log
        .lines()
        .filter(|l| l.contains(" rejected ") || l.contains(": rejected"))
    {
        assert!(!l.contains("panicked"), "{l}");
    }
    assert!(!log.contains("panicked"), "{log}");
}

/// The player's own refusals: a round full (exit 75), another dictionary (exit 2), a word
/// not on the grid (exit 2), a referee that is not there (exit 2); --json gives one object.
#[test]
fn boggle_live_players_are_told_in_one_line() {
    let referee = Referee::start(&["--players", "1", "--seconds", "60"]);
    let addr = referee.addr.clone();
    let seated = Raw::join(&addr, "alice");
    let (code, out, err) = outcome(player(&addr, "bob", &["seal"], &["--json"]));
    assert_eq!(code, 75, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["verdict"], "retry", "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    drop(seated); // alice leaves: her seat is free again
    let dict2 = tmp("boggle-live-dict2.txt");
    std::fs::write(&dict2, "seal\nsea\n").unwrap();
    let (code, _, err) = play_retrying(&addr, "carol", &["seal"], &["--dict", &dict2]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another dictionary"), "{err}");
    let (code, _, err) = play_retrying(&addr, "dave", &["seals"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not on the grid"), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.contains("error")).count(),
        1,
        "{err}"
    );
    let (code, _, err) = outcome(player(&addr, "not a name", &["seal"], &[]));
    assert_eq!(code, 2, "{err}");
    // the last seat plays and closes the round
    let (code, out, err) = play_retrying(&addr, "erin", &["seal", "openers"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("erin 6: openers 5, seal 1"), "{out}");
    let (code, out, log) = referee.finish();
    assert_eq!(code, 0, "{log}");
    assert!(out.contains("erin 6"), "{out}");
    let (code, _, err) = outcome(player(&addr, "late", &["seal"], &[]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot connect"), "{err}");
}
