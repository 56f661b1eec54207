//! The Wall Game in the browser: one self-contained HTML page (inline CSS and JavaScript, no
//! network access) that draws a position, or every step of a game record, and colours each
//! wall slot under the pointer by its legality, for single walls and for pairs, in O(1) per
//! hover.
//!
//! The page embeds, per step, each attached pair's public cut-oracle tables
//! ([`PairCut`]: `path_bridges`, `red`, `red_lo`, `red_hi`, `blue`), never a list of illegal
//! pairs (there can be quadratically many). At load the script derives the per-edge query
//! arrays exactly as [`PairCutBuilder::build_into`] does and answers with a line-by-line
//! transcription of [`PairCut::cuts`]. docs/PROTOCOLS.md §4.10 gives the JSON schema and the
//! formula; `tests/integration/wall_html.rs` evaluates that formula on the JSON against the Rust oracle
//! and brute force.
//!
//! Everything that comes from the input and is shown (tag values, captions) travels inside
//! the JSON (with `<`, `>` and `&` escaped as `\u003c`, `\u003e`, `\u0026`, so it cannot end
//! the script element) and is put on the page with `textContent` only.

use serde::Serialize;

use crate::board::{AttachedPair, Dir, PairRole, Position, Setup, Wall};
use crate::cut::double::{PairCut, PairCutBuilder};
use crate::game::Move;
use crate::notation::{Notation, MAX_COLS, MAX_ROWS};
use crate::record::Record;
use zkgames_core::Error;
use zkgames_core::Result;

const SCRIPT: &str = include_str!("assets/wall.js");
const STYLE: &str = include_str!("assets/wall.css");

/// The most oracle work one page embeds: steps × attached pairs × cells. A pair's tables
/// hold at most about six numbers per cell and the script's query arrays 32 bytes per cell,
/// so a page stays within a few tens of MB of JSON and 32 MB of arrays (a typical 8×8
/// record of 100 moves: 100 steps × 2 pairs × 64 cells = 12,800).
pub const MAX_PAGE_WORK: u64 = 1_000_000;

/// One board the page shows: a position and what to say about it.
#[derive(Clone, Debug)]
pub struct Step {
    pub position: Position,
    /// The player to move (0-based), if known.
    pub to_move: Option<usize>,
    /// One line shown above the board ("start", "3. Cc6 (player 1)", ...).
    pub caption: String,
    /// The step shows a sealed move before its opening (the board is the one before it).
    pub sealed: bool,
    /// The game is over at this step: its result ("1-0: player 1 wins: …"); no one is to
    /// move and the page offers no walls.
    pub result: Option<String>,
}

/// The embedded data: the whole page state (see docs/PROTOCOLS.md §4.10).
#[derive(Clone, Debug, Serialize)]
pub struct PageData {
    pub rows: u32,
    pub cols: u32,
    /// `"game"` (cats, mice, homes) or `"pairs"` (explicit attached pairs).
    pub kind: &'static str,
    /// Header lines shown above the board (a record's tags), `[name, value]`.
    pub tags: Vec<(String, String)>,
    pub steps: Vec<StepData>,
}

/// One step's board and oracle tables.
#[derive(Clone, Debug, Serialize)]
pub struct StepData {
    pub caption: String,
    pub sealed: bool,
    /// 0-based player to move, or `null`.
    pub to_move: Option<usize>,
    /// The result when the game is over at this step (then `to_move` is `null`), or `null`.
    pub result: Option<String>,
    /// Walled slots, as slot numbers `2 (r cols + c) + d` with `d` = 0 for D, 1 for R; sorted.
    pub walls: Vec<u32>,
    /// Pieces: `["C"|"M"|"G", player, r, c]`, or for explicit pairs `["P", i, r1, c1, r2, c2]`.
    pub marks: Vec<Vec<serde_json::Value>>,
    /// Every attached pair is connected (otherwise no wall is legal and `pairs` is empty).
    pub valid: bool,
    /// Why the position is invalid (empty when valid).
    pub invalid: String,
    /// One entry per distinct attached pair of two different cells.
    pub pairs: Vec<PairData>,
}

/// One attached pair's public oracle tables, edge ids over the step's free slots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairData {
    /// What the pair is, in standard notation: "player 1's cat on a8 from player 2's mouse on h1".
    pub text: String,
    /// `PairCut::path_bridges`: edges that cut the pair alone.
    pub bridges: Vec<u32>,
    /// `PairCut::red`, `red_lo`, `red_hi`, `blue`: red candidate `i` cuts with blue candidate
    /// `j` iff `red_lo[i] <= j < red_hi[i]`.
    pub red: Vec<u32>,
    pub red_lo: Vec<u32>,
    pub red_hi: Vec<u32>,
    pub blue: Vec<u32>,
}

