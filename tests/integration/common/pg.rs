//! A throwaway PostgreSQL server for tests and benchmarks: Debian's `postgresql` package
//! (`initdb` and `pg_ctl` under /usr/lib/postgresql/VERSION/bin or on the PATH), a cluster in
//! a fresh temporary directory, listening on a free loopback port only, trust
//! authentication for the loopback user `zkg`. As root (CI), the cluster is created and run
//! as the `postgres` system user (`runuser`), since PostgreSQL refuses to run as root.
//! [`Pg::start`] tells a machine without the package ([`PgError::NotInstalled`]: the caller
//! skips, or fails under `CI=true`) from a server that is there but did not start
//! ([`PgError::Failed`]: always a failure).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running cluster; stopped (immediately) and deleted on drop.
pub struct Pg {
    pub dir: PathBuf,
    pub port: u16,
    bin: PathBuf,
    as_postgres: bool,
}

/// Why no cluster runs.
#[derive(Debug)]
pub enum PgError {
    /// PostgreSQL's `initdb` is on neither path: Debian's `postgresql` is not installed.
    NotInstalled(String),
    /// It is installed, but creating or starting the cluster failed (with the details).
    Failed(String),
}

impl std::fmt::Display for PgError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            PgError::NotInstalled(s) | PgError::Failed(s) => f.write_str(s),
        }
    }
}

fn bin_dir() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let b = e.path().join("bin");
            b.join("initdb").exists().then_some((v, b))
        })
        .collect();
    found.sort();
    if let Some((_, b)) = found.pop() {
        return Some(b);
    }
    let o = Command::new("pg_config").arg("--bindir").output().ok()?;
    let b = PathBuf::from(String::from_utf8(o.stdout).ok()?.trim());
    b.join("initdb").exists().then_some(b)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Pg {
    /// Starts a cluster, or says why not: not installed, or installed and failed.
    pub fn start(tag: &str) -> Result<Pg, PgError> {
        Pg::start_with(tag, "zkg", None)
    }

    /// Whether the cluster's processes run as the `postgres` system user (as root).
    pub fn as_postgres(&self) -> bool {
        self.as_postgres
    }

    /// A cluster whose superuser is `superuser`, with `hba` as its pg_hba.conf when given
    /// (e.g. a stock Debian one: peer on the socket, a password on 127.0.0.1).
    pub fn start_with(tag: &str, superuser: &str, hba: Option<&str>) -> Result<Pg, PgError> {
        let bin = bin_dir().ok_or_else(|| {
            PgError::NotInstalled("PostgreSQL not found (apt-get install postgresql)".into())
        })?;
        Pg::create(bin, tag, superuser, hba).map_err(PgError::Failed)
    }

    fn create(bin: PathBuf, tag: &str, superuser: &str, hba: Option<&str>) -> Result<Pg, String> {
        let as_postgres = is_root();
        let dir = std::env::temp_dir().join(format!("zkg-pg-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data")).map_err(|e| e.to_string())?;
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .map_err(|e| e.to_string())?;
            if !ok.success() {
                return Err("cannot hand the cluster directory to the postgres user".into());
            }
        }
        let mut pg = Pg {
            dir,
            port: 0,
            bin,
            as_postgres,
        };
        let data = pg.dir.join("data");
        let o = pg
            .cmd("initdb")
            .args([
                "-A",
                "trust",
                "-U",
                superuser,
                "--no-sync",
                "-E",
                "UTF8",
                "-D",
            ])
            .arg(&data)
            .output()
            .map_err(|e| e.to_string())?;
        if !o.status.success() {
            return Err(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        if let Some(h) = hba {
            let f = data.join("pg_hba.conf");
            std::fs::write(&f, h).map_err(|e| e.to_string())?;
            if as_postgres {
                let _ = Command::new("chown")
                    .arg("postgres:postgres")
                    .arg(&f)
                    .status();
            }
        }
        // a port taken between the probe and the start: try again with another
        for _ in 0..5 {
            pg.port = free_port();
            let opts = format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off",
                pg.port,
                pg.dir.display()
            );
            let o = pg
                .cmd("pg_ctl")
                .arg("-D")
                .arg(&data)
                .args(["-o", &opts, "-l"])
                .arg(pg.dir.join("log"))
                .args(["-w", "-t", "60", "start"])
                .output()
                .map_err(|e| e.to_string())?;
            if o.status.success() {
                return Ok(pg);
            }
        }
        let log = std::fs::read_to_string(pg.dir.join("log")).unwrap_or_default();
        Err(format!("pg_ctl start failed: {log}"))
    }

    fn cmd(&self, tool: &str) -> Command {
        let path = self.bin.join(tool);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// The URL of the cluster's default database `postgres`.
    pub fn url(&self) -> String {
        format!("postgres://zkg@127.0.0.1:{}/postgres", self.port)
    }

    /// The URL of database `name`, created if needed.
    pub fn database(&self, name: &str) -> String {
        let o = self
            .cmd("createdb")
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "zkg",
                name,
            ])
            .output()
            .unwrap();
        assert!(
            o.status.success() || String::from_utf8_lossy(&o.stderr).contains("already exists"),
            "createdb: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        format!("postgres://zkg@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs SQL through `psql` on database `db`; its stdout.
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let o = self
            .cmd("psql")
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "zkg",
                "-At",
                "-d",
                db,
                "-c",
                sql,
            ])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "psql: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    pub fn data(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let _ = self
            .cmd("pg_ctl")
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
