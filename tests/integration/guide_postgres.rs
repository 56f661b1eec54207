//! The guide's PostgreSQL recipe (the ```` ```sh postgres ```` block of docs/GUIDE.md), run as
//! written against a server configured as a stock Debian or Ubuntu one: superuser
//! `postgres`, peer authentication on the local socket, a password required on 127.0.0.1
//! (Debian's pg_hba.conf). Only what depends on the machine is substituted: the socket's
//! folder and port (a temporary cluster, tests/integration/common/pg.rs), the HTTP ports (free ones), the
//! binaries' folder, and `sudo -u postgres` (a shell function: `runuser` as root, as CI runs,
//! else the current user as the `postgres` role). Also: a URL without a password where the
//! server asks for one is refused with that advice, not "invalid configuration". Without
//! Debian's `postgresql` package the test says it skipped.

use std::path::Path;
use std::process::Command;

use crate::common;
use common::pg::{Pg, PgError};
use common::{run, VERIFIER};

/// Debian's default pg_hba.conf (PostgreSQL 15), in substance; as a non-root user the
/// `postgres` role cannot be reached through peer (no such system user runs the test), so it
/// is trusted on the socket there instead.
fn debian_hba(root: bool) -> String {
    format!(
        "local   all             postgres                                {}\n\
         local   all             all                                     peer\n\
         host    all             all             127.0.0.1/32            scram-sha-256\n\
         host    all             all             ::1/128                 scram-sha-256\n",
        if root { "peer" } else { "trust" }
    )
}

/// The lines of the block that follows the ```` ```sh postgres ```` fence.
fn recipe(guide: &str) -> String {
    let mut lines = guide
        .lines()
        .skip_while(|l| l.trim() != "```sh postgres")
        .skip(1);
    let mut out = String::new();
    for l in lines.by_ref() {
        if l.trim_start().starts_with("```") {
            return out;
        }
        out += l;
        out.push('\n');
    }
    panic!("docs/GUIDE.md has no complete ```sh postgres block");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn the_guides_postgres_recipe_runs_on_a_stock_debian_configuration() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/GUIDE.md")).unwrap();
    let block = recipe(&guide);
    // what the recipe promises, before anything runs
    assert!(
        block.contains("%2Fvar%2Frun%2Fpostgresql/zkg") && block.contains("sudo -u postgres"),
        "{block}"
    );
    let as_root = is_root();
    let pg = match Pg::start_with("recipe", "postgres", Some(&debian_hba(as_root))) {
        Ok(p) => p,
        Err(PgError::NotInstalled(why)) => {
            common::missing(&why);
            return;
        }
        Err(PgError::Failed(why)) => panic!("PostgreSQL is installed but did not start: {why}"),
    };
    let sock = pg.dir.to_string_lossy().replace('/', "%2F");
    let (h1, h2) = (free_port(), free_port());
    let bin = Path::new(env!("CARGO_BIN_EXE_prover")).parent().unwrap();
    let script = block
        .replace(
            "%2Fvar%2Frun%2Fpostgresql/",
            &format!("{sock}:{}/", pg.port),
        )
        .replace("127.0.0.1:8081", &format!("127.0.0.1:{h1}"))
        .replace("127.0.0.1:8082", &format!("127.0.0.1:{h2}"))
        .replace("target/release/", &format!("{}/", bin.display()));
    // `sudo -u postgres CMD`: CMD as the cluster's superuser, on the test cluster's socket
    let sudo = if as_root {
        "sudo() { [ \"$1\" = -u ] || return 1; local u=$2; shift 2; runuser -u \"$u\" -- \"$@\"; }\n"
    } else {
        "sudo() { [ \"$1\" = -u ] || return 1; local u=$2; shift 2; PGUSER=$u \"$@\"; }\n"
    };
    let work = std::env::temp_dir().join(format!("zkg-pg-recipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let full = format!(
        "set -e -o pipefail\nexport PGHOST={} PGPORT={}\n{sudo}{script}",
        pg.dir.display(),
        pg.port
    );
    let o = Command::new("bash")
        .arg("-c")
        .arg(&full)
        .current_dir(&work)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(
        o.status.success(),
        "the recipe failed:\n{full}\n--- stdout\n{out}\n--- stderr\n{err}"
    );
    // keygen prints the identity, whoami (at the other instance) the user
    assert_eq!(out.lines().last(), Some("bob"), "{out}\n{err}");
    assert!(
        err.contains("registered bob") && err.contains("logged in as bob"),
        "{err}"
    );
    // both instances served from PostgreSQL (not a file named like the URL)
    assert!(
        err.matches("users in postgres://").count() >= 2,
        "both servers on the database: {err}"
    );
    assert!(!work.join("postgres:").exists());

    // the same role over 127.0.0.1 without a password: the advice, not "invalid configuration"
    let user = String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_string();
    let url = format!("postgres://{user}@127.0.0.1:{}/zkg", pg.port);
    let (c, _, e) = run(VERIFIER, &["auth", "list", "--db", &url]);
    assert_eq!(c, 2, "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("asks for a password and the URL has none")
            && e.contains("postgres://USER:PASSWORD@")
            && e.contains("%2Fvar%2Frun%2Fpostgresql"),
        "{e}"
    );
    assert!(!e.contains("invalid configuration"), "{e}");
    // and through the socket, as the recipe connects, the same command works
    let sock_url = format!("postgres://{user}@{sock}:{}/zkg", pg.port);
    let (c, out, e) = run(VERIFIER, &["auth", "list", "--db", &sock_url]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("bob"), "{out}");
    let _ = std::fs::remove_dir_all(&work);
}
