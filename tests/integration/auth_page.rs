//! The login page (`GET /` of `verifier auth serve --http`) driven in headless Chromium:
//! a person registers a name with an identity, then logs in "device style": the page shows a
//! one-time code and the exact `prover auth login … --code CODE URL` command; a run with the
//! wrong key is shown as refused, a run with the right key turns the page into a logged-in
//! session showing who, the proof system, the proof size and the verification time; logout
//! ends it. In a 1200×900 window the code and the command are above the fold. CI installs Debian's `chromium`; without it the test says it skipped.
//!
//! The page is a copy with two scripts added (the API's URL and a driver that types and
//! clicks like a person and writes what the page shows into the DOM), served from a second
//! origin (`http://127.0.0.2:PORT`, a static server in this test); the page's own code is
//! unchanged and calls the live server, which allows that origin (`--allow-origin`). The same
//! page from an origin the server does not allow can neither register nor read an answer
//! (issue 41, §3).

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::http::{call, start};
use common::{keygen, PROVER};

fn chromium() -> Option<String> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        })
        .map(str::to_string)
}

const DRIVER: &str = r#"
<script>
window.addEventListener("load", function () { setTimeout(async function () {
  const $ = id => document.getElementById(id);
  const res = { errors: [] };
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  async function until(pred, steps) {
    for (let i = 0; i < steps; i++) { if (pred()) return true; await sleep(100); }
    return pred();
  }
  // every status the login shows, as it shows it (a timer could miss one: the page's long
  // poll holds virtual time while it waits)
  res.history = [];
  // and, when it first waits for the proof (the code just shown), where the code and the
  // command are drawn in the window: above the fold or not
  new MutationObserver(() => {
    const t = $("login-status").textContent;
    res.history.push(t);
    if (t.startsWith("Waiting") && res.codeBottom === undefined) {
      res.viewport = [window.innerWidth, window.scrollY];
      res.codeBottom = $("code").getBoundingClientRect().bottom;
      res.commandBottom = $("command").getBoundingClientRect().bottom;
    }
  }).observe($("login-status"), { childList: true, characterData: true, subtree: true });
  try {
    res.title = document.title;
    $("reg-name").value = "alice";
    $("reg-text").value = __IDENTITY__;
    $("reg-btn").click();
    await until(() => /Registered|taken|Not/.test($("reg-status").textContent), 300);
    res.registered = $("reg-status").textContent;
    res.registeredClass = $("reg-status").className;
    $("reg-btn").click();
    await until(() => /taken/.test($("reg-status").textContent), 300);
    res.again = $("reg-status").textContent;
    $("login-name").value = "alice";
    $("login-btn").click();
    await until(() => $("code").textContent !== "", 300);
    res.code = $("code").textContent;
    res.command = $("command").textContent;
    res.deviceShown = !$("device").hidden;
    await until(() => !$("session").hidden, 600);
    res.who = $("who").textContent;
    res.system = $("system").textContent;
    res.proofSize = $("proof-size").textContent;
    res.verifyTime = $("verify-time").textContent;
    res.status = $("login-status").textContent;
    $("logout-btn").click();
    await until(() => /Logged out/.test($("login-status").textContent), 300);
    res.after = $("login-status").textContent;
    res.sessionAfterLogout = !$("session").hidden;
  } catch (e) { res.errors.push(String(e && e.stack || e)); }
  const pre = document.createElement("pre");
  pre.id = "test-result";
  pre.hidden = true;
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
}, 50); });
</script>
</body>"#;

