//! `verifier wall …`: check, analyse, render and convert Wall Game positions.
//!
//! POSITION is a file path or `-` for stdin, in the ASCII or JSON format of
//! [`crate::wall::format`] (auto-detected).
//!
//! Exit status: `check` exits 0 when every attached pair is connected, 1 when some pair is cut
//! (the message says which player's cat cannot reach what, with cells), 2 for bad input.
//! `analyze`, `render` and `convert` exit 0 whenever the position parses (the verdict of
//! `analyze` is in its report), 2 for bad input.

use clap::{Subcommand, ValueEnum};

use crate::proof_file::write_output;
use crate::wall::board::{Position, Wall, WallAnalysis};
use crate::wall::format::{self, read_position, wall_to_json};
use crate::wall::render;
use crate::{Error, Result};

/// How many illegal wall pairs the human summary of `analyze` lists.
const SUMMARY_PAIRS: usize = 20;

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Exit 0 if every attached pair is connected, 1 if some pair is cut (says which), 2 on bad input.
    Check {
        /// Position file (ASCII or JSON), or `-` for stdin.
        position: String,
    },
    /// Report the free slots, the illegal single walls and the illegal wall pairs.
    ///
    /// Exits 0 whenever the position parses, valid or not; an invalid position reports
    /// valid=false and empty illegal lists. Walls are [row, col, "R"|"D"], sorted by (row, col,
    /// dir) with "D" < "R"; in a pair the smaller wall comes first.
    ///
    /// Limits (exit 2 before any work): distinct attached pairs × cells at most 4,000,000
    /// (4 pairs on 1000x1000, 100 on 200x200); at most 5,000,000 illegal pairs listed.
    Analyze {
        /// Position file (ASCII or JSON), or `-` for stdin.
        position: String,
        /// Print one JSON object {"valid", "free", "illegal_single", "illegal_pairs"}.
        #[arg(long)]
        json: bool,
    },
    /// Draw the position on the terminal; optionally also as an SVG image.
    Render {
        /// Position file (ASCII or JSON), or `-` for stdin.
        position: String,
        /// Write an SVG image to FILE (`-`: stdout, instead of the terminal drawing).
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
        /// Highlight the free slots where a single wall would be illegal (× / red).
        #[arg(long)]
        illegal: bool,
    },
    /// Print the position in another text format.
    Convert {
        /// Position file (ASCII or JSON), or `-` for stdin.
        position: String,
        /// Output format: ascii, json (same form as the input's kind), pairs-json (explicit pairs).
        #[arg(long, value_enum, default_value_t = Form::Json)]
        to: Form,
    },
}

/// Output formats of `verifier wall convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    Ascii,
    Json,
    PairsJson,
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Check { position } => check(&read_position(&position)?),
        VerifierCmd::Analyze { position, json } => {
            let pos = read_position(&position)?;
            let a = pos.analyze()?;
            let out = if json {
                analysis_json(&a)
            } else {
                analysis_human(&pos, &a)
            };
            write_output("-", out.as_bytes())
        }
        VerifierCmd::Render {
            position,
            svg,
            illegal,
        } => {
            let pos = read_position(&position)?;
            let hl = if illegal {
                pos.illegal_single_walls()
            } else {
                Vec::new()
            };
            if svg.as_deref() != Some("-") {
                write_output("-", render::terminal(&pos, &hl).as_bytes())?;
            }
            if let Some(path) = svg {
                write_output(&path, render::svg(&pos, &hl).as_bytes())?;
            }
            Ok(())
        }
        VerifierCmd::Convert { position, to } => {
            let pos = read_position(&position)?;
            let out = match to {
                Form::Ascii => format::to_ascii(&pos),
                Form::Json => format::to_json(&pos),
                Form::PairsJson => format::to_pairs_json(&pos),
            };
            write_output("-", out.as_bytes())
        }
    }
}

fn check(pos: &Position) -> Result<()> {
    let cut = pos.cut_pairs(&pos.graph());
    if cut.is_empty() {
        match pos.attached_pairs().len() {
            1 => println!("valid: the attached pair is connected"),
            k => println!("valid: all {k} attached pairs are connected"),
        }
        Ok(())
    } else {
        let why: Vec<String> = cut.iter().map(|p| p.describe_cut()).collect();
        Err(Error::rejected(format!(
            "invalid position: {}",
            why.join("; ")
        )))
    }
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
        "{}x{} board, {} walls, {} free slots, {} attached pairs",
        pos.rows(),
        pos.cols(),
        pos.walls().len(),
        a.free.len(),
        pos.attached_pairs().len()
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
