use super::*;
use crate::mpc::circuit::Builder;
use rand_core::SeedableRng;

fn small_circuit() -> Circuit {
    // out = (a ∧ b) ⊕ ¬(c ∧ (a ⊕ b)), plus out2 = a ∧ c
    let mut b = Builder::new(3);
    let (x, y, z) = (b.input(0), b.input(1), b.input(2));
    let ab = b.and(x, y);
    let xy = b.xor(x, y);
    let t = b.and(z, xy);
    let nt = b.not(t);
    let o = b.xor(ab, nt);
    let o2 = b.and(x, z);
    b.output(o);
    b.output(o2);
    b.finish()
}

/// The response's two lists have the bytes of plain vectors, and their lengths are not
/// trusted when decoding: a claimed 2^40 seeds in a few bytes is refused without reserving
/// room for them.
#[test]
fn response_lists_are_plain_vectors_with_untrusted_lengths() {
    use crate::proof_file::{decode, encode};
    let r = Response {
        seeds: (0..5u8).map(|i| [i; 16]).collect(),
        commitments: vec![[9u8; 32]; 2],
    };
    assert_eq!(
        encode(&r),
        encode(&(r.seeds.clone(), r.commitments.clone())),
        "the same bytes as (Vec, Vec)"
    );
    assert_eq!(decode::<Response>(&encode(&r), "t").unwrap(), r);
    let mut b = vec![253u8];
    b.extend((1u64 << 40).to_le_bytes());
    b.extend([0u8; 48]);
    assert!(decode::<Response>(&b, "t").is_err());
    // and a commitment list that claims more items than it has
    let mut b = encode(&r);
    let n = b.len();
    b[n - 2 * 32 - 1] = 3;
    assert!(decode::<Response>(&b, "t").is_err());
}

#[test]
fn honest_proofs_verify_and_wrong_outputs_do_not() {
    let c = small_circuit();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    for p in [
        Params::new(1, 4, 0),
        Params::new(3, 10, 2),
        params_for(128, Profile::Speed).unwrap(),
    ] {
        for w in 0..8u8 {
            let wit: Vec<bool> = (0..3).map(|i| (w >> i) & 1 == 1).collect();
            let out = c.eval(&wit);
            let st = Statement {
                tag: b"t",
                circuit: &c,
                public: b"",
                output: &out,
                context: b"ctx",
            };
            let pr = prove(&st, &wit, p, &mut rng).unwrap();
            verify(&st, &pr, 0.0).unwrap();
            let mut bad = out.clone();
            bad[0] ^= true;
            let st2 = Statement { output: &bad, ..st };
            if p.delta_bits > 8 {
                assert!(verify(&st2, &pr, 0.0).is_err());
            }
        }
    }
}
