//! The versioned container for every proof and session transcript this crate writes.
//!
//! Byte layout (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `ZKGAMES\0` |
//! | 8 | 2 | format version (currently 1) |
//! | 10 | 2 | protocol id ([`ProtocolId`]): the kind and the engine; each kind declares its own (docs/PROTOCOLS.md 1.4 lists them) |
//! | 12 | 1 | mode: 0 = non-interactive (Fiat–Shamir), 1 = interactive session transcript |
//! | 13 | 8 | body length `L` |
//! | 21 | L | body: the protocol's proof, bincode 2 `standard()` configuration |
//!
//! Nothing may follow the body. Readers check every field before decoding the body, and
//! decode the body with a byte limit so a hostile length prefix cannot make them allocate.

use serde::{de::DeserializeOwned, Serialize};

use crate::Error;
use crate::Result;

/// The 8 magic bytes at the start of every proof file.
pub const MAGIC: &[u8; 8] = b"ZKGAMES\0";
/// The container format version this build reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 21;
/// The largest body accepted (64 MiB): far above any honest proof, small enough to refuse
/// garbage before allocating.
pub const MAX_BODY: usize = 64 << 20;

/// A proof file's protocol id: which kind of statement its body proves, and with which
/// engine. Each kind declares its own ids beside its statement (a kind on the engines with
/// `zkgames_mpc::protocols!`, one id per engine it offers) and registers them in
/// [`PROTOCOL_IDS`]; this layer lists none, and [`ProtocolId::name`] reads the registry.
/// docs/PROTOCOLS.md 1.4 lists every id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtocolId(pub u16);

/// A registered protocol id: the kind and the proof system it names.
#[derive(Debug)]
pub struct Registered {
    pub id: ProtocolId,
    /// The kind of statement: `peg solitaire`, `SHA-256 preimage`.
    pub kind: &'static str,
    /// The proof system as users read it in a protocol's name: `ZKB++ (MPC-in-the-head)`.
    pub system: &'static str,
    /// The engine's name (`VOLE-in-the-head`, or `the isomorphism protocol`) and its
    /// `--system` value.
    pub engine: (&'static str, &'static str),
}

/// Every protocol id the crates linked into this program declare (each kind adds its own
/// entries where it is defined; the linker collects them).
#[linkme::distributed_slice]
pub static PROTOCOL_IDS: [Registered];

impl ProtocolId {
    /// The id's registration, if a kind linked into this program declares it.
    pub fn registered(self) -> Option<&'static Registered> {
        PROTOCOL_IDS.iter().find(|r| r.id == self)
    }

    /// The registered id with number `x`.
    pub fn from_u16(x: u16) -> Option<Self> {
        ProtocolId(x).registered().map(|r| r.id)
    }

    /// The id's number in files and session Hellos.
    pub fn number(self) -> u16 {
        self.0
    }

    /// A short human name: `peg solitaire, ZKB++ (MPC-in-the-head)`.
    pub fn name(self) -> String {
        match self.registered() {
            Some(r) => format!("{}, {}", r.kind, r.system),
            None => format!("protocol {}", self.0),
        }
    }
}

/// The engine a protocol's proofs run, as users name it and as `--system` selects it.
pub fn engine_of(p: ProtocolId) -> (&'static str, &'static str) {
    p.registered()
        .map_or(("an unknown proof system", "vole"), |r| r.engine)
}

/// How [`protocol_mismatch`] messages start: a refusal that judged no proof (the two
/// programs were started for different protocols), which [`is_protocol_mismatch`] tells from
/// a refusal of the prover's claims.
const MISMATCH_STARTS: [&str; 3] = [
    "this verifier runs ",
    "the prover proves another kind of statement",
    "the prover speaks protocol ",
];

/// Whether a verifier's refusal is a [`protocol_mismatch`]: a usage error for the prover (exit
/// 2), not a rejection.
pub fn is_protocol_mismatch(reason: &str) -> bool {
    MISMATCH_STARTS.iter().any(|s| reason.starts_with(s))
}

