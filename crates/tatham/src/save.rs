//! Save files of the collection: a sequence of records `KEY:LENGTH:VALUE`, the key padded
//! with spaces to 8 characters, LENGTH the byte length of VALUE in decimal, each record
//! followed by a newline, in the order the collection's `midend.c` writes them:
//!
//! `SAVEFILE` (`Simon Tatham's Portable Puzzle Collection`), `VERSION` (`1`), `GAME`,
//! `PARAMS`, `CPARAMS`, `SEED` or `HEXSEED` (optional), `DESC`, `PRIVDESC` (optional),
//! `AUXINFO` (optional), `UI` (optional), `TIME` (optional), `NSTATES`, `STATEPOS`, then
//! `NSTATES − 1` records `MOVE`, `SOLVE` or `RESTART`.
//!
//! The puzzle is CPARAMS and DESC (the game ID the game itself shows). The position is the
//! initial state with the first `STATEPOS − 1` move records applied; like the collection,
//! every record up to `NSTATES − 1` must be a legal move (a RESTART's value is a
//! description, which starts the puzzle again: it must be the file's DESC). AUXINFO and
//! PRIVDESC may hold the solution: they are read over and dropped, never kept. A file with
//! PRIVDESC is refused (its game starts from the private description, which no verifier
//! sees). Everything is bounded: the file's size, the number of records, each value.

use zkgames_core::Error;
use zkgames_core::Result;

/// The first record's value.
pub const MAGIC: &str = "Simon Tatham's Portable Puzzle Collection";

/// The largest save file read, in bytes.
pub const MAX_FILE: u64 = 4 << 20;

/// The most move records a save file may have.
pub const MAX_MOVES: usize = 100_000;

/// One move record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    Move(String),
    Solve(String),
    Restart(String),
}

impl Record {
    /// The record's key.
    pub fn key(&self) -> &'static str {
        match self {
            Record::Move(_) => "MOVE",
            Record::Solve(_) => "SOLVE",
            Record::Restart(_) => "RESTART",
        }
    }
    /// The record's value.
    pub fn value(&self) -> &str {
        match self {
            Record::Move(v) | Record::Solve(v) | Record::Restart(v) => v,
        }
    }
}

/// What a verifier reads of a save file: the puzzle, nothing after DESC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The GAME record.
    pub game: String,
    /// The CPARAMS record (the parameters the description is for).
    pub params: String,
    /// The DESC record.
    pub desc: String,
}

/// A whole save file, less what it must not expose (SEED, AUXINFO, PRIVDESC, UI, TIME are
/// not kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFile {
    pub header: Header,
    /// The move records, `NSTATES − 1` of them.
    pub moves: Vec<Record>,
    /// STATEPOS: the position is after the first `statepos − 1` records.
    pub statepos: usize,
}

/// The header keys in the order the collection writes them, and whether each is required.
const ORDER: [(&str, bool); 14] = [
    ("SAVEFILE", true),
    ("VERSION", true),
    ("GAME", true),
    ("PARAMS", true),
    ("CPARAMS", true),
    ("SEED", false),
    ("HEXSEED", false),
    ("DESC", true),
    ("PRIVDESC", false),
    ("AUXINFO", false),
    ("UI", false),
    ("TIME", false),
    ("NSTATES", true),
    ("STATEPOS", true),
];

/// Index in [`ORDER`] of DESC: a verifier stops reading after it.
const DESC_AT: usize = 7;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    n: usize,
}

fn bad(msg: impl std::fmt::Display) -> Error {
    Error::bad(format!("not a valid save file: {msg}"))
}

