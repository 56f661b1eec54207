//! The client side of the HTTP login API ([`super::http`]) for `prover auth register|login|
//! whoami|logout` given an `http://HOST:PORT` URL, over the `ureq` HTTP/1.1 client (a
//! maintained parser of answers, chunked bodies included: a hostile server gets an error,
//! never a crash).
//!
//! Bounds: connecting and every step within the message deadline, the whole exchange within
//! the session deadline; a response head of at most 16 KiB and a body of at most 1 MiB (the
//! API's answers are a few hundred bytes); no redirects, no proxy from the environment. Only `http://` (plain TCP): for TLS, put the service behind a
//! reverse proxy and use its URL from the same machine or network.

use base64::Engine as _;
use serde_json::{json, Value};

use super::keys::{Identity, SecretKey};
use zkgames_core::Error;
use zkgames_core::Result;
use zkgames_mpc::engine::Engine;
use zkgames_net::Deadlines;

/// Largest response head read.
pub const MAX_RESPONSE_HEAD: usize = 16 << 10;
/// Largest response body read.
pub const MAX_RESPONSE_BODY: usize = 1 << 20;

/// A login service's URL: `http://HOST[:PORT][/PREFIX]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `HOST:PORT` to connect to.
    pub authority: String,
    /// Path prefix without a trailing slash ("" for the root).
    pub prefix: String,
}

impl Target {
    /// True if `s` names an HTTP service rather than a TCP address.
    pub fn is_url(s: &str) -> bool {
        s.starts_with("http://") || s.starts_with("https://")
    }

    /// Parses `http://HOST[:PORT][/PREFIX]` (port 80 by default).
    pub fn parse(url: &str) -> Result<Target> {
        if url.starts_with("https://") {
            return Err(Error::bad(
                "https:// is not supported by this client: use http:// (behind a TLS proxy, \
                 on a trusted network)",
            ));
        }
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| Error::bad(format!("{}: expected http://HOST:PORT", clip(url))))?;
        let (auth, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let ok = |c: u8| c.is_ascii_alphanumeric() || b".-_:[]".contains(&c);
        if auth.is_empty() || auth.len() > 261 || !auth.bytes().all(ok) || auth.contains('@') {
            return Err(Error::bad(format!("{}: bad host in the URL", clip(url))));
        }
        if !path.bytes().all(|c| c.is_ascii_graphic()) || path.contains(['?', '#']) {
            return Err(Error::bad(format!("{}: bad path in the URL", clip(url))));
        }
        let has_port = match auth.rfind(']') {
            Some(b) => auth[b..].contains(':'),
            None => auth.contains(':'),
        };
        Ok(Target {
            authority: if has_port {
                auth.to_string()
            } else {
                format!("{auth}:80")
            },
            prefix: path.trim_end_matches('/').to_string(),
        })
    }
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// An answer: status, `Retry-After` seconds if any, JSON body (`Null` if empty).
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub body: Value,
}

/// One request: `METHOD PREFIX+PATH` with an optional bearer token and JSON body, sent with
/// `ureq` (no proxy from the environment, no redirects, no TLS).
pub fn request(
    t: &Target,
    d: &Deadlines,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<&Value>,
) -> Result<Answer> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .proxy(None)
        .max_redirects(0)
        .http_status_as_error(false)
        .max_response_header_size(MAX_RESPONSE_HEAD)
        .timeout_global(Some(d.session))
        .timeout_connect(Some(d.message))
        .timeout_send_request(Some(d.message))
        .timeout_recv_response(Some(d.message))
        .timeout_recv_body(Some(d.message))
        .user_agent("zkgames-prover")
        .accept("application/json")
        .build()
        .into();
    let url = format!("http://{}{}{path}", t.authority, t.prefix);
    let auth = bearer.map(|tok| format!("Bearer {tok}"));
    let sent = match (method, body) {
        ("GET", _) => {
            let mut r = agent.get(&url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.call()
        }
        _ => {
            let mut r = agent.post(&url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            match body {
                Some(b) => r.content_type("application/json").send(b.to_string()),
                None => r.send_empty(),
            }
        }
    };
    let mut resp = sent.map_err(|e| client_error(t, e))?;
    let status = resp.status().as_u16();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let bytes = resp
        .body_mut()
        .with_config()
        .limit(MAX_RESPONSE_BODY as u64)
        .read_to_vec()
        .map_err(|e| client_error(t, e))?;
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).map_err(|_| {
            Error::bad(format!(
                "the server answered {status} without a JSON body (is this a zkgames login service?)"
            ))
        })?
    };
    Ok(Answer {
        status,
        retry_after,
        body,
    })
}

/// What a client is told when the other end does not speak HTTP: most likely the address is
/// the framed TCP service (`--listen`), which closes on an HTTP request.
pub const NOT_HTTP: &str = "the server gave no HTTP answer: if this \
     address is the TCP service (`verifier auth serve --listen`), give it as HOST:PORT, without \
     http://; the http:// URL form is for the address of `--http`";

