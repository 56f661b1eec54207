//! The login service over HTTP/1.1 with JSON bodies (`verifier auth serve --http ADDR`):
//! the same [`Authenticator`] as the TCP service ([`super::server`]), hence the same
//! statement, rate limits, equal-time refusals and audit log; only the carrier differs.
//! docs/PROTOCOLS.md 5.6 gives the bytes, docs/openapi.yaml the API.
//!
//! ```text
//! POST /v1/register  {name, identity}                         → 201 | 409 taken
//! POST /v1/challenge {name}                                   → 200 {challenge, server, expires_at}
//! POST /v1/login     {name, challenge, system, proof, code?}  → 200 {token, expires_at, …} | 401
//! GET  /v1/whoami    Authorization: Bearer TOKEN              → 200 {name} | 401
//! POST /v1/logout    Authorization: Bearer TOKEN              → 200 | 401
//! POST /v1/device    {name}                                   → 201 {code, poll, expires_at, command}
//! POST /v1/device/lookup {name, code}                        → 200 {grants, requested_at, requested_from, …} | 400
//! GET  /v1/device/POLL?wait=SECS                              → 200 {state, …} | 404
//! GET  /                                                      → the login page
//! ```
//!
//! Errors are `{"error": "…"}` with 400 (malformed), 401 (refused), 404, 405, 408 (too
//! slow), 409 (taken), 413 (too large), 429 (with `Retry-After`), 500 (database) or 503
//! (busy, with `Retry-After`).
//!
//! Threads: the I/O runs on a small tokio runtime; every database operation and every proof
//! verification runs on the blocking pool, at most [`HttpConfig::max_sessions`] at once (a
//! request beyond that is answered 503 at once, never queued), so a burst of proofs never
//! stalls the I/O threads. Deadlines: the request head within the message deadline, the body
//! within the message deadline, a connection (keep-alive included) within the session
//! deadline; at most [`HttpConfig::max_connections`] connections at once, further ones get a
//! 503 and are closed.
//!
//! Device login (the page): the page asks `POST /v1/device` for a short one-time `code`
//! bound to a name and a secret `poll` handle; the person runs
//! `prover auth login NAME --key KEY --code CODE URL`, whose login request carries the code;
//! the page long-polls `GET /v1/device/POLL` and receives the session token once the proof
//! has verified ([`device`]). Codes live in the database, so with several instances on one
//! PostgreSQL (or several processes on one SQLite file) each step may reach any instance.

mod device;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use base64::Engine as _;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::db::{DbPool, DbSpec, UserDb};
use super::keys::{check_user_name, Identity};
use super::login::{Authenticator, Denied, Registration};
use super::store::{Clock, DeviceDone, Event, Policy};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::engine::Engine;
use zkgames_net::server::{utc_now, LogFormat};
use zkgames_net::Deadlines;

/// The largest request body, that of `POST /v1/login`: `{"name": …, "challenge": …,
/// "system": …, "proof": …, "code": …}` with the longest name, the 64 hex digits of the
/// challenge, the longest honest login proof of any key kind
/// ([`super::keys::max_login_proof`]) in padded base64, plus [`JSON_SLACK`] (keys, quotes,
/// whitespace, the engine's wire name, a device code as typed). The other routes have bounds
/// of their own ([`max_register_body`], [`MAX_SMALL_BODY`]); each is refused on its
/// `Content-Length` (413) before any of the body is read.
pub fn max_login_body() -> usize {
    let proof = super::keys::max_login_proof().div_ceil(3) * 4;
    super::keys::MAX_USER + 64 + proof + JSON_SLACK
}
/// The largest body of the routes that carry a name and at most a device code
/// (`/v1/challenge`, `/v1/device`, `/v1/device/lookup`).
pub const MAX_SMALL_BODY: usize = 4 << 10;
/// Room in a JSON body for its keys, quotes, braces and whitespace.
pub const JSON_SLACK: usize = 1 << 10;

/// The largest body of `POST /v1/register`: `{"name": …, "identity": …}` with the longest
/// name and the longest identity text ([`super::keys::max_identity_text`], its final
/// `\r\n` escaped in two more bytes), plus [`JSON_SLACK`].
pub fn max_register_body() -> usize {
    super::keys::MAX_USER + super::keys::max_identity_text() + 2 + JSON_SLACK
}
/// The largest request head (request line and headers).
pub const MAX_HEAD: usize = 16 << 10;
pub use device::{DEVICE_TTL, MAX_DEVICES, MAX_WAIT};

/// The page served at `/`.
pub const PAGE: &str = include_str!("../assets/login.html");
/// The API description served at `/openapi.yaml`, as written (with `[ENGINES]` where the
/// engines' wire names go: [`openapi_text`] fills them in).
pub const OPENAPI: &str = include_str!("../../../../docs/openapi.yaml");

/// The engines' wire names as a YAML flow list: `[zkbpp, kkw, vole]`.
fn engine_list() -> String {
    let names: Vec<&str> = Engine::ALL.iter().map(|e| e.wire()).collect();
    format!("[{}]", names.join(", "))
}

/// The API description served, with the engines this build runs.
pub fn openapi_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| OPENAPI.replace("[ENGINES]", &engine_list()))
}

/// The login page served, with the names of the engines this build runs (the page shows
/// the name of a login's engine from the wire name the server answers with).
pub fn page_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let names: serde_json::Map<String, serde_json::Value> = Engine::ALL
            .iter()
            .map(|e| (e.wire().to_string(), serde_json::Value::from(e.name())))
            .collect();
        PAGE.replace(
            "/*ENGINES*/{}",
            &serde_json::Value::Object(names).to_string(),
        )
    })
}

