//! Bristol Fashion circuits: statements people bring themselves.
//!
//! The format is the one the MPC and ZK world publishes boolean circuits in (emp-toolkit,
//! MP-SPDZ, SCALE-MAMBA, swanky): AES-128, SHA-256, Keccak-f, adders. A [`Bristol`] circuit
//! is read by [`parse`] (untrusted input: every count, wire and line checked, [`Limits`] on
//! size), evaluated as the file says ([`Bristol::eval`], the reference semantics), and turned
//! into the engines' IR ([`Bristol::to_circuit`]) with its public input groups folded in as
//! constants, so that public inputs cost nothing. [`export`] writes any of our own circuits
//! in the same format. [`proof`] is the proof kind: "I know secret input groups that, with
//! these public ones, make the circuit output these values", on every engine.
//!
//! Wires and bytes: bit `j` of byte `i` of a group's hex is the group's wire `8i + j`
//! (least significant bit first), for inputs and outputs alike ([`group_from_hex`],
//! [`group_to_hex`]). Which bit of a word a wire carries is the circuit author's
//! convention: emp-toolkit's AES-128 and SHA-256 circuits are checked against their
//! standards' vectors in the tests.

mod lex;
mod parse;
pub mod proof;

use sha2::{Digest as _, Sha256};

use super::circuit::{Bit, Builder, Circuit, Gate};
use zkgames_core::commit::Digest;
use zkgames_core::Error;
use zkgames_core::Result;

pub use lex::char_name;
pub use parse::parse;

/// How large a circuit file may be. The defaults fit SHA-512's Bristol Fashion circuit
/// (about 350,000 gates, 9 MB) more than ten times over; `--max-gates` raises them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The file's bytes.
    pub bytes: u64,
    /// Gate lines.
    pub gates: u64,
    /// Wires (also the widest group).
    pub wires: u64,
}

impl Limits {
    /// The default gate limit.
    pub const DEFAULT_GATES: u64 = 4_000_000;

    /// Limits for circuits of up to `gates` gates: as many wires plus inputs (`2 · gates`),
    /// and 32 bytes a gate of text (a gate line of seven-digit wires is 28 bytes).
    pub fn for_gates(gates: u64) -> Self {
        Limits {
            bytes: gates.saturating_mul(32).max(1 << 20),
            gates,
            wires: gates.saturating_mul(2).max(1 << 16),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::for_gates(Self::DEFAULT_GATES)
    }
}

/// A gate of a parsed file, wires as numbered there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BGate {
    Xor(u32, u32, u32),
    And(u32, u32, u32),
    Inv(u32, u32),
    Eqw(u32, u32),
    Eq(bool, u32),
    /// `m` ANDs whose `3m` wires (first inputs, second inputs, outputs) start at this index
    /// of [`Bristol::mand_wires`].
    Mand(u32, u32),
}

/// Gate lines by type, as the file has them (a MAND line counts once in `mand`, its ANDs in
/// `mand_ands`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GateCounts {
    pub xor: u64,
    pub and: u64,
    pub inv: u64,
    pub eq: u64,
    pub eqw: u64,
    pub mand: u64,
    pub mand_ands: u64,
}

impl GateCounts {
    /// AND gates, counting each of a MAND's.
    pub fn ands(&self) -> u64 {
        self.and + self.mand_ands
    }
    /// Gate lines.
    pub fn lines(&self) -> u64 {
        self.xor + self.and + self.inv + self.eq + self.eqw + self.mand
    }
}

/// A checked Bristol Fashion circuit: every gate reads wires written before it, every wire is
/// written once, the outputs are written.
#[derive(Clone, Debug)]
pub struct Bristol {
    n_wires: usize,
    inputs: Vec<u32>,
    outputs: Vec<u32>,
    gates: Vec<BGate>,
    mand_wires: Vec<u32>,
    counts: GateCounts,
    digest: Digest,
}

/// Domain tag of [`Bristol::digest`].
pub const DIGEST_TAG: &[u8] = b"zkg:bristol:v1";

impl Bristol {
    fn from_checked(
        n_wires: usize,
        inputs: Vec<u32>,
        outputs: Vec<u32>,
        gates: Vec<BGate>,
        mand_wires: Vec<u32>,
        counts: GateCounts,
    ) -> Self {
        let mut b = Bristol {
            n_wires,
            inputs,
            outputs,
            gates,
            mand_wires,
            counts,
            digest: [0; 32],
        };
        b.digest = b.compute_digest();
        b
    }

