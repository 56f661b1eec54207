//! Boolean circuits: the IR the ZKB++ engine runs, and a builder with gadgets.
//!
//! Wires are numbered: inputs first (`0..n_inputs`), then one wire per gate in gate order,
//! so a gate only reads wires defined before it (the IR is topologically ordered by
//! construction and [`Circuit::from_parts`] checks it for circuits built elsewhere).
//!
//! Gates are XOR, NOT and AND. Public constants never become wires: the builder works on
//! [`Bit`]s, which are either a constant or a wire, and folds every operation with a
//! constant (`x ∧ 1 = x`, `x ∧ 0 = 0`, `x ⊕ 1 = ¬x`, ...). Only AND gates between two
//! secret wires cost anything in ZKB++ (one bit of view per party per round), so the
//! builder's job is to minimise them; XOR/NOT are free.
//!
//! Outputs are [`Bit`]s too: a constant output simply states a public bit.
//!
//! **GF(2^8) inverses.** A circuit may also invert bytes in AES's field GF(2^8) =
//! GF(2)[x]/(x^8 + x^4 + x^3 + x + 1) (a byte's bit `i` is the coefficient of `x^i`): byte
//! `idx` of the side table [`Circuit::inv_inputs`] names 8 input wires (bit 0 first), and 8
//! consecutive gates `Gate::Inv(idx, 0..8)` give bit `j` of its inverse. The statement is
//! satisfiable only if every such byte is non-zero: [`Circuit::eval_checked`] reports a zero
//! byte, [`Circuit::eval`] follows AES's convention `0⁻¹ = 0` (what the boolean lowering
//! computes). The VOLE-in-the-head engine proves each inverse as one relation `x·y = 1` over
//! GF(2^8) ⊂ GF(2^128); ZKB++ and KKW run boolean circuits only and prove
//! [`Circuit::lowered`], where each inverse becomes 115 AND gates and one extra output
//! ("this byte was zero", which must be 0), so that all engines prove the same statement.
//!
//! **Bytes committed by their norm.** An inverted byte may be marked *norm* ([`Builder::
//! gf256_inv_norm`]): its meaning is the same (its 8 gates give `x⁻¹`), but VOLE commits
//! only the 4 bits of `x^-17 ∈ GF(2^4)` and computes `x⁻¹ = x^16 · x^-17` as a product of
//! two committed values, so the byte's output bits have *degree 2* (FAEST v2's trick). A
//! degree-2 bit may feed XOR and NOT gates, outputs and full inverted bytes (whose relation
//! then has degree 3), but not AND gates or norm bytes: [`Circuit::degrees`] computes the
//! degrees and the constructors refuse a circuit that breaks the rule. The other engines
//! ignore the mark.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use sha2::{Digest as _, Sha256};

use zkgames_core::commit::Digest;

pub mod graph;
pub mod template;

/// One gate; operands are wire indices smaller than the gate's own wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Xor(u32, u32),
    And(u32, u32),
    Not(u32),
    /// Bit `j` (second field) of the GF(2^8) inverse of byte `idx` (first field) of the
    /// circuit's [`Circuit::inv_inputs`] table.
    Inv(u32, u8),
}

/// A bit during construction: a public constant or a wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bit {
    Const(bool),
    Wire(u32),
}

/// An `n`-bit word, least significant bit first.
pub type Word = Vec<Bit>;

/// A finished circuit.
#[derive(Clone, Debug)]
pub struct Circuit {
    n_inputs: usize,
    gates: Vec<Gate>,
    outputs: Vec<Bit>,
    n_and: usize,
    /// The input wires of every inverted byte (bit 0 first), in the order of their gates.
    inv_inputs: Vec<[u32; 8]>,
    /// Which inverted bytes are committed by their norm (empty: none).
    inv_norm: Vec<bool>,
    /// Where each inverted byte's committed bits start among all inverted bytes' bits
    /// (empty when there is no norm byte: `8·idx`).
    inv_start: Vec<u32>,
    /// Every wire's degree ([`Circuit::degrees`]; empty when there is no norm byte).
    deg: Vec<u8>,
    digest: Digest,
}

impl Circuit {
    /// Assembles a circuit from raw parts, checking that every operand is defined earlier.
    pub fn from_parts(
        n_inputs: usize,
        gates: Vec<Gate>,
        outputs: Vec<Bit>,
    ) -> zkgames_core::Result<Self> {
        Self::from_parts_inv(n_inputs, gates, outputs, Vec::new())
    }

    /// [`Circuit::from_parts`] with a table of inverted bytes: byte `idx`'s 8 gates
    /// `Inv(idx, 0) … Inv(idx, 7)` must be consecutive, the bytes in table order, each byte
    /// used once, and its input wires defined before its first gate.
    pub fn from_parts_inv(
        n_inputs: usize,
        gates: Vec<Gate>,
        outputs: Vec<Bit>,
        inv_inputs: Vec<[u32; 8]>,
    ) -> zkgames_core::Result<Self> {
        let mut c = Self::checked(n_inputs, gates, outputs, inv_inputs)?;
        c.digest = c.compute_digest();
        Ok(c)
    }