impl PairData {
    fn from_cut(text: String, c: &PairCut) -> PairData {
        PairData {
            text,
            bridges: c.path_bridges.clone(),
            red: c.red.clone(),
            red_lo: c.red_lo.clone(),
            red_hi: c.red_hi.clone(),
            blue: c.blue.clone(),
        }
    }
}

/// The slot number of a wall: `2 (r cols + c) + d`, `d` = 0 for D, 1 for R.
pub fn slot_number(cols: u32, w: Wall) -> u32 {
    2 * (w.row * cols + w.col) + (w.dir == Dir::R) as u32
}

/// What a pair is, in standard notation, as the object of "would cut …".
pub fn pair_text(n: &Notation, p: &AttachedPair) -> String {
    let cell = |c| n.cell(c).unwrap_or_default();
    match p.role {
        PairRole::Explicit(i) => format!("pair {} ({} from {})", i + 1, cell(p.a), cell(p.b)),
        PairRole::Goal { player } => format!(
            "player {}'s cat on {} from its home on {}",
            player + 1,
            cell(p.a),
            cell(p.b)
        ),
        PairRole::Catch { cat, mouse } => format!(
            "player {}'s cat on {} from player {}'s mouse on {}",
            cat + 1,
            cell(p.a),
            mouse + 1,
            cell(p.b)
        ),
    }
}

/// Checks that the page can show this board (standard notation names every slot).
fn check_board(pos: &Position) -> Result<Notation> {
    if pos.rows() > MAX_ROWS || pos.cols() > MAX_COLS {
        return Err(Error::bad(format!(
            "the HTML page names slots in standard notation, which covers boards of up to {MAX_COLS} columns and {MAX_ROWS} rows, not {}x{} (cols x rows)",
            pos.cols(),
            pos.rows()
        )));
    }
    Notation::for_position(pos)
}

/// The distinct attached pairs of two different cells, first occurrence kept, in order.
fn distinct_pairs(pos: &Position) -> Vec<AttachedPair> {
    let mut seen = std::collections::HashSet::new();
    pos.attached_pairs()
        .into_iter()
        .filter(|p| {
            let (x, y) = (pos.node(p.a), pos.node(p.b));
            x != y && seen.insert((x.min(y), x.max(y)))
        })
        .collect()
}

/// One step's data: walls, pieces and, for a valid position, each pair's oracle tables.
pub fn step_data(step: &Step) -> Result<StepData> {
    let pos = &step.position;
    let n = check_board(pos)?;
    let cols = pos.cols();
    let walls = pos.walls().iter().map(|&w| slot_number(cols, w)).collect();
    let j = |x: u32| serde_json::Value::from(x);
    let mut marks = Vec::new();
    match pos.setup() {
        Setup::Game { players, .. } => {
            for (i, p) in players.iter().enumerate() {
                let i = i as u32;
                if let Some(g) = p.goal {
                    marks.push(vec!["G".into(), j(i), j(g.0), j(g.1)]);
                }
                marks.push(vec!["C".into(), j(i), j(p.cat.0), j(p.cat.1)]);
                if let Some(m) = p.mouse {
                    marks.push(vec!["M".into(), j(i), j(m.0), j(m.1)]);
                }
            }
        }
        Setup::Pairs(pairs) => {
            for (i, &(a, b)) in pairs.iter().enumerate() {
                marks.push(vec![
                    "P".into(),
                    j(i as u32),
                    j(a.0),
                    j(a.1),
                    j(b.0),
                    j(b.1),
                ]);
            }
        }
    }
    let bg = pos.graph();
    let cut = pos.cut_pairs(&bg);
    let mut out = StepData {
        caption: step.caption.clone(),
        sealed: step.sealed,
        to_move: step.to_move,
        result: step.result.clone(),
        walls,
        marks,
        valid: cut.is_empty(),
        invalid: String::new(),
        pairs: Vec::new(),
    };
    if !cut.is_empty() {
        let why: Vec<String> = cut.iter().take(3).map(|p| pair_text(&n, p)).collect();
        let more = match cut.len() {
            0..=3 => String::new(),
            k => format!(" (and {} more pairs)", k - 3),
        };
        out.invalid = format!(
            "invalid position: already cut off: {}{more}; no wall is legal",
            why.join("; ")
        );
        return Ok(out);
    }
    let pairs = distinct_pairs(pos);
    let mut builder = PairCutBuilder::for_roots(&bg.graph, pairs.iter().map(|p| pos.node(p.a)));
    for p in &pairs {
        let c = builder
            .build(pos.node(p.a), pos.node(p.b))
            .expect("the position is valid: every pair is connected");
        out.pairs.push(PairData::from_cut(pair_text(&n, p), &c));
    }
    Ok(out)
}

