//! `verifier wall …`: check positions and moves, replay game records, analyse, render and
//! convert Wall Game positions, and translate between the two spellings of cells, walls and moves.
//!
//! POSITION is a file path or `-` for stdin: a position in the ASCII or JSON format of
//! [`crate::wall::format`], or a game record ([`crate::wall::record`]) standing for its final
//! position with the next player to move (auto-detected: a record starts with a tag line).
//!
//! Exit status: `check` exits 0 when every attached pair is connected, 1 when some pair is cut
//! (the message says which player's cat cannot reach what, with cells), 2 for bad input. With
//! `--move`, `check` exits 0 for a legal move, 1 for an illegal one (one line: which action,
//! which rule), 2 for bad input (a malformed move, a cell off the board, a finished game).
//! `replay` exits 0 when every move is legal, 1 at the first illegal move (its number, player
//! and rule), 2 for a malformed record. `analyze`, `render`, `convert` and `notation` exit 0
//! whenever their input parses (the verdict of `analyze` is in its report), 2 for bad input;
//! every command exits 1 when a record given as POSITION holds an illegal move.

use clap::{Subcommand, ValueEnum};

use crate::cli::report::{self, emit, JsonArg};
use crate::proof_file::{read_input, write_output};
use crate::wall::board::{Cell, Dir, Position, Wall, WallAnalysis};
use crate::wall::format::{self, short, wall_to_json};
use crate::wall::game::Status;
use crate::wall::notation::{move_name, move_to_json, parse_move_json, Notation};
use crate::wall::record::{self, read_source, Record, Source};
use crate::wall::render;
use crate::Error;
use crate::Result;
use serde_json::json;

/// How many illegal wall pairs the human summary of `analyze` lists.
const SUMMARY_PAIRS: usize = 20;

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    #[command(flatten)]
    Seal(crate::cli::wall_seal::VerifierCmd),
    /// Without --move: exit 0 if every attached pair is connected, 1 if some pair is cut. With
    /// --move: exit 0 if the move is legal, 1 if not (says which action breaks which rule).
    /// Exit 2 on bad input.
    Check(CheckArgs),
    /// Check every move of a game record and print the final position (and the result when the
    /// game ended). Exit 1 at the first illegal move.
    Replay(ReplayArgs),
    /// Report the free slots, the illegal single walls and the illegal wall pairs.
    ///
    /// Exits 0 whenever the position parses, valid or not; an invalid position reports
    /// valid=false and empty illegal lists. Walls are [row, col, "R"|"D"], sorted by (row, col,
    /// dir) with "D" < "R"; in a pair the smaller wall comes first.
    ///
    /// Limits (exit 2 before any work): distinct attached pairs × cells at most 4,000,000
    /// (4 pairs on 1000x1000, 100 on 200x200); at most 5,000,000 illegal pairs listed.
    Analyze(AnalyzeArgs),
    /// Draw the position on the terminal; optionally also as an SVG image or an interactive
    /// HTML page (a game record: every move).
    Render(RenderArgs),
    /// Print the position in another text format.
    Convert(ConvertArgs),
    /// Translate cells, walls and moves between standard notation and the project's spelling,
    /// on POSITION's board: `e4` <-> `(4, 4)`, `>e4` <-> `[4, 4, "R"]`, `Ce4.^e4` <-> `{"cat": …}`.
    Notation(NotationArgs),
}

/// The arguments of `verifier wall check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Position file (ASCII or JSON) or game record, or `-` for stdin.
    position: String,
    /// A move in standard notation (`Ce4.>f3`, `---` for none), or in the project's JSON
    /// spelling (`{"cat": [4, 4], "walls": [[5, 5, "R"]]}`).
    #[arg(long = "move", value_name = "MOVE", allow_hyphen_values = true)]
    mv: Option<String>,
    /// The player making the move (1-based; in a ring, 1 to 3 or 4). Default: the player to
    /// move (a record's next player, a position's `to-move`, else player 1).
    #[arg(long, value_name = "K", requires = "mv")]
    player: Option<u64>,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier wall replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Game record file, or `-` for stdin.
    game: String,
    /// Folder of sealed moves: K.seal (and K.open once opened) for ply K, checked
    /// against the position before it. Default: the record's `Seals` tag, relative to
    /// the record's folder.
    #[arg(long, value_name = "DIR")]
    seals: Option<String>,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier wall analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// Position file (ASCII or JSON) or game record, or `-` for stdin.
    position: String,
    /// Print one JSON object {"valid", "free", "illegal_single", "illegal_pairs"}.
    #[arg(long)]
    json: bool,
}