    /// [`Circuit::from_parts_inv`] without its digest (the caller computes it once it is
    /// complete).
    fn checked(
        n_inputs: usize,
        gates: Vec<Gate>,
        outputs: Vec<Bit>,
        inv_inputs: Vec<[u32; 8]>,
    ) -> zkgames_core::Result<Self> {
        let bad = |m: String| zkgames_core::Error::bad(format!("invalid circuit: {m}"));
        let mut next_inv = 0usize; // the next Inv gate expected, as 8·idx + bit
        for (g, gate) in gates.iter().enumerate() {
            let limit = (n_inputs + g) as u64;
            let ops: &[u32] = match gate {
                Gate::Xor(a, b) | Gate::And(a, b) => &[*a, *b],
                Gate::Not(a) => &[*a],
                Gate::Inv(idx, bit) => {
                    let (idx, bit) = (*idx as usize, *bit as usize);
                    if !next_inv.is_multiple_of(8) && (idx, bit) != (next_inv / 8, next_inv % 8) {
                        return Err(bad(format!(
                            "gate {g}: the 8 gates of an inverted byte must be consecutive"
                        )));
                    }
                    if (idx, bit) != (next_inv / 8, next_inv % 8) {
                        return Err(bad(format!(
                            "gate {g}: inverted bytes must come in table order, bit 0 first"
                        )));
                    }
                    let Some(ins) = inv_inputs.get(idx) else {
                        return Err(bad(format!("gate {g} inverts a byte not in the table")));
                    };
                    next_inv += 1;
                    // every input precedes the byte's first gate
                    let first = limit - bit as u64;
                    if ins.iter().any(|&w| w as u64 >= first) {
                        return Err(bad(format!("gate {g} reads a wire not yet defined")));
                    }
                    &[]
                }
            };
            if !next_inv.is_multiple_of(8) && !matches!(gate, Gate::Inv(..)) {
                return Err(bad(format!(
                    "gate {g}: the 8 gates of an inverted byte must be consecutive"
                )));
            }
            if ops.iter().any(|&w| w as u64 >= limit) {
                return Err(bad(format!("gate {g} reads a wire not yet defined")));
            }
        }
        if next_inv != 8 * inv_inputs.len() {
            return Err(bad(
                "an inverted byte of the table does not have its 8 gates".into(),
            ));
        }
        let n_wires = (n_inputs + gates.len()) as u64;
        if outputs
            .iter()
            .any(|o| matches!(o, Bit::Wire(w) if *w as u64 >= n_wires))
        {
            return Err(bad("an output names a wire that does not exist".into()));
        }
        let n_and = gates.iter().filter(|g| matches!(g, Gate::And(..))).count();
        Ok(Circuit {
            n_inputs,
            gates,
            outputs,
            n_and,
            inv_inputs,
            inv_norm: Vec::new(),
            inv_start: Vec::new(),
            deg: Vec::new(),
            digest: [0; 32],
        })
    }

    /// Marks the inverted bytes whose flag is set as committed by their norm (one flag per
    /// byte of the table), checking the degree rule (module docs: no degree-2 bit reaches an
    /// AND gate or a norm byte).
    pub fn with_norm(mut self, norm: Vec<bool>) -> zkgames_core::Result<Self> {
        let bad = |m: String| zkgames_core::Error::bad(format!("invalid circuit: {m}"));
        if norm.len() != self.inv_inputs.len() {
            return Err(bad(format!(
                "{} norm flags for {} inverted bytes",
                norm.len(),
                self.inv_inputs.len()
            )));
        }
        self.set_marks(norm);
        let deg = &self.deg;
        for (g, gate) in self.gates.iter().enumerate().filter(|_| !deg.is_empty()) {
            let reads2 = match *gate {
                Gate::And(a, b) => deg[a as usize] > 1 || deg[b as usize] > 1,
                Gate::Inv(idx, 0) if self.is_norm(idx as usize) => self.inv_inputs[idx as usize]
                    .iter()
                    .any(|&w| deg[w as usize] > 1),
                _ => false,
            };
            if reads2 {
                return Err(bad(format!(
                    "gate {g} reads a norm byte's output, which only XOR, NOT, outputs and \
                     full inverted bytes may"
                )));
            }
        }
        self.digest = self.compute_digest();
        Ok(self)
    }

    /// Whether inverted byte `idx` is committed by its norm.
    pub fn is_norm(&self, idx: usize) -> bool {
        self.inv_norm.get(idx).copied().unwrap_or(false)
    }

    /// Whether some inverted byte is committed by its norm.
    pub fn has_norm(&self) -> bool {
        !self.inv_norm.is_empty()
    }

    /// The witness bits VOLE commits for inverted byte `idx`: 8, or 4 for a norm byte.
    pub fn inv_bits(&self, idx: usize) -> usize {
        if self.is_norm(idx) {
            4
        } else {
            8
        }
    }

    /// Where inverted byte `idx`'s committed bits start among all inverted bytes' bits.
    pub fn inv_start(&self, idx: usize) -> usize {
        match self.inv_start.get(idx) {
            Some(&s) => s as usize,
            None => 8 * idx,
        }
    }

    /// The witness bits of all inverted bytes (`Σ inv_bits`).
    pub fn n_inv_bits(&self) -> usize {
        8 * self.n_inv() - 4 * self.inv_norm.iter().filter(|&&f| f).count()
    }

    /// Every wire's degree for VOLE: 1, except a norm byte's output bits (2) and the XOR
    /// and NOT gates that read one (the larger of their operands'). Empty for a circuit
    /// without norm bytes (every wire has degree 1); computed once, when the marks are set.
    pub fn degrees(&self) -> &[u8] {
        &self.deg
    }

    /// Sets the norm marks (one flag per inverted byte, unchecked) and what follows from
    /// them: where each byte's committed bits start, every wire's degree.
    fn set_marks(&mut self, norm: Vec<bool>) {
        self.inv_norm = if norm.iter().any(|&f| f) {
            norm
        } else {
            Vec::new()
        };
        self.inv_start = Vec::new();
        if self.has_norm() {
            let mut at = 0u32;
            for i in 0..self.n_inv() {
                self.inv_start.push(at);
                at += self.inv_bits(i) as u32;
            }
        }
        self.deg = if self.has_norm() {
            self.compute_degrees()
        } else {
            Vec::new()
        };
    }

    /// One norm flag per inverted byte (empty when there is no norm byte).
    pub fn norm_flags(&self) -> &[bool] {
        &self.inv_norm
    }

    fn compute_degrees(&self) -> Vec<u8> {
        let mut d = Vec::with_capacity(self.n_wires());
        d.resize(self.n_inputs, 1u8);
        for g in &self.gates {
            d.push(match *g {
                Gate::Xor(a, b) => d[a as usize].max(d[b as usize]),
                Gate::Not(a) => d[a as usize],
                Gate::And(..) => 1,
                Gate::Inv(idx, _) => 1 + self.is_norm(idx as usize) as u8,
            });
        }
        d
    }

    pub fn n_inputs(&self) -> usize {
        self.n_inputs
    }
    pub fn n_outputs(&self) -> usize {
        self.outputs.len()
    }
    pub fn n_and(&self) -> usize {
        self.n_and
    }
    /// Number of inverted bytes (each is 8 [`Gate::Inv`] gates).
    pub fn n_inv(&self) -> usize {
        self.inv_inputs.len()
    }
    /// The input wires of every inverted byte, bit 0 first.
    pub fn inv_inputs(&self) -> &[[u32; 8]] {
        &self.inv_inputs
    }
    pub fn n_gates(&self) -> usize {
        self.gates.len()
    }
    pub fn n_wires(&self) -> usize {
        self.n_inputs + self.gates.len()
    }
    pub fn gates(&self) -> &[Gate] {
        &self.gates
    }
    pub fn outputs(&self) -> &[Bit] {
        &self.outputs
    }
    /// SHA-256 of the canonical encoding (see [`Circuit::canonical_bytes`]), or for a
    /// circuit made by `Circuit::derived` the digest its maker defines.
    pub fn digest(&self) -> Digest {
        self.digest
    }