/// How the HTTP service runs.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    pub db: DbSpec,
    /// The name proofs are bound to.
    pub name: String,
    pub policy: Policy,
    /// The only engine whose login proofs are accepted (`None`: every engine).
    pub only: Option<Engine>,
    /// Requests worked on at once (database and proof verification); more get 503.
    pub max_sessions: usize,
    /// Connections open at once; more get 503 and are closed.
    pub max_connections: usize,
    /// Connections one address (an IPv6 client: its /64) may hold at once; more get 429
    /// and are closed (the same limiter as the TCP service, [`zkgames_net::limit`]).
    pub max_per_address: usize,
    /// Seconds a new connection (or a kept-alive one between requests) has to send a
    /// whole request head; at most the message deadline.
    pub first_message: Duration,
    /// A connection that has held its place this long yields it to a newcomer at a full
    /// server (`--evict-after`, [`zkgames_net::limit::DEFAULT_HOLD`]).
    pub hold: Duration,
    pub deadlines: Deadlines,
    pub log: LogFormat,
    /// Web origins (`scheme://host[:port]`, lower case) whose pages may call the API from a
    /// browser besides the server's own page ([`parse_origins`]).
    pub allow_origins: Vec<String>,
}

/// Checks and normalizes `--allow-origin` values: `http://` or `https://` followed by a host
/// and optional port, no path; lower-cased, as browsers send them.
pub fn parse_origins(v: &[String]) -> Result<Vec<String>> {
    v.iter()
        .map(|o| {
            let l = o.trim().trim_end_matches('/').to_ascii_lowercase();
            let rest = l
                .strip_prefix("https://")
                .or_else(|| l.strip_prefix("http://"));
            match rest {
                Some(h)
                    if !h.is_empty()
                        && h.len() <= 255
                        && h.bytes().all(|c| {
                            c.is_ascii_alphanumeric() || b".-:[]".contains(&c)
                        }) =>
                {
                    Ok(l)
                }
                _ => Err(Error::bad(
                    "--allow-origin: expected an origin such as https://games.example (scheme, host, optional port; no path)",
                )),
            }
        })
        .collect()
}

/// What a server did before it stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HttpStats {
    pub connections: usize,
    pub requests: usize,
    pub busy: usize,
}

struct App {
    cfg: HttpConfig,
    pool: DbPool,
    work: Arc<Semaphore>,
    devices: device::Devices,
    requests: AtomicUsize,
    busy: AtomicUsize,
}

/// The address a request came from (without the port: limits are per address).
#[derive(Clone, Copy, Debug)]
struct Peer(SocketAddr);

impl Peer {
    /// The key limits are charged to: the address (an IPv6 client: its /64), as the TCP
    /// service does ([`zkgames_net::limit::addr_key_text`]).
    fn ip(&self) -> String {
        zkgames_net::limit::addr_key_text(self.0.ip())
    }
}

// ------------------------------------------------------------------ replies

fn reply(status: StatusCode, v: Value) -> Response {
    let mut r = (status, v.to_string()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

fn error(status: StatusCode, msg: &str) -> Response {
    reply(status, json!({ "error": msg }))
}

fn retry(status: StatusCode, msg: &str, secs: u64) -> Response {
    let mut r = reply(status, json!({ "error": msg, "retry_after": secs }));
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
    r
}

fn busy() -> Response {
    retry(StatusCode::SERVICE_UNAVAILABLE, "server busy", 1)
}

/// A library error as a reply: bad input 400, a refusal 401, a database failure 500.
fn from_error(e: &Error) -> Response {
    match e {
        Error::BadInput(m) => error(StatusCode::BAD_REQUEST, &clip_line(m)),
        Error::Rejected(_) => error(StatusCode::UNAUTHORIZED, "authentication failed"),
        _ => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error (the server's log says more)",
        ),
    }
}

/// One line of at most 200 bytes, with whatever the message quotes (between `'`, `"` or
/// backticks: the request's own text) left out: error bodies never echo input
/// (docs/PROTOCOLS.md 5.6).
fn clip_line(s: &str) -> String {
    let line = no_echo(s.lines().next().unwrap_or(""));
    let line = line.as_str();
    let mut end = line.len().min(200);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].to_string()
}

/// `s` with each quoted span (from a quote to the last of the same kind) replaced by `…`.
fn no_echo(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(['\'', '"', '`']) {
        let q = rest[i..].chars().next().unwrap_or('\'');
        out.push_str(&rest[..i]);
        match rest[i + 1..].rfind(q) {
            Some(j) => {
                out.push('…');
                rest = &rest[i + 1 + j + 1..];
            }
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn denied(d: Denied) -> Response {
    match d {
        Denied::RetryAfter(s) => retry(StatusCode::TOO_MANY_REQUESTS, "too many attempts", s),
        Denied::Failed => error(StatusCode::UNAUTHORIZED, "authentication failed"),
    }
}

fn system_name(e: Engine) -> &'static str {
    e.wire()
}

fn parse_system(s: &str) -> Option<Engine> {
    Engine::ALL.iter().copied().find(|&e| e.wire() == s)
}

// ------------------------------------------------------------------ request plumbing

/// The body of `req` as JSON `T`: 413 beyond `limit` bytes (refused on its
/// `Content-Length` before any of it is read, else as it arrives), 408 if it does not
/// arrive within the message deadline, 400 if it is not the expected JSON.
async fn body_json<T: serde::de::DeserializeOwned>(
    app: &App,
    req: Request,
    limit: usize,
) -> std::result::Result<T, Response> {
    let too_large = || {
        error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("request body over {limit} bytes"),
        )
    };
    // a JSON body must say so: a `text/plain` one is what another page's form or simple
    // request sends without asking (docs/PROTOCOLS.md 5.6)
    let json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be JSON, with Content-Type: application/json",
        ));
    }
    if let Some(n) = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
    {
        if n > limit as u64 {
            return Err(too_large());
        }
    }
    let read = axum::body::to_bytes(req.into_body(), limit);
    let bytes = match tokio::time::timeout(app.cfg.deadlines.message, read).await {
        Err(_) => {
            return Err(error(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive in time",
            ))
        }
        // the limit, or a broken body (a bad chunk size): only the first is 413
        Ok(Err(e)) if is_length_limit(&e) => return Err(too_large()),
        Ok(Err(_)) => {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "the request body is malformed (broken chunked encoding)",
            ))
        }
        Ok(Ok(b)) => b,
    };
    serde_json::from_slice(&bytes).map_err(|e| {
        let what = if e.is_data() {
            format!("unexpected JSON: {}", clip_line(&e.to_string()))
        } else {
            "the body is not a JSON object".to_string()
        };
        error(StatusCode::BAD_REQUEST, &what)
    })
}

