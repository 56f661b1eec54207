//! `verifier auth verify|serve|add|list|remove`.

use clap::Subcommand;

use super::format_utc;
use crate::auth::keys::read_identity;
use crate::auth::server;
use crate::auth::store::{Clock, Event, Policy};
use crate::auth::DbSpec;
use crate::Error;
use crate::Result;

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

fn open_admin(db: &str, create: bool) -> Result<Box<dyn crate::auth::UserDb>> {
    DbSpec::parse(db).open(Clock::System, Policy::default(), create)
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
    // the proof request limit, computed once from the engines' encodings, before any login
    // waits for it
    crate::auth::keys::max_login_proof();
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
