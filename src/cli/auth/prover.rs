//! `prover auth keygen|identity|prove|register|login|whoami|logout|demo`.

use std::path::PathBuf;

use clap::Subcommand;

use super::{format_utc, pub_path, KindArg};
use crate::auth::http_client::{self as web, Target};
use crate::auth::keys::{read_key, write_new_file, SecretKey};
use crate::auth::server;
use crate::auth::store::{Clock, Policy, Store};
use crate::auth::DbSpec;
use crate::Error;
use crate::Result;

#[derive(Subcommand, Debug)]
pub enum ProverCmd {
    /// Create a secret key (mode 0600, never overwritten) and its public identity NAME.pub.
    Keygen(KeygenArgs),
    /// Prove knowledge of a key offline, bound to a text (in effect a signature on it): the
    /// proof a login sends, with another context; check it with `verifier auth verify`.
    Prove(ProveArgs),
    /// Print the public identity of a secret key (to recreate a lost NAME.pub).
    Identity(IdentityArgs),
    /// Register NAME on a login server with the identity of a key (first come, first served).
    Register(RegisterArgs),
    /// Log in: prove knowledge of the key, bound to the server's fresh nonce; prints the
    /// session token on stdout.
    Login(LoginArgs),
    /// A protected request: who does this session token belong to? Exit 0 with the user, 1
    /// without a valid token.
    Whoami(WhoamiArgs),
    /// End a session: the token is revoked (HTTP API only). Exit 0 if it was valid, 1 if not.
    Logout(LogoutArgs),
    /// The whole story on loopback: a server on a temporary database, a user registers and
    /// logs in, a replayed proof and a wrong key are refused, the server stops.
    Demo(DemoArgs),
}

/// The arguments of `prover auth keygen`.
#[derive(clap::Args, Debug)]
pub struct KeygenArgs {
    /// Kind of key.
    #[arg(long, value_enum)]
    kind: KindArg,
    /// The secret key file to create; the identity goes next to it, `.key` replaced by
    /// `.pub` (or `.pub` appended).
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
}

/// The arguments of `prover auth prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The secret key file.
    #[arg(long)]
    key: String,
    /// The text the proof is bound to.
    #[arg(long)]
    context: String,
    #[command(flatten)]
    system: crate::cli::engine::SystemArgs,
    /// The proof file to write (`-` for stdout).
    #[arg(short = 'o', long = "output")]
    output: String,
    #[command(flatten)]
    seed: crate::cli::SeedArg,
}

/// The arguments of `prover auth identity`.
#[derive(clap::Args, Debug)]
pub struct IdentityArgs {
    /// The secret key file.
    key: String,
}

/// The arguments of `prover auth register`.
#[derive(clap::Args, Debug)]
pub struct RegisterArgs {
    /// User name.
    name: String,
    /// The secret key file (only its public identity is sent).
    #[arg(long)]
    key: String,
    /// Server address HOST:PORT (TCP service) or URL http://HOST:PORT (HTTP API).
    addr: String,
    #[command(flatten)]
    deadlines: crate::cli::DeadlineArgs,
    #[command(flatten)]
    out: crate::cli::report::JsonArg,
}

/// The arguments of `prover auth login`.
#[derive(clap::Args, Debug)]
pub struct LoginArgs {
    /// User name.
    name: String,
    /// The secret key file.
    #[arg(long)]
    key: String,
    /// Server address HOST:PORT (TCP service) or URL http://HOST:PORT (HTTP API).
    addr: String,
    /// The one-time code a login page shows: the page that asked for it gets a browser
    /// session once the proof verifies (HTTP API only). What the code grants, when and
    /// from which address it was asked for, is shown first and confirmed on the
    /// terminal: only use a code your own browser asked for just now.
    #[arg(long, value_name = "CODE")]
    code: Option<String>,
    /// With --code: grant the browser session without asking (for scripts).
    #[arg(long, requires = "code")]
    yes: bool,
    /// Refuse to prove unless the server announces this name.
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    /// Write the session token to this file (mode 0600) instead of stdout.
    #[arg(long, value_name = "FILE")]
    token_out: Option<String>,
    /// Proof system of the login proof: vole (the default: the smallest proofs), kkw or
    /// zkbpp (their size sets at 128 bits).
    #[arg(long, value_enum, default_value_t = crate::cli::engine::EngineArg::DEFAULT)]
    system: crate::cli::engine::EngineArg,
    #[command(flatten)]
    deadlines: crate::cli::DeadlineArgs,
    #[command(flatten)]
    out: crate::cli::report::JsonArg,
}