/// The arguments of `verifier wall render`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// Position file (ASCII or JSON) or game record, or `-` for stdin.
    position: String,
    /// Write an SVG image to FILE (`-`: stdout, instead of the terminal drawing).
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Highlight the free slots where a single wall would be illegal (× / red).
    #[arg(long)]
    illegal: bool,
    /// Write an interactive HTML page to FILE (`-`: stdout): hovering a slot colours it by
    /// the legality of that wall (or, after a click, of the pair); a game record steps
    /// through its moves.
    #[arg(long, value_name = "FILE")]
    html: Option<String>,
    /// With --html and a game record: the folder of its sealed moves (default: the
    /// record's `Seals` tag, relative to the record's folder), verified as `replay` does
    /// (exit 1 when a seal or an opening does not verify).
    #[arg(long, value_name = "DIR", requires = "html")]
    seals: Option<String>,
    /// Also print the terminal drawing when --svg or --html writes a file (without them
    /// it is what `render` prints).
    #[arg(long)]
    text: bool,
}

/// The arguments of `verifier wall convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Position file (ASCII or JSON) or game record, or `-` for stdin.
    position: String,
    /// Output format: ascii, json (same form as the input's kind), pairs-json (explicit
    /// pairs), record (a game record: a record is rewritten, a position becomes a record
    /// with no moves).
    #[arg(long, value_enum, default_value_t = Form::Json)]
    to: Form,
}

/// The arguments of `verifier wall notation`.
#[derive(clap::Args, Debug)]
pub struct NotationArgs {
    /// Position file or game record giving the board size, or `-` for stdin.
    position: String,
    /// Items to translate, each in either spelling.
    #[arg(required = true, allow_hyphen_values = true)]
    items: Vec<String>,
}

/// Output formats of `verifier wall convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    Ascii,
    Json,
    PairsJson,
    Record,
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Seal(c) => crate::cli::wall_seal::run_verifier(c),
        VerifierCmd::Check(a) => check_cmd(a),
        VerifierCmd::Replay(a) => replay_cmd(a),
        VerifierCmd::Analyze(a) => analyze(a),
        VerifierCmd::Render(a) => render(a),
        VerifierCmd::Convert(a) => convert(a),
        VerifierCmd::Notation(a) => notation(a),
    }
}

/// `verifier wall check`: a position, or a move from it.
fn check_cmd(
    CheckArgs {
        position,
        mv,
        player,
        out,
    }: CheckArgs,
) -> Result<()> {
    let json = out.enable();
    let src = read_source(&position)?;
    match mv {
        None => check(src.position(), json),
        Some(mv) => check_move(&src, &mv, player, json),
    }
}

/// `verifier wall replay`.
fn replay_cmd(ReplayArgs { game, seals, out }: ReplayArgs) -> Result<()> {
    let json = out.enable();
    replay(&game, seals.as_deref(), json)
}

/// `verifier wall analyze`.
fn analyze(AnalyzeArgs { position, json }: AnalyzeArgs) -> Result<()> {
    report::enable_json(json);
    let src = read_source(&position)?;
    let pos = src.position();
    let a = pos.analyze()?;
    let out = if json {
        analysis_json(&a)
    } else {
        analysis_human(pos, &a)
    };
    write_output("-", out.as_bytes())
}

