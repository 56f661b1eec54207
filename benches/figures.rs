//! docs/FIGURES.md, the one source of every figure the README, the guide and the FAQ quote,
//! written by one command: `cargo bench --bench figures` (one to three minutes on two cores, after the build).
//!
//! - Proof sizes are exact: each is the size of the file a `prover` command writes, run here
//!   through the binaries this build made. The commands are seeded (`--seed 1`), so each
//!   writes the same proof every time; tests/integration/figures_quoted.rs runs every one of them again
//!   and checks the size. Every proof is verified by `verifier` before its size is recorded.
//! - Times are ratios only, never absolute: ours against a baseline or peer measured in the
//!   same run, alternating (`FIGURES_RUNS=N` runs each, default 21), as whole processes or,
//!   for the cut oracle, the sealed-move size model, FAEST and Tatham's puzzles, by the
//!   benches `wall`, `wall_seal`, `faest`, `tatham` and `words` run here in a child process (their
//!   summaries are parsed).
//! - Every row says the machine, its CPU features (AVX2 / AVX-512, from /proc/cpuinfo), the
//!   date and the load average when the run started.
//! - Rows this command cannot measure (peers built outside the project: ZKBoo, MarkusThill,
//!   feschber, wallwars) live under the heading `## Kept rows` of the previous FIGURES.md,
//!   which is copied over verbatim, each row naming its own command, machine and date.

#[allow(dead_code, unused_imports, clippy::all)]
#[path = "faest.rs"]
mod faest_bench;
#[allow(dead_code, unused_imports, clippy::all)]
#[path = "tatham.rs"]
mod tatham_bench;
#[allow(dead_code, unused_imports, clippy::all)]
#[path = "wall.rs"]
mod wall_bench;
#[allow(dead_code, unused_imports, clippy::all)]
#[path = "wall_seal.rs"]
mod wall_seal_bench;
#[path = "common/whole.rs"]
mod whole;
#[allow(dead_code, unused_imports, clippy::all)]
#[path = "words.rs"]
mod words_bench;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const DIGEST_ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const AES_KEY: &str = "000102030405060708090a0b0c0d0e0f";
const AES_PT: &str = "00112233445566778899aabbccddeeff";
const KEPT: &str = "## Kept rows";
/// The starts of the headline rows the README leaves to FIGURES.md (README.md stays under 20 KB).
const README_SKIPS: &[&str] = &[
    "| reading a circuit file",
    "| word games:",
    // 22 games: the README's Tatham section quotes a few sizes and points here
    "| Tatham's puzzles at their defaults",
];

/// One proof whose size is a figure: its id (what the documents tag sizes with), what it
/// proves, the commands that make it (`prover`/`verifier` as on a `PATH`; the proof is the
/// last `-o` file) and the command that verifies it.
struct Size {
    id: &'static str,
    what: String,
    make: String,
    check: String,
}

