//! The documentation's shell blocks, pasted in order as a new user pastes them: every ```sh
//! block of README.md runs in one bash session, and every block of docs/GUIDE.md in another,
//! each in its own scratch directory that sees the repository's `target/`, `puzzles/` and
//! `tools/` (HOME is a scratch directory too). A command that fails fails this test, unless
//! its line documents the failure (`exit 1`, `exit 2`, `"rejected"`).
//!
//! Not run here: lines starting with `cargo` (building and testing are what CI itself does;
//! benchmarks and fuzzing take minutes) and lines marked `(long)`.
//!
//! The two documents run side by side (one test each), so servers in them listen on
//! different ports. Every file their blocks leave behind must be covered by `.gitignore`
//! (`git add .` after following the documents publishes no key, opening or database), and
//! the guide does not reuse a README file name for another kind of file. Blocks fenced
//! ```` ```sh postgres ```` need a PostgreSQL server: tests/integration/guide_postgres.rs runs them. The README's figures must be the guide's: every row of the README's
//! figures table appears, verbatim, in the guide.
//!
//! A command line whose comment quotes a VOLE-in-the-head proof size with the id of its
//! docs/FIGURES.md row (`-o abc.proof   # 31,208 B [F:sha256-vole]`) must write a file of
//! that row's size exactly (`figures::VOLE_SIZE_SLACK` is 0: unseeded VOLE proofs have
//! fixed sizes); a seeded line (`--seed`) with any engine's size, exactly.

use crate::common::figures;

use std::path::Path;
use std::process::Command;

/// A document's ```sh blocks as one script, each command line tagged with its line.
fn script(readme: &str) -> String {
    let mut out = String::from(
        "set -E -o pipefail\n\
         trap 'echo \"FAILED $? at line $ZKG_LINE: $BASH_COMMAND\" >&2' ERR\n\
         command -v man >/dev/null || man() { cat >/dev/null; }\n\
         zkg_size() { echo \"SIZE $1 $(stat -c %s \"$2\")\" >&2; }\n",
    );
    let mut in_block = false;
    let mut continued = false;
    for (i, line) in readme.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_block = !in_block && t == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        if !continued {
            if runs_cargo(t) || line.contains("(long)") {
                continue;
            }
            if !t.is_empty() && !t.starts_with('#') {
                out += &format!("ZKG_LINE={}\n", i + 1);
            }
        }
        out += line;
        out.push('\n');
        if !continued && line.contains(" [F:") {
            if let Some(file) = line
                .split(" # ")
                .next()
                .and_then(|code| code.rsplit(" -o ").next().filter(|_| code.contains(" -o ")))
                .and_then(|r| r.split_whitespace().next())
            {
                out += &format!("zkg_size {} {file}\n", i + 1);
            }
        }
        continued = line.trim_end().ends_with('\\');
    }
    out
}

/// The quoted sizes the lines of `doc` that ran contradict: `SIZE line bytes` on stderr.
fn wrong_sizes(lines: &[&str], stderr: &str) -> Vec<String> {
    let f = figures::load();
    let mut bad = Vec::new();
    for l in stderr.lines().filter_map(|l| l.strip_prefix("SIZE ")) {
        let mut w = l.split_whitespace();
        let (Some(n), Some(got)) = (
            w.next().and_then(|n| n.parse::<usize>().ok()),
            w.next().and_then(|b| b.parse::<u64>().ok()),
        ) else {
            continue;
        };
        let src = lines[n - 1];
        for q in figures::sizes_in(src) {
            let Some(id) = q.id.as_deref() else { continue };
            let Some((want, _)) = f.sizes.get(id) else {
                bad.push(format!(
                    "line {n}: no row {id} in docs/FIGURES.md\n    {src}"
                ));
                continue;
            };
            let slack = if src.contains("--seed") {
                0
            } else if id.contains("vole") {
                figures::VOLE_SIZE_SLACK
            } else {
                continue; // ZKB++, KKW and isomorphism sizes vary without a seed
            };
            if got.abs_diff(*want) > slack {
                bad.push(format!(
                    "line {n} wrote {got} B; its [F:{id}] is {want} B\n    {src}"
                ));
            }
        }
    }
    bad
}

/// A command line that runs cargo, perhaps after environment assignments
/// (`PEER_RUNS=51 cargo bench ...`).
fn runs_cargo(line: &str) -> bool {
    line.split_whitespace().find(|w| {
        let (name, _) = w.split_once('=').unwrap_or(("", ""));
        name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    }) == Some("cargo")
}