/// `verifier wall render`.
fn render(
    RenderArgs {
        position,
        svg,
        illegal,
        html,
        seals,
        text,
    }: RenderArgs,
) -> Result<()> {
    if svg.as_deref() == Some("-") && html.as_deref() == Some("-") {
        return Err(Error::bad(
            "--svg - and --html - cannot both write to stdout",
        ));
    }
    let src = read_source(&position)?;
    let pos = src.position();
    let hl = if illegal {
        pos.illegal_single_walls()
    } else {
        Vec::new()
    };
    let page = match &html {
        Some(_) => Some(crate::cli::wall_html::page(
            &src,
            &position,
            seals.as_deref(),
        )?),
        None => None,
    };
    let to_stdout = svg.as_deref() == Some("-") || html.as_deref() == Some("-");
    if text && to_stdout {
        return Err(Error::bad(
            "--text prints the drawing on stdout, where --svg - or --html - already writes",
        ));
    }
    if text || (svg.is_none() && html.is_none()) {
        write_output("-", render::terminal(pos, &hl).as_bytes())?;
    }
    if let Some(path) = svg {
        write_output(&path, render::svg(pos, &hl).as_bytes())?;
        if path != "-" {
            eprintln!("verifier: wrote {path} (an SVG drawing of the board)");
        }
    }
    if let (Some(path), Some(page)) = (html, page) {
        write_output(&path, page.as_bytes())?;
        if path != "-" {
            eprintln!(
                "verifier: wrote {path} ({} KB): open it in a browser; hovering a wall \
                 slot shows whether it is legal",
                page.len().div_ceil(1000)
            );
        }
    }
    Ok(())
}

/// `verifier wall convert`.
fn convert(ConvertArgs { position, to }: ConvertArgs) -> Result<()> {
    let src = read_source(&position)?;
    let pos = src.position();
    let out = match to {
        Form::Ascii => format::to_ascii_file(pos, src.to_move()),
        Form::Json => format::to_json_file(pos, src.to_move()),
        Form::PairsJson => format::to_pairs_json(pos),
        Form::Record => match &src {
            Source::Record { record, .. } => record.to_text(),
            Source::File(_) => Record::from_game(&src.game()?, Vec::new())?.to_text(),
        },
    };
    write_output("-", out.as_bytes())
}

/// `verifier wall notation`.
fn notation(NotationArgs { position, items }: NotationArgs) -> Result<()> {
    let src = read_source(&position)?;
    let n = Notation::for_position(src.position())?;
    let mut out = String::new();
    for item in &items {
        out.push_str(&format!("{} = {}\n", item.trim(), translate(&n, item)?));
    }
    write_output("-", out.as_bytes())
}

fn check(pos: &Position, json: bool) -> Result<()> {
    let cut = pos.cut_pairs(&pos.graph());
    if cut.is_empty() {
        let k = pos.attached_pairs().len();
        emit(
            json,
            match k {
                1 => "valid: the attached pair is connected".to_string(),
                k => format!("valid: all {k} attached pairs are connected"),
            },
            report::verdict("valid", json!({ "attached_pairs": k })),
        );
        Ok(())
    } else {
        let why: Vec<String> = cut.iter().map(|p| p.describe_cut()).collect();
        Err(Error::rejected(format!(
            "invalid position: {}",
            why.join("; ")
        )))
    }
}

/// Parses a move in standard notation, or in the JSON spelling when it starts with `{`.
fn parse_any_move(pos: &Position, s: &str) -> Result<crate::wall::game::Move> {
    if s.trim_start().starts_with('{') {
        parse_move_json(s)
    } else {
        Notation::for_position(pos)?.parse_move(s)
    }
}

fn check_move(src: &Source, mv: &str, player: Option<u64>, json: bool) -> Result<()> {
    let game = src.game()?;
    let n = game.players().len();
    let player = match player {
        None => game.to_move(),
        Some(k) if (1..=n as u64).contains(&k) => k as usize - 1,
        Some(k) => {
            return Err(Error::bad(format!(
                "--player {k}: the game has players 1 to {n}"
            )))
        }
    };
    if let Status::Over(_) = game.status() {
        return Err(Error::bad(format!(
            "the game is over ({}: {}); no move can follow",
            game.result_text(),
            game.describe_outcome().unwrap_or_default()
        )));
    }
    let pos = game.position();
    let mv = parse_any_move(pos, mv)?;
    let name = move_name(pos.rows(), pos.cols(), &mv);
    match game.after(player, &mv) {
        Ok(next) => {
            let outcome = next.describe_outcome();
            let human = match &outcome {
                Some(o) => format!(
                    "legal: {name} by player {}; it ends the game {}: {o}",
                    player + 1,
                    next.result_text()
                ),
                None => format!("legal: {name} by player {}", player + 1),
            };
            let obj = report::verdict(
                "legal",
                json!({
                    "move": name,
                    "move_json": json_value(&move_to_json(&mv)),
                    "player": player + 1,
                    "result": outcome.as_ref().map(|_| next.result_text()),
                    "outcome": outcome,
                    "position": json_value(&format::to_json_file(next.position(), Some(next.to_move()))),
                }),
            );
            emit(json, human, obj);
            Ok(())
        }
        Err(why) => Err(Error::rejected(format!(
            "illegal move {name} by player {}: {why}",
            player + 1
        ))),
    }
}

