//! The Wall Game page (`verifier wall render … --html`): the embedded tables answer as the
//! Rust oracle and brute force do (a Rust transcription of the page's query formula, run on
//! the page's JSON; the page's own JavaScript under node when node is installed), the binary
//! end to end (positions, records, sealed moves, hostile tag values), and a headless Chromium
//! run that hovers, selects, reads colours and the status line, and takes a screenshot.

use std::path::{Path, PathBuf};
use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::Value;
use zkgames::wall::board::{Cell, Dir, Player, Position, Setup, Variant, Wall};
use zkgames::wall::format;
use zkgames::wall::graph::Bfs;
use zkgames::wall::html::{self, slot_number};
use zkgames::wall::moves::MoveOracle;

use crate::common;
use common::{p, run, wall_seal, VERIFIER};

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(common::tmp(name))
}

/// The JSON a page embeds, parsed.
fn page_json(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"data\">";
    let i = page.find(open).expect("data script") + open.len();
    let j = i + page[i..].find("</script>").unwrap();
    serde_json::from_str(&page[i..j]).expect("the data is JSON")
}

// ---------- The Rust transcription of the page's query (wall.js, part 1) ----------

/// One pair's per-edge query arrays (JS `queryTable`).
struct Q {
    lo: Vec<u32>,
    len: Vec<u32>,
    blue: Vec<u32>,
    bridge: Vec<u32>,
}

/// A prepared step (JS `prepare`).
struct Prepared {
    edge: Vec<i64>,
    q: Vec<Q>,
    valid: bool,
}

fn nums(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

fn exists(rows: u32, cols: u32, s: u32) -> bool {
    let cell = s >> 1;
    let (r, c) = (cell / cols, cell % cols);
    if s & 1 == 1 {
        c + 1 < cols
    } else {
        r + 1 < rows
    }
}

fn prepare(d: &Value, st: &Value) -> Prepared {
    let (rows, cols) = (
        d["rows"].as_u64().unwrap() as u32,
        d["cols"].as_u64().unwrap() as u32,
    );
    let nslots = 2 * rows * cols;
    let mut walled = vec![false; nslots as usize];
    for s in nums(&st["walls"]) {
        walled[s as usize] = true;
    }
    let mut edge = vec![-1i64; nslots as usize];
    let mut m = 0usize;
    for s in 0..nslots {
        if exists(rows, cols, s) && !walled[s as usize] {
            edge[s as usize] = m as i64;
            m += 1;
        }
    }
    let valid = st["valid"].as_bool().unwrap();
    let mut q = Vec::new();
    if valid {
        for p in st["pairs"].as_array().unwrap() {
            let mut t = Q {
                lo: vec![0; m],
                len: vec![0; m],
                blue: vec![u32::MAX; m],
                bridge: vec![0; m],
            };
            for e in nums(&p["bridges"]) {
                t.bridge[e as usize] = 1;
            }
            let (red, lo, hi) = (nums(&p["red"]), nums(&p["red_lo"]), nums(&p["red_hi"]));
            for i in 0..red.len() {
                t.lo[red[i] as usize] = lo[i];
                t.len[red[i] as usize] = hi[i] - lo[i];
            }
            for (j, e) in nums(&p["blue"]).into_iter().enumerate() {
                t.blue[e as usize] = j as u32;
            }
            q.push(t);
        }
    }
    Prepared { edge, q, valid }
}

/// JS `cuts`.
fn cuts(q: &Q, a: usize, b: usize) -> bool {
    ((q.bridge[a] | q.bridge[b]) != 0)
        || (q.blue[b].wrapping_sub(q.lo[a]) < q.len[a])
        || (q.blue[a].wrapping_sub(q.lo[b]) < q.len[b])
}

/// A verdict as the page computes it: free slot(s), legal (None: invalid position), the
/// indices of the pairs cut.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    free: bool,
    legal: Option<bool>,
    cut: Vec<usize>,
}

/// JS `single`.
fn single(p: &Prepared, s: u32) -> Verdict {
    let e = p.edge[s as usize];
    if e < 0 {
        return Verdict {
            free: false,
            legal: Some(false),
            cut: vec![],
        };
    }
    if !p.valid {
        return Verdict {
            free: true,
            legal: None,
            cut: vec![],
        };
    }
    let cut: Vec<usize> = (0..p.q.len())
        .filter(|&k| p.q[k].bridge[e as usize] != 0)
        .collect();
    Verdict {
        free: true,
        legal: Some(cut.is_empty()),
        cut,
    }
}

/// JS `pair` (the `alone` / `same` details folded into `cut` / `legal`).
fn pair(p: &Prepared, s1: u32, s2: u32) -> Verdict {
    for s in [s1, s2] {
        let v = single(p, s);
        if !v.free || v.legal != Some(true) {
            return Verdict {
                legal: v.legal.map(|_| false),
                ..v
            };
        }
    }
    if s1 == s2 {
        return Verdict {
            free: true,
            legal: Some(false),
            cut: vec![],
        };
    }
    let (a, b) = (p.edge[s1 as usize] as usize, p.edge[s2 as usize] as usize);
    let cut: Vec<usize> = (0..p.q.len()).filter(|&k| cuts(&p.q[k], a, b)).collect();
    Verdict {
        free: true,
        legal: Some(cut.is_empty()),
        cut,
    }
}

// ---------- Random positions ----------

fn random_cell(rng: &mut ChaCha20Rng, rows: u32, cols: u32) -> Cell {
    (rng.gen_range(0..rows), rng.gen_range(0..cols))
}

