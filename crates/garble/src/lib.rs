//! Garble programs proven directly: statements people write in a language.
//!
//! [Garble](https://garble-lang.org) (the `garble_lang` crate) is a small, purely functional
//! language with Rust's syntax that compiles a function to a circuit of AND, XOR and NOT
//! gates. A [`Program`] is such a function compiled under [`Limits`] (programs are untrusted
//! input: bounded text, compile time, memory and gates), its parameters and result with
//! their types and bit orders ([`bits`]), and the circuit in the engines' IR
//! ([`circuit::to_ir`]). [`proof`] is the proof kind: "I know values of the secret parameters
//! that, with these public ones, make the program return this value", on every engine.
//!
//! Arguments, results and refusals are in Garble's own terms: literals in its syntax
//! (`7u16`, `[1u8, 2u8]`, `Point { x: 1i32, y: 2i32 }`), compile errors as Garble
//! prettifies them (the source line and a caret).

pub mod bits;
pub mod bound;
pub mod circuit;
pub mod proof;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use garble_lang::literal::Literal;
use garble_lang::{GarbleProgram, TypedProgram};
use sha2::{Digest as _, Sha256};

use zkgames_core::commit::Digest;
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::circuit::Circuit;

pub use bits::Order;

/// The compiler this build links, as proof files record it. `tests/integration/garble_cli.rs` holds it
/// to the version in `Cargo.lock`.
pub const COMPILER: &str = "garble_lang 0.6.1";

/// Domain tag of [`Program::digest`], the program text's digest.
pub const PROGRAM_TAG: &[u8] = b"zkg:garble:program:v1";

/// How many of a Garble circuit's outputs say whether and where it panicked, before the
/// result: a flag, then the reason, line and column of start and end (32 bits each).
pub const PANIC_BITS: usize = 1 + 5 * 32;

/// Bounds on an untrusted program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The program text's bytes.
    pub bytes: u64,
    /// The compiled circuit's gates (AND, XOR and NOT), and its inputs and outputs; also the
    /// bound on the program's unrolled size, checked before compiling ([`bound`]).
    pub gates: u64,
    /// Wall-clock time the compiler may take.
    pub time: Duration,
    /// Memory the compiler may take beyond what the process had before (Linux: resident
    /// set; elsewhere only the time bound holds).
    pub memory: u64,
}

impl Limits {
    /// The default gate limit (the same as Bristol Fashion files').
    pub const DEFAULT_GATES: u64 = zkgames_mpc::bristol::Limits::DEFAULT_GATES;
    /// The largest program text.
    pub const DEFAULT_BYTES: u64 = 64 << 10;
    /// The longest compile.
    pub const DEFAULT_TIME: Duration = Duration::from_secs(20);
    /// The most memory a compile may take.
    pub const DEFAULT_MEMORY: u64 = 1 << 30;

    /// The default limits with another gate limit.
    pub fn for_gates(gates: u64) -> Self {
        Limits {
            gates,
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bytes: Self::DEFAULT_BYTES,
            gates: Self::DEFAULT_GATES,
            time: Self::DEFAULT_TIME,
            memory: Self::DEFAULT_MEMORY,
        }
    }
}

/// A refusal to compile: the one-line error, and Garble's prettified report (the source
/// lines with carets) when the compiler made one.
#[derive(Debug)]
pub struct Failed {
    pub error: Error,
    pub pretty: Option<String>,
}

impl From<Error> for Failed {
    fn from(error: Error) -> Self {
        Failed {
            error,
            pretty: None,
        }
    }
}

impl From<Failed> for Error {
    fn from(f: Failed) -> Self {
        f.error
    }
}

/// A parameter of the compiled function.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// Its type as Garble writes it.
    pub ty: String,
    /// Its bits' order ([`bits`]); its width is `order.len()`.
    pub order: Order,
}

/// A compiled Garble function.
pub struct Program {
    text: String,
    digest: Digest,
    function: String,
    garble: GarbleProgram,
    params: Vec<Param>,
    result_ty: String,
    result: Order,
    full: Circuit,
}

