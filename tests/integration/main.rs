//! The integration tests, one binary (one link, one process that runs them two at a time):
//! one module per feature, each driving the built `prover` and `verifier`. Two tests live
//! in binaries of their own (Cargo.toml): `equal_refusals` measures timing and needs a
//! quiet process; `fuzz_regressions` also runs in the debug profile in CI, where overflow
//! checks are on.

mod common;

mod aes128_engine;
mod architecture;
mod auth_cli;
mod auth_http;
mod auth_page;
mod auth_postgres;
mod auth_server;
mod auth_store;
mod boggle;
mod boggle_live;
mod circuit_cli;
mod doc_links;
mod dos;
mod engines_cli;
mod figures_quoted;
mod full_server;
mod garble_bound;
mod garble_cli;
mod guide_postgres;
mod harden_cli;
mod hostile_clients;
mod independent_aes128_verifier;
mod independent_lowmc_verifier;
mod independent_verifier;
mod independent_vole_verifier;
mod json_output;
mod kkw_engine;
mod login_cost;
mod malicious_verifiers;
mod messages_cli;
mod mpc_cli;
mod mpc_engine;
mod mpc_seal;
mod peg_board;
mod peg_cli;
mod peg_protocol;
mod peg_solver;
mod readme_blocks;
mod serve_cli;
mod sessions;
mod tatham_bridges;
mod tatham_dominosa;
mod tatham_games;
mod tatham_loopy;
mod tatham_map;
mod tatham_pearl;
mod tatham_sessions;
mod tatham_sgt;
mod tatham_signpost;
mod tatham_slant;
mod tatham_towers;
mod tatham_unequal;
mod tatham_unruly;
mod untrusted_input;
mod vole_cli;
mod vole_engine;
mod wall_circuit;
mod wall_cli;
mod wall_cut;
mod wall_cut_big;
mod wall_format;
mod wall_game;
mod wall_html;
mod wall_seal;
mod wall_seal_cli;
mod words_wordle;