fn random_position(rng: &mut ChaCha20Rng, max_side: u32) -> Position {
    let rows = rng.gen_range(2..=max_side);
    let cols = rng.gen_range(2..=max_side);
    let density = [0.0, 0.15, 0.3, 0.45][rng.gen_range(0..4)];
    let mut walls = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + 1 < rows && rng.gen_bool(density) {
                walls.push(Wall::new(r, c, Dir::D));
            }
            if c + 1 < cols && rng.gen_bool(density) {
                walls.push(Wall::new(r, c, Dir::R));
            }
        }
    }
    let setup = match rng.gen_range(0..4) {
        0 => {
            let n = rng.gen_range(1..=4);
            Setup::Game {
                variant: Variant::Classic,
                players: (0..n)
                    .map(|_| Player {
                        cat: random_cell(rng, rows, cols),
                        mouse: None,
                        goal: Some(random_cell(rng, rows, cols)),
                    })
                    .collect(),
            }
        }
        k @ (1 | 2) => {
            let n = if k == 1 { 2 } else { rng.gen_range(3..=4) };
            Setup::Game {
                variant: if k == 1 {
                    Variant::CatAndMouse
                } else {
                    Variant::Ring
                },
                players: (0..n)
                    .map(|_| Player {
                        cat: random_cell(rng, rows, cols),
                        mouse: Some(random_cell(rng, rows, cols)),
                        goal: None,
                    })
                    .collect(),
            }
        }
        _ => Setup::Pairs(
            (0..rng.gen_range(1..=4))
                .map(|_| (random_cell(rng, rows, cols), random_cell(rng, rows, cols)))
                .collect(),
        ),
    };
    Position::new(rows, cols, walls, setup).unwrap()
}

/// The distinct attached pairs as node pairs, in the page's order (first occurrence of each
/// unordered pair of two different cells).
fn distinct_node_pairs(pos: &Position) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (a, b) in pos.node_pairs() {
        if a != b
            && !out
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        {
            out.push((a, b));
        }
    }
    out
}

/// Every slot number on the board.
fn all_slots(pos: &Position) -> Vec<u32> {
    (0..2 * pos.rows() * pos.cols())
        .filter(|&s| exists(pos.rows(), pos.cols(), s))
        .collect()
}

fn wall_of_slot(cols: u32, s: u32) -> Wall {
    let cell = s >> 1;
    Wall::new(
        cell / cols,
        cell % cols,
        if s & 1 == 1 { Dir::R } else { Dir::D },
    )
}

/// The page's data for a position (as the binary embeds it) and its prepared first step.
fn page_for(pos: &Position) -> (Value, Prepared) {
    let d = html::page_data(&[], &html::position_steps(pos, None)).unwrap();
    let v: Value = serde_json::from_str(&html::data_json(&d)).unwrap();
    let prepared = prepare(&v, &v["steps"][0]);
    (v, prepared)
}

/// The embedded tables answer as the Rust oracle (every slot, every slot pair or a sample)
/// and as brute force (BFS after removing the walls: which pairs are cut) on thousands of
/// seeded random positions, valid or not.
#[test]
fn embedded_tables_answer_as_the_oracle() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x4854_4d4c);
    let (mut positions, mut singles, mut pairs, mut brute) = (0, 0u64, 0u64, 0u64);
    let mut illegal_pairs = 0u64;
    for round in 0..3000 {
        let pos = random_position(&mut rng, if round % 10 == 0 { 12 } else { 7 });
        let (_, pg) = page_for(&pos);
        let bg = pos.graph();
        let np = distinct_node_pairs(&pos);
        let oracle = MoveOracle::build(&bg.graph, &np).ok();
        assert_eq!(pg.valid, oracle.is_some());
        let mut bfs = Bfs::new(bg.graph.n());
        let cut_by = |bfs: &mut Bfs, removed: &[u32]| -> Vec<usize> {
            (0..np.len())
                .filter(|&k| !bfs.connected(&bg.graph, np[k].0, np[k].1, removed))
                .collect()
        };
        let slots = all_slots(&pos);
        positions += 1;
        for &s in &slots {
            let v = single(&pg, s);
            let e = bg.edge_of(wall_of_slot(pos.cols(), s));
            assert_eq!(v.free, e.is_some());
            if let (Some(e), Some(o)) = (e, &oracle) {
                assert_eq!(v.legal, Some(o.is_legal_single(e)), "{pos:?} slot {s}");
                assert_eq!(v.cut, cut_by(&mut bfs, &[e]), "{pos:?} slot {s}");
                brute += 1;
            }
            if !pg.valid && e.is_some() {
                assert_eq!(v.legal, None);
            }
            singles += 1;
        }
        // Every pair of slots on small boards, 300 random pairs on larger ones.
        let all = slots.len() <= 45;
        let list: Vec<(u32, u32)> = if all {
            slots
                .iter()
                .flat_map(|&a| slots.iter().map(move |&b| (a, b)))
                .collect()
        } else {
            (0..300)
                .map(|_| {
                    (
                        slots[rng.gen_range(0..slots.len())],
                        slots[rng.gen_range(0..slots.len())],
                    )
                })
                .collect()
        };
        for (a, b) in list {
            let v = pair(&pg, a, b);
            pairs += 1;
            let (ea, eb) = (
                bg.edge_of(wall_of_slot(pos.cols(), a)),
                bg.edge_of(wall_of_slot(pos.cols(), b)),
            );
            let Some(o) = &oracle else {
                assert_ne!(v.legal, Some(true));
                continue;
            };
            match (ea, eb) {
                (Some(x), Some(y)) => {
                    assert_eq!(v.legal, Some(o.is_legal_double(x, y)), "{pos:?} {a} {b}");
                    if x != y && o.is_legal_single(x) && o.is_legal_single(y) {
                        let want = cut_by(&mut bfs, &[x, y]);
                        assert_eq!(v.cut, want, "{pos:?} slots {a} {b}");
                        brute += 1;
                        illegal_pairs += !want.is_empty() as u64;
                    }
                }
                _ => assert_eq!(v.legal, Some(false)),
            }
        }
    }
    println!(
        "{positions} positions: {singles} single slots, {pairs} slot pairs ({illegal_pairs} illegal together), {brute} checked against brute force"
    );
    assert!(
        illegal_pairs > 1000,
        "the random positions exercise the pair tables"
    );
}

