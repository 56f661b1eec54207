//! The client side of the HTTP login API ([`super::http`]) for `prover auth register|login|
//! whoami|logout` given an `http://HOST:PORT` URL: a small HTTP/1.1 client over a std
//! `TcpStream`, one request per connection (`Connection: close`).
//!
//! Bounds: connecting and every read and write within the message deadline, the whole
//! exchange within the session deadline; a response head of at most 16 KiB and a body of at
//! most 1 MiB (the API's answers are a few hundred bytes); `Content-Length`, chunked or
//! read-to-close bodies. Only `http://` (plain TCP): for TLS, put the service behind a
//! reverse proxy and use its URL from the same machine or network.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Instant;

use base64::Engine as _;
use serde_json::{json, Value};

use super::keys::{Identity, SecretKey};
use crate::mpc::engine::Engine;
use crate::net::Deadlines;
use crate::{Error, Result};

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

/// One request: `METHOD PREFIX+PATH` with an optional bearer token and JSON body.
pub fn request(
    t: &Target,
    d: &Deadlines,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<&Value>,
) -> Result<Answer> {
    let start = Instant::now();
    let addrs = t
        .authority
        .to_socket_addrs()
        .map_err(|e| Error::io(format!("cannot resolve {}", t.authority), e))?;
    let mut last = None;
    let mut sock = None;
    for a in addrs {
        match TcpStream::connect_timeout(&a, d.message) {
            Ok(s) => {
                sock = Some(s);
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    let mut s = sock.ok_or_else(|| match last {
        Some(e) => Error::io(
            format!(
                "cannot connect to {} (is `verifier auth serve --http` listening?)",
                t.authority
            ),
            e,
        ),
        None => Error::bad(format!("{}: no address to connect to", t.authority)),
    })?;
    let io = |e| Error::io(format!("HTTP exchange with {}", t.authority), e);
    s.set_read_timeout(Some(d.message)).map_err(io)?;
    s.set_write_timeout(Some(d.message)).map_err(io)?;
    let _ = s.set_nodelay(true);
    let payload = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!(
        "{method} {}{path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAccept: application/json\r\nUser-Agent: zkgames-prover\r\n",
        t.prefix, t.authority
    );
    if let Some(tok) = bearer {
        head.push_str(&format!("Authorization: Bearer {tok}\r\n"));
    }
    if body.is_some() {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            payload.len()
        ));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).map_err(io)?;
    s.write_all(payload.as_bytes()).map_err(io)?;
    s.flush().map_err(io)?;
    read_answer(&mut s, d, start).map_err(|e| match e {
        Error::Io { source, .. } => io(source),
        e => e,
    })
}

/// Reads into `buf` until it holds `want` bytes, EOF, `cap` or the session deadline.
fn fill(
    s: &mut TcpStream,
    buf: &mut Vec<u8>,
    want: usize,
    cap: usize,
    d: &Deadlines,
    start: Instant,
) -> Result<bool> {
    let mut chunk = [0u8; 8192];
    while buf.len() < want {
        if start.elapsed() > d.session {
            return Err(Error::io(
                "HTTP",
                std::io::Error::new(std::io::ErrorKind::TimedOut, "the session deadline passed"),
            ));
        }
        let n = s.read(&mut chunk).map_err(|e| Error::io("HTTP", e))?;
        if n == 0 {
            return Ok(false);
        }
        if buf.len() + n > cap {
            return Err(Error::bad("the server's answer is too large"));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok(true)
}

/// What a client is told when the other end does not speak HTTP: most likely the address is
/// the framed TCP service (`--listen`), which closes on an HTTP request.
pub const NOT_HTTP: &str = "the server gave no HTTP answer: if this \
     address is the TCP service (`verifier auth serve --listen`), give it as HOST:PORT, without \
     http://; the http:// URL form is for the address of `--http`";

fn read_answer(s: &mut TcpStream, d: &Deadlines, start: Instant) -> Result<Answer> {
    let cap = MAX_RESPONSE_HEAD + MAX_RESPONSE_BODY;
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_RESPONSE_HEAD {
            return Err(Error::bad("the server's answer head is too large"));
        }
        let want = buf.len() + 1;
        if !fill(s, &mut buf, want, cap, d, start)? {
            return Err(Error::bad(NOT_HTTP));
        }
    };
    let head = std::str::from_utf8(&buf[..head_end])
        .map_err(|_| Error::bad(NOT_HTTP))?
        .to_string();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.strip_prefix("HTTP/1."))
        .and_then(|l| l.get(2..5))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| Error::bad(NOT_HTTP))?;
    let (mut length, mut chunked, mut retry_after) = (None, false, None);
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            continue;
        };
        let v = v.trim();
        match k.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = v.parse::<usize>().ok(),
            "transfer-encoding" => chunked = v.eq_ignore_ascii_case("chunked"),
            "retry-after" => retry_after = v.parse::<u64>().ok(),
            _ => {}
        }
    }
    let mut body = buf.split_off(head_end + 4);
    if chunked {
        body = dechunk(s, body, d, start)?;
    } else if let Some(n) = length {
        if n > MAX_RESPONSE_BODY {
            return Err(Error::bad("the server's answer is too large"));
        }
        if !fill(s, &mut body, n, MAX_RESPONSE_BODY, d, start)? {
            return Err(Error::bad("the server's answer was cut short"));
        }
        body.truncate(n);
    } else {
        fill(s, &mut body, usize::MAX, MAX_RESPONSE_BODY, d, start)?;
    }
    let body = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).map_err(|_| {
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

fn dechunk(s: &mut TcpStream, mut raw: Vec<u8>, d: &Deadlines, start: Instant) -> Result<Vec<u8>> {
    let cap = MAX_RESPONSE_BODY + (64 << 10);
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let line_end = loop {
            if let Some(i) = raw[pos..].windows(2).position(|w| w == b"\r\n") {
                break pos + i;
            }
            let want = raw.len() + 1;
            if !fill(s, &mut raw, want, cap, d, start)? {
                return Err(Error::bad("the server's answer was cut short"));
            }
        };
        let size_text = std::str::from_utf8(&raw[pos..line_end]).unwrap_or("");
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| Error::bad("the server's answer has a bad chunk"))?;
        if out.len() + size > MAX_RESPONSE_BODY {
            return Err(Error::bad("the server's answer is too large"));
        }
        let data = line_end + 2;
        if size == 0 {
            return Ok(out);
        }
        if !fill(s, &mut raw, data + size + 2, cap, d, start)? {
            return Err(Error::bad("the server's answer was cut short"));
        }
        out.extend_from_slice(&raw[data..data + size]);
        pos = data + size + 2;
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
        .map(|t| crate::files::excerpt_up_to(t, crate::files::SERVER_TEXT_CHARS))
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
    let system = match engine {
        Engine::Zkbpp => "zkbpp",
        Engine::Kkw => "kkw",
        Engine::Vole => "vole",
    };
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
        &mut crate::rng::os_rng(),
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