/// The page's data for a list of steps (at least one, all on one board of one kind).
/// Refuses boards beyond standard notation and more than [`MAX_PAGE_WORK`] pair-cells.
pub fn page_data(tags: &[(String, String)], steps: &[Step]) -> Result<PageData> {
    let first = steps
        .first()
        .ok_or_else(|| Error::bad("nothing to draw: no position"))?;
    let (rows, cols) = (first.position.rows(), first.position.cols());
    check_board(&first.position)?;
    let kind = match first.position.setup() {
        Setup::Game { .. } => "game",
        Setup::Pairs(_) => "pairs",
    };
    let cells = rows as u64 * cols as u64;
    let mut pairs = 0u64;
    for s in steps {
        if (s.position.rows(), s.position.cols()) != (rows, cols) {
            return Err(Error::bad("every step of a page must be on the same board"));
        }
        pairs = pairs.max(s.position.attached_pairs().len() as u64);
    }
    check_work(steps.len() as u64, pairs, cells)?;
    let steps = steps.iter().map(step_data).collect::<Result<Vec<_>>>()?;
    Ok(PageData {
        rows,
        cols,
        kind,
        tags: tags.to_vec(),
        steps,
    })
}

/// Refuses a page of more than [`MAX_PAGE_WORK`] pair-cells: `steps` × `pairs` × `cells`.
fn check_work(steps: u64, pairs: u64, cells: u64) -> Result<()> {
    let work = steps.saturating_mul(pairs).saturating_mul(cells);
    if work > MAX_PAGE_WORK {
        return Err(Error::bad(format!(
            "the page would embed the oracle of {work} pair-cells ({steps} steps x {pairs} attached pairs x {cells} cells), over the limit of {MAX_PAGE_WORK}"
        )));
    }
    Ok(())
}