/// The arguments of `prover auth whoami`.
#[derive(clap::Args, Debug)]
pub struct WhoamiArgs {
    /// Server address HOST:PORT (TCP service) or URL http://HOST:PORT (HTTP API).
    addr: String,
    /// The session token (64 hex characters), or `@FILE` to read it from a file.
    #[arg(long)]
    token: String,
    #[command(flatten)]
    deadlines: crate::cli::DeadlineArgs,
    #[command(flatten)]
    out: crate::cli::report::JsonArg,
}

/// The arguments of `prover auth logout`.
#[derive(clap::Args, Debug)]
pub struct LogoutArgs {
    /// URL of the HTTP API, http://HOST:PORT.
    addr: String,
    /// The session token (64 hex characters), or `@FILE` to read it from a file.
    #[arg(long)]
    token: String,
    #[command(flatten)]
    deadlines: crate::cli::DeadlineArgs,
}

/// The arguments of `prover auth demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Kind of key for the demo user.
    #[arg(long, value_enum, default_value_t = KindArg::Sha256)]
    kind: KindArg,
}

pub fn run_prover(cmd: ProverCmd) -> Result<()> {
    match cmd {
        ProverCmd::Keygen(a) => keygen(a),
        ProverCmd::Identity(a) => identity(a),
        ProverCmd::Prove(a) => prove(a),
        ProverCmd::Register(a) => register(a),
        ProverCmd::Login(a) => login(a),
        ProverCmd::Whoami(a) => whoami(a),
        ProverCmd::Logout(a) => logout(a),
        ProverCmd::Demo(a) => demo_cmd(a),
    }
}

/// `prover auth keygen`.
fn keygen(
    KeygenArgs {
        kind,
        output,
        seed: crate::cli::SeedArg { seed },
    }: KeygenArgs,
) -> Result<()> {
    if output.as_os_str() == "-" {
        return Err(Error::bad(
            "-o: a key is written to a file (mode 0600), not to stdout",
        ));
    }
    let pubp = pub_path(&output);
    for p in [&output, &pubp] {
        if p.exists() {
            return Err(Error::bad(format!(
                "{} exists: refusing to overwrite it",
                p.display()
            )));
        }
    }
    crate::cli::warn_seed(seed);
    let mut rng = crate::rng::rng_from(seed);
    let key = SecretKey::generate(kind.into(), &mut rng)?;
    let id = key.identity();
    write_new_file(&output, &key.to_text(), true)?;
    if let Err(e) = write_new_file(&pubp, &id.to_text(), false) {
        let _ = std::fs::remove_file(&output);
        return Err(e);
    }
    eprintln!(
        "prover: wrote the secret key {} (keep it private) and the identity {} ({} key, fingerprint {})",
        output.display(),
        pubp.display(),
        id.kind(),
        id.fingerprint()
    );
    print!("{}", id.to_text());
    Ok(())
}

/// `prover auth identity`.
fn identity(IdentityArgs { key }: IdentityArgs) -> Result<()> {
    print!("{}", read_key(&key)?.identity().to_text());
    Ok(())
}

/// `prover auth prove`.
fn prove(
    ProveArgs {
        key,
        context,
        system,
        output,
        seed: crate::cli::SeedArg { seed },
    }: ProveArgs,
) -> Result<()> {
    let key = read_key(&key)?;
    let sys = system.system(crate::auth::keys::LOGIN_SECURITY_BITS)?;
    crate::cli::warn_seed(seed);
    let mut rng = crate::rng::rng_from(seed);
    let t0 = std::time::Instant::now();
    let bytes = crate::auth::keys::prove_offline(&key, context.as_bytes(), &sys, &mut rng)?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    crate::proof_file::write_proof(&output, &bytes)?;
    eprintln!(
        "prover: offline proof of the {} key {} bound to the text: {sys}, {} bytes, {ms:.0} ms",
        key.kind(),
        key.identity().fingerprint(),
        bytes.len()
    );
    Ok(())
}

