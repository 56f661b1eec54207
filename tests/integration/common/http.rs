//! A minimal HTTP/1.1 client for the tests, written apart from the library's own client
//! (crates/auth/src/http_client.rs) so that each checks the other: one request per connection,
//! `Connection: close`, the answer read to the end.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// An answer: status, headers (names lowercased), body.
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|_| {
            panic!(
                "status {} body not JSON: {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends raw bytes, reads the answer to EOF (30 s at most).
pub fn raw(addr: &str, request: &[u8]) -> Resp {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
    // the server may answer (413) and close before reading a large body
    let _ = s.write_all(request);
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    parse(&buf)
}

/// Parses an answer with a Content-Length or chunked body.
pub fn parse(buf: &[u8]) -> Resp {
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {:?}", String::from_utf8_lossy(buf)));
    let head = std::str::from_utf8(&buf[..end]).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = buf[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let i = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let n =
                usize::from_str_radix(std::str::from_utf8(&rest[..i]).unwrap().trim(), 16).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&rest[i + 2..i + 2 + n]);
            rest = &rest[i + 4 + n..];
        }
        body = out;
    } else if let Some((_, n)) = headers.iter().find(|(k, _)| k == "content-length") {
        body.truncate(n.parse().unwrap());
    }
    Resp {
        status,
        headers,
        body,
    }
}

/// `METHOD PATH` with extra headers and a body (Content-Length set when non-empty).
pub fn call(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let declared = headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("content-length"));
    if !declared && (!body.is_empty() || method == "POST") {
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    req.push_str("\r\n");
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(body);
    raw(addr, &bytes)
}

/// POST of a JSON value.
pub fn post(addr: &str, path: &str, v: &serde_json::Value) -> Resp {
    call(
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        v.to_string().as_bytes(),
    )
}

/// GET with a bearer token.
pub fn get_auth(addr: &str, path: &str, token: &str) -> Resp {
    let h = format!("Bearer {token}");
    call(addr, "GET", path, &[("Authorization", &h)], b"")
}

/// `verifier auth serve --db DB --http 127.0.0.1:0` with short deadlines, plus `extra`.
pub fn start(db: &str, extra: &[&str]) -> super::Server {
    let mut args = vec!["auth", "serve", "--db", db, "--http", "127.0.0.1:0"];
    if !extra.contains(&"--timeout") {
        args.extend(["--timeout", "5"]);
    }
    args.extend(["--session-timeout", "30"]);
    args.extend_from_slice(extra);
    super::Server::spawn(&args)
}