    /// Widths of the input groups.
    pub fn inputs(&self) -> &[u32] {
        &self.inputs
    }
    /// Widths of the output groups.
    pub fn outputs(&self) -> &[u32] {
        &self.outputs
    }
    pub fn n_wires(&self) -> usize {
        self.n_wires
    }
    pub fn counts(&self) -> GateCounts {
        self.counts
    }
    fn n_out(&self) -> usize {
        self.outputs.iter().map(|&w| w as usize).sum()
    }
    /// Where input group `g`'s wires start.
    fn input_start(&self, g: usize) -> usize {
        self.inputs[..g].iter().map(|&w| w as usize).sum()
    }

    /// SHA-256 of the circuit's canonical form: `"zkg:bristol:v1" ‖ u64 wires ‖ u32 input
    /// groups ‖ their widths (u32) ‖ u32 output groups ‖ their widths ‖ u64 gate lines ‖`
    /// each gate as `op ‖ wires` (op 0 XOR `a b c`, 1 AND `a b c`, 2 INV `a c`, 3 EQW `a c`,
    /// 4 EQ `v c` with `v` 0 or 1, 5 MAND `m ‖ a_1..a_m ‖ b_1..b_m ‖ c_1..c_m`), integers u32
    /// little-endian unless said. Spacing, blank lines and line ends do not change it; any
    /// gate, wire or width does.
    pub fn digest(&self) -> Digest {
        self.digest
    }

    fn compute_digest(&self) -> Digest {
        let mut h = Sha256::new();
        h.update(DIGEST_TAG);
        h.update((self.n_wires as u64).to_le_bytes());
        for groups in [&self.inputs, &self.outputs] {
            h.update((groups.len() as u32).to_le_bytes());
            for w in groups.iter() {
                h.update(w.to_le_bytes());
            }
        }
        h.update((self.gates.len() as u64).to_le_bytes());
        let mut buf = Vec::with_capacity(13);
        for g in &self.gates {
            buf.clear();
            let mut put = |op: u8, ws: &[u32]| {
                buf.push(op);
                for w in ws {
                    buf.extend_from_slice(&w.to_le_bytes());
                }
            };
            match *g {
                BGate::Xor(a, b, c) => put(0, &[a, b, c]),
                BGate::And(a, b, c) => put(1, &[a, b, c]),
                BGate::Inv(a, c) => put(2, &[a, c]),
                BGate::Eqw(a, c) => put(3, &[a, c]),
                BGate::Eq(v, c) => put(4, &[v as u32, c]),
                BGate::Mand(s, m) => {
                    put(5, &[m]);
                    let s = s as usize;
                    for w in &self.mand_wires[s..s + 3 * m as usize] {
                        buf.extend_from_slice(&w.to_le_bytes());
                    }
                }
            }
            h.update(&buf);
        }
        h.finalize().into()
    }

    /// The gates' longest path, and the most AND gates on one path (multiplicative depth).
    /// INV and XOR count as one level of the first, EQ and EQW as none.
    pub fn depth(&self) -> (u32, u32) {
        let mut d = vec![(0u32, 0u32); self.n_wires];
        let mut best = (0, 0);
        let mut set = |d: &mut Vec<(u32, u32)>, c: u32, v: (u32, u32)| {
            d[c as usize] = v;
            best = (best.0.max(v.0), best.1.max(v.1));
        };
        for g in &self.gates {
            match *g {
                BGate::Xor(a, b, c) => {
                    let (x, y) = (d[a as usize], d[b as usize]);
                    set(&mut d, c, (x.0.max(y.0) + 1, x.1.max(y.1)))
                }
                BGate::And(a, b, c) => {
                    let (x, y) = (d[a as usize], d[b as usize]);
                    set(&mut d, c, (x.0.max(y.0) + 1, x.1.max(y.1) + 1))
                }
                BGate::Inv(a, c) => {
                    let x = d[a as usize];
                    set(&mut d, c, (x.0 + 1, x.1))
                }
                BGate::Eqw(a, c) => {
                    let x = d[a as usize];
                    set(&mut d, c, x)
                }
                BGate::Eq(_, c) => set(&mut d, c, (0, 0)),
                BGate::Mand(s, m) => {
                    let (s, m) = (s as usize, m as usize);
                    for i in 0..m {
                        let w = &self.mand_wires[s..s + 3 * m];
                        let (x, y) = (d[w[i] as usize], d[w[m + i] as usize]);
                        set(&mut d, w[2 * m + i], (x.0.max(y.0) + 1, x.1.max(y.1) + 1));
                    }
                }
            }
        }
        best
    }

