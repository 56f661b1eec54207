//! The layering of docs/ARCHITECTURE.md, checked on cargo's own dependency graph: cargo
//! refuses to build an import of a crate that is not declared, so the declared
//! dependencies *are* what each layer may import. This test keeps them equal to the map in
//! the docs, and keeps the engine crate free of every service, database and command-line
//! crate.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Each workspace crate and the workspace crates it may depend on, bottom up
/// (docs/ARCHITECTURE.md, "The crates").
const LAYERS: &[(&str, &[&str])] = &[
    ("zkgames-core", &[]),
    ("zkgames-net", &["zkgames-core"]),
    ("zkgames-mpc", &["zkgames-core", "zkgames-net"]),
    (
        "zkgames-peg",
        &["zkgames-core", "zkgames-net", "zkgames-mpc"],
    ),
    ("zkgames-peg-count", &["zkgames-core", "zkgames-peg"]),
    (
        "zkgames-wall",
        &["zkgames-core", "zkgames-net", "zkgames-mpc"],
    ),
    ("zkgames-garble", &["zkgames-core", "zkgames-mpc"]),
    (
        "zkgames-words",
        &["zkgames-core", "zkgames-net", "zkgames-mpc"],
    ),
    (
        "zkgames-tatham",
        &["zkgames-core", "zkgames-net", "zkgames-mpc", "zkgames-peg"],
    ),
    (
        "zkgames-auth",
        &["zkgames-core", "zkgames-net", "zkgames-mpc", "zkgames-peg"],
    ),
];

/// What the engine crate must never pull in, directly or through another crate.
const NOT_IN_THE_ENGINES: &[&str] = &[
    "tokio",
    "hyper",
    "axum",
    "postgres",
    "rusqlite",
    "ureq",
    "clap",
    "indicatif",
];

struct Graph {
    /// package id -> name
    names: BTreeMap<String, String>,
    /// package id -> ids of its normal (non-dev, non-build) dependencies
    deps: BTreeMap<String, Vec<String>>,
    workspace: BTreeSet<String>,
}

fn graph() -> Graph {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let metadata = |offline: bool| {
        let mut c = Command::new(&cargo);
        c.args(["metadata", "--format-version", "1"]);
        if offline {
            c.arg("--offline");
        }
        c.current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo metadata runs")
    };
    // Offline first; a build for this platform downloads only its own dependencies, and
    // the graph names every platform's (`anstyle-wincon`): then from the registry.
    let mut out = metadata(true);
    if !out.status.success() {
        out = metadata(false);
    }
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut names = BTreeMap::new();
    for p in v["packages"].as_array().unwrap() {
        names.insert(
            p["id"].as_str().unwrap().to_string(),
            p["name"].as_str().unwrap().to_string(),
        );
    }
    let workspace = v["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    let mut deps = BTreeMap::new();
    for n in v["resolve"]["nodes"].as_array().unwrap() {
        let normal = n["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k["kind"].is_null())
            })
            .map(|d| d["pkg"].as_str().unwrap().to_string())
            .collect();
        deps.insert(n["id"].as_str().unwrap().to_string(), normal);
    }
    Graph {
        names,
        deps,
        workspace,
    }
}

impl Graph {
    fn id(&self, name: &str) -> &str {
        self.workspace
            .iter()
            .find(|id| self.names[*id] == name)
            .unwrap_or_else(|| panic!("{name} is not a workspace member"))
    }