/// The data as JSON safe inside a `<script>` element: `<`, `>` and `&` (which JSON only
/// holds inside strings) are written as `\u003c`, `\u003e`, `\u0026`.
pub fn data_json(d: &PageData) -> String {
    serde_json::to_string(d)
        .expect("plain data serializes")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// Escapes text for HTML element content and attribute values.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The whole page.
pub fn page(title: &str, d: &PageData) -> String {
    let title = html_escape(title);
    let json = data_json(d);
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{title}</title>
<style>
{STYLE}</style>
</head>
<body>
<h1>{title}</h1>
<dl id="tags"></dl>
<div id="steps" hidden>
<button type="button" id="first" title="first step (Home)">&#xAB;</button>
<button type="button" id="prev" title="previous step (PageUp, or the arrow keys off the board)">&#x2039;</button>
<button type="button" id="next" title="next step (PageDown, or the arrow keys off the board)">&#x203A;</button>
<button type="button" id="last" title="last step (End)">&#xBB;</button>
<select id="movelist" size="1" aria-label="step"></select>
</div>
<p id="caption"></p>
<div id="boardwrap" tabindex="0" aria-label="board: arrow keys move between wall slots, Enter selects, Escape clears"><svg id="board" role="img"></svg></div>
<p id="status" role="status" aria-live="polite"></p>
<div id="legend">
<p><span class="sw legal"></span> legal wall <span class="sw illegal"></span> illegal wall (the status line says which cat it would cut from what) <span class="sw sel"></span> selected first wall: the next slot is coloured by the legality of the pair <span class="sw wall"></span> wall</p>
<p>Mouse: hover a slot to test it, click to select it as the first wall, click a second slot to pin the pair. Keyboard (click the board or Tab to it): arrow keys move between slots, Enter selects, Escape clears. Steps of a game: the buttons, the move list, the arrow keys while the board does not have the focus, PageUp / PageDown, Home / End.</p>
<p>Legality is that of a wall placed on the board as shown (before any pawn move of the mover). Cats are filled circles (C1, C2, &#8230;), mice rings (M1, &#8230;), homes squares (G1, &#8230;), explicit pairs numbered circles joined by a dashed line.</p>
</div>
<script type="application/json" id="data">{json}</script>
<script>
{SCRIPT}</script>
</body>
</html>
"#
    )
}

/// The steps of a position file: one step.
pub fn position_steps(pos: &Position, to_move: Option<usize>) -> Vec<Step> {
    vec![Step {
        position: pos.clone(),
        to_move,
        caption: String::new(),
        sealed: false,
        result: None,
    }]
}

/// How a record's sealed moves are to be shown (already verified by the caller).
#[derive(Clone, Debug, Default)]
pub struct Seals {
    /// Plies (1-based) of the record that were sealed, then opened to the recorded move.
    pub opened: Vec<usize>,
    /// A sealed move after the last recorded one: `Some(None)` not opened yet (the game is
    /// adjourned), `Some(Some(mv))` opened to `mv`.
    pub adjourned: Option<Option<Move>>,
}

/// The steps of a record: the start, then one step per ply; a sealed ply shows first as
/// sealed (the board before it), then as played. Illegal moves are a rejection.
pub fn record_steps(rec: &Record, seals: &Seals) -> Result<Vec<Step>> {
    let start = rec.start();
    let pos = start.position();
    let n = Notation::for_position(pos)?;
    let np = start.players().len();
    // Bound the work (and the positions kept) before building any step.
    let count = 1
        + rec.moves().len()
        + seals.opened.len()
        + match seals.adjourned {
            Some(Some(_)) => 2,
            Some(None) => 1,
            None => 0,
        };
    check_work(
        count as u64,
        pos.attached_pairs().len() as u64,
        pos.rows() as u64 * pos.cols() as u64,
    )?;
    let mut steps = vec![Step {
        position: pos.clone(),
        to_move: Some(start.to_move()),
        caption: "start".to_string(),
        sealed: false,
        result: None,
    }];
    let mut g = start.clone();
    let plies = rec.moves().len();
    let extra = match &seals.adjourned {
        Some(Some(mv)) => Some(mv),
        _ => None,
    };
    for (i, mv) in rec.moves().iter().chain(extra).enumerate() {
        let k = i + 1;
        let (number, player) = (i / np + 1, g.to_move());
        let name = n.write_move(mv).unwrap_or_default();
        let sealed = k > plies || seals.opened.contains(&k);
        if sealed {
            steps.push(Step {
                position: g.position().clone(),
                to_move: Some(player),
                caption: format!(
                    "{number}. player {}: sealed move (hidden until its opening)",
                    player + 1
                ),
                sealed: true,
                result: None,
            });
        }
        g = g
            .after(player, mv)
            .map_err(|e| Error::rejected(format!("move {k}: {e}")))?;
        let after = if k > plies {
            " (opened after the record)"
        } else if sealed {
            " (opened)"
        } else {
            ""
        };
        let result = g
            .describe_outcome()
            .map(|why| format!("{}: {why}", g.result_text()));
        steps.push(Step {
            position: g.position().clone(),
            to_move: if result.is_some() {
                None
            } else {
                Some(g.to_move())
            },
            caption: format!("{number}. player {}: {name}{after}", player + 1),
            sealed: false,
            result,
        });
    }
    // a game the board does not end (resigned, lost on time, agreed): the record's result
    if seals.adjourned.is_none() {
        if let (Some(last), Some(r)) = (steps.last_mut(), rec.tag("Result")) {
            if last.result.is_none() && r != "*" && plies > 0 {
                last.result = Some(match rec.tag("Termination") {
                    Some(t) => format!("{r} ({t})"),
                    None => r.to_string(),
                });
                last.to_move = None;
            }
        }
    }
    if let Some(None) = seals.adjourned {
        let player = g.to_move();
        steps.push(Step {
            position: g.position().clone(),
            to_move: Some(player),
            caption: format!(
                "{}. player {}: sealed move, not yet opened: the game is adjourned",
                plies / np + 1,
                player + 1
            ),
            sealed: true,
            result: None,
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    #[test]
    fn json_cannot_close_the_script() {
        let p = parse(b"+---+---+\n| .   . |\n+---+---+\npair: 0,0 0,1\n").unwrap();
        let tags = vec![("Event".to_string(), "</script><b>&".to_string())];
        let d = page_data(&tags, &position_steps(&p, None)).unwrap();
        let j = data_json(&d);
        assert!(!j.contains('<') && !j.contains('>') && !j.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(back["tags"][0][1], "</script><b>&");
        let html = page("a <b> title", &d);
        assert!(html.contains("<title>a &lt;b&gt; title</title>"));
        assert_eq!(html.matches("</script>").count(), 2);
    }

    #[test]
    fn slot_numbers_follow_edge_order() {
        let p =
            parse(b"+---+---+---+\n| .   . | . |\n+   +---+   +\n| .   .   . |\n+---+---+---+\n")
                .unwrap();
        let bg = p.graph();
        let nums: Vec<u32> = bg.free().iter().map(|&w| slot_number(3, w)).collect();
        assert!(nums.windows(2).all(|w| w[0] < w[1]));
    }
}