/// Whether a body error is the size limit (`to_bytes`'s `LengthLimitError`, found by its
/// message in the source chain) rather than a malformed body.
fn is_length_limit(e: &axum::Error) -> bool {
    let mut cur: Option<&dyn std::error::Error> = Some(e);
    while let Some(x) = cur {
        if x.to_string().contains("length limit") {
            return true;
        }
        cur = x.source();
    }
    false
}

/// How long a request waits for a work slot, in arrival order, before it is answered 503.
///
/// Why wait at all: keep-alive clients that send together (a burst of a few hundred cheap
/// requests) fill every slot for a few milliseconds, and a request arriving in that instant
/// would be refused though the server is far from its capacity. The queue needs no bound
/// of its own: each connection has at most one request in flight, and connections are
/// bounded by `--max-connections`. Sustained overload still answers 503, after this wait.
pub const SLOT_WAIT: Duration = Duration::from_millis(500);

/// Runs `f` on the blocking pool with a database connection once a work slot is free
/// (waiting up to [`SLOT_WAIT`], first come first served; then 503).
async fn blocking<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&dyn UserDb) -> Result<T> + Send + 'static,
) -> std::result::Result<T, Response> {
    let permit = tokio::time::timeout(SLOT_WAIT, app.work.clone().acquire_owned())
        .await
        .ok()
        .and_then(|p| p.ok());
    match run_blocking(app, permit, f).await {
        Some(r) => r,
        None => {
            app.busy.fetch_add(1, Ordering::Relaxed);
            Err(busy())
        }
    }
}

/// [`blocking`] without waiting: `None` when no work slot is free at once.
async fn try_blocking<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&dyn UserDb) -> Result<T> + Send + 'static,
) -> Option<std::result::Result<T, Response>> {
    let permit = app.work.clone().try_acquire_owned().ok();
    run_blocking(app, permit, f).await
}

/// `f` on the blocking pool holding `permit`; `None` without one.
async fn run_blocking<T: Send + 'static>(
    app: &Arc<App>,
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
    f: impl FnOnce(&dyn UserDb) -> Result<T> + Send + 'static,
) -> Option<std::result::Result<T, Response>> {
    let permit = permit?;
    let a = app.clone();
    let r = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        a.pool.with(f)
    })
    .await;
    Some(match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => {
            if !matches!(e, Error::BadInput(_) | Error::Rejected(_)) {
                log(app, None, "error", &format!("database: {e}"));
            }
            Err(from_error(&e))
        }
        Err(_) => Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error (the server's log says more)",
        )),
    })
}

fn bearer(h: &HeaderMap) -> Option<[u8; 32]> {
    let v = h.get(header::AUTHORIZATION)?.to_str().ok()?;
    let t = v.strip_prefix("Bearer ")?.trim();
    hex::decode(t).ok()?.try_into().ok()
}

fn log(app: &App, peer: Option<Peer>, outcome: &str, detail: &str) {
    let peer = peer.map_or("-".to_string(), |p| p.0.to_string());
    match app.cfg.log {
        LogFormat::Quiet => {}
        LogFormat::Plain => eprintln!("{} {peer}: {outcome} {detail}", utc_now()),
        LogFormat::Json => eprintln!(
            "{}",
            json!({ "time": utc_now(), "peer": peer, "outcome": outcome, "detail": detail })
        ),
    }
}

fn auth<'a>(app: &App, db: &'a dyn UserDb, only: Option<Engine>) -> Result<Authenticator<'a>> {
    Ok(Authenticator::new(db, &app.cfg.name)?.accepting(only))
}

// ------------------------------------------------------------------ handlers

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterReq {
    name: String,
    identity: String,
}

