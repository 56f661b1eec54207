//! Inverted bytes: GF(2^8) arithmetic, the boolean inverse, evaluation, lowering, the
//! table's checks and the canonical bytes.

use super::*;
use rand::Rng as _;
use zkgames_core::rng::seeded_rng;

/// GF(2^8) against carry-less multiplication reduced bit by bit; the inverse on all 256
/// bytes; the boolean inverse circuit on all 256 inputs (and its AND count).
#[test]
fn gf256_arithmetic_and_the_boolean_inverse() {
    let slow = |a: u8, b: u8| {
        let mut p = 0u16;
        for i in 0..8 {
            if (b >> i) & 1 == 1 {
                p ^= (a as u16) << i;
            }
        }
        for i in (8..15).rev() {
            if (p >> i) & 1 == 1 {
                p ^= 0x11b << (i - 8);
            }
        }
        p as u8
    };
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            assert_eq!(gf256_mul(a, b), slow(a, b));
        }
        if a != 0 {
            assert_eq!(gf256_mul(a, gf256_inv(a)), 1, "{a}");
        }
    }
    assert_eq!(gf256_inv(0), 0);
    let mut b = Builder::new(16);
    let x: [Bit; 8] = std::array::from_fn(|i| b.input(i));
    let y: [Bit; 8] = std::array::from_fn(|i| b.input(8 + i));
    let inv = b.gf256_inv_boolean(&x);
    let n_inv = b.and_count();
    let prod = b.gf256_mul(&x, &y);
    assert_eq!(n_inv, 108);
    assert_eq!(b.and_count() - n_inv, 27);
    b.output_word(&inv);
    b.output_word(&prod);
    let c = b.finish();
    let byte = |v: &[bool]| {
        v.iter()
            .enumerate()
            .fold(0u8, |a, (i, &t)| a | ((t as u8) << i))
    };
    let mut rng = seeded_rng(3);
    for a in 0..=255u8 {
        let bv: u8 = rng.gen();
        let inp: Vec<bool> = (0..16)
            .map(|i| {
                if i < 8 {
                    (a >> i) & 1 == 1
                } else {
                    (bv >> (i - 8)) & 1 == 1
                }
            })
            .collect();
        let out = c.eval(&inp);
        assert_eq!(byte(&out[..8]), gf256_inv(a));
        assert_eq!(byte(&out[8..]), gf256_mul(a, bv));
    }
}

/// A circuit with inverted bytes: evaluation (checked and not), its lowering on all 256
/// values of each byte, the digest, and the table's checks in `from_parts_inv`.
#[test]
fn inverted_bytes_evaluate_lower_and_are_checked() {
    let mut b = Builder::new(9);
    let x: [Bit; 8] = std::array::from_fn(|i| b.input(i));
    let s = b.input(8);
    let y = b.gf256_inv(&x);
    // a second inverse of a byte mixing the first one's result and the extra input
    let z: [Bit; 8] = std::array::from_fn(|i| if i == 0 { b.xor(y[0], s) } else { y[i] });
    let t = b.gf256_inv(&z);
    let a = b.and(t[3], s);
    b.output_word(&t);
    b.output(a);
    b.output(Bit::Const(true));
    let c = b.finish();
    assert_eq!((c.n_inv(), c.n_and()), (2, 1));
    let low = c.lowered();
    assert_eq!(low.n_inv(), 0);
    assert_eq!(low.n_outputs(), c.n_outputs() + 2);
    for v in 0..512u32 {
        let inp: Vec<bool> = (0..9).map(|i| (v >> i) & 1 == 1).collect();
        let xv = (v & 0xff) as u8;
        let yv = gf256_inv(xv);
        let zv = yv ^ ((v >> 8) as u8 & 1);
        let tv = gf256_inv(zv);
        let mut want: Vec<bool> = (0..8).map(|i| (tv >> i) & 1 == 1).collect();
        want.push((tv >> 3) & 1 == 1 && v >> 8 == 1);
        want.push(true);
        assert_eq!(c.eval(&inp), want, "{v}");
        let checked = c.eval_checked(&inp);
        match (xv, zv) {
            (0, _) => assert_eq!(checked, Err(0)),
            (_, 0) => assert_eq!(checked, Err(1)),
            _ => assert_eq!(checked.as_ref(), Ok(&want)),
        }
        let mut lw = want.clone();
        lw.push(xv == 0);
        lw.push(zv == 0);
        assert_eq!(low.eval(&inp), lw, "{v}");
        if checked.is_ok() {
            assert_eq!(low.eval(&inp), c.lowered_output(&want));
        }
    }
    // the table and the gates must agree
    let g = c.gates().to_vec();
    let t = c.inv_inputs().to_vec();
    let o = c.outputs().to_vec();
    assert!(Circuit::from_parts_inv(9, g.clone(), o.clone(), t.clone()).is_ok());
    assert_eq!(
        Circuit::from_parts_inv(9, g.clone(), o.clone(), t.clone())
            .unwrap()
            .digest(),
        c.digest()
    );
    let first = g.iter().position(|x| matches!(x, Gate::Inv(..))).unwrap();
    let mut bad = g.clone();
    bad.swap(first, first + 1); // bits out of order
    assert!(Circuit::from_parts_inv(9, bad, o.clone(), t.clone()).is_err());
    let mut bad = g.clone();
    bad.remove(first + 7); // a byte with 7 gates
    assert!(Circuit::from_parts_inv(9, bad, vec![], t.clone()).is_err());
    let mut bad = g.clone();
    bad.insert(first + 3, Gate::Not(0)); // not consecutive
    assert!(Circuit::from_parts_inv(9, bad, vec![], t.clone()).is_err());
    assert!(Circuit::from_parts_inv(9, g.clone(), o.clone(), t[..1].to_vec()).is_err());
    let mut bt = t.clone();
    bt[1][0] = (9 + g.len()) as u32; // reads a later wire
    assert!(Circuit::from_parts_inv(9, g.clone(), o.clone(), bt).is_err());
    let mut bad = g.clone();
    bad[first] = Gate::Inv(0, 9);
    assert!(Circuit::from_parts_inv(9, bad, o.clone(), t.clone()).is_err());
    let mut bt = t.clone();
    bt[0][2] = 3;
    assert_ne!(
        Circuit::from_parts_inv(9, g, o, bt).unwrap().digest(),
        c.digest()
    );
}