fn sizes() -> Vec<Size> {
    let engines: [(&str, &str, &str); 6] = [
        ("iso", "the isomorphism protocol", "--system iso"),
        ("zkbpp", "ZKB++", "--system zkbpp"),
        ("kkw", "KKW size set", "--system kkw"),
        (
            "kkw-speed",
            "KKW speed set",
            "--system kkw --kkw-params speed",
        ),
        ("vole", "VOLE size set (the default)", ""),
        (
            "vole-speed",
            "VOLE speed set",
            "--system vole --vole-params speed",
        ),
    ];
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let sp = |flags: &str| {
        if flags.is_empty() {
            String::new()
        } else {
            format!(" {flags}")
        }
    };
    let mut out = Vec::new();
    for (key, name, flags) in engines {
        out.push(Size {
            id: leak(format!("peg-{key}")),
            what: format!("peg solitaire, English central game, {name}"),
            make: format!(
                "prover peg solve english -o f.sol && prover peg prove english --solution f.sol{} --seed 1 -o f.proof",
                sp(flags)
            ),
            check: "verifier peg verify english f.proof".into(),
        });
    }
    for (key, name, flags) in &engines[1..] {
        out.push(Size {
            id: leak(format!("sha256-{key}")),
            what: format!("SHA-256 preimage `abc`, {name}"),
            make: format!(
                "prover sha256 prove --preimage-hex 616263{} --seed 1 -o f.proof",
                sp(flags)
            ),
            check: format!("verifier sha256 verify --digest {DIGEST_ABC} f.proof"),
        });
    }
    for (key, name, flags) in &engines[1..] {
        out.push(Size {
            id: leak(format!("seal-{key}")),
            what: format!("sealed Wall Game move `Cb8.>a7`, cat-and-mouse 8×8, {name}"),
            make: format!(
                "prover wall seal puzzles/wall/cat-and-mouse-8x8.txt --move 'Cb8.>a7'{} --seed 1 -o f.seal --opening f.open",
                sp(flags)
            ),
            check: "verifier wall verify puzzles/wall/cat-and-mouse-8x8.txt f.seal".into(),
        });
    }
    for (key, name, flags) in &engines[4..] {
        out.push(Size {
            id: leak(format!("wordle-seal-{key}")),
            what: format!("Wordle seal of `crane`, shipped answer list (3,236 words), {name}"),
            make: format!(
                "prover wordle seal --word crane{} --seed 1 -o f.seal --opening f.open",
                sp(flags)
            ),
            check: "verifier wordle open f.seal f.open".into(),
        });
        out.push(Size {
            id: leak(format!("wordle-answer-{key}")),
            what: format!("Wordle answer to `trace` (`.ggyg`) against that seal, {name}"),
            make: format!(
                "prover wordle seal --word crane{f} --seed 1 -o f.seal --opening f.open && prover wordle answer f.open trace{f} --seed 1 -o f.proof",
                f = sp(flags)
            ),
            check: "verifier wordle check f.seal trace .ggyg f.proof".into(),
        });
    }
    out.push(Size {
        id: "boggle-find-vole",
        what: "sealed Boggle find `manes` (5 dice), shipped dictionary (63,737 words, 4,700 of 5 dice: the compiled automaton), VOLE size set (the default)".into(),
        make: "prover boggle seal seal/ifer/mans/tope --word manes --seed 1 -o f.seal --opening f.open".into(),
        check: "verifier boggle open seal/ifer/mans/tope f.seal f.open".into(),
    });
    // random words (no q): no structure for an automaton to share, so the Merkle tree; the
    // size depends only on the class's depth, whatever awk's generator
    for (id, words, class, depth, long) in [
        ("boggle-find-vole-105k", "105,001", "60,001", 16, 60_000),
        ("boggle-find-vole-120k", "120,001", "120,001", 17, 120_000),
    ] {
        out.push(Size {
            id,
            what: format!("sealed Boggle find `abcdhgfe` (8 dice), {words} random words ({class} of 8 dice: a Merkle tree of depth {depth}), VOLE size set (the default)"),
            make: format!("awk 'BEGIN{{srand(1);a=\"abcdefghijklmnoprstuvwxyz\";for(i=0;i<{w};i++){{n=i<{long}?8:7;s=\"\";for(j=0;j<n;j++)s=s substr(a,int(rand()*25)+1,1);print s}}print \"abcdhgfe\"}}' > d0.txt && sort -u -o d.txt d0.txt && prover boggle seal abcd/efgh/ijkl/mnop --word abcdhgfe --dict d.txt --seed 1 -o f.seal --opening f.open", w = words.replace(',', "").parse::<usize>().unwrap() - 1),
            check: "verifier boggle verify abcd/efgh/ijkl/mnop f.seal --dict d.txt".into(),
        });
    }
    for kind in ["lowmc", "aes128"] {
        for (key, name, flags) in &engines[1..] {
            out.push(Size {
                id: leak(format!("login-{kind}-{key}")),
                what: format!("login proof, `{kind}` key, {name}"),
                make: format!(
                    "prover auth keygen --kind {kind} --seed 1 -o f.key && prover auth prove --key f.key --context example.org{} --seed 1 -o f.proof",
                    sp(flags)
                ),
                check: "verifier auth verify f.pub f.proof --context example.org".into(),
            });
        }
    }
    let circuits = [
        ("emp-aes", "aes_128.txt", AES_KEY, AES_PT),
        (
            "emp-sha256",
            "sha256.txt",
            &"61".repeat(64),
            &"00".repeat(32),
        ),
    ];
    for (cid, file, secret, public) in circuits {
        for (key, name, flags) in &engines[1..] {
            out.push(Size {
                id: leak(format!("{cid}-{key}")),
                what: format!("emp-toolkit's `{file}` (Bristol Fashion), {name}"),
                make: format!(
                    "prover circuit prove circuits/emp/{file} --secret 0={secret} --public 1={public}{} --seed 1 -o f.proof",
                    sp(flags)
                ),
                check: format!(
                    "verifier circuit verify circuits/emp/{file} f.proof --public 1={public} --output 0=$(cat f.out)"
                ),
            });
        }
    }
    // Garble programs (puzzles/garble), the default engine; and Wordle's exported circuit
    for (gid, what, args, public, result) in GARBLE_ROWS {
        out.push(Size {
            id: gid,
            what: format!("Garble program `puzzles/garble/{what}.garble`, VOLE size set (the default)"),
            make: format!("prover garble prove puzzles/garble/{what}.garble {args} --seed 1 -o f.proof"),
            check: format!("verifier garble verify puzzles/garble/{what}.garble f.proof {public} --output '{result}'"),
        });
    }
    out.push(Size {
        id: "garble-wordle-bristol-vole",
        what: "`puzzles/garble/wordle.garble` exported as Bristol Fashion, VOLE size set (the default)".into(),
        make: "prover garble export puzzles/garble/wordle.garble -o f.txt && prover circuit prove f.txt --secret 0=68656c6c6f --public 1=6c6c616d6f --seed 1 -o f.proof".into(),
        check: "verifier circuit verify f.txt f.proof --public 1=6c6c616d6f --output 0=00 --output 1=0101000002".into(),
    });
    // Simon Tatham's puzzles: the sample save files the collection wrote (puzzles/tatham/)
    for (game, name, flags) in [
        ("net", "Net 5x5", ""),
        ("solo", "Solo 3x3", ""),
        ("pattern", "Pattern 15x15", ""),
        ("pegs", "Pegs 7x7cross (solved by zkgames)", " --solve"),
        ("slant", "Slant 8x8", ""),
        ("loopy", "Loopy 10x10 squares", ""),
        ("loopy-triangular", "Loopy 12x10 triangular", ""),
        ("loopy-honeycomb", "Loopy 10x10 honeycomb", ""),
        ("loopy-snub-square", "Loopy 7x7 snub-square", ""),
        ("loopy-cairo", "Loopy 9x9 Cairo", ""),
        ("loopy-great-hexagonal", "Loopy 5x4 great-hexagonal", ""),
        ("loopy-octagonal", "Loopy 7x7 octagonal", ""),
        ("loopy-kites", "Loopy 5x5 kites", ""),
        ("loopy-floret", "Loopy 5x5 floret", ""),
        ("loopy-dodecagonal", "Loopy 5x4 dodecagonal", ""),
        ("loopy-great-dodecagonal", "Loopy 5x4 great-dodecagonal", ""),
        (
            "loopy-great-great-dodecagonal",
            "Loopy 5x3 great-great-dodecagonal",
            "",
        ),
        ("loopy-kagome", "Loopy 5x4 kagome", ""),
        (
            "loopy-compass-dodecagonal",
            "Loopy 5x4 compass-dodecagonal",
            "",
        ),
        (
            "loopy-penrose-kites",
            "Loopy 10x10 Penrose kites and darts",
            "",
        ),
        ("loopy-penrose-rhombs", "Loopy 10x10 Penrose rhombs", ""),
        ("pearl", "Pearl 8x8", ""),
        ("bridges", "Bridges 7x7", ""),
        ("unruly", "Unruly 8x8", ""),
        ("towers", "Towers 5x5", ""),
        ("unequal", "Unequal 4x4", ""),
        ("lightup", "Light Up 7x7", ""),
        ("tents", "Tents 8x8", ""),
        ("magnets", "Magnets 6x5", ""),
        ("mosaic", "Mosaic 10x10", ""),
        ("singles", "Singles 5x5", ""),
        ("range", "Range 9x6", ""),
        ("keen", "Keen 6x6", ""),
        ("filling", "Filling 13x9", ""),
        ("map", "Map 20x15, 30 regions", ""),
        ("signpost", "Signpost 4x4", ""),
        ("dominosa", "Dominosa 6", ""),
    ] {
        out.push(Size {
            id: leak(format!("tatham-{game}-vole")),
            what: format!(
                "Tatham's {name}, `puzzles/tatham/{game}.sav`, VOLE size set (the default)"
            ),
            make: format!(
                "prover tatham prove puzzles/tatham/{game}.sav{flags} --seed 1 -o f.proof"
            ),
            check: format!("verifier tatham verify puzzles/tatham/{game}.sav f.proof"),
        });
    }
    // every registered game has its row (the sample's file is the name, lower case, no spaces)
    for g in zkgames::tatham::GAMES {
        let id = format!("tatham-{}-vole", g.name.to_lowercase().replace(' ', ""));
        assert!(
            out.iter().any(|s| s.id == id),
            "figures: Tatham's {} has no size row ({id})",
            g.name
        );
    }
    out
}

