//! Reading inputs and writing outputs: the helpers every command uses, so that every file
//! argument behaves the same way.
//!
//! **Inputs** ([`read_input`], [`read_text`]): `-` is stdin (readable once per process);
//! anything over the caller's byte limit is refused before it is all in memory; text must be
//! UTF-8 and may start with a byte-order mark, which is dropped.
//!
//! **Outputs** ([`Output::write`]): `-` is stdout. Otherwise the target decides:
//!
//! * a regular file, or a path that does not exist yet: the bytes go to a temporary file in
//!   the target's directory (`.NAME.tmp-PID-K`), which is renamed over the target, so a
//!   reader sees the old file or the whole new one, never a partial one; if anything fails
//!   the temporary file is removed. A secret is synced to the disk before the rename and the
//!   folder after it, so that a crash cannot lose an opening or a solution. A public output
//!   (a proof, a transcript, a report) is not synced: it can be made again, a proof cut by a
//!   crash is refused (its header names its length), and the sync was most of a small
//!   proof's time as a whole process (tens of milliseconds on a busy disk). A symlink is
//!   followed: the file it points to is replaced, the link stays a link;
//! * an existing device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe): written in
//!   place, never replaced;
//! * a directory: refused with a one-line error.
//!
//! Secret outputs (solutions, openings, keys) are created with mode `0600`, including when
//! they replace an existing file; public outputs that replace a file keep its permissions.

pub mod untrusted;

use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::Error;
use crate::Result;

/// How many characters of user input an error message may quote.
pub const EXCERPT_CHARS: usize = 40;

static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// `s` if it is short, else its first [`EXCERPT_CHARS`] characters followed by `…` and the
/// total length, so an error never echoes a long input back. Control characters are escaped.
pub fn excerpt(s: &str) -> String {
    excerpt_up_to(s, EXCERPT_CHARS)
}

/// Longest text of a server's refusal shown whole: a server's sentence ("unknown, used or
/// expired code for this name") is read in full, a hostile one is still cut.
pub const SERVER_TEXT_CHARS: usize = 200;

/// [`excerpt`] with another limit: `s` if at most `max` characters, else its first `max`
/// followed by `…` and the total length. Control characters are escaped.
pub fn excerpt_up_to(s: &str, max: usize) -> String {
    let n = s.chars().count();
    let head: String = s
        .chars()
        .take(max)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if n > max {
        format!("{head}… ({n} characters)")
    } else {
        head
    }
}

/// `c` as a message shows it: the character itself in single quotes (`'о'`, `'"'`), or, for
/// a control or invisible character, its code point (`U+0007`). Never Rust's escapes
/// (`'\u{43e}'`), which users cannot read.
pub fn quote_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() && c != ' ' || c == '\u{feff}' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