async fn register(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    req: Request,
) -> Response {
    let r: RegisterReq = match body_json(&app, req, max_register_body()).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let (name, ip, a) = (r.name.clone(), peer.ip(), app.clone());
    let out = blocking(&app, move |db| {
        check_user_name(&r.name)?;
        let id = Identity::parse(&r.identity)?;
        let reg = auth(&a, db, None)?.registration(&r.name, &ip, &id)?;
        Ok((reg, id.kind().name(), id.fingerprint()))
    })
    .await;
    match out {
        Ok((Registration::Done, kind, fp)) => {
            log(&app, Some(peer), "registered", &name);
            reply(
                StatusCode::CREATED,
                json!({ "name": name, "kind": kind, "fingerprint": fp }),
            )
        }
        Ok((Registration::Taken, ..)) => error(StatusCode::CONFLICT, "this name is taken"),
        Ok((Registration::RetryAfter(s), ..)) => retry(
            StatusCode::TOO_MANY_REQUESTS,
            "too many registrations from this address",
            s,
        ),
        Err(resp) => resp,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeReq {
    name: String,
}

async fn challenge(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    req: Request,
) -> Response {
    let r: ChallengeReq = match body_json(&app, req, MAX_SMALL_BODY).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let (ip, a) = (peer.ip(), app.clone());
    let out = blocking(&app, move |db| auth(&a, db, None)?.begin(&r.name, &ip)).await;
    match out {
        Ok(Ok(c)) => reply(
            StatusCode::OK,
            json!({
                "challenge": hex::encode(c.nonce),
                "server": app.cfg.name,
                "expires_at": c.expires,
            }),
        ),
        Ok(Err(d)) => denied(d),
        Err(resp) => resp,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginReq {
    name: String,
    challenge: String,
    #[serde(default)]
    system: Option<String>,
    proof: String,
    #[serde(default)]
    code: Option<String>,
}

/// The verdict of a login, for the reply and the log.
struct Verdict {
    outcome: std::result::Result<super::store::Token, Denied>,
    /// The proof verified but its device code was used by another login meanwhile.
    lost: bool,
    ms: f64,
}

async fn login(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    req: Request,
) -> Response {
    let r: LoginReq = match body_json(&app, req, max_login_body()).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    if let Err(e) = check_user_name(&r.name) {
        return from_error(&e);
    }
    let Some(nonce) = hex::decode(&r.challenge)
        .ok()
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
    else {
        return error(
            StatusCode::BAD_REQUEST,
            "challenge: expected 64 hex characters",
        );
    };
    let claimed = match r.system.as_deref() {
        None => None,
        Some(s) => match parse_system(s) {
            Some(e) => Some(e),
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "system: expected vole, zkbpp or kkw",
                )
            }
        },
    };
    let Ok(proof) = base64::engine::general_purpose::STANDARD.decode(r.proof.as_bytes()) else {
        return error(StatusCode::BAD_REQUEST, "proof: expected standard base64");
    };
    // without a claim, the proof's own engine (its protocol id says which)
    let Some(system) = claimed.or_else(|| super::keys::login_engine(&proof)) else {
        return error(StatusCode::BAD_REQUEST, "proof: not a login proof file");
    };
    // the server's own restriction wins; else the proof must be of the system it claims
    let only = app.cfg.only.or(Some(system));
    let (name, ip, a, size) = (r.name.clone(), peer.ip(), app.clone(), proof.len());
    let code = r.code;
    let with_code = code.is_some();
    let out = blocking(&app, move |db| {
        // a device code is looked up (by its hash) before anything is verified or consumed
        let poll = match &code {
            None => None,
            Some(c) => match device::by_code(db, c, &name)? {
                Some(p) => Some(p),
                None => {
                    return device::wrong_code(db, &name, &ip).map(|locked| {
                        locked.map(|s| Verdict {
                            outcome: Err(Denied::RetryAfter(s)),
                            lost: false,
                            ms: 0.0,
                        })
                    })
                }
            },
        };
        let t0 = Instant::now();
        let mut redeemed = None;
        let outcome = auth(&a, db, only)?.finish_then(&name, &ip, &nonce, &proof, |_| {
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            let won = match &poll {
                None => true,
                Some(p) => db.redeem_device(
                    p,
                    &name,
                    &DeviceDone {
                        system: system_name(system).to_string(),
                        proof_bytes: size as u64,
                        verify_ms: ms,
                    },
                )?,
            };
            redeemed = Some((won, ms));
            Ok(won)
        })?;
        if let (Some(p), Err(Denied::Failed), None) = (&poll, &outcome, redeemed) {
            db.refuse_device(p)?;
        }
        let ms = redeemed.map_or(t0.elapsed().as_secs_f64() * 1e3, |(_, ms)| ms);
        Ok(Some(Verdict {
            outcome,
            lost: redeemed.is_some_and(|(won, _)| !won),
            ms,
        }))
    })
    .await;
    let v = match out {
        Ok(Some(v)) => v,
        Ok(None) => return code_refused(),
        Err(resp) => return resp,
    };
    let detail = format!(
        "login {} (proof {size} B {}, {:.1} ms)",
        r.name,
        system_name(system),
        v.ms
    );
    if with_code {
        // wake the polls waiting here; those at other instances see it at their next look
        app.devices.news();
    }
    match v.outcome {
        Ok(t) => {
            log(&app, Some(peer), "ok", &detail);
            reply(
                StatusCode::OK,
                json!({
                    "token": t.to_hex(),
                    "expires_at": t.expires,
                    "name": r.name,
                    "system": system_name(system),
                    "proof_bytes": size,
                    "verify_ms": (v.ms * 10.0).round() / 10.0,
                }),
            )
        }
        Err(_) if v.lost => {
            log(
                &app,
                Some(peer),
                "refused",
                &format!("{detail}: code used meanwhile"),
            );
            code_refused()
        }
        Err(d) => {
            log(&app, Some(peer), "refused", &detail);
            denied(d)
        }
    }
}

/// The answer to a login whose device code is unknown, used, expired or bound to another
/// name (before any verification), or was used by another login while this one verified.
fn code_refused() -> Response {
    error(
        StatusCode::BAD_REQUEST,
        "unknown, used or expired code for this name",
    )
}

async fn whoami(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers) else {
        return error(StatusCode::UNAUTHORIZED, "no valid session token");
    };
    let a = app.clone();
    match blocking(&app, move |db| auth(&a, db, None)?.whoami(&token)).await {
        Ok(Some(name)) => reply(StatusCode::OK, json!({ "name": name })),
        Ok(None) => error(StatusCode::UNAUTHORIZED, "no valid session token"),
        Err(resp) => resp,
    }
}

async fn logout(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
) -> Response {
    let Some(token) = bearer(&headers) else {
        return error(StatusCode::UNAUTHORIZED, "no valid session token");
    };
    let (a, ip) = (app.clone(), peer.ip());
    match blocking(&app, move |db| auth(&a, db, None)?.logout(&token, &ip)).await {
        Ok(true) => reply(StatusCode::OK, json!({ "logged_out": true })),
        Ok(false) => error(StatusCode::UNAUTHORIZED, "no valid session token"),
        Err(resp) => resp,
    }
}

// ------------------------------------------------------------------ device login

async fn device_new(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    req: Request,
) -> Response {
    let r: ChallengeReq = match body_json(&app, req, MAX_SMALL_BODY).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    if let Err(e) = check_user_name(&r.name) {
        return from_error(&e);
    }
    let (name, ip) = (r.name.clone(), peer.ip());
    let issued = match blocking(&app, move |db| device::issue(db, &name, &ip)).await {
        Ok(Ok(i)) => i,
        Ok(Err(wait)) => {
            return retry(
                StatusCode::TOO_MANY_REQUESTS,
                "too many pending device codes",
                wait,
            )
        }
        Err(resp) => return resp,
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.len() <= 255 && h.bytes().all(|c| c.is_ascii_graphic()))
        .unwrap_or("127.0.0.1")
        .to_string();
    let shown = &issued.code;
    log(
        &app,
        Some(peer),
        "device",
        &format!("code {shown} for {}", r.name),
    );
    reply(
        StatusCode::CREATED,
        json!({
            "code": shown,
            "poll": issued.poll,
            "expires_at": issued.expires_at,
            "command": format!(
                "prover auth login {} --key {}.key --code {shown} http://{host}",
                r.name, r.name
            ),
        }),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LookupReq {
    name: String,
    code: String,
}

/// What a device code grants, for the person about to redeem it: a browser session for the
/// name, asked for when and from which address (`prover auth login … --code` shows it and
/// asks before proving). A wrong code counts against the asking address as a failed login.
async fn device_lookup(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    req: Request,
) -> Response {
    let r: LookupReq = match body_json(&app, req, MAX_SMALL_BODY).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    if let Err(e) = check_user_name(&r.name) {
        return from_error(&e);
    }
    let (name, ip) = (r.name.clone(), peer.ip());
    let found = blocking(&app, move |db| {
        if let Some(s) = db.retry_after(&ip)? {
            db.record(Event::Refused, &name, &ip, "rate limit")?;
            return Ok(Err(s));
        }
        match device::by_code(db, &r.code, &name)? {
            Some(p) => Ok(Ok(db.device(&p)?)),
            None => match device::wrong_code(db, &name, &ip)? {
                Some(s) => Ok(Err(s)),
                None => Ok(Ok(None)),
            },
        }
    })
    .await;
    match found {
        Ok(Ok(Some(d))) => reply(
            StatusCode::OK,
            json!({
                "name": d.name,
                "grants": "browser-session",
                "server": app.cfg.name,
                "requested_at": d.expires - app.cfg.policy.device_ttl,
                "requested_from": d.peer,
                "expires_at": d.expires,
            }),
        ),
        Ok(Ok(None)) => code_refused(),
        Ok(Err(s)) => denied(Denied::RetryAfter(s)),
        Err(resp) => resp,
    }
}

#[derive(Deserialize)]
struct WaitQuery {
    #[serde(default)]
    wait: Option<String>,
}

async fn device_poll(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    Path(poll): Path<String>,
    q: std::result::Result<Query<WaitQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let wait = match q.map(|Query(q)| q.wait) {
        Ok(None) => 0,
        Ok(Some(w)) => match w.parse::<u64>() {
            Ok(w) => w,
            Err(_) => return error(StatusCode::BAD_REQUEST, "wait: expected whole seconds"),
        },
        Err(_) => return error(StatusCode::BAD_REQUEST, "bad query string"),
    };
    let Some(key) = device::poll_key(&poll) else {
        return gone();
    };
    let ip = peer.ip();
    let look = |first: bool| {
        let (app, ip) = (app.clone(), ip.clone());
        async move {
            let f = move |db: &dyn UserDb| device::look(db, &key, &ip);
            let seen = if first {
                // the first look answers busy like any request
                blocking(&app, f).await?
            } else {
                // later ones skip a tick rather than fail a poll that is under way
                match try_blocking(&app, f).await {
                    None => return Ok(device::Seen::Busy),
                    Some(r) => r?,
                }
            };
            if let device::Seen::Done(d, _) = &seen {
                log(
                    &app,
                    Some(peer),
                    "ok",
                    &format!("page session for {}", d.name),
                );
            }
            Ok::<_, Response>(seen)
        }
    };
    match app.devices.poll(wait, look).await {
        Ok(Some(v)) => reply(StatusCode::OK, v),
        Ok(None) => gone(),
        Err(resp) => resp,
    }
}

fn gone() -> Response {
    error(StatusCode::NOT_FOUND, "unknown or expired device code")
}

// ------------------------------------------------------------------ other routes

async fn page() -> Response {
    let mut r = page_text().into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    r
}

async fn openapi() -> Response {
    let mut r = openapi_text().into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/yaml"),
    );
    r
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such route")
}

async fn not_allowed() -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed on this route",
    )
}

