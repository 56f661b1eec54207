//! Garble's circuits in the engines' IR.
//!
//! Garble numbers wires as inputs (party by party: here, parameter by parameter, each in
//! Garble's bit order) and then one per gate; its outputs are [`super::PANIC_BITS`] bits
//! saying whether and where the program panicked, then the result. [`to_ir`] keeps the
//! panic flag and the result, both in our bit order ([`super::bits`]), and takes the
//! inputs in our order too. [`fold`] fixes the public parameters' bits as constants, gate
//! by gate as [`zkgames_mpc::bristol::Bristol::to_circuit`] does for a file: the same
//! statement exported as Bristol Fashion and read back folds to the very same circuit.

use garble_lang::circuit::{Circuit as GCircuit, Gate as GGate};

use super::{Order, Param, PANIC_BITS};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::{Bit, Builder, Circuit, Gate};

/// Garble's circuit `c` for parameters `params` and result `result` (their orders and
/// widths, checked against `c` by the caller) as an IR circuit: inputs the parameters' bits
/// in our order, output 0 the panic flag, then the result in our order.
pub fn to_ir(c: &GCircuit, params: &[Param], result: &Order) -> Result<Circuit> {
    let n_in: usize = c.input_gates.iter().sum();
    let n_wires = n_in + c.gates.len();
    let malformed = || Error::bad("the compiler produced a malformed circuit");
    let mut b = Builder::new(n_in);
    let mut map = vec![Bit::Const(false); n_wires];
    let mut at = 0;
    for p in params {
        for i in 0..p.order.len() {
            map[at + p.order.garble_index(i)] = b.input(at + i);
        }
        at += p.order.len();
    }
    for (j, g) in c.gates.iter().enumerate() {
        let w = n_in + j;
        let get = |x: usize| if x < w { Ok(map[x]) } else { Err(malformed()) };
        map[w] = match *g {
            GGate::Xor(x, y) => {
                let (x, y) = (get(x)?, get(y)?);
                b.xor(x, y)
            }
            GGate::And(x, y) => {
                let (x, y) = (get(x)?, get(y)?);
                b.and(x, y)
            }
            GGate::Not(x) => {
                let x = get(x)?;
                b.not(x)
            }
        };
    }
    if c.output_gates.len() != PANIC_BITS + result.len() {
        return Err(malformed());
    }
    let out = |k: usize| map.get(c.output_gates[k]).copied().ok_or_else(malformed);
    b.output(out(0)?);
    for i in 0..result.len() {
        b.output(out(PANIC_BITS + result.garble_index(i))?);
    }
    Ok(b.finish())
}

/// `full` (every parameter an input, widths `widths`) with the parameters of `public`
/// (`Some(value)`, our order) fixed to their values: the IR's inputs are the secret
/// parameters' bits, in order.
pub fn fold(full: &Circuit, widths: &[usize], public: &[Option<Vec<bool>>]) -> Result<Circuit> {
    assert_eq!(widths.len(), public.len(), "one entry per parameter");
    let n_secret: usize = widths
        .iter()
        .zip(public)
        .filter(|(_, p)| p.is_none())
        .map(|(w, _)| w)
        .sum();
    let mut b = Builder::new(n_secret);
    let mut map = vec![Bit::Const(false); full.n_wires()];
    let (mut at, mut next) = (0, 0);
    for (&w, p) in widths.iter().zip(public) {
        match p {
            Some(v) => {
                if v.len() != w {
                    return Err(Error::bad(format!(
                        "a public parameter has {w} bits, its value {}",
                        v.len()
                    )));
                }
                for (i, &x) in v.iter().enumerate() {
                    map[at + i] = Bit::Const(x);
                }
            }
            None => {
                for i in 0..w {
                    map[at + i] = b.input(next + i);
                }
                next += w;
            }
        }
        at += w;
    }
    for (j, g) in full.gates().iter().enumerate() {
        let w = full.n_inputs() + j;
        map[w] = match *g {
            Gate::Xor(x, y) => b.xor(map[x as usize], map[y as usize]),
            Gate::And(x, y) => b.and(map[x as usize], map[y as usize]),
            Gate::Not(x) => b.not(map[x as usize]),
            Gate::Inv(..) => unreachable!("Garble's circuits have no inverse gates"),
        };
    }
    for o in full.outputs() {
        b.output(match *o {
            Bit::Wire(x) => map[x as usize],
            c => c,
        });
    }
    Ok(b.finish())
}
