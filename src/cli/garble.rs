//! `prover garble prove|eval|export …` and `verifier garble verify|inspect …`: statements
//! written as Garble programs, on every engine.
//!
//! Every parameter of the function (`main`, or `--fn NAME`, a `pub fn`) is given once, by
//! name, as `NAME=LITERAL` in Garble's literal syntax (`7u16`, `[1u8, 2u8]`,
//! `Point { x: 1i32, y: 2i32 }`, `Color::Red`); the result is printed as a Garble literal and
//! given back to the verifier with `--output`.

use clap::Subcommand;

use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, emit, JsonArg};
use crate::cli::sha256::{check_security, read_proof};
use crate::garble::{proof, Limits, Program, COMPILER};
use crate::mpc::engine::Required;
use crate::proof_file::{read_input, write_output, write_proof, ProofFile, MAGIC};
use crate::{Error, Result};

/// `--fn` and `--max-gates`, for every command that compiles a program.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileArgs {
    /// The function to compile and prove (a `pub fn` of the program).
    #[arg(long = "fn", value_name = "NAME", default_value = "main")]
    function: String,
    /// The most gates the compiled circuit may have (programs are also limited to 64 KiB of
    /// text, 20 s and 1 GiB of compiling).
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT_GATES)]
    max_gates: u64,
}

impl CompileArgs {
    fn limits(&self) -> Limits {
        Limits::for_gates(self.max_gates)
    }
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Prove that you know values of the secret parameters that, with the public ones, make
    /// the function return what it returns (printed as a Garble literal, and needed to verify).
    Prove(ProveArgs),
    /// Run the function (no proof): print its result as a Garble literal.
    Eval(EvalArgs),
    /// Write the compiled circuit as Bristol Fashion: one input group per parameter (integers
    /// least significant bit first, as `prover circuit` reads them), output group 0 the panic
    /// flag (0), group 1 the result.
    Export(ExportArgs),
}