/// Whether a browser request from `origin` may use the API: the server's own page (the
/// origin names the host the request was sent to) or a configured `--allow-origin`.
fn origin_allowed(app: &App, origin: &str, host: Option<&str>) -> bool {
    let o = origin.to_ascii_lowercase();
    let own = host.is_some_and(|h| {
        let h = h.to_ascii_lowercase();
        o == format!("http://{h}") || o == format!("https://{h}")
    });
    own || app.cfg.allow_origins.contains(&o)
}

/// The host name of a `Host` header or an origin's authority (`name`, `name:port`,
/// `[v6]:port`), lower case, without a trailing dot; `None` if malformed.
fn host_name(authority: &str) -> Option<String> {
    let a = authority.trim().to_ascii_lowercase();
    let name = if let Some(rest) = a.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        if !(after.is_empty()
            || after
                .strip_prefix(':')
                .is_some_and(|p| p.bytes().all(|c| c.is_ascii_digit())))
        {
            return None;
        }
        return inside
            .parse::<std::net::Ipv6Addr>()
            .ok()
            .map(|_| format!("[{inside}]"));
    } else {
        match a.rsplit_once(':') {
            Some((n, p)) if p.bytes().all(|c| c.is_ascii_digit()) => n.to_string(),
            Some(_) => return None,
            None => a,
        }
    };
    let name = name.strip_suffix('.').unwrap_or(&name).to_string();
    (!name.is_empty()).then_some(name)
}

