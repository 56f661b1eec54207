//! Reading a Bristol Fashion file: every count checked against the file's size before
//! anything is allocated from it, every wire checked as it is read, one line naming what is
//! wrong (with its line number) when the file cannot be used.
//!
//! The format (Bristol Fashion, as the published circuits write it):
//!
//! ```text
//! G W                       gates, wires
//! n w_0 … w_{n-1}           input groups and their widths
//! m v_0 … v_{m-1}           output groups and their widths
//!                           (blank lines are skipped anywhere after the header)
//! k l a_1 … a_k c_1 … c_l T one gate a line: k inputs, l outputs, the wires, the type
//! ```
//!
//! Types: `XOR` and `AND` (2 → 1), `INV` (1 → 1), `EQW` (1 → 1, a copy), `EQ` (1 → 1 whose
//! "input" is the constant `0` or `1`), `MAND` (`2m → m`: `m` ANDs, the first inputs paired
//! with the last). Anything else is refused by name. Inputs are wires `0..Σw` in group order;
//! outputs are the last `Σv` wires in group order; every gate writes wires no input or other
//! gate writes, and reads only wires already written.

use super::lex::{describe_token, digits, Lines};
use super::{BGate, Bristol, Limits};
use zkgames_core::Error;
use zkgames_core::Result;

/// The shortest text a gate line can have (`1 1 0 1 INV` and its newline): bounds the gate
/// count a file of `n` bytes can hold before anything is allocated from the header.
const MIN_GATE_LINE: usize = 12;

fn bad(line: usize, msg: impl std::fmt::Display) -> Error {
    Error::bad(format!("circuit file, line {line}: {msg}"))
}

/// Where a line is: its number and its bytes from its start (for a token's column).
#[derive(Clone, Copy)]
struct At<'a> {
    line: usize,
    /// The file's bytes from the line's start.
    rest: &'a [u8],
}

impl<'a> At<'a> {
    fn new(bytes: &'a [u8], (line, start): (usize, usize)) -> Self {
        At {
            line,
            rest: &bytes[start..],
        }
    }

    /// `tok` (a token of this line) as a number, or a refusal naming what it holds.
    #[inline]
    fn number(&self, tok: &[u8], what: &dyn std::fmt::Display) -> Result<u64> {
        match digits(tok) {
            Some(v) => Ok(v),
            None => Err(self.not_number(tok, what)),
        }
    }

    #[cold]
    fn not_number(&self, tok: &[u8], what: &dyn std::fmt::Display) -> Error {
        let start = tok.as_ptr() as usize - self.rest.as_ptr() as usize;
        bad(
            self.line,
            format!(
                "{what} should be a whole number, found {}",
                describe_token(&self.rest[..start + tok.len()], start, tok)
            ),
        )
    }
}

/// A header line `n x_1 … x_n` (input or output groups).
fn groups(at: At, toks: &[&[u8]], what: &str, limits: &Limits) -> Result<Vec<u32>> {
    let line = at.line;
    let n = at.number(toks[0], &format_args!("the number of {what} groups"))?;
    if n == 0 {
        return Err(bad(
            line,
            format!("a circuit needs at least one {what} group"),
        ));
    }
    if toks.len() as u64 != n + 1 {
        return Err(bad(
            line,
            format!(
                "the header announces {n} {what} groups but gives {} widths",
                toks.len() - 1
            ),
        ));
    }
    let mut out = Vec::with_capacity(toks.len() - 1);
    for (g, t) in toks[1..].iter().enumerate() {
        let w = at.number(t, &format_args!("the width of {what} group {g}"))?;
        if w == 0 {
            return Err(bad(line, format!("{what} group {g} has width 0")));
        }
        if w > limits.wires {
            return Err(bad(
                line,
                format!(
                    "{what} group {g} has {w} wires, over the limit of {}",
                    limits.wires
                ),
            ));
        }
        out.push(w as u32);
    }
    Ok(out)
}

