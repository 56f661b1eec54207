//! Hostile bytes at every entry point of the peg protocol: proof files, proof bodies,
//! session messages. Nothing may panic or allocate without bound; everything is refused.

use crate::common;

use proptest::prelude::*;
use zkgames::mpc::engine::System;
use zkgames::net::{run_verifier, Channel};
use zkgames::peg::fs;
use zkgames::peg::instance::tee;
use zkgames::peg::session::PegVerifier;
use zkgames::proof_file::{self, Mode, ProofFile};
use zkgames::rng::seeded_rng;

fn verify_bytes(b: &[u8]) -> bool {
    let inst = tee();
    let Ok(f) = ProofFile::from_bytes(b) else {
        return false;
    };
    let Ok(p) = fs::decode_proof(&f) else {
        return false;
    };
    fs::verify(&inst, &p, 8, b"").is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_files_are_refused(body in proptest::collection::vec(any::<u8>(), 0..400)) {
        // raw garbage, and garbage behind a valid header
        prop_assert!(!verify_bytes(&body));
        let f = ProofFile::new(zkgames::peg::fs::PEG_ISO, Mode::NonInteractive, body);
        prop_assert!(!verify_bytes(&f.to_bytes()));
    }

    #[test]
    fn random_session_bytes_never_panic(stream in proptest::collection::vec(any::<u8>(), 0..300)) {
        let inst = tee();
        let mut ch = Channel::new(Box::new(std::io::Cursor::new(stream)), Box::new(std::io::sink()));
        let mut v = PegVerifier::new(&inst, 8, b"", seeded_rng(1));
        prop_assert!(run_verifier(&mut ch, &mut v).is_err());
    }

    #[test]
    fn mutated_proofs_are_refused(seed in any::<u64>(), pos in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let inst = tee();
        let mut rng = seeded_rng(seed % 4);
        let good = fs::prove_file(&inst, &common::tee_solution(), 25, b"", &mut rng).unwrap();
        let mut b = good.clone();
        let i = pos.index(b.len());
        prop_assume!(b[i] != byte);
        b[i] = byte;
        prop_assert!(!verify_bytes(&b));
    }
}

#[test]
fn huge_length_prefixes_are_refused_before_allocating() {
    // a frame header announcing 4 GiB
    let inst = tee();
    let mut ch = Channel::new(
        Box::new(std::io::Cursor::new(vec![0xFF; 8])),
        Box::new(std::io::sink()),
    );
    let mut v = PegVerifier::new(&inst, 8, b"", seeded_rng(1));
    assert!(run_verifier(&mut ch, &mut v).is_err());
    // a body whose vector length claims 2^62 responses
    let mut body = vec![0u8; 32];
    body.push(0); // empty context
    body.push(253);
    body.extend_from_slice(&(1u64 << 62).to_le_bytes());
    assert!(proof_file::decode::<fs::PegIsoProof>(&body, "t").is_err());
}

// ---------------------------------------------------------------- through the binaries

use common::{tmp as scratch, VERIFIER};

/// Runs the verifier on a file holding `bytes`; returns (exit code, stdout, stderr).
fn verifier_on(bytes: &[u8], name: &str, args: &[&str]) -> (i32, String, String) {
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|&a| if a == "FILE" { path.as_str() } else { a })
        .collect();
    common::run(VERIFIER, &args)
}

fn tee_file() -> String {
    format!("{}/puzzles/raw/tee.txt", env!("CARGO_MANIFEST_DIR"))
}