/// SHA-256 of `"zkg:garble:program:v1" ‖ the program text's bytes`.
pub fn program_digest(text: &str) -> Digest {
    let mut h = Sha256::new();
    h.update(PROGRAM_TAG);
    h.update(text.as_bytes());
    h.finalize().into()
}

thread_local! {
    /// Set while [`guarded`] runs the compiler on this thread: its panics are not reported.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` (the compiler's code, on untrusted input), turning a panic into a refusal
/// (`what` says what was being done) without the default panic report on stderr. Panics
/// of other threads are reported as before.
pub(crate) fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info)
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r.map_err(|_| {
        Error::bad(format!(
            "{what}: the Garble compiler failed on it ({COMPILER}); simplify this part of the program"
        ))
    })
}

/// The first error of a Garble report as one line: "Type error on line 3:5: expected u8,
/// found u16".
pub fn first_error(pretty: &str) -> String {
    let mut lines = pretty.lines().map(str::trim).filter(|l| !l.is_empty());
    let head = lines.next().unwrap_or("error").trim_end_matches(['.', ':']);
    match lines.next() {
        Some(msg) if !msg.starts_with('>') && !msg.contains(" | ") => {
            format!("{head}: {}", msg.trim_end_matches(':'))
        }
        _ => head.to_string(),
    }
}

/// Resident memory of this process in bytes, where the system says it (Linux).
fn resident() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Why the worker did not compile.
enum Refused {
    /// Garble's report.
    Pretty(String),
    /// Past the unrolling bound ([`bound`]).
    Bound(Error),
}

/// Type-checks, bounds ([`bound::check`] with the gate limit) and compiles `function` of `text` on a worker thread, watched: the compile is
/// refused once it takes longer than `limits.time` or more memory than `limits.memory` (the
/// worker is then abandoned; the command line exits right after).
fn compile_watched(
    text: &str,
    function: &str,
    limits: &Limits,
) -> std::result::Result<GarbleProgram, Failed> {
    let (tx, rx) = mpsc::channel();
    let (src, fname) = (text.to_string(), function.to_string());
    let gates = limits.gates;
    let spawned = std::thread::Builder::new()
        .name("garble-compile".into())
        // deep expressions recurse deeply in the parser and the checker; the text limit
        // bounds the depth, this stack holds it (reserved, touched only as used)
        .stack_size(1 << 30)
        .spawn(move || {
            let r = guarded("the program", || {
                let checked =
                    garble_lang::check(&src).map_err(|e| Refused::Pretty(e.prettify(&src)))?;
                // measured before the compiler unrolls anything ([`bound`])
                bound::check(&src, &checked, &fname, gates).map_err(Refused::Bound)?;
                let (circuit, main) = checked
                    .compile(&fname)
                    .map_err(|e| Refused::Pretty(garble_lang::Error::from(e).prettify(&src)))?;
                let mut main = main.clone();
                // the function bodies are compiled now and no longer needed; they may nest
                // as deeply as the text allows, so they are dropped here, on this thread's
                // large stack, and not on the caller's
                main.body.clear();
                let mut checked = checked;
                for f in checked.fn_defs.values_mut() {
                    f.body.clear();
                }
                Ok::<_, Refused>(GarbleProgram {
                    program: checked,
                    main,
                    circuit,
                    consts: HashMap::new(),
                    const_sizes: HashMap::new(),
                })
            });
            let _ = tx.send(r);
        });
    if spawned.is_err() {
        return Err(Error::bad("could not start the compiler (out of threads)").into());
    }
    let start = Instant::now();
    let base = resident().unwrap_or(0);
    loop {
        match rx.recv_timeout(Duration::from_millis(5)) {
            Ok(Ok(Ok(p))) => return Ok(p),
            Ok(Ok(Err(Refused::Bound(e)))) => return Err(e.into()),
            Ok(Ok(Err(Refused::Pretty(pretty)))) => {
                return Err(Failed {
                    error: Error::bad(format!(
                        "the program does not compile: {}",
                        first_error(&pretty)
                    )),
                    pretty: Some(pretty),
                })
            }
            Ok(Err(e)) => return Err(e.into()),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::bad("the Garble compiler stopped without an answer").into())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if start.elapsed() > limits.time {
            return Err(Error::bad(format!(
                "the program takes longer than {} s to compile (loops too long or arrays too large for a circuit)",
                limits.time.as_secs()
            ))
            .into());
        }
        if let Some(now) = resident() {
            if now.saturating_sub(base) > limits.memory {
                return Err(Error::bad(format!(
                    "compiling the program takes more than {} MiB (loops too long or arrays too large for a circuit)",
                    limits.memory >> 20
                ))
                .into());
            }
        }
    }
}