/// `prover auth register`.
fn register(
    RegisterArgs {
        name,
        key,
        addr,
        deadlines,
        out,
    }: RegisterArgs,
) -> Result<()> {
    let json = out.enable();
    crate::auth::keys::check_user_name(&name)?;
    let id = read_key(&key)?.identity();
    let done = if Target::is_url(&addr) {
        web::register(&Target::parse(&addr)?, &deadlines.deadlines(), &name, &id)
    } else {
        let mut ch = crate::cli::connect(&addr, &deadlines, "verifier auth serve")?;
        server::register(&mut ch, &name, &id)
    };
    // a refused registration judged no proof: not REJECTED (exit 1) but unusable
    // input (exit 2), said in the user's terms
    done.map_err(|e| match e {
        Error::Rejected(why) if why.contains("taken") => Error::bad(format!(
            "the name {name} is taken on this server: choose another name"
        )),
        Error::Rejected(why) => Error::bad(format!("the server refused the registration: {why}")),
        e => e,
    })?;
    eprintln!(
        "registered {name} ({} key, fingerprint {})",
        id.kind(),
        id.fingerprint()
    );
    if json {
        let fields = serde_json::json!({
            "name": name,
            "kind": id.kind().to_string(),
            "fingerprint": id.fingerprint().to_string(),
        });
        println!("{}", crate::cli::report::verdict("registered", fields));
    }
    Ok(())
}

/// `prover auth login`.
fn login(
    LoginArgs {
        name,
        key,
        addr,
        code,
        yes,
        server_name,
        token_out,
        system,
        deadlines,
        out,
    }: LoginArgs,
) -> Result<()> {
    let json = out.enable();
    crate::auth::keys::check_user_name(&name)?;
    let key = read_key(&key)?;
    if let (Some(c), true) = (&code, Target::is_url(&addr)) {
        // where the answer comes from is settled first: without a terminal and
        // without --yes, nothing is asked of the server
        let input = if yes { None } else { Some(terminal()?) };
        let g = web::lookup_code(&Target::parse(&addr)?, &deadlines.deadlines(), &name, c)?;
        confirm_grant(&g, input)?;
    }
    let t0 = std::time::Instant::now();
    let (token, expires, size, verify) = if Target::is_url(&addr) {
        // a server full for a moment says "in a second": waited out (a few times)
        let r = crate::auth::gate::retrying(|| {
            web::login(
                &Target::parse(&addr)?,
                &deadlines.deadlines(),
                &name,
                &key,
                server_name.as_deref(),
                system.0,
                code.as_deref(),
            )
        })?;
        let verify = format!(" (verified in {:.1} ms)", r.verify_ms);
        (r.token, r.expires, r.proof_bytes, verify)
    } else {
        if code.is_some() {
            return Err(Error::bad(
                "--code: device codes belong to the HTTP API (an http:// URL)",
            ));
        }
        let (t, e, n) = crate::auth::gate::retrying(|| {
            let mut ch = crate::cli::connect(&addr, &deadlines, "verifier auth serve")?;
            server::login_with(&mut ch, &name, &key, server_name.as_deref(), system.0)
        })?;
        (t, e, n, String::new())
    };
    eprintln!(
        "logged in as {name}: {size}-byte {} proof{verify}, round trip {:.0} ms; token valid until {}",
        system.0,
        t0.elapsed().as_secs_f64() * 1e3,
        format_utc(expires)
    );
    let hexed = format!("{}\n", hex::encode(token));
    if let Some(path) = &token_out {
        crate::files::Output::SECRET_TEXT.write(path, hexed.as_bytes())?;
    }
    if json {
        // the token only where it would have been printed (not with --token-out)
        let fields = serde_json::json!({
            "name": name,
            "system": system.0.label(),
            "proof_bytes": size,
            "expires_at": expires,
            "token": token_out.is_none().then(|| hex::encode(token)),
            "token_file": token_out,
        });
        println!("{}", crate::cli::report::verdict("accepted", fields));
    } else if token_out.is_none() {
        print!("{hexed}");
    }
    Ok(())
}

