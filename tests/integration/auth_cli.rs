//! The `auth` commands through the binaries: `prover auth keygen|identity`,
//! `verifier auth add|list|remove`; exit status 0 done, 2 bad input, one-line errors.

use std::path::Path;
use std::process::Command;

use zkgames::auth::keys::{prove_login, read_identity, read_key, verify_login};
use zkgames::auth::store::{Clock, Policy, Store};
use zkgames::rng::seeded_rng;

use crate::common;
use common::{keygen, prover, run_cmd as run, verifier};

/// A fresh directory per test.
fn dir(name: &str) -> std::path::PathBuf {
    common::fresh_dir("auth-cli", name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Asserts exit status 2 and a single error line.
fn bad(c: &mut Command, what: &str) -> String {
    let (code, out, err) = run(c);
    assert_eq!(code, 2, "{what}: {out}{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: {err}");
    assert!(lines[0].len() < 250, "{what}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("Error {"),
        "{what}"
    );
    err
}

#[test]
fn keygen_writes_a_private_key_and_its_identity_and_never_overwrites() {
    let d = dir("keygen");
    for kind in ["sha256", "peg", "lowmc", "aes128"] {
        let key = d.join(format!("{kind}-user.key"));
        let pubf = d.join(format!("{kind}-user.pub"));
        let (c, out, err) = run(prover().args(["auth", "keygen", "--kind", kind, "-o", s(&key)]));
        assert_eq!(c, 0, "{err}");
        assert!(err.contains("fingerprint"), "{err}");
        assert_eq!(std::fs::read_to_string(&pubf).unwrap(), out);
        assert!(out.starts_with(&format!("zkgames-auth-id-v1 {kind} ")));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{kind}");
        }
        // the key's identity is the .pub
        let k = read_key(s(&key)).unwrap();
        assert_eq!(k.identity(), read_identity(s(&pubf)).unwrap());
        let (c, out2, _) = run(prover().args(["auth", "identity", s(&key)]));
        assert_eq!((c, out2.as_str()), (0, out.as_str()));
        // never overwritten: the key, or the identity next to it
        let before = std::fs::read(&key).unwrap();
        let e = bad(
            prover().args(["auth", "keygen", "--kind", kind, "-o", s(&key)]),
            "overwrite",
        );
        assert!(e.contains("exists"), "{e}");
        assert_eq!(std::fs::read(&key).unwrap(), before);
        std::fs::remove_file(&key).unwrap();
        bad(
            prover().args(["auth", "keygen", "--kind", kind, "-o", s(&key)]),
            "pub exists",
        );
        assert!(
            !key.exists(),
            "no key written when its identity file exists"
        );
    }
    // fresh randomness: two keys differ; a seed reproduces (and warns)
    let (a, b) = (d.join("a.key"), d.join("b.key"));
    for p in [&a, &b] {
        let (c, _, _) = keygen("sha256", s(p));
        assert_eq!(c, 0);
    }
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (c1, o1, e1) = run(prover().args([
        "auth",
        "keygen",
        "--kind",
        "peg",
        "-o",
        s(&d.join("s1")),
        "--seed",
        "5",
    ]));
    let (c2, o2, _) = run(prover().args([
        "auth",
        "keygen",
        "--kind",
        "peg",
        "-o",
        s(&d.join("s2")),
        "--seed",
        "5",
    ]));
    assert_eq!((c1, c2), (0, 0));
    assert_eq!(o1, o2);
    assert!(e1.contains("warning: --seed"));
    assert!(d.join("s1.pub").exists());
    // usage errors (clap's own messages for unknown values)
    let (c, _, _) = keygen("rsa", s(&d.join("x.key")));
    assert_eq!(c, 2);
    bad(
        prover().args(["auth", "keygen", "--kind", "sha256", "-o", "-"]),
        "stdout",
    );
    bad(
        prover().args([
            "auth",
            "keygen",
            "--kind",
            "sha256",
            "-o",
            s(&d.join("no/such/dir/x.key")),
        ]),
        "missing directory",
    );
}

#[test]
fn add_list_remove_and_login_against_the_database() {
    let d = dir("admin");
    let db = d.join("users.db");
    for (name, kind) in [("alice", "sha256"), ("bob", "peg")] {
        let key = d.join(format!("{name}.key"));
        let (c, _, err) = run(prover().args(["auth", "keygen", "--kind", kind, "-o", s(&key)]));
        assert_eq!(c, 0, "{err}");
        let (c, out, err) = run(verifier().args([
            "auth",
            "add",
            name,
            s(&d.join(format!("{name}.pub"))),
            "--db",
            s(&db),
        ]));
        assert_eq!(c, 0, "{err}");
        assert!(out.contains(&format!("added {name} ({kind} key")), "{out}");
    }
    // first come, first served
    let e = bad(
        verifier().args([
            "auth",
            "add",
            "alice",
            s(&d.join("bob.pub")),
            "--db",
            s(&db),
        ]),
        "taken",
    );
    assert!(e.contains("taken"), "{e}");
    let (c, out, _) = run(verifier().args(["auth", "list", "--db", s(&db)]));
    assert_eq!(c, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("NAME"));
    assert!(lines[1].starts_with("alice  sha256"), "{out}");
    assert!(lines[2].starts_with("bob    peg"), "{out}");
    let fp = read_identity(s(&d.join("bob.pub"))).unwrap().fingerprint();
    assert!(lines[2].ends_with(&fp));
    // the database the binary wrote serves logins: prove with the key file the binary wrote
    let st = Store::open_existing(&db, Clock::System, Policy::default()).unwrap();
    let mut rng = seeded_rng(1);
    for name in ["alice", "bob"] {
        let key = read_key(s(&d.join(format!("{name}.key")))).unwrap();
        let id = st.user(name).unwrap().unwrap().identity;
        let n = [3; 32];
        let p = prove_login(&key, "srv", name, &n, &mut rng).unwrap();
        verify_login(&id, "srv", name, &n, &p).unwrap();
        let other = if name == "alice" { "bob" } else { "alice" };
        assert!(verify_login(&id, "srv", other, &n, &p).is_err());
    }
    drop(st);
    // remove, then list again; removing twice is an error
    let (c, out, _) = run(verifier().args(["auth", "remove", "alice", "--db", s(&db)]));
    assert_eq!((c, out.trim()), (0, "removed alice"));
    let e = bad(
        verifier().args(["auth", "remove", "alice", "--db", s(&db)]),
        "remove twice",
    );
    assert!(e.contains("no user named 'alice'"), "{e}");
    let (_, out, _) = run(verifier().args(["auth", "list", "--db", s(&db)]));
    assert_eq!(out.lines().count(), 2);
    assert!(!out.contains("alice"));
    // the name is free again
    let (c, _, _) = run(verifier().args([
        "auth",
        "add",
        "alice",
        s(&d.join("alice.pub")),
        "--db",
        s(&db),
    ]));
    assert_eq!(c, 0);
    // the audit log kept the administrator's actions
    let st = Store::open_existing(&db, Clock::System, Policy::default()).unwrap();
    let events: Vec<String> = st.audit(10).unwrap().into_iter().map(|e| e.event).collect();
    assert_eq!(events, ["register", "remove", "register", "register"]);
    // an empty database lists nothing
    let empty = d.join("empty.db");
    let (c, _, _) =
        run(verifier().args(["auth", "add", "x", s(&d.join("bob.pub")), "--db", s(&empty)]));
    assert_eq!(c, 0);
    run(verifier().args(["auth", "remove", "x", "--db", s(&empty)]));
    let (c, out, err) = run(verifier().args(["auth", "list", "--db", s(&empty)]));
    assert_eq!((c, out.as_str()), (0, ""));
    assert!(err.contains("no users"));
}

#[test]
fn bad_databases_exit_2_with_one_line() {
    let d = dir("baddb");
    let (c, _, _) = keygen("sha256", s(&d.join("u.key")));
    assert_eq!(c, 0);
    let pubf = d.join("u.pub");
    let junk = d.join("junk.db");
    std::fs::write(&junk, vec![0x5au8; 10_000]).unwrap();
    for args in [
        vec!["auth", "list", "--db", s(&junk)],
        vec!["auth", "add", "u", s(&pubf), "--db", s(&junk)],
        vec!["auth", "remove", "u", "--db", s(&junk)],
    ] {
        let e = bad(verifier().args(&args), "junk db");
        assert!(e.contains("not a zkgames user database"), "{e}");
    }
    assert_eq!(std::fs::read(&junk).unwrap(), vec![0x5au8; 10_000]);
    // a missing database: list and remove refuse, and do not create it
    let missing = d.join("missing.db");
    let e = bad(
        verifier().args(["auth", "list", "--db", s(&missing)]),
        "missing",
    );
    assert!(e.contains("no such user database"), "{e}");
    bad(
        verifier().args(["auth", "remove", "u", "--db", s(&missing)]),
        "missing",
    );
    assert!(!missing.exists());
    // a directory
    bad(
        verifier().args(["auth", "list", "--db", s(&d)]),
        "directory",
    );
}

#[test]
fn bad_key_and_identity_files_exit_2_with_one_line() {
    let d = dir("badfiles");
    let (c, _, _) = keygen("peg", s(&d.join("p.key")));
    assert_eq!(c, 0);
    let (c, _, _) = keygen("sha256", s(&d.join("s.key")));
    assert_eq!(c, 0);
    let pk = std::fs::read_to_string(d.join("p.key")).unwrap();
    let sp = std::fs::read_to_string(d.join("s.pub")).unwrap();
    let sk = std::fs::read_to_string(d.join("s.key")).unwrap();
    let db = d.join("users.db");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("binary", vec![0xff, 0xfe, 0, 1, 2]),
        ("a key, not an identity", sk.clone().into_bytes()),
        ("truncated", sp.as_bytes()[..40].to_vec()),
        ("uppercase hex", sp.to_uppercase().into_bytes()),
        ("two lines", format!("{sp}{sp}").into_bytes()),
        ("unknown version", sp.replace("-v1", "-v9").into_bytes()),
        ("huge", vec![b'a'; 3 << 20]),
    ];
    for (what, bytes) in &cases {
        let f = d.join("bad.pub");
        std::fs::write(&f, bytes).unwrap();
        let e = bad(
            verifier().args(["auth", "add", "u", s(&f), "--db", s(&db)]),
            what,
        );
        assert!(e.contains("bad.pub"), "{what}: {e}");
    }
    bad(
        verifier().args(["auth", "add", "u", s(&d.join("none.pub")), "--db", s(&db)]),
        "missing file",
    );
    bad(
        verifier().args([
            "auth",
            "add",
            "Bad Name",
            s(&d.join("s.pub")),
            "--db",
            s(&db),
        ]),
        "bad name",
    );
    // key files, read by `prover auth identity`
    let mut moves_changed = pk.trim_end().to_string();
    let last = moves_changed.pop().unwrap();
    moves_changed.push(if last == '0' { '1' } else { '0' });
    let key_cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("an identity, not a key", sp.clone().into_bytes()),
        ("short secret", sk.replace(&sk[30..34], "").into_bytes()),
        ("moves that do not solve", moves_changed.into_bytes()),
        (
            "peg key without moves",
            pk.rsplit_once(' ').unwrap().0.as_bytes().to_vec(),
        ),
        ("not utf-8", vec![0xc3, 0x28]),
    ];
    for (what, bytes) in &key_cases {
        let f = d.join("bad.key");
        std::fs::write(&f, bytes).unwrap();
        let e = bad(prover().args(["auth", "identity", s(&f)]), what);
        assert!(e.contains("bad.key"), "{what}: {e}");
    }
}