/// The Garble size rows: id, program, the prover's arguments, the verifier's, the result.
const GARBLE_ROWS: [(&str, &str, &str, &str, &str); 4] = [
    ("garble-factors-vole", "factors", "--secret p=65521u32 --secret q=65519u32 --public n=4292870399u64", "--public n=4292870399u64", "true"),
    ("garble-sudoku-vole", "sudoku_row", "--secret 'row=[5u8,3u8,4u8,6u8,7u8,8u8,9u8,1u8,2u8]' --public 'givens=[5u8,3u8,0u8,0u8,7u8,0u8,0u8,0u8,0u8]'", "--public 'givens=[5u8,3u8,0u8,0u8,7u8,0u8,0u8,0u8,0u8]'", "true"),
    ("garble-wordle-vole", "wordle", "--secret 'answer=[104u8,101u8,108u8,108u8,111u8]' --public 'guess=[108u8,108u8,97u8,109u8,111u8]'", "--public 'guess=[108u8,108u8,97u8,109u8,111u8]'", "[1, 1, 0, 0, 2]"),
    ("garble-age-vole", "age", "--secret birth_year=1990u16 --public this_year=2026u16", "--public this_year=2026u16", "true"),
];

/// The machine: CPU model, cores, SIMD features, and the load average now.
struct Machine {
    cpu: String,
    cores: usize,
    simd: &'static str,
    date: String,
    load: String,
}

