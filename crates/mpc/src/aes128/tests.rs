use super::*;
use crate::circuit::gf256_inv;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use rand::Rng as _;
use zkgames_core::rng::seeded_rng;

fn h16(s: &str) -> [u8; BYTES] {
    hex::decode(s).unwrap().try_into().unwrap()
}

fn reference(key: &[u8; BYTES], pt: &[u8; BYTES]) -> [u8; BYTES] {
    let c = aes::Aes128::new(&Array::from(*key));
    let mut b = Array::from(*pt);
    c.encrypt_block(&mut b);
    b.into()
}

fn bits_bytes(b: &[bool]) -> [u8; BYTES] {
    std::array::from_fn(|i| (0..8).fold(0u8, |x, j| x | ((b[8 * i + j] as u8) << j)))
}

/// FIPS 197 Appendix B and C.1, plain and as a circuit; S-box values of its Figure 7.
#[test]
fn fips_197_vectors() {
    for (k, p, c) in [
        (
            "2b7e151628aed2a6abf7158809cf4f3c",
            "3243f6a8885a308d313198a2e0370734",
            "3925841d02dc09fbdc118597196a0b32",
        ),
        (
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "69c4e0d86a7b0430d8cdb78070b4c55a",
        ),
    ] {
        let (k, p, c) = (h16(k), h16(p), h16(c));
        assert_eq!(encrypt(&k, &p), c);
        let circ = aes128_circuit(&p);
        let w = bytes_bits(&k);
        assert_eq!(bits_bytes(&circ.eval(&w)), c);
        assert_eq!(circ.eval_checked(&w).is_ok(), sbox_inputs_nonzero(&k, &p));
    }
    assert_eq!(sbox(0x00), 0x63);
    assert_eq!(sbox(0x53), 0xed);
    assert_eq!(sbox(0xff), 0x16);
}

/// Plain encryption and the circuit (with inverses, and lowered) against the `aes` crate on
/// random keys and plaintexts; the circuit's shape.
#[test]
fn circuit_matches_an_independent_aes() {
    let mut rng = seeded_rng(5);
    for i in 0..300 {
        let (k, p): ([u8; BYTES], [u8; BYTES]) = (rng.gen(), rng.gen());
        let c = reference(&k, &p);
        assert_eq!(encrypt(&k, &p), c);
        if i % 10 == 0 {
            let circ = aes128_circuit(&p);
            assert_eq!(circ.n_inv(), SBOXES);
            assert_eq!(circ.n_and(), 0);
            assert_eq!(circ.n_inputs() + circ.n_inv_bits(), VOLE_WITNESS_BITS);
            let w = bytes_bits(&k);
            let y = circ.eval(&w);
            assert_eq!(bits_bytes(&y), c);
            assert_eq!(circ.eval_checked(&w).is_ok(), sbox_inputs_nonzero(&k, &p));
            if i % 50 == 0 {
                let low = circ.lowered();
                assert_eq!(low.n_inv(), 0);
                assert_eq!(low.n_and(), 115 * SBOXES);
                let mut want = y.clone();
                want.extend(std::iter::repeat_n(false, SBOXES));
                if sbox_inputs_nonzero(&k, &p) {
                    assert_eq!(low.eval(&w), want);
                    assert_eq!(low.eval(&w), circ.lowered_output(&y));
                }
            }
        }
    }
}

/// A key whose first S-box input is zero (plaintext byte 0 = key byte 0... in the first round):
/// the statement cannot hold; the lowered circuit's flag says which S-box.
#[test]
fn zero_sbox_inputs_are_flagged() {
    let mut rng = seeded_rng(6);
    for _ in 0..5 {
        let k: [u8; BYTES] = rng.gen();
        let mut p: [u8; BYTES] = rng.gen();
        p[5] = k[5];
        assert!(!sbox_inputs_nonzero(&k, &p));
        let circ = aes128_circuit(&p);
        let w = bytes_bits(&k);
        // the round's S-boxes come after the 40 of the key schedule
        assert!(circ.eval_checked(&w).is_err());
        let y = circ.eval(&w);
        assert_eq!(bits_bytes(&y), reference(&k, &p), "eval follows 0⁻¹ = 0");
        let low = circ.lowered().eval(&w);
        assert_eq!(&low[..128], &y[..]);
        assert!(low[128 + 40 + 5], "the flag of round 1's S-box 5");
    }
}

/// The share of random (key, plaintext) pairs with no zero S-box input: `(255/256)^200`
/// predicted (the inputs are close to uniform and independent), the figure the module's
/// documentation gives for the key space.
#[test]
fn share_of_provable_keys() {
    let mut rng = seeded_rng(7);
    let n = 20_000;
    let ok = (0..n)
        .filter(|_| sbox_inputs_nonzero(&rng.gen(), &rng.gen()))
        .count();
    let rate = ok as f64 / n as f64;
    let pred = (255.0f64 / 256.0).powi(200);
    let tol = 5.0 * (pred * (1.0 - pred) / n as f64).sqrt();
    assert!((rate - pred).abs() < tol, "rate {rate}, predicted {pred}");
}