impl<'a> Reader<'a> {
    /// The next record `(key, value)`, or `None` at the end (newlines skipped, as the
    /// collection does).
    fn next(&mut self) -> Result<Option<(&'a str, &'a [u8])>> {
        while self.at < self.b.len() && (self.b[self.at] == b'\n' || self.b[self.at] == b'\r') {
            self.at += 1;
        }
        if self.at == self.b.len() {
            return Ok(None);
        }
        self.n += 1;
        let rec = self.n;
        if self.b.len() - self.at < 9 || self.b[self.at + 8] != b':' {
            return Err(bad(format!(
                "record {rec} does not start with an 8-character key and ':'"
            )));
        }
        let key_raw = &self.b[self.at..self.at + 8];
        let key_len = key_raw.iter().position(|&c| c == b' ').unwrap_or(8);
        if key_raw[key_len..].iter().any(|&c| c != b' ')
            || key_len == 0
            || !key_raw[..key_len].iter().all(|c| c.is_ascii_uppercase())
        {
            return Err(bad(format!(
                "record {rec}'s key is not upper-case letters padded with spaces"
            )));
        }
        let key = std::str::from_utf8(&key_raw[..key_len]).expect("ASCII");
        self.at += 9;
        let mut len: usize = 0;
        let mut digits = 0;
        loop {
            let Some(&c) = self.b.get(self.at) else {
                return Err(bad(format!(
                    "the file ends inside record {rec} ({key})'s length"
                )));
            };
            self.at += 1;
            if c == b':' {
                break;
            }
            if !c.is_ascii_digit() || digits >= 9 {
                return Err(bad(format!(
                    "record {rec} ({key}) has no decimal length before its value"
                )));
            }
            digits += 1;
            len = len * 10 + (c - b'0') as usize;
        }
        if digits == 0 {
            return Err(bad(format!("record {rec} ({key}) has an empty length")));
        }
        if self.b.len() - self.at < len {
            return Err(bad(format!(
                "record {rec} ({key}) says {len} bytes but the file ends {} bytes later",
                self.b.len() - self.at
            )));
        }
        let val = &self.b[self.at..self.at + len];
        self.at += len;
        match self.b.get(self.at) {
            None | Some(b'\n') | Some(b'\r') => {}
            Some(_) => {
                return Err(bad(format!(
                    "record {rec} ({key}) is longer than its length {len} says"
                )))
            }
        }
        if key != "SEED" && val.iter().any(|&c| !(32..127).contains(&c)) {
            return Err(bad(format!(
                "record {rec} ({key}) has characters other than printable ASCII"
            )));
        }
        Ok(Some((key, val)))
    }
}

fn text(v: &[u8]) -> String {
    // checked printable ASCII by the reader
    String::from_utf8_lossy(v).into_owned()
}

fn number(key: &str, v: &[u8]) -> Result<usize> {
    let s = text(v);
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad(format!(
            "{key} is '{}', not a number",
            zkgames_core::files::excerpt(&s)
        )));
    }
    Ok(s.parse().expect("digits"))
}

/// The move records and STATEPOS of a save file read whole.
type Moves = Option<(Vec<Record>, usize)>;