/// Lines whose failure is the documented outcome.
fn expected_failure(readme_line: &str) -> bool {
    ["exit 1", "exit 2", "\"rejected\"", "REJECTED"]
        .iter()
        .any(|m| readme_line.contains(m))
}

/// The exit status a line's comment promises (`# exit 1: ...`, `# ... exit 2`), if any.
fn promised_status(line: &str) -> Option<i32> {
    let comment = line.split_once(" # ")?.1;
    let at = comment.find("exit ")?;
    match comment[at + 5..].chars().next()? {
        '1' => Some(1),
        '2' => Some(2),
        _ => None,
    }
}

/// Runs the shell blocks of `doc` (relative to the repository) in order; fails on any
/// command that fails without its line saying so.
fn run_blocks(doc: &str, min_commands: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let tag = doc.replace(['/', '.'], "_");
    let dir = std::env::temp_dir().join(format!("zkg_doc_{}_{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("home")).unwrap();
    // the binaries this test run built, where the documents call them
    let bin = Path::new(env!("CARGO_BIN_EXE_prover")).parent().unwrap();
    std::fs::create_dir_all(dir.join("target")).unwrap();
    std::os::unix::fs::symlink(bin, dir.join("target/release")).unwrap();
    for d in ["puzzles", "tools"] {
        std::os::unix::fs::symlink(root.join(d), dir.join(d)).unwrap();
    }
    let sh = free_ports(&script(&text));
    let n = sh.matches("ZKG_LINE=").count();
    assert!(n >= min_commands, "{doc}: only {n} commands found");
    let out = Command::new("bash")
        .arg("-c")
        .arg(&sh)
        .current_dir(&dir)
        .env("HOME", dir.join("home"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut unexpected = Vec::new();
    let mut failed_with = std::collections::HashMap::new();
    for l in stderr.lines().filter(|l| l.starts_with("FAILED ")) {
        let n: usize = l
            .split(" line ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let rc: i32 = l
            .split_whitespace()
            .nth(1)
            .and_then(|r| r.parse().ok())
            .unwrap_or(-1);
        failed_with.insert(n, rc);
        let src = lines.get(n.wrapping_sub(1)).copied().unwrap_or("");
        if !expected_failure(src) {
            unexpected.push(format!("{l}\n    {doc}: {src}"));
        }
    }
    unexpected.extend(wrong_sizes(&lines, &stderr));
    // a line that promises an exit status must really end with it (a documented failure
    // that succeeds, or fails otherwise, is a wrong document)
    for tagged in sh.lines().filter_map(|l| l.strip_prefix("ZKG_LINE=")) {
        let n: usize = tagged.parse().unwrap();
        let src = lines[n - 1];
        if let Some(want) = promised_status(src) {
            let got = failed_with.get(&n).copied().unwrap_or(0);
            if got != want {
                unexpected.push(format!(
                    "line {n} promises exit {want} but ended with {got}\n    {doc}: {src}"
                ));
            }
        }
    }
    // nothing the blocks leave behind would be picked up by `git add .`
    let rules = std::fs::read_to_string(root.join(".gitignore")).unwrap();
    let mut left = Vec::new();
    files_under(&dir, &dir, &mut left);
    let published: Vec<&String> = left.iter().filter(|f| !ignored(&rules, f)).collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        published.is_empty(),
        "{doc}: files its blocks leave that .gitignore does not cover (`git add .` would \
         publish them): {published:?}"
    );
    assert!(
        unexpected.is_empty(),
        "{doc}: commands failed:\n{}\n--- stderr (end) ---\n{}",
        unexpected.join("\n"),
        &stderr[stderr.len().saturating_sub(3000)..]
    );
}

/// Every file under `dir` (paths relative to `base`, `/`-separated), except the links to the
/// repository's `target`, `puzzles` and `tools` and the scratch HOME.
fn files_under(base: &Path, dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        let rel = path
            .strip_prefix(base)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if ["target", "puzzles", "tools", "home"].contains(&rel.as_str()) {
            continue;
        }
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            files_under(base, &path, out);
        } else {
            out.push(rel);
        }
    }
}

/// `*` within one path component (git's wildcard, without `**`, classes or escapes, which
/// .gitignore does not use).
fn glob(pat: &str, name: &str) -> bool {
    match pat.split_once('*') {
        None => pat == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (head.len()..=name.len())
                    .any(|i| name.is_char_boundary(i) && glob(tail, &name[i..]))
        }
    }
}

/// Whether git ignores the file `rel` under the rules of a .gitignore of plain patterns: a
/// pattern matches the file or one of its folders; with a leading `/` (or any inner `/`) from
/// the root only, else at any depth; with a trailing `/` folders only; `!` re-includes.
fn ignored(rules: &str, rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    let mut out = false;
    for r in rules.lines().map(str::trim) {
        if r.is_empty() || r.starts_with('#') {
            continue;
        }
        let (neg, r) = match r.strip_prefix('!') {
            Some(x) => (true, x),
            None => (false, r),
        };
        let (dir_only, r) = match r.strip_suffix('/') {
            Some(x) => (true, x),
            None => (false, r),
        };
        let anchored = r.contains('/');
        let pat: Vec<&str> = r.trim_start_matches('/').split('/').collect();
        // prefixes of the path: its folders, then the file itself
        let hit = (1..=parts.len()).any(|k| {
            let is_dir = k < parts.len();
            if dir_only && !is_dir {
                return false;
            }
            let prefix = &parts[..k];
            if anchored {
                prefix.len() == pat.len() && prefix.iter().zip(&pat).all(|(n, p)| glob(p, n))
            } else {
                glob(pat[0], prefix[k - 1])
            }
        });
        if hit {
            out = !neg;
        }
    }
    out
}

#[test]
fn the_ignore_check_can_fail() {
    let rules = "/target\n*.tmp*\n# c\n/*.key\n/webdemo/\nnotes\n";
    for yes in [
        "alice.key",
        "webdemo/token",
        "a.tmp-1",
        "x/y.tmp",
        "target/x",
        "a/notes",
    ] {
        assert!(ignored(rules, yes), "{yes}");
    }
    for no in [
        "README.md",
        "keys/alice.key",
        "webdemo",
        "docs/x.key",
        "alice.key2",
    ] {
        assert!(!ignored(rules, no), "{no}");
    }
    assert!(glob("*.db-*", "users.db-wal") && !glob("*.db-*", "users.db"));
}

#[test]
fn every_readme_block_runs_when_pasted_in_order() {
    run_blocks("README.md", 20);
}

#[test]
fn every_guide_block_runs_when_pasted_in_order() {
    run_blocks("docs/GUIDE.md", 80);
}

#[test]
fn the_script_tags_commands_and_skips_cargo() {
    let s = script("x\n```sh\ncargo build\n$P a \\\n  b\n# c\n```\n```text\nnot run\n```\n");
    assert!(!s.contains("cargo build"));
    assert!(runs_cargo("A_B=1 C=x cargo bench --bench x"));
    assert!(!runs_cargo("$P peg solve english"));
    assert!(!runs_cargo("D=$(sha256sum x) && cargo"));
    assert!(s.contains("ZKG_LINE=4\n$P a \\\n  b\n"), "{s}");
    let t = script("```sh\n$P x -o a.proof   # 9 B [F:peg-vole]\n```\n");
    assert!(t.contains("zkg_size 2 a.proof\n"), "{t}");
    let lines = ["", "$P x -o a.proof   # 9,449 B [F:peg-vole]"];
    let want = figures::load().sizes["peg-vole"].0;
    assert!(wrong_sizes(&lines, &format!("SIZE 2 {want}\n")).is_empty());
    assert_eq!(
        wrong_sizes(&lines, &format!("SIZE 2 {}\n", want + 100)).len(),
        1
    );
    assert!(!s.contains("not run"));
    assert!(expected_failure("$V x   # exit 1: ..."));
    assert!(!expected_failure("$V x   # prints y"));
    assert_eq!(promised_status("$V x   # exit 1: ..."), Some(1));
    assert_eq!(promised_status("$V x --json  # exit 2: {...}"), Some(2));
    assert_eq!(promised_status("$V x   # legal: exit 0"), None);
    assert_eq!(promised_status("$V x --seed 'exit 1'"), None);
}

/// What the shell blocks of a document write: `(file name, what writes it)`, where "what" is
/// the program's command words, the output's flag and the `--system` and `--kind` chosen
/// (`prover sha256 prove -o system=zkbpp`).
fn written(doc: &str) -> Vec<(String, String)> {
    const OUT: [&str; 6] = [
        "-o",
        "--output",
        "--opening",
        "--token-out",
        "--html",
        "--svg",
    ];
    let mut out = Vec::new();
    let mut in_block = false;
    for line in doc.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_block = !in_block && t == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        let code = line.split(" # ").next().unwrap_or("");
        for cmd in code.split(['|', ';', '&']) {
            let w: Vec<&str> = cmd.split_whitespace().collect();
            let Some(at) = w.iter().position(|x| {
                matches!(*x, "$P" | "$V") || x.ends_with("/prover") || x.ends_with("/verifier")
            }) else {
                continue;
            };
            let bin = if w[at] == "$P" || w[at].ends_with("prover") {
                "prover"
            } else {
                "verifier"
            };
            let words: Vec<&str> = w[at + 1..]
                .iter()
                .take_while(|x| {
                    x.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                        && !x.starts_with('-')
                })
                .take(2)
                .copied()
                .collect();
            let opt = |name: &str| {
                w.iter()
                    .position(|x| *x == name)
                    .and_then(|i| w.get(i + 1))
                    .map(|v| format!(" {}={v}", &name[2..]))
                    .unwrap_or_default()
            };
            for (i, x) in w.iter().enumerate() {
                if let (true, Some(file)) = (OUT.contains(x), w.get(i + 1)) {
                    if *file != "-" && !file.starts_with("/dev/") {
                        let what = format!(
                            "{bin} {} {x}{}{}",
                            words.join(" "),
                            opt("--system"),
                            opt("--kind")
                        );
                        out.push((file.trim_matches(['\'', '"']).to_string(), what));
                    }
                }
            }
        }
    }
    out
}