/// Whether a request naming `host` in its `Host` header is for this server (DNS
/// rebinding, docs/PROTOCOLS.md 5.6): an IP address (no one can rebind a literal address),
/// `localhost` (and names under `.localhost`, which resolve to loopback only), or the host of
/// an `--allow-origin` (the name a public deployment is reached by). Any other name is one
/// some DNS server pointed at this one: a page of that name could otherwise read and drive
/// the API as its own origin, the `Origin` check passing since both headers name it.
fn host_allowed(app: &App, host: &str) -> bool {
    let Some(h) = host_name(host) else {
        return false;
    };
    h.starts_with('[')
        || h.parse::<std::net::Ipv4Addr>().is_ok()
        || h == "localhost"
        || h.ends_with(".localhost")
        || app.cfg.allow_origins.iter().any(|o| {
            o.split_once("://")
                .and_then(|(_, a)| host_name(a))
                .is_some_and(|n| n == h)
        })
}

/// Cross-origin rules (docs/PROTOCOLS.md 5.6): a request a browser sends from another page
/// carries `Origin`; state-changing requests (POST) from an origin that is neither the
/// server's own nor an `--allow-origin` are refused (403) before any work, and only allowed
/// origins are named in `Access-Control-Allow-Origin` (never `*`), so other pages can
/// neither send JSON bodies (their preflight fails) nor read answers. Requests without
/// `Origin` (command-line clients) are not affected.
async fn cors(State(app): State<Arc<App>>, req: Request, next: axum::middleware::Next) -> Response {
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if let Some(h) = host.as_deref() {
        if !host_allowed(&app, h) {
            return error(
                StatusCode::MISDIRECTED_REQUEST,
                "this server does not answer for that host name (name it with --allow-origin)",
            );
        }
    }
    let allowed = origin
        .as_deref()
        .map(|o| origin_allowed(&app, o, host.as_deref()));
    let allow_header = |h: &mut HeaderMap| {
        if let (Some(o), Some(true)) = (&origin, allowed) {
            if let Ok(v) = HeaderValue::from_str(o) {
                h.insert("access-control-allow-origin", v);
            }
        }
        h.insert(header::VARY, HeaderValue::from_static("origin"));
    };
    if req.method() == Method::OPTIONS {
        let mut r = StatusCode::NO_CONTENT.into_response();
        let h = r.headers_mut();
        allow_header(h);
        if allowed == Some(true) {
            h.insert(
                "access-control-allow-methods",
                HeaderValue::from_static("GET, POST"),
            );
            h.insert(
                "access-control-allow-headers",
                HeaderValue::from_static("content-type, authorization"),
            );
            h.insert("access-control-max-age", HeaderValue::from_static("600"));
        }
        return r;
    }
    if req.method() == Method::POST && allowed == Some(false) {
        let mut r = error(
            StatusCode::FORBIDDEN,
            "requests from this web origin are not allowed (see --allow-origin)",
        );
        allow_header(r.headers_mut());
        return r;
    }
    let mut r = next.run(req).await;
    allow_header(r.headers_mut());
    r.headers_mut().insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/openapi.yaml", get(openapi))
        .route("/v1/register", post(register))
        .route("/v1/challenge", post(challenge))
        .route("/v1/login", post(login))
        .route("/v1/whoami", get(whoami))
        .route("/v1/logout", post(logout))
        .route("/v1/device", post(device_new))
        .route("/v1/device/lookup", post(device_lookup))
        .route("/v1/device/{poll}", get(device_poll))
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(axum::middleware::from_fn_with_state(app.clone(), cors))
        .with_state(app)
}

// ------------------------------------------------------------------ the server

/// Requests one connection may make; the last answer says `Connection: close`.
pub const MAX_REQUESTS_PER_CONNECTION: usize = 100;