/// Proofs with every engine accept the key and refuse another context, another ciphertext,
/// and the other engines' ids; a key with a zero S-box input is refused by the prover.
#[test]
fn key_proofs_with_every_engine() {
    let mut rng = seeded_rng(8);
    let (k, p) = loop {
        let (k, p) = (random_bytes(&mut rng), random_bytes(&mut rng));
        if sbox_inputs_nonzero(&k, &p) {
            break (k, p);
        }
    };
    let ct = encrypt(&k, &p);
    let mut other = ct;
    other[3] ^= 1;
    for sys in [
        System::Zkbpp(20),
        System::Kkw(crate::kkw::Params::new(16, 4, 8)),
        System::Vole(crate::vole::Params::new(4, 40, 2)),
    ] {
        let f = prove_key(&k, &p, &sys, b"ctx", &mut rng).unwrap();
        let pf = ProofFile::from_bytes(&f).unwrap();
        assert_eq!(pf.protocol, PROTOCOLS.id(sys.engine()).unwrap());
        let req = Required::bits(10);
        verify_key(&p, &ct, &pf, &req, b"ctx").unwrap();
        assert!(verify_key(&p, &ct, &pf, &req, b"ctX").is_err());
        assert!(verify_key(&p, &other, &pf, &req, b"ctx").is_err());
        assert!(inspect(&pf).unwrap().render().contains("AES-128"));
    }
    let mut p0 = p;
    p0[0] = k[0];
    let e = prove_key(
        &k,
        &p0,
        &System::Vole(crate::vole::Params::new(4, 40, 2)),
        b"",
        &mut rng,
    )
    .unwrap_err();
    assert!(e.to_string().contains("inverted byte zero"), "{e}");
}

#[test]
fn sbox_is_the_affine_map_of_the_inverse() {
    for x in 0..=255u8 {
        let y = sbox(x);
        // the inverse S-box from the affine map's inverse: b_i = y_{i+2} ⊕ y_{i+5} ⊕ y_{i+7} ⊕ d_i, d = 0x05
        let b = y.rotate_left(6) ^ y.rotate_left(3) ^ y.rotate_left(1) ^ 0x05;
        assert_eq!(gf256_inv(b), x);
    }
}

/// The relocated circuit is the built one, gate for gate (inverted bytes, norm marks and
/// degrees too), on random plaintexts and on the zero, all-ones and every one-bit plaintext;
/// its digest is `SHA-256(tag ‖ D_T ‖ pt)` with `D_T` recomputed from the built template's
/// canonical bytes.
#[test]
fn the_relocated_circuit_is_the_built_one() {
    use sha2::Digest as _;
    let mut rng = seeded_rng(29);
    let mut pts: Vec<[u8; BYTES]> = vec![[0; BYTES], [0xff; BYTES]];
    pts.extend((0..8 * BYTES).map(|i| {
        let mut p = [0u8; BYTES];
        p[i / 8] |= 1 << (i % 8);
        p
    }));
    pts.extend((0..40).map(|_| random_bytes(&mut rng)));
    let dt = sha2::Sha256::digest(build_circuit(&[0xff; BYTES]).canonical_bytes());
    for pt in pts {
        let (a, b) = (aes128_circuit(&pt), build_circuit(&pt));
        assert_eq!(a.gates(), b.gates(), "{pt:?}");
        assert_eq!(a.outputs(), b.outputs());
        assert_eq!(a.inv_inputs(), b.inv_inputs());
        assert_eq!(a.norm_flags(), b.norm_flags());
        assert_eq!(a.degrees(), b.degrees());
        assert_eq!(
            (0..a.n_inv()).map(|i| a.inv_start(i)).collect::<Vec<_>>(),
            (0..b.n_inv()).map(|i| b.inv_start(i)).collect::<Vec<_>>()
        );
        let mut h = sha2::Sha256::new();
        h.update(b"zkg:aes128:circuit:v1");
        h.update(dt);
        h.update(pt);
        assert_eq!(a.digest(), <[u8; 32]>::from(h.finalize()));
        assert_ne!(a.digest(), b.digest());
    }
}

/// The compiled-in template is the builder's, byte for byte (issue 52).
#[test]
fn template_file_is_the_builders_aes128() {
    crate::circuit::template::frozen::check_file(
        &super::built_template(),
        super::TEMPLATE_FILE,
        super::template(),
        "src/aes128/template.gates",
    );
}
