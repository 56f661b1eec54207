//! `verifier wall render POSITION --html FILE`: the interactive page of [`crate::wall::html`]
//! for a position file (one board) or a game record (every step, sealed moves shown sealed
//! until their opening; the seals are verified first, as `verifier wall replay` does).

use std::path::{Path, PathBuf};

use crate::proof_file::read_input;
use crate::wall::html::{self, Seals};
use crate::wall::record::{Record, Source};
use crate::wall::seal::{self, MoveStatement};
use crate::Error;
use crate::Result;

/// Largest seal or opening file read (as `wall replay`).
const MAX_SEAL_FILE: u64 = 16 << 20;

/// The page for what `path` holds; `seals` overrides a record's `Seals` tag.
pub fn page(src: &Source, path: &str, seals: Option<&str>) -> Result<String> {
    let pos = src.position();
    let board = format!("{}x{}", pos.cols(), pos.rows());
    match src {
        Source::File(_) => {
            if seals.is_some() {
                return Err(Error::bad(
                    "--seals needs a game record, not a position file",
                ));
            }
            let d = html::page_data(&[], &html::position_steps(pos, src.to_move()))?;
            Ok(html::page(&format!("Wall Game position, {board}"), &d))
        }
        Source::Record { record, end } => {
            let marks = match seals_dir(record, path, seals)? {
                Some(dir) => seal_marks(record, end, &dir)?,
                None => Seals::default(),
            };
            let steps = html::record_steps(record, &marks)?;
            let d = html::page_data(record.tags(), &steps)?;
            Ok(html::page(&format!("Wall Game record, {board}"), &d))
        }
    }
}

/// The seals folder: `--seals DIR`, else the `Seals` tag relative to the record's folder.
fn seals_dir(rec: &Record, path: &str, seals: Option<&str>) -> Result<Option<PathBuf>> {
    Ok(match (seals, rec.tag("Seals")) {
        (Some(d), _) => Some(PathBuf::from(d)),
        (None, Some(t)) if path != "-" => {
            Some(Path::new(path).parent().unwrap_or(Path::new(".")).join(t))
        }
        (None, Some(_)) => {
            return Err(Error::bad(
                "a record read from stdin cannot name its Seals folder: give --seals DIR",
            ))
        }
        (None, None) => None,
    })
}

/// Verifies every seal (rejection on any failure) and says which plies were sealed.
fn seal_marks(rec: &Record, end: &crate::wall::game::Game, dir: &Path) -> Result<Seals> {
    let ctx = rec.tag("SealContext").unwrap_or("");
    let (_, after) = crate::cli::wall_seal::check_record_seals(rec, dir, ctx)?;
    let n = rec.moves().len();
    let mut marks = Seals {
        opened: (1..=n)
            .filter(|k| dir.join(format!("{k}.seal")).exists())
            .collect(),
        adjourned: None,
    };
    let k = n + 1;
    if dir.join(format!("{k}.seal")).exists() {
        marks.adjourned = Some(match after {
            None => None,
            Some(_) => {
                // Verified above; open it again to name the move.
                let sb = read_input(
                    &dir.join(format!("{k}.seal")).to_string_lossy(),
                    MAX_SEAL_FILE,
                )?;
                let ob = read_input(
                    &dir.join(format!("{k}.open")).to_string_lossy(),
                    MAX_SEAL_FILE,
                )?;
                let ms = seal::record_context(rec, k, ctx.as_bytes())
                    .and_then(|c| MoveStatement::new(end, end.to_move(), &c))
                    .map_err(|e| Error::bad(format!("move {k}: {e}")))?;
                let mv = seal::open_seal(&ms, &sb, &ob)
                    .map_err(|e| Error::rejected(format!("move {k}: {e}")))?;
                Some(mv)
            }
        });
    }
    Ok(marks)
}