    /// `"zkg:circuit:v1" ‖ u64 n_inputs ‖ u64 n_gates ‖ gates ‖ u64 n_outputs ‖ outputs`:
    /// a gate is `op ‖ u32 a ‖ u32 b` (op 0 XOR, 1 AND, 2 NOT with b = 0, 3 Inv with
    /// a = idx, b = bit), an output is `0 ‖ u32 wire` or `1 ‖ u32 bit`; then, only if the
    /// circuit inverts bytes, `u64 n_inv ‖ 8 u32 input wires per byte`, and only if some
    /// byte is committed by its norm, `"norm" ‖ u64 n_norm ‖ u32 idx` of each such byte in
    /// table order. Integers little-endian. A circuit without inverses has the bytes it had
    /// before they existed, one without norm bytes the bytes it had before those.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(40 + 9 * self.gates.len() + 5 * self.outputs.len());
        out.extend_from_slice(b"zkg:circuit:v1");
        out.extend_from_slice(&(self.n_inputs as u64).to_le_bytes());
        out.extend_from_slice(&(self.gates.len() as u64).to_le_bytes());
        for g in &self.gates {
            let (op, a, b) = match *g {
                Gate::Xor(a, b) => (0u8, a, b),
                Gate::And(a, b) => (1, a, b),
                Gate::Not(a) => (2, a, 0),
                Gate::Inv(idx, bit) => (3, idx, bit as u32),
            };
            out.push(op);
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
        }
        out.extend_from_slice(&(self.outputs.len() as u64).to_le_bytes());
        for o in &self.outputs {
            match *o {
                Bit::Wire(w) => {
                    out.push(0);
                    out.extend_from_slice(&w.to_le_bytes());
                }
                Bit::Const(c) => {
                    out.push(1);
                    out.extend_from_slice(&(c as u32).to_le_bytes());
                }
            }
        }
        if !self.inv_inputs.is_empty() {
            out.extend_from_slice(&(self.inv_inputs.len() as u64).to_le_bytes());
            for w in self.inv_inputs.iter().flatten() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        if self.has_norm() {
            out.extend_from_slice(&self.norm_bytes());
        }
        out
    }

    /// `"norm" ‖ u64 n_norm ‖ u32 idx …`: the canonical encoding's norm section.
    fn norm_bytes(&self) -> Vec<u8> {
        let idx: Vec<u32> = (0..self.n_inv())
            .filter(|&i| self.is_norm(i))
            .map(|i| i as u32)
            .collect();
        let mut out = b"norm".to_vec();
        out.extend_from_slice(&(idx.len() as u64).to_le_bytes());
        for i in idx {
            out.extend_from_slice(&i.to_le_bytes());
        }
        out
    }

    /// SHA-256 of [`Circuit::canonical_bytes`], the gates encoded through a small buffer
    /// rather than into one vector first (a SHA-256 circuit's 1 MB: copying them cost as
    /// much as hashing them).
    fn compute_digest(&self) -> Digest {
        const BATCH: usize = 512;
        let mut h = Sha256::new();
        h.update(b"zkg:circuit:v1");
        h.update((self.n_inputs as u64).to_le_bytes());
        h.update((self.gates.len() as u64).to_le_bytes());
        let mut buf = [0u8; 9 * BATCH];
        for gs in self.gates.chunks(BATCH) {
            for (g, out) in gs.iter().zip(buf.chunks_exact_mut(9)) {
                let (op, a, b) = match *g {
                    Gate::Xor(a, b) => (0u8, a, b),
                    Gate::And(a, b) => (1, a, b),
                    Gate::Not(a) => (2, a, 0),
                    Gate::Inv(idx, bit) => (3, idx, bit as u32),
                };
                out[0] = op;
                out[1..5].copy_from_slice(&a.to_le_bytes());
                out[5..9].copy_from_slice(&b.to_le_bytes());
            }
            h.update(&buf[..9 * gs.len()]);
        }
        h.update((self.outputs.len() as u64).to_le_bytes());
        for o in &self.outputs {
            let (tag, v) = match *o {
                Bit::Wire(w) => (0u8, w),
                Bit::Const(c) => (1, c as u32),
            };
            h.update([tag]);
            h.update(v.to_le_bytes());
        }
        if !self.inv_inputs.is_empty() {
            h.update((self.inv_inputs.len() as u64).to_le_bytes());
            for w in self.inv_inputs.iter().flatten() {
                h.update(w.to_le_bytes());
            }
        }
        if self.has_norm() {
            h.update(self.norm_bytes());
        }
        h.finalize().into()
    }

    /// Plain evaluation (the reference semantics), with AES's convention `0⁻¹ = 0` for the
    /// inverted bytes: use [`Circuit::eval_checked`] to know whether the statement can hold.
    /// Panics if `input` has the wrong length: callers check lengths of untrusted inputs
    /// first.
    pub fn eval(&self, input: &[bool]) -> Vec<bool> {
        self.eval_inner(input).0
    }

    /// Evaluation that refuses a zero inverted byte: `Err(idx)` names the first byte of the
    /// table that is zero (no witness makes such a statement hold).
    pub fn eval_checked(&self, input: &[bool]) -> Result<Vec<bool>, usize> {
        match self.eval_inner(input) {
            (out, None) => Ok(out),
            (_, Some(idx)) => Err(idx),
        }
    }

    /// The outputs and the first zero inverted byte, if any.
    fn eval_inner(&self, input: &[bool]) -> (Vec<bool>, Option<usize>) {
        assert_eq!(input.len(), self.n_inputs, "circuit input length");
        let mut v = Vec::with_capacity(self.n_wires());
        v.extend_from_slice(input);
        let mut zero = None;
        let mut inv = 0u8;
        for g in &self.gates {
            let x = match *g {
                Gate::Xor(a, b) => v[a as usize] ^ v[b as usize],
                Gate::And(a, b) => v[a as usize] & v[b as usize],
                Gate::Not(a) => !v[a as usize],
                Gate::Inv(idx, bit) => {
                    if bit == 0 {
                        let x = self.inv_inputs[idx as usize]
                            .iter()
                            .enumerate()
                            .fold(0u8, |x, (i, &w)| x | ((v[w as usize] as u8) << i));
                        if x == 0 && zero.is_none() {
                            zero = Some(idx as usize);
                        }
                        inv = gf256_inv(x);
                    }
                    (inv >> bit) & 1 == 1
                }
            };
            v.push(x);
        }
        let out = self
            .outputs
            .iter()
            .map(|o| match *o {
                Bit::Const(c) => c,
                Bit::Wire(w) => v[w as usize],
            })
            .collect();
        (out, zero)
    }