/// `prover auth whoami`.
fn whoami(
    WhoamiArgs {
        addr,
        token,
        deadlines,
        out,
    }: WhoamiArgs,
) -> Result<()> {
    let json = out.enable();
    let bytes = read_token(token)?;
    let user = if Target::is_url(&addr) {
        web::whoami(&Target::parse(&addr)?, &deadlines.deadlines(), &bytes)?
    } else {
        let mut ch = crate::cli::connect(&addr, &deadlines, "verifier auth serve")?;
        server::whoami(&mut ch, &bytes)?
    };
    crate::cli::report::emit(
        json,
        &user,
        crate::cli::report::verdict("valid", serde_json::json!({ "name": user })),
    );
    Ok(())
}

/// `prover auth logout`.
fn logout(
    LogoutArgs {
        addr,
        token,
        deadlines,
    }: LogoutArgs,
) -> Result<()> {
    let bytes = read_token(token)?;
    if !Target::is_url(&addr) {
        return Err(Error::bad(
            "logout belongs to the HTTP API: give its http:// URL",
        ));
    }
    web::logout(&Target::parse(&addr)?, &deadlines.deadlines(), &bytes)?;
    eprintln!("logged out: the token is revoked");
    Ok(())
}

/// `prover auth demo`.
fn demo_cmd(DemoArgs { kind }: DemoArgs) -> Result<()> {
    demo(kind.into())
}

/// A session token from `--token`: 64 hex characters, or `@FILE` holding them.
fn read_token(token: String) -> Result<[u8; 32]> {
    let text = match token.strip_prefix('@') {
        Some(path) => crate::files::read_text(path, 1024, "token file")?,
        None => token,
    };
    hex::decode(text.trim())
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| Error::bad("--token: expected 64 hex characters"))
}