/// Reads the header up to DESC (or the whole file with `whole`).
fn read(bytes: &[u8], whole: bool) -> Result<(Header, Moves)> {
    if bytes.len() as u64 > MAX_FILE {
        return Err(bad(format!(
            "{} bytes, more than the {MAX_FILE} read",
            bytes.len()
        )));
    }
    let mut r = Reader {
        b: bytes,
        at: 0,
        n: 0,
    };
    let mut next_at = 0usize; // index in ORDER of the next key allowed
    let (mut game, mut params, mut desc) = (None, None, None);
    let (mut nstates, mut statepos) = (None, None);
    while next_at < ORDER.len() {
        let Some((key, val)) = r.next()? else {
            let missing = ORDER[next_at..]
                .iter()
                .find(|(_, req)| *req)
                .map(|(k, _)| *k)
                .unwrap_or("STATEPOS");
            return Err(bad(format!("it ends before its {missing} record")));
        };
        let Some(pos) = ORDER.iter().position(|(k, _)| *k == key) else {
            if matches!(key, "MOVE" | "SOLVE" | "RESTART") {
                let missing = ORDER[next_at..]
                    .iter()
                    .find(|(_, req)| *req)
                    .map(|(k, _)| *k)
                    .unwrap_or("STATEPOS");
                return Err(bad(format!("a {key} record comes before {missing}")));
            }
            return Err(bad(format!("unknown record '{key}'")));
        };
        if pos < next_at {
            return Err(bad(format!("{key} is repeated or out of order")));
        }
        if let Some((k, _)) = ORDER[next_at..pos].iter().find(|(_, req)| *req) {
            return Err(bad(format!(
                "{key} is out of order or {k} is missing: {k} must come before it"
            )));
        }
        next_at = pos + 1;
        match key {
            "SAVEFILE" if val != MAGIC.as_bytes() => {
                return Err(Error::bad(
                    "not a save file of Simon Tatham's Portable Puzzle Collection",
                ))
            }
            "VERSION" if val != b"1" => {
                return Err(bad(format!(
                    "format version '{}' (this reads version 1)",
                    zkgames_core::files::excerpt(&text(val))
                )))
            }
            "GAME" => game = Some(text(val)),
            "CPARAMS" => params = Some(text(val)),
            "DESC" => desc = Some(text(val)),
            "PRIVDESC" => {
                return Err(Error::bad(
                    "this save file has a private description (PRIVDESC), from which its game starts; zkgames proves only puzzles whose public description is the puzzle",
                ))
            }
            "NSTATES" => {
                let n = number(key, val)?;
                if n == 0 || n - 1 > MAX_MOVES {
                    return Err(bad(format!(
                        "NSTATES is {n}: it must be 1 to {}",
                        MAX_MOVES + 1
                    )));
                }
                nstates = Some(n);
            }
            "STATEPOS" => statepos = Some(number(key, val)?),
            // PARAMS, SEED, HEXSEED, AUXINFO, UI, TIME: read over, not kept
            _ => {}
        }
        if pos == DESC_AT && !whole {
            break;
        }
    }
    let header = Header {
        game: game.expect("required"),
        params: params.expect("required"),
        desc: desc.expect("required"),
    };
    if !whole {
        return Ok((header, None));
    }
    let nstates = nstates.expect("required");
    let statepos = statepos.expect("required");
    if statepos < 1 || statepos > nstates {
        return Err(bad(format!(
            "STATEPOS is {statepos}, outside 1 to NSTATES = {nstates}"
        )));
    }
    let mut moves = Vec::with_capacity((nstates - 1).min(1024));
    while moves.len() < nstates - 1 {
        let Some((key, val)) = r.next()? else {
            return Err(bad(format!(
                "NSTATES is {nstates} but it has {} move records",
                moves.len()
            )));
        };
        let v = text(val);
        moves.push(match key {
            "MOVE" => Record::Move(v),
            "SOLVE" => Record::Solve(v),
            "RESTART" => Record::Restart(v),
            k => return Err(bad(format!("a {k} record among the moves"))),
        });
    }
    if r.next()?.is_some() {
        return Err(bad(format!(
            "records follow its {} move records (NSTATES is {nstates})",
            nstates - 1
        )));
    }
    Ok((header, Some((moves, statepos))))
}

/// Reads a whole save file.
pub fn parse(bytes: &[u8]) -> Result<SaveFile> {
    let (header, rest) = read(bytes, true)?;
    let (moves, statepos) = rest.expect("whole");
    Ok(SaveFile {
        header,
        moves,
        statepos,
    })
}

/// Reads a save file's header up to DESC, nothing further (what a verifier reads).
pub fn parse_header(bytes: &[u8]) -> Result<Header> {
    Ok(read(bytes, false)?.0)
}

/// Whether `bytes` look like a save file (its first record's key).
pub fn is_save_file(bytes: &[u8]) -> bool {
    bytes.starts_with(b"SAVEFILE:")
}

/// One record as the collection writes it.
pub fn record(key: &str, value: &str) -> String {
    format!("{key:<8}:{}:{value}\n", value.len())
}

/// The puzzle of a header: its game, CPARAMS and DESC.
pub fn puzzle(h: &Header) -> Result<Box<dyn super::Puzzle>> {
    (super::game(&h.game)?.decode)(&h.params, &h.desc)
}