/// A circuit without inverted bytes keeps the canonical bytes written before they
/// existed (rebuilt here from the documented layout).
#[test]
fn canonical_bytes_of_boolean_circuits_are_unchanged() {
    let c = random_circuit(&mut seeded_rng(9), 5, 40, 4);
    let mut want = b"zkg:circuit:v1".to_vec();
    want.extend_from_slice(&5u64.to_le_bytes());
    want.extend_from_slice(&(c.n_gates() as u64).to_le_bytes());
    for g in c.gates() {
        let (op, a, b) = match *g {
            Gate::Xor(a, b) => (0u8, a, b),
            Gate::And(a, b) => (1, a, b),
            Gate::Not(a) => (2, a, 0),
            Gate::Inv(..) => unreachable!(),
        };
        want.push(op);
        want.extend_from_slice(&a.to_le_bytes());
        want.extend_from_slice(&b.to_le_bytes());
    }
    want.extend_from_slice(&(c.n_outputs() as u64).to_le_bytes());
    for o in c.outputs() {
        let (t, v) = match *o {
            Bit::Wire(w) => (0u8, w),
            Bit::Const(b) => (1, b as u32),
        };
        want.push(t);
        want.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(c.canonical_bytes(), want);
    let d: Digest = Sha256::digest(&want).into();
    assert_eq!(c.digest(), d);
    assert_eq!(c.lowered().canonical_bytes(), want);
}

/// Norm bytes: they evaluate and lower like full ones; the mark enters the canonical bytes
/// (a `"norm"` section after the table, the indices of the marked bytes) and so the digest;
/// the degrees follow the rule; an AND gate or a norm byte that reads a norm byte's output
/// (through XOR and NOT) is refused, a full byte or an output may read it.
#[test]
fn norm_bytes_are_marked_bound_and_ruled() {
    let build = |norm: bool| {
        let mut b = Builder::new(16);
        let x: [Bit; 8] = std::array::from_fn(|j| b.input(j));
        let z: [Bit; 8] = std::array::from_fn(|j| b.input(8 + j));
        let y = if norm {
            b.gf256_inv_norm(&x)
        } else {
            b.gf256_inv(&x)
        };
        let s: [Bit; 8] = std::array::from_fn(|j| b.xor(y[j], z[j]));
        let t = b.gf256_inv(&s);
        b.output_word(&t);
        b.output(y[0]);
        b.finish()
    };
    let (full, norm) = (build(false), build(true));
    let mut rng = seeded_rng(31);
    for _ in 0..50 {
        let w: Vec<bool> = (0..16).map(|_| rng.gen()).collect();
        assert_eq!(full.eval_checked(&w), norm.eval_checked(&w));
    }
    assert_eq!(
        full.lowered().canonical_bytes(),
        norm.lowered().canonical_bytes()
    );
    assert_ne!(full.digest(), norm.digest());
    let mut want = full.canonical_bytes();
    want.extend_from_slice(b"norm");
    want.extend_from_slice(&1u64.to_le_bytes());
    want.extend_from_slice(&0u32.to_le_bytes());
    assert_eq!(norm.canonical_bytes(), want);
    let d: Digest = Sha256::digest(&want).into();
    assert_eq!(norm.digest(), d);
    assert!(full.degrees().is_empty() && !full.has_norm());
    let deg = norm.degrees();
    assert_eq!((norm.n_inv_bits(), norm.inv_start(1)), (12, 4));
    // inputs 1, the norm byte's bits 2, the XORs 2, the full byte's bits 1
    assert!(deg[..16].iter().all(|&d| d == 1));
    assert_eq!(deg[16..24], [2; 8]);
    assert_eq!(deg[24..32], [2; 8]);
    assert_eq!(deg[32..40], [1; 8]);
    // an AND gate, or a norm byte, reading the norm byte's output is refused
    for second_norm in [false, true] {
        let mut b = Builder::new(8);
        let x: [Bit; 8] = std::array::from_fn(|j| b.input(j));
        let y = b.gf256_inv_norm(&x);
        let s: [Bit; 8] = std::array::from_fn(|j| b.xor(y[j], x[j]));
        if second_norm {
            b.gf256_inv_norm(&s);
        } else {
            let a = b.and(s[0], x[1]);
            b.output(a);
        }
        let (n, g, o, inv, flags) = (b.n_inputs, b.gates, b.outputs, b.inv_inputs, b.inv_norm);
        let c = Circuit::from_parts_inv(n, g, o, inv).unwrap();
        let e = c.with_norm(flags).unwrap_err().to_string();
        assert!(e.contains("reads a norm byte's output"), "{e}");
    }
}
