//! The versioned container for every proof and session transcript this crate writes.
//!
//! Byte layout (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `ZKGAMES\0` |
//! | 8 | 2 | format version (currently 1) |
//! | 10 | 2 | protocol id ([`ProtocolId`]): 1 peg iso, 2 peg ZKB++, 3 SHA-256 ZKB++, 4 peg KKW, 5 SHA-256 KKW |
//! | 12 | 1 | mode: 0 = non-interactive (Fiat–Shamir), 1 = interactive session transcript |
//! | 13 | 8 | body length `L` |
//! | 21 | L | body: the protocol's proof, bincode 2 `standard()` configuration |
//!
//! Nothing may follow the body. Readers check every field before decoding the body, and
//! decode the body with a byte limit so a hostile length prefix cannot make them allocate.

use serde::{de::DeserializeOwned, Serialize};

use crate::{Error, Result};

/// The 8 magic bytes at the start of every proof file.
pub const MAGIC: &[u8; 8] = b"ZKGAMES\0";
/// The container format version this build reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 21;
/// The largest body accepted (64 MiB): far above any honest proof, small enough to refuse
/// garbage before allocating.
pub const MAX_BODY: usize = 64 << 20;

/// Which proof system produced the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum ProtocolId {
    /// Peg solitaire, Protocol 1 of Bultel (FUN 2022), isomorphism-based.
    PegIso = 1,
    /// Peg solitaire through the ZKB++ engine.
    PegMpc = 2,
    /// Knowledge of a SHA-256 preimage through the ZKB++ engine.
    Sha256Mpc = 3,
    /// Peg solitaire through the KKW engine.
    PegKkw = 4,
    /// Knowledge of a SHA-256 preimage through the KKW engine.
    Sha256Kkw = 5,
}

impl ProtocolId {
    /// Parses the 2-byte protocol id.
    pub fn from_u16(x: u16) -> Option<Self> {
        match x {
            1 => Some(ProtocolId::PegIso),
            2 => Some(ProtocolId::PegMpc),
            3 => Some(ProtocolId::Sha256Mpc),
            4 => Some(ProtocolId::PegKkw),
            5 => Some(ProtocolId::Sha256Kkw),
            _ => None,
        }
    }
    /// A short human name.
    pub fn name(self) -> &'static str {
        match self {
            ProtocolId::PegIso => "peg solitaire, isomorphism protocol (FUN 2022, Protocol 1)",
            ProtocolId::PegMpc => "peg solitaire, ZKB++ (MPC-in-the-head)",
            ProtocolId::Sha256Mpc => "SHA-256 preimage, ZKB++ (MPC-in-the-head)",
            ProtocolId::PegKkw => "peg solitaire, KKW (MPC-in-the-head with preprocessing)",
            ProtocolId::Sha256Kkw => "SHA-256 preimage, KKW (MPC-in-the-head with preprocessing)",
        }
    }
}

/// How the proof was produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Fiat–Shamir: anyone can verify it offline; transferable evidence.
    NonInteractive = 0,
    /// A recorded live session: the challenges were the verifier's own. Not transferable:
    /// anyone can fabricate such a transcript with the simulator.
    Interactive = 1,
}

/// A parsed container: header fields and the raw body bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFile {
    pub protocol: ProtocolId,
    pub mode: Mode,
    pub body: Vec<u8>,
}

impl ProofFile {
    /// Wraps an encoded body.
    pub fn new(protocol: ProtocolId, mode: Mode, body: Vec<u8>) -> Self {
        ProofFile {
            protocol,
            mode,
            body,
        }
    }

    /// Serializes header and body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.protocol as u16).to_le_bytes());
        out.push(self.mode as u8);
        out.extend_from_slice(&(self.body.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.body);
        out
    }