    /// Checks one value per input group (`values[g]` has group `g`'s width).
    fn check_inputs(&self, values: &[Vec<bool>]) -> Result<()> {
        if values.len() != self.inputs.len() {
            return Err(Error::bad(format!(
                "the circuit has {} input groups, {} values were given",
                self.inputs.len(),
                values.len()
            )));
        }
        for (g, (v, &w)) in values.iter().zip(&self.inputs).enumerate() {
            if v.len() != w as usize {
                return Err(Error::bad(format!(
                    "input group {g} has {w} wires, its value has {} bits",
                    v.len()
                )));
            }
        }
        Ok(())
    }

    /// Evaluates the circuit as the file describes it, gate by gate: the reference the
    /// engines' IR is tested against. One value per input group; one per output group back.
    pub fn eval(&self, values: &[Vec<bool>]) -> Result<Vec<Vec<bool>>> {
        self.check_inputs(values)?;
        let mut v = vec![false; self.n_wires];
        let mut at = 0;
        for x in values {
            v[at..at + x.len()].copy_from_slice(x);
            at += x.len();
        }
        for g in &self.gates {
            match *g {
                BGate::Xor(a, b, c) => v[c as usize] = v[a as usize] ^ v[b as usize],
                BGate::And(a, b, c) => v[c as usize] = v[a as usize] & v[b as usize],
                BGate::Inv(a, c) => v[c as usize] = !v[a as usize],
                BGate::Eqw(a, c) => v[c as usize] = v[a as usize],
                BGate::Eq(x, c) => v[c as usize] = x,
                BGate::Mand(s, m) => {
                    let (s, m) = (s as usize, m as usize);
                    let w = &self.mand_wires[s..s + 3 * m];
                    for i in 0..m {
                        v[w[2 * m + i] as usize] = v[w[i] as usize] & v[w[m + i] as usize];
                    }
                }
            }
        }
        let mut at = self.n_wires - self.n_out();
        Ok(self
            .outputs
            .iter()
            .map(|&w| {
                let o = v[at..at + w as usize].to_vec();
                at += w as usize;
                o
            })
            .collect())
    }