/// Offline proofs for every key kind through the binaries: `prover auth prove` and
/// `verifier auth verify` accept the right identity and text (human and `--json`), reject
/// another text, another identity of the same kind and a tampered file (exit 1, one line, a
/// JSON object with `--json`), refuse a malformed file (exit 2); an offline proof is not a
/// login proof and a login proof is not an offline one.
#[test]
fn offline_proofs_for_every_kind() {
    let d = dir("offline");
    for (kind, sys) in [
        ("sha256", "vole"),
        ("sha256", "zkbpp"),
        ("peg", "vole"),
        ("peg", "kkw"),
        ("lowmc", "kkw"),
        ("lowmc", "zkbpp"),
        ("aes128", "vole"),
        ("aes128", "zkbpp"),
    ] {
        let (key, other) = (
            d.join(format!("{kind}-{sys}.key")),
            d.join(format!("{kind}-{sys}-2.key")),
        );
        for k in [&key, &other] {
            assert_eq!(keygen(kind, s(k)).0, 0);
        }
        let pubf = d.join(format!("{kind}-{sys}.pub"));
        let opub = d.join(format!("{kind}-{sys}-2.pub"));
        let f = d.join(format!("{kind}-{sys}.proof"));
        let (c, _, e) = run(prover().args([
            "auth",
            "prove",
            "--key",
            s(&key),
            "--context",
            "pay bob 5",
            "--system",
            sys,
            "-o",
            s(&f),
        ]));
        assert_eq!(c, 0, "{kind}: {e}");
        assert!(e.contains("bytes"), "{e}");
        let (c, out, e) =
            run(verifier().args(["auth", "verify", s(&pubf), s(&f), "--context", "pay bob 5"]));
        assert_eq!(c, 0, "{kind}: {e}");
        assert!(out.starts_with("ACCEPTED"), "{out}");
        if sys == "vole" {
            // the verdict names the proof's own parameter set, not the login set
            let g = d.join(format!("{kind}-speed.proof"));
            let (c, _, e) = run(prover().args([
                "auth",
                "prove",
                "--key",
                s(&key),
                "--context",
                "pay bob 5",
                "--vole-params",
                "speed",
                "-o",
                s(&g),
            ]));
            assert_eq!(c, 0, "{kind}: {e}");
            let (c, out, e) =
                run(verifier().args(["auth", "verify", s(&pubf), s(&g), "--context", "pay bob 5"]));
            assert_eq!(c, 0, "{kind}: {e}");
            assert!(
                out.contains("speed set") && !out.contains("size set"),
                "{out}"
            );
            assert!(!e.contains("size set"), "{e}");
        }
        let (c, out, _) = run(verifier().args([
            "auth",
            "verify",
            s(&pubf),
            s(&f),
            "--context",
            "pay bob 5",
            "--json",
        ]));
        assert_eq!(c, 0);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["verdict"], "accepted", "{out}");
        assert_eq!(v["kind"], kind);
        // a proof of another identity or text says what a key proof binds, in a key's terms
        // (no puzzle, position, player or digest) whatever the kind and the engine
        let rejected = |args: &[&str]| {
            let (c, out, e) = run(verifier().args(args));
            assert_eq!(c, 1, "{kind} {args:?}: {out}{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
            assert!(
                e.contains("made for another statement (another identity, challenge or context)"),
                "{kind} {sys} {args:?}: {e}"
            );
            for other in ["puzzle", "position", "player", "digest"] {
                assert!(!e.contains(other), "{kind} {sys} {args:?}: {e}");
            }
            let mut j = args.to_vec();
            j.push("--json");
            let (c, out, _) = run(verifier().args(&j));
            assert_eq!(c, 1);
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert!(v.is_object(), "{out}");
        };
        rejected(&["auth", "verify", s(&pubf), s(&f), "--context", "pay bob 6"]);
        rejected(&["auth", "verify", s(&opub), s(&f), "--context", "pay bob 5"]);
        let bytes = std::fs::read(&f).unwrap();
        let t = d.join(format!("{kind}-{sys}.tampered"));
        for pos in [40, bytes.len() / 2, bytes.len() - 3] {
            let mut b = bytes.clone();
            b[pos] ^= 0x20;
            std::fs::write(&t, &b).unwrap();
            let (c, _, e) =
                run(verifier().args(["auth", "verify", s(&pubf), s(&t), "--context", "pay bob 5"]));
            assert!(c == 1 || c == 2, "{kind} byte {pos}: {e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        std::fs::write(&t, b"not a proof").unwrap();
        bad(
            verifier().args(["auth", "verify", s(&pubf), s(&t), "--context", "x"]),
            "garbage",
        );
        // an offline proof does not log in, and a login proof is not an offline one
        let id = read_identity(s(&pubf)).unwrap();
        assert!(verify_login(&id, "srv", "alice", &[0; 32], &bytes).is_err());
        if sys == "vole" {
            let k = read_key(s(&key)).unwrap();
            let login = prove_login(&k, "srv", "alice", &[0; 32], &mut seeded_rng(1)).unwrap();
            assert!(zkgames::auth::keys::verify_offline(&id, b"pay bob 5", &login).is_err());
        }
    }
}
