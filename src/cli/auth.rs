//! `prover auth keygen|prove` and `verifier auth add|list|remove|verify`: keys, offline
//! proofs of a key bound to a text, and the user database of the authentication server (see
//! [`crate::auth`]).

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use crate::auth::http_client::{self as web, Target};
use crate::auth::keys::{read_identity, read_key, write_new_file, Kind, SecretKey};
use crate::auth::server;
use crate::auth::store::{Clock, Event, Policy, Store};
use crate::auth::DbSpec;
use crate::Error;
use crate::Result;

/// Key kinds on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// 32 random bytes; identity = SHA-256 of a tag and the secret (128-bit security).
    Sha256,
    /// A peg solitaire puzzle with a planted solution (puzzle hardness is not a standard
    /// cryptographic assumption: a demonstration, use sha256 for real security).
    Peg,
    /// A 129-bit LowMC key; identity = a random plaintext and its ciphertext (LowMC-129-129-43-4
    /// as in Picnic3-L1; LowMC has had far less cryptanalysis than AES).
    Lowmc,
    /// An AES-128 key; identity = a random plaintext and its ciphertext (FAEST's statement:
    /// the conservative choice, resting on the most studied block cipher).
    Aes128,
}

impl From<KindArg> for Kind {
    fn from(k: KindArg) -> Kind {
        match k {
            KindArg::Sha256 => Kind::Sha256,
            KindArg::Peg => Kind::Peg,
            KindArg::Lowmc => Kind::Lowmc,
            KindArg::Aes128 => Kind::Aes128,
        }
    }
}

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

#[derive(Subcommand, Debug)]
pub enum VerifierCmd {
    /// Verify an offline proof (`prover auth prove`) against an identity and its text, at
    /// 128 bits: exit 0 accepted, 1 rejected.
    Verify(VerifyArgs),
    /// Register a user with their identity file (administrator, offline); a taken name is
    /// refused. Creates the database if needed.
    Add(AddArgs),
    /// List the registered users.
    List(ListArgs),
    /// Run the login server: the TCP service (--listen: the session layer's framed
    /// messages) and/or the HTTP API with its login page (--http), on an SQLite file or a
    /// PostgreSQL database shared by several instances; one line per attempt on stderr.
    Serve(ServeArgs),
    /// Remove a user, their session tokens and pending challenges.
    Remove(RemoveArgs),
}

/// The arguments of `verifier auth verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The identity file (NAME.pub).
    identity: String,
    /// The proof file (`-` for stdin).
    proof: String,
    /// The text the proof must be bound to.
    #[arg(long)]
    context: String,
    #[command(flatten)]
    out: crate::cli::report::JsonArg,
}

/// The arguments of `verifier auth add`.
#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// User name: 1 to 32 characters among a-z 0-9 _ - ., starting with a letter or digit.
    name: String,
    /// The user's identity file (NAME.pub), `-` for stdin.
    identity: String,
    /// The user database: an SQLite file or a postgres://USER@HOST:PORT/DB URL.
    #[arg(long)]
    db: String,
}

/// The arguments of `verifier auth list`.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// The user database: an SQLite file or a postgres://USER@HOST:PORT/DB URL.
    #[arg(long)]
    db: String,
}