/// `prover auth demo`: everything on loopback, in one process.
fn demo(kind: crate::auth::keys::Kind) -> Result<()> {
    use crate::net::server::{serve, LogFormat, ServerOptions};
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = std::env::temp_dir().join(format!("zkgames-auth-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create a temporary folder", e))?;
    let db = dir.join("users.db");
    drop(Store::open(&db, Clock::System, Policy::default())?);
    let cfg = server::ServerConfig {
        db: DbSpec::Sqlite(db.clone()),
        name: "demo.zkgames".into(),
        policy: Policy::default(),
        only: None,
    };
    let l = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| Error::io("cannot listen on loopback", e))?;
    let addr = l
        .local_addr()
        .map_err(|e| Error::io("listener address", e))?;
    let stop = AtomicBool::new(false);
    let d = crate::cli::DeadlineArgs {
        timeout: 30,
        session_timeout: 60,
    };
    // the demo narrates each step itself; the server's own log lines would interleave
    let opts = ServerOptions {
        log: LogFormat::Quiet,
        refuse: server::refuse,
        ..ServerOptions::default()
    };
    let r = std::thread::scope(|sc| -> Result<()> {
        let h = sc.spawn(|| serve(&l, &opts, &stop, |ch, peer| server::handle(&cfg, ch, peer)));
        let steps = || -> Result<()> {
            let conn = || crate::cli::connect(&addr.to_string(), &d, "the demo server");
            println!(
                "1. server 'demo.zkgames' listening on {addr}, database {}",
                db.display()
            );
            let key = SecretKey::generate(kind, &mut crate::rng::os_rng())?;
            let id = key.identity();
            println!(
                "2. alice makes a {kind} key; her public identity: {}",
                id.fingerprint()
            );
            server::register(&mut conn()?, "alice", &id)?;
            println!("3. alice registers (the server stores only the identity)");
            let mut ch = conn()?;
            let (srv, nonce) = server::begin_login(&mut ch, "alice")?;
            // the login proof with VOLE-in-the-head, the smallest engine (its size set)
            let proof = crate::auth::keys::prove_login_with(
                &key,
                &srv,
                "alice",
                &nonce,
                crate::mpc::engine::Engine::Vole,
                &mut crate::rng::os_rng(),
            )?;
            let (token, _) = server::finish_login(&mut ch, proof.clone())?;
            println!(
                "4. alice logs in: nonce {}…, {}-byte proof (VOLE-in-the-head), token {}…",
                &hex::encode(nonce)[..12],
                proof.len(),
                &hex::encode(token)[..12]
            );
            println!(
                "5. whoami with the token: {}",
                server::whoami(&mut conn()?, &token)?
            );
            let mut ch = conn()?;
            let (_, _fresh) = server::begin_login(&mut ch, "alice")?;
            match server::finish_login(&mut ch, proof) {
                Err(e) => println!(
                    "6. an eavesdropper replays alice's proof against a fresh nonce: refused ({e})"
                ),
                Ok(_) => return Err(Error::rejected("a replayed proof was accepted")),
            }
            let mallory = SecretKey::generate(kind, &mut crate::rng::os_rng())?;
            match server::login(&mut conn()?, "alice", &mallory, None) {
                Err(e) => println!("7. mallory logs in as alice with another key: refused ({e})"),
                Ok(_) => return Err(Error::rejected("a wrong key was accepted")),
            }
            match server::whoami(&mut conn()?, &[0u8; 32]) {
                Err(e) => println!("8. whoami without a valid token: refused ({e})"),
                Ok(_) => return Err(Error::rejected("a made-up token was accepted")),
            }
            Ok(())
        };
        let r = steps();
        stop.store(true, Ordering::SeqCst);
        let st = h
            .join()
            .map_err(|_| Error::bad("the demo server failed"))??;
        println!(
            "9. server stopped: {} accepted, {} refused, {} failed connections",
            st.accepted, st.rejected, st.failed
        );
        r
    });
    let _ = std::fs::remove_dir_all(&dir);
    r?;
    println!("ok: login by zero-knowledge proof, replay and wrong key refused");
    Ok(())
}

/// Where the answer to a confirmation is read: stdin if it is a terminal, else the
/// controlling terminal (when stderr, where the question goes, is one). Neither: refused,
/// in one line that names `--yes`.
fn terminal() -> Result<Box<dyn std::io::BufRead>> {
    use std::io::IsTerminal as _;
    if std::io::stdin().is_terminal() {
        return Ok(Box::new(std::io::BufReader::new(std::io::stdin())));
    }
    if std::io::stderr().is_terminal() {
        if let Ok(tty) = std::fs::File::open("/dev/tty") {
            return Ok(Box::new(std::io::BufReader::new(tty)));
        }
    }
    Err(Error::bad(
        "--code grants a browser session and there is no terminal to confirm it on: pass --yes to grant it without asking",
    ))
}

/// Shows what a device code is about to grant (RFC 8628's remote phishing: whoever asked
/// for the code gets the session) and, given a terminal, asks (`None`: `--yes`).
fn confirm_grant(g: &web::CodeGrant, input: Option<Box<dyn std::io::BufRead>>) -> Result<()> {
    use std::io::{BufRead as _, Read as _, Write as _};
    eprintln!(
        "this code grants a browser session as {} on {} to the browser that asked for it, \
         at {} from {} (the code expires at {}).\n\
         Only go on if you asked for it yourself, in your own browser, just now: whoever sends \
         you a code and a command to run gets your session.",
        g.name,
        g.server,
        format_utc(g.requested_at),
        g.requested_from,
        format_utc(g.expires_at)
    );
    let Some(input) = input else {
        return Ok(());
    };
    eprint!("grant the browser session? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    input
        .take(64)
        .read_line(&mut line)
        .map_err(|e| Error::io("the terminal", e))?;
    match line.trim() {
        "y" | "Y" | "yes" | "Yes" | "YES" => Ok(()),
        _ => Err(Error::rejected(
            "not granted: no proof sent, the browser session stays ungranted",
        )),
    }
}
