//! `prover circuit prove|eval|export …` and `verifier circuit verify|inspect …`: statements
//! people bring themselves, as Bristol Fashion circuits, on every engine.
//!
//! Values are given per input or output group as `G=HEX` (group `G`, counted from 0) or
//! `G=@FILE` (the hex read from FILE, white space ignored): bit `j` of byte `i` is the
//! group's wire `8i + j`, and a group of `w` wires takes exactly `⌈w/8⌉` bytes.

use clap::Subcommand;

use crate::cli::engine::SystemArgs;
use crate::cli::report::{self, emit, JsonArg};
use crate::cli::sha256::{check_security, read_proof};
use crate::cli::{Accepted, DeadlineArgs};
use crate::mpc::bristol::{self, proof, Bristol, Limits};
use crate::mpc::engine::Required;
use crate::proof_file::{read_input, write_output, write_proof, ProofFile, MAGIC};
use crate::Error;
use crate::Result;

/// What a prover gives: every input group once, secret or public.
#[derive(clap::Args, Debug, Clone)]
pub struct ProverValues {
    /// A secret input group: G=HEX or G=@FILE (repeat for each secret group).
    #[arg(long, value_name = "G=HEX")]
    secret: Vec<String>,
    /// A public input group: G=HEX or G=@FILE (repeat; every group is given once, secret or
    /// public).
    #[arg(long, value_name = "G=HEX")]
    public: Vec<String>,
}

/// What a verifier is given of the statement: the public input groups and every output group.
#[derive(clap::Args, Debug, Clone)]
pub struct StatementValues {
    /// A public input group: G=HEX or G=@FILE (exactly the groups the prover makes public).
    #[arg(long, value_name = "G=HEX")]
    public: Vec<String>,
    /// An output group: G=HEX or G=@FILE (every output group).
    #[arg(long = "output", value_name = "G=HEX")]
    outputs: Vec<String>,
}

/// `--max-gates`, for every command that reads a circuit file.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct LimitArg {
    /// The most gate lines a circuit file may have (its bytes and wires are bounded in
    /// proportion: 32 bytes and 2 wires a gate). The default fits SHA-512's circuit ten times.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT_GATES)]
    pub max_gates: u64,
}

impl LimitArg {
    fn limits(self) -> Limits {
        Limits::for_gates(self.max_gates)
    }
}

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Prove that you know values of the secret input groups that, with the public ones,
    /// make the circuit output what it outputs (printed, and needed to verify).
    Prove(ProveArgs),
    /// Prove the same statement as `prove` in a live session with `verifier circuit serve`
    /// (the verifier chooses the challenge; nothing transferable is left behind).
    Connect(ConnectArgs),
    /// Evaluate the circuit (no proof): print each output group as `G=HEX`, one a line.
    Eval(EvalArgs),
    /// Write one of our own statements' circuits as Bristol Fashion.
    Export(ExportArgs),
}

/// The arguments of `prover circuit prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The Bristol Fashion circuit file (`-` for stdin).
    circuit: String,
    #[command(flatten)]
    inputs: ProverValues,
    /// Where to write the proof (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    limit: LimitArg,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `prover circuit connect`.
#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    /// The Bristol Fashion circuit file.
    circuit: String,
    #[command(flatten)]
    inputs: ProverValues,
    /// Verifier address HOST:PORT, or `-` for stdin/stdout.
    addr: String,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    limit: LimitArg,
    #[command(flatten)]
    deadlines: DeadlineArgs,
}