impl Program {
    /// Compiles `function` (a `pub fn`) of the program `text` under `limits`.
    pub fn compile(
        text: &str,
        function: &str,
        limits: &Limits,
    ) -> std::result::Result<Program, Failed> {
        if text.len() as u64 > limits.bytes {
            return Err(Error::bad(format!(
                "the program has {} bytes, more than the limit of {}",
                text.len(),
                limits.bytes
            ))
            .into());
        }
        let garble = compile_watched(text, function, limits)?;
        let c = &garble.circuit;
        let n_in: usize = c.input_gates.iter().sum();
        let size = (c.gates.len() + n_in + c.output_gates.len()) as u64;
        if size > limits.gates {
            return Err(Error::bad(format!(
                "the program compiles to {} gates, more than the limit of {} (--max-gates)",
                c.gates.len(),
                limits.gates
            ))
            .into());
        }
        let max_bits = limits.gates as usize;
        let program: &TypedProgram = &garble.program;
        let main = &garble.main;
        if main.params.is_empty() {
            return Err(Error::bad(format!(
                "{function} has no parameters: there is nothing to prove"
            ))
            .into());
        }
        let mut params = Vec::with_capacity(main.params.len());
        for p in &main.params {
            let order = Order::of(program, &p.ty, &garble.const_sizes, max_bits)?;
            params.push(Param {
                name: p.name.clone(),
                ty: p.ty.to_string(),
                order,
            });
        }
        let result = Order::of(program, &main.ty, &garble.const_sizes, max_bits)?;
        let widths_ok = c.input_gates.len() == params.len()
            && params
                .iter()
                .zip(&c.input_gates)
                .all(|(p, &w)| p.order.len() == w)
            && c.output_gates.len() == PANIC_BITS + result.len();
        if !widths_ok {
            return Err(Error::bad(format!(
                "the circuit's inputs or outputs do not have the widths of {function}'s types, which this version does not handle ({COMPILER})"
            ))
            .into());
        }
        let full = circuit::to_ir(c, &params, &result)?;
        Ok(Program {
            text: text.to_string(),
            digest: program_digest(text),
            function: function.to_string(),
            result_ty: main.ty.to_string(),
            garble,
            params,
            result,
            full,
        })
    }

    /// The program text's digest ([`program_digest`]).
    pub fn digest(&self) -> Digest {
        self.digest
    }
    /// The compiled function's name.
    pub fn function(&self) -> &str {
        &self.function
    }
    /// The function's parameters, in order.
    pub fn params(&self) -> &[Param] {
        &self.params
    }
    /// The result's type as Garble writes it.
    pub fn result_type(&self) -> &str {
        &self.result_ty
    }
    /// The result's bit order (its width is `len()`).
    pub fn result_order(&self) -> &Order {
        &self.result
    }
    /// The compiled circuit in the engines' IR, every parameter an input: inputs are the
    /// parameters' bits in our order ([`bits`]), one after the other; output 0 is 1 when the
    /// program panics, the others the result in our order.
    pub fn circuit(&self) -> &Circuit {
        &self.full
    }
    /// Garble's own circuit (its gates as the compiler made them).
    pub fn garble_circuit(&self) -> &garble_lang::circuit::Circuit {
        &self.garble.circuit
    }