    /// The same statement as a boolean circuit (XOR, AND, NOT only), for the engines that
    /// run those (ZKB++, KKW): every inverted byte becomes [`Builder::gf256_inv_boolean`]
    /// (115 AND gates), and one output per inverted byte, after the circuit's own, is 1 iff
    /// that byte was zero. So `lowered().eval(w) == eval(w) ‖ zeros` exactly when
    /// `eval_checked(w)` succeeds: prove the lowered circuit with the output
    /// [`Circuit::lowered_output`]. A circuit without inverses lowers to an identical copy.
    pub fn lowered(&self) -> Circuit {
        if self.inv_inputs.is_empty() {
            return self.clone();
        }
        let mut b = Builder::new(self.n_inputs);
        let mut map: Vec<Bit> = (0..self.n_inputs).map(|i| b.input(i)).collect();
        let mut flags = Vec::with_capacity(self.inv_inputs.len());
        let mut inv = [Bit::Const(false); 8];
        for g in &self.gates {
            let x = match *g {
                Gate::Xor(a, c) => b.xor(map[a as usize], map[c as usize]),
                Gate::And(a, c) => b.and(map[a as usize], map[c as usize]),
                Gate::Not(a) => b.not(map[a as usize]),
                Gate::Inv(idx, bit) => {
                    if bit == 0 {
                        let x: [Bit; 8] = self.inv_inputs[idx as usize].map(|w| map[w as usize]);
                        inv = b.gf256_inv_boolean(&x);
                        flags.push(b.is_zero(&x));
                    }
                    inv[bit as usize]
                }
            };
            map.push(x);
        }
        for o in &self.outputs {
            b.output(match *o {
                Bit::Const(c) => Bit::Const(c),
                Bit::Wire(w) => map[w as usize],
            });
        }
        b.output_word(&flags);
        b.finish()
    }

    /// The public output of [`Circuit::lowered`] for this circuit's public `output`: `output`
    /// followed by one 0 per inverted byte.
    pub fn lowered_output(&self, output: &[bool]) -> Vec<bool> {
        let mut y = output.to_vec();
        y.resize(output.len() + self.inv_inputs.len(), false);
        y
    }
}

/// The basis `ω^0 … ω^3` of GF(2^4) ⊂ GF(2^8) in which a norm byte's 4 bits are
/// coordinates: `ω = 0x03^17 = 0xe1`, an element of order 15 (so the four are independent).
pub const NORM_BASIS: [u8; 4] = [0x01, 0xe1, 0x5c, 0x0c];

/// The byte `Σ_b n_b ω^b` of 4 norm bits `n` (bit `b` of `n` is `n_b`).
pub fn norm_byte(n: u8) -> u8 {
    (0..4).fold(0u8, |z, b| {
        if (n >> b) & 1 == 1 {
            z ^ NORM_BASIS[b]
        } else {
            z
        }
    })
}

/// The 4 bits committing a non-zero byte `x` by its norm: the coordinates of
/// `x^-17 = x^238 ∈ GF(2^4)` in [`NORM_BASIS`]; 0 for 0 (no such statement holds).
pub fn gf256_inv_norm_bits(x: u8) -> u8 {
    let z = gf256_pow(x, 238);
    (0..16u8)
        .find(|&n| norm_byte(n) == z)
        .expect("x^238 lies in GF(2^4)")
}

/// `x^16`, GF(2)-linear in `x`'s bits.
pub fn gf256_pow16(x: u8) -> u8 {
    gf256_pow(x, 16)
}

fn gf256_pow(x: u8, mut e: u32) -> u8 {
    let (mut r, mut b) = (1u8, x);
    while e > 0 {
        if e & 1 == 1 {
            r = gf256_mul(r, b);
        }
        b = gf256_mul(b, b);
        e >>= 1;
    }
    r
}

/// `a · b` in AES's field GF(2^8) (modulus `x^8 + x^4 + x^3 + x + 1`).
pub const fn gf256_mul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        let hi = a & 0x80;
        a <<= 1;
        if hi != 0 {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    r
}

/// `a^254` in GF(2^8): the inverse of a non-zero `a`, and 0 for 0 (AES's convention). A
/// lookup in a table the compiler computes (every AES S-box of a proof or a key's
/// encryption asks for one: 14 multiplications each at run time).
pub fn gf256_inv(a: u8) -> u8 {
    GF256_INV[a as usize]
}

/// [`gf256_inv`] of every byte, computed at compile time.
static GF256_INV: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut a = 0usize;
    while a < 256 {
        // a^254 = a^(2+4+8+16+32+64+128)
        let mut r = 1u8;
        let mut sq = a as u8;
        let mut i = 0;
        while i < 7 {
            sq = gf256_mul(sq, sq);
            r = gf256_mul(r, sq);
            i += 1;
        }
        t[a] = r;
        a += 1;
    }
    t
};

/// A process-wide memo of circuits rebuilt from a small key (a SHA-256 circuit from its
/// message length): a server verifying proof after proof of the same shape builds its
/// circuit once. Building SHA-256's (about 120,000 gates, hashed for its digest) costs as
/// much as a quarter of a VOLE proof.
///
/// At most `cap` circuits are kept, the most recently used; the key must determine the
/// circuit completely (the memo never compares circuits), and a failed build is not kept.
/// The memory is bounded by `cap` circuits whatever keys untrusted input names.
///
/// Misuse: a key drawn from a secret or from who is asking (an identity's plaintext or
/// instance) makes the verification time tell it, a hit being faster than a build; key
/// only by what the proof itself claims, the same for everyone.
pub struct Memo<K> {
    slots: Mutex<VecDeque<(K, Arc<Circuit>)>>,
    cap: usize,
}

impl<K: Eq> Memo<K> {
    pub const fn new(cap: usize) -> Self {
        Memo {
            slots: Mutex::new(VecDeque::new()),
            cap,
        }
    }

