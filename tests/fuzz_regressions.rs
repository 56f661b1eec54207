//! Replays, on stable Rust, every fuzz input kept in the repository through the same entry
//! points the cargo-fuzz targets call (`zkgames::fuzz_entry`): the seed corpora
//! `fuzz/corpus/<target>/` and the inputs that once crashed, `tests/fuzz_regressions/<target>/`.
//! Every target must have seeds, and the seeds must reach the deep end of their targets (the
//! proofs verify against the fixtures), so this cannot pass vacuously.

use std::path::{Path, PathBuf};

use zkgames::fuzz_entry::{self, fixtures, MIN_BITS, TARGETS};
use zkgames::proof_file::ProofFile;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn replay(target: &str, f: fn(&[u8]), paths: &[PathBuf]) {
    for p in paths {
        let data = std::fs::read(p).unwrap();
        if std::panic::catch_unwind(|| f(&data)).is_err() {
            panic!("fuzz target {target} panics on {}", p.display());
        }
    }
}

#[test]
fn every_seed_corpus_file_replays() {
    let mut total = 0;
    for &(name, f) in TARGETS {
        let seeds = files(&Path::new(ROOT).join("fuzz/corpus").join(name));
        assert!(
            !seeds.is_empty(),
            "target {name} has no seed corpus (run fuzz/seed.sh)"
        );
        replay(name, f, &seeds);
        total += seeds.len();
    }
    assert!(total >= TARGETS.len());
}

#[test]
fn every_saved_crash_replays() {
    let dir = Path::new(ROOT).join("tests/fuzz_regressions");
    let mut n = 0;
    for d in std::fs::read_dir(&dir).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        let name = d.file_name().unwrap().to_str().unwrap().to_string();
        let f = fuzz_entry::target(&name)
            .unwrap_or_else(|| panic!("tests/fuzz_regressions/{name}: no such fuzz target"));
        let inputs = files(&d);
        replay(&name, f, &inputs);
        n += inputs.len();
    }
    // none yet is fine: the seed corpora (above) keep the replay from being vacuous
    eprintln!("{n} saved crash inputs replayed");
}

#[test]
fn every_target_is_built_by_the_fuzz_crate() {
    let toml = std::fs::read_to_string(Path::new(ROOT).join("fuzz/Cargo.toml")).unwrap();
    for &(name, _) in TARGETS {
        assert!(
            toml.contains(&format!("name = \"{name}\"")),
            "{name} missing from fuzz/Cargo.toml"
        );
        let src = Path::new(ROOT).join(format!("fuzz/fuzz_targets/{name}.rs"));
        let text = std::fs::read_to_string(&src).unwrap();
        assert!(
            text.contains(&format!("fuzz_entry::{name}(")),
            "{}",
            src.display()
        );
    }
}

fn seed(target: &str, name: &str) -> Vec<u8> {
    std::fs::read(Path::new(ROOT).join("fuzz/corpus").join(target).join(name)).unwrap()
}

/// The proof seeds are real proofs of the fixtures' statements: the targets get past decoding
/// into verification, and tampering with them is what the fuzzer explores.
#[test]
fn proof_seeds_verify_against_the_fixtures() {
    let inst = fixtures::tee().instance();
    let f = ProofFile::from_bytes(&seed("proof_peg_iso", "fs-proof")).unwrap();
    let p = zkgames::peg::fs::decode_proof(&f).unwrap();
    zkgames::peg::fs::verify(inst, &p, MIN_BITS, b"").unwrap();
    // every engine's files, at the targets' level: the file's protocol id names the engine
    let req = zkgames::mpc::engine::Required::bits(MIN_BITS);
    for (target, name) in [
        ("proof_peg_mpc", "fs-proof"),
        ("proof_peg_mpc", "session-transcript"),
        ("proof_peg_kkw", "fs-proof"),
        ("proof_peg_vole", "fs-proof"),
        ("proof_peg_vole", "simulated-session"),
    ] {
        let f = ProofFile::from_bytes(&seed(target, name)).unwrap();
        let r = zkgames::peg::mpc::verify(inst, &f, &req, b"");
        assert!(r.is_ok(), "{target}/{name}: {r:?}");
    }
    let d = fixtures::sha256_digest();
    for target in ["proof_sha256_mpc", "proof_sha256_kkw", "proof_sha256_vole"] {
        let f = ProofFile::from_bytes(&seed(target, "fs-proof")).unwrap();
        let r = zkgames::mpc::sha256::verify(&d, &f, &req, b"");
        assert!(r.is_ok(), "{target}: {r:?}");
    }
    let aes = seed("proof_aes128_vole", "fs-proof");
    zkgames::auth::keys::verify_offline(fixtures::aes128_identity(), fixtures::AES128_TEXT, &aes)
        .unwrap();
    let st = fixtures::wall_statement();
    for s in ["seal-Cb4", "seal-none", "fixture-seal"] {
        zkgames::wall::seal::verify_seal(st, &seed("proof_wall_move", s), &req).unwrap();
    }
    let mv = zkgames::wall::seal::open_seal(
        st,
        &fixtures::wall_seal().file,
        &seed("seal_open", "fixture-opening"),
    )
    .unwrap();
    assert_eq!(mv, fixtures::wall_move());
}

/// The session seeds drive a whole accepted session through the targets' channels.
#[test]
fn session_seeds_reach_the_verdict() {
    for kind in fuzz_entry::SESSION_KINDS {
        let name = format!("{kind}-accepted");
        let s = seed("session_prover", &name);
        let sent = fuzz_entry::run_session_prover(s[0], &s[1..]);
        // Hello, Commitments, Responses
        assert_eq!(fuzz_entry::frames(&sent).len(), 3, "{name}");
        // and the verifier target's seed is a session the verifier accepts
        let s = seed("session_verifier", &name);
        let mut ch = fuzz_entry::mem_channel(&s[1..]);
        let mut v = fuzz_entry::session_verifier_for(s[0]);
        zkgames::net::run_verifier(&mut ch, v.as_mut()).unwrap();
    }
}