/// Waits (up to 60 s) for the server's log to name a device code for `name` after `skip`
/// such lines; the code.
fn next_code(srv: &common::Server, name: &str, skip: usize) -> String {
    let t0 = Instant::now();
    loop {
        let log = srv.log();
        let codes: Vec<String> = log
            .lines()
            .filter_map(|l| l.split_once("device code ").map(|(_, r)| r.to_string()))
            .filter(|r| r.ends_with(&format!(" for {name}")))
            .map(|r| r.split_whitespace().next().unwrap().to_string())
            .collect();
        if let Some(c) = codes.get(skip) {
            return c.clone();
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "no device code:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_page_registers_and_logs_in_device_style_in_chromium() {
    let Some(bin) = chromium() else {
        common::missing("headless Chromium not found (apt-get install chromium)");
        return;
    };
    let d = common::fresh_dir("auth-page", "chromium");
    let site = std::net::TcpListener::bind("127.0.0.2:0").unwrap();
    let origin = format!("http://{}", site.local_addr().unwrap());
    let srv = start(
        d.join("u.db").to_str().unwrap(),
        &["--allow-origin", &origin],
    );
    let url = format!("http://{}", srv.addr);
    let alice = d.join("alice.key");
    let mallory = d.join("mallory.key");
    assert_eq!(keygen("sha256", alice.to_str().unwrap()).0, 0);
    assert_eq!(keygen("sha256", mallory.to_str().unwrap()).0, 0);
    let identity = std::fs::read_to_string(d.join("alice.pub")).unwrap();
    // the page as served, with the API's URL and the driver added
    let r = call(&srv.addr, "GET", "/", &[], b"");
    assert_eq!(r.status, 200);
    assert!(r
        .header("content-security-policy")
        .unwrap()
        .contains("default-src 'none'"));
    let page = r.text();
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "self-contained"
    );
    // the kind selector offers every kind, aes128 among them
    for kind in ["sha256", "aes128", "lowmc", "peg"] {
        assert!(
            page.contains(&format!("<option value=\"{kind}\"")),
            "{kind}"
        );
    }
    let copy = page
        .replacen(
            "<script>",
            &format!("<script>window.ZKG_API = {:?};</script>\n<script>", url),
            1,
        )
        .replace(
            "</body>",
            &DRIVER.replace("__IDENTITY__", &serde_json::to_string(&identity).unwrap()),
        );
    serve_page(site, copy);
    // the person at the terminal: first the wrong key, then the right one, with the code
    let (srv_log, kp, mp, u) = (
        &srv,
        alice.to_str().unwrap().to_string(),
        mallory.to_str().unwrap().to_string(),
        url.clone(),
    );
    let (dom, runs) = std::thread::scope(|sc| {
        let person = sc.spawn(move || {
            let code = next_code(srv_log, "alice", 0);
            let bad = common::run(
                PROVER,
                &[
                    "auth", "login", "alice", "--key", &mp, "--code", &code, "--yes", &u,
                ],
            );
            // give the page time to show the refusal before the right key arrives
            std::thread::sleep(Duration::from_millis(1500));
            let good = common::run(
                PROVER,
                &[
                    "auth", "login", "alice", "--key", &kp, "--code", &code, "--yes", &u,
                ],
            );
            (bad, good)
        });
        let profile = d.join("profile");
        let o = Command::new(&bin)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--virtual-time-budget=120000",
                "--window-size=1200,900",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("{origin}/"))
            .output()
            .unwrap();
        (o, person.join().unwrap())
    });
    let out = String::from_utf8_lossy(&dom.stdout).into_owned();
    let res = result(&out, &String::from_utf8_lossy(&dom.stderr));
    let (bad, good) = runs;
    assert_eq!(bad.0, 1, "wrong key: {}", bad.2);
    assert_eq!(good.0, 0, "right key: {}", good.2);
    assert_eq!(res["errors"], Value::Array(vec![]), "{res}");
    assert!(
        res["registered"]
            .as_str()
            .unwrap()
            .starts_with("Registered alice (sha256 key"),
        "{res}"
    );
    assert!(res["again"].as_str().unwrap().contains("is taken"), "{res}");
    let code = res["code"].as_str().unwrap();
    assert_eq!(code.len(), 9, "{res}");
    // the code and the command to run are above the fold of a 1200×900 window: drawn 1200
    // pixels wide, not scrolled, their bottoms within 900 pixels of the top (headless
    // Chromium's window is shorter inside than asked; the page's layout does not depend on
    // the height)
    assert_eq!(res["viewport"], serde_json::json!([1200, 0]), "{res}");
    let bottom = |k: &str| res[k].as_f64().unwrap_or_else(|| panic!("{k}: {res}"));
    assert!(bottom("codeBottom") > 0.0, "{res}");
    assert!(
        bottom("codeBottom") <= 900.0,
        "the code is below the fold: {res}"
    );
    assert!(
        bottom("commandBottom") <= 900.0,
        "the command is below the fold: {res}"
    );
    assert_eq!(
        res["command"].as_str().unwrap(),
        format!("prover auth login alice --key alice.key --code {code} {url}")
    );
    // waiting, then the refusal of the wrong key, then logged in
    let h: Vec<&str> = res["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let at = |p: &str| {
        h.iter()
            .position(|s| s.starts_with(p))
            .unwrap_or_else(|| panic!("{p}: {h:?}"))
    };
    assert!(at("Waiting for the proof") < at("Login refused"), "{h:?}");
    assert!(at("Login refused") < at("Logged in as alice"), "{h:?}");
    assert_eq!(res["who"], "alice", "{res}");
    assert!(
        res["system"]
            .as_str()
            .unwrap()
            .starts_with("VOLE-in-the-head"),
        "{res}"
    );
    // the size shown is the proof's: the prover printed it too
    let size: String = res["proofSize"]
        .as_str()
        .unwrap()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert!(
        good.2.contains(&format!("{size}-byte")),
        "{res} vs {}",
        good.2
    );
    assert!(
        res["verifyTime"].as_str().unwrap().ends_with(" ms"),
        "{res}"
    );
    assert_eq!(res["after"], "Logged out.");
    assert_eq!(res["sessionAfterLogout"], false);
    let (_, log) = srv.stop();
    assert!(
        log.contains("refused login alice") && log.contains("ok login alice"),
        "{log}"
    );
}