    /// The circuit of `key`, built by `build` unless it is held.
    pub fn get(
        &self,
        key: K,
        build: impl FnOnce() -> zkgames_core::Result<Circuit>,
    ) -> zkgames_core::Result<Arc<Circuit>> {
        let lock = || self.slots.lock().unwrap_or_else(|e| e.into_inner());
        {
            let mut slots = lock();
            if let Some(i) = slots.iter().position(|(k, _)| *k == key) {
                let hit = slots.remove(i).expect("position is in range");
                let c = hit.1.clone();
                slots.push_front(hit);
                return Ok(c);
            }
        }
        // built outside the lock: two threads may both build the same circuit, never block
        let c = Arc::new(build()?);
        let mut slots = lock();
        if !slots.iter().any(|(k, _)| *k == key) {
            slots.push_front((key, c.clone()));
            slots.truncate(self.cap);
        }
        Ok(c)
    }

    /// How many circuits are held (tests).
    pub fn len(&self) -> usize {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Builds circuits with constant folding. All inputs are declared up front.
pub struct Builder {
    n_inputs: usize,
    gates: Vec<Gate>,
    outputs: Vec<Bit>,
    inv_inputs: Vec<[u32; 8]>,
    inv_norm: Vec<bool>,
}

impl Builder {
    /// A builder for a circuit with `n_inputs` secret input bits.
    pub fn new(n_inputs: usize) -> Self {
        Builder {
            n_inputs,
            gates: Vec::new(),
            outputs: Vec::new(),
            inv_inputs: Vec::new(),
            inv_norm: Vec::new(),
        }
    }

    /// The gates so far.
    pub fn n_gates(&self) -> usize {
        self.gates.len()
    }

    /// Input bit `i`.
    pub fn input(&self, i: usize) -> Bit {
        assert!(i < self.n_inputs, "input index out of range");
        Bit::Wire(i as u32)
    }

    /// Inputs `start..start+n` as a word (input `start` is the least significant bit).
    pub fn input_word(&self, start: usize, n: usize) -> Word {
        (start..start + n).map(|i| self.input(i)).collect()
    }

    fn push(&mut self, g: Gate) -> Bit {
        let w = self.n_inputs + self.gates.len();
        assert!(w < u32::MAX as usize, "circuit too large");
        self.gates.push(g);
        Bit::Wire(w as u32)
    }

    /// Number of AND gates so far (the cost in ZKB++).
    pub fn and_count(&self) -> usize {
        self.gates
            .iter()
            .filter(|g| matches!(g, Gate::And(..)))
            .count()
    }

    pub fn xor(&mut self, a: Bit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::Const(x), Bit::Const(y)) => Bit::Const(x ^ y),
            (Bit::Const(false), w) | (w, Bit::Const(false)) => w,
            (Bit::Const(true), w) | (w, Bit::Const(true)) => self.not(w),
            (Bit::Wire(x), Bit::Wire(y)) if x == y => Bit::Const(false),
            (Bit::Wire(x), Bit::Wire(y)) => self.push(Gate::Xor(x, y)),
        }
    }

    pub fn not(&mut self, a: Bit) -> Bit {
        match a {
            Bit::Const(x) => Bit::Const(!x),
            Bit::Wire(x) => {
                // ¬¬x = x
                if let Some(Gate::Not(y)) = (x as usize)
                    .checked_sub(self.n_inputs)
                    .and_then(|g| self.gates.get(g))
                {
                    return Bit::Wire(*y);
                }
                self.push(Gate::Not(x))
            }
        }
    }