/// The arguments of `prover circuit eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The Bristol Fashion circuit file (`-` for stdin).
    circuit: String,
    /// An input group: G=HEX or G=@FILE (every group once).
    #[arg(long, value_name = "G=HEX")]
    input: Vec<String>,
    #[command(flatten)]
    limit: LimitArg,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `prover circuit export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// sha256 (a preimage of --length bytes: input group 0 the message, output the
    /// digest) or sha256-compress (the compression function: inputs the block and the
    /// chaining value, output the new chaining value, emp-toolkit's wire order), lowmc
    /// (LowMC-129 for --plaintext: input the key, output the ciphertext) or aes128
    /// (AES-128 for --plaintext: input the key; output group 0 the ciphertext, group 1
    /// one bit per S-box, 1 where its input was zero, which our AES statement refuses).
    what: ExportKind,
    /// sha256: the message length in bytes.
    #[arg(long, default_value_t = 32)]
    length: usize,
    /// lowmc: the public plaintext block as identity files write it: 17 bytes of hex, bit
    /// 0 the most significant of the first byte (the circuit's wire 8i + j is then bit
    /// 7 − j of byte i). aes128: the 16-byte plaintext in hex (wire 8i + j is bit j of
    /// byte i, as everywhere in `circuit`).
    #[arg(long, value_name = "HEX")]
    plaintext: Option<String>,
    /// Where to write the circuit (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
}

/// The circuits `prover circuit export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportKind {
    Sha256,
    #[value(name = "sha256-compress")]
    Sha256Compress,
    Lowmc,
    Aes128,
}

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify a circuit proof against the circuit, its public input groups and every
    /// output group.
    Verify(VerifyArgs),
    /// Serve live sessions in which a prover shows it knows secret inputs of the circuit
    /// giving these outputs with these public groups.
    Serve(ServeArgs),
    /// Describe a circuit file (gates by type, ANDs, widths, depth, digest) or a circuit
    /// proof file (its circuit's digest, public groups, engine and parameters).
    Inspect(InspectArgs),
}

/// The arguments of `verifier circuit verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The Bristol Fashion circuit file.
    circuit: String,
    /// The proof file (`-` for stdin).
    proof: String,
    #[command(flatten)]
    values: StatementValues,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    limit: LimitArg,
    #[command(flatten)]
    out: JsonArg,
}

/// The arguments of `verifier circuit serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The Bristol Fashion circuit file.
    circuit: String,
    #[command(flatten)]
    values: StatementValues,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    system: SystemArgs,
    #[command(flatten)]
    limit: LimitArg,
    #[command(flatten)]
    serve: crate::cli::ServeArgs,
}

/// The arguments of `verifier circuit inspect`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// A Bristol Fashion circuit file or a circuit proof file (`-` for stdin).
    file: String,
    #[command(flatten)]
    limit: LimitArg,
    #[command(flatten)]
    out: JsonArg,
}

/// The prover's values from `--secret` and `--public`: every input group once, and the
/// indexes of the public ones.
fn assignment(
    circ: &Bristol,
    inputs: &ProverValues,
    limits: &Limits,
) -> Result<(proof::Assignment, Vec<usize>)> {
    let secret = group_values(&inputs.secret, circ.inputs(), "--secret", limits, "input")?;
    let public = group_values(&inputs.public, circ.inputs(), "--public", limits, "input")?;
    if let Some((g, _)) = public
        .iter()
        .find(|(g, _)| secret.iter().any(|(h, _)| h == g))
    {
        return Err(Error::bad(format!(
            "input group {g} is given both --secret and --public: each group is one or the other"
        )));
    }
    let public_set: Vec<usize> = public.iter().map(|(g, _)| *g).collect();
    let n = circ.inputs().len();
    let values = all_groups(
        secret.into_iter().chain(public).collect(),
        n,
        "give each input group once, with --secret G=HEX or --public G=HEX",
    )?;
    let a = proof::Assignment {
        values,
        public: (0..n).map(|g| public_set.contains(&g)).collect(),
    };
    Ok((a, public_set))
}