/// Parses and checks a Bristol Fashion circuit.
///
/// What is allocated is bounded by the limits alone (the wire table by `limits.wires`, the
/// gate table by the gate lines the file's size can hold): the answer depends on the gates,
/// wires and widths, never on the file's spacing. Wires that no input or gate writes are
/// allowed (nothing reads them: a gate may read only written wires).
pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Bristol> {
    if bytes.len() as u64 > limits.bytes {
        return Err(Error::bad(format!(
            "circuit file of {} bytes, over the limit of {} (raise it with --max-gates)",
            bytes.len(),
            limits.bytes
        )));
    }
    if let Err(e) = std::str::from_utf8(bytes) {
        return Err(Error::bad(format!(
            "circuit file: not text (a byte that is not UTF-8 at offset {})",
            e.valid_up_to()
        )));
    }
    let mut it = Lines::new(bytes);
    // one token buffer for every line (tokens borrow the file; no allocation a gate)
    let mut toks: Vec<&[u8]> = Vec::with_capacity(8);
    let first = it.next_into(&mut toks).ok_or_else(|| {
        Error::bad("circuit file: empty (a Bristol Fashion circuit starts with 'GATES WIRES')")
    })?;
    let at = At::new(bytes, first);
    let l1 = at.line;
    if toks.len() != 2 {
        return Err(bad(
            l1,
            "the first line should be two numbers, the gate count and the wire count",
        ));
    }
    let n_gates = at.number(toks[0], &"the gate count")?;
    let n_wires = at.number(toks[1], &"the wire count")?;
    if n_gates > limits.gates {
        return Err(bad(
            l1,
            format!(
                "{n_gates} gates, over the limit of {} (raise it with --max-gates)",
                limits.gates
            ),
        ));
    }
    if n_wires > limits.wires {
        return Err(bad(
            l1,
            format!(
                "{n_wires} wires, over the limit of {} (raise it with --max-gates)",
                limits.wires
            ),
        ));
    }
    // nothing is allocated from a count the file is too short to hold
    if n_gates.saturating_mul(MIN_GATE_LINE as u64) > bytes.len() as u64 {
        return Err(bad(
            l1,
            format!(
                "the header announces {n_gates} gates, more than a file of {} bytes can hold",
                bytes.len()
            ),
        ));
    }
    let second = it
        .next_into(&mut toks)
        .ok_or_else(|| bad(l1 + 1, "missing the input groups line"))?;
    let at2 = At::new(bytes, second);
    let inputs = groups(at2, &toks, "input", limits)?;
    let third = it
        .next_into(&mut toks)
        .ok_or_else(|| bad(at2.line + 1, "missing the output groups line"))?;
    let at3 = At::new(bytes, third);
    let l3 = at3.line;
    let outputs = groups(at3, &toks, "output", limits)?;
    let n_in: u64 = inputs.iter().map(|&w| w as u64).sum();
    let n_out: u64 = outputs.iter().map(|&w| w as u64).sum();
    if n_in > n_wires || n_out > n_wires {
        return Err(bad(
            l3,
            format!("{n_in} input and {n_out} output wires do not fit in {n_wires} wires"),
        ));
    }
    if n_in + n_out > n_wires {
        return Err(bad(
            l3,
            format!(
                "inputs (wires 0 to {}) and outputs (wires {} to {}) overlap",
                n_in - 1,
                n_wires - n_out,
                n_wires - 1
            ),
        ));
    }
    let n_wires = n_wires as usize;
    let mut written = vec![false; n_wires];
    written[..n_in as usize].fill(true);
    let mut gates = Vec::with_capacity(n_gates as usize);
    let mut mand_wires: Vec<u32> = Vec::new();
    let mut counts = super::GateCounts::default();
    let mut last_line = l3;
    while let Some(pos) = it.next_into(&mut toks) {
        let at = At::new(bytes, pos);
        let ln = at.line;
        last_line = ln;
        if gates.len() as u64 == n_gates {
            return Err(bad(
                ln,
                format!("more gates than the {n_gates} the header announces"),
            ));
        }
        if toks.len() < 4 {
            return Err(bad(
                ln,
                "a gate line is 'INPUTS OUTPUTS in-wires… out-wires… TYPE'",
            ));
        }
        let k = at.number(toks[0], &"the gate's input count")?;
        let m = at.number(toks[1], &"the gate's output count")?;
        if toks.len() as u64 != k + m + 3 {
            return Err(bad(
                ln,
                format!(
                    "the gate announces {k} inputs and {m} outputs but the line has {} wires",
                    toks.len() - 3
                ),
            ));
        }
        let ty_b = *toks.last().expect("at least 4 tokens");
        let (ty, shape_ok) = match ty_b {
            b"XOR" => ("XOR", k == 2 && m == 1),
            b"AND" => ("AND", k == 2 && m == 1),
            b"INV" => ("INV", k == 1 && m == 1),
            b"EQW" => ("EQW", k == 1 && m == 1),
            b"EQ" => ("EQ", k == 1 && m == 1),
            b"MAND" => ("MAND", m >= 1 && k == 2 * m),
            _ => {
                let t = String::from_utf8_lossy(ty_b);
                let shown = match t.chars().find_map(super::lex::char_name) {
                    Some(name) => format!("holding a {name}"),
                    None => format!("'{}'", zkgames_core::files::excerpt(&t)),
                };
                return Err(bad(
                    ln,
                    format!(
                    "unknown gate type {shown} (this reader takes XOR, AND, INV, EQ, EQW and MAND)"
                ),
                ));
            }
        };
        if !shape_ok {
            return Err(bad(
                ln,
                format!("a {ty} gate cannot have {k} inputs and {m} outputs"),
            ));
        }
        let k = k as usize;
        let wire = |tok: &[u8], role: &str| -> Result<u32> {
            let w = at.number(tok, &role)?;
            if w >= n_wires as u64 {
                return Err(bad(
                    ln,
                    format!(
                        "wire {w} is out of range (the circuit has wires 0 to {})",
                        n_wires - 1
                    ),
                ));
            }
            Ok(w as u32)
        };
        let mut ins = [0u32; 2];
        let mut const_in = false;
        if ty == "EQ" {
            const_in = match toks[2] {
                b"0" => false,
                b"1" => true,
                t => {
                    let t = String::from_utf8_lossy(t);
                    return Err(bad(
                        ln,
                        format!(
                            "an EQ gate's input is the constant 0 or 1, found {}",
                            match t.chars().find_map(super::lex::char_name) {
                                Some(name) => format!("a token holding a {name}"),
                                None => format!("'{}'", zkgames_core::files::excerpt(&t)),
                            }
                        ),
                    ));
                }
            };
        } else {
            for (j, t) in toks[2..2 + k].iter().enumerate() {
                let w = wire(t, "an input wire")?;
                if !written[w as usize] {
                    return Err(bad(
                        ln,
                        format!("the gate reads wire {w}, which no input or earlier gate writes"),
                    ));
                }
                if j < 2 {
                    ins[j] = w;
                }
                if ty == "MAND" {
                    mand_wires.push(w);
                }
            }
        }
        let mut outs = [0u32; 1];
        for (j, t) in toks[2 + k..toks.len() - 1].iter().enumerate() {
            let w = wire(t, "an output wire")?;
            if written[w as usize] {
                return Err(bad(
                    ln,
                    if (w as u64) < n_in {
                        format!("the gate writes wire {w}, which is an input")
                    } else {
                        format!("wire {w} is written twice")
                    },
                ));
            }
            written[w as usize] = true;
            if j == 0 {
                outs[0] = w;
            }
            if ty == "MAND" {
                mand_wires.push(w);
            }
        }
        let g = match ty {
            "XOR" => {
                counts.xor += 1;
                BGate::Xor(ins[0], ins[1], outs[0])
            }
            "AND" => {
                counts.and += 1;
                BGate::And(ins[0], ins[1], outs[0])
            }
            "INV" => {
                counts.inv += 1;
                BGate::Inv(ins[0], outs[0])
            }
            "EQW" => {
                counts.eqw += 1;
                BGate::Eqw(ins[0], outs[0])
            }
            "EQ" => {
                counts.eq += 1;
                BGate::Eq(const_in, outs[0])
            }
            _ => {
                counts.mand += 1;
                counts.mand_ands += m;
                let start = mand_wires.len() - 3 * m as usize;
                BGate::Mand(start as u32, m as u32)
            }
        };
        gates.push(g);
    }
    if (gates.len() as u64) < n_gates {
        return Err(bad(
            last_line,
            format!(
                "the file ends after {} gates; the header announces {n_gates}",
                gates.len()
            ),
        ));
    }
    let first_out = n_wires - n_out as usize;
    if let Some(w) = (first_out..n_wires).find(|&w| !written[w]) {
        return Err(Error::bad(format!(
            "circuit file: output wire {w} is never written by a gate"
        )));
    }
    Ok(Bristol::from_checked(
        n_wires, inputs, outputs, gates, mand_wires, counts,
    ))
}