/// What the accept loop knows of one connection: requests in flight (a connection with
/// none is idle, the first to close for a newcomer), when it last finished one, and how to
/// close it ([`zkgames_net::limit::ConnTable`]).
struct ConnState {
    in_flight: AtomicUsize,
    requests: AtomicUsize,
    last: std::sync::Mutex<Instant>,
    kicked: tokio::sync::Notify,
}

impl Default for ConnState {
    fn default() -> Self {
        ConnState {
            in_flight: AtomicUsize::new(0),
            requests: AtomicUsize::new(0),
            last: std::sync::Mutex::new(Instant::now()),
            kicked: tokio::sync::Notify::new(),
        }
    }
}

impl ConnState {
    fn idle_since(&self) -> Instant {
        *self.last.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A request in flight on a connection, until dropped.
struct InFlight(Arc<ConnState>);

impl InFlight {
    fn start(c: &Arc<ConnState>) -> InFlight {
        c.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight(c.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        *self.0.last.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The canned answer to a connection beyond [`HttpConfig::max_connections`].
const BUSY_RESPONSE: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\ncontent-length: 25\r\nconnection: close\r\n\r\n{\"error\":\"server busy\"}\r\n";

/// The canned answer to a connection beyond [`HttpConfig::max_per_address`].
const CROWDED_RESPONSE: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 1\r\ncontent-length: 66\r\nconnection: close\r\n\r\n{\"error\":\"too many connections from this address\",\"retry_after\":1}";

/// Serves HTTP on `l` until `stop` is set (checked every 20 ms); then waits up to the
/// session deadline for requests in flight. The database schema must exist.
pub fn serve(
    l: std::net::TcpListener,
    cfg: HttpConfig,
    stop: &'static AtomicBool,
) -> Result<HttpStats> {
    l.set_nonblocking(true)
        .map_err(|e| Error::io("listener", e))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(cfg.max_sessions + 4)
        .thread_name("zkg-http")
        .enable_all()
        .build()
        .map_err(|e| Error::io("cannot start the HTTP runtime", e))?;
    let app = Arc::new(App {
        pool: DbPool::new(
            cfg.db.clone(),
            Clock::System,
            cfg.policy.clone(),
            cfg.max_sessions,
        ),
        work: Arc::new(Semaphore::new(cfg.max_sessions)),
        devices: device::Devices::default(),
        requests: AtomicUsize::new(0),
        busy: AtomicUsize::new(0),
        cfg,
    });
    let stats = rt.block_on(accept_loop(l, app.clone(), stop))?;
    rt.shutdown_timeout(Duration::from_secs(1));
    Ok(HttpStats {
        requests: app.requests.load(Ordering::Relaxed),
        busy: stats.busy + app.busy.load(Ordering::Relaxed),
        ..stats
    })
}

async fn accept_loop(
    l: std::net::TcpListener,
    app: Arc<App>,
    stop: &'static AtomicBool,
) -> Result<HttpStats> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tokio::io::AsyncWriteExt;
    use tower::ServiceExt;
    let listener = tokio::net::TcpListener::from_std(l).map_err(|e| Error::io("listener", e))?;
    let table = zkgames_net::limit::ConnTable::with_hold(
        app.cfg.max_connections,
        app.cfg.max_per_address,
        app.cfg.hold,
    );
    let router = router(app.clone());
    let mut st = HttpStats::default();
    let d = app.cfg.deadlines;
    let head_deadline = app.cfg.first_message.min(d.message);
    while !stop.load(Ordering::SeqCst) {
        let (sock, addr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                // out of descriptors and the like: pause rather than spin
                Err(_) => { tokio::time::sleep(Duration::from_millis(20)).await; continue }
            },
            _ = tokio::time::sleep(Duration::from_millis(20)) => continue,
        };
        st.connections += 1;
        let conn = Arc::new(ConnState::default());
        let busy = {
            let c = conn.clone();
            Box::new(move || c.in_flight.load(Ordering::SeqCst) > 0)
        };
        let kick = {
            let c = conn.clone();
            Box::new(move || c.kicked.notify_one())
        };
        let ticket = match table.admit(addr.ip(), busy, kick) {
            zkgames_net::limit::Admission::Admitted { ticket, .. } => ticket,
            refused => {
                st.busy += 1;
                let canned = match refused {
                    zkgames_net::limit::Admission::AddressFull => CROWDED_RESPONSE,
                    _ => BUSY_RESPONSE,
                };
                tokio::spawn(async move {
                    use tokio::io::AsyncReadExt;
                    let mut sock = sock;
                    let _ =
                        tokio::time::timeout(Duration::from_secs(1), sock.write_all(canned)).await;
                    let _ = sock.shutdown().await;
                    // lingering close (as nginx does): what the client is still sending
                    // (a request body) is read and dropped for up to a second, so that it
                    // reads the answer rather than a reset in the middle of its upload
                    let mut buf = [0u8; 4096];
                    let _ = tokio::time::timeout(Duration::from_secs(1), async {
                        let (mut n, most) = (0usize, max_login_body() + MAX_HEAD);
                        while n <= most {
                            match sock.read(&mut buf).await {
                                Ok(0) | Err(_) => break,
                                Ok(k) => n += k,
                            }
                        }
                    })
                    .await;
                });
                continue;
            }
        };
        let _ = sock.set_nodelay(true);
        let router = router.clone();
        let app = app.clone();
        tokio::spawn(async move {
            let _held = ticket;
            let peer = Peer(addr);
            let c = conn.clone();
            let svc = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    app.requests.fetch_add(1, Ordering::Relaxed);
                    req.extensions_mut().insert(peer);
                    let n = c.requests.fetch_add(1, Ordering::SeqCst) + 1;
                    let work = InFlight::start(&c);
                    let call = router.clone().oneshot(req.map(Body::new));
                    async move {
                        let mut r = call.await?;
                        drop(work);
                        if n >= MAX_REQUESTS_PER_CONNECTION {
                            // hyper closes the connection after this answer
                            r.headers_mut()
                                .insert(header::CONNECTION, HeaderValue::from_static("close"));
                        }
                        Ok::<_, std::convert::Infallible>(r)
                    }
                },
            );
            let mut b = hyper::server::conn::http1::Builder::new();
            b.timer(TokioTimer::new())
                .header_read_timeout(head_deadline)
                .max_buf_size(MAX_HEAD)
                .keep_alive(true);
            let serving = b.serve_connection(TokioIo::new(sock), svc);
            tokio::pin!(serving);
            // between requests a kept-alive connection may stay idle for the head deadline
            let mut tick = tokio::time::interval(Duration::from_millis(250));
            let end = Instant::now() + d.session;
            loop {
                tokio::select! {
                    _ = &mut serving => break,
                    _ = conn.kicked.notified() => break,
                    _ = tick.tick() => {
                        let idle = conn.in_flight.load(Ordering::SeqCst) == 0
                            && conn.idle_since().elapsed() > head_deadline;
                        if Instant::now() >= end || idle {
                            break;
                        }
                    }
                }
            }
        });
    }
    // let requests in flight finish, within the session deadline
    let t0 = Instant::now();
    while app.work.available_permits() < app.cfg.max_sessions && t0.elapsed() < d.session {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(st)
}

/// Opens (creating or migrating) the database once, purges what expired; returns the user
/// count and what was purged, for the start-up line.
pub fn prepare_db(spec: &DbSpec, policy: &Policy) -> Result<(usize, super::store::Purged)> {
    let db = spec.open(Clock::System, policy.clone(), true)?;
    let purged = db.purge()?;
    Ok((db.user_count()?, purged))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest honest registration body (the bounds' largest identity with a `\r\n`,
    /// the longest name, pretty-printed JSON) is within [`max_register_body`].
    #[test]
    fn the_largest_registration_fits_its_body_limit() {
        let identity = super::super::keys::largest_peg_identity()
            .to_text()
            .replace('\n', "\r\n");
        let body = serde_json::to_vec_pretty(&serde_json::json!({
            "name": "a".repeat(super::super::keys::MAX_USER),
            "identity": identity,
        }))
        .unwrap();
        assert!(body.len() <= max_register_body(), "{}", body.len());
        assert!(
            body.len() + JSON_SLACK + 8 > max_register_body(),
            "{}",
            body.len()
        );
        assert!(max_register_body() < max_login_body());
    }

    /// The longest honest login body (the longest proof in base64, the longest name, a
    /// device code, pretty-printed JSON) is within [`max_login_body`], by less than its
    /// slack.
    #[test]
    fn the_longest_login_fits_its_body_limit() {
        let proof = vec![0u8; super::super::keys::max_login_proof()];
        let body = serde_json::to_vec_pretty(&serde_json::json!({
            "name": "a".repeat(super::super::keys::MAX_USER),
            "challenge": hex::encode([0u8; 32]),
            "system": "zkbpp",
            "proof": base64::engine::general_purpose::STANDARD.encode(&proof),
            "code": "BCDF-GHJK",
        }))
        .unwrap();
        assert!(body.len() <= max_login_body(), "{}", body.len());
        assert!(body.len() + JSON_SLACK > max_login_body(), "{}", body.len());
    }

    #[test]
    fn systems_round_trip() {
        for &e in Engine::ALL {
            assert_eq!(parse_system(system_name(e)), Some(e));
        }
        assert_eq!(parse_system("ZKB++"), None);
    }

    #[test]
    fn the_served_api_and_page_name_every_engine() {
        assert!(OPENAPI.contains("enum: [ENGINES]") && PAGE.contains("/*ENGINES*/{}"));
        let api = openapi_text();
        let page = page_text();
        assert!(!api.contains("[ENGINES]") && !page.contains("/*ENGINES*/"));
        for &e in Engine::ALL {
            assert!(
                api.contains(&format!("{},", e.wire())) || api.contains(&format!("{}]", e.wire()))
            );
            assert!(page.contains(&format!("\"{}\":\"{}\"", e.wire(), e.name())));
        }
    }

    #[test]
    fn host_names_are_parsed() {
        assert_eq!(
            host_name("Example.COM.:8080").as_deref(),
            Some("example.com")
        );
        assert_eq!(host_name("127.0.0.1:80").as_deref(), Some("127.0.0.1"));
        assert_eq!(host_name("[::1]:8080").as_deref(), Some("[::1]"));
        assert_eq!(host_name("[::1]").as_deref(), Some("[::1]"));
        assert_eq!(host_name("[nope]:1"), None);
        assert_eq!(host_name("a:b"), None);
        assert_eq!(host_name(":80"), None);
        assert_eq!(host_name("localhost").as_deref(), Some("localhost"));
    }

    #[test]
    fn lines_are_clipped() {
        assert_eq!(clip_line("a\nb"), "a");
        assert_eq!(clip_line(&"é".repeat(300)).len(), 200);
        assert_eq!(
            clip_line("bad user name 'a'; drop table users;--': 1 to 32"),
            "bad user name …: 1 to 32"
        );
        assert_eq!(
            clip_line("unknown field `x\"y`, expected `name`"),
            "unknown field …"
        );
        assert_eq!(clip_line("a 'b"), "a ");
    }
}