fn machine() -> Machine {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags: Vec<&str> = info
        .lines()
        .find(|l| l.starts_with("flags"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    let simd = if flags.iter().any(|f| f.starts_with("avx512")) {
        "AVX-512 and AVX2"
    } else if flags.contains(&"avx2") {
        "AVX2, no AVX-512"
    } else {
        "no AVX2"
    };
    let cpu = info
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .unwrap_or("unknown CPU")
        .replace("(R)", "")
        .replace("(TM)", "")
        .replace(" Processor", "")
        .replace(" CPU", "")
        .trim()
        .to_string();
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into());
    Machine {
        cpu,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        simd,
        date,
        load,
    }
}

/// Scratch directories where the commands run as they are written: `prover` and `verifier`
/// (this build's) on a `PATH` of their own, `puzzles/` and `circuits/` (the repository's).
struct Scratch {
    base: PathBuf,
    path: String,
}

impl Scratch {
    fn new() -> Scratch {
        let base = std::env::temp_dir().join(format!("zkg_figures_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let bin = base.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(base.join("rows")).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_prover"), bin.join("prover")).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_verifier"), bin.join("verifier")).unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Scratch { base, path }
    }

    /// A fresh, empty directory `name` (with `puzzles/`).
    fn dir(&self, name: &str) -> PathBuf {
        let d = self.base.join("rows").join(name);
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::os::unix::fs::symlink(root.join("puzzles"), d.join("puzzles")).unwrap();
        std::os::unix::fs::symlink(root.join("circuits"), d.join("circuits")).unwrap();
        d
    }

    /// Runs `script` with bash in `dir`; panics with its stderr when it fails.
    fn run(&self, dir: &Path, script: &str) -> String {
        let out = Command::new("bash")
            .args(["-e", "-o", "pipefail", "-c", script])
            .current_dir(dir)
            .env("PATH", &self.path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "figures: `{script}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wall time of one run of `script`, in seconds.
    fn time(&self, dir: &Path, script: &str) -> f64 {
        let t = Instant::now();
        self.run(dir, script);
        t.elapsed().as_secs_f64()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

fn runs() -> usize {
    std::env::var("FIGURES_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(21)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median wall time of `ours` over that of `base`, whole processes, run alternately.
fn ratio(s: &Scratch, d: &Path, ours: &str, base: &str) -> f64 {
    s.run(d, ours);
    s.run(d, base);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs() {
        a.push(s.time(d, ours));
        b.push(s.time(d, base));
    }
    median(a) / median(b)
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs this bench again as a child that prints one of the included benches' summaries.
fn part(name: &str, env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.env("FIGURES_PART", name);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "figures: the {name} part failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number just before `suffix` in the first line holding both `anchor` and `suffix`,
/// after `anchor`.
fn number_before(text: &str, anchor: &str, suffix: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.contains(anchor) && l[l.find(anchor).unwrap()..].contains(suffix))
        .unwrap_or_else(|| panic!("figures: no line with {anchor:?} and {suffix:?} in\n{text}"));
    let rest = &line[line.find(anchor).unwrap()..];
    let end = rest.find(suffix).unwrap();
    let head = &rest[..end];
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |i| i + 1);
    head[start..]
        .parse()
        .unwrap_or_else(|_| panic!("figures: no number before {suffix:?} in {line:?}"))
}

/// `FIGURES_PART=whole cargo bench --bench figures`: the whole-process rows against FAEST
/// alone (the same measurement as the full run's, `FIGURES_RUNS` rounds), printed, nothing
/// written: for re-measuring them beside a change without re-running every row.
fn whole_rows() {
    let n = runs();
    let m = machine();
    println!(
        "figures: {}, {} ({} cores, {}), load average {}",
        m.date, m.cpu, m.cores, m.simd, m.load
    );
    let s = Scratch::new();
    let d = s.dir("whole");
    let bin = s.base.join("bin");
    for set in ["size", "speed"] {
        let w = whole::compare(
            &bin.join("prover"),
            &bin.join("verifier"),
            &d,
            set,
            "FAEST_PROCESS",
            n,
        );
        println!(
            "figures: whole processes, {set} set, {n} alternating runs: CPU {:.2} ms vs FAEST {:.2} ms ({:.2}x), wall {:.2} ms vs {:.2} ms ({:.2}x)",
            w.ours_cpu,
            w.faest_cpu,
            w.cpu_ratio(),
            w.ours_wall,
            w.faest_wall,
            w.wall_ratio()
        );
    }
}

fn main() {
    // a child of the whole-process rows: FAEST's keygen + sign + verify, nothing else
    if let Ok(set) = std::env::var("FAEST_PROCESS") {
        whole::faest_process(&set);
        return;
    }
    if let Ok(p) = std::env::var("FIGURES_PART") {
        match p.as_str() {
            "wall" => wall_bench::main(),
            "wall_seal" => wall_seal_bench::main(),
            "faest" => faest_bench::main(),
            "tatham" => tatham_bench::main(),
            "words" => words_bench::main(),
            "whole" => whole_rows(),
            _ => panic!("figures: no part {p}"),
        }
        return;
    }
    if std::env::args().any(|a| a == "--list") {
        println!("figures: writes docs/FIGURES.md; run `cargo bench --bench figures`");
        return;
    }
    // quick mode: every row measured once (one run each), nothing written
    let quick = std::env::args().skip(1).any(|a| a == "--test");
    if quick && std::env::var_os("FIGURES_RUNS").is_none() {
        std::env::set_var("FIGURES_RUNS", "1");
    }
    let m = machine();
    let at = format!(
        "{}, {} ({} cores, {}), load average {} at the start",
        m.date, m.cpu, m.cores, m.simd, m.load
    );
    println!("figures: {at}");
    let s = Scratch::new();

    // proof sizes, each proof verified
    let mut size = std::collections::BTreeMap::new();
    let mut table = String::new();
    for z in sizes() {
        let d = s.dir(z.id);
        let out = s.run(&d, &z.make);
        if z.id.starts_with("emp-") {
            // the verifier needs the output the prover printed (`0=HEX`)
            let hex = out
                .split_whitespace()
                .find_map(|w| w.strip_prefix("0="))
                .unwrap_or_else(|| panic!("figures: {} printed no output 0=…: {out}", z.id));
            std::fs::write(d.join("f.out"), hex).unwrap();
        }
        s.run(&d, &z.check);
        let file = z
            .make
            .rsplit(" -o ")
            .next()
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        let bytes = std::fs::metadata(d.join(file)).unwrap().len();
        println!("figures: {:<22} {:>10} B", z.id, thousands(bytes));
        table += &format!(
            "| `{}` | {} | {} | `{}` |\n",
            z.id,
            z.what,
            thousands(bytes),
            z.make
        );
        size.insert(z.id, bytes);
    }
    let b = |id: &str| format!("{} B", thousands(size[id]));
    let x = |r: f64| {
        if r >= 1000.0 {
            format!("{}×", thousands(r.round() as u64))
        } else if r >= 10.0 {
            format!("{r:.0}×")
        } else {
            format!("{r:.2}×")
        }
    };
    let n = runs();

    // the engines' times, whole processes, alternating
    println!("figures: timing the engines ({n} alternating runs each)");
    let peg = |sys: &str| {
        format!(
            "prover peg prove english --solution f.sol --system {sys} --seed 1 -o t-{sys}.proof"
        )
    };
    let d = s.dir("times");
    s.run(&d, "prover peg solve english -o f.sol");
    let peg_prove = ratio(&s, &d, &peg("zkbpp"), &peg("iso"));
    let peg_verify = ratio(
        &s,
        &d,
        "verifier peg verify english t-zkbpp.proof",
        "verifier peg verify english t-iso.proof",
    );
    let sha = |flags: &str, f: &str| {
        format!("prover sha256 prove --preimage-hex 616263 {flags} --seed 1 -o {f}")
    };
    let shav = |f: &str| format!("verifier sha256 verify --digest {DIGEST_ABC} {f}");
    let sha_prove = ratio(
        &s,
        &d,
        &sha("--system vole --vole-params speed", "t-vs.proof"),
        &sha("--system zkbpp", "t-z.proof"),
    );
    let sha_verify = ratio(&s, &d, &shav("t-vs.proof"), &shav("t-z.proof"));
    let sha_size_prove = ratio(
        &s,
        &d,
        &sha("", "t-v.proof"),
        &sha("--system zkbpp", "t-z.proof"),
    );
    // without a seed, sizes vary with the challenges (and VOLE's with the grinding counter)
    let spread = |flags: &str| {
        let sizes: Vec<u64> = (0..5)
            .map(|k| {
                let f = format!("u{k}.proof");
                s.run(
                    &d,
                    &format!("prover sha256 prove --preimage-hex 616263 {flags} -o {f}"),
                );
                std::fs::metadata(d.join(&f)).unwrap().len()
            })
            .collect();
        let (lo, hi) = (*sizes.iter().min().unwrap(), *sizes.iter().max().unwrap());
        if lo == hi {
            format!("{} B every time", thousands(lo))
        } else {
            format!("{}–{} B", thousands(lo), thousands(hi))
        }
    };
    let unseeded = format!(
        "ZKB++ {}, KKW {}, VOLE-in-the-head {}",
        spread("--system zkbpp"),
        spread("--system kkw"),
        spread("")
    );
    let mut emp = Vec::new();
    {
        for (file, secret, public) in [
            ("aes_128.txt", AES_KEY.to_string(), AES_PT.to_string()),
            ("sha256.txt", "61".repeat(64), "00".repeat(32)),
        ] {
            let c = |flags: &str| {
                format!("prover circuit prove circuits/emp/{file} --secret 0={secret} --public 1={public} {flags} --seed 1 -o t-c.proof")
            };
            emp.push(ratio(
                &s,
                &d,
                &c("--system vole --vole-params speed"),
                &c("--system zkbpp"),
            ));
        }
    }

    // whole processes against FAEST: our prove + verify against the crate's keygen + sign +
    // verify (benches/common/whole.rs)
    println!("figures: AES-128 keys against FAEST, whole processes ({n} alternating runs)");
    let bin = s.base.join("bin");
    let w_size = whole::compare(
        &bin.join("prover"),
        &bin.join("verifier"),
        &d,
        "size",
        "FAEST_PROCESS",
        n,
    );
    let w_speed = whole::compare(
        &bin.join("prover"),
        &bin.join("verifier"),
        &d,
        "speed",
        "FAEST_PROCESS",
        n,
    );
    println!("figures: whole processes, size {w_size:?}, speed {w_speed:?}");
    // reading a circuit file against proving it, in one process
    let (parse_ms, parse_mbs, prove_ms) = {
        use zkgames::mpc::bristol::{self, Limits};
        let bytes =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("circuits/emp/sha256.txt"))
                .unwrap();
        let c = bristol::parse(&bytes, &Limits::default()).unwrap();
        // CPU time of this process (the proof's pool threads included), medians
        let cpu_ms = || {
            // SAFETY: `ts` is a valid timespec to write into.
            let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
            let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
            assert_eq!(r, 0, "clock_gettime");
            ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
        };
        let mut t = Vec::new();
        for _ in 0..n {
            let st = cpu_ms();
            std::hint::black_box(bristol::parse(&bytes, &Limits::default()).unwrap());
            t.push(cpu_ms() - st);
        }
        let parse_ms = median(t);
        let values = vec![vec![true; 512], vec![false; 256]];
        let a = bristol::proof::Assignment {
            values,
            public: vec![false, true],
        };
        let sys =
            zkgames::mpc::engine::System::vole(128, zkgames::mpc::vole::Profile::Speed).unwrap();
        let mut rng = zkgames::rng::seeded_rng(1);
        let mut t = Vec::new();
        for _ in 0..n.min(7) {
            let st = cpu_ms();
            std::hint::black_box(bristol::proof::prove(&c, &a, &sys, b"", &mut rng).unwrap());
            t.push(cpu_ms() - st);
        }
        (
            parse_ms,
            bytes.len() as f64 / 1e6 / (parse_ms / 1e3),
            median(t),
        )
    };
    println!("figures: sha256.txt parsed in {parse_ms:.2} ms ({parse_mbs:.0} MB/s), proved in {prove_ms:.1} ms");

    // the benches' own summaries
    println!("figures: the cut oracle (the wall bench's summary)");
    let wall = part("wall", &[("WALL_SUMMARY_ONLY", "1")]);
    let grid = wall
        .split("11x11 grids")
        .next()
        .unwrap()
        .split("30x30 grids")
        .nth(1)
        .expect("figures: no 30x30 section in the wall summary");
    let build = number_before(grid, "build / BFS =", "x");
    let query = number_before(grid, "per query: oracle", "x");
    let at_once = number_before(grid, "all pairs answered at once", "x");
    println!("figures: Tatham's puzzles against the peg proof (the tatham bench)");
    let quick_runs = [("TATHAM_RUNS", "1")];
    let tatham = part("tatham", if quick { &quick_runs[..] } else { &[] });
    let tatham = tatham
        .lines()
        .find_map(|l| l.strip_prefix("TATHAM_SUMMARY runs="))
        .expect("figures: no TATHAM_SUMMARY in the tatham bench's output");
    let (tatham_runs, tatham_games) = tatham.split_once("; ").unwrap();
    let tatham_games: Vec<String> = tatham_games
        .split("; ")
        .map(|g| {
            // A game's name may hold spaces ("Light Up"): the eight fields after it are fixed.
            let all: Vec<&str> = g.split_whitespace().collect();
            let (name, f) = all.split_at(all.len() - 8);
            let name = name.join(" ");
            let num = |i: usize| f[i - 1].parse::<u64>().unwrap();
            let ratio = |i: usize| f[i - 1].trim_end_matches('x').parse::<f64>().unwrap();
            format!(
                "{} {} AND, {} bits, {} B, {} / {}",
                name,
                thousands(num(1)),
                thousands(num(3)),
                thousands(num(5)),
                x(ratio(7)),
                x(ratio(8))
            )
        })
        .collect();
    println!("figures: the word games against the AES-128 login (the words bench)");
    let quick_words = [("WORDS_RUNS", "1")];
    let words = part("words", if quick { &quick_words[..] } else { &[] });
    let words = words
        .lines()
        .find_map(|l| l.strip_prefix("WORDS_SUMMARY runs="))
        .expect("figures: no WORDS_SUMMARY in the words bench's output");
    let (words_runs, rest) = words.split_once("; ").unwrap();
    let (login_bytes, words_kinds) = rest.split_once("; ").unwrap();
    let login_bytes: u64 = login_bytes
        .trim_start_matches("login ")
        .trim_end_matches(" B")
        .parse()
        .unwrap();
    let words_kinds: Vec<String> = words_kinds
        .split("; ")
        .map(|k| {
            let (name, f) = k.split_once(": ").unwrap();
            let f: Vec<&str> = f.split_whitespace().collect();
            let num = |i: usize| f[i].parse::<u64>().unwrap();
            let ratio = |i: usize| f[i].trim_end_matches('x').parse::<f64>().unwrap();
            format!(
                "{name} {} AND, {} S-boxes, {} B, {} / {}",
                thousands(num(0)),
                thousands(num(2)),
                thousands(num(4)),
                x(ratio(6)),
                x(ratio(7))
            )
        })
        .collect();
    println!("figures: the sealed-move size model (the wall_seal bench)");
    let seal = part("wall_seal", &[]);
    let commit = number_before(&seal, "SHA-256 commitment in the circuit", "x larger");
    // `aes`: the AES-128 key statement against FAEST's own, when the faest bench has it
    println!("figures: LowMC (and AES-128) keys against FAEST (the faest bench)");
    let faest = part(
        "faest",
        &[("FAEST_KINDS", "aes,lowmc"), ("FAEST_RUNS", &n.to_string())],
    );
    let f_line = |what: &str, set: &str| {
        faest
            .lines()
            .skip_while(|l| !l.contains(&format!("{what} {set} set vs")))
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let f_row = |what: &str, set: &str| {
        let line = f_line(what, set);
        let ours = number_before(&line, "set vs", " B vs");
        let theirs = number_before(&line, " B vs", " B (");
        let cpu = line
            .split("cpu time")
            .nth(1)
            .unwrap_or_else(|| panic!("figures: no cpu time line for the {set} set in\n{faest}"));
        let p = number_before(cpu, "prove", "x) | verify");
        let v = number_before(cpu.split("| verify").nth(1).unwrap(), "", "x)");
        (ours, theirs, p, v)
    };
    let (fs_o, fs_t, fs_p, fs_v) = f_row("LowMC", "size");
    let (ff_o, ff_t, ff_p, ff_v) = f_row("LowMC", "speed");
    let faest_aes = (!f_line("AES-128", "size").is_empty())
        .then(|| (f_row("AES-128", "size"), f_row("AES-128", "speed")));

    let kinds = ["sha256", "login-lowmc", "seal", "peg"];
    let per = |sys: &str| {
        kinds
            .iter()
            .map(|k| thousands(size[format!("{k}-{sys}").as_str()]))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let smaller: Vec<f64> = kinds
        .iter()
        .map(|k| {
            size[format!("{k}-zkbpp").as_str()] as f64 / size[format!("{k}-vole").as_str()] as f64
        })
        .collect();
    let lo = smaller.iter().cloned().fold(f64::MAX, f64::min);
    let hi = smaller.iter().cloned().fold(0.0, f64::max);
    let when = format!(
        "{}; {}, {} cores ({}), load average {}",
        m.date, m.cpu, m.cores, m.simd, m.load
    );
    let bench = "`cargo bench --bench figures`";
    let mut rows = vec![
        format!(
            "| peg proof, English board, 128 bits: isomorphism protocol / ZKB++ / KKW / VOLE | {} / {} / {} / {}; ZKB++ proves in {} and verifies in {} the isomorphism protocol's time (whole processes) | {bench}: rows `peg-*` | {when} |",
            b("peg-iso"), b("peg-zkbpp"), b("peg-kkw"), b("peg-vole"), x(peg_prove), x(peg_verify)
        ),
        format!(
            "| proof sizes on the three engines, 128 bits: SHA-256 of `abc` / LowMC login / sealed 8×8 move / peg English | ZKB++ {} B; KKW {} B; VOLE-in-the-head {} B: VOLE's proofs are {:.1} to {:.1} times smaller than ZKB++'s | {bench}: rows `sha256-*`, `login-lowmc-*`, `seal-*`, `peg-*` | {when} |",
            per("zkbpp"), per("kkw"), per("vole"), lo, hi
        ),
        format!(
            "| AES-128 key proof (an `aes128` login identity), 128 bits | VOLE-in-the-head {} (size set) / {} (speed set); KKW {}; ZKB++ {}; {:.2}× LowMC's {}, so `lowmc` stays the smallest login (AES is the conservative one) | {bench}: rows `login-aes128-*` | {when} |",
            b("login-aes128-vole"), b("login-aes128-vole-speed"), b("login-aes128-kkw"), b("login-aes128-zkbpp"),
            size["login-aes128-vole"] as f64 / size["login-lowmc-vole"] as f64, b("login-lowmc-vole")
        ),
        format!(
            "| SHA-256 preimage proof, VOLE against ZKB++, whole processes, {n} alternating runs | speed set {} against {}: proves in {} and verifies in {} ZKB++'s time; the size set ({}) proves in {} ZKB++'s time | {bench} | {when} |",
            b("sha256-vole-speed"), b("sha256-zkbpp"), x(sha_prove), x(sha_verify), b("sha256-vole"), x(sha_size_prove)
        ),
        format!(
            "| LowMC login proof (VOLE) against FAEST v2 (`faest` crate 0.3), in one process, alternating, {n} runs: median CPU time, ours/peer | size set vs FAEST-128s: {} B vs {} B, proves in {} and verifies in {} its time; speed set vs FAEST-128f: {} B vs {} B, {} and {} | {bench} (the `faest` bench, `FAEST_KINDS=lowmc`) | {when} |",
            thousands(fs_o as u64), thousands(fs_t as u64), x(fs_p), x(fs_v),
            thousands(ff_o as u64), thousands(ff_t as u64), x(ff_p), x(ff_v)
        ),
    ];
    rows.push(format!(
        "| proof sizes without `--seed`: SHA-256 of `abc`, 128 bits, five proofs per engine | {unseeded} (the challenges decide what each ZKB++ round or KKW online execution opens) | {bench} | {when} |"
    ));
    if let Some(((so, st, sp, sv), (fo, ft, fp, fv))) = faest_aes {
        rows.push(format!(
            "| AES-128 key proof (VOLE; FAEST's own statement, 200 S-boxes) against FAEST v2 (`faest` crate 0.3), in one process, alternating, {n} runs: median CPU time, ours/peer | size set vs FAEST-128s: {} B vs {} B, proves in {} and verifies in {} its time; speed set vs FAEST-128f: {} B vs {} B, {} and {} | {bench} (the `faest` bench, `FAEST_KINDS=aes`) | {when} |",
            thousands(so as u64), thousands(st as u64), x(sp), x(sv),
            thousands(fo as u64), thousands(ft as u64), x(fp), x(fv)
        ));
        rows.push(format!(
            "| AES-128 key proof (VOLE) against FAEST v2 (`faest` crate 0.3), whole processes, {n} alternating runs: median CPU time (user + system), ours/peer | our `prover auth prove` + `verifier auth verify` (two processes, start-up and files included) against the crate's keygen + sign + verify (one process): size set vs FAEST-128s {}, speed set vs FAEST-128f {}; wall time {} and {} | {bench} (benches/common/whole.rs) | {when} |",
            x(w_size.cpu_ratio()), x(w_speed.cpu_ratio()),
            x(w_size.wall_ratio()), x(w_speed.wall_ratio())
        ));
    }
    {
        rows.push(format!(
            "| your own circuit: emp-toolkit's AES-128 / SHA-256 compression, 128 bits | VOLE size set {} / {} B, speed set {} / {} B, KKW {} / {} B, ZKB++ {} / {} B; the VOLE speed set proves in {} / {} ZKB++'s time (whole processes) | {bench}: rows `emp-*` | {when} |",
            thousands(size["emp-aes-vole"]), thousands(size["emp-sha256-vole"]),
            thousands(size["emp-aes-vole-speed"]), thousands(size["emp-sha256-vole-speed"]),
            thousands(size["emp-aes-kkw"]), thousands(size["emp-sha256-kkw"]),
            thousands(size["emp-aes-zkbpp"]), thousands(size["emp-sha256-zkbpp"]),
            x(emp[0]), x(emp[1])
        ));
    }
    rows.push(format!(
        "| reading a circuit file: emp-toolkit's SHA-256 compression ({:.1} MB of Bristol Fashion), in one process, median CPU time of {n} runs | parsed and checked at {parse_mbs:.0} MB/s, in {} the CPU time of a VOLE speed-set proof of it (file already read) | {bench} | {when} |",
        parse_mbs * parse_ms / 1e3, x(parse_ms / prove_ms)
    ));
    rows.push(format!(
        "| sealed Wall Game move, 8×8, 128 bits | {} with ZKB++, {} with KKW, {} with VOLE; a ZKB++ seal committing to the move with SHA-256 inside the circuit would be {commit:.1}× larger (the `wall_seal` bench's size formula, standard 8×8 start) | {bench}: rows `seal-*` | {when} |",
        b("seal-zkbpp"), b("seal-kkw"), b("seal-vole")
    ));
    rows.push(format!(
        "| Tatham's puzzles at their defaults (the committed samples), VOLE size set, 128 bits, against the English peg proof (VOLE size set), one process, alternating, {tatham_runs} runs: AND gates, witness bits, bytes, median prove / verify CPU time (all threads) over the peg proof's | {} | `cargo bench --bench tatham` (which {bench} runs for this row) | {when} |",
        tatham_games.join("; ")
    ));
    rows.push(format!(
        "| word games: Wordle seal (`crane`, shipped answer list), Wordle answer (`trace`), Boggle find (`manes`, shipped dictionary), VOLE size set, 128 bits, against the AES-128 login proof ({} B, VOLE size set), one process, alternating, {words_runs} runs: AND gates, S-boxes, bytes, median prove / verify CPU time (all threads) over the login proof's | {} | `cargo bench --bench words` (which {bench} runs for this row) | {when} |",
        thousands(login_bytes),
        words_kinds.join("; ")
    ));
    rows.push(format!(
        "| cut oracle, 30×30 grids | building it takes {} one BFS's time; a query is {} faster than the brute force, {} when all pairs are answered at once | {bench} (the `wall` bench's summary) | {when} |",
        x(build), x(query), x(at_once)
    ));

    // the kept rows of the previous file, verbatim
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/FIGURES.md");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let kept = old
        .find(KEPT)
        .map(|i| old[i..].to_string())
        .unwrap_or_else(|| format!("{KEPT}\n\nNone.\n"));
    let doc = format!(
        "# Figures\n\n\
         Written by `cargo bench --bench figures`: do not edit it by hand, run that command \
         again (the section [Kept rows](#kept-rows) excepted). Every figure the \
         [README](../README.md), the [guide](GUIDE.md) and the [FAQ](FAQ.md) quote comes from \
         this file: their figures tables copy its rows verbatim, and a size elsewhere in them \
         carries the id of its row here (`[F:sha256-vole]`); tests/integration/figures_quoted.rs checks \
         both, and runs every command below again to check its size.\n\n\
         This run: {at}.\n\n\
         ## Headline rows\n\n\
         Sizes are exact. Times are ratios between two programs measured alternately in the \
         same run, never absolute; on another machine (another CPU, another load) the ratios \
         move, the sizes do not.\n\n\
         | job | figure | command | measured |\n|---|---|---|---|\n{}\n\n\
         ## Proof sizes\n\n\
         The size in bytes of the file each command writes (`prover` and `verifier` are \
         `target/release/`'s; run from the repository's root; the proof is the last `-o` \
         file). Every command is seeded (`--seed 1`: for figures only, a seeded proof is not \
         zero-knowledge), so it writes the same proof every time. Without a seed, ZKB++ and \
         KKW sizes vary from proof to proof with the challenges (what each round opens), by \
         hundreds of bytes for ZKB++ and a few kilobytes for KKW; VOLE sizes by a few bytes \
         at most (the grinding counter).\n\n\
         | id | proof | bytes | command |\n|---|---|---|---|\n{table}\n{kept}",
        rows.join("\n")
    );
    if quick {
        println!(
            "figures: quick mode (--test): every row measured once, nothing written:\n{}",
            rows.join("\n")
        );
        return;
    }
    std::fs::write(&path, doc).unwrap();
    println!("figures: wrote {}", path.display());
    let headline = rows.len();
    let kept_rows = kept.lines().filter(|l| is_row(l)).map(str::to_string);
    rows.extend(kept_rows);
    sync_docs(&rows, headline, &size);
}

fn is_row(l: &str) -> bool {
    l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| job |")
}

/// The documents that copy FIGURES.md follow it: the README's figures table becomes its
/// headline rows (all but [`README_SKIPS`]), and every size tagged with a row's id (`31,208 B
/// [F:sha256-vole]`, `9.4 KB [F:peg-vole]`) in README.md, docs/GUIDE.md and docs/FAQ.md is
/// rewritten from that row, at the precision it was written with. tests/integration/figures_quoted.rs
/// checks the result.
fn sync_docs(rows: &[String], headline: usize, size: &std::collections::BTreeMap<&str, u64>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (doc, heading) in [
        ("README.md", Some("## Figures")),
        // the guide points at FIGURES.md for its rows (tagged sizes only)
        ("docs/GUIDE.md", None),
        ("docs/FAQ.md", None),
    ] {
        let path = root.join(doc);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        if let Some(h) = heading {
            let at = lines
                .iter()
                .position(|l| l == h)
                .unwrap_or_else(|| panic!("figures: no {h:?} in {doc}"));
            let sep = at
                + lines[at..]
                    .iter()
                    .position(|l| l.starts_with("|---"))
                    .unwrap_or_else(|| panic!("figures: no table under {h:?} in {doc}"));
            let end = sep
                + 1
                + lines[sep + 1..]
                    .iter()
                    .position(|l| !l.starts_with('|'))
                    .unwrap_or(lines.len() - sep - 1);
            // the README (at most 20 KB) has the headline rows but README_SKIPS'
            let copied: Vec<String> = rows[..headline]
                .iter()
                .filter(|r| !README_SKIPS.iter().any(|p| r.starts_with(p)))
                .cloned()
                .collect();
            lines.splice(sep + 1..end, copied);
        }
        let mut new = lines.join("\n");
        if text.ends_with('\n') {
            new.push('\n');
        }
        let new = retag(&new, size);
        if new != text {
            std::fs::write(&path, new).unwrap();
            println!("figures: updated {doc}");
        }
    }
}

/// `text` with every tagged size rewritten from `size`.
fn retag(text: &str, size: &std::collections::BTreeMap<&str, u64>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(" [F:") {
        let (before, after) = rest.split_at(i);
        let id_len = after[4..].find(']').unwrap_or(0);
        let id = &after[4..4 + id_len];
        let tag_len = 4 + id_len + 1;
        let unit = ["MB", "KB", "B"]
            .into_iter()
            .find(|u| before.ends_with(u))
            .unwrap_or("");
        let head = before[..before.len() - unit.len()].trim_end_matches(' ');
        let num_start = head
            .rfind(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
            .map_or(0, |k| k + 1);
        let old = &head[num_start..];
        match (size.get(id), unit.is_empty() || old.is_empty()) {
            (Some(&bytes), false) => {
                let decimals = old.split_once('.').map_or(0, |(_, d)| d.len());
                let new = match unit {
                    "B" => thousands(bytes),
                    "KB" => format!("{:.decimals$}", bytes as f64 / 1e3),
                    _ => format!("{:.decimals$}", bytes as f64 / 1e6),
                };
                out += &head[..num_start];
                out += &new;
                out += &before[head.len()..];
            }
            _ => {
                println!("figures: a tag [F:{id}] without a known size before it, left as is");
                out += before;
            }
        }
        out += &after[..tag_len];
        rest = &after[tag_len..];
    }
    out + rest
}
