//! `prover auth keygen` and `verifier auth add|list|remove`: keys and the user database of
//! the authentication server (see [`crate::auth`]).

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use crate::auth::keys::{read_identity, read_key, write_new_file, Kind, SecretKey};
use crate::auth::store::{Clock, Event, Policy, Store};
use crate::{Error, Result};

/// Key kinds on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// 32 random bytes; identity = SHA-256 of a tag and the secret (128-bit security).
    Sha256,
    /// A peg solitaire puzzle with a planted solution (puzzle hardness is not a standard
    /// cryptographic assumption: a demonstration, use sha256 for real security).
    Peg,
}

impl From<KindArg> for Kind {
    fn from(k: KindArg) -> Kind {
        match k {
            KindArg::Sha256 => Kind::Sha256,
            KindArg::Peg => Kind::Peg,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Create a secret key (mode 0600, never overwritten) and its public identity NAME.pub.
    Keygen {
        /// Kind of key.
        #[arg(long, value_enum)]
        kind: KindArg,
        /// The secret key file to create; the identity goes next to it, `.key` replaced by
        /// `.pub` (or `.pub` appended).
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Fixed randomness seed: reproducible, NOT secret. Tests only.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Print the public identity of a secret key (to recreate a lost NAME.pub).
    Identity {
        /// The secret key file.
        key: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Register a user with their identity file (administrator, offline); a taken name is
    /// refused. Creates the database if needed.
    Add {
        /// User name: 1 to 32 characters among a-z 0-9 _ - ., starting with a letter or digit.
        name: String,
        /// The user's identity file (NAME.pub), `-` for stdin.
        identity: String,
        /// The user database (SQLite).
        #[arg(long)]
        db: PathBuf,
    },
    /// List the registered users.
    List {
        /// The user database (SQLite).
        #[arg(long)]
        db: PathBuf,
    },
    /// Remove a user, their session tokens and pending challenges.
    Remove {
        /// User name.
        name: String,
        /// The user database (SQLite).
        #[arg(long)]
        db: PathBuf,
    },
}

/// Where the identity of key file `key` goes: `.key` replaced by `.pub`, else `.pub` appended.
pub fn pub_path(key: &Path) -> PathBuf {
    match key.extension() {
        Some(e) if e == "key" => key.with_extension("pub"),
        _ => {
            let mut s = key.as_os_str().to_owned();
            s.push(".pub");
            PathBuf::from(s)
        }
    }
}

pub fn run_prover(cmd: ProverCmd) -> Result<()> {
    match cmd {
        ProverCmd::Keygen { kind, output, seed } => {
            if output.as_os_str() == "-" {
                return Err(Error::bad(
                    "-o: a key is written to a file (mode 0600), not to stdout",
                ));
            }
            let pubp = pub_path(&output);
            for p in [&output, &pubp] {
                if p.exists() {
                    return Err(Error::bad(format!(
                        "{} exists: refusing to overwrite it",
                        p.display()
                    )));
                }
            }
            super::warn_seed(seed);
            let mut rng = crate::rng::rng_from(seed);
            let key = SecretKey::generate(kind.into(), &mut rng)?;
            let id = key.identity();
            write_new_file(&output, &key.to_text(), true)?;
            if let Err(e) = write_new_file(&pubp, &id.to_text(), false) {
                let _ = std::fs::remove_file(&output);
                return Err(e);
            }
            eprintln!(
                "prover: wrote the secret key {} (keep it private) and the identity {} ({} key, fingerprint {})",
                output.display(),
                pubp.display(),
                id.kind(),
                id.fingerprint()
            );
            print!("{}", id.to_text());
            Ok(())
        }
        ProverCmd::Identity { key } => {
            print!("{}", read_key(&key)?.identity().to_text());
            Ok(())
        }
    }
}

fn open_admin(db: &Path, create: bool) -> Result<Store> {
    if create {
        Store::open(db, Clock::System, Policy::default())
    } else {
        Store::open_existing(db, Clock::System, Policy::default())
    }
}

/// `YYYY-MM-DD HH:MM:SSZ` for a Unix time (UTC, proleptic Gregorian calendar).
pub fn format_utc(t: i64) -> String {
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    // civil-from-days (H. Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

pub fn run_verifier(cmd: VerifierCmd) -> Result<()> {
    match cmd {
        VerifierCmd::Add { name, identity, db } => {
            crate::auth::keys::check_user_name(&name)?;
            let id = read_identity(&identity)?;
            let store = open_admin(&db, true)?;
            store.add_user(&name, &id)?;
            store.record(
                Event::Register,
                &name,
                "admin",
                &format!("{} {}", id.kind(), id.fingerprint()),
            )?;
            println!(
                "added {name} ({} key, fingerprint {})",
                id.kind(),
                id.fingerprint()
            );
            Ok(())
        }
        VerifierCmd::List { db } => {
            let store = open_admin(&db, false)?;
            let users = store.users()?;
            if users.is_empty() {
                eprintln!("verifier: no users in {}", db.display());
            } else {
                let w = users.iter().map(|u| u.name.len()).max().unwrap_or(4).max(4);
                println!("{:w$}  KIND    REGISTERED            FINGERPRINT", "NAME");
                for u in &users {
                    println!(
                        "{:w$}  {:6}  {}  {}",
                        u.name,
                        u.identity.kind().name(),
                        format_utc(u.created),
                        u.identity.fingerprint()
                    );
                }
            }
            Ok(())
        }
        VerifierCmd::Remove { name, db } => {
            let store = open_admin(&db, false)?;
            store.remove_user(&name)?;
            store.record(Event::Remove, &name, "admin", "")?;
            println!("removed {name}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_against_known_values() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00:00Z");
        assert_eq!(format_utc(1_700_000_000), "2023-11-14 22:13:20Z");
        assert_eq!(format_utc(-1), "1969-12-31 23:59:59Z");
        assert_eq!(format_utc(4_102_444_800), "2100-01-01 00:00:00Z");
    }

    #[test]
    fn utc_dates_against_day_counting() {
        // an independent reference: walk the calendar day by day from 1970
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let (mut y, mut m, mut d) = (1970i64, 1i64, 1i64);
        for day in 0..80_000i64 {
            let t = day * 86_400 + 3_723;
            assert_eq!(
                format_utc(t),
                format!("{y:04}-{m:02}-{d:02} 01:02:03Z"),
                "day {day}"
            );
            let len = match m {
                2 if leap(y) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            d += 1;
            if d > len {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
    }

    #[test]
    fn pub_paths() {
        assert_eq!(pub_path(Path::new("a/alice.key")), Path::new("a/alice.pub"));
        assert_eq!(pub_path(Path::new("alice")), Path::new("alice.pub"));
        assert_eq!(pub_path(Path::new("alice.sec")), Path::new("alice.sec.pub"));
    }
}
