//! Every relative link of the documentation leads somewhere: in README.md and docs/*.md, each
//! `[text](target)` that is not a web address names a file or folder of the repository, and
//! its `#anchor`, if any, is a heading of the linked document (GitHub's anchors: the heading
//! in lower case, punctuation dropped, spaces as hyphens, `-1`, `-2`, … for repeats). Links
//! inside code (fenced blocks, `inline code`) are text, not links, and are left alone.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// GitHub's anchor for a heading's text (before de-duplication).
fn slug(heading: &str) -> String {
    // inline markup GitHub drops from the anchor: code ticks, emphasis, link targets
    let mut text = String::new();
    let mut rest = heading;
    while let Some(i) = rest.find("](") {
        let Some(j) = rest[i..].find(')') else { break };
        text += &rest[..i];
        rest = &rest[i + j + 1..];
    }
    text += rest;
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of a document outside fenced code blocks, with their numbers (1-based).
fn prose(doc: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in doc.lines().enumerate() {
        let t = line.trim_start();
        let mark = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, mark) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m && t.trim_end() == m => fence = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// Every anchor of a document's headings, repeats numbered as GitHub numbers them.
fn anchors(doc: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut counts = std::collections::HashMap::new();
    for (_, line) in prose(doc) {
        let t = line.trim_start();
        if !t.starts_with('#') {
            continue;
        }
        let text = t.trim_start_matches('#');
        if !text.starts_with(' ') {
            continue;
        }
        let base = slug(text);
        let n = counts.entry(base.clone()).or_insert(0usize);
        let a = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
        seen.insert(a);
    }
    seen
}

/// A line without its `inline code` spans.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for (k, part) in line.split('`').enumerate() {
        if k > 0 {
            in_code = !in_code;
        }
        if !in_code {
            out += part;
        }
    }
    out
}

/// The link targets of a line: `[text](target)` and `[text](target "title")`.
fn targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(j) = after.find(')') else { break };
        let t = after[..j]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        out.push(t);
        rest = &after[j + 1..];
    }
    out
}

/// The broken links of one document: (line, target, why).
fn broken(root: &Path, doc: &Path) -> Vec<(usize, String, String)> {
    let text = std::fs::read_to_string(doc).unwrap();
    let dir = doc.parent().unwrap();
    let mut bad = Vec::new();
    for (n, line) in prose(&text) {
        for t in targets(line) {
            if t.is_empty() || t.contains("://") || t.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match t.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (t.as_str(), None),
            };
            let file: PathBuf = if path.is_empty() {
                doc.to_path_buf()
            } else {
                dir.join(path)
            };
            if !file.exists() {
                bad.push((n, t.clone(), format!("no file {}", file.display())));
                continue;
            }
            if !file.starts_with(root) || !file.canonicalize().unwrap().starts_with(root) {
                bad.push((n, t.clone(), "outside the repository".into()));
                continue;
            }
            if let Some(a) = anchor {
                let is_md = file.extension().is_some_and(|e| e == "md");
                if !is_md {
                    continue;
                }
                let target_text = std::fs::read_to_string(&file).unwrap();
                if !anchors(&target_text).contains(a) {
                    bad.push((
                        n,
                        t.clone(),
                        format!("no heading with anchor #{a} in {}", file.display()),
                    ));
                }
            }
        }
    }
    bad
}

fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

#[test]
fn every_relative_link_and_anchor_of_the_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = documents(root);
    assert!(docs.len() >= 5, "{docs:?}");
    let mut checked = 0;
    let mut bad = Vec::new();
    for d in &docs {
        let text = std::fs::read_to_string(d).unwrap();
        checked += prose(&text)
            .iter()
            .map(|(_, l)| targets(l).len())
            .sum::<usize>();
        for (n, t, why) in broken(root, d) {
            bad.push(format!(
                "{}:{n}: ({t}): {why}",
                d.strip_prefix(root).unwrap().display()
            ));
        }
    }
    assert!(checked >= 50, "only {checked} links found");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

/// The check itself: GitHub's anchors for known headings, and a broken file, a broken
/// anchor and a link in code are told apart from good links.
#[test]
fn the_link_check_can_fail() {
    assert_eq!(
        slug(" The engines: VOLE-in-the-head, ZKB++ and KKW"),
        "the-engines-vole-in-the-head-zkb-and-kkw"
    );
    assert_eq!(
        slug(" Sealed moves: prove a hidden move legal now, reveal it later"),
        "sealed-moves-prove-a-hidden-move-legal-now-reveal-it-later"
    );
    assert_eq!(slug(" In the browser: `--html`"), "in-the-browser---html");
    let a = anchors("# A\n## Set up\n```sh\n# not a heading\n```\n## Set up\n");
    assert!(a.contains("set-up") && a.contains("set-up-1") && !a.contains("not-a-heading"));
    let dir = std::env::temp_dir().join(format!("zkg-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("B.md"), "# Title\n## Part two\n").unwrap();
    std::fs::write(
        dir.join("A.md"),
        "[ok](B.md#part-two) [self](#here) [gone](C.md) [anchor](B.md#part-three)\n\
         `[code](D.md)`\n```\n[fenced](E.md)\n```\n## Here\n",
    )
    .unwrap();
    let bad = broken(&dir, &dir.join("A.md"));
    let names: Vec<&str> = bad.iter().map(|b| b.1.as_str()).collect();
    assert_eq!(names, ["C.md", "B.md#part-three"], "{bad:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The documents stay readable in one sitting: the README at most 20 KB, the guide at most
/// 70 KB (history goes to CHANGELOG.md, measurements to docs/PERFORMANCE.md).
#[test]
fn the_readme_and_the_guide_stay_short() {
    for (doc, limit) in [("README.md", 20_000), ("docs/GUIDE.md", 70_000)] {
        let n = std::fs::metadata(crate::common::p(doc)).unwrap().len();
        assert!(n <= limit, "{doc} is {n} bytes, over its {limit}");
    }
}