/// The verifier's values from `--public` and `--output`: each input group's public value
/// (`None` for a secret one) and every output group's value.
#[allow(clippy::type_complexity)]
fn verifier_values(
    circ: &Bristol,
    values: &StatementValues,
    limits: &Limits,
) -> Result<(Vec<Option<Vec<bool>>>, Vec<Vec<bool>>)> {
    let public = group_values(&values.public, circ.inputs(), "--public", limits, "input")?;
    let outs = group_values(
        &values.outputs,
        circ.outputs(),
        "--output",
        limits,
        "output",
    )?;
    let outs = all_groups(
        outs,
        circ.outputs().len(),
        "every output group is part of the statement: give each with --output G=HEX",
    )?;
    let mut pubs: Vec<Option<Vec<bool>>> = vec![None; circ.inputs().len()];
    for (g, v) in public {
        pubs[g] = Some(v);
    }
    Ok((pubs, outs))
}

fn read_circuit(path: &str, limit: LimitArg) -> Result<Bristol> {
    let limits = limit.limits();
    bristol::parse(&read_input(path, limits.bytes)?, &limits)
}

/// The largest `@FILE` value read: the hex of a group as wide as the wire limit allows.
fn value_file_limit(limits: &Limits) -> u64 {
    limits.wires / 4 + 4096
}

/// Parses `G=HEX` / `G=@FILE` arguments (`flag` names them) into values by group, each of
/// its group's width; every group at most once.
fn group_values(
    args: &[String],
    widths: &[u32],
    flag: &str,
    limits: &Limits,
    kind: &str,
) -> Result<Vec<(usize, Vec<bool>)>> {
    let mut out: Vec<(usize, Vec<bool>)> = Vec::new();
    for a in args {
        let (g, v) = a.split_once('=').ok_or_else(|| {
            Error::bad(format!(
                "{flag} {}: write it as G=HEX (G the {kind} group's number, from 0) or G=@FILE",
                crate::files::excerpt(a)
            ))
        })?;
        let g: usize = g.trim().parse().map_err(|_| {
            Error::bad(format!(
                "{flag} {}: '{}' is not a group number",
                crate::files::excerpt(a),
                crate::files::excerpt(g)
            ))
        })?;
        if g >= widths.len() {
            return Err(Error::bad(format!(
                "{flag}: the circuit has {} {kind} groups (0 to {}), not {g}",
                widths.len(),
                widths.len() - 1
            )));
        }
        if out.iter().any(|(h, _)| *h == g) {
            return Err(Error::bad(format!(
                "{flag}: {kind} group {g} is given twice"
            )));
        }
        let hex_text = match v.strip_prefix('@') {
            Some(path) => {
                let bytes = read_input(path, value_file_limit(limits))?;
                String::from_utf8(bytes)
                    .map_err(|_| {
                        Error::bad(format!("{flag} {g}=@{path}: the file is not hex text"))
                    })?
                    .split_whitespace()
                    .collect::<String>()
            }
            None => v.to_string(),
        };
        let what = format!("{flag} {g}");
        out.push((g, bristol::group_from_hex(&hex_text, widths[g], &what)?));
    }
    Ok(out)
}