    /// The index of the parameter `name`.
    pub fn param_index(&self, name: &str) -> Result<usize> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                Error::bad(format!(
                    "{} has no parameter '{}' (its parameters: {})",
                    self.function,
                    zkgames_core::files::excerpt(name),
                    self.params
                        .iter()
                        .map(|p| format!("{}: {}", p.name, p.ty))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    /// Parses `literal` as a value of parameter `index`'s type: its bits in our order.
    pub fn parse_arg(&self, index: usize, literal: &str) -> Result<Vec<bool>> {
        let p = &self.params[index];
        let what = format!("{} (a {})", p.name, p.ty);
        let ty = &self.garble.main.params[index].ty;
        let bits = self.parse_literal(ty, literal, &what)?;
        if bits.len() != p.order.len() {
            return Err(Error::bad(format!("{what}: not a value of this type")));
        }
        Ok(p.order.to_ours(&bits))
    }

    /// Parses `literal` as a result of the function: the circuit's output (the "no panic"
    /// flag, then the result in our order).
    pub fn parse_result(&self, literal: &str) -> Result<Vec<bool>> {
        let what = format!("the result (a {})", self.result_ty);
        let bits = self.parse_literal(&self.garble.main.ty, literal, &what)?;
        if bits.len() != self.result.len() {
            return Err(Error::bad(format!("{what}: not a value of this type")));
        }
        let mut out = vec![false];
        out.extend(self.result.to_ours(&bits));
        Ok(out)
    }

    /// A literal's bits in Garble's order, checked against `ty`.
    fn parse_literal(
        &self,
        ty: &garble_lang::ast::Type,
        literal: &str,
        what: &str,
    ) -> Result<Vec<bool>> {
        let program = &self.garble.program;
        let sizes = &self.garble.const_sizes;
        let lit = guarded(what, || Literal::parse(program, ty, literal))?.map_err(|e| {
            Error::bad(format!(
                "{what}: '{}' is not a value of this type: {}",
                zkgames_core::files::excerpt(literal),
                first_error(&e.prettify(literal))
            ))
        })?;
        guarded(what, || lit.as_bits(program, sizes))
    }

    /// Runs the function on every parameter's value (our order): its result as a Garble
    /// literal and the circuit's output, or a refusal naming the panic and where it happened.
    #[allow(clippy::result_large_err)] // garble_lang's own error type, returned by its parser
    pub fn run(&self, args: &[Vec<bool>]) -> Result<(String, Vec<bool>)> {
        assert_eq!(args.len(), self.params.len(), "one value per parameter");
        let out = self.full.eval(&args.concat());
        if out[0] {
            // Garble's own circuit says why and where
            let garble_args: Vec<Vec<bool>> = args
                .iter()
                .zip(&self.params)
                .map(|(a, p)| p.order.to_garble(a))
                .collect();
            let why = guarded("the program", || {
                let bits = self.garble.circuit.eval(&garble_args);
                self.garble
                    .parse_output(&bits)
                    .err()
                    .map(|e| first_error(&e.prettify(&self.text)))
            })?
            .unwrap_or_else(|| "a panic".to_string());
            return Err(Error::bad(format!(
                "{} panics for these arguments: {why}",
                self.function
            )));
        }
        let result = self.result.to_garble(&out[1..]);
        let literal = guarded("the result", || {
            Literal::from_unwrapped_bits(
                &self.garble.program,
                &self.garble.main.ty,
                &result,
                &self.garble.const_sizes,
            )
        })?
        .map_err(|_| Error::bad("the result is not a value of the function's type"))?;
        Ok((literal.to_string(), out))
    }

    /// The Bristol Fashion text of the circuit: one input group per parameter (our order),
    /// output group 0 the panic flag, group 1 the result.
    pub fn export(&self) -> Result<String> {
        let inputs: Vec<u32> = self.params.iter().map(|p| p.order.len() as u32).collect();
        if inputs.contains(&0) || self.result.is_empty() {
            return Err(Error::bad(
                "a parameter or the result has no bits, which Bristol Fashion cannot express",
            ));
        }
        zkgames_mpc::bristol::export(&self.full, &inputs, &[1, self.result.len() as u32])
    }
}

#[cfg(test)]
mod tests;