/// One line for a failed exchange, in the user's terms.
fn client_error(t: &Target, e: ureq::Error) -> Error {
    let io = |k: std::io::ErrorKind, m: &str| {
        Error::io(
            format!("HTTP exchange with {}", t.authority),
            std::io::Error::new(k, m.to_string()),
        )
    };
    match e {
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => Error::io(
            format!(
                "cannot connect to {} (is `verifier auth serve --http` listening?)",
                t.authority
            ),
            e,
        ),
        ureq::Error::Io(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::UnexpectedEof
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
            ) =>
        {
            Error::bad(NOT_HTTP)
        }
        ureq::Error::Io(e) => Error::io(format!("HTTP exchange with {}", t.authority), e),
        ureq::Error::Timeout(_) => io(
            std::io::ErrorKind::TimedOut,
            "the server did not answer in time",
        ),
        ureq::Error::HostNotFound => {
            Error::bad(format!("{}: no address to connect to", t.authority))
        }
        ureq::Error::ConnectionFailed => io(
            std::io::ErrorKind::ConnectionRefused,
            "cannot connect (is `verifier auth serve --http` listening?)",
        ),
        ureq::Error::BodyExceedsLimit(_) => Error::bad("the server's answer is too large"),
        ureq::Error::LargeResponseHeader(..) => Error::bad("the server's answer head is too large"),
        // an HTTP answer, but with more header lines than any login service sends: not the
        // TCP service (which gives no HTTP answer at all)
        ureq::Error::Protocol(p) if p.to_string().contains("too many headers") => Error::bad(
            "the server's answer has more header lines than a login service sends (is this a zkgames login service?)",
        ),
        ureq::Error::Protocol(_) | ureq::Error::Http(_) => Error::bad(NOT_HTTP),
        _ => io(std::io::ErrorKind::Other, "the exchange failed"),
    }
}

/// The error a non-success answer stands for: refusals (401, 403, 409) are
/// [`Error::Rejected`]; a rate limit or a busy server (429, 503) is [`Error::TryLater`] with
/// the server's `Retry-After` (exit 75: nothing was judged); a request the server found
/// malformed (400, 404, 405, 413) bad input; anything else an I/O error. The server's text
/// is shortened and its control characters escaped before it is shown.
pub fn answer_error(a: &Answer) -> Error {
    let msg = a
        .body
        .get("error")
        .and_then(Value::as_str)
        .map(zkgames_core::files::untrusted::shown)
        .unwrap_or_else(|| format!("HTTP status {}", a.status));
    match a.status {
        429 | 503 => Error::try_later(
            msg,
            a.retry_after
                .map(|s| std::time::Duration::from_secs(s.min(86_400))),
        ),
        401 | 403 | 409 => Error::rejected(msg),
        400 | 404 | 405 | 413 => Error::bad(format!("the server refused the request: {msg}")),
        _ => Error::io(
            "login service",
            std::io::Error::other(format!("{msg} (HTTP {})", a.status)),
        ),
    }
}

fn expect(a: Answer, ok: u16) -> Result<Value> {
    if a.status == ok {
        Ok(a.body)
    } else {
        Err(answer_error(&a))
    }
}

fn field<'a>(v: &'a Value, k: &str) -> Result<&'a Value> {
    v.get(k)
        .ok_or_else(|| Error::bad(format!("protocol error: the answer has no {k}")))
}

fn hex32(v: &Value, k: &str) -> Result<[u8; 32]> {
    field(v, k)?
        .as_str()
        .and_then(|s| hex::decode(s).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| Error::bad(format!("protocol error: {k} is not 64 hex characters")))
}

/// Registers `user` with `identity`.
pub fn register(t: &Target, d: &Deadlines, user: &str, identity: &Identity) -> Result<()> {
    let a = request(
        t,
        d,
        "POST",
        "/v1/register",
        None,
        Some(&json!({ "name": user, "identity": identity.to_text() })),
    )?;
    expect(a, 201).map(|_| ())
}

/// The first half of a login: the server's name and a fresh nonce.
pub fn begin_login(t: &Target, d: &Deadlines, user: &str) -> Result<(String, [u8; 32])> {
    let v = expect(
        request(
            t,
            d,
            "POST",
            "/v1/challenge",
            None,
            Some(&json!({ "name": user })),
        )?,
        200,
    )?;
    let server = field(&v, "server")?
        .as_str()
        .ok_or_else(|| Error::bad("protocol error: server is not a string"))?
        .to_string();
    Ok((server, hex32(&v, "challenge")?))
}

/// What a successful login returns.
#[derive(Clone, Debug)]
pub struct LoggedIn {
    pub token: [u8; 32],
    pub expires: i64,
    /// The proof's size in bytes.
    pub proof_bytes: usize,
    /// The server's verification time, milliseconds.
    pub verify_ms: f64,
}