/// The binary embeds exactly the library's data (so the test above covers the page) and
/// refuses what it cannot show.
#[test]
fn binary_writes_the_page() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for i in 0..12 {
        let pos = random_position(&mut rng, 9);
        let f = tmp(&format!("rand{i}.json"));
        std::fs::write(&f, format::to_json_file(&pos, None)).unwrap();
        let out = tmp(&format!("rand{i}.html"));
        let (c, _, e) = run(
            VERIFIER,
            &[
                "wall",
                "render",
                f.to_str().unwrap(),
                "--html",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(c, 0, "{e}");
        let page = std::fs::read_to_string(&out).unwrap();
        let (want, _) = page_for(&pos);
        assert_eq!(page_json(&page), want);
    }
    // stdout, and self-containment: no URL the page could fetch
    let (c, page, e) = run(
        VERIFIER,
        &[
            "wall",
            "render",
            &p("puzzles/wall/classic-11x11-opening.txt"),
            "--html",
            "-",
        ],
    );
    assert_eq!(c, 0, "{e}");
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    // (the SVG namespace name is an identifier, never fetched)
    let stripped = page.replace("http://www.w3.org/2000/svg", "");
    for bad in ["http:", "https:", "src=", "href=", "@import", "url("] {
        assert!(!stripped.contains(bad), "the page mentions {bad}");
    }
    assert!(page.contains("default-src 'none'"));
    // beyond standard notation: refused, one line, exit 2
    let big = tmp("big.json");
    std::fs::write(
        &big,
        r#"{"rows": 3, "cols": 27, "walls": [], "pairs": [[[0, 0], [2, 26]]]}"#,
    )
    .unwrap();
    let (c, _, e) = run(
        VERIFIER,
        &[
            "wall",
            "render",
            big.to_str().unwrap(),
            "--html",
            tmp("big.html").to_str().unwrap(),
        ],
    );
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("standard notation") && e.lines().count() == 1,
        "{e}"
    );
    // too much oracle for one page: refused before any work
    let pairs: Vec<String> = (0..2000)
        .map(|i| format!("[[{}, {}], [98, 25]]", i % 99, i % 26))
        .collect();
    std::fs::write(
        &big,
        format!(
            r#"{{"rows": 99, "cols": 26, "walls": [], "pairs": [{}]}}"#,
            pairs.join(", ")
        ),
    )
    .unwrap();
    let (c, _, e) = run(
        VERIFIER,
        &["wall", "render", big.to_str().unwrap(), "--html", "-"],
    );
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("over the limit of 1000000") && e.lines().count() == 1,
        "{e}"
    );
    // --seals needs a record; both outputs on stdout is refused
    let pos8 = p("puzzles/wall/cat-and-mouse-8x8.txt");
    let (c, _, _) = run(
        VERIFIER,
        &["wall", "render", &pos8, "--html", "-", "--seals", "."],
    );
    assert_eq!(c, 2);
    let (c, _, _) = run(
        VERIFIER,
        &["wall", "render", &pos8, "--html", "-", "--svg", "-"],
    );
    assert_eq!(c, 2);
    // an invalid position: the page says why, no pair tables
    let (c, page, _) = run(
        VERIFIER,
        &[
            "wall",
            "render",
            &p("puzzles/wall/invalid-boxed-mouse.txt"),
            "--html",
            "-",
        ],
    );
    assert_eq!(c, 0);
    let d = page_json(&page);
    assert_eq!(d["steps"][0]["valid"], false);
    let why = d["steps"][0]["invalid"].as_str().unwrap();
    assert!(
        why.starts_with("invalid position: already cut off: player "),
        "{why}"
    );
}

