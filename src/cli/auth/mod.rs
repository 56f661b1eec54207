//! `prover auth` and `verifier auth`: keys, offline proofs of a key bound to a text, the
//! login client and the user database and login server (see [`crate::auth`]). The prover's
//! commands are in [`prover`], the verifier's in [`verifier`].

use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::auth::keys::Kind;

mod prover;
mod verifier;

pub use prover::{run_prover, ProverCmd};
pub use verifier::{run_verifier, VerifierCmd};

/// Key kinds on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// 32 random bytes; identity = SHA-256 of a tag and the secret (128-bit security).
    Sha256,
    /// A peg solitaire puzzle with a planted solution (puzzle hardness is not a standard
    /// cryptographic assumption: a demonstration, use sha256 for real security).
    Peg,
    /// A 129-bit LowMC key; identity = a random plaintext and its ciphertext (LowMC-129-129-43-4
    /// as in Picnic3-L1; LowMC has had far less cryptanalysis than AES).
    Lowmc,
    /// An AES-128 key; identity = a random plaintext and its ciphertext (FAEST's statement:
    /// the conservative choice, resting on the most studied block cipher).
    Aes128,
}

impl From<KindArg> for Kind {
    fn from(k: KindArg) -> Kind {
        match k {
            KindArg::Sha256 => Kind::Sha256,
            KindArg::Peg => Kind::Peg,
            KindArg::Lowmc => Kind::Lowmc,
            KindArg::Aes128 => Kind::Aes128,
        }
    }
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