    pub fn and(&mut self, a: Bit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::Const(x), Bit::Const(y)) => Bit::Const(x & y),
            (Bit::Const(false), _) | (_, Bit::Const(false)) => Bit::Const(false),
            (Bit::Const(true), w) | (w, Bit::Const(true)) => w,
            (Bit::Wire(x), Bit::Wire(y)) if x == y => a,
            (Bit::Wire(x), Bit::Wire(y)) => self.push(Gate::And(x, y)),
        }
    }

    /// `a ∨ b = a ⊕ b ⊕ (a ∧ b)`: one AND.
    pub fn or(&mut self, a: Bit, b: Bit) -> Bit {
        let x = self.xor(a, b);
        let y = self.and(a, b);
        self.xor(x, y)
    }

    /// `s ? x : y = y ⊕ (s ∧ (x ⊕ y))`: one AND.
    pub fn mux(&mut self, s: Bit, x: Bit, y: Bit) -> Bit {
        let d = self.xor(x, y);
        let t = self.and(s, d);
        self.xor(y, t)
    }

    /// Majority of three bits with one AND: `((a ⊕ c) ∧ (b ⊕ c)) ⊕ c`.
    pub fn maj(&mut self, a: Bit, b: Bit, c: Bit) -> Bit {
        let x = self.xor(a, c);
        let y = self.xor(b, c);
        let t = self.and(x, y);
        self.xor(t, c)
    }

    /// A constant `n`-bit word.
    pub fn const_word(&self, value: u64, n: usize) -> Word {
        (0..n)
            .map(|i| Bit::Const(i < 64 && (value >> i) & 1 == 1))
            .collect()
    }

    pub fn xor_w(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        assert_eq!(a.len(), b.len());
        a.iter().zip(b).map(|(&x, &y)| self.xor(x, y)).collect()
    }
    pub fn and_w(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        assert_eq!(a.len(), b.len());
        a.iter().zip(b).map(|(&x, &y)| self.and(x, y)).collect()
    }
    pub fn not_w(&mut self, a: &[Bit]) -> Word {
        a.iter().map(|&x| self.not(x)).collect()
    }

    /// Ripple-carry addition modulo `2^n`: one AND per bit except the top one.
    pub fn add(&mut self, a: &[Bit], b: &[Bit]) -> Word {
        assert_eq!(a.len(), b.len());
        let n = a.len();
        let mut c = Bit::Const(false);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let s = self.xor(a[i], b[i]);
            out.push(self.xor(s, c));
            if i + 1 < n {
                c = self.maj(a[i], b[i], c);
            }
        }
        out
    }

    /// `1` iff all bits are zero (`n − 1` ANDs for secret bits).
    pub fn is_zero(&mut self, a: &[Bit]) -> Bit {
        let mut acc = Bit::Const(true);
        for &x in a {
            let nx = self.not(x);
            acc = self.and(acc, nx);
        }
        acc
    }

    /// `1` iff the words are equal.
    pub fn eq(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        let d = self.xor_w(a, b);
        self.is_zero(&d)
    }

    /// Increments a counter word by a bit (half-adder chain, wraps modulo `2^n`).
    pub fn increment(&mut self, counter: &[Bit], bit: Bit) -> Word {
        let mut c = bit;
        let mut out = Vec::with_capacity(counter.len());
        for (k, &x) in counter.iter().enumerate() {
            out.push(self.xor(x, c));
            // the carry out of the top bit is dropped: computing it would be a dead AND gate
            if k + 1 < counter.len() {
                c = self.and(x, c);
            }
        }
        out
    }

    /// The number of set bits, as a word of `width` bits (exact if `bits.len() < 2^width`).
    pub fn popcount(&mut self, bits: &[Bit], width: usize) -> Word {
        let mut acc = self.const_word(0, width);
        for &b in bits {
            acc = self.increment(&acc, b);
        }
        acc
    }

    /// Reads row `i` of a public table, where `onehot` has exactly one secret `1` at `i`.
    /// Linear in the secret bits, so it costs no AND: bit `j` of the result is the XOR of
    /// `onehot[i]` over the rows `i` whose bit `j` is set. If `onehot` is not one-hot the
    /// result is the XOR of the selected rows: callers must check one-hotness.
    pub fn select_public(&mut self, onehot: &[Bit], table: &[Vec<bool>]) -> Word {
        assert_eq!(onehot.len(), table.len());
        let width = table.first().map_or(0, |r| r.len());
        let mut out = vec![Bit::Const(false); width];
        for (s, row) in onehot.iter().zip(table) {
            assert_eq!(row.len(), width);
            for (o, &t) in out.iter_mut().zip(row) {
                if t {
                    *o = self.xor(*o, *s);
                }
            }
        }
        out
    }

    /// Bits that must all be zero for "at most one bit set", plus the parity (which must
    /// be `1` for "exactly one"). Costs `n − 1` ANDs: a running XOR `acc`; a bit set while
    /// `acc = 1` flags a second set bit (the first collision is always caught, since before
    /// it at most one bit was seen and `acc` equals that bit).
    pub fn one_hot_check(&mut self, bits: &[Bit]) -> (Vec<Bit>, Bit) {
        let mut acc = Bit::Const(false);
        let mut errs = Vec::new();
        for &b in bits {
            let e = self.and(acc, b);
            if e != Bit::Const(false) {
                errs.push(e);
            }
            acc = self.xor(acc, b);
        }
        (errs, acc)
    }

    /// `1` iff `a < b` as unsigned LSB-first words of equal width: the borrow out of
    /// `a − b`, one AND per bit (`borrow' = maj(¬a_i, b_i, borrow)`).
    pub fn less_than(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        assert_eq!(a.len(), b.len());
        let mut borrow = Bit::Const(false);
        for (&x, &y) in a.iter().zip(b) {
            let nx = self.not(x);
            borrow = self.maj(nx, y, borrow);
        }
        borrow
    }

    /// The position of the set bit of a one-hot vector, as a `width`-bit word: bit `j` is the
    /// XOR of the entries whose index has bit `j` set. Linear, so free; meaningful only for
    /// one-hot inputs (check them with [`Builder::one_hot_check`]).
    pub fn onehot_index(&mut self, onehot: &[Bit], width: usize) -> Word {
        let table: Vec<Vec<bool>> = (0..onehot.len())
            .map(|i| (0..width).map(|j| i >> j & 1 == 1).collect())
            .collect();
        self.select_public(onehot, &table)
    }

    /// Rotates right by `r` (LSB-first words).
    pub fn rotr(a: &[Bit], r: usize) -> Word {
        let n = a.len();
        (0..n).map(|i| a[(i + r) % n]).collect()
    }

    /// Logical shift right by `r`.
    pub fn shr(a: &[Bit], r: usize) -> Word {
        let n = a.len();
        (0..n)
            .map(|i| {
                if i + r < n {
                    a[i + r]
                } else {
                    Bit::Const(false)
                }
            })
            .collect()
    }

    pub fn output(&mut self, b: Bit) {
        self.outputs.push(b);
    }
    pub fn output_word(&mut self, w: &[Bit]) {
        self.outputs.extend_from_slice(w);
    }

    pub fn finish(self) -> Circuit {
        // with_norm computes the digest, once the marks are set
        Circuit::checked(self.n_inputs, self.gates, self.outputs, self.inv_inputs)
            .and_then(|c| c.with_norm(self.inv_norm))
            .expect("builder produces well-formed circuits")
    }

    /// The GF(2^8) inverse of a byte (bit 0 first) as one inverted byte (8 [`Gate::Inv`]
    /// gates): the statement then requires the byte to be non-zero. A public byte folds to
    /// its inverse (a public zero makes the statement unsatisfiable: refused here).
    pub fn gf256_inv(&mut self, x: &[Bit; 8]) -> [Bit; 8] {
        self.gf256_inv_as(x, false)
    }

    /// [`Builder::gf256_inv`] committed by its norm (module docs): the same 8 bits, of degree 2
    /// for VOLE. `x` must not read a norm byte's output (through XOR and NOT), nor may an AND
    /// gate read the result: [`Builder::finish`] panics on a circuit that breaks the rule.
    pub fn gf256_inv_norm(&mut self, x: &[Bit; 8]) -> [Bit; 8] {
        self.gf256_inv_as(x, true)
    }

    fn gf256_inv_as(&mut self, x: &[Bit; 8], norm: bool) -> [Bit; 8] {
        if let Some(c) = const_byte(x) {
            assert!(c != 0, "the inverse of a public zero byte");
            let y = gf256_inv(c);
            return std::array::from_fn(|j| Bit::Const((y >> j) & 1 == 1));
        }
        // constant input bits become wires: the table names wires only
        let ins: [u32; 8] = std::array::from_fn(|i| match x[i] {
            Bit::Wire(w) => w,
            Bit::Const(c) => {
                // a constant bit as a wire: v ⊕ v ⊕ c on a secret wire of the byte
                let w = x.iter().find_map(|b| match b {
                    Bit::Wire(w) => Some(*w),
                    _ => None,
                });
                let w = Bit::Wire(w.expect("the byte has a secret bit"));
                let z = self.push(Gate::Xor(as_wire(w), as_wire(w)));
                let z = if c {
                    self.push(Gate::Not(as_wire(z)))
                } else {
                    z
                };
                as_wire(z)
            }
        });
        let idx = self.inv_inputs.len() as u32;
        self.inv_inputs.push(ins);
        self.inv_norm.push(norm);
        std::array::from_fn(|j| self.push(Gate::Inv(idx, j as u8)))
    }

    /// The GF(2^8) inverse as a boolean circuit: `x^254` by the addition chain
    /// `x³ = x²·x`, `x¹⁵ = (x³)⁴·x³`, `x⁶³ = (x¹⁵)⁴·x³`, `x¹²⁷ = (x⁶³)²·x`, `x²⁵⁴ = (x¹²⁷)²`:
    /// squarings are linear (free), each of the 4 products is a 27-AND Karatsuba
    /// multiplication, 108 AND gates in all. Gives 0 for 0.
    pub fn gf256_inv_boolean(&mut self, x: &[Bit; 8]) -> [Bit; 8] {
        let x2 = self.gf256_square(x);
        let x3 = self.gf256_mul(&x2, x);
        let x12 = {
            let t = self.gf256_square(&x3);
            self.gf256_square(&t)
        };
        let x15 = self.gf256_mul(&x12, &x3);
        let x60 = {
            let t = self.gf256_square(&x15);
            self.gf256_square(&t)
        };
        let x63 = self.gf256_mul(&x60, &x3);
        let x126 = self.gf256_square(&x63);
        let x127 = self.gf256_mul(&x126, x);
        self.gf256_square(&x127)
    }

    /// `a · b` in GF(2^8) as a boolean circuit: Karatsuba's polynomial product (27 ANDs)
    /// reduced modulo `x^8 + x^4 + x^3 + x + 1` (linear).
    pub fn gf256_mul(&mut self, a: &[Bit; 8], b: &[Bit; 8]) -> [Bit; 8] {
        let p = self.karatsuba(a, b);
        self.gf256_reduce(&p)
    }

    /// `a²` in GF(2^8): linear.
    pub fn gf256_square(&mut self, a: &[Bit; 8]) -> [Bit; 8] {
        let mut p = vec![Bit::Const(false); 15];
        for i in 0..8 {
            p[2 * i] = a[i];
        }
        self.gf256_reduce(&p)
    }

    /// A polynomial of degree < 15 reduced modulo AES's polynomial.
    fn gf256_reduce(&mut self, p: &[Bit]) -> [Bit; 8] {
        let mut out = [Bit::Const(false); 8];
        for (k, &c) in p.iter().enumerate() {
            // x^k mod the AES polynomial
            let r = (0..k).fold(1u8, |r, _| gf256_mul(r, 2));
            for (j, o) in out.iter_mut().enumerate() {
                if (r >> j) & 1 == 1 {
                    *o = self.xor(*o, c);
                }
            }
        }
        out
    }

    /// The polynomial product of two equal-length bit vectors (length a power of two),
    /// `3^log2(n)` ANDs.
    fn karatsuba(&mut self, a: &[Bit], b: &[Bit]) -> Vec<Bit> {
        let n = a.len();
        if n == 1 {
            return vec![self.and(a[0], b[0])];
        }
        let h = n / 2;
        let lo = self.karatsuba(&a[..h], &b[..h]);
        let hi = self.karatsuba(&a[h..], &b[h..]);
        let sa = self.xor_w(&a[..h], &a[h..]);
        let sb = self.xor_w(&b[..h], &b[h..]);
        let mut mid = self.karatsuba(&sa, &sb);
        for i in 0..mid.len() {
            let t = self.xor(mid[i], lo[i]);
            mid[i] = self.xor(t, hi[i]);
        }
        let mut out = vec![Bit::Const(false); 2 * n - 1];
        for i in 0..lo.len() {
            out[i] = self.xor(out[i], lo[i]);
            out[i + h] = self.xor(out[i + h], mid[i]);
            out[i + 2 * h] = self.xor(out[i + 2 * h], hi[i]);
        }
        out
    }
}