/// Why a live verifier refuses a prover's hello for protocol `got` when it runs `want`: the
/// engine each side runs and the flag that makes them agree (not two protocol numbers).
pub fn protocol_mismatch(got: u16, want: ProtocolId) -> String {
    let (we, wflag) = engine_of(want);
    match ProtocolId::from_u16(got) {
        Some(g) if engine_of(g) != engine_of(want) => {
            let (ge, gflag) = engine_of(g);
            format!(
                "this verifier runs {we} and the prover {ge}: start both with `--system {wflag}` \
                 (or both with `--system {gflag}`)"
            )
        }
        Some(g) => format!(
            "the prover proves another kind of statement ({}), this verifier expects {} \
             (`--system {wflag}`): start the prover's command of the same kind",
            g.name(),
            want.name()
        ),
        None => format!(
            "the prover speaks protocol {got}, which this build does not know; this verifier \
             runs {} (`--system {wflag}`): update one of the two programs",
            want.name()
        ),
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
        out.extend_from_slice(&self.protocol.0.to_le_bytes());
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

    /// Refuses a recorded interactive session where evidence is expected.
    ///
    /// A session transcript is not evidence: whoever chose its challenges can make an
    /// accepting one without any witness (the simulator), so a verifier must not report
    /// success for one unless the user asked for a consistency check explicitly.
    pub fn require_evidence(&self, allow_session_transcript: bool) -> Result<()> {
        if self.mode == Mode::Interactive && !allow_session_transcript {
            return Err(Error::rejected(
                "this is a recorded interactive session transcript, not a proof: anyone can make an accepting one without a solution (see `prover peg simulate`); pass --allow-session-transcript to check its consistency anyway",
            ));
        }
        Ok(())
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

/// The bytes [`encode`] writes for the number `n` (bincode 2 `standard()`'s varint: 1 byte
/// below 251, then a marker byte and 2, 4 or 8 bytes): a length, an enum tag, a `u32`.
/// The size functions of the session bounds count with it.
pub const fn varint_len(n: u64) -> usize {
    if n < 251 {
        1
    } else if n <= u16::MAX as u64 {
        3
    } else if n <= u32::MAX as u64 {
        5
    } else {
        9
    }
}

/// The bytes [`encode`] writes for a list of `n` items of `item` bytes each (a byte string
/// is a list of bytes of 1).
pub const fn list_len(n: usize, item: usize) -> usize {
    varint_len(n as u64) + n * item
}

/// Decodes a body with a byte limit; every input byte must be consumed, and the bytes must
/// be the value's one canonical encoding (decode, re-encode, compare): a number or length
/// written with more bytes than needed is refused, so a file's hash identifies its proof.
pub fn decode<T: DeserializeOwned + Serialize>(bytes: &[u8], what: &str) -> Result<T> {
    if bytes.len() > MAX_BODY {
        return Err(Error::bad(format!(
            "{what}: {} bytes exceeds the limit",
            bytes.len()
        )));
    }
    let cfg = bincode::config::standard().with_limit::<MAX_BODY>();
    let (v, used): (T, usize) = bincode::serde::decode_from_slice(bytes, cfg)
        .map_err(|e| Error::bad(format!("{what}: {}", describe(&e))))?;
    if used != bytes.len() {
        return Err(Error::bad(format!(
            "{what}: {} trailing bytes",
            bytes.len() - used
        )));
    }
    if encode(&v) != bytes {
        return Err(Error::bad(format!(
            "{what}: not the canonical encoding (a number or length is written with more bytes than it needs)"
        )));
    }
    Ok(v)
}

/// A decoding error in plain words (bincode's own text is Rust debug output).
fn describe(e: &bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as D;
    match e {
        D::UnexpectedEnd { .. } => "the data ends too early".into(),
        D::LimitExceeded => format!("a length exceeds the {MAX_BODY}-byte limit"),
        D::InvalidIntegerType { .. } => "an integer has an invalid length marker".into(),
        D::NonZeroTypeIsZero { .. } => "an integer that must not be zero is zero".into(),
        D::UnexpectedVariant { found, .. } => format!("unknown variant number {found}"),
        D::Utf8 { .. } => "a string is not UTF-8".into(),
        D::InvalidCharEncoding(_) => "a character is not valid UTF-8".into(),
        D::InvalidBooleanValue(b) => format!("a boolean is {b}, not 0 or 1"),
        D::ArrayLengthMismatch { required, found } => {
            format!("an array has {found} elements, expected {required}")
        }
        D::OutsideUsizeRange(n) => format!("a length of {n} is too large"),
        D::OtherString(m) => format!("malformed encoding: {}", crate::files::excerpt(m)),
        D::Other(m) => format!("malformed encoding: {m}"),
        _ => "malformed encoding".into(),
    }
}

/// Reads a whole file (or stdin for `-`), refusing anything over `limit` bytes: see
/// [`crate::files::read_input`].
pub fn read_input(path: &str, limit: u64) -> Result<Vec<u8>> {
    crate::files::read_input(path, limit)
}

/// Writes public text to a file, or stdout for `-`: [`crate::files::Output::TEXT`] (atomic
/// replacement of regular files, devices and FIFOs written in place).
pub fn write_output(path: &str, bytes: &[u8]) -> Result<()> {
    crate::files::Output::TEXT.write(path, bytes)
}

/// Writes a proof or transcript like [`write_output`], but refuses to dump binary bytes on a
/// terminal (`-` while stdout is a terminal): [`crate::files::Output::BINARY`].
pub fn write_proof(path: &str, bytes: &[u8]) -> Result<()> {
    crate::files::Output::BINARY.write(path, bytes)
}

/// A byte string field read and written as one block (`#[serde(with = "crate::proof_file::bytes")]`):
/// the same bytes as a plain `Vec<u8>` (a length, then the bytes), but decoded with one copy
/// instead of one call per byte, so that a file's decoding costs little beside its
/// verification whatever its size (docs/PROTOCOLS.md 5.7).
pub mod bytes {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<u8>, D::Error> {
        d.deserialize_byte_buf(Visit)
    }

    struct Visit;

    impl<'de> serde::de::Visitor<'de> for Visit {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a byte string")
        }
        fn visit_bytes<E>(self, v: &[u8]) -> std::result::Result<Vec<u8>, E> {
            Ok(v.to_vec())
        }
        fn visit_byte_buf<E>(self, v: Vec<u8>) -> std::result::Result<Vec<u8>, E> {
            Ok(v)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut a: A,
        ) -> std::result::Result<Vec<u8>, A::Error> {
            let mut v = Vec::with_capacity(a.size_hint().unwrap_or(0).min(1 << 16));
            while let Some(b) = a.next_element()? {
                v.push(b);
            }
            Ok(v)
        }
    }
}

/// A list of byte strings, each as [`bytes`] (the same bytes as a `Vec<Vec<u8>>`).
pub mod bytes_list {
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct B(#[serde(with = "super::bytes")] Vec<u8>);

    #[derive(Serialize)]
    struct R<'a>(#[serde(with = "super::bytes")] &'a Vec<u8>);

    pub fn serialize<S: Serializer>(v: &[Vec<u8>], s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut q = s.serialize_seq(Some(v.len()))?;
        for b in v {
            q.serialize_element(&R(b))?;
        }
        q.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<Vec<Vec<u8>>, D::Error> {
        Ok(Vec::<B>::deserialize(d)?.into_iter().map(|b| b.0).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_ID: ProtocolId = ProtocolId(1);

    #[linkme::distributed_slice(PROTOCOL_IDS)]
    static TEST_KIND: Registered = Registered {
        id: TEST_ID,
        kind: "test kind",
        system: "the test system",
        engine: ("the test system", "test"),
    };

    /// Every mismatch message, for every pair of protocols and an unknown one, is recognised
    /// as one, names an engine flag, and never a refusal of claims.
    #[test]
    fn varint_and_list_lengths_are_the_encoding_s() {
        for n in [
            0u64,
            1,
            250,
            251,
            65535,
            65536,
            u32::MAX as u64,
            u32::MAX as u64 + 1,
            u64::MAX,
        ] {
            assert_eq!(encode(&n).len(), varint_len(n), "{n}");
        }
        for n in [0usize, 3, 250, 251, 70000] {
            assert_eq!(encode(&vec![[0u8; 16]; n]).len(), list_len(n, 16), "{n}");
        }
    }

    #[test]
    fn protocol_mismatches_are_recognised_and_name_a_flag() {
        // this crate's tests link no kind: one of its own
        let all = [TEST_ID];
        for &want in &all {
            for got in (0..64).chain([u16::MAX]) {
                if got == want.0 {
                    continue;
                }
                let m = protocol_mismatch(got, want);
                assert!(is_protocol_mismatch(&m), "{m}");
                assert!(m.contains("`--system "), "{m}");
            }
        }
        assert!(!is_protocol_mismatch(
            "the proof's parameters give 20 bits of security"
        ));
        assert!(!is_protocol_mismatch(
            "made for another statement (another puzzle, position, player, digest or context)"
        ));
    }

    #[test]
    fn round_trip_and_every_truncation_is_refused() {
        let f = ProofFile::new(TEST_ID, Mode::NonInteractive, vec![1, 2, 3, 4]);
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
    fn byte_fields_encode_as_plain_vectors() {
        #[derive(Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Fast {
            #[serde(with = "super::bytes")]
            a: Vec<u8>,
            #[serde(with = "super::bytes_list")]
            b: Vec<Vec<u8>>,
        }
        #[derive(Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Plain {
            a: Vec<u8>,
            b: Vec<Vec<u8>>,
        }
        let mut rng = crate::rng::seeded_rng(5);
        use rand::Rng as _;
        for n in [0usize, 1, 127, 128, 300, 70_000] {
            let a: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
            let b: Vec<Vec<u8>> = (0..n % 7)
                .map(|i| a[..a.len().min(i * 50)].to_vec())
                .collect();
            let fast = encode(&Fast {
                a: a.clone(),
                b: b.clone(),
            });
            assert_eq!(
                fast,
                encode(&Plain {
                    a: a.clone(),
                    b: b.clone()
                }),
                "{n}"
            );
            assert_eq!(decode::<Fast>(&fast, "t").unwrap(), Fast { a, b });
        }
        // a length beyond the data is refused without allocating
        let huge = [0xFDu8, 0, 0, 0, 0x10, 0];
        assert!(decode::<Fast>(&huge, "t").is_err());
    }

    #[test]
    fn decode_refuses_non_canonical_encodings_in_plain_words() {
        let v: Vec<u32> = vec![1, 300, 70_000];
        let b = encode(&v);
        assert_eq!(b, [3, 1, 251, 44, 1, 252, 112, 17, 1, 0]);
        // the length 3 written as a u16 (marker 251), as a u32, as a u64
        for long in [
            &[251u8, 3, 0][..],
            &[252, 3, 0, 0, 0],
            &[253, 3, 0, 0, 0, 0, 0, 0, 0],
        ] {
            let mut t = long.to_vec();
            t.extend_from_slice(&b[1..]);
            let e = decode::<Vec<u32>>(&t, "t").unwrap_err().to_string();
            assert!(e.contains("canonical"), "{e}");
        }
        // the element 1 written with a marker, the element 300 as a u32
        let mut t = vec![3, 251, 1, 0];
        t.extend_from_slice(&b[2..]);
        assert!(decode::<Vec<u32>>(&t, "t").is_err());
        let mut t = vec![3, 1, 252, 44, 1, 0, 0];
        t.extend_from_slice(&b[5..]);
        assert!(decode::<Vec<u32>>(&t, "t").is_err());
        // errors are words, not Rust debug text
        let e = decode::<Vec<u32>>(&b[..4], "t").unwrap_err().to_string();
        assert_eq!(e, "t: the data ends too early");
        let e = decode::<bool>(&[7], "t").unwrap_err().to_string();
        assert_eq!(e, "t: a boolean is 7, not 0 or 1");
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