/// The arguments of `verifier auth serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The user database: a file path (SQLite, created if missing) or a
    /// postgres://USER@HOST:PORT/DB URL (schema created or migrated on start).
    #[arg(long)]
    db: String,
    /// Address of the TCP service (e.g. 127.0.0.1:7443; port 0 picks a free port).
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// Address of the HTTP API and page (e.g. 127.0.0.1:8080; port 0 picks a free port).
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    /// HTTP connections open at once (keep-alive ones included); more get 503.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_connections: u32,
    /// The server's name, bound into every login proof.
    #[arg(long, default_value = "zkgames")]
    name: String,
    /// Seconds a session token stays valid.
    #[arg(long, value_name = "SECS", default_value_t = 3600, value_parser = clap::value_parser!(i64).range(1..=31_536_000))]
    token_ttl: i64,
    /// Seconds a login nonce stays valid.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(i64).range(1..=3600))]
    challenge_ttl: i64,
    /// Seconds a device code of the login page stays usable (HTTP).
    #[arg(long, value_name = "SECS", default_value_t = crate::auth::http::DEVICE_TTL, value_parser = clap::value_parser!(i64).range(1..=3600))]
    device_ttl: i64,
    /// Connections (TCP) or requests (HTTP) served at once; further ones are told to
    /// retry later (never queued), on TCP after closing one to make room if the rules
    /// allow (one not yet speaking, one of an address holding more, or the one that has
    /// held its place longest, past --evict-after).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_sessions: u32,
    /// Unexpired login nonces one peer address may hold at once.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_pending_per_peer: u32,
    /// Failed logins one peer address may make per minute; then its logins are refused
    /// with a retry-after (before any proof is verified). Never counted per user name.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_failures_per_minute: u32,
    /// Registrations one peer address may make per hour.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    max_registrations_per_hour: u32,
    /// No log lines.
    #[arg(long, conflicts_with = "json")]
    quiet: bool,
    /// Log lines as JSON objects.
    #[arg(long)]
    json: bool,
    /// Accept login proofs of this system only (default: zkbpp, kkw and vole).
    #[arg(long, value_enum, value_name = "SYSTEM")]
    require_system: Option<crate::cli::engine::EngineArg>,
    /// A web origin (e.g. https://games.example) whose pages may call the HTTP API from
    /// a visitor's browser; repeat for several. Without it only the server's own page
    /// may (docs/PROTOCOLS.md 5.6).
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    #[command(flatten)]
    deadlines: crate::cli::DeadlineArgs,
    #[command(flatten)]
    limits: crate::cli::ConnLimitArgs,
}

/// The arguments of `verifier auth remove`.
#[derive(clap::Args, Debug)]
pub struct RemoveArgs {
    /// User name.
    name: String,
    /// The user database: an SQLite file or a postgres://USER@HOST:PORT/DB URL.
    #[arg(long)]
    db: String,
}