/// The arguments of `prover garble prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The Garble program (`-` for stdin).
    program: String,
    /// A secret parameter: NAME=LITERAL (repeat; every parameter is given once, secret or
    /// public).
    #[arg(long, value_name = "NAME=LITERAL")]
    secret: Vec<String>,
    /// A public parameter: NAME=LITERAL (repeat).
    #[arg(long, value_name = "NAME=LITERAL")]
    public: Vec<String>,
    #[command(flatten)]
    compile: CompileArgs,
    /// Where to write the proof (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `prover garble eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The Garble program (`-` for stdin).
    program: String,
    /// Every parameter once: NAME=LITERAL.
    #[arg(value_name = "NAME=LITERAL")]
    args: Vec<String>,
    #[command(flatten)]
    compile: CompileArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `prover garble export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The Garble program (`-` for stdin).
    program: String,
    #[command(flatten)]
    compile: CompileArgs,
    /// Where to write the circuit (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a Garble proof against the program, its public parameters and the result.
    Verify(VerifyArgs),
    /// Describe a program (its parameters with types and widths, AND gates, digests) or a
    /// Garble proof file (compiler, digests, public parameters, engine and parameters).
    Inspect(InspectArgs),
}

/// The arguments of `verifier garble verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The Garble program.
    program: String,
    /// The proof file (`-` for stdin).
    proof: String,
    /// A public parameter: NAME=LITERAL (exactly the parameters the prover made public).
    #[arg(long, value_name = "NAME=LITERAL")]
    public: Vec<String>,
    /// The function's result, as a Garble literal.
    #[arg(long = "output", value_name = "LITERAL")]
    result: String,
    #[command(flatten)]
    compile: CompileArgs,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier garble inspect`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// A Garble program or a Garble proof file (`-` for stdin).
    file: String,
    #[command(flatten)]
    compile: CompileArgs,
    #[command(flatten)]
    out: JsonArg,
}

/// Compiles the program text under the limits; Garble's report (source lines and carets)
/// goes to stderr before the one-line refusal, unless in JSON mode.
fn compile_text(text: &str, c: &CompileArgs) -> Result<Program> {
    Program::compile(text, &c.function, &c.limits()).map_err(|f| {
        if let Some(p) = &f.pretty {
            if !report::json_mode() {
                eprintln!("{}", p.trim_end());
            }
        }
        f.error
    })
}

fn read_program(path: &str, c: &CompileArgs) -> Result<Program> {
    let text = crate::files::read_text(path, c.limits().bytes, "the program")?;
    compile_text(&text, c)
}

/// Parses `NAME=LITERAL` arguments (`flag` names them) into values by parameter index, each
/// parameter at most once.
fn named_values(p: &Program, args: &[String], flag: &str) -> Result<Vec<(usize, Vec<bool>)>> {
    let mut out: Vec<(usize, Vec<bool>)> = Vec::new();
    for a in args {
        let (name, lit) = a.split_once('=').ok_or_else(|| {
            Error::bad(format!(
                "{flag} {}: write it as NAME=LITERAL (a parameter's name and a Garble literal)",
                crate::files::excerpt(a)
            ))
        })?;
        let i = p.param_index(name.trim())?;
        if out.iter().any(|(j, _)| *j == i) {
            return Err(Error::bad(format!(
                "{flag}: the parameter {} is given twice",
                p.params()[i].name
            )));
        }
        out.push((i, p.parse_arg(i, lit.trim())?));
    }
    Ok(out)
}

/// Every parameter's value from `given`, or a message naming the missing ones.
fn all_params(p: &Program, given: Vec<(usize, Vec<bool>)>, hint: &str) -> Result<Vec<Vec<bool>>> {
    let mut slots: Vec<Option<Vec<bool>>> = vec![None; p.params().len()];
    for (i, v) in given {
        slots[i] = Some(v);
    }
    let missing: Vec<String> = p
        .params()
        .iter()
        .zip(&slots)
        .filter(|(_, s)| s.is_none())
        .map(|(x, _)| format!("{}: {}", x.name, x.ty))
        .collect();
    if !missing.is_empty() {
        return Err(Error::bad(format!(
            "no value for {}: {hint}",
            missing.join(", ")
        )));
    }
    Ok(slots.into_iter().map(|s| s.expect("checked")).collect())
}

fn assignment(p: &Program, secret: &[String], public: &[String]) -> Result<proof::Assignment> {
    let s = named_values(p, secret, "--secret")?;
    let q = named_values(p, public, "--public")?;
    if let Some((i, _)) = q.iter().find(|(i, _)| s.iter().any(|(j, _)| j == i)) {
        return Err(Error::bad(format!(
            "the parameter {} is given both --secret and --public: each is one or the other",
            p.params()[*i].name
        )));
    }
    let public_set: Vec<usize> = q.iter().map(|(i, _)| *i).collect();
    let values = all_params(
        p,
        s.into_iter().chain(q).collect(),
        "give each parameter once, with --secret NAME=LITERAL or --public NAME=LITERAL",
    )?;
    Ok(proof::Assignment {
        values,
        public: (0..p.params().len())
            .map(|i| public_set.contains(&i))
            .collect(),
    })
}

fn public_names(p: &Program, public: &[bool]) -> Vec<String> {
    p.params()
        .iter()
        .zip(public)
        .filter(|(_, &x)| x)
        .map(|(x, _)| x.name.clone())
        .collect()
}

pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Prove(a) => prove(a),
        ProverCmd::Eval(a) => eval(a),
        ProverCmd::Export(a) => export(a),
    }
}

/// `prover garble prove`.
fn prove(
    ProveArgs {
        program,
        secret,
        public,
        compile,
        output,
        sec: crate::cli::SecurityArgs { security, context },
        system,
        seed: crate::cli::SeedArg { seed },
        out,
    }: ProveArgs,
) -> Result<()> {
    let json = out.enable();
    check_security(security)?;
    let prog = read_program(&program, &compile)?;
    let a = assignment(&prog, &secret, &public)?;
    crate::cli::warn_seed(seed);
    let mut rng = crate::rng::rng_from(seed);
    let system = system.system(security)?;
    let (bytes, result) = proof::prove(&prog, &a, &system, context.as_bytes(), &mut rng)?;
    write_proof(&output, &bytes)?;
    let publics = public_names(&prog, &a.public);
    drop(a);
    if json {
        emit(
            true,
            "",
            serde_json::json!({
                "verdict": "proved",
                "result": result,
                "function": prog.function(),
                "program_digest": hex::encode(prog.digest()),
                "circuit_digest": hex::encode(prog.circuit().digest()),
                "compiler": COMPILER,
                "and_gates": prog.circuit().n_and(),
                "system": system.engine().label(),
                "proof_bytes": bytes.len(),
                "public": publics,
            }),
        );
    } else {
        eprintln!(
            "prover: proof about {}'s {} ({} AND gates, {COMPILER}): {system}, {} bytes; its result (give it to the verifier with --output):",
            crate::files::excerpt(&program),
            prog.function(),
            prog.circuit().n_and(),
            bytes.len()
        );
        if output == "-" {
            eprintln!("{result}");
        } else {
            println!("{result}");
        }
    }
    Ok(())
}

/// `prover garble eval`.
fn eval(
    EvalArgs {
        program,
        args,
        compile,
        out,
    }: EvalArgs,
) -> Result<()> {
    let json = out.enable();
    let prog = read_program(&program, &compile)?;
    let given = named_values(&prog, &args, "argument")?;
    let values = all_params(&prog, given, "give each as NAME=LITERAL")?;
    let (result, _) = prog.run(&values)?;
    emit(
        json,
        &result,
        serde_json::json!({"result": result, "function": prog.function()}),
    );
    Ok(())
}

/// `prover garble export`.
fn export(
    ExportArgs {
        program,
        compile,
        output,
    }: ExportArgs,
) -> Result<()> {
    let prog = read_program(&program, &compile)?;
    write_output(&output, prog.export()?.as_bytes())
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Inspect(a) => inspect(a),
    }
}

/// `verifier garble verify`.
fn verify(
    VerifyArgs {
        program,
        proof,
        public,
        result,
        compile,
        sec: crate::cli::SecurityArgs { security, context },
        out,
    }: VerifyArgs,
) -> Result<()> {
    let json = out.enable();
    check_security(security)?;
    let prog = read_program(&program, &compile)?;
    let mut pubs: Vec<Option<Vec<bool>>> = vec![None; prog.params().len()];
    for (i, v) in named_values(&prog, &public, "--public")? {
        pubs[i] = Some(v);
    }
    let output = prog.parse_result(result.trim())?;
    let f = read_proof(&proof)?;
    let t0 = std::time::Instant::now();
    let v = proof::verify(
        &prog,
        &f,
        &pubs,
        output,
        &Required::bits(security),
        context.as_bytes(),
    )?;
    let rep = v.report;
    let secrets: Vec<String> = prog
        .params()
        .iter()
        .zip(&pubs)
        .filter(|(_, p)| p.is_none())
        .map(|(x, _)| x.name.clone())
        .collect();
    let statement = format!(
        "knowledge of {} making {}'s {} return {}",
        secrets.join(", "),
        crate::files::excerpt(&program),
        prog.function(),
        crate::files::excerpt(result.trim())
    );
    let note = if v.made_with != COMPILER {
        format!(
            " (made with {}; the circuit is the same with {COMPILER})",
            crate::files::excerpt(&v.made_with)
        )
    } else {
        String::new()
    };
    let mut v = report::Verified::accepted(statement, &rep, &context, t0.elapsed())
        .about("result", result.trim())
        .about("function", prog.function())
        .about("program_digest", hex::encode(prog.digest()))
        .about("circuit_digest", hex::encode(prog.circuit().digest()))
        .about("compiler", COMPILER)
        .about("made_with", v.made_with.as_str());
    v.note = note;
    v.emit(json);
    Ok(())
}

/// `verifier garble inspect`.
fn inspect(InspectArgs { file, compile, out }: InspectArgs) -> Result<()> {
    let json = out.enable();
    let limit = compile
        .limits()
        .bytes
        .max(crate::proof_file::HEADER_LEN as u64 + crate::proof_file::MAX_BODY as u64);
    let bytes = read_input(&file, limit)?;
    if bytes.starts_with(MAGIC) {
        let f = ProofFile::from_bytes(&bytes)?;
        let d = crate::cli::describe_header(&f, bytes.len()).then(proof::inspect(&f)?);
        emit(
            json,
            d.render().trim_end(),
            report::inspect_object(&f, &bytes, &d),
        );
        return Ok(());
    }
    let mut text =
        String::from_utf8(bytes).map_err(|_| Error::bad("the program is not UTF-8 text"))?;
    if let Some(t) = text.strip_prefix('\u{feff}') {
        text = t.to_string();
    }
    let prog = compile_text(&text, &compile)?;
    let gc = prog.garble_circuit();
    let params: Vec<serde_json::Value> = prog
        .params()
        .iter()
        .map(|x| serde_json::json!({"name": x.name, "type": x.ty, "bits": x.order.len()}))
        .collect();
    let mut human = format!(
        "program:        {} bytes, function {}, {COMPILER}\nprogram digest: {}\ncircuit digest: {}\nparameters:\n",
        text.len(),
        prog.function(),
        hex::encode(prog.digest()),
        hex::encode(prog.circuit().digest()),
    );
    for x in prog.params() {
        human.push_str(&format!(
            "  {}: {} ({} bits)\n",
            x.name,
            x.ty,
            x.order.len()
        ));
    }
    human.push_str(&format!(
        "result:         {} ({} bits)\nAND gates:      {}\ngates:          {} ({} as compiled by Garble, {} AND)",
        prog.result_type(),
        prog.result_order().len(),
        prog.circuit().n_and(),
        prog.circuit().n_gates(),
        gc.gates.len(),
        gc.and_gates(),
    ));
    emit(
        json,
        human,
        serde_json::json!({
            "function": prog.function(),
            "compiler": COMPILER,
            "bytes": text.len(),
            "program_digest": hex::encode(prog.digest()),
            "circuit_digest": hex::encode(prog.circuit().digest()),
            "params": params,
            "result": {"type": prog.result_type(), "bits": prog.result_order().len()},
            "and_gates": prog.circuit().n_and(),
            "gates": prog.circuit().n_gates(),
            "garble_gates": gc.gates.len(),
            "garble_and_gates": gc.and_gates(),
        }),
    );
    Ok(())
}