/// A well-formed proof whose σ = S opening lists no triplet used to make `peg inspect`
/// index out of bounds; it is shown, and rejected by verify.
#[test]
fn inspect_survives_an_opening_without_triplets() {
    let inst = tee();
    let bytes =
        fs::prove_file(&inst, &common::tee_solution(), 40, b"", &mut seeded_rng(3)).unwrap();
    let f = ProofFile::from_bytes(&bytes).unwrap();
    let mut p = fs::decode_proof(&f).unwrap();
    let r = p
        .responses
        .iter_mut()
        .find(|r| matches!(r.opening, zkgames::peg::protocol::Opening::Iso { .. }))
        .expect("40 rounds with S = 4 open the isomorphism at least once");
    if let zkgames::peg::protocol::Opening::Iso {
        triplets,
        triplet_keys,
        ..
    } = &mut r.opening
    {
        triplets.clear();
        triplet_keys.clear();
    }
    let bad = ProofFile::new(
        zkgames::peg::fs::PEG_ISO,
        Mode::NonInteractive,
        proof_file::encode(&p),
    )
    .to_bytes();
    let (c, out, err) = verifier_on(
        &bad,
        "no-triplets.proof",
        &["peg", "inspect", "FILE", "--all"],
    );
    assert_eq!(c, 0, "{err}");
    assert!(out.contains("no triplet opened"), "{out}");
    let t = tee_file();
    let (c, _, err) = verifier_on(
        &bad,
        "no-triplets.proof",
        &["peg", "verify", &t, "FILE", "--security", "8"],
    );
    assert_eq!(c, 1, "{err}");
}