/// Where the identity of key file `key` goes: `.key` replaced by `.pub`, else `.pub` appended.
pub fn pub_path(key: &Path) -> PathBuf {
    match key.extension() {
        Some(e) if e == "key" => key.with_extension("pub"),
        _ => {
            let mut s = key.as_os_str().to_owned();
            s.push(".pub");
            PathBuf::from(s)
        }
    }
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
    super::warn_seed(seed);
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
    super::warn_seed(seed);
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

fn open_admin(db: &str, create: bool) -> Result<Box<dyn crate::auth::UserDb>> {
    DbSpec::parse(db).open(Clock::System, Policy::default(), create)
}

/// `YYYY-MM-DD HH:MM:SSZ` for a Unix time (UTC, proleptic Gregorian calendar).
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

pub fn format_utc(t: i64) -> String {
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    // civil-from-days (H. Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

pub fn run_verifier(cmd: VerifierCmd) -> Result<()> {
    match cmd {
        VerifierCmd::Verify(a) => verify(a),
        VerifierCmd::Serve(a) => serve(a),
        VerifierCmd::Add(a) => add(a),
        VerifierCmd::List(a) => list(a),
        VerifierCmd::Remove(a) => remove(a),
    }
}

/// `verifier auth verify`.
fn verify(
    VerifyArgs {
        identity,
        proof,
        context,
        out,
    }: VerifyArgs,
) -> Result<()> {
    use crate::cli::report;
    let json = out.enable();
    let id = read_identity(&identity)?;
    let bytes = crate::proof_file::read_input(
        &proof,
        (crate::proof_file::HEADER_LEN + crate::proof_file::MAX_BODY) as u64,
    )?;
    let t0 = std::time::Instant::now();
    let system = crate::auth::keys::verify_offline(&id, context.as_bytes(), &bytes)?;
    let statement = format!(
        "knowledge of the {} key of identity {}, bound to the text",
        id.kind(),
        id.fingerprint()
    );
    report::Verified {
        verdict: "accepted",
        statement,
        system: system.engine().label(),
        evidence: true,
        rounds: None,
        security_bits: Some(system.security_bits()),
        proof_bytes: bytes.len(),
        and_gates: None,
        context: context.clone(),
        verify_ms: t0.elapsed().as_secs_f64() * 1e3,
        about: Default::default(),
        detail: format!("{system}, {} bytes", bytes.len()),
        note: String::new(),
    }
    .about("kind", id.kind().name())
    .about("fingerprint", id.fingerprint())
    .emit(json);
    Ok(())
}

/// `verifier auth serve`.
fn serve(
    ServeArgs {
        db,
        listen,
        http,
        max_connections,
        name,
        token_ttl,
        challenge_ttl,
        device_ttl,
        max_sessions,
        max_pending_per_peer,
        max_failures_per_minute,
        max_registrations_per_hour,
        quiet,
        json,
        require_system,
        allow_origin,
        deadlines,
        limits,
    }: ServeArgs,
) -> Result<()> {
    use crate::net::server::{self as srv, LogFormat, ServerOptions};
    if listen.is_none() && http.is_none() {
        return Err(Error::bad(
            "no address to serve on: give --http HOST:PORT (the HTTP API and login page, \
             for `prover auth … http://HOST:PORT`), --listen HOST:PORT (the TCP service, \
             for `prover auth … HOST:PORT`), or both",
        ));
    }
    for a in listen.iter().chain(&http) {
        crate::cli::check_host_port(a)?;
    }
    crate::auth::keys::check_server_name(&name)?;
    let policy = Policy {
        token_ttl,
        challenge_ttl,
        device_ttl,
        max_pending_per_peer: max_pending_per_peer as usize,
        max_failures: max_failures_per_minute as usize,
        failure_window: 60,
        max_registrations_per_peer: max_registrations_per_hour as usize,
        registration_window: 3600,
        ..Policy::default()
    };
    // the decoys' keys are made now, not on the first refusal (whose time would show)
    crate::auth::login::decoys();
    let spec = DbSpec::parse(&db);
    // creates (or migrates) and checks the database before listening: a bad file is
    // exit 2 now
    let (users, purged) = crate::auth::http::prepare_db(&spec, &policy)?;
    let bind = |a: &str| {
        let l = std::net::TcpListener::bind(a)
            .map_err(|e| Error::io(format!("cannot listen on {a}"), e))?;
        let local = l
            .local_addr()
            .map_err(|e| Error::io("listener address", e))?;
        Ok::<_, Error>((l, local))
    };
    let tcp = listen.as_deref().map(bind).transpose()?;
    let web = http.as_deref().map(bind).transpose()?;
    let log = if quiet {
        LogFormat::Quiet
    } else if json {
        LogFormat::Json
    } else {
        LogFormat::Plain
    };
    let about = format!(
        "{users} users in {} (purged {} expired challenges, {} expired tokens, {} expired device codes, {} old audit lines); Ctrl-C stops",
        spec.display(),
        purged.challenges,
        purged.tokens,
        purged.devices,
        purged.audit
    );
    if let Some((_, a)) = &web {
        eprintln!(
            "login server {name:?} listening on {a} (HTTP API and page: http://{a}/): {about}"
        );
    }
    if let Some((_, a)) = &tcp {
        eprintln!("login server {name:?} listening on {a}: {about}");
    }
    let only = require_system.map(|s| s.0);
    let cfg = server::ServerConfig {
        db: spec.clone(),
        name: name.clone(),
        policy: policy.clone(),
        only,
    };
    let hcfg = crate::auth::http::HttpConfig {
        db: spec,
        name,
        policy,
        only,
        max_sessions: max_sessions as usize,
        max_connections: max_connections as usize,
        max_per_address: limits.max_per_address as usize,
        first_message: std::time::Duration::from_secs(limits.first_message_timeout),
        hold: std::time::Duration::from_secs(limits.evict_after),
        deadlines: deadlines.deadlines(),
        log,
        allow_origins: crate::auth::http::parse_origins(&allow_origin)?,
    };
    srv::install_stop_signals();
    let opts = ServerOptions {
        refuse: server::refuse,
        ..limits.server_options(max_sessions, &deadlines, log)
    };
    std::thread::scope(|sc| -> Result<()> {
        let t = tcp.map(|(l, _)| {
            sc.spawn(move || {
                srv::serve(&l, &opts, &srv::STOP, |ch, peer| {
                    server::handle(&cfg, ch, peer)
                })
            })
        });
        let h = web.map(|(l, _)| {
            let r = crate::auth::http::serve(l, hcfg, &srv::STOP);
            // the HTTP service ending (stop signal or failure) stops the TCP one too
            srv::STOP.store(true, std::sync::atomic::Ordering::SeqCst);
            r
        });
        if let Some(t) = t {
            let st = t
                .join()
                .map_err(|_| Error::bad("the TCP service failed"))??;
            eprintln!(
                "stopped: {} accepted, {} refused, {} failed connections, {} turned away, {} evicted before their first message",
                st.accepted, st.rejected, st.failed, st.busy, st.evicted
            );
        }
        if let Some(h) = h {
            let st = h?;
            eprintln!(
                "stopped (HTTP): {} connections, {} requests, {} turned away while busy",
                st.connections, st.requests, st.busy
            );
        }
        Ok(())
    })
}

/// `verifier auth add`.
fn add(AddArgs { name, identity, db }: AddArgs) -> Result<()> {
    crate::auth::keys::check_user_name(&name)?;
    let id = read_identity(&identity)?;
    let store = open_admin(&db, true)?;
    store.add_user(&name, &id)?;
    store.record(
        Event::Register,
        &name,
        "admin",
        &format!("{} {}", id.kind(), id.fingerprint()),
    )?;
    println!(
        "added {name} ({} key, fingerprint {})",
        id.kind(),
        id.fingerprint()
    );
    Ok(())
}

/// `verifier auth list`.
fn list(ListArgs { db }: ListArgs) -> Result<()> {
    let store = open_admin(&db, false)?;
    let users = store.users()?;
    if users.is_empty() {
        eprintln!("verifier: no users in {}", DbSpec::parse(&db).display());
    } else {
        let w = users.iter().map(|u| u.name.len()).max().unwrap_or(4).max(4);
        println!("{:w$}  KIND    REGISTERED            FINGERPRINT", "NAME");
        for u in &users {
            println!(
                "{:w$}  {:6}  {}  {}",
                u.name,
                u.identity.kind().name(),
                format_utc(u.created),
                u.identity.fingerprint()
            );
        }
    }
    Ok(())
}

/// `verifier auth remove`.
fn remove(RemoveArgs { name, db }: RemoveArgs) -> Result<()> {
    let store = open_admin(&db, false)?;
    store.remove_user(&name)?;
    store.record(Event::Remove, &name, "admin", "")?;
    println!("removed {name}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_against_known_values() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00:00Z");
        assert_eq!(format_utc(1_700_000_000), "2023-11-14 22:13:20Z");
        assert_eq!(format_utc(-1), "1969-12-31 23:59:59Z");
        assert_eq!(format_utc(4_102_444_800), "2100-01-01 00:00:00Z");
    }

    #[test]
    fn utc_dates_against_day_counting() {
        // an independent reference: walk the calendar day by day from 1970
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let (mut y, mut m, mut d) = (1970i64, 1i64, 1i64);
        for day in 0..80_000i64 {
            let t = day * 86_400 + 3_723;
            assert_eq!(
                format_utc(t),
                format!("{y:04}-{m:02}-{d:02} 01:02:03Z"),
                "day {day}"
            );
            let len = match m {
                2 if leap(y) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            d += 1;
            if d > len {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
    }

    #[test]
    fn pub_paths() {
        assert_eq!(pub_path(Path::new("a/alice.key")), Path::new("a/alice.pub"));
        assert_eq!(pub_path(Path::new("alice")), Path::new("alice.pub"));
        assert_eq!(pub_path(Path::new("alice.sec")), Path::new("alice.sec.pub"));
    }
}