fn replay(path: &str, seals: Option<&str>, json: bool) -> Result<()> {
    let bytes = read_input(path, format::MAX_FILE)?;
    let shown = if path == "-" { "<stdin>" } else { path };
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    if !record::looks_like_record(&text) {
        return Err(Error::bad(format!(
            "{shown}: not a game record (a record starts with a tag line such as [Board \"8x8\"])"
        )));
    }
    let name = |e: Error| match e {
        Error::BadInput(m) => Error::bad(format!("{shown}: {m}")),
        Error::Rejected(m) => Error::rejected(format!("{shown}: {m}")),
        other => other,
    };
    let rec = record::parse(&bytes).map_err(name)?;
    let mut end = rec.replay().map_err(|e| name(e.into()))?;
    let plies = rec.moves().len();
    let mut out = format!(
        "# {shown}: {plies} move{} replayed, all legal\n",
        if plies == 1 { "" } else { "s" }
    );
    let dir = match (seals, rec.tag("Seals")) {
        (Some(d), _) => Some(std::path::PathBuf::from(d)),
        (None, Some(t)) if path != "-" => Some(
            std::path::Path::new(path)
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join(t),
        ),
        (None, Some(_)) => {
            return Err(Error::bad(
                "a record read from stdin cannot name its Seals folder: give --seals DIR",
            ))
        }
        (None, None) => None,
    };
    let mut seal_lines = Vec::new();
    if let Some(dir) = dir {
        let ctx = rec.tag("SealContext").unwrap_or("");
        let (lines, after) = crate::cli::wall_seal::check_record_seals(&rec, &dir, ctx)?;
        out.push_str(&lines);
        seal_lines = lines
            .lines()
            .map(|l| l.trim_start_matches("# ").to_string())
            .collect();
        if let Some(g) = after {
            end = g;
        }
    }
    let (result, why, to_move) = match end.describe_outcome() {
        Some(o) => (end.result_text(), Some(o), None),
        None => {
            let tag = rec.tag("Result").unwrap_or("*");
            if tag != "*" {
                let t = rec.tag("Termination").unwrap_or("not on the board");
                (tag.to_string(), Some(t.to_string()), None)
            } else {
                ("*".to_string(), None, Some(end.to_move() + 1))
            }
        }
    };
    match (&why, to_move) {
        (Some(o), _) if end.describe_outcome().is_some() => {
            out.push_str(&format!("# result {result}: {o}\n"))
        }
        (Some(t), _) => out.push_str(&format!("# result {result} ({t})\n")),
        (None, Some(k)) => out.push_str(&format!("# the game goes on: player {k} to move\n")),
        (None, None) => {}
    }
    if json {
        let obj = report::verdict(
            "legal",
            json!({
                "plies": plies,
                "result": result,
                "termination": why,
                "to_move": to_move,
                "seals": seal_lines,
                "position": json_value(&format::to_json_file(end.position(), Some(end.to_move()))),
            }),
        );
        println!("{obj}");
        return Ok(());
    }
    out.push_str(&format::to_ascii_file(end.position(), Some(end.to_move())));
    write_output("-", out.as_bytes())
}

