//! Circuits that differ only in a public first layer: one checked template, relocated per
//! statement.
//!
//! A block cipher's circuit with a public plaintext `p` and the key as witness starts
//! `x_i = p_i ⊕ k'_i` for some key-derived wires `k'_i`: the builder folds the constant, so
//! `x_i` is a NOT gate of `k'_i` where `p_i = 1` and `k'_i` itself where `p_i = 0`. Every other
//! gate is the same for every plaintext. So the circuit of the all-ones plaintext (every
//! `x_i` a NOT) is built and checked once, and the circuit of `p` is that template with the
//! NOTs of `p`'s zero bits dropped and the wires after them renumbered: one pass over the
//! gates instead of a rebuild, a check and a hash of every gate (LowMC's 31,000 gates,
//! AES-128's 7,000 and 200 inverted bytes: a fifth and a sixth of a speed-set VOLE proof).
//!
//! The relocated circuit is bound by a digest its statement defines from the template's
//! canonical digest and `p` ([`Template::digest_of`]); the time to make it is the same for
//! every `p` (one pass, one digest), so a verifier's time does not tell which identity it
//! checked.
//!
//! Misuse: the template must be the builder's circuit of the all-ones plaintext, and the
//! statement's tests must compare [`Template::instantiate`] with a fresh build gate for gate
//! on random plaintexts: the relocation is only correct for circuits whose plaintext enters
//! by that one layer.

use sha2::{Digest as _, Sha256};

use super::{Bit, Circuit, Gate};
use zkgames_core::commit::Digest;

pub mod frozen;

/// The all-ones circuit and where its plaintext layer sits.
pub struct Template {
    circuit: Source,
    /// The index of the layer's first gate.
    start: usize,
    /// The layer's width (the plaintext's bits).
    width: usize,
}

/// Where a template's circuit lives: built at run time ([`Template::new`]: the definitions,
/// in the tests) or read from its file when the program was compiled ([`frozen`]: static
/// tables in the binary's read-only data, used in place).
enum Source {
    Built(Circuit),
    Frozen(Parts<'static>),
}

/// A template circuit's fields, borrowed.
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub n_inputs: usize,
    pub n_and: usize,
    pub gates: &'a [Gate],
    pub outputs: &'a [Bit],
    pub inv_inputs: &'a [[u32; 8]],
    pub inv_norm: &'a [bool],
    pub inv_start: &'a [u32],
    pub deg: &'a [u8],
    pub digest: Digest,
}

impl Template {
    /// `circuit`, built for the all-ones plaintext, whose gates `start .. start + width` are
    /// the plaintext layer: NOT gates of distinct wires defined before `start`, none of them
    /// negated elsewhere before the layer (so that a zero bit's `x_i` is the wire itself).
    /// Panics otherwise: a template is the statement's constant, checked when first made.
    pub fn new(circuit: Circuit, start: usize, width: usize) -> Self {
        let n_in = circuit.n_inputs();
        let gates = circuit.gates();
        let layer = &gates[start..start + width];
        let before = &gates[..start];
        for (i, g) in layer.iter().enumerate() {
            let Gate::Not(w) = *g else {
                panic!("the plaintext layer is NOT gates")
            };
            assert!(
                (w as usize) < n_in + start,
                "layer NOT {i} reads a later wire"
            );
            assert!(circuit.deg.is_empty() || circuit.deg[w as usize] == 1);
            assert!(
                !before.contains(&Gate::Not(w)) && !layer[..i].contains(&Gate::Not(w)),
                "layer NOT {i} negates a wire negated before it"
            );
        }
        Template {
            circuit: Source::Built(circuit),
            start,
            width,
        }
    }

    /// `circuit` as a template without [`Template::new`]'s checks (the file format's tests).
    #[cfg(test)]
    pub(crate) fn new_unchecked(circuit: Circuit, start: usize, width: usize) -> Self {
        Template {
            circuit: Source::Built(circuit),
            start,
            width,
        }
    }

    /// The template of the compiled-in `parts` ([`frozen`]), not checked again: its
    /// statement's tests compare it with the builder's template.
    pub const fn frozen(parts: Parts<'static>, start: usize, width: usize) -> Self {
        Template {
            circuit: Source::Frozen(parts),
            start,
            width,
        }
    }