fn list(groups: &[usize]) -> String {
    groups
        .iter()
        .map(|g| g.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Values for every group from `given`, or a message naming the missing groups.
fn all_groups(given: Vec<(usize, Vec<bool>)>, n: usize, hint: &str) -> Result<Vec<Vec<bool>>> {
    let mut slots: Vec<Option<Vec<bool>>> = vec![None; n];
    for (g, v) in given {
        slots[g] = Some(v);
    }
    let missing: Vec<usize> = (0..n).filter(|&g| slots[g].is_none()).collect();
    if !missing.is_empty() {
        return Err(Error::bad(format!(
            "no value for group{} {}: {hint}",
            if missing.len() > 1 { "s" } else { "" },
            list(&missing)
        )));
    }
    Ok(slots.into_iter().map(|s| s.expect("checked")).collect())
}

fn outputs_text(outputs: &[Vec<bool>]) -> String {
    outputs
        .iter()
        .enumerate()
        .map(|(g, o)| format!("{g}={}", bristol::group_to_hex(o)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn outputs_json(outputs: &[Vec<bool>]) -> serde_json::Value {
    serde_json::Value::Array(
        outputs
            .iter()
            .map(|o| serde_json::Value::from(bristol::group_to_hex(o)))
            .collect(),
    )
}

/// The prover's `--output` names the proof file, the verifier's an output value
/// (`G=HEX`): a path that reads like a value (`0=5a…`) is refused rather than written, so
/// that the verifier's flag given to the prover does not silently make a file of that name.
/// A file really meant to be named so is given as `./0=…`.
fn refuse_value_as_path(path: &str) -> Result<()> {
    if let Some((g, v)) = path.split_once('=') {
        if !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()) && !v.contains('/') {
            return Err(Error::bad(format!(
                "--output names the file the proof is written to; {} reads like an output value (the verifier's --output G=HEX): give a file name (./{} if you mean that name)",
                crate::files::quote(path),
                crate::files::excerpt(path)
            )));
        }
    }
    Ok(())
}

pub fn run_prover(c: ProverCmd) -> Result<()> {
    match c {
        ProverCmd::Prove(a) => prove(a),
        ProverCmd::Eval(a) => eval(a),
        ProverCmd::Connect(a) => connect(a),
        ProverCmd::Export(a) => export_cmd(a),
    }
}

/// `prover circuit prove`.
fn prove(
    ProveArgs {
        circuit,
        inputs,
        output,
        sec: crate::cli::SecurityArgs { security, context },
        system,
        limit,
        seed: crate::cli::SeedArg { seed },
        out,
    }: ProveArgs,
) -> Result<()> {
    let json = out.enable();
    refuse_value_as_path(&output)?;
    check_security(security)?;
    let circ = read_circuit(&circuit, limit)?;
    let limits = limit.limits();
    let (a, public_set) = assignment(&circ, &inputs, &limits)?;
    crate::cli::warn_seed(seed);
    let mut rng = crate::rng::rng_from(seed);
    let system = system.system(security)?;
    let (bytes, outputs) = proof::prove(&circ, &a, &system, context.as_bytes(), &mut rng)?;
    write_proof(&output, &bytes)?;
    let ands = circ.counts().ands();
    if json {
        emit(
            true,
            "",
            serde_json::json!({
                "verdict": "proved",
                "circuit_digest": hex::encode(circ.digest()),
                "system": system.engine().label(),
                "proof_bytes": bytes.len(),
                "outputs": outputs_json(&outputs),
                "public_groups": public_set,
            }),
        );
    } else {
        eprintln!(
            "prover: proof about circuit {}… ({ands} AND gates): {system}, {} bytes; its outputs (give them to the verifier with --output):",
            &hex::encode(circ.digest())[..16],
            bytes.len()
        );
        // the outputs go to stdout unless the proof does
        if output == "-" {
            eprintln!("{}", outputs_text(&outputs));
        } else {
            println!("{}", outputs_text(&outputs));
        }
    }
    Ok(())
}

/// `prover circuit eval`.
fn eval(
    EvalArgs {
        circuit,
        input,
        limit,
        out,
    }: EvalArgs,
) -> Result<()> {
    let json = out.enable();
    let circ = read_circuit(&circuit, limit)?;
    let given = group_values(&input, circ.inputs(), "--input", &limit.limits(), "input")?;
    let values = all_groups(given, circ.inputs().len(), "give each with --input G=HEX")?;
    let outputs = circ.eval(&values)?;
    emit(
        json,
        outputs_text(&outputs),
        serde_json::json!({"outputs": outputs_json(&outputs)}),
    );
    Ok(())
}

/// `prover circuit connect`.
fn connect(
    ConnectArgs {
        circuit,
        inputs,
        addr,
        sec: crate::cli::SecurityArgs { security, context },
        system,
        limit,
        deadlines,
    }: ConnectArgs,
) -> Result<()> {
    check_security(security)?;
    let circ = read_circuit(&circuit, limit)?;
    let (a, _) = assignment(&circ, &inputs, &limit.limits())?;
    let system = system.system(security)?;
    let (p, outputs) =
        proof::session_prover(&circ, &a, &system, context.as_bytes(), crate::rng::os_rng())?;
    drop(a);
    let mut ch = crate::cli::connect(&addr, &deadlines, "verifier circuit serve")?;
    crate::net::run_prover(&mut ch, p)?;
    eprintln!(
        "session accepted ({system}): the verifier knows you hold secret inputs giving {}",
        outputs
            .iter()
            .enumerate()
            .map(|(g, o)| format!("{g}={}", crate::files::excerpt(&bristol::group_to_hex(o))))
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}

/// `prover circuit export`.
fn export_cmd(
    ExportArgs {
        what,
        length,
        plaintext,
        output,
    }: ExportArgs,
) -> Result<()> {
    let text = export(what, length, plaintext.as_deref())?;
    write_output(&output, text.as_bytes())
}

/// The Bristol Fashion text of one of our statements' circuits.
fn export(what: ExportKind, length: usize, plaintext: Option<&str>) -> Result<String> {
    use crate::mpc::{lowmc, sha256};
    match what {
        ExportKind::Sha256 => {
            let c = sha256::sha256_circuit(length)?;
            bristol::export(&c, &[8 * length as u32], &[256])
        }
        ExportKind::Sha256Compress => {
            let c = sha256::compress_circuit();
            bristol::export(&c, &[512, 256], &[256])
        }
        ExportKind::Lowmc => {
            let p = plaintext.ok_or_else(|| {
                Error::bad("lowmc: give the public plaintext with --plaintext HEX (17 bytes)")
            })?;
            let bytes = hex::decode(p.trim())
                .map_err(|_| Error::bad("--plaintext: not an even number of hex digits"))?;
            let block = lowmc::block_from_bytes(&bytes, "--plaintext")?;
            let c = lowmc::lowmc_circuit(&block);
            bristol::export(&c, &[lowmc::N as u32], &[lowmc::N as u32])
        }
        ExportKind::Aes128 => {
            use crate::mpc::aes128;
            let p = plaintext.ok_or_else(|| {
                Error::bad("aes128: give the public plaintext with --plaintext HEX (16 bytes)")
            })?;
            let bytes = hex::decode(p.trim())
                .map_err(|_| Error::bad("--plaintext: not an even number of hex digits"))?;
            let pt: [u8; aes128::BYTES] = bytes.try_into().map_err(|b: Vec<u8>| {
                Error::bad(format!("--plaintext: {} bytes, AES-128 takes 16", b.len()))
            })?;
            // ZKB++ and KKW's form of the statement: S-boxes as boolean gates, plus the flags
            let c = aes128::aes128_circuit(&pt);
            let flags = c.n_inv() as u32;
            bristol::export(&c.lowered(), &[128], &[128, flags])
        }
    }
}

pub fn run_verifier(c: VerifierCmd) -> Result<()> {
    match c {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Serve(a) => serve(a),
        VerifierCmd::Inspect(a) => inspect(a),
    }
}

/// `verifier circuit verify`.
fn verify(
    VerifyArgs {
        circuit,
        proof,
        values,
        sec: crate::cli::SecurityArgs { security, context },
        limit,
        out,
    }: VerifyArgs,
) -> Result<()> {
    let json = out.enable();
    check_security(security)?;
    let circ = read_circuit(&circuit, limit)?;
    let limits = limit.limits();
    let (pubs, outs) = verifier_values(&circ, &values, &limits)?;
    let f = read_proof(&proof)?;
    let t0 = std::time::Instant::now();
    let rep = proof::verify(
        &circ,
        &f,
        &pubs,
        &outs,
        &Required::bits(security),
        context.as_bytes(),
    )?;
    let digest = hex::encode(circ.digest());
    let statement = format!(
        "knowledge of secret inputs of circuit {}… giving outputs {}",
        &digest[..16],
        outs.iter()
            .enumerate()
            .map(|(g, o)| format!("{g}={}", crate::files::excerpt(&bristol::group_to_hex(o))))
            .collect::<Vec<_>>()
            .join(" ")
    );
    report::Verified::accepted(statement, &rep, &context, t0.elapsed())
        .about("circuit_digest", digest)
        .emit(json);
    Ok(())
}

/// `verifier circuit serve`.
fn serve(
    ServeArgs {
        circuit,
        values,
        sec: crate::cli::SecurityArgs { security, context },
        system,
        limit,
        serve,
    }: ServeArgs,
) -> Result<()> {
    check_security(security)?;
    let circ = read_circuit(&circuit, limit)?;
    let (pubs, outs) = verifier_values(&circ, &values, &limit.limits())?;
    let system = system.system(security)?;
    let protocol = proof::PROTOCOLS.id(system.engine())?;
    let digest = hex::encode(circ.digest());
    let what = format!("circuit {}… ({system})", &digest[..16]);
    // the statement is built (and checked) once, before the first connection
    let st = proof::verifier_statement(&circ, &pubs, &outs, context.as_bytes())?;
    crate::cli::serve_sessions(&serve, &what, |ch| {
        let mut v = crate::mpc::engine::session_verifier(
            &system,
            st.clone(),
            protocol,
            crate::rng::os_rng(),
        );
        let rec = crate::net::run_verifier(ch, v.as_mut())?;
        Ok(Accepted {
            summary: format!(
                "the prover holds secret inputs of circuit {}… giving the outputs ({})",
                &digest[..16],
                system.as_ran(rec.hello.rounds)
            ),
            transcript: crate::mpc::session::record_file(protocol, &rec),
        })
    })
}

/// `verifier circuit inspect`.
fn inspect(InspectArgs { file, limit, out }: InspectArgs) -> Result<()> {
    let json = out.enable();
    let limits = limit.limits();
    let bytes = read_input(
        &file,
        limits
            .bytes
            .max(crate::proof_file::HEADER_LEN as u64 + crate::proof_file::MAX_BODY as u64),
    )?;
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
    let circ = bristol::parse(&bytes, &limits)?;
    let k = circ.counts();
    let (depth, and_depth) = circ.depth();
    // "2: group 0 of 512 bits, group 1 of 256 bits": the count, then each group by
    // the number `--secret`/`--public`/`--output G=HEX` give it
    let widths = |w: &[u32]| {
        format!(
            "{}: {}",
            w.len(),
            w.iter()
                .enumerate()
                .map(|(g, x)| format!("group {g} of {x} bits"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let text = format!(
        "circuit:       Bristol Fashion, {} bytes\ndigest:        {}\ngates:         {} ({} XOR, {} AND, {} INV, {} EQ, {} EQW, {} MAND)\nAND gates:     {}\nwires:         {}\ninput groups:  {} ({} bits in all)\noutput groups: {} ({} bits in all)\ndepth:         {} ({} AND)",
        bytes.len(),
        hex::encode(circ.digest()),
        k.lines(), k.xor, k.and, k.inv, k.eq, k.eqw, k.mand,
        k.ands(),
        circ.n_wires(),
        widths(circ.inputs()),
        circ.inputs().iter().map(|&w| w as u64).sum::<u64>(),
        widths(circ.outputs()),
        circ.outputs().iter().map(|&w| w as u64).sum::<u64>(),
        depth,
        and_depth,
    );
    emit(
        json,
        text,
        serde_json::json!({
            "digest": hex::encode(circ.digest()),
            "bytes": bytes.len(),
            "gates": k.lines(),
            "xor": k.xor, "and": k.and, "inv": k.inv, "eq": k.eq, "eqw": k.eqw, "mand": k.mand,
            "and_gates": k.ands(),
            "wires": circ.n_wires(),
            "inputs": circ.inputs(),
            "outputs": circ.outputs(),
            "depth": depth,
            "and_depth": and_depth,
        }),
    );
    Ok(())
}