fn as_wire(b: Bit) -> u32 {
    match b {
        Bit::Wire(w) => w,
        Bit::Const(_) => unreachable!("pushed gates are wires"),
    }
}

/// The value of a byte of constants, if it is one.
fn const_byte(x: &[Bit; 8]) -> Option<u8> {
    x.iter().enumerate().try_fold(0u8, |v, (i, b)| match b {
        Bit::Const(c) => Some(v | ((*c as u8) << i)),
        Bit::Wire(_) => None,
    })
}

/// A random circuit, for the engines' tests and benchmarks: `n_gates` XOR, AND and NOT
/// gates over the inputs and earlier gates, `n_out` outputs on random wires (inputs
/// included), then the constant outputs 1 and 0. Needs `n_in + n_gates ≥ 1`.
pub fn random_circuit(
    rng: &mut impl rand::RngCore,
    n_in: usize,
    n_gates: usize,
    n_out: usize,
) -> Circuit {
    use rand::Rng as _;
    let mut b = Builder::new(n_in);
    let mut wires: Vec<Bit> = (0..n_in).map(|i| b.input(i)).collect();
    for _ in 0..n_gates {
        let x = wires[rng.gen_range(0..wires.len())];
        let y = wires[rng.gen_range(0..wires.len())];
        let z = match rng.gen_range(0..3) {
            0 => b.xor(x, y),
            1 => b.and(x, y),
            _ => b.not(x),
        };
        wires.push(z);
    }
    for _ in 0..n_out {
        let w = wires[rng.gen_range(0..wires.len())];
        b.output(w);
    }
    b.output(Bit::Const(true));
    b.output(Bit::Const(false));
    b.finish()
}