    /// The circuit's fields.
    pub fn parts(&self) -> Parts<'_> {
        match &self.circuit {
            Source::Frozen(p) => *p,
            Source::Built(c) => Parts {
                n_inputs: c.n_inputs,
                n_and: c.n_and,
                gates: &c.gates,
                outputs: &c.outputs,
                inv_inputs: &c.inv_inputs,
                inv_norm: &c.inv_norm,
                inv_start: &c.inv_start,
                deg: &c.deg,
                digest: c.digest,
            },
        }
    }

    /// The layer's first gate and its width.
    pub fn layer(&self) -> (usize, usize) {
        (self.start, self.width)
    }

    /// `SHA-256(tag ‖ D_T ‖ public)`: the digest a relocated circuit is bound by, `D_T` the
    /// template's canonical digest and `public` the plaintext's bytes.
    pub fn digest_of(&self, tag: &[u8], public: &[u8]) -> Digest {
        let mut h = Sha256::new();
        h.update(tag);
        h.update(self.parts().digest);
        h.update(public);
        h.finalize().into()
    }

    /// The circuit of the plaintext whose layer bit `i` is `bit(i)`, bound by `digest`
    /// ([`Template::digest_of`]), not by the hash of its gates, and not checked again (debug
    /// builds check it).
    ///
    /// Misuse: `digest` must determine the gates. Both sides must compute it by the same
    /// documented rule from values the statement binds (the template and the plaintext); a
    /// digest two different circuits could share would let a proof of one pass for the other.
    pub fn instantiate(&self, bit: impl Fn(usize) -> bool, digest: Digest) -> Circuit {
        let t = self.parts();
        let n_in = t.n_inputs as u32;
        let s = self.start;
        let mut gates = Vec::with_capacity(t.gates.len());
        gates.extend_from_slice(&t.gates[..s]);
        // the new wire of each template wire of the layer; the later ones shift down
        let mut layer = vec![0u32; self.width];
        for (i, g) in t.gates[s..s + self.width].iter().enumerate() {
            let Gate::Not(w) = *g else {
                unreachable!("checked when the template was made")
            };
            layer[i] = if bit(i) {
                gates.push(Gate::Not(w));
                n_in + gates.len() as u32 - 1
            } else {
                w
            };
        }
        let lo = n_in + s as u32;
        let hi = lo + self.width as u32;
        let dropped = self.width as u32 - (gates.len() - s) as u32;
        let map = |w: u32| {
            if w < lo {
                w
            } else if w < hi {
                layer[(w - lo) as usize]
            } else {
                w - dropped
            }
        };
        gates.extend(t.gates[s + self.width..].iter().map(|g| match *g {
            Gate::Xor(a, b) => Gate::Xor(map(a), map(b)),
            Gate::And(a, b) => Gate::And(map(a), map(b)),
            Gate::Not(a) => Gate::Not(map(a)),
            inv @ Gate::Inv(..) => inv,
        }));
        let outputs = t
            .outputs
            .iter()
            .map(|o| match *o {
                Bit::Wire(w) => Bit::Wire(map(w)),
                c => c,
            })
            .collect();
        let inv_inputs = t.inv_inputs.iter().map(|ins| ins.map(map)).collect();
        // the degrees without the dropped wires (the layer's wires, as their operands, have
        // degree 1)
        let deg = if t.deg.is_empty() {
            Vec::new()
        } else {
            let mut d = Vec::with_capacity(t.deg.len());
            d.extend_from_slice(&t.deg[..lo as usize]);
            d.resize(d.len() + (self.width - dropped as usize), 1);
            d.extend_from_slice(&t.deg[hi as usize..]);
            d
        };
        let c = Circuit {
            n_inputs: t.n_inputs,
            n_and: t.n_and,
            gates,
            outputs,
            inv_inputs,
            inv_norm: t.inv_norm.to_vec(),
            inv_start: t.inv_start.to_vec(),
            deg,
            digest,
        };
        debug_assert!(
            {
                let mut check = Circuit::checked(
                    c.n_inputs,
                    c.gates.clone(),
                    c.outputs.clone(),
                    c.inv_inputs.clone(),
                )
                .expect("a relocated circuit is well formed");
                check.set_marks(if c.inv_norm.is_empty() {
                    vec![false; c.n_inv()]
                } else {
                    c.inv_norm.clone()
                });
                check.deg == c.deg && check.inv_start == c.inv_start
            },
            "the relocated marks are the recomputed ones"
        );
        c
    }
}