/// A save file's puzzle and its current position: every move record replayed as the game
/// does (all of them checked, as the collection checks them on loading), the position the
/// one after the first STATEPOS − 1.
pub fn replay<'p>(
    puzzle: &'p dyn super::Puzzle,
    f: &SaveFile,
) -> Result<Box<dyn super::Position + 'p>> {
    let run = |upto: usize| -> Result<Box<dyn super::Position + 'p>> {
        let mut pos = puzzle.start();
        for (i, rec) in f.moves[..upto].iter().enumerate() {
            match rec {
                Record::Move(m) | Record::Solve(m) => pos.execute_move(m).map_err(|e| {
                    Error::bad(format!("move record {} ({}): {e}", i + 1, rec.key()))
                })?,
                Record::Restart(d) => {
                    if d != &f.header.desc {
                        return Err(Error::bad(format!(
                            "move record {} (RESTART) starts another puzzle than the file's DESC",
                            i + 1
                        )));
                    }
                    pos = puzzle.start();
                }
            }
        }
        Ok(pos)
    };
    let all = run(f.moves.len())?;
    if f.statepos == f.moves.len() + 1 {
        return Ok(all);
    }
    run(f.statepos - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(records: &[(&str, &str)]) -> Vec<u8> {
        records
            .iter()
            .map(|(k, v)| record(k, v))
            .collect::<String>()
            .into_bytes()
    }

    fn net_records() -> Vec<(&'static str, &'static str)> {
        vec![
            ("SAVEFILE", MAGIC),
            ("VERSION", "1"),
            ("GAME", "Net"),
            ("PARAMS", "3x3"),
            ("CPARAMS", "3x3"),
            ("SEED", "1"),
            ("DESC", "123456789"),
            ("AUXINFO", "00ff"),
            ("UI", "O0,0;C1,1"),
            ("NSTATES", "3"),
            ("STATEPOS", "2"),
            ("MOVE", "A0,0"),
            ("SOLVE", "S;L0,0"),
        ]
    }

    #[test]
    fn reads_records_and_drops_secrets() {
        let f = parse(&file(&net_records())).unwrap();
        assert_eq!(f.header.game, "Net");
        assert_eq!(f.header.desc, "123456789");
        assert_eq!(f.statepos, 2);
        assert_eq!(
            f.moves,
            vec![Record::Move("A0,0".into()), Record::Solve("S;L0,0".into())]
        );
        assert!(!format!("{f:?}").contains("00ff"));
        assert_eq!(parse_header(&file(&net_records())).unwrap(), f.header);
    }

    #[test]
    fn header_reader_stops_at_desc() {
        let mut b = file(&net_records()[..7]);
        b.extend_from_slice(b"garbage that a verifier never reads");
        assert_eq!(parse_header(&b).unwrap().desc, "123456789");
        assert!(parse(&b).is_err());
    }

    #[test]
    fn refusals() {
        let base = net_records();
        let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
            (base[1..].to_vec(), "SAVEFILE must come"),
            (
                {
                    let mut v = base.clone();
                    v.swap(3, 4);
                    v
                },
                "order",
            ),
            (
                {
                    let mut v = base.clone();
                    v.remove(6);
                    v
                },
                "DESC",
            ),
            (
                {
                    let mut v = base.clone();
                    v[10] = ("STATEPOS", "4");
                    v
                },
                "STATEPOS",
            ),
            (
                {
                    let mut v = base.clone();
                    v[10] = ("STATEPOS", "0");
                    v
                },
                "STATEPOS",
            ),
            (
                {
                    let mut v = base.clone();
                    v.pop();
                    v
                },
                "NSTATES",
            ),
            (
                {
                    let mut v = base.clone();
                    v.push(("MOVE", "A1,1"));
                    v
                },
                "follow",
            ),
            (
                {
                    let mut v = base.clone();
                    v[9] = ("NSTATES", "999999999");
                    v
                },
                "NSTATES",
            ),
            (
                {
                    let mut v = base.clone();
                    v.insert(7, ("PRIVDESC", "x"));
                    v
                },
                "private",
            ),
            (
                {
                    let mut v = base.clone();
                    v.insert(7, ("FOO", "x"));
                    v
                },
                "unknown",
            ),
            (
                {
                    let mut v = base.clone();
                    v[1] = ("VERSION", "2");
                    v
                },
                "version",
            ),
            (
                {
                    let mut v = base.clone();
                    v[0] = ("SAVEFILE", "x");
                    v
                },
                "not a save",
            ),
        ];
        for (recs, want) in cases {
            let e = parse(&file(&recs)).unwrap_err().to_string();
            assert!(
                e.to_lowercase().contains(&want.to_lowercase()),
                "{want}: {e}"
            );
            assert!(!e.contains('\n'));
        }
        // lengths that disagree with the file
        let good = String::from_utf8(file(&base)).unwrap();
        for bad in [
            good.replace("DESC    :9:", "DESC    :8:"),
            good.replace("DESC    :9:", "DESC    :99999:"),
            good.replace("DESC    :9:", "DESC    :x:"),
            good.replace("DESC    :9:", "DESC:9:"),
            good.replace("DESC    :9:", "DESC    :9999999999:"),
            good[..good.len() - 3].to_string(),
        ] {
            let e = parse(bad.as_bytes()).unwrap_err().to_string();
            assert!(e.starts_with("not a valid save file"), "{e}");
        }
        assert!(parse(&vec![b'\n'; (MAX_FILE + 1) as usize]).is_err());
        let ctl = good.replace("O0,0;C1,1", "O0,0\x01C1,1");
        assert!(parse(ctl.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("printable"));
    }
}
