//! `prover sha256 seal …` and `verifier sha256 open DIGEST SEAL OPENING`: commit now to a
//! preimage of a published digest without revealing it, reveal it later
//! ([`crate::mpc::seal`]). The seal is an ordinary SHA-256 proof file, so
//! `verifier sha256 verify` accepts it as well.

use clap::Args;

use super::sha256::{check_security, read_proof};
use crate::mpc::seal::{SealOpening, OPENING_HEADER_LEN};
use crate::mpc::sha256::MAX_PREIMAGE;
use crate::proof_file::{read_input, write_proof};
use crate::Error;
use crate::Result;

#[derive(Args, Debug)]
pub struct SealArgs {
    /// The secret preimage, in hex (at most 247 bytes).
    #[arg(long)]
    preimage_hex: String,
    /// Where to write the seal, an ordinary proof file (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: String,
    /// Where to write the opening (a new file, mode 0600). Keep it secret: it reveals the
    /// preimage.
    #[arg(long)]
    opening: String,
    #[command(flatten)]
    sec: crate::cli::SecurityArgs,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
    #[command(flatten)]
    sys: crate::cli::engine::SystemArgs,
}

#[derive(Args, Debug)]
pub struct OpenArgs {
    /// The public digest, 64 hex characters.
    digest: String,
    /// The seal, as written by `prover sha256 seal` (`-` for stdin).
    seal: String,
    /// The opening file written with the seal (`-` for stdin).
    opening: String,
    /// Context string the seal is bound to.
    #[arg(long, default_value = "")]
    context: String,
}

/// Writes a secret to a new file readable by its owner only (mode 0600), through a
/// temporary name so an interrupted run leaves no partial file under `path`.
fn write_secret(path: &str, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let tmp = format!("{path}.tmp{}", std::process::id());
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let written = o
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .map_err(|e| Error::io(format!("cannot write {tmp}"), e))
        .and_then(|_| {
            std::fs::rename(&tmp, path).map_err(|e| Error::io(format!("cannot write {path}"), e))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

pub fn run_seal(a: SealArgs) -> Result<()> {
    check_security(a.sec.security)?;
    if a.opening == "-" {
        return Err(Error::bad(
            "--opening -: the opening is secret; give a file name (it is created with mode 0600)",
        ));
    }
    if a.opening == a.output {
        return Err(Error::bad("--opening and -o name the same file"));
    }
    {
        use std::io::IsTerminal;
        if a.output == "-" && std::io::stdout().is_terminal() {
            return Err(Error::bad(
                "refusing to write a binary seal to the terminal: use -o FILE, or redirect stdout",
            ));
        }
    }
    let mut pre = hex::decode(a.preimage_hex.trim())
        .map_err(|e| Error::bad(format!("--preimage-hex: not hex ({e})")))?;
    if pre.len() > MAX_PREIMAGE {
        return Err(Error::bad(format!(
            "--preimage-hex: {} bytes, at most {MAX_PREIMAGE} are supported",
            pre.len()
        )));
    }
    super::warn_seed(a.seed.seed);
    let mut rng = crate::rng::rng_from(a.seed.seed);
    let system = a.sys.system(a.sec.security)?;
    let sealed = crate::mpc::sha256::seal(&pre, &system, a.sec.context.as_bytes(), &mut rng);
    let n = pre.len();
    crate::mpc::zkbpp::wipe(&mut pre);
    let (seal, opening) = sealed?;
    // the opening first: a seal is never written without the means to open it
    let mut ob = opening.to_bytes();
    let w = write_secret(&a.opening, &ob);
    crate::mpc::zkbpp::wipe(&mut ob);
    w?;
    write_proof(&a.output, &seal)?;
    eprintln!(
        "prover: sealed a {n}-byte SHA-256 preimage: {system}, {} bytes (an ordinary proof); \
         opening in {} (secret until you open the seal), seal {}",
        seal.len(),
        a.opening,
        hex::encode(opening.seal_digest())
    );
    Ok(())
}

fn parse_digest(s: &str) -> Result<[u8; 32]> {
    let b = hex::decode(s.trim()).map_err(|e| Error::bad(format!("DIGEST: not hex ({e})")))?;
    b.try_into().map_err(|b: Vec<u8>| {
        Error::bad(format!(
            "DIGEST: {} bytes, a SHA-256 digest has 32",
            b.len()
        ))
    })
}

pub fn run_open(a: OpenArgs) -> Result<()> {
    let d = parse_digest(&a.digest)?;
    if a.seal == "-" && a.opening == "-" {
        return Err(Error::bad("SEAL and OPENING cannot both be stdin"));
    }
    let f = read_proof(&a.seal)?;
    let ob = read_input(&a.opening, (OPENING_HEADER_LEN + MAX_PREIMAGE) as u64)?;
    let opening = SealOpening::from_bytes(&ob)?;
    let pre = crate::mpc::sha256::open(&d, &f, &opening, a.context.as_bytes())?;
    println!("{}", hex::encode(&pre));
    eprintln!(
        "verifier: OPENED: the seal commits to this {}-byte preimage of {}",
        pre.len(),
        hex::encode(d)
    );
    Ok(())
}