    /// The engines' circuit for this file with the input groups of `public` fixed to their
    /// values (folded as constants: they cost no gate) and the others secret: the IR's inputs
    /// are the secret groups' wires, in group order. `public[g]` is `Some(value)` for a
    /// public group `g`.
    pub fn to_circuit(&self, public: &[Option<Vec<bool>>]) -> Result<Circuit> {
        if public.len() != self.inputs.len() {
            return Err(Error::bad(format!(
                "the circuit has {} input groups, {} were described",
                self.inputs.len(),
                public.len()
            )));
        }
        let n_secret: usize = public
            .iter()
            .zip(&self.inputs)
            .filter(|(p, _)| p.is_none())
            .map(|(_, &w)| w as usize)
            .sum();
        let mut b = Builder::new(n_secret);
        let mut map = vec![Bit::Const(false); self.n_wires];
        let (mut at, mut next) = (0usize, 0usize);
        for (p, &w) in public.iter().zip(&self.inputs) {
            let w = w as usize;
            match p {
                Some(v) => {
                    if v.len() != w {
                        return Err(Error::bad(format!(
                            "a public input group has {w} wires, its value {} bits",
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
        for g in &self.gates {
            match *g {
                BGate::Xor(a, x, c) => map[c as usize] = b.xor(map[a as usize], map[x as usize]),
                BGate::And(a, x, c) => map[c as usize] = b.and(map[a as usize], map[x as usize]),
                BGate::Inv(a, c) => map[c as usize] = b.not(map[a as usize]),
                BGate::Eqw(a, c) => map[c as usize] = map[a as usize],
                BGate::Eq(x, c) => map[c as usize] = Bit::Const(x),
                BGate::Mand(s, m) => {
                    let (s, m) = (s as usize, m as usize);
                    for i in 0..m {
                        let w = &self.mand_wires[s..s + 3 * m];
                        map[w[2 * m + i] as usize] =
                            b.and(map[w[i] as usize], map[w[m + i] as usize]);
                    }
                }
            }
        }
        for &bit in &map[self.n_wires - self.n_out()..self.n_wires] {
            b.output(bit);
        }
        Ok(b.finish())
    }

    /// Splits the IR's output bits into the output groups.
    pub fn split_outputs(&self, bits: &[bool]) -> Vec<Vec<bool>> {
        let mut at = 0;
        self.outputs
            .iter()
            .map(|&w| {
                let o = bits[at..at + w as usize].to_vec();
                at += w as usize;
                o
            })
            .collect()
    }

    /// The secret groups' values, in group order, as the IR's input (the witness).
    pub fn witness(&self, values: &[Vec<bool>], public: &[Option<Vec<bool>>]) -> Vec<bool> {
        values
            .iter()
            .zip(public)
            .filter(|(_, p)| p.is_none())
            .flat_map(|(v, _)| v.iter().copied())
            .collect()
    }

    /// Input group `g`'s wire range.
    pub fn input_wires(&self, g: usize) -> std::ops::Range<usize> {
        let s = self.input_start(g);
        s..s + self.inputs[g] as usize
    }
}

/// Writes `c` as a Bristol Fashion circuit with input groups of widths `inputs` (summing to
/// its inputs, in order) and output groups of widths `outputs` (summing to its outputs).
/// Wires keep the IR's numbers (inputs, then one per gate); each output is then copied to
/// the last wires by an `EQW` gate (an `EQ` gate for a constant output), as the format puts
/// outputs last. Reading it back with [`parse`] and [`Bristol::to_circuit`] (no public group)
/// gives back a circuit with the same gates, hence the same canonical digest (a
/// circuit made by `Circuit::derived`, LowMC's, is bound by its maker's digest instead).
pub fn export(c: &Circuit, inputs: &[u32], outputs: &[u32]) -> Result<String> {
    use std::fmt::Write as _;
    let sum = |g: &[u32]| g.iter().map(|&w| w as usize).sum::<usize>();
    if sum(inputs) != c.n_inputs() || inputs.contains(&0) {
        return Err(Error::bad(format!(
            "input groups of {} bits for a circuit of {} inputs",
            sum(inputs),
            c.n_inputs()
        )));
    }
    if sum(outputs) != c.n_outputs() || outputs.contains(&0) {
        return Err(Error::bad(format!(
            "output groups of {} bits for a circuit of {} outputs",
            sum(outputs),
            c.n_outputs()
        )));
    }
    if c.n_inv() > 0 {
        return Err(Error::bad(
            "this circuit has GF(2^8) inversion gates, which Bristol Fashion cannot express: export its boolean lowering",
        ));
    }
    let mut s = String::with_capacity(24 * (c.n_gates() + c.n_outputs()) + 64);
    let n_wires = c.n_wires() + c.n_outputs();
    let line = |s: &mut String, groups: &[u32]| {
        write!(s, "{}", groups.len()).unwrap();
        for w in groups {
            write!(s, " {w}").unwrap();
        }
        s.push('\n');
    };
    writeln!(s, "{} {n_wires}", c.n_gates() + c.n_outputs()).unwrap();
    line(&mut s, inputs);
    line(&mut s, outputs);
    s.push('\n');
    let mut w = c.n_inputs();
    for g in c.gates() {
        match *g {
            Gate::Xor(a, b) => writeln!(s, "2 1 {a} {b} {w} XOR"),
            Gate::And(a, b) => writeln!(s, "2 1 {a} {b} {w} AND"),
            Gate::Not(a) => writeln!(s, "1 1 {a} {w} INV"),
            Gate::Inv(..) => unreachable!("refused above"),
        }
        .unwrap();
        w += 1;
    }
    for o in c.outputs() {
        match *o {
            Bit::Wire(x) => writeln!(s, "1 1 {x} {w} EQW"),
            Bit::Const(v) => writeln!(s, "1 1 {} {w} EQ", v as u8),
        }
        .unwrap();
        w += 1;
    }
    Ok(s)
}

/// A group's value from hex: exactly `⌈width/8⌉` bytes, bit `j` of byte `i` is wire
/// `8i + j`, the padding bits of the last byte zero. `what` names it in errors.
pub fn group_from_hex(hex_str: &str, width: u32, what: &str) -> Result<Vec<bool>> {
    let t = hex_str.trim();
    let want = (width as usize).div_ceil(8);
    if t.len() != 2 * want {
        return Err(Error::bad(format!(
            "{what}: {width} wires take exactly {want} bytes ({} hex digits), {} digits were given",
            2 * want,
            t.len()
        )));
    }
    let bytes = hex::decode(t)
        .map_err(|_| Error::bad(format!("{what}: not hex (digits 0-9 and a-f only)")))?;
    let bits: Vec<bool> = (0..8 * want)
        .map(|i| bytes[i / 8] >> (i % 8) & 1 == 1)
        .collect();
    if bits[width as usize..].iter().any(|&b| b) {
        return Err(Error::bad(format!(
            "{what}: the last byte's bits past wire {} must be zero",
            width - 1
        )));
    }
    Ok(bits[..width as usize].to_vec())
}

/// The hex of a group's value (the inverse of [`group_from_hex`]).
pub fn group_to_hex(bits: &[bool]) -> String {
    let mut bytes = vec![0u8; bits.len().div_ceil(8)];
    for (i, &b) in bits.iter().enumerate() {
        bytes[i / 8] |= (b as u8) << (i % 8);
    }
    hex::encode(bytes)
}

#[cfg(test)]
mod tests;