/// A JSON text this crate produced, as a value (`null` if it somehow does not parse).
fn json_value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// Translates one item between standard notation and the project's spelling.
fn translate(n: &Notation, item: &str) -> Result<String> {
    let t = item.trim();
    let first = t.chars().next().unwrap_or(' ');
    let cell_of = |c: Cell| {
        n.cell(c)
            .ok_or_else(|| Error::bad(format!("cell ({}, {}) is off the board", c.0, c.1)))
    };
    let wall_of = |w: Wall| {
        n.wall(w)
            .ok_or_else(|| Error::bad(format!("wall {w} is off the board or on its border")))
    };
    if first == '{' {
        let mv = parse_move_json(t)?;
        return n
            .write_move(&mv)
            .ok_or_else(|| Error::bad(format!("move {}: a part is off the board", short(t))));
    }
    if first == '[' {
        let (r, c, d): (u32, u32, String) = serde_json::from_str(t).map_err(|e| {
            Error::bad(format!(
                "{}: not a wall [ROW, COL, \"R\" or \"D\"] ({})",
                short(t),
                crate::files::json_error(&e)
            ))
        })?;
        let dir = match d.as_str() {
            "R" => Dir::R,
            "D" => Dir::D,
            _ => {
                return Err(Error::bad(format!(
                    "{:?}: direction must be R or D",
                    short(t)
                )))
            }
        };
        return wall_of(Wall::new(r, c, dir));
    }
    if first == '(' || first.is_ascii_digit() {
        let inner = t.trim_start_matches('(').trim_end_matches(')');
        let parts: Vec<&str> = inner.split(',').map(|p| p.trim()).collect();
        let num = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| Error::bad(format!("{:?}: bad coordinate {:?}", short(t), short(s))))
        };
        return match parts.as_slice() {
            [r, c] => cell_of((num(r)?, num(c)?)),
            [r, c, d] => {
                let dir = match *d {
                    "R" => Dir::R,
                    "D" => Dir::D,
                    _ => {
                        return Err(Error::bad(format!(
                            "{:?}: direction must be R or D",
                            short(t)
                        )))
                    }
                };
                wall_of(Wall::new(num(r)?, num(c)?, dir))
            }
            _ => Err(Error::bad(format!(
                "{:?}: expected ROW,COL or ROW,COL,R|D",
                short(t)
            ))),
        };
    }
    if first.is_ascii_lowercase() {
        let (r, c) = n.parse_cell(t)?;
        return Ok(format!("({r}, {c})"));
    }
    if (first == '>' || first == '^') && !t.contains('.') {
        return Ok(wall_to_json(n.parse_wall(t)?));
    }
    Ok(move_to_json(&n.parse_move(t)?))
}

fn list(walls: &[Wall]) -> String {
    let v: Vec<String> = walls.iter().map(|&w| wall_to_json(w)).collect();
    format!("[{}]", v.join(", "))
}

/// The `--json` report: exactly the keys valid, free, illegal_single, illegal_pairs.
pub fn analysis_json(a: &WallAnalysis) -> String {
    let pairs: Vec<String> = a
        .illegal_pairs
        .iter()
        .map(|&(x, y)| format!("[{}, {}]", wall_to_json(x), wall_to_json(y)))
        .collect();
    format!(
        "{{\"valid\": {}, \"free\": {}, \"illegal_single\": {}, \"illegal_pairs\": [{}]}}\n",
        a.valid,
        list(&a.free),
        list(&a.illegal_single),
        pairs.join(", ")
    )
}

fn analysis_human(pos: &Position, a: &WallAnalysis) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}x{} board, {}, {}, {}",
        pos.rows(),
        pos.cols(),
        crate::files::count(pos.walls().len() as u64, "wall"),
        crate::files::count(a.free.len() as u64, "free slot"),
        crate::files::count(pos.attached_pairs().len() as u64, "attached pair")
    );
    if !a.valid {
        let _ = writeln!(s, "INVALID position:");
        for p in &a.cut {
            let _ = writeln!(s, "  {}", p.describe_cut());
        }
        return s;
    }
    let _ = writeln!(s, "valid: every attached pair is connected");
    let _ = writeln!(
        s,
        "{} illegal single walls (each alone would cut a pair): {}",
        a.illegal_single.len(),
        list(&a.illegal_single)
    );
    let _ = writeln!(
        s,
        "{} illegal wall pairs (legal alone, illegal together)",
        a.illegal_pairs.len()
    );
    for &(x, y) in a.illegal_pairs.iter().take(SUMMARY_PAIRS) {
        let _ = writeln!(s, "  {} + {}", wall_to_json(x), wall_to_json(y));
    }
    if a.illegal_pairs.len() > SUMMARY_PAIRS {
        let _ = writeln!(
            s,
            "  ... and {} more (use --json for all)",
            a.illegal_pairs.len() - SUMMARY_PAIRS
        );
    }
    s
}