#[cfg(test)]
mod inv_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;
    use zkgames_core::rng::seeded_rng;

    fn word_val(v: &[bool]) -> u64 {
        v.iter().enumerate().map(|(i, &b)| (b as u64) << i).sum()
    }

    /// The streamed digest is SHA-256 of the canonical bytes, on random circuits of every
    /// size around the streaming batch (512 gates).
    #[test]
    fn the_digest_hashes_the_canonical_bytes() {
        let mut rng = seeded_rng(41);
        for n in [0, 1, 2, 511, 512, 513, 1024, 1500] {
            let c = random_circuit(&mut rng, 3, n, 4);
            let want: Digest = Sha256::digest(c.canonical_bytes()).into();
            assert_eq!(c.digest(), want, "{n} gates");
        }
    }

    /// `less_than` and `onehot_index` against plain integers, exhaustively for 4-bit words.
    #[test]
    fn less_than_and_onehot_index() {
        let mut b = Builder::new(8 + 12);
        let x = b.input_word(0, 4);
        let y = b.input_word(4, 4);
        let lt = b.less_than(&x, &y);
        b.output(lt);
        let oh: Vec<Bit> = (8..20).map(|i| b.input(i)).collect();
        let idx = b.onehot_index(&oh, 4);
        b.output_word(&idx);
        assert_eq!(b.and_count(), 4);
        let c = b.finish();
        for xv in 0..16u64 {
            for yv in 0..16u64 {
                let k = ((xv * 16 + yv) % 12) as usize;
                let mut inp: Vec<bool> = (0..4).map(|i| xv >> i & 1 == 1).collect();
                inp.extend((0..4).map(|i| yv >> i & 1 == 1));
                inp.extend((0..12).map(|i| i == k));
                let out = c.eval(&inp);
                assert_eq!(out[0], xv < yv, "{xv} < {yv}");
                assert_eq!(word_val(&out[1..5]), k as u64);
            }
        }
    }

    #[test]
    fn gadgets_match_integer_arithmetic() {
        let n = 12;
        let mut b = Builder::new(2 * n + 1);
        let x = b.input_word(0, n);
        let y = b.input_word(n, n);
        let s = b.input(2 * n);
        let sum = b.add(&x, &y);
        let e = b.eq(&x, &y);
        let pc = b.popcount(&x, 4);
        let m: Word = (0..n).map(|i| b.mux(s, x[i], y[i])).collect();
        let k = b.const_word(0x5a3, n);
        let sk = b.add(&x, &k);
        let o = (0..n).map(|i| b.or(x[i], y[i])).collect::<Word>();
        b.output_word(&sum);
        b.output(e);
        b.output_word(&pc);
        b.output_word(&m);
        b.output_word(&sk);
        b.output_word(&o);
        let c = b.finish();
        // popcount folds its first increments, so it costs less than 4 ANDs per bit
        assert!(c.n_and() <= (n - 1) + (n - 1) + 4 * n + n + (n - 1) + n);
        let mut rng = seeded_rng(1);
        let mask = (1u64 << n) - 1;
        for it in 0..3000 {
            let xv = rng.gen::<u64>() & mask;
            let yv = if it % 5 == 0 {
                xv
            } else {
                rng.gen::<u64>() & mask
            };
            let sv: bool = rng.gen();
            let mut inp: Vec<bool> = (0..n).map(|i| xv >> i & 1 == 1).collect();
            inp.extend((0..n).map(|i| yv >> i & 1 == 1));
            inp.push(sv);
            let out = c.eval(&inp);
            let mut p = 0;
            let mut take = |k: usize| {
                let r = word_val(&out[p..p + k]);
                p += k;
                r
            };
            assert_eq!(take(n), (xv + yv) & mask);
            assert_eq!(take(1), (xv == yv) as u64);
            assert_eq!(take(4), xv.count_ones() as u64);
            assert_eq!(take(n), if sv { xv } else { yv });
            assert_eq!(take(n), (xv + 0x5a3) & mask);
            assert_eq!(take(n), xv | yv);
        }
    }

    #[test]
    fn constants_fold_for_free() {
        let mut b = Builder::new(1);
        let x = b.input(0);
        let t = Bit::Const(true);
        let f = Bit::Const(false);
        assert_eq!(b.and(x, t), x);
        assert_eq!(b.and(x, f), f);
        assert_eq!(b.xor(x, f), x);
        assert_eq!(b.xor(x, x), f);
        let nx = b.xor(x, t);
        assert_eq!(b.not(nx), x);
        let k = b.const_word(9, 8);
        let k2 = b.const_word(7, 8);
        let s = b.add(&k, &k2);
        assert_eq!(s, b.const_word(16, 8));
        assert_eq!(b.and_count(), 0);
        assert_eq!(b.gates.len(), 1);
    }

    #[test]
    fn one_hot_and_public_selection() {
        let n = 7;
        let table: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..5).map(|j| (i * 3 + j) % 4 == 0).collect())
            .collect();
        let mut b = Builder::new(n);
        let s = b.input_word(0, n);
        let (errs, parity) = b.one_hot_check(&s);
        let row = b.select_public(&s, &table);
        let before = b.and_count();
        assert_eq!(before, n - 1);
        let any_err = errs.iter().fold(Bit::Const(false), |a, &e| b.or(a, e));
        b.output(any_err);
        b.output(parity);
        b.output_word(&row);
        let c = b.finish();
        for m in 0u32..(1 << n) {
            let inp: Vec<bool> = (0..n).map(|i| m >> i & 1 == 1).collect();
            let out = c.eval(&inp);
            let ok = !out[0] && out[1];
            assert_eq!(ok, m.count_ones() == 1, "mask {m:b}");
            if ok {
                let i = m.trailing_zeros() as usize;
                assert_eq!(&out[2..], &table[i][..]);
            }
        }
    }

    #[test]
    fn digest_depends_on_structure() {
        let mk = |and: bool| {
            let mut b = Builder::new(2);
            let (x, y) = (b.input(0), b.input(1));
            let z = if and { b.and(x, y) } else { b.xor(x, y) };
            b.output(z);
            b.finish()
        };
        assert_ne!(mk(true).digest(), mk(false).digest());
        assert_eq!(mk(true).digest(), mk(true).digest());
        assert!(Circuit::from_parts(1, vec![Gate::Not(1)], vec![]).is_err());
        assert!(Circuit::from_parts(1, vec![Gate::Not(0)], vec![Bit::Wire(2)]).is_err());
    }

    /// The memo against a plain model: a list of the most recently used keys, at most `cap`
    /// of them; a key in the list is a hit (no build, the same circuit), any other is built,
    /// and a failed build changes nothing.
    #[test]
    fn memo_keeps_the_most_recent_circuits() {
        let mut rng = seeded_rng(41);
        for cap in 1..5usize {
            let memo: Memo<u8> = Memo::new(cap);
            let mut model: Vec<u8> = Vec::new();
            let mut held: std::collections::HashMap<u8, Arc<Circuit>> = Default::default();
            for _ in 0..400 {
                let key: u8 = rng.gen_range(0..8);
                let fail = rng.gen_range(0..10) == 0;
                let mut built = false;
                let got = memo.get(key, || {
                    built = true;
                    if fail {
                        Err(zkgames_core::Error::bad("no"))
                    } else {
                        Circuit::from_parts(key as usize + 1, vec![], vec![Bit::Wire(0)])
                    }
                });
                let hit = model.contains(&key);
                assert_eq!(built, !hit, "cap {cap} key {key}");
                if hit {
                    assert!(Arc::ptr_eq(&got.unwrap(), &held[&key]));
                    model.retain(|&k| k != key);
                    model.insert(0, key);
                } else if fail {
                    assert!(got.is_err());
                } else {
                    let c = got.unwrap();
                    assert_eq!(c.n_inputs(), key as usize + 1);
                    held.insert(key, c);
                    model.insert(0, key);
                    model.truncate(cap);
                }
                assert_eq!(memo.len(), model.len());
            }
        }
    }
}