fn frame<T: serde::Serialize>(m: &T) -> Vec<u8> {
    let body = zkgames::proof_file::encode(m);
    let mut f = (body.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(&body);
    f
}

/// A server's unexpected reply to a registration is named in one short line, not echoed
/// as Rust debug text (it used to print the whole reply, a megabyte name included).
#[test]
fn an_unexpected_reply_is_not_echoed() {
    use zkgames::auth::server::{register, Reply};
    let name = "x".repeat(100_000);
    let mut ch = fuzz_entry::mem_channel(&frame(&Reply::User { name }));
    let e = register(&mut ch, fixtures::USER, &fixtures::login_identity()).unwrap_err();
    let m = e.to_string();
    assert!(m.len() < 200 && !m.contains("User {"), "{m}");
}

/// The server's log line for a refused registration quotes at most a clipped user name.
#[test]
fn a_refused_registration_clips_the_user_name() {
    use zkgames::auth::server::{handle, Request, ServerConfig, AUTH_VERSION};
    use zkgames::auth::store::{Clock, Policy, Store};
    let dir = std::env::temp_dir().join(format!("zkg-fuzz-reg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("users.db");
    drop(Store::open(&db, Clock::System, Policy::default()).unwrap());
    let cfg = ServerConfig {
        db: zkgames::auth::DbSpec::Sqlite(db.clone()),
        name: fixtures::SERVER.into(),
        policy: Policy::default(),
        only: None,
    };
    let req = frame(&Request::Register {
        version: AUTH_VERSION,
        user: "é".repeat(50_000),
        identity: fixtures::login_identity().to_text(),
    });
    let mut ch = fuzz_entry::mem_channel(&req);
    let e = handle(&cfg, &mut ch, "127.0.0.1:9".parse().unwrap()).unwrap_err();
    let m = e.to_string();
    assert!(m.len() < 300 && m.starts_with("registration of"), "{m}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every saved input of every proof kind (the seed corpora and the saved crashes of the
/// `proof_*` and `seal_open` targets) through every `inspect` of the binary, text and JSON:
/// an answer (exit 0) or a refusal (exit 2), never a panic. Under `cargo test` (debug
/// profile, as `.ci/run` runs this file a second time) the spawned binary has overflow
/// checks on, so arithmetic on a decoded integer that would overflow panics here instead of
/// printing a wrapped number (issue 25).
#[test]
fn inspect_answers_every_saved_proof_input() {
    let verifier = env!("CARGO_BIN_EXE_verifier");
    let mut inputs = Vec::new();
    for base in ["fuzz/corpus", "tests/fuzz_regressions"] {
        for &(name, _) in TARGETS {
            if name.starts_with("proof_") || name == "seal_open" {
                inputs.extend(files(&Path::new(ROOT).join(base).join(name)));
            }
        }
    }
    assert!(inputs.len() >= 10, "{} inputs", inputs.len());
    let commands: [&[&str]; 6] = [
        &["peg", "inspect", "--all"],
        &["peg", "inspect", "--json"],
        &["sha256", "inspect"],
        &["sha256", "inspect", "--json"],
        &["wall", "inspect"],
        &["wall", "inspect", "--json"],
    ];
    let mut answered = 0;
    for p in &inputs {
        for c in commands {
            let out = std::process::Command::new(verifier)
                .args(c)
                .arg(p)
                .output()
                .unwrap();
            let code = out.status.code();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(code, Some(0 | 2)) && !stderr.contains("panicked"),
                "verifier {} {}: exit {code:?}\n{stderr}",
                c.join(" "),
                p.display()
            );
            if c.contains(&"--json") {
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert_eq!(stdout.lines().count(), 1, "{}: {stdout}", p.display());
                serde_json::from_str::<serde_json::Value>(&stdout).unwrap();
            }
            answered += (code == Some(0)) as usize;
        }
    }
    // the real proofs among them are summarised, not all refused
    assert!(answered >= inputs.len() / 2, "{answered} answers");
    eprintln!(
        "{} inputs × {} inspect commands (overflow checks {})",
        inputs.len(),
        commands.len(),
        if cfg!(debug_assertions) {
            "on"
        } else {
            "off: release profile"
        }
    );
}

/// The input of issue 25: an isomorphism proof whose move opening says γ = u32::MAX.
/// `inspect` shows the 1-based γ in full; it once computed `γ + 1` in 32 bits (a debug build
/// panicked, a release build printed "γ = 0").
#[test]
fn inspect_shows_the_largest_gamma_in_full() {
    let f =
        Path::new(ROOT).join("tests/fuzz_regressions/proof_peg_iso/gamma-u32-max-inspect-overflow");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verifier"))
        .args(["peg", "inspect", "--all"])
        .arg(&f)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("γ = 4294967296,"), "{stdout}");
    assert!(!stdout.contains("γ = 0,"), "{stdout}");
}

/// A LowMC KKW proof file whose parameters say τ = u32::MAX: `inspect` names the parameters
/// invalid instead of allocating τ + 1 terms of the security formula (32 GiB: the process
/// aborted).
#[test]
fn inspect_does_not_compute_on_invalid_kkw_parameters() {
    let f = Path::new(ROOT)
        .join("tests/fuzz_regressions/proof_peg_kkw/lowmc-kkw-online-u32-max-inspect-alloc");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verifier"))
        .args(["peg", "inspect"])
        .arg(&f)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("τ = 4294967295") && stdout.contains("invalid parameters"),
        "{stdout}"
    );
}