/// Untrusted text as a message quotes it: an [`excerpt`] in double quotes, inner quotes and
/// backslashes as they are (no Rust escapes such as `\"R\"` or `\u{43e}`), control
/// characters as their code points.
pub fn quote(s: &str) -> String {
    let n = s.chars().count();
    let mut out = String::from("\"");
    for c in s.chars().take(EXCERPT_CHARS) {
        if c.is_control() {
            out.push_str(&format!("U+{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.push('"');
    if n > EXCERPT_CHARS {
        out.push_str(&format!("… ({n} characters)"));
    }
    out
}

/// A JSON parser's error in the user's terms: serde's type names and backticks become
/// words ("invalid type: integer `-3`, expected u64" reads "found the number -3, expected a
/// whole number from 0"), the position stays.
pub fn json_error(e: &serde_json::Error) -> String {
    let mut m = e.to_string().replace('`', "\"");
    for (rust, words) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected u64", "expected a whole number from 0"),
        ("expected usize", "expected a whole number from 0"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("invalid type: integer", "found the number"),
        ("invalid type: floating point", "found the number"),
        ("invalid type: string", "found the text"),
        ("invalid type: map", "found an object"),
        ("invalid type: sequence", "found a list"),
        ("invalid type: boolean", "found"),
        ("invalid type: null", "found null"),
        ("invalid value: integer", "the number"),
        ("invalid length", "wrong number of items:"),
        ("a sequence", "a list"),
        ("a map", "an object"),
        ("a borrowed string", "a string"),
    ] {
        m = m.replace(rust, words);
    }
    // "expected struct RawPosition", "expected tuple of 3 elements"
    for (k, words) in [
        ("expected struct ", "expected an object"),
        ("expected a tuple of ", "expected a list of "),
    ] {
        if let Some(i) = m.find(k) {
            let rest = &m[i + k.len()..];
            if words.ends_with("object") {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                m = format!("{}{words}{}", &m[..i], &rest[end..]);
            } else {
                m = format!(
                    "{}{words}{}",
                    &m[..i],
                    rest.replacen("elements", "items", 1)
                );
            }
        }
    }
    m = m
        .replace("tuple of ", "list of ")
        .replace(" elements", " items");
    m
}

/// Two digests that differ, shown so that they visibly differ: the same number of hex digits
/// of each, at least 16 and up to the first digit where they differ (a crafted digest that
/// shares its first 8 bytes with the expected one is not shown as "abcd… vs abcd…"); a
/// shortened form ends in `…`.
pub fn two_digests(a: &[u8], b: &[u8]) -> (String, String) {
    let (ha, hb) = (hex::encode(a), hex::encode(b));
    let first_diff = ha
        .bytes()
        .zip(hb.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(ha.len().min(hb.len()));
    let n = (first_diff + 1).max(16);
    let cut = |h: &str| {
        if n >= h.len() {
            h.to_string()
        } else {
            format!("{}…", &h[..n])
        }
    };
    (cut(&ha), cut(&hb))
}

/// `n` and a noun, in the plural unless `n` is 1: `count(1, "move")` is "1 move",
/// `count(3, "move")` "3 moves" (nouns with a regular plural only).
pub fn count(n: impl Into<u128>, noun: &str) -> String {
    let n: u128 = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A whole message kept under `max` characters: its beginning and its end (where parsers
/// put "at line L column C"), joined by `…`.
pub fn shorten(msg: &str, max: usize) -> String {
    let n = msg.chars().count();
    if n <= max {
        return msg.to_string();
    }
    let tail = max / 3;
    let head: String = msg.chars().take(max - tail).collect();
    let end: String = msg.chars().skip(n - tail).collect();
    format!("{head}…{end}")
}

/// `text` without a leading UTF-8 byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Refuses, before reading anything, a command line that names stdin (`-`) more than once.
/// `args` pairs each argument's name with its value.
pub fn stdin_at_most_once(args: &[(&str, &str)]) -> Result<()> {
    let dashes: Vec<&str> = args
        .iter()
        .filter(|(_, v)| *v == "-")
        .map(|(k, _)| *k)
        .collect();
    if dashes.len() > 1 {
        return Err(Error::bad(format!(
            "only one argument can be `-` (stdin); here {} are",
            dashes.join(" and ")
        )));
    }
    Ok(())
}

/// Reads a whole file (or stdin for `-`), refusing anything over `limit` bytes without
/// reading more than `limit + 1` of it. Stdin can be read only once per process.
pub fn read_input(path: &str, limit: u64) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    let r: Box<dyn Read> = if path == "-" {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(Error::bad(
                "only one argument can be `-` (stdin), and it has already been read",
            ));
        }
        Box::new(io::stdin())
    } else {
        let f = File::open(path).map_err(|e| Error::io(format!("cannot open {path}"), e))?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(Error::bad(format!("{path} is a directory, not a file")));
        }
        Box::new(f)
    };
    r.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::io(format!("cannot read {path}"), e))?;
    if buf.len() as u64 > limit {
        return Err(Error::bad(format!(
            "{}: larger than the {limit}-byte limit",
            shown(path)
        )));
    }
    Ok(buf)
}

/// [`read_input`] for text: UTF-8, a leading byte-order mark dropped.
pub fn read_text(path: &str, limit: u64, what: &str) -> Result<String> {
    let b = read_input(path, limit)?;
    let s = String::from_utf8(b).map_err(|e| {
        Error::bad(format!(
            "{}: the {what} is not UTF-8 text (byte {} is invalid)",
            shown(path),
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(match s.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => s,
    })
}

fn shown(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// What is being written, which decides the file mode and whether a terminal is acceptable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// A secret (solution, opening, key): created with mode 0600.
    pub secret: bool,
    /// Binary bytes (a proof): refused on a terminal stdout.
    pub binary: bool,
}

impl Output {
    /// Public text (reports, renderings, converted positions).
    pub const TEXT: Output = Output {
        secret: false,
        binary: false,
    };
    /// A public binary file (proofs, transcripts).
    pub const BINARY: Output = Output {
        secret: false,
        binary: true,
    };
    /// Secret text (a solution).
    pub const SECRET_TEXT: Output = Output {
        secret: true,
        binary: false,
    };
    /// A secret binary file (openings, keys).
    pub const SECRET_BINARY: Output = Output {
        secret: true,
        binary: true,
    };

    /// Writes `bytes` to `path` (`-` for stdout) following the rules of the module docs.
    pub fn write(self, path: &str, bytes: &[u8]) -> Result<()> {
        if path == "-" {
            if self.binary && io::stdout().is_terminal() {
                return Err(Error::bad(
                    "refusing to write binary data to the terminal: use -o FILE, or redirect stdout",
                ));
            }
            let mut o = io::stdout().lock();
            return o
                .write_all(bytes)
                .and_then(|_| o.flush())
                .map_err(|e| Error::io("cannot write to stdout", e));
        }
        write_path(Path::new(path), self.secret, &mut |f| f.write_all(bytes))
    }
}

/// Writes to a file path (not `-`) following the rules of the module docs; `fill` writes the
/// content. Exposed so tests can make the writing fail half way.
pub fn write_path(
    path: &Path,
    secret: bool,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<()> {
    let mut target = path.to_path_buf();
    // Follow symlinks by hand, so that a dangling one is resolved too (its target will be
    // created as a regular file).
    for _ in 0..40 {
        let shown = target.display().to_string();
        match fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&target)
                    .map_err(|e| Error::io(format!("cannot read the symlink {shown}"), e))?;
                target = match target.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(m) if m.is_dir() => {
                return Err(Error::bad(format!(
                    "{} is a directory: give a file name",
                    path.display()
                )))
            }
            Ok(m) if m.is_file() => {
                let mode = if secret { None } else { Some(m.permissions()) };
                return write_atomic(&target, secret, mode, fill);
            }
            Ok(_) => return write_in_place(&target, fill),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return write_atomic(&target, secret, None, fill)
            }
            Err(e) => return Err(Error::io(format!("cannot write {shown}"), e)),
        }
    }
    Err(Error::bad(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// A device, FIFO or socket: open it for writing and write, never replace it.
fn write_in_place(target: &Path, fill: &mut dyn FnMut(&mut File) -> io::Result<()>) -> Result<()> {
    let shown = target.display();
    let mut f = OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(|e| Error::io(format!("cannot open {shown} for writing"), e))?;
    fill(&mut f)
        .and_then(|_| f.flush())
        .map_err(|e| Error::io(format!("cannot write {shown}"), e))
}

/// Removes the temporary file unless the rename happened.
struct TempGuard(Option<PathBuf>);

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = fs::remove_file(p);
        }
    }
}

fn write_atomic(
    target: &Path,
    secret: bool,
    keep: Option<fs::Permissions>,
    fill: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<()> {
    let shown = target.display().to_string();
    let name = target
        .file_name()
        .ok_or_else(|| Error::bad(format!("{shown}: not a file name")))?
        .to_string_lossy();
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // keep the temporary name well under NAME_MAX whatever the target's length
    let stem: String = name.chars().take(64).collect();
    let mut opened = None;
    for k in 0..1000u32 {
        let tmp = dir.join(format!(".{stem}.tmp-{}-{k}", std::process::id()));
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(if secret { 0o600 } else { 0o666 });
        }
        match o.open(&tmp) {
            Ok(f) => {
                opened = Some((f, tmp));
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(Error::bad(format!(
                "cannot write {shown}: the folder {} does not exist (create it first: mkdir -p {})",
                dir.display(),
                dir.display()
            )))
            }
            Err(e) => {
                return Err(Error::io(
                    format!("cannot write {shown} (through a temporary file in its folder)"),
                    e,
                ))
            }
        }
    }
    let (mut f, tmp) = opened.ok_or_else(|| {
        Error::bad(format!(
            "cannot create a temporary file next to {shown}: too many left over"
        ))
    })?;
    let mut guard = TempGuard(Some(tmp.clone()));
    let io_err = |e| Error::io(format!("cannot write {shown}"), e);
    fill(&mut f).map_err(io_err)?;
    if let Some(p) = keep {
        f.set_permissions(p).map_err(io_err)?;
    }
    if secret {
        f.sync_all().map_err(io_err)?;
    }
    drop(f);
    fs::rename(&tmp, target).map_err(io_err)?;
    guard.0 = None;
    // make the rename itself durable (best effort: not every platform can sync a directory)
    if secret {
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("zkgames-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn excerpt_is_short_and_escapes_controls() {
        assert_eq!(excerpt("d2-d4"), "d2-d4");
        let long = "x".repeat(2_000_000);
        let e = excerpt(&long);
        assert!(e.len() < 80, "{e}");
        assert!(e.contains("2000000 characters"));
        assert_eq!(excerpt("a\nb"), "a\\nb");
        let m = format!("unknown field `{}`, at line 1 column 9", "k".repeat(10_000));
        let s = shorten(&m, 120);
        assert!(
            s.chars().count() <= 121 && s.ends_with("at line 1 column 9"),
            "{s}"
        );
        assert_eq!(shorten("short", 120), "short");
        assert_eq!(strip_bom("\u{feff}N 5"), "N 5");
        assert_eq!(strip_bom("N 5"), "N 5");
    }

    #[test]
    fn replacing_a_file_is_atomic_for_readers() {
        let d = scratch("atomic");
        let p = d.join("out.txt");
        fs::write(&p, b"old content").unwrap();
        // a reader holding the old file keeps seeing the whole old file
        let mut old = File::open(&p).unwrap();
        Output::TEXT.write(p.to_str().unwrap(), b"new").unwrap();
        let mut s = String::new();
        old.read_to_string(&mut s).unwrap();
        assert_eq!(s, "old content");
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(entries(&d), vec!["out.txt"]);
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_and_keeps_the_old_file() {
        let d = scratch("fail");
        let p = d.join("out.bin");
        fs::write(&p, b"previous").unwrap();
        let r = write_path(&p, false, &mut |f| {
            f.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(r.is_err());
        assert_eq!(fs::read(&p).unwrap(), b"previous");
        assert_eq!(entries(&d), vec!["out.bin"]);
        // and for a new file: nothing at all is left
        let q = d.join("new.bin");
        assert!(write_path(&q, true, &mut |_| Err(io::Error::other("boom"))).is_err());
        assert_eq!(entries(&d), vec!["out.bin"]);
    }

    #[cfg(unix)]
    #[test]
    fn modes_symlinks_directories() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let d = scratch("modes");
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // secret: 0600, also when replacing a world-readable file
        let s = d.join("sol.txt");
        Output::SECRET_TEXT
            .write(s.to_str().unwrap(), b"a")
            .unwrap();
        assert_eq!(mode(&s), 0o600);
        fs::set_permissions(&s, fs::Permissions::from_mode(0o644)).unwrap();
        Output::SECRET_TEXT
            .write(s.to_str().unwrap(), b"b")
            .unwrap();
        assert_eq!(mode(&s), 0o600);
        // public replacement keeps the old mode
        let p = d.join("pub.txt");
        fs::write(&p, b"x").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        Output::TEXT.write(p.to_str().unwrap(), b"y").unwrap();
        assert_eq!(mode(&p), 0o640);
        // a symlink is written through and stays a symlink; a dangling one creates its target
        let real = d.join("real.txt");
        fs::write(&real, b"x").unwrap();
        let link = d.join("link.txt");
        symlink("real.txt", &link).unwrap();
        Output::TEXT
            .write(link.to_str().unwrap(), b"through")
            .unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"through");
        let dangling = d.join("dangling");
        symlink("created.txt", &dangling).unwrap();
        Output::TEXT
            .write(dangling.to_str().unwrap(), b"made")
            .unwrap();
        assert_eq!(fs::read(d.join("created.txt")).unwrap(), b"made");
        // a directory is refused and nothing is left in it or next to it
        let sub = d.join("sub");
        fs::create_dir(&sub).unwrap();
        let before = entries(&d);
        let e = Output::TEXT.write(sub.to_str().unwrap(), b"z").unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(entries(&sub).is_empty());
        assert_eq!(entries(&d), before);
        // /dev/null stays a device
        Output::BINARY.write("/dev/null", b"discard").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn stdin_named_twice_is_refused() {
        assert!(stdin_at_most_once(&[("PUZZLE", "-"), ("PROOF", "x")]).is_ok());
        let e = stdin_at_most_once(&[("PUZZLE", "-"), ("PROOF", "-")]).unwrap_err();
        assert!(
            e.to_string().contains("only one argument can be `-`"),
            "{e}"
        );
    }
}