    /// Names of every crate `name` depends on, directly or not (normal dependencies).
    fn closure(&self, name: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![self.id(name).to_string()];
        while let Some(id) = todo.pop() {
            for d in &self.deps[&id] {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        seen.iter().map(|id| self.names[id].clone()).collect()
    }
}

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let g = graph();
    let members: BTreeSet<&str> = g.workspace.iter().map(|id| g.names[id].as_str()).collect();
    for &(name, allowed) in LAYERS {
        assert!(members.contains(name), "{name} is not in the workspace");
        let direct: BTreeSet<String> = g.deps[g.id(name)]
            .iter()
            .map(|id| g.names[id].clone())
            .filter(|n| n.starts_with("zkgames"))
            .collect();
        let allowed: BTreeSet<String> = allowed.iter().map(|s| s.to_string()).collect();
        assert!(
            direct.is_subset(&allowed),
            "{name} depends on {:?}, outside its layer (docs/ARCHITECTURE.md)",
            direct.difference(&allowed).collect::<Vec<_>>()
        );
    }
    // every library crate is on the map; only the binaries' crate sits above them all
    for m in &members {
        assert!(
            *m == "zkgames" || LAYERS.iter().any(|(n, _)| n == m),
            "crate {m} is not on the map in docs/ARCHITECTURE.md and in LAYERS here"
        );
    }
}

#[test]
fn the_engine_crate_pulls_in_no_service_database_or_command_line_crate() {
    let g = graph();
    for name in ["zkgames-core", "zkgames-net", "zkgames-mpc"] {
        let all = g.closure(name);
        for bad in NOT_IN_THE_ENGINES {
            assert!(!all.contains(*bad), "{name} depends on {bad}");
        }
    }
    // and the check sees what it must: the login crate does pull in the web stack
    let auth = g.closure("zkgames-auth");
    assert!(auth.contains("tokio") && auth.contains("rusqlite"));
}

/// Protocol ids are declared by their kinds (no table in the bottom layer): every id the
/// program links is registered once, each kind's table names registered ids of the engine
/// it says, and docs/PROTOCOLS.md 1.4 lists every one.
#[test]
fn every_protocol_id_is_registered_once_by_its_kind_and_documented() {
    use zkgames::proof_file::{ProtocolId, PROTOCOL_IDS};
    let mut ids: Vec<u16> = PROTOCOL_IDS.iter().map(|r| r.id.0).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "an id is registered twice: {ids:?}");
    let kinds = [
        &zkgames::peg::mpc::PROTOCOLS,
        &zkgames::mpc::sha256::PROTOCOLS,
        &zkgames::wall::seal::PROTOCOLS,
        &zkgames::mpc::lowmc::PROTOCOLS,
        &zkgames::mpc::aes128::PROTOCOLS,
        &zkgames::mpc::bristol::proof::PROTOCOLS,
        &zkgames::tatham::proof::PROTOCOLS,
        &zkgames::garble::proof::PROTOCOLS,
        &zkgames::words::wordle::SEAL_PROTOCOLS,
        &zkgames::words::wordle::ANSWER_PROTOCOLS,
        &zkgames::words::boggle::FIND_PROTOCOLS,
    ];
    let mut listed = vec![zkgames::peg::fs::PEG_ISO.0];
    for k in kinds {
        for &(e, id) in k.ids {
            let r = id
                .registered()
                .unwrap_or_else(|| panic!("{} id {} is not registered", k.what, id.0));
            assert_eq!(r.engine.1, e.wire(), "{}", k.what);
            assert_eq!(ProtocolId::from_u16(id.0), Some(id));
            listed.push(id.0);
        }
    }
    listed.sort_unstable();
    assert_eq!(
        listed, ids,
        "a registered id belongs to no kind checked here"
    );
    let doc = std::fs::read_to_string(crate::common::p("docs/PROTOCOLS.md")).unwrap();
    let table = &doc[doc.find("Protocol ids (u16 LE at offset 10)").unwrap()..];
    let table = &table[table.find("| id |").unwrap()..];
    let table = &table[..table.find("\n\n").unwrap_or(table.len())];
    let numbers: Vec<u16> = table
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    for id in &ids {
        assert!(
            numbers.contains(id),
            "PROTOCOLS.md 1.4 does not list id {id}"
        );
    }
    assert_eq!(ProtocolId(9999).registered().map(|r| r.id), None);
    assert_eq!(ProtocolId(9999).name(), "protocol 9999");
}