/// A record: one step per ply plus the start; tag values reach the page only as JSON string
/// data (a `<script>` in a tag cannot run), shown with textContent.
/// The step where a game ends carries its result and nobody to move (every earlier step has a
/// player to move and no result); a record decided off the board (its `Result` tag, e.g. a
/// resignation) shows that result on its last step; an unfinished one shows none.
#[test]
fn a_finished_game_shows_its_result_on_its_last_step() {
    let src = p("puzzles/wall/standard-8x8-game.txt");
    let out = tmp("finished.html");
    let (c, _, e) = run(
        VERIFIER,
        &["wall", "render", &src, "--html", out.to_str().unwrap()],
    );
    assert_eq!(c, 0, "{e}");
    let d = page_json(&std::fs::read_to_string(&out).unwrap());
    let steps = d["steps"].as_array().unwrap();
    let (last, before) = steps.split_last().unwrap();
    assert_eq!(
        last["result"],
        "1-0: player 1 wins: its cat caught player 2's mouse on h1"
    );
    assert!(last["to_move"].is_null());
    for st in before {
        assert!(st["result"].is_null() && st["to_move"].is_u64(), "{st}");
    }
    // decided off the board, and unfinished
    for (result, term, want) in [
        (
            "0-1",
            "\n[Termination \"Resignation\"]",
            Some("0-1 (Resignation)"),
        ),
        ("*", "", None),
    ] {
        let rec = tmp("resigned.txt");
        std::fs::write(
            &rec,
            format!("[Board \"8x8\"]\n[Result \"{result}\"]{term}\n\n1. Cb8 Cg8\n"),
        )
        .unwrap();
        let out = tmp("resigned.html");
        let (c, _, e) = run(
            VERIFIER,
            &[
                "wall",
                "render",
                rec.to_str().unwrap(),
                "--html",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(c, 0, "{e}");
        let d = page_json(&std::fs::read_to_string(&out).unwrap());
        let steps = d["steps"].as_array().unwrap();
        let last = steps.last().unwrap();
        assert_eq!(last["result"].as_str(), want, "{last}");
        assert_eq!(last["to_move"].is_null(), want.is_some(), "{last}");
    }
}

#[test]
fn records_step_through_moves_and_escape_tags() {
    let rec = tmp("hostile.txt");
    std::fs::write(
        &rec,
        "[Board \"8x8\"]\n[Variant \"Standard\"]\n[Result \"*\"]\n[Event \"</script><script>document.title='pwned'</script>\"]\n[Player1 \"<img src=x onerror=alert(1)> & co\"]\n\n1. Cb8 Cg8\n2. Cc8.>d4 Cf8\n",
    )
    .unwrap();
    let out = tmp("hostile.html");
    let (c, _, e) = run(
        VERIFIER,
        &[
            "wall",
            "render",
            rec.to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(c, 0, "{e}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        page.matches("<script").count(),
        2,
        "only the page's own scripts"
    );
    assert!(!page.contains("<img") && !page.contains("pwned'</script>"));
    let d = page_json(&page);
    let tags = d["tags"].as_array().unwrap();
    assert!(tags
        .iter()
        .any(|t| t[1] == "</script><script>document.title='pwned'</script>"));
    let steps = d["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 5);
    assert_eq!(steps[0]["caption"], "start");
    assert_eq!(steps[3]["caption"], "2. player 1: Cc8.>d4");
    // the wall of move 2 is on the board from step 3 on, with its oracle tables
    let s = slot_number(8, Wall::new(4, 3, Dir::R));
    for (k, st) in steps.iter().enumerate() {
        let has = nums(&st["walls"]).contains(&s);
        assert_eq!(has, k >= 3, "step {k}");
        assert_eq!(st["pairs"].as_array().unwrap().len(), 2);
    }
    // a record with an illegal move: rejected (exit 1), as everywhere
    std::fs::write(
        &rec,
        "[Board \"8x8\"]\n[Result \"*\"]\n\n1. Cb8 Cg8\n2. Ch1\n",
    )
    .unwrap();
    let (c, _, _) = run(
        VERIFIER,
        &["wall", "render", rec.to_str().unwrap(), "--html", "-"],
    );
    assert_eq!(c, 1);
}

/// Sealed moves show as sealed (the board before them) until their opening, then as played;
/// the seals are verified first (a bad seal is a rejection).
#[test]
fn sealed_moves_show_sealed_until_opened() {
    let d = tmp("sealed");
    std::fs::create_dir_all(d.join("seals")).unwrap();
    let game = d.join("game.txt");
    let g = game.to_str().unwrap();
    let head = "[Board \"8x8\"]\n[Variant \"Standard\"]\n[Result \"*\"]\n[Seals \"seals\"]\n\n";
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n")).unwrap();
    let f = |n: &str| d.join("seals").join(n).to_string_lossy().into_owned();
    let seal = |mv: &str, k: u32, open: &str| {
        let (c, _, e) = wall_seal(g, mv, &["-o", &f(&format!("{k}.seal")), "--opening", open]);
        assert_eq!(c, 0, "{e}");
    };
    seal("Cc8", 3, &f("3.open"));
    std::fs::write(&game, format!("{head}1. Cb8 Cg8\n2. Cc8\n")).unwrap();
    let later = d.join("4.open").to_string_lossy().into_owned();
    seal("Cf8", 4, &later);
    let caps = |args: &[&str]| -> Vec<(String, bool)> {
        let (c, page, e) = run(VERIFIER, args);
        assert_eq!(c, 0, "{e}");
        page_json(&page)["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["caption"].as_str().unwrap().to_string(),
                    s["sealed"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    let (c, page, e) = run(VERIFIER, &["wall", "render", g, "--html", "-"]);
    assert_eq!(c, 0, "{e}");
    let steps = page_json(&page)["steps"].clone();
    // the sealed step shows the board before the move, its opening the board after
    assert_eq!(steps[3]["marks"], steps[2]["marks"]);
    assert_ne!(steps[4]["marks"], steps[3]["marks"]);
    assert_eq!(steps[5]["marks"], steps[4]["marks"]);
    assert_eq!(steps[3]["pairs"], steps[2]["pairs"]);
    let v = caps(&["wall", "render", g, "--html", "-"]);
    let want: Vec<(&str, bool)> = vec![
        ("start", false),
        ("1. player 1: Cb8", false),
        ("1. player 2: Cg8", false),
        ("2. player 1: sealed move (hidden until its opening)", true),
        ("2. player 1: Cc8 (opened)", false),
        (
            "2. player 2: sealed move, not yet opened: the game is adjourned",
            true,
        ),
    ];
    assert_eq!(
        v,
        want.iter()
            .map(|(a, b)| (a.to_string(), *b))
            .collect::<Vec<_>>()
    );
    // the opening arrives: the adjourned move is played after the record
    std::fs::copy(&later, f("4.open")).unwrap();
    let v = caps(&["wall", "render", g, "--html", "-"]);
    assert_eq!(v.len(), 7);
    assert_eq!(
        v[5],
        (
            "2. player 2: sealed move (hidden until its opening)".into(),
            true
        )
    );
    assert_eq!(
        v[6],
        ("2. player 2: Cf8 (opened after the record)".into(), false)
    );
    // a seal moved to another ply is rejected
    std::fs::rename(f("3.seal"), f("1.seal")).unwrap();
    let (c, _, e) = run(VERIFIER, &["wall", "render", g, "--html", "-"]);
    assert_eq!(c, 1, "{e}");
}

// ---------- The page's own JavaScript under node ----------

const NODE_HARNESS: &str = r#"
const fs = require("fs"), vm = require("vm");
const jobs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = [];
for (const job of jobs) {
  const html = fs.readFileSync(job.page, "utf8");
  const data = html.match(/<script type="application\/json" id="data">([\s\S]*?)<\/script>/)[1];
  const code = html.match(/<script>\n([\s\S]*?)<\/script>/)[1];
  const ctx = vm.createContext({});
  vm.runInContext(code, ctx);
  const W = ctx.WallPage, d = JSON.parse(data), P = W.prepare(d, d.steps[0]);
  const names = job.singles.map(s => W.slotName(d, s));
  const singles = job.singles.map(s => { const v = W.single(P, s); return [v.free, v.legal, v.cut]; });
  const pairs = job.pairs.map(ab => { const v = W.pair(P, ab[0], ab[1]); return [v.legal, v.cut]; });
  out.push({ names: names, singles: singles, pairs: pairs });
}
process.stdout.write(JSON.stringify(out));
"#;

/// The page's script (part 1, no DOM) run by node gives the same answers as the Rust
/// transcription, on pages written by the binary. Skips (saying so) without node.
#[test]
fn page_script_under_node_agrees() {
    if Command::new("node").arg("--version").output().is_err() {
        common::missing("node is not installed (apt-get install nodejs)");
        return;
    }
    let mut rng = ChaCha20Rng::seed_from_u64(0x6e6f6465);
    let mut jobs = Vec::new();
    let mut expect = Vec::new();
    for i in 0..150 {
        let pos = random_position(&mut rng, 9);
        let f = tmp(&format!("node{i}.json"));
        std::fs::write(&f, format::to_json_file(&pos, None)).unwrap();
        let out = tmp(&format!("node{i}.html"));
        let (c, _, e) = run(
            VERIFIER,
            &[
                "wall",
                "render",
                f.to_str().unwrap(),
                "--html",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(c, 0, "{e}");
        let page = std::fs::read_to_string(&out).unwrap();
        let d = page_json(&page);
        let pg = prepare(&d, &d["steps"][0]);
        let slots = all_slots(&pos);
        let pairs: Vec<(u32, u32)> = (0..200)
            .map(|_| {
                (
                    slots[rng.gen_range(0..slots.len())],
                    slots[rng.gen_range(0..slots.len())],
                )
            })
            .collect();
        let n = zkgames::wall::notation::Notation::for_position(&pos).unwrap();
        expect.push((
            slots
                .iter()
                .map(|&s| n.wall(wall_of_slot(pos.cols(), s)).unwrap())
                .collect::<Vec<_>>(),
            slots.iter().map(|&s| single(&pg, s)).collect::<Vec<_>>(),
            pairs
                .iter()
                .map(|&(a, b)| pair(&pg, a, b))
                .collect::<Vec<_>>(),
        ));
        jobs.push(serde_json::json!({"page": out, "singles": slots, "pairs": pairs}));
    }
    let jf = tmp("jobs.json");
    std::fs::write(&jf, serde_json::to_string(&jobs).unwrap()).unwrap();
    let hf = tmp("harness.js");
    std::fs::write(&hf, NODE_HARNESS).unwrap();
    let o = Command::new("node").arg(&hf).arg(&jf).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got: Value = serde_json::from_slice(&o.stdout).unwrap();
    let legal = |v: &Value| v.as_bool();
    let cut = |v: &Value| -> Vec<usize> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect()
    };
    let mut count = 0;
    for (g, (names, singles, pairs)) in got.as_array().unwrap().iter().zip(&expect) {
        let gn: Vec<String> = g["names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        assert_eq!(&gn, names, "standard notation of the slots");
        for (gs, s) in g["singles"].as_array().unwrap().iter().zip(singles) {
            assert_eq!(gs[0].as_bool().unwrap(), s.free);
            assert_eq!(legal(&gs[1]), s.legal);
            assert_eq!(cut(&gs[2]), s.cut);
            count += 1;
        }
        for (gp, v) in g["pairs"].as_array().unwrap().iter().zip(pairs) {
            assert_eq!(legal(&gp[0]), v.legal);
            assert_eq!(cut(&gp[1]), v.cut);
            count += 1;
        }
    }
    println!("node: {count} answers of the page's script agree");
}

// ---------- Headless Chromium ----------

fn chromium() -> Option<String> {
    for b in ["chromium", "chromium-browser", "google-chrome"] {
        if Command::new(b)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
        {
            return Some(b.to_string());
        }
    }
    None
}

fn chromium_run(bin: &str, profile: &Path, extra: &[&str], url: &str) -> std::process::Output {
    let mut args = vec![
        "--headless".to_string(),
        "--disable-gpu".to_string(),
        "--no-sandbox".to_string(),
        "--no-first-run".to_string(),
        "--hide-scrollbars".to_string(),
        format!("--user-data-dir={}", profile.display()),
        "--virtual-time-budget=3000".to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(url.to_string());
    Command::new(bin).args(&args).output().unwrap()
}

/// The script injected (in a copy of the page only): real mouse and keyboard events on the
/// SVG slots; the classes, computed colours and status line after each, written into the DOM.
const DRIVER: &str = r#"
<script>
window.addEventListener("load", function () { setTimeout(function () {
  const Q = __QUERIES__;
  const res = { singles: [], pairs: [], keys: [], errors: [] };
  const status = document.getElementById("status"), wrap = document.getElementById("boardwrap");
  const slot = n => document.querySelector('line.slot[data-name="' + n + '"]');
  const fire = (el, type) => el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window }));
  const key = k => wrap.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  const look = el => [el.getAttribute("class"), getComputedStyle(el).stroke, status.textContent];
  try {
    for (const n of Q.singles) { const e = slot(n); fire(e, "mouseover"); res.singles.push([n].concat(look(e))); }
    for (const ab of Q.pairs) {
      key("Escape");
      fire(slot(ab[0]), "click");
      fire(slot(ab[1]), "mouseover");
      const hover = look(slot(ab[1]));
      fire(slot(ab[1]), "click");
      const pinned = look(slot(ab[1]));
      res.pairs.push([ab[0], ab[1], hover, pinned, slot(ab[0]).getAttribute("class")]);
    }
    key("Escape");
    fire(document.getElementById("board"), "mouseleave");
    wrap.focus();
    for (const k of ["ArrowRight", "ArrowRight", "ArrowDown", "Enter", "ArrowLeft", "Escape"]) {
      key(k); res.keys.push([k, status.textContent, document.querySelectorAll("line.slot.sel").length]);
    }
    key("Escape");
    fire(slot(Q.show[0]), "click");
    fire(slot(Q.show[1]), "mouseover");
    res.shown = status.textContent;
    window.scrollTo(0, 0);
  } catch (e) { res.errors.push(String(e && e.stack || e)); }
  const pre = document.createElement("pre");
  pre.id = "test-result";
  pre.hidden = true;
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
}, 50); });
</script>
</body>"#;

/// Loads the page in headless Chromium, hovers illegal and legal slots, selects pairs, drives
/// the keyboard, compares colours and status lines with the Rust oracle, and takes a
/// screenshot with a selected wall and an illegal second wall under the pointer. CI installs
/// Debian's `chromium`; without it the test says it skipped.
#[test]
fn chromium_end_to_end() {
    let Some(bin) = chromium() else {
        common::missing("headless Chromium not found (apt-get install chromium)");
        return;
    };
    let src = p("puzzles/wall/cat-and-mouse-8x8.txt");
    let pos = format::read_position(&src).unwrap();
    let n = zkgames::wall::notation::Notation::for_position(&pos).unwrap();
    let bg = pos.graph();
    let np = distinct_node_pairs(&pos);
    let o = MoveOracle::build(&bg.graph, &np).unwrap();
    let name = |e: u32| n.wall(bg.wall_of(e)).unwrap();
    // a few dozen slots: every illegal single, and legal ones
    let mut singles: Vec<u32> = o.illegal_singles().collect();
    assert!(!singles.is_empty());
    singles.extend(o.legal_singles().step_by(4).take(25));
    let illegal2 = o.illegal_doubles();
    assert!(!illegal2.is_empty());
    let mut pairs: Vec<(u32, u32)> = illegal2.iter().copied().step_by(3).take(12).collect();
    let legal: Vec<u32> = o.legal_singles().collect();
    for i in 0..12 {
        let (a, b) = (
            legal[(i * 13) % legal.len()],
            legal[(i * 29 + 5) % legal.len()],
        );
        if a != b {
            pairs.push((a, b));
        }
    }
    let show = illegal2[illegal2.len() / 2];
    let queries = serde_json::json!({
        "singles": singles.iter().map(|&e| name(e)).collect::<Vec<_>>(),
        "pairs": pairs.iter().map(|&(a, b)| [name(a), name(b)]).collect::<Vec<_>>(),
        "show": [name(show.0), name(show.1)],
    });
    let out = tmp("e2e.html");
    let (c, _, e) = run(
        VERIFIER,
        &["wall", "render", &src, "--html", out.to_str().unwrap()],
    );
    assert_eq!(c, 0, "{e}");
    let page = std::fs::read_to_string(&out).unwrap();
    let driven = page.replacen(
        "</body>",
        &DRIVER.replace("__QUERIES__", &queries.to_string()),
        1,
    );
    let copy = tmp("e2e-driven.html");
    std::fs::write(&copy, driven).unwrap();
    let url = format!("file://{}", copy.display());
    let profile = tmp("chromium-profile");
    let o2 = chromium_run(&bin, &profile, &["--dump-dom"], &url);
    let dom = String::from_utf8_lossy(&o2.stdout).into_owned();
    let Some(i) = dom.find("<pre id=\"test-result\"") else {
        panic!(
            "no test result in the DOM: {}",
            String::from_utf8_lossy(&o2.stderr)
        );
    };
    let j = i + dom[i..].find("</pre>").unwrap();
    let i = i + dom[i..].find('>').unwrap() + 1;
    let raw = dom[i..j]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let res: Value = serde_json::from_str(&raw).expect("driver output");
    assert_eq!(res["errors"], serde_json::json!([]), "{res}");
    const GREEN: &str = "rgb(44, 160, 44)";
    const RED: &str = "rgb(214, 39, 40)";
    const BLUE: &str = "rgb(31, 119, 180)";
    for (r, &e) in res["singles"].as_array().unwrap().iter().zip(&singles) {
        let (class, colour, status) = (
            r[1].as_str().unwrap(),
            r[2].as_str().unwrap(),
            r[3].as_str().unwrap(),
        );
        let nm = name(e);
        if o.is_legal_single(e) {
            assert!(
                class.contains("legal") && !class.contains("illegal"),
                "{nm}: {class}"
            );
            assert_eq!(colour, GREEN, "{nm}");
            assert_eq!(status, format!("{nm}: legal"));
        } else {
            assert!(class.contains("illegal"), "{nm}: {class}");
            assert_eq!(colour, RED, "{nm}");
            assert!(
                status.starts_with(&format!("{nm}: illegal: it would cut player ")),
                "{status}"
            );
        }
    }
    for (r, &(a, b)) in res["pairs"].as_array().unwrap().iter().zip(&pairs) {
        let legal = o.is_legal_double(a, b);
        let (hover, pinned) = (&r[2], &r[3]);
        assert!(
            r[4].as_str().unwrap().contains("sel"),
            "first wall selected: {r}"
        );
        let (want_colour, word) = if legal {
            (GREEN, "legal together")
        } else {
            (RED, "illegal")
        };
        for st in [hover, pinned] {
            assert_eq!(st[1], want_colour, "{} + {}: {st}", name(a), name(b));
            assert!(st[2].as_str().unwrap().contains(word), "{st}");
        }
        if illegal2.contains(&(a.min(b), a.max(b))) {
            assert!(
                hover[2]
                    .as_str()
                    .unwrap()
                    .contains("illegal together: they would cut player"),
                "{hover}"
            );
        }
        let _ = BLUE;
    }
    let keys = res["keys"].as_array().unwrap();
    assert!(
        keys[0][1].as_str().unwrap().starts_with('^')
            || keys[0][1].as_str().unwrap().starts_with('>')
    );
    assert_ne!(keys[0][1], keys[1][1], "arrow keys move between slots");
    assert_eq!(keys[3][2], 1, "Enter selects");
    assert_eq!(keys[5][2], 0, "Escape clears");
    assert!(res["shown"].as_str().unwrap().contains("illegal together"));
    println!(
        "chromium: {} singles, {} pairs, keys ok",
        singles.len(),
        pairs.len()
    );
    // the screenshot: the driven state (a selected wall, an illegal second one hovered)
    let shot = tmp("wall-page.png");
    let o3 = chromium_run(
        &bin,
        &profile,
        &[
            "--window-size=760,540",
            &format!("--screenshot={}", shot.display()),
        ],
        &url,
    );
    assert!(
        o3.status.success(),
        "{}",
        String::from_utf8_lossy(&o3.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 5000);
    println!("screenshot: {}", shot.display());
    record_steps_in_browser(&bin, &profile);
    hostile_tags_inert(&bin, &profile);
    measure(&bin, &profile);
}

/// A record in the browser: the arrow keys (the board not focused) step through the moves,
/// and at every step the overlay colours slots by that step's oracle.
fn record_steps_in_browser(bin: &str, profile: &Path) {
    let src = p("puzzles/wall/standard-8x8-game.txt");
    let rec = zkgames::wall::record::parse(&std::fs::read(&src).unwrap()).unwrap();
    let mut games = vec![rec.start().clone()];
    for mv in rec.moves() {
        let next = games.last().unwrap().play(mv).unwrap();
        games.push(next);
    }
    // per step: every illegal single and a few legal slots, with the oracle's verdict
    let mut expect: Vec<Vec<(String, bool)>> = Vec::new();
    for g in &games {
        let pos = g.position();
        let n = zkgames::wall::notation::Notation::for_position(pos).unwrap();
        let bg = pos.graph();
        let o = MoveOracle::build(&bg.graph, &distinct_node_pairs(pos)).unwrap();
        let mut v: Vec<(String, bool)> = o
            .illegal_singles()
            .map(|e| (n.wall(bg.wall_of(e)).unwrap(), false))
            .collect();
        v.extend(
            o.legal_singles()
                .step_by(17)
                .map(|e| (n.wall(bg.wall_of(e)).unwrap(), true)),
        );
        expect.push(v);
    }
    assert!(expect.iter().any(|v| v.iter().any(|x| !x.1)));
    let names: Vec<Vec<&str>> = expect
        .iter()
        .map(|v| v.iter().map(|x| x.0.as_str()).collect())
        .collect();
    let driver = r#"
<script>
window.addEventListener("load", function () { setTimeout(function () {
  const N = __NAMES__, out = [];
  const body = document.body, cap = document.getElementById("caption");
  const slot = n => document.querySelector('line.slot[data-name="' + n + '"]');
  try {
    for (let k = 0; k < N.length; k++) {
      if (k > 0) body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true, cancelable: true }));
      const row = [cap.textContent, document.querySelectorAll("g.walls line").length];
      // every piece visible: the topmost element at its centre is the piece or its label,
      // and pieces sharing a cell do not overlap
      const pcs = Array.from(document.querySelectorAll("circle.piece")), seen = [];
      for (const c of pcs) {
        c.scrollIntoView({ block: "center", inline: "center" });
        const b = c.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
        const hit = document.elementFromPoint(x, y);
        const ok = hit === c || (!!hit && hit.tagName === "text" && hit.textContent === c.dataset.piece);
        let apart = true;
        for (const o of seen) {
          const dx = +c.getAttribute("cx") - +o.getAttribute("cx"), dy = +c.getAttribute("cy") - +o.getAttribute("cy");
          if (Math.hypot(dx, dy) < +c.getAttribute("r") + +o.getAttribute("r")) apart = false;
        }
        seen.push(c);
        row.push([c.dataset.piece, ok, apart]);
      }
      row.push("|");
      for (const n of N[k]) {
        const e = slot(n);
        e.dispatchEvent(new MouseEvent("mouseover", { bubbles: true, cancelable: true }));
        row.push(e.getAttribute("class"));
        row.push(document.getElementById("status").textContent);
      }
      if (N[k].length) {
        const e = slot(N[k][0]);
        e.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
        row.push(document.querySelectorAll("line.slot.sel").length);
        document.getElementById("boardwrap").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
      }
      document.getElementById("board").dispatchEvent(new MouseEvent("mouseleave"));
      out.push(row);
    }
  } catch (e) { out.push(["error", String(e)]); }
  const pre = document.createElement("pre");
  pre.id = "test-result";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}, 50); });
</script>
</body>"#
        .replace("__NAMES__", &serde_json::to_string(&names).unwrap());
    let out = tmp("record.html");
    let (c, _, e) = run(
        VERIFIER,
        &["wall", "render", &src, "--html", out.to_str().unwrap()],
    );
    assert_eq!(c, 0, "{e}");
    let page = std::fs::read_to_string(&out).unwrap();
    let copy = tmp("record-driven.html");
    std::fs::write(&copy, page.replacen("</body>", &driver, 1)).unwrap();
    let o = chromium_run(
        bin,
        profile,
        &["--dump-dom"],
        &format!("file://{}", copy.display()),
    );
    let dom = String::from_utf8_lossy(&o.stdout);
    let i = dom.find("<pre id=\"test-result\"").expect("driver output");
    let i = i + dom[i..].find('>').unwrap() + 1;
    let j = i + dom[i..].find("</pre>").unwrap();
    let raw = dom[i..j]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let got: Value = serde_json::from_str(&raw).unwrap();
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), games.len(), "{got:?}");
    let mut finished = false;
    for (k, (row, want)) in got.iter().zip(&expect).enumerate() {
        let caption = row[0].as_str().unwrap();
        assert!(
            caption.starts_with(&format!("step {k} of {}", games.len() - 1)),
            "{caption}"
        );
        assert_eq!(
            row[1].as_u64().unwrap() as usize,
            games[k].position().walls().len(),
            "walls drawn at step {k}"
        );
        let row = row.as_array().unwrap();
        let bar = row
            .iter()
            .position(|v| v == "|")
            .expect("pieces, then slots");
        // every piece drawn and visible, those sharing a cell side by side
        let pieces = &row[2..bar];
        let n_pieces = match games[k].position().setup() {
            Setup::Game { players, .. } => players
                .iter()
                .map(|p| 1 + p.mouse.is_some() as usize)
                .sum::<usize>(),
            Setup::Pairs(_) => 0,
        };
        assert_eq!(pieces.len(), n_pieces, "step {k}: {pieces:?}");
        for pc in pieces {
            assert_eq!(pc[1], true, "step {k}: {pc} is hidden under another piece");
            assert_eq!(pc[2], true, "step {k}: {pc} overlaps another piece");
        }
        let slots = &row[bar + 1..];
        if let Some(why) = games[k].describe_outcome() {
            // the game is over: the result, nobody to move, no wall offered or selectable
            assert!(
                caption.contains("game over, 1-0") && caption.contains(why.as_str()),
                "{caption}"
            );
            assert!(!caption.contains("to move"), "{caption}");
            for pair in slots[..slots.len() - 1].chunks(2) {
                let class = pair[0].as_str().unwrap();
                assert!(
                    !class.split(' ').any(|c| c == "legal" || c == "illegal"),
                    "step {k}: {class}"
                );
                assert!(
                    pair[1].as_str().unwrap().starts_with("Game over: 1-0"),
                    "{pair:?}"
                );
            }
            assert_eq!(slots.last().unwrap(), 0, "a click selects nothing");
            finished = true;
            continue;
        }
        assert!(caption.contains(" to move"), "{caption}");
        for (pair, (name, legal)) in slots.chunks(2).zip(want) {
            let class = pair[0].as_str().unwrap();
            assert_eq!(
                class.split(' ').any(|c| c == "legal"),
                *legal,
                "step {k} {name}: {class}"
            );
            assert_eq!(
                class.split(' ').any(|c| c == "illegal"),
                !*legal,
                "step {k} {name}"
            );
        }
    }
    assert!(
        finished,
        "the record ends with a catch, shown as the result"
    );
    println!(
        "chromium: {} steps of a record stepped with the arrow keys, overlay checked at each",
        games.len()
    );
}

/// Tag values full of markup are shown as text in the browser, and nothing in them runs.
fn hostile_tags_inert(bin: &str, profile: &Path) {
    let rec = tmp("hostile-browser.txt");
    std::fs::write(
        &rec,
        "[Board \"8x8\"]\n[Result \"*\"]\n[Event \"</script><script>document.title='pwned'</script>\"]\n[Player1 \"<img src=x onerror=\\\"document.title='pwned'\\\">\"]\n\n1. Cb8\n",
    )
    .unwrap();
    let out = tmp("hostile-browser.html");
    let (c, _, e) = run(
        VERIFIER,
        &[
            "wall",
            "render",
            rec.to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(c, 0, "{e}");
    let o = chromium_run(
        bin,
        profile,
        &["--dump-dom"],
        &format!("file://{}", out.display()),
    );
    let dom = String::from_utf8_lossy(&o.stdout);
    assert!(
        dom.contains("<title>Wall Game record, 8x8</title>"),
        "{dom}"
    );
    assert!(
        !dom.contains("pwned</title>") && !dom.contains("<img"),
        "{dom}"
    );
    assert!(
        dom.contains("<dd>&lt;/script&gt;&lt;script&gt;document.title='pwned'&lt;/script&gt;</dd>"),
        "{dom}"
    );
    assert!(
        dom.contains("step 0 of 1: start"),
        "the page's script ran: {dom}"
    );
}

/// Prints (never asserts: timings are not tests) each page's size and the time from
/// navigation start to the first frame after the page's script ran (two animation frames;
/// headless Chromium reports no paint timing entries), median of five loads, for an 8×8,
/// an 11×11 and a 20×20 position and a 17-move record.
fn measure(bin: &str, profile: &Path) {
    let mut rng = ChaCha20Rng::seed_from_u64(20);
    let big = loop {
        let mut walls = Vec::new();
        for r in 0..20 {
            for c in 0..20 {
                if r + 1 < 20 && rng.gen_bool(0.2) {
                    walls.push(Wall::new(r, c, Dir::D));
                }
                if c + 1 < 20 && rng.gen_bool(0.2) {
                    walls.push(Wall::new(r, c, Dir::R));
                }
            }
        }
        let pl = |cat, mouse| Player {
            cat,
            mouse: Some(mouse),
            goal: None,
        };
        let players = vec![pl((0, 0), (19, 0)), pl((0, 19), (19, 19))];
        let pos = Position::new(
            20,
            20,
            walls,
            Setup::Game {
                variant: Variant::CatAndMouse,
                players,
            },
        )
        .unwrap();
        if pos.is_valid() {
            break pos;
        }
    };
    let f20 = tmp("board20.json");
    std::fs::write(&f20, format::to_json_file(&big, None)).unwrap();
    let inputs = [
        ("8x8 position", p("puzzles/wall/cat-and-mouse-8x8.txt")),
        (
            "11x11 position",
            p("puzzles/wall/classic-11x11-opening.txt"),
        ),
        ("20x20 position", f20.to_string_lossy().into_owned()),
        (
            "8x8 record, 17 moves",
            p("puzzles/wall/standard-8x8-game.txt"),
        ),
    ];
    const PROBE: &str = r#"<script>
const t0 = performance.now();
requestAnimationFrame(function () { requestAnimationFrame(function () {
  console.log("TIMING " + t0.toFixed(1) + " " + performance.now().toFixed(1) + " " + (t0 - window.__t).toFixed(1));
}); });
</script>
</body>"#;
    for (label, input) in inputs {
        let out = tmp("measure.html");
        let (c, _, e) = run(
            VERIFIER,
            &["wall", "render", &input, "--html", out.to_str().unwrap()],
        );
        assert_eq!(c, 0, "{e}");
        let page = std::fs::read_to_string(&out).unwrap();
        let probe = tmp("measure-probe.html");
        let page2 = page.replacen(
            "<script>\n\"use strict\"",
            "<script>window.__t = performance.now();</script>\n<script>\n\"use strict\"",
            1,
        );
        assert_ne!(page2, page);
        std::fs::write(&probe, page2.replacen("</body>", PROBE, 1)).unwrap();
        let url = format!("file://{}", probe.display());
        let mut frames = Vec::new();
        let _warm_up = chromium_run_plain(bin, profile, &url);
        for _ in 0..5 {
            let o = chromium_run_plain(bin, profile, &url);
            let err = String::from_utf8_lossy(&o.stderr);
            if let Some(l) = err.lines().find_map(|l| l.split("TIMING ").nth(1)) {
                let v: Vec<f64> = l.split([' ', '"']).filter_map(|x| x.parse().ok()).collect();
                if v.len() >= 3 {
                    frames.push((v[0], v[1], v[2]));
                }
            }
        }
        if frames.is_empty() {
            println!(
                "measure: {label}: {} bytes (no timing reported)",
                page.len()
            );
            continue;
        }
        let stat = |f: fn(&(f64, f64, f64)) -> f64| {
            let mut v: Vec<f64> = frames.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            (v[0], v[v.len() / 2])
        };
        let (own_min, own_med) = stat(|x| x.2);
        let (frame_min, frame_med) = stat(|x| x.1);
        println!(
            "measure: {label}: {} bytes; the page's script runs {own_min:.1} ms (median {own_med:.1}); first frame {frame_min:.0} ms after navigation start (median {frame_med:.0})",
            page.len()
        );
    }
}

fn chromium_run_plain(bin: &str, profile: &Path, url: &str) -> std::process::Output {
    Command::new(bin)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            &format!("--user-data-dir={}", profile.display()),
            "--enable-logging=stderr",
            "--v=0",
            "--timeout=5000",
            "--dump-dom",
            url,
        ])
        .output()
        .unwrap()
}