/// Serves `page` to every request on `site` (a static web site at a second origin), from a
/// thread that lives as long as the test.
fn serve_page(site: std::net::TcpListener, page: String) {
    use std::io::{Read, Write};
    std::thread::spawn(move || {
        for s in site.incoming() {
            let Ok(mut s) = s else { return };
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                page.len()
            );
            let _ = s.write_all(head.as_bytes());
            let _ = s.write_all(page.as_bytes());
        }
    });
}

const SQUATTER: &str = r#"
<script>
window.addEventListener("load", function () { setTimeout(async function () {
  const $ = id => document.getElementById(id);
  const res = { errors: [] };
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  try {
    $("reg-name").value = "alice";
    $("reg-text").value = __IDENTITY__;
    $("reg-btn").click();
    for (let i = 0; i < 100 && $("reg-status").textContent === ""; i++) await sleep(100);
    await sleep(500);
    res.registered = $("reg-status").textContent;
    // a simple request (text/plain, no preflight): sent, but refused and unreadable
    try {
      await fetch(window.ZKG_API + "/v1/challenge", { method: "POST", body: '{"name":"alice"}' });
      res.simple = "read";
    } catch (e) { res.simple = "blocked"; }
    try {
      await fetch(window.ZKG_API + "/v1/register", { method: "POST", mode: "no-cors",
        headers: { "Content-Type": "text/plain" }, body: '{"name":"bob","identity":"x"}' });
      res.noCors = "sent";
    } catch (e) { res.noCors = "blocked"; }
  } catch (e) { res.errors.push(String(e && e.stack || e)); }
  const pre = document.createElement("pre");
  pre.id = "test-result";
  pre.hidden = true;
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
}, 50); });
</script>
</body>"#;

/// The page served from an origin the server does not allow (127.0.0.3; only 127.0.0.2 is):
/// its registration fails in the browser, nothing reaches the database (the name is still
/// free afterwards), and the simple and no-cors requests other pages could send are refused
/// (403, 415) before any work.
#[test]
fn pages_of_other_origins_cannot_use_the_api_in_chromium() {
    let Some(bin) = chromium() else {
        common::missing("headless Chromium not found (apt-get install chromium)");
        return;
    };
    let d = common::fresh_dir("auth-page", "other-origin");
    let allowed = "http://127.0.0.2:9";
    let srv = start(
        d.join("u.db").to_str().unwrap(),
        &["--allow-origin", allowed],
    );
    let url = format!("http://{}", srv.addr);
    let alice = d.join("alice.key");
    assert_eq!(keygen("sha256", alice.to_str().unwrap()).0, 0);
    let identity = std::fs::read_to_string(d.join("alice.pub")).unwrap();
    let page = call(&srv.addr, "GET", "/", &[], b"").text();
    let copy = page
        .replacen(
            "<script>",
            &format!("<script>window.ZKG_API = {:?};</script>\n<script>", url),
            1,
        )
        .replace(
            "</body>",
            &SQUATTER.replace("__IDENTITY__", &serde_json::to_string(&identity).unwrap()),
        );
    let site = std::net::TcpListener::bind("127.0.0.3:0").unwrap();
    let origin = format!("http://{}", site.local_addr().unwrap());
    serve_page(site, copy);
    let o = Command::new(&bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=30000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", d.join("profile").display()))
        .arg(format!("{origin}/"))
        .output()
        .unwrap();
    let res = result(
        &String::from_utf8_lossy(&o.stdout),
        &String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(res["errors"], Value::Array(vec![]), "{res}");
    let shown = res["registered"].as_str().unwrap();
    assert!(!shown.starts_with("Registered"), "{res}");
    assert_eq!(res["simple"], "blocked", "{res}");
    // the name is still free: nothing was registered from the other page
    let r = common::http::post(
        &srv.addr,
        "/v1/register",
        &serde_json::json!({ "name": "alice", "identity": identity.trim() }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = common::http::post(
        &srv.addr,
        "/v1/register",
        &serde_json::json!({ "name": "bob", "identity": identity.trim() }),
    );
    assert_eq!(r.status, 201, "bob was not squatted: {}", r.text());
    srv.stop();
}

fn result(dom: &str, stderr: &str) -> Value {
    let Some(i) = dom.find("<pre id=\"test-result\"") else {
        panic!("no test result in the DOM:\n{dom}\n{stderr}");
    };
    let j = i + dom[i..].find("</pre>").unwrap();
    let i = i + dom[i..].find('>').unwrap() + 1;
    let raw = dom[i..j]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{e}: {raw}"))
}