/// The guide does not reuse a file name of the README for another kind of file (its commands
/// would overwrite the README's, and the README's, run again, would read the wrong file).
#[test]
fn the_guide_does_not_reuse_the_readmes_file_names_for_other_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let guide = std::fs::read_to_string(root.join("docs/GUIDE.md")).unwrap();
    let ours = written(&readme);
    assert!(ours.len() >= 10, "{ours:?}");
    let mut clashes = Vec::new();
    for (name, what) in written(&guide) {
        for (n, w) in &ours {
            if *n == name && *w != what {
                clashes.push(format!("{name}: README: {w}; guide: {what}"));
            }
        }
    }
    assert!(
        clashes.is_empty(),
        "file names the guide reuses for other files:\n{}",
        clashes.join("\n")
    );
    // the check itself can fail
    let a = written("```sh\n$P sha256 prove --system zkbpp -o a.proof   # x\n```\n");
    let b = written("```sh\n$P sha256 seal -o a.proof --opening a.open\n```\n");
    assert_eq!(
        a,
        [(
            "a.proof".into(),
            "prover sha256 prove -o system=zkbpp".into()
        )]
    );
    assert_eq!(b.len(), 2);
    assert_ne!(a[0].1, b[0].1);
}

/// The script with each loopback port the document names (`127.0.0.1:7070`,
/// `localhost:7480`) replaced by a port the system had free just now (bound on port 0, then
/// released), the same one wherever the document repeats it: the test never depends on
/// which ports another program holds.
fn free_ports(sh: &str) -> String {
    let mut map: std::collections::BTreeMap<String, u16> = Default::default();
    let mut held = Vec::new();
    let mut out = String::with_capacity(sh.len());
    let mut rest = sh;
    loop {
        let next = ["127.0.0.1:", "localhost:"]
            .iter()
            .filter_map(|h| rest.find(h).map(|i| (i, h.len())))
            .min();
        let Some((i, hl)) = next else {
            out += rest;
            break;
        };
        let digits: String = rest[i + hl..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        out += &rest[..i + hl];
        rest = &rest[i + hl + digits.len()..];
        if digits.is_empty() || digits == "0" {
            out += &digits;
            continue;
        }
        let port = *map.entry(digits).or_insert_with(|| {
            // held until every port is chosen, so that two document ports get two ports
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let p = l.local_addr().unwrap().port();
            held.push(l);
            p
        });
        out += &port.to_string();
    }
    out
}

#[test]
fn document_ports_become_free_ports() {
    let s =
        free_ports("a 127.0.0.1:7070 b http://127.0.0.1:7070/ c localhost:7480 d 127.0.0.1:0\n");
    let ports: Vec<&str> = s.split(['a', 'b', 'c', 'd', ' ']).collect();
    assert!(!s.contains("7070") && !s.contains("7480"), "{s}");
    assert!(s.contains("127.0.0.1:0"), "{s}");
    let p1 = s
        .split("127.0.0.1:")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let p2 = s
        .split("127.0.0.1:")
        .nth(2)
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    assert_eq!(p1, p2, "{s} {ports:?}");
    let p3 = s
        .split("localhost:")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_ne!(p1, p3);
}
