//! Hostile bytes at every entry point of the peg protocol: proof files, proof bodies,
//! session messages. Nothing may panic or allocate without bound; everything is refused.

mod common;

use proptest::prelude::*;
use zkgames::net::{run_verifier, Channel};
use zkgames::peg::fs;
use zkgames::peg::instance::tee;
use zkgames::peg::session::PegVerifier;
use zkgames::proof_file::{self, Mode, ProofFile, ProtocolId};
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
        let f = ProofFile::new(ProtocolId::PegIso, Mode::NonInteractive, body);
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