/// The second half: the proof (and the page's device code, if any) for the nonce.
pub fn finish_login(
    t: &Target,
    d: &Deadlines,
    user: &str,
    nonce: &[u8; 32],
    engine: Engine,
    proof: &[u8],
    code: Option<&str>,
) -> Result<LoggedIn> {
    let system = engine.wire();
    let mut body = json!({
        "name": user,
        "challenge": hex::encode(nonce),
        "system": system,
        "proof": base64::engine::general_purpose::STANDARD.encode(proof),
    });
    if let Some(c) = code {
        body["code"] = json!(c);
    }
    let v = expect(request(t, d, "POST", "/v1/login", None, Some(&body))?, 200)?;
    Ok(LoggedIn {
        token: hex32(&v, "token")?,
        expires: field(&v, "expires_at")?
            .as_i64()
            .ok_or_else(|| Error::bad("protocol error: expires_at is not a number"))?,
        proof_bytes: proof.len(),
        verify_ms: v.get("verify_ms").and_then(Value::as_f64).unwrap_or(0.0),
    })
}

/// What a device code grants, as the server describes it before anything is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeGrant {
    /// The name the code is bound to.
    pub name: String,
    /// The name the server calls itself.
    pub server: String,
    /// Unix time the code was asked for.
    pub requested_at: i64,
    /// The address that asked for it (as the server's rate limits count it).
    pub requested_from: String,
    /// Unix time the code stops working.
    pub expires_at: i64,
}

/// Asks the server what the device code `code` for `user` would grant
/// (`POST /v1/device/lookup`): the page's browser session, asked for when and from where. A
/// wrong code counts as a failed login of this address.
pub fn lookup_code(t: &Target, d: &Deadlines, user: &str, code: &str) -> Result<CodeGrant> {
    let v = expect(
        request(
            t,
            d,
            "POST",
            "/v1/device/lookup",
            None,
            Some(&json!({ "name": user, "code": code })),
        )?,
        200,
    )?;
    code_grant(&v, user)
}

/// The fields of a lookup answer, checked: the grant must be a browser session for `user`.
pub fn code_grant(v: &Value, user: &str) -> Result<CodeGrant> {
    let text = |k: &str| -> Result<String> {
        let s = field(v, k)?
            .as_str()
            .ok_or_else(|| Error::bad(format!("protocol error: {k} is not a string")))?;
        Ok(zkgames_core::files::untrusted::shown(s))
    };
    let time = |k: &str| -> Result<i64> {
        field(v, k)?
            .as_i64()
            .ok_or_else(|| Error::bad(format!("protocol error: {k} is not a number")))
    };
    if v.get("grants").and_then(Value::as_str) != Some("browser-session") {
        return Err(Error::bad(
            "protocol error: the server describes the code as granting something else than a browser session: not proving",
        ));
    }
    let g = CodeGrant {
        name: text("name")?,
        server: text("server")?,
        requested_at: time("requested_at")?,
        requested_from: text("requested_from")?,
        expires_at: time("expires_at")?,
    };
    if g.name != user {
        return Err(Error::bad(
            "protocol error: the server says the code is for another name: not proving",
        ));
    }
    Ok(g)
}

/// A whole login over HTTP: challenge, proof bound to (server, user, nonce), token. When
/// `expect_server` is given, a server announcing another name is refused before proving.
pub fn login(
    t: &Target,
    d: &Deadlines,
    user: &str,
    key: &SecretKey,
    expect_server: Option<&str>,
    engine: Engine,
    code: Option<&str>,
) -> Result<LoggedIn> {
    let (server, nonce) = begin_login(t, d, user)?;
    if let Some(want) = expect_server {
        if want != server {
            return Err(Error::rejected(format!(
                "the server calls itself {server:?}, not {want:?}: not proving"
            )));
        }
    }
    let proof = super::keys::prove_login_with(
        key,
        &server,
        user,
        &nonce,
        engine,
        &mut zkgames_core::rng::os_rng(),
    )?;
    finish_login(t, d, user, &nonce, engine, &proof, code)
}

/// Who a session token belongs to.
pub fn whoami(t: &Target, d: &Deadlines, token: &[u8; 32]) -> Result<String> {
    let v = expect(
        request(t, d, "GET", "/v1/whoami", Some(&hex::encode(token)), None)?,
        200,
    )?;
    Ok(field(&v, "name")?
        .as_str()
        .ok_or_else(|| Error::bad("protocol error: name is not a string"))?
        .to_string())
}

/// Revokes a session token.
pub fn logout(t: &Target, d: &Deadlines, token: &[u8; 32]) -> Result<()> {
    expect(
        request(t, d, "POST", "/v1/logout", Some(&hex::encode(token)), None)?,
        200,
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let t = Target::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(
            (t.authority.as_str(), t.prefix.as_str()),
            ("127.0.0.1:8080", "")
        );
        let t = Target::parse("http://example.org/auth/").unwrap();
        assert_eq!(
            (t.authority.as_str(), t.prefix.as_str()),
            ("example.org:80", "/auth")
        );
        let t = Target::parse("http://[::1]:9/").unwrap();
        assert_eq!(t.authority, "[::1]:9");
        let t = Target::parse("http://[::1]").unwrap();
        assert_eq!(t.authority, "[::1]:80");
        for bad in [
            "https://x",
            "ftp://x",
            "http://",
            "http://a b",
            "http://u@h",
            "http://h/?q",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
        assert!(Target::is_url("http://x") && !Target::is_url("127.0.0.1:1"));
    }
}