/// Inspect prints the header's protocol and mode once, and refuses a body that contradicts
/// its header.
#[test]
fn inspect_shows_the_header_and_refuses_inconsistent_files() {
    // SHA-256 proofs are non-interactive only: a header saying "interactive" is refused
    let sha =
        zkgames::mpc::sha256::prove(b"abc", &System::Zkbpp(20), b"", &mut seeded_rng(4)).unwrap();
    let (c, out, err) = verifier_on(&sha, "sha.proof", &["sha256", "inspect", "FILE"]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(out.matches("mode:").count(), 1, "{out}");
    assert!(out.contains("non-interactive"), "{out}");
    let mut flipped = sha.clone();
    flipped[12] = 1;
    for args in [
        &["sha256", "inspect", "FILE"][..],
        &["peg", "inspect", "FILE"][..],
    ] {
        let (c, out, err) = verifier_on(&flipped, "sha-flipped.proof", args);
        assert_eq!(c, 2, "{args:?}: {out}{err}");
        assert!(err.contains("inconsistent"), "{err}");
    }
    // an MPC peg proof: one protocol line, one mode line
    let inst = tee();
    let mpc = zkgames::peg::mpc::prove(
        &inst,
        &common::tee_solution(),
        &System::Zkbpp(20),
        b"",
        &mut seeded_rng(5),
    )
    .unwrap();
    let (c, out, err) = verifier_on(&mpc, "mpc.proof", &["peg", "inspect", "FILE"]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(out.matches("mode:").count(), 1, "{out}");
    assert_eq!(out.matches("protocol:").count(), 1, "{out}");
    assert!(out.contains(&hex::encode(inst.digest())), "{out}");
    // an isomorphism-protocol session transcript whose Hello names another protocol
    let sigmas = vec![1u32; 10];
    let mut rec =
        zkgames::peg::simulate::simulate_session(&inst, &sigmas, b"", &mut seeded_rng(6)).unwrap();
    let good = ProofFile::new(
        zkgames::peg::fs::PEG_ISO,
        Mode::Interactive,
        proof_file::encode(&rec),
    )
    .to_bytes();
    let (c, _, err) = verifier_on(&good, "session.zkp", &["peg", "inspect", "FILE"]);
    assert_eq!(c, 0, "{err}");
    rec.hello.protocol = zkgames::peg::mpc::PEG_MPC.0;
    let bad = ProofFile::new(
        zkgames::peg::fs::PEG_ISO,
        Mode::Interactive,
        proof_file::encode(&rec),
    )
    .to_bytes();
    let (c, _, err) = verifier_on(&bad, "session-bad.zkp", &["peg", "inspect", "FILE"]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("inconsistent"), "{err}");
}

/// An MPC proof checked against another puzzle says so, instead of a length mismatch.
#[test]
fn mpc_proof_for_another_instance_says_so() {
    let inst = tee();
    let mpc = zkgames::peg::mpc::prove(
        &inst,
        &common::tee_solution(),
        &System::Zkbpp(219),
        b"",
        &mut seeded_rng(7),
    )
    .unwrap();
    for other in ["english", "wiegleb"] {
        let (c, _, err) = verifier_on(&mpc, "mpc-other.proof", &["peg", "verify", other, "FILE"]);
        assert_eq!(c, 1, "{err}");
        assert!(err.contains("another instance"), "{err}");
    }
}

/// Writes the one-byte varint at body offset `off` (a value below 251) with a 2-byte marker
/// (251, value, 0): the same value, a second encoding, another file hash.
fn widen_varint(file: &[u8], off: usize) -> Vec<u8> {
    let pos = proof_file::HEADER_LEN + off;
    let v = file[pos];
    assert!(v < 251, "byte {pos} is not a one-byte varint");
    let mut out = file[..pos].to_vec();
    out.extend_from_slice(&[251, v, 0]);
    out.extend_from_slice(&file[pos + 1..]);
    let len = (out.len() - proof_file::HEADER_LEN) as u64;
    out[13..21].copy_from_slice(&len.to_le_bytes());
    out
}

/// A proof file has exactly one valid encoding: a non-minimal varint is refused by every
/// verifier (each proof kind, non-interactive and session transcripts), with exit 2.
#[test]
fn non_canonical_encodings_are_refused_by_every_verifier() {
    let inst = tee();
    let z = common::tee_solution();
    let t = tee_file();
    // (name, file, body offset of a one-byte varint, verify args)
    let iso = fs::prove_file(&inst, &z, 40, b"", &mut seeded_rng(8)).unwrap();
    let sigmas: Vec<u32> = (0..40).map(|i| 1 + i % 4).collect();
    let rec =
        zkgames::peg::simulate::simulate_session(&inst, &sigmas, b"", &mut seeded_rng(9)).unwrap();
    let iso_session = ProofFile::new(
        zkgames::peg::fs::PEG_ISO,
        Mode::Interactive,
        proof_file::encode(&rec),
    )
    .to_bytes();
    let mpc =
        zkgames::peg::mpc::prove(&inst, &z, &System::Zkbpp(30), b"", &mut seeded_rng(10)).unwrap();
    let st = zkgames::peg::mpc::statement_for_tests(&inst, b"").unwrap();
    let trits: Vec<u8> = (0..30).map(|i| (i % 3) as u8).collect();
    let mrec = zkgames::mpc::zkbpp::session::simulate(
        &st.as_ref(),
        zkgames::peg::mpc::PEG_MPC,
        &trits,
        &mut seeded_rng(11),
    );
    let mpc_session =
        zkgames::peg::mpc::session_file(zkgames::mpc::engine::Engine::Zkbpp, &mrec).unwrap();
    let sha =
        zkgames::mpc::sha256::prove(b"abc", &System::Zkbpp(30), b"", &mut seeded_rng(12)).unwrap();
    let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    let peg_args = ["peg", "verify", &t, "FILE", "--security", "8"];
    let sha_args = [
        "sha256",
        "verify",
        "--digest",
        abc,
        "FILE",
        "--security",
        "8",
    ];
    let cases: [(&str, &[u8], usize, &[&str]); 5] = [
        // context length, after the 32-byte instance digest
        ("iso", &iso, 32, &peg_args),
        // Hello.protocol, the first field of a session record
        ("iso-session", &iso_session, 0, &peg_args),
        // the challenge field's length, after the instance digest and the salt
        ("mpc", &mpc, 64, &peg_args),
        ("mpc-session", &mpc_session, 0, &peg_args),
        // the preimage length
        ("sha", &sha, 0, &sha_args),
    ];
    for (name, file, off, args) in cases {
        // session transcripts are checked only when asked for explicitly
        let with_flag: Vec<&str> = args
            .iter()
            .copied()
            .chain(
                name.ends_with("session")
                    .then_some("--allow-session-transcript"),
            )
            .collect();
        let args = &with_flag[..];
        let (c, out, err) = verifier_on(file, &format!("{name}.proof"), args);
        assert_eq!(c, 0, "{name}: the honest file must verify: {out}{err}");
        let wide = widen_varint(file, off);
        let (c, out, err) = verifier_on(&wide, &format!("{name}-wide.proof"), args);
        assert_eq!(c, 2, "{name}: {out}{err}");
        assert!(err.contains("canonical"), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