    /// Parses and checks the header; the body is returned undecoded.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < HEADER_LEN {
            return Err(Error::bad(format!(
                "not a proof file: {} bytes, shorter than the {HEADER_LEN}-byte header",
                bytes.len()
            )));
        }
        if &bytes[..8] != MAGIC {
            return Err(Error::bad(
                "not a proof file: wrong magic bytes (expected ZKGAMES)",
            ));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != FORMAT_VERSION {
            return Err(Error::bad(format!(
                "proof file format version {version} is not supported (this build reads version {FORMAT_VERSION})"
            )));
        }
        let pid = u16::from_le_bytes([bytes[10], bytes[11]]);
        let protocol = ProtocolId::from_u16(pid)
            .ok_or_else(|| Error::bad(format!("unknown protocol id {pid} in proof file")))?;
        let mode = match bytes[12] {
            0 => Mode::NonInteractive,
            1 => Mode::Interactive,
            m => return Err(Error::bad(format!("unknown proof mode byte {m}"))),
        };
        let len = u64::from_le_bytes(bytes[13..21].try_into().expect("8 bytes"));
        if len > MAX_BODY as u64 {
            return Err(Error::bad(format!(
                "proof body of {len} bytes exceeds the {MAX_BODY}-byte limit"
            )));
        }
        let rest = &bytes[HEADER_LEN..];
        if (rest.len() as u64) < len {
            return Err(Error::bad(format!(
                "truncated proof file: body should be {len} bytes, found {}",
                rest.len()
            )));
        }
        if (rest.len() as u64) > len {
            return Err(Error::bad(format!(
                "{} unexpected trailing bytes after the proof body",
                rest.len() as u64 - len
            )));
        }
        Ok(ProofFile {
            protocol,
            mode,
            body: rest.to_vec(),
        })
    }

    /// Checks that the file holds the expected protocol.
    pub fn expect_protocol(&self, p: ProtocolId) -> Result<()> {
        if self.protocol != p {
            return Err(Error::bad(format!(
                "this proof is for '{}', not '{}'",
                self.protocol.name(),
                p.name()
            )));
        }
        Ok(())
    }
}

/// Encodes a value with bincode 2's `standard()` configuration (the body encoding).
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("bincode encoding of in-memory value")
}

/// Decodes a body with a byte limit; every input byte must be consumed.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T> {
    if bytes.len() > MAX_BODY {
        return Err(Error::bad(format!(
            "{what}: {} bytes exceeds the limit",
            bytes.len()
        )));
    }
    let cfg = bincode::config::standard().with_limit::<MAX_BODY>();
    let (v, used) = bincode::serde::decode_from_slice(bytes, cfg)
        .map_err(|e| Error::bad(format!("{what}: malformed encoding ({e})")))?;
    if used != bytes.len() {
        return Err(Error::bad(format!(
            "{what}: {} trailing bytes",
            bytes.len() - used
        )));
    }
    Ok(v)
}

/// Reads a whole file (or stdin for `-`), refusing anything over `limit` bytes.
pub fn read_input(path: &str, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::new();
    let r: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).map_err(|e| Error::io(format!("cannot open {path}"), e))?,
        )
    };
    r.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::io(format!("cannot read {path}"), e))?;
    if buf.len() as u64 > limit {
        return Err(Error::bad(format!(
            "{path}: larger than the {limit}-byte limit"
        )));
    }
    Ok(buf)
}

/// Writes bytes to a file, or stdout for `-`. The file is written to a temporary name and
/// renamed, so an interrupted run never leaves a half-written proof behind.
pub fn write_output(path: &str, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    if path == "-" {
        let mut o = std::io::stdout().lock();
        o.write_all(bytes)
            .and_then(|_| o.flush())
            .map_err(|e| Error::io("cannot write to stdout", e))
    } else {
        let tmp = format!("{path}.tmp{}", std::process::id());
        std::fs::write(&tmp, bytes).map_err(|e| Error::io(format!("cannot write {tmp}"), e))?;
        std::fs::rename(&tmp, path).map_err(|e| Error::io(format!("cannot write {path}"), e))
    }
}

/// Writes a proof or transcript like [`write_output`], but refuses to dump binary bytes on a
/// terminal (`-` while stdout is a terminal).
pub fn write_proof(path: &str, bytes: &[u8]) -> Result<()> {
    use std::io::IsTerminal;
    if path == "-" && std::io::stdout().is_terminal() {
        return Err(Error::bad(
            "refusing to write a binary proof to the terminal: use -o FILE, or redirect stdout",
        ));
    }
    write_output(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_truncation_is_refused() {
        let f = ProofFile::new(ProtocolId::PegIso, Mode::NonInteractive, vec![1, 2, 3, 4]);
        let b = f.to_bytes();
        assert_eq!(ProofFile::from_bytes(&b).unwrap(), f);
        for cut in 0..b.len() {
            assert!(ProofFile::from_bytes(&b[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(ProofFile::from_bytes(&longer).is_err());
        for i in 0..HEADER_LEN {
            let mut t = b.clone();
            t[i] ^= 0x80;
            assert!(ProofFile::from_bytes(&t).is_err(), "header byte {i}");
        }
    }

    #[test]
    fn decode_refuses_trailing_and_huge_lengths() {
        let v: Vec<u32> = vec![1, 2, 3];
        let mut b = encode(&v);
        assert_eq!(decode::<Vec<u32>>(&b, "t").unwrap(), v);
        b.push(0);
        assert!(decode::<Vec<u32>>(&b, "t").is_err());
        // a varint length prefix claiming 2^60 elements
        let huge = [0xFFu8, 0, 0, 0, 0, 0, 0, 0x10, 1];
        assert!(decode::<Vec<u64>>(&huge, "t").is_err());
    }
}
